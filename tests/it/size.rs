//! `idemctl size` against real PostgreSQL, MariaDB/MySQL and SQLite, and as a calculator.

use crate::common::{Engine, Run, TestDb, csv_records, run};
use assert_cmd::Command;
use serde_json::Value;

const NOW: &str = "2026-06-15T12:00:00Z";

/// Keys written on known days before NOW: 1 on May 20 (outside the 14 days),
/// 3 on June 10, 5 on June 12, 2 on June 13, 4 on June 14, 1 today (left out,
/// being partial). Expired: the May key, the June 10 keys and one June 12 key
/// in progress (kept by expire, so not backlog).
fn keys(db: &TestDb) {
    let (text, ts) = (db.ty("text"), db.ty("time"));
    db.exec(&format!(
        "CREATE TABLE idempotency_keys (scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL,
            status {text} NOT NULL, response_body {text}, created_at {ts} NOT NULL, expires_at {ts} NOT NULL,
            PRIMARY KEY (scope_id, operation, {key}));
         CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at)",
        key = db.ident("key"),
    ));
    let mut rows = Vec::new();
    let mut add = |day: &str, n: usize, status: &str, expires: &str| {
        for i in 0..n {
            rows.push(format!(
                "('s', 'op', 'k-{day}-{status}-{i}', '{status}', '{{\"ok\":true}}', {}, {})",
                db.ts(&format!("{day} 0{i}:30:00")),
                db.ts(expires)
            ));
        }
    };
    add("2026-05-20", 1, "succeeded", "2026-05-23 00:00:00");
    add("2026-06-10", 3, "succeeded", "2026-06-13 00:00:00");
    add("2026-06-12", 4, "succeeded", "2026-06-16 00:00:00");
    add("2026-06-12", 1, "in_progress", "2026-06-14 00:00:00");
    add("2026-06-13", 2, "succeeded", "2026-06-16 00:00:00");
    add("2026-06-14", 4, "succeeded", "2026-06-17 00:00:00");
    add("2026-06-15", 1, "succeeded", "2026-06-18 00:00:00");
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {}, status, response_body, created_at, expires_at) VALUES {}",
        db.ident("key"),
        rows.join(", ")
    ));
}

fn size(db: &TestDb, extra: &[&str]) -> Run {
    let mut args = vec!["size"];
    args.extend_from_slice(extra);
    let mut cmd = db.idemctl(&args);
    cmd.env("IDEMCTL_TEST_NOW", NOW);
    run(cmd)
}

fn json(out: &Run) -> Value {
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

fn storage_writes_backlog_and_projection(db: &TestDb) {
    keys(db);
    let doc = json(&size(db, &["--format", "json", "--exact"]));
    let storage = &doc["storage"];
    assert_eq!(storage["rows"], 16);
    assert_eq!(storage["rows_exact"], true);
    let total = storage["total_bytes"].as_u64().unwrap();
    assert!(total > 0);
    let index = storage["index_bytes"].as_u64().unwrap();
    assert!(index > 0, "the expires_at index has pages: {storage}");
    if db.engine != Engine::MySql {
        let parts = storage["table_bytes"].as_u64().unwrap() + index + storage["overflow_bytes"].as_u64().unwrap();
        assert_eq!(parts, total, "table + indexes + overflow is the total: {storage}");
    }
    let per_row = storage["bytes_per_row"].as_f64().unwrap();
    assert!((per_row - total as f64 / 16.0).abs() < 0.1, "{storage}");

    let writes = &doc["writes"];
    assert_eq!(writes["first_day"], "2026-06-01");
    assert_eq!(writes["last_day"], "2026-06-14");
    let by_day: Vec<(String, u64)> = writes["by_day"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["day"].as_str().unwrap().to_string(), d["rows"].as_u64().unwrap()))
        .collect();
    assert_eq!(by_day.len(), 14);
    let nonzero: Vec<(&str, u64)> = by_day.iter().filter(|d| d.1 > 0).map(|(d, n)| (d.as_str(), *n)).collect();
    assert_eq!(nonzero, [("2026-06-10", 3), ("2026-06-12", 5), ("2026-06-13", 2), ("2026-06-14", 4)]);
    assert_eq!(writes["total"], 14);
    assert_eq!(writes["peak_day"]["day"], "2026-06-12");
    assert_eq!(writes["peak_day"]["rows"], 5);
    // The keys live 47h 30m at least (the June 12 key in progress): the 5
    // rows created since 14:00 on June 13, 46 hours, are all kept, and are
    // denser than the window from the hour after the first rows (14 rows
    // in 5d 11h, 2.56 a day), so they give the rate.
    assert_eq!(doc["rate_source"], "retention");
    assert_eq!(doc["rows_per_day"], 2.61);
    let rates: Vec<(&str, f64, u64, &str)> = doc["rates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["source"].as_str().unwrap(),
                m["rows_per_day"].as_f64().unwrap(),
                m["rows"].as_u64().unwrap(),
                m["since"].as_str().unwrap(),
            )
        })
        .take(2)
        .collect();
    assert_eq!(rates, [("window", 2.56, 14, "2026-06-10T01:00:00Z"), ("retention", 2.61, 5, "2026-06-13T14:00:00Z")]);

    assert_eq!(doc["backlog"]["rows"], 4, "the May key and the three June 10 keys; not the one in progress");
    assert_eq!(doc["backlog"]["column"], "expires_at");
    assert_eq!(doc["backlog"]["expired_before"], NOW);

    let projections = doc["projections"].as_array().unwrap();
    let got: Vec<(&str, u64, u64)> = projections
        .iter()
        .map(|p| (p["retention"].as_str().unwrap(), p["rows"].as_u64().unwrap(), p["bytes"].as_u64().unwrap()))
        .collect();
    let bytes = |rows: f64| (rows * per_row).round() as u64;
    assert_eq!(got, [("24h", 3, bytes(2.61)), ("72h", 8, bytes(7.83))]);
    let peak: Vec<u64> = projections.iter().map(|p| p["peak_bytes"].as_u64().unwrap()).collect();
    assert_eq!(peak, [bytes(5.0), bytes(15.0)], "at the peak day's 5 rows");
    assert_eq!(doc["growth_bytes_per_day"].as_f64().unwrap().round() as u64, bytes(2.61));

    // A horizon counts the backlog by created_at: only the May key is older than 20 days.
    let doc = json(&size(db, &["--format", "json", "--older-than", "20d", "--retention", "7d", "--days", "3"]));
    assert_eq!(doc["backlog"]["rows"], 1);
    assert_eq!(doc["backlog"]["column"], "created_at");
    assert_eq!(doc["writes"]["first_day"], "2026-06-12");
    // Rows older than the three days: the first of them is whole, and the
    // window is all of it, 12 rows in 3.5 days.
    assert_eq!(doc["rate_source"], "window");
    assert_eq!(doc["rows_per_day"], 3.43);
    assert_eq!(doc["projections"][0]["retention"], "7d");
    assert_eq!(doc["projections"][0]["rows"], 24);
}

fn estimates_say_so(db: &TestDb) {
    keys(db);
    match db.engine {
        Engine::Postgres => {
            // Never analyzed: the estimate is unknown, so the rows are counted, and the note says so.
            let out = size(db, &["--format", "csv"]);
            assert_eq!(out.code, 0, "{}", out.stderr);
            assert!(out.stderr.contains("never analyzed"), "{}", out.stderr);
            assert!(csv_records(&out.stdout).contains(&vec![
                "storage".into(),
                "rows_exact".into(),
                "true".into(),
                "bool".into()
            ]));
            db.exec("ANALYZE idempotency_keys");
        }
        Engine::MySql => db.exec("ANALYZE TABLE idempotency_keys"),
        Engine::Sqlite => {}
    }
    // The rows are counted by their creation time, whatever the estimate.
    let out = size(db, &["--format", "json"]);
    let doc = json(&out);
    assert_eq!((doc["storage"]["rows"].as_u64(), doc["storage"]["rows_exact"].as_bool()), (Some(16), Some(true)));
    if db.engine == Engine::MySql {
        let notes = doc["notes"].to_string();
        assert!(notes.contains("InnoDB's statistics") && !notes.contains("--exact"), "{notes}");
    }
}

fn csv_and_ndjson_give_the_same_figures(db: &TestDb) {
    keys(db);
    let out = size(db, &["--format", "csv", "--exact"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let records = csv_records(&out.stdout);
    assert_eq!(records[0], ["section", "name", "value", "unit"]);
    let row = |s: &str, n: &str, unit: &str| {
        records.iter().find(|r| r[0] == s && r[1] == n && r[3] == unit).map(|r| r[2].clone()).unwrap_or_default()
    };
    assert_eq!(row("storage", "rows", "rows"), "16");
    assert_eq!(row("writes", "2026-06-12", "rows"), "5");
    assert_eq!(row("writes", "2026-06-02", "rows"), "0");
    assert_eq!(row("backlog", "rows", "rows"), "4");
    assert_eq!(row("rate", "rows_per_day", "rows"), "2.61");
    assert_eq!(row("rate", "source", "text"), "retention");
    assert_eq!(row("rates", "window", "rows"), "2.56");
    assert_eq!(row("projection", "72h", "rows"), "8");
    let out = size(db, &["--format", "ndjson", "--exact"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), records.len(), "a figure a line, then the summary");
    assert!(lines.contains(
        &serde_json::json!({"type": "figure", "section": "backlog", "name": "rows", "value": 4, "unit": "rows"})
    ));
    assert_eq!(lines.last().unwrap()["type"], "summary");
}

fn the_table_shows_a_chart(db: &TestDb) {
    keys(db);
    let out = size(db, &["--exact"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line = |day: &str| out.stdout.lines().find(|l| l.trim_start().starts_with(day)).unwrap_or("").to_string();
    assert!(line("2026-06-12").ends_with(&"█".repeat(40)), "the peak day fills the bar:\n{}", out.stdout);
    assert!(line("2026-06-13").ends_with(&"█".repeat(16)), "2 of 5 is 16 cells:\n{}", out.stdout);
    assert!(!line("2026-06-02").contains('█'));
    assert!(out.stdout.contains("peak 2026-06-12 with 5 rows"), "{}", out.stdout);
    assert!(
        out.stdout.contains("write rate: 3 rows a day, from the rows created within the 1d 23h retention"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("  also 3 a day from the rows created in the last 5d 11h that the table holds"));
    assert!(out.stdout.contains("expiry backlog: 4 rows"), "{}", out.stdout);
}

fn a_table_without_created_at(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE seen (id {}, expires_at {} NOT NULL)",
        db.ty("pk"),
        if db.engine == Engine::MySql { "DATETIME(6)" } else { "TIMESTAMP" }
    ));
    db.exec(&format!(
        "INSERT INTO seen (expires_at) VALUES ({0}), ({0}), ({1})",
        db.ts("2026-06-01 00:00:00"),
        db.ts("2026-07-01 00:00:00")
    ));
    let doc = json(&size(db, &["--table", "seen", "--format", "json", "--exact"]));
    assert!(doc["writes"].is_null());
    assert!(doc["notes"].to_string().contains("no created_at column"), "{doc}");
    assert!(doc["projections"].as_array().unwrap().is_empty(), "no rate, no projection");
    assert_eq!(doc["backlog"]["rows"], 2);
    // A given rate stands in for the measured one; the row size is measured.
    let doc = json(&size(db, &["--table", "seen", "--format", "json", "--exact", "--rate", "100/day"]));
    assert_eq!(doc["projections"][1]["rows"], 300);
    assert!(doc["projections"][1]["peak_bytes"].is_null(), "no peak for a given rate");
    let per_row = doc["storage"]["bytes_per_row"].as_f64().unwrap();
    assert_eq!(doc["projections"][1]["bytes"].as_u64().unwrap(), (300.0 * per_row).round() as u64);
    // An unknown column named by flag is bad input.
    let out = size(db, &["--table", "seen", "--created-at-column", "made_at"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with("idemctl: --created-at-column made_at: no column \"made_at\"")
            && out.stderr.lines().count() == 1,
        "{}",
        out.stderr
    );
}

/// Right after a bulk load InnoDB's statistics may still describe an empty
/// table; the size must not read a few bytes a row from them.
fn a_fresh_bulk_load_is_sized_plausibly(db: &TestDb) {
    keys(db);
    let key = db.ident("key");
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {key}, status, response_body, created_at, expires_at)
         WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
         SELECT 'bulk', 'op', CONCAT('k-', a.i, '-', b.i), 'succeeded', 'a response body of some length, as stored',
                {c}, {e}
         FROM n AS a CROSS JOIN n AS b WHERE b.i <= 100",
        c = db.ts("2026-06-14 10:00:00"),
        e = db.ts("2026-06-17 10:00:00"),
    ));
    let doc = json(&size(db, &["--format", "json"]));
    let per_row = doc["storage"]["bytes_per_row"].as_f64().unwrap();
    assert!(per_row >= 50.0, "a row holds more than 50 bytes of data: {}", doc["storage"]);
    assert!(doc["storage"]["total_bytes"].as_u64().unwrap() >= 30_000 * 50, "{}", doc["storage"]);
}

/// Rows a status keeps past a horizon (a live one named, and one in a
/// status neither finished nor live) stay whatever the retention: each
/// projection counts those past its horizon in, as expire would leave them,
/// and says so. Without a status column nothing is added.
fn projections_count_the_rows_a_status_keeps(db: &TestDb) {
    keys(db);
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {}, status, response_body, created_at, expires_at) VALUES
         ('s', 'op', 'k-held-1', 'pending', NULL, {june12}, {june16}),
         ('s', 'op', 'k-held-2', 'pending', NULL, {june12}, {june16}),
         ('s', 'op', 'k-odd', 'parked', NULL, {june14}, {june16})",
        db.ident("key"),
        june12 = db.ts("2026-06-12 05:30:00"),
        june14 = db.ts("2026-06-14 06:30:00"),
        june16 = db.ts("2026-06-16 00:00:00"),
    ));
    let args = ["--format", "json", "--rate", "100/day", "--live-value", "pending"];
    let doc = json(&size(db, &args));
    let per_row = doc["storage"]["bytes_per_row"].as_f64().unwrap();
    let got: Vec<(&str, u64, u64, u64)> = doc["projections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let n = |k: &str| p[k].as_u64().unwrap();
            (p["retention"].as_str().unwrap(), n("rows"), n("kept_rows"), n("bytes"))
        })
        .collect();
    let bytes = |rows: f64| (rows * per_row).round() as u64;
    // Past 24h (before June 14, 12:00): the two pending keys and the parked
    // one; past 72h (before June 12, 12:00): the two pending keys.
    assert_eq!(got, [("24h", 103, 3, bytes(103.0)), ("72h", 302, 2, bytes(302.0))]);
    let notes = doc["notes"].to_string();
    assert!(notes.contains("live: 3 past 24h, 2 past 72h): each projection counts them in"), "{notes}");
    // Named finished, the parked key goes at 24h too.
    let doc = json(&size(db, &[&args[..], &["--finished-value", "parked"]].concat()));
    assert_eq!(doc["projections"][0]["kept_rows"], 2);
    assert_eq!(doc["projections"][0]["rows"], 102);
    // A table whose state no status column tells: the plain projection.
    db.exec("CREATE TABLE plain_keys (id INTEGER PRIMARY KEY, created_at TIMESTAMP NOT NULL)");
    db.exec(&format!(
        "INSERT INTO plain_keys VALUES (1, {}), (2, {})",
        db.ts("2026-06-12 05:30:00"),
        db.ts("2026-06-15 05:30:00")
    ));
    let doc = json(&size(db, &["--table", "plain_keys", "--format", "json", "--rate", "100/day"]));
    assert_eq!(doc["projections"][0]["rows"], 100);
    assert_eq!(doc["projections"][0]["kept_rows"], 0);
    assert!(!doc["notes"].to_string().contains("a status keeps"), "{}", doc["notes"]);
}

on_every_engine!(
    storage_writes_backlog_and_projection,
    estimates_say_so,
    csv_and_ndjson_give_the_same_figures,
    the_table_shows_a_chart,
    a_table_without_created_at,
    a_fresh_bulk_load_is_sized_plausibly,
    the_rate_of_a_table_expire_keeps,
    projections_count_the_rows_a_status_keeps,
);

fn calculator(args: &[&str]) -> Run {
    let mut cmd = Command::cargo_bin("idemctl").unwrap();
    cmd.env_remove("DATABASE_URL").arg("size").args(args);
    run(cmd)
}

#[test]
fn the_calculator_needs_no_database() {
    let out = calculator(&["--rate", "10M/day", "--row-bytes", "1KB", "--retention", "24h,72h"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("10M rows a day x 1 KB a row: grows 10 GB a day"), "{}", out.stdout);
    let rows: Vec<Vec<&str>> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with(' '))
        .map(|l| l.trim().split("  ").map(str::trim).filter(|c| !c.is_empty()).collect())
        .collect();
    assert_eq!(rows, [vec!["retention", "rows", "size"], vec!["24h", "10M", "10 GB"], vec!["72h", "30M", "30 GB"]]);
    assert!(out.stderr.contains("decimal units"), "{}", out.stderr);

    // Binary units are accepted on input; output stays decimal.
    let out = calculator(&["--rate", "1M/day", "--row-bytes", "1KiB", "--format", "json"]);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["bytes_per_row"], 1024.0);
    assert_eq!(doc["projections"][0]["bytes"], 1_024_000_000u64);
    assert_eq!(doc["projections"][1]["bytes"], 3_072_000_000u64);
    assert!(doc.get("storage").is_none());

    let out = calculator(&["--rate", "5k/min", "--row-bytes", "2KB", "--retention", "7d", "--format", "csv"]);
    let records = csv_records(&out.stdout);
    assert!(records.contains(&vec!["projection".into(), "7d".into(), "50400000".into(), "rows".into()]));
    assert!(records.contains(&vec!["projection".into(), "7d".into(), "100800000000".into(), "bytes".into()]));
}

#[test]
fn bad_calculator_input_is_one_line_and_exit_2() {
    for (args, says) in [
        (&["--rate", "10M", "--row-bytes", "1KB"][..], "not a rate"),
        (&["--rate", "10M/day", "--row-bytes", "1XB"][..], "unknown size unit"),
        (&["--rate", "10M/day"][..], "needs both --rate and --row-bytes"),
        (&[][..], "no database"),
        (&["--rate", "1/s", "--row-bytes", "1KB", "--retention", "soon"][..], "soon"),
    ] {
        let out = calculator(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty());
    }
}

/// `at` moved by `seconds` (an SQL expression, negative for earlier).
fn shifted(db: &TestDb, at: &str, seconds: &str) -> String {
    match db.engine {
        Engine::Postgres => format!("(CAST({} AS timestamptz) + ({seconds}) * interval '1 second')", db.ts(at)),
        Engine::MySql => format!("TIMESTAMPADD(MICROSECOND, ROUND(({seconds}) * 1000000), {})", db.ts(at)),
        Engine::Sqlite => format!("strftime('%Y-%m-%d %H:%M:%f', {}, (({seconds})) || ' seconds')", db.ts(at)),
    }
}

/// A key table taking 5,000 keys a day for three days, each kept 24 hours,
/// as the README's cron line keeps it: after expire, size says 5,000 a day
/// (within 10%), from a source it names, with the rows counted and the stale
/// estimate said; what was written before the change read as 330.
fn the_rate_of_a_table_expire_keeps(db: &TestDb) {
    let (text, ts) = (db.ty("text"), db.ty("time"));
    let key = db.ident("key");
    db.exec(&format!(
        "CREATE TABLE idempotency_keys (scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL,
            status {text} NOT NULL, response_body {text}, created_at {ts} NOT NULL, expires_at {ts} NOT NULL,
            PRIMARY KEY (scope_id, operation, {key}));
         CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at)"
    ));
    let at = "2026-06-15 12:00:00";
    let step = 86_400.0 / 5_000.0;
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {key}, status, response_body, created_at, expires_at)
         SELECT 's', 'POST /v1/payments', CONCAT('k-', n), 'succeeded', '{{\"id\": \"pay_1\"}}', {c}, {e} FROM {series}",
        c = shifted(db, at, &format!("-n * {step}")),
        e = shifted(db, at, &format!("86400 - n * {step}")),
        series = db.series(15_000),
    ));
    match db.engine {
        // Autovacuum would otherwise analyze after expire's deletes, at a
        // moment of its own, and the stale estimate asserted below with it.
        Engine::Postgres => db.exec(
            "ALTER TABLE idempotency_keys SET (autovacuum_enabled = false);
             ANALYZE idempotency_keys",
        ),
        Engine::MySql => db.exec("ANALYZE TABLE idempotency_keys"),
        Engine::Sqlite => {}
    }
    let mut expire = db.idemctl(&["expire", "--quiet"]);
    expire.env("IDEMCTL_TEST_NOW", NOW);
    let out = run(expire);
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (0, "", ""));
    let left = db.ids("SELECT count(*) FROM idempotency_keys")[0];
    assert_eq!(left, 5_000, "the keys of the last 24 hours");
    let doc = json(&size(db, &["--format", "json"]));
    let rate = doc["rows_per_day"].as_f64().unwrap();
    assert!((rate - 5_000.0).abs() <= 500.0, "{rate}: {}", doc["rates"]);
    assert!(["window", "retention"].contains(&doc["rate_source"].as_str().unwrap()), "{doc}");
    let sources: Vec<&str> = doc["rates"].as_array().unwrap().iter().map(|m| m["source"].as_str().unwrap()).collect();
    assert_eq!(&sources[..2], ["window", "retention"], "the 24h lifetime read from expires_at - created_at");
    for m in doc["rates"].as_array().unwrap() {
        let r = m["rows_per_day"].as_f64().unwrap();
        assert!((r - 5_000.0).abs() <= 500.0, "{m}");
    }
    assert_eq!(doc["storage"]["rows"], 5_000, "counted by created_at, not the estimate");
    assert_eq!(doc["storage"]["rows_exact"], true);
    let projected = doc["projections"][0]["rows"].as_u64().unwrap();
    assert!((4_500..=5_500).contains(&projected), "24h: {projected}");
    if db.engine == Engine::Postgres {
        let notes = doc["notes"].to_string();
        assert!(notes.contains("estimate (15,000) is stale, 5,000 rows were counted"), "{notes}");
    }
    if db.engine == Engine::Postgres {
        // The insert counter against the reading a metrics file kept, taken a
        // day earlier with 5,000 fewer rows inserted: that gives the rate.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("size.prom");
        let metrics = file.to_str().unwrap();
        let first = json(&size(db, &["--format", "json", "--metrics-file", metrics]));
        assert!(!first["rates"].to_string().contains("inserts"), "no earlier reading: {}", first["rates"]);
        let text = std::fs::read_to_string(&file).unwrap();
        let earlier: String = text
            .lines()
            .map(|l| {
                let (series, value) = l.rsplit_once(' ').unwrap_or((l, ""));
                match value.parse::<f64>() {
                    Ok(v) if series.starts_with("idemctl_size_inserts_base_total{") => {
                        format!("{series} {}", v - 5_000.0)
                    }
                    Ok(v) if series.starts_with("idemctl_size_inserts_base_timestamp_seconds{") => {
                        format!("{series} {}", v - 86_400.0)
                    }
                    _ => l.to_string(),
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert!(earlier.contains("idemctl_size_inserts_base_total{"), "{text}");
        std::fs::write(&file, earlier).unwrap();
        // The base reading is kept from run to run (hourly runs still measure a day).
        for _ in 0..2 {
            let doc = json(&size(db, &["--format", "json", "--metrics-file", metrics]));
            assert_eq!(doc["rate_source"], "inserts", "{}", doc["rates"]);
            let rate = doc["rows_per_day"].as_f64().unwrap();
            assert!((rate - 5_000.0).abs() <= 10.0, "{rate}");
        }
    }
    let out = size(db, &[]);
    assert!(out.stdout.contains("write rate: "), "{}", out.stdout);
    assert!(!out.stdout.contains("over the last 1 days"), "{}", out.stdout);
}
