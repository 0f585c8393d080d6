//! `idemctl scan` against real PostgreSQL, MariaDB/MySQL and SQLite.

use crate::common::{Engine, Run, TestDb, as_user, csv_records, run};
use serde_json::{Value, json};

/// Orders with known damage. Expected with the defaults (window 5 s):
/// 1 -> [2] no-key; 3 -> [4] key-per-attempt; 5 -> [6, 7] key-reused (3 s gaps);
/// 11 -> [12] no-key (NULLs equal); 13 -> [14, 15] no-key (4 s gaps, 8 s span).
/// Not damage: 8 (two days after 1), 9/10 (notes differ), 16/17 (10 min apart,
/// beyond the 2 min window).
fn orders(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE orders (
            id {pk}, public_id {uuid}, order_ref {text} NOT NULL UNIQUE,
            customer_id INTEGER, amount {money}, currency {text}, note {text},
            idempotency_key {text}, created_at {ts})",
        pk = db.ty("pk"),
        uuid = db.ty("uuid"),
        text = db.ty("text"),
        money = db.ty("money"),
        ts = db.ty("ts"),
    ));
    // id, customer_id, amount, currency, note, idempotency_key, created_at
    type Row = (
        i64,
        Option<i64>,
        Option<&'static str>,
        Option<&'static str>,
        Option<&'static str>,
        Option<&'static str>,
        &'static str,
    );
    let rows: &[Row] = &[
        (1, Some(1), Some("10.00"), Some("EUR"), None, None, "2026-01-01 00:00:00"),
        (2, Some(1), Some("10.00"), Some("EUR"), None, None, "2026-01-01 00:00:02"),
        (3, Some(2), Some("5.00"), Some("USD"), Some("x"), Some("k3"), "2026-01-01 00:01:00"),
        (4, Some(2), Some("5.00"), Some("USD"), Some("x"), Some("k4"), "2026-01-01 00:01:01"),
        (5, Some(3), Some("7.00"), Some("EUR"), None, Some("k5"), "2026-01-01 00:02:00"),
        (6, Some(3), Some("7.00"), Some("EUR"), None, Some("k5"), "2026-01-01 00:02:03"),
        (7, Some(3), Some("7.00"), Some("EUR"), None, Some("k5"), "2026-01-01 00:02:06"),
        (8, Some(1), Some("10.00"), Some("EUR"), None, None, "2026-01-03 00:00:00"),
        (9, Some(4), Some("1.00"), Some("EUR"), Some("a"), None, "2026-01-01 00:03:00"),
        (10, Some(4), Some("1.00"), Some("EUR"), Some("b"), None, "2026-01-01 00:03:01"),
        (11, Some(5), None, None, None, None, "2026-01-01 00:04:00"),
        (12, Some(5), None, None, None, None, "2026-01-01 00:04:04"),
        (13, Some(6), Some("2.00"), Some("EUR"), None, None, "2026-01-01 00:05:00"),
        (14, Some(6), Some("2.00"), Some("EUR"), None, None, "2026-01-01 00:05:04"),
        (15, Some(6), Some("2.00"), Some("EUR"), None, None, "2026-01-01 00:05:08"),
        (16, Some(7), Some("3.00"), Some("EUR"), None, None, "2026-01-01 00:06:00"),
        (17, Some(7), Some("3.00"), Some("EUR"), None, None, "2026-01-01 00:16:00"),
    ];
    let lit = |v: Option<&str>| v.map_or("NULL".to_string(), |v| format!("'{v}'"));
    let values: Vec<String> = rows
        .iter()
        .map(|(id, c, a, cur, note, key, t)| {
            format!(
                "({id}, 'R{id}', {}, {}, {}, {}, {}, {})",
                c.map_or("NULL".into(), |c| c.to_string()),
                lit(*a),
                lit(*cur),
                lit(*note),
                lit(*key),
                db.ts(t)
            )
        })
        .collect();
    db.exec(&format!(
        "INSERT INTO orders (id, order_ref, customer_id, amount, currency, note, idempotency_key, created_at) VALUES {}",
        values.join(", ")
    ));
}

fn scan(db: &TestDb, extra: &[&str]) -> Run {
    let mut args = vec!["scan", "--table", "orders"];
    args.extend_from_slice(extra);
    run(db.idemctl(&args))
}

/// (original, duplicate, cause) per line of `--output rows --format csv`.
fn extra_rows(out: &Run) -> Vec<(String, String, String)> {
    let records = csv_records(&out.stdout);
    assert_eq!(records[0][..5], ["cluster", "original_id", "duplicate_id", "gap_seconds", "cause"]);
    records[1..].iter().map(|r| (r[1].clone(), r[2].clone(), r[4].clone())).collect()
}

fn triples(expected: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    expected.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect()
}

fn exact_extra_rows_and_causes(db: &TestDb) {
    orders(db);
    let out = scan(db, &["--output", "rows", "--format", "csv"]);
    assert_eq!(out.code, 1, "damage found exits 1: {}", out.stderr);
    assert_eq!(
        extra_rows(&out),
        triples(&[
            ("1", "2", "no-key"),
            ("3", "4", "key-per-attempt"),
            ("5", "6", "key-reused"),
            ("5", "7", "key-reused"),
            ("11", "12", "no-key"),
            ("13", "14", "no-key"),
            ("13", "15", "no-key"),
        ])
    );
    let records = csv_records(&out.stdout);
    let gaps: Vec<&str> = records[1..].iter().map(|r| r[3].as_str()).collect();
    assert_eq!(gaps, ["2.0", "1.0", "3.0", "3.0", "4.0", "4.0", "4.0"]);
    // An empty key is no key: rows 1 and 2 sharing '' reused none, and no
    // reason says they share one.
    db.exec("UPDATE orders SET idempotency_key = '' WHERE id IN (1, 2)");
    let empty = scan(db, &["--output", "rows", "--format", "csv"]);
    assert_eq!(extra_rows(&empty)[0], ("1".to_string(), "2".to_string(), "no-key".to_string()));
    assert!(!csv_records(&empty.stdout)[1][6].contains("share the key"), "{}", empty.stdout);
    db.exec("UPDATE orders SET idempotency_key = NULL WHERE id IN (1, 2)");
    let clusters: Vec<&str> = records[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(clusters, ["1", "2", "3", "3", "4", "5", "5"]);
    assert!(out.stderr.contains("extra rows: 7"), "summary goes to stderr beside CSV: {}", out.stderr);
    // What --limit leaves out is said as it is: two clusters have two extra
    // rows, three have one.
    for (limit, more) in [
        ("1", "4 more clusters with at most 2 extra rows each"),
        // The surest first: 5-7 (a shared key) and 3-4 (a second apart)
        // are certain and listed before the larger likely cluster 13-15.
        ("2", "3 more clusters with at most 2 extra rows each"),
        ("3", "2 more clusters with one extra row each"),
        ("4", "1 more cluster with one extra row"),
    ] {
        let out = scan(db, &["--limit", limit]);
        let said = format!("{}{}", out.stdout, out.stderr);
        assert!(said.contains(&format!("{more} (raise --limit")), "--limit {limit}: {said}");
    }
}

fn clusters_as_json(db: &TestDb) {
    orders(db);
    let out = scan(db, &["--format", "json", "--sum", "amount", "--by", "customer_id"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    assert_eq!(doc["compared_columns"], serde_json::json!(["customer_id", "amount", "currency", "note"]));
    // The summary: the rows' time range (ids 1 and 8 are the first and the
    // last created), 7 extra rows of 17, no row unreadable.
    assert_eq!(doc["time_range"], serde_json::json!({"first": "2026-01-01T00:00:00Z", "last": "2026-01-03T00:00:00Z"}));
    assert_eq!((doc["rows_scanned"].as_u64(), doc["extra_rows"].as_u64()), (Some(17), Some(7)));
    assert!((doc["extra_share"].as_f64().unwrap() - 7.0 / 17.0).abs() < 1e-9, "{}", doc["extra_share"]);
    assert_eq!(doc["rows_unreadable"], 0);
    let text = scan(db, &["--sum", "amount"]);
    let said = format!("{}{}", text.stdout, text.stderr);
    for line in [
        "time range: 2026-01-01T00:00:00Z .. 2026-01-03T00:00:00Z",
        "extra rows: 7 (41.176% of rows scanned)",
        "cluster count: 5 (no-key 3, key-per-attempt 1, key-reused 1)",
        "clusters by confidence: certain 2, likely 3\n",
    ] {
        assert!(said.contains(line), "{line}: {said}");
    }
    assert!(!said.contains("rows unreadable"), "{said}");
    let excluded: Vec<(String, String)> = doc["excluded_columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["column"].as_str().unwrap().to_string(), e["reason"].as_str().unwrap().to_string()))
        .collect();
    let reason = |c: &str| excluded.iter().find(|(n, _)| n == c).map(|(_, r)| r.clone()).unwrap_or_default();
    assert_eq!(reason("id"), "row id");
    assert_eq!(reason("created_at"), "created-at column");
    assert_eq!(reason("idempotency_key"), "idempotency-key column");
    assert!(reason("public_id").starts_with("default mints a value"), "{excluded:?}");
    assert!(reason("order_ref").starts_with("unique on its own"), "{excluded:?}");
    let clusters = doc["clusters"].as_array().unwrap();
    let summary: Vec<(String, Vec<String>, String, f64)> = clusters
        .iter()
        .map(|c| {
            (
                c["original_id"].as_str().unwrap().to_string(),
                c["extra_ids"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect(),
                c["cause"].as_str().unwrap().to_string(),
                c["span_seconds"].as_f64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, Vec<String>, String, f64)> = vec![
        ("1".into(), vec!["2".into()], "no-key".into(), 2.0),
        ("3".into(), vec!["4".into()], "key-per-attempt".into(), 1.0),
        ("5".into(), vec!["6".into(), "7".into()], "key-reused".into(), 6.0),
        ("11".into(), vec!["12".into()], "no-key".into(), 4.0),
        ("13".into(), vec!["14".into(), "15".into()], "no-key".into(), 8.0),
    ];
    assert_eq!(summary, expected);
    // NULL equals NULL, and the report shows it as null.
    assert_eq!(clusters[3]["values"]["amount"], Value::Null);
    assert_eq!(clusters[3]["values"]["customer_id"], "5");
    assert_eq!(clusters[0]["values"]["currency"], "EUR");
    assert_eq!(clusters[2]["sum"]["amount"]["EUR"].to_string().parse::<f64>().unwrap(), 14.0);
    assert_eq!(clusters[2]["by"], "3");
    assert_eq!(doc["rows_scanned"], 17);
    assert_eq!(doc["clusters"].as_array().unwrap().len(), 5);
    assert_eq!(doc["extra_rows"], 7);
    // Per currency: never added across them.
    assert_eq!(doc["sum_at_stake"]["amount"]["EUR"].to_string().parse::<f64>().unwrap(), 28.0);
    assert_eq!(doc["sum_at_stake"]["amount"]["USD"].to_string().parse::<f64>().unwrap(), 5.0);
    assert_eq!(doc["by_values_hit"], 5);
    assert_eq!(
        doc["clusters_by_cause"],
        serde_json::json!({"no-key": 3, "key-per-attempt": 1, "key-reused": 1, "unknown": 0})
    );
}

fn window_chains_rows(db: &TestDb) {
    orders(db);
    // 13, 14, 15 are 4 s apart: one cluster at 5 s, none at 3 s; 5, 6, 7 are 3 s apart.
    let narrow = scan(db, &["--window", "3s", "--output", "rows", "--format", "csv"]);
    let dups: Vec<String> = extra_rows(&narrow).into_iter().map(|(_, d, _)| d).collect();
    assert_eq!(dups, ["2", "4", "6", "7"]);
    // 15 min joins 16 and 17 as well.
    let wide = scan(db, &["--window", "15m", "--output", "rows", "--format", "csv"]);
    let dups: Vec<String> = extra_rows(&wide).into_iter().map(|(_, d, _)| d).collect();
    assert_eq!(dups, ["2", "4", "6", "7", "12", "14", "15", "17"]);
}

fn columns_and_ignore_override_the_defaults(db: &TestDb) {
    orders(db);
    let only = scan(db, &["--columns", "customer_id,currency", "--output", "rows", "--format", "csv"]);
    let dups: Vec<String> = extra_rows(&only).into_iter().map(|(_, d, _)| d).collect();
    assert_eq!(dups, ["2", "4", "6", "7", "10", "12", "14", "15"]);
    let ignored = scan(db, &["--ignore", "note", "--output", "rows", "--format", "csv"]);
    let dups: Vec<String> = extra_rows(&ignored).into_iter().map(|(_, d, _)| d).collect();
    assert_eq!(dups, ["2", "4", "6", "7", "10", "12", "14", "15"]);
    let json = scan(db, &["--ignore", "note", "--format", "json"]);
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["compared_columns"], serde_json::json!(["customer_id", "amount", "currency"]));
    // Comparing the unique column finds nothing: every row differs there.
    let with_unique = scan(db, &["--columns", "customer_id,order_ref", "--format", "csv"]);
    assert_eq!(with_unique.code, 0, "{}", with_unique.stderr);
    // The CSV has its header with no rows.
    assert_eq!(
        with_unique.stdout,
        "cluster,original_id,extra_ids,count,first_at,span_seconds,cause,confidence,evidence,values,changed\n"
    );
}

fn options_from_the_config_file(db: &TestDb) {
    orders(db);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idemctl.toml");
    std::fs::write(&path, "[scan.orders]\nwindow = \"3s\"\nignore = [\"note\"]\nsum = \"amount\"\n").unwrap();
    let config = path.to_str().unwrap();
    let out = scan(db, &["--config", config, "--output", "rows", "--format", "csv"]);
    let dups: Vec<String> = extra_rows(&out).into_iter().map(|(_, d, _)| d).collect();
    assert_eq!(dups, ["2", "4", "6", "7", "10"]);
    // CSV names the summed column; an amount is a number a spreadsheet can
    // add up, its currency a column of its own.
    let records = csv_records(&out.stdout);
    let n = records[0].len();
    assert_eq!(records[0][n - 2..], ["amount", "amount_currency"]);
    assert_eq!(records[1][n - 2..], ["10", "EUR"]);
    let by = scan(db, &["--by", "customer_id", "--sum", "amount", "--sum", "customer_id", "--format", "csv"]);
    let records = csv_records(&by.stdout);
    assert_eq!(records[0][9..13], ["customer_id", "amount", "amount_currency", "sum_customer_id"], "{}", by.stdout);
    assert_eq!(records[1][9..12], ["1", "10", "EUR"], "{}", by.stdout);
    let flagged = scan(db, &["--config", config, "--window", "5s", "--output", "rows", "--format", "csv"]);
    let dups: Vec<String> = extra_rows(&flagged).into_iter().map(|(_, d, _)| d).collect();
    assert_eq!(dups, ["2", "4", "6", "7", "10", "12", "14", "15"], "the flag wins over the file");
}

fn filters_by_time_and_where(db: &TestDb) {
    orders(db);
    let early = scan(
        db,
        &["--since", "2026-01-01T00:00:00Z", "--until", "2026-01-01T00:01:30Z", "--output", "rows", "--format", "csv"],
    );
    let dups: Vec<String> = extra_rows(&early).into_iter().map(|(_, d, _)| d).collect();
    assert_eq!(dups, ["2", "4"]);
    let filtered = scan(db, &["--where", "customer_id <> 1", "--output", "rows", "--format", "csv"]);
    let dups: Vec<String> = extra_rows(&filtered).into_iter().map(|(_, d, _)| d).collect();
    assert_eq!(dups, ["4", "6", "7", "12", "14", "15"]);
    let later = scan(db, &["--since", "2026-01-02T00:00:00Z", "--format", "json"]);
    assert_eq!(later.code, 0);
    let doc: Value = serde_json::from_str(&later.stdout).unwrap();
    assert_eq!(doc["rows_scanned"], 1);
}

fn unknown_cause_without_key_column(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE payments (id {pk}, account INTEGER, cents INTEGER, created_at {ts});
         INSERT INTO payments (id, account, cents, created_at) VALUES
           (1, 1, 100, {t0}), (2, 1, 100, {t1}), (3, 2, 100, {t1})",
        pk = db.ty("pk"),
        ts = db.ty("ts"),
        t0 = db.ts("2026-01-01 10:00:00"),
        t1 = db.ts("2026-01-01 10:00:01.5"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "payments", "--output", "rows", "--format", "csv"]));
    assert_eq!(out.code, 1);
    assert_eq!(
        csv_records(&out.stdout)[1],
        ["1", "1", "2", "1.5", "unknown", "likely", "+ 1.5s apart: within a client's retry"]
    );
}

fn clean_table_exits_zero(db: &TestDb) {
    orders(db);
    db.exec("DELETE FROM orders WHERE id IN (2, 4, 6, 7, 12, 14, 15)");
    let out = scan(db, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("cluster count: 0"), "{}", out.stderr);
    let nd = scan(db, &["--format", "ndjson"]);
    assert_eq!(nd.code, 0);
    let summary: Value = serde_json::from_str(nd.stdout.trim_end()).unwrap();
    assert_eq!(
        (&summary["type"], &summary["cluster_count"], &summary["complete"]),
        (&json!("summary"), &json!(0), &json!(true))
    );
}

fn ndjson_is_one_cluster_per_line(db: &TestDb) {
    orders(db);
    let out = scan(db, &["--format", "ndjson", "--quiet"]);
    assert_eq!(out.code, 1);
    let lines: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[4]["original_id"], "13");
    assert!(lines[..5].iter().all(|l| l["type"] == "cluster"));
    assert_eq!((&lines[5]["type"], &lines[5]["cluster_count"]), (&json!("summary"), &json!(5)));
    assert_eq!(out.stderr, "", "--quiet prints nothing beside the data");
}

fn one_line(out: Run) -> String {
    assert_eq!(out.code, 2, "bad input exits 2: {}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "one line on stderr: {:?}", out.stderr);
    assert_eq!(out.stdout, "", "nothing on stdout");
    out.stderr.trim().to_string()
}

fn bad_input_is_one_line_and_exit_2(db: &TestDb) {
    orders(db);
    let msg = one_line(run(db.idemctl(&["scan", "--table", "ordres"])));
    assert!(msg.contains("no table \"ordres\"") && msg.contains("did you mean \"orders\""), "{msg}");
    let msg = one_line(scan(db, &["--columns", "customer_id,curency"]));
    assert!(msg.contains("no column \"curency\"") && msg.contains("did you mean \"currency\""), "{msg}");
    let msg = one_line(scan(db, &["--sum", "amout"]));
    assert!(msg.contains("no column \"amout\""), "{msg}");
    let msg = one_line(scan(db, &["--window", "5 parsecs"]));
    assert!(msg.contains("--window") && msg.contains("bad duration"), "{msg}");
    let msg = one_line(scan(db, &["--where", "1 = 1; DELETE FROM orders"]));
    assert!(msg.contains("--where must be a single condition"), "{msg}");
    let msg = one_line(scan(db, &["--since", "last tuesday"]));
    assert!(msg.contains("'last tuesday' for '--since <TIME>'") && msg.contains("RFC 3339"), "{msg}");
    db.exec(&format!(
        "CREATE TABLE order_lines (order_id INTEGER NOT NULL, line INTEGER NOT NULL, sku {text}, created_at {ts}, PRIMARY KEY (order_id, line))",
        text = db.ty("text"),
        ts = db.ty("ts")
    ));
    let msg = one_line(run(db.idemctl(&["scan", "--table", "order_lines"])));
    assert!(msg.contains("composite primary key") && msg.contains("--id"), "{msg}");
    // An empty table: nothing was compared, so it is not called clean.
    let empty = run(db.idemctl(&["scan", "--table", "order_lines", "--id", "order_id"]));
    assert_eq!(empty.code, 1, "{}", empty.stderr);
    assert!(empty.stderr.contains("not clean: the table holds no row"), "{}", empty.stderr);
}

fn names_that_need_quoting(db: &TestDb) {
    let table = db.ident("Odd \"Tab le");
    let col = db.ident("Cust Id\"x");
    db.exec(&format!(
        "CREATE TABLE {table} (id {pk}, {col} INTEGER, {mixed} {text}, created_at {ts});
         INSERT INTO {table} (id, {col}, {mixed}, created_at) VALUES (1, 7, 'it''s', {t0}), (2, 7, 'it''s', {t1}), (3, 8, 'x', {t1})",
        pk = db.ty("pk"),
        mixed = db.ident("MixedCase"),
        text = db.ty("text"),
        ts = db.ty("ts"),
        t0 = db.ts("2026-01-01 10:00:00"),
        t1 = db.ts("2026-01-01 10:00:01"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "Odd \"Tab le", "--by", "Cust Id\"x", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["compared_columns"], serde_json::json!(["Cust Id\"x", "MixedCase"]));
    let cluster = &doc["clusters"][0];
    assert_eq!(cluster["original_id"], "1");
    assert_eq!(cluster["extra_ids"], serde_json::json!(["2"]));
    assert_eq!(cluster["values"]["MixedCase"], "it's");
    assert_eq!(cluster["by"], "7");
}

fn epoch_integer_times(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE events (id {pk}, kind {text}, created_at BIGINT NOT NULL);
         CREATE TABLE events_ms (id {pk}, kind {text}, created_at BIGINT NOT NULL);
         INSERT INTO events (id, kind, created_at) VALUES (1, 'a', 1767261600), (2, 'a', 1767261604), (3, 'a', 1767262600);
         INSERT INTO events_ms (id, kind, created_at) VALUES (1, 'a', 1767261600000), (2, 'a', 1767261604500), (3, 'a', 1767262600000)",
        pk = db.ty("pk"),
        text = db.ty("text"),
    ));
    let secs = run(db.idemctl(&["scan", "--table", "events", "--output", "rows", "--format", "csv"]));
    assert_eq!(secs.code, 1, "{}", secs.stderr);
    assert_eq!(
        csv_records(&secs.stdout)[1..],
        [["1", "1", "2", "4.0", "unknown", "likely", "+ 4.0s apart: within a client's retry"]]
    );
    let ms = run(db.idemctl(&["scan", "--table", "events_ms", "--format", "json"]));
    assert_eq!(ms.code, 1, "{}", ms.stderr);
    let doc: Value = serde_json::from_str(&ms.stdout).unwrap();
    assert_eq!(doc["clusters"][0]["first_at"], "2026-01-01T10:00:00Z");
    assert_eq!(doc["clusters"][0]["span_seconds"], 4.5);
    assert_eq!(doc["clusters"].as_array().unwrap().len(), 1);
    // The unit by the column's name, as the notes suggest it; another column is refused.
    let named = run(db.idemctl(&[
        "scan",
        "--table",
        "events",
        "--time-unit",
        "created_at=s",
        "--output",
        "rows",
        "--format",
        "csv",
    ]));
    assert_eq!(named.code, 1, "{}", named.stderr);
    assert_eq!(named.stdout, secs.stdout);
    // The unit given is the unit read, and checked against the values:
    // seconds named milliseconds are refused, not read as 1970.
    let as_ms = run(db.idemctl(&["scan", "--table", "events", "--time-unit", "created_at=ms", "--format", "json"]));
    assert_eq!(as_ms.code, 2, "{}", as_ms.stdout);
    assert_eq!(
        as_ms.stderr,
        "idemctl: --time-unit ms does not fit column \"created_at\": 3 of its values are plausible only in seconds \
         (0 in milliseconds); nothing was read or changed\n"
    );
    let other = run(db.idemctl(&["scan", "--table", "events", "--time-unit", "kind=s"]));
    assert_eq!(other.code, 2, "{}", other.stderr);
    assert_eq!(
        other.stderr,
        "idemctl: --time-unit kind=...: scan reads one time column, the created-at column \"created_at\"\n"
    );
}

/// Times people enter, on the minute (20 rows or more, all whole minutes):
/// a gap says nothing of a client, no kind of evidence speaks, and the
/// cluster still says why it is listed.
fn a_cluster_no_evidence_spoke_for(db: &TestDb) {
    db.exec(&format!("CREATE TABLE entries (id {}, kind {}, created_at BIGINT NOT NULL)", db.ty("pk"), db.ty("text")));
    let rows: Vec<String> = (0..24)
        .map(|i| format!("({}, 'k{}', {})", i + 1, i.min(22), 1_767_261_600 + i * 1_800 - (i == 23) as i64 * 1_740))
        .collect();
    db.exec(&format!("INSERT INTO entries (id, kind, created_at) VALUES {}", rows.join(", ")));
    let out = run(db.idemctl(&["scan", "--table", "entries", "--output", "rows", "--format", "csv"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        csv_records(&out.stdout)[1..],
        [[
            "1",
            "23",
            "24",
            "60.0",
            "unknown",
            "likely",
            "= equal on every compared column; no other evidence for or against"
        ]]
    );
}

/// Ids far apart (MySQL reads a wide id range as two slices merged by time):
/// a cluster whose rows fall on either side of the middle id is still one.
fn clusters_across_distant_ids(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE transfers (id {pk}, account INTEGER, cents INTEGER, created_at {ts});
         INSERT INTO transfers (id, account, cents, created_at) VALUES
           (10, 1, 500, {t0}), (900000, 1, 500, {t1}), (20, 2, 700, {t1}), (450001, 2, 700, {t2}),
           (800000, 3, 100, {t0}), (30, 3, 100, {t3}), (31, 4, 100, {t3})",
        pk = db.ty("pk"),
        ts = db.ty("ts"),
        t0 = db.ts("2026-01-01 10:00:00"),
        t1 = db.ts("2026-01-01 10:00:02"),
        t2 = db.ts("2026-01-01 10:00:05"),
        t3 = db.ts("2026-01-01 10:00:04"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "transfers", "--output", "rows", "--format", "csv"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let pairs: Vec<(String, String)> =
        csv_records(&out.stdout)[1..].iter().map(|r| (r[1].clone(), r[2].clone())).collect();
    let expected = [("10", "900000"), ("800000", "30"), ("20", "450001")];
    assert_eq!(pairs, expected.map(|(a, b)| (a.to_string(), b.to_string())));
}

/// A retry's two rows, one of which people went on to fill in (a
/// description, a date): a finding that keeps the row filled in. Both rows
/// worked on since, or a moment apart, it is doubtful; rows that differ in
/// what both were created with are not one request.
fn a_copy_filled_in_later_is_one_request(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE tasks (id {pk}, title {text} NOT NULL, description {text}, project_id INTEGER NOT NULL,
            created_at {ts} NOT NULL, updated_at {ts} NOT NULL)",
        pk = db.ty("pk"),
        text = db.ty("text"),
        ts = db.ty("ts"),
    ));
    let later = "2026-01-03 09:00:00";
    // id, title, description, project, created (minutes:seconds after midnight), updated (None: as created)
    type Task = (i64, &'static str, Option<&'static str>, i64, &'static str, Option<&'static str>);
    let rows: &[Task] = &[
        (1, "Pay rent", Some("landlord wants cash"), 1, "00:00", Some(later)),
        (2, "Pay rent", Some(""), 1, "00:40", None),
        (3, "Call mom", None, 2, "10:00", None),
        (4, "Call mom", Some("about sunday"), 2, "10:30", Some(later)),
        (5, "Buy milk", Some(""), 3, "20:00", Some(later)),
        (6, "Buy milk", Some("oat"), 3, "20:20", Some(later)),
        (7, "Water plants", Some("a"), 4, "30:00", Some(later)),
        (8, "Water plants", Some("b"), 4, "30:20", None),
        (9, "Fix bike", Some(""), 5, "40:00", None),
        (10, "Fix bike", Some("chain"), 6, "40:20", Some(later)),
        (11, "Pay phone bill", Some(""), 7, "50:00", None),
        (12, "Pay phone bill", Some(""), 7, "50:30", None),
    ];
    for (id, title, description, project, at, updated) in rows {
        let created = format!("2026-01-01 00:{at}");
        let description = description.map_or("NULL".to_string(), |d| format!("'{d}'"));
        db.exec(&format!(
            "INSERT INTO tasks (id, title, description, project_id, created_at, updated_at)
             VALUES ({id}, '{title}', {description}, {project}, {}, {})",
            db.ts(&created),
            db.ts(updated.unwrap_or(&created)),
        ));
    }
    let out = run(db.idemctl(&["scan", "--table", "tasks", "--output", "rows", "--format", "csv"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let records = csv_records(&out.stdout);
    let found: Vec<(&str, &str, &str, &str)> =
        records[1..].iter().map(|r| (r[1].as_str(), r[2].as_str(), r[3].as_str(), r[5].as_str())).collect();
    assert_eq!(
        found,
        [
            ("1", "2", "40.0", "likely"),
            ("4", "3", "30.0", "likely"),
            ("6", "5", "20.0", "doubtful"),
            ("11", "12", "30.0", "likely"),
        ],
        "{}",
        out.stdout
    );
    assert!(records[1][6].contains("description empty in one row, filled in 1 after its creation"), "{:?}", records[1]);
    assert!(records[3][6].contains("5 was updated since its creation too"), "{:?}", records[3]);
}

/// A retry's two comments, the original edited since ("Edit: typo", by a
/// moderator: who last changed it is left out by its name) and its update
/// time set, the copy never updated (its update time NULL): one request,
/// the edited row kept. Two messages of one author that share a few words,
/// or a pair both of whose rows were edited since, are not.
fn an_original_edited_later_is_one_request(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE comments (id {pk}, author_id INTEGER NOT NULL, post_id INTEGER NOT NULL, body {text} NOT NULL,
            created_at {ts} NOT NULL, updated_at {nullable}, updated_by INTEGER)",
        pk = db.ty("pk"),
        text = db.ty("text"),
        ts = db.ty("ts"),
        nullable = match db.engine {
            Engine::Postgres => "timestamptz",
            Engine::MySql => "DATETIME(6) NULL",
            Engine::Sqlite => "TEXT",
        },
    ));
    let later = "2026-01-03 09:00:00";
    let rows: &[(i64, i64, &str, &str, Option<&str>)] = &[
        (1, 1, "Can confirm, it works much better now. Just my two cents.  Edit: typo", "00:00", Some(later)),
        (2, 1, "Can confirm, it works much better now. Just my two cents.", "00:09", None),
        (3, 3, "Thanks for posting this, very helpful.", "10:00", None),
        (4, 3, "Thanks for the link, I will read it tonight.", "10:20", Some(later)),
        (5, 4, "Same here, the update fixed it for me.", "20:00", Some(later)),
        (6, 4, "Same here, the update fixed it for me. Edit: nope", "20:30", Some(later)),
    ];
    for (id, author, body, at, updated) in rows {
        let created = format!("2026-01-01 00:{at}");
        db.exec(&format!(
            "INSERT INTO comments (id, author_id, post_id, body, created_at, updated_at, updated_by)
             VALUES ({id}, {author}, 7, '{body}', {}, {}, {})",
            db.ts(&created),
            updated.map_or("NULL".to_string(), |u| db.ts(u)),
            if *id == 1 { 99 } else { *author },
        ));
    }
    let out = run(db.idemctl(&["scan", "--table", "comments", "--output", "rows", "--format", "csv"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let records = csv_records(&out.stdout);
    let found: Vec<(&str, &str, &str)> =
        records[1..].iter().map(|r| (r[1].as_str(), r[2].as_str(), r[3].as_str())).collect();
    assert_eq!(found, [("1", "2", "9.0")], "{}", out.stdout);
    assert!(records[1][6].contains("equal as created: body edited in 1 after its creation"), "{:?}", records[1]);
    assert!(out.stderr.contains("updated_by (changed after creation: who last changed the row"), "{}", out.stderr);
}

on_every_engine!(
    an_original_edited_later_is_one_request,
    a_cluster_no_evidence_spoke_for,
    a_reference_is_no_minted_token,
    a_time_stamped_by_a_later_write,
    a_copy_filled_in_later_is_one_request,
    options_from_the_config_file,
    times_without_zone,
    nothing_compared_is_not_clean,
    created_at_by_its_nature,
    child_rows_tell_requests_apart,
    rows_of_one_write_share_its_parent,
    a_currency_kept_as_a_reference,
    values_each_row_gets_of_its_own,
    numbers_taken_next_and_an_unnamed_update_time,
    equal_on_what_each_row_holds_of_its_own,
    clusters_across_distant_ids,
    exact_extra_rows_and_causes,
    clusters_as_json,
    window_chains_rows,
    columns_and_ignore_override_the_defaults,
    filters_by_time_and_where,
    unknown_cause_without_key_column,
    clean_table_exits_zero,
    ndjson_is_one_cluster_per_line,
    bad_input_is_one_line_and_exit_2,
    names_that_need_quoting,
    epoch_integer_times,
);

#[test]
fn postgres_select_only_role_can_scan() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    orders(&db);
    let role = format!("{}_ro", db.name);
    db.exec(&format!(
        "CREATE ROLE {role} LOGIN;
         GRANT CONNECT ON DATABASE {name} TO {role};
         GRANT USAGE ON SCHEMA public TO {role};
         GRANT SELECT ON orders TO {role};",
        name = db.name
    ));
    let mut cmd = assert_cmd::Command::cargo_bin("idemctl").unwrap();
    cmd.args(["scan", "--table", "orders", "--output", "rows", "--format", "csv"]);
    cmd.arg("--database-url").arg(as_user(&db.url, &role));
    let out = run(cmd);
    let name = db.name.clone();
    drop(db);
    crate::common::pg_admin(&format!("DROP ROLE IF EXISTS {role}"));
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(csv_records(&out.stdout).len(), 8, "{name}: header and seven extra rows");
}

#[test]
fn postgres_scan_runs_read_only() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    orders(&db);
    db.exec("SELECT setval('orders_id_seq', 100)");
    let out = run(db.idemctl(&["scan", "--table", "orders", "--where", "nextval('orders_id_seq') > 0"]));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("read-only"), "{}", out.stderr);
    assert_eq!(db.column("SELECT last_value FROM orders_id_seq"), [Some("100".to_string())]);
}

#[test]
fn broken_pipe_is_not_an_error() {
    let db = TestDb::new(Engine::Sqlite).unwrap();
    db.exec(
        "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER, created_at INTEGER NOT NULL);
         WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 40000)
         INSERT INTO orders SELECT g, g / 2, 1767261600 + g FROM s;",
    );
    let bin = assert_cmd::cargo::cargo_bin("idemctl");
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -o pipefail; '{}' scan --quiet --database-url '{}' --table orders --output rows --format csv | head -n 3",
            bin.display(),
            db.url
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "no error for a closed pipe");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn usage_errors_are_one_line() {
    let mut cmd = assert_cmd::Command::cargo_bin("idemctl").unwrap();
    cmd.env_remove("DATABASE_URL").args(["scan", "--table", "orders"]);
    let out = run(cmd);
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr, "idemctl: no database: give --database-url URL, or set DATABASE_URL\n");
    let mut cmd = assert_cmd::Command::cargo_bin("idemctl").unwrap();
    cmd.args(["scan", "--database-url", "oracle://db/x", "--table", "orders"]);
    let out = run(cmd);
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().count(), 1);
    assert!(out.stderr.contains("unsupported database URL"), "{}", out.stderr);
    let mut cmd = assert_cmd::Command::cargo_bin("idemctl").unwrap();
    cmd.args(["scan", "--database-url", "sqlite:/nonexistent/x.db", "--table", "orders"]);
    let out = run(cmd);
    assert_eq!((out.code, out.stderr.as_str()), (2, "idemctl: no SQLite database at /nonexistent/x.db\n"));
}

#[test]
fn ctrl_c_ends_with_130() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    orders(&db);
    // Each row sleeps, so the scan is still running when the signal comes.
    let bin = assert_cmd::cargo::cargo_bin("idemctl");
    let child = std::process::Command::new(bin)
        .args(["scan", "--table", "orders", "--where", "pg_sleep(1) IS NOT NULL", "--database-url", &db.url])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The scan's read is under way on the server, asleep in its first rows.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let sql = crate::common::asleep_in_trigger(&db).unwrap();
    while TestDb::admin(Engine::Postgres).column(&sql)[0].as_deref() != Some("1") {
        assert!(std::time::Instant::now() < deadline, "the scan never began reading");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let started = std::time::Instant::now();
    let pid = child.id().to_string();
    assert!(std::process::Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "ended promptly");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "idemctl: interrupted\n");
}

/// Times without a zone (PostgreSQL `timestamp`, MySQL `TIMESTAMP`) are read as UTC.
fn times_without_zone(db: &TestDb) {
    let ty = match db.engine {
        Engine::Postgres => "timestamp(3)",
        Engine::MySql => "TIMESTAMP(3) NULL",
        Engine::Sqlite => "DATETIME",
    };
    db.exec(&format!(
        "CREATE TABLE signups (id {pk}, email {text}, created_at {ty});
         INSERT INTO signups (id, email, created_at) VALUES
           (1, 'a@x', '2026-01-01 10:00:00.250'), (2, 'a@x', '2026-01-01 10:00:03.750'), (3, 'b@x', NULL)",
        pk = db.ty("pk"),
        text = db.ty("text"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "signups", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["clusters"][0]["first_at"], "2026-01-01T10:00:00.250Z");
    assert_eq!(doc["clusters"][0]["span_seconds"], 3.5);
    assert_eq!(doc["rows_scanned"], 2, "a NULL created-at is not scanned");
}

/// Every way a scan can end having compared nothing says so and is not clean:
/// a filter or a range that selects no row (exit 1, one line), and a window
/// of zero (exit 2, before anything is read).
fn nothing_compared_is_not_clean(db: &TestDb) {
    orders(db);
    for (args, said) in [
        (&["--where", "1 = 0"][..], "not clean: --where \"1 = 0\" selects no row, so nothing was compared"),
        (&["--since", "2030-01-01T00:00:00Z"][..], "not clean: --since 2030-01-01T00:00:00Z selects no row"),
        (&["--until", "2020-01-01T00:00:00Z"][..], "not clean: --until 2020-01-01T00:00:00Z selects no row"),
    ] {
        let out = scan(db, args);
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(said), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("rows scanned: 0"), "{args:?}: {}", out.stderr);
        let json = scan(db, &[args, &["--format", "json"]].concat());
        assert!(json.json()["not_compared"].as_str().unwrap().starts_with("not clean: "), "{}", json.stdout);
    }
    // A scan that compared rows and found nothing says nothing of the kind.
    let found = scan(db, &["--format", "json"]);
    assert_eq!(found.json()["not_compared"], Value::Null);
    let zero = scan(db, &["--window", "0s"]);
    assert_eq!((zero.code, zero.stderr.lines().count()), (2, 1), "{}", zero.stderr);
    assert!(zero.stderr.contains("joins no two rows"), "{}", zero.stderr);
    let old = scan(db, &["--since", "100y"]);
    assert_eq!((old.code, old.stderr.lines().count()), (2, 1), "{}", old.stderr);
    assert!(old.stderr.contains("before 1970"), "{}", old.stderr);
}

/// The created-at column is a time the row got at insert, never a reference
/// whose name begins like one (`created_by_id`), whatever the names say.
fn created_at_by_its_nature(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE tickets (id {pk}, created_by_id INTEGER, title {text}, date_added {ts});
         INSERT INTO tickets (id, created_by_id, title, date_added) VALUES
           (1, 7, 'printer', {t0}), (2, 7, 'printer', {t1}), (3, 8, 'vpn', {t1})",
        pk = db.ty("pk"),
        text = db.ty("text"),
        ts = db.ty("ts"),
        t0 = db.ts("2026-01-01 10:00:00"),
        t1 = db.ts("2026-01-01 10:00:02"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "tickets", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    let created = doc["excluded_columns"].as_array().unwrap().iter().find(|e| e["rule"] == "created-at").cloned();
    assert_eq!(created.unwrap()["column"], "date_added", "{}", doc["excluded_columns"]);
    assert_eq!(doc["rows_scanned"], 3);
    assert_eq!(doc["clusters"][0]["extra_ids"], json!(["2"]));
    assert!(doc["compared_columns"].as_array().unwrap().contains(&json!("created_by_id")));

    // No name speaks of creation (pretix's `datetime`): the time column that
    // grows with the id is the creation; an expiry and an update time do not.
    let mut rows = Vec::new();
    for i in 1..=24 {
        // Seconds after 2026-01-01 10:00:00 UTC.
        let at = |seconds: i64| db.ts_at(1_767_261_600 + seconds);
        let created = i * 60 + if i == 6 { -58 } else { 0 };
        let expires = at(((i * 7) % 24) * 3600 + 86_400);
        let modified = at(if i % 3 == 0 { created + 86_400 } else { created });
        let email = if i == 6 { 5 } else { i };
        // `updated`, never changed here, grows with the id as well: an update time is never the creation.
        rows.push(format!("({i}, {}, {expires}, 'b{email}@example.com', {}, {modified})", at(created), at(created)));
    }
    db.exec(&format!(
        "CREATE TABLE purchases (id {pk}, updated {ts}, expires {ts}, email {text}, datetime {ts}, last_modified {ts});
         INSERT INTO purchases (id, updated, expires, email, datetime, last_modified) VALUES {}",
        rows.join(", "),
        pk = db.ty("pk"),
        text = db.ty("text"),
        ts = db.ty("ts"),
    ));
    let out =
        run(db.idemctl(&["scan", "--table", "purchases", "--ignore", "expires,last_modified", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    let created = doc["excluded_columns"].as_array().unwrap().iter().find(|e| e["rule"] == "created-at").cloned();
    assert_eq!(created.unwrap()["column"], "datetime", "{}", doc["excluded_columns"]);
    assert_eq!(doc["clusters"][0]["extra_ids"], json!(["6"]), "{doc}");
    // With no column that grows with the id, nor one time the engine stamps
    // at insert, it is asked for, not guessed.
    db.exec(&format!(
        "CREATE TABLE renewals (id {pk}, email {text}, expires {time}, datetime {time});
         INSERT INTO renewals (id, email, expires, datetime) SELECT id, email, expires, expires FROM purchases",
        pk = db.ty("pk"),
        text = db.ty("text"),
        time = db.ty("time"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "renewals"]));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("has no created-at column") && out.stderr.contains("--created-at"), "{}", out.stderr);

    // Lemmy's `published_at`: the insert's now() for local rows, another
    // server's time for the rest, so it does not grow with the id; the one
    // time column the engine stamps at insert is the creation.
    let mut rows = Vec::new();
    for i in 1..=30_i64 {
        // Request 5 (at 50 minutes) sent again 40 s later, as row 12.
        let at = 1_767_261_600 + if i == 12 { 3_040 } else { ((i * 7) % 30) * 600 };
        let body = if i == 12 { 5 } else { i };
        rows.push(format!("({i}, 'reply {body}', {}, {})", db.ts_at(at + 86_400), db.ts_at(at)));
    }
    db.exec(&format!(
        "CREATE TABLE comments (id {pk}, body {text}, edited {time}, published_at {ts});
         INSERT INTO comments (id, body, edited, published_at) VALUES {}",
        rows.join(", "),
        pk = db.ty("pk"),
        text = db.ty("text"),
        time = db.ty("time"),
        ts = db.ty("ts"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "comments", "--ignore", "edited", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(exclusion(&doc, "published_at"), "created-at: created-at column");
    assert_eq!((&doc["clusters"][0]["original_id"], &doc["clusters"][0]["extra_ids"]), (&json!("5"), &json!(["12"])));
}

/// A page saved twice 20 s apart, fetched anew the second time: the two rows
/// share the URL and title that nearly every row holds of its own, and
/// differ in more columns than a near miss may (the page, its reading time,
/// its headers, its picture, its status). That is no clean table: the pass
/// reports them (exit 1), and names the columns they share.
fn equal_on_what_each_row_holds_of_its_own(db: &TestDb) {
    let (pk, text, ts) = (db.ty("pk"), db.ty("text"), db.ty("ts"));
    db.exec(&format!(
        "CREATE TABLE entries (id {pk}, user_id INTEGER, url {text}, title {text}, content {text}, reading_time INTEGER,
            headers {text}, preview_picture {text}, http_status {text}, language {text}, is_starred INTEGER,
            created_at {ts})"
    ));
    let stamp = |s: i64| db.ts_at(s);
    let mut rows = Vec::new();
    let mut id = 0;
    for i in 0..300_i64 {
        let at = 1_767_261_600 + i * 600;
        // Intents 50, 150 and 250 are saved again 20 s later, fetched anew.
        let copies = if i % 100 == 50 { 2 } else { 1 };
        for c in 0..copies {
            id += 1;
            rows.push(format!(
                "({id}, {u}, 'https://example.org/a/{i}', 'Article {i}', 'text of {id}', {rt}, 'date: {id}', \
                 'img/{id}.jpg', '{status}', '{l}', {star}, {created})",
                u = i % 7,
                rt = 3 + (id * 7) % 11,
                status = if c == 0 { "200" } else { "304" },
                l = ["en", "de"][(i % 2) as usize],
                star = i % 2,
                created = stamp(at + c * 20),
            ));
        }
    }
    db.exec(&format!(
        "INSERT INTO entries (id, user_id, url, title, content, reading_time, headers, preview_picture, http_status, \
         language, is_starred, created_at) VALUES {}",
        rows.join(", ")
    ));
    let out = run(db.idemctl(&["scan", "--table", "entries", "--format", "json"]));
    assert_eq!(out.code, 1, "a table with such pairs is not clean: {}", out.stdout);
    let doc = out.json();
    assert_eq!(doc["clusters"], json!([]), "{doc}");
    assert_eq!(doc["near_misses"]["rows"], 3, "{}", doc["near_misses"]);
    assert_eq!(doc["near_misses"]["equal_on_identity"], 3, "{}", doc["near_misses"]);
    assert_eq!(doc["near_misses"]["identity_columns"], json!({"url": 3, "title": 3}), "{}", doc["near_misses"]);
    assert_eq!(doc["near_misses"]["reported"], true);
    let table = run(db.idemctl(&["scan", "--table", "entries"]));
    assert_eq!(table.code, 1, "{}", table.stderr);
    let said = format!("{}{}", table.stdout, table.stderr);
    assert!(said.contains("3 of them share only url or title, a value nearly every row"), "{said}");
}

/// A parent each write makes (a transaction group, an import): retries
/// make their own, so `group_id` differs between every retry and its
/// original and is left out as minted; two equal rows that share a group no
/// row written before them holds are one request's two equal splits
/// (doubtful, `one-write`); two equal replies to a group made a minute
/// earlier share it with the group's first row: a retry as any other.
fn rows_of_one_write_share_its_parent(db: &TestDb) {
    let (pk, text, ts) = (db.ty("pk"), db.ty("text"), db.ty("ts"));
    db.exec(&format!(
        "CREATE TABLE journals (id {pk}, group_id INTEGER, account INTEGER, amount INTEGER, note {text}, created_at {ts})"
    ));
    let at = |minute: u32, ms: u32| db.ts(&format!("2026-01-01 10:{minute:02}:{:02}.{:03}", ms / 1000, ms % 1000));
    let mut rows = Vec::new();
    let mut id = 0;
    let mut row = |group: i64, account: i64, amount: i64, note: &str, created: String| {
        id += 1;
        rows.push(format!("({id}, {group}, {account}, {amount}, '{note}', {created})"));
    };
    // Ten creates, each retried 2 s later with a group of its own: ids 1-20.
    for i in 0..10 {
        row(100 + 2 * i, i, 10 * (i + 1), "rent", at(i as u32 * 2, 0));
        row(101 + 2 * i, i, 10 * (i + 1), "rent", at(i as u32 * 2, 2_000));
    }
    // One request's two equal splits, 5 ms apart, in group 300 alone: ids 21, 22.
    row(300, 50, 25, "groceries", at(30, 0));
    row(300, 50, 25, "groceries", at(30, 5));
    // A group's first row (id 23), then a reply a minute later, sent twice
    // 40 ms apart into the same group: ids 24, 25.
    row(400, 60, 99, "opening", at(40, 0));
    row(400, 61, 7, "reply", at(41, 0));
    row(400, 61, 7, "reply", at(41, 40));
    db.exec(&format!(
        "INSERT INTO journals (id, group_id, account, amount, note, created_at) VALUES {}",
        rows.join(", ")
    ));
    // Without an index on group_id the parents are not looked up (no read of
    // the table per cluster): the split is listed as two requests, and the
    // notes say why.
    let unindexed = run(db.idemctl(&["scan", "--table", "journals", "--format", "json"]));
    assert_eq!(unindexed.code, 1, "{}", unindexed.stderr);
    assert!(!unindexed.stdout.contains("one-write"), "{}", unindexed.stdout);
    let notes = unindexed.json()["notes"].to_string();
    assert!(notes.contains("group_id is a parent each write makes, but no index leads with it"), "{notes}");
    db.exec("CREATE INDEX journals_group ON journals (group_id)");
    let out = run(db.idemctl(&["scan", "--table", "journals", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    assert!(!doc["notes"].to_string().contains("no index leads"), "{}", doc["notes"]);
    let excluded = doc["excluded_columns"].to_string();
    assert!(excluded.contains("group_id"), "{excluded}");
    let clusters = doc["clusters"].as_array().unwrap();
    let by_original = |id: &str| {
        clusters.iter().find(|c| c["original_id"] == id).unwrap_or_else(|| panic!("no cluster of {id}: {}", out.stdout))
    };
    let kinds = |c: &Value| -> Vec<String> {
        c["evidence"].as_array().unwrap().iter().map(|w| w["kind"].as_str().unwrap().to_string()).collect()
    };
    let split = by_original("21");
    assert_eq!(split["confidence"], "doubtful", "{split}");
    let reasons = split["evidence"].to_string();
    assert!(
        reasons.contains(
            "21 and 22 share group_id \\\"300\\\", which each write mints anew and no row written before them holds: one request wrote them"
        ),
        "{reasons}"
    );
    let reply = by_original("24");
    assert_ne!(reply["confidence"], "doubtful", "{reply}");
    assert!(!kinds(reply).contains(&"one-write".to_string()), "{reply}");
    for i in 0..10 {
        let retry = by_original(&(2 * i + 1).to_string());
        assert!(!kinds(retry).contains(&"one-write".to_string()), "{retry}");
    }
    assert_eq!(clusters.len(), 12, "{}", out.stdout);
}

/// Child rows: two equal orders whose lines differ are two purchases
/// (doubtful, and why); equal lines are what a retry writes; a note added
/// later to one order only says nothing against it; a polymorphic child is
/// read for its own type only; `--no-child-rows` reads none.
fn child_rows_tell_requests_apart(db: &TestDb) {
    let (pk, text, ts) = (db.ty("pk"), db.ty("text"), db.ty("ts"));
    let fk = match db.engine {
        Engine::Sqlite => "INTEGER REFERENCES orders (id)",
        _ => "BIGINT REFERENCES orders (id)",
    };
    db.exec(&format!(
        "CREATE TABLE orders (id {pk}, customer_id INTEGER, total INTEGER, created_at {ts});
         CREATE TABLE order_lines (id {pk}, order_id {fk}, sku {text}, qty INTEGER);
         CREATE TABLE notes (id {pk}, notable_type {text}, notable_id INTEGER, body {text});
         INSERT INTO orders (id, customer_id, total, created_at) VALUES
           (1, 7, 900, {a0}), (2, 7, 900, {a1}),
           (3, 8, 500, {b0}), (4, 8, 500, {b1}),
           (5, 9, 300, {c0}), (6, 9, 300, {c1}),
           (7, 5, 100, {d0}), (8, 5, 100, {d1});
         INSERT INTO order_lines (id, order_id, sku, qty) VALUES
           (1, 1, 'A', 1), (2, 2, 'B', 1), (3, 3, 'C', 2), (4, 4, 'C', 2),
           (5, 5, 'D', 1), (6, 6, 'D', 1), (7, 7, 'E', 1), (8, 8, 'E', 1);
         INSERT INTO notes (id, notable_type, notable_id, body) VALUES
           (1, 'Order', 5, 'called the customer'),
           (2, 'Order', 7, 'gift wrap'), (3, 'Order', 8, 'leave at the door'),
           (4, 'Invoice', 3, 'paid by card'), (5, 'Invoice', 4, 'paid by transfer')",
        a0 = db.ts("2026-01-01 10:00:00"),
        a1 = db.ts("2026-01-01 10:00:00.400"),
        b0 = db.ts("2026-01-01 11:00:00"),
        b1 = db.ts("2026-01-01 11:00:00.300"),
        c0 = db.ts("2026-01-01 12:00:00"),
        c1 = db.ts("2026-01-01 12:00:00.200"),
        d0 = db.ts("2026-01-01 13:00:00"),
        d1 = db.ts("2026-01-01 13:00:00.500"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "orders", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    let links: Vec<(String, String)> = doc["child_tables"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", out.stdout))
        .iter()
        .map(|l| (l["table"].as_str().unwrap().to_string(), l["how"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(links, [("order_lines".into(), "foreign-key".into()), ("notes".into(), "polymorphic".into())]);
    let judged = |doc: &Value| -> Vec<(String, String, String)> {
        doc["clusters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let reasons: Vec<&str> =
                    c["evidence"].as_array().unwrap().iter().map(|w| w["reason"].as_str().unwrap()).collect();
                (
                    c["original_id"].as_str().unwrap().to_string(),
                    c["confidence"].as_str().unwrap().to_string(),
                    reasons.join("; "),
                )
            })
            .collect()
    };
    let clusters = judged(&doc);
    assert_eq!(
        clusters.iter().map(|c| (c.0.as_str(), c.1.as_str())).collect::<Vec<_>>(),
        [("1", "doubtful"), ("3", "certain"), ("5", "certain"), ("7", "doubtful")]
    );
    // The summary counts them by level, as the table's line says.
    assert_eq!(doc["clusters_by_confidence"], serde_json::json!({"certain": 2, "likely": 0, "doubtful": 2}));
    assert!(clusters[0].2.contains("their order_lines rows differ (sku \"A\" vs \"B\")"), "{}", clusters[0].2);
    assert!(clusters[1].2.contains("the same 1 order_lines rows"), "{}", clusters[1].2);
    assert!(!clusters[1].2.contains("notes"), "{}", clusters[1].2);
    assert!(!clusters[2].2.contains("differ"), "{}", clusters[2].2);
    assert!(
        clusters[3].2.contains("their notes rows differ (body \"gift wrap\" vs \"leave at the door\")"),
        "{}",
        clusters[3].2
    );
    let without = run(db.idemctl(&["scan", "--table", "orders", "--format", "json", "--no-child-rows"]));
    assert_eq!(without.json()["child_tables"], Value::Null, "{}", without.stdout);
    let plain = judged(&without.json());
    assert!(plain.iter().all(|c| c.1 == "certain"), "{plain:?}");
    assert_eq!(without.json()["clusters_by_confidence"], serde_json::json!({"certain": 4, "likely": 0, "doubtful": 0}));
}

/// A currency kept as a reference to a currencies table
/// (`transaction_currency_id`) keeps the money at stake apart by currency:
/// never one figure over two currencies.
fn a_currency_kept_as_a_reference(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE journals (id {pk}, user_id INTEGER, description {text}, amount {money},
            transaction_currency_id INTEGER, created_at {ts});
         INSERT INTO journals (id, user_id, description, amount, transaction_currency_id, created_at) VALUES
           (1, 7, 'groceries', 40.00, 1, {a0}), (2, 7, 'groceries', 40.00, 1, {a1}),
           (3, 8, 'rent', 900.00, 3, {b0}), (4, 8, 'rent', 900.00, 3, {b1}),
           (5, 9, 'fuel', 60.00, 1, {c0})",
        pk = db.ty("pk"),
        text = db.ty("text"),
        money = db.ty("money"),
        ts = db.ty("ts"),
        a0 = db.ts("2026-01-01 10:00:00"),
        a1 = db.ts("2026-01-01 10:00:00.500"),
        b0 = db.ts("2026-01-01 11:00:00"),
        b1 = db.ts("2026-01-01 11:00:31"),
        c0 = db.ts("2026-01-01 12:00:00"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "journals", "--sum", "amount", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(doc["sum_currencies"], json!({"amount": "transaction_currency_id"}), "{}", out.stdout);
    let at_stake = doc["sum_at_stake"]["amount"].as_object().unwrap_or_else(|| panic!("{}", out.stdout)).clone();
    let figures: Vec<(String, f64)> =
        at_stake.iter().map(|(k, v)| (k.clone(), v.to_string().parse::<f64>().unwrap())).collect();
    assert_eq!(figures, [("1".to_string(), 40.0), ("3".to_string(), 900.0)]);
    // An amount that is an expression of columns is summed as such.
    let out = run(db.idemctl(&["scan", "--table", "journals", "--sum", "amount * 2 + user_id", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let at_stake = out.json()["sum_at_stake"]["amount * 2 + user_id"].clone();
    let figures: Vec<(String, f64)> = at_stake
        .as_object()
        .unwrap_or_else(|| panic!("{}", out.stdout))
        .iter()
        .map(|(k, v)| (k.clone(), v.to_string().parse::<f64>().unwrap()))
        .collect();
    assert_eq!(figures, [("1".to_string(), 87.0), ("3".to_string(), 1808.0)]);
    // Anything but one expression is refused, naming --sum.
    let bad = run(db.idemctl(&["scan", "--table", "journals", "--sum", "amount; DROP TABLE journals"]));
    assert_eq!((bad.code, bad.stderr.lines().count()), (2, 1), "{}", bad.stderr);
    assert!(bad.stderr.contains("--sum"), "{}", bad.stderr);
}

/// Why a scan's JSON report left `column` out of the comparison (`rule:
/// reason`), or that it compared it.
fn exclusion(doc: &serde_json::Value, column: &str) -> String {
    doc["excluded_columns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["column"] == column)
        .map(|e| format!("{}: {}", e["rule"].as_str().unwrap(), e["reason"].as_str().unwrap()))
        .unwrap_or_else(|| format!("compared: {} {}", doc["excluded_columns"], doc["near_misses"]))
}

/// Values each row gets of its own, found in the near misses and left out:
/// a path built from the row's id, a time a job fills a moment after the
/// creation, and a page's text fetched again for each attempt (a "minutes
/// ago" line apart). Ten links saved twice by a retry are found, and only they.
fn values_each_row_gets_of_its_own(db: &TestDb) {
    let (pk, text, ts, time) = (db.ty("pk"), db.ty("text"), db.ty("ts"), db.ty("time"));
    let long = if db.engine == Engine::MySql { "TEXT" } else { text };
    db.exec(&format!(
        "CREATE TABLE links (id {pk}, user_id INTEGER, folder_id INTEGER, url {text}, title {text}, note {text},
            kind {text}, lang {text}, site {text}, icon {text}, color {text}, tag {text}, rating INTEGER,
            archive_path {text}, archived_at {time}, page_text {long}, created_at {ts})"
    ));
    let words: Vec<String> = (0..80).map(|i| format!("w{i}")).collect();
    let mut rows = Vec::new();
    let mut id = 100;
    for i in 0..60_i64 {
        let at = 1_767_261_600 + i * 3_600;
        let copies = if i % 6 == 0 { 2 } else { 1 };
        for c in 0..copies {
            id += 1;
            let created = at + c * 20;
            let stamp = |s: i64| db.ts_at(s);
            let page = format!("{} page{i} updated {} minutes ago", words.join(" "), 3 + c);
            rows.push(format!(
                "({id}, {u}, {f}, 'https://example.org/{i}', 'Title {i}', 'note {n}', '{k}', '{l}', 'site{s}', 'icon{i}', \
                 'c{co}', 't{t}', {r}, 'archives/{f}/{id}.png', {archived}, '{page}', {created_at})",
                u = i % 7,
                f = i % 5,
                n = i % 11,
                k = ["url", "pdf", "image"][i as usize % 3],
                l = ["en", "de", "fr", "es"][i as usize % 4],
                s = i % 9,
                co = i % 6,
                t = i % 13,
                r = i % 4,
                archived = stamp(created + 45 + c * 30),
                created_at = stamp(created),
            ));
        }
    }
    db.exec(&format!(
        "INSERT INTO links (id, user_id, folder_id, url, title, note, kind, lang, site, icon, color, tag, rating, \
         archive_path, archived_at, page_text, created_at) VALUES {}",
        rows.join(", ")
    ));
    let out = run(db.idemctl(&["scan", "--table", "links", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    let rule = |column: &str| exclusion(&doc, column);
    let path = rule("archive_path");
    assert!(path.starts_with("minted-per-attempt") && path.contains("holds its own id"), "{path}");
    let archived = rule("archived_at");
    // SQLite keeps this time as text, not read as a time here: its name says it changes later.
    let by_name = db.engine == Engine::Sqlite && archived.starts_with("changed-after-creation");
    assert!(
        by_name || archived.starts_with("minted-per-attempt") && archived.contains("by up to an hour"),
        "{archived}"
    );
    let page = rule("page_text");
    assert!(page.starts_with("minted-per-attempt") && page.contains("one long text with small edits"), "{page}");
    let extra: Vec<String> = doc["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["extra_ids"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()))
        .collect();
    // The second copy of links 0, 6, 12, ..., 54: ids 102, 109, 116, ...
    let expected: Vec<String> = (0..10).map(|k| (102 + k * 7).to_string()).collect();
    assert_eq!(extra, expected);
}

/// An order reference each attempt takes the next number of (`SO-00042`,
/// then `SO-00043` for the retry) is left out for the numbers it holds; an
/// update time named as no list names it (`write_date`) is known by its
/// values: never before the creation, equal to it on the orders never
/// changed, hours later on the confirmed ones. The ten retries are found,
/// and only they.
fn numbers_taken_next_and_an_unnamed_update_time(db: &TestDb) {
    let (pk, text, ts) = (db.ty("pk"), db.ty("text"), db.ty("ts"));
    // A time the ORM sets, with no default (Django's DateTimeField is `datetime` on SQLite).
    let time = if db.engine == Engine::Sqlite { "datetime" } else { db.ty("time") };
    db.exec(&format!(
        "CREATE TABLE sale_order (id {pk}, customer INTEGER, sku {text}, qty INTEGER, name {text}, \
         write_date {time}, create_date {ts})"
    ));
    let mut rows = Vec::new();
    let (mut id, mut number) = (100, 41);
    for i in 0..80_i64 {
        let at = 1_767_261_600 + i * 3_600;
        let copies = if i % 8 == 3 { 2 } else { 1 };
        for c in 0..copies {
            id += 1;
            number += 1;
            let created = at + c * 25;
            // The original of a retry and every fifth order are confirmed hours later.
            let written = if c == 0 && (copies == 2 || i % 5 == 0) { created + 7_200 } else { created };
            rows.push(format!(
                "({id}, {cu}, 'sku-{s}', {q}, 'SO-{number:05}', {w}, {t})",
                cu = 500 + i % 13,
                s = i % 7,
                q = 1 + i % 4,
                w = db.ts_at(written),
                t = db.ts_at(created),
            ));
        }
    }
    db.exec(&format!(
        "INSERT INTO sale_order (id, customer, sku, qty, name, write_date, create_date) VALUES {}",
        rows.join(", ")
    ));
    let out = run(db.idemctl(&["scan", "--table", "sale_order", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    let name = exclusion(&doc, "name");
    assert!(name.starts_with("minted-per-attempt") && name.contains("greater number or a later code"), "{name}");
    let write = exclusion(&doc, "write_date");
    assert!(write.starts_with("update-time: an update time by its values: set on 90 of the first 90 rows"), "{write}");
    let extra: Vec<String> = doc["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["extra_ids"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()))
        .collect();
    // Orders 3, 11, 19, ... sent twice: ids 105, 114, 123, ...
    let expected: Vec<String> = (0..10).map(|k| (105 + k * 9).to_string()).collect();
    assert_eq!(extra, expected);
}

/// A reference to another row kept as a uuid (Monica's `contact_id`) differs
/// by a token between two rows about two contacts, as a value minted per
/// attempt would; but many rows share each of its values: it is compared.
/// Ten tasks written for two contacts 30 s apart are no retries; the one
/// task saved twice is.
fn a_reference_is_no_minted_token(db: &TestDb) {
    let (pk, text, ts) = (db.ty("pk"), db.ty("text"), db.ty("ts"));
    db.exec(&format!("CREATE TABLE tasks (id {pk}, contact_id {text}, label {text}, created_at {ts})"));
    let contact = |c: i64| format!("{:08x}-7a45-7cda-bbcc-{:012x}", c * 7919, c * 104_729);
    let mut rows = Vec::new();
    let mut id = 0;
    let mut push = |contact: String, label: String, at: i64| {
        id += 1;
        rows.push(format!("({id}, '{contact}', '{label}', {})", db.ts_at(at)));
    };
    for i in 0..300_i64 {
        let at = 1_767_261_600 + i * 600;
        push(contact(i % 40), format!("task {}", i % 97), at);
        if i % 30 == 7 {
            // The same task for another contact, half a minute later.
            push(contact((i + 1) % 40), format!("task {}", i % 97), at + 30);
        }
        if i == 200 {
            // Saved twice.
            push(contact(i % 40), format!("task {}", i % 97), at + 1);
        }
    }
    db.exec(&format!("INSERT INTO tasks (id, contact_id, label, created_at) VALUES {}", rows.join(", ")));
    let out = run(db.idemctl(&["scan", "--table", "tasks", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    assert!(exclusion(&doc, "contact_id").starts_with("compared"), "{}", exclusion(&doc, "contact_id"));
    let found: Vec<&serde_json::Value> = doc["clusters"].as_array().unwrap().iter().map(|c| &c["extra_ids"]).collect();
    // Row 200's copy: 200 rows before it, 7 extra tasks (i = 7, 37, ..., 187), then the row itself.
    assert_eq!(found, [&json!(["209"])], "{}", out.stdout);
}

/// A column a trigger stamps on every update is the update time, whatever
/// its name; and a time that later writes set (an approval's, here on both
/// the original and the copy, each at its own time) is left out as changed
/// after creation, with its evidence: the six invoices a retry booked twice
/// are found, and only they.
fn a_time_stamped_by_a_later_write(db: &TestDb) {
    let (pk, text, ts) = (db.ty("pk"), db.ty("text"), db.ty("ts"));
    let time = if db.engine == Engine::Sqlite { "DATETIME" } else { db.ty("time") };
    db.exec(&format!(
        "CREATE TABLE invoices (id {pk}, customer INTEGER, amount INTEGER, note {text}, approved_on {time},
            created_at {ts}, stamp {time})"
    ));
    match db.engine {
        Engine::Postgres => db.exec(
            "CREATE FUNCTION stamp_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.stamp := now(); RETURN NEW; \
             END $$; CREATE TRIGGER invoices_stamp BEFORE UPDATE ON invoices FOR EACH ROW EXECUTE FUNCTION stamp_row()",
        ),
        Engine::MySql => {
            db.exec("CREATE TRIGGER invoices_stamp BEFORE UPDATE ON invoices FOR EACH ROW SET NEW.stamp = NOW(6)")
        }
        Engine::Sqlite => db.exec(
            "CREATE TRIGGER invoices_stamp AFTER UPDATE OF approved_on ON invoices BEGIN
               UPDATE invoices SET stamp = CURRENT_TIMESTAMP WHERE id = NEW.id; END",
        ),
    }
    let mut rows = Vec::new();
    let mut id = 0;
    for i in 0..20_i64 {
        let at = 1_767_261_600 + i * 3_600;
        for c in 0..(if i % 3 == 0 { 2 } else { 1 }) {
            id += 1;
            let created = db.ts_at(at + c * 40);
            rows.push(format!("({id}, {}, {}, 'order {}', {created}, {created})", i % 7, 100 + i * 10, i % 5));
        }
    }
    db.exec(&format!(
        "INSERT INTO invoices (id, customer, amount, note, created_at, stamp) VALUES {}",
        rows.join(", ")
    ));
    // Each invoice approved by its own later write, at its own time.
    for id in 1..=id {
        db.exec(&format!(
            "UPDATE invoices SET approved_on = {} WHERE id = {id}",
            db.ts_at(1_767_261_600 + id * 3_000 + 900)
        ));
    }
    let out = run(db.idemctl(&["scan", "--table", "invoices", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    let rule = |column: &str| exclusion(&doc, column);
    let stamp = rule("stamp");
    assert!(stamp.starts_with("update-time") && stamp.contains("an UPDATE trigger sets it"), "{stamp}");
    let approved = rule("approved_on");
    assert!(
        approved.starts_with("changed-after-creation")
            && approved.contains("after their creation and by their last update"),
        "{approved}"
    );
    let pairs: Vec<(String, String)> = doc["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["original_id"].as_str().unwrap().to_string(), c["extra_ids"].to_string()))
        .collect();
    // Requests 0, 3, 6, ..., 18 were sent twice: ids (1, 2), (5, 6), ...
    let expected: Vec<(String, String)> =
        (0..7).map(|k| ((1 + k * 4).to_string(), format!("[\"{}\"]", 2 + k * 4))).collect();
    assert_eq!(pairs, expected, "{}", out.stdout);
}

/// On MySQL and MariaDB a column the server stamps on every update (`ON
/// UPDATE CURRENT_TIMESTAMP`, Dolibarr's `tms`) is the update time whatever
/// its name: left out as such, and it tells a copy filled in later.
#[test]
fn mysql_on_update_current_timestamp_is_the_update_time() {
    let Some(db) = TestDb::new(Engine::MySql) else { return };
    db.exec(
        "CREATE TABLE invoices (id BIGINT PRIMARY KEY, customer INT NOT NULL, note VARCHAR(200),
            datec DATETIME(6) NOT NULL,
            tms TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6));
         INSERT INTO invoices VALUES
           (1, 7, 'deliver to the back door', '2026-01-01 00:00:00', '2026-01-03 09:00:00'),
           (2, 7, NULL, '2026-01-01 00:00:40', '2026-01-01 00:00:40'),
           (3, 8, NULL, '2026-01-01 00:10:00', '2026-01-01 00:10:00')",
    );
    let out = run(db.idemctl(&["scan", "--table", "invoices", "--created-at", "datec", "--format", "json"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    let tms = doc["excluded_columns"].as_array().unwrap().iter().find(|e| e["column"] == "tms").unwrap().clone();
    assert_eq!(tms["rule"], "update-time", "{tms}");
    let clusters = doc["clusters"].as_array().unwrap();
    assert_eq!(clusters.len(), 1, "{}", out.stdout);
    assert_eq!((&clusters[0]["original_id"], &clusters[0]["extra_ids"]), (&json!("1"), &json!(["2"])));
    assert_eq!(clusters[0]["evidence"][0]["kind"], "filled-later", "{}", clusters[0]);
}

/// MySQL: a creation time in epoch seconds kept `BIGINT UNSIGNED`
/// (Nextcloud's tables) beside a `DATETIME` that lies before it: the scan
/// reads them, where the difference of the two was unsigned and out of
/// range.
#[test]
fn mysql_unsigned_epoch_times() {
    let Some(db) = TestDb::new(Engine::MySql) else { return };
    db.exec(
        "CREATE TABLE cards (id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY, title VARCHAR(100) NOT NULL,
            owner VARCHAR(64) NOT NULL, created_at BIGINT UNSIGNED NOT NULL, last_modified BIGINT UNSIGNED NOT NULL,
            duedate DATETIME NULL);
         INSERT INTO cards (title, owner, created_at, last_modified, duedate) VALUES
            ('Buy milk', 'ann', 1790000000, 1790000000, '2026-09-01 10:00:00'),
            ('Buy milk', 'ann', 1790000012, 1790000012, '2026-09-01 10:00:00'),
            ('Call the bank', 'bob', 1790000500, 1790000600, NULL)",
    );
    let out = run(db.idemctl(&["scan", "--table", "cards", "--output", "rows", "--format", "csv"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let pairs: Vec<(String, String)> = extra_rows(&out).into_iter().map(|(a, b, _)| (a, b)).collect();
    assert_eq!(pairs, [("1".to_string(), "2".to_string())], "{}", out.stdout);
}
