//! The catalog of known designs: each a job, queue or key library's table
//! as its own migrations and code shape it, said in the mapping's words
//! (the config file's `[key_table]`). `--design NAME` (or `design` in the
//! config file) fills in what neither the flags nor the file say; the
//! mapping is then checked against the table like any other, before
//! anything runs.

use anyhow::{Context, Result};

use crate::config::KeyTableConfig;

/// Each design: its name, what it is (for the reader of this file), and its mapping.
const DESIGNS: &[(&str, &str, &str)] = &[
    (
        "river",
        "River (Go, PostgreSQL): river_job, its state enum, attempted_at when a worker took the job",
        r#"
        kind = "jobs"
        table = "river_job"
        key_column = "id"
        status_column = "state"
        in_progress_value = "running"
        succeeded_value = "completed"
        retryable_value = "retryable"
        permanent_value = "discarded"
        finished_values = ["cancelled"]
        locked_at_column = "attempted_at"
        "#,
    ),
    (
        "pg-boss",
        "pg-boss 10 (Node.js, PostgreSQL): job, active with started_on and a per-job expire_in",
        r#"
        kind = "jobs"
        table = "job"
        key_column = "id"
        status_column = "state"
        in_progress_value = "active"
        succeeded_value = "completed"
        retryable_value = "retry"
        permanent_value = "failed"
        finished_values = ["cancelled"]
        live_values = ["created"]
        locked_at_column = "started_on"
        lease_length_column = "expire_in"
        created_at_column = "created_on"
        "#,
    ),
    (
        "masstransit-inbox",
        "MassTransit's EF Core inbox (.NET): InboxState, a message id per consumer, purged by Delivered",
        r#"
        kind = "inbox"
        table = "InboxState"
        scope_columns = ["ConsumerId"]
        key_column = "MessageId"
        in_progress = false
        created_at_column = "Received"
        purge_by_column = "Delivered"
        "#,
    ),
    (
        "delayed-job",
        "Delayed::Job (Ruby, ActiveRecord): delayed_jobs, no status; locked_at while running, failed_at once failed",
        r#"
        kind = "jobs"
        table = "delayed_jobs"
        key_column = "id"
        in_progress_if_set = ["locked_at"]
        finished_if_set = ["failed_at"]
        "#,
    ),
];

/// The names of the known designs, for a refusal.
pub fn names() -> Vec<&'static str> {
    DESIGNS.iter().map(|(name, _, _)| *name).collect()
}

/// The mapping of a known design.
pub fn design(name: &str) -> Result<KeyTableConfig> {
    let Some((_, _, mapping)) = DESIGNS.iter().find(|(n, _, _)| *n == name) else {
        anyhow::bail!("--design {name}: no such design (known: {})", names().join(", "))
    };
    toml::from_str(mapping).with_context(|| format!("the catalog's design {name}"))
}

impl KeyTableConfig {
    /// This mapping, with what it leaves unsaid taken from `under`.
    pub fn over(&self, under: &KeyTableConfig) -> KeyTableConfig {
        KeyTableConfig {
            design: self.design.clone().or_else(|| under.design.clone()),
            kind: self.kind.or(under.kind),
            table: self.table.clone().or_else(|| under.table.clone()),
            scope_columns: self.scope_columns.clone().or_else(|| under.scope_columns.clone()),
            operation_column: self.operation_column.clone().or_else(|| under.operation_column.clone()),
            operation_columns: self.operation_columns.clone().or_else(|| under.operation_columns.clone()),
            key_column: self.key_column.clone().or_else(|| under.key_column.clone()),
            status_column: self.status_column.clone().or_else(|| under.status_column.clone()),
            in_progress_value: self.in_progress_value.clone().or_else(|| under.in_progress_value.clone()),
            succeeded_value: self.succeeded_value.clone().or_else(|| under.succeeded_value.clone()),
            retryable_value: self.retryable_value.clone().or_else(|| under.retryable_value.clone()),
            permanent_value: self.permanent_value.clone().or_else(|| under.permanent_value.clone()),
            finished_values: self.finished_values.clone().or_else(|| under.finished_values.clone()),
            live_values: self.live_values.clone().or_else(|| under.live_values.clone()),
            in_progress_when: self.in_progress_when.clone().or_else(|| under.in_progress_when.clone()),
            in_progress_if_set: self.in_progress_if_set.clone().or_else(|| under.in_progress_if_set.clone()),
            finished_if_set: self.finished_if_set.clone().or_else(|| under.finished_if_set.clone()),
            locked_at_column: self.locked_at_column.clone().or_else(|| under.locked_at_column.clone()),
            lease_until_column: self.lease_until_column.clone().or_else(|| under.lease_until_column.clone()),
            lease_length_column: self.lease_length_column.clone().or_else(|| under.lease_length_column.clone()),
            time_zone: self.time_zone.clone().or_else(|| under.time_zone.clone()),
            time_zones: self.time_zones.clone().or_else(|| under.time_zones.clone()),
            heartbeat_column: self.heartbeat_column.clone().or_else(|| under.heartbeat_column.clone()),
            holder_table: self.holder_table.clone().or_else(|| under.holder_table.clone()),
            holder_column: self.holder_column.clone().or_else(|| under.holder_column.clone()),
            holder_key_column: self.holder_key_column.clone().or_else(|| under.holder_key_column.clone()),
            holder_heartbeat_column: self
                .holder_heartbeat_column
                .clone()
                .or_else(|| under.holder_heartbeat_column.clone()),
            lease_grace: self.lease_grace.clone().or_else(|| under.lease_grace.clone()),
            last_run_column: self.last_run_column.clone().or_else(|| under.last_run_column.clone()),
            on_expired_lease: self.on_expired_lease.or(under.on_expired_lease),
            in_progress: self.in_progress.or(under.in_progress),
            created_at_column: self.created_at_column.clone().or_else(|| under.created_at_column.clone()),
            expires_at_column: self.expires_at_column.clone().or_else(|| under.expires_at_column.clone()),
            purge_by_column: self.purge_by_column.clone().or_else(|| under.purge_by_column.clone()),
            time_unit: self.time_unit.or(under.time_unit),
            time_units: self.time_units.clone().or_else(|| under.time_units.clone()),
            fingerprint_column: self.fingerprint_column.clone().or_else(|| under.fingerprint_column.clone()),
            response_code_column: self.response_code_column.clone().or_else(|| under.response_code_column.clone()),
            response_body_column: self.response_body_column.clone().or_else(|| under.response_body_column.clone()),
            scope_in_key: self.scope_in_key.or(under.scope_in_key),
            responses_upstream: self.responses_upstream.or(under.responses_upstream),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every design parses, and the file's own entries win over it.
    #[test]
    fn designs_parse_and_the_file_wins() {
        for name in names() {
            let d = design(name).unwrap();
            assert!(d.table.is_some() && d.key_column.is_some(), "{name}");
        }
        let river = design("river").unwrap();
        let file = KeyTableConfig { table: Some("jobs.river_job".into()), ..KeyTableConfig::default() };
        let merged = file.over(&river);
        assert_eq!(merged.table.as_deref(), Some("jobs.river_job"));
        assert_eq!(merged.status_column.as_deref(), Some("state"));
        let err = design("sidekiq").unwrap_err().to_string();
        assert_eq!(err, "--design sidekiq: no such design (known: river, pg-boss, masstransit-inbox, delayed-job)");
    }
}
