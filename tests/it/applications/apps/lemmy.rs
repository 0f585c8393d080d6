//! Lemmy (Rust, diesel; PostgreSQL only): `comment`, as a small instance's table fills: its own users' comments
//! through the create-comment API (`POST /api/v4/comment`: lemmy-ui in the browser, the Jerboa, Voyager and other
//! apps, two bot scripts), and the comments of other instances' users arriving by federation (a `Create` of a `Note`,
//! announced by the community's instance or delivered straight to ours), then votes, edits, deletes, removals,
//! reports and the ten-minute hot-rank job: five local communities, sixteen followed ones on seven instances, 12 days.
//! `comment` rather than `post`: a comment's create path is the richer one (a parent, an ltree `path` and an `ap_id`
//! minted from the id by a trigger, the federation upsert keyed on `ap_id`, `federation_pending`), and it is the table
//! people (and their retries) write far more often.
//! Read: LemmyNet/lemmy (439734d, Aug 2026): migrations/ (all 342, applied in order to a scratch PostgreSQL and the
//! table dumped with pg_dump; the ones that shape `comment`: 2019-03-05-233828_create_comment,
//! 2019-04-29-175834_add_delete_columns, 2020-04-03-194936_add_activitypub_for_posts_and_comments,
//! 2020-08-25-132005_add_unique_ap_ids, 2022-07-07-182650_comment_ltrees, 2022-08-04-214722_add_distinguished_comment,
//! 2022-08-22-193848_comment-language-tags, 2023-07-24-232635_trigram-index, 2023-08-02-174444_fix-timezones,
//! 2024-06-24-000000_ap_id_triggers (ap_id loses its default), 2025-08-01-000041_remove-aggregate-tables (score,
//! votes, child_count, ranks, report counts folded into `comment`), 2025-08-01-000044_post_comment_pending,
//! 2025-08-01-000055_rename_timestamp_add_at, 2025-08-20-000000_comment-lock,
//! 2026-03-19-234307-0000_same_table_joins (`community_id` back on `comment`)); crates/db_schema_file/src/schema.rs;
//! crates/diesel_utils/replaceable_schema/triggers.sql (`r.comment_change_values`: `path` gets the id appended,
//! a local row's `ap_id` is `local_url('/comment/' || id)`; the statement triggers: `child_count` of every ancestor,
//! the post's and person's counts, and score/upvotes/downvotes/controversy_rank from `comment_actions`) and utils.sql
//! (`r.hot_rank`, `r.controversy_rank`, `r.local_url`); crates/db_schema/src/source/comment.rs
//! (`CommentInsertForm`, `CommentUpdateForm`) and impls/comment.rs (`create`, `insert_apub`: a plain INSERT for a
//! local comment; for a federated one `INSERT .. ON CONFLICT (ap_id) DO UPDATE .. WHERE coalesce(updated_at,
//! published_at) < the note's time`, `set_not_pending`, `update_hot_rank`, the removal and lock helpers);
//! crates/api/routes/src/lib.rs (the rate-limited route), api/api_crud/src/comment/create.rs, update.rs, delete.rs,
//! remove.rs, api/src/comment/distinguish.rs, api_crud/src/lib.rs (`community_use_pending`);
//! crates/apub/activities/src/create_or_update/comment.rs and
//! apub/objects/src/objects/comment.rs (`verify`, `from_json`), apub/apub/src/http/mod.rs (`received_activity`
//! refuses an activity id seen before; 9 s inbox timeout), db_schema/src/impls/activity.rs;
//! crates/routes/src/utils/scheduled_tasks.rs (hot ranks every 10 minutes, the monthly overwrite of deleted
//! comments); LemmyNet/lemmy-ui comment-form.tsx (sends `language_id` from the selector, or none); LemmyNet/jerboa
//! api/Http.kt (the Kotlin client's fixed 20 s timeout).
//! On a create from the API: `id` from `comment_id_seq`; `creator_id`, `post_id`, the post's `community_id`;
//! `content` the text after `process_markdown` (slurs, tracking parameters); `language_id` as the client sent it, else
//! the column default 0 (undetermined); `path` the parent's path and the BEFORE trigger appends the new id ('0.<id>'
//! for a top-level comment), `ap_id` `https://<our host>/comment/<id>` from the same trigger, `local` true,
//! `published_at` the database's now() (the insert's own transaction: µs); `federation_pending` true when the
//! community is on another instance (until the community's Announce comes back, `set_not_pending`); everything else its
//! default. The handler then likes the comment for its author (a separate statement: `score` and `upvotes` 1). On a
//! federated create: the same columns from the note: `ap_id` the remote object id (each software its own form),
//! `published_at` the remote's time (seconds only from Mastodon and Mbin), `local` false, `deleted` and
//! `federation_pending` false, `language_id` from the note (und, so 0, when absent); the id is ours, minted in arrival
//! order (a reply that comes before its parent makes us fetch the parent first); the author's like and
//! `update_hot_rank` follow.
//! Later: votes move `score`/`upvotes`/`downvotes`/`controversy_rank`; replies bump `child_count` of every ancestor;
//! the job sets `hot_rank` from score and age every 10 minutes (0 after 7 days, then never touched again; a local row
//! keeps the default 0.0001 until the next run); an edit sets `content` and `updated_at` (a remote edit arrives as an
//! Update through the same upsert, with the remote's `updated`); a delete sets only `deleted`, a mod's removal only
//! `removed` (and resolves its reports), a ban with content removal sets `removed` and `updated_at`; a mod may
//! distinguish a comment or lock a thread (`locked` on the comment and its children). Every upsert that hits an
//! existing `ap_id` (a second delivery, the Announce after a fetch, an Update) still takes a value from the sequence:
//! gaps in `id`.
//! Retries (about 1.7% of creates): a local user's comment sent again after lemmy-ui's request hung behind nginx's
//! 60 s gateway timeout, after Jerboa's 20 s or Voyager's 60 s timeout (the text is still in the box), some a third
//! time; double submits (a double tap, Ctrl+Enter and the button) 20-300 ms apart; three in the last day. The first
//! request's insert ran late inside the hung request, so the copies' `published_at` are closer than the clicks. Each
//! copy gets its own id, so its own `path` and `ap_id`. Afterwards both stay (most), or the author deletes the copy,
//! or the first one, or edits the copy to say it is a duplicate, or a mod removes it. Other instances' users retry the
//! same way on their instance: we receive both notes, each with its own remote `ap_id` and time (Mastodon sends an
//! Idempotency-Key, so none from there). A redelivered activity makes no row: `received_activity` refuses the same
//! activity id, and the same note under another activity hits `ap_id` and its filter (no newer time: no update).
//! Legitimate repeats: a comment deleted by its author and posted again to the same parent (half a minute to 50
//! minutes later; a delete leaves no time in the row, so a retry whose first copy the author deleted, 28 s or more
//! apart, looks the same: hidden), the instance bot's nightly notice in the announcements megathread, an OP bumping an
//! unanswered help post with the same words days apart. Plain near-repeats: "+1", "This.", "Thanks!" by many people
//! under many posts and parents; the politics rules bot's distinguished reminder under every new post; a spammer's one
//! text under 14 posts.
//! Guessed: the instance, its communities, users and bots, rates, vote counts and rhythms; the clients' share and
//! retry behaviour, and what people do with a duplicate; remote instances' id sequences and delivery delays (a
//! lemmy.world backlog of four hours, lemmy.ml down for four hours); the Mbin and Mastodon object URL forms, their
//! seconds-only times and Mastodon's mention markdown; the texts; the hot-rank job's minute; Jerboa and Voyager
//! sending no automatic retry.
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, secs};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as the migrations leave it (pg_dump of a fresh install), with its extensions. Left out: the foreign keys
/// to person, post, community and language, and the triggers (`change_values`, the statement triggers and
/// `person_content_combined_comment`), whose functions live in the replaceable `r` schema and write other tables; the
/// fixture writes what they would have.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"CREATE EXTENSION IF NOT EXISTS ltree;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE comment (
    id serial NOT NULL,
    creator_id integer NOT NULL,
    post_id integer NOT NULL,
    content text NOT NULL,
    removed boolean DEFAULT false NOT NULL,
    published_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone,
    deleted boolean DEFAULT false NOT NULL,
    ap_id character varying(255) NOT NULL,
    local boolean DEFAULT true NOT NULL,
    path ltree DEFAULT '0'::ltree NOT NULL,
    distinguished boolean DEFAULT false NOT NULL,
    language_id integer DEFAULT 0 NOT NULL,
    score integer DEFAULT 0 NOT NULL,
    upvotes integer DEFAULT 0 NOT NULL,
    downvotes integer DEFAULT 0 NOT NULL,
    child_count integer DEFAULT 0 NOT NULL,
    hot_rank real DEFAULT 0.0001 NOT NULL,
    controversy_rank real DEFAULT 0 NOT NULL,
    report_count smallint DEFAULT 0 NOT NULL,
    unresolved_report_count smallint DEFAULT 0 NOT NULL,
    federation_pending boolean DEFAULT false NOT NULL,
    locked boolean DEFAULT false NOT NULL,
    community_id integer NOT NULL,
    CONSTRAINT comment_pkey PRIMARY KEY (id),
    CONSTRAINT idx_comment_ap_id UNIQUE (ap_id)
);
CREATE INDEX idx_comment_community ON comment USING btree (community_id);
CREATE INDEX idx_comment_content_trigram ON comment USING gin (content gin_trgm_ops);
CREATE INDEX idx_comment_controversy ON comment USING btree (controversy_rank DESC);
CREATE INDEX idx_comment_creator ON comment USING btree (creator_id);
CREATE INDEX idx_comment_hot ON comment USING btree (hot_rank DESC, score DESC);
CREATE INDEX idx_comment_language ON comment USING btree (language_id);
CREATE INDEX idx_comment_nonzero_hotrank ON comment USING btree (published_at)
    WHERE (hot_rank <> (0)::double precision);
CREATE INDEX idx_comment_post ON comment USING btree (post_id);
CREATE INDEX idx_comment_published ON comment USING btree (published_at DESC);
CREATE INDEX idx_comment_score ON comment USING btree (score DESC);
CREATE INDEX idx_path_gist ON comment USING gist (path)"#
            .to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("Lemmy runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "id creator_id post_id content removed published_at updated_at deleted ap_id local path \
    distinguished language_id score upvotes downvotes child_count hot_rank controversy_rank report_count \
    unresolved_report_count federation_pending locked community_id";

const NOW: i64 = T0;
const START: i64 = T0 - 12 * DAY;
/// `comment_id_seq` when the window opens, and the post ids.
const ID0: i64 = 4_811_207;
const POST0: i64 = 1_093_440;
/// The hot-rank job runs every 10 minutes, this far past the round ten minutes.
const JOB_OFFSET: i64 = 3 * MINUTE + 17_400_000;
/// lemmy.world's queue to us fell behind for four hours (everything it announced in between came in a burst after).
const LAG: (i64, i64) = (T0 - 6 * DAY + 13 * HOUR, T0 - 6 * DAY + 17 * HOUR);
/// lemmy.ml was down: none of its users commented, nobody reached its communities, ours queued our users' comments.
const DOWN: (i64, i64) = (T0 - 4 * DAY + 9 * HOUR, T0 - 4 * DAY + 13 * HOUR);
/// The first local comment after each of these is sent again after a timeout.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 9 * HOUR, NOW - 3 * HOUR];
/// Posts and comments per hour of the day (UTC), relative: Europe and North America.
const RHYTHM: [u64; 24] = [4, 3, 2, 2, 2, 2, 3, 5, 6, 7, 7, 8, 8, 8, 8, 9, 9, 9, 10, 10, 9, 8, 7, 5];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Soft {
    Lemmy,
    PieFed,
    Mbin,
    Mastodon,
}

/// Instances (ours first): name, software, share of the remote comments, comments their own sequence mints per day
/// (theirs and those they receive) and where it stood when the window opened.
#[rustfmt::skip]
const HOSTS: [(&str, Soft, u64, i64, i64); 15] = [
    ("lemmy.fjord.example", Soft::Lemmy, 0, 0, 0),
    ("lemmy.world", Soft::Lemmy, 38, 140_000, 21_480_112), ("sh.itjust.works", Soft::Lemmy, 8, 90_000, 19_870_441),
    ("lemmy.ml", Soft::Lemmy, 7, 70_000, 17_302_978), ("programming.dev", Soft::Lemmy, 5, 40_000, 15_211_306),
    ("lemmy.dbzer0.com", Soft::Lemmy, 7, 95_000, 20_118_554), ("feddit.org", Soft::Lemmy, 6, 60_000, 8_905_227),
    ("discuss.tchncs.de", Soft::Lemmy, 4, 45_000, 16_533_870), ("lemmy.ca", Soft::Lemmy, 5, 50_000, 14_620_095),
    ("sopuli.xyz", Soft::Lemmy, 4, 55_000, 17_944_310), ("lemmy.blahaj.zone", Soft::Lemmy, 5, 50_000, 16_078_663),
    ("piefed.social", Soft::PieFed, 4, 20_000, 4_410_932), ("fedia.io", Soft::Mbin, 3, 30_000, 5_870_214),
    ("mastodon.social", Soft::Mastodon, 2, 0, 0), ("lemmy.zip", Soft::Lemmy, 3, 48_000, 12_887_460),
];
const WORLD: usize = 1;
const ML: usize = 3;

/// Communities: name, instance (0: ours), our id, posts a day.
#[rustfmt::skip]
const COMMS: [(&str, usize, i64, f64); 21] = [
    ("meta", 0, 2, 0.3), ("norway", 0, 4, 2.2), ("hiking", 0, 11, 0.9), ("politics", 0, 17, 1.5),
    ("linuxhelp", 0, 23, 1.1), ("technology", 1, 88, 3.6), ("worldnews", 1, 91, 3.0), ("games", 1, 97, 1.8),
    ("fediverse", 1, 101, 1.1), ("selfhosted", 1, 140, 1.5), ("nostupidquestions", 1, 119, 1.5),
    ("science", 1, 156, 0.9), ("asklemmy", 3, 33, 1.5), ("memes", 3, 35, 2.2), ("linux", 3, 41, 1.5),
    ("programming", 4, 512, 1.1), ("rust", 4, 530, 0.6), ("piracy", 5, 1_342, 0.8), ("europe", 6, 2_210, 1.8),
    ("canada", 8, 1_880, 1.1), ("piefed_meta", 11, 4_120, 0.3),
];
const META: usize = 0;
const POLITICS: usize = 3;
/// Where people ask for help (and bump their unanswered posts).
const HELP: [usize; 5] = [4, 9, 10, 12, 14];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Client {
    Web,
    Jerboa,
    Voyager,
    Other,
    Script,
}

struct Person {
    id: i64,
    name: String,
    host: usize,
    lang: i64,
    client: Client,
}

struct Post {
    comm: usize,
    at: i64,
    heat: u64,
    op: usize,
    /// Mbin's id for the thread, in its comments' ids.
    entry: i64,
}

/// A comment as its create wrote it, then what happened to it (times in µs).
#[derive(Clone, Default)]
struct Row {
    uid: usize,
    post: usize,
    parent: Option<usize>,
    by: usize,
    text: String,
    lang: i64,
    /// `published_at`: the origin's time (ours for a local comment).
    at: i64,
    /// When our insert ran, and when the note's own delivery came (later than `arrive` when a reply made us fetch it).
    arrive: i64,
    announce: i64,
    /// A Mastodon status id.
    snowflake: i64,
    dist: bool,
    /// Local, in a remote community: pending until the community's Announce comes back.
    pending: Option<i64>,
    /// (`updated_at`, when it reached us, the new text).
    edit: Option<(i64, i64, String)>,
    deleted: Option<i64>,
    removed: Option<i64>,
    /// Removed with its author's ban (sets `updated_at`).
    banned: Option<i64>,
    reports: i64,
    resolved: bool,
    locked: bool,
    /// A bot's notice or a bump: few votes.
    quiet: bool,
    up: i64,
    down: i64,
    tau: i64,
    /// Later upserts that hit this `ap_id` (each takes a sequence value).
    burns: Vec<i64>,
    mark: Mark,
    hidden: bool,
}

const SHORT: &[&str] = &[
    "This.",
    "+1",
    "lol",
    "Thanks!",
    "Same here.",
    "Agreed.",
    "Source?",
    "Fair point.",
    "Exactly this.",
    "Nice!",
    "😂",
    "Came here to say this.",
    "Underrated comment.",
    "Thank you!",
    "TIL",
    "Oof.",
    "Saving this.",
    "Love this!",
    "Same.",
    "Yep.",
    "Big if true.",
    "Username checks out.",
];
const SHORT_NO: &[&str] = &["Enig.", "Takk!", "Haha", "Dette.", "Helt enig.", "Takk for tipset!"];
const OPEN: &[&str] = &[
    "Honestly,",
    "I think",
    "In my experience",
    "Not sure about that, but",
    "Funny enough,",
    "IMO",
    "Counterpoint:",
    "Can confirm,",
    "Last time I checked,",
    "To be fair,",
    "Hot take:",
    "As far as I know,",
];
#[rustfmt::skip]
const TOPIC: &[&str] = &[
    "the new update", "my landlord", "the bus schedule", "Debian stable", "the Steam Deck", "sourdough",
    "the ferry to Bergen", "my cat", "federation", "the mod team", "public transit", "this recipe", "Wayland",
    "the price of coffee", "Proton", "the heat pump", "my old ThinkPad", "the trail up Preikestolen", "NixOS", "the EU",
    "Firefox", "the power grid", "Jellyfin", "that game", "the article", "the headline", "their CEO", "this community",
    "electric cars", "winter tires",
];
#[rustfmt::skip]
const PRED: &[&str] = &[
    "is way better than it used to be", "has been broken for weeks", "works fine for me", "costs twice as much now",
    "is the reason I left Reddit", "deserves more attention", "is a lot more complicated than the headline says",
    "never worked on my machine", "got fixed in the last release", "is overrated",
    "is honestly fine if you set it up right", "will not survive another winter", "needs better documentation",
    "is exactly what I was looking for", "makes no sense to me", "was the best decision I made this year",
];
#[rustfmt::skip]
const TAIL: &[&str] = &[
    "", "", "", "", " YMMV.", " Just my two cents.", " Happy to be proven wrong though.", " Source: I tried it.",
    " Anyone else seeing this?", " Not sure why people are downvoting this.", " Thanks for posting!",
];
const EDITS: &[&str] = &[
    "typo",
    "thanks for the replies!",
    "fixed the link",
    "wow, didn't expect this many replies",
    "I stand corrected.",
];
const OOPS: &[&str] = &["Oops, double post.", "Double comment, sorry!", "dupe", "[duplicate, see my other comment]"];
const BUMPS: &[&str] = &[
    "Still stuck on this, any ideas?",
    "Bump. Still looking for help with this.",
    "Any update? Still happening on my end.",
];
const NIGHTLY: &str = "Nightly backup starts at 02:00 UTC; the site may be slow for about ten minutes.";
const UPGRADE: &str =
    "Tonight: upgrading to the new Lemmy release, expect up to 30 minutes of downtime from 02:00 UTC.";
const RULES: &str = "Reminder: this community follows the instance rules. Personal attacks will be removed. Please \
    report rule-breaking comments instead of replying to them.";
const SPAM: &str =
    "Tired of your 9-5? I make $400 a day from home with this one trick, DM me or check my profile! 💰💰";
const SYL: &[&str] = &[
    "kari", "ola", "nord", "fjell", "byte", "pixel", "moose", "otter", "frost", "lin", "tux", "sol", "storm", "vik",
    "cod", "ember", "fox", "owl", "rain", "salt",
];

fn pick_weighted(r: &mut Rng, w: &[u64]) -> usize {
    let mut x = r.below(w.iter().sum::<u64>());
    for (i, &k) in w.iter().enumerate() {
        if x < k {
            return i;
        }
        x -= k;
    }
    w.len() - 1
}

fn hour_ok(r: &mut Rng, t: i64) -> bool {
    r.below(10) < RHYTHM[(t.rem_euclid(DAY) / HOUR) as usize]
}

/// An exponential wait, `tau` on average.
fn expo(r: &mut Rng, tau: i64) -> i64 {
    let u = (r.below(1_000_000) as f64 + 0.5) / 1e6;
    (-u.ln() * tau as f64) as i64
}

fn name(r: &mut Rng) -> String {
    let (a, b) = (r.pick(SYL).to_string(), r.pick(SYL).to_string());
    match r.below(4) {
        0 => format!("{a}{b}"),
        1 => format!("{a}_{b}"),
        2 => format!("{a}{}", r.range(1, 99)),
        _ => format!("{a}{b}{}", r.range(70, 2_005)),
    }
}

/// A comment's text: a short reply, or a sentence or three (sometimes quoting the parent).
fn say(r: &mut Rng, norsk: bool, quote: Option<&str>) -> String {
    if r.chance(0.16) {
        return if norsk && r.chance(0.5) { r.pick(SHORT_NO) } else { r.pick(SHORT) }.to_string();
    }
    let mut parts: Vec<String> = Vec::new();
    for _ in 0..1 + r.skewed(3) {
        let (o, t, p, tail) = (r.pick(OPEN), r.pick(TOPIC), r.pick(PRED), r.pick(TAIL));
        parts.push(format!("{o} {t} {p}.{tail}"));
    }
    if r.chance(0.12) {
        parts.push(format!("I've had mine for {} years now.", r.range(2, 15)));
    }
    let body = parts.join(" ");
    match quote {
        Some(q) if r.chance(0.1) => {
            let line = q.split(". ").next().unwrap_or(q);
            format!("> {line}\n\n{body}")
        }
        _ => body,
    }
}

/// How long a remote comment takes to reach us (announced by the community's instance, or sent straight to ours).
fn delay(r: &mut Rng, comm_host: usize, at: i64) -> i64 {
    let d = if comm_host == 0 {
        r.range(300_000, 4_000_000)
    } else {
        match r.below(100) {
            0..=79 => r.range(1, 15) * SECOND,
            80..=96 => r.range(15, 300) * SECOND,
            _ => r.range(300, 2_400) * SECOND,
        }
    } + r.below(1_000_000) as i64;
    let t = at + d;
    if comm_host == WORLD && (LAG.0..LAG.1).contains(&t) {
        LAG.1 + (t - LAG.0) / 20 + r.range(200_000, 3_000_000)
    } else {
        t
    }
}

/// Insert times of one create: the first, and the extra rows its retries made. `t` is when the person pressed send.
fn attempts(r: &mut Rng, t: i64, client: Client, forced: bool) -> Vec<i64> {
    let work = |r: &mut Rng| r.range(15_000, 140_000);
    let (p, p_double, timeout) = match client {
        Client::Web => (0.016, 0.2, 60 * SECOND),
        Client::Jerboa => (0.014, 0.15, 20 * SECOND),
        Client::Voyager => (0.014, 0.25, 60 * SECOND),
        Client::Other => (0.012, 0.2, 30 * SECOND),
        Client::Script => (0.0, 0.0, 0),
    };
    if !forced && !r.chance(p) {
        return vec![t + work(r)];
    }
    if !forced && r.chance(p_double) {
        let again = t + r.range(20_000, 300_000);
        return vec![t + work(r), again + work(r)];
    }
    // The request hung (its insert ran late inside it); the client gave up and the person sent it again.
    let first = t + r.range(1_000_000, timeout - SECOND);
    let mut at = t + timeout + r.range(2, 25) * SECOND + r.below(1_000_000) as i64;
    let mut v = vec![first, at + work(r)];
    if r.chance(0.25) {
        at += r.range(20, 120) * SECOND + r.below(1_000_000) as i64;
        v.push(at + work(r));
    }
    v
}

fn push(v: &mut Vec<Row>, mut x: Row) -> usize {
    x.uid = v.len();
    v.push(x);
    v.len() - 1
}

/// Votes and the time they take to come in.
fn votes(r: &mut Rng, x: &mut Row, heat: u64, top: bool, dup: bool) {
    let extra = match r.below(100) {
        0..=39 => r.range(0, 2),
        40..=79 => r.range(1, 8),
        80..=94 => r.range(5, 30),
        _ => r.range(20, 40 + heat as i64 * 3),
    };
    let extra = if top { extra + extra / 2 } else { extra };
    let extra = if dup { extra / 4 } else { extra };
    let extra = if x.quiet { extra.min(r.range(0, 5)) } else { extra };
    x.up = 1 + extra;
    x.down = extra * r.range(0, 25) / 100 + i64::from(r.chance(0.1));
    x.tau = r.range(1, 8) * HOUR;
}

/// (upvotes, downvotes) at `t`.
fn tally(x: &Row, t: i64) -> (i64, i64) {
    let frac = 1.0 - (-((t - x.at).max(0) as f64) / x.tau.max(1) as f64).exp();
    (1 + ((x.up - 1) as f64 * frac).round() as i64, (x.down as f64 * frac).round() as i64)
}

/// `r.hot_rank(score, published_at)` with now() `age` after `published_at`.
fn hot(score: i64, age: i64) -> f64 {
    if age <= 0 || age >= 7 * DAY {
        return 0.0;
    }
    let hours = age as f64 / HOUR as f64;
    ((score + 2).max(2) as f64).log10() / (hours + 2.0).powf(1.8)
}

fn controversy(up: i64, down: i64) -> f64 {
    if up <= 0 || down <= 0 {
        return 0.0;
    }
    let e = if up > down { down as f64 / up as f64 } else { up as f64 / down as f64 };
    ((up + down) as f64).powf(e)
}

/// What happens to a comment after its create: edits, deletes, removals, reports.
fn life(r: &mut Rng, x: &mut Row, remote: bool, comm_host: usize) {
    let y = r.below(1_000);
    if y < 45 {
        let at = x.arrive + r.range(60, 3 * 3_600) * SECOND + r.below(1_000_000) as i64;
        let text = format!("{}\n\nEdit: {}", x.text, r.pick(EDITS));
        let reach = if remote { delay(r, comm_host, at).max(x.arrive + SECOND) } else { at };
        x.edit = Some((if remote { x.at - x.arrive + at } else { at }, reach, text));
    } else if y < 65 {
        x.deleted = Some(x.arrive + r.range(120, 2 * 86_400) * SECOND);
    } else if y < 73 {
        x.removed = Some(x.arrive + r.range(600, 86_400) * SECOND);
        x.reports = r.range(0, 2);
        x.resolved = true;
    }
    if x.removed.is_none() && r.chance(0.006) {
        x.reports = r.range(1, 2);
        x.resolved = r.chance(0.5);
    }
}

/// The extra rows' and the first row's fates after a retry.
fn fate(r: &mut Rng, v: &mut [Row], first: usize, extras: &[usize], remote: bool) {
    let lag = |r: &mut Rng| {
        if remote { r.range(5, 60) * SECOND } else { 0 }
    };
    let last = *extras.last().unwrap_or(&first);
    let noticed = v[last].arrive + r.range(20, 3_600) * SECOND + r.below(1_000_000) as i64;
    match r.below(100) {
        0..=49 => {}
        50..=74 => {
            for &e in extras {
                let l = lag(r);
                v[e].deleted = Some(noticed + l);
            }
        }
        75..=86 => {
            // The author deletes the first one and keeps the last: like a comment deleted and posted again.
            let l = lag(r);
            v[first].deleted = Some(noticed + l);
            for &e in &extras[..extras.len() - 1] {
                v[e].deleted = Some(noticed + l);
            }
            v[last].hidden = v[last].at - v[first].at >= 28 * SECOND;
        }
        87..=94 => {
            for &e in extras {
                let text = r.pick(OOPS).to_string();
                let l = lag(r);
                v[e].edit = Some((noticed, noticed + l, text));
            }
        }
        _ => {
            for &e in extras {
                v[e].removed = Some(noticed + r.range(600, 20_000) * SECOND);
            }
        }
    }
}

struct World {
    people: Vec<Person>,
    by_host: Vec<Vec<usize>>,
    posts: Vec<Post>,
    mods: Vec<usize>,
}

impl World {
    fn comm_host(&self, post: usize) -> usize {
        COMMS[self.posts[post].comm].1
    }
}

/// One comment sent: retries, a delete-and-post-again, its life; returns the rows' uids.
fn create(r: &mut Rng, v: &mut Vec<Row>, w: &World, x: Row, forced: bool) -> Vec<usize> {
    let host = w.people[x.by].host;
    let chost = w.comm_host(x.post);
    let soft = HOSTS[host].1;
    let remote = host != 0;
    let heat = w.posts[x.post].heat;
    let top = x.parent.is_none();
    let client = match (remote, soft) {
        (false, _) => w.people[x.by].client,
        (true, Soft::Mastodon) => Client::Script,
        (true, Soft::Lemmy) => *r.pick(&[Client::Web, Client::Jerboa, Client::Voyager, Client::Other]),
        (true, _) => Client::Web,
    };
    let coarse = matches!(soft, Soft::Mastodon | Soft::Mbin);
    let stamp = |at: i64| if coarse { secs(at) } else { at };
    let place = |r: &mut Rng, mut x: Row, at: i64, after: i64| {
        x.at = stamp(at);
        x.arrive = if remote { delay(r, chost, at).max(after + 50_000) } else { x.at };
        x.announce = x.arrive;
        if soft == Soft::Mastodon {
            x.snowflake = ((at / 1_000) << 16) + r.below(65_536) as i64;
        }
        if !remote && chost != 0 {
            let back = x.arrive + r.range(1, 20) * SECOND + r.below(1_000_000) as i64;
            let down = chost == ML && (DOWN.0..DOWN.1).contains(&x.arrive);
            x.pending = Some(if down { DOWN.1 + r.range(60, 3_600) * SECOND } else { back });
        }
        if remote && r.chance(0.05) {
            let again = x.arrive + r.range(200_000, 30_000_000);
            x.burns.push(again);
        }
        x
    };
    let t = x.at;
    let bot = !remote && client == Client::Script;
    if !forced && !bot && r.chance(if remote { 0.004 } else { 0.006 }) {
        // Deleted by its author (it did not show up in the thread yet, it came out garbled) and posted again.
        let at = t + r.range(15_000, 140_000);
        let mut a = place(r, x.clone(), at, 0);
        let wait = if r.chance(0.6) { r.range(20, 90) } else { r.range(120, 1_800) };
        let gone = a.arrive + wait * SECOND + r.below(1_000_000) as i64;
        a.deleted = Some(gone);
        votes(r, &mut a, heat, top, true);
        let after = a.arrive;
        let ua = push(v, a);
        let wait = if r.chance(0.7) { r.range(8, 60) } else { r.range(60, 1_200) };
        let at = gone + wait * SECOND + r.below(1_000_000) as i64;
        let mut b = place(r, x, at, after);
        votes(r, &mut b, heat, top, false);
        life(r, &mut b, remote, chost);
        let ub = push(v, b);
        return vec![ua, ub];
    }
    let times = attempts(r, t, client, forced);
    let mut uids = Vec::new();
    let mut after = 0;
    for (k, &at) in times.iter().enumerate() {
        let mut y = place(r, x.clone(), at, after);
        after = y.arrive;
        votes(r, &mut y, heat, top, k > 0);
        if k > 0 {
            (y.mark, y.dist) = (Mark::Retry, false);
        } else if !bot {
            life(r, &mut y, remote, chost);
        }
        uids.push(push(v, y));
    }
    if uids.len() > 1 {
        fate(r, v, uids[0], &uids[1..], remote);
    }
    uids
}

fn person(r: &mut Rng, w: &World, host: usize) -> usize {
    let pool = &w.by_host[host];
    pool[r.skewed(pool.len() as u64) as usize]
}

fn remote_host(r: &mut Rng, home: usize) -> usize {
    let weights: Vec<u64> = HOSTS.iter().map(|h| h.2).collect();
    if home != 0 && HOSTS[home].1 != Soft::Mastodon && r.chance(0.35) {
        return home;
    }
    pick_weighted(r, &weights)
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x1E33_7C0D);
    let mut used: HashSet<i64> = HashSet::new();
    let mut people: Vec<Person> = Vec::new();
    let mut by_host: Vec<Vec<usize>> = vec![Vec::new(); HOSTS.len()];
    for (h, &(_, soft, weight, _, _)) in HOSTS.iter().enumerate() {
        let n = if h == 0 { 300 } else { 10 + weight as usize * 30 };
        for _ in 0..n {
            let id = loop {
                let id = if h == 0 { r.range(2, 48_000) } else { r.range(48_000, 2_400_000) };
                if used.insert(id) {
                    break id;
                }
            };
            let lang = match (h, soft) {
                (0, _) => r.one(&[0, 0, 0, 0, 37, 37, 37, 37, 37, 117, 117, 111]),
                (_, Soft::Mastodon) => 0,
                (6, _) => r.one(&[32, 32, 32, 0, 37]),
                _ => r.one(&[0, 0, 37, 37, 37]),
            };
            let client = r.one(&[
                Client::Web,
                Client::Web,
                Client::Web,
                Client::Web,
                Client::Web,
                Client::Jerboa,
                Client::Jerboa,
                Client::Voyager,
                Client::Voyager,
                Client::Voyager,
                Client::Other,
            ]);
            by_host[h].push(people.len());
            people.push(Person { id, name: name(&mut r), host: h, lang, client });
        }
    }
    let mods: Vec<usize> = by_host[0][..4].to_vec();
    let script = |people: &mut Vec<Person>, id: i64, name: &str| {
        people.push(Person { id, name: name.to_string(), host: 0, lang: 37, client: Client::Script });
        people.len() - 1
    };
    let fjordbot = script(&mut people, 17_322, "fjordbot");
    let rulesbot = script(&mut people, 30_914, "politics_rules_bot");
    people.push(Person {
        id: 2_398_771,
        name: "easy_income_2026".to_string(),
        host: WORLD,
        lang: 0,
        client: Client::Web,
    });
    let spammer = people.len() - 1;

    // Posts: the window and the two days before it, and the announcements megathread.
    let mut posts: Vec<Post> = Vec::new();
    for (ci, &(_, chost, _, rate)) in COMMS.iter().enumerate() {
        let n = (rate * 14.0).round() as i64 + r.range(-2, 2);
        for _ in 0..n.max(1) {
            let at = loop {
                let t = START - 2 * DAY + r.below(14 * DAY as u64) as i64;
                if hour_ok(&mut r, t) {
                    break t;
                }
            };
            let heat = match r.below(100) {
                0..=29 => r.below(2),
                30..=69 => 2 + r.below(4),
                70..=89 => 6 + r.below(9),
                90..=97 => 15 + r.below(20),
                _ => 35 + r.below(50),
            };
            let op_host = if chost == 0 && r.chance(0.75) { 0 } else { remote_host(&mut r, chost.max(1)) };
            let pool = &by_host[op_host];
            let op = pool[r.skewed(pool.len() as u64) as usize];
            posts.push(Post { comm: ci, at, heat, op, entry: 0 });
        }
    }
    posts.push(Post { comm: META, at: START - 19 * DAY + 11 * HOUR, heat: 3, op: mods[0], entry: 0 });
    posts.sort_by_key(|p| p.at);
    let mega = posts.iter().position(|p| p.at < START - 10 * DAY).unwrap_or(0);
    let mut post_ids = Vec::new();
    let mut pid = POST0;
    for p in posts.iter_mut() {
        pid += 1 + r.below(3) as i64;
        post_ids.push(pid);
        p.entry = 1_402_000 + r.below(600_000) as i64;
    }
    let w = World { people, by_host, posts, mods };

    let mut v: Vec<Row> = Vec::new();
    // Every post's comments, in the order they were written.
    let mut late = 0;
    let mut order: Vec<(i64, usize)> = Vec::new();
    let mut plans: Vec<Vec<i64>> = Vec::new();
    for (pi, p) in w.posts.iter().enumerate() {
        let mut times: Vec<i64> = (0..p.heat)
            .map(|_| {
                let tau = match r.below(100) {
                    0..=69 => 2 * HOUR,
                    70..=94 => 8 * HOUR,
                    _ => 40 * HOUR,
                };
                p.at + r.range(40, 300) * SECOND + expo(&mut r, tau)
            })
            .collect();
        times.sort_unstable();
        if let Some(&first) = times.first() {
            order.push((first, pi));
        }
        plans.push(times);
    }
    order.sort_unstable();
    // Posts are walked one at a time; the forced retries go to the first local comment written after each mark.
    let mut forced_at: Vec<(usize, usize)> = Vec::new();
    {
        let mut marks: Vec<(i64, usize, usize)> = Vec::new();
        for (pi, times) in plans.iter().enumerate() {
            for (k, &t) in times.iter().enumerate() {
                marks.push((t, pi, k));
            }
        }
        marks.sort_unstable();
        let mut li = 0;
        for &(t, pi, k) in &marks {
            if li < LATE.len() && t > LATE[li] && t < NOW - 10 * MINUTE {
                forced_at.push((pi, k));
                li += 1;
            }
        }
    }
    for (pi, post) in w.posts.iter().enumerate() {
        let chost = w.comm_host(pi);
        let comm = post.comm;
        let mut mine: Vec<usize> = Vec::new();
        for (k, &t) in plans[pi].iter().enumerate() {
            if !(START..NOW - 20 * SECOND).contains(&t) {
                continue;
            }
            let is_forced = forced_at.contains(&(pi, k));
            let local = is_forced || if chost == 0 { r.chance(0.72) } else { r.chance(0.09) };
            let by = if local {
                person(&mut r, &w, 0)
            } else {
                let h = remote_host(&mut r, chost);
                person(&mut r, &w, h)
            };
            let host = w.people[by].host;
            let down = |h: usize| h == ML && (DOWN.0 - 10 * MINUTE..DOWN.1).contains(&t);
            if host != 0 && (down(host) || down(chost)) {
                continue;
            }
            // A reply: to a recent comment this person could see.
            let seen: Vec<usize> = mine
                .iter()
                .copied()
                .filter(|&u| {
                    let o = &v[u];
                    let at = if host == 0 { o.arrive } else { o.at };
                    at + 5 * SECOND < t && o.deleted.is_none_or(|d| d > t) && (o.mark != Mark::Retry || r.chance(0.3))
                })
                .collect();
            let parent = if !seen.is_empty() && r.chance(0.58) {
                let n = seen.len() as u64;
                Some(seen[(n - 1 - r.skewed(n.min(12))) as usize])
            } else {
                None
            };
            let norsk = matches!(w.people[by].lang, 111 | 117) && chost == 0;
            let quote = parent.map(|u| v[u].text.clone());
            let mut text = say(&mut r, norsk, quote.as_deref());
            if HOSTS[host].1 == Soft::Mastodon {
                let to = parent.map_or(post.op, |u| v[u].by);
                let (tn, th) = (&w.people[to].name, HOSTS[w.people[to].host].0);
                text = format!("[@{tn}](https://{th}/u/{tn}) {text}");
            }
            let dist =
                host == 0 && chost == 0 && parent.is_none() && w.mods.contains(&by) && comm != META && r.chance(0.3);
            let x = Row { post: pi, parent, by, text, lang: w.people[by].lang, at: t, dist, ..Row::default() };
            let made = create(&mut r, &mut v, &w, x, is_forced);
            late += usize::from(is_forced);
            mine.extend(made);
        }
        // The OP bumps an unanswered help post (the same words each time).
        if HELP.contains(&comm) && r.chance(0.1) {
            let text = r.pick(BUMPS).to_string();
            let by = post.op;
            let mut at = post.at;
            for _ in 0..1 + r.below(2) {
                at += r.range(20, 60) * HOUR + r.below(3_600_000_000) as i64;
                if !(START..NOW - HOUR).contains(&at) {
                    continue;
                }
                let lang = w.people[by].lang;
                let x = Row { post: pi, by, text: text.clone(), lang, at, quiet: true, ..Row::default() };
                create(&mut r, &mut v, &w, x, false);
            }
        }
        // The politics rules bot, under every new post.
        if comm == POLITICS && post.at >= START {
            let at = post.at + r.range(60, 180) * SECOND + r.below(1_000_000) as i64;
            let text = RULES.to_string();
            let x = Row { post: pi, by: rulesbot, text, lang: 37, at, dist: true, quiet: true, ..Row::default() };
            create(&mut r, &mut v, &w, x, false);
        }
    }
    debug_assert!(late <= LATE.len());
    // The nightly notice in the megathread.
    for d in 0..12 {
        let at = START + d * DAY + 19 * HOUR + r.range(0, 90_000) * 1_000;
        let text = if d == 4 || d == 9 { UPGRADE } else { NIGHTLY };
        let x = Row { post: mega, by: fjordbot, text: text.to_string(), lang: 37, at, quiet: true, ..Row::default() };
        create(&mut r, &mut v, &w, x, false);
    }
    // A spammer from lemmy.world under the newest posts, removed with the ban lemmy.world sends an hour later.
    {
        let mut at = NOW - 5 * DAY + 14 * HOUR + 22 * MINUTE;
        let recent: Vec<usize> =
            (0..w.posts.len()).filter(|&p| w.posts[p].at < at && w.posts[p].at > at - 2 * DAY).collect();
        let ban = at + r.range(2_400, 5_400) * SECOND + r.below(1_000_000) as i64;
        for k in 0..14 {
            let pi = recent[recent.len() - 1 - (k * 3) % recent.len()];
            at += r.range(20, 70) * SECOND + r.below(1_000_000) as i64;
            let chost = w.comm_host(pi);
            let arrive = delay(&mut r, chost, at);
            let mut x = Row {
                post: pi,
                by: spammer,
                text: SPAM.to_string(),
                at,
                arrive,
                announce: arrive,
                banned: Some(ban.max(arrive + SECOND)),
                ..Row::default()
            };
            votes(&mut r, &mut x, 0, true, true);
            (x.up, x.down) = (1, r.range(0, 6));
            x.reports = if r.chance(0.4) { r.range(1, 3) } else { 0 };
            push(&mut v, x);
        }
    }

    // A reply that reached us before its parent made us fetch the parent; the parent's own delivery came later.
    let mut by_at: Vec<usize> = (0..v.len()).collect();
    by_at.sort_by_key(|&u| std::cmp::Reverse((v[u].at, u)));
    for &c in &by_at {
        if let Some(p) = v[c].parent
            && v[p].arrive >= v[c].arrive
        {
            v[p].arrive = v[c].arrive - r.range(80_000, 900_000);
        }
    }
    // A moderator locks a heated thread in politics once its replies have stopped.
    for root in 0..v.len() {
        if w.posts[v[root].post].comm != POLITICS || v[root].parent.is_some() || !r.chance(0.08) {
            continue;
        }
        let kids: Vec<usize> = (0..v.len()).filter(|&u| descends(&v, u, root)).collect();
        let last = kids.iter().map(|&u| v[u].arrive).max().unwrap_or(0);
        if kids.len() >= 3 && last + 2 * HOUR < NOW {
            v[root].locked = true;
            for u in kids {
                v[u].locked = true;
            }
        }
    }

    v.retain(|x| x.arrive < NOW - SECOND);
    // Everything that takes a value from `comment_id_seq`, in time order.
    let mut evs: Vec<(i64, usize, bool)> = Vec::new();
    for (u, x) in v.iter().enumerate() {
        evs.push((x.arrive, u, true));
        let remote = w.people[x.by].host != 0;
        let mut burns = x.burns.clone();
        if x.announce > x.arrive {
            burns.push(x.announce);
        }
        if let Some((_, reach, _)) = &x.edit
            && remote
        {
            burns.push(*reach);
        }
        evs.extend(burns.into_iter().filter(|&b| b < NOW).map(|b| (b, u, false)));
    }
    evs.sort_unstable();
    let mut ids = vec![0_i64; v.len()];
    let mut seq = ID0;
    for &(_, u, insert) in &evs {
        seq += 1;
        if insert {
            ids[u] = seq;
        }
        seq += i64::from(r.chance(0.002));
    }
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by_key(|&u| ids[u]);
    let uid_pos: Vec<usize> = {
        let mut m = vec![usize::MAX; v.iter().map(|x| x.uid).max().map_or(0, |m| m + 1)];
        for (i, x) in v.iter().enumerate() {
            m[x.uid] = i;
        }
        m
    };
    let at_pos = |uid: usize| uid_pos[uid];

    // Remote ids: each instance's own sequence, in the order it wrote them.
    let mut remote_id = vec![0_i64; v.len()];
    for (h, &(_, soft, _, rate, base)) in HOSTS.iter().enumerate().skip(1) {
        if !matches!(soft, Soft::Lemmy | Soft::PieFed | Soft::Mbin) {
            continue;
        }
        let mut mine: Vec<usize> = (0..v.len()).filter(|&i| w.people[v[i].by].host == h).collect();
        mine.sort_by_key(|&i| (v[i].at, i));
        let mut last = 0;
        for i in mine {
            let due = base + ((v[i].at - START) as f64 * rate as f64 / DAY as f64) as i64;
            last = due.max(last + 1);
            remote_id[i] = last;
        }
    }

    // Paths (parents are inserted before their replies), then the replies under each comment.
    let mut paths: Vec<String> = vec![String::new(); v.len()];
    for &i in &order {
        let base = v[i].parent.map_or("0".to_string(), |p| paths[at_pos(p)].clone());
        paths[i] = format!("{base}.{}", ids[i]);
    }
    let mut kids = vec![0_i64; v.len()];
    for i in 0..v.len() {
        let mut p = v[i].parent;
        while let Some(u) = p {
            let j = at_pos(u);
            kids[j] += 1;
            p = v[j].parent;
        }
    }

    let last_job = NOW - (NOW - JOB_OFFSET).rem_euclid(10 * MINUTE);
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("comment", &columns);
    let mut seen: HashSet<(usize, usize, Option<usize>, String, i64)> = HashSet::new();
    for &i in &order {
        let x = &v[i];
        let who = &w.people[x.by];
        let (host, soft) = (who.host, HOSTS[who.host].1);
        let p = &w.posts[x.post];
        let (cname, chost_i, cid, _) = COMMS[p.comm];
        let id = ids[i];
        let ap_id = match (host, soft) {
            (0, _) => format!("https://{}/comment/{id}", HOSTS[0].0),
            (_, Soft::Lemmy | Soft::PieFed) => format!("https://{}/comment/{}", HOSTS[host].0, remote_id[i]),
            (_, Soft::Mbin) => format!(
                "https://{}/m/{cname}@{}/t/{}/-/comment/{}",
                HOSTS[host].0, HOSTS[chost_i].0, p.entry, remote_id[i]
            ),
            (_, Soft::Mastodon) => format!("https://{}/users/{}/statuses/{}", HOSTS[host].0, who.name, x.snowflake),
        };
        let edit = x.edit.as_ref().filter(|e| e.1 < NOW);
        let content = edit.map_or(x.text.clone(), |e| e.2.clone());
        let banned = x.banned.filter(|&b| b < NOW);
        let updated = match (edit.map(|e| (e.1, e.0)), banned) {
            (Some((reach, u)), Some(b)) => Some(if b > reach { b } else { u }),
            (Some((_, u)), None) => Some(u),
            (None, b) => b,
        };
        let removed = x.removed.is_some_and(|t| t < NOW) || banned.is_some();
        let (up, down) = tally(x, NOW);
        let rank = if x.arrive > last_job {
            if host == 0 { 0.0001 } else { hot(1, x.arrive - x.at) }
        } else {
            let (u, d) = tally(x, last_job);
            hot(u - d, last_job - x.at)
        };
        let unresolved = if x.resolved || x.removed.is_some_and(|t| t < NOW) { 0 } else { x.reports };
        let key = (x.by, x.post, x.parent, x.text.clone(), x.lang);
        let now_key = (x.by, x.post, x.parent, content.clone(), x.lang);
        let fresh = seen.insert(key);
        let fresh_now = now_key.3 == x.text || seen.insert(now_key);
        let mark = match x.mark {
            Mark::Retry => Mark::Retry,
            _ if !fresh || !fresh_now => Mark::Legit,
            _ => Mark::Plain,
        };
        f.push(&[
            ("id", V::I(id)),
            ("creator_id", V::I(who.id)),
            ("post_id", V::I(post_ids[x.post])),
            ("content", V::t(&content)),
            ("removed", V::B(removed)),
            ("published_at", V::AtZ(x.at)),
            ("updated_at", updated.map_or(V::Null, V::AtZ)),
            ("deleted", V::B(x.deleted.is_some_and(|t| t < NOW))),
            ("ap_id", V::t(&ap_id)),
            ("local", V::B(host == 0)),
            ("path", V::t(&paths[i])),
            ("distinguished", V::B(x.dist)),
            ("language_id", V::I(x.lang)),
            ("score", V::I(up - down)),
            ("upvotes", V::I(up)),
            ("downvotes", V::I(down)),
            ("child_count", V::I(kids[i])),
            ("hot_rank", V::F(f64::from(rank as f32))),
            ("controversy_rank", V::F(f64::from(controversy(up, down) as f32))),
            ("report_count", V::I(x.reports)),
            ("unresolved_report_count", V::I(unresolved)),
            ("federation_pending", V::B(x.pending.is_some_and(|t| t >= NOW))),
            ("locked", V::B(x.locked)),
            ("community_id", V::I(cid)),
        ]);
        f.mark(id, mark);
        if mark == Mark::Retry && x.hidden {
            f.hidden.insert(id.to_string());
        }
    }
    f
}

/// Whether `u` is a reply (at any depth) under `root`.
fn descends(v: &[Row], u: usize, root: usize) -> bool {
    let mut p = v[u].parent;
    while let Some(q) = p {
        if q == root {
            return true;
        }
        p = v[q].parent;
    }
    false
}
