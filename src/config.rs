//! The TOML configuration file (`--config FILE`): the key-table mapping,
//! per-operation maximum durations, and retention. Flags override it.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::timeparse::TimeUnit;

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub key_table: KeyTableConfig,
    /// Operation name or glob to its maximum duration (`"POST /v1/payments" = "30s"`).
    #[serde(default)]
    pub max_durations: BTreeMap<String, String>,
    /// The maximum duration of every other operation.
    pub max_duration: Option<String>,
    #[serde(default)]
    pub retention: RetentionConfig,
    /// Scan options of each creation table, by table name.
    #[serde(default)]
    pub scan: BTreeMap<String, ScanConfig>,
    /// The fleet: databases a run can pick by name or tag.
    #[serde(default)]
    pub databases: Vec<DatabaseConfig>,
}

/// One database of the fleet (`[[databases]]`).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseConfig {
    pub name: String,
    /// The URL, in the file.
    pub url: Option<String>,
    /// The name of an environment variable that holds the URL, so that secrets stay out of the file.
    pub url_env: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
}

/// A creation table's scan options; each as its flag.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScanConfig {
    pub id: Option<String>,
    pub created_at: Option<String>,
    pub window: Option<String>,
    pub columns: Option<Vec<String>>,
    pub ignore: Option<Vec<String>>,
    #[serde(rename = "where")]
    pub filter: Option<String>,
    pub key_column: Option<String>,
    pub sum: Option<OneOrMany>,
    pub currency_column: Option<String>,
    pub keep: Option<String>,
    pub by: Option<String>,
}

/// A value given once, or as a list (`sum = "amount"`, `sum = ["amount", "fee"]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(one) => vec![one],
            OneOrMany::Many(many) => many,
        }
    }
}

/// Column names and status values of the key table; each as its flag.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyTableConfig {
    /// A known design whose mapping fills what the file does not say (`--design`).
    pub design: Option<String>,
    /// What the table is for (`--kind`).
    pub kind: Option<Kind>,
    pub table: Option<String>,
    pub scope_columns: Option<Vec<String>>,
    /// One operation column, or several whose values joined by a space name the operation.
    pub operation_column: Option<String>,
    pub operation_columns: Option<Vec<String>>,
    pub key_column: Option<String>,
    pub status_column: Option<String>,
    /// One in-progress status, or several (a design with more than one running state).
    pub in_progress_value: Option<OneOrMany>,
    pub succeeded_value: Option<String>,
    pub retryable_value: Option<String>,
    pub permanent_value: Option<String>,
    /// The statuses expire may delete (`--finished-value`), and those it never does (`--live-value`).
    pub finished_values: Option<Vec<String>>,
    pub live_values: Option<Vec<String>>,
    pub in_progress_when: Option<String>,
    /// A design's states by which columns are set (`--in-progress-if-set`, `--finished-if-set`).
    pub in_progress_if_set: Option<Vec<String>>,
    pub finished_if_set: Option<Vec<String>>,
    pub locked_at_column: Option<String>,
    pub lease_until_column: Option<String>,
    pub lease_length_column: Option<String>,
    /// The zone zoneless time columns were written in (`--time-zone`).
    pub time_zone: Option<String>,
    /// The zone of one column each (`Added = "+08:00"`), over `time_zone`.
    pub time_zones: Option<BTreeMap<String, String>>,
    pub heartbeat_column: Option<String>,
    /// The workers' table whose heartbeat says a claim is alive, and its columns.
    pub holder_table: Option<String>,
    pub holder_column: Option<String>,
    pub holder_key_column: Option<String>,
    pub holder_heartbeat_column: Option<String>,
    pub lease_grace: Option<String>,
    pub last_run_column: Option<String>,
    pub on_expired_lease: Option<OnExpiredLease>,
    /// `false` for designs whose key row commits with its effect.
    pub in_progress: Option<bool>,
    pub created_at_column: Option<String>,
    pub expires_at_column: Option<String>,
    /// The time expire's horizon counts from (`--purge-by-column`).
    pub purge_by_column: Option<String>,
    pub time_unit: Option<TimeUnit>,
    /// The unit of one integer time column each (`expiration = "s"`).
    pub time_units: Option<BTreeMap<String, TimeUnit>>,
    /// Columns `doctor` looks for; each as its flag.
    pub fingerprint_column: Option<String>,
    pub response_code_column: Option<String>,
    pub response_body_column: Option<String>,
    /// The key is a digest that includes the caller's identity.
    pub scope_in_key: Option<bool>,
    /// Responses are kept by the upstream service (a client-side key store).
    pub responses_upstream: Option<bool>,
}

/// What an expired lease means in a design.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum OnExpiredLease {
    /// Retries are refused until someone releases the key
    #[default]
    Conflict,
    /// The next retry takes the key over
    Takeover,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetentionConfig {
    /// How long keys are kept: longer than the clients' retry horizon.
    pub horizon: Option<String>,
    /// Finished states with a horizon of their own (`--state-horizon`): `discarded = "7d"`.
    pub state_horizons: Option<BTreeMap<String, String>>,
}

impl Config {
    /// The file at `path`, or the empty configuration when there is none.
    pub fn load(path: Option<&Path>) -> Result<Config> {
        let Some(path) = path else { return Ok(Config::default()) };
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read config file {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("bad config file {}", path.display()))
    }
}

/// What a table is for: the idempotency-key pattern under its other names.
/// It decides what doctor requires and how it speaks of the design.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// HTTP idempotency keys: a retry is answered with the first response
    Http,
    /// A consumer's inbox: the message ids it has processed, written with the effect
    Inbox,
    /// An outbox: messages written with the change, dispatched after
    Outbox,
    /// A job or execution table: jobs claimed by workers, retried by a rescuer
    Jobs,
    /// A webhook receiver's log of events seen
    Webhooks,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Http => "http",
            Kind::Inbox => "inbox",
            Kind::Outbox => "outbox",
            Kind::Jobs => "jobs",
            Kind::Webhooks => "webhooks",
        }
    }

    /// What one of its rows is called, for sentences.
    pub fn entry(self) -> &'static str {
        match self {
            Kind::Http => "key",
            Kind::Inbox | Kind::Outbox => "message",
            Kind::Jobs => "job",
            Kind::Webhooks => "event",
        }
    }

    /// Its rows, for sentences.
    pub fn entries(self) -> &'static str {
        match self {
            Kind::Http => "keys",
            Kind::Inbox | Kind::Outbox => "messages",
            Kind::Jobs => "jobs",
            Kind::Webhooks => "events",
        }
    }

    /// `n` of its rows: `1 job`, `3 jobs`.
    pub fn counted(self, n: u64) -> String {
        match n {
            1 => format!("1 {}", self.entry()),
            n => format!("{n} {}", self.entries()),
        }
    }

    /// The report keys people read in this kind's words (the data keeps
    /// `key`, `stuck_keys`: a pipeline reads every kind alike).
    pub fn words(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Kind::Http => &[],
            Kind::Inbox | Kind::Outbox => &[("key", "message"), ("stuck_keys", "stuck messages")],
            Kind::Jobs => &[("key", "job"), ("stuck_keys", "stuck jobs")],
            Kind::Webhooks => &[("key", "event"), ("stuck_keys", "stuck events")],
        }
    }

    /// Why a retention must be long, in this kind's terms.
    pub fn retention_reason(self) -> &'static str {
        match self {
            Kind::Http => "keys must outlive the clients' retries",
            Kind::Inbox => "message ids must outlive the broker's redeliveries, or a redelivered message runs twice",
            Kind::Outbox => "messages must outlive their dispatch and its retries",
            Kind::Jobs => "finished jobs must outlive the retries that would enqueue them again",
            Kind::Webhooks => "events seen must outlive the sender's retries, or a retried event runs twice",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_example() {
        let readme = [include_str!("../docs/src/fleet.md"), include_str!("../docs/src/time-columns.md")].concat();
        // Every TOML example of the guide is a config file.
        let examples: Vec<Config> = readme
            .split("```toml\n")
            .skip(1)
            .map(|block| toml::from_str(&block[..block.find("```").unwrap()]).unwrap())
            .collect();
        let fleet = examples.iter().find(|c| !c.databases.is_empty()).expect("the guide has a fleet example");
        assert_eq!(fleet.databases.len(), 2);
        assert_eq!(fleet.databases[1].url_env.as_deref(), Some("SHOP_US_1_URL"));
        assert_eq!(fleet.databases[0].tags, ["eu", "primary"]);
        let config =
            examples.into_iter().find(|c| c.key_table.table.is_some()).expect("the guide has a config example");
        assert_eq!(config.key_table.table.as_deref(), Some("idempotency_keys"));
        assert_eq!(config.max_durations.get("POST /v1/payments").map(String::as_str), Some("30s"));
        assert_eq!(config.key_table.time_unit, None);
        assert_eq!(config.max_duration.as_deref(), Some("5m"));
        assert_eq!(config.max_durations.len(), 3);
        assert_eq!(config.key_table.on_expired_lease, Some(OnExpiredLease::Conflict));
        assert_eq!(config.retention.horizon.as_deref(), Some("72h"));
        let orders = &config.scan["orders"];
        assert_eq!(orders.window.as_deref(), Some("10s"));
        assert_eq!(orders.ignore.as_deref(), Some(&["note".to_string()][..]));
    }

    #[test]
    fn unknown_keys_are_errors() {
        assert!(toml::from_str::<Config>("[key_table]\nstatus_colum = \"state\"\n").is_err());
    }
}
