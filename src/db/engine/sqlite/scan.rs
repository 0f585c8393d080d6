//! SQLite bulk reads through the C API. sqlx's SQLite driver copies every
//! value of every row into its own structures and hands rows over from a
//! worker thread; stepping a statement here and reading the columns in place
//! costs a fraction of that, which is most of a scan's time on SQLite.

use std::ffi::{CStr, CString, c_int};
use std::path::Path;
use std::ptr;
use std::sync::Arc;

use anyhow::{Result, bail};
use libsqlite3_sys as ffi;

use super::LiteWatch;
use crate::db::Bind;

/// A read-only connection and one prepared statement, stepped row by row.
pub struct Scan {
    db: *mut ffi::sqlite3,
    stmt: *mut ffi::sqlite3_stmt,
    columns: usize,
}

// The handles are used from one task at a time, never shared.
unsafe impl Send for Scan {}

/// The progress handler stopped a step (Ctrl-C, or the statement timeout).
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
pub struct StepInterrupted;

/// Another connection held the database's lock past the busy wait.
#[derive(Debug, thiserror::Error)]
#[error("database is locked")]
pub struct StepBusy;

/// A value's storage class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Integer,
    Float,
    Text,
    Blob,
    Null,
}

impl Scan {
    /// Opens the file read-only and prepares `sql`; `watch` bounds its
    /// waits on other connections' locks and its run time, and stops it on
    /// Ctrl-C.
    pub(in crate::db) fn open(path: &Path, sql: &str, binds: &[Bind], watch: &Arc<LiteWatch>) -> Result<Scan> {
        let cpath = CString::new(path.to_string_lossy().as_bytes())?;
        let mut db = ptr::null_mut();
        // SAFETY: valid NUL-terminated path and out-pointer; the handle is closed in Drop.
        // NOMUTEX: the handle is used by one thread at a time, so no lock per call.
        let rc = unsafe {
            ffi::sqlite3_open_v2(
                cpath.as_ptr(),
                &mut db,
                ffi::SQLITE_OPEN_READONLY | ffi::SQLITE_OPEN_NOMUTEX,
                ptr::null(),
            )
        };
        let mut scan = Scan { db, stmt: ptr::null_mut(), columns: 0 };
        if rc != ffi::SQLITE_OK {
            bail!("cannot open {}: {}", path.display(), scan.error());
        }
        // SAFETY: the handle was just opened and is used by this thread alone.
        unsafe {
            super::functions::register(db)?;
            watch.install(db);
        }
        let csql = CString::new(sql)?;
        // SAFETY: open handle, NUL-terminated SQL, out-pointer for the statement.
        let rc = unsafe { ffi::sqlite3_prepare_v2(db, csql.as_ptr(), -1, &mut scan.stmt, ptr::null_mut()) };
        if rc == ffi::SQLITE_BUSY || rc == ffi::SQLITE_LOCKED {
            return Err(StepBusy.into());
        }
        if rc != ffi::SQLITE_OK {
            bail!("{}", scan.error());
        }
        for (i, bind) in binds.iter().enumerate() {
            let n = i as c_int + 1;
            // SAFETY: prepared statement; SQLITE_TRANSIENT makes SQLite copy the text.
            let rc = unsafe {
                match bind {
                    Bind::Int(v) => ffi::sqlite3_bind_int64(scan.stmt, n, *v),
                    Bind::Null => ffi::sqlite3_bind_null(scan.stmt, n),
                    Bind::Text(t) => ffi::sqlite3_bind_text(
                        scan.stmt,
                        n,
                        t.as_ptr().cast(),
                        t.len() as c_int,
                        ffi::SQLITE_TRANSIENT(),
                    ),
                }
            };
            if rc != ffi::SQLITE_OK {
                bail!("{}", scan.error());
            }
        }
        // SAFETY: prepared statement.
        scan.columns = unsafe { ffi::sqlite3_column_count(scan.stmt) } as usize;
        Ok(scan)
    }

    fn error(&self) -> String {
        if self.db.is_null() {
            return "out of memory".into();
        }
        // SAFETY: open handle; the message lives until the next call on it, and is copied here.
        unsafe { CStr::from_ptr(ffi::sqlite3_errmsg(self.db)).to_string_lossy().into_owned() }
    }

    /// Moves to the next row; false at the end.
    pub fn step(&mut self) -> Result<bool> {
        // SAFETY: prepared statement.
        match unsafe { ffi::sqlite3_step(self.stmt) } {
            ffi::SQLITE_ROW => Ok(true),
            ffi::SQLITE_DONE => Ok(false),
            ffi::SQLITE_INTERRUPT => Err(StepInterrupted.into()),
            ffi::SQLITE_BUSY | ffi::SQLITE_LOCKED => Err(StepBusy.into()),
            _ => bail!("{}", self.error()),
        }
    }

    pub fn columns(&self) -> usize {
        self.columns
    }

    pub fn class(&self, i: usize) -> Class {
        // SAFETY: the statement is on a row and i is below the column count.
        match unsafe { ffi::sqlite3_column_type(self.stmt, i as c_int) } {
            ffi::SQLITE_INTEGER => Class::Integer,
            ffi::SQLITE_FLOAT => Class::Float,
            ffi::SQLITE_TEXT => Class::Text,
            ffi::SQLITE_BLOB => Class::Blob,
            _ => Class::Null,
        }
    }

    pub fn int(&self, i: usize) -> i64 {
        // SAFETY: as in `class`.
        unsafe { ffi::sqlite3_column_int64(self.stmt, i as c_int) }
    }

    pub fn float(&self, i: usize) -> f64 {
        // SAFETY: as in `class`.
        unsafe { ffi::sqlite3_column_double(self.stmt, i as c_int) }
    }

    /// A text or blob value's bytes, valid until the next step.
    pub fn bytes(&self, i: usize) -> &[u8] {
        // SAFETY: as in `class`. Text is asked for before its length, as SQLite
        // requires; the pointer stays valid until the next step, and `&self`
        // keeps `step` (which takes `&mut self`) from running meanwhile.
        unsafe {
            let data = if self.class(i) == Class::Blob {
                ffi::sqlite3_column_blob(self.stmt, i as c_int)
            } else {
                ffi::sqlite3_column_text(self.stmt, i as c_int).cast()
            };
            let len = ffi::sqlite3_column_bytes(self.stmt, i as c_int) as usize;
            if data.is_null() || len == 0 { &[] } else { std::slice::from_raw_parts(data.cast::<u8>(), len) }
        }
    }
}

impl Drop for Scan {
    fn drop(&mut self) {
        // SAFETY: each handle is finalized or closed once; null is allowed for both.
        unsafe {
            ffi::sqlite3_finalize(self.stmt);
            ffi::sqlite3_close(self.db);
        }
    }
}
