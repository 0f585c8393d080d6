//! A driver error explained: the fault it is (a lock wait, a timeout, a lost
//! connection), with the table, the wait and the session that blocked it.

use std::time::{Duration, Instant};

use super::*;

impl Ctx {
    /// A driver error as the fault it is, with the table, the wait (since
    /// `started`) and the blocking session filled in; other errors as they are.
    pub(super) async fn explain(&self, err: anyhow::Error, started: Instant) -> anyhow::Error {
        use errors::{Fault, Kind};
        if crate::interrupt::is_set() {
            return crate::exit::Interrupted.into();
        }
        let kind = if err.downcast_ref::<lite::StepInterrupted>().is_some() {
            Some(Kind::Canceled)
        } else if err.downcast_ref::<lite::StepBusy>().is_some() {
            Some(Kind::LockWait)
        } else {
            err.chain().find_map(|c| c.downcast_ref::<sqlx::Error>()).and_then(errors::kind)
        };
        let Some(kind) = kind else { return err };
        let fault = match kind {
            Kind::Canceled if self.lite.as_ref().is_some_and(|w| w.timed_out()) => {
                Fault::StatementTimeout { limit: self.statement_limit.map(timeparse::short).unwrap_or_default() }
            }
            Kind::Canceled => return err.context("canceled by another session"),
            Kind::LockWait => {
                let waited = started.elapsed();
                let holder = self.blocker().await;
                // A writer's batch gives up on a row sooner than --lock-timeout.
                let row_wait =
                    self.row_wait.filter(|rw| waited + Duration::from_millis(50) < self.target.lock_timeout.max(*rw));
                let on_rows = match &holder {
                    Some((_, kind)) => kind == "rows",
                    None => row_wait.is_some(),
                };
                let table = match (&self.lite, &self.subject) {
                    (Some(_), _) => format!("the database file {}", self.target.host()),
                    (None, Some(subject)) => subject.shown.clone(),
                    (None, None) => "a table this command reads".to_string(),
                };
                Fault::LockWait {
                    on: if on_rows && self.lite.is_none() { format!("rows of {table}") } else { table },
                    waited: Duration::from_millis(match waited.as_millis() {
                        ms @ 0..1000 => ms as u64,
                        ms => (ms as u64 + 50) / 100 * 100,
                    }),
                    limit: match row_wait {
                        Some(rw) => format!("a batch waits at most {}", timeparse::short(rw)),
                        None => "--lock-timeout".to_string(),
                    },
                    blocker: holder.map(|(b, _)| format!("; held by {b}")).unwrap_or_default(),
                }
            }
            Kind::StatementTimeout => {
                Fault::StatementTimeout { limit: self.statement_limit.map(timeparse::short).unwrap_or_default() }
            }
            Kind::ConnectionLost(reason) => Fault::ConnectionLost {
                host: self.target.host(),
                reason: reason
                    .map(|r| format!(" (the server said: {})", r.split_whitespace().collect::<Vec<_>>().join(" ")))
                    .unwrap_or_default(),
            },
            Kind::Conflict => Fault::Conflict { message: errors::message(&err) },
            Kind::RecoveryConflict => Fault::RecoveryConflict { message: errors::message(&err) },
        };
        fault.into()
    }

    /// Who holds the lock on the subject, where the role may see it: a
    /// short session of its own, bounded to a second and a half.
    /// And the kind of hold: `table`, `queued` (a table lock requested
    /// ahead) or `rows`.
    pub(super) async fn blocker(&self) -> Option<(String, String)> {
        let subject = self.subject.as_ref()?;
        let server = self.server?;
        let look = server.engine.driver().lock_holder(&self.target, subject, server.id);
        tokio::time::timeout(Duration::from_millis(1500), look).await.ok().flatten()
    }
}
