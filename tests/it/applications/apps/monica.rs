//! Monica, the personal CRM (PHP, Laravel 12 Eloquent; MySQL/MariaDB and SQLite, the default of its `.env.example`):
//! `contact_tasks`, the to-dos people keep about the people in their vaults, as the contact page's "Add a task" form
//! (`POST /vaults/{vault}/contacts/{contact}/tasks`, `ContactModuleTaskController::store`, `CreateContactTask`) and the
//! CalDAV server (a PUT into a vault's "Tasks of …" calendar: `CalDAVBackend::createCalendarObject`,
//! `UpdateVCalendar`, `ImportVCalendar`, `ImportContactTask`, the same `CreateContactTask`) write it, and as people
//! tick, edit and delete tasks afterwards and CalDAV clients read them back: a community-hosted instance, 52 users in
//! 44 vaults (8 shared by couples), 150 days to the end of September.
//! Read: monicahq/monica (e08e917, main, 2025-08) database/migrations/2022_05_13_201216_create_contact_tasks_table.php,
//! 2025_08_09_223220_update_contact_important_date_and_tasks.php (`uuid`, `vcalendar`, `distant_*` placed after
//! `author_id`, soft deletes, the `uuid` index), 2020_04_25_133132_create_contacts_table.php and
//! 2014_10_12_000000_create_users_table.php (uuid keys, so `foreignIdFor` makes char(36) columns); app/Models/
//! ContactTask.php, app/Traits/HasUuids.php (`uniqueIds` = ['uuid'], the mutator that keeps only valid uuids),
//! app/Models/User.php (`name`, `getContactInVault`), app/Models/Contact.php; app/Domains/Contact/ManageTasks/
//! Services/{Create,Update,Toggle,Destroy}ContactTask.php, Web/Controllers/ContactModuleTaskController.php,
//! Web/ViewHelpers/ModuleContactTasksViewHelper.php, Dav/ImportContactTask.php, Dav/ExportContactTask.php;
//! app/Domains/Contact/Dav/ (Jobs/UpdateVCalendar.php, Services/ImportVCalendar.php, Services/ExportVCalendar.php,
//! VCalendarImporter.php, Web/Backend/CalDAV/{CalDAVBackend,AbstractCalDAVBackend,CalDAVTasks}.php,
//! Web/Backend/SyncDAVBackend.php); app/Services/BaseService.php (`valueOrNull`); routes/web.php, routes/api.php;
//! resources/js/Shared/Modules/Tasks.vue, TaskItems/CreateOrEditTask.vue, Form/PrettyButton.vue; config/app.php,
//! config/database.php, .env.example, composer.lock (laravel/framework v12.22.1, sabre/vobject 4.5.7).
//! laravel/framework v12.22.1: Schema/Blueprint.php (`foreignIdFor`), Grammars/MySqlGrammar.php and
//! SQLiteGrammar.php (char(36)/varchar uuids, mediumtext/text, tinyint(1), timestamp/datetime, `alter table … add
//! column`), Eloquent/Concerns/HasUuids.php (`Str::uuid7()`), HasUniqueStringIds.php, SoftDeletes.php
//! (`runSoftDelete` sets `updated_at` too). sabre-io/vobject: Component.php (`__set` removes and re-adds a property at
//! the end, `serialize` puts VERSION first and VTIMEZONEs before other components), Component/VCalendar.php and
//! VTodo.php (defaults), Property.php (folding at 75 octets).
//! There is no REST API for tasks in Monica 5 (routes/api.php has users and vaults only; the v4 `/api/tasks` is gone),
//! and no vCard/CSV importer writes tasks: the machine clients are CalDAV ones (here iOS Reminders, jtx Board through
//! DAVx5, Thunderbird).
//! On a create from the form: `contact_id` the contact page's, `author_id` the user, `author_name` first and last name,
//! `label` as typed, `description` NULL (the controller always passes null), `due_at` the picked date as
//! 'Y-m-d 00:00:00' (else NULL), `uuid` a fresh uuid7 (ms of the insert), `completed` left to its default 0,
//! `created_at` = `updated_at` (Carbon now, whole seconds, UTC), `vcalendar` NULL. From CalDAV: the same service with
//! `contact_id` the user's own contact in the vault, `label` SUMMARY, `description` DESCRIPTION, `due_at` DUE as
//! Carbon parsed it (a DATE at 00:00, a TZID time as its wall time); then `uuid` is set to the client's UID (Apple
//! sends it upper case) and saved (`updated_at` again, the same second or the next), then `vcalendar` the raw body of
//! the PUT (saved without timestamps). `distant_*` stay NULL (only an external sync sets them; none writes tasks).
//! Later: the checkbox (`ToggleContactTask`) flips `completed` and sets `completed_at` to now both ways (reopening
//! keeps a `completed_at`); the edit form sets `label`, `due_at` and `description` = NULL (a CalDAV task loses its
//! description); delete is soft (`deleted_at` and `updated_at`; a CalDAV DELETE runs the same service from the queue).
//! Every read of a vault's task calendar by a client (`getCalendarObjects` → `exportData`) re-exports each task whose
//! stored `vcalendar` is missing or whose LAST-MODIFIED is older than `updated_at`, saving it without timestamps:
//! Monica's own VCALENDAR (SOURCE, one more `VTIMEZONE` with only the syncing user's TZID each time, the VTODO with
//! UID, SUMMARY, DTSTAMP/CREATED = `created_at`, LAST-MODIFIED = `updated_at`, DUE, ATTACH = the contact's page, STATUS
//! and COMPLETED when completed) built on what was stored, so a client's properties stay in front. A task ticked off
//! in a CalDAV client is a PUT whose `importCompleted` never sets `completed`: only `vcalendar` changes (and a
//! `completed_at` left by a reopen is cleared); people then often tick it in Monica too. A rename in the client
//! updates `label` and `updated_at` and stores the client's body.
//! Retries (about 1.6% of creates): Enter pressed again in the title field (the Save button is disabled while axios
//! posts, the form's submit handler is not) 30-150 ms apart; nginx's 60 s proxy timeout on a slow request (PHP goes
//! on and stores the first) and Save clicked again on the form still open, 62-85 s later; twice the page reloaded
//! before the first was stored and the task typed in again minutes later (hidden). The copy is deleted when the user
//! sees two, ticked off with the original, or left open. CalDAV: a retried PUT normally finds the task (by URI, then
//! UID) and updates it, or sabre answers 412 to If-None-Match; but in the three huge vaults (2,900-3,400 contacts) the
//! lookups walk every contact with a few queries each and take about a minute, so iOS gives up at 60 s and sends the
//! same body again, and a few of those retries pass the user's own contact before the first attempt has saved its UID:
//! two rows with the same `uuid` and body; the client only ever updates the first. Three form retries in the last day.
//! Legitimate repeats: weekly or fortnightly habits ("Call Mom") added again after ticking last week's off, on the
//! same contact with no due date; a task deleted by mistake (delete sits next to edit in the hover menu) and typed in
//! again within a minute; a task duplicated in Thunderbird (copy and paste) or jtx Board within two minutes (a new UID,
//! the same content); and any later task equal to an earlier one on contact, author, label, description and due date
//! (a generic label on the same contact months apart). Plain near-repeats: one label sent to several contacts in a row
//! (invitations), the same generic labels on different contacts or with another due date.
//! Guessed: the instance, its users, vaults, contacts, rhythms and rates; which users sync with which client and how
//! often their clients read; the clients' bodies (PRODIDs, property order, X-properties, Thunderbird's VTIMEZONE); the
//! request durations; that all UIDs are valid uuids; the server and app in UTC. The foreign keys to `contacts` and
//! `users` are left out with their tables; InnoDB's indexes for them (`contact_tasks_contact_id_foreign`,
//! `contact_tasks_author_id_foreign`) are kept.
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, day, secs, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Sqlite];

/// The table as both migrations leave it on MySQL (the `after` columns in place; InnoDB's indexes for the two
/// foreign keys, the constraints left out with their tables).
const MYSQL: &str = "CREATE TABLE `contact_tasks` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `contact_id` char(36) NOT NULL,
  `author_id` char(36) DEFAULT NULL,
  `uuid` char(36) DEFAULT NULL,
  `vcalendar` mediumtext DEFAULT NULL,
  `distant_uuid` varchar(256) DEFAULT NULL,
  `distant_etag` varchar(256) DEFAULT NULL,
  `distant_uri` varchar(2096) DEFAULT NULL,
  `author_name` varchar(255) NOT NULL,
  `label` varchar(255) NOT NULL,
  `description` text DEFAULT NULL,
  `completed` tinyint(1) NOT NULL DEFAULT 0,
  `completed_at` datetime DEFAULT NULL,
  `due_at` datetime DEFAULT NULL,
  `created_at` timestamp NULL DEFAULT NULL,
  `updated_at` timestamp NULL DEFAULT NULL,
  `deleted_at` timestamp NULL DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `contact_tasks_contact_id_foreign` (`contact_id`),
  KEY `contact_tasks_author_id_foreign` (`author_id`),
  KEY `contact_tasks_uuid_index` (`uuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci";

/// Laravel's statements on SQLite: the create (its inline foreign keys left out), then the second migration's
/// `alter table … add column` (appended, `after` is ignored) and index.
const SQLITE: &str = r#"create table "contact_tasks" ("id" integer primary key autoincrement not null, "contact_id" varchar not null, "author_id" varchar, "author_name" varchar not null, "label" varchar not null, "description" text, "completed" tinyint(1) not null default '0', "completed_at" datetime, "due_at" datetime, "created_at" datetime, "updated_at" datetime);
alter table "contact_tasks" add column "uuid" varchar;
alter table "contact_tasks" add column "vcalendar" text;
alter table "contact_tasks" add column "distant_uuid" varchar;
alter table "contact_tasks" add column "distant_etag" varchar;
alter table "contact_tasks" add column "distant_uri" varchar;
alter table "contact_tasks" add column "deleted_at" datetime;
create index "contact_tasks_uuid_index" on "contact_tasks" ("uuid")"#;

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL.to_string(),
        Engine::Sqlite => SQLITE.to_string(),
        Engine::Postgres => unreachable!("this fixture covers Monica on MySQL/MariaDB and SQLite"),
    }
}

const COLUMNS: &str = "id contact_id author_id uuid vcalendar distant_uuid distant_etag distant_uri author_name label \
    description completed completed_at due_at created_at updated_at deleted_at";

const NOW: i64 = T0;
const DAYS: i64 = 150;
const START: i64 = T0 - DAYS * DAY;
/// Tasks written before the window.
const ID0: i64 = 6_318;
const HOST: &str = "https://monica.example.org";
const SABRE: &str = "-//Sabre//Sabre VObject 4.5.7//EN";
/// The first form create after each of these is sent again.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 7 * HOUR, NOW - 2 * HOUR];
/// Creates per local hour of the day, relative: evenings, lunch breaks.
const RHYTHM: [i64; 24] = [1, 0, 0, 0, 0, 0, 1, 3, 4, 3, 3, 3, 4, 3, 3, 3, 3, 4, 5, 6, 7, 6, 4, 2];
/// The users' zones and their summer offsets (the window is May to September).
const ZONES: [(&str, i64); 7] = [
    ("Europe/Paris", 2),
    ("Europe/Berlin", 2),
    ("Europe/London", 1),
    ("America/New_York", -4),
    ("America/Chicago", -5),
    ("America/Los_Angeles", -7),
    ("Australia/Sydney", 10),
];
const ZONE_WEIGHTS: [i64; 7] = [5, 5, 3, 5, 2, 3, 1];
const BERLIN: usize = 1;
/// Tasks a user adds per day.
const RATES: [f64; 8] = [0.12, 0.2, 0.3, 0.42, 0.55, 0.75, 1.0, 1.4];

const FIRST: &[&str] = &[
    "Anna", "Tom", "Lisa", "Marco", "Sofia", "Jonas", "Emma", "Lukas", "Mia", "Noah", "Clara", "Paul", "Julia",
    "Felix", "Laura", "David", "Sarah", "Ben", "Lea", "Max", "Nina", "Elias", "Hannah", "Leon", "Marie", "Finn", "Zoe",
    "Oskar", "Ida", "Karim", "Priya", "Chen", "Olivia", "James", "Amelia", "Lucas", "Chloe", "Mateo", "Grace", "Ethan",
];
const LAST: &[&str] = &[
    "Martin", "Schmidt", "Dubois", "Rossi", "Garcia", "Smith", "Johnson", "Müller", "Bernard", "Weber", "Lefebvre",
    "Novak", "Jensen", "Silva", "Brown", "Wilson", "Kowalski", "Moreau", "Fischer", "Nguyen", "Patel", "Taylor",
];
const PERSONAL: &[&str] = &[
    "Call {}",
    "Call {} back",
    "Send {} a birthday card",
    "Ask {} about the new job",
    "Return the book to {}",
    "Invite {} for dinner",
    "Send {} the photos from the trip",
    "Congratulate {} on the promotion",
    "Check in with {} after the surgery",
    "Pay {} back for the concert tickets",
    "Reply to {}'s email",
    "Schedule coffee with {}",
    "Buy a gift for {}",
    "Send a thank-you note to {}",
    "Ask {} for the recipe",
    "Follow up with {} about the apartment",
    "Wish {} good luck for the exam",
    "Text {} about the weekend",
    "Visit {} in the hospital",
    "Help {} move",
    "Ask {} how the interview went",
    "Send {} the link to the podcast",
    "Lend {} the tent",
    "Get {}'s new address",
];
const GENERIC: &[&str] = &[
    "Call back",
    "Birthday gift",
    "Send flowers",
    "Lunch next week",
    "Return the drill",
    "Book a restaurant",
    "Follow up",
    "Ask about the kids",
    "Reply to the email",
    "Plan the visit",
    "Buy a card",
];
const NOTES: &[&str] = &[
    "She mentioned it at the barbecue.",
    "Number is in the email from last week.",
    "Before the end of the month.",
    "Ask about the new flat too.",
    "He prefers texts after 6 pm.",
    "Bring the receipts, the blue folder.",
];
/// Labels people send to several contacts in a row.
const BATCH: &[&str] = &[
    "Send the wedding invitation",
    "Invite to the summer party",
    "Send our new address",
    "Share the baby photos",
    "Send the reunion save-the-date",
];
const HABITS: &[&str] = &[
    "Call Mom",
    "Call Grandma",
    "Sunday call with Dad",
    "Water Ingrid's plants",
    "Weekly check-in with Sam",
    "Call Oma",
];
const TWEAKS: &[&str] = &["tomorrow", "this week", "before Friday", "again", "(urgent)"];
/// Thunderbird's zone for Europe/Berlin, sent with a DUE in that zone.
const BERLIN_TZ: &str = "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nX-TZINFO:Europe/Berlin[2025b]\r\nBEGIN:DAYLIGHT\r\n\
    TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\nDTSTART:19700329T020000\r\n\
    RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\nBEGIN:STANDARD\r\nTZOFFSETFROM:+0200\r\n\
    TZOFFSETTO:+0100\r\nTZNAME:CET\r\nDTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n\
    END:STANDARD\r\nEND:VTIMEZONE\r\n";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Client {
    Apple,
    Jtx,
    Thunderbird,
}

struct User {
    id: String,
    name: String,
    zone: usize,
    vault: usize,
    /// The user's own contact in the vault, where CalDAV puts the tasks it creates.
    me: String,
    client: Option<Client>,
    rate: f64,
    /// The share of the user's tasks made in the CalDAV client.
    dav: f64,
}

struct Vault {
    id: String,
    /// Contacts in the vault (a CalDAV PUT walks them all).
    size: i64,
    /// The contacts tasks are about: id and first name.
    contacts: Vec<(String, &'static str)>,
    /// The user whose client reads the vault's task calendar, and how often.
    sync: Option<usize>,
    every: i64,
}

#[derive(Clone)]
struct Dav {
    client: Client,
    uid: String,
    /// The client's CREATED / LAST-MODIFIED (whole seconds).
    made: i64,
}

#[derive(Clone)]
enum Ev {
    Toggle,
    /// The edit form: a new label, a new (or no) due date; the description is cleared.
    Edit(Option<String>, Option<Option<i64>>),
    Delete,
    /// Ticked off in the CalDAV client.
    DavDone,
    /// Renamed in the CalDAV client.
    DavRename(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Retry {
    No,
    Double,
    Proxy,
    Hidden,
}

/// A create request as the server got it (`at` the insert), then what happened to the row.
#[derive(Clone)]
struct Task {
    at: i64,
    user: usize,
    vault: usize,
    contact: String,
    label: String,
    desc: Option<String>,
    /// `due_at` as stored (a wall time, µs).
    due: Option<i64>,
    dav: Option<Dav>,
    mark: Mark,
    hidden: bool,
    evs: Vec<(i64, Ev)>,
}

/// A VCALENDAR as sabre/vobject holds it: the calendar's properties, its VTIMEZONEs, the VTODO's properties (one
/// per name, in the order they were added).
#[derive(Clone, Default)]
struct Doc {
    head: Vec<(&'static str, String)>,
    tz: Vec<String>,
    todo: Vec<(&'static str, String)>,
}

impl Doc {
    /// `$vtodo->NAME = …`: removed, then added at the end.
    fn set(&mut self, name: &'static str, line: String) {
        self.todo.retain(|p| p.0 != name);
        self.todo.push((name, line));
    }

    /// The text: as a client sent it, or as sabre serializes it (VERSION first).
    fn text(&self, sabre: bool) -> String {
        let mut s = String::from("BEGIN:VCALENDAR\r\n");
        let first = self.head.iter().filter(|p| sabre && p.0 == "VERSION");
        let rest = self.head.iter().filter(|p| !(sabre && p.0 == "VERSION"));
        for p in first.chain(rest) {
            s += &fold(&p.1);
        }
        for z in &self.tz {
            s += z;
        }
        s += "BEGIN:VTODO\r\n";
        for p in &self.todo {
            s += &fold(&p.1);
        }
        s += "END:VTODO\r\nEND:VCALENDAR\r\n";
        s
    }
}

/// What `vcalendar` holds: the document, whether Monica wrote it, its LAST-MODIFIED, the client's SEQUENCE.
struct Cal {
    doc: Doc,
    sabre: bool,
    lm: i64,
    seq: i64,
    /// The client has had Monica's export of it.
    seen: bool,
}

/// A body a CalDAV client PUTs.
struct Put<'a> {
    client: Client,
    uid: &'a str,
    label: &'a str,
    desc: Option<&'a str>,
    due: Option<i64>,
    /// 0 a DATE, 1 a time in Europe/Berlin, 2 UTC (as the client got it from Monica).
    style: u8,
    created: i64,
    lm: i64,
    done: Option<i64>,
    seq: i64,
    attach: Option<&'a str>,
}

/// The row at the end of the window.
struct Out {
    created: i64,
    label: String,
    desc: Option<String>,
    due: Option<i64>,
    completed: bool,
    completed_at: Option<i64>,
    updated: i64,
    deleted: Option<i64>,
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

fn stamp(us: i64, format: &str) -> String {
    chrono::DateTime::from_timestamp_micros(us).unwrap().format(format).to_string()
}

fn ical(us: i64) -> String {
    stamp(us, "%Y%m%dT%H%M%SZ")
}

/// A TEXT value escaped.
fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace(';', "\\;").replace(',', "\\,").replace('\n', "\\n")
}

/// A content line folded at 75 octets, as sabre (and the clients) write it.
fn fold(line: &str) -> String {
    let mut out = String::new();
    let (mut start, mut first) = (0, true);
    while start < line.len() {
        let mut end = (start + if first { 75 } else { 74 }).min(line.len());
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        if !first {
            out.push(' ');
        }
        out += &line[start..end];
        out += "\r\n";
        (start, first) = (end, false);
    }
    out
}

/// `Str::uuid7()` at `us`.
fn uuid7(r: &mut Rng, us: i64) -> String {
    let ms = us.div_euclid(1_000);
    let h = r.hex(18);
    let variant = "89ab".as_bytes()[r.below(4) as usize] as char;
    format!("{:08x}-{:04x}-7{}-{}{}-{}", ms >> 16, ms & 0xffff, &h[..3], variant, &h[3..6], &h[6..18])
}

fn count(r: &mut Rng, rate: f64) -> usize {
    let (mut n, mut left) = (0, rate);
    while left > 0.0 {
        n += usize::from(r.chance(left.min(1.0)));
        left -= 1.0;
    }
    n
}

/// A time on UTC day `d0` at a local hour people add tasks.
fn when(r: &mut Rng, d0: i64, off: i64) -> i64 {
    d0 + r.weighted(&RHYTHM) as i64 * HOUR - off * HOUR + r.below(3_600_000_000) as i64
}

fn title(r: &mut Rng, who: &str) -> String {
    if r.chance(0.75) { r.pick(PERSONAL).replace("{}", who) } else { r.pick(GENERIC).to_string() }
}

fn world(r: &mut Rng) -> (Vec<User>, Vec<Vault>) {
    let (mut users, mut vaults): (Vec<User>, Vec<Vault>) = (Vec::new(), Vec::new());
    for k in 0..44 {
        let made = START - r.range(40, 1_100) * DAY - r.range(0, 86_399) * SECOND;
        let huge = k % 15 == 4;
        let size = if huge { r.range(2_900, 3_400) } else { r.range(20, 700) };
        let mut contacts = Vec::new();
        for _ in 0..(size / 8).clamp(8, 120) {
            let t = r.range(made, START - DAY);
            contacts.push((uuid7(r, t), r.one(FIRST)));
        }
        let vi = vaults.len();
        vaults.push(Vault { id: uuid7(r, made), size, contacts, sync: None, every: 0 });
        let owners = if k < 8 { 2 } else { 1 };
        for owner in 0..owners {
            let mut client = match r.below(20) {
                0 | 1 => Some(Client::Apple),
                2 => Some(Client::Jtx),
                3 => Some(Client::Thunderbird),
                _ => None,
            };
            if huge && owner == 0 {
                client = Some(Client::Apple);
            }
            if vaults[vi].sync.is_some() {
                client = None;
            }
            let zone = if client == Some(Client::Thunderbird) { BERLIN } else { r.weighted(&ZONE_WEIGHTS) };
            let joined = made + r.range(0, 30) * DAY + micros(r);
            let id = uuid7(r, joined);
            let linked = joined + r.range(1, 600) * SECOND;
            let me = uuid7(r, linked);
            let name = format!("{} {}", r.one(FIRST), r.one(LAST));
            let mut rate = RATES[r.skewed(RATES.len() as u64) as usize];
            if huge {
                rate = rate.max(0.42);
            }
            let dav = match client {
                Some(Client::Apple) => 0.55,
                Some(_) => 0.4,
                None => 0.0,
            };
            if let Some(c) = client {
                vaults[vi].sync = Some(users.len());
                vaults[vi].every = match c {
                    Client::Apple => 15 * MINUTE,
                    Client::Jtx => HOUR,
                    Client::Thunderbird => 30 * MINUTE,
                };
            }
            users.push(User { id, name, zone, vault: vi, me, client, rate, dav });
        }
    }
    (users, vaults)
}

/// A task from the contact page's form.
fn web_task(r: &mut Rng, users: &[User], vaults: &[Vault], u: usize, at: i64) -> Task {
    let vk = users[u].vault;
    let n = vaults[vk].contacts.len() as u64;
    let (contact, who) = vaults[vk].contacts[r.skewed(n) as usize].clone();
    let off = ZONES[users[u].zone].1;
    let label = title(r, who);
    let due = r.chance(0.45).then(|| day(at + off * HOUR) + r.range(1, 30) * DAY);
    Task {
        at,
        user: u,
        vault: vk,
        contact,
        label,
        desc: None,
        due,
        dav: None,
        mark: Mark::Plain,
        hidden: false,
        evs: Vec::new(),
    }
}

/// A task PUT by the user's CalDAV client at `t`; the insert comes after the PUT's lookups (returned too).
fn dav_task(r: &mut Rng, users: &[User], vaults: &[Vault], u: usize, t: i64) -> (Task, i64) {
    let user = &users[u];
    let vault = &vaults[user.vault];
    let client = user.client.unwrap_or(Client::Apple);
    let who = r.pick(&vault.contacts).1;
    let label = title(r, who);
    let desc = r.chance(if client == Client::Apple { 0.08 } else { 0.25 }).then(|| r.pick(NOTES).to_string());
    let today = day(t + ZONES[user.zone].1 * HOUR);
    let due = match client {
        Client::Thunderbird if r.chance(0.6) => Some(today + r.range(1, 21) * DAY + r.range(8, 18) * HOUR),
        Client::Apple | Client::Jtx if r.chance(0.4) => Some(today + r.range(0, 14) * DAY),
        _ => None,
    };
    // `getExistingTask` and sabre's existence check map every contact of the vault to a query.
    let work = vault.size * 20_000 + r.range(200_000, 3_000_000);
    let lag = match client {
        Client::Apple => r.range(1, 4),
        Client::Jtx => r.range(5, 90),
        Client::Thunderbird => r.range(0, 2),
    } * SECOND
        + micros(r);
    let made = secs(t - lag);
    let uid = if client == Client::Apple { r.uuid().to_uppercase() } else { r.uuid() };
    let x = Task {
        at: t + work,
        user: u,
        vault: user.vault,
        contact: user.me.clone(),
        label,
        desc,
        due,
        dav: Some(Dav { client, uid, made }),
        mark: Mark::Plain,
        hidden: false,
        evs: Vec::new(),
    };
    (x, work)
}

/// What people do with a task after adding it; returns when it was ticked off (in Monica or in the client).
fn life(r: &mut Rng, x: &mut Task, off: i64, syncs: bool) -> Option<i64> {
    let t0 = x.at;
    let y = r.below(100);
    if y < 6 {
        x.evs.push((t0 + r.range(600, 20 * 86_400) * SECOND, Ev::Delete));
        return None;
    }
    if r.chance(0.07) {
        let at = t0 + r.range(60, 8 * 86_400) * SECOND + micros(r);
        let ev = match r.below(3) {
            0 => Ev::Edit(Some(format!("{} {}", x.label, r.pick(TWEAKS))), None),
            1 if x.due.is_some() => Ev::Edit(None, Some(None)),
            _ => Ev::Edit(None, Some(Some(day(at + off * HOUR) + r.range(1, 14) * DAY))),
        };
        x.evs.push((at, ev));
    }
    if x.dav.is_some() && r.chance(0.04) {
        let renamed = format!("{} {}", x.label, r.pick(TWEAKS));
        x.evs.push((t0 + r.range(300, 5 * 86_400) * SECOND + micros(r), Ev::DavRename(renamed)));
    }
    if y >= 70 {
        return None;
    }
    let tc = match x.due {
        Some(d) => (d - off * HOUR + r.range(-2 * 86_400, 4 * 86_400) * SECOND).max(t0 + r.range(600, 7_200) * SECOND),
        None if r.chance(0.6) => t0 + r.range(3_600, 4 * 86_400) * SECOND,
        None => t0 + r.range(4 * 86_400, 40 * 86_400) * SECOND,
    } + micros(r);
    if syncs && r.chance(0.4) {
        x.evs.push((tc, Ev::DavDone));
        if r.chance(0.35) {
            // Still open on the contact page: ticked there too.
            x.evs.push((tc + r.range(86_400, 10 * 86_400) * SECOND, Ev::Toggle));
        }
    } else {
        x.evs.push((tc, Ev::Toggle));
        if r.chance(0.04) {
            // Ticked the wrong box, unticked it.
            let back = tc + r.range(3, 240) * SECOND;
            x.evs.push((back, Ev::Toggle));
            if r.chance(0.5) {
                x.evs.push((back + r.range(60, 2 * 86_400) * SECOND, Ev::Toggle));
            }
        }
    }
    if r.chance(0.03) {
        x.evs.push((tc + r.range(86_400, 30 * 86_400) * SECOND, Ev::Delete));
    }
    Some(tc)
}

/// A form create and the extra rows a resend made.
fn web_send(r: &mut Rng, v: &mut Vec<Task>, x: Task, kind: Retry, off: i64, syncs: bool) {
    let mut a = x;
    let done = life(r, &mut a, off, syncs);
    let delay = match kind {
        Retry::No => {
            v.push(a);
            return;
        }
        Retry::Double => r.range(30_000, 150_000),
        Retry::Proxy => 60 * SECOND + r.range(2, 25) * SECOND + micros(r),
        Retry::Hidden => r.range(150, 400) * SECOND + micros(r),
    };
    let mut b =
        Task { at: a.at + delay, mark: Mark::Retry, hidden: kind == Retry::Hidden, evs: Vec::new(), ..a.clone() };
    let y = r.below(100);
    if kind == Retry::Hidden {
        if y < 50 {
            b.evs.push((b.at + r.range(3_600, 6 * 86_400) * SECOND, Ev::Delete));
        } else {
            life(r, &mut b, off, syncs);
        }
    } else if y < 45 {
        // Two on the list after a reload: the top one (the copy) deleted.
        b.evs.push((b.at + r.range(1_200, 12 * 86_400) * SECOND, Ev::Delete));
    } else if y < 65
        && let Some(tc) = done
    {
        b.evs.push((tc + r.range(3, 40) * SECOND, Ev::Toggle));
    }
    v.push(a);
    v.push(b);
}

/// A CalDAV create, the extra row a retried PUT made, or a duplicate made in the client.
fn dav_send(r: &mut Rng, v: &mut Vec<Task>, x: Task, work: i64, off: i64) {
    let mut a = x;
    life(r, &mut a, off, true);
    let client = a.dav.as_ref().map_or(Client::Apple, |d| d.client);
    if client == Client::Apple && work > 60 * SECOND && r.chance(0.04) {
        // iOS gave up at 60 s and sent the same body again; its lookups passed the user's own contact before the
        // first attempt had saved the UID.
        let mut b =
            Task { at: a.at + 60 * SECOND + r.range(0, 4_000_000), mark: Mark::Retry, evs: Vec::new(), ..a.clone() };
        if r.chance(0.5) {
            b.evs.push((b.at + r.range(3_600, 10 * 86_400) * SECOND, Ev::Delete));
        }
        v.push(a);
        v.push(b);
    } else if client != Client::Apple && r.chance(0.03) {
        // Copied and pasted in Thunderbird, "duplicate" in jtx Board: a new UID, the same task.
        let at = a.at + r.range(20, 110) * SECOND + micros(r);
        let made = secs(at - r.range(1, 5) * SECOND);
        let mut b = Task { at, dav: Some(Dav { client, uid: r.uuid(), made }), evs: Vec::new(), ..a.clone() };
        life(r, &mut b, off, true);
        v.push(a);
        v.push(b);
    } else {
        v.push(a);
    }
}

/// A body as the client writes it.
fn client_doc(p: &Put) -> Doc {
    let due = p.due.map(|t| match p.style {
        0 => format!("DUE;VALUE=DATE:{}", stamp(t, "%Y%m%d")),
        1 => format!("DUE;TZID=Europe/Berlin:{}", stamp(t, "%Y%m%dT%H%M%S")),
        _ => format!("DUE:{}", ical(t)),
    });
    let desc = p.desc.map(|s| format!("DESCRIPTION:{}", esc(s)));
    let summary = format!("SUMMARY:{}", esc(p.label));
    let status = if p.done.is_some() { "COMPLETED" } else { "NEEDS-ACTION" };
    let mut d = Doc::default();
    let mut t: Vec<(&'static str, String)> = Vec::new();
    match p.client {
        Client::Apple => {
            d.head = vec![
                ("VERSION", "VERSION:2.0".to_string()),
                ("PRODID", "PRODID:-//Apple Inc.//iPhone OS 18.6//EN".to_string()),
                ("CALSCALE", "CALSCALE:GREGORIAN".to_string()),
            ];
            if let Some(c) = p.done {
                t.push(("COMPLETED", format!("COMPLETED:{}", ical(c))));
            }
            t.push(("CREATED", format!("CREATED:{}", ical(p.created))));
            if let Some(x) = desc {
                t.push(("DESCRIPTION", x));
            }
            t.push(("DTSTAMP", format!("DTSTAMP:{}", ical(p.lm))));
            if let Some(x) = due {
                t.push(("DUE", x));
            }
            t.push(("LAST-MODIFIED", format!("LAST-MODIFIED:{}", ical(p.lm))));
            if p.done.is_some() {
                t.push(("PERCENT-COMPLETE", "PERCENT-COMPLETE:100".to_string()));
            }
            t.push(("SEQUENCE", format!("SEQUENCE:{}", p.seq)));
            t.push(("STATUS", format!("STATUS:{status}")));
            t.push(("SUMMARY", summary));
            t.push(("UID", format!("UID:{}", p.uid)));
            t.push(("X-APPLE-SORT-ORDER", format!("X-APPLE-SORT-ORDER:{}", p.created / SECOND - 978_307_200)));
        }
        Client::Jtx => {
            d.head = vec![
                ("VERSION", "VERSION:2.0".to_string()),
                ("PRODID", "PRODID:+//IDN bitfire.at//ical4android (at.techbee.jtx)".to_string()),
            ];
            t.push(("DTSTAMP", format!("DTSTAMP:{}", ical(p.lm))));
            t.push(("UID", format!("UID:{}", p.uid)));
            t.push(("SEQUENCE", format!("SEQUENCE:{}", p.seq)));
            t.push(("CREATED", format!("CREATED:{}", ical(p.created))));
            t.push(("LAST-MODIFIED", format!("LAST-MODIFIED:{}", ical(p.lm))));
            t.push(("SUMMARY", summary));
            if let Some(x) = desc {
                t.push(("DESCRIPTION", x));
            }
            t.push(("STATUS", format!("STATUS:{status}")));
            if let Some(c) = p.done {
                t.push(("COMPLETED", format!("COMPLETED:{}", ical(c))));
            }
            let pct = if p.done.is_some() { 100 } else { 0 };
            t.push(("PERCENT-COMPLETE", format!("PERCENT-COMPLETE:{pct}")));
            if let Some(x) = due {
                t.push(("DUE", x));
            }
            if let Some(a) = p.attach {
                t.push(("ATTACH", format!("ATTACH:{a}")));
            }
        }
        Client::Thunderbird => {
            d.head = vec![
                ("PRODID", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN".to_string()),
                ("VERSION", "VERSION:2.0".to_string()),
            ];
            if due.is_some() && p.style == 1 {
                d.tz.push(BERLIN_TZ.to_string());
            }
            t.push(("CREATED", format!("CREATED:{}", ical(p.created))));
            t.push(("LAST-MODIFIED", format!("LAST-MODIFIED:{}", ical(p.lm))));
            t.push(("DTSTAMP", format!("DTSTAMP:{}", ical(p.lm))));
            t.push(("UID", format!("UID:{}", p.uid)));
            t.push(("SUMMARY", summary));
            if let Some(c) = p.done {
                t.push(("STATUS", "STATUS:COMPLETED".to_string()));
                t.push(("COMPLETED", format!("COMPLETED:{}", ical(c))));
                t.push(("PERCENT-COMPLETE", "PERCENT-COMPLETE:100".to_string()));
            }
            if p.seq > 0 {
                t.push(("SEQUENCE", format!("SEQUENCE:{}", p.seq)));
                t.push(("X-MOZ-GENERATION", format!("X-MOZ-GENERATION:{}", p.seq)));
            }
            if let Some(x) = due {
                t.push(("DUE", x));
            }
            if let Some(x) = desc {
                t.push(("DESCRIPTION", x));
            }
            if let Some(a) = p.attach {
                t.push(("ATTACH", format!("ATTACH:{a}")));
            }
        }
    }
    d.todo = t;
    d
}

/// `exportData` on a read: `ExportVCalendar` when the stored body is missing or older than `updated_at`.
fn export(cal: &mut Option<Cal>, o: &Out, uuid: &str, url: &str, tz: &str) {
    if cal.as_ref().is_some_and(|c| c.lm >= o.updated) {
        return;
    }
    let mut c = cal.take().unwrap_or_else(|| Cal {
        doc: Doc {
            head: vec![
                ("VERSION", "VERSION:2.0".to_string()),
                ("PRODID", format!("PRODID:{SABRE}")),
                ("CALSCALE", "CALSCALE:GREGORIAN".to_string()),
                ("SOURCE", format!("SOURCE:{url}")),
            ],
            tz: Vec::new(),
            todo: Vec::new(),
        },
        sabre: true,
        lm: 0,
        seq: 0,
        seen: false,
    });
    let d = &mut c.doc;
    d.tz.push(format!("BEGIN:VTIMEZONE\r\nTZID:{tz}\r\nEND:VTIMEZONE\r\n"));
    d.set("UID", format!("UID:{uuid}"));
    d.set("SUMMARY", format!("SUMMARY:{}", esc(&o.label)));
    d.set("DTSTAMP", format!("DTSTAMP:{}", ical(o.created)));
    d.set("CREATED", format!("CREATED:{}", ical(o.created)));
    d.set("LAST-MODIFIED", format!("LAST-MODIFIED:{}", ical(o.updated)));
    if let Some(s) = o.desc.as_deref().filter(|s| !s.is_empty()) {
        d.set("DESCRIPTION", format!("DESCRIPTION:{}", esc(s)));
    }
    if let Some(t) = o.due {
        d.set("DUE", format!("DUE:{}", ical(t)));
    }
    d.set("ATTACH", format!("ATTACH:{url}"));
    if o.completed {
        d.set("STATUS", "STATUS:COMPLETED".to_string());
        if let Some(t) = o.completed_at {
            d.set("COMPLETED", format!("COMPLETED:{}", ical(t)));
        }
    }
    (c.sabre, c.lm, c.seen) = (true, o.updated, true);
    *cal = Some(c);
}

/// Replays a task's life: the row and its `vcalendar` at the end of the window.
fn settle(r: &mut Rng, x: &Task, uuid: &str, vault: &Vault, users: &[User]) -> (Out, Option<String>) {
    let created = secs(x.at);
    let url = format!("{HOST}/vaults/{}/contacts/{}", vault.id, x.contact);
    let mut o = Out {
        created,
        label: x.label.clone(),
        desc: x.desc.clone(),
        due: x.due,
        completed: false,
        completed_at: None,
        updated: created,
        deleted: None,
    };
    let style = match &x.dav {
        Some(d) if d.client == Client::Thunderbird => 1,
        Some(_) => 0,
        None => 2,
    };
    let made = x.dav.as_ref().map_or(created, |d| d.made);
    let mut cal: Option<Cal> = None;
    if let Some(d) = &x.dav {
        // The UID saved right after the insert.
        o.updated = created + if r.chance(0.3) { SECOND } else { 0 };
        let put = Put {
            client: d.client,
            uid: uuid,
            label: &x.label,
            desc: x.desc.as_deref(),
            due: x.due,
            style,
            created: made,
            lm: made,
            done: None,
            seq: 0,
            attach: None,
        };
        cal = Some(Cal { doc: client_doc(&put), sabre: false, lm: made, seq: 0, seen: false });
    }
    let syncer = vault.sync.map(|s| &users[s]);
    let gap = (vault.every / SECOND).max(60);
    let mut next = syncer.map(|_| x.at + r.range(20, gap) * SECOND);
    let mut evs = x.evs.clone();
    evs.sort_by_key(|e| e.0);
    for (te, ev) in evs {
        if te >= NOW {
            break;
        }
        if let (Some(u), Some(ns)) = (syncer, next)
            && ns < te
        {
            export(&mut cal, &o, uuid, &url, ZONES[u.zone].0);
            next = None;
        }
        let t = secs(te);
        let client = syncer.and_then(|u| u.client);
        let known = x.dav.is_some() || cal.as_ref().is_some_and(|c| c.seen);
        match (ev, client) {
            (Ev::Toggle, _) => {
                (o.completed, o.completed_at, o.updated) = (!o.completed, Some(t), t);
            }
            (Ev::Edit(label, due), _) => {
                if let Some(l) = label {
                    o.label = l;
                }
                if let Some(d) = due {
                    o.due = d;
                }
                (o.desc, o.updated) = (None, t);
            }
            (Ev::Delete, _) => {
                (o.deleted, o.updated) = (Some(t), t);
                break;
            }
            (ev @ (Ev::DavDone | Ev::DavRename(_)), Some(client)) if known => {
                let done = matches!(ev, Ev::DavDone).then(|| t - r.range(1, 20) * SECOND);
                if let Ev::DavRename(l) = ev {
                    (o.label, o.updated) = (l, t);
                }
                if done.is_some() && !o.completed && o.completed_at.is_some() {
                    (o.completed_at, o.updated) = (None, t);
                }
                let lm = done.unwrap_or(t - r.range(1, 30) * SECOND);
                let Some(c) = cal.as_mut() else { continue };
                c.seq += 1;
                let attach = (c.seen && client != Client::Apple).then_some(url.as_str());
                let put = Put {
                    client,
                    uid: uuid,
                    label: &o.label,
                    desc: o.desc.as_deref(),
                    due: o.due,
                    style,
                    created: made,
                    lm,
                    done,
                    seq: c.seq,
                    attach,
                };
                (c.doc, c.sabre, c.lm) = (client_doc(&put), false, lm);
            }
            (Ev::DavDone, _) => {
                // The client never had it: ticked on the contact page instead.
                (o.completed, o.completed_at, o.updated) = (!o.completed, Some(t), t);
            }
            (Ev::DavRename(_), _) => {}
        }
        next = syncer.map(|_| te + r.range(20, gap) * SECOND);
    }
    if o.deleted.is_none()
        && let (Some(u), Some(ns)) = (syncer, next)
        && ns < NOW
    {
        export(&mut cal, &o, uuid, &url, ZONES[u.zone].0);
    }
    let text = cal.map(|c| c.doc.text(c.sabre));
    (o, text)
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x40_21CA_7A5C);
    let (users, vaults) = world(&mut r);
    let mut v: Vec<Task> = Vec::new();
    let (mut late, mut hidden) = (0, 0_i64);
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let weekend = weekday(d0) >= 5;
        for u in 0..users.len() {
            let off = ZONES[users[u].zone].1;
            let vk = users[u].vault;
            let syncs = vaults[vk].sync.is_some();
            let rate = users[u].rate * if weekend { 1.3 } else { 1.0 };
            for _ in 0..count(&mut r, rate) {
                let t = when(&mut r, d0, off);
                if !(START..NOW - 2 * MINUTE).contains(&t) {
                    continue;
                }
                if late < LATE.len() && t > LATE[late] {
                    late += 1;
                    let x = web_task(&mut r, &users, &vaults, u, t);
                    let kind = if r.chance(0.4) { Retry::Double } else { Retry::Proxy };
                    web_send(&mut r, &mut v, x, kind, off, syncs);
                    continue;
                }
                if users[u].client.is_some() && r.chance(users[u].dav) {
                    let (x, work) = dav_task(&mut r, &users, &vaults, u, t);
                    dav_send(&mut r, &mut v, x, work, off);
                    continue;
                }
                let y = r.below(1_000);
                if y < 6 {
                    // One label for several contacts in a row.
                    let label = r.pick(BATCH).to_string();
                    let mut used: Vec<usize> = Vec::new();
                    let mut at = t;
                    for _ in 0..r.range(3, 8) {
                        let c = r.below(vaults[vk].contacts.len() as u64) as usize;
                        if used.contains(&c) {
                            continue;
                        }
                        used.push(c);
                        let contact = vaults[vk].contacts[c].0.clone();
                        let mut x = Task {
                            at,
                            user: u,
                            vault: vk,
                            contact,
                            label: label.clone(),
                            desc: None,
                            due: None,
                            dav: None,
                            mark: Mark::Plain,
                            hidden: false,
                            evs: Vec::new(),
                        };
                        life(&mut r, &mut x, off, syncs);
                        v.push(x);
                        at += r.range(20, 80) * SECOND + micros(&mut r);
                    }
                } else if y < 12 {
                    // Meant to edit the task just added, hit delete, confirmed, typed it in again.
                    let mut a = web_task(&mut r, &users, &vaults, u, t);
                    let gone = t + r.range(25, 80) * SECOND + micros(&mut r);
                    a.evs.push((gone, Ev::Delete));
                    let at = gone + r.range(10, 45) * SECOND + micros(&mut r);
                    let mut b = Task { at, evs: Vec::new(), ..a.clone() };
                    life(&mut r, &mut b, off, syncs);
                    v.push(a);
                    v.push(b);
                } else {
                    let x = web_task(&mut r, &users, &vaults, u, t);
                    let kind = if y >= 28 {
                        Retry::No
                    } else if hidden < 2 && d > 40 + 50 * hidden {
                        hidden += 1;
                        Retry::Hidden
                    } else if r.chance(0.4) {
                        Retry::Double
                    } else {
                        Retry::Proxy
                    };
                    web_send(&mut r, &mut v, x, kind, off, syncs);
                }
            }
        }
    }
    // Habits: ticked off, and the next one added in the same visit.
    let mut keen: Vec<usize> = Vec::new();
    while keen.len() < 7 {
        let u = r.below(users.len() as u64) as usize;
        if !keen.contains(&u) {
            keen.push(u);
        }
    }
    for (i, &u) in keen.iter().enumerate() {
        let (off, vk) = (ZONES[users[u].zone].1, users[u].vault);
        let contact = vaults[vk].contacts[0].0.clone();
        let period = if i % 3 == 2 { 14 } else { 7 };
        let (dow, hour) = (r.range(0, 6), r.range(17, 21));
        let mut d0 = day(START);
        while weekday(d0) != dow {
            d0 += DAY;
        }
        let mut times: Vec<i64> = Vec::new();
        while d0 < NOW {
            let t = d0 + hour * HOUR - off * HOUR + r.below(3_600_000_000) as i64;
            if (START..NOW - HOUR).contains(&t) {
                times.push(t);
            }
            d0 += period * DAY;
        }
        for (j, &t) in times.iter().enumerate() {
            let label = HABITS[i % HABITS.len()].to_string();
            let mut x = Task {
                at: t,
                user: u,
                vault: vk,
                contact: contact.clone(),
                label,
                desc: None,
                due: None,
                dav: None,
                mark: Mark::Plain,
                hidden: false,
                evs: Vec::new(),
            };
            match times.get(j + 1) {
                Some(&next) if r.chance(0.85) => x.evs.push((next - r.range(30, 2 * 3_600) * SECOND, Ev::Toggle)),
                None if r.chance(0.5) => x.evs.push((t + r.range(3_600, 3 * 86_400) * SECOND, Ev::Toggle)),
                _ => {}
            }
            v.push(x);
        }
    }

    v.retain(|x| x.at < NOW - SECOND);
    v.sort_by_key(|x| x.at);
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("contact_tasks", &columns);
    let mut seen: HashSet<String> = HashSet::new();
    for (k, x) in v.iter().enumerate() {
        let id = ID0 + 1 + k as i64;
        let uuid = match &x.dav {
            Some(d) => d.uid.clone(),
            None => {
                let at = x.at + r.range(300, 4_000);
                uuid7(&mut r, at)
            }
        };
        let (o, vcal) = settle(&mut r, x, &uuid, &vaults[x.vault], &users);
        let key = format!("{}|{}|{}|{:?}|{:?}", x.contact, x.user, x.label, x.desc, x.due);
        let fresh = seen.insert(key);
        let mark = match x.mark {
            Mark::Retry => Mark::Retry,
            _ if fresh => Mark::Plain,
            _ => Mark::Legit,
        };
        let user = &users[x.user];
        f.push(&[
            ("id", V::I(id)),
            ("contact_id", V::t(&x.contact)),
            ("author_id", V::t(&user.id)),
            ("uuid", V::t(&uuid)),
            ("vcalendar", V::opt_t(vcal.as_deref())),
            ("author_name", V::t(&user.name)),
            ("label", V::t(&o.label)),
            ("description", V::opt_t(o.desc.as_deref())),
            ("completed", V::B(o.completed)),
            ("completed_at", o.completed_at.map_or(V::Null, V::AtSecs)),
            ("due_at", o.due.map_or(V::Null, V::AtSecs)),
            ("created_at", V::AtSecs(o.created)),
            ("updated_at", V::AtSecs(o.updated)),
            ("deleted_at", o.deleted.map_or(V::Null, V::AtSecs)),
        ]);
        f.mark(id, mark);
        if x.hidden {
            f.hidden.insert(id.to_string());
        }
    }
    f
}
