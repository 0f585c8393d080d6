//! Partitioned tables on every command (PostgreSQL's declarative partitions,
//! MariaDB's), `expire --drop-partitions`, and writers that never report
//! success for work they did not do.

use std::process::{Command, Stdio};

use crate::common::{Engine, Run, TestDb, run, wait_for};
use serde_json::Value;

const NOW: &str = "2026-06-01T12:00:00Z";

/// How a key table is partitioned.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    /// A range partition a day on `expires_at`, 2026-05-25 to 2026-06-05, and
    /// a default partition (PostgreSQL) or one up to MAXVALUE (MariaDB).
    Daily,
    /// By operation (a list), one list partition ranged by day again, and a
    /// default partition (PostgreSQL).
    Nested,
    /// By operation alone (a list).
    List,
}

const DAYS: [&str; 11] =
    ["05-25", "05-26", "05-27", "05-28", "05-29", "05-30", "05-31", "06-01", "06-02", "06-03", "06-04"];

fn next_day(day: &str) -> String {
    match DAYS.iter().position(|d| *d == day) {
        Some(i) if i + 1 < DAYS.len() => format!("2026-{}", DAYS[i + 1]),
        _ => "2026-06-05".to_string(),
    }
}

/// The key table and its partitions; then the keys: ten a day, expiring at
/// its 06:00 + k minutes, `d{day}-{k}`; `stuck-1` and `stuck-2` in progress
/// for an hour (expiring 06-02); `held-0527` in progress and expired (kept by
/// expire); `far-future` in the default partition.
fn key_table(db: &TestDb, shape: Shape) {
    let pg = db.engine == Engine::Postgres;
    let (text, ts) = if pg { ("text", "timestamptz") } else { ("VARCHAR(64)", "DATETIME(6)") };
    let key = db.ident("key");
    let columns = format!(
        "scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL, request_hash {}, status {text} NOT NULL,
         response_code INTEGER, locked_at {ts} NULL, created_at {ts} NOT NULL, expires_at {ts} NOT NULL,
         PRIMARY KEY (scope_id, operation, {key}, expires_at)",
        if pg { "bytea" } else { "VARBINARY(64)" }
    );
    let daily = |prefix: &str| -> Vec<String> {
        DAYS.iter()
            .map(|d| {
                let name = format!("{prefix}_{}", d.replace('-', ""));
                if pg {
                    format!("{name} FOR VALUES FROM ('2026-{d}') TO ('{}')", next_day(d))
                } else {
                    format!("PARTITION {name} VALUES LESS THAN ('{}')", next_day(d))
                }
            })
            .collect()
    };
    match (pg, shape) {
        (true, Shape::Daily) => {
            db.exec(&format!("CREATE TABLE idempotency_keys ({columns}) PARTITION BY RANGE (expires_at)"));
            for p in daily("ik") {
                let (name, bound) = p.split_once(' ').unwrap();
                db.exec(&format!("CREATE TABLE {name} PARTITION OF idempotency_keys {bound}"));
            }
            db.exec("CREATE TABLE ik_default PARTITION OF idempotency_keys DEFAULT");
        }
        (true, Shape::Nested) => {
            db.exec(&format!("CREATE TABLE idempotency_keys ({columns}) PARTITION BY LIST (operation)"));
            db.exec(
                "CREATE TABLE ik_orders PARTITION OF idempotency_keys FOR VALUES IN ('POST /orders');
                 CREATE TABLE ik_pay PARTITION OF idempotency_keys FOR VALUES IN ('POST /payments') PARTITION BY RANGE (expires_at);
                 CREATE TABLE ik_other PARTITION OF idempotency_keys DEFAULT",
            );
            for p in daily("ik_pay") {
                let (name, bound) = p.split_once(' ').unwrap();
                db.exec(&format!("CREATE TABLE {name} PARTITION OF ik_pay {bound}"));
            }
            db.exec("CREATE TABLE ik_pay_later PARTITION OF ik_pay DEFAULT");
        }
        (true, Shape::List) => {
            db.exec(&format!(
                "CREATE TABLE idempotency_keys ({columns}) PARTITION BY LIST (operation);
                 CREATE TABLE ik_orders PARTITION OF idempotency_keys FOR VALUES IN ('POST /orders');
                 CREATE TABLE ik_pay PARTITION OF idempotency_keys FOR VALUES IN ('POST /payments', 'POST /refunds')"
            ));
        }
        (false, Shape::Daily) => {
            let mut parts = daily("ik");
            parts.push("PARTITION ik_later VALUES LESS THAN (MAXVALUE)".into());
            db.exec(&format!(
                "CREATE TABLE idempotency_keys ({columns}) PARTITION BY RANGE COLUMNS(expires_at) ({})",
                parts.join(", ")
            ));
        }
        (false, _) => {
            db.exec(&format!(
                "CREATE TABLE idempotency_keys ({columns}) PARTITION BY LIST COLUMNS(operation) (
                   PARTITION ik_orders VALUES IN ('POST /orders'), PARTITION ik_pay VALUES IN ('POST /payments', 'POST /refunds'))"
            ));
        }
    }
    db.exec("CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at)");
    let mut rows = Vec::new();
    let op = |k: usize| if k.is_multiple_of(2) { "POST /orders" } else { "POST /payments" };
    for d in DAYS {
        for k in 0..10 {
            let t = db.ts(&format!("2026-{d} {:02}:{:02}:00", 6 + k / 6, (k % 6) * 10));
            let c = db.ts(&format!("2026-{d} 00:00:00"));
            rows.push(format!("('s{k}', '{}', 'd{}-{k}', 'succeeded', NULL, {c}, {t})", op(k), d.replace('-', "")));
        }
    }
    let locked = db.ts("2026-06-01 11:00:00");
    let far = if db.engine == Engine::Postgres || shape == Shape::Daily { "2027-01-01" } else { "2026-06-03" };
    rows.push(format!(
        "('s1', 'POST /payments', 'stuck-1', 'in_progress', {locked}, {locked}, {})",
        db.ts("2026-06-02 11:00:00")
    ));
    rows.push(format!(
        "('s2', 'POST /orders', 'stuck-2', 'in_progress', {locked}, {locked}, {})",
        db.ts("2026-06-02 11:00:00")
    ));
    rows.push(format!(
        "('s3', 'POST /payments', 'held-0527', 'in_progress', NULL, {}, {})",
        db.ts("2026-06-01 11:59:00"),
        db.ts("2026-05-27 09:00:00")
    ));
    rows.push(format!(
        "('s4', 'POST /refunds', 'far-future', 'succeeded', NULL, {locked}, {})",
        db.ts(&format!("{far} 00:00:00"))
    ));
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {key}, status, locked_at, created_at, expires_at) VALUES {}",
        rows.join(", ")
    ));
    if pg {
        db.exec("ANALYZE idempotency_keys");
    } else {
        db.exec("ANALYZE TABLE idempotency_keys");
    }
}

fn idemctl(db: &TestDb, args: &[&str]) -> Run {
    let mut cmd = db.idemctl(args);
    cmd.env("IDEMCTL_TEST_NOW", NOW);
    run(cmd)
}

fn keys(db: &TestDb) -> Vec<String> {
    let key = db.ident("key");
    db.column(&format!("SELECT {key} FROM idempotency_keys ORDER BY {key}")).into_iter().flatten().collect()
}

/// The keys expire leaves: those not past NOW, and the one in progress.
fn expected_after_expire() -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for d in ["06-01", "06-02", "06-03", "06-04"] {
        for k in 0..10 {
            // 06-01's keys expire at 06:00 + k*10 minutes: all before noon.
            if d != "06-01" {
                keys.push(format!("d{}-{k}", d.replace('-', "")));
            }
        }
    }
    keys.extend(["far-future", "held-0527", "stuck-1", "stuck-2"].map(String::from));
    keys.sort();
    keys
}

/// Every command against the parent, as against a plain table.
fn every_command_on_the_parent(db: &TestDb, shape: Shape) {
    key_table(db, shape);
    let stuck = idemctl(db, &["stuck", "--format", "json"]);
    assert_eq!(stuck.code, 1, "{}", stuck.stderr);
    let mut found: Vec<String> =
        stuck.json()["keys"].as_array().unwrap().iter().map(|k| k["key"].as_str().unwrap().to_string()).collect();
    found.sort();
    assert_eq!(found, ["stuck-1", "stuck-2"], "held-0527 started a minute ago: not stuck");
    let reap = idemctl(db, &["reap", "--format", "json"]);
    assert_eq!(reap.code, 0, "{}", reap.stderr);
    let status = |key: &str| {
        db.column(&format!("SELECT status FROM idempotency_keys WHERE {} = '{key}'", db.ident("key")))[0]
            .clone()
            .unwrap()
    };
    assert_eq!((status("stuck-1"), status("stuck-2")), ("failed_retryable".into(), "failed_retryable".into()));
    let expire = idemctl(db, &["expire", "--format", "json"]);
    assert_eq!(expire.code, 0, "{}", expire.stderr);
    assert_eq!(keys(db), expected_after_expire(), "held-0527 is in progress: kept");
    assert_eq!(expire.json()["runs"][0]["rows_deleted"], 8 * 10);
    let doctor = idemctl(db, &["doctor", "--format", "json"]);
    assert!(doctor.code == 0 || doctor.code == 1, "{}", doctor.stderr);
    let checks = doctor.json();
    let index = checks["checks"].as_array().unwrap().iter().find(|c| c["check"] == "expiry_index").unwrap().clone();
    assert_eq!(index["result"], "pass", "the partitions carry the parent's index: {index}");
    // The key's uniqueness cannot hold without the partition key: the fix says so.
    let unique = checks["checks"].as_array().unwrap().iter().find(|c| c["check"] == "uniqueness").unwrap().clone();
    if shape == Shape::Daily {
        assert_eq!(unique["result"], "fail", "{unique}");
        assert!(
            unique["fix"]
                .as_str()
                .unwrap()
                .starts_with("a partitioned table's unique index must hold its partition key (expires_at)"),
            "{unique}"
        );
    }
}

/// size sums the leaves' own figures and lists each.
fn size_sums_the_partitions(db: &TestDb, shape: Shape) {
    key_table(db, shape);
    let out = idemctl(db, &["size", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc = out.json();
    let total = doc["storage"]["total_bytes"].as_u64().unwrap();
    let (leaves, bytes): (u64, u64) = if db.engine == Engine::Postgres {
        let row = db.column(
            "SELECT count(*)::text || ' ' || sum(pg_total_relation_size(relid))::text
             FROM pg_partition_tree('idempotency_keys') WHERE isleaf",
        );
        let text = row[0].clone().unwrap();
        let (a, b) = text.split_once(' ').unwrap();
        (a.parse().unwrap(), b.parse().unwrap())
    } else {
        let row = db.column(
            "SELECT CONCAT(count(*), ' ', sum(data_length + index_length)) FROM information_schema.partitions
             WHERE table_schema = DATABASE() AND table_name = 'idempotency_keys'",
        );
        let text = row[0].clone().unwrap();
        let (a, b) = text.split_once(' ').unwrap();
        (a.parse().unwrap(), b.parse().unwrap())
    };
    assert!(total > 0, "{doc}");
    if db.engine == Engine::Postgres {
        assert_eq!(total, bytes, "the parent's size is its leaves': {doc}");
    }
    assert_eq!(doc["partitions"].as_array().unwrap().len() as u64, leaves, "{doc}");
    if db.engine == Engine::Postgres {
        assert_eq!(doc["storage"]["rows"].as_u64().unwrap(), 11 * 10 + 4, "every partition's rows: {doc}");
    }
}

fn postgres(shape: Shape, f: fn(&TestDb, Shape)) {
    if let Some(db) = TestDb::new(Engine::Postgres) {
        f(&db, shape);
    }
}

fn mariadb(shape: Shape, f: fn(&TestDb, Shape)) {
    if let Some(db) = TestDb::new(Engine::MySql) {
        f(&db, shape);
    }
}

#[test]
fn commands_on_a_partitioned_parent() {
    postgres(Shape::Daily, every_command_on_the_parent);
    postgres(Shape::Nested, every_command_on_the_parent);
    postgres(Shape::List, every_command_on_the_parent);
    mariadb(Shape::Daily, every_command_on_the_parent);
    mariadb(Shape::List, every_command_on_the_parent);
}

#[test]
fn size_of_a_partitioned_parent() {
    postgres(Shape::Daily, size_sums_the_partitions);
    postgres(Shape::Nested, size_sums_the_partitions);
    mariadb(Shape::Daily, size_sums_the_partitions);
    mariadb(Shape::List, size_sums_the_partitions);
}

/// The partitions wholly past NOW by their bounds: 05-25 to 05-31, but 05-27,
/// which holds a key in progress.
const DROPPED: [&str; 6] = ["ik_0525", "ik_0526", "ik_0528", "ik_0529", "ik_0530", "ik_0531"];

fn partition_names(db: &TestDb) -> Vec<String> {
    let sql = match db.engine {
        Engine::Postgres => "SELECT relid::text FROM pg_partition_tree('idempotency_keys') WHERE isleaf ORDER BY 1",
        _ => {
            "SELECT partition_name FROM information_schema.partitions WHERE table_schema = DATABASE()
             AND table_name = 'idempotency_keys' ORDER BY partition_ordinal_position"
        }
    };
    db.column(sql).into_iter().flatten().collect()
}

fn outcomes(out: &Run) -> Vec<(String, String)> {
    let doc = out.json();
    doc["runs"][0]["partitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p["outcome"].as_str().unwrap().to_string()))
        .collect()
}

/// Exactly the partitions wholly past the horizon go; one that holds a key
/// in progress is kept and purged by rows; the dry run lists the same.
fn drop_partitions(db: &TestDb, shape: Shape) {
    key_table(db, shape);
    let before = partition_names(db);
    let dry = idemctl(db, &["expire", "--drop-partitions", "--dry-run", "--format", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let planned = outcomes(&dry);
    let would: Vec<&str> = planned.iter().filter(|(_, o)| o == "would-drop").map(|(n, _)| n.as_str()).collect();
    assert_eq!(would, DROPPED);
    let kept = planned.iter().find(|(n, _)| n == "ik_0527").unwrap();
    assert!(kept.1.starts_with("kept: 1 of its rows are not past the horizon"), "{kept:?}");
    assert_eq!(partition_names(db), before, "a dry run drops nothing");
    let real = idemctl(db, &["expire", "--drop-partitions", "--format", "json"]);
    assert_eq!(real.code, 0, "{}", real.stderr);
    let done = outcomes(&real);
    let dropped: Vec<&str> = done.iter().filter(|(_, o)| o == "dropped").map(|(n, _)| n.as_str()).collect();
    assert_eq!(dropped, would, "the real run drops what the dry run listed");
    let mut left = before.clone();
    left.retain(|p| !DROPPED.iter().any(|d| p == d));
    assert_eq!(partition_names(db), left);
    assert_eq!(keys(db), expected_after_expire());
    let run = &real.json()["runs"][0];
    assert_eq!(run["rows_dropped"], 60);
    // 05-27's ten succeeded keys and 06-01's ten went by rows.
    assert_eq!(run["rows_deleted"], 20);
}

#[test]
fn drop_partitions_wholly_past_the_horizon() {
    postgres(Shape::Daily, drop_partitions);
    mariadb(Shape::Daily, drop_partitions);
}

/// SIGTERM between a partition's detach and its drop: no data lost, the
/// detached table stays marked, and the rerun drops it and finishes.
#[test]
fn a_stopped_drop_is_finished_by_the_rerun() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    key_table(&db, Shape::Daily);
    // No default partition (far-future goes with it): the detach is CONCURRENTLY.
    db.exec("DROP TABLE ik_default");
    let mut expected = expected_after_expire();
    expected.retain(|k| k != "far-future");
    let dir = tempfile::tempdir().unwrap();
    let pause = dir.path().join("pause");
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("idemctl"));
    cmd.args(["expire", "--drop-partitions", "--format", "json", "--database-url", &db.url])
        .env("IDEMCTL_TEST_NOW", NOW)
        .env("IDEMCTL_TEST_PAUSE_BEFORE_DROP", &pause)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    wait_for(&format!("{}.waiting.ik_0525", pause.display()));
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let out = crate::common::finish(child);
    assert_eq!(out.code, 130, "{}", out.stderr);
    // The detached partition is a table of its own, marked, its rows there.
    let detached = db.column(
        "SELECT relname::text || ':' || relispartition::text || ':' || obj_description(oid, 'pg_class')
         FROM pg_class WHERE relname = 'ik_0525'",
    );
    let detached = detached[0].clone().unwrap();
    assert!(detached.starts_with("ik_0525:false:idemctl expire: detached from"), "{detached}");
    assert_eq!(db.column("SELECT count(*)::text FROM ik_0525")[0].as_deref(), Some("10"));
    assert!(!partition_names(&db).iter().any(|p| p == "ik_0525"));
    // The rerun drops it, and the rest.
    let rerun = idemctl(&db, &["expire", "--drop-partitions", "--format", "json"]);
    assert_eq!(rerun.code, 0, "{}", rerun.stderr);
    let done = outcomes(&rerun);
    assert!(done.contains(&("ik_0525".to_string(), "dropped".to_string())), "{done:?}");
    assert_eq!(db.column("SELECT count(*)::text FROM pg_class WHERE relname = 'ik_0525'")[0].as_deref(), Some("0"));
    assert_eq!(keys(&db), expected);
}

/// A table whose rows SELECT sees and DELETE does not reach: exit 2 with the
/// reason, every row still there.
fn expire_that_deletes_nothing_fails(db: &TestDb, url: &str, what: &str) {
    let before = db.column("SELECT count(*) FROM idempotency_keys");
    // k-done, created an hour ago, is the one row to go.
    let out = run(crate::common::idemctl_at(
        url,
        &["expire", "--format", "json", "--older-than", "1m", "--allow-short-retention"],
    ));
    assert_eq!(out.code, 2, "{what}: {}", out.stderr);
    assert!(
        out.stderr.contains("rows still match: DELETE does not reach rows its SELECT sees"),
        "{what}: {}",
        out.stderr
    );
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!((&doc["complete"], &doc["reason"]), (&Value::Bool(false), &Value::from("rows-not-deleted")), "{what}");
    assert_eq!(db.column("SELECT count(*) FROM idempotency_keys"), before, "{what}");
}

#[test]
fn writers_never_report_work_they_did_not_do() {
    // PostgreSQL: a row-level security policy hides the rows from DELETE.
    if let Some(db) = TestDb::new(Engine::Postgres) {
        crate::common::key_table(&db);
        let role = format!("idemctl_rls_{}", std::process::id());
        crate::common::pg_admin(&format!("DROP ROLE IF EXISTS {role}; CREATE ROLE {role} LOGIN"));
        db.exec(&format!(
            "GRANT SELECT, DELETE, UPDATE ON idempotency_keys TO {role};
             ALTER TABLE idempotency_keys ENABLE ROW LEVEL SECURITY;
             CREATE POLICY see ON idempotency_keys FOR SELECT USING (true);
             CREATE POLICY keep ON idempotency_keys FOR DELETE USING (false)"
        ));
        let url = crate::common::as_user(&db.url, &role);
        expire_that_deletes_nothing_fails(&db, &url, "row-level security");
        drop(db);
        crate::common::pg_admin(&format!("DROP ROLE IF EXISTS {role}"));
    }
    // PostgreSQL: a trigger that skips the delete, and one that skips reap's change.
    if let Some(db) = TestDb::new(Engine::Postgres) {
        crate::common::key_table(&db);
        db.exec(
            "CREATE FUNCTION skip() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
             CREATE TRIGGER skip_delete BEFORE DELETE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION skip();
             CREATE TRIGGER skip_update BEFORE UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION skip()",
        );
        expire_that_deletes_nothing_fails(&db, &db.url, "a trigger returning NULL");
        reap_that_changes_nothing_fails(&db);
    }
    // PostgreSQL: a foreign table over the key table (no key to walk by).
    if let Some(db) = TestDb::new(Engine::Postgres) {
        crate::common::key_table(&db);
        db.exec(&format!(
            "CREATE EXTENSION postgres_fdw;
             CREATE SERVER here FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '{host}', port '{port}', dbname '{name}');
             CREATE USER MAPPING FOR CURRENT_USER SERVER here OPTIONS (user 'root');
             ALTER TABLE idempotency_keys RENAME TO keys_there;
             CREATE FOREIGN TABLE idempotency_keys (scope_id text, operation text, key text, status text,
               locked_at timestamptz, created_at timestamptz, expires_at timestamptz)
               SERVER here OPTIONS (table_name 'keys_there')",
            name = db.name,
            host = crate::common::host(&db.url),
            port = crate::common::server_addr(&db.url).rsplit_once(':').unwrap().1,
        ));
        let out = run(crate::common::idemctl_at(&db.url, &["expire", "--older-than", "1m", "--allow-short-retention"]));
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(out.stderr.contains("no primary key to walk in batches"), "{}", out.stderr);
        assert_eq!(db.column("SELECT count(*)::text FROM keys_there")[0].as_deref(), Some("6"));
    }
    // SQLite: triggers that ignore the delete and the change.
    if let Some(db) = TestDb::new(Engine::Sqlite) {
        crate::common::key_table(&db);
        db.exec(
            "CREATE TRIGGER skip_delete BEFORE DELETE ON idempotency_keys BEGIN SELECT RAISE(IGNORE); END;
             CREATE TRIGGER skip_update BEFORE UPDATE ON idempotency_keys BEGIN SELECT RAISE(IGNORE); END",
        );
        expire_that_deletes_nothing_fails(&db, &db.url, "SQLite's RAISE(IGNORE)");
        reap_that_changes_nothing_fails(&db);
    }
    // MariaDB: a view that cannot delete.
    if let Some(db) = TestDb::new(Engine::MySql) {
        crate::common::key_table(&db);
        db.exec(
            "ALTER TABLE idempotency_keys RENAME TO keys_there;
             CREATE VIEW idempotency_keys AS SELECT DISTINCT * FROM keys_there",
        );
        let out = run(crate::common::idemctl_at(&db.url, &["expire", "--older-than", "1m", "--allow-short-retention"]));
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(
            out.stderr.contains("table \"idempotency_keys\" has no primary key to walk in batches"),
            "{}",
            out.stderr
        );
        assert_eq!(db.column("SELECT count(*) FROM keys_there"), [Some("6".to_string())]);
    }
}

/// reap locks the stuck keys, and its change reaches none of them.
fn reap_that_changes_nothing_fails(db: &TestDb) {
    let statuses = || db.column("SELECT status FROM idempotency_keys ORDER BY 1");
    let before = statuses();
    let out = run(db.idemctl(&["reap", "--format", "json", "--max-duration", "30s"]));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("keys it locked for their change were not changed by it"), "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(doc["outcomes"]["no-effect"].as_u64().unwrap() > 0, "{doc}");
    assert_eq!(doc["complete"], false);
    assert_eq!(statuses(), before);
}

/// A creation table partitioned by month: scan on the parent finds the
/// damage across the partitions, a cluster that straddles two included.
fn scan_across_partitions(db: &TestDb) {
    let pg = db.engine == Engine::Postgres;
    let (text, ts) = if pg { ("text", "timestamptz") } else { ("VARCHAR(64)", "DATETIME(6)") };
    if pg {
        db.exec(&format!(
            "CREATE TABLE orders (id bigint NOT NULL, customer_id integer, sku {text}, amount numeric(10,2), created_at {ts} NOT NULL,
               PRIMARY KEY (id, created_at)) PARTITION BY RANGE (created_at);
             CREATE TABLE orders_05 PARTITION OF orders FOR VALUES FROM ('2026-05-01') TO ('2026-06-01');
             CREATE TABLE orders_06 PARTITION OF orders FOR VALUES FROM ('2026-06-01') TO ('2026-07-01');
             CREATE INDEX ON orders (created_at)"
        ));
    } else {
        db.exec(&format!(
            "CREATE TABLE orders (id bigint NOT NULL, customer_id integer, sku {text}, amount decimal(10,2), created_at {ts} NOT NULL,
               PRIMARY KEY (id, created_at), KEY (created_at)) PARTITION BY RANGE COLUMNS(created_at) (
               PARTITION orders_05 VALUES LESS THAN ('2026-06-01'), PARTITION orders_06 VALUES LESS THAN ('2026-07-01'))"
        ));
    }
    let t = |s: &str| db.ts(s);
    db.exec(&format!(
        "INSERT INTO orders VALUES
           (1, 1, 'a', 10.00, {}), (2, 1, 'a', 10.00, {}),
           (3, 2, 'b', 5.00, {}), (4, 2, 'b', 5.00, {}),
           (5, 3, 'c', 7.00, {}), (6, 3, 'c', 7.00, {})",
        t("2026-05-10 10:00:00"),
        t("2026-05-10 10:00:02"),
        // Across the partitions' bound: one cluster still.
        t("2026-05-31 23:59:59"),
        t("2026-06-01 00:00:01"),
        t("2026-06-10 08:00:00"),
        t("2026-06-12 08:00:00"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "orders", "--output", "rows", "--format", "csv"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let rows = crate::common::csv_records(&out.stdout);
    let dups: Vec<&str> = rows[1..].iter().map(|r| r[2].as_str()).collect();
    assert_eq!(dups, ["2", "4"]);
}

#[test]
fn scan_on_a_partitioned_parent() {
    if let Some(db) = TestDb::new(Engine::Postgres) {
        scan_across_partitions(&db);
    }
    if let Some(db) = TestDb::new(Engine::MySql) {
        scan_across_partitions(&db);
    }
}
