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

/// A purge reaching at least this share of a table's rows, while the table
/// is still written to, is refused without `--allow-large-delete`.
pub const LARGE_DELETE_SHARE: f64 = 0.99;

/// "Still written to": its newest row is younger than this.
const STILL_WRITTEN: Duration = Duration::from_secs(24 * 3600);

/// Refuses an expiry column that is no expiry time: the created-at column
/// itself, or one at or before the creation time on nearly every row of a
/// sample. Either would count every row expired as soon as it is written.
/// With a horizon (`--older-than`), the created-at column is the point.
pub async fn check_expiry_column(db: &mut Db, target: &mut KeyTable, expiry: &Expiry, horizon: bool) -> Result<()> {
    let Some(created) = target.created_at.clone().filter(|_| !horizon) else { return Ok(()) };
    if created == expiry.column {
        bail!(
            "--expires-at-column {created} is the creation time: every row would count as expired the moment it is \
             written; for a retention horizon on it, give --older-than DURATION (24h at least)"
        );
    }
    target.read_times(db, &[Some(created.clone())]).await?;
    let dialect = db.dialect();
    let (Some(e), Some(c)) =
        (target.micros(&dialect, &Some(expiry.column.clone()))?, target.micros(&dialect, &Some(created.clone()))?)
    else {
        return Ok(());
    };
    let sql = db::fill(
        crate::db::dialect::query_file!(shared, "expiry_before_creation.sql"),
        &[("table", &target.table.sql_name(&dialect)), ("expires", &e), ("created", &c)],
    );
    let row = db.query_text(&sql, &[]).await?.into_iter().next().unwrap_or_default();
    let number = |i: usize| row.get(i).cloned().flatten().and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0) as u64;
    let (sampled, before) = (number(0), number(1));
    if sampled >= 20 && before as f64 >= 0.9 * sampled as f64 {
        bail!(
            "--expires-at-column {}: on {before} of {sampled} sampled rows it is at or before {created}, the creation \
             time, so nearly every row would count as expired as soon as it is written: it is not an expiry time; map \
             the column that says when a key expires, or give --older-than DURATION",
            expiry.column
        );
    }
    Ok(())
}

/// Refuses, without `allow`, a purge that would delete nearly all
/// (`LARGE_DELETE_SHARE`: a mapping error matches every row, while a
/// purge that fell behind by 99 horizons still goes) of a table whose newest row is under a day old:
/// a mapping that matches everything, not a retention horizon. Counts the
/// matching rows only up to that share of the table's rows. The table's
/// rows, where it counted them.
pub async fn check_large_delete(
    db: &mut Db,
    target: &KeyTable,
    (expired, binds): (&str, &[Bind]),
    allow: bool,
) -> Result<Option<u64>> {
    if allow {
        return Ok(None);
    }
    let dialect = db.dialect();
    let table = target.table.sql_name(&dialect);
    let total = rows_in(db, target).await?;
    if total < 10 {
        return Ok(Some(total));
    }
    let share = (total as f64 * LARGE_DELETE_SHARE).ceil() as u64;
    let matching = count_matching(db, &table, expired, binds, Some(share)).await?;
    if matching < share {
        return Ok(Some(total));
    }
    let newest_age = match &target.created_at {
        Some(created) => {
            let Some(c) = target.micros(&dialect, &Some(created.clone())).ok().flatten() else {
                return Ok(Some(total));
            };
            let sql = format!("SELECT MAX({c}) FROM {table}");
            let newest: Option<i64> =
                db.query_value(&sql, &[]).await?.and_then(|v| v.parse::<f64>().ok()).map(|v| v as i64);
            let Some(newest) = newest else { return Ok(Some(total)) };
            let age = timeparse::now().timestamp_micros() - newest;
            if age > STILL_WRITTEN.as_micros() as i64 {
                return Ok(Some(total));
            }
            format!(", and its newest row is {} old", timeparse::span(Duration::from_micros(age.max(0) as u64)))
        }
        None => String::new(),
    };
    let matching = count_matching(db, &table, expired, binds, None).await?;
    bail!(
        "expire would delete {} of the {total} rows of {}{newest_age}: a mapping that deletes nearly everything from a \
         table in use is most likely wrong (check it with --dry-run); if it is right, give --allow-large-delete",
        matching,
        target.table.name
    )
}

/// The table's rows: counted, or for a large table the catalog's estimate.
pub async fn rows_in(db: &mut Db, target: &KeyTable) -> Result<u64> {
    match db::scan::row_estimate(db, &target.table).await {
        Some(n) if n > 1_000_000 => Ok(n),
        _ => count_matching(db, &target.table.sql_name(&db.dialect()), "1 = 1", &[], None).await,
    }
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

/// Rows past the horizon (and `filter`) that stay for their status: each
/// status, as text (None for NULL), and its rows, the most first. The
/// in-progress status is left out: the summary says what became of those.
pub async fn kept_by_status(
    db: &mut Db,
    target: &KeyTable,
    expiry: &Expiry,
    filter: Option<&str>,
) -> Result<Vec<(Option<String>, u64)>> {
    let Some(statuses) = target.statuses.as_ref() else { return Ok(Vec::new()) };
    let dialect = db.dialect();
    let Some(value) = target.status_text(&dialect) else { return Ok(Vec::new()) };
    let column = target.time_sql(&dialect, &dialect.ident(&expiry.column), &expiry.time)?;
    let (past, bind) = dialect.time_bound(&column, expiry.time.repr, false, expiry.cutoff.timestamp_micros(), 1);
    let mut binds: Vec<Bind> = bind.into_iter().collect();
    let Some((finished, more)) = target.finished_sql(&dialect, binds.len() + 1) else { return Ok(Vec::new()) };
    binds.extend(more);
    let filter = filter.map(|f| format!(" AND ({f})")).unwrap_or_default();
    let condition = format!("{past} AND ({value} IS NULL OR NOT ({finished})){filter}");
    let table = target.table.sql_name(&dialect);
    let sql = db::fill(
        crate::db::dialect::query_file!(shared, "kept_by_status.sql"),
        &[("value", &value), ("table", &table), ("condition", &condition)],
    );
    let rows = db.query_text(&sql, &binds).await?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let mut r = r.into_iter();
            let (status, n) = (r.next()?, r.next()??.parse().ok()?);
            (!status.as_ref().is_some_and(|s| statuses.running().contains(s))).then_some((status, n))
        })
        .collect())
}

/// What makes a row expired: its expires-at column in the past, or with a
/// horizon its created-at column older than the horizon.
pub struct Expiry {
    pub column: String,
    pub time: TimeColumn,
    /// Rows whose time is before this are expired.
    pub cutoff: DateTime<Utc>,
    /// Finished statuses with a horizon of their own (`--state-horizon`),
    /// each with its cutoff.
    pub per_state: Vec<(String, DateTime<Utc>)>,
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
                target.purge_by.clone().or_else(|| target.created_at.clone()).with_context(|| {
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
        Ok(Expiry { column, time, cutoff, per_state: Vec::new() })
    }

    /// The rows expired before `before` (the cutoff, or earlier) and
    /// `filter`: in a finished status where a status column tells, else not
    /// in progress; with `leases_over`, in progress too, but only
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
        if !self.per_state.is_empty() {
            return self.condition_per_state(dialect, target, (sql, binds), (&column, before), filter);
        }
        // Only a finished status goes (a row whose status is NULL stays:
        // NULL IN (...) is not true); where no status column tells, a row
        // not in progress (NOT (NULL) is not true either).
        let finished = target.finished_sql(dialect, binds.len() + 1);
        let finished = finished.map(|(cond, more)| {
            binds.extend(more);
            cond
        });
        match (target.tells_in_progress(), leases_over, finished) {
            (Some(in_progress), Some(limit), finished) => {
                let (cond, more) = in_progress.sql(dialect, binds.len() + 1);
                binds.extend(more);
                let settled = finished.unwrap_or_else(|| format!("NOT ({cond})"));
                let mut params = Placeholders::after(*dialect, binds);
                let past = target.past_limit_sql(dialect, limit, timeparse::now().timestamp_micros(), &mut params)?;
                binds = params.binds;
                let free = dialect.held_condition().map(|held| format!(" AND NOT {held}")).unwrap_or_default();
                sql.push_str(&format!(" AND ({settled} OR (({cond}) AND {past}{free}))"));
            }
            (_, _, Some(finished)) => sql.push_str(&format!(" AND {finished}")),
            (Some(in_progress), None, None) => {
                let (cond, more) = in_progress.sql(dialect, binds.len() + 1);
                binds.extend(more);
                sql.push_str(&format!(" AND NOT ({cond})"));
            }
            (None, _, None) => {}
        }
        if let Some(filter) = filter {
            sql.push_str(&format!(" AND ({filter})"));
        }
        Ok((sql, binds))
    }
}

impl Expiry {
    /// The condition where some finished statuses keep their own horizon:
    /// past the horizon in the other finished statuses, or past its own in
    /// one of those; each own cutoff moved as far as `before` is from the
    /// horizon's. (Refused with `--include-in-progress`.)
    fn condition_per_state(
        &self,
        dialect: &Dialect,
        target: &KeyTable,
        (past, mut binds): (String, Vec<Bind>),
        (column, before): (&str, DateTime<Utc>),
        filter: Option<&str>,
    ) -> Result<(String, Vec<Bind>)> {
        let value = target.status_text(dialect).context("a horizon per state needs a status column")?;
        let own: Vec<String> = self.per_state.iter().map(|(s, _)| s.clone()).collect();
        let (others, more) = target.finished_sql_but(dialect, binds.len() + 1, &own).context("no finished status")?;
        binds.extend(more);
        let mut any = vec![format!("({past} AND {others})")];
        for (state, cutoff) in &self.per_state {
            let own_before = *cutoff + (before - self.cutoff);
            let (bound, bind) =
                dialect.time_bound(column, self.time.repr, false, own_before.timestamp_micros(), binds.len() + 1);
            binds.extend(bind);
            binds.push(Bind::Text(state.clone()));
            any.push(format!("({bound} AND {value} = {})", dialect.placeholder(binds.len())));
        }
        let mut sql = format!("({})", any.join(" OR "));
        if let Some(filter) = filter {
            sql.push_str(&format!(" AND ({filter})"));
        }
        Ok((sql, binds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Kind;

    /// `--older-than` over the file's horizon; none of either: by expires-at.
    #[test]
    fn the_horizon_flag_then_file() {
        let file = Config {
            retention: crate::config::RetentionConfig { horizon: Some("3d".into()), state_horizons: None },
            ..Config::default()
        };
        let day = Duration::from_secs(86_400);
        assert_eq!(horizon(Some(day), &file).unwrap(), Some(day));
        assert_eq!(horizon(None, &file).unwrap(), Some(day * 3));
        assert_eq!(horizon(None, &Config::default()).unwrap(), None);
        let bad = Config {
            retention: crate::config::RetentionConfig { horizon: Some("later".into()), state_horizons: None },
            ..Config::default()
        };
        assert!(horizon(None, &bad).unwrap_err().to_string().starts_with("config retention.horizon: "));
    }

    /// 24 hours is allowed, a second less is not unless allowed, and the
    /// refusal gives the kind's reason (HTTP keys' when none is given).
    #[test]
    fn the_floor_is_a_day() {
        let day = Duration::from_secs(86_400);
        assert!(check_floor(Some(day), false, None).is_ok());
        assert!(check_floor(None, false, None).is_ok());
        let short = day - Duration::from_secs(1);
        let err = check_floor(Some(short), false, None).unwrap_err().to_string();
        assert!(err.starts_with("a horizon of ") && err.contains("under 24h"), "{err}");
        assert!(err.contains(Kind::Http.retention_reason()), "{err}");
        let jobs = check_floor(Some(short), false, Some(Kind::Jobs)).unwrap_err().to_string();
        assert!(jobs.contains(Kind::Jobs.retention_reason()), "{jobs}");
        assert!(check_floor(Some(short), true, None).is_ok());
    }
}
