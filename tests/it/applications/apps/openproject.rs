//! OpenProject (Ruby on Rails, ActiveRecord; PostgreSQL only): `work_packages`, as `WorkPackages::CreateService` writes
//! a row for the web app's create form, inline create and board quick add (all `POST /api/v3/work_packages`), the
//! backlogs page, "create child", "copy", API clients (scripts, n8n, the Nextcloud integration), the incoming mail
//! handler, the CSV import and the BCF import, and as people, the backlogs planning and the trash change it later: 8
//! projects of one company, 45 days, semantic work package identifiers switched on.
//! Read: opf/openproject db/migrate/tables/work_packages.rb (45b991b, and its later form with
//! `project_phase_definition`), db/migrate/*_aggregated_migrations.rb (the squash up to 20250908),
//! db/migrate/tables/base.rb, the `AddWorkPackageTrash` and `CreateWorkPackageSemanticIds` migrations;
//! modules/backlogs/db/migrate/1002015_aggregated_backlogs_migrations.rb (45b991b: `position`, `story_points`,
//! `remaining_hours`), 20260202150252_add_sprint_id_to_work_packages.rb, 20260415211819_add_backlog_bucket_id_to_
//! work_packages.rb, 20260416213200_add_backlog_bucket_xor_sprint_constraint_to_work_packages.rb (9610091),
//! 20260325101553_reposition_work_packages.rb (7eeba04); modules/budgets/db/migrate/1004017_aggregated_budget_
//! migrations.rb (3fc202b: `budget_id`); app/models/work_package.rb (0092e04), app/models/work_package/
//! semantic_identifier.rb (34dd808); app/services/work_packages/create_service.rb (06938c4), set_attributes_service.rb
//! (40b2bbe), update_ancestors_service.rb (df23744), trash_service.rb (5095dfd), purge_service.rb (73f808f),
//! import/csv/import_service.rb (08614d9); modules/backlogs/lib/open_project/backlogs/list.rb (`acts_as_list
//! touch_on_update: false, scope: %i[project_id backlog_bucket_id sprint_id]`), patches/work_package_patch.rb
//! (9075fa4), app/services/backlogs/work_packages/rebuild_positions_service.rb.
//! On a create: a fresh `id` from the sequence; `created_at` = `updated_at` (microseconds), `lock_version` 0;
//! `author_id` the caller; `status_id` New and `priority_id` Normal unless sent; the type's template as the description
//! when none is sent (Bug); start and due dates from the parent when it has them, `duration` the working days between
//! them (1 for a milestone); `schedule_manually` true, `ignore_non_working_days` false; `done_ratio` NULL, or 0 with
//! `remaining_hours` = `estimated_hours` when work is given (work-based progress); derived values NULL on a leaf.
//! `position` is acts_as_list's bottom + 1 of the (project, bucket, sprint) list, trashed rows included. After the
//! insert the semantic identifier is allocated (`update_columns`: no timestamp, no lock bump): the next value of the
//! project's counter as `sequence_number`, `identifier` "PLAT-2418"; a number never comes back. A child's create saves
//! its parent again when the parent's derived work changes. The CSV import runs the same service row by row in one
//! transaction, then back-dates `created_at`/`updated_at` with `update_columns` when the sheet has them. The BCF import
//! creates one row per topic and finds a re-imported topic by its uuid (no new row).
//! Later: status moves (closing sets `done_ratio` 100 and `remaining_hours` 0), assignments, work and progress, story
//! points, subject and description edits, dates; every save bumps `lock_version` and `updated_at`. The backlogs page
//! moves items into sprints at planning and carries unfinished ones over (each a save; acts_as_list closes the gap in
//! the old list and appends to the new one with `update_all`, which touches neither), and drags reorder a list.
//! "Delete" moves to the trash: `deleted_at`, `deleted_by_id`, a `deletion_group` uuid (a save); an admin purging the
//! trash destroys rows (gaps in ids and numbers, the lists close up).
//! Retries (about 1.5% of creates): the form saved again after the reverse proxy's 504 (the first request had
//! committed) 58-95 s later; n8n and scripts re-posting after a timeout (some twice); double submits from the Nextcloud
//! integration's dialog; an email processed again at the next poll after the IMAP session broke before the message was
//! flagged; three late in the table. Each extra row got its own id, number, identifier and position, and its own fate:
//! trashed, rejected as a duplicate, left alone, worked on; some groups lost the original instead.
//! Legitimate repeats: two new hires starting the same day (HR imports the onboarding sheet twice, minutes apart);
//! unchanged copies (social posts, helpdesk tickets); the n8n weekly chores; a ticket sent again by mail days later; a
//! work package trashed by mistake and created again. Plain near-repeats: alerts that differ in their values, BCF
//! clashes, the onboarding sheet for other first days, renamed copies, titles people reuse.
//! Guessed: the company, projects, people, rates and rhythms; seeded ids of types, statuses, priorities; sprints,
//! buckets and their sizes before the window; the proxy timeout, the n8n and mail poll intervals; the trash purge; that
//! carried-over sprint items and children keep their own lists; the final form of the semantic identifier migration
//! (columns `integer`, partial unique indexes) and the order of the 2026 columns. Journals, custom values, relations
//! and work_package_versions are not written.
use std::collections::{HashMap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, client_retry_delay, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as the squashed migration, the backlogs and budgets modules and the 2026 migrations leave it, without the
/// foreign keys to types, projects, statuses, users, sprints and buckets.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"CREATE TABLE "work_packages" (
    "id" bigserial NOT NULL, "type_id" bigint NOT NULL, "project_id" bigint NOT NULL,
    "subject" character varying DEFAULT ''::character varying NOT NULL, "description" text, "due_date" date,
    "category_id" bigint, "status_id" bigint NOT NULL, "assigned_to_id" bigint, "priority_id" bigint,
    "version_id" bigint, "author_id" bigint NOT NULL, "lock_version" integer DEFAULT 0 NOT NULL, "done_ratio" integer,
    "estimated_hours" double precision, "created_at" timestamp without time zone,
    "updated_at" timestamp without time zone, "start_date" date, "responsible_id" bigint,
    "derived_estimated_hours" double precision, "schedule_manually" boolean DEFAULT true NOT NULL, "parent_id" bigint,
    "duration" integer, "ignore_non_working_days" boolean DEFAULT false NOT NULL,
    "derived_remaining_hours" double precision, "derived_done_ratio" integer, "project_phase_definition_id" bigint,
    "position" integer, "story_points" integer, "remaining_hours" double precision, "budget_id" integer,
    "sprint_id" bigint, "deleted_at" timestamp(6) without time zone, "deleted_by_id" bigint, "deletion_group" uuid,
    "sequence_number" integer, "identifier" character varying, "backlog_bucket_id" bigint,
    CONSTRAINT "work_packages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "work_packages_due_larger_start_date" CHECK (due_date >= start_date),
    CONSTRAINT "work_package_backlog_bucket_xor_sprint" CHECK (backlog_bucket_id IS NULL OR sprint_id IS NULL)
);
CREATE INDEX "index_work_packages_on_type_id" ON "work_packages" ("type_id");
CREATE INDEX "index_work_packages_on_project_id" ON "work_packages" ("project_id");
CREATE INDEX "index_work_packages_on_due_date" ON "work_packages" ("due_date");
CREATE INDEX "index_work_packages_on_category_id" ON "work_packages" ("category_id");
CREATE INDEX "index_work_packages_on_status_id" ON "work_packages" ("status_id");
CREATE INDEX "index_work_packages_on_assigned_to_id" ON "work_packages" ("assigned_to_id");
CREATE INDEX "index_work_packages_on_version_id" ON "work_packages" ("version_id");
CREATE INDEX "index_work_packages_on_author_id" ON "work_packages" ("author_id");
CREATE INDEX "index_work_packages_on_created_at" ON "work_packages" ("created_at");
CREATE INDEX "index_work_packages_on_updated_at" ON "work_packages" ("updated_at");
CREATE INDEX "index_work_packages_on_start_date" ON "work_packages" ("start_date");
CREATE INDEX "index_work_packages_on_responsible_id" ON "work_packages" ("responsible_id");
CREATE INDEX "index_work_packages_on_parent_id" ON "work_packages" ("parent_id");
CREATE INDEX "index_work_packages_on_project_id_and_updated_at" ON "work_packages" ("project_id", "updated_at");
CREATE INDEX "index_work_packages_on_schedule_manually" ON "work_packages" ("schedule_manually")
    WHERE "schedule_manually";
CREATE INDEX "index_work_packages_on_project_phase_definition_id" ON "work_packages" ("project_phase_definition_id");
CREATE INDEX "index_work_packages_on_sprint_id" ON "work_packages" ("sprint_id");
CREATE INDEX "index_work_packages_on_deleted_at" ON "work_packages" ("deleted_at");
CREATE INDEX "index_work_packages_on_deletion_group" ON "work_packages" ("deletion_group");
CREATE UNIQUE INDEX "index_work_packages_on_identifier" ON "work_packages" ("identifier")
    WHERE ("identifier" IS NOT NULL);
CREATE UNIQUE INDEX "index_work_packages_on_project_id_and_sequence_number" ON "work_packages"
    ("project_id", "sequence_number") WHERE ("sequence_number" IS NOT NULL);
CREATE INDEX "index_work_packages_on_backlog_bucket_id" ON "work_packages" ("backlog_bucket_id");"#
            .to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("OpenProject runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "id type_id project_id subject description due_date category_id status_id assigned_to_id \
    priority_id version_id author_id lock_version done_ratio estimated_hours created_at updated_at start_date \
    responsible_id derived_estimated_hours schedule_manually parent_id duration ignore_non_working_days \
    derived_remaining_hours derived_done_ratio project_phase_definition_id position story_points remaining_hours \
    budget_id sprint_id deleted_at deleted_by_id deletion_group sequence_number identifier backlog_bucket_id";

const NOW: i64 = T0;
/// A Monday.
const START: i64 = T0 - 45 * DAY;
const ID0: i64 = 48_211;
/// Creates per hour of the day (UTC), relative: one company in Germany (CEST).
const RHYTHM: [i64; 24] = [1, 1, 1, 1, 2, 4, 8, 10, 10, 10, 9, 7, 9, 10, 10, 9, 7, 4, 2, 2, 1, 1, 1, 1];
/// The first form create after each of these is saved again after a 504.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 8 * HOUR, NOW - 3 * HOUR];

// Seeded ids. Types: Task, Milestone, Phase, Feature, Epic, User story, Bug; the BIM seed's Issue and Clash.
const TASK: i64 = 1;
const MILESTONE: i64 = 2;
const PHASE: i64 = 3;
const FEATURE: i64 = 4;
const EPIC: i64 = 5;
const STORY: i64 = 6;
const BUG: i64 = 7;
const ISSUE: i64 = 8;
const CLASH: i64 = 9;
// Statuses.
const NEW: i64 = 1;
const CONFIRMED: i64 = 4;
const SCHEDULED: i64 = 6;
const PROGRESS: i64 = 7;
const DEVELOPED: i64 = 8;
const TESTING: i64 = 9;
const CLOSED: i64 = 12;
const HOLD: i64 = 13;
const REJECTED: i64 = 14;
// Priorities.
const LOW: i64 = 7;
const NORMAL: i64 = 8;
const HIGH: i64 = 9;
const IMMEDIATE: i64 = 10;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pk {
    Dev,
    Plan,
    Ops,
    Desk,
    Hr,
    Bim,
}

/// Projects: id, semantic identifier, kind, work packages numbered before the window, rows in the project's backlog
/// list (no sprint, no bucket) before the window, members.
#[rustfmt::skip]
const SPECS: [(i64, &str, Pk, i64, usize, i64, i64); 8] = [
    (3, "PLAT", Pk::Dev, 2_417, 702, 4, 17), (5, "MOB", Pk::Dev, 1_288, 433, 14, 23),
    (7, "WEB", Pk::Plan, 214, 209, 24, 31), (8, "OPS", Pk::Ops, 3_904, 3_871, 32, 37),
    (11, "ITS", Pk::Desk, 6_231, 6_188, 38, 42), (12, "MKT", Pk::Plan, 734, 716, 43, 49),
    (14, "HR", Pk::Hr, 1_115, 1_097, 50, 53), (16, "BIM", Pk::Bim, 243, 236, 54, 57),
];
const PLAT: usize = 0;
const MOB: usize = 1;
const WEB: usize = 2;
const OPS: usize = 3;
const ITS: usize = 4;
const MKT: usize = 5;
const HR: usize = 6;
const BIM: usize = 7;
/// Users 4-57 are people; the n8n automation user and the Alertmanager integration's user follow.
const N8N: i64 = 60;
const ALERTS: i64 = 61;
const PEOPLE: i64 = 54;
/// PLAT's buckets "Ready" and "Icebox", MOB's "Next up".
const READY: i64 = 6;
const ICEBOX: i64 = 7;
const NEXT: i64 = 9;
/// Sprint planning: project, the new sprint, the one before, when (Mondays for PLAT, Wednesdays for MOB).
#[rustfmt::skip]
const SPRINTS: [(usize, i64, i64, i64); 6] = [
    (PLAT, 102, 101, START + 7 * DAY + 7 * HOUR + 30 * MINUTE), (PLAT, 103, 102, START + 21 * DAY + 7 * HOUR),
    (PLAT, 104, 103, START + 35 * DAY + 7 * HOUR + 45 * MINUTE), (MOB, 112, 111, START + 9 * DAY + 8 * HOUR),
    (MOB, 113, 112, START + 23 * DAY + 8 * HOUR + 15 * MINUTE), (MOB, 114, 113, START + 37 * DAY + 8 * HOUR),
];
/// An admin empties the trash of what was trashed more than two days before.
const PURGE: i64 = START + 31 * DAY + 12 * HOUR + 40 * MINUTE;

const NAMES: &[&str] = &[
    "Anna", "Ben", "Clara", "David", "Elif", "Felix", "Greta", "Hannes", "Ines", "Jonas", "Katrin", "Lukas", "Mara",
    "Niklas", "Olga", "Paul", "Rana", "Sven", "Tanja", "Uwe", "Vera", "Wim", "Yusuf", "Zoe",
];
const VERBS: &[&str] =
    &["Fix", "Add", "Implement", "Refactor", "Investigate", "Remove", "Migrate", "Improve", "Update"];
#[rustfmt::skip]
const PLAT_THINGS: &[&str] = &["SSO login via Keycloak", "order export to CSV", "webhook retry queue",
    "rate limiting on the public API", "invoice PDF rendering", "search indexing job", "audit log for admin actions",
    "tenant settings page", "password reset flow", "S3 upload presigning", "GraphQL pagination", "session timeout",
    "Postgres connection pool", "feature flag service", "email templates", "billing proration", "API token scopes",
    "health check endpoint", "CSV import of customers", "two-factor authentication"];
#[rustfmt::skip]
const MOB_THINGS: &[&str] = &["push notifications", "offline sync", "camera upload", "biometric login", "dark mode",
    "onboarding carousel", "deep links", "in-app purchases", "order history screen", "settings screen", "map view",
    "crash reporting", "app rating prompt", "localization"];
#[rustfmt::skip]
const BENEFITS: &[&str] = &["to be faster", "to remember my settings", "to work offline", "to show clear errors",
    "to be configurable", "to support bulk actions", "to be accessible", "to send a notification"];
const PLATFORMS: &[&str] = &["", "", " on Android 14", " on iOS 18", " on tablets"];
#[rustfmt::skip]
const SYMPTOMS: &[&str] = &["returns a 500 error", "is very slow", "shows a blank page", "does not save",
    "crashes", "times out", "shows the wrong totals"];
#[rustfmt::skip]
const PAGES: &[&str] = &["home page", "product pages", "careers page", "blog", "contact form", "press area",
    "pricing page", "partner portal", "imprint and privacy pages", "search"];
const WEB_TASKS: &[&str] = &[
    "Wireframes for the",
    "Design review:",
    "Implement template for the",
    "Migrate content:",
    "SEO redirects for the",
    "Accessibility audit:",
    "Copywriting for the",
    "Tracking setup for the",
];
const WEB_PHASES: &[&str] = &["Concept", "Design", "Implementation", "Content migration", "Launch"];
const HOSTS: &[&str] = &["db-prod-01", "db-prod-02", "web-03", "web-04", "k8s-node-07", "k8s-node-11", "mq-01"];
const SERVICES: &[&str] = &["GitLab", "Keycloak", "PostgreSQL", "Kubernetes", "RabbitMQ", "Grafana", "Nextcloud"];
#[rustfmt::skip]
const ALERT_NAMES: &[&str] = &["HighCPUUsage", "DiskSpaceLow", "PostgresReplicationLag", "PodCrashLooping",
    "CertificateExpiresSoon", "HighMemoryUsage", "BackupJobFailed"];
#[rustfmt::skip]
const TICKETS: &[(&str, i64)] = &[("Laptop does not boot", 21), ("Need access to the finance share", 23),
    ("VPN keeps disconnecting", 24), ("Printer on the 3rd floor is jammed", 21), ("Outlook asks for my password", 22),
    ("New monitor for home office", 21), ("Teams camera not working", 22), ("Please reset my password", 23),
    ("Request: Adobe Acrobat license", 22), ("Phone screen broken", 21), ("No Wi-Fi in meeting room 2", 24),
    ("Access to the WEB project in OpenProject", 23), ("Docking station does not charge", 21),
    ("Calendar sharing with my assistant", 22), ("Excel crashes when opening macros", 22),
    ("Shared mailbox for the sales team", 23)];
#[rustfmt::skip]
const TOPICS: &[&str] = &["remote onboarding", "the 2.0 launch", "data privacy", "customer success stories",
    "the trade fair in Munich", "our partner program", "AI in project management", "the autumn release"];
const CHANNELS: &[&str] = &["EN", "DE", "blog", "newsletter", "LinkedIn", "press", "partners", "customers"];
const MKT_KINDS: &[&str] = &["Blog post:", "LinkedIn campaign:", "Webinar:", "Landing page for", "Social post:"];
/// The onboarding sheet: subject, assignee (IT or HR), due days before (-) or after the first day, work hours.
#[rustfmt::skip]
const ONBOARDING: &[(&str, i64, i64, f64)] = &[
    ("Prepare laptop and peripherals", 39, -3, 2.0), ("Create accounts (email, chat, OpenProject)", 40, -2, 1.0),
    ("Order access badge", 51, -5, 0.5), ("Add to payroll", 50, -7, 1.0), ("Schedule welcome lunch", 52, -2, 0.5),
    ("Assign an onboarding buddy", 52, -4, 0.5), ("IT security training", 40, 3, 1.0),
    ("Introduce to the team", 52, 0, 1.0), ("Probation review scheduled", 50, 7, 0.5),
];
/// Onboarding imports: the first day, how many hires start then.
const HIRES: [(i64, usize); 5] =
    [(START + 14 * DAY, 1), (START + 21 * DAY, 2), (START + 28 * DAY, 1), (START + 42 * DAY, 2), (START + 49 * DAY, 1)];
const ELEMENTS: &[&str] = &["Duct DN200", "Beam B12", "Sprinkler pipe", "Cable tray", "Wall W-204", "Column C4"];
const BUG_TEMPLATE: &str = "**Steps to reproduce**\n\n1.\n\n**Expected behavior**\n\n**Actual behavior**\n";

#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Via {
    #[default]
    Form,
    Inline,
    Backlogs,
    Child,
    Email,
    Api,
    Nextcloud,
    Csv,
    Bcf,
    Copy,
}

struct Proj {
    id: i64,
    key: &'static str,
    kind: Pk,
    seq: i64,
    members: Vec<i64>,
}

/// A create request as the server got it, and the fate someone gave it.
#[derive(Clone, Default)]
struct Wp {
    at: i64,
    /// `created_at` and `updated_at` the CSV import wrote back.
    back: Option<(i64, i64)>,
    p: usize,
    ty: i64,
    subject: String,
    desc: Option<String>,
    status: i64,
    priority: i64,
    author: i64,
    assignee: Option<i64>,
    responsible: Option<i64>,
    category: Option<i64>,
    version: Option<i64>,
    /// Days since the epoch.
    start: Option<i64>,
    due: Option<i64>,
    est: Option<f64>,
    sp: Option<i64>,
    parent: Option<usize>,
    phase: Option<i64>,
    budget: Option<i64>,
    bucket: i64,
    sprint: i64,
    via: Via,
    mark: Mark,
    of: Option<usize>,
    /// Trashed by someone then.
    kill: Option<i64>,
    /// Rejected as a duplicate then.
    reject: Option<i64>,
    /// Nobody touches it again.
    idle: bool,
}

/// What the row holds now.
#[derive(Clone, Default)]
struct St {
    live: bool,
    purged: bool,
    trash: Option<(i64, i64, String)>,
    status: i64,
    assignee: Option<i64>,
    est: Option<f64>,
    rem: Option<f64>,
    done: Option<i64>,
    sp: Option<i64>,
    subject: String,
    desc: Option<String>,
    start: Option<i64>,
    due: Option<i64>,
    bucket: i64,
    sprint: i64,
    lock: i64,
    updated: i64,
    seq: i64,
}

#[derive(Clone)]
enum Act {
    Create,
    Status(i64),
    Assign(i64),
    Estimate(f64),
    Progress(f64),
    Points(i64),
    Subject(String),
    Desc(String),
    Dates(i64, i64),
    Reorder,
    Trash,
    /// A child's change saved the parent's derived work.
    Touch,
    /// Sprint planning (an index into `SPRINTS`).
    Plan(usize),
    /// The admin emptying the trash.
    Purge,
}

struct Ev {
    t: i64,
    k: usize,
    by: i64,
    act: Act,
}

type Key = (usize, i64, i64);

fn day(us: i64) -> i64 {
    us.div_euclid(DAY)
}

fn weekday(d: i64) -> i64 {
    (d + 3).rem_euclid(7)
}

/// The next working day on or after `d` (`shift_dates_to_soonest_working_days`).
fn working(d: i64) -> i64 {
    match weekday(d) {
        5 => d + 2,
        6 => d + 1,
        _ => d,
    }
}

/// Working days from `a` to `b`, both counted (`Days#duration`).
fn duration(a: i64, b: i64) -> i64 {
    (a..=b).filter(|&d| weekday(d) < 5).count() as i64
}

fn date(d: i64) -> V {
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = d + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let dd = doy - (153 * mp + 2) / 5 + 1;
    let mm = if mp < 10 { mp + 3 } else { mp - 9 };
    let yy = yoe + era * 400 + i64::from(mm <= 2);
    V::t(format!("{yy:04}-{mm:02}-{dd:02}"))
}

fn name(u: i64) -> &'static str {
    NAMES[(u as usize * 7) % NAMES.len()]
}

fn member(r: &mut Rng, p: &Proj) -> i64 {
    p.members[r.skewed(p.members.len() as u64) as usize]
}

fn paragraphs(r: &mut Rng, n: u64) -> String {
    let mut out: Vec<String> = Vec::new();
    for _ in 0..1 + r.below(n) {
        let w = 6 + r.below(12) as usize;
        out.push(sentence(r, w));
    }
    if r.chance(0.2) {
        let items: Vec<String> =
            (0..2 + r.below(3)).map(|_| format!("* {} the {}", r.pick(VERBS), r.pick(WORDS))).collect();
        out.push(items.join("\n"));
    }
    out.join("\n\n")
}

fn filled_bug(r: &mut Rng) -> String {
    let (a, b) = (sentence(r, 5), sentence(r, 7));
    format!(
        "**Steps to reproduce**\n\n1. Open the {}\n2. {} the {}\n\n\
         **Expected behavior**\n\n{a}\n\n**Actual behavior**\n\n{b}",
        r.pick(WORDS),
        r.pick(VERBS),
        r.pick(WORDS)
    )
}

/// A current sprint of a project at `t`.
fn sprint_at(pi: usize, t: i64) -> i64 {
    let first = if pi == PLAT { 101 } else { 111 };
    SPRINTS.iter().filter(|s| s.0 == pi && s.3 <= t).map(|s| s.1).max().unwrap_or(first)
}

fn push(v: &mut Vec<Wp>, w: Wp) -> usize {
    v.push(w);
    v.len() - 1
}

/// The row, and the extra rows its lost responses made.
fn send(v: &mut Vec<Wp>, r: &mut Rng, w: Wp, forced: bool) -> usize {
    let p = match w.via {
        Via::Form => 0.02,
        Via::Backlogs => 0.01,
        Via::Email => 0.006,
        Via::Api => 0.05,
        Via::Nextcloud => 0.03,
        _ => 0.0,
    };
    let at = w.at;
    let via = w.via;
    let o = push(v, w);
    if !(forced || r.chance(p)) {
        return o;
    }
    let delay = |r: &mut Rng| match via {
        // The proxy gave up after 60 s; the person read the error and saved again.
        Via::Form => r.range(58, 95) * SECOND + r.below(1_000_000) as i64,
        // The next poll of the mailbox, ten minutes on.
        Via::Email => 10 * MINUTE + r.range(1_000, 9_000) * 1_000,
        Via::Nextcloud => r.range(20_000, 100_000),
        // n8n's HTTP node: its timeout, then "Retry On Fail" one second on.
        Via::Api => r.range(10, 30) * SECOND + SECOND + r.below(400_000) as i64,
        _ => client_retry_delay(r),
    };
    let mut a = at + delay(r);
    let mut extras = vec![a];
    if via == Via::Api && r.chance(0.25) {
        a += delay(r);
        extras.push(a);
    }
    let lose_original = r.chance(0.12);
    if lose_original {
        v[o].kill = Some(extras[extras.len() - 1] + r.range(120, 86_400) * SECOND + r.below(1_000_000) as i64);
    }
    for (i, &a) in extras.iter().enumerate() {
        let mut x = Wp { at: a, mark: Mark::Retry, of: Some(o), kill: None, reject: None, idle: false, ..v[o].clone() };
        if !(lose_original && i == 0) {
            let f = r.below(100);
            if f < 45 {
                x.kill = Some(a + r.range(120, 2 * 86_400) * SECOND + r.below(1_000_000) as i64);
            } else if f < 65 {
                x.reject = Some(a + r.range(600, 3 * 86_400) * SECOND + r.below(1_000_000) as i64);
            } else if f < 80 {
                x.idle = true;
            }
        }
        push(v, x);
    }
    o
}

/// What a person types into the full create form of a project.
fn form(r: &mut Rng, ps: &[Proj], v: &[Wp], pi: usize, by: i64, t: i64) -> Wp {
    let p = &ps[pi];
    let mut w = Wp { at: t, p: pi, author: by, status: NEW, priority: NORMAL, ty: TASK, ..Wp::default() };
    match p.kind {
        Pk::Dev => {
            let things = if pi == PLAT { PLAT_THINGS } else { MOB_THINGS };
            let thing = *r.pick(things);
            let x = r.below(100);
            if x < 35 {
                w.ty = BUG;
                w.subject = format!("{}{} {}", capital(thing), r.pick(PLATFORMS), r.pick(SYMPTOMS));
                w.desc = Some(if r.chance(0.15) { BUG_TEMPLATE.to_string() } else { filled_bug(r) });
                w.priority = r.one(&[NORMAL, NORMAL, HIGH, HIGH, IMMEDIATE]);
            } else {
                w.ty = match x {
                    35..=59 => STORY,
                    60..=84 => TASK,
                    85..=94 => FEATURE,
                    _ => EPIC,
                };
                w.subject = format!("{} {}{}", r.pick(VERBS), thing, r.pick(PLATFORMS));
                if w.ty == STORY {
                    let (who, why) = (*r.pick(&["user", "admin", "support agent", "tenant owner"]), *r.pick(BENEFITS));
                    w.subject = format!("As a {who} I want {thing} {why}");
                }
                w.desc = r.chance(0.6).then(|| paragraphs(r, 3));
            }
            if r.chance(0.25) {
                w.assignee = Some(member(r, p));
            }
            if pi == MOB && r.chance(0.3) {
                w.version = Some(r.one(&[31, 32]));
            }
        }
        Pk::Plan if pi == WEB => {
            let x = r.below(100);
            let d0 = working(day(t) + r.range(1, 20));
            if x < 8 {
                w.ty = MILESTONE;
                w.subject = r.pick(&["Design sign-off", "Content freeze", "Go-live", "Stakeholder review"]).to_string();
                (w.start, w.due) = (Some(d0), Some(d0));
            } else {
                w.subject = format!("{} {}", r.pick(WEB_TASKS), r.pick(PAGES));
                w.desc = r.chance(0.5).then(|| paragraphs(r, 2));
                if r.chance(0.7) {
                    (w.start, w.due) = (Some(d0), Some(working(d0 + r.range(1, 12))));
                }
                if r.chance(0.4) {
                    w.est = Some(r.one(&[2.0, 4.0, 8.0, 16.0, 24.0]));
                }
            }
            w.assignee = Some(member(r, p));
            w.responsible = r.chance(0.5).then_some(24);
            w.version = Some(35);
            w.phase = Some(r.range(2, 3));
            if r.chance(0.3) {
                // Under a phase: dates from the parent unless given.
                let found = (0..v.len()).rev().take(600).find(|&k| v[k].p == WEB && v[k].ty == PHASE);
                if let Some(k) = found {
                    w.parent = Some(k);
                    w.via = Via::Child;
                    if w.start.is_none() {
                        (w.start, w.due) = (v[k].start, v[k].due);
                    }
                }
            }
        }
        Pk::Plan => {
            let kind = *r.pick(MKT_KINDS);
            w.subject = format!("{kind} {} ({})", r.pick(TOPICS), r.pick(CHANNELS));
            w.desc = r.chance(0.8).then(|| paragraphs(r, 2));
            w.assignee = Some(member(r, p));
            if r.chance(0.85) {
                let d = working(day(t) + r.range(3, 25));
                w.due = Some(d);
            }
            w.budget = r.chance(0.4).then_some(4);
        }
        Pk::Ops => {
            let x = r.below(5);
            let (h, s) = (*r.pick(HOSTS), *r.pick(SERVICES));
            w.subject = match x {
                0 => format!("Renew TLS certificate for {s}"),
                1 => format!("Upgrade {s} to the next minor release"),
                2 => format!("Rotate credentials for {s}"),
                3 => format!("Increase disk on {h}"),
                _ => format!("Patch {h} (kernel)"),
            };
            w.desc = r.chance(0.5).then(|| paragraphs(r, 2));
            w.assignee = r.chance(0.5).then(|| member(r, p));
            w.priority = r.one(&[NORMAL, NORMAL, HIGH, LOW]);
        }
        Pk::Desk => {
            // An agent files a ticket for a caller.
            let (s, c) = *r.pick(TICKETS);
            w.subject = s.to_string();
            w.desc = Some(paragraphs(r, 2));
            w.category = Some(c);
            w.assignee = Some(by);
        }
        Pk::Hr => {
            w.subject = format!(
                "{} for {}",
                r.pick(&[
                    "Reference letter",
                    "Contract change",
                    "Parental leave plan",
                    "Travel policy question",
                    "Relocation support"
                ]),
                r.pick(NAMES)
            );
            w.desc = r.chance(0.85).then(|| paragraphs(r, 1));
            w.assignee = Some(member(r, p));
        }
        Pk::Bim => {
            w.ty = ISSUE;
            let room = r.range(1, 40);
            w.subject =
                format!("{} missing on level {:02}, room {}.{room:02}", r.pick(ELEMENTS), r.range(0, 5), r.range(0, 5));
            w.desc = r.chance(0.6).then(|| paragraphs(r, 2));
            w.assignee = Some(member(r, p));
        }
    }
    w
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// The row's own later life, as events.
fn life(r: &mut Rng, w: &Wp, k: usize, p: &Proj, kids: bool, evs: &mut Vec<Ev>) {
    let ev = |t: i64, by: i64, act: Act| Ev { t, k, by, act };
    let lead = p.members[0];
    if let Some(t) = w.kill {
        evs.push(ev(t, if r.chance(0.7) { w.author } else { lead }, Act::Trash));
    }
    if let Some(t) = w.reject {
        evs.push(ev(t, lead, Act::Status(REJECTED)));
    }
    if w.idle || w.kill.is_some() || w.reject.is_some() {
        return;
    }
    let t0 = w.back.map_or(w.at, |b| b.1.max(w.at));
    let mut t = t0;
    let gap = |r: &mut Rng, lo: i64, hi: i64| r.range(lo, hi) * SECOND + r.below(1_000_000) as i64;
    // Much waits in a backlog, a plan or a queue past the end of the window.
    let waiting = match p.kind {
        Pk::Dev => 0.35,
        Pk::Plan | Pk::Bim => 0.3,
        Pk::Ops if w.author != ALERTS => 0.2,
        Pk::Desk => 0.04,
        _ => 0.0,
    };
    let path: Vec<i64> = match p.kind {
        _ if w.status == CLOSED || r.chance(waiting) => Vec::new(),
        Pk::Dev if w.status == NEW => match r.below(100) {
            0..=7 => vec![REJECTED],
            8..=12 => vec![HOLD, PROGRESS, DEVELOPED, TESTING, CLOSED],
            13..=40 => vec![CONFIRMED, PROGRESS, DEVELOPED, TESTING, CLOSED],
            _ => vec![PROGRESS, DEVELOPED, TESTING, CLOSED],
        },
        Pk::Dev => vec![DEVELOPED, TESTING, CLOSED],
        Pk::Plan if w.ty == MILESTONE => vec![CLOSED],
        Pk::Plan => {
            if r.chance(0.3) {
                vec![SCHEDULED, PROGRESS, CLOSED]
            } else {
                vec![PROGRESS, CLOSED]
            }
        }
        Pk::Ops if w.author == ALERTS => match r.below(100) {
            0..=69 => vec![CLOSED],
            70..=84 => vec![REJECTED],
            _ => vec![PROGRESS, CLOSED],
        },
        Pk::Desk => {
            if r.chance(0.08) {
                vec![PROGRESS, HOLD, PROGRESS, CLOSED]
            } else {
                vec![PROGRESS, CLOSED]
            }
        }
        _ => vec![PROGRESS, CLOSED],
    };
    let mut assigned = w.assignee.is_some();
    let mut est = w.est;
    let parent = w.parent;
    for s in path {
        if s == w.status {
            continue;
        }
        let wait = match (p.kind, s) {
            (Pk::Ops, _) if w.author == ALERTS => gap(r, 300, 6 * 3_600),
            (Pk::Desk, PROGRESS) if !assigned => gap(r, 300, 5 * 3_600),
            (Pk::Desk, _) => gap(r, 1_800, 3 * 86_400),
            (Pk::Dev, PROGRESS) => gap(r, 3_600, 14 * 86_400),
            (Pk::Dev, _) => gap(r, 3_600, 4 * 86_400),
            (Pk::Hr, CLOSED) => gap(r, 86_400, 12 * 86_400),
            _ => gap(r, 4 * 3_600, 9 * 86_400),
        };
        t += wait;
        if t >= NOW {
            break;
        }
        if !assigned && s == PROGRESS {
            evs.push(ev((t - gap(r, 30, 1_200)).max(t0 + 1_000), lead, Act::Assign(member(r, p))));
            assigned = true;
        }
        if p.kind == Pk::Dev && s == PROGRESS && est.is_none() && w.ty != STORY && w.ty != EPIC && r.chance(0.5) {
            let h = r.one(&[1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0]);
            evs.push(ev(t + gap(r, 5, 600), w.assignee.unwrap_or(lead), Act::Estimate(h)));
            est = Some(h);
            if let Some(q) = parent {
                evs.push(Ev { t: t + gap(r, 5, 600) + 50_000, k: q, by: lead, act: Act::Touch });
            }
        }
        if s == PROGRESS && est.is_some() && r.chance(0.4) {
            let f = r.one(&[0.25, 0.5, 0.75]);
            evs.push(ev(t + gap(r, 3_600, 3 * 86_400), w.assignee.unwrap_or(lead), Act::Progress(f)));
        }
        evs.push(ev(t, if assigned { w.assignee.unwrap_or(lead) } else { lead }, Act::Status(s)));
        if s == CLOSED
            && est.is_some()
            && let Some(q) = parent
        {
            evs.push(Ev { t: t + r.range(20_000, 90_000), k: q, by: lead, act: Act::Touch });
        }
    }
    if p.kind == Pk::Dev && w.ty == STORY && w.sp.is_none() && r.chance(0.5) {
        let at = t0 + gap(r, 3_600, 10 * 86_400);
        evs.push(ev(at, lead, Act::Points(r.one(&[1, 2, 3, 5, 5, 8, 13]))));
    }
    if p.kind == Pk::Dev && w.sprint == 0 && r.chance(0.12) {
        evs.push(ev(t0 + gap(r, 600, 7 * 86_400), lead, Act::Reorder));
    }
    if dated(p) && w.start.is_none() && w.ty != PHASE && r.chance(0.3) {
        let at = t0 + gap(r, 3_600, 5 * 86_400);
        let d0 = working(day(at) + r.range(2, 15));
        evs.push(ev(at, lead, Act::Dates(d0, working(d0 + r.range(1, 10)))));
    }
    if r.chance(0.07) {
        let at = t0 + gap(r, 120, 4 * 86_400);
        let s = match r.below(3) {
            0 => format!("{} (follow-up)", w.subject),
            1 => format!("[Blocked] {}", w.subject),
            _ => format!("{} – {}", w.subject, r.pick(WORDS)),
        };
        evs.push(ev(at, w.author, Act::Subject(s)));
    }
    if r.chance(0.09) {
        let at = t0 + gap(r, 300, 6 * 86_400);
        let d = match &w.desc {
            Some(d) if r.chance(0.6) => format!("{d}\n\n{}", sentence(r, 9)),
            _ => paragraphs(r, 2),
        };
        evs.push(ev(at, w.author, Act::Desc(d)));
    }
    if !kids && w.mark != Mark::Retry && r.chance(0.012) {
        evs.push(ev(t0 + gap(r, 300, 5 * 86_400), w.author, Act::Trash));
    }
}

/// Projects planned with dates (Gantt, the BIM schedule).
fn dated(p: &Proj) -> bool {
    p.key == "WEB" || p.key == "BIM"
}

fn unlist(lists: &mut HashMap<Key, Vec<Option<usize>>>, key: Key, k: usize) {
    if let Some(list) = lists.get_mut(&key)
        && let Some(i) = list.iter().position(|&e| e == Some(k))
    {
        list.remove(i);
    }
}

/// The key of a create's content: two rows equal on it are the same intent.
fn content(w: &Wp) -> String {
    format!(
        "{}|{}|{}|{:?}|{}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{}|{:?}",
        w.p,
        w.ty,
        w.subject,
        w.desc,
        w.status,
        w.priority,
        w.author,
        w.assignee,
        w.responsible,
        w.category,
        w.version,
        w.start,
        w.due,
        w.est,
        w.sp,
        w.parent,
        w.phase,
        w.budget,
        w.bucket,
        w.sprint,
        w.back
    )
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x0F_2026);
    let ps: Vec<Proj> = SPECS
        .iter()
        .map(|&(id, key, kind, seq, _, lo, hi)| {
            let mut members: Vec<i64> = (lo..=hi).collect();
            members.rotate_left((id % 3) as usize);
            Proj { id, key, kind, seq, members }
        })
        .collect();
    let mut v: Vec<Wp> = Vec::new();

    // People, through the web app, the backlogs page, mail and integrations.
    let mut t = START + 5 * HOUR;
    let mut late = 0;
    loop {
        let weekend = weekday(day(t)) >= 5;
        let gap = r.range(80, 1_300) * SECOND * 10 / RHYTHM[(t / HOUR % 24) as usize];
        t += if weekend { gap * 6 } else { gap } + r.below(1_000_000) as i64;
        if t >= NOW - 5 * MINUTE {
            break;
        }
        let x = r.below(1_000);
        if x < 150 {
            // A mail to helpdesk@: the mail handler files it in ITS as the sender (a Task; the category from a
            // "Category:" line some people add).
            let by = 4 + r.below(PEOPLE as u64) as i64;
            let (s, c) = *r.pick(TICKETS);
            let body = format!("Hi,\n\n{}\n\n{}\n\nThanks,\n{}", sentence(&mut r, 10), sentence(&mut r, 8), name(by));
            let category = r.chance(0.3).then_some(c);
            let w = Wp {
                at: t,
                p: ITS,
                ty: TASK,
                subject: s.to_string(),
                desc: Some(body),
                status: NEW,
                priority: NORMAL,
                author: by,
                category,
                via: Via::Email,
                ..Wp::default()
            };
            let o = send(&mut v, &mut r, w, false);
            if r.chance(0.01) {
                // No answer yet: the same mail sent again days later.
                let at = t + r.range(2, 6) * DAY + r.range(0, 28_800) * SECOND + r.below(1_000_000) as i64;
                if at < NOW - HOUR {
                    let again =
                        Wp { at, mark: Mark::Plain, of: None, kill: None, reject: None, idle: false, ..v[o].clone() };
                    push(&mut v, again);
                }
            }
            continue;
        }
        let pi = match x {
            150..=199 => OPS,
            200..=459 => PLAT,
            460..=619 => MOB,
            620..=739 => WEB,
            740..=849 => MKT,
            850..=889 => BIM,
            890..=929 => ITS,
            _ => HR,
        };
        let p = &ps[pi];
        let by = member(&mut r, p);
        let forced = late < LATE.len() && t > LATE[late];
        let y = r.below(100);
        if p.kind == Pk::Dev && y < 20 {
            // Inline create in the table, or a card on the status board: a subject, the first type.
            let things = if pi == PLAT { PLAT_THINGS } else { MOB_THINGS };
            let mut subject = format!("{} {}", r.pick(VERBS), r.pick(things));
            if r.chance(0.6) {
                subject =
                    format!("{subject} {}", r.pick(&["for admins", "in the API", "(v2)", "on staging", "for tenants"]));
                subject = format!("{subject} {}", r.pick(WORDS));
            }
            let status = if r.chance(0.3) { PROGRESS } else { NEW };
            let w = Wp {
                at: t,
                p: pi,
                ty: TASK,
                subject,
                status,
                priority: NORMAL,
                author: by,
                via: Via::Inline,
                ..Wp::default()
            };
            send(&mut v, &mut r, w, false);
        } else if p.kind == Pk::Dev && y < 40 {
            // The backlogs page: a story into a bucket or the running sprint.
            let things = if pi == PLAT { PLAT_THINGS } else { MOB_THINGS };
            let subject = format!("As a {} I want to use {}", r.pick(&["user", "admin", "customer"]), r.pick(things));
            let sp = r.chance(0.4).then(|| r.one(&[1, 2, 3, 5, 8]));
            let (bucket, sprint) = match r.below(100) {
                0..=44 => (if pi == PLAT { READY } else { NEXT }, 0),
                45..=64 if pi == PLAT => (ICEBOX, 0),
                _ => (0, sprint_at(pi, t)),
            };
            let w = Wp {
                at: t,
                p: pi,
                ty: STORY,
                subject,
                status: NEW,
                priority: NORMAL,
                author: by,
                sp,
                bucket,
                sprint,
                via: Via::Backlogs,
                ..Wp::default()
            };
            send(&mut v, &mut r, w, false);
        } else if p.kind == Pk::Dev && y < 52 {
            // A child task under a story, feature or epic.
            let found = (0..v.len()).rev().take(250).find(|&k| {
                v[k].p == pi
                    && matches!(v[k].ty, STORY | FEATURE | EPIC)
                    && v[k].mark != Mark::Retry
                    && v[k].kill.is_none()
            });
            if let Some(q) = found {
                let subject = r
                    .pick(&[
                        "Write tests",
                        "Code review",
                        "Update documentation",
                        "Backend part",
                        "Frontend part",
                        "Deploy to staging",
                        "Spike: options",
                    ])
                    .to_string();
                let est = r.chance(0.45).then(|| r.one(&[1.0, 2.0, 4.0, 8.0]));
                let w = Wp {
                    at: t,
                    p: pi,
                    ty: TASK,
                    subject,
                    status: NEW,
                    priority: NORMAL,
                    author: by,
                    est,
                    parent: Some(q),
                    assignee: r.chance(0.5).then(|| member(&mut r, p)),
                    via: Via::Child,
                    ..Wp::default()
                };
                send(&mut v, &mut r, w, false);
            }
        } else if pi == WEB && y < 6 {
            // A new phase of the relaunch, with its dates.
            let d0 = working(day(t) + r.range(3, 20));
            let w = Wp {
                at: t,
                p: pi,
                ty: PHASE,
                subject: r.pick(WEB_PHASES).to_string(),
                status: NEW,
                priority: NORMAL,
                author: by,
                start: Some(d0),
                due: Some(working(d0 + r.range(10, 30))),
                responsible: Some(24),
                version: Some(35),
                phase: Some(3),
                ..Wp::default()
            };
            send(&mut v, &mut r, w, false);
        } else if (pi == MKT || pi == ITS) && y < 5 {
            // "Copy" of a recent one by the same person, saved unchanged, or renamed.
            let found = (0..v.len())
                .rev()
                .take(120)
                .find(|&k| v[k].p == pi && v[k].author == by && v[k].via == Via::Form && v[k].mark == Mark::Plain);
            if let Some(k) = found {
                let mut at = t;
                for _ in 0..1 + r.below(2) {
                    let mut c = Wp { at, via: Via::Copy, kill: None, reject: None, idle: false, ..v[k].clone() };
                    if r.chance(0.4) {
                        c.subject = format!("{} ({})", c.subject, r.pick(&["2", "copy", "reminder", "DE"]));
                    }
                    push(&mut v, c);
                    at += r.range(15, 240) * SECOND + r.below(1_000_000) as i64;
                }
            }
        } else if (pi == PLAT || pi == MKT) && y < 18 {
            // From Nextcloud Files: the integration's "New work package" dialog.
            let mut w = form(&mut r, &ps, &v, pi, by, t);
            (w.via, w.desc) = (Via::Nextcloud, Some(format!("Regarding the file {}.pdf in Nextcloud.", r.pick(WORDS))));
            send(&mut v, &mut r, w, false);
        } else {
            let mut w = form(&mut r, &ps, &v, pi, by, t);
            if w.via == Via::Form && w.p == PLAT && r.chance(0.04) {
                // The nightly pipeline's script.
                let n = r.range(4_000, 9_999);
                w.subject = "Nightly build failed on main".to_string();
                w.desc = Some(format!(
                    "Pipeline #{n} failed in stage `test`.\n\nhttps://gitlab.example.com/platform/core/-/pipelines/{n}"
                ));
                (w.ty, w.author, w.via, w.assignee, w.priority) = (BUG, N8N, Via::Api, None, HIGH);
            }
            let forced = forced && w.via == Via::Form;
            late += usize::from(forced);
            let mut kill = None;
            if w.via == Via::Form && r.chance(0.004) {
                // Moved to the trash by mistake, then created again instead of restored.
                kill = Some(t + r.range(60, 900) * SECOND + r.below(1_000_000) as i64);
            }
            let o = send(&mut v, &mut r, Wp { kill, ..w }, forced);
            if let Some(gone) = kill {
                let at = gone + r.range(30, 600) * SECOND + r.below(1_000_000) as i64;
                let again = Wp { at, kill: None, ..v[o].clone() };
                push(&mut v, again);
            }
        }
    }

    // Alertmanager, through n8n, to OPS at any hour.
    let mut t = START + r.range(0, 20_000) * SECOND + r.below(1_000_000) as i64;
    while t < NOW - 10 * MINUTE {
        let (alert, host) = (*r.pick(ALERT_NAMES), *r.pick(HOSTS));
        let value = format!("{}.{}", r.range(70, 99), r.below(10));
        let stamp = chrono_like(t - r.range(60, 600) * SECOND);
        let desc = format!(
            "**{alert}** is firing on `{host}`.\n\n* severity: {}\n* value: {value}\n* startsAt: {stamp}\n\n\
             [Runbook](https://runbooks.example.com/{})",
            r.pick(&["warning", "critical"]),
            alert.to_lowercase()
        );
        let w = Wp {
            at: t,
            p: OPS,
            ty: BUG,
            subject: format!("[FIRING:1] {alert} {host}"),
            desc: Some(desc),
            status: NEW,
            priority: r.one(&[HIGH, IMMEDIATE]),
            author: ALERTS,
            via: Via::Api,
            ..Wp::default()
        };
        send(&mut v, &mut r, w, false);
        t += r.range(1_200, 42_000) * SECOND + r.below(1_000_000) as i64;
    }

    // n8n's chores: Mondays 06:00 UTC in OPS, Fridays 08:00 UTC in MKT.
    let mut d = day(START);
    while d < day(NOW) {
        let chore = match weekday(d) {
            0 => Some((
                OPS,
                6 * HOUR,
                "Weekly restore test of production backups",
                None,
                "Restore last night's backup of `db-prod-01` to the staging cluster.\n\n\
                 Check row counts and note the duration.",
            )),
            4 => Some((
                MKT,
                8 * HOUR,
                "Weekly social media report",
                Some(45),
                "Collect reach and engagement for LinkedIn, Mastodon and Instagram.\n\n\
                 Add the numbers to the report sheet.",
            )),
            _ => None,
        };
        if let Some((pi, hour, subject, assignee, desc)) = chore {
            let at = d * DAY + hour + r.range(300, 4_000) * 1_000;
            let w = Wp {
                at,
                p: pi,
                ty: TASK,
                subject: subject.to_string(),
                desc: Some(desc.to_string()),
                status: NEW,
                priority: NORMAL,
                author: N8N,
                assignee,
                via: Via::Api,
                ..Wp::default()
            };
            send(&mut v, &mut r, w, false);
        }
        d += 1;
    }

    // The onboarding sheet, imported into HR once per hire (twice, minutes apart, for two hires on one day).
    for &(first, n) in &HIRES {
        let first = day(first);
        let mut at = first * DAY - 12 * DAY + r.range(8 * 3_600, 15 * 3_600) * SECOND + r.below(1_000_000) as i64;
        if at >= NOW {
            continue;
        }
        for _ in 0..n {
            for &(subject, who, off, h) in ONBOARDING {
                let due = working(first + off);
                let w = Wp {
                    at,
                    p: HR,
                    ty: TASK,
                    subject: subject.to_string(),
                    status: NEW,
                    priority: NORMAL,
                    author: 51,
                    assignee: Some(who),
                    due: Some(due),
                    est: Some(h),
                    via: Via::Csv,
                    ..Wp::default()
                };
                push(&mut v, w);
                at += r.range(25_000, 90_000);
            }
            at += r.range(60, 300) * SECOND;
        }
    }

    // WEB's plan, moved from a spreadsheet export: one import, created and updated times back-dated from the sheet.
    let mut at = START + 2 * DAY + 9 * HOUR + 12 * MINUTE + r.below(1_000_000) as i64;
    for i in 0..64 {
        let created = START - r.range(20, 120) * DAY + r.range(7 * 3_600, 17 * 3_600) * SECOND;
        let updated = created + r.range(0, 15) * DAY + r.range(0, 30_000) * SECOND;
        let updated = updated.min(START - DAY);
        let d0 = working(day(START) + r.range(-20, 40));
        let (ty, subject) = if i % 13 == 0 {
            (PHASE, WEB_PHASES[(i / 13) as usize % WEB_PHASES.len()].to_string())
        } else {
            (TASK, format!("{} {}", r.pick(WEB_TASKS), r.pick(PAGES)))
        };
        let status = if d0 < day(START) { r.one(&[CLOSED, CLOSED, PROGRESS]) } else { r.one(&[NEW, NEW, SCHEDULED]) };
        let due = working(d0 + if ty == PHASE { r.range(15, 30) } else { r.range(1, 8) });
        let w = Wp {
            at,
            back: Some((created, updated)),
            p: WEB,
            ty,
            subject,
            status,
            priority: NORMAL,
            author: 25,
            assignee: Some(24 + r.below(8) as i64),
            start: Some(d0),
            due: Some(due),
            desc: r.chance(0.3).then(|| paragraphs(&mut r, 1)),
            version: Some(35),
            phase: Some(r.range(1, 3)),
            via: Via::Csv,
            ..Wp::default()
        };
        push(&mut v, w);
        at += r.range(40_000, 160_000);
    }

    // BCF files from the clash detection, imported into BIM: a row per topic.
    for (when, n) in [(START + 9 * DAY + 10 * HOUR, 34), (START + 30 * DAY + 13 * HOUR, 21)] {
        let mut at = when + r.range(0, 3_000) * SECOND + r.below(1_000_000) as i64;
        for _ in 0..n {
            let (a, b) = (*r.pick(ELEMENTS), *r.pick(ELEMENTS));
            let level = r.range(0, 5);
            let clash = r.chance(0.7);
            let subject = if clash {
                format!("Clash: {a} vs. {b}, level {level:02}")
            } else {
                format!("Check {a} at grid {}/{}", r.pick(&["A", "B", "C", "D"]), r.range(1, 9))
            };
            let desc = clash.then(|| format!("Distance {} mm. {}", -r.range(5, 180), sentence(&mut r, 6)));
            let due = r.chance(0.5).then(|| working(day(at) + r.range(7, 21)));
            let w = Wp {
                at,
                p: BIM,
                ty: if clash { CLASH } else { ISSUE },
                subject,
                desc,
                status: NEW,
                priority: r.one(&[NORMAL, NORMAL, HIGH]),
                author: 55,
                assignee: r.chance(0.6).then(|| 54 + r.below(4) as i64),
                due,
                via: Via::Bcf,
                ..Wp::default()
            };
            push(&mut v, w);
            at += r.range(60_000, 220_000);
        }
    }

    v.retain(|w| w.at < NOW - SECOND);
    // Insert order; a retry whose original is gone is kept (it still names it).
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by_key(|&u| (v[u].at, u));
    let mut pos = vec![usize::MAX; v.len()];
    for (k, &u) in order.iter().enumerate() {
        pos[u] = k;
    }
    let mut w: Vec<Wp> = order.iter().map(|&u| v[u].clone()).collect();
    for x in w.iter_mut() {
        x.parent = x.parent.map(|u| pos[u]);
        x.of = x.of.map(|u| pos[u]);
    }
    let mut kids = vec![false; w.len()];
    for q in w.iter().filter_map(|x| x.parent) {
        kids[q] = true;
    }

    let mut evs: Vec<Ev> = Vec::new();
    for (k, x) in w.iter().enumerate() {
        evs.push(Ev { t: x.at, k, by: x.author, act: Act::Create });
        if let Some(q) = x.parent
            && x.est.is_some()
        {
            evs.push(Ev { t: x.at + r.range(8_000, 40_000), k: q, by: x.author, act: Act::Touch });
        }
        life(&mut r, x, k, &ps[x.p], kids[k], &mut evs);
    }
    for (i, s) in SPRINTS.iter().enumerate() {
        evs.push(Ev { t: s.3, k: usize::MAX, by: ps[s.0].members[0], act: Act::Plan(i) });
    }
    evs.push(Ev { t: PURGE, k: usize::MAX, by: 1, act: Act::Purge });
    evs.sort_by_key(|e| (e.t, e.k));

    // The replay: numbers, positions, states and saves in time order.
    let mut lists: HashMap<Key, Vec<Option<usize>>> = HashMap::new();
    for (pi, spec) in SPECS.iter().enumerate() {
        lists.insert((pi, 0, 0), vec![None; spec.4]);
    }
    for (key, n) in [
        ((PLAT, 0, 101), 26),
        ((PLAT, READY, 0), 12),
        ((PLAT, ICEBOX, 0), 41),
        ((MOB, 0, 111), 19),
        ((MOB, NEXT, 0), 7),
    ] {
        lists.insert(key, vec![None; n]);
    }
    let mut seq: Vec<i64> = ps.iter().map(|p| p.seq).collect();
    let mut st: Vec<St> = vec![St::default(); w.len()];
    for e in evs.iter().filter(|e| e.t < NOW) {
        match &e.act {
            Act::Plan(i) => {
                let (pi, sid, prev, _) = SPRINTS[*i];
                let mut at = e.t;
                // Unfinished work carried over from the sprint that ended, then the top of the bucket and the backlog.
                let mut moved: Vec<Option<usize>> = Vec::new();
                let mut quota = usize::MAX;
                let sources = [(pi, 0, prev), (pi, if pi == PLAT { READY } else { NEXT }, 0), (pi, 0, 0)];
                for (n, src) in sources.into_iter().enumerate() {
                    let Some(list) = lists.get_mut(&src) else { continue };
                    let mut picked: Vec<usize> = Vec::new();
                    for (i, ent) in list.iter().enumerate() {
                        let open = |k: usize| st[k].trash.is_none() && !matches!(st[k].status, CLOSED | REJECTED);
                        if n == 0 {
                            let carry = match *ent {
                                None => r.chance(0.35),
                                Some(k) => open(k),
                            };
                            if carry {
                                picked.push(i);
                            }
                            continue;
                        }
                        if i >= 80 || moved.len() + picked.len() >= quota {
                            break;
                        }
                        let eligible = ent.is_none_or(|k| {
                            open(k) && matches!(w[k].ty, STORY | BUG | FEATURE) && w[k].parent.is_none()
                        });
                        if eligible && r.chance(if n == 1 { 0.8 } else { 0.3 }) {
                            picked.push(i);
                        }
                    }
                    let taken: Vec<Option<usize>> = picked.iter().rev().map(|&i| list.remove(i)).collect();
                    moved.extend(taken.into_iter().rev());
                    if n == 0 {
                        quota = moved.len() + r.range(12, 20) as usize;
                    }
                }
                let target = lists.entry((pi, 0, sid)).or_default();
                for ent in moved {
                    target.push(ent);
                    if let Some(k) = ent {
                        at += r.range(40_000, 400_000);
                        let s = &mut st[k];
                        (s.bucket, s.sprint, s.lock, s.updated) = (0, sid, s.lock + 1, at);
                    }
                }
                continue;
            }
            Act::Purge => {
                for (k, s) in st.iter_mut().enumerate() {
                    let gone = s.trash.as_ref().is_some_and(|tr| tr.0 < e.t - 2 * DAY);
                    if gone && !s.purged && r.chance(0.85) {
                        unlist(&mut lists, (w[k].p, s.bucket, s.sprint), k);
                        s.purged = true;
                    }
                }
                continue;
            }
            _ => {}
        }
        let k = e.k;
        if let Act::Create = e.act {
            let x = &w[k];
            let key = (x.p, x.bucket, x.sprint);
            lists.entry(key).or_default().push(Some(k));
            seq[x.p] += 1;
            let closed = x.status == CLOSED;
            st[k] = St {
                live: true,
                status: x.status,
                assignee: x.assignee,
                est: x.est,
                rem: if closed { x.est.map(|_| 0.0) } else { x.est },
                done: if closed { Some(100) } else { x.est.map(|_| 0) },
                sp: x.sp,
                subject: x.subject.clone(),
                desc: x.desc.clone(),
                start: x.start,
                due: x.due,
                bucket: x.bucket,
                sprint: x.sprint,
                updated: x.back.map_or(x.at, |b| b.1),
                seq: seq[x.p],
                ..St::default()
            };
            continue;
        }
        if !st[k].live || st[k].purged || st[k].trash.is_some() {
            continue;
        }
        let s = &mut st[k];
        match &e.act {
            Act::Status(x) => {
                s.status = *x;
                if *x == CLOSED {
                    s.done = Some(100);
                    s.rem = s.est.map(|_| 0.0);
                }
            }
            Act::Assign(u) => s.assignee = Some(*u),
            Act::Estimate(h) => {
                let h = *h;
                s.est = Some(h);
                let rem = s.rem.unwrap_or(h).min(h);
                s.rem = Some(rem);
                s.done = Some(((h - rem) / h * 100.0).round() as i64);
            }
            Act::Progress(f) => {
                if let Some(h) = s.est
                    && s.status != CLOSED
                {
                    let rem = (h * (1.0 - f) * 4.0).round() / 4.0;
                    s.rem = Some(rem);
                    s.done = Some(((h - rem) / h * 100.0).round() as i64);
                }
            }
            Act::Points(n) => s.sp = Some(*n),
            Act::Subject(x) => s.subject = x.clone(),
            Act::Desc(x) => s.desc = Some(x.clone()),
            Act::Dates(a, b) => (s.start, s.due) = (Some(*a), Some(*b)),
            Act::Reorder => {
                let key = (w[k].p, s.bucket, s.sprint);
                if let Some(list) = lists.get_mut(&key)
                    && let Some(i) = list.iter().position(|&x| x == Some(k))
                {
                    list.remove(i);
                    let to = r.below(list.len().min(40) as u64 + 1) as usize;
                    list.insert(to, Some(k));
                }
            }
            Act::Trash => s.trash = Some((e.t, e.by, r.uuid())),
            Act::Touch | Act::Create | Act::Plan(_) | Act::Purge => {}
        }
        s.lock += 1;
        s.updated = e.t;
    }

    // Final positions: where each row stands in its list now.
    let mut position = vec![0_i64; w.len()];
    for list in lists.values() {
        for (i, ent) in list.iter().enumerate() {
            if let Some(k) = *ent {
                position[k] = i as i64 + 1;
            }
        }
    }
    // Derived work of parents: self and children, children in a status outside the totals (Rejected) left out.
    let mut derived: Vec<Option<(Option<f64>, Option<f64>)>> = vec![None; w.len()];
    for (k, d) in derived.iter_mut().enumerate().filter(|(k, _)| kids[*k]) {
        let alive = |c: usize| st[c].live && !st[c].purged && st[c].trash.is_none();
        let children: Vec<usize> = (0..w.len()).filter(|&c| w[c].parent == Some(k) && alive(c)).collect();
        if children.is_empty() {
            continue;
        }
        let members: Vec<usize> = std::iter::once(k).chain(children).filter(|&c| st[c].status != REJECTED).collect();
        let sum = |f: fn(&St) -> Option<f64>| {
            let vals: Vec<f64> = members.iter().filter_map(|&c| f(&st[c])).collect();
            (!vals.is_empty()).then(|| vals.iter().sum::<f64>())
        };
        *d = Some((sum(|s| s.est), sum(|s| s.rem)));
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("work_packages", &columns);
    let mut seen: HashSet<String> = HashSet::new();
    let mut present = vec![false; w.len()];
    for (k, x) in w.iter().enumerate() {
        let id = ID0 + k as i64;
        let s = &st[k];
        if !s.live || s.purged {
            continue;
        }
        let p = &ps[x.p];
        let (created, _) = x.back.unwrap_or((x.at, x.at));
        let (d_est, d_rem) = derived[k].unwrap_or((None, None));
        let d_done = match (d_est, d_rem) {
            (Some(a), Some(b)) if a > 0.0 => Some(((a - b) / a * 100.0).round() as i64),
            _ => None,
        };
        let dur = match (s.start, s.due) {
            _ if x.ty == MILESTONE => Some(1),
            (Some(a), Some(b)) => Some(duration(a, b)),
            _ => None,
        };
        let trash = s.trash.as_ref();
        f.push(&[
            ("id", V::I(id)),
            ("type_id", V::I(x.ty)),
            ("project_id", V::I(p.id)),
            ("subject", V::t(&s.subject)),
            ("description", V::opt_t(s.desc.as_deref())),
            ("due_date", s.due.map_or(V::Null, date)),
            ("category_id", V::opt_i(x.category)),
            ("status_id", V::I(s.status)),
            ("assigned_to_id", V::opt_i(s.assignee)),
            ("priority_id", V::I(x.priority)),
            ("version_id", V::opt_i(x.version)),
            ("author_id", V::I(x.author)),
            ("lock_version", V::I(s.lock)),
            ("done_ratio", V::opt_i(s.done)),
            ("estimated_hours", s.est.map_or(V::Null, V::F)),
            ("created_at", V::At(created)),
            ("updated_at", V::At(s.updated)),
            ("start_date", s.start.map_or(V::Null, date)),
            ("responsible_id", V::opt_i(x.responsible)),
            ("derived_estimated_hours", d_est.map_or(V::Null, V::F)),
            ("schedule_manually", V::B(true)),
            ("parent_id", V::opt_i(x.parent.map(|q| ID0 + q as i64))),
            ("duration", V::opt_i(dur)),
            ("ignore_non_working_days", V::B(false)),
            ("derived_remaining_hours", d_rem.map_or(V::Null, V::F)),
            ("derived_done_ratio", V::opt_i(d_done)),
            ("project_phase_definition_id", V::opt_i(x.phase)),
            ("position", V::I(position[k])),
            ("story_points", V::opt_i(s.sp)),
            ("remaining_hours", s.rem.map_or(V::Null, V::F)),
            ("budget_id", V::opt_i(x.budget)),
            ("sprint_id", V::opt_i((s.sprint != 0).then_some(s.sprint))),
            ("deleted_at", trash.map_or(V::Null, |tr| V::At(tr.0))),
            ("deleted_by_id", V::opt_i(trash.map(|tr| tr.1))),
            ("deletion_group", V::opt_t(trash.map(|tr| tr.2.as_str()))),
            ("sequence_number", V::I(s.seq)),
            ("identifier", V::t(format!("{}-{}", p.key, s.seq))),
            ("backlog_bucket_id", V::opt_i((s.bucket != 0).then_some(s.bucket))),
        ]);
        // A retry whose earlier rows were all purged is just a row; a new intent equal to an earlier one is legit.
        let group = x.of.unwrap_or(k);
        let mark = match x.mark {
            Mark::Retry if present[group] => Mark::Retry,
            Mark::Retry => Mark::Plain,
            _ if !seen.insert(content(x)) => Mark::Legit,
            m => m,
        };
        present[group] = true;
        f.mark(id, mark);
    }
    f
}

/// An RFC 3339 time, as Alertmanager writes `startsAt`.
fn chrono_like(us: i64) -> String {
    let d = us.div_euclid(DAY);
    let s = us.rem_euclid(DAY) / SECOND;
    let V::T(ymd) = date(d) else { unreachable!() };
    format!("{ymd}T{:02}:{:02}:{:02}Z", s / 3_600, s / 60 % 60, s % 60)
}
