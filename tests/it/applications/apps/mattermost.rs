//! Mattermost (Go, its SQL store with squirrel; PostgreSQL, MySQL): `posts`, as
//! `SqlPostStore.Save` (`SaveMultiple`) writes what `App.CreatePost` hands it.
//! Read: mattermost/mattermost server/channels/db/migrations/postgres/000020_create_posts.up.sql,
//! .../postgres/000066_upgrade_posts_v6.0.up.sql, .../postgres/000102_posts_originalid_index.up.sql,
//! .../postgres/000088_remaining_migrations.up.sql, db/migrations/mysql/000020_create_posts.up.sql,
//! server/channels/db/migrations/mysql/000066_upgrade_posts_v6.0.up.sql, .../mysql/000080_posts_createat_id.up.sql
//! (the schema); server/public/model/post.go (`Post`, `PreSave`, `PreCommit`, `SanitizeInput`),
//! server/channels/store/sqlstore/post_store.go (`postSliceColumns`, `SaveMultiple`, `Update`),
//! server/channels/app/post.go (`deduplicateCreatePost`, `CreatePost`, `UpdatePost`, `PatchPost`).
//!
//! Every attempt mints `id` (`model.NewId`, 26 characters of base32) and `createat` (the server's
//! `GetMillis`); `PreSave` sets `updateat` to it, `originalid` to ''. `pending_post_id` is no column:
//! the server keeps it 30 s in a cache (`pendingPostIDsCacheTTL`), so a client's second send with the
//! same id inside 30 s gets the first post back, and one after 30 s (a mobile app's retry after its
//! timeout) is saved again. Integrations send none: incoming webhooks (`from_webhook`), and bots on the
//! REST API (`from_bot`) are saved as often as they are sent. A retry of a post with files keeps no
//! file ids (the files are already attached to the first post). Later life: a reply sets its root's
//! `updateat`; a reaction sets `hasreactions` and `updateat`; a delete sets `deleteat`, `updateat` and
//! `props.deleteBy`; an edit or a pin (`PatchPost`) goes through `SqlPostStore.Update`, which rewrites
//! the row in place and inserts the old version as a new row (new id, `originalid` = the post, same
//! `createat`, `deleteat` = `updateat` = the edit's time). Legitimate repeats: those history rows;
//! a join, leave and join again of a channel (identical `system_join_channel` posts, 1-4 s or
//! minutes apart); Alertmanager re-sending a firing alert every 5 min (identical attachments); Jira
//! sending the same "updated" line for two field changes 1-4 s apart. Retries: mobile and web posts
//! 31-60 s later (then 31-120 s), webhooks re-sent after the sender's timeout 10-60 s later (Jira
//! also delivers twice at once), the CI bot's two runners 5-100 ms apart or its client's 30 s timeout.
//! MySQL's table is `Posts` with CamelCase columns; here it is `posts`, as one fixture serves both.
use std::collections::{BTreeMap, BTreeSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres, Engine::MySql];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => "CREATE TABLE IF NOT EXISTS posts (
    id VARCHAR(26) PRIMARY KEY,
    createat bigint, updateat bigint, deleteat bigint,
    userid VARCHAR(26), channelid VARCHAR(26), rootid VARCHAR(26), originalid VARCHAR(26),
    message VARCHAR(65535), type VARCHAR(26), props jsonb, hashtags VARCHAR(1000), filenames VARCHAR(4000),
    fileids VARCHAR(300), hasreactions boolean, editat bigint, ispinned boolean, remoteid VARCHAR(26)
);
CREATE INDEX IF NOT EXISTS idx_posts_update_at ON posts(updateat);
CREATE INDEX IF NOT EXISTS idx_posts_create_at ON posts(createat);
CREATE INDEX IF NOT EXISTS idx_posts_delete_at ON posts(deleteat);
CREATE INDEX IF NOT EXISTS idx_posts_user_id ON posts(userid);
CREATE INDEX IF NOT EXISTS idx_posts_is_pinned ON posts(ispinned);
CREATE INDEX IF NOT EXISTS idx_posts_channel_id_update_at ON posts(channelid, updateat);
CREATE INDEX IF NOT EXISTS idx_posts_channel_id_delete_at_create_at ON posts(channelid, deleteat, createat);
CREATE INDEX IF NOT EXISTS idx_posts_message_txt ON posts USING gin(to_tsvector('english', message));
CREATE INDEX IF NOT EXISTS idx_posts_hashtags_txt ON posts USING gin(to_tsvector('english', hashtags));
CREATE INDEX IF NOT EXISTS idx_posts_root_id_delete_at ON posts(rootid, deleteat);
CREATE INDEX IF NOT EXISTS idx_posts_create_at_id ON posts(createat, id);
CREATE INDEX IF NOT EXISTS idx_posts_original_id ON posts(originalid);"
            .to_string(),
        Engine::MySql => "CREATE TABLE IF NOT EXISTS posts (
    Id varchar(26) NOT NULL,
    CreateAt bigint(20) DEFAULT NULL, UpdateAt bigint(20) DEFAULT NULL, DeleteAt bigint(20) DEFAULT NULL,
    UserId varchar(26) DEFAULT NULL, ChannelId varchar(26) DEFAULT NULL, RootId varchar(26) DEFAULT NULL,
    OriginalId varchar(26) DEFAULT NULL, Message text, Type varchar(26) DEFAULT NULL, Props JSON,
    Hashtags text, Filenames text, FileIds text, HasReactions tinyint(1) DEFAULT 0, EditAt bigint(20) DEFAULT 0,
    IsPinned tinyint(1) DEFAULT 0, RemoteId varchar(26),
    PRIMARY KEY (Id),
    KEY idx_posts_update_at (UpdateAt), KEY idx_posts_create_at (CreateAt), KEY idx_posts_delete_at (DeleteAt),
    KEY idx_posts_user_id (UserId), KEY idx_posts_is_pinned (IsPinned),
    KEY idx_posts_channel_id_update_at (ChannelId, UpdateAt),
    KEY idx_posts_channel_id_delete_at_create_at (ChannelId, DeleteAt, CreateAt),
    KEY idx_posts_root_id_delete_at (RootId, DeleteAt), KEY idx_posts_create_at_id (CreateAt, Id),
    KEY idx_posts_original_id (OriginalId),
    FULLTEXT KEY idx_posts_message_txt (Message), FULLTEXT KEY idx_posts_hashtags_txt (Hashtags)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"
            .to_string(),
        Engine::Sqlite => unreachable!("Mattermost runs on PostgreSQL and MySQL"),
    }
}

const COLUMNS: &str = "id createat updateat deleteat userid channelid rootid originalid message type props hashtags \
    filenames fileids hasreactions editat ispinned remoteid";

/// Microseconds in a millisecond: rows are timed in µs, `createat` holds ms.
const MS: i64 = 1_000;

#[derive(Clone, Copy, PartialEq, Default)]
enum Src {
    #[default]
    Human,
    Bot,
    Hook,
    System,
}

#[derive(Clone, Default)]
struct Post {
    at: i64,
    id: String,
    create: i64,
    update: i64,
    edit: i64,
    delete: i64,
    pinned: bool,
    reactions: bool,
    user: String,
    channel: String,
    root: String,
    original: String,
    message: String,
    kind: &'static str,
    props: String,
    hashtags: String,
    files: String,
    remote: Option<&'static str>,
    src: Src,
    mark: Mark,
}

fn new_id(r: &mut Rng) -> String {
    const ALPHABET: &[u8] = b"ybndrfg8ejkmcpqxot1uwisza345h769";
    (0..26).map(|_| ALPHABET[r.below(32) as usize] as char).collect()
}

fn template(src: Src, user: &str, channel: &str, message: String, kind: &'static str, props: String) -> Post {
    // `SanitizeInput` sets '' on posts sent to the API; webhooks and system posts leave it nil.
    let remote = if matches!(src, Src::Human | Src::Bot) { Some("") } else { None };
    let (user, channel, files) = (user.to_string(), channel.to_string(), "[]".to_string());
    Post { user, channel, message, kind, props, files, remote, src, ..Post::default() }
}

/// One pass through `CreatePost`: a fresh id, `createat` the server's millisecond.
fn attempt(r: &mut Rng, at: i64, base: &Post, mark: Mark) -> Post {
    let create = at / MS;
    Post { at, id: new_id(r), create, update: create, mark, ..base.clone() }
}

/// The row as it stood, which `SqlPostStore.Update` inserts under a new id when it changes the post.
fn old_version(r: &mut Rng, p: &Post, at: i64) -> Post {
    Post { at: at * MS, id: new_id(r), update: at, delete: at, original: p.id.clone(), mark: Mark::Legit, ..p.clone() }
}

/// `SqlPostStore.Delete`: `deleteat` and `updateat` the time, `deleteBy` the one who deleted it.
fn delete(p: &mut Post, at: i64, by: &str) {
    p.delete = at;
    p.update = p.update.max(at);
    // Go's encoder sorts the keys: `deleteBy` comes before `from_bot`.
    let rest = if p.props == "{}" { "}".to_string() } else { format!(",{}", &p.props[1..]) };
    p.props = format!(r#"{{"deleteBy":"{by}"{rest}"#);
}

/// A reply sets its root's `updateat` to its own `createat`.
fn bump(latest: &mut BTreeMap<usize, i64>, root: usize, at: i64) {
    let e = latest.entry(root).or_insert(at);
    *e = (*e).max(at);
}

fn hook_props(name: &str, icon: &str) -> String {
    format!(r#"{{"from_webhook":"true","override_icon_url":"{icon}","override_username":"{name}"}}"#)
}

fn alert_props(title: &str, text: &str, color: &str) -> String {
    format!(
        r#"{{"attachments":[{{"color":"{color}","fallback":"{title}","id":0,"text":"{text}","title":"{title}","title_link":"https://alerts.acme.example/#/alerts"}}],"from_webhook":"true","override_username":"alertmanager"}}"#
    )
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(6_271);
    const FIRST: &[&str] =
        &["ana", "ben", "chloe", "dmitri", "eva", "farid", "grace", "hiro", "ines", "jonas", "kemal", "lena"];
    const LAST: &[&str] =
        &["silva", "meyer", "okafor", "nguyen", "rossi", "kowalski", "berg", "ito", "haddad", "moreau", "lund", "park"];
    let users: Vec<String> = (0..140).map(|_| new_id(&mut r)).collect();
    let names: Vec<String> = (0..140).map(|i| format!("{}.{}", FIRST[i % 12], LAST[i / 12 % 12])).collect();
    let channels: Vec<String> = (0..40).map(|_| new_id(&mut r)).collect();
    let ci_bot = new_id(&mut r);
    let (admin, alerts) = (users[0].clone(), channels[3].clone());
    let mut posts: Vec<Post> = Vec::new();
    let mut roots: Vec<Vec<usize>> = vec![Vec::new(); channels.len()];
    let mut reply_at: BTreeMap<usize, i64> = BTreeMap::new();
    let mut joined: BTreeSet<(usize, usize)> = BTreeSet::new();
    let end = T0 + 21 * DAY;
    let mut t = T0 + 7 * HOUR;
    while t < end {
        let hour = (t / HOUR) % 24;
        t += if (6..20).contains(&hour) { r.range(10, 1_200) } else { r.range(60, 4_000) } * SECOND;
        t += r.range(0, 999_999);
        let late = t > end - 2 * DAY;
        let roll = r.below(1_000);
        if !(720..990).contains(&roll) {
            let u = r.skewed(140) as usize;
            let c = r.skewed(40) as usize;
            let words = 3 + r.below(10) as usize;
            let mut base = template(Src::Human, &users[u], &channels[c], sentence(&mut r, words), "", "{}".into());
            let recent: Vec<usize> = roots[c].iter().copied().filter(|&i| posts[i].at > t - 2 * DAY).collect();
            let root = (!recent.is_empty() && r.chance(0.45))
                .then(|| recent[recent.len() - 1 - r.skewed(recent.len() as u64) as usize]);
            if let Some(i) = root {
                base.root = posts[i].id.clone();
            }
            if r.chance(0.05) {
                let tag = r.one(&["#release", "#incident", "#standup", "#postmortem"]);
                base.message = format!("{} {tag}", base.message);
                base.hashtags = tag.to_string();
            }
            if r.chance(0.07) {
                let ids: Vec<String> = (0..1 + r.below(2)).map(|_| format!("\"{}\"", new_id(&mut r))).collect();
                base.files = format!("[{}]", ids.join(","));
            }
            let first = attempt(&mut r, t, &base, Mark::Plain);
            if let Some(i) = root {
                bump(&mut reply_at, i, first.create);
            } else {
                roots[c].push(posts.len());
            }
            posts.push(first);
            // The client's send timed out and the pending id had left the cache: saved again.
            if r.chance(if late { 0.05 } else { 0.015 }) {
                let mut at = t + r.range(31_000, 60_000) * MS + r.range(0, 999);
                let copy = Post { files: "[]".into(), ..base.clone() };
                for _ in 0..if r.chance(0.3) { 2 } else { 1 } {
                    if let Some(i) = root {
                        bump(&mut reply_at, i, at / MS);
                    }
                    posts.push(attempt(&mut r, at, &copy, Mark::Retry));
                    at += r.range(31_000, 120_000) * MS;
                }
            }
        } else if roll < 790 {
            // Joining a channel posts `system_join_channel`; some leave by mistake and join again.
            let u = 3 + r.below(137) as usize;
            let c = r.below(40) as usize;
            if !joined.insert((u, c)) {
                continue; // already a member
            }
            let props = format!(r#"{{"username":"{}"}}"#, names[u]);
            let (user, channel, text) = (&users[u], &channels[c], format!("{} joined the channel.", names[u]));
            let join = template(Src::System, user, channel, text, "system_join_channel", props.clone());
            posts.push(attempt(&mut r, t, &join, Mark::Plain));
            if r.chance(0.2) {
                let quick = r.chance(0.4);
                let gap = |r: &mut Rng| if quick { r.range(700, 2_000) * MS } else { r.range(10_000, 290_000) * MS };
                let left = t + gap(&mut r);
                let text = format!("{} left the channel.", names[u]);
                let leave = template(Src::System, user, channel, text, "system_leave_channel", props);
                posts.push(attempt(&mut r, left, &leave, Mark::Plain));
                let again = left + gap(&mut r);
                posts.push(attempt(&mut r, again, &join, Mark::Legit));
            }
        } else if roll < 855 {
            let project = r.one(&["acme/api", "acme/web", "acme/mobile", "acme/infra", "acme/billing"]);
            let (who, status) =
                (&names[3 + r.skewed(40) as usize], r.one(&["passed", "passed", "passed", "failed", "canceled"]));
            let message = format!(
                "[{project}](https://gitlab.acme.example/{project}) Pipeline [#{}](https://gitlab.acme.example/{project}/-/pipelines) of branch `{}` by {who} {status} in {:02}:{:02}",
                48_000 + posts.len(),
                r.one(&["main", "main", "develop", "release/2.14"]),
                r.range(1, 24),
                r.range(0, 59)
            );
            let (channel, props) =
                (&channels[4 + r.below(5) as usize], hook_props("GitLab", "https://gitlab.acme.example/logo.png"));
            let base = template(Src::Hook, &users[2], channel, message, "", props);
            posts.push(attempt(&mut r, t, &base, Mark::Plain));
            // GitLab gives up after its 10 s timeout; someone presses "Resend request".
            if r.chance(if late { 0.1 } else { 0.03 }) {
                let at = t + r.range(10_000, 60_000) * MS;
                posts.push(attempt(&mut r, at, &base, Mark::Retry));
            }
        } else if roll < 905 {
            let who = &names[3 + r.skewed(30) as usize];
            let key = format!("{}-{}", r.one(&["OPS", "WEB", "API"]), r.range(100, 980));
            let summary: Vec<&str> = (0..3 + r.below(4)).map(|_| *r.pick(WORDS)).collect();
            let message =
                format!("{who} updated [{key}](https://acme.atlassian.example/browse/{key}) {}", summary.join(" "));
            let (channel, props) =
                (&channels[9 + r.below(3) as usize], hook_props("Jira", "https://acme.atlassian.example/jira.png"));
            let base = template(Src::Hook, &users[2], channel, message, "", props);
            posts.push(attempt(&mut r, t, &base, Mark::Plain));
            if r.chance(0.25) {
                // Two field changes saved one after the other: two events, the same line.
                let at = t + r.range(1_000, 4_000) * MS;
                posts.push(attempt(&mut r, at, &base, Mark::Legit));
            } else if r.chance(if late { 0.1 } else { 0.03 }) {
                let gap = if r.chance(0.5) { r.range(1, 100) * MS } else { r.range(10_000, 60_000) * MS };
                let at = t + gap + r.range(0, 999);
                posts.push(attempt(&mut r, at, &base, Mark::Retry));
            }
        } else if roll < 975 {
            let message = format!(
                "Deployed `{}` v2.{}.{} to {} ({})",
                r.one(&["api", "web", "worker", "billing"]),
                r.range(10, 16),
                r.range(0, 30),
                r.one(&["staging", "staging", "production"]),
                r.hex(8)
            );
            let channel = &channels[4 + r.below(5) as usize];
            let base = template(Src::Bot, &ci_bot, channel, message, "", r#"{"from_bot":"true"}"#.into());
            posts.push(attempt(&mut r, t, &base, Mark::Plain));
            if r.chance(if late { 0.12 } else { 0.04 }) {
                let gap = if r.chance(0.5) { r.range(5, 100) * MS } else { r.range(30_000, 33_000) * MS };
                let at = t + gap + r.range(0, 999);
                posts.push(attempt(&mut r, at, &base, Mark::Retry));
            }
        } else {
            // An alert fires, is re-sent every 5 minutes while it fires, then resolves.
            let name = r.one(&["HighLatency", "DiskFillingUp", "PodCrashLooping", "Http5xxRate", "CertExpiring"]);
            let target = r.one(&["api-gateway", "db-01", "worker-pool", "ingress", "billing"]);
            let title = format!("[FIRING:1] {name} {target}");
            let text = format!("*Summary:* {name} on {target}\\n*Severity:* {}", r.one(&["warning", "critical"]));
            let (on, off) = (
                alert_props(&title, &text, "danger"),
                alert_props(&title.replace("FIRING", "RESOLVED"), &text, "good"),
            );
            let firing = template(Src::Hook, &users[1], &alerts, String::new(), "slack_attachment", on);
            let resolved = template(Src::Hook, &users[1], &alerts, String::new(), "slack_attachment", off);
            let repeats = r.below(4);
            let mut at = t;
            for k in 0..=repeats + 1 {
                let base = if k <= repeats { &firing } else { &resolved };
                posts.push(attempt(&mut r, at, base, if k == 0 || k > repeats { Mark::Plain } else { Mark::Legit }));
                if r.chance(if late { 0.15 } else { 0.04 }) {
                    let mut again = at + r.range(10_000, 60_000) * MS;
                    for _ in 0..if r.chance(0.3) { 2 } else { 1 } {
                        posts.push(attempt(&mut r, again, base, Mark::Retry));
                        again += r.range(20_000, 120_000) * MS;
                    }
                }
                at += 5 * MINUTE + r.range(0, 900) * MS;
            }
        }
    }
    for (&i, &at) in &reply_at {
        posts[i].update = posts[i].update.max(at);
    }
    // An alert firing again days later, a resolved notice, a second Jira double: a new intent that
    // equals an earlier row on all it wrote but what it minted.
    posts.sort_by_key(|p| p.at);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for p in posts.iter_mut() {
        let key = format!("{}|{}|{}|{}|{}|{}|{}", p.user, p.channel, p.root, p.kind, p.message, p.props, p.files);
        if !seen.insert(key) && p.mark == Mark::Plain {
            p.mark = Mark::Legit;
        }
    }
    // The rows' later life, and the old versions `SqlPostStore.Update` inserts on an edit or a pin.
    let mut history: Vec<Post> = Vec::new();
    for p in posts.iter_mut() {
        let by_hand = p.src == Src::Human;
        if p.mark == Mark::Retry {
            if by_hand && r.chance(0.45) {
                let (at, by) = (p.create + r.range(60, 600) * 1_000, p.user.clone());
                delete(p, at, &by);
            } else if p.src == Src::Bot && r.chance(0.3) {
                delete(p, p.create + r.range(120, 3_600) * 1_000, &admin);
            }
            continue;
        }
        if !by_hand && p.src != Src::Hook {
            continue;
        }
        if r.chance(if by_hand { 0.3 } else { 0.1 }) {
            p.reactions = true;
            p.update = p.update.max(p.create + r.range(20, 6 * 3_600) * 1_000);
        }
        if by_hand && r.chance(0.04) {
            let at = p.create + r.range(30, 1_800) * 1_000;
            history.push(Post { reactions: false, ..old_version(&mut r, p, at) });
            p.message =
                format!("{} {}", p.message, r.one(&["(fixed link)", "edit: never mind", "nvm, found it", "typo"]));
            p.edit = at;
            p.update = p.update.max(at);
        }
        if by_hand && r.chance(0.015) {
            let (at, by) = (p.create + r.range(60, 3 * 3_600) * 1_000, p.user.clone());
            delete(p, at, &by);
        } else if r.chance(if by_hand { 0.012 } else { 0.02 }) {
            let at = p.create + r.range(600, 30 * 3_600) * 1_000;
            history.push(old_version(&mut r, p, at));
            p.pinned = true;
            p.update = p.update.max(at);
        }
    }
    posts.extend(history);
    posts.sort_by_key(|p| p.at);
    let mut f = Fixture::new("posts", &COLUMNS.split_whitespace().collect::<Vec<_>>());
    for p in &posts {
        f.push(&[
            ("id", V::t(&p.id)),
            ("createat", V::I(p.create)),
            ("updateat", V::I(p.update)),
            ("deleteat", V::I(p.delete)),
            ("userid", V::t(&p.user)),
            ("channelid", V::t(&p.channel)),
            ("rootid", V::t(&p.root)),
            ("originalid", V::t(&p.original)),
            ("message", V::t(&p.message)),
            ("type", V::t(p.kind)),
            ("props", V::t(&p.props)),
            ("hashtags", V::t(&p.hashtags)),
            ("filenames", V::t("[]")),
            ("fileids", V::t(&p.files)),
            ("hasreactions", V::B(p.reactions)),
            ("editat", V::I(p.edit)),
            ("ispinned", V::B(p.pinned)),
            ("remoteid", V::opt_t(p.remote)),
        ]);
        f.mark(&p.id, p.mark);
    }
    f
}
