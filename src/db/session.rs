//! Reaching a server and bounding every wait: the connect options of each
//! engine (timeouts, TLS from the URL), the sessions a signal cancels on the
//! server, and SQLite's busy and progress handlers, which watch the same
//! signal and the statement timeout.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};

use super::engine::ServerId;
use super::{Engine, redact};

/// How long catalog reads, counts and each batch may run when no
/// `--statement-timeout` is given.
pub const CATALOG_STATEMENT_TIMEOUT: Duration = Duration::from_secs(60);

/// A database to reach, and how long each wait on it may last.
#[derive(Debug, Clone)]
pub struct Target {
    pub url: String,
    /// Name resolution, TCP, TLS and authentication together.
    pub connect_timeout: Duration,
    /// Every wait for a lock held by another session, reads included.
    pub lock_timeout: Duration,
    /// Each statement; `None`: the catalog default, and none for a scan's read.
    pub statement_timeout: Option<Duration>,
    /// How the sessions are named on the server (`idemctl scan`), unless the
    /// URL names them (PostgreSQL's `application_name`).
    pub program: String,
}

impl Target {
    /// A target with the default waits (10 s to connect, 5 s on a lock).
    pub fn new(url: impl Into<String>) -> Target {
        Target {
            url: url.into(),
            connect_timeout: Duration::from_secs(10),
            lock_timeout: Duration::from_secs(5),
            statement_timeout: None,
            program: "idemctl".to_string(),
        }
    }

    pub fn engine(&self) -> Result<Engine> {
        super::engine_of(&self.url)
    }

    /// The URL without its password, for messages.
    pub fn shown(&self) -> String {
        redact(&self.url)
    }

    /// The server's host and port (or the SQLite file), for messages.
    pub fn host(&self) -> String {
        let Some((_, rest)) = self.url.split_once("://") else {
            return self.url.trim_start_matches("sqlite:").to_string();
        };
        let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
        let host = rest.split(['/', '?']).next().unwrap_or_default();
        if host.is_empty() { "the local socket".to_string() } else { host.to_string() }
    }

    /// The engine, server and database, for people: `postgres
    /// db.example.com:5432/app`, `sqlite /var/lib/app.db` (no user, no password).
    pub fn place(&self) -> String {
        let engine = self.engine().map(|e| e.name()).unwrap_or("?");
        match self.server() {
            Some((host, port, path)) => {
                let port = port.map(|p| format!(":{p}")).unwrap_or_default();
                format!("{engine} {host}{port}{path}")
            }
            None => format!("{engine} {}", self.host()),
        }
    }

    /// A server's host, port (as the URL gives it) and path (`/app`);
    /// `None` for SQLite and for a URL without a host (a local socket).
    pub fn server(&self) -> Option<(String, Option<u16>, String)> {
        let url = url::Url::parse(&self.url.replacen("mariadb:", "mysql:", 1)).ok().filter(url::Url::has_host)?;
        Some((url.host_str().unwrap_or_default().to_string(), url.port(), url.path().to_string()))
    }

    /// The limit on catalog reads, counts and batches.
    pub fn statement_limit(&self) -> Duration {
        self.statement_timeout.unwrap_or(CATALOG_STATEMENT_TIMEOUT)
    }

    /// Runs `connecting` within the connect timeout; past it, one line that
    /// names the host and the timeout.
    pub(super) async fn within_connect_timeout<T>(
        &self,
        connecting: impl Future<Output = Result<T, sqlx::Error>>,
    ) -> Result<T> {
        let limit = self.connect_timeout;
        let connecting = async {
            tokio::select! {
                result = connecting => Some(result),
                () = crate::interrupt::wait() => None,
            }
        };
        match tokio::time::timeout(limit, connecting).await {
            Ok(Some(result)) => result.with_context(|| format!("cannot connect to {}", self.shown())),
            Ok(None) => Err(crate::exit::Interrupted.into()),
            Err(_) => anyhow::bail!(
                "cannot connect to {}: no answer within {} (--connect-timeout)",
                self.host(),
                crate::timeparse::short(limit)
            ),
        }
    }
}

/// Refuses what the driver would take silently or say obscurely: an unknown
/// parameter, a TLS mode of the other engine's spelling, a certificate file
/// that is not there.
pub(super) fn check_url(url: &str, engine: Engine) -> Result<()> {
    let Ok(parsed) = url::Url::parse(&url.replacen("mariadb:", "mysql:", 1)) else { return Ok(()) };
    let driver = engine.driver();
    let known = driver.url_params();
    for (key, value) in parsed.query_pairs() {
        if driver.open_url_param(&key) {
            continue;
        }
        if !known.contains(&key.as_ref()) {
            let near = known
                .iter()
                .map(|k| (strsim::levenshtein(k, &key), k))
                .min()
                .filter(|(d, _)| *d <= 3)
                .map(|(_, k)| format!(" (did you mean {k}?)"))
                .unwrap_or_default();
            anyhow::bail!(
                "unknown parameter {key} in the database URL{near}; {} URLs take {}",
                engine.name(),
                known.join(", ")
            );
        }
        let modes = driver.ssl_modes();
        if matches!(key.as_ref(), "sslmode" | "ssl-mode") && !modes.iter().any(|m| m.eq_ignore_ascii_case(&value)) {
            anyhow::bail!("{key}={value} in the database URL: {} takes {}", engine.name(), modes.join(", "));
        }
        let file = matches!(
            key.as_ref(),
            "sslrootcert" | "ssl-root-cert" | "ssl-ca" | "sslca" | "sslcert" | "ssl-cert" | "sslkey" | "ssl-key"
        );
        if file && !std::path::Path::new(value.as_ref()).is_file() {
            anyhow::bail!("{key}={value} in the database URL: no such file");
        }
    }
    Ok(())
}

/// Seconds for settings that take whole seconds, at least one.
pub(super) fn whole_seconds(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

struct Entry {
    id: u64,
    server: ServerId,
    target: Arc<Target>,
    busy: bool,
}

static SESSIONS: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
static NEXT: AtomicU64 = AtomicU64::new(1);

/// A live server session, known to the canceller until dropped.
#[derive(Debug)]
pub(super) struct Registration(Option<u64>);

impl Registration {
    pub(super) fn server(server: ServerId, target: Arc<Target>) -> Registration {
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        sessions().push(Entry { id, server, target, busy: false });
        Registration(Some(id))
    }

    /// SQLite watches the signal itself (its handlers, below).
    pub(super) fn embedded() -> Registration {
        Registration(None)
    }

    /// Marks the session as running a statement until the guard drops.
    pub(super) fn busy(&self) -> Busy<'_> {
        self.set_busy(true);
        Busy(self)
    }

    fn set_busy(&self, busy: bool) {
        if let Some(id) = self.0
            && let Some(entry) = sessions().iter_mut().find(|e| e.id == id)
        {
            entry.busy = busy;
        }
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        if let Some(id) = self.0 {
            sessions().retain(|e| e.id != id);
        }
    }
}

pub(super) struct Busy<'a>(&'a Registration);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.set_busy(false);
    }
}

fn sessions() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    SESSIONS.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Cancels, on the server, every statement a session of this process is
/// running: PostgreSQL's `pg_cancel_backend`, MySQL's `KILL QUERY`, each
/// from a short session of its own. Bounded: a server that does not answer
/// within a second is left to drop the connection when the process ends.
///
/// Returns a line for each statement it could not cancel, which may still
/// run on its server, with the SQL that ends it.
pub async fn cancel_running() -> Vec<String> {
    let running: Vec<(u64, ServerId, Arc<Target>)> =
        sessions().iter().filter(|e| e.busy).map(|e| (e.id, e.server, e.target.clone())).collect();
    let cancels = running.into_iter().map(|(id, server, target)| async move {
        let done = tokio::time::timeout(Duration::from_millis(1200), cancel(server, &target)).await;
        let why = match done {
            Ok(Ok(())) => return None,
            Ok(Err(err)) => crate::exit::one_line(&err),
            Err(_) => "no answer within 1.2s".to_string(),
        };
        // A statement that ended meanwhile (its session closed, or idle) needs no cancel.
        if !sessions().iter().any(|e| e.id == id && e.busy) {
            return None;
        }
        let end = server.engine.driver().cancel_sql(server.id);
        Some(format!(
            "could not cancel the statement running on {} ({why}): it may still run there; end it with {end}",
            target.host()
        ))
    });
    futures_util::future::join_all(cancels).await.into_iter().flatten().collect()
}

async fn cancel(server: ServerId, target: &Target) -> Result<()> {
    server.engine.driver().cancel(target, server.id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pg() -> Engine {
        super::super::engine_of("postgres://h/db").unwrap()
    }

    fn my() -> Engine {
        super::super::engine_of("mysql://h/db").unwrap()
    }

    #[test]
    fn hosts_for_messages() {
        assert_eq!(
            Target::new("postgres://u:secret@db.example.com:6432/app?sslmode=require").host(),
            "db.example.com:6432"
        );
        assert_eq!(Target::new("mysql://root@127.0.0.1:3306/test").host(), "127.0.0.1:3306");
        assert_eq!(Target::new("postgres:///test").host(), "the local socket");
        assert_eq!(Target::new("sqlite:/tmp/x.db").host(), "/tmp/x.db");
        assert_eq!(Target::new("postgres://u:secret@db:6432/app?sslmode=require").place(), "postgres db:6432/app");
        assert_eq!(Target::new("sqlite:/tmp/x.db").place(), "sqlite /tmp/x.db");
    }

    #[test]
    fn urls_are_checked_before_the_driver_reads_them() {
        let err = |url: &str, engine| check_url(url, engine).unwrap_err().to_string();
        assert!(err("postgres://h/db?sslmod=verify-full", pg()).contains("did you mean sslmode?"));
        assert!(err("mysql://h/db?ssl_mode=REQUIRED", my()).contains("did you mean ssl-mode?"));
        assert!(err("mysql://h/db?sslmode=require", my()).contains("required"));
        assert!(
            err("postgres://h/db?sslmode=verify-full&sslrootcert=/nonexistent.pem", pg())
                .contains("sslrootcert=/nonexistent.pem in the database URL: no such file")
        );
        check_url("postgres://h/db?sslmode=verify-full&application_name=x&options[search_path]=a", pg()).unwrap();
        check_url("mariadb://h/db?ssl-mode=REQUIRED", my()).unwrap();
    }

    #[test]
    fn whole_seconds_round_up() {
        assert_eq!(whole_seconds(Duration::from_millis(1)), 1);
        assert_eq!(whole_seconds(Duration::from_secs(5)), 5);
        assert_eq!(whole_seconds(Duration::from_millis(5500)), 6);
    }
}
