//! `--metrics-file PATH`: the run's figures in the Prometheus text format,
//! for node_exporter's textfile collector. Commands record their figures as
//! they finish; the file is written once the exit code is known, atomically
//! (a temporary file renamed over the old one), so the collector never
//! reads half a file.

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use prometheus::{Encoder, GaugeVec, Opts, Registry, TextEncoder};

pub use crate::scope::Sample;

/// One database's run in a fleet: its figures, labelled with its name.
pub struct Run {
    pub database: String,
    pub exit_code: u8,
    /// Whether it ran: a database a fleet never started keeps its last success.
    pub ran: bool,
    pub started: SystemTime,
    pub took: Duration,
    pub samples: Vec<Sample>,
}

/// What every sample is labelled with: the command, the database, the table.
#[derive(Default, Clone)]
struct Target {
    command: String,
    database: String,
    table: String,
}

static SAMPLES: Mutex<Vec<Sample>> = Mutex::new(Vec::new());
static WANTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static TARGET: Mutex<Option<Target>> = Mutex::new(None);
static PATH: Mutex<Option<std::path::PathBuf>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The run writes the metrics file `path`: figures that cost a query are worth it.
pub fn want(path: &Path) {
    WANTED.store(true, std::sync::atomic::Ordering::Relaxed);
    *lock(&PATH) = Some(path.to_path_buf());
}

/// A figure the previous run wrote to the metrics file for the same
/// command, database and table (`idemctl_run_timestamp_seconds`: when that
/// run ended): an earlier reading a counter is measured against. None
/// outside a single run.
pub fn previous(name: &str) -> Option<f64> {
    let path = lock(&PATH).clone()?;
    let target = lock(&TARGET).clone()?;
    if crate::scope::current().is_some() {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let quoted = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    let labels = [
        format!("command=\"{}\"", quoted(&target.command)),
        format!("database=\"{}\"", quoted(&target.database)),
        format!("table=\"{}\"", quoted(&target.table)),
    ];
    text.lines()
        .find(|l| l.starts_with(&format!("{name}{{")) && labels.iter().all(|label| l.contains(label.as_str())))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse::<f64>().ok())
}

/// Whether the run writes a metrics file.
pub fn wanted() -> bool {
    WANTED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Names what the run read or changed, for the labels.
pub fn target(command: &str, database: &str, table: &str) {
    *lock(&TARGET) =
        Some(Target { command: command.to_string(), database: database.to_string(), table: table.to_string() });
}

/// Records one figure of the run.
pub fn gauge(name: &'static str, help: &'static str, labels: &[(&'static str, &str)], value: f64) {
    let labels = labels.iter().map(|(k, v)| (*k, v.to_string())).collect();
    let sample = Sample { name, help, labels, value };
    match crate::scope::current() {
        Some(scope) => scope.sample(sample),
        None => lock(&SAMPLES).push(sample),
    }
}

fn seconds(t: SystemTime) -> f64 {
    t.duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// The last success time a previous run wrote to the same file for the
/// database, so that a failing run keeps it.
fn last_success(path: &Path, database: &str) -> Option<f64> {
    let text = std::fs::read_to_string(path).ok()?;
    let label = format!("database=\"{}\"", database.replace('\\', "\\\\").replace('"', "\\\""));
    text.lines()
        .find(|l| l.starts_with("idemctl_last_success_timestamp_seconds") && l.contains(&label))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

/// Writes the file: the run's time, duration, exit code and last success,
/// and the figures the command recorded.
pub fn write(path: &Path, command: &str, exit_code: u8, started: SystemTime, took: Duration) -> Result<()> {
    let target = lock(&TARGET).clone().unwrap_or(Target { command: command.to_string(), ..Target::default() });
    let samples = std::mem::take(&mut *lock(&SAMPLES));
    let run = Run { database: target.database.clone(), exit_code, ran: true, started, took, samples };
    write_runs(path, &target, &[run])
}

/// A run's result once its metrics file is written: a file that cannot be
/// written fails a run that went well, and is said beside one that failed.
pub fn written(result: Result<crate::exit::Outcome>, written: Result<()>) -> Result<crate::exit::Outcome> {
    match (result, written) {
        (result, Ok(())) => result,
        (Ok(_), Err(err)) => Err(err),
        (Err(failed), Err(err)) => {
            eprintln!("idemctl: {}", crate::exit::one_line(&err));
            Err(failed)
        }
    }
}

/// Writes the file of a fleet's run: each database's series labelled with its name.
pub fn write_fleet(path: &Path, command: &str, runs: &[Run]) -> Result<()> {
    let target = lock(&TARGET).clone().unwrap_or_default();
    write_runs(path, &Target { command: command.to_string(), ..target }, runs)
}

fn write_runs(path: &Path, target: &Target, runs: &[Run]) -> Result<()> {
    let registry = Registry::new();
    let mut families: Vec<(&'static str, GaugeVec)> = Vec::new();
    for run in runs {
        let target = Target { database: run.database.clone(), ..target.clone() };
        record(&registry, &mut families, path, &target, run)?;
    }
    let mut text = Vec::new();
    TextEncoder::new().encode(&registry.gather(), &mut text)?;
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    std::fs::write(&tmp, &text).with_context(|| format!("cannot write the metrics file {}", path.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write the metrics file {}", path.display()))?;
    Ok(())
}

/// Sets one run's series.
fn record(
    registry: &Registry,
    families: &mut Vec<(&'static str, GaugeVec)>,
    path: &Path,
    target: &Target,
    run: &Run,
) -> Result<()> {
    let (exit_code, started, took) = (run.exit_code, run.started, run.took);
    let base = [("command", target.command.as_str()), ("database", &target.database), ("table", &target.table)];
    let mut set =
        |name: &'static str, help: &'static str, extra: &[(&'static str, String)], value: f64| -> Result<()> {
            let names: Vec<&str> = base.iter().map(|(k, _)| *k).chain(extra.iter().map(|(k, _)| *k)).collect();
            let family = match families.iter().find(|(n, _)| *n == name) {
                Some((_, family)) => family.clone(),
                None => {
                    let family = GaugeVec::new(Opts::new(name, help), &names)?;
                    registry.register(Box::new(family.clone()))?;
                    families.push((name, family.clone()));
                    family
                }
            };
            let values: Vec<&str> = base.iter().map(|(_, v)| *v).chain(extra.iter().map(|(_, v)| v.as_str())).collect();
            family.get_metric_with_label_values(&values)?.set(value);
            Ok(())
        };
    let ended = started + took;
    set("idemctl_run_timestamp_seconds", "When the run ended, in seconds since the epoch", &[], seconds(ended))?;
    set("idemctl_run_duration_seconds", "How long the run took", &[], took.as_secs_f64())?;
    set(
        "idemctl_run_exit_code",
        "The run's exit code: 0 clean, 1 findings, 2 error, 3 locked, 130 interrupted",
        &[],
        f64::from(exit_code),
    )?;
    let success = match exit_code {
        0 | 1 if run.ran => Some(seconds(ended)),
        _ => last_success(path, &target.database),
    };
    if let Some(at) = success {
        set("idemctl_last_success_timestamp_seconds", "When a run last ended clean or with findings", &[], at)?;
    }
    for sample in &run.samples {
        set(sample.name, sample.help, &sample.labels, sample.value)?;
    }
    Ok(())
}
