//! The key table's domain. This module maps a table onto the key-table
//! model (which columns hold the scope, operation, key, status and times,
//! and which values mean what), resolved once against the catalog into one
//! `KeyTable`; `stuck` finds keys left in progress, `expiry` says which rows
//! are past the retention horizon, `reaping` resolves stuck keys.

pub mod designs;
pub mod expiry;
pub mod reaping;
pub mod stuck;
pub mod values;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::config::{Config, KeyTableConfig};
pub use crate::config::{Kind, OnExpiredLease};
use crate::db::catalog::{self, Table};
use crate::db::times::{self, TimeColumn};
use crate::db::user_sql;
use crate::db::{Bind, Db, Dialect, Placeholders};
use crate::timeparse::{self, TimeUnitArg, TimeUnits};
use stuck::StuckKey;

impl Kind {
    /// The kind a table's design tells, and what told it: a message id with
    /// a consumer (an inbox), a dispatch or delivery time (an outbox), a job
    /// state with attempts or a worker claim (jobs), a webhook's name; else
    /// an HTTP key table.
    pub fn detect(table: &Table) -> (Kind, String) {
        let names: Vec<String> = table.columns.iter().map(|c| c.name.to_lowercase().replace('_', "")).collect();
        let has = |wanted: &[&str]| names.iter().find(|n| wanted.contains(&n.as_str())).cloned();
        let name = table.name.to_lowercase();
        let original = |lower: &str| {
            table
                .columns
                .iter()
                .find(|c| c.name.to_lowercase().replace('_', "") == lower)
                .map_or("", |c| c.name.as_str())
        };
        if let (Some(id), Some(consumer)) =
            (has(&["messageid", "eventid"]), has(&["consumerid", "consumer", "group", "handler"]))
        {
            return (Kind::Inbox, format!("{} with {}", original(&id), original(&consumer)));
        }
        if name.contains("inbox") || name.contains("received") {
            return (Kind::Inbox, format!("the table's name, {}", table.name));
        }
        if name.contains("outbox") || name.contains("published") {
            return (Kind::Outbox, format!("the table's name, {}", table.name));
        }
        if let (Some(attempts), Some(state)) = (
            has(&["attempt", "attempts", "retrycount", "retries", "attemptcount"]),
            has(&["state", "status", "statusname"]),
        ) {
            return (Kind::Jobs, format!("{} with {}", original(&state), original(&attempts)));
        }
        let claim = has(&["processid", "workerid", "claimedby", "lockedby", "lockedbyid", "pickedby", "reservedby"]);
        let work = ["job", "execution", "task"].iter().any(|w| name.contains(w));
        if let Some(claim) = claim.as_ref().filter(|_| work) {
            return (Kind::Jobs, format!("{} of a worker", original(claim)));
        }
        if name.contains("webhook") {
            return (Kind::Webhooks, format!("the table's name, {}", table.name));
        }
        // Work a queue runs again by itself: a count of tries or failures,
        // a worker's claim or a queue, beside the time it is due (a job's
        // `run_at`, a message's visibility timeout).
        let tries = has(&["attempt", "attempts", "errorcount", "executionscount", "readct", "consecutivefailures"]);
        let due = has(&["runat", "availableat", "scheduledat", "vt", "reservedat", "executiontime", "startafter"]);
        let queue = has(&["queue", "queuename"]);
        if let (Some(by), Some(due)) = (tries.or(claim).or(queue), due) {
            return (Kind::Jobs, format!("{} with {}", original(&due), original(&by)));
        }
        if let Some(state) = has(&["state", "status", "statename"]).filter(|_| work) {
            return (Kind::Jobs, format!("{} of the table {}", original(&state), table.name));
        }
        (Kind::Http, "no message, job or webhook columns".to_string())
    }
}

/// The mapping flags, flattened into every command that reads the key table.
#[derive(Debug, Clone, Default, Args)]
pub struct MappingArgs {
    /// The config file (the global `--config`, or one found), filled in after parsing.
    #[arg(skip)]
    pub config: Option<PathBuf>,
    /// The key table [default: idempotency_keys]
    #[arg(help_heading = "Key table", long, value_name = "TABLE")]
    pub table: Option<String>,
    /// A known design whose mapping fills in what the flags and the config file do not say: river, pg-boss, masstransit-inbox, delayed-job
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "NAME")]
    pub design: Option<String>,
    /// What the table is for: HTTP keys, a consumer's inbox, an outbox, jobs, a webhook receiver's events seen; the output speaks of its rows in its words [default: told by its columns]
    #[arg(help_heading = "Key table", long, value_enum, value_name = "KIND")]
    pub kind: Option<Kind>,
    /// A column of the key's scope (repeat for several) [default: scope_id, when it exists]
    #[arg(help_heading = "Key table", long = "scope-column", value_name = "COL")]
    pub scope_columns: Vec<String>,
    /// The operation column; repeat when the operation spans several (method, path): their values joined by a space [default: operation, when it exists]
    #[arg(help_heading = "Key table", long = "operation-column", value_name = "COL")]
    pub operation_columns: Vec<String>,
    /// The idempotency-key column [default: key, else idempotency_key, idem_key, ...]
    #[arg(help_heading = "Key table", long, value_name = "COL")]
    pub key_column: Option<String>,
    /// The status column [default: status]
    #[arg(help_heading = "Key table", long, value_name = "COL")]
    pub status_column: Option<String>,
    /// Status of a key whose request is running; repeat for several (a design with more than one running state: the first is the one reported) [default: in_progress]
    #[arg(hide_short_help = true, help_heading = "Key table", long = "in-progress-value", value_name = "VALUE")]
    pub in_progress_value: Vec<String>,
    /// Status of a key whose request succeeded [default: succeeded]
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "VALUE")]
    pub succeeded_value: Option<String>,
    /// Status of a key whose request may be retried [default: failed_retryable]
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "VALUE")]
    pub retryable_value: Option<String>,
    /// Status of a key whose request failed for good [default: failed_permanent]
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "VALUE")]
    pub permanent_value: Option<String>,
    /// A status a key or job finishes in, which expire may delete past the horizon, besides the succeeded and failed-for-good values and the retryable one (except on jobs and outboxes, whose rescuer runs it again); repeat for several
    #[arg(hide_short_help = true, help_heading = "Key table", long = "finished-value", value_name = "VALUE")]
    pub finished_values: Vec<String>,
    /// A status of work still to happen (pending, scheduled, waiting to be retried), which expire never deletes, however old, a mapped one too; repeat for several. A status neither finished nor live is kept, and expire says so and exits 1
    #[arg(hide_short_help = true, help_heading = "Key table", long = "live-value", value_name = "VALUE")]
    pub live_values: Vec<String>,
    /// SQL condition true for keys in progress, for tables without a status column
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "SQL")]
    pub in_progress_when: Option<String>,
    /// For a design whose state is which columns are set, not a status: a row is in progress while this column is set (a lock time, a worker's claim) and no --finished-if-set column is; repeat for several, all set
    #[arg(hide_short_help = true, help_heading = "Key table", long = "in-progress-if-set", value_name = "COL")]
    pub in_progress_if_set: Vec<String>,
    /// For a design whose state is which columns are set: a row is finished once this column is set (a finish or failure time), and only a finished row is expired; repeat for several, any set
    #[arg(hide_short_help = true, help_heading = "Key table", long = "finished-if-set", value_name = "COL")]
    pub finished_if_set: Vec<String>,
    /// The lock-time column: when a request took the key [default: locked_at, when it exists]
    #[arg(help_heading = "Key table", long, value_name = "COL")]
    pub locked_at_column: Option<String>,
    /// A lease-deadline column: a key in progress is stuck once this time has passed (plus --lease-grace)
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "COL")]
    pub lease_until_column: Option<String>,
    /// A per-row lease length (whole seconds, or a PostgreSQL interval): a key in progress is stuck once its lock time (or heartbeat) plus this has passed, plus --lease-grace
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "COL")]
    pub lease_length_column: Option<String>,
    /// A heartbeat the worker refreshes while it holds the key: a key's age counts from it (else from its lock time)
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "COL")]
    pub heartbeat_column: Option<String>,
    /// A table of workers, each with a heartbeat: a key's age counts from the heartbeat of the worker holding it (a key whose worker is gone counts from its lock or creation time)
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "TABLE", requires = "holder_column")]
    pub holder_table: Option<String>,
    /// The key table's column naming the worker that holds the key (with --holder-table)
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "COL", requires = "holder_table")]
    pub holder_column: Option<String>,
    /// The worker table's own id, which --holder-column names [default: id]
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "COL", requires = "holder_table")]
    pub holder_key_column: Option<String>,
    /// The worker table's heartbeat column [default: last_heartbeat_at]
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "COL", requires = "holder_table")]
    pub holder_heartbeat_column: Option<String>,
    /// How long past its lease deadline a key may still be running [default: 0s]
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "DURATION", value_parser = timeparse::duration)]
    pub lease_grace: Option<Duration>,
    /// The last-attempt column: an abandoned key's age counts from it [default: last_run_at, when it exists]
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "COL")]
    pub last_run_column: Option<String>,
    /// What an expired lease means in this design: retries refused until the key is released, or the next retry takes it over [default: conflict]
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_enum, value_name = "MEANING")]
    pub on_expired_lease: Option<OnExpiredLease>,
    /// The key row commits with its effect: no key is ever in progress (nothing to find stuck or reap)
    #[arg(hide_short_help = true, help_heading = "Key table", long)]
    pub no_in_progress: bool,
    /// The creation-time column [default: created_at, when it exists]
    #[arg(help_heading = "Key table", long, value_name = "COL")]
    pub created_at_column: Option<String>,
    /// The expiry-time column [default: expires_at, when it exists]
    #[arg(help_heading = "Key table", long, value_name = "COL")]
    pub expires_at_column: Option<String>,
    /// The time expire's horizon counts from, where a design purges by another clock than the one it ages work by (a job purged by when it finished, aged by when it was published) [default: the created-at column]
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "COL")]
    pub purge_by_column: Option<String>,
    /// The zone zoneless time columns (timestamp without time zone, datetime) were written in: an IANA name such as Asia/Shanghai, or an offset such as +08:00 [default: UTC]
    #[arg(hide_short_help = true, help_heading = "Key table", long, value_name = "ZONE", value_parser = timeparse::zone)]
    pub time_zone: Option<timeparse::Zone>,
    /// Unit of integer time columns: s or ms for all, COL=s or COL=ms for one (repeatable) [default: the unit most of each column's values are plausible in]
    #[arg(help_heading = "Key table", long = "time-unit", value_name = "[COL=]UNIT", value_parser = timeparse::time_unit_arg)]
    pub time_units: Vec<TimeUnitArg>,
}

/// How to tell a key in progress.
#[derive(Debug, Clone)]
pub enum InProgress {
    /// The status column (of this type) holds one of these values.
    Status { column: String, data_type: String, values: Vec<String> },
    /// A raw SQL condition (`--in-progress-when`).
    When(String),
}

/// The workers' table as mapped: its name, the key table's column naming a
/// key's worker, the worker's id and heartbeat columns.
#[derive(Debug, Clone)]
struct HolderNames {
    table: String,
    claim: String,
    key: String,
    heartbeat: String,
}

/// The workers' table, resolved: a key's worker is the row whose `key`
/// equals the key's `claim`, alive while its `heartbeat` is recent.
#[derive(Debug, Clone)]
pub struct Holder {
    pub table: Table,
    pub claim: String,
    pub key: String,
    pub heartbeat: String,
    /// The heartbeat column as read.
    pub time: Option<TimeColumn>,
}

/// The status column and its values, when the table has one.
#[derive(Debug, Clone)]
pub struct Statuses {
    pub column: String,
    /// The in-progress status reported, and any more values of that state.
    pub in_progress: String,
    pub in_progress_more: Vec<String>,
    pub succeeded: String,
    pub retryable: String,
    pub permanent: String,
    /// The finished and live states named by flag or config file (none: the defaults).
    pub finished_given: Vec<String>,
    pub live_given: Vec<String>,
}

impl Statuses {
    /// The four mapped values: in progress, succeeded, retryable, failed for good.
    pub fn mapped(&self) -> Vec<&String> {
        let running = std::iter::once(&self.in_progress).chain(&self.in_progress_more);
        running.chain([&self.succeeded, &self.retryable, &self.permanent]).collect()
    }

    /// Every value of the in-progress state.
    pub fn running(&self) -> Vec<String> {
        std::iter::once(&self.in_progress).chain(&self.in_progress_more).cloned().collect()
    }

    /// The statuses a row finishes in, which expire may delete: succeeded,
    /// failed for good, and retryable where nothing runs it again by itself
    /// (an HTTP key, an inbox's message, a webhook's event: the client or
    /// the sender retries; a job's or an outbox's retryable state is work
    /// its rescuer or relay still does); with those named finished, less
    /// those named live.
    pub fn finished(&self, kind: Kind) -> Vec<String> {
        let mut finished = vec![self.succeeded.clone(), self.permanent.clone()];
        if !matches!(kind, Kind::Jobs | Kind::Outbox) {
            finished.push(self.retryable.clone());
        }
        for value in &self.finished_given {
            if !finished.contains(value) {
                finished.push(value.clone());
            }
        }
        finished.retain(|v| !self.live_given.contains(v));
        finished
    }

    /// The statuses of work still to happen, never deleted: in progress,
    /// those given, and the mapped values that are not finished.
    pub fn live(&self, kind: Kind) -> Vec<String> {
        let finished = self.finished(kind);
        let mapped = self.mapped();
        let mut live: Vec<String> = self.live_given.clone();
        for value in mapped {
            if !finished.contains(value) && !live.contains(value) {
                live.push(value.clone());
            }
        }
        live
    }
}

/// The key table (or any table `expire` purges), resolved against the catalog.
#[derive(Debug, Clone)]
pub struct KeyTable {
    pub table: Table,
    /// What the table is for, and what said so (`--kind`, the config file,
    /// or its columns).
    pub kind: Kind,
    pub kind_told: String,
    pub scope: Vec<String>,
    /// The operation's columns; their values joined by a space name it.
    pub operation: Vec<String>,
    key: Option<String>,
    pub statuses: Option<Statuses>,
    /// Which status values were named by flag or config file.
    pub values_given: ValuesGiven,
    in_progress: Option<InProgress>,
    /// Columns any of which set makes a row finished (`--finished-if-set`),
    /// where no status column tells: their names.
    pub finished_if_set: Vec<String>,
    /// The design has no in-progress state: the key commits with its effect.
    pub no_in_progress: bool,
    pub locked_at: Option<String>,
    /// A lease deadline: past it (plus the grace), a key in progress is stuck.
    pub lease_until: Option<String>,
    /// A per-row lease length: the lock time (or heartbeat) plus it is the deadline.
    pub lease_length: Option<String>,
    /// A heartbeat the worker refreshes: a key's age counts from it.
    pub heartbeat: Option<String>,
    /// The workers' table whose heartbeat says a claim is alive.
    pub holder: Option<Holder>,
    pub lease_grace: Duration,
    /// The last attempt: an abandoned key's age counts from it.
    pub last_run: Option<String>,
    pub on_expired_lease: OnExpiredLease,
    pub created_at: Option<String>,
    pub expires_at: Option<String>,
    /// The time a horizon counts from, where it is not the creation time.
    pub purge_by: Option<String>,
    units: TimeUnits,
    /// The time columns read so far, each on its own.
    pub times: Vec<TimeColumn>,
    /// A condition the keys a command works on must meet (`--where`), checked.
    pub filter: Option<String>,
    /// The zone zoneless time columns were written in, and those of columns
    /// the config file gives one of their own.
    pub zone: timeparse::Zone,
    pub zones: std::collections::BTreeMap<String, timeparse::Zone>,
    missing: Missing,
}

/// Values given by a repeated flag, else by the config file's list.
fn listed(flag: &[String], file: &Option<Vec<String>>) -> Vec<String> {
    if flag.is_empty() { file.clone().unwrap_or_default() } else { flag.to_vec() }
}

/// A name given by flag, by the config file, or by default; only a name
/// given by flag or file must exist.
pub(crate) fn pick(flag: &Option<String>, file: &Option<String>) -> Option<String> {
    flag.clone().or_else(|| file.clone())
}

/// The key table a command reads where neither flag nor file names one.
pub const DEFAULT_TABLE: &str = "idempotency_keys";

/// A named column, or an error naming it and the flag that maps it: with
/// the columns there are where no name is close.
pub(crate) fn named(table: &Table, name: &str, flag: &str) -> Result<String> {
    let e = match table.column(name) {
        Ok(c) => return Ok(c.name.clone()),
        Err(e) => e,
    };
    let names: Vec<String> = table.columns.iter().map(|c| c.name.clone()).collect();
    if !catalog::suggest(name, &names).is_empty() {
        bail!("{flag} {name}: {e}");
    }
    bail!("{flag} {name}: {e}; {}", columns_of(table))
}

/// The table's columns, the first twelve, for a message that asks to map one.
fn columns_of(table: &Table) -> String {
    let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
    let more = if names.len() > 12 { ", ..." } else { "" };
    format!("its columns are {}{more}", names[..names.len().min(12)].join(", "))
}

/// Names of an idempotency-key column beside `key`: chosen by name alone,
/// in a key table where no `--key-column` is given, and in a creation table.
pub const KEY_NAMES: &[&str] = &[
    "idempotency_key",
    "idempotencykey",
    "idem_key",
    "idempotency_token",
    "idempotence_key",
    "dedup_key",
    "dedupe_key",
    "deduplication_key",
    "deduplication_id",
    "dedup_id",
];

/// A column given by flag or file (which must exist), else the default name when it exists.
fn optional(table: &Table, given: Option<String>, default: &str, flag: &str) -> Result<Option<String>> {
    match given {
        Some(name) => named(table, &name, flag).map(Some),
        None => Ok(table.columns.iter().any(|c| c.name == default).then(|| default.to_string())),
    }
}

/// The mapping as given: each name and value from its flag, else the config
/// file, else unset (the default applies against the catalog). Folded once,
/// before anything is read.
#[derive(Debug, Clone)]
pub struct Mapping {
    table: String,
    /// The kind given by flag or config file, and which gave it.
    pub kind: Option<Kind>,
    kind_given_by: &'static str,
    scope: Option<Vec<String>>,
    operation: Option<Vec<String>>,
    key: Option<String>,
    status: Option<String>,
    in_progress_value: String,
    /// More values of the in-progress state, besides `in_progress_value`.
    in_progress_more: Vec<String>,
    succeeded_value: String,
    retryable_value: String,
    permanent_value: String,
    finished_values: Vec<String>,
    live_values: Vec<String>,
    values: ValuesGiven,
    in_progress_when: Option<String>,
    in_progress_if_set: Vec<String>,
    finished_if_set: Vec<String>,
    no_in_progress: bool,
    locked_at: Option<String>,
    lease_until: Option<String>,
    zone: timeparse::Zone,
    zones: std::collections::BTreeMap<String, timeparse::Zone>,
    lease_length: Option<String>,
    heartbeat: Option<String>,
    holder: Option<HolderNames>,
    lease_grace: Duration,
    last_run: Option<String>,
    on_expired_lease: OnExpiredLease,
    created_at: Option<String>,
    expires_at: Option<String>,
    purge_by: Option<String>,
    units: TimeUnits,
    /// Columns doctor looks for, when given.
    pub fingerprint: Option<String>,
    pub response_code: Option<String>,
    pub response_body: Option<String>,
    pub scope_in_key: bool,
    pub responses_upstream: bool,
}

/// Which status values were named by flag or config file, rather than left
/// at the reference schema's.
#[derive(Debug, Clone, Copy, Default)]
pub struct ValuesGiven {
    pub retryable: bool,
    pub permanent: bool,
    /// Any status value at all.
    pub any: bool,
}

impl MappingArgs {
    /// The configuration file named by `--config`, if any.
    pub fn config(&self) -> Result<Config> {
        Config::load(self.config.as_deref())
    }

    /// Folds the flags over the config file's `[key_table]`.
    pub fn mapping(&self, file: &KeyTableConfig) -> Result<Mapping> {
        let file_kind = file.kind;
        let designed;
        let (file, design) = match self.design.as_ref().or(file.design.as_ref()) {
            Some(name) => {
                designed = file.over(&designs::design(name)?);
                (&designed, Some(name))
            }
            None => (file, None),
        };
        let value = |flag: &Option<String>, file: &Option<String>, default: &str| {
            pick(flag, file).unwrap_or_else(|| default.to_string())
        };
        let given = |flag: &Option<String>, file: &Option<String>| flag.is_some() || file.is_some();
        let values = ValuesGiven {
            retryable: given(&self.retryable_value, &file.retryable_value),
            permanent: given(&self.permanent_value, &file.permanent_value),
            any: !self.in_progress_value.is_empty()
                || file.in_progress_value.is_some()
                || given(&self.succeeded_value, &file.succeeded_value)
                || given(&self.retryable_value, &file.retryable_value)
                || given(&self.permanent_value, &file.permanent_value),
        };
        let finished_values = listed(&self.finished_values, &file.finished_values);
        let live_values = listed(&self.live_values, &file.live_values);
        let mut running = match (&self.in_progress_value, &file.in_progress_value) {
            (flag, _) if !flag.is_empty() => flag.clone(),
            (_, Some(file)) => file.clone().into_vec(),
            (_, None) => vec!["in_progress".to_string()],
        };
        running.dedup();
        if running.is_empty() || running.iter().any(|v| v.trim().is_empty()) {
            bail!("--in-progress-value takes a status, not an empty value");
        }
        let in_progress_value = running.remove(0);
        let in_progress_more = running;
        if let Some(both) = finished_values.iter().find(|v| live_values.contains(v)) {
            bail!("--finished-value {both} and --live-value {both}: a status is one or the other");
        }
        if let Some(running) =
            std::iter::once(&in_progress_value).chain(&in_progress_more).find(|v| finished_values.contains(v))
        {
            bail!("--finished-value {running}: it is an in-progress status, and a row in it is not finished");
        }
        if finished_values.iter().chain(&live_values).any(|v| v.trim().is_empty()) {
            bail!("--finished-value and --live-value take a status, not an empty value");
        }
        let operation = if !self.operation_columns.is_empty() {
            Some(self.operation_columns.clone())
        } else {
            file.operation_columns.clone().or_else(|| file.operation_column.clone().map(|c| vec![c]))
        };
        let lease_grace = match (self.lease_grace, &file.lease_grace) {
            (Some(d), _) => d,
            (None, Some(text)) => {
                timeparse::duration(text).map_err(|e| anyhow::anyhow!("config key_table.lease_grace: {e}"))?
            }
            (None, None) => Duration::ZERO,
        };
        Ok(Mapping {
            table: pick(&self.table, &file.table).unwrap_or_else(|| DEFAULT_TABLE.into()),
            kind: self.kind.or(file.kind),
            kind_given_by: match (self.kind.is_some(), design) {
                (true, _) => "as --kind says",
                (false, Some(_)) if file_kind.is_none() => "as the design says",
                (false, _) => "as the config file's kind says",
            },
            scope: if self.scope_columns.is_empty() {
                file.scope_columns.clone()
            } else {
                Some(self.scope_columns.clone())
            },
            operation,
            key: pick(&self.key_column, &file.key_column),
            status: pick(&self.status_column, &file.status_column),
            in_progress_value,
            in_progress_more,
            succeeded_value: value(&self.succeeded_value, &file.succeeded_value, "succeeded"),
            retryable_value: value(&self.retryable_value, &file.retryable_value, "failed_retryable"),
            permanent_value: value(&self.permanent_value, &file.permanent_value, "failed_permanent"),
            finished_values,
            live_values,
            values,
            in_progress_when: pick(&self.in_progress_when, &file.in_progress_when),
            in_progress_if_set: listed(&self.in_progress_if_set, &file.in_progress_if_set),
            finished_if_set: listed(&self.finished_if_set, &file.finished_if_set),
            no_in_progress: self.no_in_progress || file.in_progress == Some(false),
            locked_at: pick(&self.locked_at_column, &file.locked_at_column),
            lease_until: pick(&self.lease_until_column, &file.lease_until_column),
            lease_length: pick(&self.lease_length_column, &file.lease_length_column),
            zone: match (&self.time_zone, &file.time_zone) {
                (Some(zone), _) => zone.clone(),
                (None, Some(text)) => {
                    timeparse::zone(text).map_err(|e| anyhow::anyhow!("config key_table.time_zone: {e}"))?
                }
                (None, None) => timeparse::Zone::Utc,
            },
            zones: file
                .time_zones
                .iter()
                .flatten()
                .map(|(column, text)| {
                    timeparse::zone(text)
                        .map(|z| (column.clone(), z))
                        .map_err(|e| anyhow::anyhow!("config key_table.time_zones.{column}: {e}"))
                })
                .collect::<Result<_>>()?,
            heartbeat: pick(&self.heartbeat_column, &file.heartbeat_column),
            holder: pick(&self.holder_table, &file.holder_table).map(|table| HolderNames {
                table,
                claim: pick(&self.holder_column, &file.holder_column).unwrap_or_default(),
                key: pick(&self.holder_key_column, &file.holder_key_column).unwrap_or_else(|| "id".into()),
                heartbeat: pick(&self.holder_heartbeat_column, &file.holder_heartbeat_column)
                    .unwrap_or_else(|| "last_heartbeat_at".into()),
            }),
            lease_grace,
            last_run: pick(&self.last_run_column, &file.last_run_column),
            on_expired_lease: self.on_expired_lease.or(file.on_expired_lease).unwrap_or_default(),
            created_at: pick(&self.created_at_column, &file.created_at_column),
            purge_by: pick(&self.purge_by_column, &file.purge_by_column),
            expires_at: pick(&self.expires_at_column, &file.expires_at_column),
            units: TimeUnits::new(&self.time_units, file.time_unit, file.time_units.as_ref()),
            fingerprint: file.fingerprint_column.clone(),
            response_code: file.response_code_column.clone(),
            response_body: file.response_body_column.clone(),
            scope_in_key: file.scope_in_key == Some(true),
            responses_upstream: file.responses_upstream == Some(true),
        })
    }
}

/// Why the table has no key column or no way to tell keys in progress:
/// kept for the commands that need them (`expire` and `size` do not).
#[derive(Debug, Clone)]
struct Missing {
    key: Option<String>,
    in_progress: Option<String>,
}

impl KeyTable {
    /// Resolves the mapping against the table's catalog: every name given
    /// must exist; the key and a status (or `--in-progress-when`) are asked
    /// for by the commands that need them (`key`, `in_progress`).
    pub async fn resolve(mapping: &Mapping, db: &mut Db) -> Result<KeyTable> {
        let table = catalog::table(db, &mapping.table).await.map_err(|e| match mapping.table == DEFAULT_TABLE {
            true if e.to_string().starts_with("no table") => {
                anyhow::anyhow!("{e}: that is the default key table; name yours with --table")
            }
            _ => e,
        })?;
        let scope = match &mapping.scope {
            Some(names) => names.iter().map(|n| named(&table, n, "--scope-column")).collect::<Result<_>>()?,
            None => optional(&table, None, "scope_id", "--scope-column")?.into_iter().collect(),
        };
        let operation = match &mapping.operation {
            Some(names) => names.iter().map(|n| named(&table, n, "--operation-column")).collect::<Result<_>>()?,
            None => optional(&table, None, "operation", "--operation-column")?.into_iter().collect(),
        };
        let (key, missing_key) = match &mapping.key {
            Some(name) => (Some(named(&table, name, "--key-column")?), None),
            None => match std::iter::once(&"key").chain(KEY_NAMES).find_map(|n| table.column(n).ok()) {
                Some(column) => (Some(column.name.clone()), None),
                None => (
                    None,
                    Some(format!(
                        "table {:?} has no column named key or idempotency_key (or another key name): map its key \
                         column with --key-column; {}",
                        table.name,
                        columns_of(&table)
                    )),
                ),
            },
        };
        let when = mapping.in_progress_when.clone();
        let status = match &mapping.status {
            Some(name) => Some(named(&table, name, "--status-column")?),
            None => optional(&table, None, "status", "--status-column")?,
        };
        let statuses = status.map(|column| Statuses {
            column,
            in_progress: mapping.in_progress_value.clone(),
            in_progress_more: mapping.in_progress_more.clone(),
            succeeded: mapping.succeeded_value.clone(),
            retryable: mapping.retryable_value.clone(),
            permanent: mapping.permanent_value.clone(),
            finished_given: mapping.finished_values.clone(),
            live_given: mapping.live_values.clone(),
        });
        if (!mapping.in_progress_if_set.is_empty() || !mapping.finished_if_set.is_empty()) && statuses.is_some() {
            bail!(
                "--in-progress-if-set and --finished-if-set describe a design without a status column: table {:?} \
                 has one (--status-column); map its values instead",
                table.name
            );
        }
        let dialect = db.dialect();
        let columns = |flag: &str, names: &[String]| -> Result<Vec<String>> {
            names.iter().map(|n| named(&table, n, flag)).collect()
        };
        let finished_columns = columns("--finished-if-set", &mapping.finished_if_set)?;
        let running_columns = columns("--in-progress-if-set", &mapping.in_progress_if_set)?;
        let when = match (when, running_columns.is_empty()) {
            (Some(_), false) => {
                bail!("--in-progress-when and --in-progress-if-set both say which keys are in progress: give one")
            }
            (None, false) => {
                let mut all = set_sql(&dialect, &running_columns, " AND ");
                if !finished_columns.is_empty() {
                    all.push_str(&format!(" AND NOT {}", set_sql(&dialect, &finished_columns, " OR ")));
                }
                Some(all)
            }
            (when, true) => when,
        };
        let in_progress = match (when, &statuses) {
            (Some(sql), _) => {
                user_sql::condition(db.engine(), "--in-progress-when", &sql)?;
                user_sql::probe(db, &table, "--in-progress-when", &sql, false).await?;
                Some(InProgress::When(sql))
            }
            (None, Some(s)) => Some(InProgress::Status {
                column: s.column.clone(),
                data_type: table.column(&s.column)?.data_type.clone(),
                values: s.running(),
            }),
            (None, None) => None,
        };
        let missing_in_progress = (in_progress.is_none() && !mapping.no_in_progress).then(|| {
            format!(
                "no column \"status\" in table {:?}: map the status column with --status-column, \
                 or say which keys are in progress with --in-progress-when",
                table.name
            )
        });
        let locked_at = optional(&table, mapping.locked_at.clone(), "locked_at", "--locked-at-column")?;
        let lease_until = match &mapping.lease_until {
            Some(name) => Some(named(&table, name, "--lease-until-column")?),
            None => None,
        };
        let lease_length =
            mapping.lease_length.as_ref().map(|n| named(&table, n, "--lease-length-column")).transpose()?;
        let heartbeat = mapping.heartbeat.as_ref().map(|n| named(&table, n, "--heartbeat-column")).transpose()?;
        let holder = match &mapping.holder {
            Some(h) => {
                let claim = named(&table, &h.claim, "--holder-column")?;
                let workers = catalog::table(db, &h.table).await?;
                let key = named(&workers, &h.key, "--holder-key-column")?;
                let heartbeat = named(&workers, &h.heartbeat, "--holder-heartbeat-column")?;
                Some(Holder { table: workers, claim, key, heartbeat, time: None })
            }
            None => None,
        };
        if lease_length.is_some() && locked_at.is_none() && heartbeat.is_none() {
            bail!(
                "--lease-length-column counts from the lock time: map it with --locked-at-column (or --heartbeat-column)"
            );
        }
        let last_run = optional(&table, mapping.last_run.clone(), "last_run_at", "--last-run-column")?;
        let created_at = optional(&table, mapping.created_at.clone(), "created_at", "--created-at-column")?;
        let purge_by = mapping.purge_by.as_ref().map(|n| named(&table, n, "--purge-by-column")).transpose()?;
        let expires_at = optional(&table, mapping.expires_at.clone(), "expires_at", "--expires-at-column")?;
        for column in mapping.units.columns() {
            named(&table, column, "--time-unit")?;
        }
        for zone in std::iter::once(&mapping.zone).chain(mapping.zones.values()) {
            db.driver().check_zone(db, zone).await?;
        }
        let (kind, kind_told) = match mapping.kind {
            Some(kind) => (kind, mapping.kind_given_by.to_string()),
            None => {
                let (kind, by) = Kind::detect(&table);
                (kind, format!("told by {by}; --kind to say otherwise"))
            }
        };
        Ok(KeyTable {
            table,
            kind,
            kind_told,
            scope,
            operation,
            key,
            statuses,
            values_given: mapping.values,
            in_progress: if mapping.no_in_progress { None } else { in_progress },
            finished_if_set: finished_columns,
            no_in_progress: mapping.no_in_progress,
            locked_at,
            lease_until,
            lease_length,
            heartbeat,
            holder,
            lease_grace: mapping.lease_grace,
            last_run,
            on_expired_lease: mapping.on_expired_lease,
            created_at,
            expires_at,
            purge_by,
            units: mapping.units.clone(),
            times: Vec::new(),
            filter: None,
            zone: mapping.zone.clone(),
            zones: mapping.zones.clone(),
            missing: Missing { key: missing_key, in_progress: missing_in_progress },
        })
    }

    /// Narrows the keys a command works on to those matching `--where`,
    /// read as one condition of the engine's grammar.
    pub fn narrow(&mut self, engine: crate::db::Engine, filter: Option<&str>) -> Result<()> {
        self.filter = filter.map(|f| user_sql::condition(engine, "--where", f)).transpose()?;
        Ok(())
    }

    /// The key column, for the commands that need one.
    pub fn key(&self) -> Result<&str> {
        match (&self.key, &self.missing.key) {
            (Some(key), _) => Ok(key),
            (None, Some(why)) => bail!("{why}"),
            (None, None) => bail!("table {:?} has no key column: map it with --key-column", self.table.name),
        }
    }

    /// How keys in progress are told, where the table tells them at all.
    pub fn tells_in_progress(&self) -> Option<&InProgress> {
        self.in_progress.as_ref()
    }

    /// How keys in progress are told, for the commands that need it.
    pub fn in_progress(&self) -> Result<&InProgress> {
        if self.no_in_progress {
            bail!(
                "table {:?} has no in-progress state (--no-in-progress): its keys commit with their effect, \
                 and none can be stuck",
                self.table.name
            );
        }
        match (&self.in_progress, &self.missing.in_progress) {
            (Some(in_progress), _) => Ok(in_progress),
            (None, Some(why)) => bail!("{why}"),
            (None, None) => bail!("nothing tells keys in progress: map --status-column or --in-progress-when"),
        }
    }

    /// Reads how the named time columns store instants (each on its own),
    /// for the commands that compare their times.
    pub async fn read_times(&mut self, db: &mut Db, names: &[Option<String>]) -> Result<()> {
        for name in names.iter().flatten() {
            if self.time(name).is_none() {
                let column = self.table.column(name)?;
                let time = times::read(db, &self.table, column, self.units.of(name)).await?;
                self.times.push(time);
            }
        }
        Ok(())
    }

    /// Reads the columns a key's state is judged by: the lease deadline, the
    /// lock time, the last attempt and the creation time.
    pub async fn read_state_times(&mut self, db: &mut Db) -> Result<()> {
        let names = [
            self.lease_until.clone(),
            self.locked_at.clone(),
            self.heartbeat.clone(),
            self.last_run.clone(),
            self.created_at.clone(),
        ];
        self.read_times(db, &names).await?;
        if let Some(holder) = &mut self.holder
            && holder.time.is_none()
        {
            let column = holder.table.column(&holder.heartbeat)?;
            holder.time = Some(times::read(db, &holder.table, column, self.units.of(&holder.heartbeat)).await?);
        }
        Ok(())
    }
}

impl KeyTable {
    /// The condition true for keys in progress, with its bound values from `first` on.
    pub fn in_progress_sql(&self, dialect: &Dialect, first: usize) -> Result<(String, Vec<Bind>)> {
        Ok(self.in_progress()?.sql(dialect, first))
    }

    /// A mapped time column as read.
    pub fn time(&self, name: &str) -> Option<&TimeColumn> {
        self.times.iter().find(|t| t.name == name)
    }

    /// A time column in microseconds since the epoch, when mapped (and read).
    pub fn micros(&self, dialect: &Dialect, name: &Option<String>) -> Result<Option<String>> {
        let Some(name) = name else { return Ok(None) };
        match self.time(name) {
            Some(t) => Ok(Some(dialect.epoch_micros(&self.time_sql(dialect, &dialect.ident(name), t)?, t.repr))),
            None => bail!("time column {name:?} was not read"),
        }
    }

    /// The zone a column's zoneless times were written in.
    pub fn zone_of(&self, column: &str) -> &timeparse::Zone {
        self.zones.get(column).unwrap_or(&self.zone)
    }

    /// A time column (as `expr`) read in UTC: a zoneless column written in
    /// another zone (`--time-zone`) converted to it.
    pub fn time_sql(&self, dialect: &Dialect, expr: &str, time: &TimeColumn) -> Result<String> {
        let zoneless = matches!(
            time.repr,
            crate::db::TimeRepr::Native { with_zone: false } | crate::db::TimeRepr::SqliteDynamic { .. }
        );
        let zone = self.zone_of(&time.name);
        if *zone == timeparse::Zone::Utc || !zoneless {
            return Ok(expr.to_string());
        }
        dialect.zoneless_to_utc(expr, zone).with_context(|| {
            format!(
                "--time-zone {}: {} cannot convert zoneless times (its values carry no type to convert)",
                zone,
                dialect.name()
            )
        })
    }

    /// The times a key's state is judged by, as expressions in microseconds:
    /// its lease deadline, its lock time, and the time an abandoned key's age
    /// counts from (its last attempt, else its creation).
    pub fn state_times(&self, dialect: &Dialect) -> Result<StateTimes> {
        let own_lock = self.micros(dialect, &self.locked_at)?;
        // The last sign of life: the worker's heartbeat (in the key row, or
        // the holding worker's row), else the lock time.
        let beat = match (&self.holder, self.micros(dialect, &self.heartbeat)?) {
            (Some(holder), _) => {
                let time = holder.time.as_ref().context("the workers' heartbeat was not read")?;
                let column = self.time_sql(dialect, &format!("w.{}", dialect.ident(&holder.heartbeat)), time)?;
                let beat = dialect.epoch_micros(&column, time.repr);
                Some(format!(
                    "(SELECT {beat} FROM {} w WHERE w.{} = {}.{})",
                    holder.table.sql_name(dialect),
                    dialect.ident(&holder.key),
                    self.table.sql_name(dialect),
                    dialect.ident(&holder.claim)
                ))
            }
            (None, beat) => beat,
        };
        let lock = match (beat, own_lock) {
            (Some(beat), Some(lock)) => Some(format!("COALESCE({beat}, {lock})")),
            (beat, lock) => beat.or(lock),
        };
        let deadline = match (self.micros(dialect, &self.lease_until)?, &self.lease_length, &lock) {
            (Some(deadline), _, _) => Some(deadline),
            (None, Some(length), Some(lock)) => {
                let column = self.table.column(length)?;
                Some(format!("({lock} + {})", dialect.seconds_micros(&dialect.ident(length), &column.data_type)))
            }
            _ => None,
        };
        // The last attempt, else (never run, or no such column) the creation.
        let base = match (self.micros(dialect, &self.last_run)?, self.micros(dialect, &self.created_at)?) {
            (Some(last_run), Some(created)) => Some(format!("COALESCE({last_run}, {created})")),
            (last_run, created) => last_run.or(created),
        };
        if deadline.is_none() && lock.is_none() && base.is_none() {
            bail!(
                "table {:?} has no locked_at or created_at column: map one with --locked-at-column or --created-at-column \
                 (or a deadline with --lease-until-column)",
                self.table.name
            );
        }
        Ok(StateTimes { deadline, lock, base })
    }

    /// The columns a key's state is read from, as read.
    pub fn state_columns(&self) -> impl Iterator<Item = &TimeColumn> {
        [&self.lease_until, &self.locked_at, &self.heartbeat, &self.last_run, &self.created_at]
            .into_iter()
            .flatten()
            .filter_map(|name| self.time(name))
    }
}

/// A key as the database names it: scope, operation parts and key, as text.
pub type Identity = Vec<Option<String>>;

impl KeyTable {
    /// The condition true for exactly this key; with `as_read`, only while
    /// its state time is the one that was read (compare-and-set).
    fn key_term(&self, key: &StuckKey, as_read: bool, params: &mut Placeholders) -> Result<String> {
        let dialect = params.dialect;
        let mut conds = Vec::new();
        let column_type = |name: &str| self.table.column(name).map(|c| c.data_type.clone());
        let key_column = self.key()?;
        let values = key.scope.iter().zip(&self.scope).chain(key.operation_parts.iter().zip(&self.operation));
        for (value, column) in values.chain([(&Some(key.key.clone()), &key_column.to_string())]) {
            match value {
                Some(v) => conds.push(format!(
                    "{} = {}",
                    dialect.ident(column),
                    params.push(Bind::Text(v.clone()), &column_type(column)?)
                )),
                None => conds.push(format!("{} IS NULL", dialect.ident(column))),
            }
        }
        if as_read {
            // Bound, not written in: every batch's statement is then the same
            // text, prepared once (a new statement per batch costs MySQL 40 ms).
            let seen = self.state_times(&dialect)?.seen();
            conds.push(format!("{seen} = {}", params.push(Bind::Int(key.seen_us), "int8")));
        }
        Ok(format!("({})", conds.join(" AND ")))
    }

    /// The condition true for exactly these keys while still in progress
    /// (and, `as_read`, as they were read): one statement a batch.
    pub fn any_key(&self, batch: &[&StuckKey], as_read: bool, params: &mut Placeholders) -> Result<String> {
        let terms = batch.iter().map(|key| self.key_term(key, as_read, params)).collect::<Result<Vec<_>>>()?;
        let (in_progress, binds) = self.in_progress_sql(&params.dialect, params.binds.len() + 1)?;
        params.binds.extend(binds);
        Ok(format!("({}) AND {in_progress}", terms.join(" OR ")))
    }

    /// A stuck key's identity, in `identity_select` order.
    pub fn identity(key: &StuckKey) -> Identity {
        key.scope.iter().chain(&key.operation_parts).cloned().chain([Some(key.key.clone())]).collect()
    }

    /// The select list that reads keys' identities back, in `identity` order.
    pub fn identity_select(&self, dialect: Dialect) -> Result<String> {
        let text = |c: &String| dialect.text(&dialect.ident(c));
        Ok(self
            .scope
            .iter()
            .chain(&self.operation)
            .map(text)
            .chain([text(&self.key()?.to_string())])
            .collect::<Vec<_>>()
            .join(", "))
    }
}

/// The times a key's state is judged by, as SQL expressions in microseconds.
#[derive(Debug, Clone)]
pub struct StateTimes {
    pub deadline: Option<String>,
    pub lock: Option<String>,
    pub base: Option<String>,
}

impl KeyTable {
    /// A condition true for keys whose limit has passed: a deadline plus the
    /// lease grace, or a lock (else base) time plus `limit`, before `now_us`.
    pub fn past_limit_sql(
        &self,
        dialect: &Dialect,
        limit: Duration,
        now_us: i64,
        params: &mut Placeholders,
    ) -> Result<String> {
        let times = self.state_times(dialect)?;
        let micros = |d: Duration| i64::try_from(d.as_micros()).unwrap_or(i64::MAX);
        let none = |e: &Option<String>| e.as_ref().map(|e| format!("{e} IS NULL AND ")).unwrap_or_default();
        let mut terms = Vec::new();
        if let Some(deadline) = &times.deadline {
            let p = params.push(Bind::Int(now_us.saturating_sub(micros(self.lease_grace))), "int8");
            terms.push(format!("{deadline} < {p}"));
        }
        let before = now_us.saturating_sub(micros(limit));
        if let Some(lock) = &times.lock {
            let p = params.push(Bind::Int(before), "int8");
            terms.push(format!("{}{lock} < {p}", none(&times.deadline)));
        }
        if let Some(base) = &times.base {
            let p = params.push(Bind::Int(before), "int8");
            terms.push(format!("{}{}{base} < {p}", none(&times.deadline), none(&times.lock)));
        }
        Ok(format!("({})", terms.join(" OR ")))
    }
}

impl StateTimes {
    /// One value that changes whenever a request takes the key, for
    /// compare-and-set: the deadline, else the lock, else the base time.
    pub fn seen(&self) -> String {
        let parts: Vec<&str> =
            [&self.deadline, &self.lock, &self.base].into_iter().flatten().map(String::as_str).collect();
        match parts.as_slice() {
            [one] => one.to_string(),
            many => format!("COALESCE({})", many.join(", ")),
        }
    }
}

impl KeyTable {
    /// Where a status column tells: the condition true for rows in a
    /// finished status, with its bound values from `first` on.
    pub fn finished_sql(&self, dialect: &Dialect, first: usize) -> Option<(String, Vec<Bind>)> {
        self.finished_sql_but(dialect, first, &[])
    }

    /// `finished_sql` without the statuses in `but` (those with a horizon
    /// of their own); `None` where none is left.
    pub fn finished_sql_but(&self, dialect: &Dialect, first: usize, but: &[String]) -> Option<(String, Vec<Bind>)> {
        if self.statuses.is_none() && !self.finished_if_set.is_empty() {
            return Some((set_sql(dialect, &self.finished_if_set, " OR "), Vec::new()));
        }
        let mut values = self.statuses.as_ref()?.finished(self.kind);
        values.retain(|v| !but.contains(v));
        if values.is_empty() {
            return Some(("1 = 0".to_string(), Vec::new()));
        }
        let column = self.status_text(dialect)?;
        let marks = dialect.placeholders(first, values.len());
        Some((format!("{column} IN ({marks})"), values.into_iter().map(Bind::Text).collect()))
    }

    /// The status column read as text, comparable with a bound text value
    /// (an enum's or a number's too), where the table has one.
    pub fn status_text(&self, dialect: &Dialect) -> Option<String> {
        let statuses = self.statuses.as_ref()?;
        let data_type = &self.table.column(&statuses.column).ok()?.data_type;
        Some(dialect.comparable_text(&dialect.ident(&statuses.column), data_type))
    }
}

/// `(a IS NOT NULL OR b IS NOT NULL)`: the columns set, joined by `joiner`.
fn set_sql(dialect: &Dialect, columns: &[String], joiner: &str) -> String {
    let set: Vec<String> = columns.iter().map(|c| format!("{} IS NOT NULL", dialect.ident(c))).collect();
    format!("({})", set.join(joiner))
}

impl InProgress {
    /// The condition true for rows in progress, with its bound values from `first` on.
    pub fn sql(&self, dialect: &Dialect, first: usize) -> (String, Vec<Bind>) {
        match self {
            InProgress::Status { column, data_type, values } => {
                let column = dialect.comparable_text(&dialect.ident(column), data_type);
                let condition = match values.len() {
                    1 => format!("{column} = {}", dialect.placeholder(first)),
                    n => format!("{column} IN ({})", dialect.placeholders(first, n)),
                };
                (condition, values.iter().cloned().map(Bind::Text).collect())
            }
            InProgress::When(sql) => (format!("({sql})"), Vec::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn statuses(finished: &[&str], live: &[&str]) -> Statuses {
        Statuses {
            column: "status".into(),
            in_progress: "running".into(),
            in_progress_more: Vec::new(),
            succeeded: "done".into(),
            retryable: "retry".into(),
            permanent: "dead".into(),
            finished_given: finished.iter().map(|s| s.to_string()).collect(),
            live_given: live.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn shaped(name: &str, columns: &str) -> Table {
        let columns = columns.split_whitespace().map(|c| crate::db::catalog::Column::of(c, "text")).collect();
        Table::of(crate::db::Engine::Postgres, name, columns, &[])
    }

    /// Job and queue tables as their libraries' migrations create them are
    /// told as jobs; an HTTP key table and a webhook receiver's as before.
    #[test]
    fn kinds_told_by_columns() {
        let jobs = [
            ("river_job", "id state attempt max_attempts attempted_at created_at finalized_at scheduled_at kind"),
            (
                "good_jobs",
                "id queue_name priority serialized_params scheduled_at performed_at finished_at error created_at \
                 updated_at active_job_id concurrency_key executions_count job_class locked_by_id locked_at",
            ),
            (
                "que_jobs",
                "priority run_at id job_class error_count last_error_message queue finished_at expired_at args data",
            ),
            ("q_orders", "msg_id read_ct enqueued_at vt message headers"),
            (
                "scheduled_tasks",
                "task_name task_instance task_data execution_time picked picked_by last_success last_failure \
                 consecutive_failures last_heartbeat version",
            ),
            ("jobs", "id queue payload attempts reserved_at available_at created_at"),
            ("messenger_messages", "id body headers queue_name created_at available_at delivered_at"),
            ("job", "id stateid statename invocationdata arguments createdat expireat"),
            ("delayed_jobs", "id priority attempts handler last_error run_at locked_at failed_at locked_by queue"),
            (
                "graphile_jobs",
                "id queue_name task_identifier payload priority run_at attempts max_attempts locked_at locked_by",
            ),
        ];
        for (name, columns) in jobs {
            assert_eq!(Kind::detect(&shaped(name, columns)).0, Kind::Jobs, "{name}");
        }
        let http =
            shaped("idempotency_keys", "scope_id operation key status response_code locked_at created_at expires_at");
        assert_eq!(Kind::detect(&http).0, Kind::Http);
        let webhooks = shaped("webhook_events", "id provider event_id payload status received_at processed_at");
        assert_eq!(Kind::detect(&webhooks).0, Kind::Webhooks);
        let (kind, by) = Kind::detect(&shaped("q_orders", "msg_id read_ct enqueued_at vt message"));
        assert_eq!((kind, by.as_str()), (Kind::Jobs, "vt with read_ct"));
    }

    /// By default a retryable key is finished where the client retries, and
    /// live where the table's own rescuer or relay runs it again.
    #[test]
    fn finished_and_live_by_kind() {
        let s = statuses(&[], &[]);
        for kind in [Kind::Http, Kind::Inbox, Kind::Webhooks] {
            assert_eq!(s.finished(kind), ["done", "dead", "retry"], "{kind:?}");
            assert_eq!(s.live(kind), ["running"], "{kind:?}");
        }
        for kind in [Kind::Jobs, Kind::Outbox] {
            assert_eq!(s.finished(kind), ["done", "dead"], "{kind:?}");
            assert_eq!(s.live(kind), ["running", "retry"], "{kind:?}");
        }
    }

    /// Statuses named finished add to the defaults; those named live are
    /// taken out of them.
    #[test]
    fn finished_and_live_as_named() {
        let s = statuses(&["cancelled"], &["pending", "retry"]);
        assert_eq!(s.finished(Kind::Http), ["done", "dead", "cancelled"]);
        assert_eq!(s.live(Kind::Http), ["pending", "retry", "running"]);
        assert_eq!(s.finished(Kind::Jobs), ["done", "dead", "cancelled"]);
        let s = statuses(&[], &["dead"]);
        assert_eq!(s.finished(Kind::Jobs), ["done"]);
        assert_eq!(s.live(Kind::Jobs), ["dead", "running", "retry"]);
    }
}
