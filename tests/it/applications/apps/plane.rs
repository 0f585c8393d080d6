//! Plane (Python, Django REST framework; PostgreSQL only): `issues` ("work items"), as the web app's create modal and
//! quick add (`IssueViewSet.create` with `IssueCreateSerializer`), the intake (in the app and on the public board), the
//! public API (`POST /api/v1/.../work-items/`: integrations, bots, the importers) and `Issue.save()` write it, and as
//! people work on it later: 12 projects in two workspaces, 45 days.
//! Read: makeplane/plane (4ca6d6c) apps/api/plane/db/models/issue.py (`Issue.save`, `_ensure_default_state`,
//! `_sync_completed_at`, `IssueAssignee`, `IssueSequence`), db/models/base.py, db/mixins.py, db/models/project.py
//! (`ProjectBaseModel`), db/models/state.py (`DEFAULT_STATES`), db/migrations/ 0001_initial, 0012, 0013, 0018, 0020,
//! 0027, 0028, 0037, 0043, 0046, 0051, 0065, 0066, 0067, 0070, 0073, 0117; app/views/issue/base.py,
//! app/serializers/issue.py (`IssueCreateSerializer.create`/`update`), api/views/issue.py and api/serializers/issue.py
//! (the external id check, the lxml round trip, the second save of `created_at`/`created_by`),
//! app/views/intake/base.py, app/serializers/intake.py, space/views/intake.py, utils/html_processor.py (`strip_tags`),
//! utils/content_validator.py, bgtasks/issue_automation_task.py and celery.py (auto-archive at 01:00 UTC),
//! app/views/importer.py before a852e3c; apps/web/core/components/issues/issue-modal/form.tsx and base.tsx,
//! issue-layouts/quick-add/root.tsx, issue-layouts/utils.tsx (`handleSortOrder`, `handleGroupDragDrop`),
//! packages/constants/src/issue/modal.ts, packages/utils/src/work-item/base.ts (`createIssuePayload`),
//! packages/editor/src/core/extensions/starter-kit.ts. Column order, index and constraint names checked against a
//! pg_dump of Plane's schema found by code search; the importers' transforms (Plane's separate importer service:
//! `external_source` "JIRA"/"LINEAR", the Jira external id `{project}_{cloud}_{issue id}`, `created_at` and
//! `created_by` from the source, `<p></p>` for no description) seen the same way.
//! On a create: `id` a fresh uuid4; `sequence_id` the project's largest `IssueSequence` + 1 (under an advisory lock; a
//! deleted issue keeps its number); `state_id` what the client sent (the board column on a quick add, Triage in the
//! intake, the mapped state on an import) else the project's default state (Backlog); `sort_order` the largest
//! `sort_order` of the live issues of that project and state + 10000, else 65535; `description_stripped` the text of
//! `description_html` run together ("" for the empty editor's `<p></p>`, the default a quick add gets);
//! `description_json` {} (no client sends it), `description_binary`, `point` and `type_id` NULL, `is_draft` false;
//! `created_by_id` the user, `updated_by_id` NULL until someone edits it; `completed_at` set when created in a
//! completed state; `created_at`/`updated_at` microseconds apart. The public API runs the same save, then saves
//! `created_at` (now, a few ms on, or the source's time for an import) and `created_by` again, so `created_at` trails
//! `updated_at`; lxml puts a multi-paragraph description in one `<div>`; it refuses (409) a second item with the same
//! `external_source`/`external_id`, so an importer's retries make no rows. Assignees (sent, else the project's default
//! assignee) go to `issue_assignees` (not written here).
//! Later: state moves from the dropdown keep `sort_order`; drags on the board set it from the neighbours (±65535 or the
//! midpoint); a move to Done sets `completed_at`, out of it clears it; assigning (through `issue_assignees`) saves the
//! issue too; priority, target date and estimate edits; every save bumps `updated_at` and sets `updated_by_id`; a
//! delete is soft (`deleted_at`); an archive sets `archived_at` (a date), by hand or by the nightly job for completed
//! and cancelled issues untouched for 30 days (projects with auto-archive on). Accepting an intake issue moves it from
//! Triage to Backlog (same `sort_order`); a declined one is not saved again.
//! Retries (about 1.4% of creates): double submits of the modal or quick add 50-400 ms apart; a create re-sent 10-60 s
//! after a hung request (some once more 20-120 s later), by people and by bots posting to the API without an external
//! id; three in the last day. Each extra row got its own number, position and fate: deleted, moved to Cancelled as a
//! duplicate, left alone, or worked on. Legitimate repeats: the same issue filed into two projects (20 s-5 min apart);
//! an issue deleted by its author and filed again; n8n's weekly and fortnightly chores; tickets filed twice at the
//! source, imported milliseconds apart with their own external ids and times. Plain near-repeats: "create more"
//! batches, the alert bot's issues that differ in their counts, intake reports, titles people reuse.
//! Guessed: the teams, projects, rates and rhythms; the clients' retries; the n8n workflows; which projects have
//! estimates, intake, default assignees and auto-archive; the importers' pacing and state mapping.
use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, day, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as Django's migrations leave it (created as "issue", renamed in 0012: the old index names stay), with its
/// foreign key to itself (the parent) but not those to users, projects, workspaces, states, estimates and types.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"CREATE TABLE "issues" (
    "created_at" timestamp with time zone NOT NULL, "updated_at" timestamp with time zone NOT NULL, "id" uuid NOT NULL,
    "name" varchar(255) NOT NULL, "description_json" jsonb NOT NULL, "priority" varchar(30) NOT NULL,
    "start_date" date NULL, "target_date" date NULL, "sequence_id" integer NOT NULL, "created_by_id" uuid NULL,
    "parent_id" uuid NULL, "project_id" uuid NOT NULL, "state_id" uuid NULL, "updated_by_id" uuid NULL,
    "workspace_id" uuid NOT NULL, "description_html" text NOT NULL, "description_stripped" text NULL,
    "completed_at" timestamp with time zone NULL, "sort_order" double precision NOT NULL, "point" integer NULL,
    "archived_at" date NULL, "is_draft" boolean NOT NULL, "external_id" varchar(255) NULL,
    "external_source" varchar(255) NULL, "description_binary" bytea NULL, "estimate_point_id" uuid NULL,
    "type_id" uuid NULL, "deleted_at" timestamp with time zone NULL,
    CONSTRAINT "issue_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "issue_parent_id_ce8d76ba_fk_issue_id" FOREIGN KEY ("parent_id") REFERENCES "issues" ("id")
        DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX "issue_created_by_id_8f0ae62b" ON "issues" ("created_by_id");
CREATE INDEX "issue_parent_id_ce8d76ba" ON "issues" ("parent_id");
CREATE INDEX "issue_project_id_fea0fc80" ON "issues" ("project_id");
CREATE INDEX "issue_state_id_1a65560d" ON "issues" ("state_id");
CREATE INDEX "issue_updated_by_id_f1261863" ON "issues" ("updated_by_id");
CREATE INDEX "issue_workspace_id_c84878c1" ON "issues" ("workspace_id");
CREATE INDEX "issues_estimate_point_id_a6822abe" ON "issues" ("estimate_point_id");
CREATE INDEX "issues_type_id_a4710b19" ON "issues" ("type_id");"#
            .to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("Plane runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "created_at updated_at id name description_json priority start_date target_date sequence_id \
    created_by_id parent_id project_id state_id updated_by_id workspace_id description_html description_stripped \
    completed_at sort_order point archived_at is_draft external_id external_source description_binary \
    estimate_point_id type_id deleted_at";

const NOW: i64 = T0;
const START: i64 = T0 - 45 * DAY;
/// Creates per hour of the day (UTC), relative: teams in India and Europe.
const RHYTHM: [i64; 24] = [1, 1, 2, 4, 8, 10, 10, 10, 9, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 2, 1, 1, 1, 1];
/// The first create after each of these is re-sent after a hung request.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 9 * HOUR, NOW - 2 * HOUR];
/// Projects: (workspace, issues numbered before the window, estimates, auto-archive after a month, intake, a default
/// assignee). LEG and MIG were made for the Linear and the Jira import.
#[rustfmt::skip]
const SPECS: [(usize, i64, bool, bool, bool, bool); 12] = [
    (0, 1_184, true, true, false, false), (0, 936, true, true, false, false), (0, 412, false, false, false, false),
    (0, 655, false, true, false, true), (0, 203, false, false, false, false), (0, 1_530, false, true, true, true),
    (0, 88, true, false, false, false), (0, 0, false, false, false, false), (1, 741, true, true, false, false),
    (1, 317, false, false, false, false), (1, 268, false, true, true, true), (1, 0, false, false, false, false),
];
/// The projects by how busy they are.
const BUSY: [usize; 10] = [0, 1, 5, 2, 8, 3, 4, 9, 6, 10];
const WEB: usize = 0;
const API: usize = 1;
const OPS: usize = 3;
const SUP: usize = 5;
const LEG: usize = 7;
const INFRA: usize = 10;
const MIG: usize = 11;
/// Users 0-43 are people (0-31 in the first workspace, 26-43 in the second), then n8n's and the alert bot, then guests
/// who only report through the public board's intake.
const N8N: usize = 44;
const ALERTS: usize = 45;
const USERS: usize = 60;

const VERBS: &[&str] = &["Fix", "Add", "Update", "Refactor", "Investigate", "Remove", "Migrate", "Improve", "Support"];
#[rustfmt::skip]
const THINGS: &[&str] = &[
    "login redirect", "invoice PDF export", "webhook retries", "dark mode toggle", "search filters", "CSV import",
    "onboarding checklist", "rate limiter", "password reset email", "billing page", "sidebar navigation",
    "notification settings", "audit log", "SSO with Okta", "file upload limit", "API pagination", "date picker",
    "kanban card menu", "team invites", "session timeout", "Stripe webhooks", "push notifications", "image thumbnails",
];
const WHERE: &[&str] = &["", "", "", " on Safari", " for admins", " in settings", " after 2.4", " on Android", " (v2)"];
const SYMPTOMS: &[&str] = &["is broken", "shows a blank page", "is very slow", "returns a 500 error", "does not save"];
const PRIORITIES: &[&str] = &["none", "none", "none", "none", "medium", "medium", "high", "high", "low", "urgent"];
const BROWSERS: &[&str] = &[" on Chrome", " on Safari", " on Firefox", " on Android", " on iOS"];
const LANGS: &[&str] = &[" into German", " into French", " into Spanish", " into Japanese", " into Hindi"];
const ALERT_NAMES: &[&str] = &["HighErrorRate", "PodCrashLooping", "DiskAlmostFull", "HighLatencyP99", "QueueBacklog"];
const SERVICES: &[&str] = &["payment-worker", "api-gateway", "search-indexer", "notifications", "redis-cache"];
/// n8n's chores: the title, the two paragraphs it posts, the projects.
#[rustfmt::skip]
const CHORES: [(&str, &str, &str, &[usize]); 2] = [
    ("Weekly dependency update", "Review and merge the Renovate pull requests opened this week.",
     "Run the test suite, read the changelogs for breaking changes, deploy to staging.", &[WEB, API]),
    ("Rotate staging secrets", "Rotate the staging database and API credentials.",
     "Update the vault entries and restart the staging services.", &[OPS]),
];

struct Project {
    id: String,
    ws: usize,
    states: Vec<String>,
    seq: i64,
    /// The largest `sort_order` per state among the issues from before the window.
    floor: [Option<f64>; 6],
    lead: bool,
    points: Vec<String>,
    archive: bool,
    members: Vec<usize>,
    opened: i64,
}

/// A create request as the server got it. States: 0 Backlog, 1 Todo, 2 In Progress, 3 Done, 4 Cancelled, 5 Triage.
#[derive(Clone, Default)]
struct Row {
    uid: usize,
    at: i64,
    /// The source's `created_at`, for an import.
    src: Option<i64>,
    project: usize,
    by: usize,
    name: String,
    html: String,
    priority: &'static str,
    start: Option<i64>,
    target: Option<i64>,
    parent: Option<usize>,
    state: usize,
    est: Option<usize>,
    ext: Option<(&'static str, String)>,
    assignee: bool,
    api: bool,
    intake: bool,
    /// Deleted by its author then (and filed again).
    kill: Option<i64>,
    mark: Mark,
    // What the replay set, and what the row holds now.
    alive: bool,
    sort: f64,
    seq: i64,
    updated: i64,
    upd_by: Option<usize>,
    completed: Option<i64>,
    deleted: Option<i64>,
    archived: Option<i64>,
}

#[derive(Clone, Copy)]
enum Kind {
    Create,
    Move(usize, bool),
    Assign,
    Priority(&'static str),
    Target(i64),
    Estimate(usize),
    Archive,
    Delete,
}

struct Ev {
    t: i64,
    k: usize,
    by: usize,
    kind: Kind,
}

fn date(us: i64) -> V {
    V::t(chrono::DateTime::from_timestamp_micros(us).unwrap().format("%Y-%m-%d").to_string())
}

/// `strip_tags`: the text nodes run together.
fn strip(html: &str) -> Option<String> {
    let mut tag = false;
    let text = html.chars().filter(|&c| {
        tag = (tag || c == '<') && c != '>';
        !tag && c != '>'
    });
    (!html.is_empty()).then(|| text.collect())
}

fn title(r: &mut Rng) -> String {
    let t = format!("{} {}{}", r.pick(VERBS), r.pick(THINGS), r.pick(WHERE));
    if r.chance(0.4) { format!("{t} ({})", r.pick(WORDS)) } else { t }
}

/// What Plane's editor sends: paragraphs, sometimes a bullet list.
fn editor(r: &mut Rng) -> String {
    let mut h = String::new();
    for _ in 0..1 + r.below(3) {
        let n = 6 + r.below(12) as usize;
        h += &format!("<p class=\"editor-paragraph-block\">{}</p>", sentence(r, n));
    }
    if r.chance(0.25) {
        h += "<ul class=\"list-disc pl-7 space-y-(--list-spacing-y)\">";
        for _ in 0..2 + r.below(3) {
            let item = format!("{} the {}", r.pick(VERBS), r.pick(THINGS));
            h += &format!("<li class=\"not-prose space-y-2\"><p class=\"editor-paragraph-block\">{item}</p></li>");
        }
        h += "</ul>";
    }
    h
}

/// A description after the public API's lxml round trip: several top-level paragraphs end up in one `<div>`.
fn api_html(paras: &[String]) -> String {
    let inner: String = paras.iter().map(|p| format!("<p>{p}</p>")).collect();
    if paras.len() > 1 { format!("<div>{inner}</div>") } else { inner }
}

fn member(r: &mut Rng, p: &Project) -> usize {
    p.members[r.skewed(p.members.len() as u64) as usize]
}

fn push(v: &mut Vec<Row>, mut row: Row) {
    row.uid = v.len();
    v.push(row);
}

/// The row, and the extra rows its lost responses made: a double submit, or a resend after a hung request.
fn send(v: &mut Vec<Row>, r: &mut Rng, row: Row, forced: bool) {
    let y = r.below(1_000);
    let (double, timeout) = if row.api { (0, 60) } else { (8, 14) };
    if forced || (double..timeout).contains(&y) {
        let a1 = row.at + r.range(10_000, 60_000) * 1_000 + r.below(1_000) as i64;
        push(v, Row { at: a1, mark: Mark::Retry, ..row.clone() });
        if r.chance(0.3) {
            push(v, Row { at: a1 + r.range(20_000, 120_000) * 1_000, mark: Mark::Retry, ..row.clone() });
        }
    } else if y < double {
        let at = row.at + r.range(50, 400) * 1_000 + r.below(1_000) as i64;
        push(v, Row { at, mark: Mark::Retry, ..row.clone() });
    }
    push(v, row);
}

/// The create modal: a title, the editor's description, what the person picked; from a recent issue's page, a
/// sub-issue.
fn modal(r: &mut Rng, v: &[Row], p: &Project, pi: usize, by: usize, t: i64) -> Row {
    let html = if r.chance(0.45) { "<p></p>".to_string() } else { editor(r) };
    let assignee = r.chance(0.45) || p.lead;
    let parent = if r.chance(0.12) {
        let mut top = v.iter().rev().take(300).filter(|o| o.project == pi && o.parent.is_none() && o.kill.is_none());
        top.find(|o| o.mark == Mark::Plain && !o.intake && !o.api && o.at < t - HOUR).map(|o| o.uid)
    } else {
        None
    };
    Row {
        at: t,
        project: pi,
        by,
        name: title(r),
        html,
        priority: r.one(PRIORITIES),
        start: r.chance(0.08).then(|| day(t)),
        target: r.chance(0.25).then(|| day(t) + r.range(2, 30) * DAY),
        state: if r.chance(0.85) { 0 } else { 1 },
        est: (!p.points.is_empty() && r.chance(0.3)).then(|| r.below(p.points.len() as u64) as usize),
        parent,
        assignee,
        ..Row::default()
    }
}

/// An importer run: one API create per ticket in the source's order, each with its external id, creator and time.
fn import(v: &mut Vec<Row>, r: &mut Rng, p: &Project, pi: usize, jira: bool) {
    let (n, source) = if jira { (170, "JIRA") } else { (110, "LINEAR") };
    let cloud = r.uuid();
    let mut at = p.opened;
    let mut src = at - r.range(500, 700) * DAY;
    let mut key = 10_000 + r.range(0, 400);
    let mut prev: Option<Row> = None;
    for _ in 0..n {
        src += r.range(3_600, 7 * 86_400) * SECOND + r.below(1_000) as i64 * 1_000;
        key += 1 + r.range(0, 2);
        let ext = if jira { format!("10071_{cloud}_{key}") } else { r.uuid() };
        let row = match &prev {
            // The same ticket filed twice at the source, minutes apart.
            Some(o) if r.chance(0.04) => {
                let s = o.src.unwrap_or(src) + r.range(30, 1_200) * SECOND + r.below(1_000) as i64 * 1_000;
                Row { at, src: Some(s), ext: Some((source, ext)), mark: Mark::Legit, ..o.clone() }
            }
            _ => {
                let old = at - src > 60 * DAY;
                let state = if old { r.one(&[3, 3, 3, 3, 3, 3, 4, 0, 0]) } else { r.one(&[3, 3, 2, 2, 1, 1, 0]) };
                let paras: Vec<String> = (0..r.below(4)).map(|_| sentence(&mut *r, 16)).collect();
                Row {
                    at,
                    src: Some(src),
                    project: pi,
                    by: if r.chance(0.8) { member(r, p) } else { p.members[0] },
                    name: title(r),
                    html: if paras.is_empty() { "<p></p>".to_string() } else { api_html(&paras) },
                    priority: r.one(&["medium", "medium", "medium", "high", "low", "urgent", "none"]),
                    target: r.chance(0.15).then(|| day(src) + r.range(3, 40) * DAY),
                    state,
                    ext: Some((source, ext)),
                    assignee: r.chance(0.5),
                    api: true,
                    ..Row::default()
                }
            }
        };
        prev = Some(row.clone());
        push(v, row);
        at += r.range(150, 450) * 1_000 + r.below(1_000) as i64;
    }
}

/// What people do to the row after its create, as events.
fn life(r: &mut Rng, row: &Row, k: usize, p: &Project, kids: bool, evs: &mut Vec<Ev>) {
    let ev = |t: i64, by: usize, kind: Kind| Ev { t, k, by, kind };
    if let Some(d) = row.kill {
        evs.push(ev(d, row.by, Kind::Delete));
        return;
    }
    let (mut t, mut s) = (row.at, row.state);
    if row.mark == Mark::Retry {
        let x = r.below(100);
        if x < 40 {
            evs.push(ev(t + r.range(120, 2 * 86_400) * SECOND, member(r, p), Kind::Delete));
        } else if x < 60 {
            // Closed as a duplicate of the first one.
            evs.push(ev(t + r.range(600, 3 * 86_400) * SECOND, member(r, p), Kind::Move(4, false)));
        }
        if x < 85 {
            return;
        }
    }
    if s == 5 {
        // Declined or marked a duplicate in the intake (the issue is not saved again), or accepted into the backlog.
        if r.chance(0.4) {
            return;
        }
        t += r.range(3_600, 3 * 86_400) * SECOND;
        evs.push(ev(t, member(r, p), Kind::Move(0, false)));
        s = 0;
    }
    let mut assigned = row.assignee;
    loop {
        let next = match s {
            0 => r.one(&[1, 1, 1, 1, 1, 2, 2, 4, 9, 9, 9]),
            1 => r.one(&[2, 2, 2, 2, 2, 2, 4, 9]),
            2 => r.one(&[3, 3, 3, 3, 3, 1]),
            _ => 9,
        };
        if next == 9 {
            break;
        }
        let wait = if s == 0 { r.range(2 * 3_600, 8 * 86_400) } else { r.range(1_800, 5 * 86_400) };
        t += wait * SECOND + r.below(1_000_000) as i64;
        if !assigned && next != 4 && r.chance(0.6) {
            evs.push(ev(t - r.range(60, 1_800) * SECOND, member(r, p), Kind::Assign));
            assigned = true;
        }
        let drag = r.chance(0.45);
        evs.push(ev(t, member(r, p), Kind::Move(next, drag)));
        s = next;
    }
    if s == 3 && r.chance(0.12) {
        evs.push(ev(t + r.range(86_400, 12 * 86_400) * SECOND, member(r, p), Kind::Archive));
    }
    if r.chance(0.3) {
        // An edit: the priority, a target date, an estimate.
        let at = row.at + r.range(600, 4 * 86_400) * SECOND;
        let kind = match r.below(3) {
            1 if row.target.is_none() => Kind::Target(day(at) + r.range(3, 21) * DAY),
            2 if !p.points.is_empty() => Kind::Estimate(r.below(p.points.len() as u64) as usize),
            _ => Kind::Priority(r.one(&["high", "urgent", "medium", "low"])),
        };
        evs.push(ev(at, member(r, p), kind));
    }
    if !kids && r.chance(0.015) {
        evs.push(ev(row.at + r.range(3_600, 6 * 86_400) * SECOND, member(r, p), Kind::Delete));
    }
}

/// A board column's `sort_order`s, lowest first: its live issues' and the largest of the older ones.
fn column(v: &[Row], p: usize, s: usize, floor: Option<f64>, me: usize) -> Vec<f64> {
    let mut vals: Vec<f64> = floor.into_iter().collect();
    let live = v.iter().enumerate().filter(|&(j, x)| j != me && x.alive && x.state == s && x.project == p);
    vals.extend(live.map(|(_, x)| x.sort));
    vals.sort_by(f64::total_cmp);
    vals
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(8_117);
    let users: Vec<String> = (0..USERS).map(|_| r.uuid()).collect();
    let spaces = [r.uuid(), r.uuid()];
    let mut ps: Vec<Project> = Vec::new();
    for (i, &(ws, seq, est, archive, intake, lead)) in SPECS.iter().enumerate() {
        let (lo, n) = if ws == 0 { (0, 32) } else { (26, 18) };
        let first = r.below(n);
        let members: Vec<usize> = (0..6 + r.below(8)).map(|j| lo + ((first + j) % n) as usize).collect();
        let states: Vec<String> = (0..6).map(|_| r.uuid()).collect();
        let mut floor = [None; 6];
        for (s, f) in floor.iter_mut().enumerate() {
            if seq > 0 && (s < 5 || intake) {
                let dragged = if r.chance(0.3) { 32_767.5 } else { 0.0 };
                *f = Some(65_535.0 + 10_000.0 * r.range(3, seq / 4 + 3) as f64 + dragged);
            }
        }
        let points = if est { (0..6).map(|_| r.uuid()).collect() } else { Vec::new() };
        let opened = match i {
            LEG => START + 23 * DAY + 8 * HOUR + 40 * MINUTE,
            MIG => START + 9 * DAY + 10 * HOUR + 14 * MINUTE,
            _ => START - 400 * DAY,
        };
        ps.push(Project { id: r.uuid(), ws, states, seq, floor, lead, points, archive, members, opened });
    }

    let mut v: Vec<Row> = Vec::new();
    let mut t = START + 2 * HOUR;
    let mut late = 0;
    loop {
        let weekend = (t / DAY + 3) % 7 >= 5;
        let gap = r.range(40, 1_500) * SECOND * 10 / RHYTHM[(t / HOUR % 24) as usize];
        t += if weekend { gap * 4 } else { gap } + r.below(1_000_000) as i64;
        if t >= NOW - 5 * MINUTE {
            break;
        }
        let (a, b) = (r.below(10), r.below(10));
        let mut pi = BUSY[a.min(b) as usize];
        if r.chance(0.08) {
            let q = if r.chance(0.5) { LEG } else { MIG };
            if ps[q].opened < t - HOUR {
                pi = q;
            }
        }
        let p = &ps[pi];
        let by = member(&mut r, p);
        let forced = late < LATE.len() && t > LATE[late];
        late += usize::from(forced);
        let x = if forced { 999 } else { r.below(1_000) };
        if x < 6 {
            // The same issue filed into two projects of the workspace.
            let row = modal(&mut r, &v, p, pi, by, t);
            let others: Vec<usize> =
                (0..ps.len()).filter(|&q| q != pi && ps[q].ws == p.ws && ps[q].opened < t).collect();
            let q = r.one(&others);
            let at = t + r.range(20, 300) * SECOND + r.below(1_000_000) as i64;
            let twin = Row { at, project: q, est: None, parent: None, mark: Mark::Legit, ..row.clone() };
            push(&mut v, row);
            push(&mut v, twin);
        } else if x < 12 {
            // Deleted by its author a little later, and filed again.
            let mut row = modal(&mut r, &v, p, pi, by, t);
            let gone = t + r.range(30, 400) * SECOND + r.below(1_000_000) as i64;
            row.kill = Some(gone);
            let at = gone + r.range(10, 240) * SECOND + r.below(1_000_000) as i64;
            let again = Row { at, kill: None, mark: Mark::Legit, ..row.clone() };
            push(&mut v, row);
            push(&mut v, again);
        } else if x < 22 {
            // "Create more": one title after another, the form reset to its defaults in between.
            let (base, tails) = if r.chance(0.5) {
                (format!("QA: {}", r.pick(THINGS)), BROWSERS)
            } else {
                (format!("Translate the {} page", r.pick(THINGS)), LANGS)
            };
            let row = modal(&mut r, &v, p, pi, by, t);
            let mut at = t;
            for tail in tails.iter().take(3 + r.below(3) as usize) {
                push(&mut v, Row { at, name: format!("{base}{tail}"), html: "<p></p>".to_string(), ..row.clone() });
                at += r.range(15, 90) * SECOND + r.below(1_000_000) as i64;
            }
        } else if x < 60 {
            // The intake: members in the app, guests on the public board (where the priority defaults to low).
            let q = if r.chance(0.6) { SUP } else { INFRA };
            let guest = r.chance(0.4);
            let by = if guest { 47 + r.below(13) as usize } else { member(&mut r, &ps[q]) };
            let name = format!("The {} {}", r.pick(THINGS), r.pick(SYMPTOMS));
            let html = editor(&mut r);
            let priority = if guest { "low" } else { r.one(PRIORITIES) };
            push(&mut v, Row { at: t, project: q, by, name, html, priority, state: 5, intake: true, ..Row::default() });
        } else if x < 95 {
            // An alert, through an n8n workflow to the API.
            let (alert, svc) = (r.one(ALERT_NAMES), r.one(SERVICES));
            let paras = [
                format!("{alert} has been firing for {} minutes on {svc}.", r.range(5, 90)),
                format!("Current value: {}.{}", r.range(1, 99), r.below(10)),
                format!("Runbook: https://runbooks.acme.dev/alerts/{}", alert.to_lowercase()),
            ];
            let (name, html, priority) =
                (format!("[prod] {alert} on {svc}"), api_html(&paras), r.one(&["urgent", "high"]));
            let row = Row { at: t, project: OPS, by: ALERTS, name, html, priority, api: true, ..Row::default() };
            send(&mut v, &mut r, row, false);
        } else if x < 310 {
            // Quick add in a board column: a title only.
            let (name, html, state) = (title(&mut r), "<p></p>".to_string(), r.one(&[0, 0, 0, 1, 1, 2]));
            let row = Row { at: t, project: pi, by, name, html, priority: "none", state, ..Row::default() };
            send(&mut v, &mut r, Row { assignee: p.lead, ..row }, false);
        } else {
            let row = modal(&mut r, &v, p, pi, by, t);
            send(&mut v, &mut r, row, forced);
        }
    }
    // n8n's chores: Mondays 09:00 IST into two projects, and every other Thursday.
    let mut seen: Vec<&str> = Vec::new();
    let mut d = day(START);
    while d < NOW - DAY {
        let chore = match (d / DAY + 3) % 7 {
            0 => Some((CHORES[0], 3 * HOUR + 30 * MINUTE)),
            3 if (d / DAY / 7) % 2 == 0 => Some((CHORES[1], 5 * HOUR)),
            _ => None,
        };
        if let Some(((name, what, how, projects), hour)) = chore {
            let mut at = d + hour + r.range(400, 2_500) * 1_000;
            for &q in projects {
                let mark = if seen.contains(&name) { Mark::Legit } else { Mark::Plain };
                seen.push(name);
                let (name, html) = (name.to_string(), api_html(&[what.to_string(), how.to_string()]));
                let row = Row { at, project: q, by: N8N, name, html, priority: "medium", mark, ..Row::default() };
                send(&mut v, &mut r, Row { assignee: true, api: true, ..row }, false);
                at += r.range(150, 600) * 1_000;
            }
        }
        d += DAY;
    }
    import(&mut v, &mut r, &ps[MIG], MIG, true);
    import(&mut v, &mut r, &ps[LEG], LEG, false);

    v.retain(|x| x.at < NOW - SECOND);
    let mut pos = vec![0_usize; v.iter().map(|x| x.uid + 1).max().unwrap_or(0)];
    v.sort_by_key(|x| x.at);
    for (k, x) in v.iter().enumerate() {
        pos[x.uid] = k;
    }
    let mut kids = vec![false; v.len()];
    for u in v.iter().filter_map(|x| x.parent) {
        kids[pos[u]] = true;
    }
    let mut evs: Vec<Ev> = Vec::new();
    for (k, row) in v.iter().enumerate() {
        evs.push(Ev { t: row.at, k, by: row.by, kind: Kind::Create });
        life(&mut r, row, k, &ps[row.project], kids[k], &mut evs);
    }
    evs.sort_by_key(|e| (e.t, e.k));

    // The replay: numbers, positions and states as the server set them, in time order.
    let mut seq: Vec<i64> = ps.iter().map(|p| p.seq).collect();
    for e in evs.iter().filter(|e| e.t < NOW) {
        let (k, pi) = (e.k, v[e.k].project);
        if v[k].deleted.is_some() || v[k].archived.is_some() {
            continue;
        }
        match e.kind {
            Kind::Create => {
                let s = v[k].state;
                let top = column(&v, pi, s, ps[pi].floor[s], k).last().copied();
                seq[pi] += 1;
                let x = &mut v[k];
                (x.alive, x.seq, x.sort) = (true, seq[pi], top.map_or(65_535.0, |m| m + 10_000.0));
                x.updated = e.t + r.range(2, 40);
                x.completed = (s == 3).then(|| e.t - r.range(30, 400));
                continue;
            }
            Kind::Move(s, drag) => {
                if drag {
                    // Dropped on the board: above the first card, below the last, or between two.
                    let vals = column(&v, pi, s, ps[pi].floor[s], k);
                    let n = vals.len();
                    v[k].sort = match r.below(3) {
                        _ if n == 0 => 65_535.0,
                        1 => vals[0] - 65_535.0,
                        2 if n >= 2 => {
                            let i = r.below(n as u64 - 1) as usize;
                            (vals[i] + vals[i + 1]) / 2.0
                        }
                        _ => vals[n - 1] + 65_535.0,
                    };
                }
                v[k].state = s;
                v[k].completed = (s == 3).then(|| e.t - r.range(5, 80));
            }
            Kind::Assign => {}
            Kind::Priority(x) => v[k].priority = x,
            Kind::Target(x) => v[k].target = Some(x),
            Kind::Estimate(x) => v[k].est = Some(x),
            Kind::Archive => v[k].archived = Some(day(e.t)),
            Kind::Delete => (v[k].deleted, v[k].alive) = (Some(e.t), false),
        }
        (v[k].updated, v[k].upd_by) = (e.t, Some(e.by));
    }
    // The nightly job (01:00 UTC): completed and cancelled issues not updated for 30 days, where auto-archive is on.
    for x in v.iter_mut() {
        if ps[x.project].archive && x.alive && x.archived.is_none() && (x.state == 3 || x.state == 4) {
            let due = x.updated + 30 * DAY;
            let run = if day(due) + HOUR >= due { day(due) + HOUR } else { day(due) + DAY + HOUR };
            x.archived = (run < NOW).then(|| day(run));
        }
    }

    let ids: Vec<String> = (0..v.len()).map(|_| r.uuid()).collect();
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("issues", &columns);
    for (k, row) in v.iter().enumerate() {
        let (p, ext) = (&ps[row.project], row.ext.as_ref());
        let created = match row.src {
            Some(s) => s,
            None if row.api => row.at + r.range(4_000, 35_000),
            None => row.at,
        };
        f.push(&[
            ("created_at", V::AtZ(created)),
            ("updated_at", V::AtZ(row.updated)),
            ("id", V::t(&ids[k])),
            ("name", V::t(&row.name)),
            ("description_json", V::t("{}")),
            ("priority", V::t(row.priority)),
            ("start_date", row.start.map_or(V::Null, date)),
            ("target_date", row.target.map_or(V::Null, date)),
            ("sequence_id", V::I(row.seq)),
            ("created_by_id", V::t(&users[row.by])),
            ("parent_id", row.parent.map_or(V::Null, |u| V::t(&ids[pos[u]]))),
            ("project_id", V::t(&p.id)),
            ("state_id", V::t(&p.states[row.state])),
            ("updated_by_id", row.upd_by.map_or(V::Null, |u| V::t(&users[u]))),
            ("workspace_id", V::t(&spaces[p.ws])),
            ("description_html", V::t(&row.html)),
            ("description_stripped", V::opt_t(strip(&row.html).as_deref())),
            ("completed_at", row.completed.map_or(V::Null, V::AtZ)),
            ("sort_order", V::F(row.sort)),
            ("archived_at", row.archived.map_or(V::Null, date)),
            ("is_draft", V::B(false)),
            ("external_id", V::opt_t(ext.map(|e| e.1.as_str()))),
            ("external_source", V::opt_t(ext.map(|e| e.0))),
            ("estimate_point_id", row.est.map_or(V::Null, |e| V::t(&p.points[e]))),
            ("deleted_at", row.deleted.map_or(V::Null, V::AtZ)),
        ]);
        f.mark(&ids[k], row.mark);
    }
    f
}
