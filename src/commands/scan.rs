//! `idemctl scan`: near-duplicate rows in a creation table, clustered by a
//! time window, with the cause of each cluster, its cost, and a remediation list.

use std::io::{BufWriter, Write};
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};
use clap::{Args, ValueEnum};
use rust_decimal::Decimal;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::cli::{Connect, Output};
use crate::db::catalog::{self, Column, Table};
use crate::db::dialect::TimeRepr;
use crate::db::scan::{self as db_scan, Bounds, Lookup, ScanSource, Slice};
use crate::db::times::{self, TimeColumn};
use crate::db::user_sql;
use crate::db::{self, Access, Bind, Db, Dialect, Engine};
use crate::exit::Outcome;
use crate::report::{self, Emitter};
use crate::timeparse;
use crate::timeparse::TimeUnit;
use crate::window::{self, Cause, Cluster, Clusterer, Member, RowId};

#[derive(Debug, Clone, Args)]
pub struct ScanArgs {
    #[command(flatten)]
    pub connect: Connect,
    /// The creation table to scan (`schema.table` to name another schema)
    #[arg(long, value_name = "TABLE")]
    pub table: String,
    /// The row id column [default: the single-column primary key]
    #[arg(long, value_name = "COL")]
    pub id: Option<String>,
    /// The creation-time column [default: created_at, inserted_at, created, ... whichever exists]
    #[arg(long, value_name = "COL")]
    pub created_at: Option<String>,
    /// Equal rows at most this far apart, one after another, are one cluster [default: 5s]
    #[arg(long, value_name = "DURATION", value_parser = timeparse::duration)]
    pub window: Option<Duration>,
    /// Compare exactly these columns instead of the default set
    #[arg(long, value_name = "COL,...", value_delimiter = ',')]
    pub columns: Vec<String>,
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
    /// A numeric column to total over the extra rows: the money at stake
    #[arg(long, value_name = "COL")]
    pub sum: Option<String>,
    /// A column naming who was hit (customer, account), reported per cluster
    #[arg(long, value_name = "COL")]
    pub by: Option<String>,
    /// One line per cluster, or one line per extra row (the remediation list)
    #[arg(long, value_enum, default_value_t = ScanOutput::Clusters)]
    pub output: ScanOutput,
    /// List the N clusters with the most extra rows [default: 50 in the table format; every cluster in csv, json and ndjson]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Unit of an integer created-at column [default: detected from its values]
    #[arg(long, value_enum, default_value_t = TimeUnit::Auto)]
    pub time_unit: TimeUnit,
    /// The config file, filled in after parsing: scan options per table under [scan.TABLE].
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
                Some(timeparse::duration(text).map_err(|e| anyhow::anyhow!("config scan.{}.window: {e}", self.table))?);
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
        fill(&mut self.sum, &file.sum);
        fill(&mut self.filter, &file.filter);
        if self.columns.is_empty() {
            self.columns = file.columns.clone().unwrap_or_default();
        }
        if self.ignore.is_empty() {
            self.ignore = file.ignore.clone().unwrap_or_default();
        }
        Ok(self)
    }

    fn window(&self) -> Duration {
        self.window.unwrap_or(Duration::from_secs(5))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScanOutput {
    /// One line per cluster, then a summary
    Clusters,
    /// One line per extra (duplicate) row: the remediation list
    Rows,
}

/// Usual names of a creation-time column, in order of preference.
const CREATED_AT_NAMES: &[&str] = &[
    "created_at",
    "inserted_at",
    "created",
    "created_on",
    "creation_time",
    "created_time",
    "create_time",
    "createdat",
    "date_created",
    "inserted",
];

/// Usual names of an idempotency-key column, in order of preference.
const KEY_NAMES: &[&str] =
    &["idempotency_key", "idempotencykey", "idem_key", "idempotency_token", "dedup_key", "dedupe_key"];

/// What to compare and how, resolved against the catalog.
#[derive(Debug)]
struct Plan {
    table: Table,
    id: String,
    repr: TimeRepr,
    /// The created-at column as read: its unit, and the values it leaves out.
    time: TimeColumn,
    key: Option<String>,
    compared: Vec<String>,
    excluded: Vec<Exclusion>,
}

impl Plan {
    /// What the database layer reads.
    fn source(&self) -> ScanSource<'_> {
        ScanSource { table: &self.table, id: &self.id, created_at: &self.time, compared: &self.compared }
    }
}

#[derive(Debug, Serialize)]
struct Exclusion {
    column: String,
    reason: String,
}

pub async fn run(args: ScanArgs) -> Result<Outcome> {
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
    let plan = resolve(&args, table, &mut db).await?;
    let slices = db_scan::slices(&mut db, &plan.source()).await?;
    let mut confirming = db::connect(&args.connect.target("scan"), Access::ReadOnly).await?;
    confirming.set_subject(&plan.table.schema, &plan.table.name);
    let confirm = Confirm::new(&args, &plan, confirming);
    let emitter = Emitter::new(&args.report, BufWriter::new(std::io::stdout()), args.rows_key());
    let mut findings = Findings::new(&args, &plan, db.engine(), emitter)?;
    findings.audit = audit;
    let estimate = if report::wants_progress(args.report.quiet) {
        db_scan::row_estimate(&mut db, &plan.table).await
    } else {
        None
    };
    if report::wants_progress(args.report.quiet) {
        // Said before the bar starts, not across it when the first cluster comes.
        findings.emitter.say_pending();
    }
    let bar = report::progress(args.report.quiet, estimate, "scanning");
    let window_us = i64::try_from(args.window().as_micros()).unwrap_or(i64::MAX);
    // Candidates are confirmed, and findings written, by a task of their own
    // on a session of its own, while the scan goes on.
    let (candidates, to_confirm) = tokio::sync::mpsc::channel(8);
    let confirming = tokio::spawn(confirm.run(findings, to_confirm, window_us));
    let readers = open_readers(&args, &plan, &db.dialect(), &slices).await?;
    let scanned =
        cluster(readers, window_us, candidates, &bar).await.with_context(|| format!("scanning {}", plan.table.name))?;
    let findings = confirming.await??;
    bar.finish_and_clear();
    db.close().await?;
    findings.finish(&scanned, started.elapsed())
}

/// Each slice is read by a task of its own, on its own session, and handed
/// over in batches: reading and clustering run on both cores.
async fn open_readers(args: &ScanArgs, plan: &Plan, dialect: &Dialect, slices: &[Slice]) -> Result<Vec<Reader>> {
    let mut readers = Vec::new();
    for slice in slices {
        let bounds = Bounds { filter: args.filter.as_deref(), since: args.since, until: args.until };
        let (sql, binds) = db_scan::statement(&plan.source(), bounds, dialect, *slice);
        let mut session = db::connect(&args.connect.target("scan"), Access::ReadOnly).await?;
        session.set_subject(&plan.table.schema, &plan.table.name);
        let (tx, rx) = tokio::sync::mpsc::channel(4);
        tokio::spawn(read_slice(session, sql, binds, plan.repr, tx));
        readers.push(Reader { rx, batch: Batch::default(), at: 0 });
    }
    Ok(readers)
}

/// Merges the slices in created-at order into the clusterer, and hands the
/// candidate clusters to the confirming task as they close.
async fn cluster(
    mut readers: Vec<Reader>,
    window_us: i64,
    candidates: tokio::sync::mpsc::Sender<Vec<Cluster>>,
    bar: &indicatif::ProgressBar,
) -> Result<Scanned> {
    let mut pending: Vec<Cluster> = Vec::new();
    let mut pending_rows = 0;
    let mut clusterer = Clusterer::new(window_us);
    let mut scanned = Scanned::default();
    // The first batches come together, so that every slice's query runs at once.
    for reader in &mut readers {
        reader.fill(&mut scanned).await?;
    }
    // Slices are each in created-at order: always take the earliest head.
    while let Some(i) = readers.iter().enumerate().filter_map(|(i, r)| r.head_t().map(|t| (t, i))).min().map(|(_, i)| i)
    {
        let reader = &mut readers[i];
        let (id, t_us, values) = reader.take();
        scanned.add(t_us);
        clusterer.push(values, Member { id, t_us, key: None, by: None, sum: None });
        if reader.at == reader.batch.ids.len() {
            reader.fill(&mut scanned).await?;
        }
        while let Some(cluster) = clusterer.pop_ready() {
            pending_rows += cluster.members.len();
            pending.push(cluster);
        }
        // A closed channel means the confirming task failed: its error is below.
        if pending_rows >= CONFIRM_ROWS {
            pending_rows = 0;
            if candidates.send(std::mem::take(&mut pending)).await.is_err() {
                break;
            }
        }
        if scanned.rows.is_multiple_of(4096) {
            bar.set_position(scanned.rows);
        }
    }
    clusterer.finish();
    while let Some(cluster) = clusterer.pop_ready() {
        pending.push(cluster);
    }
    let _ = candidates.send(pending).await;
    Ok(scanned)
}

/// Rows read from one slice, handed over together.
#[derive(Default)]
struct Batch {
    ids: Vec<RowId>,
    times: Vec<i64>,
    /// Each row's fingerprint ends at its offset in `values`.
    ends: Vec<usize>,
    values: Vec<u8>,
    /// Rows left out: their created-at value is not a readable time.
    unreadable: u64,
}

/// Rows a batch holds: large enough that handing one over costs nothing per row.
const BATCH_ROWS: usize = 4096;

/// Reads one slice on its own session and sends its rows in batches; an
/// error is sent as the last message.
async fn read_slice(
    mut db: Db,
    sql: String,
    binds: Vec<Bind>,
    repr: TimeRepr,
    tx: tokio::sync::mpsc::Sender<Result<Batch>>,
) {
    let result = async {
        let mut stream = db.stream_rows(&sql, &binds).await?;
        let mut batch = Batch::default();
        loop {
            {
                let Some(row) = stream.next().await? else { break };
                // A created-at value that is not a readable time is left out and counted.
                let Some(t_us) = row.micros(1, repr)? else {
                    batch.unreadable += 1;
                    continue;
                };
                batch.ids.push(row.id(0)?.context("row with a NULL id")?);
                batch.times.push(t_us);
                row.fold_into(2, &mut batch.values)?;
                batch.ends.push(batch.values.len());
            }
            if batch.ids.len() == BATCH_ROWS && tx.send(Ok(std::mem::take(&mut batch))).await.is_err() {
                // The scan stopped reading (an error, or a closed pipe).
                return Ok(());
            }
        }
        if !batch.ids.is_empty() || batch.unreadable > 0 {
            let _ = tx.send(Ok(batch)).await;
        }
        drop(stream);
        db.close().await
    }
    .await;
    if let Err(err) = result {
        let _ = tx.send(Err(err)).await;
    }
}

/// The receiving end of one slice, and the row it is at.
struct Reader {
    rx: tokio::sync::mpsc::Receiver<Result<Batch>>,
    batch: Batch,
    at: usize,
}

impl Reader {
    /// The next batch, or an empty one at the end of the slice.
    async fn fill(&mut self, scanned: &mut Scanned) -> Result<()> {
        loop {
            self.batch = self.rx.recv().await.transpose()?.unwrap_or_default();
            self.at = 0;
            scanned.unreadable += self.batch.unreadable;
            // A batch of rows that were all left out: take the next.
            if !self.batch.ids.is_empty() || self.batch.unreadable == 0 {
                return Ok(());
            }
        }
    }

    /// The created-at time of the next row, if any.
    fn head_t(&self) -> Option<i64> {
        self.batch.times.get(self.at).copied()
    }

    fn take(&mut self) -> (RowId, i64, &[u8]) {
        let i = self.at;
        self.at += 1;
        let start = if i == 0 { 0 } else { self.batch.ends[i - 1] };
        let id = std::mem::replace(&mut self.batch.ids[i], RowId::Int(0));
        (id, self.batch.times[i], &self.batch.values[start..self.batch.ends[i]])
    }
}

/// Confirms candidate clusters: reads their rows' compared values, key, `--by`
/// and `--sum` by id, regroups them on the values themselves and chains them
/// by the window again. The stream only groups (by a hash on PostgreSQL), so
/// this is where a cluster becomes a finding; it touches only the candidates.
struct Confirm {
    db: Db,
    lookup: Lookup,
}

/// Candidate rows read per lookup statement.
const CONFIRM_BATCH: usize = 500;

/// Candidate rows handed to the confirming task at once.
const CONFIRM_ROWS: usize = 4 * CONFIRM_BATCH;

/// One candidate row as the lookup reads it.
struct CandidateRow {
    key: Option<String>,
    by: Option<String>,
    sum: Option<String>,
    values: Vec<Option<String>>,
}

impl Confirm {
    fn new(args: &ScanArgs, plan: &Plan, db: Db) -> Self {
        let lookup =
            Lookup::new(db.dialect(), &plan.source(), plan.key.as_deref(), args.by.as_deref(), args.sum.as_deref());
        Confirm { db, lookup }
    }

    /// Confirms each batch of candidates as it comes, and reports the findings.
    async fn run<W: Write>(
        mut self,
        mut findings: Findings<W>,
        mut batches: tokio::sync::mpsc::Receiver<Vec<Cluster>>,
        window_us: i64,
    ) -> Result<Findings<W>> {
        while let Some(batch) = batches.recv().await {
            self.confirm_batch(batch, window_us, &mut findings).await?;
        }
        self.db.close().await?;
        Ok(findings)
    }

    async fn confirm_batch<W: Write>(
        &mut self,
        batch: Vec<Cluster>,
        window_us: i64,
        findings: &mut Findings<W>,
    ) -> Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let ids: Vec<&RowId> = batch.iter().flat_map(|c| c.members.iter().map(|m| &m.id)).collect();
        let mut looked: FxHashMap<String, CandidateRow> = FxHashMap::default();
        for chunk in ids.chunks(CONFIRM_BATCH) {
            let (sql, binds) = self.lookup.statement(chunk);
            for row in self.db.query_text(&sql, &binds).await.context("confirming candidate rows")? {
                let mut cells = row.into_iter();
                let Some(Some(id)) = cells.next() else { continue };
                let (key, by, sum) = (cells.next().flatten(), cells.next().flatten(), cells.next().flatten());
                looked.insert(id, CandidateRow { key, by, sum, values: cells.collect() });
            }
        }
        let mut confirmed = Vec::new();
        for candidate in batch {
            let mut rows = Vec::with_capacity(candidate.members.len());
            for mut member in candidate.members {
                // A row deleted since the stream read it is no longer damage.
                let Some(row) = looked.remove(&member.id.to_string()) else { continue };
                member.key = row.key.map(Into::into);
                member.by = row.by.map(Into::into);
                member.sum = row.sum.as_deref().map(parse_number).transpose()?;
                rows.push((member, row.values));
            }
            confirmed.extend(window::confirm(rows, window_us));
        }
        confirmed.sort_by(|a, b| (a.original().t_us, &a.original().id).cmp(&(b.original().t_us, &b.original().id)));
        for cluster in confirmed {
            findings.add(cluster)?;
        }
        Ok(())
    }
}

/// Resolves the id, created-at, key and compared columns against the catalog.
async fn resolve(args: &ScanArgs, table: Table, db: &mut Db) -> Result<Plan> {
    if let Some(filter) = &args.filter {
        user_sql::condition(db.engine(), "--where", filter)?;
    }
    let id = match &args.id {
        Some(id) => table.column(id)?.name.clone(),
        None => match table.primary_key.as_slice() {
            [single] => single.clone(),
            [] => bail!("table {:?} has no primary key: name the row id column with --id", table.name),
            many => bail!(
                "table {:?} has a composite primary key ({}): name one row id column with --id",
                table.name,
                many.join(", ")
            ),
        },
    };
    let created_at = match &args.created_at {
        Some(name) => table.column(name)?.clone(),
        None => table.find_column(CREATED_AT_NAMES).cloned().with_context(|| {
            format!(
                "table {:?} has no created-at column among {}: name it with --created-at",
                table.name,
                CREATED_AT_NAMES.join(", ")
            )
        })?,
    };
    let key = match &args.key_column {
        Some(name) => Some(table.column(name)?.name.clone()),
        None => table.find_column(KEY_NAMES).map(|c| c.name.clone()),
    };
    for name in args.by.iter().chain(&args.sum).chain(&args.ignore) {
        table.column(name)?;
    }
    let mut compared = Vec::new();
    let mut excluded = Vec::new();
    if !args.columns.is_empty() {
        for name in &args.columns {
            let column = table.column(name)?;
            if !compared.contains(&column.name) {
                compared.push(column.name.clone());
            }
        }
    }
    for column in &table.columns {
        let reason = if !args.columns.is_empty() {
            (!compared.contains(&column.name)).then(|| "not in --columns".to_string())
        } else {
            exclusion(&table, column, &id, &created_at.name, key.as_deref(), &args.ignore)
        };
        match reason {
            Some(reason) => excluded.push(Exclusion { column: column.name.clone(), reason }),
            None if args.columns.is_empty() => compared.push(column.name.clone()),
            None => {}
        }
    }
    if compared.is_empty() {
        bail!("no columns left to compare in table {:?}: name them with --columns", table.name);
    }
    let time = times::read(db, &table, &created_at, args.time_unit).await?;
    Ok(Plan { id, repr: time.repr, time, key, compared, excluded, table })
}

/// Why a column is left out of the default comparison, if it is.
fn exclusion(
    table: &Table,
    column: &Column,
    id: &str,
    created_at: &str,
    key: Option<&str>,
    ignore: &[String],
) -> Option<String> {
    let name = column.name.as_str();
    if name == id {
        return Some("row id".into());
    }
    if table.primary_key.iter().any(|c| c == name) {
        return Some("primary key".into());
    }
    if name == created_at {
        return Some("created-at column".into());
    }
    if Some(name) == key {
        return Some("idempotency-key column".into());
    }
    if ignore.iter().any(|c| c == name) {
        return Some("--ignore".into());
    }
    if let Some(index) = table.unique_alone(name) {
        return Some(format!("unique on its own: index {}", index.name));
    }
    column.mints()
}

fn parse_number(text: &str) -> Result<Decimal> {
    Decimal::from_str(text)
        .or_else(|_| Decimal::from_scientific(text))
        .with_context(|| format!("--sum column value {text:?} is not a number"))
}

/// Rows seen, and the time range they cover.
#[derive(Debug, Default)]
struct Scanned {
    rows: u64,
    /// Rows left out: their created-at value is not a readable time.
    unreadable: u64,
    first_us: Option<i64>,
    last_us: Option<i64>,
}

impl Scanned {
    fn add(&mut self, t_us: i64) {
        self.rows += 1;
        self.first_us.get_or_insert(t_us);
        self.last_us = Some(t_us);
    }
}

/// A decimal written as a JSON number with all its digits (`19.90`, not `"19.90"` or `19.9`).
#[derive(Debug, Clone, Copy)]
struct Amount(Decimal);

impl Serialize for Amount {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        rust_decimal::serde::arbitrary_precision::serialize(&self.0, s)
    }
}

/// Clusters the table format lists by default: the most extra rows first.
const TABLE_LIMIT: usize = 50;

/// A cluster kept for a limited listing, ordered by its extra rows (more
/// first), then by when it was found (earlier first).
struct Kept {
    extras: usize,
    n: u64,
    rows: Vec<Value>,
}

impl Ord for Kept {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.extras.cmp(&other.extras).then(other.n.cmp(&self.n))
    }
}

impl PartialOrd for Kept {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Kept {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Kept {}

/// One cluster, as reported with `--output clusters`.
#[derive(Serialize)]
struct ClusterRow {
    cluster: u64,
    original_id: String,
    extra_ids: Vec<String>,
    count: usize,
    first_at: String,
    span_seconds: f64,
    cause: Cause,
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sum: Option<Amount>,
    values: Map<String, Value>,
}

/// One extra row, as reported with `--output rows`: the remediation list.
#[derive(Serialize)]
struct ExtraRow<'a> {
    cluster: u64,
    original_id: String,
    duplicate_id: String,
    /// Seconds since the row before it in the cluster.
    gap_seconds: f64,
    cause: Cause,
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sum: Option<Option<Amount>>,
}

/// Turns clusters into report rows as they close, and keeps the totals.
struct Findings<W: Write> {
    emitter: Emitter<W>,
    /// With `--state`: which clusters this run lists.
    audit: Option<Audit>,
    /// With a limit, the clusters listed so far: the most extra rows, kept
    /// in a bounded heap (so a table of 50 holds 50, not every cluster).
    kept: Option<(usize, std::collections::BinaryHeap<std::cmp::Reverse<Kept>>)>,
    output: ScanOutput,
    compared: Vec<String>,
    has_key: bool,
    has_by: bool,
    has_sum: bool,
    clusters: u64,
    extra_rows: u64,
    sum_at_stake: Decimal,
    by_hit: FxHashSet<Option<Box<str>>>,
    causes: [u64; 4],
}

impl<W: Write> Findings<W> {
    fn new(args: &ScanArgs, plan: &Plan, engine: Engine, mut emitter: Emitter<W>) -> Result<Self> {
        emitter.meta(
            "table",
            format!("{}.{}", plan.table.schema, plan.table.name),
            format!("{} ({})", plan.table.name, engine.name()),
        )?;
        crate::report::config_meta(&mut emitter, args.config.as_deref())?;
        emitter.meta("compared_columns", &plan.compared, plan.compared.join(", "))?;
        let excluded_text: Vec<String> = plan.excluded.iter().map(|e| format!("{} ({})", e.column, e.reason)).collect();
        emitter.meta("excluded_columns", &plan.excluded, excluded_text.join(", "))?;
        let key_text = match &plan.key {
            Some(key) => key.clone(),
            None => "none: causes are unknown (name one with --key-column)".to_string(),
        };
        emitter.meta("key_column", &plan.key, key_text)?;
        let window = args.window().as_secs_f64();
        emitter.meta("window_seconds", window, window.to_string())?;
        let notes = plan.time.notes();
        emitter.meta("notes", &notes, notes.join("; "))?;
        let mut summary = vec![
            "clusters_not_listed",
            "rows_scanned",
            "rows_unreadable",
            "time_range",
            "cluster_count",
            "clusters_by_cause",
            "extra_rows",
            "extra_share",
        ];
        if args.sum.is_some() {
            summary.push("sum_at_stake");
        }
        if args.by.is_some() {
            summary.push("by_values_hit");
        }
        summary.push("elapsed_seconds");
        if args.state.is_some() {
            summary.push("audit");
        }
        emitter.expect_summary(&summary);
        let limit = match (args.limit, args.report.format) {
            (Some(n), _) => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            (None, crate::report::Format::Table) => Some(TABLE_LIMIT),
            (None, _) => None,
        };
        Ok(Findings {
            emitter,
            audit: None,
            kept: limit.map(|n| (n, std::collections::BinaryHeap::new())),
            output: args.output,
            compared: plan.compared.clone(),
            has_key: plan.key.is_some(),
            has_by: args.by.is_some(),
            has_sum: args.sum.is_some(),
            clusters: 0,
            extra_rows: 0,
            sum_at_stake: Decimal::ZERO,
            by_hit: FxHashSet::default(),
            causes: [0; 4],
        })
    }

    fn add(&mut self, cluster: Cluster) -> Result<()> {
        if let Some(audit) = &mut self.audit
            && !audit.lists(&cluster)
        {
            return Ok(());
        }
        self.clusters += 1;
        let n = self.clusters;
        let cause = Cause::of(self.has_key.then(|| cluster.members.iter().map(|m| m.key.as_deref())));
        self.causes[cause as usize] += 1;
        let original = cluster.original();
        let extras = cluster.extras();
        self.extra_rows += extras.len() as u64;
        let sum = self.has_sum.then(|| extras.iter().filter_map(|m| m.sum).sum::<Decimal>());
        self.sum_at_stake += sum.unwrap_or_default();
        if self.has_by {
            self.by_hit.insert(original.by.clone());
        }
        let mut listed: Vec<Value> = Vec::new();
        match self.output {
            ScanOutput::Clusters => {
                let values = self
                    .compared
                    .iter()
                    .cloned()
                    .zip(cluster.shown.iter().map(|v| v.clone().map_or(Value::Null, Value::String)))
                    .collect();
                listed.push(serde_json::to_value(ClusterRow {
                    cluster: n,
                    original_id: original.id.to_string(),
                    extra_ids: extras.iter().map(|m| m.id.to_string()).collect(),
                    count: cluster.members.len(),
                    first_at: timeparse::rfc3339(timeparse::from_micros(original.t_us)),
                    span_seconds: timeparse::seconds(cluster.span_us()),
                    cause,
                    by: self.has_by.then(|| original.by.as_deref().map(String::from)),
                    sum: sum.map(Amount),
                    values,
                })?);
            }
            ScanOutput::Rows => {
                for pair in cluster.members.windows(2) {
                    let (before, extra) = (&pair[0], &pair[1]);
                    listed.push(serde_json::to_value(ExtraRow {
                        cluster: n,
                        original_id: original.id.to_string(),
                        duplicate_id: extra.id.to_string(),
                        gap_seconds: timeparse::seconds(extra.t_us - before.t_us),
                        cause,
                        by: self.has_by.then_some(extra.by.as_deref()),
                        sum: self.has_sum.then_some(extra.sum.map(Amount)),
                    })?);
                }
            }
        }
        match &mut self.kept {
            None => {
                for row in listed {
                    self.emitter.row_value(row)?;
                }
            }
            Some((limit, heap)) => {
                heap.push(std::cmp::Reverse(Kept { extras: extras.len(), n, rows: listed }));
                if heap.len() > *limit {
                    heap.pop();
                }
            }
        }
        Ok(())
    }

    fn finish(mut self, scanned: &Scanned, elapsed: Duration) -> Result<Outcome> {
        let mut not_listed = 0;
        if let Some((_, heap)) = self.kept.take() {
            let mut kept: Vec<Kept> = heap.into_iter().map(|r| r.0).collect();
            kept.sort_by(|a, b| b.cmp(a));
            not_listed = self.clusters - kept.len() as u64;
            for cluster in kept {
                for row in cluster.rows {
                    self.emitter.row_value(row)?;
                }
            }
        }
        let e = &mut self.emitter;
        let more = match not_listed {
            0 => String::new(),
            n => format!("{n} more clusters with fewer extra rows (raise --limit, or --format csv for all)"),
        };
        e.summary("clusters_not_listed", not_listed, more)?;
        e.summary("rows_scanned", scanned.rows, scanned.rows.to_string())?;
        let unreadable_text = if scanned.unreadable == 0 {
            String::new()
        } else {
            format!("{} (their created-at value is not a readable time; left out)", scanned.unreadable)
        };
        e.summary("rows_unreadable", scanned.unreadable, unreadable_text)?;
        let range = match (scanned.first_us, scanned.last_us) {
            (Some(first), Some(last)) => {
                let (first, last) = (timeparse::from_micros(first), timeparse::from_micros(last));
                (
                    json!({"first": timeparse::rfc3339(first), "last": timeparse::rfc3339(last)}),
                    format!("{} .. {}", timeparse::rfc3339(first), timeparse::rfc3339(last)),
                )
            }
            _ => (json!({"first": null, "last": null}), "no rows".to_string()),
        };
        e.summary("time_range", range.0, range.1)?;
        let causes: Map<String, Value> = [Cause::NoKey, Cause::KeyPerAttempt, Cause::KeyReused, Cause::Unknown]
            .into_iter()
            .map(|c| (c.as_str().to_string(), json!(self.causes[c as usize])))
            .collect();
        let causes_text: Vec<String> =
            causes.iter().filter(|(_, v)| **v != json!(0)).map(|(k, v)| format!("{k} {v}")).collect();
        let clusters_text = if causes_text.is_empty() {
            self.clusters.to_string()
        } else {
            format!("{} ({})", self.clusters, causes_text.join(", "))
        };
        e.summary("cluster_count", self.clusters, clusters_text)?;
        for (cause, n) in &causes {
            let n = n.as_f64().unwrap_or(0.0);
            crate::metrics::gauge(
                "idemctl_scan_clusters",
                "Clusters of near-duplicate rows, by cause",
                &[("cause", cause)],
                n,
            );
        }
        crate::metrics::gauge("idemctl_scan_extra_rows", "Rows retries created", &[], self.extra_rows as f64);
        crate::metrics::gauge("idemctl_scan_rows_scanned", "Rows the scan read", &[], scanned.rows as f64);
        if self.has_sum {
            let at_stake = self.sum_at_stake.to_string().parse::<f64>().unwrap_or(0.0);
            crate::metrics::gauge(
                "idemctl_scan_sum_at_stake",
                "The --sum column's total over the extra rows",
                &[],
                at_stake,
            );
        }
        e.summary("clusters_by_cause", &causes, "")?;
        let share = if scanned.rows == 0 { 0.0 } else { self.extra_rows as f64 / scanned.rows as f64 };
        e.summary(
            "extra_rows",
            self.extra_rows,
            format!("{} ({:.3}% of rows scanned)", self.extra_rows, share * 100.0),
        )?;
        e.summary("extra_share", share, "")?;
        if self.has_sum {
            e.summary("sum_at_stake", Amount(self.sum_at_stake), self.sum_at_stake.normalize().to_string())?;
        }
        if self.has_by {
            e.summary("by_values_hit", self.by_hit.len(), self.by_hit.len().to_string())?;
        }
        e.summary("elapsed_seconds", elapsed.as_secs_f64(), format!("{:.2}", elapsed.as_secs_f64()))?;
        if let Some(audit) = &self.audit {
            let text = format!(
                "clusters that ended after {} and before {}; {} still open wait for the next run",
                audit.shown(audit.previous_final_us),
                audit.shown(Some(audit.final_us())),
                audit.open
            );
            self.emitter.summary("audit", audit.summary(), text)?;
        }
        self.emitter.finish()?;
        if let Some(audit) = &self.audit {
            audit.save()?;
        }
        Ok(Outcome::from_findings(self.clusters > 0))
    }
}

/// A scheduled audit (`--state FILE`). A run that has read every row up to
/// its high-water mark H knows a cluster is whole once its last row is a
/// window before H (a later row would have joined it). So each run lists the
/// clusters that became whole since the last run (their last row after the
/// last run's bound, at most a window before H), and leaves the still-open
/// ones to the next run, which reads on from the first row of the oldest of
/// them (or a window before the last bound). Consecutive runs neither miss
/// nor repeat a cluster.
struct Audit {
    path: std::path::PathBuf,
    table: String,
    window_us: i64,
    /// Rows up to here were read.
    high_water_us: i64,
    /// The previous run's bound: clusters whose last row is not after it were listed.
    previous_final_us: Option<i64>,
    /// The first row of the oldest cluster left open by this run.
    open_since_us: Option<i64>,
    /// Clusters left open by this run.
    open: u64,
}

#[derive(Serialize, serde::Deserialize)]
struct AuditFile {
    format_version: u32,
    table: String,
    window_seconds: f64,
    /// Every row up to here was read.
    high_water: String,
    /// Clusters whose last row is not after this were listed.
    listed_through: String,
    /// The first row of the oldest cluster not yet listed.
    open_since: Option<String>,
}

impl Audit {
    /// Reads the state file (a first run has none) and narrows the scan to
    /// what this run needs: from the oldest open cluster, or a window before
    /// the last bound, up to now (or `--until`).
    fn start(path: &std::path::Path, args: &mut ScanArgs) -> Result<Audit> {
        let window_us = i64::try_from(args.window().as_micros()).unwrap_or(i64::MAX);
        let micros = |t: &str, what: &str| -> Result<i64> {
            timeparse::instant(t)
                .map(|t| t.timestamp_micros())
                .map_err(|e| anyhow::anyhow!("state file {}: {what}: {e}", path.display()))
        };
        let previous = match std::fs::read_to_string(path) {
            Ok(text) => Some(
                serde_json::from_str::<AuditFile>(&text)
                    .with_context(|| format!("state file {} is not one idemctl wrote", path.display()))?,
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("cannot read state file {}", path.display())),
        };
        let high_water = args.until.unwrap_or_else(timeparse::now);
        let mut audit = Audit {
            path: path.to_path_buf(),
            table: args.table.clone(),
            window_us,
            high_water_us: high_water.timestamp_micros(),
            previous_final_us: None,
            open_since_us: None,
            open: 0,
        };
        if let Some(file) = previous {
            if file.table != args.table {
                bail!("state file {} belongs to table {}, not {}", path.display(), file.table, args.table);
            }
            if (file.window_seconds - args.window().as_secs_f64()).abs() > 1e-6 {
                bail!(
                    "state file {} was written with --window {}s: keep the window, or start a new state file",
                    path.display(),
                    file.window_seconds
                );
            }
            let listed = micros(&file.listed_through, "listed_through")?;
            let open = file.open_since.as_deref().map(|t| micros(t, "open_since")).transpose()?;
            let from = open.unwrap_or(listed).min(listed) - window_us;
            let from = timeparse::from_micros(from);
            args.since = Some(args.since.map_or(from, |s| s.max(from)));
            audit.previous_final_us = Some(listed);
        }
        args.until = Some(high_water);
        Ok(audit)
    }

    /// The bound of this run: clusters whose last row is not after it are whole.
    fn final_us(&self) -> i64 {
        self.high_water_us - self.window_us
    }

    /// Whether this run lists the cluster: whole now, and not listed before.
    fn lists(&mut self, cluster: &Cluster) -> bool {
        let (Some(first), Some(last)) = (cluster.members.first(), cluster.members.last()) else { return false };
        if last.t_us > self.final_us() {
            self.open += 1;
            self.open_since_us = Some(self.open_since_us.map_or(first.t_us, |t| t.min(first.t_us)));
            return false;
        }
        self.previous_final_us.is_none_or(|listed| last.t_us > listed)
    }

    fn shown(&self, us: Option<i64>) -> String {
        us.map_or_else(|| "the first row".to_string(), |us| timeparse::rfc3339(timeparse::from_micros(us)))
    }

    fn summary(&self) -> Value {
        json!({
            "listed_after": self.previous_final_us.map(|us| timeparse::rfc3339(timeparse::from_micros(us))),
            "listed_through": timeparse::rfc3339(timeparse::from_micros(self.final_us())),
            "high_water": timeparse::rfc3339(timeparse::from_micros(self.high_water_us)),
            "open_clusters": self.open,
        })
    }

    /// Writes the state for the next run, atomically.
    fn save(&self) -> Result<()> {
        let file = AuditFile {
            format_version: crate::report::FORMAT_VERSION,
            table: self.table.clone(),
            window_seconds: self.window_us as f64 / 1e6,
            high_water: timeparse::rfc3339(timeparse::from_micros(self.high_water_us)),
            listed_through: timeparse::rfc3339(timeparse::from_micros(self.final_us())),
            open_since: self.open_since_us.map(|us| timeparse::rfc3339(timeparse::from_micros(us))),
        };
        let tmp = self.path.with_extension(format!("tmp.{}", std::process::id()));
        std::fs::write(&tmp, serde_json::to_vec_pretty(&file)?)
            .with_context(|| format!("cannot write state file {}", tmp.display()))?;
        std::fs::rename(&tmp, &self.path).with_context(|| format!("cannot write state file {}", self.path.display()))
    }
}
