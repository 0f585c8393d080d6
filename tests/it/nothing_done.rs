//! Every way a run can end having done nothing, for every command it
//! applies to, on every engine: a run that judged nothing (a `--where` that
//! selects no row, times it cannot read, every key held by another session)
//! neither exits 0 nor calls itself clean, and says why in its last line; a
//! run with truly nothing to do (an empty table) exits 0 and says so in
//! words. Nothing is ever changed. A lock never acquired (exit 3) is held
//! by `reap::a_second_reaper_exits_3` and expire's like it; a signal before
//! the first batch (`... stopped: nothing was deleted`) by
//! `faults::a_signal_ends_every_lock_wait_and_cancels_it_on_the_server`.

use crate::common::{Engine, Run, TestDb, key_table, run};

/// The commands a key table's run can judge nothing with.
const KEY_COMMANDS: &[&[&str]] =
    &[&["stuck"], &["reap"], &["reap", "--dry-run"], &["expire"], &["expire", "--dry-run"]];

/// What a run that judged nothing must not say of itself.
fn claims_success(out: &Run) -> Option<&'static str> {
    let all = format!("{}\n{}", out.stdout, out.stderr).to_lowercase().replace("not clean", "");
    let words: Vec<&str> = all.split(|c: char| !c.is_alphanumeric()).collect();
    ["clean", "complete", "done"].into_iter().find(|w| words.contains(w))
}

/// Runs `args` (with and without `--quiet`): exit `code`, a line of stderr
/// that says `last`, nothing changed, and no word of success.
fn judged_nothing(db: &TestDb, args: &[&str], code: i32, last: &str) {
    let before = db.contents();
    for quiet in [false, true] {
        let mut args = args.to_vec();
        args.extend(quiet.then_some("--quiet"));
        let out = run(db.idemctl(&args));
        assert_eq!(out.code, code, "{args:?}: {}", out.stderr);
        assert!(out.stderr.lines().any(|l| l.contains(last)), "{args:?}: {}", out.stderr);
        assert_eq!(claims_success(&out), None, "{args:?}: {}{}", out.stdout, out.stderr);
        assert_eq!(db.contents(), before, "{args:?} changed the database");
    }
}

/// A `--where` that selects no row of the table: nothing judged, exit 1.
fn a_where_that_selects_nothing(db: &TestDb) {
    key_table(db);
    orders(db, 2);
    for command in KEY_COMMANDS {
        let args = [command, &["--where", "1 = 0"][..]].concat();
        judged_nothing(db, &args, 1, "not clean: --where \"1 = 0\" selects no row of idempotency_keys");
    }
    judged_nothing(
        db,
        &["scan", "--table", "orders", "--where", "1 = 0"],
        1,
        "selects no row, so nothing was compared",
    );
    // Rows selected, nothing to do among them: clean, and nothing said of it.
    for command in KEY_COMMANDS {
        let args = [command, &["--where", "status = 'succeeded'"][..]].concat();
        let out = run(db.idemctl(&args));
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        assert!(!out.stderr.contains("selects no row"), "{args:?}: {}", out.stderr);
    }
}

/// An empty table: nothing there to do. Key commands exit 0 and say so;
/// scan, which promises a comparison, exits 1.
fn an_empty_table(db: &TestDb) {
    key_table(db);
    db.exec("DELETE FROM idempotency_keys");
    orders(db, 0);
    for command in KEY_COMMANDS {
        let out = run(db.idemctl(command));
        assert_eq!(out.code, 0, "{command:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("note: idempotency_keys holds no rows: nothing to do"),
            "{command:?}: {}",
            out.stderr
        );
        let quiet = run(db.idemctl(&[command, &["--quiet"][..]].concat()));
        assert_eq!((quiet.code, quiet.stderr.as_str()), (0, ""), "{command:?} --quiet");
    }
    judged_nothing(db, &["scan", "--table", "orders"], 1, "nothing was compared");
    // size: its figures are zero, and that it cannot project them is said.
    let out = run(db.idemctl(&["size"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("note: the table is empty: give --row-bytes to project its size"), "{}", out.stderr);
    // doctor: no value in use is read from an empty table, so none is
    // claimed; a creation table with no rows warns, nothing to check it against.
    db.exec(&format!(
        "CREATE TABLE refs (id {pk}, customer_id INTEGER, amount INTEGER, client_ref VARCHAR(40), created_at {ts});
         CREATE UNIQUE INDEX refs_client_ref ON \
         refs (client_ref)",
        pk = db.ty("pk"),
        ts = db.ty("ts")
    ));
    let out = run(db.idemctl(&["doctor", "--creation-table", "refs", "--format", "json"]));
    let checks = checks(&out);
    assert_eq!(
        checks["statuses"],
        (
            "warn".to_string(),
            "cannot tell: idempotency_keys holds no keys yet, so the values of status in use were not read (mapped: \
             in_progress, succeeded, failed_retryable and failed_permanent)"
                .into()
        )
    );
    assert!(!checks["lock_time"].1.contains("empty on every key sampled"), "{:?}", checks["lock_time"]);
    assert_eq!(
        checks["creation:refs"],
        (
            "warn".to_string(),
            "unique (client_ref) would refuse a second row, but the table has no rows for scan to check what it \
             refuses"
                .into()
        )
    );
}

/// A scheduled scan (`--state`) over a table no row was written to since
/// the last run: nothing there to do, exit 0, said in words.
fn nothing_new_since_the_last_scan(db: &TestDb) {
    orders(db, 3);
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("orders.state");
    let args = ["scan", "--table", "orders", "--state", state.to_str().unwrap()];
    let first = run(db.idemctl(&args));
    assert!(first.code == 0 || first.code == 1, "{}", first.stderr);
    let again = run(db.idemctl(&args));
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again.stderr.contains("nothing new: no row was written since the last run (--state), so nothing was compared"),
        "{}",
        again.stderr
    );
}

/// Times no run can read: epoch numbers that are plausible in neither
/// seconds nor milliseconds. stuck cannot judge the key in progress (exit
/// 1); the writers refuse the column before anything changes (exit 2).
fn times_it_cannot_read(db: &TestDb) {
    let key = db.ident("key");
    db.exec(&format!(
        "CREATE TABLE idempotency_keys (scope_id VARCHAR(20) NOT NULL, operation VARCHAR(40) NOT NULL,
            {key} VARCHAR(40) NOT NULL, status VARCHAR(20) NOT NULL, locked_at BIGINT, created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL, PRIMARY KEY (scope_id, operation, {key}));
         INSERT INTO idempotency_keys VALUES ('s1', 'POST /v1/orders', 'k1', 'succeeded', 5, 5, 7),
            ('s1', 'POST /v1/orders', 'k2', 'in_progress', 5, 5, 7), ('s2', 'POST /v1/orders', 'k3', 'succeeded', 6, 6, 8)"
    ));
    judged_nothing(db, &["stuck"], 1, "not clean: 1 key in progress has no time to judge it by, so it was not judged");
    for command in &KEY_COMMANDS[1..] {
        judged_nothing(db, command, 2, "do not agree on a unit");
    }
}

/// SQLite keeps text as it is given: times that are no times at all. The
/// writers judge no row by them (exit 1, not a clean run that deleted
/// nothing).
#[test]
fn sqlite_text_that_is_no_time() {
    let Some(db) = TestDb::new(Engine::Sqlite) else { return };
    key_table(&db);
    db.exec("UPDATE idempotency_keys SET expires_at = 'soon', created_at = 'earlier', locked_at = 'a while ago'");
    judged_nothing(&db, &["stuck"], 1, "not clean: 5 keys in progress have no time to judge them by");
    judged_nothing(&db, &["reap"], 1, "not clean: 5 keys in progress have no time to judge them by");
    judged_nothing(&db, &["reap", "--dry-run"], 1, "not clean: 5 keys in progress have no time to judge them by");
    let unread = "not clean: 6 of the 6 values of idempotency_keys.expires_at cannot be read as a time, so their rows \
                  were not judged";
    judged_nothing(&db, &["expire"], 1, unread);
    judged_nothing(&db, &["expire", "--dry-run"], 1, unread);
    // size measures no write rate and counts no backlog by them, and says so.
    for quiet in [false, true] {
        let args = if quiet { &["size", "--quiet"][..] } else { &["size"][..] };
        let out = run(db.idemctl(args));
        assert_eq!(out.code, 1, "{}", out.stderr);
        let lines: Vec<&str> = out.stderr.lines().rev().take(2).collect();
        assert_eq!(
            lines,
            [
                "idemctl: not clean: 6 of the 6 values of idempotency_keys.expires_at cannot be read as a time, so \
                 the expiry backlog was not counted",
                "idemctl: not clean: 6 of the 6 values of idempotency_keys.created_at cannot be read as a time, so \
                 the write rate was not measured",
            ],
            "{}",
            out.stderr
        );
        assert_eq!(claims_success(&out), None, "{}{}", out.stdout, out.stderr);
    }
    let figures = run(db.idemctl(&["size", "--format", "json"])).json();
    assert_eq!(figures["storage"]["rows"], 6, "the rows are the table's, not those with a readable time: {figures}");
    assert!(figures.get("backlog").is_none() && figures.get("writes").is_none(), "{figures}");
    // doctor passes nothing it could not read: no key judged stuck or not,
    // no backlog counted. Each is a warning (doctor's warnings alone exit 0).
    let before = db.contents();
    let out = run(db.idemctl(&["doctor", "--format", "json"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let checks = checks(&out);
    assert_eq!(
        checks["stuck"],
        (
            "warn".to_string(),
            "cannot tell: 5 keys in progress have no time to judge them by, so they were not judged".into()
        )
    );
    assert_eq!(
        checks["backlog"],
        (
            "warn".to_string(),
            "cannot tell: 6 of the 6 values of idempotency_keys.expires_at cannot be read as a time, so their rows \
             were not judged"
                .into()
        )
    );
    assert_eq!(db.contents(), before);
}

/// doctor's checks by name: (result, reason).
fn checks(out: &Run) -> std::collections::BTreeMap<String, (String, String)> {
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout));
    let s = |c: &serde_json::Value, k: &str| c[k].as_str().unwrap_or_default().to_string();
    doc["checks"].as_array().unwrap().iter().map(|c| (s(c, "check"), (s(c, "result"), s(c, "reason")))).collect()
}

/// Every stuck key held by another session's transaction: a reap skips
/// them all and changed nothing (exit 1). SQLite has no row locks.
fn every_key_held(db: &TestDb) {
    if db.engine == Engine::Sqlite {
        return;
    }
    key_table(db);
    let before = db.contents();
    for dry in [false, true] {
        let mut args = vec!["reap", "--max-duration", "30s"];
        args.extend(dry.then_some("--dry-run"));
        let out = db.while_holding("SELECT * FROM idempotency_keys WHERE status = 'in_progress' FOR UPDATE", || {
            run(db.idemctl(&args))
        });
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        let said = if dry {
            "idemctl: reap would change nothing: each of the 4 stuck keys it reached is held by a live transaction"
        } else {
            "reap changed nothing: each of the 4 stuck keys it reached was held by a live transaction"
        };
        assert!(out.stderr.lines().any(|l| l.starts_with(said)), "{args:?}: {}", out.stderr);
        assert_eq!(claims_success(&out), None, "{args:?}: {}{}", out.stdout, out.stderr);
        assert_eq!(db.contents(), before);
    }
}

fn orders(db: &TestDb, rows: usize) {
    db.exec(&format!(
        "CREATE TABLE orders (id {pk}, customer_id INTEGER, amount INTEGER, created_at {ts})",
        pk = db.ty("pk"),
        ts = db.ty("ts")
    ));
    for i in 0..rows {
        db.exec(&format!(
            "INSERT INTO orders (customer_id, amount, created_at) VALUES ({i}, 10, {})",
            db.ts("2026-01-01 10:00:00")
        ));
    }
}

on_every_engine!(
    a_where_that_selects_nothing,
    an_empty_table,
    times_it_cannot_read,
    every_key_held,
    nothing_new_since_the_last_scan
);
