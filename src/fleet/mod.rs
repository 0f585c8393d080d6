//! A fleet in one run: a command across many databases, `--parallel` at a
//! time, each with its own connections, lock and stop handling, in one
//! merged report with the most severe exit code.
//!
//! The databases run as tasks of this process, not as processes of their
//! own: their memory is their report's and their connections', and the
//! merged report is written as their rows come.

mod merge;
pub mod select;

use std::io::{BufWriter, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use anyhow::Result;

use crate::commands::{Definition, Effect, Totals};
use crate::exit::{self, Interrupted, LockHeld, Outcome};
use crate::report::{Emitter, Output};
use crate::scope::{self, Scope};
use merge::{Merged, Record};
pub use select::{Member, select};

/// How a fleet run goes.
pub struct Plan {
    pub command: Box<dyn Definition>,
    pub members: Vec<Member>,
    pub parallel: usize,
    pub output: Output,
    pub metrics_file: Option<std::path::PathBuf>,
    /// The config file read, if any.
    pub config: Option<std::path::PathBuf>,
}

/// Runs the command across the fleet, and writes the merged report.
pub async fn run(plan: Plan) -> Result<Outcome> {
    let Plan { command, members, parallel, output, metrics_file, config } = plan;
    let name = command.name();
    let fleet_started = Instant::now();
    let total = members.len();
    let (writes, max_runtime) = match command.effect() {
        Effect::Writes { dry_run, max_runtime } => (Some(dry_run), max_runtime),
        Effect::Reads | Effect::None => (None, None),
    };
    if total > 1
        && let Err(why) = command.across_databases()
    {
        anyhow::bail!("{why}");
    }
    announce(name, writes, &members, parallel, output.quiet);
    let out = open_report(command.as_ref(), &members, &output, config.as_deref())?;
    let records =
        members.iter().map(|m| Record { name: m.name.clone(), place: m.place(), ..Record::default() }).collect();
    let merged = Arc::new(Mutex::new(Merged::new(out, records, command.totals() == Totals::RunFigures)));
    let (multi, overall) = progress_lines(name, total, output.quiet);
    let permits = Arc::new(tokio::sync::Semaphore::new(parallel));
    let mut tasks = tokio::task::JoinSet::new();
    let mut begun = 0;
    let mut metrics = Vec::with_capacity(total);
    // A writer's --max-runtime is the whole run's: a cron slot ends for every database at once.
    let deadline = max_runtime.map(|limit| fleet_started + limit);
    for (index, member) in members.into_iter().enumerate() {
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => permit?,
            () = crate::interrupt::wait() => break,
        };
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|left| left.is_zero()) {
            break;
        }
        let line = multi.as_ref().map(|multi| (multi.clone(), database_line(multi, &member.name)));
        let scope = Arc::new(Scope {
            name: member.name.clone(),
            index,
            merged: Arc::new(Shared(Arc::clone(&merged))),
            line,
            samples: Mutex::new(Vec::new()),
        });
        let work = member.url.map(|url| {
            let mut work = command.for_database(&url, &member.name);
            if let Some(left) = left {
                work.limit_runtime(left);
            }
            work
        });
        tasks.spawn(run_one(index, work, scope, permit, overall.clone()));
        begun += 1;
        // Collect what has finished, so that 1,000 databases keep no more than `parallel` results waiting.
        while let Some(done) = tasks.try_join_next() {
            settle(&merged, done?, &mut metrics);
        }
    }
    while let Some(done) = tasks.join_next().await {
        settle(&merged, done?, &mut metrics);
    }
    if let Some(bar) = overall {
        bar.finish_and_clear();
    }
    if let Some(multi) = &multi {
        let _ = multi.clear();
    }
    // Every task has ended, and with it every database's handle on the report.
    let Ok(merged) = Arc::try_unwrap(merged) else { anyhow::bail!("a database's task outlived the fleet's run") };
    let (out, mut records) = merged.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).into_parts();
    let interrupted = crate::interrupt::is_set();
    not_started(&mut records[begun..], interrupted, &mut metrics);
    // How each figure adds up: as the command says, the document's version aside.
    let rules = |key: &str| if key == "format_version" { crate::report::Fold::Drop } else { command.fold(key) };
    let outcome = finish(out, &mut records, (name, &rules), &output, interrupted, fleet_started.elapsed());
    match &metrics_file {
        Some(path) => crate::metrics::written(outcome, crate::metrics::write_fleet(path, name, &metrics)),
        None => outcome,
    }
}

/// The merged report, with what the run is: the command, the databases.
fn open_report(
    command: &dyn Definition,
    members: &[select::Member],
    output: &Output,
    config: Option<&std::path::Path>,
) -> Result<Emitter<BufWriter<std::io::Stdout>>> {
    let mut out = Emitter::new(output, BufWriter::new(std::io::stdout()), command.rows_key());
    out.meta("command", command.name(), "")?;
    out.meta("databases", members.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), "")?;
    crate::report::config_meta(&mut out, config)?;
    // Said now: the first row comes from a database's task, whose lines carry its name.
    out.say_pending();
    Ok(out)
}

/// One database's run, as its task: the command within the database's
/// scope, a panic failing it alone, its permit given back when it ends.
async fn run_one(
    index: usize,
    work: Result<Box<dyn Definition>, String>,
    scope: Arc<Scope>,
    permit: tokio::sync::OwnedSemaphorePermit,
    overall: Option<indicatif::ProgressBar>,
) -> Done {
    let (started, clock) = (SystemTime::now(), Instant::now());
    let mut result = match work {
        Ok(work) => {
            // A bug that panics fails its database alone.
            use futures_util::FutureExt;
            let run = scope::within(Arc::clone(&scope), work.run());
            std::panic::AssertUnwindSafe(run).catch_unwind().await.unwrap_or_else(|_| {
                Err(anyhow::anyhow!("idemctl stopped on a bug here (a panic, said above): please report it"))
            })
        }
        // No URL: this database fails alone, as one that cannot be reached.
        Err(why) => Err(anyhow::anyhow!("{why}")),
    };
    // A statement Ctrl-C canceled ends in the database's error: interrupted, as a single run says.
    if crate::interrupt::is_set() && exit::code(&result) == exit::ERROR {
        result = Err(Interrupted.into());
    }
    drop(permit);
    if let Some((_, bar)) = &scope.line {
        bar.finish_and_clear();
    }
    if let Some(bar) = overall {
        bar.inc(1);
    }
    (index, result, scope, started, clock.elapsed())
}

/// Databases never started: interrupted, or out of time (the work waits,
/// as a stalled writer's: exit 1).
fn not_started(records: &mut [Record], interrupted: bool, metrics: &mut Vec<crate::metrics::Run>) {
    for record in records {
        let (code, why) = match interrupted {
            true => (exit::INTERRUPTED, "not started: interrupted"),
            false => (exit::FINDINGS, "not started: --max-runtime passed"),
        };
        record.exit_code = Some(code);
        record.reason = Some(why.into());
        metrics.push(crate::metrics::Run {
            database: record.name.clone(),
            exit_code: code,
            ran: false,
            started: SystemTime::now(),
            took: Duration::ZERO,
            samples: vec![],
        });
    }
}

/// Says, before anything starts, what the run touches: a writer lists
/// each database it changes (or would, with `--dry-run`); a reader says how
/// many it reads, to a person at a terminal.
fn announce(name: &str, writes: Option<bool>, members: &[Member], parallel: usize, quiet: bool) {
    if !(writes.is_some() && !quiet || crate::report::wants_progress(quiet)) {
        return;
    }
    let total = members.len();
    let what = match writes {
        Some(true) => format!("{name} --dry-run: nothing changes on"),
        Some(false) => format!("{name} will change"),
        None => format!("{name} reads"),
    };
    let colon = if writes.is_some() { ":" } else { "" };
    let how = match total {
        1 => "1 database".to_string(),
        _ => format!("{total} databases, {} at a time", parallel.min(total)),
    };
    crate::report::say(&format!("{what} {how}{colon}"));
    if writes.is_some() {
        let wide = members.iter().map(|m| m.name.chars().count()).max().unwrap_or(0);
        for m in members {
            eprintln!("  {:<wide$}  {}", m.name, m.place());
        }
    }
}

/// The fleet's progress, for a person at a terminal: the count done of the
/// total, under which each database in flight gets a line.
fn progress_lines(
    name: &str,
    total: usize,
    quiet: bool,
) -> (Option<indicatif::MultiProgress>, Option<indicatif::ProgressBar>) {
    if !crate::report::wants_progress(quiet) {
        return (None, None);
    }
    let multi = indicatif::MultiProgress::with_draw_target(crate::report::draw_target());
    let bar = multi.add(indicatif::ProgressBar::new(total as u64));
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!("{name}: {{pos}}/{{len}} databases done {{elapsed}}"))
            .expect("valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    (Some(multi), Some(bar))
}

/// A database's line, above the count: a spinner until its command shows
/// a bar of its own there.
fn database_line(multi: &indicatif::MultiProgress, name: &str) -> indicatif::ProgressBar {
    let bar = multi.insert_from_back(1, indicatif::ProgressBar::new_spinner());
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!("{{spinner}} {name} {{elapsed}}")).expect("valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// What one database's task gave.
type Done = (usize, Result<Outcome>, Arc<Scope>, SystemTime, Duration);

fn settle(
    merged: &Arc<Mutex<Merged>>,
    (index, result, scope, started, took): Done,
    metrics: &mut Vec<crate::metrics::Run>,
) {
    let code = exit::code(&result);
    let mut merged = merged.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let record = &mut merged.records[index];
    record.exit_code = Some(code);
    // Interrupted is no failure of the database's: its report says how far it got.
    if let Err(err) = &result
        && matches!(code, exit::ERROR | exit::LOCK_HELD)
    {
        record.error = Some(exit::one_line(err));
    }
    let samples = std::mem::take(&mut *scope.samples.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    metrics.push(crate::metrics::Run {
        database: scope.name.clone(),
        exit_code: code,
        ran: true,
        started,
        took,
        samples,
    });
    merged.flush();
}

/// Writes the summary per database and in total, and gives the fleet's
/// outcome: the most severe of its databases' (error, then lock held, then
/// findings).
fn finish(
    mut out: Emitter<BufWriter<std::io::Stdout>>,
    records: &mut [Record],
    (command, rules): (&str, merge::Rules),
    output: &Output,
    interrupted: bool,
    took: Duration,
) -> Result<Outcome> {
    out.order_table_rows(|name| records.iter().position(|r| r.name == name).unwrap_or(usize::MAX));
    // What each database's report gave, failed or not (a writer stopped by an error still deleted rows).
    let reported = |r: &&Record| r.complete.is_some();
    let mut total = merge::total(records.iter().filter(reported).map(|r| &r.fields), rules);
    if total.contains_key("elapsed_seconds") {
        // Databases ran side by side: the fleet's own time.
        total.insert("elapsed_seconds".into(), serde_json::Value::from(took.as_secs_f64()));
    }
    // Every database's entry has the same keys: null where it has no figure.
    let mut keys: Vec<String> = Vec::new();
    for key in records.iter().filter(reported).flat_map(|r| r.fields.keys()) {
        if !keys.contains(key) {
            keys.push(key.clone());
        }
    }
    for record in records.iter_mut() {
        for key in &keys {
            record.fields.entry(key.as_str()).or_insert(serde_json::Value::Null);
        }
    }
    let records = &*records;
    let ran: Vec<&Record> = records.iter().filter(reported).collect();
    let failed: Vec<&Record> = records.iter().filter(|r| r.error.is_some()).collect();
    let entries: Vec<_> = records.iter().map(Record::entry).collect();
    out.summary("by_database", &entries, "")?;
    out.summary("failed_databases", failed.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), "")?;
    out.summary("total", &total, "")?;
    let severity = |code: u8| match code {
        exit::ERROR => 4,
        exit::INTERRUPTED => 3,
        exit::LOCK_HELD => 2,
        exit::FINDINGS => 1,
        _ => 0,
    };
    let worst = records.iter().filter_map(|r| r.exit_code).max_by_key(|c| severity(*c)).unwrap_or(exit::CLEAN);
    if interrupted {
        out.finish_incomplete("interrupted")?;
    } else if failed.is_empty() {
        out.finish()?;
    } else {
        out.finish_incomplete("some databases failed")?;
    }
    let n = records.len();
    // For people: JSON holds all of it in the document.
    if !output.quiet && output.format != crate::report::Format::Json {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(merge::people_table(records, rules).as_bytes());
        let _ = merge::say_notes(records, &mut err);
        let unstarted =
            records.iter().filter(|r| r.reason.as_deref().is_some_and(|w| w.starts_with("not started"))).count();
        let head = if ran.len() == n && failed.is_empty() {
            format!("{n} database{}", if n == 1 { "" } else { "s" })
        } else {
            let mut head = format!("{} of {n} databases reported", ran.len());
            if !failed.is_empty() {
                head.push_str(&format!(", {} failed", failed.len()));
            }
            if unstarted > 0 {
                head.push_str(&format!(", {unstarted} not started"));
            }
            head
        };
        drop(err);
        let figures = merge::people(&total, rules);
        let colon = if figures.is_empty() { "" } else { ": " };
        crate::report::say(&format!("total ({head}){colon}{figures}"));
    }
    let locked: Vec<&str> =
        records.iter().filter(|r| r.exit_code == Some(exit::LOCK_HELD)).map(|r| r.name.as_str()).collect();
    match worst {
        exit::ERROR => {
            // Databases that failed the same way are named together.
            let mut causes: Vec<(&str, Vec<&str>)> = Vec::new();
            for r in records.iter().filter(|r| r.exit_code == Some(exit::ERROR)) {
                let cause = r.error.as_deref().unwrap_or("failed");
                match causes.iter_mut().find(|(c, _)| *c == cause) {
                    Some((_, names)) => names.push(&r.name),
                    None => causes.push((cause, vec![&r.name])),
                }
            }
            let errored: usize = causes.iter().map(|(_, names)| names.len()).sum();
            let said: Vec<String> =
                causes.iter().map(|(cause, names)| format!("{} ({cause})", names.join(", "))).collect();
            let also = match locked.is_empty() {
                true => String::new(),
                false => format!("; another run holds the lock on {}", locked.join(", ")),
            };
            Err(anyhow::anyhow!("{command} failed on {errored} of {n} databases: {}{also}", said.join("; ")))
        }
        // An error outranks the interruption; the interruption the rest.
        _ if interrupted => Err(Interrupted.into()),
        exit::LOCK_HELD => Err(LockHeld(locked.join(", ")).into()),
        exit::FINDINGS => Ok(Outcome::Findings),
        _ => Ok(Outcome::Clean),
    }
}

/// The merged report, shared by the databases' tasks.
struct Shared(Arc<Mutex<Merged>>);

impl Shared {
    fn merged(&self) -> std::sync::MutexGuard<'_, Merged> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl scope::Merge for Shared {
    fn meta(&self, index: usize, key: &str, value: serde_json::Value) {
        self.merged().meta(index, key, value);
    }

    fn row(&self, index: usize, fields: serde_json::Map<String, serde_json::Value>) -> Result<()> {
        self.merged().row(index, fields)
    }

    fn end(&self, index: usize, incomplete: Option<&str>) {
        self.merged().end(index, incomplete);
    }

    fn view(&self, view: crate::scope::View) {
        self.merged().view(view);
    }
}
