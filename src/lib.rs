//! idemctl: finds the damage retried requests did to a database, and keeps an
//! idempotency-key table healthy.

pub mod batch_run;
pub mod cli;
pub mod commands;
pub mod config;
pub mod db;
pub mod exit;
pub mod keys;
pub mod report;
pub mod timeparse;
pub mod units;
pub mod window;

#[cfg(test)]
mod no_panic_tests;

pub use commands::{Cli, parse};
pub use exit::Outcome;

/// Runs one parsed command line to its outcome.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    // Two workers: a scan reads the database on one while it clusters on the other.
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(commands::run(cli.command))
}
