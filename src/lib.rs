//! idemctl: finds the damage retried requests did to a database, and keeps an
//! idempotency-key table healthy.

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
pub mod pacing;
pub mod report;
pub mod scope;
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
        let metrics_file = cli.global.metrics_file.clone();
        if let Some(path) = &metrics_file {
            metrics::want(path);
        }
        let name = cli.command.name();
        let (started, clock) = (std::time::SystemTime::now(), std::time::Instant::now());
        // A fleet that cannot start (a name or tag unknown, the same database
        // twice) leaves its metrics file as it was: its databases' series stay,
        // and their last success ages, rather than being replaced by one
        // series of no database.
        let mut is_fleet = fleet::select::wanted(&cli.global);
        let mut result = match cli.into_run() {
            Ok(commands::Run::One(command)) => {
                is_fleet = false;
                if let Some((database, table)) = command.metrics_labels() {
                    metrics::target(name, &database, &table);
                }
                commands::run(command).await
            }
            Ok(commands::Run::Fleet(plan)) => {
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
            let _ = tokio::time::timeout(std::time::Duration::from_millis(1500), cancelling).await;
            // A fleet has said which of its databases failed and which were interrupted.
            if !is_fleet && result.as_ref().is_err_and(|e| e.downcast_ref::<exit::LockHeld>().is_none()) {
                return Err(exit::Interrupted.into());
            }
        }
        result
    })
}
