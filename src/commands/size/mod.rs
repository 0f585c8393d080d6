//! `idemctl size`: the key table's storage now, its daily writes, the rows
//! already past the horizon, and its size at each retention horizon. With
//! `--rate` and `--row-bytes` and no database it is a calculator.

use std::io::BufWriter;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Days, NaiveDate, TimeZone, Utc};
use clap::Args;
use serde::Serialize;
use serde_json::{Value, json};

use crate::cli::Output;
use crate::db::storage::{self, Storage, round_to};
use crate::db::{self, Access, Db};
use crate::exit::Outcome;
use crate::keys::expiry::{self, Expiry};
use crate::keys::{KeyTable, MappingArgs};
use crate::report::{Block, Document, Emitter};
use crate::timeparse;
use crate::units;

mod rate;
use rate::{History, Measure};

#[derive(Debug, Clone, Args)]
pub struct SizeArgs {
    /// The global `--database-url`, filled in after parsing (not needed with --rate and --row-bytes).
    #[arg(skip)]
    pub database_url: Option<String>,
    #[command(flatten)]
    pub waits: crate::cli::Waits,
    #[command(flatten)]
    pub mapping: MappingArgs,
    /// Count the rows instead of taking the engine's estimate
    #[arg(long)]
    pub exact: bool,
    /// Days of writes to chart and average, ending at the start of today (UTC)
    #[arg(long, value_name = "N", default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=3660))]
    pub days: u32,
    /// Retention horizons to project, comma-separated [default: 24h,72h and the config file's horizon]
    #[arg(long, value_name = "DURATION,...", value_delimiter = ',', value_parser = timeparse::duration)]
    pub retention: Vec<Duration>,
    /// Rows written, as 10M/day, 5k/min or 120/s: the calculator's input, or in place of the measured rate
    #[arg(long, value_name = "RATE", value_parser = units::rate)]
    pub rate: Option<f64>,
    /// Bytes per row with its indexes, as 1KB (decimal) or 1KiB (binary): the calculator's input, or in place of the measured size
    #[arg(long, value_name = "SIZE", value_parser = units::bytes)]
    pub row_bytes: Option<f64>,
    /// Count as backlog the rows created longer ago than this [default: those whose expires_at has passed]
    #[arg(long, value_name = "DURATION", value_parser = timeparse::duration)]
    pub older_than: Option<Duration>,
    #[arg(skip)]
    pub report: Output,
}

const DAY: f64 = 86_400.0;

/// Everything `size` reports; the JSON document, and the source of the other formats.
#[derive(Debug, Default, Serialize)]
struct Sizing {
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<&'static str>,
    /// The table's kind (`--kind`, or told by its columns).
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    /// The kind, for people, where it is not HTTP keys: what told it.
    #[serde(skip)]
    kind_said: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    storage: Option<Storage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    writes: Option<Writes>,
    #[serde(skip_serializing_if = "Option::is_none")]
    backlog: Option<Backlog>,
    /// Rows written per day, measured or given: the figure the projections use.
    rows_per_day: Option<f64>,
    /// Where `rows_per_day` comes from: `window`, `retention`, `inserts` (see
    /// `rates`), or `given` (`--rate`).
    rate_source: Option<&'static str>,
    /// Every measure of the write rate taken, each with its source.
    rates: Vec<Measure>,
    /// Bytes per row, table and indexes together, measured or given.
    bytes_per_row: Option<f64>,
    /// What the table grows by each day until the oldest rows start to go.
    growth_bytes_per_day: Option<f64>,
    projections: Vec<Projection>,
    /// A partitioned table's leaf partitions, each with its own figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    partitions: Option<Vec<PartitionSize>>,
    /// How far back the table's rows go, when all of them are within `--days`.
    #[serde(skip)]
    history: Option<Duration>,
    /// Rows past each horizon (seconds) that a status keeps from expire
    /// (live, or in a status neither finished nor live): they stay.
    #[serde(skip)]
    kept_past: Vec<(u64, u64)>,
    notes: Vec<String>,
    /// The config file read, if any.
    config_file: Option<String>,
    /// Why a figure was not measured: most of the times it is read by
    /// cannot be read as a time. Said last, and the run not clean.
    #[serde(skip)]
    not_measured: Vec<String>,
}

impl Sizing {
    /// The figures for `--metrics-file`.
    fn record_metrics(&self) {
        use crate::metrics::gauge;
        if let Some(storage) = &self.storage {
            gauge("idemctl_size_rows", "Rows in the key table", &[], storage.rows as f64);
            let parts = [
                ("total", Some(storage.total_bytes)),
                ("table", storage.table_bytes),
                ("indexes", storage.index_bytes),
                ("overflow", storage.overflow_bytes),
            ];
            for (part, bytes) in parts {
                if let Some(bytes) = bytes {
                    gauge("idemctl_size_bytes", "The key table's storage, by part", &[("part", part)], bytes as f64);
                }
            }
        }
        if let Some(rate) = self.rows_per_day {
            gauge("idemctl_size_rows_per_day", "Rows written a day", &[], rate);
        }
        if let Some(backlog) = &self.backlog {
            gauge(
                "idemctl_size_backlog_rows",
                "Rows past the retention horizon, not yet deleted",
                &[],
                backlog.rows as f64,
            );
        }
        for p in &self.projections {
            gauge(
                "idemctl_size_projected_bytes",
                "The size at each retention horizon",
                &[("retention", &p.retention)],
                p.bytes as f64,
            );
        }
    }
}

/// One leaf partition's figures: the server's, and the time range of its
/// rows where an index on the time column reads it cheaply.
#[derive(Debug, Serialize)]
struct PartitionSize {
    name: String,
    bound: String,
    rows_estimate: u64,
    bytes: u64,
    /// The created-at column's first and last value (RFC 3339).
    first: Option<String>,
    last: Option<String>,
}

#[derive(Debug, Serialize)]
struct Writes {
    column: String,
    days: u32,
    /// The first and last day charted (UTC); today is left out, being partial.
    first_day: String,
    last_day: String,
    total: u64,
    peak_day: Option<DayCount>,
    by_day: Vec<DayCount>,
}

impl Writes {
    /// The peak among the days from `first` on, whole within the rate's
    /// window: a day part-purged or part-written is no peak.
    fn peak_within(&mut self, first: NaiveDate) {
        let whole = |d: &&DayCount| d.day.parse::<NaiveDate>().is_ok_and(|day| day > first);
        self.peak_day = self.by_day.iter().filter(whole).filter(|d| d.rows > 0).max_by_key(|d| d.rows).cloned();
    }
}

#[derive(Debug, Clone, Serialize)]
struct DayCount {
    day: String,
    rows: u64,
}

#[derive(Debug, Serialize)]
struct Backlog {
    rows: u64,
    column: String,
    expired_before: String,
}

#[derive(Debug, Serialize)]
struct Projection {
    retention: String,
    retention_seconds: u64,
    rows: u64,
    bytes: u64,
    /// The size were every day written like the peak day.
    peak_bytes: Option<u64>,
    /// Of `rows`, those past the horizon today that a status keeps (live,
    /// or in a status neither finished nor live): expire leaves them.
    kept_rows: u64,
}

pub async fn run(args: SizeArgs) -> Result<Outcome> {
    let config = args.mapping.config()?;
    let mut horizons = args.retention.clone();
    if horizons.is_empty() {
        horizons = vec![Duration::from_secs(24 * 3600), Duration::from_secs(72 * 3600)];
        if let Some(configured) = expiry::horizon(None, &config)?
            && !horizons.contains(&configured)
        {
            horizons.push(configured);
            horizons.sort();
        }
    }
    let calculator = args.rate.is_some() && args.row_bytes.is_some();
    let mut sizing =
        Sizing { config_file: args.mapping.config.as_ref().map(|p| p.display().to_string()), ..Sizing::default() };
    if let Some(file) = &sizing.config_file {
        sizing.notes.push(format!("config file: {file}"));
    }
    match (&args.database_url, calculator) {
        (_, true) => {}
        (Some(url), false) => measure(&args, url, &config, &horizons, &mut sizing).await?,
        (None, false) if args.rate.is_some() || args.row_bytes.is_some() => {
            bail!("the calculator needs both --rate and --row-bytes (or --database-url to measure the rest)")
        }
        (None, false) => bail!(
            "no database: give --database-url (or DATABASE_URL) to measure a table, \
             or --rate and --row-bytes to calculate"
        ),
    }
    if let Some(rate) = args.rate {
        sizing.rows_per_day = Some(rate * DAY);
        sizing.rate_source = Some("given");
    }
    if let Some(bytes) = args.row_bytes {
        sizing.bytes_per_row = Some(bytes);
    }
    // The peak day says something only of the measured rate.
    let peak = match args.rate {
        Some(_) => None,
        None => sizing.writes.as_ref().and_then(|w| w.peak_day.as_ref()).map(|p| p.rows as f64),
    };
    project(&mut sizing, &horizons, peak);
    sizing.record_metrics();
    let mut out = Emitter::new(&args.report, BufWriter::new(std::io::stdout()), "figures");
    out.mark_clean(sizing.not_measured.is_empty());
    out.document(&sizing)?;
    // A figure counted from times that could not be read is no figure.
    for line in &sizing.not_measured {
        eprintln!("idemctl: {line}");
    }
    Ok(Outcome::from_findings(!sizing.not_measured.is_empty()))
}

/// A partitioned table's leaf partitions with their figures, and the time
/// range of each where an index leads with the created-at column; `None` for
/// a table that is not partitioned.
async fn partitions(db: &mut Db, target: &KeyTable, notes: &mut Vec<String>) -> Result<Option<Vec<PartitionSize>>> {
    let leaves = crate::db::partitions::leaves(db, &target.table).await?;
    if leaves.is_empty() {
        return Ok(None);
    }
    let indexed = match &target.created_at {
        Some(column) => crate::db::catalog::indexes(db, &target.table)
            .await?
            .iter()
            .any(|i| i.first_column.as_deref() == Some(column.as_str()) && !i.partial),
        None => false,
    };
    if !indexed && let Some(column) = &target.created_at {
        notes.push(format!("no index leads with {column}: the partitions' time ranges are not read (a scan each)"));
    }
    let mut out = Vec::new();
    for leaf in leaves {
        let (first, last) = match (&target.created_at, indexed) {
            (Some(column), true) => {
                let time = crate::db::times::read(
                    db,
                    &target.table,
                    target.table.column(column)?,
                    crate::timeparse::TimeUnit::Auto,
                )
                .await?;
                let dialect = db.dialect();
                let us = dialect.epoch_micros(&dialect.ident(column), time.repr);
                let sql = format!(
                    "SELECT {}, {} FROM {}",
                    dialect.text(&format!("min({us})")),
                    dialect.text(&format!("max({us})")),
                    leaf.sql_name(db, &target.table)
                );
                let row = db.query_text(&sql, &[]).await?.into_iter().next().unwrap_or_default();
                let at = |i: usize| {
                    row.get(i)
                        .cloned()
                        .flatten()
                        .and_then(|v| v.parse::<f64>().ok())
                        .map(|us| timeparse::rfc3339(timeparse::from_micros(us as i64)))
                };
                (at(0), at(1))
            }
            _ => (None, None),
        };
        out.push(PartitionSize {
            name: leaf.name.clone(),
            bound: leaf.bound.clone(),
            rows_estimate: leaf.rows_estimate,
            bytes: leaf.bytes,
            first,
            last,
        });
    }
    Ok(Some(out))
}

/// Reads the table's storage, writes and backlog.
async fn measure(
    args: &SizeArgs,
    url: &str,
    config: &crate::config::Config,
    horizons: &[Duration],
    sizing: &mut Sizing,
) -> Result<()> {
    let mut db = db::connect(&args.waits.target(url, "size"), Access::ReadOnly).await?;
    let mut target = KeyTable::resolve(&args.mapping.mapping(&config.key_table)?, &mut db).await?;
    crate::report::say_target(
        args.report.quiet,
        "size",
        &db.target().place(),
        &format!("{}.{}", target.table.schema, target.table.name),
    );
    sizing.table = Some(format!("{}.{}", target.table.schema, target.table.name));
    sizing.engine = Some(db.engine().name());
    sizing.kind = Some(target.kind.as_str());
    sizing.kind_said = crate::commands::kind_said(&target);
    let mut storage = storage::storage(&mut db, &target.table, args.exact, &mut sizing.notes).await?;
    let now = timeparse::now();
    if let Some(column) = target.created_at.clone() {
        let (mut writes, history) = writes(&mut db, &mut target, &column, args.days, now, &mut sizing.notes).await?;
        let time = target.time(&column).context("the created-at column was not read")?;
        if let Some(why) = crate::commands::unreadable_not_judged(&target.table.name, time) {
            sizing.not_measured.push(not_measured(&why, "the write rate was not measured"));
        } else {
            counted(&mut storage, history.rows(), &mut sizing.notes);
            let kept = kept(&mut db, &mut target, expiry::horizon(args.older_than, config)?).await?;
            rates(&mut db, &target, &history, kept, sizing).await?;
            let measured = sizing.rates.iter().find(|m| m.source == "window");
            if let Some(since) = measured.and_then(|m| timeparse::instant(&m.since).ok()) {
                writes.peak_within(since.date_naive());
            }
            sizing.writes = Some(writes);
            if let Some(span) = history.span() {
                sizing.history = Some(span);
            }
        }
    } else {
        sizing.notes.push(format!(
            "table {:?} has no created_at column: map it with --created-at-column to measure writes, or give --rate",
            target.table.name
        ));
    }
    let horizon = expiry::horizon(args.older_than, config)?;
    if horizon.is_none() && target.expires_at.is_none() {
        sizing.notes.push(format!(
            "table {:?} has no expires_at column: give --older-than (or [retention] horizon) to count the backlog",
            target.table.name
        ));
    } else if horizon.is_some() && target.created_at.is_none() {
        sizing.notes.push("no created_at column to count the backlog by".to_string());
    } else {
        let expiry = Expiry::resolve(&mut db, &mut target, horizon, now).await?;
        if Some(&expiry.column) != target.created_at.as_ref() {
            sizing.notes.extend(expiry.time.notes());
        }
        if let Some(why) = crate::commands::unreadable_not_judged(&target.table.name, &expiry.time) {
            sizing.not_measured.push(not_measured(&why, "the expiry backlog was not counted"));
        } else {
            let dialect = db.dialect();
            let (expired, binds) = expiry.condition(&dialect, &target, None, None, expiry.cutoff)?;
            let table = target.table.sql_name(&dialect);
            let rows = expiry::count_matching(&mut db, &table, &expired, &binds, None)
                .await
                .context("counting the expiry backlog")?;
            sizing.backlog = Some(Backlog {
                rows,
                column: expiry.column.clone(),
                expired_before: timeparse::rfc3339(expiry.cutoff),
            });
        }
    }
    sizing.kept_past = kept_past(&mut db, &mut target, horizons, now).await?;
    sizing.partitions = partitions(&mut db, &target, &mut sizing.notes).await?;
    sizing.bytes_per_row = storage.bytes_per_row;
    if storage.bytes_per_row.is_none() {
        sizing.notes.push("the table is empty: give --row-bytes to project its size".to_string());
    }
    sizing.storage = Some(storage);
    db.close().await?;
    Ok(())
}

/// Where a status column tells a row's state and the created-at column is
/// read: the rows past each horizon that expire keeps (live, or in a status
/// neither finished nor live), as expire counts them.
async fn kept_past(
    db: &mut Db,
    target: &mut KeyTable,
    horizons: &[Duration],
    now: DateTime<Utc>,
) -> Result<Vec<(u64, u64)>> {
    let Some(created) = target.created_at.clone() else { return Ok(Vec::new()) };
    let unread =
        |t: &crate::db::times::TimeColumn| crate::commands::unreadable_not_judged(&target.table.name, t).is_some();
    if target.statuses.is_none() || target.time(&created).is_none_or(unread) {
        return Ok(Vec::new());
    }
    let mut kept = Vec::new();
    for h in horizons {
        let expiry = Expiry::resolve(db, target, Some(*h), now).await?;
        let rows: u64 = expiry::kept_by_status(db, target, &expiry, None).await?.iter().map(|(_, n)| n).sum();
        kept.push((h.as_secs(), rows));
    }
    Ok(kept)
}

/// The line for a figure not measured: `not clean: 6 of the 6 values of
/// T.created_at cannot be read as a time, so the write rate was not measured`.
fn not_measured(why: &str, what: &str) -> String {
    format!("{}, so {what}", why.split(", so ").next().unwrap_or(why))
}

/// Rows created each UTC hour from the start of the `days`th day before
/// today to now, and rows older; charted by day, the days before today.
async fn writes(
    db: &mut Db,
    target: &mut KeyTable,
    column: &str,
    days: u32,
    now: DateTime<Utc>,
    notes: &mut Vec<String>,
) -> Result<(Writes, History)> {
    target.read_times(db, &[Some(column.to_string())]).await?;
    let time = target.time(column).context("the created-at column was not read")?.clone();
    notes.extend(time.notes());
    let today = now.date_naive();
    let first = today.checked_sub_days(Days::new(u64::from(days))).context("--days reaches too far back")?;
    let start = |d: NaiveDate| Utc.from_utc_datetime(&d.and_hms_opt(0, 0, 0).unwrap_or_default()).timestamp_micros();
    let counted = storage::writes_by(db, &target.table, &time, start(first), 3600).await?;
    let before = storage::rows_before(db, &target.table, &time, start(first)).await?;
    let history = History::new(start(first), now.timestamp_micros(), &counted, before);
    let by_day: Vec<DayCount> = (0..days)
        .filter_map(|i| first.checked_add_days(Days::new(u64::from(i))))
        .map(|d| {
            let hour = ((start(d) - history.since_us) / 3_600_000_000) as usize;
            let rows = history.hours.iter().skip(hour).take(24).sum();
            DayCount { day: d.to_string(), rows }
        })
        .collect();
    let total: u64 = by_day.iter().map(|d| d.rows).sum();
    let peak_day = by_day.iter().filter(|d| d.rows > 0).max_by_key(|d| d.rows).cloned();
    let writes = Writes {
        column: column.to_string(),
        days,
        first_day: first.to_string(),
        last_day: today.pred_opt().unwrap_or(today).to_string(),
        total,
        peak_day,
        by_day,
    };
    Ok((writes, history))
}

/// The rows counted by their creation time (every row, exactly) in place of
/// the engine's estimate, said when the estimate was off: right after a
/// large delete it still counts the rows deleted.
fn counted(storage: &mut Storage, rows: u64, notes: &mut Vec<String>) {
    if storage.rows_exact && storage.rows == rows {
        return;
    }
    let off = (storage.rows as f64 - rows as f64).abs() / rows.max(1) as f64;
    if !storage.rows_exact && off > 0.1 {
        notes.push(format!(
            "the engine's row estimate ({}) is stale, {} rows were counted: it lags behind large deletes until \
             the table is analyzed",
            units::grouped(storage.rows),
            units::grouped(rows)
        ));
    }
    // InnoDB's sizes still come from its statistics; the rows no longer do.
    for note in notes.iter_mut() {
        if let Some(kept) = note.strip_suffix("; --exact counts the rows") {
            *note = kept.to_string();
        }
    }
    storage.rows = rows;
    storage.rows_exact = true;
    storage.bytes_per_row = (rows > 0).then(|| round_to(storage.total_bytes as f64 / rows as f64, 1));
}

/// How long the table keeps its rows, where that can be told: the retention
/// horizon, else the shortest lifetime (`expires_at - created_at`) in a sample.
async fn kept(db: &mut Db, target: &mut KeyTable, horizon: Option<Duration>) -> Result<Option<Duration>> {
    if horizon.is_some() {
        return Ok(horizon);
    }
    let (Some(expires), Some(created)) = (target.expires_at.clone(), target.created_at.clone()) else {
        return Ok(None);
    };
    target.read_times(db, &[Some(expires.clone()), Some(created.clone())]).await?;
    let dialect = db.dialect();
    let micros = |c: &str| target.time(c).map(|t| dialect.epoch_micros(&dialect.ident(c), t.repr));
    let (Some(e), Some(c)) = (micros(&expires), micros(&created)) else { return Ok(None) };
    let shortest = crate::db::catalog::shortest_difference(db, &target.table, &e, &c, 10_000).await?;
    Ok(shortest.filter(|us| *us > 0).map(|us| Duration::from_micros(us as u64)))
}

/// Every measure of the write rate the table allows, and the one the
/// projections use. PostgreSQL's insert counter is kept in the metrics file
/// for the next run; its dead rows are counted in the bytes per row.
async fn rates(
    db: &mut Db,
    target: &KeyTable,
    history: &History,
    kept: Option<Duration>,
    sizing: &mut Sizing,
) -> Result<()> {
    let dialect = db.dialect();
    let Some(window) = rate::window(history, kept) else {
        sizing.notes.push(format!(
            "no rows were created in the last {}: the write rate is 0",
            units::counted(sizing_days(history).max(0) as u64, "day")
        ));
        sizing.rows_per_day = Some(0.0);
        sizing.rate_source = Some("window");
        return Ok(());
    };
    let mut measures = vec![window.clone()];
    if let Some(kept) = kept
        && let Some(retention) = rate::retention(history, kept)
    {
        measures.push(retention);
    }
    let (inserted, dead) = db.driver().insert_counters(db, &target.table.sql_name(&dialect)).await?;
    if let Some(inserted) = inserted {
        inserts(inserted, &mut measures, &mut sizing.notes);
    }
    if let (Some(dead), Some(storage)) = (dead, sizing.storage.as_mut()) {
        dead_rows(storage, dead, &mut sizing.notes);
    }
    if let Some(ids) = id_growth(db, target, &window).await? {
        if ids.rows_per_day > window.rows_per_day * 1.1 {
            sizing.notes.push(format!(
                "the ids grew by {} a day, {} more than the rows kept: rows deleted before their time, or ids \
                 used by inserts that lost a conflict",
                units::human_count(ids.rows_per_day),
                units::human_count(ids.rows_per_day - window.rows_per_day)
            ));
        }
        measures.push(ids);
    }
    if let Some(rate) = rate::chosen(&measures) {
        sizing.rows_per_day = Some(rate.rows_per_day);
        sizing.rate_source = Some(rate.source);
    }
    sizing.rates = measures;
    Ok(())
}

/// A base reading of the insert counter is kept this long in the metrics
/// file, then replaced by the current one.
const INSERTS_BASE_KEPT: f64 = 7.0 * 86_400.0;

/// PostgreSQL's insert counter against the base reading the metrics file
/// keeps (taken by an earlier run, kept a week so that hourly runs still
/// measure over a day or more); the base and the current reading go to the
/// metrics file for the next run.
fn inserts(inserted: u64, measures: &mut Vec<Measure>, notes: &mut Vec<String>) {
    // The metrics file's times are the clock's, not the test's.
    let now = chrono::Utc::now().timestamp_micros() as f64 / 1e6;
    let base = match (
        crate::metrics::previous("idemctl_size_inserts_base_total"),
        crate::metrics::previous("idemctl_size_inserts_base_timestamp_seconds"),
    ) {
        (Some(count), Some(at)) => Some((count, at)),
        _ => crate::metrics::previous("idemctl_size_inserts_total")
            .zip(crate::metrics::previous("idemctl_run_timestamp_seconds")),
    };
    let mut kept = (inserted as f64, now);
    match base {
        Some((count, _)) if (inserted as f64) < count => notes.push(
            "the statistics were reset since the metrics file's reading of n_tup_ins: the next run measures \
             the inserts again"
                .to_string(),
        ),
        Some((count, at)) => {
            if let Some(measure) = rate::inserts((inserted, (now * 1e6) as i64), (count as u64, (at * 1e6) as i64)) {
                measures.push(measure);
            }
            if now - at < INSERTS_BASE_KEPT {
                kept = (count, at);
            }
        }
        None if !crate::metrics::wanted() => notes.push(
            "--metrics-file keeps a reading of the insert counter (n_tup_ins): a run a day or more later measures \
             the rows inserted between the two"
                .to_string(),
        ),
        None => {}
    }
    use crate::metrics::gauge;
    gauge("idemctl_size_inserts_total", "The table's insert counter (n_tup_ins)", &[], inserted as f64);
    gauge(
        "idemctl_size_inserts_base_total",
        "The insert counter's reading the write rate is measured from",
        &[],
        kept.0,
    );
    gauge("idemctl_size_inserts_base_timestamp_seconds", "When that reading was taken", &[], kept.1);
}

fn sizing_days(history: &History) -> i64 {
    (history.now_us - history.since_us) / 86_400_000_000
}

/// Rows deleted but not vacuumed still take their space: bytes per row
/// over the live and dead rows together, said.
fn dead_rows(storage: &mut Storage, dead: u64, notes: &mut Vec<String>) {
    if storage.rows == 0 || (dead as f64) < storage.rows as f64 * 0.1 {
        return;
    }
    storage.bytes_per_row = Some(round_to(storage.total_bytes as f64 / (storage.rows + dead) as f64, 1));
    notes.push(format!(
        "{} dead rows (n_dead_tup) still take their space until VACUUM: the bytes per row count them",
        units::grouped(dead)
    ));
}

/// The growth of the table's minted id over the window: an integer primary
/// key the engine fills (identity, serial, AUTO_INCREMENT) or SQLite's rowid.
async fn id_growth(db: &mut Db, target: &KeyTable, window: &Measure) -> Result<Option<Measure>> {
    let table = &target.table;
    let minted = match table.primary_key.as_slice() {
        [id] => table
            .columns
            .iter()
            .find(|c| &c.name == id)
            .filter(|c| !c.generated.is_empty() || c.default.as_deref().is_some_and(|d| d.starts_with("nextval("))),
        _ => None,
    };
    let dialect = db.dialect();
    let id = match (minted, dialect.implicit_row_id()) {
        (Some(c), _) => dialect.ident(&c.name),
        (None, Some(rowid)) => rowid.to_string(),
        (None, None) => return Ok(None),
    };
    let (Some(created), Some(since)) = (target.created_at.as_deref(), timeparse::instant(&window.since).ok()) else {
        return Ok(None);
    };
    let Some(time) = target.time(created) else { return Ok(None) };
    let (cond, bind) = dialect.time_bound(&dialect.ident(created), time.repr, true, since.timestamp_micros(), 1);
    let sql = crate::db::fill(
        crate::db::dialect::query_file!(shared, "id_growth.sql"),
        &[("id", &id), ("table", &table.sql_name(&dialect)), ("since", &cond)],
    );
    // A WITHOUT ROWID table has no rowid: no measure.
    let Ok(rows) = db.query_text(&sql, &bind.into_iter().collect::<Vec<_>>()).await else { return Ok(None) };
    let int = |i: usize| rows.first().and_then(|r| r.get(i).cloned().flatten()).and_then(|v| v.parse::<i64>().ok());
    let (Some(first), Some(mut last)) = (int(0), int(1)) else { return Ok(None) };
    if minted.is_some()
        && let Some(next) = db.driver().next_minted_id(db, &table.schema, &table.name).await
    {
        last = last.max(next - 1);
    }
    let column = id.clone();
    Ok(rate::ids(window, first, last, &column))
}

/// Rate x horizon x bytes per row, for each horizon; and at the peak day's rate.
fn project(sizing: &mut Sizing, horizons: &[Duration], peak_per_day: Option<f64>) {
    let (Some(rate), Some(per_row)) = (sizing.rows_per_day, sizing.bytes_per_row) else { return };
    if let (Some(history), Some(longest)) = (sizing.history, horizons.iter().max())
        && history < *longest
        && sizing.rate_source != Some("given")
    {
        sizing.notes.push(format!(
            "the table's rows go back {}, less than the {} horizon: its projection assumes the rate holds",
            timeparse::span(history),
            timeparse::short(*longest)
        ));
    }
    sizing.growth_bytes_per_day = Some(rate * per_row);
    sizing.projections = horizons
        .iter()
        .map(|h| {
            let days = h.as_secs_f64() / DAY;
            let kept = sizing.kept_past.iter().find(|(s, _)| *s == h.as_secs()).map_or(0, |(_, n)| *n);
            let written = rate * days + kept as f64;
            Projection {
                retention: timeparse::short(*h),
                retention_seconds: h.as_secs(),
                rows: written.round() as u64,
                bytes: (written * per_row).round() as u64,
                peak_bytes: peak_per_day.map(|peak| ((peak * days + kept as f64) * per_row).round() as u64),
                kept_rows: kept,
            }
        })
        .collect();
    let kept: Vec<String> = sizing
        .projections
        .iter()
        .filter(|p| p.kept_rows > 0)
        .map(|p| format!("{} past {}", units::grouped(p.kept_rows), p.retention))
        .collect();
    if !kept.is_empty() {
        sizing.notes.push(format!(
            "a status keeps rows past the horizon that expire leaves (live, or in a status neither finished nor \
             live: {}): each projection counts them in",
            kept.join(", ")
        ));
    }
}

/// One figure of the CSV and NDJSON forms.
#[derive(Debug, Serialize)]
struct Figure {
    section: &'static str,
    name: String,
    value: Value,
    unit: &'static str,
}

impl Document for Sizing {
    type Figure = Figure;

    fn figures(&self) -> Vec<Figure> {
        figures(self)
    }

    fn blocks(&self) -> Vec<Block> {
        blocks(self)
    }

    fn notes(&self) -> &[String] {
        &self.notes
    }

    fn footer(&self) -> Option<String> {
        Some("sizes in decimal units: 1 KB = 1,000 bytes, 1 GB = 10^9 bytes".to_string())
    }
}

fn figures(s: &Sizing) -> Vec<Figure> {
    let mut out = Vec::new();
    let mut push = |section, name: &str, value: Value, unit| {
        if !value.is_null() {
            out.push(Figure { section, name: name.to_string(), value, unit });
        }
    };
    if let Some(st) = &s.storage {
        push("storage", "rows", json!(st.rows), "rows");
        push("storage", "rows_exact", json!(st.rows_exact), "bool");
        push("storage", "table", json!(st.table_bytes), "bytes");
        push("storage", "indexes", json!(st.index_bytes), "bytes");
        push("storage", "overflow", json!(st.overflow_bytes), "bytes");
        push("storage", "total", json!(st.total_bytes), "bytes");
    }
    if let Some(w) = &s.writes {
        for d in &w.by_day {
            push("writes", &d.day, json!(d.rows), "rows");
        }
        push("writes", "total", json!(w.total), "rows");
        if let Some(peak) = &w.peak_day {
            push("writes", "peak", json!(peak.rows), "rows");
        }
    }
    if let Some(b) = &s.backlog {
        push("backlog", "rows", json!(b.rows), "rows");
    }
    push("rate", "rows_per_day", number(s.rows_per_day.map(|r| round_to(r, 2))), "rows");
    push("rate", "source", json!(s.rate_source), "text");
    for m in &s.rates {
        push("rates", m.source, number(Some(m.rows_per_day)), "rows");
    }
    push("rate", "bytes_per_row", number(s.bytes_per_row.map(|b| round_to(b, 1))), "bytes");
    push("growth", "bytes_per_day", json!(s.growth_bytes_per_day.map(|g| g.round() as u64)), "bytes");
    for p in &s.projections {
        push("projection", &p.retention, json!(p.rows), "rows");
        push("projection", &p.retention, json!(p.bytes), "bytes");
        push("projection_at_peak", &p.retention, json!(p.peak_bytes), "bytes");
        push("projection_kept", &p.retention, json!(p.kept_rows), "rows");
    }
    out
}

/// A measured figure: a whole number without a decimal point.
fn number(v: Option<f64>) -> Value {
    match v {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => json!(f as i64),
        other => json!(other),
    }
}

/// The report for people: the storage, the chart of daily writes, the
/// backlog and the projections.
fn blocks(s: &Sizing) -> Vec<Block> {
    let mut out = Vec::new();
    let line = |out: &mut Vec<Block>, text: String| out.push(Block::Line(text));
    let table = |header: &[&str], rows: Vec<Vec<String>>| Block::Table {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows,
        right: true,
    };
    if let (Some(table), Some(engine)) = (&s.table, s.engine) {
        line(&mut out, format!("table: {table} ({engine})"));
    }
    if let Some(kind) = &s.kind_said {
        line(&mut out, format!("kind: {kind}"));
    }
    if let Some(st) = &s.storage {
        let size = |b: Option<u64>| b.map_or("-".to_string(), |b| units::human_bytes(b as f64));
        out.push(table(
            &["rows", "table", "indexes", "overflow", "total", "per row"],
            vec![vec![
                format!("{}{}", units::grouped(st.rows), if st.rows_exact { "" } else { " (est.)" }),
                size(st.table_bytes),
                size(st.index_bytes),
                size(st.overflow_bytes),
                size(Some(st.total_bytes)),
                st.bytes_per_row.map_or("-".to_string(), units::human_bytes),
            ]],
        ));
    }
    if let Some(partitions) = &s.partitions {
        line(&mut out, format!("\n{} partitions:", partitions.len()));
        let time = |t: &Option<String>| t.clone().unwrap_or_else(|| "-".to_string());
        out.push(table(
            &["partition", "rows", "size", "first", "last"],
            partitions
                .iter()
                .map(|p| {
                    vec![
                        p.name.clone(),
                        format!("{} (est.)", units::grouped(p.rows_estimate)),
                        units::human_bytes(p.bytes as f64),
                        time(&p.first),
                        time(&p.last),
                    ]
                })
                .collect(),
        ));
    }
    if let Some(w) = &s.writes {
        line(&mut out, format!("\nwrites per day by {}, {} to {} (UTC):", w.column, w.first_day, w.last_day));
        let peak = w.by_day.iter().map(|d| d.rows).max().unwrap_or(0);
        let width = w.by_day.iter().map(|d| units::grouped(d.rows).len()).max().unwrap_or(1);
        // The chart fits the terminal: the day and the count take 16 columns and the number's width.
        let terminal = crate::report::table::Layout::for_stdout(false).width.unwrap_or(80);
        let cells = terminal.saturating_sub(16 + width).clamp(8, 40);
        for d in &w.by_day {
            line(&mut out, format!("  {}  {:>width$}  {}", d.day, units::grouped(d.rows), bar(d.rows, peak, cells)));
        }
        if let Some(p) = &w.peak_day {
            line(&mut out, format!("peak {} with {}", p.day, units::counted(p.rows, "row")));
        }
    }
    if let (Some(rate), Some(source)) = (s.rows_per_day, s.rate_source) {
        let chosen = s.rates.iter().find(|m| m.source == source);
        line(
            &mut out,
            match chosen {
                Some(m) => {
                    format!("write rate: {} a day, from the {}", units::counted(rate.round() as u64, "row"), m.what)
                }
                None => format!("write rate: {} a day ({source})", units::counted(rate.round() as u64, "row")),
            },
        );
        for m in s.rates.iter().filter(|m| m.source != source) {
            line(
                &mut out,
                format!("  also {} a day from the {}", units::grouped(m.rows_per_day.round() as u64), m.what),
            );
        }
    }
    if let Some(b) = &s.backlog {
        line(
            &mut out,
            format!(
                "expiry backlog: {} with {} before {} (what expire would delete now)",
                units::counted(b.rows, "row"),
                b.column,
                b.expired_before
            ),
        );
    }
    if let (Some(rate), Some(per_row)) = (s.rows_per_day, s.bytes_per_row) {
        line(
            &mut out,
            format!(
                "\n{} rows a day x {} a row: grows {} a day",
                units::human_count(rate),
                units::human_bytes(per_row),
                units::human_bytes(rate * per_row)
            ),
        );
        let peak = s.projections.iter().any(|p| p.peak_bytes.is_some());
        let rows = s
            .projections
            .iter()
            .map(|p| {
                let mut row =
                    vec![p.retention.clone(), units::human_count(p.rows as f64), units::human_bytes(p.bytes as f64)];
                if let Some(bytes) = p.peak_bytes {
                    row.push(units::human_bytes(bytes as f64));
                }
                row
            })
            .collect();
        let header: &[&str] = if peak {
            &["retention", "rows", "size", "at the peak day's rate"]
        } else {
            &["retention", "rows", "size"]
        };
        out.push(table(header, rows));
    }
    out
}

/// A horizontal bar of `width` cells for `n` of `max`, in eighths of a cell.
fn bar(n: u64, max: u64, width: usize) -> String {
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    if max == 0 {
        return String::new();
    }
    let eighths = ((n as f64 / max as f64) * (width * 8) as f64).round() as usize;
    let mut s = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        s.push(PARTS[eighths % 8]);
    }
    s
}

impl crate::commands::Definition for SizeArgs {
    fn name(&self) -> &'static str {
        "size"
    }
    fn rows_key(&self) -> &'static str {
        "figures"
    }
    fn effect(&self) -> crate::commands::Effect {
        crate::commands::Effect::Reads
    }
    fn limit_runtime(&mut self, _: std::time::Duration) {}
    fn across_databases(&self) -> Result<(), &'static str> {
        Ok(())
    }
    fn totals(&self) -> crate::commands::Totals {
        crate::commands::Totals::Summaries
    }
    fn fold(&self, key: &str) -> crate::commands::Fold {
        use crate::commands::Fold;
        match key {
            "days" | "seconds" => Fold::Max,
            "retention_seconds" => Fold::Setting,
            "bytes_per_row" => Fold::Drop,
            _ => Fold::Sum,
        }
    }
    fn metrics_labels(&self) -> Option<(String, String)> {
        self.database_url.as_deref().map(|url| crate::commands::key_table_labels(url, &self.mapping))
    }
    fn for_database(&self, url: &str, _: &str) -> Box<dyn crate::commands::Definition> {
        Box::new(SizeArgs { database_url: Some(url.to_string()), ..self.clone() })
    }
    fn state_path(&self) -> Option<&std::path::Path> {
        None
    }
    fn take_global(&mut self, global: &crate::cli::Filled) -> Result<()> {
        self.database_url = global.database_url.clone();
        self.report = global.output.clone();
        self.mapping.config = global.config.clone();
        Ok(())
    }
    fn run(self: Box<Self>) -> futures_util::future::BoxFuture<'static, Result<Outcome>> {
        Box::pin(crate::commands::abortable(run(*self)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calculator() {
        let mut s = Sizing { rows_per_day: Some(1e7), bytes_per_row: Some(1000.0), ..Sizing::default() };
        project(&mut s, &[Duration::from_secs(86_400), Duration::from_secs(3 * 86_400)], Some(2e7));
        assert_eq!(s.growth_bytes_per_day, Some(1e10));
        assert_eq!(s.projections[0].bytes, 10_000_000_000);
        assert_eq!(s.projections[1].bytes, 30_000_000_000);
        assert_eq!(s.projections[1].rows, 30_000_000);
        assert_eq!(s.projections[1].retention, "72h");
        assert_eq!(s.projections[1].peak_bytes, Some(60_000_000_000));
        assert!(s.notes.is_empty(), "{:?}", s.notes);
        // Rows a status keeps past each horizon stay, and are counted in.
        let mut s = Sizing {
            rows_per_day: Some(1e7),
            bytes_per_row: Some(1000.0),
            kept_past: vec![(86_400, 500), (3 * 86_400, 200)],
            ..Sizing::default()
        };
        project(&mut s, &[Duration::from_secs(86_400), Duration::from_secs(3 * 86_400)], Some(2e7));
        assert_eq!((s.projections[0].rows, s.projections[0].kept_rows), (10_000_500, 500));
        assert_eq!(s.projections[1].bytes, 30_000_200_000);
        assert_eq!(s.projections[1].peak_bytes, Some(60_000_200_000));
        assert_eq!(s.notes.len(), 1);
        assert!(
            s.notes[0].ends_with("live: 500 past 24h, 200 past 72h): each projection counts them in"),
            "{}",
            s.notes[0]
        );
    }

    #[test]
    fn bars() {
        assert_eq!(bar(10, 10, 4), "████");
        assert_eq!(bar(5, 10, 4), "██");
        assert_eq!(bar(1, 16, 2), "▏");
        assert_eq!(bar(0, 10, 4), "");
        assert_eq!(bar(0, 0, 4), "");
    }
}
