//! Resolving stuck keys: release them for the next retry, or fail them for
//! good. A key whose effect already happened (`--verify-sql`) is never
//! released: it is left for review. Every change is compare-and-set on what
//! was read, one batch a transaction of a few statements.

use anyhow::{Result, bail};
use clap::ValueEnum;
use serde::Serialize;

use super::KeyTable;
use super::stuck::{State, StuckKey};
pub use super::values::{Assignment, SetValue, parse_assignment};
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
    /// Nothing is kept: a dry run.
    pub dry_run: bool,
    /// A dry run that applies each batch and rolls it back (`--dry-run=rollback`).
    pub rollback: bool,
    pub verify: Option<VerifySql>,
    /// What every change writes beside the status (`--set`), what a release
    /// writes (`--release-set`) and what a failure writes (`--fail-set`).
    pub set: Vec<Assignment>,
    pub release_set: Vec<Assignment>,
    pub fail_set: Vec<Assignment>,
    /// A key whose attempts are used up is failed, not released.
    pub attempts: Option<Attempts>,
}

impl Reaping {
    /// Whether batches run their statements (and roll them back on a dry run).
    pub fn applies(&self) -> bool {
        !self.dry_run || self.rollback
    }
}

/// The attempts rule: a key whose `column` has reached its maximum is
/// failed, not released, as a job runner's own rescuer decides.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempts {
    pub column: String,
    pub max: MaxAttempts,
}

#[derive(Debug, Clone, PartialEq)]
pub enum MaxAttempts {
    Fixed(i64),
    Column(String),
}

/// Reads `--max-attempts`: a number, or the column that holds each key's.
pub fn parse_max_attempts(text: &str) -> Result<MaxAttempts, String> {
    match text.trim().parse::<i64>() {
        Ok(n) if n >= 1 => Ok(MaxAttempts::Fixed(n)),
        Ok(_) => Err("--max-attempts must be 1 or more".to_string()),
        Err(_) if !text.trim().is_empty() => Ok(MaxAttempts::Column(text.trim().to_string())),
        Err(_) => Err("--max-attempts is a number or a column".to_string()),
    }
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

impl Action {
    /// What the action did to a key, in words (`released`).
    pub fn past(self) -> &'static str {
        match self {
            Action::Release => "released",
            Action::Fail => "failed",
            Action::Delete => "deleted",
        }
    }
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
    /// What a change made (or, on a dry run, would make) of a key.
    pub fn of(change: Action, dry_run: bool) -> Resolution {
        match (change, dry_run) {
            (Action::Release, false) => Resolution::Released,
            (Action::Fail, false) => Resolution::Failed,
            (Action::Delete, false) => Resolution::Deleted,
            (Action::Release, true) => Resolution::WouldRelease,
            (Action::Fail, true) => Resolution::WouldFail,
            (Action::Delete, true) => Resolution::WouldDelete,
        }
    }

    /// The change it stands for: release, fail or delete.
    pub fn change(self) -> Option<Action> {
        match self {
            Resolution::Released | Resolution::WouldRelease => Some(Action::Release),
            Resolution::Failed | Resolution::WouldFail => Some(Action::Fail),
            Resolution::Deleted | Resolution::WouldDelete => Some(Action::Delete),
            _ => None,
        }
    }

    /// What a run with this action can report, so that a summary has the
    /// same keys whatever happened.
    /// With the attempts rule, a release run fails some keys too.
    pub fn possible(action: Action, dry_run: bool, fails_too: bool) -> Vec<Resolution> {
        let mut all = vec![Resolution::of(action, dry_run)];
        if fails_too && action == Action::Release {
            all.push(Resolution::of(Action::Fail, dry_run));
        }
        all.extend([Resolution::NeedsReview, Resolution::SkippedChanged, Resolution::Unchanged, Resolution::Error]);
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
    let sql =
        change_statement(keys, args, args.action, &[first], &mut params)?.unwrap_or_else(|| "nothing".to_string());
    Ok(sql.lines().filter(|l| !l.trim_start().starts_with("--")).collect::<Vec<_>>().join(" "))
}

/// What a change writes, in words: each column and its new value, as
/// `--set` takes values (`status → 'failed_retryable', locked_at → NULL`);
/// `None` where it deletes, or writes nothing on this design.
pub fn describe_in_words(keys: &KeyTable, args: &Reaping, change: Action) -> Option<String> {
    if change == Action::Delete {
        return None;
    }
    let statuses = status_values(keys, args, change).ok()?;
    let said: Vec<String> = statuses
        .iter()
        .map(|(c, v)| format!("{c} → {v}"))
        .chain(set_by(args, change).into_iter().map(|a| format!("{} → {}", a.column, a.value)))
        .collect();
    (!said.is_empty()).then(|| said.join(", "))
}

/// The statement that resolves these keys as they were read, or `None` when
/// the action writes nothing on this design.
fn change_statement(
    keys: &KeyTable,
    args: &Reaping,
    change: Action,
    which: &[&StuckKey],
    params: &mut Placeholders,
) -> Result<Option<String>> {
    let table = keys.table.sql_name(&params.dialect);
    if change == Action::Delete {
        let cond = keys.any_key(which, true, params)?;
        return Ok(Some(crate::db::fill(
            crate::db::dialect::query_file!(shared, "reap_delete.sql"),
            &[("table", &table), ("keys", &cond)],
        )));
    }
    let Some(set) = change_set(keys, args, change, params)? else { return Ok(None) };
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
    check_status_of(db, keys, args.action).await?;
    if args.attempts.is_some() && args.action == Action::Release {
        check_status_of(db, keys, Action::Fail).await?;
    }
    Ok(())
}

async fn check_status_of(db: &mut Db, keys: &KeyTable, change: Action) -> Result<()> {
    let Some(s) = &keys.statuses else { return Ok(()) };
    let (value, given, flag) = match change {
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

/// The changes a run can make: its action, and failures where the attempts
/// rule fails a key a release would free.
fn changes(args: &Reaping) -> Vec<Action> {
    match (args.action, &args.attempts) {
        (Action::Release, Some(_)) => vec![Action::Release, Action::Fail],
        (action, _) => vec![action],
    }
}

/// Refuses, before anything happens, a change the table cannot take: a
/// column that is not there, NULL into a NOT NULL column, a column set
/// twice, the key's own columns, the attempts rule on columns that are not
/// there.
pub fn check_assignments(keys: &KeyTable, args: &Reaping, dialect: Dialect) -> Result<()> {
    let identity: Vec<&String> = keys.scope.iter().chain(&keys.operation).collect();
    for change in changes(args) {
        let named = format!("{change:?}").to_lowercase();
        let mut seen = std::collections::BTreeSet::new();
        for (name, value) in change_values(keys, args, change, &mut Placeholders::new(dialect))? {
            let null = value == "NULL";
            let column = keys.table.column(&name)?;
            if !seen.insert(column.name.clone()) {
                bail!(
                    "a {named} would write {} twice: say it once (the status is set by its mapped value)",
                    column.name
                );
            }
            if identity.contains(&&column.name) || keys.key().is_ok_and(|k| k == column.name) {
                bail!("--set cannot change {}: it names the key", column.name);
            }
            if null && column.not_null {
                bail!(
                    "a {named} would set {} to NULL, which the table declares NOT NULL: every key's change would fail; \
                     say what this design writes there with --{}set {}=VALUE, or resolve the keys with --action delete",
                    column.name,
                    if change == Action::Release { "release-" } else { "fail-" },
                    column.name
                );
            }
        }
        // A value that reads another column the change writes: PostgreSQL
        // and SQLite read the old value, MariaDB the one just written.
        for a in set_by(args, change) {
            for read in a.value.reads() {
                let read = &keys.table.column(read)?.name;
                if *read != a.column && seen.contains(read) {
                    bail!(
                        "--set {}: its value reads {read}, which the same change writes (engines differ on whether \
                         it reads the old value or the new): read another column, or change one of them in another run",
                        a.column
                    );
                }
            }
        }
    }
    if let Some(a) = &args.attempts {
        keys.table.column(&a.column)?;
        if let MaxAttempts::Column(c) = &a.max {
            keys.table.column(c)?;
        }
    }
    Ok(())
}

/// Refuses a text value a column's enum type or CHECK list does not allow
/// (`--set state='gone'` where the column allows `'done'` and `'dead'`).
pub async fn check_set_values(db: &mut Db, keys: &KeyTable, args: &Reaping) -> Result<()> {
    for a in args.set.iter().chain(&args.release_set).chain(&args.fail_set) {
        let column = keys.table.column(&a.column)?;
        if let SetValue::Text(value) = &a.value
            && let Some(allowed) = crate::db::catalog::allowed_values(db, &keys.table, &column.name).await?
            && !allowed.contains(value)
        {
            bail!(
                "--set {}='{value}': {} cannot hold it (it allows {})",
                column.name,
                column.name,
                allowed.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", ")
            );
        }
        // What the write would bind, asked of the server as the write would.
        let (value, shown) = match &a.value {
            SetValue::Text(t) => (t.clone(), format!("'{t}'")),
            SetValue::Int(n) => (n.to_string(), n.to_string()),
            SetValue::Number(n) => (n.clone(), n.clone()),
            _ => continue,
        };
        if let Some(why) = crate::db::accepts::refusal(db, &keys.table, column, &value).await? {
            bail!("--set {}={shown}: the server would refuse it: {why}", column.name);
        }
    }
    Ok(())
}

/// The `SET` list of the action.
pub fn assignments(keys: &KeyTable, args: &Reaping, params: &mut Placeholders) -> Result<Option<String>> {
    change_set(keys, args, args.action, params)
}

/// The `SET` list of one change (a release, or a failure): the status and
/// what the design stores with it, then `--set` and the change's own
/// `--release-set` or `--fail-set`.
fn change_set(keys: &KeyTable, args: &Reaping, change: Action, params: &mut Placeholders) -> Result<Option<String>> {
    let dialect = params.dialect;
    let list = change_values(keys, args, change, params)?;
    let set: Vec<String> = list.iter().map(|(c, v)| format!("{} = {v}", dialect.ident(c))).collect();
    Ok((!set.is_empty()).then(|| set.join(", ")))
}

/// The status a change writes, and what the design stores with a failure:
/// each column and its value (text, a number or NULL).
fn status_values(keys: &KeyTable, args: &Reaping, change: Action) -> Result<Vec<(String, SetValue)>> {
    let has = |name: &str| keys.table.columns.iter().any(|c| c.name == name);
    match (change, &keys.statuses) {
        (Action::Release, Some(s)) => Ok(vec![(s.column.clone(), SetValue::Text(s.retryable.clone()))]),
        // Without a status column, releasing is unlocking: the lease is
        // cleared, and the key is nobody's. A design with no lock to clear
        // leaves its abandoned keys to its own retry.
        (Action::Release, None) => {
            Ok(keys.locked_at.iter().chain(&keys.lease_until).map(|c| (c.clone(), SetValue::Null)).collect())
        }
        (Action::Fail, Some(s)) => {
            let mut set = vec![(s.column.clone(), SetValue::Text(s.permanent.clone()))];
            if has("response_code") {
                set.push(("response_code".into(), SetValue::Int(args.fail_code)));
            }
            if has("response_body") {
                set.push(("response_body".into(), SetValue::Text(args.fail_body.clone())));
            }
            Ok(set)
        }
        // A design whose failure is a time set (`--finished-if-set`) fails a
        // key by writing it, as its --fail-set says.
        (Action::Fail, None)
            if args.fail_set.iter().chain(&args.set).any(|a| keys.finished_if_set.contains(&a.column)) =>
        {
            Ok(Vec::new())
        }
        (Action::Fail, None) => bail!(
            "--action fail needs a status column to store the failure: map it with --status-column, or name the \
             column a failure sets with --finished-if-set and write it with --fail-set (failed_at=now())"
        ),
        (Action::Delete, _) => Ok(Vec::new()),
    }
}

/// `status_values` as SQL: text and numbers bound to the column's type, NULL as such.
fn status_set(
    keys: &KeyTable,
    args: &Reaping,
    change: Action,
    params: &mut Placeholders,
) -> Result<Vec<(String, String)>> {
    let typed = |name: &str| keys.table.column(name).map(|c| c.data_type.clone()).unwrap_or_default();
    status_values(keys, args, change)?
        .into_iter()
        .map(|(column, value)| {
            let sql = match value {
                SetValue::Text(t) => params.push(Bind::Text(t), &typed(&column)),
                SetValue::Int(n) => params.push(Bind::Int(n), &typed(&column)),
                SetValue::Null => "NULL".to_string(),
                other => bail!("a status change writes no {other}"),
            };
            Ok((column, sql))
        })
        .collect()
}

/// Each column one change writes, and the value it writes there, as SQL.
fn change_values(
    keys: &KeyTable,
    args: &Reaping,
    change: Action,
    params: &mut Placeholders,
) -> Result<Vec<(String, String)>> {
    if change == Action::Delete {
        return Ok(Vec::new());
    }
    let mut list = status_set(keys, args, change, params)?;
    for a in set_by(args, change) {
        list.push((a.column.clone(), super::values::sql(keys, a, params)?));
    }
    Ok(list)
}

/// What one change writes beside the status: `--set`, then the change's own
/// `--release-set` or `--fail-set`.
fn set_by(args: &Reaping, change: Action) -> Vec<&Assignment> {
    let own: &[Assignment] = match change {
        Action::Release => &args.release_set,
        Action::Fail => &args.fail_set,
        Action::Delete => &[],
    };
    args.set.iter().chain(own).collect()
}

/// Sets aside the keys of `part` whose row cannot take an `append()` the
/// change writes (a JSON column holding other than NULL or an array): an
/// error for each, said alike by a dry run and by the real run, which
/// changes the rest.
async fn set_aside_unappendable(
    db: &mut Db,
    keys: &KeyTable,
    args: &Reaping,
    (batch, change): (&[StuckKey], Action),
    part: Vec<usize>,
    outcomes: &mut Outcomes,
) -> Result<Vec<usize>> {
    let dialect = db.dialect();
    let conditions = super::values::append_conditions(keys, set_by(args, change).into_iter(), dialect)?;
    if conditions.is_empty() || part.is_empty() {
        return Ok(part);
    }
    let which: Vec<&StuckKey> = part.iter().map(|&i| &batch[i]).collect();
    let mut params = Placeholders::new(dialect);
    let cond = keys.any_key(&which, true, &mut params)?;
    let flags: Vec<String> = conditions.iter().map(|(_, c)| format!("CASE WHEN {c} THEN 0 ELSE 1 END")).collect();
    let sql = format!(
        "SELECT {}, {} FROM {} WHERE {cond}",
        keys.identity_select(dialect)?,
        flags.join(", "),
        keys.table.sql_name(&dialect)
    );
    let unfit = flagged(db, keys, &sql, &params.binds).await?;
    Ok(part
        .into_iter()
        .filter(|&i| match unfit.get(&KeyTable::identity(&batch[i])) {
            Some(&at) => {
                let why =
                    format!("its {} holds neither NULL nor a JSON array: append() cannot add to it", conditions[at].0);
                outcomes[i] = Some((Resolution::Error, Some(why)));
                false
            }
            None => true,
        })
        .collect())
}

/// A plain dry run's judgment of the table's CHECK constraints: for each
/// key of `which` whose row, with `change` applied, a CHECK on a column the
/// change writes would refuse, the constraint. Read-only: the row as it
/// would become is a SELECT over the row as it is.
async fn refused_by_checks(
    db: &mut Db,
    keys: &KeyTable,
    args: &Reaping,
    change: Action,
    which: &[&StuckKey],
) -> Result<std::collections::HashMap<super::Identity, String>> {
    let dialect = db.dialect();
    let mut params = Placeholders::new(dialect);
    let values = change_values(keys, args, change, &mut params)?;
    let mut checks = Vec::new();
    for (column, _) in &values {
        for check in crate::db::catalog::checks_on(db, &keys.table, column).await {
            if !checks.contains(&check) {
                checks.push(check);
            }
        }
    }
    if checks.is_empty() || which.is_empty() {
        return Ok(Default::default());
    }
    let projected: Vec<String> = keys
        .table
        .columns
        .iter()
        .map(|c| match values.iter().find(|(name, _)| *name == c.name) {
            Some((_, value)) => format!("{value} AS {}", dialect.ident(&c.name)),
            None => dialect.ident(&c.name),
        })
        .collect();
    let cond = keys.any_key(which, true, &mut params)?;
    let flags: Vec<String> = checks.iter().map(|c| format!("CASE WHEN NOT ({c}) THEN 1 ELSE 0 END")).collect();
    let sql = format!(
        "SELECT {}, {} FROM (SELECT {} FROM {} WHERE {cond}) idemctl_after",
        keys.identity_select(dialect)?,
        flags.join(", "),
        projected.join(", "),
        keys.table.sql_name(&dialect)
    );
    let refused = flagged(db, keys, &sql, &params.binds).await?;
    Ok(refused.into_iter().map(|(identity, at)| (identity, checks[at].clone())).collect())
}

/// Runs a query of each key's identity and its flags (`1` for raised), and
/// gives, for each key with a flag raised, the place of its first.
async fn flagged(
    db: &mut Db,
    keys: &KeyTable,
    sql: &str,
    binds: &[Bind],
) -> Result<std::collections::HashMap<super::Identity, usize>> {
    let width = keys.scope.len() + keys.operation.len() + 1;
    let mut raised = std::collections::HashMap::new();
    for row in db.query_text(sql, binds).await? {
        let (identity, flags) = row.split_at(width.min(row.len()));
        if let Some(at) = flags.iter().position(|f| f.as_deref() == Some("1")) {
            raised.insert(identity.to_vec(), at);
        }
    }
    Ok(raised)
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
    let writing = args.applies();
    if writing {
        db.begin_write().await?;
    }
    let result = resolve_locked(db, keys, args, batch).await;
    if writing {
        match &result {
            // A rollback dry run: every change was applied, and is undone.
            Ok(_) if args.dry_run => db.rollback().await,
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
    let (mut outcomes, used_up) = lock_batch(db, keys, args, batch).await?;
    let to_change = judge(db, keys, args, batch, &used_up, &mut outcomes).await?;
    for change in [Action::Release, Action::Fail, Action::Delete] {
        let part: Vec<usize> = to_change.iter().filter(|(_, c)| *c == change).map(|(i, _)| *i).collect();
        // A change no key of the batch gets is not asked for: a plain dry
        // run would judge its statement (`--action fail` on a design with no
        // status column) where the real run writes none.
        if part.is_empty() {
            continue;
        }
        let part = set_aside_unappendable(db, keys, args, (batch, change), part, &mut outcomes).await?;
        if args.applies() {
            change_by_halves(db, keys, args, batch, (part, change), &mut outcomes).await?;
            continue;
        }
        // A plain dry run: what the change would make of each key, its
        // CHECK constraints judged on the row as it would become.
        let which: Vec<&StuckKey> = part.iter().map(|&i| &batch[i]).collect();
        let refused = refused_by_checks(db, keys, args, change, &which).await?;
        for i in part {
            outcomes[i] = Some(match refused.get(&KeyTable::identity(&batch[i])) {
                Some(check) => (Resolution::Error, Some(format!("its change would violate CHECK {check}"))),
                None => (Resolution::of(change, true), None),
            });
        }
    }
    Ok(outcomes.into_iter().map(|o| o.unwrap_or((Resolution::SkippedChanged, None))).collect())
}

/// Each key's outcome, once known.
type Outcomes = Vec<Option<(Resolution, Option<String>)>>;

/// The condition true for a key whose attempts are used up.
fn used_up_sql(attempts: &Attempts, dialect: &Dialect) -> String {
    let max = match &attempts.max {
        MaxAttempts::Fixed(n) => n.to_string(),
        MaxAttempts::Column(c) => dialect.ident(c),
    };
    format!("{} >= {max}", dialect.ident(&attempts.column))
}

/// Locks the batch's keys still in progress for this transaction (passing
/// over those a live transaction holds, where the engine can): the keys it
/// could not lock get their outcome, skipped as held or as changed. And the
/// keys locked whose attempts are used up (the attempts rule).
async fn lock_batch(
    db: &mut Db,
    keys: &KeyTable,
    args: &Reaping,
    batch: &[StuckKey],
) -> Result<(Outcomes, std::collections::HashSet<super::Identity>)> {
    let dialect = db.dialect();
    let table = keys.table.sql_name(&dialect);
    let all: Vec<&StuckKey> = batch.iter().collect();
    let skip_locked = if args.applies() { dialect.skip_locked() } else { None };
    let used_up =
        args.attempts.as_ref().map(|a| format!(", CASE WHEN {} THEN '1' ELSE '0' END", used_up_sql(a, &dialect)));
    // The keys still in progress with the lock time read, locked for this transaction.
    let read_back = |lock: Option<&str>, params: &mut Placeholders, which: &[&StuckKey]| -> Result<String> {
        let cond = keys.any_key(which, true, params)?;
        Ok(crate::db::fill(
            crate::db::dialect::query_file!(shared, "reap_read_back.sql"),
            &[
                ("select", &format!("{}{}", keys.identity_select(dialect)?, used_up.as_deref().unwrap_or(""))),
                ("table", &table),
                ("keys", &cond),
                ("lock", lock.unwrap_or("")),
            ],
        ))
    };
    let mut params = Placeholders::new(dialect);
    let sql = read_back(skip_locked, &mut params, &all)?;
    let mut held = std::collections::HashSet::new();
    let mut spent = std::collections::HashSet::new();
    for mut row in db.query_text(&sql, &params.binds).await? {
        if used_up.is_some() && row.pop().flatten().as_deref() == Some("1") {
            spent.insert(row.clone());
        }
        held.insert(row);
    }
    let mut outcomes: Outcomes = vec![None; batch.len()];
    let missing: Vec<&StuckKey> = all.iter().copied().filter(|k| !held.contains(&KeyTable::identity(k))).collect();
    if missing.is_empty() {
        return Ok((outcomes, spent));
    }
    // Not locked: finished or locked anew since read, or held by a live transaction.
    let present: std::collections::HashSet<super::Identity> = if skip_locked.is_some() {
        let mut params = Placeholders::new(dialect);
        let sql = read_back(None, &mut params, &missing)?;
        let rows = db.query_text(&sql, &params.binds).await?.into_iter();
        rows.map(|mut row| {
            if used_up.is_some() {
                row.pop();
            }
            row
        })
        .collect()
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
    Ok((outcomes, spent))
}

/// What becomes of each locked key: held for review where `--verify-sql`
/// finds its effect, left as it is where there is nothing to clear, said
/// as what would happen on a plain dry run; the rest are to change (their
/// places in the batch, and the change: a release whose key has used up
/// its attempts is a failure).
async fn judge(
    db: &mut Db,
    keys: &KeyTable,
    args: &Reaping,
    batch: &[StuckKey],
    used_up: &std::collections::HashSet<super::Identity>,
    outcomes: &mut Outcomes,
) -> Result<Vec<(usize, Action)>> {
    let dialect = db.dialect();
    let writing = args.applies();
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
        // it waits for the design's own retry, unless the run says what a
        // release writes (`--set`, `--release-set`).
        let nothing = args.action == Action::Release
            && keys.statuses.is_none()
            && set_by(args, Action::Release).is_empty()
            && (key.state == State::Abandoned || assignments(keys, args, &mut Placeholders::new(dialect))?.is_none());
        let change = match args.action {
            Action::Release if used_up.contains(&KeyTable::identity(key)) => Action::Fail,
            action => action,
        };
        if nothing && change == Action::Release {
            outcomes[i] = Some((Resolution::Unchanged, None));
        } else {
            to_change.push((i, change));
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
    (to_change, change): (Vec<usize>, Action),
    outcomes: &mut Outcomes,
) -> Result<()> {
    let dialect = db.dialect();
    // On a rollback dry run the change is applied, then undone with the batch.
    let done = Resolution::of(change, args.dry_run);
    let mut halves = Halves::new(to_change);
    while let Some(part) = halves.next_part() {
        let which: Vec<&StuckKey> = part.iter().map(|&i| &batch[i]).collect();
        let mut params = Placeholders::new(dialect);
        let Some(sql) = change_statement(keys, args, change, &which, &mut params)? else { continue };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_attempts_is_a_number_or_a_column() {
        assert_eq!(parse_max_attempts("25"), Ok(MaxAttempts::Fixed(25)));
        assert_eq!(parse_max_attempts("max_attempts"), Ok(MaxAttempts::Column("max_attempts".into())));
        assert!(parse_max_attempts("0").is_err());
        assert_eq!(parse_max_attempts(" 1 "), Ok(MaxAttempts::Fixed(1)));
        assert_eq!(parse_max_attempts("-3"), Err("--max-attempts must be 1 or more".into()));
        assert_eq!(parse_max_attempts(" max "), Ok(MaxAttempts::Column("max".into())));
        assert_eq!(parse_max_attempts("  "), Err("--max-attempts is a number or a column".into()));
    }

    fn reaping(action: Action, dry_run: bool, rollback: bool) -> Reaping {
        Reaping {
            action,
            fail_code: 500,
            fail_body: String::new(),
            on_error: OnError::Skip,
            dry_run,
            rollback,
            verify: None,
            set: vec![parse_assignment("note='all'").unwrap()],
            release_set: vec![parse_assignment("locked_at=NULL").unwrap()],
            fail_set: vec![parse_assignment("error='gone'").unwrap()],
            attempts: None,
        }
    }

    /// A plain dry run runs no statement; a rollback dry run and a real run do.
    #[test]
    fn which_runs_apply() {
        assert!(!reaping(Action::Release, true, false).applies());
        assert!(reaping(Action::Release, true, true).applies());
        assert!(reaping(Action::Release, false, false).applies());
    }

    /// Each action's outcome, real and dry, and back; what a run can report.
    #[test]
    fn outcomes_of_each_action() {
        use Resolution::*;
        for (action, real, dry) in [
            (Action::Release, Released, WouldRelease),
            (Action::Fail, Failed, WouldFail),
            (Action::Delete, Deleted, WouldDelete),
        ] {
            assert_eq!(Resolution::of(action, false), real);
            assert_eq!(Resolution::of(action, true), dry);
            assert_eq!((real.change(), dry.change()), (Some(action), Some(action)));
        }
        for other in [NeedsReview, SkippedChanged, SkippedLocked, Error, Unchanged, NoEffect] {
            assert_eq!(other.change(), None, "{other:?}");
        }
        assert_eq!(
            Resolution::possible(Action::Release, false, false),
            [Released, NeedsReview, SkippedChanged, Unchanged, Error, SkippedLocked, NoEffect]
        );
        assert_eq!(
            Resolution::possible(Action::Release, true, true),
            [WouldRelease, WouldFail, NeedsReview, SkippedChanged, Unchanged, Error]
        );
        // Each outcome by its name in the summary and the JSON.
        for r in [
            Released,
            Failed,
            NeedsReview,
            SkippedChanged,
            SkippedLocked,
            Error,
            Deleted,
            Unchanged,
            NoEffect,
            WouldRelease,
            WouldFail,
            WouldDelete,
        ] {
            assert_eq!(serde_json::to_value(r).unwrap(), r.as_str(), "{r:?}");
        }
        assert_eq!(
            [Action::Release, Action::Fail, Action::Delete].map(Action::past),
            ["released", "failed", "deleted"]
        );
        // Only a release fails keys beside its own change.
        assert_eq!(Resolution::possible(Action::Delete, true, true)[..2], [WouldDelete, NeedsReview]);
    }

    /// With the attempts rule a release run fails keys too; what each change
    /// writes beside the status: --set, then its own.
    #[test]
    fn changes_and_what_each_writes() {
        let mut args = reaping(Action::Release, false, false);
        assert_eq!(changes(&args), [Action::Release]);
        args.attempts = Some(Attempts { column: "attempts".into(), max: MaxAttempts::Fixed(3) });
        assert_eq!(changes(&args), [Action::Release, Action::Fail]);
        args.action = Action::Delete;
        assert_eq!(changes(&args), [Action::Delete]);
        let columns = |change| set_by(&args, change).iter().map(|a| a.column.clone()).collect::<Vec<_>>();
        assert_eq!(columns(Action::Release), ["note", "locked_at"]);
        assert_eq!(columns(Action::Fail), ["note", "error"]);
        assert_eq!(columns(Action::Delete), ["note"]);
    }

    #[test]
    fn attempts_used_up_at_the_maximum() {
        let d = Dialect::new(crate::db::Engine::Postgres);
        let fixed = Attempts { column: "attempts".into(), max: MaxAttempts::Fixed(25) };
        assert_eq!(used_up_sql(&fixed, &d), "\"attempts\" >= 25");
        let column = Attempts { column: "attempt".into(), max: MaxAttempts::Column("max_attempts".into()) };
        assert_eq!(used_up_sql(&column, &d), "\"attempt\" >= \"max_attempts\"");
    }
}
