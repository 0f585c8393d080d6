//! One module per subcommand, each with its arguments and its `run`.

pub mod demo;
pub mod expire;
pub mod reap;
pub mod scan;
pub mod stuck;

use anyhow::Result;

use crate::cli::Command;
use crate::exit::{Interrupted, Outcome};

/// Runs a subcommand. Ctrl-C or SIGTERM ends a read at once (exit 130);
/// writing commands watch for it themselves and end after the current batch.
pub async fn run(command: Command) -> Result<Outcome> {
    match command {
        Command::Scan(args) => abortable(scan::run(*args)).await,
        Command::Stuck(args) => abortable(stuck::run(*args)).await,
        Command::Demo(args) => abortable(demo::run(args)).await,
        Command::Reap(args) => reap::run(*args).await,
        Command::Expire(args) => expire::run(*args).await,
    }
}

async fn abortable(work: impl Future<Output = Result<Outcome>>) -> Result<Outcome> {
    tokio::select! {
        result = work => result,
        () = interrupted() => Err(Interrupted.into()),
    }
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn interrupted() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Lets the tests stop a run between reading the keys and changing batch
/// `n`: with `IDEMCTL_TEST_PAUSE_BEFORE_BATCH=PATH`, writes `PATH.waiting.n`
/// and waits for `PATH.n` to exist.
pub(crate) async fn pause_for_tests(n: u64) {
    let Some(path) = std::env::var_os("IDEMCTL_TEST_PAUSE_BEFORE_BATCH") else { return };
    let flag = format!("{}.{n}", path.to_string_lossy());
    let _ = std::fs::write(format!("{}.waiting.{n}", path.to_string_lossy()), b"");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !std::path::Path::new(&flag).exists() && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
