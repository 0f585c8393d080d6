//! Shlink (PHP URL shortener; Doctrine ORM 3 / DBAL 4; SQLite by default, PostgreSQL, MariaDB/MySQL, SQL Server):
//! `short_urls` as the REST API (`POST /rest/v3/short-urls`, `findIfExists` false unless sent, and the single-step
//! `GET /rest/v3/short-urls/shorten`), its integrations and the CLI write it: a small online shop's instance on
//! v5.1.5, installed at T0 with `db:create` (Doctrine's schema tool, so the columns in mapping order), a Bitly export
//! imported on the first day, then 42 days of use by two marketers in shlink-web-client, four people with a browser
//! extension, the newsletter and digest scripts of the shop's CMS, an n8n blog-to-Mastodon workflow, the support
//! team's share shortcut, a CI release job and the admin's CLI.
//! Read: shlinkio/shlink (59c62a2, v5.1.5) module/Core/config/entities-mappings/
//! Shlinkio.Shlink.Core.ShortUrl.Entity.ShortUrl.php (every column, `IDX_long_url_hash`, `unique_short_code_plus_domain`
//! on (short_code, domain_id), the `short_urls_in_tags` join table), ...Tag.Entity.Tag.php, ...Domain.Entity.Domain.php,
//! module/Core/functions/functions.php (`fieldWithUtf8Charset`, `generateRandomShortCode`: nanoid over 62 characters in
//! STRICT mode, `stringToBinHash`: binary sha256 of the long URL), config/constants.php (5 characters by default),
//! module/Core/migrations/Version20260524105410.php and Version20260607082210.php (long_url_hash), Version20250215100756
//! .php, module/Core/src/ShortUrl/Entity/ShortUrl.php (`create`, `fromImport`, `update`, `regenerateShortCode`),
//! ShortUrl/Model/ShortUrlCreation.php, ShortUrl/UrlShortener.php (`shorten`: the `findIfExists` lookup, title
//! resolution outside the transaction, then `wrapInTransaction`), Helper/ShortCodeUniquenessHelper.php,
//! Helper/ShortUrlTitleResolutionHelper.php (3 s timeouts, a title only for text/html with a known charset),
//! Repository/ShortUrlRepository.php (`shortCodeIsInUseWithLock`: SELECT ... FOR UPDATE, `findOneMatching`),
//! Resolver/PersistenceShortUrlRelationResolver.php (tags and domains made on first use), Importer/
//! ImportedLinksProcessor.php, Config/EnvVars.php (AUTO_RESOLVE_TITLES defaults to true),
//! Config/Options/UrlShortenerOptions.php, config/autoload/entity-manager.global.php (SQLite when no DB_DRIVER),
//! module/CLI/src/Command/Db/CreateDatabaseCommand.php (`orm:schema-tool:create`), module/Rest/src/Action/ShortUrl/
//! CreateShortUrlAction.php, SingleStepCreateShortUrlAction.php, Middleware/ShortUrl/ShortUrlOptionsPayloadMiddleware.php,
//! OverrideDomainMiddleware.php, DropDefaultDomainFromRequestMiddleware.php; shlinkio/shlink-common
//! src/Doctrine/Type/ChronosDateTimeType.php (a DateTimeImmutableType: `Y-m-d H:i:s`, whole seconds); edward-shen/shlink
//! (f1eab3c) src/background/background.mts and lib.mts (one click on the toolbar button posts `longUrl` and the tab's
//! `title`, `tags: ["shlink-extension"]` if set, `findIfExists` only if set); shlink-web-component's CreateShortUrl
//! (`findIfExists: false`, `forwardQuery` from the settings, true).
//! On a create: with `findIfExists` false (every client here) nothing is looked up: each request makes a row. The
//! title is resolved first, outside any transaction, when none was sent (GET of the long URL, 3 s timeouts: a title
//! with `title_was_auto_resolved` true, or NULL when the page is not HTML, has no charset or does not answer in time).
//! Then, in one transaction: `id` from the identity; `original_url` as sent and `long_url_hash` its binary sha256;
//! `short_code` the custom slug as sent or 5 random characters (regenerated if taken); `date_created` now, in seconds;
//! `valid_since`, `valid_until`, `max_visits`, `title`, `crawlable` (false), `forward_query` (true) as sent;
//! `domain_id` NULL for the default domain, else the domain's row (made on first use); `author_api_key_id` the
//! request's key (NULL from the CLI); `import_source`, `import_original_short_code` NULL; one `short_urls_in_tags` row
//! per tag sent (tags made on first use). A custom slug is checked with SELECT ... FOR UPDATE: a resent request with a
//! slug gets 400 (NonUniqueSlug), as the CI job's retries do here. The importer (CLI) writes `date_created` from the
//! source, `import_source` 'bitly', `import_original_short_code` and, keeping the short codes, `short_code` the Bitly
//! hash, the Bitly title and tags, no title resolution, no key; it skips links it imported already.
//! Later: people edit short URLs in the web client (PATCH: long URL, title, validity, max visits, tags, crawlable; the
//! hash follows the long URL) and delete some (allowed under 15 visits); visits go to other tables.
//! Retries (6% of extension clicks, 2.5% of web-form saves, 1-3% of the scripts' creates leave an extra row): a double
//! click on the extension's toolbar button (two POSTs 80-450 ms apart), Enter pressed twice in the web form before it
//! disables the button (20-150 ms), the support shortcut run again when nothing seemed to happen (2-8 s), and the
//! scripts' resends after their client timeout (CMS: 15 s, then 5 or 10 s backoff; n8n: 10 s, then 5 s) when a create
//! was held up (queued for a worker during a newsletter run, a slow page's title fetch) but committed server-side; the
//! scripts wait for each answer. Three in the last day. Resends with a custom slug leave nothing (on PostgreSQL two
//! concurrent ones on the default domain, `domain_id` NULL, could both pass the FOR UPDATE check and the unique index:
//! not modelled). The extension copies
//! whichever answer came last; some people delete the other in the web client (the copy or the original), or later
//! edit the one they use. Each attempt resolves the title on its own: a first attempt whose title fetch timed out has
//! NULL where its resend has the page's title. A copy that no longer equals its original on what the request set (one
//! of the pair edited later, or the title resolved on one attempt only) is hidden.
//! Legitimate repeats: with `findIfExists` false a new short URL for the same link is the tool's normal use: marketers
//! create one link per flyer or post for the same page and tags (seconds to minutes apart) and reuse a page days
//! later; extension users shorten the same page again (minutes to days apart); the newsletter links the shop's home
//! page in its header and footer (seconds apart) and the daily digest links the same pages each day; support shortens
//! the same help article for each customer; the n8n workflow runs again when a post is updated.
//! Guessed: the shop, the people, their clients and settings, rates and rhythms, the pages and their titles, which
//! fetches fail, the scripts' timeouts and backoff, how often a create is held up, the Bitly export, the later edits and
//! deletions. The DDL is written from DBAL 4's platforms by hand (not run through the schema tool), without foreign keys.
use std::collections::{HashMap, HashSet};

use super::{Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, secs, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::Postgres, Engine::MySql];

/// The tables as `orm:schema-tool:create` makes them on a new install of 5.1.5 (fields in mapping order, then the join
/// columns), without the foreign keys to `domains`, `api_keys` and `tags`.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => "CREATE TABLE short_urls (id BIGINT GENERATED BY DEFAULT AS IDENTITY NOT NULL, \
original_url TEXT NOT NULL, long_url_hash BYTEA NOT NULL, short_code VARCHAR(255) NOT NULL, \
date_created TIMESTAMP(0) WITHOUT TIME ZONE NOT NULL, valid_since TIMESTAMP(0) WITHOUT TIME ZONE DEFAULT NULL, \
valid_until TIMESTAMP(0) WITHOUT TIME ZONE DEFAULT NULL, max_visits INT DEFAULT NULL, \
import_source VARCHAR(255) DEFAULT NULL, import_original_short_code VARCHAR(255) DEFAULT NULL, \
title VARCHAR(512) DEFAULT NULL, title_was_auto_resolved BOOLEAN DEFAULT false NOT NULL, \
crawlable BOOLEAN DEFAULT false NOT NULL, forward_query BOOLEAN DEFAULT true NOT NULL, domain_id BIGINT DEFAULT NULL, \
author_api_key_id BIGINT DEFAULT NULL, PRIMARY KEY (id));
CREATE INDEX IDX_long_url_hash ON short_urls (long_url_hash);
CREATE INDEX IDX_4A53F934115F0EE5 ON short_urls (domain_id);
CREATE INDEX IDX_4A53F934C9EA6E08 ON short_urls (author_api_key_id);
CREATE UNIQUE INDEX unique_short_code_plus_domain ON short_urls (short_code, domain_id);
CREATE TABLE short_urls_in_tags (short_url_id BIGINT NOT NULL, tag_id BIGINT NOT NULL, \
PRIMARY KEY (short_url_id, tag_id));
CREATE INDEX IDX_59775203F1252BC8 ON short_urls_in_tags (short_url_id);
CREATE INDEX IDX_59775203BAD26311 ON short_urls_in_tags (tag_id);"
            .to_string(),
        Engine::MySql => "CREATE TABLE short_urls (id BIGINT UNSIGNED AUTO_INCREMENT NOT NULL, \
original_url TEXT CHARACTER SET utf8mb4 NOT NULL COLLATE `utf8mb4_unicode_ci`, long_url_hash VARBINARY(32) NOT NULL, \
short_code VARCHAR(255) CHARACTER SET utf8mb4 NOT NULL COLLATE `utf8mb4_bin`, date_created DATETIME NOT NULL, \
valid_since DATETIME DEFAULT NULL, valid_until DATETIME DEFAULT NULL, max_visits INT DEFAULT NULL, \
import_source VARCHAR(255) DEFAULT NULL, \
import_original_short_code VARCHAR(255) CHARACTER SET utf8mb4 DEFAULT NULL COLLATE `utf8mb4_unicode_ci`, \
title VARCHAR(512) CHARACTER SET utf8mb4 DEFAULT NULL COLLATE `utf8mb4_unicode_ci`, \
title_was_auto_resolved TINYINT(1) DEFAULT 0 NOT NULL, crawlable TINYINT(1) DEFAULT 0 NOT NULL, \
forward_query TINYINT(1) DEFAULT 1 NOT NULL, domain_id BIGINT UNSIGNED DEFAULT NULL, \
author_api_key_id BIGINT UNSIGNED DEFAULT NULL, INDEX IDX_long_url_hash (long_url_hash), \
INDEX IDX_4A53F934115F0EE5 (domain_id), INDEX IDX_4A53F934C9EA6E08 (author_api_key_id), \
UNIQUE INDEX unique_short_code_plus_domain (short_code, domain_id), PRIMARY KEY (id)) \
DEFAULT CHARACTER SET utf8mb4 COLLATE `utf8mb4_unicode_ci` ENGINE = InnoDB;
CREATE TABLE short_urls_in_tags (short_url_id BIGINT UNSIGNED NOT NULL, tag_id BIGINT UNSIGNED NOT NULL, \
INDEX IDX_59775203F1252BC8 (short_url_id), INDEX IDX_59775203BAD26311 (tag_id), PRIMARY KEY (short_url_id, tag_id)) \
DEFAULT CHARACTER SET utf8mb4 COLLATE `utf8mb4_unicode_ci` ENGINE = InnoDB;"
            .to_string(),
        Engine::Sqlite => "CREATE TABLE short_urls (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, \
original_url CLOB NOT NULL, long_url_hash BLOB NOT NULL, short_code VARCHAR(255) NOT NULL, \
date_created DATETIME NOT NULL, valid_since DATETIME DEFAULT NULL, valid_until DATETIME DEFAULT NULL, \
max_visits INTEGER DEFAULT NULL, import_source VARCHAR(255) DEFAULT NULL, \
import_original_short_code VARCHAR(255) DEFAULT NULL, title VARCHAR(512) DEFAULT NULL, \
title_was_auto_resolved BOOLEAN DEFAULT 0 NOT NULL, crawlable BOOLEAN DEFAULT 0 NOT NULL, \
forward_query BOOLEAN DEFAULT 1 NOT NULL, domain_id BIGINT UNSIGNED DEFAULT NULL, \
author_api_key_id BIGINT UNSIGNED DEFAULT NULL);
CREATE INDEX IDX_long_url_hash ON short_urls (long_url_hash);
CREATE INDEX IDX_4A53F934115F0EE5 ON short_urls (domain_id);
CREATE INDEX IDX_4A53F934C9EA6E08 ON short_urls (author_api_key_id);
CREATE UNIQUE INDEX unique_short_code_plus_domain ON short_urls (short_code, domain_id);
CREATE TABLE short_urls_in_tags (short_url_id BIGINT UNSIGNED NOT NULL, tag_id BIGINT UNSIGNED NOT NULL, \
PRIMARY KEY (short_url_id, tag_id));
CREATE INDEX IDX_59775203F1252BC8 ON short_urls_in_tags (short_url_id);
CREATE INDEX IDX_59775203BAD26311 ON short_urls_in_tags (tag_id);"
            .to_string(),
    }
}

const COLUMNS: &str = "id original_url long_url_hash short_code date_created valid_since valid_until max_visits \
    import_source import_original_short_code title title_was_auto_resolved crawlable forward_query domain_id \
    author_api_key_id";

const START: i64 = T0;
const DAYS: i64 = 42;
const NOW: i64 = START + DAYS * DAY;
/// The first extension or web-form create after each of these is sent twice and both land.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 10 * HOUR, NOW - 4 * HOUR];

// API keys, by id.
const ANNA: i64 = 1;
const BEN: i64 = 2;
/// The extension users' keys: 3..=6.
const EXT: [i64; 4] = [3, 4, 5, 6];
const NEWS: i64 = 7;
const SOCIAL: i64 = 8;
const SUPPORT: i64 = 9;
const CI: i64 = 10;
/// The second domain, `go.example.shop` (the default one is `exmpl.link`).
const SHOP_DOMAIN: i64 = 1;

/// A page as the title fetch finds it: its URL, its `<title>` (None: not HTML or no charset), the chance the fetch
/// fails (3 s timeout, a block page's error).
#[derive(Clone)]
struct Page {
    url: String,
    title: Option<String>,
    flaky: f64,
}

/// What the server was sent.
#[derive(Clone, Default)]
struct Req {
    at: i64,
    key: Option<i64>,
    url: String,
    html: Option<String>,
    flaky: f64,
    title: Option<String>,
    slug: Option<String>,
    domain: Option<i64>,
    since: Option<i64>,
    until: Option<i64>,
    max: Option<i64>,
    crawl: bool,
    fwd: bool,
    tags: Vec<String>,
    /// The Bitly hash and creation time of an imported link.
    import: Option<(String, i64)>,
    /// A first attempt held up: its title fetch timed out.
    slow: bool,
    grp: usize,
    /// The person looks at their links (deletes a duplicate, edits).
    curated: bool,
}

/// A row as it is now.
struct Row {
    x: Req,
    id: i64,
    code: String,
    created: i64,
    title: Option<String>,
    auto: bool,
    alive: bool,
}

const SHOP: &str = "https://www.example.shop";

#[rustfmt::skip]
const PRODUCTS: &[&str] = &[
    "Merino Wool Beanie", "Linen Tote Bag", "Ceramic Pour-Over Set", "Waxed Canvas Backpack", "Organic Cotton Hoodie",
    "Enamel Camping Mug", "Walnut Cutting Board", "Recycled Wool Throw", "Stoneware Dinner Plate", "Leather Card Holder",
    "Bamboo Toothbrush Set", "Cast Iron Skillet", "Glass Storage Jar", "Hemp Apron", "Beeswax Wraps",
    "Copper Watering Can", "Alpaca Scarf", "Oak Wall Shelf", "Soy Wax Candle", "Cork Yoga Mat", "Trail Running Socks",
    "Insulated Bottle", "Felt Slippers", "Rattan Basket", "Terracotta Planter", "Denim Work Jacket", "Wool Mittens",
];
const COLLECTIONS: &[&str] = &["home", "kitchen", "outdoor", "apparel", "gifts", "sale", "new-in", "bestsellers"];
#[rustfmt::skip]
const TOPICS: &[&str] = &[
    "caring for cast iron", "a slower kitchen", "packing for a weekend hike", "our wool supply chain",
    "five gifts under 30 euros", "repairing a canvas bag", "the story of our potters", "winter layering",
    "a zero-waste bathroom", "seasonal candles", "the autumn lookbook", "how we pack orders", "visiting the mill",
    "houseplants for dark rooms", "the new stoneware line", "a guide to linen", "our repair programme",
    "behind the black friday sale", "holiday shipping dates", "meet the team",
];
#[rustfmt::skip]
const SITES: &[(&str, &str)] = &[
    ("https://www.theverge.com/2026/10/", " | The Verge"), ("https://arstechnica.com/gadgets/2026/10/", " - Ars Technica"),
    ("https://www.nytimes.com/2026/10/", " - The New York Times"), ("https://www.bbc.com/news/articles/", " - BBC News"),
    ("https://medium.com/@", " | by a writer | Medium"), ("https://www.shopify.com/blog/", " - Shopify"),
    ("https://news.ycombinator.com/item?id=", ""), ("https://www.youtube.com/watch?v=", " - YouTube"),
    ("https://github.com/", ""), ("https://docs.google.com/document/d/", ""),
    ("https://www.reddit.com/r/smallbusiness/comments/", " : r/smallbusiness"),
    ("https://www.printful.com/blog/", " | Printful"), ("https://www.wired.com/story/", " | WIRED"),
];
#[rustfmt::skip]
const HEADLINES: &[&str] = &[
    "Why small shops are leaving marketplaces", "The return of the mail-order catalogue", "Shipping costs rise again",
    "How to price handmade goods", "A new EU rule on packaging", "What Gen Z buys online", "The slow fashion boom",
    "Inside a wool mill", "Instagram changes its shopping tab", "Email still beats social for sales",
    "Black Friday forecasts", "The logistics of the holiday rush", "Why returns are so expensive", "Ceramics go viral",
    "Payment fees explained", "A guide to product photography", "Customer support that scales", "Reels or carousels?",
    "Sustainability claims under scrutiny", "The case for a smaller catalogue", "Local pickup is back",
];
#[rustfmt::skip]
const HELP: &[&str] = &[
    "Where is my order", "How to return an item", "Changing your delivery address", "Gift card balance",
    "Care instructions for wool", "International shipping", "Payment methods we accept", "Cancel an order",
    "Our warranty", "Size guide", "Click and collect", "Damaged items", "Discount codes not working",
    "Invoices for companies", "Repair service",
];

fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn product(r: &mut Rng) -> Page {
    let name = r.one(PRODUCTS);
    let col = r.one(COLLECTIONS);
    Page {
        url: format!("{SHOP}/collections/{col}/products/{}", slug(name)),
        title: Some(format!("{name} – Example Shop")),
        flaky: 0.01,
    }
}

fn collection(r: &mut Rng) -> Page {
    let col = r.one(COLLECTIONS);
    let name = format!("{}{}", col[..1].to_uppercase(), &col[1..]).replace('-', " ");
    Page { url: format!("{SHOP}/collections/{col}"), title: Some(format!("{name} – Example Shop")), flaky: 0.01 }
}

fn post(topic: &str) -> Page {
    let t = format!("{}{}", topic[..1].to_uppercase(), &topic[1..]);
    Page {
        url: format!("{SHOP}/blogs/journal/{}", slug(topic)),
        title: Some(format!("{t} – Example Shop Journal")),
        flaky: 0.01,
    }
}

fn home() -> Page {
    Page { url: format!("{SHOP}/"), title: Some("Example Shop – Things made to last".into()), flaky: 0.01 }
}

fn article(r: &mut Rng) -> Page {
    let (base, suffix) = *r.pick(SITES);
    let head = *r.pick(HEADLINES);
    let tail = match base {
        b if b.contains("ycombinator") => r.range(41_000_000, 43_000_000).to_string(),
        b if b.contains("youtube") => r.alnum(11),
        b if b.contains("github") => format!("{}/{}", slug(r.one(TOPICS)), slug(head)),
        b if b.contains("docs.google") => format!("{}/edit", r.alnum(44)),
        b if b.contains("medium") => format!("{}/{}-{}", r.alnum(8).to_lowercase(), slug(head), r.hex(12)),
        b if b.contains("reddit") => format!("{}/{}/", r.alnum(7).to_lowercase(), slug(head).replace('-', "_")),
        _ => slug(head),
    };
    let url = format!("{base}{tail}");
    let (title, flaky) = if base.contains("docs.google") {
        // A sign-in page for the server's fetch.
        (Some("Google Docs: Sign-in".to_string()), 0.02)
    } else if base.contains("reddit") {
        (Some("Reddit - Dive into anything".to_string()), 0.3)
    } else if base.contains("ycombinator") {
        (Some(format!("{head} | Hacker News")), 0.02)
    } else if base.contains("github") {
        (Some(format!("GitHub - {tail}")), 0.02)
    } else if base.contains("nytimes") {
        // Behind a bot wall: the fetch often gets nothing.
        (Some(format!("{head}{suffix}")), 0.5)
    } else {
        (Some(format!("{head}{suffix}")), 0.05)
    };
    if r.chance(0.05) {
        // A PDF: no title.
        return Page {
            url: format!("https://www.{}.org/reports/{}.pdf", slug(r.one(TOPICS)), slug(head)),
            title: None,
            flaky: 0.0,
        };
    }
    Page { url, title, flaky }
}

/// Local hour weights for people at work.
const OFFICE: [i64; 24] = [0, 0, 0, 0, 0, 0, 0, 1, 4, 8, 9, 8, 5, 6, 8, 8, 7, 5, 2, 1, 1, 1, 0, 0];
/// Local hour weights for browsing.
const BROWSE: [i64; 24] = [1, 0, 0, 0, 0, 0, 1, 2, 4, 5, 5, 4, 5, 5, 5, 4, 4, 4, 4, 5, 6, 5, 3, 2];

/// A time on `day` (UTC midnight) at a local hour drawn from `rhythm`, `tz` hours east of UTC.
fn when(r: &mut Rng, day: i64, tz: i64, rhythm: &[i64; 24]) -> i64 {
    let h = r.weighted(rhythm) as i64;
    day + (h - tz) * HOUR + r.range(0, 3_599) * SECOND + r.range(0, 999_999)
}

/// Pushes a first attempt, giving it its group.
fn push(reqs: &mut Vec<Req>, mut x: Req) -> usize {
    x.grp = reqs.len();
    reqs.push(x);
    reqs.len() - 1
}

/// A resend of `x`, `delay` µs after it.
fn resend(x: &Req, delay: i64) -> Req {
    Req { at: x.at + delay, slow: false, ..x.clone() }
}

fn base(at: i64, key: Option<i64>, pg: &Page) -> Req {
    Req { at, key, url: pg.url.clone(), html: pg.title.clone(), flaky: pg.flaky, fwd: true, ..Req::default() }
}

/// Campaign of a day: (tag, first day, last day).
fn campaign(d: i64) -> (&'static str, i64, i64) {
    match d {
        0..=13 => ("autumn-sale", 0, 16),
        14..=22 => ("wool-week", 14, 22),
        23..=33 => ("black-friday", 23, 34),
        _ => ("holiday-gifts", 34, 60),
    }
}

fn marketing(r: &mut Rng, reqs: &mut Vec<Req>, late: &mut usize) {
    let mut slugs: HashSet<String> = HashSet::new();
    let mut own: HashMap<i64, Vec<Req>> = HashMap::new();
    for d in 0..DAYS {
        let day = START + d * DAY;
        let weekend = weekday(day) >= 5;
        for (key, rate) in [(ANNA, 6.0), (BEN, 4.5)] {
            let n = r.poisson(if weekend { 0.3 } else { rate });
            for _ in 0..n {
                let at = when(r, day, 1, &OFFICE);
                if at >= NOW {
                    continue;
                }
                let hist = own.entry(key).or_default();
                if !hist.is_empty() && r.chance(0.06) {
                    // The same link for another placement, days later.
                    let old = r.pick(hist).clone();
                    let x = Req { at, slug: None, ..old };
                    push(reqs, x);
                    continue;
                }
                let (camp, first, last) = campaign(d);
                let pg = match r.weighted(&[55, 15, 20, 10]) {
                    0 => product(r),
                    1 => collection(r),
                    2 => post(r.one(TOPICS)),
                    _ => article(r),
                };
                let mut x = base(at, Some(key), &pg);
                let source = r.one(&["instagram", "facebook", "tiktok", "pinterest", "print", "partner"]);
                if r.chance(0.75) && pg.url.starts_with(SHOP) {
                    let medium = match source {
                        "print" => "qr",
                        "partner" => "referral",
                        _ => "social",
                    };
                    x.url = format!("{}?utm_source={source}&utm_medium={medium}&utm_campaign={camp}", pg.url);
                }
                x.tags.push(camp.to_string());
                if r.chance(0.8) {
                    x.tags.push(source.to_string());
                }
                x.tags.sort();
                if r.chance(0.18) {
                    let mut s = format!("{}-{}", camp.split('-').next().unwrap(), slug(r.one(PRODUCTS)));
                    if slugs.contains(&s) {
                        s = format!("{s}-{source}");
                    }
                    if slugs.insert(s.clone()) {
                        x.slug = Some(s);
                    }
                }
                if r.chance(0.45) {
                    x.domain = Some(SHOP_DOMAIN);
                }
                if r.chance(0.25) {
                    x.until = Some(START + last * DAY + 23 * HOUR + 59 * MINUTE + 59 * SECOND - HOUR);
                }
                if r.chance(0.05) {
                    x.since = Some(START + first.max(d + 1) * DAY - HOUR);
                }
                if r.chance(0.03) {
                    x.max = Some(r.one(&[50, 100, 500]));
                }
                x.crawl = r.chance(0.08);
                if r.chance(0.15) {
                    x.title =
                        Some(format!("{} {source} – {camp}", r.one(&["Bio link", "Story", "Flyer", "Post", "Ad"])));
                }
                x.curated = true;
                let force = *late < LATE.len() && at >= LATE[*late] && x.slug.is_none();
                *late += usize::from(force);
                let i = push(reqs, x.clone());
                hist.push(reqs[i].clone());
                if force || r.chance(0.025) {
                    // Enter pressed twice before the form disables its button.
                    let y = resend(&reqs[i], r.range(20_000, 150_000));
                    reqs.push(y);
                }
                let mut prev = reqs[i].clone();
                while x.slug.is_none() && r.chance(0.12) {
                    // Another flyer, post or story for the same page: its own short URL to count it apart.
                    let y = Req { at: prev.at + r.range(20, 360) * SECOND + r.range(0, 999_999), ..prev.clone() };
                    let j = push(reqs, y);
                    prev = reqs[j].clone();
                }
            }
        }
    }
}

fn extension(r: &mut Rng, reqs: &mut Vec<Req>, late: &mut usize) {
    // (key, creates a day, UTC offset, tags the links)
    let people = [(EXT[0], 3.0, 1, false), (EXT[1], 4.0, -5, true), (EXT[2], 2.0, 1, false), (EXT[3], 1.5, 0, true)];
    let mut hist: Vec<Vec<Page>> = vec![Vec::new(); people.len()];
    for d in 0..DAYS {
        let day = START + d * DAY;
        let weekend = weekday(day) >= 5;
        for (p, &(key, rate, tz, tag)) in people.iter().enumerate() {
            for _ in 0..r.poisson(if weekend { rate * 0.5 } else { rate * 1.15 }) {
                let at = when(r, day, tz, &BROWSE);
                if at >= NOW {
                    continue;
                }
                let pg = if !hist[p].is_empty() && r.chance(0.1) {
                    // The same page shortened again, to share it somewhere else.
                    r.pick(&hist[p]).clone()
                } else {
                    match r.weighted(&[70, 20, 10]) {
                        0 => article(r),
                        1 => product(r),
                        _ => post(r.one(TOPICS)),
                    }
                };
                hist[p].push(pg.clone());
                let mut x = base(at, Some(key), &pg);
                // The tab's title; a PDF's tab shows its file name.
                x.title = Some(pg.title.clone().unwrap_or_else(|| pg.url.rsplit('/').next().unwrap().to_string()));
                if tag {
                    x.tags = vec!["shlink-extension".into()];
                }
                x.curated = r.chance(0.5);
                let force = *late < LATE.len() && at >= LATE[*late];
                *late += usize::from(force);
                let i = push(reqs, x);
                if force || r.chance(0.06) {
                    // A double click on the toolbar button.
                    let y = resend(&reqs[i], r.range(80_000, 450_000));
                    reqs.push(y);
                } else if r.chance(0.02) {
                    // Clicked again minutes later: the clipboard was overwritten.
                    let y = Req { at: at + r.range(60, 900) * SECOND, ..reqs[i].clone() };
                    push(reqs, y);
                }
            }
        }
    }
}

/// A script's create and, when it was held up, its resends after the client's timeout and backoff; gives the time the
/// script moves on (it waits for each answer).
fn scripted(r: &mut Rng, reqs: &mut Vec<Req>, x: Req, held: f64, timeout: i64, backoff: &[i64]) -> i64 {
    let sent = x.at;
    if !r.chance(held) {
        push(reqs, x);
        return sent + r.range(200_000, 1_500_000);
    }
    // Held up: queued for a worker (and, one time in three, its title fetch timed out), it commits after the client
    // gave up; the resend usually goes through at once, or is held up too and sent again.
    let queued = r.range(2, 14) * SECOND + r.range(0, 999_999);
    let i = push(reqs, Req { at: sent + queued, slow: r.chance(0.35), ..x });
    let mut t = sent;
    for (k, b) in backoff.iter().enumerate() {
        t += timeout + b + r.range(0, 999_999);
        let again = k + 1 < backoff.len() && r.chance(0.25);
        let wait = if again { r.range(2, 14) * SECOND } else { 0 };
        let y = resend(&reqs[i], t + wait - reqs[i].at);
        reqs.push(y);
        if !again {
            break;
        }
    }
    t + r.range(200_000, 1_500_000)
}

fn newsletter(r: &mut Rng, reqs: &mut Vec<Req>) {
    for d in 0..DAYS {
        let day = START + d * DAY;
        let wd = weekday(day);
        // The daily digest, weekdays at 06:00 UTC; the newsletter on Thursdays at 07:00.
        let runs: Vec<(&str, i64, usize)> = match wd {
            3 => vec![("digest", 6, r.range(8, 13) as usize), ("newsletter", 7, r.range(20, 30) as usize)],
            0..=4 => vec![("digest", 6, r.range(8, 13) as usize)],
            _ => vec![],
        };
        for (kind, hour, n) in runs {
            let issue = format!("nl-{}", d / 7 + 41);
            let camp = if kind == "digest" { "digest".to_string() } else { issue };
            let utm = |u: &str| {
                let sep = if u.contains('?') { '&' } else { '?' };
                format!("{u}{sep}utm_source={kind}&utm_medium=email&utm_campaign={camp}")
            };
            let mut pages: Vec<Page> = vec![home()];
            for _ in 0..n {
                let pg = match r.weighted(&[35, 15, 25, 25]) {
                    0 => product(r),
                    1 => collection(r),
                    2 => post(r.one(TOPICS)),
                    _ => article(r),
                };
                pages.push(pg);
            }
            if kind == "newsletter" {
                // The footer links the home page again, then the gift cards and the shop's Instagram.
                pages.push(home());
                pages.push(Page {
                    url: format!("{SHOP}/products/gift-card"),
                    title: Some("Gift Card – Example Shop".into()),
                    flaky: 0.01,
                });
            } else {
                pages.push(Page {
                    url: format!("{SHOP}/pages/shipping"),
                    title: Some("Shipping and delivery – Example Shop".into()),
                    flaky: 0.01,
                });
            }
            pages.push(Page {
                url: "https://www.instagram.com/exampleshop/".into(),
                title: Some("Example Shop (@exampleshop) • Instagram photos and videos".into()),
                flaky: 0.6,
            });
            let mut t = day + hour * HOUR + r.range(0, 90) * SECOND + r.range(0, 999_999);
            for pg in pages {
                let mut x = base(t, Some(NEWS), &pg);
                if pg.url.starts_with(SHOP) {
                    x.url = utm(&pg.url);
                }
                x.tags = vec![kind.to_string()];
                // A full run: RoadRunner's workers all busy while pages' titles are fetched.
                let held = if kind == "newsletter" { 0.03 } else { 0.012 };
                t = scripted(r, reqs, x, held, 15 * SECOND, &[5 * SECOND, 10 * SECOND]) + r.range(50_000, 300_000);
            }
        }
    }
}

fn social(r: &mut Rng, reqs: &mut Vec<Req>) {
    let mut posts: Vec<(Page, String)> = Vec::new();
    for d in 0..DAYS {
        let day = START + d * DAY;
        if weekday(day) >= 5 {
            continue;
        }
        for _ in 0..r.poisson(2.2) {
            let at = when(r, day, 1, &OFFICE);
            if at >= NOW {
                continue;
            }
            let topic = r.one(TOPICS);
            let mut pg = post(topic);
            if posts.iter().any(|p| p.0.url == pg.url) {
                pg.url = format!("{}-{}", pg.url, d);
            }
            let name = format!("{}{}", topic[..1].to_uppercase(), &topic[1..]);
            posts.push((pg.clone(), name));
            let (pg, name) = posts.last().unwrap().clone();
            let mut x = base(at, Some(SOCIAL), &pg);
            x.url = format!("{}?utm_source=mastodon&utm_medium=social", pg.url);
            x.title = Some(name);
            x.tags = vec!["blog".into(), "mastodon".into()];
            scripted(r, reqs, x.clone(), 0.02, 10 * SECOND, &[5 * SECOND, 5 * SECOND]);
            if r.chance(0.05) {
                // The post updated: WordPress fires the webhook again.
                push(reqs, Req { at: at + r.range(10 * 60, 6 * 3600) * SECOND, ..x });
            }
        }
    }
}

fn support(r: &mut Rng, reqs: &mut Vec<Req>) {
    let articles: Vec<Page> = HELP
        .iter()
        .map(|h| Page {
            url: format!("https://help.example.shop/hc/en-us/articles/{}-{}", 36_000_000 + h.len() * 7_919, slug(h)),
            title: Some(format!("{h} – Example Shop Help Center")),
            flaky: 0.02,
        })
        .collect();
    for d in 0..DAYS {
        let day = START + d * DAY;
        let weekend = weekday(day) >= 5;
        for _ in 0..r.poisson(if weekend { 1.0 } else { 5.0 }) {
            let at = when(r, day, 1, &OFFICE);
            if at >= NOW {
                continue;
            }
            let pg = if r.chance(0.6) {
                articles[r.skewed(articles.len() as u64) as usize].clone()
            } else {
                Page { url: format!("https://files.example.shop/s/{}.png", r.alnum(10)), title: None, flaky: 0.0 }
            };
            // GET /rest/v3/short-urls/shorten?longUrl=...: the long URL only.
            let x = base(at, Some(SUPPORT), &pg);
            let i = push(reqs, x);
            if r.chance(0.02) {
                // Run again when nothing seemed to happen.
                let y = resend(&reqs[i], r.range(2, 8) * SECOND + r.range(0, 999_999));
                reqs.push(y);
            }
            if pg.title.is_some() && r.chance(0.08) {
                // The same article for the next customer.
                let y = Req { at: at + r.range(2, 40) * MINUTE, ..reqs[i].clone() };
                push(reqs, y);
            }
        }
    }
}

fn releases(r: &mut Rng, reqs: &mut Vec<Req>) {
    let mut minor = 14;
    let mut patch = 0;
    for d in 0..DAYS {
        let day = START + d * DAY;
        if weekday(day) >= 5 || !r.chance(0.35) {
            continue;
        }
        if r.chance(0.3) {
            (minor, patch) = (minor + 1, 0);
        } else {
            patch += 1;
        }
        let v = format!("2.{minor}.{patch}");
        let pg = Page {
            url: format!("https://github.com/example-shop/storefront/releases/tag/v{v}"),
            title: Some(format!("Release v{v} · example-shop/storefront · GitHub")),
            flaky: 0.02,
        };
        let mut x = base(when(r, day, 1, &OFFICE), Some(CI), &pg);
        x.slug = Some(format!("v{}", v.replace('.', "-")));
        x.title = Some(format!("Storefront {v}"));
        x.tags = vec!["release".into()];
        let i = push(reqs, x);
        if r.chance(0.15) {
            // curl --retry after a 502 from the proxy: the slug is taken by then.
            let y = resend(&reqs[i], r.range(1, 4) * SECOND);
            reqs.push(y);
        }
    }
}

fn cli(r: &mut Rng, reqs: &mut Vec<Req>) {
    for d in 0..DAYS {
        let day = START + d * DAY;
        for _ in 0..r.poisson(0.35) {
            let at = when(r, day, 1, &OFFICE);
            if at >= NOW {
                continue;
            }
            let pg = if r.chance(0.5) { product(r) } else { article(r) };
            let mut x = base(at, None, &pg);
            if r.chance(0.3) {
                x.tags = vec!["internal".into()];
            }
            push(reqs, x);
        }
    }
}

fn import(r: &mut Rng, reqs: &mut Vec<Req>) {
    let at = START + 10 * HOUR + 12 * MINUTE;
    let mut past = START - 6 * 365 * DAY;
    let mut seen: Vec<Page> = Vec::new();
    for k in 0..240i64 {
        past += r.range(2 * 3600, 18 * DAY / SECOND) * SECOND;
        let pg = if !seen.is_empty() && r.chance(0.07) {
            // Bitly made a new bitlink for a link shortened again.
            r.pick(&seen).clone()
        } else {
            match r.weighted(&[40, 15, 20, 25]) {
                0 => product(r),
                1 => collection(r),
                2 => post(r.one(TOPICS)),
                _ => article(r),
            }
        };
        seen.push(pg.clone());
        let mut x = base(at + k * r.range(8_000, 60_000), None, &pg);
        x.title = if r.chance(0.9) { pg.title.clone() } else { None };
        if r.chance(0.1) {
            x.tags = vec![r.one(&["instagram", "newsletter", "print"]).to_string()];
        }
        x.import = Some((r.alnum(7), secs(past.min(START - DAY))));
        push(reqs, x);
    }
}

/// SHA-256 of `data`, in hex.
#[allow(clippy::needless_range_loop)]
fn sha256(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&(data.len() as u64 * 8).to_be_bytes());
    for chunk in msg.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([chunk[4 * i], chunk[4 * i + 1], chunk[4 * i + 2], chunk[4 * i + 3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            (hh, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

/// What the request set, as the row keeps it now (with the resolved title): a copy equal to its original on this is
/// a retry's row a scan can see; a row equal to an earlier one on this is a legitimate repeat.
type Key = String;

fn key(w: &Row) -> Key {
    let x = &w.x;
    let mut tags = x.tags.clone();
    tags.sort();
    format!(
        "{:?}",
        (
            (&x.url, &w.title, w.auto, x.since, x.until, x.max, x.domain, x.crawl, x.fwd),
            (tags, &x.slug, x.key, x.import.as_ref().map(|i| &i.0)),
        )
    )
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x5_41_1C);
    let mut reqs: Vec<Req> = Vec::new();
    let mut late = 0;
    import(&mut r, &mut reqs);
    marketing(&mut r, &mut reqs, &mut late);
    extension(&mut r, &mut reqs, &mut late);
    newsletter(&mut r, &mut reqs);
    social(&mut r, &mut reqs);
    support(&mut r, &mut reqs);
    releases(&mut r, &mut reqs);
    cli(&mut r, &mut reqs);
    reqs.retain(|x| x.at < NOW - SECOND);
    reqs.sort_by_key(|x| x.at);

    // The server, request by request.
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut taken: HashSet<(String, Option<i64>)> = HashSet::new();
    let mut rows: Vec<Row> = Vec::new();
    for x in reqs {
        let (title, auto, work) = if let Some((_, _)) = &x.import {
            (x.title.clone(), false, r.range(2_000, 20_000))
        } else if x.title.is_some() {
            (x.title.clone(), false, r.range(15_000, 90_000))
        } else if x.slow {
            // The title fetch timed out (3 s connect, 3 s read).
            (None, false, r.range(3_000_000, 6_200_000))
        } else if x.html.is_none() || r.chance(x.flaky) {
            (None, false, r.range(80_000, 3_100_000))
        } else {
            (x.html.clone(), true, r.range(150_000, 1_800_000))
        };
        let code = match (&x.slug, &x.import) {
            (Some(s), _) => {
                if taken.contains(&(s.clone(), x.domain)) {
                    // NonUniqueSlugException: 400, nothing written.
                    continue;
                }
                s.clone()
            }
            (None, Some((hash, _))) if !taken.contains(&(hash.clone(), None)) => hash.clone(),
            _ => loop {
                let c: String = (0..5).map(|_| ALPHABET[r.below(62) as usize] as char).collect();
                if !taken.contains(&(c.clone(), x.domain)) {
                    break c;
                }
            },
        };
        taken.insert((code.clone(), x.domain));
        let created = match &x.import {
            Some((_, at)) => *at,
            None => secs(x.at + work),
        };
        let order_at = x.at + work;
        rows.push(Row { x, id: order_at, code, created, title, auto, alive: true });
    }
    // Ids in commit order.
    rows.sort_by_key(|w| w.id);
    for (i, w) in rows.iter_mut().enumerate() {
        w.id = 1 + i as i64;
    }

    // Later work: edits and deletions in the web client.
    let mut first: HashMap<usize, usize> = HashMap::new();
    for k in 0..rows.len() {
        let grp = rows[k].x.grp;
        let o = *first.entry(grp).or_insert(k);
        let w = &rows[k];
        if o != k {
            // A retry's pair: someone may notice.
            let both_curated = w.x.curated;
            if both_curated && r.chance(0.35) {
                // The one not copied is deleted: mostly the first (the extension copied the last answer).
                let gone = if r.chance(0.6) { o } else { k };
                rows[gone].alive = false;
                continue;
            }
            if both_curated && r.chance(0.2) {
                let used = if r.chance(0.7) { k } else { o };
                edit(&mut r, &mut rows[used]);
            }
            continue;
        }
        if w.x.import.is_some() {
            continue;
        }
        let p_edit = if matches!(w.x.key, Some(ANNA) | Some(BEN)) { 0.12 } else { 0.015 };
        if r.chance(p_edit) {
            edit(&mut r, &mut rows[k]);
        }
        if r.chance(0.02) {
            rows[k].alive = false;
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("short_urls", &columns);
    let mut tags = Child::new("short_urls_in_tags", &["short_url_id", "tag_id"]);
    let mut tag_ids: HashMap<String, i64> = HashMap::new();
    let mut orig: HashMap<usize, Key> = HashMap::new();
    let mut seen: HashSet<Key> = HashSet::new();
    for w in &rows {
        // Tags are made on first use, deleted rows' tags too.
        let mut ids: Vec<i64> = Vec::new();
        for t in &w.x.tags {
            let n = tag_ids.len() as i64 + 1;
            ids.push(*tag_ids.entry(t.clone()).or_insert(n));
        }
        if !w.alive {
            continue;
        }
        let k = key(w);
        // The first of a request's attempts still there is the original, whichever committed first.
        let mark = if let Some(o) = orig.get(&w.x.grp) {
            if *o != k {
                f.hidden.insert(w.id.to_string());
            }
            Mark::Retry
        } else if seen.contains(&k) {
            Mark::Legit
        } else {
            Mark::Plain
        };
        orig.entry(w.x.grp).or_insert_with(|| k.clone());
        seen.insert(k);
        let x = &w.x;
        f.push(&[
            ("id", V::I(w.id)),
            ("original_url", V::t(&x.url)),
            ("long_url_hash", V::Bin(sha256(x.url.as_bytes()))),
            ("short_code", V::t(&w.code)),
            ("date_created", V::AtSecs(w.created)),
            ("valid_since", x.since.map_or(V::Null, V::AtSecs)),
            ("valid_until", x.until.map_or(V::Null, V::AtSecs)),
            ("max_visits", V::opt_i(x.max)),
            ("import_source", if x.import.is_some() { V::t("bitly") } else { V::Null }),
            ("import_original_short_code", V::opt_t(x.import.as_ref().map(|i| i.0.as_str()))),
            ("title", V::opt_t(w.title.as_deref())),
            ("title_was_auto_resolved", V::B(w.auto)),
            ("crawlable", V::B(x.crawl)),
            ("forward_query", V::B(x.fwd)),
            ("domain_id", V::opt_i(x.domain)),
            ("author_api_key_id", V::opt_i(x.key)),
        ]);
        f.mark(w.id, mark);
        ids.sort();
        ids.dedup();
        for t in ids {
            tags.push(&[("short_url_id", V::I(w.id)), ("tag_id", V::I(t))]);
        }
    }
    f.children.push(tags);
    f
}

/// An edit in the web client (PATCH): the validity extended, the title set, the tags or the long URL changed.
fn edit(r: &mut Rng, w: &mut Row) {
    match r.below(4) {
        0 if w.x.until.is_some() => w.x.until = w.x.until.map(|u| u + r.range(3, 21) * DAY),
        0 | 1 => {
            w.title = Some(format!(
                "{} ({})",
                w.title.clone().unwrap_or_else(|| "Link".into()),
                r.one(&["v2", "final", "IG", "QR"])
            ));
            w.auto = false;
        }
        2 => w.x.tags.push(r.one(&["q4", "reviewed", "team", "paid"]).to_string()),
        _ => {
            let sep = if w.x.url.contains('?') { '&' } else { '?' };
            w.x.url = format!("{}{sep}ref={}", w.x.url, r.one(&["ig", "qr", "fb", "mail"]));
        }
    }
}
