//! `idemctl stuck`: keys left in progress past their operation's maximum
//! duration, after a crash or a lost worker. Every retry of such a key gets
//! a conflict until it is resolved (`reap`).

use std::collections::BTreeMap;
use std::io::BufWriter;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use serde_json::json;

use crate::cli::{Connect, Limits, Output};
use crate::db::{self, Access};
use crate::exit::Outcome;
use crate::keys::stuck::{self, Durations, Found};
use crate::keys::{KeyTable, MappingArgs};
use crate::report::Emitter;

#[derive(Debug, Clone, Args)]
pub struct StuckArgs {
    /// Only keys matching this SQL condition (a consumer group, a queue, a message version)
    #[arg(help_heading = "Which keys", long = "where", value_name = "SQL")]
    pub filter: Option<String>,
    #[command(flatten)]
    pub mapping: MappingArgs,
    #[command(flatten)]
    pub limits: Limits,
    #[command(flatten)]
    pub connect: Connect,
    #[arg(skip)]
    pub report: Output,
}

pub async fn run(args: StuckArgs) -> Result<Outcome> {
    let config = args.mapping.config()?;
    let durations = Durations::new(&args.limits, &config)?;
    let mapping = args.mapping.mapping(&config.key_table)?;
    let mut db = db::connect(&args.connect.target("stuck"), Access::ReadOnly).await?;
    let mut keys = KeyTable::resolve(&mapping, &mut db).await?;
    keys.narrow(db.engine(), args.filter.as_deref())?;
    // A mapping the run cannot go on without is refused before any note.
    keys.key()?;
    let judged_nothing = crate::commands::where_selects_nothing(&mut db, &keys.table, args.filter.as_deref()).await?;
    crate::commands::say_if_empty(&mut db, &keys.table, args.report.quiet).await?;
    crate::report::say_target(
        args.report.quiet,
        "stuck",
        &db.target().place(),
        &format!("{}.{}", keys.table.schema, keys.table.name),
    );
    let mut out = Emitter::new(&args.report, BufWriter::new(std::io::stdout()), "keys");
    // At a terminal's width: which key, and where it stands (--wide: every column).
    out.compact(&["key", "operation", "state", "age_seconds"]);
    out.spans(&["age_seconds"]);
    out.meta("table", format!("{}.{}", keys.table.schema, keys.table.name), keys.table.name.clone())?;
    crate::report::config_meta(&mut out, args.mapping.config.as_deref())?;
    crate::commands::kind_meta(&mut out, &keys)?;
    let mut notes: Vec<String> = Vec::new();
    let found = if keys.no_in_progress {
        notes.push(format!(
            "{} has no in-progress state (--no-in-progress): its {} commit with their effect, so none can be stuck",
            keys.table.name,
            keys.kind.entries()
        ));
        Found::default()
    } else {
        keys.in_progress()?;
        keys.read_state_times(&mut db).await?;
        keys.state_times(&db.dialect())?;
        notes.extend(keys.times.iter().flat_map(|t| t.notes()));
        notes.extend(stuck::unmatched_operations(&mut db, &keys, &durations).await?);
        stuck::find_held_apart(&mut db, &keys, &durations, &args.connect.target("stuck")).await?
    };
    db.close().await?;
    if found.untimed > 0 {
        notes.push(stuck::untimed_note(&keys, found.untimed));
    }
    out.meta("notes", &notes, notes.join("; "))?;
    let stuck = &found.keys;
    for key in stuck {
        out.row(key)?;
    }
    let mut by_operation: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for key in stuck {
        by_operation.entry(key.operation.clone().unwrap_or_default()).or_default().push(key.age_seconds);
    }
    let mut summary = Vec::new();
    let mut text = Vec::new();
    for (op, mut ages) in by_operation {
        ages.sort_unstable();
        // The middle age; of an even count, the mean of the two middle ones
        // (whole seconds), as a median is read.
        let n = ages.len();
        let median = if n % 2 == 1 { ages[n / 2] } else { (ages[n / 2 - 1] + ages[n / 2]) / 2 };
        let oldest = ages[n - 1];
        let age = |s: i64| crate::timeparse::span(Duration::from_secs(s.max(0) as u64));
        text.push(format!(
            "{}: {} (oldest {}, median {})",
            if op.is_empty() { "-" } else { &op },
            ages.len(),
            age(oldest),
            age(median)
        ));
        summary.push(json!({"operation": op, "count": ages.len(), "oldest_seconds": oldest, "median_seconds": median}));
    }
    out.summary("stuck_keys", stuck.len(), stuck.len().to_string())?;
    record_metrics(stuck, found.held);
    let states = stuck::by_state(stuck);
    let states_text: Vec<String> = states.iter().map(|(k, v)| format!("{k} {v}")).collect();
    out.summary("by_state", &states, states_text.join(", "))?;
    out.summary("held", found.held, stuck::held_text(found.held, &found.held_keys, "not stuck"))?;
    out.summary(
        "untimed",
        found.untimed,
        format!("{} (in progress with no time to judge them by: left out)", found.untimed),
    )?;
    out.summary("by_operation", summary, text.join("; "))?;
    let judged_nothing = judged_nothing.or_else(|| crate::commands::untimed_not_judged(&keys, found.untimed));
    out.mark_clean(stuck.is_empty() && judged_nothing.is_none());
    out.finish()?;
    if let Some(line) = judged_nothing {
        eprintln!("idemctl: {line}");
        return Ok(Outcome::Findings);
    }
    Ok(Outcome::from_findings(!stuck.is_empty()))
}

/// The figures for `--metrics-file`: stuck keys by state and operation, the
/// oldest's age, and the keys live transactions hold.
fn record_metrics(stuck: &[stuck::StuckKey], held: u64) {
    use crate::metrics::gauge;
    let mut counts: BTreeMap<(String, String), u64> = BTreeMap::new();
    for key in stuck {
        *counts.entry((key.state.as_str().to_string(), key.operation.clone().unwrap_or_default())).or_default() += 1;
    }
    // Nothing stuck is a zero, not a missing series: alerts see it.
    if counts.is_empty() {
        for state in ["lease-expired", "abandoned"] {
            counts.insert((state.to_string(), String::new()), 0);
        }
    }
    for ((state, operation), n) in counts {
        gauge(
            "idemctl_stuck_keys",
            "Keys stuck in progress, by state and operation",
            &[("state", &state), ("operation", &operation)],
            n as f64,
        );
    }
    let oldest = stuck.iter().map(|k| k.age_seconds).max().unwrap_or(0);
    gauge("idemctl_stuck_oldest_age_seconds", "How long the oldest stuck key has been stuck", &[], oldest as f64);
    gauge("idemctl_stuck_held_keys", "Keys in progress that live transactions hold (not stuck)", &[], held as f64);
}

impl crate::commands::Definition for StuckArgs {
    fn name(&self) -> &'static str {
        "stuck"
    }
    fn rows_key(&self) -> &'static str {
        "keys"
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
        match key {
            "oldest_seconds" | "median_seconds" => crate::commands::Fold::Max,
            _ => crate::commands::Fold::Sum,
        }
    }
    crate::commands::on_a_key_table!(StuckArgs);
    fn run(self: Box<Self>) -> futures_util::future::BoxFuture<'static, Result<Outcome>> {
        Box::pin(crate::commands::abortable(run(*self)))
    }
}
