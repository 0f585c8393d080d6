//! Command-line definitions shared by every subcommand.

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub use crate::timeparse::TimeUnit;

use crate::commands::{
    demo::DemoArgs, doctor::DoctorArgs, expire::ExpireArgs, reap::ReapArgs, scan::ScanArgs, size::SizeArgs,
    stuck::StuckArgs,
};

#[derive(Debug, Parser)]
#[command(
    name = "idemctl",
    version,
    about = "Find the damage retried requests did to a database, and keep an idempotency-key table healthy",
    long_about = "Find the damage retried requests did to a database, and keep an idempotency-key table healthy.\n\n\
        Engines: PostgreSQL (postgres://, postgresql://), MySQL and MariaDB (mysql://, mariadb://) \
        and SQLite (sqlite:PATH), chosen by the URL in --database-url or DATABASE_URL.\n\n\
        Exit status: 0 clean, 1 findings, 2 error or bad input, 3 another run holds the lock, 130 interrupted.",
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find near-duplicate rows in a creation table, clustered by a time window
    Scan(Box<ScanArgs>),
    /// List keys left in progress past their operation's maximum duration
    Stuck(Box<StuckArgs>),
    /// Resolve stuck keys: release them for retry, or fail them for good
    Reap(Box<ReapArgs>),
    /// Delete key rows past the retention horizon, in short batches
    Expire(Box<ExpireArgs>),
    /// The key table's storage now, its daily writes, and its size at each retention horizon
    Size(Box<SizeArgs>),
    /// Check the key table's design against the rules that prevent duplicates
    Doctor(Box<DoctorArgs>),
    /// Create an SQLite database with realistic retry damage, and scan it
    Demo(DemoArgs),
}

/// How to reach the database; flattened into every subcommand that needs one.
#[derive(Debug, Clone, Args)]
pub struct Connect {
    /// Database URL: postgres://, postgresql://, mysql://, mariadb:// or sqlite:PATH
    #[arg(long, env = "DATABASE_URL", value_name = "URL", hide_env_values = true)]
    pub database_url: String,
}

/// Where and how report rows are written.
#[derive(Debug, Clone, Args)]
pub struct Output {
    /// Output format for the data on stdout
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Print only the data: no summary or notes on stderr, no progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned table for people, with notes and a summary
    Table,
    /// RFC 4180 CSV with a header row
    Csv,
    /// One JSON document
    Json,
    /// One JSON object per line
    Ndjson,
}

/// What a writing run does when a row refuses a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OnError {
    /// Find the row by halving its batch, report it, and change every other row
    Skip,
    /// Roll the batch back and stop (exit 2)
    Stop,
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
                // clap's message runs over several lines (the missing arguments,
                // then usage); keep the message itself, on one line.
                let text = err.render().to_string();
                let message = text.split("\n\n").next().unwrap_or("bad command line");
                let line = crate::exit::shorten(message);
                eprintln!("idemctl: {}", line.trim_start_matches("error: "));
                ExitCode::from(crate::exit::ERROR)
            }
        }
    })
}
