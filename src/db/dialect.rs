//! The dialect layer: what SQL is written the same on every engine, and the
//! handle (`Dialect`) through which the rest asks an engine's driver
//! (`super::engine`) for what differs.

use super::engine::Driver;
use super::{Bind, Engine};

pub(crate) use super::engine::query_file;

/// How a column takes `append()` (reap's `--set COL=append(VALUE)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Appendable {
    /// A native array of `element`s (PostgreSQL).
    Array { element: String },
    /// A JSON array, in a JSON or text column.
    Json,
}

/// How a time column stores its instants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeRepr {
    /// A native timestamp (timestamptz, timestamp, datetime, date).
    Native { with_zone: bool },
    /// Integer seconds since the epoch.
    EpochSeconds,
    /// Integer milliseconds since the epoch.
    EpochMillis,
    /// SQLite: ISO-8601 text, or numbers in the given unit, decided per value.
    SqliteDynamic { millis: bool },
}

/// The quoted columns a scan reads.
#[derive(Debug)]
pub struct ScanColumns<'a> {
    pub id: &'a str,
    pub created_at: &'a str,
    pub repr: TimeRepr,
    /// Quoted compared columns with their catalog types.
    pub compared: &'a [(String, String)],
}

/// Aliases keep ORDER BY names pointing at the table's columns.
fn aliased(list: &[String]) -> String {
    list.iter().enumerate().map(|(i, e)| format!("{e} AS idemctl_{i}")).collect::<Vec<_>>().join(", ")
}

/// The 32-bit mark a NULL of carried column `i` sends in place of a hash:
/// equal for NULLs, and unlike a value's hash but by a 2^-32 chance.
pub(super) fn null_mark(i: usize) -> u64 {
    crate::fingerprint::server_null_mark(i)
}

/// The hashes of `n` carried columns, two cut to 32 bits to a 64-bit
/// number (`RowView::column_hashes` reads them so), each pair through `cast`.
pub(super) fn pairs(n: usize, hash: &dyn Fn(usize) -> String, cast: &dyn Fn(String) -> String) -> Vec<String> {
    (0..n)
        .step_by(2)
        .map(|i| match i + 1 < n {
            true => cast(format!("({} & 4294967295) | ({} << 32)", hash(i), hash(i + 1))),
            false => cast(format!("({} & 4294967295)", hash(i))),
        })
        .collect()
}

/// How a condition names a set of composite keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyList {
    /// `(a, b) IN ((1, 2), (3, 4))`.
    RowValues,
    /// `(a, b) IN (VALUES (1, 2), (3, 4))`: SQLite takes row values only so.
    RowValuesFromValues,
    /// `(a = 1 AND b = 2) OR (...)`: MySQL and MariaDB read a row-value IN by
    /// scanning the table, this by range.
    Expanded,
}

/// Where a table's storage figures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageFigures {
    /// The catalog's sizes and the planner's row estimate (PostgreSQL).
    Catalog,
    /// InnoDB's statistics, which lag (MySQL, MariaDB).
    InnoDbStatistics,
    /// Counted: rows and pages (SQLite's dbstat).
    Counted,
}

#[derive(Debug, Clone, Copy)]
pub struct Dialect {
    engine: Engine,
}

impl Dialect {
    pub fn new(engine: Engine) -> Self {
        Dialect { engine }
    }

    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The engine's driver, which the dialect's other questions go to.
    pub(crate) fn driver(&self) -> &'static dyn Driver {
        self.engine.driver()
    }

    /// A quoted, possibly schema-qualified table name.
    pub fn table(&self, schema: Option<&str>, name: &str) -> String {
        match schema {
            Some(schema) => format!("{}.{}", self.ident(schema), self.ident(name)),
            None => self.ident(name),
        }
    }

    /// The scan's select list: id, created-at, then the carried columns'
    /// hashes (`RowView::column_hashes` reads them from column 2 on), or on
    /// SQLite the values, hashed here as they are read. Hashes only group:
    /// clusters are confirmed on the values afterwards.
    pub fn scan_select(&self, cols: &ScanColumns<'_>) -> String {
        aliased(&self.driver().scan_select(cols))
    }

    /// `n` placeholders for the bound values from the `first`th on (1-based), as a list.
    pub fn placeholders(&self, first: usize, n: usize) -> String {
        (first..first + n).map(|i| self.placeholder(i)).collect::<Vec<_>>().join(", ")
    }

    /// `n` placeholders for ids, each cast to the id column's type where the engine needs it.
    pub fn id_placeholders(&self, n: usize, id_type: &str) -> String {
        (1..=n).map(|i| self.typed_placeholder(i, id_type)).collect::<Vec<_>>().join(", ")
    }

    /// A condition `col >= t` (or `col < t` when `!at_least`) that the engine can
    /// answer from an index on the column, and the value to bind to it. Where
    /// the driver writes time bounds into the SQL (PostgreSQL's scans stream
    /// through COPY, which takes no bound values), the value is a number or a
    /// time formatted here.
    pub fn time_bound(&self, col: &str, repr: TimeRepr, at_least: bool, t_us: i64, n: usize) -> (String, Option<Bind>) {
        let (cond, bind) = self.time_bound_bound(col, repr, at_least, t_us, n);
        if !self.writes_time_bounds_in() {
            return (cond, Some(bind));
        }
        let value = match bind {
            Bind::Int(v) => v.to_string(),
            Bind::Text(t) => self.literal(&t),
            Bind::Null => "NULL".to_string(),
        };
        (cond.replace(&self.placeholder(n), &value), None)
    }

    fn time_bound_bound(&self, col: &str, repr: TimeRepr, at_least: bool, t_us: i64, n: usize) -> (String, Bind) {
        let op = if at_least { ">=" } else { "<" };
        let p = self.placeholder(n);
        // Epoch values are bounded to the plausible range of their unit too, so
        // that a value of the other unit (or a marker) never reads as a time.
        let epoch = |millis: bool, v: i64| {
            let (lo, hi) = super::times::plausible(millis);
            let cond = if at_least {
                format!("{col} >= {p} AND {col} <= {hi}")
            } else {
                format!("{col} >= {lo} AND {col} < {p}")
            };
            (cond, Bind::Int(v))
        };
        match repr {
            TimeRepr::EpochSeconds => epoch(false, ceil_div(t_us, 1_000_000)),
            TimeRepr::EpochMillis => epoch(true, ceil_div(t_us, 1_000)),
            TimeRepr::Native { .. } | TimeRepr::SqliteDynamic { .. } => self.native_time_bound(col, repr, op, &p, t_us),
        }
    }
}

impl std::ops::Deref for Dialect {
    type Target = dyn Driver + 'static;

    fn deref(&self) -> &(dyn Driver + 'static) {
        self.engine.driver()
    }
}

/// `a / b` rounded up, for instants between two whole units.
fn ceil_div(a: i64, b: i64) -> i64 {
    let q = a.div_euclid(b);
    if a.rem_euclid(b) == 0 { q } else { q + 1 }
}
