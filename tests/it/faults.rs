//! Faults met as on-call meets them, on real servers: a host that never
//! answers, a lock another session holds, Ctrl-C and SIGTERM while a command
//! waits or writes, a session the server kills. Every wait is bounded, every
//! fault ends in one plain line, and the table holds whole batches only.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Engine, Run, TestDb, key_table, poll};

on_every_engine!(
    a_lock_held_elsewhere_bounds_every_command,
    a_signal_ends_every_lock_wait_and_cancels_it_on_the_server,
    a_signal_during_sleep_ends_the_run_at_once,
    a_signal_mid_batch_rolls_the_batch_back,
    a_statement_timeout_bounds_a_read,
    a_signal_at_the_start_is_not_lost,
    an_error_says_the_servers_message_once,
    an_interrupted_scan_reports_what_it_found,
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
/// Its output is read as it comes, so that a full pipe never holds it up.
fn finish_within(child: Child, since: Instant, limit: Duration, what: &str) -> (Run, Duration) {
    let pid = child.id();
    let deadline = since + limit + Duration::from_secs(20);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(crate::common::finish(child));
    });
    let run = match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(run) => run,
        Err(_) => {
            let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
            rx.recv().unwrap()
        }
    };
    let took = since.elapsed();
    assert!(took <= limit, "{what}: took {took:?}, more than {limit:?}: {}", run.stderr);
    (run, took)
}

/// One value read on a connection of its own to the PostgreSQL `url`;
/// `None` while the server cannot answer it (a standby still starting).
fn pg_scalar<T>(url: &str, sql: &'static str) -> Option<T>
where
    T: for<'r> sqlx::Decode<'r, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send + Unpin,
{
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(url).await.ok()?;
        sqlx::query_scalar::<_, T>(sql).fetch_one(&mut c).await.ok()
    })
}

/// `idemctl ARGS --database-url URL`, run to its end.
fn run_at(url: &str, args: &[&str]) -> Run {
    let mut cmd = Command::new(idemctl_bin());
    cmd.env_remove("DATABASE_URL").args(args).args(["--database-url", url]);
    crate::common::run(cmd.into())
}

/// What a read saw, in JSON, for comparing two places that should see the
/// same: scan's rows and extra rows, stuck's keys, doctor's verdicts, size's rows.
fn what_a_read_saw(url: &str, args: &[&str]) -> (i32, String) {
    let run = run_at(url, &[args, &["--format", "json"]].concat());
    let doc = run.json();
    let saw = match args[0] {
        "scan" => format!("{} rows, {} extra", doc["rows_scanned"], doc["extra_rows"]),
        "stuck" => {
            let keys: Vec<&str> = doc["keys"].as_array().unwrap().iter().map(|k| k["key"].as_str().unwrap()).collect();
            keys.join(",")
        }
        "doctor" => {
            let checks: Vec<String> = doc["checks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| format!("{}={}", c["check"].as_str().unwrap(), c["result"].as_str().unwrap()))
                .collect();
            checks.join(",")
        }
        _ => format!("{} rows, {} expired", doc["storage"]["rows"], doc["backlog"]["rows"]),
    };
    assert!(!saw.contains("null"), "{args:?}: {}", run.stdout);
    (run.code, saw)
}

fn signal(child: &Child, sig: &str) {
    assert!(Command::new("kill").args([sig, &child.id().to_string()]).status().unwrap().success());
}

/// The error line: exactly one line on stderr.
/// A dry run where the real run would be refused (a replica, a privilege
/// the user lacks) gives its plan, says the refusal the real run then gives
/// (exit 2, its one line, before anything changes), and exits 1: a finding,
/// said to people even with --quiet.
fn dry_run_says_the_real_run_refuses(url: &str, args: &[&str], refusal: &str) {
    let dry = run_at(url, &[args, &["--dry-run", "--format", "json"]].concat());
    assert_eq!(dry.code, 1, "{args:?} --dry-run: {}", dry.stderr);
    assert_eq!(dry.json()["real_run_refused"], refusal, "{args:?} --dry-run");
    let said = format!("real run refused: {refusal} (it would stop before changing anything)\n");
    for quiet in [&[][..], &["--quiet"]] {
        let people = run_at(url, &[args, &["--dry-run"], quiet].concat());
        assert_eq!(people.code, 1, "{args:?} --dry-run {quiet:?}: {}", people.stderr);
        assert!(people.stderr.contains(&said), "{quiet:?}: {}", people.stderr);
    }
    let real = run_at(url, args);
    assert_eq!(real.code, 2, "{args:?}: {}", real.stderr);
    assert_eq!(one_line(&real), format!("idemctl: {refusal}"), "{args:?}");
}

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
        // A writer stopped before its first batch says so.
        let stopped = match what.as_str() {
            "expire" => Some("idemctl: expire stopped: nothing was deleted: "),
            "reap" => Some("idemctl: reap stopped: nothing was changed: "),
            _ => None,
        };
        assert!(stopped.is_none_or(|s| line.starts_with(s)), "{what}: {line}");
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

/// PostgreSQL: a lock held by a session of another role, seen by a role
/// that may not read that session's query (no `pg_read_all_stats`): the
/// line names the holder by pid and role only, as the guide promises, and
/// nothing changes.
#[test]
fn a_lock_held_by_another_role_is_named_by_pid_and_role() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    tables(&db);
    let before = contents(&db);
    let stem = &db.name[db.name.len().saturating_sub(16)..];
    let (holder, runner) = (format!("hold_{stem}"), format!("run_{stem}"));
    for role in [&holder, &runner] {
        db.exec(&format!(
            "CREATE ROLE {role} LOGIN; GRANT ALL ON ALL TABLES IN SCHEMA public TO {role};
             GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}"
        ));
    }
    let (take, release) = exclusive_lock(&db);
    let runs = db.while_session_at(&crate::common::as_user(&db.url, &holder), take, release, || {
        let url = crate::common::as_user(&db.url, &runner);
        [vec!["stuck"], vec!["expire", "--dry-run"], vec!["reap"]].map(|args| {
            let since = Instant::now();
            let child = spawn(&url, &[&args[..], &["--lock-timeout", "1s", "-q"]].concat(), &[]);
            (args.join(" "), finish_within(child, since, Duration::from_secs(3), "a run as another role").0)
        })
    });
    for role in [&holder, &runner] {
        db.exec(&format!("DROP OWNED BY {role}; DROP ROLE {role}"));
    }
    for (what, run) in runs {
        assert_eq!(run.code, 2, "{what}: {}", run.stderr);
        let line = one_line(&run);
        assert!(line.contains("held by pid ") && line.contains(&format!(" ({holder})")), "{what}: {line}");
        assert!(!line.contains("LOCK TABLE"), "{what}: a query the role may not read was shown: {line}");
    }
    assert_eq!(contents(&db), before);
}

/// How many idemctl statements the server shows waiting for a lock.
fn waiting_on_lock(db: &TestDb) -> usize {
    let sql = match db.engine {
        Engine::Postgres => format!(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'idemctl%' AND wait_event_type = 'Lock' \
             AND datname = '{}'",
            db.name
        ),
        // A table's metadata lock, or InnoDB rows.
        Engine::MySql => format!(
            "SELECT count(*) FROM information_schema.PROCESSLIST p WHERE p.DB = '{}' AND (p.STATE LIKE '%metadata lock%' \
             OR p.ID IN (SELECT trx_mysql_thread_id FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'))",
            db.name
        ),
        Engine::Sqlite => return 0,
    };
    // On the server's base database: the test database's tables are locked.
    let admin = TestDb::admin(db.engine);
    admin.column(&sql)[0].as_deref().unwrap_or("0").parse().unwrap()
}

/// Waits until the children wait on the lock: the server shows their
/// statements waiting. SQLite shows nothing: there each child has the
/// database file open, which it opens only to take its lock, and its busy
/// handler waits from then on.
fn wait_for_waiters(db: &TestDb, children: &[&Child]) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let waiting = || match db.engine {
        Engine::Sqlite => {
            let file = std::fs::canonicalize(db.url.trim_start_matches("sqlite:")).unwrap();
            children.iter().all(|c| holds_open(c.id(), &file))
        }
        _ => waiting_on_lock(db) >= children.len(),
    };
    while !waiting() {
        assert!(Instant::now() < deadline, "the commands never waited on the lock");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether process `pid` has `file` open.
fn holds_open(pid: u32, file: &std::path::Path) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return false };
    fds.flatten().any(|fd| std::fs::read_link(fd.path()).is_ok_and(|target| target == file))
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
        wait_for_waiters(db, &children.iter().map(|(_, c)| c).collect::<Vec<_>>());
        let since = Instant::now();
        for (i, (_, child)) in children.iter().enumerate() {
            signal(child, if i % 2 == 0 { "-TERM" } else { "-INT" });
        }
        for (what, child) in children {
            let (run, _) = finish_within(child, since, Duration::from_secs(2), &what);
            assert_eq!(run.code, 130, "{what}: {}", run.stderr);
            assert!(run.stderr.contains("interrupted"), "{what}: {}", run.stderr);
            // A writer stopped before its first batch says that nothing changed.
            let said = match what.as_str() {
                "reap" => Some("reap stopped: nothing was changed: interrupted"),
                "expire" => Some("expire stopped: nothing was deleted: interrupted"),
                _ => None,
            };
            if let Some(said) = said {
                assert!(run.stderr.contains(said), "{what}: {}", run.stderr);
            }
        }
        poll(
            "a canceled statement still waits on the server",
            Duration::from_secs(5),
            Duration::from_millis(20),
            || waiting_on_lock(db) == 0,
        );
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

/// SIGTERM during `--sleep 30s`: the run ends at once with its summary.
fn a_signal_during_sleep_ends_the_run_at_once(db: &TestDb) {
    events(db, 3);
    let child = spawn(
        &db.url,
        &[&EXPIRE_EVENTS[..], &["--batch-size", "1", "--sleep", "30s", "--format", "json"]].concat(),
        &[],
    );
    poll("the first batch never ran", Duration::from_secs(20), Duration::from_millis(20), || event_ids(db).len() != 3);
    std::thread::sleep(Duration::from_millis(200));
    let since = Instant::now();
    signal(&child, "-TERM");
    let (run, _) = finish_within(child, since, Duration::from_secs(2), "expire --sleep 30s");
    assert_eq!(run.code, 130, "{}", run.stderr);
    let summary = &run.json()["runs"][0];
    assert_eq!(summary["rows_deleted"], 1, "{summary}");
    assert_eq!(summary["stopped"], "interrupted", "{summary}");
    // The signal came during the sleep, not before it began (then the
    // sleep would not have been tested): the run had slept a while.
    let slept = summary["waited"]["sleep_seconds"].as_f64().unwrap();
    assert!((0.1..2.0).contains(&slept), "{summary}");
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
    // Batch 2 (ids 3 and 4) starts, and stops in the trigger on id 4: the
    // server shows the DELETE sleeping there before the signal is sent (on
    // SQLite, the process runs the trigger's count, which takes minutes).
    crate::common::wait_for(&format!("{p}.waiting.2"));
    std::fs::write(format!("{p}.2"), b"").unwrap();
    let pid = child.id();
    crate::common::wait_until_in_trigger(db, pid);
    let since = Instant::now();
    signal(&child, "-TERM");
    let (run, _) = finish_within(child, since, Duration::from_secs(2), "expire mid-batch");
    assert_eq!(run.code, 130, "{}", run.stderr);
    let summary = &run.json()["runs"][0];
    assert_eq!(summary["rows_deleted"], 2, "{summary}");
    assert_eq!(summary["stopped"], "interrupted", "{summary}");
    assert_eq!(event_ids(db), vec![3, 4, 5, 6], "batch 2 rolled back whole");
    crate::common::wait_until_out_of_trigger(db, pid, "the batch still runs on the server");
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

/// Ends every idemctl session on the test database, as an administrator
/// would; with `waiting`, only those waiting on a lock.
fn kill_sessions(db: &TestDb, waiting: bool) -> usize {
    let admin = TestDb::admin(db.engine);
    match db.engine {
        Engine::Postgres => admin
            .column(&format!(
                "SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity
                 WHERE application_name LIKE 'idemctl%' AND datname = '{}' AND ({} OR wait_event_type = 'Lock')",
                db.name, !waiting
            ))
            .len(),
        Engine::MySql => {
            let ids = admin.column(&format!(
                "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = '{}' AND ID <> CONNECTION_ID()
                 AND ({} OR STATE LIKE '%metadata lock%')",
                db.name,
                if waiting { "FALSE" } else { "TRUE" }
            ));
            for id in ids.iter().flatten() {
                admin.exec(&format!("KILL {id}"));
            }
            ids.len()
        }
        Engine::Sqlite => unreachable!("SQLite has no sessions to kill"),
    }
}

macro_rules! on_servers {
    ($($name:ident),* $(,)?) => {
        mod postgres_server {
            $( #[test] fn $name() { if let Some(db) = $crate::common::TestDb::new($crate::common::Engine::Postgres) { super::$name(&db) } } )*
        }
        mod mysql_server {
            $( #[test] fn $name() { if let Some(db) = $crate::common::TestDb::new($crate::common::Engine::MySql) { super::$name(&db) } } )*
        }
    };
}

on_servers!(
    a_killed_session_ends_a_read_in_one_line,
    a_killed_writer_reconnects_once_and_finishes,
    a_second_loss_stops_the_writer_and_a_rerun_finishes,
    a_killed_reaper_reconnects_and_finishes,
    a_row_held_by_a_live_transaction_is_named_as_such,
    a_row_released_in_time_is_waited_out_by_retries,
);

/// The session killed while a read waits: exit 2, one line saying the
/// connection was lost (and, on PostgreSQL, the server's reason).
fn a_killed_session_ends_a_read_in_one_line(db: &TestDb) {
    tables(db);
    let (take, release) = exclusive_lock(db);
    db.while_session(take, release, || {
        let children: Vec<(String, Child)> = [vec!["scan", "--table", "orders"], vec!["stuck"], vec!["size"]]
            .iter()
            .map(|args| (args.join(" "), spawn(&db.url, &[&args[..], &["--lock-timeout", "60s"]].concat(), &[])))
            .collect();
        wait_for_waiters(db, &children.iter().map(|(_, c)| c).collect::<Vec<_>>());
        let since = Instant::now();
        assert!(kill_sessions(db, true) >= children.len());
        for (what, child) in children {
            let (run, _) = finish_within(child, since, Duration::from_secs(2), &what);
            assert_eq!(run.code, 2, "{what}: {}", run.stderr);
            let line = one_line(&run);
            let host = crate::common::host_port(&db.url);
            assert!(line.contains(&format!("lost the connection to {host}")), "{what}: {line}");
            if db.engine == Engine::Postgres {
                assert!(line.contains("terminating connection due to administrator command"), "{what}: {line}");
            }
            assert!(!line.contains("expected to read"), "{what}: {line}");
        }
    });
}

/// Starts `expire --batch-size 2` on 8 events, paused before each batch.
fn paused_expire(db: &TestDb, pause: &std::path::Path) -> Child {
    spawn(
        &db.url,
        &[&EXPIRE_EVENTS[..], &["--batch-size", "2", "--format", "json"]].concat(),
        &[("IDEMCTL_TEST_PAUSE_BEFORE_BATCH", pause.to_str().unwrap())],
    )
}

fn release(pause: &std::path::Path, n: u64) {
    std::fs::write(format!("{}.{n}", pause.display()), b"").unwrap();
}

fn wait_before(pause: &std::path::Path, n: u64) {
    crate::common::wait_for(&format!("{}.waiting.{n}", pause.display()));
}

/// Waits until `child` pauses before batch `n`; fails with its output if it ends first.
fn paused_before(child: &mut Child, pause: &std::path::Path, n: u64) {
    let flag = format!("{}.waiting.{n}", pause.display());
    let deadline = Instant::now() + Duration::from_secs(20);
    while !std::path::Path::new(&flag).exists() {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            panic!("ended ({status}) before batch {n}: {err}");
        }
        assert!(Instant::now() < deadline, "never paused before batch {n}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The session killed between two batches: the run connects again, takes
/// its lock again, and deletes every expired row; exit 0.
fn a_killed_writer_reconnects_once_and_finishes(db: &TestDb) {
    events(db, 8);
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    release(&pause, 1);
    let child = paused_expire(db, &pause);
    wait_before(&pause, 2);
    assert!(kill_sessions(db, false) >= 1);
    for n in 2..=10 {
        release(&pause, n);
    }
    let (run, _) = finish_within(child, Instant::now(), Duration::from_secs(15), "expire");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("lost the connection") && run.stderr.contains("connecting again"), "{}", run.stderr);
    assert_eq!(run.json()["runs"][0]["rows_deleted"], 8, "{}", run.stdout);
    assert_eq!(event_ids(db), Vec::<i64>::new());
}

/// Killed twice: the run stops with the summary and one line saying what was
/// done; a rerun deletes exactly the rest.
fn a_second_loss_stops_the_writer_and_a_rerun_finishes(db: &TestDb) {
    events(db, 8);
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    release(&pause, 1);
    let child = paused_expire(db, &pause);
    wait_before(&pause, 2);
    kill_sessions(db, false);
    release(&pause, 2);
    wait_before(&pause, 3);
    kill_sessions(db, false);
    release(&pause, 3);
    let (run, _) = finish_within(child, Instant::now(), Duration::from_secs(15), "expire");
    assert_eq!(run.code, 2, "{}", run.stderr);
    let last = run.stderr.lines().last().unwrap();
    assert!(
        last.starts_with("idemctl: expire stopped: the 4 rows deleted before it stay deleted, and a rerun goes on from there: lost the connection to"),
        "{last}"
    );
    let summary = &run.json()["runs"][0];
    assert_eq!((summary["rows_deleted"].as_u64(), summary["stopped"].as_str()), (Some(4), Some("error")), "{summary}");
    assert_eq!(event_ids(db), vec![5, 6, 7, 8]);
    let rerun = crate::common::run(db.idemctl(&[&EXPIRE_EVENTS[..], &["--format", "json"]].concat()));
    assert_eq!(rerun.code, 0, "{}", rerun.stderr);
    assert_eq!(rerun.json()["runs"][0]["rows_deleted"], 4);
    assert_eq!(event_ids(db), Vec::<i64>::new());
}

/// reap's session killed between batches: it connects again and resolves
/// the rest, each key once.
fn a_killed_reaper_reconnects_and_finishes(db: &TestDb) {
    key_table(db);
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    release(&pause, 1);
    let child = spawn(
        &db.url,
        &["reap", "--batch-size", "1", "--max-duration", "30s", "--format", "csv"],
        &[("IDEMCTL_TEST_PAUSE_BEFORE_BATCH", pause.to_str().unwrap())],
    );
    wait_before(&pause, 2);
    kill_sessions(db, false);
    for n in 2..=10 {
        release(&pause, n);
    }
    let (run, _) = finish_within(child, Instant::now(), Duration::from_secs(15), "reap");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("connecting again"), "{}", run.stderr);
    let released: Vec<String> = crate::common::csv_records(&run.stdout)
        .into_iter()
        .skip(1)
        .filter(|r| r.iter().any(|c| c == "released"))
        .map(|r| r[2].clone())
        .collect();
    assert_eq!(released, ["k-nolock", "k-ord-6m", "k-ord-4m", "k-pay-old"], "{}", run.stdout);
    let key = db.ident("key");
    assert_eq!(
        db.column(&format!("SELECT {key} FROM idempotency_keys WHERE status = 'in_progress' ORDER BY {key}")),
        vec![Some("k-pay-new".to_string())]
    );
}

/// Runs a program, failing the test with its output when it fails.
fn sh(program: &str, args: &[&str]) {
    let out = Command::new(program).args(args).output().unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A certificate authority of the test's own, and (with `server`) a server
/// certificate it signed for 127.0.0.1: `ca.pem`, `server.pem`, `server-key.pem`.
fn certificates(dir: &std::path::Path, server: bool) {
    let p = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let args = self_signed("/CN=idemctl test CA", &[], &p("ca-key.pem"), &p("ca.pem"));
    sh("openssl", &args.iter().map(String::as_str).collect::<Vec<_>>());
    if server {
        std::fs::write(p("ext.cnf"), "subjectAltName = IP:127.0.0.1, DNS:localhost\n").unwrap();
        sh(
            "openssl",
            &[
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                "/CN=127.0.0.1",
                "-keyout",
                &p("server-key.pem"),
                "-out",
                &p("server.csr"),
            ],
        );
        sh(
            "openssl",
            &[
                "x509",
                "-req",
                "-in",
                &p("server.csr"),
                "-CA",
                &p("ca.pem"),
                "-CAkey",
                &p("ca-key.pem"),
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                &p("ext.cnf"),
                "-out",
                &p("server.pem"),
            ],
        );
    }
}

/// `openssl` arguments for a self-signed certificate (a CA, as `req -x509`
/// makes it), valid two days, with `-addext` extensions.
fn self_signed(subject: &str, extensions: &[&str], key: &str, out: &str) -> Vec<String> {
    let mut args: Vec<String> =
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", subject].map(String::from).into();
    for ext in extensions {
        args.extend(["-addext".to_string(), ext.to_string()]);
    }
    args.extend(["-keyout", key, "-out", out].map(String::from));
    args
}

fn with_param(url: &str, param: &str) -> String {
    format!("{url}{}{param}", if url.contains('?') { '&' } else { '?' })
}

/// PostgreSQL over TLS (the shared cluster runs with ssl = on): sslmode=require
/// encrypts the session, as pg_stat_ssl shows; disable does not; verify-full
/// against a root that did not sign the server's certificate fails in one line.
#[test]
fn postgres_tls_from_the_url() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    let admin = TestDb::admin(Engine::Postgres);
    for (mode, encrypted) in [("require", "true"), ("prefer", "true"), ("disable", "false")] {
        db.exec("DROP TABLE IF EXISTS idempotency_keys");
        key_table(&db);
        let dir = tempfile::tempdir().unwrap();
        let pause = dir.path().join("pause");
        let url = with_param(&db.url, &format!("sslmode={mode}"));
        let mut child = spawn(
            &url,
            &["reap", "--max-duration", "30s"],
            &[("IDEMCTL_TEST_PAUSE_BEFORE_BATCH", pause.to_str().unwrap())],
        );
        paused_before(&mut child, &pause, 1);
        let ssl = admin.column(&format!(
            "SELECT s.ssl::text FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
             WHERE a.application_name LIKE 'idemctl%' AND a.datname = '{}'",
            db.name
        ));
        release(&pause, 1);
        for n in 2..=5 {
            release(&pause, n);
        }
        let (run, _) = finish_within(child, Instant::now(), Duration::from_secs(10), mode);
        assert_eq!(run.code, 0, "sslmode={mode}: {}", run.stderr);
        assert!(!ssl.is_empty() && ssl.iter().all(|s| s.as_deref() == Some(encrypted)), "sslmode={mode}: {ssl:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    certificates(dir.path(), false);
    let url = with_param(&db.url, &format!("sslmode=verify-full&sslrootcert={}", dir.path().join("ca.pem").display()));
    let run = run_at(&url, &["stuck"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let line = one_line(&run);
    let shown = db.url.split_once('?').map_or(db.url.as_str(), |(url, _)| url);
    assert!(line.starts_with(&format!("idemctl: cannot connect to {shown}")), "{line}");
    assert!(line.contains("certificate") || line.contains("UnknownIssuer"), "{line}");
}

/// A role that may only read: scan, stuck, size and doctor work; reap and
/// expire name the privilege they lack, and change nothing.
#[test]
fn a_role_that_may_only_read() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    tables(&db);
    events(&db, 4);
    let role = format!("reader_{}", db.name);
    crate::common::pg_admin(&format!("CREATE ROLE {role} LOGIN"));
    struct DropRole(String);
    impl Drop for DropRole {
        fn drop(&mut self) {
            crate::common::pg_admin(&format!("DROP OWNED BY {0}; DROP ROLE IF EXISTS {0}", self.0));
        }
    }
    db.exec(&format!("GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}"));
    let before = contents(&db);
    let url = crate::common::as_user(&db.url, &role);
    let reader = |args: &[&str]| run_at(&url, args);
    // The reader sees what the owner sees.
    for args in [vec!["scan", "--table", "orders"], vec!["stuck"], vec!["size"], vec!["doctor"]] {
        let (owner, reader) = (what_a_read_saw(&db.url, &args), what_a_read_saw(&url, &args));
        assert_eq!(reader, owner, "{args:?}");
        assert!(owner.0 == 0 || owner.0 == 1, "{args:?}: {owner:?}");
    }
    assert_eq!(what_a_read_saw(&url, &["scan", "--table", "orders"]).1, "3 rows, 1 extra");
    let _ = reader;
    for (args, refusal) in [
        (&["reap"][..], "reap needs UPDATE on public.idempotency_keys"),
        (&["reap", "--action", "delete"][..], "reap needs DELETE on public.idempotency_keys"),
        (&EXPIRE_EVENTS[..], "expire needs DELETE on public.events"),
    ] {
        dry_run_says_the_real_run_refuses(&url, args, refusal);
    }
    assert_eq!(contents(&db), before);
    assert_eq!(event_ids(&db), vec![1, 2, 3, 4]);
    // The database goes before the role that holds grants in it.
    drop(db);
    drop(DropRole(role));
}

/// A MariaDB user that may only read: the dry runs give their plans and say
/// the privilege the real run lacks (asked by explaining its statement),
/// and the real runs refuse with that line before changing anything.
#[test]
fn a_mariadb_user_that_may_only_read() {
    let Some(db) = TestDb::new(Engine::MySql) else { return };
    tables(&db);
    events(&db, 4);
    let user = format!("ro_{}", &db.name[db.name.len().saturating_sub(20)..]);
    db.exec(&format!("CREATE USER '{user}'@'%'; GRANT SELECT ON `{}`.* TO '{user}'@'%'", db.name));
    struct DropUser(String);
    impl Drop for DropUser {
        fn drop(&mut self) {
            TestDb::admin(Engine::MySql).exec(&format!("DROP USER IF EXISTS '{}'@'%'", self.0));
        }
    }
    let _user = DropUser(user.clone());
    let before = contents(&db);
    let url = crate::common::as_user(&db.url, &user);
    for (args, refusal) in [
        (&["reap"][..], format!("reap needs UPDATE on {}.idempotency_keys", db.name)),
        (&["reap", "--action", "delete"][..], format!("reap needs DELETE on {}.idempotency_keys", db.name)),
        (&EXPIRE_EVENTS[..], format!("expire needs DELETE on {}.events", db.name)),
    ] {
        dry_run_says_the_real_run_refuses(&url, args, &refusal);
    }
    assert_eq!(contents(&db), before);
    assert_eq!(event_ids(&db), vec![1, 2, 3, 4]);
}

/// Servers of this test binary's own, started once and stopped (their data
/// directories removed) when the binary ends: a PostgreSQL primary with a
/// hot standby, and a MariaDB server with TLS.
mod private {
    use std::path::{Path, PathBuf};
    use std::process::{Command, Stdio};
    use std::sync::OnceLock;
    use std::time::{Duration, Instant};

    /// The binaries of the server under test's major version.
    fn pg_bin() -> &'static str {
        static BIN: OnceLock<String> = OnceLock::new();
        BIN.get_or_init(crate::common::pg_bin)
    }

    pub struct PgPair {
        /// Base URLs (the `postgres` database) of the primary and the standby.
        pub primary: String,
        pub standby: String,
        /// The primary's certificate: self-signed, CA:TRUE.
        pub self_signed: PathBuf,
    }

    /// A MariaDB primary with binary logging and a replica of its own (GTID).
    pub struct MariaPair {
        /// Base URLs (the `mysql` database) for root on each.
        pub primary: String,
        pub replica: String,
    }

    pub struct Maria {
        /// Base URL for root, over the network.
        pub root: String,
        pub port: u16,
        /// Where the certificates are: ca.pem signed the server's.
        pub dir: PathBuf,
    }

    /// A server that cannot start fails the test under CI; elsewhere the test is skipped, loudly.
    fn unavailable<T>(what: &str, err: String) -> Option<T> {
        if std::env::var_os("CI").is_some() {
            panic!("cannot start {what} and CI is set: {err}");
        }
        eprintln!("\n*** SKIPPED: cannot start {what} ({err}); set CI=1 to make this a failure ***\n");
        None
    }

    /// The server(s) `start` starts, once per test binary.
    fn started<T>(
        cell: &'static OnceLock<Result<T, String>>,
        start: fn() -> Result<T, String>,
        what: &str,
    ) -> Option<&'static T> {
        match cell.get_or_init(start) {
            Ok(servers) => Some(servers),
            Err(e) => unavailable(what, e.clone()),
        }
    }

    /// A directory of its own under the temp dir, kept after the test (a
    /// clean-up watcher removes it).
    fn kept_dir(prefix: &str) -> Result<PathBuf, String> {
        Ok(tempfile::Builder::new().prefix(prefix).tempdir().map_err(|e| e.to_string())?.keep())
    }

    fn spare_port() -> u16 {
        std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
    }

    fn run(program: &str, args: &[&str]) -> Result<(), String> {
        let out = Command::new(program).args(args).output().map_err(|e| format!("{program}: {e}"))?;
        if out.status.success() {
            return Ok(());
        }
        Err(format!(
            "{program} {}: {}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }

    fn as_postgres(program: &str, args: &[&str]) -> Result<(), String> {
        let path = format!("{}/{program}", pg_bin());
        run("runuser", &[&["-u", "postgres", "--", path.as_str()][..], args].concat())
    }

    /// Stops what `stop` says and removes `dir` once this process has ended.
    fn clean_up_after_exit(dir: &Path, stop: &str) {
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; {stop}; rm -rf '{dir}'",
            pid = std::process::id(),
            dir = dir.display()
        );
        // In the background of a shell that ends at once (so nothing is left to wait for).
        let status = Command::new("sh")
            .args(["-c", &format!("({script}) </dev/null >/dev/null 2>&1 &")])
            .status()
            .expect("the clean-up watcher starts");
        assert!(status.success());
    }

    pub fn pg_pair() -> Option<&'static PgPair> {
        static PAIR: OnceLock<Result<PgPair, String>> = OnceLock::new();
        started(&PAIR, start_pg_pair, "a private PostgreSQL primary and standby")
    }

    fn start_pg_pair() -> Result<PgPair, String> {
        let base = kept_dir("idemctl-pg-")?;
        let at = |name: &str| base.join(name).display().to_string();
        run("chown", &["postgres:postgres", &at("")])?;
        let (p1, p2) = (spare_port(), spare_port());
        let stop = format!(
            "runuser -u postgres -- {bin}/pg_ctl -D '{}' stop -m immediate; \
             runuser -u postgres -- {bin}/pg_ctl -D '{}' stop -m immediate",
            at("standby"),
            at("primary"),
            bin = pg_bin(),
        );
        clean_up_after_exit(&base, &stop);
        as_postgres("initdb", &["-D", &at("primary"), "--auth=trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])?;
        // The primary serves TLS with a self-signed certificate that is its
        // own CA (CA:TRUE), as `openssl req -x509` makes one and psql accepts.
        let extensions = ["subjectAltName=IP:127.0.0.1", "basicConstraints=critical,CA:TRUE"];
        let args = super::self_signed("/CN=127.0.0.1", &extensions, &at("self-key.pem"), &at("self.pem"));
        run("openssl", &args.iter().map(String::as_str).collect::<Vec<_>>())?;
        run("chown", &["postgres:postgres", &at("self-key.pem"), &at("self.pem")])?;
        run("chmod", &["600", &at("self-key.pem")])?;
        let options = |port: u16, ssl: &str| {
            format!(
                "-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={} -c fsync=off \
                 -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on {ssl} \
                 -c max_standby_streaming_delay=200ms",
                base.display()
            )
        };
        let tls = format!("-c ssl=on -c ssl_cert_file={} -c ssl_key_file={}", at("self.pem"), at("self-key.pem"));
        as_postgres(
            "pg_ctl",
            &["-D", &at("primary"), "-l", &at("primary.log"), "-w", "-t", "60", "-o", &options(p1, &tls), "start"],
        )?;
        as_postgres(
            "pg_basebackup",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &p1.to_string(),
                "-U",
                "postgres",
                "-D",
                &at("standby"),
                "-R",
                "-X",
                "stream",
                "-N",
            ],
        )?;
        as_postgres(
            "pg_ctl",
            &[
                "-D",
                &at("standby"),
                "-l",
                &at("standby.log"),
                "-w",
                "-t",
                "60",
                "-o",
                &options(p2, "-c ssl=off"),
                "start",
            ],
        )?;
        Ok(PgPair {
            primary: format!("postgres://postgres@127.0.0.1:{p1}/postgres"),
            standby: format!("postgres://postgres@127.0.0.1:{p2}/postgres"),
            self_signed: base.join("self.pem"),
        })
    }

    pub fn maria_pair() -> Option<&'static MariaPair> {
        static PAIR: OnceLock<Result<MariaPair, String>> = OnceLock::new();
        started(&PAIR, start_maria_pair, "a private MariaDB primary and replica")
    }

    /// Starts mariadbd on a fresh data directory under `dir`; its root URL
    /// once it answers.
    fn start_mariadbd(dir: &Path, extra: &[String]) -> Result<String, String> {
        let at = |name: &str| dir.join(name).display().to_string();
        // A tmpdir of its own, for the install's bootstrap server as for the
        // server: mariadbd deletes the `#sql*` files it finds in its tmpdir
        // as it starts, and in the shared /tmp those are the shared server's
        // live temporary tables (one deleted under an information_schema
        // read crashes it, and every MariaDB test after fails).
        std::fs::create_dir_all(at("tmp")).map_err(|e| e.to_string())?;
        run(
            "mariadb-install-db",
            &[
                "--no-defaults",
                &format!("--datadir={}", at("data")),
                &format!("--tmpdir={}", at("tmp")),
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
                "--user=root",
            ],
        )?;
        let port = spare_port();
        let server = Command::new("/usr/sbin/mariadbd")
            .args([
                "--no-defaults".to_string(),
                format!("--datadir={}", at("data")),
                format!("--port={port}"),
                "--bind-address=127.0.0.1".to_string(),
                format!("--socket={}", at("mysqld.sock")),
                format!("--pid-file={}", at("mysqld.pid")),
                format!("--log-error={}", at("error.log")),
                format!("--tmpdir={}", at("tmp")),
                "--user=root".to_string(),
                "--skip-name-resolve".to_string(),
                "--innodb-buffer-pool-size=32M".to_string(),
            ])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        clean_up_after_exit(dir, &format!("kill -9 {}", server.id()));
        let root = format!("mysql://root@127.0.0.1:{port}/mysql");
        let deadline = Instant::now() + Duration::from_secs(60);
        while let Err(e) = super::sql_at(&root, "SELECT 1") {
            if Instant::now() > deadline {
                let log = std::fs::read_to_string(at("error.log")).unwrap_or_default();
                return Err(format!("{e}: {log}"));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Ok(root)
    }

    fn port_of(url: &str) -> u16 {
        url.rsplit(':').next().and_then(|p| p.split('/').next()).and_then(|p| p.parse().ok()).unwrap_or(0)
    }

    fn start_maria_pair() -> Result<MariaPair, String> {
        let base = kept_dir("idemctl-maria-pair-")?;
        let logged = |id: u32| {
            vec![
                format!("--server-id={id}"),
                format!("--log-bin={}/binlog-{id}", base.display()),
                "--binlog-format=ROW".into(),
            ]
        };
        clean_up_after_exit(&base, "true");
        std::fs::create_dir_all(base.join("primary")).map_err(|e| e.to_string())?;
        std::fs::create_dir_all(base.join("replica")).map_err(|e| e.to_string())?;
        let primary = start_mariadbd(&base.join("primary"), &logged(1))?;
        let replica = start_mariadbd(&base.join("replica"), &logged(2))?;
        let port = port_of(&primary);
        super::sql_at(
            &replica,
            &format!(
                "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT={port}, MASTER_USER='root', \
                 MASTER_USE_GTID=slave_pos; START SLAVE"
            ),
        )?;
        Ok(MariaPair { primary, replica })
    }

    /// Starts one more private MariaDB server, of its own, and gives its root URL.
    pub fn one_more_mariadb() -> Option<String> {
        let started = kept_dir("idemctl-maria-one-").and_then(|base| {
            clean_up_after_exit(&base, "true");
            start_mariadbd(&base, &[])
        });
        started.or_else(|e| unavailable("a private MariaDB server", e).ok_or(())).ok()
    }

    /// Starts one more private MariaDB server serving the certificate made
    /// by `certificates` in a directory of its own, and gives its root URL
    /// and that directory.
    pub fn one_more_mariadb_tls(make: impl FnOnce(&Path) -> Result<(), String>) -> Option<(String, PathBuf)> {
        let started = kept_dir("idemctl-maria-tls-").and_then(|base| {
            clean_up_after_exit(&base, "true");
            make(&base)?;
            let at = |name: &str| base.join(name).display().to_string();
            let root = start_mariadbd(
                &base,
                &[
                    format!("--ssl-ca={}", at("ca.pem")),
                    format!("--ssl-cert={}", at("server.pem")),
                    format!("--ssl-key={}", at("server-key.pem")),
                ],
            )?;
            Ok((root, base))
        });
        started.or_else(|e| unavailable("a private MariaDB server with TLS", e).ok_or(())).ok()
    }

    pub fn mariadb_tls() -> Option<&'static Maria> {
        static MARIA: OnceLock<Result<Maria, String>> = OnceLock::new();
        started(&MARIA, start_mariadb_tls, "a private MariaDB server with TLS")
    }

    fn start_mariadb_tls() -> Result<Maria, String> {
        let base = kept_dir("idemctl-maria-")?;
        let at = |name: &str| base.join(name).display().to_string();
        super::certificates(&base, true);
        let root = start_mariadbd(
            &base,
            &[
                format!("--ssl-ca={}", at("ca.pem")),
                format!("--ssl-cert={}", at("server.pem")),
                format!("--ssl-key={}", at("server-key.pem")),
            ],
        )?;
        super::sql_at(&root, "CREATE USER 'tls'@'%' REQUIRE SSL; GRANT ALL ON *.* TO 'tls'@'%'")?;
        let port = port_of(&root);
        Ok(Maria { root, port, dir: base })
    }
}

/// Signs the server's request in `dir` again with the CA there (as
/// `certificates` made them), valid from `start` to `end` (`YYYYMMDDHHMMSSZ`),
/// through `openssl ca`, which takes dates in the past and the future.
fn dated(dir: &std::path::Path, start: &str, end: &str) {
    let p = |f: &str| dir.join(f).to_str().unwrap().to_string();
    std::fs::write(p("index.txt"), "").unwrap();
    std::fs::write(p("serial"), "1000\n").unwrap();
    std::fs::write(
        p("ca.cnf"),
        format!(
            "[ca]\ndefault_ca = here\n[here]\ndatabase = {}\nnew_certs_dir = {}\nserial = {}\ndefault_md = \
             sha256\npolicy = any\nunique_subject = no\n[any]\ncommonName = supplied\n",
            p("index.txt"),
            dir.display(),
            p("serial")
        ),
    )
    .unwrap();
    sh(
        "openssl",
        &[
            "ca",
            "-batch",
            "-notext",
            "-config",
            &p("ca.cnf"),
            "-cert",
            &p("ca.pem"),
            "-keyfile",
            &p("ca-key.pem"),
            "-in",
            &p("server.csr"),
            "-extfile",
            &p("ext.cnf"),
            "-startdate",
            start,
            "-enddate",
            end,
            "-out",
            &p("server.pem"),
        ],
    );
}

/// A server certificate out of its dates, expired or not valid yet, is
/// refused in a sentence (exit 2), as the production guide says, not in
/// rustls's spelling; the same server with a certificate in its dates serves.
#[test]
fn a_certificate_out_of_its_dates_is_said() {
    let make = |dir: &std::path::Path| {
        certificates(dir, true);
        dated(dir, "20200101000000Z", "20200102000000Z");
        Ok(())
    };
    let Some((root, dir)) = private::one_more_mariadb_tls(make) else { return };
    let url = with_param(&root, &format!("ssl-mode=verify_ca&ssl-ca={}", dir.join("ca.pem").display()));
    let expired = run_at(&url, &["stuck", "--table", "no_such_table"]);
    assert_eq!(expired.code, 2, "{}", expired.stderr);
    let line = one_line(&expired);
    assert!(line.contains("the server's certificate expired on 2020-01-02 00:00 UTC"), "{line}");
    assert!(!line.contains("(UNIX)") && !line.contains("invalid peer certificate"), "{line}");
    dated(&dir, "20990101000000Z", "20990102000000Z");
    sql_at(&root, "FLUSH SSL").unwrap();
    let early = run_at(&url, &["stuck", "--table", "no_such_table"]);
    assert_eq!(early.code, 2, "{}", early.stderr);
    let line = one_line(&early);
    assert!(
        line.contains("the server's certificate is not valid until 2099-01-01 00:00 UTC (are the clocks right?)"),
        "{line}"
    );
    // In its dates: connected (the table is what is missing).
    dated(&dir, "20200101000000Z", "20990101000000Z");
    sql_at(&root, "FLUSH SSL").unwrap();
    let fine = run_at(&url, &["stuck", "--table", "no_such_table"]);
    assert_eq!(fine.code, 2, "{}", fine.stderr);
    assert!(one_line(&fine).contains("no table \"no_such_table\""), "{}", fine.stderr);
}

/// A server certificate that is its own CA (as `openssl req -x509` makes
/// it, and PostgreSQL's manual shows), given as sslrootcert: psql accepts it
/// and so does idemctl, with verify-full checking the name the certificate
/// holds (127.0.0.1, not localhost) and verify-ca not; given another root,
/// the same certificate is refused in a sentence, not rustls's spelling.
#[test]
fn a_self_signed_ca_certificate_given_as_its_root_is_accepted() {
    let Some(pair) = private::pg_pair() else { return };
    let root = pair.self_signed.display().to_string();
    let port = crate::common::host_port(&pair.primary).rsplit_once(':').unwrap().1.to_string();
    let psql = |host: &str, mode: &str| {
        let out = Command::new("psql")
            .args(["-X", "-At", "-c", "SELECT 1"])
            .arg(format!("host={host} port={port} user=postgres dbname=postgres sslmode={mode} sslrootcert={root}"))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    };
    let at = |host: &str, params: &str| {
        let url = pair.primary.replacen("127.0.0.1", host, 1);
        with_param(&url, params)
    };
    let connected = "idemctl: no table \"no_such_table\" in schema \"public\"";
    for (host, mode, accepted) in
        [("127.0.0.1", "verify-full", true), ("localhost", "verify-full", false), ("localhost", "verify-ca", true)]
    {
        assert_eq!(psql(host, mode), accepted, "psql {host} {mode}");
        let run =
            run_at(&at(host, &format!("sslmode={mode}&sslrootcert={root}")), &["stuck", "--table", "no_such_table"]);
        let line = one_line(&run);
        assert_eq!(run.code, 2, "{line}");
        if accepted {
            assert_eq!(line, connected, "{host} {mode}");
        } else {
            assert!(line.contains("connect by a name the certificate holds"), "{host} {mode}: {line}");
        }
    }
    // Another root: the CA certificate is not one the client trusts.
    let other = pair.self_signed.with_file_name("other.pem");
    let key = pair.self_signed.with_file_name("other-key.pem");
    let args = self_signed("/CN=another CA", &[], key.to_str().unwrap(), other.to_str().unwrap());
    sh("openssl", &args.iter().map(String::as_str).collect::<Vec<_>>());
    let url = at("127.0.0.1", &format!("sslmode=verify-full&sslrootcert={}", other.display()));
    let run = run_at(&url, &["stuck"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let line = one_line(&run);
    assert!(
        line.contains("the server's certificate is itself a certificate authority (basicConstraints CA:TRUE)"),
        "{line}"
    );
    assert!(line.contains("give that certificate as sslrootcert"), "{line}");
    assert!(!line.contains("OtherError") && !line.contains("CaUsedAsEndEntity"), "{line}");
}

/// A hot standby: scan, stuck, size and doctor (and the dry runs) work on
/// it; reap and expire refuse before doing anything.
#[test]
fn a_hot_standby_serves_reads_and_refuses_writes() {
    let Some(pair) = private::pg_pair() else { return };
    let Some(primary) = TestDb::on_server(Engine::Postgres, &pair.primary) else { return };
    tables(&primary);
    events(&primary, 4);
    let before = contents(&primary);
    let on_standby =
        primary.url.replacen(pair.primary.trim_end_matches("/postgres"), pair.standby.trim_end_matches("/postgres"), 1);
    // Replay reaches the standby: the last table made, with its rows.
    poll("the standby never had the tables", Duration::from_secs(30), Duration::from_millis(200), || {
        run_at(&on_standby, &["size", "--table", "events", "--created-at-column", "created_at"]).code == 0
    });
    // The standby sees what the primary sees.
    for args in [vec!["scan", "--table", "orders"], vec!["stuck"], vec!["size"], vec!["doctor"]] {
        let (primary_saw, standby_saw) = (what_a_read_saw(&primary.url, &args), what_a_read_saw(&on_standby, &args));
        assert_eq!(standby_saw, primary_saw, "{args:?} on the standby");
        assert!(primary_saw.0 == 0 || primary_saw.0 == 1, "{args:?}: {primary_saw:?}");
    }
    assert_eq!(what_a_read_saw(&on_standby, &["scan", "--table", "orders"]).1, "3 rows, 1 extra");
    let port = pair.standby.trim_start_matches("postgres://postgres@127.0.0.1:").trim_end_matches("/postgres");
    for (args, command) in [(&["reap"][..], "reap"), (&EXPIRE_EVENTS[..], "expire")] {
        let refusal = format!(
            "127.0.0.1:{port} is a read-only replica: {command} changes rows, so point it at the primary (scan, \
             stuck, size and doctor run on a replica)"
        );
        dry_run_says_the_real_run_refuses(&on_standby, args, &refusal);
    }
    assert_eq!(contents(&primary), before);
    assert_eq!(event_ids(&primary), vec![1, 2, 3, 4]);
}

/// MariaDB over TLS (a server of the test's own with a certificate the test
/// made): for a user the server lets in only over TLS, `ssl-mode=required`
/// and `verify_identity` against the right CA connect, `disabled` does not;
/// a server with read_only on is refused by the writing commands.
#[test]
fn mariadb_tls_from_the_url() {
    let Some(maria) = private::mariadb_tls() else { return };
    let Some(db) = TestDb::on_server(Engine::MySql, &maria.root) else { return };
    key_table(&db);
    events(&db, 4);
    let tls_user = crate::common::as_user(&db.url, "tls");
    let ca = maria.dir.join("ca.pem");
    for params in ["ssl-mode=required".to_string(), format!("ssl-mode=verify_identity&ssl-ca={}", ca.display())] {
        let run = run_at(&with_param(&tls_user, &params), &["stuck"]);
        assert_eq!(run.code, 1, "{params}: {}", run.stderr);
    }
    let plain = run_at(&with_param(&tls_user, "ssl-mode=disabled"), &["stuck"]);
    assert_eq!(plain.code, 2, "{}", plain.stderr);
    let line = one_line(&plain);
    assert!(line.starts_with(&format!("idemctl: cannot connect to mysql://tls@127.0.0.1:{}/", maria.port)), "{line}");
    assert!(line.contains("Access denied"), "{line}");
    // A CA that did not sign the server's certificate.
    let other = tempfile::tempdir().unwrap();
    certificates(other.path(), false);
    let wrong = run_at(
        &with_param(&tls_user, &format!("ssl-mode=verify_ca&ssl-ca={}", other.path().join("ca.pem").display())),
        &["stuck"],
    );
    assert_eq!(wrong.code, 2, "{}", wrong.stderr);
    assert!(one_line(&wrong).contains("certificate") || wrong.stderr.contains("UnknownIssuer"), "{}", wrong.stderr);

    // A replica: read_only on.
    db.exec("SET GLOBAL read_only = 1");
    let reap = run_at(&db.url, &["reap"]);
    let expire = run_at(&db.url, &EXPIRE_EVENTS);
    let stuck = run_at(&db.url, &["stuck"]);
    db.exec("SET GLOBAL read_only = 0");
    for (run, command) in [(reap, "reap"), (expire, "expire")] {
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(one_line(&run).contains(&format!("is a read-only replica: {command} changes rows")), "{}", run.stderr);
    }
    assert_eq!(stuck.code, 1, "{}", stuck.stderr);
    assert_eq!(event_ids(&db), vec![1, 2, 3, 4]);
}

/// A read slower than --statement-timeout is canceled at the limit, in one line.
fn a_statement_timeout_bounds_a_read(db: &TestDb) {
    events(db, 4);
    let slow = match db.engine {
        Engine::Postgres => "pg_sleep(5) IS NOT NULL",
        Engine::MySql => "SLEEP(5) = 0",
        Engine::Sqlite => {
            "(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) \
             SELECT count(*) FROM c) > 0"
        }
    };
    let since = Instant::now();
    let child = spawn(
        &db.url,
        &[&EXPIRE_EVENTS[..], &["--dry-run", "--statement-timeout", "1s", "--where", slow]].concat(),
        &[],
    );
    let (run, took) = finish_within(child, since, Duration::from_secs(3), "expire --dry-run");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(one_line(&run), "idemctl: a statement ran past the statement timeout of 1s (--statement-timeout)");
    assert!(took >= Duration::from_millis(900), "{took:?}");
    // The real run, on a copy, ends alike, having deleted nothing.
    let copy = db.copy();
    let since = Instant::now();
    let child = spawn(&copy.url, &[&EXPIRE_EVENTS[..], &["--statement-timeout", "1s", "--where", slow]].concat(), &[]);
    let (real, _) = finish_within(child, since, Duration::from_secs(3), "expire");
    assert_eq!(real.code, 2, "{}", real.stderr);
    assert!(one_line(&real).ends_with("a statement ran past the statement timeout of 1s (--statement-timeout)"));
    assert_eq!(event_ids(&copy), [1, 2, 3, 4]);
}

/// Whether the process catches SIGTERM yet (its handler is set from the
/// first line of `main`; before that, while the loader maps the binary, no
/// program can catch a signal).
fn catches_sigterm(child: &Child) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    let caught = status.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim).unwrap_or("0");
    u64::from_str_radix(caught, 16).is_ok_and(|mask| mask & (1 << (15 - 1)) != 0)
}

/// A signal moments after the start (from the moment the process can catch
/// one), during argument parsing, the first connection or the first query:
/// exit 130 with its line, never a death by the signal. Another session
/// holds the tables, so no run can end before its signal: a lost signal
/// would wait out the minute's lock timeout, and fail.
fn a_signal_at_the_start_is_not_lost(db: &TestDb) {
    tables(db);
    let (take, release) = exclusive_lock(db);
    db.while_session(take, release, || {
        for delay in [0, 5, 10, 25, 50, 100] {
            let child = spawn(&db.url, &["stuck", "--lock-timeout", "60s"], &[]);
            poll("the process never set its handler", Duration::from_secs(10), Duration::from_micros(200), || {
                catches_sigterm(&child)
            });
            std::thread::sleep(Duration::from_millis(delay));
            let since = Instant::now();
            signal(&child, "-TERM");
            let (run, _) = finish_within(child, since, Duration::from_secs(2), "stuck");
            assert_eq!(run.code, 130, "after {delay} ms: {}", run.stderr);
            assert_eq!(run.stderr.lines().last(), Some("idemctl: interrupted"), "after {delay} ms");
        }
    });
}

/// On a hot standby, a read that replay must cancel (the primary took an
/// exclusive lock on the table it reads) says so and names the settings.
#[test]
fn a_standby_read_canceled_by_replay_says_why() {
    let Some(pair) = private::pg_pair() else { return };
    let Some(primary) = TestDb::on_server(Engine::Postgres, &pair.primary) else { return };
    tables(&primary);
    let on_standby =
        primary.url.replacen(pair.primary.trim_end_matches("/postgres"), pair.standby.trim_end_matches("/postgres"), 1);
    poll("the standby never had the tables", Duration::from_secs(30), Duration::from_millis(200), || {
        run_at(&on_standby, &["stuck"]).code != 2
    });
    let since = Instant::now();
    let scan = spawn(&on_standby, &["scan", "--table", "orders", "--where", "pg_sleep(2) IS NOT NULL"], &[]);
    // The scan's read is under way on the standby before the primary takes its lock.
    poll("the scan never began reading on the standby", Duration::from_secs(20), Duration::from_millis(20), || {
        pg_scalar::<i64>(&on_standby, "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'") == Some(1)
    });
    primary.exec("BEGIN; LOCK TABLE orders IN ACCESS EXCLUSIVE MODE; COMMIT");
    let (run, _) = finish_within(scan, since, Duration::from_secs(5), "scan on the standby");
    assert_eq!(run.code, 2, "{}", run.stderr);
    let line = one_line(&run);
    assert!(line.contains("the standby canceled the read to replay changes from the primary"), "{line}");
    assert!(line.contains("hot_standby_feedback") && line.contains("max_standby_streaming_delay"), "{line}");
}

/// A live transaction holds one expired row: expire retries its batch, then
/// stops naming rows of the table, the batch's own wait, and (PostgreSQL) the holder.
fn a_row_held_by_a_live_transaction_is_named_as_such(db: &TestDb) {
    events(db, 4);
    let (take, release) = match db.engine {
        Engine::Postgres => ("BEGIN; SELECT id FROM events WHERE id = 3 FOR UPDATE", "ROLLBACK"),
        _ => ("BEGIN; SELECT id FROM events WHERE id = 3 FOR UPDATE", "ROLLBACK"),
    };
    let run = db.while_session(take, release, || {
        run_at(&db.url, &[&EXPIRE_EVENTS[..], &["--batch-size", "10", "--format", "json"]].concat())
    });
    assert_eq!(run.code, 2, "{}", run.stderr);
    let last = run.stderr.lines().last().unwrap();
    assert!(last.starts_with("idemctl: expire stopped after "), "{last}");
    assert!(last.contains("another session holds a lock on rows of "), "{last}");
    assert!(last.contains("a batch waits at most 1s)"), "{last}");
    if db.engine == Engine::Postgres {
        assert!(
            last.contains("held by pid ") && last.contains("idle in transaction: BEGIN; SELECT id FROM events"),
            "{last}"
        );
    }
    assert_eq!(run.json()["runs"][0]["stopped"], "error");
    assert_eq!(event_ids(db), vec![1, 2, 3, 4], "the batch rolled back");
}

/// A live transaction holds one expired row until the batch has waited on
/// it for 1.5 s: the batch's first wait (1 s) ends, it is tried again after
/// 0.5 s, and the second attempt gets the row once it is released: every
/// row deleted, exit 0. (Without retries the first wait's end is exit 2.)
fn a_row_released_in_time_is_waited_out_by_retries(db: &TestDb) {
    events(db, 4);
    let started = Instant::now();
    let child = db.while_session("BEGIN; SELECT id FROM events WHERE id = 3 FOR UPDATE", "ROLLBACK", || {
        let child = spawn(&db.url, &[&EXPIRE_EVENTS[..], &["--batch-size", "10", "--format", "json"]].concat(), &[]);
        // The server shows the batch waiting on the row; then the hold
        // outlasts the batch's 1 s wait (a set duration: what is tested).
        // (Each look 250 ms apart: InnoDB refreshes what INNODB_TRX shows
        // only when it was last read over 0.1 s before.)
        poll("the batch never waited on the row", Duration::from_secs(20), Duration::from_millis(250), || {
            waiting_on_lock(db) >= 1
        });
        std::thread::sleep(Duration::from_millis(1500));
        child
    });
    let (run, took) = finish_within(child, started, Duration::from_secs(25), "expire");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["runs"][0]["rows_deleted"], 4, "{}", run.stdout);
    assert_eq!(event_ids(db), Vec::<i64>::new());
    assert!(took >= Duration::from_millis(1500), "the run never waited: {took:?}");
}

/// An ALTER TABLE queued behind an idle transaction: a read that waits on
/// it names both.
#[test]
fn a_queued_alter_and_the_transaction_it_waits_for_are_named() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    tables(&db);
    let url = db.url.clone();
    db.while_session("BEGIN; SELECT count(*) FROM idempotency_keys", "ROLLBACK", || {
        let alter = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async {
                use sqlx::Connection;
                let mut c = sqlx::PgConnection::connect(&url).await.unwrap();
                sqlx::raw_sql("ALTER TABLE idempotency_keys ADD COLUMN note text").execute(&mut c).await.unwrap();
            });
        });
        let admin = TestDb::admin(Engine::Postgres);
        let queued = format!(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '{}' AND query LIKE 'ALTER TABLE%' AND \
             wait_event_type = 'Lock'",
            db.name
        );
        poll("the ALTER never queued", Duration::from_secs(20), Duration::from_millis(50), || {
            admin.column(&queued)[0].as_deref() == Some("1")
        });
        let run = run_at(&db.url, &["stuck", "--lock-timeout", "1s"]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        let line = one_line(&run);
        assert!(line.contains("active: ALTER TABLE idempotency_keys ADD COLUMN note text"), "{line}");
        assert!(
            line.contains("itself waiting for pid ") && line.contains("idle in transaction: BEGIN; SELECT count(*)"),
            "{line}"
        );
        alter
    })
    .join()
    .unwrap();
}

/// A proxy that forwards the first connection to `target` and swallows every
/// later one: the network fails between idemctl and the server mid-run.
/// Its port, and how many connections it has swallowed (a cancel's).
fn half_open_proxy(target: &'static str) -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let cancels = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = cancels.clone();
    std::thread::spawn(move || {
        let mut swallowed = Vec::new();
        for (i, client) in listener.incoming().enumerate() {
            let Ok(client) = client else { continue };
            if i > 0 {
                swallowed.push(client);
                counted.fetch_add(1, Ordering::SeqCst);
                continue;
            }
            let server = std::net::TcpStream::connect(target).unwrap();
            let (mut c2, mut s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || std::io::copy(&mut c2, &mut s2));
            let (mut c3, mut s3) = (client, server);
            std::thread::spawn(move || std::io::copy(&mut s3, &mut c3));
        }
    });
    (port, cancels)
}

/// When the cancel cannot reach the server, the run still ends in 2 s, and
/// says the statement may still run there and how to end it: the dry run's
/// count, and the real run's delete on a copy, which keeps every row once
/// the statement is ended.
#[test]
fn a_cancel_that_cannot_reach_the_server_is_said() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    events(&db, 2);
    let copy = db.copy();
    let admin = TestDb::admin(Engine::Postgres);
    for (on, dry_run) in [(&db, true), (&copy, false)] {
        let (port, _) = half_open_proxy(crate::common::server_addr(&on.url).leak());
        let url = with_param(&crate::common::at_server(&on.url, &format!("127.0.0.1:{port}")), "sslmode=disable");
        let slow = [&EXPIRE_EVENTS[..], &["--where", "pg_sleep(30) IS NOT NULL"]].concat();
        let args = [&slow[..], if dry_run { &["--dry-run"][..] } else { &[] }].concat();
        let child = spawn(&url, &args, &[]);
        let sleeping =
            format!("SELECT pid::text FROM pg_stat_activity WHERE datname = '{}' AND wait_event = 'PgSleep'", on.name);
        poll("the statement never started", Duration::from_secs(20), Duration::from_millis(50), || {
            !admin.column(&sleeping).is_empty()
        });
        let since = Instant::now();
        signal(&child, "-TERM");
        let (run, _) = finish_within(child, since, Duration::from_secs(2), &args.join(" "));
        let pid = admin.column(&sleeping)[0].clone().unwrap();
        admin.column(&format!("SELECT pg_cancel_backend({pid})::text"));
        assert_eq!(run.code, 130, "{}", run.stderr);
        assert!(
            run.stderr.contains(&format!("could not cancel the statement running on 127.0.0.1:{port}"))
                && run.stderr.contains(&format!("end it with SELECT pg_cancel_backend({pid})")),
            "{}",
            run.stderr
        );
        poll("the statement was never ended", Duration::from_secs(20), Duration::from_millis(50), || {
            admin.column(&sleeping).is_empty()
        });
        assert_eq!(event_ids(on), [1, 2]);
    }
}

/// On MySQL too: when the cancel cannot reach the server, the run ends
/// within 2 s and says the statement may still run there and how to end it
/// (`KILL QUERY` with its connection id).
#[test]
fn a_cancel_that_cannot_reach_mysql_is_said() {
    let Some(db) = TestDb::new(Engine::MySql) else { return };
    events(&db, 2);
    let admin = TestDb::admin(Engine::MySql);
    let (port, _) = half_open_proxy(crate::common::server_addr(&db.url).leak());
    let url = crate::common::at_server(&db.url, &format!("127.0.0.1:{port}"));
    let args = [&EXPIRE_EVENTS[..], &["--where", "SLEEP(30) = 0", "--dry-run"]].concat();
    let child = spawn(&url, &args, &[]);
    let sleeping = format!(
        "SELECT CAST(id AS CHAR) FROM information_schema.processlist WHERE db = '{}' AND info LIKE '%SLEEP(30)%' \
         AND info NOT LIKE '%processlist%'",
        db.name
    );
    poll("the statement never started", Duration::from_secs(20), Duration::from_millis(50), || {
        !admin.column(&sleeping).is_empty()
    });
    let since = Instant::now();
    signal(&child, "-TERM");
    let (run, _) = finish_within(child, since, Duration::from_secs(2), &args.join(" "));
    let id = admin.column(&sleeping)[0].clone().unwrap();
    admin.exec(&format!("KILL QUERY {id}"));
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("could not cancel the statement running on 127.0.0.1:{port}"))
            && run.stderr.contains(&format!("end it with KILL QUERY {id}")),
        "{}",
        run.stderr
    );
}

/// A second signal ends the run at once, where the first waits out the
/// grace (a second and a half) for a cancel that cannot reach the server.
#[test]
fn a_second_signal_exits_at_once() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    events(&db, 2);
    let admin = TestDb::admin(Engine::Postgres);
    let (port, cancels) = half_open_proxy(crate::common::server_addr(&db.url).leak());
    let url = with_param(&crate::common::at_server(&db.url, &format!("127.0.0.1:{port}")), "sslmode=disable");
    let args = [&EXPIRE_EVENTS[..], &["--where", "pg_sleep(30) IS NOT NULL", "--dry-run"]].concat();
    let child = spawn(&url, &args, &[]);
    let sleeping =
        format!("SELECT pid::text FROM pg_stat_activity WHERE datname = '{}' AND wait_event = 'PgSleep'", db.name);
    poll("the statement never started", Duration::from_secs(20), Duration::from_millis(50), || {
        !admin.column(&sleeping).is_empty()
    });
    let since = Instant::now();
    signal(&child, "-TERM");
    // The first signal handled: its cancel reached the proxy, which swallows it.
    poll("the first signal sent no cancel", Duration::from_secs(2), Duration::from_millis(5), || {
        cancels.load(std::sync::atomic::Ordering::SeqCst) > 0
    });
    signal(&child, "-INT");
    let (run, took) = finish_within(child, since, Duration::from_secs(2), &args.join(" "));
    let pid = admin.column(&sleeping)[0].clone().unwrap();
    admin.column(&format!("SELECT pg_cancel_backend({pid})::text"));
    assert_eq!(run.code, 130, "{}", run.stderr);
    assert!(run.stderr.contains("idemctl: interrupted again: stopped at once"), "{}", run.stderr);
    assert!(took < Duration::from_millis(1_000), "the second signal waited out the grace: {took:?}");
}

/// expire with --replica-url and --max-lag: a standby whose replay is
/// paused holds the batches back until it replays again.
#[test]
fn a_lagging_standby_holds_expire_back() {
    let Some(pair) = private::pg_pair() else { return };
    let Some(primary) = TestDb::on_server(Engine::Postgres, &pair.primary) else { return };
    events(&primary, 300);
    let standby_sql = |sql: &'static str| {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            use sqlx::Connection;
            let mut c = sqlx::PgConnection::connect(&pair.standby).await.unwrap();
            sqlx::raw_sql(sql).execute(&mut c).await.unwrap();
        });
    };
    // Replay reaches the table, then stops.
    let on_standby =
        primary.url.replacen(pair.primary.trim_end_matches("/postgres"), pair.standby.trim_end_matches("/postgres"), 1);
    poll("the standby never had the table", Duration::from_secs(30), Duration::from_millis(200), || {
        pg_scalar::<i64>(&on_standby, "SELECT count(*) FROM events") == Some(300)
    });
    standby_sql("SELECT pg_wal_replay_pause()");
    // The standby receives a write it does not replay: it is behind from
    // the run's first look, whatever the WAL receiver's pace, and two
    // seconds behind by the time the run starts.
    primary.exec("CREATE TABLE nudge (id int)");
    poll("the standby never received the write", Duration::from_secs(30), Duration::from_millis(100), || {
        pg_scalar::<bool>(&pair.standby, "SELECT pg_last_wal_replay_lsn() < pg_last_wal_receive_lsn()") == Some(true)
    });
    std::thread::sleep(Duration::from_millis(2000));
    let child = spawn(
        &primary.url,
        &[
            &EXPIRE_EVENTS[..],
            &[
                "--batch-size",
                "100",
                "--batch-time",
                "0s",
                "--replica-url",
                &pair.standby,
                "--max-lag",
                "1s",
                "--format",
                "json",
            ],
        ]
        .concat(),
        &[],
    );
    // The run is looking at the standby's lag (its session there), then
    // is held back for a while (a set duration: the wait is what is tested).
    poll("the run never looked at the standby", Duration::from_secs(20), Duration::from_millis(20), || {
        pg_scalar::<i64>(&pair.standby, "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'idemctl%'")
            .is_some_and(|n| n > 0)
    });
    std::thread::sleep(Duration::from_millis(1500));
    let held = event_ids(&primary).len();
    standby_sql("SELECT pg_wal_replay_resume()");
    let (out, _) = finish_within(child, Instant::now(), Duration::from_secs(20), "expire");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(held > 0, "the run waited for the standby");
    let summary = &out.json()["runs"][0];
    assert_eq!(summary["rows_deleted"], 300, "{summary}");
    assert!(summary["waited"]["lag_seconds"].as_f64().unwrap() >= 1.0, "{summary}");
    assert_eq!(event_ids(&primary), Vec::<i64>::new());
}

/// Runs `sql` (statements separated by `;`) on its own connection to the MariaDB `url`.
fn sql_at(url: &str, sql: &str) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::MySqlConnection::connect(url).await?;
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string())).execute(&mut c).await?;
        c.close().await
    })
    .map_err(|e| e.to_string())
}

/// The first column of the first row `sql` returns on `url`, as text.
fn value_at(url: &str, sql: &str) -> Option<String> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        use sqlx::{Connection, Row};
        let mut c = sqlx::MySqlConnection::connect(url).await.ok()?;
        let row = sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).fetch_optional(&mut c).await.ok()??;
        let raw = row.try_get_raw(0).ok()?;
        <Option<String> as sqlx::Decode<sqlx::MySql>>::decode(raw).ok()?
    })
}

/// Starting a private MariaDB server (its install too) leaves the `#sql*`
/// files in the shared temp dir alone: there they are the shared server's
/// live temporary tables, and one deleted under a read crashes it.
#[test]
fn a_private_mariadb_leaves_the_shared_tmp_alone() {
    let canary = std::env::temp_dir().join(format!("#sql-idemctl-canary-{}.MAI", std::process::id()));
    std::fs::write(&canary, b"").unwrap();
    let started = private::one_more_mariadb();
    let kept = canary.exists();
    let _ = std::fs::remove_file(&canary);
    let Some(root) = started else { return };
    assert!(kept, "starting a private MariaDB at {root} deleted {}", canary.display());
}

/// A MariaDB replica, on a private primary with binary logging: a stopped
/// replica stops expire after --max-lag-wait with nothing deleted; a
/// replica that applies each change 3 s late (MASTER_DELAY) holds the
/// batches back until it has caught up, and the run then finishes.
#[test]
fn a_mariadb_replica_behind_holds_expire_back() {
    let Some(pair) = private::maria_pair() else { return };
    let Some(primary) = TestDb::on_server(Engine::MySql, &pair.primary) else { return };
    events(&primary, 300);
    let on_replica =
        primary.url.replacen(pair.primary.trim_end_matches("/mysql"), pair.replica.trim_end_matches("/mysql"), 1);
    let replicated = || value_at(&on_replica, "SELECT CAST(COUNT(*) AS CHAR) FROM events").as_deref() == Some("300");
    poll("the replica never had the table", Duration::from_secs(30), Duration::from_millis(200), replicated);
    let expire = |extra: &[&str]| {
        let args = [
            &EXPIRE_EVENTS[..],
            &["--batch-size", "50", "--batch-time", "0s", "--replica-url", &pair.replica, "--format", "json"],
            extra,
        ]
        .concat();
        let child = spawn(&primary.url, &args, &[]);
        finish_within(child, Instant::now(), Duration::from_secs(60), "expire").0
    };

    // Replication stopped: the run waits --max-lag-wait, then stops.
    sql_at(&pair.replica, "STOP SLAVE SQL_THREAD").unwrap();
    let out = expire(&["--max-lag-wait", "2s"]);
    sql_at(&pair.replica, "START SLAVE SQL_THREAD").unwrap();
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(one_line(&out).contains("has its replication stopped for 2s (--max-lag-wait)"), "{}", out.stderr);
    assert_eq!(event_ids(&primary).len(), 300);

    // Each change applied 3 s late.
    sql_at(&pair.replica, "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY=3; START SLAVE").unwrap();
    let started = Instant::now();
    let out = expire(&["--max-lag", "1s", "--sleep", "300ms"]);
    let took = started.elapsed();
    sql_at(&pair.replica, "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY=0; START SLAVE").unwrap();
    assert_eq!(out.code, 0, "{}", out.stderr);
    let summary = &out.json()["runs"][0];
    assert_eq!(summary["rows_deleted"], 300, "{summary}");
    assert!(summary["waited"]["lag_seconds"].as_f64().unwrap() >= 1.0, "{summary}");
    assert!(took >= Duration::from_secs(3), "{took:?}");
    assert_eq!(event_ids(&primary), Vec::<i64>::new());
}

/// `url` with its database (or SQLite file) named `name`.
fn with_database(url: &str, name: &str) -> String {
    let (prefix, _) = url.rsplit_once('/').expect("URL with a database path");
    format!("{prefix}/{name}")
}

/// A bad column in --where, a database that does not exist and a role that
/// does not exist: each one line, the server's message once, without the
/// server's source line or the driver's repetition of it; exit 2.
fn an_error_says_the_servers_message_once(db: &TestDb) {
    tables(db);
    let lines = |url: &str, args: &[&str]| {
        let run = run_at(url, args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        let line = one_line(&run).to_string();
        assert!(!line.contains(" at line "), "{line}");
        line
    };
    let bad_where = lines(&db.url, &["scan", "--table", "orders", "--where", "statuss <> 'x'"]);
    let (message, missing_db, missing_role) = match db.engine {
        Engine::Postgres => (
            r#"column "statuss" does not exist"#,
            r#"database "idemctl_no_such_db" does not exist"#,
            r#"role "idemctl_nobody" does not exist"#,
        ),
        Engine::MySql => (
            "Unknown column 'statuss'",
            "Unknown database 'idemctl_no_such_db'",
            "Access denied for user 'idemctl_nobody'",
        ),
        Engine::Sqlite => ("no such column: statuss", "no SQLite database at", ""),
    };
    assert_eq!(bad_where.matches(message).count(), 1, "{bad_where}");
    let nodb = if db.engine == Engine::Sqlite { "idemctl_no_such_db.db" } else { "idemctl_no_such_db" };
    let line = lines(&with_database(&db.url, nodb), &["stuck", "--table", "idempotency_keys"]);
    assert_eq!(line.matches(missing_db).count(), 1, "{line}");
    assert!(line.starts_with("idemctl: cannot connect to ") || db.engine == Engine::Sqlite, "{line}");
    if db.engine != Engine::Sqlite {
        let (scheme, rest) = db.url.split_once("://").unwrap();
        let (_, host) = rest.split_once('@').unwrap();
        let line = lines(&format!("{scheme}://idemctl_nobody@{host}"), &["stuck", "--table", "idempotency_keys"]);
        assert_eq!(line.matches(missing_role).count(), 1, "{line}");
        // MySQL's codes (1045 (28000)) are not said beside the message.
        assert!(!line.contains("(28000)") && !line.contains("(42000)"), "{line}");
    }
}

/// Ctrl-C in the middle of a scan (600,000 rows, a retried pair a minute,
/// interrupted well past the first 100,000 rows, which the scan reads before
/// it clusters): the table lists the clusters found so far with the rows
/// scanned and says the list is partial; JSON carries the counts reached,
/// equal to the clusters it lists, with `complete: false`; exit 130 both.
fn an_interrupted_scan_reports_what_it_found(db: &TestDb) {
    let at = match db.engine {
        Engine::Postgres => "timestamptz '2026-01-01 00:00:00+00' + ((n / 2) * 60 + n % 2) * interval '1 second'",
        Engine::MySql => "TIMESTAMPADD(SECOND, (n DIV 2) * 60 + n % 2, '2026-01-01 00:00:00')",
        Engine::Sqlite => "datetime('2026-01-01 00:00:00', '+' || ((n / 2) * 60 + n % 2) || ' seconds')",
    };
    let div = if db.engine == Engine::MySql { "DIV" } else { "/" };
    db.exec(&format!(
        "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id INTEGER, created_at {});
         INSERT INTO orders SELECT n, n {div} 2, {at} FROM {}",
        db.ty("ts"),
        db.series(ROWS),
    ));
    const ROWS: u64 = 600_000;
    // 200 clusters listed, read as they come; the scan waits at row 300,000
    // for the signal (a test hook), so that it is always mid-way.
    const AT: u64 = 300_000;
    let dir = tempfile::tempdir().unwrap();
    let scan = |format: &str| {
        let mark = dir.path().join(format!("paused-{format}"));
        let hook = format!("{}:{AT}", mark.display());
        let args = ["scan", "--table", "orders", "--limit", "200", "--format", format];
        let child = spawn(&db.url, &args, &[("IDEMCTL_TEST_PAUSE_SCAN", &hook)]);
        poll(&format!("the scan never reached row {AT}"), Duration::from_secs(120), Duration::from_millis(20), || {
            mark.exists()
        });
        let since = Instant::now();
        signal(&child, "-INT");
        finish_within(child, since, Duration::from_secs(5), "scan").0
    };
    let table = scan("table");
    assert_eq!(table.code, 130, "{}", table.stderr);
    // Said once, on the last line: the list is partial because of the interruption.
    assert_eq!(
        table.stderr.lines().last(),
        Some("idemctl: the clusters listed are partial: interrupted"),
        "{}",
        table.stderr
    );
    assert_eq!(table.stderr.matches("interrupted").count(), 1, "{}", table.stderr);
    let scanned: u64 = table
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("rows scanned: "))
        .unwrap_or_else(|| panic!("no rows scanned: {}", table.stderr))
        .replace(',', "")
        .parse()
        .unwrap();
    assert!((AT..ROWS).contains(&scanned), "{scanned}");
    assert!(table.stdout.contains("unknown"), "clusters listed: {}", table.stdout);
    let json = scan("json");
    assert_eq!(json.code, 130, "{}", json.stderr);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["complete"], false);
    assert_eq!(doc["clusters"].as_array().unwrap().len(), 200, "{}", json.stderr);
    let found = doc["cluster_count"].as_u64().unwrap_or_else(|| panic!("no count: {}", json.stderr));
    assert_eq!(doc["clusters_not_listed"].as_u64(), Some(found - 200));
    assert_eq!(doc["extra_rows"].as_u64(), Some(found), "one extra row a cluster");
    let scanned = doc["rows_scanned"].as_u64().unwrap();
    assert!(scanned >= found * 2 && (AT..ROWS).contains(&scanned), "{scanned} rows, {found} clusters");
}
