//! One module per subcommand, each with its arguments, its `run`, and its
//! one `Definition`: what the layers above (the command line, the fleet,
//! the metrics) ask of a subcommand, answered in one place. A new
//! subcommand is a module here and one line in `app::Command`; a question
//! it does not answer is a compile error, not a wildcard arm.

pub mod demo;
pub mod doctor;
pub mod expire;
pub mod reap;
pub mod scan;
pub mod size;
pub mod stuck;

use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use futures_util::future::BoxFuture;

use crate::cli::Filled;
use crate::exit::{Interrupted, Outcome};
pub use crate::report::Fold;

/// What a subcommand does to the database it runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// It runs on no database (demo makes its own, completions none).
    None,
    /// It only reads: Ctrl-C ends it at once.
    Reads,
    /// It writes (unless `dry_run`), in batches it stops between, within
    /// `max_runtime`: a fleet gives every database the same deadline.
    Writes { dry_run: bool, max_runtime: Option<Duration> },
}

/// How a subcommand's summary adds up across a fleet's databases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Totals {
    /// The summaries are added (counts summed, the slowest kept).
    Summaries,
    /// Its one row is its run's figures (a writer's): the rows are added.
    RunFigures,
}

/// One subcommand, defined once.
pub trait Definition: Send + Sync + 'static {
    /// The subcommand's name, as typed.
    fn name(&self) -> &'static str;
    /// What the report's rows are called (`clusters`, `keys`, ...).
    fn rows_key(&self) -> &'static str;
    /// What it does to the database.
    fn effect(&self) -> Effect;
    /// A writer's `--max-runtime`, ending by `left` at the latest (a
    /// fleet's deadline); nothing for a reader, which has none.
    fn limit_runtime(&mut self, left: Duration);
    /// Whether a fleet may run it as given: why not, when not.
    fn across_databases(&self) -> Result<(), &'static str>;
    /// Whether its summary is its rows or its one row (a writer's run).
    fn totals(&self) -> Totals;
    /// How a figure of its summary (a key, at any depth) adds up across
    /// databases: every key not `Sum` is named here.
    fn fold(&self, key: &str) -> Fold;
    /// What the metrics are labelled with, known before the run: the
    /// database (engine, host, database) and the table as named by flag,
    /// config file or default, so that a failing run's series are the same
    /// series as a clean run's.
    fn metrics_labels(&self) -> Option<(String, String)>;
    /// The same command, on the database `name` at `url`.
    fn for_database(&self, url: &str, name: &str) -> Box<dyn Definition>;
    /// The state file it keeps, as given (scan's `--state`): a path holding
    /// `{database}` is one per database.
    fn state_path(&self) -> Option<&Path>;
    /// Takes in the global options: the URL, the report's options, the config file.
    fn take_global(&mut self, global: &Filled) -> Result<()>;
    /// Runs it. A reader ends at Ctrl-C or SIGTERM (`abortable`); a writer
    /// watches for it itself and ends after the current batch.
    fn run(self: Box<Self>) -> BoxFuture<'static, Result<Outcome>>;
}

/// `--max-runtime` ending by `left` at the latest.
pub fn limited(max_runtime: &mut Option<Duration>, left: Duration) {
    *max_runtime = Some(max_runtime.map_or(left, |m| m.min(left)));
}

/// The metrics labels of a command on a key table: its database, and the
/// table as flag, config file or default name it.
pub fn key_table_labels(url: &str, mapping: &crate::keys::MappingArgs) -> (String, String) {
    let file = crate::config::Config::load(mapping.config.as_deref()).unwrap_or_default();
    let table = mapping.table.clone().or(file.key_table.table).unwrap_or_else(|| "idempotency_keys".into());
    (crate::db::Target::new(url).place(), table)
}

/// Names the table's kind in the report (for people only when it is not
/// HTTP keys, the default), and has the table format speak of its rows in
/// the kind's words.
pub fn kind_meta<W: std::io::Write>(out: &mut crate::report::Emitter<W>, keys: &crate::keys::KeyTable) -> Result<()> {
    out.speak_of(keys.kind.words());
    out.meta("kind", keys.kind.as_str(), kind_said(keys).unwrap_or_default())
}

/// The table's kind and what told it, for people: `None` for HTTP keys.
pub fn kind_said(keys: &crate::keys::KeyTable) -> Option<String> {
    match keys.kind {
        crate::keys::Kind::Http => None,
        kind => Some(format!("{} ({})", kind.as_str(), keys.kind_told)),
    }
}

/// On a plain dry run, why the real run would stop here before changing
/// anything (a replica, a privilege this user lacks), beside the plan it
/// could not carry out: `null` in JSON when nothing would stop it. For
/// people it is said even with `--quiet`: a finding, as the exit code says.
/// Whether it was refused.
pub fn say_real_run_refused<W: std::io::Write>(
    out: &mut crate::report::Emitter<W>,
    report: &crate::report::Output,
    refused: Option<String>,
) -> Result<bool> {
    let found = refused.is_some();
    let text = refused.as_ref().map_or(String::new(), |why| format!("{why} (it would stop before changing anything)"));
    let for_people = !matches!(report.format, crate::report::Format::Json | crate::report::Format::Ndjson);
    if found && report.quiet && for_people {
        crate::report::say(&format!("real run refused: {text}"));
    }
    out.meta("real_run_refused", refused, text)?;
    Ok(found)
}

/// The answers every command on a key table (its `connect`, `report` and
/// `mapping` fields) gives alike: its metrics labels (the database and the
/// table), itself on another database of a fleet, no state file, and the
/// global options it takes in.
macro_rules! on_a_key_table {
    ($args:ident) => {
        fn metrics_labels(&self) -> Option<(String, String)> {
            Some($crate::commands::key_table_labels(&self.connect.database_url, &self.mapping))
        }
        fn for_database(&self, url: &str, _: &str) -> Box<dyn $crate::commands::Definition> {
            Box::new($args { connect: self.connect.on(url), ..self.clone() })
        }
        fn state_path(&self) -> Option<&std::path::Path> {
            None
        }
        fn take_global(&mut self, global: &$crate::cli::Filled) -> anyhow::Result<()> {
            self.connect.database_url = global.url()?;
            self.report = global.output.clone();
            self.mapping.config = global.config.clone();
            Ok(())
        }
    };
}
pub(crate) use on_a_key_table;

/// A read ends at Ctrl-C or SIGTERM: its statements are canceled on the
/// server and end with `Interrupted` on their own within the run's grace;
/// whatever is still busy a moment past it is dropped.
pub async fn abortable(work: impl Future<Output = Result<Outcome>>) -> Result<Outcome> {
    use futures_util::future::{Either, select};
    let interrupted = crate::interrupt::wait();
    tokio::pin!(work, interrupted);
    let work = match select(work, interrupted).await {
        Either::Left((done, _)) => return done,
        Either::Right(((), work)) => work,
    };
    // A moment past the statements' grace, so that their own error comes first.
    let past_the_grace = crate::interrupt::grace_left() + std::time::Duration::from_millis(100);
    match tokio::time::timeout(past_the_grace, work).await {
        Ok(Err(err)) => Err(err),
        _ => Err(Interrupted.into()),
    }
}

/// Keys in progress with no time to judge them by: the run could not tell
/// whether they are stuck. The line that says so, as for
/// `where_selects_nothing`, and the run not counted clean.
pub fn untimed_not_judged(keys: &crate::keys::KeyTable, untimed: u64) -> Option<String> {
    (untimed > 0).then(|| {
        format!(
            "not clean: {} in progress {}, so {} not judged",
            keys.kind.counted(untimed),
            if untimed == 1 { "has no time to judge it by" } else { "have no time to judge them by" },
            if untimed == 1 { "it was" } else { "they were" }
        )
    })
}

/// More than half of the values of the time a writer judges rows by
/// (NULLs and never-markers aside) that cannot be read as a time: the run
/// judged too little to be counted clean.
pub fn unreadable_not_judged(table: &str, time: &crate::db::times::TimeColumn) -> Option<String> {
    let (unreadable, present) = time.unreadable_share()?;
    (unreadable > 0 && 2 * unreadable > present).then(|| {
        format!(
            "not clean: {} of the {} values of {table}.{} cannot be read as a time, so their rows were not judged",
            crate::units::grouped(unreadable),
            crate::units::grouped(present),
            time.name
        )
    })
}

/// A table that holds no row at all: nothing to do, and the run is clean,
/// but it says so in words (not with `--quiet`), so that an empty table
/// is not taken for a table in order.
pub async fn say_if_empty(db: &mut crate::db::Db, table: &crate::db::catalog::Table, quiet: bool) -> Result<()> {
    if quiet {
        return Ok(());
    }
    if !any_row(db, table, "1 = 1").await? {
        crate::report::say(&format!("note: {} holds no rows: nothing to do", table.name));
    }
    Ok(())
}

/// A `--where` that selects no row of the table at all: the run then judged
/// nothing. The line that says so, to be said (even with `--quiet`) once
/// the report is out, and the run not counted clean.
pub async fn where_selects_nothing(
    db: &mut crate::db::Db,
    table: &crate::db::catalog::Table,
    filter: Option<&str>,
) -> Result<Option<String>> {
    let Some(filter) = filter else { return Ok(None) };
    let any = any_row(db, table, filter).await.map_err(|e| crate::db::user_sql::with_flag(e, "--where", filter))?;
    Ok((!any).then(|| format!("not clean: --where {filter:?} selects no row of {}, so nothing was judged", table.name)))
}

/// Whether `condition` selects a row of the table (one read at most).
async fn any_row(db: &mut crate::db::Db, table: &crate::db::catalog::Table, condition: &str) -> Result<bool> {
    let sql = format!("SELECT 1 FROM {} WHERE ({condition}) LIMIT 1", table.sql_name(&db.dialect()));
    Ok(db.query_value(&sql, &[]).await?.is_some())
}
