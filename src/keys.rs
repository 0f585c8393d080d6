//! The key-table mapping: which columns of which table hold the scope,
//! operation, key, status and times, and which values mean what. Defaults
//! follow the reference schema; flags and the config file remap every name.

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

/// The key table, resolved against the catalog.
#[derive(Debug, Clone)]
pub struct KeyTable {
    pub table: Table,
    pub scope: Vec<String>,
    pub operation: Option<String>,
    pub key: String,
    pub statuses: Option<Statuses>,
    pub in_progress: InProgress,
    pub locked_at: Option<String>,
    pub created_at: Option<String>,
    pub expires_at: Option<String>,
    /// The mapped time columns, each read on its own.
    pub times: Vec<TimeColumn>,
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

impl MappingArgs {
    /// The created-at and expires-at columns, flag over file over default name.
    fn times(&self, file: &KeyTableConfig, table: &Table) -> Result<(Option<String>, Option<String>)> {
        let created = pick(&self.created_at_column, &file.created_at_column);
        let expires = pick(&self.expires_at_column, &file.expires_at_column);
        Ok((
            optional(table, created, "created_at", "--created-at-column")?,
            optional(table, expires, "expires_at", "--expires-at-column")?,
        ))
    }

    fn time_units(&self, file: &KeyTableConfig, table: &Table) -> Result<TimeUnits> {
        let units = TimeUnits::new(&self.time_units, file.time_unit, file.time_units.as_ref());
        for column in units.columns() {
            named(table, column, "--time-unit")?;
        }
        Ok(units)
    }

    /// The configuration file named by `--config`, if any.
    pub fn config(&self) -> Result<Config> {
        Config::load(self.config.as_deref())
    }

    /// Resolves the mapping against the table's catalog.
    pub async fn resolve(&self, file: &KeyTableConfig, db: &mut Db) -> Result<KeyTable> {
        let name = pick(&self.table, &file.table).unwrap_or_else(|| "idempotency_keys".into());
        let table = catalog::table(db, &name).await?;
        let scope_given =
            if self.scope_columns.is_empty() { file.scope_columns.clone() } else { Some(self.scope_columns.clone()) };
        let scope = match scope_given {
            Some(names) => names.iter().map(|n| named(&table, n, "--scope-column")).collect::<Result<_>>()?,
            None => optional(&table, None, "scope_id", "--scope-column")?.into_iter().collect(),
        };
        let operation =
            optional(&table, pick(&self.operation_column, &file.operation_column), "operation", "--operation-column")?;
        let key =
            named(&table, &pick(&self.key_column, &file.key_column).unwrap_or_else(|| "key".into()), "--key-column")?;
        let when = pick(&self.in_progress_when, &file.in_progress_when);
        let status_given = pick(&self.status_column, &file.status_column);
        let status = match (&status_given, &when) {
            (Some(name), _) => Some(named(&table, name, "--status-column")?),
            (None, Some(_)) => optional(&table, None, "status", "--status-column")?,
            (None, None) => match optional(&table, None, "status", "--status-column")? {
                Some(status) => Some(status),
                None => bail!(
                    "no column \"status\" in table {:?}: map the status column with --status-column, \
                     or say which keys are in progress with --in-progress-when",
                    table.name
                ),
            },
        };
        let value = |flag: &Option<String>, file: &Option<String>, default: &str| {
            pick(flag, file).unwrap_or_else(|| default.to_string())
        };
        let statuses = status.map(|column| Statuses {
            column,
            in_progress: value(&self.in_progress_value, &file.in_progress_value, "in_progress"),
            succeeded: value(&self.succeeded_value, &file.succeeded_value, "succeeded"),
            retryable: value(&self.retryable_value, &file.retryable_value, "failed_retryable"),
            permanent: value(&self.permanent_value, &file.permanent_value, "failed_permanent"),
        });
        let in_progress = match (when, &statuses) {
            (Some(sql), _) => {
                user_sql::condition(db.engine(), "--in-progress-when", &sql)?;
                InProgress::When(sql)
            }
            (None, Some(s)) => InProgress::Status {
                column: s.column.clone(),
                data_type: table.column(&s.column)?.data_type.clone(),
                value: s.in_progress.clone(),
            },
            (None, None) => unreachable!("a status column or --in-progress-when was required above"),
        };
        let locked_at =
            optional(&table, pick(&self.locked_at_column, &file.locked_at_column), "locked_at", "--locked-at-column")?;
        let (created_at, expires_at) = self.times(file, &table)?;
        let units = self.time_units(file, &table)?;
        let mut times = Vec::new();
        for name in [&locked_at, &created_at, &expires_at].into_iter().flatten() {
            times.push(times::read(db, &table, table.column(name)?, units.of(name)).await?);
        }
        Ok(KeyTable { table, scope, operation, key, statuses, in_progress, locked_at, created_at, expires_at, times })
    }
}

impl KeyTable {
    /// The condition true for keys in progress, with its bound values from `first` on.
    pub fn in_progress_sql(&self, dialect: &Dialect, first: usize) -> (String, Vec<Bind>) {
        self.in_progress.sql(dialect, first)
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
        if let (InProgress::When(_), Some(locked_at)) = (&self.in_progress, &self.locked_at) {
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

/// A table to purge (`expire`): the key table, or any table with a time
/// column (an inbox, a webhook events-seen table). Nothing but the table is
/// required: a status column or `--in-progress-when`, when present, marks
/// rows to keep.
#[derive(Debug, Clone)]
pub struct PurgeTable {
    pub table: Table,
    pub in_progress: Option<InProgress>,
    pub created_at: Option<String>,
    pub expires_at: Option<String>,
    pub time_units: TimeUnits,
}

impl MappingArgs {
    pub async fn resolve_purge(&self, file: &KeyTableConfig, db: &mut Db) -> Result<PurgeTable> {
        let name = pick(&self.table, &file.table).unwrap_or_else(|| "idempotency_keys".into());
        let table = catalog::table(db, &name).await?;
        let in_progress = match pick(&self.in_progress_when, &file.in_progress_when) {
            Some(sql) => {
                user_sql::condition(db.engine(), "--in-progress-when", &sql)?;
                Some(InProgress::When(sql))
            }
            None => {
                match optional(&table, pick(&self.status_column, &file.status_column), "status", "--status-column")? {
                    Some(column) => Some(InProgress::Status {
                        data_type: table.column(&column)?.data_type.clone(),
                        column,
                        value: pick(&self.in_progress_value, &file.in_progress_value)
                            .unwrap_or_else(|| "in_progress".into()),
                    }),
                    None => None,
                }
            }
        };
        let (created_at, expires_at) = self.times(file, &table)?;
        Ok(PurgeTable { time_units: self.time_units(file, &table)?, table, in_progress, created_at, expires_at })
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
