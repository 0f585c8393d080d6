//! A fleet in one run: four PostgreSQL databases, two MariaDB databases and
//! two SQLite files, each with known damage and known stuck and expired keys.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{Engine, Run, TestDb};
use serde_json::Value;

/// The database the test gives the `url_env` entry.
const LITE_ENV: &str = "IDEMCTL_TEST_FLEET_LITE_1";

struct Fleet {
    /// (name, database), in the config file's order.
    dbs: Vec<(String, TestDb)>,
    dir: tempfile::TempDir,
    config: PathBuf,
}

/// Orders of database `i`: 20 + 5i intents a minute apart, each a row; the
/// intents with (j + i) % 4 == 0 retried 2 s later, no key (the extra rows'
/// ids are returned).
fn orders(db: &TestDb, i: usize) -> BTreeSet<i64> {
    db.exec(&format!(
        "CREATE TABLE orders (id {pk}, customer_id INTEGER NOT NULL, amount {money} NOT NULL, created_at {ts} NOT NULL)",
        pk = db.ty("pk"),
        money = db.ty("money"),
        ts = db.ty("ts"),
    ));
    let mut values = Vec::new();
    let mut extra = BTreeSet::new();
    let mut id = 0;
    for j in 0..(20 + 5 * i as i64) {
        let at = |s: i64| db.ts(&format!("2026-01-01 {:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60));
        id += 1;
        values.push(format!("({id}, {}, 10.00, {})", 1000 + j, at(j * 60)));
        if (j + i as i64) % 4 == 0 {
            id += 1;
            values.push(format!("({id}, {}, 10.00, {})", 1000 + j, at(j * 60 + 2)));
            extra.insert(id);
        }
    }
    db.exec(&format!("INSERT INTO orders (id, customer_id, amount, created_at) VALUES {}", values.join(", ")));
    extra
}

/// The reference key table, and for database `i`: `i` more keys stuck
/// (locked 10 minutes ago) and `i + 1` keys that expired two days ago.
fn keys(db: &TestDb, i: usize) {
    crate::common::key_table(db);
    let key = db.ident("key");
    let ago = |s: i64| crate::common::ago(db, chrono::Duration::seconds(s));
    let mut rows = Vec::new();
    for m in 0..i {
        rows.push(format!(
            "('s9', 'POST /v1/orders', 'x-{i}-{m}', 'in_progress', {}, {}, {})",
            ago(600),
            ago(600),
            ago(-86_400)
        ));
    }
    for m in 0..=i {
        rows.push(format!(
            "('s9', 'POST /v1/orders', 'old-{i}-{m}', 'succeeded', {}, {}, {})",
            ago(3 * 86_400),
            ago(3 * 86_400),
            ago(2 * 86_400)
        ));
    }
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {key}, status, locked_at, created_at, expires_at) VALUES {}",
        rows.join(", ")
    ));
}

impl Fleet {
    /// The eight databases, or `None` (outside CI) when a server is unreachable.
    fn new() -> Option<Fleet> {
        let engines = [
            ("pg-0", Engine::Postgres, "pg eu"),
            ("pg-1", Engine::Postgres, "pg eu"),
            ("pg-2", Engine::Postgres, "pg us"),
            ("pg-3", Engine::Postgres, "pg us"),
            ("my-0", Engine::MySql, "mysql eu"),
            ("my-1", Engine::MySql, "mysql us"),
            ("lite-0", Engine::Sqlite, "sqlite eu"),
            ("lite-1", Engine::Sqlite, "sqlite us"),
        ];
        let dir = tempfile::tempdir().unwrap();
        let mut dbs = Vec::new();
        let mut config = String::new();
        for (i, (name, engine, tags)) in engines.into_iter().enumerate() {
            let db = TestDb::new(engine)?;
            keys(&db, i);
            let tags: Vec<String> = tags.split(' ').map(|t| format!("\"{t}\"")).collect();
            let url =
                if name == "lite-1" { format!("url_env = \"{LITE_ENV}\"") } else { format!("url = \"{}\"", db.url) };
            config.push_str(&format!("[[databases]]\nname = \"{name}\"\n{url}\ntags = [{}]\n\n", tags.join(", ")));
            dbs.push((name.to_string(), db));
        }
        let path = dir.path().join("idemctl.toml");
        std::fs::write(&path, config).unwrap();
        Some(Fleet { dbs, dir, config: path })
    }

    fn db(&self, name: &str) -> &TestDb {
        &self.dbs.iter().find(|(n, _)| n == name).unwrap().1
    }

    fn names(&self) -> Vec<String> {
        self.dbs.iter().map(|(n, _)| n.clone()).collect()
    }

    /// `idemctl` with the fleet's config file and the environment its `url_env` reads.
    fn idemctl(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("idemctl"));
        cmd.env_remove("DATABASE_URL")
            .env(LITE_ENV, &self.db("lite-1").url)
            .arg("--config")
            .arg(&self.config)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    fn run(&self, args: &[&str]) -> Run {
        crate::common::finish(self.idemctl(args).spawn().unwrap())
    }
}

/// `f(name, row)` of every row of a fleet's JSON report, grouped by database.
fn by_database<T: Ord>(doc: &Value, rows: &str, f: impl Fn(&Value) -> T) -> BTreeMap<String, BTreeSet<T>> {
    let mut out: BTreeMap<String, BTreeSet<T>> = BTreeMap::new();
    for row in doc[rows].as_array().unwrap_or_else(|| panic!("no {rows}: {doc}")) {
        let database = row["database"].as_str().unwrap().to_string();
        // A row listed twice (a key released twice, a merge that repeats a
        // database) would vanish in a set: it is a failure here.
        assert!(out.entry(database).or_default().insert(f(row)), "a row listed twice in {rows}: {row}");
    }
    out
}

/// The same from a single database's JSON report.
fn of_one<T: Ord>(doc: &Value, rows: &str, f: impl Fn(&Value) -> T) -> BTreeSet<T> {
    let mut out = BTreeSet::new();
    for row in doc[rows].as_array().unwrap_or_else(|| panic!("no {rows}: {doc}")) {
        assert!(out.insert(f(row)), "a row listed twice in {rows}: {row}");
    }
    out
}

fn single(db: &TestDb, args: &[&str]) -> Value {
    let mut cmd = db.idemctl(args);
    cmd.arg("--no-config");
    let out = crate::common::run(cmd);
    assert!(out.code <= 1, "{}", out.stderr);
    out.json()
}

fn extra_ids(row: &Value) -> Vec<i64> {
    row["extra_ids"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().parse().unwrap()).collect()
}

fn summary_of<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["by_database"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["database"] == name)
        .unwrap_or_else(|| panic!("{name}: {doc}"))
}

#[test]
fn merged_reports_are_the_sum_of_single_runs() {
    let Some(fleet) = Fleet::new() else { return };
    let mut expected_extra = BTreeMap::new();
    for (i, (name, db)) in fleet.dbs.iter().enumerate() {
        expected_extra.insert(name.clone(), orders(db, i));
    }

    let out = fleet.run(&["scan", "--all-databases", "--table", "orders", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(doc["databases"], serde_json::json!(fleet.names()));
    let merged = by_database(&doc, "clusters", extra_ids);
    let mut extra_total = 0;
    for (name, db) in &fleet.dbs {
        let alone = of_one(&single(db, &["scan", "--table", "orders", "--format", "json"]), "clusters", extra_ids);
        assert_eq!(merged[name], alone, "{name}");
        let flat: BTreeSet<i64> = alone.iter().flatten().copied().collect();
        assert_eq!(flat, expected_extra[name], "{name}");
        assert_eq!(summary_of(&doc, name)["extra_rows"], flat.len(), "{name}");
        assert_eq!(summary_of(&doc, name)["exit_code"], 1, "{name}");
        extra_total += flat.len();
    }
    assert_eq!(doc["total"]["extra_rows"], extra_total);
    assert_eq!(doc["total"]["cluster_count"], extra_total, "one extra row a cluster");
    assert_eq!(doc["total"]["clusters_by_cause"]["unknown"], extra_total, "no key column: cause unknown");
    assert_eq!(doc["failed_databases"], serde_json::json!([]));
    assert_eq!(doc["complete"], true);
    // The sum at stake adds up as decimals: 10.00 an extra row.
    let out = fleet.run(&["scan", "--all-databases", "--table", "orders", "--sum", "amount", "--format", "json"]);
    let doc = out.json();
    assert_eq!(doc["total"]["sum_at_stake"]["amount"].to_string(), format!("{}", extra_total * 10), "{}", doc["total"]);
    assert_eq!(
        summary_of(&doc, "pg-1")["sum_at_stake"]["amount"].to_string(),
        format!("{}.00", expected_extra["pg-1"].len() * 10)
    );
    // The table format: the same leading column, each database's rows together, in the list's order.
    let out = fleet.run(&["scan", "--all-databases", "--table", "orders"]);
    let header = out.stdout.lines().find(|l| l.contains("cluster")).unwrap();
    assert!(header.trim_start().starts_with("database "), "{header}");
    let order: Vec<&str> = out
        .stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| fleet.names().iter().any(|n| n == w))
        .collect();
    let mut grouped = order.clone();
    grouped.dedup();
    assert_eq!(grouped, fleet.names(), "one block a database, in order");

    let out = fleet.run(&["stuck", "--all-databases", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    let key = |row: &Value| row["key"].as_str().unwrap().to_string();
    let merged = by_database(&doc, "keys", key);
    let mut stuck_total = 0;
    for (i, (name, db)) in fleet.dbs.iter().enumerate() {
        let alone = of_one(&single(db, &["stuck", "--format", "json"]), "keys", key);
        assert_eq!(merged[name], alone, "{name}");
        let mut expected: BTreeSet<String> = ["k-nolock", "k-ord-6m"].map(String::from).into();
        expected.extend((0..i).map(|m| format!("x-{i}-{m}")));
        assert_eq!(alone, expected, "{name}");
        assert_eq!(summary_of(&doc, name)["stuck_keys"], alone.len());
        stuck_total += alone.len();
    }
    assert_eq!(doc["total"]["stuck_keys"], stuck_total);
    assert_eq!(stuck_total, 2 * 8 + 28);

    // CSV: the same rows, each led by its database.
    let out = fleet.run(&["stuck", "--all-databases", "--format", "csv"]);
    let records = crate::common::csv_records(&out.stdout);
    assert_eq!(records[0][..3], ["database", "scope", "operation"]);
    assert_eq!(records.len() - 1, stuck_total);
    assert!(out.stderr.starts_with(&format!("config file: {}\n", fleet.config.display())), "once: {}", out.stderr);
    assert_eq!(out.stderr.matches("config file").count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains(&format!("total (8 databases): stuck keys: {stuck_total}")), "{}", out.stderr);

    let out = fleet.run(&["size", "--all-databases", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc = out.json();
    let rows: u64 = (0..8).map(|i| 6 + i + (i + 1)).sum();
    assert_eq!(doc["total"]["storage"]["rows"], rows, "{doc}");
    for (i, (name, _)) in fleet.dbs.iter().enumerate() {
        assert_eq!(summary_of(&doc, name)["storage"]["rows"], 6 + 2 * i + 1, "{name}");
    }
    // Projections add up item by item (at a given write rate; each database's row size its own).
    let out = fleet.run(&["size", "--all-databases", "--rate", "1000/day", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc = out.json();
    let projected = |entry: &Value| entry["projections"][0]["bytes"].as_u64().unwrap();
    let sum: u64 = fleet.names().iter().map(|n| projected(summary_of(&doc, n))).sum();
    assert!(sum > 0);
    assert_eq!(projected(&doc["total"]), sum);

    let out = fleet.run(&["doctor", "--all-databases", "--format", "json"]);
    let doc = out.json();
    let check = |row: &Value| format!("{}={}", row["check"].as_str().unwrap(), row["result"].as_str().unwrap());
    let merged = by_database(&doc, "checks", check);
    for (name, db) in &fleet.dbs {
        assert_eq!(merged[name], of_one(&single(db, &["doctor", "--format", "json"]), "checks", check), "{name}");
    }
}

/// Every key of a database's key table, in order.
fn remaining(db: &TestDb) -> Vec<String> {
    let key = db.ident("key");
    db.column(&format!("SELECT {key} FROM idempotency_keys ORDER BY {key}")).into_iter().flatten().collect()
}

/// A writer's first line, once it has checked that the next list each
/// database, its name and where it is, in order.
fn listed(stderr: &str, fleet: &Fleet) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    for (i, (name, db)) in fleet.dbs.iter().enumerate() {
        let engine = match db.engine {
            Engine::Postgres => "postgres",
            Engine::MySql => "mysql",
            Engine::Sqlite => "sqlite",
        };
        assert!(lines[i + 1].starts_with(&format!("  {name:<6}  {engine} ")), "line {}: {stderr}", i + 1);
    }
    lines[0].to_string()
}

#[test]
fn writers_list_the_fleet_first_and_dry_run_covers_all() {
    let Some(fleet) = Fleet::new() else { return };
    let before: Vec<Vec<String>> = fleet.dbs.iter().map(|(_, db)| remaining(db)).collect();

    let out = fleet.run(&["expire", "--all-databases", "--dry-run", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(listed(&out.stderr, &fleet), "expire --dry-run: nothing changes on 8 databases, 4 at a time:");
    let doc = out.json();
    for (i, (name, _)) in fleet.dbs.iter().enumerate() {
        assert_eq!(summary_of(&doc, name)["rows_matching"], i + 1, "{name}");
        assert_eq!(summary_of(&doc, name)["rows_deleted"], 0, "{name}");
    }
    let after: Vec<Vec<String>> = fleet.dbs.iter().map(|(_, db)| remaining(db)).collect();
    assert_eq!(after, before, "a dry run changes nothing anywhere");

    let out = fleet.run(&["expire", "--all-databases", "--parallel", "3", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(listed(&out.stderr, &fleet), "expire will change 8 databases, 3 at a time:");
    let doc = out.json();
    assert_eq!(doc["total"]["rows_deleted"], (1..=8).sum::<u64>());
    for (i, (name, db)) in fleet.dbs.iter().enumerate() {
        assert_eq!(summary_of(&doc, name)["rows_deleted"], i + 1, "{name}");
        let expected: Vec<String> = before[i].iter().filter(|k| !k.starts_with("old-")).cloned().collect();
        assert_eq!(remaining(db), expected, "{name}: exactly its expired keys went");
    }

    let out = fleet.run(&["reap", "--all-databases", "--format", "json", "--quiet"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "", "--quiet says nothing, the list included");
    let doc = out.json();
    let released = by_database(&doc, "keys", |row| {
        (row["key"].as_str().unwrap().to_string(), row["outcome"].as_str().unwrap().to_string())
    });
    for (i, (name, _)) in fleet.dbs.iter().enumerate() {
        let mut expected: BTreeSet<(String, String)> =
            ["k-nolock", "k-ord-6m"].map(|k| (k.to_string(), "released".to_string())).into();
        expected.extend((0..i).map(|m| (format!("x-{i}-{m}"), "released".to_string())));
        assert_eq!(released[name], expected, "{name}");
    }
    assert_eq!(doc["total"]["outcomes"]["released"], 2 * 8 + 28);
}

#[test]
fn an_unreachable_database_fails_alone() {
    let Some(fleet) = Fleet::new() else { return };
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut config = std::fs::read_to_string(&fleet.config).unwrap();
    config.push_str(&format!("[[databases]]\nname = \"down\"\nurl = \"postgres://root@127.0.0.1:{port}/gone\"\n"));
    std::fs::write(&fleet.config, config).unwrap();

    let out = fleet.run(&["stuck", "--all-databases", "--format", "json"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let last = out.stderr.lines().last().unwrap();
    assert!(
        last.starts_with(
            "idemctl: stuck failed on 1 of 9 databases: down (cannot connect to postgres://root@127.0.0.1:"
        ),
        "{last}"
    );
    let doc = out.json();
    assert_eq!(doc["failed_databases"], serde_json::json!(["down"]));
    assert_eq!(doc["complete"], false);
    let down = summary_of(&doc, "down");
    assert_eq!(down["exit_code"], 2);
    assert!(down["error"].as_str().unwrap().contains("Connection refused"), "{down}");
    let keys = by_database(&doc, "keys", |row| row["key"].as_str().unwrap().to_string());
    for (i, name) in fleet.names().iter().enumerate() {
        assert_eq!(summary_of(&doc, name)["exit_code"], 1, "{name}");
        assert_eq!(keys[name].len(), 2 + i, "{name}: every other database reported in full");
    }
    assert_eq!(doc["total"]["stuck_keys"], 2 * 8 + 28);

    // For people: each database's line, the failed one with its cause.
    let out = fleet.run(&["stuck", "--all-databases", "--format", "csv"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.lines().any(|l| l.starts_with(" down ")
            && l.contains(" error ")
            && l.contains("cannot connect to postgres://root@127.0.0.1:")),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("\ntotal (8 of 9 databases reported, 1 failed): stuck keys: 44;"), "{}", out.stderr);
}

/// Starts a fleet reap that stops before its first batch on each database, until told to go on.
fn paused_reap(fleet: &Fleet, pause: &Path, args: &[&str]) -> std::process::Child {
    let mut cmd = fleet.idemctl(&["reap", "--format", "json", "--parallel", "8"]);
    cmd.args(args).env("IDEMCTL_TEST_PAUSE_BEFORE_BATCH", pause);
    cmd.spawn().unwrap()
}

#[test]
fn a_second_fleet_reaper_exits_3_where_the_first_holds_the_lock() {
    let Some(fleet) = Fleet::new() else { return };
    let pause = fleet.dir.path().join("pause");
    let p = pause.to_str().unwrap();
    // The first reaper holds the eu databases: pg-0, pg-1, my-0, lite-0.
    let first = paused_reap(&fleet, &pause, &["--tag", "eu"]);
    for i in 0..4 {
        crate::common::wait_for(&format!("{p}-{i}.waiting.1"));
    }
    let out = fleet.run(&["reap", "--all-databases", "--format", "json"]);
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert_eq!(out.stderr.lines().last().unwrap(), "idemctl: another run holds the lock on pg-0, pg-1, my-0, lite-0");
    let second = out.json();
    std::fs::write(format!("{p}.1"), b"").unwrap();
    let first = crate::common::finish(first);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let first = first.json();
    assert_eq!(first["databases"], serde_json::json!(["pg-0", "pg-1", "my-0", "lite-0"]));

    let key = |row: &Value| (row["key"].as_str().unwrap().to_string(), row["outcome"].as_str().unwrap().to_string());
    let (by_first, by_second) = (by_database(&first, "keys", key), by_database(&second, "keys", key));
    for (i, name) in fleet.names().iter().enumerate() {
        let eu = ["pg-0", "pg-1", "my-0", "lite-0"].contains(&name.as_str());
        assert_eq!(summary_of(&second, name)["exit_code"], if eu { 3 } else { 0 }, "{name}");
        let (done, untouched) = if eu { (&by_first, &by_second) } else { (&by_second, &by_first) };
        let mut expected: BTreeSet<(String, String)> =
            ["k-nolock", "k-ord-6m"].map(|k| (k.to_string(), "released".to_string())).into();
        expected.extend((0..i).map(|m| (format!("x-{i}-{m}"), "released".to_string())));
        assert_eq!(done[name], expected, "{name}: released once, by the run holding its lock");
        assert!(!untouched.contains_key(name), "{name}: the other run processed nothing");
    }
}

#[test]
fn selection_by_tag_and_name_is_exact() {
    let Some(fleet) = Fleet::new() else { return };
    let picked = |args: &[&str]| {
        let mut all = vec!["doctor", "--format", "json"];
        all.extend_from_slice(args);
        let out = fleet.run(&all);
        assert!(out.code <= 1, "{args:?}: {}", out.stderr);
        out.json()["databases"].clone()
    };
    assert_eq!(picked(&["--tag", "pg"]), serde_json::json!(["pg-0", "pg-1", "pg-2", "pg-3"]));
    assert_eq!(picked(&["--tag", "eu,pg"]), serde_json::json!(["pg-0", "pg-1"]));
    assert_eq!(picked(&["--tag", "mysql", "--tag", "sqlite"]), serde_json::json!(["my-0", "my-1", "lite-0", "lite-1"]));
    assert_eq!(picked(&["--database", "lite-1", "--database", "pg-2"]), serde_json::json!(["pg-2", "lite-1"]));
    assert_eq!(picked(&["--database", "my-1", "--tag", "us,pg"]), serde_json::json!(["pg-2", "pg-3", "my-1"]));

    let refused = |args: &[&str]| {
        let before: Vec<Vec<String>> = fleet.dbs.iter().map(|(_, db)| remaining(db)).collect();
        let mut all = vec!["expire"];
        all.extend_from_slice(args);
        let out = fleet.run(&all);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        let after: Vec<Vec<String>> = fleet.dbs.iter().map(|(_, db)| remaining(db)).collect();
        assert_eq!(after, before, "nothing changed");
        out.stderr
    };
    assert_eq!(
        refused(&["--tag", "apac"]),
        "idemctl: --tag apac: no database carries apac; the tags in use: eu, mysql, pg, sqlite, us\n"
    );
    assert_eq!(
        refused(&["--tag", "eu,us"]),
        "idemctl: --tag eu,us: no database carries all of eu, us; the tags in use: eu, mysql, pg, sqlite, us\n"
    );
    let typo = refused(&["--database", "pg-9"]);
    assert!(
        typo.starts_with("idemctl: --database pg-9: no database of that name (did you mean pg-0?); known: pg-0, pg-1,"),
        "{typo}"
    );
    let none = refused(&[]);
    assert_eq!(
        none,
        format!(
            "idemctl: no database: give --database-url URL, or set DATABASE_URL, or pick from the 8 databases of {} \
             with --database NAME, --tag T or --all-databases\n",
            fleet.config.display()
        )
    );
    let both = refused(&["--all-databases", "--database-url", "postgres://root@127.0.0.1/test"]);
    assert!(both.contains("give one or the other"), "{both}");
    // The same database under two names would be read twice.
    let mut config = std::fs::read_to_string(&fleet.config).unwrap();
    config.push_str(&format!("[[databases]]\nname = \"pg-0-again\"\nurl = \"{}\"\n", fleet.db("pg-0").url));
    std::fs::write(&fleet.config, &config).unwrap();
    let twice = refused(&["--all-databases"]);
    assert!(
        twice.starts_with(&format!(
            "idemctl: pg-0 and pg-0-again are the same database (postgres {}/",
            crate::common::host_port(&fleet.db("pg-0").url)
        )),
        "{twice}"
    );
    assert_eq!(
        picked(&["--database", "pg-0-again", "--tag", "mysql"]),
        serde_json::json!(["my-0", "my-1", "pg-0-again"])
    );
}

#[test]
fn url_env_is_read_and_a_missing_variable_is_named() {
    let Some(fleet) = Fleet::new() else { return };
    let out = fleet.run(&["stuck", "--database", "lite-1", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(by_database(&out.json(), "keys", |r| r["key"].to_string())["lite-1"].len(), 2 + 7);

    // Unset, lite-1 fails alone, named with its variable; every other database runs.
    let metrics = fleet.dir.path().join("stuck.prom");
    let mut cmd =
        fleet.idemctl(&["stuck", "--all-databases", "--format", "json", "--metrics-file", metrics.to_str().unwrap()]);
    cmd.env_remove(LITE_ENV);
    let out = crate::common::finish(cmd.spawn().unwrap());
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr.lines().last().unwrap(),
        format!(
            "idemctl: stuck failed on 1 of 8 databases: lite-1 (the environment variable {LITE_ENV} (its url_env) is not set)"
        )
    );
    let doc = out.json();
    assert_eq!(doc["failed_databases"], serde_json::json!(["lite-1"]));
    assert_eq!(doc["total"]["stuck_keys"], 2 * 7 + 21, "the seven others in full");
    assert_eq!(summary_of(&doc, "lite-1")["stuck_keys"], Value::Null, "the same keys, null");
    let text = std::fs::read_to_string(&metrics).unwrap();
    assert!(
        text.contains("idemctl_run_exit_code{command=\"stuck\",database=\"lite-1\",table=\"idempotency_keys\"} 2"),
        "{text}"
    );
    assert!(text.contains("idemctl_stuck_keys{command=\"stuck\",database=\"pg-0\","), "{text}");
    // A fleet that cannot start leaves the metrics file as it was.
    let bad = fleet.run(&["stuck", "--tag", "apac", "--metrics-file", metrics.to_str().unwrap()]);
    assert_eq!(bad.code, 2);
    assert_eq!(std::fs::read_to_string(&metrics).unwrap(), text);
    // A database not picked needs no variable.
    let mut cmd = fleet.idemctl(&["stuck", "--tag", "pg"]);
    cmd.env_remove(LITE_ENV);
    assert_eq!(crate::common::finish(cmd.spawn().unwrap()).code, 1);
}

#[test]
fn a_list_of_urls_names_each_by_host_and_database() {
    let Some(fleet) = Fleet::new() else { return };
    let list = fleet.dir.path().join("fleet.txt");
    let (pg, my) = (fleet.db("pg-1"), fleet.db("my-1"));
    std::fs::write(&list, format!("# shards\n{}\n\n{}   # the MariaDB one\n", pg.url, my.url)).unwrap();
    let mut cmd = fleet.idemctl(&["stuck", "--format", "json", "--databases", list.to_str().unwrap()]);
    cmd.arg("--no-config");
    let out = crate::common::finish(cmd.spawn().unwrap());
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    let names = [
        format!("{}/{}", crate::common::host(&pg.url), pg.name),
        format!("{}/{}", crate::common::host(&my.url), my.name),
    ];
    assert_eq!(doc["databases"], serde_json::json!(names));
    let keys = by_database(&doc, "keys", |r| r["key"].as_str().unwrap().to_string());
    assert_eq!(keys[&names[0]].len(), 3);
    assert_eq!(keys[&names[1]].len(), 7);
}

#[test]
fn metrics_are_labelled_with_the_database() {
    let Some(fleet) = Fleet::new() else { return };
    let metrics = fleet.dir.path().join("fleet.prom");
    let out = fleet.run(&["stuck", "--tag", "eu", "--quiet", "--metrics-file", metrics.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let text = std::fs::read_to_string(&metrics).unwrap();
    let scrape = prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap();
    let mut stuck: BTreeMap<String, f64> = BTreeMap::new();
    let mut codes: BTreeMap<String, f64> = BTreeMap::new();
    for sample in &scrape.samples {
        let db = sample.labels.get("database").unwrap_or_default().to_string();
        let prometheus_parse::Value::Gauge(v) = sample.value else { continue };
        match sample.metric.as_str() {
            "idemctl_stuck_keys" => *stuck.entry(db).or_default() += v,
            "idemctl_run_exit_code" => {
                codes.insert(db, v);
            }
            _ => {}
        }
    }
    let eu = |values: [f64; 4]| -> BTreeMap<String, f64> {
        ["pg-0", "pg-1", "my-0", "lite-0"].iter().map(|n| n.to_string()).zip(values).collect()
    };
    assert_eq!(stuck, eu([2.0, 3.0, 6.0, 8.0]));
    assert_eq!(codes, eu([1.0; 4]));
}

/// An expire across `pick`, a row a batch, interrupted (SIGINT) once the
/// first `in_flight` databases have deleted a row and wait before their
/// second batch; released once each has seen the signal, when no statement
/// may start. (A batch interrupted inside its statements is rolled back:
/// `faults::a_signal_mid_batch_rolls_the_batch_back` and
/// `reap::a_signal_inside_the_batch_statement_rolls_it_back`.)
fn interrupted_expire(fleet: &Fleet, pick: &str, in_flight: usize) -> Run {
    let pause = fleet.dir.path().join("pause");
    let p = pause.to_str().unwrap();
    std::fs::write(format!("{p}.1"), b"").unwrap();
    let mut cmd = fleet.idemctl(&["expire", pick, "--format", "json", "--batch-size", "1", "--batch-time", "0s"]);
    let child = cmd.env("IDEMCTL_TEST_PAUSE_BEFORE_BATCH", &pause).spawn().unwrap();
    for i in 0..in_flight {
        crate::common::wait_for(&format!("{p}-{i}.waiting.2"));
    }
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    // Released only once every paused database has seen the signal.
    for i in 0..in_flight {
        crate::common::wait_for(&format!("{p}-{i}.waiting.2.interrupted"));
    }
    std::fs::write(format!("{p}.2"), b"").unwrap();
    crate::common::finish(child)
}

#[test]
fn ctrl_c_stops_every_database_after_its_batch_under_way() {
    let Some(fleet) = Fleet::new() else { return };
    for (_, db) in &fleet.dbs {
        // Every database has at least two expired keys: batch 2 exists everywhere.
        let old = crate::common::ago(db, chrono::Duration::days(2));
        db.exec(&format!(
            "INSERT INTO idempotency_keys (scope_id, operation, {}, status, created_at, expires_at) VALUES
             ('s8', 'op', 'old-extra', 'succeeded', {old}, {old})",
            db.ident("key")
        ));
    }
    let before: Vec<Vec<String>> = fleet.dbs.iter().map(|(_, db)| remaining(db)).collect();
    // Four run at a time: each has deleted its first row, and is about to delete its second.
    let out = interrupted_expire(&fleet, "--all-databases", 4);
    assert_eq!(out.code, 130, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(doc["complete"], false);
    assert_eq!(doc["reason"], "interrupted");
    for (i, (name, db)) in fleet.dbs.iter().enumerate() {
        let entry = summary_of(&doc, name);
        let left = remaining(db);
        if i < 4 {
            // Batch 1 stays deleted; batch 2, seen the signal, deleted nothing; no other began.
            assert_eq!(entry["rows_deleted"], 1, "{name}: {entry}");
            assert_eq!(entry["stopped"], "interrupted", "{name}");
            assert_eq!((&entry["error"], &entry["exit_code"]), (&Value::Null, &Value::from(130)), "{name}: no failure");
            assert_eq!(left.len(), before[i].len() - 1, "{name}");
        } else {
            assert_eq!(entry["reason"], "not started: interrupted", "{name}");
            assert_eq!((&entry["error"], &entry["exit_code"]), (&Value::Null, &Value::from(130)), "{name}");
            assert_eq!(left, before[i], "{name}: never started");
        }
    }
    assert_eq!(doc["total"]["rows_deleted"], 4, "what the interrupted databases did counts");
}

#[test]
fn ndjson_and_state_files_per_database() {
    let Some(fleet) = Fleet::new() else { return };
    for (i, (_, db)) in fleet.dbs.iter().enumerate() {
        orders(db, i);
    }
    let out = fleet.run(&["scan", "--tag", "sqlite", "--table", "orders", "--format", "ndjson"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let lines: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let (last, rows) = lines.split_last().unwrap();
    assert!(rows.iter().all(|r| r["type"] == "cluster" && (r["database"] == "lite-0" || r["database"] == "lite-1")));
    assert_eq!(rows.len(), 12 + 14, "lite-0 (i = 6) has 12 retried intents of 50, lite-1 (i = 7) 14 of 55");
    assert_eq!(last["type"], "summary");
    assert_eq!(last["total"]["extra_rows"], 26);
    assert_eq!(last["by_database"][1]["database"], "lite-1");
    assert_eq!(last["by_database"][1]["extra_rows"], 14);

    // --state: one file per database, named by {database}.
    let refused = fleet.run(&["scan", "--tag", "sqlite", "--table", "orders", "--state", "/tmp/orders.state"]);
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.stderr,
        "idemctl: --state across several databases needs {database} in its path, so that each keeps its own\n"
    );
    let state = fleet.dir.path().join("orders.{database}.state");
    let args = ["scan", "--tag", "sqlite", "--table", "orders", "--format", "json", "--state", state.to_str().unwrap()];
    let first = fleet.run(&args);
    assert_eq!(first.code, 1, "{}", first.stderr);
    for name in ["lite-0", "lite-1"] {
        assert!(fleet.dir.path().join(format!("orders.{name}.state")).is_file(), "{name}");
    }
    // One database alone: {database} is its host/database (here its file), made fit for a file name.
    let lite = fleet.db("lite-0");
    let mut cmd = lite.idemctl(&["scan", "--table", "orders", "--format", "json", "--no-config"]);
    cmd.arg("--state").arg(fleet.dir.path().join("single.{database}.state"));
    assert_eq!(crate::common::run(cmd).code, 1);
    let made: Vec<String> = std::fs::read_dir(fleet.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("single."))
        .collect();
    let path_name: String = lite.url.trim_start_matches("sqlite:").replace('/', "_");
    assert_eq!(made, [format!("single.{path_name}.state")]);
    // The next run reads on from each database's own state: nothing new anywhere.
    let again = fleet.run(&args);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.json()["clusters"], serde_json::json!([]));
}

/// Adds a database on a closed port to the fleet's config file, as `name`.
fn add_down(fleet: &Fleet, name: &str) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut config = std::fs::read_to_string(&fleet.config).unwrap();
    config.push_str(&format!(
        "[[databases]]\nname = \"{name}\"\nurl = \"postgres://root@127.0.0.1:{port}/gone\"\ntags = [\"sqlite\"]\n"
    ));
    std::fs::write(&fleet.config, config).unwrap();
}

#[test]
fn an_error_outranks_ctrl_c_and_max_runtime_is_the_fleets() {
    let Some(fleet) = Fleet::new() else { return };
    add_down(&fleet, "down");
    // lite-0 and lite-1 have 7 and 8 expired keys: each deletes one, then waits before its second batch.
    let out = interrupted_expire(&fleet, "--tag=sqlite", 2);
    assert_eq!(out.code, 2, "the failure is said, not hidden by the interruption: {}", out.stderr);
    let last = out.stderr.lines().last().unwrap();
    assert!(
        last.starts_with("idemctl: expire failed on 1 of 3 databases: down (cannot connect to postgres://"),
        "{last}"
    );
    let doc = out.json();
    for name in ["lite-0", "lite-1"] {
        assert_eq!(summary_of(&doc, name)["exit_code"], 130, "{name}");
        assert_eq!(summary_of(&doc, name)["rows_deleted"], 1, "{name}");
    }

    // --max-runtime ends the whole run: one database at a time, a batch a row and a second's
    // pause after each (pg-0 walks 7 rows), 2 s in all: pg-0 stops at it, the others never start.
    let before: Vec<Vec<String>> = fleet.dbs.iter().map(|(_, db)| remaining(db)).collect();
    let started = std::time::Instant::now();
    let out = fleet.run(&[
        "expire",
        "--tag",
        "pg",
        "--parallel",
        "1",
        "--batch-size",
        "1",
        "--batch-time",
        "0s",
        "--sleep",
        "1s",
        "--max-runtime",
        "2s",
        "--format",
        "json",
    ]);
    let took = started.elapsed();
    assert_eq!(out.code, 1, "databases left for the next run: {}", out.stderr);
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    let doc = out.json();
    assert_eq!(summary_of(&doc, "pg-0")["stopped"], "max-runtime", "{doc}");
    for (i, name) in ["pg-1", "pg-2", "pg-3"].iter().enumerate() {
        let entry = summary_of(&doc, name);
        assert_eq!(entry["reason"], "not started: --max-runtime passed", "{name}");
        assert_eq!(entry["exit_code"], 1, "{name}");
        assert_eq!(remaining(fleet.db(name)), before[i + 1], "{name} untouched");
    }
}

/// Each numeric leaf of a JSON value, by its JSON pointer.
fn leaves(value: &Value, at: &str, out: &mut Vec<(String, f64)>) {
    match value {
        Value::Object(map) => map.iter().for_each(|(k, v)| leaves(v, &format!("{at}/{k}"), out)),
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| leaves(v, &format!("{at}/{i}"), out)),
        Value::Number(n) => out.push((at.to_string(), n.as_f64().unwrap())),
        _ => {}
    }
}

/// Two demo databases (SQLite) and the `--databases` file that lists them.
fn two_demos() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let mut list = String::new();
    for name in ["one", "two"] {
        let path = dir.path().join(format!("{name}.db"));
        let mut cmd = assert_cmd::Command::cargo_bin("idemctl").unwrap();
        cmd.args(["demo", "--quiet", "--format", "csv", "--path"]).arg(&path);
        let made = crate::common::run(cmd);
        assert_eq!(made.code, 0, "{}", made.stderr);
        list.push_str(&format!("sqlite:{}\n", path.display()));
    }
    let file = dir.path().join("databases.txt");
    std::fs::write(&file, list).unwrap();
    (dir, file)
}

/// A fleet's table shows what a single run's shows, led by the database:
/// stuck's compact columns with ages for people, expire's figures as lines.
#[test]
fn a_fleets_table_is_the_commands_view() {
    let (_dir, file) = two_demos();
    // One instant for every run: the demo's keys keep expiring as time passes.
    let now = chrono::Utc::now().to_rfc3339();
    let table = |args: &[&str]| {
        let mut cmd = assert_cmd::Command::cargo_bin("idemctl").unwrap();
        cmd.env("IDEMCTL_TEST_NOW", &now).env_remove("DATABASE_URL").env("COLUMNS", "100");
        cmd.args(args).args(["--no-config", "--databases"]).arg(&file);
        let out = crate::common::run(cmd);
        assert!(out.code == 0 || out.code == 1, "{args:?}: {}", out.stderr);
        out.stdout
    };
    let stuck = table(&["stuck"]);
    let header: Vec<&str> = stuck.lines().nth(1).unwrap_or_default().split_whitespace().collect();
    assert_eq!(header, ["database", "operation", "key", "state", "age"], "{stuck}");
    assert!(stuck.lines().any(|l| l.contains("inflight-19-93600") && l.trim_end().ends_with("1d 2h")), "{stuck}");
    let expire = table(&["expire", "--dry-run"]);
    assert_eq!(expire.lines().filter(|l| l.starts_with("rows matching: ")).count(), 2, "{expire}");
    assert!(!expire.contains('│'), "{expire}");
    // The real run deletes on each database what its dry run counted.
    let figures = |text: &str, name: &str| -> Vec<String> {
        text.lines().filter_map(|l| l.strip_prefix(name)).map(String::from).collect()
    };
    let real = table(&["expire"]);
    let deleted = figures(&real, "rows deleted: ");
    assert_eq!(deleted.len(), 2, "{real}");
    assert_eq!(deleted, figures(&expire, "rows matching: "), "{real}");
}

/// Every figure of a time or an extreme (`_seconds`, `_ms`, `days`,
/// `slowest`, `largest`, `oldest`, `smallest`, ...) that a command reports
/// is one its definition says how to fold: across two databases its total is
/// the larger (or smaller) of theirs, never their sum. A figure added
/// without its fold fails here.
#[test]
fn times_and_extremes_fold_as_their_commands_say() {
    let (_dir, file) = two_demos();
    let commands: [&[&str]; 6] = [
        &["stuck"],
        &["reap", "--dry-run"],
        &["expire", "--dry-run"],
        &["size"],
        &["doctor"],
        &["scan", "--table", "orders"],
    ];
    // One instant for every run: the demo's keys keep expiring as time passes.
    let now = chrono::Utc::now().to_rfc3339();
    let json_run = |args: &[&str]| {
        let mut cmd = assert_cmd::Command::cargo_bin("idemctl").unwrap();
        cmd.env("IDEMCTL_TEST_NOW", &now)
            .env_remove("DATABASE_URL")
            .args(args)
            .args(["--no-config", "--format", "json", "--databases"])
            .arg(&file);
        crate::common::run(cmd)
    };
    let mut dry = Vec::new();
    for args in commands {
        let out = json_run(args);
        assert!(out.code == 0 || out.code == 1, "{args:?}: {}", out.stderr);
        let doc = out.json();
        let mut total = Vec::new();
        leaves(&doc["total"], "", &mut total);
        let entries: Vec<&Value> = doc["by_database"].as_array().unwrap().iter().collect();
        assert_eq!(entries.len(), 2, "{args:?}: {doc}");
        let mut checked = 0;
        for (path, value) in total {
            let key = path.rsplit('/').next().unwrap();
            let extreme = ["slowest", "largest", "oldest", "smallest", "max_", "min_", "median"];
            let timed = key.ends_with("seconds") || key.ends_with("_ms") || key.ends_with("days");
            if key == "elapsed_seconds" || !(timed || extreme.iter().any(|p| key.starts_with(p))) {
                continue;
            }
            let each: Vec<f64> = entries.iter().filter_map(|e| e.pointer(&path).and_then(Value::as_f64)).collect();
            let want = if key.starts_with("smallest") || key.starts_with("min_") {
                each.iter().copied().fold(f64::INFINITY, f64::min)
            } else {
                each.iter().copied().fold(f64::NEG_INFINITY, f64::max)
            };
            assert_eq!(value, want, "{args:?} {path}: total {value}, databases {each:?}");
            checked += 1;
        }
        assert!(checked > 0 || args[0] == "doctor", "{args:?}: no time or extreme checked in {}", doc["total"]);
        if args.contains(&"--dry-run") {
            dry.push((args, doc));
        }
    }
    // The dry runs, followed by the real runs on the same (unchanged) demos:
    // what each promised in total is what the real run did. expire goes
    // first: keys reap releases are no longer in progress, and expire would
    // take those past their expiry too.
    for (args, promised) in dry.into_iter().rev() {
        let out = json_run(&args[..1]);
        assert!(out.code == 0 || out.code == 1, "{args:?} for real: {}", out.stderr);
        let (promised, done) = (&promised["total"], &out.json()["total"]);
        match args[0] {
            "expire" => assert_eq!(promised["rows_matching"], done["rows_deleted"], "{done}"),
            _ => {
                let outcomes = |t: &Value| -> BTreeMap<String, u64> {
                    let each = t["outcomes"].as_object().unwrap().iter();
                    let counted = each.filter(|(_, n)| n.as_u64() > Some(0));
                    counted.map(|(k, n)| (crate::common::as_done(k), n.as_u64().unwrap())).collect()
                };
                assert_eq!(outcomes(promised), outcomes(done), "{done}");
            }
        }
    }
}
