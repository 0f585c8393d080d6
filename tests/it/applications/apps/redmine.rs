//! Redmine 6.x (Ruby on Rails, ActiveRecord; MySQL/MariaDB in production, SQLite too): `issues`, as
//! `IssuesController#create` (web form and REST API) and `Issue#save` write it, with the `custom_values` rows saved
//! with each issue.
//! Read: redmine/redmine db/migrate/ 001_setup, 005_issue_start_date, 069_add_issues_estimated_hours,
//! 20091017213910_add_missing_indexes_to_issues, 20091025163651_add_activity_indexes, 20100313132032 and
//! 20100313171051 (nested set columns and index), 20110412065600_add_issues_is_private, 20130215111127 (closed_on),
//! 20130217094251, 20161010081301, 20161220091118, 20180923091603 and the custom_values ones (066, 20091017214519,
//! 20190315094151, 20221012135202); app/models/issue.rb; lib/redmine/nested_set/issue_nested_set.rb;
//! app/controllers/issues_controller.rb (`create`, `build_new_issue_from_params`, bulk copy);
//! app/models/issue_import.rb and import.rb (CSV import); lib/redmine/default_data/loader.rb (default ids);
//! config/application.rb (`default_timezone = :local`).
//! On a create: a fresh auto-increment `id`; a root gets `root_id` = id, `lft` 1, `rgt` 2 right after the insert, a
//! subtask takes its parent's `root_id` and the next `lft`/`rgt` inside the tree (the whole tree shifts by 2);
//! `created_on` = `updated_on` (whole seconds on MySQL); `status_id` the tracker's default (New), `priority_id` the
//! default (Normal) unless chosen, `start_date` the author's today (setting on by default; not for imports),
//! `lock_version` 0, `done_ratio` 0; the category's or project's default assignee. A form sends `\r\n` line breaks
//! and "" for an empty description, the API `\n` or nothing. A retried create runs all of that again.
//! Later: status moves (In Progress, Resolved, Closed, Rejected), `closed_on` is set when an issue is closed,
//! `assigned_to_id` and `done_ratio` change, each save bumps `lock_version` and `updated_on`; a parent's priority,
//! dates and done ratio are derived from its subtasks and saved again as they change; closing an issue closes the
//! issues related to it as duplicates.
//! Retries (6 in all): two double submits (two tabs, a re-sent form) 5-100 ms apart; a REST script timing out after
//! 30 s and posting again 31-45 s later, one of them once more 60-100 s later; one late in the table. People reject
//! some of the extra issues, relate others as duplicates (closed with the original), leave the rest.
//! Legitimate repeats: CSV imports of QA smoke tests, one identical row per platform (the platform is a custom field,
//! in `custom_values`), 20-80 ms apart; an issue copied by its author 30 s-4 min later for another platform.
use super::{Child, DAY, Fixture, HOUR, Mark, Rng, SECOND, T0, V, WORDS, day, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Sqlite];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => "CREATE TABLE `issues` (
  `id` int(11) NOT NULL AUTO_INCREMENT, `tracker_id` int(11) NOT NULL, `project_id` int(11) NOT NULL,
  `subject` varchar(255) NOT NULL DEFAULT '', `description` longtext DEFAULT NULL, `due_date` date DEFAULT NULL,
  `category_id` int(11) DEFAULT NULL, `status_id` int(11) NOT NULL, `assigned_to_id` int(11) DEFAULT NULL,
  `priority_id` int(11) NOT NULL, `fixed_version_id` int(11) DEFAULT NULL, `author_id` int(11) NOT NULL,
  `lock_version` int(11) NOT NULL DEFAULT 0, `created_on` timestamp NULL DEFAULT NULL,
  `updated_on` timestamp NULL DEFAULT NULL, `start_date` date DEFAULT NULL,
  `done_ratio` int(11) NOT NULL DEFAULT 0, `estimated_hours` float DEFAULT NULL, `parent_id` int(11) DEFAULT NULL,
  `root_id` int(11) DEFAULT NULL, `lft` int(11) DEFAULT NULL, `rgt` int(11) DEFAULT NULL,
  `is_private` tinyint(1) NOT NULL DEFAULT 0, `closed_on` datetime DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `issues_project_id` (`project_id`), KEY `index_issues_on_status_id` (`status_id`),
  KEY `index_issues_on_category_id` (`category_id`), KEY `index_issues_on_assigned_to_id` (`assigned_to_id`),
  KEY `index_issues_on_fixed_version_id` (`fixed_version_id`), KEY `index_issues_on_tracker_id` (`tracker_id`),
  KEY `index_issues_on_priority_id` (`priority_id`), KEY `index_issues_on_author_id` (`author_id`),
  KEY `index_issues_on_created_on` (`created_on`),
  KEY `index_issues_on_root_id_and_lft_and_rgt` (`root_id`,`lft`,`rgt`),
  KEY `index_issues_on_parent_id` (`parent_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE `custom_values` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `customized_type` varchar(30) NOT NULL DEFAULT '',
  `customized_id` int(11) NOT NULL DEFAULT 0,
  `custom_field_id` int(11) NOT NULL DEFAULT 0,
  `value` longtext DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `index_custom_values_on_custom_field_id` (`custom_field_id`),
  KEY `custom_values_customized_custom_field` (`customized_type`,`customized_id`,`custom_field_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"
            .to_string(),
        Engine::Sqlite => "CREATE TABLE \"issues\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"tracker_id\" integer NOT NULL,
  \"project_id\" integer NOT NULL, \"subject\" varchar(255) DEFAULT '' NOT NULL, \"description\" text, \"due_date\" date,
  \"category_id\" integer, \"status_id\" integer NOT NULL, \"assigned_to_id\" integer, \"priority_id\" integer NOT NULL,
  \"fixed_version_id\" integer, \"author_id\" integer NOT NULL, \"lock_version\" integer DEFAULT 0 NOT NULL,
  \"created_on\" datetime, \"updated_on\" datetime, \"start_date\" date, \"done_ratio\" integer DEFAULT 0 NOT NULL,
  \"estimated_hours\" float, \"parent_id\" integer DEFAULT NULL, \"root_id\" integer DEFAULT NULL, \"lft\" integer DEFAULT NULL,
  \"rgt\" integer DEFAULT NULL, \"is_private\" boolean DEFAULT 0 NOT NULL, \"closed_on\" datetime DEFAULT NULL);
CREATE INDEX \"issues_project_id\" ON \"issues\" (\"project_id\");
CREATE INDEX \"index_issues_on_status_id\" ON \"issues\" (\"status_id\");
CREATE INDEX \"index_issues_on_category_id\" ON \"issues\" (\"category_id\");
CREATE INDEX \"index_issues_on_assigned_to_id\" ON \"issues\" (\"assigned_to_id\");
CREATE INDEX \"index_issues_on_fixed_version_id\" ON \"issues\" (\"fixed_version_id\");
CREATE INDEX \"index_issues_on_tracker_id\" ON \"issues\" (\"tracker_id\");
CREATE INDEX \"index_issues_on_priority_id\" ON \"issues\" (\"priority_id\");
CREATE INDEX \"index_issues_on_author_id\" ON \"issues\" (\"author_id\");
CREATE INDEX \"index_issues_on_created_on\" ON \"issues\" (\"created_on\");
CREATE INDEX \"index_issues_on_root_id_and_lft_and_rgt\" ON \"issues\" (\"root_id\", \"lft\", \"rgt\");
CREATE INDEX \"index_issues_on_parent_id\" ON \"issues\" (\"parent_id\");
CREATE TABLE \"custom_values\" (\"id\" integer PRIMARY KEY AUTOINCREMENT NOT NULL, \"customized_type\" varchar(30) DEFAULT '' NOT NULL,
  \"customized_id\" integer DEFAULT 0 NOT NULL, \"custom_field_id\" integer DEFAULT 0 NOT NULL, \"value\" text);
CREATE INDEX \"index_custom_values_on_custom_field_id\" ON \"custom_values\" (\"custom_field_id\");
CREATE INDEX \"custom_values_customized_custom_field\" ON \"custom_values\" (\"customized_type\", \"customized_id\", \"custom_field_id\")"
            .to_string(),
        Engine::Postgres => unreachable!("this fixture covers Redmine on MySQL and SQLite"),
    }
}

const COLUMNS: &str = "id tracker_id project_id subject description due_date category_id status_id assigned_to_id priority_id \
    fixed_version_id author_id lock_version created_on updated_on start_date done_ratio estimated_hours \
    parent_id root_id lft rgt is_private closed_on";

const NOW: i64 = T0 + 28 * DAY;
/// The QA project, where the "Platform" custom field (id 4) is enabled.
const QA: i64 = 3;
const PLATFORMS: &[&str] = &["Windows", "macOS", "Linux", "Android", "iOS"];
const FLOWS: &[&str] = &["login", "checkout", "password reset", "file upload", "search", "profile update"];
const SUBTASKS: &[&str] = &["Code review", "Write tests", "Update documentation", "Deploy to staging"];

#[derive(Clone, Default)]
struct Issue {
    uid: usize,
    at: i64,
    project: i64,
    tracker: i64,
    subject: String,
    desc: Option<String>,
    author: i64,
    assignee: Option<i64>,
    priority: i64,
    category: Option<i64>,
    version: Option<i64>,
    start: Option<i64>,
    due: Option<i64>,
    estimate: Option<f64>,
    private: bool,
    platform: Option<&'static str>,
    parent: Option<usize>,
    mark: Mark,
    of: Option<usize>,
}

/// What the row holds now.
#[derive(Clone, Copy, Default)]
struct Life {
    status: i64,
    closed: Option<i64>,
    done: i64,
    assignee: Option<i64>,
    priority: i64,
    start: Option<i64>,
    due: Option<i64>,
    saves: i64,
    last: i64,
}

fn push(v: &mut Vec<Issue>, mut i: Issue) -> usize {
    i.uid = v.len();
    v.push(i);
    v.len() - 1
}

fn date(us: i64) -> V {
    V::t(chrono::DateTime::from_timestamp_micros(us).unwrap().format("%Y-%m-%d").to_string())
}

fn subject(r: &mut Rng) -> String {
    let n = 2 + r.below(5) as usize;
    let mut words: Vec<String> = (0..n).map(|_| r.pick(WORDS).to_string()).collect();
    words[0] = format!("{}{}", words[0][..1].to_uppercase(), &words[0][1..]);
    words.join(" ")
}

/// A description as the web form (`\r\n`, "" when left empty) or the API (`\n`, absent) sends it.
fn description(r: &mut Rng, api: bool) -> Option<String> {
    if r.chance(0.15) {
        return if api { None } else { Some(String::new()) };
    }
    let paras: Vec<String> = (0..1 + r.below(3))
        .map(|_| {
            let n = 5 + r.below(14) as usize;
            sentence(&mut *r, n)
        })
        .collect();
    Some(paras.join(if api { "\n\n" } else { "\r\n\r\n" }))
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(6_021);
    let mut v: Vec<Issue> = Vec::new();
    let mut t = T0;
    let mut normal = 0;
    let mut late_done = false;
    while t < NOW - HOUR {
        let weekday = (3 + (t - T0) / DAY) % 7;
        let gap = r.range(40, 2_400) * SECOND + r.below(1_000_000) as i64;
        t += if weekday >= 5 { gap * 3 } else { gap };
        let x = r.below(1_000);
        if x < 3 {
            // A CSV import of smoke tests for the QA project: each flow once per platform, the platform in a
            // custom field; the import saves row after row.
            let author = 5 + r.below(4) as i64;
            let tracker = *r.pick(&[1, 3]);
            let first = r.below(3) as usize;
            let flows = &FLOWS[first..first + 2 + r.below(2) as usize];
            let platforms = &PLATFORMS[..3 + r.below(3) as usize];
            let mut at = t;
            for flow in flows {
                for (k, p) in platforms.iter().enumerate() {
                    let desc =
                        format!("Run the {flow} smoke test on the release candidate and report anything unusual.");
                    let mut i = issue(at, QA, tracker, format!("Smoke test: {flow}"), Some(desc), author);
                    i.platform = Some(*p);
                    i.start = None;
                    i.version = Some(QA * 100 + 2);
                    i.mark = if k == 0 { Mark::Plain } else { Mark::Legit };
                    push(&mut v, i);
                    at += r.range(20_000, 80_000);
                }
            }
            continue;
        }
        let project = 1 + r.skewed(14) as i64;
        // The REST script whose creates get retried, and the late retry, go through the API.
        let late = !late_done && t > NOW - 2 * DAY;
        let api = [611, 1_300].contains(&(normal + 1)) || late || r.chance(0.2);
        let tracker = *r.pick(&[1, 1, 1, 2, 2, 3]);
        let author = 5 + r.skewed(60) as i64;
        let mut i = issue(t, project, tracker, subject(&mut r), description(&mut r, api), author);
        i.priority = *r.pick(&[2, 2, 2, 2, 1, 3, 3, 4, 5]);
        i.category = (project % 3 != 2 && r.chance(0.5)).then(|| project * 10 + r.below(4) as i64);
        // The category's default assignee, else what the author picked.
        i.assignee = match i.category {
            Some(c) if c % 2 == 0 => Some(5 + (c % 13)),
            _ => r.chance(0.35).then(|| 5 + r.skewed(60) as i64),
        };
        i.version = r.chance(0.35).then(|| project * 100 + r.below(3) as i64);
        i.due = r.chance(0.2).then(|| day(t) + r.range(2, 45) * DAY);
        i.estimate = r.chance(0.25).then(|| *r.pick(&[0.5, 1.0, 2.0, 4.0, 8.0, 16.0]));
        i.private = r.chance(0.03);
        if project == QA {
            i.platform = Some(if r.chance(0.6) { *r.pick(PLATFORMS) } else { "" });
        }
        let u = push(&mut v, i.clone());
        normal += 1;

        // The retries: the same request processed twice.
        if normal == 140 || normal == 902 {
            push(&mut v, Issue { at: t + r.range(5_000, 100_000), mark: Mark::Retry, of: Some(u), ..i.clone() });
        } else if normal == 611 || normal == 1_300 || late {
            late_done |= late;
            let a1 = t + if late { r.range(12, 30) } else { r.range(31, 45) } * SECOND + r.below(1_000_000) as i64;
            push(&mut v, Issue { at: a1, mark: Mark::Retry, of: Some(u), ..i.clone() });
            if normal == 611 {
                let a2 = a1 + r.range(60, 100) * SECOND;
                push(&mut v, Issue { at: a2, mark: Mark::Retry, of: Some(u), ..i.clone() });
            }
        }
        // The author copies the issue for another platform.
        if project == QA && i.platform.is_some_and(|p| !p.is_empty()) && r.chance(0.12) {
            let other = *r.pick(PLATFORMS);
            if Some(other) != i.platform {
                let at = t + r.range(30, 240) * SECOND + r.below(1_000_000) as i64;
                push(&mut v, Issue { at, platform: Some(other), mark: Mark::Legit, ..i.clone() });
            }
        }
        // Subtasks of a feature, added over the next hours and days.
        if tracker == 2 && r.chance(0.3) {
            let mut at = t;
            let mut used: Vec<String> = Vec::new();
            for _ in 0..1 + r.below(4) {
                at += r.range(2 * 60, 36 * 3_600) * SECOND;
                if at >= NOW {
                    break;
                }
                let who = if r.chance(0.6) { author } else { 5 + r.skewed(60) as i64 };
                let mut name = if r.chance(0.6) { r.pick(SUBTASKS).to_string() } else { subject(&mut r) };
                if used.contains(&name) {
                    name = subject(&mut r);
                }
                used.push(name.clone());
                let mut c = issue(at, project, *r.pick(&[2, 1]), name, description(&mut r, false), who);
                c.parent = Some(u);
                c.assignee = r.chance(0.5).then(|| 5 + r.skewed(60) as i64);
                c.due = r.chance(0.3).then(|| day(at) + r.range(1, 20) * DAY);
                c.estimate = r.chance(0.4).then(|| *r.pick(&[1.0, 2.0, 4.0, 8.0]));
                c.version = i.version;
                push(&mut v, c);
            }
        }
    }
    v.sort_by_key(|i| i.at);

    let id0 = 21_480_i64;
    let mut id_of = vec![0_i64; v.len()];
    let mut pos = vec![0_usize; v.len()];
    for (k, i) in v.iter().enumerate() {
        id_of[i.uid] = id0 + k as i64;
        pos[i.uid] = k;
    }
    // Each row's own later life, in creation order (originals before their retries).
    let mut lives: Vec<Life> = Vec::with_capacity(v.len());
    for i in &v {
        let (assignee, priority, start, due) = (i.assignee, i.priority, i.start, i.due);
        let mut l = Life { status: 1, assignee, priority, start, due, last: i.at, ..Life::default() };
        if i.mark == Mark::Retry {
            let x = r.below(100);
            let c = i.at + r.range(10 * 60, 2 * 86_400) * SECOND;
            let original = lives[pos[i.of.unwrap()]];
            if x < 35 && c < NOW {
                (l.status, l.closed, l.saves, l.last) = (6, Some(c), 1, c);
            } else if x < 65 && original.closed.is_some_and(|c| original.status == 5 && c > i.at) {
                // Related as a duplicate; closing the original closed it too, in the same second.
                let c = original.closed.unwrap() + r.range(20_000, 300_000);
                (l.status, l.closed, l.saves, l.last) = (5, Some(c), 1, c);
            }
        } else {
            let mut at = i.at;
            let steps = r.below(4);
            for _ in 0..steps {
                let next = at + r.range(20 * 60, 5 * 86_400) * SECOND;
                if next >= NOW {
                    break;
                }
                at = next;
                l.saves += 1;
                l.last = at;
                l.status = match l.status {
                    1 => *r.pick(&[2, 2, 4, 5, 6]),
                    2 => *r.pick(&[3, 3, 5, 4]),
                    3 | 4 => *r.pick(&[5, 5, 2]),
                    s => s,
                };
                if l.status == 5 || l.status == 6 {
                    l.closed = Some(at);
                }
                if l.assignee.is_none() && r.chance(0.6) {
                    l.assignee = Some(5 + r.skewed(60) as i64);
                }
                l.done = match l.status {
                    2 => 10 * r.range(1, 8),
                    3 => *r.pick(&[80, 90, 100]),
                    5 if r.chance(0.6) => 100,
                    _ => l.done,
                };
                if l.status == 5 || l.status == 6 {
                    break;
                }
            }
        }
        lives.push(l);
    }
    // Parents: priority, dates and done ratio derived from the subtasks, saved again as each one came.
    for (k, i) in v.iter().enumerate() {
        if i.parent.is_some() || !v.iter().skip(k + 1).any(|c| c.parent == Some(i.uid)) {
            continue;
        }
        let kids: Vec<usize> = (k + 1..v.len()).filter(|&c| v[c].parent == Some(i.uid)).collect();
        let open: Vec<i64> = kids.iter().filter(|&&c| lives[c].closed.is_none()).map(|&c| lives[c].priority).collect();
        let hours: Vec<f64> = kids.iter().filter_map(|&c| v[c].estimate).collect();
        let avg = if hours.is_empty() { 1.0 } else { hours.iter().sum::<f64>() / hours.len() as f64 };
        let done: f64 = kids
            .iter()
            .map(|&c| {
                v[c].estimate.unwrap_or(avg) * if lives[c].closed.is_some() { 100.0 } else { lives[c].done as f64 }
            })
            .sum();
        let l = &mut lives[k];
        l.priority = open.iter().copied().max().unwrap_or(2);
        l.start = kids.iter().filter_map(|&c| v[c].start).min();
        l.due = kids.iter().filter_map(|&c| v[c].due).max();
        l.done = (done / (avg * kids.len() as f64)).floor() as i64;
        l.saves += kids.len() as i64;
        l.last = l.last.max(kids.iter().map(|&c| v[c].at).max().unwrap_or(0));
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("issues", &columns);
    let mut cv = Child::new("custom_values", &["id", "customized_type", "customized_id", "custom_field_id", "value"]);
    for (k, i) in v.iter().enumerate() {
        let id = id0 + k as i64;
        let l = lives[k];
        // The nested set: a root holds its subtasks, in creation order, between 1 and 2n+2.
        let (root, lft, rgt) = match i.parent {
            Some(p) => {
                let n = (pos[p] + 1..k).filter(|&c| v[c].parent == Some(p)).count() as i64;
                (id_of[p], 2 + 2 * n, 3 + 2 * n)
            }
            None => {
                let n = (k + 1..v.len()).filter(|&c| v[c].parent == Some(i.uid)).count() as i64;
                (id, 1, 2 + 2 * n)
            }
        };
        f.push(&[
            ("id", V::I(id)),
            ("tracker_id", V::I(i.tracker)),
            ("project_id", V::I(i.project)),
            ("subject", V::t(&i.subject)),
            ("description", V::opt_t(i.desc.as_deref())),
            ("due_date", l.due.map_or(V::Null, date)),
            ("category_id", V::opt_i(i.category)),
            ("status_id", V::I(l.status)),
            ("assigned_to_id", V::opt_i(l.assignee)),
            ("priority_id", V::I(l.priority)),
            ("fixed_version_id", V::opt_i(i.version)),
            ("author_id", V::I(i.author)),
            ("lock_version", V::I(l.saves)),
            ("created_on", V::AtSecs(i.at)),
            ("updated_on", V::AtSecs(l.last)),
            ("start_date", l.start.map_or(V::Null, date)),
            ("done_ratio", V::I(l.done)),
            ("estimated_hours", i.estimate.map_or(V::Null, V::F)),
            ("parent_id", V::opt_i(i.parent.map(|p| id_of[p]))),
            ("root_id", V::I(root)),
            ("lft", V::I(lft)),
            ("rgt", V::I(rgt)),
            ("is_private", V::B(i.private)),
            ("closed_on", l.closed.map_or(V::Null, V::AtSecs)),
        ]);
        if let Some(p) = i.platform {
            let n = cv.rows.len() as i64;
            cv.push(&[
                ("id", V::I(91_300 + n)),
                ("customized_type", V::t("Issue")),
                ("customized_id", V::I(id)),
                ("custom_field_id", V::I(4)),
                ("value", V::t(p)),
            ]);
        }
        f.mark(id, i.mark);
    }
    f.children.push(cv);
    f
}

fn issue(at: i64, project: i64, tracker: i64, subject: String, desc: Option<String>, author: i64) -> Issue {
    Issue { at, project, tracker, subject, desc, author, priority: 2, start: Some(day(at)), ..Issue::default() }
}
