//! linkding (Python, Django; SQLite by default, PostgreSQL supported): `bookmarks_bookmark`, as the web form (and the
//! bookmarklet that opens it), the browser extension, mobile share-sheet apps and scripts through the REST API (POST to
//! `/api/bookmarks/`), the Netscape HTML importer and the background tasks write it: a family-and-friends instance set
//! up at T0 (8 accounts, one of them an n8n RSS bot), three people's browser exports imported in the first days, then
//! 42 days of use.
//! Read: sissbruecker/linkding (65813a7) bookmarks/models.py (`Bookmark`, `Bookmark.save`, `query_existing`,
//! `BookmarkAsset`, `UserProfile` defaults), bookmarks/migrations/ 0001-0006, 0009, 0014, 0016, 0018, 0022, 0030, 0034,
//! 0041 (website_title/website_description made obsolete), 0044, 0046, 0047, 0051; bookmarks/services/bookmarks.py
//! (`create_bookmark`, `update_bookmark`, `_merge_bookmark_data`, `enhance_with_website_metadata`, the bulk actions),
//! services/importer.py, services/parser.py, services/tasks.py (favicon, preview image, web archive and HTML snapshot
//! tasks, huey settings), services/assets.py, services/favicon_loader.py, services/preview_image_loader.py,
//! services/website_loader.py (`lru_cache`, 10 s timeout), services/wayback.py, utils.py (`normalize_url`,
//! `parse_timestamp`), api/serializers.py (`BookmarkSerializer.create`), api/routes.py (`check`, `singlefile`),
//! forms.py (`BookmarkForm.save`), views/bookmarks.py (`new`, `mark_as_read`, `update_state`, `unshare`, `archive`),
//! settings/base.py (no ATOMIC_REQUESTS, huey consumer), uwsgi.ini (2 processes x 2 threads), bootstrap.sh (WAL);
//! sissbruecker/linkding-extension (00f9e56) src/linkding.js (`saveBookmark` posts with `?disable_scraping`),
//! src/popup-form.js (`initForm`, `handleSubmit`), src/background.js (`saveToLinkding`, the context menu).
//! On a create: `create_bookmark` first looks the URL up for that user (`query_existing`: same owner and same
//! `url_normalized`, i.e. scheme and host lowercased, trailing slashes dropped, query parameters sorted, fragment
//! kept); if found it updates that row instead (title, description, notes, unread, shared from the request,
//! `date_modified` now) and inserts nothing. Otherwise: `id` from the table's sequence (AUTOINCREMENT / identity);
//! `url` as sent; `url_normalized` computed in `save()`; `title`/`description` as sent (the extension and the form send
//! what the server's metadata scrape found; a share app sends none and `enhance_with_website_metadata` fills them after
//! the insert unless `?disable_scraping`); `notes` as sent else ""; `website_title`/`website_description` NULL
//! (obsolete since 0041, never written); `web_archive_snapshot_url`, `favicon_file`, `preview_image_file` "" at insert;
//! `unread`/`shared` as sent (the extension's and apps' own settings, the form's profile defaults); `is_archived`
//! false; `owner_id` the token's or session's user; `date_added` now unless the client sent one (a sync script does),
//! `date_modified` a few us later; `date_accessed` NULL (nothing writes it); `latest_snapshot_id` NULL. The insert
//! autocommits at once (no request transaction). The importer bulk-inserts 200 rows a statement with `date_added` from
//! ADD_DATE (seconds), `date_modified` from LAST_MODIFIED or `date_added`, skips URLs repeated in the file and
//! bulk-updates the user's rows it already has (date_added, date_modified, title... from the file).
//! Later: huey (polling every 5-10 s) loads the favicon (`https_host.png`, by update_fields) and the preview image (md5
//! of the og:image URL) for users who enabled them, and, for the one who enabled it, a Wayback Machine capture
//! (`https://web.archive.org/web/<ts>/<url>`, "" when rate-limited); the API's `enhance` full `save()` a second or two
//! later can write an empty `favicon_file`/`preview_image_file` back over a task that finished first. The HTML snapshot
//! task (plus image: on for every create but imports, the bot's account off) runs each minute, five pending assets in
//! order, one at a time, and sets `latest_snapshot_id` and `date_modified` (7% fail: no change); an extension set to
//! run SingleFile skips it and uploads its own snapshot seconds later (to `query_existing(...).first()`, the oldest
//! row). People mark read (single action and the details modal keep `date_modified`, the bulk action bumps it),
//! archive, edit notes/titles/tags, share and unshare, delete (hard); re-saving a URL they have updates its row.
//! Retries (6-20% of the people's and the script's creates are sent twice; about 2.5% leave an extra row, the bot's
//! none): the extension's Save or the form sent twice 20-100 ms apart, share apps and the sync script re-sending after
//! 10-60 s. The lookup stops nearly all of them: the second request finds the first's committed row and only bumps
//! `date_modified`. An extra row needs the second request's lookup to run before the first's insert lands: a double
//! submit while the first's insert waits on SQLite's write lock or a loaded server (up to 4.5 s, under SQLite's 5 s
//! busy timeout), or a timed-out request still queued for a uwsgi worker, picked up together with its resend
//! (date_added then ms to 2.5 s apart although the client sent them 10-60 s apart). Three in the last day. Each copy
//! lives its own life: one of the pair deleted (the copy or the original), worked on apart, or left; copies get their
//! own snapshot asset, a cached or no Wayback capture, and the SingleFile upload goes to the original. A copy whose
//! title, description or notes differ from its original's (the share app's scrape failed on one attempt, or one of the
//! pair was annotated or retitled later) is hidden.
//! Legitimate repeats: the same link saved by several accounts (family and team chats, 15 s to 3 days apart, some via a
//! share URL); one person's URL variants (tracking parameters, anchors, http) days apart or, from the context menu on
//! two links of a page, seconds apart; the bot's WordPress feeds posting an item in the main and a tag feed (same title
//! and summary, other utm parameters) in the same poll or the next; the family laptop's Chrome export imported by two
//! accounts (same URL, title and ADD_DATE); variants inside one export. Not marked, as they are other pages: the same
//! scraped title on different URLs (Cloudflare's "Just a moment...", Reddit's block page, a recipe name), hnrss posting
//! an article a blog feed had posted, with its own summary.
//! Guessed: the accounts, their settings, rates and rhythms; the apps' and extension's resend rates; how often the
//! write lock or a full worker pool holds an insert up; the bot's feeds and workflow; the sites, titles, og:images and
//! scrape failures; the imports' contents; the snapshot durations and failure rate; the people's later actions.
use std::collections::{HashMap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, secs, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::Postgres];

/// The table as Django's migrations leave it on a new install (the last SQLite rebuild is 0046's, adding
/// `url_normalized` at the end), without the foreign keys to `auth_user` and `bookmarks_bookmarkasset`.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Sqlite => r#"CREATE TABLE "bookmarks_bookmark" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT,
    "url" varchar(2048) NOT NULL, "title" varchar(512) NOT NULL, "description" text NOT NULL,
    "website_title" varchar(512) NULL, "website_description" text NULL, "unread" bool NOT NULL,
    "date_added" datetime NOT NULL, "date_modified" datetime NOT NULL, "date_accessed" datetime NULL,
    "owner_id" integer NOT NULL, "is_archived" bool NOT NULL, "web_archive_snapshot_url" varchar(2048) NOT NULL,
    "shared" bool NOT NULL, "favicon_file" varchar(512) NOT NULL, "notes" text NOT NULL,
    "preview_image_file" varchar(512) NOT NULL, "latest_snapshot_id" integer NULL,
    "url_normalized" varchar(2048) NOT NULL);
CREATE INDEX "bookmarks_bookmark_owner_id_051b24cc" ON "bookmarks_bookmark" ("owner_id");
CREATE INDEX "bookmarks_bookmark_latest_snapshot_id_ed3c8c2b" ON "bookmarks_bookmark" ("latest_snapshot_id");
CREATE INDEX "bookmarks_bookmark_url_normalized_8b3c53e4" ON "bookmarks_bookmark" ("url_normalized");"#
            .to_string(),
        Engine::Postgres => r#"CREATE TABLE "bookmarks_bookmark" (
    "id" integer NOT NULL PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY, "url" varchar(2048) NOT NULL,
    "title" varchar(512) NOT NULL, "description" text NOT NULL, "website_title" varchar(512) NULL,
    "website_description" text NULL, "unread" boolean NOT NULL, "date_added" timestamp with time zone NOT NULL,
    "date_modified" timestamp with time zone NOT NULL, "date_accessed" timestamp with time zone NULL,
    "owner_id" integer NOT NULL, "is_archived" boolean NOT NULL, "web_archive_snapshot_url" varchar(2048) NOT NULL,
    "shared" boolean NOT NULL, "favicon_file" varchar(512) NOT NULL, "notes" text NOT NULL,
    "preview_image_file" varchar(512) NOT NULL, "latest_snapshot_id" integer NULL,
    "url_normalized" varchar(2048) NOT NULL
);
CREATE INDEX "bookmarks_bookmark_owner_id_051b24cc" ON "bookmarks_bookmark" ("owner_id");
CREATE INDEX "bookmarks_bookmark_latest_snapshot_id_ed3c8c2b" ON "bookmarks_bookmark" ("latest_snapshot_id");
CREATE INDEX "bookmarks_bookmark_url_normalized_8b3c53e4" ON "bookmarks_bookmark" ("url_normalized");
CREATE INDEX "bookmarks_bookmark_url_normalized_8b3c53e4_like" ON "bookmarks_bookmark"
    ("url_normalized" varchar_pattern_ops);"#
            .to_string(),
        Engine::MySql => unreachable!("linkding supports SQLite and PostgreSQL only"),
    }
}

const COLUMNS: &str = "id url title description website_title website_description unread date_added date_modified \
    date_accessed owner_id is_archived web_archive_snapshot_url shared favicon_file notes preview_image_file \
    latest_snapshot_id url_normalized";

const START: i64 = T0;
const DAYS: i64 = 42;
const NOW: i64 = START + DAYS * DAY;
/// The first create after each of these is sent twice and both land.
const LATE: [i64; 3] = [NOW - 21 * HOUR, NOW - 9 * HOUR, NOW - 3 * HOUR];

/// How a create reached the server.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Chan {
    /// The extension's popup (`?disable_scraping`, the server's metadata as title and description).
    #[default]
    Ext,
    /// The extension's "Save to linkding" on a link.
    Menu,
    /// The web form (bookmarklet, "Add bookmark").
    Form,
    /// A share-sheet app: the URL only, scraped by `enhance_with_website_metadata`.
    App,
    /// The GitHub stars sync script (title, description, date_added sent).
    Stars,
    /// The n8n RSS workflow.
    Feed,
    Import,
}

/// An account: (favicons, preview images, Wayback, automatic HTML snapshots, SingleFile upload from the extension),
/// unread and shared as the extension, its menu, the form and the app send them, creates a day, the mix of channels
/// (extension, menu, form, app), UTC offset, circle (0 family, 1 team), day joined, the mix of sites.
struct User {
    fav: bool,
    prev: bool,
    wayback: bool,
    snaps: bool,
    upload: bool,
    unread: [bool; 4],
    shared: [bool; 4],
    rate: f64,
    mix: [i64; 4],
    tz: i64,
    circle: usize,
    join: i64,
    kinds: [i64; 15],
}

const F: bool = false;
const T: bool = true;
#[rustfmt::skip]
static USERS: [User; 8] = [
    // anna, the admin.
    User { fav: T, prev: T, wayback: T, snaps: T, upload: F, unread: [F, F, F, T], shared: [F; 4], rate: 4.4,
        mix: [62, 14, 6, 18], tz: 1, circle: 0, join: 0, kinds: [14, 6, 5, 5, 8, 10, 2, 2, 2, 3, 6, 5, 5, 3, 2] },
    // ben
    User { fav: T, prev: F, wayback: F, snaps: T, upload: F, unread: [F; 4], shared: [T, T, F, T], rate: 3.2,
        mix: [45, 5, 0, 50], tz: 1, circle: 0, join: 0, kinds: [8, 10, 8, 3, 10, 6, 3, 2, 1, 5, 2, 8, 4, 3, 1] },
    // carla
    User { fav: T, prev: T, wayback: F, snaps: T, upload: F, unread: [T; 4], shared: [F; 4], rate: 2.4,
        mix: [0, 0, 85, 15], tz: 1, circle: 0, join: 1, kinds: [6, 0, 1, 4, 8, 14, 0, 0, 0, 0, 20, 5, 6, 5, 2] },
    // dev, runs the stars script.
    User { fav: T, prev: F, wayback: F, snaps: T, upload: T, unread: [F; 4], shared: [T, T, T, F], rate: 2.6,
        mix: [80, 20, 0, 0], tz: -5, circle: 1, join: 3, kinds: [12, 20, 10, 3, 4, 2, 8, 6, 6, 10, 0, 3, 4, 1, 4] },
    // eva
    User { fav: F, prev: F, wayback: F, snaps: T, upload: F, unread: [F, F, F, T], shared: [F; 4], rate: 2.8,
        mix: [0, 0, 12, 88], tz: 1, circle: 0, join: 2, kinds: [6, 1, 1, 4, 12, 10, 0, 0, 0, 0, 10, 8, 6, 6, 1] },
    // finn
    User { fav: F, prev: F, wayback: F, snaps: T, upload: F, unread: [F; 4], shared: [F; 4], rate: 1.0,
        mix: [90, 10, 0, 0], tz: 0, circle: 1, join: 6, kinds: [10, 10, 6, 4, 6, 4, 4, 4, 2, 6, 1, 4, 4, 2, 2] },
    // feeds, the n8n bot's account.
    User { fav: T, prev: F, wayback: F, snaps: F, upload: F, unread: [T; 4], shared: [F; 4], rate: 0.0,
        mix: [0, 0, 0, 0], tz: 0, circle: 2, join: 4, kinds: [0; 15] },
    // hugo
    User { fav: F, prev: T, wayback: F, snaps: T, upload: F, unread: [F, T, F, F], shared: [F; 4], rate: 1.8,
        mix: [55, 45, 0, 0], tz: 2, circle: 1, join: 3, kinds: [12, 8, 6, 6, 6, 6, 4, 6, 4, 6, 2, 4, 6, 2, 4] },
];
const ANNA: usize = 0;
const BEN: usize = 1;
const DEV: usize = 3;
const BOT: usize = 6;
const HUGO: usize = 7;

/// Creates per local hour, relative.
const RHYTHM: [i64; 24] = [2, 1, 0, 0, 0, 0, 1, 3, 4, 4, 3, 3, 5, 4, 3, 3, 3, 4, 6, 8, 9, 8, 6, 3];

#[rustfmt::skip]
const TOPICS: &[&str] = &[
    "SQLite WAL mode", "the Postgres query planner", "async Rust", "ZFS snapshots", "Kubernetes operators",
    "Nix flakes", "TLS certificate rotation", "DNS over HTTPS", "Raspberry Pi clusters", "the Linux page cache",
    "git rebase", "CSS container queries", "WebAssembly components", "self-hosted email", "Tailscale ACLs",
    "Home Assistant automations", "mechanical keyboards", "static site generators", "the OAuth device flow",
    "vector search", "LLM evals", "sourdough starters", "bike commuting", "espresso grinders", "3D printing tolerances",
    "Docker image layers", "systemd timers", "Python packaging", "TypeScript generics", "htmx", "Django signals",
    "Go generics", "eBPF", "Bloom filters", "CRDTs", "feature flags", "on-call rotations", "code review",
    "technical debt", "event sourcing", "home network VLANs", "backup strategies", "passkeys", "Zig comptime",
    "Postgres vacuum", "Redis streams", "Kafka consumer groups", "OpenTelemetry", "Grafana dashboards", "monorepos",
];
#[rustfmt::skip]
const TEMPLATES: &[&str] = &[
    "Understanding {}", "A practical guide to {}", "Why we moved away from {}", "What I learned from a year of {}",
    "Notes on {}", "How {} actually works", "Debugging {} in production", "The case against {}",
    "Getting started with {}", "{} in 2026", "Everything you need to know about {}", "Lessons from scaling {}",
    "A visual introduction to {}", "Stop worrying about {}", "{}, explained", "I was wrong about {}",
];
#[rustfmt::skip]
const BLURBS: &[&str] = &[
    "A look at how {} works under the hood, with examples.", "In this post I walk through {} step by step.",
    "Practical notes on {} from running it in production.",
    "We rebuilt part of our stack around {}. Here is what we learned.",
    "Everything I wish I had known before starting with {}.", "A short explainer on {} and when to use it.",
    "Some thoughts on {} after the latest release.", "Benchmarks, trade-offs and pitfalls of {}.",
];
/// Blogs: host, path style, title suffix.
#[rustfmt::skip]
const BLOGS: &[(&str, u8, &str)] = &[
    ("jvns.ca", 0, ""), ("simonwillison.net", 1, ""), ("danluu.com", 3, ""), ("blog.cloudflare.com", 3, ""),
    ("fly.io", 2, " · The Fly Blog"), ("tailscale.com", 2, " | Tailscale"),
    ("www.jeffgeerling.com", 0, " | Jeff Geerling"), ("martinfowler.com", 2, ""), ("blog.codinghorror.com", 3, ""),
    ("rachelbythebay.com", 3, ""), ("www.brendangregg.com", 0, ""), ("xeiaso.net", 0, " - Xe Iaso"),
];
const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
#[rustfmt::skip]
const OWNERS: &[&str] = &[
    "sissbruecker", "astral-sh", "tailscale", "immich-app", "jellyfin", "home-assistant", "neovim", "BurntSushi",
    "tokio-rs", "sharkdp", "charmbracelet", "ollama", "sveltejs", "vitejs", "pi-hole", "louislam", "caddyserver",
    "paperless-ngx", "jgm", "junegunn", "kovidgoyal", "syncthing", "restic", "borgbackup", "simonw", "htmx-org",
];
const PREFIXES: &[&str] = &["", "", "", "go-", "py", "rs-", "open", "mini", "tiny", "awesome-", "self-", "hyper"];
#[rustfmt::skip]
const THINGS: &[&str] = &[
    "bookmark manager", "static site generator", "log viewer", "backup tool", "markdown editor", "password manager",
    "RSS reader", "photo library", "task runner", "DNS server", "git client", "load balancer", "music server",
    "note taking app", "terminal emulator", "package manager",
];
#[rustfmt::skip]
const REPO_WORDS: &[&str] = &[
    "hosted", "link", "sync", "vault", "dash", "feed", "notes", "photos", "lens", "pipe", "deck", "shelf", "atlas",
    "relay", "lint", "fmt", "probe", "cache", "queue", "board",
];
const ADJS: &[&str] = &["A fast", "A minimal", "A self-hosted", "A lightweight", "A simple", "A modern", "A tiny"];
const SUFFIXES: &[&str] = &[" written in Rust", " for your homelab", " in a single binary", " with a web UI", ""];
#[rustfmt::skip]
const WIKI: &[(&str, &str)] = &[
    ("Bloom_filter", "Bloom filter"), ("Byzantine_fault", "Byzantine fault"), ("Conway%27s_law", "Conway's law"),
    ("Lindy_effect", "Lindy effect"), ("Raft_(algorithm)", "Raft (algorithm)"), ("Goodhart%27s_law", "Goodhart's law"),
    ("Zipf%27s_law", "Zipf's law"), ("Chesterton%27s_fence", "Chesterton's fence"),
    ("Maillard_reaction", "Maillard reaction"), ("Rubber_duck_debugging", "Rubber duck debugging"),
    ("Log-structured_merge-tree", "Log-structured merge-tree"), ("Fediverse", "Fediverse"),
    ("Pomodoro_Technique", "Pomodoro Technique"), ("Second-system_effect", "Second-system effect"),
    ("Brooks%27s_law", "Brooks's law"), ("Hyrum%27s_law", "Hyrum's law"), ("Dead_reckoning", "Dead reckoning"),
    ("Espresso", "Espresso"), ("Sourdough", "Sourdough"), ("Paxos_(computer_science)", "Paxos (computer science)"),
    ("Tragedy_of_the_commons", "Tragedy of the commons"), ("Bus_factor", "Bus factor"), ("Gall%27s_law", "Gall's law"),
];
const SUBJECTS: &[&str] = &["EU regulators", "City councils", "Scientists", "Rail operators", "Tech giants", "Farmers"];
const NEWS_VERBS: &[&str] = &["warn over", "push back on", "plan to expand", "struggle with", "vote on", "investigate"];
#[rustfmt::skip]
const NEWS_OBJECTS: &[&str] = &[
    "AI energy use", "housing costs", "night trains", "heatwave plans", "data centre growth", "the four-day week",
    "bike lanes", "broadband rollout", "plastic recycling", "school phone bans", "e-bike batteries", "water bills",
];
const SECTIONS: &[(&str, &str)] = &[
    ("technology", "Technology"),
    ("environment", "Environment"),
    ("business", "Business"),
    ("science", "Science"),
    ("money", "Money"),
    ("food", "Food"),
];
#[rustfmt::skip]
const PY_MODULES: &[(&str, &str)] = &[
    ("asyncio-task", "Coroutines and Tasks"), ("sqlite3", "DB-API 2.0 interface for SQLite databases"),
    ("dataclasses", "Data Classes"), ("itertools", "Functions creating iterators for efficient looping"),
    ("functools", "Higher-order functions and operations on callable objects"),
    ("pathlib", "Object-oriented filesystem paths"), ("typing", "Support for type hints"),
    ("contextlib", "Utilities for with-statement contexts"), ("logging", "Logging facility for Python"),
    ("argparse", "Parser for command-line options, arguments and subcommands"),
    ("datetime", "Basic date and time types"), ("zoneinfo", "IANA time zone support"),
];
#[rustfmt::skip]
const CSS_PROPS: &[&str] = &[
    "grid-template-areas", "container-type", "clamp", "aspect-ratio", ":has", "scroll-snap-type", "text-wrap",
    "color-mix", "view-transition-name", "subgrid", "anchor-name", "@layer",
];
const PAPER_ADJS: &[&str] =
    &["Efficient", "Scalable", "Robust", "Sparse", "Contrastive", "Self-Supervised", "Long-Context"];
const PAPER_NOUNS: &[&str] = &["Transformers", "Diffusion Models", "Agents", "Tokenizers", "State Space Models"];
const PAPER_TASKS: &[&str] = &["Code Generation", "Time Series Forecasting", "Document Retrieval", "Program Repair"];
#[rustfmt::skip]
const QUESTIONS: &[(&str, &str)] = &[
    ("git", "How do I undo the most recent local commits in Git?"), ("python", "How do I check if a list is empty?"),
    ("css", "How can I horizontally center an element?"), ("python", "What does the yield keyword do?"),
    ("sql", "How can I prevent SQL injection in PHP?"), ("git", "How do I delete a Git branch locally and remotely?"),
    ("django", "Django: database is locked error with SQLite"),
    ("bash", "How do I split a string on a delimiter in Bash?"),
    ("postgresql", "How to make a SELECT ... FOR UPDATE skip locked rows?"),
    ("rust", "Why can't I store a value and a reference to that value in the same struct?"),
    ("docker", "How do I get into a Docker container's shell?"),
    ("javascript", "How do I return the response from an asynchronous call?"),
];
#[rustfmt::skip]
const DISHES: &[&str] = &[
    "Crispy Roast Potatoes", "Sourdough Focaccia", "Chicken Adobo", "Mushroom Risotto", "Shakshuka", "Pad Kra Pao",
    "Dal Makhani", "Pumpkin Soup", "Pasta Carbonara", "Banana Bread", "Miso Ramen", "Chili Crisp Noodles",
    "Apple Galette", "Lentil Bolognese", "Cinnamon Rolls", "Thai Green Curry",
];
#[rustfmt::skip]
const SUBS: &[&str] = &[
    "selfhosted", "homelab", "rust", "Python", "programming", "Cooking", "bikecommuting", "espresso", "BuyItForLife",
    "linux", "DataHoarder", "sysadmin",
];
#[rustfmt::skip]
const AUTHORS: &[&str] = &[
    "Sarah Chen", "Tom Becker", "Priya Raman", "Jonas Weber", "Maria Lopez", "Alex Kim", "Lena Fischer", "Sam Okafor",
];
#[rustfmt::skip]
const SHOPS: &[&str] = &[
    "www.etsy.com/listing/{n}/{s}", "www.bhphotovideo.com/c/product/{n}-REG/{s}.html",
    "www.zillow.com/homedetails/{s}/{n}_zpid/", "www.chewy.com/{s}/dp/{n}",
    "www.wayfair.com/furniture/pdp/{s}-w{n}.html",
];
#[rustfmt::skip]
const PDF_HOSTS: &[&str] = &[
    "www.usenix.org/system/files", "www.vldb.org/pvldb/vol19", "research.google/pubs/pdf",
    "www.cs.cmu.edu/~pavlo/papers", "assets.ctfassets.net/report", "www.bundesnetzagentur.de/SharedDocs/Downloads",
];
#[rustfmt::skip]
const NOTES: &[&str] = &[
    "via HN", "recommended by Ben", "for the homelab rebuild", "read before the Q4 planning",
    "good intro, see section 3", "try this on Sunday", "compare with the other article", "from the podcast",
    "Anna sent this", "needs a second read", "useful for the migration", "bookmarked for the talk", "double the garlic",
    "check the comments too",
];
/// Site-wide og:images: Stack Overflow's, arXiv's, MDN's preview files.
const SO_OG: &str = "3f2d5c0a8e6b41f7a9c2d4e6b8f0a1c3.png";
const ARXIV_OG: &str = "9b1e4d7c2a5f8e3b6d0c9a2f5e8b1d4c.png";
const MDN_OG: &str = "c6a0f3e9d2b5a8c1f4e7d0a3b6c9e2f5.png";

#[derive(Clone, Default)]
struct Page {
    url: String,
    /// What the server's scrape finds.
    title: String,
    desc: String,
    /// The title without the site's suffix (a feed's, a person's, a repository's `owner/name`).
    core: String,
    /// A feed's summary, a repository's tagline.
    summary: String,
    /// The preview image file of its og:image.
    og: Option<String>,
    /// The URL it was first found under (its variants keep it).
    base: String,
}

#[derive(Clone)]
enum Act {
    /// `update_bookmark` from a create or re-save that found the row: the request's fields, `date_modified` now.
    Update {
        title: Option<String>,
        desc: Option<String>,
        notes: Option<String>,
        unread: Option<bool>,
        shared: Option<bool>,
    },
    /// The importer's `bulk_update` of a row the user already had.
    Import {
        url: String,
        added: i64,
        modified: i64,
        title: String,
        desc: String,
        unread: bool,
        shared: bool,
    },
    /// Marked read: by the bulk action (bumps `date_modified`) or the single one / the details modal (does not).
    Read(bool),
    Archive,
    /// Shared or unshared: the bulk action bumps, the single unshare does not.
    Share(bool, bool),
    /// The edit form: `update_bookmark`.
    Edit {
        title: Option<String>,
        notes: Option<String>,
    },
    /// A tag change by the edit form or a bulk tag action: only `date_modified` moves.
    Touch,
    /// The HTML snapshot task (or an upload) completed: `latest_snapshot_id` and `date_modified`.
    Snap(i64),
    Delete,
}

/// A create request, then the row it made.
#[derive(Clone, Default)]
struct Bm {
    grp: usize,
    owner: usize,
    chan: Chan,
    /// The client's send time, then the server's insert time.
    at: i64,
    /// `date_added` sent by the client or read from the file.
    added: Option<i64>,
    modified0: Option<i64>,
    url: String,
    title: String,
    desc: String,
    notes: String,
    unread: bool,
    shared: bool,
    pg: Page,
    snap: bool,
    upload: bool,
    fav_lost: bool,
    prev_lost: bool,
    mark: Mark,
    evs: Vec<(i64, Act)>,
    // The row as it is now.
    id: i64,
    alive: bool,
    archived: bool,
    modified: i64,
    fav: String,
    preview: String,
    wayback: String,
    latest: Option<i64>,
}

/// (year, month, day, hour, minute, second) of a UTC time.
fn civil(us: i64) -> (i64, i64, i64, i64, i64, i64) {
    let s = us.div_euclid(SECOND);
    let (days, rem) = (s.div_euclid(86_400), s.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d, rem / 3_600, rem % 3_600 / 60, rem % 60)
}

/// `normalize_url`: scheme and host lowercased, trailing slashes dropped, query parameters sorted, fragment kept.
fn norm(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let (rest, frag) = rest.split_once('#').map_or((rest, ""), |(a, b)| (a, b));
    let (rest, query) = rest.split_once('?').map_or((rest, ""), |(a, b)| (a, b));
    let (host, path) = rest.find('/').map_or((rest, ""), |i| (&rest[..i], &rest[i..]));
    let mut out = format!("{}://{}{}", scheme.to_lowercase(), host.to_lowercase(), path.trim_end_matches('/'));
    let mut pairs: Vec<(&str, &str)> =
        query.split('&').filter(|p| !p.is_empty()).map(|p| p.split_once('=').unwrap_or((p, ""))).collect();
    pairs.sort();
    if !pairs.is_empty() {
        let q: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out = format!("{out}?{}", q.join("&"));
    }
    if !frag.is_empty() {
        out = format!("{out}#{frag}");
    }
    out
}

/// The favicon loader's file: scheme and host with every run of non-word characters made `_`, Google's PNG.
fn favicon(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("https", url));
    let host = rest.split(['/', '?', '#']).next().unwrap_or("").to_lowercase();
    let mut out = String::new();
    let mut run = false;
    for c in format!("{scheme}://{host}").chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
            run = false;
        } else if !run {
            out.push('_');
            run = true;
        }
    }
    out + ".png"
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().collect::<String>() + c.as_str())
}

fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn article(r: &mut Rng) -> String {
    let topic = *r.pick(TOPICS);
    cap(&r.pick(TEMPLATES).replace("{}", topic))
}

fn blurb(r: &mut Rng) -> String {
    let topic = *r.pick(TOPICS);
    r.pick(BLURBS).replace("{}", topic)
}

fn img(r: &mut Rng) -> String {
    let ext = r.one(&["jpg", "jpg", "png", "webp"]);
    format!("{}.{ext}", r.hex(32))
}

fn digits(r: &mut Rng, n: usize) -> String {
    let mut s = r.range(1, 9).to_string();
    for _ in 1..n {
        s.push(char::from(b'0' + r.below(10) as u8));
    }
    s
}

/// A blog post of blog `bi` published shortly before `t`.
fn blog(r: &mut Rng, bi: usize, t: i64) -> Page {
    let (host, style, suffix) = BLOGS[bi];
    let (y, m, d, ..) = civil(t - r.range(0, 12) * DAY);
    let core = article(r);
    let s = slug(&core);
    let path = match style {
        0 => format!("/blog/{y}/{m:02}/{d:02}/{s}/"),
        1 => format!("/{y}/{}/{d}/{s}/", MONTHS[(m - 1) as usize]),
        2 => format!("/blog/{s}/"),
        _ => format!("/{s}/"),
    };
    let desc = if r.chance(0.8) { blurb(r) } else { String::new() };
    let summary = if desc.is_empty() || r.chance(0.5) { blurb(r) } else { desc.clone() };
    let og = r.chance(0.6).then(|| img(r));
    let url = format!("https://{host}{path}");
    Page { base: url.clone(), url, title: format!("{core}{suffix}"), desc, core, summary, og }
}

fn repo(r: &mut Rng) -> Page {
    let owner = *r.pick(OWNERS);
    let name = format!("{}{}{}", r.pick(PREFIXES), r.pick(REPO_WORDS), if r.chance(0.3) { "-rs" } else { "" });
    let core = format!("{owner}/{name}");
    let tagline =
        if r.chance(0.8) { format!("{} {}{}", r.pick(ADJS), r.pick(THINGS), r.pick(SUFFIXES)) } else { String::new() };
    let (title, desc) = if tagline.is_empty() {
        (format!("GitHub - {core}"), format!("Contribute to {core} development by creating an account on GitHub."))
    } else {
        (
            format!("GitHub - {core}: {tagline}"),
            format!("{tagline}. Contribute to {core} development by creating an account on GitHub."),
        )
    };
    let og = Some(format!("{}.png", r.hex(32)));
    let url = format!("https://github.com/{core}");
    Page { base: url.clone(), url, title, desc, core, summary: tagline, og }
}

/// A page of a kind: 0 blog, 1 GitHub, 2 HN thread, 3 Wikipedia, 4 YouTube, 5 news, 6 Python docs, 7 MDN, 8 arXiv,
/// 9 Stack Overflow, 10 recipe, 11 Reddit, 12 Medium, 13 a shop behind Cloudflare, 14 a PDF.
fn page(r: &mut Rng, kind: usize, t: i64) -> Page {
    let (y, m, d, ..) = civil(t - r.range(0, 10) * DAY);
    let plain = |url: String, title: String, desc: String, core: String, og: Option<String>| Page {
        base: url.clone(),
        url,
        title,
        desc,
        core,
        summary: String::new(),
        og,
    };
    match kind {
        0 => {
            let bi = r.below(BLOGS.len() as u64) as usize;
            blog(r, bi, t)
        }
        1 => repo(r),
        2 => {
            let core = if r.chance(0.4) {
                format!("Show HN: {}{}", r.pick(THINGS).replace(' ', "").to_lowercase(), r.pick(SUFFIXES))
            } else {
                article(r)
            };
            let url = format!("https://news.ycombinator.com/item?id=4{}", digits(r, 7));
            plain(url, format!("{core} | Hacker News"), String::new(), core, None)
        }
        3 => {
            let (path, name) = *r.pick(WIKI);
            let og = r.chance(0.5).then(|| img(r));
            plain(
                format!("https://en.wikipedia.org/wiki/{path}"),
                format!("{name} - Wikipedia"),
                String::new(),
                name.into(),
                og,
            )
        }
        4 => {
            let core = article(r);
            let url = format!("https://www.youtube.com/watch?v={}", r.alnum(11));
            let desc = blurb(r);
            let og = Some(format!("{}.jpg", r.hex(32)));
            plain(url, format!("{core} - YouTube"), desc, core, og)
        }
        5 => {
            let core = format!("{} {} {}", r.pick(SUBJECTS), r.pick(NEWS_VERBS), r.pick(NEWS_OBJECTS));
            let (sec, name) = *r.pick(SECTIONS);
            let url = format!(
                "https://www.theguardian.com/{sec}/{y}/{}/{d:02}/{}",
                MONTHS[(m - 1) as usize].to_lowercase(),
                slug(&core)
            );
            let desc = format!(
                "{} say the plans {}.",
                r.pick(SUBJECTS),
                r.pick(&["could change", "come too late", "are overdue"])
            );
            let og = Some(format!("{}.jpg", r.hex(32)));
            plain(url, format!("{core} | {name} | The Guardian"), desc, core, og)
        }
        6 => {
            let (module, what) = *r.pick(PY_MODULES);
            let title = format!("{module} — {what} — Python 3.14.0 documentation");
            let desc = format!("Source code: Lib/{module}.py");
            plain(format!("https://docs.python.org/3/library/{module}.html"), title, desc, what.into(), Some(img(r)))
        }
        7 => {
            let prop = *r.pick(CSS_PROPS);
            let path = prop.trim_start_matches([':', '@']);
            let desc = format!(
                "The {prop} CSS property {}.",
                r.pick(&["sets how an element is laid out", "controls wrapping"])
            );
            let url = format!("https://developer.mozilla.org/en-US/docs/Web/CSS/{path}");
            plain(url, format!("{prop} - CSS | MDN"), desc, prop.into(), Some(MDN_OG.into()))
        }
        8 => {
            let id = format!("{}{:02}.{}", y % 100, m, digits(r, 5));
            let core = format!("{} {} for {}", r.pick(PAPER_ADJS), r.pick(PAPER_NOUNS), r.pick(PAPER_TASKS));
            let desc = format!("Abstract page for arXiv paper {id}: {core}");
            plain(format!("https://arxiv.org/abs/{id}"), format!("[{id}] {core}"), desc, core, Some(ARXIV_OG.into()))
        }
        9 => {
            let (tag, q) = *r.pick(QUESTIONS);
            let url = format!("https://stackoverflow.com/questions/{}/{}", digits(r, 8), slug(q));
            plain(url, format!("{tag} - {q} - Stack Overflow"), q.into(), q.into(), Some(SO_OG.into()))
        }
        10 => {
            let dish = *r.pick(DISHES);
            let url = format!("https://www.seriouseats.com/{}-recipe-{}", slug(dish), digits(r, 7));
            let desc =
                format!("This {} is {}.", dish.to_lowercase(), r.pick(&["weeknight-friendly", "worth the effort"]));
            plain(url, format!("{dish} Recipe"), desc, dish.into(), Some(img(r)))
        }
        11 => {
            let sub = *r.pick(SUBS);
            let core = article(r);
            let url = format!("https://www.reddit.com/r/{sub}/comments/{}/{}/", r.alnum(7).to_lowercase(), slug(&core));
            plain(url, "Reddit - The heart of the internet".into(), String::new(), core, None)
        }
        12 => {
            let author = *r.pick(AUTHORS);
            let core = article(r);
            let url = format!("https://medium.com/@{}/{}-{}", slug(author).replace('-', ""), slug(&core), r.hex(12));
            let desc = blurb(r);
            let og = Some(format!("{}.jpeg", r.hex(32)));
            plain(url, format!("{core} | by {author} | Medium"), desc, core, og)
        }
        13 => {
            let core = format!("{} {}", r.pick(&["Vintage", "Handmade", "Compact", "Walnut", "Linen"]), r.pick(THINGS));
            let url = format!("https://{}", r.pick(SHOPS).replace("{n}", &digits(r, 9)).replace("{s}", &slug(&core)));
            plain(url, "Just a moment...".into(), String::new(), cap(&core), None)
        }
        _ => {
            let core = article(r);
            let url = format!("https://{}/{}.pdf", r.pick(PDF_HOSTS), slug(&core));
            plain(url, String::new(), String::new(), core, None)
        }
    }
}

/// The same page under another URL `normalize_url` does not fold: tracking parameters, an anchor, http, a share tag.
fn variant(r: &mut Rng, p: &Page, how: usize) -> Page {
    let sep = if p.url.contains('?') { '&' } else { '?' };
    let url = match how {
        0 => {
            let src = r.one(&["twitter", "mastodon", "newsletter", "linkedin", "rss", "bluesky"]);
            format!("{}{sep}utm_source={src}&utm_medium=social", p.url)
        }
        1 if !p.url.contains('#') => {
            let anchor = r.one(&["comments", "examples", "summary", "installation", "faq", "conclusion"]);
            format!("{}#{anchor}", p.url)
        }
        2 => p.url.replacen("https://", "http://", 1),
        _ => format!("{}{sep}{}", p.url, r.one(&["ref=share", "CMP=share_btn_url", "s=09", "si=a1b2c3", "ref=hn"])),
    };
    Page { url, ..p.clone() }
}

fn note(r: &mut Rng) -> String {
    r.one(NOTES).to_string()
}

/// A create request of user `u` on a channel for page `pg`, sent at `t`.
fn request(r: &mut Rng, u: usize, chan: Chan, t: i64, pg: &Page) -> Bm {
    let us = &USERS[u];
    let c = (chan as usize).min(3);
    let scraped = matches!(chan, Chan::App | Chan::Stars | Chan::Feed);
    let (mut title, mut desc) = (pg.title.clone(), pg.desc.clone());
    if chan == Chan::App && r.chance(0.05) {
        // The server's scrape failed (timeout, blocked): the fields stay empty.
        (title, desc) = (String::new(), String::new());
    }
    if matches!(chan, Chan::Ext | Chan::Form) && (title.is_empty() || title == "Just a moment...") && r.chance(0.4) {
        title = pg.core.clone();
    }
    let notes = if matches!(chan, Chan::Ext | Chan::Form) && r.chance(0.08) { note(r) } else { String::new() };
    Bm {
        owner: u,
        chan,
        at: t,
        url: pg.url.clone(),
        title,
        desc,
        notes,
        unread: us.unread[c],
        shared: us.shared[c],
        pg: pg.clone(),
        snap: us.snaps && chan != Chan::Import && !(us.upload && chan == Chan::Ext),
        upload: us.upload && chan == Chan::Ext,
        fav_lost: scraped && r.chance(0.2),
        prev_lost: scraped && r.chance(0.25),
        alive: true,
        ..Bm::default()
    }
}

/// What people do to a row after its create.
fn life(r: &mut Rng, x: &mut Bm) {
    let (feed, imp) = (x.chan == Chan::Feed, x.chan == Chan::Import);
    let at = x.at;
    let later = |r: &mut Rng, lo: i64, hi: i64| at + r.range(lo, hi) * SECOND + r.range(0, 999_999);
    if r.chance(if feed {
        0.08
    } else if imp {
        0.02
    } else {
        0.035
    }) {
        let t = later(&mut *r, 120, 15 * 86_400);
        x.evs.push((t, Act::Delete));
    }
    if x.unread
        && r.chance(if feed {
            0.4
        } else if imp {
            0.15
        } else {
            0.6
        })
    {
        let t = later(&mut *r, 1_800, 10 * 86_400);
        let bulk = r.chance(0.3);
        x.evs.push((t, Act::Read(bulk)));
    }
    if r.chance(if feed {
        0.2
    } else if imp {
        0.03
    } else {
        0.1
    }) {
        let t = later(&mut *r, 3_600, 20 * 86_400);
        x.evs.push((t, Act::Archive));
    }
    if !feed && r.chance(if imp { 0.02 } else { 0.09 }) {
        let t = later(&mut *r, 60, 5 * 86_400);
        let act = match r.below(10) {
            0..=3 => Act::Edit { title: None, notes: Some(note(r)) },
            4..=6 => {
                let short = [" | ", " - ", " · "]
                    .iter()
                    .fold(x.title.clone(), |s, sep| s.split_once(sep).map_or(s.clone(), |(a, _)| a.to_string()));
                let title = if short == x.title || short.is_empty() { x.pg.core.clone() } else { short };
                Act::Edit { title: Some(title), notes: None }
            }
            _ => Act::Touch,
        };
        x.evs.push((t, act));
    }
    if r.chance(0.035) {
        let t = later(&mut *r, 600, 15 * 86_400);
        x.evs.push((t, Act::Touch));
    }
    if !feed && r.chance(0.025) {
        let t = later(&mut *r, 600, 10 * 86_400);
        let act = if x.shared { Act::Share(false, false) } else { Act::Share(true, true) };
        x.evs.push((t, act));
    }
}

/// The time from the select to the commit of a create's insert: a few ms, or held up by the write lock (under
/// SQLite's 5 s busy timeout) or a loaded server.
fn gap(r: &mut Rng, busy: f64) -> i64 {
    if r.chance(busy) { r.range(40_000, 4_500_000) } else { r.range(2_000, 15_000) }
}

/// Sends `x` (its `at` the client's send time), perhaps twice, and pushes what the server inserted; a second request
/// that found the first's row updates it instead. Returns the index of the first row.
fn send(r: &mut Rng, v: &mut Vec<Bm>, x: Bm, force: bool) -> usize {
    let p = match x.chan {
        Chan::Ext => 0.08,
        Chan::Menu => 0.06,
        Chan::Form => 0.08,
        Chan::App => 0.2,
        Chan::Stars => 0.1,
        Chan::Feed | Chan::Import => 0.0,
    };
    let first = v.len();
    let a1 = r.range(8_000, 60_000);
    if !force && !r.chance(p) {
        let mut a = Bm { at: x.at + a1, grp: first, ..x };
        life(r, &mut a);
        v.push(a);
        return first;
    }
    let delta = if force { r.range(20_000, 100_000) } else { client_retry_delay(r) };
    let (s1, s2, dup, revert) = if delta < SECOND {
        // A double submit: both selects run before the first insert commits only if that insert was held up.
        let (s1, s2) = (x.at + a1, x.at + delta + r.range(8_000, 60_000));
        let g = gap(r, 0.5);
        (s1.min(s2), s1.max(s2), force || (s1 - s2).abs() < g, false)
    } else if r.chance(0.45) {
        // The first request waited in uwsgi's queue past the client's timeout; the workers took both together.
        let f = x.at + delta + r.range(0, 8_000_000);
        let d = if r.chance(0.7) { r.range(1_000, 400_000) } else { r.range(400_000, 2_500_000) };
        let g = gap(r, 0.7);
        (f, f + d, d < g, false)
    } else {
        // The first was slow after its insert (scraping, the proxy): the resend finds the row. For a share app the
        // first request's own `enhance` save, landing after, writes its `date_modified` back.
        (x.at + a1, x.at + delta + r.range(8_000, 60_000), false, x.chan == Chan::App && r.chance(0.5))
    };
    let mut a = Bm { at: s1, grp: first, ..x.clone() };
    life(r, &mut a);
    v.push(a);
    if dup {
        // A SingleFile user's copy was created with `disable_html_snapshot` too, and both uploads went to `.first()`.
        let mut b = Bm { at: s2, grp: first, mark: Mark::Retry, upload: false, ..x };
        if matches!(b.chan, Chan::App | Chan::Stars) {
            if b.chan == Chan::App && !b.title.is_empty() && r.chance(0.12) {
                (b.title, b.desc) = (String::new(), String::new());
            } else if b.title.is_empty() && r.chance(0.6) {
                (b.title, b.desc) = (b.pg.title.clone(), b.pg.desc.clone());
            }
            b.fav_lost = r.chance(0.2);
            b.prev_lost = r.chance(0.25);
        }
        life(r, &mut b);
        let y = r.below(100);
        let t = s2 + r.range(30, 3 * 86_400) * SECOND + r.range(0, 999_999);
        if y < 32 {
            b.evs.push((t, Act::Delete));
        } else if y < 45 {
            v[first].evs.push((t, Act::Delete));
        } else if y < 62 {
            // Worked on apart from its twin: archived, read, tagged, annotated.
            let act = match r.below(6) {
                0 | 1 => Act::Archive,
                2 | 3 if b.unread => Act::Read(false),
                5 => Act::Edit { title: None, notes: Some(note(r)) },
                _ => Act::Touch,
            };
            b.evs.push((t, act));
        }
        v.push(b);
    } else if !revert {
        let t = s2 + r.range(3_000, 25_000);
        v[first].evs.push((t, Act::Update { title: None, desc: None, notes: None, unread: None, shared: None }));
    }
    first
}

/// A bookmark in an export: the page, its title and description there, ADD_DATE, LAST_MODIFIED, TOREAD, PRIVATE.
#[derive(Clone)]
struct Entry {
    pg: Page,
    title: String,
    desc: String,
    added: i64,
    modified: Option<i64>,
    toread: bool,
    private: bool,
}

/// An export of `n` bookmarks made between `lo` and `hi`: Firefox's has LAST_MODIFIED, Pinboard's descriptions,
/// TOREAD and PRIVATE. Some URLs are in two folders, some pages under two URLs, some folders saved as "all tabs".
fn export(r: &mut Rng, n: usize, kinds: &[i64; 15], lo: i64, hi: i64, firefox: bool, pinboard: bool) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    let mut tabs = 0;
    let mut tabs_at = 0;
    while out.len() < n {
        if !out.is_empty() && r.chance(0.04) {
            let e = out[r.below(out.len() as u64) as usize].clone();
            out.push(e);
            continue;
        }
        let added = if tabs > 0 {
            tabs -= 1;
            tabs_at
        } else {
            if r.chance(0.02) {
                tabs = r.range(2, 5);
                tabs_at = secs(r.range(lo, hi));
            }
            if tabs > 0 { tabs_at } else { secs(r.range(lo, hi)) }
        };
        if !out.is_empty() && r.chance(0.03) {
            let e = out[r.below(out.len() as u64) as usize].clone();
            let how = r.below(4) as usize;
            let pg = variant(r, &e.pg, how);
            let same = r.chance(0.3);
            let added = if same { e.added } else { added };
            out.push(Entry { pg, added, modified: e.modified.map(|m| m.max(added)), ..e });
            continue;
        }
        let kind = r.weighted(kinds);
        let pg = page(r, kind, added);
        let title = if pg.title.is_empty() || pg.title == "Just a moment..." || r.chance(0.15) {
            pg.core.clone()
        } else {
            pg.title.clone()
        };
        let desc = if pinboard && r.chance(0.3) { blurb(r) } else { String::new() };
        let modified = firefox.then(|| if r.chance(0.7) { added } else { secs(r.range(added, hi)) });
        let (toread, private) = (pinboard && r.chance(0.22), pinboard && r.chance(0.6));
        out.push(Entry { pg, title, desc, added, modified, toread, private });
    }
    out
}

/// `import_netscape_html` of an export by user `u` at `t`: the file's repeats skipped, 200 rows a statement; `public`
/// is the form's "import public bookmarks as shared".
fn import(r: &mut Rng, reqs: &mut Vec<Bm>, u: usize, t: i64, entries: &[Entry], public: bool) {
    let mut seen: HashSet<String> = HashSet::new();
    let mut at = t + r.range(300_000, 2_000_000);
    for (i, e) in entries.iter().enumerate() {
        if !seen.insert(norm(&e.pg.url)) {
            continue;
        }
        if i > 0 && i % 200 == 0 {
            at += r.range(150_000, 600_000);
        }
        at += 1;
        reqs.push(Bm {
            owner: u,
            chan: Chan::Import,
            at,
            added: Some(e.added),
            modified0: Some(e.modified.unwrap_or(e.added)),
            url: e.pg.url.clone(),
            title: e.title.clone(),
            desc: e.desc.clone(),
            unread: e.toread,
            shared: public && !e.private,
            pg: e.pg.clone(),
            alive: true,
            ..Bm::default()
        });
    }
}

/// A time on day `d0` in the user's local rhythm.
fn when(r: &mut Rng, d0: i64, tz: i64) -> i64 {
    let h = r.weighted(&RHYTHM) as i64;
    d0 + (h - tz) * HOUR + r.range(0, 3_599) * SECOND + r.range(0, 999_999)
}

fn chan_of(r: &mut Rng, u: usize) -> Chan {
    [Chan::Ext, Chan::Menu, Chan::Form, Chan::App][r.weighted(&USERS[u].mix)]
}

/// People's creates, their re-saves and URL variants, and the links they pass on to their circle.
fn people(r: &mut Rng, reqs: &mut Vec<Bm>, hist: &mut [Vec<Page>]) {
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let weekend = weekday(d0) >= 5;
        for u in 0..USERS.len() {
            let us = &USERS[u];
            if us.rate == 0.0 || d < us.join {
                continue;
            }
            for _ in 0..r.poisson(us.rate * if weekend { 1.3 } else { 1.0 }) {
                let t = when(r, d0, us.tz);
                if !(START + us.join * DAY + 18 * HOUR..NOW - MINUTE).contains(&t) {
                    continue;
                }
                let chan = chan_of(r, u);
                let y = r.below(1_000);
                if y < 30 && !hist[u].is_empty() {
                    // Saved again: the same URL (or one `normalize_url` folds into it) updates the row.
                    let k = r.below(hist[u].len() as u64) as usize;
                    let mut pg = hist[u][k].clone();
                    if !pg.url.contains('?') && !pg.url.contains('#') && r.chance(0.5) {
                        pg.url = if pg.url.ends_with('/') { pg.url.trim_end_matches('/').into() } else { pg.url + "/" };
                    }
                    reqs.push(request(r, u, chan, t, &pg));
                    continue;
                }
                if y < 45 && !hist[u].is_empty() {
                    // The same page again under another URL, days later: a new row.
                    let k = r.below(hist[u].len() as u64) as usize;
                    let how = r.below(4) as usize;
                    let pg = variant(r, &hist[u][k].clone(), how);
                    reqs.push(request(r, u, chan, t, &pg));
                    continue;
                }
                let kind = r.weighted(&us.kinds);
                let pg = page(r, kind, t);
                hist[u].push(pg.clone());
                reqs.push(request(r, u, chan, t, &pg));
                if chan == Chan::Menu && r.chance(0.08) {
                    // "Save to linkding" on a second link to the same page (an anchor, a share link), seconds later.
                    let t2 = t + r.range(3_000, 40_000) * 1_000;
                    let how = r.one(&[1, 1, 3]);
                    let pg2 = variant(r, &pg, how);
                    reqs.push(request(r, u, chan, t2, &pg2));
                }
                if r.chance(0.07) {
                    // Passed on in the family or team chat: another member saves it too.
                    let others: Vec<usize> = (0..USERS.len())
                        .filter(|&o| {
                            o != u && USERS[o].circle == us.circle && USERS[o].rate > 0.0 && USERS[o].join <= d
                        })
                        .collect();
                    if others.is_empty() {
                        continue;
                    }
                    let o = *r.pick(&others);
                    let delay = if r.chance(0.4) { r.range(15, 180) } else { r.range(600, 3 * 86_400) };
                    let t2 = t + delay * SECOND + r.range(0, 999_999);
                    if t2 >= NOW - MINUTE {
                        continue;
                    }
                    let pg2 = if r.chance(0.75) { pg.clone() } else { variant(r, &pg, 3) };
                    let chan2 = chan_of(r, o);
                    hist[o].push(pg2.clone());
                    reqs.push(request(r, o, chan2, t2, &pg2));
                }
            }
        }
    }
}

/// The n8n workflow: every 30 minutes, new items of the feeds, posted one after another with title, summary, tag and
/// `unread`. WordPress feeds carry utm parameters, and their tag feeds the same items with other ones; hnrss links
/// the article itself with its own summary.
fn feeds(r: &mut Rng, reqs: &mut Vec<Bm>) {
    // (blog, items a day, WordPress with a tag feed); usize::MAX is hnrss, a news feed, a recipe feed.
    #[rustfmt::skip]
    let list: [(usize, f64, bool); 9] = [
        (0, 0.4, false), (1, 2.2, false), (3, 0.5, true), (4, 0.3, true), (6, 0.5, true), (11, 0.5, false),
        (100, 2.6, false), (101, 3.0, false), (102, 0.8, true),
    ];
    let mut recent: Vec<Page> = Vec::new();
    let mut held: Vec<(i64, Page)> = Vec::new();
    let mut run = START + USERS[BOT].join * DAY + 20 * HOUR + 5 * MINUTE;
    while run < NOW - MINUTE {
        let mut t = run + r.range(0, 15) * SECOND + r.range(0, 999_999);
        let post = |r: &mut Rng, reqs: &mut Vec<Bm>, t: &mut i64, pg: &Page| {
            *t += r.range(150_000, 600_000);
            let mut x = request(r, BOT, Chan::Feed, *t, pg);
            (x.title, x.desc) = (pg.core.clone(), pg.summary.clone());
            reqs.push(x);
        };
        let due: Vec<Page> = held.iter().filter(|h| h.0 <= run).map(|h| h.1.clone()).collect();
        held.retain(|h| h.0 > run);
        for pg in &due {
            post(&mut *r, &mut *reqs, &mut t, pg);
        }
        for &(feed, rate, wp) in &list {
            for _ in 0..r.poisson(rate / 48.0) {
                let mut pg = match feed {
                    100 => {
                        let mut pg = page(r, 5, run);
                        pg.summary = pg.desc.clone();
                        pg
                    }
                    101 => {
                        let mut pg = if !recent.is_empty() && r.chance(0.15) {
                            recent[r.below(recent.len() as u64) as usize].clone()
                        } else {
                            let kind = r.one(&[0, 0, 0, 1, 1, 12, 14]);
                            page(r, kind, run)
                        };
                        let id = digits(r, 8);
                        let (points, comments) = (r.range(250, 1_400), r.range(80, 700));
                        pg.summary = format!(
                            "Article URL: {} Comments URL: https://news.ycombinator.com/item?id={id} \
                             Points: {points} # Comments: {comments}",
                            pg.url
                        );
                        pg
                    }
                    102 => {
                        let mut pg = page(r, 10, run);
                        pg.summary = pg.desc.clone();
                        pg
                    }
                    _ => blog(r, feed, run),
                };
                if pg.core.is_empty() {
                    pg.core = pg.title.clone();
                }
                if wp {
                    let main = Page {
                        url: format!("{}?utm_source=rss&utm_medium=rss&utm_campaign={}", pg.url, slug(&pg.core)),
                        ..pg.clone()
                    };
                    post(&mut *r, &mut *reqs, &mut t, &main);
                    if r.chance(0.3) {
                        let tag = r.one(&["engineering", "news", "tutorial", "weeknight", "product"]);
                        let url = format!("{}?utm_source=rss&utm_medium=tag&utm_campaign={tag}", pg.url);
                        let twin = Page { url, ..pg.clone() };
                        if r.chance(0.6) {
                            // The tag feed is further down the same run.
                            held.push((run, twin));
                        } else {
                            held.push((run + 30 * MINUTE, twin));
                        }
                    }
                } else {
                    post(&mut *r, &mut *reqs, &mut t, &pg);
                }
                recent.push(pg);
            }
        }
        let due: Vec<Page> = held.iter().filter(|h| h.0 <= run).map(|h| h.1.clone()).collect();
        held.retain(|h| h.0 > run);
        for pg in &due {
            post(&mut *r, &mut *reqs, &mut t, pg);
        }
        run += 30 * MINUTE;
    }
}

/// dev's sync script, hourly: each new GitHub star posted with `owner/name`, the tagline and `date_added` = starred_at.
fn stars(r: &mut Rng, reqs: &mut Vec<Bm>, hist: &[Vec<Page>]) {
    let mut run = START + USERS[DEV].join * DAY + 17 * MINUTE;
    while run < NOW - MINUTE {
        let t = run + r.range(0, 20) * SECOND + r.range(0, 999_999);
        for _ in 0..r.poisson(1.5 / 24.0) {
            let own: Vec<&Page> = hist[DEV].iter().filter(|p| p.url.starts_with("https://github.com/")).collect();
            let pg = if !own.is_empty() && r.chance(0.15) { (*r.pick(&own)).clone() } else { repo(r) };
            let mut x = request(r, DEV, Chan::Stars, t, &pg);
            x.title = pg.core.clone();
            // The script sends the tagline; an empty one is filled by the scrape.
            x.desc = if pg.summary.is_empty() { pg.desc.clone() } else { pg.summary.clone() };
            (x.unread, x.shared) = (false, false);
            x.added = Some(secs(t - r.range(60, 3_600) * SECOND));
            reqs.push(x);
        }
        run += HOUR;
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x11_4D_1A);
    let mut reqs: Vec<Bm> = Vec::new();
    let mut hist: Vec<Vec<Page>> = vec![Vec::new(); USERS.len()];

    // The imports: anna's Firefox export and the family laptop's Chrome export on the first evening, ben's copy of
    // the laptop's file and his own Chrome export on the third, hugo's Pinboard export on the fourth.
    let years = 365 * DAY;
    let firefox = export(&mut r, 330, &USERS[ANNA].kinds, START - 11 * years, START - 2 * DAY, true, false);
    let mut laptop = export(&mut r, 95, &USERS[BEN].kinds, START - 6 * years, START - 20 * DAY, false, false);
    for _ in 0..8 {
        let e = firefox[r.below(firefox.len() as u64) as usize].clone();
        laptop.push(Entry { modified: None, ..e });
    }
    let mut chrome = export(&mut r, 150, &USERS[BEN].kinds, START - 8 * years, START - DAY, false, false);
    for _ in 0..10 {
        let e = laptop[r.below(laptop.len() as u64) as usize].clone();
        let added = (e.added + r.range(86_400, 400 * 86_400) * SECOND).min(secs(START - r.range(2, 30) * DAY));
        chrome.push(Entry { added, ..e });
    }
    let pinboard = export(&mut r, 165, &USERS[HUGO].kinds, START - 9 * years, START - 3 * DAY, false, true);
    import(&mut r, &mut reqs, ANNA, START + 19 * HOUR + 12 * MINUTE, &firefox, false);
    import(&mut r, &mut reqs, ANNA, START + 19 * HOUR + 31 * MINUTE, &laptop, false);
    import(&mut r, &mut reqs, BEN, START + 2 * DAY + 20 * HOUR + 4 * MINUTE, &laptop, false);
    import(&mut r, &mut reqs, BEN, START + 2 * DAY + 20 * HOUR + 9 * MINUTE, &chrome, false);
    import(&mut r, &mut reqs, HUGO, START + 3 * DAY + 21 * HOUR + 40 * MINUTE, &pinboard, true);
    for e in firefox.iter().take(120) {
        hist[ANNA].push(e.pg.clone());
    }

    people(&mut r, &mut reqs, &mut hist);
    feeds(&mut r, &mut reqs);
    stars(&mut r, &mut reqs, &hist);
    reqs.sort_by_key(|x| x.at);

    // The server, request by request: the lookup, then an update or an insert.
    let mut v: Vec<Bm> = Vec::new();
    let mut have: HashMap<(usize, String), usize> = HashMap::new();
    let mut late = 0;
    for x in reqs {
        if x.at >= NOW - SECOND {
            continue;
        }
        let key = (x.owner, norm(&x.url));
        if let Some(&k) = have.get(&key) {
            let t = x.at + r.range(10_000, 80_000);
            let act = match x.chan {
                Chan::Import => Act::Import {
                    url: x.url,
                    added: x.added.unwrap_or(x.at),
                    modified: x.modified0.unwrap_or(x.at),
                    title: x.title,
                    desc: x.desc,
                    unread: x.unread,
                    shared: x.shared,
                },
                // The popup and the form show the existing bookmark's fields and send them back.
                Chan::Ext | Chan::Form => {
                    Act::Update { title: None, desc: None, notes: None, unread: None, shared: None }
                }
                _ => Act::Update {
                    title: Some(x.title),
                    desc: Some(x.desc),
                    notes: Some(String::new()),
                    unread: Some(x.unread),
                    shared: Some(x.shared),
                },
            };
            v[k].evs.push((t, act));
            continue;
        }
        if x.chan == Chan::Import {
            let mut x = Bm { grp: v.len(), ..x };
            life(&mut r, &mut x);
            have.insert(key, v.len());
            v.push(x);
            continue;
        }
        let force = late < LATE.len()
            && x.at >= LATE[late]
            && matches!(x.chan, Chan::Ext | Chan::App | Chan::Form | Chan::Menu);
        late += usize::from(force);
        let k = send(&mut r, &mut v, x, force);
        have.insert(key, k);
    }

    // Ids in insert order.
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by_key(|&k| (v[k].at, k));
    for (i, &k) in order.iter().enumerate() {
        v[k].id = 1 + i as i64;
    }
    let gone: Vec<i64> = v
        .iter()
        .map(|x| x.evs.iter().filter(|e| matches!(e.1, Act::Delete)).map(|e| e.0).min().unwrap_or(i64::MAX))
        .collect();

    // Assets: the pending snapshots made at create, the extension's uploads; ids in creation order.
    let mut made: Vec<(i64, usize, bool)> = Vec::new();
    for (k, x) in v.iter().enumerate() {
        if x.snap {
            made.push((x.at + r.range(20_000, 200_000), k, true));
        }
        if x.upload && x.mark != Mark::Retry {
            made.push((x.at + r.range(6, 40) * SECOND + r.range(0, 999_999), k, false));
        }
    }
    made.sort_by_key(|m| m.0);
    let mut aid = 0;
    let mut pending: Vec<(i64, usize, i64)> = Vec::new();
    for &(t, k, auto) in &made {
        aid += 1 + i64::from(r.chance(0.03));
        if t >= gone[k] {
            continue;
        }
        if auto {
            pending.push((t, k, aid));
        } else {
            v[k].evs.push((t + r.range(5_000, 60_000), Act::Snap(aid)));
        }
    }
    // The snapshot task: each minute (unless the last run still holds the lock), five pending assets, one by one.
    let (mut i, mut free) = (0, 0);
    let mut m = START;
    while i < pending.len() && m < NOW {
        if pending[i].0 > m {
            m += (pending[i].0 - m + MINUTE - 1) / MINUTE * MINUTE;
            continue;
        }
        let run = m + r.range(0, 10) * SECOND + r.range(0, 999_999);
        if run >= free {
            let (mut cur, mut taken) = (run, 0);
            while taken < 5 && i < pending.len() && pending[i].0 <= run {
                let (_, k, a) = pending[i];
                i += 1;
                if gone[k] <= cur {
                    continue;
                }
                taken += 1;
                cur += r.range(6, 45) * SECOND + r.range(0, 999_999);
                if !r.chance(0.07) {
                    v[k].evs.push((cur, Act::Snap(a)));
                }
            }
            free = cur;
        }
        m += MINUTE;
    }

    // The background tasks' fields, then everything that happened to each row until now.
    let mut capture: HashMap<usize, String> = HashMap::new();
    for &k in &order {
        let u = &USERS[v[k].owner];
        let x = &v[k];
        let wayback = if u.wayback && x.chan != Chan::Import {
            let own = |r: &mut Rng| {
                let (y, mo, d, h, mi, s) = civil(x.at + r.range(5, 40) * SECOND);
                format!("https://web.archive.org/web/{y:04}{mo:02}{d:02}{h:02}{mi:02}{s:02}/{}", x.url)
            };
            if x.mark == Mark::Retry {
                match r.below(10) {
                    0..=6 => capture.get(&x.grp).cloned().unwrap_or_default(),
                    7 | 8 => String::new(),
                    _ => own(&mut r),
                }
            } else if r.chance(0.88) {
                own(&mut r)
            } else {
                String::new()
            }
        } else {
            String::new()
        };
        capture.entry(x.grp).or_insert_with(|| wayback.clone());
        let x = &mut v[k];
        x.wayback = wayback;
        x.fav = if u.fav && !x.fav_lost { favicon(&x.url) } else { String::new() };
        x.preview = if u.prev && !x.prev_lost { x.pg.og.clone().unwrap_or_default() } else { String::new() };
        x.modified = x.modified0.unwrap_or(x.at + r.range(3, 60));
        let mut evs = std::mem::take(&mut x.evs);
        evs.sort_by_key(|e| e.0);
        for (t, act) in evs {
            if t >= NOW {
                break;
            }
            match act {
                Act::Update { title, desc, notes, unread, shared } => {
                    x.title = title.unwrap_or(x.title.clone());
                    x.desc = desc.unwrap_or(x.desc.clone());
                    x.notes = notes.unwrap_or(x.notes.clone());
                    x.unread = unread.unwrap_or(x.unread);
                    x.shared = shared.unwrap_or(x.shared);
                    x.modified = t;
                }
                Act::Import { url, added, modified, title, desc, unread, shared } => {
                    x.url = url;
                    (x.added, x.modified, x.unread, x.shared) = (Some(added), modified, unread, shared);
                    if !title.is_empty() {
                        x.title = title;
                    }
                    if !desc.is_empty() {
                        x.desc = desc;
                    }
                }
                Act::Read(bump) => {
                    if x.unread {
                        x.unread = false;
                        if bump {
                            x.modified = t;
                        }
                    }
                }
                Act::Archive => (x.archived, x.modified) = (true, t),
                Act::Share(on, bump) => {
                    x.shared = on;
                    if bump {
                        x.modified = t;
                    }
                }
                Act::Edit { title, notes } => {
                    x.title = title.unwrap_or(x.title.clone());
                    x.notes = notes.unwrap_or(x.notes.clone());
                    x.modified = t;
                }
                Act::Touch => x.modified = t,
                Act::Snap(a) => (x.latest, x.modified) = (Some(a), t),
                Act::Delete => {
                    x.alive = false;
                    break;
                }
            }
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("bookmarks_bookmark", &columns);
    let mut first_of: HashMap<usize, usize> = HashMap::new();
    let mut seen: HashSet<(String, String, String, String)> = HashSet::new();
    for &k in &order {
        let x = &v[k];
        if !x.alive {
            continue;
        }
        let n = norm(&x.url);
        let key = (x.pg.base.clone(), x.title.clone(), x.desc.clone(), x.notes.clone());
        let mut hidden = false;
        let mark = match first_of.get(&x.grp) {
            Some(&o) if x.mark == Mark::Retry => {
                let o = &v[o];
                hidden = (&o.title, &o.desc, &o.notes) != (&x.title, &x.desc, &x.notes);
                Mark::Retry
            }
            _ => {
                // The same page saved again on purpose: by another account, or under another URL.
                if seen.contains(&key) { Mark::Legit } else { Mark::Plain }
            }
        };
        first_of.entry(x.grp).or_insert(k);
        seen.insert(key);
        f.push(&[
            ("id", V::I(x.id)),
            ("url", V::t(&x.url)),
            ("title", V::t(&x.title)),
            ("description", V::t(&x.desc)),
            ("unread", V::B(x.unread)),
            ("date_added", V::AtZ(x.added.unwrap_or(x.at))),
            ("date_modified", V::AtZ(x.modified)),
            ("owner_id", V::I(x.owner as i64 + 1)),
            ("is_archived", V::B(x.archived)),
            ("web_archive_snapshot_url", V::t(&x.wayback)),
            ("shared", V::B(x.shared)),
            ("favicon_file", V::t(&x.fav)),
            ("notes", V::t(&x.notes)),
            ("preview_image_file", V::t(&x.preview)),
            ("latest_snapshot_id", V::opt_i(x.latest)),
            ("url_normalized", V::t(n)),
        ]);
        f.mark(x.id, mark);
        if hidden {
            f.hidden.insert(x.id.to_string());
        }
    }
    f
}
