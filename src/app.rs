//! The top layer: the command line, its folding into a run on one database
//! or across a fleet, and dispatch. Commands know nothing of fleets; the
//! fleet runs commands through their `Definition`; this layer knows both.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

use crate::cli::{Filled, Global};
use crate::commands::demo::DemoArgs;
use crate::commands::doctor::DoctorArgs;
use crate::commands::expire::ExpireArgs;
use crate::commands::reap::ReapArgs;
use crate::commands::scan::ScanArgs;
use crate::commands::size::SizeArgs;
use crate::commands::stuck::StuckArgs;
use crate::commands::{Definition, Effect, Fold, Totals};
use crate::exit::Outcome;

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
    Completions(Completions),
}

impl Command {
    /// The subcommand's one definition: the list every subcommand is in.
    pub fn into_definition(self) -> Box<dyn Definition> {
        match self {
            Command::Scan(args) => args,
            Command::Stuck(args) => args,
            Command::Reap(args) => args,
            Command::Expire(args) => args,
            Command::Size(args) => args,
            Command::Doctor(args) => args,
            Command::Demo(args) => Box::new(args),
            Command::Completions(args) => Box::new(args),
        }
    }
}

/// `completions SHELL`: the shell's completion script, from the command line's definition.
#[derive(Debug, Clone, Args)]
pub struct Completions {
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

impl Definition for Completions {
    fn name(&self) -> &'static str {
        "completions"
    }
    fn rows_key(&self) -> &'static str {
        "rows"
    }
    fn effect(&self) -> Effect {
        Effect::None
    }
    fn limit_runtime(&mut self, _: std::time::Duration) {}
    fn across_databases(&self) -> Result<(), &'static str> {
        Err("this command runs on no database")
    }
    fn totals(&self) -> Totals {
        Totals::Summaries
    }
    fn fold(&self, _: &str) -> Fold {
        Fold::Sum
    }
    fn metrics_labels(&self) -> Option<(String, String)> {
        None
    }
    fn for_database(&self, _: &str, _: &str) -> Box<dyn Definition> {
        Box::new(self.clone())
    }
    fn state_path(&self) -> Option<&std::path::Path> {
        None
    }
    fn take_global(&mut self, _: &Filled) -> Result<()> {
        Ok(())
    }
    fn run(self: Box<Self>) -> futures_util::future::BoxFuture<'static, Result<Outcome>> {
        Box::pin(async move {
            use clap::CommandFactory;
            clap_complete::generate(self.shell, &mut Cli::command(), "idemctl", &mut std::io::stdout());
            Ok(Outcome::Clean)
        })
    }
}

/// What a command line runs: a command on one database, or across a fleet.
pub enum Run {
    One(Box<dyn Definition>),
    Fleet(crate::fleet::Plan),
}

/// The command line's run: across the databases `--database`, `--tag`,
/// `--all-databases` or `--databases` pick, else on one database.
fn into_run(mut global: Global, mut definition: Box<dyn Definition>) -> Result<Run> {
    let config = global.config_file();
    let picked = match definition.effect() {
        Effect::None => None,
        _ => crate::fleet::select(&global, config.as_deref())?,
    };
    let Some(members) = picked else {
        definition.take_global(&global.filled())?;
        // One database: a `{database}` in scan's --state path is its host/database.
        let per_database = definition.state_path().is_some_and(|p| p.to_string_lossy().contains("{database}"));
        if per_database && let Some(url) = global.database_url.clone() {
            definition = definition.for_database(&url, &crate::fleet::select::name_of(&url, false));
        }
        return Ok(Run::One(definition));
    };
    let (parallel, output, metrics_file) = (usize::from(global.parallel), global.output(), global.metrics_file.clone());
    // Each database's URL is filled in as it runs.
    global.database_url = Some(members.iter().find_map(|m| m.url.clone().ok()).unwrap_or_default());
    definition.take_global(&global.filled())?;
    Ok(Run::Fleet(crate::fleet::Plan { command: definition, members, parallel, output, metrics_file, config }))
}

/// Parses the command line. Usage errors print one line and give exit 2;
/// `--help` and `--version` print as usual and give exit 0.
pub fn parse() -> Result<Cli, ExitCode> {
    let args: Vec<String> = std::env::args().collect();
    if let Some(line) = negative_value(&args) {
        eprintln!("idemctl: {line}");
        return Err(ExitCode::from(crate::exit::ERROR));
    }
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

/// A negative number given to an option that takes a value (`--window
/// -5s`): clap would take `-5s` for an option of its own and say so. No
/// option takes a negative value: the sentence says what it takes.
fn negative_value(args: &[String]) -> Option<String> {
    use clap::CommandFactory;
    let command = Cli::command();
    // The command and the subcommands named on the line: a flag another
    // subcommand has is for clap to refuse as unknown here.
    let mut chain = vec![&command];
    for arg in args.iter().skip(1).filter(|a| !a.starts_with('-')) {
        let current = chain[chain.len() - 1];
        match current.get_subcommands().find(|c| c.get_name() == arg || c.get_all_aliases().any(|a| a == arg)) {
            Some(sub) => chain.push(sub),
            None => continue,
        }
    }
    let takes = |long: &str| -> Option<String> {
        let arg = chain.iter().rev().find_map(|c| c.get_arguments().find(|a| a.get_long() == Some(long)))?;
        let names = arg.get_value_names().map(|n| n.join(" ")).unwrap_or_default();
        arg.get_action().takes_values().then_some(names)
    };
    args.windows(2).find_map(|pair| {
        let (flag, value) = (&pair[0], &pair[1]);
        let long = flag.strip_prefix("--").filter(|f| !f.contains('='))?;
        let negative = value.strip_prefix('-').is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit() || c == '.'));
        if !negative {
            return None;
        }
        let names = takes(long)?;
        let example = if names.contains("DURATION") { " (5s, 10m, 24h)" } else { "" };
        Some(format!("--{long} {value}: --{long} takes {names}, never negative{example}"))
    })
}

/// Runs one parsed command line to its outcome.
pub fn run(cli: Cli) -> Result<Outcome> {
    use crate::{db, exit, fleet, interrupt, metrics};
    // Two workers: a scan reads the database on one while it clusters on the other.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // A fleet runs its commands on the workers, whose futures are deep in a debug build.
        .thread_stack_size(8 << 20)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        // Signals first: from here on, Ctrl-C and SIGTERM cancel what runs on the server.
        interrupt::install();
        let cancelling = tokio::spawn(async {
            interrupt::wait().await;
            for line in db::session::cancel_running().await {
                eprintln!("idemctl: {line}");
            }
        });
        let Cli { global, command } = cli;
        let command = command.into_definition();
        let metrics_file = global.metrics_file.clone();
        if let Some(path) = &metrics_file {
            metrics::want(path);
        }
        let name = command.name();
        let (started, clock) = (std::time::SystemTime::now(), std::time::Instant::now());
        // A fleet that cannot start (a name or tag unknown, the same database
        // twice) leaves its metrics file as it was: its databases' series stay,
        // and their last success ages, rather than being replaced by one
        // series of no database.
        let mut is_fleet = fleet::select::wanted(&global);
        let mut result = match into_run(global, command) {
            Ok(Run::One(command)) => {
                is_fleet = false;
                if let Some((database, table)) = command.metrics_labels() {
                    metrics::target(name, &database, &table);
                }
                command.run().await
            }
            Ok(Run::Fleet(plan)) => {
                if let Some((_, table)) = plan.command.metrics_labels() {
                    metrics::target(name, "", &table);
                }
                fleet::run(plan).await
            }
            Err(err) => Err(err),
        };
        if let Some(path) = metrics_file.filter(|_| !is_fleet) {
            let written = metrics::write(&path, name, exit::code(&result), started, clock.elapsed());
            result = metrics::written(result, written);
        }
        if interrupt::is_set() {
            // The canceller has what is left of the run's one grace, not a grace of its own.
            let _ = tokio::time::timeout(interrupt::grace_left(), cancelling).await;
            // A fleet has said which of its databases failed and which were interrupted.
            if !is_fleet
                && let Err(err) = &result
                && err.downcast_ref::<exit::LockHeld>().is_none()
            {
                // A writer says what it had done when the signal came ("nothing was deleted").
                let interrupted = anyhow::Error::new(exit::Interrupted);
                return Err(match err.downcast_ref::<crate::batch_run::RunStopped>() {
                    Some(stopped) => interrupted.context(crate::batch_run::RunStopped(stopped.0.clone())),
                    None => interrupted,
                });
            }
        }
        result
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every `.rs` file under `dir`, with its text.
    fn sources(dir: &Path) -> Vec<(String, String)> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                found.extend(sources(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
            }
        }
        found
    }

    /// No module imports, through any chain, a module that imports it back:
    /// the crate's top-level modules, by the `crate::` paths their code
    /// (not their tests) names, form no circle.
    #[test]
    fn no_import_circle() {
        use std::collections::{BTreeMap, BTreeSet};
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (path, text) in sources(&src) {
            let relative = Path::new(&path).strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            let top = relative.split('/').next().unwrap().trim_end_matches(".rs").to_string();
            if ["main", "lib", "no_panic_tests"].contains(&top.as_str()) {
                continue;
            }
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            let named = code.match_indices("crate::").map(|(at, m)| {
                code[at + m.len()..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect::<String>()
            });
            let entry = imports.entry(top.clone()).or_default();
            entry.extend(named.filter(|m| !m.is_empty() && *m != top));
        }
        for (module, direct) in &imports {
            let mut seen = BTreeSet::new();
            let mut todo: Vec<&String> = direct.iter().collect();
            while let Some(next) = todo.pop() {
                assert_ne!(next, module, "{module} imports a module that imports it back");
                if seen.insert(next.clone()) {
                    todo.extend(imports.get(next).into_iter().flatten());
                }
            }
        }
        assert!(imports.len() > 10, "the modules were not read: {imports:?}");
    }

    /// The layers import downwards only: commands know nothing of the fleet
    /// or of this layer, the fleet runs commands through their definitions
    /// and knows nothing of this layer, and the scope imports nothing.
    #[test]
    fn the_layers_import_downwards() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        for (path, text) in sources(&src.join("commands")) {
            for above in ["crate::fleet", "crate::app"] {
                assert!(!text.contains(above), "{path} imports {above}");
            }
        }
        for (path, text) in sources(&src.join("fleet")) {
            assert!(!text.contains("crate::app"), "{path} imports crate::app");
            assert!(!text.contains("commands::run"), "{path} runs commands other than by their definition");
        }
        let scope = std::fs::read_to_string(src.join("scope.rs")).unwrap();
        assert!(!scope.contains("crate::"), "scope.rs imports the crate");
    }
}
