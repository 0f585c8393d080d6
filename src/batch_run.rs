//! The guard of a writing run's batch loop: Ctrl-C or SIGTERM, the run-time
//! limit, and the tests' pause between batches, checked in one place before
//! each batch, so that a run always stops between batches, never inside one.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Why a batch loop stopped before its work was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// Ctrl-C or SIGTERM: the run ends with exit 130.
    Interrupted,
    /// `--max-runtime` passed: the rest waits for the next run.
    MaxRuntime,
}

impl Stopped {
    pub fn as_str(self) -> &'static str {
        match self {
            Stopped::Interrupted => "interrupted",
            Stopped::MaxRuntime => "max-runtime",
        }
    }
}

/// A writing run's loop: counts its batches and says when to stop.
pub struct BatchRun {
    started: Instant,
    max_runtime: Option<Duration>,
    stop: StopFlag,
    batches: u64,
}

impl BatchRun {
    /// Starts the clock and watches for Ctrl-C and SIGTERM.
    pub fn start(started: Instant, max_runtime: Option<Duration>) -> BatchRun {
        BatchRun { started, max_runtime, stop: StopFlag::watch(), batches: 0 }
    }

    /// Before a batch: why the run must stop here, if it must.
    pub fn should_stop(&self) -> Option<Stopped> {
        if self.stop.is_set() {
            return Some(Stopped::Interrupted);
        }
        if self.max_runtime.is_some_and(|max| self.started.elapsed() >= max) {
            return Some(Stopped::MaxRuntime);
        }
        None
    }

    /// A batch is about to change rows: it is counted (and, under test, may
    /// pause here). Its number.
    pub async fn begin_batch(&mut self) -> u64 {
        self.batches += 1;
        pause_for_tests(self.batches).await;
        self.batches
    }

    pub fn batches(&self) -> u64 {
        self.batches
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// Set by Ctrl-C or SIGTERM, for runs that end after the batch under way.
struct StopFlag {
    flag: Arc<AtomicBool>,
    watcher: tokio::task::JoinHandle<()>,
}

impl StopFlag {
    fn watch() -> StopFlag {
        let flag = Arc::new(AtomicBool::new(false));
        let set = flag.clone();
        let watcher = tokio::spawn(async move {
            interrupted().await;
            set.store(true, Ordering::SeqCst);
        });
        StopFlag { flag, watcher }
    }

    fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
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
async fn pause_for_tests(n: u64) {
    let Some(path) = std::env::var_os("IDEMCTL_TEST_PAUSE_BEFORE_BATCH") else { return };
    let flag = format!("{}.{n}", path.to_string_lossy());
    let _ = std::fs::write(format!("{}.waiting.{n}", path.to_string_lossy()), b"");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::path::Path::new(&flag).exists() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
