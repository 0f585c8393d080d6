//! The argument groups every subcommand shares: how to reach the database,
//! where the report goes, and what a writing run does with a row that
//! refuses. Imports nothing of the crate but the report's formats.

use std::time::Duration;

use clap::Args;

use crate::report::Format;

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
    #[arg(long = "max-duration", value_name = "[OP=]DURATION", value_parser = max_duration)]
    pub max_durations: Vec<(Option<String>, Duration)>,
}

pub(crate) fn max_duration(text: &str) -> Result<(Option<String>, Duration), String> {
    match text.rsplit_once('=') {
        Some((op, dur)) => Ok((Some(op.trim().to_string()), crate::timeparse::duration(dur)?)),
        None => Ok((None, crate::timeparse::duration(text).map_err(|e| format!("{e}; or give OP=DURATION"))?)),
    }
}
