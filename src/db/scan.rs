//! How a scan reads a creation table, by engine: the statement that streams
//! (id, created-at, fingerprint) in created-at order, the slices MySQL reads
//! at once, the row estimate for progress, and the lookup that reads the
//! candidate rows' values back by id.

use anyhow::Result;
use chrono::{DateTime, Utc};

use super::catalog::{Table, query_file};
use super::dialect::{ScanColumns, TimeRepr};
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
        crate::db::dialect::query_file!(shared, "id_range.sql"),
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
        .map(|c| (ident(c), source.table.column(c).map(|c| c.base_type.clone()).unwrap_or_default()))
        .collect();
    // A domain over a time type is read as the type it stands for (the
    // binary form COPY sends is named by its base type).
    let created_read = match source.table.column(&source.created_at.name) {
        Ok(column) if column.is_domain() && dialect.has_domains() => {
            format!("CAST({created} AS {})", column.base_type)
        }
        _ => created.clone(),
    };
    let select = dialect.scan_select(&ScanColumns { id: &id, created_at: &created_read, repr, compared: &compared });
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

/// Reads rows by id: the id as text, then any expressions, each as text.
#[derive(Debug, Clone)]
pub struct Lookup {
    dialect: Dialect,
    select: String,
    table: String,
    id: String,
    id_type: String,
}

impl Lookup {
    /// `exprs` are SQL expressions over the table's columns, read as text.
    pub fn new(dialect: Dialect, table: &Table, id: &str, exprs: &[String]) -> Lookup {
        let id_sql = dialect.ident(id);
        let mut list = vec![dialect.text(&id_sql)];
        list.extend(exprs.iter().map(|e| dialect.text(e)));
        let select = list.iter().enumerate().map(|(i, e)| format!("{e} AS idemctl_{i}")).collect::<Vec<_>>().join(", ");
        let id_type = table.column(id).map(|c| c.data_type.clone()).unwrap_or_default();
        Lookup { dialect, select, table: table.sql_name(&dialect), id: id_sql, id_type }
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

/// Rows read to see how time columns follow the created-at column.
pub const OFFSET_SAMPLE: u64 = 10_000;

/// How a time column stands to the creation on the rows sampled.
#[derive(Debug, Clone, Copy)]
pub struct Offsets {
    /// Rows where it is set.
    pub set: u64,
    /// Rows where it is within the bound of the creation.
    pub near: u64,
    /// Rows where it is no earlier than the creation (a second's slack).
    pub not_before: u64,
}

/// The slack before the creation that still counts as not before it.
const BEFORE_US: i64 = 1_000_000;

/// How closely each time column follows the created-at column among the
/// first `OFFSET_SAMPLE` rows: the rows read, and each column's offsets
/// (`near`: within `within_us` of the created-at time).
pub async fn time_offsets(
    db: &mut Db,
    source: &ScanSource<'_>,
    columns: &[(&str, TimeRepr)],
    within_us: i64,
) -> Result<(u64, Vec<Offsets>)> {
    if columns.is_empty() {
        return Ok((0, Vec::new()));
    }
    let dialect = db.dialect();
    let created = dialect.ident(&source.created_at.name);
    let created_us = dialect.epoch_micros(&created, source.created_at.repr);
    let mut inner = vec![format!("{created_us} AS idemctl_c")];
    let mut counts = Vec::new();
    for (i, (column, repr)) in columns.iter().enumerate() {
        let us = dialect.epoch_micros(&dialect.ident(column), *repr);
        inner.push(format!("{us} AS idemctl_{i}"));
        counts.push(format!(
            "count(idemctl_{i}), count(CASE WHEN idemctl_{i} - idemctl_c BETWEEN -{within_us} AND {within_us} THEN 1 END), \
             count(CASE WHEN idemctl_{i} - idemctl_c >= -{BEFORE_US} THEN 1 END)"
        ));
    }
    let sql = super::fill(
        crate::db::dialect::query_file!(shared, "time_offsets.sql"),
        &[
            ("counts", &counts.join(", ")),
            ("inner", &inner.join(", ")),
            ("table", &source.table.sql_name(&dialect)),
            ("created_at", &created),
            ("sample", &OFFSET_SAMPLE.to_string()),
        ],
    );
    let row = db.query_text(&sql, &[]).await?.into_iter().next().unwrap_or_default();
    let n = |i: usize| row.get(i).cloned().flatten().and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0) as u64;
    Ok((
        n(0),
        (0..columns.len())
            .map(|i| Offsets { set: n(1 + 3 * i), near: n(2 + 3 * i), not_before: n(3 + 3 * i) })
            .collect(),
    ))
}

/// The carried columns the engine cannot hash or show as text, with the
/// error it gives: planned, never run, so nothing is read.
pub async fn uncomparable(db: &mut Db, source: &ScanSource<'_>) -> Result<Vec<(String, String)>> {
    let dialect = db.dialect();
    let probe = |columns: &[String]| {
        let typed: Vec<(String, String)> = columns
            .iter()
            .map(|c| (dialect.ident(c), source.table.column(c).map(|c| c.base_type.clone()).unwrap_or_default()))
            .collect();
        let created = dialect.ident(&source.created_at.name);
        let id = dialect.ident(source.id);
        let mut select = dialect.scan_select(&ScanColumns {
            id: &id,
            created_at: &created,
            repr: source.created_at.repr,
            compared: &typed,
        });
        for ((c, _), name) in typed.iter().zip(columns) {
            let ty = source.table.column(name).map(|c| c.data_type.clone()).unwrap_or_default();
            select.push_str(&format!(", {}", dialect.text(&dialect.shown(c, &ty))));
        }
        format!("SELECT {select} FROM {} WHERE 1 = 0", source.table.sql_name(&dialect))
    };
    match db.query_text(&probe(source.compared), &[]).await {
        Ok(_) => return Ok(Vec::new()),
        // A lock wait, a lost connection: the session's fault, not a column's.
        Err(err) if !super::errors::is_type_error(&err) => return Err(err),
        Err(_) => {}
    }
    let mut failed = Vec::new();
    for column in source.compared {
        match db.query_text(&probe(std::slice::from_ref(column)), &[]).await {
            Ok(_) => {}
            Err(err) if super::errors::is_type_error(&err) => {
                failed.push((column.clone(), super::errors::message(&err)))
            }
            Err(err) => return Err(err),
        }
    }
    Ok(failed)
}
