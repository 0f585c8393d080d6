//! Karakeep, formerly Hoarder (TypeScript: Next.js with tRPC and Hono, Drizzle ORM on better-sqlite3; SQLite only):
//! `bookmarks`, the row every bookmark kind shares (a link's URL is in `bookmarkLinks`, a note's text in
//! `bookmarkTexts`, an uploaded image or PDF in `bookmarkAssets`, all three written here as child tables), as
//! `bookmarks.createBookmark` writes it for the web app's editor card and upload dropzone, the browser extension (the
//! page, or a selection as a text note), the mobile apps (the iOS and Android share sheets, the new-bookmark screen),
//! the REST API `POST /api/v1/bookmarks` (an iOS Shortcut, an n8n workflow behind Miniflux's starring and a Telegram
//! bot), the RSS feed worker and the import worker (Pocket, Omnivore and Karakeep exports), and as the crawler, the
//! inference and embedding workers and the people change it later: a household-and-friends instance of seven people,
//! set up 60 days before the end (the imports in its first fortnight), with OpenAI for tagging and embeddings
//! (auto-indexing is on by default then), Meilisearch for search and vectors, auto-summarization off (the default).
//! Read: karakeep-app/karakeep (7ca5ee2, 2026-08-22) packages/db/schema.ts (`bookmarks`, `bookmarkLinks`,
//! `bookmarkTexts`, `bookmarkAssets`, `createdAtField`, `modifiedAtField`), packages/db/drizzle/0000-0093 (all run on a
//! scratch SQLite file for the DDL below; 0047, 0063, 0069, 0074, 0085, 0091 and 0092 `lastSavedAt` in detail),
//! packages/db/drizzle.ts; packages/trpc/routers/bookmarks.ts (`createBookmark`, `attemptToDedupLink`,
//! `RESAVE_EXEMPT_SOURCES`, `updateBookmark`, `updateBookmarkText`, `deleteBookmark`, `summarizeBookmark`),
//! packages/trpc/models/bookmarks.ts (`delete`), packages/trpc/lib/ruleEngine.ts, packages/shared/types/bookmarks.ts
//! (`zNewBookmarkRequestSchema`), packages/api/routes/bookmarks.ts; apps/workers/workers/feedWorker.ts,
//! importWorker.ts, crawlerWorker.ts, crawler/crawlAndParse.ts (`handleAsAssetBookmark`), inference/inferenceWorker.ts,
//! inference/summarize.ts, inference/tagging.ts, embeddingsWorker.ts, assetPreprocessingWorker.ts;
//! packages/shared/config.ts, packages/shared-server/src/queues.ts, packages/shared/import-export/parsers.ts
//! (`deduplicateBookmarks`) and importer.ts, packages/plugins/vectorstore-meilisearch/index.ts;
//! apps/web/components/dashboard/bookmarks/EditorCard.tsx, apps/web/components/dashboard/UploadDropzone.tsx,
//! packages/shared-react/hooks/bookmarks.ts; apps/browser-extension/src/SavePage.tsx and background/background.ts;
//! apps/mobile/app/sharing.tsx (the escape hatch after 5 s), app/dashboard/bookmarks/new.tsx, lib/upload.ts. Issues #49
//! and #149 (the extension made a bookmark per click before links were deduplicated), #859 (the maintainer: dedup is in
//! the application, exact URLs only, parallel adds can both get in), #1093 (the same URL posted through the API saved
//! again), #364 and PR #488 (PDF and GIF links added again: a link turned into an asset is no longer found by the
//! dedup, still so at this commit), #1197 (imports made parallel after deduplicating the file), #1577 (the iOS share
//! sheet stuck at "Hoarding..." most times though the item is saved; people force-close it and share again), #3018 (the
//! same, 2026), #3056 (asking for a duplicate finder: duplicates pile up unnoticed), #2923.
//! The DDL is the `sqlite_master` text the migrations leave (the columns added by ALTER TABLE at the end), without the
//! foreign key to `user` (not part of the fixture; the test connection enforces foreign keys); the children keep theirs
//! to `bookmarks`.
//! On a create: a link is first looked up by its exact URL among the user's links; if found, the call returns it with
//! `alreadyExists` and writes no row: for every source but `rss` and `import` it re-saves it instead (`lastSavedAt` the
//! request's time, `archived` false, `title`/`note` when sent, `modifiedAt` now). The check runs before the
//! transaction, but better-sqlite3 is synchronous and nothing between the two waits on I/O, so in the web process a
//! second request for the same link sees the first row; only calls started together in one process (the feed worker's
//! `Promise.allSettled` over one fetch's entries) can both pass it. Text notes and assets are never deduplicated. The
//! row: `id` a cuid2, `createdAt` and `lastSavedAt` now in whole seconds (`lastSavedAt` the source's time for an
//! import), `modifiedAt` now, `title` what the client sent (the tab's title from the extension, the entry's title from
//! RSS and imports, none from the share sheets and the editor), `note` and `archived` from imports, `type`, `source`
//! (`extension`, `mobile`, `web` for uploads, none for the editor card, `api` for the REST API, `rss`, `import`),
//! `summarizationStatus` 'pending' for a link else NULL, `taggingStatus` and `embeddingStatus` 'pending', `favourited`
//! false, `summary` NULL.
//! Later: every update also sets `modifiedAt` (Drizzle's `$onUpdate`), the workers' status writes too: a crawled link
//! gets its embedding indexed, its tags and its (skipped) summarization marked 'success' seconds after the crawl; a
//! crawl failing its six tries leaves those three NULL; a link to a PDF (or an image) is downloaded and turned into an
//! asset bookmark (`type` 'asset', its `bookmarkLinks` row replaced by a `bookmarkAssets` one) and then processed as
//! one; notes get tags and embeddings, assets OCR or PDF text, tags, embeddings and 'success' for summarization too.
//! People archive, favourite, add notes, rename, ask for a summary, edit a note's text, and delete (a hard delete: the
//! row is gone), and re-share links they already have (bumping `lastSavedAt`, unarchiving).
//! Retries (about 1.1% of the rows): a share sheet stuck at "Hoarding..." or failing on a flaky network, shared again 6
//! seconds to 12 minutes later (12% of shares from the iPhones, 5% from Android); the extension's popup showing an
//! error and the selection sent again; the editor or the dropzone getting the proxy's 504 after 60 s and the note saved
//! or the file dropped again; the Telegram bot's workflow fired twice (20-100 ms) or re-delivered after a timeout. A
//! retried link makes no row (it re-saves the first), except a PDF link already turned into an asset by then; a note or
//! an asset always makes one. The import worker killed mid-batch by a container restart: the items it had written but
//! not yet marked are reset after an hour and written again (the links are found and skipped, the notes written twice).
//! People delete about a quarter of the older extra rows (a few delete the first one instead) and archive some; the
//! rest stay, and those of the last day (three) are not noticed yet. Three notes shared again 18-45 minutes later on
//! the way home are hidden: a quote shared twice half an hour apart on purpose looks the same.
//! Legitimate repeats: a quote or a note shared again days later; a post cross-posted to two Telegram channels the bot
//! follows, saved twice seconds apart; a feed re-publishing an entry under a new guid in the same fetch (both rows pass
//! the dedup together); chores written into the editor every week or two; the same PDF uploaded again weeks later, or a
//! PDF link shared again after it became an asset. Plain near-repeats: everything a share sheet saves without a title
//! (only the URL tells those apart), import batches written within a second, each RSS fetch's entries in the same
//! second.
//! Guessed: the people, their devices, rates and rhythms (CEST, one in New York); the feeds; the import sizes and
//! pacing; how often saves hang or fail and what people do then; the crawl, OCR and inference timings; the share of PDF
//! links; what people do with their bookmarks later.
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use super::{Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite];

/// `bookmarks` as the migrations leave it (the `user` foreign key left out).
const BOOKMARKS: &str = "CREATE TABLE `bookmarks` (\n\t`id` text PRIMARY KEY NOT NULL,\n\
    \t`createdAt` integer NOT NULL,\n\t`archived` integer DEFAULT false NOT NULL,\n\
    \t`favourited` integer DEFAULT false NOT NULL,\n\t`userId` text NOT NULL, \
    `taggingStatus` text DEFAULT 'pending', `note` text, `title` text, `type` text NOT NULL DEFAULT \"text\", \
    `summary` text, `modifiedAt` integer, `summarizationStatus` text DEFAULT 'pending', `source` text, \
    `embeddingStatus` text DEFAULT 'pending', `lastSavedAt` integer NOT NULL DEFAULT 0\n);
CREATE INDEX `bookmarks_userId_lastSavedAt_id_idx` ON `bookmarks` (`userId`,`lastSavedAt`,`id`);
CREATE INDEX `bookmarks_userId_archived_lastSavedAt_id_idx` ON `bookmarks` (`userId`,`archived`,`lastSavedAt`,`id`);
CREATE INDEX `bookmarks_userId_favourited_lastSavedAt_id_idx` ON `bookmarks` (`userId`,`favourited`,`lastSavedAt`,`id`);
CREATE INDEX `bookmarks_lastSavedAt_idx` ON `bookmarks` (`lastSavedAt`)";

/// The three kinds' tables, as the migrations leave them.
const KINDS: &str = "CREATE TABLE `bookmarkLinks` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`url` text NOT NULL,\n\
    \t`title` text,\n\t`description` text,\n\t`imageUrl` text,\n\t`favicon` text,\n\t`crawledAt` integer, \
    `htmlContent` text, `crawlStatus` text DEFAULT 'pending', `crawlStatusCode` integer DEFAULT 200, `author` text, \
    `publisher` text, `datePublished` integer, `dateModified` integer, `contentAssetId` text, \
    `probeMetadataAt` integer, `readerViewStatus` text, `readerViewScore` integer, `readerViewReasons` text, \
    `readerViewClassifierVersion` integer,\n\
    \tFOREIGN KEY (`id`) REFERENCES `bookmarks`(`id`) ON UPDATE no action ON DELETE cascade\n);
CREATE INDEX `bookmarkLinks_url_idx` ON `bookmarkLinks` (`url`);
CREATE TABLE `bookmarkTexts` (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`text` text, `sourceUrl` text,\n\
    \tFOREIGN KEY (`id`) REFERENCES `bookmarks`(`id`) ON UPDATE no action ON DELETE cascade\n);
CREATE TABLE \"bookmarkAssets\" (\n\t`id` text PRIMARY KEY NOT NULL,\n\t`assetType` text NOT NULL,\n\
    \t`assetId` text NOT NULL, `content` text, `metadata` text, `fileName` text, `sourceUrl` text,\n\
    \tFOREIGN KEY (`id`) REFERENCES `bookmarks`(`id`) ON UPDATE no action ON DELETE cascade\n)";

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Sqlite => format!("{BOOKMARKS};\n{KINDS}"),
        Engine::Postgres | Engine::MySql => unreachable!("Karakeep runs on SQLite only"),
    }
}

const COLUMNS: &str = "id createdAt archived favourited userId taggingStatus note title type summary modifiedAt \
    summarizationStatus source embeddingStatus lastSavedAt";

const NOW: i64 = T0;
const DAYS: i64 = 60;
/// A Sunday in August, when the instance was set up.
const START: i64 = T0 - DAYS * DAY;

const MAYA: usize = 0;
const JONAS: usize = 1;
const LEA: usize = 2;
const TOM: usize = 3;
const SARA: usize = 4;
const BEN: usize = 5;
/// Hours from UTC: Berlin in summer, and Tom in New York.
const TZ: [i64; 7] = [2, 2, 2, -4, 2, 2, 2];
/// Saves per local hour, relative: the commute, lunch, the evening on the sofa.
const RHYTHM: [i64; 24] = [2, 1, 0, 0, 0, 0, 1, 4, 5, 4, 3, 3, 5, 4, 3, 3, 3, 4, 5, 6, 8, 9, 7, 4];
/// The first three mobile notes, screenshots or bot messages after this are saved twice.
const LATE: i64 = NOW - 22 * HOUR;
/// (person, day): the first note shared that day (or after) is shared again on the way home.
const SLOW: [(usize, i64); 3] = [(JONAS, 19), (JONAS, 33), (SARA, 41)];
/// (person, day): the first link shared that day (or after) is a PDF, shared again after it became an asset.
const PDFS: [(usize, i64); 2] = [(LEA, 27), (JONAS, 44)];
/// The day from which the Telegram bot's next message fires its workflow twice.
const DOUBLE: i64 = 36;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Chan {
    ExtLink,
    ExtText,
    MobLink,
    MobText,
    MobShot,
    WebLink,
    WebNote,
    WebUpload,
    WebMd,
    ApiLink,
    ApiText,
    Rss,
    Import,
}

const CHANS: [Chan; 11] = [
    Chan::ExtLink,
    Chan::ExtText,
    Chan::MobLink,
    Chan::MobText,
    Chan::MobShot,
    Chan::WebLink,
    Chan::WebNote,
    Chan::WebUpload,
    Chan::WebMd,
    Chan::ApiLink,
    Chan::ApiText,
];

/// Saves per weekday, per person, in the order of `CHANS`.
#[rustfmt::skip]
const RATES: [[f64; 11]; 7] = [
    [5.0, 0.1, 0.8, 0.1, 0.1, 0.3, 0.5, 0.1, 0.02, 1.5, 0.8],
    [0.3, 0.0, 4.0, 1.8, 1.0, 0.1, 0.05, 0.0, 0.0, 0.0, 0.0],
    [2.0, 0.2, 1.5, 0.3, 0.1, 0.1, 0.1, 0.05, 0.0, 0.0, 0.0],
    [1.5, 0.1, 0.0, 0.0, 0.0, 0.1, 0.05, 0.02, 0.0, 1.0, 0.2],
    [0.2, 0.0, 2.0, 0.6, 0.3, 0.05, 0.1, 0.0, 0.0, 0.0, 0.0],
    [0.2, 0.0, 0.2, 0.0, 0.0, 1.0, 0.2, 0.4, 0.05, 0.0, 0.0],
    [1.0, 0.2, 0.7, 0.1, 0.1, 0.05, 0.05, 0.0, 0.0, 0.0, 0.0],
];
/// How often a share from each person's phone hangs or fails after the save: the iPhones (Maya, Jonas, Sara) often
/// stay at "Hoarding..." (#1577), the Android phones less.
const STUCK: [f64; 7] = [0.12, 0.12, 0.05, 0.0, 0.12, 0.05, 0.05];
/// The share of each person's links that point to a PDF (Lea reads papers).
const PDF: [f64; 7] = [0.02, 0.03, 0.15, 0.02, 0.02, 0.04, 0.02];

struct Feed {
    user: usize,
    site: Option<(&'static str, &'static str)>,
    per_day: f64,
    from_day: i64,
    minute: i64,
}

const FEEDS: [Feed; 8] = [
    Feed { user: MAYA, site: Some(("simonwillison.net", "Simon Willison")), per_day: 2.5, from_day: 1, minute: 7 },
    Feed { user: MAYA, site: Some(("lwn.net", "LWN.net")), per_day: 3.0, from_day: 1, minute: 19 },
    Feed { user: MAYA, site: Some(("jvns.ca", "Julia Evans")), per_day: 0.2, from_day: 1, minute: 33 },
    Feed { user: MAYA, site: Some(("www.seriouseats.com", "Serious Eats")), per_day: 1.5, from_day: 2, minute: 41 },
    Feed { user: MAYA, site: Some(("www.heise.de", "heise online")), per_day: 2.0, from_day: 2, minute: 52 },
    Feed { user: MAYA, site: None, per_day: 1.8, from_day: 5, minute: 3 },
    Feed { user: TOM, site: Some(("arstechnica.com", "Ars Technica")), per_day: 1.5, from_day: 8, minute: 26 },
    Feed { user: TOM, site: Some(("kottke.org", "kottke.org")), per_day: 1.0, from_day: 8, minute: 48 },
];
/// (day, feed): a fetch where an entry came twice under two guids.
const TWINS: [(i64, usize); 4] = [(9, 1), (23, 0), (37, 4), (52, 1)];

#[rustfmt::skip]
const SITES: &[(&str, &str)] = &[
    ("www.theverge.com", "The Verge"), ("arstechnica.com", "Ars Technica"), ("www.nytimes.com", "The New York Times"),
    ("www.theguardian.com", "The Guardian"), ("lwn.net", "LWN.net"), ("medium.com", "Medium"),
    ("www.spiegel.de", "DER SPIEGEL"), ("www.zeit.de", "ZEIT ONLINE"), ("www.seriouseats.com", "Serious Eats"),
    ("blog.cloudflare.com", "The Cloudflare Blog"), ("www.bbc.com", "BBC News"), ("www.heise.de", "heise online"),
    ("www.smashingmagazine.com", "Smashing Magazine"), ("www.wired.com", "WIRED"),
    ("www.atlasobscura.com", "Atlas Obscura"), ("www.quantamagazine.org", "Quanta Magazine"),
    ("www.404media.co", "404 Media"), ("www.bonappetit.com", "Bon Appétit"),
];
#[rustfmt::skip]
const TOPICS: &[&str] = &[
    "self-hosting", "sourdough", "SQLite", "home automation", "e-bikes", "Rust", "heat pumps", "Kubernetes",
    "mechanical keyboards", "language learning", "passkeys", "RSS", "local-first software", "espresso", "trail running",
    "balcony solar", "personal finance", "note-taking", "privacy", "film photography", "night trains", "kimchi",
    "bouldering", "typography", "password managers", "urban gardening", "board games", "the four-day week",
    "open-source funding", "reading on paper",
];
const SUBJECTS: &[&str] = &[
    "Most people",
    "The new release",
    "A small team",
    "My neighbour",
    "The city council",
    "Nobody",
    "This approach",
    "Our old setup",
    "Every guide",
];
const VERBS: &[&str] = &[
    "underestimates",
    "quietly replaced",
    "keeps coming back to",
    "finally explains",
    "makes a strong case for",
    "spent a year on",
    "got wrong about",
];
const TAILS: &[&str] =
    &["", " and it shows", " without any fuss", ", which surprised me", " in under an hour", " at scale"];
const AUTHORS: &[&str] = &[
    "Ursula K. Le Guin",
    "Terry Pratchett",
    "Annie Dillard",
    "Kurt Vonnegut",
    "Mary Oliver",
    "Italo Calvino",
    "Octavia E. Butler",
    "Jenny Odell",
];
const TASKS: &[&str] = &[
    "book the dentist",
    "renew the passport",
    "order filters",
    "call the landlord",
    "return the drill",
    "send the invoice",
    "buy birthday card",
    "fix bike light",
];
const CHANNELS: &[&str] = &["Tagesschau", "The Economist", "Rust Weekly", "self-hosted news", "Kottke Bits"];
/// Maya's chores in the editor: the note, and how many days apart.
const CHORES: [(&str, i64, i64); 3] = [
    ("- [ ] descale the espresso machine\n- [ ] wash the grinder burrs", 14, 3),
    ("- [ ] water the balcony plants\n- [ ] paper recycling out", 7, 1),
    ("Pay Zofia for the cleaning (cash, envelope in the drawer)", 14, 9),
];

#[derive(Clone)]
enum Body {
    /// The URL, the page's title, and whether it is a PDF the crawler will turn into an asset.
    Link {
        url: String,
        page: String,
        pdf: bool,
    },
    Text {
        text: String,
        from: Option<String>,
    },
    Asset {
        pdf: bool,
        file: Option<String>,
        content: String,
    },
}

/// A create request as the server got it.
#[derive(Clone)]
struct Req {
    at: i64,
    user: usize,
    chan: Chan,
    /// The request it repeats (the same number for a retry's attempts).
    grp: usize,
    title: Option<String>,
    note: Option<String>,
    archived: bool,
    /// `createdAt` sent by the importer (the source's time, in seconds).
    client: Option<i64>,
    body: Body,
    /// Written in the same fetch as its twin: both pass the dedup.
    race: bool,
    /// A note shared again half an hour later (set on both attempts; only the second is a retry's row).
    hidden: bool,
    /// An attempt after the first.
    extra: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Link,
    Text,
    Asset,
}

#[derive(Clone)]
enum Act {
    Archive,
    Favourite,
    Note(String),
    Title(String),
    Summary(String),
    EditText(String),
    Delete,
}

#[derive(Clone)]
enum Ev {
    Create(usize),
    Convert(usize),
    Done(usize, bool),
    Act(usize, Act),
}

/// A row as it is now.
struct Row {
    req: usize,
    id: String,
    created: i64,
    alive: bool,
    kind: Kind,
    archived: bool,
    fav: bool,
    title: Option<String>,
    note: Option<String>,
    summary: Option<String>,
    modified: i64,
    saved: i64,
    tagging: Option<&'static str>,
    summ: Option<&'static str>,
    emb: Option<&'static str>,
    /// The crawl: status, HTTP status, when.
    crawl: (&'static str, Option<i64>, Option<i64>),
    text: Option<String>,
    processed: bool,
    asset: String,
}

struct World {
    users: Vec<String>,
    reqs: Vec<Req>,
    grps: usize,
    /// Each person's links so far (URL, page title, a PDF), for the ones they save again.
    links: Vec<Vec<(String, String, bool)>>,
    /// Each person's shared notes so far.
    texts: Vec<Vec<String>>,
    /// Ben's uploads so far.
    files: Vec<(String, String)>,
}

impl World {
    fn grp(&mut self) -> usize {
        self.grps += 1;
        self.grps
    }
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

fn span(r: &mut Rng, lo: i64, hi: i64) -> i64 {
    r.range(lo, hi) * SECOND + micros(r)
}

/// A cuid2 as `createId()` makes it: a letter, then 23 of [0-9a-z].
fn cuid(r: &mut Rng) -> String {
    const B36: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut s = String::with_capacity(24);
    s.push(char::from(b'a' + r.below(26) as u8));
    for _ in 0..23 {
        s.push(char::from(B36[r.below(36) as usize]));
    }
    s
}

fn weekend(t: i64) -> bool {
    (t.div_euclid(DAY) + 3) % 7 >= 5
}

/// A moment of a person's local day `day0` (UTC midnight of that date), by their rhythm.
fn when(r: &mut Rng, day0: i64, tz: i64) -> i64 {
    let h = r.weighted(&RHYTHM) as i64;
    day0 + (h - tz) * HOUR + span(r, 0, 3_599)
}

/// `lo`-`hi` seconds after `t`, moved out of the night.
fn later(r: &mut Rng, t: i64, lo: i64, hi: i64, tz: i64) -> i64 {
    let x = t + span(r, lo, hi);
    let h = (x.div_euclid(HOUR) + tz).rem_euclid(24);
    if h < 7 { x + (7 - h) * HOUR + span(r, 0, 3 * 3_600) } else { x }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn headline(r: &mut Rng) -> String {
    let (a, b) = (r.one(TOPICS), r.one(TOPICS));
    match r.below(10) {
        0 => format!("How I learned to stop worrying about {a}"),
        1 => format!("The case for {a}"),
        2 => format!("{} things nobody tells you about {a}", r.range(3, 15)),
        3 => format!("Why {a} and {b} are more alike than you think"),
        4 => format!("A practical guide to {a}"),
        5 => format!("What {a} taught me about {b}"),
        6 => format!("{} is quietly getting better", cap(a)),
        7 => format!("Notes on {a}, {} years in", r.range(2, 12)),
        8 => format!("The hidden cost of {a}"),
        _ => format!("{} in {}: what changed", cap(a), r.range(2025, 2026)),
    }
}

fn line(r: &mut Rng) -> String {
    format!("{} {} {}{}.", r.pick(SUBJECTS), r.pick(VERBS), r.pick(TOPICS), r.pick(TAILS))
}

/// A page: its URL and the title its tab shows.
fn page(r: &mut Rng, site: Option<(&str, &str)>) -> (String, String) {
    let (host, name) = site.unwrap_or_else(|| *r.pick(SITES));
    let h = headline(r);
    let url = match r.below(4) {
        0 => {
            format!("https://{host}/{}/{:02}/{:02}/{}/", r.range(2025, 2026), r.range(1, 12), r.range(1, 28), slug(&h))
        }
        1 => format!("https://{host}/article/{}-{}", slug(&h), r.range(10_000, 999_999)),
        2 => format!("https://{host}/p/{}-{}", slug(&h), r.hex(12)),
        _ => format!("https://{host}/{}-{}?utm_source=rss", slug(&h), r.range(100, 99_999)),
    };
    (url, format!("{h} | {name}"))
}

/// A link to a PDF: the URL and the tab's title (the file's name).
fn pdf_link(r: &mut Rng) -> (String, String) {
    let url = if r.chance(0.6) {
        format!("https://arxiv.org/pdf/26{:02}.{:05}v{}", r.range(1, 8), r.below(30_000), r.range(1, 3))
    } else {
        let (host, _) = *r.pick(SITES);
        format!("https://{host}/wp-content/uploads/2026/0{}/{}.pdf", r.range(1, 8), slug(&headline(r)))
    };
    let name = url.rsplit('/').next().unwrap_or("document.pdf").to_string();
    (url, name)
}

fn basename(url: &str) -> String {
    url.split(['?', '#']).next().unwrap_or(url).trim_end_matches('/').rsplit('/').next().unwrap_or("").to_string()
}

fn host(url: &str) -> &str {
    url.split('/').nth(2).unwrap_or("")
}

/// Something shared from another app as text: a quote, a highlight, a recipe from a chat.
fn quote(r: &mut Rng) -> String {
    match r.below(4) {
        0 => format!("“{}” — {}", line(r), r.pick(AUTHORS)),
        1 => format!("{}\n\n{}, p. {} (Kindle highlight)", line(r), r.pick(AUTHORS), r.range(12, 380)),
        2 => format!(
            "Mum's recipe: {} g flour, {} ml water, {} g salt, rest {} h. {}",
            r.range(4, 10) * 50,
            r.range(6, 14) * 25,
            r.range(8, 14),
            r.range(2, 18),
            line(r)
        ),
        _ => format!("{} {}", line(r), line(r)),
    }
}

fn web_note(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("- [ ] {}\n- [ ] {}", r.pick(TASKS), r.pick(TASKS)),
        1 => format!("Idea: {} for the {} project", headline(r).to_lowercase(), r.pick(TOPICS)),
        _ => format!("Look into {} ({} recommended it)", r.pick(TOPICS), r.pick(AUTHORS)),
    }
}

fn ocr(r: &mut Rng) -> String {
    format!("{}:{:02}\n{}\n{}\n{} likes", r.range(7, 23), r.below(60), headline(r), line(r), r.range(3, 4_000))
}

fn pdf_text(r: &mut Rng) -> String {
    format!("{}\n\nAbstract. {} {}", headline(r), line(r), line(r))
}

fn req(w: &mut World, user: usize, chan: Chan, at: i64, body: Body) -> Req {
    Req {
        at,
        user,
        chan,
        grp: w.grp(),
        title: None,
        note: None,
        archived: false,
        client: None,
        body,
        race: false,
        hidden: false,
        extra: false,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Force {
    No,
    Slow,
    Pdf,
    Double,
}

/// How long after the first attempt each further one lands (and whether it is hidden).
fn attempts(r: &mut Rng, u: usize, chan: Chan, force: Force) -> Vec<(i64, bool)> {
    match force {
        Force::Slow => return vec![(span(r, 18 * 60, 45 * 60), true)],
        Force::Pdf => return vec![(span(r, 25, 60), false)],
        Force::Double => return vec![(r.range(20_000, 100_000), false)],
        Force::No => {}
    }
    let p = match chan {
        Chan::MobLink | Chan::MobText | Chan::MobShot => STUCK[u],
        Chan::ExtLink | Chan::ExtText => 0.03,
        Chan::WebLink | Chan::WebNote | Chan::WebUpload | Chan::WebMd => 0.015,
        Chan::ApiText => 0.06,
        Chan::ApiLink => 0.04,
        Chan::Rss | Chan::Import => return Vec::new(),
    };
    if p <= 0.0 || !r.chance(p) {
        return Vec::new();
    }
    let first = match chan {
        // Stuck at "Hoarding..." or an error: the escape hatch after 5 s, or the app force-closed, and shared again.
        Chan::MobLink | Chan::MobText | Chan::MobShot => {
            let x = r.below(100);
            if x < 62 {
                span(r, 6, 40)
            } else if x < 92 {
                span(r, 40, 300)
            } else {
                span(r, 300, 720)
            }
        }
        // The popup's error, then the page or the selection sent again.
        Chan::ExtLink | Chan::ExtText => span(r, 4, 60),
        // The proxy's 504 after 60 s, then Save again, or the file dropped again.
        Chan::WebLink | Chan::WebNote | Chan::WebUpload | Chan::WebMd => span(r, 61, 120),
        _ => client_retry_delay(r),
    };
    let mut v = vec![(first, false)];
    if r.chance(0.12) {
        v.push((first + span(r, 20, 90), false));
    }
    v
}

/// A link someone saves: mostly a new page, now and then a PDF, or one they already have (the dedup turns that into a
/// re-save).
fn link(r: &mut Rng, w: &World, u: usize, pdf: bool) -> Body {
    if !pdf && !w.links[u].is_empty() && r.chance(0.03) {
        let (url, page, pdf) = r.pick(&w.links[u]).clone();
        return Body::Link { url, page, pdf };
    }
    let pdf = pdf || r.chance(PDF[u]);
    let (url, page) = if pdf { pdf_link(r) } else { page(r, None) };
    Body::Link { url, page, pdf }
}

/// A person's save through one of the interactive channels, and its retries.
fn interactive(r: &mut Rng, w: &mut World, u: usize, chan: Chan, t: i64, force: Force) {
    let mut q = match chan {
        Chan::ExtLink | Chan::MobLink | Chan::WebLink | Chan::ApiLink => {
            let body = link(r, w, u, force == Force::Pdf);
            let mut q = req(w, u, chan, t, body);
            if let Body::Link { url, page, pdf } = &q.body {
                w.links[u].push((url.clone(), page.clone(), *pdf));
                q.title = match chan {
                    Chan::ExtLink => Some(page.clone()),
                    // The n8n workflow sends Miniflux's entry title; Tom's Shortcut only the URL.
                    Chan::ApiLink if u == MAYA => Some(page.split(" | ").next().unwrap_or(page).to_string()),
                    _ => None,
                };
            }
            q
        }
        Chan::ExtText => {
            let (from, _) = page(r, None);
            let text = format!("{} {}", line(r), line(r));
            req(w, u, chan, t, Body::Text { text, from: Some(from) })
        }
        Chan::MobText => {
            let text = if !w.texts[u].is_empty() && r.chance(0.05) { r.pick(&w.texts[u]).clone() } else { quote(r) };
            w.texts[u].push(text.clone());
            req(w, u, chan, t, Body::Text { text, from: None })
        }
        Chan::WebNote => {
            let text = web_note(r);
            req(w, u, chan, t, Body::Text { text, from: None })
        }
        Chan::WebMd => {
            let kind = r.one(&["meeting-notes", "reading-list", "packing-list", "recipe"]);
            let name = format!("{kind}-{}", r.range(1, 99));
            let text = format!("# {}\n\n- {}\n- {}\n", cap(&name.replace('-', " ")), line(r), line(r));
            let mut q = req(w, u, chan, t, Body::Text { text, from: None });
            q.title = Some(name);
            q
        }
        Chan::MobShot => {
            let content = ocr(r);
            req(w, u, chan, t, Body::Asset { pdf: false, file: None, content })
        }
        Chan::WebUpload => {
            let (file, content) = if u == BEN && !w.files.is_empty() && r.chance(0.08) {
                // The same PDF again, weeks later.
                r.pick(&w.files).clone()
            } else if r.chance(0.7) {
                let file = match r.below(3) {
                    0 => format!("Scan_2026-{:02}-{:02}.pdf", r.range(8, 9), r.range(1, 28)),
                    1 => format!("{}.pdf", slug(&headline(r))),
                    _ => format!("Rechnung_{}.pdf", r.range(10_000, 99_999)),
                };
                (file, pdf_text(r))
            } else {
                (format!("IMG_{}.jpeg", r.range(1_000, 9_999)), ocr(r))
            };
            if u == BEN {
                w.files.push((file.clone(), content.clone()));
            }
            let pdf = file.ends_with(".pdf");
            req(w, u, chan, t, Body::Asset { pdf, file: Some(file), content })
        }
        Chan::ApiText => {
            let text = format!("{}: {} {}", r.pick(CHANNELS), headline(r), line(r));
            req(w, u, chan, t, Body::Text { text, from: None })
        }
        Chan::Rss | Chan::Import => return,
    };
    q.hidden = force == Force::Slow;
    for (delay, hidden) in attempts(r, u, chan, force) {
        w.reqs.push(Req { at: t + delay, extra: true, hidden, ..q.clone() });
    }
    if chan == Chan::ApiText && r.chance(0.06) {
        // Cross-posted to a second channel the bot follows: the same text, a new message.
        let at = t + span(r, 3, 90);
        let grp = w.grp();
        w.reqs.push(Req { at, grp, ..q.clone() });
    }
    w.reqs.push(q);
}

/// The feeds, fetched every hour at their minute; all of a fetch's new entries created together.
fn feeds(r: &mut Rng, w: &mut World) {
    let mut twins: Vec<(i64, usize)> = TWINS.to_vec();
    for (fi, f) in FEEDS.iter().enumerate() {
        let mut hour = START + f.from_day * DAY;
        while hour < NOW {
            let local = (hour.div_euclid(HOUR) + TZ[f.user]).rem_euclid(24);
            let busy = if (8..20).contains(&local) { 2.0 } else { 0.3 };
            let n = r.poisson(f.per_day / 24.0 * busy / 1.15);
            let mut at = hour + f.minute * MINUTE + span(r, 1, 25);
            let day = (hour - START) / DAY;
            let twin = n > 0 && twins.iter().position(|&(d, x)| d == day && x == fi).map(|i| twins.remove(i)).is_some();
            for i in 0..n {
                at += r.range(2_000, 15_000);
                let (url, page) = page(r, f.site);
                let title = page.split(" | ").next().map(str::to_string);
                let mut q = req(w, f.user, Chan::Rss, at, Body::Link { url, page, pdf: false });
                q.title = title;
                if twin && i == 0 {
                    at += r.range(2_000, 15_000);
                    let grp = w.grp();
                    w.reqs.push(Req { at, grp, race: true, ..q.clone() });
                }
                w.reqs.push(q);
            }
            hour += HOUR;
        }
    }
}

/// An import session: the staged items in batches of ten written in parallel; after the first five batches each
/// waits for room (items stay in flight until crawled and tagged). `crash`: the batch a container restart killed.
fn import(r: &mut Rng, w: &mut World, items: Vec<Req>, t0: i64, crash: Option<usize>) {
    let mut t = t0;
    let mut stale: Vec<Req> = Vec::new();
    let mut reset = 0;
    for (b, chunk) in items.chunks(10).enumerate() {
        let mut at = t;
        for (i, it) in chunk.iter().enumerate() {
            at += r.range(3_000, 40_000);
            let q = Req { at, ..it.clone() };
            if crash == Some(b) {
                // Killed mid-batch: four were written, none was marked done.
                if i < 4 {
                    w.reqs.push(q.clone());
                }
                stale.push(Req { extra: i < 4, ..q });
            } else {
                w.reqs.push(q);
            }
        }
        if crash == Some(b) {
            // Reset to pending an hour later by the stale-item sweep, then taken in the next batch.
            reset = t + HOUR + span(r, 0, 6 * 60);
            t += span(r, 60, 150);
        }
        t += if b < 4 { span(r, 1, 3) } else { span(r, 50, 140) };
    }
    let mut at = reset.max(t);
    for q in stale {
        at += r.range(3_000, 40_000);
        w.reqs.push(Req { at, ..q });
    }
}

fn imported(w: &mut World, user: usize, body: Body, title: Option<String>, client: i64) -> Req {
    let mut q = req(w, user, Chan::Import, 0, body);
    (q.title, q.client) = (title.filter(|t| !t.is_empty()), Some(client));
    q
}

fn imports(r: &mut Rng, w: &mut World) {
    // Pocket, from Maya: titles mostly, many archived, added over years.
    let mut items = Vec::new();
    for _ in 0..520 {
        let (url, page) = page(r, None);
        let title = r.chance(0.85).then(|| page.split(" | ").next().unwrap_or("").to_string());
        let client = r.range(1_500_000_000, 1_751_000_000);
        let mut q = imported(w, MAYA, Body::Link { url, page, pdf: false }, title, client);
        q.archived = r.chance(0.6);
        items.push(q);
    }
    let t0 = START + 19 * HOUR + 40 * MINUTE - TZ[MAYA] * HOUR;
    import(r, w, items, t0, None);

    // Omnivore, from Jonas.
    let mut items = Vec::new();
    for _ in 0..300 {
        let (url, page) = page(r, None);
        let title = Some(page.split(" | ").next().unwrap_or("").to_string());
        let client = r.range(1_640_000_000, 1_731_000_000);
        let mut q = imported(w, JONAS, Body::Link { url, page, pdf: false }, title, client);
        q.archived = r.chance(0.45);
        items.push(q);
    }
    let t0 = START + 3 * DAY + 21 * HOUR + 10 * MINUTE - TZ[JONAS] * HOUR;
    import(r, w, items, t0, None);

    // Sara's export from her old instance: the links first, then the notes (the parser keeps them last).
    let mut items = Vec::new();
    for k in 0..228 {
        let client = r.range(1_717_000_000, 1_785_000_000);
        let mut q = if k < 180 {
            let (url, page) = page(r, None);
            let title = r.chance(0.9).then(|| page.split(" | ").next().unwrap_or("").to_string());
            imported(w, SARA, Body::Link { url, page, pdf: false }, title, client)
        } else {
            let text = quote(r);
            imported(w, SARA, Body::Text { text, from: None }, None, client)
        };
        q.note = r.chance(0.12).then(|| format!("{} — {}", r.pick(TOPICS), r.pick(TASKS)));
        q.archived = r.chance(0.3);
        items.push(q);
    }
    let t0 = START + 11 * DAY + 20 * HOUR + 30 * MINUTE - TZ[SARA] * HOUR;
    import(r, w, items, t0, Some(20));
}

/// Maya's chores, written into the editor every week or two.
fn chores(r: &mut Rng, w: &mut World) {
    for &(text, every, first) in &CHORES {
        let mut d = first;
        while d < DAYS {
            let t = when(r, START + d * DAY, TZ[MAYA]);
            if t < NOW - MINUTE {
                let q = req(w, MAYA, Chan::WebNote, t, Body::Text { text: text.to_string(), from: None });
                w.reqs.push(q);
            }
            d += every + r.range(-1, 2);
        }
    }
}

/// What the workers do with a new row: the crawl (or the download and the switch to an asset), OCR or PDF text,
/// tagging, embeddings.
fn pipeline(r: &mut Rng, q: &Req, k: usize, t: i64) -> Vec<(i64, Ev)> {
    match &q.body {
        Body::Link { pdf: true, .. } => {
            let c = t + span(r, 3, 20);
            vec![(c, Ev::Convert(k)), (c + span(r, 8, 60), Ev::Done(k, true))]
        }
        Body::Link { .. } => {
            let wait = match q.chan {
                Chan::Import => span(r, 30, 45 * 60),
                Chan::Rss => span(r, 6, 240),
                _ => span(r, 4, 45),
            };
            if r.chance(0.04) {
                vec![(t + wait + span(r, 120, 900), Ev::Done(k, false))]
            } else {
                vec![(t + wait + span(r, 3, 12), Ev::Done(k, true))]
            }
        }
        Body::Text { .. } if q.chan == Chan::Import => vec![(t + span(r, 3, 120), Ev::Done(k, true))],
        Body::Text { .. } => vec![(t + span(r, 2, 10), Ev::Done(k, true))],
        Body::Asset { .. } => vec![(t + span(r, 8, 60), Ev::Done(k, true))],
    }
}

/// What people do with the row later. `first`: the row of the first attempt, for a retry's extra row.
fn acts(r: &mut Rng, q: &Req, k: usize, t: i64, first: Option<usize>) -> Vec<(i64, Ev)> {
    let tz = TZ[q.user];
    let mut v: Vec<(i64, Ev)> = Vec::new();
    if q.hidden {
        // Both kept: nobody noticed the second.
        return v;
    }
    // An extra row of the last day is not noticed yet; of the older ones about a quarter are deleted (a few people
    // delete the first instead) and a tenth archived.
    if q.extra && q.chan != Chan::Import && t < NOW - DAY {
        let x = r.below(100);
        if x < 28 {
            v.push((later(r, t, 60, 3 * 86_400, tz), Ev::Act(k, Act::Delete)));
            return v;
        } else if x < 33 {
            if let Some(f) = first {
                v.push((later(r, t, 60, 3 * 86_400, tz), Ev::Act(f, Act::Delete)));
            }
        } else if x < 43 {
            v.push((later(r, t, 600, 5 * 86_400, tz), Ev::Act(k, Act::Archive)));
            return v;
        }
    }
    let chore =
        q.chan == Chan::WebNote && CHORES.iter().any(|c| matches!(&q.body, Body::Text { text, .. } if text == c.0));
    if chore {
        let x = r.below(100);
        if x < 70 {
            v.push((later(r, t, 3_600, 5 * 86_400, tz), Ev::Act(k, Act::Archive)));
        } else if x < 85 {
            v.push((later(r, t, 3_600, 5 * 86_400, tz), Ev::Act(k, Act::Delete)));
        }
        return v;
    }
    // Archive, favourite, note, title, summary, edit, delete.
    let p: [f64; 7] = match (q.chan, &q.body) {
        (Chan::Rss, _) => [0.45, 0.03, 0.0, 0.0, 0.01, 0.0, 0.06],
        (Chan::Import, _) => [0.05, 0.01, 0.005, 0.0, 0.0, 0.0, 0.015],
        (_, Body::Link { pdf: false, .. }) => [0.35, 0.05, 0.03, 0.015, 0.03, 0.0, 0.05],
        (_, Body::Text { .. }) => [0.2, 0.06, 0.02, 0.0, 0.0, 0.05, 0.06],
        _ => [0.2, 0.03, 0.0, 0.05, 0.0, 0.0, 0.07],
    };
    if !q.archived && r.chance(p[0]) {
        let hi = if q.chan == Chan::Rss { 10 } else { 25 };
        v.push((later(r, t, 2 * 3_600, hi * 86_400, tz), Ev::Act(k, Act::Archive)));
    }
    if r.chance(p[1]) {
        v.push((later(r, t, 300, 20 * 86_400, tz), Ev::Act(k, Act::Favourite)));
    }
    if r.chance(p[2]) {
        let why = r.one(&["read later", "for the trip", "send to Jonas", "good intro"]);
        let note = format!("{why} ({})", r.pick(TOPICS));
        v.push((later(r, t, 120, 10 * 86_400, tz), Ev::Act(k, Act::Note(note))));
    }
    if r.chance(p[3]) {
        let title = cap(r.one(TOPICS));
        v.push((later(r, t, 60, 7 * 86_400, tz), Ev::Act(k, Act::Title(title))));
    }
    if r.chance(p[4]) {
        let summary = format!("The article argues that {} {}", r.pick(TOPICS), line(r).to_lowercase());
        v.push((later(r, t, 600, 15 * 86_400, tz), Ev::Act(k, Act::Summary(summary))));
    }
    if r.chance(p[5]) {
        let more = format!("\n\n{}", line(r));
        v.push((later(r, t, 300, 10 * 86_400, tz), Ev::Act(k, Act::EditText(more))));
    }
    if r.chance(p[6]) {
        v.push((later(r, t, 3_600, 20 * 86_400, tz), Ev::Act(k, Act::Delete)));
    }
    v
}

fn schedule(heap: &mut BinaryHeap<Reverse<(i64, usize)>>, evs: &mut Vec<Ev>, t: i64, ev: Ev) {
    heap.push(Reverse((t, evs.len())));
    evs.push(ev);
}

/// Everything in time order: creates (the dedup against the live links), the workers, people.
fn replay(r: &mut Rng, reqs: &[Req]) -> Vec<Row> {
    let mut heap: BinaryHeap<Reverse<(i64, usize)>> = BinaryHeap::new();
    let mut evs: Vec<Ev> = Vec::new();
    for (q, x) in reqs.iter().enumerate() {
        schedule(&mut heap, &mut evs, x.at, Ev::Create(q));
    }
    let mut rows: Vec<Row> = Vec::new();
    let mut urls: HashMap<(usize, String), usize> = HashMap::new();
    let mut first: HashMap<usize, usize> = HashMap::new();
    while let Some(Reverse((t, e))) = heap.pop() {
        if t >= NOW {
            break;
        }
        match evs[e].clone() {
            Ev::Create(qi) => {
                let q = &reqs[qi];
                if let Body::Link { url, .. } = &q.body
                    && !q.race
                    && let Some(&k) = urls.get(&(q.user, url.clone()))
                {
                    // `alreadyExists`: re-saved, except for the feed and import workers.
                    if !matches!(q.chan, Chan::Rss | Chan::Import) {
                        let x = &mut rows[k];
                        (x.saved, x.archived, x.modified) = (t, false, t);
                        if q.title.is_some() {
                            x.title.clone_from(&q.title);
                        }
                    }
                    continue;
                }
                let k = rows.len();
                let kind = match &q.body {
                    Body::Link { url, .. } => {
                        urls.insert((q.user, url.clone()), k);
                        Kind::Link
                    }
                    Body::Text { .. } => Kind::Text,
                    Body::Asset { .. } => Kind::Asset,
                };
                let text = match &q.body {
                    Body::Text { text, .. } => Some(text.clone()),
                    _ => None,
                };
                rows.push(Row {
                    req: qi,
                    id: cuid(r),
                    created: t,
                    alive: true,
                    kind,
                    archived: q.archived,
                    fav: false,
                    title: q.title.clone(),
                    note: q.note.clone(),
                    summary: None,
                    modified: t,
                    saved: q.client.map_or(t, |c| c * SECOND),
                    tagging: Some("pending"),
                    summ: (kind == Kind::Link).then_some("pending"),
                    emb: Some("pending"),
                    crawl: ("pending", None, None),
                    text,
                    processed: false,
                    asset: r.uuid(),
                });
                let earlier = first.get(&q.grp).copied();
                first.entry(q.grp).or_insert(k);
                for (at, ev) in pipeline(r, q, k, t).into_iter().chain(acts(r, q, k, t, earlier)) {
                    schedule(&mut heap, &mut evs, at, ev);
                }
            }
            Ev::Convert(k) => {
                let x = &mut rows[k];
                if x.alive {
                    (x.kind, x.modified) = (Kind::Asset, t);
                    if let Body::Link { url, .. } = &reqs[x.req].body
                        && urls.get(&(reqs[x.req].user, url.clone())) == Some(&k)
                    {
                        urls.remove(&(reqs[x.req].user, url.clone()));
                    }
                }
            }
            Ev::Done(k, ok) => {
                let x = &mut rows[k];
                if !x.alive {
                    continue;
                }
                (x.modified, x.processed) = (t, true);
                match x.kind {
                    Kind::Link if ok => {
                        (x.tagging, x.summ, x.emb) = (Some("success"), Some("success"), Some("success"));
                        x.crawl = ("success", Some(200), Some(t - span(r, 2, 9)));
                    }
                    Kind::Link => {
                        (x.tagging, x.summ, x.emb) = (None, None, None);
                        x.crawl = ("failure", Some(r.one(&[403, 403, 404, 200, 503])), None);
                    }
                    Kind::Text => (x.tagging, x.emb) = (Some("success"), Some("success")),
                    Kind::Asset => {
                        (x.tagging, x.summ, x.emb) = (Some("success"), Some("success"), Some("success"));
                    }
                }
            }
            Ev::Act(k, act) => {
                let x = &mut rows[k];
                if !x.alive {
                    continue;
                }
                x.modified = t;
                match act {
                    Act::Archive => x.archived = true,
                    Act::Favourite => x.fav = true,
                    Act::Note(n) => x.note = Some(n),
                    Act::Title(s) => x.title = Some(s),
                    Act::Summary(s) => x.summary = Some(s),
                    Act::EditText(s) => {
                        if let Some(text) = x.text.as_mut() {
                            text.push_str(&s);
                        }
                    }
                    Act::Delete => {
                        x.alive = false;
                        if let Body::Link { url, .. } = &reqs[x.req].body
                            && urls.get(&(reqs[x.req].user, url.clone())) == Some(&k)
                        {
                            urls.remove(&(reqs[x.req].user, url.clone()));
                        }
                    }
                }
            }
        }
    }
    rows
}

fn source(chan: Chan) -> Option<&'static str> {
    match chan {
        Chan::ExtLink | Chan::ExtText => Some("extension"),
        Chan::MobLink | Chan::MobText | Chan::MobShot => Some("mobile"),
        Chan::WebLink | Chan::WebNote => None,
        Chan::WebUpload | Chan::WebMd => Some("web"),
        Chan::ApiLink | Chan::ApiText => Some("api"),
        Chan::Rss => Some("rss"),
        Chan::Import => Some("import"),
    }
}

/// Everything the request set: equal keys are the same bookmark asked for again.
fn key(q: &Req) -> String {
    let body = match &q.body {
        Body::Link { url, .. } => format!("L{url}"),
        Body::Text { text, from } => format!("T{text}|{from:?}"),
        Body::Asset { pdf, file, content } => format!("A{pdf}|{file:?}|{content}"),
    };
    let head = format!("{}|{:?}|{:?}|{:?}|{}|{:?}", q.user, source(q.chan), q.title, q.note, q.archived, q.client);
    format!("{head}|{body}")
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x4A2A_4EE9);
    let mut w = World {
        users: Vec::new(),
        reqs: Vec::new(),
        grps: 0,
        links: vec![Vec::new(); 7],
        texts: vec![Vec::new(); 7],
        files: Vec::new(),
    };
    w.users = (0..7).map(|_| cuid(&mut r)).collect();
    imports(&mut r, &mut w);
    let mut slow: Vec<(usize, i64)> = SLOW.to_vec();
    let mut pdfs: Vec<(usize, i64)> = PDFS.to_vec();
    let mut double = true;
    for d in 0..DAYS {
        let day0 = START + d * DAY;
        for (u, rates) in RATES.iter().enumerate() {
            for (c, &chan) in CHANS.iter().enumerate() {
                let factor = match (weekend(day0), chan) {
                    (false, _) => 1.0,
                    (true, Chan::MobLink | Chan::MobText | Chan::MobShot) => 1.3,
                    (true, Chan::ApiLink | Chan::ApiText) => 0.7,
                    (true, _) => 0.5,
                };
                for _ in 0..r.poisson(rates[c] * factor) {
                    let t = when(&mut r, day0, TZ[u]);
                    if !(START + HOUR..NOW - MINUTE).contains(&t) {
                        continue;
                    }
                    let mut force = Force::No;
                    if chan == Chan::MobText
                        && let Some(i) = slow.iter().position(|&(p, sd)| p == u && sd <= d)
                    {
                        slow.remove(i);
                        force = Force::Slow;
                    } else if chan == Chan::MobLink
                        && let Some(i) = pdfs.iter().position(|&(p, sd)| p == u && sd <= d)
                    {
                        pdfs.remove(i);
                        force = Force::Pdf;
                    } else if chan == Chan::ApiText && u == MAYA && double && d >= DOUBLE {
                        (double, force) = (false, Force::Double);
                    }
                    interactive(&mut r, &mut w, u, chan, t, force);
                }
            }
        }
    }
    chores(&mut r, &mut w);
    feeds(&mut r, &mut w);
    // Saved twice in the last day.
    let mut late: Vec<Req> = w
        .reqs
        .iter()
        .filter(|q| matches!(q.chan, Chan::MobText | Chan::MobShot | Chan::ApiText) && !q.extra && q.at > LATE)
        .cloned()
        .collect();
    late.sort_by_key(|q| q.at);
    for q in late.into_iter().take(3) {
        let at = q.at + span(&mut r, 8, 40);
        w.reqs.push(Req { at, extra: true, ..q });
    }
    w.reqs.retain(|q| q.at < NOW - SECOND);
    w.reqs.sort_by_key(|q| q.at);
    let rows = replay(&mut r, &w.reqs);

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("bookmarks", &columns);
    let mut links = Child::new(
        "bookmarkLinks",
        &["id", "url", "title", "description", "favicon", "crawledAt", "crawlStatus", "crawlStatusCode"],
    );
    let mut texts = Child::new("bookmarkTexts", &["id", "text", "sourceUrl"]);
    let mut assets = Child::new("bookmarkAssets", &["id", "assetType", "assetId", "content", "fileName", "sourceUrl"]);
    let mut groups: HashSet<usize> = HashSet::new();
    let mut keys: HashSet<String> = HashSet::new();
    for x in rows.iter().filter(|x| x.alive) {
        let q = &w.reqs[x.req];
        let first = groups.insert(q.grp);
        let fresh = keys.insert(key(q));
        let mark = match (first, fresh) {
            (false, _) => Mark::Retry,
            (true, false) => Mark::Legit,
            (true, true) => Mark::Plain,
        };
        let kind = match x.kind {
            Kind::Link => "link",
            Kind::Text => "text",
            Kind::Asset => "asset",
        };
        f.push(&[
            ("id", V::t(&x.id)),
            ("createdAt", V::I(x.created / SECOND)),
            ("archived", V::B(x.archived)),
            ("favourited", V::B(x.fav)),
            ("userId", V::t(&w.users[q.user])),
            ("taggingStatus", V::opt_t(x.tagging)),
            ("note", V::opt_t(x.note.as_deref())),
            ("title", V::opt_t(x.title.as_deref())),
            ("type", V::t(kind)),
            ("summary", V::opt_t(x.summary.as_deref())),
            ("modifiedAt", V::I(x.modified / SECOND)),
            ("summarizationStatus", V::opt_t(x.summ)),
            ("source", V::opt_t(source(q.chan))),
            ("embeddingStatus", V::opt_t(x.emb)),
            ("lastSavedAt", V::I(x.saved / SECOND)),
        ]);
        f.mark(&x.id, mark);
        if mark == Mark::Retry && q.hidden {
            f.hidden.insert(x.id.clone());
        }
        match (&q.body, x.kind) {
            (Body::Link { url, page, .. }, Kind::Link) => {
                let ok = x.crawl.0 == "success";
                let title = page.split(" | ").next().unwrap_or(page);
                let about = format!("{} {}", title, r.pick(TAILS)).trim_end().to_string();
                links.push(&[
                    ("id", V::t(&x.id)),
                    ("url", V::t(url)),
                    ("title", if ok { V::t(title) } else { V::Null }),
                    ("description", if ok { V::t(about) } else { V::Null }),
                    ("favicon", if ok { V::t(format!("https://{}/favicon.ico", host(url))) } else { V::Null }),
                    ("crawledAt", V::opt_i(x.crawl.2.map(|c| c / SECOND))),
                    ("crawlStatus", V::t(x.crawl.0)),
                    ("crawlStatusCode", V::opt_i(x.crawl.1.or(Some(200)))),
                ]);
            }
            (Body::Link { url, .. }, _) => assets.push(&[
                ("id", V::t(&x.id)),
                ("assetType", V::t("pdf")),
                ("assetId", V::t(&x.asset)),
                ("content", if x.processed { V::t(pdf_text(&mut r)) } else { V::Null }),
                ("fileName", V::t(basename(url))),
                ("sourceUrl", V::t(url)),
            ]),
            (Body::Text { from, .. }, _) => texts.push(&[
                ("id", V::t(&x.id)),
                ("text", V::opt_t(x.text.as_deref())),
                ("sourceUrl", V::opt_t(from.as_deref())),
            ]),
            (Body::Asset { pdf, file, content }, _) => assets.push(&[
                ("id", V::t(&x.id)),
                ("assetType", V::t(if *pdf { "pdf" } else { "image" })),
                ("assetId", V::t(&x.asset)),
                ("content", if x.processed { V::t(content) } else { V::Null }),
                ("fileName", V::opt_t(file.as_deref())),
                ("sourceUrl", V::Null),
            ]),
        }
    }
    f.children = vec![links, texts, assets];
    f
}
