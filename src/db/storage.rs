//! A table's storage, by engine: rows, table, index and overflow bytes from
//! the engine's own figures, and the rows written each day.

use anyhow::{Context, Result};
use serde::Serialize;

use super::catalog::{Table, query_file};
use super::dialect::StorageFigures;
use super::times::TimeColumn;
use super::{Bind, Db};
use crate::units;

#[derive(Debug, Serialize)]
pub struct Storage {
    pub rows: u64,
    pub rows_exact: bool,
    pub table_bytes: Option<u64>,
    pub index_bytes: Option<u64>,
    /// TOAST on PostgreSQL, overflow pages on SQLite; InnoDB counts them in the table.
    pub overflow_bytes: Option<u64>,
    pub total_bytes: u64,
    pub bytes_per_row: Option<f64>,
    /// When the engine's statistics were last refreshed, where it says.
    pub stats_as_of: Option<String>,
}

/// A count read as text; none is zero.
fn count(value: Option<String>) -> u64 {
    value.and_then(|v| v.parse::<f64>().ok()).map_or(0, |v| v.max(0.0) as u64)
}

pub async fn storage(db: &mut Db, target: &Table, exact: bool, notes: &mut Vec<String>) -> Result<Storage> {
    let engine = db.engine();
    let dialect = db.dialect();
    let figures = dialect.storage_figures();
    let table = target.sql_name(&dialect);
    let binds = [Bind::Text(target.schema.clone()), Bind::Text(target.name.clone())];
    if figures == StorageFigures::InnoDbStatistics {
        // MySQL 8 caches these figures for a day unless told otherwise; MariaDB
        // has no such cache (nor the variable).
        let _ = db.raw(crate::db::dialect::query_file!(mysql, "size_stats_fresh.sql")).await;
    }
    let template = query_file!(engine, "size_storage.sql");
    let rows = match db.query_text(&super::fill(template, &[("table", &table)]), &binds).await {
        Ok(rows) => rows,
        // An SQLite built without dbstat: the whole file's pages.
        Err(e) if figures == StorageFigures::Counted && format!("{e:#}").contains("dbstat") => {
            notes.push("this SQLite has no dbstat table: the size is the whole database file's".to_string());
            let pages = crate::db::dialect::query_file!(sqlite, "size_pages.sql");
            db.query_text(&super::fill(pages, &[("table", &table)]), &[]).await?
        }
        Err(e) => return Err(e.context("reading the table's size")),
    };
    let row = rows.into_iter().next().context("the catalog has no size for the table")?;
    let int = |i: usize| row.get(i).cloned().flatten().and_then(|v| v.parse::<f64>().ok()).map(|v| v.max(0.0) as u64);
    let estimate = row.first().cloned().flatten().and_then(|v| v.parse::<f64>().ok());
    let (mut table_bytes, mut index_bytes, overflow_bytes) = (int(1), int(2), int(3));
    let mut total_bytes =
        int(4).unwrap_or_else(|| table_bytes.unwrap_or(0) + index_bytes.unwrap_or(0) + overflow_bytes.unwrap_or(0));
    let mut stats_as_of = row.get(5).cloned().flatten();
    if figures == StorageFigures::InnoDbStatistics {
        // InnoDB's own record of when it last computed the statistics, if readable.
        let when = crate::db::dialect::query_file!(mysql, "size_stats_time.sql");
        if let Ok(Some(at)) = db.query_value(when, &binds).await {
            stats_as_of = Some(at);
        }
        // Right after a bulk load the statistics can still describe an empty
        // table; the table's file, where it is readable, is current.
        if let Some(file) = innodb_file_bytes(db, target).await
            && file > total_bytes.saturating_mul(2)
            && file - total_bytes >= STALE_STATS_SLACK
        {
            notes.push(format!(
                "InnoDB's statistics lag behind the table ({} by them, {} on disk): the total is the table's file, \
                 table and indexes together; ANALYZE TABLE refreshes the statistics",
                units::human_bytes(total_bytes as f64),
                units::human_bytes(file as f64)
            ));
            (table_bytes, index_bytes, total_bytes) = (None, None, file);
        }
    }
    let (rows, rows_exact) = match (figures, estimate) {
        (StorageFigures::Counted, Some(n)) => (n as u64, true),
        (_, Some(n)) if !exact && n >= 0.0 => (n as u64, false),
        (_, estimate) => {
            if !exact && estimate.is_some_and(|n| n < 0.0) {
                notes.push("the table was never analyzed: its rows were counted".to_string());
            }
            let sql = super::fill(crate::db::dialect::query_file!(shared, "count_rows.sql"), &[("table", &table)]);
            (count(db.query_value(&sql, &[]).await?), true)
        }
    };
    if figures == StorageFigures::InnoDbStatistics && !rows_exact {
        notes.push(format!(
            "MySQL/MariaDB figures come from InnoDB's statistics{}: ANALYZE TABLE refreshes them; --exact counts the rows",
            stats_as_of.as_deref().map(|t| format!(" as of {t}")).unwrap_or_default()
        ));
    }
    let bytes_per_row = (rows > 0).then(|| round_to(total_bytes as f64 / rows as f64, 1));
    Ok(Storage { rows, rows_exact, table_bytes, index_bytes, overflow_bytes, total_bytes, bytes_per_row, stats_as_of })
}

/// A file bigger than the statistics' total by this much, and twice it, means
/// the statistics are stale: an empty InnoDB file already takes some space.
const STALE_STATS_SLACK: u64 = 4 * 1024 * 1024;

/// The size of an InnoDB table's own file, where the server shows it (the
/// PROCESS privilege, innodb_file_per_table): MariaDB's view, else MySQL 8's.
async fn innodb_file_bytes(db: &mut Db, table: &Table) -> Option<u64> {
    let name = Bind::Text(format!("{}/{}", table.schema, table.name));
    for sql in [
        crate::db::dialect::query_file!(mysql, "size_file_mariadb.sql"),
        crate::db::dialect::query_file!(mysql, "size_file_mysql.sql"),
    ] {
        if let Ok(Some(size)) = db.query_value(sql, std::slice::from_ref(&name)).await {
            return size.parse().ok();
        }
    }
    None
}

/// `v` rounded to `digits` decimal places.
pub fn round_to(v: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (v * scale).round() / scale
}

/// Rows whose `time` falls in each `seconds`-long span (UTC hours for 3600)
/// from `since_us` (microseconds) on, future times included, as (spans since
/// the epoch, rows); spans without rows absent. `rows_before` counts the rest.
pub async fn writes_by(
    db: &mut Db,
    table: &Table,
    time: &TimeColumn,
    since_us: i64,
    seconds: i64,
) -> Result<Vec<(i64, u64)>> {
    let dialect = db.dialect();
    let col = dialect.ident(&time.name);
    let (since, bind) = dialect.time_bound(&col, time.repr, true, since_us, 1);
    let sql = super::fill(
        crate::db::dialect::query_file!(shared, "size_writes.sql"),
        &[
            ("bucket", &dialect.epoch_bucket(&col, time.repr, seconds)),
            ("table", &table.sql_name(&dialect)),
            ("since", &since),
        ],
    );
    let binds: Vec<Bind> = bind.into_iter().collect();
    let counted = db.query_text(&sql, &binds).await.context("counting the rows written")?;
    Ok(counted
        .into_iter()
        .filter_map(|row| {
            let bucket =
                row.first().cloned().flatten().and_then(|d| d.parse::<f64>().ok()).map(|d| d.floor() as i64)?;
            let n = row.get(1).cloned().flatten().and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
            Some((bucket, n))
        })
        .collect())
}

/// Rows whose `time` is before `since_us`, or NULL.
pub async fn rows_before(db: &mut Db, table: &Table, time: &TimeColumn, since_us: i64) -> Result<u64> {
    let dialect = db.dialect();
    let col = dialect.ident(&time.name);
    let (before, bind) = dialect.time_bound(&col, time.repr, false, since_us, 1);
    let sql = super::fill(
        crate::db::dialect::query_file!(shared, "count_matching.sql"),
        &[("table", &table.sql_name(&dialect)), ("condition", &format!("{before} OR {col} IS NULL"))],
    );
    let binds: Vec<Bind> = bind.into_iter().collect();
    Ok(count(db.query_value(&sql, &binds).await.context("counting the rows written before")?))
}
