//! `idemctl reap` against real PostgreSQL, MariaDB/MySQL and SQLite.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::{Engine, Run, TestDb, csv_records, key_table, run};

/// Every row of the key table as text, in key order: the table's whole content.
fn snapshot(db: &TestDb) -> Vec<Option<String>> {
    let key = db.ident("key");
    let cast = |c: &str| match db.engine {
        Engine::MySql => format!("COALESCE(CAST({c} AS CHAR), 'NULL')"),
        _ => format!("COALESCE(CAST({c} AS TEXT), 'NULL')"),
    };
    let cols = [
        "scope_id",
        "operation",
        &key,
        "status",
        "response_code",
        "response_body",
        "locked_at",
        "created_at",
        "expires_at",
    ];
    let joined = cols.iter().map(|c| cast(c)).collect::<Vec<_>>();
    let row = match db.engine {
        Engine::MySql => format!("CONCAT_WS('|', {})", joined.join(", ")),
        _ => joined.join(" || '|' || "),
    };
    db.column(&format!("SELECT {row} FROM idempotency_keys ORDER BY {key}"))
}

fn status_of(db: &TestDb, key: &str) -> String {
    db.column(&format!("SELECT status FROM idempotency_keys WHERE {} = '{key}'", db.ident("key")))[0].clone().unwrap()
}

/// (key, outcome) per line of CSV output.
fn outcomes(out: &Run) -> Vec<(String, String)> {
    let records = csv_records(&out.stdout);
    if records.is_empty() {
        return Vec::new();
    }
    assert_eq!(records[0], ["scope", "operation", "key", "locked_at", "age_seconds", "outcome"]);
    records[1..].iter().map(|r| (r[2].clone(), r[5].clone())).collect()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

const PAYMENTS_30S: [&str; 2] = ["--max-duration", "POST /v1/payments=30s"];

fn reap(db: &TestDb, extra: &[&str]) -> Run {
    let mut args = vec!["reap", "--format", "csv"];
    args.extend_from_slice(extra);
    run(db.idemctl(&args))
}

fn release_then_a_retry_takes_over(db: &TestDb) {
    key_table(db);
    let out = reap(db, &PAYMENTS_30S);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "released"), ("k-ord-6m", "released"), ("k-pay-old", "released")]));
    for (key, status) in [
        ("k-nolock", "failed_retryable"),
        ("k-ord-6m", "failed_retryable"),
        ("k-pay-old", "failed_retryable"),
        ("k-pay-new", "in_progress"),
        ("k-ord-4m", "in_progress"),
        ("k-done", "succeeded"),
    ] {
        assert_eq!(status_of(db, key), status, "{key}");
    }
    // The retry claims the released key the way a server does: compare-and-set.
    db.exec(&format!(
        "UPDATE idempotency_keys SET status = 'in_progress', locked_at = {} WHERE {} = 'k-pay-old' AND status = 'failed_retryable'",
        common::ago(db, chrono::Duration::zero()),
        db.ident("key")
    ));
    assert_eq!(status_of(db, "k-pay-old"), "in_progress");
    let again = reap(db, &PAYMENTS_30S);
    assert_eq!(again.code, 0);
    assert_eq!(outcomes(&again), Vec::<(String, String)>::new(), "the retry holds the key now");
}

fn fail_stores_the_error(db: &TestDb) {
    key_table(db);
    let out = reap(db, &["--action", "fail", "--fail-code", "503"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "failed"), ("k-ord-6m", "failed")]));
    let row = db.column(&format!(
        "SELECT status FROM idempotency_keys WHERE {} = 'k-ord-6m' AND response_code = 503",
        db.ident("key")
    ));
    assert_eq!(row, [Some("failed_permanent".to_string())]);
    let body_text = if db.engine == Engine::Postgres { "response_body::text" } else { "response_body" };
    let body = db.column(&format!("SELECT {body_text} FROM idempotency_keys WHERE {} = 'k-ord-6m'", db.ident("key")));
    assert!(body[0].as_deref().unwrap().contains("abandoned"), "{body:?}");
}

fn verify_sql_keeps_a_key_whose_effect_exists(db: &TestDb) {
    key_table(db);
    db.exec(&format!(
        "CREATE TABLE payments (id INTEGER PRIMARY KEY, idempotency_key {t}); INSERT INTO payments VALUES (1, 'k-ord-6m')",
        t = db.ty("text")
    ));
    let out = reap(db, &["--verify-sql", "SELECT 1 FROM payments WHERE idempotency_key = :key"]);
    assert_eq!(out.code, 1, "a key needing review exits 1: {}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "released"), ("k-ord-6m", "needs-review")]));
    assert_eq!(status_of(db, "k-ord-6m"), "in_progress", "never released: that would repeat the payment");
}

fn dry_run_changes_nothing(db: &TestDb) {
    key_table(db);
    let before = snapshot(db);
    let out = reap(db, &["--dry-run", "--action", "fail"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "would-fail"), ("k-ord-6m", "would-fail")]));
    assert!(out.stderr.contains("UPDATE") && out.stderr.contains("SET"), "the SQL is shown: {}", out.stderr);
    assert_eq!(snapshot(db), before);
}

/// Starts a reap that stops before changing batch 1 (and 2, ...), until told to go on.
fn paused_reap(db: &TestDb, pause: &Path, extra: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("idemctl"))
        .args(["reap", "--format", "csv", "--database-url", &db.url])
        .args(extra)
        .env("IDEMCTL_TEST_PAUSE_BEFORE_BATCH", pause)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn a_key_finished_meanwhile_is_left_alone(db: &TestDb) {
    key_table(db);
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    let p = pause.to_str().unwrap();
    let child = paused_reap(db, &pause, &[]);
    // The reaper has read its keys; the request holding k-ord-6m finishes now.
    common::wait_for(&format!("{p}.waiting.1"));
    db.exec(&format!("UPDATE idempotency_keys SET status = 'succeeded' WHERE {} = 'k-ord-6m'", db.ident("key")));
    std::fs::write(format!("{p}.1"), b"").unwrap();
    let out = common::finish(child);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "released"), ("k-ord-6m", "skipped-changed")]));
    assert_eq!(status_of(db, "k-ord-6m"), "succeeded");
}

fn a_second_reaper_exits_3(db: &TestDb) {
    key_table(db);
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    let p = pause.to_str().unwrap();
    let first = paused_reap(db, &pause, &[]);
    common::wait_for(&format!("{p}.waiting.1"));
    let before = snapshot(db);
    let second = reap(db, &[]);
    assert_eq!(second.code, 3, "{}", second.stderr);
    assert_eq!(second.stderr, "idemctl: another run holds the lock on idempotency_keys\n");
    assert_eq!(snapshot(db), before, "the second run changed nothing");
    std::fs::write(format!("{p}.1"), b"").unwrap();
    assert_eq!(common::finish(first).code, 0);
    // Once the first is done, the lock is free again.
    assert_eq!(reap(db, &[]).code, 0);
}

fn killed_midway_then_rerun_processes_each_key_once(db: &TestDb) {
    key_table(db);
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    let p = pause.to_str().unwrap();
    std::fs::write(format!("{p}.1"), b"").unwrap();
    let mut first = paused_reap(db, &pause, &["--batch-size", "1", "--max-duration", "POST /v1/payments=30s"]);
    // Batch 1 is committed and written out; kill the run before batch 2.
    common::wait_for(&format!("{p}.waiting.2"));
    first.kill().unwrap();
    let first = common::finish(first);
    let second = reap(db, &["--max-duration", "POST /v1/payments=30s"]);
    assert_eq!(second.code, 0, "{}", second.stderr);
    let mut all = outcomes(&first);
    assert_eq!(all, pairs(&[("k-nolock", "released")]), "batch 1 reached the log before the kill");
    all.extend(outcomes(&second));
    all.sort();
    assert_eq!(all, pairs(&[("k-nolock", "released"), ("k-ord-6m", "released"), ("k-pay-old", "released")]));
    assert_eq!(status_of(db, "k-done"), "succeeded");
    assert_eq!(status_of(db, "k-pay-new"), "in_progress");
}

fn a_table_without_status_and_epoch_seconds(db: &TestDb) {
    let now = common::api_keys(db);
    let mapping = common::API_KEYS_MAPPING;
    let out = reap(db, &mapping);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("a", "released")]), "d holds no lock");
    assert_eq!(db.column("SELECT locked_at FROM api_keys WHERE idempotency_key = 'a'"), [None], "released is unlocked");
    assert_eq!(
        db.column("SELECT locked_at FROM api_keys WHERE idempotency_key = 'b'"),
        [Some((now - 600).to_string())]
    );
    let mut fail = mapping.to_vec();
    fail.extend(["--action", "fail"]);
    let out = reap(db, &fail);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("--action fail needs a status column"), "{}", out.stderr);
}

on_every_engine!(
    sigterm_ends_after_the_current_batch,
    release_then_a_retry_takes_over,
    fail_stores_the_error,
    verify_sql_keeps_a_key_whose_effect_exists,
    dry_run_changes_nothing,
    a_key_finished_meanwhile_is_left_alone,
    a_second_reaper_exits_3,
    killed_midway_then_rerun_processes_each_key_once,
    a_table_without_status_and_epoch_seconds,
);

/// SIGTERM ends the run after the batch in progress, with the summary, exit 130.
fn sigterm_ends_after_the_current_batch(db: &TestDb) {
    key_table(db);
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    let p = pause.to_str().unwrap();
    std::fs::write(format!("{p}.1"), b"").unwrap();
    let child = paused_reap(db, &pause, &["--batch-size", "1", "--max-duration", "POST /v1/payments=30s"]);
    common::wait_for(&format!("{p}.waiting.2"));
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    std::thread::sleep(Duration::from_millis(200));
    std::fs::write(format!("{p}.2"), b"").unwrap();
    let out = common::finish(child);
    assert_eq!(out.code, 130, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "released"), ("k-ord-6m", "released")]), "batch 2 was under way");
    assert!(out.stderr.contains("outcomes: released 2") && out.stderr.contains("interrupted"), "{}", out.stderr);
    assert_eq!(status_of(db, "k-pay-old"), "in_progress", "batch 3 never started");
}

/// A key a live transaction holds is skipped, not waited for.
fn hold_key_then_reap(db: &TestDb) {
    use sqlx::{AssertSqlSafe, Connection};
    key_table(db);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // By the whole primary key: InnoDB locks every row a scan passes.
    let lock = format!(
        "SELECT 1 FROM idempotency_keys WHERE scope_id = 's2' AND operation = 'POST /v1/orders' AND {} = 'k-ord-6m' FOR UPDATE",
        db.ident("key")
    );
    let out = match db.engine {
        Engine::Postgres => rt.block_on(async {
            let mut c = sqlx::PgConnection::connect(&db.url).await.unwrap();
            let mut tx = c.begin().await.unwrap();
            sqlx::query(AssertSqlSafe(lock)).execute(&mut *tx).await.unwrap();
            let out = reap(db, &[]);
            tx.rollback().await.unwrap();
            out
        }),
        Engine::MySql => rt.block_on(async {
            let mut c = sqlx::MySqlConnection::connect(&db.url).await.unwrap();
            let mut tx = c.begin().await.unwrap();
            sqlx::query(AssertSqlSafe(lock)).execute(&mut *tx).await.unwrap();
            let out = reap(db, &[]);
            tx.rollback().await.unwrap();
            out
        }),
        Engine::Sqlite => return,
    };
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "released"), ("k-ord-6m", "skipped-locked")]));
    assert_eq!(status_of(db, "k-ord-6m"), "in_progress");
}

#[test]
fn postgres_skips_keys_held_by_live_transactions() {
    if let Some(db) = TestDb::new(Engine::Postgres) {
        hold_key_then_reap(&db);
    }
}

#[test]
fn mysql_skips_keys_held_by_live_transactions() {
    if let Some(db) = TestDb::new(Engine::MySql) {
        hold_key_then_reap(&db);
    }
}
