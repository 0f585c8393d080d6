//! The dialect layer: every SQL fragment that differs by engine.

use super::{Bind, Engine};
use crate::window::RowId;

/// The text of `queries/<engine>/FILE`, compiled in: each engine's own SQL,
/// the one way SQL files are included. `query_file!(postgres, "x.sql")`
/// for a query one engine has (no other engine needs a file of that name);
/// `query_file!(engine, "x.sql")` for one every engine has;
/// `query_file!(shared, "x.sql")` for `queries/x.sql`, which every engine
/// runs as written.
macro_rules! query_file {
    (shared, $file:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/queries/", $file))
    };
    (postgres, $file:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/queries/postgres/", $file))
    };
    (mysql, $file:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/queries/mysql/", $file))
    };
    (sqlite, $file:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/queries/sqlite/", $file))
    };
    ($engine:expr, $file:literal) => {
        match $engine {
            $crate::db::Engine::Postgres => $crate::db::dialect::query_file!(postgres, $file),
            $crate::db::Engine::MySql => $crate::db::dialect::query_file!(mysql, $file),
            $crate::db::Engine::Sqlite => $crate::db::dialect::query_file!(sqlite, $file),
        }
    };
}
pub(crate) use query_file;

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

/// A column's 64-bit hash by its type's own extended hash function (the type
/// a domain stands for), seeded by its position; NULL stays NULL. Arrays and
/// every other type hash their text form, which every type has.
fn pg_hash(col: &str, base_type: &str, seed: i64) -> String {
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

/// The 32-bit mark a NULL of carried column `i` sends in place of a hash:
/// equal for NULLs, and unlike a value's hash but by a 2^-32 chance.
fn null_mark(i: usize) -> u64 {
    4_294_967_295 - i as u64
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

/// A column's hash on MySQL and MariaDB: the CRC32 of its text form (its
/// binary form for spatial types, which have no text cast); NULL stays NULL.
fn my_hash(col: &str, ty: &str) -> String {
    let bare = ty.split('(').next().unwrap_or(ty).trim();
    if SPATIAL.contains(&bare) {
        return format!("CRC32(ST_AsWKB({col}))");
    }
    format!("CRC32({col})")
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

    /// Whether tables live in schemas a name can be qualified by (`schema.table`).
    pub fn has_schemas(&self) -> bool {
        !matches!(self.engine, Engine::Sqlite)
    }

    /// What a schema is called, for messages.
    pub fn schema_word(&self, schema: &str) -> String {
        match self.engine {
            Engine::Postgres => format!("schema {schema:?}"),
            Engine::MySql => format!("database {schema:?}"),
            Engine::Sqlite => "the database".to_string(),
        }
    }

    /// A type as the catalog spells it, kept for casts and compared in lower
    /// case: PostgreSQL's format_type spells built-in types in lower case and
    /// quotes user types as they must be written (an enum "Key_Status").
    pub fn type_spelling(&self, catalog: String) -> String {
        match self.engine {
            Engine::Postgres => catalog,
            Engine::MySql | Engine::Sqlite => catalog.to_lowercase(),
        }
    }

    /// Whether an INTEGER PRIMARY KEY is the table's rowid (SQLite): its order
    /// is the table's, with no index of its own, and a table without a
    /// primary key still has one to walk.
    pub fn has_rowid(&self) -> bool {
        matches!(self.engine, Engine::Sqlite)
    }

    /// Whether any value may sit in any column (SQLite), so that a time
    /// column's values are read one by one whatever its declared type.
    pub fn dynamic_types(&self) -> bool {
        matches!(self.engine, Engine::Sqlite)
    }

    /// Whether a native time type holds an instant (a zone), not a wall-clock time.
    pub fn time_has_zone(&self, data_type: &str) -> bool {
        data_type.contains("with time zone") || (self.engine == Engine::MySql && data_type.starts_with("timestamp"))
    }

    /// How a set of composite keys is written in a condition.
    pub fn key_list(&self) -> KeyList {
        match self.engine {
            Engine::Postgres => KeyList::RowValues,
            Engine::Sqlite => KeyList::RowValuesFromValues,
            Engine::MySql => KeyList::Expanded,
        }
    }

    /// Whether a scan reads a large table in id slices, each sorted by a
    /// session of its own (MySQL sorts a whole result on one core first).
    pub fn scans_in_id_slices(&self) -> bool {
        matches!(self.engine, Engine::MySql)
    }

    /// A row id bound for a lookup: PostgreSQL casts text on the server, so
    /// ids of every type bind alike.
    pub fn id_bind(&self, id: &RowId) -> Bind {
        match (self.engine, id) {
            (Engine::Postgres, id) => Bind::Text(id.to_string()),
            (_, RowId::Int(n)) => Bind::Int(*n),
            (_, RowId::Text(t)) => Bind::Text(t.to_string()),
        }
    }

    /// A condition true for rows a live transaction holds (locked, or changed
    /// and not committed), readable in a read-only session: the row's xmax is
    /// a transaction the current snapshot does not see as over. `None` where
    /// only a locking read can tell.
    pub fn held_condition(&self) -> Option<&'static str> {
        match self.engine {
            // The row's 32-bit xmax widened to a full transaction id next to
            // the snapshot's (a signed distance, so that it wraps right).
            Engine::Postgres => Some(
                "(xmax <> '0' AND NOT txid_visible_in_snapshot(txid_snapshot_xmax(txid_current_snapshot()) \
                 + ((xmax::text::int8 - txid_snapshot_xmax(txid_current_snapshot()) % 4294967296 + 6442450944) \
                 % 4294967296 - 2147483648), txid_current_snapshot()))",
            ),
            Engine::MySql | Engine::Sqlite => None,
        }
    }

    /// The clause of a locking read that passes over rows a live transaction
    /// holds and keeps no lock past its statement (autocommit), for telling
    /// held keys apart where `held_condition` cannot: MySQL refuses locking
    /// reads in a read-only session, so the probe has a session of its own.
    pub fn held_probe(&self) -> Option<&'static str> {
        match self.engine {
            Engine::MySql => Some(" LOCK IN SHARE MODE SKIP LOCKED"),
            Engine::Postgres | Engine::Sqlite => None,
        }
    }

    /// Where a table's storage figures come from.
    pub fn storage_figures(&self) -> StorageFigures {
        match self.engine {
            Engine::Postgres => StorageFigures::Catalog,
            Engine::MySql => StorageFigures::InnoDbStatistics,
            Engine::Sqlite => StorageFigures::Counted,
        }
    }

    /// The grammar `--where`, `--in-progress-when` and `--verify-sql` are read with.
    pub fn grammar(&self) -> Box<dyn sqlparser::dialect::Dialect> {
        match self.engine {
            Engine::Postgres => Box::new(sqlparser::dialect::PostgreSqlDialect {}),
            Engine::MySql => Box::new(sqlparser::dialect::MySqlDialect {}),
            Engine::Sqlite => Box::new(sqlparser::dialect::SQLiteDialect {}),
        }
    }

    /// A quoted identifier: the name as the catalog spells it, whatever it holds.
    pub fn ident(&self, name: &str) -> String {
        match self.engine {
            Engine::MySql => format!("`{}`", name.replace('`', "``")),
            Engine::Postgres | Engine::Sqlite => format!("\"{}\"", name.replace('"', "\"\"")),
        }
    }

    /// A quoted, possibly schema-qualified table name.
    pub fn table(&self, schema: Option<&str>, name: &str) -> String {
        match schema {
            Some(schema) => format!("{}.{}", self.ident(schema), self.ident(name)),
            None => self.ident(name),
        }
    }

    /// The statement that opens a writing transaction: SQLite's takes the
    /// database's write lock at once, so that what was read stays as read.
    pub fn begin_write(&self) -> &'static str {
        match self.engine {
            Engine::Sqlite => "BEGIN IMMEDIATE",
            Engine::Postgres | Engine::MySql => "BEGIN",
        }
    }

    /// The clause that locks the rows a SELECT reads, passing over rows a live
    /// transaction holds; `None` where the engine locks the whole database.
    pub fn skip_locked(&self) -> Option<&'static str> {
        match self.engine {
            Engine::Postgres | Engine::MySql => Some(" FOR UPDATE SKIP LOCKED"),
            Engine::Sqlite => None,
        }
    }

    /// The placeholder for the `n`th (1-based) bound value.
    pub fn placeholder(&self, n: usize) -> String {
        match self.engine {
            Engine::Postgres => format!("${n}"),
            Engine::MySql | Engine::Sqlite => "?".to_string(),
        }
    }

    /// The placeholder for the `n`th value, cast to a column's type where the
    /// engine needs it: PostgreSQL binds text as text, which compares with no
    /// integer, uuid or enum. No cast for an empty type.
    pub fn typed_placeholder(&self, n: usize, data_type: &str) -> String {
        match self.engine {
            Engine::Postgres if !data_type.is_empty() => format!("CAST({} AS {data_type})", self.placeholder(n)),
            _ => self.placeholder(n),
        }
    }

    /// An expression giving the column as text, NULL staying NULL.
    pub fn text(&self, expr: &str) -> String {
        match self.engine {
            Engine::Postgres => format!("({expr})::text"),
            Engine::MySql => format!("CAST({expr} AS CHAR)"),
            Engine::Sqlite => format!("CAST({expr} AS TEXT)"),
        }
    }

    /// A column as people read it, before `text`: spatial values as WKT and
    /// bits as digits on MySQL and MariaDB (their text casts give bytes).
    pub fn shown(&self, col: &str, data_type: &str) -> String {
        let bare = data_type.split('(').next().unwrap_or(data_type).trim();
        match self.engine {
            Engine::MySql if SPATIAL.contains(&bare) => format!("ST_AsText({col})"),
            Engine::MySql if bare == "bit" => format!("BIN({col})"),
            _ => col.to_string(),
        }
    }

    /// A column compared with a bound text value: as it is, or on PostgreSQL
    /// through its text form when its type is not text (an enum or a domain
    /// over one has no `=` with text).
    pub fn comparable_text(&self, col: &str, data_type: &str) -> String {
        let textual = ["text", "character", "varchar", "citext", "name", "bpchar"];
        match self.engine {
            Engine::Postgres if !textual.iter().any(|t| data_type.starts_with(t)) => format!("CAST({col} AS text)"),
            _ => col.to_string(),
        }
    }

    /// The scan's select list: id, created-at, then the carried columns'
    /// hashes (`RowView::column_hashes` reads them from column 2 on).
    ///
    /// PostgreSQL sends each type's own hash, MySQL a CRC32 of each value,
    /// cut to 32 bits and two to a 64-bit number (NULL as its column's own
    /// mark): half the fields to send, which is most of what a hash costs the
    /// server, and hashes only group (clusters are confirmed on the values
    /// afterwards). SQLite runs in this process and hands over its values in
    /// place, hashed as they are read.
    pub fn scan_select(&self, cols: &ScanColumns<'_>) -> String {
        let mut list = vec![cols.id.to_string()];
        let pairs = |hash: &dyn Fn(usize) -> String, cast: &dyn Fn(String) -> String| -> Vec<String> {
            (0..cols.compared.len())
                .step_by(2)
                .map(|i| match i + 1 < cols.compared.len() {
                    true => cast(format!("({} & 4294967295) | ({} << 32)", hash(i), hash(i + 1))),
                    false => cast(format!("({} & 4294967295)", hash(i))),
                })
                .collect()
        };
        match self.engine {
            Engine::Postgres => {
                list.push(cols.created_at.to_string());
                let hash = |i: usize| {
                    let (c, ty) = &cols.compared[i];
                    format!("coalesce({}, {})", pg_hash(c, ty, i as i64 + 1), null_mark(i))
                };
                list.extend(pairs(&hash, &|e| e));
            }
            Engine::MySql => {
                list.push(match cols.repr {
                    TimeRepr::Native { .. } => cols.created_at.to_string(),
                    _ => self.epoch_micros(cols.created_at, cols.repr),
                });
                let hash = |i: usize| {
                    let (c, ty) = &cols.compared[i];
                    format!("COALESCE({}, {})", my_hash(c, ty), null_mark(i))
                };
                // The bit operators give an unsigned 64-bit number: read as signed.
                list.extend(pairs(&hash, &|e| format!("CAST({e} AS SIGNED)")));
            }
            Engine::Sqlite => {
                list.push(cols.created_at.to_string());
                list.extend(cols.compared.iter().map(|(c, _)| c.clone()));
            }
        }
        aliased(&list)
    }

    /// `n` placeholders for ids, each cast to the id column's type on PostgreSQL.
    pub fn id_placeholders(&self, n: usize, id_type: &str) -> String {
        (1..=n).map(|i| self.typed_placeholder(i, id_type)).collect::<Vec<_>>().join(", ")
    }

    /// An expression giving a time column as integer microseconds since the
    /// epoch; NULL where an epoch value is not a plausible time in its unit
    /// (`times::plausible`), or an SQLite value is not readable as a time.
    pub fn epoch_micros(&self, col: &str, repr: TimeRepr) -> String {
        let guarded = |millis: bool, scaled: String| {
            let (lo, hi) = super::times::plausible(millis);
            format!("CASE WHEN {col} BETWEEN {lo} AND {hi} THEN {scaled} END")
        };
        match (self.engine, repr) {
            // An int4 column of seconds times a million overflows int4.
            (Engine::Postgres, TimeRepr::EpochSeconds) => guarded(false, format!("({col})::int8 * 1000000")),
            (Engine::Postgres, TimeRepr::EpochMillis) => guarded(true, format!("({col})::int8 * 1000")),
            (_, TimeRepr::EpochSeconds) => guarded(false, format!("({col}) * 1000000")),
            (_, TimeRepr::EpochMillis) => guarded(true, format!("({col}) * 1000")),
            (Engine::Postgres, TimeRepr::Native { .. }) => {
                // date_part gives double precision: exact to the microsecond for
                // any instant of this era, and much cheaper than numeric extract.
                format!("round(date_part('epoch', {col}) * 1000000)::int8")
            }
            (Engine::MySql, TimeRepr::Native { .. }) => {
                format!("TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', {col})")
            }
            // Registered on every SQLite connection (`times::register_sqlite_functions`).
            (Engine::Sqlite, TimeRepr::SqliteDynamic { millis }) => format!("idemctl_us({col}, {})", u8::from(millis)),
            (Engine::Sqlite, TimeRepr::Native { .. }) | (_, TimeRepr::SqliteDynamic { .. }) => {
                unreachable!("time representation {repr:?} does not occur on {}", self.engine.name())
            }
        }
    }

    /// `sql` as the engine's own client runs it: on SQLite, `idemctl_us(col,
    /// millis)` (a function of idemctl's connections) spelled in built-in
    /// SQL: integers as epoch numbers, reals as Julian days, text through
    /// `julianday`, to the millisecond. Other engines' SQL is unchanged.
    pub fn for_people(&self, sql: &str) -> String {
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

    /// The number of whole `seconds`-long spans since the epoch at `col` (UTC
    /// days for 86400, hours for 3600); NULL for an epoch value out of range.
    pub fn epoch_bucket(&self, col: &str, repr: TimeRepr, seconds: i64) -> String {
        let div = if self.engine == Engine::MySql { "DIV" } else { "/" };
        match (self.engine, repr) {
            (_, TimeRepr::EpochSeconds | TimeRepr::EpochMillis) => {
                let millis = repr == TimeRepr::EpochMillis;
                let (lo, hi) = super::times::plausible(millis);
                let per = if millis { seconds * 1000 } else { seconds };
                format!("(CASE WHEN {col} BETWEEN {lo} AND {hi} THEN {col} END) {div} {per}")
            }
            (Engine::Postgres, TimeRepr::Native { .. }) => {
                format!("floor(date_part('epoch', {col}) / {seconds})::int8")
            }
            _ => format!("({}) {div} {}", self.epoch_micros(col, repr), seconds * 1_000_000),
        }
    }

    /// A condition `col >= t` (or `col < t` when `!at_least`) that the engine can
    /// answer from an index on the column, and the value to bind to it. On
    /// PostgreSQL the value is written into the SQL (scans stream through COPY,
    /// which takes no bound values); it is a number or a time formatted here.
    pub fn time_bound(&self, col: &str, repr: TimeRepr, at_least: bool, t_us: i64, n: usize) -> (String, Option<Bind>) {
        let (cond, bind) = self.time_bound_bound(col, repr, at_least, t_us, n);
        if self.engine != Engine::Postgres {
            return (cond, Some(bind));
        }
        let value = match bind {
            Bind::Int(v) => v.to_string(),
            Bind::Text(t) => super::pg::literal(&t),
            Bind::Null => "NULL".to_string(),
        };
        (cond.replace(&self.placeholder(n), &value), None)
    }

    fn time_bound_bound(&self, col: &str, repr: TimeRepr, at_least: bool, t_us: i64, n: usize) -> (String, Bind) {
        let op = if at_least { ">=" } else { "<" };
        let p = self.placeholder(n);
        let t = crate::timeparse::from_micros(t_us);
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
        match (self.engine, repr) {
            (_, TimeRepr::EpochSeconds) => epoch(false, ceil_div(t_us, 1_000_000)),
            (_, TimeRepr::EpochMillis) => epoch(true, ceil_div(t_us, 1_000)),
            (Engine::Postgres, TimeRepr::Native { with_zone: true }) => {
                (format!("{col} {op} CAST({p} AS timestamptz)"), Bind::Text(crate::timeparse::rfc3339(t)))
            }
            (Engine::Postgres, TimeRepr::Native { with_zone: false }) => (
                format!("{col} {op} (CAST({p} AS timestamptz) AT TIME ZONE 'UTC')"),
                Bind::Text(crate::timeparse::rfc3339(t)),
            ),
            (Engine::MySql, _) => {
                (format!("{col} {op} {p}"), Bind::Text(t.format("%Y-%m-%d %H:%M:%S%.6f").to_string()))
            }
            (Engine::Sqlite, _) => (format!("({}) {op} {p}", self.epoch_micros(col, repr)), Bind::Int(t_us)),
            (Engine::Postgres, TimeRepr::SqliteDynamic { .. }) => {
                unreachable!("SQLite representation on postgres")
            }
        }
    }
}

/// `a / b` rounded up, for instants between two whole units.
fn ceil_div(a: i64, b: i64) -> i64 {
    let q = a.div_euclid(b);
    if a.rem_euclid(b) == 0 { q } else { q + 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_quoted_per_engine() {
        assert_eq!(Dialect::new(Engine::Postgres).ident(r#"Ord "x""#), r#""Ord ""x""""#);
        assert_eq!(Dialect::new(Engine::MySql).ident("a`b c"), "`a``b c`");
        assert_eq!(Dialect::new(Engine::Sqlite).table(Some("main"), "t"), r#""main"."t""#);
    }

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
