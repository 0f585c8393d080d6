//! `idemctl scan`: near-duplicate rows in a creation table, clustered by a
//! time window, with the cause of each cluster, its cost, and a remediation list.
//!
//! What to compare is decided by the catalog (`plan`), then by the first
//! rows of the pass (`columns`); the rows are read (`read`), grouped by the
//! clusterer, confirmed on their values (`confirm`) and reported (`findings`).

mod audit;
mod children;
mod columns;
mod confirm;
mod evidence;
mod findings;
mod plan;
mod read;

use std::io::{BufWriter, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};
use clap::{Args, ValueEnum};

use crate::cli::{Connect, Output};
use crate::db::catalog;
use crate::db::scan as db_scan;
use crate::db::{self, Access};
use crate::exit::Outcome;
use crate::nearmiss::{Detector, Stats};
use crate::report::{self, Emitter};
use crate::timeparse;
use crate::window::{Cluster, Clusterer, Member};

use audit::Audit;
use columns::WarmUp;
use confirm::{CONFIRM_ROWS, Confirm};
use findings::Findings;
use read::{Rows, Scanned};

#[derive(Debug, Clone, Args)]
pub struct ScanArgs {
    /// The creation table to scan (`schema.table` to name another schema)
    #[arg(long, value_name = "TABLE")]
    pub table: String,
    /// The row id column [default: the single-column primary key]
    #[arg(long, value_name = "COL")]
    pub id: Option<String>,
    /// The creation-time column [default: created_at, inserted_at, created, ... whichever exists, else the time column that grows with the id]
    #[arg(long, value_name = "COL")]
    pub created_at: Option<String>,
    /// Equal rows at most this far apart, one after another, are one cluster [default: 2m]
    #[arg(long, value_name = "DURATION", value_parser = timeparse::window)]
    pub window: Option<Duration>,
    /// Compare exactly these columns instead of the default set
    #[arg(long, value_name = "COL,...", value_delimiter = ',')]
    pub columns: Vec<String>,
    /// List only clusters at least this sure: certain, likely or doubtful (the counts and the exit code keep every cluster) [default: doubtful]
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub min_confidence: Option<evidence::Confidence>,
    /// Do not read child tables' rows (the rows of other tables that hold a cluster's row id) as evidence
    #[arg(long)]
    pub no_child_rows: bool,
    /// Leave these columns out of the comparison (repeatable, or comma-separated)
    #[arg(long, value_name = "COL,...", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Only rows matching this SQL condition (raw SQL, run in a read-only session)
    #[arg(long = "where", value_name = "SQL")]
    pub filter: Option<String>,
    /// Only rows created at or after this time: RFC 3339, or a duration back from now (24h)
    #[arg(long, value_name = "TIME", value_parser = timeparse::instant)]
    pub since: Option<DateTime<Utc>>,
    /// Only rows created before this time: RFC 3339, or a duration back from now
    #[arg(long, value_name = "TIME", value_parser = timeparse::instant)]
    pub until: Option<DateTime<Utc>>,
    /// A file that carries a scheduled audit from run to run: each run reads on from one window before the last run's high-water mark, and lists each cluster once, in the run where it can no longer grow
    #[arg(long, value_name = "FILE")]
    pub state: Option<std::path::PathBuf>,
    /// The idempotency-key column, to tell causes apart [default: idempotency_key, idem_key, ... whichever exists]
    #[arg(long, value_name = "COL")]
    pub key_column: Option<String>,
    /// A numeric column, or an expression of columns (`quantity * unit_price`), to total over the extra rows: the money at stake, per currency (repeatable)
    #[arg(long, value_name = "COL|EXPR")]
    pub sum: Vec<String>,
    /// The column naming each amount's currency [default: AMOUNT_currency beside the --sum column, else currency, currency_code, ...]
    #[arg(long, value_name = "COL")]
    pub currency_column: Option<String>,
    /// Which row of each cluster stays: first, last, or the first row meeting an SQL condition ("state <> 'invalid'") [default: first; the row the retry did not rewrite, where the data shows one]
    #[arg(long, value_name = "first|last|SQL", value_parser = parse_keep)]
    pub keep: Option<Keep>,
    /// A column naming who was hit (customer, account), reported per cluster
    #[arg(long, value_name = "COL")]
    pub by: Option<String>,
    /// One line per cluster, or one line per extra row (the remediation list)
    #[arg(long, value_enum, default_value_t = ScanOutput::Clusters)]
    pub output: ScanOutput,
    /// List N clusters, the surest first, then those with the most extra rows [default: 50 in the table format; every cluster in csv, json and ndjson]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Unit of an integer created-at column: s, ms or auto (COL=UNIT names the column) [default: detected from its values]
    #[arg(long, value_name = "[COL=]UNIT", value_parser = crate::timeparse::time_unit_arg)]
    pub time_unit: Option<crate::timeparse::TimeUnitArg>,
    /// The config file, filled in after parsing: scan options per table under [scan.TABLE].
    #[command(flatten)]
    pub connect: Connect,
    #[arg(skip)]
    pub config: Option<std::path::PathBuf>,
    #[arg(skip)]
    pub report: Output,
}

impl ScanArgs {
    /// What the report's rows are called: `clusters`, or `rows` with `--output rows`.
    pub fn rows_key(&self) -> &'static str {
        match self.output {
            ScanOutput::Clusters => "clusters",
            ScanOutput::Rows => "rows",
        }
    }

    /// The options of `[scan.TABLE]` in the config file, wherever a flag left one unset.
    fn with_config(mut self) -> Result<ScanArgs> {
        let config = crate::config::Config::load(self.config.as_deref())?;
        let Some(file) = config.scan.get(&self.table) else { return Ok(self) };
        if self.window.is_none()
            && let Some(text) = &file.window
        {
            self.window =
                Some(timeparse::window(text).map_err(|e| anyhow::anyhow!("config scan.{}.window: {e}", self.table))?);
        }
        let fill = |flag: &mut Option<String>, file: &Option<String>| {
            if flag.is_none() {
                flag.clone_from(file);
            }
        };
        fill(&mut self.id, &file.id);
        fill(&mut self.created_at, &file.created_at);
        fill(&mut self.key_column, &file.key_column);
        fill(&mut self.by, &file.by);
        fill(&mut self.currency_column, &file.currency_column);
        fill(&mut self.filter, &file.filter);
        if self.sum.is_empty() {
            self.sum = file.sum.clone().map(crate::config::OneOrMany::into_vec).unwrap_or_default();
        }
        if self.keep.is_none()
            && let Some(keep) = &file.keep
        {
            self.keep = Some(parse_keep(keep).map_err(|e| anyhow::anyhow!("config scan.{}.keep: {e}", self.table))?);
        }
        if self.columns.is_empty() {
            self.columns = file.columns.clone().unwrap_or_default();
        }
        if self.ignore.is_empty() {
            self.ignore = file.ignore.clone().unwrap_or_default();
        }
        Ok(self)
    }

    fn window(&self) -> Duration {
        self.window.unwrap_or(DEFAULT_WINDOW)
    }
}

/// The default window: long enough for a retry after a client's timeout
/// (10-60 s) and one backoff; the evidence of each cluster tells a
/// legitimate repeat inside it from a retry.
pub const DEFAULT_WINDOW: Duration = Duration::from_secs(120);

/// Which row of a cluster stays: the others are the damage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keep {
    First,
    Last,
    /// The first row for which this SQL condition holds (the first row when none does).
    Condition(String),
    /// The first row that does not hold the value a retry's create wrote
    /// into the row it repeats (`column` among the watched ones), when the
    /// data showed such a rewrite and `--keep` was not given.
    NotRewritten {
        watched: usize,
        column: String,
        value: Option<String>,
    },
}

fn parse_keep(text: &str) -> Result<Keep, String> {
    match text.trim() {
        "first" => Ok(Keep::First),
        "last" => Ok(Keep::Last),
        "" => Err("--keep takes first, last, or an SQL condition".into()),
        condition => Ok(Keep::Condition(condition.to_string())),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScanOutput {
    /// One line per cluster, then a summary
    Clusters,
    /// One line per extra (duplicate) row: the remediation list
    Rows,
}

pub async fn run(args: ScanArgs) -> Result<Outcome> {
    run_into(args, |args| Emitter::new(&args.report, BufWriter::new(std::io::stdout()), args.rows_key())).await
}

/// Runs a scan whose report goes where `emitter` says (another command's
/// own reading of a scan: doctor's).
pub async fn run_into<W: Write + Send + 'static>(
    args: ScanArgs,
    emitter: impl FnOnce(&ScanArgs) -> Emitter<W>,
) -> Result<Outcome> {
    let started = Instant::now();
    let mut args = args.with_config()?;
    let audit = match args.state.clone() {
        Some(path) => Some(Audit::start(&path, &mut args)?),
        None => None,
    };
    if let (Some(since), Some(until)) = (args.since, args.until)
        && since >= until
    {
        bail!(
            "--since ({}) must be before --until ({}): no row can be in that range",
            timeparse::rfc3339(since),
            timeparse::rfc3339(until)
        );
    }
    let mut db = db::connect(&args.connect.target("scan"), Access::ReadOnly).await?;
    let table = catalog::table(&mut db, &args.table).await?;
    report::say_target(args.report.quiet, "scan", &db.target().place(), &format!("{}.{}", table.schema, table.name));
    let mut plan = plan::resolve(&args, table, &mut db).await?;
    plan::probe(&mut plan, &mut db).await?;
    let slices = db_scan::slices(&mut db, &plan.source()).await?;
    let estimate = if report::wants_progress(args.report.quiet) {
        db_scan::row_estimate(&mut db, &plan.table).await
    } else {
        None
    };
    let bar = report::progress(args.report.quiet, estimate, "scanning");
    let window_us = i64::try_from(args.window().as_micros()).unwrap_or(i64::MAX);
    let mut rows = Rows::open(&args, &plan, &db.dialect(), &slices).await?;
    // The first rows decide what the data says about the comparison, before
    // any of them is clustered.
    let warm = columns::warm_up(&mut rows, plan.carried.len(), &bar).await?;
    columns::decide(&mut plan, &warm, window_us, &mut db).await.context("deciding the compared columns")?;
    plan.leave_out_later_changes();
    plan.choose_actor(args.by.as_deref());
    plan.subsecond = warm.rows.iter().any(|(_, t)| t.rem_euclid(1_000_000) != 0);
    // Times all on the minute (of more than a handful of rows) are entered
    // by people or cut to the minute: their gaps say nothing of a client's.
    plan.whole_minutes = warm.rows.len() >= 20 && warm.rows.iter().all(|(_, t)| t.rem_euclid(60_000_000) == 0);
    plan.choose_keep(args.keep.clone());
    if !args.no_child_rows {
        plan.children = children::discover(&mut db, &plan.table, &plan.id).await.unwrap_or_default();
    }
    let mut confirming = db::connect(&args.connect.target("scan"), Access::ReadOnly).await?;
    confirming.set_subject(&plan.table.schema, &plan.table.name);
    let confirm = Confirm::new(&args, &plan, confirming);
    let emitter = emitter(&args);
    let mut findings = Findings::new(&args, &plan, db.engine(), emitter)?;
    findings.audit = audit;
    if report::wants_progress(args.report.quiet) {
        // Said before the clusters come, not across the bar.
        bar.suspend(|| findings.emitter.say_pending());
    }
    // Candidates are confirmed, and findings written, by a task of their own
    // on a session of its own, while the scan goes on.
    let (candidates, to_confirm) = tokio::sync::mpsc::channel(8);
    let confirming = tokio::spawn(confirm.run(findings, to_confirm, window_us));
    let (scanned, near, interrupted) = cluster(&plan, warm, rows, window_us, candidates, &bar)
        .await
        .with_context(|| format!("scanning {}", plan.table.name))?;
    let findings = confirming.await??;
    bar.finish_and_clear();
    if !interrupted {
        db.close().await?;
    }
    let carried: Vec<String> = plan.carried.iter().map(|c| c.name.clone()).collect();
    findings.finish(&scanned, &near, &carried, started.elapsed(), interrupted)
}

/// Lets the tests interrupt a scan at a known row: with
/// `IDEMCTL_TEST_PAUSE_SCAN=PATH:N`, once N rows are read the scan writes
/// `PATH` and waits (a minute at most) for Ctrl-C or SIGTERM.
struct PauseForTests {
    path: String,
    at: u64,
}

impl PauseForTests {
    fn from_env() -> Option<PauseForTests> {
        let value = std::env::var("IDEMCTL_TEST_PAUSE_SCAN").ok()?;
        let (path, at) = value.rsplit_once(':')?;
        Some(PauseForTests { path: path.to_string(), at: at.parse().ok()? })
    }

    async fn wait(&self) {
        let _ = std::fs::write(&self.path, b"");
        let deadline = Instant::now() + Duration::from_secs(60);
        while !crate::interrupt::is_set() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Near-miss pairs a scan reads back at most, to find those one row of
/// which was filled in after its creation (on tables with an update time).
pub(super) const NEAR_PAIRS: usize = 100_000;

/// Feeds the held rows, then the rest of the table, to the clusterer on the
/// compared columns and to the near-miss detector, and hands the candidate
/// clusters to the confirming task as they close.
async fn cluster(
    plan: &plan::Plan,
    warm: WarmUp,
    mut rows: Rows,
    window_us: i64,
    candidates: tokio::sync::mpsc::Sender<Vec<Cluster>>,
    bar: &indicatif::ProgressBar,
) -> Result<(Scanned, Stats, bool)> {
    let width = plan.carried.len();
    let compared = plan.compared_ix();
    let mut detector = Detector::new(window_us, width, &plan.compared, plan.max_differing())
        .near_misses_only()
        .most_distinct_first(&plan.distinct)
        .prose(&plan.prose)
        .identity(&plan.identity_compared())
        .keep_pairs(if plan.update_time.is_some() { NEAR_PAIRS } else { 0 });
    let mut clusterer = Clusterer::new(window_us);
    let mut interleave = evidence::Interleave::new(plan.actor_ix(), window_us);
    let mut pending: Vec<Cluster> = Vec::new();
    let mut pending_rows = 0;
    let pause = PauseForTests::from_env();
    let mut push =
        |clusterer: &mut Clusterer, detector: &mut Detector, id: crate::window::RowId, t_us: i64, hashes: &[u64]| {
            detector.push(&id, t_us, hashes);
            let key = crate::fingerprint::key(hashes, &compared);
            let mut member = Member::new(id, t_us);
            member.interleaved = interleave.push(key, hashes, t_us);
            clusterer.push(&key.to_le_bytes(), member);
        };
    let WarmUp { rows: held, hashes } = warm;
    for (i, (id, t_us)) in held.into_iter().enumerate() {
        push(&mut clusterer, &mut detector, id, t_us, &hashes[i * width..(i + 1) * width]);
        while let Some(cluster) = clusterer.pop_ready() {
            pending_rows += cluster.members.len();
            pending.push(cluster);
        }
    }
    drop(hashes);
    loop {
        if pending_rows >= CONFIRM_ROWS {
            pending_rows = 0;
            // A closed channel means the confirming task failed: its error is below.
            if candidates.send(std::mem::take(&mut pending)).await.is_err() {
                break;
            }
        }
        // Ctrl-C: the clusters closed so far are reported, those still open are not.
        let next = rows.next().await;
        if crate::interrupt::is_set() {
            let _ = candidates.send(pending).await;
            return Ok((rows.scanned, detector.stats, true));
        }
        let Some((id, t_us, hashes)) = next? else { break };
        push(&mut clusterer, &mut detector, id, t_us, hashes);
        while let Some(cluster) = clusterer.pop_ready() {
            pending_rows += cluster.members.len();
            pending.push(cluster);
        }
        if rows.scanned.rows.is_multiple_of(4096) {
            bar.set_position(rows.scanned.rows);
        }
        if let Some(pause) = &pause
            && pause.at == rows.scanned.rows
        {
            pause.wait().await;
        }
    }
    // Ctrl-C while a batch was handed over (the confirming task has
    // stopped): the clusters still open are not reported either.
    if crate::interrupt::is_set() {
        return Ok((rows.scanned, detector.stats, true));
    }
    clusterer.finish();
    while let Some(cluster) = clusterer.pop_ready() {
        pending.push(cluster);
    }
    // The near-miss pairs, to be read and kept where one row of the two was
    // filled in after its creation (`confirm`).
    for ((earlier, t_earlier), (later, t_later)) in detector.take_pairs() {
        pending.push(Cluster {
            values: Box::default(),
            shown: Vec::new(),
            members: vec![Member::new(earlier, t_earlier), Member::new(later, t_later)],
            kept: 0,
            filled_later: Some(crate::window::Later::default()),
        });
    }
    let _ = candidates.send(pending).await;
    Ok((rows.scanned, detector.stats, false))
}

impl crate::commands::Definition for ScanArgs {
    fn name(&self) -> &'static str {
        "scan"
    }
    fn rows_key(&self) -> &'static str {
        ScanArgs::rows_key(self)
    }
    fn effect(&self) -> crate::commands::Effect {
        crate::commands::Effect::Reads
    }
    fn limit_runtime(&mut self, _: std::time::Duration) {}
    fn across_databases(&self) -> Result<(), &'static str> {
        match &self.state {
            Some(path) if !path.to_string_lossy().contains("{database}") => {
                Err("--state across several databases needs {database} in its path, so that each keeps its own")
            }
            _ => Ok(()),
        }
    }
    fn totals(&self) -> crate::commands::Totals {
        crate::commands::Totals::Summaries
    }
    fn fold(&self, key: &str) -> crate::commands::Fold {
        use crate::commands::Fold;
        match key {
            "elapsed_seconds" => Fold::Max,
            "window_seconds" => Fold::Setting,
            "extra_share" | "time_range" => Fold::Drop,
            _ => Fold::Sum,
        }
    }
    fn metrics_labels(&self) -> Option<(String, String)> {
        Some((crate::db::Target::new(&self.connect.database_url).place(), self.table.clone()))
    }
    fn for_database(&self, url: &str, name: &str) -> Box<dyn crate::commands::Definition> {
        let file_name: String =
            name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
        let state = self.state.as_ref().map(|p| p.to_string_lossy().replace("{database}", &file_name).into());
        Box::new(ScanArgs { connect: self.connect.on(url), state, ..self.clone() })
    }
    fn state_path(&self) -> Option<&std::path::Path> {
        self.state.as_deref()
    }
    fn take_global(&mut self, global: &crate::cli::Filled) -> Result<()> {
        self.connect.database_url = global.url()?;
        self.report = global.output.clone();
        self.config = global.config.clone();
        Ok(())
    }
    fn run(self: Box<Self>) -> futures_util::future::BoxFuture<'static, Result<Outcome>> {
        Box::pin(crate::commands::abortable(run(*self)))
    }
}
