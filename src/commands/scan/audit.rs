//! A scheduled audit (`--state FILE`): what each run of a series reads and lists.

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::{Value, json};

use super::ScanArgs;
use crate::timeparse;
use crate::window::Cluster;

/// A scheduled audit (`--state FILE`). A run that has read every row up to
/// its high-water mark H knows a cluster is whole once its last row is a
/// window before H (a later row would have joined it). So each run lists the
/// clusters that became whole since the last run (their last row after the
/// last run's bound, at most a window before H), and leaves the still-open
/// ones to the next run, which reads on from the first row of the oldest of
/// them (or a window before the last bound). Consecutive runs neither miss
/// nor repeat a cluster.
pub struct Audit {
    path: std::path::PathBuf,
    table: String,
    window_us: i64,
    /// Rows up to here were read.
    high_water_us: i64,
    /// The previous run's bound: clusters whose last row is not after it were listed.
    pub previous_final_us: Option<i64>,
    /// The first row of the oldest cluster left open by this run.
    open_since_us: Option<i64>,
    /// Clusters left open by this run.
    pub open: u64,
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
    pub fn start(path: &std::path::Path, args: &mut ScanArgs) -> Result<Audit> {
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
    pub fn final_us(&self) -> i64 {
        self.high_water_us - self.window_us
    }

    /// Whether this run lists the cluster: whole now, and not listed before.
    pub fn lists(&mut self, cluster: &Cluster) -> bool {
        let (Some(first), Some(last)) = (cluster.members.first(), cluster.members.last()) else { return false };
        if last.t_us > self.final_us() {
            self.open += 1;
            self.open_since_us = Some(self.open_since_us.map_or(first.t_us, |t| t.min(first.t_us)));
            return false;
        }
        self.previous_final_us.is_none_or(|listed| last.t_us > listed)
    }

    pub fn shown(&self, us: Option<i64>) -> String {
        us.map_or_else(|| "the first row".to_string(), |us| timeparse::rfc3339(timeparse::from_micros(us)))
    }

    pub fn summary(&self) -> Value {
        json!({
            "listed_after": self.previous_final_us.map(|us| timeparse::rfc3339(timeparse::from_micros(us))),
            "listed_through": timeparse::rfc3339(timeparse::from_micros(self.final_us())),
            "high_water": timeparse::rfc3339(timeparse::from_micros(self.high_water_us)),
            "open_clusters": self.open,
        })
    }

    /// Writes the state for the next run, atomically.
    pub fn save(&self) -> Result<()> {
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
