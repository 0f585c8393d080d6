//! `idemctl demo`: a deterministic SQLite database with damage of every cause.

use crate::common::{Engine, TestDb, csv_records, run};
use assert_cmd::Command;

fn demo(path: &std::path::Path) -> crate::common::Run {
    let mut cmd = Command::cargo_bin("idemctl").unwrap();
    cmd.args(["demo", "--path"]).arg(path);
    run(cmd)
}

fn rows_csv(path: &std::path::Path) -> String {
    let mut cmd = Command::cargo_bin("idemctl").unwrap();
    cmd.args(["scan", "--table", "orders", "--output", "rows", "--format", "csv", "--quiet", "--database-url"])
        .arg(format!("sqlite:{}", path.display()));
    let out = run(cmd);
    assert_eq!(out.code, 1, "the demo has damage: {}", out.stderr);
    out.stdout
}

#[test]
fn demo_creates_damage_of_every_cause_the_same_each_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo.db");
    let first = demo(&path);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first.stderr.contains("cluster count: 139 (no-key 42, key-per-attempt 59, key-reused 38)"),
        "{}",
        first.stderr
    );
    assert!(first.stderr.contains("extra rows: 163"), "{}", first.stderr);
    assert!(first.stdout.contains("Try next:"));
    let before = rows_csv(&path);
    let records = csv_records(&before);
    assert_eq!(records.len(), 164, "header and one line per extra row");
    for cause in ["no-key", "key-per-attempt", "key-reused"] {
        assert!(records.iter().any(|r| r[4] == cause), "a {cause} cluster");
    }
    // A second run replaces its own database with the same data.
    let second = demo(&path);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert_eq!(rows_csv(&path), before);

    let db = TestDb::open_sqlite(&path);
    assert_eq!(db.engine, Engine::Sqlite);
    let statuses = db.column("SELECT status || ':' || count(*) FROM idempotency_keys GROUP BY status ORDER BY status");
    let statuses: Vec<String> = statuses.into_iter().flatten().collect();
    assert_eq!(statuses.len(), 4, "{statuses:?}");
    assert!(statuses.contains(&"in_progress:6".to_string()), "{statuses:?}");

    // Four keys were left in progress by a crash; two are in flight right now.
    let mut cmd = Command::cargo_bin("idemctl").unwrap();
    cmd.args(["stuck", "--format", "csv", "--quiet", "--database-url"]).arg(format!("sqlite:{}", path.display()));
    let out = run(cmd);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let keys: Vec<String> = csv_records(&out.stdout)[1..].iter().map(|r| r[2].clone()).collect();
    assert_eq!(keys, ["inflight-19-93600", "inflight-7-10800", "inflight-12-7200", "inflight-11-2400"]);
}

#[test]
fn demo_never_replaces_another_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("precious.db");
    std::fs::write(&path, b"not a demo").unwrap();
    let out = demo(&path);
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("not an idemctl demo database"), "{}", out.stderr);
    assert_eq!(std::fs::read(&path).unwrap(), b"not a demo");
}

/// At 80 columns the demo's output fits, its "Try next" commands broken
/// between words with a shell continuation, so each still pastes whole.
#[test]
fn demo_fits_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo.db");
    let mut cmd = Command::cargo_bin("idemctl").unwrap();
    cmd.env("COLUMNS", "80").args(["demo", "--path"]).arg(&path);
    let out = run(cmd);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let wide: Vec<&str> = out.stdout.lines().filter(|l| unicode_width::UnicodeWidthStr::width(*l) > 80).collect();
    assert!(wide.is_empty(), "{wide:?}");
    let next = &out.stdout[out.stdout.find("Try next:").unwrap()..];
    assert!(next.contains(" \\\n      "), "{next}");
    let joined = next.replace(" \\\n      ", " ");
    assert!(joined.contains(&format!("stuck --database-url sqlite:{} --max-duration", path.display())), "{joined}");
}

/// Installed by a link on the PATH (`ln -s .../idemctl ~/bin/idemctl`), the
/// binary is `idemctl` in the commands it suggests, not its full path.
#[test]
fn a_link_on_the_path_is_idemctl() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("idemctl"), bin.join("idemctl")).unwrap();
    let path = dir.path().join("demo.db");
    let mut cmd = Command::cargo_bin("idemctl").unwrap();
    cmd.env("PATH", format!("{}:/usr/bin:/bin", bin.display())).args(["demo", "--path"]).arg(&path);
    let out = run(cmd);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let next = &out.stdout[out.stdout.find("Try next:").unwrap()..];
    assert!(next.contains("\n  idemctl scan --database-url"), "{next}");
}
