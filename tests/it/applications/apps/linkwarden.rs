//! Linkwarden 2.16 (TypeScript, Next.js API routes, Prisma; PostgreSQL only): `Link`, as `POST /api/v1/links`
//! (`postLink`: the web app's "New Link", the browser extension, the mobile apps) and the bookmarks import write it,
//! and as the background worker's `archiveHandler` fills it in afterwards, one row at a time.
//! Read: linkwarden/linkwarden packages/prisma/schema.prisma (`model Link`, `User.preventDuplicateLinks`);
//! packages/prisma/migrations/ 20230719181459_init, 20231025123038, 20231027194841, 20231029183108, 20231031100017,
//! 20231101085207, 20231125043215, 20231221174844, 20240305045701, 20240309180643, 20240327070238, 20240525002215,
//! 20240628014129, 20240819003838, 20241021175802, 20241026161909, 20241030200844, 20241209173822, 20241209210046,
//! 20250116100419, 20250211134725, 20250215181757, 20250215182023, 20250303224623, 20250318123928, 20250318131228,
//! 20250627164227, 20250811155703, 20260207203957; apps/web/pages/api/v1/links/index.ts;
//! apps/web/lib/api/controllers/links/postLink.ts, apps/web/lib/api/setCollection.ts,
//! apps/web/lib/shared/fetchTitleAndHeaders.ts, packages/lib/schemaValidation.ts (`PostLinkSchema`);
//! apps/web/lib/api/controllers/migration/importFromHTMLFile.ts; apps/worker/worker.ts,
//! apps/worker/workers/linkProcessing.ts, apps/worker/lib/getLinkBatchFairly.ts, apps/worker/lib/archiveHandler.ts,
//! apps/worker/lib/preservationScheme/ handleArchivePreview, handleReadability, handleScreenshotAndPdf,
//! handleMonolith, imageHandler, pdfHandler; packages/lib/generatePreview.ts; apps/worker/workers/linkIndexing.ts.
//! On a create: `id` from "Link_id_seq"; `collectionId` the one picked (else the user's "Unorganized"),
//! `createdById` the user; `description` what the user typed ("" mostly: the page's meta description goes to
//! `metaDescription`, later); `name` the user's, else the page's raw `<title>` (`&amp;` left as is) from a fetch made
//! during the request (10 s timeout), else the URL (PDFs and images have no `<title>`); `type` "pdf"/"image"/"url"
//! from that fetch's content-type; `createdAt`, `updatedAt` ms later (postLink updates the row once more). A duplicate
//! URL is refused only for users who turned `preventDuplicateLinks` on (off by default; nobody here). An import
//! writes `name` (the bookmark's title), `description` (its DD or ""), `importDate` (its ADD_DATE, whole seconds),
//! `type` left 'url', one `prisma.link.create` after another, milliseconds apart.
//! Later: the worker (every 10 s, five links a batch, newest first, fairly across users) opens each row's URL in
//! Chromium by itself: `type` again from the headers, `metaDescription` from the page's meta, then `preview`
//! (archives/preview/{collectionId}/{id}.jpeg), `readable` ({id}_readability.json) with `textContent` (Readability's
//! text, line breaks turned to spaces), `image` ({id}.jpeg), `pdf` ({id}.pdf), `monolith` ({id}.html), each under
//! archives/{collectionId}/ and "unavailable" when off in the user's settings or failed, then `lastPreserved`;
//! Meilisearch indexing sets `indexVersion` 1, AI tagging (a few users) `aiTagged`. Each load of a page differs a
//! little from the last: a relative age, a view, star or vote counter, a rotating "most read"/"up next"/sponsored
//! line. Some users later pick an icon and color. The worker went down 90 minutes before the snapshot: the rows since
//! are neither preserved nor indexed.
//! Retries (about 2% of creates): the extension or a mobile app re-sending the POST after its timeout (the request
//! waits on the title fetch) 10-60 s later, some once more 20-120 s after; double clicks 50-400 ms apart; two late
//! in the table. Each made its own row, fetched and preserved by itself. Legitimate repeats: bookmark files holding
//! the same URL twice in one folder (one collection), imported ms apart; the extension's "save all tabs" with the
//! same page open in two tabs. Plain, not repeats: the same URL in another collection (an import's other folder, or
//! saved again), saved again into the same collection hours or days later, pasted again 3-25 minutes later.
//! Guessed (not in this repository): the clients' timeouts and re-sends, "save all tabs" posting tab after tab, the
//! users' settings, Meilisearch being configured.
use std::collections::HashMap;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

/// The table as the migrations leave it, without its foreign keys ("Link_collectionId_fkey" to "Collection",
/// "Link_createdById_fkey" to "User": those tables are not here).
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => r#"CREATE TABLE "Link" (
    "id" SERIAL NOT NULL, "name" TEXT NOT NULL DEFAULT '', "url" TEXT, "description" TEXT NOT NULL DEFAULT '',
    "collectionId" INTEGER NOT NULL, "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "pdf" TEXT,
    "image" TEXT, "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "readable" TEXT,
    "lastPreserved" TIMESTAMP(3), "textContent" TEXT, "type" TEXT NOT NULL DEFAULT 'url', "preview" TEXT,
    "importDate" TIMESTAMP(3), "monolith" TEXT, "color" TEXT, "icon" TEXT, "iconWeight" TEXT, "createdById" INTEGER,
    "aiTagged" BOOLEAN NOT NULL DEFAULT false, "indexVersion" INTEGER, "clientSide" BOOLEAN NOT NULL DEFAULT false,
    "metaDescription" TEXT,
    CONSTRAINT "Link_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Link_collectionId_idx" ON "Link"("collectionId");"#
            .to_string(),
        Engine::MySql | Engine::Sqlite => unreachable!("Linkwarden runs on PostgreSQL only"),
    }
}

const COLUMNS: &str = "id name url description collectionId createdAt pdf image updatedAt readable lastPreserved \
    textContent type preview importDate monolith color icon iconWeight createdById aiTagged indexVersion clientSide \
    metaDescription";

const NOW: i64 = T0;
const START: i64 = T0 - 60 * DAY;
const USERS: u64 = 36;
const ID0: i64 = 18_342;
/// Creates per hour of the day (UTC), relative: users in Europe and the Americas.
const RHYTHM: [i64; 24] = [3, 2, 1, 1, 1, 1, 2, 4, 6, 8, 8, 7, 7, 8, 8, 9, 9, 8, 8, 9, 9, 8, 6, 4];
/// The late retries: the first create after each of these times is retried.
const LATE: [i64; 2] = [NOW - DAY, DOWN];
/// The worker (preservation and indexing alike) went down this long before the snapshot and is not back yet.
const DOWN: i64 = NOW - 90 * MINUTE;
const HANDLES: &[&str] = &["jvoss", "mkowalski", "anna-b", "sre-notes", "tomasz", "lena", "kbrown", "rustacean", "ops"];

/// Where people save from: the URL, the `<title>` and the kind of page. `{h}` a headline, `{s}` its slug, `{u}` a
/// handle, `{w}` a word, `{n}` and `{m}` numbers, `{a}` an id, `{x}` hex, `{d}` a day. The last three have no title.
#[rustfmt::skip]
const SITES: &[(&str, &str, &str)] = &[
    ("https://www.theguardian.com/technology/2026/aug/{d}/{s}", "{h} | Technology | The Guardian", "news"),
    ("https://arstechnica.com/gadgets/2026/08/{s}/", "{h} - Ars Technica", "news"),
    ("https://www.bbc.com/news/articles/c{a}o", "{h} - BBC News", "news"),
    ("https://www.theverge.com/news/{n}/{s}", "{h} | The Verge", "news"),
    ("https://www.heise.de/news/{s}-{n}.html", "{h} | heise online", "news"),
    ("https://{u}.substack.com/p/{s}", "{h} - by {u}", "blog"),
    ("https://medium.com/@{u}/{s}-{x}", "{h} | by {u} | Medium", "blog"),
    ("https://dev.to/{u}/{s}-{d}k{d}", "{h} - DEV Community", "blog"),
    ("https://blog.cloudflare.com/{s}/", "{h}", "blog"),
    ("https://{u}.github.io/posts/{s}/", "{h} | {u}", "blog"),
    ("https://docs.docker.com/engine/{w}/{s}/", "{h} | Docker Docs", "docs"),
    ("https://www.postgresql.org/docs/17/{w}.html", "PostgreSQL: Documentation: 17: {h}", "docs"),
    ("https://developer.mozilla.org/en-US/docs/Web/API/{w}", "{w} - Web APIs | MDN", "docs"),
    ("https://docs.python.org/3/library/{w}.html", "{w} — {h} — Python 3.13.7 documentation", "docs"),
    ("https://nginx.org/en/docs/http/ngx_http_{w}_module.html", "Module ngx_http_{w}_module", "docs"),
    ("https://www.youtube.com/watch?v={a}", "{h} - YouTube", "video"),
    ("https://www.youtube.com/watch?v={a}", "{h} - YouTube", "video"),
    ("https://vimeo.com/{n}", "{h} on Vimeo", "video"),
    ("https://github.com/{u}/{w}", "GitHub - {u}/{w}: {h}", "repo"),
    ("https://github.com/{u}/{w}-{s}", "GitHub - {u}/{w}-{s}: {h}", "repo"),
    ("https://news.ycombinator.com/item?id={n}", "{h} | Hacker News", "forum"),
    ("https://www.reddit.com/r/selfhosted/comments/{a}/{s}/", "{h} : r/selfhosted", "forum"),
    ("https://stackoverflow.com/questions/{n}/{s}", "{h} - Stack Overflow", "forum"),
    ("https://arxiv.org/pdf/2608.{m}", "", "pdf"),
    ("https://www.usenix.org/system/files/{s}.pdf", "", "pdf"),
    ("https://i.imgur.com/{a}.jpeg", "", "image"),
];

struct Page {
    url: String,
    /// The title a browser shows (a bookmark keeps it).
    title: String,
    /// The `name` a create writes: the title its own fetch gets, else the URL (a PDF, an image, a bot wall).
    name: String,
    kind: &'static str,
    meta: Option<String>,
    /// The article, as Readability finds it (none on some video pages).
    body: Option<String>,
    count: u64,
    born: i64,
}

#[derive(Clone)]
struct Save {
    at: i64,
    page: usize,
    user: i64,
    coll: i64,
    name: String,
    desc: String,
    import: Option<i64>,
    /// Time in the worker's queue before its turn (an import's links wait for each other).
    wait: i64,
    edit: bool,
    mark: Mark,
}

fn headline(r: &mut Rng) -> String {
    const LEADS: &[&str] = &["How we", "Why the", "A guide to the", "The", "Understanding the", "Stop using the"];
    let n = 2 + r.below(5) as usize;
    let words: Vec<&str> = (0..n).map(|_| *r.pick(WORDS)).collect();
    let h = format!("{} {}", r.pick(LEADS), words.join(" "));
    if r.chance(0.1) { format!("{h} &amp; {}", r.pick(WORDS)) } else { h }
}

fn slug(h: &str) -> String {
    let h = h.replace("&amp;", "and").to_lowercase();
    h.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect::<Vec<_>>().join("-")
}

/// A page first seen at `seen`, published up to `days` before.
fn page(r: &mut Rng, seen: i64, days: i64) -> Page {
    let born = seen - r.range(600, days * 86_400) * SECOND;
    let k = if r.chance(0.95) { r.below(SITES.len() as u64 - 3) } else { SITES.len() as u64 - 3 + r.below(3) };
    let (url, title, kind) = SITES[k as usize];
    let (h, u, w) = (headline(r), *r.pick(HANDLES), *r.pick(WORDS));
    let (n, m, a, x, d) =
        (r.range(10_000_000, 79_999_999), r.range(100, 29_999), r.alnum(11), r.hex(12), r.range(1, 28));
    let fill = |t: &str| {
        let t = t.replace("{h}", &h).replace("{s}", &slug(&h)).replace("{u}", u).replace("{w}", w);
        t.replace("{n}", &n.to_string())
            .replace("{a}", &a)
            .replace("{m}", &format!("{m:05}"))
            .replace("{x}", &x)
            .replace("{d}", &d.to_string())
    };
    let url = fill(url);
    // Readability's text: paragraphs, their line breaks turned to spaces.
    let mut body = String::new();
    for _ in 0..2 + r.below(40) {
        let n = 6 + r.below(13) as usize;
        let gap = if body.is_empty() { "" } else { [" ", " ", "  "][r.below(3) as usize] };
        body = format!("{body}{gap}{}", sentence(r, n));
    }
    let meta = match kind {
        "pdf" | "image" => None,
        "repo" => Some(format!("{h}. Contribute to {} development by creating an account on GitHub.", &url[19..])),
        "forum" if url.contains("ycombinator") => None,
        _ if r.chance(0.15) => None,
        _ => Some(body.split_inclusive(['.', '?', '!']).next().unwrap_or(&body).to_string()),
    };
    let title = if title.is_empty() { url.rsplit('/').next().unwrap().to_string() } else { fill(title) };
    Page {
        name: if kind == "pdf" || kind == "image" || r.chance(0.03) { url.clone() } else { title.clone() },
        title,
        body: (kind != "video" || r.chance(0.5)).then_some(body),
        meta,
        kind,
        count: r.range(200, 90_000) as u64,
        born,
        url,
    }
}

/// "7 minutes", "3 hours", "1 day": a page's age as it prints it.
fn age(us: i64) -> String {
    let m = (us / MINUTE).max(1);
    let (n, unit) = [(m / 1_440, "day"), (m / 60, "hour"), (m, "minute")].into_iter().find(|u| u.0 > 0).unwrap();
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// One load of the page by the worker: its Readability text and its meta description, with what changes from one
/// load to the next (an age, a counter, a rotating line).
fn load(r: &mut Rng, p: &Page, at: i64) -> (Option<String>, Option<String>) {
    let rate = p.count / 20_000 + 1;
    let n = p.count + ((at - p.born) / MINUTE).clamp(0, 30 * 1_440) as u64 * rate + r.below(20 * rate);
    let meta = match &p.meta {
        Some(m) if p.url.contains("reddit") => Some(format!("{} votes, {} comments. {m}", n / 40, n / 300)),
        m => m.clone(),
    };
    let Some(b) = &p.body else { return (None, meta) };
    let (ago, rot) = (age(at - p.born), headline(r));
    let text = match p.kind {
        "news" => format!("Updated {ago} ago  {b}  Most read  {rot}"),
        "blog" => format!("{} min read · {n} views  {b}  You might also like  {rot}", b.len() / 1_200 + 1),
        "docs" => format!("{b}  Was this page helpful?  Sponsored  {rot}"),
        "video" => format!("{n} views  {ago} ago  {b}  Up next  {rot}"),
        "repo" => {
            let (commit, who) =
                (p.count * 2_654_435_761 % 0xFFF_FFFF, format!("@{} @{}", r.pick(HANDLES), r.pick(HANDLES)));
            format!("{} stars  {} forks  Latest commit {commit:07x} · {ago} ago  {b}  Sponsors  {who}", n / 10, n / 90)
        }
        _ => format!("{} points · {} comments · {ago} ago  {b}  Viewed {n} times  Related  {rot}", n / 100, n / 700),
    };
    (Some(text), meta)
}

/// The page already saved from that URL (popular docs pages, repos), else this new one.
fn known(pages: &mut Vec<Page>, p: Page) -> usize {
    pages.iter().position(|q| q.url == p.url).unwrap_or_else(|| {
        pages.push(p);
        pages.len() - 1
    })
}

fn ms(us: i64) -> i64 {
    us - us.rem_euclid(1_000)
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(2_718);
    // Each user's collections, the first one "Unorganized" (where the extension and the apps save by default).
    let mut colls: Vec<Vec<i64>> = vec![Vec::new(); USERS as usize + 1];
    let mut next_coll = 0;
    for c in colls.iter_mut().skip(1) {
        for _ in 0..2 + r.below(5) {
            next_coll += 1 + r.below(3) as i64;
            c.push(next_coll);
        }
    }
    let mut pages: Vec<Page> = Vec::new();
    let mut v: Vec<Save> = Vec::new();
    // Per user: (page, collection, when) of what they saved.
    let mut mine: Vec<Vec<(usize, i64, i64)>> = vec![Vec::new(); USERS as usize + 1];
    let mut late = 0;
    let mut t = START;
    loop {
        let weekend = (t / DAY + 3) % 7 >= 5;
        t += r.range(20, 3_000) * SECOND * 10 / RHYTHM[(t / HOUR % 24) as usize] * if weekend { 3 } else { 2 } / 2;
        t += r.below(1_000_000) as i64;
        if t >= NOW - 20 * SECOND {
            break;
        }
        let user = 1 + r.skewed(USERS) as i64;
        let uc = &colls[user as usize];
        let coll = if r.chance(0.5) { uc[0] } else { *r.pick(uc) };
        let words = 2 + r.below(6) as usize;
        let desc = if r.chance(0.12) { sentence(&mut r, words) } else { String::new() };
        let x = r.below(1_000);
        if x < 10 {
            // The extension's "save all tabs": one POST per open tab, each waiting on its title fetch; the same page
            // open in two tabs is saved twice.
            let mut at = t;
            let mut tabs: Vec<usize> = Vec::new();
            for _ in 0..3 + r.below(9) {
                let (pg, mark) = if tabs.len() > 1 && r.chance(0.05) {
                    (*r.pick(&tabs), Mark::Legit)
                } else {
                    let p = page(&mut r, at, 20);
                    (known(&mut pages, p), Mark::Plain)
                };
                tabs.push(pg);
                let (name, desc) = (pages[pg].name.clone(), String::new());
                v.push(Save { at, page: pg, user, coll, name, desc, import: None, wait: 0, edit: false, mark });
                mine[user as usize].push((pg, coll, at));
                at += r.range(300_000, 3_000_000);
            }
            continue;
        }
        let mut coll = coll;
        let earlier: Vec<(usize, i64, i64)> =
            mine[user as usize].iter().filter(|m| t - m.2 > 2 * HOUR).copied().collect();
        let pg = if x < 50 && !earlier.is_empty() {
            // Saved again hours or days later: into the same collection, or into another one.
            let (pg, c, _) = *r.pick(&earlier);
            coll = if r.chance(0.5) { c } else { *r.pick(uc) };
            pg
        } else {
            let p = page(&mut r, t, 20);
            known(&mut pages, p)
        };
        let name = pages[pg].name.clone();
        let s = Save { at: t, page: pg, user, coll, name, desc, import: None, wait: 0, edit: false, mark: Mark::Plain };
        mine[user as usize].push((pg, coll, t));
        let forced = late < LATE.len() && t > LATE[late];
        if forced || (50..66).contains(&x) {
            // The client gave up waiting and sent the same POST again; the first request went on to save.
            late += usize::from(forced);
            let a1 = t + r.range(10_000, 60_000) * 1_000;
            v.push(Save { at: a1, mark: Mark::Retry, ..s.clone() });
            if r.chance(0.3) {
                v.push(Save { at: a1 + r.range(20_000, 120_000) * 1_000, mark: Mark::Retry, ..s.clone() });
            }
        } else if (66..68).contains(&x) {
            v.push(Save { at: t + r.range(50, 400) * 1_000, mark: Mark::Retry, ..s.clone() });
        } else if (68..71).contains(&x) {
            // Pasted again on purpose a few minutes later.
            v.push(Save { at: t + r.range(180, 1_500) * SECOND, ..s.clone() });
        }
        let retried = (50..68).contains(&x) || forced;
        v.push(Save { edit: !retried && r.chance(0.03), ..s });
    }
    // Bookmarks imports by new users: folder after folder, one collection per folder; a URL twice in one folder is
    // imported twice into its collection, and a URL in two folders lands in two collections.
    for (i, d) in [5, 19, 34, 53].into_iter().enumerate() {
        let user = 31 + i as i64;
        let mut at = START + d * DAY + r.range(9 * 3_600, 21 * 3_600) * SECOND;
        let folders: Vec<i64> = (0..2 + r.below(4)).map(|k| next_coll + 1 + k as i64).collect();
        next_coll += folders.len() as i64;
        let n = 40 + r.below(70) as usize;
        let mut rows: Vec<Save> = Vec::new();
        for k in 0..n {
            let coll = folders[k * folders.len() / n];
            let same: Vec<usize> =
                (0..rows.len()).filter(|&j| rows[j].coll == coll && rows[j].mark == Mark::Plain).collect();
            let other: Vec<usize> = (0..rows.len()).filter(|&j| rows[j].coll != coll).collect();
            let s = if same.len() > 2 && r.chance(0.1) {
                let o = &rows[*r.pick(&same)];
                // Bookmarked again later, or twice the same day.
                let later =
                    o.import.map(|a| (a + r.range(86_400, 300 * 86_400) * SECOND).min(at - HOUR) / SECOND * SECOND);
                Save { at, import: if r.chance(0.6) { later } else { o.import }, mark: Mark::Legit, ..o.clone() }
            } else if !other.is_empty() && r.chance(0.05) {
                Save { at, coll, mark: Mark::Plain, ..rows[*r.pick(&other)].clone() }
            } else {
                let added = (at - r.range(86_400, 1_500 * 86_400) * SECOND) / SECOND * SECOND;
                let p = page(&mut r, added, 5);
                let pg = known(&mut pages, p);
                let words = 3 + r.below(8) as usize;
                let desc = if r.chance(0.08) { sentence(&mut r, words) } else { String::new() };
                let name = pages[pg].title.clone();
                let import = Some(added);
                Save { at, page: pg, user, coll, name, desc, import, wait: 0, edit: false, mark: Mark::Plain }
            };
            rows.push(s);
            at += r.range(3_000, 25_000);
        }
        // The worker takes them newest first, five a batch, a batch every half minute or so.
        for (k, s) in rows.iter_mut().enumerate() {
            s.wait = (n - 1 - k) as i64 / 5 * r.range(25, 60) * SECOND;
        }
        v.extend(rows);
    }
    // What the clock has not reached yet was never sent.
    v.retain(|s| s.at < NOW - SECOND);
    v.sort_by_key(|s| s.at);
    // A page the same user saved into the same collection under 2 minutes before (two tabs, a bookmark twice in a
    // folder, or two sites' links to one page) is a repeat they meant.
    let mut last: HashMap<(usize, i64, i64), i64> = HashMap::new();
    for s in v.iter_mut() {
        let prev = last.insert((s.page, s.user, s.coll), s.at);
        if s.mark == Mark::Plain && prev.is_some_and(|p| s.at - p < 2 * MINUTE) {
            s.mark = Mark::Legit;
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("Link", &columns);
    for (k, s) in v.iter().enumerate() {
        let (id, c, u, p) = (ID0 + k as i64, s.coll, s.user, &pages[s.page]);
        let path = |ext: &str| V::t(format!("archives/{c}/{id}.{ext}"));
        let preview = V::t(format!("archives/preview/{c}/{id}.jpeg"));
        let off = || V::t("unavailable");
        let ty = if p.kind == "pdf" || p.kind == "image" { p.kind } else { "url" };
        let delay = if r.chance(0.85) { r.range(12, 90) } else { r.range(120, 2_400) };
        let done = s.at + s.wait + delay * SECOND + r.below(1_000_000) as i64;
        let mut row: Vec<(&str, V)> = vec![
            ("id", V::I(id)),
            ("name", V::t(&s.name)),
            ("url", V::t(&p.url)),
            ("description", V::t(&s.desc)),
            ("collectionId", V::I(c)),
            ("createdAt", V::At(ms(s.at))),
            ("importDate", s.import.map_or(V::Null, V::At)),
            ("createdById", V::I(u)),
            ("clientSide", V::B(false)),
        ];
        // postLink updates the row once more right after the insert; the indexer sets indexVersion some seconds on.
        let mut updated = s.at + r.range(2, 9) * 1_000;
        let mut ai = false;
        if done < DOWN {
            row.push(("type", V::t(ty)));
            match p.kind {
                "pdf" => row.extend([("pdf", path("pdf")), ("image", off()), ("preview", off())]),
                "image" => row.extend([("image", path("jpeg")), ("preview", preview), ("pdf", off())]),
                _ => {
                    let loaded = done - r.range(5, 35) * SECOND;
                    let (text, meta) = load(&mut r, p, loaded);
                    let readable = V::t(format!("archives/{c}/{id}_readability.json"));
                    row.extend([
                        ("readable", if text.is_some() { readable } else { off() }),
                        ("textContent", V::opt_t(text.as_deref())),
                        ("metaDescription", V::opt_t(meta.as_deref())),
                        ("preview", if r.chance(0.97) { preview } else { off() }),
                        // Users turn formats off in their settings; monolith fails now and then.
                        ("image", if u % 11 == 7 { off() } else { path("jpeg") }),
                        ("pdf", if u % 5 == 2 { off() } else { path("pdf") }),
                        ("monolith", if u % 7 == 4 || r.chance(0.02) { off() } else { path("html") }),
                    ]);
                    ai = u % 9 == 5;
                }
            }
            if ty != "url" {
                row.extend([("readable", off()), ("monolith", off())]);
            }
            row.extend([("lastPreserved", V::At(ms(done))), ("indexVersion", V::I(1))]);
            updated = done + r.range(1_000, 12_000) * 1_000;
            if ai {
                // AI tagging (on for a few users) comes after the preservation.
                updated = done + r.range(20, 240) * SECOND;
            }
        } else {
            row.push(("type", V::t(if s.import.is_some() { "url" } else { ty })));
            let indexed = s.at + r.range(1, 12) * SECOND;
            if indexed < DOWN {
                row.push(("indexVersion", V::I(1)));
                updated = indexed;
            }
        }
        row.push(("aiTagged", V::B(ai)));
        let edited = s.at + r.range(3_600, 9 * 86_400) * SECOND;
        if s.edit && edited < NOW {
            let icon = *r.pick(&["BookmarkSimple", "Star", "BookOpen", "Code", "Lightning", "Coffee"]);
            row.extend([
                ("icon", V::t(icon)),
                ("iconWeight", V::t(*r.pick(&["regular", "fill", "duotone"]))),
                ("color", V::t(*r.pick(&["#0ea5e9", "#f43f5e", "#22c55e", "#a855f7", "#f59e0b"]))),
            ]);
            updated = updated.max(edited);
        }
        row.push(("updatedAt", V::At(ms(updated))));
        f.push(&row);
        f.mark(id, s.mark);
    }
    f
}
