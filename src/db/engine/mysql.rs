//! MySQL and MariaDB: a connection id to `KILL QUERY` by, error numbers,
//! CRC32 hashes for scans, partitions through `TO_DAYS` and
//! `UNIX_TIMESTAMP`, InnoDB's history list and purge, replicas' lag.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use sqlx::error::DatabaseError;
use sqlx::mysql::{MySqlConnectOptions, MySqlDatabaseError};
use sqlx::{AssertSqlSafe, ConnectOptions, Connection};

use super::{Ask, Driver, Engine, ServerId, query_file};
use crate::db::catalog::Table;
use crate::db::dialect::{Appendable, KeyList, ScanColumns, StorageFigures, TimeRepr, null_mark, pairs};
use crate::db::errors::Kind;
use crate::db::pace::{PurgePosition, Replica, parse_purge_position};
use crate::db::session::{self, Registration, Target};
use crate::db::{Access, Bind, Conn, Ctx, Db, Subject, Writer};
use crate::timeparse::Zone;

pub struct MySql;

/// The connect options a target's URL gives (`mariadb:` read as `mysql:`),
/// times in UTC.
fn options(target: &Target) -> Result<MySqlConnectOptions> {
    session::check_url(&target.url, MySql.engine())?;
    let url = match target.url.strip_prefix("mariadb:") {
        Some(rest) => format!("mysql:{rest}"),
        None => target.url.clone(),
    };
    Ok(MySqlConnectOptions::from_str(&url)
        .with_context(|| format!("bad database URL {}", target.shown()))?
        .timezone(Some(String::from("+00:00"))))
}

/// MySQL's and MariaDB's spatial types.
const SPATIAL: &[&str] = &[
    "geometry",
    "point",
    "linestring",
    "polygon",
    "multipoint",
    "multilinestring",
    "multipolygon",
    "geomcollection",
    "geometrycollection",
];

/// A column's hash: the CRC32 of its text form (its binary form for
/// spatial types, which have no text cast); NULL stays NULL.
fn hash(col: &str, ty: &str) -> String {
    let bare = ty.split('(').next().unwrap_or(ty).trim();
    if SPATIAL.contains(&bare) {
        return format!("CRC32(ST_AsWKB({col}))");
    }
    format!("CRC32({col})")
}

/// The first answer of a list of statements (one per server version):
/// the first cell of column `column` of the first that gives one.
async fn first_answer(db: &mut Db, sqls: &str, binds: &[Bind], column: usize) -> Option<String> {
    for sql in sqls.split(";\n") {
        if let Ok(rows) = db.query_text(sql, binds).await
            && let Some(value) = rows.into_iter().next().and_then(|row| row.into_iter().nth(column).flatten())
        {
            return Some(value);
        }
    }
    None
}

impl Driver for MySql {
    fn value_probe(&self, column: &crate::db::catalog::Column, value: &str) -> super::ValueProbe {
        // CAST checks neither an integer type's range nor, in a SELECT,
        // fails: its warnings are what a strict session's write refuses.
        let ty = column.base_type.to_lowercase();
        if let Some(message) = integer_range(&ty, value) {
            return super::ValueProbe::Refused(message);
        }
        match cast_target(&ty) {
            Some(target) => super::ValueProbe::Warned(format!("SELECT CAST(CAST(? AS {target}) AS CHAR)")),
            None => super::ValueProbe::Nothing,
        }
    }

    fn engine(&self) -> Engine {
        Engine::MySql
    }

    fn name(&self) -> &'static str {
        "mysql"
    }

    fn schemes(&self) -> &'static [&'static str] {
        &["mysql", "mariadb"]
    }

    fn default_port(&self) -> Option<u16> {
        Some(3306)
    }

    fn url_params(&self) -> &'static [&'static str] {
        &[
            "sslmode",
            "ssl-mode",
            "sslca",
            "ssl-ca",
            "sslcert",
            "ssl-cert",
            "sslkey",
            "ssl-key",
            "charset",
            "collation",
            "statement-cache-capacity",
            "socket",
            "timezone",
            "time-zone",
        ]
    }

    fn connect<'a>(&'a self, target: Arc<Target>, access: Access, mut ctx: Ctx) -> Ask<'a, Result<Db>> {
        Box::pin(async move {
            let opts = options(&target)?;
            let (conn, id, version) = target
                .within_connect_timeout(async {
                    let mut conn = opts.connect().await?;
                    let (id, version): (u64, String) =
                        sqlx::query_as("SELECT CONNECTION_ID(), VERSION()").fetch_one(&mut conn).await?;
                    Ok((conn, id, version))
                })
                .await?;
            ctx.mariadb = version.contains("MariaDB");
            ctx.tag = format!("/* {} */ ", target.program.replace("*/", ""));
            let server = ServerId { engine: Engine::MySql, id };
            ctx.server = Some(server);
            let statement_limit = ctx.statement_limit;
            let registration = Registration::server(server, target.clone());
            let mut db = Db { registration, conn: Conn::MySql(conn), ctx };
            let wait = session::whole_seconds(target.lock_timeout);
            db.run_owned(format!("SET SESSION lock_wait_timeout = {wait}, innodb_lock_wait_timeout = {wait}")).await?;
            db.set_statement_limit(statement_limit).await?;
            if access == Access::ReadOnly {
                db.raw("SET SESSION TRANSACTION READ ONLY").await?;
                // Scans sort on the server; the 2 MB default sorts in many passes on disk.
                db.raw("SET SESSION sort_buffer_size = GREATEST(@@session.sort_buffer_size, 33554432)").await?;
            }
            Ok(db)
        })
    }

    fn cancel<'a>(&'a self, target: &'a Target, id: u64) -> Ask<'a, Result<()>> {
        Box::pin(async move {
            let mut conn = options(target)?.connect().await?;
            match sqlx::raw_sql(AssertSqlSafe(format!("KILL QUERY {id}"))).execute(&mut conn).await {
                // Unknown thread id: the session has ended, and its statement with it.
                Err(sqlx::Error::Database(e))
                    if e.code().as_deref() == Some("HY000") && e.message().contains("Unknown thread") => {}
                other => {
                    other?;
                }
            }
            conn.close().await?;
            Ok(())
        })
    }

    fn cancel_sql(&self, id: u64) -> String {
        format!("KILL QUERY {id}")
    }

    fn lock_holder<'a>(
        &'a self,
        target: &'a Target,
        subject: &'a Subject,
        id: u64,
    ) -> Ask<'a, Option<(String, String)>> {
        Box::pin(async move {
            let mut side = options(target).ok()?.connect().await.ok()?;
            for sql in query_file!(mysql, "lock_holder.sql").split(";\n") {
                let found: Option<(String, String)> = sqlx::query_as(AssertSqlSafe(sql.to_string()))
                    .bind(&subject.schema)
                    .bind(&subject.name)
                    .bind(id)
                    .fetch_optional(&mut side)
                    .await
                    .ok()
                    .flatten();
                if found.is_some() {
                    return found;
                }
            }
            None
        })
    }

    fn row_wait_sql(&self, wait: Duration) -> Option<String> {
        Some(format!("SET SESSION innodb_lock_wait_timeout = {}", session::whole_seconds(wait)))
    }

    fn statement_limit_sql(&self, ms: u128, mariadb: bool) -> Option<String> {
        Some(match mariadb {
            true => format!("SET SESSION max_statement_time = {}", ms as f64 / 1000.0),
            false => format!("SET SESSION max_execution_time = {ms}"),
        })
    }

    fn writer_setup(&self, writer: Writer) -> Option<&'static str> {
        // reap passes over held keys (FOR UPDATE SKIP LOCKED); expire's
        // batches run at the isolation `writer_purge.sql` sets.
        (writer == Writer::Purge).then_some(query_file!(mysql, "writer_purge.sql"))
    }

    fn lacks_privilege<'a>(&'a self, db: &'a mut Db, table: &'a Table, privilege: &'a str) -> Ask<'a, Result<bool>> {
        Box::pin(async move {
            // EXPLAIN checks the statement's privileges and runs nothing; in a
            // read-only session, one the user may run is refused as read-only.
            let name = table.sql_name(&db.dialect());
            let column = table.primary_key.first().or(table.columns.first().map(|c| &c.name));
            let sql = match (privilege, column) {
                ("DELETE", _) => format!("EXPLAIN DELETE FROM {name} WHERE 1 = 0"),
                ("UPDATE", Some(c)) => {
                    let c = self.ident(c);
                    format!("EXPLAIN UPDATE {name} SET {c} = {c} WHERE 1 = 0")
                }
                _ => return Ok(false),
            };
            let Err(e) = db.query_text(&sql, &[]).await else { return Ok(false) };
            // Refused for another reason than the privilege (read-only, as a
            // dry run's session is; a column that cannot be set): the
            // privilege is there, or the real statement will say. A session's
            // fault (a lock wait, a cancel, a lost connection) stops the run.
            let refused = e.chain().find_map(|c| match c.downcast_ref::<sqlx::Error>() {
                Some(sqlx::Error::Database(d)) => d
                    .try_downcast_ref::<MySqlDatabaseError>()
                    .map(|m| (m.number(), self.fault_kind(d.as_ref()).is_some())),
                _ => None,
            });
            match refused {
                Some((1142, _)) => Ok(true),
                Some((_, false)) if crate::db::errors::fault(&e).is_none() => Ok(false),
                _ => Err(e),
            }
        })
    }

    fn owns_error(&self, db: &dyn DatabaseError) -> bool {
        db.try_downcast_ref::<MySqlDatabaseError>().is_some()
    }

    fn is_row_error(&self, db: &dyn DatabaseError) -> bool {
        // An unhandled user-defined SIGNAL (45000) too.
        db.code().is_some_and(|code| code == "45000" || crate::db::errors::sqlstate_is_row_error(&code))
    }

    fn is_fault_of_session_or_sql(&self, db: &dyn DatabaseError) -> bool {
        let number = db.try_downcast_ref::<MySqlDatabaseError>().map_or(0, MySqlDatabaseError::number);
        // Lock wait, deadlock, query interrupted or timed out, access denied, read-only.
        matches!(number, 1205 | 1213 | 1317 | 1969 | 3024 | 1044 | 1045 | 1142 | 1143 | 1227 | 1290 | 1792)
            || crate::db::errors::sqlstate_is_session_or_sql(&db.code().unwrap_or_default())
    }

    fn is_type_error(&self, db: &dyn DatabaseError) -> bool {
        let number = db.try_downcast_ref::<MySqlDatabaseError>().map_or(0, MySqlDatabaseError::number);
        matches!(number, 1210 | 4078 | 4079) || db.message().contains("Illegal parameter data type")
    }

    fn fault_kind(&self, db: &dyn DatabaseError) -> Option<Kind> {
        match db.try_downcast_ref::<MySqlDatabaseError>()?.number() {
            1205 => Some(Kind::LockWait),
            1969 | 3024 => Some(Kind::StatementTimeout),
            1317 => Some(Kind::Canceled),
            1213 => Some(Kind::Conflict),
            // Connection killed, server shutdown.
            1927 | 1053 | 2006 | 2013 => Some(Kind::ConnectionLost(Some(db.message().to_string()))),
            _ => None,
        }
    }

    fn schema_word(&self, schema: &str) -> String {
        format!("database {schema:?}")
    }

    fn unlisted_table_hint(&self) -> &'static str {
        // The catalog lists only the tables the user holds a privilege on.
        " (or this user holds no privilege on it)"
    }

    fn time_has_zone(&self, data_type: &str) -> bool {
        data_type.starts_with("timestamp") || data_type.contains("with time zone")
    }

    fn key_list(&self) -> KeyList {
        // A row-value IN is read by scanning the table, this by range.
        KeyList::Expanded
    }

    fn scans_in_id_slices(&self) -> bool {
        // MySQL sorts a whole result on one core first.
        true
    }

    fn held_probe(&self) -> Option<&'static str> {
        // Locking reads are refused in a read-only session: the probe has a session of its own.
        Some(" LOCK IN SHARE MODE SKIP LOCKED")
    }

    fn storage_figures(&self) -> StorageFigures {
        StorageFigures::InnoDbStatistics
    }

    fn grammar(&self) -> Box<dyn sqlparser::dialect::Dialect> {
        Box::new(sqlparser::dialect::MySqlDialect {})
    }

    fn ident(&self, name: &str) -> String {
        format!("`{}`", name.replace('`', "``"))
    }

    fn indexable_text_type(&self) -> &'static str {
        // An index holds no unbounded TEXT without a prefix length.
        "VARCHAR(255)"
    }

    fn text(&self, expr: &str) -> String {
        format!("CAST({expr} AS CHAR)")
    }

    fn shown(&self, col: &str, data_type: &str) -> String {
        // Spatial values as WKT and bits as digits: their text casts give bytes.
        let bare = data_type.split('(').next().unwrap_or(data_type).trim();
        match bare {
            _ if SPATIAL.contains(&bare) => format!("ST_AsText({col})"),
            "bit" => format!("BIN({col})"),
            _ => col.to_string(),
        }
    }

    /// A CRC32 of each value, cut to 32 bits and two to a 64-bit number:
    /// half the fields to send, which is most of what a hash costs the server.
    fn scan_select(&self, cols: &ScanColumns<'_>) -> Vec<String> {
        let created = match cols.repr {
            TimeRepr::Native { .. } => cols.created_at.to_string(),
            _ => self.epoch_micros(cols.created_at, cols.repr),
        };
        let mut list = vec![cols.id.to_string(), created];
        let hashed = |i: usize| {
            let (c, ty) = &cols.compared[i];
            format!("COALESCE({}, {})", hash(c, ty), null_mark(i))
        };
        // The bit operators give an unsigned 64-bit number: read as signed.
        list.extend(pairs(cols.compared.len(), &hashed, &|e| format!("CAST({e} AS SIGNED)")));
        list
    }

    fn epoch_micros(&self, col: &str, repr: TimeRepr) -> String {
        match repr {
            // Read as signed: an UNSIGNED epoch column's arithmetic is
            // unsigned too, and a difference below zero is out of range.
            TimeRepr::EpochSeconds => super::epoch_column_micros(col, &format!("CAST({col} AS SIGNED)"), false),
            TimeRepr::EpochMillis => super::epoch_column_micros(col, &format!("CAST({col} AS SIGNED)"), true),
            TimeRepr::Native { .. } => format!("TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', {col})"),
            TimeRepr::SqliteDynamic { .. } => unreachable!("SQLite representation on mysql"),
        }
    }

    fn seconds_micros(&self, col: &str, _data_type: &str) -> String {
        format!("CAST({col} AS SIGNED) * 1000000")
    }

    /// CONVERT_TZ: a named zone needs the server's time zone tables.
    fn zoneless_to_utc(&self, expr: &str, zone: &Zone) -> Option<String> {
        Some(match zone {
            Zone::Utc => expr.to_string(),
            zone => format!("CONVERT_TZ({expr}, {}, '+00:00')", self.literal(&zone.to_string())),
        })
    }

    fn check_zone<'a>(&'a self, db: &'a mut Db, zone: &'a Zone) -> Ask<'a, Result<()>> {
        Box::pin(async move {
            let Zone::Named(name) = zone else { return Ok(()) };
            let sql = "SELECT CONVERT_TZ('2026-01-01 00:00:00', ?, '+00:00')";
            match db.query_value(sql, &[Bind::Text(name.clone())]).await? {
                Some(_) => Ok(()),
                None => bail!(
                    "--time-zone {name}: the server cannot convert by it (an unknown name, or its time zone tables \
                     are not loaded: mysql_tzinfo_to_sql loads them); give the zone as an offset such as +08:00"
                ),
            }
        })
    }

    fn append(&self, col: &str, _data_type: &str, _to: &Appendable, value: &str) -> String {
        format!("JSON_ARRAY_APPEND(COALESCE({col}, '[]'), '$', {value})")
    }

    fn append_holds(&self, col: &str, _data_type: &str, _to: &Appendable) -> Option<String> {
        // JSON_ARRAY_APPEND wraps an object in an array, and makes invalid JSON NULL.
        Some(format!("({col} IS NULL OR (JSON_VALID({col}) AND JSON_TYPE({col}) = 'ARRAY'))"))
    }

    fn utc_to_zoneless(&self, expr: &str, zone: &Zone) -> Option<String> {
        Some(match zone {
            Zone::Utc => expr.to_string(),
            zone => format!("CONVERT_TZ({expr}, '+00:00', {})", self.literal(&zone.to_string())),
        })
    }

    fn int_div(&self) -> &'static str {
        "DIV"
    }

    fn native_time_bound(&self, col: &str, _repr: TimeRepr, op: &str, p: &str, t_us: i64) -> (String, Bind) {
        let t = crate::timeparse::from_micros(t_us);
        (format!("{col} {op} {p}"), Bind::Text(t.format("%Y-%m-%d %H:%M:%S%.6f").to_string()))
    }

    fn partitions_query(&self, schema: &str, name: &str, _as_sql: &str) -> Option<(&'static str, Vec<Bind>)> {
        let binds = vec![Bind::Text(schema.to_string()), Bind::Text(name.to_string())];
        Some((query_file!(mysql, "partitions.sql"), binds))
    }

    fn partition_keys_through_functions(&self) -> bool {
        true
    }

    fn range_bound_shown(&self, bound: String) -> String {
        format!("LESS THAN ({bound})")
    }

    /// A global status variable (`Threads_running`, any other by name).
    fn load<'a>(&'a self, db: &'a mut Db, name: &'a str) -> Ask<'a, Result<f64>> {
        Box::pin(async move {
            let binds = [Bind::Text(name.to_string())];
            let value = first_answer(db, query_file!(mysql, "status_variable.sql"), &binds, 1).await;
            let value = crate::db::pace::figure(name, value)?;
            // Threads_running counts the session asking: the run's own, which
            // PostgreSQL's count of the other active backends leaves out.
            Ok(match name.eq_ignore_ascii_case("threads_running") {
                true => (value - 1.0).max(0.0),
                false => value,
            })
        })
    }

    fn replica<'a>(&'a self, db: &'a mut Db) -> Ask<'a, Result<Replica>> {
        Box::pin(async move {
            for sql in query_file!(mysql, "replica_status.sql").split(";\n") {
                let mut found: Option<Option<i64>> = None;
                let attempt = db
                    .for_each_row(sql, &[], |row| {
                        found = row.named_int(&["Seconds_Behind_Source", "Seconds_Behind_Master"]);
                        Ok(())
                    })
                    .await;
                if attempt.is_err() {
                    continue;
                }
                return match found {
                    None => bail!("is not a replica (no replication configured)"),
                    Some(None) => Ok(Replica::Stopped),
                    Some(Some(seconds)) => Ok(Replica::Behind(Duration::from_secs(seconds.max(0) as u64))),
                };
            }
            bail!("cannot read its replication status (SHOW REPLICA STATUS needs REPLICATION CLIENT)")
        })
    }

    fn history_length<'a>(&'a self, db: &'a mut Db) -> Ask<'a, Option<u64>> {
        Box::pin(async move {
            let value = first_answer(db, query_file!(mysql, "history_length.sql"), &[], 0).await?;
            value.trim().parse::<f64>().ok().map(|n| n as u64)
        })
    }

    /// From `SHOW ENGINE INNODB STATUS` (it needs the PROCESS privilege).
    fn purge_position<'a>(&'a self, db: &'a mut Db) -> Ask<'a, Option<PurgePosition>> {
        Box::pin(async move {
            let rows = db.query_text(query_file!(mysql, "innodb_status.sql"), &[]).await.ok()?;
            parse_purge_position(&rows.into_iter().next()?.into_iter().nth(2).flatten()?)
        })
    }

    fn oldest_transaction<'a>(&'a self, db: &'a mut Db) -> Ask<'a, Option<String>> {
        Box::pin(async move { db.query_value(query_file!(mysql, "oldest_transaction.sql"), &[]).await.ok()? })
    }

    /// The table's AUTO_INCREMENT: ids handed out and rolled back count too.
    fn next_minted_id<'a>(&'a self, db: &'a mut Db, schema: &'a str, name: &'a str) -> Ask<'a, Option<i64>> {
        Box::pin(async move {
            let sql = query_file!(mysql, "size_auto_increment.sql");
            let binds = [Bind::Text(schema.to_string()), Bind::Text(name.to_string())];
            db.query_value(sql, &binds).await.ok()??.parse::<i64>().ok()
        })
    }
}

/// An integer column's range, which `CAST(... AS SIGNED)` does not check.
fn integer_range(ty: &str, value: &str) -> Option<String> {
    let unsigned = ty.contains("unsigned");
    let bits = match ty.split(['(', ' ']).next()? {
        "tinyint" => 8,
        "smallint" => 16,
        "mediumint" => 24,
        "int" | "integer" => 32,
        "bigint" => 64,
        _ => return None,
    };
    let n: i128 = value.trim().parse().ok()?;
    let (lo, hi) = match unsigned {
        true => (0, (1i128 << bits) - 1),
        false => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
    };
    (n < lo || n > hi).then(|| format!("Out of range value for column ({ty}): {n}"))
}

/// The CAST target closest to a column type; `None` where a cast says
/// nothing (text, blobs, enums: judged by their lists).
fn cast_target(ty: &str) -> Option<String> {
    let name = ty.split(['(', ' ']).next()?;
    let args = ty.split_once('(').and_then(|(_, r)| r.split(')').next()).unwrap_or("");
    Some(match name {
        "tinyint" | "smallint" | "mediumint" | "int" | "integer" | "bigint" | "bit" | "year" => {
            if ty.contains("unsigned") { "UNSIGNED".into() } else { "SIGNED".into() }
        }
        "decimal" | "numeric" => match args.is_empty() {
            true => "DECIMAL".into(),
            false => format!("DECIMAL({args})"),
        },
        "float" | "double" | "real" => "DOUBLE".into(),
        "date" => "DATE".into(),
        "datetime" | "timestamp" => "DATETIME(6)".into(),
        "time" => "TIME(6)".into(),
        "json" => "JSON".into(),
        _ => return None,
    })
}

#[cfg(test)]
mod value_tests {
    use super::*;

    #[test]
    fn ranges_and_casts() {
        assert!(integer_range("tinyint(4)", "300").is_some());
        assert!(integer_range("tinyint(3) unsigned", "-1").is_some());
        assert!(integer_range("int(11)", "2147483647").is_none());
        assert!(integer_range("int(11)", "2147483648").is_some());
        assert_eq!(cast_target("decimal(4,2)").as_deref(), Some("DECIMAL(4,2)"));
        assert_eq!(cast_target("varchar(20)"), None);
    }
}
