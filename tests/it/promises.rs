//! The guide's promises of an exit code and a refusal, each held to the
//! binary: the README or a page of the guide (`docs/src/`) must still say
//! it, and the command must still do it
//! (the code, one line naming the cause, nothing changed), on every engine.

use crate::common::{TestDb, key_table, run};

/// (what the README says, the command, the exit code, what its last line says).
const PROMISES: &[(&str, &[&str], i32, &str)] = &[
    ("`--window 0s` exits 2.", &["scan", "--table", "orders", "--window", "0s"], 2, "joins no two rows"),
    (
        "`--since` not before `--until` exits 2.",
        &["scan", "--table", "orders", "--since", "2026-02-01T00:00:00Z", "--until", "2026-01-01T00:00:00Z"],
        2,
        "must be before --until",
    ),
    (
        "A horizon, grace or `--since` reaching back before 1970 exits 2",
        &["scan", "--table", "orders", "--since", "100y"],
        2,
        "before 1970",
    ),
    (
        "no row read (an empty table,\nor a `--where`, `--since` or `--until` that selects nothing), or more than\nhalf of the rows read with no readable created-at time, ends in exit 1 with\none line saying so",
        &["scan", "--table", "orders", "--where", "1 = 0"],
        1,
        "selects no row, so nothing was compared",
    ),
    (
        "A maximum duration under 30 seconds is refused (exit 2, nothing changed)",
        &["reap", "--max-duration", "10s"],
        2,
        "under 30s",
    ),
    (
        "A horizon under 24 hours is refused (exit 2, nothing deleted)",
        &["expire", "--older-than", "1h"],
        2,
        "under 24h",
    ),
    (
        "Two guards refuse a mapping that would delete everything (exit 2, one line,\nnothing deleted, in a dry run too)",
        &["expire", "--expires-at-column", "created_at", "--dry-run"],
        2,
        "is the creation time",
    ),
    (
        "Before anything runs, a change the table cannot take is refused (exit 2):",
        &["reap", "--set", "created_at=NULL", "--dry-run"],
        2,
        "which the table declares NOT NULL",
    ),
    (
        "`--where` that selects no row of the table at all (a misspelt queue name)\njudged nothing: stuck, reap and expire, dry runs included, say so in one\nline",
        &["reap", "--where", "status = 'no such status'", "--dry-run"],
        1,
        "selects no row of idempotency_keys, so nothing was judged",
    ),
    (
        "`;`, comments, or a bare value\n  are refused with exit 2",
        &["scan", "--table", "orders", "--where", "1 = 1; DROP TABLE orders"],
        2,
        "--where must be a single condition",
    ),
    (
        "A negative value names its option and what it takes (`--window -5s: --window takes DURATION, never negative \
         (5s, 10m, 24h)`)",
        &["scan", "--table", "orders", "--window", "-5s"],
        2,
        "--window -5s: --window takes DURATION, never negative (5s, 10m, 24h)",
    ),
    (
        "raw SQL the server refuses (`--where`, `--keep`, `--sum`, `--in-progress-when`) is tried on the table before \
         anything runs",
        &["scan", "--table", "orders", "--where", "nosuch > 1"],
        2,
        "--where \"nosuch > 1\": ",
    ),
    (
        "`--verify-sql` exactly one `SELECT`",
        &["reap", "--verify-sql", "DELETE FROM orders", "--dry-run"],
        2,
        "--verify-sql must be a SELECT",
    ),
    (
        "A\n  VALUE of 0 or less is refused: no server is ever less busy.",
        &["expire", "--critical-load", "Threads_running=0", "--dry-run"],
        2,
        "--critical-load Threads_running=0: the value must be above 0",
    ),
    (
        "A\n  VALUE of 0 or less is refused: no server is ever less busy.",
        &["reap", "--max-load", "Threads_running=-1", "--dry-run"],
        2,
        "--max-load Threads_running=-1: the value must be above 0",
    ),
    (
        "A table\nwith no creation time at all (Kimai's timesheet) is refused with exit 2\nuntil `--created-at` names one.",
        &["scan", "--table", "tallies"],
        2,
        "has no created-at column",
    ),
    (
        "`--min-confidence likely` lists only certain and likely\nclusters: the counts and the exit code still cover every cluster.",
        &["scan", "--table", "orders", "--min-confidence", "certain"],
        1,
        "1 below --min-confidence certain counted, not listed",
    ),
    (
        "a column that is not there, the key's own columns",
        &["reap", "--set", "nosuch=1", "--dry-run"],
        2,
        "no column \"nosuch\" in table",
    ),
    (
        "a column that is not there, the key's own columns",
        &["reap", "--set", "scope_id='x'", "--dry-run"],
        2,
        "--set cannot change scope_id: it names the key",
    ),
    (
        "`;`, comments, or a bare value\n  are refused with exit 2",
        &["scan", "--table", "orders", "--where", "1"],
        2,
        "--where must be a condition (true or false for each row)",
    ),
    (
        "`--verify-sql` exactly one `SELECT` whose only\n  parameters are `:scope`, `:operation` and `:key`.",
        &["reap", "--verify-sql", "SELECT 1 FROM orders WHERE id = :id", "--dry-run"],
        2,
        "--verify-sql names an unknown parameter :id",
    ),
    (
        "A run that\n  could not look is never clean: a scan that compared nothing, a `--where`\n  that selects no row",
        &["expire", "--where", "1 = 0", "--dry-run"],
        1,
        "not clean: --where \"1 = 0\" selects no row of idempotency_keys",
    ),
    (
        "The overlap lock and the floor\non the horizon apply as to any run.",
        &["expire", "--drop-partitions", "--older-than", "1h"],
        2,
        "a horizon of 1h is under 24h",
    ),
];

/// Promises the server keeps by refusing a value: SQLite takes text in an
/// INTEGER column of a table that is not STRICT, so these hold on
/// PostgreSQL and MariaDB.
const REFUSED_BY_THE_SERVER: &[(&str, &[&str], i32, &str)] = &[
    (
        "A dry run whose write the server would refuse says the server's reason\n  and exits 2, as the real run would, \
         before anything changes.",
        &["reap", "--set", "response_code='oops'", "--dry-run"],
        2,
        "--set response_code='oops': the server would refuse it",
    ),
    (
        "A dry run whose write the server would refuse says the server's reason\n  and exits 2, as the real run would, \
         before anything changes.",
        &["reap", "--set", "response_code='oops'"],
        2,
        "--set response_code='oops': the server would refuse it",
    ),
];

/// Promises kept before any server is reached (the URL, the kind's
/// horizon), held once: (what the guide says, the command, what it says).
/// Each ends in exit 2 and one line.
const WITHOUT_A_SERVER: &[(&str, &[&str], &str)] = &[
    (
        "a misspelt parameter (`sslmod=verify-full`)",
        &["stuck", "--database-url", "postgres://u@127.0.0.1:1/d?sslmod=verify-full"],
        "unknown parameter sslmod in the database URL (did you mean sslmode?)",
    ),
    (
        "the other\nengine's spelling of a TLS mode (`ssl-mode=require` on MySQL)",
        &["stuck", "--database-url", "mysql://u@127.0.0.1:1/d?ssl-mode=require"],
        "ssl-mode=require in the database URL: mysql takes disabled",
    ),
    (
        "a\ncertificate file that is not there ends the run with one line saying so.",
        &["stuck", "--database-url", "postgres://u@127.0.0.1:1/d?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem"],
        "sslrootcert=/nonexistent/ca.pem in the database URL: no such file",
    ),
    (
        "A password is never shown: messages print the URL as `user:***@host`",
        &["stuck", "--database-url", "postgres://u:s3cret@127.0.0.1:1/d", "--connect-timeout", "2s"],
        "postgres://u:***@127.0.0.1:1/d",
    ),
    (
        "it is checked before connecting, so it speaks of the kind\ngiven by `--kind`",
        &["expire", "--kind", "inbox", "--older-than", "30m", "--database-url", "sqlite:/nonexistent/x.db"],
        "message ids must outlive the broker's redeliveries",
    ),
];

#[test]
fn promises_kept_before_any_server() {
    let guide = guide();
    assert!(guide.contains("`idemctl --version` says so"), "the guide no longer says --version names the TLS");
    let mut cmd = assert_cmd::Command::cargo_bin("idemctl").unwrap();
    cmd.arg("--version");
    let version = crate::common::run(cmd);
    assert_eq!(version.code, 0);
    assert!(version.stdout.contains("TLS built in: rustls"), "{}", version.stdout);
    for (said, args, line) in WITHOUT_A_SERVER {
        assert!(guide.contains(&flat(said)), "neither the README nor the guide says: {said}");
        let mut cmd = assert_cmd::Command::cargo_bin("idemctl").unwrap();
        cmd.env_remove("DATABASE_URL").args(*args);
        let out = crate::common::run(cmd);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: one line: {}", out.stderr);
        assert!(out.stderr.starts_with("idemctl: ") && out.stderr.contains(line), "{args:?}: {}", out.stderr);
        assert!(!out.stderr.contains("s3cret"), "{args:?}: the password shown: {}", out.stderr);
    }
}

fn readme_promises_are_kept(db: &TestDb) {
    let readme = guide();
    key_table(db);
    db.exec(&format!(
        "CREATE TABLE orders (id {pk}, customer_id INTEGER, amount INTEGER, created_at {ts});
         INSERT INTO orders (customer_id, amount, created_at) VALUES (1, 10, {t}), (2, 20, {t}), (1, 10, {t2})",
        pk = db.ty("pk"),
        ts = db.ty("ts"),
        t = db.ts("2026-01-01 10:00:00"),
        t2 = db.ts("2026-01-01 10:00:02"),
    ));
    db.exec(&format!(
        "CREATE TABLE tallies (id {pk}, counter INTEGER); INSERT INTO tallies (counter) VALUES (1), (1), (2)",
        pk = db.ty("pk")
    ));
    let before = db.contents();
    let refused = if db.engine == crate::common::Engine::Sqlite { &[][..] } else { REFUSED_BY_THE_SERVER };
    for (said, args, code, line) in PROMISES.iter().chain(refused) {
        assert!(readme.contains(&flat(said)), "neither the README nor the guide says: {said}");
        let out = run(db.idemctl(args));
        assert_eq!(out.code, *code, "{args:?}: {}", out.stderr);
        assert!(out.stderr.lines().any(|l| l.contains(line)), "{args:?}: {}", out.stderr);
        if *code == 2 {
            assert_eq!(out.stderr.lines().count(), 1, "{args:?}: one line: {}", out.stderr);
            assert!(out.stderr.starts_with("idemctl: "), "{args:?}: {}", out.stderr);
        }
        assert_eq!(db.contents(), before, "{args:?} changed the database");
    }
}

/// SQLite's own promises: a zone name is refused (it has no zone data), and
/// a scan whose rows mostly hold no readable creation time compared nothing.
#[test]
fn sqlite_promises_are_kept() {
    let Some(db) = TestDb::new(crate::common::Engine::Sqlite) else { return };
    let guide = guide();
    key_table(&db);
    db.exec(
        "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, amount INTEGER, created_at TEXT);
         INSERT INTO orders (customer_id, amount, created_at) VALUES (1, 10, 'soon'), (1, 10, 'later'),
            (2, 20, '2026-01-01T10:00:00Z')",
    );
    let before = db.contents();
    assert!(guide.contains("and a name is refused."), "the guide no longer refuses a zone name on SQLite");
    let out = run(db.idemctl(&["stuck", "--time-zone", "Europe/Paris"]));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("--time-zone Europe/Paris: SQLite has no time zone data"), "{}", out.stderr);
    assert!(guide.contains("or more than half of the rows read with no readable created-at time, ends in exit 1"));
    for quiet in [false, true] {
        let args = [&["scan", "--table", "orders"][..], if quiet { &["--quiet"][..] } else { &[] }].concat();
        let out = run(db.idemctl(&args));
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("no readable created-at time"), "{args:?}: {}", out.stderr);
    }
    assert_eq!(db.contents(), before);
}

/// A status value the column's CHECK list cannot hold is refused before
/// anything runs (exit 2, one line naming it and the values it allows).
fn a_value_the_check_list_cannot_hold(db: &TestDb) {
    let guide = guide();
    assert!(guide.contains("a status value or a `--set` text the column's enum type or CHECK list cannot hold"));
    let (text, ts) = match db.engine {
        crate::common::Engine::Postgres => ("text", "timestamptz"),
        crate::common::Engine::MySql => ("VARCHAR(100)", "DATETIME(6)"),
        crate::common::Engine::Sqlite => ("TEXT", "TEXT"),
    };
    let key = db.ident("key");
    let hour = crate::common::ago(db, chrono::Duration::hours(1));
    db.exec(&format!(
        "CREATE TABLE idempotency_keys (scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL,
            status {text} NOT NULL CHECK (status IN ('in_progress', 'succeeded', 'failed_retryable', 'failed_permanent')),
            locked_at {ts} NULL, created_at {ts} NOT NULL, expires_at {ts} NOT NULL, PRIMARY KEY (scope_id, operation, {key}));
         INSERT INTO idempotency_keys VALUES ('s1', 'POST /v1/orders', 'k1', 'in_progress', {hour}, {hour}, {later})",
        later = crate::common::ago(db, chrono::Duration::hours(-24)),
    ));
    let before = db.contents();
    for args in [&["reap", "--retryable-value", "retry", "--dry-run"][..], &["reap", "--retryable-value", "retry"]] {
        let out = run(db.idemctl(args));
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.starts_with("idemctl: status cannot hold \"retry\" (it allows "),
            "{args:?}: {}",
            out.stderr
        );
        assert_eq!(db.contents(), before, "{args:?}");
    }
}

on_every_engine!(
    readme_promises_are_kept,
    a_value_the_check_list_cannot_hold,
    a_run_max_runtime_ended_exits_0,
    a_scan_says_its_evidence
);

/// `--max-runtime` ending a run with rows left for the next: the run did its
/// work in its slot, exit 0, `stopped` says why and the rows left stay.
fn a_run_max_runtime_ended_exits_0(db: &TestDb) {
    let guide = guide();
    assert!(
        guide.contains(
            "Exit 0 when the run did its work or `--max-runtime` ended it with the rest left for the next run"
        )
    );
    db.exec(&format!("CREATE TABLE spent (id {pk}, created_at {ts} NOT NULL)", pk = db.ty("pk"), ts = db.ty("ts")));
    let old = crate::common::ago(db, chrono::Duration::days(10));
    for _ in 0..30 {
        db.exec(&format!("INSERT INTO spent (created_at) VALUES ({old})"));
    }
    let args = ["expire", "--table", "spent", "--created-at-column", "created_at", "--older-than", "7d"];
    let paced = ["--batch-size", "10", "--sleep", "2s", "--max-runtime", "1s", "--format", "json"];
    let out = run(db.idemctl(&[&args[..], &paced].concat()));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let summary = &out.json()["runs"][0];
    assert_eq!(
        (summary["stopped"].as_str(), summary["rows_deleted"].as_u64()),
        (Some("max-runtime"), Some(10)),
        "{summary}"
    );
    assert_eq!(db.column("SELECT count(*) FROM spent"), [Some("20".to_string())]);
}

/// Promises of the config file and of a fleet, on SQLite files: a column the
/// file names must exist (said with the flag that maps it); the same file by
/// two paths is one database, refused; `DATABASE_URL` in the environment is
/// left aside by a fleet run.
#[test]
fn config_and_fleet_promises_are_kept() {
    let Some(db) = TestDb::new(crate::common::Engine::Sqlite) else { return };
    let guide = guide();
    for said in [
        "a name given by flag or file must exist, or the command stops naming it and the flag that maps it",
        "or the same SQLite file by two paths) is refused",
        "`DATABASE_URL` in the environment is left aside",
    ] {
        assert!(guide.contains(said), "the guide no longer says: {said}");
    }
    key_table(&db);
    let before = db.contents();
    let file = db.url.strip_prefix("sqlite:").unwrap().to_string();
    let path = std::path::Path::new(&file);
    let twice = format!("{}/./{}", path.parent().unwrap().display(), path.file_name().unwrap().to_string_lossy());
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let at = dir.path().join(name);
        std::fs::write(&at, text).unwrap();
        at.to_string_lossy().to_string()
    };
    let idemctl = |args: &[&str], env_url: Option<&str>| {
        let mut cmd = assert_cmd::Command::cargo_bin("idemctl").unwrap();
        cmd.env_remove("DATABASE_URL").args(args);
        if let Some(url) = env_url {
            cmd.env("DATABASE_URL", url);
        }
        run(cmd)
    };
    let mapped = write("mapped.toml", "[key_table]\nstatus_column = \"state\"\n".into());
    let out = idemctl(&["--config", &mapped, "stuck", "--database-url", &db.url], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.starts_with("idemctl: --status-column state: no column \"state\""), "{}", out.stderr);
    let fleet = |urls: &[&str]| {
        urls.iter()
            .enumerate()
            .map(|(i, url)| format!("[[databases]]\nname = \"d{i}\"\nurl = \"{url}\"\n"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let same = write("same.toml", fleet(&[&db.url, &format!("sqlite:{twice}")]));
    let out = idemctl(&["--config", &same, "stuck", "--all-databases"], None);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("d0 and d1 are the same database") && out.stderr.contains("list it once"),
        "{}",
        out.stderr
    );
    let one = write("one.toml", fleet(&[&db.url]));
    let out =
        idemctl(&["--config", &one, "stuck", "--all-databases", "--format", "json"], Some("sqlite:/nonexistent/x.db"));
    assert_eq!(out.code, 1, "the fleet's database, its stuck keys found: {}", out.stderr);
    assert!(!out.stderr.contains("nonexistent"), "{}", out.stderr);
    assert_eq!(db.contents(), before);
}

/// A scan names the child tables it reads and the evidence of each cluster:
/// a key two rows share is `key-reused`, `certain`, said in words.
fn a_scan_says_its_evidence(db: &TestDb) {
    let guide = guide();
    assert!(guide.contains("The summary names the child tables and what each compares (`child tables:`"));
    assert!(guide.contains("(`certain, key-reused: + rows share the key ...`;"));
    db.exec(&format!(
        "CREATE TABLE payments (id {pk}, customer_id INTEGER, amount INTEGER, idempotency_key VARCHAR(40), created_at {ts});
         CREATE TABLE receipts (id {pk}, payment_id BIGINT REFERENCES payments (id), note VARCHAR(40));
         INSERT INTO payments (customer_id, amount, idempotency_key, created_at) VALUES
            (7, 500, 'k-1', {a}), (7, 500, 'k-1', {b}), (8, 900, 'k-2', {c});
         INSERT INTO receipts (payment_id, note) VALUES (1, 'paid'), (2, 'paid')",
        pk = db.ty("pk"),
        ts = db.ty("ts"),
        a = db.ts("2026-01-01 10:00:00"),
        b = db.ts("2026-01-01 10:00:01"),
        c = db.ts("2026-01-01 10:05:00"),
    ));
    let out = run(db.idemctl(&["scan", "--table", "payments"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(all.contains("child tables: receipts.payment_id (foreign key; compares note)"), "{all}");
    assert!(all.contains("certain, key-reused: ") && all.contains("+ rows share the key \"k-1\""), "{all}");
}

/// Text with its runs of white space made one space, as a sentence reads
/// whatever its line breaks.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The README and the guide, flat.
fn guide() -> String {
    flat(&crate::common::guide())
}
