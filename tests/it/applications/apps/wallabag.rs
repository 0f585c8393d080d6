//! wallabag 2.6 (PHP, Symfony and Doctrine ORM; MySQL/MariaDB by default, SQLite, PostgreSQL): `wallabag_entry`,
//! as `EntryRestController::postEntriesAction` (POST /api/entries: browser extension, Android/iOS apps),
//! `EntryController::addEntryFormAction` (the web form) and `InstapaperImport` write a saved article through
//! `ContentProxy::updateEntry`, which fetches the page with Graby before the row is persisted.
//! Read: wallabag/wallabag at 2.6.14: src/Wallabag/CoreBundle/Entity/Entry.php, Helper/EntityTimestampsTrait.php,
//! Helper/ContentProxy.php, Helper/UrlHasher.php, Repository/EntryRepository.php (findByUrlAndUserId,
//! findByHashedUrlAndUserId), src/Wallabag/ApiBundle/Controller/EntryRestController.php,
//! src/Wallabag/CoreBundle/Controller/EntryController.php, src/Wallabag/ImportBundle/Import/AbstractImport.php and
//! InstapaperImport.php, src/Wallabag/CoreBundle/Command/InstallCommand.php (the schema is the migrations'),
//! app/config/parameters.yml.dist (prefix wallabag_, pdo_mysql), app/DoctrineMigrations/Version20160401000000.php,
//! 20160410190541, 20161022134138, 20161104073720, 20161118134328, 20161214094402/3, 20170127093841,
//! 20170405182620, 20170407200919, 20170511115400, 20170824113337, 20171008195606, 20171105202000,
//! 20180405182455, 20190401105353, 20190601125843, 20190806130304 (the last SQLite rebuild); HEAD's
//! src/Helper/ContentProxy.php and migrations/Version20240310150000.php (not released: not modelled);
//! j0k3r/graby 2.5 src/Extractor/HttpClient.php (formatHeaders: every response header, lower-cased).
//! A create: `url`/`given_url` the URL sent (after a redirect to another URL `url` is the final one and
//! `origin_url` the one sent), `hashed_url`/`hashed_given_url` sha1 of them, the rest from the fetch: title,
//! content, language (`-` made `_`), published_at/by (PHP-serialized array), preview_picture, http_status,
//! mimetype (the content-type header), headers (serialize() of the response headers, with the server's `date`,
//! and per-request `cf-ray`/`age` where a CDN serves the site), reading_time = words / 200; created_at and
//! updated_at are both `new DateTime()` at persist, in whole seconds. The lookup by URL and user runs before the
//! fetch (1-8 s, up to 40 s on slow sites), so two saves of one URL that overlap both insert; a later save of a
//! URL already there only updates it. Later: is_archived/archived_at when read, is_starred/starred_at, uid when
//! shared publicly, updated_at on each change. Retries (6): double taps in the app's share sheet 5-100 ms apart,
//! a web-form double click, and a 30 s client timeout on a slow site whose first fetch was still running.
//! Legitimate repeats: the same article saved by several users of the instance (a link shared in the team chat,
//! seconds to hours apart), and an Instapaper CSV with a URL twice in one flush batch of 20 (same user).
use super::{DAY, Fixture, HOUR, MINUTE, Rng, SECOND, T0, V, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::MySql];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Sqlite => "CREATE TABLE wallabag_entry (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, user_id INTEGER DEFAULT NULL, title CLOB DEFAULT NULL COLLATE BINARY, url CLOB DEFAULT NULL COLLATE BINARY, is_archived BOOLEAN NOT NULL, is_starred BOOLEAN NOT NULL, content CLOB DEFAULT NULL COLLATE BINARY, created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL, mimetype CLOB DEFAULT NULL COLLATE BINARY, domain_name CLOB DEFAULT NULL COLLATE BINARY, preview_picture CLOB DEFAULT NULL COLLATE BINARY, uid VARCHAR(23) DEFAULT NULL COLLATE BINARY, http_status VARCHAR(3) DEFAULT NULL COLLATE BINARY, published_at DATETIME DEFAULT NULL, starred_at DATETIME DEFAULT NULL, origin_url CLOB DEFAULT NULL COLLATE BINARY, archived_at DATETIME DEFAULT NULL, given_url CLOB DEFAULT NULL COLLATE BINARY, reading_time INTEGER NOT NULL, published_by CLOB DEFAULT NULL COLLATE BINARY --(DC2Type:array)
        , headers CLOB DEFAULT NULL COLLATE BINARY --(DC2Type:array)
        , hashed_url VARCHAR(40) DEFAULT NULL COLLATE BINARY, hashed_given_url VARCHAR(40) DEFAULT NULL COLLATE BINARY, language VARCHAR(20) DEFAULT NULL);
CREATE INDEX uid ON wallabag_entry (uid);
CREATE INDEX created_at ON wallabag_entry (created_at);
CREATE INDEX hashed_url_user_id ON wallabag_entry (user_id, hashed_url);
CREATE INDEX IDX_F4D18282A76ED395 ON wallabag_entry (user_id);
CREATE INDEX hashed_given_url_user_id ON wallabag_entry (user_id, hashed_given_url);
CREATE INDEX user_language ON wallabag_entry (language, user_id);
CREATE INDEX user_archived ON wallabag_entry (user_id, is_archived, archived_at);
CREATE INDEX user_created ON wallabag_entry (user_id, created_at);
CREATE INDEX user_starred ON wallabag_entry (user_id, is_starred, starred_at);".into(),
        Engine::MySql => "CREATE TABLE `wallabag_entry` (
  `id` int(11) NOT NULL AUTO_INCREMENT, `user_id` int(11) DEFAULT NULL, `title` longtext DEFAULT NULL,
  `url` longtext DEFAULT NULL, `is_archived` tinyint(1) NOT NULL, `is_starred` tinyint(1) NOT NULL,
  `content` longtext DEFAULT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL,
  `mimetype` longtext DEFAULT NULL, `language` varchar(20) DEFAULT NULL, `reading_time` int(11) NOT NULL,
  `domain_name` longtext DEFAULT NULL, `preview_picture` longtext DEFAULT NULL, `uid` varchar(23) DEFAULT NULL,
  `http_status` varchar(3) DEFAULT NULL, `published_at` datetime DEFAULT NULL, `published_by` longtext DEFAULT NULL,
  `headers` longtext DEFAULT NULL, `starred_at` datetime DEFAULT NULL, `origin_url` longtext DEFAULT NULL,
  `archived_at` datetime DEFAULT NULL, `hashed_url` tinytext DEFAULT NULL, `given_url` longtext DEFAULT NULL,
  `hashed_given_url` tinytext DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `IDX_F4D18282A76ED395` (`user_id`),
  KEY `IDX_entry_created_at` (`created_at`),
  KEY `IDX_entry_uid` (`uid`),
  KEY `IDX_entry_starred` (`is_starred`),
  KEY `IDX_entry_archived` (`is_archived`),
  KEY `hashed_url_user_id` (`user_id`,`hashed_url`(40)),
  KEY `hashed_given_url_user_id` (`user_id`,`hashed_given_url`(40)),
  KEY `user_language` (`language`,`user_id`),
  KEY `user_archived` (`user_id`,`is_archived`,`archived_at`),
  KEY `user_created` (`user_id`,`created_at`),
  KEY `user_starred` (`user_id`,`is_starred`,`starred_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci"
            .into(),
        Engine::Postgres => unreachable!("this fixture covers SQLite and MariaDB"),
    }
}

const COLUMNS: &str = "id user_id title url is_archived is_starred content created_at updated_at mimetype language \
    reading_time domain_name preview_picture uid http_status published_at published_by headers starred_at origin_url \
    archived_at hashed_url given_url hashed_given_url";

/// Sites: host, language, how the edge answers (0 Cloudflare, 1 Fastly, 2 a plain nginx), bylines (1).
const SITES: &str = "www.theguardian.com en 1 1|arstechnica.com en 0 1|lwn.net en 2 1|www.heise.de de 1 1|\
    netzpolitik.org de 0 1|www.zeit.de de 1 1|www.lemonde.fr fr 1 1|blog.cloudflare.com en 0 1|martinfowler.com en 2 0|\
    jvns.ca en 0 0|www.nytimes.com en_US 1 1|www.spiegel.de de 0 1|danluu.com en 2 0|www.bbc.com en_GB 1 1|\
    github.blog en 0 1|simonwillison.net en 0 0|www.golem.de de 2 1|www.quantamagazine.org en 0 1|\
    www.lesswrong.com en 0 1|fasterthanli.me en 0 0|www.wired.com en 1 1|www.numerama.com fr 0 1|\
    www.tagesschau.de de 1 0|brooker.co.za en 2 0";
const AUTHORS: &str = "Jane Smith|Kai Biermann|Anna Biselli|Julia Evans|Ben Thompson|Marie Dupont|Jonathan Corbet|\
    Sarah Chen|Tom Warren|Lena Müller";

fn site(i: usize) -> (&'static str, &'static str, &'static str, bool) {
    let mut f = SITES.split('|').nth(i).unwrap().split(' ');
    let mut next = || f.next().unwrap();
    (next(), next(), next(), next() == "1")
}
const ERROR: &str = "wallabag can't retrieve contents for this article. Please <a href=\"https://doc.wallabag.org/en/user/errors_during_fetching.html#how-can-i-help-to-fix-that\">troubleshoot this issue</a>.";

/// An article as the site serves it: every fetch of it gives the same text.
#[derive(Clone)]
struct Article {
    site: usize,
    url: String,
    title: String,
    html: String,
    words: i64,
    date: i64,
    author: Option<&'static str>,
    image: Option<String>,
    status: u16,
}

#[derive(Clone, Default)]
struct Save {
    at: i64,
    fetch: i64,
    user: i64,
    art: usize,
    given: Option<String>,
    kind: u8,
    archived: bool,
}

fn sha1(data: &[u8]) -> String {
    let mut h: [u32; 5] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0];
    let mut m = data.to_vec();
    m.push(0x80);
    while m.len() % 64 != 56 {
        m.push(0);
    }
    m.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in m.chunks(64) {
        let mut w = [0u32; 80];
        for i in 0..80 {
            w[i] = if i < 16 {
                u32::from_be_bytes(block[4 * i..4 * i + 4].try_into().unwrap())
            } else {
                (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1)
            };
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i / 20 {
                0 => ((b & c) | (!b & d), 0x5A82_7999),
                1 => (b ^ c ^ d, 0x6ED9_EBA1),
                2 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let t = a.rotate_left(5).wrapping_add(f).wrapping_add(e).wrapping_add(k).wrapping_add(*wi);
            (e, d, c, b, a) = (d, c, b.rotate_left(30), a, t);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

/// PHP's serialize() of a list of strings or of a string-keyed array.
fn serialize(items: &[(Option<&str>, String)]) -> String {
    let mut s = format!("a:{}:{{", items.len());
    for (i, (k, v)) in items.iter().enumerate() {
        match k {
            Some(k) => s.push_str(&format!("s:{}:\"{k}\";", k.len())),
            None => s.push_str(&format!("i:{i};")),
        }
        s.push_str(&format!("s:{}:\"{v}\";", v.len()));
    }
    s + "}"
}

fn headers(r: &mut Rng, a: &Article, at: i64) -> String {
    let date = chrono::DateTime::from_timestamp_micros(at).unwrap().format("%a, %d %b %Y %H:%M:%S GMT").to_string();
    let ct = ("content-type", "text/html; charset=utf-8".to_string());
    let h: Vec<(&str, String)> = match site(a.site).2 {
        "0" => vec![
            ("date", date),
            ct,
            ("cf-cache-status", r.one(&["HIT", "DYNAMIC", "MISS"]).into()),
            ("vary", "Accept-Encoding".into()),
            ("server", "cloudflare".into()),
            ("cf-ray", format!("{}-{}", r.hex(16), r.one(&["FRA", "AMS", "CDG"]))),
        ],
        "1" => vec![
            ct,
            ("via", "1.1 varnish".into()),
            ("date", date),
            ("age", r.range(0, 3_000).to_string()),
            ("x-served-by", format!("cache-fra-eddf82{}-FRA", r.range(30_000, 30_099))),
            ("x-cache", r.one(&["HIT", "MISS"]).into()),
        ],
        _ => vec![("server", "nginx".into()), ("date", date), ct, ("cache-control", "max-age=600".into())],
    };
    let h: Vec<(Option<&str>, String)> = h.into_iter().map(|(k, v)| (Some(k), v)).collect();
    serialize(&h)
}

fn article(r: &mut Rng, site_i: usize, now: i64) -> Article {
    let (host, _, _, bylines) = site(site_i);
    let n = 3 + r.below(5) as usize;
    let words: Vec<String> = (0..n).map(|_| r.pick(super::WORDS).to_string()).collect();
    let date = now - r.range(1, 20 * 24) * HOUR;
    let url = format!(
        "https://{host}/{}/{}/{}-{}",
        chrono::DateTime::from_timestamp_micros(date).unwrap().format("%Y/%m"),
        words[0],
        words.join("-"),
        r.range(100, 99_999)
    );
    let mut title = words.join(" ");
    title[..1].make_ascii_uppercase();
    let paras: Vec<String> = (0..r.range(4, 60))
        .map(|_| {
            let n = 8 + r.below(30) as usize;
            sentence(r, n)
        })
        .collect();
    let count: i64 = paras.iter().map(|p| p.split(' ').count() as i64).sum();
    let image = r.chance(0.75).then(|| format!("https://{host}/img/{}.jpg", r.hex(12)));
    let mut html = String::new();
    if let Some(i) = &image {
        html.push_str(&format!("<figure><img src=\"{i}\" alt=\"\" /></figure>"));
    }
    for p in &paras {
        html.push_str(&format!("<p>{p}</p>"));
    }
    let status = if r.chance(0.04) { r.one(&[403, 404, 429]) } else { 200 };
    let authors: Vec<&'static str> = AUTHORS.split('|').collect();
    Article {
        site: site_i,
        url,
        title,
        html,
        words: count,
        date,
        image,
        status,
        author: (bylines && r.chance(0.8)).then(|| r.one(&authors)),
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(2_614);
    let mut arts: Vec<Article> = Vec::new();
    let mut saves: Vec<Save> = Vec::new();
    let mut legit_at: Vec<(i64, i64)> = Vec::new(); // (user, at) of saves that are a legitimate repeat
    let mut retry_at: Vec<(i64, i64)> = Vec::new();
    let fetch = |r: &mut Rng| (if r.chance(0.06) { r.range(9_000, 38_000) } else { r.range(700, 7_000) }) * 1_000;
    for d in 0..28 {
        for _ in 0..r.range(45, 85) {
            let at = T0 + d * DAY + r.range(6 * 3_600, 23 * 3_600) * SECOND + r.range(0, 999) * 1_000;
            let site = r.skewed(24) as usize;
            arts.push(article(&mut r, site, at));
            let user = 1 + r.skewed(24) as i64;
            // A link from a newsletter or a social network: the site redirects to the article.
            let given = r.chance(0.06).then(|| match r.below(2) {
                0 => format!("https://t.co/{}", r.alnum(10)),
                _ => format!("{}?utm_source=newsletter&utm_medium=email", arts.last().unwrap().url),
            });
            saves.push(Save { at, fetch: fetch(&mut r), user, art: arts.len() - 1, given, ..Default::default() });
            // Shared in the team chat: colleagues save it too, seconds to hours later.
            if r.chance(0.016) {
                let mut t = at;
                let mut users = vec![user];
                for _ in 0..r.range(1, 4) {
                    t += match r.below(4) {
                        0 => r.range(2_000, 5_000),
                        1 | 2 => r.range(8_000, 600_000),
                        _ => r.range(600_000, 6 * 3_600_000),
                    } * 1_000;
                    let u = 1 + r.below(24) as i64;
                    if users.contains(&u) {
                        continue;
                    }
                    users.push(u);
                    legit_at.push((u, t));
                    let fetch = fetch(&mut r);
                    saves.push(Save { at: t, fetch, user: u, art: arts.len() - 1, ..Default::default() });
                }
            }
        }
    }
    // The overlapping saves that both insert (3-8 in all).
    for (n, (day, how)) in [(3, 0), (8, 1), (13, 0), (19, 2), (26, 0), (27, 1)].into_iter().enumerate() {
        let i = saves
            .iter()
            .position(|s| {
                s.at > T0 + day * DAY + 9 * HOUR && s.user == 1 + n as i64 % 3 && !legit_at.contains(&(s.user, s.at))
            })
            .unwrap();
        let s = saves[i].clone();
        let (gap, fetch) = match how {
            0 => (r.range(5, 100), s.fetch + r.range(-400, 400) * 1_000), // double tap in the share sheet
            1 => (30_000, r.range(12_000, 30_000) * 1_000),               // the app's 30 s timeout, slow site
            _ => (r.range(150, 400), s.fetch + r.range(-300, 300) * 1_000), // double click on the web form
        };
        if how == 1 {
            saves[i].fetch = r.range(31_000, 40_000) * 1_000;
        }
        // Of two overlapping saves the one persisted last is the extra row.
        let first = saves[i].fetch;
        let fetch = if gap * 1_000 + fetch <= first { first - gap * 1_000 + r.range(50, 900) * 1_000 } else { fetch };
        retry_at.push((s.user, s.at + gap * 1_000));
        saves.push(Save { at: s.at + gap * 1_000, fetch, ..s });
    }
    // User 6 imports an Instapaper CSV on day 11: one fetch after the other, flushed every 20.
    let mut t = T0 + 11 * DAY + 20 * HOUR + 3 * MINUTE;
    let mut csv: Vec<usize> = Vec::new();
    for k in 0..185 {
        let reuse = k % 20 > 3 && r.chance(0.04);
        let art = if reuse {
            csv[csv.len() - 1 - r.below(((k % 20) as u64).min(4)) as usize]
        } else {
            let site = r.skewed(24) as usize;
            let saved = t - r.range(30, 900) * DAY;
            arts.push(article(&mut r, site, saved));
            arts.len() - 1
        };
        csv.push(art);
        let f = fetch(&mut r);
        if reuse {
            legit_at.push((6, t));
        }
        saves.push(Save { at: t, fetch: f, user: 6, art, given: None, kind: 1, archived: r.chance(0.55) });
        t += f + r.range(20, 200) * 1_000;
    }
    saves.sort_by_key(|s| s.at + if s.kind == 1 { 0 } else { s.fetch });
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("wallabag_entry", &columns);
    let mut seen = std::collections::BTreeSet::new();
    for (i, s) in saves.iter().enumerate() {
        let id = 1 + i as i64;
        let a = &arts[s.art];
        // Persisted once the fetch is done; the import persists at `at` (its fetch is before).
        let created = (if s.kind == 1 { s.at } else { s.at + s.fetch }) / SECOND * SECOND;
        let ok = a.status == 200;
        let archived = s.archived || (s.kind == 0 && r.chance(0.6));
        let archived_at =
            archived.then(|| if s.kind == 1 { created } else { created + r.range(15, 8 * 24 * 60) * MINUTE });
        let starred_at = (s.kind == 0 && r.chance(0.07)).then(|| created + r.range(1, 4 * 24 * 60) * MINUTE);
        let starred_import = s.kind == 1 && archived && r.chance(0.1); // Instapaper's "Starred" folder
        let edited = r.chance(0.15).then(|| created + r.range(1, 5 * 24 * 60) * MINUTE);
        let uid = (r.chance(0.02)).then(|| format!("{}{}.{}", r.hex(13), r.below(10), r.range(10_000_000, 99_999_999)));
        let updated = [
            Some(created),
            archived_at.filter(|_| s.kind == 0),
            starred_at,
            edited,
            uid.as_ref().map(|_| created + DAY),
        ]
        .into_iter()
        .flatten()
        .max()
        .unwrap();
        let given = s.given.clone().unwrap_or(a.url.clone());
        let (host, lang, _, _) = site(a.site);
        // A later row of an article already stored: a retry's, or a new save (a colleague's, the import's).
        if !seen.insert(s.art) {
            if retry_at.contains(&(s.user, s.at)) {
                f.extras.insert(id.to_string());
            } else {
                f.legit.insert(id.to_string());
            }
        }
        f.push(&[
            ("id", V::I(id)),
            ("user_id", V::I(s.user)),
            ("title", V::t(if ok { a.title.clone() } else { "No title found".into() })),
            ("url", V::t(&a.url)),
            ("is_archived", V::B(archived)),
            ("is_starred", V::B(starred_at.is_some() || starred_import)),
            ("content", V::t(if ok { a.html.as_str() } else { ERROR })),
            ("created_at", V::AtSecs(created)),
            ("updated_at", V::AtSecs(updated)),
            ("mimetype", V::t("text/html; charset=utf-8")),
            ("language", if ok { V::t(lang) } else { V::Null }),
            ("reading_time", V::I(if ok { a.words / 200 } else { 0 })),
            ("domain_name", V::t(host)),
            ("preview_picture", V::opt_t(a.image.as_deref().filter(|_| ok))),
            ("uid", V::opt_t(uid.as_deref())),
            ("http_status", V::t(a.status.to_string())),
            ("published_at", if ok { V::AtSecs(a.date / SECOND * SECOND) } else { V::Null }),
            (
                "published_by",
                match a.author.filter(|_| ok) {
                    Some(n) => V::t(serialize(&[(None, n.to_string())])),
                    None => V::Null,
                },
            ),
            ("headers", V::t(headers(&mut r, a, if s.kind == 1 { s.at - s.fetch / 5 } else { s.at + s.fetch / 5 }))),
            ("starred_at", starred_at.map_or(V::Null, V::AtSecs)),
            ("origin_url", if given != a.url { V::t(&given) } else { V::Null }),
            ("archived_at", archived_at.map_or(V::Null, V::AtSecs)),
            ("hashed_url", V::t(sha1(a.url.as_bytes()))),
            ("given_url", V::t(&given)),
            ("hashed_given_url", V::t(sha1(given.as_bytes()))),
        ]);
    }
    f
}
