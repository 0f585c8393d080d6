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
use crate::cli::{Connect, Output};
use crate::db::user_sql::VerifySql;
use crate::db::{self, Access, Bind, Db, Dialect, Engine};
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
    #[command(flatten)]
    pub report: Output,
}

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

/// `WHERE` text matching exactly this key as it was read: its primary key,
/// still in progress, with the same lock time.
fn matching(keys: &KeyTable, dialect: Dialect, key: &StuckKey, params: &mut Params) -> Result<String> {
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
    let (in_progress, binds) = keys.in_progress_sql(&dialect, params.binds.len() + 1);
    params.binds.extend(binds);
    conds.push(in_progress);
    conds.push(format!("{} = {}", keys.lock_micros_sql(&dialect)?, key.lock_us));
    Ok(conds.join(" AND "))
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
        let cond = matching(&keys, dialect, first, &mut params)?;
        eprintln!(
            "dry run: nothing changes; each key would be changed by: UPDATE {} SET {set} WHERE {cond}",
            keys.table.sql_name(&dialect)
        );
    }
    let mut counts = std::collections::BTreeMap::<&'static str, u64>::new();
    let mut batches = 0;
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
        let outcomes = resolve_batch(&mut db, &keys, &args, verify.as_ref(), batch).await?;
        for (key, outcome) in batch.iter().zip(outcomes) {
            *counts.entry(name_of(outcome)).or_default() += 1;
            out.row(&ReapedKey {
                scope: &key.scope,
                operation: &key.operation,
                key: &key.key,
                locked_at: &key.locked_at,
                age_seconds: key.age_seconds,
                outcome,
            })?;
        }
        // Each batch's lines reach the log before the next batch starts.
        out.flush()?;
    }
    drop(stop);
    let text: Vec<String> = counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
    out.meta("outcomes", &counts, if text.is_empty() { "no stuck keys".to_string() } else { text.join(", ") })?;
    out.meta("batches", batches, batches.to_string())?;
    if out_of_time {
        out.meta("stopped", "max-runtime", "--max-runtime reached; the rest waits for the next run")?;
    }
    out.meta("elapsed_seconds", started.elapsed().as_secs_f64(), format!("{:.2}", started.elapsed().as_secs_f64()))?;
    out.finish()?;
    db.close().await?;
    if interrupted {
        return Err(Interrupted.into());
    }
    Ok(Outcome::from_findings(counts.contains_key("needs-review")))
}

fn name_of(outcome: Resolution) -> &'static str {
    match outcome {
        Resolution::Released => "released",
        Resolution::Failed => "failed",
        Resolution::NeedsReview => "needs-review",
        Resolution::SkippedChanged => "skipped-changed",
        Resolution::SkippedLocked => "skipped-locked",
        Resolution::WouldRelease => "would-release",
        Resolution::WouldFail => "would-fail",
    }
}

/// One transaction: each key locked (skipping keys a live transaction
/// holds), verified, and changed only if it is still as it was read.
async fn resolve_batch(
    db: &mut Db,
    keys: &KeyTable,
    args: &ReapArgs,
    verify: Option<&VerifySql>,
    batch: &[StuckKey],
) -> Result<Vec<Resolution>> {
    let dialect = db.dialect();
    let table = keys.table.sql_name(&dialect);
    if !args.dry_run {
        db.raw(if db.engine() == Engine::Sqlite { "BEGIN IMMEDIATE" } else { "BEGIN" }).await?;
    }
    let result = async {
        let mut outcomes = Vec::with_capacity(batch.len());
        for key in batch {
            let mut params = Params::new(dialect);
            let cond = matching(keys, dialect, key, &mut params)?;
            let skip_locked = match (db.engine(), args.dry_run) {
                (Engine::Sqlite, _) | (_, true) => "",
                _ => " FOR UPDATE SKIP LOCKED",
            };
            let held =
                db.query_text(&format!("SELECT 1 FROM {table} WHERE {cond}{skip_locked}"), &params.binds).await?;
            if held.is_empty() {
                let still = if skip_locked.is_empty() {
                    Vec::new()
                } else {
                    db.query_text(&format!("SELECT 1 FROM {table} WHERE {cond}"), &params.binds).await?
                };
                outcomes.push(if still.is_empty() { Resolution::SkippedChanged } else { Resolution::SkippedLocked });
                continue;
            }
            if let Some(verify) = verify {
                let (sql, binds) = verify.statement(dialect, &key.scope, key.operation.as_deref(), &key.key);
                if !db.query_text(&sql, &binds).await.context("running --verify-sql")?.is_empty() {
                    outcomes.push(Resolution::NeedsReview);
                    continue;
                }
            }
            if args.dry_run {
                outcomes.push(match args.action {
                    Action::Release => Resolution::WouldRelease,
                    Action::Fail => Resolution::WouldFail,
                });
                continue;
            }
            let mut params = Params::new(dialect);
            let set = assignments(keys, args, &mut params)?;
            let cond = matching(keys, dialect, key, &mut params)?;
            let changed = db.execute(&format!("UPDATE {table} SET {set} WHERE {cond}"), &params.binds).await?;
            outcomes.push(match (changed, args.action) {
                (0, _) => Resolution::SkippedChanged,
                (_, Action::Release) => Resolution::Released,
                (_, Action::Fail) => Resolution::Failed,
            });
        }
        anyhow::Ok(outcomes)
    }
    .await;
    if !args.dry_run {
        match &result {
            Ok(_) => db.raw("COMMIT").await?,
            Err(_) => {
                let _ = db.raw("ROLLBACK").await;
            }
        }
    }
    result
}
