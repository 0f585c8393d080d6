//! Key tables as public projects design them, on PostgreSQL, MariaDB/MySQL
//! and SQLite: each fixture copies one design's table and its keys in every
//! state (finished, held within the lease, lease expired, abandoned, held by
//! a live transaction, past retention), and each test checks that idemctl
//! picks what the design's own recovery and retention would, does what the
//! design's own recovery does, and says only what is true of the design.

use std::collections::BTreeMap;

use crate::common::{Engine, Run, TestDb, ago, doctor, run};
use chrono::Duration;

fn idemctl(db: &TestDb, args: &[&str]) -> Run {
    run(db.idemctl(args))
}

/// The outcomes a run counted, the zeros of the others left out.
fn nonzero(outcomes: &serde_json::Value) -> serde_json::Value {
    let map: serde_json::Map<String, serde_json::Value> =
        outcomes.as_object().unwrap().iter().filter(|(_, v)| **v != 0).map(|(k, v)| (k.clone(), v.clone())).collect();
    serde_json::Value::Object(map)
}

/// The stuck keys (key, state) oldest first, and the count held by live transactions.
fn stuck(db: &TestDb, mapping: &[&str]) -> (Vec<(String, String)>, u64, Run) {
    let out = idemctl(db, &[&["stuck", "--format", "json"][..], mapping].concat());
    assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
    let doc = out.json();
    let keys = doc["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["key"].as_str().unwrap().to_string(), k["state"].as_str().unwrap().to_string()))
        .collect();
    (keys, doc["held"].as_u64().unwrap(), out)
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

fn failed(checks: &BTreeMap<String, (String, String)>) -> Vec<&str> {
    checks.iter().filter(|(_, (v, _))| v == "fail").map(|(k, _)| k.as_str()).collect()
}

/// The keys an expire deletes (the real run, on a copy), sorted, once its
/// dry run has counted as many; the table and key column are the mapping's.
fn rows_matching(db: &TestDb, args: &[&str]) -> Vec<String> {
    let (out, _, copy) = crate::common::expire_dry_then_real(db, args, &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let flag = |name: &str| args.iter().position(|a| *a == name).map(|i| args[i + 1]);
    let (table, key) = (flag("--table").unwrap_or("idempotency_keys"), db.ident(flag("--key-column").unwrap()));
    let cast = if db.engine == Engine::MySql { "CHAR" } else { "TEXT" };
    let keys = |db: &TestDb| db.column(&format!("SELECT CAST({key} AS {cast}) FROM {table} ORDER BY 1"));
    let after = keys(&copy);
    let gone: Vec<String> =
        keys(db).into_iter().filter(|k| !after.contains(k)).map(|k| k.unwrap_or_default()).collect();
    assert_eq!(out.json()["runs"][0]["rows_matching"].as_u64(), Some(gone.len() as u64), "{}", out.stdout);
    gone
}

fn count(db: &TestDb, table: &str) -> usize {
    db.column(&format!("SELECT COUNT(*) FROM {table}"))[0].clone().unwrap().parse().unwrap()
}

/// Column types by role, per engine.
fn ty(db: &TestDb, role: &str) -> &'static str {
    use Engine::*;
    match (db.engine, role) {
        (Postgres, "text") => "text",
        (MySql, "text") => "VARCHAR(100)",
        (Sqlite, "text") => "TEXT",
        (Postgres, "json") => "jsonb",
        (MySql | Sqlite, "json") => "TEXT",
        (Postgres, "tstz") => "timestamptz",
        (MySql, "tstz") => "DATETIME(6)",
        (Sqlite, "tstz") => "TEXT",
        (Postgres, "ts") => "timestamp",
        (MySql, "ts") => "DATETIME(6)",
        (Sqlite, "ts") => "TEXT",
        (Postgres, "bytes") => "bytea",
        (MySql, "bytes") => "VARBINARY(64)",
        (Sqlite, "bytes") => "BLOB",
        (Postgres, "bool") => "boolean",
        (MySql, "bool") => "BOOLEAN",
        (Sqlite, "bool") => "INTEGER",
        (Postgres, "serial") => "bigserial PRIMARY KEY",
        (MySql, "serial") => "BIGINT AUTO_INCREMENT PRIMARY KEY",
        (Sqlite, "serial") => "INTEGER PRIMARY KEY",
        (e, r) => panic!("no type for {r} on {e:?}"),
    }
}

/// A time `secs` seconds before now as the engine's literal (negative: after).
fn t(db: &TestDb, secs: i64) -> String {
    ago(db, Duration::seconds(secs))
}

// ----- brandur/rocket-rides-atomic -------------------------------------------

/// rocket-rides-atomic's `idempotency_keys`: a 90 s lease in `locked_at`,
/// `last_run_at`, recovery points, unique (user_id, idempotency_key).
fn rocket_rides(db: &TestDb) {
    let (text, json, ts) = (ty(db, "text"), ty(db, "json"), ty(db, "tstz"));
    db.exec(&format!(
        "CREATE TABLE idempotency_keys (id {serial}, created_at {ts} NOT NULL, idempotency_key {text} NOT NULL,
            last_run_at {ts} NOT NULL, locked_at {ts} NULL, request_method {text} NOT NULL, request_params {json} NOT NULL,
            request_path {text} NOT NULL, response_code INTEGER NULL, response_body {json} NULL,
            recovery_point {text} NOT NULL, user_id BIGINT NOT NULL);
         CREATE UNIQUE INDEX idempotency_keys_user_id_idempotency_key ON idempotency_keys (user_id, idempotency_key)",
        serial = ty(db, "serial"),
    ));
    // (key, created, last run, locked, recovery point)
    let rows: [(&str, i64, i64, Option<i64>, &str); 8] = [
        ("finished", 600, 600, None, "finished"),
        ("running", 600, 10, Some(10), "ride_created"),
        ("lease-out", 600, 300, Some(300), "charge_created"),
        ("unlocked", 600, 240, None, "ride_created"),
        ("just-failed", 600, 30, None, "started"),
        ("held", 600, 200, Some(200), "started"),
        ("old-finished", 4 * 86_400, 4 * 86_400, None, "finished"),
        ("old-stuck", 4 * 86_400, 4 * 86_400, Some(4 * 86_400), "charge_created"),
    ];
    let values: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, (key, created, run, locked, point))| {
            format!(
                "({}, '{key}', {}, {}, 'POST', '{{}}', '/rides', '{point}', {})",
                t(db, *created),
                t(db, *run),
                locked.map_or("NULL".to_string(), |l| t(db, l)),
                i + 1,
            )
        })
        .collect();
    db.exec(&format!(
        "INSERT INTO idempotency_keys (created_at, idempotency_key, last_run_at, locked_at, request_method,
            request_params, request_path, recovery_point, user_id) VALUES {}",
        values.join(", ")
    ));
}

const ROCKET_RIDES: [&str; 17] = [
    "--scope-column",
    "user_id",
    "--key-column",
    "idempotency_key",
    "--operation-column",
    "request_method",
    "--operation-column",
    "request_path",
    "--in-progress-when",
    "recovery_point <> 'finished'",
    "--last-run-column",
    "last_run_at",
    "--max-duration",
    "90s",
    "--on-expired-lease",
    "takeover",
    "--allow-short-duration",
];

fn lock_one(db: &TestDb, table: &str, column: &str, key: &str) -> String {
    format!("SELECT 1 FROM {table} WHERE {} = '{key}' FOR UPDATE", db.ident(column))
}

fn rocket_rides_design(db: &TestDb) {
    rocket_rides(db);
    let mapping = &ROCKET_RIDES[..16];
    // Its completer: recovery_point <> 'finished', created over 5 min ago, not
    // run for 60 s, and unlocked or locked over 90 s ago.
    // By the whole unique key: InnoDB locks every row a scan passes.
    let lock = "SELECT 1 FROM idempotency_keys WHERE user_id = 6 AND idempotency_key = 'held' FOR UPDATE";
    let (keys, held, out) = db.while_holding(lock, || stuck(db, mapping));
    let mut expected = vec![("old-stuck", "lease-expired"), ("lease-out", "lease-expired"), ("unlocked", "abandoned")];
    if db.engine == Engine::Sqlite {
        expected.push(("held", "lease-expired"));
    }
    assert_eq!(keys, pairs(&expected), "{}", out.stderr);
    assert_eq!(held, u64::from(db.engine != Engine::Sqlite), "a live transaction holds one key");
    assert_eq!(out.json()["keys"][0]["operation"], "POST /rides", "the operation spans two columns");
    // Its reaper deletes keys created over 72 h ago, finished or not.
    assert_eq!(
        rows_matching(db, &[&mapping[..10], &["--older-than", "72h", "--include-in-progress"]].concat()),
        ["old-finished", "old-stuck"]
    );
    assert_eq!(
        rows_matching(db, &[&mapping[..10], &["--older-than", "72h"]].concat()),
        ["old-finished"],
        "unfinished kept"
    );
    // Reaping clears the expired leases, as the design's error path does:
    // the next retry (or its completer) takes the key over.
    let out = idemctl(db, &[&["reap", "--format", "json"][..], &ROCKET_RIDES[..]].concat());
    assert_eq!(out.code, 1, "keys left unchanged are still stuck: {}", out.stderr);
    assert!(out.stderr.contains(" left unchanged: this design keeps no lock or status on"), "{}", out.stderr);
    let outcomes: Vec<(String, String)> = out.json()["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["key"].as_str().unwrap().to_string(), k["outcome"].as_str().unwrap().to_string()))
        .collect();
    assert!(outcomes.contains(&("lease-out".into(), "released".into())), "{outcomes:?}");
    assert!(outcomes.contains(&("unlocked".into(), "unchanged".into())), "{outcomes:?}");
    assert_eq!(db.column("SELECT locked_at FROM idempotency_keys WHERE idempotency_key = 'lease-out'"), [None]);
    assert_eq!(
        db.column("SELECT recovery_point FROM idempotency_keys WHERE idempotency_key = 'lease-out'"),
        [Some("charge_created".to_string())],
        "the recovery point stays for the retry to resume from"
    );
    // doctor: a sound design; an expired lease is taken over, not a conflict.
    let (checks, out) = doctor(db, &[mapping, &["--older-than", "72h"]].concat());
    assert_eq!(failed(&checks), Vec::<&str>::new(), "{}", out.stdout);
    let (verdict, reason) = &checks["stuck"];
    assert_eq!(verdict, "warn");
    assert!(reason.contains("takes it over") && !reason.contains("conflict"), "{reason}");
    assert_eq!(checks["lock_time"].0, "pass");
    assert_eq!(checks["response"].0, "pass");
    assert_eq!(checks["fingerprint"].1, "request_params stores the request's fingerprint");
}

// ----- Medusa v1 ---------------------------------------------------------------

/// Medusa v1's `idempotency_key`: unique on the key alone, the operation in
/// two columns with ids in the path, `locked_at` never set, recovery points.
fn medusa(db: &TestDb) {
    let (text, json, ts) = (ty(db, "text"), ty(db, "json"), ty(db, "tstz"));
    db.exec(&format!(
        "CREATE TABLE idempotency_key (id {text} NOT NULL PRIMARY KEY, idempotency_key {text} NOT NULL,
            created_at {ts} NOT NULL, locked_at {ts} NULL, request_method {text}, request_params {json},
            request_path {text}, response_code INTEGER, response_body {json}, recovery_point {text} NOT NULL);
         CREATE UNIQUE INDEX idx_idempotency_key ON idempotency_key (idempotency_key)"
    ));
    let rows: [(&str, i64, &str, &str); 5] = [
        ("done", 900, "/store/carts/cart_1/complete", "finished"),
        ("fresh", 10, "/store/carts/cart_2/complete", "started"),
        ("halfway", 600, "/store/carts/cart_3/complete", "tax_lines_created"),
        ("paid", 700, "/store/carts/cart_4/complete", "payment_authorized"),
        ("held", 800, "/store/carts/cart_5/complete", "started"),
    ];
    let values: Vec<String> = rows
        .iter()
        .map(|(key, created, path, point)| {
            format!("('ikey_{key}', '{key}', {}, NULL, 'POST', '{{}}', '{path}', '{point}')", t(db, *created))
        })
        .collect();
    db.exec(&format!(
        "INSERT INTO idempotency_key (id, idempotency_key, created_at, locked_at, request_method, request_params,
            request_path, recovery_point) VALUES {}",
        values.join(", ")
    ));
}

const MEDUSA: [&str; 14] = [
    "--table",
    "idempotency_key",
    "--key-column",
    "idempotency_key",
    "--operation-column",
    "request_method",
    "--operation-column",
    "request_path",
    "--in-progress-when",
    "recovery_point <> 'finished'",
    "--on-expired-lease",
    "takeover",
    "--max-duration",
    "POST /store/carts/*/complete=2m",
];

fn medusa_design(db: &TestDb) {
    medusa(db);
    // Nothing is ever locked: every unfinished key older than its limit is
    // abandoned, and the next request with it resumes from its recovery point.
    let lock = lock_one(db, "idempotency_key", "idempotency_key", "held");
    let (keys, held, out) = db.while_holding(&lock, || stuck(db, &MEDUSA));
    let mut expected = vec![("paid", "abandoned"), ("halfway", "abandoned")];
    if db.engine == Engine::Sqlite {
        expected.insert(0, ("held", "abandoned"));
    }
    assert_eq!(keys, pairs(&expected), "{}", out.stderr);
    assert_eq!(held, u64::from(db.engine != Engine::Sqlite));
    assert_eq!(out.json()["notes"], serde_json::json!([]), "the glob matches the paths with ids in them");
    // A --max-duration that names no operation of the table says so.
    let mut typo = MEDUSA;
    typo[13] = "POST /store/cart/*/completed=2m";
    let (_, _, out) = stuck(db, &typo);
    let notes = out.json()["notes"].to_string();
    assert!(
        notes.contains("names operations no key has") && notes.contains("POST /store/carts/cart_3/complete"),
        "{notes}"
    );
    // The design's own recovery is the next request: reap leaves the keys as they are.
    let before = count_unfinished(db);
    let out = idemctl(db, &[&["reap", "--format", "json"][..], &MEDUSA[..]].concat());
    assert_eq!(out.code, 1, "keys left unchanged are still stuck: {}", out.stderr);
    assert!(out.stderr.contains(" left unchanged: this design keeps no lock or status on"), "{}", out.stderr);
    assert_eq!(nonzero(&out.json()["outcomes"]), serde_json::json!({"unchanged": 3}), "held is not held any more");
    assert_eq!(count_unfinished(db), before);
    // doctor: the key is unique without a scope: one caller's key can replay another's.
    let (checks, out) = doctor(db, &MEDUSA);
    assert_eq!(failed(&checks), ["uniqueness"], "{}", out.stdout);
    assert!(checks["uniqueness"].1.contains("no scope"), "{:?}", checks["uniqueness"]);
    let (verdict, reason) = &checks["lock_time"];
    assert_eq!(verdict, "warn");
    assert!(reason.contains("locked_at is empty on every key"), "{reason}");
    assert_eq!(out.code, 1);
}

fn count_unfinished(db: &TestDb) -> usize {
    db.column("SELECT id FROM idempotency_key WHERE recovery_point <> 'finished'").len()
}

// ----- transferwise/idempotence4j -------------------------------------------

/// idempotence4j's `idempotent_action`: the lease is the row lock itself;
/// `completed_at` NULL while in progress; purged by age.
fn idempotence4j(db: &TestDb) {
    let (text, ts, bytes) = (ty(db, "text"), ty(db, "ts"), ty(db, "bytes"));
    let key = db.ident("key");
    db.exec(&format!(
        "CREATE TABLE idempotent_action ({key} {text} NOT NULL, type {text} NOT NULL, client {text} NOT NULL,
            created_at {ts} NOT NULL, last_run_at {ts} NULL, completed_at {ts} NULL, result {bytes},
            result_type VARCHAR(255), PRIMARY KEY ({key}, type, client));
         CREATE INDEX idx_idempotent_action_created_at ON idempotent_action (created_at)"
    ));
    let rows: [(&str, i64, Option<i64>); 6] = [
        ("completed", 900, Some(890)),
        ("running", 600, None),
        ("crashed", 600, None),
        ("fresh", 5, None),
        ("old-completed", 40 * 86_400, Some(40 * 86_400)),
        ("old-crashed", 40 * 86_400, None),
    ];
    let values: Vec<String> = rows
        .iter()
        .map(|(k, created, completed)| {
            let done = completed.map_or("NULL".to_string(), |c| t(db, c));
            format!("('{k}', 'CHARGE', 'checkout', {}, {done}, {done})", t(db, *created))
        })
        .collect();
    db.exec(&format!(
        "INSERT INTO idempotent_action ({key}, type, client, created_at, last_run_at, completed_at) VALUES {}",
        values.join(", ")
    ));
}

const IDEMPOTENCE4J: [&str; 14] = [
    "--table",
    "idempotent_action",
    "--key-column",
    "key",
    "--scope-column",
    "client",
    "--operation-column",
    "type",
    "--in-progress-when",
    "completed_at IS NULL",
    "--on-expired-lease",
    "takeover",
    "--max-duration",
    "5m",
];

fn idempotence4j_design(db: &TestDb) {
    idempotence4j(db);
    // A live transaction holds `running` (its procedure is under way): not stuck.
    let lock = format!("SELECT 1 FROM idempotent_action WHERE {} = 'running' FOR UPDATE", db.ident("key"));
    let (keys, held, out) = db.while_holding(&lock, || stuck(db, &IDEMPOTENCE4J));
    let mut expected = vec![("old-crashed", "abandoned"), ("crashed", "abandoned")];
    if db.engine == Engine::Sqlite {
        expected.insert(1, ("running", "abandoned"));
    }
    assert_eq!(keys, pairs(&expected), "{}", out.stderr);
    assert_eq!(held, u64::from(db.engine != Engine::Sqlite));
    // Its purge job deletes by age, completed or not (30 days by default).
    assert_eq!(
        rows_matching(db, &[&IDEMPOTENCE4J[..10], &["--older-than", "30d", "--include-in-progress"]].concat()),
        ["old-completed", "old-crashed"]
    );
    // Its recovery is the next call re-running the procedure: nothing to write.
    let out = idemctl(db, &[&["reap", "--format", "json"][..], &IDEMPOTENCE4J[..]].concat());
    assert_eq!(out.code, 1, "keys left unchanged are still stuck: {}", out.stderr);
    assert!(out.stderr.contains(" left unchanged: this design keeps no lock or status on"), "{}", out.stderr);
    assert_eq!(nonzero(&out.json()["outcomes"]), serde_json::json!({"unchanged": 3}), "running is not held any more");
    let (checks, out) = doctor(db, &IDEMPOTENCE4J);
    assert_eq!(failed(&checks), Vec::<&str>::new(), "{}", out.stdout);
    assert_eq!(checks["uniqueness"].0, "pass");
    assert_eq!(checks["response"].1, "result stores the whole result for retries");
    assert!(checks["lock_time"].1.contains("last_run_at records each attempt"), "{:?}", checks["lock_time"]);
    assert_eq!(checks["stuck"].0, "warn");
}

// ----- AWS Lambda Powertools (translated to SQL) ----------------------------

/// Powertools' record: `status` INPROGRESS/COMPLETED, `expiration` in epoch
/// seconds, `in_progress_expiration` a deadline in epoch milliseconds.
fn powertools(db: &TestDb) {
    let text = ty(db, "text");
    db.exec(&format!(
        "CREATE TABLE powertools_idempotency (id {text} NOT NULL PRIMARY KEY, expiration BIGINT NOT NULL,
            in_progress_expiration BIGINT NULL, status {text} NOT NULL, data TEXT, validation {text})"
    ));
    let now = chrono::Utc::now();
    let (s, ms) = (now.timestamp(), now.timestamp_millis());
    let rows: [(&str, i64, Option<i64>, &str); 6] = [
        ("fn#done", s + 3000, Some(ms - 3_000_000), "COMPLETED"),
        ("fn#running", s + 3500, Some(ms + 60_000), "INPROGRESS"),
        ("fn#timed-out", s + 3300, Some(ms - 300_000), "INPROGRESS"),
        ("fn#held", s + 3400, Some(ms - 200_000), "INPROGRESS"),
        ("fn#expired", s - 7200, Some(ms - 10_000_000), "COMPLETED"),
        ("fn#expired-running", s - 3600, Some(ms - 7_000_000), "INPROGRESS"),
    ];
    let values: Vec<String> = rows
        .iter()
        .map(|(id, exp, deadline, status)| {
            format!("('{id}', {exp}, {}, '{status}', '{{}}')", deadline.map_or("NULL".to_string(), |d| d.to_string()))
        })
        .collect();
    db.exec(&format!(
        "INSERT INTO powertools_idempotency (id, expiration, in_progress_expiration, status, data) VALUES {}",
        values.join(", ")
    ));
}

const POWERTOOLS: [&str; 14] = [
    "--table",
    "powertools_idempotency",
    "--key-column",
    "id",
    "--in-progress-value",
    "INPROGRESS",
    "--succeeded-value",
    "COMPLETED",
    "--lease-until-column",
    "in_progress_expiration",
    "--expires-at-column",
    "expiration",
    "--on-expired-lease",
    "takeover",
];

fn powertools_design(db: &TestDb) {
    powertools(db);
    let ids = |db: &TestDb| db.column("SELECT id FROM powertools_idempotency ORDER BY id");
    let before = ids(db);
    // A deadline that has passed is stuck: the next invocation overwrites the record.
    let lock = "SELECT 1 FROM powertools_idempotency WHERE id = 'fn#held' FOR UPDATE";
    let (keys, held, out) = db.while_holding(lock, || stuck(db, &POWERTOOLS));
    let mut expected = vec![("fn#expired-running", "lease-expired"), ("fn#timed-out", "lease-expired")];
    if db.engine == Engine::Sqlite {
        expected.push(("fn#held", "lease-expired"));
    }
    assert_eq!(keys, pairs(&expected), "{}", out.stderr);
    assert_eq!(held, u64::from(db.engine != Engine::Sqlite));
    // Seconds and milliseconds, each column read on its own; one unit for both
    // would read one of them wrong, and stops before reading anything.
    // The dry run refuses as the real run does.
    for dry in [&["--dry-run"][..], &[]] {
        let forced = idemctl(db, &[&["expire"][..], dry, &POWERTOOLS[..12], &["--time-unit", "ms"]].concat());
        assert_eq!(forced.code, 2, "{}", forced.stderr);
        assert!(forced.stderr.contains("does not fit column \"expiration\""), "{}", forced.stderr);
    }
    let both = ["--time-unit", "expiration=s", "--time-unit", "in_progress_expiration=ms"];
    assert_eq!(rows_matching(db, &[&POWERTOOLS[..12], &both[..]].concat()), ["fn#expired"]);
    // Its TTL removes every record past `expiration`, in progress or not.
    assert_eq!(
        rows_matching(db, &[&POWERTOOLS[..12], &["--include-in-progress"]].concat()),
        ["fn#expired", "fn#expired-running"]
    );
    // No retryable status exists: release refuses, nothing changed; delete is
    // the library's own recovery.
    let out = idemctl(db, &[&["reap", "--format", "json"][..], &POWERTOOLS[..]].concat());
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("failed_retryable") && out.stderr.contains("--action delete"), "{}", out.stderr);
    assert_eq!(ids(db), before);
    let out = idemctl(db, &[&["reap", "--action", "delete", "--format", "json"][..], &POWERTOOLS[..]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let deleted = 3;
    assert_eq!(
        nonzero(&out.json()["outcomes"]),
        serde_json::json!({"deleted": deleted}),
        "fn#held is not held any more"
    );
    assert_eq!(ids(db).len(), before.len() - deleted);
    assert!(!ids(db).contains(&Some("fn#timed-out".to_string())));
    assert!(ids(db).contains(&Some("fn#running".to_string())), "a live deadline stays");
    let (checks, out) = doctor(db, &[&POWERTOOLS[..], &["--scope-in-key"]].concat());
    assert_eq!(failed(&checks), Vec::<&str>::new(), "{}", out.stdout);
    assert!(checks["statuses"].1.contains("holds only INPROGRESS and COMPLETED"), "{:?}", checks["statuses"]);
    assert_eq!(checks["response"].1, "data stores the whole result for retries");
    assert!(checks["lock_time"].1.contains("in_progress_expiration holds each lease's deadline"));
}

// ----- getlago/lago-api ------------------------------------------------------

/// Lago's `idempotency_records`: a SHA-256 digest of the business values as
/// the key, written in the invoice's transaction: nothing is ever in progress.
fn lago(db: &TestDb) {
    let (text, ts, bytes) = (ty(db, "text"), ty(db, "tstz"), ty(db, "bytes"));
    db.exec(&format!(
        "CREATE TABLE idempotency_records (id {text} NOT NULL PRIMARY KEY, idempotency_key {bytes} NOT NULL,
            resource_id {text}, resource_type {text}, organization_id {text}, created_at {ts} NOT NULL,
            updated_at {ts} NOT NULL);
         CREATE UNIQUE INDEX index_idempotency_records_on_idempotency_key ON idempotency_records (idempotency_key)"
    ));
    let digest = |n: u8| match db.engine {
        Engine::Postgres => format!("'\\x{}'::bytea", format!("{n:02x}").repeat(32)),
        Engine::MySql => format!("UNHEX('{}')", format!("{n:02x}").repeat(32)),
        Engine::Sqlite => format!("X'{}'", format!("{n:02x}").repeat(32)),
    };
    db.exec(&format!(
        "INSERT INTO idempotency_records VALUES
            ('r1', {}, 'inv_1', 'Invoice', 'org_1', {c}, {c}), ('r2', {}, 'inv_2', 'Invoice', 'org_1', {c}, {c})",
        digest(1),
        digest(2),
        c = t(db, 3600)
    ));
}

const LAGO: [&str; 5] = ["--table", "idempotency_records", "--key-column", "idempotency_key", "--no-in-progress"];

fn lago_design(db: &TestDb) {
    lago(db);
    let (keys, held, out) = stuck(db, &LAGO);
    assert_eq!((keys.len(), held, out.code), (0, 0, 0));
    assert!(out.json()["notes"].to_string().contains("no in-progress state"), "{}", out.stdout);
    let out = idemctl(db, &[&["reap"][..], &LAGO[..]].concat());
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("no in-progress state"), "{}", out.stderr);
    assert_eq!(count(db, "idempotency_records"), 2);
    // The key is a digest of the caller's request: declared, it is scoped.
    let (checks, out) = doctor(db, &[&LAGO[..], &["--scope-in-key"]].concat());
    assert_eq!(failed(&checks), Vec::<&str>::new(), "{}", out.stdout);
    assert!(checks["uniqueness"].1.contains("--scope-in-key"), "{:?}", checks["uniqueness"]);
    assert!(checks["response"].1.contains("resource_id references the created resource"));
    for check in ["statuses", "lock_time", "stuck"] {
        assert_eq!(checks[check].0, "pass", "{check}: {:?}", checks[check]);
    }
    // Undeclared, a digest-looking key with no scope gets the suggestion.
    let (checks, _) = doctor(db, &LAGO);
    assert_eq!(failed(&checks), ["uniqueness"]);
    assert!(checks["uniqueness"].1.contains("looks like a digest"), "{:?}", checks["uniqueness"]);
}

// ----- julik/idempo ----------------------------------------------------------

/// idempo's `idempo_responses`: a digest key, `expire_at` 30 s after the
/// response, an advisory lock while the request runs (no row in progress).
fn idempo(db: &TestDb) {
    let (text, ts, bytes) = (ty(db, "text"), ty(db, "tstz"), ty(db, "bytes"));
    db.exec(&format!(
        "CREATE TABLE idempo_responses (id {serial}, idempotent_request_key {text} NOT NULL, expire_at {ts} NOT NULL,
            idempotent_response_payload {bytes}, created_at {ts} NOT NULL, updated_at {ts} NOT NULL);
         CREATE UNIQUE INDEX idx_idempo_key ON idempo_responses (idempotent_request_key);
         CREATE INDEX idx_idempo_expire_at ON idempo_responses (expire_at)",
        serial = ty(db, "serial"),
    ));
    let rows = [("fresh", 5), ("gone1", 120), ("gone2", 300)];
    let values: Vec<String> =
        rows.iter().map(|(k, age)| format!("('{k}', {}, {}, {})", t(db, age - 30), t(db, *age), t(db, *age))).collect();
    db.exec(&format!(
        "INSERT INTO idempo_responses (idempotent_request_key, expire_at, created_at, updated_at) VALUES {}",
        values.join(", ")
    ));
}

const IDEMPO: [&str; 7] = [
    "--table",
    "idempo_responses",
    "--key-column",
    "idempotent_request_key",
    "--expires-at-column",
    "expire_at",
    "--no-in-progress",
];

fn idempo_design(db: &TestDb) {
    idempo(db);
    // prune! deletes rows whose expire_at has passed.
    assert_eq!(rows_matching(db, &IDEMPO), ["gone1", "gone2"]);
    let (keys, _, _) = stuck(db, &IDEMPO);
    assert!(keys.is_empty());
    let (checks, out) = doctor(db, &[&IDEMPO[..], &["--scope-in-key"]].concat());
    assert_eq!(failed(&checks), Vec::<&str>::new(), "{}", out.stdout);
    let (verdict, reason) = &checks["lifetime"];
    assert_eq!(verdict, "warn", "a 30 s lifetime is shorter than any client's retries");
    assert!(reason.contains("keys live 30s"), "{reason}");
    assert_eq!(checks["response"].1, "idempotent_response_payload stores the whole result for retries");
    assert_eq!(checks["expiry_index"].0, "pass");
}

// ----- dj-stripe -------------------------------------------------------------

/// dj-stripe's `IdempotencyKey`: a client-side store of keys for Stripe's
/// API, unique (action, livemode), deleted after 24 h.
fn dj_stripe(db: &TestDb) {
    let (text, ts, boolean) = (ty(db, "text"), ty(db, "tstz"), ty(db, "bool"));
    db.exec(&format!(
        "CREATE TABLE djstripe_idempotencykey (uuid {text} NOT NULL PRIMARY KEY, action {text} NOT NULL,
            livemode {boolean} NOT NULL, created {ts} NOT NULL, UNIQUE (action, livemode))"
    ));
    db.exec(&format!(
        "INSERT INTO djstripe_idempotencykey VALUES ('u1', 'customer:create:1', {f}, {a}), ('u2', 'customer:create:2', {f}, {b}),
            ('u3', 'customer:create:3', {f}, {c})",
        f = if db.engine == Engine::Postgres { "false" } else { "0" },
        a = t(db, 600),
        b = t(db, 25 * 3600),
        c = t(db, 30 * 3600),
    ));
}

const DJ_STRIPE: [&str; 9] = [
    "--table",
    "djstripe_idempotencykey",
    "--key-column",
    "action",
    "--scope-column",
    "livemode",
    "--created-at-column",
    "created",
    "--no-in-progress",
];

fn dj_stripe_design(db: &TestDb) {
    dj_stripe(db);
    // clear_expired_idempotency_keys: created over 24 h ago.
    assert_eq!(
        rows_matching(db, &[&DJ_STRIPE[..], &["--older-than", "24h"]].concat()),
        ["customer:create:2", "customer:create:3"]
    );
    let (checks, out) = doctor(db, &[&DJ_STRIPE[..], &["--responses-upstream", "--older-than", "24h"]].concat());
    assert_eq!(failed(&checks), Vec::<&str>::new(), "{}", out.stdout);
    assert!(checks["response"].1.contains("kept by the upstream service"), "{:?}", checks["response"]);
    assert_eq!(checks["uniqueness"].0, "pass");
    assert_eq!(out.code, 0);
}

// ----- the config file ---------------------------------------------------------

/// Every new mapping in the config file, and a flag over it.
fn config_file_holds_every_mapping(db: &TestDb) {
    powertools(db);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idemctl.toml");
    std::fs::write(
        &path,
        r#"
max_duration = "5m"
[key_table]
table = "powertools_idempotency"
key_column = "id"
in_progress_value = "INPROGRESS"
succeeded_value = "COMPLETED"
lease_until_column = "in_progress_expiration"
lease_grace = "1h"
expires_at_column = "expiration"
on_expired_lease = "takeover"
scope_in_key = true
[key_table.time_units]
expiration = "s"
in_progress_expiration = "ms"
"#,
    )
    .unwrap();
    let config = path.to_str().unwrap();
    // An hour's grace: only the deadline 116 minutes past is stuck.
    let (keys, _, out) = stuck(db, &["--config", config]);
    assert_eq!(keys, pairs(&[("fn#expired-running", "lease-expired")]), "{}", out.stderr);
    let (keys, _, _) = stuck(db, &["--config", config, "--lease-grace", "0s"]);
    assert_eq!(keys.len(), 3, "{keys:?}");
    let (checks, out) = doctor(db, &["--config", config]);
    assert_eq!(failed(&checks), Vec::<&str>::new(), "{}", out.stdout);
    assert!(checks["stuck"].1.contains("takes it over"), "{:?}", checks["stuck"]);
    // Operations over two columns, a last-run column, a condition; a design
    // without an in-progress state; upstream responses.
    rocket_rides(db);
    std::fs::write(
        &path,
        r#"
max_duration = "90s"
[key_table]
scope_columns = ["user_id"]
key_column = "idempotency_key"
operation_columns = ["request_method", "request_path"]
in_progress_when = "recovery_point <> 'finished'"
last_run_column = "last_run_at"
on_expired_lease = "takeover"
"#,
    )
    .unwrap();
    let (keys, _, out) = stuck(db, &["--config", config]);
    assert_eq!(keys.len(), 4, "{keys:?} {}", out.stderr);
    assert_eq!(out.json()["keys"][0]["operation"], "POST /rides");
    dj_stripe(db);
    std::fs::write(
        &path,
        "[key_table]\ntable = \"djstripe_idempotencykey\"\nkey_column = \"action\"\nscope_columns = [\"livemode\"]\n\
         created_at_column = \"created\"\nin_progress = false\nresponses_upstream = true\n",
    )
    .unwrap();
    let (checks, out) = doctor(db, &["--config", config]);
    assert_eq!(failed(&checks), Vec::<&str>::new(), "{}", out.stdout);
    assert!(checks["response"].1.contains("upstream"), "{:?}", checks["response"]);
    assert_eq!(checks["statuses"].0, "pass");
}

on_every_engine!(
    rocket_rides_design,
    medusa_design,
    idempotence4j_design,
    powertools_design,
    lago_design,
    idempo_design,
    dj_stripe_design,
    config_file_holds_every_mapping,
);
