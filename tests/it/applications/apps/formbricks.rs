//! Formbricks (TypeScript, Next.js, Prisma; PostgreSQL only): `Response`, as the public client API (POST
//! `/api/v2/client/{workspaceId}/responses`, `/api/v1/...` when a `userId` is sent) writes it for the survey renderer
//! (`@formbricks/surveys`) on the link-survey page and in the JS SDK's in-app widget, and for a customer's own page
//! that posts to that API: a self-hosted instance (one workspace, behind Cloudflare) of a B2B project-management SaaS,
//! 42 days from T0: an in-app NPS survey for identified users, a multi-language feedback link survey opened from the
//! app's help menu, two e-mail NPS campaigns whose 0-10 buttons link to a prefilled, auto-submitted link survey, a
//! "Was this page helpful?" widget on the docs site built on the client API, and single-use links CSMs send after
//! onboarding calls.
//! Read: formbricks/formbricks (b66c1dd) packages/database/schema/main.prisma (`Response`, `Display`),
//! packages/database/migration/ 20230329205933_init, 20230406124657, 20230505085230, 20230531143258, 20230618112915,
//! 20231003113835 (singleUseId, unique (surveyId, singleUseId)), 20231107145619, 20231129143833 (ttc), 20240318050527
//! (language), 20240613070218, 20240827113336 (variables), 20240917112456 (displayId, unique), 20241010133706 (person
//! -> contact renames), 20241105074829 (endingId), 20250226080646, 20250520163831, 20250911192630, 20260113160531
//! (drops Response_surveyId_idx), 20260821000000; apps/web/app/api/v2/client/[workspaceId]/responses/route.ts and
//! lib/response.ts, apps/web/app/api/v1/client/[workspaceId]/responses/route.ts and lib/response.ts,
//! apps/web/app/api/client/[workspaceId]/responses/lib/response.ts (`createResponseWithQuotaEvaluation`: the insert
//! and quota evaluation in one transaction), lib/response-error.ts, lib/single-use.ts, apps/web/app/api/v1/lib/utils.ts
//! (`buildPrismaResponseData`), apps/web/app/lib/pipelines.ts (`sendToPipeline` rethrows a failed BullMQ enqueue),
//! apps/web/app/api/v1/client/[workspaceId]/responses/[responseId]/lib/response.ts and apps/web/lib/response/service.ts
//! (`updateResponse`: data, ttc and variables merged, `_total` when finished), apps/web/lib/response/utils.ts
//! (`calculateTtcTotal`, `normalizeResponseLanguage`), apps/web/app/api/v2/client/[workspaceId]/displays/ (route,
//! `createDisplay`), packages/types/responses.ts (`ZResponseInput`), packages/surveys/src/lib/response-queue.ts
//! (`sendResponseWithRetry`: 4 attempts, backoff 1 s, 2 s, 4 s; 4xx but 401/404/408/425/429 dropped), lib/api-client.ts,
//! lib/utils.ts (`makeRequest`: fetch, no timeout; `getDefaultLanguageCode`), lib/survey-state.ts,
//! components/general/survey.tsx (`createDisplay` on mount, once; `onResponseCreateOrUpdate`, `getWebSurveyMeta`,
//! `onSubmit`), components/general/block-conditional.tsx (`skipPrefilled` auto-submits the prefilled first block in a
//! `setTimeout(0)` on mount, ttc 0), apps/web/modules/survey/link/components/survey-client-wrapper.tsx (hidden fields
//! and prefill from the URL), apps/web/lib/utils/single-use-surveys.ts, packages/js-core/src/lib/survey/widget.ts,
//! apps/web/package.json (ua-parser-js 2.0.10).
//! On a create: `id` a Prisma `cuid()` (v1: "c", ms time in base 36, counter, fingerprint, random); `created_at` and
//! `updated_at` now (ms, TIMESTAMP(3)), the same instant; `surveyId`, `finished`, `data` (the first block's answers,
//! hidden fields from the URL merged in), `ttc` (ms per element; `_total` added when created finished), `variables`
//! ({} with none), `language` (the survey's default language code or `?lang=`, NULL for a survey without languages or
//! a caller that sends none), `endingId` (the ending shown when created finished, else NULL), `displayId` and
//! `singleUseId` as the client sent them; `meta` rebuilt by the server: `source` and `url` from the request, `userAgent`
//! {browser, device ("desktop" when ua-parser finds none), os} parsed from the User-Agent header, `country` from
//! CF-IPCountry, `action` (the SDK's trigger), no `ipAddress` (IP capture off); `contactId` and a snapshot of the
//! contact's attributes in `contactAttributes` for the SDK's identified users, else NULL. No lookup stops a duplicate
//! but the two unique indexes: a create whose `displayId` already has a response fails (400, which the queue drops),
//! as does a second response for a single-use id. Later: each further block is a PUT to the response the queue knows
//! (data, ttc and variables merged, `finished`, `endingId`, `updated_at` now); nothing else here writes the row.
//! Retries: the renderer creates the display on mount and sends `displayId` with the create, so a resent create of an
//! app or link survey fails on `Response_displayId_key` and leaves no row; only creates sent without a display leave
//! copies. Those are the e-mail NPS clicks (the auto-submit of the prefilled score runs before the display POST
//! returns, so the create carries no displayId, and no later write sets it) and the docs widget (it creates no display).
//! The e-mail clicks: on a phone whose connection drops after the create was sent (the row committed, fetch fails when
//! the socket gives up, 0.2-60 s later), the queue resends after 1 s (or 1 + 2 s) and the copy is what the session
//! continues on: its later PUTs complete the copy and leave the original a score-only partial, so a completed copy is
//! hidden. A 3-minute Redis outage during the second campaign's first hour: BullMQ's enqueue fails after the create
//! committed, the route answers 500, and the queue's four attempts (+1 s, +2 s, +4 s) each leave a row; the error card
//! shows after a last 8 s backoff, and most people press its Retry 5-60 s later, which resends the same create (four
//! more rows if Redis is still down, then they give up); the session's later answers go to the last row (hidden when
//! completed); one more e-mail click in the last four days loses its connection. The docs widget has no retry, but its
//! button has no debounce: a double click posts twice, 40-220 ms apart (two in the last day). App, feedback and
//! single-use creates during the outage or a dropped connection keep their one row, left partial (the queue drops the
//! rejected resend, and every later block's create is rejected on the same displayId).
//! Legitimate repeats: e-mail NPS clicks that stop after the score (the same score, plan, phone or browser family and
//! country; many within minutes after a send), and docs readers who click the same answer on the same page with the
//! same browser family from the same country; marked where a row equals an earlier one on everything but `id`, the two
//! timestamps and `displayId` (minted per page view by the display create, unique per row).
//! Guessed: the company, its surveys, element and ending ids, the audiences, volumes and rhythms, the score and answer
//! mixes, the comments, the user-agent and country mixes, the campaign decay, the drop and double-click rates, the
//! outage and how many press Retry, that Prisma writes `created_at` and `updated_at` as one instant, the encrypted
//! single-use link format.
use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as Prisma's migrations leave it (columns in the order they were added, `personId` and
/// `personAttributes` renamed), without the foreign keys to `Survey`, `Contact` and `Display`.
pub fn ddl(_: Engine) -> String {
    r#"CREATE TABLE "Response" (
    "id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished" BOOLEAN NOT NULL DEFAULT false,
    "surveyId" TEXT NOT NULL,
    "contactId" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "meta" JSONB NOT NULL DEFAULT '{}',
    "contactAttributes" JSONB,
    "singleUseId" TEXT,
    "ttc" JSONB NOT NULL DEFAULT '{}',
    "language" TEXT,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "displayId" TEXT,
    "endingId" TEXT,
    CONSTRAINT "Response_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "Response_surveyId_singleUseId_key" ON "Response"("surveyId", "singleUseId");
CREATE INDEX "Response_surveyId_created_at_idx" ON "Response"("surveyId", "created_at");
CREATE INDEX "Response_contactId_created_at_idx" ON "Response"("contactId", "created_at");
CREATE UNIQUE INDEX "Response_displayId_key" ON "Response"("displayId");
CREATE INDEX "Response_created_at_idx" ON "Response"("created_at");
CREATE INDEX "Response_surveyId_finished_idx" ON "Response"("surveyId", "finished");"#
        .to_string()
}

const COLUMNS: &[&str] = &[
    "id",
    "created_at",
    "updated_at",
    "finished",
    "surveyId",
    "contactId",
    "data",
    "meta",
    "contactAttributes",
    "singleUseId",
    "ttc",
    "language",
    "variables",
    "displayId",
    "endingId",
];

const START: i64 = T0;
const DAYS: i64 = 42;
const NOW: i64 = START + DAYS * DAY;
const MS: i64 = 1_000;
/// The e-mail campaigns (Tuesdays, 08:00 UTC) and the Redis outage in the second one's first hour.
const CAMPAIGNS: [i64; 2] = [START + 5 * DAY + 8 * HOUR, START + 33 * DAY + 8 * HOUR];
const OUTAGE: (i64, i64) = (CAMPAIGNS[1] + 21 * MINUTE + 10 * SECOND, CAMPAIGNS[1] + 24 * MINUTE + 25 * SECOND);
/// The first docs click after each of these is a double click.
const LATE: [i64; 2] = [NOW - 20 * HOUR, NOW - 5 * HOUR];
/// The first mobile e-mail click after this one loses its connection.
const LATE_DROP: i64 = NOW - 4 * DAY;

const APP: &str = "https://app.tallyho.app";
const LINK: &str = "https://feedback.tallyho.app/s/";
const DOCS: &str = "https://docs.tallyho.app";

/// The surveys: the in-app NPS, the help-menu feedback, the e-mail NPS, the docs widget's, the onboarding survey.
#[derive(Clone, Copy, PartialEq, Eq)]
enum S {
    AppNps,
    Feedback,
    MailNps,
    Docs,
    Onboard,
}

/// What a survey's elements and endings are called (random cuid2s the editor made, or ids typed in).
#[derive(Clone)]
struct Ids {
    surveys: HashMap<u8, String>,
    app_nps: String,
    app_reason: String,
    app_end: String,
    fb_kind: String,
    fb_text: String,
    fb_follow: String,
    fb_end: String,
    mail_end: String,
    onb_rating: String,
    onb_text: String,
    onb_end: String,
}

/// A row as it ends up.
#[derive(Clone)]
struct Row {
    id: String,
    created: i64,
    updated: i64,
    finished: bool,
    survey: S,
    contact: Option<String>,
    data: Value,
    meta: Value,
    attrs: Option<Value>,
    single_use: Option<String>,
    ttc: Value,
    language: Option<&'static str>,
    display: Option<String>,
    ending: Option<String>,
    /// The index of the row this one is a retry's copy of.
    copy_of: Option<usize>,
}

struct Gen {
    r: Rng,
    counter: u64,
    rows: Vec<Row>,
    ids: Ids,
}

fn base36(mut n: u64, width: usize) -> String {
    const D: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut s = Vec::new();
    while n > 0 {
        s.push(D[(n % 36) as usize]);
        n /= 36;
    }
    while s.len() < width {
        s.push(b'0');
    }
    s.reverse();
    String::from_utf8(s).unwrap()
}

/// A cuid2 (`createId()`): 24 characters, a letter first.
fn cuid2(r: &mut Rng) -> String {
    let first = (b'a' + r.below(26) as u8) as char;
    let rest: String = (0..23).map(|_| char::from_digit(r.below(36) as u32, 36).unwrap()).collect();
    format!("{first}{rest}")
}

impl Gen {
    /// A Prisma `cuid()` minted at `us` by the one app container (fingerprint "01" for pid 1, then the host's).
    fn cuid(&mut self, us: i64) -> String {
        self.counter += 1 + self.r.below(4);
        let ms = (us / MS) as u64;
        let rand = self.r.next() % 36u64.pow(8);
        format!("c{}{}01kx{}", base36(ms, 8), base36(self.counter % 36u64.pow(4), 4), base36(rand, 8))
    }

    fn ms(us: i64) -> i64 {
        us - us.rem_euclid(MS)
    }

    fn push(&mut self, row: Row) -> usize {
        self.rows.push(row);
        self.rows.len() - 1
    }
}

/// (browser, device, os) as ua-parser-js 2 names them, with weights: desktop browsers and phones.
#[rustfmt::skip]
const DESKTOP: &[(&str, &str, &str, i64)] = &[
    ("Chrome", "desktop", "Windows", 30), ("Chrome", "desktop", "macOS", 18), ("Edge", "desktop", "Windows", 12),
    ("Safari", "desktop", "macOS", 9), ("Firefox", "desktop", "Windows", 5), ("Firefox", "desktop", "Linux", 2),
    ("Chrome", "desktop", "Linux", 3), ("Firefox", "desktop", "macOS", 2),
];
#[rustfmt::skip]
const MOBILE: &[(&str, &str, &str, i64)] = &[
    ("Mobile Safari", "mobile", "iOS", 45), ("Chrome", "mobile", "Android", 28), ("Samsung Internet", "mobile", "Android", 6),
    ("Chrome WebView", "mobile", "Android", 4), ("Mobile Safari", "tablet", "iOS", 5), ("Mobile Chrome", "mobile", "iOS", 6),
    ("WebKit", "mobile", "iOS", 4), ("Chrome", "tablet", "Android", 2),
];
#[rustfmt::skip]
const COUNTRIES: &[(&str, i64)] = &[
    ("US", 30), ("DE", 18), ("GB", 11), ("FR", 6), ("NL", 6), ("CA", 5), ("AT", 3), ("CH", 3), ("IN", 4), ("AU", 4),
    ("ES", 3), ("SE", 3), ("PL", 2), ("BR", 2),
];
/// Responses per UTC hour, relative (European mornings, American afternoons).
const RHYTHM: [i64; 24] = [2, 1, 1, 1, 1, 2, 4, 7, 10, 11, 11, 10, 9, 10, 12, 13, 12, 10, 8, 6, 5, 4, 3, 2];
const PLANS: &[(&str, i64)] = &[("free", 40), ("starter", 25), ("pro", 25), ("business", 10)];
/// NPS scores 0-10, relative.
const SCORES: [i64; 11] = [2, 1, 1, 2, 3, 5, 8, 12, 18, 20, 22];
#[rustfmt::skip]
const SLUGS: &[&str] = &[
    "acme", "northwind", "globex", "initech", "umbrella-labs", "hooli", "stark-design", "wayne-ops", "piedpiper",
    "vandelay", "bluth", "dunder", "soylent", "tyrell", "cyberdyne", "gringotts", "oceanic", "monarch", "prestige",
    "wonka", "nakatomi", "massive-dynamic", "aperture", "blackmesa", "octan", "zorg", "weyland", "sirius", "vehement",
];
#[rustfmt::skip]
const DOC_PAGES: &[&str] = &[
    "/getting-started", "/getting-started/invite-your-team", "/boards/kanban", "/boards/timeline", "/boards/filters",
    "/tasks/recurring-tasks", "/tasks/dependencies", "/tasks/custom-fields", "/tasks/templates", "/integrations/slack",
    "/integrations/github", "/integrations/google-calendar", "/integrations/zapier", "/integrations/jira-import",
    "/api/authentication", "/api/webhooks", "/api/rate-limits", "/api/tasks", "/admin/sso-saml", "/admin/scim",
    "/admin/roles-and-permissions", "/admin/audit-log", "/billing/plans", "/billing/invoices", "/billing/change-plan",
    "/mobile/ios", "/mobile/android", "/notifications/email-digest", "/notifications/mute", "/reports/workload",
    "/reports/time-tracking", "/reports/export-csv", "/security/2fa", "/security/data-retention", "/troubleshooting/sync",
    "/troubleshooting/login", "/changelog", "/faq",
];
#[rustfmt::skip]
const GOOD: &[&str] = &[
    "the timeline view", "the kanban board", "your support team", "the Slack integration", "recurring tasks",
    "how fast everything loads", "the GitHub sync", "workload reports", "the keyboard shortcuts", "custom fields",
    "the mobile app", "task templates", "onboarding new teammates", "the calendar sync", "the clean interface",
];
#[rustfmt::skip]
const BAD: &[&str] = &[
    "the price for small teams", "search not finding comments", "too many notification emails", "no gantt export",
    "the mobile app being slow", "calendar sync breaking now and then", "missing time tracking on the free plan",
    "the permissions model", "no offline mode", "the jira import losing attachments", "reports being too basic",
    "the new sidebar", "sso only on business", "the API rate limits", "dark mode contrast",
];
const OPENERS: &[&str] =
    &["", "", "Really like ", "Love ", "Mostly happy, ", "Honestly ", "We rely on ", "Big fan of "];
const CRITICS: &[&str] = &["but ", "only issue is ", "please fix ", "annoyed by ", "would be a 10 without ", "hate "];
const SHORT: &[&str] = &["great tool", "works well", "ok", "good", "Great product!", "does the job", "👍", "meh"];
const KINDS: [&str; 4] = ["Bug report", "Feature request", "Question", "Other"];
const KINDS_DE: [&str; 4] = ["Fehlermeldung", "Funktionswunsch", "Frage", "Sonstiges"];

fn pick_w<'a>(r: &mut Rng, items: &'a [(&'a str, i64)]) -> &'a str {
    let w: Vec<i64> = items.iter().map(|i| i.1).collect();
    items[r.weighted(&w)].0
}

fn ua(r: &mut Rng, mobile: bool) -> Value {
    let list = if mobile { MOBILE } else { DESKTOP };
    let w: Vec<i64> = list.iter().map(|u| u.3).collect();
    let (browser, device, os, _) = list[r.weighted(&w)];
    json!({ "browser": browser, "device": device, "os": os })
}

/// The request's meta as the route rebuilds it: source, url, userAgent, country, action.
fn meta(source: Option<&str>, url: &str, ua: &Value, country: &str, action: Option<&str>) -> Value {
    let mut m = Map::new();
    if let Some(s) = source {
        m.insert("source".into(), json!(s));
    }
    m.insert("url".into(), json!(url));
    m.insert("userAgent".into(), ua.clone());
    m.insert("country".into(), json!(country));
    if let Some(a) = action {
        m.insert("action".into(), json!(a));
    }
    Value::Object(m)
}

/// What a respondent types as a reason for a score.
fn reason(r: &mut Rng, score: i64) -> String {
    if r.chance(0.12) {
        return r.pick(SHORT).to_string();
    }
    let good = r.pick(GOOD).to_string();
    let bad = r.pick(BAD).to_string();
    let mut s = if score >= 9 {
        format!("{}{}", r.pick(OPENERS), good)
    } else if score >= 7 {
        format!("{}{}, {}{}", r.pick(OPENERS), good, r.pick(CRITICS), bad)
    } else {
        format!("{}{}", r.pick(CRITICS), bad)
    };
    if r.chance(0.3) {
        s.push_str(&format!(". also {}", r.pick(if score >= 7 { GOOD } else { BAD })));
    }
    let mut c = s.chars();
    let first = c.next().map(|f| f.to_uppercase().collect::<String>()).unwrap_or_default();
    format!("{first}{}", c.as_str())
}

/// A time on day `d` following the rhythm.
fn at(r: &mut Rng, d: i64) -> i64 {
    let h = r.weighted(&RHYTHM) as i64;
    START + d * DAY + h * HOUR + r.range(0, 3_599_999) * MS
}

fn merge(a: &Value, b: Value) -> Value {
    let mut m = a.as_object().cloned().unwrap_or_default();
    for (k, v) in b.as_object().cloned().unwrap_or_default() {
        m.insert(k, v);
    }
    Value::Object(m)
}

/// `calculateTtcTotal`.
fn total(ttc: &Value) -> Value {
    let sum: i64 = ttc.as_object().unwrap().values().map(|v| v.as_i64().unwrap()).sum();
    merge(ttc, json!({ "_total": sum }))
}

fn in_outage(us: i64) -> bool {
    us >= OUTAGE.0 && us < OUTAGE.1
}

/// A later PUT on row `i`: answers merged, finished with the ending, `_total`, `updated_at`.
fn complete(g: &mut Gen, i: usize, data: Value, ttc: Value, ending: &str, at: i64) {
    let row = &mut g.rows[i];
    row.data = merge(&row.data, data);
    row.ttc = total(&merge(&row.ttc, ttc));
    row.finished = true;
    row.ending = Some(ending.to_string());
    row.updated = Gen::ms(at.max(row.created + 250 * MS));
}

/// One session of a survey the renderer shows with a display: the display at `shown`, the first block's create
/// `first_ms` later. A create during the outage or over a dropped connection keeps its row but the session stops there.
#[allow(clippy::too_many_arguments)]
fn displayed(
    g: &mut Gen,
    survey: S,
    shown: i64,
    first_ms: i64,
    mobile: bool,
    data: Value,
    meta: Value,
    contact: Option<(String, Value)>,
    single_use: Option<String>,
    language: Option<&'static str>,
) -> (usize, bool) {
    let minted = shown + g.r.range(60, 300) * MS;
    let display = g.cuid(minted);
    let created = Gen::ms(shown + first_ms * MS + g.r.range(60, 400) * MS);
    let first_key = data.as_object().unwrap().keys().next().unwrap().clone();
    let row = Row {
        id: g.cuid(created),
        created,
        updated: created,
        finished: false,
        survey,
        contact: contact.as_ref().map(|c| c.0.clone()),
        data,
        meta,
        attrs: contact.map(|c| c.1),
        single_use,
        ttc: json!({ first_key: first_ms }),
        language,
        display: Some(display),
        ending: None,
        copy_of: None,
    };
    let i = g.push(row);
    let stuck = in_outage(created) || (mobile && g.r.chance(0.03));
    (i, !stuck)
}

fn app_nps(g: &mut Gen) {
    let mut n = 0u64;
    for d in 0..DAYS {
        let mean = if weekday(START + d * DAY) < 5 { 17.0 } else { 5.0 };
        for _ in 0..g.r.poisson(mean) {
            n += 1;
            let shown = at(&mut g.r, d);
            let mobile = g.r.chance(0.08);
            let ua = ua(&mut g.r, mobile);
            let country = pick_w(&mut g.r, COUNTRIES);
            let slug = *g.r.pick(SLUGS);
            let page = match g.r.below(4) {
                0 => format!("{APP}/w/{slug}/dashboard"),
                1 => format!("{APP}/w/{slug}/inbox"),
                _ => format!("{APP}/w/{slug}/projects/{}/board", g.r.range(1, 240)),
            };
            let m = meta(None, &page, &ua, country, Some("viewed_dashboard"));
            let score = g.r.weighted(&SCORES) as i64;
            let joined = START - g.r.range(1, 900) * DAY;
            let contact = g.cuid(joined);
            let first = ["Anna", "Ben", "Chloe", "David", "Elif", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kai"];
            let name = *g.r.pick(&first);
            let attrs = json!({
                "userId": format!("usr_{}", g.r.alnum(10)),
                "email": format!("{}.{}{}@{slug}.com", name.to_lowercase(), (b'a' + g.r.below(26) as u8) as char, n % 97),
                "firstName": name,
                "plan": pick_w(&mut g.r, PLANS),
            });
            let first_ms = g.r.range(1_500, 25_000);
            let key = g.ids.app_nps.clone();
            let (i, goes_on) = displayed(
                g,
                S::AppNps,
                shown,
                first_ms,
                mobile,
                json!({ key: score }),
                m,
                Some((contact, attrs)),
                None,
                None,
            );
            if goes_on && g.r.chance(0.62) {
                let think = g.r.range(8_000, 140_000);
                let text = reason(&mut g.r, score);
                let (k, end) = (g.ids.app_reason.clone(), g.ids.app_end.clone());
                let at = g.rows[i].created + think * MS;
                complete(g, i, json!({ k.clone(): text }), json!({ k: think }), &end, at);
            }
        }
    }
}

fn feedback(g: &mut Gen) {
    for d in 0..DAYS {
        let mean = if weekday(START + d * DAY) < 5 { 6.0 } else { 1.5 };
        for _ in 0..g.r.poisson(mean) {
            let shown = at(&mut g.r, d);
            let mobile = g.r.chance(0.1);
            let ua = ua(&mut g.r, mobile);
            let country = pick_w(&mut g.r, COUNTRIES);
            let de = matches!(country, "DE" | "AT" | "CH") && g.r.chance(0.6);
            let slug = *g.r.pick(SLUGS);
            let sid = g.ids.surveys[&1].clone();
            let url = format!("{LINK}{sid}?source=app-help&workspace={slug}{}", if de { "&lang=de" } else { "" });
            let m = meta(Some("app-help"), &url, &ua, country, None);
            let k = g.r.weighted(&[30, 40, 18, 12]);
            let kind = if de { KINDS_DE[k] } else { KINDS[k] };
            let first_ms = g.r.range(2_000, 16_000);
            let key = g.ids.fb_kind.clone();
            let data = json!({ key: kind, "workspace": slug });
            let lang = Some(if de { "de" } else { "en" });
            let (i, goes_on) = displayed(g, S::Feedback, shown, first_ms, mobile, data, m, None, None, lang);
            if goes_on && g.r.chance(0.72) {
                let t1 = g.r.range(15_000, 300_000);
                let score = if k == 0 { 3 } else { 8 };
                let text = reason(&mut g.r, score);
                let (kt, kf, end) = (g.ids.fb_text.clone(), g.ids.fb_follow.clone(), g.ids.fb_end.clone());
                let at1 = g.rows[i].created + t1 * MS;
                if g.r.chance(0.88) {
                    let t2 = g.r.range(1_500, 9_000);
                    let yes = if de { ["Ja", "Nein"] } else { ["Yes", "No"] }[g.r.weighted(&[55, 45])];
                    let data = json!({ kt.clone(): text, kf.clone(): yes });
                    complete(g, i, data, json!({ kt: t1, kf: t2 }), &end, at1 + t2 * MS);
                } else {
                    let row = &mut g.rows[i];
                    row.data = merge(&row.data, json!({ kt.clone(): text }));
                    row.ttc = merge(&row.ttc, json!({ kt: t1 }));
                    row.updated = Gen::ms(at1);
                }
            }
        }
    }
}

fn onboard(g: &mut Gen) {
    for d in 0..DAYS {
        if weekday(START + d * DAY) >= 5 {
            continue;
        }
        for _ in 0..g.r.poisson(1.8) {
            let shown = at(&mut g.r, d);
            let mobile = g.r.chance(0.25);
            let ua = ua(&mut g.r, mobile);
            let country = pick_w(&mut g.r, COUNTRIES);
            let sid = g.ids.surveys[&4].clone();
            let su = cuid2(&mut g.r);
            let url = format!("{LINK}{sid}?suId={}%3A{}", g.r.hex(32), g.r.hex(64));
            let m = meta(None, &url, &ua, country, None);
            let rating = g.r.weighted(&[1, 2, 6, 20, 30]) as i64 + 1;
            let key = g.ids.onb_rating.clone();
            let first_ms = g.r.range(2_000, 12_000);
            let (i, goes_on) =
                displayed(g, S::Onboard, shown, first_ms, mobile, json!({ key: rating }), m, None, Some(su), None);
            if goes_on && g.r.chance(0.7) {
                let t = g.r.range(10_000, 200_000);
                let text = reason(&mut g.r, rating * 2);
                let (k, end) = (g.ids.onb_text.clone(), g.ids.onb_end.clone());
                let at = g.rows[i].created + t * MS;
                complete(g, i, json!({ k.clone(): text }), json!({ k: t }), &end, at);
            }
        }
    }
}

/// One click on an e-mail's score button: the link page opens, auto-submits the prefilled score with no display.
fn mail_click(g: &mut Gen, click: i64, late_drop: &mut bool) {
    let plan = pick_w(&mut g.r, PLANS);
    let score = g.r.weighted(&SCORES) as i64;
    let mobile = g.r.chance(0.55);
    let ua = ua(&mut g.r, mobile);
    let country = pick_w(&mut g.r, COUNTRIES);
    let sid = g.ids.surveys[&2].clone();
    let url = format!("{LINK}{sid}?source=email&plan={plan}&nps={score}&skipPrefilled=true");
    let base = Row {
        id: String::new(),
        created: 0,
        updated: 0,
        finished: false,
        survey: S::MailNps,
        contact: None,
        data: json!({ "nps": score, "plan": plan }),
        meta: meta(Some("email"), &url, &ua, country, None),
        attrs: None,
        single_use: None,
        ttc: json!({ "nps": 0 }),
        language: None,
        display: None,
        ending: None,
        copy_of: None,
    };
    let insert = |g: &mut Gen, t: i64, of: Option<usize>| {
        let created = Gen::ms(t);
        let id = g.cuid(created);
        g.push(Row { id, created, updated: created, copy_of: of, ..base.clone() })
    };
    let t = click + g.r.range(700, 4_000) * MS;
    let first = insert(g, t, None);
    let mut last = first;
    let mut sent = t;
    if in_outage(t) {
        // Each attempt commits, then the enqueue fails: 500, and the queue tries again.
        let mut cycles = 0;
        let mut k = 0;
        let mut ti = t;
        loop {
            let gap = if k < 3 {
                (1_000 << k) + g.r.range(150, 700)
            } else {
                // After the last attempt's 8 s backoff, the error card: Retry pressed, or the tab closed.
                cycles += 1;
                if cycles == 2 || !g.r.chance(0.7) {
                    return;
                }
                k = -1;
                g.r.range(13_000, 68_000)
            };
            k += 1;
            ti += gap * MS;
            last = insert(g, ti, Some(first));
            sent = ti;
            if !in_outage(ti) {
                break;
            }
        }
    } else if mobile && (g.r.chance(0.04) || (!*late_drop && click > LATE_DROP)) {
        *late_drop |= click > LATE_DROP;
        // The socket gives up after the row committed; the resend 1 s later (1 + 2 s if that one found no network).
        let detect = if g.r.chance(0.4) { g.r.range(200, 3_000) } else { g.r.range(10_000, 60_000) };
        let backoff = if g.r.chance(0.3) { 3_000 } else { 1_000 };
        sent = t + (detect + backoff + g.r.range(100, 900)) * MS;
        last = insert(g, sent, Some(first));
    }
    // The next block was shown at once; its answer is sent to the response the queue knows, after the create.
    if g.r.chance(0.45) {
        let think = if g.r.chance(0.1) { g.r.range(900, 4_000) } else { g.r.range(12_000, 180_000) };
        let text = if think < 4_000 { String::new() } else { reason(&mut g.r, score) };
        let end = g.ids.mail_end.clone();
        let put = (t + think * MS).max(sent + g.r.range(200, 600) * MS);
        complete(g, last, json!({ "reason": text }), json!({ "reason": think }), &end, put);
    }
}

fn mail_campaigns(g: &mut Gen) {
    let mut late_drop = false;
    for send in CAMPAIGNS {
        let clicks = g.r.range(420, 470);
        let mut times: Vec<i64> = (0..clicks)
            .map(|_| {
                let mean = *g.r.pick(&[1.1, 1.1, 1.1, 1.1, 7.0, 7.0, 7.0, 40.0, 40.0]);
                let hours = -mean * (1.0 - g.r.unit()).ln();
                send + 90 * SECOND + (hours * HOUR as f64) as i64
            })
            .filter(|&t| t < NOW - 10 * MINUTE)
            .collect();
        times.sort();
        for t in times {
            mail_click(g, t, &mut late_drop);
        }
    }
}

fn docs(g: &mut Gen) {
    let mut late = 0;
    let mut clicks = Vec::new();
    for d in 0..DAYS {
        let mean = if weekday(START + d * DAY) < 5 { 9.0 } else { 3.0 };
        for _ in 0..g.r.poisson(mean) {
            clicks.push(at(&mut g.r, d));
        }
    }
    clicks.sort();
    for click in clicks {
        let page = DOC_PAGES[g.r.skewed(DOC_PAGES.len() as u64) as usize];
        let anchor = if g.r.chance(0.08) { "#troubleshooting" } else { "" };
        let url = format!("{DOCS}{page}{anchor}");
        let mobile = g.r.chance(0.12);
        let ua = ua(&mut g.r, mobile);
        let country = pick_w(&mut g.r, COUNTRIES);
        let answer = if g.r.chance(0.72) { "Yes" } else { "No" };
        let created = Gen::ms(click + g.r.range(60, 350) * MS);
        let row = Row {
            id: g.cuid(created),
            created,
            updated: created,
            finished: true,
            survey: S::Docs,
            contact: None,
            data: json!({ "helpful": answer }),
            meta: meta(None, &url, &ua, country, None),
            attrs: None,
            single_use: None,
            ttc: json!({}),
            language: None,
            display: None,
            ending: None,
            copy_of: None,
        };
        let forced = late < LATE.len() && click > LATE[late];
        if forced {
            late += 1;
        }
        let i = g.push(row.clone());
        if forced || g.r.chance(0.03) {
            let created = Gen::ms(created + g.r.range(40, 220) * MS);
            let id = g.cuid(created);
            g.push(Row { id, created, updated: created, copy_of: Some(i), ..row });
        }
    }
}

/// The columns the requests and later work set: all but `id`, the timestamps and `displayId`.
fn key(row: &Row) -> String {
    format!(
        "{}|{}|{:?}|{}|{}|{:?}|{:?}|{}|{:?}|{:?}",
        row.finished,
        row.survey as u8,
        row.contact,
        canon(&row.data),
        canon(&row.meta),
        row.attrs.as_ref().map(canon),
        row.single_use,
        canon(&row.ttc),
        row.language,
        row.ending
    )
}

/// JSON as JSONB compares it: keys in order.
fn canon(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys.iter().map(|k| format!("{k:?}:{}", canon(&m[*k]))).collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(a) => format!("[{}]", a.iter().map(canon).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0xF02B_71C5);
    let ids = Ids {
        surveys: HashMap::new(),
        app_nps: cuid2(&mut r),
        app_reason: cuid2(&mut r),
        app_end: cuid2(&mut r),
        fb_kind: cuid2(&mut r),
        fb_text: cuid2(&mut r),
        fb_follow: cuid2(&mut r),
        fb_end: cuid2(&mut r),
        mail_end: cuid2(&mut r),
        onb_rating: cuid2(&mut r),
        onb_text: cuid2(&mut r),
        onb_end: cuid2(&mut r),
    };
    let counter = r.below(1_000_000);
    let mut g = Gen { r, counter, rows: Vec::new(), ids };
    for (n, ago) in [(0u8, 60), (1, 44), (2, 12), (3, 30), (4, 20)] {
        let made = START - ago * DAY + g.r.range(0, 80_000) * SECOND;
        let id = g.cuid(made);
        g.ids.surveys.insert(n, id);
    }

    app_nps(&mut g);
    feedback(&mut g);
    onboard(&mut g);
    mail_campaigns(&mut g);
    docs(&mut g);

    let surveys = g.ids.surveys.clone();
    let survey_id = |s: S| surveys[&(s as u8)].clone();
    let mut order: Vec<usize> = (0..g.rows.len()).collect();
    order.sort_by_key(|&i| (g.rows[i].created, i));

    let mut f = Fixture::new("Response", COLUMNS);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for &i in &order {
        let row = &g.rows[i];
        let k = key(row);
        if let Some(o) = row.copy_of {
            f.mark(&row.id, Mark::Retry);
            if key(&g.rows[o]) != k {
                f.hidden.insert(row.id.clone());
            }
        } else if seen.contains_key(&k) {
            f.mark(&row.id, Mark::Legit);
        }
        seen.entry(k).or_insert(i);
        f.push(&[
            ("id", V::t(&row.id)),
            ("created_at", V::At(row.created)),
            ("updated_at", V::At(row.updated)),
            ("finished", V::B(row.finished)),
            ("surveyId", V::t(survey_id(row.survey))),
            ("contactId", V::opt_t(row.contact.as_deref())),
            ("data", V::t(row.data.to_string())),
            ("meta", V::t(row.meta.to_string())),
            ("contactAttributes", row.attrs.as_ref().map_or(V::Null, |a| V::t(a.to_string()))),
            ("singleUseId", V::opt_t(row.single_use.as_deref())),
            ("ttc", V::t(row.ttc.to_string())),
            ("language", V::opt_t(row.language)),
            ("variables", V::t("{}")),
            ("displayId", V::opt_t(row.display.as_deref())),
            ("endingId", V::opt_t(row.ending.as_deref())),
        ]);
    }
    f
}
