//! Connections, the dialect layer and catalog introspection. What one
//! engine knows is its driver's (`engine/`, with `queries/<engine>/`).

pub mod accepts;
pub mod catalog;
pub mod demo;
pub mod dialect;
pub(crate) mod engine;
pub mod errors;
pub mod lock;
pub mod pace;
pub mod partitions;
pub mod purge;
pub mod scan;
pub mod session;
pub mod storage;
pub mod times;
pub mod user_sql;

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use futures_util::TryStreamExt;
use sqlx::mysql::MySqlConnection;
use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;
use sqlx::{AssertSqlSafe, Connection};

use crate::timeparse;
pub use dialect::{Appendable, Dialect, TimeRepr};
pub use engine::Engine;
use engine::ServerId;
use engine::sqlite::LiteWatch;
pub use session::Target;

mod explain;
mod rows;
use engine::postgres::copy as pg;
use engine::sqlite::scan as lite;
use rows::Rows;
pub use rows::{RowStream, RowView};

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

impl Writer {
    /// How long a batch waits on a row a live transaction holds, at most
    /// (`--lock-timeout` when shorter): a batch that waits holds the rows it
    /// has already changed, and live writers would queue behind it.
    pub fn row_wait(self) -> Duration {
        match self {
            Writer::Purge => Duration::from_secs(1),
            Writer::Reap => Duration::from_secs(2),
        }
    }
}

/// One database session, with what its faults are explained by.
pub struct Db {
    // Dropped first: the canceller forgets the session before it closes.
    registration: session::Registration,
    conn: Conn,
    ctx: Ctx,
}

pub enum Conn {
    Postgres(PgConnection),
    MySql(MySqlConnection),
    /// The connection, and the database file for bulk reads (`lite`).
    Sqlite(SqliteConnection, std::path::PathBuf),
}

/// A table named in messages, and found in the lock lists.
#[derive(Debug, Clone)]
pub struct Subject {
    shown: String,
    as_sql: String,
    schema: String,
    name: String,
}

/// What a session's errors are explained with.
#[derive(Debug, Clone)]
pub struct Ctx {
    engine: Engine,
    target: Arc<Target>,
    /// The table the command works on, once resolved.
    subject: Option<Subject>,
    /// The session's id on the server.
    server: Option<ServerId>,
    /// Each statement's limit, or none.
    statement_limit: Option<Duration>,
    /// MariaDB rather than MySQL (their statement timeouts differ).
    mariadb: bool,
    /// A writer's wait on a row, when shorter than the lock timeout.
    row_wait: Option<Duration>,
    /// A comment each statement starts with, naming the program in the
    /// MySQL processlist (sqlx sends no connection attributes); empty elsewhere.
    tag: String,
    lite: Option<Arc<LiteWatch>>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Db({})", self.engine().name())
    }
}

/// Connects to the database a target names, within its connect timeout,
/// with its lock and statement timeouts set for the session.
pub async fn connect(target: &Target, access: Access) -> Result<Db> {
    let engine = target.engine()?;
    let target = Arc::new(target.clone());
    let ctx = Ctx {
        engine,
        target: target.clone(),
        subject: None,
        server: None,
        statement_limit: Some(target.statement_limit()),
        mariadb: false,
        tag: String::new(),
        row_wait: None,
        lite: None,
    };
    engine.driver().connect(target, access, ctx).await
}

/// A URL with its password replaced, fit for messages: the one after the
/// user name (up to the last `@`, so that an unescaped `@` in it is hidden
/// too) and a `password=` parameter.
pub fn redact(url: &str) -> String {
    let mut shown = url.to_string();
    if let Some((scheme, rest)) = url.split_once("://")
        && let Some((userinfo, host)) = rest.rsplit_once('@')
        && let Some((user, _)) = userinfo.split_once(':')
    {
        shown = format!("{scheme}://{user}:***@{host}");
    }
    if let Some((head, query)) = shown.split_once('?') {
        let params: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                _ => pair.to_string(),
            })
            .collect();
        shown = format!("{head}?{}", params.join("&"));
    }
    shown
}

/// Awaits a statement, unless Ctrl-C or SIGTERM comes first: then the
/// statement has what is left of the run's grace to end (the canceller stops
/// it on the server, and its error says so), and is abandoned past it.
/// `None` when abandoned.
async fn watched<T>(statement: impl Future<Output = T>) -> Option<T> {
    use futures_util::future::{Either, select};
    let interrupted = crate::interrupt::wait();
    tokio::pin!(statement, interrupted);
    // (No `select!`: its output would hold a `T` across the wait below.)
    let statement = match select(statement, interrupted).await {
        Either::Left((done, _)) => return Some(done),
        Either::Right(((), statement)) => statement,
    };
    tokio::time::timeout(crate::interrupt::grace_left(), statement).await.ok()
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
        self.ctx.engine
    }

    /// An embedded database's file (SQLite), where there is one.
    pub fn file(&self) -> Option<&std::path::Path> {
        match &self.conn {
            Conn::Sqlite(_, path) => Some(path),
            Conn::Postgres(_) | Conn::MySql(_) => None,
        }
    }

    pub fn dialect(&self) -> Dialect {
        Dialect::new(self.engine())
    }

    /// The engine's driver, for what only it knows.
    pub(crate) fn driver(&self) -> &'static dyn engine::Driver {
        self.engine().driver()
    }

    /// What the session reached, its waits included.
    pub fn target(&self) -> &Target {
        &self.ctx.target
    }

    /// Names the table the command works on, for the messages of lock waits
    /// (and, on PostgreSQL, for finding who holds the lock).
    pub fn set_subject(&mut self, schema: &str, name: &str) {
        let dialect = self.dialect();
        let shown = if dialect.has_schemas() { format!("{schema}.{name}") } else { name.to_string() };
        let as_sql = dialect.table(Some(schema), name);
        self.ctx.subject = Some(Subject { shown, as_sql, schema: schema.to_string(), name: name.to_string() });
    }

    /// Runs one statement's future under the session's watch: marked busy
    /// for the canceller, bounded by Ctrl-C, its error explained.
    /// Once interrupted, no statement starts (but `rollback`).
    async fn guarded<T>(&mut self, statement: impl AsyncFnOnce(&mut Conn) -> Result<T>) -> Result<T> {
        if crate::interrupt::is_set() {
            return Err(crate::exit::Interrupted.into());
        }
        let started = Instant::now();
        let outcome = {
            let _busy = self.registration.busy();
            if let Some(watch) = &self.ctx.lite {
                watch.start(self.ctx.statement_limit);
            }
            watched(statement(&mut self.conn)).await
        };
        match outcome {
            Some(Ok(value)) => Ok(value),
            Some(Err(err)) => Err(self.ctx.explain(err, started).await),
            None => Err(crate::exit::Interrupted.into()),
        }
    }

    /// Runs a query and hands each row to `f` as it arrives: rows are streamed,
    /// never collected.
    pub async fn for_each_row(
        &mut self,
        sql: &str,
        binds: &[Bind],
        mut f: impl FnMut(RowView<'_>) -> Result<()>,
    ) -> Result<()> {
        let sql = AssertSqlSafe(format!("{}{sql}", self.ctx.tag));
        self.guarded(async move |conn| {
            match conn {
                Conn::Postgres(conn) => {
                    let mut rows = bind_all!(sqlx::query(sql), binds).fetch(conn);
                    while let Some(row) = rows.try_next().await? {
                        f(RowView::Postgres(&row))?;
                    }
                }
                Conn::MySql(conn) => {
                    let mut rows = bind_all!(sqlx::query(sql), binds).fetch(conn);
                    while let Some(row) = rows.try_next().await? {
                        f(RowView::MySql(&row, &[]))?;
                    }
                }
                Conn::Sqlite(conn, _) => {
                    let mut rows = bind_all!(sqlx::query(sql), binds).fetch(conn);
                    while let Some(row) = rows.try_next().await? {
                        f(RowView::Sqlite(&row))?;
                    }
                }
            }
            Ok(())
        })
        .await
    }

    /// Streams a large result, the fastest way the engine allows: binary COPY
    /// on PostgreSQL (where `binds` must be empty: the dialect writes values
    /// into the SQL there), the row protocol elsewhere. Rows are read one at
    /// a time with `RowStream::next`, never collected.
    pub async fn stream_rows(&mut self, sql: &str, binds: &[Bind]) -> Result<RowStream<'_>> {
        let owned = AssertSqlSafe(format!("{}{sql}", self.ctx.tag));
        let started = Instant::now();
        let Db { registration, conn, ctx } = self;
        let busy = registration.busy();
        if let Some(watch) = &ctx.lite {
            watch.start(ctx.statement_limit);
        }
        let rows = match conn {
            Conn::Postgres(conn) => {
                anyhow::ensure!(binds.is_empty(), "binary COPY takes no bound values");
                match watched(pg::CopyReader::open(conn, sql)).await {
                    Some(Ok(reader)) => Rows::Postgres(reader),
                    Some(Err(err)) => return Err(ctx.explain(err, started).await),
                    None => return Err(crate::exit::Interrupted.into()),
                }
            }
            Conn::MySql(conn) => Rows::MySql(bind_all!(sqlx::query(owned), binds).fetch(conn), None, Vec::new()),
            Conn::Sqlite(_, path) => {
                let watch = ctx.lite.clone().expect("an SQLite session has its watch");
                match lite::Scan::open(path, sql, binds, &watch) {
                    Ok(scan) => Rows::Sqlite(scan, 0, std::marker::PhantomData),
                    Err(err) => return Err(ctx.explain(err, started).await),
                }
            }
        };
        Ok(RowStream { rows, ctx: ctx.clone(), _busy: busy })
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
        let sql = AssertSqlSafe(format!("{}{sql}", self.ctx.tag));
        self.guarded(async move |conn| {
            Ok(match conn {
                Conn::Postgres(conn) => bind_all!(sqlx::query(sql), binds).execute(conn).await?.rows_affected(),
                Conn::MySql(conn) => bind_all!(sqlx::query(sql), binds).execute(conn).await?.rows_affected(),
                Conn::Sqlite(conn, _) => bind_all!(sqlx::query(sql), binds).execute(conn).await?.rows_affected(),
            })
        })
        .await
    }

    /// Sets up a writing session: how long a batch waits on rows a live writer
    /// holds, and the isolation the batches run at (`queries/mysql/writer_purge.sql`).
    pub async fn prepare_writer(&mut self, writer: Writer) -> Result<()> {
        if let Some(setup) = self.dialect().writer_setup(writer) {
            self.raw(setup).await?;
        }
        self.set_row_wait(self.ctx.target.lock_timeout.min(writer.row_wait())).await
    }

    /// How long a statement waits on rows another session holds.
    async fn set_row_wait(&mut self, wait: Duration) -> Result<()> {
        let Some(sql) = self.dialect().row_wait_sql(wait) else { return Ok(()) };
        self.run_owned(sql).await?;
        self.ctx.row_wait = (wait < self.ctx.target.lock_timeout).then_some(wait);
        Ok(())
    }

    /// Sets how long each statement may run from here on; `None`: no limit
    /// (a scan's read of the whole table, unless `--statement-timeout` says).
    pub async fn set_statement_limit(&mut self, limit: Option<Duration>) -> Result<()> {
        let ms = limit.map_or(0, |l| l.as_millis().max(1));
        if let Some(sql) = self.dialect().statement_limit_sql(ms, self.ctx.mariadb) {
            self.run_owned(sql).await?;
        }
        self.ctx.statement_limit = limit;
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

    /// Rolls back; a failure to (the connection gone) is the error that
    /// caused it. Bounded, since it may follow a statement left mid-way.
    pub async fn rollback(&mut self) {
        let rollback = async {
            match &mut self.conn {
                Conn::Postgres(c) => sqlx::raw_sql("ROLLBACK").execute(c).await.map(drop),
                Conn::MySql(c) => sqlx::raw_sql("ROLLBACK").execute(c).await.map(drop),
                Conn::Sqlite(c, _) => sqlx::raw_sql("ROLLBACK").execute(c).await.map(drop),
            }
        };
        let _ = tokio::time::timeout(Duration::from_secs(1), rollback).await;
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
        self.run_owned(sql.to_string()).await
    }

    async fn run_owned(&mut self, sql: String) -> Result<()> {
        let sql = format!("{}{sql}", self.ctx.tag);
        self.guarded(async move |conn| {
            let sql = AssertSqlSafe(sql);
            match conn {
                Conn::Postgres(c) => sqlx::raw_sql(sql).execute(c).await.map(drop)?,
                Conn::MySql(c) => sqlx::raw_sql(sql).execute(c).await.map(drop)?,
                Conn::Sqlite(c, _) => sqlx::raw_sql(sql).execute(c).await.map(drop)?,
            }
            Ok(())
        })
        .await
    }

    pub async fn close(self) -> Result<()> {
        let Db { registration, conn, .. } = self;
        drop(registration);
        match conn {
            Conn::Postgres(c) => c.close().await?,
            Conn::MySql(c) => c.close().await?,
            Conn::Sqlite(c, _) => c.close().await?,
        }
        Ok(())
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
mod tests {
    use super::*;

    #[test]
    fn passwords_never_shown() {
        assert_eq!(redact("postgres://root:s3c@retQ@127.0.0.1:1/x"), "postgres://root:***@127.0.0.1:1/x");
        assert_eq!(
            redact("postgres://root@127.0.0.1:1/x?sslmode=require&password=s3cretQ"),
            "postgres://root@127.0.0.1:1/x?sslmode=require&password=***"
        );
        assert_eq!(redact("sqlite:/tmp/a.db"), "sqlite:/tmp/a.db");
    }
}

#[cfg(test)]
mod fill_tests {
    #[test]
    fn fills_once() {
        assert_eq!(super::fill("SELECT {a} FROM {b} {c}", &[("a", "{b}"), ("b", "t")]), "SELECT {b} FROM t {c}");
    }
}
