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
use crate::keys::stuck::{self, Durations, Found, Held};
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
    #[arg(skip)]
    pub report: Output,
}

pub async fn run(args: StuckArgs) -> Result<Outcome> {
    let config = args.mapping.config()?;
    let durations = Durations::new(&args.limits, &config)?;
    let mapping = args.mapping.mapping(&config.key_table)?;
    let mut db = db::connect(&args.connect.target("stuck"), Access::ReadOnly).await?;
    let mut keys = KeyTable::resolve(&mapping, &mut db).await?;
    keys.key()?;
    let mut out = Emitter::new(&args.report, BufWriter::new(std::io::stdout()), "keys");
    out.meta("table", format!("{}.{}", keys.table.schema, keys.table.name), keys.table.name.clone())?;
    let mut notes: Vec<String> = Vec::new();
    let found = if keys.no_in_progress {
        notes.push(format!(
            "{} has no in-progress state (--no-in-progress): its keys commit with their effect, so none can be stuck",
            keys.table.name
        ));
        Found::default()
    } else {
        keys.in_progress()?;
        keys.read_state_times(&mut db).await?;
        keys.state_times(&db.dialect())?;
        notes.extend(keys.times.iter().flat_map(|t| t.notes()));
        notes.extend(stuck::unmatched_operations(&mut db, &keys, &durations).await?);
        // MySQL tells held keys apart only by a locking read, which a
        // read-only session may not run: a session of its own, for that alone.
        let mut probe = match db.dialect().held_probe() {
            Some(_) => Some(db::connect(&args.connect.target("stuck"), Access::LockProbe).await?),
            None => None,
        };
        let found = stuck::find(&mut db, &keys, &durations, Held::Detect(probe.as_mut())).await?;
        if let Some(probe) = probe {
            probe.close().await?;
        }
        found
    };
    db.close().await?;
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
    out.summary("stuck_keys", stuck.len(), stuck.len().to_string())?;
    let states = stuck::by_state(stuck);
    let states_text: Vec<String> = states.iter().map(|(k, v)| format!("{k} {v}")).collect();
    out.summary("by_state", &states, states_text.join(", "))?;
    out.summary("held", found.held, format!("{} (held by live transactions: not stuck)", found.held))?;
    out.summary("by_operation", summary, text.join("; "))?;
    out.finish()?;
    Ok(Outcome::from_findings(!stuck.is_empty()))
}
