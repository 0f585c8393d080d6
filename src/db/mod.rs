//! Connections, the dialect layer and catalog introspection: the only place
//! (with `queries/`) that knows one engine from another.

pub mod catalog;
pub mod demo;
pub mod dialect;
pub mod errors;
pub mod lock;
pub mod purge;
pub mod scan;
pub mod storage;
pub mod times;
pub mod user_sql;

use std::borrow::Cow;
use std::str::FromStr;

use anyhow::{Context, Result, bail};
use futures_util::TryStreamExt;
use futures_util::stream::BoxStream;
use sqlx::mysql::{MySqlConnectOptions, MySqlConnection, MySqlRow};
use sqlx::postgres::{PgConnectOptions, PgConnection, PgRow};
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteRow};
use sqlx::{AssertSqlSafe, ConnectOptions, Connection, Row};

pub use dialect::{Dialect, TimeRepr};

mod lite;
mod pg;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Postgres,
    MySql,
    Sqlite,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Postgres => "postgres",
            Engine::MySql => "mysql",
            Engine::Sqlite => "sqlite",
        }
    }

    /// The engine a URL names by its scheme.
    pub fn of_url(url: &str) -> Result<Engine> {
        let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase()).unwrap_or_default();
        Ok(match scheme.as_str() {
            "postgres" | "postgresql" => Engine::Postgres,
            "mysql" | "mariadb" => Engine::MySql,
            "sqlite" => Engine::Sqlite,
            _ => bail!(
                "unsupported database URL {}: use postgres://, postgresql://, mysql://, mariadb:// or sqlite:PATH",
                redact(url)
            ),
        })
    }
}

/// The engine a database URL names, by its scheme.
pub fn engine_of(url: &str) -> Result<Engine> {
    Engine::of_url(url)
}

/// Whether a session may write. Read commands connect read-only, so that a
/// mistake (or a `--where` with side effects) cannot change data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    ReadOnly,
    ReadWrite,
    /// A session for locking reads that write nothing: telling keys a live
    /// transaction holds apart, where a read-only session may not lock.
    LockProbe,
}

/// A value bound to a statement's placeholder.
#[derive(Debug, Clone, PartialEq)]
pub enum Bind {
    Int(i64),
    Text(String),
    Null,
}

/// Bound values of one statement, numbered as the engine wants.
#[derive(Debug, Clone)]
pub struct Placeholders {
    pub dialect: Dialect,
    pub binds: Vec<Bind>,
}

impl Placeholders {
    pub fn new(dialect: Dialect) -> Self {
        Placeholders { dialect, binds: Vec::new() }
    }

    /// Starts after values already bound (a condition's).
    pub fn after(dialect: Dialect, binds: Vec<Bind>) -> Self {
        Placeholders { dialect, binds }
    }

    /// A placeholder for `bind`, cast to the column's type where the engine
    /// needs it (PostgreSQL, which binds text as text); none for `""`.
    pub fn push(&mut self, bind: Bind, data_type: &str) -> String {
        self.binds.push(bind);
        self.dialect.typed_placeholder(self.binds.len(), data_type)
    }
}

/// A writing command, for the session settings it runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    /// `expire`: batches of deletes.
    Purge,
    /// `reap`: batches of key updates.
    Reap,
}

/// One database session.
pub enum Db {
    Postgres(PgConnection),
    MySql(MySqlConnection),
    /// The connection, and the database file for bulk reads (`lite`).
    Sqlite(SqliteConnection, std::path::PathBuf),
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Db({})", self.engine().name())
    }
}

/// Connects to the database a URL names.
pub async fn connect(url: &str, access: Access) -> Result<Db> {
    let engine = Engine::of_url(url)?;
    let shown = redact(url);
    let connect_err = || format!("cannot connect to {shown}");
    match engine {
        Engine::Postgres => {
            let mut opts = PgConnectOptions::from_str(url)
                .with_context(|| format!("bad database URL {shown}"))?
                .application_name("idemctl")
                .options([("timezone", "UTC")]);
            if access == Access::ReadOnly {
                opts = opts.options([("default_transaction_read_only", "on")]);
            }
            let conn = opts.connect().await.with_context(connect_err)?;
            Ok(Db::Postgres(conn))
        }
        Engine::MySql => {
            let url = match url.strip_prefix("mariadb:") {
                Some(rest) => Cow::Owned(format!("mysql:{rest}")),
                None => Cow::Borrowed(url),
            };
            let opts = MySqlConnectOptions::from_str(&url)
                .with_context(|| format!("bad database URL {shown}"))?
                .timezone(Some(String::from("+00:00")));
            let mut conn = opts.connect().await.with_context(connect_err)?;
            if access == Access::ReadOnly {
                sqlx::raw_sql("SET SESSION TRANSACTION READ ONLY").execute(&mut conn).await?;
                // Scans sort on the server; the 2 MB default sorts in many passes on disk.
                sqlx::raw_sql("SET SESSION sort_buffer_size = GREATEST(@@session.sort_buffer_size, 33554432)")
                    .execute(&mut conn)
                    .await?;
            }
            Ok(Db::MySql(conn))
        }
        Engine::Sqlite => {
            let opts = SqliteConnectOptions::from_str(url)
                .with_context(|| format!("bad database URL {shown}"))?
                .create_if_missing(false)
                .read_only(access == Access::ReadOnly);
            let path = opts.get_filename().to_path_buf();
            if !path.as_os_str().is_empty() && path.as_os_str() != ":memory:" && !path.exists() {
                bail!("no SQLite database at {}", path.display());
            }
            let mut conn = opts.connect().await.with_context(connect_err)?;
            {
                let mut handle = conn.lock_handle().await?;
                // SAFETY: the locked handle keeps sqlx's worker off the connection meanwhile.
                unsafe { times::register_sqlite_functions(handle.as_raw_handle().as_ptr())? };
            }
            Ok(Db::Sqlite(conn, path))
        }
    }
}

/// A URL with its password replaced, fit for messages.
pub fn redact(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://")
        && let Some((userinfo, host)) = rest.split_once('@')
        && let Some((user, _)) = userinfo.split_once(':')
    {
        return format!("{scheme}://{user}:***@{host}");
    }
    url.to_string()
}

/// A large result, read a row at a time.
pub enum RowStream<'c> {
    Postgres(pg::CopyReader<'c>),
    /// The rows, the current row, and its columns' kinds (read off the first row).
    MySql(BoxStream<'c, sqlx::Result<MySqlRow>>, Option<MySqlRow>, Vec<MyKind>),
    Sqlite(lite::Scan, u64, std::marker::PhantomData<&'c ()>),
}

impl RowStream<'_> {
    /// The next row, or `None` at the end.
    pub async fn next(&mut self) -> Result<Option<RowView<'_>>> {
        Ok(match self {
            RowStream::Postgres(reader) => reader.next().await?,
            RowStream::MySql(rows, current, kinds) => {
                *current = rows.try_next().await?;
                if let Some(row) = current
                    && kinds.is_empty()
                {
                    *kinds = (0..row.len()).map(|i| MyKind::of(row, i)).collect();
                }
                current.as_ref().map(|row| RowView::MySql(row, kinds))
            }
            RowStream::Sqlite(scan, rows, _) => {
                // The C API never awaits: give Ctrl-C a look now and then.
                *rows += 1;
                if rows.is_multiple_of(4096) {
                    tokio::task::yield_now().await;
                }
                if scan.step()? { Some(RowView::Lite(scan)) } else { None }
            }
        })
    }
}

/// What a MySQL column holds, as far as reading it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MyKind {
    Signed,
    Unsigned,
    Date,
    /// TIMESTAMP: an instant, sent in the session's zone (UTC here).
    Timestamp,
    Other,
}

impl MyKind {
    fn of(row: &MySqlRow, i: usize) -> MyKind {
        use sqlx::{TypeInfo, ValueRef};
        let Ok(value) = row.try_get_raw(i) else { return MyKind::Other };
        let info = value.type_info();
        let name = info.name();
        match name {
            "DATE" => MyKind::Date,
            "TIMESTAMP" => MyKind::Timestamp,
            _ if name.contains("INT") && name.contains("UNSIGNED") => MyKind::Unsigned,
            _ if name.contains("INT") => MyKind::Signed,
            _ => MyKind::Other,
        }
    }
}

/// One row of a result, read by position.
pub enum RowView<'r> {
    Postgres(&'r PgRow),
    /// A row of a PostgreSQL binary COPY: the buffer, each field's place in
    /// it (`None` for NULL), and how to read each field.
    PgCopy(&'r [u8], &'r [Option<(usize, usize)>], &'r [pg::Kind]),
    /// A MySQL row, and its columns' kinds when known (bulk reads).
    MySql(&'r MySqlRow, &'r [MyKind]),
    Sqlite(&'r SqliteRow),
    /// A row of an SQLite statement stepped through the C API.
    Lite(&'r lite::Scan),
}

impl<'r> RowView<'r> {
    fn pg_field(buf: &'r [u8], fields: &[Option<(usize, usize)>], i: usize) -> Option<&'r [u8]> {
        fields[i].map(|(at, len)| &buf[at..at + len])
    }

    pub fn engine(&self) -> Engine {
        match self {
            RowView::Postgres(_) | RowView::PgCopy(..) => Engine::Postgres,
            RowView::MySql(..) => Engine::MySql,
            RowView::Sqlite(_) | RowView::Lite(_) => Engine::Sqlite,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            RowView::Postgres(r) => r.len(),
            RowView::PgCopy(_, fields, _) => fields.len(),
            RowView::MySql(r, _) => r.len(),
            RowView::Sqlite(r) => r.len(),
            RowView::Lite(scan) => scan.columns(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the column holds an integer (checked without a decode error,
    /// which costs far more than the check).
    fn is_integer(&self, i: usize) -> bool {
        use sqlx::{TypeInfo, ValueRef};
        match self {
            RowView::PgCopy(_, _, kinds) => matches!(kinds[i], pg::Kind::Int2 | pg::Kind::Int4 | pg::Kind::Int8),
            RowView::Postgres(r) => r.try_get_raw(i).is_ok_and(|v| v.type_info().name().starts_with("INT")),
            RowView::MySql(r, kinds) => {
                matches!(kinds.get(i).copied().unwrap_or_else(|| MyKind::of(r, i)), MyKind::Signed | MyKind::Unsigned)
            }
            RowView::Sqlite(r) => r.try_get_raw(i).is_ok_and(|v| v.type_info().name() == "INTEGER"),
            RowView::Lite(scan) => scan.class(i) == lite::Class::Integer,
        }
    }

    /// An integer column.
    pub fn int(&self, i: usize) -> Result<Option<i64>> {
        if let RowView::MySql(r, kinds) = self
            && kinds.get(i).copied().unwrap_or_else(|| MyKind::of(r, i)) == MyKind::Unsigned
        {
            return r.try_get::<Option<u64>, _>(i)?.map(|n| i64::try_from(n).map_err(Into::into)).transpose();
        }
        if let RowView::Postgres(r) = self {
            use sqlx::{TypeInfo, ValueRef};
            let raw = r.try_get_raw(i)?;
            return Ok(match raw.type_info().name() {
                "INT2" => r.try_get::<Option<i16>, _>(i)?.map(i64::from),
                "INT4" => r.try_get::<Option<i32>, _>(i)?.map(i64::from),
                _ => r.try_get(i)?,
            });
        }
        Ok(match self {
            RowView::Postgres(r) => r.try_get(i)?,
            RowView::PgCopy(buf, fields, kinds) => {
                Self::pg_field(buf, fields, i).map(|b| pg::integer(b, kinds[i])).transpose()?
            }
            RowView::MySql(r, _) => r.try_get(i)?,
            RowView::Sqlite(r) => r.try_get(i)?,
            RowView::Lite(scan) => match scan.class(i) {
                lite::Class::Null => None,
                lite::Class::Integer => Some(scan.int(i)),
                other => bail!("expected an integer, got SQLite {other:?}"),
            },
        })
    }

    /// A text or binary column's bytes, without a copy.
    pub fn bytes(&self, i: usize) -> Result<Option<&'r [u8]>> {
        Ok(match self {
            RowView::Postgres(r) => r.try_get::<Option<&str>, _>(i)?.map(str::as_bytes),
            RowView::PgCopy(buf, fields, _) => Self::pg_field(buf, fields, i),
            RowView::MySql(r, _) => r.try_get(i)?,
            RowView::Sqlite(r) => r.try_get(i)?,
            RowView::Lite(scan) => (scan.class(i) != lite::Class::Null).then(|| scan.bytes(i)),
        })
    }

    /// Any column as text for people and reports. MySQL and SQLite columns
    /// arrive as text already (the dialect casts them); PostgreSQL columns
    /// arrive in their binary form and are decoded by type.
    pub fn display(&self, i: usize) -> Result<Option<String>> {
        match self {
            RowView::PgCopy(buf, fields, kinds) => {
                Self::pg_field(buf, fields, i).map(|b| pg::display(b, kinds[i])).transpose()
            }
            _ => Ok(self.text(i)?.map(Cow::into_owned)),
        }
    }

    /// A row id: an integer when the column holds one, else its text.
    pub fn id(&self, i: usize) -> Result<Option<crate::window::RowId>> {
        use crate::window::RowId;
        if self.is_integer(i) {
            return Ok(self.int(i)?.map(RowId::Int));
        }
        Ok(self.display(i)?.map(|t| RowId::Text(t.into())))
    }

    /// A time column as microseconds since the epoch. PostgreSQL and MySQL
    /// send native times in their binary form, read here; SQLite's arrive
    /// converted (`Dialect::epoch_micros`), as do epoch numbers.
    pub fn micros(&self, i: usize, repr: TimeRepr) -> Result<Option<i64>> {
        match self {
            RowView::PgCopy(buf, fields, kinds) => {
                Ok(Self::pg_field(buf, fields, i).map(|b| pg::micros(b, kinds[i], repr)).transpose()?.flatten())
            }
            RowView::MySql(r, kinds) if matches!(repr, TimeRepr::Native { .. }) => {
                let micros = |t: chrono::NaiveDateTime| t.and_utc().timestamp_micros();
                match kinds.get(i).copied().unwrap_or_else(|| MyKind::of(r, i)) {
                    MyKind::Date => {
                        let date: Option<chrono::NaiveDate> = r.try_get(i)?;
                        Ok(date.map(|d| micros(d.and_time(chrono::NaiveTime::MIN))))
                    }
                    MyKind::Timestamp => {
                        let t: Option<chrono::DateTime<chrono::Utc>> = r.try_get(i)?;
                        Ok(t.map(|t| t.timestamp_micros()))
                    }
                    _ => Ok(r.try_get::<Option<chrono::NaiveDateTime>, _>(i)?.map(micros)),
                }
            }
            RowView::Lite(_) => {
                let TimeRepr::SqliteDynamic { millis } = repr else { return self.int(i) };
                Ok(times::micros(self.stored(i)?, millis))
            }
            _ => self.int(i),
        }
    }

    /// A value as it is stored, for reading times (SQLite bulk reads).
    pub fn stored(&self, i: usize) -> Result<times::Value<'_>> {
        Ok(match self {
            RowView::Lite(scan) => match scan.class(i) {
                lite::Class::Null => times::Value::Null,
                lite::Class::Integer => times::Value::Int(scan.int(i)),
                lite::Class::Float => times::Value::Real(scan.float(i)),
                lite::Class::Text => times::Value::Text(scan.bytes(i)),
                lite::Class::Blob => times::Value::Blob,
            },
            _ => match self.int(i)? {
                Some(v) => times::Value::Int(v),
                None => times::Value::Null,
            },
        })
    }

    /// Appends the columns from `from` on, folded into one value equal for two
    /// rows exactly when every column is equal (NULL equal to NULL).
    pub fn fold_into(&self, from: usize, out: &mut Vec<u8>) -> Result<()> {
        match self {
            RowView::PgCopy(buf, fields, _) => {
                // Length-prefixed binary values, or a NULL marker.
                for i in from..fields.len() {
                    match Self::pg_field(buf, fields, i) {
                        Some(bytes) => {
                            out.push(1);
                            out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
                            out.extend_from_slice(bytes);
                        }
                        None => out.push(0),
                    }
                }
            }
            RowView::Lite(scan) => {
                // Each value tagged with its storage class: exact, no decoding.
                for i in from..scan.columns() {
                    match scan.class(i) {
                        lite::Class::Null => out.push(0),
                        lite::Class::Integer => {
                            out.push(1);
                            out.extend_from_slice(&scan.int(i).to_le_bytes());
                        }
                        lite::Class::Float => {
                            out.push(2);
                            out.extend_from_slice(&scan.float(i).to_bits().to_le_bytes());
                        }
                        class => {
                            let bytes = scan.bytes(i);
                            out.push(if class == lite::Class::Text { 3 } else { 4 });
                            out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
                            out.extend_from_slice(bytes);
                        }
                    }
                }
            }
            _ if self.is_integer(from) => out.extend_from_slice(&self.int(from)?.unwrap_or_default().to_le_bytes()),
            _ => out.extend_from_slice(self.bytes(from)?.unwrap_or_default()),
        }
        Ok(())
    }

    /// A text column; numbers are accepted too, as their decimal text.
    pub fn text(&self, i: usize) -> Result<Option<Cow<'r, str>>> {
        if self.is_integer(i) {
            return Ok(self.int(i)?.map(|n| Cow::Owned(n.to_string())));
        }
        self.bytes(i).map(|b| b.map(String::from_utf8_lossy))
    }
}

macro_rules! bind_all {
    ($query:expr, $binds:expr) => {{
        let mut q = $query;
        for bind in $binds {
            q = match bind {
                Bind::Int(v) => q.bind(*v),
                Bind::Text(v) => q.bind(v.clone()),
                Bind::Null => q.bind(None::<String>),
            };
        }
        q
    }};
}

impl Db {
    pub fn engine(&self) -> Engine {
        match self {
            Db::Postgres(_) => Engine::Postgres,
            Db::MySql(_) => Engine::MySql,
            Db::Sqlite(..) => Engine::Sqlite,
        }
    }

    /// An embedded database's file (SQLite), where there is one.
    pub fn file(&self) -> Option<&std::path::Path> {
        match self {
            Db::Sqlite(_, path) => Some(path),
            Db::Postgres(_) | Db::MySql(_) => None,
        }
    }

    pub fn dialect(&self) -> Dialect {
        Dialect::new(self.engine())
    }

    /// Runs a query and hands each row to `f` as it arrives: rows are streamed,
    /// never collected.
    pub async fn for_each_row(
        &mut self,
        sql: &str,
        binds: &[Bind],
        mut f: impl FnMut(RowView<'_>) -> Result<()>,
    ) -> Result<()> {
        let sql = AssertSqlSafe(sql.to_string());
        match self {
            Db::Postgres(conn) => {
                let mut rows = bind_all!(sqlx::query(sql), binds).fetch(conn);
                while let Some(row) = rows.try_next().await? {
                    f(RowView::Postgres(&row))?;
                }
            }
            Db::MySql(conn) => {
                let mut rows = bind_all!(sqlx::query(sql), binds).fetch(conn);
                while let Some(row) = rows.try_next().await? {
                    f(RowView::MySql(&row, &[]))?;
                }
            }
            Db::Sqlite(conn, _) => {
                let mut rows = bind_all!(sqlx::query(sql), binds).fetch(conn);
                while let Some(row) = rows.try_next().await? {
                    f(RowView::Sqlite(&row))?;
                }
            }
        }
        Ok(())
    }

    /// Streams a large result, the fastest way the engine allows: binary COPY
    /// on PostgreSQL (where `binds` must be empty: the dialect writes values
    /// into the SQL there), the row protocol elsewhere. Rows are read one at
    /// a time with `RowStream::next`, never collected.
    pub async fn stream_rows(&mut self, sql: &str, binds: &[Bind]) -> Result<RowStream<'_>> {
        let owned = AssertSqlSafe(sql.to_string());
        Ok(match self {
            Db::Postgres(conn) => {
                anyhow::ensure!(binds.is_empty(), "binary COPY takes no bound values");
                RowStream::Postgres(pg::CopyReader::open(conn, sql).await?)
            }
            Db::MySql(conn) => RowStream::MySql(bind_all!(sqlx::query(owned), binds).fetch(conn), None, Vec::new()),
            Db::Sqlite(_, path) => RowStream::Sqlite(lite::Scan::open(path, sql, binds)?, 0, std::marker::PhantomData),
        })
    }

    /// Runs a query and returns every row as text; for small catalog queries.
    pub async fn query_text(&mut self, sql: &str, binds: &[Bind]) -> Result<Vec<Vec<Option<String>>>> {
        let mut out = Vec::new();
        self.for_each_row(sql, binds, |row| {
            let cells = (0..row.len()).map(|i| row.text(i).map(|t| t.map(Cow::into_owned))).collect::<Result<_>>()?;
            out.push(cells);
            Ok(())
        })
        .await?;
        Ok(out)
    }

    /// Runs a query and returns the first column of its first row, as text.
    pub async fn query_value(&mut self, sql: &str, binds: &[Bind]) -> Result<Option<String>> {
        Ok(self.query_text(sql, binds).await?.into_iter().next().and_then(|row| row.into_iter().next().flatten()))
    }

    /// Runs statements that return no rows.
    pub async fn execute(&mut self, sql: &str, binds: &[Bind]) -> Result<u64> {
        let sql = AssertSqlSafe(sql.to_string());
        Ok(match self {
            Db::Postgres(conn) => bind_all!(sqlx::query(sql), binds).execute(conn).await?.rows_affected(),
            Db::MySql(conn) => bind_all!(sqlx::query(sql), binds).execute(conn).await?.rows_affected(),
            Db::Sqlite(conn, _) => bind_all!(sqlx::query(sql), binds).execute(conn).await?.rows_affected(),
        })
    }

    /// Sets up a writing session: how long a batch waits on rows a live writer
    /// holds, and the isolation the batches run at (`queries/<engine>/writer_*.sql`).
    pub async fn prepare_writer(&mut self, writer: Writer) -> Result<()> {
        let sql = match writer {
            Writer::Purge => catalog::query_file!(self.engine(), "writer_purge.sql"),
            Writer::Reap => catalog::query_file!(self.engine(), "writer_reap.sql"),
        };
        let statements = sql.lines().filter(|l| !l.trim_start().starts_with("--")).collect::<String>();
        if !statements.trim().is_empty() {
            self.raw(sql).await?;
        }
        Ok(())
    }

    /// Opens a writing transaction (on SQLite, taking the write lock at once).
    pub async fn begin_write(&mut self) -> Result<()> {
        let begin = self.dialect().begin_write();
        self.raw(begin).await
    }

    pub async fn commit(&mut self) -> Result<()> {
        self.raw("COMMIT").await
    }

    /// Rolls back; a failure to (the connection gone) is the error that caused it.
    pub async fn rollback(&mut self) {
        let _ = self.raw("ROLLBACK").await;
    }

    /// Marks a point in the transaction that one statement's failure can be
    /// undone to (`end_savepoint`), the transaction going on.
    pub async fn savepoint(&mut self) -> Result<()> {
        self.raw("SAVEPOINT idemctl_step").await
    }

    /// Ends the savepoint: keeps what was done since, or undoes it.
    pub async fn end_savepoint(&mut self, keep: bool) -> Result<()> {
        if !keep {
            self.raw("ROLLBACK TO SAVEPOINT idemctl_step").await?;
        }
        self.raw("RELEASE SAVEPOINT idemctl_step").await
    }

    /// Runs SQL through the simple protocol (transaction control, settings).
    pub async fn raw(&mut self, sql: &'static str) -> Result<()> {
        match self {
            Db::Postgres(c) => sqlx::raw_sql(sql).execute(c).await.map(drop)?,
            Db::MySql(c) => sqlx::raw_sql(sql).execute(c).await.map(drop)?,
            Db::Sqlite(c, _) => sqlx::raw_sql(sql).execute(c).await.map(drop)?,
        }
        Ok(())
    }

    pub async fn close(self) -> Result<()> {
        match self {
            Db::Postgres(c) => c.close().await?,
            Db::MySql(c) => c.close().await?,
            Db::Sqlite(c, _) => c.close().await?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_by_scheme() {
        assert_eq!(Engine::of_url("postgres://h/db").unwrap(), Engine::Postgres);
        assert_eq!(Engine::of_url("postgresql://h/db").unwrap(), Engine::Postgres);
        assert_eq!(Engine::of_url("mariadb://h/db").unwrap(), Engine::MySql);
        assert_eq!(Engine::of_url("sqlite:demo.db").unwrap(), Engine::Sqlite);
        let err = Engine::of_url("oracle://u:secret@h/db").unwrap_err().to_string();
        assert!(err.contains("oracle://u:***@h/db") && !err.contains("secret"), "{err}");
    }
}

/// Fills `{name}` placeholders of a query file in one pass, so that text put
/// in (a `--where` clause, say) is never itself searched for placeholders.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() * 2);
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('}').and_then(|end| values.iter().find(|(k, _)| *k == &after[..end]).map(|(_, v)| (end, v))) {
            Some((end, value)) => {
                out.push_str(value);
                rest = &after[end + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod fill_tests {
    #[test]
    fn fills_once() {
        assert_eq!(super::fill("SELECT {a} FROM {b} {c}", &[("a", "{b}"), ("b", "t")]), "SELECT {b} FROM t {c}");
    }
}
