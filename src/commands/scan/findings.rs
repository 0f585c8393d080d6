//! Turns confirmed clusters into report rows as they close, keeps the
//! totals (sums per currency), and ends the report: the summary, the near
//! misses, and the outcome.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

use anyhow::Result;
use rust_decimal::Decimal;
use rustc_hash::FxHashSet;
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::audit::Audit;
use super::evidence::{self, Confidence};
use super::plan::Plan;
use super::read::Scanned;
use super::{Keep, ScanArgs, ScanOutput};
use crate::db::Engine;
use crate::exit::Outcome;
use crate::nearmiss::Stats;
use crate::report::Emitter;
use crate::timeparse;
use crate::window::{Cause, Cluster, Member};

/// The reason of a cluster no kind of evidence spoke for or against: its
/// rows are equal on every compared column, and that is all that is known.
const NO_EVIDENCE: &str = "= equal on every compared column; no other evidence for or against";

/// A decimal written as a JSON number with all its digits (`19.90`, not `"19.90"` or `19.9`).
#[derive(Debug, Clone, Copy)]
pub struct Amount(pub Decimal);

impl Serialize for Amount {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        rust_decimal::serde::arbitrary_precision::serialize(&self.0, s)
    }
}

/// Clusters the table format lists by default: the surest first, then the most extra rows.
const TABLE_LIMIT: usize = 50;

/// Near misses are reported, and the scan is not clean, from this share of
/// the rows scanned (and at least `NEAR_MIN` rows).
const NEAR_SHARE: f64 = 0.001;
const NEAR_MIN: u64 = 3;

/// A cluster kept for a limited listing, ordered by its extra rows (more
/// first), then by when it was found (earlier first).
struct Kept {
    confidence: Confidence,
    extras: usize,
    n: u64,
    rows: Vec<Value>,
}

impl Ord for Kept {
    /// The surest first, then the most extra rows, then the earliest found.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.confidence.cmp(&other.confidence).then(self.extras.cmp(&other.extras)).then(other.n.cmp(&self.n))
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

/// Amounts of each `--sum` column, per currency where its currency is known:
/// amounts in different currencies are never added.
#[derive(Debug, Clone, Default)]
struct Sums {
    per_column: Vec<BTreeMap<Option<Box<str>>, Decimal>>,
}

/// How a sum with no currency on its row is named among currencies.
const NO_CURRENCY: &str = "(none)";

impl Sums {
    fn new(columns: usize) -> Sums {
        Sums { per_column: vec![BTreeMap::new(); columns] }
    }

    fn add<'a>(&mut self, members: impl IntoIterator<Item = &'a Member>) {
        for member in members {
            for (sums, (amount, currency)) in self.per_column.iter_mut().zip(&member.money) {
                if let Some(amount) = amount {
                    *sums.entry(currency.clone()).or_default() += amount;
                }
            }
        }
    }

    fn merge(&mut self, other: &Sums) {
        for (mine, theirs) in self.per_column.iter_mut().zip(&other.per_column) {
            for (currency, amount) in theirs {
                *mine.entry(currency.clone()).or_default() += amount;
            }
        }
    }

    /// `{"amount": 10.00}`, or `{"amount": {"EUR": 10.00, "USD": 5.00}}` for
    /// a column with a currency.
    fn json(&self, columns: &[SumColumn]) -> Value {
        let mut out = Map::new();
        for (column, sums) in columns.iter().zip(&self.per_column) {
            let value = if column.currency.is_some() {
                let by: Map<String, Value> = sums
                    .iter()
                    .map(|(c, a)| (c.as_deref().unwrap_or(NO_CURRENCY).to_string(), json!(Amount(*a))))
                    .collect();
                Value::Object(by)
            } else {
                json!(Amount(sums.values().copied().sum::<Decimal>()))
            };
            out.insert(column.name.clone(), value);
        }
        Value::Object(out)
    }

    /// `amount 10.00 EUR, 5.00 USD; fee 1.50`.
    /// One field per column, for CSV and the table: `10.00`, or
    /// `10.00 EUR 5.00 USD` for a column with a currency.
    /// Each column's sum under its own name. For CSV (`split`), an amount
    /// with a currency is a number and its currency goes under
    /// `NAME_currency` (amounts in several currencies stay text there too);
    /// for people, `3300 GBP`.
    fn flat(&self, columns: &[SumColumn], by: Option<&str>, split: bool) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        for (column, sums) in columns.iter().zip(&self.per_column) {
            let key = flat_key(&column.name, by);
            if column.currency.is_none() {
                out.push((key, json!(Amount(sums.values().copied().sum::<Decimal>()))));
                continue;
            }
            let currency = |c: &Option<Box<str>>| c.as_deref().unwrap_or(NO_CURRENCY).to_string();
            match (split, sums.len()) {
                (true, 1) => {
                    let (c, a) = sums.iter().next().expect("one currency");
                    out.push((key.clone(), json!(Amount(a.normalize()))));
                    out.push((format!("{key}_currency"), json!(currency(c))));
                }
                (true, _) => {
                    let amounts: Vec<String> = sums.values().map(|a| a.normalize().to_string()).collect();
                    out.push((key.clone(), json!(amounts.join(" "))));
                    out.push((
                        format!("{key}_currency"),
                        json!(sums.keys().map(currency).collect::<Vec<_>>().join(" ")),
                    ));
                }
                (false, _) => {
                    let amounts: Vec<String> =
                        sums.iter().map(|(c, a)| format!("{} {}", a.normalize(), currency(c))).collect();
                    out.push((key, json!(amounts.join(" "))));
                }
            }
        }
        out
    }

    fn text(&self, columns: &[SumColumn]) -> String {
        let parts: Vec<String> = columns
            .iter()
            .zip(&self.per_column)
            .map(|(column, sums)| {
                // For people: thousands grouped, and an amount kept in cents
                // said to be in cents (696,800 EUR in cents, not euros).
                let unit = if column.name.to_lowercase().split(|c: char| !c.is_alphanumeric()).any(|w| w == "cents") {
                    " in cents"
                } else {
                    ""
                };
                let amounts: Vec<String> = if column.currency.is_some() {
                    sums.iter()
                        .map(|(c, a)| {
                            format!(
                                "{} {}{unit}",
                                crate::units::grouped_decimal(a),
                                c.as_deref().unwrap_or(NO_CURRENCY)
                            )
                        })
                        .collect()
                } else {
                    vec![format!("{}{unit}", crate::units::grouped_decimal(&sums.values().copied().sum::<Decimal>()))]
                };
                let amounts = if amounts.is_empty() { "0".to_string() } else { amounts.join(", ") };
                format!("{} {amounts}", column.name)
            })
            .collect();
        parts.join("; ")
    }
}

/// The keys every row has: a column of the table named like one of them is
/// reported as `by_NAME` (or `sum_NAME`) in CSV and the table.
const FIXED_KEYS: [&str; 15] = [
    "cluster",
    "original_id",
    "kept_id",
    "extra_ids",
    "count",
    "first_at",
    "span_seconds",
    "cause",
    "values",
    "changed",
    "duplicate_id",
    "gap_seconds",
    "confidence",
    "evidence",
    "confidence_cause",
];

/// `--by` column's key in CSV and the table: its own name.
fn by_key(name: &str) -> String {
    if FIXED_KEYS.contains(&name) { format!("by_{name}") } else { name.to_string() }
}

/// A `--sum` column's key in CSV and the table: its own name (`sum_NAME`
/// where that is taken, by a fixed key or the `--by` column).
fn flat_key(name: &str, by: Option<&str>) -> String {
    if FIXED_KEYS.contains(&name) || by == Some(name) { format!("sum_{name}") } else { name.to_string() }
}

/// A `--sum` column and the column naming its currency.
#[derive(Debug, Clone)]
pub struct SumColumn {
    pub name: String,
    pub currency: Option<String>,
}

/// Turns clusters into report rows as they close, and keeps the totals.
pub struct Findings<W: Write> {
    pub emitter: Emitter<W>,
    /// With `--state`: which clusters this run lists.
    pub audit: Option<Audit>,
    /// With a limit, the clusters listed so far: the most extra rows, kept
    /// in a bounded heap (so a table of 50 holds 50, not every cluster).
    kept: Option<(usize, std::collections::BinaryHeap<std::cmp::Reverse<Kept>>)>,
    /// The most extra rows of a cluster the limit left out.
    dropped_most: usize,
    output: ScanOutput,
    keep: Keep,
    compared: Vec<String>,
    watched: Vec<String>,
    sums: Vec<SumColumn>,
    has_key: bool,
    by: Option<String>,
    /// CSV and the table: `--by` and `--sum` columns under their own names,
    /// one field each; JSON keeps them in `by` and the `sum` object.
    flat: bool,
    /// CSV: an amount with a currency is a number, its currency a field of
    /// its own (`NAME_currency`), so that a spreadsheet can add them up.
    csv: bool,
    table: String,
    ignored: Vec<String>,
    /// Columns of what people write: never suggested to leave out.
    written: Vec<String>,
    clusters: u64,
    extra_rows: u64,
    at_stake: Sums,
    by_hit: FxHashSet<Option<Box<str>>>,
    causes: [u64; 4],
    /// Clusters where no row met `--keep`'s condition: the first was kept.
    keep_unmatched: u64,
    /// What limits the rows read (`--where`, `--since`, `--until`), in words.
    filtered: Option<String>,
    /// The table format: confidence, cause and reasons in one column (the
    /// confidence first: a narrow column still shows it).
    for_people: bool,
    /// What every kind of evidence may know of the table.
    context: evidence::Context,
    /// Clusters by confidence, indexed by it.
    confidence: [u64; 3],
    /// `--min-confidence`: clusters below it are counted, not listed.
    min_confidence: Confidence,
    /// Clusters counted but not listed for `--min-confidence`.
    below_min: u64,
}

impl<W: Write> Findings<W> {
    pub fn new(args: &ScanArgs, plan: &Plan, engine: Engine, mut emitter: Emitter<W>) -> Result<Self> {
        let compared = plan.compared_names();
        let sums: Vec<SumColumn> =
            args.sum.iter().map(|s| SumColumn { name: s.clone(), currency: plan.currency_of(s) }).collect();
        emitter.meta(
            "table",
            format!("{}.{}", plan.table.schema, plan.table.name),
            format!("{} ({})", plan.table.name, engine.name()),
        )?;
        crate::report::config_meta(&mut emitter, args.config.as_deref())?;
        emitter.meta("compared_columns", &compared, compared.join(", "))?;
        let excluded_text: Vec<String> = plan.excluded.iter().map(|e| format!("{} ({})", e.column, e.reason)).collect();
        emitter.meta("excluded_columns", &plan.excluded, excluded_text.join(", "))?;
        let key_text = match &plan.key {
            Some(key) => {
                let mut text = format!("{key} ({})", plan.key_choice.reason);
                if !plan.key_choice.not_chosen.is_empty() {
                    text.push_str(&format!(
                        "; also key-looking, not chosen: {}",
                        plan.key_choice.not_chosen.join(", ")
                    ));
                }
                text
            }
            None => "none: causes are unknown (name one with --key-column)".to_string(),
        };
        emitter.meta("key_column", &plan.key, key_text)?;
        emitter.meta(
            "key_column_reason",
            json!({"reason": plan.key.as_ref().map(|_| &plan.key_choice.reason), "not_chosen": plan.key_choice.not_chosen}),
            "",
        )?;
        if !plan.children.is_empty() {
            let described: Vec<String> = plan.children.iter().map(|l| l.describe()).collect();
            let json: Vec<Value> = plan
                .children
                .iter()
                .map(|l| json!({"table": l.table, "column": l.column, "how": l.how.as_str(), "compared": l.content}))
                .collect();
            emitter.meta("child_tables", json, described.join("; "))?;
        }
        if !sums.is_empty() {
            let currencies: Map<String, Value> = sums.iter().map(|s| (s.name.clone(), json!(s.currency))).collect();
            let text: Vec<String> = sums
                .iter()
                .map(|s| match &s.currency {
                    Some(c) => format!("{} in {c}", s.name),
                    None => format!("{} (no currency column)", s.name),
                })
                .collect();
            emitter.meta("sum_currencies", currencies, text.join(", "))?;
        }
        let window = args.window().as_secs_f64();
        emitter.meta("window_seconds", window, window.to_string())?;
        let mut notes = plan.time.notes();
        notes.extend(plan.decided.iter().cloned());
        emitter.meta("notes", &notes, notes.join("; "))?;
        let mut summary = vec![
            "clusters_not_listed",
            "rows_scanned",
            "rows_unreadable",
            "time_range",
            "cluster_count",
            "clusters_by_cause",
            "clusters_by_confidence",
            "extra_rows",
            "extra_share",
            "near_misses",
            "not_compared",
        ];
        if !sums.is_empty() {
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
        let watched = plan.watched();
        let watched_for_context = watched.clone();
        let keyed = plan.keep != Keep::First;
        // For people the cause, the confidence and its reasons share one
        // column of text, which narrows with the terminal; CSV and JSON
        // keep each apart.
        let for_people = matches!(args.report.format, crate::report::Format::Table);
        let judged: &[&str] = if for_people { &["confidence_cause"] } else { &["cause", "confidence", "evidence"] };
        let columns: Vec<&str> = match args.output {
            ScanOutput::Clusters => {
                let mut c = vec!["cluster", "original_id"];
                c.extend(keyed.then_some("kept_id"));
                c.extend(["extra_ids", "count", "first_at", "span_seconds"]);
                c.extend(judged);
                c.extend(args.by.is_some().then_some("by"));
                c.extend((!sums.is_empty()).then_some("sum"));
                c.push("values");
                c.extend((!watched.is_empty()).then_some("changed"));
                c
            }
            ScanOutput::Rows => {
                let mut c = vec!["cluster", "original_id"];
                c.extend(keyed.then_some("kept_id"));
                c.extend(["duplicate_id", "gap_seconds"]);
                c.extend(judged);
                c.extend(args.by.is_some().then_some("by"));
                c.extend((!sums.is_empty()).then_some("sum"));
                c
            }
        };
        let flat = matches!(args.report.format, crate::report::Format::Table | crate::report::Format::Csv);
        let columns: Vec<String> = columns
            .into_iter()
            .flat_map(|c| match (c, flat) {
                ("by", true) => vec![by_key(args.by.as_deref().unwrap_or_default())],
                ("sum", true) => sums
                    .iter()
                    .flat_map(|s| {
                        let key = flat_key(&s.name, args.by.as_deref());
                        let csv = matches!(args.report.format, crate::report::Format::Csv) && s.currency.is_some();
                        let currency = csv.then(|| format!("{key}_currency"));
                        std::iter::once(key).chain(currency)
                    })
                    .collect(),
                (c, _) => vec![c.to_string()],
            })
            .collect();
        // At a terminal's width: the cluster, its rows, the gap, the cause,
        // who was hit and the money, and the values shortened (--wide: all).
        let by_and_sum: Vec<String> = args
            .by
            .iter()
            .map(|b| by_key(b))
            .chain(sums.iter().map(|s| flat_key(&s.name, args.by.as_deref())))
            .collect();
        let mut compact: Vec<String> = [
            "cluster",
            "original_id",
            "kept_id",
            "extra_ids",
            "duplicate_id",
            "count",
            "span_seconds",
            "gap_seconds",
            "cause",
            "confidence",
            "evidence",
            "confidence_cause",
        ]
        .map(String::from)
        .into();
        compact.extend(by_and_sum);
        compact.push("values".into());
        emitter.compact(&compact);
        emitter.columns(columns);
        Ok(Findings {
            emitter,
            audit: None,
            kept: limit.map(|n| (n, std::collections::BinaryHeap::new())),
            dropped_most: 0,
            output: args.output,
            keep: plan.keep.clone(),
            compared,
            watched,
            at_stake: Sums::new(sums.len()),
            sums,
            has_key: plan.key.is_some(),
            by: args.by.clone(),
            flat: matches!(args.report.format, crate::report::Format::Table | crate::report::Format::Csv),
            csv: matches!(args.report.format, crate::report::Format::Csv),
            table: args.table.clone(),
            ignored: args.ignore.clone(),
            written: plan
                .carried
                .iter()
                .zip(plan.written.iter().chain(std::iter::repeat(&false)))
                .filter(|(_, w)| **w)
                .map(|(c, _)| c.name.clone())
                .collect(),
            clusters: 0,
            extra_rows: 0,
            by_hit: FxHashSet::default(),
            causes: [0; 4],
            keep_unmatched: 0,
            filtered: filtered(args),
            for_people,
            context: evidence::Context {
                subsecond: plan.subsecond,
                whole_minutes: plan.whole_minutes,
                has_key: plan.key.is_some(),
                states: (0..watched_for_context.len())
                    .filter(|&i| {
                        plan.excluded.iter().any(|e| {
                            e.column == watched_for_context[i]
                                && matches!(e.rule, super::plan::Rule::ChangedAfterCreation)
                        })
                    })
                    .collect(),
                watched: watched_for_context,
                actor: plan.actor.clone(),
                children: plan.children.iter().map(|l| (l.table.clone(), l.content.clone())).collect(),
            },
            confidence: [0; 3],
            min_confidence: args.min_confidence.unwrap_or(Confidence::Doubtful),
            below_min: 0,
        })
    }

    /// A confirmed cluster; `matched` is false when `--keep`'s condition held
    /// for none of its rows (the first is kept).
    pub fn add(&mut self, cluster: Cluster, matched: bool) -> Result<()> {
        if let Some(audit) = &mut self.audit
            && !audit.lists(&cluster)
        {
            return Ok(());
        }
        self.clusters += 1;
        if !matched {
            self.keep_unmatched += 1;
        }
        let n = self.clusters;
        let cause = Cause::of(self.has_key.then(|| cluster.members.iter().map(|m| m.key.as_deref())));
        self.causes[cause as usize] += 1;
        let (confidence, weights) = evidence::judge(&cluster, &self.context);
        self.confidence[confidence as usize] += 1;
        // JSON carries every piece of evidence; CSV and the table the reasons in short.
        let mut reasons: Vec<String> = weights
            .iter()
            .map(|w| format!("{} {}", if w.side == evidence::Side::For { "+" } else { "-" }, w.reason))
            .collect();
        // A level says why, where no kind of evidence spoke too.
        if reasons.is_empty() {
            reasons.push(NO_EVIDENCE.to_string());
        }
        let judged: Vec<(&str, Value)> = if self.for_people {
            let text = format!("{}, {}: {}", confidence.as_str(), cause.as_str(), reasons.join("; "));
            vec![("confidence_cause", json!(text))]
        } else {
            let evidence = if self.flat { json!(reasons.join("; ")) } else { json!(weights) };
            vec![("cause", json!(cause)), ("confidence", json!(confidence)), ("evidence", evidence)]
        };
        let original = cluster.original();
        // The row the others repeat: the first, or of a pair one row of which
        // was filled in later, that one (kept).
        let repeated = if cluster.filled_later.is_some() { cluster.keeper() } else { original };
        let extras = cluster.extras();
        self.extra_rows += extras.len() as u64;
        let mut sums = Sums::new(self.sums.len());
        sums.add(extras.iter().copied());
        self.at_stake.merge(&sums);
        if self.by.is_some() {
            self.by_hit.insert(cluster.keeper().by.clone());
        }
        let keyed = self.keep != Keep::First;
        let mut listed: Vec<Value> = Vec::new();
        match self.output {
            ScanOutput::Clusters => {
                let mut row = Map::new();
                row.insert("cluster".into(), json!(n));
                row.insert("original_id".into(), json!(repeated.id.to_string()));
                if keyed {
                    row.insert("kept_id".into(), json!(cluster.keeper().id.to_string()));
                }
                row.insert("extra_ids".into(), json!(extras.iter().map(|m| m.id.to_string()).collect::<Vec<_>>()));
                row.insert("count".into(), json!(cluster.members.len()));
                row.insert("first_at".into(), json!(timeparse::rfc3339(timeparse::from_micros(original.t_us))));
                row.insert("span_seconds".into(), json!(timeparse::seconds(cluster.span_us())));
                row.extend(judged.iter().map(|(k, v)| (k.to_string(), v.clone())));
                self.by_and_sums(&mut row, cluster.keeper().by.as_deref(), &sums);
                let values: Map<String, Value> = self
                    .compared
                    .iter()
                    .cloned()
                    .zip(cluster.shown.iter().map(|v| v.clone().map_or(Value::Null, Value::String)))
                    .collect();
                row.insert("values".into(), Value::Object(values));
                if !self.watched.is_empty() {
                    row.insert("changed".into(), Value::Object(changed(&self.watched, &cluster)));
                }
                listed.push(Value::Object(row));
            }
            ScanOutput::Rows => {
                for (i, extra) in cluster.members.iter().enumerate() {
                    if i == cluster.kept {
                        continue;
                    }
                    let gap = match i {
                        _ if cluster.filled_later.is_some() => cluster.span_us(),
                        0 => 0,
                        i => extra.t_us - cluster.members[i - 1].t_us,
                    };
                    let mut row = Map::new();
                    row.insert("cluster".into(), json!(n));
                    row.insert("original_id".into(), json!(repeated.id.to_string()));
                    if keyed {
                        row.insert("kept_id".into(), json!(cluster.keeper().id.to_string()));
                    }
                    row.insert("duplicate_id".into(), json!(extra.id.to_string()));
                    row.insert("gap_seconds".into(), json!(timeparse::seconds(gap)));
                    row.extend(judged.iter().map(|(k, v)| (k.to_string(), v.clone())));
                    let mut one = Sums::new(self.sums.len());
                    one.add([extra]);
                    self.by_and_sums(&mut row, extra.by.as_deref(), &one);
                    listed.push(Value::Object(row));
                }
            }
        }
        if confidence < self.min_confidence {
            self.below_min += 1;
            return Ok(());
        }
        match &mut self.kept {
            None => {
                for row in listed {
                    self.emitter.row_value(row)?;
                }
            }
            Some((limit, heap)) => {
                heap.push(std::cmp::Reverse(Kept { confidence, extras: extras.len(), n, rows: listed }));
                if heap.len() > *limit
                    && let Some(dropped) = heap.pop()
                {
                    self.dropped_most = self.dropped_most.max(dropped.0.extras);
                }
            }
        }
        Ok(())
    }

    /// The `--by` value and the `--sum` amounts of a row, keyed as the format wants them.
    fn by_and_sums(&self, row: &mut Map<String, Value>, by: Option<&str>, sums: &Sums) {
        if let Some(column) = &self.by {
            let key = if self.flat { by_key(column) } else { "by".to_string() };
            row.insert(key, json!(by));
        }
        if self.sums.is_empty() {
            return;
        }
        if self.flat {
            row.extend(sums.flat(&self.sums, self.by.as_deref(), self.csv));
        } else {
            row.insert("sum".into(), sums.json(&self.sums));
        }
    }

    /// Writes the listed clusters and the summary. `interrupted`: the counts
    /// are those reached, the report says it is not complete, the state file
    /// (`--state`) is left as it was, and the run ends with exit 130.
    pub fn finish(
        mut self,
        scanned: &Scanned,
        near: &Stats,
        carried: &[String],
        elapsed: Duration,
        interrupted: bool,
    ) -> Result<Outcome> {
        let mut not_listed = 0;
        let mut fewest_listed = 0;
        if let Some((_, heap)) = self.kept.take() {
            let mut kept: Vec<Kept> = heap.into_iter().map(|r| r.0).collect();
            kept.sort_by(|a, b| b.cmp(a));
            not_listed = self.clusters - kept.len() as u64;
            fewest_listed = kept.last().map_or(0, |k| k.extras);
            for cluster in kept {
                for row in cluster.rows {
                    self.emitter.row_value(row)?;
                }
            }
        }
        if self.keep_unmatched > 0 {
            let rule = match &self.keep {
                Keep::Condition(condition) => format!("met --keep {condition:?}"),
                Keep::NotRewritten { column, .. } => format!("was left unrewritten in {column}"),
                Keep::First | Keep::Last => String::new(),
            };
            let text = format!("in {} clusters no row {rule}: each keeps its first row", self.keep_unmatched);
            self.emitter.meta("keep_unmatched", self.keep_unmatched, text)?;
        }
        let not_compared = self.not_compared(scanned);
        let e = &mut self.emitter;
        let more = match not_listed {
            0 => String::new(),
            n => {
                let most = self.dropped_most;
                let what = match (n, most) {
                    (1, 1) => "1 more cluster with one extra row".to_string(),
                    (1, _) => format!("1 more cluster with {most} extra rows"),
                    (_, 1) => format!("{n} more clusters with one extra row each"),
                    _ if most < fewest_listed => {
                        format!("{n} more clusters with fewer extra rows (at most {most} each)")
                    }
                    _ => format!("{n} more clusters with at most {most} extra rows each"),
                };
                format!("{what} (raise --limit, or --format csv for all)")
            }
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
        e.summary("clusters_by_cause", &causes, "")?;
        let by_confidence: Map<String, Value> =
            Confidence::ALL.iter().map(|&c| (c.as_str().to_string(), json!(self.confidence[c as usize]))).collect();
        let mut confidence_text: Vec<String> =
            by_confidence.iter().filter(|(_, v)| **v != json!(0)).map(|(k, v)| format!("{k} {v}")).collect();
        if self.below_min > 0 {
            confidence_text.push(format!(
                "{} below --min-confidence {} counted, not listed",
                self.below_min,
                self.min_confidence.as_str()
            ));
        }
        e.summary("clusters_by_confidence", &by_confidence, confidence_text.join(", "))?;
        let share = if scanned.rows == 0 { 0.0 } else { self.extra_rows as f64 / scanned.rows as f64 };
        e.summary(
            "extra_rows",
            self.extra_rows,
            format!("{} ({:.3}% of rows scanned)", self.extra_rows, share * 100.0),
        )?;
        e.summary("extra_share", share, "")?;
        let (near_value, near_text, not_clean) =
            near_misses(near, carried, &self.written, scanned.rows, &self.table, &self.ignored, self.clusters);
        crate::metrics::gauge(
            "idemctl_scan_near_miss_rows",
            "Rows that nearly match one before them within the window",
            &[],
            near.near_rows as f64,
        );
        e.summary("near_misses", near_value, near_text)?;
        // Never a false clean: a scan that compared nothing, or left out
        // most of what it read, found nothing because it looked at nothing.
        let (not_compared, looked_at_nothing) = match not_compared {
            Some((text, finding)) => (Some(text), finding),
            None => (None, false),
        };
        // Said even with --quiet, as the key commands say theirs: cron's
        // mail then holds why the run is not clean.
        let quiet_line = not_compared.clone().filter(|_| looked_at_nothing && e.is_quiet());
        e.summary("not_compared", &not_compared, not_compared.clone().unwrap_or_default())?;
        if !self.sums.is_empty() {
            for (column, sums) in self.sums.iter().zip(&self.at_stake.per_column) {
                for (currency, amount) in sums {
                    let currency =
                        currency.as_deref().unwrap_or(if column.currency.is_some() { NO_CURRENCY } else { "" });
                    crate::metrics::gauge(
                        "idemctl_scan_sum_at_stake",
                        "Each --sum column's total over the extra rows, per currency",
                        &[("column", &column.name), ("currency", currency)],
                        amount.to_string().parse::<f64>().unwrap_or(0.0),
                    );
                }
            }
            e.summary("sum_at_stake", self.at_stake.json(&self.sums), self.at_stake.text(&self.sums))?;
        }
        if self.by.is_some() {
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
        if interrupted {
            self.emitter.finish_incomplete("interrupted")?;
            return Err(crate::exit::Interrupted.into());
        }
        self.emitter.mark_clean(self.clusters == 0 && !not_clean && !looked_at_nothing);
        self.emitter.finish()?;
        if let Some(line) = quiet_line {
            eprintln!("idemctl: {line}");
        }
        if let Some(audit) = &self.audit {
            audit.save()?;
        }
        Ok(Outcome::from_findings(self.clusters > 0 || not_clean || looked_at_nothing))
    }

    /// Why the scan cannot say the table is clean although it found no
    /// cluster: most rows it read have no readable created-at time, or it
    /// read no row at all (an empty table, or a filter or range that
    /// selects nothing).
    /// The sentence, and whether it is a finding.
    fn not_compared(&self, scanned: &Scanned) -> Option<(String, bool)> {
        let read = scanned.rows + scanned.unreadable;
        if scanned.unreadable * 2 > read {
            return Some((
                format!(
                    "not clean: {} of the {read} rows read have no readable created-at time and were not compared \
                 (name the creation-time column with --created-at)",
                    scanned.unreadable
                ),
                true,
            ));
        }
        if scanned.rows > 0 {
            return None;
        }
        // A scheduled audit's run over a range where no row was written had
        // nothing to do: said, and not a finding.
        if self.audit.is_some() {
            let text = "nothing new: no row was written since the last run (--state), so nothing was compared";
            return Some((text.to_string(), false));
        }
        let text = match &self.filtered {
            Some(what) => format!("not clean: {what} selects no row, so nothing was compared"),
            None => "not clean: the table holds no row with a created-at time, so nothing was compared".to_string(),
        };
        Some((text, true))
    }
}

/// What limits the rows a scan reads, as the flags say it, or `None`.
fn filtered(args: &ScanArgs) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(filter) = &args.filter {
        parts.push(format!("--where {filter:?}"));
    }
    if let Some(since) = args.since {
        parts.push(format!("--since {}", timeparse::rfc3339(since)));
    }
    if let Some(until) = args.until {
        parts.push(format!("--until {}", timeparse::rfc3339(until)));
    }
    (!parts.is_empty()).then(|| parts.join(" with "))
}

/// The watched columns whose values differ within the cluster, each with
/// its values in row order (`{"state": ["invalid", "completed"]}`).
fn changed(watched: &[String], cluster: &Cluster) -> Map<String, Value> {
    let mut out = Map::new();
    for (i, column) in watched.iter().enumerate() {
        let mut values: Vec<Option<&str>> = Vec::new();
        for member in &cluster.members {
            let value = member.watched.get(i).and_then(|v| v.as_deref());
            if values.last() != Some(&value) {
                values.push(value);
            }
        }
        let distinct: FxHashSet<Option<&str>> = values.iter().copied().collect();
        if distinct.len() > 1 {
            out.insert(column.clone(), json!(values));
        }
    }
    out
}

/// This very command line with `--ignore` set to `ignore` (every other
/// option kept, so that it reads the same rows), or a plain scan of `table`
/// where the command line was not a scan's (the demo's).
fn suggested_command(table: &str, ignore: &str) -> String {
    let argv: Vec<String> = std::env::args().collect();
    let mut out = vec!["idemctl".to_string()];
    if !argv.iter().skip(1).any(|a| a == "scan") {
        return format!("idemctl scan --table {} --ignore {}", quoted(table), quoted(ignore));
    }
    let mut args = argv.iter().skip(1).peekable();
    while let Some(arg) = args.next() {
        if arg == "--ignore" {
            args.next();
        } else if arg.starts_with("--ignore=") {
        } else if arg == "--database-url" {
            out.push(arg.clone());
            if let Some(url) = args.next() {
                out.push(quoted(&without_password(url)));
            }
        } else if let Some(url) = arg.strip_prefix("--database-url=") {
            out.push(quoted(&format!("--database-url={}", without_password(url))));
        } else {
            out.push(quoted(arg));
        }
    }
    out.push("--ignore".into());
    out.push(quoted(ignore));
    out.join(" ")
}

/// A URL with its password left out: a suggestion on stderr or in a report
/// never holds one.
fn without_password(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(None);
            parsed.to_string()
        }
        _ => url.to_string(),
    }
}

/// A word as a POSIX shell reads it back: as it is, or single-quoted.
fn quoted(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=,@%+".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The near misses in the summary: their count, the columns that kept
/// them apart, and whether there are too many to call the table clean.
fn near_misses(
    near: &Stats,
    carried: &[String],
    written: &[String],
    rows: u64,
    table: &str,
    ignored: &[String],
    clusters: u64,
) -> (Value, String, bool) {
    let mut by_column: Vec<(&str, u64)> =
        carried.iter().zip(&near.differs).filter(|(_, n)| **n > 0).map(|(c, n)| (c.as_str(), *n)).collect();
    by_column.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let share = if rows == 0 { 0.0 } else { near.near_rows as f64 / rows as f64 };
    let not_clean = near.near_rows >= NEAR_MIN && share >= NEAR_SHARE;
    // The columns that, left out, would turn most near misses into matches;
    // never what people write (that is the message itself).
    let blocking: Vec<&str> = by_column
        .iter()
        .filter(|(c, n)| *n * 5 >= near.near_rows && !written.iter().any(|w| w == c))
        .map(|(c, _)| *c)
        .take(4)
        .collect();
    let mut ignore: Vec<String> = ignored.to_vec();
    ignore.extend(blocking.iter().map(|c| c.to_string()));
    let command = (!blocking.is_empty()).then(|| suggested_command(table, &ignore.join(",")));
    // The nearly unique columns the identity near misses share (only those
    // columns count any).
    let shared: Vec<(&str, u64)> =
        carried.iter().zip(&near.identity_shared).filter(|(_, n)| **n > 0).map(|(c, n)| (c.as_str(), *n)).collect();
    let value = json!({
        "rows": near.near_rows,
        "share": share,
        "equal_on_identity": near.identity_rows,
        "identity_columns": shared.iter().map(|(c, n)| (c.to_string(), json!(n))).collect::<Map<String, Value>>(),
        "by_column": by_column.iter().map(|(c, n)| (c.to_string(), json!(n))).collect::<Map<String, Value>>(),
        "reported": not_clean,
        "command": command,
        "pairs_not_read": near.pairs_beyond,
    });
    let unread = match near.pairs_beyond {
        0 => String::new(),
        n => format!(
            "; {n} near-miss pairs past the first {} were not read for a copy filled in later",
            crate::units::grouped(super::NEAR_PAIRS as u64)
        ),
    };
    let text = if !not_clean {
        match near.near_rows {
            0 => "none".to_string(),
            n => format!(
                "{n} (under {NEAR_MIN} rows or {:.1}% of rows scanned: not counted as findings)",
                NEAR_SHARE * 100.0
            ),
        }
    } else {
        let columns: Vec<String> = by_column.iter().take(6).map(|(c, n)| format!("{c} in {n}")).collect();
        let lead = if clusters == 0 { "not clean: " } else { "" };
        let then = match &command {
            Some(command) => format!("If retries mint those values, compare without them: {command}"),
            None => "The columns that differ hold what people write: look at the rows".to_string(),
        };
        let identified = match near.identity_rows {
            0 => String::new(),
            n => format!(
                " ({n} of them share only {}, a value nearly every row holds of its own, and differ in more)",
                shared.iter().map(|(c, _)| *c).collect::<Vec<_>>().join(" or ")
            ),
        };
        format!(
            "{lead}{} rows ({:.2}% of rows scanned) equal a row before them within the window on every compared column but \
             one or a few{identified}: {}. {then}",
            near.near_rows,
            share * 100.0,
            columns.join(", "),
        )
    };
    (value, text + &unread, not_clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_quote_and_leave_passwords_out() {
        assert_eq!(quoted("orders"), "orders");
        assert_eq!(quoted("state = 'x'"), r#"'state = '\''x'\'''"#);
        assert_eq!(without_password("postgres://app:s3cret@db:5432/shop"), "postgres://app@db:5432/shop");
        assert_eq!(without_password("sqlite:/tmp/x.db"), "sqlite:/tmp/x.db");
    }
}
