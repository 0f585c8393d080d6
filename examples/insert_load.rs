//! A concurrent insert load for `bench/expire.sh`: inserts fresh keys into
//! the key table one at a time on one connection, until SIGTERM/Ctrl-C or
//! the time limit, then prints the count and the latency percentiles.
//!
//!   insert_load URL SECONDS
//!
//! With INSERT_TRACE=FILE, each insert's start (Unix seconds) and latency
//! (ms) go to FILE too, one line each, to set against what else ran.

use std::time::{Duration, Instant};

use sqlx::{AssertSqlSafe, Connection};

fn unix_now() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let url = args.next().expect("usage: insert_load URL SECONDS");
    let limit = Duration::from_secs(args.next().map_or(60, |s| s.parse().expect("seconds")));
    let pid = std::process::id();
    // Each insert's start (Unix seconds) and latency.
    let mut inserts: Vec<(f64, Duration)> = Vec::new();
    let started = Instant::now();
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let mysql = url.starts_with("mysql") || url.starts_with("mariadb");
    let sql = if mysql {
        "INSERT INTO idempotency_keys (scope_id, operation, `key`, status, created_at, expires_at) \
         VALUES ('load', 'POST /load', ?, 'in_progress', NOW(6), NOW(6) + INTERVAL 1 DAY)"
    } else {
        "INSERT INTO idempotency_keys (scope_id, operation, key, status, created_at, expires_at) \
         VALUES ('load', 'POST /load', $1, 'in_progress', now(), now() + interval '1 day')"
    };
    let run = async {
        let mut n = 0u64;
        macro_rules! drive {
            ($conn:expr) => {
                while started.elapsed() < limit {
                    n += 1;
                    let (at, t) = (unix_now(), Instant::now());
                    sqlx::query(AssertSqlSafe(sql)).bind(format!("load-{pid}-{n}")).execute(&mut $conn).await?;
                    inserts.push((at, t.elapsed()));
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
            };
        }
        if mysql {
            let mut c = sqlx::MySqlConnection::connect(&url.replacen("mariadb:", "mysql:", 1)).await?;
            drive!(c);
        } else {
            let mut c = sqlx::PgConnection::connect(&url).await?;
            drive!(c);
        }
        anyhow::Ok(())
    };
    tokio::select! {
        r = run => r?,
        _ = term.recv() => {}
        _ = tokio::signal::ctrl_c() => {}
    }
    if let Ok(path) = std::env::var("INSERT_TRACE") {
        let lines: String =
            inserts.iter().map(|(at, d)| format!("{at:.3} {:.2}\n", d.as_secs_f64() * 1000.0)).collect();
        std::fs::write(path, lines)?;
    }
    let mut latencies: Vec<Duration> = inserts.iter().map(|&(_, d)| d).collect();
    latencies.sort();
    let pct = |p: f64| latencies.get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)));
    let ms = |d: Option<&Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    println!(
        "inserts {} p50 {:.2} ms p99 {:.2} ms max {:.2} ms",
        latencies.len(),
        ms(pct(0.50)),
        ms(pct(0.99)),
        ms(latencies.last())
    );
    Ok(())
}
