//! `idemctl stuck`: keys left in progress past their operation's maximum
//! duration, after a crash or a lost worker. Every retry of such a key gets
//! a conflict until it is resolved (`reap`).

use std::collections::BTreeMap;
use std::io::BufWriter;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args;
use serde_json::json;

use crate::cli::{Connect, Limits, Output};
use crate::db::{self, Access};
use crate::exit::Outcome;
use crate::keys::stuck::{self, Durations};
use crate::keys::{KeyTable, MappingArgs};
use crate::report::Emitter;

#[derive(Debug, Clone, Args)]
pub struct StuckArgs {
    #[command(flatten)]
    pub connect: Connect,
    #[command(flatten)]
    pub mapping: MappingArgs,
    #[command(flatten)]
    pub limits: Limits,
    #[command(flatten)]
    pub report: Output,
}

pub async fn run(args: StuckArgs) -> Result<Outcome> {
    let config = args.mapping.config()?;
    let durations = Durations::new(&args.limits, &config)?;
    let mapping = args.mapping.mapping(&config.key_table);
    let mut db = db::connect(&args.connect.database_url, Access::ReadOnly).await?;
    let mut keys = KeyTable::resolve(&mapping, &mut db).await?;
    keys.key()?;
    keys.in_progress()?;
    if keys.locked_at.is_none() && keys.created_at.is_none() {
        bail!(
            "table {:?} has no locked_at or created_at column: map one with --locked-at-column or --created-at-column",
            keys.table.name
        );
    }
    keys.read_lock_times(&mut db).await?;
    let stuck = stuck::find(&mut db, &keys, &durations).await?;
    db.close().await?;

    let mut out = Emitter::new(args.report.format, args.report.quiet, BufWriter::new(std::io::stdout()), "keys");
    out.meta("table", format!("{}.{}", keys.table.schema, keys.table.name), keys.table.name.clone())?;
    let notes: Vec<String> = keys.times.iter().flat_map(|t| t.notes()).collect();
    if !notes.is_empty() {
        out.meta("notes", &notes, notes.join("; "))?;
    }
    for key in &stuck {
        out.row(key)?;
    }
    let mut by_operation: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for key in &stuck {
        by_operation.entry(key.operation.clone().unwrap_or_default()).or_default().push(key.age_seconds);
    }
    let mut summary = Vec::new();
    let mut text = Vec::new();
    for (op, mut ages) in by_operation {
        ages.sort_unstable();
        let (oldest, median) = (ages[ages.len() - 1], ages[ages.len() / 2]);
        let age = |s: i64| humantime::format_duration(Duration::from_secs(s.max(0) as u64)).to_string();
        text.push(format!(
            "{}: {} (oldest {}, median {})",
            if op.is_empty() { "-" } else { &op },
            ages.len(),
            age(oldest),
            age(median)
        ));
        summary.push(json!({"operation": op, "count": ages.len(), "oldest_seconds": oldest, "median_seconds": median}));
    }
    out.meta("stuck_keys", stuck.len(), stuck.len().to_string())?;
    out.meta("by_operation", summary, text.join("; "))?;
    out.finish()?;
    Ok(Outcome::from_findings(!stuck.is_empty()))
}
