//! `idemctl reap` against real PostgreSQL, MariaDB/MySQL and SQLite.

use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::common::{Engine, Run, TestDb, csv_records, key_table, run};

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
    let status = if db.engine == Engine::MySql { "CAST(status AS CHAR)" } else { "CAST(status AS TEXT)" };
    db.column(&format!("SELECT {status} FROM idempotency_keys WHERE {} = '{key}'", db.ident("key")))[0].clone().unwrap()
}

/// (key, outcome) per line of CSV output.
fn outcomes(out: &Run) -> Vec<(String, String)> {
    let records = csv_records(&out.stdout);
    if records.is_empty() {
        return Vec::new();
    }
    assert_eq!(
        records[0],
        ["scope", "operation", "key", "state", "locked_at", "age_seconds", "outcome", "error", "at", "action"]
    );
    records[1..].iter().map(|r| (r[2].clone(), r[6].clone())).collect()
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
        crate::common::ago(db, chrono::Duration::zero()),
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
    // Nothing was done, so no row says when or what.
    let records = csv_records(&out.stdout);
    assert!(records[1..].iter().all(|r| r[8].is_empty() && r[9].is_empty()), "{}", out.stdout);
    // What would change is said in words; the SQL only with --show-sql.
    let said = out.stderr.lines().find(|l| l.starts_with("dry run: nothing changes; ")).unwrap_or_default();
    assert!(
        said.starts_with("dry run: nothing changes; each key failed would get status → 'failed_permanent', "),
        "{}",
        out.stderr
    );
    assert!(said.ends_with(" (--show-sql for the statement)"), "{said}");
    assert!(!out.stderr.contains("UPDATE"), "{}", out.stderr);
    let shown = reap(db, &["--dry-run", "--action", "fail", "--show-sql"]);
    assert!(shown.stderr.contains("UPDATE") && shown.stderr.contains("SET"), "the SQL is shown: {}", shown.stderr);
    // Laid out, a clause a line, as the engine's grammar reads it.
    let lines: Vec<&str> = shown.stderr.lines().collect();
    assert!(lines.iter().any(|l| l.starts_with("  UPDATE ")), "{}", shown.stderr);
    assert!(lines.contains(&"  SET") && lines.contains(&"  WHERE"), "{}", shown.stderr);
    assert_eq!(snapshot(db), before);
    let real = reap(db, &["--action", "fail"]);
    let records = csv_records(&real.stdout);
    assert_eq!(records.len(), 3, "{}", real.stdout);
    assert!(records[1..].iter().all(|r| !r[8].is_empty() && r[9] == "fail"), "{}", real.stdout);
    // The real run did what the dry run promised, key for key.
    assert_eq!(outcomes(&real), pairs(&[("k-nolock", "failed"), ("k-ord-6m", "failed")]));
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
    crate::common::wait_for(&format!("{p}.waiting.1"));
    db.exec(&format!("UPDATE idempotency_keys SET status = 'succeeded' WHERE {} = 'k-ord-6m'", db.ident("key")));
    std::fs::write(format!("{p}.1"), b"").unwrap();
    let out = crate::common::finish(child);
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
    crate::common::wait_for(&format!("{p}.waiting.1"));
    let before = snapshot(db);
    let second = reap(db, &[]);
    assert_eq!(second.code, 3, "{}", second.stderr);
    assert_eq!(second.stderr, "idemctl: another run holds the lock on idempotency_keys\n");
    assert_eq!(snapshot(db), before, "the second run changed nothing");
    std::fs::write(format!("{p}.1"), b"").unwrap();
    assert_eq!(crate::common::finish(first).code, 0);
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
    crate::common::wait_for(&format!("{p}.waiting.2"));
    first.kill().unwrap();
    let first = crate::common::finish(first);
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
    let now = crate::common::api_keys(db);
    let mapping = crate::common::API_KEYS_MAPPING;
    // The plain dry run promises what the real run does: it judged a fail
    // statement no key would get, and refused (exit 2) where the run releases.
    let before = db.contents();
    let dry = reap(db, &[&mapping[..], &["--dry-run"]].concat());
    assert_eq!(dry.code, 1, "{}", dry.stderr);
    assert_eq!(outcomes(&dry), pairs(&[("d", "unchanged"), ("a", "would-release")]), "{}", dry.stderr);
    assert_eq!(db.contents(), before);
    let out = reap(db, &mapping);
    assert_eq!(out.code, 1, "keys left unchanged are still stuck: {}", out.stderr);
    assert!(
        out.stderr.contains(
            "note: 1 key left unchanged: this design keeps no lock or status on it to clear, so it waits for its own \
             retry; --action delete removes it"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(
        outcomes(&out),
        pairs(&[("d", "unchanged"), ("a", "released")]),
        "d holds no lock: it waits for the design's own retry"
    );
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
    // A release that says what it writes writes it, to the key that holds
    // no lock too: the dry run promised it, and the run keeps the promise.
    let mut set = mapping.to_vec();
    set.extend(["--set", "recovery_point='abandoned'"]);
    let dry = reap(db, &[&set[..], &["--dry-run"]].concat());
    // a, released above, is abandoned now: nobody holds it, and it is still started.
    assert_eq!(outcomes(&dry), pairs(&[("d", "would-release"), ("a", "would-release")]), "{}", dry.stderr);
    assert!(
        dry.stderr.contains("each key released would get locked_at → NULL, recovery_point → 'abandoned'"),
        "{}",
        dry.stderr
    );
    let out = reap(db, &set);
    assert_eq!(outcomes(&out), pairs(&[("d", "released"), ("a", "released")]), "{}", out.stderr);
    assert_eq!(
        db.column("SELECT recovery_point FROM api_keys ORDER BY idempotency_key"),
        [Some("abandoned".into()), Some("finished".into()), Some("started".into()), Some("abandoned".into())]
    );
}

/// A key mapping that names two rows per key (no scope where the table has
/// two rows of one key): one key's change reaches both rows, so it is undone
/// and said, never kept, and never halved without end.
fn a_change_that_reaches_two_rows_is_undone(db: &TestDb) {
    let (text, ts) = match db.engine {
        Engine::Postgres => ("text", "timestamptz"),
        Engine::MySql => ("VARCHAR(100)", "DATETIME(6)"),
        Engine::Sqlite => ("TEXT", "TEXT"),
    };
    db.exec(&format!(
        "CREATE TABLE twice (idempotency_key {text} NOT NULL, status {text} NOT NULL, locked_at {ts} NULL, \
         created_at {ts} NOT NULL, expires_at {ts} NOT NULL)"
    ));
    let (old, later) =
        (crate::common::ago(db, chrono::Duration::minutes(120)), crate::common::ago(db, chrono::Duration::days(-1)));
    db.exec(&format!(
        "INSERT INTO twice VALUES ('k', 'in_progress', {old}, {old}, {later}), ('k', 'in_progress', {old}, {old}, {later})"
    ));
    let before = db.column("SELECT status FROM twice ORDER BY status");
    let out = reap(db, &["--table", "twice", "--key-column", "idempotency_key", "--batch-size", "1"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k", "error"), ("k", "error")]), "{}", out.stdout);
    assert!(out.stdout.contains("its change reached 2 rows, not one: undone"), "{}", out.stdout);
    assert_eq!(db.column("SELECT status FROM twice ORDER BY status"), before, "nothing changed");
}

on_every_engine!(
    a_change_that_reaches_two_rows_is_undone,
    sigterm_rolls_back_the_batch_under_way,
    release_then_a_retry_takes_over,
    fail_stores_the_error,
    verify_sql_keeps_a_key_whose_effect_exists,
    dry_run_changes_nothing,
    a_key_finished_meanwhile_is_left_alone,
    a_second_reaper_exits_3,
    killed_midway_then_rerun_processes_each_key_once,
    a_table_without_status_and_epoch_seconds,
    a_key_whose_verification_fails_is_left_alone,
    a_key_past_its_attempts_is_failed,
    a_key_that_refuses_its_change_is_left_alone,
    short_maximum_durations_are_refused,
    status_columns_of_enum_types,
    a_value_the_server_refuses_is_refused_by_the_dry_run,
    a_signal_inside_the_batch_statement_rolls_it_back,
);

/// SIGTERM while the batch's second statement runs: k-ord-6m has used up
/// its attempts, so the batch releases k-nolock in one UPDATE, then fails
/// k-ord-6m in another, which a trigger keeps busy. The statement is
/// canceled and the batch rolled back whole (k-nolock's release, a
/// statement already done, with it), exit 130.
fn a_signal_inside_the_batch_statement_rolls_it_back(db: &TestDb) {
    key_table(db);
    let key = db.ident("key");
    db.exec(&format!(
        "ALTER TABLE idempotency_keys ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
         UPDATE idempotency_keys SET attempts = 9 WHERE {key} = 'k-ord-6m'"
    ));
    db.exec(&match db.engine {
        Engine::Postgres => format!(
            "CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF OLD.{key} = 'k-ord-6m' THEN PERFORM pg_sleep(60); END IF; RETURN NEW; END $$;
             CREATE TRIGGER slow BEFORE UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION slow()"
        ),
        Engine::MySql => format!(
            "CREATE TRIGGER slow BEFORE UPDATE ON idempotency_keys FOR EACH ROW
             BEGIN IF OLD.{key} = 'k-ord-6m' THEN DO SLEEP(60); END IF; END"
        ),
        Engine::Sqlite => format!(
            "CREATE TRIGGER slow BEFORE UPDATE ON idempotency_keys FOR EACH ROW WHEN OLD.{key} = 'k-ord-6m'
             BEGIN SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c
                                         WHERE x < 1000000000) SELECT x FROM c); END"
        ),
    });
    let before = snapshot(db);
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("idemctl"));
    cmd.args(["reap", "--format", "csv", "--batch-size", "10", "--max-duration", "1m", "--database-url", &db.url])
        .args(["--attempts-column", "attempts", "--max-attempts", "3"])
        .env_remove("DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    // On SQLite the process itself runs the trigger's count, for minutes.
    let pid = child.id();
    crate::common::wait_until_in_trigger(db, pid);
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let out = crate::common::finish(child);
    assert_eq!(out.code, 130, "{}", out.stderr);
    assert!(out.stderr.contains("interrupted"), "{}", out.stderr);
    assert_eq!(snapshot(db), before, "the batch rolled back whole: k-nolock is in progress again");
    crate::common::wait_until_out_of_trigger(db, pid, "the statement still runs on the server");
}

/// A `--set` value the column cannot take: the dry run refuses it, in one
/// line and exit 2, as the real run does, and nothing changes. SQLite's
/// ordinary tables take any value, and there both runs agree the other way.
fn a_value_the_server_refuses_is_refused_by_the_dry_run(db: &TestDb) {
    key_table(db);
    db.exec("ALTER TABLE idempotency_keys ADD COLUMN note VARCHAR(5)");
    let before = snapshot(db);
    let refused: &[(&str, &str)] = match db.engine {
        Engine::Sqlite => &[("created_at=NULL", "created_at to NULL, which the table declares NOT NULL")],
        Engine::Postgres => &[
            (
                "note='too long'",
                "the server would refuse it: value too long for note (character varying(5)): 8 characters",
            ),
            ("response_code='oops'", "the server would refuse it: invalid input syntax for type integer: \"oops\""),
            (
                "response_code=99999999999",
                "the server would refuse it: value \"99999999999\" is out of range for type integer",
            ),
            ("created_at=NULL", "created_at to NULL, which the table declares NOT NULL"),
        ],
        Engine::MySql => &[
            ("note='too long'", "the server would refuse it: value too long for note (varchar(5)): 8 characters"),
            ("response_code='oops'", "the server would refuse it: Truncated incorrect INTEGER value: 'oops'"),
            ("response_code=99999999999", "the server would refuse it: Out of range"),
            ("created_at=NULL", "created_at to NULL, which the table declares NOT NULL"),
        ],
    };
    for (set, why) in refused {
        for dry in [true, false] {
            let mut args = vec!["--set", set];
            args.extend(dry.then_some("--dry-run"));
            let out = reap(db, &args);
            assert_eq!((out.code, out.stderr.lines().count()), (2, 1), "{set} dry={dry}: {}", out.stderr);
            assert!(out.stderr.contains(why), "{set}: {}", out.stderr);
            assert_eq!(out.stdout, "", "{set}");
            assert_eq!(snapshot(db), before, "{set} dry={dry}");
        }
    }
    // What the column takes is promised and done alike.
    let dry = reap(db, &["--set", "response_code=409", "--dry-run"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(outcomes(&dry), pairs(&[("k-nolock", "would-release"), ("k-ord-6m", "would-release")]));
    if db.engine == Engine::Sqlite {
        // SQLite keeps a declared length as a name: the value is stored whole.
        let long = reap(db, &["--set", "note='too long'", "--dry-run"]);
        assert_eq!(long.code, 0, "SQLite stores the whole value in a VARCHAR(5): {}", long.stderr);
        let text = reap(db, &["--set", "response_code='oops'", "--dry-run"]);
        assert_eq!(text.code, 0, "an ordinary SQLite table stores text in an INTEGER column: {}", text.stderr);
        // A STRICT table does not, and the dry run says so.
        db.exec(&format!(
            "CREATE TABLE strict_keys (k TEXT PRIMARY KEY, status TEXT NOT NULL, response_code INTEGER,
                locked_at TEXT, created_at TEXT NOT NULL) STRICT;
             INSERT INTO strict_keys VALUES ('a', 'in_progress', NULL, {t}, {t})",
            t = crate::common::ago(db, chrono::Duration::seconds(600))
        ));
        for (set, code) in [("response_code='oops'", 2), ("response_code='42'", 0)] {
            let out = reap(db, &["--table", "strict_keys", "--key-column", "k", "--set", set, "--dry-run"]);
            assert_eq!(out.code, code, "{set}: {}", out.stderr);
            if code == 2 {
                assert!(
                    out.stderr.contains("cannot store TEXT value in INTEGER column strict_keys.response_code"),
                    "{}",
                    out.stderr
                );
            }
        }
    }
}

const ONE_MINUTE: [&str; 2] = ["--max-duration", "1m"];

/// `--verify-sql` failing on one key's data: that key is left, the others released.
fn a_key_whose_verification_fails_is_left_alone(db: &TestDb) {
    key_table(db);
    let verify = match db.engine {
        // k-ord-6m has two effects where the query expects one.
        Engine::Postgres | Engine::MySql => {
            db.exec(&format!(
                "CREATE TABLE effects (k {} NOT NULL, n INTEGER NOT NULL);
                 INSERT INTO effects VALUES ('k-ord-6m', 1), ('k-ord-6m', 2), ('k-other', 1)",
                db.ty("text")
            ));
            "SELECT 1 FROM (SELECT (SELECT n FROM effects WHERE k = :key) AS n) s WHERE s.n = 99"
        }
        Engine::Sqlite => "SELECT 1 WHERE json(CASE WHEN :key = 'k-ord-6m' THEN 'not json' ELSE '{}' END) = 'x'",
    };
    let out = reap(db, &[&ONE_MINUTE[..], &["--verify-sql", verify]].concat());
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        outcomes(&out),
        pairs(&[("k-nolock", "released"), ("k-ord-6m", "error"), ("k-ord-4m", "released")]),
        "{}",
        out.stderr
    );
    let records = csv_records(&out.stdout);
    assert!(records[2][7].starts_with("--verify-sql: "), "the error is in the row: {:?}", records[2]);
    assert!(out.stderr.contains("key k-ord-6m was left as it was: --verify-sql: "), "{}", out.stderr);
    assert_eq!(status_of(db, "k-ord-6m"), "in_progress");
    assert_eq!(status_of(db, "k-ord-4m"), "failed_retryable");
    // With --on-error stop the same error stops the run: exit 2, its line
    // naming the key, and nothing changed.
    let before = snapshot(db);
    let stop = reap(db, &[&ONE_MINUTE[..], &["--verify-sql", verify, "--on-error", "stop"]].concat());
    assert_eq!(stop.code, 2, "{}", stop.stderr);
    let last = stop.stderr.lines().last().unwrap_or_default();
    assert!(last.contains("running --verify-sql for key k-ord-6m"), "{}", stop.stderr);
    assert_eq!(snapshot(db), before);
}

/// A key that has used up its attempts (`--attempts-column`,
/// `--max-attempts`) is failed, not released for a retry that may not come;
/// the others are released. The count is the application's to move (its
/// retry counts the attempt it makes): reap leaves it as it was.
fn a_key_past_its_attempts_is_failed(db: &TestDb) {
    key_table(db);
    let key = db.ident("key");
    db.exec(&format!(
        "ALTER TABLE idempotency_keys ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
         UPDATE idempotency_keys SET attempts = 3 WHERE {key} = 'k-ord-6m';
         UPDATE idempotency_keys SET attempts = 2 WHERE {key} = 'k-ord-4m'"
    ));
    let out = reap(db, &[&ONE_MINUTE[..], &["--attempts-column", "attempts", "--max-attempts", "3"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        outcomes(&out),
        pairs(&[("k-nolock", "released"), ("k-ord-6m", "failed"), ("k-ord-4m", "released")]),
        "{}",
        out.stderr
    );
    for (k, status, attempts) in [
        ("k-nolock", "failed_retryable", 0),
        ("k-ord-6m", "failed_permanent", 3),
        ("k-ord-4m", "failed_retryable", 2),
        ("k-pay-new", "in_progress", 0),
    ] {
        assert_eq!(status_of(db, k), status, "{k}");
        let int = if db.engine == Engine::MySql { "SIGNED" } else { "BIGINT" };
        let sql = format!("SELECT CAST(attempts AS {int}) FROM idempotency_keys WHERE {key} = '{k}'");
        assert_eq!(db.ids(&sql), [attempts], "{k}");
    }
}

/// A trigger that refuses one key's update: the batch is halved around it.
fn a_key_that_refuses_its_change_is_left_alone(db: &TestDb) {
    key_table(db);
    let key = db.ident("key");
    db.exec(&match db.engine {
        Engine::Postgres => format!(
            "CREATE FUNCTION audit_hold() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN RAISE EXCEPTION 'key % is held for audit', OLD.{key}; END $$;
             CREATE TRIGGER audit_hold BEFORE UPDATE ON idempotency_keys FOR EACH ROW
             WHEN (OLD.{key} = 'k-ord-4m') EXECUTE FUNCTION audit_hold()"
        ),
        Engine::MySql => format!(
            "CREATE TRIGGER audit_hold BEFORE UPDATE ON idempotency_keys FOR EACH ROW
             BEGIN IF OLD.{key} = 'k-ord-4m' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'key is held for audit'; END IF; END"
        ),
        Engine::Sqlite => format!(
            "CREATE TRIGGER audit_hold BEFORE UPDATE ON idempotency_keys FOR EACH ROW WHEN OLD.{key} = 'k-ord-4m'
             BEGIN SELECT RAISE(ABORT, 'key is held for audit'); END"
        ),
    });
    let before = snapshot(db);
    let stop = reap(db, &[&ONE_MINUTE[..], &["--on-error", "stop"]].concat());
    assert_eq!(stop.code, 2, "{}", stop.stderr);
    assert!(stop.stderr.contains("held for audit"), "{}", stop.stderr);
    // A permanent error is not retried.
    assert!(stop.stderr.contains("idemctl: reap stopped: nothing was changed: "), "{}", stop.stderr);
    assert!(!stop.stderr.contains("retries"), "{}", stop.stderr);
    assert_eq!(snapshot(db), before, "the batch was rolled back");
    let out = reap(db, &ONE_MINUTE);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "released"), ("k-ord-6m", "released"), ("k-ord-4m", "error")]));
    assert!(out.stderr.contains("key k-ord-4m was left as it was") && out.stderr.contains("held for audit"));
    assert_eq!(status_of(db, "k-ord-4m"), "in_progress");
    assert_eq!(status_of(db, "k-nolock"), "failed_retryable");
    assert_eq!(status_of(db, "k-ord-6m"), "failed_retryable");
}

/// Releasing a key a live request holds runs the request twice: a maximum
/// duration under 30 seconds needs --allow-short-duration.
fn short_maximum_durations_are_refused(db: &TestDb) {
    key_table(db);
    let before = snapshot(db);
    for limit in ["0s", "10s", "POST /v1/payments=0s", "POST /v1/payments=29s"] {
        let out = reap(db, &["--max-duration", limit]);
        assert_eq!(out.code, 2, "{limit}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(out.stderr.contains("under 30s") && out.stderr.contains("--allow-short-duration"), "{}", out.stderr);
    }
    assert_eq!(snapshot(db), before);
    let out = reap(db, &["--max-duration", "POST /v1/payments=20s", "--allow-short-duration"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(outcomes(&out).contains(&("k-pay-old".to_string(), "released".to_string())), "{}", out.stdout);
}

/// A status column of an enum type (a mixed-case type name on PostgreSQL).
fn status_columns_of_enum_types(db: &TestDb) {
    key_table(db);
    match db.engine {
        Engine::Postgres => db.exec(
            r#"CREATE TYPE "Key_Status" AS ENUM ('in_progress', 'succeeded', 'failed_retryable', 'failed_permanent');
               ALTER TABLE idempotency_keys ALTER COLUMN status TYPE "Key_Status" USING status::text::"Key_Status""#,
        ),
        Engine::MySql => db.exec(
            "ALTER TABLE idempotency_keys MODIFY status
                ENUM('in_progress', 'succeeded', 'failed_retryable', 'failed_permanent') NOT NULL",
        ),
        Engine::Sqlite => {}
    }
    let stuck = run(db.idemctl(&["stuck", "--max-duration", "1m", "--format", "csv"]));
    assert_eq!(stuck.code, 1, "{}", stuck.stderr);
    assert_eq!(csv_records(&stuck.stdout).len(), 4, "{}", stuck.stdout);
    // k-done and the in-progress k-ord-6m have expired: expire matches
    // k-done, and only it, on the enum column (a key in progress stays).
    db.exec(&format!(
        "UPDATE idempotency_keys SET expires_at = {} WHERE {} IN ('k-done', 'k-ord-6m')",
        crate::common::ago(db, chrono::Duration::hours(1)),
        db.ident("key")
    ));
    let (dry, real, copy) = crate::common::expire_dry_then_real(db, &[], &[]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(real.json()["runs"][0]["rows_deleted"], 1, "{}", real.stdout);
    let key = db.ident("key");
    assert_eq!(
        copy.column(&format!("SELECT {key} FROM idempotency_keys WHERE {key} IN ('k-done', 'k-ord-6m')")),
        [Some("k-ord-6m".to_string())]
    );
    let out = reap(db, &["--max-duration", "1m", "--action", "fail"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "failed"), ("k-ord-6m", "failed"), ("k-ord-4m", "failed")]));
    assert_eq!(status_of(db, "k-ord-6m"), "failed_permanent");
    let doctor = run(db.idemctl(&["doctor", "--format", "json"]));
    assert_ne!(doctor.code, 2, "{}", doctor.stderr);
}

/// SIGTERM ends the run at once: the batch under way is rolled back (here,
/// before its first statement), the summary says what was done, exit 130.
fn sigterm_rolls_back_the_batch_under_way(db: &TestDb) {
    key_table(db);
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    let p = pause.to_str().unwrap();
    std::fs::write(format!("{p}.1"), b"").unwrap();
    let child = paused_reap(db, &pause, &["--batch-size", "1", "--max-duration", "POST /v1/payments=30s"]);
    crate::common::wait_for(&format!("{p}.waiting.2"));
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    // Released only once the run has seen the signal.
    crate::common::wait_for(&format!("{p}.waiting.2.interrupted"));
    std::fs::write(format!("{p}.2"), b"").unwrap();
    let out = crate::common::finish(child);
    assert_eq!(out.code, 130, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "released")]), "batch 2 was under way");
    assert!(out.stderr.contains("outcomes: released 1") && out.stderr.contains("interrupted"), "{}", out.stderr);
    assert_eq!(status_of(db, "k-ord-6m"), "in_progress", "batch 2 rolled back");
    assert_eq!(status_of(db, "k-pay-old"), "in_progress", "batch 3 never started");
}

/// A key a live transaction holds is skipped, not waited for.
fn hold_key_then_reap(db: &TestDb) {
    if db.engine == Engine::Sqlite {
        return;
    }
    key_table(db);
    // By the whole primary key: InnoDB locks every row a scan passes.
    let lock = format!(
        "SELECT 1 FROM idempotency_keys WHERE scope_id = 's2' AND operation = 'POST /v1/orders' AND {} = 'k-ord-6m' FOR UPDATE",
        db.ident("key")
    );
    // stuck names the key held, and reap skips it.
    let (stuck, out) =
        db.while_holding(&lock, || (run(db.idemctl(&["stuck", "--max-duration", "20s"])), reap(db, &[])));
    let said = format!("{}{}", stuck.stdout, stuck.stderr);
    assert!(said.contains("1 (held by live transactions: not stuck): \"k-ord-6m\""), "{said}");
    // PostgreSQL names the session holding it, from the row's xmax; MySQL
    // does not say which session holds a row.
    let holder = said.split("\"k-ord-6m\"").nth(1).and_then(|rest| rest.lines().next()).unwrap_or_default();
    match db.engine {
        Engine::Postgres => assert!(
            holder.starts_with(" by pid ") && holder.contains(", idle in transaction: SELECT 1 FROM idempotency_keys"),
            "{said}"
        ),
        _ => assert_eq!(holder, "", "{said}"),
    }
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(outcomes(&out), pairs(&[("k-nolock", "released"), ("k-ord-6m", "skipped-locked")]));
    assert_eq!(status_of(db, "k-ord-6m"), "in_progress");
    // Every stuck key held: reap changed nothing, and says so with exit 1.
    let before = db.contents();
    let out = db.while_holding("SELECT 1 FROM idempotency_keys FOR UPDATE", || reap(db, &[]));
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let held = outcomes(&out);
    assert!(!held.is_empty() && held.iter().all(|(_, o)| o == "skipped-locked"), "{}", out.stdout);
    assert!(out.stderr.contains("reap changed nothing: each of the"), "{}", out.stderr);
    assert_eq!(db.contents(), before, "nothing changed");
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

/// A trigger that silently keeps a key's change from its row (PostgreSQL's
/// BEFORE trigger returning NULL, SQLite's RAISE(IGNORE); MariaDB has no
/// silent skip): that key is said to have had no effect and left as it was,
/// the others in its batch released; where no key takes its change, each is
/// said and the run, which changed nothing, ends in exit 2 saying so.
#[test]
fn a_change_no_row_takes_is_said() {
    let one = ["'k-ord-6m'"];
    let all = ["'k-nolock'", "'k-ord-6m'", "'k-ord-4m'"];
    for (skipped, code, expected) in [
        (&one[..], 1, [("k-nolock", "released"), ("k-ord-6m", "no-effect"), ("k-ord-4m", "released")]),
        (&all[..], 2, [("k-nolock", "no-effect"), ("k-ord-6m", "no-effect"), ("k-ord-4m", "no-effect")]),
    ] {
        for engine in [Engine::Postgres, Engine::Sqlite] {
            let Some(db) = TestDb::new(engine) else { continue };
            key_table(&db);
            let key = db.ident("key");
            let list = skipped.join(", ");
            db.exec(&match engine {
                Engine::Postgres => format!(
                    "CREATE FUNCTION keep_them() RETURNS trigger LANGUAGE plpgsql AS $$
                     BEGIN IF OLD.{key} IN ({list}) THEN RETURN NULL; END IF; RETURN NEW; END $$;
                     CREATE TRIGGER keep_them BEFORE UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION keep_them()"
                ),
                _ => format!(
                    "CREATE TRIGGER keep_them BEFORE UPDATE ON idempotency_keys FOR EACH ROW WHEN OLD.{key} IN ({list})
                     BEGIN SELECT RAISE(IGNORE); END"
                ),
            });
            let out = reap(&db, &ONE_MINUTE);
            assert_eq!(out.code, code, "{engine:?}: {}", out.stderr);
            assert_eq!(outcomes(&out), pairs(&expected), "{engine:?}: {}", out.stderr);
            if code == 2 {
                let last = out.stderr.lines().last().unwrap_or_default();
                let nothing = "reap changed 0 keys, and 3 keys it locked for their change were not changed by it";
                assert!(last.contains(nothing), "{}", out.stderr);
            }
            let said = "its change reached no row though the key was locked for it";
            assert_eq!(out.stderr.matches(said).count(), skipped.len(), "{}", out.stderr);
            for (k, outcome) in expected {
                let status = if outcome == "released" { "failed_retryable" } else { "in_progress" };
                assert_eq!(status_of(&db, k), status, "{engine:?} {k}");
            }
        }
    }
}
