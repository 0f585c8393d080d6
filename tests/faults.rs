//! Faults met as on-call meets them, on real servers: a host that never
//! answers, a lock another session holds, Ctrl-C and SIGTERM while a command
//! waits or writes, a session the server kills. Every wait is bounded, every
//! fault ends in one plain line, and the table holds whole batches only.

mod common;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{Engine, Run, TestDb, key_table};

on_every_engine!(
    a_lock_held_elsewhere_bounds_every_command,
    a_signal_ends_every_lock_wait_and_cancels_it_on_the_server,
    a_signal_during_sleep_ends_the_run_at_once,
    a_signal_mid_batch_rolls_the_batch_back,
);

/// The commands an on-call engineer runs, with what each needs.
fn every_command() -> Vec<Vec<&'static str>> {
    vec![
        vec!["scan", "--table", "orders"],
        vec!["stuck"],
        vec!["size"],
        vec!["doctor"],
        vec!["reap", "--dry-run"],
        vec!["reap"],
        vec!["expire", "--dry-run"],
        vec!["expire"],
    ]
}

fn idemctl_bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("idemctl")
}

/// `idemctl ARGS --database-url URL`, started and left running.
fn spawn(url: &str, args: &[&str], env: &[(&str, &str)]) -> Child {
    Command::new(idemctl_bin())
        .env_remove("DATABASE_URL")
        .args(args)
        .args(["--database-url", url])
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for a child, at most `limit`; the run and how long it took from `since`.
fn finish_within(child: Child, since: Instant, limit: Duration, what: &str) -> (Run, Duration) {
    let pid = child.id();
    let deadline = since + limit + Duration::from_secs(20);
    while Instant::now() < deadline {
        if std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| s.contains(") Z ")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let took = since.elapsed();
    let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
    let run = common::finish(child);
    assert!(took <= limit, "{what}: took {took:?}, more than {limit:?}: {}", run.stderr);
    (run, took)
}

fn signal(child: &Child, sig: &str) {
    assert!(Command::new("kill").args([sig, &child.id().to_string()]).status().unwrap().success());
}

/// The error line: exactly one line on stderr.
fn one_line(run: &Run) -> &str {
    assert_eq!(run.stderr.lines().count(), 1, "not one line: {}", run.stderr);
    run.stderr.trim_end()
}

/// A creation table for `scan`, and the key table.
fn tables(db: &TestDb) {
    key_table(db);
    db.exec(&format!(
        "CREATE TABLE orders (id {pk}, customer_id INTEGER, amount INTEGER, created_at {ts});
         INSERT INTO orders (customer_id, amount, created_at) VALUES (1, 10, {t}), (1, 10, {t}), (2, 20, {t})",
        pk = db.ty("pk"),
        ts = db.ty("ts"),
        t = db.ts("2026-06-01 10:00:00"),
    ));
}

/// Every row of both tables, as text, to compare before and after.
fn contents(db: &TestDb) -> Vec<Option<String>> {
    let key = db.ident("key");
    let mut rows = db.column(&format!(
        "SELECT {} FROM idempotency_keys ORDER BY {key}",
        concat_text(db, &[&key, "status", "locked_at"])
    ));
    rows.extend(db.column("SELECT id FROM orders ORDER BY id"));
    rows
}

fn concat_text(db: &TestDb, cols: &[&str]) -> String {
    let parts: Vec<String> =
        cols.iter().map(|c| format!("COALESCE(CAST({c} AS {}), '-')", db.ty("text_cast"))).collect();
    match db.engine {
        Engine::MySql => format!("CONCAT({})", parts.join(", '|', ")),
        _ => parts.join(" || '|' || "),
    }
}

/// SQL that takes an exclusive lock on both tables and holds it, and SQL that lets go.
fn exclusive_lock(db: &TestDb) -> (&'static str, &'static str) {
    match db.engine {
        Engine::Postgres => ("BEGIN; LOCK TABLE idempotency_keys, orders IN ACCESS EXCLUSIVE MODE", "ROLLBACK"),
        Engine::MySql => ("LOCK TABLES idempotency_keys WRITE, orders WRITE", "UNLOCK TABLES"),
        Engine::Sqlite => ("BEGIN EXCLUSIVE", "ROLLBACK"),
    }
}

/// Another session holds an exclusive lock: every command, the dry runs
/// included, ends within --lock-timeout + 2 s, names the table (and, on
/// PostgreSQL, the session holding it), and changes nothing.
fn a_lock_held_elsewhere_bounds_every_command(db: &TestDb) {
    tables(db);
    let before = contents(db);
    let (take, release) = exclusive_lock(db);
    let runs = db.while_session(take, release, || {
        let since = Instant::now();
        let children: Vec<(Vec<&str>, Child)> = every_command()
            .into_iter()
            .map(|args| {
                let child = spawn(&db.url, &[&args[..], &["--lock-timeout", "1s", "-q"]].concat(), &[]);
                (args, child)
            })
            .collect();
        children
            .into_iter()
            .map(|(args, child)| {
                let what = args.join(" ");
                (what.clone(), finish_within(child, since, Duration::from_secs(3), &what).0)
            })
            .collect::<Vec<_>>()
    });
    for (what, run) in runs {
        assert_eq!(run.code, 2, "{what}: {}", run.stderr);
        let line = one_line(&run);
        assert!(line.contains("another session holds a lock on") && line.contains("--lock-timeout"), "{what}: {line}");
        match db.engine {
            Engine::Postgres => {
                assert!(line.contains("public.") && line.contains("held by pid "), "{what}: {line}");
                assert!(line.contains("LOCK TABLE idempotency_keys, orders"), "{what}: {line}");
            }
            Engine::MySql => assert!(line.contains(&format!("{}.", db.name)), "{what}: {line}"),
            Engine::Sqlite => assert!(line.contains("the database file"), "{what}: {line}"),
        }
    }
    assert_eq!(contents(db), before);
}

/// How many idemctl statements the server shows waiting for a lock.
fn waiting_on_lock(db: &TestDb) -> usize {
    let sql = match db.engine {
        Engine::Postgres => {
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'idemctl' AND wait_event_type = 'Lock'"
                .to_string()
        }
        Engine::MySql => format!(
            "SELECT count(*) FROM information_schema.PROCESSLIST WHERE DB = '{}' AND STATE LIKE '%metadata lock%'",
            db.name
        ),
        Engine::Sqlite => return 0,
    };
    // On the server's base database: the test database's tables are locked.
    let admin = TestDb::admin(db.engine);
    admin.column(&sql)[0].as_deref().unwrap_or("0").parse().unwrap()
}

fn wait_for_waiters(db: &TestDb, n: usize) {
    if db.engine == Engine::Sqlite {
        std::thread::sleep(Duration::from_millis(800));
        return;
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while waiting_on_lock(db) < n {
        assert!(Instant::now() < deadline, "the commands never waited on the lock");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// SIGTERM (and SIGINT) while commands wait on a lock: exit 130 within 2 s,
/// and their statements are gone from the server though the lock is still held.
fn a_signal_ends_every_lock_wait_and_cancels_it_on_the_server(db: &TestDb) {
    tables(db);
    let before = contents(db);
    let (take, release) = exclusive_lock(db);
    let commands =
        [vec!["scan", "--table", "orders"], vec!["stuck"], vec!["reap"], vec!["expire", "--dry-run"], vec!["expire"]];
    db.while_session(take, release, || {
        let children: Vec<(String, Child)> = commands
            .iter()
            .map(|args| (args.join(" "), spawn(&db.url, &[&args[..], &["--lock-timeout", "60s"]].concat(), &[])))
            .collect();
        wait_for_waiters(db, commands.len());
        let since = Instant::now();
        for (i, (_, child)) in children.iter().enumerate() {
            signal(child, if i % 2 == 0 { "-TERM" } else { "-INT" });
        }
        for (what, child) in children {
            let (run, _) = finish_within(child, since, Duration::from_secs(2), &what);
            assert_eq!(run.code, 130, "{what}: {}", run.stderr);
            assert!(run.stderr.contains("interrupted"), "{what}: {}", run.stderr);
        }
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(waiting_on_lock(db), 0, "a canceled statement still waits on the server");
    });
    assert_eq!(contents(db), before);
}

/// Events created ten days ago: ids 1..=n.
fn events(db: &TestDb, n: u32) {
    let ids: Vec<String> = (1..=n).map(|i| format!("({i}, {})", db.ts("2026-01-01 00:00:00"))).collect();
    db.exec(&format!(
        "CREATE TABLE events (id BIGINT PRIMARY KEY, created_at {}); INSERT INTO events VALUES {}",
        db.ty("ts"),
        ids.join(", ")
    ));
}

const EXPIRE_EVENTS: [&str; 7] =
    ["expire", "--table", "events", "--created-at-column", "created_at", "--older-than", "30d"];

fn event_ids(db: &TestDb) -> Vec<i64> {
    db.ids("SELECT id FROM events ORDER BY id")
}

fn json(run: &Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr))
}

/// SIGTERM during `--sleep 30s`: the run ends at once with its summary.
fn a_signal_during_sleep_ends_the_run_at_once(db: &TestDb) {
    events(db, 3);
    let child = spawn(
        &db.url,
        &[&EXPIRE_EVENTS[..], &["--batch-size", "1", "--sleep", "30s", "--format", "json"]].concat(),
        &[],
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while event_ids(db).len() == 3 {
        assert!(Instant::now() < deadline, "the first batch never ran");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let since = Instant::now();
    signal(&child, "-TERM");
    let (run, _) = finish_within(child, since, Duration::from_secs(2), "expire --sleep 30s");
    assert_eq!(run.code, 130, "{}", run.stderr);
    let summary = &json(&run)["runs"][0];
    assert_eq!(summary["rows_deleted"], 1, "{summary}");
    assert_eq!(summary["stopped"], "interrupted", "{summary}");
    assert_eq!(event_ids(db), vec![2, 3]);
}

/// A statement that takes its time deleting one row, on each engine.
fn slow_delete_trigger(db: &TestDb, id: u32) -> String {
    match db.engine {
        Engine::Postgres => format!(
            "CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN IF OLD.id = {id} THEN PERFORM pg_sleep(60); END IF; RETURN OLD; END $$;
             CREATE TRIGGER slow BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION slow()"
        ),
        Engine::MySql => format!(
            "CREATE TRIGGER slow BEFORE DELETE ON events FOR EACH ROW
             BEGIN IF OLD.id = {id} THEN DO SLEEP(60); END IF; END"
        ),
        // A count to a billion: minutes of work, which the progress handler interrupts.
        Engine::Sqlite => format!(
            "CREATE TRIGGER slow BEFORE DELETE ON events FOR EACH ROW WHEN OLD.id = {id}
             BEGIN SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c
                                         WHERE x < 1000000000) SELECT x FROM c); END"
        ),
    }
}

/// SIGTERM while a batch's statement runs: the statement is canceled on the
/// server, the batch rolled back whole, the summary printed, exit 130.
fn a_signal_mid_batch_rolls_the_batch_back(db: &TestDb) {
    events(db, 6);
    db.exec(&slow_delete_trigger(db, 4));
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    let p = pause.to_str().unwrap();
    std::fs::write(format!("{p}.1"), b"").unwrap();
    let child = spawn(
        &db.url,
        &[&EXPIRE_EVENTS[..], &["--batch-size", "2", "--format", "json"]].concat(),
        &[("IDEMCTL_TEST_PAUSE_BEFORE_BATCH", p)],
    );
    // Batch 2 (ids 3 and 4) starts, and stops in the trigger on id 4.
    common::wait_for(&format!("{p}.waiting.2"));
    std::fs::write(format!("{p}.2"), b"").unwrap();
    std::thread::sleep(Duration::from_millis(700));
    let since = Instant::now();
    signal(&child, "-TERM");
    let (run, _) = finish_within(child, since, Duration::from_secs(2), "expire mid-batch");
    assert_eq!(run.code, 130, "{}", run.stderr);
    let summary = &json(&run)["runs"][0];
    assert_eq!(summary["rows_deleted"], 2, "{summary}");
    assert_eq!(summary["stopped"], "interrupted", "{summary}");
    assert_eq!(event_ids(db), vec![3, 4, 5, 6], "batch 2 rolled back whole");
    if db.engine != Engine::Sqlite {
        std::thread::sleep(Duration::from_millis(300));
        let sleeping = match db.engine {
            Engine::Postgres => "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'".to_string(),
            _ => format!(
                "SELECT count(*) FROM information_schema.PROCESSLIST WHERE DB = '{}' AND INFO LIKE 'DELETE%'",
                db.name
            ),
        };
        assert_eq!(TestDb::admin(db.engine).column(&sleeping)[0].as_deref(), Some("0"), "the batch still runs");
    }
}

/// A host that accepts connections and never answers: every command on
/// either server ends within --connect-timeout + 2 s, naming host and timeout.
#[test]
fn a_host_that_never_answers() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let _accepting = std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
        }
    });
    let since = Instant::now();
    let mut children = Vec::new();
    for scheme in ["postgres", "mysql"] {
        let url = format!("{scheme}://root@127.0.0.1:{port}/test");
        for args in every_command() {
            let child = spawn(&url, &[&args[..], &["--connect-timeout", "1s"]].concat(), &[]);
            children.push((format!("{scheme}: {}", args.join(" ")), child));
        }
    }
    for (what, child) in children {
        let (run, took) = finish_within(child, since, Duration::from_secs(3), &what);
        assert_eq!(run.code, 2, "{what}: {}", run.stderr);
        assert_eq!(
            one_line(&run),
            format!("idemctl: cannot connect to 127.0.0.1:{port}: no answer within 1s (--connect-timeout)"),
            "{what}"
        );
        assert!(took >= Duration::from_millis(900), "{what}: gave up after {took:?}");
    }
}
