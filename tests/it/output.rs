//! What each format promises, on the three engines: --quiet leaves only the
//! data, JSON keeps its keys whether or not anything was found, NDJSON ends
//! with a summary, CSV values read back as JSON, global options go before
//! or after the subcommand, the config file is found in its order, metrics
//! match the summary, and `scan --state` lists each cluster once.

use std::collections::BTreeSet;
use std::process::Command;

use crate::common::{Engine, Run, TestDb, key_table, run};
use serde_json::{Value, json};

on_every_engine!(
    quiet_prints_only_the_data_in_every_format,
    json_keys_do_not_depend_on_findings,
    ndjson_rows_are_typed_and_end_with_a_summary,
    csv_values_are_json_and_append_without_a_header,
    global_options_go_before_or_after_the_subcommand,
    metrics_match_the_summary,
    scheduled_scans_list_each_cluster_once,
    a_long_key_is_never_broken_at_100_columns,
    the_readme_cron_lines_mail_only_what_went_wrong,
    default_tables_fit_80_and_100_columns,
);

/// Orders with three clusters: ids 1-2 (equal notes), 3-4 (NULL notes), and
/// 6 with 7 (the text 'NULL' twice); id 5 holds NULL, 8 the text 'NULL'.
fn orders(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE orders (id {pk}, customer_id INTEGER, note {text}, created_at {ts});
         INSERT INTO orders (customer_id, note, created_at) VALUES
           (1, 'gift, wrap=yes \"please\"', {t0}), (1, 'gift, wrap=yes \"please\"', {t1}),
           (2, NULL, {t0}), (2, NULL, {t1}), (3, NULL, {t3}),
           (4, 'NULL', {t0}), (4, 'NULL', {t1}), (5, 'NULL', {t3})",
        pk = db.ty("pk"),
        text = db.ty("text"),
        ts = db.ty("ts"),
        t0 = db.ts("2026-06-01 10:00:00"),
        t1 = db.ts("2026-06-01 10:00:02"),
        t3 = db.ts("2026-06-01 11:00:00"),
    ));
}

/// Every command a person runs, as it reads the tables `key_table` and `orders` make.
fn commands() -> Vec<Vec<&'static str>> {
    vec![
        vec!["scan", "--table", "orders"],
        vec!["stuck"],
        vec!["reap", "--dry-run"],
        vec!["expire", "--dry-run"],
        vec!["size"],
        vec!["doctor"],
    ]
}

fn quiet_prints_only_the_data_in_every_format(db: &TestDb) {
    key_table(db);
    orders(db);
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {}, status, created_at, expires_at)
         VALUES ('s4', 'POST /v1/orders', 'k-expired', 'succeeded', {}, {})",
        db.ident("key"),
        crate::common::ago(db, chrono::Duration::days(2)),
        crate::common::ago(db, chrono::Duration::days(1)),
    ));
    for args in commands() {
        crate::common::dry_run_kept(db, &args);
        for format in ["table", "csv", "json", "ndjson"] {
            let out = run(db.idemctl(&[&args[..], &["--format", format, "--quiet"]].concat()));
            assert!(out.code == 0 || out.code == 1, "{args:?} {format}: {}", out.stderr);
            assert_eq!(out.stderr, "", "{args:?} --format {format} --quiet");
            // The table format of a quiet run that found nothing prints nothing (cron
            // mails only what went wrong); a dry run's plan and findings are the data.
            let silent = format == "table" && out.code == 0 && !args.contains(&"--dry-run");
            assert_eq!(out.stdout.is_empty(), silent, "{args:?} --format {format}: {}", out.stdout);
        }
    }
    // A clean run says nothing in the table format (a dry run with nothing to do
    // included; doctor still warns on this table), and its data in the others.
    db.exec("DELETE FROM idempotency_keys WHERE status = 'in_progress' OR scope_id = 's4'");
    db.exec("DELETE FROM orders WHERE id IN (2, 4, 7)");
    for args in commands() {
        crate::common::dry_run_kept(db, &args);
        let out = run(db.idemctl(&[&args[..], &["--quiet"]].concat()));
        let silent = args[0] != "doctor";
        assert_eq!(out.stdout.is_empty(), silent, "{args:?} --quiet: {} {}", out.code, out.stdout);
        // Nothing on stderr either: cron mails whatever a job prints.
        assert_eq!(out.stderr, "", "{args:?} --quiet");
        assert_eq!(out.code, 0, "{args:?} --quiet: {}", out.stdout);
        let json = run(db.idemctl(&[&args[..], &["--quiet", "--format", "json"]].concat()));
        assert!(json.json().is_object(), "{args:?}");
    }
}

fn top_keys(doc: &Value) -> Vec<String> {
    doc.as_object().unwrap().keys().cloned().collect()
}

/// The same keys, in the same order, on a clean table and a damaged one.
fn json_keys_do_not_depend_on_findings(db: &TestDb) {
    key_table(db);
    orders(db);
    let mut damaged = Vec::new();
    for args in commands() {
        crate::common::dry_run_kept(db, &args);
        let out = run(db.idemctl(&[&args[..], &["--format", "json"]].concat()));
        let doc = out.json();
        assert_eq!(doc["format_version"], 2, "{args:?}");
        damaged.push((args, top_keys(&doc)));
    }
    // Clean: no stuck or expired key, no duplicate order.
    db.exec("DELETE FROM idempotency_keys WHERE status = 'in_progress' OR scope_id = 's4'");
    db.exec("DELETE FROM orders WHERE id IN (2, 4, 7)");
    for (args, keys) in damaged {
        let doc = run(db.idemctl(&[&args[..], &["--format", "json"]].concat())).json();
        assert_eq!(top_keys(&doc), keys, "{args:?}");
    }
}

fn ndjson_rows_are_typed_and_end_with_a_summary(db: &TestDb) {
    key_table(db);
    orders(db);
    for (args, row_type) in [
        (vec!["scan", "--table", "orders"], "cluster"),
        (vec!["stuck"], "key"),
        (vec!["reap", "--dry-run"], "key"),
        (vec!["doctor"], "check"),
    ] {
        crate::common::dry_run_kept(db, &args);
        let out = run(db.idemctl(&[&args[..], &["--format", "ndjson"]].concat()));
        let lines: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let (summary, rows) = lines.split_last().unwrap();
        assert!(!rows.is_empty() && rows.iter().all(|r| r["type"] == row_type), "{args:?}: {}", out.stdout);
        assert_eq!(
            (&summary["type"], &summary["format_version"], &summary["complete"]),
            (&json!("summary"), &json!(2), &json!(true)),
            "{args:?}"
        );
    }
}

fn csv_values_are_json_and_append_without_a_header(db: &TestDb) {
    orders(db);
    let out = run(db.idemctl(&["scan", "--table", "orders", "--columns", "customer_id,note", "--format", "csv"]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let records = crate::common::csv_records(&out.stdout);
    let values_at = records[0].iter().position(|h| h == "values").unwrap();
    let values: Vec<Value> = records[1..].iter().map(|r| serde_json::from_str(&r[values_at]).unwrap()).collect();
    assert_eq!(
        values,
        [
            json!({"customer_id": "1", "note": "gift, wrap=yes \"please\""}),
            json!({"customer_id": "2", "note": null}),
            json!({"customer_id": "4", "note": "NULL"}),
        ]
    );
    let again = run(db.idemctl(&["scan", "--table", "orders", "--format", "csv", "--no-header"]));
    assert_eq!(crate::common::csv_records(&again.stdout), records[1..].to_vec(), "--no-header: the rows alone");
}

fn global_options_go_before_or_after_the_subcommand(db: &TestDb) {
    key_table(db);
    let before = Command::new(assert_cmd::cargo::cargo_bin("idemctl"))
        .env_remove("DATABASE_URL")
        .args(["--format", "csv", "--quiet", "--database-url", &db.url, "--no-header", "stuck"])
        .output()
        .unwrap();
    let after = run(db.idemctl(&["stuck", "--format", "csv", "--quiet", "--no-header"]));
    assert_eq!(before.status.code(), Some(1));
    let keys = |text: &str| crate::common::csv_records(text).into_iter().map(|r| r[2].clone()).collect::<Vec<_>>();
    assert_eq!(keys(&String::from_utf8_lossy(&before.stdout)), keys(&after.stdout));
    assert_eq!(keys(&after.stdout), ["k-nolock", "k-ord-6m"]);
}

fn metrics_match_the_summary(db: &TestDb) {
    key_table(db);
    orders(db);
    let dir = tempfile::tempdir().unwrap();
    let prom = dir.path().join("idemctl.prom");
    let samples = |path: &std::path::Path| {
        let text = std::fs::read_to_string(path).unwrap();
        let lines = text.lines().map(|l| Ok(l.to_string()));
        prometheus_parse::Scrape::parse(lines).unwrap().samples
    };
    let value = |s: &prometheus_parse::Sample| match s.value {
        prometheus_parse::Value::Gauge(v) | prometheus_parse::Value::Untyped(v) => v,
        _ => panic!("a gauge"),
    };
    let out = run(db.idemctl(&["stuck", "--format", "json", "--metrics-file", prom.to_str().unwrap()]));
    let doc = out.json();
    let scraped = samples(&prom);
    let total: f64 = scraped.iter().filter(|s| s.metric == "idemctl_stuck_keys").map(value).sum();
    assert_eq!(total, doc["stuck_keys"].as_f64().unwrap());
    let exit = scraped.iter().find(|s| s.metric == "idemctl_run_exit_code").unwrap();
    assert_eq!((value(exit), exit.labels.get("command")), (1.0, Some("stuck")));
    assert!(exit.labels.get("table").unwrap().ends_with("idempotency_keys"));
    let success = scraped.iter().find(|s| s.metric == "idemctl_last_success_timestamp_seconds").map(value).unwrap();

    let out =
        run(db.idemctl(&["scan", "--table", "orders", "--format", "json", "--metrics-file", prom.to_str().unwrap()]));
    let doc = out.json();
    let scraped = samples(&prom);
    let extra = scraped.iter().find(|s| s.metric == "idemctl_scan_extra_rows").map(value).unwrap();
    assert_eq!(extra, doc["extra_rows"].as_f64().unwrap());
    let by_cause: f64 = scraped.iter().filter(|s| s.metric == "idemctl_scan_clusters").map(value).sum();
    assert_eq!(by_cause, doc["cluster_count"].as_f64().unwrap());

    // A failing run keeps the last success time of the run before it.
    let failing = run(db.idemctl(&["scan", "--table", "no_such", "--metrics-file", prom.to_str().unwrap()]));
    assert_eq!(failing.code, 2);
    let scraped = samples(&prom);
    assert_eq!(scraped.iter().find(|s| s.metric == "idemctl_run_exit_code").map(value), Some(2.0));
    let kept = scraped.iter().find(|s| s.metric == "idemctl_last_success_timestamp_seconds").map(value).unwrap();
    assert!(kept >= success, "the last success is kept");
}

/// Orders a minute apart, with clusters inside slices and across their
/// bounds: three runs with --state list exactly the clusters of one scan of
/// the whole table, each once.
fn scheduled_scans_list_each_cluster_once(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE orders (id {pk}, customer_id INTEGER, created_at {ts})",
        pk = db.ty("pk"),
        ts = db.ty("ts")
    ));
    // (customer, seconds after 10:00): clusters at 100-102 (inside slice 1),
    // 598-602 (across 10:10), 1197-1199-1201 (a chain across 10:20), 1500-1504.
    let rows = [
        (1, 0),
        (2, 100),
        (2, 102),
        (3, 300),
        (4, 598),
        (4, 602),
        (5, 900),
        (6, 1197),
        (6, 1199),
        (6, 1201),
        (7, 1300),
        (8, 1500),
        (8, 1504),
        (9, 1700),
    ];
    let at = |s: i64| {
        db.ts(&(chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap().and_hms_opt(10, 0, 0).unwrap()
            + chrono::Duration::seconds(s))
        .format("%Y-%m-%d %H:%M:%S")
        .to_string())
    };
    let values: Vec<String> = rows.iter().map(|(c, s)| format!("({c}, {})", at(*s))).collect();
    db.exec(&format!("INSERT INTO orders (customer_id, created_at) VALUES {}", values.join(", ")));
    let clusters = |out: &Run| -> Vec<(String, String)> {
        out.json()["clusters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["original_id"].as_str().unwrap().to_string(), c["extra_ids"].to_string()))
            .collect()
    };
    let full = run(db.idemctl(&["scan", "--table", "orders", "--format", "json"]));
    let whole = clusters(&full);
    assert_eq!(whole.len(), 4, "{}", full.stdout);
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("orders.state");
    let mut listed = Vec::new();
    for until in ["2026-06-01T10:10:00Z", "2026-06-01T10:20:00Z", "2026-06-01T12:00:00Z"] {
        let out = run(db.idemctl(&[
            "scan",
            "--table",
            "orders",
            "--format",
            "json",
            "--state",
            state.to_str().unwrap(),
            "--until",
            until,
        ]));
        assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
        listed.extend(clusters(&out));
    }
    let distinct: BTreeSet<_> = listed.iter().cloned().collect();
    assert_eq!(distinct.len(), listed.len(), "a cluster listed twice: {listed:?}");
    assert_eq!(distinct, whole.into_iter().collect::<BTreeSet<_>>());
}

fn a_long_key_is_never_broken_at_100_columns(db: &TestDb) {
    key_table(db);
    let long = "idem-2026-12-01-POST-v1-payments-cust-0000001234-attempt-0000000001-9f8e7d6c5b4a39281706";
    db.exec(&format!(
        "UPDATE idempotency_keys SET {} = '{long}' WHERE {} = 'k-ord-6m'",
        db.ident("key"),
        db.ident("key")
    ));
    let mut cmd = db.idemctl(&["stuck"]);
    cmd.env("COLUMNS", "100");
    let out = run(cmd);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.lines().any(|l| l.contains(long)), "{}", out.stdout);
    assert!(
        out.stdout.lines().all(|l| unicode_width(l) <= 100 || l.contains(long)),
        "a line wider than the terminal: {}",
        out.stdout
    );
}

/// A page's crontab: each line's command, its five time fields left out.
fn cron_lines(page: &str) -> Vec<String> {
    let text = std::fs::read_to_string(format!("{}/{page}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let block = text.split("```cron\n").nth(1).unwrap().split("```").next().unwrap();
    block
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().skip(5).collect::<Vec<_>>().join(" "))
        .collect()
}

/// The guide's crontab, each line run as cron runs it: `/bin/sh -c` with an
/// empty environment but cron's own and `DATABASE_URL`, no terminal, its
/// paths moved under a temporary folder. What the line prints is the mail.
/// The README's short crontab is the start of the guide's lines.
fn the_readme_cron_lines_mail_only_what_went_wrong(db: &TestDb) {
    let lines = cron_lines("docs/src/cron.md");
    let block = lines.join("\n");
    assert_eq!(lines.len(), 4, "{block}");
    for short in cron_lines("README.md") {
        assert!(lines.iter().any(|l| l.starts_with(&short)), "the README's {short:?} is none of the guide's");
    }
    // Cron's PATH (/usr/bin:/bin) has no ~/.cargo/bin: every line gives the full path.
    const BIN: &str = "/usr/local/bin/idemctl ";
    assert!(lines.iter().all(|l| l.starts_with(BIN)), "{block}");
    let dir = tempfile::tempdir().unwrap();
    for sub in ["log", "lib", "textfile"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
    }
    let bin = assert_cmd::cargo::cargo_bin("idemctl");
    let cron = |line: &str| {
        let line = line
            .replace(BIN, &format!("{} ", bin.display()))
            .replace("/var/log/idemctl/", &format!("{}/log/", dir.path().display()))
            .replace("/var/lib/idemctl/", &format!("{}/lib/", dir.path().display()))
            .replace("/var/lib/node_exporter/textfile/", &format!("{}/textfile/", dir.path().display()));
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c").arg(&line).env_clear().current_dir(dir.path()).stdin(std::process::Stdio::null());
        cmd.env("PATH", "/usr/bin:/bin").env("SHELL", "/bin/sh").env("HOME", dir.path()).env("LOGNAME", "root");
        cmd.env("DATABASE_URL", &db.url);
        run(cmd.into())
    };
    key_table(db);
    orders(db);
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {}, status, created_at, expires_at)
         VALUES ('s4', 'POST /v1/orders', 'k-expired', 'succeeded', {}, {})",
        db.ident("key"),
        crate::common::ago(db, chrono::Duration::days(2)),
        crate::common::ago(db, chrono::Duration::days(1)),
    ));
    // A run with work to do and findings: the mail is empty, the logs hold the data.
    for line in &lines {
        let out = cron(line);
        assert_eq!((out.stdout.as_str(), out.stderr.as_str()), ("", ""), "{line}");
        assert!(out.code == 0 || out.code == 1, "{line}: {}", out.code);
    }
    assert_eq!(db.column("SELECT scope_id FROM idempotency_keys WHERE scope_id = 's4'"), Vec::<Option<String>>::new());
    let log = |name: &str| std::fs::read_to_string(dir.path().join("log").join(name)).unwrap();
    assert!(log("reap.csv").contains("k-ord-6m,lease-expired"), "{}", log("reap.csv"));
    let header = log("reap.csv").lines().next().unwrap().to_string();
    assert_eq!(header, "scope,operation,key,state,locked_at,age_seconds,outcome,error,at,action");
    assert!(log("stuck.ndjson").lines().last().unwrap().contains("\"summary\""), "{}", log("stuck.ndjson"));
    assert!(log("scan.ndjson").contains("\"cluster\""), "{}", log("scan.ndjson"));
    let metrics = std::fs::read_to_string(dir.path().join("textfile/idemctl_expire.prom")).unwrap();
    assert!(metrics.contains("idemctl_run_exit_code{"), "{metrics}");
    // A clean run: nothing mailed, exit 0 on every line.
    for line in &lines {
        let out = cron(line);
        assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (0, "", ""), "{line}");
    }
    // The audit file keeps its one header, at the top, run after run.
    let audit = log("reap.csv");
    assert_eq!(audit.lines().filter(|l| *l == header).count(), 1, "{audit}");
    // What went wrong is mailed, in one line: here the database is gone.
    let mut cmd = Command::new("/bin/sh");
    let expire = lines.iter().find(|l| l.starts_with(&format!("{BIN}expire"))).unwrap();
    let line = expire.replace(BIN, &format!("{} ", bin.display())).replace("/var/lib/node_exporter/textfile/", "");
    cmd.arg("-c").arg(line).env_clear().current_dir(dir.path()).env("PATH", "/usr/bin:/bin");
    cmd.env("DATABASE_URL", "sqlite:/nonexistent/idemctl.db");
    let out = run(cmd.into());
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.lines().count()), (2, "", 1), "{}", out.stderr);
}

fn unicode_width(line: &str) -> usize {
    line.chars().count()
}

/// The config file is --config, else IDEMCTL_CONFIG, else ./idemctl.toml,
/// else $XDG_CONFIG_HOME/idemctl/config.toml; --no-config reads none.
#[test]
fn config_files_are_found_in_order() {
    let Some(db) = TestDb::new(Engine::Sqlite) else { return };
    key_table(&db);
    let dir = tempfile::tempdir().unwrap();
    let (cwd, xdg) = (dir.path().join("work"), dir.path().join("xdg"));
    std::fs::create_dir_all(xdg.join("idemctl")).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let table = |name: &str| format!("[key_table]\ntable = \"{name}\"\n");
    std::fs::write(xdg.join("idemctl/config.toml"), table("from_xdg")).unwrap();
    std::fs::write(cwd.join("idemctl.toml"), table("from_cwd")).unwrap();
    std::fs::write(dir.path().join("env.toml"), table("from_env")).unwrap();
    let stuck = |env: Option<&std::path::Path>, extra: &[&str]| {
        let mut cmd = db.idemctl(&[&["stuck"][..], extra].concat());
        cmd.current_dir(&cwd).env("XDG_CONFIG_HOME", &xdg).env_remove("IDEMCTL_CONFIG");
        if let Some(env) = env {
            cmd.env("IDEMCTL_CONFIG", env);
        }
        run(cmd)
    };
    let env = dir.path().join("env.toml");
    assert!(stuck(Some(&env), &[]).stderr.contains("no table \"from_env\""));
    assert!(stuck(None, &[]).stderr.contains("no table \"from_cwd\""));
    std::fs::remove_file(cwd.join("idemctl.toml")).unwrap();
    assert!(stuck(None, &[]).stderr.contains("no table \"from_xdg\""));
    let none = stuck(Some(&env), &["--no-config", "--format", "json"]);
    assert_eq!(none.code, 1, "{}", none.stderr);
    assert_eq!(none.json()["config_file"], Value::Null);
    let named = stuck(None, &["--format", "json", "--table", "idempotency_keys"]);
    assert!(named.json()["config_file"].as_str().unwrap().ends_with("xdg/idemctl/config.toml"));
}

/// The server shows the session as idemctl and its command: PostgreSQL's
/// application_name (the URL's own kept), MySQL's processlist.
#[test]
fn sessions_are_named_after_the_command() {
    for engine in [Engine::Postgres, Engine::MySql] {
        let Some(db) = TestDb::new(engine) else { return };
        key_table(&db);
        let (take, release) = match engine {
            Engine::Postgres => ("BEGIN; LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE", "ROLLBACK"),
            _ => ("LOCK TABLES idempotency_keys WRITE", "UNLOCK TABLES"),
        };
        let named = db.while_session(take, release, || {
            let mut waiting = Vec::new();
            for url in [db.url.clone(), format!("{}?application_name=nightly-audit", db.url)] {
                if engine == Engine::MySql && url.contains('?') {
                    continue;
                }
                let child = Command::new(assert_cmd::cargo::cargo_bin("idemctl"))
                    .env_remove("DATABASE_URL")
                    .args(["stuck", "--lock-timeout", "3s", "--database-url", &url])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .unwrap();
                waiting.push(child);
            }
            // Every command waits on the lock for 3 s: read the names once all wait.
            let admin = TestDb::admin(engine);
            let read = || match engine {
                Engine::Postgres => admin.column(&format!(
                    "SELECT application_name FROM pg_stat_activity WHERE datname = '{}' AND wait_event_type = 'Lock' ORDER BY 1",
                    db.name
                )),
                _ => admin.column(&format!(
                    "SELECT LEFT(INFO, 19) FROM information_schema.PROCESSLIST WHERE DB = '{}' AND STATE LIKE '%metadata lock%'",
                    db.name
                )),
            };
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
            let mut names = read();
            while names.len() < waiting.len() && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(20));
                names = read();
            }
            for mut child in waiting {
                let _ = child.wait();
            }
            names
        });
        let expected: Vec<Option<String>> = match engine {
            Engine::Postgres => vec![Some("idemctl stuck".into()), Some("nightly-audit".into())],
            _ => vec![Some("/* idemctl stuck */".into())],
        };
        assert_eq!(named, expected, "{engine:?}");
    }
}

/// `COMMAND` run by `sh` on a terminal of its own (`script`), what the
/// terminal showed.
pub(crate) fn on_a_terminal(command: &str) -> String {
    let out = Command::new("script")
        .args(["-qec", &format!("stty cols 100 rows 30; {command}"), "/dev/null"])
        .env_remove("DATABASE_URL")
        .output()
        .expect("script (util-linux) runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// On a terminal, a scan's progress bar never lands among the data: with
/// stdout piped (`| head`, whose output shares the terminal) or rows
/// streaming to the terminal itself it is not drawn; with stdout sent to a
/// file it is, and the file holds only the CSV.
fn the_progress_bar_never_lands_in_the_data(db: &TestDb) {
    orders(db);
    let slow = match db.engine {
        Engine::Postgres => "pg_sleep(0.4) IS NOT NULL",
        _ => "SLEEP(0.4) = 0",
    };
    let bin = assert_cmd::cargo::cargo_bin("idemctl");
    let scan =
        format!("{} scan --table orders --database-url '{}' --where '{slow}' --format csv", bin.display(), db.url);
    let header = "cluster,original_id,extra_ids,count,first_at,span_seconds,cause,confidence,evidence,values";
    let piped = on_a_terminal(&format!("{scan} | head -3"));
    assert!(piped.lines().any(|l| l.trim_end() == header), "{piped:?}");
    assert!(!piped.contains("scanning"), "the bar was drawn beside the pipe: {piped:?}");
    let streamed = on_a_terminal(&scan);
    assert!(!streamed.contains("scanning"), "the bar was drawn among the rows: {streamed:?}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("clusters.csv");
    let to_file = on_a_terminal(&format!("{scan} > {}", file.display()));
    assert!(to_file.contains("scanning"), "a scan into a file shows its progress: {to_file:?}");
    let csv = std::fs::read_to_string(&file).unwrap();
    assert_eq!(csv.lines().next(), Some(header), "{csv}");
    assert_eq!(csv.lines().count(), 4, "{csv}");
}

#[test]
fn the_progress_bar_never_lands_in_the_data_postgres() {
    if let Some(db) = TestDb::new(Engine::Postgres) {
        the_progress_bar_never_lands_in_the_data(&db);
    }
}

#[test]
fn the_progress_bar_never_lands_in_the_data_mysql() {
    if let Some(db) = TestDb::new(Engine::MySql) {
        the_progress_bar_never_lands_in_the_data(&db);
    }
}

/// The table format at 80 and 100 columns: stuck, reap's dry run and scan
/// show their compact columns as a table (no vertical records), expire its
/// figures as lines, every line within the width; doctor wraps its sentences, never cutting them;
/// `--wide` brings the other columns back.
fn default_tables_fit_80_and_100_columns(db: &TestDb) {
    key_table(db);
    orders(db);
    let at = |width: &str, args: &[&str]| {
        let mut cmd = db.idemctl(args);
        cmd.env("COLUMNS", width);
        let out = run(cmd);
        assert!(out.code == 0 || out.code == 1, "{args:?}: {}", out.stderr);
        let w: usize = width.parse().unwrap();
        assert!(out.stdout.lines().all(|l| unicode_width(l) <= w), "{args:?} wider than {w}:\n{}", out.stdout);
        assert!(!out.stdout.contains("─[ 1 ]"), "{args:?} fell back to records at {w}:\n{}", out.stdout);
        out.stdout
    };
    // The header's words (a header may wrap at its spaces onto more lines).
    let header = |table: &str| {
        let mut words: Vec<String> = table
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with('═'))
            .flat_map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
            .collect();
        words.sort();
        words.join(" ")
    };
    let sorted = |words: &str| {
        let mut words: Vec<&str> = words.split(' ').collect();
        words.sort();
        words.join(" ")
    };
    for width in ["80", "100"] {
        let stuck = at(width, &["stuck"]);
        assert_eq!(header(&stuck), sorted("operation key state age"), "{stuck}");
        // Ages read as durations for people; CSV and JSON keep the seconds.
        let line = stuck.lines().find(|l| l.contains("k-ord-6m")).unwrap_or_default().to_string();
        // Six minutes, and the seconds since the table was filled.
        let age = line.trim_end().rsplit_once(" 6m").map(|(_, rest)| rest.trim().to_string());
        assert!(
            age.is_some_and(|s| s.is_empty() || (s.ends_with('s') && s[..s.len() - 1].parse::<u8>().is_ok())),
            "{stuck}"
        );
        let reap = at(width, &["reap", "--dry-run"]);
        assert_eq!(header(&reap), sorted("operation key state age outcome"), "{reap}");
        let scan = at(width, &["scan", "--table", "orders"]);
        assert_eq!(
            header(&scan),
            sorted("cluster original id extra ids count span seconds confidence cause values"),
            "{scan}"
        );
        assert!(!scan.contains("first at"), "{scan}");
        // Each cluster's confidence reads whole, however its cause and reasons are cut.
        let rows: Vec<&str> = scan.lines().filter(|l| l.trim_start().starts_with(char::is_numeric)).collect();
        assert!(!rows.is_empty(), "{scan}");
        for row in rows {
            assert!(["certain, ", "likely, ", "doubtful, "].iter().any(|c| row.contains(c)), "{scan}");
        }
        // expire's figures as lines, one figure each.
        let expire = at(width, &["expire", "--dry-run"]);
        assert!(expire.lines().any(|l| l.starts_with("rows matching: ")), "{expire}");
        assert!(expire.lines().all(|l| l.split_once(": ").is_some_and(|(k, _)| !k.contains('│'))), "{expire}");
        let doctor = at(width, &["doctor"]);
        assert!(!doctor.contains('…'), "doctor cut a sentence:\n{doctor}");
        // size's lines wrap at words, each continuation indented.
        let size = at(width, &["size"]);
        assert!(size.contains("write rate:"), "{size}");
    }
    let wide = run(db.idemctl(&["stuck", "--wide"]));
    assert!(wide.stdout.contains("locked at") && wide.stdout.contains("max duration"), "{}", wide.stdout);
    // Last: a copy takes seconds, and the ages above read to the minute.
    // Under load the runs above may take a minute, which would carry
    // k-ord-4m (60 s from its 5-minute limit) across it between the dry run
    // and the real run: it is moved two minutes from the limit first.
    db.exec(&format!(
        "UPDATE idempotency_keys SET locked_at = {} WHERE {} = 'k-ord-4m'",
        crate::common::ago(db, chrono::Duration::seconds(180)),
        db.ident("key")
    ));
    for args in [["reap", "--dry-run"], ["expire", "--dry-run"]] {
        crate::common::dry_run_kept(db, &args);
    }
}
