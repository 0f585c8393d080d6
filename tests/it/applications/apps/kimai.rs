//! Kimai (PHP, Symfony and Doctrine; MySQL/MariaDB only): `kimai2_timesheet` (time records), as the web UI (the
//! create form, with or without an end: a record or a running timer; "duplicate" from the list; the weekly hours
//! (quick entry) form; the team lead's create for several users), the timers the web UI starts through the API
//! (`PATCH /api/timesheets/{id}/restart` from the favourites, without copy, and from "repeat", with `copy=all`), the
//! REST API (`POST /api/timesheets`: the mobile app of two field technicians, the browser extension of two developers,
//! a nightly script that copies Jira worklogs with an admin token) write it, and as people stop, correct, describe,
//! re-flag, export and delete records afterwards: one agency, 19 people, 12 weeks of a summer.
//! Read: kimai/kimai (1f421c2, 2026-08-19) migrations/Version20180701120000.php (the table, `user` and `activity_id`
//! indexes), Version20180730044139, 20180903202256 (`fixed_rate`, `hourly_rate`), 20181031220003 (`project_id` AFTER
//! `activity_id`, NOT NULL ids), 20190124004014 (`exported`), 20190201150324 (`timezone`), 20190305152308 (rates to
//! DOUBLE PRECISION), 20190706224219 (four indexes), 20200323163038/163039 (`internal_rate`), 20200705152310
//! (`billable` nullable default true, `category`, `modified_at`), 20210802152259/152814/160837 (`date_tz`, NOT NULL,
//! index), 20230126002049 (the ticktac, recent-activities and stats indexes), 20240926111739 (`break`), and the others
//! for what they leave alone; src/Command/InstallCommand.php (a fresh install runs all migrations);
//! config/packages/doctrine.yaml (UTC datetime types); src/Entity/Timesheet.php (`setBegin` sets `date_tz` and
//! `timezone`, `setEnd`, `__clone`, `createCopy`, `resetRates`), src/Doctrine/Behavior/ModifiedTrait.php,
//! src/Doctrine/ModifiedSubscriber.php, src/Doctrine/TimesheetSubscriber.php, src/Timesheet/Calculator/
//! (Billable, Duration, Rate, RateReset), src/Timesheet/RateService.php, RateCalculator/ClassicRateCalculator.php,
//! RoundingService.php, Rounding/DefaultRounding.php, TrackingMode/DefaultMode.php, AbstractTrackingMode.php,
//! TimesheetService.php (`createNewTimesheet`, `prepareNewTimesheet`, `saveNewTimesheet` with `stopActiveEntries`,
//! `stopTimesheet`, `restartTimesheet`), src/Repository/TimesheetRepository.php (`save`, `saveMultiple`, `delete`,
//! `setExported`, `getActiveEntries`), src/API/TimesheetController.php (`postAction`, `stopAction`, `restartAction`,
//! `duplicateAction`, `exportAction`), src/Form/API/TimesheetApiEditForm.php, src/Form/TimesheetEditForm.php,
//! src/Form/Type/QuickEntryTimesheetType.php, src/Controller/TimesheetAbstractController.php (`create`, `duplicate`,
//! `multiUpdate`), TimesheetTeamController.php (`createForMultiUserAction`), QuickEntryController.php,
//! src/DependencyInjection/Configuration.php (defaults: rounding 1 minute down for begin and up for end, hard limit of
//! one running record, overlapping allowed, default begin "now", break time off),
//! src/Validator/Constraints/TimesheetOverlappingValidator.php, src/EventSubscriber/Actions/
//! AbstractTimesheetSubscriber.php and templates/favorite/index.html.twig (the start and repeat links).
//! On a create: `id` from AUTO_INCREMENT; `user`, `project_id`, `activity_id` as sent; `start_time` (UTC, seconds) the
//! begin sent (the form's date and minute; the mobile app's device time with its seconds) or the server's now cut to
//! the minute (`DefaultMode::create`: API without begin, restart); `end_time` as sent, or NULL for a running timer;
//! `timezone` the user's; `date_tz` the begin's local date; `duration`, `rate`, `internal_rate` 0 and `hourly_rate`,
//! `fixed_rate` NULL while running; with an end, the calculators cut the begin down and round the end up to the
//! minute, set `duration` (end - begin - break) and the rates (`hourly_rate` the project's rate or the user's, `rate`
//! and `internal_rate` that times the hours to 4 decimals; a fixed-rate activity sets `fixed_rate` and `rate` and
//! leaves `hourly_rate` NULL); `billable` from activity, project and customer; `exported` 0, `category` 'work',
//! `break` 0; `description` as sent (NULL when empty); `modified_at` the flush's now (UTC, seconds). Saving a running
//! record stops the user's other running one in the same request (end = now). A duplicate (`clone`) copies every
//! column but `id`, `exported` and `modified_at` (the web form lets the person change the date first). The weekly
//! form writes every new cell in one flush: begin = that day at the default start time (set to 08:00 here; the
//! shipped default "now" would use the submit's time of day), end = begin + duration, no description; rows sorted by
//! their "project_activity" key, days in order.
//! Later: a stop sets the end (now, rounded up), cuts the begin to the minute and sets duration and rates; people
//! correct the end of a timer they forgot (the next start stopped it in the morning), add a description afterwards,
//! delete the stub a double start left (a real DELETE); the team lead turns `billable` off for a few records before
//! invoicing (multi-update); invoicing marks the month's billable records exported through a DQL UPDATE that leaves
//! `modified_at` alone (4 August for July, 3 September for August); exported records are not edited any more. Every
//! flush through the entity sets `modified_at`.
//! Retries (about 1.3% of creates): the create form posted twice (20-100 ms) or again after a hanging request
//! (10-60 s), and the favourite/repeat link clicked twice; the mobile app sending the same start again after its
//! timeout; the browser extension's start clicked again after an error; the Jira script's POST repeated after its 30 s
//! read timeout (urllib3 `Retry` with POST allowed), twice after a 502 from the proxy 0.5-1 s later (those two hidden:
//! the same script posts a worklog saved twice in Jira just as fast); the team lead's multi-user form posted twice
//! once. A retried timer start stops the first record in the same request: the first becomes a one- or two-minute
//! stub, often deleted, while the copy runs on and is worked on; of two identical records from the form one is
//! deleted about half the time (either); the review removes some of the script's doubles; the rest are invoiced
//! twice. Three retries in the last day.
//! Legitimate repeats: worklogs saved twice in Jira (posted by the script a few hundred ms apart); a record duplicated
//! from the list and saved unchanged (minutes to hours later). Plain near-repeats: the daily standup duplicated day
//! after day, the weekly form's same hours on the same project every day, the sprint planning created for six people,
//! favourites restarted every day, identical descriptions.
//! Guessed: the agency, people, projects, rates and rhythms; which clients people use and how they retry (the mobile
//! app sending its own begin, the extension none; the script's timeouts, backoff and pacing at 01:30 local); the
//! invoicing and review days; the default start time 08:00; Doctrine's DBAL writing `TINYINT(1)` and `DOUBLE
//! PRECISION` as a fresh MySQL install shows them; no activity rates and no rate factors; the Jira project keys; the
//! rare rolled-back create that leaves an id gap. The CSV importer is a separate (paid) plugin, not in the core.
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, secs, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql];

/// The table as the migrations leave it on a fresh install (columns in the order they were added); the foreign keys to
/// `kimai2_users`, `kimai2_activities` and `kimai2_projects` are left out with those tables.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => r"CREATE TABLE kimai2_timesheet (id INT AUTO_INCREMENT NOT NULL, user INT NOT NULL,
activity_id INT NOT NULL, project_id INT NOT NULL, start_time DATETIME NOT NULL, end_time DATETIME DEFAULT NULL,
duration INT DEFAULT NULL, description TEXT DEFAULT NULL, rate DOUBLE PRECISION NOT NULL,
fixed_rate DOUBLE PRECISION DEFAULT NULL, hourly_rate DOUBLE PRECISION DEFAULT NULL,
exported TINYINT(1) DEFAULT 0 NOT NULL, timezone VARCHAR(64) NOT NULL, internal_rate DOUBLE PRECISION DEFAULT NULL,
billable TINYINT(1) DEFAULT 1, category VARCHAR(10) DEFAULT 'work' NOT NULL, modified_at DATETIME DEFAULT NULL,
date_tz DATE NOT NULL, break INT DEFAULT NULL, INDEX IDX_4F60C6B18D93D649 (user),
INDEX IDX_4F60C6B181C06096 (activity_id),
PRIMARY KEY(id)) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci ENGINE = InnoDB;
CREATE INDEX IDX_4F60C6B1166D1F9C ON kimai2_timesheet (project_id);
CREATE INDEX IDX_4F60C6B18D93D649502DF587 ON kimai2_timesheet (user, start_time);
CREATE INDEX IDX_4F60C6B1502DF587 ON kimai2_timesheet (start_time);
CREATE INDEX IDX_4F60C6B1502DF58741561401 ON kimai2_timesheet (start_time, end_time);
CREATE INDEX IDX_4F60C6B1502DF587415614018D93D649 ON kimai2_timesheet (start_time, end_time, user);
CREATE INDEX IDX_4F60C6B1BDF467148D93D649 ON kimai2_timesheet (date_tz, user);
CREATE INDEX IDX_4F60C6B1415614018D93D649 ON kimai2_timesheet (end_time, user);
CREATE INDEX IDX_TIMESHEET_TICKTAC ON kimai2_timesheet (end_time, user, start_time);
CREATE INDEX IDX_TIMESHEET_RECENT_ACTIVITIES ON kimai2_timesheet (user, project_id, activity_id);
CREATE INDEX IDX_TIMESHEET_RESULT_STATS ON kimai2_timesheet (user, id, duration)"
            .to_string(),
        Engine::Postgres | Engine::Sqlite => unreachable!("Kimai runs on MySQL/MariaDB only"),
    }
}

const COLUMNS: &str = "id user activity_id project_id start_time end_time duration description rate fixed_rate \
    hourly_rate exported timezone internal_rate billable category modified_at date_tz break";

const NOW: i64 = T0;
/// A Thursday, twelve weeks before the end.
const START: i64 = T0 - 84 * DAY;
const ID0: i64 = 61_482;
/// Invoicing (UTC) and the month whose billable records it marks exported.
const EXPORTS: [(i64, u32); 2] =
    [(START + 26 * DAY + 7 * HOUR + 40 * MINUTE, 7), (START + 56 * DAY + 8 * HOUR + 15 * MINUTE, 8)];
/// The team lead's review before invoicing (UTC): a few records set non-billable, duplicates from the script removed.
const REVIEWS: [i64; 2] = [START + 25 * DAY + 13 * HOUR, START + 55 * DAY + 13 * HOUR];

/// Projects: Kimai id, billable (project and customer), the customer's hourly rate.
const PROJECTS: [(i64, bool, Option<f64>); 10] = [
    (3, false, None),
    (7, true, None),
    (9, true, Some(95.0)),
    (12, true, Some(95.0)),
    (14, true, None),
    (18, true, Some(110.0)),
    (21, true, Some(80.0)),
    (23, true, None),
    (26, true, Some(90.0)),
    (30, false, None),
];
const INTERNAL: usize = 0;
const SHOP: usize = 1;
const APP: usize = 2;
const SUPPORT: usize = 3;
const INTRANET: usize = 4;
const MIGRATION: usize = 5;
const BAKERY: usize = 6;
const FIELD: usize = 7;
const HOSTING: usize = 8;
const PRESALES: usize = 9;

/// Activities: Kimai id, billable, fixed rate.
const ACTS: [(i64, bool, Option<f64>); 12] = [
    (1, true, None),
    (2, true, None),
    (3, true, None),
    (4, true, None),
    (5, true, None),
    (6, true, None),
    (8, true, None),
    (11, false, None),
    (12, false, None),
    (15, true, Some(150.0)),
    (16, true, None),
    (17, true, None),
];
const DEV: usize = 0;
const MEETING: usize = 1;
const PM: usize = 2;
const DESIGN: usize = 3;
const TEST: usize = 4;
const HELP: usize = 5;
const TRAVEL: usize = 6;
const ADMIN: usize = 7;
const TRAINING: usize = 8;
const ONCALL: usize = 9;
const INSTALL: usize = 10;
const VISIT: usize = 11;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Timers in the web UI: favourites, repeat, the create form.
    Web,
    /// Records typed into the create form at the end of the day.
    Form,
    /// The weekly hours form.
    Weekly,
    /// The mobile app.
    App,
    /// The browser extension.
    Ext,
    /// Worklogs in Jira, copied by the nightly script.
    Jira,
}

struct User {
    id: i64,
    tz: &'static str,
    /// Hours ahead of UTC all summer.
    off: i64,
    hourly: f64,
    internal: Option<f64>,
    style: Style,
    projs: &'static [usize],
    acts: &'static [usize],
    /// When the day starts (local minutes).
    start: i64,
    standup: bool,
}

#[allow(clippy::too_many_arguments)]
const fn user(
    id: i64,
    tz: &'static str,
    off: i64,
    rates: (f64, Option<f64>),
    style: Style,
    projs: &'static [usize],
    acts: &'static [usize],
    start: i64,
) -> User {
    User { id, tz, off, hourly: rates.0, internal: rates.1, style, projs, acts, start, standup: false }
}

const BERLIN: &str = "Europe/Berlin";

static USERS: [User; 19] = [
    user(2, BERLIN, 2, (120.0, Some(65.0)), Style::Web, &[SHOP, APP, PRESALES, INTERNAL], &[PM, MEETING], 510),
    user(4, BERLIN, 2, (95.0, Some(52.0)), Style::Web, &[SHOP, APP, SUPPORT], &[DEV, TEST, MEETING], 480),
    user(5, BERLIN, 2, (95.0, None), Style::Web, &[INTRANET, MIGRATION, INTERNAL], &[DEV, MEETING], 540),
    user(8, BERLIN, 2, (85.0, Some(48.0)), Style::Web, &[SUPPORT, HOSTING, APP], &[HELP, DEV], 465),
    user(11, BERLIN, 2, (105.0, Some(58.0)), Style::Web, &[MIGRATION, INTRANET, PRESALES], &[DEV, PM, MEETING], 525),
    user(13, "Europe/London", 1, (110.0, Some(60.0)), Style::Web, &[HOSTING, SUPPORT, INTERNAL], &[HELP, DEV], 510),
    User {
        standup: true,
        ..user(6, BERLIN, 2, (90.0, Some(50.0)), Style::Form, &[SHOP, BAKERY, INTERNAL], &[DESIGN, MEETING], 540)
    },
    User {
        standup: true,
        ..user(9, BERLIN, 2, (90.0, None), Style::Form, &[SHOP, INTRANET, INTERNAL], &[TEST, DEV], 510)
    },
    user(
        15,
        "America/New_York",
        -4,
        (100.0, Some(55.0)),
        Style::Form,
        &[BAKERY, SHOP, PRESALES],
        &[DESIGN, MEETING],
        540,
    ),
    user(16, BERLIN, 2, (80.0, Some(45.0)), Style::Weekly, &[INTRANET, INTERNAL], &[DEV], 480),
    user(17, BERLIN, 2, (85.0, None), Style::Weekly, &[HOSTING, SUPPORT], &[HELP], 480),
    user(19, BERLIN, 2, (70.0, Some(38.0)), Style::App, &[FIELD], &[INSTALL, VISIT, TRAVEL], 435),
    user(20, BERLIN, 2, (70.0, Some(38.0)), Style::App, &[FIELD], &[VISIT, INSTALL, TRAVEL], 420),
    user(22, BERLIN, 2, (100.0, Some(55.0)), Style::Ext, &[SHOP, APP], &[DEV, TEST], 555),
    user(23, BERLIN, 2, (95.0, Some(52.0)), Style::Ext, &[APP, SHOP, HOSTING], &[DEV], 530),
    user(25, BERLIN, 2, (95.0, Some(50.0)), Style::Jira, &[SHOP, MIGRATION], &[DEV, TEST], 510),
    user(26, BERLIN, 2, (90.0, Some(50.0)), Style::Jira, &[SHOP, INTRANET], &[DEV], 540),
    user(27, BERLIN, 2, (100.0, None), Style::Jira, &[MIGRATION, INTRANET], &[DEV, TEST], 480),
    user(29, BERLIN, 2, (85.0, Some(46.0)), Style::Jira, &[APP, SHOP], &[DEV, TEST], 570),
];
/// The team lead (user 2) and the development team he creates the sprint planning for.
const DEVS: [usize; 6] = [13, 14, 15, 16, 17, 18];

const TASKS: [&[&str]; 10] = [
    &[
        "Team meeting",
        "Timesheets and admin",
        "Training: accessibility",
        "Hiring interviews",
        "1:1",
        "Knowledge sharing",
    ],
    &[
        "Checkout: address validation",
        "Product listing filters",
        "Payment provider integration",
        "Cart performance",
        "Release 2.3 testing",
        "Weekly call with Müller GmbH",
        "Category page layout",
        "Search suggestions",
    ],
    &[
        "Push notifications",
        "Login with Apple",
        "Crash on Android 14",
        "App store release",
        "Offline sync",
        "Dependency updates",
    ],
    &["Ticket queue", "Password reset issues", "Invoice export question", "Phone support", "Backup restore request"],
    &["SSO configuration", "News module", "Document search", "Permissions matrix", "Staging deployment"],
    &["Patient data mapping", "Import scripts", "Data validation", "Migration dry run", "Legacy DB export"],
    &["Homepage design", "Menu page", "Photos and image editing", "Online order form", "Feedback round with client"],
    &["Boiler service", "Heat pump installation", "Annual maintenance", "Repair after fault report", "Commissioning"],
    &["Server updates", "Certificate renewal", "Monitoring alerts", "Backup check", "Kubernetes upgrade"],
    &["Offer for Stadtwerke portal", "Workshop preparation", "Estimation", "Call with prospect"],
];
const KEYS: [&str; 10] = ["ADM", "WSR", "APP", "SUP", "INT", "MIG", "BAK", "FLD", "OPS", "PRE"];
const CUSTOMERS: [&str; 8] = [
    "Fam. Weber",
    "Bäckerei Kurz",
    "Praxis Dr. Lang",
    "Hotel Adler",
    "Kita Sonnenschein",
    "Fam. Özdemir",
    "Autohaus Brandt",
    "Gemeindehaus",
];

#[derive(Clone)]
enum Ev {
    /// Stopped: the end is now.
    Stop,
    /// The end set in the edit form.
    End(i64),
    Desc(String),
    Billable(bool),
    Delete,
}

/// A record as its create request wrote it, and what happened to it later (times in µs, UTC).
#[derive(Clone, Default)]
struct Ts {
    uid: usize,
    /// The uid of the first attempt of the create this row came from.
    grp: usize,
    at: i64,
    user: usize,
    proj: usize,
    act: usize,
    begin: i64,
    end: Option<i64>,
    desc: Option<String>,
    evs: Vec<(i64, Ev)>,
    /// A timer left running at the end of the day, and the end the person means.
    forgot: Option<i64>,
    mark: Mark,
    hidden: bool,
}

#[derive(Clone, Copy)]
struct Block {
    proj: usize,
    act: usize,
    start: i64,
    end: i64,
}

struct Sim {
    v: Vec<Ts>,
    running: Vec<Option<usize>>,
    /// Worklogs waiting for the script, with the time they were logged in Jira.
    jira: Vec<(i64, Ts)>,
    late: [bool; 2],
}

impl Sim {
    fn push(&mut self, mut x: Ts) -> usize {
        x.uid = self.v.len();
        if x.mark != Mark::Retry {
            x.grp = x.uid;
        }
        self.v.push(x);
        self.v.len() - 1
    }

    /// A running record saved: the user's other running record is stopped in the same request (hard limit 1).
    fn start(&mut self, r: &mut Rng, x: Ts) -> usize {
        let (u, at) = (x.user, x.at);
        if let Some(k) = self.running[u].take() {
            self.v[k].evs.push((at, Ev::Stop));
            if let Some(end) = self.v[k].forgot {
                // Left running overnight: the end corrected in the edit form after the morning's start.
                let t = at + r.range(3, 25) * MINUTE + micros(r);
                self.v[k].evs.push((t, Ev::End(end)));
            }
        }
        let k = self.push(x);
        self.running[u] = Some(k);
        k
    }

    fn stop(&mut self, u: usize, t: i64) {
        if let Some(k) = self.running[u].take() {
            self.v[k].evs.push((t, Ev::Stop));
        }
    }

    /// The description "repeat" copies: that of the user's last record of this project and activity.
    fn last_desc(&self, u: usize, p: usize, a: usize, now: i64) -> Option<String> {
        let x = self.v.iter().rev().take(800).find(|x| x.user == u && x.proj == p && x.act == a && x.at < now)?;
        let edited = x.evs.iter().filter(|e| e.0 < now).filter_map(|e| match &e.1 {
            Ev::Desc(s) => Some((e.0, s.clone())),
            _ => None,
        });
        edited.max_by_key(|e| e.0).map(|e| e.1).or_else(|| x.desc.clone())
    }
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

/// `lo`-`hi` milliseconds, in µs.
fn ms(r: &mut Rng, lo: i64, hi: i64) -> i64 {
    r.range(lo, hi) * 1_000 + r.below(1_000) as i64
}

fn floor_min(t: i64) -> i64 {
    t - t.rem_euclid(MINUTE)
}

/// DefaultRounding's end: up to the next full minute (PHP's timestamps have no fraction).
fn ceil_min(t: i64) -> i64 {
    let s = secs(t);
    if s.rem_euclid(MINUTE) == 0 { s } else { floor_min(s) + MINUTE }
}

fn quarter(t: i64) -> i64 {
    let q = 15 * MINUTE;
    (t + q / 2).div_euclid(q) * q
}

fn quarter_floor(t: i64) -> i64 {
    t - t.rem_euclid(15 * MINUTE)
}

/// A local time (minutes after midnight) on the date whose UTC midnight is `d`.
fn local(d: i64, u: &User, min: i64) -> i64 {
    d + min * MINUTE - u.off * HOUR
}

/// Year, month, day of a UTC time.
fn civil(us: i64) -> (i64, u32, u32) {
    let z = us.div_euclid(DAY) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = (if mp < 10 { mp + 3 } else { mp - 9 }) as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn date_text(us: i64) -> String {
    let (y, m, d) = civil(us);
    format!("{y:04}-{m:02}-{d:02}")
}

fn task(r: &mut Rng, p: usize) -> String {
    let t = r.pick(TASKS[p]).to_string();
    if p == FIELD && r.chance(0.6) { format!("{t}, {}", r.pick(&CUSTOMERS)) } else { t }
}

/// The extension's description: the GitHub issue's number and title.
fn issue(r: &mut Rng, p: usize) -> String {
    let n = 1_000 + 150 * p as i64 + r.range(0, 140);
    format!("#{n} {}", r.pick(TASKS[p]))
}

fn pick_work(r: &mut Rng, u: &User) -> (usize, usize) {
    let p = u.projs[r.skewed(u.projs.len() as u64) as usize];
    let a = match p {
        INTERNAL => r.one(&[MEETING, ADMIN, ADMIN, TRAINING]),
        PRESALES => r.one(&[MEETING, PM]),
        _ => u.acts[r.skewed(u.acts.len() as u64) as usize],
    };
    (p, a)
}

/// `a`..`b` in one to `n` blocks of work.
fn split(r: &mut Rng, u: &User, a: i64, b: i64, n: i64) -> Vec<Block> {
    let minutes = (b - a) / MINUTE;
    let mut cuts: Vec<i64> = (1..r.range(1, n))
        .filter(|_| minutes > 60)
        .map(|_| a + r.range(20, minutes - 20) * MINUTE + r.below(60_000_000) as i64)
        .collect();
    cuts.sort_unstable();
    cuts.dedup_by(|x, y| *x - *y < 15 * MINUTE);
    let mut edges = vec![a];
    edges.extend(cuts);
    edges.push(b);
    let mut out: Vec<Block> = Vec::new();
    for w in edges.windows(2) {
        let (mut p, mut act) = pick_work(r, u);
        if out.last().is_some_and(|o| o.proj == p && o.act == act) {
            (p, act) = pick_work(r, u);
        }
        out.push(Block { proj: p, act, start: w[0], end: w[1] });
    }
    out
}

/// A working day: the morning until lunch and the afternoon, each in blocks.
fn day_plan(r: &mut Rng, u: &User, d: i64) -> Vec<Vec<Block>> {
    let s = local(d, u, u.start + r.range(-20, 25)) + r.below(60_000_000) as i64;
    let lunch = local(d, u, 12 * 60 + r.range(-15, 45)) + r.below(60_000_000) as i64;
    let back = lunch + r.range(30, 60) * MINUTE + r.below(60_000_000) as i64;
    let end = s + r.range(8 * 60 + 20, 9 * 60 + 20) * MINUTE + r.below(60_000_000) as i64;
    vec![split(r, u, s, lunch, 3), split(r, u, back, end, 2)]
}

/// Timers: the web UI's, the mobile app's or the browser extension's.
fn timer_day(s: &mut Sim, r: &mut Rng, ui: usize, segs: &[Vec<Block>]) {
    let u = &USERS[ui];
    let last = segs.len() - 1;
    for (si, seg) in segs.iter().enumerate() {
        for b in seg {
            let click = b.start;
            // `sent`: the begin comes with the request (a retry carries the same).
            let (at, begin, desc, sent) = match u.style {
                Style::App => {
                    let at = click + ms(r, 300, 2_500);
                    let begin = secs(click) - r.range(0, 4) * SECOND;
                    (at, begin, r.chance(0.4).then(|| task(r, b.proj)), true)
                }
                Style::Ext => {
                    let at = click + ms(r, 100, 600);
                    (at, floor_min(at), r.chance(0.85).then(|| issue(r, b.proj)), false)
                }
                _ => {
                    let at = click + ms(r, 80, 450);
                    match r.below(100) {
                        // A favourite: restart without copy.
                        0..=34 => (at, floor_min(at), None, false),
                        // "Repeat" on a record in the list: restart with copy=all.
                        35..=59 => (at, floor_min(at), s.last_desc(ui, b.proj, b.act, at), false),
                        // The create form without an end.
                        _ => {
                            let begin = if r.chance(0.3) { quarter_floor(click) } else { floor_min(click) };
                            (at, begin, r.chance(0.5).then(|| task(r, b.proj)), true)
                        }
                    }
                }
            };
            let forced = u.style == Style::Web && !s.late[0] && at > NOW - 20 * HOUR;
            s.late[0] |= forced;
            let x = Ts { at, user: ui, proj: b.proj, act: b.act, begin, desc, ..Ts::default() };
            let k = s.start(r, x.clone());
            let odds = if u.style == Style::Web { 15 } else { 20 };
            if forced || r.below(1_000) < odds {
                let delay = if forced { r.range(10, 60) * SECOND + micros(r) } else { client_retry_delay(r) };
                let at2 = at + delay;
                let begin2 = if sent { begin } else { floor_min(at2) };
                // The copy stops the first: a stub of a minute or two, often deleted.
                s.start(r, Ts { at: at2, begin: begin2, mark: Mark::Retry, grp: k, ..x });
                if r.chance(0.45) {
                    let t = at2 + r.range(120, 8 * 3_600) * SECOND + micros(r);
                    s.v[k].evs.push((t, Ev::Delete));
                }
            } else if x.desc.is_none() && r.chance(0.2) {
                let t = at + r.range(15, 300) * MINUTE + micros(r);
                let text = if u.style == Style::Ext { issue(r, b.proj) } else { task(r, b.proj) };
                s.v[k].evs.push((t, Ev::Desc(text)));
            }
        }
        let end = seg.last().map_or(0, |b| b.end);
        let forget = match u.style {
            Style::App => 0.04,
            Style::Ext => 0.06,
            _ => 0.05,
        };
        if si == last && r.chance(forget) {
            if let Some(k) = s.running[ui] {
                s.v[k].forgot = Some(quarter(end));
            }
        } else if si == last || r.chance(0.97) {
            let t = end + ms(r, 80, 2_500);
            s.stop(ui, t);
        }
    }
}

/// Records typed into the create form at the end of the day or the next morning.
fn form_day(s: &mut Sim, r: &mut Rng, ui: usize, d: i64, segs: &[Vec<Block>]) {
    let u = &USERS[ui];
    let mut entries: Vec<(Block, Option<String>)> = Vec::new();
    if u.standup {
        let b = Block { proj: SHOP, act: MEETING, start: local(d, u, 570), end: local(d, u, 585) };
        entries.push((b, Some("Daily standup".to_string())));
    }
    for b in segs.iter().flatten() {
        let desc = r.chance(0.85).then(|| task(r, b.proj));
        entries.push((*b, desc));
    }
    let day_end = segs.iter().flatten().map(|b| b.end).max().unwrap_or(d);
    let mut next = d + DAY;
    while weekday(next) >= 5 {
        next += DAY;
    }
    let morning = local(next, u, u.start + r.range(5, 50)) + micros(r);
    let mut t =
        if r.chance(0.25) && morning < NOW - HOUR { morning } else { day_end + r.range(2, 40) * MINUTE + micros(r) };
    for (b, desc) in entries {
        t += r.range(35, 150) * SECOND + micros(r);
        let begin = quarter(b.start);
        let end = quarter(b.end).max(begin + 15 * MINUTE);
        let x = Ts { at: t, user: ui, proj: b.proj, act: b.act, begin, end: Some(end), desc, ..Ts::default() };
        let k = s.push(x.clone());
        let forced = u.off < 0 && !s.late[1] && t > NOW - 3 * HOUR;
        s.late[1] |= forced;
        let y = r.below(1_000);
        if forced || y < 17 {
            let at2 = t + if forced { r.range(10, 60) * SECOND + micros(r) } else { client_retry_delay(r) };
            let j = s.push(Ts { at: at2, mark: Mark::Retry, grp: k, ..x });
            if r.chance(0.45) {
                // Two identical lines in the list: one goes.
                let gone = if r.chance(0.5) { k } else { j };
                let when = at2 + r.range(60, 2 * 86_400) * SECOND + micros(r);
                s.v[gone].evs.push((when, Ev::Delete));
            }
            t = at2;
        } else if y < 23 {
            // Duplicated from the list and saved as it was; now and then changed afterwards.
            let at2 = t + r.range(5 * 60, 3 * 3_600) * SECOND + micros(r);
            let j = s.push(Ts { at: at2, mark: Mark::Legit, ..x });
            if r.chance(0.35) {
                let when = at2 + r.range(30, 1_800) * SECOND + micros(r);
                s.v[j].evs.push((when, Ev::End(end + 15 * MINUTE)));
            }
        }
    }
}

/// The weekly hours form, submitted on Friday afternoon or the next Monday morning, for the days worked.
fn weekly(s: &mut Sim, r: &mut Rng, ui: usize, days: &[i64], friday: i64, monday: i64) {
    let u = &USERS[ui];
    if days.is_empty() {
        return;
    }
    let submit = (if r.chance(0.7) && days.contains(&friday) {
        local(friday, u, 15 * 60 + 30 + r.range(0, 120))
    } else {
        local(monday, u, 8 * 60 + 30 + r.range(0, 120))
    }) + r.below(60_000_000) as i64;
    if submit >= NOW {
        return;
    }
    // The cells' begin: each day at the configured default start time.
    let hm = 8 * 60;
    let mut cells: Vec<(String, i64, usize, usize, i64)> = Vec::new();
    for &d in days {
        let works: Vec<(usize, usize, i64)> = match (ui, r.below(10)) {
            (_, 0..=5) => {
                let p = u.projs[0];
                vec![(p, u.acts[0], r.one(&[480, 480, 480, 450, 510]))]
            }
            (9, _) => {
                let h = r.one(&[240, 300, 360, 420]);
                vec![(INTRANET, DEV, h), (INTERNAL, ADMIN, 480 - h)]
            }
            _ => {
                let h = r.one(&[240, 300, 360]);
                vec![(HOSTING, HELP, h), (SUPPORT, HELP, 480 - h)]
            }
        };
        for (p, a, minutes) in works {
            cells.push((format!("{}_{}", PROJECTS[p].0, ACTS[a].0), d, p, a, minutes));
        }
    }
    // QuickEntryController: the rows sorted by their "project_activity" key, the days in order.
    cells.sort_by(|x, y| (&x.0, x.1).cmp(&(&y.0, y.1)));
    let mut at = submit + ms(r, 120, 400);
    for (_, d, p, a, minutes) in cells {
        at += ms(r, 6, 25);
        let begin = local(d, u, hm);
        let x = Ts { at, user: ui, proj: p, act: a, begin, end: Some(begin + minutes * MINUTE), ..Ts::default() };
        s.push(x);
    }
}

/// A Jira worklog of one block, waiting for the nightly script.
fn worklog(s: &mut Sim, r: &mut Rng, ui: usize, d: i64, b: &Block) {
    let u = &USERS[ui];
    let begin = quarter(b.start);
    let minutes = (quarter(b.end - b.start) / MINUTE).max(15);
    let n = 100 + 40 * b.proj as i64 + r.range(0, 300);
    let desc = format!("{}-{n} {}", KEYS[b.proj], r.pick(TASKS[b.proj]));
    let logged = (match r.below(10) {
        0..=6 => local(d, u, 16 * 60 + 30 + r.range(0, 120)),
        7 | 8 => local(d + DAY, u, u.start + r.range(0, 90)),
        _ => local(d + r.range(2, 3) * DAY, u, u.start + r.range(0, 240)),
    }) + r.below(60_000_000) as i64;
    let x = Ts {
        user: ui,
        proj: b.proj,
        act: b.act,
        begin,
        end: Some(begin + minutes * MINUTE),
        desc: Some(desc),
        ..Ts::default()
    };
    s.jira.push((logged, x));
}

/// The script's run at 01:30 Berlin after a worklog was logged (UTC).
fn night_after(logged: i64) -> i64 {
    let n = logged - logged.rem_euclid(DAY) + 23 * HOUR + 30 * MINUTE;
    if logged < n { n } else { n + DAY }
}

/// The nightly runs: one POST per worklog in Jira's order, repeated after a read timeout or a 502.
fn sync(s: &mut Sim, r: &mut Rng) {
    let mut queue: Vec<(i64, i64, Ts)> =
        std::mem::take(&mut s.jira).into_iter().map(|(l, x)| (night_after(l), l, x)).collect();
    queue.sort_by_key(|e| (e.0, e.1));
    let (mut night, mut t) = (0, 0);
    for (run, _, x) in queue {
        if run >= NOW {
            continue;
        }
        let first = run != night;
        if first {
            night = run;
            t = run + ms(r, 4_000, 15_000);
        }
        t += ms(r, 180, 650);
        let idx = (run - START) / DAY;
        let k = s.push(Ts { at: t, ..x.clone() });
        let y = r.below(1_000);
        let proxy = first && (idx == 30 || idx == 61);
        let timeout = first && idx == 83;
        let pair = if proxy {
            t += ms(r, 500, 1_100);
            Some(Ts { at: t, mark: Mark::Retry, grp: k, hidden: true, ..x })
        } else if timeout || y < 16 {
            t += 30 * SECOND + ms(r, 1_000, 2_000);
            Some(Ts { at: t, mark: Mark::Retry, grp: k, ..x })
        } else if y < 36 {
            // Saved twice in Jira: two worklogs, two posts.
            t += ms(r, 180, 650);
            Some(Ts { at: t, mark: Mark::Legit, ..x })
        } else {
            None
        };
        if let Some(p) = pair {
            let j = s.push(p);
            if let Some(&review) = REVIEWS.iter().find(|&&v| v > t).filter(|_| r.chance(0.25)) {
                s.v[j].evs.push((review + ms(r, 0, 900), Ev::Delete));
            }
        }
    }
}

/// The team lead's create for the development team (one save per person), posted twice once.
fn planning(s: &mut Sim, r: &mut Rng, d: i64, twice: bool) {
    let lead = &USERS[0];
    let at = local(d, lead, 11 * 60 + 40 + r.range(0, 30)) + micros(r);
    let mut posts = vec![(at, Mark::Plain)];
    if twice {
        posts.push((at + ms(r, 40, 90), Mark::Retry));
    }
    let mut firsts: Vec<usize> = Vec::new();
    for (n, (mut t, mark)) in posts.into_iter().enumerate() {
        for (i, &ui) in DEVS.iter().enumerate() {
            t += ms(r, 40, 90);
            let u = &USERS[ui];
            let begin = local(d, u, 600);
            let x = Ts {
                at: t,
                user: ui,
                proj: SHOP,
                act: MEETING,
                begin,
                end: Some(begin + 90 * MINUTE),
                desc: Some("Sprint planning".to_string()),
                mark,
                ..Ts::default()
            };
            let x = if n == 0 { x } else { Ts { grp: firsts[i], ..x } };
            let k = s.push(x);
            if n == 0 {
                firsts.push(k);
            }
        }
    }
}

fn billable_auto(x: &Ts) -> bool {
    ACTS[x.act].1 && PROJECTS[x.proj].1
}

/// (rate, internal_rate, hourly_rate, fixed_rate) of a stopped record (RateService, classic mode).
fn rates(u: &User, x: &Ts, seconds: i64) -> (f64, f64, Option<f64>, Option<f64>) {
    let hours = seconds as f64 / 3_600.0;
    let round4 = |v: f64| (v * 10_000.0).round() / 10_000.0;
    if let Some(fixed) = ACTS[x.act].2 {
        let internal = u.internal.map_or(fixed, |i| round4(i * hours));
        return (fixed, internal, None, Some(fixed));
    }
    let hourly = PROJECTS[x.proj].2.unwrap_or(u.hourly);
    let internal = u.internal.unwrap_or(hourly);
    (round4(hourly * hours), round4(internal * hours), Some(hourly), None)
}

/// A row as it stands at the end of history, or None when deleted.
struct Row {
    begin: i64,
    end: Option<i64>,
    desc: Option<String>,
    modified: i64,
    billable: bool,
    exported: bool,
}

fn settle(x: &Ts) -> Option<Row> {
    let u = &USERS[x.user];
    let mut evs = x.evs.clone();
    evs.sort_by_key(|e| e.0);
    let (mut end, mut desc, mut modified, mut billable) = (x.end, x.desc.clone(), x.at, billable_auto(x));
    let month = civil(x.begin + u.off * HOUR).1;
    let export = EXPORTS.iter().find(|e| e.1 == month && e.0 > x.at && e.0 < NOW).map(|e| e.0);
    let mut exported = false;
    for (t, ev) in evs {
        if t >= NOW {
            break;
        }
        if export.is_some_and(|xa| t > xa) && end.is_some() && billable {
            exported = true;
        }
        if exported {
            // Exported records are locked for the people who wrote them.
            continue;
        }
        match ev {
            Ev::Stop => {
                if end.is_none() {
                    end = Some(t);
                    modified = t;
                }
            }
            Ev::End(e) => (end, modified) = (Some(e), t),
            Ev::Desc(text) => (desc, modified) = (Some(text), t),
            Ev::Billable(b) => (billable, modified) = (b, t),
            Ev::Delete => return None,
        }
    }
    exported |= export.is_some() && end.is_some() && billable;
    let (begin, end) = match end {
        Some(e) => (floor_min(x.begin), Some(ceil_min(e))),
        None => (secs(x.begin), None),
    };
    Some(Row { begin, end, desc, modified: secs(modified), billable, exported })
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x4B1_3B5);
    let mut s = Sim { v: Vec::new(), running: vec![None; USERS.len()], jira: Vec::new(), late: [false; 2] };
    // A summer holiday of one to two weeks each, and a sick day now and then.
    let away: Vec<(i64, i64)> = USERS
        .iter()
        .map(|_| {
            let from = r.range(3, 50);
            (from, from + r.range(7, 14))
        })
        .collect();
    let mut plannings = 0;
    let mut weeks: Vec<Vec<i64>> = vec![Vec::new(); USERS.len()];
    for k in 0..84 {
        let d = START + k * DAY;
        let wd = weekday(d);
        if wd == 0 && (k / 7) % 2 == 0 {
            plannings += 1;
            planning(&mut s, &mut r, d, plannings == 3);
        }
        if wd == 0 && (k / 7) % 2 == 1 && d + DAY < NOW {
            // The weekend on-call of the first technician, posted from the app on Monday morning.
            let u = &USERS[11];
            let sat = d - 2 * DAY;
            let at = local(d, u, 7 * 60 + 20 + r.range(0, 25)) + ms(&mut r, 0, 59_999);
            let begin = local(sat, u, 8 * 60);
            let desc = Some("Weekend on-call".to_string());
            let x = Ts {
                at,
                user: 11,
                proj: FIELD,
                act: ONCALL,
                begin,
                end: Some(begin + 12 * HOUR),
                desc,
                ..Ts::default()
            };
            s.push(x);
        }
        for (ui, u) in USERS.iter().enumerate() {
            let off = (away[ui].0 <= k && k < away[ui].1) || r.chance(0.012);
            if wd >= 5 {
                continue;
            }
            if u.style == Style::Weekly {
                if !off {
                    weeks[ui].push(d);
                }
                if wd == 4 {
                    let days = std::mem::take(&mut weeks[ui]);
                    weekly(&mut s, &mut r, ui, &days, d, d + 3 * DAY);
                }
                continue;
            }
            if off {
                continue;
            }
            let segs = day_plan(&mut r, u, d);
            match u.style {
                Style::Form => form_day(&mut s, &mut r, ui, d, &segs),
                Style::Jira => {
                    for b in segs.iter().flatten() {
                        worklog(&mut s, &mut r, ui, d, b);
                    }
                }
                _ => timer_day(&mut s, &mut r, ui, &segs),
            }
        }
    }
    sync(&mut s, &mut r);
    // Before invoicing, the team lead sets a few of the month's records non-billable (one multi-update).
    for (i, &review) in REVIEWS.iter().enumerate() {
        let month = 7 + i as u32;
        for x in s.v.iter_mut() {
            let u = &USERS[x.user];
            if x.at < review && civil(x.begin + u.off * HOUR).1 == month && billable_auto(x) && r.chance(0.015) {
                x.evs.push((review + 2 * SECOND, Ev::Billable(false)));
            }
        }
    }

    s.v.retain(|x| x.at < NOW - SECOND);
    let mut order: Vec<usize> = (0..s.v.len()).collect();
    order.sort_by_key(|&i| (s.v[i].at, s.v[i].uid));
    let mut id = ID0;
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("kimai2_timesheet", &columns);
    let mut present: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    for i in order {
        // A create rolled back after its insert (a running record it could not stop) leaves a gap.
        id += 1 + i64::from(r.chance(0.003));
        let x = &s.v[i];
        let Some(row) = settle(x) else { continue };
        let u = &USERS[x.user];
        let seconds = row.end.map_or(0, |e| (e - row.begin) / SECOND);
        let (rate, internal, hourly, fixed) = match row.end {
            Some(_) => rates(u, x, seconds),
            None => (0.0, 0.0, None, None),
        };
        let date = date_text(row.begin + u.off * HOUR);
        let key = format!(
            "{}|{}|{}|{}|{:?}|{}|{:?}|{rate}|{fixed:?}|{hourly:?}|{}|{internal}|{}|{date}",
            x.user, x.proj, x.act, row.begin, row.end, seconds, row.desc, row.exported, row.billable
        );
        let first = present.insert(x.grp);
        let fresh = seen.insert(key);
        let mark = if !first {
            Mark::Retry
        } else if !fresh {
            Mark::Legit
        } else {
            Mark::Plain
        };
        f.push(&[
            ("id", V::I(id)),
            ("user", V::I(u.id)),
            ("activity_id", V::I(ACTS[x.act].0)),
            ("project_id", V::I(PROJECTS[x.proj].0)),
            ("start_time", V::AtSecs(row.begin)),
            ("end_time", row.end.map_or(V::Null, V::AtSecs)),
            ("duration", V::I(seconds)),
            ("description", V::opt_t(row.desc.as_deref())),
            ("rate", V::F(rate)),
            ("fixed_rate", fixed.map_or(V::Null, V::F)),
            ("hourly_rate", hourly.map_or(V::Null, V::F)),
            ("exported", V::B(row.exported)),
            ("timezone", V::t(u.tz)),
            ("internal_rate", V::F(internal)),
            ("billable", V::B(row.billable)),
            ("category", V::t("work")),
            ("modified_at", V::AtSecs(row.modified)),
            ("date_tz", V::t(date)),
            ("break", V::I(0)),
        ]);
        f.mark(id, mark);
        if mark == Mark::Retry && x.hidden {
            f.hidden.insert(id.to_string());
        }
    }
    f
}
