//! Taiga (Python, Django; PostgreSQL only): `userstories_userstory`, as the web app's create lightbox (the backlog's
//! and each kanban column's "+"), its "add user stories in bulk" (backlog, kanban column, an epic's related stories),
//! an issue's "promote to user story", the REST API (`POST /api/v1/userstories`: TaigaMobile, a support-form script on
//! python-taiga, n8n) and the Trello and GitHub importers write it, and as teams work it afterwards: a company that
//! moved to a self-hosted Taiga 80 days ago, ten projects (four scrum, four kanban, one imported from Trello, one from
//! GitHub), 40 people.
//! Read: taigaio/taiga-back (3bea711) taiga/projects/userstories/migrations/0001-0021, models.py (`save`: modified
//! date, default status, role points), services.py (`create_userstories_in_bulk`, the backlog, sprint and kanban order
//! services, `close_userstory`/`open_userstory`, `calculate_userstory_is_closed`), api.py (`pre_save`: owner, the
//! kanban order on a status change; `create`, `bulk_create`, `bulk_update_*_order`), validators.py, signals.py,
//! apps.py (what bulk create disconnects), references/models.py and sequences.py (`attach_sequence`, one sequence per
//! project shared with tasks, issues and epics, `recalc_reference_counter`), occ/mixins.py, mixins/blocked.py,
//! tagging/models.py and signals.py, due_dates/models.py, base/utils/time.py (`timestamp_mics`), base/utils/db.py
//! (`save_in_bulk`), base/utils/text.py, base/api/mixins.py, tasks/signals.py, epics/services.py and api.py,
//! services/promote.py, importers/trello/importer.py, importers/github/importer.py, importers/jira/normal.py,
//! notifications/mixins.py, projects/migrations/0046 (the tag-colour triggers), projects/fixtures/
//! initial_project_templates.json (statuses); taigaio/taiga-front (e98660b) app/coffee/modules/common/lightboxes.coffee
//! (the lightbox and the bulk lightbox: `debounce 2000`, leading edge), utils.coffee, base/http.coffee,
//! resources/userstories.coffee, kanban/main.coffee and backlog/main.coffee ("top" position, `moveUsToTop`),
//! components/assigned-inline. Column order and index names checked against a pg_dump of a Taiga database found by
//! code search (the names are Django's digests of table and column).
//! On a create: `id` from the table's sequence; the instance is built first, so `backlog_order`, `sprint_order` and
//! `kanban_order` are `timestamp_mics()` of that moment (a microsecond or two apart) and `created_date` a few
//! microseconds later; `save()` stamps `modified_date` milliseconds after, then the post_save signal takes `ref` from
//! the project's sequence (tasks, issues and epics take numbers too, a failed create spends one) and saves it alone;
//! `version` 1; `owner` the caller; `status` as sent (the column's "+") else the project's default; `swimlane` as sent
//! (the web app sends the project's default one), NULL from promote; a story created in a closed status gets
//! `is_closed` and `finish_date` from the post_save signal, but not in a bulk (its signals are disconnected); tags
//! lowercased, `{}` when none; `tribe_gig`, `generated_from_task_id`, `from_task_ref` NULL; `due_date_reason` ''.
//! A bulk builds all its instances before saving the first: `created_date` and the orders microseconds apart, one
//! `modified_date` after another. The Trello importer writes each card with its `pos` as the three orders, then sets
//! `created_date`/`modified_date` and the owner from the card's actions; each checklist item becomes a task (a
//! reference each) and a card whose items are all done is closed; no Trello list is a closed status. The GitHub
//! importer writes issues and pull requests by number, the number as `ref` and orders, GitHub's seconds as dates, the
//! link as `external_reference`, closed ones closed at import time, then moves the sequence past the largest number.
//! Later: dragging on the kanban (`bulk_update_kanban_order`) sets the status and renumbers the target column from the
//! card before or after it (1 in an empty column) without touching `modified_date` or `version`, then a celery task
//! closes or opens the story; a PATCH (status from the detail page or taskboard, assignees, description, tags, due
//! date, blocked) adds 1 to `version` and stamps `modified_date`, a new status also a new `kanban_order`; moving a
//! story to the top of the backlog renumbers the whole backlog from the first story's order; sprint planning drags
//! stories into a new milestone (`sprint_order` from 1, the unfinished ones of the last sprint first) and adds tasks; a
//! story with tasks closes when its last task does, whatever its status; deletes are real.
//! Retries (about 1.7% of the stories created): a lightbox or bulk save that got the gateway's 504 after 60 s and was
//! saved again from the still open form; TaigaMobile double taps and resends after its timeout; the support-form
//! script's urllib3 retry after its 30 s read timeout (sometimes twice); n8n's retry on fail, and twice a whole n8n
//! execution retried by hand from its executions list 1-4 hours later (the dependency chores then look exactly like
//! their weekly runs: hidden). Each copy has its own id, ref, orders and times; about 40% of them were deleted (a
//! bulk's copies together), some archived as duplicates, some left in the backlog, some worked on; three in the last
//! day.
//! Legitimate repeats: a line pasted twice in a bulk; the scrum masters' ceremony lines before every planning; the
//! same story filed into a sibling project; n8n's weekly dependency chore (into two projects); Trello's weekly copied
//! card and Dependabot's recreated pull requests, imported. Plain near-repeats: bulk lines of one feature, customers
//! asking for the same thing through the support form, the weekly on-call handover.
//! Guessed: the company, projects, members, rates and rhythms; the clients' retries and timeouts; what TaigaMobile
//! sends (no tags or assignees, the default swimlane); how often people drag, patch, plan, block, edit and delete;
//! the number of tasks and issues between stories; the source data of both imports; issue ids for promote.
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use chrono::Datelike;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, day, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as Django 3.2 runs taiga-back's migrations on a fresh install (0001 to 0021: `order` renamed
/// `backlog_order` and widened to bigint, its check gone with the PositiveSmallIntegerField; `is_archived` and the
/// watchers dropped; the later columns appended), with the index Django gives each foreign key and `ref`. The foreign
/// keys (users, projects, statuses, milestones, swimlanes, issues, tasks) and the two tag-colour triggers (they write
/// `projects_project`) are left out with their tables.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"CREATE TABLE "userstories_userstory" (
    "id" serial NOT NULL PRIMARY KEY, "tags" text[] NULL, "version" integer NOT NULL, "is_blocked" boolean NOT NULL,
    "blocked_note" text NOT NULL, "ref" bigint NULL, "is_closed" boolean NOT NULL, "backlog_order" bigint NOT NULL,
    "created_date" timestamp with time zone NOT NULL, "modified_date" timestamp with time zone NOT NULL,
    "finish_date" timestamp with time zone NULL, "subject" text NOT NULL, "description" text NOT NULL,
    "client_requirement" boolean NOT NULL, "team_requirement" boolean NOT NULL, "assigned_to_id" integer NULL,
    "generated_from_issue_id" integer NULL, "milestone_id" integer NULL, "owner_id" integer NULL,
    "project_id" integer NOT NULL, "status_id" integer NULL, "sprint_order" bigint NOT NULL,
    "kanban_order" bigint NOT NULL, "external_reference" text[] NULL, "tribe_gig" text NULL, "due_date" date NULL,
    "due_date_reason" text NOT NULL, "generated_from_task_id" integer NULL, "from_task_ref" text NULL,
    "swimlane_id" integer NULL
);
CREATE INDEX "userstories_userstory_assigned_to_id_5ba80653" ON "userstories_userstory" ("assigned_to_id");
CREATE INDEX "userstories_userstory_generated_from_issue_id_afe43198"
    ON "userstories_userstory" ("generated_from_issue_id");
CREATE INDEX "userstories_userstory_generated_from_task_id_8e958d43"
    ON "userstories_userstory" ("generated_from_task_id");
CREATE INDEX "userstories_userstory_milestone_id_37f31d22" ON "userstories_userstory" ("milestone_id");
CREATE INDEX "userstories_userstory_owner_id_df53c64e" ON "userstories_userstory" ("owner_id");
CREATE INDEX "userstories_userstory_project_id_03e85e9c" ON "userstories_userstory" ("project_id");
CREATE INDEX "userstories_userstory_ref_824701c0" ON "userstories_userstory" ("ref");
CREATE INDEX "userstories_userstory_status_id_858671dd" ON "userstories_userstory" ("status_id");
CREATE INDEX "userstories_userstory_swimlane_id_8ecab79d" ON "userstories_userstory" ("swimlane_id");"#
            .to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("Taiga runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "id tags version is_blocked blocked_note ref is_closed backlog_order created_date modified_date \
    finish_date subject description client_requirement team_requirement assigned_to_id generated_from_issue_id \
    milestone_id owner_id project_id status_id sprint_order kanban_order external_reference tribe_gig due_date \
    due_date_reason generated_from_task_id from_task_ref swimlane_id";

const NOW: i64 = T0;
/// A Monday: the day the instance went live.
const START: i64 = T0 - 80 * DAY;
/// Requests per hour of the day (UTC), relative: teams in Europe.
const RHYTHM: [i64; 24] = [1, 1, 1, 1, 1, 2, 4, 8, 10, 10, 10, 9, 7, 9, 10, 10, 9, 6, 4, 3, 2, 1, 1, 1];
/// The first lightbox create after each of these is sent again after a gateway timeout.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 9 * HOUR, NOW - 2 * HOUR];

const SCRUM: u8 = 0;
const KANBAN: u8 = 1;
const TRELLO: u8 = 2;
const GITHUB: u8 = 3;

type Spec = (u8, i64, i64, (i64, i64), i64, i64);
/// Projects (id = index + 1): kind, swimlanes, created (minutes after START), members (user ids lo..=hi), the most
/// references (tasks, issues, epics) taken between two stories, first sprint planning (days after START).
#[rustfmt::skip]
const SPECS: [Spec; 10] = [
    (SCRUM, 0, 9 * 60, (2, 11), 3, 7),
    (SCRUM, 0, 9 * 60 + 12, (8, 19), 4, 7),
    (SCRUM, 0, 9 * 60 + 40, (16, 24), 2, 9),
    (SCRUM, 0, 10 * 60 + 5, (22, 29), 2, 14),
    (KANBAN, 2, 10 * 60 + 30, (28, 37), 2, 0),
    (KANBAN, 0, 11 * 60, (34, 41), 1, 0),
    (KANBAN, 2, 11 * 60 + 20, (12, 18), 1, 0),
    (TRELLO, 0, 2 * 1_440 + 14 * 60 + 10, (34, 41), 1, 0),
    (GITHUB, 0, 3 * 1_440 + 10 * 60 + 5, (8, 14), 1, 0),
    (KANBAN, 0, 33 * 1_440 + 10 * 60, (30, 41), 1, 0),
];
const MOBILE: usize = 0;
const WEB: usize = 1;
const OPS: usize = 4;
const MKT: usize = 5;
const DESIGN: usize = 6;
const CONTENT: usize = 7;
const CLI: usize = 8;
const RELAUNCH: usize = 9;
/// The projects by how busy they are.
const BUSY: [usize; 10] = [WEB, MOBILE, OPS, 2, DESIGN, 3, MKT, RELAUNCH, CONTENT, CLI];
/// The intake script's account (the support form), n8n's, and who ran the two imports.
const BOT: i64 = 42;
const N8N: i64 = 43;
const TRELLO_USER: i64 = 34;
const GITHUB_USER: i64 = 8;

#[rustfmt::skip]
const THINGS: [&[&str]; 10] = [
    &["push notification settings", "offline mode", "biometric login", "dark mode", "onboarding carousel",
      "in-app purchase restore", "deep links from emails", "photo upload", "profile screen", "app rating prompt",
      "home screen widget", "tablet layout", "crash reporting", "language picker"],
    &["dashboard filters", "CSV export", "team invitations", "Google SSO", "billing page", "global search",
      "audit log", "notification center", "password reset flow", "API pagination", "saved views",
      "role permissions", "activity feed", "file previews", "two-factor auth"],
    &["refund endpoint", "SEPA direct debit", "webhook signatures", "3-D Secure 2", "idempotency keys",
      "invoice PDFs", "currency rounding", "payout reports", "Stripe Connect onboarding", "chargeback handling",
      "VAT calculation", "card expiry reminders", "ledger reconciliation"],
    &["nightly orders ETL", "S3 partitioning", "dbt models for subscriptions", "Airflow DAG retries",
      "data quality checks", "BigQuery cost alerts", "CDC from Postgres", "schema registry", "churn dashboard",
      "event tracking plan", "GDPR deletion job"],
    &["TLS certificate renewal", "Postgres 16 upgrade", "AWS key rotation", "backup restore drill", "status page",
      "log retention", "VPN access for contractors", "on-call runbook", "Grafana alerts", "staging refresh"],
    &["pricing page", "autumn campaign landing page", "blog post template", "SEO audit fixes", "case study layout",
      "newsletter signup form", "cookie consent", "careers page", "press kit", "customer logos"],
    &["button component", "spacing tokens", "Figma library sync", "icon set", "date picker component",
      "form validation states", "modal component", "color contrast", "typography scale", "table component",
      "toast notifications"],
    &["editorial calendar", "blog illustrations", "LinkedIn schedule", "newsletter template", "video subtitles"],
    &["`acme deploy` output", "shell completion", "config file format", "Windows installer", "release workflow"],
    &["homepage hero", "navigation menu", "blog migration", "contact form", "cookie banner", "redirect map",
      "image optimization", "footer links", "German and French pages", "analytics events", "404 page"],
];
const VERBS: &[&str] = &["Add", "Improve", "Fix", "Redesign", "Implement", "Refactor", "Support", "Update", "Review"];
const TAILS: &[&str] = &["", "", "", "", "", " (phase 2)", " for admins", " follow-up", " v2", " on staging"];
const ROLES: &[&str] = &["user", "workspace admin", "team owner", "new customer", "support agent", "developer"];
#[rustfmt::skip]
const BENEFITS: &[&str] = &[
    "I can work faster", "I don't lose my work", "I find things quickly", "my team stays informed",
    "I can trust the numbers", "I don't need to ask support",
];
#[rustfmt::skip]
const TAGS: [&[&str]; 10] = [
    &["ios", "android", "ux", "bug", "tech-debt"], &["frontend", "backend", "ux", "bug", "api"],
    &["api", "compliance", "bug", "backend"], &["etl", "infra", "analytics"], &["infra", "security", "customer"],
    &["seo", "copy", "design"], &["figma", "a11y", "web", "mobile"], &["blog", "social", "newsletter"],
    &["bug", "enhancement"], &["seo", "content", "frontend"],
];
#[rustfmt::skip]
const PARTS: &[&str] = &["API endpoint", "UI", "tests", "docs", "analytics events", "feature flag", "migration",
    "error states", "empty state", "translations", "permissions", "QA on staging"];
/// The lines each scrum master bulk-adds before every sprint planning.
const CEREMONY: &[&str] = &["Sprint review: prepare the demo", "Retro action items", "Update the release notes"];
#[rustfmt::skip]
const ASKS: &[&str] = &[
    "Export invoices to CSV", "Bulk edit of contacts", "SAML single sign-on", "Custom fields on tickets",
    "Dark mode", "Higher API rate limit", "Zapier integration", "German translation", "Audit log export",
    "Delete my account data", "Recurring reports by email", "Two-factor auth for all users",
];
#[rustfmt::skip]
const COMPANIES: &[&str] = &[
    "Northwind", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Retail", "Hooli",
    "Vandelay Imports", "Soylent Foods", "Tyrell Labs", "Acme Travel", "Blue Sun",
];
#[rustfmt::skip]
const ISSUES: &[(&str, &str, &str)] = &[
    ("Login fails with SSO when the email has capitals", "Users with `John.Doe@` cannot sign in through Okta.", "bug"),
    ("Export times out for large workspaces", "The CSV export stops after 60 s for workspaces with 20k rows.", "bug"),
    ("Add a filter by assignee to the dashboard", "Requested by several customers this month.", "enhancement"),
    ("Invoices show the wrong VAT for Austria", "20% instead of 10% on reduced-rate items.", "bug"),
    ("Allow more than 5 team invitations at once", "", "enhancement"),
    ("Password reset link expires too early", "The link is dead after 10 minutes, support gets tickets.", "bug"),
    ("Search ignores accented characters", "Searching `cafe` does not find `café`.", "bug"),
    ("Dark mode for the web app", "", "enhancement"),
];
#[rustfmt::skip]
const TOPICS: &[&str] = &[
    "remote onboarding", "pricing experiments", "our API v2", "security practices", "customer stories",
    "product roadmap", "accessibility", "the Berlin meetup", "year in review", "team rituals",
];
#[rustfmt::skip]
const MONTHS: &[&str] = &["January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December"];
const COMMANDS: &[&str] = &["login", "deploy", "logs", "config", "init", "status", "env", "secrets"];
#[rustfmt::skip]
const PROBLEMS: &[&str] = &[
    "fails behind a corporate proxy", "hangs when the token expired", "prints a traceback on Windows",
    "ignores --quiet", "should support --json output", "is slow with many projects", "crashes on Python 3.12",
    "should read ACME_TOKEN from the environment",
];
#[rustfmt::skip]
const DEPS: &[(&str, &str, &str)] = &[
    ("requests", "2.31.0", "2.32.3"), ("click", "8.1.3", "8.1.7"), ("rich", "13.3.1", "13.7.1"),
    ("pyyaml", "6.0", "6.0.1"), ("urllib3", "1.26.15", "1.26.18"), ("actions/checkout", "3", "4"),
    ("actions/setup-python", "4", "5"),
];

fn opened(p: usize) -> i64 {
    START + SPECS[p].2 * MINUTE
}

fn statuses(p: usize) -> i64 {
    match SPECS[p].0 {
        TRELLO => 5,
        GITHUB => 2,
        _ => 6,
    }
}

/// `status.is_closed`: Done and Archived in the template projects, Closed from GitHub, none of the Trello lists.
fn closed(p: usize, s: usize) -> bool {
    match SPECS[p].0 {
        TRELLO => false,
        GITHUB => s == 1,
        _ => s >= 4,
    }
}

fn status_id(p: usize, s: usize) -> i64 {
    1 + (0..p).map(statuses).sum::<i64>() + s as i64
}

/// The project's swimlanes' ids (the first one is the default).
fn lanes(p: usize) -> Vec<i64> {
    let first = 1 + (0..p).map(|q| SPECS[q].1).sum::<i64>();
    (first..first + SPECS[p].1).collect()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// A story people work on.
    Normal,
    /// The first of a retried create: worked on, never deleted.
    Original,
    /// A retry's extra row: deleted (0), moved to Archived (1), left where it landed (2), or worked on (3).
    Extra(u8),
    /// A sprint ceremony story: planned with its sprint, done at the end of it.
    Ceremony,
    /// Written by an importer.
    Imported,
}

/// What a create writes, as the request (or the importer) gives it.
#[derive(Clone, Default)]
struct Req {
    p: usize,
    owner: i64,
    subject: String,
    desc: String,
    tags: Vec<String>,
    status: usize,
    lane: Option<i64>,
    assigned: Option<i64>,
    client: bool,
    team: bool,
    blocked: Option<&'static str>,
    due: Option<i64>,
    issue: Option<i64>,
    ext: Option<String>,
    /// Saved by `create_userstories_in_bulk`, with the story signals disconnected.
    bulk: bool,
    /// "Top" picked in the lightbox: the web app moves the new story before the first one.
    top: bool,
    /// An import: the source's created and modified times, its position, its number, its milestone, its checklist.
    src: Option<(i64, i64)>,
    order: Option<i64>,
    number: Option<i64>,
    milestone: Option<usize>,
    checklist: Vec<bool>,
}

struct Line {
    q: Req,
    mark: Mark,
    hidden: bool,
    fate: Fate,
}

/// One request (a story, a bulk of them, or one story of an importer run).
struct Post {
    lines: Vec<Line>,
    import: bool,
}

struct Row {
    q: Req,
    mark: Mark,
    hidden: bool,
    fate: Fate,
    id: i64,
    reference: i64,
    created: i64,
    modified: i64,
    finish: Option<i64>,
    closed: bool,
    version: i64,
    backlog: i64,
    sprint: i64,
    kanban: i64,
    milestone: Option<i64>,
    sprint_no: Option<usize>,
    /// 0 no tasks, 1 open tasks, 2 all its tasks closed.
    tasks: u8,
    plan: bool,
    carry: bool,
    deleted: bool,
}

enum Ev {
    Create(Post),
    /// A PATCH of the status (the detail page, the taskboard's status menu).
    Status(usize, usize),
    Assign(usize, i64),
    Edit(usize, u8),
    /// `bulk_update_kanban_order`: to the end of the column (0), before its first card (1), after a card in it (2),
    /// or "move to top" (3, nothing when the column is empty).
    Drag(usize, usize, u8),
    /// `bulk_update_backlog_order` before the first story of the backlog.
    Top(usize),
    /// Sprint planning: project, sprint number.
    Plan(usize, usize),
    TasksDone(usize),
    Delete(usize),
    /// The GitHub importer: the repository's milestones, then (after its stories) `recalc_reference_counter`.
    Milestones,
    Recalc(usize, i64),
}

struct Sim {
    r: Rng,
    rows: Vec<Row>,
    queue: BinaryHeap<Reverse<(i64, usize)>>,
    events: Vec<Option<Ev>>,
    next_id: i64,
    seq: [i64; 10],
    milestone: i64,
    github_milestones: Vec<i64>,
}

impl Sim {
    fn push(&mut self, at: i64, ev: Ev) {
        if at < NOW {
            self.queue.push(Reverse((at, self.events.len())));
            self.events.push(Some(ev));
        }
    }

    fn later(&mut self, at: i64, lo: i64, hi: i64) -> i64 {
        at + self.r.range(lo, hi) * SECOND + self.r.below(1_000_000) as i64
    }

    fn member(&mut self, p: usize) -> i64 {
        let (lo, hi) = SPECS[p].3;
        lo + self.r.skewed((hi - lo + 1) as u64) as i64
    }

    fn project(&mut self, t: i64) -> usize {
        loop {
            let p = BUSY[self.r.skewed(BUSY.len() as u64) as usize];
            if opened(p) < t - 30 * MINUTE {
                return p;
            }
        }
    }

    /// One create request, and the extra ones its lost responses made, `delays` after it.
    fn send(&mut self, at: i64, reqs: Vec<(Req, Mark)>, fate: Fate, delays: &[i64]) {
        let fate = if delays.is_empty() { fate } else { Fate::Original };
        let lines = reqs.iter().map(|(q, m)| Line { q: q.clone(), mark: *m, hidden: false, fate }).collect();
        self.push(at, Ev::Create(Post { lines, import: false }));
        for &d in delays {
            let x = self.r.below(100);
            let g = match x {
                0..35 => 0,
                35..50 => 1,
                50..82 => 2,
                _ => 3,
            };
            let lines =
                reqs.iter().map(|(q, _)| Line { q: q.clone(), mark: Mark::Retry, hidden: false, fate: Fate::Extra(g) });
            self.push(at + d, Ev::Create(Post { lines: lines.collect(), import: false }));
        }
    }

    fn subject(&mut self, p: usize) -> String {
        let thing = self.r.one(THINGS[p]);
        if SPECS[p].0 == SCRUM && self.r.chance(0.3) {
            format!("As a {}, I want {} so that {}", self.r.one(ROLES), thing, self.r.one(BENEFITS))
        } else {
            format!("{} {}{}", self.r.one(VERBS), thing, self.r.one(TAILS))
        }
    }

    /// What people type in the description (markdown), or nothing.
    fn describe(&mut self, p: usize) -> String {
        let thing = self.r.one(THINGS[p]);
        match self.r.below(4) {
            0 => format!(
                "Right now the {thing} {}.\n\n**Acceptance criteria**\n\n- {} {}\n- {} {}",
                self.r.one(&["is confusing", "is too slow", "breaks on small screens", "is missing", "is manual"]),
                self.r.one(VERBS),
                self.r.one(PARTS).to_lowercase(),
                self.r.one(VERBS),
                self.r.one(PARTS).to_lowercase(),
            ),
            1 => format!(
                "Follow-up from the {} meeting: {} {}.",
                self.r.one(&["planning", "design review", "customer call", "retro"]),
                self.r.one(VERBS).to_lowercase(),
                self.r.one(THINGS[p]),
            ),
            2 => format!("Figma: https://www.figma.com/file/{}/{}", self.r.alnum(22), thing.replace(' ', "-")),
            _ => format!(
                "Asked by {} ({} plan): \"{} would save us hours every week.\"",
                self.r.one(COMPANIES),
                self.r.one(&["Pro", "Business", "Enterprise"]),
                thing,
            ),
        }
    }

    fn tags(&mut self, p: usize, n: usize) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for _ in 0..n {
            let t = self.r.one(TAGS[p]).to_string();
            if !v.contains(&t) {
                v.push(t);
            }
        }
        v
    }

    /// The lane the form or the bulk lightbox sends: the project's default, sometimes another one picked.
    fn lane(&mut self, p: usize, pick: bool) -> Option<i64> {
        let ls = lanes(p);
        if ls.is_empty() {
            None
        } else if pick && self.r.chance(0.15) {
            Some(self.r.one(&ls))
        } else {
            Some(ls[0])
        }
    }

    /// The board column a story is added from: the "+" of a kanban column, the backlog's default status.
    fn column(&mut self, p: usize) -> usize {
        match SPECS[p].0 {
            SCRUM => usize::from(self.r.chance(0.08)),
            GITHUB => 0,
            TRELLO => self.r.one(&[0, 0, 0, 1, 1, 2]),
            _ => self.r.one(&[0, 0, 0, 0, 0, 0, 1, 1, 2, 4]),
        }
    }

    /// The create lightbox (`genericform:new`): subject, description, tags, status, swimlane, assignees, due date,
    /// the requirement and blocked toggles.
    fn lightbox(&mut self, p: usize, by: i64, t: i64) -> Req {
        let subject = self.subject(p);
        let desc = if self.r.chance(0.45) { self.describe(p) } else { String::new() };
        let n = if self.r.chance(0.35) { 1 + self.r.below(2) as usize } else { 0 };
        let tags = self.tags(p, n);
        let status = self.column(p);
        let lane = self.lane(p, true);
        let assigned =
            if self.r.chance(0.3) { Some(if self.r.chance(0.6) { by } else { self.member(p) }) } else { None };
        let blocked = self
            .r
            .chance(0.02)
            .then(|| self.r.one(&["Waiting for the API keys", "Blocked by the design review", "Needs legal approval"]));
        let due = self.r.chance(0.08).then(|| day(t) + self.r.range(3, 30) * DAY);
        let (client, team, top) = (self.r.chance(0.04), self.r.chance(0.04), self.r.chance(0.1));
        Req {
            p,
            owner: by,
            subject,
            desc,
            tags,
            status,
            lane,
            assigned,
            client,
            team,
            blocked,
            due,
            top,
            ..Req::default()
        }
    }

    /// TaigaMobile: subject, description, the status of the column it was added from, the default swimlane.
    fn mobile(&mut self, p: usize, by: i64) -> Req {
        let subject = self.subject(p);
        let desc = if self.r.chance(0.3) { self.describe(p) } else { String::new() };
        let status = self.column(p);
        let lane = self.lane(p, false);
        Req { p, owner: by, subject, desc, status, lane, ..Req::default() }
    }

    /// The support form's script (python-taiga `add_user_story`): subject, description, tags, the Customers lane.
    fn intake(&mut self) -> Req {
        let (ask, company) = (self.r.one(ASKS), self.r.one(COMPANIES));
        let plan = self.r.one(&["pro", "business", "enterprise"]);
        let name = self.r.one(&["Anna", "Ben", "Chloé", "Dmitri", "Elif", "Femi", "Grace", "Hiro", "Inés", "Jonas"]);
        let desc = format!(
            "Submitted through the support form by {name} <{}@{}.example> ({company}, {plan} plan).\n\n> {}\n\n\
             Ticket: https://support.acme.io/tickets/{}",
            name.to_lowercase().replace('é', "e"),
            company.to_lowercase().replace(' ', ""),
            self.r.one(&[
                "We need this before our renewal.",
                "Our admins keep asking for it.",
                "Is this on the roadmap?",
                "This blocks our rollout to the other teams.",
            ]),
            48_000 + self.r.below(9_000),
        );
        Req {
            p: OPS,
            owner: BOT,
            subject: format!("[Customer request] {ask}"),
            desc,
            tags: vec!["customer-request".to_string(), plan.to_string()],
            lane: Some(lanes(OPS)[0]),
            ..Req::default()
        }
    }

    /// "Promote to user story" on an issue: its owner, subject, description and tags; the default status; no lane.
    fn promote(&mut self, t: i64) -> Req {
        let p = if self.r.chance(0.5) { WEB } else { OPS };
        let (subject, desc, tag) = self.r.one(ISSUES);
        let issue = ((t - START) / DAY - self.r.range(0, 12)).max(0) * 9 + 1 + self.r.below(9) as i64;
        let owner = self.member(p);
        Req {
            p,
            owner,
            subject: subject.to_string(),
            desc: desc.to_string(),
            tags: vec![tag.to_string()],
            issue: Some(issue),
            ..Req::default()
        }
    }

    /// The bulk lightbox's lines ("one per line"), a feature's parts, now and then a line pasted twice.
    fn bulk(&mut self, p: usize, by: i64, epic: bool) -> Vec<(Req, Mark)> {
        let feature = self.r.one(THINGS[p]);
        let mut feature = feature[..1].to_uppercase() + &feature[1..];
        if self.r.chance(0.3) {
            feature = format!("{} {}", self.r.one(VERBS), self.r.one(THINGS[p]));
        }
        let n = 2 + self.r.below(7) as usize;
        let status = if epic { 0 } else { self.column(p).min(1) };
        let lane = if epic && SPECS[p].0 == SCRUM { None } else { self.lane(p, false) };
        let base = Req { p, owner: by, status, lane, bulk: true, ..Req::default() };
        let mut lines: Vec<(Req, Mark)> = Vec::new();
        let mut used: Vec<&str> = Vec::new();
        for _ in 0..n {
            let part = self.r.one(PARTS);
            if used.contains(&part) {
                continue;
            }
            used.push(part);
            lines.push((Req { subject: format!("{feature}: {part}"), ..base.clone() }, Mark::Plain));
        }
        if self.r.chance(0.1) && lines.len() > 1 {
            let i = self.r.below(lines.len() as u64) as usize;
            let twin = (lines[i].0.clone(), Mark::Legit);
            let at = (i + 1 + self.r.below(2) as usize).min(lines.len());
            lines.insert(at, twin);
        }
        lines
    }

    fn create(&mut self, post: Post, at: i64) {
        let p = post.lines[0].q.p;
        let n = post.lines.len();
        // The instances are built before the first save: the three orders (`timestamp_mics`), then `created_date`.
        let mut stamps = Vec::with_capacity(n);
        let mut c = at + self.r.range(2_000, 20_000);
        for _ in 0..n {
            let b = c;
            let s = b + self.r.range(0, 2);
            let k = s + self.r.range(0, 2);
            let cr = k + self.r.range(1, 5);
            stamps.push((b, s, k, cr));
            c = cr + self.r.range(8, 30);
        }
        let mut t = c + self.r.range(2_000, 25_000);
        if !post.import && self.r.chance(0.002) {
            // A create that failed after its insert: its id and its reference are spent.
            self.next_id += 1;
            self.seq[p] += 1;
        }
        if !post.import {
            self.seq[p] += self.r.range(0, SPECS[p].4);
        }
        let group = self.later(at, 120, 2 * 86_400);
        for (i, line) in post.lines.into_iter().enumerate() {
            let Line { q, mark, hidden, fate } = line;
            let (id, k) = (self.next_id, self.rows.len());
            self.next_id += 1;
            self.seq[p] += 1;
            let reference = q.number.unwrap_or(self.seq[p]);
            let modified = t;
            t += self.r.range(5_000, 18_000);
            let (mut b, mut s, mut kb, mut created) = stamps[i];
            let (mut shut, mut finish) = (false, None);
            if let (Some((c0, m0)), Some(o)) = (q.src, q.order) {
                (b, s, kb, created) = (o, o, o, c0);
                if closed(p, q.status) {
                    (shut, finish) = (true, Some(modified + self.r.range(1_000, 8_000)));
                }
                if !q.checklist.is_empty() {
                    // Each checklist item becomes a task: a reference each, and the story closes when all are done.
                    self.seq[p] += q.checklist.len() as i64;
                    if q.checklist.iter().all(|&d| d) {
                        (shut, finish) = (true, Some(modified + self.r.range(150_000, 900_000)));
                    }
                }
                let milestone = q.milestone.map(|m| self.github_milestones[m]);
                self.rows.push(Row {
                    q,
                    mark,
                    hidden,
                    fate,
                    id,
                    reference,
                    created,
                    modified: m0,
                    finish,
                    closed: shut,
                    version: 1,
                    backlog: b,
                    sprint: s,
                    kanban: kb,
                    milestone,
                    sprint_no: None,
                    tasks: 0,
                    plan: false,
                    carry: false,
                    deleted: false,
                });
                self.after_import(k, at);
                continue;
            }
            if !q.bulk && closed(p, q.status) {
                (shut, finish) = (true, Some(modified + self.r.range(2_000, 12_000)));
            }
            let top = q.top;
            self.rows.push(Row {
                q,
                mark,
                hidden,
                fate,
                id,
                reference,
                created,
                modified,
                finish,
                closed: shut,
                version: 1,
                backlog: b,
                sprint: s,
                kanban: kb,
                milestone: None,
                sprint_no: None,
                tasks: 0,
                plan: false,
                carry: false,
                deleted: false,
            });
            if top {
                let a = modified + self.r.range(300_000, 1_200_000);
                let st = self.rows[k].q.status;
                self.push(a, if SPECS[p].0 == SCRUM { Ev::Top(k) } else { Ev::Drag(k, st, 3) });
            }
            let a = group + i as i64 * self.r.range(3, 12) * SECOND;
            match fate {
                Fate::Normal => self.life(k, at, true),
                Fate::Original | Fate::Extra(3) => self.life(k, at, false),
                Fate::Extra(0) => self.push(a, Ev::Delete(k)),
                Fate::Extra(1) => match SPECS[p].0 {
                    SCRUM => self.push(a, Ev::Status(k, 5)),
                    KANBAN => self.push(a, Ev::Drag(k, 5, 0)),
                    _ => self.push(a, Ev::Delete(k)),
                },
                _ => {}
            }
        }
    }

    /// What happens to a story after its create.
    fn life(&mut self, k: usize, at: i64, may_delete: bool) {
        let p = self.rows[k].q.p;
        match SPECS[p].0 {
            SCRUM => {
                self.rows[k].plan = self.r.chance(0.82);
                if self.r.chance(0.22) {
                    let a = self.later(at, 600, 5 * 86_400);
                    self.push(a, Ev::Top(k));
                }
            }
            GITHUB => {
                if self.r.chance(0.3) {
                    let a = self.later(at, 86_400, 20 * 86_400);
                    self.push(a, Ev::Drag(k, 1, 0));
                }
            }
            _ => self.flow(k, at),
        }
        if self.r.chance(0.25) {
            let a = self.later(at, 1_800, 6 * 86_400);
            let what = self.r.below(5) as u8;
            self.push(a, Ev::Edit(k, what));
        }
        if may_delete && self.r.chance(0.02) {
            let a = self.later(at, 300, 4 * 86_400);
            self.push(a, Ev::Delete(k));
        }
    }

    fn after_import(&mut self, k: usize, at: i64) {
        let (p, s) = (self.rows[k].q.p, self.rows[k].q.status);
        if p == CONTENT && s < 4 && self.r.chance(0.45) {
            let a = self.later(at, 3_600, 5 * 86_400);
            self.flow(k, a);
        }
        if p == CLI && s == 0 && self.r.chance(0.12) {
            let a = self.later(at, 86_400, 30 * 86_400);
            self.push(a, Ev::Drag(k, 1, 0));
        }
    }

    /// A card's way across a kanban board: dragged (or set from its page) column by column, then maybe archived.
    fn flow(&mut self, k: usize, at: i64) {
        let p = self.rows[k].q.p;
        let (s0, unassigned) = (self.rows[k].q.status, self.rows[k].q.assigned.is_none());
        let (mut t, mut s) = (at, s0);
        if s < 4 && !self.r.chance(0.12) {
            let pace = self.r.one(&[3 * 3_600, 8 * 3_600, 86_400, 2 * 86_400, 4 * 86_400]);
            let who = self.member(p);
            let mut first = true;
            while s < 4 && (first || !self.r.chance(0.07)) {
                t = self.later(t, pace / 4, pace * 2);
                s = if s == 2 && self.r.chance(0.35) { 4 } else { s + 1 };
                if first && unassigned && self.r.chance(0.7) {
                    let a = t - self.r.range(60, 1_800) * SECOND;
                    self.push(a, Ev::Assign(k, who));
                }
                first = false;
                if self.r.chance(0.2) {
                    self.push(t, Ev::Status(k, s));
                } else {
                    let w = self.r.one(&[0, 0, 0, 0, 0, 0, 1, 1, 1, 2]);
                    self.push(t, Ev::Drag(k, s, w));
                }
            }
        }
        if s == 4 && SPECS[p].0 != TRELLO && self.r.chance(0.35) {
            let a = self.later(t, 2 * 86_400, 20 * 86_400);
            self.push(a, Ev::Drag(k, 5, 0));
        }
    }

    /// A planned story's sprint: picked up, its tasks done, set to Done; or not finished and carried over.
    fn sprint_life(&mut self, k: usize, at: i64) {
        let end = at + 14 * DAY - 4 * HOUR;
        if self.rows[k].fate == Fate::Ceremony {
            let a = end - self.r.range(3_600, 2 * 86_400) * SECOND;
            self.push(a, Ev::Status(k, 4));
            return;
        }
        let p = self.rows[k].q.p;
        let start = self.later(at, 1_800, 5 * 86_400);
        if self.rows[k].q.assigned.is_none() {
            let who = self.member(p);
            let a = start - self.r.range(60, 1_200) * SECOND;
            self.push(a, Ev::Assign(k, who));
        }
        self.push(start, Ev::Status(k, 2));
        if self.r.chance(0.2) {
            self.rows[k].carry = true;
            return;
        }
        let span = (end - start) / SECOND;
        let done = self.later(start, (span / 2).min(86_400), span - 3_600);
        if self.r.chance(0.25) {
            let a = (done - self.r.range(3_600, 86_400) * SECOND).max(start + MINUTE);
            self.push(a, Ev::Status(k, 3));
        }
        if self.rows[k].tasks == 1 {
            self.push(done, Ev::TasksDone(k));
            if self.r.chance(0.7) {
                let a = self.later(done, 600, 2 * 86_400);
                self.push(a, Ev::Status(k, 4));
            }
        } else {
            self.push(done, Ev::Status(k, 4));
        }
    }

    /// `calculate_userstory_is_closed` and `close_userstory` / `open_userstory`.
    fn reclose(&mut self, k: usize, at: i64) {
        let row = &mut self.rows[k];
        let now = match row.tasks {
            1 => false,
            2 => true,
            _ => closed(row.q.p, row.q.status),
        };
        if now && !row.closed {
            (row.closed, row.finish) = (true, Some(at));
        } else if !now && row.closed {
            (row.closed, row.finish) = (false, None);
        }
    }

    /// A PATCH: `version` + 1 (OCC), `modified_date` now.
    fn patch(&mut self, k: usize, at: i64) -> i64 {
        let m = at + self.r.range(4_000, 40_000);
        (self.rows[k].version, self.rows[k].modified) = (self.rows[k].version + 1, m);
        m
    }

    fn status(&mut self, k: usize, s: usize, at: i64) {
        if self.rows[k].deleted || self.rows[k].q.status == s {
            return;
        }
        // pre_save: a new status puts the story at the end of its kanban column.
        let ko = at + self.r.range(3_000, 30_000);
        let m = ko + self.r.range(300, 4_000);
        let fin = m + self.r.range(2_000, 12_000);
        let row = &mut self.rows[k];
        (row.q.status, row.kanban, row.modified, row.version) = (s, ko, m, row.version + 1);
        self.reclose(k, fin);
    }

    fn drag(&mut self, k: usize, s: usize, w: u8, at: i64) {
        if self.rows[k].deleted {
            return;
        }
        let (p, lane) = (self.rows[k].q.p, self.rows[k].q.lane);
        let rows = &self.rows;
        let mut col: Vec<usize> = (0..rows.len())
            .filter(|&j| {
                j != k && !rows[j].deleted && rows[j].q.p == p && rows[j].q.status == s && rows[j].q.lane == lane
            })
            .collect();
        col.sort_by_key(|&j| (rows[j].kanban, rows[j].id));
        if w == 3 && col.is_empty() {
            return;
        }
        let after = match w {
            _ if col.is_empty() => None,
            0 => Some(col[col.len() - 1]),
            2 => Some(col[self.r.below(col.len() as u64) as usize]),
            _ => None,
        };
        let (start, rest): (i64, Vec<usize>) = match after {
            Some(a) => {
                let o = rows[a].kanban;
                (o + 1, col.iter().copied().filter(|&j| j != a && rows[j].kanban >= o).collect())
            }
            None if col.is_empty() => (1, Vec::new()),
            None => (rows[col[0]].kanban, col),
        };
        self.rows[k].kanban = start;
        for (i, &j) in rest.iter().enumerate() {
            self.rows[j].kanban = start + 1 + i as i64;
        }
        self.rows[k].q.status = s;
        // The celery task after the move: is_closed again (no `modified_date`, no `version`).
        let fin = at + self.r.range(60_000, 1_500_000);
        self.reclose(k, fin);
    }

    fn top(&mut self, k: usize) {
        if self.rows[k].deleted || self.rows[k].milestone.is_some() {
            return;
        }
        let p = self.rows[k].q.p;
        let rows = &self.rows;
        let mut col: Vec<usize> = (0..rows.len())
            .filter(|&j| j != k && !rows[j].deleted && rows[j].q.p == p && rows[j].milestone.is_none())
            .collect();
        if col.is_empty() {
            return;
        }
        col.sort_by_key(|&j| (rows[j].backlog, rows[j].id));
        let start = rows[col[0]].backlog;
        self.rows[k].backlog = start;
        for (i, &j) in col.iter().enumerate() {
            self.rows[j].backlog = start + 1 + i as i64;
        }
    }

    /// Sprint planning: a new milestone; the unfinished stories of the last sprint and the top of the backlog (and
    /// the ceremony lines) dragged into it at once, `sprint_order` from 1; tasks written for most of them.
    fn plan(&mut self, p: usize, n: usize, at: i64) {
        self.milestone += 1;
        let mid = self.milestone;
        let rows = &self.rows;
        let mut carried: Vec<usize> = (0..rows.len())
            .filter(|&j| {
                let x = &rows[j];
                x.q.p == p && !x.deleted && x.carry && !x.closed && x.sprint_no.is_some_and(|m| m + 1 == n)
            })
            .collect();
        carried.sort_by_key(|&j| (rows[j].sprint, rows[j].id));
        let mut fresh: Vec<usize> = (0..rows.len())
            .filter(|&j| {
                let x = &rows[j];
                x.q.p == p
                    && !x.deleted
                    && x.plan
                    && !x.closed
                    && x.milestone.is_none()
                    && x.fate != Fate::Ceremony
                    && x.created < at - 30 * MINUTE
            })
            .collect();
        fresh.sort_by_key(|&j| (rows[j].backlog, rows[j].id));
        fresh.truncate((self.r.range(14, 24) as usize).saturating_sub(carried.len()).max(3));
        let ceremony: Vec<usize> = (0..rows.len())
            .filter(|&j| rows[j].q.p == p && rows[j].fate == Fate::Ceremony && rows[j].milestone.is_none())
            .filter(|&j| !rows[j].deleted && rows[j].created < at)
            .collect();
        let movers: Vec<usize> = carried.iter().chain(&fresh).chain(&ceremony).copied().collect();
        for (i, &j) in movers.iter().enumerate() {
            let x = &mut self.rows[j];
            (x.milestone, x.sprint, x.sprint_no, x.carry) = (Some(mid), i as i64 + 1, Some(n), false);
        }
        for &j in &fresh {
            if self.r.chance(0.75) {
                self.rows[j].tasks = 1;
                self.seq[p] += self.r.range(2, 6);
            }
        }
        for &j in &movers {
            self.sprint_life(j, at);
        }
    }

    fn edit(&mut self, k: usize, what: u8, at: i64) {
        if self.rows[k].deleted {
            return;
        }
        let p = self.rows[k].q.p;
        match what {
            0 => {
                let note = format!(
                    "\n\n**Update:** {} {}.",
                    self.r.one(&["agreed to", "decided not to", "we still need to"]),
                    self.r.one(PARTS).to_lowercase()
                );
                self.rows[k].q.desc.push_str(&note);
            }
            1 => {
                let tag = self.r.one(TAGS[p]).to_string();
                if !self.rows[k].q.tags.contains(&tag) {
                    self.rows[k].q.tags.push(tag);
                }
            }
            2 => self.rows[k].q.due = Some(day(at) + self.r.range(2, 21) * DAY),
            3 => {
                // Blocked, or unblocked (`blocked_pre_save` empties the note).
                let note = self.r.one(&["Waiting on legal", "Needs the new API", "Depends on the design review"]);
                let q = &mut self.rows[k].q;
                q.blocked = if q.blocked.is_some() { None } else { Some(note) };
            }
            _ => {
                let tail = self.r.one(&[" (part 1)", " (needs design)", " (see comments)", " - backend"]);
                self.rows[k].q.subject.push_str(tail);
            }
        }
        self.patch(k, at);
    }

    fn run(&mut self) {
        while let Some(Reverse((at, e))) = self.queue.pop() {
            let Some(ev) = self.events[e].take() else { continue };
            match ev {
                Ev::Create(post) => self.create(post, at),
                Ev::Status(k, s) => self.status(k, s, at),
                Ev::Assign(k, who) if !self.rows[k].deleted && self.rows[k].q.assigned != Some(who) => {
                    self.rows[k].q.assigned = Some(who);
                    self.patch(k, at);
                }
                Ev::Edit(k, what) => self.edit(k, what, at),
                Ev::Drag(k, s, w) => self.drag(k, s, w, at),
                Ev::Top(k) => self.top(k),
                Ev::Plan(p, n) => self.plan(p, n, at),
                Ev::TasksDone(k) if !self.rows[k].deleted && self.rows[k].tasks == 1 => {
                    self.rows[k].tasks = 2;
                    let fin = at + self.r.range(5_000, 40_000);
                    self.reclose(k, fin);
                }
                Ev::Delete(k) => self.rows[k].deleted = true,
                Ev::Milestones => {
                    for _ in 0..4 {
                        self.milestone += 1;
                        self.github_milestones.push(self.milestone);
                    }
                }
                Ev::Recalc(p, max) => {
                    // `setval(seq, GREATEST(nextval(seq), max(ref)))`
                    self.seq[p] = (self.seq[p] + 1).max(max);
                }
                _ => {}
            }
        }
    }
}

/// The Trello importer (kanban template, a status per list, no list closed): each card in list order, `pos` as all
/// three orders, dates and creator from the card's actions, a task per checklist item.
fn trello(s: &mut Sim) {
    let at0 = opened(CONTENT) + 25 * SECOND;
    let mut at = at0;
    let mut weekly = 0;
    let weekly_desc = "Collect the week's posts from the team channel and schedule them in Buffer.";
    for (st, n) in [(0, 34), (1, 20), (2, 10), (3, 6), (4, 72)] {
        let mut pos = 0;
        for j in 0..n {
            pos += 16_384;
            let order = if j > 0 && s.r.chance(0.15) { pos - 8_192 } else { pos };
            let ms = |us: i64| us - us.rem_euclid(1_000);
            let created = ms(at0 - s.r.range(5 * 86_400, 420 * 86_400) * SECOND - s.r.below(1_000_000) as i64);
            let modified =
                ms((created + s.r.range(0, 40 * 86_400) * SECOND + s.r.below(1_000_000) as i64).min(at0 - HOUR));
            let copy = st == 4 && j % 7 == 3;
            let (subject, desc, tags, mark, src) = if copy {
                let c = ms(at0 - (70 - 7 * weekly) * DAY + 9 * HOUR + s.r.range(0, 3_600_000) * 1_000);
                let m = ms(c + s.r.range(2 * 86_400_000, 5 * 86_400_000) * 1_000);
                weekly += 1;
                let mark = if weekly > 1 { Mark::Legit } else { Mark::Plain };
                ("Weekly social roundup".to_string(), weekly_desc.to_string(), vec!["social".to_string()], mark, (c, m))
            } else {
                let topic = s.r.one(TOPICS);
                let subject = match s.r.below(5) {
                    0 => format!("Blog: {topic}"),
                    1 => format!("Newsletter: {} issue", s.r.one(MONTHS)),
                    2 => format!("Case study: {}", s.r.one(COMPANIES)),
                    3 => format!("Social: {topic} carousel"),
                    _ => format!("Webinar: {topic}"),
                };
                let desc = if s.r.chance(0.5) {
                    String::new()
                } else {
                    format!("Draft: https://docs.google.com/document/d/{}/edit\n\nAbout {topic}.", s.r.alnum(24))
                };
                let tags = match s.r.below(6) {
                    0 => vec![],
                    1 => vec!["green".to_string()],
                    _ => vec![s.r.one(TAGS[CONTENT]).to_string()],
                };
                (subject, desc, tags, Mark::Plain, (created, modified))
            };
            let owner = if s.r.chance(0.75) { s.member(CONTENT) } else { TRELLO_USER };
            let assigned = s.r.chance(0.6).then(|| s.member(CONTENT));
            let checklist: Vec<bool> = if s.r.chance(0.2) {
                let all = st == 4 && s.r.chance(0.9);
                (0..2 + s.r.below(5)).map(|_| all || s.r.chance(0.5)).collect()
            } else {
                Vec::new()
            };
            let q = Req {
                p: CONTENT,
                owner,
                subject,
                desc,
                tags,
                status: st,
                assigned,
                src: Some(src),
                order: Some(order),
                checklist,
                ..Req::default()
            };
            let line = Line { q, mark, hidden: false, fate: Fate::Imported };
            s.push(at, Ev::Create(Post { lines: vec![line], import: true }));
            at += s.r.range(400_000, 1_600_000);
        }
    }
}

/// The GitHub importer (user stories, kanban template, statuses Open and Closed): every issue and pull request by
/// number with its number as `ref` and as the orders, its dates, labels as tags, the link as external reference.
fn github(s: &mut Sim) {
    let at0 = opened(CLI) + 15 * SECOND;
    s.push(at0, Ev::Milestones);
    let mut at = at0 + 2 * SECOND;
    let n: i64 = 188;
    let (first, step) = (at0 - 3 * 365 * DAY, 3 * 365 * DAY / n);
    let mut bots: Vec<(String, String, bool)> = Vec::new();
    for num in 1..=n {
        if [37, 112, 150].contains(&num) {
            continue;
        }
        let secs = |us: i64| us - us.rem_euclid(SECOND);
        let created = secs(first + (num - 1) * step + s.r.range(0, step / 2 / SECOND) * SECOND);
        let updated = secs((created + s.r.range(0, 90 * 86_400) * SECOND).min(at0 - HOUR));
        let shut = s.r.chance(if created < at0 - 180 * DAY { 0.85 } else { 0.5 });
        let (cmd, problem) = (s.r.one(COMMANDS), s.r.one(PROBLEMS));
        let again = bots.iter().position(|b| b.2).filter(|_| s.r.chance(0.3));
        let (subject, desc, tags, mark, pr) = match s.r.below(10) {
            0..=1 if again.is_some() => {
                // "@dependabot recreate": the same pull request again.
                let i = again.unwrap_or_default();
                bots[i].2 = false;
                (bots[i].0.clone(), bots[i].1.clone(), vec!["dependencies".to_string()], Mark::Legit, true)
            }
            0..=1 => {
                let (dep, a, b) = s.r.one(DEPS);
                let subject = format!("Bump {dep} from {a} to {b}");
                let desc = format!(
                    "Bumps [{dep}](https://github.com/{dep}) from {a} to {b}.\n\nDependabot will resolve any \
                     conflicts with this PR as long as you don't alter it yourself."
                );
                let mut tags = vec!["dependencies".to_string()];
                if dep.starts_with("actions/") {
                    tags.push("github_actions".to_string());
                }
                bots.push((subject.clone(), desc.clone(), shut));
                (subject, desc, tags, Mark::Plain, true)
            }
            2..=3 => {
                let subject = format!("Add --{} to `acme {cmd}`", s.r.one(&["json", "quiet", "yes", "profile"]));
                let desc = if s.r.chance(0.5) {
                    format!("Closes #{}", (num - s.r.range(1, 20)).max(1))
                } else {
                    String::new()
                };
                (subject, desc, Vec::new(), Mark::Plain, true)
            }
            _ => {
                let desc = if s.r.chance(0.75) {
                    format!(
                        "### Steps to reproduce\n\n1. Run `acme {cmd}`\n2. {}\n\n### Version\n\nacme-cli 1.{}.{}",
                        s.r.one(&["Wait", "Press Ctrl+C", "Switch the profile"]),
                        s.r.below(4),
                        s.r.below(9)
                    )
                } else {
                    String::new()
                };
                let mut tags = vec![s.r.one(&["bug", "bug", "enhancement", "question", "documentation"]).to_string()];
                if s.r.chance(0.1) {
                    tags.push("good first issue".to_string());
                }
                (format!("`acme {cmd}` {problem}"), desc, tags, Mark::Plain, false)
            }
        };
        let owner = if s.r.chance(0.35) { s.member(CLI) } else { GITHUB_USER };
        let assigned = s.r.chance(0.4).then(|| s.member(CLI));
        let milestone = (num > 40 && s.r.chance(0.3)).then_some(((num - 40) * 4 / (n - 39)) as usize);
        let kind = if pr { "pull" } else { "issues" };
        let q = Req {
            p: CLI,
            owner,
            subject,
            desc,
            tags,
            status: usize::from(shut),
            assigned,
            ext: Some(format!("https://github.com/acme/acme-cli/{kind}/{num}")),
            src: Some((created, updated)),
            order: Some(num),
            number: Some(num),
            milestone,
            ..Req::default()
        };
        let line = Line { q, mark, hidden: false, fate: Fate::Imported };
        s.push(at, Ev::Create(Post { lines: vec![line], import: true }));
        at += s.r.range(60_000, 250_000) + if num % 100 == 0 { s.r.range(800_000, 1_500_000) } else { 0 };
    }
    s.push(at + 100_000, Ev::Recalc(CLI, n));
}

fn array(items: &[String]) -> V {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{}'", s.replace('\'', "''"))).collect();
    V::Raw(format!("ARRAY[{}]::text[]", quoted.join(", ")))
}

fn date(us: i64) -> V {
    V::t(chrono::DateTime::from_timestamp_micros(us).unwrap().format("%Y-%m-%d").to_string())
}

pub fn fixture() -> Fixture {
    let mut s = Sim {
        r: Rng::new(6_043),
        rows: Vec::new(),
        queue: BinaryHeap::new(),
        events: Vec::new(),
        next_id: 1,
        seq: [0; 10],
        milestone: 0,
        github_milestones: Vec::new(),
    };

    // Sprint planning every other week in the scrum projects, the scrum master's ceremony lines added just before.
    for p in (0..SPECS.len()).filter(|&p| SPECS[p].0 == SCRUM) {
        let sm = SPECS[p].3.0;
        for n in 0.. {
            let at = START + (SPECS[p].5 + 14 * n as i64) * DAY + 9 * HOUR + 30 * MINUTE + s.r.range(0, 900) * SECOND;
            if at >= NOW {
                break;
            }
            let mark = if n == 0 { Mark::Plain } else { Mark::Legit };
            let lines = CEREMONY
                .iter()
                .map(|&l| (Req { p, owner: sm, subject: l.to_string(), bulk: true, ..Req::default() }, mark))
                .collect();
            let a = at - s.r.range(20, 70) * MINUTE;
            s.send(a, lines, Fate::Ceremony, &[]);
            s.push(at, Ev::Plan(p, n));
        }
    }

    trello(&mut s);
    github(&mut s);

    // n8n on Monday 07:00: the dependency chore into Web and Mobile, the on-call handover into Ops. Two runs failed at
    // the gateway and were retried from n8n's executions list hours later.
    for week in 1.. {
        let monday = START + week * 7 * DAY + 7 * HOUR;
        if monday >= NOW {
            break;
        }
        let chore = "Weekly dependency updates";
        let what = "Review and merge this week's Renovate pull requests; read the changelogs for breaking changes.";
        let tags = vec!["chore".to_string(), "dependencies".to_string()];
        let w = chrono::DateTime::from_timestamp_micros(monday).unwrap().iso_week().week();
        let handover = Req {
            p: OPS,
            owner: N8N,
            subject: format!("On-call handover, week {w}"),
            desc: "Hand over the pager, review last week's incidents and open alerts.".to_string(),
            tags: vec!["on-call".to_string()],
            lane: Some(lanes(OPS)[1]),
            ..Req::default()
        };
        let mut reqs = Vec::new();
        for (i, p) in [WEB, MOBILE].into_iter().enumerate() {
            let q = Req {
                p,
                owner: N8N,
                subject: chore.to_string(),
                desc: what.to_string(),
                tags: tags.clone(),
                ..Req::default()
            };
            reqs.push((q, if week > 1 || i > 0 { Mark::Legit } else { Mark::Plain }));
        }
        reqs.push((handover, Mark::Plain));
        let rerun = [4, 9].contains(&week);
        let mut at = monday + s.r.range(900_000, 3_000_000);
        for (q, mark) in reqs.iter().cloned() {
            let delays = if s.r.chance(0.04) { vec![35 * SECOND + s.r.range(0, 900_000)] } else { vec![] };
            let fate = if rerun { Fate::Original } else { Fate::Normal };
            s.send(at, vec![(q, mark)], fate, &delays);
            at += s.r.range(1_500_000, 4_000_000);
        }
        if rerun {
            let mut at = monday + s.r.range(40 * 60, 4 * 3_600) * SECOND;
            for (q, _) in reqs {
                let hidden = q.p != OPS;
                let line = Line { q, mark: Mark::Retry, hidden, fate: Fate::Extra(2) };
                s.push(at, Ev::Create(Post { lines: vec![line], import: false }));
                at += s.r.range(1_500_000, 4_000_000);
            }
        }
    }

    // People, the mobile app and the intake script, through the working day.
    let mut t = START + 11 * HOUR + 30 * MINUTE;
    let mut late = 0;
    loop {
        let mut gap = s.r.range(85, 2_400) * SECOND * 10 / RHYTHM[(t / HOUR % 24) as usize];
        if weekday(t) >= 5 {
            gap *= 6;
        }
        if t < START + 10 * DAY {
            gap = gap * 2 / 3;
        }
        t += gap + s.r.below(1_000_000) as i64;
        if t >= NOW - 5 * MINUTE {
            break;
        }
        let forced = late < LATE.len() && t > LATE[late];
        late += usize::from(forced);
        let p = s.project(t);
        let by = s.member(p);
        let x = if forced { 999 } else { s.r.below(1_000) };
        let resubmit = |r: &mut Rng| 60 * SECOND + r.range(3, 25) * SECOND + r.below(1_000_000) as i64;
        if x < 6 && [WEB, MOBILE, DESIGN].contains(&p) && (p != DESIGN || opened(RELAUNCH) < t) {
            // The same story filed into a sibling project.
            let q = s.lightbox(p, by, t);
            let other = match p {
                WEB => MOBILE,
                MOBILE => WEB,
                _ => RELAUNCH,
            };
            let lane = s.lane(other, false);
            let twin = Req { p: other, status: 0, lane, top: false, ..q.clone() };
            s.send(t, vec![(q, Mark::Plain)], Fate::Normal, &[]);
            let a = s.later(t, 20, 300);
            s.send(a, vec![(twin, Mark::Legit)], Fate::Normal, &[]);
        } else if x < 70 && p != CLI {
            // "Add user stories in bulk", from the backlog or a kanban column.
            let lines = s.bulk(p, by, false);
            let delays = if s.r.chance(0.02) { vec![resubmit(&mut s.r)] } else { vec![] };
            s.send(t, lines, Fate::Normal, &delays);
        } else if x < 82 && SPECS[p].0 == SCRUM {
            // An epic's "add user stories in bulk".
            let lines = s.bulk(p, by, true);
            s.send(t, lines, Fate::Normal, &[]);
        } else if (82..100).contains(&x) {
            let q = s.promote(t);
            s.send(t, vec![(q, Mark::Plain)], Fate::Normal, &[]);
        } else if (100..180).contains(&x) && p != CLI {
            let q = s.mobile(p, by);
            let mut delays = Vec::new();
            if s.r.chance(0.045) {
                delays.push(client_retry_delay(&mut s.r));
                if s.r.chance(0.2) {
                    delays.push(delays[0] + client_retry_delay(&mut s.r));
                }
            }
            s.send(t, vec![(q, Mark::Plain)], Fate::Normal, &delays);
        } else if (180..240).contains(&x) {
            // urllib3's Retry after the script's 30 s read timeout, then once more with its backoff.
            let q = s.intake();
            let mut delays = Vec::new();
            if s.r.chance(0.05) {
                delays.push(30 * SECOND + s.r.range(5_000, 500_000));
                if s.r.chance(0.25) {
                    delays.push(delays[0] + 32 * SECOND + s.r.range(5_000, 500_000));
                }
            }
            s.send(t, vec![(q, Mark::Plain)], Fate::Normal, &delays);
        } else {
            // The lightbox: a 504 from the gateway after 60 s, the form still open, Save again.
            let q = s.lightbox(p, by, t);
            let delays = if forced || s.r.chance(0.012) { vec![resubmit(&mut s.r)] } else { vec![] };
            s.send(t, vec![(q, Mark::Plain)], Fate::Normal, &delays);
        }
    }

    s.run();

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("userstories_userstory", &columns);
    for x in s.rows.iter().filter(|x| !x.deleted) {
        let q = &x.q;
        f.push(&[
            ("id", V::I(x.id)),
            ("tags", array(&q.tags)),
            ("version", V::I(x.version)),
            ("is_blocked", V::B(q.blocked.is_some())),
            ("blocked_note", V::t(q.blocked.unwrap_or(""))),
            ("ref", V::I(x.reference)),
            ("is_closed", V::B(x.closed)),
            ("backlog_order", V::I(x.backlog)),
            ("created_date", V::AtZ(x.created)),
            ("modified_date", V::AtZ(x.modified)),
            ("finish_date", x.finish.map_or(V::Null, V::AtZ)),
            ("subject", V::t(&q.subject)),
            ("description", V::t(&q.desc)),
            ("client_requirement", V::B(q.client)),
            ("team_requirement", V::B(q.team)),
            ("assigned_to_id", V::opt_i(q.assigned)),
            ("generated_from_issue_id", V::opt_i(q.issue)),
            ("milestone_id", V::opt_i(x.milestone)),
            ("owner_id", V::I(q.owner)),
            ("project_id", V::I(q.p as i64 + 1)),
            ("status_id", V::I(status_id(q.p, q.status))),
            ("sprint_order", V::I(x.sprint)),
            ("kanban_order", V::I(x.kanban)),
            ("external_reference", q.ext.as_ref().map_or(V::Null, |u| array(&["github".to_string(), u.clone()]))),
            ("due_date", q.due.map_or(V::Null, date)),
            ("due_date_reason", V::t("")),
            ("swimlane_id", V::opt_i(q.lane)),
        ]);
        f.mark(x.id, x.mark);
        if x.hidden {
            f.hidden.insert(x.id.to_string());
        }
    }
    f
}
