//! Keys left in progress past their operation's maximum duration, after a
//! crash or a lost worker.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{Context, Result};
use chrono::Utc;
use serde::Serialize;

use super::KeyTable;
use crate::cli::Limits;
use crate::config::Config;
use crate::db::{self, Bind};
use crate::timeparse;

/// Shorter maximum durations are refused without `--allow-short-duration`.
const SHORTEST_DURATION: Duration = Duration::from_secs(30);

/// Maximum durations by operation, flags over the config file.
#[derive(Debug, Clone)]
pub struct Durations {
    by_operation: BTreeMap<String, Duration>,
    default: Duration,
}

impl Durations {
    pub fn new(limits: &Limits, config: &Config) -> Result<Durations> {
        let mut by_operation = BTreeMap::new();
        for (op, text) in &config.max_durations {
            let d = timeparse::duration(text).map_err(|e| anyhow::anyhow!("config max_durations {op:?}: {e}"))?;
            by_operation.insert(op.clone(), d);
        }
        let mut bare = None;
        for (op, d) in &limits.max_durations {
            match op {
                Some(op) => {
                    by_operation.insert(op.clone(), *d);
                }
                None => bare = Some(*d),
            }
        }
        let default = match (bare.or(limits.older_than), &config.older_than) {
            (Some(d), _) => d,
            (None, Some(text)) => timeparse::duration(text).map_err(|e| anyhow::anyhow!("config older_than: {e}"))?,
            (None, None) => Duration::from_secs(300),
        };
        Ok(Durations { by_operation, default })
    }

    /// Refuses a maximum duration under 30 s unless it is allowed: a key that
    /// young may belong to a request still running, and releasing it runs
    /// the request twice.
    pub fn check_floor(&self, allow_short: bool) -> Result<()> {
        if self.shortest() < SHORTEST_DURATION && !allow_short {
            anyhow::bail!(
                "a maximum duration of {} is under 30s: a key that young may belong to a request still running, \
                 and releasing it runs the request twice (--allow-short-duration to go ahead)",
                humantime::format_duration(self.shortest())
            );
        }
        Ok(())
    }

    pub fn of(&self, operation: Option<&str>) -> Duration {
        operation.and_then(|op| self.by_operation.get(op)).copied().unwrap_or(self.default)
    }

    pub fn shortest(&self) -> Duration {
        self.by_operation.values().copied().chain([self.default]).min().unwrap_or(self.default)
    }
}

/// A key in progress past its operation's maximum duration.
#[derive(Debug, Clone, Serialize)]
pub struct StuckKey {
    pub scope: Vec<Option<String>>,
    pub operation: Option<String>,
    pub key: String,
    pub locked_at: String,
    pub age_seconds: i64,
    pub max_duration_seconds: u64,
    /// The lock time as read (microseconds), for compare-and-set.
    #[serde(skip)]
    pub lock_us: i64,
}

/// Reads the stuck keys, oldest first.
pub async fn find(db: &mut db::Db, keys: &KeyTable, durations: &Durations) -> Result<Vec<StuckKey>> {
    let dialect = db.dialect();
    let lock = keys.lock_micros_sql(&dialect)?;
    let now = Utc::now().timestamp_micros();
    let shortest = i64::try_from(durations.shortest().as_micros()).unwrap_or(i64::MAX);
    let (in_progress, mut binds) = keys.in_progress_sql(&dialect, 1)?;
    binds.push(Bind::Int(now.saturating_sub(shortest)));
    let lock_before = format!("{lock} < {}", dialect.placeholder(binds.len()));
    let text = |c: &Option<String>| c.as_deref().map_or("NULL".to_string(), |c| dialect.text(&dialect.ident(c)));
    let mut select = vec![dialect.text(&dialect.ident(keys.key()?)), text(&keys.operation), lock.clone()];
    select.extend(keys.scope.iter().map(|c| dialect.text(&dialect.ident(c))));
    let sql = db::fill(
        include_str!("../../queries/stuck.sql"),
        &[
            ("select", &select.join(", ")),
            ("table", &keys.table.sql_name(&dialect)),
            ("in_progress", &in_progress),
            ("lock_before", &lock_before),
            ("lock", &lock),
        ],
    );
    let mut stuck = Vec::new();
    for row in db.query_text(&sql, &binds).await.context("reading keys in progress")? {
        let mut cells = row.into_iter();
        let key = cells.next().flatten().unwrap_or_default();
        let operation = cells.next().flatten();
        let Some(lock_us) = cells.next().flatten().and_then(|t| t.parse::<f64>().ok()) else { continue };
        let lock_us = lock_us as i64;
        let max = durations.of(operation.as_deref());
        let age_us = now - lock_us;
        if age_us <= i64::try_from(max.as_micros()).unwrap_or(i64::MAX) {
            continue;
        }
        stuck.push(StuckKey {
            scope: cells.collect(),
            operation,
            key,
            locked_at: timeparse::rfc3339(timeparse::from_micros(lock_us)),
            age_seconds: age_us / 1_000_000,
            max_duration_seconds: max.as_secs(),
            lock_us,
        });
    }
    Ok(stuck)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Limits;

    #[test]
    fn durations_by_operation() {
        let limits = Limits {
            max_durations: vec![(Some("POST /v1/payments".into()), Duration::from_secs(30))],
            older_than: None,
        };
        let mut config = Config::default();
        config.max_durations.insert("POST /v1/payments".into(), "1h".into());
        config.max_durations.insert("POST /v1/refunds".into(), "2m".into());
        let d = Durations::new(&limits, &config).unwrap();
        assert_eq!(d.of(Some("POST /v1/payments")), Duration::from_secs(30), "the flag wins");
        assert_eq!(d.of(Some("POST /v1/refunds")), Duration::from_secs(120));
        assert_eq!(d.of(Some("GET /x")), Duration::from_secs(300));
        assert_eq!(d.of(None), Duration::from_secs(300));
        assert_eq!(d.shortest(), Duration::from_secs(30));
        use crate::cli::max_duration;
        assert_eq!(max_duration("POST /a=b=10s").unwrap(), (Some("POST /a=b".to_string()), Duration::from_secs(10)));
        assert_eq!(max_duration("90s").unwrap(), (None, Duration::from_secs(90)));
        assert!(max_duration("nothing").is_err());
    }
}
