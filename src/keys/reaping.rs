//! Resolving stuck keys: release them for the next retry, or fail them for
//! good. A key whose effect already happened (`--verify-sql`) is never
//! released: it is left for review. Every change is compare-and-set on what
//! was read, one batch a transaction of a few statements.

use anyhow::{Result, bail};
use clap::ValueEnum;
use serde::Serialize;

use super::KeyTable;
use super::stuck::StuckKey;
use crate::cli::OnError;
use crate::db::user_sql::VerifySql;
use crate::db::{Bind, Db, Dialect, Placeholders, errors};

/// The body `--action fail` stores by default.
pub const FAIL_BODY: &str =
    r#"{"error":"request abandoned: the server stopped before finishing it; retry with a new idempotency key"}"#;

/// How a run resolves keys: the action, what `fail` stores, what a key's
/// error does, and whether anything is written.
#[derive(Debug, Clone)]
pub struct Reaping {
    pub action: Action,
    pub fail_code: i64,
    pub fail_body: String,
    pub on_error: OnError,
    pub dry_run: bool,
    pub verify: Option<VerifySql>,
}

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

impl Resolution {
    pub fn as_str(self) -> &'static str {
        match self {
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
}

/// The statement a batch of keys is changed by, for the dry run: the first key's.
pub fn describe(keys: &KeyTable, args: &Reaping, first: &StuckKey, dialect: Dialect) -> Result<String> {
    let mut params = Placeholders::new(dialect);
    let set = assignments(keys, args, &mut params)?;
    let cond = any_key(keys, &[first], true, &mut params)?;
    let sql = crate::db::fill(
        include_str!("../../queries/reap_change.sql"),
        &[("table", &keys.table.sql_name(&dialect)), ("set", &set), ("keys", &cond)],
    );
    Ok(sql.lines().filter(|l| !l.trim_start().starts_with("--")).collect::<Vec<_>>().join(" "))
}

/// The condition true for exactly this key; with `as_read`, only while its
/// lock time is the one that was read (compare-and-set).
fn key_term(keys: &KeyTable, key: &StuckKey, as_read: bool, params: &mut Placeholders) -> Result<String> {
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
    let key_column = keys.key()?;
    conds.push(format!(
        "{} = {}",
        dialect.ident(key_column),
        params.push(Bind::Text(key.key.clone()), &column_type(key_column)?)
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
pub fn any_key(keys: &KeyTable, batch: &[&StuckKey], as_read: bool, params: &mut Placeholders) -> Result<String> {
    let terms = batch.iter().map(|key| key_term(keys, key, as_read, params)).collect::<Result<Vec<_>>>()?;
    let (in_progress, binds) = keys.in_progress_sql(&params.dialect, params.binds.len() + 1)?;
    params.binds.extend(binds);
    Ok(format!("({}) AND {in_progress}", terms.join(" OR ")))
}

/// A key as the database names it: scope, operation and key, as text.
type Identity = Vec<Option<String>>;

fn identity(key: &StuckKey) -> Identity {
    key.scope.iter().cloned().chain([key.operation.clone(), Some(key.key.clone())]).collect()
}

/// The select list that reads keys' identities back, in `identity` order.
fn identity_select(keys: &KeyTable, dialect: Dialect) -> Result<String> {
    let text = |c: &str| dialect.text(&dialect.ident(c));
    Ok(keys
        .scope
        .iter()
        .map(|c| text(c))
        .chain([keys.operation.as_deref().map_or("NULL".to_string(), text), text(keys.key()?)])
        .collect::<Vec<_>>()
        .join(", "))
}

/// The `SET` list of the action.
pub fn assignments(keys: &KeyTable, args: &Reaping, params: &mut Placeholders) -> Result<String> {
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

/// One batch, one transaction: the keys still as they were read are locked
/// in one statement (skipping keys a live transaction holds), each is
/// verified, and those to change are changed in one statement. A change or a
/// verification that fails on a key is undone for that key alone (the batch
/// is halved around it), and the rest go on.
pub async fn resolve_batch(
    db: &mut Db,
    keys: &KeyTable,
    args: &Reaping,
    batch: &[StuckKey],
) -> Result<Vec<(Resolution, Option<String>)>> {
    let writing = !args.dry_run;
    if writing {
        db.begin_write().await?;
    }
    let result = resolve_locked(db, keys, args, batch).await;
    if writing {
        match &result {
            Ok(_) => db.commit().await?,
            Err(_) => db.rollback().await,
        }
    }
    result
}

async fn resolve_locked(
    db: &mut Db,
    keys: &KeyTable,
    args: &Reaping,
    batch: &[StuckKey],
) -> Result<Vec<(Resolution, Option<String>)>> {
    let verify = args.verify.as_ref();
    let dialect = db.dialect();
    let table = keys.table.sql_name(&dialect);
    let writing = !args.dry_run;
    let all: Vec<&StuckKey> = batch.iter().collect();
    let skip_locked = if writing { dialect.skip_locked() } else { None };
    // The keys still in progress with the lock time read, locked for this transaction.
    let read_back = |lock: Option<&str>, params: &mut Placeholders, which: &[&StuckKey]| -> Result<String> {
        let cond = any_key(keys, which, true, params)?;
        Ok(crate::db::fill(
            include_str!("../../queries/reap_read_back.sql"),
            &[
                ("select", &identity_select(keys, dialect)?),
                ("table", &table),
                ("keys", &cond),
                ("lock", lock.unwrap_or("")),
            ],
        ))
    };
    let mut params = Placeholders::new(dialect);
    let sql = read_back(skip_locked, &mut params, &all)?;
    let held: std::collections::HashSet<Identity> = db.query_text(&sql, &params.binds).await?.into_iter().collect();
    let mut outcomes: Vec<Option<(Resolution, Option<String>)>> = vec![None; batch.len()];
    let missing: Vec<&StuckKey> = all.iter().copied().filter(|k| !held.contains(&identity(k))).collect();
    if !missing.is_empty() {
        // Not locked: finished or locked anew since read, or held by a live transaction.
        let present: std::collections::HashSet<Identity> = if skip_locked.is_some() {
            let mut params = Placeholders::new(dialect);
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
            if writing {
                db.savepoint().await?;
            }
            let verified = db.query_text(&sql, &binds).await;
            if writing {
                db.end_savepoint(verified.is_ok()).await?;
            }
            match verified {
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
        let mut params = Placeholders::new(dialect);
        let set = assignments(keys, args, &mut params)?;
        let cond = any_key(keys, &which, true, &mut params)?;
        let sql = crate::db::fill(
            include_str!("../../queries/reap_change.sql"),
            &[("table", &table), ("set", &set), ("keys", &cond)],
        );
        db.savepoint().await?;
        let changed = db.execute(&sql, &params.binds).await;
        db.end_savepoint(changed.is_ok()).await?;
        match changed {
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
