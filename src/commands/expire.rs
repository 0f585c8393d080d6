//! `idemctl expire`: deletes key rows past the retention horizon (or any
//! table's rows past a time) in short batches, each its own transaction, so
//! live writers wait at most one batch.

use std::collections::BTreeMap;
use std::io::BufWriter;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use crate::batch_run::pacing::{Pacer, Waited};
use crate::batch_run::{self, BatchRun, BatchWork, Ended, Halves, RunStopped, Stopped};
use crate::cli::{Connect, Limits, OnError, Output, Pace};
use crate::db::catalog::Table;
use crate::db::partitions;
use crate::db::purge::{self, Deleted, Walk};
use crate::db::{self, Access, Bind, Db, Writer, errors, lock, pace, user_sql};
use crate::exit::{Interrupted, Outcome};
use crate::keys::expiry::{self, Expiry};
use crate::keys::stuck::Durations;
use crate::keys::{KeyTable, Mapping, MappingArgs};
use crate::report::{self, Emitter};
use crate::timeparse;

/// The run's figures at a terminal's width (--wide: every field).
const COMPACT: [&str; 9] = [
    "table",
    "expired_before",
    "dry_run",
    "rows_deleted",
    "rows_matching",
    "rows_dropped",
    "batches",
    "elapsed_seconds",
    "stopped",
];

#[derive(Debug, Clone, Args)]
pub struct ExpireArgs {
    /// Delete rows created longer ago than this, instead of rows whose expiry time has passed
    #[arg(help_heading = "What to change", long, value_name = "DURATION", value_parser = timeparse::duration)]
    pub older_than: Option<Duration>,
    /// A finished status with a horizon of its own, over --older-than's (River keeps discarded jobs 7 days and completed ones 24 hours: discarded=7d); repeatable
    #[arg(hide_short_help = true, help_heading = "What to change", long, value_name = "STATE=DURATION", value_parser = state_horizon)]
    pub state_horizon: Vec<(String, Duration)>,
    /// Most rows deleted per transaction; --batch-time sizes each batch below it
    #[arg(help_heading = "Pacing", long, value_name = "N", default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch_size: u64,
    /// Stop after the batch that passes this much time
    #[arg(help_heading = "Pacing", long, value_name = "DURATION", value_parser = timeparse::duration)]
    pub max_runtime: Option<Duration>,
    #[command(flatten)]
    pub pace: Pace,
    /// PostgreSQL: VACUUM the table after the run (plain, never FULL), so its space is reused at once
    #[arg(help_heading = "What to change", long)]
    pub vacuum: bool,
    /// PostgreSQL: pause while a VACUUM (autovacuum's) works on the table
    #[arg(hide_short_help = true, help_heading = "Pacing", long)]
    pub wait_for_autovacuum: bool,
    /// Delete rows still in progress too, once their lease has expired (never a key a live request holds)
    #[arg(help_heading = "What to change", long)]
    pub include_in_progress: bool,
    /// Allow a horizon under 24 hours
    #[arg(help_heading = "What to change", long)]
    pub allow_short_retention: bool,
    /// Allow a run that deletes 99% or more of a table whose newest row is under a day old
    #[arg(help_heading = "What to change", long)]
    pub allow_large_delete: bool,
    /// Only rows matching this SQL condition (raw SQL)
    #[arg(help_heading = "What to change", long = "where", value_name = "SQL")]
    pub filter: Option<String>,
    /// Drop the partitions wholly past the horizon (range partitions on the expiry column) instead of deleting their rows; each is checked first
    #[arg(help_heading = "What to change", long)]
    pub drop_partitions: bool,
    /// Count what would go, deleting nothing
    #[arg(long)]
    pub dry_run: bool,
    /// With --dry-run, also print the statement each batch runs
    #[arg(long, requires = "dry_run")]
    pub show_sql: bool,
    /// When a row refuses to go (a trigger, a constraint): skip it and go on, or stop the run
    #[arg(hide_short_help = true, help_heading = "What to change", long, value_enum, default_value_t = OnError::Skip)]
    pub on_error: OnError,
    /// Times a batch is tried again after a lock wait, deadlock or serialization failure, with a doubling pause
    #[arg(hide_short_help = true, help_heading = "Pacing", long, value_name = "N", default_value_t = 3)]
    pub retries: u32,
    #[command(flatten)]
    pub limits: Limits,
    #[command(flatten)]
    pub mapping: MappingArgs,
    #[command(flatten)]
    pub connect: Connect,
    #[arg(skip)]
    pub report: Output,
}

/// The run's result: the one line `expire` reports.
#[derive(Debug, Serialize)]
struct Summary {
    table: String,
    expired_before: String,
    by: String,
    dry_run: bool,
    rows_deleted: u64,
    rows_matching: Option<u64>,
    /// Rows of the partitions dropped whole (`--drop-partitions`).
    rows_dropped: u64,
    /// What `--drop-partitions` did with each partition wholly past the horizon.
    partitions: Vec<partitions::Retired>,
    batches: u64,
    elapsed_seconds: f64,
    rows_per_second: f64,
    slowest_batch_ms: f64,
    /// The most rows one batch deleted.
    largest_batch_rows: u64,
    /// The fewest rows a batch that deleted any deleted (its size follows --batch-time).
    smallest_batch_rows: u64,
    /// Rows that refused to be deleted (a trigger, a constraint): their keys.
    refused_keys: Vec<String>,
    /// Rows whose time could not be read (SQLite text in no known format): never deleted.
    unreadable_rows: u64,
    /// Rows whose expiry time is NULL: never past any horizon, never deleted
    /// (counted where the run counts, on a dry run or for the progress bar).
    rows_without_time: Option<u64>,
    /// What became of rows in progress: kept, or deleted once their lease had expired too.
    in_progress: &'static str,
    /// Rows past the horizon kept for their status, by status: work still
    /// to happen (a live status), and rows in a status neither finished nor
    /// live (NULL among them), which make the run exit 1.
    kept_live: BTreeMap<String, u64>,
    kept_unknown: BTreeMap<String, u64>,
    stopped: Option<Stopped>,
    /// Time spent waiting, by what held the run (purge, load, lag, pauses).
    waited: Waited,
    /// Expired rows counted after a run --max-runtime stopped (for the metrics).
    #[serde(skip)]
    backlog_after: Option<u64>,
    /// PostgreSQL: the table's dead tuples before and after the run (its statistics').
    dead_tuples_before: Option<u64>,
    dead_tuples_after: Option<u64>,
    /// Whether the table was vacuumed after the run (`--vacuum`).
    vacuumed: bool,
    /// The config file read, if any.
    config_file: Option<String>,
    /// When the run ended.
    at: String,
    /// delete, or count (a dry run).
    action: &'static str,
}

impl Summary {
    fn finish(&mut self, batches: &BatchRun, started: Instant) {
        use crate::metrics::gauge;
        self.at = timeparse::rfc3339(timeparse::now());
        gauge("idemctl_expire_rows_deleted", "Rows this run deleted", &[], self.rows_deleted as f64);
        let left = match (self.stopped, self.rows_matching) {
            // A run that went to its end left only the rows that refused to go.
            (None, _) if !self.dry_run => Some(self.refused_keys.len() as u64),
            _ if self.backlog_after.is_some() => self.backlog_after,
            (_, Some(matching)) => Some(matching.saturating_sub(self.rows_deleted)),
            _ => None,
        };
        if let Some(left) = left {
            gauge("idemctl_expire_backlog_rows", "Expired rows left after this run", &[], left as f64);
        }
        gauge(
            "idemctl_expire_slowest_batch_seconds",
            "The slowest batch of this run",
            &[],
            self.slowest_batch_ms / 1000.0,
        );
        gauge("idemctl_expire_batches", "Batches this run ran", &[], batches.batches() as f64);
        self.waited.metrics();
        self.batches = batches.batches();
        self.elapsed_seconds = started.elapsed().as_secs_f64();
        self.rows_per_second =
            if self.elapsed_seconds > 0.0 { self.rows_deleted as f64 / self.elapsed_seconds } else { 0.0 };
    }
}

/// The flags and the config file, folded once.
struct Settings {
    mapping: Mapping,
    horizon: Option<Duration>,
    /// With `--include-in-progress`: a key in progress goes once its lease
    /// is this old (the longest maximum duration).
    leases_over: Option<Duration>,
    /// `--state-horizon`, else the config file's `[retention] state_horizons`.
    state_horizons: Vec<(String, Duration)>,
}

impl Settings {
    fn new(args: &ExpireArgs) -> Result<Settings> {
        let config = args.mapping.config()?;
        if let Some(filter) = &args.filter {
            user_sql::condition(db::engine_of(&args.connect.database_url)?, "--where", filter)?;
        }
        if args.vacuum || args.wait_for_autovacuum {
            db::pace::check_vacuum(db::engine_of(&args.connect.database_url)?)?;
        }
        let horizon = expiry::horizon(args.older_than, &config)?;
        let mapping = args.mapping.mapping(&config.key_table)?;
        expiry::check_floor(horizon, args.allow_short_retention, mapping.kind)?;
        let state_horizons = match (&args.state_horizon, &config.retention.state_horizons) {
            (given, _) if !given.is_empty() => given.clone(),
            (_, Some(file)) => file
                .iter()
                .map(|(state, text)| {
                    let own = timeparse::duration(text)
                        .map_err(|e| anyhow::anyhow!("config retention.state_horizons.{state}: {e}"))?;
                    Ok((state.clone(), own))
                })
                .collect::<Result<_>>()?,
            _ => Vec::new(),
        };
        for (state, own) in &state_horizons {
            if horizon.is_none() {
                anyhow::bail!("--state-horizon {state}=...: give the horizon of the other states too (--older-than)");
            }
            if args.include_in_progress {
                anyhow::bail!("--state-horizon and --include-in-progress: give one");
            }
            expiry::check_floor(Some(*own), args.allow_short_retention, mapping.kind)?;
        }
        let leases_over = match args.include_in_progress {
            true => Some(Durations::new(&args.limits, &config)?.longest()),
            false => None,
        };
        Ok(Settings { mapping, horizon, leases_over, state_horizons })
    }
}

pub async fn run(args: ExpireArgs) -> Result<Outcome> {
    let started = Instant::now();
    let settings = Settings::new(&args)?;
    if args.dry_run {
        return purge(args, settings, started).await;
    }
    purge(args, settings, started)
        .await
        .map_err(|e| batch_run::stopped_before_any_batch(e, "expire stopped: nothing was deleted"))
}

async fn purge(args: ExpireArgs, settings: Settings, started: Instant) -> Result<Outcome> {
    let access = if args.dry_run { Access::ReadOnly } else { Access::ReadWrite };
    let mut db = db::connect(&args.connect.target("expire"), access).await?;
    let mut target = KeyTable::resolve(&settings.mapping, &mut db).await?;
    crate::report::say_target(
        args.report.quiet,
        "expire",
        &db.target().place(),
        &format!("{}.{}", target.table.schema, target.table.name),
    );
    let refusal = match args.dry_run {
        false => {
            lock::check_writable(&mut db, &target.table, "expire", &["SELECT", "DELETE"]).await?;
            None
        }
        true => lock::write_refusal(&mut db, &target.table, "expire", &["SELECT", "DELETE"], false).await?,
    };
    let judged_nothing = crate::commands::where_selects_nothing(&mut db, &target.table, args.filter.as_deref()).await?;
    crate::commands::say_if_empty(&mut db, &target.table, args.report.quiet).await?;
    let mut expiry = Expiry::resolve(&mut db, &mut target, settings.horizon, timeparse::now()).await?;
    expiry.time.check_for_writing()?;
    expiry.per_state = per_state(&target, &settings.state_horizons)?;
    let judged_nothing =
        judged_nothing.or_else(|| crate::commands::unreadable_not_judged(&target.table.name, &expiry.time));
    expiry::check_expiry_column(&mut db, &mut target, &expiry, settings.horizon.is_some()).await?;
    if settings.leases_over.is_some() && target.tells_in_progress().is_some() {
        target.read_state_times(&mut db).await?;
        for time in target.state_columns() {
            time.check_for_writing()?;
        }
    }
    let dialect = db.dialect();
    let (expired, binds) =
        expiry.condition(&dialect, &target, settings.leases_over, args.filter.as_deref(), expiry.cutoff)?;
    let rows_in_table =
        expiry::check_large_delete(&mut db, &target, (&expired, &binds), args.allow_large_delete).await?;
    let kept = kept_for_status(&mut db, &target, &expiry, &args).await?;
    if let Some(state) = unmapped_state(&target).filter(|_| !args.report.quiet) {
        crate::report::say(&format!(
            "note: {state} looks like a state column and is not mapped (--status-column {state}): expire cannot tell \
             live rows from finished ones, and every row past the horizon goes{}",
            if args.filter.is_some() { " that --where selects" } else { "" }
        ));
    }
    let _lock = if args.dry_run { None } else { Some(lock::lock_table(&mut db, &target.table).await?) };
    let retired = match args.drop_partitions {
        true => retire_partitions(&mut db, &target.table, &expiry, &expired, &binds, &args).await?,
        false => Vec::new(),
    };
    let mut walk = Walk::new(&target.table, &mut db, args.batch_size).await?;
    if !args.dry_run {
        db.prepare_writer(Writer::Purge).await?;
    }
    let mut batches = BatchRun::start(started, args.max_runtime, args.retries, args.connect.waits.lock_timeout);

    let table = target.table.sql_name(&dialect);
    let matching = if args.dry_run || report::wants_progress(args.report.quiet) {
        Some(expiry::count_matching(&mut db, &table, &expired, &binds, None).await?)
    } else {
        None
    };
    let mut summary = Summary::new(&args, &target.table, &expiry, matching, retired, settings.leases_over.is_some());
    (summary.kept_live, summary.kept_unknown) = kept;
    if matching.is_some() {
        let filter = args.filter.as_deref().map(|f| format!(" AND ({f})")).unwrap_or_default();
        let untimed = format!("{} IS NULL{filter}", dialect.ident(&expiry.column));
        let n = expiry::count_matching(&mut db, &table, &untimed, &[], None).await?;
        if n > 0 && !args.report.quiet {
            crate::report::say(&format!(
                "note: {n} rows have no {} (NULL): no horizon reaches them, and they stay; look at them by hand",
                expiry.column
            ));
        }
        summary.rows_without_time = Some(n);
    }
    if !args.report.quiet {
        for note in expiry.time.notes() {
            crate::report::say(&format!("note: {note}"));
        }
    }
    // Started in a dry run too: the pacing options the real run would
    // refuse (a load figure the server lacks, a replica it cannot reach)
    // are refused now.
    let mut pacer = Pacer::start(&mut db, &args.pace, args.batch_size, "expire", args.report.quiet).await?;
    if args.dry_run {
        if !args.report.quiet
            && let Some(m) = matching.filter(|m| *m > 0)
        {
            let total = match rows_in_table {
                Some(n) => n,
                None => expiry::rows_in(&mut db, &target).await?,
            }
            .max(m);
            crate::report::say(&format!(
                "dry run: would delete {} of the {} rows of {} ({:.1}%)",
                crate::units::grouped(m),
                crate::units::grouped(total),
                target.table.name,
                100.0 * m as f64 / total as f64
            ));
        }
        if !args.report.quiet {
            say_dry_run(&args, &walk.describe(&dialect, &table, &expired, args.batch_size), &dialect);
        }
    } else {
        let bar = report::progress(args.report.quiet, matching, "deleting");
        if args.wait_for_autovacuum {
            pacer.wait_for_vacuum_of(table.clone());
        }
        pacer.show_holds_on(bar.clone());
        summary.dead_tuples_before = pace::dead_tuples(&mut db, &table).await;
        let mut purge = Purge {
            args: &args,
            table: &table,
            expired: &expired,
            binds: &binds,
            walk: &mut walk,
            summary: &mut summary,
            bar: &bar,
        };
        let writer = (&target.table, Writer::Purge);
        let result = match batches.drive(&mut db, &mut pacer, &mut purge, writer, args.report.quiet).await {
            Ended::Done => Ok(()),
            Ended::Stopped(stopped) => {
                summary.stopped = Some(stopped);
                Ok(())
            }
            Ended::Failed(err) => Err(err),
        };
        summary.waited = pacer.waited.clone();
        pacer.close().await;
        if result.is_ok() {
            after_batches(&mut db, &args, &mut summary, &table, (&expired, &binds)).await;
        }
        summary.dead_tuples_after = pace::dead_tuples(&mut db, &table).await;
        dead_tuple_metrics(&summary);
        bar.finish_and_clear();
        if let Err(err) = result {
            let reason = crate::batch_run::pacing::ThrottleStop::reason_of(&err);
            summary.stopped = Some(reason);
            summary.finish(&batches, started);
            emit(&args, &target, &summary)?.finish_incomplete(reason.as_str())?;
            let retried = match batches.attempts() {
                0 => String::new(),
                n => format!(" after {n} retries"),
            };
            let done = match summary.rows_deleted {
                0 => "nothing was deleted".to_string(),
                rows => format!("the {rows} rows deleted before it stay deleted, and a rerun goes on from there"),
            };
            return Err(err.context(RunStopped(format!("expire stopped{retried}: {done}"))));
        }
    }
    let not_done = match !args.dry_run && summary.stopped.is_none() {
        true => rows_left_behind(&mut db, &mut summary, &table, (&expired, &binds)).await?,
        false => None,
    };
    db.close().await?;
    summary.finish(&batches, started);
    let mut out = emit(&args, &target, &summary)?;
    // A plan the real run cannot carry out from here is a finding.
    let refused = match args.dry_run {
        true => crate::commands::say_real_run_refused(&mut out, &args.report, refusal)?,
        false => false,
    };
    if let Some(why) = not_done {
        out.finish_incomplete(Stopped::RowsNotDeleted.as_str())?;
        return Err(anyhow::anyhow!(why));
    }
    let out_of_time = summary.stopped == Some(Stopped::MaxRuntime);
    let stalled = summary.waited.stalled("expire", out_of_time, summary.rows_deleted);
    // A dry run's plan is its data, unless it has nothing to do.
    let planned = args.dry_run && summary.rows_matching != Some(0);
    let unknown = !summary.kept_unknown.is_empty();
    out.mark_clean(
        !planned && summary.refused_keys.is_empty() && !stalled && !refused && judged_nothing.is_none() && !unknown,
    );
    match summary.stopped {
        Some(Stopped::Interrupted) => out.finish_incomplete(Stopped::Interrupted.as_str())?,
        _ => out.finish()?,
    }
    if summary.stopped == Some(Stopped::Interrupted) {
        let done = match summary.rows_deleted {
            0 => "nothing was deleted".to_string(),
            rows => format!("the {rows} rows deleted before it stay deleted"),
        };
        return Err(anyhow::Error::new(Interrupted).context(RunStopped(format!("expire interrupted: {done}"))));
    }
    if let Some(line) = &judged_nothing {
        eprintln!("idemctl: {line}");
    }
    Ok(Outcome::from_findings(
        !summary.refused_keys.is_empty() || stalled || refused || judged_nothing.is_some() || unknown,
    ))
}

/// `--state-horizon discarded=7d`: a status and its own horizon.
fn state_horizon(text: &str) -> Result<(String, Duration), String> {
    let (state, duration) = text.split_once('=').ok_or("takes STATE=DURATION (discarded=7d)")?;
    if state.trim().is_empty() {
        return Err("takes STATE=DURATION: the state is empty".into());
    }
    Ok((state.trim().to_string(), timeparse::duration(duration)?))
}

/// Each finished status with its own horizon, and that horizon's cutoff:
/// the status must be one expire deletes, on a table whose status column
/// tells.
fn per_state(target: &KeyTable, given: &[(String, Duration)]) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>> {
    if given.is_empty() {
        return Ok(Vec::new());
    }
    let Some(statuses) = &target.statuses else {
        anyhow::bail!("--state-horizon needs a status column to tell the states: map it with --status-column")
    };
    let finished = statuses.finished(target.kind);
    given
        .iter()
        .map(|(state, own)| {
            if !finished.contains(state) {
                anyhow::bail!(
                    "--state-horizon {state}=...: {state} is not a state expire deletes (finished: {})",
                    finished.join(", ")
                );
            }
            Ok((state.clone(), timeparse::before(timeparse::now(), *own, "a horizon")?))
        })
        .collect()
}

/// A column named as a state is, on a table where no status column tells
/// a row's state (a condition for the rows in progress tells nothing of
/// the others).
fn unmapped_state(target: &KeyTable) -> Option<&str> {
    if target.statuses.is_some() || !target.finished_if_set.is_empty() {
        return None;
    }
    target.table.columns.iter().map(|c| c.name.as_str()).find(|name| names_a_state(name))
}

/// Whether a column's name is a state's: `state`, `job_state`, `delivery_status`.
fn names_a_state(name: &str) -> bool {
    let name = name.to_lowercase();
    name == "state" || name.ends_with("_state") || name.ends_with("_status")
}

/// Rows kept, by status, as a line says them: how many (`1 row`, `4 rows`),
/// and the statuses with the most rows first, six at most.
fn kept_text(kept: &BTreeMap<String, u64>) -> (String, String) {
    let mut by_rows: Vec<(&String, &u64)> = kept.iter().collect();
    by_rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let shown: Vec<String> = by_rows.iter().take(6).map(|(s, n)| format!("{s} {n}")).collect();
    let more = if by_rows.len() > 6 { ", ..." } else { "" };
    let rows = match kept.values().sum::<u64>() {
        1 => "1 row".to_string(),
        n => format!("{n} rows"),
    };
    (rows, format!("{}{more}", shown.join(", ")))
}

/// Rows read for the states in use, at most.
const STATES_SAMPLE: u64 = 100_000;

/// How the summary names rows whose status is NULL.
const NO_STATUS: &str = "(no status)";

/// The rows past the horizon a status keeps, by status: those of a live
/// status, and those of a status neither finished nor live; each said.
async fn kept_for_status(
    db: &mut Db,
    target: &KeyTable,
    expiry: &Expiry,
    args: &ExpireArgs,
) -> Result<(BTreeMap<String, u64>, BTreeMap<String, u64>)> {
    let (mut live, mut unknown) = (BTreeMap::new(), BTreeMap::new());
    let Some(statuses) = &target.statuses else { return Ok((live, unknown)) };
    let live_values = statuses.live(target.kind);
    // A state named that no row holds may be a misspelt one.
    let named: Vec<&String> = statuses.finished_given.iter().chain(&statuses.live_given).collect();
    if !named.is_empty() && !args.report.quiet {
        let in_use = crate::db::catalog::values_in_use(db, &target.table, &statuses.column, STATES_SAMPLE).await?;
        let absent: Vec<&str> = named.iter().filter(|v| !in_use.contains(v)).map(|v| v.as_str()).collect();
        if !absent.is_empty() {
            crate::report::say(&format!(
                "note: no row of {} (the first {} read) holds {} {}: check the spelling",
                target.table.name,
                crate::units::grouped(STATES_SAMPLE),
                statuses.column,
                absent.join(", ")
            ));
        }
    }
    for (status, rows) in expiry::kept_by_status(db, target, expiry, args.filter.as_deref()).await? {
        match status {
            Some(s) if live_values.contains(&s) => live.insert(s, rows),
            Some(s) => unknown.insert(s, rows),
            None => unknown.insert(NO_STATUS.to_string(), rows),
        };
    }
    if !args.report.quiet && !live.is_empty() {
        let (rows, shown) = kept_text(&live);
        crate::report::say(&format!(
            "kept: {rows} past the horizon in a live status ({shown}): work still to happen is never expired"
        ));
    }
    if !unknown.is_empty() {
        let (rows, shown) = kept_text(&unknown);
        let untold = match unknown.contains_key(NO_STATUS) {
            true => "; a row with no status (NULL) stays whatever is named: look at it by hand",
            false => "",
        };
        crate::report::say(&format!(
            "kept: {rows} past the horizon in a status neither finished nor live ({shown}): expire deletes only \
             {}; name the others with --finished-value or --live-value{untold}",
            statuses.finished(target.kind).join(", ")
        ));
    }
    Ok((live, unknown))
}

/// `--drop-partitions`: drops the partitions wholly past the horizon by
/// their bounds, each checked first, and the tables an earlier run detached
/// and did not drop; says what it did with each.
async fn retire_partitions(
    db: &mut Db,
    table: &Table,
    expiry: &Expiry,
    expired: &str,
    binds: &[Bind],
    args: &ExpireArgs,
) -> Result<Vec<partitions::Retired>> {
    let mut retired = partitions::drop_leftovers(db, table, expired, binds, args.dry_run).await?;
    let leaves = partitions::leaves(db, table).await?;
    if leaves.is_empty() {
        anyhow::bail!("--drop-partitions: table {:?} is not partitioned", table.name);
    }
    let cutoff = expiry.cutoff.timestamp_micros();
    for leaf in &leaves {
        let on_expiry = leaf.key.as_ref().is_some_and(|k| k.column == expiry.column);
        // MySQL drops partitions, not subpartitions.
        let droppable = db.dialect().drops_partition_at(leaf.level);
        if !on_expiry || !droppable {
            continue;
        }
        let Some(upper) = partitions::upper_micros(db, table, leaf, expiry.time.repr).await? else { continue };
        if upper > cutoff {
            continue;
        }
        let done = partitions::retire(db, table, leaf, expired, binds, args.dry_run).await?;
        if !args.report.quiet {
            crate::report::say(&format!(
                "partition {} ({}): {} rows, {}",
                done.name,
                done.bound,
                crate::units::grouped(done.rows),
                done.outcome
            ));
        }
        retired.push(done);
        if crate::interrupt::is_set() {
            break;
        }
    }
    if retired.is_empty() && !args.report.quiet {
        crate::report::say("no partition is wholly past the horizon: rows go by the walk");
    }
    Ok(retired)
}

/// What a dry run would do, said: the statement each batch runs, and how
/// its batches are sized.
fn say_dry_run(args: &ExpireArgs, statement: &str, dialect: &db::Dialect) {
    match args.show_sql {
        true => crate::report::say(&format!(
            "dry run: nothing is deleted; each batch would run:\n{}",
            crate::db::user_sql::laid_out(dialect, statement)
        )),
        false => crate::report::say("dry run: nothing is deleted (--show-sql for the statement each batch runs)"),
    }
    if !args.pace.batch_time.is_zero() {
        crate::report::say(&format!(
            "dry run: batches start at {} rows and adapt to take about {} each (--batch-time), {} rows at most (--batch-size)",
            crate::units::grouped(crate::batch_run::pacing::first_batch(args.batch_size)),
            timeparse::short(args.pace.batch_time),
            crate::units::grouped(args.batch_size)
        ));
    }
}

/// After batches that ended without an error: the backlog left by a run
/// --max-runtime stopped (counted for the metrics' alerts when --quiet left
/// it uncounted), and the VACUUM `--vacuum` asks for.
async fn after_batches(
    db: &mut Db,
    args: &ExpireArgs,
    summary: &mut Summary,
    table: &str,
    (expired, binds): (&str, &[Bind]),
) {
    if summary.stopped == Some(Stopped::MaxRuntime) && summary.rows_matching.is_none() && crate::metrics::wanted() {
        summary.backlog_after = expiry::count_matching(db, table, expired, binds, None).await.ok();
    }
    if args.vacuum && summary.stopped.is_none() {
        // The rows are deleted either way: a VACUUM that cannot run now
        // is said, and left to autovacuum; it does not fail the run.
        match pace::vacuum(db, table).await {
            Ok(()) => summary.vacuumed = true,
            Err(err) => report::say(&format!(
                "warning: the VACUUM after the run did not run ({}); autovacuum will get to the table",
                crate::exit::one_line(&err)
            )),
        }
    }
}

/// PostgreSQL's dead tuples before and after the run, as metrics.
fn dead_tuple_metrics(summary: &Summary) {
    for (when, dead) in [("before", summary.dead_tuples_before), ("after", summary.dead_tuples_after)] {
        if let Some(dead) = dead {
            let help = "PostgreSQL: the table's dead tuples before and after the run";
            crate::metrics::gauge("idemctl_expire_dead_tuples", help, &[("when", when)], dead as f64);
        }
    }
}

impl Summary {
    /// A run's figures before its batches.
    fn new(
        args: &ExpireArgs,
        table: &Table,
        expiry: &Expiry,
        matching: Option<u64>,
        retired: Vec<partitions::Retired>,
        leases_over: bool,
    ) -> Summary {
        Summary {
            table: format!("{}.{}", table.schema, table.name),
            expired_before: timeparse::rfc3339(expiry.cutoff),
            by: expiry.column.clone(),
            dry_run: args.dry_run,
            rows_deleted: 0,
            rows_matching: matching,
            rows_dropped: retired.iter().filter(|r| r.outcome == "dropped").map(|r| r.rows).sum(),
            partitions: retired,
            batches: 0,
            elapsed_seconds: 0.0,
            rows_per_second: 0.0,
            slowest_batch_ms: 0.0,
            largest_batch_rows: 0,
            smallest_batch_rows: 0,
            refused_keys: Vec::new(),
            unreadable_rows: expiry.time.unreadable(),
            rows_without_time: None,
            in_progress: match leases_over {
                false => "kept",
                true => "deleted once their lease expired",
            },
            kept_live: BTreeMap::new(),
            kept_unknown: BTreeMap::new(),
            stopped: None,
            waited: Waited::default(),
            backlog_after: None,
            dead_tuples_before: None,
            dead_tuples_after: None,
            vacuumed: false,
            config_file: args.mapping.config.as_ref().map(|p| p.display().to_string()),
            at: String::new(),
            action: if args.dry_run { "count" } else { "delete" },
        }
    }
}

/// The run's figures, written: its one row.
fn emit(args: &ExpireArgs, keys: &KeyTable, summary: &Summary) -> Result<Emitter<BufWriter<std::io::Stdout>>> {
    let mut out = Emitter::new(&args.report, BufWriter::new(std::io::stdout()), "runs");
    out.compact(&COMPACT);
    out.figures();
    crate::commands::kind_meta(&mut out, keys)?;
    out.row(summary)?;
    Ok(out)
}

/// A run that walked the whole table and left rows that match, more than
/// it deleted and not refused by a row of their own, did not do its work:
/// something keeps DELETE from them that SELECT does not (a row-level
/// security policy, a trigger that skips rows, a view or a foreign table).
/// What to say then.
async fn rows_left_behind(
    db: &mut Db,
    summary: &mut Summary,
    table: &str,
    (expired, binds): (&str, &[Bind]),
) -> Result<Option<String>> {
    let left = expiry::count_matching(db, table, expired, binds, Some(LEFT_CAP)).await?;
    let refused = summary.refused_keys.len() as u64;
    if left <= refused || (summary.rows_deleted > 0 && left <= summary.rows_deleted) {
        return Ok(None);
    }
    let left_text = if left > LEFT_CAP { format!("more than {LEFT_CAP}") } else { left.to_string() };
    summary.stopped = Some(Stopped::RowsNotDeleted);
    summary.backlog_after = Some(left);
    Ok(Some(format!(
        "expire walked the whole table and deleted {} rows, but {left_text} rows still match: DELETE does not \
         reach rows its SELECT sees (a row-level security policy, a trigger that skips rows, a view or a \
         foreign table that does not delete what it shows)",
        summary.rows_deleted
    )))
}

/// Rows counted after a run, at most, to tell whether it did its work.
const LEFT_CAP: u64 = 100_000;

/// One run's batches: the expired rows in walk order, each batch deleted
/// (by halves around a row that refuses, with `--on-error skip`).
struct Purge<'a> {
    args: &'a ExpireArgs,
    table: &'a str,
    expired: &'a str,
    binds: &'a [Bind],
    walk: &'a mut Walk,
    summary: &'a mut Summary,
    bar: &'a indicatif::ProgressBar,
}

impl BatchWork for Purge<'_> {
    type Done = Deleted;

    /// Known only when a walk finds no expired row left.
    fn is_done(&self) -> bool {
        false
    }

    /// The next batch, found and deleted; `None` when no expired row is left.
    async fn batch(&mut self, db: &mut Db, run: &mut BatchRun, size: u64) -> Result<Option<Deleted>> {
        let Some(batch) = self.walk.next_batch(db, self.table, self.expired, self.binds, size).await? else {
            return Ok(None);
        };
        run.begin_batch().await;
        let deleted = self.delete(db, &batch, size).await?;
        self.walk.advance(&batch, &deleted, size);
        Ok(Some(deleted))
    }

    fn keep(&mut self, deleted: Deleted, took: Duration) -> Result<u64> {
        let summary = &mut *self.summary;
        for refused in &deleted.refused {
            if !self.args.report.quiet {
                crate::report::say(&format!("row ({}) was not deleted: {}", refused.shown, refused.error));
            }
            summary.refused_keys.push(refused.shown.clone());
        }
        summary.rows_deleted += deleted.rows;
        summary.largest_batch_rows = summary.largest_batch_rows.max(deleted.rows);
        if deleted.rows > 0 {
            summary.smallest_batch_rows = match summary.smallest_batch_rows {
                0 => deleted.rows,
                n => n.min(deleted.rows),
            };
        }
        summary.slowest_batch_ms = summary.slowest_batch_ms.max(took.as_secs_f64() * 1000.0);
        self.bar.set_position(summary.rows_deleted);
        Ok(deleted.rows)
    }
}

impl Purge<'_> {
    /// One batch. A row that refuses to go (a trigger, a constraint) fails its
    /// whole batch: the batch is then deleted by halves around it.
    async fn delete(&self, db: &mut Db, batch: &purge::Batch, limit: u64) -> Result<Deleted> {
        let walk = &*self.walk;
        match walk.delete(db, self.table, self.expired, batch, limit).await {
            Ok(deleted) => Ok(deleted),
            Err(e) if self.args.on_error == OnError::Skip && errors::is_row_error(&e) => {
                let keys = walk.batch_keys(db, self.table, self.expired, batch, limit).await?;
                let mut deleted = walk.resume_after(&keys, limit);
                let table = batch.table().unwrap_or(self.table);
                self.by_halves(db, table, keys, &mut deleted).await?;
                Ok(deleted)
            }
            Err(e) => Err(e),
        }
    }
}

/// Rows refused in one run before it stops: past this the cause is not a row
/// but something every row meets (a trigger refusing all deletes, say).
const MAX_REFUSED: usize = 100;

impl Purge<'_> {
    /// Deletes a failed batch's rows by halves, down to the rows that refuse:
    /// those are left in place and reported, every other row goes.
    async fn by_halves(
        &self,
        db: &mut Db,
        table: &str,
        keys: Vec<Vec<Option<String>>>,
        deleted: &mut Deleted,
    ) -> Result<()> {
        let walk = &*self.walk;
        let mut halves = Halves::new(keys);
        while let Some(keys) = halves.next_part() {
            match walk.delete_keys(db, table, self.expired, self.binds, &keys).await {
                Ok(n) => deleted.rows += n,
                Err(e) if errors::is_row_error(&e) && keys.len() == 1 => {
                    let walk_key = keys.into_iter().next().unwrap_or_default();
                    let shown = walk.shown_key(db, table, &walk_key).await;
                    deleted.refused.push(purge::Refused { walk_key, shown, error: errors::message(&e) });
                    // Counted over the run: the batches before this one too.
                    if self.summary.refused_keys.len() + deleted.refused.len() > MAX_REFUSED {
                        anyhow::bail!(
                            "more than {MAX_REFUSED} rows refused to be deleted, the last ({}) with: {}; the cause \
                             is likely not a row but something every row meets",
                            deleted.refused.last().map(|r| r.shown.as_str()).unwrap_or_default(),
                            errors::message(&e)
                        );
                    }
                }
                Err(e) if errors::is_row_error(&e) => halves.halve(keys)?,
                Err(e) => return Err(e.context("deleting the rows of a batch that failed")),
            }
        }
        Ok(())
    }
}

impl crate::commands::Definition for ExpireArgs {
    fn name(&self) -> &'static str {
        "expire"
    }
    fn rows_key(&self) -> &'static str {
        "runs"
    }
    fn effect(&self) -> crate::commands::Effect {
        crate::commands::Effect::Writes { dry_run: self.dry_run, max_runtime: self.max_runtime }
    }
    fn limit_runtime(&mut self, left: std::time::Duration) {
        crate::commands::limited(&mut self.max_runtime, left);
    }
    fn across_databases(&self) -> Result<(), &'static str> {
        Ok(())
    }
    fn totals(&self) -> crate::commands::Totals {
        crate::commands::Totals::RunFigures
    }
    fn fold(&self, key: &str) -> crate::commands::Fold {
        use crate::commands::Fold;
        match key {
            "elapsed_seconds" | "slowest_batch_ms" | "largest_batch_rows" => Fold::Max,
            "smallest_batch_rows" => Fold::Min,
            "rows_per_second" | "at" => Fold::Drop,
            _ => crate::batch_run::pacing::Waited::fold(key),
        }
    }
    crate::commands::on_a_key_table!(ExpireArgs);
    fn run(self: Box<Self>) -> futures_util::future::BoxFuture<'static, Result<Outcome>> {
        Box::pin(run(*self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_names() {
        for name in ["state", "State", "job_state", "delivery_status"] {
            assert!(names_a_state(name), "{name}");
        }
        for name in ["status_code", "stated_at", "estate", "statuses"] {
            assert!(!names_a_state(name), "{name}");
        }
    }

    /// The most rows first, ties by name; past six, an ellipsis.
    #[test]
    fn kept_rows_as_said() {
        let one = BTreeMap::from([("queued".to_string(), 1)]);
        assert_eq!(kept_text(&one), ("1 row".to_string(), "queued 1".to_string()));
        let seven: BTreeMap<String, u64> = (1..=7).map(|n| (format!("s{n}"), n)).collect();
        assert_eq!(kept_text(&seven), ("28 rows".to_string(), "s7 7, s6 6, s5 5, s4 4, s3 3, s2 2, ...".to_string()));
        let six: BTreeMap<String, u64> = [("b", 2), ("a", 2), ("c", 1), ("d", 1), ("e", 1), ("f", 1)]
            .into_iter()
            .map(|(s, n)| (s.to_string(), n))
            .collect();
        assert_eq!(kept_text(&six).1, "a 2, b 2, c 1, d 1, e 1, f 1");
    }
}
