//! The SQL functions idemctl registers on its SQLite connections.

use std::ffi::c_int;

use anyhow::{Result, bail};
use libsqlite3_sys as ffi;

use crate::db::times::{Value, micros};

/// Registers `idemctl_us(value, millis)` on an SQLite connection: the SQL
/// side of `micros`, so that conditions and orderings read times exactly as
/// the scan does.
///
/// # Safety
/// `db` must be an open connection that no other thread uses meanwhile.
pub(in crate::db) unsafe fn register(db: *mut ffi::sqlite3) -> Result<()> {
    let name = c"idemctl_us";
    // SAFETY: open handle (the caller's promise); the function has the
    // signature SQLite calls; no user data, no destructor.
    let rc = unsafe {
        ffi::sqlite3_create_function_v2(
            db,
            name.as_ptr(),
            2,
            ffi::SQLITE_UTF8 | ffi::SQLITE_DETERMINISTIC,
            std::ptr::null_mut(),
            Some(sqlite_micros),
            None,
            None,
            None,
        )
    };
    if rc != ffi::SQLITE_OK {
        bail!("cannot register the SQLite function idemctl_us (error {rc})");
    }
    Ok(())
}

/// # Safety
/// Called by SQLite with `argc` valid values.
unsafe fn sqlite_value<'a>(value: *mut ffi::sqlite3_value) -> Value<'a> {
    // SAFETY: a value SQLite passed in, read before the call returns.
    unsafe {
        match ffi::sqlite3_value_type(value) {
            ffi::SQLITE_INTEGER => Value::Int(ffi::sqlite3_value_int64(value)),
            ffi::SQLITE_FLOAT => Value::Real(ffi::sqlite3_value_double(value)),
            ffi::SQLITE_TEXT => {
                let data = ffi::sqlite3_value_text(value);
                let len = ffi::sqlite3_value_bytes(value) as usize;
                if data.is_null() { Value::Text(&[]) } else { Value::Text(std::slice::from_raw_parts(data, len)) }
            }
            ffi::SQLITE_BLOB => Value::Blob,
            _ => Value::Null,
        }
    }
}

unsafe extern "C" fn sqlite_micros(ctx: *mut ffi::sqlite3_context, argc: c_int, argv: *mut *mut ffi::sqlite3_value) {
    // SAFETY: SQLite passes `argc` (here 2) valid values and a live context.
    unsafe {
        if argc != 2 {
            ffi::sqlite3_result_null(ctx);
            return;
        }
        let args = std::slice::from_raw_parts(argv, 2);
        let millis = ffi::sqlite3_value_int64(args[1]) != 0;
        match micros(sqlite_value(args[0]), millis) {
            Some(us) => ffi::sqlite3_result_int64(ctx, us),
            None => ffi::sqlite3_result_null(ctx),
        }
    }
}
