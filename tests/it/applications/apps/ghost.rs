//! Ghost 6 (Node.js, Knex and Bookshelf; MySQL in production, SQLite in
//! development): `posts`, as `POST /ghost/api/admin/posts/` writes them. The
//! id is a BSON ObjectId minted in JavaScript, `uuid` a v4, `comment_id` the
//! id again; the slug is made free by a suffix (`-2`), which the unique
//! (slug, type) index then holds; times are whole seconds, UTC; a post
//! created published gets `published_at` now. Nothing dedups a create.

use super::{DAY, Fixture, HOUR, Rng, SECOND, T0, V, WORDS};
use crate::common::Engine;

pub fn ddl(engine: Engine) -> &'static str {
    match engine {
        Engine::MySql => {
            "CREATE TABLE `posts` (
  `id` varchar(24) NOT NULL,
  `uuid` varchar(36) NOT NULL,
  `title` varchar(2000) NOT NULL,
  `slug` varchar(191) NOT NULL,
  `mobiledoc` longtext,
  `lexical` longtext,
  `html` longtext,
  `comment_id` varchar(50) DEFAULT NULL,
  `plaintext` longtext,
  `feature_image` varchar(2000) DEFAULT NULL,
  `featured` tinyint(1) NOT NULL DEFAULT '0',
  `type` varchar(50) NOT NULL DEFAULT 'post',
  `status` varchar(50) NOT NULL DEFAULT 'draft',
  `locale` varchar(6) DEFAULT NULL,
  `visibility` varchar(50) NOT NULL DEFAULT 'public',
  `email_recipient_filter` text NOT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime DEFAULT NULL,
  `published_at` datetime DEFAULT NULL,
  `published_by` varchar(24) DEFAULT NULL,
  `custom_excerpt` varchar(2000) DEFAULT NULL,
  `codeinjection_head` text,
  `codeinjection_foot` text,
  `custom_template` varchar(100) DEFAULT NULL,
  `canonical_url` text,
  `newsletter_id` varchar(24) DEFAULT NULL,
  `show_title_and_feature_image` tinyint(1) NOT NULL DEFAULT '1',
  PRIMARY KEY (`id`),
  UNIQUE KEY `posts_slug_type_unique` (`slug`,`type`),
  KEY `posts_uuid_index` (`uuid`),
  KEY `posts_updated_at_index` (`updated_at`),
  KEY `posts_published_at_index` (`published_at`),
  KEY `posts_type_status_updated_at_index` (`type`,`status`,`updated_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"
        }
        Engine::Sqlite => {
            "CREATE TABLE `posts` (`id` varchar(24) not null, `uuid` varchar(36) not null, `title` varchar(2000) not null,
  `slug` varchar(191) not null, `mobiledoc` text null, `lexical` text null, `html` text null, `comment_id` varchar(50) null,
  `plaintext` text null, `feature_image` varchar(2000) null, `featured` boolean not null default '0',
  `type` varchar(50) not null default 'post', `status` varchar(50) not null default 'draft', `locale` varchar(6) null,
  `visibility` varchar(50) not null default 'public', `email_recipient_filter` text not null, `created_at` datetime not null,
  `updated_at` datetime null, `published_at` datetime null, `published_by` varchar(24) null, `custom_excerpt` varchar(2000) null,
  `codeinjection_head` text null, `codeinjection_foot` text null, `custom_template` varchar(100) null, `canonical_url` text null,
  `newsletter_id` varchar(24) null, `show_title_and_feature_image` boolean not null default '1', primary key (`id`));
CREATE UNIQUE INDEX `posts_slug_type_unique` on `posts` (`slug`, `type`);
CREATE INDEX `posts_uuid_index` on `posts` (`uuid`);
CREATE INDEX `posts_updated_at_index` on `posts` (`updated_at`);
CREATE INDEX `posts_published_at_index` on `posts` (`published_at`);"
        }
        Engine::Postgres => unreachable!("Ghost runs on MySQL and SQLite"),
    }
}

const COLUMNS: &[&str] = &[
    "id",
    "uuid",
    "title",
    "slug",
    "lexical",
    "html",
    "comment_id",
    "plaintext",
    "feature_image",
    "featured",
    "type",
    "status",
    "visibility",
    "email_recipient_filter",
    "created_at",
    "updated_at",
    "published_at",
    "published_by",
    "custom_excerpt",
    "newsletter_id",
];

#[derive(Clone)]
struct Post {
    at: i64,
    title: String,
    body: String,
    image: Option<String>,
    featured: bool,
    page: bool,
    status: &'static str,
    visibility: &'static str,
    published: Option<i64>,
    by: Option<String>,
    excerpt: Option<String>,
    newsletter: Option<&'static str>,
    edited: i64,
    retry: bool,
}

fn slugify(title: &str) -> String {
    title
        .to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(71);
    let staff: Vec<String> = (0..8).map(|_| r.hex(24)).collect();
    let mut posts: Vec<Post> = Vec::new();
    let mut t = T0 - 200 * DAY;
    while posts.len() < 1_960 {
        t += r.range(60, 9 * 3_600) * SECOND;
        let t = t - t.rem_euclid(SECOND);
        let title = if r.chance(0.03) {
            "(Untitled)".to_string()
        } else {
            let n = 3 + r.below(6) as usize;
            let mut words: Vec<String> = (0..n).map(|_| r.pick(WORDS).to_string()).collect();
            words[0] = format!("{}{}", words[0][..1].to_uppercase(), &words[0][1..]);
            words.join(" ")
        };
        let status = *r.pick(&[
            "published",
            "published",
            "published",
            "published",
            "published",
            "published",
            "published",
            "draft",
            "draft",
            "scheduled",
        ]);
        let body = (0..2 + r.below(5)).map(|_| r.pick(WORDS).to_string()).collect::<Vec<_>>().join(" ");
        // Created published: `published_at` is the create's own time; a few
        // drafts are published later, and scheduled posts have their date.
        let published = match status {
            "published" if r.chance(0.9) => Some(t),
            "published" => Some(t + r.range(1, 72) * HOUR),
            "scheduled" => Some(t + r.range(1, 10) * DAY),
            _ => None,
        };
        let post = Post {
            at: t,
            title,
            body,
            image: r
                .chance(0.6)
                .then(|| format!("__GHOST_URL__/content/images/2026/{:02}/{}.jpg", r.range(1, 9), r.hex(8))),
            featured: r.chance(0.05),
            page: r.chance(0.08),
            status,
            visibility: r.one(&["public", "public", "public", "public", "public", "public", "members", "paid"]),
            published,
            by: published.map(|_| r.pick(&staff).clone()),
            excerpt: r.chance(0.3).then(|| format!("{} {}", r.pick(WORDS), r.pick(WORDS))),
            newsletter: (status == "published" && r.chance(0.25)).then_some("66a1b2c3d4e5f60718293a4b"),
            edited: if status == "draft" { r.range(1, 3_000) * 60 * SECOND } else { 0 },
            retry: false,
        };
        posts.push(post.clone());
        // A retried create (a lost response, a second click): all of it again,
        // a second or so later, with its own id, uuid, slug and times.
        if r.chance(0.012) {
            let at = t + super::client_retry_delay(&mut r);
            let published = post.published.map(|p| if p == post.at { at } else { p });
            posts.push(Post { at, published, edited: 0, retry: true, ..post });
        }
    }
    posts.sort_by_key(|p| p.at);
    let mut f = Fixture::new("posts", COLUMNS);
    let mut slugs: std::collections::BTreeSet<(String, bool)> = Default::default();
    for (seq, p) in posts.iter().enumerate() {
        // An ObjectId: the creation second, then random and counter bytes.
        let id = format!("{:08x}{}{:06x}", p.at / SECOND, r.hex(10), seq);
        let base = slugify(&p.title);
        let mut slug = base.clone();
        let mut n = 1;
        while slugs.contains(&(slug.clone(), p.page)) {
            n += 1;
            slug = format!("{base}-{n}");
        }
        slugs.insert((slug.clone(), p.page));
        let lexical = format!(
            r#"{{"root":{{"children":[{{"children":[{{"detail":0,"format":0,"mode":"normal","style":"","text":"{}","type":"extended-text","version":1}}],"direction":"ltr","format":"","indent":0,"type":"paragraph","version":1}}],"direction":"ltr","format":"","indent":0,"type":"root","version":1}}}}"#,
            p.body
        );
        f.push(&[
            ("id", V::t(&id)),
            ("uuid", V::t(r.uuid())),
            ("title", V::t(&p.title)),
            ("slug", V::t(slug)),
            ("lexical", V::t(lexical)),
            ("html", V::t(format!("<p>{}</p>", p.body))),
            ("comment_id", V::t(&id)),
            ("plaintext", V::t(&p.body)),
            ("feature_image", V::opt_t(p.image.as_deref())),
            ("featured", V::B(p.featured)),
            ("type", V::t(if p.page { "page" } else { "post" })),
            ("status", V::t(p.status)),
            ("visibility", V::t(p.visibility)),
            ("email_recipient_filter", V::t("all")),
            ("created_at", V::AtSecs(p.at)),
            ("updated_at", V::AtSecs(p.at + p.edited)),
            ("published_at", p.published.map_or(V::Null, V::AtSecs)),
            ("published_by", V::opt_t(p.by.as_deref())),
            ("custom_excerpt", V::opt_t(p.excerpt.as_deref())),
            ("newsletter_id", V::opt_t(p.newsletter)),
        ]);
        if p.retry {
            f.extras.insert(id);
        }
    }
    f
}
