//! How a scan reads a creation table, by engine: the statement that streams
//! (id, created-at, fingerprint) in created-at order, the slices MySQL reads
//! at once, the row estimate for progress, and the lookup that reads the
//! candidate rows' values back by id.

use anyhow::Result;
use chrono::{DateTime, Utc};

use super::catalog::{Table, query_file};
use super::dialect::ScanColumns;
use super::times::TimeColumn;
use super::{Bind, Db, Dialect};
use crate::window::RowId;

/// The columns a scan reads, resolved against the catalog.
#[derive(Debug)]
pub struct ScanSource<'a> {
    pub table: &'a Table,
    pub id: &'a str,
    pub created_at: &'a TimeColumn,
    pub compared: &'a [String],
}

/// Which rows a scan reads: `--where`, `--since`, `--until`.
#[derive(Debug, Clone, Copy)]
pub struct Bounds<'a> {
    pub filter: Option<&'a str>,
    pub since: Option<DateTime<Utc>>,
    pub until: Option<DateTime<Utc>>,
}

/// A range of ids, scanned on a session of its own.
#[derive(Debug, Clone, Copy, Default)]
pub struct Slice {
    from_id: Option<i64>,
    before_id: Option<i64>,
}

/// MySQL sorts a scan's whole result on one core before it sends a row. A
/// table whose integer ids span more than 500,000 is read as up to four
/// slices by id, each sorted by its own session at once, and merged here in
/// created-at order. Elsewhere one slice: PostgreSQL and SQLite read in index
/// order without a sort.
pub async fn slices(db: &mut Db, source: &ScanSource<'_>) -> Result<Vec<Slice>> {
    const SLICE_IDS: i64 = 250_000;
    let whole = vec![Slice::default()];
    let id = source.table.column(source.id)?;
    if !db.dialect().scans_in_id_slices() || !id.is_integer() {
        return Ok(whole);
    }
    let dialect = db.dialect();
    let ident = dialect.ident(source.id);
    let sql = super::fill(
        include_str!("../../queries/id_range.sql"),
        &[("id", &ident), ("table", &source.table.sql_name(&dialect))],
    );
    let row = db.query_text(&sql, &[]).await?.into_iter().next().unwrap_or_default();
    let bound = |i: usize| row.get(i).cloned().flatten().and_then(|v| v.parse::<i64>().ok());
    let (Some(min), Some(max)) = (bound(0), bound(1)) else { return Ok(whole) };
    // Four measured best on two cores: smaller sorts, and sending overlaps sorting.
    let parts = ((max - min) / SLICE_IDS).clamp(1, 4);
    let cuts: Vec<i64> = (1..parts).map(|k| min + (max - min) * k / parts).collect();
    Ok((0..parts as usize)
        .map(|k| Slice { from_id: k.checked_sub(1).map(|j| cuts[j]), before_id: cuts.get(k).copied() })
        .collect())
}

/// The scan statement of one slice and its bound values.
pub fn statement(source: &ScanSource<'_>, bounds: Bounds<'_>, dialect: &Dialect, slice: Slice) -> (String, Vec<Bind>) {
    let ident = |c: &str| dialect.ident(c);
    let created = ident(&source.created_at.name);
    let repr = source.created_at.repr;
    let mut filters = String::new();
    let mut binds = Vec::new();
    if let Some(filter) = bounds.filter {
        filters.push_str(&format!(" AND ({filter})"));
    }
    for (at_least, bound) in [(true, bounds.since), (false, bounds.until)] {
        if let Some(t) = bound {
            let (cond, bind) = dialect.time_bound(&created, repr, at_least, t.timestamp_micros(), binds.len() + 1);
            filters.push_str(&format!(" AND {cond}"));
            binds.extend(bind);
        }
    }
    let id = ident(source.id);
    for (op, bound) in [(">=", slice.from_id), ("<", slice.before_id)] {
        if let Some(bound) = bound {
            filters.push_str(&format!(" AND {id} {op} {bound}"));
        }
    }
    let compared: Vec<(String, String)> = source
        .compared
        .iter()
        .map(|c| (ident(c), source.table.column(c).map(|c| c.data_type.clone()).unwrap_or_default()))
        .collect();
    let select = dialect.scan_select(&ScanColumns { id: &id, created_at: &created, repr, compared: &compared });
    // SQLite keeps times in several forms; where the stored values do not
    // sort in time order (mixed forms, zones), the rows are sorted by the time read.
    let order = if source.created_at.stored_order_is_time_order() {
        created.clone()
    } else {
        dialect.epoch_micros(&created, repr)
    };
    let sql = super::fill(
        query_file!(dialect.engine(), "scan.sql"),
        &[
            ("select", &select),
            ("table", &source.table.sql_name(dialect)),
            ("created_at", &created),
            ("order", &order),
            ("filters", &filters),
            ("id", &id),
        ],
    );
    (sql, binds)
}

/// The engine's estimate of the table's rows, for the progress bar.
pub async fn row_estimate(db: &mut Db, table: &Table) -> Option<u64> {
    let dialect = db.dialect();
    let sql = super::fill(query_file!(db.engine(), "row_estimate.sql"), &[("table", &table.sql_name(&dialect))]);
    let binds = [Bind::Text(table.schema.clone()), Bind::Text(table.name.clone())];
    let rows = db.query_text(&sql, &binds).await.ok()?;
    rows.into_iter().next()?.into_iter().next()??.parse().ok()
}

/// Reads candidate rows by id: id, key, `--by`, `--sum`, then the compared
/// values, all as text.
#[derive(Debug, Clone)]
pub struct Lookup {
    dialect: Dialect,
    select: String,
    table: String,
    id: String,
    id_type: String,
}

impl Lookup {
    pub fn new(
        dialect: Dialect,
        source: &ScanSource<'_>,
        key: Option<&str>,
        by: Option<&str>,
        sum: Option<&str>,
    ) -> Lookup {
        let ident = |c: &str| dialect.ident(c);
        let compared: Vec<String> = source.compared.iter().map(|c| ident(c)).collect();
        let id = ident(source.id);
        let (key, by, sum) = (key.map(ident), by.map(ident), sum.map(ident));
        let select = dialect.lookup_select(&id, key.as_deref(), by.as_deref(), sum.as_deref(), &compared);
        let id_type = source.table.column(source.id).map(|c| c.data_type.clone()).unwrap_or_default();
        Lookup { dialect, select, table: source.table.sql_name(&dialect), id, id_type }
    }

    /// The statement reading these ids, and their bound values.
    pub fn statement(&self, ids: &[&RowId]) -> (String, Vec<Bind>) {
        let sql = super::fill(
            query_file!(self.dialect.engine(), "lookup.sql"),
            &[
                ("select", &self.select),
                ("table", &self.table),
                ("id", &self.id),
                ("ids", &self.dialect.id_placeholders(ids.len(), &self.id_type)),
            ],
        );
        let binds = ids.iter().map(|id| self.dialect.id_bind(id)).collect();
        (sql, binds)
    }
}
