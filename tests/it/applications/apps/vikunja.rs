//! Vikunja (Go, echo + xorm v1.4.1; SQLite, MySQL/MariaDB, PostgreSQL): `tasks`, as `PUT /api/v1/projects/{id}/tasks`
//! (`Task.Create` → `createTask` → `createTasks`: the web app's quick add, the mobile app, scripts and integrations),
//! the bulk create behind a multi-line quick add, the "Duplicate" action, CalDAV clients and the Todoist, Trello and
//! CSV migrations write it, and as people, the kanban board and the cleanup cron change it afterwards.
//! Read: go-vikunja/vikunja pkg/models/tasks.go (`Task`, `createTasks`, `setNewTaskIndexes`, `calculateNextTaskIndex`,
//! `setTasksInBucketInViews`, `updateSingleTask`, `updateDone`, `setTaskDatesDefault`/`MonthRepeat`,
//! `addRepeatIntervalToTime`, `moveTaskToDoneBuckets`, `Delete`, `updateTaskLastUpdated`);
//! pkg/models/kanban_task_bucket.go (`TaskBucket`, `updateTaskBucket`); pkg/models/task_position.go;
//! pkg/models/project_view.go (`CreateDefaultViewsForProject`, `createDefaultKanbanBuckets`);
//! pkg/models/task_duplicate.go; pkg/models/task_delete_cron.go; pkg/models/label_task.go; pkg/utils/normalize_hex.go;
//! pkg/db/db.go (times kept in GMT, utf8mb4); pkg/migration/migration.go (`initSchema`: a fresh install is `Sync2` of
//! the models), 20240315110428 (bucket_id moved out to `task_buckets`; the SQLite table as xorm shapes it),
//! 20260411013328 (unique project/index), 20260707094311 (`deleted_at`);
//! pkg/modules/migration/create_from_structure.go, todoist/todoist.go, trello/trello.go, csv/csv.go;
//! pkg/routes/caldav/listStorageProvider.go (`CreateResource`), pkg/caldav/parsing.go, pkg/caldav/priority.go;
//! frontend/src/stores/tasks.ts (`buildTaskFromQuickAddTitle`, `createNewTasksBulk`),
//! frontend/src/components/tasks/AddTask.vue, frontend/src/services/task.ts (`processModel`),
//! frontend/src/models/task.ts, frontend/src/modules/quickAddMagic/dateParser.ts,
//! frontend/src/helpers/time/calculateNearestHours.ts; go.mod.
//! On a create: a fresh auto-increment `id`; `index` the project's highest (soft-deleted rows included) plus one;
//! `uid` a new lowercase UUID v4 unless the client brought one (CalDAV); `hex_color` "" (`NormalizeHex` of what was
//! sent); `created_by_id` the caller; `created` = `updated` (xorm, whole seconds, GMT); `done_at` NULL; `done`,
//! `percent_done` 0, `repeat_after`, `priority` 0 unless quick-add magic parsed them ("!3", "every week", "every month"
//! sets `repeat_mode` 1); `due_date` from "tomorrow"/"next week" at the nearest of 9/12/15/18/21 h local. Position and
//! bucket are no longer columns here: a `task_positions` row per view (not written) and a `task_buckets` row for the
//! kanban view's default bucket, the bucket it was added to, or Done (then `done` 1 and `done_at` still NULL); labels
//! from quick add bump `updated` right after. A migration sets `done`/`done_at` from the source (Todoist's completion
//! time, the import's time), restores done tasks moved into their section's bucket at the end (`updated` then).
//! Later: done (`done_at`, the row to the Done bucket), or for a repeating task `done` back to 0 with `done_at` set and
//! the due date moved on; due dates, descriptions (TipTap HTML), percent done, priority, colour, Gantt dates, covers;
//! moves to "Doing" touch only `task_buckets`; a delete sets `deleted_at` (not `updated`) and drops the `task_buckets`
//! row; the cron removes the row 30 days later (gaps in ids and indexes).
//! Retries (1 in 10 of the mobile app's and scripts' creates; the web app ignores a second Enter while it saves): the
//! app or a script timing out and sending the PUT again 10-60 s later, some once more 20-120 s after; double taps
//! 50-400 ms apart; one weekly cron post; three late in the table. Each runs `createTasks` again: a new id, index, uid,
//! times. People delete many of the extra tasks soon after (gone after 30 days), tick others off with the original,
//! work on a few, leave the rest. CalDAV creates cannot repeat (a PUT of a known UID is refused).
//! Legitimate repeats: a multi-line quick add with a line twice (ms apart); migrations of projects holding the same
//! task twice (one session, ms apart); "Duplicate" (the same content in a new row, seconds or weeks after the task
//! copied, some copies renamed after); "Milk" or "Call mom" added again after the old one was done; a script posting
//! "Weekly review" every Monday, the backup check every Friday, Home Assistant posting "Water the plants".
//! Plain near-repeats: the same title in another project, with another due date or priority, or by a teammate.
//! Guessed: users, projects, clients and rates; the client UIDs (tasks.org's numeric one); Todoist date-only dues at
//! 00:00 GMT; the Flutter app sending what the web app sends. xorm creates no foreign keys; task_positions left out.
use std::collections::HashSet;

use super::{Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, day, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::MySql];

/// The tables as xorm's `Sync2` creates them on a fresh install (`task_buckets` too, where `createTasks` files each
/// task on the kanban board).
pub fn ddl(engine: Engine) -> String {
    let mysql = engine == Engine::MySql;
    let (id, big, int, long, double) = match engine {
        Engine::MySql => ("BIGINT(20) PRIMARY KEY AUTO_INCREMENT", "BIGINT(20)", "INT", "LONGTEXT", "DOUBLE"),
        Engine::Sqlite => ("INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER", "INTEGER", "TEXT", "REAL"),
        Engine::Postgres => unreachable!("this fixture covers Vikunja on SQLite and MySQL"),
    };
    let (boolean, hex, uid) =
        if mysql { ("TINYINT(1)", "VARCHAR(6)", "VARCHAR(250)") } else { ("INTEGER", "TEXT", "TEXT") };
    let charset = if mysql { " DEFAULT CHARSET utf8mb4" } else { "" };
    let index = |table: &str, name: &str, cols: &str| {
        let kind = if name.starts_with("UQE") { "UNIQUE INDEX" } else { "INDEX" };
        format!("CREATE {kind} `{name}` ON `{table}` ({cols})")
    };
    let mut sql = vec![format!(
        "CREATE TABLE IF NOT EXISTS `tasks` (`id` {id} NOT NULL, `title` TEXT NOT NULL, `description` {long} NULL,
  `done` {boolean} NULL, `done_at` DATETIME NULL, `due_date` DATETIME NULL, `project_id` {big} NOT NULL,
  `repeat_after` {big} NULL, `repeat_mode` {int} DEFAULT 0 NOT NULL, `priority` {big} NULL, `start_date` DATETIME NULL,
  `end_date` DATETIME NULL, `hex_color` {hex} NULL, `percent_done` {double} NULL, `index` {big} DEFAULT 0 NOT NULL,
  `uid` {uid} NULL, `cover_image_attachment_id` {big} DEFAULT 0 NULL, `created` DATETIME NOT NULL,
  `updated` DATETIME NOT NULL, `deleted_at` DATETIME NULL, `created_by_id` {big} NOT NULL){charset}"
    )];
    sql.push(index("tasks", "UQE_tasks_id", "`id`"));
    for c in ["done", "done_at", "due_date", "project_id", "repeat_after", "start_date", "end_date", "deleted_at"] {
        sql.push(index("tasks", &format!("IDX_tasks_{c}"), &format!("`{c}`")));
    }
    sql.push(index("tasks", "UQE_tasks_tasks_project_index", "`project_id`,`index`"));
    sql.push(format!(
        "CREATE TABLE IF NOT EXISTS `task_buckets` (`bucket_id` {big} NOT NULL, `task_id` {big} NOT NULL,
  `project_view_id` {big} NOT NULL){charset}"
    ));
    for c in ["bucket_id", "task_id", "project_view_id"] {
        sql.push(index("task_buckets", &format!("IDX_task_buckets_{c}"), &format!("`{c}`")));
    }
    sql.push(index("task_buckets", "UQE_task_buckets_task_view", "`task_id`,`project_view_id`"));
    sql.join(";\n")
}

const COLUMNS: &str = "id title description done done_at due_date project_id repeat_after repeat_mode priority \
    start_date end_date hex_color percent_done index uid cover_image_attachment_id created updated deleted_at \
    created_by_id";

const NOW: i64 = T0;
/// A Monday.
const START: i64 = T0 - 45 * DAY;
const ID0: i64 = 31_407;
const USERS: u64 = 38;
/// Creates per hour of the day (UTC), relative: most users in Europe, some in the Americas.
const RHYTHM: [i64; 24] = [3, 2, 1, 1, 1, 2, 5, 8, 9, 9, 8, 7, 8, 8, 9, 9, 9, 8, 7, 7, 6, 5, 5, 4];
/// The first app create after each of these times is retried.
const LATE: [i64; 3] = [NOW - 16 * HOUR, NOW - 7 * HOUR, NOW - 3 * HOUR];
/// Each user's offset from UTC in hours (September: Europe on summer time).
const TZ: [i64; 10] = [2, 2, 2, 1, 2, 3, 2, -4, -4, -7];
#[rustfmt::skip]
const GROCERIES: &[&str] = &["Milk", "Oat milk", "Eggs", "Bread", "Coffee beans", "Bananas", "Butter", "Cheese",
    "Tomatoes", "Onions", "Garlic", "Pasta", "Rice", "Olive oil", "Yogurt", "Apples", "Toilet paper", "Dish soap",
    "Laundry detergent", "Cat food", "Sparkling water", "Chicken", "Spinach", "Avocados", "Batteries", "Trash bags"];
#[rustfmt::skip]
const CHORES: &[&str] = &["Call mom", "Water plants", "Take out the trash", "Pay rent", "Pay electricity bill",
    "Book dentist appointment", "Renew passport", "Change bed sheets", "Clean the bathroom", "Return package",
    "Cancel gym membership", "Schedule car service", "Vacuum living room", "Reply to landlord", "Back up photos",
    "Defrost freezer", "Pick up dry cleaning", "Mow the lawn", "Check tire pressure", "File expense report",
    "Update CV", "Go for a run", "Meal prep for the week", "Descale coffee machine", "Order contact lenses",
    "Call the bank", "Clean the fridge", "Book train tickets", "Pay phone bill", "Buy birthday present"];
#[rustfmt::skip]
const VERBS: &[&str] = &["Fix", "Review", "Update", "Write", "Prepare", "Investigate", "Document", "Test", "Refactor",
    "Draft", "Check", "Set up", "Clean up", "Migrate", "Deploy", "Plan"];
const NAMES: &[&str] = &["Anna", "Ben", "Clara", "David", "Elif", "Femi", "Greta", "Hugo", "Ines", "Jonas"];
const COLORS: &[&str] = &["1973ff", "7f23ff", "ff4136", "ff851b", "ffeb10", "00db60", "e8e8e8"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Inbox,
    Shopping,
    Home,
    Work,
    Team,
}

#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Via {
    #[default]
    Web,
    App,
    Api,
    Caldav,
    Import,
}

/// A project: its id, the next task index, its kanban view and the view's To-Do bucket (Doing and Done follow).
struct Project {
    id: i64,
    kind: Kind,
    next: i64,
    view: i64,
    bucket: i64,
}

/// A task: as the create path wrote it, then (a copy of it) as the row stands now.
#[derive(Clone, Default)]
struct Task {
    at: i64,
    proj: usize,
    user: i64,
    title: String,
    desc: String,
    done: bool,
    done_at: Option<i64>,
    due: Option<i64>,
    repeat: i64,
    mode: i64,
    priority: i64,
    /// A CalDAV client's own UID; the others are minted at the insert.
    uid: Option<String>,
    /// The kanban bucket: 0 To-Do, 1 Doing, 2 Done.
    bucket: i64,
    /// `updated` (the create request's own touch: labels added right after it).
    touch: i64,
    /// Kept as it is (a task people duplicate from).
    keep: bool,
    via: Via,
    mark: Mark,
    of: Option<usize>,
    start: Option<i64>,
    end: Option<i64>,
    percent: f64,
    hex: &'static str,
    cover: i64,
    deleted: Option<i64>,
}

fn tz(user: i64) -> i64 {
    TZ[user as usize % TZ.len()]
}

/// A due date as quick-add magic or the date picker sets it: a day ahead, at the nearest of 9/12/15/18/21 h local.
fn due_at(r: &mut Rng, at: i64, tz: i64) -> i64 {
    let local = at + tz * HOUR;
    let minutes = local.rem_euclid(DAY) / MINUTE;
    let hour = [9, 12, 15, 18, 21].into_iter().find(|&b| minutes <= b * 60).unwrap_or(9);
    let d = r.one(&[0, 1, 1, 1, 2, 3, 5, 7, 14]);
    let d = if d == 0 && minutes > 21 * 60 { 1 } else { d };
    day(local) + d * DAY + hour * HOUR - tz * HOUR
}

fn work_title(r: &mut Rng) -> String {
    let verb = *r.pick(VERBS);
    let a = *r.pick(WORDS);
    let b = *r.pick(WORDS);
    match r.below(4) {
        0 => format!("{verb} {a} {b} (#{})", r.range(100, 2_999)),
        1 => format!("{verb} {a} for {}", r.pick(NAMES)),
        _ => format!("{verb} {a} {b}"),
    }
}

fn title(r: &mut Rng, kind: Kind) -> String {
    match kind {
        Kind::Shopping => {
            let g = *r.pick(GROCERIES);
            if r.chance(0.25) { format!("Buy {}", g.to_lowercase()) } else { g.to_string() }
        }
        Kind::Inbox | Kind::Home if r.chance(0.55) => r.pick(CHORES).to_string(),
        Kind::Inbox | Kind::Home => {
            let lead = *r.pick(&["Look into", "Ask about", "Sort out", "Research", "Remember the"]);
            format!("{lead} {} {}", r.pick(WORDS), r.pick(WORDS))
        }
        Kind::Work | Kind::Team => work_title(r),
    }
}

fn html(r: &mut Rng) -> String {
    let n = 5 + r.below(12) as usize;
    format!("<p>{}</p>", sentence(r, n))
}

/// What a client sends for a new task.
fn fresh(r: &mut Rng, kind: Kind, user: i64, proj: usize, at: i64, via: Via) -> Task {
    let tz = tz(user);
    let mut title = title(r, kind);
    if via == Via::Api && matches!(kind, Kind::Work | Kind::Team) && r.chance(0.6) {
        title = format!("Reply to {}: {} {}", r.pick(NAMES), r.pick(WORDS), r.pick(WORDS));
    }
    let p_due = [0.22, 0.3, 0.4, 0.35, 0.0][via as usize];
    let mut due = if r.chance(p_due) { Some(due_at(r, at, tz)) } else { None };
    let priority = match via {
        Via::Web if r.chance(0.1) => r.range(1, 5),
        Via::Caldav => r.one(&[0, 0, 0, 0, 1, 2, 5]),
        _ => 0,
    };
    let desc = match via {
        Via::Api => html(r),
        Via::Caldav if r.chance(0.15) => html(r),
        _ => String::new(),
    };
    let (repeat, mode) = if via == Via::Web && matches!(kind, Kind::Inbox | Kind::Home) && r.chance(0.05) {
        r.one(&[(86_400, 0), (604_800, 0), (604_800, 0), (1_209_600, 0), (0, 1)])
    } else {
        (0, 0)
    };
    if (repeat > 0 || mode == 1) && due.is_none() {
        due = Some(due_at(r, at, tz));
    }
    // A CalDAV client's UID: Apple Reminders (upper case), tasks.org (a number), DAVx5/jtx Board or Thunderbird.
    let uid = match (via, r.below(3)) {
        (Via::Caldav, 0) => Some(r.uuid().to_uppercase()),
        (Via::Caldav, 1) => Some(r.range(1_000_000_000_000_000_000, 8_999_999_999_999_999_999).to_string()),
        (Via::Caldav, _) => Some(r.uuid()),
        _ => None,
    };
    let mut t =
        Task { at, proj, user, title, desc, due, repeat, mode, priority, uid, touch: at, via, ..Task::default() };
    if via == Via::Web {
        // Added on the board into "Doing", or straight into "Done" (done, but no done_at).
        let x = r.below(100);
        if x < 7 {
            t.bucket = 1;
        } else if x == 7 {
            (t.bucket, t.done) = (2, true);
        }
        if r.chance(0.12) {
            t.touch = at + r.range(80_000, 1_200_000);
        }
    }
    t
}

/// A task as a migration brings it: 0 Todoist, 1 Trello, 2 CSV.
fn imported(r: &mut Rng, from: u64, kind: Kind, user: i64, proj: usize, at: i64) -> Task {
    let title = if from == 0 { title(r, kind) } else { work_title(r) };
    let done = r.chance(if from == 0 { 0.3 } else { 0.2 });
    let done_at = match from {
        0 if done => Some(at - r.range(3_600, 200 * 86_400) * SECOND),
        _ if done => Some(at),
        _ => None,
    };
    let due = match from {
        1 if r.chance(0.25) => Some(day(at) + r.range(-20, 30) * DAY + r.one(&[9, 12, 17]) * HOUR),
        0 | 2 if r.chance(0.3) => Some(day(at) + r.range(-20, 30) * DAY),
        _ => None,
    };
    let priority = match from {
        0 if r.chance(0.25) => r.range(2, 4),
        2 if r.chance(0.2) => r.range(1, 4),
        _ => 0,
    };
    let desc = match from {
        0 if r.chance(0.15) => {
            let (a, b) = (3 + r.below(8) as usize, 3 + r.below(8) as usize);
            format!("{}\n{}", sentence(r, a), sentence(r, b))
        }
        1 if r.chance(0.4) => html(r),
        2 if r.chance(0.25) => {
            let n = 4 + r.below(10) as usize;
            sentence(r, n)
        }
        _ => String::new(),
    };
    let repeat = if from == 0 && due.is_some() && r.chance(0.06) { r.one(&[86_400, 604_800]) } else { 0 };
    let mut t = Task { at, proj, user, title, desc, done, done_at, due, repeat, priority, ..Task::default() };
    (t.bucket, t.touch, t.via) = (if done { 2 } else { 0 }, at, Via::Import);
    t
}

/// Appends a new intent; one sent before with the same content is a legitimate repeat.
fn add(v: &mut Vec<Task>, seen: &mut HashSet<String>, mut t: Task) -> usize {
    let key = format!(
        "{}|{}|{}|{}|{}|{:?}|{:?}|{}|{}|{}",
        t.proj, t.user, t.title, t.desc, t.done, t.done_at, t.due, t.repeat, t.mode, t.priority
    );
    if !seen.insert(key) {
        t.mark = Mark::Legit;
    }
    v.push(t);
    v.len() - 1
}

fn open(projects: &mut Vec<Project>, mine: &mut [Vec<usize>], id: i64, kind: Kind, members: &[i64], next: i64) {
    let k = projects.len();
    for &m in members {
        if !mine[m as usize].contains(&k) {
            mine[m as usize].push(k);
        }
    }
    projects.push(Project { id, kind, next, view: 4 * id + 9, bucket: 3 * id + 4 });
}

/// The next due date of a repeating task marked done at `now` (`addRepeatIntervalToTime`, `addOneMonthToDate`).
fn next_due(d: i64, now: i64, every: i64, mode: i64) -> i64 {
    if mode == 1 {
        let t = chrono::DateTime::from_timestamp_micros(d).unwrap();
        return t.checked_add_months(chrono::Months::new(1)).unwrap().timestamp_micros();
    }
    let step = every * SECOND;
    if d >= now { d + step } else { d + ((now - d) / step + 1) * step }
}

/// A task's own later life: edits, the board, done, deleted.
fn work(r: &mut Rng, l: &mut Task) {
    if l.keep {
        return;
    }
    let tz = tz(l.user);
    let mut at = l.touch;
    for _ in 0..r.below(6) {
        at += r.range(300, 4 * 86_400) * SECOND + r.below(1_000_000) as i64;
        if at >= NOW {
            break;
        }
        match r.below(100) {
            0..=3 => {
                l.deleted = Some(at);
                return;
            }
            4..=15 => {
                if !l.done {
                    l.bucket = 1;
                }
                continue;
            }
            16..=25 => l.due = Some(due_at(r, at, tz)),
            26..=33 => l.desc = html(r),
            34..=40 => l.percent = r.range(1, 9) as f64 / 10.0,
            41..=45 => l.priority = r.range(1, 5),
            46..=48 => l.title = format!("{} {}", l.title, r.pick(WORDS)),
            49..=50 => l.hex = *r.pick(COLORS),
            51..=52 => {
                let s = day(at + tz * HOUR) - tz * HOUR + r.range(0, 7) * DAY;
                (l.start, l.end) = (Some(s), Some(s + r.range(1, 10) * DAY));
            }
            53 => l.cover = 9_000 + r.below(4_000) as i64,
            _ if l.repeat > 0 || l.mode == 1 => {
                // Done on a repeating task: open again, the due date moved on, done_at kept.
                l.done_at = Some(at);
                l.due = l.due.map(|d| next_due(d, at, l.repeat, l.mode));
                l.bucket = 0;
            }
            _ if l.done => {
                if !r.chance(0.2) {
                    continue;
                }
                (l.done, l.done_at, l.bucket) = (false, None, 0);
            }
            _ => {
                (l.done, l.done_at, l.bucket, l.touch) = (true, Some(at), 2, at);
                if r.chance(0.85) {
                    return;
                }
                continue;
            }
        }
        l.touch = at;
    }
}

/// A retry's extra task: deleted once noticed, ticked off with the original, worked on, or left as it is.
fn retry_life(r: &mut Rng, o: &Task, l: &mut Task) {
    let x = r.below(100);
    if x < 35 {
        let d = l.at + r.range(120, 3 * 3_600) * SECOND;
        if d < NOW {
            l.deleted = Some(d);
        }
    } else if x < 55 {
        if let (true, Some(d)) = (o.done, o.done_at) {
            let at = d + r.range(2, 90) * SECOND;
            if at < NOW {
                (l.done, l.done_at, l.bucket, l.touch) = (true, Some(at), 2, at);
            }
        }
    } else if x < 70 {
        work(r, l);
    }
}

#[allow(clippy::too_many_arguments)]
fn import(
    r: &mut Rng,
    v: &mut Vec<Task>,
    seen: &mut HashSet<String>,
    projects: &mut Vec<Project>,
    mine: &mut [Vec<usize>],
    pid: &mut i64,
    u: i64,
    t: i64,
) {
    let from = r.below(3);
    // The migration job runs in the background: a project (views, buckets), then its tasks one `Create` after another.
    let mut at = t + r.range(2, 20) * SECOND;
    let mut restored: Vec<usize> = Vec::new();
    let n = if from == 2 { 1 } else { 1 + r.below(3) };
    for _ in 0..n {
        *pid += 1;
        let kind = if from == 0 { r.one(&[Kind::Home, Kind::Work]) } else { Kind::Work };
        let p = projects.len();
        open(projects, mine, *pid, kind, &[u], 1);
        at += r.range(150_000, 900_000);
        let mut made: Vec<Task> = Vec::new();
        for _ in 0..r.range(8, 60) {
            let mut task = if made.len() > 2 && r.chance(0.05) {
                made[r.below(made.len() as u64) as usize].clone()
            } else {
                imported(r, from, kind, u, p, at)
            };
            (task.at, task.touch) = (at, at);
            // Done tasks moved into their list's or section's bucket are set done again at the end.
            if task.done && (from == 1 || (from == 0 && r.chance(0.5))) {
                restored.push(v.len());
            }
            made.push(task.clone());
            add(v, seen, task);
            at += r.range(6_000, 40_000);
        }
    }
    for k in restored {
        v[k].touch = at;
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x71C0);
    let mut projects: Vec<Project> = Vec::new();
    let mut mine: Vec<Vec<usize>> = vec![Vec::new(); USERS as usize + 1];
    let mut pid = 0_i64;
    for u in 1..=USERS as i64 {
        pid += 1 + r.below(3) as i64;
        let next = r.range(20, 400);
        open(&mut projects, &mut mine, pid, Kind::Inbox, &[u], next);
        for _ in 0..1 + r.below(3) {
            pid += 1 + r.below(2) as i64;
            let kind = r.one(&[Kind::Shopping, Kind::Home, Kind::Work, Kind::Work]);
            let next = r.range(1, 250);
            open(&mut projects, &mut mine, pid, kind, &[u], next);
        }
    }
    for _ in 0..5 {
        pid += 1 + r.below(4) as i64;
        let members: Vec<i64> = (0..3 + r.below(5)).map(|_| 1 + r.below(USERS) as i64).collect();
        let next = r.range(50, 900);
        open(&mut projects, &mut mine, pid, Kind::Team, &members, next);
    }

    let mut v: Vec<Task> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let (mut imports, mut late) = (0, 0);
    let mut t = START;
    loop {
        let weekend = (t / DAY + 3) % 7 >= 5;
        t += r.range(20, 2_400) * SECOND * 10 / RHYTHM[(t / HOUR % 24) as usize] * if weekend { 3 } else { 2 } / 2;
        t += r.below(1_000_000) as i64;
        if t >= NOW - 10 * MINUTE {
            break;
        }
        let u = 1 + r.skewed(USERS) as i64;
        let ps = &mine[u as usize];
        let p = if r.chance(0.35) { ps[0] } else { *r.pick(ps) };
        let kind = projects[p].kind;
        let x = r.below(1_000);
        if x < 6 && imports < 4 && t > START + 2 * DAY {
            imports += 1;
            import(&mut r, &mut v, &mut seen, &mut projects, &mut mine, &mut pid, u, t);
            continue;
        }
        if x < 46 {
            // A multi-line quick add: one bulk request, a row per line; a line pasted twice is two tasks.
            let mut at = t;
            let mut lines: Vec<Task> = Vec::new();
            for _ in 0..2 + r.below(7) {
                let mut line = if lines.len() > 1 && r.chance(0.08) {
                    lines[r.below(lines.len() as u64) as usize].clone()
                } else {
                    fresh(&mut r, kind, u, p, at, Via::Web)
                };
                (line.at, line.touch, line.bucket, line.done) = (at, at, 0, false);
                lines.push(line.clone());
                add(&mut v, &mut seen, line);
                at += r.range(8_000, 30_000);
            }
            continue;
        }
        if x < 61 {
            // "Duplicate" on the user's latest open task here, once or a few times; some copies renamed after.
            let found = (0..v.len()).rev().take(300).find(|&k| {
                let o = &v[k];
                o.user == u && o.proj == p && o.via == Via::Web && o.mark == Mark::Plain && !o.done
            });
            if let Some(k) = found {
                v[k].keep = true;
                let (mut at, copies) = (t, if r.chance(0.3) { 2 + r.below(2) } else { 1 });
                for _ in 0..copies {
                    let mut c = Task { at, touch: at, bucket: 0, keep: false, ..v[k].clone() };
                    if r.chance(0.35) {
                        c.title = format!("{} ({})", c.title, r.pick(NAMES));
                        c.touch = at + r.range(20, 150) * SECOND;
                    }
                    add(&mut v, &mut seen, c);
                    at += r.range(3, 25) * SECOND;
                }
                continue;
            }
        }
        let forced = late < LATE.len() && t > LATE[late];
        let via = if forced {
            Via::App
        } else if u % 5 == 1 && r.chance(0.5) {
            Via::Caldav
        } else if u % 3 == 0 && r.chance(0.55) {
            Via::App
        } else if u % 7 == 2 && r.chance(0.4) {
            Via::Api
        } else {
            Via::Web
        };
        let task = fresh(&mut r, kind, u, p, t, via);
        let s = add(&mut v, &mut seen, task.clone());
        if via == Via::App || via == Via::Api {
            if forced || r.chance(0.08) {
                // The client gave up waiting and sent the same PUT again; the first request went on to commit.
                late += usize::from(forced);
                let a1 = t + r.range(10_000, 60_000) * 1_000;
                v.push(Task { at: a1, touch: a1, mark: Mark::Retry, of: Some(s), ..task.clone() });
                if r.chance(0.3) {
                    let a2 = a1 + r.range(20_000, 120_000) * 1_000;
                    v.push(Task { at: a2, touch: a2, mark: Mark::Retry, of: Some(s), ..task });
                }
            } else if r.chance(0.02) {
                let a = t + r.range(50, 400) * 1_000;
                v.push(Task { at: a, touch: a, mark: Mark::Retry, of: Some(s), ..task });
            }
        }
    }

    // Scripts: "Weekly review" on Mondays, the backup check on Fridays (retried once), Home Assistant's plant sensor.
    let work_of = |u: usize| mine[u].iter().copied().find(|&k| projects[k].kind == Kind::Work).unwrap_or(mine[u][0]);
    let team = projects.iter().position(|p| p.kind == Kind::Team).unwrap_or(0);
    let home = mine[5].iter().copied().find(|&k| projects[k].kind == Kind::Home).unwrap_or(mine[5][0]);
    let review = "<p>Inbox zero, check the calendar for next week, pick the three things that matter.</p>";
    let bots = [(2, work_of(2), "Weekly review", review, 6 * HOUR), (9, team, "Check backup reports", "", 103 * HOUR)];
    for (k, (u, p, title, desc, offset)) in bots.into_iter().enumerate() {
        let mut w = START + offset;
        while w < NOW {
            let at = w + r.range(1_000, 9_000) * 1_000;
            let mut b = fresh(&mut r, Kind::Work, u, p, at, Via::Api);
            (b.title, b.desc, b.due, b.priority) = (title.to_string(), desc.to_string(), None, 0);
            let s = add(&mut v, &mut seen, b.clone());
            if k == 1 && w == START + offset + 21 * DAY {
                let a = at + r.range(31, 45) * SECOND;
                v.push(Task { at: a, touch: a, mark: Mark::Retry, of: Some(s), ..b });
            }
            w += 7 * DAY;
        }
    }
    let mut w = START + 17 * HOUR;
    while w < NOW {
        let at = w + r.range(0, 3_599) * SECOND + r.below(1_000_000) as i64;
        let mut b = fresh(&mut r, Kind::Home, 5, home, at, Via::Api);
        (b.title, b.desc, b.due) = ("Water the plants".to_string(), String::new(), None);
        add(&mut v, &mut seen, b);
        w += r.range(2, 5) * DAY;
    }

    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by_key(|&s| v[s].at);
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("tasks", &columns);
    let mut tb = Child::new("task_buckets", &["bucket_id", "task_id", "project_view_id"]);
    let mut now: Vec<Option<Task>> = vec![None; v.len()];
    let mut present = vec![false; v.len()];
    for (k, &s) in order.iter().enumerate() {
        let id = ID0 + k as i64;
        let pr = &mut projects[v[s].proj];
        let index = pr.next;
        pr.next += 1;
        let (project, view, bucket) = (pr.id, pr.view, pr.bucket);
        let uid = v[s].uid.clone().unwrap_or_else(|| r.uuid());
        let mut l = v[s].clone();
        match l.of {
            Some(o) => {
                let orig = now[o].clone().expect("an original is inserted before its retries");
                retry_life(&mut r, &orig, &mut l);
            }
            None => work(&mut r, &mut l),
        }
        now[s] = Some(l.clone());
        // The cleanup cron removed what was deleted more than 30 days ago.
        if l.deleted.is_some_and(|d| d < NOW - 30 * DAY) {
            continue;
        }
        let group = l.of.unwrap_or(s);
        let mark = if l.mark == Mark::Retry && !present[group] { Mark::Plain } else { l.mark };
        present[group] = true;
        f.push(&[
            ("id", V::I(id)),
            ("title", V::t(&l.title)),
            ("description", V::t(&l.desc)),
            ("done", V::B(l.done)),
            ("done_at", l.done_at.map_or(V::Null, V::AtSecs)),
            ("due_date", l.due.map_or(V::Null, V::AtSecs)),
            ("project_id", V::I(project)),
            ("repeat_after", V::I(l.repeat)),
            ("repeat_mode", V::I(l.mode)),
            ("priority", V::I(l.priority)),
            ("start_date", l.start.map_or(V::Null, V::AtSecs)),
            ("end_date", l.end.map_or(V::Null, V::AtSecs)),
            ("hex_color", V::t(l.hex)),
            ("percent_done", V::F(l.percent)),
            ("index", V::I(index)),
            ("uid", V::T(uid)),
            ("cover_image_attachment_id", V::I(l.cover)),
            ("created", V::AtSecs(l.at)),
            ("updated", V::AtSecs(l.touch)),
            ("deleted_at", l.deleted.map_or(V::Null, V::AtSecs)),
            ("created_by_id", V::I(l.user)),
        ]);
        f.mark(id, mark);
        if l.deleted.is_none() {
            tb.push(&[("bucket_id", V::I(bucket + l.bucket)), ("task_id", V::I(id)), ("project_view_id", V::I(view))]);
        }
    }
    f.children.push(tb);
    f
}
