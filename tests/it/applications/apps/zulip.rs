//! Zulip (Python, Django; PostgreSQL only): `zerver_message`, as `check_message` / `build_message_send_dict` /
//! `do_send_messages` write a message sent from the web app, the desktop and mobile apps, the API (a CI deploy script,
//! a cron reminder) and incoming webhooks (GitHub, Grafana, Sentry), plus the Notification Bot's resolve notices, and
//! as people edit, move, resolve and delete messages afterwards: a 36-person software company, 13 channels, 42 days.
//! Read: zulip/zulip zerver/models/messages.py (0914a0b: `AbstractMessage`, `Message`, `DM_TOPIC`, the Meta indexes),
//! zerver/migrations/0001_squashed_0569.py (039e220: the `Message` CreateModel, `realm` then `recipient` added, the
//! indexes, `SET STATISTICS 10000`, `set_up_fts_indexes` and its `fts_update_log` trigger), 0001_initial.py (06175f6),
//! 0243-0245 (`date_sent` replacing `pub_date`), 0690/0692 (`is_channel_message`, found by code search);
//! zerver/actions/message_send.py (001b387: `check_message`, `build_message_send_dict`, `do_send_messages`,
//! `_internal_prep_message`), zerver/views/message_send.py (00b3546: `local_id`/`queue_id` only passed through),
//! zerver/actions/message_edit.py (001b387: `do_update_message`, `update_message_content`,
//! `maybe_send_resolve_topic_notifications`, `maybe_delete_previous_resolve_topic_notification`), zerver/lib/topic.py
//! (0675a25: `update_edit_history` prepends and re-dumps with orjson, `update_messages_for_topic_edit` prepends with a
//! jsonb `||` cast back to text), puppet/zulip/files/postgresql/process_fts_updates (418bf07, and the newer copy found
//! by search: `to_tsvector('zulip.english_us_search', subject || rendered_content)`), zerver/webhooks/grafana/tests.py
//! (0bd1b32), zerver/webhooks/github/tests.py (00001a3), zerver/webhooks/sentry/view.py (034e002),
//! zerver/tests/fixtures/markdown_test_cases.json (0289beb), zerver/models/idempotent_requests.py (509dfa6: from the
//! unmerged PRs #35017/#36213 for the open issue #31219 "Prevent the client from accidentally sending duplicate
//! messages"; no release has it, no client sends `Idempotency-Key`). jamesnetherton/zulip-java-client (250efbb)
//! src/test/resources/docker/zulip.sql: a pg_dump of a fresh install (2026-04) whose `zerver_message` columns and index
//! names the DDL below copies.
//! On a create: `check_message` fills `sender`, `recipient` (the channel's, the other person's personal recipient, or
//! the group DM's), `realm` 2, `subject` = the topic (truncated to 60 with "...", "" for general chat, "\x07" for
//! DMs), `is_channel_message`, `type` 1 (2 for the Notification Bot's resolve notices), `sending_client` from the
//! User-Agent (website, ZulipElectron, ZulipFlutter, ZulipPython, Zulip<Name>Webhook, Internal), `date_sent` = now()
//! before rendering, `content` the normalized Markdown; `build_message_send_dict` sets `rendered_content` and
//! `rendered_content_version` 1, `has_link`/`has_image` from the rendering; `do_send_messages` bulk-inserts (the id, a
//! few ms after `date_sent`) and sets `has_attachment` when it claims an upload. `last_edit_time`/`edit_history` NULL.
//! `search_tsvector` is written by process_fts_updates from the trigger's log as soon as the row commits: here
//! `to_tsvector('pg_catalog.english', subject || rendered_content)`, which is what `zulip.english_us_search` is
//! without the hunspell dictionaries. `local_id`/`queue_id` only go into the sender's event: nothing refuses a resend.
//! Later: a content edit (the sender, within 10 minutes) sets `content`, `rendered_content`, `last_edit_time` and
//! prepends {user_id, timestamp, prev_content, prev_rendered_content, prev_rendered_content_version} to
//! `edit_history` (compact orjson, newest first); moving one message prepends {prev_topic, topic}; resolving or
//! unresolving a topic renames every message in it: the latest through orjson, the others through jsonb (spaced, keys
//! sorted), all with the same `last_edit_time`; the Notification Bot then posts "@_**Name|id** has marked this topic as
//! (un)resolved." in the new topic (an undo within a minute deletes it instead of posting). A deleted message leaves
//! the table (to `zerver_archivedmessage`). `search_tsvector` follows every subject or content change.
//! Retries (45 extra rows, 1.6%; more were sent and deleted): the web and desktop apps' resend after a failed send and
//! the mobile app's retry (double sends 20-100 ms apart, resends 10-60 s after the timeout, sometimes once more after a
//! backoff), the mobile app resending 4-35 minutes later when the phone reconnects (hidden), the deploy script's
//! python client posting again after a connection reset (1-12 s), Grafana retrying its webhook after its 30 s timeout,
//! Sentry retrying, GitHub deliveries redelivered by hand 12-150 minutes later (hidden); three forced in the last day.
//! People delete the extra copy (or the first) within 10 minutes, edit it to "(duplicate)", or leave it; copies are
//! renamed along with their topic.
//! Legitimate repeats: "ping", "ok", "+1", "thanks" from the same person in the same DM or topic minutes to days apart
//! (from others, or in other topics, they are not equal rows); GitHub's "updated PR #n" after each push (bursts 30-120
//! s apart); Grafana re-notifying a firing alert without values every 4 h; Sentry's "was marked as resolved by" after
//! a regression; the deploy job re-run after a flaky smoke test (both messages again); the Friday timesheet reminder;
//! the Notification Bot's notice when the same person resolves a topic again. Plain near-repeats: Grafana repeats with
//! new values, Sentry events (each with its timestamp), standups, the same short replies from other people.
//! Guessed: the company, people, channels, topics, texts, ids (users, recipients, clients), rates and rhythms; the
//! clients' retry timings; GitHub redelivery, Grafana and Sentry retry behaviour; emoji codes; the thumbnail markup;
//! the english configuration for the search vector; the resolve target being the topic's latest message.
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as a fresh install's migrations leave it (the squashed 0001 then 0570-0745), without the foreign keys to
/// users, recipients, clients and realms, and without the `fts_update_log` trigger (its table is not this one's child).
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"CREATE TABLE "zerver_message" (
    "id" integer NOT NULL PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY,
    "type" smallint DEFAULT 1 NOT NULL CHECK ("type" >= 0),
    "subject" varchar(60) NOT NULL,
    "content" text NOT NULL,
    "rendered_content" text NULL,
    "rendered_content_version" integer NULL,
    "date_sent" timestamp with time zone NOT NULL,
    "last_edit_time" timestamp with time zone NULL,
    "edit_history" text NULL,
    "has_attachment" boolean NOT NULL,
    "has_image" boolean NOT NULL,
    "has_link" boolean NOT NULL,
    "search_tsvector" tsvector NULL,
    "sender_id" integer NOT NULL,
    "sending_client_id" integer NOT NULL,
    "realm_id" integer NOT NULL,
    "recipient_id" integer NOT NULL,
    "is_channel_message" boolean NOT NULL
);
ALTER TABLE "zerver_message" ALTER COLUMN "search_tsvector" SET STATISTICS 10000;
CREATE INDEX "zerver_message_date_sent_3b5b05d8" ON "zerver_message" ("date_sent");
CREATE INDEX "zerver_message_edit_history_id" ON "zerver_message" ("id") WHERE "edit_history" IS NOT NULL;
CREATE INDEX "zerver_message_has_attachment_a3fd5bf6" ON "zerver_message" ("has_attachment");
CREATE INDEX "zerver_message_has_image_ff9a0b90" ON "zerver_message" ("has_image");
CREATE INDEX "zerver_message_has_link_4171c207" ON "zerver_message" ("has_link");
CREATE INDEX "zerver_message_is_channel_message_ca4058ca" ON "zerver_message" ("is_channel_message");
CREATE INDEX "zerver_message_realm_date_sent" ON "zerver_message" ("realm_id", "date_sent");
CREATE INDEX "zerver_message_realm_id" ON "zerver_message" ("realm_id", "id" DESC NULLS LAST);
CREATE INDEX "zerver_message_realm_id_849a39c8" ON "zerver_message" ("realm_id");
CREATE INDEX "zerver_message_realm_recipient_date_sent" ON "zerver_message" ("realm_id", "recipient_id", "date_sent");
CREATE INDEX "zerver_message_realm_recipient_id" ON "zerver_message" ("realm_id", "recipient_id", "id");
CREATE INDEX "zerver_message_realm_recipient_subject" ON "zerver_message"
    ("realm_id", "recipient_id", "subject", "id" DESC NULLS LAST) WHERE "is_channel_message";
CREATE INDEX "zerver_message_realm_recipient_upper_subject" ON "zerver_message"
    ("realm_id", "recipient_id", (UPPER("subject")), "id" DESC NULLS LAST) WHERE "is_channel_message";
CREATE INDEX "zerver_message_realm_sender_recipient" ON "zerver_message" ("realm_id", "sender_id", "recipient_id");
CREATE INDEX "zerver_message_realm_upper_subject" ON "zerver_message"
    ("realm_id", (UPPER("subject")), "id" DESC NULLS LAST) WHERE "is_channel_message";
CREATE INDEX "zerver_message_recipient_id_5a7b6f03" ON "zerver_message" ("recipient_id");
CREATE INDEX "zerver_message_search_tsvector" ON "zerver_message" USING gin ("search_tsvector") WITH (fastupdate = off);
CREATE INDEX "zerver_message_sender_id_77b89151" ON "zerver_message" ("sender_id");
CREATE INDEX "zerver_message_sending_client_id_1c38413f" ON "zerver_message" ("sending_client_id");
CREATE INDEX "zerver_message_subject_cbe8c4b9" ON "zerver_message" ("subject");
CREATE INDEX "zerver_message_subject_cbe8c4b9_like" ON "zerver_message" ("subject" varchar_pattern_ops);"#
            .to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("Zulip runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "id type subject content rendered_content rendered_content_version date_sent last_edit_time \
    edit_history has_attachment has_image has_link search_tsvector sender_id sending_client_id realm_id recipient_id \
    is_channel_message";

const NOW: i64 = T0;
const DAYS: i64 = 42;
const START: i64 = T0 - DAYS * DAY;
const REALM: i64 = 2;
/// Messages written before the window (the organization is two years old).
const ID0: i64 = 48_213;
/// The first human message sent after each of these is sent twice.
const LATE: [i64; 3] = [NOW - 22 * HOUR, NOW - 14 * HOUR, NOW - 6 * HOUR];
/// New threads and DMs per UTC hour: Europe's office hours, then the US team's.
const RHYTHM: [i64; 24] = [0, 0, 0, 0, 1, 2, 6, 9, 10, 10, 8, 7, 9, 10, 10, 9, 7, 6, 5, 4, 3, 2, 1, 0];

// Clients, as `get_client` created them on first use.
const C_INTERNAL: i64 = 1;
const C_WEB: i64 = 3;
const C_ELECTRON: i64 = 6;
const C_FLUTTER: i64 = 9;
const C_PYTHON: i64 = 11;
const C_GITHUB: i64 = 14;
const C_GRAFANA: i64 = 15;
const C_SENTRY: i64 = 16;

// Bots: the Notification Bot lives in the zulipinternal realm; the others are this realm's.
const NOTIFICATION_BOT: i64 = 2;
const GITHUB_BOT: i64 = 48;
const GRAFANA_BOT: i64 = 49;
const SENTRY_BOT: i64 = 50;
const DEPLOY_BOT: i64 = 51;
const REMINDER_BOT: i64 = 52;

/// People: name, UTC offset (hours), share of messages sent from the phone. User id 11 + index, personal recipient
/// 31 + index.
#[rustfmt::skip]
const PEOPLE: [(&str, i64, f64); 36] = [
    ("Anna Keller", 2, 0.15), ("Tom Becker", 2, 0.10), ("Priya Nair", 2, 0.20), ("Lukas Wolf", 2, 0.10),
    ("Sofia Marino", 2, 0.25), ("Jonas Richter", 2, 0.10), ("Emma Novak", 2, 0.20), ("Mateo Garcia", 2, 0.15),
    ("Hannah Schulz", 2, 0.10), ("Daniel Kim", -4, 0.15), ("Olivia Brown", -4, 0.20), ("Noah Fischer", 2, 0.10),
    ("Mia Johansson", 2, 0.15), ("Felix Wagner", 2, 0.10), ("Chloe Martin", 2, 0.30), ("Ben Okafor", 2, 0.15),
    ("Laura Weber", 2, 0.20), ("Ethan Clarke", -4, 0.10), ("Lea Hoffmann", 2, 0.15), ("Max Braun", 2, 0.10),
    ("Nina Petrova", 2, 0.20), ("Samuel Lee", -4, 0.15), ("Julia Costa", 2, 0.35), ("Leon Zimmer", 2, 0.20),
    ("Clara Dubois", 2, 0.30), ("Paul Schmid", 2, 0.25), ("Ida Lindqvist", 2, 0.30), ("Marco Rossi", 2, 0.30),
    ("Grace Turner", -4, 0.35), ("Yusuf Demir", 2, 0.25), ("Elena Ivanova", 2, 0.15), ("Oscar Berg", 2, 0.10),
    ("Kai Yamamoto", 2, 0.10), ("Zoe Adams", -4, 0.20), ("Ravi Shah", 2, 0.10), ("Lina Haddad", 2, 0.25),
];

fn uid_of(p: usize) -> i64 {
    11 + p as i64
}

fn personal(p: usize) -> i64 {
    31 + p as i64
}

fn login(p: usize) -> String {
    let name = PEOPLE[p].0;
    let (first, last) = name.split_once(' ').unwrap_or((name, "x"));
    format!("{}{}", first.to_lowercase(), last[..1].to_lowercase())
}

/// Channels: name, recipient id, weight for new threads.
#[rustfmt::skip]
const CHANNELS: [(&str, i64, i64); 13] = [
    ("general", 14, 5), ("engineering", 16, 9), ("backend", 17, 9), ("frontend", 18, 7), ("design", 19, 3),
    ("support", 20, 8), ("random", 21, 4), ("announcements", 22, 1), ("ops", 23, 4),
    ("github", 24, 0), ("alerts", 25, 0), ("deploys", 26, 0), ("standup", 27, 0),
];
const GENERAL: usize = 0;
const GITHUB: usize = 9;
const ALERTS: usize = 10;
const DEPLOYS: usize = 11;
const STANDUP: usize = 12;

#[rustfmt::skip]
const TOPICS: [&[&str]; 9] = [
    &["office wifi", "holiday schedule", "all-hands", "new laptops", "parking", "team offsite", "expense reports",
      "welcome!", ""],
    &["release 2.41", "release 2.42", "flaky CI", "on-call handover", "code review guidelines", "postgres 17 upgrade",
      "API v3 design", "dependency updates", "incident 2026-09-03", "tech debt week"],
    &["rate limiter", "billing webhooks", "search indexing", "N+1 in /orders", "celery backlog", "invoice PDF export",
      "auth tokens", "bulk import", "timeouts on /reports"],
    &["dark mode", "Safari date picker", "bundle size", "new settings page", "React 19", "table virtualization",
      "i18n strings"],
    &["onboarding flow", "icons", "empty states", "design review"],
    &["refund request", "Globex escalation", "password reset emails", "SSO login loop", "CSV export limits"],
    &["lunch", "coffee machine", "weekend", "music", "pets", "books", ""],
    &["office closed Monday", "new hires", "security training", "Q4 planning"],
    &["disk space on db-02", "backup restore test", "k8s upgrade", "TLS certificates", "VPN", "cost review"],
];
const TICKETS: &[&str] = &["invoice PDF", "SSO login", "CSV export", "slow dashboard", "missing emails", "API 429s"];

/// Who talks in a channel.
fn pool(ch: usize) -> Vec<usize> {
    let range: Vec<usize> = match ch {
        1 => (0..22).collect(),
        2 => (0..12).collect(),
        3 => (9..20).collect(),
        4 => (17..24).collect(),
        5 => (21..36).collect(),
        8 => vec![0, 2, 4, 29, 30, 31, 32, 5, 11],
        _ => (0..36).collect(),
    };
    range
}

#[rustfmt::skip]
const OPEN: &[&str] = &[
    "I think", "Looks like", "FYI", "Quick update:", "Heads up:", "Not sure, but", "Update:", "So", "Honestly",
    "IMO", "Just checked and", "As far as I can tell", "Since this morning", "After the last deploy",
];
#[rustfmt::skip]
const SUBJ: &[&str] = &[
    "the deploy", "the migration", "staging", "the new endpoint", "the cache", "the PR", "the test suite",
    "the dashboard", "the importer", "the invoice job", "the login page", "the search index", "the worker",
    "the feature flag", "the cron job", "the release branch", "the docs", "the mobile build", "the webhook",
    "the rollout", "the customer export", "the load balancer",
];
#[rustfmt::skip]
const PRED: &[&str] = &[
    "is failing again", "needs another review", "is much faster now", "broke on Safari", "is blocked on infra",
    "should be ready by Friday", "times out after 30s", "works locally for me", "was rolled back",
    "is behind a flag now", "needs a config change", "still uses the old schema", "is green again",
    "doubles the memory usage", "has a race condition", "is waiting for QA", "returns 502s for some users",
    "looks good to me",
];
#[rustfmt::skip]
const TAIL: &[&str] = &[
    "", "", "", "", " Can you take a look?", " Will check after lunch.", " Not urgent.", " See the thread above.",
    " Any ideas?", " I'll open a ticket.", " Let's discuss at standup.", " Pairing on it now.",
];
const CODES: &[&str] = &[
    "make test",
    "CELERY_CONCURRENCY=4",
    "SELECT count(*) FROM orders",
    "npm run build",
    "/api/v2/orders",
    "kubectl rollout restart deploy/api",
    "git rebase -i main",
    "redis-cli info memory",
    "feature.new_billing",
];
#[rustfmt::skip]
const SHORT: &[&str] = &[
    "ok", "ok", "ok", "+1", "+1", "thanks!", "thanks", "thanks", "lgtm", "on it", "done", "ack", "sounds good",
    "will do", "nice!", "yes", "same here", "looking", ":+1:", ":+1:", "👍", ":tada:", "np", "sure",
];
const EDIT_TAILS: &[&str] = &[
    " Fixed now.",
    " (nvm, it was my VPN)",
    " Wrong branch, sorry.",
    " (on staging only)",
    " See the PR for details.",
    " Edit: only on Chrome.",
];
#[rustfmt::skip]
const TASKS: &[&str] = &[
    "reviewed the rate limiter PR", "fixed the flaky upload test", "worked on the CSV export", "paired with QA on 2.41",
    "wrote the migration for invoices", "support rotation", "looked into the 502s", "updated the runbook",
    "dark mode polish", "onboarding interviews", "k8s upgrade on staging", "customer call with Globex",
    "triaged Sentry issues", "refactored the auth middleware", "design review prep", "bundle size analysis",
];

/// Emoji as Zulip names and renders them: name, code point, the character.
#[rustfmt::skip]
const EMOJI: &[(&str, &str, &str)] = &[
    ("+1", "1f44d", "👍"), ("tada", "1f389", "🎉"), ("heart", "2764", "❤"), ("eyes", "1f440", "👀"),
    ("thinking", "1f914", "🤔"), ("fire", "1f525", "🔥"), ("pray", "1f64f", "🙏"), ("rocket", "1f680", "🚀"),
    ("alert", "1f6a8", "🚨"), ("checkbox", "2611", "☑"), ("alarm_clock", "23f0", "⏰"),
];

#[derive(Clone)]
enum In {
    T(String),
    Code(String),
    Bold(String),
    Link(String, String),
    Url(String),
    Mention(usize),
    Silent(usize),
    /// Typed as `:name:`.
    Emoji(&'static str),
    /// Typed as the character.
    Uni(&'static str),
    Time(String),
}

#[derive(Clone)]
enum Block {
    /// The lines of one paragraph.
    P(Vec<Vec<In>>),
    /// List items; true when the list follows the previous block on the next line (Zulip's list preprocessor).
    Ul(Vec<Vec<In>>, bool),
    /// A fenced quote: the fence, the lines of its one paragraph.
    Quote(&'static str, Vec<Vec<In>>),
    Code(Vec<String>),
    Upload(Upload),
}

#[derive(Clone)]
struct Upload {
    name: String,
    path: String,
    dims: Option<(i64, i64)>,
}

#[derive(Clone, PartialEq)]
struct Body {
    md: String,
    html: String,
    link: bool,
    image: bool,
    attach: bool,
}

fn t(s: impl Into<String>) -> In {
    In::T(s.into())
}

fn line(xs: Vec<In>) -> Block {
    Block::P(vec![xs])
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn attr(s: &str) -> String {
    esc(s).replace('"', "&quot;")
}

fn emoji(name: &str) -> (&'static str, &'static str) {
    EMOJI.iter().find(|e| e.0 == name).map_or(("2753", "?"), |e| (e.1, e.2))
}

fn md_inline(xs: &[In]) -> String {
    xs.iter()
        .map(|x| match x {
            In::T(s) => s.clone(),
            In::Code(s) => format!("`{s}`"),
            In::Bold(s) => format!("**{s}**"),
            In::Link(text, url) => format!("[{text}]({url})"),
            In::Url(u) => u.clone(),
            In::Mention(p) => format!("@**{}**", PEOPLE[*p].0),
            In::Silent(p) => format!("@_**{}|{}**", PEOPLE[*p].0, uid_of(*p)),
            In::Emoji(n) => format!(":{n}:"),
            In::Uni(n) => emoji(n).1.to_string(),
            In::Time(iso) => format!("<time:{iso}>"),
        })
        .collect()
}

fn html_inline(xs: &[In]) -> String {
    xs.iter()
        .map(|x| match x {
            In::T(s) => esc(s),
            In::Code(s) => format!("<code>{}</code>", esc(s)),
            In::Bold(s) => format!("<strong>{}</strong>", esc(s)),
            In::Link(text, url) => format!("<a href=\"{}\">{}</a>", attr(url), esc(text)),
            In::Url(u) => format!("<a href=\"{}\">{}</a>", attr(u), esc(u)),
            In::Mention(p) => {
                format!("<span class=\"user-mention\" data-user-id=\"{}\">@{}</span>", uid_of(*p), PEOPLE[*p].0)
            }
            In::Silent(p) => {
                format!("<span class=\"user-mention silent\" data-user-id=\"{}\">{}</span>", uid_of(*p), PEOPLE[*p].0)
            }
            In::Emoji(n) | In::Uni(n) => {
                let label = n.replace('_', " ");
                let code = emoji(n).0;
                let attrs =
                    format!("aria-label=\"{label}\" class=\"emoji emoji-{code}\" role=\"img\" title=\"{label}\"");
                format!("<span {attrs}>:{n}:</span>")
            }
            In::Time(iso) => format!("<time datetime=\"{iso}\">{iso}</time>"),
        })
        .collect()
}

fn lines_md(ls: &[Vec<In>]) -> String {
    ls.iter().map(|l| md_inline(l)).collect::<Vec<_>>().join("\n")
}

fn lines_html(ls: &[Vec<In>]) -> String {
    ls.iter().map(|l| html_inline(l)).collect::<Vec<_>>().join("<br>\n")
}

/// The Markdown a client sends and the HTML `render_message_markdown` makes of it.
fn render(blocks: &[Block]) -> Body {
    let (mut md, mut html) = (String::new(), Vec::new());
    let (mut link, mut image, mut attach) = (false, false, false);
    for (i, b) in blocks.iter().enumerate() {
        let (m, h) = match b {
            Block::P(ls) => (lines_md(ls), format!("<p>{}</p>", lines_html(ls))),
            Block::Ul(items, tight) => {
                let bullet = if *tight { "- " } else { "* " };
                let m = items.iter().map(|it| format!("{bullet}{}", md_inline(it))).collect::<Vec<_>>().join("\n");
                let h = items.iter().map(|it| format!("<li>{}</li>", html_inline(it))).collect::<Vec<_>>().join("\n");
                (m, format!("<ul>\n{h}\n</ul>"))
            }
            Block::Quote(fence, ls) => {
                let close = if fence.starts_with('~') { "~~~" } else { "```" };
                (
                    format!("{fence}\n{}\n{close}", lines_md(ls)),
                    format!("<blockquote>\n<p>{}</p>\n</blockquote>", lines_html(ls)),
                )
            }
            Block::Code(ls) => (
                format!("```\n{}\n```", ls.join("\n")),
                format!(
                    "<div class=\"codehilite\"><pre><span></span><code>{}\n</code></pre></div>",
                    esc(&ls.join("\n"))
                ),
            ),
            Block::Upload(u) => {
                attach = true;
                let mut h = format!("<p><a href=\"{}\">{}</a></p>", attr(&u.path), esc(&u.name));
                if let Some((w, hh)) = u.dims {
                    image = true;
                    let thumb = u.path.replacen("/user_uploads/", "/user_uploads/thumbnail/", 1);
                    h.push_str(&format!(
                        "\n<div class=\"message_inline_image\"><a href=\"{}\" title=\"{}\"><img \
                         data-original-content-type=\"image/png\" data-original-dimensions=\"{w}x{hh}\" \
                         src=\"{thumb}/840x560.webp\"></a></div>",
                        attr(&u.path),
                        attr(&u.name)
                    ));
                }
                (format!("[{}]({})", u.name, u.path), h)
            }
        };
        let tight = matches!(b, Block::Ul(_, true));
        if i > 0 {
            md.push_str(if tight { "\n" } else { "\n\n" });
        }
        md.push_str(&m);
        html.push(h);
        let inl: Vec<&In> = match b {
            Block::P(ls) | Block::Ul(ls, _) | Block::Quote(_, ls) => ls.iter().flatten().collect(),
            _ => Vec::new(),
        };
        link |= inl.iter().any(|x| matches!(x, In::Link(..) | In::Url(_))) || matches!(b, Block::Upload(_));
    }
    Body { md, html: html.join("\n"), link, image, attach }
}

/// `truncate_topic`.
fn topic(s: &str) -> String {
    if s.chars().count() <= 60 { s.to_string() } else { format!("{}...", s.chars().take(57).collect::<String>()) }
}

#[derive(Clone)]
struct Msg {
    uid: usize,
    /// The send this row came from: copies of a retried send share it.
    grp: usize,
    /// When the row was inserted.
    at: i64,
    sent: i64,
    sender: i64,
    client: i64,
    recip: i64,
    chan: bool,
    subject: String,
    body: Body,
    kind: i64,
    hidden: bool,
}

enum Act {
    Delete,
    /// A content edit by the sender.
    Edit(usize, Body),
    /// One message moved to another topic, by someone.
    Move(usize, String),
    /// A topic renamed whole (resolved or unresolved): channel recipient, from, to, by whom.
    Rename(i64, String, String, usize),
}

struct Ev {
    t: i64,
    uid: usize,
    act: Act,
}

#[derive(Default)]
struct World {
    msgs: Vec<Msg>,
    evs: Vec<Ev>,
    late: usize,
    ticket: i64,
}

impl World {
    fn add(&mut self, mut m: Msg) -> usize {
        m.uid = self.msgs.len();
        self.msgs.push(m);
        self.msgs.len() - 1
    }

    /// Another row of the same send, `delay` after the first.
    fn copy(&mut self, uid: usize, delay: i64, hidden: bool, r: &mut Rng) -> usize {
        let mut m = self.msgs[uid].clone();
        m.at += delay;
        m.sent = m.at - r.range(3_000, 45_000);
        m.hidden = hidden;
        self.add(m)
    }

    fn ev(&mut self, t: i64, uid: usize, act: Act) {
        self.evs.push(Ev { t, uid, act });
    }
}

fn when(r: &mut Rng, d0: i64, rhythm: &[i64; 24]) -> i64 {
    let h = r.weighted(rhythm) as i64;
    d0 + h * HOUR + r.range(0, 3_599) * SECOND + r.range(0, 999_999)
}

fn client_of(r: &mut Rng, p: usize, at: i64) -> i64 {
    let local = at + PEOPLE[p].1 * HOUR;
    let h = (local / HOUR).rem_euclid(24);
    let off = weekday(local) >= 5 || !(8..18).contains(&h);
    let phone = (PEOPLE[p].2 * if off { 3.0 } else { 1.0 }).min(0.9);
    if r.chance(phone) {
        C_FLUTTER
    } else if p % 4 == 1 {
        C_ELECTRON
    } else {
        C_WEB
    }
}

fn sentence(r: &mut Rng) -> String {
    format!("{} {} {}.{}", r.pick(OPEN), r.pick(SUBJ), r.pick(PRED), r.pick(TAIL))
}

fn upload(r: &mut Rng) -> Upload {
    let (name, dims) = match r.below(6) {
        0 => ("screenshot.png", Some((1920, 1080))),
        1 => ("image.png", Some((1280, 720))),
        2 => ("mockup-v3.png", Some((1440, 900))),
        3 => ("error.log", None),
        4 => ("trace.txt", None),
        _ => ("invoice-sample.pdf", None),
    };
    Upload { name: name.to_string(), path: format!("/user_uploads/2/{}/{}/{name}", r.hex(2), r.alnum(24)), dims }
}

fn link(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("https://github.com/acme/{}/pull/{}", r.one(&["api", "web", "infra"]), r.range(800, 1400)),
        1 => format!("https://docs.acme.io/runbooks/{}", r.one(&["deploys", "postgres", "on-call", "redis", "certs"])),
        _ => format!("https://acme.sentry.io/issues/{}/", r.range(40_000, 49_999)),
    }
}

/// A person's longer message.
fn prose(r: &mut Rng, people: &[usize]) -> Vec<Block> {
    let mut first: Vec<In> = Vec::new();
    if !people.is_empty() && r.chance(0.15) {
        first.push(In::Mention(*r.pick(people)));
        first.push(t(" "));
    }
    first.push(t(sentence(r)));
    if r.chance(0.09) {
        first.push(t(" Try "));
        first.push(In::Code(r.pick(CODES).to_string()));
        first.push(t("."));
    }
    if r.chance(0.07) {
        first.push(t(" "));
        first.push(In::Url(link(r)));
    }
    if r.chance(0.04) {
        first.push(t(" "));
        first.push(In::Emoji(r.one(&["eyes", "thinking", "fire", "pray"])));
    }
    let mut lines = vec![first];
    if r.chance(0.1) {
        lines.push(vec![t(sentence(r))]);
    }
    let mut blocks = vec![Block::P(lines)];
    if r.chance(0.07) {
        blocks.push(line(vec![t(sentence(r))]));
    }
    if r.chance(0.025) {
        let c = r.pick(CODES).to_string();
        blocks.push(Block::Code(vec![format!("$ {c}"), r.one(&["ERROR: timeout", "OK", "exit status 1"]).into()]));
    }
    if r.chance(0.035) {
        blocks.push(Block::Upload(upload(r)));
    }
    blocks
}

fn short(r: &mut Rng) -> Vec<Block> {
    let s = r.one(SHORT);
    let x = if s == "👍" {
        In::Uni("+1")
    } else if let Some(n) = s.strip_prefix(':').and_then(|s| s.strip_suffix(':')) {
        In::Emoji(EMOJI.iter().find(|e| e.0 == n).map_or("+1", |e| e.0))
    } else {
        t(s)
    };
    vec![line(vec![x])]
}

fn edited(r: &mut Rng, blocks: &[Block]) -> Body {
    let mut b = blocks.to_vec();
    if let Some(Block::P(ls)) = b.first_mut()
        && let Some(l) = ls.last_mut()
    {
        l.push(t(r.one(EDIT_TAILS)));
    } else {
        b.push(line(vec![t(r.one(EDIT_TAILS).trim_start().to_string())]));
    }
    render(&b)
}

/// A person sends a message; the client may send it again, and the person may edit, move or delete it later.
#[allow(clippy::too_many_arguments)]
fn say(w: &mut World, r: &mut Rng, p: usize, ch: Option<usize>, to: i64, subject: &str, blocks: Vec<Block>, at: i64) {
    let client = client_of(r, p, at);
    let body = render(&blocks);
    let chan = ch.is_some();
    let m = Msg {
        uid: 0,
        grp: 0,
        at,
        sent: at - r.range(4_000, 60_000),
        sender: uid_of(p),
        client,
        recip: to,
        chan,
        subject: if chan { topic(subject) } else { "\u{7}".to_string() },
        body: body.clone(),
        kind: 1,
        hidden: false,
    };
    let uid = w.add(m);
    w.msgs[uid].grp = uid;
    let is_short = body.md.len() < 14;
    let forced = w.late < LATE.len() && at > LATE[w.late] && at < NOW - 5 * MINUTE;
    let rate = if client == C_FLUTTER { 0.03 } else { 0.016 };
    if forced || r.chance(rate) {
        w.late += usize::from(forced);
        let reconnect = !forced && client == C_FLUTTER && r.chance(0.2);
        let delay = if reconnect {
            r.range(4 * 60, 35 * 60) * SECOND + r.below(1_000_000) as i64
        } else {
            client_retry_delay(r)
        };
        let mut last = w.copy(uid, delay, reconnect, r);
        if !forced && !reconnect && client != C_WEB && r.chance(0.2) {
            // The app's next try after its backoff, the first still hanging.
            last = w.copy(uid, delay + r.range(20, 120) * SECOND + r.below(1_000_000) as i64, false, r);
        }
        let seen = w.msgs[last].at + r.range(15, 480) * SECOND;
        let x = r.below(100);
        if forced {
        } else if x < 45 {
            w.ev(seen, last, Act::Delete);
        } else if x < 55 && seen - w.msgs[uid].sent < 9 * MINUTE {
            w.ev(seen, uid, Act::Delete);
        } else if x < 63 {
            w.ev(seen, last, Act::Edit(p, render(&[line(vec![t("(duplicate)")])])));
        }
        return;
    }
    let x = r.below(1000);
    if !is_short && x < 40 {
        let e = edited(r, &blocks);
        w.ev(at + r.range(30, 540) * SECOND + r.below(1_000_000) as i64, uid, Act::Edit(p, e));
    } else if x < 48 {
        w.ev(at + r.range(10, 300) * SECOND, uid, Act::Delete);
    } else if x < 54
        && let Some(c) = ch
        && c < TOPICS.len()
        && !subject.is_empty()
    {
        let other = r.pick(TOPICS[c]).to_string();
        if other != subject && !other.is_empty() {
            let by = *r.pick(&pool(c));
            w.ev(at + r.range(300, 3 * 3_600) * SECOND, uid, Act::Move(by, topic(&other)));
        }
    }
}

/// A post by a bot or an integration, once.
#[allow(clippy::too_many_arguments)]
fn post(
    w: &mut World,
    r: &mut Rng,
    sender: i64,
    client: i64,
    ch: usize,
    subject: &str,
    blocks: &[Block],
    at: i64,
) -> usize {
    let m = Msg {
        uid: 0,
        grp: 0,
        at,
        sent: at - r.range(3_000, 40_000),
        sender,
        client,
        recip: CHANNELS[ch].1,
        chan: true,
        subject: topic(subject),
        body: render(blocks),
        kind: 1,
        hidden: false,
    };
    let uid = w.add(m);
    w.msgs[uid].grp = uid;
    uid
}

/// The Notification Bot's notice after a topic was resolved or unresolved.
fn notice(w: &mut World, r: &mut Rng, ch: usize, subject: &str, by: usize, resolved: bool, at: i64) -> usize {
    let what = if resolved { " has marked this topic as resolved." } else { " has marked this topic as unresolved." };
    let b = [line(vec![In::Silent(by), t(what)])];
    let uid = post(w, r, NOTIFICATION_BOT, C_INTERNAL, ch, subject, &b, at);
    w.msgs[uid].kind = 2;
    uid
}

fn threads(w: &mut World, r: &mut Rng, d0: i64, weekend: bool) {
    let weights: Vec<i64> = CHANNELS.iter().map(|c| c.2).collect();
    for _ in 0..r.poisson(if weekend { 0.8 } else { 7.0 }) {
        let ch = r.weighted(&weights);
        let subject = if ch == 5 && r.chance(0.55) {
            w.ticket += 1;
            format!("ticket #{} {}", 4_800 + w.ticket, r.pick(TICKETS))
        } else {
            r.pick(TOPICS[ch]).to_string()
        };
        let people = pool(ch);
        let k = 2 + r.below(4) as usize;
        let mut who: Vec<usize> = (0..k).map(|_| *r.pick(&people)).collect();
        who.dedup();
        let n = 1 + r.skewed(16) as usize;
        let mut at = when(r, d0, &RHYTHM);
        if at >= NOW {
            continue;
        }
        let mut prev = usize::MAX;
        let mut last = at;
        for i in 0..n {
            let mut p = *r.pick(&who);
            if p == prev && who.len() > 1 {
                p = *r.pick(&who);
            }
            let blocks = if i > 0 && r.chance(0.33) { short(r) } else { prose(r, &who) };
            say(w, r, p, Some(ch), CHANNELS[ch].1, &subject, blocks, at);
            last = at;
            prev = p;
            at += match r.below(20) {
                0..=9 => r.range(15, 90),
                10..=16 => r.range(90, 900),
                _ => r.range(900, 3_600),
            } * SECOND
                + r.below(1_000_000) as i64;
        }
        if matches!(ch, 1 | 2 | 3 | 5 | 8) && !subject.is_empty() && r.chance(0.3) {
            resolve(w, r, ch, &topic(&subject), &who, last);
        }
    }
}

/// Someone marks the topic resolved; sometimes undoes it at once, or unresolves it later and resolves it again.
fn resolve(w: &mut World, r: &mut Rng, ch: usize, subject: &str, who: &[usize], last: i64) {
    if subject.chars().count() > 58 {
        return;
    }
    let done = format!("✔ {subject}");
    let by = *r.pick(who);
    let at = last + r.range(20 * 60, 30 * 3_600) * SECOND + r.below(1_000_000) as i64;
    let recip = CHANNELS[ch].1;
    w.ev(at, 0, Act::Rename(recip, subject.to_string(), done.clone(), by));
    let after = at + r.range(20_000, 60_000);
    let n = notice(w, r, ch, &done, by, true, after);
    if r.chance(0.06) {
        // Clicked by mistake: the undo within the grace period deletes the notice instead of posting another.
        let back = at + r.range(5, 50) * SECOND;
        w.ev(back, 0, Act::Rename(recip, done.clone(), subject.to_string(), by));
        w.ev(back + 30_000, n, Act::Delete);
    } else if r.chance(0.14) {
        let again = *r.pick(who);
        let back = at + r.range(2 * 3_600, 48 * 3_600) * SECOND + r.below(1_000_000) as i64;
        w.ev(back, 0, Act::Rename(recip, done.clone(), subject.to_string(), again));
        let after = back + r.range(20_000, 60_000);
        notice(w, r, ch, subject, again, false, after);
        if r.chance(0.65) {
            let by2 = if r.chance(0.6) { by } else { *r.pick(who) };
            let at2 = back + r.range(20 * 60, 24 * 3_600) * SECOND + r.below(1_000_000) as i64;
            w.ev(at2, 0, Act::Rename(recip, subject.to_string(), done.clone(), by2));
            let after = at2 + r.range(20_000, 60_000);
            notice(w, r, ch, &done, by2, true, after);
        }
    }
}

/// Huddles: recipient id, members.
const HUDDLES: [(i64, &[usize]); 6] = [
    (201, &[0, 1, 2]),
    (202, &[9, 10, 17]),
    (203, &[21, 22, 24, 28]),
    (204, &[3, 5, 11]),
    (205, &[14, 16, 18]),
    (206, &[29, 30, 31, 32]),
];

fn dms(w: &mut World, r: &mut Rng, d0: i64, weekend: bool) {
    for _ in 0..r.poisson(if weekend { 1.2 } else { 5.5 }) {
        let a = r.below(36) as usize;
        let mut b = r.below(36) as usize;
        if b == a {
            b = (a + 1 + r.below(35) as usize) % 36;
        }
        let mut at = when(r, d0, &RHYTHM);
        if at >= NOW {
            continue;
        }
        if r.chance(0.08) {
            // "ping", no answer, "ping" again.
            say(w, r, a, None, personal(b), "", vec![line(vec![t("ping")])], at);
            at += r.range(55, 170) * SECOND + r.below(1_000_000) as i64;
            say(w, r, a, None, personal(b), "", vec![line(vec![t("ping")])], at);
            at += r.range(30, 600) * SECOND;
        }
        let n = 2 + r.skewed(9) as usize;
        let mut from = a;
        for _ in 0..n {
            let to = if from == a { b } else { a };
            let blocks = if r.chance(0.45) { short(r) } else { prose(r, &[]) };
            say(w, r, from, None, personal(to), "", blocks, at);
            if r.chance(0.7) {
                from = to;
            }
            at += if r.chance(0.6) { r.range(8, 120) } else { r.range(120, 900) } * SECOND + r.below(1_000_000) as i64;
        }
    }
    for _ in 0..r.poisson(if weekend { 0.2 } else { 1.0 }) {
        let (recip, members) = HUDDLES[r.below(HUDDLES.len() as u64) as usize];
        let mut at = when(r, d0, &RHYTHM);
        for _ in 0..2 + r.skewed(8) {
            let p = *r.pick(members);
            let blocks = if r.chance(0.4) { short(r) } else { prose(r, members) };
            say(w, r, p, None, recip, "", blocks, at);
            at += r.range(10, 700) * SECOND + r.below(1_000_000) as i64;
        }
    }
}

fn standup(w: &mut World, r: &mut Rng, d0: i64) {
    let date = ymd(d0);
    for p in [0, 1, 2, 3, 5, 7, 9, 11, 13, 15] {
        if !r.chance(0.85) {
            continue;
        }
        let at = d0 + r.range(6 * 3_600 + 1_800, 9 * 3_600 + 1_800) * SECOND + r.below(1_000_000) as i64;
        let (y, tday) = (r.pick(TASKS).to_string(), r.pick(TASKS).to_string());
        let blk = if r.chance(0.8) { "none".to_string() } else { format!("waiting on {}", r.pick(SUBJ)) };
        let b = Block::P(vec![
            vec![In::Bold("Yesterday:".into()), t(format!(" {y}"))],
            vec![In::Bold("Today:".into()), t(format!(" {tday}"))],
            vec![In::Bold("Blockers:".into()), t(format!(" {blk}"))],
        ]);
        say(w, r, p, Some(STANDUP), CHANNELS[STANDUP].1, &date, vec![b], at);
    }
}

fn ymd(us: i64) -> String {
    let (y, m, d) = civil(us.div_euclid(DAY));
    format!("{y:04}-{m:02}-{d:02}")
}

fn iso(us: i64) -> String {
    let s = us.div_euclid(SECOND);
    let rem = s.rem_euclid(86_400);
    format!("{}T{:02}:{:02}:{:02}Z", ymd(us), rem / 3_600, rem / 60 % 60, rem % 60)
}

fn stamp(us: i64) -> String {
    iso(us).replace('T', " ").trim_end_matches('Z').to_string()
}

/// Days since the epoch to (year, month, day).
fn civil(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A GitHub delivery, redelivered by hand now and then after it timed out.
fn hook(w: &mut World, r: &mut Rng, subject: &str, blocks: &[Block], at: i64) {
    let uid = post(w, r, GITHUB_BOT, C_GITHUB, GITHUB, subject, blocks, at);
    if r.chance(0.009) {
        w.copy(uid, r.range(12 * 60, 150 * 60) * SECOND + r.below(1_000_000) as i64, true, r);
    }
}

fn github(w: &mut World, r: &mut Rng, d0: i64, numbers: &mut [i64; 3]) {
    const REPOS: [&str; 3] = ["api", "web", "infra"];
    const TITLES: &[&str] = &[
        "Add rate limiter",
        "Fix N+1 in orders list",
        "Bump Django to 5.2",
        "Dark mode for settings",
        "Retry billing webhooks",
        "Faster CSV export",
        "Drop legacy auth tokens",
        "Virtualize big tables",
        "Upgrade ingress controller",
        "Cache search facets",
        "Fix Safari date picker",
        "Split the worker queues",
    ];
    for _ in 0..r.poisson(2.4) {
        let ri = r.below(3) as usize;
        let repo = REPOS[ri];
        numbers[ri] += 1;
        let num = numbers[ri];
        let title = r.pick(TITLES).to_string();
        let author = r.below(22) as usize;
        let branch = format!("{}/{}", login(author), title.to_lowercase().replace(' ', "-").replace('.', ""));
        let url = format!("https://github.com/acme/{repo}/pull/{num}");
        let subject = format!("{repo} / PR #{num} {title}");
        let mut at = when(r, d0, &RHYTHM);
        let opened = [
            line(vec![
                t(format!("{} opened ", login(author))),
                In::Link(format!("PR #{num}"), url.clone()),
                t(" from "),
                In::Code(branch.clone()),
                t(" to "),
                In::Code("main".into()),
                t(":"),
            ]),
            Block::Quote("~~~ quote", vec![vec![t(sentence(r))]]),
        ];
        hook(w, r, &subject, &opened, at);
        let updated = [line(vec![
            t(format!("{} updated ", login(author))),
            In::Link(format!("PR #{num}"), url.clone()),
            t(" from "),
            In::Code(branch.clone()),
            t(" to "),
            In::Code("main".into()),
            t("."),
        ])];
        for _ in 0..r.poisson(1.8) {
            at += if r.chance(0.3) { r.range(30, 120) } else { r.range(600, 5 * 3_600) } * SECOND
                + r.below(1_000_000) as i64;
            hook(w, r, &subject, &updated, at);
            if r.chance(0.5) {
                let reviewer = (author + 1 + r.below(20) as usize) % 22;
                let c = at + r.range(300, 4 * 3_600) * SECOND;
                let body = [
                    line(vec![
                        t(format!("{} ", login(reviewer))),
                        In::Link(
                            "commented".into(),
                            format!("{url}#issuecomment-{}", r.range(2_100_000_000, 2_199_999_999)),
                        ),
                        t(" on "),
                        In::Link(format!("PR #{num}"), url.clone()),
                        t(":"),
                    ]),
                    Block::Quote("~~~ quote", vec![vec![t(sentence(r))]]),
                ];
                hook(w, r, &subject, &body, c);
            }
        }
        if r.chance(0.85) {
            let merger = (author + 1 + r.below(20) as usize) % 22;
            at += r.range(20 * 60, 36 * 3_600) * SECOND + r.below(1_000_000) as i64;
            hook(
                w,
                r,
                &subject,
                &[line(vec![
                    t(format!("{} merged ", login(merger))),
                    In::Link(format!("PR #{num}"), url.clone()),
                    t("."),
                ])],
                at,
            );
            let pushed = at + r.range(2, 9) * SECOND;
            push(w, r, repo, merger, &[format!("{title} (#{num})")], pushed);
        }
    }
    for _ in 0..r.poisson(0.8) {
        let repo = REPOS[r.below(3) as usize];
        let who = r.below(22) as usize;
        let n = 1 + r.below(3) as usize;
        let msgs: Vec<String> = (0..n)
            .map(|_| {
                format!("{} {}", r.one(&["Fix", "Update", "Tweak", "Revert"]), r.pick(SUBJ).trim_start_matches("the "))
            })
            .collect();
        let at = when(r, d0, &RHYTHM);
        push(w, r, repo, who, &msgs, at);
    }
}

fn push(w: &mut World, r: &mut Rng, repo: &str, who: usize, commits: &[String], at: i64) {
    let (a, b) = (r.hex(12), r.hex(12));
    let n = commits.len();
    let mut items = Vec::new();
    for c in commits {
        let sha = r.hex(40);
        items.push(vec![
            t(format!("{c} (")),
            In::Link(sha[..7].to_string(), format!("https://github.com/acme/{repo}/commit/{sha}")),
            t(")"),
        ]);
    }
    let plural = if n == 1 { "commit" } else { "commits" };
    let blocks = [
        line(vec![
            t(format!("{} ", login(who))),
            In::Link("pushed".into(), format!("https://github.com/acme/{repo}/compare/{a}...{b}")),
            t(format!(" {n} {plural} to branch main.")),
        ]),
        Block::Ul(items, false),
    ];
    hook(w, r, &format!("{repo} / main"), &blocks, at);
}

/// Alert rules: name, instance, summary, whether the notification lists values.
#[rustfmt::skip]
const RULES: [(&str, &str, &str, bool); 6] = [
    ("HighCPU", "api-02", "CPU above 90% for 5 minutes", true),
    ("DiskAlmostFull", "db-02", "Less than 10% disk left on /var/lib/postgresql", false),
    ("HighErrorRate", "web", "5xx rate above 2%", true),
    ("ReplicationLag", "db-03", "Replica more than 60s behind", true),
    ("CertificateExpiringSoon", "api.acme.io", "TLS certificate expires in less than 14 days", false),
    ("BackupJobFailed", "backup-01", "Nightly pg_dump did not finish", false),
];

fn grafana_body(r: &mut Rng, rule: usize, fired: i64, resolved: Option<i64>) -> Vec<Block> {
    let (name, inst, summary, values) = RULES[rule];
    let mut b = vec![
        match resolved {
            None => line(vec![In::Emoji("alert"), t(" "), In::Bold("FIRING".into())]),
            Some(_) => line(vec![In::Emoji("checkbox"), t(" "), In::Bold("RESOLVED".into())]),
        },
        line(vec![In::Bold(name.into())]),
        line(vec![t("This alert was fired at "), In::Time(iso(fired)), t(".")]),
    ];
    if let Some(at) = resolved {
        b.push(line(vec![t("This alert was resolved at "), In::Time(iso(at)), t(".")]));
    }
    b.push(line(vec![t("Labels:")]));
    b.push(Block::Ul(
        vec![vec![t(format!("alertname: {name}"))], vec![t(format!("instance: {inst}"))], vec![t("severity: warning")]],
        true,
    ));
    if values {
        b.push(line(vec![t("Values:")]));
        let v = format!("{}.{}", r.range(60, 99), r.below(10));
        b.push(Block::Ul(vec![vec![t(format!("A: {v}"))], vec![t("C: 1")]], true));
    }
    b.push(line(vec![t("Annotations:")]));
    b.push(Block::Ul(vec![vec![t(format!("summary: {summary}"))]], true));
    b.push(Block::P(vec![
        vec![In::Link(
            "Generator".into(),
            format!("https://grafana.acme.io/alerting/grafana/{}/view?orgId=1", name.to_lowercase()),
        )],
        vec![In::Link(
            "Silence".into(),
            format!(
                "https://grafana.acme.io/alerting/silence/new?alertmanager=grafana&matcher=alertname%3D{name}&orgId=1"
            ),
        )],
    ]));
    b
}

/// A Grafana notification; the contact point retries after its 30 s timeout now and then.
fn alert(w: &mut World, r: &mut Rng, rule: usize, blocks: &[Block], at: i64) {
    let uid = post(w, r, GRAFANA_BOT, C_GRAFANA, ALERTS, &format!("[{}]", RULES[rule].0), blocks, at);
    if r.chance(0.025) {
        let d = r.range(30, 45) * SECOND + r.below(1_000_000) as i64;
        w.copy(uid, d, false, r);
        if r.chance(0.25) {
            w.copy(uid, d + r.range(30, 60) * SECOND, false, r);
        }
    }
}

fn grafana(w: &mut World, r: &mut Rng) {
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        for _ in 0..r.poisson(1.3) {
            let rule = r.below(RULES.len() as u64) as usize;
            let at = d0 + r.range(0, 86_399) * SECOND + r.below(1_000_000) as i64;
            let fired = at - 5 * MINUTE - r.range(0, 59) * SECOND;
            let b = grafana_body(r, rule, fired, None);
            alert(w, r, rule, &b, at);
            let long = !RULES[rule].3 && r.chance(0.35) || r.chance(0.1);
            let dur = if long { r.range(5 * 3_600, 40 * 3_600) } else { r.range(8 * 60, 90 * 60) } * SECOND;
            let mut next = at + 4 * HOUR + r.range(0, 300) * SECOND;
            while next < at + dur {
                // The repeat interval: the same alert again, with the values of the latest evaluation.
                let b = grafana_body(r, rule, fired, None);
                let at = next + r.below(1_000_000) as i64;
                alert(w, r, rule, &b, at);
                next += 4 * HOUR + r.range(0, 300) * SECOND;
            }
            let end = at + dur + r.below(1_000_000) as i64;
            let ok = end - r.range(10, 60) * SECOND;
            let b = grafana_body(r, rule, fired, Some(ok));
            alert(w, r, rule, &b, end);
        }
    }
}

#[rustfmt::skip]
const ISSUES: [(&str, &str); 8] = [
    ("TypeError: Cannot read properties of undefined (reading 'id')", "app/checkout.js"),
    ("OperationalError: could not obtain lock on row in relation \"invoice\"", "billing/tasks.py"),
    ("KeyError: 'customer_id'", "api/webhooks/stripe.py"),
    ("TimeoutError: Redis operation timed out", "core/cache.py"),
    ("ValidationError: Enter a valid date.", "reports/forms.py"),
    ("ChunkLoadError: Loading chunk 417 failed.", "static/js/app.js"),
    ("IntegrityError: duplicate key value violates unique constraint", "imports/bulk.py"),
    ("ZeroDivisionError: division by zero", "reports/metrics.py"),
];

fn sentry(w: &mut World, r: &mut Rng) {
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        for _ in 0..r.poisson(1.5) {
            let i = r.below(ISSUES.len() as u64) as usize;
            let (title, file) = ISSUES[i];
            let at = when(r, d0, &RHYTHM);
            let event = at - r.range(2, 40) * SECOND;
            let url =
                format!("https://acme.sentry.io/organizations/acme/issues/{}/events/{}/", 41_000 + i * 37, r.hex(32));
            let level = if i == 4 { "warning" } else { "error" };
            let b = [
                line(vec![In::Bold("New exception:".into()), t(" "), In::Link(title.into(), url)]),
                Block::Quote(
                    "```quote",
                    vec![
                        vec![In::Bold("level:".into()), t(format!(" {level}"))],
                        vec![In::Bold("timestamp:".into()), t(format!(" {}", stamp(event)))],
                        vec![In::Bold("filename:".into()), t(format!(" {file}"))],
                    ],
                ),
            ];
            let uid = post(w, r, SENTRY_BOT, C_SENTRY, ALERTS, title, &b, at);
            if r.chance(0.02) {
                w.copy(uid, r.range(5, 40) * SECOND + r.below(1_000_000) as i64, false, r);
            }
            if r.chance(0.25) {
                let by = r.below(22) as usize;
                let res = at + r.range(30 * 60, 30 * 3_600) * SECOND + r.below(1_000_000) as i64;
                let b = [line(vec![
                    t("Issue "),
                    In::Bold(title.into()),
                    t(" was marked as resolved by "),
                    In::Bold(PEOPLE[by].0.into()),
                    t("."),
                ])];
                post(w, r, SENTRY_BOT, C_SENTRY, ALERTS, title, &b, res);
            }
        }
    }
}

fn deploys(w: &mut World, r: &mut Rng, d0: i64, versions: &mut [i64; 3]) {
    const SERVICES: [&str; 3] = ["api", "web", "worker"];
    for _ in 0..r.poisson(3.0) {
        let s = r.below(3) as usize;
        versions[s] += 1;
        let v = format!("v2.{}.{}", 41 + versions[s] / 20, versions[s] % 20);
        let who = r.below(22) as usize;
        let env = if r.chance(0.6) { "staging" } else { "production" };
        let mut at = d0 + r.range(7 * 3_600, 17 * 3_600) * SECOND + r.below(1_000_000) as i64;
        let start = [line(vec![
            t("Deploy of "),
            In::Code(SERVICES[s].into()),
            t(format!(" {v} to {env} started by {}.", login(who))),
        ])];
        let done =
            [line(vec![In::Code(SERVICES[s].into()), t(format!(" {v} is live in {env} ")), In::Emoji("rocket")])];
        for run in 0..2 {
            ci(w, r, env, &start, at);
            at += r.range(180, 540) * SECOND + r.below(1_000_000) as i64;
            ci(w, r, env, &done, at);
            // A flaky smoke test after the deploy: someone re-runs the job, which deploys and posts again.
            if run == 1 || !r.chance(0.1) {
                break;
            }
            at += r.range(4 * 60, 20 * 60) * SECOND;
        }
    }
}

/// The CI job's python client: a connection reset after the server took the message makes it post again.
fn ci(w: &mut World, r: &mut Rng, env: &str, blocks: &[Block], at: i64) {
    let uid = post(w, r, DEPLOY_BOT, C_PYTHON, DEPLOYS, env, blocks, at);
    if r.chance(0.03) {
        w.copy(uid, r.range(1_000_000, 12_000_000), false, r);
    }
}

#[derive(Clone, PartialEq)]
enum J {
    I(i64),
    S(String),
}

type Entry = Vec<(&'static str, J)>;

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The `edit_history` text: orjson's compact form, or jsonb's (spaced) after a jsonb concatenation.
fn history(h: &[Entry], jsonb: bool) -> String {
    let (item, kv) = if jsonb { (", ", ": ") } else { (",", ":") };
    let objs: Vec<String> = h
        .iter()
        .map(|e| {
            let fields: Vec<String> = e
                .iter()
                .map(|(k, v)| {
                    let v = match v {
                        J::I(n) => n.to_string(),
                        J::S(s) => json_str(s),
                    };
                    format!("\"{k}\"{kv}{v}")
                })
                .collect();
            format!("{{{}}}", fields.join(item))
        })
        .collect();
    format!("[{}]", objs.join(item))
}

#[derive(Clone)]
struct St {
    alive: bool,
    subject: String,
    body: Body,
    edited: Option<i64>,
    hist: Vec<Entry>,
    jsonb: bool,
}

fn lit(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(31_219);
    let mut w = World::default();
    let mut numbers = [1_204, 877, 312];
    let mut versions = [0, 7, 3];
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let weekend = weekday(d0) >= 5;
        threads(&mut w, &mut r, d0, weekend);
        dms(&mut w, &mut r, d0, weekend);
        if !weekend {
            standup(&mut w, &mut r, d0);
            github(&mut w, &mut r, d0, &mut numbers);
            deploys(&mut w, &mut r, d0, &mut versions);
        }
        if weekday(d0) == 4 {
            let b = [line(vec![
                t("Reminder: please submit your timesheet for this week before 17:00 today "),
                In::Emoji("alarm_clock"),
            ])];
            let at = d0 + 11 * HOUR + r.range(150_000, 2_400_000);
            post(&mut w, &mut r, REMINDER_BOT, C_PYTHON, GENERAL, "timesheets", &b, at);
        }
    }
    grafana(&mut w, &mut r);
    sentry(&mut w, &mut r);

    // Ids in insert order, the sequence skipping a number now and then (a send rolled back after the insert).
    let v: Vec<usize> = {
        let mut v: Vec<usize> = (0..w.msgs.len()).filter(|&k| w.msgs[k].at < NOW - SECOND).collect();
        v.sort_by_key(|&k| (w.msgs[k].at, k));
        v
    };
    let mut ids = vec![0_i64; w.msgs.len()];
    let mut id = ID0;
    for &k in &v {
        id += 1 + i64::from(r.chance(0.002));
        ids[k] = id;
    }

    // The replay: creates, edits, moves, renames and deletes in time order.
    let mut st: Vec<Option<St>> = vec![None; w.msgs.len()];
    let mut ops: Vec<(i64, usize, Option<usize>)> = v.iter().map(|&k| (w.msgs[k].at, k, None)).collect();
    ops.extend(w.evs.iter().enumerate().filter(|(_, e)| e.t < NOW).map(|(i, e)| (e.t, e.uid, Some(i))));
    ops.sort_by_key(|o| (o.0, o.2.is_some()));
    for (at, k, e) in ops {
        let Some(e) = e else {
            let m = &w.msgs[k];
            st[k] = Some(St {
                alive: true,
                subject: m.subject.clone(),
                body: m.body.clone(),
                edited: None,
                hist: vec![],
                jsonb: false,
            });
            continue;
        };
        let ts = at.div_euclid(SECOND);
        match &w.evs[e].act {
            Act::Delete => {
                if let Some(s) = st[k].as_mut() {
                    s.alive = false;
                }
            }
            Act::Edit(by, body) => {
                if let Some(s) = st[k].as_mut().filter(|s| s.alive) {
                    let entry: Entry = vec![
                        ("user_id", J::I(uid_of(*by))),
                        ("timestamp", J::I(ts)),
                        ("prev_content", J::S(s.body.md.clone())),
                        ("prev_rendered_content", J::S(s.body.html.clone())),
                        ("prev_rendered_content_version", J::I(1)),
                    ];
                    s.hist.insert(0, entry);
                    (s.body, s.edited, s.jsonb) = (body.clone(), Some(at), false);
                }
            }
            Act::Move(by, to) => {
                if let Some(s) = st[k].as_mut().filter(|s| s.alive && s.subject != *to) {
                    let entry: Entry = vec![
                        ("user_id", J::I(uid_of(*by))),
                        ("timestamp", J::I(ts)),
                        ("prev_topic", J::S(s.subject.clone())),
                        ("topic", J::S(to.clone())),
                    ];
                    s.hist.insert(0, entry);
                    (s.subject, s.edited, s.jsonb) = (to.clone(), Some(at), false);
                }
            }
            Act::Rename(recip, from, to, by) => {
                let inside: Vec<usize> = (0..w.msgs.len())
                    .filter(|&j| {
                        w.msgs[j].recip == *recip
                            && st[j]
                                .as_ref()
                                .is_some_and(|s| s.alive && s.subject.to_lowercase() == from.to_lowercase())
                    })
                    .collect();
                let Some(&target) = inside.iter().max_by_key(|&&j| (w.msgs[j].at, j)) else { continue };
                for j in inside {
                    let s = st[j].as_mut().unwrap();
                    let mut entry: Entry = vec![
                        ("user_id", J::I(uid_of(*by))),
                        ("timestamp", J::I(ts)),
                        ("prev_topic", J::S(s.subject.clone())),
                        ("topic", J::S(to.clone())),
                    ];
                    s.hist.insert(0, entry.clone());
                    if j == target {
                        s.jsonb = false;
                    } else {
                        // jsonb: keys by length, then bytes, in every entry of the array.
                        entry.sort_by(|a, b| (a.0.len(), a.0).cmp(&(b.0.len(), b.0)));
                        for h in s.hist.iter_mut() {
                            h.sort_by(|a, b| (a.0.len(), a.0).cmp(&(b.0.len(), b.0)));
                        }
                        s.jsonb = true;
                    }
                    (s.subject, s.edited) = (to.clone(), Some(at));
                }
            }
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("zerver_message", &columns);
    let mut rows: Vec<usize> = v.iter().copied().filter(|&k| st[k].as_ref().is_some_and(|s| s.alive)).collect();
    rows.sort_by_key(|&k| ids[k]);
    let mut groups: HashSet<usize> = HashSet::new();
    let mut keys: HashSet<String> = HashSet::new();
    for k in rows {
        let (m, s) = (&w.msgs[k], st[k].as_ref().unwrap());
        let first = groups.insert(m.grp);
        let key = format!("{}|{}|{}|{}|{}|{}", m.sender, m.client, m.recip, m.subject, m.body.md, m.kind);
        let fresh = keys.insert(key);
        let mark = if !first {
            Mark::Retry
        } else if !fresh {
            Mark::Legit
        } else {
            Mark::Plain
        };
        let tsv = format!("to_tsvector('pg_catalog.english', {} || {})", lit(&s.subject), lit(&s.body.html));
        f.push(&[
            ("id", V::I(ids[k])),
            ("type", V::I(m.kind)),
            ("subject", V::t(&s.subject)),
            ("content", V::t(&s.body.md)),
            ("rendered_content", V::t(&s.body.html)),
            ("rendered_content_version", V::I(1)),
            ("date_sent", V::AtZ(m.sent)),
            ("last_edit_time", s.edited.map_or(V::Null, V::AtZ)),
            ("edit_history", if s.hist.is_empty() { V::Null } else { V::t(history(&s.hist, s.jsonb)) }),
            ("has_attachment", V::B(s.body.attach)),
            ("has_image", V::B(s.body.image)),
            ("has_link", V::B(s.body.link)),
            ("search_tsvector", V::Raw(tsv)),
            ("sender_id", V::I(m.sender)),
            ("sending_client_id", V::I(m.client)),
            ("realm_id", V::I(REALM)),
            ("recipient_id", V::I(m.recip)),
            ("is_channel_message", V::B(m.chan)),
        ]);
        f.mark(ids[k], mark);
        if mark == Mark::Retry && m.hidden {
            f.hidden.insert(ids[k].to_string());
        }
    }
    f
}
