//! idemctl: finds the damage retried requests did to a database, and keeps an
//! idempotency-key table healthy.

mod app;
mod batch_run;
mod cli;
mod commands;
mod config;
mod db;
mod exit;
mod fingerprint;
mod fleet;
mod interrupt;
mod keys;
mod metrics;
mod nearmiss;
mod report;
mod scope;
mod timeparse;
mod units;
mod window;

#[cfg(test)]
mod no_panic_tests;

pub use app::{Cli, parse, run};
pub use exit::{Outcome, report};
pub use interrupt::install_early;
