//! `idemctl stuck`: keys left in progress past their operation's maximum
//! duration, after a crash or a lost worker. Every retry of such a key gets
//! a conflict until it is resolved (`reap`).

use std::collections::BTreeMap;
use std::io::BufWriter;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use chrono::Utc;
use clap::Args;
use serde::Serialize;
use serde_json::json;

use crate::cli::{Connect, Output};
use crate::config::Config;
use crate::db::catalog::query_file;
use crate::db::{self, Access, Bind};
use crate::exit::Outcome;
use crate::keys::{KeyTable, MappingArgs};
use crate::report::Emitter;
use crate::timeparse;

#[derive(Debug, Clone, Args)]
pub struct StuckArgs {
    #[command(flatten)]
    pub connect: Connect,
    #[command(flatten)]
    pub mapping: MappingArgs,
    #[command(flatten)]
    pub limits: Limits,
    #[command(flatten)]
    pub report: Output,
}

/// How long each operation may hold a key; shared with `reap`.
#[derive(Debug, Clone, Args)]
pub struct Limits {
    /// Maximum duration of every operation (DURATION), or of one (OP=DURATION, 'POST /v1/payments=30s'); repeatable
    #[arg(long = "max-duration", value_name = "[OP=]DURATION", value_parser = max_duration)]
    pub max_durations: Vec<(Option<String>, Duration)>,
    /// The maximum duration of every other operation [default: 5m]
    #[arg(long, value_name = "DURATION", value_parser = timeparse::duration)]
    pub older_than: Option<Duration>,
}

fn max_duration(text: &str) -> Result<(Option<String>, Duration), String> {
    match text.rsplit_once('=') {
        Some((op, dur)) => Ok((Some(op.trim().to_string()), timeparse::duration(dur)?)),
        None => Ok((None, timeparse::duration(text).map_err(|e| format!("{e}; or give OP=DURATION"))?)),
    }
}

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
    let (in_progress, mut binds) = keys.in_progress_sql(&dialect, 1);
    binds.push(Bind::Int(now.saturating_sub(shortest)));
    let lock_before = format!("{lock} < {}", dialect.placeholder(binds.len()));
    let text = |c: &Option<String>| c.as_deref().map_or("NULL".to_string(), |c| dialect.text(&dialect.ident(c)));
    let mut select = vec![dialect.text(&dialect.ident(&keys.key)), text(&keys.operation), lock.clone()];
    select.extend(keys.scope.iter().map(|c| dialect.text(&dialect.ident(c))));
    let sql = db::fill(
        query_file!(db.engine(), "stuck.sql"),
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

pub async fn run(args: StuckArgs) -> Result<Outcome> {
    let config = args.mapping.config()?;
    let durations = Durations::new(&args.limits, &config)?;
    let mut db = db::connect(&args.connect.database_url, Access::ReadOnly).await?;
    let keys = args.mapping.resolve(&config.key_table, &mut db).await?;
    if keys.locked_at.is_none() && keys.created_at.is_none() {
        bail!(
            "table {:?} has no locked_at or created_at column: map one with --locked-at-column or --created-at-column",
            keys.table.name
        );
    }
    let stuck = find(&mut db, &keys, &durations).await?;
    db.close().await?;

    let mut out = Emitter::new(args.report.format, args.report.quiet, BufWriter::new(std::io::stdout()), "keys");
    out.meta("table", format!("{}.{}", keys.table.schema, keys.table.name), keys.table.name.clone())?;
    let notes: Vec<String> = keys.times.iter().flat_map(|t| t.notes()).collect();
    if !notes.is_empty() {
        out.meta("notes", &notes, notes.join("; "))?;
    }
    for key in &stuck {
        out.row(key)?;
    }
    let mut by_operation: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for key in &stuck {
        by_operation.entry(key.operation.clone().unwrap_or_default()).or_default().push(key.age_seconds);
    }
    let mut summary = Vec::new();
    let mut text = Vec::new();
    for (op, mut ages) in by_operation {
        ages.sort_unstable();
        let (oldest, median) = (ages[ages.len() - 1], ages[ages.len() / 2]);
        let age = |s: i64| humantime::format_duration(Duration::from_secs(s.max(0) as u64)).to_string();
        text.push(format!(
            "{}: {} (oldest {}, median {})",
            if op.is_empty() { "-" } else { &op },
            ages.len(),
            age(oldest),
            age(median)
        ));
        summary.push(json!({"operation": op, "count": ages.len(), "oldest_seconds": oldest, "median_seconds": median}));
    }
    out.meta("stuck_keys", stuck.len(), stuck.len().to_string())?;
    out.meta("by_operation", summary, text.join("; "))?;
    out.finish()?;
    Ok(Outcome::from_findings(!stuck.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(max_duration("POST /a=b=10s").unwrap(), (Some("POST /a=b".to_string()), Duration::from_secs(10)));
        assert_eq!(max_duration("90s").unwrap(), (None, Duration::from_secs(90)));
        assert!(max_duration("nothing").is_err());
    }
}
