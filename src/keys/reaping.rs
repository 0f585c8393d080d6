//! Resolving stuck keys: release them for the next retry, or fail them for
//! good. A key whose effect already happened (`--verify-sql`) is never
//! released: it is left for review. Every change is compare-and-set on what
//! was read, one batch a transaction of a few statements.

use anyhow::{Result, bail};
use clap::ValueEnum;
use serde::Serialize;

use super::KeyTable;
use super::stuck::{State, StuckKey};
use crate::batch_run::Halves;
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
    /// Delete the key row: the next request with the key starts afresh
    Delete,
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
    Deleted,
    /// Nothing to write: an abandoned key of a design without a status waits
    /// for the design's own retry.
    Unchanged,
    /// Locked for its change, which reached no row: a trigger, a rule or a
    /// row-level security policy kept the change from the table.
    NoEffect,
    WouldRelease,
    WouldFail,
    WouldDelete,
}

impl Resolution {
    /// What a run with this action can report, so that a summary has the
    /// same keys whatever happened.
    pub fn possible(action: Action, dry_run: bool) -> Vec<Resolution> {
        let done = match (action, dry_run) {
            (Action::Release, false) => Resolution::Released,
            (Action::Fail, false) => Resolution::Failed,
            (Action::Delete, false) => Resolution::Deleted,
            (Action::Release, true) => Resolution::WouldRelease,
            (Action::Fail, true) => Resolution::WouldFail,
            (Action::Delete, true) => Resolution::WouldDelete,
        };
        let mut all =
            vec![done, Resolution::NeedsReview, Resolution::SkippedChanged, Resolution::Unchanged, Resolution::Error];
        if !dry_run {
            all.push(Resolution::SkippedLocked);
            all.push(Resolution::NoEffect);
        }
        all
    }

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
            Resolution::Deleted => "deleted",
            Resolution::Unchanged => "unchanged",
            Resolution::NoEffect => "no-effect",
            Resolution::WouldDelete => "would-delete",
        }
    }
}

/// The statement a batch of keys is changed by, for the dry run: the first key's.
pub fn describe(keys: &KeyTable, args: &Reaping, first: &StuckKey, dialect: Dialect) -> Result<String> {
    let mut params = Placeholders::new(dialect);
    let sql = change_statement(keys, args, &[first], &mut params)?.unwrap_or_else(|| "nothing".to_string());
    Ok(sql.lines().filter(|l| !l.trim_start().starts_with("--")).collect::<Vec<_>>().join(" "))
}

/// The statement that resolves these keys as they were read, or `None` when
/// the action writes nothing on this design.
fn change_statement(
    keys: &KeyTable,
    args: &Reaping,
    which: &[&StuckKey],
    params: &mut Placeholders,
) -> Result<Option<String>> {
    let table = keys.table.sql_name(&params.dialect);
    if args.action == Action::Delete {
        let cond = keys.any_key(which, true, params)?;
        return Ok(Some(crate::db::fill(
            crate::db::dialect::query_file!(shared, "reap_delete.sql"),
            &[("table", &table), ("keys", &cond)],
        )));
    }
    let Some(set) = assignments(keys, args, params)? else { return Ok(None) };
    let cond = keys.any_key(which, true, params)?;
    Ok(Some(crate::db::fill(
        crate::db::dialect::query_file!(shared, "reap_change.sql"),
        &[("table", &table), ("set", &set), ("keys", &cond)],
    )))
}

/// Status values of the reference schema: a table that holds only these,
/// mapped by default, follows it.
const REFERENCE_STATUSES: [&str; 4] = ["in_progress", "succeeded", "failed_retryable", "failed_permanent"];

/// Refuses to write a status value the table cannot hold or has never held:
/// the value must be allowed by the column's enum type or CHECK constraint,
/// be in use in the table, have been named by flag or config file, or the
/// table follow the reference schema's statuses.
pub async fn check_status_value(db: &mut Db, keys: &KeyTable, args: &Reaping) -> Result<()> {
    let Some(s) = &keys.statuses else { return Ok(()) };
    let (value, given, flag) = match args.action {
        Action::Release => (&s.retryable, keys.values_given.retryable, "--retryable-value"),
        Action::Fail => (&s.permanent, keys.values_given.permanent, "--permanent-value"),
        Action::Delete => return Ok(()),
    };
    let allowed = crate::db::catalog::allowed_values(db, &keys.table, &s.column).await?;
    if let Some(allowed) = &allowed {
        if allowed.contains(value) {
            return Ok(());
        }
        bail!(
            "{} cannot hold {value:?} (it allows {}): map the value this design uses with {flag}, or resolve the keys \
             with --action delete",
            s.column,
            allowed.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", ")
        );
    }
    if given {
        return Ok(());
    }
    let in_use = crate::db::catalog::values_in_use(db, &keys.table, &s.column, 100_000).await?;
    let reference = !keys.values_given.any && in_use.iter().all(|v| REFERENCE_STATUSES.contains(&v.as_str()));
    if reference || in_use.contains(value) {
        return Ok(());
    }
    bail!(
        "{} has never held {value:?} (its values: {}): map the value this design uses with {flag}, or resolve the keys \
         with --action delete",
        s.column,
        in_use.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", ")
    )
}

/// The `SET` list of the action.
pub fn assignments(keys: &KeyTable, args: &Reaping, params: &mut Placeholders) -> Result<Option<String>> {
    let dialect = params.dialect;
    let typed = |name: &str| keys.table.column(name).map(|c| c.data_type.clone()).unwrap_or_default();
    let has = |name: &str| keys.table.columns.iter().any(|c| c.name == name);
    match (args.action, &keys.statuses) {
        (Action::Release, Some(s)) => Ok(Some(format!(
            "{} = {}",
            dialect.ident(&s.column),
            params.push(Bind::Text(s.retryable.clone()), &typed(&s.column))
        ))),
        // Without a status column, releasing is unlocking: the lease is
        // cleared, and the key is nobody's. A design with no lock to clear
        // leaves its abandoned keys to its own retry.
        (Action::Release, None) => Ok(keys
            .locked_at
            .iter()
            .chain(&keys.lease_until)
            .map(|c| format!("{} = NULL", dialect.ident(c)))
            .reduce(|a, b| format!("{a}, {b}"))),
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
            Ok(Some(set.join(", ")))
        }
        (Action::Fail, None) => {
            bail!("--action fail needs a status column to store the failure: map it with --status-column")
        }
        (Action::Delete, _) => Ok(None),
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
            Ok(_) => {
                if let Err(err) = db.commit().await {
                    db.rollback().await;
                    return Err(err);
                }
            }
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
    let mut outcomes = lock_batch(db, keys, args, batch).await?;
    let to_change = judge(db, keys, args, batch, &mut outcomes).await?;
    change_by_halves(db, keys, args, batch, to_change, &mut outcomes).await?;
    Ok(outcomes.into_iter().map(|o| o.unwrap_or((Resolution::SkippedChanged, None))).collect())
}

/// Each key's outcome, once known.
type Outcomes = Vec<Option<(Resolution, Option<String>)>>;

/// Locks the batch's keys still in progress for this transaction (passing
/// over those a live transaction holds, where the engine can): the keys it
/// could not lock get their outcome, skipped as held or as changed.
async fn lock_batch(db: &mut Db, keys: &KeyTable, args: &Reaping, batch: &[StuckKey]) -> Result<Outcomes> {
    let dialect = db.dialect();
    let table = keys.table.sql_name(&dialect);
    let all: Vec<&StuckKey> = batch.iter().collect();
    let skip_locked = if args.dry_run { None } else { dialect.skip_locked() };
    // The keys still in progress with the lock time read, locked for this transaction.
    let read_back = |lock: Option<&str>, params: &mut Placeholders, which: &[&StuckKey]| -> Result<String> {
        let cond = keys.any_key(which, true, params)?;
        Ok(crate::db::fill(
            crate::db::dialect::query_file!(shared, "reap_read_back.sql"),
            &[
                ("select", &keys.identity_select(dialect)?),
                ("table", &table),
                ("keys", &cond),
                ("lock", lock.unwrap_or("")),
            ],
        ))
    };
    let mut params = Placeholders::new(dialect);
    let sql = read_back(skip_locked, &mut params, &all)?;
    let held: std::collections::HashSet<super::Identity> =
        db.query_text(&sql, &params.binds).await?.into_iter().collect();
    let mut outcomes: Outcomes = vec![None; batch.len()];
    let missing: Vec<&StuckKey> = all.iter().copied().filter(|k| !held.contains(&KeyTable::identity(k))).collect();
    if missing.is_empty() {
        return Ok(outcomes);
    }
    // Not locked: finished or locked anew since read, or held by a live transaction.
    let present: std::collections::HashSet<super::Identity> = if skip_locked.is_some() {
        let mut params = Placeholders::new(dialect);
        let sql = read_back(None, &mut params, &missing)?;
        db.query_text(&sql, &params.binds).await?.into_iter().collect()
    } else {
        Default::default()
    };
    for (i, key) in batch.iter().enumerate() {
        if !held.contains(&KeyTable::identity(key)) {
            let outcome = if present.contains(&KeyTable::identity(key)) {
                Resolution::SkippedLocked
            } else {
                Resolution::SkippedChanged
            };
            outcomes[i] = Some((outcome, None));
        }
    }
    Ok(outcomes)
}

/// What becomes of each locked key: held for review where `--verify-sql`
/// finds its effect, left as it is where there is nothing to clear, said
/// as what would happen on a dry run; the rest (their places in the batch)
/// are to change.
async fn judge(
    db: &mut Db,
    keys: &KeyTable,
    args: &Reaping,
    batch: &[StuckKey],
    outcomes: &mut Outcomes,
) -> Result<Vec<usize>> {
    let dialect = db.dialect();
    let writing = !args.dry_run;
    let mut to_change = Vec::new();
    for (i, key) in batch.iter().enumerate() {
        if outcomes[i].is_some() {
            continue;
        }
        if let Some(verify) = args.verify.as_ref() {
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
        // Without a status column, an abandoned key holds no lock to clear:
        // it waits for the design's own retry.
        let nothing = args.action == Action::Release
            && keys.statuses.is_none()
            && (key.state == State::Abandoned || assignments(keys, args, &mut Placeholders::new(dialect))?.is_none());
        if nothing {
            outcomes[i] = Some((Resolution::Unchanged, None));
        } else if writing {
            to_change.push(i);
        } else {
            let would = match args.action {
                Action::Release => Resolution::WouldRelease,
                Action::Fail => Resolution::WouldFail,
                Action::Delete => Resolution::WouldDelete,
            };
            outcomes[i] = Some((would, None));
        }
    }
    Ok(to_change)
}

/// Changes the keys at `to_change`, one statement for all, done again by
/// halves around a key whose change fails or reaches other than its row.
async fn change_by_halves(
    db: &mut Db,
    keys: &KeyTable,
    args: &Reaping,
    batch: &[StuckKey],
    to_change: Vec<usize>,
    outcomes: &mut Outcomes,
) -> Result<()> {
    let dialect = db.dialect();
    let done = match args.action {
        Action::Release => Resolution::Released,
        Action::Fail => Resolution::Failed,
        Action::Delete => Resolution::Deleted,
    };
    let mut halves = Halves::new(to_change);
    while let Some(part) = halves.next_part() {
        let which: Vec<&StuckKey> = part.iter().map(|&i| &batch[i]).collect();
        let mut params = Placeholders::new(dialect);
        let Some(sql) = change_statement(keys, args, &which, &mut params)? else { continue };
        db.savepoint().await?;
        let changed = db.execute(&sql, &params.binds).await;
        // A change that reached other than one row per key is undone, and halved.
        let partial = matches!(changed, Ok(n) if n != part.len() as u64);
        db.end_savepoint(changed.is_ok() && !partial).await?;
        match changed {
            // The rows are locked (or the database is, on SQLite): all of them change.
            Ok(n) if n == part.len() as u64 => {
                for &i in &part {
                    outcomes[i] = Some((done, None));
                }
            }
            // The keys are locked: a change that reaches fewer rows than it
            // holds was kept from some. Halved down to the keys it missed.
            Ok(0) if part.len() == 1 => {
                let why = "its change reached no row though the key was locked for it (a trigger, a rule or a \
                           row-level security policy kept it from the table)";
                outcomes[part[0]] = Some((Resolution::NoEffect, Some(why.to_string())));
            }
            // One key's change reached several rows (the mapping does not
            // name one row per key): undone, and said.
            Ok(n) if part.len() == 1 => {
                let why = format!("its change reached {n} rows, not one: undone (does the key mapping name one row?)");
                outcomes[part[0]] = Some((Resolution::Error, Some(why)));
            }
            Ok(_) => halves.halve(part)?,
            Err(e) if args.on_error == OnError::Skip && errors::is_row_error(&e) && part.len() == 1 => {
                outcomes[part[0]] = Some((Resolution::Error, Some(errors::message(&e))));
            }
            Err(e) if args.on_error == OnError::Skip && errors::is_row_error(&e) => halves.halve(part)?,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
