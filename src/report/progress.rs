//! The progress bar: shown to a person at a terminal only, never among the
//! data, with an ETA from a steady rate.

use std::io::{self, IsTerminal};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::Format;

/// Whether rows go to stdout as they come (csv, json, ndjson), set once the
/// options are read.
static STREAMS_ROWS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Records the format for `wants_progress`.
pub fn note_format(format: Format) {
    STREAMS_ROWS.store(format != Format::Table, std::sync::atomic::Ordering::Relaxed);
}

/// Whether a progress bar would be shown: only to a person at a terminal,
/// and never where it would land among the data: when stdout is a pipe
/// (`| head`, `| less` write to the same terminal) or the terminal itself
/// with rows streaming to it. The table format writes its table after the
/// bar is cleared.
pub fn wants_progress(quiet: bool) -> bool {
    match crate::scope::current() {
        Some(scope) => scope.shows_progress(),
        None => !quiet && io::stderr().is_terminal() && !data_meets_the_bar(),
    }
}

/// Whether what goes to stdout would show on the bar's terminal while it runs.
fn data_meets_the_bar() -> bool {
    if io::stdout().is_terminal() {
        return STREAMS_ROWS.load(std::sync::atomic::Ordering::Relaxed);
    }
    stdout_is_a_pipe()
}

#[cfg(unix)]
fn stdout_is_a_pipe() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() else { return false };
    std::fs::File::from(fd).metadata().is_ok_and(|m| m.file_type().is_fifo())
}

#[cfg(not(unix))]
fn stdout_is_a_pipe() -> bool {
    false
}

/// The time left at the rate so far, once 3 s have passed (the first rows
/// come faster or slower than the rest: an early rate would be far off).
fn steady_eta(state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
    let elapsed = state.elapsed().as_secs_f64();
    let (done, total) = (state.pos() as f64, state.len().unwrap_or(0) as f64);
    if elapsed < 3.0 || done <= 0.0 || total <= done {
        let _ = write!(w, "...");
        return;
    }
    let left = (total - done) * elapsed / done;
    let _ = write!(w, "{}", crate::timeparse::span(Duration::from_secs(left.round() as u64)));
}

/// A progress bar on stderr for people; hidden in cron, pipes and `--quiet`.
/// It fits a 60-column terminal, shows rates as people read them (`1.9M
/// rows/s`) and, where the total is known, the time left; it is cleared
/// however the run ends, Ctrl-C included.
pub fn progress(quiet: bool, total: Option<u64>, what: &str) -> ProgressBar {
    if !wants_progress(quiet) {
        return ProgressBar::hidden();
    }
    let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{}/s", crate::units::human_count(state.per_sec()));
    };
    let count = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{}", crate::units::human_count(state.pos() as f64));
    };
    let (bar, template) = match total {
        Some(total) if total > 0 => (
            ProgressBar::new(total),
            format!("{{spinner}} {what} {{bar:12}} {{count}} rows {{rate}} ETA {{steady_eta}}{{msg}}"),
        ),
        _ => (ProgressBar::new_spinner(), format!("{{spinner}} {what} {{count}} rows {{rate}} {{elapsed}}{{msg}}")),
    };
    let scope = crate::scope::current();
    let template = match &scope {
        Some(scope) => format!("{{spinner}} {} {}", scope.name, template.trim_start_matches("{spinner} ")),
        None => template,
    };
    let style = ProgressStyle::with_template(&template)
        .expect("valid template")
        .progress_chars("=> ")
        .with_key("rate", rate)
        .with_key("count", count)
        .with_key("steady_eta", steady_eta);
    if let Some(scope) = scope {
        let bar = scope.progress(style);
        bar.set_length(total.unwrap_or(0));
        bar.reset();
        return bar;
    }
    let target = draw_target();
    let bar = bar.with_style(style).with_finish(indicatif::ProgressFinish::AndClear);
    bar.set_draw_target(target);
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// Where progress is drawn: stderr, narrowed (below), eight times a second.
pub fn draw_target() -> indicatif::ProgressDrawTarget {
    indicatif::ProgressDrawTarget::term_like_with_hz(Box::new(Narrowed(console::Term::stderr())), 8)
}

/// stderr, three columns narrower than it is: indicatif pads the bar's line
/// to the terminal's width, and the `^C` a terminal echoes on Ctrl-C would
/// wrap it to a new line that clearing the bar does not reach.
#[derive(Debug)]
struct Narrowed(console::Term);

impl indicatif::TermLike for Narrowed {
    fn width(&self) -> u16 {
        self.0.size().1.saturating_sub(3).max(20)
    }

    fn height(&self) -> u16 {
        self.0.size().0
    }

    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_up(n)
    }

    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_down(n)
    }

    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_right(n)
    }

    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_left(n)
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.0.write_line(s)
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        self.0.write_str(s)
    }

    fn clear_line(&self) -> io::Result<()> {
        self.0.clear_line()
    }

    fn flush(&self) -> io::Result<()> {
        self.0.flush()
    }
}
