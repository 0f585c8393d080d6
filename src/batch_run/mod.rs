//! A writing run's batch loop, for every writer: `BatchRun::drive` with its
//! guard (Ctrl-C or SIGTERM, the run-time limit, the retries of a batch that
//! failed on a transient fault, the reconnect, the tests' pause between
//! batches), the pacing between batches (`pacing`), and `Halves` for a batch
//! that failed on a row.

pub mod pacing;

use std::time::{Duration, Instant};

use anyhow::Result;

use crate::db::catalog::Table;
use crate::db::lock::{self, TableLock};
use crate::db::{self, Access, Db, Writer};

/// Why a writing run stopped before its work was done: the summary's
/// `stopped`, written as its kebab-case name (`max-runtime`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// Ctrl-C or SIGTERM: the run ends with exit 130.
    Interrupted,
    /// `--max-runtime` passed: the rest waits for the next run.
    MaxRuntime,
    /// A load figure passed `--critical-load`.
    CriticalLoad,
    /// A replica stayed behind past `--max-lag-wait`.
    MaxLagWait,
    /// A throttle held the run past `--max-throttle-wait`.
    MaxThrottleWait,
    /// Rows matched stayed after their batches (a trigger, a rule, a policy).
    RowsNotDeleted,
    /// Any other error.
    Error,
}

impl serde::Serialize for Stopped {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl Stopped {
    pub fn as_str(self) -> &'static str {
        match self {
            Stopped::Interrupted => "interrupted",
            Stopped::MaxRuntime => "max-runtime",
            Stopped::CriticalLoad => "critical-load",
            Stopped::MaxLagWait => "max-lag-wait",
            Stopped::MaxThrottleWait => "max-throttle-wait",
            Stopped::RowsNotDeleted => "rows-not-deleted",
            Stopped::Error => "error",
        }
    }
}

/// A writing run's loop: counts its batches, says when to stop, and what
/// to do when a batch fails.
pub struct BatchRun {
    started: Instant,
    max_runtime: Option<Duration>,
    batches: u64,
    /// Attempts a batch may make again after a transient fault.
    retries: u32,
    /// Failed attempts of the batch under way.
    attempts: u32,
    /// When the batch under way first failed; it is being tried again.
    failing_since: Option<Instant>,
    /// How long a batch may spend waiting on locks, its retries included.
    lock_budget: Duration,
    reconnected: bool,
}

/// What a writing run does after a batch failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterFailure {
    /// A lock wait, deadlock or serialization failure: the batch again,
    /// after `pause` (the pause was interrupted when it returns false).
    Retry,
    /// The connection was lost for the first time: connect again and go on.
    Reconnect,
    /// Ctrl-C or SIGTERM: the summary, then exit 130.
    Interrupted,
    /// Anything else, or the budget spent: the summary, then exit 2.
    Stop,
}

impl BatchRun {
    /// Starts the clock. A batch that fails on a transient fault is tried
    /// again up to `retries` times; lock waits end sooner, once the batch has
    /// spent `lock_budget` (`--lock-timeout`) on them and their pauses.
    pub fn start(started: Instant, max_runtime: Option<Duration>, retries: u32, lock_budget: Duration) -> BatchRun {
        BatchRun {
            started,
            max_runtime,
            batches: 0,
            retries,
            attempts: 0,
            failing_since: None,
            lock_budget,
            reconnected: false,
        }
    }

    /// Before a batch: why the run must stop here, if it must.
    pub fn should_stop(&self) -> Option<Stopped> {
        if crate::interrupt::is_set() {
            return Some(Stopped::Interrupted);
        }
        if self.max_runtime.is_some_and(|max| self.started.elapsed() >= max) {
            return Some(Stopped::MaxRuntime);
        }
        None
    }

    /// A batch is about to change rows: it is counted (and, under test, may
    /// pause here). Its number. A batch tried again keeps its number.
    pub async fn begin_batch(&mut self) -> u64 {
        if self.failing_since.is_none() {
            self.batches += 1;
            pause_for_tests(self.batches).await;
        }
        self.batches
    }

    /// The batch under way is done.
    pub fn batch_done(&mut self) {
        self.attempts = 0;
        self.failing_since = None;
    }

    /// After a batch failed: what to do next. A transient fault is retried
    /// after a pause that doubles (0.5 s, 1 s, 2 s, ...), up to `--retries`
    /// times; a lost connection is reconnected once per run.
    pub async fn after_failure(&mut self, err: &anyhow::Error) -> AfterFailure {
        use crate::db::errors::{Fault, fault};
        if crate::interrupt::is_set() || err.downcast_ref::<crate::exit::Interrupted>().is_some() {
            return AfterFailure::Interrupted;
        }
        let failing_for = self.failing_since.get_or_insert_with(Instant::now).elapsed();
        let pause = Duration::from_millis(500) * 2u32.pow(self.attempts.min(10));
        match fault(err) {
            // A wait as long as the whole budget (a table lock) is not waited again.
            Some(Fault::LockWait { waited, .. })
                if self.attempts >= self.retries || failing_for + *waited + pause > self.lock_budget =>
            {
                AfterFailure::Stop
            }
            Some(f) if f.is_transient() && self.attempts < self.retries => {
                self.attempts += 1;
                if crate::interrupt::sleep(pause).await { AfterFailure::Retry } else { AfterFailure::Interrupted }
            }
            Some(Fault::ConnectionLost { .. }) if !self.reconnected => {
                self.reconnected = true;
                AfterFailure::Reconnect
            }
            _ => AfterFailure::Stop,
        }
    }

    /// The retries the batch that failed last had made.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    pub fn batches(&self) -> u64 {
        self.batches
    }
}

/// A writing command's batch work, which `BatchRun::drive` runs: the next
/// batch, and what the command keeps of one done. The loop around them
/// (stops, pacing, retries, the reconnect) is the same for every writer.
pub trait BatchWork {
    /// What one batch did.
    type Done;
    /// Whether the work is known to be done without asking the database
    /// (the last of a list resolved): the run then stops for nothing else.
    fn is_done(&self) -> bool;
    /// Finds and does the next batch of at most `size` rows (calling
    /// `run.begin_batch()` just before it changes any); `None` when no
    /// work is left. An error is retried, reconnected or ends the run as
    /// `BatchRun::after_failure` decides: a batch must be safe to run again.
    fn batch(
        &mut self,
        db: &mut Db,
        run: &mut BatchRun,
        size: u64,
    ) -> impl Future<Output = Result<Option<Self::Done>>> + Send;
    /// Keeps what a batch did (counts, rows to report, the log flushed),
    /// after it took `took`; the rows it changed, for the pacing.
    fn keep(&mut self, done: Self::Done, took: Duration) -> Result<u64>;
}

/// How a writing run's batches ended.
#[derive(Debug)]
pub enum Ended {
    /// No work is left.
    Done,
    /// Stopped before the work was done, for this reason.
    Stopped(Stopped),
    /// A batch failed, and the run with it.
    Failed(anyhow::Error),
}

impl BatchRun {
    /// Runs `work`'s batches until none is left or the run must stop: before
    /// each, Ctrl-C, `--max-runtime` and the pacer's waits; after each, the
    /// pacer's measure; a failed batch retried, or the session connected
    /// again once (the table's lock and the writer's settings with it).
    pub async fn drive<W: BatchWork>(
        &mut self,
        db: &mut Db,
        pacer: &mut pacing::Pacer,
        work: &mut W,
        (table, writer): (&Table, Writer),
        quiet: bool,
    ) -> Ended {
        // The table's lock again, after a reconnect.
        let mut _relocked = None;
        loop {
            if work.is_done() {
                return Ended::Done;
            }
            if let Some(stopped) = self.should_stop() {
                return Ended::Stopped(stopped);
            }
            match pacer.before_batch(db, self).await {
                Ok(None) => {}
                Ok(Some(stopped)) => return Ended::Stopped(stopped),
                Err(err) => return Ended::Failed(err),
            }
            let started = Instant::now();
            let err = match work.batch(db, self, pacer.batch_size()).await {
                Ok(None) => return Ended::Done,
                Ok(Some(done)) => {
                    self.batch_done();
                    let took = started.elapsed();
                    let rows = match work.keep(done, took) {
                        Ok(rows) => rows,
                        Err(err) => return Ended::Failed(err),
                    };
                    if let Some(stopped) = pacer.after_batch(db, rows, took).await {
                        return Ended::Stopped(stopped);
                    }
                    continue;
                }
                Err(err) => err,
            };
            match self.after_failure(&err).await {
                AfterFailure::Retry => {}
                AfterFailure::Reconnect => {
                    if !quiet {
                        crate::report::say(&format!("note: {}; connecting again", crate::exit::one_line(&err)));
                    }
                    match reconnect(db, table, writer).await {
                        Ok(lock) => _relocked = Some(lock),
                        Err(err) => return Ended::Failed(err),
                    }
                }
                AfterFailure::Interrupted => return Ended::Stopped(Stopped::Interrupted),
                AfterFailure::Stop => return Ended::Failed(err),
            }
        }
    }
}

/// A batch that failed on a row, done again by halves down to the rows that
/// refuse: `next` gives the parts in the batch's order (first half first),
/// and a part that fails on a row within it is given back to `halve`.
pub struct Halves<T> {
    pending: Vec<Vec<T>>,
}

impl<T> Halves<T> {
    pub fn new(items: Vec<T>) -> Halves<T> {
        Halves { pending: vec![items] }
    }

    /// The next part to try.
    pub fn next_part(&mut self) -> Option<Vec<T>> {
        while let Some(part) = self.pending.pop() {
            if !part.is_empty() {
                return Some(part);
            }
        }
        None
    }

    /// Tries `part` again as its two halves. A part of one row cannot be
    /// halved: asking is an error, never a loop.
    pub fn halve(&mut self, mut part: Vec<T>) -> Result<()> {
        if part.len() < 2 {
            anyhow::bail!("a part of one row cannot be halved");
        }
        let second = part.split_off(part.len() / 2);
        self.pending.push(second);
        self.pending.push(part);
        Ok(())
    }
}

/// What a writing run had done when it stopped on an error, said before the
/// error itself (`expire stopped: the 400 rows deleted before it stay
/// deleted, ...`). A run that stops before its first batch says that
/// nothing changed (`stopped_before_any_batch`).
#[derive(Debug)]
pub struct RunStopped(pub String);

impl std::fmt::Display for RunStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A session fault or a signal that stopped a writing run before its
/// batches, said as such, unless the run already said what it had done.
/// Bad input, refusals and another run's lock are said as they are.
pub fn stopped_before_any_batch(err: anyhow::Error, what: &str) -> anyhow::Error {
    let fault = crate::db::errors::fault(&err).is_some() || err.downcast_ref::<crate::exit::Interrupted>().is_some();
    if !fault || err.downcast_ref::<RunStopped>().is_some() {
        return err;
    }
    err.context(RunStopped(what.to_string()))
}

/// After a lost connection: a new session, the table's lock taken again
/// (exit 3 if another run took it meanwhile), the writer's settings. The
/// batches are idempotent, so the run goes on from the table as it is.
pub async fn reconnect(db: &mut Db, table: &Table, writer: Writer) -> Result<TableLock> {
    let target = db.target().clone();
    let mut fresh = db::connect(&target, Access::ReadWrite).await?;
    fresh.set_subject(&table.schema, &table.name);
    let lock = lock::lock_table(&mut fresh, table).await?;
    fresh.prepare_writer(writer).await?;
    *db = fresh;
    Ok(lock)
}

/// Lets the tests stop a run between reading the keys and changing batch
/// `n`: with `IDEMCTL_TEST_PAUSE_BEFORE_BATCH=PATH`, writes `PATH.waiting.n`
/// and waits for `PATH.n` to exist. The `i`th database of a fleet writes
/// `PATH-i.waiting.n`. A signal that arrives while it waits is acknowledged
/// in `PATH.waiting.n.interrupted`, so that a test releases the pause only
/// once the run has seen it.
async fn pause_for_tests(n: u64) {
    let Some(path) = std::env::var_os("IDEMCTL_TEST_PAUSE_BEFORE_BATCH") else { return };
    let path = path.to_string_lossy();
    let flag = format!("{path}.{n}");
    let waiting = match crate::scope::current() {
        Some(scope) => format!("{path}-{}.waiting.{n}", scope.index()),
        None => format!("{path}.waiting.{n}"),
    };
    let _ = std::fs::write(&waiting, b"");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut acknowledged = false;
    while !std::path::Path::new(&flag).exists() && Instant::now() < deadline {
        if !acknowledged && crate::interrupt::is_set() {
            acknowledged = std::fs::write(format!("{waiting}.interrupted"), b"").is_ok();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::errors::Fault;

    fn conflict() -> anyhow::Error {
        anyhow::Error::new(Fault::Conflict { message: "deadlock detected".into() })
    }

    fn lock_wait(waited: Duration) -> anyhow::Error {
        anyhow::Error::new(Fault::LockWait { on: "t".into(), waited, limit: "5s".into(), blocker: String::new() })
    }

    /// A transient fault is tried again after 0.5 s, then 1 s, up to
    /// `--retries` times, the batch keeping its number; then the run stops.
    #[tokio::test(start_paused = true)]
    async fn a_failed_batch_is_tried_again_then_stopped() {
        let mut run = BatchRun::start(Instant::now(), None, 2, Duration::from_secs(3600));
        assert_eq!(run.begin_batch().await, 1);
        for (attempt, pause) in [(1, 500), (2, 1000)] {
            let clock = tokio::time::Instant::now();
            assert_eq!(run.after_failure(&conflict()).await, AfterFailure::Retry);
            assert_eq!(clock.elapsed().as_millis(), pause, "attempt {attempt}");
            assert_eq!(run.attempts(), attempt);
            assert_eq!(run.begin_batch().await, 1, "a batch tried again keeps its number");
        }
        assert_eq!(run.after_failure(&conflict()).await, AfterFailure::Stop, "the retries are spent");
        run.batch_done();
        assert_eq!(run.attempts(), 0);
        assert_eq!(run.begin_batch().await, 2);
        assert_eq!(run.batches(), 2);
        // No retries: the first fault stops the run.
        let mut run = BatchRun::start(Instant::now(), None, 0, Duration::from_secs(3600));
        assert_eq!(run.after_failure(&conflict()).await, AfterFailure::Stop);
    }

    /// A lock wait is waited again only within the lock budget: a wait as
    /// long as the budget (a table lock) stops the run at once.
    #[tokio::test(start_paused = true)]
    async fn lock_waits_within_the_budget() {
        let budget = Duration::from_secs(10);
        let mut run = BatchRun::start(Instant::now(), None, 5, budget);
        assert_eq!(run.after_failure(&lock_wait(Duration::from_secs(1))).await, AfterFailure::Retry);
        // 1 s waited, a pause of 1 s next: 9 s more would pass the budget.
        assert_eq!(run.after_failure(&lock_wait(Duration::from_secs(9))).await, AfterFailure::Stop);
        let mut run = BatchRun::start(Instant::now(), None, 5, budget);
        assert_eq!(run.after_failure(&lock_wait(budget)).await, AfterFailure::Stop);
        let mut run = BatchRun::start(Instant::now(), None, 0, budget);
        assert_eq!(run.after_failure(&lock_wait(Duration::from_millis(1))).await, AfterFailure::Stop);
    }

    /// A lost connection is connected again once per run; other faults and
    /// errors stop it; an interruption is said as one.
    #[tokio::test(start_paused = true)]
    async fn what_follows_other_failures() {
        let lost = || anyhow::Error::new(Fault::ConnectionLost { host: "db".into(), reason: String::new() });
        let mut run = BatchRun::start(Instant::now(), None, 3, Duration::from_secs(60));
        assert_eq!(run.after_failure(&lost()).await, AfterFailure::Reconnect);
        run.batch_done();
        assert_eq!(run.after_failure(&lost()).await, AfterFailure::Stop, "once per run");
        let mut run = BatchRun::start(Instant::now(), None, 3, Duration::from_secs(60));
        let timeout = anyhow::Error::new(Fault::StatementTimeout { limit: "1s".into() });
        assert_eq!(run.after_failure(&timeout).await, AfterFailure::Stop);
        assert_eq!(run.after_failure(&anyhow::anyhow!("duplicate key")).await, AfterFailure::Stop);
        let interrupted = anyhow::Error::new(crate::exit::Interrupted).context("batch 3");
        assert_eq!(run.after_failure(&interrupted).await, AfterFailure::Interrupted);
        assert_eq!(run.attempts(), 0, "nothing was retried");
    }

    #[test]
    fn the_run_time_limit_stops_before_a_batch() {
        let long_ago = Instant::now() - Duration::from_secs(10);
        assert_eq!(BatchRun::start(long_ago, None, 0, Duration::ZERO).should_stop(), None);
        let run = BatchRun::start(long_ago, Some(Duration::from_secs(5)), 0, Duration::ZERO);
        assert_eq!(run.should_stop(), Some(Stopped::MaxRuntime));
        let run = BatchRun::start(Instant::now(), Some(Duration::from_secs(3600)), 0, Duration::ZERO);
        assert_eq!(run.should_stop(), None);
    }

    /// A fault before the first batch is said with what the run had done;
    /// bad input, and a run that said it already, are said as they are.
    #[test]
    fn a_fault_before_any_batch_says_nothing_changed() {
        let said = stopped_before_any_batch(conflict(), "nothing changed");
        assert_eq!(said.to_string(), "nothing changed");
        assert_eq!(format!("{:#}", said), "nothing changed: deadlock detected");
        let plain = stopped_before_any_batch(anyhow::anyhow!("no table \"t\""), "nothing changed");
        assert_eq!(plain.to_string(), "no table \"t\"");
        let again = stopped_before_any_batch(said, "something else");
        assert_eq!(again.to_string(), "nothing changed");
        let interrupted = stopped_before_any_batch(anyhow::Error::new(crate::exit::Interrupted), "stopped");
        assert_eq!(interrupted.to_string(), "stopped");
    }

    /// Halving around the refusing items 3 and 6 of 0..8: every other item
    /// is tried in a part that succeeds, in order; 3 and 6 end alone.
    #[test]
    fn halves_find_the_refusing_items_in_order() {
        let mut halves = Halves::new((0..8).collect::<Vec<u32>>());
        let (mut done, mut alone) = (Vec::new(), Vec::new());
        while let Some(part) = halves.next_part() {
            match part.iter().any(|i| *i == 3 || *i == 6) {
                false => done.extend(part),
                true if part.len() == 1 => alone.push(part[0]),
                true => halves.halve(part).unwrap(),
            }
        }
        assert_eq!(done, [0, 1, 2, 4, 5, 7]);
        assert_eq!(alone, [3, 6]);
        assert!(Halves::new(vec![1]).halve(vec![1]).is_err());
    }
}
