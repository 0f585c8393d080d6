//! What a writing run asks the server to pace itself: InnoDB's history list
//! (the purge still to do), a load figure, a replica's lag, PostgreSQL's
//! dead tuples and autovacuum. Each engine's driver answers what it has;
//! the others answer nothing.

use std::time::Duration;

use anyhow::{Result, bail};

use super::{Db, Engine};

/// The length of InnoDB's history list: committed changes whose undo purge
/// has not yet removed. `None` where there is no such list (PostgreSQL,
/// SQLite) or it cannot be read.
pub async fn history_length(db: &mut Db) -> Option<u64> {
    db.driver().history_length(db).await
}

/// Where InnoDB's purge is: every transaction committed with a number below
/// `purged` has been purged, and the next transaction gets `next` or above
/// (so one that committed before has a number below it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PurgePosition {
    pub purged: u64,
    pub next: u64,
}

/// InnoDB's purge position (MySQL and MariaDB; it needs the PROCESS
/// privilege). `None` where it cannot be read.
pub async fn purge_position(db: &mut Db) -> Option<PurgePosition> {
    db.driver().purge_position(db).await
}

/// Reads `Trx id counter N` and `Purge done for trx's n:o < N ...` from the
/// status text.
pub(super) fn parse_purge_position(status: &str) -> Option<PurgePosition> {
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
    db.driver().load(db, name).await
}

/// A load figure's value as a number.
pub(super) fn figure(name: &str, value: Option<String>) -> Result<f64> {
    let Some(value) = value else { bail!("the server has no status variable {name}") };
    value.trim().parse::<f64>().map_err(|_| anyhow::anyhow!("status variable {name} is not a number: {value}"))
}

/// PostgreSQL: the primary's WAL position now, as a number.
pub async fn wal_position(db: &mut Db) -> Option<u64> {
    db.driver().wal_position(db).await
}

/// A WAL position as PostgreSQL writes it (`16/B374D848`), as a number.
pub(super) fn lsn(text: &str) -> Option<u64> {
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
    db.driver().replica(db).await
}

/// PostgreSQL: the table's dead tuples, as its statistics count them.
pub async fn dead_tuples(db: &mut Db, table_sql: &str) -> Option<u64> {
    db.driver().dead_tuples(db, table_sql).await
}

/// MySQL/MariaDB: the oldest open transaction of another session, in words.
pub async fn oldest_transaction(db: &mut Db) -> Option<String> {
    db.driver().oldest_transaction(db).await
}

/// PostgreSQL: the VACUUM working on the table, in words.
pub async fn vacuum_session(db: &mut Db, table_sql: &str) -> Option<String> {
    db.driver().vacuum_session(db, table_sql).await
}

/// PostgreSQL: whether autovacuum (or any VACUUM) is working on the table.
pub async fn vacuum_running(db: &mut Db, table_sql: &str) -> bool {
    db.driver().vacuum_running(db, table_sql).await
}

/// Refuses `--vacuum` and `--wait-for-autovacuum` on an engine without
/// VACUUM, before the run starts.
pub fn check_vacuum(engine: Engine) -> Result<()> {
    if !engine.driver().has_vacuum() {
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
    db.driver().flush_statistics(db).await;
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
