//! Ctrl-C and SIGTERM, for the whole process: a flag set by the first signal,
//! which every wait checks (statements, busy waits, pauses), and an immediate
//! exit on the second. Installed before the first connection.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

static STOP: AtomicBool = AtomicBool::new(false);

fn notify() -> &'static Notify {
    static NOTIFY: OnceLock<Notify> = OnceLock::new();
    NOTIFY.get_or_init(Notify::new)
}

/// From the first line of `main`, before the arguments are read: a signal
/// that arrives while the process starts sets the flag (the run then ends with
/// exit 130) instead of killing it. The runtime's handlers, installed later,
/// take over the rest.
pub fn install_early() {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the action only stores to an atomic, which is async-signal-safe.
        let _ = unsafe { signal_hook_registry::register(signal, || STOP.store(true, Ordering::SeqCst)) };
    }
}

/// Installs the handlers; called inside the runtime before anything else.
/// The first signal sets the flag and wakes every waiter; the second ends
/// the process at once (exit 130), whatever it was doing.
pub fn install() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut int), Ok(mut term)) = (signal(SignalKind::interrupt()), signal(SignalKind::terminate())) else {
            return;
        };
        tokio::spawn(async move {
            let mut seen = 0;
            loop {
                tokio::select! {
                    _ = int.recv() => {}
                    _ = term.recv() => {}
                }
                seen += 1;
                if seen > 1 {
                    eprintln!("idemctl: interrupted again: stopped at once");
                    std::process::exit(crate::exit::INTERRUPTED.into());
                }
                raise();
            }
        });
    }
    #[cfg(not(unix))]
    tokio::spawn(async {
        let _ = tokio::signal::ctrl_c().await;
        raise();
        let _ = tokio::signal::ctrl_c().await;
        std::process::exit(crate::exit::INTERRUPTED.into());
    });
}

/// Sets the flag as a signal would.
pub fn raise() {
    STOP.store(true, Ordering::SeqCst);
    grace_left();
    notify().notify_waiters();
}

/// How long statements under way may still take to end after the first
/// signal: one grace of a second and a half for the whole run, from when the
/// signal was first seen, however many statements wind down in turn.
pub fn grace_left() -> Duration {
    const GRACE: Duration = Duration::from_millis(1500);
    static SEEN: OnceLock<Instant> = OnceLock::new();
    GRACE.saturating_sub(SEEN.get_or_init(Instant::now).elapsed())
}

/// Whether Ctrl-C or SIGTERM has arrived.
pub fn is_set() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Resolves once Ctrl-C or SIGTERM has arrived (at once if it has).
pub async fn wait() {
    loop {
        let notified = notify().notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        if is_set() {
            return;
        }
        notified.await;
    }
}

/// Sleeps, unless interrupted first; true when the whole pause passed.
pub async fn sleep(pause: Duration) -> bool {
    tokio::select! {
        () = tokio::time::sleep(pause) => true,
        () = wait() => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One grace for the run: a statement that winds down later has less of
    /// it, not a grace of its own.
    #[test]
    fn the_grace_is_one_for_the_run() {
        let first = grace_left();
        assert!(first <= Duration::from_millis(1500));
        std::thread::sleep(Duration::from_millis(200));
        let later = grace_left();
        assert!(later + Duration::from_millis(200) <= first, "{first:?} then {later:?}");
        std::thread::sleep(Duration::from_millis(1400));
        assert_eq!(grace_left(), Duration::ZERO);
    }
}
