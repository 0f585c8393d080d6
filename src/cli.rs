//! The argument groups every subcommand shares: how to reach the database,
//! where the report goes, and what a writing run does with a row that
//! refuses. Imports nothing of the crate but the report's formats and the
//! database target they fill in.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::db::Target;
use crate::report::Format;

/// The options every subcommand takes, before or after its name.
#[derive(Debug, Clone, Args)]
pub struct Global {
    /// Database URL: postgres://, postgresql://, mysql://, mariadb:// or sqlite:PATH; TLS from the URL (sslmode, sslrootcert; ssl-mode, ssl-ca)
    #[arg(
        help_heading = "Connection",
        long,
        env = "DATABASE_URL",
        value_name = "URL",
        hide_env_values = true,
        global = true
    )]
    pub database_url: Option<String>,
    /// TOML config file [default: ./idemctl.toml, else $XDG_CONFIG_HOME/idemctl/config.toml, when there]
    #[arg(
        help_heading = "Global",
        long,
        env = "IDEMCTL_CONFIG",
        value_name = "FILE",
        global = true,
        hide_env_values = true
    )]
    pub config: Option<PathBuf>,
    /// Read no config file: not --config's, not IDEMCTL_CONFIG's, not the default ones
    #[arg(hide_short_help = true, help_heading = "Global", long, global = true)]
    pub no_config: bool,
    /// Output format for the data on stdout
    #[arg(help_heading = "Output", long, value_enum, default_value_t = Format::Table, global = true)]
    pub format: Format,
    /// Print only the data: no notes or summary on stderr, no progress bar
    #[arg(help_heading = "Output", long, short, global = true)]
    pub quiet: bool,
    /// Colour for people: on a terminal (auto, and NO_COLOR unset), always, or never
    #[arg(hide_short_help = true, help_heading = "Output", long, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN", global = true)]
    pub color: ColorWhen,
    /// CSV without its header row, for appending to a file
    #[arg(hide_short_help = true, help_heading = "Output", long, global = true)]
    pub no_header: bool,
    /// The table format with every column (the default shows the ones that fit a terminal)
    #[arg(help_heading = "Output", long, global = true)]
    pub wide: bool,
    /// Run across databases of the config file's [[databases]], by name; repeatable
    #[arg(hide_short_help = true, long = "database", value_name = "NAME", global = true, help_heading = "Fleet")]
    pub databases: Vec<String>,
    /// Run across the config file's databases carrying tag T (T,U: carrying both); repeatable
    #[arg(hide_short_help = true, long = "tag", value_name = "T", global = true, help_heading = "Fleet")]
    pub tags: Vec<String>,
    /// Run across every database of the config file and of --databases
    #[arg(hide_short_help = true, long, global = true, help_heading = "Fleet")]
    pub all_databases: bool,
    /// Run across the databases whose URLs FILE lists, one a line (# comments), each named host/database
    #[arg(hide_short_help = true, long = "databases", value_name = "FILE", global = true, help_heading = "Fleet")]
    pub databases_file: Option<PathBuf>,
    /// Across several databases: how many run at a time
    #[arg(hide_short_help = true, long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=256), global = true, help_heading = "Fleet")]
    pub parallel: u16,
    /// Write the run's figures to PATH in the Prometheus text format (for node_exporter's textfile collector), atomically
    #[arg(help_heading = "Output", long, value_name = "PATH", global = true)]
    pub metrics_file: Option<PathBuf>,
}

/// When to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorWhen {
    #[default]
    Auto,
    Always,
    Never,
}

/// How to reach the database; flattened into every subcommand that needs
/// one. The URL is the global `--database-url`, filled in after parsing.
#[derive(Debug, Clone, Args)]
pub struct Connect {
    #[arg(skip)]
    pub database_url: String,
    #[command(flatten)]
    pub waits: Waits,
}

impl Connect {
    /// The same, on the database at `url`.
    pub fn on(&self, url: &str) -> Connect {
        Connect { database_url: url.to_string(), ..self.clone() }
    }

    /// The database to reach, its sessions named after the command (`idemctl scan`).
    pub fn target(&self, command: &str) -> Target {
        self.waits.target(&self.database_url, command)
    }
}

/// How long each wait on the database may last.
#[derive(Debug, Clone, Args)]
pub struct Waits {
    /// Give up connecting after this long: name resolution, TCP, TLS and authentication together
    #[arg(hide_short_help = true, help_heading = "Connection", long, value_name = "DURATION", default_value = "10s", value_parser = wait)]
    pub connect_timeout: Duration,
    /// Give up waiting for a lock another session holds after this long, reads included
    #[arg(help_heading = "Connection", long, value_name = "DURATION", default_value = "5s", value_parser = wait)]
    pub lock_timeout: Duration,
    /// Cancel any statement that runs longer [default: 60s for catalog reads, counts and batches; none for a scan's read of the table]
    #[arg(help_heading = "Connection", long, value_name = "DURATION", value_parser = wait)]
    pub statement_timeout: Option<Duration>,
}

impl Waits {
    pub fn target(&self, url: &str, command: &str) -> Target {
        Target {
            url: url.to_string(),
            connect_timeout: self.connect_timeout,
            lock_timeout: self.lock_timeout,
            statement_timeout: self.statement_timeout,
            program: format!("idemctl {command}"),
        }
    }
}

pub use crate::report::Output;

impl Global {
    /// The global options as the subcommands take them in.
    pub fn filled(&self) -> Filled {
        let config = self.config_file();
        let listed = crate::config::Config::load(config.as_deref()).map_or(0, |c| c.databases.len());
        let missing_url = match (&config, listed) {
            (Some(path), 1..) => format!(
                "no database: give --database-url URL, or set DATABASE_URL, or pick from the {listed} \
                 databases of {} with --database NAME, --tag T or --all-databases",
                path.display()
            ),
            _ => "no database: give --database-url URL, or set DATABASE_URL".to_string(),
        };
        Filled { database_url: self.database_url.clone(), output: self.output(), config, missing_url }
    }

    /// The report options, colour decided: `auto` colours a terminal unless
    /// `NO_COLOR` is set.
    pub fn output(&self) -> Output {
        let color = match self.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                use std::io::IsTerminal;
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
            }
        };
        crate::report::note_format(self.format);
        Output { format: self.format, quiet: self.quiet, color, no_header: self.no_header, wide: self.wide }
    }

    /// The config file to read: `--config` (or `IDEMCTL_CONFIG`), else
    /// `./idemctl.toml`, else `$XDG_CONFIG_HOME/idemctl/config.toml`
    /// (`~/.config/...`), when there; none with `--no-config`.
    pub fn config_file(&self) -> Option<PathBuf> {
        if self.no_config {
            return None;
        }
        if let Some(path) = &self.config {
            return Some(path.clone());
        }
        let local = PathBuf::from("idemctl.toml");
        if local.is_file() {
            return Some(local);
        }
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
        let user = base.join("idemctl").join("config.toml");
        user.is_file().then_some(user)
    }
}

/// How a writing run paces itself to the server (`expire`, `reap`).
#[derive(Debug, Clone, Args)]
pub struct Pace {
    /// Aim each batch at this long: the batch size adapts after each batch, up to --batch-size (0s: a fixed --batch-size)
    #[arg(
        long,
        value_name = "DURATION",
        default_value = "100ms",
        value_parser = crate::timeparse::duration,
        allow_negative_numbers = true,
        help_heading = "Pacing"
    )]
    pub batch_time: Duration,
    /// Pause this long after each batch
    #[arg(help_heading = "Pacing", long, value_name = "DURATION", value_parser = crate::timeparse::duration, allow_negative_numbers = true)]
    pub sleep: Option<Duration>,
    /// After each batch, pause R times its whole time, commit included (0.5: work two thirds of the time)
    #[arg(hide_short_help = true, help_heading = "Pacing", long, value_name = "R", default_value_t = 0.0, value_parser = ratio, allow_negative_numbers = true)]
    pub sleep_ratio: f64,
    /// MySQL/MariaDB: before a batch, wait while InnoDB's purge is more than N of the run's batches behind (without the PROCESS privilege: while its history list is more than N above the lowest it has been in the run) [default: 8]
    #[arg(hide_short_help = true, help_heading = "Pacing", long, value_name = "N")]
    pub max_history: Option<u64>,
    /// Pause while the server is this busy: a status variable NAME=VALUE (Threads_running=25), or NAME alone for its value at the start plus 20%; on PostgreSQL Threads_running counts the database's active backends; repeatable
    #[arg(hide_short_help = true, help_heading = "Pacing", long, value_name = "NAME[=VALUE]")]
    pub max_load: Vec<String>,
    /// Stop the run (exit 2, with what was done) once the server is this busy: NAME=VALUE, or NAME for twice its value at the start; repeatable
    #[arg(hide_short_help = true, help_heading = "Pacing", long, value_name = "NAME[=VALUE]")]
    pub critical_load: Vec<String>,
    /// A replica whose lag paces the run; repeatable
    #[arg(help_heading = "Pacing", long, value_name = "URL")]
    pub replica_url: Vec<String>,
    /// Before a batch, wait while a replica is further behind than this [default: 1s with --replica-url]
    #[arg(help_heading = "Pacing", long, value_name = "DURATION", value_parser = crate::timeparse::duration)]
    pub max_lag: Option<Duration>,
    /// Stop (exit 2) once a replica has been behind, stopped or unreachable this long
    #[arg(hide_short_help = true, help_heading = "Pacing", long, value_name = "DURATION", default_value = "5m", value_parser = crate::timeparse::duration)]
    pub max_lag_wait: Duration,
    /// Stop (exit 2) once InnoDB's purge, the load (--max-load) or a VACUUM (--wait-for-autovacuum) has held the run this long without a break
    #[arg(hide_short_help = true, help_heading = "Pacing", long, value_name = "DURATION", default_value = "5m", value_parser = crate::timeparse::duration)]
    pub max_throttle_wait: Duration,
}

fn ratio(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if (0.0..=100.0).contains(&r) => Ok(r),
        _ => Err("a ratio from 0 to 100, as 0.5".into()),
    }
}

/// What a writing run does when a row refuses a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OnError {
    /// Find the row by halving its batch, report it, and change every other row
    Skip,
    /// Roll the batch back and stop (exit 2)
    Stop,
}

/// How long each operation may hold a key: `stuck`, `reap` and `doctor`.
#[derive(Debug, Clone, Args)]
pub struct Limits {
    /// How long a request may hold a key before it counts as stuck: DURATION for every operation, OP=DURATION for one (a name or a glob: 'POST /carts/*/complete=30s'); repeatable [default: 5m]
    #[arg(help_heading = "Which keys", long = "max-duration", value_name = "[OP=]DURATION", value_parser = max_duration)]
    pub max_durations: Vec<(Option<String>, Duration)>,
}

/// A wait: at least a millisecond, at most 24 days (the servers' limit,
/// 2^31 milliseconds).
fn wait(text: &str) -> Result<Duration, String> {
    let d = crate::timeparse::duration(text)?;
    if d < Duration::from_millis(1) {
        return Err("must be at least 1ms".into());
    }
    if d > Duration::from_secs(24 * 86_400) {
        return Err("must be at most 24d (the servers take waits up to 2^31 milliseconds)".into());
    }
    Ok(d)
}

pub(crate) fn max_duration(text: &str) -> Result<(Option<String>, Duration), String> {
    match text.rsplit_once('=') {
        Some((op, dur)) => Ok((Some(op.trim().to_string()), crate::timeparse::duration(dur)?)),
        None => Ok((None, crate::timeparse::duration(text).map_err(|e| format!("{e}; or give OP=DURATION"))?)),
    }
}

/// The global options as a subcommand's arguments take them in: the
/// database URL, the report's options and the config file.
pub struct Filled {
    pub database_url: Option<String>,
    pub output: Output,
    pub config: Option<PathBuf>,
    /// What to say when the command needs a database and none was given.
    pub missing_url: String,
}

impl Filled {
    /// The database URL, or why there is none.
    pub fn url(&self) -> anyhow::Result<String> {
        self.database_url.clone().ok_or_else(|| anyhow::anyhow!("{}", self.missing_url))
    }
}
