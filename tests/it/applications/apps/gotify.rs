//! Gotify server (Go, gin and GORM v2; SQLite by default, MySQL/MariaDB and PostgreSQL): `messages`, as
//! `POST /message` (`MessageAPI.CreateMessage`, with an application token) writes it for the programs of one homelab,
//! and as its owner deletes messages later: 120 days to the end of September, Gotify on a NAS, on SQLite.
//! Read: gotify/server (d543a8a) model/message.go, api/message.go (`CreateMessage`, `toInternalMessage`,
//! `DeleteMessage`, `DeleteMessageWithApplication`, `DeleteMessages`), database/database.go (`New`: `AutoMigrate`,
//! `DisableForeignKeyConstraintWhenMigrating`, one connection on SQLite), database/message.go, database/application.go
//! (an application's messages go with it), plugin/manager.go (plugins' messages), router/router.go, go.mod
//! (gorm.io/gorm v1.31.2, the drivers v1.6.0), database/migration_test.go and the log of model/message.go (#863 moved
//! from jinzhu/gorm to gorm.io/gorm). go-gorm/gorm v1.31.2 migrator/migrator.go (`CreateTable`, `FullDataTypeOf`,
//! `CreateIndex`, `BuildIndexOptions`), schema/naming.go (`IndexName`); go-gorm/mysql v1.6.0 mysql.go (`DataTypeOf`,
//! `getSchemaIntAndUnitType`, `getSchemaTimeType`: `datetime(3) NULL`, `getSchemaBytesType`: `longblob`, indexes
//! inline); go-gorm/postgres v1.6.0 postgres.go and migrator.go (`bigserial`, `timestamptz`, `bytea`, `CREATE INDEX IF
//! NOT EXISTS` after the table); go-gorm/sqlite v1.6.0 sqlite.go and migrator.go (`integer PRIMARY KEY AUTOINCREMENT`).
//! The senders: louislam/uptime-kuma server/notification-providers/gotify.js (axios without a timeout, no retry;
//! title "Uptime-Kuma", priority 8); Sonarr/Sonarr (49df353) src/NzbDrone.Core/Notifications/Gotify/Gotify.cs,
//! GotifyProxy.cs, GotifyMessage.cs, GotifySettings.cs, NotificationBase.cs, NotificationService.cs (`GetMessage`),
//! NzbDrone.Common/Http/HttpClient.cs and Dispatchers/ManagedHttpDispatcher.cs (no timeout, no retry),
//! Serializer/Newtonsoft.Json/Json.cs (camelCase, nulls left out); Radarr's NotificationBase.cs and
//! NotificationService.cs (`GetMessage`); containrrr/shoutrrr pkg/services/gotify (Watchtower's: 10 s timeout, no
//! retry, priority 0); home-assistant/core homeassistant/components/rest/notify.py (10 s, no retry); grafana/alerting
//! receivers/webhook/v1/webhook.go (the JSON carries `title` and `message`, which Gotify binds; a failed send returns
//! "no retry", so the alert goes out again at the group's next 5-minute flush); healthchecks/healthchecks
//! hc/api/transports.py (`HttpTransport.request`: 10 s timeout, a second try at once while under 15 s),
//! hc/api/transports/gotify.py, templates/integrations/gotify_message.html and pushover_title.html (these last as the
//! code index holds them); curl's `--retry` (a second after a timeout, then doubling). Issues: gotify/server#680
//! (sporadic duplicate rows behind nginx), gotify/android#223 (cron checks sending the same alert every 5 minutes) and
//! #242 (doubles on the phone only), louislam/uptime-kuma#2990 and #1365 (repeated down notices), grafana/grafana#73657
//! (the webhook's fixed 30 s timeout) and #102282 ("notify retry canceled due to unrecoverable error").
//! DDL: what GORM's AutoMigrate of `model.Message` sends on a fresh install, per engine (no foreign keys); the `index`
//! tag on the primary key adds `idx_messages_id`. Checked on scratch databases of the three engines.
//! On a create: `application_id` the token's application; `title` as sent, the application's name when blank;
//! `priority` as sent, the application's default when left out; `message` as sent; `extras` the sent `extras` object
//! re-marshalled by Go (keys sorted, compact; form posts carry none: NULL); `date` `time.Now()` when the handler runs,
//! before the insert waits for the database (MySQL keeps milliseconds; go-sqlite3 would write its own text form, the
//! literals here are the harness's); `id` the sequence (a deleted message leaves a gap).
//! Later: nothing is updated. Messages are deleted for good: one by one (a swipe in the Android app, the web UI's
//! trash icon), all of an application's ("Delete all" in its view), all of the user's, or with their application.
//! Here the owner, who emptied the table before the window, clears Uptime Kuma's, Sonarr's and Radarr's every few
//! weeks, swipes away some Grafana, Home Assistant, Watchtower, Healthchecks, script and doorbell messages, and keeps
//! every backup report.
//! Retries (about 1% of the rows before deletes, 1.5% of those left): only clients that time out and try again make
//! them, and only when the server stalled past their timeout after the handler had set `date` (SQLite on the NAS's
//! disk behind a single connection; mostly at night, while backups and Watchtower's pulls load the disk): curl in the
//! backup, update and doorbell scripts (`--retry`, `--max-time` 10-20 s: the next try a second after the timeout, a
//! few a third two seconds after the second's), Healthchecks (10 s, then once more at once), Grafana (30 s; the alert
//! again at the next flush 5 minutes on: the same text for alerts whose value is fixed, a new row with the new value
//! for the others). Uptime Kuma, Sonarr and Radarr wait without limit, Watchtower and Home Assistant give up after
//! 10 s without a retry: none of theirs is doubled. No sender double-submits (the web UI has no form to send with).
//! Two in the last night, one the last evening. The owner swipes away one of a pair now and then (mostly the later),
//! never a backup report. The doorbell's retries are hidden: people ring twice or three times a few seconds apart, so
//! a copy 11 s later looks like another ring (and the owner leaves them).
//! Legitimate repeats (the norm here): Uptime Kuma's down and up notices for the same monitor and error, and its
//! resends while a monitor stays down; Sonarr's and Radarr's grab notice again after a failed download, their health
//! notices when an indexer flaps; Grafana's repeats every 4 h of a firing alert with a fixed value, and the same alert
//! firing again days later; Healthchecks' notices of a check that goes down and up again; borgmatic's "Backup completed
//! successfully" once per repository every night; the weekly restic check; apt's counts that stay the same for days;
//! the disk warning every 6 hours; Home Assistant's presence, laundry, dishwasher and letterbox notices, its garage
//! alert's repeats, the nightly low-battery notice, Frigate's person alerts a minute or two apart; doorbell rings.
//! Plain near-repeats: Sonarr's and Radarr's grab and download notices of one episode or film, season packs grabbed
//! in a burst, Grafana's repeats with a moved value, restic's nightly report, the morning briefing.
//! Guessed: the homelab, its applications and their default priorities, hosts, monitors, shows, films, alert rules,
//! checks and scripts; all rates and rhythms; when and how long the server stalls; what the owner deletes and when;
//! Radarr's Gotify notice (taken to match Sonarr's, with the film's IMDb link); Grafana's default title and message
//! templates (from memory); Healthchecks' title template (taken as Pushover's) and its priorities; Watchtower's
//! report lines; the server and all clocks in UTC, people in Europe/Berlin (CEST).
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, day, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::MySql, Engine::Postgres];

/// gorm.io/driver/sqlite: the table, then its index.
const SQLITE: &str = "CREATE TABLE `messages` (`id` integer PRIMARY KEY AUTOINCREMENT,`application_id` integer,\
`message` text,`title` text,`priority` integer,`extras` blob,`date` datetime);
CREATE INDEX `idx_messages_id` ON `messages`(`id`)";

/// gorm.io/driver/mysql: the index inline, no table options (the database's charset).
const MYSQL: &str = "CREATE TABLE `messages` (`id` bigint unsigned AUTO_INCREMENT,`application_id` bigint unsigned,\
`message` text,`title` text,`priority` bigint,`extras` longblob,`date` datetime(3) NULL,PRIMARY KEY (`id`),\
INDEX `idx_messages_id` (`id`))";

/// gorm.io/driver/postgres: uint is `bigint` (its size counted one up), the index after the table.
const POSTGRES: &str = "CREATE TABLE \"messages\" (\"id\" bigserial,\"application_id\" bigint,\"message\" text,\
\"title\" text,\"priority\" bigint,\"extras\" bytea,\"date\" timestamptz,PRIMARY KEY (\"id\"));
CREATE INDEX IF NOT EXISTS \"idx_messages_id\" ON \"messages\" (\"id\")";

/// The table as GORM's AutoMigrate of `model.Message` creates it.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Sqlite => SQLITE,
        Engine::MySql => MYSQL,
        Engine::Postgres => POSTGRES,
    }
    .to_string()
}

const COLUMNS: [&str; 7] = ["id", "application_id", "message", "title", "priority", "extras", "date"];

const NOW: i64 = T0;
const DAYS: i64 = 120;
/// A Wednesday in June.
const START: i64 = NOW - DAYS * DAY;
/// The last id before the window (the owner had deleted every message).
const ID0: i64 = 48_902;
/// Berlin in summer.
const CEST: i64 = 2 * HOUR;

/// The applications: id, name (the title of a message sent without one), default priority, the owner's "Delete all"
/// (every so many days), the share of messages swiped away one by one.
type App = (i64, &'static str, i64, Option<(i64, i64)>, f64);
#[rustfmt::skip]
const APPS: [App; 10] = [
    (1, "Uptime Kuma", 0, Some((20, 40)), 0.10),
    (2, "Sonarr", 0, Some((20, 40)), 0.05),
    (3, "Radarr", 0, Some((30, 60)), 0.05),
    (4, "Watchtower", 0, None, 0.20),
    (5, "Home Assistant", 0, None, 0.35),
    (6, "Grafana", 8, None, 0.30),
    (7, "Healthchecks", 0, None, 0.15),
    (8, "Backups", 4, None, 0.0),
    (9, "Homelab", 0, None, 0.25),
    (11, "Doorbell", 0, None, 0.05),
];
const KUMA: usize = 0;
const SONARR: usize = 1;
const RADARR: usize = 2;
const WATCHTOWER: usize = 3;
const HASS: usize = 4;
const GRAFANA: usize = 5;
const HC: usize = 6;
const BACKUPS: usize = 7;
const HOMELAB: usize = 8;
const DOORBELL: usize = 9;

/// Local (CEST) hours people do things in.
const DAYTIME: [i64; 24] = [0, 0, 0, 0, 0, 0, 1, 3, 5, 6, 7, 7, 6, 6, 6, 6, 6, 6, 5, 4, 3, 1, 0, 0];
const EVENING: [i64; 24] = [1, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 4, 5, 6, 7, 6, 5, 3, 2];
const RINGS: [i64; 24] = [0, 0, 0, 0, 0, 0, 0, 1, 3, 5, 6, 6, 6, 5, 5, 6, 6, 5, 5, 4, 2, 1, 0, 0];

/// How a sender's HTTP client deals with a request that takes too long.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Client {
    /// No timeout, or a timeout and no retry: one row whatever happens.
    Once,
    /// `curl --retry N --max-time S`: S seconds, then one second's wait, then two...
    Curl(i64, u32),
    /// Healthchecks: 10 s, then a second try at once (no third: past 15 s).
    Hc,
    /// Grafana's Alertmanager: 30 s, and the alert is sent again at the group's next flush.
    Grafana,
}

/// A message as the handler wrote it.
#[derive(Clone)]
struct Msg {
    at: i64,
    app: usize,
    title: String,
    message: String,
    priority: i64,
    extras: Option<String>,
    client: Client,
    /// Its retries look like the sender's own repeats (the doorbell).
    blind: bool,
    /// The request: a first try and its retries share it.
    grp: usize,
}

fn msg(at: i64, app: usize, title: &str, message: &str, priority: Option<i64>, client: Client) -> Msg {
    let (_, name, default, _, _) = APPS[app];
    Msg {
        at,
        app,
        title: if title.trim().is_empty() { name.to_string() } else { title.to_string() },
        message: message.to_string(),
        priority: priority.unwrap_or(default),
        extras: None,
        client,
        blind: false,
        grp: 0,
    }
}

/// The chance that the server answers only after many seconds: higher from midnight to 03:00 UTC, while restic,
/// borgmatic and Watchtower's image pulls load the NAS's disk that SQLite writes to.
fn stall(t: i64) -> f64 {
    if t.rem_euclid(DAY) < 3 * HOUR { 0.05 } else { 0.02 }
}

/// The share of stalls that outlast a client's timeout.
fn patience(c: Client) -> f64 {
    match c {
        Client::Once => 0.0,
        Client::Curl(max, _) if max <= 10 => 1.0,
        Client::Curl(max, _) if max <= 15 => 0.8,
        Client::Curl(..) => 0.65,
        Client::Hc => 1.0,
        Client::Grafana => 0.4,
    }
}

/// From a try's start to its request reaching the handler.
fn lag(r: &mut Rng) -> i64 {
    r.range(3_000, 250_000)
}

/// When the retries of a timed-out request reach the server, after the first try.
fn retries(r: &mut Rng, client: Client) -> Vec<i64> {
    let mut out = Vec::new();
    match client {
        Client::Once => {}
        Client::Curl(max, n) => {
            let (mut t, mut wait) = (0, SECOND);
            for k in 0..n {
                t += max * SECOND + wait;
                wait *= 2;
                out.push(t + lag(r));
                if k + 1 == n || !r.chance(0.15) {
                    break;
                }
            }
        }
        Client::Hc => out.push(10 * SECOND + lag(r)),
        Client::Grafana => {
            out.push(5 * MINUTE + r.range(-400_000, 400_000));
            if r.chance(0.1) {
                out.push(10 * MINUTE + r.range(-400_000, 400_000));
            }
        }
    }
    out
}

struct Out {
    v: Vec<Msg>,
    groups: usize,
    /// When each Uptime Kuma monitor is down, and each Grafana rule firing: a second outage or episode inside one
    /// sends nothing of its own.
    down: Vec<Vec<(i64, i64)>>,
    firing: Vec<Vec<(i64, i64)>>,
}

impl Out {
    fn send(&mut self, r: &mut Rng, m: Msg) {
        self.post(r, m, false);
    }

    /// One request, and the rows its client's retries add when the server stalled past the client's timeout (the
    /// first try's row is written all the same: the handler does not stop when the client goes).
    fn post(&mut self, r: &mut Rng, mut m: Msg, force: bool) {
        m.grp = self.groups;
        self.groups += 1;
        let stalled = m.client != Client::Once && (force || r.chance(stall(m.at) * patience(m.client)));
        let first = m.at;
        let client = m.client;
        self.v.push(m.clone());
        if stalled {
            for d in retries(r, client) {
                self.v.push(Msg { at: first + d, ..m.clone() });
            }
        }
    }
}

/// Takes the span [a, b) unless it overlaps one already taken.
fn claim(spans: &mut Vec<(i64, i64)>, a: i64, b: i64) -> bool {
    let free = spans.iter().all(|&(x, y)| b <= x || y <= a);
    if free {
        spans.push((a, b));
    }
    free
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

/// A time on the local day of `d0` (a UTC midnight), its hour drawn by `rhythm`.
fn local(r: &mut Rng, d0: i64, rhythm: &[i64; 24]) -> i64 {
    let h = r.weighted(rhythm) as i64;
    d0 + h * HOUR - CEST + r.range(0, 3_599) * SECOND + micros(r)
}

/// A local clock time of the day of `d0`, in UTC.
fn clock(d0: i64, h: i64, m: i64) -> i64 {
    d0 + h * HOUR + m * MINUTE - CEST
}

/// The civil date (UTC) of a time.
fn ymd(us: i64) -> (i64, i64, i64) {
    let z = us.div_euclid(DAY) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

// ---------------------------------------------------------------------------------------------------------------
// Uptime Kuma: a notice when a monitor goes down and when it is up again, and, where "Resend Notification if Down X
// times consecutively" is set, the down notice again every X heartbeats (60 s apart plus the check's own time).

/// Name, host, the errors its failed checks give (the first the usual one), resend (heartbeats, 0: off), outside the
/// house, how often it fails (relative).
type Monitor = (&'static str, &'static str, &'static [&'static str], i64, bool, i64);
#[rustfmt::skip]
const MONITORS: [Monitor; 16] = [
    ("Nextcloud", "cloud.example.net", &["Request failed with status code 502", "timeout of 48000ms exceeded"], 0,
     true, 3),
    ("Jellyfin", "192.168.10.20:8096", &["connect ECONNREFUSED 192.168.10.20:8096", "timeout of 48000ms exceeded"], 0,
     false, 5),
    ("Home Assistant", "192.168.10.30:8123", &["connect ECONNREFUSED 192.168.10.30:8123"], 30, false, 2),
    ("Vaultwarden", "vault.example.net", &["Request failed with status code 502"], 30, true, 2),
    ("Immich", "photos.example.net", &["Request failed with status code 502", "timeout of 48000ms exceeded"], 0, true,
     4),
    ("Paperless", "192.168.10.20:8000", &["connect ECONNREFUSED 192.168.10.20:8000"], 0, false, 2),
    ("Frigate", "192.168.10.31:5000", &["timeout of 48000ms exceeded", "Request failed with status code 500"], 0,
     false, 5),
    ("qBittorrent", "192.168.10.20:8080", &["connect ECONNREFUSED 192.168.10.20:8080"], 0, false, 4),
    ("Sonarr", "192.168.10.20:8989", &["connect ECONNREFUSED 192.168.10.20:8989"], 0, false, 1),
    ("Radarr", "192.168.10.20:7878", &["connect ECONNREFUSED 192.168.10.20:7878"], 0, false, 1),
    ("Gitea", "git.example.net", &["Request failed with status code 502"], 0, true, 1),
    ("Blog", "blog.example.net", &["Request failed with status code 503", "timeout of 48000ms exceeded"], 60, true,
     2),
    ("Mail", "mail.example.net", &["timeout of 48000ms exceeded"], 30, true, 1),
    ("Proxmox pve1", "192.168.10.5:8006", &["connect EHOSTUNREACH 192.168.10.5:8006"], 20, false, 1),
    ("Grafana", "192.168.10.20:3000", &["connect ECONNREFUSED 192.168.10.20:3000"], 0, false, 1),
    ("Pi-hole", "192.168.10.2:80", &["connect ECONNREFUSED 192.168.10.2:80"], 15, false, 2),
];

fn kuma(at: i64, text: &str) -> Msg {
    msg(at, KUMA, "Uptime-Kuma", text, Some(8), Client::Once)
}

/// A monitor down from `t` to `end`: the notice, its resends, the notice that it is up.
fn outage(out: &mut Out, r: &mut Rng, i: usize, t: i64, end: i64, err: &str) {
    let (name, _, _, resend, _, _) = MONITORS[i];
    if !claim(&mut out.down[i], t - 2 * MINUTE, end + 2 * MINUTE) {
        return;
    }
    let check = if err.starts_with("timeout") { 48 * SECOND } else { r.range(5_000, 200_000) };
    let down = format!("[{name}] [🔴 Down] {err}");
    out.send(r, kuma(t, &down));
    let mut at = t;
    if resend > 0 {
        loop {
            at += resend * (60 * SECOND + check) + r.range(0, 40_000);
            if at >= end {
                break;
            }
            out.send(r, kuma(at, &down));
        }
    }
    out.send(r, kuma(end, &format!("[{name}] [✅ Up] 200 - OK")));
}

/// What a monitor says while its container restarts.
fn refused(i: usize) -> String {
    let (_, host, errors, _, outside, _) = MONITORS[i];
    if outside { errors[0].to_string() } else { format!("connect ECONNREFUSED {host}") }
}

fn uptime_kuma(out: &mut Out, r: &mut Rng) {
    let flaky: Vec<i64> = MONITORS.iter().map(|m| m.5).collect();
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        for _ in 0..r.poisson(1.4) {
            let i = r.weighted(&flaky);
            let t = d0 + r.range(0, 86_399) * SECOND + micros(r);
            let errors = MONITORS[i].2;
            let err = if r.chance(0.75) { errors[0] } else { r.one(errors) };
            let secs = match r.weighted(&[55, 33, 12]) {
                0 => r.range(60, 420),
                1 => r.range(600, 5_400),
                _ => r.range(7_200, 32_400),
            };
            let end = t + secs * SECOND + micros(r);
            outage(out, r, i, t, end, err);
        }
        if r.chance(1.0 / 12.0) {
            // The internet connection drops: every outside monitor fails on DNS within its heartbeat.
            let t = d0 + r.range(0, 86_399) * SECOND;
            let end = t + r.range(120, 1_500) * SECOND;
            for (i, m) in MONITORS.iter().enumerate().filter(|(_, m)| m.4) {
                let (a, b) = (t + r.range(0, 59) * SECOND + micros(r), end + r.range(0, 59) * SECOND + micros(r));
                outage(out, r, i, a, b, &format!("getaddrinfo EAI_AGAIN {}", m.1));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Sonarr and Radarr: JSON with the poster (`IncludeSeriesPoster`) and an IMDb link (`MetadataLinks`) in markdown, the
// same in `extras`; health notices in plain text. Priority 5 (the setting's default).

/// Title, IMDb id, TVDB id, the UTC weekday its episodes are grabbed, the quality profile's usual quality.
#[rustfmt::skip]
const SERIES: [(&str, &str, i64, i64, &str); 12] = [
    ("The Bear", "tt14452776", 403_245, 3, "WEBDL-1080p"),
    ("Slow Horses", "tt5875444", 347_354, 2, "WEBDL-2160p"),
    ("Severance", "tt11280740", 371_980, 5, "WEBDL-2160p"),
    ("Only Murders in the Building", "tt11691774", 383_275, 1, "WEBDL-1080p"),
    ("The Boys", "tt1190634", 355_567, 3, "WEBDL-1080p"),
    ("Foundation", "tt0804484", 366_972, 5, "WEBDL-2160p"),
    ("Bluey", "tt7678620", 353_545, 0, "WEBDL-1080p"),
    ("Taskmaster", "tt4934214", 305_288, 4, "HDTV-720p"),
    ("Reacher", "tt9288030", 366_924, 4, "WEBDL-1080p"),
    ("Abbott Elementary", "tt14218830", 396_769, 3, "WEBDL-1080p"),
    ("Shōgun", "tt2788316", 392_573, 2, "WEBDL-2160p"),
    ("The Rings of Power", "tt7631058", 367_506, 4, "WEBDL-2160p"),
];
const EPISODE_TITLES: &[&str] = &[
    "Homecoming",
    "Crossroads",
    "Fallout",
    "Legacy",
    "Ashes",
    "Tides",
    "Loose Ends",
    "Old Friends",
    "Exit Strategy",
    "Overtime",
    "Blackout",
    "Signals",
    "Gravity",
    "The Long Night",
    "Reunion",
    "Sunday",
    "Thaw",
    "Parallax",
    "Forks",
    "Review",
    "Ice Chips",
    "Tonight",
    "Dead Weight",
    "The Visit",
];
/// Title, year, IMDb id, the quality grabbed.
#[rustfmt::skip]
const FILMS: [(&str, i64, &str, &str); 24] = [
    ("Dune: Part Two", 2024, "tt15239678", "WEBDL-2160p"),
    ("Oppenheimer", 2023, "tt15398776", "Bluray-1080p"),
    ("Past Lives", 2023, "tt13238346", "WEBDL-1080p"),
    ("The Holdovers", 2023, "tt14849194", "Bluray-1080p"),
    ("Poor Things", 2023, "tt14230458", "Bluray-1080p"),
    ("Civil War", 2024, "tt17279496", "WEBDL-1080p"),
    ("Furiosa: A Mad Max Saga", 2024, "tt12037194", "WEBDL-2160p"),
    ("Inside Out 2", 2024, "tt22022452", "WEBDL-1080p"),
    ("The Zone of Interest", 2023, "tt7160372", "Bluray-1080p"),
    ("Anatomy of a Fall", 2023, "tt17009710", "Bluray-1080p"),
    ("Perfect Days", 2023, "tt27503384", "WEBDL-1080p"),
    ("Challengers", 2024, "tt16426418", "WEBDL-1080p"),
    ("Conclave", 2024, "tt20215234", "WEBDL-2160p"),
    ("The Wild Robot", 2024, "tt29623480", "WEBDL-2160p"),
    ("Flow", 2024, "tt4772188", "WEBDL-1080p"),
    ("Arrival", 2016, "tt2543164", "Bluray-1080p"),
    ("Blade Runner 2049", 2017, "tt1856101", "Remux-2160p"),
    ("Paddington 2", 2017, "tt4468740", "Bluray-1080p"),
    ("The Martian", 2015, "tt3659388", "Bluray-1080p"),
    ("Spirited Away", 2001, "tt0245429", "Bluray-1080p"),
    ("Heat", 1995, "tt0113277", "Bluray-1080p"),
    ("Knives Out", 2019, "tt8946378", "Bluray-1080p"),
    ("Everything Everywhere All at Once", 2022, "tt6710474", "WEBDL-2160p"),
    ("Nope", 2022, "tt10954984", "WEBDL-1080p"),
];
#[rustfmt::skip]
const HEALTH: [&str; 4] = [
    "Indexers unavailable due to failures: NZBgeek",
    "All indexers are unavailable due to failures",
    "Unable to communicate with SABnzbd. Connection refused (192.168.10.20:8085)",
    "Indexers unavailable due to failures for more than 6 hours: NZBgeek",
];

/// A notice as `Gotify.SendNotification` builds it: with the poster and the IMDb link when about a show or a film.
fn servarr(at: i64, app: usize, title: &str, text: &str, media: Option<(&str, &str)>) -> Msg {
    let mut m = msg(at, app, title, "", Some(5), Client::Once);
    match media {
        Some((poster, link)) => {
            m.message = format!("{text}\n\r![]({poster})\n\n[IMDb]({link})\n");
            m.extras = Some(format!(
                "{{\"client::display\":{{\"contentType\":\"text/markdown\"}},\"client::notification\":\
                 {{\"bigImageUrl\":\"{poster}\",\"click\":{{\"url\":\"{link}\"}}}}}}"
            ));
        }
        None => {
            m.message = format!("{text}\n");
            m.extras = Some("{\"client::display\":{\"contentType\":\"text/plain\"}}".to_string());
        }
    }
    m
}

/// A grab, maybe a failed download and the grab again (the same release quality: the same notice), the import.
#[allow(clippy::too_many_arguments)]
fn grab(out: &mut Out, r: &mut Rng, app: usize, t: i64, text: &str, poster: &str, link: &str, wait: (i64, i64)) {
    let (grabbed, downloaded) =
        if app == SONARR { ("Episode Grabbed", "Episode Downloaded") } else { ("Movie Grabbed", "Movie Downloaded") };
    let media = Some((poster, link));
    out.send(r, servarr(t, app, grabbed, text, media));
    let mut t = t;
    if r.chance(0.06) {
        // Failed download handling: blocklisted, searched again, another release of that quality grabbed.
        t += r.range(8 * 60, 70 * 60) * SECOND + micros(r);
        out.send(r, servarr(t, app, grabbed, text, media));
    }
    let done = t + r.range(wait.0, wait.1) * SECOND + micros(r);
    out.send(r, servarr(done, app, downloaded, text, media));
}

fn health(out: &mut Out, r: &mut Rng, app: usize, rate: f64) {
    for d in 0..DAYS {
        if r.chance(rate) {
            let t = START + d * DAY + r.range(0, 86_399) * SECOND + micros(r);
            let text = r.one(&HEALTH);
            out.send(r, servarr(t, app, "Health Check Failure", text, None));
            let back = t + r.range(3_600, 14 * 3_600) * SECOND + micros(r);
            let resolved = format!("The following issue is now resolved: {text}");
            out.send(r, servarr(back, app, "Health Check Restored", &resolved, None));
        }
    }
}

/// A grab at one of Sonarr's RSS syncs (every 15 minutes) of the UTC day `d0`, between two hours.
fn rss(r: &mut Rng, d0: i64, from: i64, to: i64) -> i64 {
    d0 + r.range(from * 4, to * 4 - 1) * 15 * MINUTE + r.range(1, 40) * SECOND + micros(r)
}

fn sonarr(out: &mut Out, r: &mut Rng) {
    let posters: Vec<String> = SERIES
        .iter()
        .map(|s| format!("https://artworks.thetvdb.com/banners/v4/series/{}/posters/{}.jpg", s.2, r.hex(24)))
        .collect();
    let mut next: Vec<(i64, i64)> = SERIES.iter().map(|_| (1 + r.range(0, 3), 1 + r.range(0, 6))).collect();
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        for (s, &(name, imdb, _, airs, quality)) in SERIES.iter().enumerate() {
            if weekday(d0) != airs || !r.chance(0.8) {
                continue;
            }
            let (season, ep) = next[s];
            next[s] = if ep >= 10 && r.chance(0.5) { (season + 1, 1) } else { (season, ep + 1) };
            let text = format!("{name} - {season}x{ep:02} - {} [{quality}]", r.one(EPISODE_TITLES));
            let link = format!("https://www.imdb.com/title/{imdb}");
            let t = rss(r, d0, 1, 7);
            grab(out, r, SONARR, t, &text, &posters[s], &link, (240, 2_700));
            if r.chance(0.05) {
                // A repack of the episode: a proper, grabbed and imported as an upgrade.
                let text = text.replace(&format!("[{quality}]"), &format!("[{quality} Proper]"));
                let t = t + r.range(6 * 3_600, 30 * 3_600) * SECOND;
                grab(out, r, SONARR, t, &text, &posters[s], &link, (240, 2_700));
            }
        }
    }
    // A show added with its back catalogue: the season's episodes grabbed at once, imported over the next hours.
    for (day0, s, season) in [(34, 1, 1), (77, 10, 1)] {
        let d0 = START + day0 * DAY;
        let (name, imdb, _, _, quality) = SERIES[s];
        let link = format!("https://www.imdb.com/title/{imdb}");
        let mut t = local(r, d0, &EVENING);
        for ep in 1..=r.range(6, 10) {
            t += r.range(300, 4_000) * 1_000;
            let text = format!("{name} - {season}x{ep:02} - {} [{quality}]", r.one(EPISODE_TITLES));
            grab(out, r, SONARR, t, &text, &posters[s], &link, (1_800, 6 * 3_600));
        }
    }
    health(out, r, SONARR, 1.0 / 7.0);
}

fn radarr(out: &mut Out, r: &mut Rng) {
    let posters: Vec<String> =
        FILMS.iter().map(|_| format!("https://image.tmdb.org/t/p/original/{}.jpg", r.alnum(27))).collect();
    for d in 0..DAYS {
        if !r.chance(0.7) {
            continue;
        }
        let d0 = START + d * DAY;
        let f = r.skewed(FILMS.len() as u64) as usize;
        let (name, year, imdb, quality) = FILMS[f];
        let quality = if r.chance(0.1) { "WEBDL-720p" } else { quality };
        let url = format!("https://www.imdb.com/title/{imdb}/");
        let text = format!("{name} ({year}) [{quality}] {url}");
        let t = if r.chance(0.6) { local(r, d0, &EVENING) } else { rss(r, d0, 0, 24) };
        grab(out, r, RADARR, t, &text, &posters[f], url.trim_end_matches('/'), (600, 5_400));
    }
    health(out, r, RADARR, 1.0 / 15.0);
}

// ---------------------------------------------------------------------------------------------------------------
// Watchtower (shoutrrr): at 04:00 local, a report of the containers it updated, if any; its start-up notice when it
// updated itself. Each updated container restarts, which its Uptime Kuma monitor may catch.

/// Container, image, its Uptime Kuma monitor.
#[rustfmt::skip]
const CONTAINERS: [(&str, &str, Option<usize>); 12] = [
    ("sonarr", "lscr.io/linuxserver/sonarr:latest", Some(8)),
    ("radarr", "lscr.io/linuxserver/radarr:latest", Some(9)),
    ("qbittorrent", "lscr.io/linuxserver/qbittorrent:latest", Some(7)),
    ("jellyfin", "jellyfin/jellyfin:latest", Some(1)),
    ("immich_server", "ghcr.io/immich-app/immich-server:release", Some(4)),
    ("paperless", "ghcr.io/paperless-ngx/paperless-ngx:latest", Some(5)),
    ("vaultwarden", "vaultwarden/server:latest", Some(3)),
    ("grafana", "grafana/grafana-oss:latest", Some(14)),
    ("uptime-kuma", "louislam/uptime-kuma:1", None),
    ("pihole", "pihole/pihole:latest", Some(15)),
    ("nextcloud", "nextcloud:stable-apache", Some(0)),
    ("watchtower", "containrrr/watchtower:latest", None),
];

fn watchtower(out: &mut Out, r: &mut Rng) {
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        if !r.chance(0.4) {
            continue;
        }
        let n = 1 + r.weighted(&[6, 3, 1]);
        let mut picked: Vec<usize> = Vec::new();
        while picked.len() < n {
            let c = r.below(CONTAINERS.len() as u64) as usize;
            if !picked.contains(&c) {
                picked.push(c);
            }
        }
        picked.sort_unstable();
        let mut lines: Vec<String> = Vec::new();
        for &c in &picked {
            lines.push(format!("Found new {} image ({})", CONTAINERS[c].1, r.hex(12)));
        }
        let mut t = clock(d0, 4, 0) + r.range(20, 150) * SECOND;
        for &c in &picked {
            let name = CONTAINERS[c].0;
            lines.push(format!("Stopping /{name} ({}) with SIGTERM", r.hex(12)));
            lines.push(format!("Creating /{name}"));
            t += r.range(4, 15) * SECOND;
            if let Some(i) = CONTAINERS[c].2
                && r.chance(0.5)
            {
                let a = t + r.range(2, 50) * SECOND + micros(r);
                let b = a + r.range(55, 65) * SECOND + micros(r);
                outage(out, r, i, a, b, &refused(i));
            }
        }
        for _ in &picked {
            lines.push(format!("Removing image {}", r.hex(12)));
        }
        t += r.range(1, 6) * SECOND + micros(r);
        out.send(r, msg(t, WATCHTOWER, "Watchtower updates on nas01", &lines.join("\n"), Some(0), Client::Once));
        if picked.contains(&(CONTAINERS.len() - 1)) {
            // The new Watchtower starts and announces its schedule.
            let t = t + r.range(8, 30) * SECOND + micros(r);
            let (y, m, dd) = ymd(d0 + DAY);
            let left = 4 * HOUR + DAY - (t + CEST).rem_euclid(DAY);
            let (hh, mm, ss) = (left / HOUR, left % HOUR / MINUTE, left % MINUTE / SECOND);
            let text = format!(
                "Watchtower 1.7.1\nUsing notifications: gotify\nChecking all containers (except explicitly disabled \
                 with label)\nScheduling first run: {y}-{m:02}-{dd:02} 04:00:00 +0200 CEST\nNote that the first check \
                 will be performed in {hh} hours, {mm} minutes, {ss} seconds"
            );
            out.send(r, msg(t, WATCHTOWER, "Watchtower updates on nas01", &text, Some(0), Client::Once));
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Home Assistant: the RESTful notify platform, a form POST with `title`, `message` and `priority` from the call's data.

fn hass(at: i64, title: &str, text: &str, priority: i64) -> Msg {
    msg(at, HASS, title, text, Some(priority), Client::Once)
}

/// Sensors with a low battery: name, first and last day reported, the level on the first.
const BATTERIES: [(&str, i64, i64, i64); 3] =
    [("Hallway motion sensor", 8, 27, 14), ("Back door contact", 52, 71, 12), ("Bathroom thermometer", 93, 119, 15)];
const WEATHER: [&str; 6] = ["sunny", "partly cloudy", "cloudy", "showers", "thunderstorms later", "light rain"];

fn home_assistant(out: &mut Out, r: &mut Rng) {
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let weekend = weekday(d0) >= 5;
        // The morning briefing at 06:30.
        let (lo, hi) = if d < 75 { (r.range(12, 18), r.range(22, 33)) } else { (r.range(7, 13), r.range(15, 23)) };
        let bins = match weekday(d0) {
            1 => " Bin collection: paper.",
            3 => " Bin collection: packaging.",
            0 if d % 14 == 6 => " Bin collection: residual waste.",
            _ => "",
        };
        let text = format!("Today {lo}–{hi} °C, {}.{bins}", r.one(&WEATHER));
        let t = clock(d0, 6, 30) + r.range(0, 2_000_000);
        out.send(r, hass(t, "Good morning", &text, 3));
        // Commutes, and trips at the weekend.
        for (who, leave, back) in [("Anna", (7, 40), (17, 30)), ("Ben", (8, 15), (18, 10))] {
            let trip = if !weekend && !r.chance(0.15) {
                let a = clock(d0, leave.0, leave.1) + r.range(-1_200, 1_200) * SECOND + micros(r);
                Some((a, clock(d0, back.0, back.1) + r.range(-2_700, 3_600) * SECOND + micros(r)))
            } else if r.chance(0.55) {
                let a = local(r, d0, &DAYTIME);
                Some((a, a + r.range(3_600, 5 * 3_600) * SECOND + micros(r)))
            } else {
                None
            };
            if let Some((a, b)) = trip {
                out.send(r, hass(a, "Presence", &format!("{who} left home"), 3));
                out.send(r, hass(b, "Presence", &format!("{who} arrived home"), 3));
            }
        }
        if r.chance(if weekend { 0.8 } else { 0.45 }) {
            let t = local(r, d0, &EVENING);
            out.send(r, hass(t, "Laundry", "The washing machine is done 🧺", 5));
        }
        if r.chance(0.7) {
            let t = clock(d0, 21, 0) + r.range(30 * 60, 4 * 3_600) * SECOND + micros(r);
            out.send(r, hass(t, "Kitchen", "The dishwasher is done", 5));
        }
        if !weekend && r.chance(0.6) {
            let t = clock(d0, 10, 0) + r.range(0, 3 * 3_600) * SECOND + micros(r);
            out.send(r, hass(t, "Letterbox", "You've got mail 📬", 4));
        }
        if r.chance(0.12) {
            // The alert integration: after 10 minutes open, then every 30, and the done message.
            let opened = local(r, d0, &DAYTIME);
            let closed = opened + r.range(11 * 60, 3 * 3_600) * SECOND + micros(r);
            let mut t = opened + 10 * MINUTE + r.range(0, 30_000);
            while t < closed {
                out.send(r, hass(t, "Garage", "The garage door is open", 8));
                t += 30 * MINUTE + r.range(0, 30_000);
            }
            let t = closed + r.range(0, 2_000_000);
            out.send(r, hass(t, "Garage", "The garage door is closed", 8));
        }
        for _ in 0..r.poisson(1.0) {
            // Frigate's person alert, at most once a minute while someone stays in view.
            let mut t = local(r, d0, &DAYTIME);
            for _ in 0..1 + r.weighted(&[5, 3, 2, 1]) {
                out.send(r, hass(t, "Frigate", "Person detected in the driveway", 6));
                t += r.range(61, 170) * SECOND + micros(r);
            }
        }
        // The battery check at 19:00.
        for &(sensor, from, _, level) in BATTERIES.iter().filter(|b| (b.1..=b.2).contains(&d)) {
            let pct = level - (d - from) / 4;
            let t = clock(d0, 19, 0) + r.range(0, 3_000_000);
            out.send(r, hass(t, "Batteries", &format!("Low battery: {sensor} ({pct}%)"), 5));
        }
    }
    for (d, h) in [(23, 15), (88, 21)] {
        let t = clock(START + d * DAY, h, 0) + r.range(0, 3_599) * SECOND + micros(r);
        let temp = format!("The freezer is at -{}.{} °C", r.range(9, 12), r.below(10));
        out.send(r, hass(t, "Kitchen", &format!("{temp}. Is the door closed?"), 8));
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Grafana: the webhook contact point posts its JSON (`title` and `message` among others, no `priority`: the
// application's default) to /message; group_wait 30 s, group_interval 5 min, repeat_interval 4 h.

/// Rule uid, alert name, its other labels (sorted), the summary annotation, whether its value is fixed.
type Rule = (&'static str, &'static str, &'static [(&'static str, &'static str)], &'static str, bool);
#[rustfmt::skip]
const RULES: [Rule; 5] = [
    ("de5x3k2ab1vcwd", "DiskUsageHigh", &[("instance", "nas01:9100"), ("mountpoint", "/mnt/media")],
     "Disk usage above 90%", false),
    ("be1q9z7mjk3nkb", "CPUTemperatureHigh", &[("instance", "pve1:9100")], "CPU package temperature above 80 °C",
     false),
    ("ae7s2l0vr5tdsc", "TargetDown", &[("instance", "rpi-zero:9100"), ("job", "node")],
     "The target has been unreachable for 5 minutes", true),
    ("fe3m8x1hh2pk0d", "UPSOnBattery", &[("instance", "nut:9199"), ("ups", "eaton")], "The UPS is running on battery",
     true),
    ("ce0w4b6tn9yqpe", "ContainerRestarting", &[("container", "immich_machine_learning"), ("instance", "nas01:8080")],
     "A container restarted 3 times in 15 minutes", false),
];
const DISK: usize = 0;
const CPU: usize = 1;
const TARGET: usize = 2;
const UPS: usize = 3;
const RESTARTS: usize = 4;
const GRAFANA_URL: &str = "http://grafana.lan:3000";

fn escape(s: &str) -> String {
    s.replace(':', "%3A").replace('/', "%2F")
}

fn value(r: &mut Rng, rule: usize, firing: bool) -> String {
    let c = u8::from(firing);
    match rule {
        DISK if firing => format!("B={}.{:02}, C=1", 90 + r.below(6), r.below(100)),
        DISK => format!("B={}.{:02}, C=0", 78 + r.below(10), r.below(100)),
        CPU if firing => format!("B={}, C=1", 80 + r.below(12)),
        CPU => format!("B={}, C=0", 68 + r.below(10)),
        TARGET => format!("A={}, C={c}", 1 - c),
        UPS => format!("A={c}, C={c}"),
        _ if firing => format!("B={}, C=1", 3 + r.below(3)),
        _ => "B=0, C=0".to_string(),
    }
}

/// The default title and message templates of Grafana's webhook.
fn alert(at: i64, rule: usize, firing: bool, value: &str) -> Msg {
    let (uid, name, labels, summary, fixed) = RULES[rule];
    let others: Vec<&str> = labels.iter().map(|l| l.1).collect();
    let status = if firing { "[FIRING:1]" } else { "[RESOLVED]" };
    let title = format!("{status} {name} Homelab ({})", others.join(" "));
    let mut text = format!(
        "**{}**\n\nValue: {value}\nLabels:\n - alertname = {name}\n - grafana_folder = Homelab\n",
        if firing { "Firing" } else { "Resolved" }
    );
    for (k, v) in labels {
        text += &format!(" - {k} = {v}\n");
    }
    text += &format!("Annotations:\n - summary = {summary}\n");
    text += &format!("Source: {GRAFANA_URL}/alerting/grafana/{uid}/view?orgId=1\n");
    text += &format!("Silence: {GRAFANA_URL}/alerting/silence/new?alertmanager=grafana");
    text += &format!("&matcher=__alert_rule_uid__%3D{uid}");
    for (k, v) in labels {
        text += &format!("&matcher={k}%3D{}", escape(v));
    }
    text += "&orgId=1\n";
    msg(at, GRAFANA, &title, &text, None, if fixed { Client::Grafana } else { Client::Once })
}

/// A notification; if its send timed out, the next flush sends the alert again: the same request when the value is
/// fixed, else with the value of the latest evaluation (a new row, not a copy).
fn notify(out: &mut Out, r: &mut Rng, at: i64, rule: usize, firing: bool) {
    let v = value(r, rule, firing);
    out.send(r, alert(at, rule, firing, &v));
    if !RULES[rule].4 && r.chance(stall(at) * patience(Client::Grafana)) {
        let v = value(r, rule, firing);
        let t = at + 5 * MINUTE + r.range(-400_000, 400_000);
        out.send(r, alert(t, rule, firing, &v));
    }
}

/// An alert firing from `start` to `end` (its pending period `pending`), silenced from `silence` on.
fn episode(out: &mut Out, r: &mut Rng, rule: usize, start: i64, end: i64, pending: i64, silence: Option<i64>) {
    let fire = start + pending + r.range(0, 59) * SECOND + 30 * SECOND + r.range(0, 300_000);
    if fire >= end || !claim(&mut out.firing[rule], start, end + 10 * MINUTE) {
        return;
    }
    let muted = |t: i64| silence.is_some_and(|s| t >= s);
    notify(out, r, fire, rule, true);
    let mut t = fire + 4 * HOUR + r.range(0, 1_500_000);
    while t < end && !muted(t) {
        notify(out, r, t, rule, true);
        t += 4 * HOUR + r.range(0, 1_500_000);
    }
    // Resolved at the next evaluation, sent at the next flush (flushes every 5 minutes since the first).
    let seen = end + r.range(0, 59) * SECOND;
    let flush = fire + ((seen - fire) / (5 * MINUTE) + 1) * 5 * MINUTE + r.range(0, 300_000);
    if !muted(flush) {
        notify(out, r, flush, rule, false);
    }
}

fn grafana(out: &mut Out, r: &mut Rng) {
    // The media disk filling up, twice: silenced after a day or two, cleaned up later.
    for (from, to) in [(18, 33), (84, 96)] {
        let start = START + from * DAY + r.range(0, 86_399) * SECOND;
        let end = START + to * DAY + r.range(0, 86_399) * SECOND;
        let silence = start + r.range(20, 50) * HOUR;
        episode(out, r, DISK, start, end, 5 * MINUTE, Some(silence));
    }
    // Hot afternoons.
    for _ in 0..7 {
        let d0 = START + r.range(5, 70) * DAY;
        let start = clock(d0, 14, 0) + r.range(0, 4 * 3_600) * SECOND;
        let end = start + r.range(15 * 60, 90 * 60) * SECOND;
        episode(out, r, CPU, start, end, 5 * MINUTE, None);
    }
    // The Pi Zero unplugged: briefly twice, once for two and a half days.
    for (d, secs) in [(12, 35 * 60), (47, 220_000), (101, 12 * 60)] {
        let start = START + d * DAY + r.range(0, 86_399) * SECOND;
        episode(out, r, TARGET, start, start + secs * SECOND, 5 * MINUTE, None);
    }
    // Power blips.
    for (d, h) in [(29, 14), (66, 3), (108, 19)] {
        let start = START + d * DAY + h * HOUR + r.range(0, 3_599) * SECOND;
        let end = start + r.range(150, 540) * SECOND;
        episode(out, r, UPS, start, end, MINUTE, None);
    }
    for _ in 0..9 {
        let start = START + r.range(0, DAYS - 1) * DAY + r.range(0, 86_399) * SECOND;
        let end = start + r.range(15 * 60, 60 * 60) * SECOND;
        episode(out, r, RESTARTS, start, end, 5 * MINUTE, None);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Healthchecks (self-hosted): a check goes down when its ping is late past the grace time, up at the next ping.

/// Name, period (hours), grace (minutes), the UTC hour its job pings.
#[rustfmt::skip]
const CHECKS: [(&str, i64, i64, i64); 5] = [
    ("nightly-restic", 24, 60, 1), ("borgmatic-pve1", 24, 60, 2), ("nextcloud-db-dump", 24, 60, 21),
    ("photo-sync", 1, 30, -1), ("certbot-renew", 24, 120, 3),
];

/// Django's `naturaltime` for a time that far back.
fn ago(us: i64) -> String {
    let (d, h, m) = (us / DAY, us % DAY / HOUR, us % HOUR / MINUTE);
    let plural = |n: i64, unit: &str| if n == 1 { format!("1 {unit}") } else { format!("{n} {unit}s") };
    if d > 0 && h > 0 {
        format!("{}, {} ago", plural(d, "day"), plural(h, "hour"))
    } else if d > 0 {
        format!("{} ago", plural(d, "day"))
    } else if h == 1 {
        "an hour ago".to_string()
    } else if h > 1 {
        format!("{h} hours ago")
    } else {
        format!("{} ago", plural(m.max(1), "minute"))
    }
}

fn healthchecks(out: &mut Out, r: &mut Rng) {
    let urls: Vec<String> = CHECKS.iter().map(|_| format!("https://hc.example.net/cloaked/{}/", r.alnum(24))).collect();
    // Every incident first: (check, down, up, the last ping before it, forced retry of the down notice).
    let mut incidents: Vec<(usize, i64, i64, i64, bool)> = Vec::new();
    let mut spans: Vec<Vec<(i64, i64)>> = vec![Vec::new(); CHECKS.len()];
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        for (c, &(_, period, grace, hour)) in CHECKS.iter().enumerate() {
            if period == 24 && r.chance(0.022) {
                // The job did not run or failed: down an hour after it was due, up when rerun in the morning or at
                // the next night's run.
                let last = d0 + hour * HOUR + r.range(60, 1_500) * SECOND - DAY;
                let down = last + DAY + grace * MINUTE + r.range(1, 30) * SECOND + micros(r);
                let up = if r.chance(0.7) {
                    local(r, d0 + DAY, &DAYTIME).max(down + HOUR)
                } else {
                    last + 2 * DAY + r.range(0, 600) * SECOND
                };
                if claim(&mut spans[c], last, up) {
                    incidents.push((c, down, up, last, false));
                }
            } else if period == 1 && r.chance(0.15) {
                let last = local(r, d0, &DAYTIME);
                let down = last + HOUR + grace * MINUTE + r.range(1, 30) * SECOND + micros(r);
                let up = down + r.range(1_800, 8 * 3_600) * SECOND;
                if claim(&mut spans[c], last, up) {
                    incidents.push((c, down, up, last, false));
                }
            }
        }
    }
    // The last afternoon: the phone's photo sync stops while the server stalls.
    let last = NOW - 7 * HOUR - r.range(0, 1_800) * SECOND - micros(r);
    let (down, up) = (last + 90 * MINUTE + r.range(1, 30) * SECOND, NOW - 3 * HOUR + r.range(0, 900) * SECOND);
    if claim(&mut spans[3], last, up) {
        incidents.push((3, down, up + micros(r), last, true));
    }
    let snapshot = incidents.clone();
    for (c, down, up, last, force) in incidents {
        let (name, ..) = CHECKS[c];
        for (status, at) in [(true, down), (false, up)] {
            let others: Vec<String> = snapshot
                .iter()
                .filter(|o| o.0 != c && o.1 <= at && at < o.2)
                .map(|o| format!("- [{}]({}) (last ping: {})", CHECKS[o.0].0, urls[o.0], ago(at - o.3)))
                .collect();
            let tail = if others.is_empty() {
                "All the other checks are up.".to_string()
            } else {
                let verb = if status { "also" } else { "still" };
                format!("The following checks are {verb} down:\n{}", others.join("\n"))
            };
            let (title, text, priority) = if status {
                let head = format!("🔴 The check [{name}]({}) is **DOWN**. Last ping was {}.", urls[c], ago(at - last));
                (format!("{name} is DOWN"), format!("{head}\n\n{tail}"), 8)
            } else {
                let head = format!("🟢 The check [{name}]({}) is now **UP**.", urls[c]);
                (format!("{name} is now UP"), format!("{head}\n\n{tail}"), 3)
            };
            let mut m = msg(at, HC, &title, &text, Some(priority), Client::Hc);
            m.extras = Some("{\"client::display\":{\"contentType\":\"text/markdown\"}}".to_string());
            out.post(r, m, force && status);
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The cron scripts: curl with a form (`-F title=… -F message=… -F priority=…`), some with `--retry`.

fn size(r: &mut Rng) -> String {
    if r.chance(0.4) {
        format!("{}.{} MiB", r.range(40, 999), r.below(10))
    } else {
        format!("{}.{:03} GiB", r.range(1, 9), r.below(1_000))
    }
}

fn backups(out: &mut Out, r: &mut Rng) {
    let restic = Client::Curl(15, 3);
    let borg = Client::Curl(20, 2);
    let mut dump = 412;
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        // restic on the NAS at 02:30.
        let secs = r.range(180, 1_500);
        let t = clock(d0, 2, 30) + secs * SECOND + r.range(1, 3) * SECOND + micros(r);
        let text = if r.chance(0.03) {
            ("Fatal: unable to create lock in backend: repository is already locked exclusively".to_string(), 8)
        } else {
            let (files, changed) = (r.range(0, 2_400), r.range(3, 400));
            let took = format!("{}m{:02}s", secs / 60, secs % 60);
            (format!("Backup finished: {files} new, {changed} changed, {} added, took {took}", size(r)), 4)
        };
        // The last night the server stalls through both scripts' first sends.
        let last = d == DAYS - 1;
        out.post(r, msg(t, BACKUPS, "restic nas01", &text.0, Some(text.1), restic), last);
        // borgmatic on pve1 at 03:00, its after_backup hook once per repository: the local one, then the offsite.
        let mut t = clock(d0, 3, 0) + r.range(360, 1_200) * SECOND + micros(r);
        for repo in 0..2 {
            let m = msg(t, BACKUPS, "borgmatic pve1", "Backup completed successfully", Some(4), borg);
            out.post(r, m, last && repo == 0);
            t += r.range(600, 2_700) * SECOND + micros(r);
        }
        // The Nextcloud database dump at 23:00: message only (title and priority the application's).
        dump += r.range(0, 2);
        let (y, m, dd) = ymd(d0);
        let text = format!("nextcloud-{y}{m:02}{dd:02}.sql.gz written ({dump} MB)");
        let t = clock(d0, 23, 0) + r.range(40, 200) * SECOND + micros(r);
        out.send(r, msg(t, BACKUPS, "", &text, None, Client::Curl(10, 2)));
        if weekday(d0) == 6 {
            let t = clock(d0, 5, 0) + r.range(600, 2_400) * SECOND + micros(r);
            out.send(r, msg(t, BACKUPS, "restic nas01", "restic check: no errors were found", Some(2), restic));
        }
    }
}

fn homelab(out: &mut Out, r: &mut Rng) {
    // apt on three hosts at 06:00, 06:02 and 06:05: the pending counts, until the owner upgrades.
    let mut pending = [(0, 0); 3];
    let mut ip_due = START + r.range(1, 6) * DAY;
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        for (h, (host, minute)) in [("pve1", 0), ("nas01", 2), ("rpi4", 5)].into_iter().enumerate() {
            let (n, s) = &mut pending[h];
            if r.chance(0.3) {
                let new = r.range(1, 6);
                *n += new;
                *s += i64::from(r.chance(0.3)).min(new);
            }
            if *n > 0 {
                let t = clock(d0, 6, minute) + r.range(1, 20) * SECOND + micros(r);
                let text = format!("{host}: {n} packages can be upgraded ({s} security updates)");
                out.send(r, msg(t, HOMELAB, "apt", &text, Some(2), Client::Curl(10, 2)));
                if r.chance(0.12) {
                    (*n, *s) = (0, 0);
                }
            }
        }
        // The media disk's check every 6 hours, while above 90%.
        for (from, to) in [(18, 33), (84, 96)] {
            if (from..to).contains(&d) {
                for hh in [0, 6, 12, 18] {
                    let pct = 90 + (d - from) * 2 / 5 + i64::from(hh >= 12 && (d - from) % 5 == 2);
                    let t = clock(d0, hh, 5) + r.range(1, 4) * SECOND + micros(r);
                    let text = format!("Warning: /mnt/media is {}% full", pct.min(97));
                    out.send(r, msg(t, HOMELAB, "Disk space", &text, Some(6), Client::Once));
                }
            }
        }
        // The ISP's reconnect, now and then at night: a new address.
        if d0 >= ip_due {
            let t = clock(d0, 3, 0) + r.range(0, 5_400) * SECOND + micros(r);
            let text = format!("Public IP changed to 84.152.{}.{}", r.range(1, 254), r.range(1, 254));
            out.send(r, msg(t, HOMELAB, "DDNS", &text, Some(5), Client::Once));
            ip_due = d0 + r.range(2, 9) * DAY;
        }
        if weekday(d0) == 6 {
            let secs = r.range(4 * 3_600, 6 * 3_600);
            let t = clock(d0, 2, 0) + secs * SECOND + r.range(2, 30) * SECOND + micros(r);
            let took = format!("{:02}:{:02}:{:02}", secs / 3_600, secs % 3_600 / 60, secs % 60);
            let text = format!("Scrub of pool tank finished: 0 errors, repaired 0B in {took}");
            out.send(r, msg(t, HOMELAB, "ZFS", &text, Some(4), Client::Once));
        }
    }
}

/// The doorbell: a Raspberry Pi's button runs `curl --retry 3 --max-time 10` on every press.
fn doorbell(out: &mut Out, r: &mut Rng) {
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let mean = if weekday(d0) >= 5 { 2.2 } else { 1.6 };
        for _ in 0..r.poisson(mean) {
            let mut t = local(r, d0, &RINGS);
            for _ in 0..1 + r.weighted(&[72, 22, 6]) {
                let mut m =
                    msg(t, DOORBELL, "Doorbell", "Someone is at the front door 🔔", Some(8), Client::Curl(10, 3));
                m.blind = true;
                out.send(r, m);
                t += r.range(3, 25) * SECOND + micros(r);
            }
        }
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x60_71F9);
    let mut out = Out { v: Vec::new(), groups: 0, down: vec![Vec::new(); MONITORS.len()], firing: vec![Vec::new(); 5] };
    uptime_kuma(&mut out, &mut r);
    sonarr(&mut out, &mut r);
    radarr(&mut out, &mut r);
    watchtower(&mut out, &mut r);
    home_assistant(&mut out, &mut r);
    grafana(&mut out, &mut r);
    healthchecks(&mut out, &mut r);
    backups(&mut out, &mut r);
    homelab(&mut out, &mut r);
    doorbell(&mut out, &mut r);

    let mut v = out.v;
    v.retain(|m| (START..NOW - SECOND).contains(&m.at));
    v.sort_by_key(|m| (m.at, m.grp));

    // What the owner deleted by now: "Delete all" of some applications, single swipes, one of a doubled pair.
    let mut gone = vec![false; v.len()];
    for (a, &(_, _, _, clears, _)) in APPS.iter().enumerate() {
        let Some((lo, hi)) = clears else { continue };
        let mut d = START + r.range(lo, hi) * DAY;
        while d < NOW {
            let at = local(&mut r, day(d), &EVENING);
            if at < NOW {
                for (k, m) in v.iter().enumerate() {
                    gone[k] |= m.app == a && m.at < at;
                }
            }
            d += r.range(lo, hi) * DAY;
        }
    }
    for (k, m) in v.iter().enumerate() {
        let swipe = APPS[m.app].4;
        if swipe > 0.0 && r.chance(swipe) && m.at + r.range(600, 2 * 86_400) * SECOND < NOW {
            gone[k] = true;
        }
    }
    let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); v.iter().map(|m| m.grp + 1).max().unwrap_or(0)];
    for (k, m) in v.iter().enumerate() {
        rows_of[m.grp].push(k);
    }
    // (Not the doorbell's: nothing tells its copies from rings.)
    for ks in rows_of.iter().filter(|ks| ks.len() > 1 && !v[ks[0]].blind) {
        let (first, swipe) = (ks[0], APPS[v[ks[0]].app].4);
        if swipe > 0.0 && r.chance((1.5 * swipe).min(0.6)) {
            let which = if r.chance(0.7) { ks[ks.len() - 1] } else { first };
            if v[first].at + r.range(300, 30 * 3_600) * SECOND < NOW {
                gone[which] = true;
            }
        }
    }

    let mut f = Fixture::new("messages", &COLUMNS);
    let mut present: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (k, m) in v.iter().enumerate() {
        if gone[k] {
            continue;
        }
        let id = ID0 + 1 + k as i64;
        let key = format!("{}|{}|{}|{}|{:?}", m.app, m.title, m.message, m.priority, m.extras);
        let fresh = seen.insert(key);
        let mark = if !present.insert(m.grp) {
            Mark::Retry
        } else if !fresh {
            Mark::Legit
        } else {
            Mark::Plain
        };
        f.push(&[
            ("id", V::I(id)),
            ("application_id", V::I(APPS[m.app].0)),
            ("message", V::t(&m.message)),
            ("title", V::t(&m.title)),
            ("priority", V::I(m.priority)),
            ("extras", V::opt_t(m.extras.as_deref())),
            ("date", V::AtZ(m.at)),
        ]);
        f.mark(id, mark);
        if mark == Mark::Retry && m.blind {
            // A copy 11 s after a ring is what a second press a few seconds later also leaves: the same row.
            f.hidden.insert(id.to_string());
        }
    }
    f
}
