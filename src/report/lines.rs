//! Lines for people on stderr: said whole (one write each), wrapped at a
//! terminal's width, led by a fleet database's name.

use std::io::{self, Write};

use super::{table, wants_progress};

/// A line for people on stderr: on a terminal, wrapped at its width between
/// words (a time, a name or a number stays whole), continued two columns in.
///
/// For a database of a fleet, the line is led by its name, and said above
/// the fleet's progress lines.
pub fn say(line: &str) {
    let scope = crate::scope::current();
    let led;
    let line = match &scope {
        Some(scope) => {
            led = format!("{}: {line}", scope.name);
            led.as_str()
        }
        None => line,
    };
    let print = |text: &str| match &scope {
        Some(scope) => scope.print(text),
        None => whole_line(text),
    };
    let term = console::Term::stderr();
    if !term.is_term() {
        print(line);
        return;
    }
    let width = usize::from(term.size().1).max(20);
    print(&table::wrap_line(line, Some(width)));
}

/// A line on stderr in one write, newline included: where another process
/// writes to the same terminal (`| head`), lines interleave whole.
pub fn whole_line(text: &str) {
    let mut line = String::with_capacity(text.len() + 1);
    line.push_str(text);
    line.push('\n');
    let _ = io::stderr().lock().write_all(line.as_bytes());
}

/// Says on stderr, before any work, what a command reads or changes: for a
/// person at a terminal (cron and pipelines have it in the JSON).
pub fn say_target(quiet: bool, command: &str, place: &str, table: &str) {
    // A fleet says its databases once, before it starts.
    if wants_progress(quiet) && crate::scope::current().is_none() {
        say(&format!("idemctl {command}: {place}, table {table}"));
    }
}
