//! Discourse (Rails, PostgreSQL): `posts`, as `PostCreator` writes them.
//! The columns and indexes are those of `app/models/post.rb`'s schema block;
//! a post's number is the topic's next (`Topic.next_post_number`), so a
//! retried reply takes the next one and `sort_order` with it; `created_at`,
//! `updated_at`, `last_version_at` and `baked_at` are the attempt's times;
//! `reads`, likes, `score` and `percent_rank` are each post's own counters,
//! moved later by readers and jobs. A retry that creates a new topic gets a
//! new topic id, as a staff member's cross-post does: those two are told
//! apart by nothing in the row.

use super::{DAY, Fixture, HOUR, Rng, SECOND, T0, V, sentence};

pub const DDL: &str = "
CREATE TABLE posts (
  id integer NOT NULL DEFAULT nextval('posts_id_seq'::regclass) PRIMARY KEY,
  user_id integer, topic_id integer NOT NULL, post_number integer NOT NULL,
  raw text NOT NULL, cooked text NOT NULL,
  created_at timestamp without time zone NOT NULL, updated_at timestamp without time zone NOT NULL,
  reply_to_post_number integer,
  reply_count integer NOT NULL DEFAULT 0, quote_count integer NOT NULL DEFAULT 0,
  deleted_at timestamp without time zone,
  off_topic_count integer NOT NULL DEFAULT 0, like_count integer NOT NULL DEFAULT 0,
  incoming_link_count integer NOT NULL DEFAULT 0, bookmark_count integer NOT NULL DEFAULT 0,
  score double precision, reads integer NOT NULL DEFAULT 0, post_type integer NOT NULL DEFAULT 1,
  sort_order integer, last_editor_id integer, hidden boolean NOT NULL DEFAULT false, hidden_reason_id integer,
  notify_moderators_count integer NOT NULL DEFAULT 0, spam_count integer NOT NULL DEFAULT 0,
  illegal_count integer NOT NULL DEFAULT 0, inappropriate_count integer NOT NULL DEFAULT 0,
  last_version_at timestamp without time zone NOT NULL, user_deleted boolean NOT NULL DEFAULT false,
  reply_to_user_id integer, percent_rank double precision DEFAULT 1.0,
  notify_user_count integer NOT NULL DEFAULT 0, like_score integer NOT NULL DEFAULT 0,
  deleted_by_id integer, edit_reason character varying, word_count integer,
  version integer NOT NULL DEFAULT 1, cook_method integer NOT NULL DEFAULT 1, wiki boolean NOT NULL DEFAULT false,
  baked_at timestamp without time zone, baked_version integer, hidden_at timestamp without time zone,
  self_edits integer NOT NULL DEFAULT 0, reply_quoted boolean NOT NULL DEFAULT false,
  via_email boolean NOT NULL DEFAULT false, raw_email text, public_version integer NOT NULL DEFAULT 1,
  action_code character varying, locked_by_id integer, image_upload_id bigint, outbound_message_id character varying,
  locale character varying(20)
);
CREATE UNIQUE INDEX index_posts_on_topic_id_and_post_number ON posts (topic_id, post_number);
CREATE INDEX idx_posts_created_at_topic_id ON posts (created_at, topic_id) WHERE (deleted_at IS NULL);
CREATE INDEX index_posts_on_topic_id_and_sort_order ON posts (topic_id, sort_order);
CREATE INDEX index_posts_on_user_id_and_created_at ON posts (user_id, created_at);";

/// The sequence the id's default reads, made before the table.
pub const SEQUENCE: &str = "CREATE SEQUENCE posts_id_seq";

const COLUMNS: &[&str] = &[
    "id",
    "user_id",
    "topic_id",
    "post_number",
    "raw",
    "cooked",
    "created_at",
    "updated_at",
    "reply_to_post_number",
    "reply_count",
    "quote_count",
    "like_count",
    "score",
    "reads",
    "post_type",
    "sort_order",
    "last_editor_id",
    "last_version_at",
    "reply_to_user_id",
    "percent_rank",
    "word_count",
    "baked_at",
    "baked_version",
    "action_code",
    "image_upload_id",
];

/// One post as `PostCreator` fills it, before the counters move.
#[derive(Clone)]
struct Post {
    user: i64,
    topic: i64,
    number: i64,
    raw: String,
    post_type: i64,
    reply_to: Option<(i64, i64)>,
    action: Option<&'static str>,
    image: Option<i64>,
    at: i64,
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(11);
    let mut f = Fixture::new("posts", COLUMNS);
    let end = T0 + 30 * DAY;
    // (next post number, posts by number: user) per topic.
    let mut topics: Vec<(i64, Vec<i64>)> = Vec::new();
    let mut posts: Vec<(Post, bool)> = Vec::new();
    let mut t = T0;
    let short = ["Thanks, that fixed it!", "Same here.", "+1, seeing this too.", "Great, thank you!"];
    while posts.len() < 1_960 {
        // Replies come minutes apart, and in a busy topic seconds apart.
        t += if r.chance(0.1) { r.range(2, 20) * SECOND } else { r.range(60, 1_500) * SECOND };
        let new_topic = topics.len() < 10 || (topics.len() < 120 && r.chance(0.06));
        let user = if r.chance(0.1) { r.range(1, 5) } else { r.range(6, 150) };
        let topic_ix = if new_topic {
            topics.push((1, Vec::new()));
            topics.len() - 1
        } else {
            r.skewed(topics.len() as u64) as usize
        };
        let topic = 1_000 + topic_ix as i64;
        let number = topics[topic_ix].0;
        let small_action = number > 1 && r.chance(0.08);
        let whisper = !small_action && number > 1 && user <= 5 && r.chance(0.3);
        let (raw, post_type, action, user) = if small_action {
            let action = *r.pick(&["closed.enabled", "pinned.enabled", "visible.disabled", "autoclosed.enabled"]);
            (String::new(), 3, Some(action), if r.chance(0.5) { -1 } else { r.range(1, 5) })
        } else if number > 1 && r.chance(0.05) {
            (r.pick(&short).to_string(), if whisper { 4 } else { 1 }, None, user)
        } else {
            let n = 6 + r.below(10) as usize;
            let mut raw = sentence(&mut r, n);
            if r.chance(0.3) {
                raw.push_str(&format!("\n\n{}", sentence(&mut r, 5)));
            }
            (raw, if whisper { 4 } else { 1 }, None, user)
        };
        let reply_to = (number > 2 && action.is_none() && r.chance(0.4)).then(|| {
            let to = r.range(1, number - 1);
            (to, topics[topic_ix].1[(to - 1) as usize])
        });
        let image = (action.is_none() && r.chance(0.1)).then(|| r.range(10_000, 99_999));
        topics[topic_ix].0 += 1;
        topics[topic_ix].1.push(user);
        let post = Post { user, topic, number, raw, post_type, reply_to, action, image, at: t };
        posts.push((post.clone(), false));
        // A retried reply (a race past the unique-post check, or staff):
        // the next number in the topic, moments later.
        if number > 1 && action.is_none() && post_type == 1 && r.chance(0.011) {
            let number = topics[topic_ix].0;
            topics[topic_ix].0 += 1;
            topics[topic_ix].1.push(user);
            let at = t + super::client_retry_delay(&mut r);
            posts.push((Post { number, at, ..post }, true));
        } else if number == 1 && r.chance(0.03) {
            // A retried new topic: a second topic with the same first post.
            topics.push((2, vec![user]));
            let topic = 1_000 + topics.len() as i64 - 1;
            let at = t + super::client_retry_delay(&mut r);
            posts.push((Post { topic, at, ..post }, false));
        }
    }
    posts.sort_by_key(|(p, _)| p.at);
    let mut hidden_new_topics = Vec::new();
    for (i, (p, retry)) in posts.iter().enumerate() {
        let id = 1 + i as i64;
        let age_days = (end - p.at) as f64 / DAY as f64;
        // Counters move after the create: each post has its own.
        let reads = 1 + r.below((2.0 + age_days * 8.0).min(300.0) as u64) as i64;
        let likes = if r.chance(0.4) { r.below(1 + (age_days as u64).min(25)) as i64 } else { 0 };
        let score = (p.at < end - 6 * HOUR).then(|| (r.below(20_000) as f64) / 100.0);
        let rank = if p.at < end - 6 * HOUR { r.below(1000) as f64 / 1000.0 } else { 1.0 };
        let cooked =
            if p.raw.is_empty() { String::new() } else { format!("<p>{}</p>", p.raw.replace("\n\n", "</p>\n<p>")) };
        let words = p.raw.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).count() as i64;
        f.push(&[
            ("id", V::I(id)),
            ("user_id", V::I(p.user)),
            ("topic_id", V::I(p.topic)),
            ("post_number", V::I(p.number)),
            ("raw", V::t(&p.raw)),
            ("cooked", V::t(cooked)),
            ("created_at", V::At(p.at)),
            ("updated_at", V::At(p.at)),
            ("reply_to_post_number", V::opt_i(p.reply_to.map(|(n, _)| n))),
            ("reply_count", V::I(0)),
            ("quote_count", V::I(0)),
            ("like_count", V::I(likes)),
            ("score", score.map_or(V::Null, V::F)),
            ("reads", V::I(reads)),
            ("post_type", V::I(p.post_type)),
            ("sort_order", V::I(p.number)),
            ("last_editor_id", V::I(p.user)),
            ("last_version_at", V::At(p.at)),
            ("reply_to_user_id", V::opt_i(p.reply_to.map(|(_, u)| u))),
            ("percent_rank", V::F(rank)),
            ("word_count", V::I(words)),
            ("baked_at", V::At(p.at + 4_000)),
            ("baked_version", V::I(2)),
            ("action_code", V::opt_t(p.action)),
            ("image_upload_id", V::opt_i(p.image)),
        ]);
        if *retry {
            f.extras.insert(id.to_string());
        } else if p.number == 1
            && i > 0
            && posts[..i]
                .iter()
                .any(|(q, _)| q.number == 1 && q.raw == p.raw && q.user == p.user && p.at - q.at < 120 * SECOND)
        {
            hidden_new_topics.push(id.to_string());
        }
    }
    f.hidden = hidden_new_topics.into_iter().collect();
    f
}
