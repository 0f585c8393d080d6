//! Retention: which rows are past the horizon, by their expiry time or, with
//! a horizon, by their age. `expire` deletes them, `size` counts them as the
//! backlog, `doctor` warns when they pile up.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};

use super::KeyTable;
use crate::config::Config;
use crate::db::times::TimeColumn;
use crate::db::{self, Bind, Db, Dialect, Placeholders};
use crate::timeparse;

/// Shorter horizons are refused without `--allow-short-retention`: keys must
/// outlive the clients' retry horizon.
const SHORTEST_RETENTION: Duration = Duration::from_secs(24 * 3600);

/// The retention horizon: `--older-than`, else the config file's; `None`
/// means rows go by their expires-at column.
pub fn horizon(flag: Option<Duration>, config: &Config) -> Result<Option<Duration>> {
    Ok(match (flag, &config.retention.horizon) {
        (Some(d), _) => Some(d),
        (None, Some(text)) => {
            Some(timeparse::duration(text).map_err(|e| anyhow::anyhow!("config retention.horizon: {e}"))?)
        }
        (None, None) => None,
    })
}

/// Refuses a horizon under 24 hours unless it is allowed.
/// It is checked before connecting, so it speaks of the kind given (HTTP
/// keys when none is).
pub fn check_floor(horizon: Option<Duration>, allow_short: bool, kind: Option<super::Kind>) -> Result<()> {
    if let Some(horizon) = horizon
        && horizon < SHORTEST_RETENTION
        && !allow_short
    {
        bail!(
            "a horizon of {} is under 24h: {} (--allow-short-retention to go ahead)",
            crate::timeparse::span(horizon),
            kind.unwrap_or(super::Kind::Http).retention_reason()
        );
    }
    Ok(())
}

/// The rows of `table` that `condition` matches; with `cap`, counted up to
/// one past it (so `> cap` reads "at least").
pub async fn count_matching(
    db: &mut Db,
    table: &str,
    condition: &str,
    binds: &[Bind],
    cap: Option<u64>,
) -> Result<u64> {
    let sql = match cap {
        None => db::fill(
            crate::db::dialect::query_file!(shared, "count_matching.sql"),
            &[("table", table), ("condition", condition)],
        ),
        Some(cap) => db::fill(
            crate::db::dialect::query_file!(shared, "count_matching_capped.sql"),
            &[("table", table), ("condition", condition), ("limit", &(cap + 1).to_string())],
        ),
    };
    let n = db.query_value(&sql, binds).await?;
    Ok(n.and_then(|n| n.parse().ok()).unwrap_or(0))
}

/// What makes a row expired: its expires-at column in the past, or with a
/// horizon its created-at column older than the horizon.
pub struct Expiry {
    pub column: String,
    pub time: TimeColumn,
    /// Rows whose time is before this are expired.
    pub cutoff: DateTime<Utc>,
}

impl Expiry {
    pub async fn resolve(
        db: &mut Db,
        target: &mut KeyTable,
        horizon: Option<Duration>,
        now: DateTime<Utc>,
    ) -> Result<Expiry> {
        let (column, cutoff) = match horizon {
            Some(horizon) => (
                target.created_at.clone().with_context(|| {
                    format!("table {:?} has no created_at column: map it with --created-at-column", target.table.name)
                })?,
                timeparse::before(now, horizon, "a horizon")?,
            ),
            None => (
                target.expires_at.clone().with_context(|| {
                    format!(
                        "table {:?} has no expires_at column: map it with --expires-at-column, or give --older-than",
                        target.table.name
                    )
                })?,
                now,
            ),
        };
        target.read_times(db, &[Some(column.clone())]).await?;
        let time = target.time(&column).cloned().context("the expiry column was not read")?;
        Ok(Expiry { column, time, cutoff })
    }

    /// The rows expired before `before` (the cutoff, or earlier) and
    /// `filter`: not in progress, or with `leases_over`, in progress only
    /// once their lease has expired too (its limit the longest maximum
    /// duration) and no live transaction holds them.
    pub fn condition(
        &self,
        dialect: &Dialect,
        target: &KeyTable,
        leases_over: Option<Duration>,
        filter: Option<&str>,
        before: DateTime<Utc>,
    ) -> Result<(String, Vec<Bind>)> {
        let column = target.time_sql(dialect, &dialect.ident(&self.column), &self.time)?;
        let (mut sql, bind) = dialect.time_bound(&column, self.time.repr, false, before.timestamp_micros(), 1);
        let mut binds: Vec<Bind> = bind.into_iter().collect();
        if let Some(in_progress) = target.tells_in_progress() {
            let (cond, more) = in_progress.sql(dialect, binds.len() + 1);
            binds.extend(more);
            // A row whose status is NULL is kept too: NOT (NULL) is not true.
            match leases_over {
                None => sql.push_str(&format!(" AND NOT ({cond})")),
                Some(limit) => {
                    let mut params = Placeholders::after(*dialect, binds);
                    let past =
                        target.past_limit_sql(dialect, limit, timeparse::now().timestamp_micros(), &mut params)?;
                    binds = params.binds;
                    let free = dialect.held_condition().map(|held| format!(" AND NOT {held}")).unwrap_or_default();
                    sql.push_str(&format!(" AND (NOT ({cond}) OR ({past}{free}))"));
                }
            }
        }
        if let Some(filter) = filter {
            sql.push_str(&format!(" AND ({filter})"));
        }
        Ok((sql, binds))
    }
}
