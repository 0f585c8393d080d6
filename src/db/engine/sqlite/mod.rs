//! SQLite: a file in this process, watched by its own busy and progress
//! handlers; extended result codes; values hashed as read through the C
//! API (`scan.rs`); any value in any column; the rowid.

use std::str::FromStr;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use sqlx::ConnectOptions;
use sqlx::error::DatabaseError;
use sqlx::sqlite::{SqliteConnectOptions, SqliteError};

use super::{Ask, Driver, Engine};
use crate::db::dialect::{Appendable, KeyList, ScanColumns, StorageFigures, TimeRepr};
use crate::db::errors::Kind;
use crate::db::pace::Replica;
use crate::db::session::{Registration, Target};
use crate::db::{Access, Bind, Conn, Ctx, Db};
use crate::timeparse::Zone;

mod functions;
pub(in crate::db) mod scan;
mod watch;
pub(in crate::db) use watch::LiteWatch;

pub struct Sqlite;

/// A column's text without a zone of its own (`Z`, `+08:00` at its end)
/// moved back by the zone's offset, to UTC.
fn to_utc(col: &str, zone: &Zone) -> Option<String> {
    let minutes = match zone {
        Zone::Utc => return Some(col.to_string()),
        Zone::Offset(minutes) => -minutes,
        Zone::Named(_) => return None,
    };
    Some(format!(
        "(CASE WHEN typeof({col}) = 'text' AND {col} NOT LIKE '%Z' AND {col} NOT GLOB '*[+-][0-9][0-9]:[0-9][0-9]' \
         THEN strftime('%Y-%m-%d %H:%M:%f', {col}, '{minutes:+} minutes') ELSE {col} END)"
    ))
}

/// An error's primary result code.
fn primary_code(db: &dyn DatabaseError) -> i64 {
    db.code().and_then(|c| c.parse::<i64>().ok()).unwrap_or(0) & 0xff
}

impl Driver for Sqlite {
    fn keeps_lengths(&self) -> bool {
        false
    }

    fn value_probe(&self, column: &crate::db::catalog::Column, _value: &str) -> super::ValueProbe {
        // An ordinary table stores any value; a STRICT one checks INTEGER and REAL.
        let ty = column.base_type.to_lowercase();
        let affinity = if ty.contains("int") {
            "INTEGER"
        } else if ty.contains("real") || ty.contains("floa") || ty.contains("doub") {
            "REAL"
        } else {
            return super::ValueProbe::Nothing;
        };
        super::ValueProbe::Fits(format!(
            "SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?2 \
               AND lower(rtrim(sql)) LIKE '%strict') \
             OR CAST(CAST(?1 AS {affinity}) AS TEXT) = ?1 OR CAST(?1 AS {affinity}) = ?1 THEN '1' ELSE '0' END"
        ))
    }

    fn engine(&self) -> Engine {
        Engine::Sqlite
    }

    fn name(&self) -> &'static str {
        "sqlite"
    }

    fn schemes(&self) -> &'static [&'static str] {
        &["sqlite"]
    }

    fn url_params(&self) -> &'static [&'static str] {
        &["mode", "cache", "immutable", "vfs"]
    }

    fn connect<'a>(&'a self, target: Arc<Target>, access: Access, mut ctx: Ctx) -> Ask<'a, Result<Db>> {
        Box::pin(async move {
            let opts = SqliteConnectOptions::from_str(&target.url)
                .with_context(|| format!("bad database URL {}", target.shown()))?
                .create_if_missing(false)
                .read_only(access == Access::ReadOnly);
            let path = opts.get_filename().to_path_buf();
            if !path.as_os_str().is_empty() && path.as_os_str() != ":memory:" && !path.exists() {
                bail!("no SQLite database at {}", path.display());
            }
            let mut conn = target.within_connect_timeout(opts.connect()).await?;
            let watch = LiteWatch::new(target.lock_timeout);
            {
                let mut handle = conn.lock_handle().await?;
                let raw = handle.as_raw_handle().as_ptr();
                // SAFETY: the locked handle keeps sqlx's worker off the connection meanwhile.
                unsafe {
                    functions::register(raw)?;
                    watch.install(raw);
                }
            }
            ctx.lite = Some(watch);
            Ok(Db { registration: Registration::embedded(), conn: Conn::Sqlite(conn, path), ctx })
        })
    }

    fn owns_error(&self, db: &dyn DatabaseError) -> bool {
        db.try_downcast_ref::<SqliteError>().is_some()
    }

    fn is_row_error(&self, db: &dyn DatabaseError) -> bool {
        // SQLITE_CONSTRAINT: constraints, and triggers that RAISE.
        primary_code(db) == 19
    }

    fn is_fault_of_session_or_sql(&self, db: &dyn DatabaseError) -> bool {
        // BUSY, LOCKED, READONLY, INTERRUPT, IOERR, CORRUPT, FULL, CANTOPEN, AUTH;
        // a missing table or column is SQLITE_ERROR with its own words.
        matches!(primary_code(db), 5 | 6 | 8 | 9 | 10 | 11 | 13 | 14 | 23) || db.message().starts_with("no such")
    }

    fn fault_kind(&self, db: &dyn DatabaseError) -> Option<Kind> {
        match primary_code(db) {
            5 | 6 => Some(Kind::LockWait),
            9 => Some(Kind::Canceled),
            _ => None,
        }
    }

    fn schema_word(&self, _schema: &str) -> String {
        "the database".to_string()
    }

    fn has_schemas(&self) -> bool {
        false
    }

    fn has_rowid(&self) -> bool {
        true
    }

    fn dynamic_types(&self) -> bool {
        true
    }

    fn key_list(&self) -> KeyList {
        // Row values only from VALUES.
        KeyList::RowValuesFromValues
    }

    fn storage_figures(&self) -> StorageFigures {
        StorageFigures::Counted
    }

    fn grammar(&self) -> Box<dyn sqlparser::dialect::Dialect> {
        Box::new(sqlparser::dialect::SQLiteDialect {})
    }

    fn begin_write(&self) -> &'static str {
        // Takes the database's write lock at once, so that what was read stays as read.
        "BEGIN IMMEDIATE"
    }

    fn skip_locked(&self) -> Option<&'static str> {
        // The write lock is the whole database's.
        None
    }

    fn text(&self, expr: &str) -> String {
        format!("CAST({expr} AS TEXT)")
    }

    /// The values themselves: this process hashes them as they are read.
    fn scan_select(&self, cols: &ScanColumns<'_>) -> Vec<String> {
        let mut list = vec![cols.id.to_string(), cols.created_at.to_string()];
        list.extend(cols.compared.iter().map(|(c, _)| c.clone()));
        list
    }

    fn epoch_micros(&self, col: &str, repr: TimeRepr) -> String {
        match repr {
            TimeRepr::EpochSeconds => super::epoch_column_micros(col, &format!("({col})"), false),
            TimeRepr::EpochMillis => super::epoch_column_micros(col, &format!("({col})"), true),
            // Registered on every SQLite connection (`functions::register`).
            TimeRepr::SqliteDynamic { millis } => format!("idemctl_us({col}, {})", u8::from(millis)),
            TimeRepr::Native { .. } => unreachable!("native time representation on sqlite"),
        }
    }

    fn native_time_bound(&self, col: &str, repr: TimeRepr, op: &str, p: &str, t_us: i64) -> (String, Bind) {
        (format!("({}) {op} {p}", self.epoch_micros(col, repr)), Bind::Int(t_us))
    }

    /// Text without a zone of its own moved by a fixed offset (SQLite has no
    /// zone data: a named zone is refused); numbers and text that carry a
    /// zone are instants already.
    fn zoneless_to_utc(&self, expr: &str, zone: &Zone) -> Option<String> {
        to_utc(expr, zone)
    }

    fn append(&self, col: &str, _data_type: &str, _to: &Appendable, value: &str) -> String {
        format!("json_insert(COALESCE({col}, '[]'), '$[#]', {value})")
    }

    fn append_holds(&self, col: &str, _data_type: &str, _to: &Appendable) -> Option<String> {
        // json_insert fails on text that is not JSON, and adds nothing to a scalar.
        Some(format!("({col} IS NULL OR CASE WHEN json_valid({col}) THEN json_type({col}) = 'array' ELSE 0 END)"))
    }

    /// A time idemctl writes (a bound value, named once): always text.
    fn utc_to_zoneless(&self, expr: &str, zone: &Zone) -> Option<String> {
        match zone {
            Zone::Utc => Some(expr.to_string()),
            Zone::Offset(minutes) => Some(format!("strftime('%Y-%m-%d %H:%M:%f', {expr}, '{minutes:+} minutes')")),
            Zone::Named(_) => None,
        }
    }

    fn check_zone<'a>(&'a self, _db: &'a mut Db, zone: &'a Zone) -> Ask<'a, Result<()>> {
        Box::pin(async move {
            match zone {
                Zone::Named(name) => {
                    bail!("--time-zone {name}: SQLite has no time zone data; give the zone's offset, such as +08:00")
                }
                Zone::Utc | Zone::Offset(_) => Ok(()),
            }
        })
    }

    /// SQLite's own text form of a time (`datetime()`'s), to the millisecond.
    fn time_value(&self, t_us: i64) -> Bind {
        Bind::Text(crate::timeparse::from_micros(t_us).format("%Y-%m-%d %H:%M:%S%.3f").to_string())
    }

    /// `idemctl_us(col, millis)` (a function of idemctl's connections)
    /// spelled in built-in SQL, for the sqlite3 shell: integers as epoch
    /// numbers, reals as Julian days, text through `julianday`, to the
    /// millisecond.
    fn for_people(&self, sql: &str) -> String {
        const CALL: &str = "idemctl_us(";
        let mut out = String::with_capacity(sql.len());
        let mut rest = sql;
        while let Some(at) = rest.find(CALL) {
            out.push_str(&rest[..at]);
            let args = &rest[at + CALL.len()..];
            let mut depth = 1;
            let Some(end) = args.char_indices().find_map(|(i, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                (depth == 0).then_some(i)
            }) else {
                break;
            };
            let Some((col, millis)) = args[..end].rsplit_once(", ") else { break };
            let scale = if millis.trim() == "1" { 1_000 } else { 1_000_000 };
            out.push_str(&format!(
                "(CASE typeof({col}) WHEN 'integer' THEN {col} * {scale} \
                 WHEN 'real' THEN CAST(round(({col} - 2440587.5) * 86400000) AS INTEGER) * 1000 \
                 ELSE CAST(round((julianday({col}) - 2440587.5) * 86400000) AS INTEGER) * 1000 END)"
            ));
            rest = &args[end + 1..];
        }
        out.push_str(rest);
        out
    }

    fn load<'a>(&'a self, _db: &'a mut Db, _name: &'a str) -> Ask<'a, Result<f64>> {
        Box::pin(async { bail!("--max-load and --critical-load need a server: SQLite has no load figure") })
    }

    fn replica<'a>(&'a self, _db: &'a mut Db) -> Ask<'a, Result<Replica>> {
        Box::pin(async { bail!("SQLite has no replicas") })
    }

    fn implicit_row_id(&self) -> Option<&'static str> {
        Some("rowid")
    }
}

#[cfg(test)]
mod tests {
    use crate::db::{Dialect, Engine, TimeRepr};

    /// The SQL a dry run shows for SQLite runs in the sqlite3 shell (no
    /// idemctl_us there) and reads times as idemctl's own function does.
    #[tokio::test]
    async fn sqlite_sql_for_people_needs_no_function_of_ours() {
        use sqlx::Connection;
        let dialect = Dialect::new(Engine::Sqlite);
        let ours = dialect.epoch_micros("v", TimeRepr::SqliteDynamic { millis: false });
        assert!(ours.contains("idemctl_us"));
        let shown = dialect.for_people(&format!("SELECT {ours} FROM t WHERE {ours} < ?"));
        assert!(!shown.contains("idemctl_us"), "{shown}");
        let mut c = sqlx::SqliteConnection::connect("sqlite::memory:").await.unwrap();
        let expr = dialect.for_people(&ours);
        let at = 1_767_225_600_000_000_i64; // 2026-01-01T00:00:00Z
        for (value, expected) in [
            ("'2026-01-01 00:00:00'", Some(at)),
            ("'2026-01-01T01:00:00.250+01:00'", Some(at + 250_000)),
            ("'2026-01-01T00:00:00Z'", Some(at)),
            ("1767225600", Some(at)),
            ("2461041.5", Some(at)),
            ("NULL", None),
        ] {
            let sql = format!("SELECT {expr} FROM (SELECT {value} AS v)");
            let got: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).fetch_one(&mut c).await.unwrap();
            assert_eq!(got, expected, "{value}");
        }
    }
}
