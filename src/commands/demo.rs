//! `idemctl demo`: an SQLite database with a week of orders and realistic
//! retry damage of every cause, plus an idempotency-key table in the
//! reference shape; then a scan of the damage and the commands to try next.
//!
//! The data is the same on every run but for its times, which end at the
//! start of the current hour so that "the last week" and "expired" mean what
//! they say.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use chrono::{DateTime, Duration, DurationRound, Utc};
use clap::Args;

use crate::db::demo::{self, KeyRow, OrderRow};

#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Where to create the database (an earlier demo database there is replaced)
    #[arg(long, value_name = "FILE", default_value = "idemctl-demo.db")]
    pub path: PathBuf,
}

/// The demo database, once created: the scan to run on it, and what to try next.
pub struct Demo {
    path: PathBuf,
}

/// Creates the database and says what it holds.
pub async fn create(args: &DemoArgs) -> Result<Demo> {
    demo::prepare(&args.path).await?;
    let now = Utc::now().duration_trunc(Duration::hours(1))?;
    let (orders, keys) = generate(now, Utc::now());
    demo::write(&args.path, &orders, &keys).await?;
    writeln!(
        std::io::stderr().lock(),
        "Created {} with {} orders over the last 7 days and {} idempotency keys.\n",
        args.path.display(),
        orders.len(),
        keys.len()
    )?;
    Ok(Demo { path: args.path.clone() })
}

impl Demo {
    /// The command line of the scan the demo shows.
    pub fn scan_line(&self) -> Vec<String> {
        let url = format!("sqlite:{}", self.path.display());
        // Ten clusters fit a screen or two; the line after them says how many
        // more there are and how to list them.
        [
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
            "--limit",
            "10",
        ]
        .map(String::from)
        .to_vec()
    }

    /// The commands to try next, on stdout after the scan: each runs as
    /// printed, pasted into a shell here.
    pub fn try_next(&self) -> Result<()> {
        let url = quoted(&format!("sqlite:{}", self.path.display()));
        let file = quoted(&self.path.display().to_string());
        let idemctl = quoted(&invocation());
        let steps = [
            (
                "the remediation list",
                format!("{idemctl} scan --database-url {url} --table orders --output rows --format csv"),
            ),
            (
                "a wider window joins slower retries, and repeat purchases too",
                format!("{idemctl} scan --database-url {url} --table orders --window 20m"),
            ),
            (
                "the last day, for a pipeline",
                format!("{idemctl} scan --database-url {url} --table orders --since 24h --format json"),
            ),
            (
                "keys a crash left in progress",
                format!("{idemctl} stuck --database-url {url} --max-duration 'POST /v1/payments=30s'"),
            ),
            ("what reap would release", format!("{idemctl} reap --database-url {url} --dry-run")),
            ("keys past their expiry", format!("{idemctl} expire --database-url {url} --dry-run")),
            ("the key table's size and growth", format!("{idemctl} size --database-url {url}")),
            ("its design checked", format!("{idemctl} doctor --database-url {url} --creation-table orders")),
            ("the key table", format!("sqlite3 {file} 'SELECT status, count(*) FROM idempotency_keys GROUP BY 1'")),
        ];
        let mut out = std::io::stdout().lock();
        writeln!(out, "\nTry next:")?;
        let width = crate::report::table::Layout::for_stdout(false).width;
        for (what, command) in steps {
            writeln!(out, "  # {what}\n{}", shell_lines(&command, width))?;
        }
        Ok(())
    }
}

/// A command indented two columns, broken between its words with a shell
/// continuation (` \`) where it would pass `width`: it still pastes whole.
fn shell_lines(command: &str, width: Option<usize>) -> String {
    let Some(width) = width else { return format!("  {command}") };
    // Words as the shell splits them: a space inside single quotes is not a break.
    let mut words: Vec<String> = vec![String::new()];
    let (mut quoted, mut escaped) = (false, false);
    for c in command.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if !quoted => escaped = true,
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                words.push(String::new());
                continue;
            }
            _ => {}
        }
        words.last_mut().expect("a word").push(c);
    }
    let mut lines = vec![String::from("  ")];
    for word in &words {
        let line = lines.last_mut().expect("a line");
        let fresh = line.trim().is_empty();
        if !fresh && line.len() + 1 + word.len() + 2 > width {
            line.push_str(" \\");
            lines.push(format!("      {word}"));
        } else {
            if !fresh {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines.join("\n")
}

/// A word as a POSIX shell reads it back: quoted when it holds anything
/// but letters, digits and `_./:-`.
fn quoted(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "_./:-".contains(c)) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// How to run this binary as typed in a shell here: `idemctl` when that is
/// on the PATH, else its path (after `cargo run`, `./target/release/idemctl`).
fn invocation() -> String {
    let Ok(exe) = std::env::current_exe() else { return "idemctl".into() };
    // A link on the PATH to this binary (an install by symlink) is this binary.
    let real = exe.canonicalize().unwrap_or_else(|_| exe.clone());
    let on_path = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| dir.join("idemctl").canonicalize().is_ok_and(|p| p == real))
    });
    if on_path {
        return "idemctl".into();
    }
    match std::env::current_dir().ok().and_then(|cwd| exe.strip_prefix(cwd).ok().map(std::path::Path::to_path_buf)) {
        Some(relative) => format!("./{}", relative.display()),
        None => exe.display().to_string(),
    }
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

/// The demo's orders and keys. Traffic ends at `now` (the start of the
/// hour); keys in progress are placed against `clock`, the actual time, so
/// that their ages are real.
fn generate(now: DateTime<Utc>, clock: DateTime<Utc>) -> (Vec<OrderRow>, Vec<KeyRow>) {
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
            // The same customer buying the same thing again later: not damage.
            63..=80 => attempts.push((Duration::seconds(300 + rng.below(900) as i64), (!legacy).then(|| key(1)))),
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
                cart_token: format!("ct_{:016x}", crate::fingerprint::mix(order_rows.len() as u64, 7)),
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
    (order_rows, key_rows)
}

impl crate::commands::Definition for DemoArgs {
    fn name(&self) -> &'static str {
        "demo"
    }
    fn rows_key(&self) -> &'static str {
        "rows"
    }
    fn effect(&self) -> crate::commands::Effect {
        crate::commands::Effect::None
    }
    fn limit_runtime(&mut self, _: std::time::Duration) {}
    fn across_databases(&self) -> Result<(), &'static str> {
        Err("this command runs on no database")
    }
    fn totals(&self) -> crate::commands::Totals {
        crate::commands::Totals::Summaries
    }
    fn fold(&self, key: &str) -> crate::commands::Fold {
        let _ = key;
        crate::commands::Fold::Sum
    }
    fn metrics_labels(&self) -> Option<(String, String)> {
        None
    }
    fn for_database(&self, _: &str, _: &str) -> Box<dyn crate::commands::Definition> {
        Box::new(self.clone())
    }
    fn state_path(&self) -> Option<&std::path::Path> {
        None
    }
    fn take_global(&mut self, global: &crate::cli::Filled) -> Result<()> {
        let _ = global;
        Ok(())
    }
    fn run(self: Box<Self>) -> futures_util::future::BoxFuture<'static, Result<crate::exit::Outcome>> {
        Box::pin(crate::commands::abortable(demo_then_scan(*self)))
    }
}

/// The demo: a database with damage, a scan of it, and what to try next.
async fn demo_then_scan(args: DemoArgs) -> Result<crate::exit::Outcome> {
    use crate::commands::Definition;
    use clap::Parser;
    let demo = create(&args).await?;
    let line = demo.scan_line();
    let ScanLine { global, command: Only::Scan(mut scan) } = ScanLine::try_parse_from(line.iter().map(String::as_str))?;
    scan.take_global(&global.filled())?;
    crate::commands::scan::run(*scan).await?;
    demo.try_next()?;
    Ok(crate::exit::Outcome::Clean)
}

/// The demo's scan line, as the command line reads it.
#[derive(clap::Parser)]
#[command(name = "idemctl")]
struct ScanLine {
    #[command(flatten)]
    global: crate::cli::Global,
    #[command(subcommand)]
    command: Only,
}

#[derive(clap::Subcommand)]
enum Only {
    Scan(Box<crate::commands::scan::ScanArgs>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_commands_break_between_words_and_paste_whole() {
        let command = "idemctl stuck --database-url sqlite:/tmp/idemctl-demo.db --max-duration 'POST /v1/payments=30s'";
        let lines = shell_lines(command, Some(60));
        assert!(lines.lines().all(|l| l.len() <= 60), "{lines}");
        assert!(lines.contains("'POST /v1/payments=30s'"), "{lines}");
        assert_eq!(lines.replace(" \\\n      ", " ").trim_start(), command);
        assert_eq!(shell_lines(command, None), format!("  {command}"));
        // A path holding a quote, as `quoted` writes it: one word.
        let path = quoted("/tmp/it's here/demo.db");
        let lines = shell_lines(&format!("idemctl size --database-url {path}"), Some(30));
        assert!(lines.contains(&format!("\n      {path}")), "{lines}");
    }
}
