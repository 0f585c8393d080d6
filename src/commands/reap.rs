//! `idemctl reap`: resolves stuck keys. `release` lets the next request with
//! the key take over; `fail` stores a permanent error that replays return.
//! A key whose effect already happened (`--verify-sql`) is never released:
//! it is left for review. Every change is compare-and-set on what was read.

use std::collections::BTreeMap;
use std::io::BufWriter;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use crate::batch_run::pacing::{Hold, Pacer};
use crate::batch_run::{self, BatchRun, BatchWork, Ended, RunStopped, Stopped};
use crate::cli::{Connect, Limits, OnError, Output, Pace};
use crate::db::user_sql::VerifySql;
use crate::db::{self, Access, Placeholders, Writer, lock};
use crate::exit::{Interrupted, Outcome};
use crate::keys::reaping::{self, Action, Assignment, Attempts, FAIL_BODY, MaxAttempts, Reaping, Resolution};
use crate::keys::stuck::{self, Durations, Held, State};
use crate::keys::{KeyTable, Kind, Mapping, MappingArgs};
use crate::report::Emitter;
use crate::timeparse;

/// How a dry run tells what would change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DryRun {
    /// Read the keys and show each change and its SQL, writing nothing
    Check,
    /// Apply each batch in a transaction and roll it back: the table's constraints and triggers judge every change
    Rollback,
}

#[derive(Debug, Clone, Args)]
pub struct ReapArgs {
    /// Only keys matching this SQL condition (a consumer group, a queue, a message version)
    #[arg(help_heading = "Which keys", long = "where", value_name = "SQL")]
    pub filter: Option<String>,
    #[command(flatten)]
    pub limits: Limits,
    /// What to do with each stuck key: release it for the next retry, fail it for good, or delete its row
    #[arg(help_heading = "What to change", long, value_enum, default_value_t = Action::Release)]
    pub action: Action,
    /// SQL returning a row when the key's effect happened (binds :scope, :operation, :key); such keys are left for review
    #[arg(help_heading = "What to change", long, value_name = "SQL")]
    pub verify_sql: Option<String>,
    /// Response code stored by --action fail
    #[arg(hide_short_help = true, help_heading = "What to change", long, value_name = "CODE", default_value_t = 500)]
    pub fail_code: i64,
    /// Response body stored by --action fail
    #[arg(hide_short_help = true, help_heading = "What to change", long, value_name = "JSON", default_value = FAIL_BODY)]
    pub fail_body: String,
    /// Most keys changed per transaction; --batch-time sizes each batch below it
    #[arg(help_heading = "Pacing", long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch_size: u64,
    #[command(flatten)]
    pub pace: Pace,
    /// Resolve at most this many keys
    #[arg(help_heading = "What to change", long, value_name = "N")]
    pub limit: Option<usize>,
    /// Stop after the batch that passes this much time
    #[arg(help_heading = "Pacing", long, value_name = "DURATION", value_parser = timeparse::duration)]
    pub max_runtime: Option<Duration>,
    /// Show what would change, changing nothing (=rollback: apply each batch and roll it back)
    #[arg(long, value_enum, value_name = "HOW", num_args = 0..=1, require_equals = true, default_missing_value = "check")]
    pub dry_run: Option<DryRun>,
    /// With --dry-run, also print the statement each batch runs
    #[arg(long, requires = "dry_run")]
    pub show_sql: bool,
    /// A column every change writes beside the status: COLUMN=VALUE, VALUE now(), NULL, a number, 'text', COLUMN + N, append(VALUE) or {NAME: VALUE, ...} (repeatable)
    #[arg(help_heading = "What to change", long = "set", value_name = "COL=VALUE", value_parser = reaping::parse_assignment)]
    pub set: Vec<Assignment>,
    /// A column a release writes (an attempts counter, a run-at time), as --set (repeatable)
    #[arg(hide_short_help = true, help_heading = "What to change", long = "release-set", value_name = "COL=VALUE", value_parser = reaping::parse_assignment)]
    pub release_set: Vec<Assignment>,
    /// A column a failure writes (a finalised time, a retry counter at its limit), as --set (repeatable)
    #[arg(hide_short_help = true, help_heading = "What to change", long = "fail-set", value_name = "COL=VALUE", value_parser = reaping::parse_assignment)]
    pub fail_set: Vec<Assignment>,
    /// The attempts column: with --max-attempts, a key that has used up its attempts is failed, not released
    #[arg(
        hide_short_help = true,
        help_heading = "What to change",
        long,
        value_name = "COL",
        requires = "max_attempts"
    )]
    pub attempts_column: Option<String>,
    /// The most attempts a key has: a number, or the column holding each key's
    #[arg(hide_short_help = true, help_heading = "What to change", long, value_name = "N|COL", requires = "attempts_column", value_parser = reaping::parse_max_attempts)]
    pub max_attempts: Option<MaxAttempts>,
    /// Allow a maximum duration under 30 seconds (a key younger than that may belong to a live request)
    #[arg(help_heading = "What to change", long)]
    pub allow_short_duration: bool,
    /// When a key's change or --verify-sql fails on the key itself: report it and go on, or stop the run
    #[arg(hide_short_help = true, help_heading = "What to change", long, value_enum, default_value_t = OnError::Skip)]
    pub on_error: OnError,
    /// Times a batch is tried again after a lock wait, deadlock or serialization failure, with a doubling pause
    #[arg(hide_short_help = true, help_heading = "Pacing", long, value_name = "N", default_value_t = 3)]
    pub retries: u32,
    #[command(flatten)]
    pub mapping: MappingArgs,
    #[command(flatten)]
    pub connect: Connect,
    #[arg(skip)]
    pub report: Output,
}

#[derive(Debug, Serialize)]
struct ReapedKey<'a> {
    scope: &'a [Option<String>],
    operation: &'a Option<String>,
    key: &'a str,
    state: State,
    locked_at: &'a Option<String>,
    age_seconds: i64,
    outcome: Resolution,
    error: Option<&'a str>,
    /// When the key's batch was committed; empty in a dry run, which changes nothing.
    at: Option<&'a str>,
    /// release, fail or delete; empty in a dry run (the outcome says what would be done).
    action: Option<&'a str>,
}

/// The flags and the config file, folded once.
struct Settings {
    mapping: Mapping,
    durations: Durations,
    reaping: Reaping,
}

impl Settings {
    fn new(args: &ReapArgs) -> Result<Settings> {
        let config = args.mapping.config()?;
        let durations = Durations::new(&args.limits, &config)?;
        durations.check_floor(args.allow_short_duration)?;
        let engine = db::engine_of(&args.connect.database_url)?;
        let verify = args.verify_sql.as_deref().map(|sql| VerifySql::parse(engine, sql)).transpose()?;
        Ok(Settings {
            mapping: args.mapping.mapping(&config.key_table)?,
            durations,
            reaping: Reaping {
                action: args.action,
                fail_code: args.fail_code,
                fail_body: args.fail_body.clone(),
                on_error: args.on_error,
                dry_run: args.dry_run.is_some(),
                rollback: args.dry_run == Some(DryRun::Rollback),
                verify,
                set: args.set.clone(),
                release_set: args.release_set.clone(),
                fail_set: args.fail_set.clone(),
                attempts: args
                    .attempts_column
                    .clone()
                    .zip(args.max_attempts.clone())
                    .map(|(column, max)| Attempts { column, max }),
            },
        })
    }
}

pub async fn run(args: ReapArgs) -> Result<Outcome> {
    let started = Instant::now();
    let settings = Settings::new(&args)?;
    if args.dry_run.is_some() {
        return reap(args, settings, started).await;
    }
    reap(args, settings, started)
        .await
        .map_err(|e| batch_run::stopped_before_any_batch(e, "reap stopped: nothing was changed"))
}

async fn reap(args: ReapArgs, settings: Settings, started: Instant) -> Result<Outcome> {
    // A plain dry run reads; a rollback dry run writes as the run would, and undoes it.
    let applies = settings.reaping.applies();
    let access = if applies { Access::ReadWrite } else { Access::ReadOnly };
    let mut db = db::connect(&args.connect.target("reap"), access).await?;
    let keys = resolve(&mut db, &args, &settings).await?;
    let judged_nothing = crate::commands::where_selects_nothing(&mut db, &keys.table, args.filter.as_deref()).await?;
    crate::commands::say_if_empty(&mut db, &keys.table, args.report.quiet).await?;
    let _lock = if applies { Some(lock::lock_table(&mut db, &keys.table).await?) } else { None };
    let mut batches = BatchRun::start(started, args.max_runtime, args.retries, args.connect.waits.lock_timeout);
    if applies {
        db.prepare_writer(Writer::Reap).await?;
    }
    // Started in a dry run too, before it says anything: the pacing options
    // the real run would refuse are refused now.
    let mut pacer = Pacer::start(&mut db, &args.pace, args.batch_size, "reap", args.report.quiet).await?;
    // Keys live transactions hold are locked by the batches themselves, and
    // reported skipped-locked; a dry run, which locks nothing, tells them
    // apart as `stuck` does (on MySQL by a locking read on a session of its own).
    let found = if !applies {
        stuck::find_held_apart(&mut db, &keys, &settings.durations, &args.connect.target("reap")).await?
    } else {
        stuck::find(&mut db, &keys, &settings.durations, Held::Ignore).await?
    };
    if found.untimed > 0 && !args.report.quiet {
        crate::report::say(&format!("note: {}", stuck::untimed_note(&keys, found.untimed)));
    }
    let judged_nothing = judged_nothing.or_else(|| crate::commands::untimed_not_judged(&keys, found.untimed));
    // A plain dry run whose every stuck key a live transaction holds plans
    // nothing: as the run that skips them all, it is no clean run.
    let judged_nothing = judged_nothing.or_else(|| {
        (!applies && found.keys.is_empty() && found.held > 0).then(|| {
            format!(
                "reap would change nothing: each of the {} stuck {} it reached is held by a live transaction (in use, \
                 not stuck); a run now skips them, and the next tries them again (exit 1)",
                found.held,
                keys.kind.entries()
            )
        })
    });
    let held = (found.held, stuck::held_text(found.held, &found.held_keys, "a run skips them"));
    let mut candidates = found.keys;
    if let Some(limit) = args.limit {
        candidates.truncate(limit);
    }
    let mut out = start_report(&args, &keys, held)?;
    let refused = match applies {
        true => false,
        false => {
            let refusal = lock::write_refusal(&mut db, &keys.table, "reap", &privileges(args.action), false).await?;
            crate::commands::say_real_run_refused(&mut out, &args.report, refusal)?
        }
    };
    if args.dry_run.is_some()
        && !args.report.quiet
        && let Some(first) = candidates.first()
    {
        // In words first: what each key the run changes would hold.
        let action = settings.reaping.action;
        let (verb, entry) = (action.past(), keys.kind.entry());
        let words = match reaping::describe_in_words(&keys, &settings.reaping, action) {
            Some(change) => format!("each {entry} {verb} would get {change}"),
            None if action == reaping::Action::Delete => format!("each {entry} {verb} would be deleted"),
            None => format!("each {entry} {verb} would be left as it is (nothing to write on this design)"),
        };
        let shown = if args.show_sql { "" } else { " (--show-sql for the statement)" };
        crate::report::say(&format!("dry run: nothing changes; {words}{shown}"));
        if args.show_sql {
            let how = match applies {
                true => "each batch is applied and rolled back, one statement like",
                false => &format!("each batch of {} would be changed by one statement like", keys.kind.entries()),
            };
            let sql = reaping::describe(&keys, &settings.reaping, first, db.dialect())?;
            crate::report::say(&format!("dry run: {how}:\n{}", crate::db::user_sql::laid_out(&db.dialect(), &sql)));
        }
    }
    let run = resolve_all(&mut db, (&keys, &settings.reaping, &args), &candidates, &mut batches, &mut pacer, &mut out)
        .await?;
    let waited = pacer.waited.clone();
    waited.metrics();
    pacer.close().await;
    let mut ended = summarise(&mut out, run, &waited, (candidates.len(), keys.kind), batches.batches(), started)?;
    // A plan the real run cannot carry out from here is a finding.
    ended.findings |= refused || judged_nothing.is_some();
    let outcome = finish(out, db, (&args, keys.kind), ended, batches.attempts()).await?;
    if let Some(line) = judged_nothing {
        eprintln!("idemctl: {line}");
    }
    Ok(outcome)
}

/// The key table resolved and checked for the action before anything
/// happens: its columns, the table writable, the change fits its columns,
/// the status value one it takes.
async fn resolve(db: &mut db::Db, args: &ReapArgs, settings: &Settings) -> Result<KeyTable> {
    let mut keys = KeyTable::resolve(&settings.mapping, db).await?;
    keys.narrow(db.engine(), args.filter.as_deref())?;
    if let Some(filter) = args.filter.as_deref() {
        crate::db::user_sql::probe(db, &keys.table, "--where", filter, false).await?;
    }
    crate::report::say_target(
        args.report.quiet,
        "reap",
        &db.target().place(),
        &format!("{}.{}", keys.table.schema, keys.table.name),
    );
    if settings.reaping.applies() {
        lock::check_writable(db, &keys.table, "reap", &privileges(args.action)).await?;
    }
    keys.key()?;
    keys.in_progress()?;
    keys.read_state_times(db).await?;
    let dialect = db.dialect();
    keys.state_times(&dialect)?;
    for time in keys.state_columns() {
        time.check_for_writing()?;
    }
    let r = &settings.reaping;
    let stamped: Vec<Option<String>> = r
        .set
        .iter()
        .chain(&r.release_set)
        .chain(&r.fail_set)
        .filter(|a| a.value == reaping::SetValue::Now)
        .map(|a| Some(a.column.clone()))
        .collect();
    keys.read_times(db, &stamped).await?;
    reaping::check_assignments(&keys, r, dialect)?;
    reaping::assignments(&keys, r, &mut Placeholders::new(dialect))?;
    reaping::check_status_value(db, &keys, r).await?;
    reaping::check_set_values(db, &keys, r).await?;
    if let Some(note) = stuck::unmatched_operations(db, &keys, &settings.durations).await?
        && !args.report.quiet
    {
        crate::report::say(&format!("note: {note}"));
    }
    Ok(keys)
}

/// The privileges a run of the action needs on the table.
fn privileges(action: Action) -> [&'static str; 2] {
    ["SELECT", if action == Action::Delete { "DELETE" } else { "UPDATE" }]
}

/// The report, with what it is about.
fn start_report(
    args: &ReapArgs,
    keys: &KeyTable,
    (held, held_text): (u64, String),
) -> Result<Emitter<BufWriter<std::io::Stdout>>> {
    let mut out = Emitter::new(&args.report, BufWriter::new(std::io::stdout()), "keys");
    // At a terminal's width: which key, and where it stands (--wide: every column).
    out.compact(&["key", "operation", "state", "age_seconds", "outcome", "error"]);
    out.spans(&["age_seconds"]);
    out.meta("table", format!("{}.{}", keys.table.schema, keys.table.name), keys.table.name.clone())?;
    crate::report::config_meta(&mut out, args.mapping.config.as_deref())?;
    crate::commands::kind_meta(&mut out, keys)?;
    let action = format!("{:?}", args.action).to_lowercase();
    out.meta("action", action.clone(), action)?;
    if args.dry_run == Some(DryRun::Check) {
        out.meta("held", held, held_text)?;
    }
    Ok(out)
}

/// How a run ended, once its summary is written.
struct Ending {
    counts: BTreeMap<&'static str, u64>,
    /// Why it stopped short, if it did.
    why: Option<Stopped>,
    stopped: Option<Stopped>,
    failed: Option<anyhow::Error>,
    /// Keys that need a person (review, errors, changes that did not land),
    /// or a run that made no headway.
    findings: bool,
}

/// The run's summary: outcomes, batches, waits, why it stopped.
fn summarise(
    out: &mut Emitter<BufWriter<std::io::Stdout>>,
    run: Resolved,
    waited: &crate::batch_run::pacing::Waited,
    (candidates, kind): (usize, Kind),
    batches_run: u64,
    started: Instant,
) -> Result<Ending> {
    let Resolved { counts, slowest_batch_ms, stopped, failed } = run;
    let text: Vec<String> = counts.iter().filter(|(_, v)| **v > 0).map(|(k, v)| format!("{k} {v}")).collect();
    let said = match (text.is_empty(), candidates) {
        (false, _) => text.join(", "),
        (true, 0) => format!("no stuck {}", kind.entries()),
        (true, n) => format!("none yet of {n} stuck {}", kind.entries()),
    };
    out.summary("outcomes", &counts, said)?;
    for (outcome, n) in &counts {
        crate::metrics::gauge(
            "idemctl_reap_keys",
            "Stuck keys this run resolved, by outcome",
            &[("outcome", outcome)],
            *n as f64,
        );
    }
    out.summary("batches", batches_run, batches_run.to_string())?;
    out.summary("slowest_batch_ms", slowest_batch_ms, format!("{slowest_batch_ms:.1}"))?;
    out.summary("waited", waited, waited_text(waited))?;
    // Keys locked for their change that the change did not reach, as many as
    // those changed or more: the run did not do its work.
    let kept_from = counts.get(Resolution::NoEffect.as_str()).copied().unwrap_or(0);
    let changed: u64 = [Resolution::Released, Resolution::Failed, Resolution::Deleted]
        .iter()
        .filter_map(|r| counts.get(r.as_str()))
        .sum();
    let failed = match failed {
        None if kept_from > 0 && kept_from >= changed => Some(anyhow::anyhow!(
            "reap changed {changed} {entries}, and {kept_from} {entries} it locked for their change were not changed \
             by it: a trigger, a rule or a row-level security policy keeps the change from the table",
            entries = kind.entries()
        )),
        failed => failed,
    };
    let (why, text) = match (stopped, &failed) {
        (Some(Stopped::MaxRuntime), _) => (
            Some(Stopped::MaxRuntime),
            match waited.held_when_stopped {
                Some(hold) => format!("--max-runtime reached {}; the rest waits for the next run", hold.while_held()),
                None => "--max-runtime reached; the rest waits for the next run".to_string(),
            },
        ),
        (Some(stopped), _) => (Some(stopped), stopped.as_str().to_string()),
        (None, Some(err)) => {
            (Some(crate::batch_run::pacing::ThrottleStop::reason_of(err)), "by the error below".to_string())
        }
        (None, None) => (None, String::new()),
    };
    out.summary("stopped", why.map(Stopped::as_str), text)?;
    out.summary("elapsed_seconds", started.elapsed().as_secs_f64(), format!("{:.2}", started.elapsed().as_secs_f64()))?;
    let stalled = waited.stalled("reap", stopped == Some(Stopped::MaxRuntime), counts.values().sum());
    // Every key the run reached held by a live transaction: it changed
    // nothing, which is no clean run, whatever the next one finds.
    let locked = counts.get(Resolution::SkippedLocked.as_str()).copied().unwrap_or(0);
    let all_held = locked > 0 && counts.iter().all(|(k, n)| *n == 0 || *k == Resolution::SkippedLocked.as_str());
    if all_held {
        crate::report::say(&format!(
            "reap changed nothing: each of the {locked} stuck {} it reached was held by a live transaction (in use, \
             not stuck); the next run tries them again (exit 1)",
            kind.entries()
        ));
    }
    let findings = stalled
        || all_held
        || [Resolution::NeedsReview, Resolution::Error, Resolution::NoEffect, Resolution::Unchanged]
            .iter()
            .any(|r| counts.get(r.as_str()).is_some_and(|n| *n > 0));
    Ok(Ending { counts, why, stopped, failed, findings })
}

/// The report closed, and the run's outcome: an error that stopped it
/// (after the keys before it), an interruption, or its findings.
async fn finish(
    mut out: Emitter<BufWriter<std::io::Stdout>>,
    db: db::Db,
    (args, kind): (&ReapArgs, Kind),
    ended: Ending,
    retries: u32,
) -> Result<Outcome> {
    let Ending { counts, why, stopped, failed, findings } = ended;
    out.mark_clean(args.dry_run.is_none() && !findings);
    match (why, &failed) {
        (Some(reason), Some(_)) | (Some(reason @ Stopped::Interrupted), None) => {
            out.finish_incomplete(reason.as_str())?
        }
        _ => out.finish()?,
    }
    let done = counts.values().sum::<u64>();
    if let Some(err) = failed {
        let retried = match retries {
            0 => String::new(),
            n => format!(" after {n} retries"),
        };
        return Err(err.context(RunStopped(format!("reap stopped{retried}: {}", done_before(kind, done)))));
    }
    db.close().await?;
    // A key left as it was is still stuck: the run did nothing for it, and
    // does not end clean (exit 1).
    if let Some(&unchanged) = counts.get(Resolution::Unchanged.as_str())
        && unchanged > 0
        && !args.report.quiet
    {
        let (them, they) = if unchanged == 1 { ("it", "it waits") } else { ("them", "they wait") };
        crate::report::say(&format!(
            "note: {} left unchanged: this design keeps no lock or status on {them} to clear, so {they} for its own \
             retry; --action delete removes {them}",
            kind.counted(unchanged)
        ));
    }
    if stopped == Some(Stopped::Interrupted) {
        let done = done_before(kind, done);
        return Err(anyhow::Error::new(Interrupted).context(RunStopped(format!("reap interrupted: {done}"))));
    }
    Ok(Outcome::from_findings(findings))
}

/// What a run stopped by a fault or a signal had done, in the kind's words:
/// `nothing was changed`, or `the 3 messages before it are done, and a rerun
/// goes on from there`.
fn done_before(kind: Kind, done: u64) -> String {
    match done {
        0 => "nothing was changed".to_string(),
        1 => format!("the {} before it is done, and a rerun goes on from there", kind.entry()),
        n => format!("the {} before it are done, and a rerun goes on from there", kind.counted(n)),
    }
}

/// The waits of a run for people; nothing when it did not wait.
fn waited_text(w: &crate::batch_run::pacing::Waited) -> String {
    let parts: Vec<String> = [
        ("purge", w.seconds(Hold::Purge)),
        ("load", w.seconds(Hold::Load)),
        ("replica lag", w.seconds(Hold::Lag)),
        ("autovacuum", w.seconds(Hold::Vacuum)),
        ("pauses", w.sleep_seconds),
    ]
    .iter()
    .filter(|(_, s)| *s > 0.0)
    .map(|(what, s)| format!("{s:.1}s on {what}"))
    .collect();
    match w.held_when_stopped {
        Some(held) => format!("{} (stopped while held by {})", parts.join(", "), held.name()),
        None => parts.join(", "),
    }
}

/// What the batches of one run did.
struct Resolved {
    counts: BTreeMap<&'static str, u64>,
    slowest_batch_ms: f64,
    stopped: Option<Stopped>,
    /// The error a batch stopped the run with.
    failed: Option<anyhow::Error>,
}

/// Resolves the stuck keys batch by batch, one line per key; each batch's
/// lines reach the log before the next batch starts.
async fn resolve_all(
    db: &mut db::Db,
    (keys, reaping, args): (&KeyTable, &Reaping, &ReapArgs),
    candidates: &[stuck::StuckKey],
    batches: &mut BatchRun,
    pacer: &mut Pacer,
    out: &mut Emitter<BufWriter<std::io::Stdout>>,
) -> Result<Resolved> {
    let possible = Resolution::possible(args.action, args.dry_run.is_some(), reaping.attempts.is_some());
    let counts = possible.into_iter().map(|r| (r.as_str(), 0)).collect();
    let mut work = Resolving { keys, reaping, args, candidates, at_key: 0, counts, slowest_batch_ms: 0.0, out };
    let ended = batches.drive(db, pacer, &mut work, (&keys.table, Writer::Reap), args.report.quiet).await;
    let (stopped, failed) = match ended {
        Ended::Done => (None, None),
        Ended::Stopped(stopped) => (Some(stopped), None),
        Ended::Failed(err) => (None, Some(err)),
    };
    Ok(Resolved { counts: work.counts, slowest_batch_ms: work.slowest_batch_ms, stopped, failed })
}

/// The stuck keys, resolved a batch at a time in their order.
struct Resolving<'a> {
    keys: &'a KeyTable,
    reaping: &'a Reaping,
    args: &'a ReapArgs,
    candidates: &'a [stuck::StuckKey],
    /// The first key not resolved yet.
    at_key: usize,
    counts: BTreeMap<&'static str, u64>,
    slowest_batch_ms: f64,
    out: &'a mut Emitter<BufWriter<std::io::Stdout>>,
}

impl BatchWork for Resolving<'_> {
    /// Where the batch ends among the candidates, and each key's outcome.
    type Done = (usize, Vec<(Resolution, Option<String>)>);

    fn is_done(&self) -> bool {
        self.at_key >= self.candidates.len()
    }

    async fn batch(&mut self, db: &mut db::Db, run: &mut BatchRun, size: u64) -> Result<Option<Self::Done>> {
        if self.at_key >= self.candidates.len() {
            return Ok(None);
        }
        let size = usize::try_from(size).unwrap_or(usize::MAX);
        let end = self.at_key.saturating_add(size).min(self.candidates.len());
        run.begin_batch().await;
        let outcomes = reaping::resolve_batch(db, self.keys, self.reaping, &self.candidates[self.at_key..end]).await?;
        Ok(Some((end, outcomes)))
    }

    fn keep(&mut self, (end, outcomes): Self::Done, took: Duration) -> Result<u64> {
        let (args, batch) = (self.args, &self.candidates[self.at_key..end]);
        self.at_key = end;
        let at = crate::timeparse::rfc3339(crate::timeparse::now());
        let named = |a: Action| format!("{a:?}").to_lowercase();
        self.slowest_batch_ms = self.slowest_batch_ms.max(took.as_secs_f64() * 1000.0);
        for (key, (outcome, error)) in batch.iter().zip(outcomes) {
            *self.counts.entry(outcome.as_str()).or_default() += 1;
            if let Some(error) = &error
                && !args.report.quiet
            {
                let left = if args.dry_run.is_some() { "would be left" } else { "was left" };
                crate::report::say(&format!("{} {} {left} as it was: {error}", self.keys.kind.entry(), key.key));
            }
            let action = args.dry_run.is_none().then(|| named(outcome.change().unwrap_or(args.action)));
            self.out.row(&ReapedKey {
                scope: &key.scope,
                operation: &key.operation,
                key: &key.key,
                state: key.state,
                locked_at: &key.locked_at,
                age_seconds: key.age_seconds,
                outcome,
                error: error.as_deref(),
                at: args.dry_run.is_none().then_some(at.as_str()),
                action: action.as_deref(),
            })?;
        }
        self.out.flush()?;
        Ok(batch.len() as u64)
    }
}

impl crate::commands::Definition for ReapArgs {
    fn name(&self) -> &'static str {
        "reap"
    }
    fn rows_key(&self) -> &'static str {
        "keys"
    }
    fn effect(&self) -> crate::commands::Effect {
        crate::commands::Effect::Writes { dry_run: self.dry_run.is_some(), max_runtime: self.max_runtime }
    }
    fn limit_runtime(&mut self, left: std::time::Duration) {
        crate::commands::limited(&mut self.max_runtime, left);
    }
    fn across_databases(&self) -> Result<(), &'static str> {
        Ok(())
    }
    fn totals(&self) -> crate::commands::Totals {
        crate::commands::Totals::Summaries
    }
    fn fold(&self, key: &str) -> crate::commands::Fold {
        match key {
            "elapsed_seconds" | "slowest_batch_ms" => crate::commands::Fold::Max,
            _ => crate::batch_run::pacing::Waited::fold(key),
        }
    }
    crate::commands::on_a_key_table!(ReapArgs);
    fn run(self: Box<Self>) -> futures_util::future::BoxFuture<'static, Result<Outcome>> {
        Box::pin(run(*self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_run_says_what_it_did_in_the_kinds_words() {
        assert_eq!(done_before(Kind::Inbox, 0), "nothing was changed");
        assert_eq!(done_before(Kind::Inbox, 3), "the 3 messages before it are done, and a rerun goes on from there");
        assert_eq!(done_before(Kind::Jobs, 1), "the job before it is done, and a rerun goes on from there");
        assert_eq!(done_before(Kind::Http, 2), "the 2 keys before it are done, and a rerun goes on from there");
    }
}
