//! Moodle (PHP; MySQL/MariaDB, PostgreSQL and others through its own DML/DDL layer): `mdl_forum_posts`, as the forum's
//! post form (`mod/forum/post.php`: new discussions through `forum_add_discussion`, replies through
//! `forum_add_new_post`), the discussion page's in-page reply and the Moodle app (both through the web service
//! `mod_forum_add_discussion_post`, the app's new discussions through `mod_forum_add_discussion`) write it, and as the
//! forum cron, edits, deletes and a privacy request change it afterwards: a university's Moodle 4.5 (TinyMCE, some
//! accounts still on Atto), 14 courses of the autumn term, 1 October to Wednesday 28 October 2026, 20:00 UTC.
//! Read: moodle/moodle (the stored versions) mod/forum/db/install.xml (00e93a9: with `wordcount`, `charcount`;
//! f6b07fe before them), mod/forum/db/upgrade.php (5b16520: `deleted`, `privatereplyto` added after `mailnow`),
//! mod/forum/lib.php (302ae13: `forum_add_new_post`, `forum_update_post`, `forum_add_discussion`,
//! `forum_delete_post`, `forum_add_attachment`), mod/forum/post.php (7783373: the add, reply and edit branches,
//! `posttomygroups`, `mailnow`), mod/forum/externallib.php (117e4bd: `add_discussion_post` with `topreferredformat`,
//! `add_discussion`), mod/forum/classes/local/entities/post.php (`add_message_counts`),
//! mod/forum/classes/task/cron_task.php (4129d89: `get_unmailed_posts`, `maxeditingtime`),
//! mod/forum/classes/privacy/provider.php (`delete_data_for_user`),
//! mod/forum/classes/task/refresh_forum_post_counts.php, mod/forum/amd/src/inpage_reply.js (5b99c4f) and
//! repository.js (b099428); lib/ddl/sql_generator.php (452e36f:
//! `getCreateTableSQL`, `getFieldSQL`, `getDefaultValue`, `getNameForObject`, the indexes behind foreign keys),
//! lib/ddl/mysql_sql_generator.php (2d00328: types, the keyblock hack, engine, collation, comment),
//! lib/ddl/postgres_sql_generator.php (a2ac234: types, BIGSERIAL, `COMMENT ON TABLE`),
//! lib/dml/mysqli_native_moodle_database.php (`get_row_format_sql`); `count_words` as moodlehq/moodleapp mirrors it;
//! moodlehq/moodleapp (d42cf23) src/addons/mod/forum/services/forum.ts (`replyPost`: a request that fails without a
//! web-service error is stored offline and sent again by the sync).
//! The DDL is what XMLDB generates from install.xml with prefix `mdl_` (MariaDB with utf8mb4_unicode_ci, InnoDB,
//! Dynamic rows; PostgreSQL): no foreign key constraints (Moodle creates only the indexes behind its keys).
//! On a create: `id` from the sequence; `created` = `modified` = `time()`; `mailed` 0 (FORUM_MAILED_PENDING);
//! `userid` the poster; `subject` what was typed, a reply's prefilled "Re: " + its parent's subject (kept when it
//! already starts with "Re: "); `message` the editor's HTML (TinyMCE `<p>` blocks joined by newlines, Atto
//! `<p dir="ltr" style="text-align: left;">`, the app's `<p>`), the in-page reply's plain text converted from
//! FORMAT_MOODLE to HTML (`<div class="text_to_html">`, line breaks as `<br />`) because it asks for the preferred
//! format; `messageformat` 1; `messagetrust` 0 (trusttext off); `attachment` '' then '1' when files were saved;
//! `totalscore` 0; `mailnow` 1 when a teacher ticked "send now" on the form, else 0; `deleted` 0; `privatereplyto`
//! the parent's author for a private reply; `parent` 0 for a discussion's first post, which is inserted with
//! `discussion` 0 and then pointed at the discussion created after it (so each attempt mints a discussion too);
//! `wordcount`/`charcount` from the message (`count_words`: blocks between spaces after the tags are stripped;
//! `count_letters`: non-space characters).
//! Later: the forum cron (every minute) sets `mailed` 1 once a post is 30 minutes old (`maxeditingtime`), at once for
//! `mailnow`; authors edit within those 30 minutes, teachers any time: `modified`, `message` and the counts change;
//! deletes are hard (the row goes; authors may delete within 30 minutes, teachers any time); a privacy deletion
//! request empties `subject` and `message`, sets `messageformat` 2 and `deleted` 1 and leaves the rest.
//! Retries (about 2.2% of creates): the post form submitted twice (20-100 ms) or re-submitted after a hung request
//! (10-60 s, sometimes once more); an in-page reply sent again after the request failed (10-60 s); the app storing a
//! reply offline after a timeout although the first request went through, and its sync sending it again (15-90 s on
//! a pull to refresh, 2-11 minutes on the sync cron); three in the last day (forced). Each copy has its own fate:
//! deleted by its author within 30 minutes, removed by the teacher later, edited into an apology, left; sometimes the
//! author deletes the first and keeps the copy; duplicated discussions sometimes get a teacher's note. Hidden: copies
//! of a discussion's first post (its row is a cross-post's or a copy-to-all-groups row: the forum and group that tell
//! them apart live in `mdl_forum_discussions`) and copies of one-word replies ("Done", "Present": people post those
//! again on purpose, minutes apart), and copies that no longer read like their first attempt (edited since).
//! Legitimate repeats: a teacher posting the same announcement to the news forums of several courses (25 s - 5 min
//! apart) and "Post a copy to all groups" (one discussion per group in one request, milliseconds apart); students
//! answering "Present" in the lab attendance thread every session and "Done" to the lab's progress check after each
//! exercise (45 seconds or more apart). Plain near-repeats: the same word from different students, the same thanks to
//! different answers, the app's offline queue landing several replies within a second or two, cross-posts a teacher
//! adapted for one course.
//! Guessed: the site, courses, people, rates and rhythms; the editors' exact HTML; the app's timeouts and sync
//! timing; the fates of copies; the cron's seconds offset; MariaDB 10.6+ (Dynamic, not Compressed, rows).
use std::collections::{HashMap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Postgres];

/// XMLDB on MariaDB: one CREATE TABLE with the indexes folded in (the keyblock hack), engine, collation, row format
/// and comment appended.
const MYSQL: &str = "CREATE TABLE mdl_forum_posts (
    id BIGINT(10) NOT NULL auto_increment,
    discussion BIGINT(10) NOT NULL DEFAULT 0,
    parent BIGINT(10) NOT NULL DEFAULT 0,
    userid BIGINT(10) NOT NULL DEFAULT 0,
    created BIGINT(10) NOT NULL DEFAULT 0,
    modified BIGINT(10) NOT NULL DEFAULT 0,
    mailed TINYINT(2) NOT NULL DEFAULT 0,
    subject VARCHAR(255) COLLATE utf8mb4_unicode_ci NOT NULL DEFAULT '',
    message LONGTEXT COLLATE utf8mb4_unicode_ci NOT NULL,
    messageformat TINYINT(2) NOT NULL DEFAULT 0,
    messagetrust TINYINT(2) NOT NULL DEFAULT 0,
    attachment VARCHAR(100) COLLATE utf8mb4_unicode_ci NOT NULL DEFAULT '',
    totalscore SMALLINT(4) NOT NULL DEFAULT 0,
    mailnow BIGINT(10) NOT NULL DEFAULT 0,
    deleted TINYINT(1) NOT NULL DEFAULT 0,
    privatereplyto BIGINT(10) NOT NULL DEFAULT 0,
    wordcount BIGINT(20),
    charcount BIGINT(20),
CONSTRAINT  PRIMARY KEY (id)
, KEY mdl_forupost_use_ix (userid)
, KEY mdl_forupost_cre_ix (created)
, KEY mdl_forupost_mai_ix (mailed)
, KEY mdl_forupost_dis_ix (discussion)
, KEY mdl_forupost_par_ix (parent)
)
 ENGINE = InnoDB
 DEFAULT COLLATE = utf8mb4_unicode_ci ROW_FORMAT=Dynamic
 COMMENT='All posts are stored in this table'";

/// XMLDB on PostgreSQL: BIGSERIAL, the named primary key, the comment, then the indexes (its own, then those of the
/// two foreign keys).
const POSTGRES: &str = "CREATE TABLE mdl_forum_posts (
    id BIGSERIAL,
    discussion BIGINT NOT NULL DEFAULT 0,
    parent BIGINT NOT NULL DEFAULT 0,
    userid BIGINT NOT NULL DEFAULT 0,
    created BIGINT NOT NULL DEFAULT 0,
    modified BIGINT NOT NULL DEFAULT 0,
    mailed SMALLINT NOT NULL DEFAULT 0,
    subject VARCHAR(255) NOT NULL DEFAULT '',
    message TEXT NOT NULL,
    messageformat SMALLINT NOT NULL DEFAULT 0,
    messagetrust SMALLINT NOT NULL DEFAULT 0,
    attachment VARCHAR(100) NOT NULL DEFAULT '',
    totalscore SMALLINT NOT NULL DEFAULT 0,
    mailnow BIGINT NOT NULL DEFAULT 0,
    deleted SMALLINT NOT NULL DEFAULT 0,
    privatereplyto BIGINT NOT NULL DEFAULT 0,
    wordcount BIGINT,
    charcount BIGINT,
CONSTRAINT mdl_forupost_id_pk PRIMARY KEY (id)
);
COMMENT ON TABLE mdl_forum_posts IS 'All posts are stored in this table';
CREATE INDEX mdl_forupost_use_ix ON mdl_forum_posts (userid);
CREATE INDEX mdl_forupost_cre_ix ON mdl_forum_posts (created);
CREATE INDEX mdl_forupost_mai_ix ON mdl_forum_posts (mailed);
CREATE INDEX mdl_forupost_dis_ix ON mdl_forum_posts (discussion);
CREATE INDEX mdl_forupost_par_ix ON mdl_forum_posts (parent)";

/// The table as Moodle's installer creates it from install.xml.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL.to_string(),
        Engine::Postgres => POSTGRES.to_string(),
        Engine::Sqlite => unreachable!("Moodle does not run on SQLite"),
    }
}

const COLUMNS: &str = "id discussion parent userid created modified mailed subject message messageformat messagetrust \
    attachment totalscore mailnow deleted privatereplyto wordcount charcount";

const START: i64 = T0;
const DAYS: i64 = 28;
/// Wednesday 28 October, 20:00 UTC.
const NOW: i64 = T0 + 27 * DAY + 20 * HOUR;
/// The Monday of the term's first week (21 September).
const TERM: i64 = T0 - 10 * DAY;
/// The next ids of the two sequences when the window opens.
const POST0: i64 = 1_284_411;
const DISC0: i64 = 96_234;
/// The first reply created after each of these is sent twice.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 9 * HOUR, NOW - 2 * HOUR];
/// The forum cron runs every minute, a few seconds in.
const CRON_AT: i64 = 7 * SECOND;
/// `$CFG->maxeditingtime`.
const MAXEDIT: i64 = 1_800;
/// The student who left (day 19) and whose data was deleted on request (day 23).
const QUIT_AT: i64 = START + 19 * DAY;
const SCRUB_AT: i64 = START + 23 * DAY + 10 * HOUR;

/// Posts per hour of the day (UTC; the university is on CEST/CET).
const STAFF: [i64; 24] = [0, 0, 0, 0, 0, 1, 3, 6, 8, 9, 9, 8, 7, 8, 8, 7, 5, 3, 2, 2, 1, 1, 0, 0];
const STUDENT: [i64; 24] = [2, 1, 1, 0, 0, 0, 1, 2, 4, 6, 7, 7, 7, 7, 7, 7, 8, 9, 10, 11, 11, 9, 6, 4];

const TEACHERS: [i64; 10] = [142, 157, 163, 171, 188, 196, 203, 211, 224, 237];
const TA_CS: i64 = 2_876;
const TA_ECO: i64 = 2_891;

/// A course: code, teacher, teaching assistant (0: none), students, topics, a weekly discussion, groups in its
/// project forum, questions per weekday in its Q&A forum.
struct Spec(&'static str, usize, i64, usize, &'static [&'static str], bool, usize, f64);

#[rustfmt::skip]
const SPECS: [Spec; 14] = [
    Spec("BIO101", 0, 0, 58, &["cell membranes", "osmosis", "mitochondria", "the cell cycle", "protein synthesis",
        "enzyme kinetics", "diffusion", "the cytoskeleton"], true, 0, 0.35),
    Spec("BIO205", 0, 0, 41, &["Mendelian inheritance", "linkage maps", "epistasis", "DNA replication",
        "gene expression", "mutation rates", "Hardy-Weinberg equilibrium", "CRISPR screens"], true, 0, 0.25),
    Spec("BIO310", 0, 0, 30, &["bacterial growth curves", "Gram staining", "antibiotic resistance", "biofilms",
        "quorum sensing", "sterile technique", "viral replication", "the gut microbiome"], false, 5, 0.2),
    Spec("CS110", 1, TA_CS, 64, &["for loops", "recursion", "list comprehensions", "string slicing",
        "default arguments", "dictionaries", "file handling", "exceptions"], false, 0, 0.7),
    Spec("CS220", 1, TA_CS, 45, &["binary search trees", "hash tables", "heaps", "amortised analysis",
        "graph traversal", "Dijkstra's algorithm", "linked lists", "big-O notation"], true, 0, 0.4),
    Spec("HIS120", 2, 0, 52, &["the Congress of Vienna", "the revolutions of 1848", "German unification",
        "the Belle Epoque", "the July Crisis", "nationalism", "industrialisation", "the Treaty of Versailles"],
        true, 0, 0.15),
    Spec("HIS240", 2, 0, 28, &["the Copernican revolution", "Galileo's trial", "the Royal Society",
        "Darwin's reception", "germ theory", "Lavoisier", "scientific instruments", "Newton's Principia"],
        false, 4, 0.12),
    Spec("ECO101", 3, TA_ECO, 70, &["price elasticity", "consumer surplus", "marginal cost", "perfect competition",
        "monopoly pricing", "externalities", "opportunity cost", "indifference curves"], false, 0, 0.6),
    Spec("PSY110", 4, 0, 66, &["classical conditioning", "working memory", "cognitive dissonance",
        "the bystander effect", "confirmation bias", "attachment theory", "sleep and memory",
        "the replication crisis"], true, 0, 0.3),
    Spec("MAT150", 5, 0, 60, &["limits", "the chain rule", "implicit differentiation", "related rates",
        "the mean value theorem", "optimisation problems", "L'Hopital's rule", "continuity"], false, 0, 0.65),
    Spec("ENG201", 6, 0, 34, &["thesis statements", "paraphrasing", "APA referencing", "topic sentences",
        "hedging language", "literature reviews", "academic tone", "peer feedback"], true, 6, 0.15),
    Spec("CHE101", 7, 0, 55, &["stoichiometry", "molar mass", "limiting reagents", "the ideal gas law",
        "electron configuration", "Lewis structures", "titration", "equilibrium constants"], false, 0, 0.4),
    Spec("PHI101", 8, 0, 38, &["utilitarianism", "the categorical imperative", "virtue ethics", "moral luck",
        "the trolley problem", "moral relativism", "consent", "effective altruism"], true, 0, 0.12),
    Spec("ART105", 9, 0, 26, &["colour theory", "the grid", "typography", "visual hierarchy", "negative space",
        "contrast", "sketching", "mood boards"], false, 0, 0.15),
];
const BIO101: usize = 0;
const CS110: usize = 3;

const STATEMENTS: &[&str] = &[
    "I think {a} is closely linked to {b}",
    "The lecture made me rethink what I knew about {a}",
    "What surprised me most was how much {a} depends on {b}",
    "I am not fully convinced that {a} explains {b}",
    "The reading presents {a} as a turning point, but {b} seems just as important",
    "In my own notes I connected {a} with {b}",
    "It took me a while to see why {a} matters for {b}",
    "The example in the slides about {a} finally made {b} click for me",
    "One thing I still find confusing is how {a} relates to {b}",
    "My group argued that {a} is overrated compared to {b}",
    "If we take {a} seriously, {b} looks very different",
    "The textbook treats {a} and {b} separately, which I found odd",
    "Looking back at last week, {a} prepared the ground for {b}",
    "A useful way to think about {a} is through {b}",
    "I would add that {a} only makes sense once you have seen {b}",
    "The seminar discussion on {a} changed my mind about {b}",
];
const TAILS: &[&str] = &[
    ".",
    ".",
    ".",
    " in my opinion.",
    ", at least as I understand it.",
    ", especially in chapter {n}.",
    " - happy to hear other views.",
    ", as the seminar also showed.",
    " (see the second reading).",
    ", which the slides only mention briefly.",
];
const QUESTIONS: &[&str] = &[
    "I don't understand how {a} works in the example from the lecture. Could someone explain?",
    "In the practice questions, question {n} asks about {a}. Is {b} relevant here?",
    "Is {a} going to be on the mid-term, or only {b}?",
    "I get a different answer than the solutions for exercise {n} on {a}. Am I missing something?",
    "Could you recommend some extra reading on {a}?",
    "How does {a} differ from {b}? The slides seem to use them interchangeably.",
    "Do we need to know the derivation for {a}, or just how to apply it?",
];
const QSUBJECTS: &[&str] = &[
    "Question about {a}",
    "Confused about {a}",
    "Exercise {n} on {a}",
    "{A} vs {b}?",
    "Help with {a}",
    "Is {a} on the mid-term?",
    "{A} - week {w}",
];
const ANSWERS: &[&str] = &[
    "Good question. {A} and {b} are related, but not the same thing.",
    "Have a look at slide {m} of this week's lecture, it walks through {a} step by step.",
    "Yes, {a} is examinable. {B} will only appear as a short question.",
    "Your working is correct until the last step; check how you handled {a}.",
    "We will go over {a} again in Thursday's session.",
    "The key point is that {a} only applies when {b} holds.",
];
const PEERS: &[&str] = &[
    "I had the same problem with {a}.",
    "For me it helped to draw {a} as a diagram.",
    "I think the point is that {b} only applies when {a} does.",
    "Check the recording from week {n}, around minute {m}.",
    "Agreed, {a} is the hardest part of this unit.",
    "Interesting point about {a}!",
    "I read it differently: {b} comes first, then {a}.",
];
const THANKS: &[&str] = &[
    "Thanks!",
    "Thank you!",
    "Thanks, that makes sense now.",
    "Got it, thank you.",
    "Thank you, very helpful.",
    "Thanks a lot!",
];
const SORRY: &[&str] = &[
    "Sorry, double post. Please ignore.",
    "Posted twice by mistake, see my other post.",
    "Duplicate - the page froze, sorry!",
    "Sorry, my connection dropped and it posted twice.",
];
const NOTICES: &[&str] = &[
    "This looks like a duplicate of your other post, please continue the discussion there.",
    "Duplicate thread - I have answered in the other one.",
];
#[rustfmt::skip]
const NEWS: &[(&str, &[&str])] = &[
    ("Slides for week {w}", &["The slides for week {w} on {a} are now available in the Week {w} section.",
        "Please have a look at the last part on {b} before the seminar."]),
    ("Reminder: assignment {k} due {day}", &["A reminder that assignment {k} is due on {day} at 23:59.",
        "Submit a single PDF through the assignment link; late submissions lose 5% per day."]),
    ("Room change for {day}'s lecture", &["{day}'s lecture will take place in room {room} instead of the usual \
        lecture hall.", "The recording will be available as usual."]),
    ("Quiz {k} opens tomorrow", &["Quiz {k} on {a} opens tomorrow at 09:00 and closes on {day} at 17:00.",
        "You have one attempt and 30 minutes, so make sure you have revised {b} first."]),
    ("Reading for next week", &["For next week please read the chapter on {a}.",
        "We will discuss {b} in the seminar, so come with questions."]),
    ("Feedback on assignment {k} released", &["Marks and feedback for assignment {k} are now visible in the \
        gradebook.", "If you have questions about your mark, come to my office hours on {day}."]),
];
/// Announcements a teacher sends to every course they teach.
#[rustfmt::skip]
const GENERIC: &[(&str, &[&str])] = &[
    ("Office hours moved this week", &["My office hours this week will be on {day} from 14:00 to 16:00 instead of \
        the usual slot.", "You can also book a short online meeting through the booking link on the course page."]),
    ("No lecture on Friday", &["There will be no lecture this Friday because of the staff development day.",
        "The material will be covered in a short recorded video instead."]),
    ("Mid-term feedback survey", &["Please take five minutes to fill in the anonymous mid-term feedback survey \
        linked in the General section.", "The survey closes on {day}. Thank you!"]),
    ("Library workshop: referencing with Zotero", &["The library runs a one-hour workshop on referencing with \
        Zotero on {day} at 13:00 in the learning centre.", "Places are limited, so register on the library \
        website."]),
    ("Campus Wi-Fi maintenance on Saturday", &["IT services will carry out Wi-Fi maintenance on Saturday between \
        08:00 and 12:00.", "Moodle stays available, but connections on campus may drop."]),
    ("Strike action next week", &["Some teaching may be affected by the strike action announced for next week.",
        "I will confirm by {day} which sessions go ahead; recordings will be posted either way."]),
];
#[rustfmt::skip]
const GROUP_SUBJECTS: &[&str] = &["Meeting time?", "Draft of section {k}", "Who is doing the {a} part?",
    "Shared document link", "Presentation slides", "Notes from today"];
const WEEKDAYS: &[&str] = &["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];
const ROOMS: &[&str] = &["B204", "C1.12", "Lecture Theatre 3", "A0.09", "E2.01"];
const IMAGES: &[(&str, &str)] = &[
    ("timetable.png", "Updated timetable"),
    ("room-map.png", "Map to the new room"),
    ("quiz-instructions.png", "Quiz settings"),
];

/// Where a post was written: the post form with TinyMCE or Atto, the discussion page's in-page reply, the app.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Via {
    #[default]
    Tiny,
    Atto,
    Inpage,
    App,
}

/// A create request as the server got it, and what happened to its row later.
#[derive(Clone, Default)]
struct Post {
    uid: usize,
    at: i64,
    parent: Option<usize>,
    /// The first post of its discussion; None for a first post.
    root: Option<usize>,
    user: i64,
    subject: String,
    message: String,
    via: Via,
    attach: bool,
    mailnow: bool,
    private_to: i64,
    /// A one-word reply people post again on purpose ("Done", "Present").
    token: bool,
    /// The course's teacher (who notes duplicates).
    staff: i64,
    course: usize,
    /// A discussion students write answers in (not news, attendance or a progress check).
    open: bool,
    /// The first attempt's uid.
    group: usize,
    copy: bool,
    hidden: bool,
    edit: Option<(i64, String)>,
    gone: Option<i64>,
}

#[derive(Clone, Copy)]
struct Habit {
    atto: bool,
    app: f64,
    inpage: f64,
}

struct Course {
    code: &'static str,
    teacher: i64,
    staff: Vec<i64>,
    students: Vec<i64>,
    topics: &'static [&'static str],
    weekly: bool,
    groups: Vec<Vec<i64>>,
    qrate: f64,
}

struct World {
    courses: Vec<Course>,
    habits: HashMap<i64, Habit>,
    quitter: i64,
}

impl World {
    fn active(&self, u: i64, t: i64) -> bool {
        u != self.quitter || t < QUIT_AT
    }

    fn habit(&self, u: i64) -> Habit {
        self.habits[&u]
    }
}

/// The values a template's slots take.
struct Slots {
    a: &'static str,
    b: &'static str,
    n: i64,
    k: i64,
    m: i64,
    w: i64,
    day: &'static str,
    room: &'static str,
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

fn slots(r: &mut Rng, topics: &'static [&'static str], t: i64) -> Slots {
    let i = r.below(topics.len() as u64) as usize;
    let j = (i + 1 + r.below(topics.len() as u64 - 1) as usize) % topics.len();
    Slots {
        a: topics[i],
        b: topics[j],
        n: r.range(1, 9),
        k: r.range(1, 4),
        m: r.range(4, 55),
        w: (t - TERM) / (7 * DAY) + 1,
        day: r.one(WEEKDAYS),
        room: r.one(ROOMS),
    }
}

fn fill(s: &Slots, tpl: &str) -> String {
    tpl.replace("{A}", &cap(s.a))
        .replace("{B}", &cap(s.b))
        .replace("{a}", s.a)
        .replace("{b}", s.b)
        .replace("{n}", &s.n.to_string())
        .replace("{k}", &s.k.to_string())
        .replace("{m}", &s.m.to_string())
        .replace("{w}", &s.w.to_string())
        .replace("{day}", s.day)
        .replace("{room}", s.room)
}

fn statement(r: &mut Rng, topics: &'static [&'static str], t: i64) -> String {
    let s = slots(r, topics, t);
    fill(&s, &format!("{}{}", r.pick(STATEMENTS), r.pick(TAILS)))
}

fn paragraph(r: &mut Rng, topics: &'static [&'static str], t: i64, n: usize) -> String {
    (0..n).map(|_| statement(r, topics, t)).collect::<Vec<_>>().join(" ")
}

/// The message as the client's editor sends it (the in-page reply's text as `format_text` turns it into HTML).
fn html(via: Via, paras: &[String]) -> String {
    match via {
        Via::Tiny => paras.iter().map(|p| format!("<p>{p}</p>")).collect::<Vec<_>>().join("\n"),
        Via::Atto => paras.iter().map(|p| format!("<p dir=\"ltr\" style=\"text-align: left;\">{p}</p>")).collect(),
        Via::Inpage => format!("<div class=\"text_to_html\">{}</div>", paras.join("<br />\n<br />\n")),
        Via::App => paras.iter().map(|p| format!("<p>{p}</p>")).collect(),
    }
}

/// A message edited in the post form (the in-page reply's HTML comes back through TinyMCE) or in the app.
fn appended(via: Via, message: &str, extra: &str) -> String {
    match via {
        Via::Atto => format!("{message}<p dir=\"ltr\" style=\"text-align: left;\">{extra}</p>"),
        Via::App => format!("{message}<p>{extra}</p>"),
        Via::Tiny | Via::Inpage => format!("{message}\n<p>{extra}</p>"),
    }
}

fn re(subject: &str) -> String {
    if subject.starts_with("Re: ") { subject.to_string() } else { format!("Re: {subject}") }
}

/// `count_words` and `count_letters` on a message: a space after each closing tag that is not inline and after each
/// `<br>`, the tags stripped, entities decoded; words are the runs between separators, letters the non-space
/// characters.
fn counts(message: &str) -> (i64, i64) {
    const INLINE: [&str; 13] = ["a", "b", "del", "em", "i", "ins", "s", "small", "span", "strong", "sub", "sup", "u"];
    let mut text = String::new();
    let mut rest = message;
    while let Some(i) = rest.find('<') {
        text.push_str(&rest[..i]);
        let Some(j) = rest[i..].find('>') else {
            rest = "";
            break;
        };
        let tag = &rest[i + 1..i + j];
        let name = tag.trim_start_matches('/').split([' ', '/', '\n']).next().unwrap_or("").to_ascii_lowercase();
        if (tag.starts_with('/') && !INLINE.contains(&name.as_str())) || name == "br" {
            text.push(' ');
        }
        rest = &rest[i + j + 1..];
    }
    text.push_str(rest);
    let text = text.replace("&nbsp;", "\u{a0}").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    let words = text.split(|c: char| c.is_whitespace() || c == '—' || c == '–').filter(|w| !w.is_empty()).count();
    let letters = text.chars().filter(|c| !matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')).count();
    (words as i64, letters as i64)
}

fn when(r: &mut Rng, d0: i64, rhythm: &[i64; 24]) -> i64 {
    d0 + r.weighted(rhythm) as i64 * HOUR + r.range(0, 3_599) * SECOND + r.range(0, 999_999)
}

fn micros(r: &mut Rng) -> i64 {
    r.range(0, 999_999)
}

struct Gen {
    r: Rng,
    v: Vec<Post>,
    late: usize,
}

impl Gen {
    fn push(&mut self, mut p: Post) -> usize {
        p.uid = self.v.len();
        if !p.copy {
            p.group = p.uid;
        }
        self.v.push(p);
        self.v.len() - 1
    }

    /// The first post of a discussion.
    fn start(&self, at: i64, user: i64, via: Via, subject: String, paras: &[String], course: usize) -> Post {
        Post {
            at,
            user,
            via,
            subject,
            message: html(via, paras),
            course,
            staff: TEACHERS[SPECS[course].1],
            ..Post::default()
        }
    }

    /// A reply to `parent`, no earlier than a minute after it.
    fn reply(&self, parent: usize, at: i64, user: i64, via: Via, paras: &[String]) -> Post {
        let p = &self.v[parent];
        Post {
            at: at.max(p.at + MINUTE),
            parent: Some(parent),
            root: Some(p.root.unwrap_or(parent)),
            user,
            via,
            subject: re(&p.subject),
            message: html(via, paras),
            staff: p.staff,
            course: p.course,
            ..Post::default()
        }
    }

    /// The request, and the extra attempts a lost response made. Returns the uid replies go to: the first
    /// attempt's, or the copy's when its author deleted the first one.
    fn send(&mut self, p: Post, force: bool) -> usize {
        let late = self.late < LATE.len()
            && p.at > LATE[self.late]
            && p.at < NOW - 15 * MINUTE
            && p.parent.is_some()
            && !p.token;
        self.late += usize::from(late);
        let forced = force || late;
        let rate = match p.via {
            Via::Tiny | Via::Atto => 16,
            Via::Inpage => 12,
            Via::App => 32,
        };
        let orig = self.push(p.clone());
        if !forced && self.r.below(1_000) >= rate {
            return orig;
        }
        let mut at = p.at;
        let mut copies = Vec::new();
        let tries = if self.r.chance(0.15) { 2 } else { 1 };
        for k in 0..tries {
            at += match (p.via, k) {
                (Via::Tiny | Via::Atto, 0) => client_retry_delay(&mut self.r),
                (Via::Tiny | Via::Atto, _) => self.r.range(20, 120) * SECOND + micros(&mut self.r),
                (Via::Inpage, _) => self.r.range(10, 60) * SECOND + micros(&mut self.r),
                (Via::App, _) if self.r.chance(0.4) => self.r.range(15, 90) * SECOND + micros(&mut self.r),
                (Via::App, _) => self.r.range(120, 660) * SECOND + micros(&mut self.r),
            };
            if at >= NOW - SECOND {
                break;
            }
            let mut c = Post {
                at,
                copy: true,
                group: orig,
                hidden: p.root.is_none() || p.token,
                edit: None,
                gone: None,
                ..p.clone()
            };
            if !forced {
                self.fate(&mut c);
            }
            copies.push(self.push(c));
        }
        // The author deleted the first attempt and kept the copy.
        if let Some(&c) = copies.first()
            && !forced
            && self.v[c].gone.is_none()
            && self.v[c].edit.is_none()
            && self.v[c].at - p.at < 2 * MINUTE
            && self.r.chance(0.1)
        {
            let t = self.v[c].at + self.r.range(60, 900) * SECOND;
            (self.v[orig].gone, self.v[orig].edit) = (Some(t), None);
            return c;
        }
        // A duplicated discussion left standing: the teacher points to the other one.
        for &c in &copies {
            let x = &self.v[c];
            if x.root.is_none() && x.gone.is_none() && self.r.chance(0.3) {
                let t = x.at + self.r.range(3_600, 20 * 3_600) * SECOND + micros(&mut self.r);
                let text = self.r.one(NOTICES).to_string();
                let staff = x.staff;
                if t < NOW - SECOND {
                    let n = self.reply(c, t, staff, Via::Tiny, &[text]);
                    self.push(n);
                }
            }
        }
        orig
    }

    /// What became of a retry's copy.
    fn fate(&mut self, c: &mut Post) {
        let x = self.r.below(100);
        if x < 25 {
            c.gone = Some(c.at + self.r.range(60, MAXEDIT - 60) * SECOND);
        } else if x < 35 {
            c.gone = Some(c.at + self.r.range(2 * 3_600, 3 * 86_400) * SECOND);
        } else if x < 40 {
            let via = match c.via {
                Via::Inpage => Via::Tiny,
                v => v,
            };
            let text = self.r.one(SORRY).to_string();
            c.edit = Some((c.at + self.r.range(60, MAXEDIT - 60) * SECOND, html(via, &[text])));
        }
    }

    /// An author's fix within the editing time; teachers' updates to announcements any time.
    fn touch(&mut self, p: &mut Post, topics: &'static [&'static str], teacher: bool) {
        let r = &mut self.r;
        let (chance, lo, hi) = match (teacher, p.via) {
            (true, _) => (0.12, 600, 30 * 3_600),
            (false, Via::Tiny | Via::Atto) => (0.06, 120, MAXEDIT - 120),
            (false, _) => (0.02, 120, MAXEDIT - 120),
        };
        if !r.chance(chance) {
            return;
        }
        let t = p.at + r.range(lo, hi) * SECOND + micros(r);
        let extra = if teacher {
            format!("Update: {}", statement(r, topics, t))
        } else {
            format!("Edit: {}", statement(r, topics, t))
        };
        p.edit = Some((t, appended(p.via, &p.message, &extra)));
    }
}

fn reply_via(r: &mut Rng, h: Habit) -> Via {
    if r.chance(h.app) {
        Via::App
    } else if r.chance(h.inpage) {
        Via::Inpage
    } else if h.atto {
        Via::Atto
    } else {
        Via::Tiny
    }
}

fn start_via(r: &mut Rng, h: Habit) -> Via {
    if r.chance(h.app * 0.5) {
        Via::App
    } else if h.atto {
        Via::Atto
    } else {
        Via::Tiny
    }
}

fn editor(h: Habit) -> Via {
    if h.atto { Via::Atto } else { Via::Tiny }
}

fn world(r: &mut Rng) -> World {
    let students: Vec<i64> = (0..420).map(|i| 4_101 + i + i / 37 * 3).collect();
    let mut habits = HashMap::new();
    for &u in &students {
        let app = if r.chance(0.45) { r.range(25, 85) as f64 / 100.0 } else { 0.0 };
        habits.insert(u, Habit { atto: r.chance(0.1), app, inpage: r.range(40, 85) as f64 / 100.0 });
    }
    for &u in TEACHERS.iter().chain(&[TA_CS, TA_ECO]) {
        habits.insert(u, Habit { atto: r.chance(0.25), app: 0.03, inpage: 0.35 });
    }
    let mut courses = Vec::new();
    for s in &SPECS {
        let mut pool = students.clone();
        for i in (1..pool.len()).rev() {
            pool.swap(i, r.below(i as u64 + 1) as usize);
        }
        pool.truncate(s.3);
        let groups: Vec<Vec<i64>> = (0..s.6)
            .map(|g| pool.iter().enumerate().filter(|(i, _)| i % s.6 == g).map(|(_, &u)| u).collect())
            .collect();
        let teacher = TEACHERS[s.1];
        let staff = if s.2 != 0 { vec![teacher, s.2] } else { vec![teacher] };
        courses.push(Course {
            code: s.0,
            teacher,
            staff,
            students: pool,
            topics: s.4,
            weekly: s.5,
            groups,
            qrate: s.7,
        });
    }
    // The BIO205 student enrolled in most courses.
    let load = |u: i64| courses.iter().filter(|c| c.students.contains(&u)).count();
    let quitter = *courses[1].students.iter().max_by_key(|&&u| (load(u), u)).unwrap_or(&students[0]);
    World { courses, habits, quitter }
}

fn student(r: &mut Rng, w: &World, ci: usize, t: i64) -> Option<i64> {
    let u = *r.pick(&w.courses[ci].students);
    w.active(u, t).then_some(u)
}

/// A teacher's announcement in a course's news forum (nobody replies there).
fn announce(g: &mut Gen, w: &World, ci: usize, t: i64) {
    let c = &w.courses[ci];
    let s = slots(&mut g.r, c.topics, t);
    let (subject, body) = *g.r.pick(NEWS);
    let via = editor(w.habit(c.teacher));
    let mut message = html(via, &body.iter().map(|b| fill(&s, b)).collect::<Vec<_>>());
    if g.r.chance(0.1) {
        let (file, alt) = *g.r.pick(IMAGES);
        message = appended(
            via,
            &message,
            &format!("<img src=\"@@PLUGINFILE@@/{file}\" alt=\"{alt}\" width=\"800\" height=\"450\">"),
        );
    }
    let mut p = Post {
        at: t,
        user: c.teacher,
        via,
        subject: fill(&s, subject),
        message,
        attach: g.r.chance(0.25),
        mailnow: g.r.chance(0.45),
        staff: c.teacher,
        course: ci,
        ..Post::default()
    };
    g.touch(&mut p, c.topics, true);
    g.send(p, false);
}

/// The same announcement pasted into the news forum of each of a teacher's courses, one after the other.
fn crosspost(g: &mut Gen, w: &World, mut courses: Vec<usize>, t: i64) {
    let teacher = w.courses[courses[0]].teacher;
    let s = slots(&mut g.r, w.courses[courses[0]].topics, t);
    let (subject, body) = *g.r.pick(GENERIC);
    let via = editor(w.habit(teacher));
    let paras: Vec<String> = body.iter().map(|b| fill(&s, b)).collect();
    let (mailnow, attach) = (g.r.chance(0.5), g.r.chance(0.1));
    for i in (1..courses.len()).rev() {
        courses.swap(i, g.r.below(i as u64 + 1) as usize);
    }
    if courses.len() > 2 && g.r.chance(0.3) {
        courses.pop();
    }
    let mut at = t;
    for (i, &ci) in courses.iter().enumerate() {
        if i > 0 {
            at += g.r.range(25, 300) * SECOND + micros(&mut g.r);
        }
        let mut ps = paras.clone();
        if i > 0 && g.r.chance(0.2) {
            ps.push(format!(
                "{} students: this applies to the {} seminar groups as well.",
                w.courses[ci].code, w.courses[ci].code
            ));
        }
        if at >= NOW - SECOND {
            break;
        }
        let p = Post {
            at,
            user: teacher,
            via,
            subject: fill(&s, subject),
            message: html(via, &ps),
            attach,
            mailnow,
            staff: teacher,
            course: ci,
            ..Post::default()
        };
        g.send(p, false);
    }
}

/// A student's question in the Q&A forum, the staff's answer, classmates' replies and the asker's thanks.
fn question(g: &mut Gen, w: &World, ci: usize, t: i64) {
    let c = &w.courses[ci];
    let Some(u) = student(&mut g.r, w, ci, t) else { return };
    let h = w.habit(u);
    let via = start_via(&mut g.r, h);
    let s = slots(&mut g.r, c.topics, t);
    let mut paras = vec![fill(&s, g.r.one(QUESTIONS))];
    if g.r.chance(0.4) {
        paras.push(statement(&mut g.r, c.topics, t));
    }
    let subject = fill(&s, g.r.one(QSUBJECTS));
    let mut p = g.start(t, u, via, subject, &paras, ci);
    p.open = true;
    p.attach = via != Via::App && g.r.chance(0.05);
    g.touch(&mut p, c.topics, false);
    let q = g.send(p, false);
    if g.r.chance(0.85) {
        let who = *g.r.pick(&c.staff);
        // In the staff's working hours, that day or the next, at least a while after the question.
        let d = t - t.rem_euclid(DAY) + g.r.range(0, 1) * DAY;
        let soonest = t + g.r.range(20, 180) * MINUTE + micros(&mut g.r);
        let at = when(&mut g.r, d, &STAFF).max(soonest);
        if at < NOW - SECOND {
            let vh = w.habit(who);
            let via = if g.r.chance(vh.inpage) { Via::Inpage } else { editor(vh) };
            let s = slots(&mut g.r, c.topics, at);
            let mut paras = vec![fill(&s, g.r.one(ANSWERS))];
            if g.r.chance(0.5) {
                paras.push(statement(&mut g.r, c.topics, at));
            }
            let mut a = g.reply(q, at, who, via, &paras);
            if g.r.chance(0.06) {
                a.private_to = u;
            }
            if via != Via::Inpage && g.r.chance(0.05) {
                a.mailnow = true;
            }
            let a = g.send(a, false);
            if g.r.chance(0.35) {
                let at = g.v[a].at + g.r.range(5, 600) * MINUTE + micros(&mut g.r);
                if at < NOW - SECOND && w.active(u, at) {
                    let via = reply_via(&mut g.r, h);
                    let text = g.r.one(THANKS).to_string();
                    let p = g.reply(a, at, u, via, &[text]);
                    g.send(p, false);
                }
            }
        }
    }
    for _ in 0..g.r.poisson(0.6) {
        let at = t + g.r.range(10, 2 * 24 * 60) * MINUTE + micros(&mut g.r);
        let Some(v) = student(&mut g.r, w, ci, at) else { continue };
        if v == u || at >= NOW - SECOND {
            continue;
        }
        let s = slots(&mut g.r, c.topics, at);
        let paras = vec![fill(&s, g.r.one(PEERS))];
        let via = reply_via(&mut g.r, w.habit(v));
        let mut p = g.reply(q, at, v, via, &paras);
        g.touch(&mut p, c.topics, false);
        if g.r.chance(0.004) {
            p.gone = Some(p.at + g.r.range(3_600, 2 * 86_400) * SECOND);
        }
        g.send(p, false);
    }
}

/// Monday's prompt in a weekly discussion forum, the students' answers during the week (most on Sunday evening),
/// classmates' replies, the authors' answers to those, the teacher's comments.
fn weekly(g: &mut Gen, w: &World, ci: usize, monday: i64) {
    let c = &w.courses[ci];
    let t = monday + g.r.range(6 * 3_600, 9 * 3_600) * SECOND + micros(&mut g.r);
    let s = slots(&mut g.r, c.topics, t);
    let paras = vec![
        fill(
            &s,
            "This week's question: how does {a} relate to {b}? Post your answer (150-300 words) by Sunday 23:59 \
            and reply to at least one classmate.",
        ),
        "Remember to refer to at least one of the readings.".to_string(),
    ];
    let via = editor(w.habit(c.teacher));
    let mut root = g.start(t, c.teacher, via, fill(&s, "Week {w} discussion: {A}"), &paras, ci);
    root.open = true;
    let root = g.send(root, false);
    let mut mains: Vec<(i64, i64)> = Vec::new();
    for &u in &c.students {
        if !g.r.chance(0.6) {
            continue;
        }
        let k = g.r.weighted(&[3, 2, 2, 2, 2, 3, 7]) as i64;
        let at = when(&mut g.r, monday + k * DAY, &STUDENT).max(t + 20 * MINUTE + micros(&mut g.r));
        if at < NOW - SECOND && w.active(u, at) {
            mains.push((at, u));
        }
    }
    mains.sort();
    for (at, u) in mains {
        let h = w.habit(u);
        let via = reply_via(&mut g.r, h);
        let n = g.r.range(1, 3) as usize;
        let paras: Vec<String> = (0..n)
            .map(|_| {
                let k = g.r.range(2, 4) as usize;
                paragraph(&mut g.r, c.topics, at, k)
            })
            .collect();
        let mut p = g.reply(root, at, u, via, &paras);
        g.touch(&mut p, c.topics, false);
        let main = g.send(p, false);
        for _ in 0..g.r.poisson(0.55) {
            let at2 = at + g.r.range(10, 3 * 24 * 60) * MINUTE + micros(&mut g.r);
            let Some(v) = student(&mut g.r, w, ci, at2) else { continue };
            if v == u || at2 >= NOW - SECOND {
                continue;
            }
            let s = slots(&mut g.r, c.topics, at2);
            let mut paras = vec![fill(&s, g.r.one(PEERS))];
            if g.r.chance(0.6) {
                let k = g.r.range(1, 3) as usize;
                paras[0] = format!("{} {}", paras[0], paragraph(&mut g.r, c.topics, at2, k));
            }
            let via = reply_via(&mut g.r, w.habit(v));
            let mut p = g.reply(main, at2, v, via, &paras);
            g.touch(&mut p, c.topics, false);
            let leaf = g.r.chance(0.75);
            if leaf && g.r.chance(0.004) {
                p.gone = Some(p.at + g.r.range(3_600, 2 * 86_400) * SECOND);
            }
            let peer = g.send(p, false);
            if !leaf {
                let at3 = g.v[peer].at + g.r.range(30, 36 * 60) * MINUTE + micros(&mut g.r);
                if at3 < NOW - SECOND && w.active(u, at3) {
                    let paras = vec![paragraph(&mut g.r, c.topics, at3, 1)];
                    let via = reply_via(&mut g.r, h);
                    let p = g.reply(peer, at3, u, via, &paras);
                    g.send(p, false);
                }
            }
        }
        if g.r.chance(0.08) {
            let at2 = at + g.r.range(60, 48 * 60) * MINUTE + micros(&mut g.r);
            if at2 < NOW - SECOND {
                let vh = w.habit(c.teacher);
                let via = if g.r.chance(vh.inpage) { Via::Inpage } else { editor(vh) };
                let s = slots(&mut g.r, c.topics, at2);
                let paras = vec![fill(&s, "Nice work. You could say more about how {a} connects to {b}.")];
                let mut p = g.reply(main, at2, c.teacher, via, &paras);
                if g.r.chance(0.1) {
                    p.private_to = u;
                }
                g.send(p, false);
            }
        }
    }
}

/// "Post a copy to all groups" in a course's project forum: one discussion per group, milliseconds apart in one
/// request; then the members' replies.
fn kickoff(g: &mut Gen, w: &World, ci: usize, t: i64, title: &str) {
    let c = &w.courses[ci];
    let s = slots(&mut g.r, c.topics, t);
    let via = editor(w.habit(c.teacher));
    let paras = vec![
        fill(&s, "Use this discussion to organise your group's work on {a}."),
        fill(&s, "Agree on who covers {b} by {day}, and post your plan here so I can follow your progress."),
    ];
    let mailnow = g.r.chance(0.3);
    let mut at = t;
    let mut roots = Vec::new();
    for _ in &c.groups {
        let mut p = g.start(at, c.teacher, via, title.to_string(), &paras, ci);
        (p.mailnow, p.open) = (mailnow, true);
        roots.push(g.push(p));
        at += g.r.range(25_000, 90_000);
    }
    for (gi, members) in c.groups.iter().enumerate() {
        for &u in members {
            let at = t + g.r.range(20, 5 * 24 * 60) * MINUTE + micros(&mut g.r);
            if !g.r.chance(0.55) || at >= NOW - SECOND || !w.active(u, at) {
                continue;
            }
            let n = g.r.range(1, 3) as usize;
            let paras = vec![paragraph(&mut g.r, c.topics, at, n)];
            let via = reply_via(&mut g.r, w.habit(u));
            let mut p = g.reply(roots[gi], at, u, via, &paras);
            g.touch(&mut p, c.topics, false);
            g.send(p, false);
        }
    }
}

/// Discussions students start in their group's part of the project forum.
fn group_threads(g: &mut Gen, w: &World, ci: usize) {
    let c = &w.courses[ci];
    for members in &c.groups {
        for _ in 0..g.r.poisson(1.8) {
            let d0 = START + g.r.range(2, DAYS - 1) * DAY;
            let t = when(&mut g.r, d0, &STUDENT);
            let u = *g.r.pick(members);
            if t >= NOW - SECOND || !w.active(u, t) {
                continue;
            }
            let s = slots(&mut g.r, c.topics, t);
            let via = start_via(&mut g.r, w.habit(u));
            let paras = vec![paragraph(&mut g.r, c.topics, t, 2)];
            let subject = fill(&s, g.r.one(GROUP_SUBJECTS));
            let mut p = g.start(t, u, via, subject, &paras, ci);
            p.open = true;
            g.touch(&mut p, c.topics, false);
            let root = g.send(p, false);
            for _ in 0..g.r.range(1, 4) {
                let at = t + g.r.range(10, 24 * 60) * MINUTE + micros(&mut g.r);
                let v = *g.r.pick(members);
                if v == u || at >= NOW - SECOND || !w.active(v, at) {
                    continue;
                }
                let paras = vec![paragraph(&mut g.r, c.topics, at, 1)];
                let via = reply_via(&mut g.r, w.habit(v));
                let p = g.reply(root, at, v, via, &paras);
                g.send(p, false);
            }
        }
    }
}

/// BIO101's lab attendance thread: every Tuesday and Thursday lab, the lab group answers "Present" to its first
/// post, each from the lab's PCs (in-page reply) or the app, mostly the same way each time.
fn attendance(g: &mut Gen, w: &World) {
    let c = &w.courses[BIO101];
    let t = START + 9 * HOUR + g.r.range(0, 1_800) * SECOND + micros(&mut g.r);
    let paras = vec![
        "Please reply <strong>Present</strong> to this post at the start of every lab session (Tuesdays and \
            Thursdays, 13:00)."
            .to_string(),
        "Replies after 13:15 count as late.".to_string(),
    ];
    let root = g.start(t, c.teacher, editor(w.habit(c.teacher)), "Lab attendance".to_string(), &paras, BIO101);
    let root = g.send(root, false);
    let lab: Vec<(i64, &str, u64)> = c.students[..26]
        .iter()
        .map(|&u| {
            let word =
                ["Present", "Present", "Present", "Present", "Present", "present", "present", "Present!", "Here"]
                    [g.r.below(9) as usize];
            (u, word, g.r.weighted(&[55, 35, 10]) as u64)
        })
        .collect();
    for d in 5..DAYS {
        let d0 = START + d * DAY;
        if weekday(d0) != 1 && weekday(d0) != 3 {
            continue;
        }
        let mut session: Vec<(i64, i64, &str, Via)> = Vec::new();
        for &(u, word, pref) in &lab {
            if !g.r.chance(0.88) {
                continue;
            }
            let late = if g.r.chance(0.05) { g.r.range(15, 40) * MINUTE } else { 0 };
            let at = d0 + 11 * HOUR + g.r.skewed(900) as i64 * SECOND + late + micros(&mut g.r);
            let via = match pref {
                0 => Via::Inpage,
                1 => Via::App,
                _ => *g.r.pick(&[Via::Inpage, Via::App]),
            };
            if w.active(u, at) && at < NOW - SECOND {
                session.push((at, u, word, via));
            }
        }
        session.sort_by_key(|s| s.0);
        for (at, u, word, via) in session {
            let mut p = g.reply(root, at, u, via, &[word.to_string()]);
            p.token = true;
            g.send(p, false);
        }
    }
}

/// CS110's Wednesday labs: the assistant opens a progress check, students answer "Done" after each exercise.
fn labs(g: &mut Gen, w: &World) {
    let c = &w.courses[CS110];
    let group: Vec<(i64, &str, f64)> = c.students[..28]
        .iter()
        .map(|&u| {
            let word = ["Done", "Done", "Done", "Done", "Done", "Done", "done", "done", "Done!", "Done ✅"]
                [g.r.below(10) as usize];
            (u, word, g.r.range(60, 150) as f64 / 100.0)
        })
        .collect();
    let mut forced = false;
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        if weekday(d0) != 2 {
            continue;
        }
        let t0 = d0 + 12 * HOUR;
        let n = (d0 - TERM) / (7 * DAY) + 1;
        let at = t0 - g.r.range(2, 10) * MINUTE + micros(&mut g.r);
        let paras = vec![
            "Reply <strong>Done</strong> to this post each time you finish an exercise, so we can see where \
                everyone is."
                .to_string(),
            format!("Today: exercises {n}.1 to {n}.4. Ask for help if you are stuck for more than ten minutes."),
        ];
        let mut root = g.start(at, TA_CS, editor(w.habit(TA_CS)), format!("Lab {n}: progress check"), &paras, CS110);
        root.staff = TA_CS;
        let root = g.send(root, false);
        let mut posts: Vec<(i64, i64, &str, Via)> = Vec::new();
        for &(u, word, speed) in &group {
            if !g.r.chance(0.75) {
                continue;
            }
            let mut t = t0 + g.r.range(3, 10) * MINUTE;
            for ex in 0..4 {
                let secs = match ex {
                    0 => g.r.range(240, 720),
                    1 => g.r.range(45, 180),
                    2 => g.r.range(480, 1_200),
                    _ => g.r.range(600, 1_800),
                };
                t += (secs as f64 * speed) as i64 * SECOND + micros(&mut g.r);
                if t > t0 + 2 * HOUR || t >= NOW - SECOND {
                    break;
                }
                if g.r.chance(0.82) && w.active(u, t) {
                    let via = if g.r.chance(0.1) { Via::App } else { Via::Inpage };
                    posts.push((t, u, word, via));
                }
            }
        }
        posts.sort_by_key(|p| p.0);
        let mut seen: HashSet<i64> = HashSet::new();
        for (at, u, word, via) in posts {
            let mut p = g.reply(root, at, u, via, &[word.to_string()]);
            p.token = true;
            // The lab's Wi-Fi hung one in-page reply in the third lab; the student clicked Post again.
            let again = !forced && d >= 20 && via == Via::Inpage && !seen.insert(u);
            forced |= again;
            g.send(p, again);
        }
    }
}

/// Replies written in the app without a connection, sent by its sync when the phone is back online: a second or two
/// apart, to different discussions.
fn offline(g: &mut Gen, w: &World) {
    let mut users: Vec<i64> = w.habits.iter().filter(|(u, h)| **u > 4_000 && h.app > 0.3).map(|(u, _)| *u).collect();
    users.sort();
    for _ in 0..8 {
        let u = *g.r.pick(&users);
        let d0 = START + g.r.range(3, DAYS - 1) * DAY;
        let t = when(&mut g.r, d0, &STUDENT);
        if t >= NOW - MINUTE || !w.active(u, t) {
            continue;
        }
        let mine: Vec<usize> = (0..w.courses.len()).filter(|&ci| w.courses[ci].students.contains(&u)).collect();
        let open: Vec<usize> =
            g.v.iter()
                .filter(|p| {
                    p.root.is_none()
                        && p.open
                        && p.gone.is_none()
                        && p.at < t - HOUR
                        && p.at > t - 10 * DAY
                        && mine.contains(&p.course)
                })
                .map(|p| p.uid)
                .collect();
        if open.is_empty() {
            continue;
        }
        let mut at = t;
        let mut used: HashSet<usize> = HashSet::new();
        for _ in 0..g.r.range(2, 4) {
            let root = *g.r.pick(&open);
            if !used.insert(root) {
                continue;
            }
            let topics = w.courses[g.v[root].course].topics;
            let n = g.r.range(1, 3) as usize;
            let paras = vec![paragraph(&mut g.r, topics, at, n)];
            let p = g.reply(root, at, u, Via::App, &paras);
            g.send(p, false);
            at += g.r.range(300_000, 1_800_000);
        }
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x4D00_D1E5);
    let w = world(&mut r);
    let mut g = Gen { r, v: Vec::new(), late: 0 };
    attendance(&mut g, &w);
    labs(&mut g, &w);
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let weekend = weekday(d0) >= 5;
        for ci in 0..w.courses.len() {
            if !weekend {
                for _ in 0..g.r.poisson(0.22) {
                    let t = when(&mut g.r, d0, &STAFF);
                    if t < NOW - SECOND {
                        announce(&mut g, &w, ci, t);
                    }
                }
            }
            let rate = w.courses[ci].qrate * if weekend { 0.6 } else { 1.2 };
            for _ in 0..g.r.poisson(rate) {
                let t = when(&mut g.r, d0, &STUDENT);
                if t < NOW - SECOND {
                    question(&mut g, &w, ci, t);
                }
            }
            if weekday(d0) == 0 && w.courses[ci].weekly {
                weekly(&mut g, &w, ci, d0);
            }
        }
        if !weekend {
            for ti in [0, 1, 2] {
                let mine: Vec<usize> =
                    (0..w.courses.len()).filter(|&ci| w.courses[ci].teacher == TEACHERS[ti]).collect();
                for _ in 0..g.r.poisson(0.09) {
                    let t = when(&mut g.r, d0, &STAFF);
                    if t < NOW - HOUR {
                        crosspost(&mut g, &w, mine.clone(), t);
                    }
                }
            }
        }
    }
    for ci in 0..w.courses.len() {
        if w.courses[ci].groups.is_empty() {
            continue;
        }
        let t = START + (1 + ci as i64 % 3) * DAY + 8 * HOUR + g.r.range(0, 7_200) * SECOND + micros(&mut g.r);
        kickoff(&mut g, &w, ci, t, "Group project: getting started");
        let t = t + 14 * DAY + g.r.range(0, 7_200) * SECOND;
        kickoff(&mut g, &w, ci, t, "Milestone 1: plan and roles");
        group_threads(&mut g, &w, ci);
    }
    offline(&mut g, &w);
    finish(g, &w)
}

/// The rows as they stand at NOW, in insert order, ids and discussions from the sequences.
fn finish(g: Gen, w: &World) -> Fixture {
    let v = g.v;
    let mut order: Vec<usize> = (0..v.len()).filter(|&k| v[k].at < NOW - SECOND).collect();
    order.sort_by_key(|&k| (v[k].at, k));
    let (mut id, mut disc) = (vec![0_i64; v.len()], vec![0_i64; v.len()]);
    let (mut next, mut nd) = (POST0, DISC0);
    for &k in &order {
        id[k] = next;
        next += 1;
        if v[k].root.is_none() {
            disc[k] = nd;
            nd += 1;
        }
    }
    for &k in &order {
        if let Some(root) = v[k].root {
            disc[k] = disc[root];
        }
    }
    // The last cron run: posts older than `maxeditingtime` then (any age with `mailnow`) are mailed.
    let run = (NOW - MINUTE + CRON_AT) / SECOND;
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("mdl_forum_posts", &columns);
    // The first surviving row of each retry group, as it reads now.
    let mut groups: HashMap<usize, (String, String)> = HashMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    for &k in &order {
        let p = &v[k];
        if p.gone.is_some_and(|t| t < NOW) {
            continue;
        }
        let created = p.at / SECOND;
        let (mut message, mut modified) = (p.message.clone(), created);
        if let Some((t, m)) = &p.edit
            && *t < NOW
        {
            (message, modified) = (m.clone(), t / SECOND);
        }
        let (words, letters) = counts(&message);
        let parent = p.parent.map_or(0, |u| id[u]);
        let key = format!(
            "{parent}|{}|{}|{}|{}|{}|{}|{}",
            if p.root.is_some() { disc[k] } else { 0 },
            p.user,
            p.subject,
            p.message,
            p.attach,
            p.mailnow,
            p.private_to
        );
        let fresh = seen.insert(key);
        let mailed = if p.mailnow { created <= run } else { created < run - MAXEDIT };
        let scrubbed = p.user == w.quitter && p.at < SCRUB_AT;
        let (subject, message, format) =
            if scrubbed { (String::new(), String::new(), 2) } else { (p.subject.clone(), message, 1) };
        let now = (subject.clone(), message.clone());
        let (mark, apart) = match groups.get(&p.group) {
            Some(first) => (Mark::Retry, *first != now),
            None => {
                groups.insert(p.group, now);
                (if fresh { Mark::Plain } else { Mark::Legit }, false)
            }
        };
        f.push(&[
            ("id", V::I(id[k])),
            ("discussion", V::I(disc[k])),
            ("parent", V::I(parent)),
            ("userid", V::I(p.user)),
            ("created", V::I(created)),
            ("modified", V::I(modified)),
            ("mailed", V::I(i64::from(mailed))),
            ("subject", V::T(subject)),
            ("message", V::T(message)),
            ("messageformat", V::I(format)),
            ("messagetrust", V::I(0)),
            ("attachment", V::t(if p.attach { "1" } else { "" })),
            ("totalscore", V::I(0)),
            ("mailnow", V::I(i64::from(p.mailnow))),
            ("deleted", V::I(i64::from(scrubbed))),
            ("privatereplyto", V::I(p.private_to)),
            ("wordcount", V::I(words)),
            ("charcount", V::I(letters)),
        ]);
        f.mark(id[k], mark);
        // A copy edited into an apology, or whose first attempt was edited since, no longer matches it.
        if mark == Mark::Retry && (p.hidden || apart) {
            f.hidden.insert(id[k].to_string());
        }
    }
    f
}
