//! Connections, the dialect layer and catalog introspection: the only place
//! (with `queries/`) that knows one engine from another.

pub mod catalog;
pub mod dialect;

use std::borrow::Cow;
use std::str::FromStr;

use anyhow::{Context, Result, bail};
use futures_util::TryStreamExt;
use sqlx::mysql::{MySqlConnectOptions, MySqlConnection, MySqlRow};
use sqlx::postgres::{PgConnectOptions, PgConnection, PgRow};
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteRow};
use sqlx::{AssertSqlSafe, ConnectOptions, Connection, Row};

pub use dialect::{Dialect, TimeRepr};

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

/// Whether a session may write. Read commands connect read-only, so that a
/// mistake (or a `--where` with side effects) cannot change data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    ReadOnly,
    ReadWrite,
}

/// A value bound to a statement's placeholder.
#[derive(Debug, Clone, PartialEq)]
pub enum Bind {
    Int(i64),
    Text(String),
}

/// One database session.
pub enum Db {
    Postgres(PgConnection),
    MySql(MySqlConnection),
    Sqlite(SqliteConnection),
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
            let conn = opts.connect().await.with_context(connect_err)?;
            Ok(Db::Sqlite(conn))
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

/// One row of a result, read by position.
pub enum RowView<'r> {
    Postgres(&'r PgRow),
    /// A row of a PostgreSQL binary COPY: raw fields and how to read them.
    PgCopy(&'r [Option<&'r [u8]>], &'r [pg::Kind]),
    MySql(&'r MySqlRow),
    Sqlite(&'r SqliteRow),
}

impl<'r> RowView<'r> {
    pub fn engine(&self) -> Engine {
        match self {
            RowView::Postgres(_) | RowView::PgCopy(..) => Engine::Postgres,
            RowView::MySql(_) => Engine::MySql,
            RowView::Sqlite(_) => Engine::Sqlite,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            RowView::Postgres(r) => r.len(),
            RowView::PgCopy(fields, _) => fields.len(),
            RowView::MySql(r) => r.len(),
            RowView::Sqlite(r) => r.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An integer column.
    pub fn int(&self, i: usize) -> Result<Option<i64>> {
        Ok(match self {
            RowView::Postgres(r) => r.try_get(i)?,
            RowView::PgCopy(fields, kinds) => fields[i].map(|b| pg::integer(b, kinds[i])).transpose()?,
            RowView::MySql(r) => r.try_get(i)?,
            RowView::Sqlite(r) => r.try_get(i)?,
        })
    }

    /// A text or binary column's bytes, without a copy.
    pub fn bytes(&self, i: usize) -> Result<Option<&'r [u8]>> {
        Ok(match self {
            RowView::Postgres(r) => r.try_get::<Option<&str>, _>(i)?.map(str::as_bytes),
            RowView::PgCopy(fields, _) => fields[i],
            RowView::MySql(r) => r.try_get(i)?,
            RowView::Sqlite(r) => r.try_get(i)?,
        })
    }

    /// Any column as text for people and reports. MySQL and SQLite columns
    /// arrive as text already (the dialect casts them); PostgreSQL columns
    /// arrive in their binary form and are decoded by type.
    pub fn display(&self, i: usize) -> Result<Option<String>> {
        match self {
            RowView::PgCopy(fields, kinds) => fields[i].map(|b| pg::display(b, kinds[i])).transpose(),
            _ => Ok(self.text(i)?.map(Cow::into_owned)),
        }
    }

    /// A row id: an integer when the column holds one, else its text.
    pub fn id(&self, i: usize) -> Result<Option<crate::window::RowId>> {
        use crate::window::RowId;
        if let RowView::PgCopy(fields, kinds) = self
            && matches!(kinds[i], pg::Kind::Int2 | pg::Kind::Int4 | pg::Kind::Int8)
        {
            return Ok(fields[i].map(|b| pg::integer(b, kinds[i])).transpose()?.map(RowId::Int));
        }
        if let Ok(n) = self.int(i) {
            return Ok(n.map(RowId::Int));
        }
        Ok(self.display(i)?.map(|t| RowId::Text(t.into())))
    }

    /// A time column as microseconds since the epoch. MySQL and SQLite
    /// columns arrive converted (`Dialect::epoch_micros`); PostgreSQL columns
    /// arrive in their binary form.
    pub fn micros(&self, i: usize, repr: TimeRepr) -> Result<Option<i64>> {
        match self {
            RowView::PgCopy(fields, kinds) => fields[i].map(|b| pg::micros(b, kinds[i], repr)).transpose(),
            _ => self.int(i),
        }
    }

    /// Appends the columns from `from` on, folded into one value equal for two
    /// rows exactly when every column is equal (NULL equal to NULL).
    pub fn fold_into(&self, from: usize, buf: &mut Vec<u8>) -> Result<()> {
        match self {
            RowView::PgCopy(fields, _) => {
                // Length-prefixed binary values, or a NULL marker: equal folds
                // mean equal values for every type whose binary form is
                // canonical, which is all the usual ones.
                for field in &fields[from..] {
                    match field {
                        Some(bytes) => {
                            buf.push(1);
                            buf.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
                            buf.extend_from_slice(bytes);
                        }
                        None => buf.push(0),
                    }
                }
            }
            _ => buf.extend_from_slice(self.bytes(from)?.unwrap_or_default()),
        }
        Ok(())
    }

    /// A text column; numbers are accepted too, as their decimal text.
    pub fn text(&self, i: usize) -> Result<Option<Cow<'r, str>>> {
        if let Ok(Some(bytes)) = self.bytes(i) {
            return Ok(Some(String::from_utf8_lossy(bytes)));
        }
        if let Ok(n) = self.int(i) {
            return Ok(n.map(|n| Cow::Owned(n.to_string())));
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
            Db::Sqlite(_) => Engine::Sqlite,
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
                    f(RowView::MySql(&row))?;
                }
            }
            Db::Sqlite(conn) => {
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
    /// into the SQL there), the row protocol elsewhere.
    pub async fn stream_rows(
        &mut self,
        sql: &str,
        binds: &[Bind],
        mut f: impl FnMut(RowView<'_>) -> Result<()>,
    ) -> Result<()> {
        match self {
            Db::Postgres(conn) => {
                anyhow::ensure!(binds.is_empty(), "binary COPY takes no bound values");
                pg::copy_rows(conn, sql, |fields, kinds| f(RowView::PgCopy(fields, kinds))).await
            }
            _ => self.for_each_row(sql, binds, f).await,
        }
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

    /// Runs statements that return no rows.
    pub async fn execute(&mut self, sql: &str, binds: &[Bind]) -> Result<u64> {
        let sql = AssertSqlSafe(sql.to_string());
        Ok(match self {
            Db::Postgres(conn) => bind_all!(sqlx::query(sql), binds).execute(conn).await?.rows_affected(),
            Db::MySql(conn) => bind_all!(sqlx::query(sql), binds).execute(conn).await?.rows_affected(),
            Db::Sqlite(conn) => bind_all!(sqlx::query(sql), binds).execute(conn).await?.rows_affected(),
        })
    }

    pub async fn close(self) -> Result<()> {
        match self {
            Db::Postgres(c) => c.close().await?,
            Db::MySql(c) => c.close().await?,
            Db::Sqlite(c) => c.close().await?,
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
