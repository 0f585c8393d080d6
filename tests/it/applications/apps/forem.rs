//! Forem (Ruby on Rails, PostgreSQL only): `comments`, as the comment box under a post and under a comment
//! (`POST /comments`: `CommentsController#create` with `CommentCreator`; the iOS and Android apps are web views of the
//! same pages, and the REST API, v0 and v1, only reads comments) and the moderators' canned replies posted as the
//! community's mascot (`CommentsController#moderator_create`) write it, and as people react, reply, edit, delete and
//! hide afterwards: one community Forem (about a thousand active members, a weekly welcome thread, two podcasts), 60
//! days.
//! Read: forem/forem db/schema.rb (c069106, 2021-05, and the Rails 7.0 dump of 2022-08-04 found by code search: the
//! columns in the alphabetical order the schema dump and `db:schema:load` give them, the unique index on
//! `digest(body_markdown, 'sha512'), user_id, ancestry, commentable_id, commentable_type`, the GIN and partial indexes,
//! `add_foreign_key "comments", "users"`), the migration that made that index (`CREATE UNIQUE INDEX CONCURRENTLY`,
//! pgcrypto), app/models/comment.rb (23720f9 and older), app/services/comment_creator.rb (a3988dc), config/database.yml
//! (`statement_timeout` 2500 ms); yoshiakist/forem-with-specre (4132c92, 68c23a7: a 2026 copy of forem main):
//! app/models/comment.rb (`has_ancestry`, the uniqueness validation scoped to user, ancestry and commentable,
//! `evaluate_markdown`, `shorten_urls!`, `set_markdown_character_count`, `synchronous_spam_score_check`,
//! `adjust_comment_parent_based_on_depth`, `create_id_code`, `expire_root_fragment`, `before_destroy_actions`),
//! app/controllers/comments_controller.rb (`create`, `moderator_create`, `update`, `destroy`, `hide`, `admin_delete`),
//! app/services/comment_creator.rb, app/policies/comment_policy.rb, app/controllers/concerns/api/
//! comments_controller.rb, app/controllers/api/v1/comments_controller.rb, app/models/reaction.rb (`counter_culture`
//! into `public_reactions_count` or `reactions_count`), app/services/calculate_reaction_points.rb,
//! app/services/comments/calculate_score.rb, app/workers/comments/ (calculate score, handle spam), app/services/
//! rate_limit_checker.rb, app/models/settings/rate_limit.rb, app/services/exporter/comments.rb, its card
//! `user_creates_comment`; `BlackBox.comment_quality_score` and `Reactions::UpdateRelevantScoresWorker` (found by code
//! search); forem/forem issue #16605 ("Body markdown has already been taken" on a second submit).
//! On a create: `id` from the sequence (every INSERT takes one, also those rolled back or destroyed right after);
//! `id_code` the id in base 26 (`update_column` in `after_create`); `ancestry` NULL for a comment on the post, else the
//! ids of the root, …, the parent joined by '/' (a reply to a comment two or more levels down that already has replies
//! goes under its last descendant); `body_markdown` as typed, `processed_html` its rendering (paragraphs `<p>…</p>`
//! each followed by two newlines, `<code>`, links with `rel="nofollow"` whose text loses its scheme and `www.` and is
//! cut to 37 characters, mentions as `mentioned-user` links), `markdown_character_count` its length in characters;
//! `body_html` NULL, `edited` false, `positive_reactions_count` 0 and `spaminess_rating` 0 (columns no current code
//! writes), `receive_notifications` true; `created_at` the request's time (µs, UTC, no zone), `updated_at` the same (a
//! root touches itself a few ms later), then set again with `score` by `Comments::CalculateScore` seconds later from
//! Sidekiq: the reactions' points + half the descendants + 2 for more than 200 characters + 1 for a backtick − 500 for
//! a spam-flagged author. `CommentCreator` then adds the author's own like (`public_reactions_count` 1; five points on
//! a comment on one's own post, less for members younger than ten days); the mascot's canned replies get none.
//! Later: each reaction bumps `public_reactions_count` (likes, unicorns, …) or `reactions_count` (the privileged thumbs
//! up and down, the mascot's vomit on spam) and, from Sidekiq, saves the comment (the root is touched) and recomputes
//! `score` and `updated_at`; a reply touches its root; an edit sets `body_markdown`, `processed_html`, the count and
//! `edited_at`; a delete destroys a comment without replies (its ancestors' `updated_at` set) and only sets `deleted`
//! on one with replies; admins set `deleted` on spam; a post's author can set `hidden_by_commentable_user`.
//! Retries. The uniqueness validation refuses a second submit once the first is stored (a resend after a timeout, a
//! resubmit minutes later: the 422 of issue #16605), the unique index refuses a concurrent second reply (`ancestry` is
//! set: a `RecordNotUnique` that costs an id), and `CommentCreator` checks the record again after saving and destroys
//! it if a twin exists (the rate limits count stored comments and stop neither copy). So a retry leaves a row only on a
//! comment on the post (NULL `ancestry` is distinct in the index) when both requests were saved together (a double tap
//! or Enter then click, 20-100 ms; or a resend that queued behind a stuck first request, the two then run a few ms
//! apart) and the later one failed after its commit, before its check (the statement timeout while sending
//! notifications on a busy thread): about two in five of those races; else the later destroys itself, sometimes the
//! earlier does and the later stays, rarely both. A user who resubmits after that error has the controller destroy the
//! twin. The moderators' form has no check at all (two double clicks). The twins stay, are deleted by their author
//! (destroyed without replies), hidden by the post's author, or get replies (sometimes the post's author thanks both);
//! twice the author fixed a typo in the copy only (hidden: the same person posting the corrected text again looks just
//! like that). Three in the last day.
//! Legitimate repeats: the uniqueness validation forbids one person the same text twice under the same parent, so they
//! differ in `ancestry` or `commentable_id` only: a post's author thanking each commenter ("Thanks for reading!"),
//! welcome ambassadors greeting each newcomer in the weekly welcome thread and newcomers thanking each of them,
//! "Agreed!" under several comments, one person's "Great post!" on many posts, the mascot's canned replies on many
//! posts and comments, spam runs of one text on several posts minutes apart. A text refused as a repeat is sent again
//! with something added. Plain near-repeats: the same short praise from different people on one post.
//! Guessed: the community, its members, posts, podcasts, rhythms and rates; the texts; how often requests go out twice,
//! how those races end and why the later request fails after its commit; Sidekiq's latencies; the reaction points (like
//! 1, thumbs up 5, thumbs down −10, vomit −50); that spam is flagged at the third vomit; the host in mention links. The
//! foreign key to `users` is left out with its table.
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// What `db:schema:load` runs for the table (the extensions its indexes need first).
const DDL: &str = r#"CREATE EXTENSION IF NOT EXISTS "pg_trgm";
CREATE EXTENSION IF NOT EXISTS "pgcrypto";
CREATE TABLE "comments" ("id" bigserial primary key, "ancestry" character varying, "body_html" text,
"body_markdown" text, "commentable_id" bigint, "commentable_type" character varying, "created_at" timestamp NOT NULL,
"deleted" boolean DEFAULT FALSE, "edited" boolean DEFAULT FALSE, "edited_at" timestamp,
"hidden_by_commentable_user" boolean DEFAULT FALSE, "id_code" character varying, "markdown_character_count" integer,
"positive_reactions_count" integer DEFAULT 0 NOT NULL, "processed_html" text,
"public_reactions_count" integer DEFAULT 0 NOT NULL, "reactions_count" integer DEFAULT 0 NOT NULL,
"receive_notifications" boolean DEFAULT TRUE, "score" integer DEFAULT 0, "spaminess_rating" integer DEFAULT 0,
"updated_at" timestamp NOT NULL, "user_id" bigint);
CREATE UNIQUE INDEX "index_comments_on_body_markdown_user_ancestry_commentable" ON "comments"
(digest(body_markdown, 'sha512'::text), user_id, ancestry, commentable_id, commentable_type);
CREATE INDEX "index_comments_on_body_markdown_as_tsvector" ON "comments" USING gin
(to_tsvector('simple'::regconfig, COALESCE(body_markdown, ''::text)));
CREATE INDEX "index_comments_on_ancestry" ON "comments" ("ancestry");
CREATE INDEX "index_comments_on_ancestry_trgm" ON "comments" USING gin ("ancestry" gin_trgm_ops);
CREATE INDEX "index_comments_on_commentable_id_and_commentable_type" ON "comments"
("commentable_id", "commentable_type");
CREATE INDEX "index_comments_on_created_at" ON "comments" ("created_at");
CREATE INDEX "index_comments_on_deleted" ON "comments" ("deleted") WHERE (deleted = false);
CREATE INDEX "index_comments_on_hidden_by_commentable_user" ON "comments" ("hidden_by_commentable_user")
WHERE (hidden_by_commentable_user = false);
CREATE INDEX "index_comments_on_score" ON "comments" ("score");
CREATE INDEX "index_comments_on_user_id" ON "comments" ("user_id")"#;

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => DDL.to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("Forem runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "id ancestry body_html body_markdown commentable_id commentable_type created_at deleted edited \
    edited_at hidden_by_commentable_user id_code markdown_character_count positive_reactions_count processed_html \
    public_reactions_count reactions_count receive_notifications score spaminess_rating updated_at user_id";

const NOW: i64 = T0;
const DAYS: i64 = 60;
const START: i64 = T0 - DAYS * DAY;
/// The last comment id before the window.
const ID0: i64 = 171_204;
const HOST: &str = "https://community.forgeworks.dev";
/// The first comment on a post after each of these goes out twice and both copies stay.
const LATE: [i64; 3] = [NOW - 21 * HOUR, NOW - 10 * HOUR, NOW - 3 * HOUR];
/// Comments per hour of the day (UTC), relative: Europe, India and the Americas.
const RHYTHM: [i64; 24] = [5, 4, 4, 4, 5, 7, 8, 9, 10, 10, 11, 12, 13, 14, 14, 14, 13, 12, 11, 10, 9, 8, 7, 6];
/// The share of creates whose request went out twice (a double tap, Enter then click, a resend after a timeout).
const RESENT: f64 = 0.1;
/// The mascot's account, that posts the welcome threads and the moderators' canned replies.
const MASCOT: usize = 0;

const FIRST: &[&str] = &[
    "Anna", "Ben", "Chloe", "David", "Elif", "Femi", "Grace", "Hiro", "Ines", "Jonas", "Kofi", "Lena", "Marco",
    "Nadia", "Omar", "Paula", "Quentin", "Rahul", "Sara", "Tomas", "Uma", "Victor", "Wen", "Yusuf", "Zoe", "Aisha",
    "Bruno", "Carmen", "Dmitri", "Emma", "Felipe", "Hana", "Ivan", "Julia", "Kenji", "Lucas", "Mei", "Nikhil", "Olga",
    "Priya",
];
const LAST: &[&str] = &[
    "silva", "kim", "patel", "nguyen", "smith", "garcia", "mueller", "rossi", "tanaka", "okafor", "novak", "haddad",
    "costa", "jensen", "singh", "lopez", "ivanova", "dubois",
];
#[rustfmt::skip]
const PLACES: &[&str] = &[
    "Lagos", "Berlin", "São Paulo", "Pune", "Toronto", "Manila", "Nairobi", "Lisbon", "Austin", "Kraków", "Jakarta",
    "Bogotá", "Melbourne", "Cairo", "Seoul", "Dublin",
];
const ROLES: &[&str] = &[
    "frontend developer",
    "self-taught developer",
    "CS student",
    "data engineer",
    "backend developer",
    "bootcamp grad",
    "mobile developer",
    "DevOps engineer",
    "QA engineer turning developer",
];
#[rustfmt::skip]
const TOOLS: &[&str] = &[
    "React", "Vue", "Svelte", "Rust", "Go", "Python", "TypeScript", "Docker", "Kubernetes", "Postgres", "SQLite",
    "Redis", "Terraform", "GitHub Actions", "Next.js", "Tailwind", "GraphQL", "Deno", "Bun", "Django", "Rails",
    "Laravel", "Kafka", "Neovim", "Astro", "htmx", "Prisma", "FastAPI",
];
const TOPICS: &[&str] = &[
    "error handling",
    "caching",
    "state management",
    "code reviews",
    "testing",
    "CI pipelines",
    "dependency updates",
    "database indexes",
    "accessibility",
    "monorepos",
    "feature flags",
    "logging",
    "rate limiting",
    "pagination",
    "memory leaks",
    "type safety",
    "naming things",
    "onboarding",
    "technical debt",
    "migrations",
];
const CMDS: &[&str] = &[
    "git rebase -i",
    "docker compose up --build",
    "npm ci",
    "cargo clippy",
    "EXPLAIN ANALYZE",
    "kubectl rollout restart",
    "git bisect",
    "pnpm dedupe",
    "terraform plan",
    "python -m venv .venv",
    "git worktree add",
    "jq -r",
];
const FIXES: &[&str] = &[
    "pinning the version",
    "writing our own wrapper",
    "moving the job to a queue",
    "adding an index",
    "splitting the service in two",
    "turning the feature off",
    "caching the response for a minute",
];
const ADVICE: &[&str] = &[
    "measure before optimizing",
    "keep the config in one place",
    "write the test first",
    "log the request id everywhere",
    "don't forget the rollback path",
    "read the changelog before upgrading",
];
const OPINIONS: &[&str] = &[
    "this matches my experience",
    "I never thought about it this way",
    "it still surprises me",
    "I'd make the same call",
];
const REPOS: &[&str] = &[
    "https://github.com/sharkdp/hyperfine",
    "https://github.com/rust-lang/rustlings",
    "https://github.com/postgres/postgres/blob/master/src/backend/access/nbtree/README",
    "https://developer.mozilla.org/en-US/docs/Web/API/AbortController",
    "https://www.postgresql.org/docs/current/indexes-partial.html",
    "https://docs.docker.com/build/cache/",
    "https://web.dev/articles/vitals",
    "https://github.com/tc39/proposal-temporal",
];
/// Praise people leave under a post.
const PRAISE: &[&str] = &[
    "Great post!",
    "Great article!",
    "Thanks for sharing!",
    "Thanks for sharing! 🙌",
    "Very helpful, thanks!",
    "This is awesome 🔥",
    "Bookmarked! 🔖",
    "Nice write-up!",
    "Love this!",
    "Super helpful, thank you!",
    "Well explained 👏",
    "Great read!",
    "Saved for later!",
];
/// A post's author answering a commenter.
const THANKS: &[&str] = &[
    "Thanks!",
    "Thank you!",
    "Thanks for reading!",
    "Thanks for reading! 🙌",
    "Glad you liked it!",
    "Glad it helped!",
    "Thank you so much! 😊",
    "Appreciate it!",
    "Happy to help!",
];
/// A commenter (or a newcomer) answering back.
const THANKS_BACK: &[&str] =
    &["Thanks for the reply!", "Makes sense, thanks!", "Thank you!", "Thanks! 😊", "Got it, thanks!"];
const AGREE: &[&str] = &["Agreed!", "Same here!", "+1", "This 👆", "So true!", "Exactly this."];
const WELCOME: &[&str] = &[
    "Welcome! 👋",
    "Welcome to the community! 🎉",
    "Welcome aboard!",
    "Hey, welcome! 👋",
    "Welcome! Glad to have you here.",
];
/// What a refused repeat is sent again with.
const SUFFIXES: &[&str] = &[" 🙏", "!", " 😊", " 👍", " :)"];
const NOTES: &[&str] = &[
    "Edit: fixed the link.",
    "Edit: typo.",
    "Update: got it working, thanks everyone!",
    "Edit: added an example.",
    "EDIT: never mind, found it in the docs.",
];
/// Misspelled fragments and the fix an edit makes.
const TYPOS: &[(&str, &str, &str)] = &[
    (" Definately worth a read.", "Definately", "Definitely"),
    (" I wonder if you'll recieve more feedback on this.", "recieve", "receive"),
    (" It's a wierd edge case though.", "wierd", "weird"),
    (" Thier docs don't mention it either.", "Thier", "Their"),
    (" The fucntion name threw me off.", "fucntion", "function"),
    (" It's becuase of the cache, I think.", "becuase", "because"),
];
const MOD_TOP: &[&str] = &[
    "Hey there! Thanks for sharing. This post mostly links to an external site. The community works best when authors \
     share the full post here, so folks can read and discuss it without leaving. Have a look at our [content \
     guidelines](https://community.forgeworks.dev/content-guidelines) for details. 🙏",
    "Hi! This post reads like it was written with a lot of help from AI. That's fine, but our [guidelines for \
     AI-assisted posts](https://community.forgeworks.dev/ai-guidelines) ask authors to say so and to check the facts \
     before publishing. Thanks for understanding!",
];
const MOD_REPLY: &str = "Hi there, please keep the conversation kind and on topic. See our [Code of \
    Conduct](https://community.forgeworks.dev/code-of-conduct) for details. Thanks!";
const SPAM: &[(&str, &str, &str)] = &[
    ("Lost money to a fake broker? ", "https://fund-recovery-desk.example/contact", " got mine back in 48 hours!"),
    ("Need help with assignments? Try ", "https://top-essay-helpers.example/order", ", fast and cheap."),
    ("Best deals on followers and likes: ", "https://grow-followers.example/instagram", " 💯"),
    ("Looking for a reliable hacker? ", "https://ethical-recovery-pro.example", " helped me recover my account."),
];

struct User {
    id: i64,
    name: String,
    first: &'static str,
    registered: i64,
    trusted: bool,
}

/// A commentable: an article (a welcome thread too) or a podcast episode.
struct Post {
    id: i64,
    kind: &'static str,
    author: Option<usize>,
    published: i64,
    heat: f64,
    welcome: bool,
}

struct World {
    users: Vec<User>,
    posts: Vec<Post>,
    /// Members before the window, the most active first.
    regulars: Vec<usize>,
    /// Members who joined in the window (not the spammers), in the order they joined.
    newcomers: Vec<usize>,
    ambassadors: Vec<usize>,
    spammers: Vec<usize>,
}

#[derive(Clone)]
enum Seg {
    Text(String),
    Code(&'static str),
    Url(&'static str),
    Link(String, String),
    Mention(String),
}

/// A text as typed: paragraphs of segments.
#[derive(Clone, Default)]
struct Body {
    paras: Vec<Vec<Seg>>,
}

impl Body {
    fn text(s: impl Into<String>) -> Body {
        Body { paras: vec![vec![Seg::Text(s.into())]] }
    }

    /// Text added at the end of the last paragraph.
    fn push(&mut self, tail: &str) {
        if let Some(p) = self.paras.last_mut() {
            p.push(Seg::Text(tail.to_string()));
        }
    }

    fn markdown(&self) -> String {
        let para = |p: &Vec<Seg>| -> String {
            p.iter()
                .map(|s| match s {
                    Seg::Text(t) => t.clone(),
                    Seg::Code(c) => format!("`{c}`"),
                    Seg::Url(u) => u.to_string(),
                    Seg::Link(t, u) => format!("[{t}]({u})"),
                    Seg::Mention(n) => format!("@{n}"),
                })
                .collect()
        };
        self.paras.iter().map(para).collect::<Vec<_>>().join("\n\n")
    }

    /// `processed_html`: the rendering after `shorten_urls!`.
    fn html(&self) -> String {
        let para = |p: &Vec<Seg>| -> String {
            let inner: String = p
                .iter()
                .map(|s| match s {
                    Seg::Text(t) => esc(t),
                    Seg::Code(c) => format!("<code>{}</code>", esc(c)),
                    Seg::Url(u) => format!("<a href=\"{u}\" rel=\"nofollow\">{}</a>", esc(&shorten(u))),
                    Seg::Link(t, u) => format!("<a href=\"{u}\" rel=\"nofollow\">{}</a>", esc(&shorten(t))),
                    Seg::Mention(n) => format!("<a class=\"mentioned-user\" href=\"{HOST}/{n}\">@{n}</a>"),
                })
                .collect();
            format!("<p>{inner}</p>\n\n")
        };
        self.paras.iter().map(para).collect()
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// `strip_url`: a link's text without its scheme and `www.`, cut to 37 characters unless it has a space.
fn shorten(text: &str) -> String {
    let s = text.replacen("https://", "", 1).replacen("http://", "", 1).replacen("www.", "", 1);
    if s.contains(' ') || s.chars().count() <= 37 {
        return s;
    }
    let cut: String = s.chars().take(34).collect();
    format!("{cut}...")
}

/// `Integer#to_s(26)`.
fn base26(mut n: i64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnop";
    let mut out = Vec::new();
    while n > 0 {
        out.push(DIGITS[(n % 26) as usize]);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// A delay between `lo` and `hi` seconds, log-uniform (most of them short), in µs.
fn later(r: &mut Rng, lo: i64, hi: i64) -> i64 {
    let s = lo as f64 * (hi as f64 / lo as f64).powf(r.unit());
    (s * 1e6) as i64
}

fn poisson(r: &mut Rng, mean: f64) -> usize {
    let (limit, mut p, mut k) = ((-mean).exp(), 1.0, 0);
    loop {
        p *= r.unit();
        if p <= limit || k >= 12 {
            return k;
        }
        k += 1;
    }
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

fn username(r: &mut Rng, names: &mut HashSet<String>, first: &str) -> String {
    let f = first.to_lowercase();
    loop {
        let name = match r.below(4) {
            0 => format!("{f}{}", r.range(1, 99)),
            1 => format!("{f}_{}", r.pick(LAST)),
            2 => format!("{f}{}", r.pick(LAST)),
            _ => format!("{f}dev{}", r.range(1, 9)),
        };
        if name.is_ascii() && names.insert(name.clone()) {
            return name;
        }
    }
}

fn world(r: &mut Rng) -> World {
    let mut users =
        vec![User { id: 3, name: "sparky".into(), first: "Sparky", registered: START - 1_600 * DAY, trusted: true }];
    let mut names: HashSet<String> = HashSet::from(["sparky".to_string()]);
    let mut taken: HashSet<i64> = HashSet::from([1, 2, 3, 14]);
    for (id, first) in [(1, "Ana"), (2, "Tomasz"), (14, "Priya")] {
        let name = username(r, &mut names, first);
        users.push(User { id, name, first, registered: START - 1_500 * DAY, trusted: true });
    }
    let mut fresh_id = |r: &mut Rng| loop {
        let id = r.range(20, 40_900);
        if taken.insert(id) {
            break id;
        }
    };
    let mut ambassadors = Vec::new();
    for _ in 0..5 {
        let first = r.one(FIRST);
        let (id, name) = (fresh_id(r), username(r, &mut names, first));
        let registered = START - r.range(300, 1_400) * DAY;
        ambassadors.push(users.len());
        users.push(User { id, name, first, registered, trusted: true });
    }
    let mut regulars = Vec::new();
    for _ in 0..950 {
        let first = r.one(FIRST);
        let (id, name) = (fresh_id(r), username(r, &mut names, first));
        let registered = START - r.range(12, 1_500) * DAY - micros(r) * 60;
        regulars.push(users.len());
        let trusted = r.chance(0.06);
        users.push(User { id, name, first, registered, trusted });
    }
    // Sign-ups in the window, in order: their ids follow the users sequence.
    let mut joins: Vec<(i64, bool)> = Vec::new();
    for d in 0..DAYS {
        for _ in 0..r.range(3, 8) {
            joins.push((START + d * DAY + r.range(0, 86_399) * SECOND + micros(r), false));
        }
    }
    for _ in 0..10 {
        joins.push((START + r.range(1, DAYS - 2) * DAY + r.range(0, 86_399) * SECOND, true));
    }
    joins.sort_by_key(|j| j.0);
    let (mut newcomers, mut spammers, mut id) = (Vec::new(), Vec::new(), 41_000);
    for (registered, spam) in joins {
        id += r.range(1, 4);
        let first = r.one(FIRST);
        let name = if spam {
            format!("{}{}", r.one(&["bestdeals", "recoverpro", "essayhelp", "growfast"]), r.range(100, 9_999))
        } else {
            username(r, &mut names, first)
        };
        if spam {
            spammers.push(users.len());
        } else {
            newcomers.push(users.len());
        }
        users.push(User { id, name, first, registered, trusted: false });
    }
    let posts = posts(r, &regulars);
    World { users, posts, regulars, newcomers, ambassadors, spammers }
}

/// Articles from before the window, the window's articles and weekly welcome threads, the podcasts' episodes.
fn posts(r: &mut Rng, regulars: &[usize]) -> Vec<Post> {
    let mut writers: Vec<usize> = (0..140).map(|_| regulars[r.skewed(regulars.len() as u64) as usize]).collect();
    writers.extend([1, 2, 3]);
    let mut posts = Vec::new();
    let mut old: Vec<i64> = (0..170).map(|_| r.range(9_000, 23_900)).collect();
    old.sort_unstable();
    old.dedup();
    for (i, &id) in old.iter().enumerate() {
        let published = START - (700 - 4 * i as i64).max(8) * DAY + r.range(0, 86_399) * SECOND;
        let author = Some(*r.pick(&writers));
        posts.push(Post {
            id,
            kind: "Article",
            author,
            published,
            heat: r.range(3, 30) as f64 / 100.0,
            welcome: false,
        });
    }
    // The window's articles and welcome threads (the last one before the window too), numbered as published.
    let mut new: Vec<(i64, bool)> = Vec::new();
    for d in -7..DAYS {
        let d0 = START + d * DAY;
        for _ in 0..if d < 0 { 0 } else { r.range(4, 9) } {
            let hour = r.weighted(&RHYTHM) as i64;
            new.push((d0 + hour * HOUR + r.range(0, 3_599) * SECOND + micros(r), false));
        }
        if weekday(d0) == 2 {
            new.push((d0 + 15 * HOUR + r.range(0, 300) * SECOND, true));
        }
    }
    new.sort_by_key(|n| n.0);
    let mut id = 23_950;
    for (published, welcome) in new {
        id += r.range(1, 5);
        let (author, heat) = if welcome {
            (Some(MASCOT), 0.0)
        } else if r.chance(0.08) {
            (Some(*r.pick(&writers)), r.range(25, 60) as f64 / 10.0)
        } else {
            (Some(*r.pick(&writers)), r.range(2, 18) as f64 / 10.0)
        };
        posts.push(Post { id, kind: "Article", author, published, heat, welcome });
    }
    // Two podcasts, weekly; their episodes have no author a comment could belong to.
    let mut id = 1_290;
    for week in -3..(DAYS / 7 + 1) {
        for (show, day) in [(0, 1), (1, 4)] {
            let published = START + (week * 7 + day) * DAY + (13 + show) * HOUR;
            if published < NOW - HOUR {
                id += r.range(1, 2);
                posts.push(Post { id, kind: "PodcastEpisode", author: None, published, heat: 0.3, welcome: false });
            }
        }
    }
    posts
}

/// A post to comment on at `t`: the fresh and hot ones mostly, a few from the archive (search).
fn pick_post(r: &mut Rng, w: &World, t: i64) -> Option<usize> {
    let weights: Vec<f64> = w
        .posts
        .iter()
        .map(|p| {
            if p.welcome || p.published > t - 2 * MINUTE {
                return 0.0;
            }
            let age = (t - p.published) as f64 / HOUR as f64;
            p.heat / (1.0 + age / 20.0).powf(1.5) + 0.0015
        })
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let mut x = r.unit() * total;
    for (i, wt) in weights.iter().enumerate() {
        if x < *wt {
            return Some(i);
        }
        x -= wt;
    }
    None
}

/// The welcome thread newcomers are pointed to at `t`.
fn welcome_thread(w: &World, t: i64) -> Option<usize> {
    (0..w.posts.len()).filter(|&k| w.posts[k].welcome && w.posts[k].published < t).max_by_key(|&k| w.posts[k].published)
}

/// Someone commenting at `t`: the regulars mostly, sometimes a newcomer, never the post's author.
fn commenter(r: &mut Rng, w: &World, t: i64, not: Option<usize>) -> usize {
    loop {
        let u = if r.chance(0.12) {
            let joined = w.newcomers.iter().take_while(|&&u| w.users[u].registered < t - 10 * MINUTE).count();
            if joined == 0 {
                continue;
            }
            w.newcomers[r.below(joined as u64) as usize]
        } else {
            w.regulars[r.skewed(w.regulars.len() as u64) as usize]
        };
        if Some(u) != not {
            return u;
        }
    }
}

/// One sentence of a comment that says something (of a kind not in `used` yet).
fn sentence(r: &mut Rng, w: &World, used: &mut Vec<u64>) -> Vec<Seg> {
    let text = |s: String| vec![Seg::Text(s)];
    let mut kind = r.below(11);
    while used.contains(&kind) {
        kind = r.below(11);
    }
    used.push(kind);
    match kind {
        0 => text(format!("I've been using {} for {} years and {}.", r.pick(TOOLS), r.range(2, 9), r.pick(OPINIONS))),
        1 => text(format!("The part about {} was really useful.", r.pick(TOPICS))),
        2 => vec![
            Seg::Text("Have you tried ".into()),
            Seg::Code(r.one(CMDS)),
            Seg::Text("? It saves a lot of time.".into()),
        ],
        3 => text(format!("We ran into the same issue with {} at work and ended up {}.", r.pick(TOOLS), r.pick(FIXES))),
        4 => vec![Seg::Text("There's a good write-up on this here: ".into()), Seg::Url(r.one(REPOS))],
        5 => text(format!("One thing I'd add: {}.", r.pick(ADVICE))),
        6 => {
            let u = w.regulars[r.skewed(200) as usize];
            vec![Seg::Mention(w.users[u].name.clone()), Seg::Text(" you might find this interesting.".into())]
        }
        7 => text(format!("How does this compare to {}?", r.pick(TOOLS))),
        8 => text(format!("Great breakdown of {}, thanks for writing this up.", r.pick(TOPICS))),
        9 => text(format!("Not sure I agree about {}, but it's a good read.", r.pick(TOPICS))),
        _ => text(format!(
            "We switched to {} last year and {} made the biggest difference.",
            r.pick(TOOLS),
            r.pick(TOPICS)
        )),
    }
}

/// A reply in a conversation.
fn answer(r: &mut Rng) -> Vec<Seg> {
    let text = |s: String| vec![Seg::Text(s)];
    match r.below(7) {
        0 => text(format!("Good point! I think it depends on {}.", r.pick(TOPICS))),
        1 => vec![
            Seg::Text("Thanks for the tip about ".into()),
            Seg::Code(r.one(CMDS)),
            Seg::Text(", didn't know that one.".into()),
        ],
        2 => text(format!("Yes! {} handles that pretty well.", r.pick(TOOLS))),
        3 => text(format!("Same here, {} helped us too.", r.pick(FIXES))),
        4 => text(format!("Could you share a link to the {} setup you used?", r.pick(TOOLS))),
        5 => text(format!("Interesting, I'll give {} a try.", r.pick(TOOLS))),
        _ => text(format!("Did you measure it? In our case {} was the bottleneck.", r.pick(TOPICS))),
    }
}

/// A post's author answering in a conversation.
fn author_answer(r: &mut Rng) -> Vec<Seg> {
    match r.below(5) {
        0 => vec![Seg::Text(format!("Great question! I'll add a section about {} to the post.", r.pick(TOPICS)))],
        1 => vec![Seg::Text("Good catch, I've updated the post.".into())],
        _ => answer(r),
    }
}

/// What a comment on a post says; the misspelling its author may fix later; whether it is stock praise.
fn top_body(r: &mut Rng, w: &World) -> (Body, Option<usize>, bool) {
    if r.chance(0.22) {
        return (Body::text(r.one(PRAISE)), None, true);
    }
    let n = match r.below(10) {
        0..=5 => 1,
        6..=8 => 2,
        _ => 3,
    };
    let (mut body, mut used) = (Body::default(), Vec::new());
    for _ in 0..n {
        let mut para = sentence(r, w, &mut used);
        for _ in 0..r.below(3) {
            para.push(Seg::Text(" ".into()));
            para.extend(sentence(r, w, &mut used));
        }
        body.paras.push(para);
    }
    let typo = r.chance(0.05).then(|| r.below(TYPOS.len() as u64) as usize);
    if let Some(k) = typo
        && let Some(p) = body.paras.first_mut()
    {
        p.push(Seg::Text(TYPOS[k].0.to_string()));
    }
    (body, typo, false)
}

/// A create request as the server got it.
#[derive(Clone)]
struct Intent {
    at: i64,
    user: usize,
    post: usize,
    /// The comment answered (an intent), or the very row (the other copy of a twin).
    parent: Option<usize>,
    parent_row: Option<usize>,
    body: Body,
    typo: Option<usize>,
    /// A short stock text (no edits).
    stock: bool,
    /// Posted by a moderator as the mascot.
    moderator: bool,
    /// Goes out twice and both copies stay.
    forced: bool,
    spam: bool,
}

impl Intent {
    fn new(at: i64, user: usize, post: usize, body: Body) -> Intent {
        Intent {
            at,
            user,
            post,
            parent: None,
            parent_row: None,
            body,
            typo: None,
            stock: false,
            moderator: false,
            forced: false,
            spam: false,
        }
    }

    fn reply(at: i64, user: usize, post: usize, parent: usize, body: Body, stock: bool) -> Intent {
        Intent { parent: Some(parent), stock, ..Intent::new(at, user, post, body) }
    }
}

fn push(v: &mut Vec<Intent>, x: Intent) -> usize {
    v.push(x);
    v.len() - 1
}

/// The replies a comment on a post gets: its post's author, others, the commenter answering back.
fn thread(r: &mut Rng, w: &World, v: &mut Vec<Intent>, top: usize) {
    let (at, user, k) = (v[top].at, v[top].user, v[top].post);
    let post = &w.posts[k];
    let author = post.author.filter(|&a| a != user && post.kind == "Article" && !post.welcome && a != MASCOT);
    if let Some(a) = author
        && r.chance(0.42)
    {
        let t = at + later(r, 480, 30 * 3_600);
        let (body, stock) = if r.chance(0.5) {
            (Body::text(r.one(THANKS)), true)
        } else {
            (Body { paras: vec![author_answer(r)] }, false)
        };
        let i = push(v, Intent::reply(t, a, k, top, body, stock));
        if r.chance(0.25) {
            let t = t + later(r, 300, 20 * 3_600);
            let (body, stock) = if r.chance(0.45) {
                (Body::text(r.one(THANKS_BACK)), true)
            } else {
                (Body { paras: vec![answer(r)] }, false)
            };
            let j = push(v, Intent::reply(t, user, k, i, body, stock));
            // The conversation goes on below; a third person joining it lands under its last reply.
            if !stock && r.chance(0.35) {
                let t2 = t + later(r, 300, 20 * 3_600);
                push(v, Intent::reply(t2, a, k, j, Body { paras: vec![author_answer(r)] }, false));
            }
            if r.chance(0.15) {
                let o = commenter(r, w, t, Some(user));
                let t3 = t + later(r, 600, 2 * 86_400);
                push(v, Intent::reply(t3, o, k, j, Body { paras: vec![answer(r)] }, false));
            }
        }
    }
    for _ in 0..poisson(r, 0.2 + post.heat * 0.25).min(5) {
        let o = commenter(r, w, at, Some(user));
        let t = at + later(r, 300, 3 * 86_400);
        let (body, stock) =
            if r.chance(0.25) { (Body::text(r.one(AGREE)), true) } else { (Body { paras: vec![answer(r)] }, false) };
        let i = push(v, Intent::reply(t, o, k, top, body, stock));
        if let Some(a) = author
            && a != o
            && r.chance(0.3)
        {
            let t = t + later(r, 600, 86_400);
            let (body, stock) = if r.chance(0.5) {
                (Body::text(r.one(THANKS)), true)
            } else {
                (Body { paras: vec![author_answer(r)] }, false)
            };
            push(v, Intent::reply(t, a, k, i, body, stock));
        }
    }
}

/// The newcomers' introductions in the welcome thread, the ambassadors' greetings and the thanks back.
fn intros(r: &mut Rng, w: &World, v: &mut Vec<Intent>) {
    for &u in &w.newcomers {
        if !r.chance(0.62) {
            continue;
        }
        let at = w.users[u].registered + later(r, 120, 3 * 86_400);
        let Some(k) = welcome_thread(w, at) else { continue };
        let user = &w.users[u];
        let mut para =
            vec![Seg::Text(format!("Hi everyone! I'm {}, a {} from {}.", user.first, r.pick(ROLES), r.pick(PLACES)))];
        match r.below(4) {
            0 => para.push(Seg::Text(format!(" I'm currently learning {} and excited to be here.", r.pick(TOOLS)))),
            1 => para.push(Seg::Text(" Looking forward to learning from all of you!".into())),
            2 => para.push(Seg::Text(format!(" I mostly work with {} and {}.", r.pick(TOOLS), r.pick(TOOLS)))),
            _ => para.push(Seg::Text(" 👋".into())),
        }
        let top = push(v, Intent::new(at, u, k, Body { paras: vec![para] }));
        let greeters = match r.below(20) {
            0..=3 => 0,
            4..=17 => 1,
            _ => 2,
        };
        let mut greeted = Vec::new();
        for _ in 0..greeters {
            let a = r.one(&w.ambassadors);
            if greeted.contains(&a) {
                continue;
            }
            greeted.push(a);
            let t = at + later(r, 300, 20 * 3_600);
            let (body, stock) = if r.chance(0.55) {
                (Body::text(r.one(WELCOME)), true)
            } else {
                let first = user.first;
                let s = if r.chance(0.5) {
                    format!("Welcome, {first}! 🎉 Great to have you here.")
                } else {
                    format!("Welcome {first}! What are you working on these days?")
                };
                (Body::text(s), false)
            };
            let g = push(v, Intent::reply(t, a, k, top, body, stock));
            if r.chance(0.35) {
                let t = t + later(r, 600, 86_400);
                push(v, Intent::reply(t, u, k, g, Body::text(r.one(THANKS_BACK)), true));
            }
        }
        if r.chance(0.08) {
            let o = w.newcomers[r.below(w.newcomers.len() as u64) as usize];
            if o != u && w.users[o].registered < at {
                let t = at + later(r, 600, 2 * 86_400);
                push(v, Intent::reply(t, o, k, top, Body::text(r.one(WELCOME)), true));
            }
        }
    }
}

/// Spam runs: one text on several posts, minutes apart, from a fresh account.
fn spam(r: &mut Rng, w: &World, v: &mut Vec<Intent>) {
    for &u in &w.spammers {
        let (lead, url, tail) = *r.pick(SPAM);
        let body = Body { paras: vec![vec![Seg::Text(lead.into()), Seg::Url(url), Seg::Text(tail.into())]] };
        let mut t = w.users[u].registered + later(r, 180, 3 * 3_600);
        let mut used = Vec::new();
        for _ in 0..r.range(2, 5) {
            let Some(k) = pick_post(r, w, t) else { break };
            if !used.contains(&k) {
                used.push(k);
                push(v, Intent { spam: true, ..Intent::new(t, u, k, body.clone()) });
            }
            t += r.range(40, 420) * SECOND + micros(r);
        }
    }
}

/// The moderators' canned replies, posted as the mascot: on link-only or machine-written posts, under rude comments.
fn moderation(r: &mut Rng, w: &World, v: &mut Vec<Intent>) {
    for i in 0..14 {
        let t = START + r.range(1, DAYS - 1) * DAY + r.range(8, 17) * HOUR + r.range(0, 3_599) * SECOND + micros(r);
        let Some(k) = pick_post(r, w, t) else { continue };
        let text = if r.chance(0.75) { MOD_TOP[0] } else { MOD_TOP[1] };
        let body = link_body(text);
        push(v, Intent { moderator: true, stock: true, forced: i == 4 || i == 10, ..Intent::new(t, MASCOT, k, body) });
    }
    let tops: Vec<usize> = (0..v.len()).filter(|&i| v[i].parent.is_none() && !v[i].spam && !v[i].moderator).collect();
    for _ in 0..7 {
        let p = tops[r.below(tops.len() as u64) as usize];
        let t = v[p].at + later(r, 1_800, 2 * 86_400);
        let (k, body) = (v[p].post, link_body(MOD_REPLY));
        push(v, Intent { moderator: true, ..Intent::reply(t, MASCOT, k, p, body, true) });
    }
}

/// A canned text with one `[text](url)` link.
fn link_body(text: &str) -> Body {
    let (Some(a), Some(b), Some(c)) = (text.find('['), text.find("]("), text.find(')')) else {
        return Body::text(text);
    };
    let seg = Seg::Link(text[a + 1..b].to_string(), text[b + 2..c].to_string());
    Body { paras: vec![vec![Seg::Text(text[..a].into()), seg, Seg::Text(text[c + 1..].into())]] }
}

#[derive(Clone, Copy)]
enum Edit {
    Fix(usize),
    Note(&'static str),
}

struct React {
    t: i64,
    points: f64,
    public: bool,
}

/// A row as inserted, and what happens to it.
struct Row {
    id: i64,
    user: usize,
    post: usize,
    ancestry: Option<String>,
    parent: Option<usize>,
    created: i64,
    body: Body,
    /// Destroyed then (right after its create, or by the controller when the user submitted again).
    gone: Option<i64>,
    /// Its author's delete: destroyed without replies, else `deleted`.
    delete: Option<i64>,
    admin_delete: Option<i64>,
    hide: Option<i64>,
    edits: Vec<(i64, Edit)>,
    reacts: Vec<React>,
    kids: Vec<usize>,
    hidden: bool,
}

impl Row {
    fn new(id: i64, x: &Intent, at: i64, ancestry: Option<String>, parent: Option<usize>, body: Body) -> Row {
        Row {
            id,
            user: x.user,
            post: x.post,
            ancestry,
            parent,
            created: at,
            body,
            gone: None,
            delete: None,
            admin_delete: None,
            hide: None,
            edits: Vec::new(),
            reacts: Vec::new(),
            kids: Vec::new(),
            hidden: false,
        }
    }

    /// `body_markdown` and `processed_html` at `t`.
    fn text_at(&self, t: i64) -> (String, String) {
        let (mut md, mut html) = (self.body.markdown(), self.body.html());
        for &(_, e) in self.edits.iter().filter(|e| e.0 <= t) {
            match e {
                Edit::Fix(k) => {
                    let (_, wrong, right) = TYPOS[k];
                    md = md.replacen(wrong, right, 1);
                    html = html.replacen(wrong, right, 1);
                }
                Edit::Note(n) => {
                    md = format!("{md}\n\n{n}");
                    html = format!("{html}<p>{}</p>\n\n", esc(n));
                }
            }
        }
        (md, html)
    }
}

/// Whether row `k` is destroyed by `t`.
fn gone_by(rows: &[Row], k: usize, t: i64) -> bool {
    let x = &rows[k];
    x.gone.is_some_and(|g| g <= t)
        || x.delete.is_some_and(|d| d <= t && !x.kids.iter().any(|&c| rows[c].created < d && !gone_by(rows, c, d)))
}

fn alive(rows: &[Row], k: usize, t: i64) -> bool {
    rows[k].created <= t && !gone_by(rows, k, t)
}

/// Shown as a comment one can answer at `t`: not destroyed, deleted or hidden.
fn open(rows: &[Row], k: usize, t: i64) -> bool {
    let x = &rows[k];
    alive(rows, k, t)
        && x.delete.is_none_or(|d| d > t)
        && x.admin_delete.is_none_or(|d| d > t)
        && x.hide.is_none_or(|h| h > t)
}

fn descendants(rows: &[Row], k: usize, t: i64, out: &mut Vec<usize>) {
    for &c in &rows[k].kids {
        if alive(rows, c, t) {
            out.push(c);
            descendants(rows, c, t, out);
        }
    }
}

fn depth(rows: &[Row], k: usize) -> usize {
    rows[k].ancestry.as_ref().map_or(0, |a| a.split('/').count())
}

/// `adjust_comment_parent_based_on_depth`: below the last descendant of a deep parent that has replies.
fn reparent(rows: &[Row], p: usize, t: i64) -> usize {
    if depth(rows, p) <= 1 {
        return p;
    }
    let mut d = Vec::new();
    descendants(rows, p, t, &mut d);
    d.into_iter().max().unwrap_or(p)
}

fn path(rows: &[Row], p: usize) -> String {
    match &rows[p].ancestry {
        Some(a) => format!("{a}/{}", rows[p].id),
        None => rows[p].id.to_string(),
    }
}

/// The simulation's state while the requests are served in time order.
struct Sim<'a> {
    w: &'a World,
    rows: Vec<Row>,
    /// Rows by (user, post), for the uniqueness validation.
    mine: HashMap<(usize, usize), Vec<usize>>,
    /// Twins: the rows of one comment whose request went out twice.
    groups: Vec<Vec<usize>>,
    next_id: i64,
    spam_at: Vec<Option<i64>>,
    vomits: Vec<u32>,
    typo_twins: usize,
}

impl Sim<'_> {
    fn take_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    /// The uniqueness validation: the same text by the same person under the same parent, still there at `t`.
    fn taken(&self, x: &Intent, ancestry: &Option<String>, md: &str, t: i64) -> bool {
        self.mine.get(&(x.user, x.post)).is_some_and(|ks| {
            ks.iter().any(|&k| {
                let o = &self.rows[k];
                alive(&self.rows, k, t) && o.ancestry == *ancestry && o.text_at(t).0 == md
            })
        })
    }

    fn insert(&mut self, row: Row) -> usize {
        let k = self.rows.len();
        self.mine.entry((row.user, row.post)).or_default().push(k);
        if let Some(p) = row.parent {
            self.rows[p].kids.push(k);
        }
        self.rows.push(row);
        k
    }

    /// What happens to a row after its create: reactions, an edit, a delete, a hide, the spam handler.
    fn life(&mut self, r: &mut Rng, k: usize, x: &Intent) {
        let w = self.w;
        let (c, u, top) = (self.rows[k].created, self.rows[k].user, self.rows[k].ancestry.is_none());
        let (user, post) = (&w.users[u], &w.posts[self.rows[k].post]);
        let author = post.author.filter(|&a| a != u && !post.welcome && a != MASCOT);
        let mut reacts = Vec::new();
        if !x.moderator {
            // `CommentCreator#create_first_reaction`: five times the weight on a comment on one's own post.
            let mut points = if post.author == Some(u) && post.kind == "Article" { 5.0 } else { 1.0 };
            let age = (c - user.registered) as f64 / DAY as f64;
            if !user.trusted && age < 10.0 {
                points *= age / 10.0;
            }
            reacts.push(React { t: c + r.range(40_000, 400_000), points, public: true });
        }
        let mean = if x.spam {
            0.05
        } else if x.stock {
            0.15 + post.heat * 0.1
        } else if top {
            0.6 + post.heat * 0.6
        } else {
            0.3 + post.heat * 0.2
        };
        for _ in 0..poisson(r, mean) {
            let points = if r.chance(0.08) { r.range(1, 9) as f64 / 10.0 } else { 1.0 };
            reacts.push(React { t: c + later(r, 60, 12 * 86_400), points, public: true });
        }
        if author.is_some() && !x.spam && r.chance(if top { 0.45 } else { 0.15 }) {
            reacts.push(React { t: c + later(r, 120, 2 * 86_400), points: 5.0, public: true });
        }
        if !x.spam && r.chance(0.008) {
            reacts.push(React { t: c + later(r, 600, 3 * 86_400), points: 5.0, public: false });
        }
        if !x.spam && r.chance(0.003) {
            reacts.push(React { t: c + later(r, 600, 3 * 86_400), points: -10.0, public: false });
        }
        let mut edit = None;
        if let Some(f) = x.typo
            && r.chance(0.7)
        {
            edit = Some((c + later(r, 30, 3 * 86_400), Edit::Fix(f)));
        } else if !x.stock && !x.spam && r.chance(0.04) {
            edit = Some((c + later(r, 60, 2 * 86_400), Edit::Note(r.one(NOTES))));
        }
        let delete = (!x.moderator && r.chance(0.012)).then(|| c + later(r, 60, 5 * 86_400));
        let mut hide = (author.is_some() && !x.spam && r.chance(0.003)).then(|| c + later(r, 600, 3 * 86_400));
        let mut admin_delete = None;
        if x.spam {
            // `Comments::HandleSpamWorker`: the mascot's vomit; the account is flagged at the third.
            if r.chance(0.85) {
                let t = c + r.range(5, 90) * SECOND + micros(r);
                reacts.push(React { t, points: -50.0, public: false });
                self.vomits[u] += 1;
                if self.vomits[u] >= 3 && self.spam_at[u].is_none() {
                    self.spam_at[u] = Some(t + r.range(1, 5) * SECOND);
                }
            }
            if r.chance(0.75) {
                admin_delete = Some(c + later(r, 600, 10 * 3_600));
            } else if author.is_some() && r.chance(0.3) {
                hide = Some(c + later(r, 600, 86_400));
            }
        }
        let row = &mut self.rows[k];
        row.reacts.extend(reacts);
        row.edits.extend(edit);
        (row.delete, row.hide, row.admin_delete) = (delete, hide, admin_delete);
    }

    /// Inserts a row with the next id.
    fn create(&mut self, r: &mut Rng, x: &Intent, at: i64, ancestry: Option<String>, parent: Option<usize>) -> usize {
        let id = self.take_id();
        let k = self.insert(Row::new(id, x, at, ancestry, parent, x.body.clone()));
        self.life(r, k, x);
        k
    }

    /// Serves one create request (and the copy of it a retry sent).
    fn serve(&mut self, r: &mut Rng, x: &Intent, late: &mut usize) -> Option<usize> {
        let at = x.at;
        if let Some(p) = x.parent_row
            && !open(&self.rows, p, at)
        {
            return None;
        }
        let parent = x.parent_row.map(|p| reparent(&self.rows, p, at));
        let ancestry = parent.map(|p| path(&self.rows, p));
        let top = ancestry.is_none();
        let mut x = x.clone();
        while self.taken(&x, &ancestry, &x.body.markdown(), at) {
            x.body.push(r.one(SUFFIXES));
        }
        let mut forced = x.forced;
        if top && !x.moderator && !x.spam && *late < LATE.len() && at > LATE[*late] {
            *late += 1;
            forced = true;
        }
        // The second request, and its delay after the first as the server saw the two.
        let mut gap = None;
        if forced {
            gap = Some(r.range(25_000, 95_000));
        } else if !x.moderator && r.chance(RESENT) {
            let d = client_retry_delay(r);
            if d < SECOND {
                gap = Some(d);
            } else if r.chance(0.45) {
                // The first was queued behind a stuck request: both ran when a worker freed. Otherwise the first
                // was stored already and the second got the 422.
                gap = Some(r.range(3_000, 900_000));
            }
        }
        let Some(gap) = gap else {
            return Some(self.create(r, &x, at, ancestry, parent));
        };
        if !top {
            // The unique index: the second INSERT waits for the first, then fails.
            let k = self.create(r, &x, at, ancestry, parent);
            self.take_id();
            return Some(k);
        }
        let outcome = if forced || x.moderator { 0 } else { r.below(100) };
        let (id1, id2) = (self.take_id(), self.take_id());
        if gap < SECOND && r.chance(0.12) {
            // A third tap: that request's check saw a twin and destroyed its row.
            self.take_id();
        }
        match outcome {
            0..=44 => {
                let typo = (!forced
                    && !x.moderator
                    && self.typo_twins < 2
                    && at > START + (20 + 25 * self.typo_twins as i64) * DAY)
                    .then(|| r.below(TYPOS.len() as u64) as usize);
                if let Some(f) = typo {
                    x.body.push(TYPOS[f].0);
                    self.typo_twins += 1;
                }
                let k1 = self.insert(Row::new(id1, &x, at, None, None, x.body.clone()));
                let k2 = self.insert(Row::new(id2, &x, at + gap, None, None, x.body.clone()));
                self.groups.push(vec![k1, k2]);
                self.life(r, k1, &x);
                self.life(r, k2, &x);
                // The twins stay as typed (an edit to one is the typo case below).
                self.rows[k1].edits.clear();
                self.rows[k2].edits.clear();
                let post = &self.w.posts[x.post];
                let author = post.author.filter(|&a| a != x.user && !post.welcome && a != MASCOT);
                if let Some(f) = typo {
                    let twin = &mut self.rows[k2];
                    twin.edits = vec![(at + later(r, 120, 86_400), Edit::Fix(f))];
                    twin.delete = None;
                    twin.hidden = true;
                } else if !forced && !x.moderator {
                    if r.chance(0.25) {
                        // An error on screen, submitted again: the controller destroys the second of the two.
                        self.rows[k2].gone = Some(at + gap + r.range(4, 40) * SECOND + micros(r));
                    } else {
                        let fate = r.below(100);
                        if fate < 30 {
                            let victim = if r.chance(0.8) { k2 } else { k1 };
                            self.rows[victim].delete = Some(at + later(r, 60, 2 * 86_400));
                        } else if fate < 42 && author.is_some() {
                            self.rows[k2].hide = Some(at + later(r, 600, 3 * 86_400));
                        }
                    }
                }
                Some(k1)
            }
            45..=86 => {
                let k = self.insert(Row::new(id1, &x, at, None, None, x.body.clone()));
                self.life(r, k, &x);
                Some(k)
            }
            87..=95 => {
                // The first's check saw the second and destroyed the first: the second stays.
                let k = self.insert(Row::new(id2, &x, at + gap, None, None, x.body.clone()));
                self.life(r, k, &x);
                Some(k)
            }
            _ => None,
        }
    }
}

/// The final `score` and `updated_at` of row `k`, given the times its descendants touched it; `initial` the score
/// the create wrote (`synchronous_spam_score_check`) in case the first recomputation falls after the window.
fn settle(r: &mut Rng, rows: &[Row], k: usize, spam_at: Option<i64>, touched: &[i64], initial: i64) -> (i64, i64) {
    let x = &rows[k];
    let (c, top) = (x.created, x.ancestry.is_none());
    let mut updated = if top { c + r.range(2_000, 40_000) } else { c };
    let mut recalcs = vec![c + r.range(400_000, 6_000_000)];
    for e in &x.reacts {
        // `touch_by_reaction` from Sidekiq: a save (a root touches itself), then `Comments::CalculateScore`.
        let save = e.t + r.range(300_000, 4_000_000);
        if top && save < NOW {
            updated = updated.max(save);
        }
        recalcs.push(save + r.range(300_000, 5_000_000));
    }
    let writes: Vec<i64> = x.edits.iter().map(|e| e.0).chain(x.delete).chain(x.admin_delete).chain(x.hide).collect();
    for t in writes {
        if t < NOW {
            updated = updated.max(t);
        }
        recalcs.push(t + r.range(400_000, 6_000_000));
    }
    for &t in touched.iter().filter(|&&t| t < NOW) {
        updated = updated.max(t);
    }
    let Some(last) = recalcs.into_iter().filter(|&t| t < NOW).max() else {
        return (initial, updated);
    };
    updated = updated.max(last);
    let points: f64 = x.reacts.iter().filter(|e| e.t <= last).map(|e| e.points).sum();
    let mut d = Vec::new();
    descendants(rows, k, last, &mut d);
    let md = x.text_at(last).0;
    let bonus = if md.chars().count() > 200 { 2 } else { 0 } + i64::from(md.contains('`'));
    let mut score = (points + (d.len() / 2) as f64 + bonus as f64) as i64;
    if spam_at.is_some_and(|s| s <= last) {
        score -= 500;
    }
    (score, updated)
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x0F0E_E3C0);
    let w = world(&mut r);
    let mut v: Vec<Intent> = Vec::new();
    // Comments on posts, through the day, with the threads they start.
    let mut t = START + 20 * MINUTE;
    loop {
        let hour = (t / HOUR).rem_euclid(24) as usize;
        let mut gap = r.range(300, 4_600) * SECOND * 10 / RHYTHM[hour];
        if weekday(t) >= 5 {
            gap = gap * 8 / 5;
        }
        t += gap + micros(&mut r);
        if t >= NOW - 2 * MINUTE {
            break;
        }
        let Some(k) = pick_post(&mut r, &w, t) else { continue };
        let user = commenter(&mut r, &w, t, w.posts[k].author);
        let (body, typo, stock) = top_body(&mut r, &w);
        let i = push(&mut v, Intent { typo, stock, ..Intent::new(t, user, k, body) });
        thread(&mut r, &w, &mut v, i);
    }
    intros(&mut r, &w, &mut v);
    spam(&mut r, &w, &mut v);
    moderation(&mut r, &w, &mut v);

    // The requests in the order the server got them.
    let mut sim = Sim {
        w: &w,
        rows: Vec::new(),
        mine: HashMap::new(),
        groups: Vec::new(),
        next_id: ID0,
        spam_at: vec![None; w.users.len()],
        vomits: vec![0; w.users.len()],
        typo_twins: 0,
    };
    let mut queue: BinaryHeap<Reverse<(i64, usize)>> = v.iter().enumerate().map(|(i, x)| Reverse((x.at, i))).collect();
    let mut row_of: Vec<Option<usize>> = vec![None; v.len()];
    let mut late = 0;
    while let Some(Reverse((at, i))) = queue.pop() {
        if at >= NOW - SECOND || sim.spam_at[v[i].user].is_some_and(|s| s <= at) {
            continue;
        }
        let mut x = v[i].clone();
        if x.parent_row.is_none()
            && let Some(p) = x.parent
        {
            let Some(row) = row_of[p] else { continue };
            // Both copies of a twin are on the page: the answer goes under either.
            let twin = sim.groups.iter().find(|g| g.contains(&row)).cloned().unwrap_or_else(|| vec![row]);
            let shown: Vec<usize> = twin.into_iter().filter(|&k| open(&sim.rows, k, at)).collect();
            let Some(&first) = shown.first() else { continue };
            let pick = if shown.len() > 1 && r.chance(0.5) { shown[1] } else { first };
            x.parent_row = Some(pick);
            if shown.len() > 1 && x.stock && r.chance(0.35) {
                // The post's author thanks both copies.
                let other = if pick == first { shown[1] } else { first };
                let t = at + r.range(15, 90) * SECOND + micros(&mut r);
                v.push(Intent { parent_row: Some(other), parent: None, at: t, ..x.clone() });
                row_of.push(None);
                queue.push(Reverse((t, v.len() - 1)));
            }
        }
        row_of[i] = sim.serve(&mut r, &x, &mut late);
    }

    // Touches a row gets from below: a reply's saves touch its root; a destroyed row's ancestors are touched.
    let rows = &sim.rows;
    let mut touched: Vec<Vec<i64>> = vec![Vec::new(); rows.len()];
    for (k, x) in rows.iter().enumerate() {
        let mut up = Vec::new();
        let mut p = x.parent;
        while let Some(q) = p {
            up.push(q);
            p = rows[q].parent;
        }
        let Some(&root) = up.last() else { continue };
        let saves = x.reacts.iter().map(|e| e.t + 2 * SECOND).chain(x.edits.iter().map(|e| e.0));
        let saves: Vec<i64> = saves.chain(x.delete).chain(x.admin_delete).chain(x.hide).chain([x.created]).collect();
        for t in saves {
            if alive(rows, k, t) {
                touched[root].push(t + r.range(2_000, 30_000));
            }
        }
        let end = x.gone.or_else(|| x.delete.filter(|&d| gone_by(rows, k, d)));
        if let Some(d) = end.filter(|&d| d < NOW) {
            for &q in &up {
                touched[q].push(d + r.range(1_000, 20_000));
            }
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("comments", &columns);
    let mut extra: HashSet<usize> = HashSet::new();
    for g in &sim.groups {
        extra.extend(g.iter().copied().filter(|&k| !gone_by(rows, k, NOW)).skip(1));
    }
    let mut said: HashSet<(usize, String)> = HashSet::new();
    for (k, x) in rows.iter().enumerate() {
        if gone_by(rows, k, NOW) {
            continue;
        }
        let (md, html) = x.text_at(NOW);
        let user = &w.users[x.user];
        let initial = if x.created - user.registered < 2 * DAY && md.contains("http") { -3 } else { 0 };
        let (score, updated) = settle(&mut r, rows, k, sim.spam_at[x.user], &touched[k], initial);
        let deleted = x.delete.is_some_and(|d| d < NOW) || x.admin_delete.is_some_and(|d| d < NOW);
        let edited_at = x.edits.iter().map(|e| e.0).filter(|&t| t < NOW).max();
        let public = x.reacts.iter().filter(|e| e.public && e.t < NOW).count();
        let private = x.reacts.iter().filter(|e| !e.public && e.t < NOW).count();
        let post = &w.posts[x.post];
        f.push(&[
            ("id", V::I(x.id)),
            ("ancestry", V::opt_t(x.ancestry.as_deref())),
            ("body_markdown", V::t(&md)),
            ("commentable_id", V::I(post.id)),
            ("commentable_type", V::t(post.kind)),
            ("created_at", V::At(x.created)),
            ("deleted", V::B(deleted)),
            ("edited", V::B(false)),
            ("edited_at", edited_at.map_or(V::Null, V::At)),
            ("hidden_by_commentable_user", V::B(x.hide.is_some_and(|h| h < NOW))),
            ("id_code", V::t(base26(x.id))),
            ("markdown_character_count", V::I(md.chars().count() as i64)),
            ("positive_reactions_count", V::I(0)),
            ("processed_html", V::t(&html)),
            ("public_reactions_count", V::I(public as i64)),
            ("reactions_count", V::I(private as i64)),
            ("receive_notifications", V::B(true)),
            ("score", V::I(score)),
            ("spaminess_rating", V::I(0)),
            ("updated_at", V::At(updated)),
            ("user_id", V::I(user.id)),
        ]);
        if extra.contains(&k) {
            f.mark(x.id, Mark::Retry);
            if x.hidden {
                // The author fixed a typo in this copy only: it reads like the corrected text posted again.
                f.hidden.insert(x.id.to_string());
            }
        } else if !said.insert((x.user, md)) {
            f.mark(x.id, Mark::Legit);
        }
    }
    f
}
