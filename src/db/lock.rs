//! A lock named after a table, so that two runs of a writing command never
//! overlap: an advisory lock on PostgreSQL, GET_LOCK on MySQL/MariaDB (both
//! held by the session, so released however the process ends), and a locked
//! file beside the database on SQLite.

use std::fs::{File, OpenOptions, TryLockError};

use anyhow::{Context, Result};

use super::catalog::{Table, query_file};
use super::{Bind, Db};
use crate::exit::LockHeld;

/// Held until dropped (SQLite) or until the session ends (the servers).
#[derive(Debug)]
pub struct TableLock {
    _file: Option<File>,
}

/// Takes the lock named after the table for a writing run; when another run
/// holds it, the run ends at once with exit 3.
pub async fn lock_table(db: &mut Db, table: &Table) -> Result<TableLock> {
    match try_lock(db, &format!("{}.{}", table.schema, table.name)).await? {
        Some(lock) => Ok(lock),
        None => Err(LockHeld(table.name.clone()).into()),
    }
}

/// Takes the lock named `name` without waiting; `None` when another run holds it.
pub async fn try_lock(db: &mut Db, name: &str) -> Result<Option<TableLock>> {
    let name = format!("idemctl:{name}");
    if let Some(path) = db.file() {
        return lock_file(path, &name);
    }
    // Both binds are the name: PostgreSQL hashes it whole; MySQL's lock names
    // are limited to 64 characters, so there the name's start (for people
    // reading the lock list) and a digest of all of it (so that two long
    // names with the same start take two locks).
    let readable: String = name.chars().take(20).collect();
    let sql = query_file!(db.engine(), "try_lock.sql");
    let row = db.query_text(sql, &[Bind::Text(readable), Bind::Text(name)]).await?;
    Ok(acquired(&row).then_some(TableLock { _file: None }))
}

/// SQLite: a locked file beside the database.
fn lock_file(path: &std::path::Path, name: &str) -> Result<Option<TableLock>> {
    let safe: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' }).collect();
    let lock_path = path
        .with_file_name(format!("{}.{safe}.lock", path.file_name().map(|f| f.to_string_lossy()).unwrap_or_default()));
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("cannot open lock file {}", lock_path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(TableLock { _file: Some(file) })),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(e)) => Err(e).with_context(|| format!("cannot lock {}", lock_path.display())),
    }
}

fn acquired(rows: &[Vec<Option<String>>]) -> bool {
    matches!(rows.first().and_then(|r| r.first()).and_then(|v| v.as_deref()), Some("1" | "true"))
}

/// Before a writing run changes anything: refuses a read-only replica (a
/// PostgreSQL standby in recovery, a MySQL/MariaDB server with read_only)
/// and names each privilege on the table the run lacks.
pub async fn check_writable(db: &mut Db, table: &Table, command: &str, privileges: &[&str]) -> Result<()> {
    match write_refusal(db, table, command, privileges, true).await? {
        Some(why) => anyhow::bail!(why),
        None => Ok(()),
    }
}

/// Why a writing run would stop here before changing anything, said as it
/// would say it: for a dry run, whose session is read-only by its own
/// choice (`session` false: that is not asked).
pub async fn write_refusal(
    db: &mut Db,
    table: &Table,
    command: &str,
    privileges: &[&str],
    session: bool,
) -> Result<Option<String>> {
    let sql = query_file!(db.engine(), "can_write.sql");
    let as_sql = table.sql_name(&db.dialect());
    let binds = db.dialect().can_write_binds(&as_sql, privileges);
    let row = db.query_text(sql, &binds).await?.into_iter().next().unwrap_or_default();
    let cell = |i: usize| row.get(i).cloned().flatten().unwrap_or_default();
    let host = db.target().host();
    if cell(0) == "true" {
        return Ok(Some(format!(
            "{host} is a read-only replica: {command} changes rows, so point it at the primary \
             (scan, stuck, size and doctor run on a replica)"
        )));
    }
    if session && cell(1) == "on" {
        return Ok(Some(format!(
            "the session on {host} is read-only (default_transaction_read_only): {command} changes rows"
        )));
    }
    let mut missing: Vec<String> = cell(2).split(", ").filter(|p| !p.is_empty()).map(String::from).collect();
    let driver = db.dialect().driver();
    for privilege in privileges {
        if driver.lacks_privilege(db, table, privilege).await? {
            missing.push(privilege.to_string());
        }
    }
    let missing = missing.join(", ");
    Ok((!missing.is_empty()).then(|| format!("{command} needs {missing} on {}.{}", table.schema, table.name)))
}
