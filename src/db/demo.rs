//! The demo database: an SQLite file with a creation table and a key table
//! in the reference shape, written from rows the demo generates.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{Context, Result, bail};
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection, Row};

/// Marks a file as a demo database, so that a rerun may replace it and nothing else.
const MARKER: &str = "idemctl_demo";

const SCHEMA: &str = crate::db::dialect::query_file!(sqlite, "demo_schema.sql");

/// A row of `orders`: the order, its key and its creation time.
pub struct OrderRow {
    pub public_id: String,
    pub customer_id: i64,
    pub sku: String,
    pub quantity: i64,
    pub amount_cents: i64,
    pub currency: &'static str,
    pub key: Option<String>,
    pub cart_token: String,
    pub created_at: String,
}

/// A row of `idempotency_keys`.
pub struct KeyRow {
    pub scope_id: String,
    pub operation: &'static str,
    pub key: String,
    pub request_hash: Vec<u8>,
    pub status: &'static str,
    pub response_code: Option<i64>,
    pub response_body: Option<&'static str>,
    pub locked_at: Option<String>,
    pub created_at: String,
    pub expires_at: String,
}

/// Refuses to touch a file that is not an earlier demo database.
pub async fn prepare(path: &Path) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        anyhow::bail!("cannot create the demo database {}: no directory {}", path.display(), dir.display());
    }
    if !path.exists() {
        return Ok(());
    }
    let url = format!("sqlite:{}", path.display());
    let is_demo = async {
        let mut conn = SqliteConnectOptions::from_str(&url)?.read_only(true).connect().await?;
        let row =
            sqlx::query("SELECT count(*) FROM sqlite_schema WHERE name = ?").bind(MARKER).fetch_one(&mut conn).await?;
        let n: i64 = row.try_get(0)?;
        conn.close().await?;
        anyhow::Ok(n == 1)
    }
    .await
    .unwrap_or(false);
    if !is_demo {
        bail!("{} exists and is not an idemctl demo database: give another --path", path.display());
    }
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let file = PathBuf::from(format!("{}{suffix}", path.display()));
        if file.exists() {
            std::fs::remove_file(&file).with_context(|| format!("cannot replace {}", file.display()))?;
        }
    }
    Ok(())
}

/// Writes the schema and the rows, in one transaction on a scratch file
/// (no waiting for the disk on every write).
pub async fn write(path: &Path, orders: &[OrderRow], keys: &[KeyRow]) -> Result<()> {
    let url = format!("sqlite:{}", path.display());
    let mut conn = SqliteConnectOptions::from_str(&url)?
        .create_if_missing(true)
        .journal_mode(sqlx::sqlite::SqliteJournalMode::Memory)
        .synchronous(sqlx::sqlite::SqliteSynchronous::Off)
        .connect()
        .await?;
    sqlx::raw_sql(SCHEMA).execute(&mut conn).await?;
    let mut tx = conn.begin().await?;
    insert_orders(&mut tx, orders).await?;
    insert_keys(&mut tx, keys).await?;
    tx.commit().await?;
    conn.close().await?;
    Ok(())
}

/// Rows a statement: multi-row inserts are many times faster than one at a time.
const BATCH: usize = 500;

async fn insert_orders(conn: &mut SqliteConnection, rows: &[OrderRow]) -> Result<()> {
    for chunk in rows.chunks(BATCH) {
        let mut q = sqlx::QueryBuilder::new(crate::db::dialect::query_file!(sqlite, "demo_orders.sql"));
        q.push_values(chunk, |mut b, r| {
            b.push_bind(&r.public_id)
                .push_bind(r.customer_id)
                .push_bind(&r.sku)
                .push_bind(r.quantity)
                .push_bind(r.amount_cents)
                .push_bind(r.currency)
                .push_bind(&r.key)
                .push_bind(&r.cart_token)
                .push_bind(&r.created_at)
                .push_bind(&r.created_at);
        });
        q.build().execute(&mut *conn).await?;
    }
    Ok(())
}

async fn insert_keys(conn: &mut SqliteConnection, rows: &[KeyRow]) -> Result<()> {
    for chunk in rows.chunks(BATCH) {
        let mut q = sqlx::QueryBuilder::new(crate::db::dialect::query_file!(sqlite, "demo_keys.sql"));
        q.push_values(chunk, |mut b, r| {
            b.push_bind(&r.scope_id)
                .push_bind(r.operation)
                .push_bind(&r.key)
                .push_bind(&r.request_hash)
                .push_bind(r.status)
                .push_bind(r.response_code)
                .push_bind(r.response_body)
                .push_bind(&r.locked_at)
                .push_bind(&r.created_at)
                .push_bind(&r.expires_at);
        });
        q.build().execute(&mut *conn).await?;
    }
    Ok(())
}
