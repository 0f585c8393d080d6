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
    // triggered action (09, 27), routines that raised (38, 39, 2F, P0), and
    // MySQL's unhandled user-defined SIGNAL (45000).
    matches!(&code[..code.len().min(2)], "23" | "22" | "09" | "27" | "38" | "39" | "2F" | "P0") || code == "45000"
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
