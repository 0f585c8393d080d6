//! PostgreSQL: libpq's URL, a backend pid to cancel by, SQLSTATE codes,
//! each type's own hash for scans, binary COPY for bulk reads (`copy.rs`),
//! declarative partitions, the WAL and VACUUM.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use sqlx::error::DatabaseError;
use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection};

use super::{Ask, Driver, Engine, ServerId, query_file};
use crate::db::dialect::{Appendable, KeyList, ScanColumns, StorageFigures, TimeRepr, null_mark, pairs};
use crate::db::errors::Kind;
use crate::db::pace::{Replica, lsn};
use crate::db::session::{self, Registration, Target};
use crate::db::{Access, Bind, Conn, Ctx, Db, Subject, Writer};
use crate::timeparse::Zone;
use crate::window::RowId;

pub(in crate::db) mod copy;

pub struct Postgres;

/// The connect options a target's URL gives, named for the program.
fn options(target: &Target) -> Result<PgConnectOptions> {
    session::check_url(&target.url, Postgres.engine())?;
    let opts =
        PgConnectOptions::from_str(&target.url).with_context(|| format!("bad database URL {}", target.shown()))?;
    Ok(match opts.get_application_name() {
        Some(_) => opts,
        None => opts.application_name(&target.program),
    })
}

/// A column's 64-bit hash by its type's own extended hash function (the type
/// a domain stands for), seeded by its position; NULL stays NULL. Arrays and
/// every other type hash their text form, which every type has.
fn hash(col: &str, base_type: &str, seed: i64) -> String {
    let call = |func: &str, arg: String| format!("{func}({arg}, {seed})");
    let ty = base_type;
    if ty.ends_with(']') {
        return call("hashtextextended", format!("{col}::text"));
    }
    let bare = ty.split('(').next().unwrap_or(ty).trim();
    match bare {
        "smallint" => call("hashint2extended", col.to_string()),
        "integer" => call("hashint4extended", col.to_string()),
        "bigint" => call("hashint8extended", col.to_string()),
        "real" => call("hashfloat4extended", col.to_string()),
        "double precision" => call("hashfloat8extended", col.to_string()),
        "boolean" => call("hashint4extended", format!("{col}::int")),
        "uuid" => call("uuid_hash_extended", col.to_string()),
        "jsonb" => call("jsonb_hash_extended", col.to_string()),
        "date" => call("hashint4extended", format!("({col} - DATE '2000-01-01')")),
        "text" | "name" | "character varying" => call("hashtextextended", col.to_string()),
        "numeric" => call("hash_numeric_extended", col.to_string()),
        "character" => call("hashbpcharextended", col.to_string()),
        _ if ty.starts_with("timestamp") && ty.ends_with("with time zone") => {
            call("timestamp_hash_extended", format!("({col} AT TIME ZONE 'UTC')"))
        }
        _ if ty.starts_with("timestamp") => call("timestamp_hash_extended", col.to_string()),
        _ => call("hashtextextended", format!("{col}::text")),
    }
}

impl Driver for Postgres {
    fn value_probe(&self, column: &crate::db::catalog::Column, _value: &str) -> super::ValueProbe {
        // The write's own cast, so the refusal is the write's error.
        super::ValueProbe::Cast(format!("SELECT CAST(CAST(CAST($1 AS text) AS {}) AS text)", column.data_type))
    }

    fn engine(&self) -> Engine {
        Engine::Postgres
    }

    fn name(&self) -> &'static str {
        "postgres"
    }

    fn schemes(&self) -> &'static [&'static str] {
        &["postgres", "postgresql"]
    }

    fn default_port(&self) -> Option<u16> {
        Some(5432)
    }

    fn url_params(&self) -> &'static [&'static str] {
        &[
            "sslmode",
            "ssl-mode",
            "sslrootcert",
            "ssl-root-cert",
            "ssl-ca",
            "sslcert",
            "ssl-cert",
            "sslkey",
            "ssl-key",
            "statement-cache-capacity",
            "host",
            "hostaddr",
            "port",
            "dbname",
            "user",
            "password",
            "application_name",
            "options",
        ]
    }

    fn open_url_param(&self, key: &str) -> bool {
        key.starts_with("options[")
    }

    fn ssl_modes(&self) -> &'static [&'static str] {
        &["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]
    }

    fn connect<'a>(&'a self, target: Arc<Target>, access: Access, mut ctx: Ctx) -> Ask<'a, Result<Db>> {
        Box::pin(async move {
            let lock_ms = target.lock_timeout.as_millis().max(1);
            let statement_ms = target.statement_limit().as_millis();
            let mut opts = options(&target)?.options([
                ("timezone", "UTC".to_string()),
                ("lock_timeout", format!("{lock_ms}ms")),
                ("statement_timeout", format!("{statement_ms}ms")),
            ]);
            if access == Access::ReadOnly {
                opts = opts.options([("default_transaction_read_only", "on")]);
            }
            let (conn, pid) = target
                .within_connect_timeout(async {
                    let mut conn = opts.connect().await?;
                    let pid: i32 = sqlx::query_scalar("SELECT pg_backend_pid()").fetch_one(&mut conn).await?;
                    Ok((conn, pid))
                })
                .await?;
            let server = ServerId { engine: Engine::Postgres, id: pid as u64 };
            ctx.server = Some(server);
            let registration = Registration::server(server, target);
            Ok(Db { registration, conn: Conn::Postgres(conn), ctx })
        })
    }

    fn cancel<'a>(&'a self, target: &'a Target, id: u64) -> Ask<'a, Result<()>> {
        Box::pin(async move {
            let mut conn = options(target)?.connect().await?;
            sqlx::query("SELECT pg_cancel_backend($1)").bind(id as i32).execute(&mut conn).await?;
            conn.close().await?;
            Ok(())
        })
    }

    fn cancel_sql(&self, id: u64) -> String {
        format!("SELECT pg_cancel_backend({id})")
    }

    fn lock_holder<'a>(
        &'a self,
        target: &'a Target,
        subject: &'a Subject,
        id: u64,
    ) -> Ask<'a, Option<(String, String)>> {
        Box::pin(async move {
            let mut side = options(target).ok()?.connect().await.ok()?;
            let sql = query_file!(postgres, "lock_holder.sql");
            sqlx::query_as(sql).bind(&subject.as_sql).bind(id as i32).fetch_optional(&mut side).await.ok()?
        })
    }

    fn row_wait_sql(&self, wait: Duration) -> Option<String> {
        Some(format!("SET lock_timeout = '{}ms'", wait.as_millis().max(1)))
    }

    fn statement_limit_sql(&self, ms: u128, _mariadb: bool) -> Option<String> {
        Some(format!("SET statement_timeout = '{ms}ms'"))
    }

    fn owns_error(&self, db: &dyn DatabaseError) -> bool {
        db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>().is_some()
    }

    fn fault_kind(&self, db: &dyn DatabaseError) -> Option<Kind> {
        crate::db::errors::sqlstate_kind(db)
    }

    fn type_spelling(&self, catalog: String) -> String {
        // format_type spells built-in types in lower case and quotes user
        // types as they must be written (an enum "Key_Status").
        catalog
    }

    fn has_domains(&self) -> bool {
        true
    }

    fn id_bind(&self, id: &RowId) -> Bind {
        // The server casts text, so ids of every type bind alike.
        Bind::Text(id.to_string())
    }

    fn held_condition(&self) -> Option<&'static str> {
        // The row's 32-bit xmax widened to a full transaction id next to
        // the snapshot's (a signed distance, so that it wraps right).
        Some(
            "(xmax <> '0' AND NOT txid_visible_in_snapshot(txid_snapshot_xmax(txid_current_snapshot()) \
             + ((xmax::text::int8 - txid_snapshot_xmax(txid_current_snapshot()) % 4294967296 + 6442450944) \
             % 4294967296 - 2147483648), txid_current_snapshot()))",
        )
    }

    fn held_by(&self) -> Option<&'static str> {
        // Its comment lines end at their line ends: it splices into a select list.
        Some(query_file!(postgres, "held_by.sql"))
    }

    fn storage_figures(&self) -> StorageFigures {
        StorageFigures::Catalog
    }

    fn grammar(&self) -> Box<dyn sqlparser::dialect::Dialect> {
        Box::new(sqlparser::dialect::PostgreSqlDialect {})
    }

    fn key_list(&self) -> KeyList {
        KeyList::RowValues
    }

    fn placeholder(&self, n: usize) -> String {
        format!("${n}")
    }

    fn typed_placeholder(&self, n: usize, data_type: &str) -> String {
        // Text binds as text, which compares with no integer, uuid or enum.
        match data_type.is_empty() {
            true => self.placeholder(n),
            false => format!("CAST({} AS {data_type})", self.placeholder(n)),
        }
    }

    fn text(&self, expr: &str) -> String {
        format!("({expr})::text")
    }

    fn comparable_text(&self, col: &str, data_type: &str) -> String {
        // An enum or a domain over one has no `=` with text.
        let textual = ["text", "character", "varchar", "citext", "name", "bpchar"];
        match textual.iter().any(|t| data_type.starts_with(t)) {
            true => col.to_string(),
            false => format!("CAST({col} AS text)"),
        }
    }

    /// Each type's own hash, two cut to 32 bits to a 64-bit number.
    fn scan_select(&self, cols: &ScanColumns<'_>) -> Vec<String> {
        let mut list = vec![cols.id.to_string(), cols.created_at.to_string()];
        let hashed = |i: usize| {
            let (c, ty) = &cols.compared[i];
            format!("coalesce({}, {})", hash(c, ty, i as i64 + 1), null_mark(i))
        };
        list.extend(pairs(cols.compared.len(), &hashed, &|e| e));
        list
    }

    fn epoch_micros(&self, col: &str, repr: TimeRepr) -> String {
        match repr {
            // An int4 column of seconds times a million overflows int4.
            TimeRepr::EpochSeconds => super::epoch_column_micros(col, &format!("({col})::int8"), false),
            TimeRepr::EpochMillis => super::epoch_column_micros(col, &format!("({col})::int8"), true),
            // date_part gives double precision: exact to the microsecond for
            // any instant of this era, and much cheaper than numeric extract.
            TimeRepr::Native { .. } => format!("round(date_part('epoch', {col}) * 1000000)::int8"),
            TimeRepr::SqliteDynamic { .. } => unreachable!("SQLite representation on postgres"),
        }
    }

    fn seconds_micros(&self, col: &str, data_type: &str) -> String {
        match data_type.starts_with("interval") {
            true => format!("round(date_part('epoch', {col}) * 1000000)::int8"),
            false => format!("({col})::int8 * 1000000"),
        }
    }

    fn epoch_bucket(&self, col: &str, repr: TimeRepr, seconds: i64) -> String {
        match repr {
            TimeRepr::Native { .. } => format!("floor(date_part('epoch', {col}) / {seconds})::int8"),
            _ => super::epoch_bucket(self, col, repr, seconds),
        }
    }

    fn native_time_bound(&self, col: &str, repr: TimeRepr, op: &str, p: &str, t_us: i64) -> (String, Bind) {
        let t = Bind::Text(crate::timeparse::rfc3339(crate::timeparse::from_micros(t_us)));
        match repr {
            TimeRepr::Native { with_zone: false } => {
                (format!("{col} {op} (CAST({p} AS timestamptz) AT TIME ZONE 'UTC')"), t)
            }
            _ => (format!("{col} {op} CAST({p} AS timestamptz)"), t),
        }
    }

    fn time_value(&self, t_us: i64) -> Bind {
        Bind::Text(crate::timeparse::rfc3339(crate::timeparse::from_micros(t_us)))
    }

    fn zoneless_to_utc(&self, expr: &str, zone: &Zone) -> Option<String> {
        Some(match zone {
            Zone::Utc => expr.to_string(),
            Zone::Named(name) => format!("(({expr}) AT TIME ZONE {} AT TIME ZONE 'UTC')", self.literal(name)),
            Zone::Offset(minutes) => format!("(({expr}) - INTERVAL '{minutes} minutes')"),
        })
    }

    fn check_zone<'a>(&'a self, db: &'a mut Db, zone: &'a Zone) -> Ask<'a, Result<()>> {
        Box::pin(async move {
            let Zone::Named(name) = zone else { return Ok(()) };
            let known = db
                .query_value(
                    "SELECT count(*) FROM pg_catalog.pg_timezone_names WHERE name = $1",
                    &[Bind::Text(name.clone())],
                )
                .await?;
            match known.as_deref() {
                Some("0") => bail!("--time-zone {name}: the server knows no such zone (pg_timezone_names)"),
                _ => Ok(()),
            }
        })
    }

    fn appendable(&self, base_type: &str) -> Option<Appendable> {
        // PostgreSQL has JSON types: text is only text.
        match base_type.strip_suffix("[]") {
            Some(element) => Some(Appendable::Array { element: element.to_string() }),
            None => matches!(base_type, "json" | "jsonb").then_some(Appendable::Json),
        }
    }

    fn json_object(&self, members: &[(String, String)]) -> String {
        let list: Vec<String> = members.iter().map(|(n, v)| format!("{}, {v}", self.literal(n))).collect();
        format!("jsonb_build_object({})", list.join(", "))
    }

    fn append(&self, col: &str, data_type: &str, to: &Appendable, value: &str) -> String {
        match to {
            Appendable::Array { element } => format!("array_append({col}, CAST({value} AS {element}))"),
            Appendable::Json => {
                format!(
                    "CAST(COALESCE(CAST({col} AS jsonb), '[]'::jsonb) || jsonb_build_array({value}) AS {data_type})"
                )
            }
        }
    }

    fn append_holds(&self, col: &str, _data_type: &str, to: &Appendable) -> Option<String> {
        // `||` would make an array of an object and the element.
        (*to == Appendable::Json).then(|| format!("({col} IS NULL OR jsonb_typeof(CAST({col} AS jsonb)) = 'array')"))
    }

    fn utc_to_zoneless(&self, expr: &str, zone: &Zone) -> Option<String> {
        Some(match zone {
            Zone::Utc => expr.to_string(),
            Zone::Named(name) => format!("(({expr}) AT TIME ZONE 'UTC' AT TIME ZONE {})", self.literal(name)),
            Zone::Offset(minutes) => format!("(({expr}) + INTERVAL '{minutes} minutes')"),
        })
    }

    fn writes_time_bounds_in(&self) -> bool {
        true
    }

    fn partitions_query(&self, _schema: &str, _name: &str, as_sql: &str) -> Option<(&'static str, Vec<Bind>)> {
        Some((query_file!(postgres, "partitions.sql"), vec![Bind::Text(as_sql.to_string())]))
    }

    fn has_default_partitions(&self) -> bool {
        true
    }

    fn partition_sql(&self, _table_sql: &str, partition: &crate::db::partitions::Partition) -> String {
        // A partition is a table of its own.
        format!("{}.{}", self.ident(&partition.schema), self.ident(&partition.name))
    }

    fn native_upper_micros(&self, upper: &str, data_type: &str, repr: TimeRepr) -> Option<String> {
        Some(self.epoch_micros(&format!("CAST({upper} AS {data_type})"), repr))
    }

    fn drops_partition_at(&self, _level: u32) -> bool {
        true
    }

    fn walks_leaves(&self) -> bool {
        true
    }

    fn detaches_partitions(&self) -> bool {
        true
    }

    fn can_write_binds(&self, as_sql: &str, privileges: &[&str]) -> Vec<Bind> {
        vec![Bind::Text(as_sql.to_string()), Bind::Text(privileges.join(","))]
    }

    fn has_vacuum(&self) -> bool {
        true
    }

    /// The backends of this database running a statement (asked for as
    /// `Threads_running` or `active`).
    fn load<'a>(&'a self, db: &'a mut Db, name: &'a str) -> Ask<'a, Result<f64>> {
        Box::pin(async move {
            if !name.eq_ignore_ascii_case("threads_running") && !name.eq_ignore_ascii_case("active") {
                bail!("PostgreSQL has no load figure {name}: use Threads_running (the backends running a statement)");
            }
            let value = db.query_value(query_file!(postgres, "active_backends.sql"), &[]).await?;
            crate::db::pace::figure(name, value)
        })
    }

    fn wal_position<'a>(&'a self, db: &'a mut Db) -> Ask<'a, Option<u64>> {
        Box::pin(async move { lsn(&db.query_value(query_file!(postgres, "wal_position.sql"), &[]).await.ok()??) })
    }

    fn replica<'a>(&'a self, db: &'a mut Db) -> Ask<'a, Result<Replica>> {
        Box::pin(async move {
            let row = db.query_text(query_file!(postgres, "replica_lag.sql"), &[]).await?;
            let cells = row.into_iter().next().unwrap_or_default();
            let cell = |i: usize| cells.get(i).cloned().flatten();
            if cell(0).as_deref() != Some("true") {
                bail!("is not a replica (not in recovery)");
            }
            if cell(3).as_deref() == Some("0") {
                return Ok(Replica::Stopped);
            }
            let behind = cell(2).and_then(|s| s.parse::<f64>().ok()).map(|s| Duration::from_secs_f64(s.max(0.0)));
            Ok(Replica::Replayed(cell(1).as_deref().and_then(lsn).unwrap_or(0), behind))
        })
    }

    fn dead_tuples<'a>(&'a self, db: &'a mut Db, table_sql: &'a str) -> Ask<'a, Option<u64>> {
        Box::pin(async move {
            self.flush_statistics(db).await;
            let sql = query_file!(postgres, "dead_tuples.sql");
            db.query_value(sql, &[Bind::Text(table_sql.to_string())]).await.ok()??.parse().ok()
        })
    }

    fn vacuum_session<'a>(&'a self, db: &'a mut Db, table_sql: &'a str) -> Ask<'a, Option<String>> {
        Box::pin(async move {
            let sql = query_file!(postgres, "vacuum_session.sql");
            db.query_value(sql, &[Bind::Text(table_sql.to_string())]).await.ok()?
        })
    }

    fn vacuum_running<'a>(&'a self, db: &'a mut Db, table_sql: &'a str) -> Ask<'a, bool> {
        Box::pin(async move {
            let sql = query_file!(postgres, "vacuum_running.sql");
            db.query_value(sql, &[Bind::Text(table_sql.to_string())]).await.ok().flatten().as_deref() == Some("true")
        })
    }

    /// PostgreSQL 15+: the rows this session's batches deleted reported now
    /// rather than up to a second later (older servers lack the function).
    fn flush_statistics<'a>(&'a self, db: &'a mut Db) -> Ask<'a, ()> {
        Box::pin(async move {
            let _ = db.query_value(query_file!(postgres, "flush_statistics.sql"), &[]).await;
        })
    }

    fn insert_counters<'a>(
        &'a self,
        db: &'a mut Db,
        table_sql: &'a str,
    ) -> Ask<'a, Result<(Option<u64>, Option<u64>)>> {
        Box::pin(async move {
            let sql = query_file!(postgres, "size_counters.sql");
            let row = db.query_text(sql, &[Bind::Text(table_sql.to_string())]).await?;
            let figure =
                |i: usize| row.first().and_then(|r| r.get(i).cloned().flatten()).and_then(|v| v.parse::<u64>().ok());
            Ok((figure(0), figure(1)))
        })
    }

    fn writer_setup(&self, _writer: Writer) -> Option<&'static str> {
        // A batch fails rather than queue live writers behind it: the row
        // wait is all it needs.
        None
    }
}
