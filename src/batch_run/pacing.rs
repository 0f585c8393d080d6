//! How a writing run paces itself to the server, between its batches: a
//! batch size that adapts to a target batch time (a decaying average of rows
//! per second, as pt-online-schema-change's --chunk-time), a pause after
//! each batch (fixed, or a multiple of its time as gh-ost's --nice-ratio),
//! and waits while InnoDB's purge catches up, while the server is busy, and
//! while a replica is behind. Every wait is in short steps that watch Ctrl-C
//! and --max-runtime, and is counted in the run's summary.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde::Serialize;

use super::{BatchRun, Stopped};
use crate::cli::Pace;
use crate::db::{self, Access, Db, Target, pace};

/// Time the run spent waiting, by what held it, and its pauses. In JSON as
/// `purge_seconds`, `load_seconds`, `lag_seconds`, `autovacuum_seconds`,
/// `sleep_seconds` and `held_when_stopped`.
#[derive(Debug, Clone, Default)]
pub struct Waited {
    /// Seconds held, by what held the run.
    pub held: std::collections::BTreeMap<Hold, f64>,
    /// Seconds of the pauses between batches (`--sleep`, `--nice-ratio`).
    pub sleep_seconds: f64,
    /// What held the run when it stopped (--max-runtime, Ctrl-C) before a batch.
    pub held_when_stopped: Option<Hold>,
}

impl Serialize for Waited {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(Hold::ALL.len() + 2))?;
        for hold in Hold::ALL {
            map.serialize_entry(&format!("{}_seconds", hold.name()), &self.seconds(hold))?;
        }
        map.serialize_entry("sleep_seconds", &self.sleep_seconds)?;
        map.serialize_entry("held_when_stopped", &self.held_when_stopped.map(Hold::name))?;
        map.end()
    }
}

impl Waited {
    /// How a figure of the waits adds up over a fleet's databases: the
    /// longest wait of each kind (they ran side by side); other keys summed.
    pub fn fold(key: &str) -> crate::report::Fold {
        let held = Hold::ALL.iter().any(|h| key.strip_suffix("_seconds") == Some(h.name()));
        if held || key == "sleep_seconds" { crate::report::Fold::Max } else { crate::report::Fold::Sum }
    }

    /// Seconds `hold` held the run.
    pub fn seconds(&self, hold: Hold) -> f64 {
        self.held.get(&hold).copied().unwrap_or(0.0)
    }

    /// Whether a run that --max-runtime stopped (`out_of_time`) changed
    /// nothing because a throttle held it all along; says so, since cron
    /// should hear of it (exit 1) before the backlog grows.
    pub fn stalled(&self, command: &str, out_of_time: bool, changed: u64) -> bool {
        let Some(held) = self.held_when_stopped.filter(|_| out_of_time && changed == 0) else { return false };
        crate::report::say(&format!(
            "{command} made no progress: {} held it until --max-runtime (exit 1)",
            held.name()
        ));
        true
    }

    /// The time per throttle, as metrics (`idemctl_waited_seconds`).
    pub fn metrics(&self) {
        let held = Hold::ALL.map(|hold| (hold.name(), self.seconds(hold)));
        for (throttle, seconds) in held.into_iter().chain([("sleep", self.sleep_seconds)]) {
            crate::metrics::gauge(
                "idemctl_waited_seconds",
                "Time this run waited before its batches, by what held it",
                &[("throttle", throttle)],
                seconds,
            );
        }
    }
}

/// A throttle that stopped the run: the summary's `stopped` reason
/// (`critical-load`, `max-lag-wait`, `max-throttle-wait`) and the line said.
#[derive(Debug)]
pub struct ThrottleStop {
    pub reason: Stopped,
    pub message: String,
}

impl std::fmt::Display for ThrottleStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ThrottleStop {}

impl ThrottleStop {
    /// The reason a failed run stopped: a throttle's, or `error`.
    pub fn reason_of(err: &anyhow::Error) -> Stopped {
        err.chain().find_map(|e| e.downcast_ref::<ThrottleStop>()).map_or(Stopped::Error, |t| t.reason)
    }
}

fn stop(reason: Stopped, message: String) -> anyhow::Error {
    ThrottleStop { reason, message }.into()
}

/// A load threshold: a status variable and its limit.
#[derive(Debug, Clone)]
struct Threshold {
    name: String,
    limit: f64,
}

pub struct Pacer {
    pace: Pace,
    max_batch: u64,
    size: u64,
    /// Rows per second, a decaying average over the batches so far.
    rate: Option<f64>,
    /// How the run waits for InnoDB's purge (MySQL/MariaDB).
    purge: Option<PurgeWatch>,
    max_load: Vec<Threshold>,
    critical_load: Vec<Threshold>,
    replicas: Vec<(String, Target, Option<Db>)>,
    max_lag: Option<Duration>,
    /// PostgreSQL: the primary's WAL positions when it was asked, oldest first.
    positions: std::collections::VecDeque<(Instant, u64)>,
    /// PostgreSQL: the table to let autovacuum finish on (`--wait-for-autovacuum`).
    vacuumed_table: Option<String>,
    pub waited: Waited,
    /// The progress bar that shows what holds the run, if any.
    bar: Option<indicatif::ProgressBar>,
}

/// The first batch's size under a target time, at most --batch-size.
const FIRST_BATCH: u64 = 1000;

/// The first batch's size under a target time, given --batch-size.
pub fn first_batch(max_batch: u64) -> u64 {
    max_batch.min(FIRST_BATCH)
}

/// The smallest batch the target time may shrink to.
const SMALLEST_BATCH: u64 = 10;

/// How much the last batch's rate weighs against the average.
const DECAY: f64 = 0.5;

impl Pacer {
    /// Reads what the pacing measures against: the history list's length,
    /// the load figures' values, and connects to the replicas.
    pub async fn start(db: &mut Db, pace: &Pace, max_batch: u64, command: &str, quiet: bool) -> Result<Pacer> {
        let max = pace.max_history.unwrap_or(DEFAULT_MAX_HISTORY);
        let purge = if pace::purge_position(db).await.is_some() {
            Some(PurgeWatch::Batches { pending: std::collections::VecDeque::new(), max })
        } else if let Some(start) = pace::history_length(db).await {
            if !quiet {
                crate::report::say(
                    "note: without the PROCESS privilege the wait for InnoDB's purge reads the history list's length, \
                     which counts every session's transactions: grant PROCESS to wait for this run's batches alone",
                );
            }
            Some(PurgeWatch::Length { low: start, over: max })
        } else if pace.max_history.is_some() {
            bail!("--max-history paces to InnoDB's purge, which this server does not have (MySQL and MariaDB only)")
        } else {
            None
        };
        let mut max_load = Vec::new();
        for given in &pace.max_load {
            max_load.push(threshold(db, given, 1.2).await.with_context(|| format!("--max-load {given}"))?);
        }
        let mut critical_load = Vec::new();
        for given in &pace.critical_load {
            critical_load.push(threshold(db, given, 2.0).await.with_context(|| format!("--critical-load {given}"))?);
        }
        let mut replicas = Vec::new();
        for url in &pace.replica_url {
            let target = Target { url: url.clone(), program: format!("idemctl {command}"), ..db.target().clone() };
            let shown = target.host();
            // A replica named wrongly is a mistake to say at once, not lag to wait out.
            let mut session = db::connect(&target, Access::ReadOnly)
                .await
                .with_context(|| format!("--replica-url {shown}: cannot connect"))?;
            if let Err(err) = pace::replica(&mut session).await {
                bail!("--replica-url {shown} {}", crate::exit::one_line(&err));
            }
            replicas.push((shown, target, Some(session)));
        }
        let max_lag = pace.max_lag.or((!replicas.is_empty()).then_some(Duration::from_secs(1)));
        if max_lag.is_some() && replicas.is_empty() {
            bail!("--max-lag needs the replicas to watch: give --replica-url URL");
        }
        Ok(Pacer {
            pace: pace.clone(),
            max_batch,
            // With a target time, start modestly and grow (pt-online-schema-change's 1,000).
            size: if pace.batch_time.is_zero() { max_batch } else { first_batch(max_batch) },
            rate: None,
            purge,
            max_load,
            critical_load,
            replicas,
            max_lag,
            positions: std::collections::VecDeque::new(),
            vacuumed_table: None,
            waited: Waited::default(),
            bar: None,
        })
    }

    /// Shows on `bar` what holds the run while it waits (` (purge)`).
    pub fn show_holds_on(&mut self, bar: indicatif::ProgressBar) {
        self.bar = Some(bar);
    }

    /// Waits before each batch while a VACUUM works on `table` (PostgreSQL).
    pub fn wait_for_vacuum_of(&mut self, table: String) {
        self.vacuumed_table = Some(table);
    }

    /// The size of the next batch.
    pub fn batch_size(&self) -> u64 {
        self.size
    }

    /// Before a batch: waits while purge, load or a replica's lag asks it
    /// to. `Some` when Ctrl-C or --max-runtime came meanwhile; an error when
    /// the server is past a critical load or a replica stayed behind too long.
    pub async fn before_batch(&mut self, db: &mut Db, run: &BatchRun) -> Result<Option<Stopped>> {
        let step = Duration::from_millis(100);
        let mut lag_since: Option<Instant> = None;
        let mut held_since: Option<Instant> = None;
        let mut holding: Option<Hold> = None;
        loop {
            if let Some(stopped) = run.should_stop() {
                self.waited.held_when_stopped = holding;
                return Ok(Some(stopped));
            }
            for t in &self.critical_load {
                let now = pace::load(db, &t.name).await?;
                if now >= t.limit {
                    let said =
                        format!("{} is {now} (--critical-load {}={}): the server is too busy", t.name, t.name, t.limit);
                    return Err(stop(Stopped::CriticalLoad, said));
                }
            }
            let held = if self.purge_behind(db).await {
                Some(Hold::Purge)
            } else if self.busy(db).await? {
                Some(Hold::Load)
            } else if let Some(table) = &self.vacuumed_table
                && pace::vacuum_running(db, table).await
            {
                Some(Hold::Vacuum)
            } else if let Some(why) = self.lagging(db).await {
                let since = *lag_since.get_or_insert_with(Instant::now);
                if since.elapsed() >= self.pace.max_lag_wait {
                    let waited = crate::timeparse::short(self.pace.max_lag_wait);
                    return Err(stop(Stopped::MaxLagWait, format!("{why} for {waited} (--max-lag-wait)")));
                }
                Some(Hold::Lag)
            } else {
                None
            };
            let Some(hold) = held else {
                if holding.is_some()
                    && let Some(bar) = &self.bar
                {
                    bar.set_message("");
                }
                return Ok(None);
            };
            if let Some(bar) = &self.bar {
                bar.set_message(format!(" ({})", hold.name()));
            }
            if !matches!(hold, Hold::Lag) {
                let since = *held_since.get_or_insert_with(Instant::now);
                if since.elapsed() >= self.pace.max_throttle_wait {
                    let waited = crate::timeparse::short(self.pace.max_throttle_wait);
                    let said = format!("{} for {waited} (--max-throttle-wait)", self.why_held(db, hold).await);
                    return Err(stop(Stopped::MaxThrottleWait, said));
                }
            }
            holding = Some(hold);
            if !crate::interrupt::sleep(step).await {
                self.waited.held_when_stopped = Some(hold);
                return Ok(Some(Stopped::Interrupted));
            }
            let seconds = self.waited.held.entry(hold).or_default();
            *seconds = to_ms(*seconds + step.as_secs_f64());
        }
    }

    /// What has been holding the run, in words, naming what holds it up
    /// where the server tells.
    async fn why_held(&self, db: &mut Db, hold: Hold) -> String {
        match hold {
            Hold::Purge => match pace::oldest_transaction(db).await {
                Some(oldest) => format!("InnoDB's purge is held back by {oldest}"),
                None => "InnoDB's purge has not caught up with the run's batches".to_string(),
            },
            Hold::Load => {
                let names: Vec<String> = self.max_load.iter().map(|t| format!("{}={}", t.name, t.limit)).collect();
                format!("the server has been busier than --max-load {}", names.join(", "))
            }
            Hold::Vacuum => match &self.vacuumed_table {
                Some(table) => match pace::vacuum_session(db, table).await {
                    Some(who) => format!("{who} has been working on the table"),
                    None => "a VACUUM has been working on the table".to_string(),
                },
                None => "a VACUUM has been working on the table".to_string(),
            },
            Hold::Lag => "a replica has been behind".to_string(),
        }
    }

    /// Whether InnoDB's purge is further behind than --max-history allows.
    async fn purge_behind(&mut self, db: &mut Db) -> bool {
        match &mut self.purge {
            None => false,
            Some(PurgeWatch::Batches { pending, max }) => {
                let Some(at) = pace::purge_position(db).await else { return false };
                while pending.front().is_some_and(|&committed_below| committed_below <= at.purged) {
                    pending.pop_front();
                }
                pending.len() as u64 > *max
            }
            Some(PurgeWatch::Length { low, over }) => {
                let Some(now) = pace::history_length(db).await else { return false };
                *low = (*low).min(now);
                now > *low + *over
            }
        }
    }

    async fn busy(&self, db: &mut Db) -> Result<bool> {
        for t in &self.max_load {
            if pace::load(db, &t.name).await? >= t.limit {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Why the run must wait for a replica, if it must.
    async fn lagging(&mut self, primary: &mut Db) -> Option<String> {
        let max = self.max_lag?;
        // PostgreSQL: the primary's positions over time; a standby is as far
        // behind as the oldest position it has not replayed.
        if let Some(at) = pace::wal_position(primary).await {
            let now = Instant::now();
            self.positions.push_back((now, at));
            while self.positions.len() > 2 && self.positions[1].0 + max * 2 < now {
                self.positions.pop_front();
            }
        }
        for (shown, target, session) in &mut self.replicas {
            if session.is_none() {
                *session = db::connect(target, Access::ReadOnly).await.ok();
            }
            let Some(db) = session else { return Some(format!("replica {shown} cannot be reached")) };
            let lag = match pace::replica(db).await {
                Ok(pace::Replica::Behind(lag)) => lag,
                // The older of: when the primary first wrote what it has not
                // replayed (as this run saw the primary), and when the primary
                // committed the last transaction it replayed.
                Ok(pace::Replica::Replayed(replayed, behind)) => self
                    .positions
                    .iter()
                    .find(|(_, at)| *at > replayed)
                    .map_or(Duration::ZERO, |(since, _)| since.elapsed())
                    .max(behind.unwrap_or_default()),
                Ok(pace::Replica::Stopped) => return Some(format!("replica {shown} has its replication stopped")),
                Err(err) => {
                    *session = None;
                    return Some(format!("replica {shown}: {}", crate::exit::one_line(&err)));
                }
            };
            if lag > max {
                return Some(format!("replica {shown} is {:.1}s behind (--max-lag)", lag.as_secs_f64()));
            }
        }
        None
    }

    /// After a batch of `rows` that took `took`: the next batch's size, and
    /// the pause. `Some` when Ctrl-C came during the pause.
    pub async fn after_batch(&mut self, db: &mut Db, rows: u64, took: Duration) -> Option<Stopped> {
        if rows > 0
            && let Some(PurgeWatch::Batches { pending, .. }) = &mut self.purge
            && let Some(at) = pace::purge_position(db).await
        {
            pending.push_back(at.next);
        }
        let target = self.pace.batch_time;
        if !target.is_zero() && rows > 0 {
            (self.size, self.rate) = resized(self.size, self.max_batch, self.rate, (rows, took), target);
        }
        let pause = self.pace.sleep.unwrap_or_default() + took.mul_f64(self.pace.sleep_ratio);
        if pause.is_zero() {
            return None;
        }
        // The time slept, which a signal may cut short.
        let slept = std::time::Instant::now();
        let whole = crate::interrupt::sleep(pause).await;
        self.waited.sleep_seconds = to_ms(self.waited.sleep_seconds + slept.elapsed().as_secs_f64());
        if whole { None } else { Some(Stopped::Interrupted) }
    }

    /// Closes the replicas' sessions.
    pub async fn close(self) {
        for (_, _, session) in self.replicas {
            if let Some(db) = session {
                let _ = db.close().await;
            }
        }
    }
}

/// The next batch's size after a batch of `size` that changed `rows` in
/// `took`, aiming at `target`, and the decaying average rate. A batch that
/// found fewer rows than its size (a stretch of the table already partly
/// emptied) and was quick says nothing of how many rows fit in the target:
/// its size stays, where the rate of the few rows it found would shrink the
/// next batches to a handful of rows each.
fn resized(
    size: u64,
    max_batch: u64,
    rate: Option<f64>,
    (rows, took): (u64, Duration),
    target: Duration,
) -> (u64, Option<f64>) {
    let now = rows as f64 / took.as_secs_f64().max(1e-6);
    let average = rate.map_or(now, |old| DECAY * now + (1.0 - DECAY) * old);
    let fitted = (average * target.as_secs_f64()) as u64;
    let next = if took > target * 4 {
        (size / 2).max(SMALLEST_BATCH)
    } else if rows < size && took <= target {
        size.max(fitted)
    } else {
        fitted
    };
    let rate = if rows < size && took <= target { rate } else { Some(average) };
    (next.clamp(SMALLEST_BATCH.min(max_batch), max_batch), rate)
}

/// Seconds rounded to the millisecond, so that sums of steps stay readable.
fn to_ms(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// What held a batch back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Hold {
    /// InnoDB's purge had not caught up (`--max-history`).
    Purge,
    /// The server was busy (`--max-load`).
    Load,
    /// A replica was behind (`--max-lag`).
    Lag,
    /// A VACUUM worked on the table (`--wait-for-autovacuum`).
    Vacuum,
}

impl Hold {
    pub const ALL: [Hold; 4] = [Hold::Purge, Hold::Load, Hold::Lag, Hold::Vacuum];

    /// Its name in the summary and the metrics.
    pub fn name(self) -> &'static str {
        match self {
            Hold::Purge => "purge",
            Hold::Load => "load",
            Hold::Lag => "lag",
            Hold::Vacuum => "autovacuum",
        }
    }

    /// What held the run, after "--max-runtime reached".
    pub fn while_held(self) -> &'static str {
        match self {
            Hold::Purge => "while waiting for InnoDB's purge",
            Hold::Load => "while the server was busy (--max-load)",
            Hold::Lag => "while a replica was behind (--max-lag)",
            Hold::Vacuum => "while a VACUUM worked on the table",
        }
    }
}

/// How the run waits for InnoDB's purge.
enum PurgeWatch {
    /// The run's own batches not yet purged: each is known by a transaction
    /// number its commit is below, and is purged once the purge is past it.
    /// The server's other transactions never hold the run back.
    Batches { pending: std::collections::VecDeque<u64>, max: u64 },
    /// Where the purge position cannot be read (no PROCESS privilege): the
    /// history list's length against the lowest it has been in the run (a
    /// backlog draining at the start lowers it). Each batch adds one
    /// transaction to it, and so does every other writer's.
    Length { low: u64, over: u64 },
}

/// How many of the run's batches InnoDB's purge may be behind when a batch
/// starts.
const DEFAULT_MAX_HISTORY: u64 = 8;

/// A threshold as given: NAME=VALUE, or NAME for its value now times `factor`.
async fn threshold(db: &mut Db, given: &str, factor: f64) -> Result<Threshold> {
    Ok(match given.split_once('=') {
        Some((name, value)) => {
            let limit = value.trim().parse::<f64>().map_err(|_| anyhow::anyhow!("the value is not a number"))?;
            if limit <= 0.0 {
                bail!("the value must be above 0 (a server is never less busy than that)");
            }
            pace::load(db, name.trim()).await?;
            Threshold { name: name.trim().to_string(), limit }
        }
        None => {
            let now = pace::load(db, given.trim()).await?;
            Threshold { name: given.trim().to_string(), limit: (now * factor).max(now + 1.0) }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary's JSON is as it was when these were strings: each stop
    /// reason by its kebab-case name, the waits by `<hold>_seconds`.
    #[test]
    fn a_short_quick_batch_keeps_its_size() {
        let ms = Duration::from_millis;
        // 1,000 rows in 50 ms against a 100 ms target: 2,000 next.
        assert_eq!(resized(1_000, 10_000, None, (1_000, ms(50)), ms(100)).0, 2_000);
        // A batch that found 1 row in 20 ms: its size stays, not 5 rows.
        let (size, rate) = resized(1_000, 10_000, None, (1, ms(20)), ms(100));
        assert_eq!(size, 1_000);
        // and its rate counts for nothing: a quick full batch after it grows
        // as the first would have.
        assert_eq!(rate, None);
        assert_eq!(resized(size, 10_000, rate, (1_000, ms(50)), ms(100)).0, 2_000);
        // Short but slow: it shrinks (the stretch costs its time).
        assert_eq!(resized(1_000, 10_000, None, (10, ms(300)), ms(100)).0, 10);
        // Four times the target: halved.
        assert_eq!(resized(1_000, 10_000, None, (1_000, ms(500)), ms(100)).0, 500);
    }

    /// The rate is a decaying average (half the last batch's, half the
    /// average before); the size stays within [10, --batch-size].
    #[test]
    fn sizes_follow_the_average_within_bounds() {
        let ms = Duration::from_millis;
        // 1,000 rows in 100 ms: 10,000 rows/s, 1,000 fit 100 ms.
        let (size, rate) = resized(1_000, 10_000, None, (1_000, ms(100)), ms(100));
        assert_eq!((size, rate), (1_000, Some(10_000.0)));
        // Then 1,000 in 50 ms (20,000/s): the average is 15,000/s, 1,500 rows.
        let (size, rate) = resized(size, 10_000, rate, (1_000, ms(50)), ms(100));
        assert_eq!((size, rate), (1_500, Some(15_000.0)));
        // Capped by --batch-size, and never below 10 rows.
        assert_eq!(resized(1_000, 1_200, None, (1_000, ms(10)), ms(100)).0, 1_200);
        assert_eq!(resized(20, 10_000, None, (20, ms(390)), ms(100)).0, 10);
        // Under --batch-size 5, 5 rows is the floor too.
        assert_eq!(resized(5, 5, None, (5, ms(1_000)), ms(100)).0, 5);
        // Exactly four times the target is not yet halved; past it is.
        assert_eq!(resized(1_000, 10_000, None, (1_000, ms(400)), ms(100)).0, 250);
        assert_eq!(resized(1_000, 10_000, None, (1_000, ms(401)), ms(100)).0, 500);
        // A full batch on the target after slower ones: the average is what
        // sizes the next (5,500 rows/s, 550 rows), not the batch alone.
        assert_eq!(resized(1_000, 10_000, Some(1_000.0), (1_000, ms(100)), ms(100)), (550, Some(5_500.0)));
        // A short batch exactly on the target keeps its size, and its rate is not kept.
        assert_eq!(resized(1_000, 10_000, Some(3.0), (10, ms(100)), ms(100)), (1_000, Some(3.0)));
        // A short batch that fits more than its size grows to the fit.
        assert_eq!(resized(100, 10_000, None, (99, ms(1)), ms(100)).0, 9_900);
        assert_eq!(first_batch(50), 50);
        assert_eq!(first_batch(50_000), 1_000);
        assert_eq!(to_ms(1.23456), 1.235);
        assert_eq!(to_ms(0.0004), 0.0);
    }

    /// A fleet keeps the longest wait of each kind; other figures add up.
    /// A run held all along until --max-runtime, having changed nothing, stalled.
    #[test]
    fn waits_fold_and_stall() {
        use crate::report::Fold;
        for key in ["purge_seconds", "load_seconds", "lag_seconds", "autovacuum_seconds", "sleep_seconds"] {
            assert!(matches!(Waited::fold(key), Fold::Max), "{key}");
        }
        for key in ["deleted", "purge", "batches"] {
            assert!(matches!(Waited::fold(key), Fold::Sum), "{key}");
        }
        let held = Waited { held_when_stopped: Some(Hold::Lag), ..Waited::default() };
        assert!(held.stalled("expire", true, 0));
        assert!(!held.stalled("expire", true, 1), "it changed a row");
        assert!(!held.stalled("expire", false, 0), "not stopped by --max-runtime");
        assert!(!Waited::default().stalled("expire", true, 0), "nothing held it");
        let mut waited = Waited::default();
        waited.held.insert(Hold::Purge, 1.5);
        assert_eq!((waited.seconds(Hold::Purge), waited.seconds(Hold::Load)), (1.5, 0.0));
    }

    #[test]
    fn stop_reasons_and_waits_keep_their_json() {
        use Stopped::*;
        for reason in [Interrupted, MaxRuntime, CriticalLoad, MaxLagWait, MaxThrottleWait, RowsNotDeleted, Error] {
            assert_eq!(serde_json::to_value(reason).unwrap(), serde_json::json!(reason.as_str()));
        }
        assert_eq!(serde_json::to_value(MaxRuntime).unwrap(), "max-runtime");
        let mut waited = Waited { sleep_seconds: 0.5, held_when_stopped: Some(Hold::Vacuum), ..Waited::default() };
        waited.held.insert(Hold::Lag, 2.0);
        assert_eq!(
            serde_json::to_string(&waited).unwrap(),
            r#"{"purge_seconds":0.0,"load_seconds":0.0,"lag_seconds":2.0,"autovacuum_seconds":0.0,"sleep_seconds":0.5,"held_when_stopped":"autovacuum"}"#
        );
    }
}
