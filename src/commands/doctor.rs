//! `idemctl doctor`: checks the key table's design, and each creation
//! table's second line of defence, against the rules that prevent
//! duplicates. Each check passes, warns or fails, with the reason and the fix.
//!
//! A check fails where the design lets a request run twice, hands one caller
//! another's result, or leaves keys that never recover; it warns where the
//! design answers wrongly or costs more than it should.

use std::collections::BTreeSet;
use std::io::BufWriter;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use crate::cli::{Connect, Limits, Output};
use crate::db::catalog::{self, Index, Table};
use crate::db::{self, Access, Db, Dialect};
use crate::exit::Outcome;
use crate::keys::expiry::{self, Expiry};
use crate::keys::stuck::{self, Durations};
use crate::keys::{self, KeyTable, Kind, MappingArgs, OnExpiredLease};
use crate::report::Emitter;
use crate::timeparse;
use crate::units;

#[derive(Debug, Clone, Args)]
pub struct DoctorArgs {
    #[command(flatten)]
    pub mapping: MappingArgs,
    /// The column of the request's fingerprint [default: request_hash, fingerprint, ... when one exists]
    #[arg(long, value_name = "COL")]
    pub fingerprint_column: Option<String>,
    /// The column of the stored response's status code [default: response_code, ... when one exists]
    #[arg(long, value_name = "COL")]
    pub response_code_column: Option<String>,
    /// The column of the stored response's body [default: response_body, ... when one exists]
    #[arg(long, value_name = "COL")]
    pub response_body_column: Option<String>,
    /// A table that requests create rows in, checked for a unique constraint besides its
    /// primary key (repeatable) [default: the config file's [scan.TABLE] tables]
    #[arg(long = "creation-table", value_name = "TABLE")]
    pub creation_tables: Vec<String>,
    /// How long past its expiry a row may wait for `expire` before it counts as piling up
    #[arg(long, value_name = "DURATION", default_value = "24h", value_parser = timeparse::duration)]
    pub backlog_grace: Duration,
    /// The retention horizon: keys created longer ago are due to go (the backlog check) [default: the config file's, else expires_at]
    #[arg(long, value_name = "DURATION", value_parser = timeparse::duration)]
    pub older_than: Option<Duration>,
    /// The key is a digest of the request and its caller (Lago, idempo, Powertools): unique on its own, it is scoped
    #[arg(long)]
    pub scope_in_key: bool,
    /// Responses are kept by the upstream service, not here (a client-side key store, such as dj-stripe's)
    #[arg(long)]
    pub responses_upstream: bool,
    #[command(flatten)]
    pub limits: Limits,
    #[command(flatten)]
    pub connect: Connect,
    #[arg(skip)]
    pub report: Output,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Warn,
    Fail,
}

/// One check's result: a report row.
#[derive(Debug, Clone, Serialize)]
struct Check {
    check: String,
    result: Verdict,
    reason: String,
    fix: String,
}

impl Check {
    fn new(check: &str, result: Verdict, reason: impl Into<String>, fix: impl Into<String>) -> Check {
        Check { check: check.to_string(), result, reason: reason.into(), fix: fix.into() }
    }
}

const FINGERPRINT_NAMES: &[&str] = &[
    "request_hash",
    "request_fingerprint",
    "fingerprint",
    "request_digest",
    "request_checksum",
    "payload_hash",
    "body_hash",
    "params_hash",
    "request_params",
    "validation",
];
const RESPONSE_CODE_NAMES: &[&str] =
    &["response_code", "response_status", "response_status_code", "status_code", "http_status"];
const RESPONSE_BODY_NAMES: &[&str] = &["response_body", "response_json", "response_payload", "recovery_point"];
/// Columns that keep a whole result (the status with the body, or a
/// serialized return value): a retry is answered from them alone.
const RESULT_NAMES: &[&str] =
    &["response", "response_data", "result", "stored_response", "idempotent_response_payload", "data"];
/// Columns that reference the created resource: a retry is answered by looking it up.
const RESOURCE_NAMES: &[&str] = &["resource_id", "resource_gid", "resource_ref", "result_id", "created_id"];

/// What the design declares of itself, beyond the mapping.
#[derive(Debug, Clone, Copy)]
struct Design {
    /// The key is a digest of the request and its caller.
    scope_in_key: bool,
    /// Responses are kept by the upstream service.
    responses_upstream: bool,
    /// What the table is for.
    kind: Kind,
}

/// Whether the key column looks like a digest: binary, or hexadecimal text
/// of 32 to 64 characters in the rows sampled.
async fn key_looks_like_digest(db: &mut Db, keys: &KeyTable) -> Result<bool> {
    let key = keys.key()?;
    let data_type = keys.table.column(key)?.data_type.to_lowercase();
    if ["bytea", "binary", "varbinary", "blob"].iter().any(|t| data_type.contains(t)) {
        return Ok(true);
    }
    let sample = catalog::values_in_use(db, &keys.table, key, 1_000).await?;
    Ok(!sample.is_empty()
        && sample.iter().all(|v| (32..=64).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_hexdigit())))
}

/// Rows of the status sample: enough to see every value in use, bounded on a big table.
const STATUS_SAMPLE: u64 = 100_000;
/// The backlog is counted up to here; past it the figure reads "at least".
const BACKLOG_CAP: u64 = 1_000_000;

pub async fn run(args: DoctorArgs) -> Result<Outcome> {
    let config = args.mapping.config()?;
    let durations = Durations::new(&args.limits, &config)?;
    let mapping = args.mapping.mapping(&config.key_table)?;
    let mut db = db::connect(&args.connect.target("doctor"), Access::ReadOnly).await?;
    let mut keys = KeyTable::resolve(&mapping, &mut db).await?;
    let kind = keys.kind;
    let design = Design {
        scope_in_key: args.scope_in_key || mapping.scope_in_key,
        responses_upstream: args.responses_upstream || mapping.responses_upstream,
        kind,
    };
    crate::report::say_target(
        args.report.quiet,
        "doctor",
        &db.target().place(),
        &format!("{}.{}", keys.table.schema, keys.table.name),
    );
    keys.key()?;
    // Without a status column or --in-progress-when the mapping cannot say
    // which keys are in progress; the other checks still hold, and the
    // statuses check fails.
    let mapped = keys.tells_in_progress().is_some();
    if mapped {
        keys.read_state_times(&mut db).await?;
    }
    let digest_like = !design.scope_in_key && keys.scope.is_empty() && key_looks_like_digest(&mut db, &keys).await?;
    let creation: Vec<String> = if args.creation_tables.is_empty() {
        config.scan.keys().cloned().collect()
    } else {
        args.creation_tables.clone()
    };
    let mut creation_tables = Vec::new();
    for name in &creation {
        creation_tables.push(catalog::table(&mut db, name).await?);
    }

    let indexes = catalog::indexes(&mut db, &keys.table).await?;
    // A partitioned table's unique indexes must hold its partition key.
    let partition_key = crate::db::partitions::leaves(&mut db, &keys.table)
        .await?
        .iter()
        .find(|p| p.level == 1)
        .and_then(|p| p.key.as_ref().map(|k| k.column.clone()));
    let dialect = db.dialect();
    let repeats = key_repeats(&mut db, &keys).await?;
    let mut checks =
        vec![uniqueness(&keys, &indexes, design, (digest_like, &repeats), partition_key.as_deref(), &dialect)];
    checks.push(fingerprint(&keys.table, keys::pick(&args.fingerprint_column, &mapping.fingerprint), design)?);
    checks.push(response(
        &keys.table,
        keys::pick(&args.response_code_column, &mapping.response_code),
        keys::pick(&args.response_body_column, &mapping.response_body),
        design,
    )?);
    // An empty table shows no values in use: what they are is not told.
    let empty = repeats.rows == 0;
    checks.push(statuses(&mut db, &keys, (mapped, design.kind), empty).await?);
    checks.push(lock_time(&mut db, &keys, empty).await?);
    checks.push(expiry_index(&db, &keys, &indexes, design.kind));
    let horizon = expiry::horizon(args.older_than, &config)?;
    checks.push(backlog(&mut db, &mut keys, (horizon, design.kind), args.backlog_grace).await?);
    checks.extend(lifetime(&mut db, &mut keys, horizon).await?);
    checks.push(stuck_now(&mut db, &keys, (mapped, design.kind), &durations, &args.connect.target("doctor")).await?);
    for table in &creation_tables {
        checks.push(natural_unique(&mut db, &args, table, &dialect).await?);
    }
    db.close().await?;

    let mut out = Emitter::new(&args.report, BufWriter::new(std::io::stdout()), "checks");
    // Reasons and fixes are sentences: wrapped, never cut.
    out.wrap_text();
    out.meta("table", format!("{}.{}", keys.table.schema, keys.table.name), keys.table.name.clone())?;
    out.meta("kind", kind.as_str(), format!("{} ({})", kind.as_str(), keys.kind_told))?;
    crate::report::config_meta(&mut out, args.mapping.config.as_deref())?;
    // At a terminal, SQL is never wrapped inside a table cell: each fix's
    // statement is printed whole below the table, runnable as printed.
    let for_people = matches!(args.report.format, crate::report::Format::Table);
    let mut statements = Vec::new();
    for check in &checks {
        match fix_sql(&check.fix).filter(|_| for_people) {
            Some((prose, sql)) => {
                out.row(&Check { fix: format!("{prose} (the SQL is below)"), ..check.clone() })?;
                statements.push(format!("-- {}: {prose}\n{sql};", check.check));
            }
            None => out.row(check)?,
        }
    }
    let count = |v: Verdict| checks.iter().filter(|c| c.result == v).count();
    let (passed, warned, failed) = (count(Verdict::Pass), count(Verdict::Warn), count(Verdict::Fail));
    for (result, n) in [("pass", passed), ("warn", warned), ("fail", failed)] {
        crate::metrics::gauge("idemctl_doctor_checks", "The design checks, by result", &[("result", result)], n as f64);
    }
    out.summary(
        "summary",
        serde_json::json!({"passed": passed, "warned": warned, "failed": failed}),
        format!("{passed} passed, {warned} warned, {failed} failed"),
    )?;
    out.mark_clean(failed == 0 && warned == 0);
    out.finish()?;
    if !statements.is_empty() {
        println!("\n{}", statements.join("\n\n"));
    }
    Ok(Outcome::from_findings(failed > 0))
}

/// A fix that ends in an SQL statement (after its last `: `): the prose and the statement.
fn fix_sql(fix: &str) -> Option<(&str, &str)> {
    let (prose, sql) = fix.rsplit_once(": ")?;
    let verb = sql.split_whitespace().next()?;
    ["CREATE", "ALTER", "DROP", "DELETE", "UPDATE"].contains(&verb).then_some((prose, sql))
}

/// A column given by name (which must exist), else the first of `names` the table has.
fn column(table: &Table, given: Option<String>, names: &[&str], flag: &str) -> Result<Option<String>> {
    match given {
        Some(name) => keys::named(table, &name, flag).map(Some),
        None => Ok(table.find_column(names).map(|c| c.name.clone())),
    }
}

/// The column sets a table keeps unique: its unique indexes over plain
/// columns (expressions left out) and its primary key; without the indexes
/// named in `partial`, which hold over some rows only.
fn unique_sets(table: &Table, partial: &[&str]) -> Vec<Vec<String>> {
    table
        .unique
        .iter()
        .filter(|u| u.columns.iter().all(Option::is_some) && !partial.contains(&u.name.as_str()))
        .map(|u| u.columns.iter().flatten().cloned().collect())
        .chain((!table.primary_key.is_empty()).then(|| table.primary_key.clone()))
        .collect()
}

fn list(columns: &[String]) -> String {
    format!("({})", columns.join(", "))
}

/// A column list as SQL: each name quoted by the engine's rules, so that the
/// statement runs as shown whatever the names hold (`Received`, `Group`).
fn sql_list(dialect: &Dialect, columns: &[&str]) -> String {
    format!("({})", columns.iter().map(|c| dialect.ident(c)).collect::<Vec<_>>().join(", "))
}

/// The column a fix adds for the reference clients send: the first of
/// these names the table does not have yet.
fn new_reference(table: &Table) -> &'static str {
    ["client_reference", "request_reference", "idempotency_reference"]
        .into_iter()
        .find(|c| table.column(c).is_err())
        .unwrap_or("idemctl_client_reference")
}

/// The statement that adds `new_reference` to `table`: text a unique index
/// can hold on every engine (MySQL indexes no unbounded TEXT).
fn add_reference_sql(dialect: &Dialect, table: &Table) -> String {
    let ty = dialect.indexable_text_type();
    format!("ALTER TABLE {} ADD COLUMN {} {ty}", table.sql_name(dialect), dialect.ident(new_reference(table)))
}

/// The statement that makes `columns` of `table` unique, as every engine
/// takes it (SQLite has no `ALTER TABLE ... ADD UNIQUE`); a column not there
/// yet is written `<as such>`.
fn unique_index_sql(dialect: &Dialect, table: &Table, columns: &[&str]) -> String {
    let named: Vec<&str> = columns.iter().copied().filter(|c| !c.starts_with('<')).collect();
    let index = dialect.ident(&format!("{}_{}_key", table.name, named.join("_")));
    let list: Vec<String> =
        columns.iter().map(|c| if c.starts_with('<') { c.to_string() } else { dialect.ident(c) }).collect();
    format!("CREATE UNIQUE INDEX {index} ON {} ({})", table.sql_name(dialect), list.join(", "))
}

/// Rows of a key table read to see how its keys repeat.
const REPEATS_SAMPLE: u64 = 1_000_000;

/// How the table's keys repeat in its rows, under its scope and operation.
async fn key_repeats(db: &mut Db, keys: &KeyTable) -> Result<catalog::KeyRepeats> {
    let mut columns: Vec<String> = keys.scope.clone();
    columns.extend(keys.operation.iter().cloned());
    columns.push(keys.key()?.to_string());
    catalog::key_repeats(db, &keys.table, &columns, REPEATS_SAMPLE).await
}

/// Where the rows read are counted: "1,000 rows", or "the first 1,000,000 rows".
fn rows_read(seen: &catalog::KeyRepeats) -> String {
    let n = units::grouped(seen.rows);
    if seen.rows >= REPEATS_SAMPLE { format!("the first {n} rows") } else { format!("{n} rows") }
}

/// `1 key`, `1,200 jobs`: a count of the kind's rows.
fn counted(kind: Kind, n: u64) -> String {
    if n == 1 { format!("1 {}", kind.entry()) } else { format!("{} {}", units::grouped(n), kind.entries()) }
}

fn keys_are(n: u64) -> String {
    if n == 1 { "1 key is".to_string() } else { format!("{} keys are", units::grouped(n)) }
}

/// What a passing index over scope, operation and key keeps apart in the
/// table's own rows: the keys two callers or operations share.
fn kept_apart(seen: &catalog::KeyRepeats) -> String {
    match seen.apart {
        _ if seen.rows == 0 => String::new(),
        0 => format!("; in {}, no key is held by two callers or operations yet", rows_read(seen)),
        n => {
            format!("; in {}, {} held by two callers or operations, which it keeps apart", rows_read(seen), keys_are(n))
        }
    }
}

/// What a missing index let through in the table's own rows: the keys held
/// twice under one scope and operation, in the kind's words.
fn stored_twice(seen: &catalog::KeyRepeats, kind: Kind) -> String {
    let each = match kind {
        Kind::Http => "each a request that ran twice",
        _ => "each stored twice",
    };
    match seen.twice {
        _ if seen.rows == 0 => String::new(),
        0 => format!(" (in {}, no {} is held twice yet)", rows_read(seen), kind.entry()),
        1 => format!("; in {}, 1 {} is held by two rows or more, {each}", rows_read(seen), kind.entry()),
        n => format!("; in {}, {} are held by two rows or more, {each}", rows_read(seen), counted(kind, n)),
    }
}

/// `indexes` are the table's: its partial unique indexes do not count.
fn uniqueness(
    keys: &KeyTable,
    indexes: &[Index],
    design: Design,
    (digest_like, seen): (bool, &catalog::KeyRepeats),
    partition_key: Option<&str>,
    dialect: &Dialect,
) -> Check {
    let name = "uniqueness";
    let mut wanted: Vec<String> = keys.scope.clone();
    wanted.extend(keys.operation.iter().cloned());
    let key = keys.key().map(str::to_string).unwrap_or_default();
    wanted.push(key.clone());
    let wanted_set: BTreeSet<&str> = wanted.iter().map(String::as_str).collect();
    let partial: Vec<&str> = indexes.iter().filter(|i| i.partial).map(|i| i.name.as_str()).collect();
    let candidates = unique_sets(&keys.table, &partial);
    let wanted_refs: Vec<&str> = wanted.iter().map(String::as_str).collect();
    // The index over `wanted`, after the rows stored twice where there are some.
    let make_unique = || {
        let index = unique_index_sql(dialect, &keys.table, &wanted_refs);
        match seen.twice {
            0 => format!("make {} unique: {index}", list(&wanted)),
            n => format!(
                "first keep one row of each of the {} stored twice (each other row is {}), over which a unique index \
                 fails to build, then make {} unique: {index}",
                counted(design.kind, n),
                match design.kind {
                    Kind::Http => "a request that ran again: check its effect".to_string(),
                    kind => format!("the same {} again: check whether it was handled twice", kind.entry()),
                },
                list(&wanted)
            ),
        }
    };
    // A sender-minted id (a job's, a message's) needs no caller scope.
    let fix_all = if keys.scope.is_empty() && design.kind != Kind::Http {
        make_unique()
    } else if keys.scope.is_empty() {
        let with_caller: Vec<&str> = ["caller_id"].into_iter().chain(wanted_refs.iter().copied()).collect();
        let index = unique_index_sql(dialect, &keys.table, &with_caller);
        match keys.table.column("caller_id") {
            Ok(_) => format!(
                "map the caller (account, user or API key) with --scope-column caller_id, and make it unique with the \
                 key: {index}"
            ),
            // The column comes first: an index over a column not there yet
            // fails as printed.
            Err(_) => format!(
                "add the caller (account, user or API key) as a column (NULL on the keys there are, which a unique \
                 index lets repeat until they expire), fill it on every new key, map it with --scope-column, and make \
                 it unique with the key: ALTER TABLE {} ADD COLUMN {} {}; {index}",
                keys.table.sql_name(dialect),
                dialect.ident("caller_id"),
                dialect.indexable_text_type()
            ),
        }
    } else {
        match partition_key.filter(|k| !wanted.iter().any(|w| w == k)) {
            // The server refuses a unique index without the partition key.
            Some(by) => format!(
                "a partitioned table's unique index must hold its partition key ({by}), which {} does not: partition \
                 by a column of it instead (PARTITION BY HASH ({}) or LIST on the operation), or keep {} unique in a \
                 plain table beside it",
                list(&wanted),
                wanted[0],
                list(&wanted)
            ),
            None => make_unique(),
        }
    };
    let digest_note = if digest_like {
        " (the key looks like a digest: if it includes the caller, say so with --scope-in-key)"
    } else {
        ""
    };
    // A unique index over the key and mapped columns only constrains keys;
    // one with other columns besides (created_at, say) constrains nothing.
    let constraining: Vec<&Vec<String>> = candidates
        .iter()
        .filter(|c| c.contains(&key) && c.iter().all(|col| wanted_set.contains(col.as_str())))
        .collect();
    if design.kind != Kind::Http
        && let Some(cols) = constraining.iter().min_by_key(|c| c.len())
        && cols.len() == 1
        && keys.table.primary_key == **cols
    {
        // The table's own id dedupes only if the sender chose it.
        return Check::new(
            name,
            Verdict::Warn,
            format!(
                "unique {} is the table's primary key: it refuses a second {} only if the sender chose the id; a \
                 receiver that mints its own (a sequence, a snowflake) stores every redelivery again",
                list(cols),
                design.kind.entry()
            ),
            format!("map the sender's {} id with --key-column, or store it with a unique index", design.kind.entry()),
        );
    }
    if design.kind != Kind::Http
        && let Some(cols) = constraining.iter().min_by_key(|c| c.len())
    {
        return Check::new(
            name,
            Verdict::Pass,
            format!(
                "unique {} refuses a second {}: its id is minted by the sender (or the {} itself), so no caller scope \
                 is needed",
                list(cols),
                design.kind.entry(),
                design.kind.entry()
            ),
            "",
        );
    }
    if design.scope_in_key
        && let Some(cols) = constraining.iter().min_by_key(|c| c.len())
    {
        return Check::new(
            name,
            Verdict::Pass,
            format!(
                "unique {} covers the key, a digest of the request and its caller (as --scope-in-key declares)",
                list(cols)
            ),
            "",
        );
    }
    if let Some(exact) = constraining.iter().find(|c| c.len() == wanted_set.len()) {
        if keys.scope.is_empty() {
            return Check::new(
                name,
                Verdict::Fail,
                format!(
                    "unique {} has no scope: every caller shares one key space, so one caller's key can replay or \
                     collide with another's{digest_note}",
                    list(exact)
                ),
                fix_all,
            );
        }
        return Check::new(
            name,
            Verdict::Pass,
            format!("unique {} covers scope + operation + key{}", list(exact), kept_apart(seen)),
            "",
        );
    }
    let widest = constraining.iter().max_by_key(|c| c.len());
    // A partial unique index over the key and mapped columns: unique while
    // its condition holds.
    let partial_index = keys.table.unique.iter().find(|u| {
        partial.contains(&u.name.as_str())
            && u.columns.iter().any(|c| c.as_deref() == Some(key.as_str()))
            && u.columns.iter().flatten().all(|c| wanted_set.contains(c.as_str()))
    });
    // On HTTP keys a partial index refuses a retry only while its condition
    // holds: after that the retry runs again, and nothing makes the key unique.
    if widest.is_none()
        && design.kind != Kind::Http
        && let Some(index) = partial_index
    {
        let cols: Vec<String> =
            index.columns.iter().map(|c| c.clone().unwrap_or_else(|| "(expression)".into())).collect();
        return Check::new(
            name,
            Verdict::Pass,
            format!(
                "{} (a partial unique index) makes {} unique while its condition holds: a second {} is refused \
                 while the first is in the states it names",
                index.name,
                list(&cols),
                design.kind.entry()
            ),
            "",
        );
    }
    match widest {
        Some(cols) if keys.scope.iter().all(|s| cols.contains(s)) && !keys.scope.is_empty() => Check::new(
            name,
            Verdict::Warn,
            format!(
                "unique {} leaves out the operation: the same key sent to another operation replays the \
                 first one's response",
                list(cols)
            ),
            fix_all,
        ),
        Some(cols) if keys.scope.is_empty() => Check::new(
            name,
            Verdict::Fail,
            format!(
                "unique {} has no scope: every caller shares one key space, so one caller's key can replay or \
                 collide with another's{digest_note}",
                list(cols)
            ),
            fix_all,
        ),
        Some(cols) => Check::new(
            name,
            Verdict::Fail,
            format!(
                "unique {} leaves out the scope: one caller's key can replay or collide with another's{digest_note}",
                list(cols)
            ),
            fix_all,
        ),
        None => {
            let wider: Vec<String> =
                candidates.iter().filter(|c| wanted.iter().all(|w| c.contains(w))).map(|c| list(c)).collect();
            let also = if wider.is_empty() {
                String::new()
            } else {
                format!(" ({} has other columns too, so it does not)", wider.join(", "))
            };
            Check::new(
                name,
                Verdict::Fail,
                format!(
                    "nothing makes {} unique{also}: {}{}",
                    list(&wanted),
                    match design.kind {
                        Kind::Http => "two concurrent requests with one key both insert, and both run".to_string(),
                        kind =>
                            format!("a {} sent twice with one id is stored twice, and both are handled", kind.entry()),
                    },
                    stored_twice(seen, design.kind)
                ),
                fix_all,
            )
        }
    }
}

fn fingerprint(table: &Table, given: Option<String>, design: Design) -> Result<Check> {
    let name = "fingerprint";
    Ok(match column(table, given, FINGERPRINT_NAMES, "--fingerprint-column")? {
        None if design.kind != Kind::Http => Check::new(
            name,
            Verdict::Pass,
            format!(
                "a {} id names one {}: a sender that reuses the id sends the same {}, so no fingerprint is needed",
                design.kind.entry(),
                design.kind.entry(),
                design.kind.entry()
            ),
            "",
        ),
        None if design.responses_upstream => Check::new(
            name,
            Verdict::Pass,
            "requests are checked against their key by the upstream service (as --responses-upstream declares)",
            "",
        ),
        None if design.scope_in_key => Check::new(
            name,
            Verdict::Pass,
            "the key is a digest of the request (as --scope-in-key declares): a different request makes a different key",
            "",
        ),
        Some(c) => Check::new(name, Verdict::Pass, format!("{c} stores the request's fingerprint"), ""),
        None => Check::new(
            name,
            Verdict::Warn,
            "no request fingerprint: a key reused with a different request gets the first request's response, \
             unnoticed",
            "store a hash of the request (method, path, body) and refuse a reuse whose hash differs (422); \
             map an existing column with --fingerprint-column",
        ),
    })
}

fn response(table: &Table, code: Option<String>, body: Option<String>, design: Design) -> Result<Check> {
    let name = "response";
    let code = column(table, code, RESPONSE_CODE_NAMES, "--response-code-column")?;
    let body = column(table, body, RESPONSE_BODY_NAMES, "--response-body-column")?;
    let fix = "store the response's status code and body with the key when the request finishes, and answer \
               retries with them; map existing columns with --response-code-column and --response-body-column";
    if design.kind != Kind::Http {
        // A deduplicated message or job is dropped, not answered.
        return Ok(Check::new(
            name,
            Verdict::Pass,
            format!("a {} seen twice is dropped, not answered: it needs no stored response", design.kind.entry()),
            "",
        ));
    }
    if code.is_none() && body.is_none() {
        if let Some(c) = table.find_column(RESULT_NAMES) {
            return Ok(Check::new(name, Verdict::Pass, format!("{} stores the whole result for retries", c.name), ""));
        }
        if let Some(c) = table.find_column(RESOURCE_NAMES) {
            return Ok(Check::new(
                name,
                Verdict::Pass,
                format!("{} references the created resource: a retry is answered by looking it up", c.name),
                "",
            ));
        }
        if design.responses_upstream {
            return Ok(Check::new(
                name,
                Verdict::Pass,
                "responses are kept by the upstream service (as --responses-upstream declares): a retry sent with \
                 the same key is answered there",
                "",
            ));
        }
    }
    Ok(match (code, body) {
        (Some(c), Some(b)) => {
            Check::new(name, Verdict::Pass, format!("{c} and {b} store the response for retries"), "")
        }
        (Some(c), None) => Check::new(
            name,
            Verdict::Warn,
            format!("{c} stores the status code but no column stores the body: a retry gets a different answer"),
            fix,
        ),
        (None, Some(b)) => Check::new(
            name,
            Verdict::Warn,
            format!("{b} stores the body but no column stores the status code: a retry gets a different answer"),
            fix,
        ),
        (None, None) => Check::new(
            name,
            Verdict::Fail,
            "no response is stored: a retry after success cannot be answered with the first response, \
             so the client sees an error or the request runs again",
            fix,
        ),
    })
}

async fn statuses(db: &mut Db, keys: &KeyTable, (mapped, kind): (bool, Kind), empty: bool) -> Result<Check> {
    let name = "statuses";
    let add = "add status: in_progress | succeeded | failed_retryable | failed_permanent";
    let Some(s) = keys.statuses.as_ref().filter(|_| mapped) else {
        return Ok(if keys.no_in_progress {
            Check::new(
                name,
                Verdict::Pass,
                "keys commit with their effect (as --no-in-progress declares): no key is ever in progress, and a \
                 failed request leaves no key behind",
                "",
            )
        } else if mapped && !keys.finished_if_set.is_empty() {
            Check::new(
                name,
                Verdict::Warn,
                format!(
                    "{}s' states are told by which columns are set: finished once {} is set; idemctl cannot \
                     check from the columns that a failure to be retried leaves it unset",
                    kind.entry(),
                    keys.finished_if_set.join(" or ")
                ),
                "check by hand that the design sets the finished columns only when it will not run the row again",
            )
        } else if mapped {
            Check::new(
                name,
                Verdict::Warn,
                format!(
                    "{}s in progress are told by a condition, and no status says whether a failed {} may be \
                     retried: idemctl cannot check that retryable and permanent failures are recorded apart",
                    kind.entry(),
                    if kind == Kind::Http { "request" } else { kind.entry() }
                ),
                "record failures as retryable or permanent (a status column), or check by hand that a permanent \
                 failure stores its response",
            )
        } else {
            Check::new(
                name,
                Verdict::Fail,
                "no status column and no --in-progress-when: nothing tells a key in progress from a finished one",
                add,
            )
        });
    };
    if s.retryable == s.permanent {
        return Ok(Check::new(
            name,
            Verdict::Fail,
            format!("retryable and permanent failures are both {:?}", s.retryable),
            "give the two failure kinds different values (--retryable-value, --permanent-value)",
        ));
    }
    let values = format!("{}, {}, {} and {}", s.in_progress, s.succeeded, s.retryable, s.permanent);
    if empty {
        return Ok(Check::new(
            name,
            Verdict::Warn,
            format!(
                "cannot tell: {} holds no {} yet, so the values of {} in use were not read (mapped: {values})",
                keys.table.name,
                kind.entries(),
                s.column
            ),
            "run doctor again once requests have created keys",
        ));
    }
    // Mapped values, and the finished and live states named besides them.
    let named: Vec<String> = s.finished(kind).into_iter().chain(s.live(kind)).collect();
    let known: Vec<&String> = s.mapped().into_iter().chain(&named).collect();
    let in_use = catalog::values_in_use(db, &keys.table, &s.column, STATUS_SAMPLE).await?;
    let mut unknown: Vec<String> = in_use.iter().filter(|v| !known.contains(v)).map(|v| format!("{v:?}")).collect();
    unknown.sort();
    let running = s.running();
    let only_two = in_use.iter().all(|v| running.contains(v) || v == &s.succeeded);
    if only_two && !keys.values_given.retryable && !keys.values_given.permanent {
        return Ok(Check::new(
            name,
            Verdict::Pass,
            format!(
                "{} holds only {} and {}: a failed request leaves no status behind, so its retry runs again",
                s.column, s.in_progress, s.succeeded
            ),
            "",
        ));
    }
    let mapped = s.mapped();
    let mut named_in_use: Vec<&String> = in_use.iter().filter(|v| !mapped.contains(v)).collect();
    named_in_use.sort();
    let named_in_use = match named_in_use.is_empty() {
        true => String::new(),
        false => format!(
            ", and the states named finished or live ({})",
            named_in_use.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
        ),
    };
    Ok(if unknown.is_empty() {
        Check::new(name, Verdict::Pass, format!("{} tells {values} apart{named_in_use}", s.column), "")
    } else {
        Check::new(
            name,
            Verdict::Warn,
            format!(
                "{} holds values outside the mapping ({values}): {}; where one value stands for every failure, \
                 retryable and permanent failures cannot be told apart",
                s.column,
                unknown.join(", ")
            ),
            "record failed_retryable and failed_permanent apart, or map the values in use with \
             --retryable-value / --permanent-value, and name the other states --finished-value or --live-value \
             (expire keeps a row past the horizon in a state neither names, and exits 1)",
        )
    })
}

async fn lock_time(db: &mut Db, keys: &KeyTable, empty: bool) -> Result<Check> {
    let name = "lock_time";
    // A lock column nothing ever sets (Medusa v1's) records nothing; an
    // empty table tells nothing of it.
    if keys.lease_until.is_none()
        && !empty
        && let (Some(l), false) = (&keys.locked_at, keys.no_in_progress)
        && catalog::values_in_use(db, &keys.table, l, STATUS_SAMPLE).await?.is_empty()
    {
        let from = keys.last_run.as_ref().or(keys.created_at.as_ref()).map_or("nothing", |c| c.as_str());
        return Ok(Check::new(
            name,
            Verdict::Warn,
            format!(
                "{l} is empty on every key sampled: nothing records when a request took a key, so a second \
                 request with it is not held off, and stuck keys are timed from {from}"
            ),
            format!("set {l} when a request takes the key, and refuse a retry while it is recent"),
        ));
    }
    Ok(lock_time_by_columns(keys))
}

fn lock_time_by_columns(keys: &KeyTable) -> Check {
    let name = "lock_time";
    let fix = "add locked_at, set each time a request takes the key; map an existing column with --locked-at-column";
    if keys.no_in_progress {
        return Check::new(
            name,
            Verdict::Pass,
            "no request holds a key: it commits with its effect (as --no-in-progress declares)",
            "",
        );
    }
    if let Some(holder) = &keys.holder {
        return Check::new(
            name,
            Verdict::Pass,
            format!(
                "a claim's age counts from its worker's heartbeat ({}.{}), and from {} once its worker is gone",
                holder.table.name,
                holder.heartbeat,
                keys.locked_at.as_deref().or(keys.created_at.as_deref()).unwrap_or("nothing")
            ),
            "",
        );
    }
    if let Some(beat) = &keys.heartbeat {
        return Check::new(name, Verdict::Pass, format!("{beat} is refreshed while a worker holds the key"), "");
    }
    if let (Some(length), Some(l)) = (&keys.lease_length, &keys.locked_at) {
        return Check::new(name, Verdict::Pass, format!("{l} plus each row's {length} is its lease's deadline"), "");
    }
    match (&keys.lease_until, &keys.locked_at, &keys.last_run, &keys.created_at) {
        (Some(d), _, _, _) => {
            Check::new(name, Verdict::Pass, format!("{d} holds each lease's deadline: a stuck key is found by it"), "")
        }
        (None, Some(l), _, _) => {
            Check::new(name, Verdict::Pass, format!("{l} records when a request took the key"), "")
        }
        (None, None, Some(r), _) => Check::new(
            name,
            Verdict::Pass,
            format!(
                "{r} records each attempt: a key in progress that no live transaction holds counts as abandoned \
                 once its last attempt is older than its maximum duration"
            ),
            "",
        ),
        (None, None, None, Some(c)) => Check::new(
            name,
            Verdict::Warn,
            format!(
                "no lock-time column: stuck keys are timed from {c}, so a key taken again by a retry looks older \
                 than it is"
            ),
            fix,
        ),
        (None, None, None, None) => Check::new(
            name,
            Verdict::Fail,
            "no lock-time or created-at column: keys left in progress by a crash cannot be found by age, and \
             block their retries for good",
            fix,
        ),
    }
}

/// `indexes` are the key table's.
fn expiry_index(db: &Db, keys: &KeyTable, indexes: &[Index], kind: Kind) -> Check {
    let name = "expiry_index";
    let Some(column) = keys.expires_at.as_ref().or(keys.created_at.as_ref()) else {
        let times: Vec<&str> = keys.table.columns.iter().filter(|c| c.is_temporal()).map(|c| c.name.as_str()).collect();
        if kind != Kind::Http {
            // Such designs purge by a time of their own (when a message was
            // delivered, a job finalized): idemctl cannot tell which.
            return Check::new(
                name,
                Verdict::Warn,
                format!(
                    "no expires_at or created_at column is mapped: idemctl cannot tell when a {} may go (its time \
                     columns: {})",
                    kind.entry(),
                    if times.is_empty() { "none".to_string() } else { times.join(", ") }
                ),
                "map the time this design purges by with --created-at-column (with --older-than) or \
                 --expires-at-column, so that expire and the backlog check can use it",
            );
        }
        return Check::new(
            name,
            Verdict::Warn,
            "no expires_at or created_at column: nothing says when a key may go, and the table grows for good",
            "add expires_at (or created_at with a [retention] horizon) and index it",
        );
    };
    let rowid = keys.table.is_rowid(column);
    match indexes.iter().find(|i| i.first_column.as_deref() == Some(column.as_str())) {
        Some(i) => Check::new(
            name,
            Verdict::Pass,
            format!(
                "{column} leads index {}{}: expire finds old keys without reading the table",
                i.name,
                if i.partial { " (partial)" } else { "" }
            ),
            "",
        ),
        None if rowid => Check::new(name, Verdict::Pass, format!("{column} is the rowid"), ""),
        None => Check::new(
            name,
            Verdict::Warn,
            format!("no index starts with {column}: expire and the backlog count read the whole table"),
            {
                let dialect = db.dialect();
                let index = dialect.ident(&format!("{}_{column}", keys.table.name));
                format!("CREATE INDEX {index} ON {} {}", keys.table.sql_name(&dialect), sql_list(&dialect, &[column]))
            },
        ),
    }
}

async fn backlog(
    db: &mut Db,
    keys: &mut KeyTable,
    (horizon, kind): (Option<Duration>, Kind),
    grace: Duration,
) -> Result<Check> {
    let name = "backlog";
    if (horizon.is_none() && keys.expires_at.is_none()) || (horizon.is_some() && keys.created_at.is_none()) {
        return Ok(match kind {
            Kind::Http => Check::new(
                name,
                Verdict::Warn,
                "no expires_at column and no [retention] horizon with a created_at column: keys are never due to go",
                "add expires_at, or set [retention] horizon in the config file",
            ),
            // Such rows may go by the design's own hand (a claim deleted when
            // its job ends, a message purged by its delivery time).
            kind => Check::new(
                name,
                Verdict::Warn,
                format!(
                    "no expiry time or retention horizon is mapped: idemctl cannot tell when a {} is due to go",
                    kind.entry()
                ),
                "map the time this design purges by (--expires-at-column, or --created-at-column with --older-than)",
            ),
        });
    }
    let now = timeparse::now();
    let expiry = Expiry::resolve(db, keys, horizon, now).await?;
    // Most values no time: the count below would judge too few rows to pass.
    if let Some(why) = crate::commands::unreadable_not_judged(&keys.table.name, &expiry.time) {
        return Ok(Check::new(
            name,
            Verdict::Warn,
            format!("cannot tell: {}", why.trim_start_matches("not clean: ")),
            format!("store {} as a time (or map the column that holds one)", expiry.column),
        ));
    }
    let dialect = db.dialect();
    let before = crate::timeparse::before(expiry.cutoff, grace, "--backlog-grace")?;
    let (expired, binds) = expiry.condition(&dialect, keys, None, None, before)?;
    let n = expiry::count_matching(db, &keys.table.sql_name(&dialect), &expired, &binds, Some(BACKLOG_CAP)).await?;
    let by = match horizon {
        Some(h) => format!("{} older than {}", expiry.column, timeparse::short(h)),
        None => format!("{} passed", expiry.column),
    };
    let grace = timeparse::short(grace);
    Ok(if n == 0 {
        Check::new(name, Verdict::Pass, format!("no key waits more than {grace} past its expiry ({by})"), "")
    } else {
        let count =
            if n > BACKLOG_CAP { format!("at least {}", units::grouped(BACKLOG_CAP)) } else { units::grouped(n) };
        Check::new(
            name,
            Verdict::Warn,
            format!("{count} keys expired more than {grace} ago ({by}) and are still there: is expire running?"),
            "run idemctl expire on a schedule (cron, every few minutes); idemctl size shows the backlog",
        )
    })
}

/// Keys live for less than this: a client retrying later than that runs its request twice.
const SHORTEST_LIFETIME: Duration = Duration::from_secs(24 * 3600);

/// How long keys are kept: the retention horizon, or their lifetime
/// (`expires_at - created_at`, the shortest in a sample). Shorter than a day,
/// a client retrying later runs its request twice. No check where neither
/// can be told.
async fn lifetime(db: &mut Db, keys: &mut KeyTable, horizon: Option<Duration>) -> Result<Option<Check>> {
    let name = "lifetime";
    let fix = "keep keys for at least the clients' retry horizon, 24 hours or more";
    let shortest = match (horizon, &keys.expires_at, &keys.created_at) {
        (Some(h), _, _) => Some((h, "the retention horizon".to_string())),
        (None, Some(expires), Some(created)) => {
            let (expires, created) = (expires.clone(), created.clone());
            keys.read_times(db, &[Some(expires.clone()), Some(created.clone())]).await?;
            let dialect = db.dialect();
            let micros = |c: &str| keys.time(c).map(|t| dialect.epoch_micros(&dialect.ident(c), t.repr));
            let (Some(e), Some(c)) = (micros(&expires), micros(&created)) else { return Ok(None) };
            let shortest = catalog::shortest_difference(db, &keys.table, &e, &c, 10_000).await?;
            shortest.map(|us| (Duration::from_micros(us.max(0) as u64), format!("{expires} - {created}")))
        }
        _ => None,
    };
    let Some((lifetime, by)) = shortest else { return Ok(None) };
    let shown = crate::timeparse::span(Duration::from_secs((lifetime.as_millis() as u64 + 500) / 1000));
    Ok(Some(if lifetime < SHORTEST_LIFETIME {
        Check::new(
            name,
            Verdict::Warn,
            format!("keys live {shown} ({by}): a client that retries later than that runs its request twice"),
            fix,
        )
    } else {
        Check::new(name, Verdict::Pass, format!("keys live {shown} at least ({by})"), "")
    }))
}

async fn stuck_now(
    db: &mut Db,
    keys: &KeyTable,
    (mapped, kind): (bool, Kind),
    durations: &Durations,
    probe: &crate::db::Target,
) -> Result<Check> {
    let name = "stuck";
    if keys.no_in_progress {
        return Ok(Check::new(
            name,
            Verdict::Pass,
            "keys commit with their effect (as --no-in-progress declares): none can be left in progress",
            "",
        ));
    }
    if !mapped || keys.state_times(&db.dialect()).is_err() {
        return Ok(Check::new(
            name,
            Verdict::Warn,
            "cannot tell: the statuses or the lock time are missing (see above)",
            "fix the statuses and lock_time checks",
        ));
    }
    let found = stuck::find_held_apart(db, keys, durations, probe).await?;
    let Some(oldest) = found.keys.first() else {
        // Keys in progress with no time to judge them by: not judged, so no pass.
        if let Some(why) = crate::commands::untimed_not_judged(keys, found.untimed) {
            return Ok(Check::new(
                name,
                Verdict::Warn,
                format!("cannot tell: {}", why.trim_start_matches("not clean: ")),
                stuck::untimed_note(keys, found.untimed),
            ));
        }
        return Ok(Check::new(name, Verdict::Pass, "no key is in progress past its operation's maximum duration", ""));
    };
    let n = found.keys.len();
    if kind != Kind::Http {
        let entry = kind.entry();
        return Ok(Check::new(
            name,
            Verdict::Warn,
            format!(
                "{} in progress past the limit (the oldest since {}): the design's own rescuer should take {} up \
                 again; if none does, nothing will",
                if n == 1 {
                    format!("1 {entry} is")
                } else {
                    format!("{} {entry}s are", crate::units::grouped(n as u64))
                },
                oldest.since,
                if n == 1 { "it" } else { "them" }
            ),
            "idemctl stuck lists them; idemctl reap --dry-run=rollback, then reap, resolves them as the design's rescuer \
             would (--set, --attempts-column)",
        ));
    }
    Ok(match keys.on_expired_lease {
        OnExpiredLease::Conflict => Check::new(
            name,
            Verdict::Fail,
            format!(
                "{} stuck in progress (the oldest since {}): their retries get a conflict until released",
                if n == 1 { "1 key is".to_string() } else { format!("{} keys are", crate::units::grouped(n as u64)) },
                oldest.since
            ),
            "idemctl stuck lists them; idemctl reap --dry-run, then reap, releases them",
        ),
        OnExpiredLease::Takeover => Check::new(
            name,
            Verdict::Warn,
            format!(
                "{} left in progress (the oldest since {}): the next retry of each takes it over, but {}",
                if n == 1 { "1 key was".to_string() } else { format!("{} keys were", crate::units::grouped(n as u64)) },
                oldest.since,
                match kind {
                    // The inbox row commits with the consumer's effect: a
                    // crash rolls both back, and the redelivery finds neither.
                    Kind::Inbox => "a consumer that stopped rolled its effect back with its transaction",
                    _ => "the request that held it stopped where it was, and may have left its effect half done",
                }
            ),
            "idemctl stuck lists them: check their effects, or let the design's own recovery finish them",
        ),
    })
}

/// The columns a unique constraint to add could hold, by their names: who
/// sent the request (customer, account, user, tenant), then the references
/// the client sends with it, each a whole word of the name (`client_ref`,
/// `external_id`, not `preferences`); never one each write mints.
fn fix_candidates<'t>(table: &'t Table, minted: &[String]) -> (Option<&'t str>, Vec<&'t str>) {
    let free: Vec<&str> = table
        .columns
        .iter()
        .map(|c| c.name.as_str())
        .filter(|c| !table.mints(c) && !minted.iter().any(|m| m == c))
        .collect();
    let lower = |c: &&str| c.to_ascii_lowercase();
    let who = free.iter().copied().find(|c| {
        let c = lower(c);
        ["customer", "account", "user", "tenant", "organization", "org", "merchant", "client"]
            .iter()
            .any(|w| c == format!("{w}_id") || c == format!("{w}id"))
    });
    let references = free
        .iter()
        .copied()
        .filter(|c| {
            let c = lower(c);
            let words: Vec<&str> = c.split(|ch: char| !ch.is_ascii_alphanumeric()).collect();
            ["reference", "ref", "external", "idempotency", "token", "nonce"].iter().any(|w| words.contains(w))
                || ["request_id", "requestid", "client_ref", "clientref"].iter().any(|w| c.contains(w))
        })
        .filter(|c| Some(*c) != who)
        .collect();
    (who, references)
}

/// Whether a unique index over `columns` builds once scan's `extra` rows are
/// gone, and would have refused them: the rows beyond the first of each set
/// of equal values (NULLs left out, as a unique index leaves them) are as
/// many as those. Fewer, and some retry differs (or is NULL) there, so the
/// index would let it through; more, and it would refuse rows that are no
/// retry, and does not build.
async fn builds(db: &mut Db, table: &Table, dialect: &Dialect, columns: &[&str], extra: u64) -> Result<bool> {
    let list: Vec<String> = columns.iter().map(|c| dialect.ident(c)).collect();
    let set: Vec<String> = list.iter().map(|c| format!("{c} IS NOT NULL")).collect();
    // As text on every engine (MySQL's SUM is a DECIMAL).
    let sql = format!(
        "SELECT {} FROM (SELECT COUNT(*) AS n FROM {} WHERE {} GROUP BY {} HAVING COUNT(*) > 1) d",
        dialect.text("COALESCE(SUM(n - 1), 0)"),
        table.sql_name(dialect),
        set.join(" AND "),
        list.join(", ")
    );
    let surplus = db.query_value(&sql, &[]).await?.and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    Ok(surplus == extra as f64)
}

/// The unique constraint to add, on the table's own columns where it has
/// them (`who` and a `reference` an index over which builds), else on a
/// reference column to add.
fn unique_fix(table: &Table, dialect: &Dialect, who: Option<&str>, reference: Option<&str>) -> String {
    // A nullable reference leaves the rows without one unprotected. The
    // SQL comes last, after the only ": ", so that it runs as printed.
    let nullable = reference.filter(|r| table.column(r).is_ok_and(|c| !c.not_null)).map(|r| {
        format!(
            " ({r} is nullable and a unique index lets NULLs repeat, so rows without one stay unprotected until it \
             is made NOT NULL)"
        )
    });
    let nullable = nullable.unwrap_or_default();
    match (who, reference) {
        (Some(who), Some(reference)) => format!(
            "add a unique constraint on what makes a request's row itself{nullable}: {}",
            unique_index_sql(dialect, table, &[who, reference])
        ),
        (None, Some(reference)) => format!(
            "add a unique constraint on the reference the client sends{nullable}: {}",
            unique_index_sql(dialect, table, &[reference])
        ),
        (Some(who), None) => format!(
            "add a column for the reference the client sends with each request (NULL on the rows there are, which a \
             unique index lets repeat), and a unique constraint on it with {who}: {}; {}",
            add_reference_sql(dialect, table),
            unique_index_sql(dialect, table, &[who, new_reference(table)])
        ),
        (None, None) => format!(
            "add a column for the reference the client sends with each request, unique across clients (a uuid the \
             client mints once per request; NULL on the rows there are, which a unique index lets repeat), and a \
             unique constraint on it: {}; {}",
            add_reference_sql(dialect, table),
            unique_index_sql(dialect, table, &[new_reference(table)])
        ),
    }
}

/// What a scan of a creation table found, as doctor judges its unique
/// constraints by: the extra rows retries left, and the columns the scan
/// found minted per attempt.
struct Scanned {
    rows: u64,
    extra_rows: u64,
    /// Columns left out because each write mints its own value.
    minted: Vec<String>,
}

/// Scans a creation table as `idemctl scan --table` would (its config file
/// section too), reading the report itself.
async fn scan_creation(args: &DoctorArgs, table: &Table, db_has_schemas: bool) -> Result<Scanned> {
    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        scan: crate::commands::scan::ScanArgs,
    }
    let name = match db_has_schemas {
        true => format!("{}.{}", table.schema, table.name),
        false => table.name.clone(),
    };
    let mut scan = <Line as clap::Parser>::try_parse_from(["scan", "--table", &name])?.scan;
    scan.connect = args.connect.clone();
    scan.config = args.mapping.config.clone();
    scan.report = crate::report::Output { format: crate::report::Format::Json, quiet: true, ..Default::default() };
    let out = SharedBuf::default();
    let report = out.clone();
    crate::commands::scan::run_into(scan, move |a| Emitter::own(&a.report, report, a.rows_key())).await?;
    let doc: serde_json::Value =
        serde_json::from_slice(&out.0.lock().map_err(|_| anyhow::anyhow!("scan report lost"))?)?;
    let number = |k: &str| doc[k].as_u64().unwrap_or(0);
    let minted = doc["excluded_columns"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| matches!(e["rule"].as_str(), Some("unique-alone" | "minted-per-attempt" | "default-mints")))
        .filter_map(|e| e["column"].as_str().map(str::to_string))
        .collect();
    Ok(Scanned { rows: number("rows_scanned"), extra_rows: number("extra_rows"), minted })
}

/// A buffer a scan's report is written into, read once the scan is done.
#[derive(Clone, Default)]
struct SharedBuf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A creation table's unique constraint judged by what it refuses in the
/// data: one that scan's extra rows got past refuses no retry (a value
/// each attempt mints, or NULL, which a unique index lets repeat).
async fn natural_unique(db: &mut Db, args: &DoctorArgs, table: &Table, dialect: &Dialect) -> Result<Check> {
    let name = format!("creation:{}", table.name);
    let minted = |col: &str| table.mints(col);
    let natural: Vec<Vec<String>> =
        unique_sets(table, &[]).into_iter().filter(|cols| cols.iter().all(|c| !minted(c))).collect();
    let scanned = match scan_creation(args, table, dialect.has_schemas()).await {
        Ok(scanned) => scanned,
        Err(err) if crate::interrupt::is_set() => return Err(err),
        Err(err) => {
            return Ok(Check::new(
                &name,
                Verdict::Warn,
                format!(
                    "scan could not read the table, so what its constraints refuse is unknown: {}",
                    crate::exit::one_line(&err)
                ),
                format!("idemctl scan --table {}", table.name),
            ));
        }
    };
    let extra = scanned.extra_rows;
    // The fix's constraint, on columns an index over which builds as the
    // data stands once scan's extra rows are gone, and would have refused them.
    let (who, references) = fix_candidates(table, &scanned.minted);
    let mut reference = None;
    for r in references {
        let columns: Vec<&str> = who.into_iter().chain([r]).collect();
        if builds(db, table, dialect, &columns, extra).await? {
            reference = Some(r);
            break;
        }
    }
    let fix = unique_fix(table, dialect, who, reference);
    let steps = |constraint: String| match extra {
        0 => constraint,
        n => format!(
            "first remove the {n} extra rows scan lists (idemctl scan --table {} --output rows), over which a unique \
             index may fail to build, then {constraint}",
            table.name
        ),
    };
    let Some(cols) = natural.first() else {
        let found = match extra {
            0 => String::new(),
            n => format!("; scan finds {n} extra rows in {} rows", scanned.rows),
        };
        return Ok(Check::new(
            &name,
            Verdict::Fail,
            format!(
                "no unique constraint besides the minted primary key: a retry that arrives after its key expired \
                 (or bypasses the key table) creates a second row{found}"
            ),
            steps(fix.clone()),
        ));
    };
    if scanned.rows == 0 {
        return Ok(Check::new(
            &name,
            Verdict::Warn,
            format!(
                "unique {} would refuse a second row, but the table has no rows for scan to check what it refuses",
                list(cols)
            ),
            format!("run doctor again once requests have created rows in {}", table.name),
        ));
    }
    if extra == 0 {
        return Ok(Check::new(
            &name,
            Verdict::Pass,
            format!(
                "unique {} refuses a second row, even once the key has expired; scan finds no extra rows in {} rows",
                list(cols),
                scanned.rows
            ),
            "",
        ));
    }
    // Why the constraint let the retries through, column by column.
    let mut why = Vec::new();
    for col in cols {
        if scanned.minted.contains(col) {
            why.push(format!("{col} is minted per attempt (each retry writes its own)"));
            continue;
        }
        let sql = format!("SELECT COUNT(*) FROM {} WHERE {} IS NULL", table.sql_name(dialect), dialect.ident(col));
        let nulls: u64 = db.query_value(&sql, &[]).await?.and_then(|v| v.parse().ok()).unwrap_or(0);
        if nulls > 0 {
            why.push(format!("{col} is NULL on {nulls} of {} rows (a unique index lets NULLs repeat)", scanned.rows));
        }
    }
    if why.is_empty() {
        why.push("the retries' rows differ on it".to_string());
    }
    Ok(Check::new(
        &name,
        Verdict::Fail,
        format!("unique {} would have refused 0 of the {extra} extra rows scan finds: {}", list(cols), why.join("; ")),
        steps(fix.clone()),
    ))
}

impl crate::commands::Definition for DoctorArgs {
    fn name(&self) -> &'static str {
        "doctor"
    }
    fn rows_key(&self) -> &'static str {
        "checks"
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
        let _ = key;
        crate::commands::Fold::Sum
    }
    crate::commands::on_a_key_table!(DoctorArgs);
    fn run(self: Box<Self>) -> futures_util::future::BoxFuture<'static, Result<Outcome>> {
        Box::pin(crate::commands::abortable(run(*self)))
    }
}
