//! Reaching a server and bounding every wait: the connect options of each
//! engine (timeouts, TLS from the URL), the sessions a signal cancels on the
//! server, and SQLite's busy and progress handlers, which watch the same
//! signal and the statement timeout.

use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use sqlx::mysql::MySqlConnectOptions;
use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection};

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
        Engine::of_url(&self.url)
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
        let engine = self.engine().map(Engine::name).unwrap_or("?");
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

    pub(super) fn pg_options(&self) -> Result<PgConnectOptions> {
        check_url(&self.url, Engine::Postgres)?;
        let opts =
            PgConnectOptions::from_str(&self.url).with_context(|| format!("bad database URL {}", self.shown()))?;
        Ok(match opts.get_application_name() {
            Some(_) => opts,
            None => opts.application_name(&self.program),
        })
    }

    pub(super) fn mysql_options(&self) -> Result<MySqlConnectOptions> {
        check_url(&self.url, Engine::MySql)?;
        let url = match self.url.strip_prefix("mariadb:") {
            Some(rest) => format!("mysql:{rest}"),
            None => self.url.clone(),
        };
        Ok(MySqlConnectOptions::from_str(&url)
            .with_context(|| format!("bad database URL {}", self.shown()))?
            .timezone(Some(String::from("+00:00"))))
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

/// Turns Nagle's algorithm off on the process's TCP sockets. sqlx 0.9.0
/// leaves it on (transact-rs/sqlx#4335; the fix, #4336, is not released
/// yet): a statement sent as two TLS records then waits for the server's
/// delayed ACK, 40 ms a round trip. Called after each connect, it sets
/// `TCP_NODELAY` on every descriptor; on one that is not a TCP socket the
/// call fails and changes nothing.
pub(super) fn no_delay() {
    #[cfg(unix)]
    {
        let fds: Vec<libc::c_int> = match std::fs::read_dir("/proc/self/fd") {
            Ok(dir) => dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok()).collect(),
            Err(_) => (0..1024).collect(),
        };
        let on: libc::c_int = 1;
        for fd in fds {
            // SAFETY: a plain option write on a descriptor number; an invalid
            // or non-TCP descriptor makes the call fail with no effect.
            unsafe {
                libc::setsockopt(
                    fd,
                    libc::IPPROTO_TCP,
                    libc::TCP_NODELAY,
                    (&raw const on).cast(),
                    std::mem::size_of::<libc::c_int>() as libc::socklen_t,
                );
            }
        }
    }
}

/// Runs a connect with `no_delay` applied every millisecond meanwhile, so
/// that the socket has it before the TLS handshake's second flight (a
/// handshake on a socket with Nagle on waits twice for a delayed ACK:
/// 90 ms a connection).
pub(super) async fn with_no_delay<T>(connecting: impl Future<Output = T>) -> T {
    tokio::pin!(connecting);
    let mut tick = tokio::time::interval(Duration::from_millis(1));
    loop {
        tokio::select! {
            biased;
            done = &mut connecting => {
                no_delay();
                return done;
            }
            _ = tick.tick() => no_delay(),
        }
    }
}

/// The URL parameters each engine's driver reads; the driver passes over
/// any other name in silence, so that a misspelt `sslmod=verify-full` would
/// connect unverified.
fn known_params(engine: Engine) -> &'static [&'static str] {
    match engine {
        Engine::Postgres => &[
            "sslmode",
            "ssl-mode",
            "sslrootcert",
            "ssl-root-cert",
            "ssl-ca",
            "sslcert",
            "ssl-cert",
            "sslkey",
            "ssl-key",
            "statement-cache-capacity",
            "host",
            "hostaddr",
            "port",
            "dbname",
            "user",
            "password",
            "application_name",
            "options",
        ],
        Engine::MySql => &[
            "sslmode",
            "ssl-mode",
            "sslca",
            "ssl-ca",
            "sslcert",
            "ssl-cert",
            "sslkey",
            "ssl-key",
            "charset",
            "collation",
            "statement-cache-capacity",
            "socket",
            "timezone",
            "time-zone",
        ],
        Engine::Sqlite => &["mode", "cache", "immutable", "vfs"],
    }
}

/// Refuses what the driver would take silently or say obscurely: an unknown
/// parameter, a TLS mode of the other engine's spelling, a certificate file
/// that is not there.
pub(super) fn check_url(url: &str, engine: Engine) -> Result<()> {
    let Ok(parsed) = url::Url::parse(&url.replacen("mariadb:", "mysql:", 1)) else { return Ok(()) };
    let known = known_params(engine);
    for (key, value) in parsed.query_pairs() {
        if key.starts_with("options[") && engine == Engine::Postgres {
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
        let modes: &[&str] = match engine {
            Engine::Postgres => &["disable", "allow", "prefer", "require", "verify-ca", "verify-full"],
            _ => &["disabled", "preferred", "required", "verify_ca", "verify_identity"],
        };
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

/// A server session's own id, by which another session cancels its statement.
#[derive(Debug, Clone, Copy)]
pub(super) enum ServerId {
    Postgres(i32),
    MySql(u64),
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
        let end = match server {
            ServerId::Postgres(pid) => format!("SELECT pg_cancel_backend({pid})"),
            ServerId::MySql(id) => format!("KILL QUERY {id}"),
        };
        Some(format!(
            "could not cancel the statement running on {} ({why}): it may still run there; end it with {end}",
            target.host()
        ))
    });
    futures_util::future::join_all(cancels).await.into_iter().flatten().collect()
}

async fn cancel(server: ServerId, target: &Target) -> Result<()> {
    match server {
        ServerId::Postgres(pid) => {
            let mut conn = target.pg_options()?.connect().await?;
            sqlx::query("SELECT pg_cancel_backend($1)").bind(pid).execute(&mut conn).await?;
            conn.close().await?;
        }
        ServerId::MySql(id) => {
            let mut conn = target.mysql_options()?.connect().await?;
            match sqlx::raw_sql(sqlx::AssertSqlSafe(format!("KILL QUERY {id}"))).execute(&mut conn).await {
                // Unknown thread id: the session has ended, and its statement with it.
                Err(sqlx::Error::Database(e))
                    if e.code().as_deref() == Some("HY000") && e.message().contains("Unknown thread") => {}
                other => {
                    other?;
                }
            }
            conn.close().await?;
        }
    }
    Ok(())
}

/// SQLite's watch over one connection: the busy handler waits for another
/// connection's lock up to the lock timeout, and the progress handler stops
/// a statement past its deadline; both give up at once on Ctrl-C or SIGTERM.
#[derive(Debug)]
pub(super) struct LiteWatch {
    lock_timeout: Duration,
    /// When the statement under way must end, in microseconds from `epoch()`; 0 for never.
    deadline_us: AtomicU64,
    /// When the current busy wait began, likewise.
    busy_since_us: AtomicU64,
    /// Set when the progress handler stopped a statement for its deadline.
    timed_out: AtomicBool,
}

fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_us() -> u64 {
    epoch().elapsed().as_micros() as u64 + 1
}

impl LiteWatch {
    pub(super) fn new(lock_timeout: Duration) -> Arc<LiteWatch> {
        Arc::new(LiteWatch {
            lock_timeout,
            deadline_us: AtomicU64::new(0),
            busy_since_us: AtomicU64::new(0),
            timed_out: AtomicBool::new(false),
        })
    }

    /// A statement starts that may run for `limit` (or without one).
    pub(super) fn start(&self, limit: Option<Duration>) {
        self.timed_out.store(false, Ordering::SeqCst);
        let deadline = limit.map_or(0, |l| now_us().saturating_add(l.as_micros() as u64));
        self.deadline_us.store(deadline, Ordering::SeqCst);
    }

    /// Whether the last statement was stopped for its deadline.
    pub(super) fn timed_out(&self) -> bool {
        self.timed_out.load(Ordering::SeqCst)
    }

    /// Installs both handlers on a connection.
    ///
    /// # Safety
    /// `db` is an open handle. The handlers hold a reference that is never
    /// released: a connection's worker thread may still step a statement
    /// after its owner is gone, and a few bytes per connection are cheap.
    pub(super) unsafe fn install(self: &Arc<LiteWatch>, db: *mut libsqlite3_sys::sqlite3) {
        use libsqlite3_sys as ffi;
        let arg = Arc::into_raw(self.clone()).cast_mut().cast::<std::ffi::c_void>();
        // SAFETY: the caller's promise; the callbacks read `arg` as a LiteWatch.
        unsafe {
            ffi::sqlite3_busy_handler(db, Some(lite_busy), arg);
            ffi::sqlite3_progress_handler(db, 50_000, Some(lite_progress), arg);
        }
    }
}

unsafe extern "C" fn lite_busy(arg: *mut std::ffi::c_void, count: std::ffi::c_int) -> std::ffi::c_int {
    // SAFETY: `install` passed a LiteWatch that is never freed.
    let watch = unsafe { &*arg.cast::<LiteWatch>() };
    let now = now_us();
    if count == 0 {
        watch.busy_since_us.store(now, Ordering::SeqCst);
    }
    let waited = Duration::from_micros(now.saturating_sub(watch.busy_since_us.load(Ordering::SeqCst)));
    if crate::interrupt::is_set() || waited >= watch.lock_timeout {
        return 0;
    }
    std::thread::sleep(Duration::from_millis(if count < 10 { 2 } else { 20 }));
    1
}

unsafe extern "C" fn lite_progress(arg: *mut std::ffi::c_void) -> std::ffi::c_int {
    // SAFETY: as above.
    let watch = unsafe { &*arg.cast::<LiteWatch>() };
    if crate::interrupt::is_set() {
        return 1;
    }
    let deadline = watch.deadline_us.load(Ordering::Relaxed);
    if deadline != 0 && now_us() > deadline {
        watch.timed_out.store(true, Ordering::SeqCst);
        return 1;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(err("postgres://h/db?sslmod=verify-full", Engine::Postgres).contains("did you mean sslmode?"));
        assert!(err("mysql://h/db?ssl_mode=REQUIRED", Engine::MySql).contains("did you mean ssl-mode?"));
        assert!(err("mysql://h/db?sslmode=require", Engine::MySql).contains("required"));
        assert!(
            err("postgres://h/db?sslmode=verify-full&sslrootcert=/nonexistent.pem", Engine::Postgres)
                .contains("sslrootcert=/nonexistent.pem in the database URL: no such file")
        );
        check_url("postgres://h/db?sslmode=verify-full&application_name=x&options[search_path]=a", Engine::Postgres)
            .unwrap();
        check_url("mariadb://h/db?ssl-mode=REQUIRED", Engine::MySql).unwrap();
    }

    #[test]
    fn whole_seconds_round_up() {
        assert_eq!(whole_seconds(Duration::from_millis(1)), 1);
        assert_eq!(whole_seconds(Duration::from_secs(5)), 5);
        assert_eq!(whole_seconds(Duration::from_millis(5500)), 6);
    }
}
