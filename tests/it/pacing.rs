//! expire and reap pace themselves to the server: the batch size follows a
//! target time, InnoDB's purge, the server's load and a replica's lag hold
//! the run back, and the summary says how long each did.

use std::time::{Duration, Instant};

use crate::common::{Engine, Run, TestDb, run};
use serde_json::{Value, json};

on_every_engine!(batches_grow_on_a_fast_table_and_shrink_on_a_slow_one, an_unreachable_replica_stops_the_run);

/// Events created ten days ago: ids 1..=n.
fn events(db: &TestDb, n: u64) {
    db.exec(&format!(
        "CREATE TABLE events (id BIGINT PRIMARY KEY, created_at {ts});
         INSERT INTO events (id, created_at) SELECT n, {t} FROM {series}",
        ts = db.ty("ts"),
        t = db.ts("2026-01-01 00:00:00"),
        series = db.series(n),
    ));
}

const EXPIRE: [&str; 9] =
    ["expire", "--table", "events", "--created-at-column", "created_at", "--older-than", "30d", "--format", "json"];

fn summary(out: &Run) -> Value {
    out.json()["runs"][0].clone()
}

fn count(db: &TestDb) -> i64 {
    db.ids("SELECT count(*) FROM events")[0]
}

/// A delete that takes about a millisecond a row.
fn slow_rows(db: &TestDb) -> &'static str {
    match db.engine {
        Engine::Postgres => {
            "CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN PERFORM pg_sleep(0.002); RETURN OLD; END $$;
             CREATE TRIGGER slow BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION slow()"
        }
        Engine::MySql => "CREATE TRIGGER slow BEFORE DELETE ON events FOR EACH ROW BEGIN DO SLEEP(0.002); END",
        Engine::Sqlite => {
            "CREATE TRIGGER slow BEFORE DELETE ON events FOR EACH ROW
             BEGIN SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c
                                         WHERE x < 30000) SELECT x FROM c); END"
        }
    }
}

/// The first batch is 1,000 rows: on a fast table the next ones grow to
/// --batch-size; with every row slow they shrink toward the target time.
fn batches_grow_on_a_fast_table_and_shrink_on_a_slow_one(db: &TestDb) {
    events(db, 30_000);
    let fast = run(db.idemctl(&[&EXPIRE[..], &["--batch-size", "5000", "--batch-time", "500ms"]].concat()));
    assert_eq!(fast.code, 0, "{}", fast.stderr);
    let s = summary(&fast);
    assert_eq!(s["rows_deleted"], 30_000);
    assert!(s["largest_batch_rows"].as_u64().unwrap() > 1000, "grew: {s}");
    assert!(s["batches"].as_u64().unwrap() < 30, "{s}");

    events_again(db, 3000);
    db.exec(slow_rows(db));
    let slow = run(db.idemctl(&[&EXPIRE[..], &["--batch-size", "5000", "--batch-time", "100ms"]].concat()));
    assert_eq!(slow.code, 0, "{}", slow.stderr);
    let s = summary(&slow);
    assert_eq!(s["rows_deleted"], 3000);
    assert!(s["batches"].as_u64().unwrap() >= 8, "shrank toward 100 ms a batch: {s}");
    assert_eq!(count(db), 0);
}

fn events_again(db: &TestDb, n: u64) {
    db.exec("DROP TABLE events");
    events(db, n);
}

/// A replica that cannot be reached at the start, or that is no replica at
/// all, is a mistake said at once: exit 2, one line naming it, nothing
/// deleted (one lost during the run holds it back for --max-lag-wait). A load
/// threshold of 0 is refused the same way.
fn an_unreachable_replica_stops_the_run(db: &TestDb) {
    events(db, 100);
    if db.engine == Engine::Sqlite {
        let out = run(db.idemctl(&[&EXPIRE[..], &["--replica-url", "sqlite:/nonexistent.db"]].concat()));
        assert_eq!((out.code, out.stderr.lines().count()), (2, 1), "{}", out.stderr);
        assert!(out.stderr.contains("--replica-url"), "the replica is what is refused: {}", out.stderr);
        assert_eq!(count(db), 100);
        return;
    }
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let scheme = if db.engine == Engine::Postgres { "postgres" } else { "mysql" };
    // The first connect fails: the run refuses a replica it cannot reach at the start.
    let url = format!("{scheme}://root@127.0.0.1:{closed}/x");
    let since = Instant::now();
    let out = run(db
        .idemctl(&[&EXPIRE[..], &["--replica-url", &url, "--max-lag-wait", "1s", "--connect-timeout", "1s"]].concat()));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(since.elapsed() < Duration::from_secs(10));
    let last = out.stderr.lines().last().unwrap();
    assert!(last.contains(&format!("--replica-url 127.0.0.1:{closed}: cannot connect")), "{}", out.stderr);
    assert_eq!(count(db), 100);

    // The primary named as its own replica: a mistake said at once, not lag waited out.
    let since = Instant::now();
    let out = run(db.idemctl(&[&EXPIRE[..], &["--replica-url", &db.url]].concat()));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(since.elapsed() < Duration::from_secs(10));
    let last = out.stderr.lines().last().unwrap();
    assert!(
        last.contains(&format!("--replica-url {}", crate::common::host_port(&db.url)))
            && last.contains("is not a replica"),
        "{}",
        out.stderr
    );
    assert_eq!(count(db), 100);

    // Thresholds a server can never be under are refused.
    let out = run(db.idemctl(&[&EXPIRE[..], &["--max-load", "Threads_running=0"]].concat()));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("must be above 0"), "{}", out.stderr);
    assert_eq!(count(db), 100);
}

/// MySQL/MariaDB: a read view held open in another session stops purge;
/// the run waits once --max-history of its batches wait for purge (read from
/// SHOW ENGINE INNODB STATUS), and goes on once the read view closes. A user
/// without the PROCESS privilege waits by the history list's length instead.
#[test]
fn the_run_waits_for_purge() {
    let Some(db) = TestDb::new(Engine::MySql) else { return };
    db.exec("CREATE TABLE other (id INT PRIMARY KEY); INSERT INTO other VALUES (1)");
    // A user with every privilege on the database, and none on the server.
    let user = format!("np_{}", &db.name[db.name.len().saturating_sub(20)..]);
    db.exec(&format!("CREATE USER '{user}'@'%'; GRANT ALL ON `{}`.* TO '{user}'@'%'", db.name));
    let unprivileged = crate::common::as_user(&db.url, &user);
    for url in [&unprivileged, &db.url] {
        events(&db, 3000);
        let child = db.while_session(
            "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ; START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT * FROM other",
            "COMMIT",
            || {
                let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("idemctl"))
                    .env_remove("DATABASE_URL")
                    .args(EXPIRE)
                    .args(["--batch-size", "100", "--batch-time", "0s", "--max-history", "3", "--database-url", url])
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                // The run held back: rows gone, and no more going; then
                // held a while (a set duration: the wait is what is tested).
                let mut last = count(&db);
                crate::common::poll("the run never waited for purge", Duration::from_secs(30), Duration::from_millis(300), || {
                    let now = count(&db);
                    let held = now < 3000 && now == last;
                    last = now;
                    held
                });
                std::thread::sleep(Duration::from_millis(1200));
                (child, count(&db))
            },
        );
        let (child, left) = child;
        let out = crate::common::finish(child);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let s = summary(&out);
        // By its purge position: three batches wait for purge, the fourth
        // starts, the fifth waits. By the history list's length (no PROCESS
        // privilege), which counts a batch's transaction as InnoDB allots its
        // undo logs: within ten batches.
        let most = if url == &db.url { 5 } else { 10 };
        assert_eq!(out.stderr.contains("without the PROCESS privilege"), url != &db.url, "{}", out.stderr);
        assert!(left >= 3000 - most * 100, "purge held back, yet {left} rows were left ({url}): {s}");
        assert_eq!(s["rows_deleted"], 3000);
        assert!(s["waited"]["purge_seconds"].as_f64().unwrap() >= 1.0, "{s}");
        assert_eq!(count(&db), 0);
        db.exec("DROP TABLE events");
    }
    db.exec(&format!("DROP USER '{user}'@'%'"));

    // Held past --max-throttle-wait: the run stops and names the transaction.
    events(&db, 3000);
    let out = db.while_session(
        "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ; START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT * FROM other",
        "COMMIT",
        || {
            run(db.idemctl(
                &[&EXPIRE[..], &["--batch-size", "100", "--batch-time", "0s", "--max-history", "3", "--max-throttle-wait", "2s"]]
                    .concat(),
            ))
        },
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    let last = out.stderr.lines().last().unwrap_or_default();
    assert!(
        last.contains("InnoDB's purge is held back by the transaction of thread")
            && last.contains("for 2s (--max-throttle-wait)"),
        "{}",
        out.stderr
    );
    assert_eq!(summary(&out)["stopped"], "max-throttle-wait");
    assert!(count(&db) >= 2500);

    // On a terminal, the progress line says what holds the run.
    db.exec("DROP TABLE events");
    events(&db, 3000);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.json");
    let command = format!(
        "{} {} --batch-size 100 --batch-time 0s --max-history 3 --max-throttle-wait 2s --database-url '{}' > {}",
        assert_cmd::cargo::cargo_bin("idemctl").display(),
        EXPIRE.join(" "),
        db.url,
        file.display()
    );
    let shown = db.while_session(
        "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ; START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT * FROM other",
        "COMMIT",
        || crate::output::on_a_terminal(&command),
    );
    assert!(shown.contains(" (purge)"), "the progress line names no hold: {shown:?}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["runs"][0]["stopped"], "max-throttle-wait", "{doc}");
}

/// The server busier than --max-load pauses the run; past --critical-load
/// the run stops before any batch.
#[test]
fn load_pauses_and_critical_load_stops() {
    for engine in [Engine::Postgres, Engine::MySql] {
        let Some(db) = TestDb::new(engine) else { return };
        events(&db, 500);
        let sleeper = match engine {
            Engine::Postgres => "SELECT pg_sleep(6)",
            _ => "SELECT SLEEP(6)",
        };
        let sleepers: Vec<_> = (0..6)
            .map(|_| {
                let url = db.url.clone();
                std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
                    rt.block_on(async {
                        use sqlx::Connection;
                        match engine {
                            Engine::Postgres => {
                                let mut c = sqlx::PgConnection::connect(&url).await.unwrap();
                                sqlx::raw_sql(sleeper).execute(&mut c).await.unwrap();
                            }
                            _ => {
                                let mut c = sqlx::MySqlConnection::connect(&url).await.unwrap();
                                sqlx::raw_sql(sleeper).execute(&mut c).await.unwrap();
                            }
                        }
                    })
                })
            })
            .collect();
        // Every sleeper asleep on the server before the runs look at its load.
        let asleep = crate::common::asleep_in_trigger(&db).unwrap();
        crate::common::poll(
            "the six sleepers never started",
            Duration::from_secs(20),
            Duration::from_millis(20),
            || db.ids(&asleep)[0] >= 6,
        );
        // Threads_running counts every database on MySQL: a threshold above what the other tests run.
        let (pause, critical) = match engine {
            Engine::Postgres => ("Threads_running=5", "Threads_running=6"),
            _ => ("Threads_running=6", "Threads_running=6"),
        };
        let stopped = run(db.idemctl(&[&EXPIRE[..], &["--critical-load", critical]].concat()));
        let out_of_time = run(db.idemctl(&[&EXPIRE[..], &["--max-load", pause, "--max-runtime", "1s"]].concat()));
        crate::common::key_table(&db);
        let reap_held = run(db.idemctl(&["reap", "--max-duration", "30s", "--max-load", pause, "--max-runtime", "1s"]));
        let still_stuck = db.ids("SELECT count(*) FROM idempotency_keys WHERE status = 'in_progress'")[0];
        let paused = run(db.idemctl(&[&EXPIRE[..], &["--max-load", pause]].concat()));
        for s in sleepers {
            s.join().unwrap();
        }
        assert_eq!(stopped.code, 2, "{engine:?}: {}", stopped.stderr);
        let last = stopped.stderr.lines().last().unwrap_or_default();
        assert!(last.contains("nothing was deleted") && last.contains("--critical-load"), "{}", stopped.stderr);
        assert_eq!(summary(&stopped)["stopped"], "critical-load");
        // --max-runtime passed while the load held the run: the summary says so.
        assert_eq!(reap_held.code, 1, "{engine:?}: {}", reap_held.stderr);
        assert!(
            reap_held.stderr.contains("reap made no progress: load held it until --max-runtime"),
            "{}",
            reap_held.stderr
        );
        assert_eq!(still_stuck, 5, "nothing was released");
        // It made no progress: exit 1 and a line, for cron.
        assert_eq!(out_of_time.code, 1, "{engine:?}: {}", out_of_time.stderr);
        assert!(
            out_of_time.stderr.contains("expire made no progress: load held it until --max-runtime"),
            "{}",
            out_of_time.stderr
        );
        let s = summary(&out_of_time);
        assert_eq!(
            (&s["stopped"], &s["waited"]["held_when_stopped"], &s["rows_deleted"]),
            (&json!("max-runtime"), &json!("load"), &json!(0)),
            "{engine:?}: {s}"
        );
        assert_eq!(paused.code, 0, "{engine:?}: {}", paused.stderr);
        let s = summary(&paused);
        assert!(s["waited"]["load_seconds"].as_f64().unwrap() >= 1.0, "{engine:?}: {s}");
        assert_eq!(s["rows_deleted"], 500);
    }
}

/// PostgreSQL: the summary gives the table's dead tuples before and after;
/// --vacuum runs a plain VACUUM at the end (last_vacuum set, no dead tuples
/// left); --wait-for-autovacuum pauses while a VACUUM works on the table,
/// and goes on once it is done. MariaDB refuses --vacuum before deleting.
#[test]
fn vacuum_after_the_run_and_waiting_for_one() {
    if let Some(db) = TestDb::new(Engine::MySql) {
        events(&db, 100);
        let out = run(db.idemctl(&[&EXPIRE[..], &["--vacuum"]].concat()));
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert!(out.stderr.contains("are for PostgreSQL"), "{}", out.stderr);
        assert_eq!(count(&db), 100);
    }
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    events(&db, 2000);
    let vacuumed =
        |db: &TestDb| db.ids("SELECT count(last_vacuum) FROM pg_stat_user_tables WHERE relname = 'events'")[0];
    let out = run(db.idemctl(&[&EXPIRE[..], &["--vacuum"]].concat()));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let s = summary(&out);
    assert_eq!(
        (&s["rows_deleted"], &s["vacuumed"], &s["dead_tuples_after"]),
        (&json!(2000), &json!(true), &json!(0)),
        "{s}"
    );
    assert!(s["dead_tuples_before"].is_u64(), "{s}");
    assert_eq!(vacuumed(&db), 1);
    assert_eq!(db.ids("SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'events'"), [0]);

    // A slow VACUUM in another session (a cost delay on every page).
    db.exec("DROP TABLE events");
    events(&db, 20000);
    db.exec("DELETE FROM events WHERE id > 10000");
    let url = db.url.clone();
    let slow = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            use sqlx::Connection;
            let mut c = sqlx::PgConnection::connect(&url).await.unwrap();
            for sql in ["SET vacuum_cost_delay = 100", "SET vacuum_cost_limit = 1", "VACUUM events"] {
                // Canceled at the end of the test.
                let _ = sqlx::raw_sql(sql).execute(&mut c).await;
            }
        });
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while db.ids("SELECT count(*) FROM pg_stat_progress_vacuum WHERE relid = 'events'::regclass")[0] == 0 {
        assert!(Instant::now() < deadline, "the VACUUM never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    let prom = tempfile::NamedTempFile::new().unwrap();
    let out = run(db.idemctl(
        &[
            &EXPIRE[..],
            &["--wait-for-autovacuum", "--max-runtime", "2s", "--metrics-file", prom.path().to_str().unwrap()],
        ]
        .concat(),
    ));
    assert_eq!(out.code, 1, "no progress: {}", out.stderr);
    let s = summary(&out);
    let metrics = std::fs::read_to_string(prom.path()).unwrap();
    let waited =
        metrics.lines().find(|l| l.starts_with("idemctl_waited_seconds{") && l.contains("throttle=\"autovacuum\""));
    let seconds: f64 = waited.and_then(|l| l.rsplit(' ').next()).and_then(|v| v.parse().ok()).unwrap_or_default();
    assert_eq!(seconds, s["waited"]["autovacuum_seconds"].as_f64().unwrap(), "{metrics}");
    assert!(metrics.contains("idemctl_expire_dead_tuples{"), "{metrics}");
    // Stopped by --max-runtime: the backlog is counted for the alerts.
    assert!(
        metrics.lines().any(|l| l.starts_with("idemctl_expire_backlog_rows{") && l.ends_with(" 10000")),
        "{metrics}"
    );
    assert_eq!(
        (&s["stopped"], &s["waited"]["held_when_stopped"], &s["rows_deleted"]),
        (&json!("max-runtime"), &json!("autovacuum"), &json!(0)),
        "{s}"
    );
    assert!(s["waited"]["autovacuum_seconds"].as_f64().unwrap() >= 1.5, "{s}");
    assert_eq!(count(&db), 10000);
    // Held past --max-throttle-wait: the run stops and names the VACUUM.
    let out = run(db.idemctl(&[&EXPIRE[..], &["--wait-for-autovacuum", "--max-throttle-wait", "1s"]].concat()));
    assert_eq!(out.code, 2, "{}", out.stderr);
    let last = out.stderr.lines().last().unwrap_or_default();
    assert!(last.contains("a VACUUM (pid ") && last.contains("for 1s (--max-throttle-wait)"), "{}", out.stderr);
    assert_eq!(summary(&out)["stopped"], "max-throttle-wait");
    assert_eq!(count(&db), 10000);
    // --vacuum while that VACUUM holds the table: the rows go, the run's own
    // VACUUM is left to autovacuum with a warning, and the run succeeds.
    let out = run(db.idemctl(&[&EXPIRE[..], &["--vacuum"]].concat()));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("warning: the VACUUM after the run did not run"), "{}", out.stderr);
    let s = summary(&out);
    assert_eq!(
        (&s["rows_deleted"], &s["vacuumed"], &s["stopped"]),
        (&json!(10000), &json!(false), &Value::Null),
        "{s}"
    );
    assert_eq!(count(&db), 0);
    db.exec("SELECT pg_cancel_backend(pid) FROM pg_stat_progress_vacuum WHERE relid = 'events'::regclass");
    let _ = slow.join();
}
