//! Flarum (PHP, Laravel's Illuminate database; 1.x runs on MySQL and MariaDB only): `posts`, the first posts and
//! replies (`CommentPost`) that `StartDiscussionHandler` and `PostReplyHandler` write for the composer and the JSON:API
//! (`POST /api/discussions`, `POST /api/posts`, bots with an API key), and the event posts the discussion controls
//! write (`discussionRenamed`; `discussionTagged`, `discussionLocked`, `discussionStickied` from the bundled tags, lock
//! and sticky extensions; `discussionMerged` from fof/merge-discussions): the support forum of a self-hosted app with
//! the default bundle, approval in its Showcase tag, a release bot and a weekly-thread bot, over 60 days.
//! Read: flarum/framework (tag v1.8.7, 5bd7e5d) framework/core/migrations/install.dump (the table a fresh install
//! loads), 2015_02_24_000000_create_posts_table, 2015_10_24_194000_add_ip_address_to_posts,
//! 2017_04_07_114138_add_is_private_to_posts, 2018_01_18_135000_change_posts_rename_columns,
//! 2018_01_18_135100_change_posts_add_foreign_keys, 2018_09_15_043621_add_posts_indices,
//! 2019_10_12_195349_change_posts_add_discussion_foreign_key, 2021_04_18_145100 (mediumtext), 2022_07_14_000000 and
//! 000001 (the type indexes); src/Post/Post.php (`creating`: `type`, and `number` as an `IFNULL(MAX(number), 0) + 1`
//! subquery in the INSERT), CommentPost.php (`reply`, `revise`, `hide`, `restore`), AbstractEventPost.php (JSON
//! content), DiscussionRenamedPost.php (`saveAfter`), PostCreationThrottler.php (10 s per user, `postWithoutThrottle`),
//! Api/Middleware/ThrottleApi.php, Command/PostReplyHandler.php, Command/EditPostHandler.php, Access/PostPolicy.php
//! (own edits and hides until someone replies), Discussion/Command/StartDiscussionHandler.php,
//! Discussion/Discussion.php (`start`, `mergePost`), Database/DatabaseServiceProvider.php and AbstractModel.php
//! (private checkers, model defaults), Queue/QueueServiceProvider.php (the sync queue: mail goes out inside the
//! request), Notification/NotificationSyncer.php, Formatter/Formatter.php, Install/Steps/EnableBundledExtensions.php
//! and WriteSettings.php, js/src/forum/components/ReplyComposer.js and ComposerBody.js; extensions/approval
//! (migrations, extend.php, Listener/UnapproveNewContent.php, ApproveContent.php), sticky, lock, tags
//! (`src/Post/*Post.php`), mentions (ConfigureMentions.php), emoji and markdown (extend.php).
//! FriendsOfFlarum/merge-discussions (8086e08) src/Commands/MergeDiscussionHandler.php, Posts/DiscussionMergePost.php,
//! Listeners/CreatePostWhenMerged.php, js/src/forum/components/DiscussionMergeModal.js. Columns, index names and
//! stored content (`<t><p>..</p></t>`; `<r>` with `POSTMENTION`, `URL`, `C`, `CODE`, `E`; emoji as `&#128077;`) checked
//! against Flarum 1.8 dumps found by code search. Issues: flarum/framework#1808 (the reply is saved, then the SMTP
//! timeout fails the request and the composer keeps the text as if nothing was posted), #978 and #2096 (posting waits
//! for notification mail; the queue is sync unless a worker extension is installed), #2612 and #3350 (Duplicate entry
//! for `posts_discussion_id_number_unique` "when two posts are saved at the same time"), #1368 (two clicks on Start a
//! Discussion, 0.7), #1938 (the throttle bypass permission).
//! On a create: `id` from AUTO_INCREMENT (a failed insert burns one); `discussion_id` the discussion replied to, or the
//! one `StartDiscussionHandler` just made; `number` the discussion's highest present `number` + 1 (1 for a first
//! post); `created_at` `Carbon::now()` at whole seconds; `user_id` the actor; `type` "comment"; `content` the
//! s9e/TextFormatter XML of what the composer sent (a mention carries the quoted post's id, number and discussion);
//! `ip_address` the request's; `edited_*` and `hidden_*` NULL; with approval, `is_approved` 0 and `is_private` 1 when
//! the actor may not post without approval (here: members in Showcase), else 1 and 0. Event posts: `content` JSON
//! (PHP's `json_encode`: `\/`, `\uXXXX`), no `ip_address`, `is_private` 0 by default, `is_approved` 1 (the model
//! default). A rename, tag, lock or sticky event right after one of its kind by the same user is folded into that one
//! (or deletes it when it reverts it), and a toggle sent again changes nothing: event posts are never doubled.
//! Later: typo fixes by the author while the post is still the last (`edited_at`, `edited_user_id`), a moderator's
//! edit; own hides under the same rule and moderators' hides (`hidden_at`, `hidden_user_id`; hiding an unapproved
//! post approves it silently); approval (`is_approved` 1, `is_private` 0); "delete forever" (the row goes; a discussion
//! deleted for good takes its posts); merges (fof/merge-discussions, by date: the posts move, every post of the target
//! is numbered again by `created_at`, a `discussionMerged` post is appended, the merged discussion's tag events go
//! with it); locks stop replies; pending approval hides a discussion from everyone but staff.
//! Retries (about 1.3% of posts): the composer disables itself only at the next redraw, so Ctrl+Enter or a double tap
//! can send twice 20-60 ms apart; both pass the throttle because the first has not inserted yet, and half the doubled
//! replies then die on the unique `number`. A reply whose notification mail hung until the SMTP timeout (two relay
//! outages) fails after ~30 s with the post saved, and people press Post again, some twice. A response lost on a
//! phone or a slow line is re-sent 11-60 s later (inside 10 s the throttle answers 429), or minutes later after the
//! error; a phone's retry may come from a new address. A retried first post makes a second discussion. The release
//! bot's `curl --retry` re-sent one announcement 1-3 s later after a 502 during a deploy (an admin's key is not
//! throttled). Three retries in the last day. Extra replies are hidden or edited into a note by their author, hidden
//! or deleted by moderators, or left; extra discussions are merged, deleted, hidden (the post unchanged) or left; in
//! Showcase the moderator deletes the copy in the approval queue. Hidden: two stock thanks re-sent 25-50 minutes
//! later from a composer left open after the error, which is also how people thank a second helper in their thread.
//! Legitimate repeats: stock replies ("Thanks!", "+1", "Same here.", the thumbs-up) in many discussions, runs of "+1"
//! through feature requests 20-120 s apart, the same thanks to a second helper, bumps; the weekly bot's identical
//! first post; questions cross-posted into two tags (some merged later); spam runs deleted only in part; moderators'
//! routine events (Support+Solved, locks, stickies) with the same JSON again and again. Plain near-repeats: mentions
//! of different posts, first posts rewritten, two people's same question merged.
//! Guessed: the community, its rates and rhythms, who answers and how; the share of replies that mail someone; the
//! outages; how often and how fast people re-send; what they and the moderators do with doubles; the bots'
//! schedules; the approval and merge habits.
use std::collections::{HashMap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, sentence, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql];

/// The table as a 1.8 install leaves it (install.dump, the two type indexes, flarum-approval's column; no table
/// prefix), without the foreign keys to `discussions` and `users`.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => r#"CREATE TABLE `posts` (
  `id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `discussion_id` int(10) unsigned NOT NULL,
  `number` int(10) unsigned DEFAULT NULL,
  `created_at` datetime NOT NULL,
  `user_id` int(10) unsigned DEFAULT NULL,
  `type` varchar(100) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `content` mediumtext COLLATE utf8mb4_unicode_ci DEFAULT NULL COMMENT ' ',
  `edited_at` datetime DEFAULT NULL,
  `edited_user_id` int(10) unsigned DEFAULT NULL,
  `hidden_at` datetime DEFAULT NULL,
  `hidden_user_id` int(10) unsigned DEFAULT NULL,
  `ip_address` varchar(45) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `is_private` tinyint(1) NOT NULL DEFAULT 0,
  `is_approved` tinyint(1) NOT NULL DEFAULT 1,
  PRIMARY KEY (`id`),
  UNIQUE KEY `posts_discussion_id_number_unique` (`discussion_id`,`number`),
  KEY `posts_edited_user_id_foreign` (`edited_user_id`),
  KEY `posts_hidden_user_id_foreign` (`hidden_user_id`),
  KEY `posts_discussion_id_number_index` (`discussion_id`,`number`),
  KEY `posts_discussion_id_created_at_index` (`discussion_id`,`created_at`),
  KEY `posts_user_id_created_at_index` (`user_id`,`created_at`),
  KEY `posts_type_index` (`type`),
  KEY `posts_type_created_at_index` (`type`,`created_at`),
  FULLTEXT KEY `content` (`content`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci"#
            .to_string(),
        Engine::Postgres | Engine::Sqlite => unreachable!("Flarum 1.x runs on MySQL and MariaDB only"),
    }
}

const COLUMNS: &str = "id discussion_id number created_at user_id type content edited_at edited_user_id hidden_at \
    hidden_user_id ip_address is_private is_approved";

const NOW: i64 = T0;
const DAYS: i64 = 60;
const START: i64 = T0 - DAYS * DAY;
/// The last post and discussion ids before the window.
const P0: i64 = 61_374;
const D0: i64 = 4_127;
/// Posts per hour of the day (UTC), relative: Europe, then the Americas.
const RHYTHM: [i64; 24] = [5, 4, 3, 2, 2, 3, 4, 6, 8, 9, 10, 10, 10, 11, 12, 13, 13, 13, 12, 12, 11, 9, 8, 6];
/// The first person's post after each of these lost its response on a phone and was re-sent.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 9 * HOUR, NOW - 3 * HOUR];
/// When the SMTP relay hung (a changed password, later a slow relay): from START, and for how long.
const SMTP_DOWN: [(i64, i64); 2] =
    [(17 * DAY + 14 * HOUR + 10 * MINUTE, 5 * HOUR + 30 * MINUTE), (43 * DAY + 9 * HOUR + 5 * MINUTE, 90 * MINUTE)];

const GENERAL: i64 = 1;
const SUPPORT: i64 = 2;
const NEWS: i64 = 3;
const DEV: i64 = 4;
const SHOWCASE: i64 = 5;
const SOLVED: i64 = 6;
const FEEDBACK: i64 = 7;
const OFFTOPIC: i64 = 8;

/// Users: the admin, four moderators, the two bots, 16 regulars who answer a lot, then the members by id.
const ADMIN: usize = 0;
const RELEASE_BOT: usize = 5;
const WEEKLY_BOT: usize = 6;
const REGULARS: usize = 7;
const MEMBERS: usize = 23;
const N_MEMBERS: usize = 280;

const NAMES: &[&str] = &[
    "alex", "marta", "jonas", "priya", "kenji", "lucas", "sofia", "omar", "lena", "tomasz", "nina", "rajesh", "eva",
    "ivan", "chen", "ana", "ben", "mia", "leo", "sara", "yusuf", "hannah", "pedro", "aiko", "felix", "greta", "noah",
    "ines", "karl", "zoe",
];
const CARRIERS: &[&str] = &["176.112", "37.201", "172.58", "2607:fb90", "94.119", "188.29", "2a01:598"];
const APPS: &[&str] = &[
    "Docker image",
    "nginx reverse proxy",
    "LDAP login",
    "backup job",
    "S3 storage",
    "mail notifications",
    "search index",
    "mobile app",
    "API token",
    "upgrade to 3.4",
    "Postgres migration",
    "SSO with Keycloak",
    "webhook",
    "thumbnail generation",
    "CSV import",
    "dark theme",
    "plugin loader",
    "cron worker",
];
const SYMPTOMS: &[&str] = &[
    "fails after upgrade",
    "returns 502",
    "is very slow",
    "not working",
    "throws a 500 error",
    "keeps restarting",
    "times out",
    "shows a blank page",
    "ignores the config",
    "loses settings",
];
const IDEAS: &[&str] = &["Feature request:", "Suggestion:", "Idea:", "Request:"];
const FEATURES: &[&str] = &["bulk export", "keyboard shortcuts", "2FA", "a read-only role", "scheduled backups"];
const TAILS: &[&str] = &["(Docker)", "on Ubuntu 24.04", "after upgrade", "behind Traefik", "(nginx/Traefik)", "[3.4]"];
const LOGS: &[&str] = &[
    "Error: connect ECONNREFUSED 127.0.0.1:5432",
    "upstream timed out (110: Connection timed out) while reading response header from upstream",
    "PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted",
    "app exited with code 137",
    "SQLSTATE[HY000] [2002] Connection refused",
    "WARN worker: job failed after 3 attempts",
    "permission denied: /var/lib/app/data/config.yml",
];
const CMDS: &[&str] = &["docker compose logs -f app", "chown -R 1000:1000 data", "app doctor --fix"];
const THANKS: &[&str] = &["Thanks!", "Thank you!", "Thanks, that fixed it!", "Solved, thanks.", "Thanks a lot!"];
const ECHO: &[&str] = &["+1", "Same here.", "Same problem here.", "&#128077;", "Thanks!"];
const BUMPS: &[&str] = &["Any update on this?", "bump", "Anyone?", "Any ideas?"];
const DUP_NOTES: &[&str] = &[
    "Double post, sorry.",
    "Oops, posted twice.",
    "(duplicate, please delete)",
    "Sorry, double post - the page hung.",
];
const WEEKLY: &str = "<r><p>What are you working on this week? Share your progress, screenshots and questions below.\
    </p>\n\n<p>Older threads are under <URL url=\"https://forum.homelab-app.org/t/weekly\">\
    https://forum.homelab-app.org/t/weekly</URL></p></r>";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Who {
    Admin,
    Mod,
    Bot,
    Regular,
    Member,
    Spammer,
}

struct User {
    id: i64,
    name: String,
    who: Who,
    /// The address at home, or the bot's server.
    home: String,
    carrier: usize,
    /// How often this person posts from a phone.
    mobile: f64,
    /// Registered then (members with the highest ids joined during the window).
    since: i64,
    /// The stock reply this person uses.
    phrase: usize,
}

struct Disc {
    /// Set for a discussion from before the window; the replay numbers the new ones.
    id: i64,
    tags: Vec<i64>,
    author: usize,
    title: String,
    at: i64,
    /// The highest `number` it had before the window.
    old_max: i64,
}

#[derive(Clone, PartialEq)]
enum Body {
    Comment(String),
    /// A reply that quotes a post of the discussion: made into a `Comment` when the composer sends it.
    Mention(String),
    Renamed(String, String),
    Tagged(Vec<i64>, Vec<i64>),
    Locked(bool),
    Stickied(bool),
    Merged(usize, Vec<String>),
}

impl Body {
    fn kind(&self) -> &'static str {
        match self {
            Body::Comment(_) | Body::Mention(_) => "comment",
            Body::Renamed(..) => "discussionRenamed",
            Body::Tagged(..) => "discussionTagged",
            Body::Locked(_) => "discussionLocked",
            Body::Stickied(_) => "discussionStickied",
            Body::Merged(..) => "discussionMerged",
        }
    }

    /// What the `content` column holds: the XML, or the event's `json_encode`.
    fn content(&self) -> String {
        let ids = |v: &[i64]| format!("[{}]", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","));
        match self {
            Body::Comment(x) | Body::Mention(x) => x.clone(),
            Body::Renamed(a, b) => format!("[{},{}]", json_str(a), json_str(b)),
            Body::Tagged(a, b) => format!("[{},{}]", ids(a), ids(b)),
            Body::Locked(x) => format!("{{\"locked\":{x}}}"),
            Body::Stickied(x) => format!("{{\"sticky\":{x}}}"),
            Body::Merged(n, titles) => {
                let titles: Vec<String> = titles.iter().map(|t| json_str(t)).collect();
                format!("{{\"count\":{n},\"titles\":[{}]}}", titles.join(","))
            }
        }
    }
}

/// A create request as the server got it; the attempts of one request share `grp`.
#[derive(Clone)]
struct Req {
    at: i64,
    user: usize,
    disc: usize,
    first: bool,
    body: Body,
    ip: Option<String>,
    grp: usize,
    hide: bool,
    /// Lost the race for `number`: the INSERT failed on the unique key (its id is burnt).
    fail: bool,
}

#[derive(Clone)]
enum Change {
    Append(String),
    Replace(String),
}

#[derive(Clone)]
enum Do {
    Create(usize),
    /// (request, by, as the author, change)
    Edit(usize, usize, bool, Change),
    /// (request, by, as the author)
    Hide(usize, usize, bool),
    Purge(usize),
    Approve(usize),
    /// A discussion deleted for good, with its posts.
    Drop(usize),
    /// (from, into, by)
    Merge(usize, usize, usize),
}

struct Act {
    t: i64,
    what: Do,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Force {
    Maybe,
    No,
    Network,
    Hidden,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Author,
    Helper,
    Other,
}

fn staff(u: &User) -> bool {
    matches!(u.who, Who::Admin | Who::Mod | Who::Bot)
}

/// `json_encode` with PHP's defaults: slashes and non-ASCII escaped.
fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '/' => o.push_str("\\/"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c if c.is_ascii() => o.push(c),
            c => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf).iter() {
                    o.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    o.push('"');
    o
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn stock(s: &str) -> Body {
    Body::Comment(format!("<t><p>{s}</p></t>"))
}

fn expo(r: &mut Rng, mean: i64) -> i64 {
    (-r.unit().max(1e-9).ln() * mean as f64) as i64
}

/// Some time after `t`, mostly in the hours people post.
fn after(r: &mut Rng, t: i64, mean: i64) -> i64 {
    let mut at = t + expo(r, mean);
    for _ in 0..4 {
        if r.below(13) < RHYTHM[(at / HOUR % 24) as usize] as u64 {
            break;
        }
        at = t + expo(r, mean);
    }
    at + r.below(1_000_000) as i64
}

fn when(r: &mut Rng, d0: i64) -> i64 {
    d0 + r.weighted(&RHYTHM) as i64 * HOUR + r.range(0, HOUR - 1)
}

fn smtp_down(t: i64) -> bool {
    SMTP_DOWN.iter().any(|&(from, len)| (START + from..START + from + len).contains(&t))
}

/// A post as the formatter stores it: `<t>` for plain text, `<r>` once a tag (a link, code, an emoticon) is in it.
fn compose(r: &mut Rng, paras: usize, extras: f64) -> String {
    let mut blocks: Vec<String> = Vec::new();
    for _ in 0..paras {
        let n = 6 + r.below(14) as usize;
        blocks.push(format!("<p>{}</p>", esc(&sentence(r, n))));
    }
    let rich = r.chance(extras);
    if rich {
        match r.below(4) {
            0 => {
                let n = 1 + r.below(3);
                let lines: Vec<String> = (0..n).map(|_| esc(r.one(LOGS))).collect();
                blocks.push(format!("<CODE><s>```</s><i>\n</i>{}<i>\n</i><e>```</e></CODE>", lines.join("\n")));
            }
            1 => {
                let url = format!("https://docs.homelab-app.org/{}", r.pick(WORDS));
                blocks.push(format!("<p>See <URL url=\"{url}\">{url}</URL></p>"));
            }
            2 => {
                let cmd = esc(r.one(CMDS));
                blocks.push(format!("<p>Try <C><s>`</s>{cmd}<e>`</e></C> first.</p>"));
            }
            _ => {
                if let Some(last) = blocks.last_mut() {
                    last.truncate(last.len() - 4);
                    last.push_str(" <E>:)</E></p>");
                }
            }
        }
    }
    let mut out = String::from(if rich { "<r>" } else { "<t>" });
    for (i, b) in blocks.iter().enumerate() {
        if i > 0 {
            out.push_str(if b.starts_with("<CODE>") { "\n" } else { "\n\n" });
        }
        out.push_str(b);
    }
    out.push_str(if rich { "</r>" } else { "</t>" });
    out
}

fn release_notes(ver: &str) -> String {
    let url = format!("https://github.com/homelab-app/app/releases/tag/v{ver}");
    format!(
        "<r><p>Version {ver} is out.</p>\n\n<p>Changelog: <URL url=\"{url}\">{url}</URL></p>\n\n<p>Upgrade with \
         <C><s>`</s>docker compose pull<e>`</e></C> and restart the stack.</p></r>"
    )
}

struct Sim {
    r: Rng,
    users: Vec<User>,
    discs: Vec<Disc>,
    old: Vec<usize>,
    support: Vec<usize>,
    feedback: Vec<usize>,
    reqs: Vec<Req>,
    acts: Vec<Act>,
    groups: usize,
    late: usize,
    hidden: usize,
    spammers: i64,
}

impl Sim {
    fn new(mut r: Rng) -> Sim {
        let users = people(&mut r);
        let mut s = Sim {
            r,
            users,
            discs: Vec::new(),
            old: Vec::new(),
            support: Vec::new(),
            feedback: Vec::new(),
            reqs: Vec::new(),
            acts: Vec::new(),
            groups: 0,
            late: 0,
            hidden: 0,
            spammers: 0,
        };
        s.old_discussions();
        s
    }

    /// The discussions from before the window that still get replies.
    fn old_discussions(&mut self) {
        let mut ids: HashSet<i64> = HashSet::new();
        while ids.len() < 320 {
            let id = if self.r.chance(0.7) { self.r.range(D0 - 1_500, D0 - 1) } else { self.r.range(1, D0 - 1) };
            ids.insert(id);
        }
        let mut ids: Vec<i64> = ids.into_iter().collect();
        ids.sort_unstable();
        for id in ids {
            let tag = [GENERAL, SUPPORT, DEV, FEEDBACK, OFFTOPIC][self.r.weighted(&[20, 45, 8, 15, 8])];
            let author = MEMBERS + self.r.below(N_MEMBERS as u64 / 2) as usize;
            let title = self.title(tag);
            let at = START - (D0 - id) * 5 * HOUR;
            let old_max = 1 + self.r.skewed(90) as i64;
            self.discs.push(Disc { id, tags: vec![tag], author, title, at, old_max });
            self.old.push(self.discs.len() - 1);
        }
    }

    fn group(&mut self) -> usize {
        self.groups += 1;
        self.groups
    }

    fn act(&mut self, t: i64, what: Do) {
        if t < NOW {
            self.acts.push(Act { t, what });
        }
    }

    fn req(&mut self, q: Req) -> usize {
        let k = self.reqs.len();
        self.act(q.at, Do::Create(k));
        self.reqs.push(q);
        k
    }

    fn moderator(&mut self) -> usize {
        1 + self.r.weighted(&[5, 2, 2, 1])
    }

    fn regular(&mut self) -> usize {
        REGULARS + self.r.skewed(16) as usize
    }

    fn helper(&mut self) -> usize {
        if self.r.chance(0.3) { 1 + self.r.weighted(&[3, 3, 2, 2]) } else { self.regular() }
    }

    fn member(&mut self, t: i64) -> usize {
        for _ in 0..8 {
            let u = MEMBERS + self.r.skewed(N_MEMBERS as u64) as usize;
            if self.users[u].since <= t {
                return u;
            }
        }
        MEMBERS
    }

    fn mobile_ip(&mut self, u: usize) -> String {
        let c = CARRIERS[self.users[u].carrier];
        if c.contains(':') {
            let (a, b, x) = (self.r.below(0x10000), self.r.below(0x10000), self.r.below(0x10000));
            format!("{c}:{a:x}:{b:x}::{x:x}")
        } else {
            format!("{c}.{}.{}", self.r.range(0, 255), self.r.range(1, 254))
        }
    }

    /// The address a post comes from, and whether it is a phone's.
    fn ip(&mut self, u: usize) -> (String, bool) {
        let p = self.users[u].mobile;
        if self.r.chance(p) { (self.mobile_ip(u), true) } else { (self.users[u].home.clone(), false) }
    }

    fn new_disc(&mut self, at: i64, author: usize, tags: Vec<i64>, title: String) -> usize {
        self.discs.push(Disc { id: 0, tags, author, title, at, old_max: 0 });
        self.discs.len() - 1
    }

    fn review(&self, d: usize, u: usize) -> bool {
        self.discs[d].tags.contains(&SHOWCASE) && !staff(&self.users[u])
    }

    fn title(&mut self, tag: i64) -> String {
        let r = &mut self.r;
        match tag {
            FEEDBACK => format!("{} {} for the {}", r.pick(IDEAS), r.pick(FEATURES), r.pick(APPS)),
            DEV => format!("Plugin API: {} {} hook", r.pick(WORDS), r.pick(WORDS)),
            SHOWCASE => format!("My {} setup with the {}", r.pick(WORDS), r.pick(APPS)),
            OFFTOPIC => format!("What {} do you use?", r.pick(WORDS)),
            _ => format!("{} {}", r.pick(APPS), r.pick(SYMPTOMS)),
        }
    }

    fn event(&mut self, at: i64, user: usize, d: usize, body: Body) {
        let grp = self.group();
        self.req(Req { at, user, disc: d, first: false, body, ip: None, grp, hide: false, fail: false });
    }

    /// A person's post from the composer, and the extra posts its lost responses made.
    fn post(&mut self, at: i64, user: usize, disc: usize, first: bool, body: Body, force: Force) -> usize {
        let (ip, mobile) = self.ip(user);
        let grp = self.group();
        let q = Req { at, user, disc, first, body, ip: Some(ip.clone()), grp, hide: false, fail: false };
        let orig = self.req(q.clone());
        if self.review(disc, user) {
            let ok = at + self.r.range(3_600, 30 * 3_600) * SECOND;
            self.act(ok, Do::Approve(orig));
        }
        let mut force = force;
        if force == Force::Maybe && self.late < LATE.len() && at > LATE[self.late] && at < NOW - 10 * MINUTE {
            self.late += 1;
            force = Force::Network;
        }
        // (delay, address, failed, hidden)
        let mut tries: Vec<(i64, String, bool, bool)> = Vec::new();
        match force {
            Force::No => {}
            Force::Hidden => {
                let d = self.r.range(25 * 60, 50 * 60) * SECOND + self.r.below(1_000_000) as i64;
                tries.push((d, ip, false, true));
            }
            Force::Network => tries.push(self.network(ip, mobile, user)),
            Force::Maybe => {
                let mails = !first && self.r.chance(0.6);
                if mails && smtp_down(at) {
                    // The post is saved, the subscribers' mail hangs until the SMTP timeout, the request fails and
                    // the composer still holds the text.
                    if self.r.chance(0.55) {
                        let mut d = 0;
                        loop {
                            d += 30 * SECOND + self.r.range(300_000, 1_500_000) + self.r.range(2, 25) * SECOND;
                            tries.push((d, ip.clone(), false, false));
                            if tries.len() >= 2 || !self.r.chance(0.3) {
                                break;
                            }
                        }
                    }
                } else if self.r.chance(0.0015) {
                    let fail = !first && self.r.chance(0.5);
                    tries.push((self.r.range(20_000, 60_000), ip, fail, false));
                } else if self.r.chance(if mobile { 0.015 } else { 0.005 }) {
                    tries.push(self.network(ip, mobile, user));
                }
            }
        }
        for (delay, ip, fail, hide) in tries {
            let t = at + delay;
            let d = if first {
                let (tags, title) = (self.discs[disc].tags.clone(), self.discs[disc].title.clone());
                self.new_disc(t, user, tags, title)
            } else {
                disc
            };
            let x = self.req(Req { at: t, disc: d, ip: Some(ip), hide, fail, ..q.clone() });
            if !fail && !hide {
                self.fate(x, orig);
            }
        }
        orig
    }

    /// A response lost on the way: the person tries again once the error shows, past the 10 s throttle.
    fn network(&mut self, ip: String, mobile: bool, user: usize) -> (i64, String, bool, bool) {
        let secs = if self.r.chance(0.7) { self.r.range(11, 60) } else { self.r.range(60, 240) };
        let d = secs * SECOND + self.r.below(1_000_000) as i64;
        let ip = if mobile && self.r.chance(0.3) { self.mobile_ip(user) } else { ip };
        (d, ip, false, false)
    }

    /// What becomes of a retry's extra post.
    fn fate(&mut self, x: usize, orig: usize) {
        let (t, user, first, dx) = (self.reqs[x].at, self.reqs[x].user, self.reqs[x].first, self.reqs[x].disc);
        let d0 = self.reqs[orig].disc;
        let m = self.moderator();
        if self.review(dx, user) {
            // Both wait in the approval queue: the moderator approves one and deletes the other.
            let at = t + self.r.range(3_600, 30 * 3_600) * SECOND;
            self.act(at, if first { Do::Drop(dx) } else { Do::Purge(x) });
            return;
        }
        let y = self.r.below(100);
        if first {
            let at = t + self.r.range(1_200, 30 * 3_600) * SECOND + self.r.below(1_000_000) as i64;
            if y < 30 {
                self.act(at, Do::Merge(dx, d0, m));
            } else if y < 55 {
                self.act(at, Do::Drop(dx));
            }
            // Else the discussion is hidden or left: the post itself does not change.
            return;
        }
        let own = t + self.r.range(60, 90 * 60) * SECOND + self.r.below(1_000_000) as i64;
        let later = t + self.r.range(3_600, 24 * 3_600) * SECOND + self.r.below(1_000_000) as i64;
        if y < 35 {
            self.act(own, Do::Hide(x, user, true));
            // If someone replied first, the author cannot hide it any more; a moderator does.
            let fallback = own + self.r.range(2 * 3_600, 20 * 3_600) * SECOND;
            self.act(fallback, Do::Hide(x, m, false));
        } else if y < 50 {
            let note = format!("<t><p>{}</p></t>", esc(self.r.one(DUP_NOTES)));
            self.act(own, Do::Edit(x, user, true, Change::Replace(note)));
        } else if y < 65 {
            self.act(later, Do::Hide(x, m, false));
        } else if y < 75 {
            self.act(later, Do::Hide(x, m, false));
            let gone = later + self.r.range(3_600, 48 * 3_600) * SECOND;
            self.act(gone, Do::Purge(x));
        }
    }

    fn reply_body(&mut self, role: Role, tag: i64, user: usize) -> (Body, bool) {
        let habit = self.users[user].phrase;
        let x = self.r.below(100);
        let n = 6 + self.r.below(14) as usize;
        let r = &mut self.r;
        match role {
            Role::Author if x < 25 => (stock(THANKS[habit % THANKS.len()]), true),
            Role::Author if x < 60 => (Body::Mention(sentence(r, n)), false),
            Role::Author => (Body::Comment(compose(r, 1 + usize::from(x > 85), 0.1)), false),
            Role::Helper if x < 35 => (Body::Mention(sentence(r, n)), false),
            Role::Helper => (Body::Comment(compose(r, 1 + usize::from(x > 70), 0.45)), false),
            Role::Other if tag == FEEDBACK && x < 22 => (stock("+1"), true),
            Role::Other if x < 8 => (stock(ECHO[habit % ECHO.len()]), true),
            Role::Other if x < 38 => (Body::Mention(sentence(r, n)), false),
            Role::Other => (Body::Comment(compose(r, 1 + usize::from(x > 80), 0.15)), false),
        }
    }

    /// The replies to a discussion, from `t0` on; the time of the last.
    fn thread(&mut self, d: usize, t0: i64, n: usize) -> i64 {
        let (author, tag) = (self.discs[d].author, self.discs[d].tags[0]);
        let talks = self.users[author].who != Who::Bot;
        let mut t = t0;
        let mut prev = author;
        let mut helper = self.helper();
        let mut bumped = false;
        for k in 0..n {
            let mean = if k == 0 { 2 * HOUR } else { 3 * HOUR + k as i64 * HOUR / 2 };
            let next = after(&mut self.r, t, mean);
            if tag == SUPPORT && !bumped && next - t > 26 * HOUR && talks && self.r.chance(0.6) {
                // Nobody answered for a day: the author bumps it, some twice with the same words.
                let b = t + self.r.range(20 * 3_600, 26 * 3_600) * SECOND + self.r.below(1_000_000) as i64;
                let body = stock(self.r.one(BUMPS));
                self.post(b, author, d, false, body.clone(), Force::Maybe);
                let b2 = b + self.r.range(20 * 3_600, 40 * 3_600) * SECOND;
                if b2 < next && self.r.chance(0.3) {
                    self.post(b2, author, d, false, body, Force::Maybe);
                }
                bumped = true;
                prev = author;
            }
            t = next;
            if t >= NOW - MINUTE {
                break;
            }
            let (user, role) = if tag == SUPPORT && talks {
                if prev != author {
                    if self.r.chance(0.55) { (author, Role::Author) } else { (self.helper(), Role::Helper) }
                } else {
                    if self.r.chance(0.35) {
                        helper = self.helper();
                    }
                    (helper, Role::Helper)
                }
            } else {
                let u = match self.r.below(10) {
                    0 if talks => author,
                    1 | 2 => self.regular(),
                    _ => self.member(t),
                };
                (u, if u == author { Role::Author } else { Role::Other })
            };
            if user == prev && role != Role::Author {
                continue;
            }
            let (body, short) = self.reply_body(role, tag, user);
            let force = if short && role == Role::Author && self.hidden < 2 && self.r.chance(0.08) {
                self.hidden += 1;
                Force::Hidden
            } else {
                Force::Maybe
            };
            let k = self.post(t, user, d, false, body.clone(), force);
            if !short && self.r.chance(0.06) {
                let at = t + self.r.range(40, 1_200) * SECOND + self.r.below(1_000_000) as i64;
                let m = 4 + self.r.below(8) as usize;
                let text = format!("EDIT: {}", sentence(&mut self.r, m));
                self.act(at, Do::Edit(k, user, true, Change::Append(text)));
            }
            if self.r.chance(0.004) {
                let at = t + self.r.range(3_600, 48 * 3_600) * SECOND;
                let m = self.moderator();
                self.act(at, Do::Edit(k, m, false, Change::Append("[Moderator: link removed]".to_string())));
            }
            if self.r.chance(0.004) {
                let at = t + self.r.range(120, 3_600) * SECOND;
                self.act(at, Do::Hide(k, user, true));
            } else if self.r.chance(0.003) {
                let at = t + self.r.range(1_800, 24 * 3_600) * SECOND;
                let m = self.moderator();
                self.act(at, Do::Hide(k, m, false));
            }
            if short && role == Role::Author && self.r.chance(0.25) {
                // The same thanks to the next person who helped.
                let t2 = t + self.r.range(30 * 60, 6 * 3_600) * SECOND + self.r.below(1_000_000) as i64;
                self.post(t2, user, d, false, body, Force::Maybe);
            }
            prev = user;
        }
        t
    }

    /// A new discussion from the composer, its replies and what moderators do to it.
    fn start(&mut self, t: i64) {
        let tag = [GENERAL, SUPPORT, DEV, SHOWCASE, FEEDBACK, OFFTOPIC][self.r.weighted(&[20, 42, 8, 6, 12, 8])];
        let author = if self.r.chance(0.15) { self.regular() } else { self.member(t) };
        let title = self.title(tag);
        let d = self.new_disc(t, author, vec![tag], title);
        let paras = 1 + self.r.below(3) as usize;
        let extras = if tag == SUPPORT { 0.45 } else { 0.2 };
        let body = Body::Comment(compose(&mut self.r, paras, extras));
        self.post(t, author, d, true, body, Force::Maybe);
        if tag == FEEDBACK {
            self.feedback.push(d);
        }
        if tag == SUPPORT {
            // Someone asked the same thing yesterday: a moderator merges the two.
            let near = |o: &usize| self.discs[*o].at > t - 2 * DAY && self.discs[*o].author != author;
            let prior = self.support.iter().rev().copied().find(near);
            if let Some(o) = prior
                && self.r.chance(0.02)
            {
                let m = self.moderator();
                let at = t + self.r.range(2 * 3_600, 30 * 3_600) * SECOND;
                self.act(at, Do::Merge(d, o, m));
            }
            self.support.push(d);
        }
        let mean = match tag {
            SUPPORT => 5.0,
            GENERAL => 6.0,
            DEV => 4.0,
            SHOWCASE => 3.0,
            FEEDBACK => 4.0,
            _ => 7.0,
        };
        let n = self.r.poisson(mean) + if self.r.chance(0.05) { 15 } else { 0 };
        // In Showcase nobody sees it before a moderator approves it.
        let t0 = if tag == SHOWCASE { t + 12 * HOUR } else { t };
        let last = self.thread(d, t0, n);
        self.events(d, t, last);
    }

    fn rename(&mut self, at: i64, user: usize, d: usize) {
        let old = self.discs[d].title.clone();
        let new = format!("{old} {}", self.r.pick(TAILS));
        self.discs[d].title = new.clone();
        self.event(at, user, d, Body::Renamed(old, new));
    }

    fn retag(&mut self, at: i64, user: usize, d: usize, new: Vec<i64>) {
        let old = std::mem::replace(&mut self.discs[d].tags, new.clone());
        self.event(at, user, d, Body::Tagged(old, new));
    }

    fn events(&mut self, d: usize, t: i64, last: i64) {
        let author = self.discs[d].author;
        if self.r.chance(0.03) {
            // Within the ten minutes `allow_renaming` gives the author.
            let at = t + self.r.range(60, 540) * SECOND + self.r.below(1_000_000) as i64;
            self.rename(at, author, d);
        }
        if self.discs[d].tags[0] == GENERAL && self.r.chance(0.08) {
            let at = t + self.r.range(600, 3 * 3_600) * SECOND + self.r.below(1_000_000) as i64;
            let m = self.moderator();
            self.retag(at, m, d, vec![SUPPORT]);
        }
        if self.discs[d].tags[0] == SUPPORT && self.r.chance(0.3) {
            let at = last + self.r.range(3_600, 48 * 3_600) * SECOND + self.r.below(1_000_000) as i64;
            let m = self.moderator();
            self.retag(at, m, d, vec![SUPPORT, SOLVED]);
        }
        if self.r.chance(0.015) {
            let at = t + self.r.range(3_600, 48 * 3_600) * SECOND + self.r.below(1_000_000) as i64;
            let m = self.moderator();
            self.rename(at, m, d);
        }
        if self.r.chance(0.06) {
            let at = last + self.r.range(3 * 86_400, 20 * 86_400) * SECOND + self.r.below(1_000_000) as i64;
            let m = self.moderator();
            self.event(at, m, d, Body::Locked(true));
        }
    }

    /// The weekly bot's thread, the same words every Monday.
    fn weekly(&mut self, t: i64) {
        let title = "Weekly thread: what are you working on?".to_string();
        let d = self.new_disc(t, WEEKLY_BOT, vec![GENERAL], title);
        self.post(t, WEEKLY_BOT, d, true, Body::Comment(WEEKLY.to_string()), Force::No);
        let n = 4 + self.r.poisson(6.0);
        self.thread(d, t, n);
    }

    /// The release bot (a CI job with an admin's API key) announces a release; the admin pins it.
    fn release(&mut self, t: i64, ver: &str, resent: bool, prev: Option<usize>) -> usize {
        // Every run comes from a fresh hosted runner.
        let (a, b, c) = (self.r.range(0, 255), self.r.range(0, 255), self.r.range(1, 254));
        let runner = format!("{}.{a}.{b}.{c}", self.r.one(&[4, 20, 40, 52]));
        self.users[RELEASE_BOT].home = runner.clone();
        let title = format!("Version {ver} released");
        let body = Body::Comment(release_notes(ver));
        let d = self.new_disc(t, RELEASE_BOT, vec![NEWS], title.clone());
        let k = self.post(t, RELEASE_BOT, d, true, body, Force::No);
        if resent {
            // The deploy reloaded php-fpm during the request: a 502 for a saved post, and `curl --retry` sends it
            // again a second later (an admin's key is not throttled). The admin hides the copy (the discussion's
            // `hidden_at`; the post stays as it is).
            let at = t + self.r.range(1_100_000, 3_200_000);
            let d2 = self.new_disc(at, RELEASE_BOT, vec![NEWS], title);
            let q = Req { at, disc: d2, ip: Some(runner), ..self.reqs[k].clone() };
            self.req(q);
        }
        let pin = t + self.r.range(5 * 60, 60 * 60) * SECOND + self.r.below(1_000_000) as i64;
        self.event(pin, ADMIN, d, Body::Stickied(true));
        if let Some(p) = prev {
            let at = pin + self.r.range(4, 20) * SECOND;
            self.event(at, ADMIN, p, Body::Stickied(false));
        }
        let lock = t + self.r.range(14 * 24, 16 * 24) * HOUR;
        self.event(lock, ADMIN, d, Body::Locked(true));
        let n = 3 + self.r.poisson(8.0);
        self.thread(d, t, n);
        d
    }

    /// A reply to a discussion from before the window; moderators lock some of those.
    fn necro(&mut self, t: i64) {
        let n = self.old.len() as u64;
        let i = (n - 1 - self.r.skewed(n)) as usize;
        let d = self.old[i];
        let user = self.member(t);
        let habit = self.users[user].phrase;
        let x = self.r.below(100);
        let body = if x < 25 {
            stock(ECHO[habit % ECHO.len()])
        } else if x < 35 {
            stock(self.r.one(BUMPS))
        } else if x < 55 {
            let m = 6 + self.r.below(14) as usize;
            Body::Mention(sentence(&mut self.r, m))
        } else {
            Body::Comment(compose(&mut self.r, 1, 0.2))
        };
        self.post(t, user, d, false, body, Force::Maybe);
        if self.r.chance(0.1) {
            let m = self.moderator();
            let at = t + self.r.range(3_600, 24 * 3_600) * SECOND;
            self.event(at, m, d, Body::Locked(true));
        }
    }

    /// Someone goes through the feature requests leaving "+1".
    fn spree(&mut self, t: i64) {
        let user = if self.r.chance(0.5) { self.regular() } else { self.member(t) };
        let open: Vec<usize> = self.feedback.iter().copied().filter(|&d| self.discs[d].at < t - HOUR).collect();
        if open.len() < 4 {
            return;
        }
        let mut done: Vec<usize> = Vec::new();
        let mut at = t;
        for _ in 0..3 + self.r.below(3) {
            let d = open[open.len() - 1 - self.r.skewed(open.len() as u64) as usize];
            if done.contains(&d) {
                continue;
            }
            done.push(d);
            self.post(at, user, d, false, stock("+1"), Force::Maybe);
            at += self.r.range(20, 120) * SECOND + self.r.below(1_000_000) as i64;
        }
    }

    /// The same question asked in two tags; moderators merge or delete the second, or leave it.
    fn cross(&mut self, t: i64) {
        let author = self.member(t);
        let title = self.title(SUPPORT);
        let body = Body::Comment(compose(&mut self.r, 2, 0.3));
        let d1 = self.new_disc(t, author, vec![SUPPORT], title.clone());
        self.post(t, author, d1, true, body.clone(), Force::Maybe);
        let t2 = t + self.r.range(60, 900) * SECOND + self.r.below(1_000_000) as i64;
        let other = if self.r.chance(0.6) { GENERAL } else { DEV };
        let d2 = self.new_disc(t2, author, vec![other], title);
        self.post(t2, author, d2, true, body, Force::Maybe);
        self.support.push(d1);
        let n = self.r.poisson(5.0);
        let last = self.thread(d1, t, n);
        self.events(d1, t, last);
        let m = self.moderator();
        let at = t2 + self.r.range(2 * 3_600, 24 * 3_600) * SECOND;
        match self.r.below(10) {
            0..=4 => self.act(at, Do::Merge(d2, d1, m)),
            5..=7 => self.act(at, Do::Drop(d2)),
            _ => {
                let n2 = self.r.poisson(1.5);
                self.thread(d2, t2, n2);
            }
        }
    }

    /// A spam account's run of identical discussions; moderators delete most of them for good.
    fn spam(&mut self, t: i64) {
        let id = 3_141 + self.spammers;
        self.spammers += 1;
        let (a, b, c) = (self.r.range(0, 255), self.r.range(0, 255), self.r.range(1, 254));
        let name = format!("{}{}", self.r.pick(&["bestdeals", "vpnpromo", "cryptotips"]), self.r.range(10, 99));
        let home = format!("45.{a}.{b}.{c}");
        self.users.push(User { id, name, who: Who::Spammer, home, carrier: 0, mobile: 0.0, since: t, phrase: 0 });
        let u = self.users.len() - 1;
        let url = format!("https://deals-{}.example.net/promo", self.r.range(100, 999));
        let body = Body::Comment(format!(
            "<r><p>Best VPN and hosting deals of the year, up to 70% off!</p>\n\n<p><URL url=\"{url}\">{url}</URL>\
             </p></r>"
        ));
        let title = "Best VPN deals - 70% off today".to_string();
        let mut at = t;
        for _ in 0..4 + self.r.below(3) {
            let d = self.new_disc(at, u, vec![GENERAL], title.clone());
            self.post(at, u, d, true, body.clone(), Force::No);
            if self.r.chance(0.65) {
                let gone = at + self.r.range(20 * 60, 6 * 3_600) * SECOND;
                self.act(gone, Do::Drop(d));
            }
            at += self.r.range(15, 40) * SECOND + self.r.below(1_000_000) as i64;
        }
    }
}

fn people(r: &mut Rng) -> Vec<User> {
    let mut v: Vec<User> = Vec::new();
    let staff = [
        (1, "sam", Who::Admin),
        (2, "kira", Who::Mod),
        (9, "dmitri", Who::Mod),
        (57, "helen_m", Who::Mod),
        (611, "oskar", Who::Mod),
        (1_402, "ReleaseBot", Who::Bot),
        (1_403, "WeeklyBot", Who::Bot),
    ];
    let mut taken: HashSet<i64> = staff.iter().map(|s| s.0).collect();
    let mut draw = |r: &mut Rng, lo: i64, hi: i64| loop {
        let id = r.range(lo, hi);
        if taken.insert(id) {
            return id;
        }
    };
    let mut regulars: Vec<i64> = (0..16).map(|_| draw(r, 12, 1_400)).collect();
    regulars.sort_unstable();
    let mut members: Vec<i64> = (0..N_MEMBERS).map(|_| draw(r, 12, 3_140)).collect();
    members.sort_unstable();
    let home = |r: &mut Rng| {
        if r.chance(0.2) {
            let (a, b, c, x) = (r.below(0x1000), r.below(0x10000), r.below(0x10000), r.below(0x10000));
            format!("2a02:{:x}:{b:x}:{c:x}::{x:x}", 0x8000 + a)
        } else {
            let a = r.one(&[24, 31, 46, 62, 73, 77, 79, 81, 84, 86, 88, 91, 93, 95, 98, 109, 151, 178, 185, 212, 217]);
            format!("{a}.{}.{}.{}", r.range(0, 255), r.range(0, 255), r.range(1, 254))
        }
    };
    for (id, name, who) in staff {
        let h = match who {
            Who::Bot => "159.89.141.22".to_string(),
            _ => home(r),
        };
        let mobile = if who == Who::Bot { 0.0 } else { 0.2 };
        v.push(User { id, name: name.to_string(), who, home: h, carrier: 0, mobile, since: START - DAY, phrase: 0 });
    }
    let all = regulars.iter().map(|&id| (id, Who::Regular)).chain(members.iter().map(|&id| (id, Who::Member)));
    for (i, (id, who)) in all.enumerate() {
        let name = match i / NAMES.len() {
            0 => NAMES[i].to_string(),
            n => format!("{}{n}", NAMES[i % NAMES.len()]),
        };
        // Accounts above 2980 registered during the window.
        let since = if id > 2_980 { START + (id - 2_980) * DAYS * DAY / 170 } else { START - DAY };
        let h = home(r);
        let mobile = r.one(&[0.1, 0.25, 0.4, 0.6, 0.8]);
        let (carrier, phrase) = (r.below(CARRIERS.len() as u64) as usize, r.below(5) as usize);
        v.push(User { id, name, who, home: h, carrier, mobile, since, phrase });
    }
    v
}

struct Row {
    id: i64,
    disc: usize,
    number: i64,
    at: i64,
    user: usize,
    body: Body,
    ip: Option<String>,
    edited: Option<(i64, usize)>,
    hidden: Option<(i64, usize)>,
    gone: bool,
    private: bool,
    approved: bool,
    grp: usize,
    hide: bool,
}

/// The table as the server wrote it, replayed in time order.
struct St {
    rows: Vec<Row>,
    by_disc: Vec<Vec<usize>>,
    alive: Vec<bool>,
    pending: Vec<bool>,
    locked: Vec<bool>,
    ids: Vec<i64>,
    req_row: Vec<Option<usize>>,
    texts: HashMap<usize, String>,
    post_id: i64,
    disc_id: i64,
}

impl St {
    /// `IFNULL(MAX(number), 0) + 1` over the discussion's rows.
    fn next_number(&self, d: usize, old: i64) -> i64 {
        let top = self.by_disc[d].iter().filter(|&&k| !self.rows[k].gone).map(|&k| self.rows[k].number).max();
        top.unwrap_or(0).max(old) + 1
    }

    /// `posts()->latest()->first()`: the newest by `created_at`.
    fn latest(&self, d: usize) -> Option<usize> {
        let live = self.by_disc[d].iter().copied().filter(|&k| !self.rows[k].gone);
        live.max_by_key(|&k| (self.rows[k].at / SECOND, self.rows[k].id))
    }

    /// Whether no visible comment came after it (`allow_post_editing` and `allow_hide_own_posts` are "reply").
    fn last_comment(&self, k: usize) -> bool {
        let (d, n) = (self.rows[k].disc, self.rows[k].number);
        !self.by_disc[d].iter().any(|&j| {
            let x = &self.rows[j];
            j != k && !x.gone && x.hidden.is_none() && !x.private && x.body.kind() == "comment" && x.number > n
        })
    }

    fn push(&mut self, row: Row) -> usize {
        let d = row.disc;
        self.rows.push(row);
        let k = self.rows.len() - 1;
        self.by_disc[d].push(k);
        k
    }
}

/// `saveAfter`: an event right after one of its kind by the same user is folded into it. None: not foldable;
/// Some(None): the earlier one is deleted (reverted); Some(Some(b)): it now says `b`.
fn fold(prev: &Body, new: &Body) -> Option<Option<Body>> {
    match (prev, new) {
        (Body::Renamed(a, _), Body::Renamed(_, c)) => Some((a != c).then(|| Body::Renamed(a.clone(), c.clone()))),
        (Body::Tagged(a, _), Body::Tagged(_, c)) => Some((a != c).then(|| Body::Tagged(a.clone(), c.clone()))),
        (Body::Locked(a), Body::Locked(b)) => Some((a == b).then_some(Body::Locked(*b))),
        (Body::Stickied(a), Body::Stickied(b)) => Some((a == b).then_some(Body::Stickied(*b))),
        _ => None,
    }
}

/// The reply with its mention: the newest visible post of someone else, or one before it.
fn mention(r: &mut Rng, users: &[User], st: &St, d: usize, me: usize, text: &str) -> String {
    let posts: Vec<usize> = st.by_disc[d]
        .iter()
        .copied()
        .filter(|&k| {
            let x = &st.rows[k];
            !x.gone && x.hidden.is_none() && !x.private && x.user != me && x.body.kind() == "comment"
        })
        .collect();
    if posts.is_empty() {
        return format!("<t><p>{}</p></t>", esc(text));
    }
    let k = if r.chance(0.7) { posts[posts.len() - 1] } else { *r.pick(&posts) };
    let x = &st.rows[k];
    let name = &users[x.user].name;
    format!(
        "<r><p><POSTMENTION discussionid=\"{}\" displayname=\"{name}\" id=\"{}\" number=\"{}\">@\"{name}\"#p{}\
         </POSTMENTION> {}</p></r>",
        st.ids[d],
        x.id,
        x.number,
        x.id,
        esc(text)
    )
}

fn replay(s: &mut Sim) -> St {
    let mut acts = std::mem::take(&mut s.acts);
    acts.sort_by_key(|a| a.t);
    let Sim { r, users, discs, reqs, .. } = s;
    let n = discs.len();
    let mut st = St {
        rows: Vec::new(),
        by_disc: vec![Vec::new(); n],
        alive: discs.iter().map(|d| d.id != 0).collect(),
        pending: vec![false; n],
        locked: vec![false; n],
        ids: discs.iter().map(|d| d.id).collect(),
        req_row: vec![None; reqs.len()],
        texts: HashMap::new(),
        post_id: P0 + 1,
        disc_id: D0 + 1,
    };
    let mut merges = 0;
    for a in &acts {
        match a.what.clone() {
            Do::Create(k) => {
                let q = &reqs[k];
                let (d, u) = (q.disc, q.user);
                let boss = staff(&users[u]);
                let review = discs[d].tags.contains(&SHOWCASE) && !boss && q.body.kind() == "comment";
                if q.first {
                    (st.ids[d], st.alive[d], st.pending[d]) = (st.disc_id, true, review);
                    st.disc_id += 1;
                } else if !st.alive[d] || ((st.pending[d] || st.locked[d]) && !boss) {
                    continue;
                }
                let body = match &q.body {
                    Body::Mention(text) => Body::Comment(match st.texts.get(&q.grp) {
                        Some(x) => x.clone(),
                        None => {
                            let x = mention(r, users, &st, d, u, text);
                            st.texts.insert(q.grp, x.clone());
                            x
                        }
                    }),
                    b => b.clone(),
                };
                if let Body::Locked(b) = &body {
                    st.locked[d] = *b;
                }
                if let Some(p) = st.latest(d)
                    && st.rows[p].user == u
                    && let Some(f) = fold(&st.rows[p].body, &body)
                {
                    match f {
                        None => st.rows[p].gone = true,
                        Some(b) => {
                            if matches!(b, Body::Tagged(..)) {
                                st.rows[p].at = q.at;
                            }
                            st.rows[p].body = b;
                        }
                    }
                    continue;
                }
                let id = st.post_id;
                st.post_id += 1;
                if q.fail {
                    continue;
                }
                let number = if q.first { 1 } else { st.next_number(d, discs[d].old_max) };
                let row = Row {
                    id,
                    disc: d,
                    number,
                    at: q.at,
                    user: u,
                    body,
                    ip: q.ip.clone(),
                    edited: None,
                    hidden: None,
                    gone: false,
                    private: review,
                    approved: !review,
                    grp: q.grp,
                    hide: q.hide,
                };
                st.req_row[k] = Some(st.push(row));
            }
            Do::Edit(k, by, own, change) => {
                let Some(i) = st.req_row[k] else { continue };
                let x = &st.rows[i];
                if x.gone || (own && (!st.last_comment(i) || x.hidden.is_some_and(|h| h.1 != by))) {
                    continue;
                }
                let Body::Comment(old) = &x.body else { continue };
                let new = match change {
                    Change::Append(text) => {
                        let cut = old.len() - 4;
                        format!("{}\n\n<p>{}</p>{}", &old[..cut], esc(&text), &old[cut..])
                    }
                    Change::Replace(xml) => xml,
                };
                if new != *old {
                    (st.rows[i].body, st.rows[i].edited) = (Body::Comment(new), Some((a.t, by)));
                }
            }
            Do::Hide(k, by, own) => {
                let Some(i) = st.req_row[k] else { continue };
                if st.rows[i].gone || st.rows[i].hidden.is_some() || (own && !st.last_comment(i)) {
                    continue;
                }
                let x = &mut st.rows[i];
                x.hidden = Some((a.t, by));
                if !own {
                    (x.approved, x.private) = (true, false);
                }
            }
            Do::Purge(k) => {
                if let Some(i) = st.req_row[k] {
                    st.rows[i].gone = true;
                }
            }
            Do::Approve(k) => {
                let Some(i) = st.req_row[k] else { continue };
                let x = &mut st.rows[i];
                if !x.gone && !x.approved {
                    (x.approved, x.private) = (true, false);
                    if reqs[k].first {
                        st.pending[x.disc] = false;
                    }
                }
            }
            Do::Drop(d) => {
                if st.alive[d] {
                    for &k in &st.by_disc[d] {
                        st.rows[k].gone = true;
                    }
                    st.alive[d] = false;
                }
            }
            Do::Merge(from, into, by) => {
                if !st.alive[from] || !st.alive[into] || st.pending[from] {
                    continue;
                }
                let mut moved = 0;
                for k in std::mem::take(&mut st.by_disc[from]) {
                    if st.rows[k].gone {
                        continue;
                    }
                    if matches!(st.rows[k].body, Body::Tagged(..)) {
                        st.rows[k].gone = true;
                        continue;
                    }
                    st.rows[k].disc = into;
                    st.by_disc[into].push(k);
                    moved += 1;
                }
                st.alive[from] = false;
                // Ordered by date: every post of the target numbered again by `created_at`.
                let mut list: Vec<usize> = st.by_disc[into].iter().copied().filter(|&k| !st.rows[k].gone).collect();
                list.sort_by_key(|&k| st.rows[k].at / SECOND);
                for (i, &k) in list.iter().enumerate() {
                    st.rows[k].number = i as i64 + 1;
                }
                st.by_disc[into] = list;
                let id = st.post_id;
                st.post_id += 1;
                merges += 1;
                let row = Row {
                    id,
                    disc: into,
                    number: st.next_number(into, 0),
                    at: a.t + r.range(200_000, 900_000),
                    user: by,
                    body: Body::Merged(moved, vec![discs[from].title.clone()]),
                    ip: None,
                    edited: None,
                    hidden: None,
                    gone: false,
                    private: false,
                    approved: true,
                    grp: usize::MAX - merges,
                    hide: false,
                };
                st.push(row);
            }
        }
    }
    st
}

pub fn fixture() -> Fixture {
    let mut s = Sim::new(Rng::new(0xF1A_2071));
    // (day, version, re-sent by the CI job)
    let releases: [(i64, &str, bool); 6] = [
        (4, "3.3.0", false),
        (18, "3.3.1", false),
        (19, "3.3.2", false),
        (33, "3.4.0", true),
        (47, "3.4.1", false),
        (55, "3.4.2", false),
    ];
    let mut pinned: Option<usize> = None;
    for day in 0..DAYS {
        let d0 = START + day * DAY;
        let wd = weekday(d0);
        let f = if wd >= 5 { 0.7 } else { 1.0 };
        let n = s.r.poisson(7.5 * f);
        let mut times: Vec<i64> = (0..n).map(|_| when(&mut s.r, d0)).collect();
        times.sort_unstable();
        for t in times {
            s.start(t);
        }
        for _ in 0..s.r.poisson(3.0 * f) {
            let t = when(&mut s.r, d0);
            s.necro(t);
        }
        if wd == 0 {
            let t = d0 + 8 * HOUR + s.r.range(2_000_000, 9_000_000);
            s.weekly(t);
        }
        for &(rd, ver, resent) in &releases {
            if rd == day {
                let t = d0 + s.r.range(13 * 3_600, 18 * 3_600) * SECOND + s.r.below(1_000_000) as i64;
                pinned = Some(s.release(t, ver, resent, pinned));
            }
        }
        if s.r.chance(0.17) {
            let t = when(&mut s.r, d0);
            s.spree(t);
        }
        if s.r.chance(0.12) {
            let t = when(&mut s.r, d0);
            s.cross(t);
        }
        if day == 11 || day == 37 {
            let t = d0 + s.r.range(3_600, 5 * 3_600) * SECOND;
            s.spam(t);
        }
    }
    let st = replay(&mut s);

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("posts", &columns);
    let mut present: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<(usize, &'static str, String)> = HashSet::new();
    for x in st.rows.iter().filter(|x| !x.gone) {
        let content = x.body.content();
        let first = present.insert(x.grp);
        let fresh = seen.insert((x.user, x.body.kind(), content.clone()));
        let mark = if !first {
            Mark::Retry
        } else if !fresh {
            Mark::Legit
        } else {
            Mark::Plain
        };
        let who = |u: usize| V::I(s.users[u].id);
        f.push(&[
            ("id", V::I(x.id)),
            ("discussion_id", V::I(st.ids[x.disc])),
            ("number", V::I(x.number)),
            ("created_at", V::AtSecs(x.at)),
            ("user_id", who(x.user)),
            ("type", V::t(x.body.kind())),
            ("content", V::t(content)),
            ("edited_at", x.edited.map_or(V::Null, |e| V::AtSecs(e.0))),
            ("edited_user_id", x.edited.map_or(V::Null, |e| who(e.1))),
            ("hidden_at", x.hidden.map_or(V::Null, |h| V::AtSecs(h.0))),
            ("hidden_user_id", x.hidden.map_or(V::Null, |h| who(h.1))),
            ("ip_address", V::opt_t(x.ip.as_deref())),
            ("is_private", V::B(x.private)),
            ("is_approved", V::B(x.approved)),
        ]);
        f.mark(x.id, mark);
        if mark == Mark::Retry && x.hide {
            f.hidden.insert(x.id.to_string());
        }
    }
    f
}
