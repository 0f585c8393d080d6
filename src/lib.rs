//! idemctl: finds the damage retried requests did to a database, and keeps an
//! idempotency-key table healthy.

pub mod app;
pub mod batch_run;
pub mod cli;
pub mod commands;
pub mod config;
pub mod db;
pub mod exit;
pub mod fingerprint;
pub mod fleet;
pub mod interrupt;
pub mod keys;
pub mod metrics;
pub mod nearmiss;
pub mod report;
pub mod scope;
pub mod timeparse;
pub mod units;
pub mod window;

#[cfg(test)]
mod no_panic_tests;

pub use app::{Cli, parse, run};
pub use exit::Outcome;
