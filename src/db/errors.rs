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
    database_error(err).is_some_and(|db| super::engine::of_error(db).is_row_error(db))
}

/// SQLSTATE classes of a row's fault: integrity constraint (23), data
/// exception (22), cardinality (21: a subquery with more than one row),
/// triggered action (09, 27), routines that raised (38, 39, 2F, P0).
pub(super) fn sqlstate_is_row_error(code: &str) -> bool {
    matches!(&code[..code.len().min(2)], "23" | "22" | "21" | "09" | "27" | "38" | "39" | "2F" | "P0")
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
    database_error(err).is_none_or(|db| super::engine::of_error(db).is_fault_of_session_or_sql(db))
}

/// SQLSTATE codes of a session's or the SQL's fault: connection (08),
/// transaction rollback (40), resources (53), operator intervention (57),
/// lock not available, privilege, read-only, and the class of mistakes in
/// the SQL (42).
pub(super) fn sqlstate_is_session_or_sql(code: &str) -> bool {
    matches!(&code[..code.len().min(2)], "08" | "40" | "53" | "57" | "42")
        || matches!(code, "55P03" | "25006" | "HY000" | "")
}

/// Whether an error says a function or cast does not take a value's type
/// (no hash function for it, an illegal parameter type): a column's fault,
/// not the session's.
pub fn is_type_error(err: &anyhow::Error) -> bool {
    database_error(err).is_some_and(|db| super::engine::of_error(db).is_type_error(db))
}

/// A failure of the session rather than of a row or of the SQL, said the
/// way an on-call engineer needs it: what happened, where, and what to do.
#[derive(Debug, thiserror::Error)]
pub enum Fault {
    /// A lock wait passed `--lock-timeout` (or a batch's shorter row wait).
    #[error("another session holds a lock on {on} (waited {}, {limit}){blocker}", waited_text(*waited))]
    LockWait { on: String, waited: std::time::Duration, limit: String, blocker: String },
    /// A statement passed `--statement-timeout` (or the catalog default).
    #[error("a statement ran past the statement timeout of {limit} (--statement-timeout)")]
    StatementTimeout { limit: String },
    /// The server ended the session, or the network did.
    #[error("lost the connection to {host}{reason}")]
    ConnectionLost { host: String, reason: String },
    /// A deadlock or a serialization failure: the same batch may succeed again.
    #[error("{message}")]
    Conflict { message: String },
    /// A hot standby canceled a read that conflicted with replay.
    #[error(
        "the standby canceled the read to replay changes from the primary ({message}): set hot_standby_feedback = on \
         or raise max_standby_streaming_delay on the standby, or read from the primary"
    )]
    RecoveryConflict { message: String },
}

/// A wait as measured: `3ms`, `1s`, `1.3s`.
fn waited_text(waited: std::time::Duration) -> String {
    match waited.as_millis() {
        ms @ 0..1000 => format!("{ms}ms"),
        ms if ms % 1000 == 0 => format!("{}s", ms / 1000),
        ms => format!("{:.1}s", ms as f64 / 1000.0),
    }
}

impl Fault {
    /// Whether running the same batch again may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(self, Fault::LockWait { .. } | Fault::Conflict { .. })
    }
}

/// The session fault an error is, if it is one.
pub fn fault(err: &anyhow::Error) -> Option<&Fault> {
    err.chain().find_map(|cause| cause.downcast_ref::<Fault>())
}

/// What kind of session fault a driver error is, before the details are
/// filled in (the table, the waits, the blocker).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    LockWait,
    StatementTimeout,
    /// Canceled by this process (a signal): the run is interrupted.
    Canceled,
    /// The connection is gone; the server's reason when it gave one.
    ConnectionLost(Option<String>),
    Conflict,
    RecoveryConflict,
}

/// Reads a driver error as a session fault, where it is one.
pub fn kind(err: &sqlx::Error) -> Option<Kind> {
    let db = match err {
        sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::WorkerCrashed => {
            return Some(Kind::ConnectionLost(None));
        }
        sqlx::Error::Protocol(text) if text.contains("EOF") || text.contains("closed") => {
            return Some(Kind::ConnectionLost(None));
        }
        sqlx::Error::Database(db) => db,
        _ => return None,
    };
    super::engine::of_error(db.as_ref()).fault_kind(db.as_ref())
}

/// A session fault by its SQLSTATE and message (PostgreSQL).
pub(super) fn sqlstate_kind(db: &dyn sqlx::error::DatabaseError) -> Option<Kind> {
    let message = db.message().to_string();
    match db.code().as_deref().unwrap_or_default() {
        "55P03" => Some(Kind::LockWait),
        "57014" if message.contains("statement timeout") => Some(Kind::StatementTimeout),
        "57014" if message.contains("lock timeout") => Some(Kind::LockWait),
        "57014" => Some(Kind::Canceled),
        "40001" if message.contains("conflict with recovery") => Some(Kind::RecoveryConflict),
        "40001" | "40P01" => Some(Kind::Conflict),
        "57P01" | "57P02" | "57P03" | "57P04" | "08006" | "08003" | "08000" => {
            Some(Kind::ConnectionLost(Some(message)))
        }
        _ => None,
    }
}
