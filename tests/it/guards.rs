//! Guards against deleting or releasing what must stay, on real PostgreSQL,
//! MariaDB/MySQL and SQLite: every test compares the rows before and after.

use crate::common::{Engine, Run, TestDb, csv_records, run};
use chrono::{DateTime, Duration, Utc};

const NOW: &str = "2026-06-01T12:00:00Z";

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(NOW).unwrap().with_timezone(&Utc)
}

fn idemctl(db: &TestDb, args: &[&str]) -> Run {
    let mut cmd = db.idemctl(args);
    cmd.env("IDEMCTL_TEST_NOW", NOW);
    run(cmd)
}

/// Keys with epoch-second times: ids 1..=1000 created an hour ago and live
/// for another 23 hours, and `extra` rows given as (id, created_at, expires_at).
fn epoch_keys(db: &TestDb, extra: &[(i64, i64, i64)]) {
    let t = now().timestamp();
    db.exec(&format!(
        "CREATE TABLE epoch_keys (id BIGINT PRIMARY KEY, status {text} NOT NULL, created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL);
         INSERT INTO epoch_keys (id, status, created_at, expires_at)
            SELECT n, 'succeeded', {created}, {expires} FROM {series}",
        text = db.ty("text"),
        created = t - 3600,
        expires = t + 23 * 3600,
        series = db.series(1000),
    ));
    for (id, created, expires) in extra {
        db.exec(&format!("INSERT INTO epoch_keys VALUES ({id}, 'succeeded', {created}, {expires})"));
    }
}

fn epoch_ids(db: &TestDb) -> Vec<i64> {
    db.ids("SELECT id FROM epoch_keys ORDER BY id")
}

const EPOCH_KEYS: [&str; 4] = ["--table", "epoch_keys", "--format", "json"];

fn a_never_marker_keeps_its_column_in_seconds(db: &TestDb) {
    let t = now().timestamp();
    // 9999-12-31T23:59:59Z in seconds: above 1e11, once read as "the column is in milliseconds".
    epoch_keys(
        db,
        &[
            (1001, t - 3600, 253_402_300_799),
            (1002, t - 5 * 86_400, t - 2 * 86_400),
            (1003, t - 5 * 86_400, t - 86_400),
        ],
    );
    let dry = idemctl(db, &[&["expire", "--dry-run"][..], &EPOCH_KEYS].concat());
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(dry.json()["runs"][0]["rows_matching"], 2);
    // By age, the dry run held to the real run on a copy.
    let by_age = ["--older-than", "72h", "--table", "epoch_keys"];
    let (by_age, _, _) = crate::common::expire_dry_then_real(db, &by_age, &[("IDEMCTL_TEST_NOW", NOW)]);
    assert_eq!(by_age.json()["runs"][0]["rows_matching"], 2, "{}", by_age.stdout);
    let out = idemctl(db, &[&["expire"][..], &EPOCH_KEYS].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["runs"][0]["rows_deleted"], 2);
    assert_eq!(epoch_ids(db), (1..=1001).collect::<Vec<_>>(), "the live keys and the never-expiring one stay");
}

fn one_row_in_milliseconds_stops_writers(db: &TestDb) {
    let t = now().timestamp();
    epoch_keys(db, &[(1001, (t - 3600) * 1000, (t + 23 * 3600) * 1000)]);
    for args in [&["expire", "--older-than", "72h"][..], &["expire"], &["expire", "--dry-run"]] {
        let out = idemctl(db, &[args, &EPOCH_KEYS].concat());
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(
            out.stderr.contains("1000 in seconds, 1 in milliseconds") && out.stderr.contains("--time-unit"),
            "{}",
            out.stderr
        );
        assert_eq!(out.stdout, "");
    }
    let out = idemctl(db, &[&["expire", "--older-than", "72h", "--time-unit", "ms"][..], &EPOCH_KEYS].concat());
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("--time-unit ms does not fit column \"created_at\""), "{}", out.stderr);
    assert_eq!(epoch_ids(db), (1..=1001).collect::<Vec<_>>(), "nothing deleted");
    // A reading command reads the bulk and says what it leaves out.
    let out = idemctl(db, &["size", "--table", "epoch_keys", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let notes = out.json()["notes"].to_string();
    assert!(notes.contains("column \\\"created_at\\\" is read in seconds; 1 of its values"), "{notes}");
}

/// SQLite keeps times as it is given them: every form a recent row (an hour
/// before now) and an old one (four days before) can take.
fn sqlite_time_forms_are_read_or_left_alone(db: &TestDb) {
    let recent = now() - Duration::hours(1);
    let old = now() - Duration::days(4);
    let julian = |t: DateTime<Utc>| t.timestamp() as f64 / 86_400.0 + 2_440_587.5;
    let rows: Vec<(i64, String)> = vec![
        (1, "'2026-06-01 11:00:00'".into()),
        (2, "'2026-05-28 12:00:00'".into()),
        (3, "'2026-06-01T11:00:00Z'".into()),
        (4, "'2026-05-28T12:00:00.250Z'".into()),
        (5, "'2026-06-01 13:00:00+0200'".into()),
        (6, "'2026-05-28 14:00:00+02:00'".into()),
        (7, "'2026-05-29 13:00:00+02'".into()),
        (8, "'11:00'".into()),
        (9, format!("{:.6}", julian(recent))),
        (10, format!("{:.6}", julian(old))),
        (11, "'06/01/2026'".into()),
        (12, "'Mon, 01 Jun 2026 11:00:00 +0000'".into()),
        (13, format!("'{}'", recent.timestamp())),
        (14, format!("'{}'", old.timestamp())),
        (15, recent.timestamp().to_string()),
        (16, old.timestamp().to_string()),
        (17, "NULL".into()),
    ];
    let values: Vec<String> = rows.iter().map(|(id, t)| format!("({id}, {t})")).collect();
    db.exec(&format!(
        "CREATE TABLE events (id INTEGER PRIMARY KEY, seen_at); INSERT INTO events VALUES {}",
        values.join(", ")
    ));
    let args =
        ["expire", "--table", "events", "--created-at-column", "seen_at", "--older-than", "72h", "--format", "json"];
    let out = idemctl(db, &args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(db.ids("SELECT id FROM events ORDER BY id"), [1, 3, 5, 8, 9, 11, 12, 13, 15, 17]);
    assert_eq!(out.json()["runs"][0]["unreadable_rows"], 3);
    assert!(out.stderr.contains("3 rows with unreadable seen_at were left alone"), "{}", out.stderr);
}

/// A scan reads every form in time order, and leaves out what it cannot read
/// instead of stopping at it.
fn sqlite_scan_reads_mixed_forms(db: &TestDb) {
    let t = now() - Duration::hours(2);
    db.exec(&format!(
        "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, amount INTEGER, created_at);
         INSERT INTO orders VALUES (1, 'b', 5, '{e}'), (2, 'a', 10, '{iso}'), (3, 'a', 10, '{offset}'),
             (4, 'b', 5, {e3}), (5, 'c', 1, '03:53'), (6, 'd', 1, '{later}')",
        e = t.timestamp(),
        iso = t.format("%Y-%m-%d %H:%M:%S"),
        offset = (t + Duration::seconds(2) + Duration::hours(2)).format("%Y-%m-%dT%H:%M:%S+02:00"),
        e3 = t.timestamp() + 3,
        later = (t + Duration::hours(1)).format("%Y-%m-%d %H:%M:%S"),
    ));
    let out = idemctl(db, &["scan", "--table", "orders", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    let clusters: Vec<(String, String)> = doc["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["original_id"].as_str().unwrap().to_string(), c["extra_ids"][0].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(clusters, [("1".to_string(), "4".to_string()), ("2".to_string(), "3".to_string())]);
    assert_eq!(doc["rows_scanned"], 5);
    assert_eq!(doc["rows_unreadable"], 1);
}

/// Every row of the reference key table, for before-and-after comparisons.
fn key_rows(db: &TestDb) -> Vec<Option<String>> {
    let key = db.ident("key");
    db.column(&format!(
        "SELECT {} FROM idempotency_keys ORDER BY {key}",
        match db.engine {
            Engine::MySql => format!("CONCAT_WS('|', {key}, status, COALESCE(CAST(locked_at AS CHAR), '-'))"),
            _ => format!("{key} || '|' || status || '|' || COALESCE(CAST(locked_at AS TEXT), '-')"),
        }
    ))
}

fn user_sql_cannot_escape_its_place(db: &TestDb) {
    crate::common::key_table(db);
    let before = key_rows(db);
    assert_eq!(before.len(), 6);
    // Each case with the words of its own refusal: the flag and what is wrong with it.
    let cases: [(&[&str], &str); 6] = [
        (
            &[
                "expire",
                "--include-in-progress",
                "--allow-short-retention",
                "--older-than",
                "1s",
                "--where",
                "scope_id = 's3') OR (1=1",
            ],
            "--where must be exactly one condition: \")\" is left over",
        ),
        (
            &["expire", "--dry-run", "--where", "scope_id = 's3') OR (1=1"],
            "--where must be exactly one condition: \")\" is left over",
        ),
        (&["expire", "--where", "scope_id = 's3' -- "], "--where may not contain comments"),
        (
            &[
                "reap",
                "--max-duration",
                "1m",
                "--verify-sql",
                "SELECT 1 FROM idempotency_keys; DELETE FROM idempotency_keys",
            ],
            "--verify-sql must be a single statement",
        ),
        (
            &["reap", "--max-duration", "1m", "--verify-sql", "DELETE FROM idempotency_keys WHERE scope_id = :scope"],
            "--verify-sql must be a SELECT",
        ),
        (
            &["reap", "--max-duration", "1m", "--in-progress-when", "status = 'in_progress') OR (1=1"],
            "--in-progress-when must be exactly one condition: \")\" is left over",
        ),
    ];
    for (args, refusal) in cases {
        let out = idemctl(db, args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(refusal), "{args:?}: {}", out.stderr);
        assert_eq!(key_rows(db), before, "{args:?} changed nothing");
    }
}

/// An events table: ids 1..=n created ten days ago, except every tenth,
/// created an hour ago; rows about 250 bytes wide (tens to a page).
fn events(db: &TestDb, n: u64) {
    let ts = match db.engine {
        Engine::Postgres => "timestamptz",
        Engine::MySql => "DATETIME(6)",
        Engine::Sqlite => "TEXT",
    };
    let (old, recent) = (now() - Duration::days(10), now() - Duration::hours(1));
    let when = |t: DateTime<Utc>| match db.engine {
        Engine::Postgres => format!("CAST({} AS timestamptz)", db.ts(&t.format("%Y-%m-%d %H:%M:%S").to_string())),
        _ => db.ts(&t.format("%Y-%m-%d %H:%M:%S").to_string()),
    };
    db.exec(&format!(
        "CREATE TABLE events (id BIGINT PRIMARY KEY, pad {pad}, created_at {ts} NOT NULL);
         INSERT INTO events (id, pad, created_at)
            SELECT n, '{fill}', CASE WHEN n % 10 = 0 THEN {recent} ELSE {old} END FROM {series}",
        pad = if db.engine == Engine::MySql { "VARCHAR(300)" } else { "TEXT" },
        fill = "p".repeat(240),
        recent = when(recent),
        old = when(old),
        series = db.series(n),
    ));
}

const EVENTS: [&str; 8] =
    ["--table", "events", "--created-at-column", "created_at", "--older-than", "7d", "--format", "json"];

fn event_ids(db: &TestDb) -> Vec<i64> {
    db.ids("SELECT id FROM events ORDER BY id")
}

/// After an earlier run emptied the start of the table, the rows a page is
/// guessed to hold fall to nothing; no batch may delete more than its size.
fn batches_stay_bounded_after_a_partial_run(db: &TestDb) {
    events(db, 20_000);
    // The earlier run: the first 2,000 rows gone (on PostgreSQL, the first pages).
    db.exec("DELETE FROM events WHERE id <= 2000 AND id % 10 <> 0");
    let out = idemctl(db, &[&["expire", "--batch-size", "1000"][..], &EVENTS].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let summary = &out.json()["runs"][0];
    assert_eq!(summary["rows_deleted"], 16_200, "{summary}");
    let largest = summary["largest_batch_rows"].as_u64().unwrap();
    assert!(largest <= 1000 && largest > 0, "a batch deleted {largest} rows: {summary}");
    assert!(summary["batches"].as_u64().unwrap() >= 17, "{summary}");
    assert_eq!(
        event_ids(db),
        (1..=2000).step_by(1).filter(|i| i % 10 == 0).chain((2010..=20_000).step_by(10)).collect::<Vec<i64>>()
    );
}

/// A trigger that refuses one row's delete, in the middle of 200,000 expired
/// rows: every other expired row goes in the same run, the row is named.
fn a_refusing_row_does_not_stop_the_run(db: &TestDb) {
    events(db, 222_222);
    db.exec(match db.engine {
        Engine::Postgres => {
            "CREATE FUNCTION hold() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF OLD.id = 111111 THEN RAISE EXCEPTION 'event % is on legal hold', OLD.id; END IF; RETURN OLD; END $$;
             CREATE TRIGGER hold BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION hold()"
        }
        Engine::MySql => {
            "CREATE TRIGGER hold BEFORE DELETE ON events FOR EACH ROW
             BEGIN IF OLD.id = 111111 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'event is on legal hold'; END IF; END"
        }
        Engine::Sqlite => {
            "CREATE TRIGGER hold BEFORE DELETE ON events FOR EACH ROW WHEN OLD.id = 111111
             BEGIN SELECT RAISE(ABORT, 'event is on legal hold'); END"
        }
    });
    let out = idemctl(db, &[&["expire"][..], &EVENTS].concat());
    assert_eq!(out.code, 1, "{}", out.stderr);
    let summary = &out.json()["runs"][0];
    assert_eq!(summary["rows_deleted"], 199_999, "{summary}");
    assert_eq!(summary["refused_keys"], serde_json::json!(["111111"]));
    assert!(out.stderr.contains("row (111111) was not deleted") && out.stderr.contains("legal hold"), "{}", out.stderr);
    let left = event_ids(db);
    assert_eq!(left.len(), 22_223);
    assert!(left.contains(&111_111) && left.iter().all(|id| id % 10 == 0 || *id == 111_111));
    // --on-error stop stops at the refusing batch and keeps all of it: row
    // 111110, expired now, shares the batch with 111111 and stays.
    db.exec(&format!("UPDATE events SET created_at = {} WHERE id = 111110", db.ts("2026-05-01 00:00:00")));
    let again = idemctl(db, &[&["expire", "--on-error", "stop"][..], &EVENTS].concat());
    assert_eq!(again.code, 2, "{}", again.stderr);
    assert!(again.stderr.contains("legal hold"), "{}", again.stderr);
    // A permanent error is not retried: the run stops at once, with its summary.
    let last = again.stderr.lines().last().unwrap();
    assert!(last.starts_with("idemctl: expire stopped: ") && !last.contains("retries"), "{last}");
    assert_eq!(again.json()["runs"][0]["stopped"], "error");
    assert_eq!(again.json()["runs"][0]["rows_deleted"], 0);
    let left = event_ids(db);
    assert_eq!(left.len(), 22_223);
    assert!(left.contains(&111_110) && left.contains(&111_111));
}

/// Every old row refuses to go: past 100 refused rows the cause is taken
/// to be systematic, and the run stops (exit 2) saying so, the rows that
/// refused left in place.
fn a_hundred_refusals_stop_the_run(db: &TestDb) {
    events(db, 300);
    db.exec(match db.engine {
        Engine::Postgres => {
            "CREATE FUNCTION hold() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN RAISE EXCEPTION 'event % is on legal hold', OLD.id; END $$;
             CREATE TRIGGER hold BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION hold()"
        }
        Engine::MySql => {
            "CREATE TRIGGER hold BEFORE DELETE ON events FOR EACH ROW
             SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'event is on legal hold'"
        }
        Engine::Sqlite => {
            "CREATE TRIGGER hold BEFORE DELETE ON events FOR EACH ROW BEGIN SELECT RAISE(ABORT, 'event is on legal hold'); END"
        }
    });
    let out = idemctl(db, &[&["expire", "--batch-size", "50"][..], &EVENTS].concat());
    assert_eq!(out.code, 2, "{}", out.stderr);
    let last = out.stderr.lines().last().unwrap_or_default();
    assert!(last.contains("more than 100 rows refused to be deleted") && last.contains("legal hold"), "{}", out.stderr);
    assert_eq!(event_ids(db).len(), 300, "every row is still there");
}

/// Inputs that once panicked or were echoed whole: one line, exit 2, nothing changed.
fn extreme_inputs_end_in_one_line(db: &TestDb) {
    events(db, 50);
    let huge = "x".repeat(100_000);
    let cases: Vec<Vec<&str>> = vec![
        vec!["expire", "--table", "events", "--older-than", "99999999d"],
        vec!["expire", "--table", "events", "--older-than", "99999999999999999999d"],
        vec!["doctor", "--table", "events", "--backlog-grace", "99999999d"],
        vec!["scan", "--table", "events", "--since", "99999999d"],
        vec!["scan", "--table", "events", "--since", "2026-06-02T00:00:00Z", "--until", "2026-06-01T00:00:00Z"],
        vec!["scan", "--table", "events", "--since", "2026-06-01T00:00:00Z", "--until", "2026-06-01T00:00:00Z"],
        vec!["scan", "--table", &huge],
        vec!["scan", "--table", "events", "--window", &huge],
        vec!["size", "--rate", "1e400/s", "--row-bytes", "1KB"],
    ];
    for args in cases {
        let out = idemctl(db, &args);
        let shown: Vec<&str> = args.iter().map(|a| &a[..a.len().min(40)]).collect();
        assert_eq!(out.code, 2, "{shown:?}: {}", &out.stderr[..out.stderr.len().min(500)]);
        assert_eq!(out.stderr.lines().count(), 1, "{shown:?}: {}", &out.stderr[..out.stderr.len().min(500)]);
        assert!(out.stderr.len() < 600, "{shown:?}: {} bytes on stderr", out.stderr.len());
        assert_eq!(out.stdout, "", "{shown:?}");
    }
    assert_eq!(event_ids(db).len(), 50);
    // A negative value is refused in a sentence naming the option and what
    // it takes, however it is written.
    let negative: [(&[&str], &str); 6] = [
        (
            &["scan", "--table", "events", "--window", "-5s"],
            "idemctl: --window -5s: --window takes DURATION, never negative (5s, 10m, 24h)\n",
        ),
        (
            &["expire", "--table", "events", "--older-than", "-1h", "--dry-run"],
            "idemctl: --older-than -1h: --older-than takes DURATION, never negative (5s, 10m, 24h)\n",
        ),
        (&["scan", "--table", "events", "--limit", "-3"], "idemctl: --limit -3: --limit takes N, never negative\n"),
        (
            &["scan", "--table", "events", "--window=-5s"],
            "idemctl: invalid value '-5s' for '--window <DURATION>': a length of time is never negative: \"-5s\" \
             (try 5s, 10m, 24h)\n",
        ),
        (
            &["expire", "--table", "events", "--older-than", "24h", "--sleep", "-.5s"],
            "idemctl: --sleep -.5s: --sleep takes DURATION, never negative (5s, 10m, 24h)\n",
        ),
        // A flag of another command is unknown here, whatever its value.
        (
            &["reap", "--table", "events", "--window", "-5s"],
            "idemctl: unexpected argument '--window' found; a similar argument exists: '--wide'\n",
        ),
    ];
    for (args, said) in negative {
        let out = idemctl(db, args);
        assert_eq!((out.code, out.stderr.as_str(), out.stdout.as_str()), (2, said, ""), "{args:?}");
    }
    assert_eq!(event_ids(db).len(), 50);
}

/// Two long table names alike in their first 51 characters take two locks.
fn long_table_names_take_their_own_locks(db: &TestDb) {
    let stem = "a".repeat(51);
    let (first, second) = (format!("{stem}_purge_tab_1"), format!("{stem}_purge_tab_2"));
    for name in [&first, &second] {
        db.exec(&format!(
            "CREATE TABLE {} (id BIGINT PRIMARY KEY, created_at {} NOT NULL); INSERT INTO {} VALUES (1, {})",
            db.ident(name),
            db.ty("ts"),
            db.ident(name),
            db.ts("2026-05-01 00:00:00")
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    let p = pause.to_str().unwrap();
    let holder = std::process::Command::new(assert_cmd::cargo::cargo_bin("idemctl"))
        .args(["expire", "--table", &first, "--older-than", "7d", "--database-url", &db.url])
        .env("IDEMCTL_TEST_NOW", NOW)
        .env("IDEMCTL_TEST_PAUSE_BEFORE_BATCH", &pause)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    crate::common::wait_for(&format!("{p}.waiting.1"));
    let other = idemctl(db, &["expire", "--table", &second, "--older-than", "7d"]);
    assert_eq!(other.code, 0, "a lock of its own: {}", other.stderr);
    let same = idemctl(db, &["expire", "--table", &first, "--older-than", "7d"]);
    assert_eq!(same.code, 3, "{}", same.stderr);
    std::fs::write(format!("{p}.1"), b"").unwrap();
    let held = crate::common::finish(holder);
    assert_eq!(held.code, 0, "{}", held.stderr);
    for name in [&first, &second] {
        assert!(db.ids(&format!("SELECT id FROM {}", db.ident(name))).is_empty());
    }
}

/// Raw SQL the server refuses (a column not there) is said with the flag
/// that gave it, before anything runs, by every command that takes it.
fn raw_sql_errors_name_their_flag(db: &TestDb) {
    events(db, 50);
    let stuck = "stuck --table events --key-column id --created-at-column created_at";
    let cases = [
        ("scan --table events", "--where", "nosuch > 1"),
        ("scan --table events", "--keep", "nosuch > 1"),
        ("scan --table events", "--sum", "nosuch * 2"),
        ("expire --table events --created-at-column created_at --older-than 7d", "--where", "nosuch > 1"),
        (stuck, "--where", "nosuch > 1"),
        (stuck, "--in-progress-when", "nosuch = 1"),
    ];
    for (command, flag, sql) in cases {
        let mut args: Vec<&str> = command.split_whitespace().collect();
        args.extend([flag, sql]);
        let out = idemctl(db, &args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.starts_with(&format!("idemctl: {flag} {sql:?}: ")), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("nosuch"), "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
    }
    assert_eq!(event_ids(db).len(), 50);
}

/// A table named as the engine quotes names is found: double quotes or
/// backticks, the schema apart on PostgreSQL.
fn quoted_table_names_are_taken(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE {} (id BIGINT PRIMARY KEY, customer INTEGER NOT NULL, created_at {} NOT NULL)",
        db.ident("Mixed Case"),
        db.ty("ts")
    ));
    db.exec(&format!(
        "INSERT INTO {} (id, customer, created_at) VALUES (1, 7, {}), (2, 7, {})",
        db.ident("Mixed Case"),
        db.ts("2026-01-01 00:00:00"),
        db.ts("2026-01-01 00:00:30")
    ));
    let mut names = vec!["\"Mixed Case\"", "`Mixed Case`"];
    if db.engine == Engine::Postgres {
        names.push("\"public\".\"Mixed Case\"");
        names.push("public.\"Mixed Case\"");
    }
    for name in names {
        let out = idemctl(db, &["scan", "--table", name, "--output", "rows", "--format", "csv"]);
        assert_eq!(out.code, 1, "{name}: {}", out.stderr);
        assert_eq!(csv_records(&out.stdout)[1][2], "2", "{name}: {}", out.stdout);
    }
    // A quote not closed is part of the name: no such table.
    let out = idemctl(db, &["scan", "--table", "\"Mixed Case"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.starts_with("idemctl: no table \"\\\"Mixed Case\" in "), "{}", out.stderr);
}

on_every_engine!(
    quoted_table_names_are_taken,
    raw_sql_errors_name_their_flag,
    extreme_inputs_end_in_one_line,
    long_table_names_take_their_own_locks,
    batches_stay_bounded_after_a_partial_run,
    a_refusing_row_does_not_stop_the_run,
    a_hundred_refusals_stop_the_run,
    a_never_marker_keeps_its_column_in_seconds,
    one_row_in_milliseconds_stops_writers,
    user_sql_cannot_escape_its_place,
);

mod sqlite_only {
    use super::*;

    fn sqlite() -> TestDb {
        TestDb::new(Engine::Sqlite).unwrap()
    }

    #[test]
    fn time_forms() {
        sqlite_time_forms_are_read_or_left_alone(&sqlite());
    }

    #[test]
    fn scan_of_mixed_forms() {
        sqlite_scan_reads_mixed_forms(&sqlite());
    }
}
