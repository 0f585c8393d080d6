//! Listmonk (Go, echo and sqlx; PostgreSQL only): `campaigns` with its `campaign_lists` rows, as `POST /api/campaigns`
//! (`App.CreateCampaign`, then `Core.CreateCampaign` running the `create-campaign` query) writes them for a regional
//! news publisher, The Harbour Post, installed at T0 and used for 112 days: the CMS's worker creates each edition's
//! morning briefing and evening edition and its breaking-news alerts through the API, a sports feed service its
//! full-time alerts, n8n the e-paper notice and the weekly payment reminder, an events script one webinar invitation per
//! edition list, and editors and marketers work in the web UI (new campaign form, clone, the Lists page's "Send opt-in
//! campaign", throwaway "test" campaigns).
//! Read: knadh/listmonk (911e0b7) schema.sql (`campaigns`, `campaign_lists`, the enums), queries/campaigns.sql
//! (`create-campaign`, `update-campaign`, `update-campaign-status`, `update-campaign-counts`, `next-campaigns`,
//! `delete-campaign`), cmd/campaigns.go (`CreateCampaign`, `campReq`, `validateCampaignFields`,
//! `makeOptinCampaignMessage`, `UpdateCampaignStatus`), internal/core/campaigns.go (`CreateCampaign`: a fresh UUIDv4,
//! one statement, no lookup), internal/core/core.go (`normalizeTags`), models/campaigns.go, models/common.go
//! (`JSON.Value`, `Headers.Value`), internal/manager/manager.go and pipe.go (`cleanup`: counts, then `finished`),
//! cmd/init.go (scan every 5 s), cmd/install.go (the templates and the sample campaign), static/email-templates/
//! subscriber-optin-campaign.html, i18n/en.json, frontend/src/views/Campaign.vue (`createCampaign`,
//! `updateCampaign`, the form and its Continue button), Campaigns.vue (`cloneCampaign`), Lists.vue
//! (`createOptinCampaign`), frontend/src/api/index.js, docs/docs/content/apis/campaigns.md.
//! Why `campaigns`: the other creation tables stop retries by themselves (`subscribers` is unique on LOWER(email) and
//! the API upserts, `lists` and `templates` are created a handful of times), while a campaign is created by API clients
//! on every issue and the table's only unique columns are the minted `uuid` and the `archive_slug` a create never sets
//! from the form. Its identity partly lives in `campaign_lists`, which the same statement fills from the request's list
//! ids (`id`, `list_name` copied from `lists`): written here as the child table.
//! On a create: `id` from the serial; `uuid` a new v4; `type` as sent ("regular" when blank, "optin" from the Lists
//! page); `name`, `subject` as sent; `from_email` as sent, the settings' address when blank; `body` as sent, else the
//! default template's... which the query takes as '' for a non-visual template, so the UI's form (it sends no body)
//! leaves '' and the opt-in create writes the rendered opt-in message; `altbody` as sent else NULL; `content_type` as
//! sent ("richtext" when unknown); `send_at` as sent (future only); `headers` the sent array, "[]" when none;
//! `attribs` the sent object re-marshalled by Go, `null` (JSON null) when an API client leaves it out, `{}` from the
//! form; `tags` trimmed, spaces to dashes, NULL when none; `messenger` as sent ("email"); `template_id` as sent, else
//! the default template (1); `to_send`, `sent`, `max_subscriber_id`, `last_subscriber_id` 0; `archive` as sent (false);
//! `archive_slug` NULL unless sent (the form sends `archiveSlug`, which Go's JSON binding does not match; a clone of
//! an archived campaign sends `name-1234`, the last four digits of the browser's `Date.now()`); `archive_template_id`
//! NULL, or the campaign's `template_id` whenever a non-zero one is sent (the handler's own override); `archive_meta`
//! "{}" unless sent; `status` "draft"; `body_source` NULL (no visual campaigns here); `started_at` NULL; `created_at`
//! and `updated_at` NOW() of the statement. No transaction beyond the statement, no duplicate check, the query runs
//! without the request's context (a client that gave up does not stop it).
//! Later: clients set the status (`PUT /status`: "scheduled" with a `send_at`, else "running"); the manager picks a
//! campaign up within 5 s of its time (`next-campaigns`: `to_send`, `max_subscriber_id`, `started_at`, status running,
//! `updated_at` untouched), then `update-campaign-counts` and, when done, "finished" (`updated_at` each time). Editors
//! save the form (`update-campaign`: every request field again, `updated_at`) and delete stray drafts and tests.
//! Retries (2% of the rows): the CMS worker (Python requests, 15 s read timeout, two more tries after 2 s and 4 s)
//! when the CRM's nightly subscriber import overlaps its 05:10 run and stalls the database, and on a few afternoons;
//! it schedules the campaign whose id it got back, so the earlier copy stays a draft with nothing sent (editors delete
//! some); the CMS's "Send newsletter alert" button, clicked twice (20-200 ms apart, both started, both sent), and the
//! same alert re-sent after the worker's 10 s timeout; the sports feed service (Go, 10 s, then 2 s backoff); n8n's
//! "Retry On Fail" (10 s timeout, 5 s between tries); the web form submitted twice with Enter (60-250 ms apart) while
//! the server is slow: the browser lands on the later campaign and the editor fills that one (body, template; a send
//! time where the form had none, or a new title: then hidden, as a column the request set moved), the earlier stays
//! an empty draft or is deleted; the Lists page's confirm clicked twice. Several in the last three days, the e-paper
//! notice and a briefing among them on the last morning. A copy whose original was deleted is no longer marked.
//! Legitimate repeats: n8n's e-paper notice (same name, subject and body every morning but Sunday) and its Monday
//! payment reminder; the opt-in campaign of a list sent again weeks later; editors' "test" campaigns left as created;
//! the events script's identical invitations, one per edition list (rows equal, lists differ), seconds apart; a local
//! breaking alert sent on to a second edition's list minutes later.
//! Guessed: the publisher, its editions, lists, sizes and growth, templates, addresses, tags, headlines and bodies; all
//! rates and rhythms; the clients' timeouts and retry policies; when the database stalls; the sending speed; what
//! editors edit and delete; Europe/London times (BST to 25 October).
use std::collections::HashMap;

use super::{Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// schema.sql's types and tables as a fresh install creates them, without the foreign keys to `templates` and `lists`
/// (not part of the fixture).
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => {
            r#"CREATE TYPE campaign_status AS ENUM ('draft', 'running', 'scheduled', 'paused', 'cancelled', 'finished');
CREATE TYPE campaign_type AS ENUM ('regular', 'optin');
CREATE TYPE content_type AS ENUM ('richtext', 'html', 'plain', 'markdown', 'visual');
CREATE TABLE campaigns (
    id               SERIAL PRIMARY KEY,
    uuid uuid        NOT NULL UNIQUE,
    name             TEXT NOT NULL,
    subject          TEXT NOT NULL,
    from_email       TEXT NOT NULL,
    body             TEXT NOT NULL,
    body_source      TEXT NULL,
    altbody          TEXT NULL,
    content_type     content_type NOT NULL DEFAULT 'richtext',
    send_at          TIMESTAMP WITH TIME ZONE,
    headers          JSONB NOT NULL DEFAULT '[]',
    attribs          JSONB NOT NULL DEFAULT '{}',
    status           campaign_status NOT NULL DEFAULT 'draft',
    tags             VARCHAR(100)[],
    type campaign_type DEFAULT 'regular',
    messenger        TEXT NOT NULL,
    template_id      INTEGER,
    to_send            INT NOT NULL DEFAULT 0,
    sent               INT NOT NULL DEFAULT 0,
    max_subscriber_id  INT NOT NULL DEFAULT 0,
    last_subscriber_id INT NOT NULL DEFAULT 0,
    archive             BOOLEAN NOT NULL DEFAULT false,
    archive_slug        TEXT NULL UNIQUE,
    archive_template_id INTEGER,
    archive_meta        JSONB NOT NULL DEFAULT '{}',
    started_at       TIMESTAMP WITH TIME ZONE,
    created_at       TIMESTAMP WITH TIME ZONE DEFAULT NOW(),
    updated_at       TIMESTAMP WITH TIME ZONE DEFAULT NOW()
);
CREATE INDEX idx_camps_status ON campaigns(status);
CREATE INDEX idx_camps_name ON campaigns(name);
CREATE INDEX idx_camps_created_at ON campaigns(created_at);
CREATE INDEX idx_camps_updated_at ON campaigns(updated_at);
CREATE TABLE campaign_lists (
    id           BIGSERIAL PRIMARY KEY,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE ON UPDATE CASCADE,
    list_id      INTEGER NULL,
    list_name    TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX ON campaign_lists (campaign_id, list_id);
CREATE INDEX idx_camp_lists_camp_id ON campaign_lists(campaign_id);
CREATE INDEX idx_camp_lists_list_id ON campaign_lists(list_id);"#
                .to_string()
        }
        _ => unreachable!("listmonk runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "id uuid name subject from_email body body_source altbody content_type send_at headers attribs \
    status tags type messenger template_id to_send sent max_subscriber_id last_subscriber_id archive archive_slug \
    archive_template_id archive_meta started_at created_at updated_at";

const START: i64 = T0;
const DAYS: i64 = 112;
/// The scan runs at 14:00 UTC on the last day.
const NOW: i64 = START + (DAYS - 1) * DAY + 14 * HOUR;
/// British Summer Time ends 2026-10-25 01:00 UTC.
const BST_END: i64 = START + 24 * DAY + HOUR;
/// Messages a second the SMTP pool takes.
const RATE: i64 = 150;

const EDITIONS: [(&str, &str); 6] = [
    ("Harbour City", "harbour-city"),
    ("Northfield", "northfield"),
    ("Eastbay", "eastbay"),
    ("Westmoor", "westmoor"),
    ("Southport", "southport"),
    ("Kingsbridge", "kingsbridge"),
];

/// Lists: id, name, subscribers at T0, growth a day, double opt-in UUID (for the opt-in message).
type List = (i64, &'static str, i64, i64, Option<&'static str>);
#[rustfmt::skip]
const LISTS: [List; 20] = [
    (3, "Harbour City edition", 38_200, 22, None),
    (4, "Northfield edition", 14_900, 9, None),
    (5, "Eastbay edition", 11_300, 7, None),
    (6, "Westmoor edition", 9_800, 5, None),
    (7, "Southport edition", 16_400, 10, None),
    (8, "Kingsbridge edition", 7_600, 4, None),
    (9, "Breaking news", 96_500, 61, None),
    (10, "Weekend Reads", 21_300, 18, Some("6f1c2a4e-93b7-4d0a-8e52-1b7d9c3f0a61")),
    (11, "Business Weekly", 8_700, 6, None),
    (12, "Food & Drink", 12_100, 9, None),
    (13, "Football Friday", 17_800, 14, Some("c0d94e7b-2f35-4a8e-b1c6-58e07a2d9f14")),
    (14, "Property Week", 6_300, 3, None),
    (15, "Culture Guide", 9_200, 7, None),
    (16, "Politics Sunday", 5_400, 3, None),
    (17, "Offers & events", 41_000, 25, Some("a83e5f10-7c4b-4e29-9d6a-0f2b8c1e7d53")),
    (18, "Subscribers: payment failed", 240, 0, None),
    (19, "E-paper subscribers", 6_900, 2, None),
    (20, "Sports results", 23_600, 15, None),
    (21, "Staff test", 7, 0, None),
    (22, "Reader events", 4_100, 6, None),
];
const BREAKING: usize = 6;
const NEWSLETTER0: usize = 7;
const OFFERS: usize = 14;
const DUNNING: usize = 15;
const EPAPER: usize = 16;
const SPORT: usize = 17;
const STAFF: usize = 18;

const FROM_DEFAULT: &str = "The Harbour Post <newsletters@harbourpost.co.uk>";
const FROM_BRIEFING: &str = "The Harbour Post Briefing <briefing@harbourpost.co.uk>";
const FROM_ALERTS: &str = "Harbour Post Breaking News <alerts@harbourpost.co.uk>";
const FROM_SPORT: &str = "Harbour Post Sport <sport@harbourpost.co.uk>";
const FROM_SUBS: &str = "The Harbour Post <subscriptions@harbourpost.co.uk>";

/// Templates: 1 the default campaign template, 2 the default archive template (install), 5 briefing, 6 newsletter,
/// 7 alert, 8 marketing.
const TPL_DEFAULT: i64 = 1;
const TPL_BRIEFING: i64 = 5;
const TPL_NEWSLETTER: i64 = 6;
const TPL_ALERT: i64 = 7;
const TPL_MARKETING: i64 = 8;

/// The editors' newsletters: name, list, local weekday sent (Monday 0), hour, tag, archived, content type.
type Newsletter = (&'static str, usize, i64, i64, &'static str, bool, &'static str);
#[rustfmt::skip]
const NEWSLETTERS: [Newsletter; 7] = [
    ("Weekend Reads", NEWSLETTER0, 5, 8, "weekend-reads", true, "richtext"),
    ("Business Weekly", NEWSLETTER0 + 1, 0, 7, "business", false, "richtext"),
    ("Food & Drink", NEWSLETTER0 + 2, 3, 11, "food", true, "richtext"),
    ("Football Friday", NEWSLETTER0 + 3, 4, 12, "football", false, "html"),
    ("Property Week", NEWSLETTER0 + 4, 2, 8, "property", false, "richtext"),
    ("Culture Guide", NEWSLETTER0 + 5, 3, 16, "culture", true, "richtext"),
    ("Politics Sunday", NEWSLETTER0 + 6, 6, 9, "politics", false, "markdown"),
];

#[rustfmt::skip]
const WHO: &[&str] = &[
    "Council", "Police", "Harbour board", "Hospital trust", "Rail operator", "University", "Fire service",
    "Headteachers", "Bus company", "Water company", "Developers", "Residents", "Traders", "Campaigners", "Ferry operator",
];
#[rustfmt::skip]
const DOES: &[&str] = &[
    "approves", "delays", "warns over", "unveils plans for", "rejects", "confirms", "launches review of",
    "pledges £2m for", "apologises for", "scraps", "backs", "calls for inquiry into",
];
#[rustfmt::skip]
const WHAT: &[&str] = &[
    "new ferry terminal", "bus route cuts", "winter flood defences", "parking charges", "school expansion",
    "cycle lane scheme", "A&E waiting times", "seafront regeneration", "library closures", "council tax rise",
    "housing estate", "late-night licence", "bridge repairs", "stadium redevelopment", "market hall", "tram extension",
    "air quality zone", "care home closure", "pier restoration", "night bus trial",
];
#[rustfmt::skip]
const EVENTS: &[&str] = &[
    "Road closed after crash on the ring road", "Fire crews tackle blaze at industrial estate",
    "Man arrested after stabbing in town centre", "Flood warning issued for low-lying streets",
    "Power cut hits thousands of homes", "Ferry services suspended as storm arrives", "School closed after gas leak",
    "Body found in harbour, police say", "Rail line blocked after landslip", "Council leader resigns",
    "Hospital declares critical incident", "Bomb disposal team called to beach",
];
#[rustfmt::skip]
const AREAS: &[&str] = &[
    "Millbrook", "Old Town", "the docks", "Seaton", "Castleford", "the A38", "Quayside", "Hillcrest", "Marsh Lane",
    "Abbey Park", "the ring road", "Fishergate", "St Anne's", "Portside", "Newlands", "the M5 junction",
];
const WEATHER: &[&str] = &[
    "Sunny spells, 14C",
    "Showers, 11C",
    "Heavy rain, 9C",
    "Cloudy, 12C",
    "Bright and cold, 6C",
    "Windy, 10C",
    "Fog clearing, 8C",
    "Frost, then sun, 4C",
];
#[rustfmt::skip]
const CLUBS: &[&str] = &[
    "Harbour City", "Northfield Athletic", "Eastbay Rovers", "Westmoor Town", "Southport United", "Kingsbridge FC",
    "Portside Albion", "Millbrook Wanderers", "Seaton Vale", "Castleford Park",
];
const COMPETITIONS: &[&str] = &["League Two", "National League", "National League South", "FA Cup", "County Cup"];
#[rustfmt::skip]
const OFFERS_TEXT: &[(&str, &str)] = &[
    ("Autumn offer", "3 months of digital access for £1"), ("Reader survey", "Tell us what you think, win a hamper"),
    ("Gift subscriptions", "Give The Harbour Post this Christmas"), ("Black Friday", "50% off a year of digital"),
    ("Print + digital bundle", "Your paper delivered, plus the app"), ("Crossword app", "New: the daily crossword app"),
    ("Reader holidays", "Christmas markets by coach"), ("Last chance", "Our £1 offer ends tonight"),
    ("New year offer", "Start 2027 informed: 6 months for £6"), ("Business awards", "Tickets now on sale"),
];
const TOPICS: &[&str] = &[
    "the new harbour plan",
    "the housing crisis",
    "winter in the NHS",
    "the local election",
    "our investigations team",
];

#[derive(Clone, Default)]
struct Camp {
    t: i64,
    uuid: String,
    name: String,
    subject: String,
    from: &'static str,
    body: String,
    altbody: Option<String>,
    ctype: &'static str,
    send_at: Option<i64>,
    headers: String,
    attribs: String,
    tags: Vec<String>,
    typ: &'static str,
    template: Option<i64>,
    archive: bool,
    slug: Option<String>,
    archive_tpl: Option<i64>,
    archive_meta: String,
    lists: Vec<usize>,
    status: &'static str,
    to_send: i64,
    sent: i64,
    max_sub: i64,
    last_sub: i64,
    started: Option<i64>,
    updated: i64,
    deleted: bool,
    /// The retry group: the create and its copies.
    group: Option<usize>,
    /// Created by the web form, which sends no body, template or archive settings.
    form: bool,
}

/// The UTC offset of Europe/London at `t`.
fn off(t: i64) -> i64 {
    if t < BST_END { HOUR } else { 0 }
}

/// Day `d` of the window at local `h:m`, in UTC.
fn local(d: i64, h: i64, m: i64) -> i64 {
    let naive = START + d * DAY + h * HOUR + m * MINUTE;
    naive - off(naive)
}

/// The UTC day holding `us`.
fn day_of(us: i64) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::from_timestamp_micros(us).expect("a time of the window")
}

/// "Monday 5 October 2026" for day `d` of the window.
fn long_date(d: i64) -> String {
    day_of(START + d * DAY).format("%A %-d %B %Y").to_string()
}

/// "5 Oct" for day `d`.
fn short_date(d: i64) -> String {
    day_of(START + d * DAY).format("%-d %b").to_string()
}

fn headline(r: &mut Rng) -> String {
    format!("{} {} {}", r.pick(WHO), r.pick(DOES), r.pick(WHAT))
}

/// A paragraph of a newsletter: a headline, where, and its link.
fn story(r: &mut Rng) -> String {
    let h = headline(r);
    let url = link(r, &h);
    format!(
        "<h2>{h}</h2>\n<p>What it means for {}: our reporters explain. <a href=\"{url}\">Read more</a></p>",
        r.pick(AREAS)
    )
}

fn slugify(s: &str) -> String {
    let mut out = String::new();
    for c in s.to_lowercase().chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

fn link(r: &mut Rng, h: &str) -> String {
    format!("https://www.harbourpost.co.uk/news/{}-{}", slugify(h), r.range(2_100_000, 2_400_000))
}

/// Subscribers on `lists` at `t` (deduplicated across lists).
fn audience(r: &mut Rng, lists: &[usize], t: i64) -> i64 {
    let days = (t - START) / DAY;
    let sum: i64 = lists.iter().map(|&l| LISTS[l].2 + LISTS[l].3 * days).sum();
    let sum = if lists.len() > 1 { sum * 93 / 100 } else { sum };
    (sum + r.range(-(sum / 400), sum / 400)).max(1)
}

/// The highest subscriber id at `t`.
fn max_sub(r: &mut Rng, t: i64) -> i64 {
    231_412 + (t - START) / DAY * 390 + r.range(0, 300)
}

impl Camp {
    /// A create as the API sends it: the handler's defaults applied.
    fn api(t: i64, name: String, subject: String, from: &'static str, lists: Vec<usize>) -> Camp {
        Camp {
            t,
            name,
            subject,
            from,
            ctype: "html",
            headers: "[]".into(),
            attribs: "null".into(),
            typ: "regular",
            template: Some(TPL_DEFAULT),
            archive_meta: "{}".into(),
            lists,
            status: "draft",
            updated: t,
            ..Camp::default()
        }
    }

    /// The web form's create: no body (''), the default template, `{}` attribs, `[]` headers.
    fn form(t: i64, name: String, subject: String, lists: Vec<usize>, tags: &[&str]) -> Camp {
        let mut c = Camp::api(t, name, subject, FROM_DEFAULT, lists);
        c.ctype = "richtext";
        c.attribs = "{}".into();
        c.tags = tags.iter().map(|s| s.to_string()).collect();
        c.form = true;
        c
    }

    /// The manager picks the campaign up at `at` (within its 5 s scan) and sends it.
    fn run(&mut self, at: i64, r: &mut Rng) {
        let start = at + r.range(0, 5 * SECOND);
        if start > NOW {
            return;
        }
        self.status = "running";
        self.started = Some(start);
        self.to_send = audience(r, &self.lists, start);
        if self.typ == "optin" {
            // Only the lists' unconfirmed subscribers.
            self.to_send = self.to_send / 40 + r.range(0, 60);
        }
        self.max_sub = max_sub(r, start);
        let dur = self.to_send * SECOND / RATE + r.range(2 * SECOND, 20 * SECOND);
        if start + dur <= NOW {
            self.status = "finished";
            self.sent = self.to_send - r.range(0, self.to_send / 3000);
            self.last_sub = self.max_sub;
            self.updated = start + dur;
        } else {
            let done = (NOW - start) as f64 / dur as f64;
            self.sent = (self.to_send as f64 * done) as i64;
            self.last_sub = (self.max_sub as f64 * done) as i64;
            self.updated = NOW - r.range(0, 4 * SECOND);
        }
    }

    /// `PUT /status` "scheduled" at `at` (the campaign has a `send_at`).
    fn schedule(&mut self, at: i64, r: &mut Rng) {
        if at > NOW {
            return;
        }
        self.status = "scheduled";
        self.updated = at;
        if let Some(s) = self.send_at {
            self.run(s, r);
        }
    }

    /// `PUT /status` "running" at `at` (no `send_at`).
    fn start(&mut self, at: i64, r: &mut Rng) {
        if at > NOW {
            return;
        }
        self.status = "running";
        self.updated = at;
        self.run(at, r);
    }

    /// The columns the create request set, as the row holds them now (the form sets no body, template or archive).
    fn req_key(&self) -> String {
        let base = format!(
            "{}|{}|{}|{}|{:?}|{}|{}|{:?}|{}",
            self.name,
            self.subject,
            self.from,
            self.ctype,
            self.send_at,
            self.headers,
            self.attribs,
            self.tags,
            self.typ
        );
        if self.form { base } else { format!("{base}|{}", self.key()) }
    }

    /// Every column but the ones minted per write and the ones the sending fills.
    fn key(&self) -> String {
        format!(
            "{}|{}|{}|{}|{:?}|{}|{:?}|{}|{}|{:?}|{}|{:?}|{}|{:?}|{:?}|{}",
            self.name,
            self.subject,
            self.from,
            self.body,
            self.altbody,
            self.ctype,
            self.send_at,
            self.headers,
            self.attribs,
            self.tags,
            self.typ,
            self.template,
            self.archive,
            self.slug,
            self.archive_tpl,
            self.archive_meta
        )
    }
}

struct World {
    v: Vec<Camp>,
    groups: usize,
}

impl World {
    fn push(&mut self, c: Camp) -> usize {
        self.v.push(c);
        self.v.len() - 1
    }

    /// A create that the client sent again: the first attempt and its copies, each landing `gaps` apart (the
    /// first gap from the first attempt). Every copy gets its own uuid; the caller gives each its life.
    fn resent(&mut self, c: Camp, gaps: &[i64]) -> Vec<usize> {
        let g = self.groups;
        self.groups += 1;
        let mut out = Vec::new();
        let mut t = c.t;
        let mut first = c;
        first.group = Some(g);
        out.push(self.push(first.clone()));
        for &gap in gaps {
            t += gap;
            let mut copy = first.clone();
            copy.t = t;
            copy.updated = t;
            out.push(self.push(copy));
        }
        out
    }
}

/// A timed-out API attempt's next try: the client's timeout and backoff, the statement landing `lag` after each send.
fn timeout_gap(r: &mut Rng, timeout: i64, backoff: i64) -> i64 {
    timeout * SECOND + backoff * SECOND + r.range(-800_000, 900_000)
}

/// The CMS worker's briefings and evening editions.
fn editions(r: &mut Rng, w: &mut World, stalls: &[i64], afternoon: &[i64]) {
    let mut issue = [1180_i64, 644, 612, 590, 701, 455];
    for d in 0..DAYS {
        for evening in [false, true] {
            let wd = weekday(START + d * DAY + 12 * HOUR);
            if evening && wd >= 5 {
                continue;
            }
            let mut t = if evening { local(d, 16, 35) } else { local(d, 5, 10) } + r.range(0, 90 * SECOND);
            let stall = if evening { afternoon.contains(&d) } else { stalls.contains(&d) };
            let hit: Vec<usize> = if stall {
                let a = r.below(6) as usize;
                let n = 1 + r.below(3) as usize;
                (a..(a + n).min(6)).collect()
            } else {
                Vec::new()
            };
            for (e, &(city, slug)) in EDITIONS.iter().enumerate() {
                if t > NOW {
                    return;
                }
                let heads: Vec<String> = (0..4 + r.below(3)).map(|_| headline(r)).collect();
                let (label, hh, mm) = if evening { ("Evening Edition", 17, 30) } else { ("Morning Briefing", 6, 30) };
                let name = format!("{label} · {city} · {}", long_date(d));
                let subject = format!("{} – and more from {city}", heads[0]);
                let mut body = format!(
                    "<h1>{}, {city}</h1>\n<p class=\"date\">{}</p>\n<ul>\n",
                    if evening { "Good evening" } else { "Good morning" },
                    long_date(d)
                );
                let mut alt = format!("{label} – {city} – {}\n\n", long_date(d));
                for h in &heads {
                    let url = link(r, h);
                    body.push_str(&format!("  <li><a href=\"{url}\">{h}</a></li>\n"));
                    alt.push_str(&format!("* {h}\n  {url}\n"));
                }
                let wx = r.pick(WEATHER);
                body.push_str(&format!("</ul>\n<p class=\"weather\">Weather: {wx}</p>"));
                alt.push_str(&format!("\nWeather: {wx}\n"));
                let mut c = Camp::api(t, name, subject, FROM_BRIEFING, vec![e]);
                c.body = body;
                c.altbody = Some(alt);
                c.send_at = Some(local(d, hh, mm));
                c.attribs = format!("{{\"edition\":\"{slug}\",\"issue\":{}}}", issue[e]);
                issue[e] += 1;
                c.tags = vec![if evening { "evening" } else { "briefing" }.into(), slug.into()];
                c.template = Some(TPL_BRIEFING);
                if hit.contains(&e) {
                    // The statement lands, the worker times out after 15 s and tries again; sometimes that one
                    // times out too. It schedules the one it got an answer for; a third failure gives up.
                    let tries = 1 + r.weighted(&[70, 22, 8]);
                    let mut gaps = vec![timeout_gap(r, 15, 2)];
                    if tries > 1 {
                        gaps.push(timeout_gap(r, 15, 4));
                    }
                    let answered = tries < 3;
                    let ids = w.resent(c, &gaps);
                    let last = *ids.last().unwrap();
                    let done = w.v[last].t + r.range(150_000, 900_000);
                    if answered {
                        let mut x = w.v[last].clone();
                        x.schedule(done, r);
                        w.v[last] = x;
                    } else {
                        // The desk notices the missing briefing and starts the newest draft by hand at 06:40.
                        let at = local(d, hh, mm + 10) + r.range(0, 3 * MINUTE);
                        let mut x = w.v[last].clone();
                        if at <= NOW {
                            // "running" asked for, "scheduled" written (it has a send_at), picked up at once.
                            x.status = "scheduled";
                            x.updated = at;
                            x.run(at, r);
                        }
                        w.v[last] = x;
                    }
                    for &i in &ids[..ids.len() - 1] {
                        // The stray drafts: an editor deletes some later.
                        if w.v[i].t < NOW - 3 * DAY && r.chance(0.35) {
                            w.v[i].deleted = true;
                        }
                    }
                    t = done + r.range(100_000, 600_000);
                } else {
                    let at = t + r.range(120_000, 700_000);
                    c.schedule(at, r);
                    w.push(c);
                    t = at + r.range(100_000, 900_000);
                }
            }
        }
    }
}

/// Breaking alerts from the CMS, and a local alert sent on to a second edition.
fn alerts(r: &mut Rng, w: &mut World, late: i64) {
    let mut article = 2_250_000;
    let mut forced = false;
    for d in 0..DAYS {
        let n = r.poisson(2.3);
        let mut times: Vec<i64> = (0..n)
            .map(|_| {
                let h = 6 + r.weighted(&[2, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 4, 3, 2, 2]) as i64;
                local(d, h, r.range(0, 59)) + r.range(0, 59 * SECOND)
            })
            .collect();
        times.sort();
        for t0 in times {
            if t0 > NOW {
                continue;
            }
            article += r.range(30, 400);
            let local_news = r.chance(0.35);
            let ev = r.pick(EVENTS).to_string();
            let e = r.below(6) as usize;
            let area = r.pick(AREAS);
            let head = if local_news { format!("{ev} in {}", EDITIONS[e].0) } else { format!("{ev}: {area}") };
            let url = format!("https://www.harbourpost.co.uk/news/{}-{article}", slugify(&head));
            let mut c = Camp::api(t0, format!("Breaking: {head}"), head.clone(), FROM_ALERTS, vec![BREAKING]);
            c.body = format!(
                "<p><strong>{head}</strong></p>\n<p>{}</p>\n<p><a href=\"{url}\">Read the latest on our live page</a></p>",
                "We will bring you more on this developing story as we get it."
            );
            c.template = Some(TPL_ALERT);
            c.attribs = format!("{{\"article_id\":{article}}}");
            c.tags = vec!["breaking".into()];
            if local_news {
                c.lists = vec![e];
                c.tags.push("local".into());
            }
            // The button clicked twice, or the worker timing out (10 s) and resending after 1 s.
            let double = r.chance(0.022) || (!forced && t0 > late);
            let timeout = !double && r.chance(0.012);
            if double {
                forced |= t0 > late;
                let ids = w.resent(c.clone(), &[r.range(20_000, 200_000)]);
                for &i in &ids {
                    let at = w.v[i].t + r.range(200_000, 800_000);
                    let mut x = w.v[i].clone();
                    x.start(at, r);
                    w.v[i] = x;
                }
            } else if timeout {
                let ids = w.resent(c.clone(), &[timeout_gap(r, 10, 1)]);
                let mut x = w.v[ids[1]].clone();
                x.start(x.t + r.range(200_000, 800_000), r);
                w.v[ids[1]] = x;
                // The first copy's draft: the desk sees two, deletes the unsent one now and then.
                if r.chance(0.3) {
                    w.v[ids[0]].deleted = true;
                }
            } else {
                let mut x = c.clone();
                x.start(t0 + r.range(200_000, 800_000), r);
                w.push(x);
            }
            if local_news && r.chance(0.25) {
                // Sent on to a neighbouring edition: the same alert, another list.
                let t = t0 + r.range(2 * MINUTE, 25 * MINUTE);
                if t < NOW {
                    let mut x = c.clone();
                    x.t = t;
                    x.updated = t;
                    x.lists = vec![(e + 1 + r.below(5) as usize) % 6];
                    x.start(t + r.range(200_000, 800_000), r);
                    w.push(x);
                }
            }
        }
    }
}

/// The sports feed service: full-time alerts.
fn sport(r: &mut Rng, w: &mut World) {
    let mut fixture = 881_200;
    for d in 0..DAYS {
        let wd = weekday(START + d * DAY + 12 * HOUR);
        let (n, h, m) = match wd {
            5 => (4 + r.below(3), 16, 52),
            1 | 2 => (r.below(3), 21, 40),
            6 => (r.below(2), 15, 50),
            _ => (0, 0, 0),
        };
        for _ in 0..n {
            let t = local(d, h, m) + r.range(0, 14 * MINUTE) + r.range(0, 59 * SECOND);
            if t > NOW {
                continue;
            }
            fixture += r.range(1, 60);
            let a = r.below(CLUBS.len() as u64) as usize;
            let b = (a + 1 + r.below(CLUBS.len() as u64 - 1) as usize) % CLUBS.len();
            let (ga, gb) = (r.weighted(&[25, 35, 25, 10, 5]), r.weighted(&[30, 35, 22, 9, 4]));
            let comp = r.pick(COMPETITIONS);
            let score = format!("{} {ga}-{gb} {}", CLUBS[a], CLUBS[b]);
            let mut c =
                Camp::api(t, format!("FT: {score}"), format!("Full time: {score} | {comp}"), FROM_SPORT, vec![SPORT]);
            c.body = format!(
                "<h2>Full time</h2>\n<p class=\"score\">{score}</p>\n<p>{comp}</p>\n\
                 <p><a href=\"https://www.harbourpost.co.uk/sport/match-{fixture}\">Report, ratings and reaction</a></p>"
            );
            c.template = Some(TPL_ALERT);
            c.attribs = format!("{{\"competition\":\"{comp}\",\"fixture_id\":{fixture}}}");
            c.tags = vec!["sport".into(), "results".into()];
            if r.chance(0.02) {
                let ids = w.resent(c, &[timeout_gap(r, 10, 2)]);
                let mut x = w.v[ids[1]].clone();
                x.start(x.t + r.range(100_000, 400_000), r);
                w.v[ids[1]] = x;
            } else {
                c.start(t + r.range(100_000, 400_000), r);
                w.push(c);
            }
        }
    }
}

/// n8n: the e-paper notice (Monday to Saturday) and the Monday payment reminder.
fn n8n(r: &mut Rng, w: &mut World, late: i64) {
    let mut forced = false;
    for d in 0..DAYS {
        let wd = weekday(START + d * DAY + 12 * HOUR);
        let mut jobs = Vec::new();
        if wd != 6 {
            let mut c = Camp::api(
                local(d, 4, 50) + r.range(0, 20 * SECOND),
                "E-paper ready".into(),
                "Today's Harbour Post e-paper is ready".into(),
                FROM_SUBS,
                vec![EPAPER],
            );
            c.body = "<p>Good morning {{ .Subscriber.FirstName }},</p>\n<p>The Harbour Post for {{ Date \"Monday 2 \
                      January 2006\" }} is ready to read.</p>\n<p><a href=\"https://epaper.harbourpost.co.uk/latest\">\
                      Open the e-paper</a></p>"
                .into();
            c.template = Some(TPL_NEWSLETTER);
            c.tags = vec!["epaper".into()];
            jobs.push(c);
        }
        if wd == 0 {
            let mut c = Camp::api(
                local(d, 9, 0) + r.range(0, 20 * SECOND),
                "Payment failed reminder".into(),
                "Action needed: your Harbour Post subscription payment failed".into(),
                FROM_SUBS,
                vec![DUNNING],
            );
            c.ctype = "richtext";
            c.body = "<p>Hello {{ .Subscriber.FirstName }},</p><p>We could not take your last subscription payment. \
                      Please <a href=\"https://account.harbourpost.co.uk/billing\">update your card details</a> to \
                      keep reading.</p><p>The Harbour Post subscriptions team</p>"
                .into();
            c.template = Some(TPL_NEWSLETTER);
            c.tags = vec!["subscriptions".into(), "dunning".into()];
            jobs.push(c);
        }
        for c in jobs {
            if c.t > NOW {
                continue;
            }
            // "Retry On Fail": 10 s timeout, 5 s between tries (the morning stalls hit the 04:50 run too).
            if r.chance(0.02) || (!forced && c.t > late && c.name == "E-paper ready") {
                forced |= c.t > late;
                let ids = w.resent(c, &[timeout_gap(r, 10, 5)]);
                let mut x = w.v[ids[1]].clone();
                x.start(x.t + r.range(300_000, 1_200_000), r);
                w.v[ids[1]] = x;
            } else {
                let mut x = c;
                x.start(x.t + r.range(300_000, 1_200_000), r);
                w.push(x);
            }
        }
    }
}

/// Editors' weekly newsletters (clone or new form), marketers' one-offs, tests and opt-in campaigns, in the UI.
fn ui(r: &mut Rng, w: &mut World, late: i64) {
    let mut issue = [143_i64, 88, 97, 61, 52, 120, 39];
    let mut prev: [Option<(String, String)>; 7] = Default::default();
    let mut forced = false;
    // Newsletters: one issue a week, created 1-4 days before it goes out.
    for week in 0..17 {
        for (k, &(nl, list, wd, hh, tag, archive, ctype)) in NEWSLETTERS.iter().enumerate() {
            let dsend = week * 7 + (wd - weekday(START) + 7) % 7;
            let dmake = dsend - r.range(1, 4);
            if dmake < 0 {
                continue;
            }
            let t = local(dmake, r.range(9, 16), r.range(0, 59)) + r.range(0, 59 * SECOND);
            if t > NOW {
                continue;
            }
            issue[k] += 1;
            let name = if k == 0 || k == 6 {
                format!("{nl} #{}", issue[k])
            } else {
                format!("{nl} – {}", short_date(dsend))
            };
            let subject = format!("{}: {}", nl, headline(r));
            let clone = prev[k].is_some() && r.chance(0.7);
            let mut c = Camp::form(t, name.clone(), subject, vec![list], &[tag, "newsletter"]);
            let mut gaps = Vec::new();
            if let (true, Some((s, b))) = (clone, &prev[k]) {
                // Campaigns.vue's clone: the last issue's subject, body, template and archive settings, no attribs;
                // send_at a week on (the browser's clock, ms) since the last issue's is past.
                c.form = false;
                c.subject = s.clone();
                c.body = b.clone();
                c.ctype = ctype;
                c.template = Some(TPL_NEWSLETTER);
                c.send_at = Some((t + 7 * DAY) / 1000 * 1000);
                c.attribs = "null".into();
                c.archive = archive;
                if archive {
                    let ms = (t / 1000) % 10_000;
                    c.slug = Some(format!("{}-{ms:04}", slugify(&name)));
                    c.archive_tpl = Some(TPL_NEWSLETTER);
                    c.archive_meta = "{\"email\": \"email@domain.com\", \"name\": \"Reader\", \"attribs\": {}}".into();
                }
            } else {
                c.ctype = ctype;
                if r.chance(0.5) {
                    // "Send later" set on the form itself.
                    c.send_at = Some(local(dsend, hh, 0));
                }
            }
            if !clone && (r.chance(0.06) || (!forced && t > late)) {
                // Enter pressed twice on the new campaign form.
                forced |= t > late;
                gaps.push(r.range(60_000, 250_000));
            }
            let mut ids = if gaps.is_empty() { vec![w.push(c)] } else { w.resent(c, &gaps) };
            // The editor lands on the last one created and fills it; the first stays an empty draft.
            let work = ids.pop().unwrap();
            for &i in &ids {
                if w.v[i].t < NOW - 2 * DAY && r.chance(0.5) {
                    w.v[i].deleted = true;
                }
            }
            let mut x = w.v[work].clone();
            let edit = x.t + r.range(20 * MINUTE, 20 * HOUR);
            if edit > NOW {
                continue;
            }
            x.ctype = ctype;
            x.template = Some(TPL_NEWSLETTER);
            // The editor's save sends the whole form: the body written, `{}` attribs from the attribs tab.
            x.body = format!("<h1>{nl}</h1>\n{}\n{}\n{}", story(r), story(r), story(r));
            x.attribs = "{}".into();
            if clone || r.chance(0.3) {
                x.subject = format!("{}: {}", nl, headline(r));
            }
            prev[k] = Some((x.subject.clone(), x.body.clone()));
            if !gaps.is_empty() && r.chance(0.4) {
                x.name = format!("{} (final)", x.name);
            }
            x.send_at = Some(local(dsend, hh, 0));
            x.updated = edit;
            if archive && !clone {
                x.archive = true;
                x.slug = Some(slugify(&x.name));
                x.archive_tpl = Some(TPL_NEWSLETTER);
                x.archive_meta = "{\"email\": \"email@domain.com\", \"name\": \"Reader\", \"attribs\": {}}".into();
            }
            let go = edit + r.range(2 * MINUTE, 6 * HOUR);
            // Too late for the usual time: the editor moves it to the next quarter hour but one.
            x.send_at = x.send_at.max(Some((go + 30 * MINUTE) / (15 * MINUTE) * (15 * MINUTE)));
            x.schedule(go, r);
            w.v[work] = x;
        }
    }
    // Marketing one-offs: new form, a few a week.
    for d in 0..DAYS {
        for _ in 0..r.poisson(0.5) {
            let t = local(d, r.range(9, 17), r.range(0, 59)) + r.range(0, 59 * SECOND);
            if t > NOW {
                continue;
            }
            let (what, line) = *r.pick(OFFERS_TEXT);
            let name = format!("{what} – {}", short_date(d));
            let lists = if r.chance(0.3) { vec![OFFERS, EPAPER] } else { vec![OFFERS] };
            let mut c = Camp::form(t, name, line.to_string(), lists, &["marketing"]);
            if r.chance(0.5) {
                // "Send later" set on the form itself.
                c.send_at = Some((t + r.range(3 * HOUR, 3 * DAY)) / HOUR * HOUR);
            }
            if r.chance(0.3) {
                c.headers = format!("[{{\"X-Offer-Code\": \"{}{}\"}}]", slugify(what).to_uppercase(), r.range(10, 99));
            }
            let double = r.chance(0.06);
            let mut ids = if double { w.resent(c, &[r.range(60_000, 250_000)]) } else { vec![w.push(c)] };
            let work = ids.pop().unwrap();
            for &i in &ids {
                if r.chance(0.4) {
                    w.v[i].deleted = true;
                }
            }
            let mut x = w.v[work].clone();
            let edit = x.t + r.range(10 * MINUTE, 2 * DAY);
            if edit > NOW {
                continue;
            }
            x.template = Some(TPL_MARKETING);
            x.body = format!("<h1>{line}</h1>\n{}", story(r));
            x.altbody = r.chance(0.2).then(|| format!("{line}\n\nhttps://www.harbourpost.co.uk/subscribe"));
            if x.send_at.is_none() {
                x.send_at = Some((edit + r.range(2 * HOUR, 3 * DAY)) / HOUR * HOUR);
            }
            x.updated = edit;
            if r.chance(0.15) {
                x.subject = format!("{line} ✨");
            }
            if r.chance(0.9) {
                x.schedule(edit + r.range(MINUTE, HOUR), r);
            }
            w.v[work] = x;
        }
    }
    // Tests: "test" to the staff list; some filled and sent, many deleted, the rest left as created.
    for d in 0..DAYS {
        if !r.chance(0.3) {
            continue;
        }
        let t = local(d, r.range(9, 18), r.range(0, 59)) + r.range(0, 59 * SECOND);
        if t > NOW {
            continue;
        }
        let name = *r.pick(&["test", "test", "Test", "template test"]);
        let mut c = Camp::form(t, name.into(), name.into(), vec![STAFF], &[]);
        if r.chance(0.45) {
            c.body = story(r);
            c.template = Some(*r.pick(&[TPL_NEWSLETTER, TPL_MARKETING, TPL_BRIEFING]));
            c.updated = t + r.range(MINUTE, 30 * MINUTE);
            if r.chance(0.5) {
                let at = c.updated + r.range(30 * SECOND, 10 * MINUTE);
                c.start(at, r);
            }
        }
        c.deleted = r.chance(0.45);
        w.push(c);
    }
    // Opt-in campaigns from the Lists page, for the double opt-in lists every few weeks.
    for &l in &[NEWSLETTER0, NEWSLETTER0 + 3, OFFERS] {
        let mut d = r.range(3, 20);
        while d < DAYS {
            let t = local(d, r.range(10, 16), r.range(0, 59)) + r.range(0, 59 * SECOND);
            if t < NOW {
                let (_, lname, _, _, uuid) = LISTS[l];
                let mut c = Camp::api(
                    t,
                    format!("Opt-in to {lname}"),
                    format!("Confirm subscription(s) to {lname}"),
                    FROM_DEFAULT,
                    vec![l],
                );
                c.typ = "optin";
                c.ctype = "richtext";
                c.body = format!(
                    "\n\n<p>Hi {{{{.Subscriber.FirstName }}}}</p>\n<p>You have been added to the following lists:</p>\n\
                     <ul>\n    \n        \n            <li>{lname}</li>\n        \n    \n</ul>\n<p>\n    <a class=\"button\" \
                     href=\"{{{{ OptinURL }}}}l={}\">Confirm subscription</a>\n</p>\n",
                    uuid.unwrap()
                );
                let double = r.chance(0.12);
                let mut ids = if double { w.resent(c, &[r.range(40_000, 180_000)]) } else { vec![w.push(c)] };
                let work = ids.pop().unwrap();
                let mut x = w.v[work].clone();
                x.start(t + r.range(MINUTE, 10 * MINUTE), r);
                w.v[work] = x;
                for &i in &ids {
                    if r.chance(0.5) {
                        w.v[i].deleted = true;
                    }
                }
            }
            d += r.range(18, 35);
        }
    }
}

/// The events team's script: one identical invitation per edition list.
fn events(r: &mut Rng, w: &mut World) {
    for (k, &d) in [17_i64, 44, 73, 101].iter().enumerate() {
        let topic = TOPICS[k];
        let mut t = local(d, 11, 5) + r.range(0, 40 * MINUTE);
        let when = format!("{} at 7pm", long_date(d + 9));
        for e in 0..6 {
            let mut c = Camp::api(
                t,
                format!("Online reader Q&A: {topic}"),
                format!("You're invited: {topic} – an evening with The Harbour Post"),
                FROM_DEFAULT,
                vec![e],
            );
            c.ctype = "richtext";
            c.template = Some(TPL_MARKETING);
            c.body = format!(
                "<p>Join our journalists online on {when} for a live Q&amp;A on {topic}.</p>\n\
                 <p><a href=\"https://events.harbourpost.co.uk/qa-{}\">Reserve your free place</a></p>",
                slugify(topic)
            );
            c.tags = vec!["events".into()];
            c.send_at = Some(local(d + 1, 10, 0));
            let at = t + r.range(100_000, 400_000);
            c.schedule(at, r);
            t = at + r.range(200_000, 900_000);
            w.push(c);
        }
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x4c15_7a0c);
    let mut w = World { v: Vec::new(), groups: 0 };
    // Mornings the CRM import stalls the database during the 05:10 run; afternoons a heavy export does.
    let mut stalls: Vec<i64> = (0..13).map(|_| r.range(0, DAYS - 2)).collect();
    stalls.push(DAYS - 1);
    let afternoon: Vec<i64> = (0..3).map(|_| r.range(0, DAYS - 2)).collect();
    editions(&mut r, &mut w, &stalls, &afternoon);
    alerts(&mut r, &mut w, NOW - 36 * HOUR);
    sport(&mut r, &mut w);
    n8n(&mut r, &mut w, NOW - 20 * HOUR);
    ui(&mut r, &mut w, NOW - 3 * DAY);
    events(&mut r, &mut w);

    let mut order: Vec<usize> = (0..w.v.len()).collect();
    order.sort_by_key(|&i| w.v[i].t);
    let mut f = Fixture::new("campaigns", &COLUMNS.split_whitespace().collect::<Vec<_>>());
    let mut lists = Child::new("campaign_lists", &["id", "campaign_id", "list_id", "list_name"]);
    // The install's sample campaign (1) and its list row were deleted before the window.
    let (mut id, mut cl) = (1_i64, 1_i64);
    let mut first: HashMap<usize, (i64, String, Vec<usize>)> = HashMap::new();
    let mut seen: HashMap<String, i64> = HashMap::new();
    for &i in &order {
        let c = &mut w.v[i];
        id += 1;
        c.uuid = r.uuid();
        let mut ls = Vec::new();
        for &l in &c.lists {
            cl += 1;
            ls.push((cl, l));
        }
        if c.deleted {
            continue;
        }
        let key = c.key();
        let req = c.req_key();
        let mut mark = Mark::Plain;
        let mut hidden = false;
        if let Some(g) = c.group {
            match first.get(&g) {
                Some((_, k, l)) => {
                    mark = Mark::Retry;
                    hidden = *k != req || *l != c.lists;
                }
                None => {
                    first.insert(g, (id, req.clone(), c.lists.clone()));
                }
            }
        }
        if mark == Mark::Plain && seen.contains_key(&key) {
            mark = Mark::Legit;
        }
        seen.entry(key).or_insert(id);
        let tags = if c.tags.is_empty() {
            V::Null
        } else {
            V::Raw(format!(
                "ARRAY[{}]::VARCHAR(100)[]",
                c.tags.iter().map(|t| format!("'{}'", t.replace('\'', "''"))).collect::<Vec<_>>().join(", ")
            ))
        };
        f.push(&[
            ("id", V::I(id)),
            ("uuid", V::t(&c.uuid)),
            ("name", V::t(&c.name)),
            ("subject", V::t(&c.subject)),
            ("from_email", V::t(c.from)),
            ("body", V::t(&c.body)),
            ("body_source", V::Null),
            ("altbody", V::opt_t(c.altbody.as_deref())),
            ("content_type", V::t(c.ctype)),
            ("send_at", c.send_at.map_or(V::Null, V::AtZ)),
            ("headers", V::t(&c.headers)),
            ("attribs", V::t(&c.attribs)),
            ("status", V::t(c.status)),
            ("tags", tags),
            ("type", V::t(c.typ)),
            ("messenger", V::t("email")),
            ("template_id", V::opt_i(c.template)),
            ("to_send", V::I(c.to_send)),
            ("sent", V::I(c.sent)),
            ("max_subscriber_id", V::I(c.max_sub)),
            ("last_subscriber_id", V::I(c.last_sub)),
            ("archive", V::B(c.archive)),
            ("archive_slug", V::opt_t(c.slug.as_deref())),
            ("archive_template_id", V::opt_i(c.archive_tpl)),
            ("archive_meta", V::t(&c.archive_meta)),
            ("started_at", c.started.map_or(V::Null, V::AtZ)),
            ("created_at", V::AtZ(c.t)),
            ("updated_at", V::AtZ(c.updated.max(c.t))),
        ]);
        f.mark(id, mark);
        if hidden {
            f.hidden.insert(id.to_string());
        }
        for (cid, l) in ls {
            lists.push(&[
                ("id", V::I(cid)),
                ("campaign_id", V::I(id)),
                ("list_id", V::I(LISTS[l].0)),
                ("list_name", V::t(LISTS[l].1)),
            ]);
        }
    }
    f.children.push(lists);
    f
}
