//! Partitioned tables: a table's leaf partitions with their bounds, sizes and
//! nesting (PostgreSQL's declarative partitions, MySQL's and MariaDB's), and
//! the range bounds on a time column read as instants, so that a writer can
//! tell a partition wholly past a horizon. SQLite has none.

use anyhow::Result;
use serde::Serialize;

use super::catalog::Table;
use super::dialect::TimeRepr;
use super::{Bind, Db};

/// How a partition's rows are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    Range,
    List,
    Hash,
    /// PostgreSQL's default partition: the rows no other one takes.
    Default,
}

/// One leaf partition.
#[derive(Debug, Clone, Serialize)]
pub struct Partition {
    pub name: String,
    #[serde(skip)]
    pub schema: String,
    /// Its bound as the server writes it (`FOR VALUES FROM (...) TO (...)`,
    /// `LESS THAN ('2026-11-02')`).
    pub bound: String,
    pub strategy: Strategy,
    /// The column the bound is on, when the key is one plain column (or one
    /// the server's functions of it, on MySQL: `TO_DAYS(col)`).
    #[serde(skip)]
    pub key: Option<Key>,
    pub rows_estimate: u64,
    pub bytes: u64,
    /// 1 for a partition of the table, 2 for a partition of one of those.
    pub level: u32,
    /// Its direct parent: the table, or the partition it belongs to (on
    /// MySQL the partition a subpartition is part of).
    #[serde(skip)]
    pub parent: String,
    /// Whether its parent has a default partition (PostgreSQL).
    #[serde(skip)]
    pub parent_has_default: bool,
    /// A range's exclusive upper bound as written, unless it is open.
    #[serde(skip)]
    upper: Option<String>,
}

/// A partition key on one column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub column: String,
    /// How the bound's values read as the column's: as they are, or through
    /// MySQL's `TO_DAYS` or `UNIX_TIMESTAMP`.
    pub through: Through,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Through {
    Value,
    ToDays,
    UnixTimestamp,
}

impl Partition {
    /// The quoted name to read or write the partition's rows by: a table of
    /// its own on PostgreSQL; on MySQL the table with a `PARTITION` clause.
    pub fn sql_name(&self, db: &Db, table: &Table) -> String {
        let dialect = db.dialect();
        dialect.partition_sql(&table.sql_name(&dialect), self)
    }

    /// The range's exclusive upper bound as written, unless it is open.
    pub fn upper(&self) -> Option<&str> {
        self.upper.as_deref()
    }
}

/// The upper bound of a range as the server writes it: PostgreSQL's
/// `FOR VALUES FROM (a) TO (b)`, MySQL's `b`; `None` for an open one
/// (`MAXVALUE`) or a bound on several columns.
fn upper_of(bound: &str) -> Option<String> {
    let text = match bound.find(" TO (") {
        Some(at) => bound[at + 5..].trim_end().strip_suffix(')')?,
        None => bound.trim(),
    };
    (!text.eq_ignore_ascii_case("MAXVALUE") && !text.contains(',') && !text.is_empty()).then(|| text.to_string())
}

/// The leaf partitions of a table, nested ones included; none for a table
/// that is not partitioned.
pub async fn leaves(db: &mut Db, table: &Table) -> Result<Vec<Partition>> {
    let dialect = db.dialect();
    let Some((sql, binds)) = dialect.partitions_query(&table.schema, &table.name, &table.sql_name(&dialect)) else {
        return Ok(Vec::new());
    };
    let rows = db.query_text(sql, &binds).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let cell = |i: usize| row.get(i).cloned().flatten().unwrap_or_default();
            let number = |i: usize| cell(i).parse::<f64>().map_or(0, |v| v.max(0.0) as u64);
            let bound = cell(2);
            let method = cell(3).to_uppercase();
            let strategy = if dialect.has_default_partitions() && bound == "DEFAULT" {
                Strategy::Default
            } else {
                match method.as_str() {
                    "R" | "RANGE" | "RANGE COLUMNS" => Strategy::Range,
                    "L" | "LIST" | "LIST COLUMNS" => Strategy::List,
                    _ => Strategy::Hash,
                }
            };
            let key = key_of(&cell(4), dialect.partition_keys_through_functions());
            let upper = (strategy == Strategy::Range).then(|| upper_of(&bound)).flatten();
            let bound_text = if strategy == Strategy::Range { dialect.range_bound_shown(bound) } else { bound };
            Partition {
                schema: cell(0),
                name: cell(1),
                bound: bound_text,
                strategy,
                key,
                rows_estimate: number(5),
                bytes: number(6),
                level: cell(7).parse().unwrap_or(1),
                parent: cell(8),
                parent_has_default: cell(9) == "default",
                upper,
            }
        })
        .collect())
}

/// The column a partition key is on: a plain column, or where keys may be
/// functions (MySQL) one seen through `TO_DAYS` or `UNIX_TIMESTAMP`; `None`
/// for anything else.
fn key_of(text: &str, functions: bool) -> Option<Key> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if !functions {
        return Some(Key { column: text.to_string(), through: Through::Value });
    }
    let bare = |t: &str| {
        let t = t.trim().trim_matches('`');
        (!t.contains(['(', ')', ',', ' ', '`'])).then(|| t.to_string())
    };
    let lower = text.to_lowercase();
    for (function, through) in [("to_days(", Through::ToDays), ("unix_timestamp(", Through::UnixTimestamp)] {
        if let Some(inner) = lower.strip_prefix(function).and_then(|rest| rest.strip_suffix(')')) {
            let start = function.len();
            let inner = &text[start..start + inner.len()];
            return bare(inner).map(|column| Key { column, through });
        }
    }
    bare(text).map(|column| Key { column, through: Through::Value })
}

/// A range partition's upper bound as microseconds since the epoch, for a
/// time column read as `repr`; `None` where it is open or not a time.
pub async fn upper_micros(db: &mut Db, table: &Table, partition: &Partition, repr: TimeRepr) -> Result<Option<i64>> {
    let (Some(upper), Some(key)) = (partition.upper(), &partition.key) else { return Ok(None) };
    let Ok(column) = table.column(&key.column) else { return Ok(None) };
    let dialect = db.dialect();
    let value = match (key.through, repr) {
        (Through::ToDays, _) => format!("TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', FROM_DAYS({upper}))"),
        (Through::UnixTimestamp, _) => format!("CAST({upper} AS SIGNED) * 1000000"),
        (Through::Value, TimeRepr::Native { .. }) => {
            let Some(micros) = dialect.native_upper_micros(upper, &column.data_type, repr) else { return Ok(None) };
            micros
        }
        (Through::Value, TimeRepr::EpochSeconds) => format!("({upper}) * 1000000"),
        (Through::Value, TimeRepr::EpochMillis) => format!("({upper}) * 1000"),
        (Through::Value, TimeRepr::SqliteDynamic { .. }) => return Ok(None),
    };
    let micros = db.query_value(&format!("SELECT {}", dialect.text(&value)), &[]).await?;
    Ok(micros.and_then(|m| m.parse::<f64>().ok()).map(|m| m as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upper_bounds() {
        assert_eq!(
            upper_of("FOR VALUES FROM ('2026-11-01 00:00:00+00') TO ('2026-11-02 00:00:00+00')").as_deref(),
            Some("'2026-11-02 00:00:00+00'")
        );
        assert_eq!(upper_of("FOR VALUES FROM ('2026-11-01') TO (MAXVALUE)"), None);
        assert_eq!(upper_of("'2026-11-02'").as_deref(), Some("'2026-11-02'"));
        assert_eq!(upper_of("740287").as_deref(), Some("740287"));
        assert_eq!(upper_of("MAXVALUE"), None);
        assert_eq!(upper_of("FOR VALUES FROM (1, 2) TO (3, 4)"), None);
    }

    #[test]
    fn mysql_keys() {
        assert_eq!(key_of("`created_at`", true), Some(Key { column: "created_at".into(), through: Through::Value }));
        assert_eq!(
            key_of("to_days(`created_at`)", true),
            Some(Key { column: "created_at".into(), through: Through::ToDays })
        );
        assert_eq!(
            key_of("unix_timestamp(`expires_at`)", true),
            Some(Key { column: "expires_at".into(), through: Through::UnixTimestamp })
        );
        assert_eq!(key_of("year(`created_at`)", true), None);
        assert_eq!(key_of("`a`,`b`", true), None);
    }
}

/// What `expire --drop-partitions` did with one partition.
#[derive(Debug, Clone, Serialize)]
pub struct Retired {
    pub name: String,
    pub bound: String,
    /// Its rows, counted when it was checked (every one past the horizon).
    pub rows: u64,
    /// dropped, would-drop (a dry run), or kept with the reason.
    pub outcome: String,
}

/// Marks a partition detached to be dropped, so that a rerun drops it should
/// a run stop between the detach and the drop.
fn marker(parent: &str) -> String {
    format!("idemctl expire: detached from {parent}, every row past the horizon; dropped by the next run")
}

/// Rows of a partition (`sql`: how to read them) and those of them not past
/// the horizon: `expired` is the run's own condition, bound by `binds`.
async fn census(db: &mut Db, sql: &str, expired: &str, binds: &[Bind]) -> Result<(u64, u64)> {
    let query = format!("SELECT count(*), count(CASE WHEN NOT COALESCE(({expired}), FALSE) THEN 1 END) FROM {sql}");
    let row = db.query_text(&query, binds).await?.into_iter().next().unwrap_or_default();
    let n = |i: usize| row.get(i).cloned().flatten().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    Ok((n(0), n(1)))
}

/// Drops a partition whose every row is past the horizon, checked by a
/// count of its rows first; a partition holding a row inside the horizon is
/// kept whatever its bounds say (its rows go by the walk). PostgreSQL
/// detaches it first (`CONCURRENTLY` where the server has it and its parent
/// has no default partition, else in one short transaction with the check),
/// marks it, then drops it; MySQL and MariaDB drop it in one statement.
pub async fn retire(
    db: &mut Db,
    table: &Table,
    leaf: &Partition,
    expired: &str,
    binds: &[Bind],
    dry_run: bool,
) -> Result<Retired> {
    let sql = leaf.sql_name(db, table);
    let dialect = db.dialect();
    let done = |rows: u64, outcome: &str| Retired {
        name: leaf.name.clone(),
        bound: leaf.bound.clone(),
        rows,
        outcome: outcome.to_string(),
    };
    let (rows, live) = census(db, &sql, expired, binds).await?;
    if live > 0 {
        return Ok(done(
            rows,
            &format!("kept: {live} of its rows are not past the horizon (they stay; the rest go by rows)"),
        ));
    }
    if dry_run {
        return Ok(done(rows, "would-drop"));
    }
    match dialect.detaches_partitions() {
        true => {
            let parent = &leaf.parent;
            let concurrent = db
                .query_value("SELECT current_setting('server_version_num')", &[])
                .await?
                .and_then(|v| v.parse::<i64>().ok())
                .is_some_and(|v| v >= 140_000)
                && !leaf.parent_has_default;
            db.execute(&format!("COMMENT ON TABLE {sql} IS {}", dialect.literal(&marker(parent))), &[]).await?;
            if concurrent {
                db.execute(&format!("ALTER TABLE {parent} DETACH PARTITION {sql} CONCURRENTLY"), &[]).await?;
                // Detached, the table takes no new rows: the count is final.
                let (rows, live) = census(db, &sql, expired, binds).await?;
                if live > 0 {
                    db.execute(&format!("ALTER TABLE {parent} ATTACH PARTITION {sql} {}", leaf.bound), &[]).await?;
                    db.execute(&format!("COMMENT ON TABLE {sql} IS NULL"), &[]).await?;
                    return Ok(done(
                        rows,
                        &format!("kept: {live} rows inside the horizon came in while it was checked"),
                    ));
                }
                pause_for_tests(&leaf.name).await?;
                db.execute(&format!("DROP TABLE {sql}"), &[]).await?;
                return Ok(done(rows, "dropped"));
            }
            db.begin_write().await?;
            let detached = async {
                db.execute(&format!("LOCK TABLE {sql} IN ACCESS EXCLUSIVE MODE"), &[]).await?;
                let (rows, live) = census(db, &sql, expired, binds).await?;
                if live == 0 {
                    db.execute(&format!("ALTER TABLE {parent} DETACH PARTITION {sql}"), &[]).await?;
                }
                anyhow::Ok((rows, live))
            }
            .await;
            let (rows, live) = match detached {
                Ok(counts) => {
                    db.commit().await?;
                    counts
                }
                Err(err) => {
                    db.rollback().await;
                    return Err(err);
                }
            };
            if live > 0 {
                db.execute(&format!("COMMENT ON TABLE {sql} IS NULL"), &[]).await?;
                return Ok(done(rows, &format!("kept: {live} rows inside the horizon came in while it was checked")));
            }
            pause_for_tests(&leaf.name).await?;
            db.execute(&format!("DROP TABLE {sql}"), &[]).await?;
            Ok(done(rows, "dropped"))
        }
        false => {
            let name = dialect.ident(&leaf.parent);
            db.execute(&format!("ALTER TABLE {} DROP PARTITION {name}", table.sql_name(&dialect)), &[]).await?;
            Ok(done(rows, "dropped"))
        }
    }
}

/// Tables an earlier run detached from `table` to drop and did not (it
/// stopped between the two): dropped now, once their rows are checked again.
pub async fn drop_leftovers(
    db: &mut Db,
    table: &Table,
    expired: &str,
    binds: &[Bind],
    dry_run: bool,
) -> Result<Vec<Retired>> {
    let dialect = db.dialect();
    if !dialect.detaches_partitions() {
        return Ok(Vec::new());
    }
    let parent = table.sql_name(&dialect);
    // The parent as a partition's bound names it: as the search path spells it.
    let named = db.query_value("SELECT CAST(CAST($1 AS regclass) AS text)", &[Bind::Text(parent.clone())]).await?;
    let marked = marker(named.as_deref().unwrap_or(&parent));
    let rows = db
        .query_text(crate::db::dialect::query_file!(postgres, "detached_leftovers.sql"), &[Bind::Text(marked)])
        .await?;
    let mut out = Vec::new();
    for row in rows {
        let (Some(Some(schema)), Some(Some(name))) = (row.first(), row.get(1)) else { continue };
        let sql = dialect.table(Some(schema), name);
        // A detach CONCURRENTLY that stopped halfway is finished first.
        if row.get(2).cloned().flatten().as_deref() == Some("pending") {
            if dry_run {
                out.push(Retired {
                    name: name.clone(),
                    bound: String::new(),
                    rows: 0,
                    outcome: "would-finish-detach-and-drop".into(),
                });
                continue;
            }
            db.execute(&format!("ALTER TABLE {parent} DETACH PARTITION {sql} FINALIZE"), &[]).await?;
        }
        let (count, live) = census(db, &sql, expired, binds).await?;
        let outcome = if live > 0 {
            "kept: rows inside the horizon (attach it again, or look)".to_string()
        } else if dry_run {
            "would-drop".to_string()
        } else {
            db.execute(&format!("DROP TABLE {sql}"), &[]).await?;
            "dropped".to_string()
        };
        out.push(Retired { name: name.clone(), bound: "detached by an earlier run".into(), rows: count, outcome });
    }
    Ok(out)
}

/// Lets the tests stop a run between a partition's detach and its drop:
/// with `IDEMCTL_TEST_PAUSE_BEFORE_DROP=PATH`, writes `PATH.waiting.NAME`
/// and waits for `PATH.NAME`. Ctrl-C and SIGTERM end the wait, and the
/// run, before the drop: the detached table stays, marked, for the next run.
async fn pause_for_tests(name: &str) -> Result<()> {
    let Some(path) = std::env::var_os("IDEMCTL_TEST_PAUSE_BEFORE_DROP") else { return Ok(()) };
    let path = path.to_string_lossy();
    let _ = std::fs::write(format!("{path}.waiting.{name}"), b"");
    let flag = format!("{path}.{name}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !std::path::Path::new(&flag).exists() && std::time::Instant::now() < deadline {
        if !crate::interrupt::sleep(std::time::Duration::from_millis(20)).await {
            return Err(crate::exit::Interrupted.into());
        }
    }
    Ok(())
}
