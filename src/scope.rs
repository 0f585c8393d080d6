//! What a command running for one database of a fleet reaches through the
//! task it runs in: its report goes to the merged report, its notes carry
//! the database's name, its progress is one line of the fleet's, and its
//! metrics are labelled with the database. Outside a fleet none of this is
//! set and every command writes to stdout and stderr as on its own.
//!
//! A leaf: the report and the metrics ask it, and `fleet/` sets it; what the
//! merged report does with a database's rows is the fleet's (`Merge`).

use std::sync::{Arc, Mutex};

use serde_json::{Map, Value};

/// Where a database's report goes: the fleet's merged report.
pub trait Merge: Send + Sync {
    /// A note or figure of database `index`'s report.
    fn meta(&self, index: usize, key: &str, value: Value);
    /// A row of its report.
    fn row(&self, index: usize, fields: Map<String, Value>) -> anyhow::Result<()>;
    /// Its report ended: complete, or not and why.
    fn end(&self, index: usize, incomplete: Option<&str>);
    /// How its report's table is shown (the same for every database).
    fn view(&self, view: View);
}

/// How a report's rows read in the table format: the columns shown unless
/// `--wide`, keys in seconds shown as durations, rows that are a run's
/// figures, free text wrapped.
#[derive(Debug, Clone, Default)]
pub struct View {
    pub compact: Option<Vec<String>>,
    pub spans: &'static [&'static str],
    pub figures: bool,
    pub wrap: bool,
    /// Keys people read under other words: the table's kind names its rows
    /// (`key` as `job`, `stuck_keys` as `stuck jobs`); the data keeps its keys.
    pub words: &'static [(&'static str, &'static str)],
}

/// One figure a command recorded for `--metrics-file` (kept here, where a
/// fleet's database gathers its own, so that the scope imports nothing).
pub struct Sample {
    pub(crate) name: &'static str,
    pub(crate) help: &'static str,
    pub(crate) labels: Vec<(&'static str, String)>,
    pub(crate) value: f64,
}

tokio::task_local! {
    static SCOPE: Arc<Scope>;
}

/// One database's share of a fleet run.
pub struct Scope {
    pub name: String,
    pub index: usize,
    pub merged: Arc<dyn Merge>,
    /// The fleet's progress lines, when a person watches; this database's line.
    pub line: Option<(indicatif::MultiProgress, indicatif::ProgressBar)>,
    /// The figures the command recorded for `--metrics-file`.
    pub samples: Mutex<Vec<Sample>>,
}

/// The scope of the task this runs in, if it runs for a fleet's database.
pub fn current() -> Option<Arc<Scope>> {
    SCOPE.try_with(Arc::clone).ok()
}

/// Runs `work` in `scope`.
pub async fn within<F: Future>(scope: Arc<Scope>, work: F) -> F::Output {
    SCOPE.scope(scope, work).await
}

impl Scope {
    /// A note or figure of the report, kept for the database's summary.
    pub fn meta(&self, key: &str, value: Value) {
        self.merged.meta(self.index, key, value);
    }

    /// A row of the report: written to the merged report, led by the database.
    pub fn row(&self, fields: Map<String, Value>) -> anyhow::Result<()> {
        self.merged.row(self.index, fields)
    }

    /// The command's report ended: complete or not.
    pub fn end(&self, incomplete: Option<&str>) {
        self.merged.end(self.index, incomplete);
    }

    /// The database's place in the fleet's list, from 0.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Records a figure for `--metrics-file`.
    pub fn sample(&self, sample: Sample) {
        self.samples.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(sample);
    }

    /// Whether a person watches the fleet's progress.
    pub fn shows_progress(&self) -> bool {
        self.line.is_some()
    }

    /// This database's progress line, as a bar with `template` after its name.
    pub fn progress(&self, style: indicatif::ProgressStyle) -> indicatif::ProgressBar {
        match &self.line {
            Some((_, bar)) => {
                bar.set_style(style);
                bar.clone()
            }
            None => indicatif::ProgressBar::hidden(),
        }
    }

    /// Prints text on stderr, above the progress lines.
    pub fn print(&self, text: &str) {
        match &self.line {
            Some((multi, _)) => multi.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    }
}
