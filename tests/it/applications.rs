//! `idemctl scan` with no column flags on creation tables shaped like those
//! of widely deployed applications (`apps/`), each filled the way its own
//! create path writes a row and a retried create: the exact extra rows, and
//! why each column was left out.

mod apps;
mod corpus;

use std::collections::BTreeSet;

use crate::common::{Engine, Run, TestDb, csv_records, run};
use apps::Fixture;
use serde_json::Value;

/// What a scan with no column flags found.
struct Found {
    run: Run,
    extras: BTreeSet<String>,
    doc: Value,
}

impl Found {
    /// The rule and the reason each left-out column was given.
    fn rule(&self, column: &str) -> (String, String) {
        self.doc["excluded_columns"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["column"] == column)
            .map(|e| (e["rule"].as_str().unwrap().to_string(), e["reason"].as_str().unwrap().to_string()))
            .unwrap_or_else(|| panic!("{column} is compared: {}", self.doc["excluded_columns"]))
    }

    fn compared(&self) -> Vec<String> {
        self.doc["compared_columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()
    }
}

fn scan(db: &TestDb, f: &Fixture, extra: &[&str]) -> Found {
    let mut args = vec!["scan", "--table", f.table, "--output", "rows", "--format", "csv"];
    args.extend_from_slice(extra);
    let rows = run(db.idemctl(&args));
    assert!(rows.code == 0 || rows.code == 1, "{}", rows.stderr);
    let records = csv_records(&rows.stdout);
    let at = records[0].iter().position(|h| h == "duplicate_id").unwrap();
    let extras = records[1..].iter().map(|r| r[at].clone()).collect();
    let mut args = vec!["scan", "--table", f.table, "--format", "json"];
    args.extend_from_slice(extra);
    let json = run(db.idemctl(&args));
    Found { doc: json.json(), run: rows, extras }
}

/// Recall and precision, printed for the record and checked exactly.
fn assert_exact(name: &str, f: &Fixture, found: &Found) {
    let hit = found.extras.intersection(&f.extras).count();
    eprintln!(
        "{name}: {} rows, {} retries, found {} (recall {:.3}, precision {:.3}); compared {:?}",
        f.rows.len(),
        f.extras.len(),
        found.extras.len(),
        hit as f64 / f.extras.len().max(1) as f64,
        hit as f64 / found.extras.len().max(1) as f64,
        found.compared()
    );
    let missed: Vec<&String> = f.extras.difference(&found.extras).collect();
    let wrong: Vec<&String> = found.extras.difference(&f.extras).collect();
    assert!(
        missed.is_empty() && wrong.is_empty(),
        "{name}: missed {missed:?}, wrongly found {wrong:?}\n{}",
        found.run.stderr
    );
    assert_eq!(found.run.code, 1, "{name}: damage found exits 1");
}

/// Where retries land as real clients send them, the row alone cannot always
/// tell: every retry found, and each wrongly listed row is one `ambiguous`
/// accepts (said why at the call), and as many listed as the fixture's
/// retries less those `ambiguous` explains.
fn assert_all_found(name: &str, f: &Fixture, found: &Found, ambiguous: impl Fn(&str, &[String]) -> bool) {
    let missed: Vec<String> = f.extras.difference(&found.extras).cloned().collect();
    let wrong: Vec<&String> = found.extras.difference(&f.extras).collect();
    eprintln!("{name}: missed {missed:?}, wrongly found {wrong:?}");
    for w in &wrong {
        assert!(ambiguous(w, &missed), "{name}: {w} wrongly found\n{}", found.run.stderr);
    }
    assert_eq!(found.run.code, 1, "{name}: damage found exits 1");
}

/// A fixture row's value of `column`, by the row's id.
fn value_of<'a>(f: &'a Fixture, id: &str, column: &str) -> Option<&'a apps::V> {
    let at = |c: &str| f.columns.iter().position(|x| *x == c).unwrap();
    let (i, j) = (at("id"), at(column));
    f.rows
        .iter()
        .find(|r| match &r[i] {
            apps::V::I(n) => n.to_string() == id,
            apps::V::T(t) => t == id,
            _ => false,
        })
        .map(|r| &r[j])
}

fn discourse_posts() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    let f = apps::discourse::fixture();
    db.exec(apps::discourse::SEQUENCE);
    f.load(&db, apps::discourse::DDL);
    let found = scan(&db, &f, &[]);
    // Every retry found; also listed: retried new topics (a new topic id
    // each), which the fixture hides as a cross-post would look the same:
    // real retries, found now that the topic id a retry mints is left out.
    assert_all_found("discourse posts", &f, &found, |id, _| f.hidden.contains(id));
    assert!(f.extras.is_subset(&found.extras), "every retry found");
    assert_eq!(found.rule("updated_at").0, "update-time");
    for moving in ["last_version_at", "baked_at"] {
        assert_eq!(found.rule(moving).0, "moves-with-creation", "{moving}");
    }
    let (rule, reason) = found.rule("post_number");
    assert_eq!(rule, "minted-per-attempt");
    assert!(reason.contains("unique with (topic_id)"), "{reason}");
    assert_eq!(found.rule("sort_order").0, "minted-per-attempt");
    for counter in ["reads", "like_count", "score", "percent_rank"] {
        assert_eq!(found.rule(counter).0, "counter", "{counter}");
    }
    // A count that retries copy goes back in.
    assert!(found.compared().contains(&"word_count".to_string()));
    let notes = found.doc["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n.as_str().unwrap().contains("word_count looks like a counter but is equal in")),
        "{notes:?}"
    );
    // The retried new topics differ in their topic id alone, which each
    // attempt mints (the later greater): it is left out, and they are found.
    // A staff member's cross-post within the window would be listed too.
    assert!(!f.hidden.is_empty());
    assert!(f.hidden.is_subset(&found.extras), "{:?}", f.hidden);
    assert_eq!(found.rule("topic_id").0, "minted-per-attempt");
}

fn mastodon_statuses() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    let f = apps::mastodon::fixture();
    f.load(&db, apps::mastodon::DDL);
    let found = scan(&db, &f, &[]);
    assert_exact("mastodon statuses", &f, &found);
    assert_eq!(found.rule("uri").0, "unique-alone");
    let (rule, reason) = found.rule("conversation_id");
    assert_eq!(rule, "minted-per-attempt");
    assert!(reason.starts_with("differs in "), "{reason}");
    // An array column compares.
    assert!(found.compared().contains(&"ordered_media_attachment_ids".to_string()));
}

fn spree_payments(engine: Engine) {
    let Some(db) = TestDb::new(engine) else { return };
    let spree = apps::spree::fixture();
    let f = &spree.fixture;
    f.load(&db, apps::spree::ddl(engine));
    let found = scan(&db, f, &[]);
    // The retry's create turned the row it repeats into `invalid`: those are
    // the rows to remove, and each cluster keeps the retry that was processed.
    assert_exact("spree payments", f, &found);
    let (rule, reason) = found.rule("state");
    assert_eq!(rule, "rewritten-original", "{reason}");
    assert!(reason.contains("holds \"invalid\""), "{reason}");
    assert_eq!(found.rule("number").0, "unique-alone");
    let clusters = run(db.idemctl(&["scan", "--table", f.table, "--format", "json"])).json();
    let kept: BTreeSet<String> =
        clusters["clusters"].as_array().unwrap().iter().map(|c| c["kept_id"].as_str().unwrap().to_string()).collect();
    assert_eq!(kept, spree.kept.iter().cloned().collect::<BTreeSet<_>>());
    let changed = &clusters["clusters"][0]["changed"]["state"];
    assert_eq!(changed[0], "invalid", "{changed}");
    let notes = clusters["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n.as_str().unwrap().contains("keeps its first row whose state is not \"invalid\"")),
        "{notes:?}"
    );
    // --keep first keeps the rewritten rows instead: the processed ones are listed.
    let first = scan(&db, f, &["--keep", "first"]);
    assert_eq!(first.extras, spree.kept.iter().cloned().collect::<BTreeSet<_>>());
    assert_eq!(spree.invalid.len(), spree.kept.len());
}

fn saleor_transactions() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    let f = apps::saleor::fixture();
    f.load(&db, apps::saleor::DDL);
    let found = scan(&db, &f, &[]);
    assert_exact("saleor transactions", &f, &found);
    assert_eq!(found.doc["key_column"], "idempotency_key");
    assert_eq!(found.rule("modified_at").0, "update-time");
    assert_eq!(found.rule("token").0, "unique-alone");
    let (rule, reason) = found.rule("psp_reference");
    assert_eq!(rule, "minted-per-attempt");
    assert!(reason.contains("generated token"), "{reason}");
    // An array of varchar(128) compares.
    assert!(found.compared().contains(&"available_actions".to_string()));
    // Every row has its own key: the key was minted per attempt.
    let causes = &found.doc["clusters_by_cause"];
    assert_eq!(causes["key-per-attempt"].as_u64(), Some(f.extras.len() as u64), "{causes}");
}

fn lago_events() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    let f = apps::lago::fixture();
    f.load(&db, apps::lago::DDL);
    let found = scan(&db, &f, &[]);
    // The event's time moves with the creation, but retries copy it: it is
    // compared, so metering bursts (their own times) stay apart.
    assert_exact("lago events", &f, &found);
    assert_eq!(found.doc["key_column"], "transaction_id");
    assert!(found.compared().contains(&"timestamp".to_string()), "{:?}", found.compared());
    let notes = found.doc["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n.as_str().unwrap().starts_with("timestamp moves with created_at but is equal in")),
        "{notes:?}"
    );
    // The bursts are near misses on the event time, reported as such.
    assert!(found.doc["near_misses"]["by_column"]["timestamp"].as_u64().unwrap() > 10);
    assert_eq!(found.doc["clusters_by_cause"]["key-per-attempt"].as_u64(), Some(f.extras.len() as u64));
}

fn killbill_transactions(engine: Engine) {
    let Some(db) = TestDb::new(engine) else { return };
    let f = apps::killbill::fixture();
    f.load(&db, apps::killbill::ddl(engine));
    let found = scan(&db, &f, &[]);
    assert_exact("kill bill payment transactions", &f, &found);
    // created_date is the creation time, a domain over timestamp on PostgreSQL.
    assert_eq!(found.rule("created_date").0, "created-at");
    assert_eq!(found.rule("updated_date").0, "update-time");
    assert_eq!(found.rule("effective_date").0, "moves-with-creation");
    assert_eq!(found.doc["key_column"], "transaction_external_key");
    for minted in ["payment_id", "attempt_id"] {
        let (rule, reason) = found.rule(minted);
        assert_eq!(rule, "minted-per-attempt", "{minted}: {reason}");
    }
    assert_eq!(found.doc["clusters_by_cause"]["key-per-attempt"].as_u64(), Some(f.extras.len() as u64));
    // Sums per currency, and each column with its own currency column.
    let out = run(db.idemctl(&[
        "scan",
        "--table",
        f.table,
        "--sum",
        "amount",
        "--sum",
        "processed_amount",
        "--format",
        "json",
    ]));
    let doc = out.json();
    assert_eq!(
        doc["sum_currencies"],
        serde_json::json!({"amount": "currency", "processed_amount": "processed_currency"})
    );
    // What the retries' extra rows hold, by hand-written SQL over the
    // fixture's own list of them: each amount by its own currency column.
    let extras: Vec<String> = f.extras.iter().map(|id| format!("'{id}'")).collect();
    let text = if db.engine == Engine::MySql { "CHAR" } else { "TEXT" };
    for (amount, currency) in [("amount", "currency"), ("processed_amount", "processed_currency")] {
        let pair = match db.engine {
            Engine::MySql => format!("CONCAT({currency}, '=', CAST(SUM({amount}) AS CHAR))"),
            _ => format!("{currency} || '=' || CAST(SUM({amount}) AS TEXT)"),
        };
        let mut expected: std::collections::BTreeMap<String, f64> = Default::default();
        for row in db.column(&format!(
            "SELECT {pair} FROM {} WHERE CAST(record_id AS {text}) IN ({}) GROUP BY {currency}",
            f.table,
            extras.join(", ")
        )) {
            let (code, sum) = row.as_deref().unwrap().split_once('=').unwrap();
            expected.insert(code.to_string(), sum.parse().unwrap());
        }
        let at_stake = &doc["sum_at_stake"][amount];
        assert!(expected.len() >= 2, "{amount}: retries in more than one currency: {at_stake}");
        assert_eq!(at_stake.as_object().unwrap().len(), expected.len(), "{amount}: {at_stake}");
        for (code, total) in &expected {
            let got = at_stake[code].to_string().parse::<f64>().unwrap();
            assert!((got - total).abs() < 1e-6, "{amount} in {code}: {got} != {total}");
        }
    }
}

fn ghost_posts(engine: Engine) {
    let Some(db) = TestDb::new(engine) else { return };
    let f = apps::ghost::fixture();
    f.load(&db, apps::ghost::ddl(engine));
    let found = scan(&db, &f, &[]);
    // A double submit within the same second, kept at whole seconds: which
    // row came first is not in the data, and ties go by id (Ghost's
    // ObjectIds, random after their seconds). Each wrongly listed row is the
    // original of a missed retry created at the same second.
    assert_all_found("ghost posts", &f, &found, |id, missed| {
        let second = |id: &str| match value_of(&f, id, "created_at") {
            Some(apps::V::AtSecs(us)) => Some(us.div_euclid(1_000_000)),
            _ => None,
        };
        missed.iter().any(|m| second(m).is_some() && second(m) == second(id))
    });
    assert_eq!(found.extras.len(), f.extras.len(), "one row listed per retry");
    let (rule, reason) = found.rule("slug");
    assert_eq!(rule, "minted-per-attempt");
    assert!(reason.contains("unique with (type)"), "{reason}");
    for minted in ["uuid", "comment_id"] {
        assert_eq!(found.rule(minted).0, "minted-per-attempt", "{minted}");
    }
    assert_eq!(found.rule("published_at").0, "minted-per-attempt");
}

fn calcom_bookings() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    let f = apps::calcom::fixture();
    f.load(&db, apps::calcom::DDL);
    let found = scan(&db, &f, &[]);
    assert_exact("cal.com bookings", &f, &found);
    assert_eq!(found.rule("createdAt").0, "created-at");
    assert_eq!(found.rule("updatedAt").0, "update-time");
    assert_eq!(found.doc["key_column"], "idempotencyKey");
    for minted in ["iCalUID", "metadata"] {
        assert_eq!(found.rule(minted).0, "minted-per-attempt", "{minted}");
    }
    assert_eq!(found.doc["clusters_by_cause"]["no-key"].as_u64(), Some(f.extras.len() as u64));
}

/// A retry after a client's timeout and backoff, five minutes after its
/// original: past the default window (2m), so a plain scan finds every
/// other retry and not it; `--window 10m` finds it too.
fn calcom_retry_past_the_window() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    let mut f = apps::calcom::fixture();
    f.load(&db, apps::calcom::DDL);
    let late = f.extras.iter().next().unwrap().clone();
    db.exec(&format!(
        "UPDATE \"Booking\" b SET \"createdAt\" = o.\"createdAt\" + interval '5 minutes'
         FROM \"Booking\" o WHERE b.id = {late} AND o.id = (
             SELECT max(p.id) FROM \"Booking\" p WHERE p.id < {late} AND p.\"userId\" = b.\"userId\" AND p.title = b.title)"
    ));
    let moved = db.ids(&format!(
        "SELECT count(*) FROM \"Booking\" b JOIN \"Booking\" o ON o.\"userId\" = b.\"userId\" AND o.title = b.title
         AND o.id < b.id WHERE b.id = {late} AND b.\"createdAt\" - o.\"createdAt\" = interval '5 minutes'"
    ));
    assert_eq!(moved, [1], "retry {late} is five minutes after its original");
    let plain = scan(&db, &f, &[]);
    f.extras.remove(&late);
    assert_exact("cal.com, one retry 5 min late, default window", &f, &plain);
    f.extras.insert(late);
    let wide = scan(&db, &f, &["--window", "10m"]);
    assert_exact("cal.com, one retry 5 min late, --window 10m", &f, &wide);
}

#[test]
fn killbill() {
    killbill_transactions(Engine::MySql);
    killbill_transactions(Engine::Postgres);
}

#[test]
fn ghost() {
    ghost_posts(Engine::MySql);
    ghost_posts(Engine::Sqlite);
}

#[test]
fn calcom_late_retry() {
    calcom_retry_past_the_window();
}

#[test]
fn calcom() {
    calcom_bookings();
}

#[test]
fn saleor() {
    saleor_transactions();
}

#[test]
fn lago() {
    lago_events();
}

#[test]
fn spree() {
    spree_payments(Engine::Postgres);
    spree_payments(Engine::MySql);
}

#[test]
fn discourse() {
    discourse_posts();
}

#[test]
fn mastodon() {
    mastodon_statuses();
}

/// One test per engine, so that the corpus's three engines run side by
/// side and a run of one engine's tests (`--skip mysql --skip sqlite`)
/// takes that engine's tables alone.
macro_rules! per_engine {
    ($name:ident, $run:path) => {
        mod $name {
            use crate::common::Engine;
            #[test]
            fn postgres() {
                $run(&super::corpus::corpus(), Engine::Postgres);
            }
            #[test]
            fn mysql() {
                $run(&super::corpus::corpus(), Engine::MySql);
            }
            #[test]
            fn sqlite() {
                $run(&super::corpus::corpus(), Engine::Sqlite);
            }
        }
    };
}

// Every table of the corpus with no column flags: tuning and validation
// figures apart, each held to its floor; never exit 0 on a damaged table.
per_engine!(corpus_figures, super::corpus::run_corpus);

// Every fix doctor prints for a corpus table runs as printed, in the steps
// it gives.
per_engine!(doctor_fixes_run_as_printed, super::corpus::doctor_fixes_run);

/// A numbered text each attempt takes the next of (NetBox's next free
/// address) is left out for the numbers it holds, and an update time whose
/// name says nothing (Odoo's `write_date`) is known by its values: never
/// before the creation, equal to it on rows never changed since.
#[test]
fn columns_known_by_their_values() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    let f = apps::netbox::fixture();
    f.load(&db, &apps::netbox::ddl(Engine::Postgres));
    let found = scan(&db, &f, &[]);
    let (rule, reason) = found.rule("address");
    assert_eq!(rule, "minted-per-attempt");
    assert!(reason.contains("the later row holds a greater number or a later code in the same text"), "{reason}");
    assert!(found.compared().contains(&"dns_name".to_string()), "{:?}", found.compared());

    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    let f = apps::odoo::fixture();
    f.load(&db, &apps::odoo::ddl(Engine::Postgres));
    let found = scan(&db, &f, &[]);
    let (rule, reason) = found.rule("write_date");
    assert_eq!(rule, "update-time");
    assert!(reason.starts_with("an update time by its values: set on 2000 of the first 2000 rows"), "{reason}");
    // One column is the update time.
    assert_eq!(
        found.doc["excluded_columns"].as_array().unwrap().iter().filter(|e| e["rule"] == "update-time").count(),
        1
    );
}

/// A vCalendar entry saved twice from a phone a minute apart: each copy
/// holds its own UID and its own DTSTAMP, CREATED and LAST-MODIFIED, and
/// nothing else differs. Monica's `vcalendar` is otherwise text people
/// write (the task's summary), so the pair is found as one document
/// stamped twice, not as two messages.
#[test]
fn a_document_each_attempt_stamped() {
    let Some(db) = TestDb::new(Engine::Sqlite) else { return };
    let f = apps::monica::fixture();
    f.load(&db, &apps::monica::ddl(Engine::Sqlite));
    let doc = run(db.idemctl(&["scan", "--table", f.table, "--format", "json"])).json();
    let cluster =
        doc["clusters"].as_array().unwrap().iter().find(|c| c["original_id"] == "7197").unwrap_or_else(|| {
            let originals: Vec<&serde_json::Value> =
                doc["clusters"].as_array().unwrap().iter().map(|c| &c["original_id"]).collect();
            panic!("no cluster of 7197 among those of {originals:?}")
        });
    assert_eq!(cluster["extra_ids"], serde_json::json!(["7198"]));
    assert_eq!(cluster["confidence"], "likely");
    assert_eq!(
        cluster["evidence"][0]["reason"],
        "equal but for vcalendar differing only by what each attempt stamped into it (its own ids, its creation time)"
    );
    assert!(f.extras.contains("7198"));
}
