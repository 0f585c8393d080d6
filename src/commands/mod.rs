//! One module per subcommand, each with its arguments and its `run`.

pub mod demo;
pub mod doctor;
pub mod expire;
pub mod reap;
pub mod scan;
pub mod size;
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
        Command::Size(args) => abortable(size::run(*args)).await,
        Command::Doctor(args) => abortable(doctor::run(*args)).await,
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

/// Takes the lock named after the table for a writing run; when another run
/// holds it, the run ends at once with exit 3.
pub(crate) async fn lock_table(
    db: &mut crate::db::Db,
    table: &crate::db::catalog::Table,
) -> Result<crate::db::lock::TableLock> {
    match crate::db::lock::try_lock(db, &format!("{}.{}", table.schema, table.name)).await? {
        Some(lock) => Ok(lock),
        None => Err(crate::exit::LockHeld(table.name.clone()).into()),
    }
}

/// Set by Ctrl-C or SIGTERM, for runs that end after the batch under way.
pub(crate) struct StopFlag {
    flag: std::sync::Arc<std::sync::atomic::AtomicBool>,
    watcher: tokio::task::JoinHandle<()>,
}

impl StopFlag {
    pub(crate) fn watch() -> StopFlag {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let set = flag.clone();
        let watcher = tokio::spawn(async move {
            interrupted().await;
            set.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        StopFlag { flag, watcher }
    }

    pub(crate) fn is_set(&self) -> bool {
        self.flag.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Drop for StopFlag {
    fn drop(&mut self) {
        self.watcher.abort();
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
