//! The key table's domain. This module maps a table onto the key-table
//! model (which columns hold the scope, operation, key, status and times,
//! and which values mean what), resolved once against the catalog into one
//! `KeyTable`; `stuck` finds keys left in progress, `expiry` says which rows
//! are past the retention horizon, `reaping` resolves stuck keys.

pub mod expiry;
pub mod reaping;
pub mod stuck;

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;

use crate::config::{Config, KeyTableConfig};
use crate::db::catalog::{self, Table};
use crate::db::times::{self, TimeColumn};
use crate::db::user_sql;
use crate::db::{Bind, Db, Dialect};
use crate::timeparse::{self, TimeUnitArg, TimeUnits};

/// The mapping flags, flattened into every command that reads the key table.
#[derive(Debug, Clone, Default, Args)]
pub struct MappingArgs {
    /// TOML file with the key-table mapping, operation durations and retention (flags override it)
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The key table [default: idempotency_keys]
    #[arg(long, value_name = "TABLE")]
    pub table: Option<String>,
    /// A column of the key's scope (repeat for several) [default: scope_id, when it exists]
    #[arg(long = "scope-column", value_name = "COL")]
    pub scope_columns: Vec<String>,
    /// The operation column [default: operation, when it exists]
    #[arg(long, value_name = "COL")]
    pub operation_column: Option<String>,
    /// The idempotency-key column [default: key]
    #[arg(long, value_name = "COL")]
    pub key_column: Option<String>,
    /// The status column [default: status]
    #[arg(long, value_name = "COL")]
    pub status_column: Option<String>,
    /// Status of a key whose request is running [default: in_progress]
    #[arg(long, value_name = "VALUE")]
    pub in_progress_value: Option<String>,
    /// Status of a key whose request succeeded [default: succeeded]
    #[arg(long, value_name = "VALUE")]
    pub succeeded_value: Option<String>,
    /// Status of a key whose request may be retried [default: failed_retryable]
    #[arg(long, value_name = "VALUE")]
    pub retryable_value: Option<String>,
    /// Status of a key whose request failed for good [default: failed_permanent]
    #[arg(long, value_name = "VALUE")]
    pub permanent_value: Option<String>,
    /// SQL condition true for keys in progress, for tables without a status column
    #[arg(long, value_name = "SQL")]
    pub in_progress_when: Option<String>,
    /// The lock-time column [default: locked_at, when it exists]
    #[arg(long, value_name = "COL")]
    pub locked_at_column: Option<String>,
    /// The creation-time column [default: created_at, when it exists]
    #[arg(long, value_name = "COL")]
    pub created_at_column: Option<String>,
    /// The expiry-time column [default: expires_at, when it exists]
    #[arg(long, value_name = "COL")]
    pub expires_at_column: Option<String>,
    /// Unit of integer time columns: s or ms for all, COL=s or COL=ms for one (repeatable) [default: the unit most of each column's values are plausible in]
    #[arg(long = "time-unit", value_name = "[COL=]UNIT", value_parser = timeparse::time_unit_arg)]
    pub time_units: Vec<TimeUnitArg>,
}

/// How to tell a key in progress.
#[derive(Debug, Clone)]
pub enum InProgress {
    /// The status column (of this type) holds this value.
    Status { column: String, data_type: String, value: String },
    /// A raw SQL condition (`--in-progress-when`).
    When(String),
}

/// The status column and its values, when the table has one.
#[derive(Debug, Clone)]
pub struct Statuses {
    pub column: String,
    pub in_progress: String,
    pub succeeded: String,
    pub retryable: String,
    pub permanent: String,
}

/// The key table (or any table `expire` purges), resolved against the catalog.
#[derive(Debug, Clone)]
pub struct KeyTable {
    pub table: Table,
    pub scope: Vec<String>,
    pub operation: Option<String>,
    key: Option<String>,
    pub statuses: Option<Statuses>,
    in_progress: Option<InProgress>,
    pub locked_at: Option<String>,
    pub created_at: Option<String>,
    pub expires_at: Option<String>,
    units: TimeUnits,
    /// The time columns read so far, each on its own.
    pub times: Vec<TimeColumn>,
    missing: Missing,
}

/// A name given by flag, by the config file, or by default; only a name
/// given by flag or file must exist.
pub(crate) fn pick(flag: &Option<String>, file: &Option<String>) -> Option<String> {
    flag.clone().or_else(|| file.clone())
}

/// A named column, or an error naming it and the flag that maps it.
pub(crate) fn named(table: &Table, name: &str, flag: &str) -> Result<String> {
    match table.column(name) {
        Ok(c) => Ok(c.name.clone()),
        Err(e) => {
            bail!("{e}: map the {} column with {flag}", flag.trim_start_matches("--").trim_end_matches("-column"))
        }
    }
}

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
    scope: Option<Vec<String>>,
    operation: Option<String>,
    key: Option<String>,
    status: Option<String>,
    in_progress_value: String,
    succeeded_value: String,
    retryable_value: String,
    permanent_value: String,
    in_progress_when: Option<String>,
    locked_at: Option<String>,
    created_at: Option<String>,
    expires_at: Option<String>,
    units: TimeUnits,
    /// Columns doctor looks for, when given.
    pub fingerprint: Option<String>,
    pub response_code: Option<String>,
    pub response_body: Option<String>,
}

impl MappingArgs {
    /// The configuration file named by `--config`, if any.
    pub fn config(&self) -> Result<Config> {
        Config::load(self.config.as_deref())
    }

    /// Folds the flags over the config file's `[key_table]`.
    pub fn mapping(&self, file: &KeyTableConfig) -> Mapping {
        let value = |flag: &Option<String>, file: &Option<String>, default: &str| {
            pick(flag, file).unwrap_or_else(|| default.to_string())
        };
        Mapping {
            table: pick(&self.table, &file.table).unwrap_or_else(|| "idempotency_keys".into()),
            scope: if self.scope_columns.is_empty() {
                file.scope_columns.clone()
            } else {
                Some(self.scope_columns.clone())
            },
            operation: pick(&self.operation_column, &file.operation_column),
            key: pick(&self.key_column, &file.key_column),
            status: pick(&self.status_column, &file.status_column),
            in_progress_value: value(&self.in_progress_value, &file.in_progress_value, "in_progress"),
            succeeded_value: value(&self.succeeded_value, &file.succeeded_value, "succeeded"),
            retryable_value: value(&self.retryable_value, &file.retryable_value, "failed_retryable"),
            permanent_value: value(&self.permanent_value, &file.permanent_value, "failed_permanent"),
            in_progress_when: pick(&self.in_progress_when, &file.in_progress_when),
            locked_at: pick(&self.locked_at_column, &file.locked_at_column),
            created_at: pick(&self.created_at_column, &file.created_at_column),
            expires_at: pick(&self.expires_at_column, &file.expires_at_column),
            units: TimeUnits::new(&self.time_units, file.time_unit, file.time_units.as_ref()),
            fingerprint: file.fingerprint_column.clone(),
            response_code: file.response_code_column.clone(),
            response_body: file.response_body_column.clone(),
        }
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
        let table = catalog::table(db, &mapping.table).await?;
        let scope = match &mapping.scope {
            Some(names) => names.iter().map(|n| named(&table, n, "--scope-column")).collect::<Result<_>>()?,
            None => optional(&table, None, "scope_id", "--scope-column")?.into_iter().collect(),
        };
        let operation = optional(&table, mapping.operation.clone(), "operation", "--operation-column")?;
        let key_name = mapping.key.clone().unwrap_or_else(|| "key".into());
        let (key, missing_key) = match named(&table, &key_name, "--key-column") {
            Ok(key) => (Some(key), None),
            Err(e) if mapping.key.is_none() => (None, Some(format!("{e:#}"))),
            Err(e) => return Err(e),
        };
        let when = mapping.in_progress_when.clone();
        let status = match &mapping.status {
            Some(name) => Some(named(&table, name, "--status-column")?),
            None => optional(&table, None, "status", "--status-column")?,
        };
        let statuses = status.map(|column| Statuses {
            column,
            in_progress: mapping.in_progress_value.clone(),
            succeeded: mapping.succeeded_value.clone(),
            retryable: mapping.retryable_value.clone(),
            permanent: mapping.permanent_value.clone(),
        });
        let in_progress = match (when, &statuses) {
            (Some(sql), _) => {
                user_sql::condition(db.engine(), "--in-progress-when", &sql)?;
                Some(InProgress::When(sql))
            }
            (None, Some(s)) => Some(InProgress::Status {
                column: s.column.clone(),
                data_type: table.column(&s.column)?.data_type.clone(),
                value: s.in_progress.clone(),
            }),
            (None, None) => None,
        };
        let missing_in_progress = in_progress.is_none().then(|| {
            format!(
                "no column \"status\" in table {:?}: map the status column with --status-column, \
                 or say which keys are in progress with --in-progress-when",
                table.name
            )
        });
        let locked_at = optional(&table, mapping.locked_at.clone(), "locked_at", "--locked-at-column")?;
        let created_at = optional(&table, mapping.created_at.clone(), "created_at", "--created-at-column")?;
        let expires_at = optional(&table, mapping.expires_at.clone(), "expires_at", "--expires-at-column")?;
        for column in mapping.units.columns() {
            named(&table, column, "--time-unit")?;
        }
        Ok(KeyTable {
            table,
            scope,
            operation,
            key,
            statuses,
            in_progress,
            locked_at,
            created_at,
            expires_at,
            units: mapping.units.clone(),
            times: Vec::new(),
            missing: Missing { key: missing_key, in_progress: missing_in_progress },
        })
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

    /// Reads the lock-time columns (`locked_at`, `created_at`).
    pub async fn read_lock_times(&mut self, db: &mut Db) -> Result<()> {
        let names = [self.locked_at.clone(), self.created_at.clone()];
        self.read_times(db, &names).await
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

    /// The lock time in microseconds since the epoch: `locked_at`, else
    /// `created_at`. A table told apart by `--in-progress-when` that has a
    /// lock column uses it alone: there a NULL lock means nobody holds the key
    /// (that is what `reap` leaves behind), not that it was never locked.
    pub fn lock_micros_sql(&self, dialect: &Dialect) -> Result<String> {
        let micros = |name: &String| match self.time(name) {
            Some(t) => Ok(dialect.epoch_micros(&dialect.ident(name), t.repr)),
            None => bail!("time column {name:?} was not read"),
        };
        if let (Some(InProgress::When(_)), Some(locked_at)) = (&self.in_progress, &self.locked_at) {
            return micros(locked_at);
        }
        match (&self.locked_at, &self.created_at) {
            (Some(l), Some(c)) => Ok(format!("COALESCE({}, {})", micros(l)?, micros(c)?)),
            (Some(t), None) | (None, Some(t)) => micros(t),
            (None, None) => bail!(
                "table {:?} has no locked_at or created_at column: map one with --locked-at-column or --created-at-column",
                self.table.name
            ),
        }
    }

    /// The columns the lock time is read from.
    pub fn lock_columns(&self) -> impl Iterator<Item = &TimeColumn> {
        [&self.locked_at, &self.created_at].into_iter().flatten().filter_map(|name| self.time(name))
    }
}

impl InProgress {
    /// The condition true for rows in progress, with its bound values from `first` on.
    pub fn sql(&self, dialect: &Dialect, first: usize) -> (String, Vec<Bind>) {
        match self {
            InProgress::Status { column, data_type, value } => (
                format!(
                    "{} = {}",
                    dialect.comparable_text(&dialect.ident(column), data_type),
                    dialect.placeholder(first)
                ),
                vec![Bind::Text(value.clone())],
            ),
            InProgress::When(sql) => (format!("({sql})"), Vec::new()),
        }
    }
}
