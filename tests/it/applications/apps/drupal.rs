//! Drupal 11 (PHP; MySQL/MariaDB, PostgreSQL, SQLite): core's `comment_field_data`, the comment entity's data table,
//! with the `comment__comment_body` field table beside it (the text lives there), as the comment form
//! (`CommentForm::buildEntity`/`save`), JSON:API posts (`POST /jsonapi/comment/...`: the community's mobile app and a
//! CI bot), anonymous posting with approval, spam bots and a migrate run write it, and as people and moderators work
//! on it afterwards: an open-source project's community site (news articles, the contrib forum, an issue queue),
//! six weeks from 1 October 2026.
//! Read: drupal/core (tag 11.4.5, a071435) modules/comment/src/Entity/Comment.php (`baseFieldDefinitions`, `preSave`:
//! the thread vancode under a lock, name/mail nulled for users; `getDefaultStatus`, `getDefaultHostname`,
//! `postDelete`), CommentStorage.php (`getMaxThread`, `getMaxThreadPerThread`), CommentStorageSchema.php,
//! CommentForm.php (`form`, `buildEntity`: `created` = request time, the subject cut from the body, `save`),
//! CommentAccessControlHandler.php, Hook/CommentHooks.php (`userCancel`), Plugin/migrate/destination/EntityComment.php,
//! migrations/d7_comment.yml, config/install/comment.settings.yml (`log_ip_addresses: false`);
//! lib/Drupal/Core/Entity/Sql/SqlContentEntityStorageSchema.php (`getEntitySchema`, `initializeDataTable`,
//! `getSharedTableFieldSchema`: NOT NULL only for entity keys, `getDedicatedTableSchema`), DefaultTableMapping.php
//! (`create`: key fields first), Entity/ContentEntityBase.php, EntityFieldManager.php (`default_langcode`),
//! Field/FieldItemList.php (`preSave` drops empty items, so '' is stored as NULL), Field/Plugin/Field/FieldType/
//! {Timestamp,Changed,Created,Boolean,String,Uri,Email,Language,EntityReference,Integer}Item.php,
//! modules/text/src/Plugin/Field/FieldType/TextLongItem.php, lib/Drupal/Component/Utility/{Number,Unicode}.php
//! (`intToAlphadecimal`, `truncate`), modules/{mysql,pgsql,sqlite}/src/Driver/Database/*/Schema.php (`createTableSql`,
//! `createFieldSql`, `processField`, type maps, `getNormalizedIndexes`, `ensureIdentifiersLength`, `hashBase64`),
//! sqlite/Connection.php (`NOCASE_UTF8`), misc/form.js (`formSingleSubmit`), recipes/comment_base,
//! recipes/article_comment; the update fixtures modules/system/tests/fixtures/update/drupal-{10.3.0,11.3.0}.
//! {bare,filled}.standard.php.gz (the same columns, types and indexes, in an upgraded site's column order).
//! The DDL is what the schema layer emits for a fresh 11.x install: columns in table-mapping order, no foreign keys
//! (Drupal declares them for documentation only), MySQL column comments from the reference columns' descriptions, no
//! table COLLATE (the installer writes no `collation`), PostgreSQL's `____pkey`/`__idx` names (one hashed past 63
//! characters); on SQLite `COLLATE NOCASE` stands for Drupal's `NOCASE_UTF8`, a PHP callback each Drupal connection
//! registers and no other client has.
//! On a create: `cid` the next value of `comment`'s serial (spam and deleted comments leave gaps); `comment_type` and
//! `field_name` from the node's comment field, `entity_type` 'node', `entity_id` the node, `pid` the comment replied
//! to; `langcode` 'en', `default_langcode` 1; `uid` the poster (0 for anonymous); `name`/`mail` NULL for a user (set
//! NULL by `preSave`), what an anonymous poster typed (NULL when left empty); `homepage` likewise; `status` 1 with
//! 'skip comment approval' (authenticated users), 0 for anonymous posters; `subject` what the form got, else the
//! body's text cut to 29 characters word-safe with '…' (the form only: JSON:API posts without one store NULL);
//! `hostname` the client's address (IP logging on; through JSON:API the app's phone, the bot's CI runner);
//! `created` = `changed` = the request's start, in seconds; `thread` the node's highest top-level vancode + 1
//! ("01/", "02/", … "0z/", "110/"), or the parent's thread with the next child number ("03.00/", "03.01/"), computed
//! from the live rows (a deleted last comment's number is reused). A migrate run keeps the source's `created`,
//! `hostname`, `name`, `mail`; `changed` is the drush process's request time for every row; `thread` is computed.
//! Later: moderators approve (0 -> 1) or delete (hard, with the replies) anonymous comments from the queue during the
//! European day, delete spam, unpublish now and then; authors edit (body in the field table, `changed` bumped, the
//! subject kept); a cancelled account's comments go to uid 0 named 'Anonymous', a spammer's are unpublished.
//! Retries (about 1.5% of creates): a Save clicked twice before `formSingleSubmit` was attached (20-100 ms; the two
//! requests can read the same MAX(thread) after the first released its lock but before it committed, and get the
//! same thread); a form re-posted after a hung response (10-60 s); the app's and the bot's JSON:API posts re-sent
//! after their client timeouts with backoff (a few from another address: the phone left Wi-Fi; hidden); three in the
//! last day. Copies are deleted by moderators, edited to "double post", approved or deleted with their originals.
//! Legitimate repeats: the bot's results on an issue (re-runs 20 s-3 min apart, and every later run); the app's
//! follow-ups (no subject: the rows are equal, the bodies differ) 30 s-6 min apart; anonymous posters re-posting when
//! their comment did not show (queued for approval); spam bursts (0.3-40 s apart); the same guest's comments on a
//! WordPress post, imported in one migrate run. Plain near-repeats: "+1", "Thanks!" and the like by other users or on
//! other nodes.
//! Guessed: the site, its users, nodes, rates and rhythms; IP logging and anonymous posting turned on; the app, the
//! bot and their timeouts; the forum and issue comment fields' names; the moderators' hours; the WordPress import
//! and its mapping (no subject, no cid, `changed` unmapped); the spam.
use std::collections::{HashMap, HashSet};

use super::{
    Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, client_retry_delay, day, secs, sentence,
    weekday,
};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Postgres, Engine::Sqlite];

/// The mysql driver's `createTableSql` (InnoDB, utf8mb4, `thread` cut to 191 in the index).
const MYSQL: &str = "CREATE TABLE `comment_field_data` (
`cid` INT unsigned NOT NULL,
`comment_type` VARCHAR(32) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL COMMENT 'The ID of the target entity.',
`langcode` VARCHAR(12) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
`status` TINYINT NOT NULL,
`uid` INT unsigned NOT NULL COMMENT 'The ID of the target entity.',
`pid` INT unsigned NULL DEFAULT NULL COMMENT 'The ID of the target entity.',
`entity_id` INT unsigned NULL DEFAULT NULL COMMENT 'The ID of the target entity.',
`subject` VARCHAR(64) NULL DEFAULT NULL,
`name` VARCHAR(60) NULL DEFAULT NULL,
`mail` VARCHAR(254) NULL DEFAULT NULL,
`homepage` VARCHAR(255) NULL DEFAULT NULL,
`hostname` VARCHAR(128) NULL DEFAULT NULL,
`created` INT NOT NULL,
`changed` INT NULL DEFAULT NULL,
`thread` VARCHAR(255) NOT NULL,
`entity_type` VARCHAR(32) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
`field_name` VARCHAR(32) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
`default_langcode` TINYINT NOT NULL,
PRIMARY KEY (`cid`, `langcode`),
INDEX `comment__id__default_langcode__langcode` (`cid`, `default_langcode`, `langcode`),
INDEX `comment_field__comment_type__target_id` (`comment_type`),
INDEX `comment_field__uid__target_id` (`uid`),
INDEX `comment_field__created` (`created`),
INDEX `comment__status_comment_type` (`status`, `comment_type`, `cid`),
INDEX `comment__status_pid` (`pid`, `status`),
INDEX `comment__num_new` (`entity_id`, `entity_type`, `comment_type`, `status`, `created`, `cid`, `thread` (191)),
INDEX `comment__entity_langcode` (`entity_id`, `entity_type`, `comment_type`, `default_langcode`)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COMMENT 'The data table for comment entities.';
CREATE TABLE `comment__comment_body` (
`bundle` VARCHAR(128) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL DEFAULT '' COMMENT 'The field instance bundle to which this row belongs, used when deleting a field instance',
`deleted` TINYINT NOT NULL DEFAULT 0 COMMENT 'A boolean indicating whether this data item has been deleted',
`entity_id` INT unsigned NOT NULL COMMENT 'The entity id this data is attached to',
`revision_id` INT unsigned NOT NULL COMMENT 'The entity revision id this data is attached to, which for an unversioned entity type is the same as the entity id',
`langcode` VARCHAR(32) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL DEFAULT '' COMMENT 'The language code for this data item.',
`delta` INT unsigned NOT NULL COMMENT 'The sequence number for this data item, used for multi-value fields',
`comment_body_value` LONGTEXT NOT NULL,
`comment_body_format` VARCHAR(255) CHARACTER SET ascii COLLATE ascii_general_ci NULL DEFAULT NULL,
PRIMARY KEY (`entity_id`, `deleted`, `delta`, `langcode`),
INDEX `bundle` (`bundle`),
INDEX `revision_id` (`revision_id`),
INDEX `comment_body_format` (`comment_body_format`)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COMMENT 'Data storage for comment field comment_body.'";

/// The pgsql driver: unsigned ints widened to bigint with a CHECK, `____pkey`, `table__index__idx` names (hashed when
/// longer than 63 characters), comments as separate statements.
const POSTGRES: &str = "CREATE TABLE \"comment_field_data\" (
\t\"cid\" bigint CHECK (\"cid\" >= 0) NOT NULL,
\t\"comment_type\" varchar(32) NOT NULL,
\t\"langcode\" varchar(12) NOT NULL,
\t\"status\" smallint NOT NULL,
\t\"uid\" bigint CHECK (\"uid\" >= 0) NOT NULL,
\t\"pid\" bigint CHECK (\"pid\" >= 0) NULL,
\t\"entity_id\" bigint CHECK (\"entity_id\" >= 0) NULL,
\t\"subject\" varchar(64) NULL,
\t\"name\" varchar(60) NULL,
\t\"mail\" varchar(254) NULL,
\t\"homepage\" varchar(255) NULL,
\t\"hostname\" varchar(128) NULL,
\t\"created\" int NOT NULL,
\t\"changed\" int NULL,
\t\"thread\" varchar(255) NOT NULL,
\t\"entity_type\" varchar(32) NOT NULL,
\t\"field_name\" varchar(32) NOT NULL,
\t\"default_langcode\" smallint NOT NULL,
\tCONSTRAINT comment_field_data____pkey PRIMARY KEY (\"cid\", \"langcode\")
);
CREATE INDEX \"drupal_mOML8Q1mOpUaN8EQHtn4pIFZ9wK8gamkAI1iyADLZZ8_idx\" ON \"comment_field_data\" (\"cid\", \"default_langcode\", \"langcode\");
CREATE INDEX comment_field_data__comment_field__comment_type__target_id__idx ON \"comment_field_data\" (\"comment_type\");
CREATE INDEX comment_field_data__comment_field__uid__target_id__idx ON \"comment_field_data\" (\"uid\");
CREATE INDEX comment_field_data__comment_field__created__idx ON \"comment_field_data\" (\"created\");
CREATE INDEX comment_field_data__comment__status_comment_type__idx ON \"comment_field_data\" (\"status\", \"comment_type\", \"cid\");
CREATE INDEX comment_field_data__comment__status_pid__idx ON \"comment_field_data\" (\"pid\", \"status\");
CREATE INDEX comment_field_data__comment__num_new__idx ON \"comment_field_data\" (\"entity_id\", \"entity_type\", \"comment_type\", \"status\", \"created\", \"cid\", \"thread\");
CREATE INDEX comment_field_data__comment__entity_langcode__idx ON \"comment_field_data\" (\"entity_id\", \"entity_type\", \"comment_type\", \"default_langcode\");
COMMENT ON TABLE \"comment_field_data\" IS 'The data table for comment entities.';
COMMENT ON COLUMN \"comment_field_data\".comment_type IS 'The ID of the target entity.';
COMMENT ON COLUMN \"comment_field_data\".uid IS 'The ID of the target entity.';
COMMENT ON COLUMN \"comment_field_data\".pid IS 'The ID of the target entity.';
COMMENT ON COLUMN \"comment_field_data\".entity_id IS 'The ID of the target entity.';
CREATE TABLE \"comment__comment_body\" (
\t\"bundle\" varchar(128) NOT NULL default '',
\t\"deleted\" smallint NOT NULL default 0,
\t\"entity_id\" bigint CHECK (\"entity_id\" >= 0) NOT NULL,
\t\"revision_id\" bigint CHECK (\"revision_id\" >= 0) NOT NULL,
\t\"langcode\" varchar(32) NOT NULL default '',
\t\"delta\" bigint CHECK (\"delta\" >= 0) NOT NULL,
\t\"comment_body_value\" text NOT NULL,
\t\"comment_body_format\" varchar(255) NULL,
\tCONSTRAINT comment__comment_body____pkey PRIMARY KEY (\"entity_id\", \"deleted\", \"delta\", \"langcode\")
);
CREATE INDEX comment__comment_body__bundle__idx ON \"comment__comment_body\" (\"bundle\");
CREATE INDEX comment__comment_body__revision_id__idx ON \"comment__comment_body\" (\"revision_id\");
CREATE INDEX comment__comment_body__comment_body_format__idx ON \"comment__comment_body\" (\"comment_body_format\");
COMMENT ON TABLE \"comment__comment_body\" IS 'Data storage for comment field comment_body.';
COMMENT ON COLUMN \"comment__comment_body\".bundle IS 'The field instance bundle to which this row belongs, used when deleting a field instance';
COMMENT ON COLUMN \"comment__comment_body\".deleted IS 'A boolean indicating whether this data item has been deleted';
COMMENT ON COLUMN \"comment__comment_body\".entity_id IS 'The entity id this data is attached to';
COMMENT ON COLUMN \"comment__comment_body\".revision_id IS 'The entity revision id this data is attached to, which for an unversioned entity type is the same as the entity id';
COMMENT ON COLUMN \"comment__comment_body\".langcode IS 'The language code for this data item.';
COMMENT ON COLUMN \"comment__comment_body\".delta IS 'The sequence number for this data item, used for multi-value fields'";

/// The sqlite driver: INTEGER with CHECKs for unsigned, case-insensitive strings, `table_index` names in `main`.
const SQLITE: &str = "CREATE TABLE \"comment_field_data\" (
\"cid\" INTEGER NOT NULL CHECK (\"cid\">= 0),
\"comment_type\" VARCHAR(32) NOT NULL,
\"langcode\" VARCHAR(12) NOT NULL,
\"status\" INTEGER NOT NULL,
\"uid\" INTEGER NOT NULL CHECK (\"uid\">= 0),
\"pid\" INTEGER NULL CHECK (\"pid\">= 0) DEFAULT NULL,
\"entity_id\" INTEGER NULL CHECK (\"entity_id\">= 0) DEFAULT NULL,
\"subject\" VARCHAR(64) COLLATE NOCASE NULL DEFAULT NULL,
\"name\" VARCHAR(60) COLLATE NOCASE NULL DEFAULT NULL,
\"mail\" VARCHAR(254) NULL DEFAULT NULL,
\"homepage\" VARCHAR(255) COLLATE NOCASE NULL DEFAULT NULL,
\"hostname\" VARCHAR(128) COLLATE NOCASE NULL DEFAULT NULL,
\"created\" INTEGER NOT NULL,
\"changed\" INTEGER NULL DEFAULT NULL,
\"thread\" VARCHAR(255) COLLATE NOCASE NOT NULL,
\"entity_type\" VARCHAR(32) COLLATE NOCASE NOT NULL,
\"field_name\" VARCHAR(32) COLLATE NOCASE NOT NULL,
\"default_langcode\" INTEGER NOT NULL,
 PRIMARY KEY (\"cid\", \"langcode\")
);
CREATE INDEX \"main\".\"comment_field_data_comment__id__default_langcode__langcode\" ON \"comment_field_data\" (\"cid\", \"default_langcode\", \"langcode\");
CREATE INDEX \"main\".\"comment_field_data_comment_field__comment_type__target_id\" ON \"comment_field_data\" (\"comment_type\");
CREATE INDEX \"main\".\"comment_field_data_comment_field__uid__target_id\" ON \"comment_field_data\" (\"uid\");
CREATE INDEX \"main\".\"comment_field_data_comment_field__created\" ON \"comment_field_data\" (\"created\");
CREATE INDEX \"main\".\"comment_field_data_comment__status_comment_type\" ON \"comment_field_data\" (\"status\", \"comment_type\", \"cid\");
CREATE INDEX \"main\".\"comment_field_data_comment__status_pid\" ON \"comment_field_data\" (\"pid\", \"status\");
CREATE INDEX \"main\".\"comment_field_data_comment__num_new\" ON \"comment_field_data\" (\"entity_id\", \"entity_type\", \"comment_type\", \"status\", \"created\", \"cid\", \"thread\");
CREATE INDEX \"main\".\"comment_field_data_comment__entity_langcode\" ON \"comment_field_data\" (\"entity_id\", \"entity_type\", \"comment_type\", \"default_langcode\");
CREATE TABLE \"comment__comment_body\" (
\"bundle\" VARCHAR(128) NOT NULL DEFAULT '',
\"deleted\" INTEGER NOT NULL DEFAULT 0,
\"entity_id\" INTEGER NOT NULL CHECK (\"entity_id\">= 0),
\"revision_id\" INTEGER NOT NULL CHECK (\"revision_id\">= 0),
\"langcode\" VARCHAR(32) NOT NULL DEFAULT '',
\"delta\" INTEGER NOT NULL CHECK (\"delta\">= 0),
\"comment_body_value\" TEXT NOT NULL,
\"comment_body_format\" VARCHAR(255) NULL DEFAULT NULL,
 PRIMARY KEY (\"entity_id\", \"deleted\", \"delta\", \"langcode\")
);
CREATE INDEX \"main\".\"comment__comment_body_bundle\" ON \"comment__comment_body\" (\"bundle\");
CREATE INDEX \"main\".\"comment__comment_body_revision_id\" ON \"comment__comment_body\" (\"revision_id\");
CREATE INDEX \"main\".\"comment__comment_body_comment_body_format\" ON \"comment__comment_body\" (\"comment_body_format\")";

/// The tables as a fresh Drupal 11 install with the comment module leaves them.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL,
        Engine::Postgres => POSTGRES,
        Engine::Sqlite => SQLITE,
    }
    .to_string()
}

const COLUMNS: &str = "cid comment_type langcode status uid pid entity_id subject name mail homepage hostname created \
    changed thread entity_type field_name default_langcode";
const BODY_COLUMNS: &str = "bundle deleted entity_id revision_id langcode delta comment_body_value comment_body_format";

const START: i64 = T0;
const DAYS: i64 = 42;
const END: i64 = START + DAYS * DAY;
/// `comment`'s next serial value and the next node id when the window opens.
const CID0: i64 = 61_847;
const NID0: i64 = 8_305;
/// The WordPress blog's migration: nodes first, then the comments, in one drush process started at `RUN`.
const IMPORT_AT: i64 = START + 16 * DAY + 21 * HOUR + 48 * MINUTE;
const RUN: i64 = IMPORT_AT - 9 * MINUTE - 17 * SECOND;
/// A member who cancelled their account ("reassign to Anonymous"), and a spammer blocked with "unpublish".
const CANCELLED: usize = 57;
const CANCEL_AT: i64 = START + 29 * DAY + 10 * HOUR + 12 * MINUTE;
const BLOCK_AT: i64 = START + 11 * DAY + 15 * HOUR + 3 * MINUTE;
const BOT_UID: i64 = 5_018;
/// The first form or app create after each of these loses its response.
const LATE: [i64; 3] = [END - 21 * HOUR, END - 11 * HOUR, END - 4 * HOUR];
/// Creates per UTC hour: Europe's day, then the Americas' evening.
const RHYTHM: [i64; 24] = [3, 2, 2, 1, 1, 2, 4, 7, 9, 10, 10, 10, 10, 10, 10, 10, 10, 9, 9, 8, 7, 6, 5, 4];

const ART_SHORT: &[&str] = &[
    "Great article!",
    "Thanks for sharing.",
    "Interesting read.",
    "Thanks!",
    "+1",
    "Well said.",
    "Great write-up, thanks!",
];
const FORUM_SHORT: &[&str] = &["Thanks!", "Same here.", "Solved, thanks!", "+1", "Thank you!", "Bump", "Me too."];
const ISSUE_SHORT: &[&str] = &["+1", "RTBC", "Works for me.", "Confirmed.", "Needs work.", "Rerolled.", "Thanks!"];
const SUBJECTS: &[&str] = &[
    "Great write-up",
    "Question about the upgrade",
    "Same problem here",
    "Workaround",
    "Possible fix",
    "Follow-up",
    "Not working for me",
    "Confirmed on 11.2",
    "Agreed",
    "Re: performance",
    "Patch attached",
    "Steps to reproduce",
];
#[rustfmt::skip]
const ANON_NAMES: &[&str] = &[
    "Mike", "Sarah K.", "jdoe", "Tom", "Anna", "Peter Smith", "guest", "Chris", "Maria", "Dave", "Lukas", "Sophie",
    "Ahmed", "Kim", "Paul R.", "Jan", "Elena", "Marco",
];
const DOMAINS: &[&str] = &["gmail.com", "outlook.com", "web.de", "yahoo.com", "proton.me", "gmx.net", "icloud.com"];
const SPAM: &[(&str, &str, &str, &str)] = &[
    (
        "Best SEO Services",
        "seo.rank.pro@mail.ru",
        "https://rank-pro-seo.example.biz",
        "Great post! I really enjoyed reading this, very informative. Check our services for more.",
    ),
    (
        "Cheap Flights",
        "deals4you@outlook.com",
        "https://cheap-flight-deals.example.top",
        "Thank you for sharing this useful information. Visit my site for the best travel deals.",
    ),
    (
        "crypto_wallet_help",
        "support.wallet@proton.me",
        "https://wallet-recovery.example.xyz",
        "Lost access to your wallet? Our team recovers funds fast, contact us today.",
    ),
];
/// The CI runners' egress addresses.
const RUNNERS: &[&str] = &["34.89.121.7", "34.89.121.19", "35.198.77.240"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Article,
    Forum,
    Issue,
}

impl Kind {
    fn comment_type(self) -> &'static str {
        match self {
            Kind::Article => "comment",
            Kind::Forum => "comment_forum",
            Kind::Issue => "issue_comment",
        }
    }

    fn field(self) -> &'static str {
        match self {
            Kind::Article => "comment",
            Kind::Forum => "comment_forum",
            Kind::Issue => "field_issue_comments",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Chan {
    /// The comment form, signed in.
    Web,
    /// The comment form, anonymous: queued for approval.
    Anon,
    /// The mobile app, through JSON:API.
    App,
    /// The CI bot, through JSON:API.
    Bot,
    Spam,
    Import,
}

struct Node {
    nid: i64,
    kind: Kind,
    at: i64,
    /// Top-level comments from before the window (threads "01/" .. n0).
    n0: u64,
    old: bool,
    imported: bool,
}

struct User {
    uid: i64,
    ip: String,
    ip2: String,
}

#[derive(Clone)]
enum Act {
    Approve,
    Unpublish,
    Delete,
    Edit(String),
    Reassign,
    Block,
}

#[derive(Clone)]
struct Cmt {
    id: usize,
    grp: usize,
    at: i64,
    chan: Chan,
    node: usize,
    parent: Option<usize>,
    uid: i64,
    subject: Option<String>,
    name: Option<String>,
    mail: Option<String>,
    homepage: Option<String>,
    host: String,
    body: String,
    format: &'static str,
    status: bool,
    /// The source's `created`, for an import.
    src: Option<i64>,
    /// The copy read the same MAX(thread) as this row (by id) and got its thread.
    race: Option<usize>,
    retry: bool,
    evs: Vec<(i64, Act)>,
    // What the replay made of it.
    made: bool,
    alive: bool,
    cid: i64,
    path: Vec<u64>,
    changed: i64,
    st: bool,
    uid_now: i64,
    name_now: Option<String>,
    body_now: String,
}

impl Cmt {
    fn new(at: i64, chan: Chan, node: usize, uid: i64, host: String) -> Cmt {
        Cmt {
            id: 0,
            grp: 0,
            at,
            chan,
            node,
            parent: None,
            uid,
            subject: None,
            name: None,
            mail: None,
            homepage: None,
            host,
            body: String::new(),
            format: "basic_html",
            status: true,
            src: None,
            race: None,
            retry: false,
            evs: Vec::new(),
            made: false,
            alive: false,
            cid: 0,
            path: Vec::new(),
            changed: 0,
            st: false,
            uid_now: 0,
            name_now: None,
            body_now: String::new(),
        }
    }
}

fn ip4(r: &mut Rng) -> String {
    const FIRST: &[i64] = &[
        24, 31, 37, 46, 50, 62, 67, 71, 73, 77, 78, 79, 80, 81, 82, 84, 85, 86, 87, 88, 89, 90, 91, 93, 94, 95, 96, 98,
        99, 108, 109, 151, 174, 176, 178, 185, 188, 212, 213, 217,
    ];
    format!("{}.{}.{}.{}", r.one(FIRST), r.range(1, 254), r.range(0, 255), r.range(1, 254))
}

fn ip6(r: &mut Rng) -> String {
    let prefix = r.one(&["2a02", "2a01", "2001", "2600", "2a00", "2003"]);
    let groups: Vec<String> = (0..7).map(|_| format!("{:x}", r.range(0x1000, 0xffff))).collect();
    format!("{prefix}:{}", groups.join(":"))
}

fn some_ip(r: &mut Rng) -> String {
    if r.chance(0.25) { ip6(r) } else { ip4(r) }
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

/// A moment of the day `d0`, as people post.
fn when(r: &mut Rng, d0: i64) -> i64 {
    d0 + r.weighted(&RHYTHM) as i64 * HOUR + r.range(0, 3_599) * SECOND + micros(r)
}

/// When a moderator works the approval queue after `t`: every few hours during the European day.
fn moderated(r: &mut Rng, t: i64) -> i64 {
    let m = t + r.range(8 * 60, 4 * 3_600) * SECOND + micros(r);
    let h = (m - day(m)) / HOUR;
    if h < 6 {
        day(m) + 6 * HOUR + r.range(0, 10_800) * SECOND + micros(r)
    } else if h >= 21 {
        day(m) + DAY + 6 * HOUR + r.range(0, 10_800) * SECOND + micros(r)
    } else {
        m
    }
}

/// `Unicode::truncate($text, 29, TRUE, TRUE)`: the longest prefix of at most 28 characters followed by a word
/// boundary, trailing periods dropped, and '…'.
fn cut(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 29 {
        return text.to_string();
    }
    let boundary = |c: char| c.is_whitespace() || c.is_ascii_punctuation();
    let len = (1..=28).rev().find(|&l| boundary(chars[l])).unwrap_or(28);
    let mut s: String = chars[..len].iter().collect();
    while s.ends_with('.') {
        s.pop();
    }
    s.push('…');
    s
}

/// `CommentForm::buildEntity`'s subject for an empty Subject field: the processed body's text, cut.
fn derive(text: &str) -> String {
    let t = text.trim();
    if t.is_empty() { "(No subject)".to_string() } else { cut(t) }
}

fn paras(r: &mut Rng, n: usize) -> Vec<String> {
    (0..n)
        .map(|_| {
            let k = 5 + r.below(14) as usize;
            sentence(r, k)
        })
        .collect()
}

/// One to `most` paragraphs.
fn some(r: &mut Rng, most: u64) -> Vec<String> {
    let n = 1 + r.below(most) as usize;
    paras(r, n)
}

/// CKEditor 5's output: paragraphs with nothing between them (so `strip_tags` runs them together).
fn html(ps: &[String]) -> String {
    ps.iter().map(|p| format!("<p>{p}</p>")).collect()
}

fn edited(r: &mut Rng, c: &Cmt) -> String {
    let more = sentence(r, 7);
    if c.format == "basic_html" {
        format!("{}<p>Edit: {more}</p>", c.body)
    } else {
        format!("{}\n\nEdit: {more}", c.body)
    }
}

fn push(v: &mut Vec<Cmt>, mut c: Cmt) -> usize {
    let id = v.len();
    (c.id, c.grp) = (id, id);
    v.push(c);
    id
}

/// An extra row a lost response made: the same request again `delay` later.
fn copy(v: &mut Vec<Cmt>, o: usize, delay: i64) -> usize {
    let mut c = v[o].clone();
    c.id = v.len();
    (c.at, c.retry, c.evs) = (v[o].at + delay, true, Vec::new());
    let id = c.id;
    v.push(c);
    id
}

/// What happens to a signed-in poster's extra row: a moderator deletes it, its author turns it into "double post",
/// or it stays.
fn copy_fate(r: &mut Rng, c: &mut Cmt) {
    let x = r.below(100);
    if x < 35 {
        c.evs.push((c.at + r.range(3_600, 3 * 86_400) * SECOND + micros(r), Act::Delete));
    } else if x < 50 && c.chan != Chan::Bot {
        let text =
            if c.format == "basic_html" { "<p>Double post, sorry. Please delete.</p>" } else { "Sorry, double post." };
        c.evs.push((c.at + r.range(60, 1_800) * SECOND + micros(r), Act::Edit(text.to_string())));
    }
}

/// An author's later edit, or a moderator unpublishing it.
fn after(r: &mut Rng, c: &mut Cmt) {
    if r.chance(0.06) {
        let t = c.at + r.range(60, 5_400) * SECOND + micros(r);
        let body = edited(r, c);
        c.evs.push((t, Act::Edit(body)));
    }
    if r.chance(0.004) {
        c.evs.push((c.at + r.range(3_600, 5 * 86_400) * SECOND, Act::Unpublish));
    }
}

/// The approval queue: comments that arrived together are handled together.
fn moderate(r: &mut Rng, v: &mut [Cmt], ids: &[usize]) {
    let last = ids.iter().map(|&i| v[i].at).max().unwrap_or(0);
    let mut m = moderated(r, last);
    let x = r.below(100);
    let n = ids.len();
    for (j, &i) in ids.iter().enumerate() {
        let act = match (n, x) {
            (1, 0..80) => Some(Act::Approve),
            (1, 80..95) => Some(Act::Delete),
            (1, _) => None,
            (_, 0..55) => Some(if j == 0 { Act::Approve } else { Act::Delete }),
            (_, 55..80) => Some(Act::Approve),
            (_, 80..90) => Some(if j + 1 == n { Act::Approve } else { Act::Delete }),
            _ => Some(Act::Delete),
        };
        if let Some(act) = act {
            v[i].evs.push((m, act));
        }
        m += r.range(2, 25) * SECOND + micros(r);
    }
}

/// A comment to reply to: a recent published one on the node, someone else's.
fn parent(r: &mut Rng, v: &[Cmt], node: usize, t: i64, uid: i64, p: f64) -> Option<usize> {
    if !r.chance(p) {
        return None;
    }
    let c: Vec<usize> = v
        .iter()
        .rev()
        .filter(|c| {
            c.node == node
                && !c.retry
                && c.at < t - 20 * SECOND
                && matches!(c.chan, Chan::Web | Chan::App | Chan::Bot)
                && c.uid != uid
        })
        .map(|c| c.id)
        .take(40)
        .collect();
    if c.is_empty() {
        return None;
    }
    Some(c[r.skewed(c.len() as u64) as usize])
}

/// The node commented on: mostly one published in the last days, the newest most, else an older one.
fn pick_node(r: &mut Rng, nodes: &[Node], kind: Kind, t: i64) -> Option<usize> {
    let recent: Vec<usize> = (0..nodes.len())
        .filter(|&i| {
            let n = &nodes[i];
            n.kind == kind && !n.old && !n.imported && n.at < t - 5 * MINUTE && n.at > t - 12 * DAY
        })
        .collect();
    let old_share = match kind {
        Kind::Article => 0.18,
        Kind::Forum => 0.12,
        Kind::Issue => 0.45,
    };
    if !recent.is_empty() && !r.chance(old_share) {
        let k = r.skewed(recent.len() as u64) as usize;
        return Some(recent[recent.len() - 1 - k]);
    }
    let old: Vec<usize> = (0..nodes.len())
        .filter(|&i| {
            let n = &nodes[i];
            n.kind == kind
                && (n.old || (n.imported && n.at < t && r.chance(0.1)) || (!n.imported && n.at < t - 12 * DAY))
        })
        .collect();
    if old.is_empty() {
        return None;
    }
    Some(old[r.skewed(old.len() as u64) as usize])
}

/// The members, the nodes, the mobile carriers' shared addresses.
struct Site<'a> {
    users: &'a [User],
    nodes: &'a [Node],
    carrier: &'a [String],
}

#[derive(Clone, Copy)]
struct Intent {
    at: i64,
    chan: Chan,
    kind: Kind,
    who: usize,
}

/// The comment form, signed in: a body, sometimes a subject; a reply from a comment's Reply link.
fn web(r: &mut Rng, v: &mut Vec<Cmt>, site: &Site, ni: usize, who: usize, t: i64, forced: bool) {
    let u = &site.users[who];
    let kind = site.nodes[ni].kind;
    let short_list = match kind {
        Kind::Article => ART_SHORT,
        Kind::Forum => FORUM_SHORT,
        Kind::Issue => ISSUE_SHORT,
    };
    let short = r.chance(match kind {
        Kind::Article => 0.1,
        Kind::Forum => 0.14,
        Kind::Issue => 0.18,
    });
    let ps: Vec<String> = if short { vec![r.pick(short_list).to_string()] } else { some(r, 3) };
    let subject = if !short && r.chance(0.22) { r.pick(SUBJECTS).to_string() } else { derive(&ps.concat()) };
    let p = match kind {
        Kind::Forum => 0.45,
        Kind::Article => 0.3,
        Kind::Issue => 0.12,
    };
    let pid = parent(r, v, ni, t, u.uid, p);
    let host = if r.chance(0.85) { u.ip.clone() } else { u.ip2.clone() };
    let mut c = Cmt::new(t, Chan::Web, ni, u.uid, host);
    (c.parent, c.subject, c.body) = (pid, Some(subject), html(&ps));
    after(r, &mut c);
    let o = push(v, c);
    let y = r.below(1_000);
    if forced || y < 7 {
        // The response hung (a slow mail hook, a cache rebuild): the page reloaded and the form re-posted.
        let d = r.range(10, 60) * SECOND + micros(r);
        let k = copy(v, o, d);
        copy_fate(r, &mut v[k]);
        if r.chance(0.2) {
            let k = copy(v, o, d + r.range(15, 90) * SECOND + micros(r));
            copy_fate(r, &mut v[k]);
        }
    } else if y < 12 {
        // Save clicked twice before the page's scripts were attached.
        let k = copy(v, o, r.range(20_000, 100_000));
        if r.chance(0.3) {
            v[k].race = Some(o);
        }
        copy_fate(r, &mut v[k]);
    }
}

/// The mobile app: JSON:API with only `comment_body` (plain text), so no subject; from the phone's address.
fn app(r: &mut Rng, v: &mut Vec<Cmt>, site: &Site, ni: usize, who: usize, t: i64, forced: bool) {
    let (u, carrier) = (&site.users[who], site.carrier);
    let cellular = r.chance(0.5);
    let host = if cellular { r.pick(carrier).clone() } else { u.ip.clone() };
    let short = r.chance(0.12);
    let body = if short { r.pick(FORUM_SHORT).to_string() } else { some(r, 2).join("\n\n") };
    let pid = parent(r, v, ni, t, u.uid, 0.3);
    let mut c = Cmt::new(t, Chan::App, ni, u.uid, host);
    (c.parent, c.body, c.format) = (pid, body, "plain_text");
    after(r, &mut c);
    let o = push(v, c);
    if forced || r.below(1_000) < 30 {
        // The app's 15 s timeout, then its retry with backoff; some copies come from the other network.
        let mut d = client_retry_delay(r);
        for attempt in 0..1 + usize::from(r.chance(0.35)) {
            if attempt > 0 {
                d += 2 * d.max(2 * SECOND) + micros(r);
            }
            let k = copy(v, o, d);
            if d >= 10 * SECOND && r.chance(0.3) {
                v[k].host = if cellular { u.ip.clone() } else { r.pick(carrier).clone() };
            }
            copy_fate(r, &mut v[k]);
        }
    } else if r.chance(0.06) {
        // A follow-up typed right after: another top-level comment (or another reply to the same comment).
        let at = t + r.range(30, 360) * SECOND + micros(r);
        let mut f = Cmt::new(at, Chan::App, ni, u.uid, v[o].host.clone());
        (f.parent, f.body, f.format) = (pid, paras(r, 1).join("\n\n"), "plain_text");
        push(v, f);
    }
}

/// The CI bot posting a run's result on an issue: its subject, the run in the body, from the runner's address.
fn bot(r: &mut Rng, v: &mut Vec<Cmt>, ni: usize, t: i64, build: &mut i64) {
    fn outcome(r: &mut Rng) -> usize {
        r.weighted(&[70, 25, 5])
    }
    let mut at = t;
    let mut o = outcome(r);
    let mut runner = r.one(RUNNERS);
    loop {
        *build += 1 + r.below(3) as i64;
        let (subject, summary) = match o {
            0 => (
                "Tests passed",
                format!("{} tests, {} assertions, OK.", r.range(3_100, 3_400), r.range(14_000, 16_000)),
            ),
            1 => ("Tests failed", format!("{} of {} tests failed.", r.range(1, 12), r.range(3_100, 3_400))),
            _ => ("Patch does not apply", "The patch no longer applies to 11.x; needs a reroll.".to_string()),
        };
        let php = r.one(&["8.3", "8.4"]);
        let db = r.one(&["MySQL 8.0", "PostgreSQL 16", "SQLite 3.45"]);
        let body = format!(
            "<p>Pipeline <a href=\"https://ci.example.org/pipelines/{b}\">#{b}</a> on PHP {php} &amp; {db}: {summary}</p>",
            b = *build
        );
        let mut c = Cmt::new(at, Chan::Bot, ni, BOT_UID, runner.to_string());
        (c.subject, c.body) = (Some(subject.to_string()), body);
        let id = push(v, c);
        if r.below(1_000) < 25 {
            // requests' Retry after the read timeout, with backoff.
            let mut d = client_retry_delay(r);
            for attempt in 0..1 + usize::from(r.chance(0.4)) {
                if attempt > 0 {
                    d += 2 * d.max(2 * SECOND) + micros(r);
                }
                let k = copy(v, id, d);
                if r.chance(0.3) {
                    let at = v[k].at + r.range(3_600, 2 * 86_400) * SECOND;
                    v[k].evs.push((at, Act::Delete));
                }
            }
        }
        // A second pipeline on the same issue (a fix-up push, a retest): its own result, minutes apart.
        if !r.chance(0.18) {
            break;
        }
        at += r.range(20, 180) * SECOND + micros(r);
        if r.chance(0.3) {
            o = outcome(r);
        }
        if r.chance(0.4) {
            runner = r.one(RUNNERS);
        }
    }
}

/// The form, anonymous: name, mail and homepage as typed (empty ones stored NULL), plain text, queued for approval.
fn anon(r: &mut Rng, v: &mut Vec<Cmt>, ni: usize, t: i64) {
    let name = r.chance(0.7).then(|| r.pick(ANON_NAMES).to_string());
    let mail = r.chance(0.5).then(|| {
        let base = name.as_deref().unwrap_or("reader").split([' ', '.']).next().unwrap_or("reader").to_lowercase();
        format!("{base}{}@{}", r.range(1, 99), r.pick(DOMAINS))
    });
    let homepage = r.chance(0.08).then(|| format!("https://{}.example.net", r.pick(WORDS)));
    let ps = if r.chance(0.15) { vec![r.pick(ART_SHORT).to_string()] } else { some(r, 3) };
    let pid = parent(r, v, ni, t, 0, 0.15);
    let mut c = Cmt::new(t, Chan::Anon, ni, 0, some_ip(r));
    // restricted_html: autop makes a paragraph of each block, so the text keeps a newline between them.
    (c.subject, c.body, c.format, c.status) =
        (Some(derive(&ps.join("\n"))), ps.join("\r\n\r\n"), "restricted_html", false);
    (c.name, c.mail, c.homepage, c.parent) = (name, mail, homepage, pid);
    let o = push(v, c);
    let mut group = vec![o];
    let y = r.below(1_000);
    if y < 10 {
        let d = if r.chance(0.35) { r.range(20_000, 100_000) } else { r.range(10, 60) * SECOND + micros(r) };
        group.push(copy(v, o, d));
    } else if y < 90 {
        // "Your comment has been queued for review": it does not show, so it is posted again, pasted or retyped.
        let mut again = v[o].clone();
        again.at = t + r.range(60, 600) * SECOND + micros(r);
        if r.chance(0.5) {
            let ps = some(r, 2);
            (again.subject, again.body) = (Some(derive(&ps.join("\n"))), ps.join("\r\n\r\n"));
        }
        if r.chance(0.15) {
            again.host = some_ip(r);
        }
        group.push(push(v, again));
    }
    moderate(r, v, &group);
}

/// A spam bot: the same text to one node, seconds apart; the queue deletes it.
fn spam(r: &mut Rng, v: &mut Vec<Cmt>, ni: usize, t: i64, n: usize, keep: bool) {
    let (name, mail, homepage, text) = *r.pick(SPAM);
    let mut host = ip4(r);
    let mut at = t;
    for _ in 0..n {
        let mut c = Cmt::new(at, Chan::Spam, ni, 0, host.clone());
        (c.subject, c.body, c.format, c.status) = (Some(derive(text)), text.to_string(), "restricted_html", false);
        (c.name, c.mail, c.homepage) = (Some(name.to_string()), Some(mail.to_string()), Some(homepage.to_string()));
        if !keep {
            c.evs.push((moderated(r, at), Act::Delete));
        }
        push(v, c);
        at += if r.chance(0.6) { r.range(300_000, 5_000_000) } else { r.range(5_000_000, 40_000_000) };
        if r.chance(0.3) {
            host = ip4(r);
        }
    }
}

/// The WordPress blog's comments (approved ones), in `comment_ID` order: guests with their name, mail, site and IP;
/// the blog's authors as the users the user migration made. No subject, no cid, `changed` unmapped.
fn import(r: &mut Rng, v: &mut Vec<Cmt>, posts: &[usize]) {
    struct Guest {
        name: String,
        mail: String,
        url: Option<String>,
        ip: String,
    }
    struct Wp {
        t: i64,
        node: usize,
        guest: Option<usize>,
        uid: i64,
        parent: Option<usize>,
    }
    let first = &["Jenny", "Mark", "Olivia", "Ben", "Tariq", "Lena", "Sam", "Ravi", "Nora", "Felix", "Ines", "Joe"];
    let last = &["", " M.", " Schmidt", " Rossi", " Nguyen", " O'Brien", " Larsen", " Costa", " Weber"];
    let guests: Vec<Guest> = (0..220)
        .map(|_| {
            let name = format!("{}{}", r.pick(first), r.pick(last));
            let mail = format!(
                "{}{}@{}",
                name.split(' ').next().unwrap_or("x").to_lowercase(),
                r.range(1, 999),
                r.pick(DOMAINS)
            );
            let url = r.chance(0.2).then(|| format!("http://{}{}.example.com", r.pick(WORDS), r.range(1, 99)));
            Guest { name, mail, url, ip: some_ip(r) }
        })
        .collect();
    let mut wp: Vec<Wp> = Vec::new();
    for &ni in posts {
        if r.chance(0.2) {
            continue;
        }
        let mut t = START - r.range(400, 3_600) * DAY + r.range(0, 86_399) * SECOND;
        let first_on_post = wp.len();
        for _ in 0..1 + r.skewed(28) {
            t += r.range(300, 10 * 86_400) * SECOND;
            let guest = (!r.chance(0.1)).then(|| r.skewed(guests.len() as u64) as usize);
            let uid = if guest.is_some() { 0 } else { 6_803 + r.below(6) as i64 };
            let parent = (wp.len() > first_on_post && r.chance(0.25))
                .then(|| r.range(first_on_post as i64, wp.len() as i64 - 1) as usize);
            wp.push(Wp { t, node: ni, guest, uid, parent });
        }
    }
    let mut order: Vec<usize> = (0..wp.len()).collect();
    order.sort_by_key(|&i| wp[i].t);
    let mut id_of: HashMap<usize, usize> = HashMap::new();
    let mut at = IMPORT_AT;
    for i in order {
        let w = &wp[i];
        let host = match w.guest {
            Some(g) if r.chance(0.75) => guests[g].ip.clone(),
            _ => some_ip(r),
        };
        let mut c = Cmt::new(at, Chan::Import, w.node, w.uid, host);
        let ps = if r.chance(0.1) { vec![r.pick(ART_SHORT).to_string()] } else { some(r, 3) };
        (c.body, c.src, c.parent) = (ps.join("\n\n"), Some(w.t), w.parent.map(|p| id_of[&p]));
        if let Some(g) = w.guest {
            let g = &guests[g];
            (c.name, c.mail, c.homepage) = (Some(g.name.clone()), Some(g.mail.clone()), g.url.clone());
        }
        id_of.insert(i, push(v, c));
        at += r.range(120_000, 260_000);
    }
}

fn vancode(n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut s = Vec::new();
    let mut x = n;
    loop {
        s.push(DIGITS[(x % 36) as usize]);
        x /= 36;
        if x == 0 {
            break;
        }
    }
    s.reverse();
    format!("{}{}", (b'0' + s.len() as u8 - 1) as char, String::from_utf8(s).unwrap_or_default())
}

fn thread(path: &[u64]) -> String {
    let parts: Vec<String> = path.iter().map(|&n| vancode(n)).collect();
    format!("{}/", parts.join("."))
}

/// Creates and later changes in time order: serials, threads from the live rows, moderation, deletes with replies.
fn replay(v: &mut [Cmt], nodes: &[Node]) {
    let mut ops: Vec<(i64, usize, Option<usize>)> = Vec::new();
    for (k, c) in v.iter().enumerate() {
        ops.push((c.at, k, None));
        for (e, ev) in c.evs.iter().enumerate() {
            ops.push((ev.0.max(c.at + 1), k, Some(e)));
        }
    }
    ops.retain(|o| o.0 < END);
    ops.sort_by_key(|o| (o.0, o.1, o.2.map_or(0, |e| e + 1)));
    let mut next = CID0;
    let mut on_node: HashMap<usize, Vec<usize>> = HashMap::new();
    for (t, k, e) in ops {
        let Some(e) = e else {
            if let Some(p) = v[k].parent
                && (!v[p].alive || !v[p].st)
            {
                // The Reply link of a deleted or unpublished comment no longer leads anywhere.
                continue;
            }
            let node = v[k].node;
            let live: Vec<usize> =
                on_node.get(&node).map_or(Vec::new(), |l| l.iter().copied().filter(|&j| v[j].alive).collect());
            let path = match (v[k].race, v[k].parent) {
                (Some(o), _) if v[o].alive => v[o].path.clone(),
                (_, None) => {
                    let m = live.iter().map(|&j| v[j].path[0]).max().unwrap_or(0).max(nodes[node].n0);
                    vec![m + 1]
                }
                (_, Some(p)) => {
                    let pp = v[p].path.clone();
                    let kids = live.iter().filter(|&&j| v[j].path.len() > pp.len() && v[j].path[..pp.len()] == pp[..]);
                    let m = kids.map(|&j| v[j].path[pp.len()]).max();
                    let mut q = pp;
                    q.push(m.map_or(0, |x| x + 1));
                    q
                }
            };
            let c = &mut v[k];
            (c.made, c.alive, c.cid, c.path) = (true, true, next, path);
            next += 1;
            c.changed = if c.chan == Chan::Import { secs(RUN) } else { secs(c.at) };
            (c.st, c.uid_now, c.name_now, c.body_now) = (c.status, c.uid, c.name.clone(), c.body.clone());
            on_node.entry(node).or_default().push(k);
            continue;
        };
        if !v[k].alive {
            continue;
        }
        let now = secs(t);
        let act = v[k].evs[e].1.clone();
        match act {
            Act::Approve => {
                if !v[k].st {
                    (v[k].st, v[k].changed) = (true, now);
                }
            }
            Act::Unpublish | Act::Block => {
                if v[k].st {
                    (v[k].st, v[k].changed) = (false, now);
                }
            }
            Act::Edit(text) => (v[k].body_now, v[k].changed) = (text, now),
            Act::Reassign => (v[k].uid_now, v[k].name_now, v[k].changed) = (0, Some("Anonymous".to_string()), now),
            Act::Delete => {
                // `Comment::postDelete` deletes the replies, and theirs.
                let mut stack = vec![k];
                while let Some(j) = stack.pop() {
                    v[j].alive = false;
                    let node = v[j].node;
                    for &c in on_node.get(&node).map_or(&[][..], |l| &l[..]) {
                        if v[c].alive && v[c].parent == Some(j) {
                            stack.push(c);
                        }
                    }
                }
            }
        }
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0xD_1202_C0DE);
    // Members: staff first (they post a lot), then the community, most active first; the spammer last.
    let mut seen: HashSet<i64> = HashSet::new();
    let mut users: Vec<User> = Vec::new();
    for uid in [1, 4, 9, 17, 26] {
        seen.insert(uid);
        users.push(User { uid, ip: some_ip(&mut r), ip2: ip4(&mut r) });
    }
    while users.len() < 435 {
        let uid = r.range(30, 6_700);
        if uid != BOT_UID && seen.insert(uid) {
            users.push(User { uid, ip: some_ip(&mut r), ip2: some_ip(&mut r) });
        }
    }
    users.push(User { uid: 6_912, ip: ip4(&mut r), ip2: ip4(&mut r) });
    let spammer = users.len() - 1;
    let carrier: Vec<String> = (0..18).map(|_| ip4(&mut r)).collect();

    // Nodes: older ones that still get comments, the window's new ones, and the imported blog posts.
    let mut nodes: Vec<Node> = Vec::new();
    let mut nids: HashSet<i64> = HashSet::new();
    for (kind, n, top) in [(Kind::Article, 70, 45), (Kind::Forum, 110, 30), (Kind::Issue, 140, 35)] {
        for _ in 0..n {
            let nid = loop {
                let x = r.range(120, NID0 - 1);
                if nids.insert(x) {
                    break x;
                }
            };
            let at = START - r.range(13, 1_500) * DAY;
            nodes.push(Node { nid, kind, at, n0: r.skewed(top), old: true, imported: false });
        }
    }
    let mut fresh: Vec<Node> = Vec::new();
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let we = weekday(d0) >= 5;
        for (kind, wd, wk) in [(Kind::Article, 1.4, 0.3), (Kind::Forum, 7.0, 5.0), (Kind::Issue, 3.5, 0.8)] {
            for _ in 0..r.poisson(if we { wk } else { wd }) {
                fresh.push(Node { nid: 0, kind, at: when(&mut r, d0), n0: 0, old: false, imported: false });
            }
        }
    }
    for i in 0..64 {
        let at = IMPORT_AT - 8 * MINUTE + i * 350_000;
        fresh.push(Node { nid: 0, kind: Kind::Article, at, n0: 0, old: false, imported: true });
    }
    fresh.sort_by_key(|n| n.at);
    let mut nid = NID0;
    for n in fresh.iter_mut() {
        n.nid = nid;
        nid += 1 + i64::from(r.chance(0.03));
    }
    nodes.extend(fresh);
    let posts: Vec<usize> = (0..nodes.len()).filter(|&i| nodes[i].imported).collect();

    // Who posts what, when.
    let mut intents: Vec<Intent> = Vec::new();
    let n_people = (users.len() - 1) as u64;
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let we = weekday(d0) >= 5;
        let plan: [(Chan, Kind, f64, f64); 8] = [
            (Chan::Web, Kind::Article, 11.0, 6.0),
            (Chan::Web, Kind::Forum, 13.0, 10.0),
            (Chan::Web, Kind::Issue, 7.0, 2.5),
            (Chan::App, Kind::Article, 3.2, 3.6),
            (Chan::App, Kind::Forum, 4.8, 5.4),
            (Chan::Anon, Kind::Article, 5.0, 4.0),
            (Chan::Bot, Kind::Issue, 5.0, 1.2),
            (Chan::Spam, Kind::Article, 4.0, 4.0),
        ];
        for (chan, kind, wd, wk) in plan {
            for _ in 0..r.poisson(if we { wk } else { wd }) {
                let at = if chan == Chan::Spam {
                    d0 + r.range(0, 86_399) * SECOND + micros(&mut r)
                } else {
                    when(&mut r, d0)
                };
                let who = r.skewed(n_people) as usize;
                if who == CANCELLED && at > CANCEL_AT {
                    continue;
                }
                intents.push(Intent { at, chan, kind, who });
            }
        }
    }
    // The spammer's account: links in the forum, until it is blocked.
    for k in 0..6 {
        let at = START + 10 * DAY + 9 * HOUR + k * 4 * HOUR + r.range(0, 3_000) * SECOND + micros(&mut r);
        intents.push(Intent { at, chan: Chan::Web, kind: Kind::Forum, who: spammer });
    }
    intents.retain(|i| i.at < END - MINUTE);
    intents.sort_by_key(|i| i.at);

    let site = Site { users: &users, nodes: &nodes, carrier: &carrier };
    let mut v: Vec<Cmt> = Vec::new();
    let mut late = 0;
    let mut build = 48_210;
    for it in intents {
        let Some(ni) = pick_node(&mut r, &nodes, it.kind, it.at) else { continue };
        let forced = late < LATE.len() && it.at > LATE[late] && matches!(it.chan, Chan::Web | Chan::App);
        late += usize::from(forced);
        match it.chan {
            Chan::Web if it.who == spammer => {
                let u = &users[spammer];
                let mut c = Cmt::new(it.at, Chan::Web, ni, u.uid, u.ip.clone());
                let text = format!(
                    "Had the same issue, this guide fixed it for me: https://fix-{}-now.example.top",
                    r.pick(WORDS)
                );
                (c.subject, c.body) = (Some(derive(&text)), format!("<p>{text}</p>"));
                push(&mut v, c);
            }
            Chan::Web => web(&mut r, &mut v, &site, ni, it.who, it.at, forced),
            Chan::App => app(&mut r, &mut v, &site, ni, it.who, it.at, forced),
            Chan::Bot => bot(&mut r, &mut v, ni, it.at, &mut build),
            Chan::Anon => anon(&mut r, &mut v, ni, it.at),
            Chan::Spam => {
                // Mostly one comment on an old article; now and then a burst on one node.
                let n = if r.chance(0.12) { 3 + r.below(6) as usize } else { 1 };
                spam(&mut r, &mut v, ni, it.at, n, false);
            }
            Chan::Import => {}
        }
    }
    // Two bursts the queue has not got to yet.
    for t in [END - 30 * HOUR - 17 * MINUTE, END - 7 * HOUR - 41 * MINUTE] {
        if let Some(ni) = pick_node(&mut r, &nodes, Kind::Article, t) {
            let n = 4 + r.below(4) as usize;
            spam(&mut r, &mut v, ni, t, n, true);
        }
    }
    import(&mut r, &mut v, &posts);
    for c in v.iter_mut() {
        if c.uid == users[CANCELLED].uid {
            c.evs.push((CANCEL_AT, Act::Reassign));
        }
        if c.uid == users[spammer].uid {
            c.evs.push((BLOCK_AT, Act::Block));
        }
    }

    // Rows in arrival order; ids to positions.
    v.retain(|c| c.at < END - SECOND);
    v.sort_by_key(|c| c.at);
    let mut pos: HashMap<usize, usize> = HashMap::new();
    for (k, c) in v.iter().enumerate() {
        pos.insert(c.id, k);
    }
    for c in v.iter_mut() {
        c.parent = c.parent.and_then(|p| pos.get(&p).copied());
        c.race = c.race.and_then(|p| pos.get(&p).copied());
        c.grp = pos.get(&c.grp).copied().unwrap_or(usize::MAX);
    }
    replay(&mut v, &nodes);

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("comment_field_data", &columns);
    let mut body = Child::new("comment__comment_body", &BODY_COLUMNS.split_whitespace().collect::<Vec<_>>());
    let mut first_key: HashMap<usize, String> = HashMap::new();
    let mut seen_made: HashSet<String> = HashSet::new();
    let mut seen_now: HashSet<String> = HashSet::new();
    for c in v.iter().filter(|c| c.made && c.alive) {
        let n = &nodes[c.node];
        let pid = c.parent.map(|p| v[p].cid);
        let made = format!(
            "{}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{}",
            n.nid,
            n.kind.field(),
            c.uid,
            pid,
            c.subject,
            c.name,
            c.mail,
            c.homepage,
            c.host,
            c.status
        );
        let now = format!(
            "{}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{}",
            n.nid,
            n.kind.field(),
            c.uid_now,
            pid,
            c.subject,
            c.name_now,
            c.mail,
            c.homepage,
            c.host,
            c.st
        );
        let fresh = seen_made.insert(made.clone()) & seen_now.insert(now);
        let first = !first_key.contains_key(&c.grp);
        let mark = if !first {
            Mark::Retry
        } else if !fresh {
            Mark::Legit
        } else {
            Mark::Plain
        };
        f.push(&[
            ("cid", V::I(c.cid)),
            ("comment_type", V::t(n.kind.comment_type())),
            ("langcode", V::t("en")),
            ("status", V::I(i64::from(c.st))),
            ("uid", V::I(c.uid_now)),
            ("pid", V::opt_i(pid)),
            ("entity_id", V::I(n.nid)),
            ("subject", V::opt_t(c.subject.as_deref())),
            ("name", V::opt_t(c.name_now.as_deref())),
            ("mail", V::opt_t(c.mail.as_deref())),
            ("homepage", V::opt_t(c.homepage.as_deref())),
            ("hostname", V::t(&c.host)),
            ("created", V::I(c.src.map_or(secs(c.at), secs) / SECOND)),
            ("changed", V::I(c.changed / SECOND)),
            ("thread", V::t(thread(&c.path))),
            ("entity_type", V::t("node")),
            ("field_name", V::t(n.kind.field())),
            ("default_langcode", V::I(1)),
        ]);
        body.push(&[
            ("bundle", V::t(n.kind.comment_type())),
            ("deleted", V::I(0)),
            ("entity_id", V::I(c.cid)),
            ("revision_id", V::I(c.cid)),
            ("langcode", V::t("en")),
            ("delta", V::I(0)),
            ("comment_body_value", V::t(&c.body_now)),
            ("comment_body_format", V::t(c.format)),
        ]);
        f.mark(c.cid, mark);
        if first {
            first_key.insert(c.grp, made);
        } else if first_key.get(&c.grp) != Some(&made) {
            // Sent again from another network: the row differs in its address, as a new comment from elsewhere would.
            f.hidden.insert(c.cid.to_string());
        }
    }
    f.children.push(body);
    f
}
