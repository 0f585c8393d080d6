//! SQLite's own bounds on every wait: a busy handler for another
//! connection's lock and a progress handler for the statement timeout, both
//! watching Ctrl-C and SIGTERM.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// SQLite's watch over one connection: the busy handler waits for another
/// connection's lock up to the lock timeout, and the progress handler stops
/// a statement past its deadline; both give up at once on Ctrl-C or SIGTERM.
#[derive(Debug)]
pub(in crate::db) struct LiteWatch {
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
    pub(in crate::db) fn new(lock_timeout: Duration) -> Arc<LiteWatch> {
        Arc::new(LiteWatch {
            lock_timeout,
            deadline_us: AtomicU64::new(0),
            busy_since_us: AtomicU64::new(0),
            timed_out: AtomicBool::new(false),
        })
    }

    /// A statement starts that may run for `limit` (or without one).
    pub(in crate::db) fn start(&self, limit: Option<Duration>) {
        self.timed_out.store(false, Ordering::SeqCst);
        let deadline = limit.map_or(0, |l| now_us().saturating_add(l.as_micros() as u64));
        self.deadline_us.store(deadline, Ordering::SeqCst);
    }

    /// Whether the last statement was stopped for its deadline.
    pub(in crate::db) fn timed_out(&self) -> bool {
        self.timed_out.load(Ordering::SeqCst)
    }

    /// Installs both handlers on a connection.
    ///
    /// # Safety
    /// `db` is an open handle. The handlers hold a reference that is never
    /// released: a connection's worker thread may still step a statement
    /// after its owner is gone, and a few bytes per connection are cheap.
    pub(in crate::db) unsafe fn install(self: &Arc<LiteWatch>, db: *mut libsqlite3_sys::sqlite3) {
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
