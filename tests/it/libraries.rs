//! Tables beyond HTTP, each built as a widely used library builds it (its
//! migration's DDL) and filled as its code fills it, with jobs or messages
//! in every state its own rescuer and cleaner tell apart: River's
//! `river_job`, pg-boss's partitioned `job`, DotNetCore.CAP's received
//! table (local times), MassTransit's `InboxState`, Solid Queue's claimed
//! executions with their workers' heartbeats, spatie/laravel-webhook-client's
//! `webhook_calls`. Each test checks that stuck lists exactly what the
//! library's rescuer would pick, that reap does what the rescuer does (or
//! refuses with exit 2, changing nothing), that expire deletes exactly what
//! the library's cleanup deletes, and that doctor says only what is true of
//! the design. Every dry run is followed by the real run on a copy, and the
//! outcomes compared.

use std::collections::BTreeMap;

use crate::common::{Engine, Run, TestDb, as_done, run};

fn idemctl(db: &TestDb, args: &[&str]) -> Run {
    run(db.idemctl(args))
}

fn pg() -> Option<TestDb> {
    TestDb::new(Engine::Postgres)
}

/// The keys a `stuck` run lists, in its order.
fn stuck_keys(db: &TestDb, mapping: &[&str]) -> (Vec<String>, serde_json::Value) {
    let out = idemctl(db, &[&["stuck", "--format", "json"][..], mapping].concat());
    assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
    let doc = out.json();
    let keys = doc["keys"].as_array().unwrap().iter().map(|k| k["key"].as_str().unwrap().to_string()).collect();
    (keys, doc)
}

/// Each key's outcome in a reap run, and the run's exit code.
fn reap(db: &TestDb, args: &[&str]) -> (BTreeMap<String, String>, Run) {
    let out = idemctl(db, &[&["reap", "--format", "json"][..], args].concat());
    let outcomes = match out.code {
        2 => BTreeMap::new(),
        _ => out.json()["keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| (k["key"].as_str().unwrap().to_string(), k["outcome"].as_str().unwrap().to_string()))
            .collect(),
    };
    (outcomes, out)
}

/// Runs reap's plain dry run and rollback dry run on `dry` and the real run
/// on `real` (a copy, built by the same fixture), and checks that what each
/// dry run promised is what the real run did, and that no dry run changed
/// a row. Returns the real run's outcomes.
fn dry_then_real(dry: &TestDb, real: &TestDb, table: &str, args: &[&str]) -> (BTreeMap<String, String>, Run) {
    let before = dry.contents();
    let (plain, plain_run) = reap(dry, &[&["--dry-run"][..], args].concat());
    let (rollback, rollback_run) = reap(dry, &[&["--dry-run=rollback"][..], args].concat());
    assert_eq!(dry.contents(), before, "a dry run changed {table}");
    if plain_run.code != 2 {
        assert_eq!(plain_run.json()["real_run_refused"], serde_json::Value::Null, "{}", plain_run.stdout);
    }
    let (done, run) = reap(real, args);
    let promised = |o: &BTreeMap<String, String>| -> BTreeMap<String, String> {
        o.iter().map(|(k, v)| (k.clone(), as_done(v))).collect()
    };
    assert_eq!(promised(&rollback), done, "the rollback dry run promised otherwise: {}", rollback_run.stderr);
    assert_eq!(promised(&plain), done, "the plain dry run promised otherwise: {}", plain_run.stderr);
    (done, run)
}

fn ids(db: &TestDb, sql: &str) -> Vec<String> {
    db.column(sql).into_iter().flatten().collect()
}

/// An expression as text on the engine.
fn text(db: &TestDb, expr: &str) -> String {
    match db.engine {
        Engine::Postgres => format!("CAST({expr} AS text)"),
        _ => format!("CAST({expr} AS CHAR)"),
    }
}

// ---- River (riverqueue/river, riverdriver/riverpgxv5/migration/main 002-007) ----

const RIVER_DDL: &str = "
    CREATE TYPE river_job_state AS ENUM ('available', 'cancelled', 'completed', 'discarded', 'pending', 'retryable',
        'running', 'scheduled');
    CREATE TABLE river_job (
        id bigserial PRIMARY KEY,
        state river_job_state NOT NULL DEFAULT 'available',
        attempt smallint NOT NULL DEFAULT 0,
        max_attempts smallint NOT NULL DEFAULT 25,
        attempted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        finalized_at timestamptz,
        scheduled_at timestamptz NOT NULL DEFAULT now(),
        priority smallint NOT NULL DEFAULT 1,
        args jsonb NOT NULL DEFAULT '{}',
        attempted_by text[],
        errors jsonb[],
        kind text NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        queue text NOT NULL DEFAULT 'default',
        tags varchar(255)[] NOT NULL DEFAULT '{}',
        unique_key bytea,
        unique_states bit(8),
        CONSTRAINT finalized_or_finalized_at_null CHECK (
            (finalized_at IS NULL AND state NOT IN ('cancelled', 'completed', 'discarded'))
            OR (finalized_at IS NOT NULL AND state IN ('cancelled', 'completed', 'discarded'))),
        CONSTRAINT max_attempts_is_positive CHECK (max_attempts > 0),
        CONSTRAINT priority_in_range CHECK (priority >= 1 AND priority <= 4),
        CONSTRAINT queue_length CHECK (char_length(queue) > 0 AND char_length(queue) < 128),
        CONSTRAINT kind_length CHECK (char_length(kind) > 0 AND char_length(kind) < 128));
    CREATE INDEX river_job_kind ON river_job USING btree (kind);
    CREATE INDEX river_job_state_and_finalized_at_index ON river_job USING btree (state, finalized_at)
        WHERE finalized_at IS NOT NULL;
    CREATE INDEX river_job_prioritized_fetching_index ON river_job USING btree (state, queue, priority, scheduled_at, id);
    CREATE UNIQUE INDEX river_job_unique_idx ON river_job (unique_key)
        WHERE unique_key IS NOT NULL AND unique_states IS NOT NULL;";

/// River's jobs, as its client and workers leave them: a claim sets state
/// running, attempt + 1 and attempted_at; completion sets finalized_at.
/// Ids: 1 running 2 h (attempt 1 of 25), 2 running 3 h on its last attempt
/// (25 of 25), 3 running 10 min, 4 completed 2 days ago, 5 completed an hour
/// ago, 6 discarded 8 days ago, 7 discarded 3 days ago, 8 available. Job 2
/// keeps its 24th attempt's error, as River's executor appends each.
fn river(db: &TestDb) {
    db.exec(RIVER_DDL);
    db.exec(
        "INSERT INTO river_job (id, state, attempt, max_attempts, attempted_at, created_at, finalized_at, kind) VALUES
         (1, 'running', 1, 25, now() - interval '2 hours', now() - interval '2 hours', NULL, 'email'),
         (2, 'running', 25, 25, now() - interval '3 hours', now() - interval '3 days', NULL, 'email'),
         (3, 'running', 1, 25, now() - interval '10 minutes', now() - interval '10 minutes', NULL, 'email'),
         (4, 'completed', 1, 25, now() - interval '2 days', now() - interval '2 days', now() - interval '2 days', 'email'),
         (5, 'completed', 1, 25, now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour', 'email'),
         (6, 'discarded', 25, 25, now() - interval '8 days', now() - interval '9 days', now() - interval '8 days', 'email'),
         (7, 'discarded', 25, 25, now() - interval '3 days', now() - interval '4 days', now() - interval '3 days', 'email'),
         (8, 'available', 0, 25, NULL, now(), NULL, 'email')",
    );
    db.exec(
        r#"UPDATE river_job SET errors = ARRAY['{"at": "2026-01-01T00:00:00Z", "attempt": 24, "error": "timeout",
            "trace": ""}'::jsonb] WHERE id = 2"#,
    );
}

/// River's rescuer (internal/maintenance/job_rescuer.go): running jobs
/// attempted more than RescueAfter (1 h) ago; retryable while attempt <
/// max_attempts (scheduled again), else discarded with finalized_at.
const RIVER: [&str; 18] = [
    "--table",
    "river_job",
    "--key-column",
    "id",
    "--status-column",
    "state",
    "--in-progress-value",
    "running",
    "--succeeded-value",
    "completed",
    "--retryable-value",
    "retryable",
    "--permanent-value",
    "discarded",
    "--locked-at-column",
    "attempted_at",
    "--max-duration",
    "1h",
];

/// River's attempts rule, for reap.
const RIVER_ATTEMPTS: [&str; 4] = ["--attempts-column", "attempt", "--max-attempts", "max_attempts"];

/// What River's rescuer records on a rescued job, retried or discarded: an
/// AttemptError appended to `errors` (rivertype.AttemptError's fields).
const RIVER_ERROR: [&str; 2] =
    ["--set", "errors=append({at: now(), attempt: attempt, error: 'Stuck job rescued by Rescuer', trace: 'TODO'})"];

#[test]
fn river_stuck_lists_what_its_rescuer_picks() {
    let Some(db) = pg() else { return };
    river(&db);
    let (keys, doc) = stuck_keys(&db, &RIVER);
    assert_eq!(keys, ["2", "1"], "{doc}");
    assert_eq!(doc["untimed"], 0);
}

/// River named as a design from the catalog: the same stuck jobs as the
/// hand mapping, and reap's dry run the same outcomes; a flag still says
/// otherwise over it; an unknown design and a design whose table is not
/// there are refused in one line before anything runs.
#[test]
fn river_by_its_design_name() {
    let Some(db) = pg() else { return };
    river(&db);
    let (by_hand, _) = stuck_keys(&db, &RIVER);
    let named = ["--design", "river", "--max-duration", "1h"];
    let (keys, doc) = stuck_keys(&db, &named);
    assert_eq!((&keys, &by_hand), (&vec!["2".to_string(), "1".to_string()], &keys), "{doc}");
    let said = idemctl(&db, &[&["stuck"][..], &named].concat());
    assert!(said.stderr.contains("kind: jobs (as the design says)\n"), "{}", said.stderr);
    let (hand, _) = reap(&db, &[&["--dry-run"][..], &RIVER, &RIVER_ATTEMPTS].concat());
    let (design, out) = reap(&db, &[&["--dry-run"][..], &named, &RIVER_ATTEMPTS].concat());
    assert!(!design.is_empty() && design == hand, "{design:?} vs {hand:?}: {}", out.stderr);
    // A flag over the design: another state taken as running.
    let (over, _) = stuck_keys(&db, &[&named[..], &["--in-progress-value", "completed"]].concat());
    assert!(over.contains(&"4".to_string()) && !over.contains(&"1".to_string()), "{over:?}");
    let unknown = idemctl(&db, &["stuck", "--design", "sidekiq"]);
    assert_eq!(unknown.code, 2);
    assert_eq!(
        unknown.stderr,
        "idemctl: --design sidekiq: no such design (known: river, pg-boss, masstransit-inbox, delayed-job)\n"
    );
    let elsewhere = idemctl(&db, &["stuck", "--design", "delayed-job"]);
    assert_eq!(elsewhere.code, 2);
    assert!(elsewhere.stderr.contains("delayed_jobs") && elsewhere.stderr.lines().count() == 1, "{}", elsewhere.stderr);
}

#[test]
fn river_reap_does_what_its_rescuer_does() {
    let (Some(dry), Some(real)) = (pg(), pg()) else { return };
    river(&dry);
    river(&real);
    let args: Vec<&str> = [
        &RIVER[..],
        &RIVER_ATTEMPTS,
        &RIVER_ERROR,
        &["--release-set", "scheduled_at=now()", "--fail-set", "finalized_at=now()"],
    ]
    .concat();
    let (done, run) = dry_then_real(&dry, &real, "river_job", &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(done, BTreeMap::from([("1".into(), "released".into()), ("2".into(), "failed".into())]));
    let states = ids(
        &real,
        "SELECT id || ':' || state || ':' || (finalized_at IS NOT NULL) || ':' || attempt FROM river_job ORDER BY id",
    );
    assert_eq!(
        states,
        [
            "1:retryable:false:1",
            "2:discarded:true:25",
            "3:running:false:1",
            "4:completed:true:1",
            "5:completed:true:1",
            "6:discarded:true:25",
            "7:discarded:true:25",
            "8:available:false:0"
        ]
    );
    // The retried job runs again now, as the rescuer schedules it.
    let due = ids(&real, "SELECT id::text FROM river_job WHERE id = 1 AND scheduled_at > now() - interval '1 minute'");
    assert_eq!(due, ["1"]);
    // Each rescued job has the rescuer's error appended, after the ones it had.
    let errors = ids(&real, "SELECT id || ':' || array_to_json(errors)::text FROM river_job WHERE errors IS NOT NULL");
    let errors: Vec<(String, serde_json::Value)> = errors
        .iter()
        .map(|e| e.split_once(':').map(|(id, json)| (id.to_string(), serde_json::from_str(json).unwrap())).unwrap())
        .collect();
    assert_eq!(
        errors.iter().map(|(id, e)| (id.as_str(), e.as_array().unwrap().len())).collect::<Vec<_>>(),
        [("1", 1), ("2", 2)]
    );
    assert_eq!(errors[1].1[0]["error"], "timeout");
    for ((_, list), attempt) in errors.iter().zip([1, 25]) {
        let last = list.as_array().unwrap().last().unwrap();
        assert_eq!(
            (&last["error"], &last["attempt"], &last["trace"]),
            (&"Stuck job rescued by Rescuer".into(), &attempt.into(), &"TODO".into())
        );
        let at = chrono::DateTime::parse_from_rfc3339(last["at"].as_str().unwrap()).unwrap();
        assert!((chrono::Utc::now() - at.to_utc()).num_seconds().abs() < 60, "{last}");
    }
}

/// Without a finalised time, River's CHECK refuses the discard: both dry
/// runs say so for the key, naming the constraint (the plain one judges it
/// on the row as it would become), as the real run then finds.
#[test]
fn river_discard_without_finalized_at_is_refused_alike_by_dry_run_and_run() {
    let (Some(dry), Some(real)) = (pg(), pg()) else { return };
    river(&dry);
    river(&real);
    let args: Vec<&str> = [&RIVER[..], &RIVER_ATTEMPTS, &["--release-set", "scheduled_at=now()"]].concat();
    let (plain, plain_run) = reap(&dry, &[&["--dry-run"][..], &args].concat());
    assert_eq!(plain.get("2").map(String::as_str), Some("error"));
    assert!(
        plain_run.stderr.contains("job 2 would be left as it was: its change would violate CHECK")
            && plain_run.stderr.contains("finalized_at"),
        "{}",
        plain_run.stderr
    );
    let (done, _) = dry_then_real(&dry, &real, "river_job", &args);
    assert_eq!(done, BTreeMap::from([("1".into(), "released".into()), ("2".into(), "error".into())]));
    assert_eq!(ids(&real, "SELECT state::text FROM river_job WHERE id = 2"), ["running"]);
}

/// River's cleaner (job_cleaner.go): completed and cancelled jobs finalized
/// over 24 h ago, discarded ones over 7 days ago.
#[test]
fn river_expire_deletes_what_its_cleaner_deletes() {
    let Some(db) = pg() else { return };
    river(&db);
    let base = ["expire", "--table", "river_job", "--created-at-column", "finalized_at", "--format", "json"];
    let out =
        idemctl(&db, &[&base[..], &["--older-than", "24h", "--where", "state IN ('completed', 'cancelled')"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = idemctl(&db, &[&base[..], &["--older-than", "7d", "--where", "state = 'discarded'"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["kind"], "jobs", "{}", out.stdout);
    assert_eq!(ids(&db, "SELECT id::text FROM river_job ORDER BY id"), ["1", "2", "3", "5", "7", "8"]);
}

/// River's cleaner in one run, by its design's name: completed and
/// cancelled jobs 24 h after they finished, discarded ones 7 days after;
/// the dry run counts what the run deletes. A horizon for a state expire
/// does not delete, or without --older-than, is refused.
#[test]
fn river_cleaner_in_one_run() {
    let Some(db) = pg() else { return };
    river(&db);
    let args = [
        "expire",
        "--design",
        "river",
        "--purge-by-column",
        "finalized_at",
        "--older-than",
        "24h",
        "--state-horizon",
        "discarded=7d",
        "--format",
        "json",
    ];
    let dry = idemctl(&db, &[&args[..], &["--dry-run"]].concat());
    assert_eq!(dry.json()["runs"][0]["rows_matching"], 2, "{}", dry.stderr);
    // All of it in a config file: the design, its purge clock and both horizons.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idemctl.toml");
    std::fs::write(
        &path,
        "[key_table]\ndesign = \"river\"\npurge_by_column = \"finalized_at\"\n\
         [retention]\nhorizon = \"24h\"\nstate_horizons = { discarded = \"7d\" }\n",
    )
    .unwrap();
    let config = path.to_str().unwrap();
    let filed = idemctl(&db, &["expire", "--config", config, "--dry-run", "--format", "json"]);
    assert_eq!(filed.json()["runs"][0]["rows_matching"], 2, "{}", filed.stderr);
    let out = idemctl(&db, &args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["runs"][0]["rows_deleted"], 2);
    assert_eq!(ids(&db, "SELECT id::text FROM river_job ORDER BY id"), ["1", "2", "3", "5", "7", "8"]);
    let live = idemctl(&db, &["expire", "--design", "river", "--older-than", "24h", "--state-horizon", "running=7d"]);
    assert_eq!(live.code, 2);
    assert_eq!(
        live.stderr,
        "idemctl: --state-horizon running=...: running is not a state expire deletes (finished: completed, discarded, \
         cancelled)\n"
    );
    let alone = idemctl(&db, &["expire", "--design", "river", "--state-horizon", "discarded=7d"]);
    assert_eq!(alone.code, 2);
    assert!(alone.stderr.contains("(--older-than)"), "{}", alone.stderr);
}

/// The same cleaner said in River's states rather than SQL: the mapping
/// stuck and reap use, and the statuses each horizon finishes. A state a
/// horizon does not finish stays (discarded jobs at 24 h); a job waiting to
/// run is never expired, however old, and a state nobody named is said and
/// exits 1.
#[test]
fn river_expire_by_its_states() {
    let Some(db) = pg() else { return };
    river(&db);
    db.exec(
        "INSERT INTO river_job (id, state, attempt, max_attempts, created_at, finalized_at, scheduled_at, kind) VALUES
         (9, 'cancelled', 1, 25, now() - interval '3 days', now() - interval '2 days', now(), 'email'),
         (10, 'scheduled', 0, 25, now() - interval '5 days', NULL, now() + interval '3 days', 'email'),
         (11, 'retryable', 3, 25, now() - interval '2 days', NULL, now() + interval '1 hour', 'email')",
    );
    let mapping = &RIVER[..14];
    let cleaner = ["expire", "--created-at-column", "finalized_at", "--format", "json"];
    let day = ["--older-than", "24h", "--finished-value", "cancelled", "--live-value", "discarded"];
    let out = idemctl(&db, &[&cleaner[..], mapping, &day].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let run = &out.json()["runs"][0];
    assert_eq!(run["rows_deleted"], 2, "{}", out.stdout);
    assert_eq!(run["kept_live"], serde_json::json!({"discarded": 2}), "{}", out.stdout);
    let week = ["--older-than", "7d"];
    let out = idemctl(&db, &[&cleaner[..], mapping, &week].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        ids(&db, "SELECT id::text FROM river_job ORDER BY river_job.id"),
        ["1", "2", "3", "5", "7", "8", "10", "11"]
    );

    // By the creation time, with the defaults for jobs: completed and
    // discarded finish; the scheduled job past the horizon is no state
    // the mapping names, and stays; the retryable one is live.
    let created = ["expire", "--created-at-column", "created_at", "--older-than", "24h", "--format", "json"];
    let out = idemctl(&db, &[&created[..], mapping].concat());
    assert_eq!(out.code, 1, "{}", out.stderr);
    let run = &out.json()["runs"][0];
    assert_eq!(run["rows_deleted"], 1, "{}", out.stdout);
    assert_eq!(run["kept_live"], serde_json::json!({"retryable": 1}), "{}", out.stdout);
    assert_eq!(run["kept_unknown"], serde_json::json!({"scheduled": 1}), "{}", out.stdout);
    assert!(out.stderr.contains("(scheduled 1): expire deletes only completed, discarded;"), "{}", out.stderr);
    assert_eq!(ids(&db, "SELECT id::text FROM river_job ORDER BY river_job.id"), ["1", "2", "3", "5", "8", "10", "11"]);
}

/// expire and size name the kind too: in JSON, and to people with what told it.
#[test]
fn river_expire_and_size_name_the_kind() {
    let Some(db) = pg() else { return };
    river(&db);
    let told = "kind: jobs (told by state with attempt; --kind to say otherwise)";
    let expire = ["expire", "--table", "river_job", "--created-at-column", "finalized_at", "--older-than", "24h"];
    let out = idemctl(&db, &[&expire[..], &["--dry-run"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains(told), "{}", out.stderr);
    // Its state column unmapped: said, since nothing keeps a live job then.
    assert!(
        out.stderr.contains(
            "note: state looks like a state column and is not mapped (--status-column state): expire cannot tell \
             live rows from finished ones, and every row past the horizon goes\n"
        ),
        "{}",
        out.stderr
    );
    let mapped = idemctl(&db, &[&expire[..], &["--dry-run", "--status-column", "state"]].concat());
    assert!(!mapped.stderr.contains("looks like a state column"), "{}", mapped.stderr);
    // A condition for the jobs running tells nothing of the others.
    let running = idemctl(&db, &[&expire[..], &["--dry-run", "--in-progress-when", "state = 'running'"]].concat());
    assert!(running.stderr.contains("note: state looks like a state column"), "{}", running.stderr);
    let size = ["size", "--table", "river_job", "--created-at-column", "created_at"];
    let out = idemctl(&db, &size);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains(told), "{}", out.stdout);
    let out = idemctl(&db, &[&size[..], &["--format", "json", "--kind", "outbox"]].concat());
    assert_eq!(out.json()["kind"], "outbox", "{}", out.stdout);
}

/// stuck and reap speak of jobs to people (the kind told by River's state
/// and attempt columns), and keep their keys for pipelines; `--kind` says
/// otherwise.
#[test]
fn river_stuck_and_reap_speak_of_jobs() {
    let Some(db) = pg() else { return };
    river(&db);
    let out = idemctl(&db, &[&["stuck"][..], &RIVER].concat());
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("kind: jobs (told by state with attempt; --kind to say otherwise)\n"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("\nstuck jobs: 2\n"), "{}", out.stderr);
    let header: Vec<&str> = out.stdout.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(header, ["job", "state", "age"], "{}", out.stdout);
    let (keys, doc) = stuck_keys(&db, &RIVER);
    assert_eq!(keys, ["2", "1"]);
    assert_eq!((&doc["kind"], &doc["stuck_keys"]), (&"jobs".into(), &2.into()), "{doc}");
    let reap_args =
        [&RIVER[..], &RIVER_ATTEMPTS, &["--release-set", "scheduled_at=now()", "--fail-set", "finalized_at=now()"]];
    let out = idemctl(&db, &[&["reap", "--dry-run", "--show-sql"][..], &reap_args.concat()].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("kind: jobs ("), "{}", out.stderr);
    assert!(out.stderr.contains("each batch of jobs would be changed by one statement like"), "{}", out.stderr);
    assert!(out.stderr.contains("each job released would get "), "{}", out.stderr);
    assert!(out.stderr.contains("scheduled_at → now()"), "{}", out.stderr);
    assert_eq!(out.stdout.lines().nth(1).unwrap().split_whitespace().next(), Some("job"), "{}", out.stdout);
    let out = idemctl(&db, &[&["stuck", "--kind", "jobs"][..], &RIVER].concat());
    assert!(out.stderr.contains("kind: jobs (as --kind says)\n"), "{}", out.stderr);
    let out = idemctl(&db, &[&["stuck", "--kind", "http"][..], &RIVER].concat());
    assert!(!out.stderr.contains("kind:") && out.stderr.contains("\nstuck keys: 2\n"), "{}", out.stderr);
    assert_eq!(out.stdout.lines().nth(1).unwrap().split_whitespace().next(), Some("key"), "{}", out.stdout);
}

#[test]
fn river_doctor_speaks_of_jobs() {
    let Some(db) = pg() else { return };
    river(&db);
    let mapping: Vec<&str> = RIVER[..16].iter().map(|a| if *a == "id" { "unique_key" } else { a }).collect();
    let out = idemctl(&db, &[&["doctor", "--format", "json"][..], &mapping].concat());
    assert_ne!(out.code, 2, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(doc["kind"], "jobs", "{doc}");
    let check =
        |name: &str| doc["checks"].as_array().unwrap().iter().find(|c| c["check"] == name).cloned().unwrap_or_default();
    assert_eq!(check("response")["result"], "pass", "{doc}");
    assert_eq!(check("fingerprint")["result"], "pass", "{doc}");
    assert_eq!(check("uniqueness")["result"], "pass", "{doc}");
    assert!(check("uniqueness")["reason"].as_str().unwrap().contains("river_job_unique_idx"), "{doc}");
}

// ---- pg-boss (timgit/pg-boss 10.0.0, src/plans.js) ----

/// pg-boss's job table, partitioned by queue name (each queue a partition
/// created by create_queue()), as fetchNextJob claims its rows: state
/// active, started_on now. Jobs (by singleton key; ids boss_id(1) to 8): a1 active 20 min with the default 15 min
/// expiry (retry 0 of 2), a2 active 25 min on its last retry (2 of 2), a3
/// active 20 min with a 1 h expiry, a4 active 5 min; c1 completed 13 h ago,
/// c2 completed 1 h ago, f1 failed 13 h ago, r1 created with keep_until
/// past.
fn pg_boss(db: &TestDb) {
    pg_boss_as(db, true)
}

/// pg-boss's jobs, in its partitioned table or (`partitioned` false) in one
/// plain table of the same columns.
fn pg_boss_as(db: &TestDb, partitioned: bool) {
    let ddl = "CREATE TYPE job_state AS ENUM ('created', 'retry', 'active', 'completed', 'cancelled', 'failed');
         CREATE TABLE job (
            id uuid NOT NULL DEFAULT gen_random_uuid(),
            name text NOT NULL,
            priority integer NOT NULL DEFAULT (0),
            data jsonb,
            state job_state NOT NULL DEFAULT ('created'),
            retry_limit integer NOT NULL DEFAULT (0),
            retry_count integer NOT NULL DEFAULT (0),
            retry_delay integer NOT NULL DEFAULT (0),
            retry_backoff boolean NOT NULL DEFAULT false,
            start_after timestamp with time zone NOT NULL DEFAULT now(),
            started_on timestamp with time zone,
            singleton_key text,
            singleton_on timestamp without time zone,
            expire_in interval NOT NULL DEFAULT interval '15 minutes',
            created_on timestamp with time zone NOT NULL DEFAULT now(),
            completed_on timestamp with time zone,
            keep_until timestamp with time zone NOT NULL DEFAULT now() + interval '14 days',
            output jsonb,
            dead_letter text,
            policy text
         )";
    if !partitioned {
        db.exec(&format!("{ddl}; ALTER TABLE job ADD PRIMARY KEY (name, id)"));
    } else {
        db.exec(&format!(
            "{ddl} PARTITION BY LIST (name);
         CREATE TABLE j_email (LIKE job INCLUDING DEFAULTS);
         ALTER TABLE j_email ADD PRIMARY KEY (name, id);
         ALTER TABLE j_email ADD CONSTRAINT cjc CHECK (name = 'email');
         ALTER TABLE job ATTACH PARTITION j_email FOR VALUES IN ('email');
         CREATE TABLE j_sms (LIKE job INCLUDING DEFAULTS);
         ALTER TABLE j_sms ADD PRIMARY KEY (name, id);
         ALTER TABLE j_sms ADD CONSTRAINT cjc CHECK (name = 'sms');
         ALTER TABLE job ATTACH PARTITION j_sms FOR VALUES IN ('sms');"
        ));
    }
    let uuid = |n: u32| format!("'{}'", boss_id(n));
    db.exec(&format!(
        "INSERT INTO job (id, name, state, retry_limit, retry_count, started_on, expire_in, created_on, completed_on,
            keep_until, singleton_key) VALUES
         ({}, 'email', 'active', 2, 0, now() - interval '20 minutes', interval '15 minutes', now() - interval '1 hour', NULL, now() + interval '14 days', 'a1'),
         ({}, 'sms', 'active', 2, 2, now() - interval '25 minutes', interval '15 minutes', now() - interval '1 hour', NULL, now() + interval '14 days', 'a2'),
         ({}, 'email', 'active', 2, 0, now() - interval '20 minutes', interval '1 hour', now() - interval '1 hour', NULL, now() + interval '14 days', 'a3'),
         ({}, 'sms', 'active', 2, 0, now() - interval '5 minutes', interval '15 minutes', now() - interval '1 hour', NULL, now() + interval '14 days', 'a4'),
         ({}, 'email', 'completed', 2, 0, now() - interval '14 hours', interval '15 minutes', now() - interval '14 hours', now() - interval '13 hours', now() + interval '14 days', 'c1'),
         ({}, 'email', 'completed', 2, 0, now() - interval '2 hours', interval '15 minutes', now() - interval '2 hours', now() - interval '1 hour', now() + interval '14 days', 'c2'),
         ({}, 'sms', 'failed', 2, 2, now() - interval '14 hours', interval '15 minutes', now() - interval '14 hours', now() - interval '13 hours', now() + interval '14 days', 'f1'),
         ({}, 'sms', 'created', 2, 0, NULL, interval '15 minutes', now() - interval '15 days', NULL, now() - interval '1 day', 'r1')",
        uuid(1),
        uuid(2),
        uuid(3),
        uuid(4),
        uuid(5),
        uuid(6),
        uuid(7),
        uuid(8)
    ));
}

/// The id of pg-boss fixture job `n` (a1 is 1, a2 is 2, ...).
fn boss_id(n: u32) -> String {
    format!("00000000-0000-0000-0000-{n:012}")
}

/// pg-boss's failJobsByTimeout: active jobs past started_on + expire_in;
/// retried while retry_count < retry_limit, else failed with completed_on.
const PG_BOSS: [&str; 22] = [
    "--table",
    "job",
    "--key-column",
    "id",
    "--status-column",
    "state",
    "--in-progress-value",
    "active",
    "--succeeded-value",
    "completed",
    "--retryable-value",
    "retry",
    "--permanent-value",
    "failed",
    "--locked-at-column",
    "started_on",
    "--lease-length-column",
    "expire_in",
    "--created-at-column",
    "created_on",
    "--max-duration",
    "24h",
];

/// pg-boss's retry limit, for reap.
const PG_BOSS_ATTEMPTS: [&str; 4] = ["--attempts-column", "retry_count", "--max-attempts", "retry_limit"];

#[test]
fn pg_boss_stuck_lists_what_its_expiry_picks() {
    let Some(db) = pg() else { return };
    pg_boss(&db);
    let (keys, doc) = stuck_keys(&db, &PG_BOSS);
    assert_eq!(keys, [boss_id(2), boss_id(1)], "{doc}");
    // The same by the design's name in the catalog.
    let (named, doc) = stuck_keys(&db, &["--design", "pg-boss", "--max-duration", "24h"]);
    assert_eq!(named, keys, "{doc}");
}

#[test]
fn pg_boss_reap_does_what_its_expiry_does() {
    let (Some(dry), Some(real)) = (pg(), pg()) else { return };
    pg_boss(&dry);
    pg_boss(&real);
    let args: Vec<&str> =
        [&PG_BOSS[..], &PG_BOSS_ATTEMPTS, &["--release-set", "start_after=now()", "--fail-set", "completed_on=now()"]]
            .concat();
    let (done, run) = dry_then_real(&dry, &real, "job", &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(done, BTreeMap::from([(boss_id(1), "released".into()), (boss_id(2), "failed".into())]));
    let states = ids(
        &real,
        "SELECT singleton_key || ':' || state || ':' || (completed_on IS NOT NULL) FROM job ORDER BY singleton_key",
    );
    assert_eq!(
        states,
        [
            "a1:retry:false",
            "a2:failed:true",
            "a3:active:false",
            "a4:active:false",
            "c1:completed:true",
            "c2:completed:true",
            "f1:failed:true",
            "r1:created:false"
        ]
    );
}

/// A partitioned job table gets the answers a plain one gets.
#[test]
fn pg_boss_partitioned_and_plain_answer_alike() {
    let (Some(parted), Some(plain)) = (pg(), pg()) else { return };
    pg_boss_as(&parted, true);
    pg_boss_as(&plain, false);
    assert_eq!(stuck_keys(&parted, &PG_BOSS).0, stuck_keys(&plain, &PG_BOSS).0);
    let args: Vec<&str> =
        [&PG_BOSS[..], &PG_BOSS_ATTEMPTS, &["--release-set", "start_after=now()", "--fail-set", "completed_on=now()"]]
            .concat();
    let states = "SELECT singleton_key || ':' || state || ':' || (completed_on IS NOT NULL) FROM job ORDER BY 1";
    let before = ids(&plain, states);
    let ((parted_outcomes, parted_run), (plain_outcomes, plain_run)) = (reap(&parted, &args), reap(&plain, &args));
    // Both ran and changed keys, and alike: two refusals would also be equal.
    assert_eq!((parted_run.code, plain_run.code), (0, 0), "{}{}", parted_run.stderr, plain_run.stderr);
    assert!(plain_outcomes.values().any(|o| o == "released" || o == "failed"), "{plain_outcomes:?}");
    assert_eq!(parted_outcomes, plain_outcomes);
    assert_ne!(ids(&plain, states), before, "the reap changed no job");
    assert_eq!(ids(&parted, states), ids(&plain, states));
    let expire = [
        "expire",
        "--table",
        "job",
        "--created-at-column",
        "completed_on",
        "--older-than",
        "12h",
        "--allow-short-retention",
    ];
    // By hand: the jobs completed over 12 h ago go, every other stays.
    let old = ids(&plain, "SELECT singleton_key FROM job WHERE completed_on < now() - interval '12 hours' ORDER BY 1");
    assert!(!old.is_empty(), "the fixture holds jobs completed over 12 h ago");
    let kept = ids(
        &plain,
        "SELECT singleton_key || ':' || state || ':' || (completed_on IS NOT NULL) FROM job \
         WHERE completed_on IS NULL OR completed_on >= now() - interval '12 hours' ORDER BY 1",
    );
    assert_eq!(idemctl(&parted, &expire).code, 0);
    assert_eq!(idemctl(&plain, &expire).code, 0);
    assert_eq!(ids(&plain, states), kept);
    assert_eq!(ids(&parted, states), kept);
}

/// pg-boss's archive(): jobs completed (any final state) over 12 h ago, and
/// jobs still waiting past their keep_until.
#[test]
fn pg_boss_expire_deletes_what_its_archive_takes() {
    let Some(db) = pg() else { return };
    pg_boss(&db);
    let done = idemctl(
        &db,
        &[
            "expire",
            "--table",
            "job",
            "--created-at-column",
            "completed_on",
            "--older-than",
            "12h",
            "--allow-short-retention",
        ],
    );
    assert_eq!(done.code, 0, "{}", done.stderr);
    let waiting = idemctl(
        &db,
        &["expire", "--table", "job", "--expires-at-column", "keep_until", "--where", "state IN ('created', 'retry')"],
    );
    assert_eq!(waiting.code, 0, "{}", waiting.stderr);
    assert_eq!(ids(&db, "SELECT singleton_key FROM job ORDER BY 1"), ["a1", "a2", "a3", "a4", "c2"]);
}

// ---- DotNetCore.CAP (dotnetcore/CAP, src/DotNetCore.CAP.PostgreSql and .MySql) ----

/// CAP's received table: times from DateTime.Now, the application server's
/// local time (here UTC+8), in zoneless columns. Ids: 1 Scheduled 10 min
/// ago, 2 Failed 12 min ago (3 retries), 3 Failed with its retries used up
/// (50), 4 Scheduled 1 min ago, 5 Succeeded (expired an hour ago), 6
/// Succeeded (expires in 20 h), 7 Failed 10 min ago of version v2, 8 Failed
/// expired a day ago.
fn cap(db: &TestDb) {
    cap_as(db, "received");
}

/// CAP's `received` (a subscriber's: with its `Group`) or `published` table
/// (the outbox of messages sent), with the rows above.
fn cap_as(db: &TestDb, name: &str) {
    let (ts, table) = match db.engine {
        Engine::Postgres => ("TIMESTAMP", format!("\"cap\".\"{name}\"")),
        _ => ("datetime", format!("`cap.{name}`")),
    };
    if db.engine == Engine::Postgres {
        db.exec("CREATE SCHEMA IF NOT EXISTS cap");
    }
    let q = |c: &str| db.ident(c);
    let group = name == "received";
    let mut columns = vec![
        format!("{} BIGINT PRIMARY KEY NOT NULL", q("Id")),
        format!("{} VARCHAR(20) NOT NULL", q("Version")),
        format!("{} VARCHAR(200) NOT NULL", q("Name")),
    ];
    if group {
        columns.push(format!("{} VARCHAR(200) NULL", q("Group")));
    }
    columns.extend([
        format!("{} TEXT NULL", q("Content")),
        format!("{} INT NOT NULL", q("Retries")),
        format!("{} {ts} NOT NULL", q("Added")),
        format!("{} {ts} NULL", q("ExpiresAt")),
        format!("{} VARCHAR(50) NOT NULL", q("StatusName")),
    ]);
    db.exec(&format!("CREATE TABLE {table} ({})", columns.join(", ")));
    // The server's clock in UTC+8, as DateTime.Now writes it.
    let local = |minutes: i64| {
        let t = chrono::Utc::now() + chrono::Duration::hours(8) + chrono::Duration::minutes(minutes);
        format!("'{}'", t.format("%Y-%m-%d %H:%M:%S"))
    };
    let rows = [
        (1, "v1", 0, local(-10), None, "Scheduled"),
        (2, "v1", 3, local(-12), None, "Failed"),
        (3, "v1", 50, local(-10), Some(local(15 * 24 * 60 - 10)), "Failed"),
        (4, "v1", 0, local(-1), None, "Scheduled"),
        (5, "v1", 0, local(-25 * 60), Some(local(-60)), "Succeeded"),
        (6, "v1", 0, local(-4 * 60), Some(local(20 * 60)), "Succeeded"),
        (7, "v2", 1, local(-10), None, "Failed"),
        (8, "v1", 50, local(-16 * 24 * 60), Some(local(-24 * 60)), "Failed"),
    ];
    let values: Vec<String> = rows
        .iter()
        .map(|(id, v, retries, added, expires, status)| {
            format!(
                "({id}, '{v}', 'orders.created', {}'{{}}', {retries}, {added}, {}, '{status}')",
                if group { "'g', " } else { "" },
                expires.clone().unwrap_or_else(|| "NULL".into())
            )
        })
        .collect();
    let names: Vec<String> =
        ["Id", "Version", "Name", "Group", "Content", "Retries", "Added", "ExpiresAt", "StatusName"]
            .iter()
            .filter(|c| group || **c != "Group")
            .map(|c| q(c))
            .collect();
    db.exec(&format!("INSERT INTO {table} ({}) VALUES {}", names.join(", "), values.join(", ")));
}

/// CAP's outbox, `published`, with the servers' zone given per column in
/// the config file: stuck lists what its retry processor re-sends, expire
/// deletes what its collector deletes, doctor calls it an outbox.
fn cap_published(db: &TestDb) {
    cap_as(db, "published");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("idemctl.toml");
    std::fs::write(&config, "[key_table.time_zones]\nAdded = \"+08:00\"\nExpiresAt = \"+08:00\"\n").unwrap();
    let config = config.to_str().unwrap();
    let q = |c: &str| db.ident(c);
    let in_progress = format!("{} IN ('Failed', 'Scheduled') AND {} < 50", q("StatusName"), q("Retries"));
    let version = format!("{} = 'v1'", q("Version"));
    let mapping = [
        "--config",
        config,
        "--table",
        "cap.published",
        "--key-column",
        "Id",
        "--in-progress-when",
        &in_progress,
        "--where",
        &version,
        "--created-at-column",
        "Added",
        "--max-duration",
        "240s",
    ];
    let (keys, doc) = stuck_keys(db, &mapping);
    assert_eq!(keys, ["2", "1"], "{doc}");
    let status = format!("{} IN ('Succeeded', 'Failed')", q("StatusName"));
    let out = idemctl(
        db,
        &[
            "expire",
            "--config",
            config,
            "--table",
            "cap.published",
            "--expires-at-column",
            "ExpiresAt",
            "--where",
            &status,
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let table = match db.engine {
        Engine::Postgres => "\"cap\".\"published\"",
        _ => "`cap.published`",
    };
    let id = q("Id");
    assert_eq!(
        ids(db, &format!("SELECT {} FROM {table} ORDER BY {id}", text(db, &id))),
        ["1", "2", "3", "4", "6", "7"]
    );
    let (_, doc) =
        doctor_checks(db, &["--config", config, "--table", "cap.published", "--key-column", "Id", "--no-in-progress"]);
    assert_eq!(doc["kind"], "outbox", "{doc}");
}

/// The name CAP gives its table: a schema's table on PostgreSQL, one
/// table named with a dot on MySQL and MariaDB.
fn cap_table(_db: &TestDb) -> &'static str {
    "cap.received"
}

fn cap_sql_table(db: &TestDb) -> &'static str {
    match db.engine {
        Engine::Postgres => "\"cap\".\"received\"",
        _ => "`cap.received`",
    }
}

/// CAP's retry processor (GetMessagesOfNeedRetryAsync): Retries < 50,
/// Version = the node's, Added over 240 s ago, StatusName Failed or Scheduled.
fn cap_stuck(db: &TestDb) {
    cap(db);
    let (in_progress, version) = match db.engine {
        Engine::Postgres => ("\"StatusName\" IN ('Failed', 'Scheduled') AND \"Retries\" < 50", "\"Version\" = 'v1'"),
        _ => ("`StatusName` IN ('Failed', 'Scheduled') AND `Retries` < 50", "`Version` = 'v1'"),
    };
    let mapping = [
        "--table",
        cap_table(db),
        "--key-column",
        "Id",
        "--in-progress-when",
        in_progress,
        "--where",
        version,
        "--created-at-column",
        "Added",
        "--time-zone",
        "+08:00",
        "--max-duration",
        "240s",
    ];
    let (keys, doc) = stuck_keys(db, &mapping);
    assert_eq!(keys, ["2", "1"], "{doc}");
    // By its name: PostgreSQL's zone data resolves it; a MariaDB without its
    // time zone tables cannot, and says so.
    let named: Vec<&str> = mapping.iter().map(|a| if *a == "+08:00" { "Asia/Shanghai" } else { a }).collect();
    let out = idemctl(db, &[&["stuck", "--format", "json"][..], &named].concat());
    match db.engine {
        Engine::Postgres => assert_eq!(stuck_keys(db, &named).0, ["2", "1"]),
        _ => {
            assert_eq!(out.code, 2, "{}", out.stderr);
            assert!(out.stderr.contains("time zone tables"), "{}", out.stderr);
        }
    }
    // Without the zone every local time reads 8 hours ahead: nothing looks old.
    let utc: Vec<&str> = mapping.iter().copied().filter(|a| *a != "--time-zone" && *a != "+08:00").collect();
    let (keys, _) = stuck_keys(db, &utc);
    assert!(keys.is_empty(), "{keys:?}");
    // reap has nothing to clear in this design: CAP's own retry re-executes the message.
    let (outcomes, out) = reap(db, &mapping);
    assert_eq!(out.code, 1, "keys left unchanged are still stuck: {}", out.stderr);
    assert!(out.stderr.contains(" left unchanged: this design keeps no lock or status on"), "{}", out.stderr);
    assert_eq!(outcomes, BTreeMap::from([("1".into(), "unchanged".into()), ("2".into(), "unchanged".into())]));
}

/// CAP's collector (DeleteExpiresAsync): ExpiresAt before now, StatusName
/// Succeeded or Failed.
fn cap_expire(db: &TestDb) {
    cap(db);
    let status = match db.engine {
        Engine::Postgres => "\"StatusName\" IN ('Succeeded', 'Failed')",
        _ => "`StatusName` IN ('Succeeded', 'Failed')",
    };
    let out = idemctl(
        db,
        &[
            "expire",
            "--table",
            cap_table(db),
            "--expires-at-column",
            "ExpiresAt",
            "--time-zone",
            "+08:00",
            "--where",
            status,
            "--format",
            "json",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let id = db.ident("Id");
    assert_eq!(
        ids(db, &format!("SELECT {} FROM {} ORDER BY {id}", text(db, &id), cap_sql_table(db))),
        ["1", "2", "3", "4", "6", "7"]
    );
}

// ---- MassTransit (MassTransit.EntityFrameworkCoreIntegration, its EF model) ----

/// MassTransit's InboxState as EF Core creates it: a message's row is
/// inserted when it arrives, marked Consumed and then Delivered (UtcNow);
/// a consumer that throws rolls its transaction back, and the row waits for
/// the broker's redelivery. Ids: 1 delivered an hour ago, 2 delivered 10
/// min ago, 3 received but never delivered (its consumer failed).
fn masstransit(db: &TestDb, with_index: bool) {
    let q = |c: &str| db.ident(c);
    let (id, uuid, ts) = match db.engine {
        Engine::Postgres => ("bigint GENERATED BY DEFAULT AS IDENTITY", "uuid", "timestamp with time zone"),
        _ => ("bigint NOT NULL AUTO_INCREMENT", "char(36)", "datetime(6)"),
    };
    db.exec(&format!(
        "CREATE TABLE {} ({} {id}, {} {uuid} NOT NULL, {} {uuid} NOT NULL, {} {uuid} NOT NULL, {} {ts} NOT NULL,
            {} integer NOT NULL, {} {ts} NULL, {} {ts} NULL, {} {ts} NULL, {} bigint NULL,
            CONSTRAINT {} PRIMARY KEY ({}), CONSTRAINT {} UNIQUE ({}, {}))",
        q("InboxState"),
        q("Id"),
        q("MessageId"),
        q("ConsumerId"),
        q("LockId"),
        q("Received"),
        q("ReceiveCount"),
        q("ExpirationTime"),
        q("Consumed"),
        q("Delivered"),
        q("LastSequenceNumber"),
        q("PK_InboxState"),
        q("Id"),
        q("AK_InboxState_MessageId_ConsumerId"),
        q("MessageId"),
        q("ConsumerId"),
    ));
    if with_index {
        db.exec(&format!("CREATE INDEX {} ON {} ({})", q("IX_InboxState_Delivered"), q("InboxState"), q("Delivered")));
    }
    let ago = |minutes: i64| {
        db.ts(&(chrono::Utc::now() - chrono::Duration::minutes(minutes)).format("%Y-%m-%d %H:%M:%S%.6f").to_string())
    };
    let uuid = |n: u32| format!("'00000000-0000-0000-0000-{n:012}'");
    db.exec(&format!(
        "INSERT INTO {} ({}, {}, {}, {}, {}, {}, {}, {}) VALUES
         ({}, {}, {}, {}, 3, {}, {}, 1), ({}, {}, {}, {}, 3, {}, {}, 1), ({}, {}, {}, {}, 1, NULL, NULL, NULL)",
        q("InboxState"),
        q("MessageId"),
        q("ConsumerId"),
        q("LockId"),
        q("Received"),
        q("ReceiveCount"),
        q("Consumed"),
        q("Delivered"),
        q("LastSequenceNumber"),
        uuid(1),
        uuid(100),
        uuid(201),
        ago(61),
        ago(60),
        ago(60),
        uuid(2),
        uuid(100),
        uuid(202),
        ago(11),
        ago(10),
        ago(10),
        uuid(3),
        uuid(100),
        uuid(203),
        ago(90),
    ));
}

const MASSTRANSIT: [&str; 8] = [
    "--table",
    "InboxState",
    "--scope-column",
    "ConsumerId",
    "--key-column",
    "MessageId",
    "--no-in-progress",
    "--created-at-column",
];

/// InboxCleanupService: Delivered set and older than the 30 min window;
/// rows never delivered stay (and expire says so).
fn masstransit_expire(db: &TestDb) {
    masstransit(db, true);
    // The 30 min window is short: refused without the flag, for the inbox's reason.
    let short = [&["expire", "--kind", "inbox"][..], &MASSTRANSIT, &["Delivered", "--older-than", "30m"]].concat();
    let refused = idemctl(db, &short);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("message ids must outlive the broker's redeliveries"), "{}", refused.stderr);
    let args = [&MASSTRANSIT[..], &["Delivered", "--older-than", "30m", "--allow-short-retention"]].concat();
    let (dry, _, _) = crate::common::expire_dry_then_real(db, &args, &[]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert_eq!(dry.json()["runs"][0]["rows_matching"], 1);
    assert_eq!(dry.json()["runs"][0]["rows_without_time"], 1, "{}", dry.stdout);
    assert!(dry.stderr.contains("1 rows have no Delivered"), "{}", dry.stderr);
    // The same by the design's name: the inbox, its scope and key, purged by Delivered.
    let named = ["expire", "--design", "masstransit-inbox", "--older-than", "30m", "--allow-short-retention"];
    let by_name = idemctl(db, &[&named[..], &["--dry-run", "--format", "json"]].concat());
    assert_eq!(by_name.code, 0, "{}", by_name.stderr);
    assert_eq!(by_name.json()["runs"][0]["rows_matching"], 1);
    assert_eq!(by_name.json()["runs"][0]["rows_without_time"], 1);
    assert_eq!(by_name.json()["kind"], "inbox");
    let out = idemctl(db, &[&["expire", "--format", "json"][..], &args].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let id = db.ident("Id");
    assert_eq!(ids(db, &format!("SELECT {} FROM {} ORDER BY {id}", text(db, &id), db.ident("InboxState"))), ["2", "3"]);
}

/// doctor on an inbox: no stored response is needed, the sender's message
/// id with the consumer needs no caller scope, and the fix SQL it prints
/// for a missing index runs as printed.
fn masstransit_doctor(db: &TestDb) {
    masstransit(db, false);
    let out = idemctl(
        db,
        &[&["doctor", "--format", "json"][..], &MASSTRANSIT[..7], &["--expires-at-column", "Delivered"]].concat(),
    );
    assert_ne!(out.code, 2, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(doc["kind"], "inbox", "{doc}");
    let check = |name: &str| doc["checks"].as_array().unwrap().iter().find(|c| c["check"] == name).cloned().unwrap();
    for pass in ["uniqueness", "response", "fingerprint"] {
        assert_eq!(check(pass)["result"], "pass", "{pass}: {doc}");
    }
    let fix = check("expiry_index")["fix"].as_str().unwrap().to_string();
    assert!(fix.starts_with("CREATE INDEX"), "{fix}");
    db.exec(&fix);
    let again = idemctl(
        db,
        &[&["doctor", "--format", "json"][..], &MASSTRANSIT[..7], &["--expires-at-column", "Delivered"]].concat(),
    );
    let doc = again.json();
    let index = doc["checks"].as_array().unwrap().iter().find(|c| c["check"] == "expiry_index").cloned().unwrap();
    assert_eq!(index["result"], "pass", "{doc}");
}

// ---- Solid Queue (rails/solid_queue 1.5, queue_schema.rb) ----

/// Solid Queue's claimed executions and the processes that claimed them,
/// each process touching last_heartbeat_at every 60 s. Jobs: 1 claimed by
/// a live worker (heartbeat 30 s ago) 20 min ago, 2 claimed by a worker
/// whose heartbeat stopped 10 min ago, 3 claimed 1 min ago by a worker
/// whose heartbeat stopped 400 s ago, 4 claimed 20 min ago by a process
/// that is gone.
fn solid_queue(db: &TestDb) {
    let (pk, ts) = match db.engine {
        Engine::Postgres => ("bigserial PRIMARY KEY", "timestamp(6)"),
        _ => ("bigint NOT NULL AUTO_INCREMENT PRIMARY KEY", "datetime(6)"),
    };
    db.exec(&format!(
        "CREATE TABLE solid_queue_processes (id {pk}, kind varchar(255) NOT NULL, last_heartbeat_at {ts} NOT NULL,
            supervisor_id bigint, pid integer NOT NULL, hostname varchar(255), metadata text, created_at {ts} NOT NULL,
            name varchar(255) NOT NULL);
         CREATE INDEX index_solid_queue_processes_on_last_heartbeat_at ON solid_queue_processes (last_heartbeat_at);
         CREATE TABLE solid_queue_claimed_executions (id {pk}, job_id bigint NOT NULL, process_id bigint,
            created_at {ts} NOT NULL);
         CREATE UNIQUE INDEX index_solid_queue_claimed_executions_on_job_id ON solid_queue_claimed_executions (job_id);
         CREATE INDEX index_solid_queue_claimed_executions_on_process_id_and_job_id
            ON solid_queue_claimed_executions (process_id, job_id)"
    ));
    let ago = |seconds: i64| {
        db.ts(&(chrono::Utc::now() - chrono::Duration::seconds(seconds)).format("%Y-%m-%d %H:%M:%S%.6f").to_string())
    };
    db.exec(&format!(
        "INSERT INTO solid_queue_processes (id, kind, last_heartbeat_at, pid, hostname, created_at, name) VALUES
            (1, 'Worker', {}, 101, 'web-1', {}, 'worker-live'), (2, 'Worker', {}, 102, 'web-2', {}, 'worker-dead'),
            (3, 'Worker', {}, 103, 'web-3', {}, 'worker-gone-quiet');
         INSERT INTO solid_queue_claimed_executions (job_id, process_id, created_at) VALUES
            (1, 1, {}), (2, 2, {}), (3, 3, {}), (4, 9, {})",
        ago(30),
        ago(3600),
        ago(600),
        ago(3600),
        ago(400),
        ago(3600),
        ago(1200),
        ago(1200),
        ago(60),
        ago(1200),
    ));
}

/// Process.prune: a worker whose heartbeat is older than
/// process_alive_threshold (5 min) is dead, and each of its claimed
/// executions is failed; an execution whose process is gone is orphaned.
/// reap cannot write Solid Queue's failed_executions row: it refuses to
/// fail the claims (exit 2, nothing changed), and a release changes nothing.
fn solid_queue_stuck_and_reap(db: &TestDb) {
    solid_queue(db);
    let mapping = [
        "--table",
        "solid_queue_claimed_executions",
        "--key-column",
        "job_id",
        "--in-progress-when",
        "1 = 1",
        "--holder-table",
        "solid_queue_processes",
        "--holder-column",
        "process_id",
        "--max-duration",
        "5m",
    ];
    let (keys, doc) = stuck_keys(db, &mapping);
    assert_eq!(keys, ["4", "2", "3"], "{doc}");
    let before = ids(db, &format!("SELECT {} FROM solid_queue_claimed_executions ORDER BY job_id", text(db, "job_id")));
    let (_, out) = reap(db, &[&mapping[..], &["--action", "fail"]].concat());
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("status column"), "{}", out.stderr);
    let (outcomes, out) = reap(db, &mapping);
    assert_eq!(out.code, 1, "keys left unchanged are still stuck: {}", out.stderr);
    assert!(out.stderr.contains(" left unchanged: this design keeps no lock or status on"), "{}", out.stderr);
    let unchanged: BTreeMap<String, String> =
        ["2", "3", "4"].iter().map(|k| (k.to_string(), "unchanged".to_string())).collect();
    assert_eq!(outcomes, unchanged);
    assert_eq!(
        ids(db, &format!("SELECT {} FROM solid_queue_claimed_executions ORDER BY job_id", text(db, "job_id"))),
        before
    );
}

// ---- spatie/laravel-webhook-client (create_webhook_calls_table.php.stub) ----

/// The webhook calls a receiver stored (a request whose signature fails is
/// not stored), pruned by MassPrunable after delete_after_days (30).
fn webhook_calls_expire(db: &TestDb) {
    let (pk, json, ts) = match db.engine {
        Engine::Postgres => ("bigserial PRIMARY KEY", "json", "timestamp(0) without time zone"),
        _ => ("bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY", "json", "timestamp NULL"),
    };
    db.exec(&format!(
        "CREATE TABLE webhook_calls (id {pk}, name varchar(255) NOT NULL, url varchar(512) NOT NULL, headers {json},
            payload {json}, attachments {json}, exception text, created_at {ts}, updated_at {ts})"
    ));
    let ago = |days: i64| {
        let t = chrono::Utc::now() - chrono::Duration::days(days);
        format!("'{}'", t.format("%Y-%m-%d %H:%M:%S"))
    };
    db.exec(&format!(
        "INSERT INTO webhook_calls (name, url, payload, created_at, updated_at) VALUES
            ('stripe', '/webhooks/stripe', '{{\"id\": \"evt_1\"}}', {}, {}),
            ('stripe', '/webhooks/stripe', '{{\"id\": \"evt_2\"}}', {}, {}),
            ('stripe', '/webhooks/stripe', '{{\"id\": \"evt_3\"}}', {}, {})",
        ago(40),
        ago(40),
        ago(31),
        ago(31),
        ago(2),
        ago(2),
    ));
    let out = idemctl(db, &["expire", "--table", "webhook_calls", "--older-than", "30d", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["runs"][0]["rows_deleted"], 2, "{}", out.stdout);
    assert_eq!(ids(db, &format!("SELECT {} FROM webhook_calls ORDER BY id", text(db, "id"))), ["3"]);
}

// ---- What the mappings refuse, narrow and count ----

/// A change the table cannot take is refused before anything happens:
/// River's scheduled_at is NOT NULL.
#[test]
fn a_null_into_a_not_null_column_is_refused_before_anything_changes() {
    let Some(db) = pg() else { return };
    river(&db);
    let before = db.contents();
    let (_, out) = reap(&db, &[&RIVER[..], &["--release-set", "scheduled_at=NULL"]].concat());
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("scheduled_at to NULL, which the table declares NOT NULL"), "{}", out.stderr);
    assert_eq!(db.contents(), before);
}

/// A text value an enum column cannot hold is refused before anything runs.
#[test]
fn a_value_an_enum_cannot_hold_is_refused() {
    let Some(db) = pg() else { return };
    river(&db);
    db.exec("ALTER TABLE river_job ADD COLUMN last_state river_job_state");
    let before = db.contents();
    let (_, out) = reap(&db, &[&RIVER[..], &["--release-set", "last_state='gone'"]].concat());
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("last_state cannot hold it"), "{}", out.stderr);
    assert_eq!(db.contents(), before);
    let (outcomes, out) = reap(&db, &[&RIVER[..], &["--release-set", "last_state='running'"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let released = |key: &str| (key.to_string(), "released".to_string());
    assert_eq!(outcomes, BTreeMap::from([released("1"), released("2")]), "{}", out.stdout);
    assert_eq!(
        ids(&db, "SELECT id || '=' || coalesce(last_state::text, 'NULL') FROM river_job ORDER BY id"),
        ["1=running", "2=running", "3=NULL", "4=NULL", "5=NULL", "6=NULL", "7=NULL", "8=NULL"]
    );
}

/// `--where` narrows stuck and reap alike: one pg-boss queue.
#[test]
fn where_narrows_stuck_and_reap_to_one_queue() {
    let Some(db) = pg() else { return };
    pg_boss(&db);
    let narrowed: Vec<&str> = [&PG_BOSS[..], &["--where", "name = 'email'"]].concat();
    let (keys, _) = stuck_keys(&db, &narrowed);
    assert_eq!(keys, [boss_id(1)]);
    let (outcomes, out) = reap(&db, &[&narrowed[..], &PG_BOSS_ATTEMPTS].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(outcomes, BTreeMap::from([(boss_id(1), "released".into())]));
    assert_eq!(ids(&db, "SELECT singleton_key FROM job WHERE state = 'active' ORDER BY 1"), ["a2", "a3", "a4"]);
}

/// A job in progress with no time to judge it by is left out, and counted.
#[test]
fn keys_in_progress_without_a_time_are_counted_and_named() {
    let Some(db) = pg() else { return };
    river(&db);
    db.exec("INSERT INTO river_job (id, state, attempt, attempted_at, kind) VALUES (9, 'running', 1, NULL, 'email')");
    let mapping: Vec<&str> = RIVER.iter().copied().chain(["--created-at-column", "finalized_at"]).collect();
    let (keys, doc) = stuck_keys(&db, &mapping);
    assert_eq!(keys, ["2", "1"], "{doc}");
    assert_eq!(doc["untimed"], 1, "{doc}");
    let notes = doc["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert!(notes.iter().any(|n| n.starts_with("1 job in progress with no time")), "{notes:?}");
}

/// doctor's verdicts and reasons, and its whole document.
fn doctor_checks(db: &TestDb, args: &[&str]) -> (BTreeMap<String, (String, String)>, serde_json::Value) {
    let (checks, out) = crate::common::doctor(db, args);
    (checks, out.json())
}

/// doctor on CAP's received table: its Id is CAP's own snowflake, so the
/// primary key dedupes nothing (a hazard doctor cannot rule out, and says);
/// a message in progress past its limit is for CAP's own retry.
fn cap_doctor(db: &TestDb) {
    cap(db);
    let in_progress = match db.engine {
        Engine::Postgres => "\"StatusName\" IN ('Failed', 'Scheduled') AND \"Retries\" < 50",
        _ => "`StatusName` IN ('Failed', 'Scheduled') AND `Retries` < 50",
    };
    let (checks, doc) = doctor_checks(
        db,
        &[
            "--table",
            cap_table(db),
            "--key-column",
            "Id",
            "--in-progress-when",
            in_progress,
            "--created-at-column",
            "Added",
            "--expires-at-column",
            "ExpiresAt",
            "--time-zone",
            "+08:00",
            "--max-duration",
            "240s",
        ],
    );
    assert_eq!(doc["kind"], "inbox", "{doc}");
    let (verdict, why) = &checks["uniqueness"];
    assert_eq!(verdict, "warn", "{why}");
    assert!(why.contains("primary key") && why.contains("redelivery"), "{why}");
    let (verdict, why) = &checks["stuck"];
    assert_eq!(verdict, "warn", "{why}");
    assert!(why.starts_with("3 messages are in progress") && why.contains("rescuer"), "{why}");
    assert_eq!(checks["response"].0, "pass");
}

/// doctor on Solid Queue's claims: their age counts from the workers'
/// heartbeats, which the design keeps; nothing asks for a stored response.
fn solid_queue_doctor(db: &TestDb) {
    solid_queue(db);
    let (checks, doc) = doctor_checks(
        db,
        &[
            "--table",
            "solid_queue_claimed_executions",
            "--key-column",
            "job_id",
            "--in-progress-when",
            "1 = 1",
            "--holder-table",
            "solid_queue_processes",
            "--holder-column",
            "process_id",
            "--max-duration",
            "5m",
        ],
    );
    assert_eq!(doc["kind"], "jobs", "{doc}");
    let (verdict, why) = &checks["lock_time"];
    assert_eq!(verdict, "pass", "{why}");
    assert!(why.contains("solid_queue_processes.last_heartbeat_at"), "{why}");
    assert_eq!(checks["uniqueness"].0, "pass", "{:?}", checks["uniqueness"]);
    assert!(!checks["backlog"].1.contains("never due to go"), "{:?}", checks["backlog"]);
    assert!(checks["stuck"].1.starts_with("3 jobs are in progress"), "{:?}", checks["stuck"]);
}

/// One test per engine the library supports (PostgreSQL and MariaDB), each
/// on a database of its own.
macro_rules! on_postgres_and_mariadb {
    ($($name:ident),* $(,)?) => {
        mod on_postgres {
            $( #[test] fn $name() { if let Some(db) = super::pg() { super::$name(&db) } } )*
        }
        mod on_mariadb {
            $( #[test] fn $name() { if let Some(db) = super::TestDb::new(super::Engine::MySql) { super::$name(&db) } } )*
        }
    };
}

on_postgres_and_mariadb!(
    cap_stuck,
    cap_published,
    cap_expire,
    cap_doctor,
    solid_queue_doctor,
    masstransit_expire,
    masstransit_doctor,
    solid_queue_stuck_and_reap,
    webhook_calls_expire,
);

// ---- The same mappings on every engine: a job table of its own design ----

/// A job table on each engine: a worker's claim sets state running and
/// locked_at and refreshes heartbeat_at; a CHECK wants a finished time on
/// dead jobs. Ids: 1 running, heartbeat an hour ago (attempt 1 of 3); 2
/// running, heartbeat 2 h ago, on its last attempt; 3 running, locked 2 h
/// ago but beating a minute ago; 4 running with no time at all; 5 queued;
/// 6 running 2 h in another queue.
fn jobs(db: &TestDb) {
    let (pk, text, time) = (db.ty("pk"), db.ty("text"), db.ty("time"));
    db.exec(&format!(
        "CREATE TABLE jobs (id {pk}, queue {text} NOT NULL, state {text} NOT NULL, attempts INTEGER NOT NULL,
            max_attempts INTEGER NOT NULL, locked_at {time}, heartbeat_at {time}, run_at {time} NOT NULL,
            finished_at {time}, created_at {time},
            CONSTRAINT dead_jobs_finished CHECK (state <> 'dead' OR finished_at IS NOT NULL))"
    ));
    let at = |minutes: Option<i64>| {
        minutes.map_or("NULL".to_string(), |m| crate::common::ago(db, chrono::Duration::minutes(m)))
    };
    let rows = [
        (1, "main", "running", 1, Some(120), Some(60), Some(130)),
        (2, "main", "running", 3, Some(120), Some(120), Some(130)),
        (3, "main", "running", 1, Some(120), Some(1), Some(130)),
        (4, "main", "running", 1, None, None, None),
        (5, "main", "queued", 0, None, None, Some(5)),
        (6, "other", "running", 1, Some(120), Some(120), Some(130)),
    ];
    let values: Vec<String> = rows
        .iter()
        .map(|(id, queue, state, attempts, locked, beat, created)| {
            format!(
                "({id}, '{queue}', '{state}', {attempts}, 3, {}, {}, {}, NULL, {})",
                at(*locked),
                at(*beat),
                at(Some(130)),
                at(*created)
            )
        })
        .collect();
    db.exec(&format!(
        "INSERT INTO jobs (id, queue, state, attempts, max_attempts, locked_at, heartbeat_at, run_at, finished_at,
            created_at) VALUES {}",
        values.join(", ")
    ));
}

const JOBS: [&str; 22] = [
    "--table",
    "jobs",
    "--key-column",
    "id",
    "--status-column",
    "state",
    "--in-progress-value",
    "running",
    "--retryable-value",
    "queued",
    "--permanent-value",
    "dead",
    "--succeeded-value",
    "done",
    "--locked-at-column",
    "locked_at",
    "--heartbeat-column",
    "heartbeat_at",
    "--max-duration",
    "30m",
    "--where",
    "queue = 'main'",
];

const JOBS_REAP: [&str; 12] = [
    "--attempts-column",
    "attempts",
    "--max-attempts",
    "max_attempts",
    "--release-set",
    "run_at=now()",
    "--release-set",
    "attempts=attempts + 1",
    "--dry-run=rollback",
    "--fail-set",
    "finished_at=now()",
    "--allow-short-duration",
];

/// Each job as `id:state:attempts:run again:finished`.
fn job_states(db: &TestDb) -> Vec<String> {
    let recent = |c: &str| match db.engine {
        Engine::Postgres => format!("CASE WHEN {c} > now() - interval '1 minute' THEN 'now' ELSE '-' END"),
        Engine::MySql => format!("CASE WHEN {c} > UTC_TIMESTAMP(6) - INTERVAL 1 MINUTE THEN 'now' ELSE '-' END"),
        Engine::Sqlite => format!("CASE WHEN julianday({c}) > julianday('now') - 1.0 / 1440 THEN 'now' ELSE '-' END"),
    };
    let parts = [
        text(db, "id"),
        "state".to_string(),
        text(db, "attempts"),
        recent("run_at"),
        "CASE WHEN finished_at IS NULL THEN '-' ELSE 'done' END".to_string(),
    ];
    let joined = match db.engine {
        Engine::MySql => format!("CONCAT_WS(':', {})", parts.join(", ")),
        _ => parts.join(" || ':' || "),
    };
    ids(db, &format!("SELECT {joined} FROM jobs ORDER BY id"))
}

/// A fresh database on the same engine, for the copy a real run goes to.
fn twin(db: &TestDb) -> Option<TestDb> {
    TestDb::new(db.engine)
}

fn jobs_everywhere(db: &TestDb) {
    jobs(db);
    let (keys, doc) = stuck_keys(db, &JOBS);
    assert_eq!(keys, ["2", "1"], "{doc}");
    assert_eq!(doc["untimed"], 1, "{doc}");
    let Some(real) = twin(db) else { return };
    jobs(&real);
    let before = job_states(db);
    // The rollback dry run (JOBS_REAP holds --dry-run=rollback), then the plain one.
    // Job 4 is in progress with no time to judge it by: no run is clean
    // while it is there (exit 1), and each says so last.
    let untimed = "idemctl: not clean: 1 job in progress has no time to judge it by, so it was not judged";
    let rollback_args: Vec<&str> = [&JOBS[..], &JOBS_REAP].concat();
    let (rollback, out) = reap(db, &rollback_args);
    assert_eq!((out.code, out.stderr.lines().last()), (1, Some(untimed)), "{}", out.stderr);
    let plain_args: Vec<&str> =
        rollback_args.iter().map(|a| if *a == "--dry-run=rollback" { "--dry-run" } else { a }).collect();
    let (plain, out) = reap(db, &plain_args);
    assert_eq!((out.code, out.stderr.lines().last()), (1, Some(untimed)), "{}", out.stderr);
    assert_eq!(job_states(db), before, "a dry run changed the jobs");
    let real_args: Vec<&str> = rollback_args.iter().copied().filter(|a| *a != "--dry-run=rollback").collect();
    let (done, out) = reap(&real, &real_args);
    assert_eq!((out.code, out.stderr.lines().last()), (1, Some(untimed)), "{}", out.stderr);
    let expected = BTreeMap::from([("1".to_string(), "released".to_string()), ("2".to_string(), "failed".to_string())]);
    assert_eq!(done, expected);
    for dry in [rollback, plain] {
        assert_eq!(dry.iter().map(|(k, v)| (k.clone(), as_done(v))).collect::<BTreeMap<_, _>>(), expected);
    }
    assert_eq!(
        job_states(&real),
        [
            "1:queued:2:now:-",
            "2:dead:3:-:done",
            "3:running:1:-:-",
            "4:running:1:-:-",
            "5:queued:0:-:-",
            "6:running:1:-:-"
        ]
    );
    // Without the finished time the CHECK refuses job 2's failure: the
    // rollback dry run says so, as the real run does.
    let Some(again) = twin(db) else { return };
    jobs(&again);
    let unfinished: Vec<&str> =
        real_args.iter().copied().filter(|a| *a != "--fail-set" && *a != "finished_at=now()").collect();
    let with_rollback: Vec<&str> = [&unfinished[..], &["--dry-run=rollback"]].concat();
    let (rollback, _) = reap(db, &with_rollback);
    let with_plain: Vec<&str> = [&unfinished[..], &["--dry-run"]].concat();
    let (plain, plain_run) = reap(db, &with_plain);
    let (done, _) = reap(&again, &unfinished);
    assert_eq!(done.get("2").map(String::as_str), Some("error"), "{done:?}");
    assert_eq!(rollback.iter().map(|(k, v)| (k.clone(), as_done(v))).collect::<BTreeMap<_, _>>(), done);
    // The plain dry run judges the CHECK on the row as it would become.
    assert_eq!(
        plain.iter().map(|(k, v)| (k.clone(), as_done(v))).collect::<BTreeMap<_, _>>(),
        done,
        "{}",
        plain_run.stderr
    );
}

/// Zoneless times written in UTC+8 (an application server's local time):
/// 1 locked 2 h ago, 2 locked 10 min ago. Read as UTC both lie 8 h ahead.
fn local_times_everywhere(db: &TestDb) {
    let zoneless = match db.engine {
        Engine::Postgres => "timestamp",
        Engine::MySql => "DATETIME(6)",
        Engine::Sqlite => "TEXT",
    };
    db.exec(&format!(
        "CREATE TABLE tasks (id {}, {} {} NOT NULL, status {} NOT NULL, locked_at {zoneless})",
        db.ty("pk"),
        db.ident("key"),
        db.ty("text"),
        db.ty("text")
    ));
    let local = |minutes: i64| {
        let t = chrono::Utc::now() + chrono::Duration::hours(8) - chrono::Duration::minutes(minutes);
        format!("'{}'", t.format("%Y-%m-%d %H:%M:%S%.3f"))
    };
    db.exec(&format!(
        "INSERT INTO tasks (id, {}, status, locked_at) VALUES (1, 'k1', 'in_progress', {}), (2, 'k2', 'in_progress', {})",
        db.ident("key"),
        local(120),
        local(10)
    ));
    let mapping = ["--table", "tasks", "--max-duration", "1h"];
    let (keys, _) = stuck_keys(db, &mapping);
    assert!(keys.is_empty(), "{keys:?}");
    let (keys, doc) = stuck_keys(db, &[&mapping[..], &["--time-zone", "+08:00"]].concat());
    assert_eq!(keys, ["k1"], "{doc}");
    // A release stamps nothing here; a --set now() writes the zone's wall-clock time.
    let (outcomes, out) = reap(db, &[&mapping[..], &["--time-zone", "+08:00", "--set", "locked_at=now()"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(outcomes, BTreeMap::from([("k1".into(), "released".into())]));
    let (keys, _) =
        stuck_keys(db, &[&mapping[..], &["--time-zone", "+08:00", "--in-progress-value", "failed_retryable"]].concat());
    assert!(keys.is_empty(), "the stamp reads as now in the zone: {keys:?}");
}

/// Jobs that keep each attempt's error in a JSON array, as River and Oban
/// do in `errors` (on MariaDB a JSON column, on SQLite JSON text): 1 running
/// 2 h with no error yet; 2 running 2 h after a timed-out attempt; 3 running
/// 2 h whose errors hold an object, not an array (written by hand); 4
/// running 10 min.
fn errored_jobs(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE errored (id {}, state {} NOT NULL, attempt INTEGER NOT NULL, attempted_at {}, errors {})",
        db.ty("pk"),
        db.ty("text"),
        db.ty("time"),
        db.ty("json")
    ));
    let ago = |m: i64| crate::common::ago(db, chrono::Duration::minutes(m));
    db.exec(&format!(
        r#"INSERT INTO errored (id, state, attempt, attempted_at, errors) VALUES
           (1, 'running', 1, {}, NULL),
           (2, 'running', 2, {}, '[{{"error": "timeout", "attempt": 1}}]'),
           (3, 'running', 2, {}, '{{"error": "timeout"}}'),
           (4, 'running', 1, {}, NULL)"#,
        ago(120),
        ago(120),
        ago(120),
        ago(10)
    ));
}

/// River's mapping, on the errored jobs.
fn errored_mapping() -> Vec<&'static str> {
    RIVER.iter().map(|a| if *a == "river_job" { "errored" } else { a }).collect()
}

/// Each job's errors, read as JSON.
fn errors_of(db: &TestDb) -> BTreeMap<String, serde_json::Value> {
    let ids = db.column(&format!("SELECT {} FROM errored ORDER BY id", text(db, "id")));
    let errors = db.column(&format!("SELECT {} FROM errored ORDER BY id", text(db, "errors")));
    ids.into_iter()
        .zip(errors)
        .map(|(id, json)| {
            (id.unwrap(), json.as_deref().map_or(serde_json::Value::Null, |j| serde_json::from_str(j).unwrap()))
        })
        .collect()
}

/// `append()` adds the rescue's error at the end of each job's array on
/// every engine, reading the job's own attempt; a job whose errors hold
/// other than an array is an error, said alike by both dry runs and the
/// real run, which leaves it as it was.
fn errors_appended_everywhere(db: &TestDb) {
    errored_jobs(db);
    let Some(real) = twin(db) else { return };
    errored_jobs(&real);
    let before = errors_of(&real);
    let args: Vec<&str> = [
        &errored_mapping()[..],
        &["--set", "errors=append({error: 'rescued by idemctl', attempt: attempt, at: now()})"],
    ]
    .concat();
    let (done, run) = dry_then_real(db, &real, "errored", &args);
    assert_eq!(
        done,
        BTreeMap::from([
            ("1".into(), "released".into()),
            ("2".into(), "released".into()),
            ("3".into(), "error".into())
        ]),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("its errors holds neither NULL nor a JSON array"), "{}", run.stdout);
    let after = errors_of(&real);
    assert_eq!((&after["3"], &after["4"]), (&before["3"], &before["4"]));
    assert_eq!(after["2"][0], before["2"][0], "{after:?}");
    for (id, length, attempt) in [("1", 1, 1), ("2", 2, 2)] {
        let list = after[id].as_array().unwrap_or_else(|| panic!("{id}: {after:?}"));
        assert_eq!(list.len(), length, "{after:?}");
        let last = list.last().unwrap();
        assert_eq!((&last["error"], &last["attempt"]), (&"rescued by idemctl".into(), &attempt.into()), "{after:?}");
        let at = chrono::DateTime::parse_from_rfc3339(last["at"].as_str().unwrap()).unwrap();
        assert!((chrono::Utc::now() - at.to_utc()).num_seconds().abs() < 60, "{last}");
    }
    assert_eq!(ids(&real, "SELECT state FROM errored WHERE id IN (1, 2) ORDER BY id"), ["retryable", "retryable"]);
}

/// `append()` to a column that holds neither arrays nor JSON, and a value
/// reading a column the same change writes, are refused before anything
/// runs: exit 2, nothing changed. An object alone goes to a JSON column as
/// it is.
fn append_refusals_everywhere(db: &TestDb) {
    errored_jobs(db);
    let before = db.contents();
    for (set, said) in [
        ("attempt=append(1)", "attempt=append(...): attempt is "),
        ("errors=append({n: state})", "its value reads state, which the same change writes"),
        ("attempt={n: 1}", "attempt={...}: attempt is "),
        (
            "errors=append({error: rescued})",
            "no column \"rescued\" in table \"errored\" (text is written in quotes: 'rescued')",
        ),
    ] {
        let (_, out) = reap(db, &[&errored_mapping()[..], &["--set", set]].concat());
        assert_eq!(out.code, 2, "{set}: {}", out.stderr);
        assert!(out.stderr.contains(said) && out.stderr.lines().count() == 1, "{set}: {}", out.stderr);
        assert_eq!(db.contents(), before, "{set}");
    }
    let (done, out) =
        reap(db, &[&errored_mapping()[..], &["--set", "errors={error: 'rescued', attempt: attempt}"]].concat());
    assert_eq!(done.len(), 3, "{}", out.stderr);
    let errors = errors_of(db);
    for (id, attempt) in [("1", 1), ("2", 2), ("3", 2)] {
        assert_eq!(errors[id], serde_json::json!({"error": "rescued", "attempt": attempt}), "{errors:?}");
    }
    assert_eq!(errors["4"], serde_json::Value::Null);
}

on_every_engine!(jobs_everywhere, local_times_everywhere, errors_appended_everywhere, append_refusals_everywhere);
