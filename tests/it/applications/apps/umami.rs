//! Umami (Next.js + Prisma; PostgreSQL, and MySQL until v3.0 dropped it): `website_event`, as the `/api/send` collect
//! endpoint writes it for the tracker script and for server-side clients, with `event_data` (its rows' custom
//! properties) as a child: one Umami install, six websites, 35 days from T0.
//! Read: umami-software/umami (c0ea3ae, after v3.1.0) prisma/schema.prisma (`relationMode = "prisma"`: no foreign
//! keys), prisma/migrations/ 01_init, 02_report_schema_session_data, 03_metric_performance_index, 05_add_visit_id,
//! 06_session_data, 07_add_tag, 08_add_utm_clid, 09_update_hostname_region, 17_remove_duplicate_key,
//! 18_add_performance; src/app/api/send/route.ts, src/queries/sql/events/saveEvent.ts and saveEventData.ts,
//! src/lib/crypto.ts (`uuid`, `getSalt`), src/lib/data.ts (`flattenJSON`, `getStringValue`), src/lib/constants.ts
//! (`EVENT_TYPE`, `DATA_TYPE`), src/lib/detect.ts (`getClientInfo`, `hasBlockedIp`), src/lib/ip.ts, src/lib/url.ts,
//! src/queries/prisma/website.ts (`resetWebsite`, `deleteWebsite`), src/tracker/index.js; at v2.20.2 (3eb2e89, the
//! last release with MySQL) db/mysql/migrations/ 01-13, db/mysql/schema.prisma, src/app/api/send/route.ts,
//! src/queries/sql/events/saveEvent.ts, src/tracker/index.js; umami-software/node (ea03235) index.ts, README.md
//! (`@umami/node`). Issues seen: umami #542 (page views counted twice), #1224 (in-app browsers
//! counted several times).
//! On a create: `event_id` a fresh uuid v4; `website_id` the payload's; `session_id` a v5 uuid of website, client IP,
//! user agent and a salt from the start of the month (recomputed on every request, so it turns on the 1st);
//! `visit_id` the one in the `x-umami-cache` token the tracker got back from its previous send on that page load,
//! else (a page's first send, a server client, or a token older than 30 minutes) a v5 uuid of the session and the
//! hour; `created_at` the server's `new Date()` (ms; TIMESTAMP(0) on MySQL, which keeps the second); `url_path`
//! the path plus hash, `url_query` the search without `?` ("" when none), the utm fields and click ids read from it;
//! `referrer_*` from the payload's referrer when there is one (path, query or "", host without `www.`), else NULL:
//! the tracker sends the document's referrer (blank when same-origin) on a page load, the previous URL after a
//! `pushState`; `page_title` the document title; `event_type` 2 with `event_name` when the payload has a name, else 1;
//! `tag` the script's `data-tag`; `hostname` `location.hostname` (or "localhost" for a server client that sends no
//! URL, whose `url_path` is then ""); the perf columns (PostgreSQL only) stay NULL. `event_data` gets one row per
//! flattened key of the payload's data (fresh uuid; numbers also as "%.4f" text), same `created_at`.
//! Later: nothing updates a row. `resetWebsite` (Settings, Data, Reset) deletes a website's events and event data:
//! the staging site's first week of testing is gone (reset on day 6).
//! Retries: the tracker sends each event once with `fetch(..., {keepalive: true})` and swallows errors: no retry; its
//! only unload-time send is the opt-in performance beacon, guarded by a `sent` flag (not used here). Copies come from
//! below and beside it: Chrome re-sending a POST on a reused keep-alive socket the proxy had closed (20-100 ms), or a
//! reverse proxy retrying the POST on another upstream after its timeout while the first attempt, stuck on the
//! database, still commits (10-60 s, a quarter of them twice): 1% of sends, a third of them in three slow stretches of
//! the server; a WordPress site that had the script twice (theme header and a plugin) for a day and a half, so two
//! tracker instances sent every event 1-15 ms apart; the SaaS backend's `@umami/node` calls (no retry of their own)
//! wrapped in p-retry with a 10 s timeout (the copy 11-13 s later, sometimes a third), then the job queue's retry 5-15
//! minutes on. Three in the last day. A copy has the same session; its visit is the token's, or recomputed from its
//! own hour (a first page view re-sent across the hour gets another `visit_id`: hidden, like copies more than 5 minutes
//! late and copies with an identical legitimate row within 2 minutes). Copies have no fate of their own (no row is
//! ever edited).
//! Legitimate repeats: a reload (same URL and document referrer, a fresh tracker, the same hour: the same row); an SPA
//! visitor going back and forth with the site's links (A, B, A, B: the second B equals the first); the same button
//! clicked again (copy-code, the pricing toggle whose period goes only to `event_data`, double clicks on the signup
//! link 120-350 ms apart); colleagues behind one office NAT with the same browser build (one session); an uptime
//! monitor with a browser's user agent loading the home page every 30 minutes until its IP went into IGNORE_IP; the
//! backend's events, one session per worker and month, one visit per hour (the billing run's `invoice_paid` seconds
//! apart, often with the same plan and amount). Many people on the same page (the blog post on Hacker News) differ by
//! session.
//! Guessed: the sites, their pages, traffic, rhythms, referrer and campaign mix; the proxy and its timeouts, the slow
//! stretches, the double install, the backend's retry wrapper and event names, the office, the monitor; TZ=UTC on the
//! server (the salt's month); hashes stand in for the v5 uuids (APP_SECRET unknown). Link, pixel and performance
//! events (types 3-5) are not used.
use std::collections::{HashMap, HashSet};

use super::{Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres, Engine::MySql];

/// The tables as Prisma's migrations leave them: PostgreSQL from the current `prisma/migrations`, MySQL from
/// v2.20.2's `db/mysql/migrations` (no performance columns there). Prisma's `relationMode = "prisma"` keeps the
/// relation from `event_data` out of the database.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"CREATE TABLE "website_event" (
    "event_id" UUID NOT NULL,
    "website_id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(6) DEFAULT CURRENT_TIMESTAMP,
    "url_path" VARCHAR(500) NOT NULL,
    "url_query" VARCHAR(500),
    "referrer_path" VARCHAR(500),
    "referrer_query" VARCHAR(500),
    "referrer_domain" VARCHAR(500),
    "page_title" VARCHAR(500),
    "event_type" INTEGER NOT NULL DEFAULT 1,
    "event_name" VARCHAR(50),
    "visit_id" UUID NOT NULL,
    "tag" VARCHAR(50),
    "fbclid" VARCHAR(255),
    "gclid" VARCHAR(255),
    "li_fat_id" VARCHAR(255),
    "msclkid" VARCHAR(255),
    "ttclid" VARCHAR(255),
    "twclid" VARCHAR(255),
    "utm_campaign" VARCHAR(255),
    "utm_content" VARCHAR(255),
    "utm_medium" VARCHAR(255),
    "utm_source" VARCHAR(255),
    "utm_term" VARCHAR(255),
    "hostname" VARCHAR(100),
    "cls" DECIMAL(10,4),
    "fcp" DECIMAL(10,1),
    "inp" DECIMAL(10,1),
    "lcp" DECIMAL(10,1),
    "ttfb" DECIMAL(10,1),

    CONSTRAINT "website_event_pkey" PRIMARY KEY ("event_id")
);
CREATE INDEX "website_event_created_at_idx" ON "website_event"("created_at");
CREATE INDEX "website_event_session_id_idx" ON "website_event"("session_id");
CREATE INDEX "website_event_website_id_idx" ON "website_event"("website_id");
CREATE INDEX "website_event_website_id_created_at_idx" ON "website_event"("website_id", "created_at");
CREATE INDEX "website_event_website_id_session_id_created_at_idx" ON "website_event"("website_id", "session_id", "created_at");
CREATE INDEX "website_event_website_id_created_at_url_path_idx" ON "website_event"("website_id", "created_at", "url_path");
CREATE INDEX "website_event_website_id_created_at_url_query_idx" ON "website_event"("website_id", "created_at", "url_query");
CREATE INDEX "website_event_website_id_created_at_referrer_domain_idx" ON "website_event"("website_id", "created_at", "referrer_domain");
CREATE INDEX "website_event_website_id_created_at_page_title_idx" ON "website_event"("website_id", "created_at", "page_title");
CREATE INDEX "website_event_website_id_created_at_event_name_idx" ON "website_event"("website_id", "created_at", "event_name");
CREATE INDEX "website_event_visit_id_idx" ON "website_event"("visit_id");
CREATE INDEX "website_event_website_id_visit_id_created_at_idx" ON "website_event"("website_id", "visit_id", "created_at");
CREATE INDEX "website_event_website_id_created_at_tag_idx" ON "website_event"("website_id", "created_at", "tag");
CREATE INDEX "website_event_website_id_created_at_hostname_idx" ON "website_event"("website_id", "created_at", "hostname");
CREATE TABLE "event_data" (
    "event_data_id" UUID NOT NULL,
    "website_id" UUID NOT NULL,
    "website_event_id" UUID NOT NULL,
    "data_key" VARCHAR(500) NOT NULL,
    "string_value" VARCHAR(500),
    "number_value" DECIMAL(19,4),
    "date_value" TIMESTAMPTZ(6),
    "data_type" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_data_pkey" PRIMARY KEY ("event_data_id")
);
CREATE INDEX "event_data_created_at_idx" ON "event_data"("created_at");
CREATE INDEX "event_data_website_id_idx" ON "event_data"("website_id");
CREATE INDEX "event_data_website_event_id_idx" ON "event_data"("website_event_id");
CREATE INDEX "event_data_website_id_created_at_idx" ON "event_data"("website_id", "created_at");
CREATE INDEX "event_data_website_id_created_at_data_key_idx" ON "event_data"("website_id", "created_at", "data_key");"#
            .to_string(),
        Engine::MySql => r#"CREATE TABLE `website_event` (
    `event_id` VARCHAR(36) NOT NULL,
    `website_id` VARCHAR(36) NOT NULL,
    `session_id` VARCHAR(36) NOT NULL,
    `created_at` TIMESTAMP(0) NULL DEFAULT CURRENT_TIMESTAMP(0),
    `url_path` VARCHAR(500) NOT NULL,
    `url_query` VARCHAR(500) NULL,
    `referrer_path` VARCHAR(500) NULL,
    `referrer_query` VARCHAR(500) NULL,
    `referrer_domain` VARCHAR(500) NULL,
    `page_title` VARCHAR(500) NULL,
    `event_type` INTEGER UNSIGNED NOT NULL DEFAULT 1,
    `event_name` VARCHAR(50) NULL,
    `visit_id` VARCHAR(36) NOT NULL,
    `tag` VARCHAR(50) NULL,
    `fbclid` VARCHAR(255) NULL,
    `gclid` VARCHAR(255) NULL,
    `li_fat_id` VARCHAR(255) NULL,
    `msclkid` VARCHAR(255) NULL,
    `ttclid` VARCHAR(255) NULL,
    `twclid` VARCHAR(255) NULL,
    `utm_campaign` VARCHAR(255) NULL,
    `utm_content` VARCHAR(255) NULL,
    `utm_medium` VARCHAR(255) NULL,
    `utm_source` VARCHAR(255) NULL,
    `utm_term` VARCHAR(255) NULL,
    `hostname` VARCHAR(100) NULL,

    INDEX `website_event_created_at_idx`(`created_at`),
    INDEX `website_event_session_id_idx`(`session_id`),
    INDEX `website_event_website_id_idx`(`website_id`),
    INDEX `website_event_website_id_created_at_idx`(`website_id`, `created_at`),
    INDEX `website_event_website_id_session_id_created_at_idx`(`website_id`, `session_id`, `created_at`),
    PRIMARY KEY (`event_id`)
) ENGINE=InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE INDEX `website_event_website_id_created_at_url_path_idx` ON `website_event`(`website_id`, `created_at`, `url_path`);
CREATE INDEX `website_event_website_id_created_at_url_query_idx` ON `website_event`(`website_id`, `created_at`, `url_query`);
CREATE INDEX `website_event_website_id_created_at_referrer_domain_idx` ON `website_event`(`website_id`, `created_at`, `referrer_domain`);
CREATE INDEX `website_event_website_id_created_at_page_title_idx` ON `website_event`(`website_id`, `created_at`, `page_title`);
CREATE INDEX `website_event_website_id_created_at_event_name_idx` ON `website_event`(`website_id`, `created_at`, `event_name`);
CREATE INDEX `website_event_visit_id_idx` ON `website_event`(`visit_id`);
CREATE INDEX `website_event_website_id_visit_id_created_at_idx` ON `website_event`(`website_id`, `visit_id`, `created_at`);
CREATE INDEX `website_event_website_id_created_at_tag_idx` ON `website_event`(`website_id`, `created_at`, `tag`);
CREATE INDEX `website_event_website_id_created_at_hostname_idx` ON `website_event`(`website_id`, `created_at`, `hostname`);
CREATE TABLE `event_data` (
    `event_data_id` VARCHAR(36) NOT NULL,
    `website_event_id` VARCHAR(36) NOT NULL,
    `website_id` VARCHAR(36) NOT NULL,
    `data_key` VARCHAR(500) NOT NULL,
    `string_value` VARCHAR(500) NULL,
    `number_value` DECIMAL(19,4) NULL,
    `date_value` TIMESTAMP(0) NULL,
    `data_type` INTEGER UNSIGNED NOT NULL,
    `created_at` TIMESTAMP(0) NULL DEFAULT CURRENT_TIMESTAMP(0),

    INDEX `event_data_created_at_idx`(`created_at`),
    INDEX `event_data_website_id_idx`(`website_id`),
    INDEX `event_data_website_event_id_idx`(`website_event_id`),
    PRIMARY KEY (`event_data_id`)
) ENGINE=InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE INDEX `event_data_website_id_created_at_idx` ON `event_data`(`website_id`, `created_at`);
CREATE INDEX `event_data_website_id_created_at_data_key_idx` ON `event_data`(`website_id`, `created_at`, `data_key`);"#
            .to_string(),
        Engine::Sqlite => unreachable!("Umami runs on PostgreSQL (and MySQL up to v2)"),
    }
}

const COLUMNS: [&str; 26] = [
    "event_id",
    "website_id",
    "session_id",
    "created_at",
    "url_path",
    "url_query",
    "referrer_path",
    "referrer_query",
    "referrer_domain",
    "page_title",
    "event_type",
    "event_name",
    "visit_id",
    "tag",
    "fbclid",
    "gclid",
    "li_fat_id",
    "msclkid",
    "ttclid",
    "twclid",
    "utm_campaign",
    "utm_content",
    "utm_medium",
    "utm_source",
    "utm_term",
    "hostname",
];
const DATA_COLUMNS: [&str; 9] = [
    "event_data_id",
    "website_id",
    "website_event_id",
    "data_key",
    "string_value",
    "number_value",
    "date_value",
    "data_type",
    "created_at",
];

const START: i64 = T0;
const DAYS: i64 = 35;
const NOW: i64 = START + DAYS * DAY;
/// Where the session salt's month turns (`startOfMonth` on a server running in UTC).
const NOV1: i64 = T0 + 31 * DAY;
/// The staging site's data reset.
const RESET: i64 = START + 6 * DAY + 15 * HOUR + 20 * MINUTE;
/// The café's WordPress sent everything twice (theme header and plugin) from Tuesday 10:14 to Wednesday 20:05 local.
const DOUBLE: (i64, i64) = (START + 19 * DAY + 17 * HOUR + 14 * MINUTE, START + 21 * DAY + 3 * HOUR + 5 * MINUTE);
/// The marketing site's hero experiment: the script carries `data-tag` "hero-a" or "hero-b".
const AB: (i64, i64) = (START + 8 * DAY + 10 * HOUR, START + 22 * DAY + 10 * HOUR);
/// Stretches when the Umami server hung on its database (start, length).
const SLOW: [(i64, i64); 3] = [
    (START + 9 * DAY + 15 * HOUR + 10 * MINUTE, 18 * MINUTE),
    (NOV1 - MINUTE, 8 * MINUTE),
    (START + 30 * DAY + 16 * HOUR + 40 * MINUTE, 12 * MINUTE),
];
/// The first tracker send after each of these is re-sent.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 9 * HOUR, NOW - 3 * HOUR];

const MKT: usize = 0;
const DOCS: usize = 1;
const BLOG: usize = 2;
const CAFE: usize = 3;
const STAGING: usize = 4;
const APP: usize = 5;

struct Site {
    id: &'static str,
    host: &'static str,
    spa: bool,
    pages: &'static [(&'static str, &'static str)],
}

const MKT_PAGES: &[(&str, &str)] = &[
    ("/", "KeelStack — Self-hosted workflow automation"),
    ("/pricing", "Pricing — KeelStack"),
    ("/features", "Features — KeelStack"),
    ("/customers", "Customers — KeelStack"),
    ("/changelog", "Changelog — KeelStack"),
    ("/security", "Security — KeelStack"),
    ("/about", "About — KeelStack"),
    ("/contact", "Contact sales — KeelStack"),
];
const DOCS_PAGES: &[(&str, &str)] = &[
    ("/docs/intro", "Introduction | KeelStack Docs"),
    ("/docs/installation", "Installation | KeelStack Docs"),
    ("/docs/configuration", "Configuration | KeelStack Docs"),
    ("/docs/guides/docker-compose", "Docker Compose | KeelStack Docs"),
    ("/docs/guides/kubernetes", "Kubernetes | KeelStack Docs"),
    ("/docs/api/authentication", "Authentication | KeelStack Docs"),
    ("/docs/api/webhooks", "Webhooks | KeelStack Docs"),
    ("/docs/api/workflows", "Workflows API | KeelStack Docs"),
    ("/docs/guides/sso-okta", "SSO with Okta | KeelStack Docs"),
    ("/docs/upgrading", "Upgrading | KeelStack Docs"),
    ("/docs/faq", "FAQ | KeelStack Docs"),
];
const BLOG_PAGES: &[(&str, &str)] = &[
    ("/", "KeelStack Blog"),
    ("/posts/october-release/", "KeelStack 3.4: branching workflows and audit export | KeelStack Blog"),
    ("/posts/idempotency-keys-in-practice/", "Idempotency keys in practice | KeelStack Blog"),
    ("/posts/why-we-moved-off-redis/", "Why we moved our queue off Redis | KeelStack Blog"),
    ("/posts/postgres-advisory-locks/", "Postgres advisory locks for job scheduling | KeelStack Blog"),
    ("/posts/self-hosting-on-a-raspberry-pi/", "Self-hosting KeelStack on a Raspberry Pi | KeelStack Blog"),
    ("/posts/webhook-retries/", "Webhook retries without tears | KeelStack Blog"),
    ("/tags/postgres/", "Postgres | KeelStack Blog"),
];
const CAFE_PAGES: &[(&str, &str)] = &[
    ("/", "Linden Café – Coffee, breakfast & lunch in Sellwood"),
    ("/menu/", "Menu – Linden Café"),
    ("/hours-location/", "Hours & Location – Linden Café"),
    ("/catering/", "Catering – Linden Café"),
    ("/events/", "Events – Linden Café"),
    ("/about/", "About – Linden Café"),
];

/// The websites, their ids as the UI minted them (uuid v4).
static SITES: [Site; 6] = [
    Site { id: "0b7f3c52-9e14-4d8a-a6f2-5c1e9d07b3a4", host: "keelstack.dev", spa: true, pages: MKT_PAGES },
    Site { id: "5d2e8a91-3b6f-4c07-8e45-a19c7f2d6b30", host: "docs.keelstack.dev", spa: true, pages: DOCS_PAGES },
    Site { id: "a83c1f6e-72d9-4b5a-9c0e-6f4b2d81e957", host: "blog.keelstack.dev", spa: false, pages: BLOG_PAGES },
    Site { id: "e41b9d07-5a3c-4f86-b2d1-8c7e05a96f2b", host: "www.lindencafe.com", spa: false, pages: CAFE_PAGES },
    Site { id: "7c95e2a4-1d8b-4e63-a07f-3b2c9d5e8f16", host: "staging.keelstack.dev", spa: true, pages: MKT_PAGES },
    Site { id: "c2f06b83-94e7-4a1d-8b5c-d7e3a1f09b48", host: "localhost", spa: false, pages: &[] },
];

/// Visits per hour of the day (UTC): Europe and the Americas.
const GLOBAL: [i64; 24] = [3, 2, 2, 2, 2, 3, 5, 7, 9, 10, 10, 10, 11, 12, 13, 13, 12, 11, 10, 9, 8, 7, 5, 4];
/// The café's neighbours, in Portland (UTC-7).
const PORTLAND: [i64; 24] = [9, 7, 5, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 7, 10, 12, 13, 12, 11, 10, 10, 10];

const UAS: &[&str] = &[
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
];
/// An office whose managed Chrome build is the same on every desk, behind one address.
const OFFICE: &str = "198.51.100.23|Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
/// An uptime service's browser check, with a browser's user agent (so `isbot` lets it through).
const MONITOR: &str = "45.63.77.210|Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36";
/// The team testing the staging site.
const DEVS: [&str; 3] = [
    "203.0.113.40|Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
    "203.0.113.40|Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0",
    "203.0.113.40|Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15",
];
/// The SaaS backend's two workers calling `@umami/node` (its default user agent).
const WORKERS: [&str; 2] = ["10.0.3.17|Mozilla/5.0 Umami/v20.18.0", "10.0.3.18|Mozilla/5.0 Umami/v20.18.0"];

const QUERIES: &[&str] = &["webhook", "sso", "docker", "backup", "env", "smtp", "upgrade", "api key", "postgres"];
const OUTBOUND: &[&str] = &[
    "https://github.com/keelstack/keelstack",
    "https://www.postgresql.org/docs/current/explicit-locking.html",
    "https://stripe.com/docs/api/idempotent_requests",
    "https://brandur.org/idempotency-keys",
];
/// Subscriptions the billing run charges: plan, amount, currency, weight.
const PLANS: [(&str, f64, &str, i64); 4] =
    [("team", 49.0, "USD", 12), ("team", 45.0, "EUR", 3), ("business", 199.0, "USD", 4), ("business", 185.0, "EUR", 1)];

/// A referrer as the server splits it.
#[derive(Clone, Debug, PartialEq)]
struct Ref {
    path: String,
    query: String,
    domain: String,
}

/// What a referrer policy of `strict-origin-when-cross-origin` leaves of another site's page: its origin.
fn ext(host: &str) -> Option<Ref> {
    Some(Ref { path: "/".into(), query: String::new(), domain: bare(host).into() })
}

/// An Android app's referrer (`android-app://com.google.android.gm/`).
fn app_ref(package: &str) -> Option<Ref> {
    Some(Ref { path: "/".into(), query: String::new(), domain: package.into() })
}

fn bare(host: &str) -> &str {
    host.strip_prefix("www.").unwrap_or(host)
}

#[derive(Clone, Debug, PartialEq)]
enum Val {
    S(String),
    N(f64),
}

fn s(text: &str) -> Val {
    Val::S(text.to_string())
}

/// A collect request as the server got it.
#[derive(Clone)]
struct Req {
    site: usize,
    /// Client IP and user agent.
    visitor: String,
    /// The `x-umami-cache` token: visit and `iat` (seconds).
    cache: Option<(String, i64)>,
    path: &'static str,
    hash: &'static str,
    query: String,
    referrer: Option<Ref>,
    title: Option<&'static str>,
    name: Option<&'static str>,
    tag: Option<&'static str>,
    data: Vec<(&'static str, Val)>,
}

struct Row {
    uid: usize,
    /// The uid of the request's first row (its own for a first attempt).
    grp: usize,
    at: i64,
    session: String,
    visit: String,
    mark: Mark,
    req: Req,
}

fn fnv(key: &str) -> u64 {
    key.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// `uuid(...args)`: a v5 uuid of a hash of the arguments and the app secret.
fn v5(key: &str) -> String {
    let mut g = Rng::new(fnv(key));
    let h = g.hex(32);
    let variant = ['8', '9', 'a', 'b'][g.below(4) as usize];
    format!("{}-{}-5{}-{}{}-{}", &h[..8], &h[8..12], &h[13..16], variant, &h[17..20], &h[20..])
}

fn ms(t: i64) -> i64 {
    t - t.rem_euclid(1_000)
}

/// What `/api/send` computes for a request handled at `at`: session, visit, and the token's `iat`.
fn land(req: &Req, at: i64) -> (String, String, i64) {
    let month = if at >= NOV1 { "Sun, 01 Nov 2026 00:00:00 GMT" } else { "Thu, 01 Oct 2026 00:00:00 GMT" };
    let session = v5(&format!("{}{}{month}", SITES[req.site].id, req.visitor));
    let now = at.div_euclid(SECOND);
    match &req.cache {
        Some((visit, iat)) if now - iat <= 1_800 => (session, visit.clone(), *iat),
        _ => {
            let visit = v5(&format!("{session}{}", at.div_euclid(HOUR)));
            (session, visit, now)
        }
    }
}

fn slow(at: i64) -> bool {
    SLOW.iter().any(|&(from, len)| (from..from + len).contains(&at))
}

/// A page load's tracker.
struct Tab {
    site: usize,
    visitor: String,
    tag: Option<&'static str>,
    cache: Option<(String, i64)>,
    page: usize,
    hash: &'static str,
    query: String,
    /// `currentRef`: the document's referrer, or the URL left at the last `pushState`.
    cur_ref: Option<Ref>,
    /// The document's referrer (blank when same-origin), what a reload sends again.
    doc_ref: Option<Ref>,
}

impl Tab {
    fn req(&self, name: Option<&'static str>, data: Vec<(&'static str, Val)>) -> Req {
        let (path, title) = SITES[self.site].pages[self.page];
        Req {
            site: self.site,
            visitor: self.visitor.clone(),
            cache: self.cache.clone(),
            path,
            hash: self.hash,
            query: self.query.clone(),
            referrer: self.cur_ref.clone(),
            title: Some(title),
            name,
            tag: self.tag,
            data,
        }
    }
}

struct Ctx {
    r: Rng,
    rows: Vec<Row>,
    late: usize,
    /// First page views re-sent across the hour so far.
    crossed: usize,
}

impl Ctx {
    /// The request, and the copies its retries landed `tries` later; returns the token the client got back.
    fn send(&mut self, req: Req, at: i64, tries: &[i64]) -> (String, i64) {
        let at = ms(at);
        let (session, visit, iat) = land(&req, at);
        let grp = self.rows.len();
        self.rows.push(Row { uid: grp, grp, at, session, visit: visit.clone(), mark: Mark::Plain, req: req.clone() });
        for &d in tries {
            let t = ms(at + d);
            let (session, visit, _) = land(&req, t);
            let uid = self.rows.len();
            self.rows.push(Row { uid, grp, at: t, session, visit, mark: Mark::Retry, req: req.clone() });
        }
        (visit, iat)
    }

    /// A lost response under the tracker: Chrome's resend on a dead keep-alive socket, or the proxy's retry.
    fn browser_tries(&mut self, at: i64) -> Vec<i64> {
        let forced = self.late < LATE.len() && at >= LATE[self.late];
        if forced {
            self.late += 1;
        }
        let p = if slow(at) { 0.35 } else { 0.01 };
        if !forced && !self.r.chance(p) {
            return Vec::new();
        }
        let d = client_retry_delay(&mut self.r);
        let mut tries = vec![d];
        if d > SECOND && self.r.chance(0.25) {
            tries.push(d + self.r.range(10, 60) * SECOND + self.r.range(0, 999) * 1_000);
        }
        tries
    }

    /// The backend's p-retry around `umami.track` (10 s timeout, 1 s then 2 s backoff), then the job's own retry.
    fn sdk_tries(&mut self, at: i64) -> Vec<i64> {
        let p = if slow(at) { 0.25 } else { 0.02 };
        if !self.r.chance(p) {
            return Vec::new();
        }
        let r = &mut self.r;
        let mut d = 10 * SECOND + r.range(1_000, 2_000) * 1_000 + r.range(5, 60) * 1_000;
        let mut tries = vec![d];
        if r.chance(0.3) {
            d += 10 * SECOND + r.range(2_000, 4_000) * 1_000;
            tries.push(d);
        }
        if r.chance(0.2) {
            d += 10 * SECOND + r.range(5 * 60, 15 * 60) * SECOND + r.range(0, 999) * 1_000;
            tries.push(d);
        }
        tries
    }

    fn track(&mut self, tab: &mut Tab, at: i64, name: Option<&'static str>, data: Vec<(&'static str, Val)>) {
        let req = tab.req(name, data);
        let mut tries = self.browser_tries(at);
        let to_hour = HOUR - at.rem_euclid(HOUR);
        if tab.cache.is_none() && tries.is_empty() && self.crossed < 2 && at > START + 15 * DAY && to_hour < 45 * SECOND
        {
            // A page's first send re-sent by the proxy in the next hour: no token, so the copy gets another visit.
            self.crossed += 1;
            tries.push(to_hour + self.r.range(2_000, 15_000) * 1_000);
        }
        if tab.site == CAFE && (DOUBLE.0..DOUBLE.1).contains(&at) {
            // The second tracker instance, its own fetch a few ms behind the first.
            tries.push(self.r.range(1, 15) * 1_000);
        }
        let token = self.send(req, at, &tries);
        tab.cache = Some(token);
    }

    /// A click on an element with `data-umami-event`; now and then a double click sends it twice.
    fn click(&mut self, tab: &mut Tab, at: i64, name: &'static str, data: Vec<(&'static str, Val)>) -> i64 {
        self.track(tab, at, Some(name), data.clone());
        if self.r.chance(0.1) {
            let again = at + self.r.range(120, 350) * 1_000;
            self.track(tab, again, Some(name), data);
            return again;
        }
        at
    }

    fn sdk(&mut self, worker: usize, at: i64, name: &'static str, data: Vec<(&'static str, Val)>) {
        let req = Req {
            site: APP,
            visitor: WORKERS[worker].to_string(),
            cache: None,
            path: "",
            hash: "",
            query: String::new(),
            referrer: None,
            title: None,
            name: Some(name),
            tag: None,
            data,
        };
        let tries = self.sdk_tries(at);
        self.send(req, at, &tries);
    }
}

/// A visit: where it lands, from where, and how many pages it goes through.
struct Visit {
    site: usize,
    visitor: String,
    at: i64,
    page: usize,
    hash: &'static str,
    query: String,
    referrer: Option<Ref>,
    pages: usize,
    reload: f64,
}

fn tag(site: usize, visitor: &str, at: i64) -> Option<&'static str> {
    let on = site == MKT && (AB.0..AB.1).contains(&at);
    on.then(|| if fnv(visitor).is_multiple_of(2) { "hero-a" } else { "hero-b" })
}

fn other(r: &mut Rng, n: usize, cur: usize) -> usize {
    loop {
        let p = if r.chance(0.5) { r.skewed(n as u64) } else { r.below(n as u64) } as usize;
        if p != cur {
            return p;
        }
    }
}

fn browse(c: &mut Ctx, v: Visit) {
    let site = &SITES[v.site];
    let mut tab = Tab {
        site: v.site,
        tag: tag(v.site, &v.visitor, v.at),
        visitor: v.visitor,
        cache: None,
        page: v.page,
        hash: v.hash,
        query: v.query,
        cur_ref: v.referrer.clone(),
        doc_ref: v.referrer,
    };
    let mut t = v.at;
    c.track(&mut tab, t, None, Vec::new());
    let mut prev: Option<usize> = None;
    for i in 0..v.pages {
        let (after, left) = events(c, &mut tab, t);
        t = after;
        if left {
            return;
        }
        if c.r.chance(v.reload) {
            // A reload: a fresh tracker, the document's referrer again.
            t += c.r.range(2_000, 90_000) * 1_000;
            tab.cache = None;
            tab.cur_ref = tab.doc_ref.clone();
            c.track(&mut tab, t, None, Vec::new());
        }
        if i + 1 == v.pages {
            break;
        }
        t += c.r.range(8, 240) * SECOND + c.r.range(0, 999) * 1_000;
        let next = match prev {
            Some(p) if c.r.chance(0.2) => p,
            _ => other(&mut c.r, site.pages.len(), tab.page),
        };
        prev = Some(tab.page);
        if site.spa {
            // `pushState`: the URL left becomes the referrer, the page view goes 300 ms later.
            tab.cur_ref = Some(Ref {
                path: site.pages[tab.page].0.into(),
                query: tab.query.clone(),
                domain: bare(site.host).into(),
            });
            (tab.page, tab.hash, tab.query) = (next, "", String::new());
            t += 300_000;
        } else {
            // A new document: its same-origin referrer is dropped, the token is gone.
            (tab.page, tab.hash, tab.query) = (next, "", String::new());
            (tab.cache, tab.cur_ref, tab.doc_ref) = (None, None, None);
        }
        c.track(&mut tab, t, None, Vec::new());
    }
}

/// The custom events of a page view; returns the time and whether the visitor left the site.
#[allow(clippy::collapsible_match)] // each arm draws its chances in its own order: a guard would change the rows
fn events(c: &mut Ctx, tab: &mut Tab, at: i64) -> (i64, bool) {
    if tab.visitor == MONITOR {
        return (at, false);
    }
    let path = SITES[tab.site].pages[tab.page].0;
    let mut t = at;
    match (tab.site, path) {
        (MKT | STAGING, "/") => {
            if c.r.chance(0.08) {
                t += c.r.range(5_000, 60_000) * 1_000;
                c.track(tab, t, Some("demo-video"), Vec::new());
            }
            if c.r.chance(0.09) {
                t += c.r.range(4_000, 90_000) * 1_000;
                t = c.click(tab, t, "signup-button", vec![("location", s("hero"))]);
                return (t, true);
            }
        }
        (MKT | STAGING, "/pricing") => {
            if c.r.chance(0.35) {
                for k in 0..c.r.range(1, 4) {
                    t += c.r.range(1_500, 20_000) * 1_000;
                    let period = if k % 2 == 0 { "yearly" } else { "monthly" };
                    c.track(tab, t, Some("pricing-toggle"), vec![("period", s(period))]);
                }
            }
            if c.r.chance(0.16) {
                t += c.r.range(3_000, 60_000) * 1_000;
                let plan = if c.r.chance(0.7) { "pricing-team" } else { "pricing-business" };
                t = c.click(tab, t, "signup-button", vec![("location", s(plan))]);
                return (t, true);
            }
        }
        (MKT | STAGING, "/contact") => {
            if c.r.chance(0.22) {
                t += c.r.range(40, 200) * SECOND;
                c.track(tab, t, Some("contact-form-submit"), Vec::new());
                return (t, true);
            }
        }
        (DOCS, _) => {
            let langs: &[&str] = match path {
                "/docs/installation" => &["bash"],
                "/docs/configuration" | "/docs/guides/docker-compose" | "/docs/guides/kubernetes" => &["yaml", "bash"],
                "/docs/api/authentication" => &["bash", "json"],
                "/docs/api/webhooks" => &["json", "javascript"],
                _ => &[],
            };
            if !langs.is_empty() && c.r.chance(0.22) {
                let mut lang = c.r.one(langs);
                t += c.r.range(5_000, 90_000) * 1_000;
                for k in 0..c.r.range(1, 3) {
                    if k > 0 {
                        t += c.r.range(400, 25_000) * 1_000;
                        if c.r.chance(0.4) {
                            lang = c.r.one(langs);
                        }
                    }
                    c.track(tab, t, Some("copy-code"), vec![("language", s(lang))]);
                }
            }
            if c.r.chance(0.07) {
                t += c.r.range(3_000, 40_000) * 1_000;
                let q = c.r.one(QUERIES);
                c.track(tab, t, Some("docs-search"), vec![("query", s(q))]);
            }
            if path == "/docs/intro" && c.r.chance(0.03) {
                t += c.r.range(10_000, 60_000) * 1_000;
                c.track(tab, t, Some("github-star"), Vec::new());
            }
        }
        (BLOG, _) if path.starts_with("/posts/") => {
            if c.r.chance(0.05) {
                t += c.r.range(30, 400) * SECOND;
                let url = c.r.one(OUTBOUND);
                c.track(tab, t, Some("outbound-link"), vec![("url", s(url))]);
            }
            if c.r.chance(0.025) {
                t += c.r.range(60, 300) * SECOND;
                c.track(tab, t, Some("newsletter-signup"), Vec::new());
            }
        }
        (CAFE, "/" | "/hours-location/") => {
            if c.r.chance(0.1) {
                t += c.r.range(4_000, 60_000) * 1_000;
                t = c.click(tab, t, "call-button", Vec::new());
            }
            if c.r.chance(0.06) {
                t += c.r.range(4_000, 60_000) * 1_000;
                c.track(tab, t, Some("directions"), Vec::new());
                return (t, true);
            }
        }
        (CAFE, "/menu/") => {
            if c.r.chance(0.09) {
                t += c.r.range(10_000, 120_000) * 1_000;
                t = c.click(tab, t, "order-online", Vec::new());
                return (t, true);
            }
        }
        _ => {}
    }
    (t, false)
}

fn when(r: &mut Rng, d0: i64, rhythm: &[i64; 24]) -> i64 {
    d0 + r.weighted(rhythm) as i64 * HOUR + r.below(HOUR as u64) as i64
}

/// A new visitor: an address and a browser.
fn person(r: &mut Rng) -> String {
    let ip = format!("{}.{}.{}.{}", r.range(2, 223), r.below(256), r.below(256), r.range(1, 254));
    format!("{ip}|{}", r.pick(UAS))
}

/// Where a visit lands and what brought it: page, hash, query, referrer.
fn arrive(r: &mut Rng, site: usize) -> (usize, &'static str, String, Option<Ref>) {
    let n = SITES[site].pages.len() as u64;
    let mut page = if r.chance(0.6) { r.skewed(n) } else { r.below(n) } as usize;
    let mut hash = "";
    let mut query = String::new();
    let weights: &[i64] =
        if site == CAFE { &[40, 45, 2, 4, 0, 0, 0, 0, 0, 5, 4] } else { &[34, 36, 4, 3, 6, 3, 3, 2, 2, 5, 2] };
    let mut referrer = match r.weighted(weights) {
        0 => None,
        1 => ext("www.google.com"),
        2 => ext("duckduckgo.com"),
        3 => ext("www.bing.com"),
        4 => ext("github.com"),
        5 => ext("news.ycombinator.com"),
        6 => ext("www.reddit.com"),
        7 => ext("t.co"),
        8 => ext("www.linkedin.com"),
        9 => match site {
            MKT => ext("docs.keelstack.dev"),
            CAFE => ext("www.yelp.com"),
            _ => ext("keelstack.dev"),
        },
        _ if site == CAFE => app_ref("com.google.android.apps.maps"),
        _ => app_ref("com.google.android.gm"),
    };
    match site {
        MKT if r.chance(0.05) => {
            // A Google Ads click.
            (page, referrer) = (r.below(2) as usize, ext("www.google.com"));
            query = format!("gclid=Cj0KCQjw{}_BwE", r.alnum(64));
        }
        MKT if r.chance(0.03) => {
            (page, referrer) = (0, ext("t.co"));
            query = "utm_source=twitter&utm_medium=social&utm_campaign=launch-week".into();
        }
        MKT | DOCS if referrer.as_ref().is_some_and(|x| x.domain == "keelstack.dev") => page = 0,
        DOCS if referrer.as_ref().is_some_and(|x| x.domain == "github.com") && r.chance(0.4) => {
            // A link to a heading, from an issue.
            (page, hash) = *r.pick(&[
                (2, "#environment-variables"),
                (1, "#requirements"),
                (9, "#from-3x-to-34"),
                (6, "#verifying-signatures"),
            ]);
        }
        BLOG if r.chance(0.04) => {
            (page, referrer) = (1, None);
            query = "utm_source=newsletter&utm_medium=email".into();
        }
        CAFE if r.chance(0.12) => {
            // The link in the café's Instagram bio, opened in the in-app browser.
            (page, referrer) = (if r.chance(0.6) { 0 } else { 1 }, ext("l.instagram.com"));
            query = format!(
                "utm_source=ig&utm_medium=social&utm_content=link_in_bio&fbclid=PAZXh0bgNhZW0CMTEAAa{}",
                r.alnum(40)
            );
        }
        _ => {}
    }
    (page, hash, query, referrer)
}

fn visit(r: &mut Rng, pool: &mut Vec<String>, site: usize, at: i64) -> Visit {
    let back = match site {
        DOCS => 0.35,
        CAFE => 0.4,
        BLOG => 0.25,
        _ => 0.2,
    };
    let visitor = if !pool.is_empty() && r.chance(back) {
        pool[r.skewed(pool.len() as u64) as usize].clone()
    } else {
        let k = person(r);
        pool.push(k.clone());
        k
    };
    let (page, hash, query, referrer) = arrive(r, site);
    let pages = 1 + match site {
        MKT => r.poisson(1.5).min(5),
        DOCS => r.poisson(2.5).min(8),
        BLOG if r.chance(0.3) => r.poisson(0.8).min(3),
        BLOG => 0,
        _ => r.poisson(1.0).min(3),
    };
    Visit { site, visitor, at, page, hash, query, referrer, pages, reload: 0.04 }
}

/// A backend event: name and data.
fn app_event(r: &mut Rng) -> (&'static str, Vec<(&'static str, Val)>) {
    match r.weighted(&[3, 3, 4, 5, 2, 1]) {
        0 => ("workspace_created", vec![("region", s(r.one(&["eu", "us", "us"])))]),
        1 => (
            "trial_started",
            vec![("plan", s(r.one(&["team", "team", "business"]))), ("source", s(r.one(&["signup", "invite"])))],
        ),
        2 => ("member_invited", vec![("role", s(r.one(&["editor", "editor", "viewer", "admin"])))]),
        3 => (
            "export_completed",
            vec![("format", s(r.one(&["csv", "csv", "json"]))), ("rows", Val::N(r.range(12, 48_000) as f64))],
        ),
        4 => {
            let &(plan, amount, currency, _) = r.pick(&PLANS);
            ("invoice_paid", vec![("plan", s(plan)), ("amount", Val::N(amount)), ("currency", s(currency))])
        }
        _ => (
            "subscription_canceled",
            vec![
                ("plan", s(r.one(&["team", "business"]))),
                ("reason", s(r.one(&["too_expensive", "missing_feature", "switched", "other"]))),
            ],
        ),
    }
}

fn param(query: &str, name: &str) -> V {
    let value = query.split('&').find_map(|kv| kv.strip_prefix(name).and_then(|rest| rest.strip_prefix('=')));
    value.map_or(V::Null, V::t)
}

/// Everything a row holds but what each attempt mints (`event_id`, `created_at`).
fn key(x: &Row) -> String {
    let q = &x.req;
    let referrer = q.referrer.as_ref().map(|f| (&f.path, &f.query, &f.domain));
    format!(
        "{}|{}|{}|{}{}|{}|{referrer:?}|{:?}|{:?}|{:?}",
        q.site, x.session, x.visit, q.path, q.hash, q.query, q.title, q.name, q.tag
    )
}

pub fn fixture() -> Fixture {
    let mut c = Ctx { r: Rng::new(0x0A3A_71C5), rows: Vec::new(), late: 0, crossed: 0 };
    let mut pools: [Vec<String>; 4] = Default::default();
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let weekend = weekday(d0) >= 5;
        for site in [MKT, DOCS, BLOG, CAFE] {
            let (rate, off) = match site {
                MKT => (8.0, 0.45),
                DOCS => (7.0, 0.4),
                BLOG => (5.5, 0.8),
                _ => (3.8, 1.3),
            };
            let rhythm = if site == CAFE { &PORTLAND } else { &GLOBAL };
            for _ in 0..c.r.poisson(if weekend { rate * off } else { rate }) {
                let at = when(&mut c.r, d0, rhythm);
                let v = visit(&mut c.r, &mut pools[site], site, at);
                browse(&mut c, v);
            }
        }
        // The staging site: the team's testing the first week (reset on day 6), then a QA pass now and then.
        if !weekend {
            let mean = if d <= 6 { 8.0 } else { 1.2 };
            for _ in 0..c.r.poisson(mean) {
                let at = d0 + c.r.range(8 * 60, 18 * 60) * MINUTE + c.r.below(MINUTE as u64) as i64;
                let visitor = c.r.one(&DEVS).to_string();
                let page = c.r.below(MKT_PAGES.len() as u64) as usize;
                let pages = 1 + c.r.poisson(2.0);
                let v = Visit {
                    site: STAGING,
                    visitor,
                    at,
                    page,
                    hash: "",
                    query: String::new(),
                    referrer: None,
                    pages,
                    reload: 0.3,
                };
                browse(&mut c, v);
            }
        }
        // The backend's events, and the nightly digest job on the first worker.
        for _ in 0..c.r.poisson(if weekend { 4.0 } else { 9.0 }) {
            let at = when(&mut c.r, d0, &GLOBAL);
            let worker = c.r.below(2) as usize;
            let (name, data) = app_event(&mut c.r);
            c.sdk(worker, at, name, data);
        }
        let at = d0 + 6 * HOUR + c.r.range(2_000, 40_000) * 1_000;
        let count = c.r.range(140, 260) as f64;
        c.sdk(0, at, "digest_sent", vec![("count", Val::N(count))]);
    }
    // The billing run at midnight on the 1st: one `invoice_paid` per renewed subscription, seconds apart.
    for m0 in [START, NOV1] {
        let mut t = m0 + c.r.range(3_000, 9_000) * 1_000;
        for _ in 0..c.r.range(22, 30) {
            let (plan, amount, currency, _) = PLANS[c.r.weighted(&PLANS.map(|p| p.3))];
            c.sdk(0, t, "invoice_paid", vec![("plan", s(plan)), ("amount", Val::N(amount)), ("currency", s(currency))]);
            t += c.r.range(400, 25_000) * 1_000;
        }
    }
    // The blog post on Hacker News's front page, a Tuesday afternoon.
    let t0 = START + 12 * DAY + 14 * HOUR + 20 * MINUTE;
    for _ in 0..170 {
        let at = t0 + c.r.skewed(8 * 3_600) as i64 * SECOND + c.r.below(SECOND as u64) as i64;
        let referrer = if c.r.chance(0.85) {
            ext("news.ycombinator.com")
        } else if c.r.chance(0.5) {
            None
        } else {
            ext("t.co")
        };
        let visitor = person(&mut c.r);
        let pages = if c.r.chance(0.8) { 1 } else { c.r.range(2, 3) as usize };
        let v =
            Visit { site: BLOG, visitor, at, page: 2, hash: "", query: String::new(), referrer, pages, reload: 0.04 };
        browse(&mut c, v);
    }
    // The release newsletter: the changelog with its campaign parameters.
    let t0 = START + 14 * DAY + 15 * HOUR;
    for _ in 0..36 {
        let at = t0 + c.r.skewed(6 * 3_600) as i64 * SECOND + c.r.below(SECOND as u64) as i64;
        let referrer = match c.r.below(10) {
            0..=5 => None,
            6..=8 => ext("mail.google.com"),
            _ => app_ref("com.google.android.gm"),
        };
        let visitor = if c.r.chance(0.5) && !pools[MKT].is_empty() {
            pools[MKT][c.r.below(pools[MKT].len() as u64) as usize].clone()
        } else {
            person(&mut c.r)
        };
        let query = "utm_source=newsletter&utm_medium=email&utm_campaign=keelstack-3-4".to_string();
        let pages = 1 + c.r.poisson(1.2);
        browse(&mut c, Visit { site: MKT, visitor, at, page: 4, hash: "", query, referrer, pages, reload: 0.04 });
    }
    // Colleagues in one office opening the same docs page from a Slack link, within the hour.
    for (dd, hh, page, n) in [(20, 13, 1, 3), (27, 9, 8, 2)] {
        for _ in 0..n {
            let at =
                START + dd * DAY + hh * HOUR + c.r.range(2 * 60, 50 * 60) * SECOND + c.r.below(SECOND as u64) as i64;
            let pages = 1 + c.r.poisson(1.5).min(4);
            let v = Visit {
                site: DOCS,
                visitor: OFFICE.into(),
                at,
                page,
                hash: "",
                query: String::new(),
                referrer: None,
                pages,
                reload: 0.04,
            };
            browse(&mut c, v);
        }
    }
    // The uptime monitor's browser check of the home page, until its address went into IGNORE_IP.
    let mut t = START + 3 * DAY + 9 * HOUR;
    while t < START + 6 * DAY + 11 * HOUR + 40 * MINUTE {
        let at = t + c.r.range(1_500, 6_000) * 1_000;
        let v = Visit {
            site: MKT,
            visitor: MONITOR.into(),
            at,
            page: 0,
            hash: "",
            query: String::new(),
            referrer: None,
            pages: 1,
            reload: 0.0,
        };
        browse(&mut c, v);
        t += 30 * MINUTE;
    }

    let Ctx { mut r, mut rows, .. } = c;
    rows.retain(|x| x.at < NOW - SECOND && !(x.req.site == STAGING && x.at < RESET));
    rows.sort_by_key(|x| x.at);
    let pos: HashMap<usize, usize> = rows.iter().enumerate().map(|(i, x)| (x.uid, i)).collect();
    let keys: Vec<String> = rows.iter().map(key).collect();
    let ids: Vec<String> = rows.iter().map(|_| r.uuid()).collect();
    let mut f = Fixture::new("website_event", &COLUMNS);
    let mut data = Child::new("event_data", &DATA_COLUMNS);
    let mut seen: HashSet<&str> = HashSet::new();
    for (i, x) in rows.iter().enumerate() {
        let q = &x.req;
        let site = &SITES[q.site];
        let original = if x.mark == Mark::Retry { pos.get(&x.grp).copied() } else { None };
        let mark = match original {
            Some(_) => Mark::Retry,
            None if seen.contains(keys[i].as_str()) => Mark::Legit,
            None => Mark::Plain,
        };
        seen.insert(&keys[i]);
        let (ref_path, ref_query, ref_domain) = match &q.referrer {
            Some(p) => (V::t(&p.path), V::t(&p.query), V::t(&p.domain)),
            None => (V::Null, V::Null, V::Null),
        };
        f.push(&[
            ("event_id", V::t(&ids[i])),
            ("website_id", V::t(site.id)),
            ("session_id", V::t(&x.session)),
            ("created_at", V::AtZ(x.at)),
            ("url_path", V::t(format!("{}{}", q.path, q.hash))),
            ("url_query", V::t(&q.query)),
            ("referrer_path", ref_path),
            ("referrer_query", ref_query),
            ("referrer_domain", ref_domain),
            ("page_title", V::opt_t(q.title)),
            ("event_type", V::I(if q.name.is_some() { 2 } else { 1 })),
            ("event_name", V::opt_t(q.name)),
            ("visit_id", V::t(&x.visit)),
            ("tag", V::opt_t(q.tag)),
            ("fbclid", param(&q.query, "fbclid")),
            ("gclid", param(&q.query, "gclid")),
            ("li_fat_id", param(&q.query, "li_fat_id")),
            ("msclkid", param(&q.query, "msclkid")),
            ("ttclid", param(&q.query, "ttclid")),
            ("twclid", param(&q.query, "twclid")),
            ("utm_campaign", param(&q.query, "utm_campaign")),
            ("utm_content", param(&q.query, "utm_content")),
            ("utm_medium", param(&q.query, "utm_medium")),
            ("utm_source", param(&q.query, "utm_source")),
            ("utm_term", param(&q.query, "utm_term")),
            ("hostname", V::t(site.host)),
        ]);
        f.mark(&ids[i], mark);
        if let Some(o) = original {
            // Past what a retry window could hold, no longer equal to its original, or beside an identical row
            // that is a repeat of its own: nothing in the row tells this copy from a legitimate one.
            let near = rows.iter().enumerate().any(|(j, y)| {
                y.grp != x.grp && y.mark != Mark::Retry && keys[j] == keys[i] && (y.at - x.at).abs() <= 2 * MINUTE
            });
            if keys[o] != keys[i] || x.at - rows[o].at > 5 * MINUTE || near {
                f.hidden.insert(ids[i].clone());
            }
        }
        for (k, value) in &q.data {
            let (text, number, kind) = match value {
                Val::S(text) => (V::t(text), V::Null, 1),
                Val::N(n) => (V::t(format!("{n:.4}")), V::F(*n), 2),
            };
            data.push(&[
                ("event_data_id", V::t(r.uuid())),
                ("website_id", V::t(site.id)),
                ("website_event_id", V::t(&ids[i])),
                ("data_key", V::t(*k)),
                ("string_value", text),
                ("number_value", number),
                ("date_value", V::Null),
                ("data_type", V::I(kind)),
                ("created_at", V::AtZ(x.at)),
            ]);
        }
    }
    f.children.push(data);
    f
}
