//! `idemctl demo`: an SQLite database with a week of orders and realistic
//! retry damage of every cause, plus an idempotency-key table in the
//! reference shape; then a scan of the damage and the commands to try next.
//!
//! The data is the same on every run but for its times, which end at the
//! start of the current hour so that "the last week" and "expired" mean what
//! they say.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Duration, DurationRound, Utc};
use clap::{Args, Parser};
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection, Row};

use crate::cli::{Cli, Command};
use crate::exit::Outcome;

#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Where to create the database (an earlier demo database there is replaced)
    #[arg(long, value_name = "FILE", default_value = "idemctl-demo.db")]
    pub path: PathBuf,
}

/// Marks a file as a demo database, so that a rerun may replace it and nothing else.
const MARKER: &str = "idemctl_demo";

const SCHEMA: &str = include_str!("../../queries/sqlite/demo_schema.sql");

pub async fn run(args: DemoArgs) -> Result<Outcome> {
    prepare_path(&args.path).await?;
    let url = format!("sqlite:{}", args.path.display());
    // A scratch file: no need to wait for the disk on every write.
    let mut conn = SqliteConnectOptions::from_str(&url)?
        .create_if_missing(true)
        .journal_mode(sqlx::sqlite::SqliteJournalMode::Memory)
        .synchronous(sqlx::sqlite::SqliteSynchronous::Off)
        .connect()
        .await?;
    let now = Utc::now().duration_trunc(Duration::hours(1))?;
    let counts = populate(&mut conn, now, Utc::now()).await?;
    conn.close().await?;
    {
        let mut err = std::io::stderr().lock();
        writeln!(
            err,
            "Created {} with {} orders over the last 7 days and {} idempotency keys.\n",
            args.path.display(),
            counts.0,
            counts.1
        )?;
    }
    let scan = Cli::try_parse_from([
        "idemctl",
        "scan",
        "--database-url",
        &url,
        "--table",
        "orders",
        "--by",
        "customer_id",
        "--sum",
        "amount_cents",
    ])?;
    let Command::Scan(scan) = scan.command else { unreachable!("parsed a scan") };
    super::scan::run(*scan).await?;
    let db = args.path.display();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "\nTry next:\n  \
         idemctl scan --database-url sqlite:{db} --table orders --output rows --format csv   # the remediation list\n  \
         idemctl scan --database-url sqlite:{db} --table orders --window 60s                 # a wider window joins slower retries\n  \
         idemctl scan --database-url sqlite:{db} --table orders --since 24h --format json    # the last day, for a pipeline\n  \
         idemctl stuck --database-url sqlite:{db} --max-duration 'POST /v1/payments=30s'     # keys a crash left in progress\n  \
         idemctl reap --database-url sqlite:{db} --dry-run                                   # what reap would release\n  \
         idemctl expire --database-url sqlite:{db} --dry-run                                 # keys past their expiry\n  \
         idemctl size --database-url sqlite:{db}                                             # the key table's size and growth\n  \
         idemctl doctor --database-url sqlite:{db} --creation-table orders                   # its design checked\n  \
         sqlite3 {db} 'SELECT status, count(*) FROM idempotency_keys GROUP BY 1'           # the key table"
    )?;
    Ok(Outcome::Clean)
}

/// Refuses to touch a file that is not an earlier demo database.
async fn prepare_path(path: &Path) -> Result<()> {
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

/// A small deterministic generator (SplitMix64): the same data on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }
}

fn iso(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

struct Order {
    customer_id: i64,
    sku: String,
    quantity: i64,
    amount_cents: i64,
    currency: &'static str,
}

/// A row of `orders`: the order, its key and its creation time.
struct OrderRow {
    public_id: String,
    customer_id: i64,
    sku: String,
    quantity: i64,
    amount_cents: i64,
    currency: &'static str,
    key: Option<String>,
    created_at: String,
}

/// A row of `idempotency_keys`.
struct KeyRow {
    scope_id: String,
    operation: &'static str,
    key: String,
    request_hash: Vec<u8>,
    status: &'static str,
    response_code: Option<i64>,
    response_body: Option<&'static str>,
    locked_at: Option<String>,
    created_at: String,
    expires_at: String,
}

/// Rows a statement: multi-row inserts are many times faster than one at a time.
const BATCH: usize = 500;

async fn insert_orders(conn: &mut SqliteConnection, rows: &[OrderRow]) -> Result<()> {
    for chunk in rows.chunks(BATCH) {
        let mut q = sqlx::QueryBuilder::new(
            "INSERT INTO orders (public_id, customer_id, sku, quantity, amount_cents, currency, idempotency_key, created_at) ",
        );
        q.push_values(chunk, |mut b, r| {
            b.push_bind(&r.public_id)
                .push_bind(r.customer_id)
                .push_bind(&r.sku)
                .push_bind(r.quantity)
                .push_bind(r.amount_cents)
                .push_bind(r.currency)
                .push_bind(&r.key)
                .push_bind(&r.created_at);
        });
        q.build().execute(&mut *conn).await?;
    }
    Ok(())
}

async fn insert_keys(conn: &mut SqliteConnection, rows: &[KeyRow]) -> Result<()> {
    for chunk in rows.chunks(BATCH) {
        let mut q = sqlx::QueryBuilder::new(
            "INSERT INTO idempotency_keys (scope_id, operation, key, request_hash, status, response_code, response_body, locked_at, created_at, expires_at) ",
        );
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

/// Fills the database; returns the number of orders and of keys.
/// Traffic ends at `now` (the start of the hour); keys in progress are
/// placed against `clock`, the actual time, so that their ages are real.
async fn populate(conn: &mut SqliteConnection, now: DateTime<Utc>, clock: DateTime<Utc>) -> Result<(u64, u64)> {
    sqlx::raw_sql(SCHEMA).execute(&mut *conn).await?;
    let mut tx = conn.begin().await?;
    let mut rng = Rng(20_261_130);
    let start = now - Duration::days(7);
    let mut t = start;
    let mut n = 0u64;
    let mut order_rows: Vec<OrderRow> = Vec::new();
    let mut key_rows: Vec<KeyRow> = Vec::new();
    while t < now {
        n += 1;
        // About one order every 20 s, busier by day.
        t += Duration::milliseconds(2_000 + rng.below(36_000) as i64);
        let order = Order {
            customer_id: 1000 + rng.below(400) as i64,
            sku: format!("SKU-{:03}", rng.below(120)),
            quantity: 1 + rng.below(3) as i64,
            amount_cents: 500 + 100 * rng.below(200) as i64,
            currency: ["EUR", "EUR", "USD", "GBP"][rng.below(4) as usize],
        };
        // A fifth of the traffic comes from a legacy client that sends no key.
        let legacy = rng.chance(200);
        let key = |attempt: u64| format!("{:016x}-{attempt}", n.wrapping_mul(0x9E37_79B9) ^ 0x5eed);
        let mut attempts: Vec<(Duration, Option<String>)> = vec![(Duration::zero(), (!legacy).then(|| key(0)))];
        let roll = rng.below(10_000);
        match roll {
            // Lost responses retried by the legacy client: no key at all.
            0..=30 if legacy || roll < 10 => {
                attempts[0].1 = None;
                let mut at = Duration::zero();
                for _ in 0..1 + rng.below(2) {
                    at += Duration::milliseconds(400 + rng.below(3_600) as i64);
                    attempts.push((at, None));
                }
            }
            // A client that mints the key inside its retry loop.
            31..=50 => {
                let gap = Duration::milliseconds(1_000 + rng.below(3_000) as i64);
                attempts.push((gap, Some(key(1))));
            }
            // The server let a retry with the same key through.
            51..=62 => {
                let gap = Duration::milliseconds(50 + rng.below(450) as i64);
                let same = attempts[0].1.clone().or_else(|| Some(key(0)));
                attempts[0].1 = same.clone();
                attempts.push((gap, same));
            }
            // The same customer buying the same thing again a minute later: not damage.
            63..=80 => attempts.push((Duration::seconds(40 + rng.below(60) as i64), (!legacy).then(|| key(1)))),
            _ => {}
        }
        for (i, (offset, attempt_key)) in attempts.iter().enumerate() {
            let created = t + *offset;
            order_rows.push(OrderRow {
                public_id: format!("ord_{:012x}", (order_rows.len() as u64 + 1).wrapping_mul(0x2545_F491)),
                customer_id: order.customer_id,
                sku: order.sku.clone(),
                quantity: order.quantity,
                amount_cents: order.amount_cents,
                currency: order.currency,
                key: attempt_key.clone(),
                created_at: iso(created),
            });
            // One key row per key the server saw first.
            let Some(attempt_key) = attempt_key else { continue };
            if i > 0 && attempts[0].1.as_deref() == Some(attempt_key.as_str()) {
                continue;
            }
            let (status, code, body) = match rng.below(1000) {
                0..=14 => ("failed_retryable", Some(503), Some(r#"{"error":"upstream timeout"}"#)),
                15..=21 => ("failed_permanent", Some(422), Some(r#"{"error":"card declined"}"#)),
                _ => ("succeeded", Some(201), Some(r#"{"status":"created"}"#)),
            };
            key_rows.push(KeyRow {
                scope_id: format!("cust_{}", order.customer_id),
                operation: "POST /v1/orders",
                key: attempt_key.clone(),
                request_hash: format!("{:016x}", rng.next()).into_bytes(),
                status,
                response_code: code,
                response_body: body,
                locked_at: None,
                created_at: iso(created),
                expires_at: iso(created + Duration::hours(24)),
            });
        }
    }
    // Keys a crashed worker left in progress, and keys in flight right now.
    let stuck: [(i64, &'static str, i64); 6] = [
        (7, "POST /v1/payments", 3 * 3600),
        (11, "POST /v1/payments", 40 * 60),
        (12, "POST /v1/orders", 2 * 3600),
        (19, "POST /v1/refunds", 26 * 3600),
        (23, "POST /v1/payments", 5),
        (29, "POST /v1/orders", 2),
    ];
    for (customer, operation, age) in stuck {
        let locked = clock - Duration::seconds(age);
        key_rows.push(KeyRow {
            scope_id: format!("cust_{}", 1000 + customer),
            operation,
            key: format!("inflight-{customer}-{age}"),
            request_hash: format!("{:016x}", rng.next()).into_bytes(),
            status: "in_progress",
            response_code: None,
            response_body: None,
            locked_at: Some(iso(locked)),
            created_at: iso(locked),
            expires_at: iso(locked + Duration::hours(24)),
        });
    }
    insert_orders(&mut tx, &order_rows).await?;
    insert_keys(&mut tx, &key_rows).await?;
    tx.commit().await?;
    Ok((order_rows.len() as u64, key_rows.len() as u64))
}
