//! What a writing run asks the server to pace itself: InnoDB's history list
//! (the purge still to do), a load figure, a replica's lag, PostgreSQL's
//! dead tuples and autovacuum.

use std::time::Duration;

use anyhow::{Result, bail};

use super::catalog::query_file;
use super::{Bind, Db, Engine};

/// The length of InnoDB's history list: committed changes whose undo purge
/// has not yet removed. `None` where there is no such list (PostgreSQL,
/// SQLite) or it cannot be read.
pub async fn history_length(db: &mut Db) -> Option<u64> {
    if db.engine() != Engine::MySql {
        return None;
    }
    for sql in query_file!(mysql, "history_length.sql").split(";\n") {
        if let Ok(Some(value)) = db.query_value(sql, &[]).await
            && let Ok(n) = value.trim().parse::<f64>()
        {
            return Some(n as u64);
        }
    }
    None
}

/// Where InnoDB's purge is: every transaction committed with a number below
/// `purged` has been purged, and the next transaction gets `next` or above
/// (so one that committed before has a number below it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PurgePosition {
    pub purged: u64,
    pub next: u64,
}

/// InnoDB's purge position, from `SHOW ENGINE INNODB STATUS` (MySQL and
/// MariaDB; it needs the PROCESS privilege). `None` where it cannot be read.
pub async fn purge_position(db: &mut Db) -> Option<PurgePosition> {
    if db.engine() != Engine::MySql {
        return None;
    }
    let rows = db.query_text(query_file!(mysql, "innodb_status.sql"), &[]).await.ok()?;
    parse_purge_position(&rows.into_iter().next()?.into_iter().nth(2).flatten()?)
}

/// Reads `Trx id counter N` and `Purge done for trx's n:o < N ...` from the
/// status text.
fn parse_purge_position(status: &str) -> Option<PurgePosition> {
    let number_after = |prefix: &str| {
        status
            .lines()
            .find_map(|line| line.trim().strip_prefix(prefix))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
    };
    Some(PurgePosition { purged: number_after("Purge done for trx's n:o < ")?, next: number_after("Trx id counter ")? })
}

/// A load figure: on MySQL/MariaDB a global status variable
/// (`Threads_running`, any other by name); on PostgreSQL the backends of
/// this database running a statement (asked for as `Threads_running` or
/// `active`).
pub async fn load(db: &mut Db, name: &str) -> Result<f64> {
    let value = match db.engine() {
        Engine::MySql => {
            let mut found = None;
            for sql in query_file!(mysql, "status_variable.sql").split(";\n") {
                if let Ok(rows) = db.query_text(sql, &[Bind::Text(name.to_string())]).await
                    && let Some(value) = rows.into_iter().next().and_then(|row| row.into_iter().nth(1).flatten())
                {
                    found = Some(value);
                    break;
                }
            }
            found
        }
        Engine::Postgres => {
            if !name.eq_ignore_ascii_case("threads_running") && !name.eq_ignore_ascii_case("active") {
                bail!("PostgreSQL has no load figure {name}: use Threads_running (the backends running a statement)");
            }
            db.query_value(query_file!(postgres, "active_backends.sql"), &[]).await?
        }
        Engine::Sqlite => bail!("--max-load and --critical-load need a server: SQLite has no load figure"),
    };
    let Some(value) = value else { bail!("the server has no status variable {name}") };
    let value =
        value.trim().parse::<f64>().map_err(|_| anyhow::anyhow!("status variable {name} is not a number: {value}"))?;
    // MySQL's Threads_running counts the session asking: the run's own,
    // which PostgreSQL's count of the other active backends leaves out.
    Ok(if db.engine() == Engine::MySql && name.eq_ignore_ascii_case("threads_running") {
        (value - 1.0).max(0.0)
    } else {
        value
    })
}

/// PostgreSQL: the primary's WAL position now, as a number.
pub async fn wal_position(db: &mut Db) -> Option<u64> {
    if db.engine() != Engine::Postgres {
        return None;
    }
    lsn(&db.query_value(query_file!(postgres, "wal_position.sql"), &[]).await.ok()??)
}

/// A WAL position as PostgreSQL writes it (`16/B374D848`), as a number.
fn lsn(text: &str) -> Option<u64> {
    let (hi, lo) = text.split_once('/')?;
    Some((u64::from_str_radix(hi, 16).ok()? << 32) | u64::from_str_radix(lo, 16).ok()?)
}

/// Where a replica is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Replica {
    /// A PostgreSQL standby: how far it has replayed the primary's WAL, and,
    /// when it has not replayed all it received, how long ago the primary
    /// committed the last transaction it replayed.
    Replayed(u64, Option<Duration>),
    /// A MySQL/MariaDB replica: how far behind it says it is.
    Behind(Duration),
    /// Its replication is stopped: it will not catch up by waiting.
    Stopped,
}

/// Where a replica is in replaying the primary's changes.
pub async fn replica(db: &mut Db) -> Result<Replica> {
    match db.engine() {
        Engine::Postgres => {
            let row = db.query_text(query_file!(postgres, "replica_lag.sql"), &[]).await?;
            let cells = row.into_iter().next().unwrap_or_default();
            let cell = |i: usize| cells.get(i).cloned().flatten();
            if cell(0).as_deref() != Some("true") {
                bail!("is not a replica (not in recovery)");
            }
            if cell(3).as_deref() == Some("0") {
                return Ok(Replica::Stopped);
            }
            let behind = cell(2).and_then(|s| s.parse::<f64>().ok()).map(|s| Duration::from_secs_f64(s.max(0.0)));
            Ok(Replica::Replayed(cell(1).as_deref().and_then(lsn).unwrap_or(0), behind))
        }
        Engine::MySql => {
            for sql in query_file!(mysql, "replica_status.sql").split(";\n") {
                let mut found: Option<Option<i64>> = None;
                let attempt = db
                    .for_each_row(sql, &[], |row| {
                        found = row.named_int(&["Seconds_Behind_Source", "Seconds_Behind_Master"]);
                        Ok(())
                    })
                    .await;
                if attempt.is_err() {
                    continue;
                }
                return match found {
                    None => bail!("is not a replica (no replication configured)"),
                    Some(None) => Ok(Replica::Stopped),
                    Some(Some(seconds)) => Ok(Replica::Behind(Duration::from_secs(seconds.max(0) as u64))),
                };
            }
            bail!("cannot read its replication status (SHOW REPLICA STATUS needs REPLICATION CLIENT)")
        }
        Engine::Sqlite => bail!("SQLite has no replicas"),
    }
}

/// PostgreSQL: the table's dead tuples, as its statistics count them.
pub async fn dead_tuples(db: &mut Db, table_sql: &str) -> Option<u64> {
    if db.engine() != Engine::Postgres {
        return None;
    }
    flush_statistics(db).await;
    let value =
        db.query_value(query_file!(postgres, "dead_tuples.sql"), &[Bind::Text(table_sql.to_string())]).await.ok()??;
    value.parse().ok()
}

/// PostgreSQL 15+: this session's pending table statistics (the rows its
/// batches deleted) reported now rather than up to a second later. The
/// flush happens when the statement ends; older servers lack the function.
async fn flush_statistics(db: &mut Db) {
    let _ = db.query_value(query_file!(postgres, "flush_statistics.sql"), &[]).await;
}

/// MySQL/MariaDB: the oldest open transaction of another session, in words.
pub async fn oldest_transaction(db: &mut Db) -> Option<String> {
    if db.engine() != Engine::MySql {
        return None;
    }
    db.query_value(query_file!(mysql, "oldest_transaction.sql"), &[]).await.ok()?
}

/// PostgreSQL: the VACUUM working on the table, in words.
pub async fn vacuum_session(db: &mut Db, table_sql: &str) -> Option<String> {
    if db.engine() != Engine::Postgres {
        return None;
    }
    let sql = query_file!(postgres, "vacuum_session.sql");
    db.query_value(sql, &[Bind::Text(table_sql.to_string())]).await.ok()?
}

/// PostgreSQL: whether autovacuum (or any VACUUM) is working on the table.
pub async fn vacuum_running(db: &mut Db, table_sql: &str) -> bool {
    if db.engine() != Engine::Postgres {
        return false;
    }
    let sql = query_file!(postgres, "vacuum_running.sql");
    db.query_value(sql, &[Bind::Text(table_sql.to_string())]).await.ok().flatten().as_deref() == Some("true")
}

/// Refuses `--vacuum` and `--wait-for-autovacuum` on an engine without
/// VACUUM, before the run starts.
pub fn check_vacuum(engine: Engine) -> Result<()> {
    if engine != Engine::Postgres {
        bail!(
            "--vacuum and --wait-for-autovacuum are for PostgreSQL: InnoDB purges, and SQLite reuses pages, on their own"
        );
    }
    Ok(())
}

/// PostgreSQL: a plain VACUUM of the table (never FULL), without a
/// statement limit, within the lock timeout.
pub async fn vacuum(db: &mut Db, table_sql: &str) -> Result<()> {
    check_vacuum(db.engine())?;
    db.set_statement_limit(None).await?;
    // The run's own deletes counted first, or they would be added after
    // the VACUUM has counted the table clean.
    flush_statistics(db).await;
    db.execute(&format!("VACUUM {table_sql}"), &[]).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_purge_position_is_read_from_the_status_text() {
        let status = "------------\nTRANSACTIONS\n------------\nTrx id counter 193735\n\
                      Purge done for trx's n:o < 193702 undo n:o < 0 state: running\nHistory list length 4\n";
        assert_eq!(parse_purge_position(status), Some(PurgePosition { purged: 193702, next: 193735 }));
        assert_eq!(parse_purge_position("History list length 4\n"), None);
    }
}
