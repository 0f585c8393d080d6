//! Keys left in progress past their limit, after a crash or a lost worker,
//! in one of two states: `lease-expired` (a lock time plus the operation's
//! maximum duration, or a lease deadline, has passed) or `abandoned` (nobody
//! holds the key, and its last attempt or creation is that old). A key a
//! live transaction holds is never stuck: it is counted as held.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;

use super::KeyTable;
use crate::cli::Limits;
use crate::config::Config;
use crate::db::{self, Db, Placeholders, catalog};
use crate::timeparse;

/// Shorter maximum durations are refused without `--allow-short-duration`.
const SHORTEST_DURATION: Duration = Duration::from_secs(30);

/// Maximum durations by operation (a name, or a glob such as
/// `POST /carts/*/complete`), flags over the config file.
#[derive(Debug, Clone)]
pub struct Durations {
    /// In order of precedence: flags first, then the config file.
    named: Vec<(String, glob::Pattern, Duration)>,
    default: Duration,
}

impl Durations {
    pub fn new(limits: &Limits, config: &Config) -> Result<Durations> {
        let mut named: Vec<(String, Duration)> = Vec::new();
        let mut bare = None;
        for (op, d) in &limits.max_durations {
            match op {
                Some(op) => named.push((op.clone(), *d)),
                None => bare = Some(*d),
            }
        }
        for (op, text) in &config.max_durations {
            let d = timeparse::duration(text).map_err(|e| anyhow::anyhow!("config max_durations {op:?}: {e}"))?;
            if !named.iter().any(|(n, _)| n == op) {
                named.push((op.clone(), d));
            }
        }
        let default = match (bare, &config.max_duration) {
            (Some(d), _) => d,
            (None, Some(text)) => timeparse::duration(text).map_err(|e| anyhow::anyhow!("config max_duration: {e}"))?,
            (None, None) => Duration::from_secs(300),
        };
        let named = named
            .into_iter()
            .map(|(op, d)| {
                let pattern =
                    glob::Pattern::new(&op).map_err(|e| anyhow::anyhow!("bad operation pattern {op:?}: {e}"))?;
                Ok((op, pattern, d))
            })
            .collect::<Result<_>>()?;
        Ok(Durations { named, default })
    }

    /// Refuses a maximum duration under 30 s unless it is allowed: a key that
    /// young may belong to a request still running, and releasing it runs
    /// the request twice.
    pub fn check_floor(&self, allow_short: bool) -> Result<()> {
        if self.shortest() < SHORTEST_DURATION && !allow_short {
            anyhow::bail!(
                "a maximum duration of {} is under 30s: a key that young may belong to a request still running, \
                 and releasing it runs the request twice (--allow-short-duration to go ahead)",
                crate::timeparse::span(self.shortest())
            );
        }
        Ok(())
    }

    /// The operation's maximum duration: its name's, else the first glob's that matches, else the default.
    pub fn of(&self, operation: Option<&str>) -> Duration {
        let Some(op) = operation else { return self.default };
        self.named
            .iter()
            .find(|(name, _, _)| name == op)
            .or_else(|| self.named.iter().find(|(_, pattern, _)| pattern.matches(op)))
            .map_or(self.default, |(_, _, d)| *d)
    }

    pub fn shortest(&self) -> Duration {
        self.named.iter().map(|(_, _, d)| *d).chain([self.default]).min().unwrap_or(self.default)
    }

    pub fn longest(&self) -> Duration {
        self.named.iter().map(|(_, _, d)| *d).chain([self.default]).max().unwrap_or(self.default)
    }

    /// Whether an operation name (or glob) covers `op`.
    fn covers(name_and_pattern: &(String, glob::Pattern, Duration), op: &str) -> bool {
        name_and_pattern.0 == op || name_and_pattern.1.matches(op)
    }
}

/// How a stuck key came to be stuck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// A lock time plus the maximum duration, or a lease deadline, has passed.
    LeaseExpired,
    /// Nobody holds the key, and its last attempt (or creation) is that old.
    Abandoned,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::LeaseExpired => "lease-expired",
            State::Abandoned => "abandoned",
        }
    }
}

/// A key in progress past its limit.
#[derive(Debug, Clone, Serialize)]
pub struct StuckKey {
    pub scope: Vec<Option<String>>,
    /// The operation: its columns' values joined by a space.
    pub operation: Option<String>,
    pub key: String,
    pub state: State,
    /// When a request took the key, where the table says.
    pub locked_at: Option<String>,
    /// The time its age counts from: the lease deadline, the lock time, or
    /// the last attempt (else creation) of an abandoned key.
    pub since: String,
    pub age_seconds: i64,
    /// The limit it passed: the operation's maximum duration, or the lease grace.
    pub max_duration_seconds: u64,
    /// Each operation column's value.
    #[serde(skip)]
    pub operation_parts: Vec<Option<String>>,
    /// The key's state time as read (microseconds), for compare-and-set.
    #[serde(skip)]
    pub seen_us: i64,
}

/// The stuck keys, oldest first, and the keys that would be stuck but that a
/// live transaction holds.
#[derive(Debug, Default)]
pub struct Found {
    pub keys: Vec<StuckKey>,
    pub held: u64,
    /// The first held ones (up to `HELD_NAMED`) in words: each key, quoted,
    /// and the session holding it where the engine says (`"k1" by pid 42
    /// (app, idle in transaction: ...)`).
    pub held_keys: Vec<String>,
    /// Keys in progress with no time to judge them by (every time column
    /// the state is read from NULL, or not a time): left out, and said.
    pub untimed: u64,
}

/// Held keys named in the summary, at most.
pub const HELD_NAMED: usize = 5;

/// A held key in words: quoted, and by whom where that is known (`by`
/// the holding session, empty where the engine does not say).
fn held_word(key: &str, by: &str) -> String {
    match by {
        "" => format!("{key:?}"),
        by => format!("{key:?} by {by}"),
    }
}

/// The held keys in words: how many, why they are left out, and the
/// first few by their key and holder.
pub fn held_text(held: u64, held_keys: &[String], why: &str) -> String {
    let text = format!("{held} (held by live transactions: {why})");
    if held_keys.is_empty() {
        return text;
    }
    let more = held.saturating_sub(held_keys.len() as u64);
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    format!("{text}: {}{more}", held_keys.join(", "))
}

/// How held keys are told apart: by the rows' own markers (PostgreSQL),
/// through a locking read on a session that may take locks (MySQL), or not
/// at all (a writing run locks the keys itself and reports them skipped).
pub enum Held<'a> {
    Detect(Option<&'a mut Db>),
    Ignore,
}

/// What keys in progress without a readable time are, in words.
pub fn untimed_note(keys: &KeyTable, n: u64) -> String {
    let columns: Vec<&str> = keys.state_columns().map(|t| t.name.as_str()).collect();
    format!(
        "{} in progress with no time to judge them by ({} NULL, or not a time): left out; look at them by hand",
        keys.kind.counted(n),
        columns.join(", ")
    )
}

/// Reads the stuck keys, oldest first.
pub async fn find(db: &mut Db, keys: &KeyTable, durations: &Durations, held: Held<'_>) -> Result<Found> {
    let dialect = db.dialect();
    let times = keys.state_times(&dialect)?;
    let now = timeparse::now().timestamp_micros();
    let micros = |d: Duration| i64::try_from(d.as_micros()).unwrap_or(i64::MAX);
    let (in_progress, binds) = keys.in_progress_sql(&dialect, 1)?;
    let mut params = Placeholders::after(dialect, binds);
    // Keys past the limit, and (to be counted, never listed) keys with no
    // time to judge them by.
    let past = keys.past_limit_sql(&dialect, durations.shortest(), now, &mut params)?;
    let narrowed = keys.filter.as_ref().map(|f| format!(" AND {f}")).unwrap_or_default();
    let due = format!("({past} OR {} IS NULL){narrowed}", times.seen());
    let detect = matches!(held, Held::Detect(_));
    // NULL for a free row; for a held one, the holding session in words
    // where the engine says, else empty.
    let held_sql = match (detect, dialect.held_condition()) {
        (true, Some(condition)) => {
            format!("CASE WHEN {condition} THEN {} ELSE NULL END", dialect.held_by().unwrap_or("''"))
        }
        _ => "NULL".to_string(),
    };
    let text = |c: &str| dialect.text(&dialect.ident(c));
    let null = || "NULL".to_string();
    let mut select = vec![
        text(keys.key()?),
        times.deadline.clone().unwrap_or_else(null),
        times.lock.clone().unwrap_or_else(null),
        times.base.clone().unwrap_or_else(null),
        held_sql,
    ];
    select.extend(keys.operation.iter().map(|c| text(c)));
    select.extend(keys.scope.iter().map(|c| text(c)));
    let sql = db::fill(
        crate::db::dialect::query_file!(shared, "stuck.sql"),
        &[
            ("select", &select.join(", ")),
            ("table", &keys.table.sql_name(&dialect)),
            ("in_progress", &in_progress),
            ("due", &due),
            ("order", &times.seen()),
        ],
    );
    let mut found = Found::default();
    for row in db.query_text(&sql, &params.binds).await.context("reading keys in progress")? {
        let mut cells = row.into_iter();
        let key = cells.next().flatten().unwrap_or_default();
        let number = |v: Option<Option<String>>| v.flatten().and_then(|t| t.parse::<f64>().ok()).map(|v| v as i64);
        let (deadline, lock, base) = (number(cells.next()), number(cells.next()), number(cells.next()));
        let held_by = cells.next().flatten();
        let operation_parts: Vec<Option<String>> = cells.by_ref().take(keys.operation.len()).collect();
        let operation = (!keys.operation.is_empty())
            .then(|| operation_parts.iter().map(|p| p.as_deref().unwrap_or("")).collect::<Vec<_>>().join(" "));
        let max = durations.of(operation.as_deref());
        let (state, since, limit) = match (deadline, lock, base) {
            (Some(d), _, _) => (State::LeaseExpired, d, keys.lease_grace),
            (None, Some(l), _) => (State::LeaseExpired, l, max),
            (None, None, Some(b)) => (State::Abandoned, b, max),
            (None, None, None) => {
                found.untimed += 1;
                continue;
            }
        };
        let age_us = now - since;
        if age_us <= micros(limit) {
            continue;
        }
        if let Some(by) = held_by {
            found.held += 1;
            if found.held_keys.len() < HELD_NAMED {
                found.held_keys.push(held_word(&key, &by));
            }
            continue;
        }
        let show = |us: i64| timeparse::rfc3339(timeparse::from_micros(us));
        found.keys.push(StuckKey {
            scope: cells.collect(),
            operation,
            key,
            state,
            locked_at: lock.map(show),
            since: show(since),
            age_seconds: age_us / 1_000_000,
            max_duration_seconds: limit.as_secs(),
            operation_parts,
            seen_us: deadline.or(lock).or(base).unwrap_or(since),
        });
    }
    if let Held::Detect(Some(probe)) = held
        && let Some(lock) = dialect.held_probe()
    {
        found = probe_held(probe, keys, found, lock).await?;
    }
    Ok(found)
}

/// Stuck keys, told apart from those live transactions hold. MySQL tells
/// held keys apart only by a locking read, which a read-only session may not
/// run: that read runs on a session of its own to `probe` (`LockProbe`),
/// opened for it alone and closed after.
pub async fn find_held_apart(
    db: &mut Db,
    keys: &KeyTable,
    durations: &Durations,
    probe: &crate::db::Target,
) -> Result<Found> {
    let mut session = match db.dialect().held_probe() {
        Some(_) => Some(crate::db::connect(probe, crate::db::Access::LockProbe).await?),
        None => None,
    };
    let found = find(db, keys, durations, Held::Detect(session.as_mut())).await;
    if let Some(session) = session {
        session.close().await?;
    }
    found
}

/// Keys a live transaction holds, told by a locking read that passes over
/// them (and holds nothing after the statement: autocommit).
async fn probe_held(probe: &mut Db, keys: &KeyTable, found: Found, lock: &str) -> Result<Found> {
    let dialect = probe.dialect();
    let mut free = std::collections::HashSet::new();
    for chunk in found.keys.chunks(100) {
        let which: Vec<&StuckKey> = chunk.iter().collect();
        let mut params = Placeholders::new(dialect);
        let cond = keys.any_key(&which, true, &mut params)?;
        let sql = db::fill(
            crate::db::dialect::query_file!(shared, "reap_read_back.sql"),
            &[
                ("select", &keys.identity_select(dialect)?),
                ("table", &keys.table.sql_name(&dialect)),
                ("keys", &cond),
                ("lock", lock),
            ],
        );
        free.extend(probe.query_text(&sql, &params.binds).await.context("telling held keys apart")?);
    }
    let (keys_free, held): (Vec<StuckKey>, Vec<StuckKey>) =
        found.keys.into_iter().partition(|k| free.contains(&KeyTable::identity(k)));
    let mut held_keys = found.held_keys;
    held_keys.extend(held.iter().map(|k| held_word(&k.key, "")).take(HELD_NAMED.saturating_sub(held_keys.len())));
    Ok(Found { keys: keys_free, held: found.held + held.len() as u64, held_keys, untimed: found.untimed })
}

/// A note when `--max-duration` or the config file names operations that no
/// key has: the names that match nothing, and the operations in use.
pub async fn unmatched_operations(db: &mut Db, keys: &KeyTable, durations: &Durations) -> Result<Option<String>> {
    if durations.named.is_empty() || keys.operation.is_empty() {
        return Ok(None);
    }
    let in_use: Vec<String> = catalog::combinations_in_use(db, &keys.table, &keys.operation, 100_000)
        .await?
        .into_iter()
        .map(|parts| parts.iter().map(|p| p.as_deref().unwrap_or("")).collect::<Vec<_>>().join(" "))
        .collect();
    let unmatched: Vec<String> = durations
        .named
        .iter()
        .filter(|named| !in_use.iter().any(|op| Durations::covers(named, op)))
        .map(|(name, _, _)| format!("{name:?}"))
        .collect();
    if unmatched.is_empty() {
        return Ok(None);
    }
    let mut ops = in_use;
    ops.sort();
    let shown: Vec<String> = ops.iter().take(10).map(|o| format!("{o:?}")).collect();
    let more = if ops.len() > 10 { format!(" and {} more", ops.len() - 10) } else { String::new() };
    Ok(Some(format!(
        "--max-duration names operations no {} has: {} (the table's operations: {}{more})",
        keys.kind.entry(),
        unmatched.join(", "),
        if shown.is_empty() { "none".to_string() } else { shown.join(", ") }
    )))
}

/// Stuck keys counted by state.
pub fn by_state(keys: &[StuckKey]) -> BTreeMap<&'static str, u64> {
    // Every state, with zeros: the same keys whether or not any key is stuck.
    let mut counts: BTreeMap<&'static str, u64> =
        [State::LeaseExpired, State::Abandoned].iter().map(|s| (s.as_str(), 0)).collect();
    for key in keys {
        *counts.entry(key.state.as_str()).or_default() += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Limits;

    #[test]
    fn durations_by_operation() {
        let limits = Limits { max_durations: vec![(Some("POST /v1/payments".into()), Duration::from_secs(30))] };
        let mut config = Config::default();
        config.max_durations.insert("POST /v1/payments".into(), "1h".into());
        config.max_durations.insert("POST /v1/refunds".into(), "2m".into());
        config.max_durations.insert("POST /carts/*/complete".into(), "45s".into());
        let d = Durations::new(&limits, &config).unwrap();
        assert_eq!(d.of(Some("POST /v1/payments")), Duration::from_secs(30), "the flag wins");
        assert_eq!(d.of(Some("POST /v1/refunds")), Duration::from_secs(120));
        assert_eq!(d.of(Some("POST /carts/cart_01H/complete")), Duration::from_secs(45), "a glob");
        assert_eq!(d.of(Some("GET /x")), Duration::from_secs(300));
        assert_eq!(d.of(None), Duration::from_secs(300));
        assert_eq!(d.shortest(), Duration::from_secs(30));
        assert_eq!(d.longest(), Duration::from_secs(300));
        use crate::cli::max_duration;
        assert_eq!(max_duration("POST /a=b=10s").unwrap(), (Some("POST /a=b".to_string()), Duration::from_secs(10)));
        assert_eq!(max_duration("90s").unwrap(), (None, Duration::from_secs(90)));
        assert!(max_duration("nothing").is_err());
    }

    /// The bare flag beats the file's `max_duration`, which beats 5 minutes;
    /// a name beats a glob that also matches it, whatever their order.
    #[test]
    fn the_default_and_names_before_globs() {
        let secs = Duration::from_secs;
        let mut config = Config { max_duration: Some("10m".into()), ..Config::default() };
        config.max_durations.insert("POST /*".into(), "40s".into());
        config.max_durations.insert("POST /b".into(), "50s".into());
        let none = Limits { max_durations: vec![] };
        let d = Durations::new(&none, &config).unwrap();
        assert_eq!(d.of(None), secs(600), "the file's default");
        assert_eq!(d.of(Some("POST /b")), secs(50), "the name, though the glob comes first");
        assert_eq!(d.of(Some("POST /c")), secs(40));
        assert_eq!((d.shortest(), d.longest()), (secs(40), secs(600)));
        let bare = Limits { max_durations: vec![(None, secs(90))] };
        assert_eq!(Durations::new(&bare, &config).unwrap().of(Some("GET /")), secs(90), "the flag's default");
        assert_eq!(Durations::new(&none, &Config::default()).unwrap().of(None), secs(300));
        assert!(Durations::covers(&("POST /b".into(), glob::Pattern::new("POST /b").unwrap(), secs(1)), "POST /b"));
        assert!(!Durations::covers(&("POST /b".into(), glob::Pattern::new("POST /b").unwrap(), secs(1)), "POST /c"));
        // A name covers itself though its glob reads otherwise (`[1]` is one
        // character); a glob covers what it matches.
        let literal = ("GET /a[1]".to_string(), glob::Pattern::new("GET /a[1]").unwrap(), secs(1));
        assert!(Durations::covers(&literal, "GET /a[1]") && !literal.1.matches("GET /a[1]"));
        assert!(Durations::covers(&("POST /*".into(), glob::Pattern::new("POST /*").unwrap(), secs(1)), "POST /x"));

        let bad = Config { max_duration: Some("soon".into()), ..Config::default() };
        assert!(Durations::new(&none, &bad).unwrap_err().to_string().starts_with("config max_duration: "));
        let glob = Limits { max_durations: vec![(Some("POST /[".into()), secs(60))] };
        assert!(
            Durations::new(&glob, &Config::default()).unwrap_err().to_string().starts_with("bad operation pattern")
        );
    }

    /// 30 s is allowed, a millisecond less is not, unless allowed.
    #[test]
    fn the_floor_is_thirty_seconds() {
        let of = |d: Duration| Durations::new(&Limits { max_durations: vec![(None, d)] }, &Config::default()).unwrap();
        assert!(of(Duration::from_secs(30)).check_floor(false).is_ok());
        let short = of(Duration::from_millis(29_999));
        assert!(short.check_floor(false).unwrap_err().to_string().starts_with("a maximum duration of "));
        assert!(short.check_floor(true).is_ok());
        // A short one by name counts too.
        let named = Limits { max_durations: vec![(Some("GET /".into()), Duration::from_secs(5))] };
        assert!(Durations::new(&named, &Config::default()).unwrap().check_floor(false).is_err());
    }

    #[test]
    fn keys_counted_by_state_and_held_keys_named() {
        let key = |state| StuckKey {
            scope: vec![],
            operation: None,
            key: "k".into(),
            state,
            locked_at: None,
            since: String::new(),
            age_seconds: 0,
            max_duration_seconds: 0,
            operation_parts: vec![],
            seen_us: 0,
        };
        let keys = [key(State::Abandoned), key(State::LeaseExpired), key(State::Abandoned)];
        let counts = by_state(&keys);
        assert_eq!(counts.get("abandoned"), Some(&2));
        assert_eq!(counts.get("lease-expired"), Some(&1));
        let none = by_state(&[]);
        assert_eq!((none.get("abandoned"), none.get("lease-expired")), (Some(&0), Some(&0)), "zeros, not missing");

        assert_eq!(held_word("k1", ""), "\"k1\"");
        assert_eq!(held_word("k1", "pid 42 (app)"), "\"k1\" by pid 42 (app)");
        assert_eq!(held_text(2, &[], "not stuck"), "2 (held by live transactions: not stuck)");
        let named = ["\"a\"".to_string(), "\"b\"".to_string()];
        assert_eq!(held_text(2, &named, "not stuck"), "2 (held by live transactions: not stuck): \"a\", \"b\"");
        assert_eq!(
            held_text(7, &named, "not stuck"),
            "7 (held by live transactions: not stuck): \"a\", \"b\" and 5 more"
        );
    }
}
