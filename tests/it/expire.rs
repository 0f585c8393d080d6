//! `idemctl expire` against real PostgreSQL, MariaDB/MySQL and SQLite.

use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::common::{Engine, Run, TestDb, run};

const NOW: &str = "2026-06-01T12:00:00Z";

/// Keys around a fixed now: e1 expired two days ago, e2 expires exactly now,
/// e3 expired a second ago, e4 expires in an hour, e5 expired but in progress.
fn keys(db: &TestDb) {
    let (text, ts) = (db.ty("text"), db.ty("time"));
    let key = db.ident("key");
    db.exec(&format!(
        "CREATE TABLE idempotency_keys (scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL,
            status {text} NOT NULL, created_at {ts} NOT NULL, expires_at {ts} NOT NULL, PRIMARY KEY (scope_id, operation, {key}));
         INSERT INTO idempotency_keys VALUES
           ('s', 'op', 'e1', 'succeeded', {c}, {t1}), ('s', 'op', 'e2', 'succeeded', {c}, {t2}),
           ('s', 'op', 'e3', 'failed_permanent', {c}, {t3}), ('s', 'op', 'e4', 'succeeded', {c}, {t4}),
           ('s', 'op', 'e5', 'in_progress', {c}, {t1})",
        c = db.ts("2026-05-20 12:00:00"),
        t1 = db.ts("2026-05-30 12:00:00"),
        t2 = db.ts("2026-06-01 12:00:00"),
        t3 = db.ts("2026-06-01 11:59:59"),
        t4 = db.ts("2026-06-01 13:00:00"),
    ));
}

fn remaining(db: &TestDb) -> Vec<String> {
    let key = db.ident("key");
    db.column(&format!("SELECT {key} FROM idempotency_keys ORDER BY {key}")).into_iter().flatten().collect()
}

fn expire(db: &TestDb, extra: &[&str]) -> Run {
    let mut args = vec!["expire", "--format", "json"];
    args.extend_from_slice(extra);
    let mut cmd = db.idemctl(&args);
    cmd.env("IDEMCTL_TEST_NOW", NOW);
    run(cmd)
}

fn summary(out: &Run) -> serde_json::Value {
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout));
    doc["runs"][0].clone()
}

fn deletes_exactly_the_expired_rows(db: &TestDb) {
    keys(db);
    let out = expire(db, &["--batch-size", "1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(remaining(db), ["e2", "e4", "e5"], "a row exactly at the horizon stays; in progress stays");
    let s = summary(&out);
    assert_eq!(s["rows_deleted"], 2);
    if db.engine != Engine::Postgres {
        // Key order, a batch a row; PostgreSQL walks heap pages instead.
        assert_eq!(s["batches"], 3);
    }
    assert_eq!(s["expired_before"], NOW);
    let again = expire(db, &["--include-in-progress"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(remaining(db), ["e2", "e4"]);
}

fn a_short_horizon_is_refused(db: &TestDb) {
    keys(db);
    let out = expire(db, &["--older-than", "12h"]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("under 24h") && out.stderr.contains("--allow-short-retention"), "{}", out.stderr);
    assert_eq!(remaining(db), ["e1", "e2", "e3", "e4", "e5"]);
    // Created 12 days before now: gone at 7d, kept at 30d.
    assert_eq!(expire(db, &["--older-than", "30d"]).code, 0);
    assert_eq!(remaining(db).len(), 5);
    let out = expire(db, &["--older-than", "7d"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(remaining(db), ["e5"]);
}

fn dry_run_deletes_nothing(db: &TestDb) {
    keys(db);
    let (out, _, real) = crate::common::expire_dry_then_real(db, &[], &[("IDEMCTL_TEST_NOW", NOW)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(remaining(&real), ["e2", "e4", "e5"], "the real run on a copy deleted what the dry run counted");
    assert_eq!(summary(&out)["rows_matching"], 2);
    assert_eq!(summary(&out)["rows_deleted"], 0);
    assert!(!out.stderr.contains("DELETE FROM"), "the SQL only with --show-sql: {}", out.stderr);
    assert!(out.stderr.contains("dry run: nothing is deleted (--show-sql for the statement"), "{}", out.stderr);
    let shown = crate::common::run(db.idemctl(&["expire", "--older-than", "7d", "--dry-run", "--show-sql"]));
    assert!(shown.stderr.contains("DELETE FROM"), "the SQL is shown: {}", shown.stderr);
    // Laid out, a clause a line, as the engine's grammar reads it.
    let lines: Vec<&str> = shown.stderr.lines().collect();
    assert!(lines.contains(&"  DELETE FROM") && lines.contains(&"  WHERE"), "{}", shown.stderr);
    assert!(
        out.stderr.contains(
            "batches start at 1,000 rows and adapt to take about 100ms each (--batch-time), 5,000 rows at most"
        ),
        "the pacing is said: {}",
        out.stderr
    );
    assert_eq!(remaining(db).len(), 5);
}

/// An events-seen table: 60 old events (ids 1..=60), 20 recent (61..=80);
/// rows wide enough that PostgreSQL's batches (by heap pages) are several.
fn events(db: &TestDb) {
    let payload = if db.engine == Engine::MySql { "TEXT" } else { db.ty("text") };
    db.exec(&format!(
        "CREATE TABLE webhook_events (id {}, event_id {}, payload {payload}, received_at {})",
        db.ty("pk"),
        db.ty("text"),
        db.ty("ts")
    ));
    let body = "x".repeat(500);
    let rows: Vec<String> = (1..=80)
        .map(|i| {
            let at = if i <= 60 { "2026-05-01 00:00:00" } else { "2026-05-31 00:00:00" };
            format!("({i}, 'evt_{i}', '{body}', {})", db.ts(at))
        })
        .collect();
    db.exec(&format!("INSERT INTO webhook_events (id, event_id, payload, received_at) VALUES {}", rows.join(", ")));
}

fn event_ids(db: &TestDb) -> Vec<i64> {
    db.column("SELECT id FROM webhook_events ORDER BY id").into_iter().flatten().map(|v| v.parse().unwrap()).collect()
}

const EVENTS: [&str; 6] = ["--table", "webhook_events", "--created-at-column", "received_at", "--older-than", "7d"];

fn paused(db: &TestDb, pause: &Path, extra: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("idemctl"))
        .args(["expire", "--format", "json", "--database-url", &db.url])
        .args(EVENTS)
        .args(extra)
        .env("IDEMCTL_TEST_NOW", NOW)
        .env("IDEMCTL_TEST_PAUSE_BEFORE_BATCH", pause)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn any_table_killed_midway_then_rerun(db: &TestDb) {
    events(db);
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    let p = pause.to_str().unwrap();
    for n in 1..=2 {
        std::fs::write(format!("{p}.{n}"), b"").unwrap();
    }
    let mut first = paused(db, &pause, &["--batch-size", "10"]);
    if !crate::common::wait_until(&format!("{p}.waiting.3")) {
        first.kill().unwrap();
        let out = first.wait_with_output().unwrap();
        panic!("no third batch: {} {}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    }
    // Between batches no transaction is open: writers go straight through.
    db.exec(&format!(
        "INSERT INTO webhook_events (id, event_id, received_at) VALUES (81, 'evt_81', {})",
        db.ts("2026-06-01 11:00:00")
    ));
    let left = event_ids(db);
    assert!(left.ends_with(&(61..=81).collect::<Vec<i64>>()), "live rows untouched: {left:?}");
    if db.engine != Engine::Postgres {
        assert_eq!(left, (21..=81).collect::<Vec<i64>>(), "two batches of ten went");
    }
    first.kill().unwrap();
    let _ = first.wait();
    let mut rerun = db.idemctl(&[&["expire"][..], &EVENTS].concat());
    rerun.env("IDEMCTL_TEST_NOW", NOW);
    let out = run(rerun);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(event_ids(db), (61..=81).collect::<Vec<i64>>(), "every old event gone, every recent one kept");
}

fn an_overlapping_run_exits_3(db: &TestDb) {
    events(db);
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    let p = pause.to_str().unwrap();
    let first = paused(db, &pause, &[]);
    crate::common::wait_for(&format!("{p}.waiting.1"));
    let mut second = db.idemctl(&[&["expire"][..], &EVENTS].concat());
    second.env("IDEMCTL_TEST_NOW", NOW);
    let out = run(second);
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert_eq!(out.stderr, "idemctl: another run holds the lock on webhook_events\n");
    assert_eq!(event_ids(db).len(), 80);
    std::fs::write(format!("{p}.1"), b"").unwrap();
    let out = first.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(event_ids(db), (61..=80).collect::<Vec<i64>>());
}

/// Keys past the horizon in every kind of status (j1 to j8), and one
/// finished key within it (j9): only a finished status goes.
fn statuses(db: &TestDb) {
    let (text, ts) = (db.ty("text"), db.ty("time"));
    let key = db.ident("key");
    let old = db.ts("2026-05-20 12:00:00");
    let rows: Vec<String> = [
        ("j1", "'succeeded'"),
        ("j2", "'failed_retryable'"),
        ("j3", "'failed_permanent'"),
        ("j4", "'pending'"),
        ("j5", "'pending'"),
        ("j6", "'archived'"),
        ("j7", "'in_progress'"),
        ("j8", "NULL"),
    ]
    .iter()
    .map(|(k, status)| format!("('{k}', {status}, {old})"))
    .chain([format!("('j9', 'succeeded', {})", db.ts("2026-06-01 11:00:00"))])
    .collect();
    db.exec(&format!(
        "CREATE TABLE idempotency_keys ({key} {text} NOT NULL PRIMARY KEY, status {text}, created_at {ts} NOT NULL);
         INSERT INTO idempotency_keys VALUES {}",
        rows.join(", ")
    ));
}

/// A key or job past the horizon goes only in a status it finishes in: on
/// HTTP keys succeeded, failed for good and retryable (the client retries);
/// on jobs a retryable one is work its rescuer still does. A status neither
/// finished nor live stays, is named, and the run exits 1; a live one
/// stays and the run exits 0. The dry run counts what the run deletes.
fn only_a_finished_status_is_expired(db: &TestDb) {
    statuses(db);
    let horizon = ["--older-than", "24h"];
    let out = expire(db, &[&horizon[..], &["--dry-run"]].concat());
    assert_eq!(summary(&out)["rows_matching"], 3, "{}", out.stderr);
    assert!(!out.stderr.contains("check the spelling"), "{}", out.stderr);
    // A state named that no row holds: said, and nothing more matches.
    let typo = expire(db, &[&horizon[..], &["--dry-run", "--finished-value", "archivd"]].concat());
    assert_eq!(summary(&typo)["rows_matching"], 3, "{}", typo.stderr);
    assert!(
        typo.stderr.contains(
            "note: no row of idempotency_keys (the first 100,000 read) holds status archivd: check the spelling\n"
        ),
        "{}",
        typo.stderr
    );
    assert_eq!(remaining(db).len(), 9);
    let out = expire(db, &horizon);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(remaining(db), ["j4", "j5", "j6", "j7", "j8", "j9"]);
    let s = summary(&out);
    assert_eq!(s["rows_deleted"], 3);
    assert_eq!(s["kept_unknown"], serde_json::json!({"(no status)": 1, "archived": 1, "pending": 2}));
    assert_eq!(s["kept_live"], serde_json::json!({}));
    assert!(
        out.stderr.contains(
            "kept: 4 rows past the horizon in a status neither finished nor live (pending 2, (no status) 1, \
             archived 1): expire deletes only succeeded, failed_permanent, failed_retryable; name the others with \
             --finished-value or --live-value; a row with no status (NULL) stays whatever is named: look at it by \
             hand"
        ),
        "{}",
        out.stderr
    );

    // Jobs: the statuses named; a retryable job is live.
    let key = db.ident("key");
    db.exec(&format!(
        "DELETE FROM idempotency_keys WHERE {key} = 'j8';
         INSERT INTO idempotency_keys VALUES ('j10', 'failed_retryable', {})",
        db.ts("2026-05-20 12:00:00")
    ));
    let jobs = [&horizon[..], &["--kind", "jobs", "--finished-value", "archived", "--live-value", "pending"]].concat();
    let dry = expire(db, &[&jobs[..], &["--dry-run"]].concat());
    assert_eq!(summary(&dry)["rows_matching"], 1, "{}", dry.stderr);
    let quiet = expire(db, &[&jobs[..], &["--dry-run", "--quiet"]].concat());
    assert!(!quiet.stderr.contains("kept:"), "{}", quiet.stderr);
    let out = expire(db, &jobs);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(remaining(db), ["j10", "j4", "j5", "j7", "j9"]);
    let s = summary(&out);
    assert_eq!(s["rows_deleted"], 1);
    assert_eq!(s["kept_live"], serde_json::json!({"failed_retryable": 1, "pending": 2}));
    assert_eq!(s["kept_unknown"], serde_json::json!({}));
    assert!(
        out.stderr.contains(
            "kept: 3 rows past the horizon in a live status (pending 2, failed_retryable 1): work still to happen \
             is never expired"
        ),
        "{}",
        out.stderr
    );

    // A status both finished and live, or the in-progress one finished: refused.
    for bad in [&["--finished-value", "pending", "--live-value", "pending"][..], &["--finished-value", "in_progress"]] {
        let out = expire(db, &[&horizon[..], bad].concat());
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    }
    assert_eq!(remaining(db).len(), 5);
}

/// A job table aged by when a job was published and purged by when it
/// finished: the two clocks in one mapping (a config file), stuck ageing by
/// the first and expire purging by the second. A job published three days
/// ago and finished an hour ago stays; one finished two days ago goes; a
/// job never finished (no finish time) stays, and stuck sees it by its age.
fn two_clocks_in_one_mapping(db: &TestDb) {
    let (text, ts) = (db.ty("text"), db.ty("time"));
    db.exec(&format!(
        "CREATE TABLE jobs (id {text} PRIMARY KEY, status {text} NOT NULL, created_at {ts} NOT NULL, finished_at {ts})"
    ));
    db.exec(&format!(
        "INSERT INTO jobs VALUES
         ('old-done-late', 'succeeded', {d3}, {h1}), ('old-done-early', 'succeeded', {d3}, {d2}),
         ('old-running', 'in_progress', {d3}, NULL), ('new-done', 'succeeded', {h2}, {h1})",
        d3 = db.ts("2026-05-29 12:00:00"),
        d2 = db.ts("2026-05-30 12:00:00"),
        h2 = db.ts("2026-06-01 10:00:00"),
        h1 = db.ts("2026-06-01 11:00:00"),
    ));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idemctl.toml");
    std::fs::write(&path, "[key_table]\ntable = \"jobs\"\nkey_column = \"id\"\npurge_by_column = \"finished_at\"\n")
        .unwrap();
    let config = path.to_str().unwrap();
    let mut stuck = db.idemctl(&["stuck", "--config", config, "--format", "csv"]);
    stuck.env("IDEMCTL_TEST_NOW", NOW);
    let stuck = run(stuck);
    assert_eq!(stuck.code, 1, "{}", stuck.stderr);
    assert!(stuck.stdout.contains("old-running"), "aged from its publication: {}", stuck.stdout);
    let out = expire(db, &["--config", config, "--older-than", "24h"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let left = db.column("SELECT id FROM jobs ORDER BY id");
    let left: Vec<&str> = left.iter().flatten().map(String::as_str).collect();
    assert_eq!(left, ["new-done", "old-done-late", "old-running"]);
    assert_eq!(summary(&out)["rows_deleted"], 1);
    // Without it the horizon counts from the publication: the job finished
    // an hour ago would go too.
    let plain = expire(db, &["--table", "jobs", "--key-column", "id", "--older-than", "24h", "--dry-run"]);
    assert_eq!(summary(&plain)["rows_matching"], 1, "{}", plain.stderr);
    // A column the table lacks is named with its flag.
    let bad = expire(db, &["--table", "jobs", "--purge-by-column", "done_at", "--older-than", "24h"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("done_at") && bad.stderr.contains("--purge-by-column"), "{}", bad.stderr);
}

/// Delayed::Job's table, whose state is which columns are set: running
/// while `locked_at` is set and `failed_at` is not, failed once `failed_at`
/// is set (a job that succeeds is deleted by the library), pending while
/// neither is. Said with the columns, no SQL: stuck sees the running job,
/// expire deletes only the failed ones however old the pending one is.
fn states_by_the_columns_set(db: &TestDb) {
    use chrono::Duration as D;
    let (text, ts) = (db.ty("text"), db.ty("time"));
    db.exec(&format!(
        "CREATE TABLE delayed_jobs (id {text} PRIMARY KEY, attempts INTEGER NOT NULL, handler {text} NOT NULL,
            run_at {ts}, locked_at {ts}, failed_at {ts}, locked_by {text}, created_at {ts} NOT NULL)"
    ));
    let ago = |d: D| crate::common::ago(db, d);
    let rows = [
        ("run-old", Some(D::hours(2)), None),
        ("run-spent", Some(D::hours(2)), None),
        ("run-new", Some(D::minutes(1)), None),
        ("failed-old", None, Some(D::days(2))),
        ("failed-locked", Some(D::days(2)), Some(D::days(2))),
        ("pending-old", None, None),
    ];
    let values: Vec<String> = rows
        .iter()
        .map(|(id, locked, failed)| {
            let at = |d: &Option<D>| d.map_or("NULL".to_string(), &ago);
            let attempts = if *id == "run-spent" { 25 } else { 1 };
            let (run_at, created) = (ago(D::days(3)), ago(D::days(3)));
            format!("('{id}', {attempts}, 'h', {run_at}, {}, {}, NULL, {created})", at(locked), at(failed))
        })
        .collect();
    db.exec(&format!("INSERT INTO delayed_jobs VALUES {}", values.join(", ")));
    let mapping = ["--table", "delayed_jobs", "--key-column", "id", "--in-progress-if-set", "locked_at"];
    let finished = ["--finished-if-set", "failed_at"];
    let idemctl = |extra: &[&str]| run(db.idemctl(extra));
    let stuck = idemctl(&[&["stuck", "--format", "csv"][..], &mapping, &finished].concat());
    assert_eq!(stuck.code, 1, "{}", stuck.stderr);
    let listed: Vec<String> = crate::common::csv_records(&stuck.stdout)[1..].iter().map(|r| r[2].clone()).collect();
    assert_eq!(listed, ["run-old", "run-spent"], "a failed job holding its lock is not running");
    // doctor says how this design tells its states.
    let doctor = idemctl(&["doctor", "--format", "json", "--design", "delayed-job"]);
    let doc: serde_json::Value =
        serde_json::from_str(&doctor.stdout).unwrap_or_else(|e| panic!("{e}: {}", doctor.stderr));
    let statuses = doc["checks"].as_array().unwrap().iter().find(|c| c["check"] == "statuses").unwrap().clone();
    assert_eq!(statuses["result"], "warn");
    assert_eq!(
        statuses["reason"],
        "jobs' states are told by which columns are set: finished once failed_at is set; idemctl cannot check from \
         the columns that a failure to be retried leaves it unset"
    );
    // The same, by the design's name in the catalog.
    let named = idemctl(&["stuck", "--format", "csv", "--design", "delayed-job"]);
    assert_eq!(named.code, 1, "{}", named.stderr);
    let by_name: Vec<String> = crate::common::csv_records(&named.stdout)[1..].iter().map(|r| r[2].clone()).collect();
    assert_eq!(by_name, listed);
    let expire =
        |extra: &[&str]| idemctl(&[&["expire", "--format", "json", "--older-than", "24h"][..], extra].concat());
    // Without the finished state, every row past the horizon not in progress
    // would go, the pending job too (and the failed job holding its lock
    // would be taken as running).
    let plain = expire(&[&mapping[..], &["--dry-run"]].concat());
    assert_eq!(summary(&plain)["rows_matching"], 2, "{}", plain.stderr);
    let pending = format!("SELECT count(*) FROM delayed_jobs WHERE {} IS NULL", "locked_at");
    assert_eq!(db.ids(&pending)[0], 2, "the pending job and the failed one are the two");
    // reap as the library's own worker does: a job out of attempts fails
    // (its failure time set), the other is unlocked to run again.
    let attempts = ["--attempts-column", "attempts", "--max-attempts", "25", "--fail-set", "failed_at=now()"];
    let reap = idemctl(&[&["reap", "--format", "csv"][..], &mapping, &finished, &attempts].concat());
    assert_eq!(reap.code, 0, "{}", reap.stderr);
    let outcomes: Vec<(String, String)> =
        crate::common::csv_records(&reap.stdout)[1..].iter().map(|r| (r[2].clone(), r[6].clone())).collect();
    assert_eq!(
        outcomes,
        [("run-old".into(), "released".into()), ("run-spent".into(), "failed".into())],
        "{}",
        reap.stdout
    );
    let ids = |condition: &str| {
        let ids = db.column(&format!("SELECT id FROM delayed_jobs WHERE id LIKE 'run-%' AND {condition} ORDER BY id"));
        ids.into_iter().flatten().collect::<Vec<String>>()
    };
    assert_eq!(ids("locked_at IS NULL"), ["run-old"], "unlocked to run again");
    assert_eq!(ids("failed_at IS NOT NULL"), ["run-spent"], "failed, as its worker fails a job out of attempts");
    let out = expire(&[&mapping[..], &finished].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(summary(&out)["rows_deleted"], 3);
    let left = db.column("SELECT id FROM delayed_jobs ORDER BY id");
    let left: Vec<&str> = left.iter().flatten().map(String::as_str).collect();
    assert_eq!(left, ["pending-old", "run-new", "run-old"]);
    // A column the table lacks is named with its flag; SQL and columns both, refused.
    let bad = expire(&[&mapping[..], &["--finished-if-set", "done_at"]].concat());
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("done_at") && bad.stderr.contains("--finished-if-set"), "{}", bad.stderr);
    let both = expire(&[&mapping[..], &["--in-progress-when", "locked_by IS NOT NULL"]].concat());
    assert_eq!(both.code, 2);
    assert_eq!(
        both.stderr.trim(),
        "idemctl: --in-progress-when and --in-progress-if-set both say which keys are in progress: give one"
    );
}

on_every_engine!(
    only_a_finished_status_is_expired,
    mappings_that_delete_everything_are_refused,
    deletes_exactly_the_expired_rows,
    a_short_horizon_is_refused,
    dry_run_deletes_nothing,
    any_table_killed_midway_then_rerun,
    an_overlapping_run_exits_3,
    two_clocks_in_one_mapping,
    states_by_the_columns_set,
);

/// A table of 200 keys, one created each minute up to a minute ago (or,
/// with `days_old`, up to that many days ago), `valid_from` equal to the
/// creation time, and `expires_at` in the past on all but the newest.
fn purge_table(db: &TestDb, name: &str, days_old: i64) {
    let ts = db.ty("time");
    db.exec(&format!(
        "CREATE TABLE {name} (k {text} PRIMARY KEY, status {text} NOT NULL, created_at {ts}, valid_from {ts}, expires_at {ts})",
        text = db.ty("text")
    ));
    let rows: Vec<String> = (1..=200)
        .map(|i| {
            let created = chrono::Duration::days(days_old) + chrono::Duration::minutes(i);
            let expires = match i {
                1 => crate::common::ago(db, chrono::Duration::days(-1)),
                _ => crate::common::ago(db, chrono::Duration::seconds(30)),
            };
            let at = crate::common::ago(db, created);
            format!("('k{i}', 'succeeded', {at}, {at}, {expires})")
        })
        .collect();
    db.exec(&format!("INSERT INTO {name} VALUES {}", rows.join(", ")));
}

/// A mapping that would delete everything is refused in one line, exit 2,
/// nothing deleted: the created-at column as the expiry time, a column at
/// the creation time on every row, and a purge of nearly all of a table
/// still written to (unless --allow-large-delete; a table nobody writes to
/// any more may be emptied).
fn mappings_that_delete_everything_are_refused(db: &TestDb) {
    purge_table(db, "live_keys", 0);
    let count = |t: &str| db.column(&format!("SELECT COUNT(*) FROM {t}"))[0].clone().unwrap();
    let purge = |t: &str, extra: &[&str]| {
        let mut args = vec!["expire", "--table", t, "--key-column", "k"];
        args.extend_from_slice(extra);
        run(db.idemctl(&args))
    };
    for (extra, said) in [
        (&["--expires-at-column", "created_at"][..], "--expires-at-column created_at is the creation time"),
        (&["--expires-at-column", "valid_from"][..], "on 200 of 200 sampled rows it is at or before created_at"),
        (&[][..], "expire would delete 199 of the 200 rows of live_keys, and its newest row is 1m"),
    ] {
        for dry in [false, true] {
            let mut args = extra.to_vec();
            args.extend(dry.then_some("--dry-run"));
            let out = purge("live_keys", &args);
            assert_eq!((out.code, out.stderr.lines().count()), (2, 1), "{args:?}: {}", out.stderr);
            assert!(out.stderr.contains(said), "{args:?}: {}", out.stderr);
            // A column that is no expiry time: the refusal names the way to a horizon.
            assert_eq!(out.stderr.contains("give --older-than DURATION"), !extra.is_empty(), "{}", out.stderr);
            assert_eq!(count("live_keys"), "200", "{args:?}");
        }
    }
    // Said and done when it is meant, the share named first.
    let dry = purge("live_keys", &["--allow-large-delete", "--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(dry.stderr.contains("would delete 199 of the 200 rows of live_keys (99.5%)"), "{}", dry.stderr);
    let out = purge("live_keys", &["--allow-large-delete"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(db.column("SELECT k FROM live_keys"), [Some("k1".to_string())]);
    // Under the share (98%: 196 of 200), a purge goes without the flag.
    purge_table(db, "most_keys", 0);
    db.exec(&format!(
        "UPDATE most_keys SET expires_at = {} WHERE k IN ('k2', 'k3', 'k4')",
        crate::common::ago(db, chrono::Duration::days(-1))
    ));
    let dry = purge("most_keys", &["--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(dry.stderr.contains("would delete 196 of the 200 rows of most_keys (98.0%)"), "{}", dry.stderr);
    let out = purge("most_keys", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(count("most_keys"), "4");
    // A table of under ten rows is too small to judge by a share.
    purge_table(db, "few_keys", 0);
    db.exec("DELETE FROM few_keys WHERE k NOT IN ('k1', 'k2', 'k3', 'k4', 'k5')");
    let out = purge("few_keys", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(db.column("SELECT k FROM few_keys"), [Some("k1".to_string())]);
    // A table whose newest row is three days old is no longer written to.
    purge_table(db, "old_keys", 3);
    let out = purge("old_keys", &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(count("old_keys"), "1");
}
