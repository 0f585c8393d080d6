//! `idemctl reap`: resolves stuck keys. `release` lets the next request with
//! the key take over; `fail` stores a permanent error that replays return.
//! A key whose effect already happened (`--verify-sql`) is never released:
//! it is left for review. Every change is compare-and-set on what was read.

use std::io::BufWriter;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use serde::Serialize;

use super::stuck::{self, Durations, Limits, StuckKey};
use crate::cli::{Connect, OnError, Output};
use crate::db::user_sql::VerifySql;
use crate::db::{self, Access, Bind, Db, Dialect, Engine, errors};
use crate::exit::{Interrupted, Outcome};
use crate::keys::{KeyTable, MappingArgs};
use crate::report::Emitter;
use crate::timeparse;

#[derive(Debug, Clone, Args)]
pub struct ReapArgs {
    #[command(flatten)]
    pub connect: Connect,
    #[command(flatten)]
    pub mapping: MappingArgs,
    #[command(flatten)]
    pub limits: Limits,
    /// What to do with each stuck key
    #[arg(long, value_enum, default_value_t = Action::Release)]
    pub action: Action,
    /// SQL returning a row when the key's effect happened (binds :scope, :operation, :key); such keys are left for review
    #[arg(long, value_name = "SQL")]
    pub verify_sql: Option<String>,
    /// Response code stored by --action fail
    #[arg(long, value_name = "CODE", default_value_t = 500)]
    pub fail_code: i64,
    /// Response body stored by --action fail
    #[arg(long, value_name = "JSON", default_value = FAIL_BODY)]
    pub fail_body: String,
    /// Keys changed per transaction
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch_size: u64,
    /// Resolve at most this many keys
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Stop after the batch that passes this much time
    #[arg(long, value_name = "DURATION", value_parser = timeparse::duration)]
    pub max_runtime: Option<Duration>,
    /// Show what would change, and the SQL, changing nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Allow a maximum duration under 30 seconds (a key younger than that may belong to a live request)
    #[arg(long)]
    pub allow_short_duration: bool,
    /// When a key's change or --verify-sql fails on the key itself: report it and go on, or stop the run
    #[arg(long, value_enum, default_value_t = OnError::Skip)]
    pub on_error: OnError,
    #[command(flatten)]
    pub report: Output,
}

/// Shorter maximum durations are refused without `--allow-short-duration`.
const SHORTEST_DURATION: Duration = Duration::from_secs(30);

const FAIL_BODY: &str =
    r#"{"error":"request abandoned: the server stopped before finishing it; retry with a new idempotency key"}"#;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Action {
    /// Set the retryable-failure status: the next request with the key takes over
    Release,
    /// Set the permanent-failure status with a stored error response: replays get the error
    Fail,
}

/// What happened to one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Resolution {
    Released,
    Failed,
    /// Its effect exists (`--verify-sql`): left alone, for a person to look at.
    NeedsReview,
    /// Finished or locked anew since it was read: left alone.
    SkippedChanged,
    /// Held by a live transaction: left alone.
    SkippedLocked,
    /// Its change or its `--verify-sql` failed on this key (the error says
    /// why): left as it was, the other keys resolved.
    Error,
    WouldRelease,
    WouldFail,
}

#[derive(Debug, Serialize)]
struct ReapedKey<'a> {
    scope: &'a [Option<String>],
    operation: &'a Option<String>,
    key: &'a str,
    locked_at: &'a str,
    age_seconds: i64,
    outcome: Resolution,
    error: Option<&'a str>,
}

/// Bound values of one statement, numbered as the engine wants.
struct Params {
    dialect: Dialect,
    binds: Vec<Bind>,
}

impl Params {
    fn new(dialect: Dialect) -> Self {
        Params { dialect, binds: Vec::new() }
    }

    /// A placeholder for `bind`, cast to the column's type where the engine needs it.
    fn push(&mut self, bind: Bind, data_type: &str) -> String {
        self.binds.push(bind);
        let p = self.dialect.placeholder(self.binds.len());
        match self.dialect.engine() {
            Engine::Postgres if !data_type.is_empty() => format!("CAST({p} AS {data_type})"),
            _ => p,
        }
    }
}

/// The condition true for exactly this key; with `as_read`, only while its
/// lock time is the one that was read (compare-and-set).
fn key_term(keys: &KeyTable, key: &StuckKey, as_read: bool, params: &mut Params) -> Result<String> {
    let dialect = params.dialect;
    let mut conds = Vec::new();
    let column_type = |name: &str| keys.table.column(name).map(|c| c.data_type.clone());
    for (column, value) in keys.scope.iter().zip(&key.scope) {
        match value {
            Some(v) => conds.push(format!(
                "{} = {}",
                dialect.ident(column),
                params.push(Bind::Text(v.clone()), &column_type(column)?)
            )),
            None => conds.push(format!("{} IS NULL", dialect.ident(column))),
        }
    }
    if let (Some(column), Some(op)) = (&keys.operation, &key.operation) {
        conds.push(format!(
            "{} = {}",
            dialect.ident(column),
            params.push(Bind::Text(op.clone()), &column_type(column)?)
        ));
    }
    conds.push(format!(
        "{} = {}",
        dialect.ident(&keys.key),
        params.push(Bind::Text(key.key.clone()), &column_type(&keys.key)?)
    ));
    if as_read {
        // Bound, not written in: every batch's statement is then the same
        // text, prepared once (a new statement per batch costs MySQL 40 ms).
        conds.push(format!("{} = {}", keys.lock_micros_sql(&dialect)?, params.push(Bind::Int(key.lock_us), "int8")));
    }
    Ok(format!("({})", conds.join(" AND ")))
}

/// The condition true for exactly these keys while still in progress (and,
/// `as_read`, with the lock times that were read): one statement a batch.
fn any_key(keys: &KeyTable, batch: &[&StuckKey], as_read: bool, params: &mut Params) -> Result<String> {
    let terms = batch.iter().map(|key| key_term(keys, key, as_read, params)).collect::<Result<Vec<_>>>()?;
    let (in_progress, binds) = keys.in_progress_sql(&params.dialect, params.binds.len() + 1);
    params.binds.extend(binds);
    Ok(format!("({}) AND {in_progress}", terms.join(" OR ")))
}

/// A key as the database names it: scope, operation and key, as text.
type Identity = Vec<Option<String>>;

fn identity(key: &StuckKey) -> Identity {
    key.scope.iter().cloned().chain([key.operation.clone(), Some(key.key.clone())]).collect()
}

/// The select list that reads keys' identities back, in `identity` order.
fn identity_select(keys: &KeyTable, dialect: Dialect) -> String {
    let text = |c: &str| dialect.text(&dialect.ident(c));
    keys.scope
        .iter()
        .map(|c| text(c))
        .chain([keys.operation.as_deref().map_or("NULL".to_string(), text), text(&keys.key)])
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `SET` list of the action.
fn assignments(keys: &KeyTable, args: &ReapArgs, params: &mut Params) -> Result<String> {
    let dialect = params.dialect;
    let typed = |name: &str| keys.table.column(name).map(|c| c.data_type.clone()).unwrap_or_default();
    let has = |name: &str| keys.table.columns.iter().any(|c| c.name == name);
    match (args.action, &keys.statuses) {
        (Action::Release, Some(s)) => Ok(format!(
            "{} = {}",
            dialect.ident(&s.column),
            params.push(Bind::Text(s.retryable.clone()), &typed(&s.column))
        )),
        (Action::Release, None) => match &keys.locked_at {
            // Without a status column, releasing is unlocking.
            Some(locked_at) => Ok(format!("{} = NULL", dialect.ident(locked_at))),
            None => bail!(
                "--action release on a table without a status column needs a lock-time column: map it with --locked-at-column"
            ),
        },
        (Action::Fail, Some(s)) => {
            let mut set = vec![format!(
                "{} = {}",
                dialect.ident(&s.column),
                params.push(Bind::Text(s.permanent.clone()), &typed(&s.column))
            )];
            if has("response_code") {
                set.push(format!(
                    "response_code = {}",
                    params.push(Bind::Int(args.fail_code), &typed("response_code"))
                ));
            }
            if has("response_body") {
                set.push(format!(
                    "response_body = {}",
                    params.push(Bind::Text(args.fail_body.clone()), &typed("response_body"))
                ));
            }
            Ok(set.join(", "))
        }
        (Action::Fail, None) => {
            bail!("--action fail needs a status column to store the failure: map it with --status-column")
        }
    }
}

pub async fn run(args: ReapArgs) -> Result<Outcome> {
    let started = Instant::now();
    let config = args.mapping.config()?;
    let durations = Durations::new(&args.limits, &config)?;
    if durations.shortest() < SHORTEST_DURATION && !args.allow_short_duration {
        bail!(
            "a maximum duration of {} is under 30s: a key that young may belong to a request still running, \
             and releasing it runs the request twice (--allow-short-duration to go ahead)",
            humantime::format_duration(durations.shortest())
        );
    }
    let engine = Engine::of_url(&args.connect.database_url)?;
    let verify = args.verify_sql.as_deref().map(|sql| VerifySql::parse(engine, sql)).transpose()?;
    let access = if args.dry_run { Access::ReadOnly } else { Access::ReadWrite };
    let mut db = db::connect(&args.connect.database_url, access).await?;
    let keys = args.mapping.resolve(&config.key_table, &mut db).await?;
    let dialect = db.dialect();
    keys.lock_micros_sql(&dialect)?;
    for time in keys.lock_columns() {
        time.check_for_writing()?;
    }
    // Check the action fits the table before anything happens.
    assignments(&keys, &args, &mut Params::new(dialect))?;

    let _lock = if args.dry_run { None } else { Some(super::lock_table(&mut db, &keys.table).await?) };
    let stop = super::StopFlag::watch();
    if db.engine() == Engine::Postgres && !args.dry_run {
        // Live writers hold a key at most one short transaction; never wait long on one.
        db.raw("SET lock_timeout = '2s'").await?;
    }

    let mut candidates = stuck::find(&mut db, &keys, &durations).await?;
    if let Some(limit) = args.limit {
        candidates.truncate(limit);
    }
    let mut out = Emitter::new(args.report.format, args.report.quiet, BufWriter::new(std::io::stdout()), "keys");
    out.meta("table", format!("{}.{}", keys.table.schema, keys.table.name), keys.table.name.clone())?;
    out.meta("action", format!("{:?}", args.action).to_lowercase(), format!("{:?}", args.action).to_lowercase())?;
    if args.dry_run
        && !args.report.quiet
        && let Some(first) = candidates.first()
    {
        let mut params = Params::new(dialect);
        let set = assignments(&keys, &args, &mut params)?;
        let cond = any_key(&keys, &[first], true, &mut params)?;
        eprintln!(
            "dry run: nothing changes; each batch of keys would be changed by one statement like: UPDATE {} SET {set} WHERE {cond}",
            keys.table.sql_name(&dialect)
        );
    }
    let mut counts = std::collections::BTreeMap::<&'static str, u64>::new();
    let mut batches = 0;
    let mut slowest_batch_ms: f64 = 0.0;
    let mut interrupted = false;
    let mut out_of_time = false;
    let batch_size = usize::try_from(args.batch_size).unwrap_or(usize::MAX);
    for batch in candidates.chunks(batch_size) {
        if stop.is_set() {
            interrupted = true;
            break;
        }
        if args.max_runtime.is_some_and(|max| started.elapsed() >= max) {
            out_of_time = true;
            break;
        }
        batches += 1;
        super::pause_for_tests(batches).await;
        let batch_started = Instant::now();
        let outcomes = resolve_batch(&mut db, &keys, &args, verify.as_ref(), batch).await.with_context(|| {
            let done: u64 = counts.values().sum();
            format!("resolving batch {batches} ({done} keys resolved or skipped before it)")
        })?;
        slowest_batch_ms = slowest_batch_ms.max(batch_started.elapsed().as_secs_f64() * 1000.0);
        for (key, (outcome, error)) in batch.iter().zip(outcomes) {
            *counts.entry(name_of(outcome)).or_default() += 1;
            if let Some(error) = &error
                && !args.report.quiet
            {
                eprintln!("key {} was left as it was: {error}", key.key);
            }
            out.row(&ReapedKey {
                scope: &key.scope,
                operation: &key.operation,
                key: &key.key,
                locked_at: &key.locked_at,
                age_seconds: key.age_seconds,
                outcome,
                error: error.as_deref(),
            })?;
        }
        // Each batch's lines reach the log before the next batch starts.
        out.flush()?;
    }
    drop(stop);
    let text: Vec<String> = counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
    out.meta("outcomes", &counts, if text.is_empty() { "no stuck keys".to_string() } else { text.join(", ") })?;
    out.meta("batches", batches, batches.to_string())?;
    out.meta("slowest_batch_ms", slowest_batch_ms, format!("{slowest_batch_ms:.1}"))?;
    if out_of_time {
        out.meta("stopped", "max-runtime", "--max-runtime reached; the rest waits for the next run")?;
    }
    out.meta("elapsed_seconds", started.elapsed().as_secs_f64(), format!("{:.2}", started.elapsed().as_secs_f64()))?;
    out.finish()?;
    db.close().await?;
    if interrupted {
        return Err(Interrupted.into());
    }
    Ok(Outcome::from_findings(counts.contains_key("needs-review") || counts.contains_key("error")))
}

fn name_of(outcome: Resolution) -> &'static str {
    match outcome {
        Resolution::Released => "released",
        Resolution::Failed => "failed",
        Resolution::NeedsReview => "needs-review",
        Resolution::SkippedChanged => "skipped-changed",
        Resolution::SkippedLocked => "skipped-locked",
        Resolution::Error => "error",
        Resolution::WouldRelease => "would-release",
        Resolution::WouldFail => "would-fail",
    }
}

/// One batch, one transaction: the keys still as they were read are locked
/// in one statement (skipping keys a live transaction holds), each is
/// verified, and those to change are changed in one statement. A change or a
/// verification that fails on a key is undone for that key alone (the batch
/// is halved around it), and the rest go on.
async fn resolve_batch(
    db: &mut Db,
    keys: &KeyTable,
    args: &ReapArgs,
    verify: Option<&VerifySql>,
    batch: &[StuckKey],
) -> Result<Vec<(Resolution, Option<String>)>> {
    let writing = !args.dry_run;
    if writing {
        db.raw(db.dialect().begin_write()).await?;
    }
    let result = settle(db, keys, args, verify, batch).await;
    if writing {
        match &result {
            Ok(_) => db.raw("COMMIT").await?,
            Err(_) => {
                let _ = db.raw("ROLLBACK").await;
            }
        }
    }
    result
}

async fn settle(
    db: &mut Db,
    keys: &KeyTable,
    args: &ReapArgs,
    verify: Option<&VerifySql>,
    batch: &[StuckKey],
) -> Result<Vec<(Resolution, Option<String>)>> {
    let dialect = db.dialect();
    let table = keys.table.sql_name(&dialect);
    let writing = !args.dry_run;
    let all: Vec<&StuckKey> = batch.iter().collect();
    let skip_locked = if writing { dialect.skip_locked() } else { None };
    // The keys still in progress with the lock time read, locked for this transaction.
    let read_back = |lock: Option<&str>, params: &mut Params, which: &[&StuckKey]| -> Result<String> {
        let cond = any_key(keys, which, true, params)?;
        Ok(format!("SELECT {} FROM {table} WHERE {cond}{}", identity_select(keys, dialect), lock.unwrap_or("")))
    };
    let mut params = Params::new(dialect);
    let sql = read_back(skip_locked, &mut params, &all)?;
    let held: std::collections::HashSet<Identity> = db.query_text(&sql, &params.binds).await?.into_iter().collect();
    let mut outcomes: Vec<Option<(Resolution, Option<String>)>> = vec![None; batch.len()];
    let missing: Vec<&StuckKey> = all.iter().copied().filter(|k| !held.contains(&identity(k))).collect();
    if !missing.is_empty() {
        // Not locked: finished or locked anew since read, or held by a live transaction.
        let present: std::collections::HashSet<Identity> = if skip_locked.is_some() {
            let mut params = Params::new(dialect);
            let sql = read_back(None, &mut params, &missing)?;
            db.query_text(&sql, &params.binds).await?.into_iter().collect()
        } else {
            Default::default()
        };
        for (i, key) in batch.iter().enumerate() {
            if !held.contains(&identity(key)) {
                let outcome = if present.contains(&identity(key)) {
                    Resolution::SkippedLocked
                } else {
                    Resolution::SkippedChanged
                };
                outcomes[i] = Some((outcome, None));
            }
        }
    }
    let mut to_change = Vec::new();
    for (i, key) in batch.iter().enumerate() {
        if outcomes[i].is_some() {
            continue;
        }
        if let Some(verify) = verify {
            let (sql, binds) = verify.statement(dialect, &key.scope, key.operation.as_deref(), &key.key);
            match guarded(db, writing, |db| Box::pin(async move { db.query_text(&sql, &binds).await })).await {
                Ok(rows) if !rows.is_empty() => {
                    outcomes[i] = Some((Resolution::NeedsReview, None));
                    continue;
                }
                Ok(_) => {}
                // The query ran into this key's data (a subquery with two rows, a
                // value it cannot cast): nothing is known of its effect.
                Err(e) if args.on_error == OnError::Skip && !errors::is_fault_of_session_or_sql(&e) => {
                    outcomes[i] = Some((Resolution::Error, Some(format!("--verify-sql: {}", errors::message(&e)))));
                    continue;
                }
                Err(e) => return Err(e.context(format!("running --verify-sql for key {}", key.key))),
            }
        }
        if writing {
            to_change.push(i);
        } else {
            let would = match args.action {
                Action::Release => Resolution::WouldRelease,
                Action::Fail => Resolution::WouldFail,
            };
            outcomes[i] = Some((would, None));
        }
    }
    let done = match args.action {
        Action::Release => Resolution::Released,
        Action::Fail => Resolution::Failed,
    };
    // Changed by halves around a key that fails, one statement each.
    let mut pending = vec![to_change];
    while let Some(part) = pending.pop() {
        if part.is_empty() {
            continue;
        }
        let which: Vec<&StuckKey> = part.iter().map(|&i| &batch[i]).collect();
        let mut params = Params::new(dialect);
        let set = assignments(keys, args, &mut params)?;
        let cond = any_key(keys, &which, true, &mut params)?;
        let sql = format!("UPDATE {table} SET {set} WHERE {cond}");
        let binds = params.binds;
        match guarded(db, true, |db| Box::pin(async move { db.execute(&sql, &binds).await })).await {
            // The rows are locked (or the database is, on SQLite): all of them change.
            Ok(n) if n == part.len() as u64 => {
                for &i in &part {
                    outcomes[i] = Some((done, None));
                }
            }
            Ok(_) if part.len() == 1 => outcomes[part[0]] = Some((Resolution::SkippedChanged, None)),
            Ok(_) => bail!("a batch's change matched fewer keys than it held: the key table changed under a lock"),
            Err(e) if args.on_error == OnError::Skip && errors::is_row_error(&e) && part.len() == 1 => {
                outcomes[part[0]] = Some((Resolution::Error, Some(errors::message(&e))));
            }
            Err(e) if args.on_error == OnError::Skip && errors::is_row_error(&e) => {
                let mut first = part;
                let second = first.split_off(first.len() / 2);
                pending.push(second);
                pending.push(first);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(outcomes.into_iter().map(|o| o.unwrap_or((Resolution::SkippedChanged, None))).collect())
}

/// Runs one statement inside a savepoint when in a transaction, so that its
/// failure undoes it alone and the transaction goes on.
async fn guarded<T>(
    db: &mut Db,
    in_transaction: bool,
    statement: impl for<'d> FnOnce(&'d mut Db) -> futures_util::future::BoxFuture<'d, Result<T>>,
) -> Result<T> {
    if !in_transaction {
        return statement(db).await;
    }
    db.raw("SAVEPOINT idemctl_key").await?;
    match statement(db).await {
        Ok(value) => {
            db.raw("RELEASE SAVEPOINT idemctl_key").await?;
            Ok(value)
        }
        Err(e) => {
            db.raw("ROLLBACK TO SAVEPOINT idemctl_key").await?;
            db.raw("RELEASE SAVEPOINT idemctl_key").await?;
            Err(e)
        }
    }
}
