//! Creation tables shaped like those of widely deployed applications, filled
//! the way each application's own create path writes a row and a retried
//! create (every per-attempt value fresh), among legitimate repeats. Each
//! fixture knows the extra rows its retries made; the tests scan with no
//! column flags and compare.

pub mod akaunting;
pub mod babybuddy;
pub mod bagisto;
pub mod bookstack;
pub mod calcom;
pub mod chatwoot;
pub mod crater;
pub mod decidim;
pub mod deck;
pub mod discourse;
pub mod dolibarr;
pub mod drupal;
pub mod erpnext;
pub mod firefly;
pub mod flarum;
pub mod forem;
pub mod formbricks;
pub mod ghost;
pub mod gitea;
pub mod gitlab;
pub mod gotify;
pub mod grocy;
pub mod immich;
pub mod invoiceninja;
pub mod kanboard;
pub mod karakeep;
pub mod killbill;
pub mod kimai;
pub mod lago;
pub mod lemmy;
pub mod linkding;
pub mod linkwarden;
pub mod listmonk;
pub mod magento;
pub mod mastodon;
pub mod mattermost;
pub mod mautic;
pub mod mealie;
pub mod medusa;
pub mod memos;
pub mod monica;
pub mod moodle;
pub mod netbox;
pub mod odoo;
pub mod opencart;
pub mod openproject;
pub mod outline;
pub mod paperless;
pub mod plane;
pub mod prestashop;
pub mod pretix;
pub mod redmine;
pub mod saleor;
pub mod shlink;
pub mod snipeit;
pub mod spree;
pub mod sylius;
pub mod taiga;
pub mod umami;
pub mod uptimekuma;
pub mod vaultwarden;
pub mod vikunja;
pub mod wallabag;
pub mod woocommerce;
pub mod zammad;
pub mod zulip;

use std::collections::BTreeSet;

use crate::common::{Engine, TestDb};

/// A value as a fixture writes it.
#[derive(Debug, Clone, PartialEq)]
pub enum V {
    Null,
    I(i64),
    F(f64),
    /// Text, quoted for the engine.
    T(String),
    B(bool),
    /// A time without a zone, microseconds since the epoch.
    At(i64),
    /// A time with a zone (timestamptz), microseconds since the epoch.
    AtZ(i64),
    /// A time written as `YYYY-MM-DD HH:MM:SS` on every engine (Knex's form).
    AtSecs(i64),
    /// SQL written as it is (an array literal, a cast).
    Raw(String),
    /// Bytes, as hex digits (`bytea`, `VARBINARY`, `BLOB`).
    Bin(String),
}

impl V {
    pub fn t(text: impl Into<String>) -> V {
        V::T(text.into())
    }

    pub fn opt_i(n: Option<i64>) -> V {
        n.map_or(V::Null, V::I)
    }

    pub fn opt_t(t: Option<&str>) -> V {
        t.map_or(V::Null, V::t)
    }
}

/// What a fixture's row is: a plain create, a retry's extra row (the damage
/// a scan must find), or a legitimate repeat (listed only as `doubtful`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mark {
    #[default]
    Plain,
    Retry,
    Legit,
}

/// A filled table: its columns, its rows in insert order, and the ids of the
/// rows its retries added (the damage a scan must find).
pub struct Fixture {
    pub table: &'static str,
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<V>>,
    pub extras: BTreeSet<String>,
    /// Retries a scan cannot tell from a legitimate repeat by the row alone:
    /// not expected among the findings, expected among the near misses.
    pub hidden: BTreeSet<String>,
    /// Rows the application wrote as a new intent (an import, a bulk create,
    /// a toggle, a bot, a re-entered payment) that equal an earlier row on
    /// everything but what it mints per write: if a scan lists one, it must
    /// be `doubtful`.
    pub legit: BTreeSet<String>,
    /// Rows of other tables (a child table referencing this one), written
    /// after this table's rows.
    pub children: Vec<Child>,
}

/// Rows of another table, written after the fixture's own.
pub struct Child {
    pub table: &'static str,
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<V>>,
}

impl Child {
    pub fn new(table: &'static str, columns: &[&'static str]) -> Child {
        Child { table, columns: columns.to_vec(), rows: Vec::new() }
    }

    /// Appends a row given as (column, value) pairs; columns left out are NULL.
    pub fn push(&mut self, values: &[(&str, V)]) {
        self.rows.push(row_of(&self.columns, values));
    }
}

fn row_of(columns: &[&'static str], values: &[(&str, V)]) -> Vec<V> {
    let mut row = vec![V::Null; columns.len()];
    for (name, value) in values {
        let i = columns.iter().position(|c| c == name).unwrap_or_else(|| panic!("no column {name}"));
        row[i] = value.clone();
    }
    row
}

impl Fixture {
    pub fn new(table: &'static str, columns: &[&'static str]) -> Fixture {
        Fixture {
            table,
            columns: columns.to_vec(),
            rows: Vec::new(),
            extras: BTreeSet::new(),
            hidden: BTreeSet::new(),
            legit: BTreeSet::new(),
            children: Vec::new(),
        }
    }

    /// Appends a row given as (column, value) pairs; columns left out are NULL.
    pub fn push(&mut self, values: &[(&str, V)]) {
        self.rows.push(row_of(&self.columns, values));
    }

    /// Files a row's id under what it is: `extras` for a retry's row,
    /// `legit` for a legitimate repeat.
    pub fn mark(&mut self, id: impl ToString, mark: Mark) {
        match mark {
            Mark::Retry => self.extras.insert(id.to_string()),
            Mark::Legit => self.legit.insert(id.to_string()),
            Mark::Plain => false,
        };
    }

    /// Writes the rows into the table `ddl` creates, then the children's.
    pub fn load(&self, db: &TestDb, ddl: &str) {
        db.exec(ddl);
        insert(db, self.table, &self.columns, &self.rows);
        for child in &self.children {
            insert(db, child.table, &child.columns, &child.rows);
        }
    }
}

fn insert(db: &TestDb, table: &str, columns: &[&str], rows: &[Vec<V>]) {
    let columns: Vec<String> = columns.iter().map(|c| db.ident(c)).collect();
    for chunk in rows.chunks(250) {
        let values: Vec<String> = chunk
            .iter()
            .map(|row| format!("({})", row.iter().map(|v| literal(db.engine, v)).collect::<Vec<_>>().join(", ")))
            .collect();
        db.exec(&format!("INSERT INTO {} ({}) VALUES {}", db.ident(table), columns.join(", "), values.join(",\n")));
    }
}

/// A value as an SQL literal of the engine.
pub fn literal(engine: Engine, v: &V) -> String {
    match v {
        V::Null => "NULL".into(),
        V::I(n) => n.to_string(),
        V::F(x) => format!("{x:?}"),
        V::T(s) => {
            let s = s.replace('\'', "''");
            match engine {
                Engine::MySql => format!("'{}'", s.replace('\\', "\\\\")),
                _ => format!("'{s}'"),
            }
        }
        V::B(b) => match engine {
            Engine::Postgres => b.to_string(),
            _ => u8::from(*b).to_string(),
        },
        V::At(us) | V::AtZ(us) => {
            let t = chrono::DateTime::from_timestamp_micros(*us).unwrap();
            let text = t.format("%Y-%m-%d %H:%M:%S%.6f").to_string();
            match (engine, v) {
                (Engine::Postgres, V::AtZ(_)) => format!("'{text}+00'"),
                (Engine::Sqlite, _) => format!("'{}'", t.format("%Y-%m-%dT%H:%M:%S%.6fZ")),
                _ => format!("'{text}'"),
            }
        }
        V::AtSecs(us) => {
            format!("'{}'", chrono::DateTime::from_timestamp_micros(*us).unwrap().format("%Y-%m-%d %H:%M:%S"))
        }
        V::Raw(sql) => sql.clone(),
        V::Bin(hex) => match engine {
            Engine::Postgres => format!("'\\x{hex}'::bytea"),
            _ => format!("X'{hex}'"),
        },
    }
}

/// A small deterministic generator: the same fixture on every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// 0 .. n-1.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() <= p
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A Poisson draw of mean `mean` (Knuth's product of uniforms).
    pub fn poisson(&mut self, mean: f64) -> usize {
        let limit = (-mean).exp();
        let (mut k, mut p) = (0, self.unit());
        while p > limit {
            k += 1;
            p *= self.unit();
        }
        k
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// One of the items, by value.
    pub fn one<T: Copy>(&mut self, items: &[T]) -> T {
        *self.pick(items)
    }

    /// An index of `weights`, each as likely as its weight.
    pub fn weighted(&mut self, weights: &[i64]) -> usize {
        let mut x = self.below(weights.iter().sum::<i64>() as u64) as i64;
        for (i, &w) in weights.iter().enumerate() {
            if x < w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }

    /// A Zipf-like pick of 0 .. n-1: low numbers far more often.
    pub fn skewed(&mut self, n: u64) -> u64 {
        let a = self.below(n);
        let b = self.below(n);
        a.min(b).min(self.below(n))
    }

    pub fn hex(&mut self, n: usize) -> String {
        (0..n).map(|_| char::from_digit(self.below(16) as u32, 16).unwrap()).collect()
    }

    /// Letters and digits, as tokens are.
    pub fn alnum(&mut self, n: usize) -> String {
        const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..n).map(|_| CHARS[self.below(CHARS.len() as u64) as usize] as char).collect()
    }

    pub fn uuid(&mut self) -> String {
        let h = self.hex(32);
        format!(
            "{}-{}-4{}-{}{}-{}",
            &h[..8],
            &h[8..12],
            &h[13..16],
            "89ab".as_bytes()[self.below(4) as usize] as char,
            &h[17..20],
            &h[20..]
        )
    }
}

/// How long after its first attempt a client's retry lands, in µs, as real
/// clients retry: a double submit 20-100 ms later (three in ten), else a
/// retry after the client's own timeout, 10-60 s later.
pub fn client_retry_delay(r: &mut Rng) -> i64 {
    if r.chance(0.3) { r.range(20_000, 100_000) } else { r.range(10, 60) * SECOND + r.range(0, 999_999) }
}

/// 2026-10-01T00:00:00Z, where every fixture's history starts.
pub const T0: i64 = 1_790_812_800_000_000;
pub const SECOND: i64 = 1_000_000;
pub const MINUTE: i64 = 60 * SECOND;
pub const HOUR: i64 = 60 * MINUTE;
pub const DAY: i64 = 24 * HOUR;

/// Words for text that reads like people's.
pub const WORDS: &[&str] = &[
    "backup",
    "upgrade",
    "server",
    "plugin",
    "theme",
    "rebuild",
    "container",
    "docker",
    "nginx",
    "certificate",
    "email",
    "notification",
    "category",
    "search",
    "login",
    "password",
    "account",
    "invite",
    "badge",
    "topic",
    "reply",
    "draft",
    "upload",
    "image",
    "video",
    "link",
    "preview",
    "cache",
    "memory",
    "disk",
    "database",
    "migration",
    "cron",
    "queue",
    "worker",
    "sidekiq",
    "redis",
    "postgres",
    "timeout",
    "error",
    "warning",
    "log",
    "setting",
    "admin",
    "moderator",
    "user",
    "group",
    "permission",
    "tag",
    "feed",
    "digest",
    "mobile",
    "browser",
    "keyboard",
    "shortcut",
    "layout",
];

/// A sentence of `n` words, different for each call (most of the time).
pub fn sentence(r: &mut Rng, n: usize) -> String {
    const STARTS: &[&str] = &[
        "I think the",
        "After the",
        "Has anyone seen the",
        "Why does the",
        "We moved the",
        "Thanks, the",
        "Is the",
        "Since yesterday the",
        "Our",
        "Try restarting the",
        "Same here with the",
        "Looks like the",
    ];
    let mut words: Vec<String> = vec![r.pick(STARTS).to_string()];
    for _ in 0..n {
        words.push(r.pick(WORDS).to_string());
    }
    let mut s = words.join(" ");
    s.push(*r.pick(&['.', '?', '!', '.']));
    s
}

/// The start of the UTC day `us` falls in.
pub fn day(us: i64) -> i64 {
    us - us.rem_euclid(DAY)
}

/// The UTC weekday of `us`: Monday 0 .. Sunday 6.
pub fn weekday(us: i64) -> i64 {
    (us.div_euclid(DAY) + 3).rem_euclid(7)
}

/// `us` cut to the whole second (a time kept in seconds).
pub fn secs(us: i64) -> i64 {
    us - us.rem_euclid(SECOND)
}
