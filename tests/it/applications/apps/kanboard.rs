//! Kanboard 1.2.x (PHP, its own PicoDb; SQLite by default, MySQL/MariaDB and PostgreSQL too): `tasks`, as
//! `TaskCreationModel::create` writes it for the web form, the JSON-RPC API, the CSV import, the automatic actions,
//! recurring tasks and duplication, and as the board changes it afterwards, with its `task_has_tags` rows.
//! Read: kanboard/kanboard app/Model/TaskCreationModel.php (`create`, `prepare`), TaskFinderModel.php
//! (`countByColumnAndSwimlaneId`), TaskPositionModel.php (`movePosition`, `saveTaskPositions`), TaskStatusModel.php,
//! TaskModificationModel.php, TaskDuplicationModel.php, TaskProjectDuplicationModel.php, TaskRecurrenceModel.php,
//! TaskModel.php (status and recurrence constants), ColorModel.php, BoardModel.php (default columns);
//! app/Controller/TaskCreationController.php, app/Template/task_creation/show.php, app/Helper/TaskHelper.php,
//! app/Helper/ModelHelper.php (`resetFields`, `removeEmptyFields`), app/Core/DateParser.php,
//! app/Core/Http/Request.php and app/Core/Security/Token.php (the CSRF token is an HMAC, not one-time: a re-sent form
//! goes through); app/Api/Procedure/TaskProcedure.php (`createTask`); app/Import/TaskImport.php;
//! app/Subscriber/RecurringTaskSubscriber.php; app/Action/ TaskCreation, TaskCloseColumn, TaskUpdateStartDate,
//! TaskAssignCurrentUserColumn, TaskCloseNoActivity; libs/picodb/lib/PicoDb/Table.php and Builder/InsertBuilder.php
//! (a key given as null is inserted as NULL, a key left out takes the column default); app/Schema/Sql/mysql.sql
//! (schema 133; Mysql.php 134-139 leave `tasks` alone) and app/Schema/Sqlite.php (`version_125` rebuilt `tasks`
//! without its indexes and nothing re-created them; `version_101` made `task_has_tags`).
//! On a create: a fresh `id`; `date_creation` = `date_modification` = `date_moved` = time() (integer epoch seconds);
//! `position` = the number of open tasks in that column and swimlane + 1 (closed ones keep stale positions, so it can
//! equal a neighbour's); the project's first column and first active swimlane when none is sent, "yellow" when no
//! color; `creator_id` the session user (0 for an API app token or a webhook). The form posts every field, so empty
//! ones become 0 (`date_due`, `date_started`, `score`, `time_estimated`, `time_spent`) and `description`/`reference`
//! ''; the API sends nulls for the times (NULL); the import leaves out what the CSV lacks (NULL dates) and can import
//! closed tasks (`is_active` 0, `date_completed` NULL); a webhook's TaskCreation action sends only title, reference
//! and description (NULL `score`, dates; column defaults elsewhere). Tags go to `task_has_tags`.
//! Later: cards move between columns (`column_id`, `date_moved`, `date_modification`; both columns' open tasks are
//! renumbered), are reordered in a column (positions only), assigned, edited (priority, due date, estimate), closed
//! (`is_active` 0, `date_completed`) by hand, by "close in Done" actions, or by the daily cron's "no activity for 21
//! days" action, reopened (`date_completed` 0), deleted; "set start date" and "assign to the mover" actions fire on
//! entering column 3. A recurring task (recurrence set on the edit form after creating it) spawns its copy when
//! closed or moved to the last column: first column, due date moved on, `recurrence_parent`, and the parent gets
//! `recurrence_status` 2 and `recurrence_child`.
//! Retries (about 2% of creates): the mail and monitoring bridges' JSON-RPC calls timing out (notifications go out
//! inside the request when no worker runs) and re-sent 10-60 s later, some once more 20-120 s after; double submits
//! of the task form 50-400 ms apart; three late in the table. Each extra task lives by itself: closed as a duplicate,
//! deleted, left alone (where the cron may close it), or worked like any other.
//! Legitimate repeats: QA checklists imported from CSV with one row per device (only the tag differs), ms apart; the
//! monthly maintenance CSV imported again a month later; "Duplicate to multiple projects" copies; recurring copies;
//! an alert firing again hours later (same fingerprint); a task re-entered by hand days later. Plain near-repeats:
//! "Create another task" series (same settings, new title), "[DUPLICATE]" copies, other alerts of one check.
//! Guessed: the projects, their actions, members, tags and ids; the bridges' timeouts and formats; the cron at 08:00
//! UTC; column and category mapping of project copies (first column, no category); how people work the board.
//! Foreign keys (to projects, columns, swimlanes, tags) are left out: those tables are not here.
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::{Child, DAY, Fixture, HOUR, Mark, Rng, SECOND, T0, V, WORDS, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::MySql];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => r"CREATE TABLE `tasks` (
  `id` int(11) NOT NULL AUTO_INCREMENT, `title` mediumtext COLLATE utf8mb4_unicode_ci NOT NULL,
  `description` mediumtext COLLATE utf8mb4_unicode_ci, `date_creation` bigint(20) DEFAULT NULL,
  `date_completed` bigint(20) DEFAULT NULL, `date_due` bigint(20) DEFAULT NULL,
  `color_id` varchar(50) COLLATE utf8mb4_unicode_ci DEFAULT NULL, `project_id` int(11) NOT NULL,
  `column_id` int(11) NOT NULL, `owner_id` int(11) DEFAULT '0', `position` int(11) DEFAULT NULL,
  `score` int(11) DEFAULT NULL, `is_active` tinyint(4) DEFAULT '1', `category_id` int(11) DEFAULT '0',
  `creator_id` int(11) DEFAULT '0', `date_modification` int(11) DEFAULT '0',
  `reference` varchar(191) COLLATE utf8mb4_unicode_ci DEFAULT '', `date_started` bigint(20) DEFAULT NULL,
  `time_spent` float DEFAULT '0', `time_estimated` float DEFAULT '0', `swimlane_id` int(11) NOT NULL,
  `date_moved` bigint(20) DEFAULT NULL, `recurrence_status` int(11) NOT NULL DEFAULT '0',
  `recurrence_trigger` int(11) NOT NULL DEFAULT '0', `recurrence_factor` int(11) NOT NULL DEFAULT '0',
  `recurrence_timeframe` int(11) NOT NULL DEFAULT '0', `recurrence_basedate` int(11) NOT NULL DEFAULT '0',
  `recurrence_parent` int(11) DEFAULT NULL, `recurrence_child` int(11) DEFAULT NULL, `priority` int(11) DEFAULT '0',
  `external_provider` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `external_uri` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  PRIMARY KEY (`id`), KEY `idx_task_active` (`is_active`), KEY `column_id` (`column_id`),
  KEY `tasks_reference_idx` (`reference`), KEY `tasks_project_idx` (`project_id`),
  KEY `tasks_swimlane_ibfk_1` (`swimlane_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE `task_has_tags` (
  `task_id` int(11) NOT NULL, `tag_id` int(11) NOT NULL,
  UNIQUE KEY `tag_id` (`tag_id`,`task_id`), KEY `task_id` (`task_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci"
            .to_string(),
        Engine::Sqlite => r#"CREATE TABLE "tasks" (
    id INTEGER PRIMARY KEY, title TEXT NOCASE NOT NULL, description TEXT, date_creation INTEGER, color_id TEXT,
    project_id INTEGER, column_id INTEGER, owner_id INTEGER DEFAULT '0', position INTEGER, is_active INTEGER DEFAULT 1,
    date_completed INTEGER, score INTEGER, date_due INTEGER, category_id INTEGER DEFAULT 0,
    creator_id INTEGER DEFAULT '0', date_modification INTEGER DEFAULT '0', reference TEXT DEFAULT '',
    date_started INTEGER, time_spent NUMERIC DEFAULT 0, time_estimated NUMERIC DEFAULT 0, swimlane_id INTEGER,
    date_moved INTEGER DEFAULT 0, recurrence_status INTEGER DEFAULT 0 NOT NULL,
    recurrence_trigger INTEGER DEFAULT 0 NOT NULL, recurrence_factor INTEGER DEFAULT 0 NOT NULL,
    recurrence_timeframe INTEGER DEFAULT 0 NOT NULL, recurrence_basedate INTEGER DEFAULT 0 NOT NULL,
    recurrence_parent INTEGER, recurrence_child INTEGER, priority INTEGER DEFAULT 0, external_provider TEXT,
    external_uri TEXT);
CREATE TABLE task_has_tags (task_id INTEGER NOT NULL, tag_id INTEGER NOT NULL, UNIQUE(tag_id, task_id))"#
            .to_string(),
        Engine::Postgres => unreachable!("this fixture covers Kanboard on SQLite and MySQL"),
    }
}

const COLUMNS: &str = "id title description date_creation color_id project_id column_id owner_id position is_active \
    date_completed score date_due category_id creator_id date_modification reference date_started time_spent \
    time_estimated swimlane_id date_moved recurrence_status recurrence_trigger recurrence_factor \
    recurrence_timeframe recurrence_basedate recurrence_parent recurrence_child priority";

const NOW: i64 = T0 + 44 * DAY;
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 12 * HOUR, NOW - 8 * HOUR];
const USERS: u64 = 46;
/// Per project: columns, swimlanes, categories, flags (1 personal, 2 "close in Done", 4 "start date on entering
/// column 3", 8 "assign to the mover on entering column 3"), days without activity before the cron closes a task,
/// default priority.
const PROJECTS: &[(i64, i64, i64, u8, i64, i64)] = &[
    (4, 2, 4, 2 | 4, 0, 0), // Platform
    (4, 1, 3, 2, 21, 0),    // Support: the mail bridge
    (5, 1, 2, 8, 0, 0),     // Website: GitLab issues through the TaskCreation action
    (4, 2, 3, 2, 0, 0),     // IT operations: monitoring alerts, the monthly checklist
    (4, 1, 3, 0, 0, 1),     // Marketing
    (5, 2, 4, 4 | 8, 0, 0), // Mobile app
    (4, 1, 0, 2, 0, 0),     // QA
    (3, 1, 2, 0, 0, 0),     // Sales
    (4, 1, 3, 0, 0, 0),     // Data warehouse, migrated from Trello by CSV
    (4, 1, 0, 2, 0, 0),     // Onboarding
    (4, 1, 2, 0, 0, 0),     // Finance
    (4, 2, 2, 4, 0, 0),     // Design
    (3, 1, 0, 0, 0, 0),     // Office
    (3, 1, 0, 1, 0, 0),     // three personal boards
    (4, 1, 0, 1, 0, 0),
    (3, 1, 0, 1, 0, 0),
];
const SUPPORT: usize = 1;
const WEBSITE: usize = 2;
const OPS: usize = 3;
const QA: usize = 6;
const TRELLO: usize = 8;
const FINANCE: usize = 10;
const OFFICE: usize = 12;
const COLORS: &[&str] = &["blue", "green", "purple", "red", "orange", "grey", "brown", "deep_orange", "pink", "teal"];
const VERBS: &[&str] = &[
    "Fix",
    "Update",
    "Review",
    "Add",
    "Remove",
    "Investigate",
    "Document",
    "Migrate",
    "Test",
    "Clean up",
    "Set up",
    "Check",
    "Prepare",
    "Plan",
];
const CHECKS: &[&str] = &[
    "disk usage above 90%",
    "memory usage above 95%",
    "TLS certificate expires in 7 days",
    "backup job failed",
    "replication lag above 60s",
    "queue backlog growing",
    "HTTP 5xx rate above 2%",
];
const HOSTS: &[&str] = &["db-01", "db-02", "web-01", "web-02", "web-03", "worker-01", "backup-01", "mq-01"];
const FLOWS: &[&str] = &[
    "login",
    "signup",
    "checkout",
    "password reset",
    "push notifications",
    "offline mode",
    "file upload",
    "search",
    "settings sync",
];
/// Recurring tasks: title, project, day created, recurrence (status, trigger, factor, timeframe, basedate), due date.
const RECURRING: &[(&str, usize, i64, [i64; 5], bool)] = &[
    ("Restore test of last night's backup", OPS, 1, [1, 2, 7, 0, 0], true),
    ("Rotate the on-call schedule", OPS, 4, [1, 2, 14, 0, 1], true),
    ("Renew expiring certificates", OPS, 5, [1, 1, 1, 1, 0], true),
    ("Send the weekly status report", 0, 0, [1, 2, 7, 0, 0], true),
    ("Review open merge requests", 0, 3, [1, 2, 1, 0, 1], false),
    ("Update the sales pipeline sheet", 7, 1, [1, 2, 7, 0, 1], false),
    ("Pay the office rent", FINANCE, 6, [1, 2, 1, 1, 0], true),
    ("Order coffee beans", OFFICE, 2, [1, 2, 14, 0, 0], false),
    ("Water the plants", OFFICE, 0, [1, 2, 3, 0, 0], false),
    ("Publish the newsletter", 4, 7, [1, 2, 14, 0, 0], true),
];
/// Creates per hour of the day (UTC; a European team).
const RHYTHM: [u64; 24] = [1, 1, 1, 1, 1, 2, 4, 9, 14, 16, 15, 13, 9, 12, 14, 13, 11, 8, 5, 3, 2, 2, 1, 1];

struct Proj {
    cols: Vec<i64>,
    lanes: Vec<i64>,
    cats: Vec<i64>,
    members: Vec<i64>,
    flags: u8,
    stale: i64,
    prio: i64,
}

/// What a create writes from the request (after `prepare`'s defaults). Times in seconds, as Kanboard stores them.
#[derive(Clone)]
struct Req {
    title: String,
    desc: Option<String>,
    proj: usize,
    col: usize,
    lane: i64,
    owner: i64,
    creator: i64,
    color: &'static str,
    cat: i64,
    prio: i64,
    score: Option<i64>,
    due: Option<i64>,
    started: Option<i64>,
    estimate: Option<f64>,
    spent: Option<f64>,
    reference: String,
    recur: [i64; 5],
    active: bool,
    tags: Vec<i64>,
    parent: Option<usize>,
}

#[derive(Clone, Copy)]
enum Fate {
    Normal,
    Extra,
    Recurring,
    Seed([i64; 5]),
    Still,
}

#[derive(Clone, Copy)]
enum Ev {
    Create(usize),
    Move(usize, usize, i64),
    Reorder(usize),
    Close(usize, i64),
    Reopen(usize),
    Assign(usize, i64),
    Edit(usize),
    Recur(usize, [i64; 5]),
    Delete(usize),
    Dup(usize, i64),
    Cron,
}

/// A row as it stands now: `q` what it holds, `at`, `modified` and `moved` in microseconds, the rest as stored.
struct Task {
    q: Req,
    mark: Mark,
    id: i64,
    at: i64,
    pos: i64,
    done: Option<i64>,
    modified: i64,
    moved: i64,
    child: Option<i64>,
    deleted: bool,
}

struct Sim {
    r: Rng,
    projects: Vec<Proj>,
    reqs: Vec<(Req, Mark, Fate)>,
    tasks: Vec<Task>,
    /// The open tasks of each (project, swimlane, column).
    cells: HashMap<(usize, i64, usize), Vec<usize>>,
    events: Vec<Ev>,
    queue: BinaryHeap<Reverse<(i64, usize)>>,
    next_id: i64,
}

fn hour(r: &mut Rng) -> i64 {
    let mut x = r.below(RHYTHM.iter().sum());
    for (h, &w) in RHYTHM.iter().enumerate() {
        if x < w {
            return h as i64;
        }
        x -= w;
    }
    23
}

fn title(r: &mut Rng) -> String {
    let mut s = format!("{} {}", r.pick(VERBS), r.pick(WORDS));
    for _ in 0..r.below(3) {
        s = format!("{s} {}", r.pick(WORDS));
    }
    if r.chance(0.2) { format!("{s} for {}", r.pick(WORDS)) } else { s }
}

fn text(r: &mut Rng, nl: &str) -> String {
    if r.chance(0.25) {
        let items: Vec<String> =
            (0..2 + r.below(4)).map(|_| format!("- [ ] {} {}", r.pick(VERBS).to_lowercase(), r.pick(WORDS))).collect();
        return items.join(nl);
    }
    let paras: Vec<String> = (0..1 + r.below(3))
        .map(|_| {
            let n = 5 + r.below(12) as usize;
            sentence(&mut *r, n)
        })
        .collect();
    paras.join(&format!("{nl}{nl}"))
}

/// A due date as the date picker sends it, some days ahead.
fn due(r: &mut Rng, at: i64) -> i64 {
    (at / DAY + r.range(1, 30)) * 86_400 + r.one(&[0, 9, 12, 17]) * 3_600
}

fn blank(proj: usize, lane: i64, creator: i64) -> Req {
    Req {
        title: String::new(),
        desc: Some(String::new()),
        proj,
        col: 0,
        lane,
        owner: 0,
        creator,
        color: "yellow",
        cat: 0,
        prio: 0,
        score: Some(0),
        due: Some(0),
        started: Some(0),
        estimate: Some(0.0),
        spent: Some(0.0),
        reference: String::new(),
        recur: [0; 5],
        active: true,
        tags: Vec::new(),
        parent: None,
    }
}

/// The task form: every field posted, empty ones reset to 0.
fn form(r: &mut Rng, pj: &Proj, p: usize, user: i64, at: i64) -> Req {
    let col: usize = match r.below(20) {
        0..=14 => 0,
        15..=18 => 1,
        _ => 2,
    };
    let lane = if pj.lanes.len() > 1 && r.chance(0.3) { pj.lanes[1] } else { pj.lanes[0] };
    let owner = if pj.flags & 1 != 0 {
        user
    } else {
        match r.below(20) {
            0..=10 => 0,
            11..=15 => user,
            _ => *r.pick(&pj.members),
        }
    };
    let (a, b) = (1 + r.below(12) as i64, 1 + r.below(12) as i64);
    let tags = match r.below(20) {
        0..=1 if a != b => vec![a, b],
        0..=2 => vec![a],
        _ => Vec::new(),
    };
    Req {
        title: title(r),
        desc: Some(if r.chance(0.45) { String::new() } else { text(r, "\r\n") }),
        col: col.min(pj.cols.len() - 2),
        owner,
        color: if r.chance(0.8) { "yellow" } else { r.one(COLORS) },
        cat: if !pj.cats.is_empty() && r.chance(0.4) { *r.pick(&pj.cats) } else { 0 },
        prio: if r.chance(0.85) { pj.prio } else { r.range(0, 3) },
        score: Some(if r.chance(0.8) { 0 } else { r.one(&[1, 2, 3, 5, 8]) }),
        due: Some(if r.chance(0.7) { 0 } else { due(r, at) }),
        estimate: Some(if r.chance(0.75) { 0.0 } else { r.one(&[0.5, 1.0, 2.0, 4.0, 8.0, 16.0]) }),
        reference: if r.chance(0.05) { format!("#{}", r.range(100, 9_999)) } else { String::new() },
        tags,
        ..blank(p, lane, user)
    }
}

/// The mail bridge's `createTask` (app token: no creator; no times sent, so NULL).
fn mail(r: &mut Rng, pj: &Proj, n: i64) -> Req {
    let lead = r.one(&["Cannot", "Question about", "Problem with", "Request:", "Re:", "Urgent:"]);
    let subject = format!("{lead} {} {}", r.pick(WORDS), r.pick(WORDS));
    let from = format!(
        "From: {}{}@{}",
        r.pick(&["anna", "li", "mark", "sofia", "omar", "jan"]),
        r.range(1, 999),
        r.pick(&["example.com", "acme.io", "mail.test"])
    );
    let body: Vec<String> = (0..1 + r.below(4))
        .map(|_| {
            let k = 6 + r.below(14) as usize;
            sentence(&mut *r, k)
        })
        .collect();
    let desc = Some(format!("{from}\n\n{}", body.join("\n")));
    let reference = format!("HD-{}", 51_200 + n);
    Req { title: subject, desc, estimate: None, spent: None, reference, ..blank(SUPPORT, pj.lanes[0], 0) }
}

/// The monitoring bridge's `createTask`: one alert (check, host) always reads the same.
fn alert(pj: &Proj, (c, h): (usize, usize)) -> Req {
    let critical = c % 3 != 1;
    let sev = if critical { "critical" } else { "warning" };
    let desc = format!(
        "Alert: {}\nInstance: {}:9100\nSeverity: {sev}\nRunbook: https://wiki.internal/runbooks/{c}",
        CHECKS[c], HOSTS[h]
    );
    Req {
        title: format!("[FIRING] {} on {}", CHECKS[c], HOSTS[h]),
        desc: Some(desc),
        color: if critical { "red" } else { "orange" },
        prio: if critical { 3 } else { 2 },
        estimate: None,
        spent: None,
        reference: format!("{:016x}", ((c * 8 + h) as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        ..blank(OPS, pj.lanes[0], 0)
    }
}

impl Sim {
    fn push(&mut self, at: i64, ev: Ev) {
        if at < NOW {
            self.queue.push(Reverse((at, self.events.len())));
            self.events.push(ev);
        }
    }

    fn add(&mut self, at: i64, q: Req, mark: Mark, fate: Fate) {
        self.reqs.push((q, mark, fate));
        self.push(at, Ev::Create(self.reqs.len() - 1));
    }

    fn member(&mut self, p: usize) -> i64 {
        let i = self.r.skewed(self.projects[p].members.len() as u64) as usize;
        self.projects[p].members[i]
    }

    fn later(&mut self, at: i64, lo: i64, hi: i64) -> i64 {
        at + self.r.range(lo, hi) * SECOND + self.r.below(1_000_000) as i64
    }

    fn key(&self, ti: usize) -> (usize, i64, usize) {
        let q = &self.tasks[ti].q;
        (q.proj, q.lane, q.col)
    }

    fn leave(&mut self, ti: usize) {
        let key = self.key(ti);
        if let Some(v) = self.cells.get_mut(&key) {
            v.retain(|&x| x != ti);
        }
    }

    /// `saveTaskPositions`: the cell's other open tasks by (position, id) numbered from 1, the moving one at `p`.
    fn renumber(&mut self, key: (usize, i64, usize), moving: Option<(usize, i64)>) {
        let mut others = self.cells.get(&key).cloned().unwrap_or_default();
        others.retain(|&o| moving.is_none_or(|m| m.0 != o));
        others.sort_by_key(|&o| (self.tasks[o].pos, self.tasks[o].id));
        let mut offset = 1;
        for o in others {
            if let Some((m, p)) = moving.filter(|m| m.1 == offset) {
                self.tasks[m].pos = p;
                offset += 1;
            }
            self.tasks[o].pos = offset;
            offset += 1;
        }
        if let Some((m, p)) = moving.filter(|m| m.1 >= offset) {
            self.tasks[m].pos = offset.min(p);
        }
    }

    fn create(&mut self, k: usize, at: i64) {
        let (q, mark, fate) = (self.reqs[k].0.clone(), self.reqs[k].1, self.reqs[k].2);
        let (key, proj, parent, active) = ((q.proj, q.lane, q.col), q.proj, q.parent, q.active);
        let pos = self.cells.get(&key).map_or(0, Vec::len) as i64 + 1;
        let (id, ti) = (self.next_id, self.tasks.len());
        self.next_id += 1;
        let (done, modified, moved, child, deleted) = (None, at, at, None, false);
        self.tasks.push(Task { q, mark, id, at, pos, done, modified, moved, child, deleted });
        if let Some(p) = parent {
            (self.tasks[p].q.recur[0], self.tasks[p].child) = (2, Some(id));
        }
        if !active {
            return;
        }
        self.cells.entry(key).or_default().push(ti);
        match fate {
            Fate::Normal => self.normal(ti, at),
            Fate::Recurring => self.recurring(ti, at),
            Fate::Seed(rec) => {
                let a = self.later(at, 60, 600);
                self.push(a, Ev::Recur(ti, rec));
            }
            Fate::Extra => {
                let who = self.member(proj);
                match self.r.below(100) {
                    0..=34 => {
                        let a = self.later(at, 600, 2 * 86_400);
                        self.push(a, Ev::Close(ti, who));
                    }
                    35..=49 => {
                        let a = self.later(at, 120, 86_400);
                        self.push(a, Ev::Delete(ti));
                    }
                    50..=74 => {}
                    _ => self.normal(ti, at),
                }
            }
            Fate::Still => {}
        }
    }

    /// A card's way across the board.
    fn normal(&mut self, ti: usize, at: i64) {
        let (p, c0, owner) = (self.tasks[ti].q.proj, self.tasks[ti].q.col, self.tasks[ti].q.owner);
        let (n, flags) = (self.projects[p].cols.len(), self.projects[p].flags);
        let who = if owner > 0 { owner } else { self.member(p) };
        let pace = self.r.one(&[2 * 3_600, 8 * 3_600, 86_400, 3 * 86_400]);
        if self.r.chance(0.05) {
            let a = self.later(at, 600, 4 * 86_400);
            self.push(a, Ev::Close(ti, who));
            return;
        }
        let (mut t, mut c) = (at, c0);
        while c + 1 < n && !self.r.chance(0.12) {
            t = self.later(t, pace / 4, pace * 2);
            c += 1;
            self.push(t, Ev::Move(ti, c, who));
            if owner == 0 && self.r.chance(0.25) {
                let a = self.later(t, 2, 40);
                self.push(a, Ev::Assign(ti, who));
            }
        }
        if c + 1 == n && flags & 2 == 0 && self.r.chance(0.75) {
            t = self.later(t, 600, 3 * 86_400);
            self.push(t, Ev::Close(ti, who));
        }
        let x = self.r.below(1_000);
        let a = self.later(at, 300, 8 * 86_400);
        let reopen = self.later(t, 86_400, 5 * 86_400).max(a);
        match x {
            0..=29 => self.push(reopen, Ev::Reopen(ti)),
            30..=109 => self.push(a, Ev::Edit(ti)),
            110..=189 => self.push(a, Ev::Reorder(ti)),
            190..=204 => self.push(a, Ev::Delete(ti)),
            205..=214 => self.push(a, Ev::Dup(ti, who)),
            _ => {}
        }
    }

    /// One turn of a recurring task: done within its period, then closed (or moved to the last column).
    fn recurring(&mut self, ti: usize, at: i64) {
        let (p, rec, owner) = (self.tasks[ti].q.proj, self.tasks[ti].q.recur, self.tasks[ti].q.owner);
        let n = self.projects[p].cols.len();
        let period = rec[2] * if rec[3] == 1 { 30 * 86_400 } else { 86_400 };
        let who = if owner > 0 { owner } else { self.member(p) };
        let end = self.later(at, period * 55 / 100, period * 105 / 100);
        if self.r.chance(0.5) {
            self.push(at + (end - at) / 2, Ev::Move(ti, (n - 2).min(2), who));
        }
        self.push(end, if rec[1] == 1 { Ev::Move(ti, n - 1, who) } else { Ev::Close(ti, who) });
    }

    /// `copyFields` and a create: the recurring copy (first column, due date moved on) or the "[DUPLICATE]" one.
    fn spawn(&mut self, ti: usize, at: i64, who: i64, dup: bool) {
        let q = &self.tasks[ti].q;
        let mut c = Req {
            title: if dup { format!("[DUPLICATE] {}", q.title) } else { q.title.clone() },
            col: if dup { q.col } else { 0 },
            creator: who,
            started: None,
            spent: Some(0.0),
            active: true,
            parent: (!dup).then_some(ti),
            ..q.clone()
        };
        let (mark, fate) = if dup { (Mark::Plain, Fate::Normal) } else { (Mark::Legit, Fate::Recurring) };
        if let Some(d) = c.due.filter(|&d| d != 0 && !dup) {
            let base = if c.recur[4] == 1 { at / SECOND } else { d };
            c.due = Some(match c.recur[3] {
                1 => chrono::DateTime::from_timestamp(base, 0)
                    .and_then(|x| x.checked_add_months(chrono::Months::new(c.recur[2] as u32)))
                    .map_or(base, |x| x.timestamp()),
                _ => base + c.recur[2] * 86_400,
            });
        }
        let a = at + self.r.range(5_000, 40_000);
        self.add(a, c, mark, fate);
    }

    fn close(&mut self, ti: usize, who: i64, at: i64) {
        if !self.tasks[ti].q.active || self.tasks[ti].deleted {
            return;
        }
        self.leave(ti);
        let t = &mut self.tasks[ti];
        (t.q.active, t.done, t.modified) = (false, Some(at / SECOND), at);
        if t.q.recur[0] == 1 && t.q.recur[1] == 2 {
            self.spawn(ti, at, who, false);
        }
    }

    fn move_to(&mut self, ti: usize, c: usize, who: i64, at: i64) {
        let (proj, lane, from) = self.key(ti);
        if !self.tasks[ti].q.active || self.tasks[ti].deleted || from == c {
            return;
        }
        self.leave(ti);
        self.renumber((proj, lane, from), None);
        let dst = (proj, lane, c);
        let len = self.cells.get(&dst).map_or(0, Vec::len) as u64;
        let pos = match self.r.below(4) {
            0 => 1,
            1 => 1 + self.r.below(len + 1) as i64,
            _ => len as i64 + 1,
        };
        self.renumber(dst, Some((ti, pos)));
        self.cells.entry(dst).or_default().push(ti);
        let (n, flags) = (self.projects[proj].cols.len(), self.projects[proj].flags);
        let t = &mut self.tasks[ti];
        (t.q.col, t.moved, t.modified) = (c, at, at);
        if c == 2 && c + 1 < n {
            if flags & 4 != 0 {
                t.q.started = Some(at / SECOND);
            }
            if flags & 8 != 0 {
                t.q.owner = who;
            }
        }
        let rec = t.q.recur;
        if rec[0] == 1 && ((rec[1] == 0 && from == 0) || (rec[1] == 1 && c + 1 == n)) {
            self.spawn(ti, at, who, false);
        }
        if c + 1 == n && flags & 2 != 0 {
            let a = at + self.r.range(20_000, 300_000);
            self.close(ti, who, a);
        }
    }

    fn ok(&self, ti: usize) -> bool {
        !self.tasks[ti].deleted
    }

    fn run(&mut self) {
        while let Some(Reverse((at, e))) = self.queue.pop() {
            let ev = self.events[e];
            match ev {
                Ev::Create(k) => self.create(k, at),
                Ev::Move(ti, c, who) => self.move_to(ti, c, who, at),
                Ev::Close(ti, who) => self.close(ti, who, at),
                Ev::Reorder(ti) if self.tasks[ti].q.active && self.ok(ti) => {
                    let key = self.key(ti);
                    let len = self.cells.get(&key).map_or(1, Vec::len) as u64;
                    let p = 1 + self.r.below(len) as i64;
                    self.renumber(key, Some((ti, p)));
                }
                Ev::Reopen(ti) if !self.tasks[ti].q.active && self.ok(ti) && self.tasks[ti].done.is_some() => {
                    let t = &mut self.tasks[ti];
                    (t.q.active, t.done, t.modified) = (true, Some(0), at);
                    let key = self.key(ti);
                    self.cells.entry(key).or_default().push(ti);
                }
                Ev::Assign(ti, who) if self.tasks[ti].q.active && self.ok(ti) => {
                    (self.tasks[ti].q.owner, self.tasks[ti].modified) = (who, at);
                }
                Ev::Edit(ti) if self.ok(ti) => {
                    let x = self.r.below(3);
                    let (p, d, est) = (self.r.range(0, 3), due(&mut self.r, at), self.r.one(&[1.0, 2.0, 4.0, 8.0]));
                    let t = &mut self.tasks[ti];
                    match x {
                        0 => t.q.prio = p,
                        1 => t.q.due = Some(d),
                        _ => t.q.estimate = Some(est),
                    }
                    t.modified = at;
                }
                Ev::Recur(ti, rec) if self.ok(ti) => {
                    (self.tasks[ti].q.recur, self.tasks[ti].modified) = (rec, at);
                    self.recurring(ti, at);
                }
                Ev::Delete(ti) if self.ok(ti) => {
                    self.leave(ti);
                    self.tasks[ti].deleted = true;
                }
                Ev::Dup(ti, who) if self.tasks[ti].q.active && self.ok(ti) => self.spawn(ti, at, who, true),
                Ev::Cron => {
                    // TaskCloseNoActivity: open tasks of the project not modified for `stale` days.
                    let stale: Vec<(usize, i64)> = self
                        .projects
                        .iter()
                        .enumerate()
                        .filter(|(_, pj)| pj.stale > 0)
                        .map(|(p, pj)| (p, pj.stale * DAY))
                        .collect();
                    for (p, stale) in stale {
                        let mut open: Vec<usize> =
                            self.cells.iter().filter(|(k, _)| k.0 == p).flat_map(|(_, v)| v.clone()).collect();
                        open.sort_unstable();
                        for (i, ti) in open.into_iter().enumerate() {
                            if self.tasks[ti].modified < at - stale {
                                self.close(ti, 0, at + 30_000 * i as i64);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(4_812);
    let (mut col, mut lane, mut cat) = (1, 1, 1);
    let mut projects = Vec::new();
    for (k, &(nc, nl, ncat, flags, stale, prio)) in PROJECTS.iter().enumerate() {
        let mut members: Vec<i64> = vec![2 + (k as i64 * 7) % USERS as i64];
        if flags & 1 == 0 {
            for _ in 0..4 + r.below(10) {
                let u = 2 + (r.skewed(USERS) + 5 * k as u64) % USERS;
                if !members.contains(&(u as i64)) {
                    members.push(u as i64);
                }
            }
        }
        let (cols, lanes, cats) = ((col..col + nc).collect(), (lane..lane + nl).collect(), (cat..cat + ncat).collect());
        projects.push(Proj { cols, lanes, cats, members, flags, stale, prio });
        (col, lane, cat) = (col + nc + r.below(2) as i64, lane + nl, cat + ncat);
    }
    let mut s = Sim {
        r,
        projects,
        reqs: Vec::new(),
        tasks: Vec::new(),
        cells: HashMap::new(),
        events: Vec::new(),
        queue: BinaryHeap::new(),
        next_id: 4_517,
    };
    for d in 1..44 {
        let a = T0 + d * DAY + 8 * HOUR + s.r.range(1, 40) * SECOND;
        s.push(a, Ev::Cron);
    }
    let (mut late, mut mails, mut iid) = (0, 0, 1_180);
    let mut fired: Vec<(usize, usize)> = Vec::new();
    for d in 0..44 {
        let n = if (3 + d) % 7 >= 5 { s.r.range(2, 8) } else { s.r.range(46, 66) };
        let mut times: Vec<i64> =
            (0..n).map(|_| T0 + d * DAY + hour(&mut s.r) * HOUR + s.r.below(HOUR as u64) as i64).collect();
        times.sort_unstable();
        for t in times {
            let p = if s.r.chance(0.04) { 13 + s.r.below(3) as usize } else { s.r.skewed(13) as usize };
            let forced = late < LATE.len() && t > LATE[late];
            let api = (p == SUPPORT && s.r.chance(0.7)) || (p == OPS && s.r.chance(0.4));
            if api {
                let (q, mark) = if p == SUPPORT {
                    mails += 1;
                    (mail(&mut s.r, &s.projects[p], mails), Mark::Plain)
                } else {
                    let k = s.r.skewed(24) as usize;
                    let key = (k % CHECKS.len(), (k / CHECKS.len() + 3 * k) % HOSTS.len());
                    let again = fired.contains(&key);
                    fired.push(key);
                    (alert(&s.projects[p], key), if again { Mark::Legit } else { Mark::Plain })
                };
                s.add(t, q.clone(), mark, Fate::Normal);
                if forced || s.r.chance(0.09) {
                    late += usize::from(forced);
                    let a1 = s.later(t, 10, 60);
                    s.add(a1, q.clone(), Mark::Retry, Fate::Extra);
                    if s.r.chance(0.3) {
                        let a2 = s.later(a1, 20, 120);
                        s.add(a2, q, Mark::Retry, Fate::Extra);
                    }
                }
                continue;
            }
            if p == WEBSITE && !forced && s.r.chance(0.35) {
                iid += 1;
                let desc = Some(if s.r.chance(0.3) { String::new() } else { text(&mut s.r, "\n") });
                let q = Req {
                    title: title(&mut s.r),
                    desc,
                    score: None,
                    due: None,
                    started: None,
                    reference: iid.to_string(),
                    ..blank(p, s.projects[p].lanes[0], 0)
                };
                s.add(t, q, Mark::Plain, Fate::Normal);
                continue;
            }
            let user = s.member(p);
            let q = form(&mut s.r, &s.projects[p], p, user, t);
            s.add(t, q.clone(), Mark::Plain, Fate::Normal);
            if forced || s.r.chance(0.009) {
                late += usize::from(forced);
                let a = t + s.r.range(50_000, 400_000);
                s.add(a, q.clone(), Mark::Retry, Fate::Extra);
            } else if q.due == Some(0) && s.r.chance(0.012) {
                let a = s.later(t, 86_400, 9 * 86_400);
                s.add(a, q.clone(), Mark::Legit, Fate::Normal);
            }
            if s.r.chance(0.07) {
                // "Create another task": the form comes back with owner, color, category, column and swimlane.
                let mut a = t;
                for _ in 0..1 + s.r.below(4) {
                    a = s.later(a, 15, 90);
                    let next = form(&mut s.r, &s.projects[p], p, user, a);
                    let next = Req { owner: q.owner, color: q.color, cat: q.cat, col: q.col, lane: q.lane, ..next };
                    s.add(a, next, Mark::Plain, Fate::Normal);
                }
            } else if s.projects[p].flags & 1 == 0 && s.r.chance(0.012) {
                // "Duplicate to multiple projects": the projects picked on the next page, copied in one request.
                let mut a = s.later(t, 5, 40);
                let mut done = vec![p];
                for _ in 0..1 + s.r.below(3) {
                    let dp = s.r.below(13) as usize;
                    if done.contains(&dp) {
                        continue;
                    }
                    done.push(dp);
                    let dst = &s.projects[dp];
                    let c = Req {
                        proj: dp,
                        col: if q.col + 1 < dst.cols.len() { q.col } else { 0 },
                        lane: dst.lanes[0],
                        cat: 0,
                        owner: if dst.members.contains(&q.owner) { q.owner } else { 0 },
                        started: None,
                        ..q.clone()
                    };
                    s.add(a, c, Mark::Legit, Fate::Normal);
                    a += s.r.range(15_000, 40_000);
                }
            }
        }
    }
    // The Trello board migrated by CSV: columns by name, closed cards imported closed.
    let user = s.member(TRELLO);
    let mut a = T0 + 2 * DAY + 14 * HOUR + s.r.below(HOUR as u64) as i64;
    for _ in 0..s.r.range(60, 80) {
        let n = s.projects[TRELLO].cols.len();
        let c = s.r.below(n as u64) as usize;
        let closed = (c + 1 == n && s.r.chance(0.8)) || s.r.chance(0.05);
        let owner = if s.r.chance(0.6) { s.member(TRELLO) } else { 0 };
        let r = &mut s.r;
        let pj = &s.projects[TRELLO];
        let q = Req {
            title: title(r),
            desc: Some(if r.chance(0.4) { String::new() } else { text(r, "\n") }),
            col: c,
            owner,
            color: if r.chance(0.5) { "yellow" } else { r.one(COLORS) },
            cat: if r.chance(0.5) { *r.pick(&pj.cats) } else { 0 },
            prio: r.range(0, 3),
            score: Some(if r.chance(0.7) { 0 } else { r.one(&[1, 2, 3, 5]) }),
            due: if r.chance(0.3) { Some(due(r, a - 20 * DAY)) } else { None },
            started: None,
            estimate: Some(if r.chance(0.7) { 0.0 } else { r.one(&[1.0, 2.0, 4.0]) }),
            spent: Some(if closed && r.chance(0.5) { r.one(&[0.5, 1.0, 3.0]) } else { 0.0 }),
            active: !closed,
            tags: if r.chance(0.3) { vec![1 + r.below(12) as i64] } else { Vec::new() },
            ..blank(TRELLO, pj.lanes[0], user)
        };
        s.add(a, q, Mark::Plain, if closed { Fate::Still } else { Fate::Normal });
        a += s.r.range(15_000, 45_000);
    }
    // QA checklists: one row per test case and device, the device a tag (ids 21-24).
    for (d, ver) in [(9, "2.14"), (30, "2.15")] {
        let user = s.member(QA);
        let mut a = T0 + d * DAY + 10 * HOUR + s.r.below(HOUR as u64) as i64;
        let first = s.r.below(3) as usize;
        for flow in &FLOWS[first..first + 5 + s.r.below(2) as usize] {
            let desc = Some(text(&mut s.r, "\n"));
            for tag in 21..25 {
                let q = Req {
                    title: format!("Verify {flow} on release {ver}"),
                    desc: desc.clone(),
                    due: None,
                    started: None,
                    tags: vec![tag],
                    ..blank(QA, s.projects[QA].lanes[0], user)
                };
                s.add(a, q, if tag == 21 { Mark::Plain } else { Mark::Legit }, Fate::Normal);
                a += s.r.range(15_000, 45_000);
            }
        }
    }
    // The monthly maintenance checklist, the same CSV imported again a month later.
    let user = s.member(OPS);
    let items: Vec<(String, i64, f64)> =
        (0..s.r.range(10, 14)).map(|_| (title(&mut s.r), s.member(OPS), s.r.one(&[0.0, 0.5, 1.0, 2.0]))).collect();
    for (d, mark) in [(0, Mark::Plain), (32, Mark::Legit)] {
        let mut a = T0 + d * DAY + 9 * HOUR + s.r.below(HOUR as u64) as i64;
        for (t, owner, e) in &items {
            let q = Req {
                title: t.clone(),
                owner: *owner,
                cat: s.projects[OPS].cats[0],
                estimate: Some(*e),
                due: None,
                started: None,
                ..blank(OPS, s.projects[OPS].lanes[0], user)
            };
            s.add(a, q, mark, Fate::Normal);
            a += s.r.range(15_000, 45_000);
        }
    }
    for &(name, p, d, rec, dated) in RECURRING {
        let (user, a) = (s.member(p), T0 + d * DAY + 9 * HOUR + s.r.range(0, 7_200) * SECOND);
        let q = form(&mut s.r, &s.projects[p], p, user, a);
        let when = if dated { due(&mut s.r, a) } else { 0 };
        let q = Req { title: name.to_string(), col: 0, owner: user, due: Some(when), tags: Vec::new(), ..q };
        s.add(a, q, Mark::Plain, Fate::Seed(rec));
    }
    s.run();

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("tasks", &columns);
    let mut tags = Child::new("task_has_tags", &["task_id", "tag_id"]);
    for t in s.tasks.iter().filter(|t| !t.deleted) {
        let q = &t.q;
        let float = |x: Option<f64>| x.map_or(V::Null, V::F);
        f.push(&[
            ("id", V::I(t.id)),
            ("title", V::t(&q.title)),
            ("description", V::opt_t(q.desc.as_deref())),
            ("date_creation", V::I(t.at / SECOND)),
            ("color_id", V::t(q.color)),
            ("project_id", V::I(q.proj as i64 + 1)),
            ("column_id", V::I(s.projects[q.proj].cols[q.col])),
            ("owner_id", V::I(q.owner)),
            ("position", V::I(t.pos)),
            ("is_active", V::I(i64::from(q.active))),
            ("date_completed", V::opt_i(t.done)),
            ("score", V::opt_i(q.score)),
            ("date_due", V::opt_i(q.due)),
            ("category_id", V::I(q.cat)),
            ("creator_id", V::I(q.creator)),
            ("date_modification", V::I(t.modified / SECOND)),
            ("reference", V::t(&q.reference)),
            ("date_started", V::opt_i(q.started)),
            ("time_spent", float(q.spent)),
            ("time_estimated", float(q.estimate)),
            ("swimlane_id", V::I(q.lane)),
            ("date_moved", V::I(t.moved / SECOND)),
            ("recurrence_status", V::I(q.recur[0])),
            ("recurrence_trigger", V::I(q.recur[1])),
            ("recurrence_factor", V::I(q.recur[2])),
            ("recurrence_timeframe", V::I(q.recur[3])),
            ("recurrence_basedate", V::I(q.recur[4])),
            ("recurrence_parent", V::opt_i(q.parent.map(|p| s.tasks[p].id))),
            ("recurrence_child", V::opt_i(t.child)),
            ("priority", V::I(q.prio)),
        ]);
        for &tag in &q.tags {
            tags.push(&[("task_id", V::I(t.id)), ("tag_id", V::I(tag))]);
        }
        f.mark(t.id, t.mark);
    }
    f.children.push(tags);
    f
}
