//! The corpus: creation tables of real applications (`apps/`), each filled
//! as its create path writes rows, its retries and its legitimate repeats,
//! scanned with no column flags. Half tunes the rules; the other half is the
//! validation set no rule is changed for. Prints each table's figures
//! (recall over every cluster; precision over `certain` + `likely`; the
//! share of retries that are `certain` or `likely`; legitimate repeats
//! listed above `doubtful`), and fails where a table falls below the floor
//! recorded for it, or a damaged table exits 0.

use std::collections::{BTreeMap, BTreeSet};

use super::apps::{self, Fixture};
use crate::common::{Engine, TestDb, csv_records, run};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    Tune,
    Validate,
}

/// One application's table.
pub struct App {
    pub name: &'static str,
    pub split: Split,
    pub engines: &'static [Engine],
    pub ddl: fn(Engine) -> String,
    pub fixture: fn() -> Fixture,
    /// The floors this table is held to: recall, precision of certain +
    /// likely, the share of retries certain or likely (as measured when the
    /// rules were last changed, so that a change that costs any fails).
    pub floor: (f64, f64, f64),
    /// A validation table the scan wrongly calls clean (exit 0 over real
    /// retries): a defect recorded, not hidden. The test fails if any other
    /// damaged table exits 0, and if this one stops doing so (then clear it).
    pub known_false_clean: bool,
}

/// What one scan of one table found, against what the fixture knows.
#[derive(Debug, Default)]
pub struct Figures {
    pub rows: usize,
    pub retries: usize,
    pub legit: usize,
    pub recall: f64,
    pub precision: f64,
    pub sure: f64,
    pub legit_sure: usize,
    pub code: i32,
    pub confidences: BTreeMap<String, usize>,
}

/// The one flag a table needs where it keeps no creation time at all
/// (Kimai's timesheet: scan refuses it without, exit 2, and says so): the
/// time the record begins, which each create writes.
fn created_at_named(app: &str) -> Option<&'static str> {
    match app {
        "kimai" => Some("start_time"),
        "babybuddy" => Some("start"),
        _ => None,
    }
}

pub fn measure(db: &TestDb, app: &App) -> Figures {
    let f = (app.fixture)();
    f.load(db, &(app.ddl)(db.engine));
    let mut args = vec!["scan", "--table", f.table, "--output", "rows", "--format", "csv"];
    if let Some(column) = created_at_named(app.name) {
        let bare = run(db.idemctl(&["scan", "--table", f.table]));
        assert!(bare.code == 2 && bare.stderr.contains("has no created-at column"), "{}: {}", app.name, bare.stderr);
        args.extend(["--created-at", column]);
    }
    // CORPUS_ARGS="--window 10m": flags to measure a change by, added to every scan.
    let extra = std::env::var("CORPUS_ARGS").unwrap_or_default();
    args.extend(extra.split_whitespace());
    let out = run(db.idemctl(&args));
    assert!(out.code == 0 || out.code == 1, "{} on {:?}: {}", app.name, db.engine, out.stderr);
    // CORPUS_KEEP=DIR: a copy of a SQLite table as loaded, to look into by hand.
    if let (Some(dir), Some(file)) = (std::env::var_os("CORPUS_KEEP"), db.url.strip_prefix("sqlite:")) {
        std::fs::copy(file, std::path::Path::new(&dir).join(format!("{}.db", app.name))).unwrap();
    }
    let records = csv_records(&out.stdout);
    let at = |name: &str| records[0].iter().position(|h| h == name).unwrap();
    let (original, dup, conf, evidence) = (at("original_id"), at("duplicate_id"), at("confidence"), at("evidence"));
    let mut found = BTreeSet::new();
    let mut sure = BTreeSet::new();
    let mut confidences = BTreeMap::new();
    for r in &records[1..] {
        // A pair one row of which was filled in later keeps that row, which
        // may be the retry's: the cluster found that retry all the same.
        let filled = r[evidence].contains("filled in");
        let swap = filled && !f.extras.contains(&r[dup]) && f.extras.contains(&r[original]);
        let id = if swap { &r[original] } else { &r[dup] };
        found.insert(id.clone());
        *confidences.entry(r[conf].clone()).or_default() += 1;
        if r[conf] != "doubtful" {
            sure.insert(id.clone());
        }
    }
    // CORPUS_EVIDENCE=FILE: each listed row, whether it is a retry's, its
    // confidence and its evidence, appended as CSV: how often each reason
    // is right, over a half of the corpus.
    if let Some(file) = std::env::var_os("CORPUS_EVIDENCE") {
        use std::io::Write;
        let mut lines = String::new();
        for r in &records[1..] {
            let truth = match (f.extras.contains(&r[dup]) || f.extras.contains(&r[original]), f.legit.contains(&r[dup]))
            {
                (true, _) => "retry",
                (false, true) => "legit",
                (false, false) => "other",
            };
            let fields = [app.name, &format!("{:?}", db.engine), truth, &r[conf], &r[evidence]];
            let quoted: Vec<String> = fields.iter().map(|v| format!("\"{}\"", v.replace('"', "\"\""))).collect();
            lines.push_str(&(quoted.join(",") + "\n"));
        }
        // One write, whole: the engines' tests append side by side.
        let mut out = std::fs::OpenOptions::new().append(true).create(true).open(file).unwrap();
        out.write_all(lines.as_bytes()).unwrap();
    }
    // CORPUS_SHOW=1: what the scan decided, and what it missed or wrongly listed.
    if std::env::var_os("CORPUS_SHOW").is_some() {
        eprintln!("{}", out.stderr);
        eprintln!("missed: {:?}", f.extras.difference(&found).take(20).collect::<Vec<_>>());
        let legit_sure: Vec<&String> = sure.difference(&f.extras).collect();
        for line in out.stdout.lines().filter(|l| legit_sure.iter().any(|id| l.contains(&format!(",{id},")))).take(8) {
            eprintln!("legit listed above doubtful: {line}");
        }
        let retried_not_sure: Vec<&String> = f.extras.difference(&sure).collect();
        for line in
            out.stdout.lines().filter(|l| retried_not_sure.iter().any(|id| l.contains(&format!(",{id},")))).take(8)
        {
            eprintln!("retry not certain or likely: {line}");
        }
        eprintln!("listed above doubtful, not retries: {:?}", sure.difference(&f.extras).take(20).collect::<Vec<_>>());
    }
    let ratio = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
    let extras = &f.extras;
    Figures {
        rows: f.rows.len(),
        retries: extras.len(),
        legit: f.legit.len(),
        recall: ratio(found.intersection(extras).count(), extras.len()),
        // A hidden retry listed is a retry found, not a false one: left out
        // of the rows judged, unless it counts as found already.
        precision: ratio(
            sure.intersection(extras).count(),
            sure.iter().filter(|id| extras.contains(*id) || !f.hidden.contains(*id)).count(),
        ),
        sure: ratio(sure.intersection(extras).count(), extras.len()),
        legit_sure: sure.intersection(&f.legit).count(),
        code: out.code,
        confidences,
    }
}

/// Scans every table of the corpus that is on `engine`, prints the figures,
/// tuning and validation apart, and checks them.
pub fn run_corpus(corpus: &[App], engine: Engine) {
    let mut failures = Vec::new();
    // CORPUS_SPLIT=tune or validate: one half only.
    let half = std::env::var("CORPUS_SPLIT").ok().map(|s| s.to_lowercase());
    for split in [Split::Tune, Split::Validate] {
        if half.as_deref().is_some_and(|h| h != format!("{split:?}").to_lowercase()) {
            continue;
        }
        eprintln!("{split:?} ({engine:?}):");
        let only = std::env::var("CORPUS_APP").ok();
        for app in corpus.iter().filter(|a| a.split == split && only.as_deref().is_none_or(|o| o == a.name)) {
            if app.engines.contains(&engine) {
                let Some(db) = TestDb::new(engine) else { return };
                let m = measure(&db, app);
                // CORPUS_KEEP=DIR: a server's database is kept too (dropped by hand).
                if std::env::var_os("CORPUS_KEEP").is_some() && engine != Engine::Sqlite {
                    eprintln!("kept {}", db.url);
                    std::mem::forget(db);
                }
                eprintln!(
                    "  {:<14} {:<8} rows {:>5} retries {:>3} legit {:>3}  recall {:.3}  precision {:.3}  sure {:.3}  \
                     legit listed above doubtful {:>2}  exit {}  {:?}",
                    app.name,
                    format!("{engine:?}"),
                    m.rows,
                    m.retries,
                    m.legit,
                    m.recall,
                    m.precision,
                    m.sure,
                    m.legit_sure,
                    m.code,
                    m.confidences
                );
                let false_clean = m.retries > 0 && m.code == 0;
                if false_clean != app.known_false_clean {
                    failures.push(if false_clean {
                        format!("{} on {engine:?}: a damaged table exited 0", app.name)
                    } else {
                        format!("{} on {engine:?}: no longer a false clean: clear known_false_clean", app.name)
                    });
                }
                let (recall, precision, sure) = app.floor;
                if m.recall + 1e-9 < recall || m.precision + 1e-9 < precision || m.sure + 1e-9 < sure {
                    failures.push(format!(
                        "{} on {engine:?}: recall {:.3} precision {:.3} sure {:.3}, under the floor {recall} {precision} {sure}",
                        app.name, m.recall, m.precision, m.sure
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

const PG: &[Engine] = &[Engine::Postgres];

/// A table of a fixture written to the shape every new one has (`ENGINES`,
/// `ddl`, `fixture`), with its split and floor.
macro_rules! fixture {
    ($name:ident, $split:ident, $floor:expr) => {
        App {
            name: stringify!($name),
            split: Split::$split,
            engines: apps::$name::ENGINES,
            ddl: apps::$name::ddl,
            fixture: apps::$name::fixture,
            floor: $floor,
            known_false_clean: false,
        }
    };
}

/// The corpus: 30 tables to tune on (the first eight and GitLab, Linkwarden, Redmine,
/// Firefly III, Vikunja, Plane, OpenProject, Dolibarr, Kimai, Lemmy, Mealie, Monica, Taiga, NetBox, Grocy, Drupal,
/// Moodle, Zulip, Sylius; and wallabag, BookStack and PrestaShop, validation tables once, moved here when their
/// misses were looked into), 36 to validate that no rule was changed for (Bagisto, Listmonk, Uptime Kuma, Mautic,
/// Shlink and Formbricks the newest, each built from its application's code alone after the last rule change).
pub fn corpus() -> Vec<App> {
    use Split::*;
    vec![
        App {
            name: "calcom",
            split: Tune,
            engines: PG,
            ddl: |_| apps::calcom::DDL.to_string(),
            fixture: apps::calcom::fixture,
            floor: (1.0, 1.0, 1.0),
            known_false_clean: false,
        },
        App {
            name: "discourse",
            split: Tune,
            engines: PG,
            ddl: |_| format!("{};\n{}", apps::discourse::SEQUENCE, apps::discourse::DDL),
            fixture: apps::discourse::fixture,
            floor: (1.0, 1.0, 1.0),
            known_false_clean: false,
        },
        App {
            name: "ghost",
            split: Tune,
            engines: &[Engine::MySql, Engine::Sqlite],
            ddl: |e| apps::ghost::ddl(e).to_string(),
            fixture: apps::ghost::fixture,
            floor: (0.88, 0.88, 0.88),
            known_false_clean: false,
        },
        App {
            name: "killbill",
            split: Tune,
            engines: &[Engine::MySql, Engine::Postgres],
            ddl: |e| apps::killbill::ddl(e).to_string(),
            fixture: apps::killbill::fixture,
            floor: (1.0, 1.0, 1.0),
            known_false_clean: false,
        },
        App {
            name: "lago",
            split: Tune,
            engines: PG,
            ddl: |_| apps::lago::DDL.to_string(),
            fixture: apps::lago::fixture,
            floor: (1.0, 1.0, 0.9),
            known_false_clean: false,
        },
        App {
            name: "mastodon",
            split: Tune,
            engines: PG,
            ddl: |_| apps::mastodon::DDL.to_string(),
            fixture: apps::mastodon::fixture,
            floor: (1.0, 1.0, 1.0),
            known_false_clean: false,
        },
        App {
            name: "saleor",
            split: Tune,
            engines: PG,
            ddl: |_| apps::saleor::DDL.to_string(),
            fixture: apps::saleor::fixture,
            floor: (1.0, 1.0, 1.0),
            known_false_clean: false,
        },
        App {
            name: "spree",
            split: Tune,
            engines: &[Engine::Postgres, Engine::MySql],
            ddl: |e| apps::spree::ddl(e).to_string(),
            fixture: || apps::spree::fixture().fixture,
            floor: (1.0, 1.0, 1.0),
            known_false_clean: false,
        },
        fixture!(chatwoot, Validate, (1.0, 0.62, 0.78)),
        fixture!(firefly, Tune, (0.97, 0.61, 0.82)),
        fixture!(gitea, Validate, (0.33, 0.5, 0.16)),
        fixture!(gitlab, Tune, (1.0, 0.7, 1.0)),
        fixture!(linkwarden, Tune, (0.95, 0.95, 0.95)),
        fixture!(mattermost, Validate, (0.5, 0.43, 0.49)),
        fixture!(medusa, Validate, (1.0, 0.09, 1.0)),
        fixture!(odoo, Validate, (0.09, 1.0, 0.05)),
        fixture!(paperless, Validate, (0.59, 1.0, 0.58)),
        fixture!(redmine, Tune, (0.83, 1.0, 0.83)),
        fixture!(woocommerce, Validate, (1.0, 0.76, 0.79)),
        fixture!(invoiceninja, Validate, (0.5, 1.0, 0.5)),
        fixture!(zammad, Validate, (0.16, 1.0, 0.16)),
        fixture!(magento, Validate, (0.42, 1.0, 0.42)),
        fixture!(wallabag, Tune, (0.0, 1.0, 0.0)),
        fixture!(vikunja, Tune, (0.97, 0.94, 0.52)),
        fixture!(kanboard, Validate, (0.02, 1.0, 0.02)),
        fixture!(plane, Tune, (0.87, 1.0, 0.75)),
        fixture!(pretix, Validate, (0.81, 0.28, 0.59)),
        fixture!(akaunting, Validate, (0.64, 0.51, 0.64)),
        fixture!(memos, Validate, (0.88, 0.53, 0.85)),
        fixture!(openproject, Tune, (0.83, 0.84, 0.77)),
        fixture!(snipeit, Validate, (0.37, 0.57, 0.27)),
        fixture!(dolibarr, Tune, (0.91, 0.6, 0.86)),
        fixture!(outline, Validate, (0.2, 0.87, 0.2)),
        fixture!(bookstack, Tune, (0.41, 1.0, 0.25)),
        fixture!(kimai, Tune, (0.5, 0.56, 0.5)),
        fixture!(lemmy, Tune, (0.93, 0.87, 0.93)),
        fixture!(mealie, Tune, (0.8, 1.0, 0.5)),
        fixture!(monica, Tune, (0.86, 0.80, 0.80)),
        fixture!(taiga, Tune, (0.73, 1.0, 0.69)),
        fixture!(immich, Validate, (0.25, 0.5, 0.25)),
        fixture!(netbox, Tune, (0.64, 0.26, 0.64)),
        fixture!(grocy, Tune, (0.69, 0.178, 0.52)),
        fixture!(drupal, Tune, (0.93, 0.5, 0.93)),
        fixture!(moodle, Tune, (0.78, 0.44, 0.78)),
        fixture!(zulip, Tune, (0.8, 0.66, 0.8)),
        fixture!(sylius, Tune, (0.57, 0.23, 0.39)),
        fixture!(erpnext, Validate, (0.87, 0.62, 0.87)),
        fixture!(crater, Validate, (0.4, 0.57, 0.31)),
        fixture!(umami, Validate, (0.83, 0.26, 0.72)),
        fixture!(linkding, Validate, (0.28, 1.0, 0.14)),
        fixture!(opencart, Validate, (0.96, 0.94, 0.96)),
        fixture!(decidim, Validate, (0.5, 0.85, 0.47)),
        fixture!(forem, Validate, (0.93, 1.0, 0.87)),
        fixture!(deck, Validate, (0.17, 1.0, 0.17)),
        fixture!(flarum, Validate, (0.6, 0.75, 0.55)),
        fixture!(prestashop, Tune, (0.71, 1.0, 0.38)),
        fixture!(vaultwarden, Validate, (0.51, 0.52, 0.48)),
        fixture!(gotify, Validate, (0.96, 0.23, 0.96)),
        fixture!(karakeep, Validate, (0.72, 0.85, 0.48)),
        fixture!(babybuddy, Validate, (0.58, 0.75, 0.05)),
        fixture!(bagisto, Validate, (0.6, 1.0, 0.1)),
        fixture!(listmonk, Validate, (0.88, 1.0, 0.88)),
        fixture!(uptimekuma, Validate, (0.76, 1.0, 0.76)),
        fixture!(mautic, Validate, (0.47, 0.83, 0.39)),
        fixture!(shlink, Validate, (0.9, 0.7, 0.83)),
        fixture!(formbricks, Validate, (0.85, 1.0, 0.64)),
    ]
}

/// Every fix doctor prints for a corpus table runs as printed, in the steps
/// it gives: where it says to remove the extra rows scan lists first, they
/// are removed (by the ids scan lists), then its statements run in order.
/// Each must succeed, on `engine`, for every table on it.
pub fn doctor_fixes_run(corpus: &[App], engine: Engine) {
    let mut failures = Vec::new();
    let (mut ran, mut skipped) = (0, 0);
    for app in corpus {
        if app.engines.contains(&engine) {
            let Some(db) = TestDb::new(engine) else { return };
            let f = (app.fixture)();
            f.load(&db, &(app.ddl)(engine));
            db.exec(&format!(
                "CREATE TABLE idempotency_keys (scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT \
                 NULL, status {text} NOT NULL, response_code INTEGER, created_at {ts}, expires_at {ts},
                 PRIMARY KEY (scope_id, operation, {key}))",
                text = db.ty("text"),
                ts = db.ty("ts"),
                key = db.ident("key"),
            ));
            let place = format!("{} on {engine:?}", app.name);
            let out = run(db.idemctl(&["doctor", "--creation-table", f.table, "--format", "json"]));
            let doc = out.json();
            let name = format!("creation:{}", f.table);
            let Some(check) = doc["checks"].as_array().and_then(|c| c.iter().find(|c| c["check"] == name.as_str()))
            else {
                failures.push(format!("{place}: no {name} check: {}", out.stderr));
                continue;
            };
            let fix = check["fix"].as_str().unwrap_or_default();
            let Some((prose, sql)) =
                fix.rsplit_once(": ").filter(|(_, sql)| ["CREATE ", "ALTER "].iter().any(|v| sql.starts_with(v)))
            else {
                continue;
            };
            if prose.starts_with("first remove the ") {
                let scan = run(db.idemctl(&["scan", "--table", f.table, "--format", "json"]));
                let scanned = scan.json();
                let id = scanned["excluded_columns"]
                    .as_array()
                    .and_then(|e| e.iter().find(|c| c["rule"] == "row-id"))
                    .and_then(|c| c["column"].as_str())
                    .unwrap_or("id")
                    .to_string();
                let rows = run(db.idemctl(&["scan", "--table", f.table, "--output", "rows", "--format", "csv"]));
                let ids: Vec<String> =
                    csv_records(&rows.stdout)[1..].iter().map(|r| format!("'{}'", r[2].replace('\'', "''"))).collect();
                // A constraint on the table's own columns refuses the retries
                // scan found: each extra row shares those columns with
                // another row (NULL shares nothing: a unique index lets it repeat).
                if let Some((_, columns)) = sql.strip_prefix("CREATE UNIQUE INDEX ").and_then(|s| s.rsplit_once('(')) {
                    let same: Vec<String> =
                        columns.trim_end_matches(')').split(", ").map(|c| format!("o.{c} = e.{c}")).collect();
                    let unrefused = db.column(&format!(
                        "SELECT COUNT(*) FROM {t} e WHERE e.{id} IN ({}) AND NOT EXISTS (SELECT 1 FROM {t} o WHERE \
                         o.{id} <> e.{id} AND {})",
                        ids.join(", "),
                        same.join(" AND "),
                        t = db.ident(f.table),
                        id = db.ident(&id),
                    ));
                    let unrefused = unrefused[0].clone().unwrap_or_default();
                    if unrefused != "0" {
                        failures.push(format!(
                            "{place}: {sql} would not have refused {unrefused} of scan's {} extra rows",
                            ids.len()
                        ));
                    }
                }
                // An extra row other rows refer to (a credit note to an
                // invoice booked twice) is not removed by a DELETE: the fix
                // cannot run as printed until they are moved to the row kept,
                // which is the person's call. Such a table is left out.
                let mut referenced = 0;
                let delete = |ids: &[String]| {
                    db.try_exec(&format!(
                        "DELETE FROM {} WHERE {} IN ({})",
                        db.ident(f.table),
                        db.ident(&id),
                        ids.join(", ")
                    ))
                };
                for chunk in ids.chunks(200) {
                    match delete(chunk) {
                        Ok(()) => {}
                        Err(e) if e.contains("foreign key") => {
                            referenced += chunk.iter().filter(|one| delete(std::slice::from_ref(one)).is_err()).count()
                        }
                        Err(e) => failures.push(format!("{place}: removing scan's extra rows: {e}")),
                    }
                }
                if referenced > 0 {
                    eprintln!("{place}: {referenced} extra rows are referenced by other rows: the fix is not run");
                    skipped += 1;
                    continue;
                }
            }
            ran += 1;
            for statement in sql.split("; ") {
                if let Err(e) = db.try_exec(statement) {
                    failures.push(format!("{place}: {statement}: {e}"));
                    break;
                }
            }
        }
    }
    eprintln!("doctor's fixes run on {ran} tables");
    assert!(ran > 0, "no fix was run");
    // Dolibarr's credit notes refer to invoices booked twice.
    assert!(skipped <= 1, "{skipped} tables left out for referenced extra rows");
    assert!(failures.is_empty(), "{failures:#?}");
}
