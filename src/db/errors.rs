//! What the database said when a statement failed, read by engine.

/// The database's own error, if `err` carries one.
fn database_error(err: &anyhow::Error) -> Option<&(dyn sqlx::error::DatabaseError + 'static)> {
    err.chain().find_map(|cause| match cause.downcast_ref::<sqlx::Error>() {
        Some(sqlx::Error::Database(db)) => Some(db.as_ref()),
        _ => None,
    })
}

/// Whether a statement failed because of the rows it touched (a constraint,
/// a trigger that refused, a value the column cannot take), so that the
/// other rows of its batch can still go. A lost connection, a lock or
/// statement timeout, a deadlock, a missing privilege or a mistake in the SQL
/// would fail for every row: those stop the run.
pub fn is_row_error(err: &anyhow::Error) -> bool {
    let Some(db) = database_error(err) else { return false };
    let Some(code) = db.code() else { return false };
    if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
        // SQLite: an extended result code whose primary code is SQLITE_CONSTRAINT
        // (constraints, and triggers that RAISE).
        return code.parse::<i64>().is_ok_and(|extended| extended & 0xff == 19);
    }
    // SQLSTATE classes: integrity constraint (23), data exception (22),
    // cardinality (21: a subquery with more than one row),
    // triggered action (09, 27), routines that raised (38, 39, 2F, P0), and
    // MySQL's unhandled user-defined SIGNAL (45000).
    matches!(&code[..code.len().min(2)], "23" | "22" | "21" | "09" | "27" | "38" | "39" | "2F" | "P0")
        || code == "45000"
}

/// The database's message for an error, on one line, without the cause
/// chain around it; or the whole chain when it is not the database's.
pub fn message(err: &anyhow::Error) -> String {
    let text = match database_error(err) {
        Some(db) => db.message().to_string(),
        None => format!("{err:#}"),
    };
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether an error says the session cannot go on as it is (the connection
/// lost, a lock or statement timeout, a deadlock, a missing privilege, a
/// read-only server), or that the SQL itself is wrong (no such table or
/// column): the same for every key, so a run stops at it.
pub fn is_fault_of_session_or_sql(err: &anyhow::Error) -> bool {
    let Some(db) = database_error(err) else { return true };
    if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
        let code = db.code().and_then(|c| c.parse::<i64>().ok()).unwrap_or(0) & 0xff;
        // BUSY, LOCKED, READONLY, INTERRUPT, IOERR, CORRUPT, FULL, CANTOPEN, AUTH;
        // a missing table or column is SQLITE_ERROR with its own words.
        return matches!(code, 5 | 6 | 8 | 9 | 10 | 11 | 13 | 14 | 23) || db.message().starts_with("no such");
    }
    if let Some(mysql) = db.try_downcast_ref::<sqlx::mysql::MySqlDatabaseError>() {
        // Lock wait, deadlock, query interrupted or timed out, access denied, read-only.
        if matches!(mysql.number(), 1205 | 1213 | 1317 | 1969 | 3024 | 1044 | 1045 | 1142 | 1143 | 1227 | 1290 | 1792) {
            return true;
        }
    }
    let code = db.code().unwrap_or_default();
    // Connection (08), transaction rollback (40), resources (53), operator
    // intervention (57), lock not available, privilege, read-only, and the
    // class of mistakes in the SQL (42).
    matches!(&code[..code.len().min(2)], "08" | "40" | "53" | "57" | "42")
        || matches!(code.as_ref(), "55P03" | "25006" | "HY000" | "")
}
