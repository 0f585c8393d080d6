//! One module per subcommand, each with its arguments and its `run`.

pub mod demo;
pub mod doctor;
pub mod expire;
pub mod reap;
pub mod scan;
pub mod size;
pub mod stuck;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use crate::cli::Global;
use crate::exit::{Interrupted, Outcome};
use demo::DemoArgs;
use doctor::DoctorArgs;
use expire::ExpireArgs;
use reap::ReapArgs;
use scan::ScanArgs;
use size::SizeArgs;
use stuck::StuckArgs;

#[derive(Debug, Parser)]
#[command(
    name = "idemctl",
    version = concat!(
        env!("CARGO_PKG_VERSION"),
        " (engines: PostgreSQL, MySQL/MariaDB, SQLite bundled; TLS built in: rustls with the Mozilla roots, no OpenSSL)"
    ),
    about = "Find the damage retried requests did to a database, and keep an idempotency-key table healthy",
    long_about = "Find the damage retried requests did to a database, and keep an idempotency-key table healthy.\n\n\
        Engines: PostgreSQL (postgres://, postgresql://), MySQL and MariaDB (mysql://, mariadb://) \
        and SQLite (sqlite:PATH), chosen by the URL in --database-url or DATABASE_URL.\n\n\
        Exit status: 0 clean, 1 findings, 2 error or bad input, 3 another run holds the lock, 130 interrupted.",
    propagate_version = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

impl Command {
    /// What the metrics are labelled with, known before the run: the
    /// database (engine, host, database) and the table as named by flag,
    /// config file or default, so that a failing run's series are the same
    /// series as a clean run's.
    pub fn metrics_labels(&self) -> Option<(String, String)> {
        let key_table = |url: &str, mapping: &crate::keys::MappingArgs| {
            let file = crate::config::Config::load(mapping.config.as_deref()).unwrap_or_default();
            let table = mapping.table.clone().or(file.key_table.table).unwrap_or_else(|| "idempotency_keys".into());
            (crate::db::Target::new(url).place(), table)
        };
        match self {
            Command::Scan(a) => Some((crate::db::Target::new(&a.connect.database_url).place(), a.table.clone())),
            Command::Stuck(a) => Some(key_table(&a.connect.database_url, &a.mapping)),
            Command::Reap(a) => Some(key_table(&a.connect.database_url, &a.mapping)),
            Command::Expire(a) => Some(key_table(&a.connect.database_url, &a.mapping)),
            Command::Doctor(a) => Some(key_table(&a.connect.database_url, &a.mapping)),
            Command::Size(a) => a.database_url.as_deref().map(|url| key_table(url, &a.mapping)),
            Command::Demo(_) | Command::Completions { .. } => None,
        }
    }

    /// For a writing command, whether it only shows what it would do
    /// (`--dry-run`); `None` for a command that only reads.
    pub fn writes(&self) -> Option<bool> {
        match self {
            Command::Reap(a) => Some(a.dry_run),
            Command::Expire(a) => Some(a.dry_run),
            _ => None,
        }
    }

    /// A writer's `--max-runtime`.
    pub fn max_runtime(&self) -> Option<std::time::Duration> {
        match self {
            Command::Reap(a) => a.max_runtime,
            Command::Expire(a) => a.max_runtime,
            _ => None,
        }
    }

    /// The same, ending by `left` at the latest (a fleet's deadline).
    pub fn limit_runtime(mut self, left: Option<std::time::Duration>) -> Command {
        if let Some(left) = left {
            match &mut self {
                Command::Reap(a) => a.max_runtime = Some(a.max_runtime.map_or(left, |m| m.min(left))),
                Command::Expire(a) => a.max_runtime = Some(a.max_runtime.map_or(left, |m| m.min(left))),
                _ => {}
            }
        }
        self
    }

    /// What the report's rows are called (`clusters`, `keys`, ...).
    pub fn rows_key(&self) -> &'static str {
        match self {
            Command::Scan(a) => a.rows_key(),
            Command::Stuck(_) | Command::Reap(_) => "keys",
            Command::Expire(_) => "runs",
            Command::Size(_) => "figures",
            Command::Doctor(_) => "checks",
            Command::Demo(_) | Command::Completions { .. } => "rows",
        }
    }

    /// The same command, on the database `name` at `url`; a `{database}`
    /// in scan's `--state` path becomes the name, made fit for a file name.
    pub fn for_database(&self, url: &str, name: &str) -> Command {
        match self {
            Command::Scan(a) => {
                let file_name: String = name
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' })
                    .collect();
                let state = a.state.as_ref().map(|p| p.to_string_lossy().replace("{database}", &file_name).into());
                Command::Scan(Box::new(ScanArgs { connect: a.connect.on(url), state, ..(**a).clone() }))
            }
            Command::Stuck(a) => Command::Stuck(Box::new(StuckArgs { connect: a.connect.on(url), ..(**a).clone() })),
            Command::Reap(a) => Command::Reap(Box::new(ReapArgs { connect: a.connect.on(url), ..(**a).clone() })),
            Command::Expire(a) => Command::Expire(Box::new(ExpireArgs { connect: a.connect.on(url), ..(**a).clone() })),
            Command::Doctor(a) => Command::Doctor(Box::new(DoctorArgs { connect: a.connect.on(url), ..(**a).clone() })),
            Command::Size(a) => {
                Command::Size(Box::new(SizeArgs { database_url: Some(url.to_string()), ..(**a).clone() }))
            }
            Command::Demo(a) => Command::Demo(a.clone()),
            Command::Completions { shell } => Command::Completions { shell: *shell },
        }
    }

    /// Whether scan's `--state` path, when given, has `{database}` in it.
    fn state_per_database(&self) -> Option<bool> {
        match self {
            Command::Scan(a) => a.state.as_ref().map(|p| p.to_string_lossy().contains("{database}")),
            _ => None,
        }
    }

    /// Why the command cannot run across several databases as given, if it cannot.
    pub fn fleet_refusal(&self) -> Option<&'static str> {
        match self {
            Command::Scan(_) if self.state_per_database() == Some(false) => {
                Some("--state across several databases needs {database} in its path, so that each keeps its own")
            }
            Command::Demo(_) | Command::Completions { .. } => Some("this command runs on no database"),
            _ => None,
        }
    }

    /// The subcommand's name, as typed.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Scan(_) => "scan",
            Command::Stuck(_) => "stuck",
            Command::Reap(_) => "reap",
            Command::Expire(_) => "expire",
            Command::Size(_) => "size",
            Command::Doctor(_) => "doctor",
            Command::Demo(_) => "demo",
            Command::Completions { .. } => "completions",
        }
    }
}

/// What a command line runs: a command on one database, or across a fleet.
pub enum Run {
    One(Command),
    Fleet(crate::fleet::Plan),
}

impl Cli {
    /// The command line's run: across the databases `--database`, `--tag`,
    /// `--all-databases` or `--databases` pick, else on one database.
    pub fn into_run(mut self) -> Result<Run> {
        let config = self.global.config_file();
        let picked = match &self.command {
            Command::Demo(_) | Command::Completions { .. } => None,
            _ => crate::fleet::select(&self.global, config.as_deref())?,
        };
        let Some(members) = picked else {
            // One database: a `{database}` in scan's --state path is its host/database.
            let command = self.into_command()?;
            return Ok(Run::One(match &command {
                Command::Scan(a) if command.state_per_database() == Some(true) => {
                    let url = a.connect.database_url.clone();
                    command.for_database(&url, &crate::fleet::select::name_of(&url, false))
                }
                _ => command,
            }));
        };
        let (parallel, output, metrics_file) =
            (usize::from(self.global.parallel), self.global.output(), self.global.metrics_file.clone());
        // Each database's URL is filled in as it runs.
        self.global.database_url = Some(members.iter().find_map(|m| m.url.clone().ok()).unwrap_or_default());
        let command = self.into_command()?;
        Ok(Run::Fleet(crate::fleet::Plan { command, members, parallel, output, metrics_file, config }))
    }

    /// The subcommand with the global options filled into its arguments.
    pub fn into_command(self) -> Result<Command> {
        let Cli { global, mut command } = self;
        let output = global.output();
        let config = global.config_file();
        let url = || {
            global.database_url.clone().ok_or_else(|| {
                let listed = crate::config::Config::load(config.as_deref()).map_or(0, |c| c.databases.len());
                match (&config, listed) {
                    (Some(path), 1..) => anyhow::anyhow!(
                        "no database: give --database-url URL, or set DATABASE_URL, or pick from the {listed} \
                         databases of {} with --database NAME, --tag T or --all-databases",
                        path.display()
                    ),
                    _ => anyhow::anyhow!("no database: give --database-url URL, or set DATABASE_URL"),
                }
            })
        };
        match &mut command {
            Command::Scan(args) => {
                args.connect.database_url = url()?;
                args.report = output;
                args.config = config;
            }
            Command::Stuck(args) => {
                args.connect.database_url = url()?;
                args.report = output;
                args.mapping.config = config;
            }
            Command::Reap(args) => {
                args.connect.database_url = url()?;
                args.report = output;
                args.mapping.config = config;
            }
            Command::Expire(args) => {
                args.connect.database_url = url()?;
                args.report = output;
                args.mapping.config = config;
            }
            Command::Doctor(args) => {
                args.connect.database_url = url()?;
                args.report = output;
                args.mapping.config = config;
            }
            Command::Size(args) => {
                args.database_url = global.database_url.clone();
                args.report = output;
                args.mapping.config = config;
            }
            Command::Demo(_) | Command::Completions { .. } => {}
        }
        Ok(command)
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find near-duplicate rows in a creation table, clustered by a time window
    #[command(
        long_about = "Find near-duplicate rows in a creation table, clustered by a time window.\n\n\
        A retried create copies the request into a new row: scan reads the table once, in creation \
        order, and clusters rows equal on every compared column within --window (5s) of each other. \
        Compared: every column of the row's content. Left out, each named in the report with its \
        reason: the row id, the created-at column, columns that mint a value per attempt (defaults \
        such as uuids, sequences and now(), unique columns, generated tokens), ORM update times \
        (updated_at, modified_at, ...), times that move with the creation, and columns the near \
        misses show differ on nearly every retry. --columns and --ignore decide instead.\n\n\
        Each cluster has a cause (no-key, key-per-attempt, key-reused, unknown), its extra rows, \
        the money at stake (--sum, per currency) and who was hit (--by); --output rows is the \
        remediation list.",
        after_long_help = "Examples:
  idemctl scan --database-url postgres://ro@db/shop --table orders --sum amount --by customer_id
  idemctl scan --table orders --since 24h --output rows --format csv > remediate.csv
  idemctl scan --table orders --state /var/lib/idemctl/orders.state --format ndjson   # from cron"
    )]
    Scan(Box<ScanArgs>),
    /// List keys left in progress past their operation's maximum duration
    #[command(after_long_help = "Examples:
  idemctl stuck --database-url postgres://ro@replica/app
  idemctl stuck --max-duration 5m --max-duration 'POST /v1/payments=30s' --format json")]
    Stuck(Box<StuckArgs>),
    /// Resolve stuck keys: release them for retry, or fail them for good
    #[command(after_long_help = "Examples:
  idemctl reap --dry-run
  idemctl reap --max-duration 'POST /v1/payments=30s' --format csv --no-header >> reap.log
  idemctl reap --action fail --verify-sql 'SELECT 1 FROM payments WHERE idempotency_key = :key'")]
    Reap(Box<ReapArgs>),
    /// Delete key rows past the retention horizon, in short batches
    #[command(after_long_help = "Examples:
  idemctl expire --dry-run
  idemctl expire --older-than 72h --max-runtime 10m --sleep 50ms --quiet
  idemctl expire --metrics-file /var/lib/node_exporter/idemctl_expire.prom")]
    Expire(Box<ExpireArgs>),
    /// The key table's storage now, its daily writes, and its size at each retention horizon
    #[command(after_long_help = "Examples:
  idemctl size --database-url postgres://ro@replica/app --retention 24h,72h,30d
  idemctl size --rate 10M/day --row-bytes 1KB")]
    Size(Box<SizeArgs>),
    /// Check the key table's design against the rules that prevent duplicates
    #[command(after_long_help = "Examples:
  idemctl doctor --creation-table orders
  idemctl doctor --format json | jq '.checks[] | select(.result != \"pass\")'")]
    Doctor(Box<DoctorArgs>),
    /// Create an SQLite database with realistic retry damage, and scan it
    #[command(after_long_help = "Examples:
  idemctl demo
  idemctl demo --path /tmp/demo.db")]
    Demo(DemoArgs),
    /// Print a shell completion script: bash, zsh, fish, powershell or elvish
    #[command(after_long_help = "Examples:
  idemctl completions bash > ~/.local/share/bash-completion/completions/idemctl
  idemctl completions zsh > ~/.zfunc/_idemctl
  idemctl completions fish > ~/.config/fish/completions/idemctl.fish")]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Parses the command line. Usage errors print one line and give exit 2;
/// `--help` and `--version` print as usual and give exit 0.
pub fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|err| {
        use clap::error::ErrorKind;
        match err.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                let _ = err.print();
                ExitCode::from(if err.use_stderr() { crate::exit::ERROR } else { crate::exit::CLEAN })
            }
            _ => {
                // clap's message runs over several lines (the message, its
                // tips, usage): the message and the tips, on one line.
                let text = err.render().to_string();
                let kept: Vec<&str> = text
                    .split("\n\n")
                    .filter(|part| !part.starts_with("Usage:") && !part.starts_with("For more information"))
                    .map(|part| part.trim().trim_start_matches("error: ").trim_start_matches("tip: "))
                    .filter(|part| !part.is_empty())
                    .collect();
                let line = crate::exit::shorten(&kept.join("; "));
                eprintln!("idemctl: {}", if line.is_empty() { "bad command line".to_string() } else { line });
                ExitCode::from(crate::exit::ERROR)
            }
        }
    })
}

/// Runs a subcommand. Ctrl-C or SIGTERM ends a read at once (exit 130);
/// writing commands watch for it themselves and end after the current batch.
pub async fn run(command: Command) -> Result<Outcome> {
    match command {
        Command::Scan(args) => abortable(scan::run(*args)).await,
        Command::Stuck(args) => abortable(stuck::run(*args)).await,
        Command::Size(args) => abortable(size::run(*args)).await,
        Command::Doctor(args) => abortable(doctor::run(*args)).await,
        Command::Demo(args) => abortable(demo_then_scan(args)).await,
        Command::Reap(args) => reap::run(*args).await,
        Command::Expire(args) => expire::run(*args).await,
        Command::Completions { shell } => {
            use clap::CommandFactory;
            clap_complete::generate(shell, &mut Cli::command(), "idemctl", &mut std::io::stdout());
            Ok(Outcome::Clean)
        }
    }
}

/// The demo: a database with damage, a scan of it, and what to try next.
async fn demo_then_scan(args: DemoArgs) -> Result<Outcome> {
    let demo = demo::create(&args).await?;
    let line = demo.scan_line();
    let Command::Scan(scan) = Cli::try_parse_from(line.iter().map(String::as_str))?.into_command()? else {
        unreachable!("the demo's scan line parses as a scan")
    };
    scan::run(*scan).await?;
    demo.try_next()?;
    Ok(Outcome::Clean)
}

/// A read ends at Ctrl-C or SIGTERM: its statements are canceled on the
/// server and end with `Interrupted` on their own; whatever is still busy a
/// moment later is dropped.
async fn abortable(work: impl Future<Output = Result<Outcome>>) -> Result<Outcome> {
    use futures_util::future::{Either, select};
    let interrupted = crate::interrupt::wait();
    tokio::pin!(work, interrupted);
    let work = match select(work, interrupted).await {
        Either::Left((done, _)) => return done,
        Either::Right(((), work)) => work,
    };
    match tokio::time::timeout(std::time::Duration::from_millis(1600), work).await {
        Ok(Err(err)) => Err(err),
        _ => Err(Interrupted.into()),
    }
}
