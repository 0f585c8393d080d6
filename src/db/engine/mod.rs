//! The engines, each a driver: what one engine knows (its URL and connect
//! options, cancelling a statement, reading its errors, its SQL spellings,
//! its locks, the questions a writing run paces itself by, its partitions
//! and insert counters) is one `impl Driver` in `postgres.rs`, `mysql.rs` or
//! `sqlite.rs`, with its SQL in `queries/<engine>/`. Everything else asks
//! the driver, never the engine's name: `Engine::driver` is the one place an
//! engine is told from another.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, bail};
use futures_util::future::BoxFuture;
use sqlx::error::DatabaseError;

use super::catalog::Table;
use super::dialect::{Appendable, KeyList, ScanColumns, StorageFigures, TimeRepr};
use super::errors::Kind;
use super::pace::{PurgePosition, Replica};
use super::partitions::Partition;
use super::session::Target;
use super::{Access, Bind, Ctx, Db, Subject, Writer};
use crate::timeparse::Zone;
use crate::window::RowId;

mod mysql;
pub(super) mod postgres;
pub(super) mod sqlite;

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
            $crate::db::Engine::Postgres => $crate::db::engine::query_file!(postgres, $file),
            $crate::db::Engine::MySql => $crate::db::engine::query_file!(mysql, $file),
            $crate::db::Engine::Sqlite => $crate::db::engine::query_file!(sqlite, $file),
        }
    };
}
pub(crate) use query_file;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Postgres,
    MySql,
    Sqlite,
}

/// Every engine, in the order URLs are matched against their schemes.
const ENGINES: [Engine; 3] = [Engine::Postgres, Engine::MySql, Engine::Sqlite];

impl Engine {
    /// The engine's driver: the one place an engine is told from another.
    pub(crate) fn driver(self) -> &'static dyn Driver {
        match self {
            Engine::Postgres => &postgres::Postgres,
            Engine::MySql => &mysql::MySql,
            Engine::Sqlite => &sqlite::Sqlite,
        }
    }

    /// The port a URL without one reaches (none for SQLite).
    pub fn default_port(self) -> Option<u16> {
        self.driver().default_port()
    }

    pub fn name(self) -> &'static str {
        self.driver().name()
    }

    /// The engine a URL names by its scheme.
    pub fn of_url(url: &str) -> Result<Engine> {
        let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase()).unwrap_or_default();
        match ENGINES.into_iter().find(|e| e.driver().schemes().contains(&scheme.as_str())) {
            Some(engine) => Ok(engine),
            None => bail!(
                "unsupported database URL {}: use postgres://, postgresql://, mysql://, mariadb:// or sqlite:PATH",
                super::redact(url)
            ),
        }
    }
}

/// The driver whose error `db` is.
pub(super) fn of_error(db: &dyn DatabaseError) -> &'static dyn Driver {
    ENGINES.into_iter().map(Engine::driver).find(|d| d.owns_error(db)).unwrap_or(Engine::Postgres.driver())
}

/// A server session's own id, by which another session cancels its
/// statement (a PostgreSQL backend pid, a MySQL connection id).
#[derive(Debug, Clone, Copy)]
pub(super) struct ServerId {
    pub engine: Engine,
    pub id: u64,
}

/// An answer the server is asked for, on the session that asks.
pub type Ask<'a, T> = BoxFuture<'a, T>;

/// What one engine knows. The methods with a body are what most engines
/// do; an engine overrides what it does otherwise.
/// What a driver asks to learn whether a column would take a value.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueProbe {
    /// The engine stores the value as given.
    Nothing,
    /// Known without asking: the write would be refused, for this reason.
    Refused(String),
    /// A statement the server refuses, with the write's own error, when the value does not fit.
    Cast(String),
    /// A statement after which the session's warnings say what a strict write refuses.
    Warned(String),
    /// A statement returning '1' when the value fits (the table's name bound second).
    Fits(String),
}

pub trait Driver: Sync {
    fn engine(&self) -> Engine;

    /// The name in messages and in `queries/<name>/`.
    fn name(&self) -> &'static str;

    /// The URL schemes that name the engine.
    fn schemes(&self) -> &'static [&'static str];

    fn default_port(&self) -> Option<u16> {
        None
    }

    // ---- Reaching the server ----

    /// The URL parameters the engine's driver reads; it passes over any
    /// other name in silence, so that a misspelt `sslmod=verify-full` would
    /// connect unverified.
    fn url_params(&self) -> &'static [&'static str];

    /// A URL parameter taken whatever its name (PostgreSQL's `options[...]`).
    fn open_url_param(&self, _key: &str) -> bool {
        false
    }

    /// The TLS modes `sslmode` takes.
    fn ssl_modes(&self) -> &'static [&'static str] {
        &["disabled", "preferred", "required", "verify_ca", "verify_identity"]
    }

    /// Opens a session with its timeouts and access set.
    fn connect<'a>(&'a self, target: Arc<Target>, access: Access, ctx: Ctx) -> Ask<'a, Result<Db>>;

    /// Cancels the statement a session runs, from a short session of its own.
    fn cancel<'a>(&'a self, _target: &'a Target, _id: u64) -> Ask<'a, Result<()>> {
        Box::pin(async { Ok(()) })
    }

    /// The SQL a person runs to end a session's statement.
    fn cancel_sql(&self, _id: u64) -> String {
        String::new()
    }

    /// Who holds the lock on the subject a session waits for, and the kind
    /// of hold (`table`, `queued`, `rows`), from a short session of its own.
    fn lock_holder<'a>(
        &'a self,
        _target: &'a Target,
        _subject: &'a Subject,
        _id: u64,
    ) -> Ask<'a, Option<(String, String)>> {
        Box::pin(async { None })
    }

    /// The statement that sets how long a statement waits on rows another
    /// session holds; `None` where the session's own watch bounds it.
    fn row_wait_sql(&self, _wait: Duration) -> Option<String> {
        None
    }

    /// The statement that limits each statement to `ms` (0: no limit).
    fn statement_limit_sql(&self, _ms: u128, _mariadb: bool) -> Option<String> {
        None
    }

    /// The statement a writer's session runs before its batches.
    fn writer_setup(&self, _writer: Writer) -> Option<&'static str> {
        None
    }

    // ---- Errors ----

    /// Whether `db` is this engine's error.
    fn owns_error(&self, db: &dyn DatabaseError) -> bool;

    /// Whether a statement failed because of the rows it touched.
    fn is_row_error(&self, db: &dyn DatabaseError) -> bool {
        db.code().is_some_and(|code| super::errors::sqlstate_is_row_error(&code))
    }

    /// Whether an error says the session cannot go on as it is, or the SQL is wrong.
    fn is_fault_of_session_or_sql(&self, db: &dyn DatabaseError) -> bool {
        super::errors::sqlstate_is_session_or_sql(&db.code().unwrap_or_default())
    }

    /// Whether an error says a function or cast does not take a value's type.
    fn is_type_error(&self, db: &dyn DatabaseError) -> bool {
        matches!(db.code().unwrap_or_default().as_ref(), "42883" | "42804" | "42846" | "42725" | "0A000")
    }

    /// The session fault an error is, where it is one.
    fn fault_kind(&self, db: &dyn DatabaseError) -> Option<Kind>;

    // ---- Spellings ----

    /// What a schema is called, for messages.
    fn schema_word(&self, schema: &str) -> String {
        format!("schema {schema:?}")
    }

    /// Whether tables live in schemas a name can be qualified by (`schema.table`).
    fn has_schemas(&self) -> bool {
        true
    }

    /// A note for a table the catalog does not list.
    fn unlisted_table_hint(&self) -> &'static str {
        ""
    }

    /// A type as the catalog spells it, kept for casts and compared in lower case.
    fn type_spelling(&self, catalog: String) -> String {
        catalog.to_lowercase()
    }

    /// Whether a column's type may be a domain, read as the type it stands for.
    fn has_domains(&self) -> bool {
        false
    }

    /// Whether the engine holds a text to its column's declared length
    /// (`VARCHAR(5)`); SQLite keeps the length as a name and stores the text whole.
    fn keeps_lengths(&self) -> bool {
        true
    }

    /// Whether an INTEGER PRIMARY KEY is the table's rowid: its order is
    /// the table's, with no index of its own, and a table without a primary
    /// key still has one to walk.
    fn has_rowid(&self) -> bool {
        false
    }

    /// Whether any value may sit in any column, so that a time column's
    /// values are read one by one whatever its declared type.
    fn dynamic_types(&self) -> bool {
        false
    }

    /// Whether a native time type holds an instant (a zone), not a wall-clock time.
    fn time_has_zone(&self, data_type: &str) -> bool {
        data_type.contains("with time zone")
    }

    /// How a set of composite keys is written in a condition.
    fn key_list(&self) -> KeyList {
        KeyList::RowValues
    }

    /// Whether a scan reads a large table in id slices, each sorted by a
    /// session of its own.
    fn scans_in_id_slices(&self) -> bool {
        false
    }

    /// A row id bound for a lookup.
    fn id_bind(&self, id: &RowId) -> Bind {
        match id {
            RowId::Int(n) => Bind::Int(*n),
            RowId::Text(t) => Bind::Text(t.to_string()),
        }
    }

    /// A condition true for rows a live transaction holds, readable in a
    /// read-only session; `None` where only a locking read can tell.
    fn held_condition(&self) -> Option<&'static str> {
        None
    }

    /// An expression, beside `held_condition`, naming the session that
    /// holds the row (empty where it cannot be told); `None` where the
    /// engine does not say.
    fn held_by(&self) -> Option<&'static str> {
        None
    }

    /// The clause of a locking read that passes over rows a live
    /// transaction holds and keeps no lock past its statement; `None` where
    /// `held_condition` tells, or nothing can.
    fn held_probe(&self) -> Option<&'static str> {
        None
    }

    /// Where a table's storage figures come from.
    fn storage_figures(&self) -> StorageFigures;

    /// The grammar `--where`, `--in-progress-when` and `--verify-sql` are read with.
    fn grammar(&self) -> Box<dyn sqlparser::dialect::Dialect>;

    /// A text type a unique index can hold, for a column a fix adds.
    fn indexable_text_type(&self) -> &'static str {
        "TEXT"
    }

    /// A quoted identifier: the name as the catalog spells it, whatever it holds.
    fn ident(&self, name: &str) -> String {
        format!("\"{}\"", name.replace('"', "\"\""))
    }

    /// The statement that opens a writing transaction.
    fn begin_write(&self) -> &'static str {
        "BEGIN"
    }

    /// The clause that locks the rows a SELECT reads, passing over rows a
    /// live transaction holds; `None` where the engine locks the whole database.
    fn skip_locked(&self) -> Option<&'static str> {
        Some(" FOR UPDATE SKIP LOCKED")
    }

    /// The placeholder for the `n`th (1-based) bound value.
    fn placeholder(&self, _n: usize) -> String {
        "?".to_string()
    }

    /// The placeholder for the `n`th value, cast to a column's type where
    /// the engine needs it. No cast for an empty type.
    fn typed_placeholder(&self, n: usize, _data_type: &str) -> String {
        self.placeholder(n)
    }

    /// A string literal, for SQL that takes no bound values.
    fn literal(&self, text: &str) -> String {
        format!("'{}'", text.replace('\'', "''"))
    }

    /// An expression giving the column as text, NULL staying NULL.
    fn text(&self, expr: &str) -> String;

    /// A column as people read it, before `text`.
    fn shown(&self, col: &str, _data_type: &str) -> String {
        col.to_string()
    }

    /// How to ask the server whether `column` would take `value` (bound as
    /// the first parameter) with a read-only statement: see `db::accepts`.
    fn value_probe(&self, _column: &super::catalog::Column, _value: &str) -> ValueProbe {
        ValueProbe::Nothing
    }

    /// A column compared with a bound text value.
    fn comparable_text(&self, col: &str, _data_type: &str) -> String {
        col.to_string()
    }

    /// The scan's select list, before its aliases: id, created-at, then the
    /// carried columns (or their hashes).
    fn scan_select(&self, cols: &ScanColumns<'_>) -> Vec<String>;

    /// An expression giving a time column as integer microseconds since the
    /// epoch; NULL where an epoch value is not a plausible time in its unit.
    fn epoch_micros(&self, col: &str, repr: TimeRepr) -> String;

    /// A length of time in a column (whole seconds, or an interval where the
    /// engine has them) as microseconds.
    fn seconds_micros(&self, col: &str, _data_type: &str) -> String {
        format!("CAST({col} AS INTEGER) * 1000000")
    }

    /// The operator of integer division.
    fn int_div(&self) -> &'static str {
        "/"
    }

    /// The number of whole `seconds`-long spans since the epoch at `col`;
    /// NULL for an epoch value out of range.
    fn epoch_bucket(&self, col: &str, repr: TimeRepr, seconds: i64) -> String {
        epoch_bucket(self, col, repr, seconds)
    }

    /// A time column not of epoch numbers compared with a bound instant
    /// (`op` is `>=` or `<`, `p` the placeholder), and the instant's value.
    fn native_time_bound(&self, col: &str, repr: TimeRepr, op: &str, p: &str, t_us: i64) -> (String, Bind);

    /// Whether a time bound is written into the SQL rather than bound
    /// (PostgreSQL's scans stream through COPY, which takes no bound values).
    fn writes_time_bounds_in(&self) -> bool {
        false
    }

    /// An instant as a value to write into a native time column (in UTC,
    /// the session's zone).
    fn time_value(&self, t_us: i64) -> Bind {
        Bind::Text(crate::timeparse::from_micros(t_us).format("%Y-%m-%d %H:%M:%S%.6f").to_string())
    }

    /// A zoneless time written in `zone`, as the same instant's zoneless UTC
    /// time; `None` where the engine cannot convert it.
    fn zoneless_to_utc(&self, _expr: &str, _zone: &Zone) -> Option<String> {
        None
    }

    /// Refuses a zone the server cannot convert by.
    fn check_zone<'a>(&'a self, _db: &'a mut Db, zone: &'a Zone) -> Ask<'a, Result<()>> {
        Box::pin(async move {
            match zone {
                Zone::Utc => Ok(()),
                _ => {
                    bail!("--time-zone {zone}: {} keeps no zone with its times, and idemctl converts none", self.name())
                }
            }
        })
    }

    /// A zoneless UTC time as the wall-clock time of `zone`, for writing.
    fn utc_to_zoneless(&self, _expr: &str, _zone: &Zone) -> Option<String> {
        None
    }

    /// `sql` as the engine's own client runs it.
    fn for_people(&self, sql: &str) -> String {
        sql.to_string()
    }

    // ---- Partitions ----

    /// The leaf partitions of a table, nested ones included: the catalog
    /// query and its values; `None` where tables have no partitions.
    fn partitions_query(&self, _schema: &str, _name: &str, _as_sql: &str) -> Option<(&'static str, Vec<Bind>)> {
        None
    }

    /// Whether a bound written `DEFAULT` marks a default partition.
    fn has_default_partitions(&self) -> bool {
        false
    }

    /// The quoted name a partition's rows are read or written by.
    fn partition_sql(&self, table_sql: &str, partition: &Partition) -> String {
        format!("{table_sql} PARTITION ({})", self.ident(&partition.name))
    }

    /// A range partition's upper bound on a native time column, as an
    /// expression of microseconds since the epoch.
    fn native_upper_micros(&self, upper: &str, _data_type: &str, _repr: TimeRepr) -> Option<String> {
        Some(format!("TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', {upper})"))
    }

    /// Whether a partition at `level` (1 for the parent's own) can be
    /// dropped on its own.
    fn drops_partition_at(&self, level: u32) -> bool {
        level == 1
    }

    /// Whether an expire walks a partitioned table leaf by leaf.
    fn walks_leaves(&self) -> bool {
        false
    }

    /// Whether a partition is detached (and marked) before it is dropped,
    /// rather than dropped from its table in one statement.
    fn detaches_partitions(&self) -> bool {
        false
    }

    /// Whether a partition key may be a function of its column
    /// (`TO_DAYS(col)`, `UNIX_TIMESTAMP(col)`), as the catalog writes it.
    fn partition_keys_through_functions(&self) -> bool {
        false
    }

    /// A range partition's bound as people read it, from the catalog's.
    fn range_bound_shown(&self, bound: String) -> String {
        bound
    }

    // ---- Values reap writes ----

    /// How a column of `base_type` takes `append()`: MySQL and SQLite keep
    /// JSON in text.
    fn appendable(&self, base_type: &str) -> Option<Appendable> {
        let textual = ["json", "text", "longtext", "mediumtext", "tinytext", "varchar", "char", "clob", ""];
        let t = base_type.to_ascii_lowercase();
        textual
            .iter()
            .any(|w| t == *w || (!w.is_empty() && t.starts_with(&format!("{w}("))))
            .then_some(Appendable::Json)
    }

    /// A JSON object of the members: each a name and its value as SQL.
    fn json_object(&self, members: &[(String, String)]) -> String {
        let list: Vec<String> = members.iter().map(|(n, v)| format!("{}, {v}", self.literal(n))).collect();
        format!("JSON_OBJECT({})", list.join(", "))
    }

    /// `col` with `value` added at the end.
    fn append(&self, col: &str, data_type: &str, to: &Appendable, value: &str) -> String;

    /// A condition true where the row's `col` can take `append()` (NULL or
    /// a JSON array); `None` where every value of its type can.
    fn append_holds(&self, col: &str, data_type: &str, to: &Appendable) -> Option<String>;

    // ---- Writing runs ----

    /// Whether this user lacks a privilege on the table that `can_write.sql`
    /// cannot tell (MySQL's, asked by explaining a statement that needs it).
    fn lacks_privilege<'a>(&'a self, _db: &'a mut Db, _table: &'a Table, _privilege: &'a str) -> Ask<'a, Result<bool>> {
        Box::pin(async { Ok(false) })
    }

    /// The values `can_write.sql` takes.
    fn can_write_binds(&self, _as_sql: &str, _privileges: &[&str]) -> Vec<Bind> {
        Vec::new()
    }

    /// Whether `--vacuum` and `--wait-for-autovacuum` can run.
    fn has_vacuum(&self) -> bool {
        false
    }

    /// InnoDB's history list length.
    fn history_length<'a>(&'a self, _db: &'a mut Db) -> Ask<'a, Option<u64>> {
        Box::pin(async { None })
    }

    /// InnoDB's purge position.
    fn purge_position<'a>(&'a self, _db: &'a mut Db) -> Ask<'a, Option<PurgePosition>> {
        Box::pin(async { None })
    }

    /// A load figure by name, as the server counts it.
    fn load<'a>(&'a self, db: &'a mut Db, name: &'a str) -> Ask<'a, Result<f64>>;

    /// The WAL position now.
    fn wal_position<'a>(&'a self, _db: &'a mut Db) -> Ask<'a, Option<u64>> {
        Box::pin(async { None })
    }

    /// Where a replica is in replaying the primary's changes.
    fn replica<'a>(&'a self, db: &'a mut Db) -> Ask<'a, Result<Replica>>;

    /// The table's dead tuples.
    fn dead_tuples<'a>(&'a self, _db: &'a mut Db, _table_sql: &'a str) -> Ask<'a, Option<u64>> {
        Box::pin(async { None })
    }

    /// The oldest open transaction of another session, in words.
    fn oldest_transaction<'a>(&'a self, _db: &'a mut Db) -> Ask<'a, Option<String>> {
        Box::pin(async { None })
    }

    /// The VACUUM working on the table, in words.
    fn vacuum_session<'a>(&'a self, _db: &'a mut Db, _table_sql: &'a str) -> Ask<'a, Option<String>> {
        Box::pin(async { None })
    }

    /// Whether a VACUUM is working on the table.
    fn vacuum_running<'a>(&'a self, _db: &'a mut Db, _table_sql: &'a str) -> Ask<'a, bool> {
        Box::pin(async { false })
    }

    /// Reports this session's pending table statistics now.
    fn flush_statistics<'a>(&'a self, _db: &'a mut Db) -> Ask<'a, ()> {
        Box::pin(async {})
    }

    // ---- Sizing ----

    /// The rows ever inserted and the dead rows, as the server's statistics count them.
    fn insert_counters<'a>(
        &'a self,
        _db: &'a mut Db,
        _table_sql: &'a str,
    ) -> Ask<'a, Result<(Option<u64>, Option<u64>)>> {
        Box::pin(async { Ok((None, None)) })
    }

    /// The column a table's row ids grow in when no column is minted by the
    /// database (SQLite's rowid).
    fn implicit_row_id(&self) -> Option<&'static str> {
        None
    }

    /// The next id a table's counter hands out.
    fn next_minted_id<'a>(&'a self, _db: &'a mut Db, _schema: &'a str, _name: &'a str) -> Ask<'a, Option<i64>> {
        Box::pin(async { None })
    }
}

/// An epoch column as microseconds since the epoch, NULL outside its
/// unit's plausible range (`times::plausible`); `int` is the column as an
/// integer wide enough to scale.
pub(super) fn epoch_column_micros(col: &str, int: &str, millis: bool) -> String {
    let (lo, hi) = super::times::plausible(millis);
    let scale = if millis { 1000 } else { 1000000 };
    format!("CASE WHEN {col} BETWEEN {lo} AND {hi} THEN {int} * {scale} END")
}

/// `Driver::epoch_bucket` as most engines write it: epoch numbers divided
/// by the span, anything else through its microseconds.
pub(super) fn epoch_bucket(driver: &(impl Driver + ?Sized), col: &str, repr: TimeRepr, seconds: i64) -> String {
    let div = driver.int_div();
    match repr {
        TimeRepr::EpochSeconds | TimeRepr::EpochMillis => {
            let millis = repr == TimeRepr::EpochMillis;
            let (lo, hi) = super::times::plausible(millis);
            let per = if millis { seconds * 1000 } else { seconds };
            format!("(CASE WHEN {col} BETWEEN {lo} AND {hi} THEN {col} END) {div} {per}")
        }
        _ => format!("({}) {div} {}", driver.epoch_micros(col, repr), seconds * 1_000_000),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::Engine;
    use crate::db::Dialect;

    #[test]
    fn engines_by_scheme() {
        assert_eq!(Engine::of_url("postgres://h/db").unwrap(), Engine::Postgres);
        assert_eq!(Engine::of_url("postgresql://h/db").unwrap(), Engine::Postgres);
        assert_eq!(Engine::of_url("mariadb://h/db").unwrap(), Engine::MySql);
        assert_eq!(Engine::of_url("sqlite:demo.db").unwrap(), Engine::Sqlite);
        let err = Engine::of_url("oracle://u:secret@h/db").unwrap_err().to_string();
        assert!(err.contains("oracle://u:***@h/db") && !err.contains("secret"), "{err}");
    }

    #[test]
    fn identifiers_are_quoted_per_engine() {
        assert_eq!(Dialect::new(Engine::Postgres).ident(r#"Ord "x""#), r#""Ord ""x""""#);
        assert_eq!(Dialect::new(Engine::MySql).ident("a`b c"), "`a``b c`");
        assert_eq!(Dialect::new(Engine::Sqlite).table(Some("main"), "t"), r#""main"."t""#);
    }

    /// Every source file under `dir`, as (its path from the crate, its text
    /// before its tests).
    fn sources(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap_or_default().to_string();
                out.push((path.strip_prefix(root).unwrap().display().to_string(), code));
            }
        }
    }

    /// What a new engine touches is what ARCHITECTURE.md says: outside the
    /// engine's own module, only the files that tell engines apart (an arm
    /// on `Engine`, a connection or row variant, an engine's sqlx types),
    /// and each of them is named there.
    #[test]
    fn a_new_engine_touches_the_files_architecture_names() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        sources(root, &root.join("src"), &mut files);
        let telling = ["Engine::", "Conn::", "RowView::", "Rows::"];
        // A variant, not a method (`RowView::column_hashes`) or another `Rows`.
        let names_variant = |code: &str, pattern: &str| {
            code.match_indices(pattern).any(|(at, _)| {
                let rest = &code[at + pattern.len()..];
                let before = code[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric() && c != '_');
                before && rest.chars().next().is_some_and(char::is_uppercase) && !code[..at].ends_with("scan::")
            })
        };
        let engine_types = ["sqlx::postgres", "sqlx::mysql", "sqlx::sqlite", "libsqlite3_sys", "PgConnection"];
        let own = |path: &str| {
            path.starts_with("src/db/engine/") && path != "src/db/engine/mod.rs"
                // The demo is an SQLite file by design, whatever engines there are.
                || path == "src/db/demo.rs"
        };
        let touched: BTreeSet<&str> = files
            .iter()
            .filter(|(path, code)| {
                !own(path)
                    && (telling.iter().any(|pattern| names_variant(code, pattern))
                        || engine_types.iter().any(|pattern| code.contains(pattern)))
            })
            .map(|(path, _)| path.as_str())
            .collect();
        let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        let section = doc.split("## Adding an engine").nth(1).unwrap().split("\n## ").next().unwrap();
        let named: BTreeSet<&str> = section
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|s| s.starts_with("src/") && s.ends_with(".rs") && !s.contains('<'))
            .collect();
        assert_eq!(touched, named, "the files that tell engines apart, and those ARCHITECTURE.md names");
        // Outside the drivers, an engine is named only to reach its driver.
        for (path, code) in &files {
            if path.starts_with("src/db/engine/") {
                continue;
            }
            for arm in ["Engine::Postgres", "Engine::MySql", "Engine::Sqlite"] {
                assert!(!code.contains(arm), "{path} tells {arm} apart outside the engine modules");
            }
        }
    }
}
