//! `idemctl stuck` against real PostgreSQL, MariaDB/MySQL and SQLite.

use crate::common::{Engine, Run, TestDb, csv_records, key_table, run};
use serde_json::Value;

fn stuck(db: &TestDb, extra: &[&str]) -> Run {
    let mut args = vec!["stuck", "--format", "csv"];
    args.extend_from_slice(extra);
    run(db.idemctl(&args))
}

fn keys(out: &Run) -> Vec<String> {
    let records = csv_records(&out.stdout);
    if records.is_empty() {
        return Vec::new();
    }
    assert_eq!(
        records[0],
        ["scope", "operation", "key", "state", "locked_at", "since", "age_seconds", "max_duration_seconds"]
    );
    records[1..].iter().map(|r| r[2].clone()).collect()
}

fn per_operation_durations_select_exactly(db: &TestDb) {
    key_table(db);
    let out = stuck(db, &["--max-duration", "POST /v1/payments=30s"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(keys(&out), ["k-nolock", "k-ord-6m", "k-pay-old"], "oldest first");
    let records = csv_records(&out.stdout);
    assert_eq!(records[1][0], "s3");
    assert_eq!(records[1][1], "POST /v1/refunds");
    assert_eq!(records[3][7], "30");
    assert_eq!(records[1][3], "abandoned", "k-nolock holds no lock");
    assert_eq!(records[2][3], "lease-expired");
    let age: i64 = records[2][6].parse().unwrap();
    assert!((359..=420).contains(&age), "k-ord-6m is about six minutes old: {age}");
    // Without the payments limit, payments get the default 5 minutes.
    assert_eq!(keys(&stuck(db, &[])), ["k-nolock", "k-ord-6m"]);
    assert_eq!(keys(&stuck(db, &["--max-duration", "1h", "--max-duration", "POST /v1/payments=30s"])), ["k-pay-old"]);
}

fn summary_by_operation(db: &TestDb) {
    key_table(db);
    let out = run(db.idemctl(&["stuck", "--format", "json", "--max-duration", "20s"]));
    assert_eq!(out.code, 1);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["stuck_keys"], 4);
    let ops = doc["by_operation"].as_array().unwrap();
    let counts: Vec<(String, u64)> =
        ops.iter().map(|o| (o["operation"].as_str().unwrap().to_string(), o["count"].as_u64().unwrap())).collect();
    let expected = [("POST /v1/orders", 2), ("POST /v1/payments", 1), ("POST /v1/refunds", 1)];
    assert_eq!(counts, expected.map(|(o, c)| (o.to_string(), c)));
    // Two order keys, locked 4 and 6 minutes ago: the median is the mean
    // of the two, 5 minutes, as a median of an even count is read.
    let (oldest, median) = (ops[0]["oldest_seconds"].as_i64().unwrap(), ops[0]["median_seconds"].as_i64().unwrap());
    assert!((359..=400).contains(&oldest), "{oldest}");
    assert!((299..=340).contains(&median), "{median}");
    let table = run(db.idemctl(&["stuck", "--max-duration", "20s"]));
    let said = format!("{}{}", table.stdout, table.stderr);
    assert!(said.contains("POST /v1/orders: 2 (oldest 6m, median 5m)"), "{said}");
    assert_eq!(doc["keys"][0]["scope"], serde_json::json!(["s3"]));
}

fn config_file_and_flags_over_it(db: &TestDb) {
    key_table(db);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idemctl.toml");
    std::fs::write(
        &path,
        "max_duration = \"5m\"\n[max_durations]\n\"POST /v1/payments\" = \"1m\"\n\"POST /v1/refunds\" = \"1h\"\n",
    )
    .unwrap();
    let config = path.to_str().unwrap();
    assert_eq!(keys(&stuck(db, &["--config", config])), ["k-ord-6m"]);
    let flagged = stuck(db, &["--config", config, "--max-duration", "POST /v1/payments=30s"]);
    assert_eq!(keys(&flagged), ["k-ord-6m", "k-pay-old"]);
    std::fs::write(&path, "[key_table]\nstatus_colum = \"state\"\n").unwrap();
    let bad = stuck(db, &["--config", config]);
    assert_eq!(bad.code, 2);
    assert_eq!(bad.stderr.lines().count(), 1, "{}", bad.stderr);
    assert!(bad.stderr.contains("bad config file") && bad.stderr.contains("status_colum"), "{}", bad.stderr);
}

fn no_status_column_and_epoch_seconds(db: &TestDb) {
    crate::common::api_keys(db);
    let mapping = crate::common::API_KEYS_MAPPING;
    let out = stuck(db, &mapping);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(keys(&out), ["d", "a"], "d holds no lock: abandoned");
    let records = csv_records(&out.stdout);
    assert_eq!(records[2][0], "1", "the scope is the user");
    assert_eq!(records[2][1], "", "no operation column");
    assert_eq!((records[1][3].as_str(), records[2][3].as_str()), ("abandoned", "lease-expired"));
    let age: i64 = records[2][6].parse().unwrap();
    assert!((599..=660).contains(&age), "epoch seconds read as seconds: {age}");
    // Seconds in a 32-bit integer column read the same (no overflow on the way to microseconds).
    db.exec(&format!(
        "CREATE TABLE api_keys_int (user_id INTEGER NOT NULL, idempotency_key {text} NOT NULL,
            recovery_point {text} NOT NULL, locked_at INTEGER NULL, created_at INTEGER NOT NULL,
            PRIMARY KEY (user_id, idempotency_key));
         INSERT INTO api_keys_int SELECT user_id, idempotency_key, recovery_point, locked_at, created_at FROM api_keys",
        text = db.ty("text")
    ));
    let mut int_mapping = mapping;
    int_mapping[1] = "api_keys_int";
    let out = stuck(db, &int_mapping);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(keys(&out), ["d", "a"]);
    // Without a status column, the predicate is required.
    let out = stuck(db, &mapping[..6]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("--in-progress-when") && out.stderr.contains("--status-column"), "{}", out.stderr);
}

/// A key column named `idempotency_key` (rocket-rides', Medusa's) is
/// taken without `--key-column`; a table with no key column by any known
/// name is refused in one line, before any note on its rows.
fn key_column_known_by_its_name(db: &TestDb) {
    crate::common::api_keys(db);
    let mapping = crate::common::API_KEYS_MAPPING;
    let unnamed: Vec<&str> =
        mapping.iter().copied().filter(|a| !["--key-column", "idempotency_key"].contains(a)).collect();
    let out = stuck(db, &unnamed);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(keys(&out), ["d", "a"]);
    db.exec(&format!(
        "CREATE TABLE keyless (user_id INTEGER NOT NULL, request_id {} NOT NULL, status {} NOT NULL)",
        db.ty("text"),
        db.ty("text")
    ));
    let out = stuck(db, &["--table", "keyless"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("--key-column") && out.stderr.contains("request_id"), "{}", out.stderr);
}

fn bad_mapping_names_the_column_and_flag(db: &TestDb) {
    key_table(db);
    for (flag, name) in [
        ("--status-column", "state"),
        ("--key-column", "idem"),
        ("--scope-column", "tenant"),
        ("--locked-at-column", "lock_time"),
    ] {
        let out = stuck(db, &[flag, name]);
        assert_eq!(out.code, 2, "{flag}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(out.stderr.contains(&format!("no column \"{name}\"")) && out.stderr.contains(flag), "{}", out.stderr);
        // Said with the flag given, and what the table has to map instead.
        assert!(out.stderr.starts_with(&format!("idemctl: {flag} {name}: no column")), "{}", out.stderr);
        let hint =
            if name == "state" { " (did you mean \"status\"?)" } else { "; its columns are scope_id, operation, " };
        assert!(out.stderr.contains(hint), "{}", out.stderr);
    }
    // A bare command on a database without the default key table says to name one.
    let bare = TestDb::new(Engine::Sqlite).unwrap();
    let out = run(bare.idemctl(&["stuck"]));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.ends_with(": that is the default key table; name yours with --table\n"), "{}", out.stderr);
    let out = stuck(db, &["--table", "idempotency_kyes"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("did you mean \"idempotency_keys\""), "{}", out.stderr);
}

fn nothing_stuck_exits_zero(db: &TestDb) {
    key_table(db);
    db.exec("DELETE FROM idempotency_keys WHERE status = 'in_progress'");
    let out = stuck(db, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "");
}

/// A design with two running states (`in_progress` while a request runs,
/// `claimed` once a worker took it): each value of the state is named, by
/// flag or in the config file, and stuck, reap and expire take both as in
/// progress. Unnamed, `claimed` is no running state: stuck does not see it,
/// and expire keeps it as a status nobody named (exit 1).
fn several_in_progress_values(db: &TestDb) {
    key_table(db);
    db.exec(&format!("UPDATE idempotency_keys SET status = 'claimed' WHERE {} = 'k-ord-6m'", db.ident("key")));
    assert_eq!(keys(&stuck(db, &[])), ["k-nolock"]);
    let both = ["--in-progress-value", "in_progress", "--in-progress-value", "claimed"];
    let out = stuck(db, &both);
    assert_eq!((out.code, keys(&out)), (1, vec!["k-nolock".to_string(), "k-ord-6m".to_string()]), "{}", out.stderr);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idemctl.toml");
    std::fs::write(&path, "[key_table]\nin_progress_value = [\"in_progress\", \"claimed\"]\n").unwrap();
    let config = path.to_str().unwrap();
    assert_eq!(keys(&stuck(db, &["--config", config])), ["k-nolock", "k-ord-6m"]);
    // The reap that would release them names both.
    let reap = run(db.idemctl(&[&["reap", "--dry-run", "--action", "delete", "--format", "csv"][..], &both].concat()));
    assert_eq!(reap.code, 0, "{}", reap.stderr);
    let reaped: Vec<String> = csv_records(&reap.stdout)[1..].iter().map(|r| r[2].clone()).collect();
    assert_eq!(reaped, ["k-nolock", "k-ord-6m"]);
    // expire past 5 minutes: k-done goes; the two in progress stay and are
    // no unknown status once named.
    let expire = |extra: &[&str]| {
        run(db.idemctl(&[&["expire", "--older-than", "5m", "--allow-short-retention"][..], extra].concat()))
    };
    let plain = expire(&["--dry-run"]);
    assert_eq!(plain.code, 1, "{}", plain.stderr);
    assert!(
        plain.stderr.contains("kept: 1 row past the horizon in a status neither finished nor live (claimed 1)"),
        "{}",
        plain.stderr
    );
    let named = expire(&both);
    assert_eq!(named.code, 0, "{}", named.stderr);
    assert!(!named.stderr.contains("kept:"), "{}", named.stderr);
    let left = db.column(&format!("SELECT {} FROM idempotency_keys ORDER BY 1", db.ident("key")));
    let left: Vec<&str> = left.iter().flatten().map(String::as_str).collect();
    assert_eq!(left, ["k-nolock", "k-ord-4m", "k-ord-6m", "k-pay-new", "k-pay-old"]);
    // A running state named finished is refused, by flag or file.
    let refused = expire(&[&both[..], &["--finished-value", "claimed"]].concat());
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.stderr.trim(),
        "idemctl: --finished-value claimed: it is an in-progress status, and a row in it is not finished"
    );
}

on_every_engine!(
    per_operation_durations_select_exactly,
    summary_by_operation,
    config_file_and_flags_over_it,
    no_status_column_and_epoch_seconds,
    key_column_known_by_its_name,
    bad_mapping_names_the_column_and_flag,
    nothing_stuck_exits_zero,
    several_in_progress_values,
);
