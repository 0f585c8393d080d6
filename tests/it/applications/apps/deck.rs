//! Nextcloud Deck (PHP, Nextcloud's app framework: `QBMapper` entities on Doctrine DBAL 3; MySQL/MariaDB, PostgreSQL
//! and SQLite): `oc_deck_cards`, as the web UI's quick add and the smart picker's "Create card" dialog (the OCS
//! `CardOcsController::create`), the REST API (`CardApiController::create`: the Deck Android app, mail2deck, an n8n
//! form workflow), "Move/copy card" (`CardService::cloneCard`), board cloning with cards (`BoardService::cloneCards`)
//! and the Trello and Deck JSON importers (`BoardImportService::importCards`) write it, and as people work on cards
//! afterwards: a 40-person non-profit's Nextcloud on Deck 1.18, eight team boards, twelve personal boards, the IT inbox
//! fed by mail, 75 days to the end of September.
//! Read: nextcloud/deck v1.18.3 (a480d8d; HEAD b0f6943 for comparison) lib/Migration/Version1000Date20200306161713.php
//! (the table, `title` 100 then widened), Version10200Date20201111150114.php (`title` 255),
//! Version10800Date20220422061816 (`idx_due_notified_archived_deleted`, `idx_last_editor`),
//! Version1011Date20230901010840 (`done`), Version1011Date20231106160059, Version11000Date20240222115515,
//! Version11002Date20260228000000 (stacks' `is_done_column`), Version11002Date20260312000000 (`startdate`),
//! Version11002Date20260317170905 (`color`); lib/Db/Card.php, CardMapper.php (`insert`, `update`, `findAll`,
//! `findOverdue`, `findToDelete`, `findUnexposedDescriptionChances`), RelationalEntity.php, ChangeHelper.php
//! (`cardChanged` writes `last_modified` and `last_editor`), Stack.php, StackMapper.php; lib/Service/CardService.php
//! (`create`, `update`, `cloneCard`, `reorder`, `archive`, `done`, `undone`, `delete`), BoardService.php (`clone`,
//! `cloneCards`), lib/Controller/CardController.php, CardOcsController.php, CardApiController.php;
//! lib/Service/Importer/BoardImportService.php, Systems/TrelloJsonService.php, Systems/DeckJsonService.php;
//! lib/Cron/DeleteCron.php, ScheduledNotifications.php, CardDescriptionActivity.php,
//! lib/Notification/NotificationHelper.php, lib/Service/ConfigService.php (HEAD's trash retention); appinfo/info.xml;
//! src/components/board/Stack.vue (quick add, "Archive all cards"), src/services/CardApi.js, src/store/card.js,
//! src/views/CreateNewCardCustomPicker.vue, src/CardMoveDialog.vue.
//! nextcloud/server: lib/public/AppFramework/Db/Entity.php (setters skip equal values, strings to `DateTime`),
//! lib/private/DB/ConnectionFactory.php (utf8mb4_bin tables), the dbal 3.10 bumps. stefan-niedermann/nextcloud-deck
//! (850a76d): SyncRepository.createFullCard (`order` = the local stack's highest + 1), CardDao.getHighestOrderInStack,
//! CardDataProvider.createOnServer, DeckAPI.java, model/Card.java, GsonConfig.java, and its issues #612, #795, #1287
//! and #1503 (cards posted two to five times when a sync's response is lost or two syncs race, after offline edits).
//! newroco/mail2deck index.php and lib/DeckClass.php (title = subject minus its `b-'…'`/`s-'…'` tokens, description =
//! the first body part, `order` 999, no retry: a non-200 answer mails the sender a failure notice).
//! The DDL is what DBAL 3 emits for the schema the migrations build on a fresh install (one CREATE TABLE, the columns
//! in the order they were added); only the table's own indexes, no foreign keys (Deck declares none).
//! On a create the mapper writes only the fields set: `title`, `description` ('' unless sent), `stack_id`, `type`
//! 'plain', `order` (999 from the web and most API clients, the local highest + 1 from Android, the original's from a
//! copy or a board clone, Trello's `pos` cut to an integer, the export's from a Deck JSON import), `owner` (the caller;
//! the original's owner for a copy and a board clone; the configured user for an import), `duedate`, `startdate`,
//! `color` when sent, `created_at` = `last_modified` = `time()`; `archived`, `notified` and `deleted_at` keep their
//! defaults, `description_prev`, `last_editor` and `done` stay NULL. Importers then restore the source's
//! `created_at`/`last_modified` (Trello: the card's `createCard` action if the export still holds it, else its last
//! activity) and set `archived`/`done` from the source. A copy gets the original's description by a second update.
//! Later: every mapper update sets `last_modified`; `CardService::update` (title, description, due or start date,
//! color, the app's done checkbox) keeps the pre-edit description in `description_prev` when it is NULL, resets
//! `notified` and, via `cardChanged`, sets `last_editor`, as label, assignment and comment changes do; the
//! `CardDescriptionActivity` job (every cron run, 5 min) clears both again. A drag (`reorder`) renumbers every active
//! card of the target list 0..n around the dropped one and bumps all their `last_modified`; into a done column it sets
//! `done`, out of one it clears it. "Mark as done" sets `done` and moves the card to the board's done column if there
//! is one (cloned boards have none: `is_done_column` is not copied). Archiving (one card, or "Archive all cards" of a
//! list: parallel requests) sets `archived`. `ScheduledNotifications` (every cron run) sets `notified` on active,
//! undone cards past their due date. A delete is soft (`deleted_at`), and the daily `DeleteCron` (time-insensitive,
//! here in the 01:00 UTC maintenance window) purges cards deleted more than 5 minutes before it runs: only the last
//! day's deletes are still rows.
//! Retries (about 2% of creates, 4% of Android's): Deck Android posting a card again, with the same local `order`, when
//! two syncs race (20 ms-2.5 s) or a sync's response was lost (the next sync 10-60 s later, or the app reopened minutes
//! later); offline batches posted twice on reconnect; the n8n workflow's Retry On Fail after its 10 s timeout or the
//! proxy's 504 (n8n's default 3 tries); a quick add whose request hit the proxy's 60 s timeout and was sent again with
//! Enter (the title stays in the field); a mail resent by its sender after mail2deck's failure notice. The app keeps
//! the last copy it heard of; the others are deleted when seen (and purged), marked done along, or left. Some in the
//! last day (three forced). Two Android re-posts 20-50 minutes later are hidden: a card typed twice half an hour apart
//! looks the same. Legitimate repeats: weekly and fortnightly chores added by hand; placeholder cards typed two or
//! three times in a row ("Speaker TBD"); a card added again minutes later on purpose; "Move/copy card" into the same
//! list; Zabbix alerts mailed again by their escalation (the same body) or to two forwarding addresses at once; a Deck
//! JSON import's identical cards; the twin placeholders of a cloned template. Plain near-repeats: board clones (new
//! lists), copies into other lists, Trello cards with equal names, chores on other boards, the same subjects from
//! different hosts.
//! Guessed: the organisation, users, boards, lists, rates and rhythms; Android's share and its timings; the mail and
//! form traffic; which lists are done columns; due-date times the pickers send; the maintenance window; the cron
//! offsets; the Trello export's action window; server and database in UTC, people in Europe/Berlin (CEST).
use std::collections::{HashMap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, day, secs, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Postgres, Engine::Sqlite];

/// DBAL 3's CREATE TABLE on MySQL/MariaDB (`mysql.utf8mb4` on: utf8mb4_bin), indexes inline.
const MYSQL: &str = "CREATE TABLE oc_deck_cards (id INT AUTO_INCREMENT NOT NULL, title VARCHAR(255) NOT NULL, \
description LONGTEXT DEFAULT NULL, description_prev LONGTEXT DEFAULT NULL, stack_id BIGINT NOT NULL, \
type VARCHAR(64) DEFAULT 'plain' NOT NULL, last_modified INT UNSIGNED DEFAULT 0, last_editor VARCHAR(64) DEFAULT NULL, \
created_at INT UNSIGNED DEFAULT 0, owner VARCHAR(64) NOT NULL, `order` BIGINT DEFAULT NULL, \
archived TINYINT(1) DEFAULT 0, duedate DATETIME DEFAULT NULL, notified TINYINT(1) DEFAULT 0, \
deleted_at BIGINT UNSIGNED DEFAULT 0, done DATETIME DEFAULT NULL, startdate DATETIME DEFAULT NULL, \
color VARCHAR(6) DEFAULT NULL, INDEX deck_cards_stack_id_index (stack_id), INDEX deck_cards_order_index (`order`), \
INDEX deck_cards_archived_index (archived), \
INDEX idx_due_notified_archived_deleted (duedate, notified, archived, deleted_at), \
INDEX idx_last_editor (last_editor), PRIMARY KEY(id)) DEFAULT CHARACTER SET utf8mb4 COLLATE `utf8mb4_bin` \
ENGINE = InnoDB";

/// DBAL 3 on PostgreSQL: SERIAL, no unsigned, `timestamp(0)` for datetime.
const POSTGRES: &str = "CREATE TABLE oc_deck_cards (id SERIAL NOT NULL, title VARCHAR(255) NOT NULL, \
description TEXT DEFAULT NULL, description_prev TEXT DEFAULT NULL, stack_id BIGINT NOT NULL, \
type VARCHAR(64) DEFAULT 'plain' NOT NULL, last_modified INT DEFAULT 0, last_editor VARCHAR(64) DEFAULT NULL, \
created_at INT DEFAULT 0, owner VARCHAR(64) NOT NULL, \"order\" BIGINT DEFAULT NULL, archived BOOLEAN DEFAULT false, \
duedate TIMESTAMP(0) WITHOUT TIME ZONE DEFAULT NULL, notified BOOLEAN DEFAULT false, deleted_at BIGINT DEFAULT 0, \
done TIMESTAMP(0) WITHOUT TIME ZONE DEFAULT NULL, startdate TIMESTAMP(0) WITHOUT TIME ZONE DEFAULT NULL, \
color VARCHAR(6) DEFAULT NULL, PRIMARY KEY(id));
CREATE INDEX deck_cards_stack_id_index ON oc_deck_cards (stack_id);
CREATE INDEX deck_cards_order_index ON oc_deck_cards (\"order\");
CREATE INDEX deck_cards_archived_index ON oc_deck_cards (archived);
CREATE INDEX idx_due_notified_archived_deleted ON oc_deck_cards (duedate, notified, archived, deleted_at);
CREATE INDEX idx_last_editor ON oc_deck_cards (last_editor)";

/// DBAL 3 on SQLite (Nextcloud's `OCSqlitePlatform`).
const SQLITE: &str = "CREATE TABLE oc_deck_cards (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, \
title VARCHAR(255) NOT NULL, description CLOB DEFAULT NULL, description_prev CLOB DEFAULT NULL, \
stack_id BIGINT NOT NULL, type VARCHAR(64) DEFAULT 'plain' NOT NULL, last_modified INTEGER UNSIGNED DEFAULT 0, \
last_editor VARCHAR(64) DEFAULT NULL, created_at INTEGER UNSIGNED DEFAULT 0, owner VARCHAR(64) NOT NULL, \
\"order\" BIGINT DEFAULT NULL, archived BOOLEAN DEFAULT 0, duedate DATETIME DEFAULT NULL, notified BOOLEAN DEFAULT 0, \
deleted_at BIGINT UNSIGNED DEFAULT 0, done DATETIME DEFAULT NULL, startdate DATETIME DEFAULT NULL, \
color VARCHAR(6) DEFAULT NULL);
CREATE INDEX deck_cards_stack_id_index ON oc_deck_cards (stack_id);
CREATE INDEX deck_cards_order_index ON oc_deck_cards (\"order\");
CREATE INDEX deck_cards_archived_index ON oc_deck_cards (archived);
CREATE INDEX idx_due_notified_archived_deleted ON oc_deck_cards (duedate, notified, archived, deleted_at);
CREATE INDEX idx_last_editor ON oc_deck_cards (last_editor)";

/// The table as a fresh install of Deck 1.18's migrations leaves it.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL,
        Engine::Postgres => POSTGRES,
        Engine::Sqlite => SQLITE,
    }
    .to_string()
}

const COLUMNS: &str = "id title description description_prev stack_id type last_modified last_editor created_at owner \
    order archived duedate notified deleted_at done startdate color";

const NOW: i64 = T0;
const DAYS: i64 = 75;
/// A Saturday in July.
const START: i64 = T0 - DAYS * DAY;
/// Cards and lists written before the window.
const ID0: i64 = 31_874;
const STACK0: i64 = 1_206;
/// Berlin in summer.
const CEST: i64 = 2 * HOUR;
/// The first Android create after each of these loses its response.
const LATE: [i64; 3] = [NOW - 22 * HOUR, NOW - 13 * HOUR, NOW - 5 * HOUR];
/// Creates per UTC hour: office hours in Berlin, and evenings for personal boards.
const OFFICE: [i64; 24] = [0, 0, 0, 0, 0, 1, 4, 8, 10, 10, 9, 6, 8, 9, 8, 6, 3, 1, 1, 1, 0, 0, 0, 0];
const EVENING: [i64; 24] = [1, 0, 0, 0, 1, 3, 5, 4, 3, 2, 2, 3, 2, 2, 2, 3, 4, 6, 7, 7, 6, 4, 2, 1];

#[rustfmt::skip]
const USERS: [&str; 40] = [
    "s.wagner", "m.becker", "j.hoffmann", "l.schulz", "t.koch", "n.richter", "k.klein", "p.wolf", "a.neumann",
    "f.schwarz", "c.zimmermann", "d.braun", "e.krueger", "h.hartmann", "i.lange", "r.werner", "b.schmitt", "o.krause",
    "g.meier", "u.lehmann", "v.schmid", "w.schulze", "y.maier", "z.koehler", "a.herrmann", "m.koenig", "s.walter",
    "j.mayer", "l.huber", "t.kaiser", "n.fuchs", "k.peters", "p.lang", "f.scholz", "c.moeller", "d.weiss", "e.jung",
    "h.hahn", "deckbot", "n8n",
];
const WAGNER: usize = 0;
const BECKER: usize = 1;
const HOFFMANN: usize = 2;
const SCHULZ: usize = 3;
const KOCH: usize = 4;
const RICHTER: usize = 5;
const NEUMANN: usize = 8;
/// mail2deck's account and the n8n workflow's.
const BOT: usize = 38;
const N8N: usize = 39;
/// People with Deck Android, and the share of their cards they add on the phone.
#[rustfmt::skip]
const PHONES: [(usize, f64); 12] = [
    (6, 0.8), (9, 0.7), (12, 0.9), (14, 0.6), (19, 0.8), (24, 0.9),
    (25, 0.5), (26, 0.7), (27, 0.9), (28, 0.6), (KOCH, 0.3), (13, 0.4),
];
/// Owners of personal boards (the phone people and two who only use the browser).
const PERSONAL: [usize; 12] = [6, 9, 12, 14, 19, 24, 25, 26, 27, 28, 10, 30];
/// New hires, each with an onboarding board cloned from the template.
const HIRES: [(usize, i64); 3] = [(34, 16), (35, 44), (36, 58)];

const FIRST: &[&str] = &[
    "Anna", "Tom", "Lisa", "Marco", "Sofia", "Jonas", "Emma", "Lukas", "Mia", "Noah", "Clara", "Paul", "Julia",
    "Felix", "Laura", "David", "Sarah", "Ben", "Lea", "Max", "Nina", "Elias", "Hannah", "Leon",
];
const MONTHS: &[&str] = &["July", "August", "September", "October"];
const THEMES: &[&str] = &[
    "volunteer day",
    "summer campaign",
    "new partner",
    "donation drive",
    "climate week",
    "open house",
    "workshop series",
    "annual report",
    "school project",
    "city council vote",
];
const EVENTS: &[&str] = &["autumn conference", "open house", "summer party", "climate week", "workshop day"];
const HOSTS: &[&str] = &["nas01", "cloud", "mail", "vpn", "web01", "pve2"];
const SERVICES: &[&str] = &["Collabora", "the wiki", "the print server", "Zabbix", "the CRM"];
const PAGES: &[&str] = &["the start page", "projects", "about us", "the blog", "donations", "jobs"];
const JOBS: &[&str] = &["project manager", "working student", "accountant", "social media manager"];
const PRINTERS: &[&str] = &["the 2nd floor printer", "the Kyocera", "the colour printer"];
const COMPANIES: &[&str] = &[
    "Stadtwerke Ulm",
    "Bäckerei Kuhn",
    "GreenTech GmbH",
    "Volksbank Mitte",
    "Holzbau Brandt",
    "Kita Sonnenschein",
    "Müller & Söhne",
    "Bioladen Nord",
];
const MKT_TITLES: &[&str] = &[
    "Newsletter {m}",
    "Instagram post: {x}",
    "Blog post: {x}",
    "LinkedIn post: {x}",
    "Flyer for the {e}",
    "Photos from the {e}",
    "Update press kit",
    "Review website copy: {x}",
    "Translate the {x} page",
    "Annual report layout",
    "Order roll-up banner",
    "Video interview with {f}",
    "Press release: {x}",
    "Mastodon thread: {x}",
];
const IT_TITLES: &[&str] = &[
    "Replace switch in server room",
    "Renew TLS certificate for {h}",
    "Update Nextcloud on {h}",
    "Set up laptop for {f}",
    "Migrate {s} to the new VM",
    "Check UPS batteries",
    "Rotate backup disks",
    "Offboarding {f}: disable accounts",
    "Patch {h}",
    "Firewall rule for {s}",
];
const WEB_TITLES: &[&str] = &[
    "Set up staging server",
    "Migrate blog posts",
    "Cookie banner",
    "Accessibility audit: {p}",
    "Spam protection for the contact form",
    "Update imprint",
    "301 redirects from old URLs",
    "Compress images on {p}",
    "Team page photos",
    "Track donate button",
    "Search on {p}",
    "Mobile menu overlaps logo",
    "Font loading",
    "Newsletter signup form",
    "Fix broken links on {p}",
];
const EVT_TITLES: &[&str] = &[
    "Book venue for the {e}",
    "Catering offer for the {e}",
    "Send invitations for the {e}",
    "Name badges",
    "Photographer for the {e}",
    "Room plan",
    "Sign-up form",
    "Book train tickets",
    "Order drinks",
    "Feedback survey",
    "Programme for the {e}",
    "Accessibility check of the venue",
];
const HR_TITLES: &[&str] = &[
    "Job ad: {j}",
    "Interviews {j}",
    "Update holiday calendar",
    "First aid course registration",
    "Reference letter for {f}",
    "Team day planning",
    "Training budget 2027",
    "Working time records {m}",
    "Contract extension {f}",
];
const OFC_TITLES: &[&str] = &[
    "Order printer paper",
    "Fix dishwasher",
    "Book cleaning service",
    "Replace kitchen kettle",
    "Order toner for {r}",
    "Renew parking permits",
    "Keys for {f}",
    "Order envelopes",
    "Plants for the meeting room",
];
const SAL_TITLES: &[&str] = &[
    "Follow up with {c}",
    "Proposal for {c}",
    "Call {c} about the renewal",
    "Send brochure to {c}",
    "Meeting notes {c}",
    "Sponsoring request {c}",
];
const OWN_TITLES: &[&str] = &[
    "Dentist appointment",
    "Renew passport",
    "Buy birthday present for {f}",
    "Call insurance about the claim",
    "Return parcel",
    "Pay invoice",
    "Car service",
    "Book flights",
    "Cancel gym membership",
    "Pick up dry cleaning",
    "Tax return",
    "Expense report {m}",
    "Prepare slides for Monday",
    "Reply to {f}",
    "Order new glasses",
    "Buy milk",
    "Call {f}",
    "Read the board minutes",
    "Sign up for the 10k run",
    "Fix bike light",
    "Groceries at {t}",
    "Pick up parcel at {t}",
    "Birthday card for {f}",
    "Book table for {f}'s birthday",
    "Call the landlord about the heating",
    "Renew bike insurance",
    "Vet appointment for the cat",
    "Haircut",
    "Sell the old sofa",
    "Send {f} the photos",
    "Ask {f} about the weekend",
    "Transfer rent",
    "Update CV",
    "Buy train ticket to {f}'s",
    "Clean out the basement",
    "Return library books",
    "Change winter tyres",
    "Register for the language course",
    "Doctor's note for work",
    "Pay kindergarten fee",
];
/// What people append to a title.
const TEAM_TAILS: &[&str] = &[
    "({f})",
    "- {m}",
    "KW {w}",
    "for {c}",
    "(urgent)",
    "before the {e}",
    "- ask {f}",
    "({m} deadline)",
    "({p})",
    "- {f} & {f}",
];
const OWN_TAILS: &[&str] = &[
    "({d})",
    "before {d}",
    "for {f}",
    "!!",
    "({f} asked)",
    "on {d}",
    "again",
    "({w} EUR)",
    "- call first",
    "(online)",
];
const DAYS_OF_WEEK: &[&str] = &["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "the weekend", "Sunday"];
const TOWN: &[&str] = &["Rewe", "dm", "the post office", "the bank", "IKEA", "the pharmacy", "the Bürgeramt", "Lidl"];
const WEEKS: &[&str] = &["31", "32", "33", "34", "35", "36", "37", "38", "39", "40", "15", "20", "30", "45"];

/// Placeholders people type several times in a row.
const PLACEHOLDERS: &[&str] = &["Speaker TBD", "Interview slot", "Workshop slot", "Guest post", "Photo for the post"];
const NOTES: &[&str] = &[
    "See the mail from last week.",
    "Budget approved by the board.",
    "Ask {f} before ordering.",
    "Deadline is firm.",
    "Draft is in the shared folder: /Projects/2026/",
    "Waiting for the quote.",
    "Needs sign-off from {f}.",
    "Low priority, after the conference.",
    "{f} has the details.",
];
const ITEMS: &[&str] =
    &["Draft", "Review", "Get quotes", "Book", "Send out", "Check budget", "Photos", "Proofread", "Ask {f}", "Upload"];
const SUFFIXES: &[&str] = &["(2)", "- part 2", "for October", "#2", "v2", "(follow-up)"];
const COLORS: &[&str] = &["e9322d", "f0c400", "00b6e9", "3794ac", "4bcb50", "bc5c91"];
/// Mails people send to the IT inbox: subject, what the body says.
const MAILS: &[(&str, &str)] = &[
    (
        "Printer on 2nd floor shows paper jam",
        "the printer on the 2nd floor shows a paper jam but there is no paper in it.",
    ),
    ("VPN keeps disconnecting", "my VPN connection drops every few minutes since this morning."),
    ("Can't open the shared calendar", "I get an error when I open the team calendar in Thunderbird."),
    ("Need access to the finance folder", "could you give me access to the finance folder? My manager agreed."),
    ("Laptop battery swollen", "the battery of my laptop looks swollen, the touchpad does not click anymore."),
    ("Voicemail not working", "callers cannot leave a voicemail on my extension."),
    ("Beamer in meeting room B", "the beamer in meeting room B shows no picture from the HDMI cable."),
    ("Password reset", "I locked myself out of my account after the holidays."),
    ("Outlook asks for password again and again", "Outlook keeps asking for my password, even after I enter it."),
    ("New colleague starting Monday", "we have a new colleague starting on Monday and need an account and a laptop."),
    ("Mail on my phone stopped syncing", "my phone does not get any new mail since yesterday."),
    ("Scanner sends nothing", "the scanner says sent, but the scans never arrive in my inbox."),
];
const SINCE: &[&str] = &[
    "It started this morning.",
    "Since yesterday.",
    "Since the update last week.",
    "It happens every few days.",
    "Since I came back from holiday.",
    "Colleagues have the same problem.",
];
const MORE: &[&str] = &[
    "I already restarted the laptop.",
    "I am in room 2.14 today.",
    "Screenshot attached.",
    "It is not urgent.",
    "I need it for a meeting at 2 pm.",
    "Can you call me? Extension 214.",
    "",
    "",
];
const BYE: &[&str] = &["Thanks,", "Thank you!", "Best,", "Cheers,", "Regards,"];
/// Zabbix problems: name, operational data, severity.
const TRIGGERS: &[(&str, &str, &str)] = &[
    ("/srv: Disk space is critically low (used > 90%)", "Space used: 91.3 %", "High"),
    ("High CPU utilization (over 90% for 5m)", "Current utilization: 96.2 %", "Warning"),
    ("Nextcloud: background jobs are late", "Last run: 42m ago", "Average"),
    ("Zabbix agent is not available (for 3m)", "not available (1)", "Average"),
    ("Backup job failed", "exit code 1", "High"),
];
const ROOMS: &[&str] =
    &["Room 1.04", "Room 1.12", "Room 2.03", "Room 2.14", "Room 2.21", "Kitchen", "Meeting room A", "Meeting room B"];
const ISSUES: &[&str] = &[
    "heating not working",
    "light flickering",
    "window does not close",
    "projector broken",
    "chair broken",
    "blinds stuck",
    "water under the sink",
    "door lock jammed",
];
const FEATURES: &[&str] = &[
    "SSO login",
    "Export to CSV",
    "Dark mode",
    "Push notifications",
    "Onboarding tour",
    "Bulk edit",
    "API rate limiting",
    "Audit log",
    "Two-factor authentication",
    "Custom fields",
    "Webhooks",
    "Calendar sync",
    "Offline mode",
    "Search filters",
    "Donation receipts",
    "Volunteer shifts",
    "Member import",
    "Event check-in",
];
const FEATURE_TAILS: &[&str] = &["", "", "", " (mobile)", " v2", " for admins", " - research", " - spec"];
const FOUNDATIONS: &[&str] = &[
    "Aktion Mensch",
    "Bosch Foundation",
    "DBU",
    "EU LIFE",
    "City climate fund",
    "Lottery fund",
    "Erasmus+",
    "Heinz Sielmann Foundation",
];
/// A template card: list, title, description, `order`.
type Line = (usize, &'static str, &'static str, i64);
/// The onboarding template (its `order`s renumbered by a drag once).
const ONBOARDING: [Line; 12] = [
    (0, "Sign employment contract", "Scan the signed copy and file it in HR/Contracts.", 0),
    (0, "Order laptop and phone", "- [ ] Laptop\n- [ ] Phone\n- [ ] Headset\n- [ ] Docking station", 1),
    (0, "Create Nextcloud account", "Groups: staff and the department group. Quota 50 GB.", 2),
    (0, "Add to mailing lists", "", 3),
    (0, "Prepare desk and keys", "", 4),
    (1, "Welcome lunch with the team", "", 0),
    (1, "IT security briefing", "Password manager, 2FA, phishing rules.", 1),
    (1, "Introduce to all departments", "", 2),
    (1, "Set up VPN and 2FA", "", 3),
    (2, "Data protection training", "Online course, certificate to HR.", 0),
    (2, "Feedback talk with manager", "", 1),
    (2, "Set probation goals", "", 2),
];
/// The event checklist: its two speaker placeholders were added by hand and never dragged.
const CHECKLIST: [Line; 11] = [
    (0, "Fix date and budget", "", 0),
    (0, "Book venue", "Capacity 120, step-free access.", 1),
    (0, "Catering offer", "", 2),
    (0, "Speaker TBD", "", 999),
    (0, "Speaker TBD", "", 999),
    (1, "Send save-the-date", "", 0),
    (1, "Registration form", "", 1),
    (1, "Name badges", "", 2),
    (1, "Photographer", "", 3),
    (2, "Room plan", "", 0),
    (2, "Press release", "", 1),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Team,
    Personal,
    Support,
    Facility,
    Template,
    Cloned,
    Trello,
    Import,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Topic {
    Marketing,
    It,
    Web,
    Events,
    Hr,
    Office,
    Sales,
    Own,
    Facility,
    Onboarding,
    Roadmap,
    Grants,
}

struct Board {
    kind: Kind,
    topic: Topic,
    members: Vec<usize>,
    stacks: Vec<usize>,
    /// The list marked "Set cards as done".
    done: Option<usize>,
    /// The list cards end up in.
    end: usize,
    /// Cards added per weekday.
    rate: f64,
    /// The share of cards that get worked on.
    work: f64,
    from: i64,
}

struct Stack {
    id: i64,
    board: usize,
}

/// A board as its spec gives it.
struct Spec {
    kind: Kind,
    topic: Topic,
    members: Vec<usize>,
    lists: usize,
    done: Option<usize>,
    end: usize,
    rate: f64,
    from: i64,
}

struct World {
    boards: Vec<Board>,
    stacks: Vec<Stack>,
    old: i64,
    new: i64,
}

impl World {
    fn add(&mut self, r: &mut Rng, spec: Spec) -> usize {
        let bi = self.boards.len();
        let mut stacks = Vec::new();
        for _ in 0..spec.lists {
            let id = if spec.from < START {
                self.old += r.range(1, 9);
                self.old
            } else {
                self.new += 1;
                self.new
            };
            stacks.push(self.stacks.len());
            self.stacks.push(Stack { id, board: bi });
        }
        if spec.from >= START {
            self.new += r.range(0, 4);
        }
        let work = match spec.kind {
            Kind::Team => 0.75,
            Kind::Personal => 0.7,
            Kind::Support | Kind::Facility | Kind::Cloned => 0.85,
            Kind::Trello => 0.15,
            Kind::Import => 0.05,
            Kind::Template => 0.0,
        };
        let done = spec.done.map(|i| stacks[i]);
        self.boards.push(Board {
            kind: spec.kind,
            topic: spec.topic,
            members: spec.members,
            stacks,
            done,
            end: spec.end,
            rate: spec.rate,
            work,
            from: spec.from,
        });
        bi
    }
}

const MKT: usize = 0;
const IT: usize = 1;
const EVT: usize = 3;
const OFC: usize = 5;
const FAC: usize = 7;

#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Chan {
    #[default]
    Web,
    Picker,
    Android,
    Mail,
    Form,
    Copy,
    Clone,
    Trello,
    Json,
    Before,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Same,
    Stack(usize),
}

#[derive(Clone, Copy)]
enum Place {
    Top,
    Bottom,
    Any,
}

#[derive(Clone)]
enum Act {
    /// `CardService::update`: a new description, due date, start date, title, color, or `done` from the app.
    Edit(String),
    Due(Option<i64>),
    Start(i64),
    Rename(String),
    Color(&'static str),
    DoneFlag,
    /// A label, an assignment or a comment (`cardChanged`).
    Touch,
    /// A drag (`reorder`) into a list.
    Move(usize, Place),
    Done,
    Undone,
    Archive,
    Delete,
}

#[derive(Clone)]
struct Ev {
    t: i64,
    who: usize,
    act: Act,
}

/// The row as it stands.
#[derive(Clone, Default)]
struct State {
    stack: usize,
    order: i64,
    title: String,
    desc: String,
    due: Option<i64>,
    start: Option<i64>,
    color: Option<&'static str>,
    archived: bool,
    done: Option<i64>,
    deleted: Option<i64>,
    lm: i64,
    created: i64,
    notified: bool,
    /// When `notified` was last reset (or the row written).
    reset: i64,
    prev: Option<String>,
    editor: Option<usize>,
    /// When `last_editor` was set, until the description job clears it.
    dirty: Option<i64>,
}

/// What a create wrote: list, title, description, `order`, due date.
#[derive(Clone)]
struct Made {
    stack: usize,
    title: String,
    desc: String,
    order: i64,
    due: Option<i64>,
}

/// A create as the server got it, what people did to the card afterwards, and the row.
#[derive(Clone, Default)]
struct Card {
    uid: usize,
    at: i64,
    chan: Chan,
    stack: usize,
    by: usize,
    owner: usize,
    title: String,
    desc: String,
    order: i64,
    due: Option<i64>,
    start: Option<i64>,
    /// An import's `created_at` and `last_modified`.
    src: Option<(i64, i64)>,
    archived0: bool,
    done0: Option<i64>,
    /// The first attempt of the create (itself if it was not retried).
    grp: usize,
    retry: bool,
    hidden: bool,
    copy: Option<(usize, Target)>,
    evs: Vec<Ev>,
    id: i64,
    alive: bool,
    /// The create's values (a copy's and an Android card's are settled in the replay).
    made: Option<Made>,
    /// A copy equal to its original as it stood then.
    twin: bool,
    st: State,
}

fn card(chan: Chan, at: i64, stack: usize, by: usize, title: String) -> Card {
    Card { at, chan, stack, by, owner: by, title, order: 999, ..Card::default() }
}

/// The attempts of one create: when each went out (after the first), which one the client kept, what becomes of the
/// others.
struct Tries {
    delays: Vec<i64>,
    kept: usize,
    hidden: bool,
    drop: f64,
}

impl Tries {
    fn once() -> Tries {
        Tries { delays: Vec::new(), kept: 0, hidden: false, drop: 0.0 }
    }

    /// Each attempt's response lost but the last.
    fn lost(delays: Vec<i64>, drop: f64) -> Tries {
        let kept = delays.len();
        Tries { delays, kept, hidden: false, drop }
    }
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

/// The first run of the 5-minute cron after `t`.
fn tick_after(t: i64) -> i64 {
    let k = (t - 17 * SECOND).div_euclid(5 * MINUTE) + 1;
    k * 5 * MINUTE + 17 * SECOND
}

/// Year, month, day, hour, minute, second of a UTC time.
fn civil(us: i64) -> (i64, i64, i64, i64, i64, i64) {
    let s = us.div_euclid(SECOND);
    let (days, rest) = (s.div_euclid(86_400), s.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d, rest / 3_600, rest % 3_600 / 60, rest % 60)
}

/// `dur` of working time after `t`: office hours on weekdays for boards of teams, waking hours for personal ones.
fn later(mut t: i64, mut dur: i64, team: bool) -> i64 {
    let (open, close) = if team { (6 * HOUR, 16 * HOUR) } else { (5 * HOUR, 21 * HOUR) };
    loop {
        let d0 = day(t);
        if (team && weekday(d0) >= 5) || t >= d0 + close {
            t = d0 + DAY + open;
            continue;
        }
        t = t.max(d0 + open);
        if t + dur <= d0 + close {
            return t + dur;
        }
        dur -= d0 + close - t;
        t = d0 + DAY + open;
    }
}

fn count(r: &mut Rng, rate: f64) -> usize {
    let (mut n, mut left) = (0, rate);
    while left > 0.0 {
        n += usize::from(r.chance(left.min(1.0)));
        left -= 1.0;
    }
    n
}

fn when(r: &mut Rng, d0: i64, rhythm: &[i64; 24]) -> i64 {
    d0 + r.weighted(rhythm) as i64 * HOUR + r.below(3_600_000_000) as i64
}

fn mate(r: &mut Rng, b: &Board) -> usize {
    b.members[r.skewed(b.members.len() as u64) as usize]
}

fn phone(u: usize) -> f64 {
    PHONES.iter().find(|p| p.0 == u).map_or(0.0, |p| p.1)
}

/// A pattern's placeholders filled in.
fn fill(r: &mut Rng, pattern: &str) -> String {
    let mut s = pattern.to_string();
    let slots: [(&str, &[&str]); 15] = [
        ("{m}", MONTHS),
        ("{x}", THEMES),
        ("{e}", EVENTS),
        ("{f}", FIRST),
        ("{h}", HOSTS),
        ("{s}", SERVICES),
        ("{p}", PAGES),
        ("{j}", JOBS),
        ("{r}", PRINTERS),
        ("{c}", COMPANIES),
        ("{a}", FEATURES),
        ("{o}", FOUNDATIONS),
        ("{d}", DAYS_OF_WEEK),
        ("{t}", TOWN),
        ("{w}", WEEKS),
    ];
    for (key, words) in slots {
        while s.contains(key) {
            let word = r.pick(words).to_string();
            s = s.replacen(key, &word, 1);
        }
    }
    s
}

fn title(r: &mut Rng, topic: Topic) -> String {
    let pool = match topic {
        Topic::Marketing => MKT_TITLES,
        Topic::It => IT_TITLES,
        Topic::Web | Topic::Roadmap => WEB_TITLES,
        Topic::Events => EVT_TITLES,
        Topic::Hr | Topic::Onboarding => HR_TITLES,
        Topic::Office | Topic::Facility => OFC_TITLES,
        Topic::Sales | Topic::Grants => SAL_TITLES,
        Topic::Own => OWN_TITLES,
    };
    let pattern = r.pick(pool).to_string();
    let base = fill(r, &pattern);
    // What people add to tell cards apart: a person, a week, a month, a detail.
    let plain = !pattern.contains('{');
    let own = topic == Topic::Own;
    if !r.chance(match (plain, own) {
        (true, true) => 0.8,
        (true, false) => 0.7,
        (false, true) => 0.45,
        (false, false) => 0.35,
    }) {
        return base;
    }
    let tail = if own { r.pick(OWN_TAILS) } else { r.pick(TEAM_TAILS) }.to_string();
    format!("{base} {}", fill(r, &tail))
}

/// What people type into the description: a note, a checklist, or both.
fn notes(r: &mut Rng) -> String {
    let note = r.pick(NOTES).to_string();
    let mut list = String::new();
    for _ in 0..r.range(2, 5) {
        let item = r.pick(ITEMS).to_string();
        list += &format!("- [ ] {}\n", fill(r, &item));
    }
    match r.below(3) {
        0 => fill(r, &note),
        1 => format!("{}\n\n{list}", fill(r, &note)),
        _ => list,
    }
}

/// A due date from the web sidebar: its shortcuts (later today 18:00, tomorrow 08:00, next Monday 08:00) or a picked
/// time, local.
fn web_due(r: &mut Rng, t: i64) -> i64 {
    let today = day(t + CEST);
    let local = match r.below(4) {
        0 => today + 18 * HOUR,
        1 => today + DAY + 8 * HOUR,
        2 => today + (7 - weekday(today)) * DAY + 8 * HOUR,
        _ => today + r.range(2, 24) * DAY + r.range(9, 17) * HOUR,
    };
    local - CEST
}

fn landing(r: &mut Rng) -> Place {
    match r.below(20) {
        0..=10 => Place::Bottom,
        11..=16 => Place::Top,
        _ => Place::Any,
    }
}

fn add(x: &mut Card, t: i64, who: usize, act: Act) {
    x.evs.push(Ev { t, who, act });
}

fn push(v: &mut Vec<Card>, mut x: Card) {
    x.uid = v.len();
    x.grp = x.uid;
    v.push(x);
}

/// The attempts of a create; the one the client kept is worked on, the others have their own fate.
fn send(r: &mut Rng, w: &World, v: &mut Vec<Card>, x: Card, tries: Tries) {
    let first = v.len();
    let offsets: Vec<i64> = std::iter::once(0).chain(tries.delays.iter().copied()).collect();
    for (i, &d) in offsets.iter().enumerate() {
        let mut c = Card { at: x.at + d, retry: i > 0, hidden: tries.hidden && i > 0, evs: Vec::new(), ..x.clone() };
        if i == tries.kept {
            life(r, &mut c, w, true);
        } else {
            orphan(r, &mut c, w, tries.drop);
        }
        c.uid = v.len();
        c.grp = first;
        v.push(c);
    }
}

/// A copy the client never heard of: deleted when someone sees two, done along with the other, or left.
fn orphan(r: &mut Rng, x: &mut Card, w: &World, drop: f64) {
    let b = &w.boards[w.stacks[x.stack].board];
    let who = if x.by < BOT { x.by } else { mate(r, b) };
    if r.chance(drop) {
        let t = x.at + r.range(300, 3 * 86_400) * SECOND + micros(r);
        add(x, t, who, Act::Delete);
    } else if r.chance(0.35) {
        let t = x.at + r.range(86_400, 10 * 86_400) * SECOND + micros(r);
        add(x, t, who, Act::Done);
    }
}

/// What happens to a card: details right after the create (`fresh`), labels, comments, due dates, drags along the
/// board's lists, done, archived or deleted.
fn life(r: &mut Rng, x: &mut Card, w: &World, fresh: bool) {
    let b = &w.boards[w.stacks[x.stack].board];
    let team = b.kind != Kind::Personal;
    let (t0, by) = (x.at, x.by);
    let person = if by < BOT { by } else { mate(r, b) };
    if fresh && x.chan == Chan::Web && x.desc.is_empty() && r.chance(0.4) {
        let t = t0 + r.range(15, 900) * SECOND + micros(r);
        let text = notes(r);
        add(x, t, by, Act::Edit(text));
    }
    if fresh && x.chan == Chan::Android && r.chance(0.35) {
        // Labels and assignees the app syncs after the card.
        add(x, t0 + r.range(800_000, 6_000_000), by, Act::Touch);
    }
    if team && r.chance(0.35) {
        let (t, who) = (t0 + r.range(20, 86_400) * SECOND + micros(r), mate(r, b));
        add(x, t, who, Act::Touch);
    }
    if x.due.is_none() && r.chance(if team { 0.2 } else { 0.12 }) {
        let t = t0 + r.range(60, 2 * 86_400) * SECOND + micros(r);
        let due = web_due(r, t);
        add(x, t, person, Act::Due(Some(due)));
        if team && r.chance(0.12) {
            // A start date (new in 1.18), set in the same sitting.
            let start = day(t + CEST) + r.range(0, 5) * DAY + 8 * HOUR - CEST;
            add(x, t + r.range(3, 40) * SECOND, person, Act::Start(start.min(due)));
        }
    }
    let comments = r.weighted(if team { &[55, 25, 12, 8] } else { &[90, 8, 2, 0] });
    for _ in 0..comments {
        let (t, who) = (t0 + r.range(1_800, 12 * 86_400) * SECOND + micros(r), mate(r, b));
        add(x, t, who, Act::Touch);
    }
    if team && r.chance(0.03) {
        let (t, c) = (t0 + r.range(60, 3 * 86_400) * SECOND + micros(r), r.one(COLORS));
        add(x, t, person, Act::Color(c));
    }
    if r.chance(0.04) {
        let t = t0 + r.range(120, 5 * 86_400) * SECOND + micros(r);
        let renamed = format!("{} {}", x.title, r.pick(SUFFIXES));
        add(x, t, person, Act::Rename(renamed));
    }
    if r.chance(0.035) {
        let t = t0 + r.range(600, 5 * 86_400) * SECOND + micros(r);
        add(x, t, person, Act::Delete);
        return;
    }
    if r.chance(0.07) {
        // Dragged to the top of its list.
        let t = t0 + r.range(3_600, 3 * 86_400) * SECOND + micros(r);
        add(x, t, person, Act::Move(x.stack, Place::Top));
    }
    let Some(mut i) = b.stacks.iter().position(|&s| s == x.stack) else { return };
    if !r.chance(b.work) {
        return;
    }
    let lost = b.topic == Topic::Sales && r.chance(0.3);
    let end = if lost { 4 } else { b.end };
    let mut t = t0;
    let mut finished = false;
    while i < end {
        t += r.range(2 * 3_600, 6 * 86_400) * SECOND + micros(r);
        if r.chance(0.12) {
            break;
        }
        let who = if team { mate(r, b) } else { by };
        if r.chance(0.18) {
            // "Mark as done" from the card's menu, or the app's checkbox (an update with `done`).
            let act = if !team && phone(by) > 0.0 && r.chance(0.6) { Act::DoneFlag } else { Act::Done };
            add(x, t, who, act);
            finished = true;
            break;
        }
        i = if r.chance(0.2) || (lost && i == 2) { end } else { i + 1 };
        add(x, t, who, Act::Move(b.stacks[i], landing(r)));
        finished = i == end;
    }
    if finished {
        let y = r.below(100);
        let who = if team { mate(r, b) } else { by };
        let then = t + r.range(86_400, 12 * 86_400) * SECOND + micros(r);
        if y < 14 {
            add(x, then, who, Act::Archive);
        } else if y < 14 + if team { 2 } else { 22 } {
            add(x, then, who, Act::Delete);
        } else if y < 40 && b.kind == Kind::Personal {
            add(x, then, who, Act::Archive);
        } else if y == 99 {
            add(x, t + r.range(600, 86_400) * SECOND, who, Act::Undone);
        }
    }
}

fn world(r: &mut Rng) -> World {
    let mut w = World { boards: Vec::new(), stacks: Vec::new(), old: 212, new: STACK0 };
    let old = START - 400 * DAY;
    let team = |topic: Topic, members: &[usize], lists: usize, done: Option<usize>, end: usize, rate: f64| Spec {
        kind: Kind::Team,
        topic,
        members: members.to_vec(),
        lists,
        done,
        end,
        rate,
        from: old,
    };
    w.add(r, team(Topic::Marketing, &[KOCH, RICHTER, 6, 7, NEUMANN, 9, 10, 13], 5, Some(4), 4, 4.5));
    let it = w.add(r, team(Topic::It, &[WAGNER, BECKER], 4, Some(3), 3, 1.0));
    w.boards[it].kind = Kind::Support;
    w.add(r, team(Topic::Web, &[KOCH, 11, 12, BECKER, 16, 20], 5, None, 4, 3.0));
    w.add(r, team(Topic::Events, &[RICHTER, 6, 13, 14, HOFFMANN, 21], 4, Some(3), 3, 2.5));
    w.add(r, team(Topic::Hr, &[SCHULZ, 15, HOFFMANN], 4, Some(3), 3, 1.0));
    w.add(r, team(Topic::Office, &[HOFFMANN, SCHULZ, 16, 17], 3, Some(2), 2, 1.0));
    w.add(r, team(Topic::Sales, &[18, 19, 20, 21, 22, 23], 5, None, 3, 2.5));
    let fac = w.add(r, team(Topic::Facility, &[HOFFMANN, 22, 23], 3, Some(2), 2, 0.0));
    w.boards[fac].kind = Kind::Facility;
    for (k, &u) in PERSONAL.iter().enumerate() {
        let rate = if phone(u) > 0.0 { 1.3 } else { 0.8 };
        let done = k.is_multiple_of(2).then_some(2);
        let members = vec![u];
        w.add(r, Spec { kind: Kind::Personal, topic: Topic::Own, members, lists: 3, done, end: 2, rate, from: old });
    }
    let onboarding = Spec {
        kind: Kind::Template,
        topic: Topic::Onboarding,
        members: vec![SCHULZ],
        lists: 4,
        done: Some(3),
        end: 3,
        rate: 0.0,
        from: old,
    };
    w.add(r, onboarding);
    let checklist =
        Spec { members: vec![RICHTER], topic: Topic::Events, ..team(Topic::Events, &[], 4, Some(3), 3, 0.0) };
    w.add(r, Spec { kind: Kind::Template, ..checklist });
    // Boards made in the window, in order: the Trello import, clones, the Deck JSON import.
    let made = |kind: Kind, topic: Topic, members: Vec<usize>, lists: usize, end: usize, from: i64| Spec {
        kind,
        topic,
        members,
        lists,
        done: None,
        end,
        rate: if kind == Kind::Cloned { 0.3 } else { 0.0 },
        from,
    };
    w.add(r, made(Kind::Trello, Topic::Roadmap, vec![WAGNER, KOCH, 11, 12, BECKER], 4, 3, TRELLO_AT));
    w.add(r, made(Kind::Cloned, Topic::Onboarding, vec![SCHULZ, HIRES[0].0, WAGNER], 4, 3, clone_at(0)));
    w.add(r, made(Kind::Cloned, Topic::Events, vec![RICHTER, 6, 13, 14], 4, 3, EVENT_AT));
    w.add(r, made(Kind::Import, Topic::Grants, vec![NEUMANN, 9, SCHULZ], 5, 3, IMPORT_AT));
    w.add(r, made(Kind::Cloned, Topic::Onboarding, vec![SCHULZ, HIRES[1].0, WAGNER], 4, 3, clone_at(1)));
    w.add(r, made(Kind::Cloned, Topic::Onboarding, vec![SCHULZ, HIRES[2].0, WAGNER], 4, 3, clone_at(2)));
    w
}

const TRELLO_AT: i64 = START + 12 * DAY + 10 * HOUR + 14 * MINUTE;
const EVENT_AT: i64 = START + 27 * DAY + 11 * HOUR + 40 * MINUTE;
const IMPORT_AT: i64 = START + 33 * DAY + 12 * HOUR + 2 * MINUTE;

/// When HR clones the onboarding template for a new hire (a Monday morning).
fn clone_at(k: usize) -> i64 {
    START + HIRES[k].1 * DAY + 7 * HOUR + 12 * MINUTE + k as i64 * 17 * MINUTE
}

/// The cards already on the boards when the window opens: they take part in renumbering and in Android's highest
/// `order`, but are not written here.
fn before(r: &mut Rng, w: &World, v: &mut Vec<Card>) {
    let mut id = ID0 - 9_000;
    for (si, s) in w.stacks.iter().enumerate() {
        let b = &w.boards[s.board];
        let n = match b.kind {
            Kind::Team | Kind::Support | Kind::Facility => r.range(2, 18),
            Kind::Personal => r.range(0, 7),
            _ => 0,
        };
        let dragged = r.range(0, n);
        for k in 0..n {
            id += r.range(1, 40);
            let order = if k < dragged { k } else { 999 };
            let mut x = card(Chan::Before, START - DAY, si, b.members[0], String::new());
            x.id = id;
            x.alive = true;
            x.st = State { stack: si, order, created: START - DAY, ..State::default() };
            push(v, x);
        }
    }
}

/// A card made in the browser or the app by someone on the board.
fn interactive(r: &mut Rng, w: &World, v: &mut Vec<Card>, late: &mut usize, bi: usize, by: usize, t: i64) {
    let b = &w.boards[bi];
    let entry = match b.topic {
        Topic::Marketing | Topic::Web if r.chance(0.55) => b.stacks[1],
        _ => b.stacks[0],
    };
    let forced = *late < LATE.len() && t > LATE[*late] && phone(by) > 0.0;
    *late += usize::from(forced);
    if forced || r.chance(phone(by)) {
        let mut x = card(Chan::Android, t, entry, by, title(r, b.topic));
        if r.chance(0.25) {
            let note = r.pick(NOTES).to_string();
            x.desc = fill(r, &note);
        }
        if r.chance(0.2) {
            let local = day(t + CEST) + r.range(0, 14) * DAY + r.one(&[7, 9, 10, 12, 14, 16, 18]) * HOUR;
            x.due = Some(local - CEST);
        }
        let y = if forced { 20 } else { r.below(1_000) };
        let tries = match y {
            0..=17 => {
                let kept = r.below(2) as usize;
                Tries { delays: vec![r.range(150_000, 2_500_000)], kept, hidden: false, drop: 0.4 }
            }
            18..=35 => {
                let d = client_retry_delay(r);
                let delays = if r.chance(0.3) { vec![d, d + client_retry_delay(r)] } else { vec![d] };
                Tries::lost(delays, 0.4)
            }
            36..=43 => Tries::lost(vec![r.range(180, 900) * SECOND + micros(r)], 0.4),
            _ => Tries::once(),
        };
        send(r, w, v, x, tries);
        return;
    }
    if matches!(b.kind, Kind::Team | Kind::Cloned) && r.chance(0.03) && copy(r, w, v, bi, by, t) {
        return;
    }
    let y = r.below(1_000);
    if y < 6 {
        // A placeholder typed two or three times in a row.
        let name = r.pick(PLACEHOLDERS).to_string();
        let mut at = t;
        for _ in 0..r.range(2, 3) {
            let mut x = card(Chan::Web, at, entry, by, name.clone());
            life(r, &mut x, w, true);
            push(v, x);
            at += r.range(4, 40) * SECOND + micros(r);
        }
    } else if y < 9 {
        // Added again a little later, on purpose.
        let name = title(r, b.topic);
        for at in [t, t + r.range(120, 1_800) * SECOND + micros(r)] {
            let mut x = card(Chan::Web, at, entry, by, name.clone());
            life(r, &mut x, w, true);
            push(v, x);
        }
    } else if y < 40 && b.kind == Kind::Team {
        // The smart picker's "Create card" dialog (in Talk or Text): a description, maybe a due date at local
        // midnight; its labels and assignees are dropped by the OCS controller.
        let mut x = card(Chan::Picker, t, b.stacks[0], by, title(r, b.topic));
        x.desc = notes(r);
        if r.chance(0.4) {
            x.due = Some(day(t + CEST) + r.range(1, 20) * DAY - CEST);
        }
        send(r, w, v, x, Tries::once());
    } else {
        let x = card(Chan::Web, t, entry, by, title(r, b.topic));
        let tries = if y >= 997 {
            // The proxy's 60 s timeout; Enter again on the title still in the field.
            Tries::lost(vec![r.range(61, 80) * SECOND + micros(r)], 0.5)
        } else {
            Tries::once()
        };
        send(r, w, v, x, tries);
    }
}

/// "Move/copy card": a recent card of the board copied into its own list, another list, or another board.
fn copy(r: &mut Rng, w: &World, v: &mut Vec<Card>, bi: usize, by: usize, t: i64) -> bool {
    let b = &w.boards[bi];
    let fit = |x: &Card| {
        w.stacks[x.stack].board == bi
            && !x.retry
            && x.chan != Chan::Before
            && (t - 25 * DAY..t - 20 * MINUTE).contains(&x.at)
            && !x.evs.iter().any(|e| e.t < t + MINUTE && matches!(e.act, Act::Delete | Act::Archive))
    };
    let found: Vec<usize> = v.iter().rev().take(600).filter(|x| fit(x)).map(|x| x.uid).take(30).collect();
    if found.is_empty() {
        return false;
    }
    let o = r.one(&found);
    let target = match r.below(20) {
        0..=12 => Target::Same,
        13..=17 => Target::Stack(b.stacks[r.below(b.stacks.len() as u64) as usize]),
        _ => Target::Stack(w.boards[r.one(&[MKT, EVT, OFC])].stacks[0]),
    };
    let stack = match target {
        Target::Same => v[o].stack,
        Target::Stack(s) => s,
    };
    let mut x = card(Chan::Copy, t, stack, by, v[o].title.clone());
    x.copy = Some((o, target));
    if r.chance(0.45) {
        let at = t + r.range(8, 300) * SECOND + micros(r);
        let renamed = format!("{} {}", v[o].title, r.pick(SUFFIXES));
        add(&mut x, at, by, Act::Rename(renamed));
    }
    life(r, &mut x, w, false);
    push(v, x);
    true
}

/// A mail in the IT inbox: arrival, subject, body, sender, and the mail it resends.
struct Mail {
    at: i64,
    subject: String,
    body: String,
    sender: Option<usize>,
    resends: Option<usize>,
    fails: bool,
    alert: bool,
}

fn mails_of_day(r: &mut Rng, mails: &mut Vec<Mail>, d0: i64, slow: f64, weekend: bool) {
    for _ in 0..count(r, if weekend { 0.3 } else { 3.2 * slow }) {
        let at = when(r, d0, &OFFICE);
        let u = r.below(34) as usize;
        let (subject, what) = r.one(MAILS);
        // Some write the board into the subject: mail2deck cuts the token out and leaves the space before it.
        let subject = if r.chance(0.15) { format!("{subject} ") } else { subject.to_string() };
        let (since, more, bye) = (r.one(SINCE), r.one(MORE), r.one(BYE));
        let body = format!("Hi,\r\n\r\n{what} {since}\r\n{more}\r\n\r\n{bye}\r\n{}\r\n", FIRST[u % FIRST.len()]);
        let fails = r.chance(0.025);
        mails.push(Mail { at, subject, body, sender: Some(u), resends: None, fails, alert: false });
    }
    if r.chance(0.2) {
        // A Zabbix problem, mailed again by each escalation step until someone acknowledges it.
        let at = when(r, d0, &EVENING);
        let (name, data, severity) = r.one(TRIGGERS);
        let host = r.one(HOSTS);
        let (y, m, d, h, mi, s) = civil(at + CEST);
        let id = 4_180_000 + (at / SECOND) % 100_000;
        let body = format!(
            "Problem started at {h:02}:{mi:02}:{s:02} on {y}.{m:02}.{d:02}\r\nProblem name: {name}\r\nHost: {host}\r\n\
             Severity: {severity}\r\nOperational data: {data}\r\nOriginal problem ID: {id}\r\n"
        );
        let subject = format!("Problem: {name}");
        let both = r.chance(0.2);
        for k in 0..r.range(1, 3) {
            let t = at + k * 30 * MINUTE + r.range(1, 20) * SECOND;
            for _ in 0..1 + usize::from(both) {
                let (subject, body) = (subject.clone(), body.clone());
                mails.push(Mail { at: t, subject, body, sender: None, resends: None, fails: false, alert: true });
            }
        }
    }
}

/// mail2deck's runs (every 5 minutes, at most 5 mails each, one after the other): a card per mail; a failed answer
/// makes the sender resend the mail.
fn mail_cards(r: &mut Rng, w: &World, v: &mut Vec<Card>, mut mails: Vec<Mail>) {
    let mut again: Vec<Mail> = Vec::new();
    for (k, m) in mails.iter().enumerate().filter(|(_, m)| m.fails) {
        // After the run that failed (within 5 minutes) and the failure notice.
        let at = m.at + 5 * MINUTE + r.range(2 * 60, 12 * 60) * SECOND + micros(r);
        let (subject, body, sender) = (m.subject.clone(), m.body.clone(), m.sender);
        again.push(Mail { at, subject, body, sender, resends: Some(k), fails: false, alert: false });
    }
    mails.extend(again);
    let mut order: Vec<usize> = (0..mails.len()).collect();
    order.sort_by_key(|&k| mails[k].at);
    let mut runs: HashMap<i64, i64> = HashMap::new();
    let mut uid_of: HashMap<usize, usize> = HashMap::new();
    let inbox = w.boards[IT].stacks[0];
    for k in order {
        let m = &mails[k];
        let mut run = m.at - m.at.rem_euclid(5 * MINUTE) + 5 * MINUTE;
        while runs.get(&run).copied().unwrap_or(0) >= 5 {
            run += 5 * MINUTE;
        }
        let slot = runs.entry(run).or_insert(0);
        let at = run + 3 * SECOND + *slot * 1_700_000 + r.range(0, 900_000);
        *slot += 1;
        if at >= NOW - SECOND {
            continue;
        }
        let mut x = card(Chan::Mail, at, inbox, BOT, m.subject.clone());
        x.desc = m.body.clone();
        let b = &w.boards[IT];
        if m.fails {
            orphan(r, &mut x, w, 0.4);
        } else if m.alert {
            let y = r.below(10);
            let t = at + r.range(600, 6 * 3_600) * SECOND + micros(r);
            let who = mate(r, b);
            if y < 6 {
                add(&mut x, t, who, Act::Done);
            } else if y < 8 {
                add(&mut x, t, who, Act::Delete);
            }
        } else {
            if m.sender.is_some_and(|u| b.members.contains(&u)) {
                // ASSIGN_SENDER: the card assigned to the sender, a board member.
                add(&mut x, at + r.range(400_000, 1_500_000), BOT, Act::Touch);
            }
            life(r, &mut x, w, false);
        }
        let uid = v.len();
        x.uid = uid;
        x.grp = uid;
        if let Some(o) = m.resends
            && let Some(&g) = uid_of.get(&o)
        {
            x.grp = g;
            x.retry = true;
        }
        uid_of.insert(k, uid);
        v.push(x);
    }
}

/// A facility request from the web form: the n8n workflow posts it to the REST API (Retry On Fail, up to 3 tries).
fn form(r: &mut Rng, w: &World, v: &mut Vec<Card>, t: i64) {
    let (room, issue) = (r.one(ROOMS), r.one(ISSUES));
    let who = r.one(FIRST);
    let mut x =
        card(Chan::Form, t + r.range(800_000, 3_000_000), w.boards[FAC].stacks[0], N8N, format!("{room}: {issue}"));
    let urgent = r.chance(0.3);
    x.desc = format!(
        "Reported by: {who}\nRoom: {room}\nUrgent: {}\n\n{}",
        if urgent { "yes" } else { "no" },
        fill(r, "Please have a look, {f} noticed it too.")
    );
    if urgent {
        x.due = Some(day(t) + r.range(1, 3) * DAY);
    }
    let tries = if r.chance(0.03) {
        // The HTTP Request node gives up after its 10 s timeout (or gets the proxy's 504 after 60 s) and tries again
        // after a second; sometimes that one times out too.
        let timeout = if r.chance(0.6) { 10 * SECOND } else { 60 * SECOND };
        let d = timeout + SECOND + r.range(20_000, 400_000);
        let delays = if r.chance(0.3) { vec![d, 2 * d + r.range(20_000, 400_000)] } else { vec![d] };
        Tries::lost(delays, 0.4)
    } else {
        Tries::once()
    };
    send(r, w, v, x, tries);
}

/// Cards posted after the phone was offline; two syncs racing post the whole batch again.
fn offline(r: &mut Rng, w: &World, v: &mut Vec<Card>, u: usize, t: i64) {
    let bi = w.boards.iter().position(|b| b.kind == Kind::Personal && b.members[0] == u).unwrap_or(0);
    let b = &w.boards[bi];
    let twice = r.chance(0.6);
    let gap = r.range(400_000, 1_500_000);
    let mut at = t;
    for _ in 0..r.range(2, 4) {
        let x = card(Chan::Android, at, b.stacks[0], u, title(r, b.topic));
        let tries = if twice {
            Tries { delays: vec![gap + r.range(0, 300_000)], kept: r.below(2) as usize, hidden: false, drop: 0.5 }
        } else {
            Tries::once()
        };
        send(r, w, v, x, tries);
        at += r.range(250_000, 900_000);
    }
}

/// The board clone's cards: per list, in `order`, with their owner, order and description; no due dates.
fn clone_board(r: &mut Rng, w: &World, v: &mut Vec<Card>, bi: usize, at: i64, onboarding: bool) {
    let b = &w.boards[bi];
    let (cards, owner): (&[Line], usize) = if onboarding { (&ONBOARDING, SCHULZ) } else { (&CHECKLIST, RICHTER) };
    let mut t = at + r.range(250_000, 600_000);
    for &(list, name, desc, order) in cards {
        let mut x = card(Chan::Clone, t, b.stacks[list], owner, name.to_string());
        x.by = b.members[0];
        (x.desc, x.order) = (desc.to_string(), order);
        life(r, &mut x, w, false);
        push(v, x);
        t += r.range(12_000, 45_000);
    }
}

/// `occ deck:import` of a Trello board export: `pos` as `order`, `closed` as archived, checklists and attachments
/// appended to the description, times from the export.
fn trello(r: &mut Rng, w: &World, v: &mut Vec<Card>, bi: usize) {
    let b = &w.boards[bi];
    let mut t = TRELLO_AT + r.range(1, 3) * SECOND;
    let sizes = [38, 24, 9, 68];
    for (list, &n) in sizes.iter().enumerate() {
        let mut pos = 16_384.0_f64;
        for k in 0..n {
            let name = format!("{}{}", r.pick(FEATURES), r.pick(FEATURE_TAILS));
            let made = TRELLO_AT - r.range(10, 680) * DAY + r.range(28_800, 64_800) * SECOND;
            let active = if list == 3 { made + r.range(1, 60) * DAY } else { made + r.range(0, 200) * DAY };
            let active = active.min(TRELLO_AT - HOUR) + r.range(0, 999) * 1_000;
            // The export's last 1000 actions reach back about five months.
            let created = if made > TRELLO_AT - 150 * DAY { made } else { active };
            let mut desc = if r.chance(0.5) { String::new() } else { notes(r) };
            if r.chance(0.2) {
                let mut check = String::from("\n\n## Checklist\n");
                for _ in 0..r.range(2, 5) {
                    let item = r.pick(ITEMS).to_string();
                    let state = if r.chance(0.5) { "- [x]" } else { "- [ ]" };
                    check += &format!("\n{state} {}\n", fill(r, &item));
                }
                desc += &format!("\n{check}");
            }
            if r.chance(0.1) {
                let (y, m, d, h, mi, s) = civil(made + 3 * HOUR);
                let (card_id, att) = (r.hex(24), r.hex(24));
                let url = format!("https://trello.com/1/cards/{card_id}/attachments/{att}/download/mockup.png");
                desc += &format!(
                    "\n\n## Attachments\n| File | date |\n|---|---\n| [mockup.png]({url}) | \
                     {y}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{:03}Z |\n",
                    r.below(1_000)
                );
            }
            let mut x = card(Chan::Trello, t, b.stacks[list], WAGNER, name);
            x.desc = desc;
            x.order = pos as i64;
            x.src = Some((secs(created), secs(active)));
            x.archived0 = list == 3 && r.chance(0.7);
            if r.chance(0.15) {
                x.due = Some(day(made) + r.range(5, 60) * DAY + r.range(8, 17) * HOUR);
            }
            if !x.archived0 {
                life(r, &mut x, w, false);
            }
            push(v, x);
            t += r.range(25_000, 70_000);
            pos = if k % 5 == 3 { pos + 8_192.5 } else { pos + 16_384.0 };
        }
    }
}

/// The web importer's Deck JSON board from the old instance: the export's orders, times, archived and done flags,
/// every card owned by the user the board's owner maps to.
fn deck_json(r: &mut Rng, w: &World, v: &mut Vec<Card>, bi: usize) {
    let b = &w.boards[bi];
    let mut t = IMPORT_AT + r.range(300_000, 900_000);
    let mut orders = [0_i64; 5];
    let mut base = IMPORT_AT - 610 * DAY;
    for k in 0..16 {
        base += r.range(15, 35) * DAY;
        let fund = FOUNDATIONS[k % FOUNDATIONS.len()];
        let list = match k {
            0..=10 => r.one(&[3, 3, 3, 4, 4, 2]),
            11..=13 => r.one(&[1, 2]),
            _ => 0,
        };
        let mut names: Vec<(String, String, bool)> = vec![
            (format!("Application: {fund}"), notes(r), true),
            (format!("Budget plan {fund}"), String::new(), false),
        ];
        if list == 3 {
            names.push((format!("Interim report {fund}"), String::new(), true));
            names.push((
                "Submit receipts".to_string(),
                "Originals to accounting, copies in the folder.".to_string(),
                false,
            ));
        }
        for (name, desc, deadline) in names {
            let made = base + r.range(0, 20) * DAY + r.range(28_800, 61_200) * SECOND;
            let changed = made + r.range(1, 90) * DAY + r.range(0, 3_600) * SECOND;
            let mut x = card(Chan::Json, t, b.stacks[list], NEUMANN, name.clone());
            x.desc = desc;
            x.order = if name == "Submit receipts" || r.chance(0.35) {
                999
            } else {
                orders[list] += 1;
                orders[list] - 1
            };
            x.src = Some((secs(made), secs(changed.min(IMPORT_AT - DAY))));
            if deadline {
                x.due = Some(day(made) + r.range(20, 70) * DAY + 21 * HOUR + 59 * MINUTE);
            }
            x.archived0 = k < 9 && r.chance(0.7);
            if !x.archived0 && list >= 2 && r.chance(0.4) {
                x.done0 = Some(secs(changed));
            }
            if !x.archived0 {
                life(r, &mut x, w, false);
            }
            push(v, x);
            t += r.range(8_000, 25_000);
        }
    }
}

/// A chore: weekday, whether it is due this week, board, list, who adds it, title.
type Job = (i64, bool, usize, usize, usize, &'static str);

/// The chores people add by hand every week or fortnight.
fn chores(r: &mut Rng, w: &World, v: &mut Vec<Card>, d0: i64) {
    let wd = weekday(d0);
    let week = (d0 - START).div_euclid(7 * DAY);
    let jobs: [Job; 3] = [
        (0, true, OFC, 0, HOFFMANN, "Order coffee beans"),
        (4, true, IT, 0, BECKER, "Weekly restore test"),
        (1, week % 2 == 1, MKT, 1, KOCH, "Newsletter: collect topics"),
    ];
    for (dow, on, bi, list, by, name) in jobs {
        if wd != dow || !on || r.chance(0.12) {
            continue;
        }
        let t = d0 + 6 * HOUR + r.range(600, 5_400) * SECOND + micros(r);
        if t >= NOW - MINUTE {
            continue;
        }
        let mut x = card(Chan::Web, t, w.boards[bi].stacks[list], by, name.to_string());
        let b = &w.boards[bi];
        let done = t + r.range(3_600, 3 * 86_400) * SECOND + micros(r);
        if bi == OFC {
            add(&mut x, t + r.range(1_800, 6 * 3_600) * SECOND, by, Act::Move(b.stacks[1], Place::Bottom));
        }
        add(&mut x, done, by, Act::Done);
        push(v, x);
    }
}

/// "Archive all cards" on the lists cards end up in, now and then.
fn sweeps(r: &mut Rng, w: &World) -> Vec<(i64, usize)> {
    let mut out = Vec::new();
    for b in &w.boards {
        let every = match b.kind {
            Kind::Team | Kind::Support | Kind::Facility => (10, 25),
            Kind::Personal if r.chance(0.35) => (20, 40),
            _ => continue,
        };
        let mut t = START + r.range(2, every.1) * DAY;
        while t < NOW {
            let d0 = day(t);
            if weekday(d0) < 5 {
                out.push((when(r, d0, &OFFICE), b.stacks[b.end]));
            }
            t += r.range(every.0, every.1) * DAY;
        }
    }
    out
}

#[derive(Clone, Copy)]
enum Op {
    Make(usize),
    Act(usize, usize),
    Sweep(usize),
}

/// What the cron jobs did by `t`: the description job cleared `last_editor` and `description_prev`, the notification
/// job flagged an overdue card.
fn settle(x: &mut Card, t: i64) {
    if let Some(d) = x.st.dirty
        && tick_after(d) <= t
    {
        (x.st.prev, x.st.editor, x.st.dirty) = (None, None, None);
    }
    if !x.st.notified
        && !x.st.archived
        && x.st.done.is_none()
        && x.st.deleted.is_none()
        && let Some(due) = x.st.due
        && tick_after(due.max(x.st.reset)) <= t
    {
        x.st.notified = true;
    }
}

/// `reorder`: the card dropped into `stack`, every active card there renumbered around it.
fn reorder(r: &mut Rng, v: &mut [Card], w: &World, k: usize, stack: usize, to: Place, t: i64) {
    let old = v[k].st.stack;
    v[k].st.stack = stack;
    if stack != old {
        if w.boards[w.stacks[stack].board].done == Some(stack) {
            v[k].st.done = Some(secs(t));
        } else if w.boards[w.stacks[old].board].done == Some(old) {
            v[k].st.done = None;
        }
    }
    let mut list: Vec<usize> = (0..v.len())
        .filter(|&j| v[j].alive && v[j].st.stack == stack && !v[j].st.archived && v[j].st.deleted.is_none())
        .collect();
    list.sort_by_key(|&j| (v[j].st.order, v[j].id));
    let others = list.len() as i64 - 1;
    let pos = match to {
        Place::Top => 0,
        Place::Bottom => others.max(0),
        Place::Any => r.range(0, others.max(0)),
    };
    let mut i = 0;
    for j in list {
        if j == k {
            v[j].st.order = pos;
        }
        if i == pos {
            i += 1;
        }
        if j != k {
            v[j].st.order = i;
            i += 1;
        }
        v[j].st.lm = secs(t);
    }
}

/// `CardService::update`: the description bookkeeping, `notified` reset, `last_editor` via `cardChanged`.
fn update(x: &mut Card, who: usize, t: i64) {
    if x.st.editor.is_some_and(|e| e != who) || x.st.prev.is_none() {
        x.st.prev = Some(x.st.desc.clone());
    }
    (x.st.notified, x.st.reset) = (false, t);
    (x.st.lm, x.st.editor, x.st.dirty) = (secs(t), Some(who), Some(t));
}

/// Android's `order` for a new card: its local copy of the list's highest, plus one.
fn highest(v: &[Card], stack: usize) -> i64 {
    v.iter()
        .filter(|x| x.alive && x.st.stack == stack && x.st.deleted.is_none())
        .map(|x| x.st.order)
        .max()
        .unwrap_or(-1)
}

fn make(v: &mut [Card], k: usize, slots: &mut HashMap<usize, i64>, pos: &[usize]) {
    let x = &v[k];
    let (mut stack, mut title, mut desc, mut order, mut owner) =
        (x.stack, x.title.clone(), x.desc.clone(), x.order, x.owner);
    let mut twin = false;
    if let Some((o, target)) = x.copy {
        let src = &v[pos[o]];
        if let Target::Same = target {
            stack = src.st.stack;
        }
        (title, desc, order, owner) = (src.st.title.clone(), src.st.desc.clone(), src.st.order, src.owner);
        twin = stack == src.st.stack && src.st.due.is_none() && src.st.color.is_none() && src.start.is_none();
    }
    if x.chan == Chan::Android {
        order = match slots.get(&x.grp) {
            Some(&o) => o,
            None => {
                let o = highest(v, stack) + 1;
                slots.insert(x.grp, o);
                o
            }
        };
    }
    let x = &mut v[k];
    let created = x.src.map_or(secs(x.at), |s| s.0);
    let lm = x.src.map_or(created, |s| s.1);
    (x.owner, x.twin, x.alive) = (owner, twin, true);
    x.made = Some(Made { stack, title: title.clone(), desc: desc.clone(), order, due: x.due });
    x.st = State {
        stack,
        order,
        title,
        desc,
        due: x.due,
        start: x.start,
        archived: x.archived0,
        done: x.done0,
        lm,
        created,
        reset: x.at,
        ..State::default()
    };
    if x.chan == Chan::Copy {
        // The labels copied and the description set by a second update.
        (x.st.lm, x.st.editor, x.st.dirty) = (secs(x.at + 40_000), Some(x.by), Some(x.at));
    }
}

/// Everything in time order: creates, people's changes, "Archive all cards".
fn replay(r: &mut Rng, v: &mut [Card], w: &World, sweeps: &[(i64, usize)]) {
    let mut pos = vec![usize::MAX; v.iter().map(|x| x.uid + 1).max().unwrap_or(0)];
    for (k, x) in v.iter().enumerate() {
        pos[x.uid] = k;
    }
    let mut ops: Vec<(i64, Op)> = Vec::new();
    for (k, x) in v.iter().enumerate() {
        if x.chan == Chan::Before {
            continue;
        }
        ops.push((x.at, Op::Make(k)));
        for (e, ev) in x.evs.iter().enumerate() {
            ops.push((ev.t.max(x.at + 1), Op::Act(k, e)));
        }
    }
    ops.extend(sweeps.iter().map(|&(t, s)| (t, Op::Sweep(s))));
    ops.retain(|o| o.0 < NOW);
    ops.sort_by_key(|o| o.0);
    let mut slots: HashMap<usize, i64> = HashMap::new();
    for (t, op) in ops {
        match op {
            Op::Make(k) => make(v, k, &mut slots, &pos),
            Op::Sweep(s) => {
                let mut list: Vec<usize> = (0..v.len())
                    .filter(|&j| v[j].alive && v[j].st.stack == s && !v[j].st.archived && v[j].st.deleted.is_none())
                    .collect();
                list.sort_by_key(|&j| (v[j].st.order, v[j].id));
                let mut at = t;
                for j in list {
                    at += r.range(15_000, 120_000);
                    settle(&mut v[j], at);
                    (v[j].st.archived, v[j].st.lm) = (true, secs(at));
                }
            }
            Op::Act(k, e) => {
                if !v[k].alive || v[k].st.deleted.is_some() {
                    continue;
                }
                settle(&mut v[k], t);
                let Ev { who, act, .. } = v[k].evs[e].clone();
                if v[k].st.archived && !matches!(act, Act::Touch | Act::Delete) {
                    continue;
                }
                apply(r, v, w, k, who, act, t);
            }
        }
    }
    for x in v.iter_mut() {
        settle(x, NOW);
    }
}

fn apply(r: &mut Rng, v: &mut [Card], w: &World, k: usize, who: usize, act: Act, t: i64) {
    if let Act::Move(s, to) = act {
        reorder(r, v, w, k, s, to, t);
        return;
    }
    let x = &mut v[k];
    match act {
        Act::Touch => (x.st.lm, x.st.editor, x.st.dirty) = (secs(t), Some(who), Some(t)),
        Act::Archive => (x.st.archived, x.st.lm) = (true, secs(t)),
        Act::Delete => (x.st.deleted, x.st.lm) = (Some(secs(t)), secs(t)),
        Act::Undone => (x.st.done, x.st.lm) = (None, secs(t)),
        Act::Done => {
            (x.st.done, x.st.lm) = (Some(secs(t)), secs(t));
            if let Some(dc) = w.boards[w.stacks[x.st.stack].board].done {
                x.st.stack = dc;
            }
        }
        Act::Move(..) => {}
        Act::Edit(text) => {
            update(x, who, t);
            x.st.desc = text;
        }
        Act::Due(d) => {
            update(x, who, t);
            x.st.due = d.map(secs);
        }
        Act::Start(d) => {
            update(x, who, t);
            x.st.start = Some(secs(d));
        }
        Act::Rename(name) => {
            update(x, who, t);
            x.st.title = name;
        }
        Act::Color(c) => {
            update(x, who, t);
            x.st.color = Some(c);
        }
        Act::DoneFlag => {
            update(x, who, t);
            x.st.done = Some(secs(t));
        }
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0xDEC_CA2D5);
    let w = world(&mut r);
    let mut v: Vec<Card> = Vec::new();
    before(&mut r, &w, &mut v);
    let mut mails: Vec<Mail> = Vec::new();
    let mut late = 0;
    // Offline batches (user, day) and the two Android re-posts after half an hour.
    let batches: [(usize, i64); 5] = [(24, 9), (12, 23), (27, 38), (6, 51), (19, 66)];
    let slow_posts: [(usize, i64); 2] = [(26, 29), (9, 61)];
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let weekend = weekday(d0) >= 5;
        let slow = if (16..35).contains(&d) { 0.55 } else { 1.0 };
        for (bi, b) in w.boards.iter().enumerate() {
            if !matches!(b.kind, Kind::Team | Kind::Personal | Kind::Support | Kind::Cloned) || b.from > d0 {
                continue;
            }
            let factor = match (weekend, b.kind) {
                (true, Kind::Personal) => 0.7,
                (true, _) => 0.04,
                _ => 1.0,
            };
            let rhythm = if b.kind == Kind::Personal { &EVENING } else { &OFFICE };
            for _ in 0..count(&mut r, b.rate * slow * factor) {
                let t = when(&mut r, d0, rhythm);
                if t < b.from + MINUTE || !(START..NOW - MINUTE).contains(&t) {
                    continue;
                }
                let by = mate(&mut r, b);
                interactive(&mut r, &w, &mut v, &mut late, bi, by, t);
            }
        }
        mails_of_day(&mut r, &mut mails, d0, slow, weekend);
        if !weekend {
            for _ in 0..count(&mut r, 1.1 * slow) {
                let t = when(&mut r, d0, &OFFICE);
                if t < NOW - MINUTE {
                    form(&mut r, &w, &mut v, t);
                }
            }
        }
        chores(&mut r, &w, &mut v, d0);
        for &(u, _) in batches.iter().filter(|b| b.1 == d) {
            let t = when(&mut r, d0, &EVENING);
            offline(&mut r, &w, &mut v, u, t);
        }
        for &(u, _) in slow_posts.iter().filter(|b| b.1 == d) {
            let bi = w.boards.iter().position(|b| b.kind == Kind::Personal && b.members[0] == u).unwrap_or(0);
            let t = when(&mut r, d0, &EVENING);
            let x = card(Chan::Android, t, w.boards[bi].stacks[0], u, title(&mut r, Topic::Own));
            let delay = r.range(20 * 60, 50 * 60) * SECOND + micros(&mut r);
            // Hidden: half an hour between two equal cards is as long as between a card typed twice on purpose, and the
            // app's local `order` is what a person's second card would get too if the first had not synced yet.
            let tries = Tries { delays: vec![delay], kept: 1, hidden: true, drop: 0.0 };
            send(&mut r, &w, &mut v, x, tries);
            // Both kept: the person took the second for a card of their own.
            if let Some(c) = v.last_mut() {
                c.evs.retain(|e| !matches!(e.act, Act::Delete));
            }
        }
    }
    mail_cards(&mut r, &w, &mut v, mails);
    for (bi, b) in w.boards.iter().enumerate() {
        match b.kind {
            Kind::Trello => trello(&mut r, &w, &mut v, bi),
            Kind::Import => deck_json(&mut r, &w, &mut v, bi),
            Kind::Cloned => clone_board(&mut r, &w, &mut v, bi, b.from, b.topic == Topic::Onboarding),
            _ => {}
        }
    }
    let sweeps = sweeps(&mut r, &w);
    for x in v.iter_mut() {
        let team = w.boards[w.stacks[x.stack].board].kind != Kind::Personal;
        let at = x.at;
        // Changes drawn over calendar time, laid into the hours people work.
        let share = if team { 30 } else { 67 };
        for e in x.evs.iter_mut().filter(|e| e.t > at + 20 * MINUTE) {
            e.t = later(at, (e.t - at) * share / 100, team).max(at + 20 * MINUTE);
        }
    }

    v.retain(|x| x.chan == Chan::Before || x.at < NOW - SECOND);
    v.sort_by_key(|x| (x.chan != Chan::Before, x.at));
    let mut id = ID0;
    for x in v.iter_mut().filter(|x| x.chan != Chan::Before) {
        id += 1 + i64::from(r.chance(0.003));
        x.id = id;
    }
    replay(&mut r, &mut v, &w, &sweeps);

    // The last `DeleteCron` run (01:00-01:30 UTC) purged what was deleted more than 5 minutes before it.
    let purge = day(NOW - DAY) + HOUR + r.range(60, 1_800) * SECOND - 5 * MINUTE;
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("oc_deck_cards", &columns);
    let mut present: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut written: HashSet<usize> = HashSet::new();
    for x in &v {
        if x.chan == Chan::Before || !x.alive || x.st.deleted.is_some_and(|d| d < purge) {
            continue;
        }
        let Some(m) = &x.made else { continue };
        let key = format!("{}|{}|{}|{}|{}|{:?}|{:?}", m.stack, m.title, m.desc, x.owner, m.order, m.due, x.start);
        let fresh = seen.insert(key);
        let first = present.insert(x.grp);
        let origin = x.copy.is_some_and(|(o, _)| written.contains(&o));
        written.insert(x.uid);
        let mark = if !first {
            Mark::Retry
        } else if !fresh || (x.twin && origin) {
            Mark::Legit
        } else {
            Mark::Plain
        };
        let st = &x.st;
        let at = |t: Option<i64>| t.map_or(V::Null, V::AtSecs);
        f.push(&[
            ("id", V::I(x.id)),
            ("title", V::t(&st.title)),
            ("description", V::t(&st.desc)),
            ("description_prev", V::opt_t(st.prev.as_deref())),
            ("stack_id", V::I(w.stacks[st.stack].id)),
            ("type", V::t("plain")),
            ("last_modified", V::I(st.lm / SECOND)),
            ("last_editor", V::opt_t(st.editor.map(|u| USERS[u]))),
            ("created_at", V::I(st.created / SECOND)),
            ("owner", V::t(USERS[x.owner])),
            ("order", V::I(st.order)),
            ("archived", V::B(st.archived)),
            ("duedate", at(st.due)),
            ("notified", V::B(st.notified)),
            ("deleted_at", V::I(st.deleted.map_or(0, |d| d / SECOND))),
            ("done", at(st.done)),
            ("startdate", at(st.start)),
            ("color", V::opt_t(st.color)),
        ]);
        f.mark(x.id, mark);
        if mark == Mark::Retry && x.hidden {
            f.hidden.insert(x.id.to_string());
        }
    }
    f
}
