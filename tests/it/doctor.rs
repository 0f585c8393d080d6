//! `idemctl doctor` against real PostgreSQL, MariaDB/MySQL and SQLite: a
//! fixture that passes every check and fixtures that warn or fail each one.

use std::collections::BTreeMap;

use crate::common::{Engine, Run, TestDb, ago, run};
use serde_json::Value;

fn doctor(db: &TestDb, extra: &[&str]) -> Run {
    let mut args = vec!["doctor", "--format", "json"];
    args.extend_from_slice(extra);
    run(db.idemctl(&args))
}

/// Each check's result, and its reason, by name.
fn results(out: &Run) -> BTreeMap<String, (String, String)> {
    let doc: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", out.stdout, out.stderr));
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap().to_string();
            (s("check"), (s("result"), s("reason")))
        })
        .collect()
}

fn result(r: &BTreeMap<String, (String, String)>, check: &str) -> String {
    r.get(check).unwrap_or_else(|| panic!("no check {check}: {r:?}")).0.clone()
}

fn reason(r: &BTreeMap<String, (String, String)>, check: &str) -> String {
    r.get(check).unwrap_or_else(|| panic!("no check {check}: {r:?}")).1.clone()
}

fn types(db: &TestDb) -> (&'static str, &'static str, &'static str, &'static str) {
    match db.engine {
        Engine::Postgres => ("text", "bytea", "jsonb", "timestamptz"),
        Engine::MySql => ("VARCHAR(100)", "VARBINARY(64)", "TEXT", "DATETIME(6)"),
        Engine::Sqlite => ("TEXT", "BLOB", "TEXT", "TEXT"),
    }
}

/// The reference design: every check passes. Keys finished or in progress
/// for a few seconds, none past its expiry; an orders table with a natural
/// unique key besides its minted primary key.
fn reference(db: &TestDb) {
    let (text, blob, json, ts) = types(db);
    let key = db.ident("key");
    db.exec(&format!(
        "CREATE TABLE idempotency_keys (
            scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL, request_hash {blob},
            status {text} NOT NULL, response_code INTEGER, response_body {json},
            locked_at {ts} NULL, created_at {ts} NOT NULL, expires_at {ts} NOT NULL,
            PRIMARY KEY (scope_id, operation, {key}));
         CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
         CREATE TABLE orders (id {pk}, customer_id {text} NOT NULL, client_reference {text} NOT NULL,
            amount INTEGER NOT NULL, created_at {created});
         CREATE UNIQUE INDEX orders_natural ON orders (customer_id, client_reference)",
        pk = db.ty("pk"),
        created = db.ty("ts"),
    ));
    let (now, hour, day) = (chrono::Duration::zero(), chrono::Duration::hours(1), chrono::Duration::days(1));
    db.exec(&format!(
        "INSERT INTO orders (id, customer_id, client_reference, amount, created_at) VALUES
           (1, 'c1', 'r1', 500, {h}), (2, 'c1', 'r2', 500, {n}), (3, 'c2', 'r1', 700, {n})",
        n = ago(db, now),
        h = ago(db, hour),
    ));
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {key}, status, locked_at, created_at, expires_at) VALUES
           ('s1', 'POST /v1/orders', 'k1', 'succeeded', {h}, {h}, {d}),
           ('s1', 'POST /v1/orders', 'k2', 'in_progress', {n}, {n}, {d}),
           ('s2', 'POST /v1/orders', 'k1', 'failed_retryable', {h}, {h}, {d}),
           ('s2', 'POST /v1/refunds', 'k4', 'failed_permanent', {h}, {h}, {d})",
        n = ago(db, now),
        h = ago(db, hour),
        d = ago(db, -day),
    ));
}

fn the_reference_design_passes(db: &TestDb) {
    reference(db);
    let out = doctor(db, &["--creation-table", "orders"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let r = results(&out);
    let names: Vec<&str> = r.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "backlog",
            "creation:orders",
            "expiry_index",
            "fingerprint",
            "lifetime",
            "lock_time",
            "response",
            "statuses",
            "stuck",
            "uniqueness"
        ]
    );
    for (check, (verdict, why)) in &r {
        assert_eq!(verdict, "pass", "{check}: {why}");
    }
    // Two callers sent k1: the index keeps them apart, and says so.
    assert_eq!(
        reason(&r, "uniqueness"),
        "unique (scope_id, operation, key) covers scope + operation + key; in 4 rows, 1 key is held by two callers or \
         operations, which it keeps apart"
    );
    assert_eq!(
        reason(&r, "creation:orders"),
        "unique (customer_id, client_reference) refuses a second row, even once the key has expired; scan finds no \
         extra rows in 3 rows"
    );
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["summary"], serde_json::json!({"passed": 10, "warned": 0, "failed": 0}));
    // The table format says the same to people; the config file's scan tables are the creation tables.
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("idemctl.toml");
    std::fs::write(&config, "[scan.orders]\nwindow = \"10s\"\n").unwrap();
    let out = run(db.idemctl(&["doctor", "--config", config.to_str().unwrap()]));
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("creation:orders"), "{}", out.stdout);
    assert!(out.stderr.contains("10 passed, 0 warned, 0 failed"), "{}", out.stderr);
}

/// A design that breaks most rules: the key unique alone (no scope), no
/// fingerprint, no stored response, one status for every failure, no lock
/// time, no expiry and no index on created_at, a key stuck for an hour; an
/// orders table unique on its minted id alone.
fn a_weak_design_fails(db: &TestDb) {
    let text = db.ty("text");
    let ts = types(db).3;
    db.exec(&format!(
        "CREATE TABLE request_keys ({key} {text} NOT NULL PRIMARY KEY, status {text} NOT NULL, created_at {ts} NOT NULL);
         CREATE TABLE orders (id {pk}, customer_id {text} NOT NULL, amount INTEGER NOT NULL, created_at {created})",
        key = db.ident("key"),
        pk = db.ty("pk"),
        created = db.ty("ts"),
    ));
    db.exec(&format!(
        "INSERT INTO request_keys VALUES ('a', 'done', {old}), ('b', 'failed', {old}), ('c', 'in_progress', {old});
         INSERT INTO orders (customer_id, amount, created_at) VALUES ('c1', 100, {old}), ('c2', 100, {old})",
        old = ago(db, chrono::Duration::hours(1))
    ));
    let out = doctor(db, &["--table", "request_keys", "--succeeded-value", "done", "--creation-table", "orders"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let r = results(&out);
    let got: Vec<(&str, String)> = r.iter().map(|(k, v)| (k.as_str(), v.0.clone())).collect();
    let want = [
        ("backlog", "warn"),
        ("creation:orders", "fail"),
        ("expiry_index", "warn"),
        ("fingerprint", "warn"),
        ("lock_time", "warn"),
        ("response", "fail"),
        ("statuses", "warn"),
        ("stuck", "fail"),
        ("uniqueness", "fail"),
    ];
    assert_eq!(got, want.map(|(k, v)| (k, v.to_string())));
    assert!(reason(&r, "uniqueness").contains("has no scope"), "{}", reason(&r, "uniqueness"));
    assert!(reason(&r, "statuses").contains("\"failed\""), "{}", reason(&r, "statuses"));
    assert!(reason(&r, "stuck").starts_with("1 key is stuck"), "{}", reason(&r, "stuck"));
    assert!(reason(&r, "expiry_index").contains("no index starts with created_at"), "{}", reason(&r, "expiry_index"));
    assert!(reason(&r, "creation:orders").contains("minted primary key"));
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["summary"], serde_json::json!({"passed": 0, "warned": 5, "failed": 4}));
    let fixes: Vec<&str> = doc["checks"].as_array().unwrap().iter().map(|c| c["fix"].as_str().unwrap()).collect();
    assert!(fixes.iter().all(|f| !f.is_empty()), "every finding says how to fix it: {fixes:?}");
    // The fix names the table's own columns: orders has customer_id and no
    // client reference, so the constraint waits for a column to be added.
    let fix =
        doc["checks"].as_array().unwrap().iter().find(|c| c["check"] == "creation:orders").unwrap()["fix"].clone();
    // The SQL quotes every name by the engine's rules, so that it runs as printed.
    let orders = match db.engine {
        Engine::Postgres => "\"public\".\"orders\"".to_string(),
        Engine::MySql => format!("`{}`.`orders`", db.name),
        Engine::Sqlite => "\"orders\"".to_string(),
    };
    let column_type = if db.engine == Engine::MySql { "VARCHAR(255)" } else { "TEXT" };
    assert_eq!(
        fix,
        format!(
            "add a column for the reference the client sends with each request (NULL on the rows there are, which a \
             unique index lets repeat), and a unique constraint on it with customer_id: ALTER TABLE {orders} ADD \
             COLUMN {} {column_type}; CREATE UNIQUE INDEX {} ON {orders} ({}, {})",
            db.ident("client_reference"),
            db.ident("orders_customer_id_client_reference_key"),
            db.ident("customer_id"),
            db.ident("client_reference")
        )
    );
    // Both statements run as printed (on a copy of the table's shape).
    let sql = fix.as_str().unwrap().split_once(": ").unwrap().1.replace(&orders, "orders_copy");
    db.exec("CREATE TABLE orders_copy AS SELECT * FROM orders");
    db.exec(&sql.replace(&db.ident("orders_customer_id_client_reference_key"), "orders_copy_key"));
    assert_eq!(db.column("SELECT COUNT(client_reference) FROM orders_copy"), [Some("0".to_string())]);
    db.exec("DROP TABLE orders_copy");
    db.exec(&format!("ALTER TABLE orders ADD COLUMN client_ref {}", db.ty("text")));
    let out = doctor(db, &["--table", "request_keys", "--succeeded-value", "done", "--creation-table", "orders"]);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let fix =
        doc["checks"].as_array().unwrap().iter().find(|c| c["check"] == "creation:orders").unwrap()["fix"].clone();
    assert_eq!(
        fix,
        format!(
            "add a unique constraint on what makes a request's row itself (client_ref is nullable and a unique index \
             lets NULLs repeat, so rows without one stay unprotected until it is made NOT NULL): CREATE UNIQUE INDEX \
             {} ON {orders} ({}, {})",
            db.ident("orders_customer_id_client_ref_key"),
            db.ident("customer_id"),
            db.ident("client_ref")
        )
    );
    // And it does: run as printed, the check passes.
    db.exec(fix.as_str().unwrap().split_once(": ").unwrap().1);
    let out = doctor(db, &["--table", "request_keys", "--succeeded-value", "done", "--creation-table", "orders"]);
    assert_eq!(result(&results(&out), "creation:orders"), "pass");
    // With the stuck key gone and the failure values mapped, fewer findings remain.
    db.exec("DELETE FROM request_keys WHERE status = 'in_progress'");
    let out = doctor(
        db,
        &[
            "--table",
            "request_keys",
            "--succeeded-value",
            "done",
            "--retryable-value",
            "failed",
            "--permanent-value",
            "gone",
        ],
    );
    let r = results(&out);
    assert_eq!(result(&r, "stuck"), "pass");
    assert_eq!(result(&r, "statuses"), "pass");
}

fn uniqueness_must_cover_scope_operation_and_key(db: &TestDb) {
    let (text, _, _, ts) = types(db);
    let key = db.ident("key");
    db.exec(&format!(
        "CREATE TABLE k_no_op (scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL,
            status {text} NOT NULL, created_at {ts} NOT NULL, UNIQUE (scope_id, {key}));
         CREATE TABLE k_wide (scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL,
            status {text} NOT NULL, created_at {ts} NOT NULL, PRIMARY KEY (scope_id, operation, {key}, created_at));
         CREATE TABLE k_no_scope (scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL,
            status {text} NOT NULL, created_at {ts} NOT NULL, UNIQUE (operation, {key}))"
    ));
    let check = |table: &str| {
        let r = results(&doctor(db, &["--table", table]));
        (result(&r, "uniqueness"), reason(&r, "uniqueness"))
    };
    let (verdict, why) = check("k_no_op");
    assert_eq!(verdict, "warn", "{why}");
    assert!(why.contains("leaves out the operation"), "{why}");
    // What the wide key let through: one request stored twice (and run
    // twice), another stored three times; a key two operations share is no
    // such request.
    let (a, b, c) = (db.ts("2026-01-01 10:00:00"), db.ts("2026-01-01 10:00:30"), db.ts("2026-01-01 10:01:30"));
    db.exec(&format!(
        "INSERT INTO k_wide VALUES ('s1', 'pay', 'k1', 'done', {a}), ('s1', 'pay', 'k1', 'done', {b}),
            ('s1', 'pay', 'k2', 'done', {a}), ('s1', 'pay', 'k2', 'done', {b}), ('s1', 'pay', 'k2', 'done', {c}),
            ('s1', 'pay', 'k3', 'done', {a}), ('s1', 'refund', 'k3', 'done', {a})"
    ));
    let (verdict, why) = check("k_wide");
    assert_eq!(verdict, "fail", "{why}");
    assert!(why.contains("other columns too"), "{why}");
    assert!(why.ends_with("; in 7 rows, 2 keys are held by two rows or more, each a request that ran twice"), "{why}");
    let (verdict, why) = check("k_no_scope");
    assert_eq!(verdict, "fail", "{why}");
    assert!(why.contains("leaves out the scope"), "{why}");
    // Each fix runs as printed, in the steps it gives, and the index it
    // builds refuses a request stored again.
    let fix = |table: &str| {
        let out = doctor(db, &["--table", table]);
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        let check = doc["checks"].as_array().unwrap().iter().find(|c| c["check"] == "uniqueness").cloned().unwrap();
        check["fix"].as_str().unwrap().to_string()
    };
    let wide = fix("k_wide");
    assert!(
        wide.starts_with(
            "first keep one row of each of the 2 keys stored twice (each other row is a request that ran again: check \
             its effect), over which a unique index fails to build, then make (scope_id, operation, key) unique: "
        ),
        "{wide}"
    );
    assert!(db.try_exec(statements(&wide)[0]).is_err(), "the index builds over keys stored twice: {wide}");
    db.exec(&format!("DELETE FROM k_wide WHERE operation = 'pay' AND created_at > {a}"));
    for table in ["k_wide", "k_no_op", "k_no_scope"] {
        let fix = if table == "k_wide" { wide.clone() } else { fix(table) };
        for statement in statements(&fix) {
            db.try_exec(statement).unwrap_or_else(|e| panic!("{table}: {statement}: {e}"));
        }
        db.exec(&format!("INSERT INTO {table} VALUES ('s9', 'pay', 'k9', 'done', {a})"));
        assert!(
            db.try_exec(&format!("INSERT INTO {table} VALUES ('s9', 'pay', 'k9', 'done', {b})")).is_err(),
            "{table}: a request stored again after {fix}"
        );
    }
    // No scope column at all: the fix adds one before its index needs it.
    db.exec(&format!(
        "CREATE TABLE k_flat (operation {text} NOT NULL, {key} {text} NOT NULL, status {text} NOT NULL,
            created_at {ts} NOT NULL, UNIQUE (operation, {key}));
         INSERT INTO k_flat VALUES ('pay', 'k1', 'done', {a})"
    ));
    let flat = fix("k_flat");
    assert!(flat.contains("fill it on every new key, map it with --scope-column"), "{flat}");
    for statement in statements(&flat) {
        db.try_exec(statement).unwrap_or_else(|e| panic!("k_flat: {statement}: {e}"));
    }
    let caller = db.ident("caller_id");
    assert_eq!(db.column(&format!("SELECT {caller} FROM k_flat")), [None], "the keys there are have no caller yet");
    // A job table: the sender mints the id, so the fix adds no caller, and
    // its sentences speak of jobs, not of requests.
    db.exec(&format!(
        "CREATE TABLE k_jobs (id {pk}, job_id {text} NOT NULL, status {text} NOT NULL, created_at {ts} NOT NULL);
         INSERT INTO k_jobs (job_id, status, created_at) VALUES ('j1', 'done', {a}), ('j1', 'done', {b}),
            ('j2', 'done', {a})",
        pk = db.ty("pk")
    ));
    let out = doctor(db, &["--table", "k_jobs", "--key-column", "job_id", "--kind", "jobs"]);
    let r = results(&out);
    assert_eq!(
        r["uniqueness"],
        (
            "fail".to_string(),
            "nothing makes (job_id) unique: a job sent twice with one id is stored twice, and both are handled; in 3 \
             rows, 1 job is held by two rows or more, each stored twice"
                .to_string()
        )
    );
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let found = doc["checks"].as_array().unwrap().iter().find(|c| c["check"] == "uniqueness").cloned().unwrap();
    let jobs = found["fix"].as_str().unwrap().to_string();
    assert!(
        jobs.starts_with(
            "first keep one row of each of the 1 job stored twice (each other row is the same job again: check \
             whether it was handled twice), over which a unique index fails to build, then make (job_id) unique: "
        ),
        "{jobs}"
    );
    db.exec(&format!("DELETE FROM k_jobs WHERE job_id = 'j1' AND created_at > {a}"));
    for statement in statements(&jobs) {
        db.try_exec(statement).unwrap_or_else(|e| panic!("k_jobs: {statement}: {e}"));
    }
    assert!(
        db.try_exec(&format!("INSERT INTO k_jobs (job_id, status, created_at) VALUES ('j2', 'done', {b})")).is_err()
    );
    if db.engine != Engine::MySql {
        // A partial unique index holds over some rows only: it does not count.
        db.exec(&format!(
            "CREATE TABLE k_partial (scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL,
                status {text} NOT NULL, created_at {ts} NOT NULL);
             CREATE UNIQUE INDEX k_partial_running ON k_partial (scope_id, operation, {key}) WHERE status = 'in_progress';
             INSERT INTO k_partial VALUES ('s1', 'pay', 'k1', 'done', {a}), ('s1', 'pay', 'k1', 'in_progress', {b})"
        ));
        let (verdict, why) = check("k_partial");
        assert_eq!(verdict, "fail", "{why}");
        assert!(why.starts_with("nothing makes (scope_id, operation, key) unique"), "{why}");
        assert!(
            why.ends_with("; in 2 rows, 1 key is held by two rows or more, each a request that ran twice"),
            "{why}"
        );
    }
}

/// The statements of a fix that ends in SQL (after its last `: `), in order.
fn statements(fix: &str) -> Vec<&str> {
    let (_, sql) = fix.rsplit_once(": ").unwrap_or_else(|| panic!("no SQL in the fix: {fix}"));
    sql.split("; ").collect()
}

fn statuses_need_a_column_or_a_condition(db: &TestDb) {
    let (text, _, _, ts) = types(db);
    db.exec(&format!(
        "CREATE TABLE api_requests (user_id INTEGER NOT NULL, idempotency_key {text} NOT NULL, finished_at {ts} NULL,
            response_code INTEGER, response_body {text}, created_at {ts} NOT NULL, PRIMARY KEY (user_id, idempotency_key))"
    ));
    db.exec(&format!(
        "INSERT INTO api_requests VALUES (1, 'a', NULL, NULL, NULL, {old}), (1, 'b', {old}, 200, 'ok', {old})",
        old = ago(db, chrono::Duration::hours(1))
    ));
    let mapping = ["--table", "api_requests", "--scope-column", "user_id", "--key-column", "idempotency_key"];
    let out = doctor(db, &mapping);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let r = results(&out);
    assert_eq!(result(&r, "statuses"), "fail");
    assert_eq!(result(&r, "stuck"), "warn", "without statuses nothing is known to be in progress");
    assert_eq!(result(&r, "uniqueness"), "pass", "no operation column: (user_id, idempotency_key) is the whole key");
    assert_eq!(result(&r, "response"), "pass");
    let out = doctor(db, &[&mapping[..], &["--in-progress-when", "finished_at IS NULL"]].concat());
    let r = results(&out);
    assert_eq!(result(&r, "statuses"), "warn");
    assert_eq!(result(&r, "stuck"), "fail", "key a has been in progress for an hour");
    assert_eq!(out.code, 1);
    let out =
        doctor(db, &[&mapping[..], &["--in-progress-when", "finished_at IS NULL", "--max-duration", "2h"]].concat());
    assert_eq!(result(&results(&out), "stuck"), "pass");
    assert_eq!(out.code, 0, "warnings alone exit 0");
}

fn the_backlog_counts_keys_long_past_expiry(db: &TestDb) {
    reference(db);
    let key = db.ident("key");
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {key}, status, locked_at, created_at, expires_at) VALUES
           ('s3', 'op', 'old1', 'succeeded', {c}, {c}, {e2}), ('s3', 'op', 'old2', 'succeeded', {c}, {c}, {e3}),
           ('s3', 'op', 'recent', 'succeeded', {c}, {c}, {e1})",
        c = ago(db, chrono::Duration::days(5)),
        e1 = ago(db, chrono::Duration::hours(2)),
        e2 = ago(db, chrono::Duration::days(2)),
        e3 = ago(db, chrono::Duration::days(3)),
    ));
    let out = doctor(db, &[]);
    assert_eq!(out.code, 0, "a backlog warns: {}", out.stderr);
    let r = results(&out);
    assert_eq!(result(&r, "backlog"), "warn");
    assert!(reason(&r, "backlog").starts_with("2 keys expired more than 24h ago"), "{}", reason(&r, "backlog"));
    let r = results(&doctor(db, &["--backlog-grace", "2d 12h"]));
    assert!(reason(&r, "backlog").starts_with("1 keys expired more than 60h ago"), "{}", reason(&r, "backlog"));
    assert_eq!(result(&results(&doctor(db, &["--backlog-grace", "4d"])), "backlog"), "pass");
    // The expiry index gone, the check says so.
    db.exec(match db.engine {
        Engine::MySql => "DROP INDEX idempotency_keys_expires_at ON idempotency_keys",
        _ => "DROP INDEX idempotency_keys_expires_at",
    });
    let r = results(&doctor(db, &[]));
    assert_eq!(result(&r, "expiry_index"), "warn");
    assert!(reason(&r, "expiry_index").contains("no index starts with expires_at"));
}

/// Keys with a response code but no body, and no time column at all.
fn a_table_without_times(db: &TestDb) {
    let text = db.ty("text");
    let key = db.ident("key");
    db.exec(&format!(
        "CREATE TABLE bare_keys (scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL,
            status {text} NOT NULL, response_code INTEGER, PRIMARY KEY (scope_id, operation, {key}));
         INSERT INTO bare_keys VALUES ('s', 'op', 'k', 'in_progress', NULL)"
    ));
    let out = doctor(db, &["--table", "bare_keys"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let r = results(&out);
    assert_eq!(result(&r, "uniqueness"), "pass");
    assert_eq!(result(&r, "response"), "warn");
    assert!(reason(&r, "response").contains("no column stores the body"), "{}", reason(&r, "response"));
    assert_eq!(result(&r, "lock_time"), "fail");
    assert_eq!(result(&r, "expiry_index"), "warn");
    assert!(reason(&r, "expiry_index").starts_with("no expires_at or created_at column"));
    assert_eq!(result(&r, "backlog"), "warn");
    assert_eq!(result(&r, "stuck"), "warn", "no time to tell stuck keys by");
}

fn bad_input_exits_2(db: &TestDb) {
    reference(db);
    let out = doctor(db, &["--creation-table", "ordres"]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("no table \"ordres\"") && out.stderr.contains("did you mean \"orders\""),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty());
    let out = doctor(db, &["--fingerprint-column", "request_hsh"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("no column \"request_hsh\"") && out.stderr.contains("--fingerprint-column"),
        "{}",
        out.stderr
    );
}

/// A job table's states beside the mapped ones: a state nobody named is
/// outside the mapping (a warning that names it); named live or finished,
/// it is known, and the check passes naming it.
fn states_named_finished_or_live_are_known(db: &TestDb) {
    let text = db.ty("text");
    let ts = types(db).3;
    db.exec(&format!(
        "CREATE TABLE jobs (id {text} NOT NULL PRIMARY KEY, status {text} NOT NULL, created_at {ts} NOT NULL);
         INSERT INTO jobs VALUES ('a', 'queued', {t}), ('b', 'in_progress', {t}), ('c', 'succeeded', {t}),
           ('d', 'failed_permanent', {t}), ('e', 'cancelled', {t})",
        t = ago(db, chrono::Duration::minutes(1))
    ));
    let base = ["--table", "jobs", "--key-column", "id", "--kind", "jobs"];
    let r = results(&doctor(db, &base));
    assert_eq!(result(&r, "statuses"), "warn");
    assert!(reason(&r, "statuses").contains("outside the mapping"), "{}", reason(&r, "statuses"));
    assert!(reason(&r, "statuses").contains("\"cancelled\", \"queued\""), "{}", reason(&r, "statuses"));
    let named =
        [&base[..], &["--finished-value", "succeeded", "--finished-value", "cancelled", "--live-value", "queued"]]
            .concat();
    let r = results(&doctor(db, &named));
    assert_eq!(result(&r, "statuses"), "pass", "{}", reason(&r, "statuses"));
    assert_eq!(
        reason(&r, "statuses"),
        "status tells in_progress, succeeded, failed_retryable and failed_permanent apart, and the states named \
         finished or live (cancelled, queued)"
    );
}

on_every_engine!(
    states_named_finished_or_live_are_known,
    a_unique_constraint_retries_got_past_fails,
    the_reference_design_passes,
    a_weak_design_fails,
    uniqueness_must_cover_scope_operation_and_key,
    statuses_need_a_column_or_a_condition,
    the_backlog_counts_keys_long_past_expiry,
    a_table_without_times,
    bad_input_exits_2,
);

/// A unique constraint is judged by what it refuses in the data: scan's
/// extra rows got past one on a value each attempt mints, and past one
/// whose reference is NULL on the retried rows; the fix comes in steps,
/// and runs as printed once the extra rows are gone.
fn a_unique_constraint_retries_got_past_fails(db: &TestDb) {
    reference(db);
    let (pk, text, ts) = (db.ty("pk"), db.ty("text"), db.ty("ts"));
    db.exec(&format!(
        "CREATE TABLE payments (id {pk}, public_id {text} NOT NULL, customer_id {text} NOT NULL,
            client_ref {text}, amount INTEGER NOT NULL, created_at {ts});
         CREATE UNIQUE INDEX payments_public_id ON payments (public_id);
         CREATE UNIQUE INDEX payments_ref ON payments (customer_id, client_ref)"
    ));
    let at = |s: &str| db.ts(&format!("2026-01-01 10:00:{s}"));
    // Payments 2 and 5 are retries: a new public_id each, no client reference.
    db.exec(&format!(
        "INSERT INTO payments (id, public_id, customer_id, client_ref, amount, created_at) VALUES
           (1, 'pay_a1x9', 'c1', NULL, 500, {t0}), (2, 'pay_q7m2', 'c1', NULL, 500, {t1}),
           (3, 'pay_z3k8', 'c2', 'r-1', 700, {t2}), (4, 'pay_w8d4', 'c3', NULL, 900, {t3}),
           (5, 'pay_h2c6', 'c3', NULL, 900, {t4}), (6, 'pay_u5n1', 'c4', 'r-2', 300, {t5})",
        t0 = at("00"),
        t1 = at("00.300"),
        t2 = at("10"),
        t3 = at("20"),
        t4 = at("21"),
        t5 = at("40"),
    ));
    let out = doctor(db, &["--creation-table", "payments"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let check = doc["checks"].as_array().unwrap().iter().find(|c| c["check"] == "creation:payments").unwrap().clone();
    assert_eq!(check["result"], "fail", "{check}");
    let reason = check["reason"].as_str().unwrap();
    assert!(reason.starts_with("unique (public_id) would have refused 0 of the 2 extra rows scan finds: "), "{reason}");
    assert!(reason.contains("public_id is minted per attempt"), "{reason}");
    let fix = check["fix"].as_str().unwrap();
    assert!(
        fix.starts_with("first remove the 2 extra rows scan lists (idemctl scan --table payments --output rows)"),
        "{fix}"
    );
    // client_ref is NULL on both retries: a constraint on it would have
    // refused neither, so the fix adds the reference the client sends.
    assert!(fix.contains("then add a column for the reference the client sends with each request"), "{fix}");
    // At a terminal 100 columns wide the statement is never wrapped in the
    // table: it follows the table whole, on a line of its own.
    let mut cmd = db.idemctl(&["doctor", "--creation-table", "payments"]);
    cmd.env("COLUMNS", "100");
    let table = run(cmd);
    let sql = fix.split_once(": ").unwrap().1;
    assert!(table.stdout.lines().any(|l| l == format!("{sql};")), "{sql}\n{}", table.stdout);
    let words: Vec<&str> = table.stdout.split_whitespace().collect();
    assert!(words.join(" ").contains("(the SQL is below)"), "{}", table.stdout);
    // Run as printed once the damage is gone, the constraint builds.
    db.exec("DELETE FROM payments WHERE id IN (2, 5)");
    db.exec(sql);
    // The reference design's table, with a retry whose client reference is
    // NULL, passes no more.
    db.exec(&format!(
        "DROP TABLE payments;
         CREATE TABLE payments (id {pk}, customer_id {text} NOT NULL, client_ref {text}, amount INTEGER NOT NULL,
            created_at {ts});
         CREATE UNIQUE INDEX payments_ref ON payments (customer_id, client_ref);
         INSERT INTO payments (id, customer_id, client_ref, amount, created_at) VALUES
           (1, 'c1', NULL, 500, {t0}), (2, 'c1', NULL, 500, {t1}), (3, 'c2', 'r-1', 700, {t2})",
        t0 = at("00"),
        t1 = at("00.300"),
        t2 = at("10"),
    ));
    let out = doctor(db, &["--creation-table", "payments"]);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let check = doc["checks"].as_array().unwrap().iter().find(|c| c["check"] == "creation:payments").unwrap().clone();
    assert_eq!(check["result"], "fail", "{check}");
    assert_eq!(
        check["reason"],
        "unique (customer_id, client_ref) would have refused 0 of the 1 extra rows scan finds: client_ref is NULL on \
         2 of 3 rows (a unique index lets NULLs repeat)"
    );
}
