//! BookStack (PHP, Laravel 10 Eloquent; MySQL/MariaDB only): `pages`, as the editor (`PageController@create`: a GET
//! that inserts a "New Page" draft through `PageRepo::getNewDraftPage`, autosaved into as people type, then
//! `PageController@store` → `PageRepo::publishDraft` on the same row), the REST API (`PageApiController@create`: draft
//! and publish in one request; n8n workflows, a CI job, a PowerShell script, a docs-sync action, a Confluence and an
//! Obsidian importer), "Copy" (`Cloner::clonePage`) and the books' default templates write it, and as edits, moves,
//! book sorts, the recycle bin and an ownership migration change it later: one company's wiki (40 people, 14 books),
//! eight weeks; 1,898 rows, 31 of them a retry's (3 hidden), 20 legitimate repeats.
//! Read: BookStackApp/BookStack (6f1c54d, v24.10-dev, laravel/framework ^10.10) database/migrations/ 2015_07_12_190027
//! (create), 2015_08_08_200447, 2015_11_26_221857 (the indexes), 2016_02_28_084200 and 2022_10_08_104202
//! (`restricted` added, then dropped), 2016_03_13_082138 (`draft`), 2016_03_25_123157 (`markdown`), 2017_04_20_185112
//! (`revision_count`), 2019_07_07_112515 (`template`), 2020_09_27_210059 (`deleted_at`), 2020_12_30_173528
//! (`owned_by`), 2022_04_17_101741 (`editor`), 2023_02_23_200227 (`pages_updated_at_index`), 2024_09_29_140340;
//! app/App/Providers/AppServiceProvider.php (`defaultStringLength(191)`), app/Config/database.php
//! (utf8mb4_unicode_ci, `strict` false: the columns an insert leaves out take their implicit defaults),
//! app/Config/app.php (UTC, a recycle bin of 30 days), app/Config/queue.php (`sync`: webhooks and the watchers' mails
//! run inside the request); app/Entities/Repos/PageRepo.php (`getNewDraftPage`, `publishDraft`, `update`,
//! `updatePageDraft`, `move`, `getNewPriority`, `updateTemplateStatusAndContentFromInput`), BaseRepo.php (`update`:
//! the slug refreshed when the name changes or is empty; tags `touch`), app/Entities/Models/Page.php, Entity.php,
//! BookChild.php (`changeBook`), Chapter.php (`pages`), app/Entities/Tools/SlugGenerator.php (`Str::slug`, then
//! `-` + `Str::random(3)` while a live page of the book has it), PageContent.php (`setNewHTML`, `setNewMarkdown`,
//! `formatHtml`: `bkmrk-` ids on the top-level blocks; `toPlainText`; base64 images saved as
//! `embedded-image-{random 8}` gallery images), BookContents.php (`getLastPriority`: at least 1, drafts left out;
//! `sortUsingMap`, `applySortUpdates`), Cloner.php (`entityToInputData`: every attribute, so a copy takes its
//! original's priority), PageEditorType.php, TrashCan.php (`softDestroyPage`, `autoClearOld` on every delete);
//! app/Entities/Controllers/PageController.php (`create`, `store`, `saveDraft`, `showCopy` prefilling the name,
//! `copy`), PageApiController.php, BookSortController.php; app/Users/UserRepo.php (`migrateOwnership`: an Eloquent
//! update, so `updated_at` too); app/Activity/Tools/ActivityLogger.php, DispatchWebhookJob.php;
//! resources/views/pages/copy.blade.php (no double-submit guard), resources/js/components/book-sort.js
//! (`buildEntityMap`: positions 0..n per list); lang/en/entities.php ("New Page"). Issues BookStackApp/BookStack
//! #4261 and #5691 (every "New Page" click leaves a draft until someone deletes it), #5706 (the back button leaves an
//! empty one). BookStackApp/api-scripts and the tools it lists (bsimport: Markdown, by the user's own token; "Sync
//! Markdown to BookStack": update the page of that name, else create it); n8n's "Retry On Fail" (3 tries, 1 s apart).
//! On a create: `id` from AUTO_INCREMENT at the draft's insert; the draft "New Page", `slug` '', `html` and
//! `markdown` the book's default template (else ''), `text` '', `priority` 0, `revision_count` 0, `draft` 1, `editor`
//! the system default ('wysiwyg'), `chapter_id` 0 in a book's root, `created_by` = `updated_by` = `owned_by` the
//! user, whole-second UTC `created_at` = `updated_at`. Publishing (minutes or days later in the editor, in the same
//! request for the API and a copy) writes the name and its `Str::slug` (a random suffix when a live page of the book
//! has it), the content (`text` from the HTML), `priority` the chapter's last page (drafts counted) + 1, or in a
//! book's root the largest of 1, the chapters and the root pages, + 1 (a copy: its original's), `revision_count` 1,
//! `draft` 0, `editor` 'markdown' for Markdown only where the user may change editors, `template` from the editor's
//! checkbox, and `updated_at`.
//! Later: edits (`revision_count` + 1, the content, sometimes the name and so the slug; a WYSIWYG edit of a Markdown
//! page empties `markdown`; `updated_by`); the docs sync updating its pages; moves (chapter, book, a slug minted
//! again, the priority kept); book sorts (every list renumbered from 0, `updated_at` where it changed); deletes
//! (`deleted_at` = `updated_at`; the row purged by the first delete 30 days on); a leaver's pages handed to their lead
//! (`owned_by`, `updated_at`); drafts left, autosaved, resumed days later, or deleted.
//! Retries (about 1.6% of creates): every create through the API or "Copy" while the mail relay hung (three spells:
//! the watchers' mails held each request past nginx's 60 s, a 504 after the rows were saved): n8n tried three times,
//! the CI's `curl --retry 2` three times, people sent a copy again once or twice; outside them a slow answer now and
//! then (n8n, the PowerShell script's own loop of three, a double-clicked "Copy Page"); Confluence pages whose images
//! kept the import script past its 20 s timeout (the retry's images saved anew under other names; both read the
//! chapter's last priority before either was saved: the same priority); two in the last day. Each attempt is a draft
//! and a publish of its own: a new id, slug suffix, priority and times. People deleted the extras the next morning,
//! or the original instead, or edited whichever one they opened, or left them. Double-clicks on "New Page" (two
//! drafts; the editor opens the second): the first stays a "New Page" draft that no one can tell from one the back
//! button left (hidden).
//! Legitimate repeats: "New Page" drafts left untouched, again and again in the same place by the same person; copies
//! that keep the prefilled name (some made twice a minute apart as variants, most renamed or edited later); a page
//! someone deleted and the docs sync made again on its next run (the same slug: the deleted one no longer counts).
//! Plain near-repeats: meeting notes from one template under dated names, the bots' dated pages, copies by others,
//! pages of one name in other chapters or books, generic names ("Overview", "FAQ") that collide with older slugs.
//! Guessed: the company, its people, books and chapters, the pages from before the window (counts, priorities,
//! slugs), rates and rhythms; the n8n, CI, PowerShell and import scripts and their timeouts; the mail relay's spells;
//! who deletes, edits, moves and sorts what; image URLs; MariaDB (`DEFAULT ''` on a LONGTEXT, which MySQL 5.7 drops).
use std::collections::{HashMap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, client_retry_delay, day, sentence, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql];

/// The table as a fresh install's migrations leave it on MariaDB (strings 191 long; `restricted` and its index gone).
const MYSQL: &str = "CREATE TABLE `pages` (
  `id` int unsigned NOT NULL AUTO_INCREMENT, `book_id` int NOT NULL, `chapter_id` int NOT NULL,
  `name` varchar(191) NOT NULL, `slug` varchar(191) NOT NULL, `html` longtext NOT NULL, `text` longtext NOT NULL,
  `priority` int NOT NULL, `created_at` timestamp NULL DEFAULT NULL, `updated_at` timestamp NULL DEFAULT NULL,
  `created_by` int NOT NULL, `updated_by` int NOT NULL, `draft` tinyint(1) NOT NULL DEFAULT '0',
  `markdown` longtext NOT NULL DEFAULT '', `revision_count` int NOT NULL, `template` tinyint(1) NOT NULL DEFAULT '0',
  `deleted_at` timestamp NULL DEFAULT NULL, `owned_by` int unsigned NOT NULL, `editor` varchar(50) NOT NULL DEFAULT '',
  PRIMARY KEY (`id`),
  KEY `pages_slug_index` (`slug`),
  KEY `pages_book_id_index` (`book_id`),
  KEY `pages_chapter_id_index` (`chapter_id`),
  KEY `pages_priority_index` (`priority`),
  KEY `pages_created_by_index` (`created_by`),
  KEY `pages_updated_by_index` (`updated_by`),
  KEY `pages_draft_index` (`draft`),
  KEY `pages_template_index` (`template`),
  KEY `pages_owned_by_index` (`owned_by`),
  KEY `pages_updated_at_index` (`updated_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci";

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL.to_string(),
        Engine::Postgres | Engine::Sqlite => unreachable!("BookStack runs on MySQL/MariaDB only"),
    }
}

const COLUMNS: &str = "id book_id chapter_id name slug html text priority created_at updated_at created_by updated_by \
    draft markdown revision_count template deleted_at owned_by editor";

const NOW: i64 = T0;
/// A Thursday.
const START: i64 = T0 - 56 * DAY;
const ID0: i64 = 2_871;
/// "New Page" clicks per hour of the day (UTC), relative: a company in Berlin and Lisbon.
const RHYTHM: [i64; 24] = [1, 1, 1, 1, 1, 3, 6, 9, 10, 10, 9, 9, 10, 10, 9, 7, 5, 3, 2, 2, 1, 1, 1, 1];
/// The first "New Page" click after each of these is a double-click; the first "Copy Page" after each of these is
/// sent twice (the last: late in the table).
const DOUBLE_CLICKS: [i64; 3] = [START + 30 * DAY, START + 44 * DAY, START + 52 * DAY];
const DOUBLE_COPIES: [i64; 3] = [START + 15 * DAY, START + 38 * DAY, NOW - 14 * HOUR];
/// When the mail relay hung: every page create then answered after nginx's 60 s with a 504, the page saved.
const OUTAGES: [(i64, i64); 3] = [
    (START + 34 * DAY + 7 * HOUR + 10 * MINUTE, START + 34 * DAY + 11 * HOUR + 30 * MINUTE),
    (START + 47 * DAY + 12 * HOUR + 50 * MINUTE, START + 47 * DAY + 14 * HOUR + 20 * MINUTE),
    (START + 25 * DAY + 7 * HOUR + 5 * MINUTE, START + 25 * DAY + 8 * HOUR + 40 * MINUTE),
];
/// Users: 1 the admin, 2 BookStack's guest, 3-42 people, then the n8n and docs-sync tokens (admin role) and the CI's
/// (an editor role with API access: no `editor-change`).
const N8N: i64 = 43;
const SYNC: i64 = 44;
const CI: i64 = 45;
/// Left on day 44; their pages went to their lead.
const LEAVER: i64 = 17;
const HEIR: i64 = 11;
const LEAVE_AT: i64 = START + 44 * DAY + 10 * HOUR + 30 * MINUTE;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    It,
    Eng,
    Product,
    Hr,
    Support,
    Meetings,
    Security,
    Postmortems,
    Templates,
    Sales,
    Finance,
    Synced,
    Legacy,
    Vault,
}

const IT: usize = 0;
const ENG: usize = 1;
const PRODUCT: usize = 2;
const HR: usize = 3;
const SUPPORT: usize = 4;
const MEETINGS: usize = 5;
const SECURITY: usize = 6;
const POSTMORTEMS: usize = 7;
const TEMPLATES: usize = 8;
const SALES: usize = 9;
const FINANCE: usize = 10;
const SYNCED: usize = 11;
const LEGACY: usize = 12;
const VAULT: usize = 13;

/// The books: kind, id, chapters. The last three are made in the window (by the docs sync, the Confluence import and
/// bsimport).
#[rustfmt::skip]
const BOOKS: [(Kind, i64, &[&str]); 14] = [
    (Kind::It, 2, &["Servers", "Network", "Backups", "Monitoring", "Runbooks", "Endpoints"]),
    (Kind::Eng, 3, &["Onboarding", "Architecture", "Services", "Deployments", "Releases", "Standards"]),
    (Kind::Product, 5, &["Features", "API", "Integrations", "FAQ"]),
    (Kind::Hr, 6, &["Policies", "Onboarding", "Benefits", "Travel"]),
    (Kind::Support, 7, &["Troubleshooting", "Macros", "Known issues", "Escalations"]),
    (Kind::Meetings, 9, &["Engineering sync", "Product sync", "Support weekly", "Leadership", "Sales pipeline",
        "Standups"]),
    (Kind::Security, 10, &["Policies", "Incidents", "Access reviews"]),
    (Kind::Postmortems, 11, &["2026"]),
    (Kind::Templates, 12, &[]),
    (Kind::Sales, 14, &["Battlecards", "Demos", "Pricing"]),
    (Kind::Finance, 15, &["Procedures", "Month-end"]),
    (Kind::Synced, 16, &["api", "cli", "sdk"]),
    (Kind::Legacy, 17, &["Infrastructure", "Processes", "Projects", "Team pages", "Archive", "How-tos"]),
    (Kind::Vault, 18, &["Inbox", "Projects", "Reference", "Journal"]),
];

#[derive(Clone, PartialEq, Eq)]
enum Block {
    H(String),
    P(String),
    Ul(Vec<String>),
    Code(String),
    Img(String, String),
}

struct Book {
    kind: Kind,
    id: i64,
    chapters: Vec<usize>,
    /// The chapters and root pages from before (the window's own chapters for a new book), and their largest priority.
    root_pre: i64,
    root_floor: i64,
    slugs: HashSet<String>,
    /// The default template's HTML, put into every new draft of the book.
    template: Option<String>,
}

struct Chapter {
    id: i64,
    pre: i64,
    floor: Option<i64>,
}

struct World {
    books: Vec<Book>,
    chapters: Vec<Chapter>,
    members: Vec<Vec<i64>>,
}

#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Via {
    #[default]
    Editor,
    Api,
    Copy,
    Import,
}

/// An API client and how it retries a create that got no answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Client {
    /// n8n's HTTP Request node, "Retry On Fail": 3 tries, 1 s between.
    N8n,
    /// `curl --fail --retry 2` in the CI job: 1 s, then 2 s.
    Curl,
    /// The access-review script: `Invoke-RestMethod -TimeoutSec 30` in a loop of three, 5 s apart.
    Pwsh,
}

/// A page from before the window, copied.
#[derive(Clone)]
struct Old {
    name: String,
    blocks: Vec<Block>,
    md: bool,
    priority: i64,
}

#[derive(Clone)]
enum From {
    Row(usize),
    Old(Old),
}

#[derive(Clone)]
struct CopyOf {
    from: From,
    /// Appended to the prefilled name, or kept as it is.
    tail: &'static str,
}

/// A create as the server got it: the draft's insert, and what publishing it wrote.
#[derive(Clone, Default)]
struct Row {
    at: i64,
    /// When `publishDraft` read the parent's last priority.
    calc: i64,
    /// When it was saved as a page; never for a draft left as it is.
    publish: Option<i64>,
    book: usize,
    chapter: Option<usize>,
    by: i64,
    name: String,
    blocks: Vec<Block>,
    md: bool,
    template: bool,
    /// A draft left with what was typed, autosaved then.
    autosave: Option<i64>,
    copy: Option<CopyOf>,
    /// "Save Page" pressed twice: the second `publishDraft` moves it one further down.
    twice: bool,
    via: Via,
    mark: Mark,
    /// The row whose create this row's request repeated (itself for most).
    group: usize,
    hidden: bool,
}

#[derive(Clone, Copy)]
enum Ev {
    Insert,
    Autosave,
    Calc,
    Publish,
    Edit(i64, bool),
    Move(usize, Option<usize>),
    Delete,
    Sort(usize),
    Owner,
}

struct E {
    t: i64,
    k: usize,
    ev: Ev,
}

/// A row as the replay leaves it.
#[derive(Clone, Default)]
struct State {
    inserted: bool,
    live: bool,
    purged: bool,
    draft: bool,
    book: usize,
    chapter: Option<usize>,
    name: String,
    slug: String,
    blocks: Vec<Block>,
    md: bool,
    html: String,
    text: String,
    markdown: String,
    editor: &'static str,
    priority: i64,
    pending: i64,
    rev: i64,
    created: i64,
    updated: i64,
    upd_by: i64,
    owned: i64,
    template: bool,
    deleted: Option<i64>,
}

/// `YYYY-MM-DD`.
fn date(us: i64) -> String {
    let z = us.div_euclid(DAY) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

fn stalled(t: i64) -> bool {
    OUTAGES.iter().any(|&(a, b)| (a..b).contains(&t))
}

fn admin(u: i64) -> bool {
    matches!(u, 1 | 3 | 4 | N8N | SYNC)
}

/// The people who write in Markdown (admins: they may switch the editor).
fn markdown_user(u: i64) -> bool {
    u == 1 || u == 3
}

/// The books a person writes in, the first most.
fn books_of(u: i64) -> &'static [usize] {
    match u {
        1 | 4 => &[IT, IT, SECURITY],
        3..=8 => &[IT, IT, SECURITY, LEGACY],
        9..=22 => &[ENG, ENG, ENG, PRODUCT, POSTMORTEMS, MEETINGS],
        23..=30 => &[SUPPORT, SUPPORT, PRODUCT],
        31..=36 => &[HR, HR, FINANCE],
        _ => &[SALES, SALES, PRODUCT, MEETINGS],
    }
}

fn person(r: &mut Rng, t: i64) -> i64 {
    let k = if r.chance(0.5) { r.skewed(41) } else { r.below(41) };
    let u = if k == 0 { 1 } else { k as i64 + 2 };
    if u == LEAVER && t > LEAVE_AT { HEIR } else { u }
}

/// PHP's `urlencode`.
fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            b' ' => "+".to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `PageContent::setUniqueId`: `bkmrk-` and the first 20 characters of the block's text, numbered when taken.
fn bkmrk(value: &str, used: &mut Vec<String>) -> String {
    let words: Vec<&str> = value.split_whitespace().collect();
    let head: String = words.join("-").to_lowercase().chars().take(20).collect();
    let base = format!("bkmrk-{head}");
    let mut id = urlencode(&base);
    let mut n = 1;
    while used.contains(&id) {
        id = urlencode(&format!("{base}-{n}"));
        n += 1;
    }
    used.push(id.clone());
    id
}

/// The `html` and `markdown` BookStack stores: the WYSIWYG editor's blocks one a line (`markdown` ''), or the Markdown
/// as typed with CommonMark's HTML of it; `formatHtml` ids on every top-level block either way.
fn render(blocks: &[Block], md: bool) -> (String, String) {
    let mut used = Vec::new();
    let mut html: Vec<String> = Vec::new();
    let mut mark: Vec<String> = Vec::new();
    for b in blocks {
        let (tag, value, inner, text) = match b {
            Block::H(t) => ("h2", t.clone(), t.clone(), format!("## {t}")),
            Block::P(t) => ("p", t.clone(), t.clone(), t.clone()),
            Block::Ul(items) => {
                let li: String = items.iter().map(|i| format!("<li>{i}</li>\n")).collect();
                let text = items.iter().map(|i| format!("- {i}")).collect::<Vec<_>>().join("\n");
                ("ul", items.join("\n"), format!("\n{li}"), text)
            }
            Block::Code(c) => {
                let nl = if md { "\n" } else { "" };
                (
                    "pre",
                    c.clone(),
                    format!("<code class=\"language-bash\">{c}{nl}</code>"),
                    format!("```bash\n{c}\n```"),
                )
            }
            Block::Img(url, alt) => {
                ("p", String::new(), format!("<img src=\"{url}\" alt=\"{alt}\">"), format!("![{alt}]({url})"))
            }
        };
        let id = bkmrk(&value, &mut used);
        html.push(format!("<{tag} id=\"{id}\">{inner}</{tag}>"));
        mark.push(text);
    }
    if md {
        (html.iter().map(|h| format!("{h}\n")).collect(), mark.join("\n\n"))
    } else {
        (html.join("\n"), String::new())
    }
}

/// `toPlainText`: the tags stripped.
fn strip(html: &str) -> String {
    let mut tag = false;
    html.chars()
        .filter(|&c| {
            tag = (tag || c == '<') && c != '>';
            !tag && c != '>'
        })
        .collect()
}

/// Laravel's `Str::slug` for ASCII names.
fn slugify(name: &str) -> String {
    let mut s = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_string()
}

#[rustfmt::skip]
const IT_VERBS: &[&str] = &["Restart", "Rotate", "Set up", "Troubleshoot", "Upgrade", "Back up", "Restore", "Replace",
    "Patch", "Decommission", "Migrate", "Monitor"];
#[rustfmt::skip]
const IT_THINGS: &[&str] = &["the file server", "VPN on macOS", "VPN on Windows", "TLS certificates",
    "the print server", "Wi-Fi access points", "the NAS", "Proxmox nodes", "the firewall", "internal DNS",
    "Entra ID sync", "BitLocker", "the UPS", "Veeam jobs", "the mail relay", "GitLab runners", "the Zabbix server",
    "meeting room displays", "the badge system", "laptops"];
const PLACES: &[&str] = &["", "", "", " (HQ)", " (Berlin)", " (Lisbon)", " - checklist", " - notes"];
#[rustfmt::skip]
const SERVICES: &[&str] = &["billing-api", "auth-service", "search-indexer", "notification-worker", "web-frontend",
    "mobile-gateway", "reporting-etl", "pdf-renderer"];
const SYMPTOMS: &[&str] = &["high latency", "OOM kills", "stuck queue", "failed deploy", "5xx spike", "disk full"];
#[rustfmt::skip]
const FEATURES: &[&str] = &["Invoices", "Recurring billing", "Team workspaces", "SSO", "Webhooks", "CSV export",
    "Custom fields", "Approval flows", "Mobile app", "Audit log", "Public API", "Reports"];
#[rustfmt::skip]
const POLICIES: &[&str] = &["Parental leave policy", "Remote work policy", "Expense policy", "Travel policy",
    "Sick leave", "Equipment policy", "Holiday calendar 2027", "Referral bonus", "Learning budget", "Code of conduct",
    "Offboarding checklist", "Performance reviews", "Company car policy", "Works council"];
const ROLES: &[&str] = &["engineers", "support agents", "sales", "working students", "team leads"];
const COUNTRIES: &[&str] = &["Germany", "Portugal", "UK", "Spain", "remote"];
const COMPETITORS: &[&str] = &["Acumatica", "Zuora", "Chargebee", "Paddle", "Recurly"];
#[rustfmt::skip]
const TEMPLATE_NAMES: &[&str] = &["Runbook template", "Incident report", "How-to article", "Vendor evaluation",
    "Decision record", "Project brief", "Release checklist", "Customer call notes", "Onboarding plan", "Retro"];
#[rustfmt::skip]
const GENERIC: &[&str] = &["Overview", "FAQ", "Notes", "Troubleshooting", "Checklist", "Introduction", "Links",
    "Getting started", "Contacts", "Glossary"];
const NAMES: &[&str] = &["Anna", "Ben", "Clara", "David", "Elif", "Femi", "Greta", "Hugo", "Ines", "Jonas", "Karl"];
const TAILS: &[&str] = &[" (copy)", " - v2", " (EU)", " (draft)", " - 2027"];

/// A page name people give in a book of this kind.
fn title(r: &mut Rng, kind: Kind, at: i64) -> String {
    if r.chance(0.03) {
        return r.pick(GENERIC).to_string();
    }
    let svc = *r.pick(SERVICES);
    let (a, b) = (*r.pick(WORDS), *r.pick(WORDS));
    match kind {
        Kind::It | Kind::Legacy => format!("{} {}{}", r.pick(IT_VERBS), r.pick(IT_THINGS), r.pick(PLACES)),
        Kind::Eng | Kind::Synced => match r.below(8) {
            0 => format!("Deploying {svc} to {}", r.pick(&["staging", "production", "eu-west", "us-east"])),
            1 => format!("Local setup for {svc} on {}", r.pick(&["macOS", "Linux", "Windows", "Docker"])),
            2 => format!("{svc} architecture: {a}"),
            3 => format!("Runbook: {svc} {}", r.pick(SYMPTOMS)),
            4 => format!("How {svc} handles {a} {b}"),
            5 => format!("{svc}: {a} {b} notes"),
            _ => format!("ADR-{:03}: {a} {b}", r.range(10, 140)),
        },
        Kind::Product => {
            let f = *r.pick(FEATURES);
            match r.below(6) {
                0 => format!("{f} overview for {}", r.pick(&["admins", "members", "partners", "enterprise"])),
                1 => format!("How to set up {} with {a}", f.to_lowercase()),
                2 => format!("{f}: {a} FAQ"),
                3 => format!("{f} and {a} {b}"),
                4 => format!("{f} limits ({a})"),
                _ => format!("{f} permissions: {a}"),
            }
        }
        Kind::Hr => match r.below(4) {
            0 => format!("Onboarding: {} ({})", r.pick(ROLES), r.pick(COUNTRIES)),
            1 => format!("{} FAQ: {a}", r.pick(POLICIES)),
            _ => format!("{} ({})", r.pick(POLICIES), r.pick(COUNTRIES)),
        },
        Kind::Support => match r.below(4) {
            0 => format!("Customer cannot {} {a}", r.pick(&["export", "log in to", "open", "pay"])),
            1 => format!("Macro: {a} {b}"),
            2 => format!("Known issue: {} {a}", r.pick(FEATURES).to_lowercase()),
            _ => format!("How to answer: {a} {b}"),
        },
        Kind::Meetings => format!("Workshop: {a} {}", date(at)),
        Kind::Security => match r.below(6) {
            0 => format!("Phishing report {}", date(at)),
            1 => format!("Vendor assessment: {} ({a})", r.pick(COMPETITORS)),
            2 => format!("{} hardening", r.pick(IT_THINGS)),
            _ => format!("{} policy: {a}", r.pick(&["Password", "Device", "Access", "Backup", "Incident response"])),
        },
        Kind::Postmortems => format!("Postmortem: {svc} {} ({})", r.pick(SYMPTOMS), date(at)),
        Kind::Templates => r.pick(TEMPLATE_NAMES).to_string(),
        Kind::Sales => match r.below(4) {
            0 => format!("Battlecard: {} vs {a}", r.pick(COMPETITORS)),
            1 => format!("Demo script: {} ({a})", r.pick(FEATURES).to_lowercase()),
            2 => format!("Objection: {a} {b}"),
            _ => format!("Call notes: {} {}", r.pick(NAMES), r.pick(&["GmbH", "Ltd", "SA", "AG"])),
        },
        Kind::Finance => match r.below(3) {
            0 => format!("{} close checklist", &date(at)[..7]),
            _ => format!("How to submit {a} {}", r.pick(&["invoices", "expenses", "receipts"])),
        },
        Kind::Vault => format!("{a} {b}"),
    }
}

/// A name for a new page: people look before they write, and mostly pick one the book does not have yet.
fn fresh_title(r: &mut Rng, w: &World, used: &HashSet<(usize, String)>, book: usize, at: i64) -> String {
    let kind = w.books[book].kind;
    let mut name = title(r, kind, at);
    if r.chance(0.9) {
        for _ in 0..6 {
            if !used.contains(&(book, name.clone())) && !w.books[book].slugs.contains(&slugify(&name)) {
                break;
            }
            name = title(r, kind, at);
        }
    }
    name
}

/// Where an image sent as a data URI is saved: a new name on every request.
fn embedded(r: &mut Rng, at: i64) -> String {
    format!("https://wiki.acme.example/uploads/images/gallery/{}/embedded-image-{}.png", &date(at)[..7], r.alnum(8))
}

/// An image: uploaded in the editor (its file name as the alt text), or inlined by an importer (the source's).
fn image(r: &mut Rng, at: i64, inlined: bool) -> Block {
    if inlined {
        return Block::Img(embedded(r, at), format!("attachment-{}.png", r.range(1_000, 9_999)));
    }
    let file = format!("image-{}.png", r.range(1, 400));
    Block::Img(format!("https://wiki.acme.example/uploads/images/gallery/{}/{file}", &date(at)[..7]), file)
}

/// What people write on a page.
fn body(r: &mut Rng, kind: Kind, at: i64) -> Vec<Block> {
    let mut b = Vec::new();
    for _ in 0..1 + r.below(3) {
        let n = 6 + r.below(10) as usize;
        b.push(Block::P(sentence(r, n)));
    }
    if r.chance(0.35) {
        b.push(Block::H(r.pick(&["Steps", "Background", "Details", "Contacts", "Notes"]).to_string()));
        let items = (0..2 + r.below(4)).map(|_| format!("{} the {}", r.pick(IT_VERBS), r.pick(WORDS))).collect();
        b.push(Block::Ul(items));
    }
    if matches!(kind, Kind::It | Kind::Eng | Kind::Legacy | Kind::Synced) && r.chance(0.3) {
        let cmd = format!("sudo systemctl restart {}", r.pick(SERVICES));
        b.push(Block::Code(cmd));
    }
    if r.chance(0.1) {
        b.push(image(r, at, false));
    }
    b
}

fn meeting_template() -> Vec<Block> {
    vec![
        Block::H("Attendees".into()),
        Block::P("Add attendees here.".into()),
        Block::H("Agenda".into()),
        Block::Ul(vec!["First topic".into()]),
        Block::H("Notes".into()),
        Block::P("Add notes here.".into()),
        Block::H("Action items".into()),
        Block::Ul(vec!["Owner: action".into()]),
    ]
}

fn postmortem_template() -> Vec<Block> {
    vec![
        Block::H("Summary".into()),
        Block::P("What happened, in two sentences.".into()),
        Block::H("Impact".into()),
        Block::P("Who was affected, and for how long.".into()),
        Block::H("Timeline".into()),
        Block::Ul(vec!["HH:MM - event".into()]),
        Block::H("Root cause".into()),
        Block::P("Why it happened.".into()),
        Block::H("Action items".into()),
        Block::Ul(vec!["Owner: action".into()]),
    ]
}

/// A template filled in: the placeholders replaced (some left as they are), notes added.
fn filled(r: &mut Rng, template: &[Block], attendees: &[&str]) -> Vec<Block> {
    let mut b = template.to_vec();
    for (i, x) in b.iter_mut().enumerate() {
        match x {
            Block::P(t) if i == 1 && !attendees.is_empty() => *t = attendees.join(", "),
            Block::P(t) if r.chance(0.85) => {
                let n = 8 + r.below(10) as usize;
                *t = sentence(r, n);
            }
            Block::Ul(items) if r.chance(0.85) => {
                *items = (0..1 + r.below(4))
                    .map(|_| format!("{}: {} {}", r.pick(NAMES), r.pick(IT_VERBS), r.pick(WORDS)))
                    .collect();
            }
            _ => {}
        }
    }
    b
}

/// An edit: a paragraph added or rewritten, or a list item added.
fn edit(r: &mut Rng, blocks: &mut Vec<Block>) {
    let x = r.below(10);
    let n = 6 + r.below(12) as usize;
    if x < 3
        && let Some(p) = blocks.iter_mut().rev().find(|b| matches!(b, Block::P(_)))
    {
        *p = Block::P(sentence(r, n));
    } else if x < 4
        && let Some(Block::Ul(items)) = blocks.iter_mut().find(|b| matches!(b, Block::Ul(_)))
    {
        items.push(format!("{} the {}", r.pick(IT_VERBS), r.pick(WORDS)));
    } else {
        blocks.push(Block::P(sentence(r, n)));
    }
}

/// A working moment `days` days on: 07:00-16:00 UTC on a weekday.
fn later(r: &mut Rng, t: i64, days: i64) -> i64 {
    let mut d = day(t) + days * DAY;
    while weekday(d) >= 5 {
        d += DAY;
    }
    d + r.range(7 * 60, 16 * 60) * MINUTE + r.below(60_000_000) as i64
}

/// When a person gets back to a page: soon, or days on.
fn soon_or_later(r: &mut Rng, t: i64) -> i64 {
    if r.chance(0.4) {
        return t + r.range(3, 180) * MINUTE + r.below(60_000_000) as i64;
    }
    let days = r.range(1, 20);
    later(r, t, days)
}

fn member(r: &mut Rng, w: &World, book: usize, fallback: i64) -> i64 {
    let m = &w.members[book];
    if m.is_empty() { fallback } else { m[r.below(m.len() as u64) as usize] }
}

/// The life of a page people made: edits, a move, a delete. Returns when it is deleted.
fn plan(r: &mut Rng, w: &World, row: &Row, k: usize, evs: &mut Vec<E>) -> Option<i64> {
    let Some(p) = row.publish else {
        // A draft left behind: deleted from its menu by a third of the people, days on.
        if r.chance(0.3) {
            let days = r.range(1, 15);
            let t = later(r, row.autosave.unwrap_or(row.at), days);
            evs.push(E { t, k, ev: Ev::Delete });
            return Some(t);
        }
        return None;
    };
    let (p_edit, p_move, p_del) = match row.via {
        Via::Import if row.book == LEGACY => (0.1, 0.12, 0.06),
        Via::Import => (0.15, 0.02, 0.03),
        Via::Copy => (0.6, 0.03, 0.05),
        Via::Api => (0.3, 0.01, 0.02),
        Via::Editor => (0.5, 0.03, 0.04),
    };
    let mut t = p;
    if r.chance(p_edit) {
        let n = 1 + r.skewed(6) as i64;
        for i in 0..n {
            t = soon_or_later(r, t);
            let by = if r.chance(0.6) { row.by } else { member(r, w, row.book, row.by) };
            // A copy that kept its name is mostly renamed when first worked on.
            let kept = row.copy.as_ref().is_some_and(|c| c.tail.is_empty());
            let rename = (i == 0 && kept && r.chance(0.7)) || r.chance(0.05);
            evs.push(E { t, k, ev: Ev::Edit(by, rename) });
        }
    }
    if r.chance(p_move) {
        let days = r.range(1, 25);
        let t = later(r, p, days);
        let book =
            if row.book == LEGACY || r.chance(0.3) { r.one(&[IT, ENG, PRODUCT, SUPPORT, SECURITY]) } else { row.book };
        let cs = &w.books[book].chapters;
        let chapter = if cs.is_empty() || r.chance(0.15) { None } else { Some(cs[r.below(cs.len() as u64) as usize]) };
        evs.push(E { t, k, ev: Ev::Move(book, chapter) });
    }
    if r.chance(p_del) {
        let days = r.range(1, 20);
        let t = later(r, t, days);
        evs.push(E { t, k, ev: Ev::Delete });
        return Some(t);
    }
    None
}

fn push(v: &mut Vec<Row>, mut row: Row) -> usize {
    row.group = v.len();
    v.push(row);
    v.len() - 1
}

/// The extra attempts a client made of a create at `t`: when each began.
fn attempts(r: &mut Rng, client: Client, t: i64, forced: bool) -> Vec<i64> {
    let wait = |r: &mut Rng| 60 * SECOND + r.range(200, 900) * 1_000;
    if stalled(t) {
        // Every try waits on the relay again: all of them time out.
        let a1 = t + wait(r) + SECOND;
        return match client {
            Client::N8n => vec![a1, a1 + wait(r) + SECOND],
            Client::Curl => vec![a1, a1 + wait(r) + 2 * SECOND],
            Client::Pwsh => vec![t + 35 * SECOND, t + 70 * SECOND + r.range(0, 900) * 1_000],
        };
    }
    let p = match client {
        Client::N8n => 0.02,
        Client::Curl => 0.0,
        Client::Pwsh => 0.05,
    };
    if forced || r.chance(p) {
        let d = match client {
            Client::Pwsh => 35 * SECOND + r.range(0, 900) * 1_000,
            _ => wait(r) + SECOND,
        };
        return vec![t + d];
    }
    Vec::new()
}

/// A create and the rows its lost answers added, with what became of each: the extras deleted the next morning, or
/// the original instead, or edits on whichever row people opened, or nothing.
fn retried(r: &mut Rng, w: &World, v: &mut Vec<Row>, evs: &mut Vec<E>, row: Row, extra: &[i64], edits: usize) -> usize {
    let g = push(v, row.clone());
    let mut ks = vec![g];
    for &a in extra {
        let mut x = Row { at: a, mark: Mark::Retry, ..row.clone() };
        let shift = a - row.at;
        x.calc = row.calc + shift;
        x.publish = row.publish.map(|p| p + shift);
        // Images sent as data URIs are saved again, under new names.
        for b in x.blocks.iter_mut() {
            if let Block::Img(url, _) = b
                && url.contains("/embedded-image-")
            {
                *url = embedded(r, a);
            }
        }
        x.group = g;
        v.push(x);
        ks.push(v.len() - 1);
    }
    let last = v[*ks.last().unwrap_or(&g)].publish.unwrap_or(row.at);
    let fate = if extra.is_empty() { 99 } else { r.below(100) };
    let days = if r.chance(0.7) { 1 } else { r.range(0, 3) };
    let cleanup = later(r, last, days);
    let by = member(r, w, row.book, row.by);
    // Edits of meeting notes and the like go to the row people open: mostly the first in the list.
    let mut t = last;
    for _ in 0..edits {
        t += r.range(2, 12) * MINUTE + r.below(60_000_000) as i64;
        let k = if r.chance(0.7) { g } else { ks[r.below(ks.len() as u64) as usize] };
        evs.push(E { t, k, ev: Ev::Edit(member(r, w, row.book, row.by), false) });
    }
    match fate {
        99 => {}
        0..=44 => ks[1..].iter().for_each(|&k| evs.push(E { t: cleanup.max(t + MINUTE), k, ev: Ev::Delete })),
        45..=54 => evs.push(E { t: cleanup.max(t + MINUTE), k: g, ev: Ev::Delete }),
        55..=74 => {
            let k = ks[r.below(ks.len() as u64) as usize];
            let days = r.range(1, 10);
            evs.push(E { t: later(r, last, days), k, ev: Ev::Edit(by, false) });
        }
        _ => {}
    }
    g
}

fn build(r: &mut Rng) -> World {
    let mut books = Vec::new();
    let mut chapters = Vec::new();
    let mut cid = 0;
    for (i, &(kind, id, names)) in BOOKS.iter().enumerate() {
        let fresh = matches!(kind, Kind::Synced | Kind::Legacy | Kind::Vault);
        let mut b = Book {
            kind,
            id,
            chapters: Vec::new(),
            root_pre: 0,
            root_floor: 0,
            slugs: HashSet::new(),
            template: match kind {
                Kind::Meetings => Some(render(&meeting_template(), false).0),
                Kind::Postmortems => Some(render(&postmortem_template(), false).0),
                _ => None,
            },
        };
        if fresh {
            cid = cid.max(60 + 10 * (i as i64 - 10));
        }
        for _ in names.iter() {
            cid += if fresh { 1 } else { 1 + r.below(3) as i64 };
            let pre = if fresh { 0 } else { r.range(0, 24) };
            let floor = (pre > 0).then(|| pre - 1 + r.range(0, 4));
            for _ in 0..pre {
                let at = START - r.range(30, 900) * DAY;
                b.slugs.insert(slugify(&title(r, kind, at)));
            }
            b.chapters.push(chapters.len());
            chapters.push(Chapter { id: cid, pre, floor });
        }
        let root_pages = if fresh { 0 } else { r.range(0, 4) };
        for _ in 0..root_pages {
            let at = START - r.range(30, 900) * DAY;
            b.slugs.insert(slugify(&title(r, kind, at)));
        }
        if kind == Kind::Templates {
            for n in ["Meeting notes", "Postmortem", "Runbook template", "How-to article"] {
                b.slugs.insert(slugify(n));
            }
        }
        for g in GENERIC {
            if !fresh && r.chance(0.4) {
                b.slugs.insert(slugify(g));
            }
        }
        b.root_pre = names.len() as i64 + root_pages;
        b.root_floor = if fresh { 1 + names.len() as i64 } else { b.root_pre + r.range(0, 5) };
        books.push(b);
    }
    let mut members = vec![Vec::new(); books.len()];
    for u in (1..=42).filter(|&u| u != 2) {
        for &b in books_of(u) {
            if !members[b].contains(&u) {
                members[b].push(u);
            }
        }
    }
    members[MEETINGS] = (9..=22).collect();
    members[SYNCED] = (9..=22).collect();
    members[VAULT] = vec![12];
    members[TEMPLATES] = vec![1, 4];
    World { books, chapters, members }
}

/// An old page of one of the person's books, to copy.
fn old_page(r: &mut Rng, w: &World, u: i64, t: i64) -> (usize, Option<usize>, Old) {
    let b = r.one(books_of(u));
    let kind = w.books[b].kind;
    let cs = &w.books[b].chapters;
    let chapter = if cs.is_empty() || r.chance(0.2) { None } else { Some(cs[r.below(cs.len() as u64) as usize]) };
    let at = t - r.range(30, 700) * DAY;
    let name = title(r, kind, at);
    let priority = match chapter {
        Some(c) => r.range(0, w.chapters[c].floor.unwrap_or(0)),
        None => r.range(0, w.books[b].root_floor),
    };
    (b, chapter, Old { name, blocks: body(r, kind, t - 90 * DAY), md: markdown_user(u) && r.chance(0.5), priority })
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0xB005_7AC4);
    let w = build(&mut r);
    let mut v: Vec<Row> = Vec::new();
    let mut evs: Vec<E> = Vec::new();
    // When each page people made is deleted (a copy needs its original).
    let mut gone: Vec<Option<i64>> = Vec::new();
    let (mut clicks, mut copies) = (0, 0);
    let mut used: HashSet<(usize, String)> = HashSet::new();

    // The editor and "Copy", as people click.
    let mut t = START;
    loop {
        // Candidates at the busiest hour's rate, kept as the hour and the day of the week have people at work.
        t += r.range(30, 2_370) * SECOND + r.below(1_000_000) as i64;
        if t >= NOW - 5 * MINUTE {
            break;
        }
        if r.below(10) as i64 >= RHYTHM[(t / HOUR % 24) as usize] || (weekday(t) >= 5 && !r.chance(0.12)) {
            continue;
        }
        let u = person(&mut r, t);
        let x = r.below(1_000);
        if x < 45 {
            // "Copy Page": of a page made here, or an older one; into its own place mostly; the name as prefilled.
            let recent: Vec<usize> = (0..v.len())
                .rev()
                .take(400)
                .filter(|&k| {
                    let o = &v[k];
                    o.publish.is_some_and(|p| p < t - 10 * MINUTE)
                        && gone.get(k).copied().flatten().is_none_or(|d| d > t)
                        && o.mark == Mark::Plain
                        && books_of(u).contains(&o.book)
                })
                .collect();
            let (book, chapter, from) = if !recent.is_empty() && r.chance(0.6) {
                let k = recent[r.skewed(recent.len() as u64) as usize];
                (v[k].book, v[k].chapter, From::Row(k))
            } else {
                let (b, c, o) = old_page(&mut r, &w, u, t);
                (b, c, From::Old(o))
            };
            let (book, chapter) = match r.below(100) {
                0..=64 => (book, chapter),
                65..=84 if !w.books[book].chapters.is_empty() => {
                    let cs = &w.books[book].chapters;
                    (book, Some(cs[r.below(cs.len() as u64) as usize]))
                }
                _ => {
                    let b = r.one(books_of(u));
                    let cs = &w.books[b].chapters;
                    (b, if cs.is_empty() { None } else { Some(cs[r.below(cs.len() as u64) as usize]) })
                }
            };
            let tail = if r.chance(0.55) { "" } else { r.one(TAILS) };
            let calc = t + r.range(20, 80) * 1_000;
            let publish = Some(calc + r.range(150, 900) * 1_000);
            let row = Row {
                at: t,
                calc,
                publish,
                book,
                chapter,
                by: u,
                copy: Some(CopyOf { from, tail }),
                via: Via::Copy,
                ..Row::default()
            };
            let forced = copies < DOUBLE_COPIES.len() && t > DOUBLE_COPIES[copies];
            let extra = if stalled(t) {
                let a1 = t + 60 * SECOND + r.range(4, 30) * SECOND;
                if r.chance(0.2) { vec![a1, a1 + 60 * SECOND + r.range(5, 40) * SECOND] } else { vec![a1] }
            } else if forced || r.chance(0.04) {
                copies += usize::from(forced);
                vec![t + client_retry_delay(&mut r)]
            } else {
                Vec::new()
            };
            if !extra.is_empty() {
                retried(&mut r, &w, &mut v, &mut evs, row, &extra, 0);
                gone.resize(v.len(), None);
                continue;
            }
            let k = push(&mut v, row.clone());
            gone.push(plan(&mut r, &w, &row, k, &mut evs));
            // Two copies on purpose, as variants to work on: most renamed later.
            if r.chance(0.08) {
                let a = t + r.range(20, 90) * SECOND;
                let row = Row { at: a, calc: a + 40_000, publish: Some(a + 600_000), ..row };
                let k = push(&mut v, row.clone());
                gone.push(plan(&mut r, &w, &row, k, &mut evs));
            }
            continue;
        }
        // "New Page": the draft, then the page, or a draft left behind.
        let b = if admin(u) && r.chance(0.03) { TEMPLATES } else { r.one(books_of(u)) };
        let kind = w.books[b].kind;
        if b == LEGACY && t < START + 18 * DAY {
            continue;
        }
        let cs = &w.books[b].chapters;
        let chapter = if cs.is_empty() || r.chance(0.18) { None } else { Some(cs[r.skewed(cs.len() as u64) as usize]) };
        let md = markdown_user(u) && w.books[b].template.is_none();
        let mut row = Row { at: t, book: b, chapter, by: u, md, ..Row::default() };
        let forced = clicks < DOUBLE_CLICKS.len() && t > DOUBLE_CLICKS[clicks];
        let double = forced || r.chance(0.0005);
        if double {
            clicks += usize::from(forced);
            // A double-click: two drafts; the editor opens the second.
            let orphan = Row { name: "New Page".into(), mark: Mark::Retry, hidden: true, ..row.clone() };
            let o = push(&mut v, orphan.clone());
            gone.push(plan(&mut r, &w, &orphan, o, &mut evs));
            row.at = t + r.range(80, 500) * 1_000;
            let k = push(&mut v, row.clone());
            v[o].group = k;
        } else {
            push(&mut v, row.clone());
        }
        let k = v.len() - 1;
        // After a double-click, the page opened was worked on.
        let y = if double { r.range(15, 99) as u64 } else { r.below(100) };
        let template = match kind {
            Kind::Meetings => Some(meeting_template()),
            Kind::Postmortems => Some(postmortem_template()),
            _ => None,
        };
        let name = fresh_title(&mut r, &w, &used, b, t);
        let blocks = match &template {
            Some(tpl) => filled(&mut r, tpl, &[]),
            None => body(&mut r, kind, t),
        };
        if y < 10 {
            // Left as it was: the wrong place, the back button.
            v[k].name = "New Page".into();
        } else if y < 15 {
            // Something typed, autosaved, then left.
            v[k].autosave = Some(t + r.range(1, 15) * MINUTE + r.below(60_000_000) as i64);
            v[k].name = if r.chance(0.7) { name } else { "New Page".into() };
            v[k].blocks = blocks[..1].to_vec();
        } else {
            let resumed = r.chance(0.07);
            let p = if resumed {
                let days = r.range(1, 12);
                later(&mut r, t, days)
            } else if r.chance(0.6) {
                t + r.range(2, 25) * MINUTE + r.below(60_000_000) as i64
            } else {
                t + r.range(20, 120) * MINUTE + r.below(60_000_000) as i64
            };
            (v[k].name, v[k].blocks) = (name, blocks);
            v[k].template = kind == Kind::Templates;
            if p >= NOW - 10 * MINUTE {
                v[k].autosave = Some(t + r.range(5, 40) * MINUTE);
            } else {
                v[k].publish = Some(p);
                v[k].calc = p - r.range(5, 60) * 1_000;
                v[k].twice = r.chance(0.015);
                if resumed {
                    v[k].autosave = Some(t + r.range(5, 40) * MINUTE);
                }
            }
        }
        let row = v[k].clone();
        used.insert((b, row.name.clone()));
        gone.resize(k, None);
        gone.push(plan(&mut r, &w, &row, k, &mut evs));
    }
    gone.resize(v.len(), None);

    scheduled(&mut r, &w, &mut v, &mut evs);
    imports(&mut r, &w, &mut v, &mut evs);
    let st = replay(&mut r, &w, &v, evs);
    output(&st, &v, &w)
}

/// Meeting notes from the default template (by hand), and the bots: n8n's Engineering sync notes, standup pages,
/// escalated tickets and postmortems, the CI's release notes, the PowerShell access review.
fn scheduled(r: &mut Rng, w: &World, v: &mut Vec<Row>, evs: &mut Vec<E>) {
    let chapter = |b: usize, i: usize| Some(w.books[b].chapters[i]);
    let mut release = (4, 17, 2);
    let mut ticket = 48_113;
    let mut d = day(START);
    while d < NOW {
        let wd = weekday(d);
        // Meetings written up by hand in the editor, from the book's template.
        for (cw, hour, ch, by, team) in [
            (1, 12 * HOUR, 1, 14, &["Anna", "Ben", "Greta", "Hugo"][..]),
            (3, 9 * HOUR, 2, 23, &["Clara", "Femi", "Ines"][..]),
            (0, 7 * HOUR + 30 * MINUTE, 3, 1, &["David", "Elif", "Karl"][..]),
            (4, 14 * HOUR, 4, 37, &["Jonas", "Ben", "Clara"][..]),
        ] {
            if wd != cw || r.chance(0.1) {
                continue;
            }
            let at = d + hour + r.range(-8, 20) * MINUTE + r.below(60_000_000) as i64;
            let p = at + r.range(25, 70) * MINUTE;
            if p >= NOW {
                continue;
            }
            let label = w_name(MEETINGS, ch);
            let name = if r.chance(0.9) { format!("{label} {}", date(at)) } else { label.to_string() };
            let row = Row {
                at,
                calc: p - 30_000,
                publish: Some(p),
                book: MEETINGS,
                chapter: chapter(MEETINGS, ch),
                by,
                name,
                blocks: filled(r, &meeting_template(), team),
                ..Row::default()
            };
            let k = push(v, row.clone());
            plan(r, w, &row, k, evs);
        }
        // n8n: the Engineering sync's notes, from the calendar event, five minutes before (Mon, Wed, Fri).
        if matches!(wd, 0 | 2 | 4) {
            let at = d + 7 * HOUR + 55 * MINUTE + r.range(0, 30_000) * 1_000;
            let mut blocks = meeting_template();
            blocks[1] = Block::P("Anna, Ben, David, Elif, Greta, Hugo, Ines, Jonas".into());
            blocks[3] = Block::Ul(vec!["Status updates".into(), "Blockers".into(), "Releases this week".into()]);
            let row =
                api(at, MEETINGS, chapter(MEETINGS, 0), N8N, format!("Engineering sync {}", date(at)), blocks, false);
            let forced = at > NOW - DAY;
            let extra = attempts(r, Client::N8n, at, forced);
            let edits = 2 + r.below(4) as usize;
            retried(r, w, v, evs, row, &extra, edits);
        }
        // n8n: the two teams' standup pages at 07:25 on weekdays, filled in during the standup.
        if wd < 5 {
            for team in ["Platform standup", "Product squad standup"] {
                let at = d + 7 * HOUR + 25 * MINUTE + r.range(0, 40_000) * 1_000;
                let blocks = vec![
                    Block::H("Yesterday".into()),
                    Block::P("Add updates here.".into()),
                    Block::H("Today".into()),
                    Block::P("Add plans here.".into()),
                    Block::H("Blockers".into()),
                    Block::P("None so far.".into()),
                ];
                let row = api(at, MEETINGS, chapter(MEETINGS, 5), N8N, format!("{team} {}", date(at)), blocks, false);
                let extra = attempts(r, Client::N8n, at, false);
                let edits = 1 + r.below(4) as usize;
                retried(r, w, v, evs, row, &extra, edits);
            }
            // n8n: a page for every ticket Zendesk escalates.
            for _ in 0..r.below(6) {
                let at = d + r.range(6 * 60, 17 * 60) * MINUTE + r.below(60_000_000) as i64;
                ticket += r.range(3, 60);
                let what = r.pick(&["not loading", "error on save", "wrong totals", "missing data", "very slow"]);
                let name = format!("Ticket #{ticket}: {} {what}", r.pick(FEATURES));
                let plan_name = r.pick(&["Starter", "Team", "Business", "Enterprise"]);
                let blocks = vec![
                    Block::P(format!(
                        "Customer: {} {} ({plan_name} plan)",
                        r.pick(NAMES),
                        r.pick(&["GmbH", "Ltd", "SA"])
                    )),
                    Block::P(sentence(r, 12)),
                    Block::Ul(vec![format!("https://acme.zendesk.com/agent/tickets/{ticket}")]),
                ];
                let row = api(at, SUPPORT, chapter(SUPPORT, 3), N8N, name, blocks, false);
                let extra = attempts(r, Client::N8n, at, false);
                let g = retried(r, w, v, evs, row, &extra, 0);
                let row = v[g].clone();
                plan(r, w, &row, g, evs);
            }
        }
        // The CI job: release notes on Tuesday and Thursday afternoons, in Markdown.
        if matches!(wd, 1 | 3) && (r.chance(0.85) || d == day(OUTAGES[1].0)) {
            let at = if d == day(OUTAGES[1].0) {
                OUTAGES[1].0 + 30 * MINUTE
            } else {
                d + r.range(13 * 60, 15 * 60 + 30) * MINUTE
            };
            release.2 += 1;
            if r.chance(0.3) {
                (release.1, release.2) = (release.1 + 1, 0);
            }
            let items: Vec<String> = (0..2 + r.below(5))
                .map(|_| format!("{} {} in {}", r.pick(IT_VERBS), r.pick(WORDS), r.pick(SERVICES)))
                .collect();
            let blocks = vec![
                Block::H("Changes".into()),
                Block::Ul(items),
                Block::P(format!("Deployed by the pipeline on {}.", date(at))),
            ];
            let name = format!("Release {}.{}.{}", release.0, release.1, release.2);
            let row = api(at, ENG, chapter(ENG, 4), CI, name, blocks, true);
            let extra = attempts(r, Client::Curl, at, false);
            let g = retried(r, w, v, evs, row, &extra, 0);
            if extra.is_empty() {
                let row = v[g].clone();
                plan(r, w, &row, g, evs);
            }
        }
        // The access review, Monday 05:00.
        if wd == 0 {
            let at = d + 5 * HOUR + r.range(0, 90) * SECOND;
            let rows = (0..3 + r.below(4))
                .map(|_| {
                    format!("{} - {} - {}", r.pick(NAMES), r.pick(FEATURES), r.pick(&["keep", "remove", "review"]))
                })
                .collect();
            let blocks = vec![Block::P(format!("Generated by access-review.ps1 on {}.", date(at))), Block::Ul(rows)];
            let row = api(at, SECURITY, chapter(SECURITY, 2), 6, format!("Access review {}", date(at)), blocks, false);
            let extra = attempts(r, Client::Pwsh, at, false);
            retried(r, w, v, evs, row, &extra, 0);
        }
        d += DAY;
    }
    // n8n: a postmortem page when PagerDuty resolves an incident, at any hour.
    for _ in 0..11 {
        let at = START + r.range(0, 55 * 24 * 60) * MINUTE + r.below(60_000_000) as i64;
        let svc = *r.pick(SERVICES);
        let mut blocks = postmortem_template();
        blocks[1] = Block::P(format!("PagerDuty incident #{} on {svc}: {}.", r.range(1_200, 1_900), r.pick(SYMPTOMS)));
        blocks[5] = Block::Ul(vec![format!("Triggered {}", date(at)), "Acknowledged".into(), "Resolved".into()]);
        let name = format!("Postmortem: {svc} {} ({})", r.pick(SYMPTOMS), date(at));
        let row = api(at, POSTMORTEMS, chapter(POSTMORTEMS, 0), N8N, name, blocks, false);
        let extra = attempts(r, Client::N8n, at, false);
        let g = retried(r, w, v, evs, row, &extra, 0);
        for _ in 0..2 + r.below(4) {
            let days = r.range(0, 6);
            let t = later(r, at, days).max(at + HOUR);
            evs.push(E { t, k: g, ev: Ev::Edit(member(r, w, ENG, 9), false) });
        }
    }
}

fn w_name(book: usize, chapter: usize) -> &'static str {
    BOOKS[book].2[chapter]
}

/// A create through the API: the draft inserted and published in the one request.
fn api(at: i64, book: usize, chapter: Option<usize>, by: i64, name: String, blocks: Vec<Block>, md: bool) -> Row {
    let calc = at + 45_000;
    Row {
        at,
        calc,
        publish: Some(calc + 260_000),
        book,
        chapter,
        by,
        name,
        blocks,
        md,
        via: Via::Api,
        ..Row::default()
    }
}

/// The docs sync (from day 11), the Confluence import (day 18) and bsimport (day 33).
fn imports(r: &mut Rng, w: &World, v: &mut Vec<Row>, evs: &mut Vec<E>) {
    let ch = |b: usize| w.books[b].chapters.clone();
    // The docs sync: its first run, then a run on every push to main, creating the pages it does not find by name.
    let mut synced: Vec<usize> = Vec::new();
    let mut names: HashSet<String> = HashSet::new();
    let mut t = START + 11 * DAY + 11 * HOUR + 3 * MINUTE;
    let mut runs = vec![t];
    let mut d = t;
    while d < NOW - HOUR {
        let days = if r.chance(0.5) { 1 } else { r.range(2, 4) };
        d = later(r, d, days);
        runs.push(d);
    }
    let mut removed: Vec<(i64, usize)> = Vec::new();
    let mut stale = vec![START + 41 * DAY, START + 27 * DAY];
    for (i, &run) in runs.iter().enumerate() {
        t = run;
        let n = if i == 0 {
            38
        } else if r.chance(0.45) {
            1 + r.below(2)
        } else {
            0
        };
        let mut todo: Vec<(Row, bool)> = Vec::new();
        // A page someone deleted since the last run is not found by its name: made again, as the file has it (a file
        // the sync had not changed since, which is why it looked stale).
        for &(when, k) in &removed {
            if when < run && when >= runs[i.saturating_sub(1)] {
                todo.push((Row { mark: Mark::Plain, ..v[k].clone() }, true));
            }
        }
        for _ in 0..n {
            let mut name = title(r, Kind::Synced, t);
            while !names.insert(name.clone()) {
                name = format!("{name} ({})", r.pick(WORDS));
            }
            let cs = ch(SYNCED);
            let chapter = Some(cs[r.below(cs.len() as u64) as usize]);
            todo.push((api(t, SYNCED, chapter, SYNC, name, body(r, Kind::Synced, t), true), false));
        }
        for (row, stable) in todo {
            t += r.range(200, 700) * 1_000;
            let row = Row { at: t, calc: t + 40_000, publish: Some(t + r.range(150, 500) * 1_000), ..row };
            let k = push(v, row);
            if !stable {
                synced.push(k);
            }
        }
        // Its updates of pages it made before.
        if i > 0 {
            for _ in 0..r.below(3) {
                let k = synced[r.below(synced.len() as u64) as usize];
                if v[k].publish.is_some_and(|p| p < run) && !removed.iter().any(|&(_, x)| x == k) {
                    evs.push(E { t: run + r.range(1, 30) * SECOND, k, ev: Ev::Edit(SYNC, false) });
                }
            }
        }
        // Days 27 and 41: a page of it deleted by someone who took it for stale.
        if i > 0 && stale.last().is_some_and(|&s| run >= s) {
            stale.pop();
            let fresh: Vec<usize> = synced
                .iter()
                .copied()
                .filter(|&k| !evs.iter().any(|e| e.k == k && matches!(e.ev, Ev::Edit(..))))
                .collect();
            if let Some(&k) = fresh.get(r.below(fresh.len() as u64) as usize) {
                let when = run + r.range(2, 5) * HOUR;
                evs.push(E { t: when, k, ev: Ev::Delete });
                removed.push((when, k));
            }
        }
    }
    for &k in &synced {
        if !removed.iter().any(|&(_, x)| x == k) && v[k].name.starts_with("Runbook") && r.chance(0.3) {
            let days = r.range(1, 10);
            let t = later(r, v[k].at, days);
            evs.push(E { t, k, ev: Ev::Move(ENG, Some(w.books[ENG].chapters[4 + r.below(2) as usize])) });
        }
    }

    // The Confluence import: the admin's script, a page after another; images inlined as data URIs. Its timeout is
    // 20 s; three pages with large images went past it and were sent again.
    let mut t = START + 18 * DAY + 10 * HOUR + 12 * MINUTE;
    let mut names: HashSet<String> = HashSet::new();
    let heavy = [r.range(10, 40) as usize, r.range(50, 90) as usize, r.range(95, 130) as usize];
    for i in 0..138 {
        let cs = ch(LEGACY);
        let chapter = Some(cs[(i * cs.len() / 138).min(cs.len() - 1)]);
        let mut name = title(r, Kind::Legacy, t);
        while !names.insert(name.clone()) {
            name = format!("{name} ({})", r.pick(&["old", "2019", "2021", "v2", "draft"]));
        }
        let mut blocks = body(r, Kind::Legacy, t);
        let big = heavy.contains(&i);
        if big || r.chance(0.15) {
            for _ in 0..1 + r.below(if big { 4 } else { 2 }) {
                blocks.push(image(r, t, true));
            }
        }
        let calc = t + 60_000;
        let took = if big { r.range(21, 28) * SECOND } else { r.range(250, 1_400) * 1_000 };
        let row = Row {
            at: t,
            calc,
            publish: Some(t + took),
            book: LEGACY,
            chapter,
            by: 1,
            name,
            blocks,
            via: Via::Import,
            ..Row::default()
        };
        if big {
            let a = t + 20 * SECOND + r.range(30, 400) * 1_000;
            let g = retried(r, w, v, evs, row, &[a], 0);
            let k = v.len() - 1;
            v[k].calc = a + 60_000;
            v[k].publish = Some(a + r.range(9, 16) * SECOND);
            t = v[k].publish.unwrap_or(a);
            let row = v[g].clone();
            plan(r, w, &row, g, evs);
        } else {
            let k = push(v, row.clone());
            plan(r, w, &row, k, evs);
            t += took;
        }
        t += r.range(30, 300) * 1_000;
    }

    // bsimport of an Obsidian vault, one evening, by a person's own token: Markdown, the editor left as it was.
    let mut t = START + 33 * DAY + 19 * HOUR + 40 * MINUTE;
    for i in 0..64 {
        let cs = ch(VAULT);
        let chapter = Some(cs[(i * cs.len() / 64).min(cs.len() - 1)]);
        let name = format!("{} {}", r.pick(WORDS), r.pick(WORDS));
        let mut blocks = vec![Block::P(format!("#{} [[{} {}]]", r.pick(WORDS), r.pick(WORDS), r.pick(WORDS)))];
        blocks.extend(body(r, Kind::Vault, t));
        let row = Row {
            at: t,
            calc: t + 30_000,
            publish: Some(t + r.range(200, 600) * 1_000),
            book: VAULT,
            chapter,
            by: 12,
            name,
            blocks,
            md: true,
            via: Via::Import,
            ..Row::default()
        };
        let k = push(v, row.clone());
        plan(r, w, &row, k, evs);
        t += r.range(400, 1_100) * 1_000;
    }
}

/// The largest priorities of what is not in the table: per chapter (the pages from before) and per book (its chapters
/// and older root pages), as book sorts leave them.
struct Floors {
    chapter: Vec<Option<i64>>,
    root: Vec<i64>,
}

/// `PageRepo::getNewPriority`: the chapter's last page (the draft itself and other drafts counted) + 1, else 0; in a
/// book's root `BookContents::getLastPriority` (chapters and published root pages, at least 1) + 1.
fn new_priority(st: &[State], fl: &Floors, k: usize) -> i64 {
    let s = &st[k];
    match s.chapter {
        Some(c) => {
            let m = st.iter().filter(|x| x.live && x.chapter == Some(c)).map(|x| x.priority).max();
            m.max(fl.chapter[c]).map_or(0, |m| m + 1)
        }
        None => {
            let m = st
                .iter()
                .filter(|x| x.live && !x.draft && x.chapter.is_none() && x.book == s.book)
                .map(|x| x.priority)
                .max()
                .unwrap_or(0);
            m.max(fl.root[s.book]).max(1) + 1
        }
    }
}

fn slug(r: &mut Rng, st: &[State], w: &World, k: usize) -> String {
    let (name, book) = (&st[k].name, st[k].book);
    let mut s = slugify(name);
    while w.books[book].slugs.contains(&s)
        || st.iter().enumerate().any(|(j, x)| j != k && x.live && x.book == book && x.slug == s)
    {
        s = format!("{s}-{}", r.alnum(3));
    }
    s
}

fn refresh(s: &mut State) {
    let (html, markdown) = render(&s.blocks, s.md);
    s.text = strip(&html);
    (s.html, s.markdown) = (html, markdown);
}

fn replay(r: &mut Rng, w: &World, v: &[Row], mut evs: Vec<E>) -> Vec<State> {
    for (k, x) in v.iter().enumerate() {
        evs.push(E { t: x.at, k, ev: Ev::Insert });
        if let Some(a) = x.autosave {
            evs.push(E { t: a, k, ev: Ev::Autosave });
        }
        if let Some(p) = x.publish {
            evs.push(E { t: x.calc, k, ev: Ev::Calc });
            evs.push(E { t: p, k, ev: Ev::Publish });
        }
    }
    // Book sorts by their owners, and the leaver's pages handed over.
    for _ in 0..12 {
        let b = r.one(&[IT, ENG, PRODUCT, SUPPORT, HR, SECURITY, SALES, LEGACY, LEGACY, SYNCED]);
        let d = START + r.range(if b == LEGACY { 20 } else { 2 }, 54) * DAY;
        let t = later(r, d, 0);
        evs.push(E { t, k: usize::MAX, ev: Ev::Sort(b) });
    }
    evs.push(E { t: LEAVE_AT, k: usize::MAX, ev: Ev::Owner });
    evs.sort_by_key(|e| (e.t, e.k));

    let mut st: Vec<State> = vec![State::default(); v.len()];
    let mut fl = Floors {
        chapter: w.chapters.iter().map(|c| c.floor).collect(),
        root: w.books.iter().map(|b| b.root_floor).collect(),
    };
    for e in evs.iter().filter(|e| e.t < NOW) {
        let k = e.k;
        match e.ev {
            Ev::Insert => {
                let x = &v[k];
                let html = w.books[x.book].template.clone().unwrap_or_default();
                st[k] = State {
                    inserted: true,
                    live: true,
                    draft: true,
                    book: x.book,
                    chapter: x.chapter,
                    name: "New Page".into(),
                    html,
                    editor: "wysiwyg",
                    created: x.at,
                    updated: x.at,
                    upd_by: x.by,
                    owned: x.by,
                    ..State::default()
                };
            }
            Ev::Autosave if st[k].live && st[k].draft => {
                let x = &v[k];
                let s = &mut st[k];
                (s.name, s.blocks, s.md) = (x.name.clone(), x.blocks.clone(), x.md);
                refresh(s);
                if x.md && admin(x.by) {
                    s.editor = "markdown";
                }
                s.updated = e.t;
            }
            Ev::Calc if st[k].live => {
                // A copy takes the priority of its original (`Cloner::entityToInputData` sends every attribute).
                let p = match v[k].copy.as_ref().map(|c| &c.from) {
                    Some(From::Row(o)) => st[*o].priority,
                    Some(From::Old(o)) => o.priority,
                    None => new_priority(&st, &fl, k),
                };
                st[k].pending = p;
            }
            Ev::Publish if st[k].live && st[k].draft => {
                let x = &v[k];
                let (name, blocks, md) = match &x.copy {
                    None => (x.name.clone(), x.blocks.clone(), x.md),
                    Some(c) => {
                        let (n, b, m) = match &c.from {
                            From::Row(o) => (st[*o].name.clone(), st[*o].blocks.clone(), st[*o].md),
                            From::Old(o) => (o.name.clone(), o.blocks.clone(), o.md),
                        };
                        (format!("{n}{}", c.tail), b, m)
                    }
                };
                let s = &mut st[k];
                (s.name, s.blocks, s.md) = (name, blocks, md);
                refresh(s);
                if md && admin(x.by) {
                    s.editor = "markdown";
                }
                (s.draft, s.rev, s.updated, s.upd_by, s.template) = (false, 1, e.t, x.by, x.template);
                s.priority = s.pending;
                st[k].slug = slug(r, &st, w, k);
                if x.twice {
                    let p = new_priority(&st, &fl, k);
                    st[k].priority = p;
                }
            }
            Ev::Edit(by, rename) if st[k].live && !st[k].draft => {
                let s = &mut st[k];
                if s.editor != "markdown" {
                    s.md = false;
                }
                edit(r, &mut s.blocks);
                refresh(s);
                (s.rev, s.updated, s.upd_by) = (s.rev + 1, e.t, by);
                if rename {
                    s.name = match r.below(3) {
                        0 => format!("{} ({})", s.name, r.pick(WORDS)),
                        1 => format!("{} - {}", s.name, r.pick(NAMES)),
                        _ => s.name.replace(" (copy)", "").replace(" (draft)", "") + " (final)",
                    };
                    st[k].slug = slug(r, &st, w, k);
                }
            }
            Ev::Move(book, chapter) if st[k].live && !st[k].draft => {
                if st[k].book == book && st[k].chapter == chapter {
                    continue;
                }
                (st[k].book, st[k].chapter, st[k].updated) = (book, chapter, e.t);
                st[k].slug = slug(r, &st, w, k);
            }
            Ev::Delete if st[k].live => {
                (st[k].live, st[k].deleted, st[k].updated) = (false, Some(e.t), e.t);
                // `autoClearOld`: what went to the recycle bin more than 30 days ago is gone.
                for s in st.iter_mut() {
                    if s.deleted.is_some_and(|d| d < e.t + 10 * SECOND - 30 * DAY) {
                        s.purged = true;
                    }
                }
            }
            Ev::Sort(b) => sort(r, &mut st, &mut fl, w, b, e.t),
            Ev::Owner => {
                for s in st.iter_mut().filter(|s| s.live && s.owned == LEAVER) {
                    (s.owned, s.updated) = (HEIR, e.t);
                }
            }
            _ => {}
        }
    }
    st
}

/// A book sorted: every list renumbered from 0, the older items first, a page or two dragged elsewhere in its list.
fn sort(r: &mut Rng, st: &mut [State], fl: &mut Floors, w: &World, b: usize, t: i64) {
    let mut lists: Vec<(Option<usize>, i64)> = vec![(None, w.books[b].root_pre)];
    lists.extend(w.books[b].chapters.iter().map(|&c| (Some(c), w.chapters[c].pre)));
    for (list, pre) in lists {
        let mut ks: Vec<usize> =
            (0..st.len()).filter(|&j| st[j].live && !st[j].draft && st[j].book == b && st[j].chapter == list).collect();
        ks.sort_by_key(|&j| (st[j].priority, j));
        if ks.len() > 2 && r.chance(0.4) {
            let j = ks.remove(r.below(ks.len() as u64) as usize);
            ks.insert(r.below(ks.len() as u64) as usize, j);
        }
        for (i, &j) in ks.iter().enumerate() {
            let p = pre + i as i64;
            if st[j].priority != p {
                (st[j].priority, st[j].updated) = (p, t);
            }
        }
        match list {
            Some(c) => fl.chapter[c] = (pre > 0).then(|| pre - 1),
            None => fl.root[b] = pre - 1,
        }
    }
}

/// The rows left, in id order, marked: per group the original (else the first extra left) stands for the intent, the
/// rest are the retry's; a plain row equal to an earlier one on all but what each write mints is a legitimate repeat.
fn output(st: &[State], v: &[Row], w: &World) -> Fixture {
    let mut order: Vec<usize> = (0..v.len()).filter(|&k| st[k].inserted).collect();
    order.sort_by_key(|&k| (v[k].at, k));
    let mut id = vec![0_i64; v.len()];
    for (i, &k) in order.iter().enumerate() {
        id[k] = ID0 + i as i64;
    }
    let present = |k: usize| st[k].inserted && !st[k].purged;
    // Per group, the rows left: the original, else the first extra left, stands for the intent.
    let mut first: HashMap<usize, usize> = HashMap::new();
    for &k in order.iter().filter(|&&k| present(k)) {
        let g = v[k].group;
        if k == g || !present(g) {
            first.entry(g).or_insert(k);
        }
    }
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("pages", &columns);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for &k in order.iter().filter(|&&k| present(k)) {
        let s = &st[k];
        let g = v[k].group;
        let chapter = s.chapter.map_or(0, |c| w.chapters[c].id);
        let key = format!(
            "{}|{chapter}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
            w.books[s.book].id,
            s.name,
            s.html,
            s.text,
            s.markdown,
            v[k].by,
            s.upd_by,
            s.owned,
            s.draft,
            s.rev,
            s.template,
            s.editor
        );
        let mark = if first.get(&g) == Some(&k) {
            if seen.get(&key).is_some_and(|&o| o != g) { Mark::Legit } else { Mark::Plain }
        } else {
            Mark::Retry
        };
        seen.entry(key).or_insert(g);
        f.push(&[
            ("id", V::I(id[k])),
            ("book_id", V::I(w.books[s.book].id)),
            ("chapter_id", V::I(chapter)),
            ("name", V::t(&s.name)),
            ("slug", V::t(&s.slug)),
            ("html", V::t(&s.html)),
            ("text", V::t(&s.text)),
            ("priority", V::I(s.priority)),
            ("created_at", V::AtSecs(s.created)),
            ("updated_at", V::AtSecs(s.updated)),
            ("created_by", V::I(v[k].by)),
            ("updated_by", V::I(s.upd_by)),
            ("draft", V::B(s.draft)),
            ("markdown", V::t(&s.markdown)),
            ("revision_count", V::I(s.rev)),
            ("template", V::B(s.template)),
            ("deleted_at", s.deleted.map_or(V::Null, V::AtSecs)),
            ("owned_by", V::I(s.owned)),
            ("editor", V::t(s.editor)),
        ]);
        f.mark(id[k], mark);
        if mark == Mark::Retry && v[k].hidden {
            f.hidden.insert(id[k].to_string());
        }
    }
    f
}
