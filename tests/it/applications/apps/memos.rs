//! Memos (Go; SQLite, MySQL/MariaDB, PostgreSQL): `memo`, as `MemoService.CreateMemo` writes it for the web app's
//! editor, the comment box (`CreateMemoComment`: a memo row plus a `memo_relation` COMMENT row), the mobile apps and
//! every integration on the REST/gRPC API (the Telegram bot memogram, an iOS Shortcut, a browser clipper, an MCP agent,
//! n8n workflows, a flomo import script), and as people change it afterwards: 24 users of one instance, 60 days.
//! Read: usememos/memos (76a7629) store/migration/{sqlite,mysql,postgres}/LATEST.sql (`memo`, `memo_relation`; a fresh
//! install runs LATEST), mysql and postgres 0.24/01__memo_pinned.sql, sqlite 0.26/02__drop_indexes.sql;
//! store/memo.go (`Memo`, `UpdateMemo`, `CreateMemo` checking `UIDMatcher`, `DeleteMemo`);
//! store/db/{sqlite,postgres,mysql}/memo.go (`CreateMemo`: uid, creator_id, content, visibility, payload, and
//! `created_ts`/`updated_ts` only when the client sent them: bound as epoch seconds into BIGINT on SQLite and
//! PostgreSQL, `FROM_UNIXTIME(?)` into MySQL's TIMESTAMP; `DeleteMemo` a hard delete) and memo_attachment.go
//! (`applyMemoUpdate`); proto/store/memo.proto (`MemoPayload`: property, location, tags); server/router/api/v1/
//! memo_service.go (`CreateMemo`: `ValidateAndGenerateUID`, the client's create_time/update_time, `RebuildMemoPayload`,
//! location; `UpdateMemo`: content, visibility, pinned, state, create_time, update_time; `DeleteMemo` taking the
//! comments with it), memo_service_comments.go (the comment takes its parent's visibility), resource_name.go
//! (`shortuuid.New()` unless the client names the memo), memo_attachment_service.go and memo_relation_service.go (bump
//! `updated_ts`), attachment_service.go (`CreateAttachment` with a memo does not), memo_service_converter.go;
//! server/runner/memopayload/runner.go; internal/markdown/markdown.go (`ExtractAll`: tags with their parents, hasLink,
//! hasTaskList, hasCode, hasIncompleteTasks, the title of a leading H1) and parser/tag.go; internal/base/
//! resource_name.go; server/router/mcp/catalog.go; web/src/components/MemoEditor/services/memoService.ts (a create
//! sends create_time/update_time only when a calendar day is filtered; an edit of content adds `update_time`, so
//! the server stamps now), hooks/useMemoSave.ts and services/validationService.ts (no save while one is in flight),
//! utils/deriveDefaultCreateTime.ts (that day at the current time of day), MemoActionMenu/hooks.ts (pin, archive and
//! visibility leave `updated_ts`; a ticked checkbox sends content + update_time). usememos/telegram-integration
//! (ea70bc8) memogram.go (content only, so PRIVATE; "Forwarded from"; one memo per album; a photo with no caption is
//! an empty memo; the Public/Private/Pin buttons update visibility and pinned; "Failed to create memo" on an error).
//! On a create: `id` the next auto-increment; `uid` a fresh 22-character shortuuid; `creator_id` the token's user;
//! `content` as sent; `visibility` as sent (the web app and the apps send the user's default, the bot and scripts
//! nothing: PRIVATE; a comment its parent's); `row_status` NORMAL, `pinned` false; `payload` protojson of what the
//! markdown parse found (`{"property":{}}` for plain text); `created_ts` = `updated_ts` = the insert's second, or the
//! client's times (a backfilled day in the web app; the import's source time, its `updated_ts` then the insert's).
//! Later: ticked checkboxes and edits (content, payload and `updated_ts`; some third-party app edits send no
//! update_time and leave it), pins, archives and visibility changes (not `updated_ts`), hard deletes (gaps in ids; a
//! deleted memo's comments go with it, so memos with comments are kept), the bot's Public and Pin buttons.
//! Retries (about 1% of creates, and one re-run import): the apps' HTTP stack resending after a reset connection or
//! the user tapping save again after a timeout (`client_retry_delay`); the web app's save clicked again 8-60 s after a
//! proxy's 502 (the draft is kept on error); a Telegram message sent again 20-180 s after "Failed to create memo"; an
//! iOS Shortcut run again after its 60 s timeout; an MCP agent calling the tool again; n8n's Retry On Fail (10 s
//! timeout, 1 s wait); three late in the table; a flomo import that stopped at its 24th memo and was run again from the
//! start 9-14 minutes later (the first 23 again, with the same source `created_ts`). Each is a new create: a new id
//! and uid, the insert's own second where the client sent no times. People delete many extra memos (or the
//! original), archive or edit some, leave the rest.
//! Legitimate repeats: comments of the same words ("👍", "+1", "Thanks!") on different memos, often in a burst while
//! scrolling the feed (the parent is only in `memo_relation`); photos sent to the bot with no caption (empty memos);
//! the n8n daily checklist and weekly review template; the water log from a Shortcut (a second glass a minute later),
//! the morning and evening meds log, the evening mood; an RSS item republished by its feed; a link sent to the bot
//! again; a quote saved twice.
//! Hidden: a retried water log, a minute after the first, is the same row as the second glass logged on purpose.
//! Guessed: users, clients, rates and rhythms; the apps' default visibility and their edits without update_time; the
//! n8n, Shortcut, clipper, agent and import contents; protojson's compact spacing (the binary decides).
use std::collections::HashSet;

use super::{Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, client_retry_delay, day, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::MySql, Engine::Postgres];

/// `memo` and `memo_relation` as each engine's LATEST.sql creates them on a fresh install.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Sqlite => r#"CREATE TABLE memo (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL UNIQUE,
  creator_id INTEGER NOT NULL,
  created_ts BIGINT NOT NULL DEFAULT (strftime('%s', 'now')),
  updated_ts BIGINT NOT NULL DEFAULT (strftime('%s', 'now')),
  row_status TEXT NOT NULL CHECK (row_status IN ('NORMAL', 'ARCHIVED')) DEFAULT 'NORMAL',
  content TEXT NOT NULL DEFAULT '',
  visibility TEXT NOT NULL CHECK (visibility IN ('PUBLIC', 'PROTECTED', 'PRIVATE')) DEFAULT 'PRIVATE',
  pinned INTEGER NOT NULL CHECK (pinned IN (0, 1)) DEFAULT 0,
  payload TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE memo_relation (
  memo_id INTEGER NOT NULL,
  related_memo_id INTEGER NOT NULL,
  type TEXT NOT NULL,
  UNIQUE(memo_id, related_memo_id, type)
);"#
        .to_string(),
        Engine::MySql => r#"CREATE TABLE `memo` (
  `id` INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `uid` VARCHAR(256) NOT NULL UNIQUE,
  `creator_id` INT NOT NULL,
  `created_ts` TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  `updated_ts` TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  `row_status` VARCHAR(256) NOT NULL DEFAULT 'NORMAL',
  `content` TEXT NOT NULL,
  `visibility` VARCHAR(256) NOT NULL DEFAULT 'PRIVATE',
  `pinned` BOOLEAN NOT NULL DEFAULT FALSE,
  `payload` JSON NOT NULL
);
CREATE TABLE `memo_relation` (
  `memo_id` INT NOT NULL,
  `related_memo_id` INT NOT NULL,
  `type` VARCHAR(256) NOT NULL,
  UNIQUE(`memo_id`,`related_memo_id`,`type`)
);"#
        .to_string(),
        Engine::Postgres => r#"CREATE TABLE memo (
  id SERIAL PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,
  creator_id INTEGER NOT NULL,
  created_ts BIGINT NOT NULL DEFAULT EXTRACT(EPOCH FROM NOW()),
  updated_ts BIGINT NOT NULL DEFAULT EXTRACT(EPOCH FROM NOW()),
  row_status TEXT NOT NULL DEFAULT 'NORMAL',
  content TEXT NOT NULL,
  visibility TEXT NOT NULL DEFAULT 'PRIVATE',
  pinned BOOLEAN NOT NULL DEFAULT FALSE,
  payload JSONB NOT NULL DEFAULT '{}'
);
CREATE TABLE memo_relation (
  memo_id INTEGER NOT NULL,
  related_memo_id INTEGER NOT NULL,
  type TEXT NOT NULL,
  UNIQUE(memo_id, related_memo_id, type)
);"#
        .to_string(),
    }
}

const COLUMNS: &str = "id uid creator_id created_ts updated_ts row_status content visibility pinned payload";

const NOW: i64 = T0;
const START: i64 = T0 - 60 * DAY;
/// The next id when the window opens (older memos, some commented on in it, have lower ones).
const ID0: i64 = 2_318;
const USERS: i64 = 24;
/// Creates per hour of the day (UTC), relative: users in China and in Europe.
const RHYTHM: [i64; 24] = [5, 5, 6, 6, 6, 5, 5, 6, 7, 8, 8, 7, 7, 7, 8, 8, 8, 7, 7, 6, 5, 4, 4, 4];
/// The first app create after each of these is retried.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 7 * HOUR, NOW - 2 * HOUR];
/// shortuuid's alphabet (base57).
const ALPHABET: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/// The users behind the scripts: n8n's checklist and review (3), the flomo import (6), the water Shortcut (7), the
/// RSS workflow (9), the meds Shortcut (12), the mood Shortcut (15).
const PLANNER: i64 = 3;
const IMPORTER: i64 = 6;
const WATER: i64 = 7;
const READER: i64 = 9;
const MEDS: i64 = 12;
const MOOD: i64 = 15;

const DAILY: &str = "#daily\n- [ ] Review the calendar\n- [ ] Inbox zero\n- [ ] 30 minutes of reading\n- [ ] Exercise\n\
                     - [ ] Plan tomorrow";
const WEEKLY: &str = "# Weekly review\n\n## Wins\n\n## Lessons\n\n## Next week\n\n#review/weekly";
const WATER_LOG: &str = "#water 💧";
const MEDS_LOG: &str = "💊 #health/meds";

#[rustfmt::skip]
const TAGS: &[&str] = &["ideas", "work", "reading", "journal", "homelab", "todo", "books", "learning", "recipes",
    "travel", "health", "finance", "work/meetings", "work/oncall", "dev/rust", "dev/go", "quotes", "movies", "music",
    "garden", "family", "inbox"];
#[rustfmt::skip]
const OPENERS: &[&str] = &["Idea:", "Note to self:", "TIL", "Reminder:", "Random thought:", "Worth trying:",
    "Question:", "Noticed that", "Today", "Finally"];
#[rustfmt::skip]
const TODOS: &[&str] = &["Renew the domain", "Back up the NAS", "Update Memos to the latest release",
    "Call the dentist", "Buy coffee filters", "Reply to Lena", "Fix the garden hose", "Book flights", "Read chapter 4",
    "Clean the inbox", "Pay the electricity bill", "Order printer ink", "Write the weekly report",
    "Rotate the API keys", "Water the plants", "Check the smoke alarms", "Cancel the trial", "Return the parcel",
    "Renew the passport"];
#[rustfmt::skip]
const TITLES: &[&str] = &["Meeting notes", "Book: Deep Work", "Trip plan", "Homelab inventory", "Recipe: dal tadka",
    "Weekly plan", "Reading list", "Ideas for the blog", "Gift ideas", "Release checklist", "Packing list"];
#[rustfmt::skip]
const COMMANDS: &[&str] = &["docker compose pull && docker compose up -d", "sqlite3 memos_prod.db '.backup b.db'",
    "git rebase -i HEAD~3", "journalctl -u memos -f", "rsync -avz ~/notes nas:/backup/",
    "kubectl rollout restart deploy/memos", "pg_dump -Fc memos > memos.dump", "curl -I https://example.org"];
#[rustfmt::skip]
const QUOTES: &[(&str, &str)] = &[
    ("The best way to get a good idea is to get a lot of ideas.", "Linus Pauling"),
    ("Simplicity is prerequisite for reliability.", "Edsger Dijkstra"),
    ("Writing is thinking.", "David McCullough"), ("What gets measured gets managed.", "Peter Drucker"),
    ("Slow is smooth, smooth is fast.", "unknown"), ("Make it work, make it right, make it fast.", "Kent Beck"),
];
#[rustfmt::skip]
const SITES: &[&str] = &["https://github.com/usememos/memos/releases/tag/v0.", "https://news.ycombinator.com/item?id=4",
    "https://www.youtube.com/watch?v=", "https://arxiv.org/abs/2509.", "https://blog.rust-lang.org/2026/09/",
    "https://selfh.st/weekly/2026-", "https://en.wikipedia.org/wiki/", "https://lwn.net/Articles/10"];
#[rustfmt::skip]
const COMMENTS: &[&str] = &["👍", "👍", "+1", "Thanks!", "Nice!", "Agreed.", "Great idea", "Same here", "Done ✅", "😂",
    "Interesting, thanks for sharing.", "Thanks for the tip!", "🎉"];
const CHANNELS: &[(&str, &str)] =
    &[("Hacker News", "hacker_news_feed"), ("The Verge", "theverge"), ("Self-Hosted", "selfhosted"), ("Rust", "rust")];
const FEEDS: &[(&str, &str)] = &[
    ("lobsters", "https://lobste.rs/s/"),
    ("lwn", "https://lwn.net/Articles/"),
    ("selfhosted", "https://selfh.st/post/"),
    ("golang", "https://go.dev/blog/"),
];
const MOODS: &[&str] = &["#mood/good 🙂", "#mood/good 🙂", "#mood/okay 😐", "#mood/low 😞"];
#[rustfmt::skip]
const PLACES: &[&str] = &[
    r#"{"placeholder":"Berlin, Germany","latitude":52.520008,"longitude":13.404954}"#,
    r#"{"placeholder":"Hangzhou, Zhejiang, China","latitude":30.274085,"longitude":120.15507}"#,
    r#"{"placeholder":"Lisbon, Portugal","latitude":38.722252,"longitude":-9.139337}"#,
];
const VISIBILITIES: &[&str] = &["PRIVATE", "PROTECTED", "PUBLIC"];

#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Via {
    #[default]
    Web,
    Comment,
    App,
    Telegram,
    Shortcut,
    Clipper,
    Agent,
    Bot,
    Import,
}

#[derive(Clone, Copy)]
struct User {
    id: i64,
    /// The default visibility of the user's settings, which the web app and the apps send.
    vis: &'static str,
    app: bool,
    telegram: bool,
    clipper: bool,
    agent: bool,
    tags: [&'static str; 3],
}

/// A create request as the server got it, and what became of it.
#[derive(Clone, Default)]
struct Memo {
    at: i64,
    user: i64,
    via: Via,
    content: String,
    vis: &'static str,
    /// The client's create_time and update_time, in seconds.
    created: Option<i64>,
    updated: Option<i64>,
    location: Option<&'static str>,
    /// The memo commented on: one of the window's, or an older one by id.
    parent: Option<usize>,
    old_parent: Option<i64>,
    /// The bot's buttons pressed under its reply.
    vis_to: Option<(i64, &'static str)>,
    pin_at: Option<i64>,
    /// A habit log from a Shortcut: never edited.
    habit: bool,
    mark: Mark,
    of: Option<usize>,
    hidden: bool,
}

/// A row as it stands now.
#[derive(Clone)]
struct State {
    content: String,
    updated: i64,
    status: &'static str,
    vis: &'static str,
    pinned: bool,
    deleted: bool,
}

fn jiggle(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

/// An epoch second as the store writes it: the number into SQLite's and PostgreSQL's BIGINT, `FROM_UNIXTIME(?)` into
/// MySQL's TIMESTAMP (a MySQL executable comment, which SQLite and PostgreSQL read as a comment).
fn ts(secs: i64) -> V {
    V::Raw(format!("/*!FROM_UNIXTIME(*/{secs}/*!)*/"))
}

fn shortuuid(r: &mut Rng) -> String {
    (0..22).map(|_| ALPHABET[r.below(ALPHABET.len() as u64) as usize] as char).collect()
}

fn json_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `RebuildMemoPayload`: tags (with their parents), the content's properties, and the location, as protojson writes
/// them (field order, defaults left out, an empty `property` kept).
fn payload(content: &str, location: Option<&str>) -> String {
    let mut tags: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in content.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for word in line.split_whitespace() {
            let Some(rest) = word.strip_prefix('#') else { continue };
            let tag: String =
                rest.chars().take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '/')).collect();
            let tag = tag.trim_end_matches('/');
            if tag.is_empty() {
                continue;
            }
            let mut names: Vec<&str> = tag.match_indices('/').map(|(i, _)| &tag[..i]).collect();
            names.push(tag);
            for name in names {
                if !tags.iter().any(|t| t == name) {
                    tags.push(name.to_string());
                }
            }
        }
    }
    let mut property: Vec<String> = Vec::new();
    if content.contains("https://") || content.contains("http://") {
        property.push(r#""hasLink":true"#.into());
    }
    let tasks = content.contains("- [ ]") || content.contains("- [x]");
    if tasks {
        property.push(r#""hasTaskList":true"#.into());
    }
    if content.contains('`') {
        property.push(r#""hasCode":true"#.into());
    }
    if content.contains("- [ ]") {
        property.push(r#""hasIncompleteTasks":true"#.into());
    }
    if let Some(title) = content.lines().next().and_then(|l| l.strip_prefix("# ")) {
        property.push(format!(r#""title":{}"#, json_str(title.trim())));
    }
    let mut json = format!(r#"{{"property":{{{}}}"#, property.join(","));
    if let Some(l) = location {
        json += &format!(r#","location":{l}"#);
    }
    if !tags.is_empty() {
        json += &format!(r#","tags":[{}]"#, tags.iter().map(|t| json_str(t)).collect::<Vec<_>>().join(","));
    }
    json + "}"
}

fn tag(r: &mut Rng, u: &User) -> String {
    format!("#{}", u.tags[r.below(3) as usize])
}

fn link(r: &mut Rng) -> String {
    let site = *r.pick(SITES);
    if site.ends_with("wiki/") {
        format!("{site}{}", r.pick(&["Zettelkasten", "Pomodoro_Technique", "CRDT", "Second-system_effect"]))
    } else if site.ends_with("v=") {
        format!("{site}{}", r.alnum(11))
    } else {
        format!("{site}{}", r.range(10, 9_999))
    }
}

fn todo_list(r: &mut Rng) -> String {
    let mut items: Vec<&str> = Vec::new();
    for _ in 0..2 + r.below(4) {
        let item = *r.pick(TODOS);
        if !items.contains(&item) {
            items.push(item);
        }
    }
    items.iter().map(|i| format!("- [ ] {i}")).collect::<Vec<_>>().join("\n")
}

/// What people write in the web app's editor.
fn note(r: &mut Rng, u: &User) -> String {
    let n = 5 + r.below(12) as usize;
    match r.below(20) {
        0..=7 => {
            let s = sentence(r, n);
            let opener = *r.pick(OPENERS);
            match r.below(5) {
                0 | 1 => format!("{opener} {s}"),
                2 => format!("{opener} {s} {}", tag(r, u)),
                _ => format!("{s}\n\n{} {}", tag(r, u), tag(r, u)),
            }
        }
        8..=10 => format!("{}\n{}", tag(r, u), todo_list(r)),
        11..=12 => {
            let url = link(r);
            let s = sentence(r, n / 2);
            format!("{url}\n{s} #reading")
        }
        13..=14 => {
            let title = *r.pick(TITLES);
            let body = sentence(r, n);
            format!("# {title}\n\n{body}\n\n{}", tag(r, u))
        }
        15 => format!("```bash\n{}\n```\n{}", r.pick(COMMANDS), tag(r, u)),
        16 => {
            let (q, who) = *r.pick(QUOTES);
            format!("> {q}\n\n— {who} #quotes")
        }
        _ => {
            let s = sentence(r, n);
            format!("{s} #journal")
        }
    }
}

/// A quick note from a phone.
fn short_note(r: &mut Rng, u: &User) -> String {
    let n = 3 + r.below(8) as usize;
    let s = sentence(r, n);
    match r.below(6) {
        0 => format!("{}\n{}", tag(r, u), todo_list(r)),
        1 | 2 => format!("{s} {}", tag(r, u)),
        _ => s,
    }
}

fn telegram(r: &mut Rng) -> (String, bool) {
    let n = 4 + r.below(14) as usize;
    match r.below(20) {
        0..=8 => (sentence(r, n), true),
        9..=12 => (link(r), true),
        13..=15 => {
            let s = sentence(r, n);
            let (name, handle) = *r.pick(CHANNELS);
            (format!("Forwarded from [{name}](https://t.me/{handle})\n{s}"), true)
        }
        16 => {
            let s = sentence(r, n);
            (format!("Forwarded from {}\n{s}", r.pick(&["Anna", "Wei Zhang", "Hidden User", "Marco"])), true)
        }
        17 => (sentence(r, n / 2), false),
        // A photo (or an album) with no caption: an empty memo, the picture in `attachment`.
        _ => (String::new(), false),
    }
}

fn clipping(r: &mut Rng) -> String {
    let title = format!("{} {} {}", r.pick(&["How", "Why", "The", "Notes on"]), r.pick(WORDS), r.pick(WORDS));
    let url = link(r);
    if r.chance(0.5) {
        format!("[{title}]({url})\n\n#bookmark")
    } else {
        let n = 8 + r.below(15) as usize;
        let s = sentence(r, n);
        format!("> {s}\n\n[{title}]({url}) #reading")
    }
}

fn agent_note(r: &mut Rng) -> String {
    let topic = format!("{} {}", r.pick(WORDS), r.pick(WORDS));
    let points: Vec<String> = (0..3 + r.below(3))
        .map(|_| {
            let n = 5 + r.below(8) as usize;
            format!("- {}", sentence(r, n))
        })
        .collect();
    if r.chance(0.6) {
        format!("# Summary: {topic}\n\n{}\n\n#ai/summary", points.join("\n"))
    } else {
        format!("Action items from the {topic} sync:\n{}\n#work/meetings", todo_list(r))
    }
}

fn flomo_note(r: &mut Rng) -> String {
    let n = 6 + r.below(20) as usize;
    let s = sentence(r, n);
    match r.below(4) {
        0 => s,
        1 => format!("{s}\n#reading/books"),
        2 => format!("{s}\n#ideas"),
        _ => format!("#flomo/diary {s}"),
    }
}

/// Appends a new intent; one sent before with the same row is a legitimate repeat.
fn add(v: &mut Vec<Memo>, seen: &mut HashSet<String>, mut m: Memo) -> usize {
    let key = format!("{}|{}|{}|{:?}|{:?}|{:?}", m.user, m.vis, m.content, m.location, m.created, m.updated);
    if !seen.insert(key) {
        m.mark = Mark::Legit;
    }
    push(v, m)
}

/// A script's memo (n8n, a Shortcut): PRIVATE unless it says otherwise.
fn script(at: i64, user: i64, via: Via, content: &str) -> Memo {
    Memo { at, user, via, content: content.to_string(), vis: "PRIVATE", habit: via == Via::Shortcut, ..Memo::default() }
}

fn push(v: &mut Vec<Memo>, m: Memo) -> usize {
    v.push(m);
    v.len() - 1
}

/// When a client's second attempt of a create lands.
fn retry_delay(r: &mut Rng, via: Via) -> i64 {
    let j = jiggle(r);
    match via {
        Via::Web | Via::Comment => r.range(8, 60) * SECOND + j,
        Via::Telegram => r.range(20, 180) * SECOND + j,
        Via::Shortcut => r.range(61, 95) * SECOND + j,
        Via::Agent => r.range(30, 150) * SECOND + j,
        Via::Bot => r.range(11_000, 16_000) * 1_000 + j / 1_000,
        _ => client_retry_delay(r),
    }
}

/// The create, and the extra rows its lost responses made.
fn send(v: &mut Vec<Memo>, seen: &mut HashSet<String>, r: &mut Rng, m: Memo, rate: f64, forced: bool) -> usize {
    let k = add(v, seen, m.clone());
    if !m.content.is_empty() && (forced || r.chance(rate)) {
        let mut at = m.at;
        for _ in 0..1 + usize::from(r.chance(0.25)) {
            at += retry_delay(r, m.via);
            let extra = Memo { at, mark: Mark::Retry, of: Some(k), vis_to: None, pin_at: None, ..m.clone() };
            push(v, extra);
        }
    }
    k
}

/// A user's visibility for a memo in the web editor: the default, now and then changed.
fn web_vis(r: &mut Rng, u: &User) -> &'static str {
    if r.chance(0.1) { r.one(VISIBILITIES) } else { u.vis }
}

fn vis_at(m: &Memo, t: i64) -> &'static str {
    match m.vis_to {
        Some((w, nv)) if w <= t => nv,
        _ => m.vis,
    }
}

/// A comment (or a few, scrolling the feed) on recent memos others can see.
fn comment(r: &mut Rng, v: &mut Vec<Memo>, seen: &mut HashSet<String>, cands: &[usize], u: &User, t: i64) {
    let burst = if r.chance(0.22) { 2 + r.below(3) } else { 1 };
    let short = r.chance(0.6);
    let first = if short { r.pick(COMMENTS).to_string() } else { String::new() };
    let (mut at, mut done) = (t, Vec::new());
    for i in 0..burst {
        let fresh = |k: usize| v[k].at < at - MINUTE && v[k].at > at - 4 * DAY && !done.contains(&k);
        let recent: Vec<usize> = cands.iter().rev().take(80).copied().filter(|&k| fresh(k)).collect();
        let (parent, old_parent, vis) = if recent.is_empty() || r.chance(0.08) {
            (None, Some(ID0 - 1 - r.below(1_500) as i64), "PUBLIC")
        } else {
            let k = recent[r.skewed(recent.len() as u64) as usize];
            done.push(k);
            (Some(k), None, vis_at(&v[k], at))
        };
        let content = if short && (i == 0 || r.chance(0.75)) {
            first.clone()
        } else if r.chance(0.4) {
            r.pick(COMMENTS).to_string()
        } else {
            let n = 4 + r.below(10) as usize;
            sentence(r, n)
        };
        let m = Memo { at, user: u.id, via: Via::Comment, content, vis, parent, old_parent, ..Memo::default() };
        send(v, seen, r, m, 0.006, false);
        at += r.range(5, 90) * SECOND + jiggle(r);
    }
}

/// The flomo export brought over by a script, newest first, each with its source time: it stopped at the 24th memo
/// (an attachment it could not upload) and was run again from the start once fixed.
fn import(r: &mut Rng, v: &mut Vec<Memo>, seen: &mut HashSet<String>, at0: i64) {
    let mut source: Vec<(String, i64)> = Vec::new();
    let mut c = at0 / SECOND - r.range(3_600, 86_400);
    for i in 0..170 {
        let content = if i > 10 && r.chance(0.02) { source[r.below(i) as usize].0.clone() } else { flomo_note(r) };
        source.push((content, c));
        c -= r.range(1_800, 5 * 86_400);
    }
    let crash = 23;
    let base = Memo { user: IMPORTER, via: Via::Import, vis: "PRIVATE", ..Memo::default() };
    let mut at = at0;
    let mut first: Vec<usize> = Vec::new();
    for (content, created) in source.iter().take(crash) {
        at += r.range(70_000, 250_000);
        let m = Memo { at, content: content.clone(), created: Some(*created), ..base.clone() };
        first.push(add(v, seen, m));
    }
    at += r.range(9 * 60, 14 * 60) * SECOND;
    for (i, (content, created)) in source.iter().enumerate() {
        at += r.range(70_000, 250_000);
        let m = Memo { at, content: content.clone(), created: Some(*created), ..base.clone() };
        if i < crash {
            push(v, Memo { mark: Mark::Retry, of: Some(first[i]), ..m });
        } else {
            add(v, seen, m);
        }
    }
}

/// Ticks one open checkbox.
fn tick(r: &mut Rng, content: &str) -> String {
    let open: Vec<usize> = content.match_indices("- [ ]").map(|(i, _)| i).collect();
    if open.is_empty() {
        return content.to_string();
    }
    let i = open[r.below(open.len() as u64) as usize];
    format!("{}- [x]{}", &content[..i], &content[i + 5..])
}

fn edit(r: &mut Rng, content: &str) -> String {
    match r.below(3) {
        0 => {
            let n = 4 + r.below(8) as usize;
            let s = sentence(r, n);
            if content.is_empty() { s } else { format!("{content}\n\n{s}") }
        }
        1 => format!("{content} {}", r.pick(WORDS)).trim_start().to_string(),
        _ => format!("{content}\n#{}", r.pick(TAGS)).trim_start().to_string(),
    }
}

/// The scripts' memos: the checklist ticked through the day, the review filled in, an RSS item archived.
fn bot_life(r: &mut Rng, m: &Memo, s: &mut State) {
    if m.content == DAILY {
        if r.chance(0.7) {
            let mut t = m.at;
            for _ in 0..r.range(1, 5) {
                t += r.range(1_800, 5 * 3_600) * SECOND + jiggle(r);
                if t >= NOW {
                    break;
                }
                s.content = tick(r, &s.content);
                s.updated = t / SECOND;
            }
        }
    } else if m.content == WEEKLY {
        let t = m.at + r.range(600, 2 * 86_400) * SECOND;
        if t < NOW && r.chance(0.65) {
            let (a, b) = (6 + r.below(8) as usize, 6 + r.below(8) as usize);
            let (wins, lessons) = (sentence(r, a), sentence(r, b));
            let next = todo_list(r);
            let review = format!("## Wins\n- {wins}\n\n## Lessons\n- {lessons}\n\n## Next week\n{next}");
            s.content = format!("# Weekly review\n\n{review}\n\n#review/weekly");
            s.updated = t / SECOND;
        }
    } else if r.chance(0.03) {
        s.status = "ARCHIVED";
    }
}

/// A memo's own later life.
fn life(r: &mut Rng, m: &Memo, s: &mut State, last_comment: Option<i64>) {
    if m.habit {
        // A mistaken tap, deleted.
        if r.chance(0.015) {
            s.deleted = true;
        }
        return;
    }
    if m.via == Via::Bot {
        bot_life(r, m, s);
        return;
    }
    let mut t = m.at;
    if m.via == Via::Comment || m.via == Via::Import {
        t += r.range(60, 3 * 86_400) * SECOND + jiggle(r);
        match r.below(100) {
            _ if t >= NOW => {}
            0..=3 => {
                s.content = edit(r, &s.content);
                s.updated = t / SECOND;
            }
            4..=6 => s.deleted = true,
            _ => {}
        }
        return;
    }
    for _ in 0..r.below(5) {
        t += r.range(90, 5 * 86_400) * SECOND + jiggle(r);
        if t >= NOW {
            return;
        }
        let x = r.below(100);
        match x {
            0..=39 if s.content.contains("- [ ]") => {
                s.content = tick(r, &s.content);
                s.updated = t / SECOND;
            }
            0..=13 => {
                s.content = edit(r, &s.content);
                // A third-party app saving an edit without update_time.
                let quiet = m.via == Via::App && r.chance(0.2);
                if !quiet {
                    s.updated = t / SECOND;
                }
            }
            40..=41 => s.pinned = !s.pinned,
            45..=50 if last_comment.is_none_or(|c| c < t) => {
                s.status = "ARCHIVED";
                return;
            }
            51..=53 if last_comment.is_none() => {
                s.deleted = true;
                return;
            }
            54..=55 if last_comment.is_none() => s.vis = r.one(VISIBILITIES),
            _ => {}
        }
    }
}

/// What people did once they saw a retry's extra memo next to the first: deleted it (or the first), archived it,
/// worked on it as on any memo, or left it.
fn retry_life(r: &mut Rng, v: &[Memo], states: &mut [Option<State>], k: usize, last: &[Option<i64>]) {
    let m = &v[k];
    if m.hidden {
        // Nobody can tell it from a second glass, so nobody deletes it.
        return;
    }
    let o = m.of.expect("a retry has an original");
    let soon = m.at + r.range(60, 2 * 86_400) * SECOND + jiggle(r);
    let (del, del_first, archive, work) = match m.via {
        Via::Import => (25, 35, 35, 35),
        _ if m.habit => (40, 40, 40, 40),
        _ => (28, 38, 46, 58),
    };
    let x = r.below(100);
    let first_open = states[o].as_ref().is_some_and(|s| !s.deleted && s.status == "NORMAL");
    if soon < NOW && x < del && last[k].is_none() {
        if let Some(s) = states[k].as_mut() {
            s.deleted = true;
        }
    } else if soon < NOW && x < del_first && first_open && last[o].is_none() {
        if let Some(first) = states[o].as_mut() {
            first.deleted = true;
        }
    } else if let Some(s) = states[k].as_mut() {
        if soon < NOW && x < archive && last[k].is_none_or(|c| c < soon) {
            s.status = "ARCHIVED";
        } else if x < work {
            life(r, m, s, last[k]);
        }
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x3E305);
    let users: Vec<User> = (1..=USERS)
        .map(|id| {
            let vis = match r.below(20) {
                0..=11 => "PRIVATE",
                12..=16 => "PUBLIC",
                _ => "PROTECTED",
            };
            let tags = [r.one(TAGS), r.one(TAGS), r.one(TAGS)];
            let (app, telegram, clipper) = (r.chance(0.35), r.chance(0.3), r.chance(0.2));
            User { id, vis, app, telegram, clipper, agent: id == 2 || id == 5, tags }
        })
        .collect();

    let mut v: Vec<Memo> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    // Memos others can see and comment on.
    let mut cands: Vec<usize> = Vec::new();
    let mut late = 0;
    let mut imported = false;
    let mut t = START;
    loop {
        t += r.range(30, 3_000) * SECOND * 14 / RHYTHM[(t / HOUR % 24) as usize] + jiggle(&mut r);
        if t >= NOW - 10 * MINUTE {
            break;
        }
        if !imported && t > START + 12 * DAY + 20 * HOUR {
            imported = true;
            import(&mut r, &mut v, &mut seen, t);
            continue;
        }
        let u = users[r.skewed(USERS as u64) as usize];
        let x = r.below(1_000);
        if x < 150 {
            comment(&mut r, &mut v, &mut seen, &cands, &u, t);
            continue;
        }
        let forced = late < LATE.len() && t > LATE[late];
        let base = Memo { at: t, user: u.id, ..Memo::default() };
        let (m, rate) = if forced || (x < 330 && u.app) {
            late += usize::from(forced);
            (Memo { via: Via::App, content: short_note(&mut r, &u), vis: u.vis, ..base }, 0.05)
        } else if x < 440 && u.telegram {
            let (mut content, text) = telegram(&mut r);
            // A link sent to the bot again, days after the first time.
            if r.chance(0.04)
                && let Some(p) = v.iter().rev().find(|p| p.user == u.id && p.via == Via::Telegram && p.of.is_none())
                && p.content.starts_with("https://")
            {
                content = p.content.clone();
            }
            let vis_to = r.chance(0.2).then(|| (t + r.range(5, 90) * SECOND, "PUBLIC"));
            let pin_at = (text && r.chance(0.05)).then(|| t + r.range(5, 120) * SECOND);
            (Memo { via: Via::Telegram, content, vis: "PRIVATE", vis_to, pin_at, ..base }, 0.03)
        } else if x < 500 && u.clipper {
            let vis = if u.vis == "PUBLIC" { "PUBLIC" } else { "PRIVATE" };
            (Memo { via: Via::Clipper, content: clipping(&mut r), vis, ..base }, 0.03)
        } else if x < 530 && u.agent {
            (Memo { via: Via::Agent, content: agent_note(&mut r), vis: "PRIVATE", ..base }, 0.06)
        } else if x < 560 {
            // Dictated to Siri through a Shortcut.
            let n = 4 + r.below(9) as usize;
            let content = format!("{} #inbox", sentence(&mut r, n));
            (Memo { via: Via::Shortcut, content, vis: "PRIVATE", ..base }, 0.03)
        } else {
            let content = note(&mut r, &u);
            let vis = web_vis(&mut r, &u);
            let location = r.chance(0.01).then(|| r.one(PLACES));
            // Written with a calendar day filtered: that day, at the time of day it is now.
            let back = r.chance(0.02).then(|| t / SECOND - r.range(1, 20) * 86_400);
            (Memo { via: Via::Web, content, vis, location, created: back, updated: back, ..base }, 0.01)
        };
        let from = v.len();
        send(&mut v, &mut seen, &mut r, m, rate, forced);
        cands.extend((from..v.len()).filter(|&k| v[k].vis != "PRIVATE" && matches!(v[k].via, Via::Web | Via::App)));
    }

    // n8n: the daily checklist at 06:30 (UTC+8), the weekly review on Sundays at 20:00, with Retry On Fail on.
    let mut d = day(START);
    while d < NOW - DAY {
        let at = d + 22 * HOUR + 30 * MINUTE + r.range(300, 4_000) * 1_000;
        send(&mut v, &mut seen, &mut r, script(at, PLANNER, Via::Bot, DAILY), 0.0, d == day(START) + 41 * DAY);
        if (d / DAY + 4) % 7 == 0 {
            let at = d + 12 * HOUR + r.range(300, 4_000) * 1_000;
            send(&mut v, &mut seen, &mut r, script(at, PLANNER, Via::Bot, WEEKLY), 0.0, false);
        }
        d += DAY;
    }
    // n8n: new items of four feeds, polled hourly; a feed now and then republishes an item (same title and link).
    let mut h = START + 30 * MINUTE;
    while h < NOW - HOUR {
        if r.chance(0.08) {
            let mut at = h + r.range(2, 40) * SECOND;
            for _ in 0..1 + r.below(2) {
                let (feed, url) = *r.pick(FEEDS);
                let lead = *r.pick(&["On", "Rethinking", "A tour of", "Notes on"]);
                let title = format!("{lead} {} {}", r.pick(WORDS), r.pick(WORDS));
                let content = format!("[{title}]({url}{})\n\n#rss/{feed}", r.alnum(6).to_lowercase());
                let m = Memo { vis: "PUBLIC", ..script(at, READER, Via::Bot, &content) };
                send(&mut v, &mut seen, &mut r, m.clone(), 0.015, false);
                if r.chance(0.02) {
                    let again = h + r.range(2, 20) * HOUR + r.range(2, 40) * SECOND;
                    if again < NOW {
                        add(&mut v, &mut seen, Memo { at: again, ..m });
                    }
                }
                at += r.range(200, 800) * 1_000;
            }
        }
        h += HOUR;
    }
    // Shortcuts: water from the watch through the day (UTC+2), meds at 07:00 and 20:00 (UTC+1), mood at 21:00 (UTC+8).
    let mut d = day(START);
    let mut hidden = false;
    while d < NOW - DAY {
        // Some days the watch stays on the charger.
        let n = if r.chance(0.75) { r.range(2, 5) } else { 0 };
        let mut times: Vec<i64> =
            (0..n).map(|_| d + 6 * HOUR + r.range(0, 14 * 3_600) * SECOND + jiggle(&mut r)).collect();
        times.sort_unstable();
        for at in times {
            let m = script(at, WATER, Via::Shortcut, WATER_LOG);
            let k = add(&mut v, &mut seen, m.clone());
            if (!hidden && at > START + 30 * DAY) || r.chance(0.01) {
                // The watch lost the response and the Shortcut was run again: the same row as a second glass.
                hidden = true;
                let at = at + retry_delay(&mut r, Via::Shortcut);
                push(&mut v, Memo { at, mark: Mark::Retry, of: Some(k), hidden: true, ..m.clone() });
            } else if r.chance(0.08) {
                // A second glass, logged on purpose.
                add(&mut v, &mut seen, Memo { at: at + r.range(40, 150) * SECOND + jiggle(&mut r), ..m });
            }
        }
        for (hour, p) in [(6, 0.92), (19, 0.6)] {
            if r.chance(p) {
                let at = d + hour * HOUR + r.range(0, 5_400) * SECOND + jiggle(&mut r);
                send(&mut v, &mut seen, &mut r, script(at, MEDS, Via::Shortcut, MEDS_LOG), 0.01, false);
            }
        }
        if r.chance(0.85) {
            let at = d + 13 * HOUR + r.range(0, 7_200) * SECOND + jiggle(&mut r);
            let mood = r.one(MOODS);
            add(&mut v, &mut seen, script(at, MOOD, Via::Shortcut, mood));
        }
        d += DAY;
    }

    // Insert order, and each memo's id.
    let mut order: Vec<usize> = (0..v.len()).filter(|&k| v[k].at < NOW).collect();
    order.sort_by_key(|&k| (v[k].at, k));
    let mut ids = vec![0_i64; v.len()];
    for (n, &k) in order.iter().enumerate() {
        ids[k] = ID0 + n as i64;
    }
    let mut last: Vec<Option<i64>> = vec![None; v.len()];
    for m in order.iter().map(|&k| &v[k]) {
        if let Some(p) = m.parent {
            last[p] = last[p].max(Some(m.at));
        }
    }
    let mut states: Vec<Option<State>> = vec![None; v.len()];
    for &k in &order {
        let m = &v[k];
        let mut s = State {
            content: m.content.clone(),
            updated: m.updated.unwrap_or(m.at / SECOND),
            status: "NORMAL",
            vis: m.vis,
            pinned: false,
            deleted: false,
        };
        if let Some((w, nv)) = m.vis_to
            && w < NOW
        {
            s.vis = nv;
        }
        s.pinned = m.pin_at.is_some_and(|w| w < NOW);
        states[k] = Some(s);
        if m.of.is_some() {
            retry_life(&mut r, &v, &mut states, k, &last);
        } else if let Some(s) = states[k].as_mut() {
            life(&mut r, m, s, last[k]);
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("memo", &columns);
    let mut relations = Child::new("memo_relation", &["memo_id", "related_memo_id", "type"]);
    let mut present = vec![false; v.len()];
    for &k in &order {
        let (m, s) = (&v[k], states[k].as_ref().expect("every row has a state"));
        let uid = shortuuid(&mut r);
        if s.deleted {
            continue;
        }
        let group = m.of.unwrap_or(k);
        let mark = if m.mark == Mark::Retry && !present[group] { Mark::Plain } else { m.mark };
        present[group] = true;
        let id = ids[k];
        f.push(&[
            ("id", V::I(id)),
            ("uid", V::T(uid)),
            ("creator_id", V::I(m.user)),
            ("created_ts", ts(m.created.unwrap_or(m.at / SECOND))),
            ("updated_ts", ts(s.updated)),
            ("row_status", V::t(s.status)),
            ("content", V::t(&s.content)),
            ("visibility", V::t(s.vis)),
            ("pinned", V::B(s.pinned)),
            ("payload", V::T(payload(&s.content, m.location))),
        ]);
        f.mark(id, mark);
        if mark == Mark::Retry && m.hidden {
            f.hidden.insert(id.to_string());
        }
        if let Some(p) = m.parent.map(|p| ids[p]).or(m.old_parent) {
            relations.push(&[("memo_id", V::I(id)), ("related_memo_id", V::I(p)), ("type", V::t("COMMENT"))]);
        }
    }
    f.children.push(relations);
    f
}
