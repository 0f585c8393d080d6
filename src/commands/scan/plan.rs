//! What a scan compares, as far as the catalog and a bounded look at the
//! first rows tell, before the pass: the row id, the created-at and key
//! columns, and every other column compared or left out with its reason.
//! The pass itself may leave out more, or put a column back (`columns.rs`).

use anyhow::{Context, Result, bail};
use serde::Serialize;

use super::ScanArgs;
use crate::db::catalog::{Column, Table};
use crate::db::dialect::TimeRepr;
use crate::db::scan::ScanSource;
use crate::db::times::{self, TimeColumn};
use crate::db::{Db, user_sql};
use crate::timeparse::{TimeUnit, TimeUnitArg};

/// Usual names of a creation-time column, in order of preference (compared
/// without case, so `createdAt` is `createdat`).
pub const CREATED_AT_NAMES: &[&str] = &[
    "created_at",
    "inserted_at",
    "created",
    "created_on",
    "created_date",
    "creation_time",
    "creation_date",
    "created_time",
    "create_time",
    "create_date",
    "createdat",
    "createddate",
    "createdon",
    "date_created",
    "datecreated",
    "time_created",
    "created_datetime",
    "created_timestamp",
    "creation_timestamp",
    "inserted",
    "insert_time",
    "inserted_on",
    "insertion_time",
    "create_at",
    "createat",
    "created_ts",
    "creation_ts",
    "insert_date",
    // A message's creation is its sending.
    "date_sent",
    "sent_at",
];

/// Names of the time an ORM stamps on every write (Rails, Django, Prisma,
/// Hibernate, Sequelize and others set it per row, with no database default):
/// a retry writes its own, so it is never compared.
pub const UPDATE_TIME_NAMES: &[&str] = &[
    "updated_at",
    "modified_at",
    "updated",
    "modified",
    "updated_on",
    "modified_on",
    "updated_date",
    "modified_date",
    "updated_time",
    "update_time",
    "update_date",
    "updatedat",
    "modifiedat",
    "updatedon",
    "updateddate",
    "last_modified",
    "last_modified_at",
    "last_modified_date",
    "lastmodified",
    "last_updated",
    "last_updated_at",
    "lastupdated",
    "date_modified",
    "date_updated",
    "datemodified",
    "modification_time",
    "modification_date",
    "changed_at",
    "mtime",
    "update_at",
    "updateat",
    "last_update",
    "last_update_at",
    "lastupdate",
    "last_updated_time",
];

/// Names applications give a reference the client supplies once per intent:
/// chosen when no key of `KEY_NAMES` exists, preferring one a unique index
/// holds (alone or with its scope).
const REFERENCE_NAMES: &[&str] = &[
    "transaction_external_key",
    "external_key",
    "client_reference",
    "client_ref",
    "client_token",
    "client_request_id",
    "request_key",
    "external_reference",
    "external_id",
    "transaction_id",
];

/// Names of a currency column, for sums per currency.
const CURRENCY_NAMES: &[&str] = &["currency", "currency_code", "currency_iso", "iso_currency", "currency_iso_code"];

/// How a column's values look, for telling minted values from payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    Integer,
    Uuid,
    Text,
    Time,
    Other,
}

/// A column whose hash the scan carries: compared, or left out but watched.
#[derive(Debug, Clone)]
pub struct Carried {
    pub name: String,
    pub kind: ValueKind,
    /// A unique index holding this column with compared columns only: two
    /// rows equal on those can never share a value of this one.
    pub unique_with: Option<String>,
}

/// Why a column is left out of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    RowId,
    PrimaryKey,
    CreatedAt,
    KeyColumn,
    Ignored,
    NotInColumns,
    UniqueAlone,
    DefaultMints,
    UpdateTime,
    MovesWithCreation,
    Counter,
    MintedPerAttempt,
    RewrittenOriginal,
    ChangedAfterCreation,
    CannotCompare,
}

#[derive(Debug, Clone, Serialize)]
pub struct Exclusion {
    pub column: String,
    pub rule: Rule,
    pub reason: String,
}

/// Which key column was chosen and why, and the key-looking ones that were not.
#[derive(Debug, Clone, Default)]
pub struct KeyChoice {
    pub reason: String,
    pub not_chosen: Vec<String>,
}

/// What to compare and how, resolved against the catalog.
#[derive(Debug)]
pub struct Plan {
    pub table: Table,
    pub id: String,
    pub repr: TimeRepr,
    /// The created-at column as read: its unit, and the values it leaves out.
    pub time: TimeColumn,
    pub key: Option<String>,
    pub key_choice: KeyChoice,
    /// The columns whose hashes the scan carries, in the order it reads them.
    pub carried: Vec<Carried>,
    /// Which of them are compared now.
    pub compared: Vec<bool>,
    pub excluded: Vec<Exclusion>,
    /// Notes on what the data decided (a column put back, evidence too weak).
    pub decided: Vec<String>,
    /// The ORM's update time, when the table has one: tells a retry that
    /// rewrote the row it repeats.
    pub update_time: Option<String>,
    /// `--columns` named what to compare: the data decides nothing.
    pub fixed: bool,
    /// The table's currency column: `--currency-column`, or found by name.
    pub currency: Option<String>,
    pub currency_given: bool,
    /// The carried columns' names, as the database layer reads them.
    carried_names: Vec<String>,
    /// A column the retries' create path rewrote in the rows they repeat,
    /// and the value it wrote (`RewrittenOriginal`).
    pub rewritten: Option<(String, Option<String>)>,
    /// Which row of each cluster stays.
    pub keep: super::Keep,
    /// Which carried columns vary at all among the first rows, and their
    /// distinct values there, estimated.
    pub informative: Vec<bool>,
    pub distinct: Vec<f64>,
    /// Which carried columns are nearly unique (a value per row, nine rows
    /// in ten): two rows of a window sharing a value of one (compared) are
    /// one thing twice however much else differs (`Detector::identity`).
    pub identity: Vec<bool>,
    /// Which carried columns hold written text: two rows that differ in one
    /// are other messages, never a near miss.
    pub prose: Vec<bool>,
    /// Which hold what people write (most values their own, differences
    /// not tokens): never suggested to leave out.
    pub written: Vec<bool>,
    /// The compared column naming who wrote each row (a user, a customer):
    /// their other rows between two equal ones are evidence of a new intent.
    pub actor: Option<String>,
    /// The created-at column keeps fractions of a second (seen in the first rows).
    pub subsecond: bool,
    /// Every created-at time of the first rows is on the minute.
    pub whole_minutes: bool,
    /// The child tables whose rows each cluster's members are compared on.
    pub children: Vec<super::children::Link>,
    /// Columns left out as minted per attempt that kept every near miss
    /// apart: two rows sharing a value of one were written by one request.
    pub minted_anew: Vec<String>,
}

impl Plan {
    /// A plan over `table` (id `id`, created at `created_at`, a native
    /// timestamp) carrying `carried`, every one compared, nothing decided
    /// yet: for the unit tests of what the data decides.
    #[cfg(test)]
    pub fn of(table: Table, created_at: &str, carried: Vec<Carried>) -> Plan {
        let repr = TimeRepr::Native { with_zone: true };
        Plan {
            id: "id".into(),
            repr,
            time: TimeColumn { name: created_at.into(), repr, census: None },
            key: None,
            key_choice: KeyChoice::default(),
            carried_names: carried.iter().map(|c| c.name.clone()).collect(),
            compared: vec![true; carried.len()],
            carried,
            excluded: Vec::new(),
            decided: Vec::new(),
            update_time: None,
            fixed: false,
            currency: None,
            currency_given: false,
            rewritten: None,
            keep: super::Keep::First,
            informative: Vec::new(),
            distinct: Vec::new(),
            identity: Vec::new(),
            prose: Vec::new(),
            written: Vec::new(),
            actor: None,
            subsecond: true,
            whole_minutes: false,
            children: Vec::new(),
            minted_anew: Vec::new(),
            table,
        }
    }
}

impl Plan {
    /// What the database layer reads: every carried column's hash.
    pub fn source(&self) -> ScanSource<'_> {
        ScanSource { table: &self.table, id: &self.id, created_at: &self.time, compared: &self.carried_names }
    }

    /// The compared columns' names, in carried order.
    pub fn compared_names(&self) -> Vec<String> {
        self.carried.iter().zip(&self.compared).filter(|(_, on)| **on).map(|(c, _)| c.name.clone()).collect()
    }

    /// How many compared columns may differ in a near miss.
    pub fn max_differing(&self) -> usize {
        let informative = (0..self.carried.len())
            .filter(|&i| self.compared[i] && self.informative.get(i).copied().unwrap_or(true))
            .count();
        crate::nearmiss::max_differing(informative)
    }

    /// The nearly unique columns still compared (`identity`).
    pub fn identity_compared(&self) -> Vec<bool> {
        (0..self.carried.len()).map(|i| self.compared[i] && self.identity.get(i).copied().unwrap_or(false)).collect()
    }

    /// Indices of the compared columns among the carried ones.
    pub fn compared_ix(&self) -> Vec<usize> {
        (0..self.carried.len()).filter(|&i| self.compared[i]).collect()
    }

    /// Leaves a carried column out, with its rule and reason.
    pub fn exclude(&mut self, i: usize, rule: Rule, reason: String) {
        self.compared[i] = false;
        self.excluded.retain(|e| e.column != self.carried[i].name);
        self.excluded.push(Exclusion { column: self.carried[i].name.clone(), rule, reason });
    }

    /// Compares a carried column that was left out, saying why.
    pub fn put_back(&mut self, i: usize, why: String) {
        self.compared[i] = true;
        self.excluded.retain(|e| e.column != self.carried[i].name);
        self.decided.push(why);
    }

    /// Which row each cluster keeps: `--keep`, else the row a retry did not
    /// rewrite where the data showed a rewrite, else the first.
    pub fn choose_keep(&mut self, given: Option<super::Keep>) {
        self.keep = match (given, &self.rewritten) {
            (Some(keep), _) => keep,
            (None, Some((column, value))) => match self.watched().iter().position(|w| w == column) {
                Some(watched) => {
                    self.decided.push(format!(
                        "each cluster keeps its first row whose {column} is not {}: the retries' create rewrote \
                         the rows they repeat (--keep first keeps those)",
                        value.as_deref().map_or("NULL".to_string(), |v| format!("{v:?}"))
                    ));
                    super::Keep::NotRewritten { watched, column: column.clone(), value: value.clone() }
                }
                None => super::Keep::First,
            },
            (None, None) => super::Keep::First,
        };
    }

    /// Columns the confirming lookup reads to show how rows of a cluster
    /// differ where they are not compared: left out for a reason a person
    /// should see (a state, a rewritten value), not ids and times that
    /// differ in every row by nature.
    pub fn watched(&self) -> Vec<String> {
        self.excluded
            .iter()
            .filter(|e| {
                matches!(
                    e.rule,
                    Rule::Ignored
                        | Rule::NotInColumns
                        | Rule::MintedPerAttempt
                        | Rule::RewrittenOriginal
                        | Rule::ChangedAfterCreation
                )
            })
            .filter(|e| self.table.column(&e.column).is_ok_and(|c| !c.is_temporal()))
            .map(|e| e.column.clone())
            .collect()
    }
}

/// Words of a column the application changes after the row is created: its
/// state, who works on it, how far it got, when it was finished. A retry
/// copies the request, not what happened to the original afterwards.
const LATER_WORDS: &[&str] = &[
    "status",
    "state",
    "stage",
    "phase",
    "assignee",
    "assigned",
    "progress",
    "done_ratio",
    "percent",
    "closed",
    "completed",
    "finished",
    "resolved",
    "archived",
    "close_at",
    "closed_at",
    "captured",
    "settled",
    "paid_at",
    "starred",
    "pinned",
    "read_at",
    "seen",
    // Soft deletes: people remove the copy a retry left, or the original.
    "deleted",
    "discarded",
    "trashed",
];

/// Words of a column naming who wrote a row, in order of preference.
const ACTOR_WORDS: &[&str] = &[
    "user",
    "author",
    "creator",
    "poster",
    "sender",
    "owner",
    "customer",
    "client",
    "member",
    "account",
    "requester",
    "reporter",
    "buyer",
    "partner",
    "person",
    "profile",
    "contact",
];

impl Plan {
    /// Leaves out the compared columns that the application changes after
    /// the row is created (by their name, a state or a finishing time, and
    /// never one the data already decided on), each named as such: they are
    /// watched, so that a cluster shows how its rows moved on.
    pub fn leave_out_later_changes(&mut self) {
        if self.fixed {
            return;
        }
        for i in 0..self.carried.len() {
            if !self.compared[i] || self.written.get(i).copied().unwrap_or(false) {
                continue;
            }
            let name = self.carried[i].name.to_lowercase();
            let words: Vec<&str> = name.split(|c: char| !c.is_ascii_alphanumeric()).collect();
            let camel = split_camel(&self.carried[i].name);
            let later = LATER_WORDS
                .iter()
                .any(|w| words.contains(w) || camel.iter().any(|c| c == w) || (w.contains('_') && name.contains(w)));
            if later {
                let reason = "changed after creation: a state the row moves through later (a retry copies the \
                              request, not what happened to the original afterwards)"
                    .to_string();
                self.exclude(i, Rule::ChangedAfterCreation, reason);
            } else if last_changed_by(&self.carried[i].name) {
                let reason = "changed after creation: who last changed the row, set again by every update (a retry \
                              copies the request, not who worked on the row afterwards)"
                    .to_string();
                self.exclude(i, Rule::ChangedAfterCreation, reason);
            }
        }
    }

    /// The actor: `--by` where it is compared, else a compared reference
    /// whose name says who wrote the row (`user_id`, `author_id`).
    pub fn choose_actor(&mut self, by: Option<&str>) {
        let compared = self.compared_names();
        if let Some(by) = by.filter(|b| compared.iter().any(|c| c == b)) {
            self.actor = Some(by.to_string());
            return;
        }
        let reference = |name: &str| refers_to_a_row(name, self.table.column(name).is_ok_and(|c| c.foreign));
        self.actor = ACTOR_WORDS
            .iter()
            .find_map(|w| compared.iter().find(|c| reference(c) && split_camel(c).iter().any(|p| p == w)).cloned())
            .or_else(|| compared.iter().find(|c| reference(c) && says_who_did(c)).cloned());
    }

    /// The actor column's place among the carried ones.
    pub fn actor_ix(&self) -> Option<usize> {
        let actor = self.actor.as_deref()?;
        self.carried.iter().position(|c| c.name == actor)
    }
}

/// Whether a column's name says it refers to who wrote the row (`user_id`,
/// `authorId`, `created_by`).
/// Whether a column is a number that can grow after its row's creation (a
/// quantity, a count, a progress figure): numeric, and no reference to
/// another row or to who wrote it (a foreign key, `..._id`, `..._by`,
/// `fk_...`, `user`, `owner`).
pub fn can_grow(column: &Column) -> bool {
    let t = column.base_type.to_lowercase();
    let lower = column.name.to_lowercase();
    let words = split_camel(&column.name);
    let numeric =
        column.is_integer() || ["numeric", "decimal", "float", "double", "real"].iter().any(|w| t.contains(w));
    numeric
        && !refers_to_a_row(&column.name, column.foreign)
        && !lower.starts_with("fk_")
        && !words.iter().any(|w| ACTOR_WORDS.contains(&w.as_str()))
}

/// Whether a column refers to another row by its nature or its name: a
/// foreign key, `..._id`, `..._by`.
fn refers_to_a_row(name: &str, foreign: bool) -> bool {
    let lower = name.to_lowercase();
    foreign || lower.ends_with("id") || lower.ends_with("_by")
}

pub fn names_a_person(name: &str) -> bool {
    let words = split_camel(name);
    let reference = words.last().is_some_and(|w| w == "id" || w == "by") || name.to_lowercase().ends_with("id");
    reference && (ACTOR_WORDS.iter().any(|w| words.iter().any(|p| p == w)) || says_who_did(name))
}

/// `created_by`, `createdById`, `added_by_id`: who did what made the row.
fn says_who_did(name: &str) -> bool {
    let words = split_camel(name);
    words.iter().any(|w| w == "by")
        && words
            .iter()
            .any(|w| ["created", "added", "submitted", "inserted", "uploaded", "entered"].contains(&w.as_str()))
}

/// A name's words, lower case: `createdById` and `created_by_id` are both
/// `created`, `by`, `id`; an acronym is one word (`HTTPStatus`, `userID`).
fn split_camel(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        let prev_upper = i > 0 && chars[i - 1].is_ascii_uppercase();
        let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
        // A capital after a small letter starts a word; so does the last
        // capital of an acronym that a small letter follows.
        if c.is_ascii_uppercase() && !word.is_empty() && (!prev_upper || next_lower) {
            words.push(std::mem::take(&mut word));
        }
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Resolves the id, created-at, key and compared columns against the
/// catalog, and reads the first rows to find the times that move with
/// the creation.
pub async fn resolve(args: &ScanArgs, table: Table, db: &mut Db) -> Result<Plan> {
    if let Some(filter) = &args.filter {
        user_sql::condition(db.engine(), "--where", filter)?;
        user_sql::probe(db, &table, "--where", filter, false).await?;
    }
    if let Some(super::Keep::Condition(condition)) = &args.keep {
        user_sql::condition(db.engine(), "--keep", condition)?;
        user_sql::probe(db, &table, "--keep", condition, false).await?;
    }
    let created_at = match created_at_column(args, &table) {
        Ok(column) => column,
        Err(err) => created_at_by_values(&table, db).await?.ok_or(err)?,
    };
    let id = id_column(args, &table, &created_at.name)?;
    let (key, key_choice) = match &args.key_column {
        Some(name) => (
            Some(table.column(name)?.name.clone()),
            KeyChoice { reason: "--key-column".into(), ..KeyChoice::default() },
        ),
        None => choose_key(&table),
    };
    for name in args.by.iter().chain(&args.ignore).chain(&args.currency_column) {
        table.column(name)?;
    }
    // A sum is a column, or an expression of columns (`quantity * unit_price + fee`).
    for sum in &args.sum {
        if is_expression(sum) {
            user_sql::value(db.engine(), "--sum", sum)?;
            user_sql::probe(db, &table, "--sum", sum, true).await?;
        } else {
            table.column(sum)?;
        }
    }
    // The update time: by its name, else the column the server stamps on
    // every update of the row (MySQL's `ON UPDATE CURRENT_TIMESTAMP`, or a
    // BEFORE UPDATE trigger that sets it: Dolibarr's `tms`).
    let update_time = table
        .find_column(UPDATE_TIME_NAMES)
        .filter(|c| c.name != created_at.name && looks_like_time(&table, c))
        .or_else(|| {
            table
                .columns
                .iter()
                .find(|c| c.name != created_at.name && c.is_temporal() && c.stamped_on_update().is_some())
        })
        .map(|c| c.name.clone());
    let currency = currency_column(args, &table);
    let fixed = !args.columns.is_empty();
    let (carried, excluded) =
        sort_columns(args, &table, (&id, &created_at.name, key.as_deref()), update_time.as_deref())?;
    let unit = match &args.time_unit {
        None => TimeUnit::Auto,
        Some(TimeUnitArg { column: Some(column), .. }) if !column.eq_ignore_ascii_case(&created_at.name) => {
            bail!("--time-unit {column}=...: scan reads one time column, the created-at column {:?}", created_at.name)
        }
        Some(arg) => arg.unit,
    };
    let time = times::read(db, &table, &created_at, unit).await?;
    let compared: Vec<bool> =
        carried.iter().map(|c| !excluded.iter().any(|e: &Exclusion| e.column == c.name)).collect();
    let mut plan = Plan {
        id,
        repr: time.repr,
        time,
        key,
        key_choice,
        carried_names: Vec::new(),
        carried,
        compared,
        excluded,
        decided: Vec::new(),
        update_time,
        fixed,
        currency,
        currency_given: args.currency_column.is_some(),
        rewritten: None,
        keep: super::Keep::First,
        informative: Vec::new(),
        distinct: Vec::new(),
        identity: Vec::new(),
        prose: Vec::new(),
        written: Vec::new(),
        actor: None,
        subsecond: false,
        whole_minutes: false,
        children: Vec::new(),
        minted_anew: Vec::new(),
        table,
    };
    plan.mark_unique_with();
    Ok(plan)
}

/// The created-at column: named, else chosen by its nature: a time the row
/// gets at insert (a time type, or an integer epoch that is no reference),
/// a full instant before a date, the usual names breaking ties, then a name
/// that speaks of creation or insertion.
fn created_at_column(args: &ScanArgs, table: &Table) -> Result<Column> {
    if let Some(name) = &args.created_at {
        return Ok(table.column(name)?.clone());
    }
    let candidates: Vec<&Column> = table.columns.iter().filter(|c| time_by_nature(table, c)).collect();
    let rank = |c: &Column| -> Option<(u8, usize)> {
        let lower = c.name.to_lowercase().replace(['_', '-'], "");
        let by_list = CREATED_AT_NAMES.iter().position(|n| n.replace('_', "") == lower);
        let by_word = ["creat", "insert", "added"].iter().any(|w| lower.contains(w));
        let order = match (by_list, by_word) {
            (Some(i), _) => i,
            (None, true) => CREATED_AT_NAMES.len(),
            (None, false) => return None,
        };
        // A date alone cannot order the rows of one day.
        let precision = if c.base_type == "date" { 1 } else { 0 };
        Some((precision, order))
    };
    let chosen = candidates.iter().filter_map(|c| rank(c).map(|r| (r, *c))).min_by_key(|(r, _)| *r).map(|(_, c)| c);
    chosen.cloned().with_context(|| {
        let times: Vec<&str> = candidates.iter().map(|c| c.name.as_str()).collect();
        let some = if times.is_empty() { String::new() } else { format!(" (its time columns: {})", times.join(", ")) };
        format!(
            "table {:?} has no created-at column among {}, ...: name it with --created-at{some}",
            table.name,
            CREATED_AT_NAMES[..8].join(", ")
        )
    })
}

/// Rows of the newest ids read to find the created-at column by its values.
const CREATED_AT_SAMPLE: usize = 2_000;

/// Where no time column's name speaks of creation: the one the data shows
/// set at insert, NOT NULL on the newest rows and growing with the row id
/// (a creation time follows the ids; an update, expiry or due time does
/// not), on at least 98% of consecutive rows. The first such column by the
/// table's order, preferring a full instant to a date.
async fn created_at_by_values(table: &Table, db: &mut Db) -> Result<Option<Column>> {
    let [pk] = table.primary_key.as_slice() else { return Ok(None) };
    // An update time grows with the id too where rows are seldom changed:
    // it is never taken for the creation.
    let update = |c: &Column| {
        let lower = c.name.to_lowercase().replace(['_', '-'], "");
        UPDATE_TIME_NAMES.iter().any(|n| n.replace('_', "") == lower)
            || lower.contains("modif")
            || lower.contains("updat")
    };
    let candidates: Vec<&Column> =
        table.columns.iter().filter(|c| time_by_nature(table, c) && c.name != *pk && !update(c)).collect();
    if candidates.is_empty() {
        return Ok(None);
    }
    let dialect = db.dialect();
    let exprs: Vec<String> = candidates
        .iter()
        .map(|c| {
            let col = dialect.ident(&c.name);
            match time_repr(c, &dialect) {
                Some(repr) => dialect.epoch_micros(&col, repr),
                None => dialect.shown(&col, &c.data_type),
            }
        })
        .collect();
    let sql = format!(
        "SELECT {} FROM {} ORDER BY {} DESC LIMIT {CREATED_AT_SAMPLE}",
        exprs.join(", "),
        table.sql_name(&dialect),
        dialect.ident(pk)
    );
    let mut rows = db.query_text(&sql, &[]).await.context("reading the newest rows for their creation time")?;
    rows.reverse();
    if rows.len() < 20 {
        return Ok(None);
    }
    let grows = |i: usize| {
        let steps = rows.windows(2).filter(|w| match (&w[0][i], &w[1][i]) {
            (Some(a), Some(b)) => match (a.parse::<f64>(), b.parse::<f64>()) {
                (Ok(a), Ok(b)) => a <= b,
                _ => a <= b,
            },
            _ => false,
        });
        steps.count() * 50 >= (rows.len() - 1) * 49
    };
    let chosen = (0..candidates.len())
        .filter(|&k| grows(k))
        .min_by_key(|&k| (u8::from(candidates[k].base_type == "date"), k))
        .or_else(|| {
            // Else the one time the engine stamps at insert (a `now()` default),
            // though rows may also carry a time of their own there (a time an
            // other system gave, a backfill): it is the insert's where not.
            // Only one such column, else which one is a guess.
            let stamped: Vec<usize> = (0..candidates.len()).filter(|&k| stamped_at_insert(candidates[k])).collect();
            match stamped.as_slice() {
                [only] => Some(*only),
                _ => None,
            }
        });
    Ok(chosen.map(|k| candidates[k].clone()))
}

/// Whether a column's default is the time of the insert (`now()`,
/// `CURRENT_TIMESTAMP`, SQLite's `datetime('now')`).
fn stamped_at_insert(column: &Column) -> bool {
    let Some(default) = column.default.as_deref() else { return false };
    let lower = default.to_lowercase();
    ["now()", "current_timestamp", "clock_timestamp()", "statement_timestamp()", "transaction_timestamp()"]
        .iter()
        .any(|f| lower.contains(f))
        || (lower.contains("'now'") && (lower.contains("datetime") || lower.contains("strftime")))
}

/// How a time column's values are read as instants, where they can be:
/// native times (a domain over one too), and on SQLite text, numbers or Julian days.
pub fn time_repr(column: &Column, dialect: &crate::db::Dialect) -> Option<TimeRepr> {
    if dialect.dynamic_types() {
        Some(TimeRepr::SqliteDynamic { millis: false })
    } else if column.is_temporal() {
        Some(TimeRepr::Native { with_zone: dialect.time_has_zone(&column.base_type) })
    } else {
        None
    }
}

/// Whether a column can hold the time a row was created, by its nature: a
/// time type, or an integer epoch (on SQLite, a column not declared as
/// something else) whose name speaks of time; never a reference to another
/// row (a foreign key, `..._id`, `..._by`).
fn time_by_nature(table: &Table, column: &Column) -> bool {
    if column.foreign || column.is_array() {
        return false;
    }
    if column.is_temporal() {
        return true;
    }
    let name = column.name.to_lowercase();
    let reference = ["id", "by", "uid", "_user", "_to"].iter().any(|e| name.ends_with(e));
    let timely = ["creat", "insert", "added", "unix", "epoch", "time", "date", "_at", "_on", "_ts"]
        .iter()
        .any(|w| name.contains(w))
        || name.ends_with("at")
        || name.ends_with("ts");
    !reference && timely && looks_like_time(table, column)
}

/// The row id column: named, the primary key, or a partitioned table's key
/// without its creation time.
fn id_column(args: &ScanArgs, table: &Table, created_at: &str) -> Result<String> {
    Ok(match &args.id {
        Some(id) => table.column(id)?.name.clone(),
        None => match table.primary_key.as_slice() {
            [single] => single.clone(),
            // A partitioned table's key holds the partition's column too (the
            // creation time): the other one is the row's id.
            [a, b] if *b == created_at => a.clone(),
            [a, b] if *a == created_at => b.clone(),
            [] => bail!("table {:?} has no primary key: name the row id column with --id", table.name),
            // The one integer of a key whose other columns are not numbers
            // (Drupal's `cid` beside the translation's `langcode`): the row's
            // number, the rest telling its variants apart.
            many if let [one] = many
                .iter()
                .filter(|c| table.column(c).is_ok_and(|c| c.is_integer()))
                .collect::<Vec<_>>()
                .as_slice()
                && many.iter().all(|c| c == *one || table.column(c).is_ok_and(|c| !c.is_temporal())) =>
            {
                (*one).clone()
            }
            many => bail!(
                "table {:?} has a composite primary key ({}): name one row id column with --id",
                table.name,
                many.join(", ")
            ),
        },
    })
}

/// Whether a `--sum` is an expression of columns rather than a column's name.
pub fn is_expression(sum: &str) -> bool {
    sum.chars().any(|c| "+-*/() ".contains(c))
}

/// The currency column: named, one of the usual names, the one column that
/// names a currency (`amount_currency`), or the one that references one
/// (`transaction_currency_id`).
fn currency_column(args: &ScanArgs, table: &Table) -> Option<String> {
    match &args.currency_column {
        Some(name) => Some(name.clone()),
        None => table.find_column(CURRENCY_NAMES).map(|c| c.name.clone()).or_else(|| {
            // Else the one column that names a currency (`amount_currency`).
            let named: Vec<&Column> =
                table.columns.iter().filter(|c| c.name.to_lowercase().ends_with("_currency")).collect();
            // Else the one reference to a currency (`transaction_currency_id`,
            // a key of a currencies table): its values tell currencies apart
            // as well as their codes do.
            let referenced: Vec<&Column> = table
                .columns
                .iter()
                .filter(|c| {
                    let lower = c.name.to_lowercase();
                    lower.contains("currency")
                        && (lower.ends_with("_id") || lower.ends_with("id"))
                        && !lower.contains("foreign")
                })
                .collect();
            match (named.as_slice(), referenced.as_slice()) {
                ([one], _) | ([], [one]) => Some(one.name.clone()),
                _ => None,
            }
        }),
    }
}

/// The columns a scan carries (compared, or a counter the pass may put
/// back) and those it leaves out with the rule that does; `roles` are the
/// id, the created-at and the key columns.
fn sort_columns(
    args: &ScanArgs,
    table: &Table,
    (id, created_at, key): (&str, &str, Option<&str>),
    update_time: Option<&str>,
) -> Result<(Vec<Carried>, Vec<Exclusion>)> {
    let fixed = !args.columns.is_empty();
    let mut named = Vec::new();
    for name in &args.columns {
        let column = table.column(name)?;
        if !named.contains(&column.name) {
            named.push(column.name.clone());
        }
    }
    let mut carried = Vec::new();
    let mut excluded = Vec::new();
    for column in &table.columns {
        let reason = match role(table, column, id, created_at, key) {
            Some(role) => Some(role),
            None if fixed => {
                (!named.contains(&column.name)).then(|| (Rule::NotInColumns, "not in --columns".to_string()))
            }
            None => exclusion(table, column, update_time, &args.ignore),
        };
        match reason {
            // Counters are left out but carried: the pass may put one back.
            Some((Rule::Counter, reason)) => {
                excluded.push(Exclusion { column: column.name.clone(), rule: Rule::Counter, reason });
                carried.push(Carried { name: column.name.clone(), kind: kind(table, column), unique_with: None });
            }
            Some((rule, reason)) => excluded.push(Exclusion { column: column.name.clone(), rule, reason }),
            None => carried.push(Carried { name: column.name.clone(), kind: kind(table, column), unique_with: None }),
        }
    }
    if fixed {
        // The order the user named.
        carried.sort_by_key(|c| named.iter().position(|n| *n == c.name));
    }
    if carried.is_empty() {
        bail!("no columns left to compare in table {:?}: name them with --columns", table.name);
    }
    Ok((carried, excluded))
}

/// The part a column plays that keeps it out of any comparison: the row
/// id, the primary key, the created-at and key columns.
fn role(table: &Table, column: &Column, id: &str, created_at: &str, key: Option<&str>) -> Option<(Rule, String)> {
    let name = column.name.as_str();
    if name == id {
        return Some((Rule::RowId, "row id".into()));
    }
    if table.primary_key.iter().any(|c| c == name) {
        return Some((Rule::PrimaryKey, "primary key".into()));
    }
    if name == created_at {
        return Some((Rule::CreatedAt, "created-at column".into()));
    }
    if Some(name) == key {
        return Some((Rule::KeyColumn, "idempotency-key column".into()));
    }
    None
}

/// Why a column is left out of the default comparison before any row is read, if it is.
fn exclusion(table: &Table, column: &Column, update_time: Option<&str>, ignore: &[String]) -> Option<(Rule, String)> {
    let name = column.name.as_str();
    if ignore.iter().any(|c| c == name) {
        return Some((Rule::Ignored, "--ignore".into()));
    }
    if let Some(index) = table.unique_alone(name) {
        return Some((Rule::UniqueAlone, format!("unique on its own: index {}", index.name)));
    }
    if Some(name) == update_time {
        let why = match column.stamped_on_update() {
            Some(how) => format!("the update time: the server stamps it on every write ({how})"),
            None => "the ORM's update time: the application stamps it on every write, a retry's own included".into(),
        };
        return Some((Rule::UpdateTime, why));
    }
    if let Some(reason) = column.mints() {
        return Some((Rule::DefaultMints, reason));
    }
    if is_counter(column) {
        return Some((
            Rule::Counter,
            "a counter by its name: each row keeps its own (views, likes, replies), so a retry's soon differs".into(),
        ));
    }
    None
}

/// Words a counter's name ends with: what each row tallies for itself after
/// it is created, so that a retry's count soon differs from its original's.
const COUNTER_ENDINGS: &[&str] = &[
    "_count",
    "count",
    "reads",
    "views",
    "_score",
    "score",
    "_rank",
    "clicks",
    "hits",
    "likes",
    "upvotes",
    "downvotes",
];

/// `updated_by`, `modified_by_id`, `fk_user_modif`, `write_uid` (Odoo's
/// last writer), `usermodified`: who last changed the row, stamped by each
/// update as the update time is.
fn last_changed_by(name: &str) -> bool {
    let words = split_camel(name);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let lower = name.to_lowercase();
    (has(&["updated", "modified", "modif", "edited", "changed", "write"]) && has(&["by", "user", "uid"]))
        || lower == "usermodified"
}

fn is_counter(column: &Column) -> bool {
    let t = column.base_type.to_lowercase();
    let numeric =
        column.is_integer() || ["double", "real", "float", "numeric", "decimal"].iter().any(|w| t.contains(w));
    let name = column.name.to_lowercase();
    numeric
        && COUNTER_ENDINGS.iter().any(|e| name.ends_with(e))
        && !name.ends_with("discount")
        && !name.ends_with("account")
}

/// The key column: a name that says so, else a client reference (a unique
/// index holding it, with its scope, first), and why.
fn choose_key(table: &Table) -> (Option<String>, KeyChoice) {
    let by_name: Vec<&Column> = crate::keys::KEY_NAMES.iter().filter_map(|n| table.find_column(&[n])).collect();
    let references: Vec<&Column> = REFERENCE_NAMES
        .iter()
        .filter_map(|n| table.find_column(&[n]))
        .filter(|c| !table.primary_key.contains(&c.name) && c.mints().is_none())
        .collect();
    let unique_scope = |c: &Column| {
        table.unique.iter().filter(|u| !u.primary).find_map(|u| {
            let names: Vec<&str> = u.columns.iter().map(|c| c.as_deref().unwrap_or("")).collect();
            names.contains(&c.name.as_str()).then(|| {
                let scope: Vec<&str> = names.into_iter().filter(|n| *n != c.name).collect();
                match scope.as_slice() {
                    [] => format!("unique on its own (index {})", u.name),
                    scope => format!("unique with ({}) (index {})", scope.join(", "), u.name),
                }
            })
        })
    };
    let others = |chosen: &str| -> Vec<String> {
        by_name.iter().chain(&references).map(|c| c.name.clone()).filter(|n| n != chosen).collect()
    };
    if let Some(column) = by_name.first() {
        return (Some(column.name.clone()), KeyChoice { reason: "its name".into(), not_chosen: others(&column.name) });
    }
    let held = references.iter().find_map(|c| unique_scope(c).map(|why| (*c, why)));
    if let Some((column, why)) = held {
        let reason = format!("a client reference by its name, {why}");
        return (Some(column.name.clone()), KeyChoice { reason, not_chosen: others(&column.name) });
    }
    if let Some(column) = references.first() {
        let reason = "a client reference by its name".to_string();
        return (Some(column.name.clone()), KeyChoice { reason, not_chosen: others(&column.name) });
    }
    (None, KeyChoice::default())
}

/// Whether a column holds times: a time type (a domain over one), integer
/// epochs, or on SQLite anything not declared otherwise.
fn looks_like_time(table: &Table, column: &Column) -> bool {
    if crate::db::Dialect::new(table.engine).dynamic_types() {
        let t = column.data_type.to_lowercase();
        return !["bool", "char", "clob", "blob", "real", "floa", "doub"].iter().any(|w| t.contains(w));
    }
    column.is_temporal() || column.is_integer()
}

fn kind(table: &Table, column: &Column) -> ValueKind {
    let t = column.base_type.to_lowercase();
    let lite = crate::db::Dialect::new(table.engine).dynamic_types();
    if column.is_array() {
        ValueKind::Other
    } else if t == "uuid" {
        ValueKind::Uuid
    } else if column.is_temporal() || (lite && (t.contains("date") || t.contains("time"))) {
        ValueKind::Time
    } else if column.is_integer() {
        ValueKind::Integer
    } else if ["char", "text", "clob", "string", "citext", "varchar"].iter().any(|w| t.contains(w))
        || (lite && t.is_empty())
    {
        ValueKind::Text
    } else {
        ValueKind::Other
    }
}

impl Plan {
    /// Marks each carried column that a unique index holds together with
    /// compared columns only.
    fn mark_unique_with(&mut self) {
        let names: Vec<String> = self.carried.iter().map(|c| c.name.clone()).collect();
        self.carried_names = names.clone();
        for index in self.table.unique.iter().filter(|u| !u.primary) {
            let Some(columns) = index.columns.iter().cloned().collect::<Option<Vec<String>>>() else { continue };
            if columns.len() < 2 || !columns.iter().all(|c| names.contains(c)) {
                continue;
            }
            for column in &columns {
                let others: Vec<&str> = columns.iter().filter(|c| *c != column).map(String::as_str).collect();
                let i = names.iter().position(|n| n == column).expect("a carried column");
                self.carried[i].unique_with =
                    Some(format!("unique with ({}) (index {})", others.join(", "), index.name));
            }
        }
    }

    /// The currency of a `--sum` column: `--currency-column`, else the
    /// column's own (`amount_cents` and `amount_currency`), else the table's.
    pub fn currency_of(&self, sum: &str) -> Option<String> {
        if self.currency_given {
            return self.currency.clone();
        }
        own_currency(&self.table, sum).or_else(|| self.currency.clone())
    }
}

/// `amount_currency` for `amount_cents` or `amount` (money-rails' convention).
fn own_currency(table: &Table, sum: &str) -> Option<String> {
    let base = sum.strip_suffix("_cents").or_else(|| sum.strip_suffix("_amount")).unwrap_or(sum);
    table.find_column(&[&format!("{base}_currency")]).map(|c| c.name.clone())
}

/// Looks at the columns before the pass: those the engine cannot compare
/// are left out with its error (never an abort), and the times that move
/// with the creation (within a few seconds of it on nearly every row of the
/// first ones) are left out, still carried so that the pass can put them back.
pub async fn probe(plan: &mut Plan, db: &mut Db) -> Result<()> {
    for (column, error) in crate::db::scan::uncomparable(db, &plan.source()).await? {
        plan.drop_carried(&column, Rule::CannotCompare, format!("cannot be compared: {error}"));
    }
    if plan.carried.is_empty() {
        bail!("no column of table {:?} can be compared: name them with --columns", plan.table.name);
    }
    if plan.fixed {
        return Ok(());
    }
    let dialect = db.dialect();
    let times: Vec<(String, TimeRepr)> = plan
        .carried
        .iter()
        .filter(|c| c.kind == ValueKind::Time)
        .map(|c| {
            let repr = if dialect.dynamic_types() {
                TimeRepr::SqliteDynamic { millis: false }
            } else {
                let column = plan.table.column(&c.name).expect("a carried column");
                TimeRepr::Native { with_zone: dialect.time_has_zone(&column.base_type) }
            };
            (c.name.clone(), repr)
        })
        .collect();
    let columns: Vec<(&str, TimeRepr)> = times.iter().map(|(c, r)| (c.as_str(), *r)).collect();
    let (read, offsets) = crate::db::scan::time_offsets(db, &plan.source(), &columns, MOVES_WITHIN_US).await?;
    let mut update: Option<(usize, u64, String)> = None;
    for ((column, _), offsets) in times.iter().zip(offsets) {
        let crate::db::scan::Offsets { set, near, not_before } = offsets;
        let i = plan.carried.iter().position(|c| &c.name == column).expect("a carried column");
        if set * 2 >= read && set > 0 && near * 100 >= set * 95 {
            let reason = format!(
                "moves with {}: within {}s of it on {near} of the {set} rows of the first {read} where it is set",
                plan.time.name,
                MOVES_WITHIN_US / 1_000_000
            );
            plan.exclude(i, Rule::MovesWithCreation, reason);
        } else if plan.update_time.is_none()
            && plan.compared[i]
            && update.as_ref().is_none_or(|(_, later, _)| set - near > *later)
            && set >= UPDATE_BY_VALUES_ROWS
            && set * 10 >= read * 9
            && not_before * 100 >= set * 99
            && near * 100 >= set
            && (set - near) * 20 >= set
        {
            // An update time by its nature, whatever its name (`write_date`,
            // `date_upd`, `changed`): set on every row, never before the
            // creation, equal to it on the rows never changed since and
            // later on the others. Of two such (an invoice's date set once,
            // at payment), the one later on more rows: every write moves
            // the update time, the one that sets the other time too.
            let reason = format!(
                "an update time by its values: set on {set} of the first {read} rows, never before {}, within {}s \
                 of it on {near} (rows never changed since) and later on the other {}",
                plan.time.name,
                MOVES_WITHIN_US / 1_000_000,
                set - near
            );
            update = Some((i, set - near, reason));
        }
    }
    if let Some((i, _, reason)) = update {
        plan.update_time = Some(plan.carried[i].name.clone());
        plan.exclude(i, Rule::UpdateTime, reason);
    }
    Ok(())
}

/// Rows a time must be set on before its values can say it is the update time.
const UPDATE_BY_VALUES_ROWS: u64 = 50;

/// How close to the creation a time must be, on nearly every row, to move with it.
const MOVES_WITHIN_US: i64 = 5_000_000;

impl Plan {
    /// Stops carrying a column at all, leaving it out with its reason.
    fn drop_carried(&mut self, column: &str, rule: Rule, reason: String) {
        if let Some(i) = self.carried.iter().position(|c| c.name == column) {
            self.carried.remove(i);
            self.compared.remove(i);
            self.carried_names.remove(i);
            if i < self.informative.len() {
                self.informative.remove(i);
            }
            if i < self.distinct.len() {
                self.distinct.remove(i);
            }
            if i < self.prose.len() {
                self.prose.remove(i);
            }
            if i < self.written.len() {
                self.written.remove(i);
            }
        }
        self.excluded.push(Exclusion { column: column.to_string(), rule, reason });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Engine;
    use crate::db::catalog::UniqueIndex;
    use clap::Parser;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        scan: ScanArgs,
    }

    fn args(extra: &[&str]) -> ScanArgs {
        Line::try_parse_from([&["scan", "--table", "t"][..], extra].concat()).unwrap().scan
    }

    fn col(name: &str, ty: &str) -> Column {
        Column::of(name, ty)
    }

    fn table(engine: Engine, columns: Vec<Column>, primary_key: &[&str]) -> Table {
        Table::of(engine, "t", columns, primary_key)
    }

    fn unique(name: &str, columns: &[&str]) -> UniqueIndex {
        UniqueIndex {
            name: name.into(),
            primary: false,
            columns: columns.iter().map(|c| Some(c.to_string())).collect(),
        }
    }

    /// Who last changed the row, by its name; who created it, a price's
    /// modifier or an editor's kind are not.
    #[test]
    fn who_last_changed_the_row() {
        for name in ["updated_by", "updatedById", "modified_by_id", "fk_user_modif", "write_uid", "usermodified"] {
            assert!(last_changed_by(name), "{name}");
        }
        for name in ["created_by", "user_id", "price_modifier", "editor", "updated_at", "write_date", "changed"] {
            assert!(!last_changed_by(name), "{name}");
        }
    }

    /// The created-at column by its nature, the name breaking ties: a full
    /// instant before a date, the list's order, then a word of creation; a
    /// reference or a number named like a time is never one.
    #[test]
    fn the_created_at_column_by_nature_then_name() {
        let pg = |cols: Vec<Column>| table(Engine::Postgres, cols, &["id"]);
        let chosen = |t: &Table| created_at_column(&args(&[]), t).map(|c| c.name).unwrap_or_default();
        let t =
            pg(vec![col("id", "bigint"), col("created_on", "date"), col("inserted_at", "timestamp without time zone")]);
        assert_eq!(chosen(&t), "inserted_at", "an instant before a date");
        let t = pg(vec![col("created", "timestamp with time zone"), col("created_at", "timestamp with time zone")]);
        assert_eq!(chosen(&t), "created_at", "the list's order");
        let t =
            pg(vec![col("when_added_to_cart", "timestamp with time zone"), col("paid_at", "timestamp with time zone")]);
        assert_eq!(chosen(&t), "when_added_to_cart", "a word of creation");
        // An integer named like a creation time that refers to a row is none.
        let mut fk = col("created_at_id", "integer");
        fk.foreign = true;
        let err = created_at_column(&args(&[]), &pg(vec![fk, col("paid_at", "timestamp with time zone")])).unwrap_err();
        assert!(err.to_string().contains("(its time columns: paid_at)"), "{err}");
        // Named, whatever it is.
        let t = pg(vec![col("paid_at", "timestamp with time zone")]);
        assert_eq!(created_at_column(&args(&["--created-at", "paid_at"]), &t).unwrap().name, "paid_at");
        // An integer epoch named as a time is one; on SQLite so is an untyped column.
        let t = pg(vec![col("created_ts", "bigint")]);
        assert_eq!(chosen(&t), "created_ts");
        assert!(!time_by_nature(&t, &col("created_by", "bigint")));
        assert!(!time_by_nature(&t, &col("amount", "bigint")), "no word of time");
        assert!(time_by_nature(&t, &col("paidat", "bigint")) && time_by_nature(&t, &col("sentts", "bigint")));
        let mut foreign = col("created_on", "bigint");
        assert!(time_by_nature(&t, &foreign));
        foreign.foreign = true;
        assert!(!time_by_nature(&t, &foreign), "a foreign key is no time, whatever its name");
        let lite = table(Engine::Sqlite, vec![col("date_created", "")], &["id"]);
        assert!(time_by_nature(&lite, &lite.columns[0]));
        assert!(!time_by_nature(&lite, &col("created_at", "boolean")));
        let mut array = col("created_at", "timestamp with time zone[]");
        array.base_type = "timestamp with time zone[]".into();
        assert!(!time_by_nature(&t, &array));
    }

    #[test]
    fn the_row_id() {
        let id = |pk: &[&str], cols: Vec<Column>| {
            id_column(&args(&[]), &table(Engine::Postgres, cols, pk), "created_at").map_err(|e| e.to_string())
        };
        assert_eq!(id(&["id"], vec![]), Ok("id".into()));
        assert_eq!(id(&["id", "created_at"], vec![]), Ok("id".into()), "a partition's key");
        assert_eq!(id(&["created_at", "id"], vec![]), Ok("id".into()));
        assert!(id(&[], vec![]).unwrap_err().contains("has no primary key"));
        // Drupal's (cid, langcode): the one integer.
        assert_eq!(id(&["cid", "langcode"], vec![col("cid", "integer"), col("langcode", "varchar")]), Ok("cid".into()));
        assert!(
            id(&["a", "b"], vec![col("a", "integer"), col("b", "integer")])
                .unwrap_err()
                .contains("composite primary key")
        );
        assert!(id(&["a", "b", "at"], vec![col("a", "integer"), col("b", "text"), col("at", "timestamp")]).is_err());
        let named = id_column(&args(&["--id", "uid"]), &table(Engine::Postgres, vec![col("uid", "uuid")], &[]), "x");
        assert_eq!(named.unwrap(), "uid");
    }

    /// A key by its name first, then a client reference a unique index
    /// holds, then any client reference; never one the engine mints.
    #[test]
    fn the_key_column() {
        let t = table(
            Engine::Postgres,
            vec![col("external_id", "text"), col("idempotency_key", "text"), col("client_token", "text")],
            &["id"],
        );
        let (key, choice) = choose_key(&t);
        assert_eq!((key.as_deref(), choice.reason.as_str()), (Some("idempotency_key"), "its name"));
        assert_eq!(choice.not_chosen, ["client_token", "external_id"]);
        let mut t = table(Engine::Postgres, vec![col("external_id", "text"), col("client_token", "text")], &["id"]);
        t.unique.push(unique("by_account", &["account_id", "external_id"]));
        let (key, choice) = choose_key(&t);
        assert_eq!(key.as_deref(), Some("external_id"));
        assert_eq!(choice.reason, "a client reference by its name, unique with (account_id) (index by_account)");
        t.unique.clear();
        assert_eq!(choose_key(&t).0.as_deref(), Some("client_token"), "the list's order");
        let mut minted = col("external_id", "uuid");
        minted.default = Some("gen_random_uuid()".into());
        assert_eq!(choose_key(&table(Engine::Postgres, vec![minted], &["id"])).0, None);
        assert_eq!(
            choose_key(&table(Engine::Postgres, vec![col("transaction_id", "text")], &["transaction_id"])).0,
            None
        );
    }

    #[test]
    fn the_currency_column() {
        let cur =
            |cols: Vec<Column>, extra: &[&str]| currency_column(&args(extra), &table(Engine::MySql, cols, &["id"]));
        assert_eq!(cur(vec![col("currency_code", "char(3)")], &[]).as_deref(), Some("currency_code"));
        assert_eq!(cur(vec![col("amount_currency", "char(3)")], &[]).as_deref(), Some("amount_currency"));
        assert_eq!(cur(vec![col("transaction_currency_id", "int")], &[]).as_deref(), Some("transaction_currency_id"));
        assert_eq!(cur(vec![col("currencyId", "int")], &[]).as_deref(), Some("currencyId"));
        assert_eq!(cur(vec![col("a_currency", "text"), col("b_currency", "text")], &[]), None, "two: which is a guess");
        assert_eq!(cur(vec![col("foreign_currency_id", "int")], &[]), None);
        assert_eq!(cur(vec![], &["--currency-column", "iso"]).as_deref(), Some("iso"));
        assert!(is_expression("quantity * unit_price + fee"));
        assert!(!is_expression("amount_cents"));
    }

    /// What keeps a column out before any row is read, in order: --ignore,
    /// unique alone, the update time, a minting default, a counter.
    #[test]
    fn exclusions_before_reading() {
        let mut t = table(Engine::MySql, vec![col("number", "varchar(32)"), col("view_count", "int")], &["id"]);
        t.unique.push(unique("uniq_number", &["number"]));
        let rule = |c: &Column, update: Option<&str>, ignore: &[&str]| {
            let ignore: Vec<String> = ignore.iter().map(|s| s.to_string()).collect();
            exclusion(&t, c, update, &ignore).map(|(rule, _)| rule)
        };
        assert_eq!(rule(&t.columns[0].clone(), None, &["number"]), Some(Rule::Ignored));
        assert_eq!(rule(&t.columns[0].clone(), None, &[]), Some(Rule::UniqueAlone));
        assert_eq!(rule(&col("view_count", "int"), None, &[]), Some(Rule::Counter));
        assert_eq!(rule(&col("discount", "decimal(10,2)"), None, &[]), None);
        assert_eq!(rule(&col("account", "int"), None, &[]), None);
        assert_eq!(rule(&col("page_count", "text"), None, &[]), None, "a counter is a number");
        let mut stamped = col("tms", "timestamp");
        stamped.generated = "on update current_timestamp".into();
        let (r, why) = exclusion(&t, &stamped, Some("tms"), &[]).unwrap();
        assert_eq!(
            (r, why.as_str()),
            (Rule::UpdateTime, "the update time: the server stamps it on every write (ON UPDATE CURRENT_TIMESTAMP)")
        );
        let mut minted = col("token", "char(36)");
        minted.default = Some("uuid()".into());
        assert_eq!(rule(&minted, None, &[]), Some(Rule::DefaultMints));
        assert_eq!(rule(&col("note", "text"), None, &[]), None);
        // Roles come first: the id, the primary key, the created-at, the key.
        let t = table(Engine::MySql, vec![], &["id", "tenant"]);
        let role_of = |name: &str| role(&t, &col(name, "int"), "id", "created_at", Some("key")).map(|(r, _)| r);
        assert_eq!(
            ["id", "tenant", "created_at", "key", "other"].map(role_of),
            [Some(Rule::RowId), Some(Rule::PrimaryKey), Some(Rule::CreatedAt), Some(Rule::KeyColumn), None]
        );
    }

    #[test]
    fn kinds_of_values() {
        let pg = table(Engine::Postgres, vec![], &[]);
        let lite = table(Engine::Sqlite, vec![], &[]);
        assert_eq!(kind(&pg, &col("a", "uuid")), ValueKind::Uuid);
        assert_eq!(kind(&pg, &col("a", "timestamp with time zone")), ValueKind::Time);
        assert_eq!(kind(&pg, &col("a", "bigint")), ValueKind::Integer);
        assert_eq!(kind(&pg, &col("a", "character varying")), ValueKind::Text);
        assert_eq!(kind(&pg, &col("a", "jsonb")), ValueKind::Other);
        assert_eq!(kind(&pg, &col("a", "integer[]")), ValueKind::Other);
        assert_eq!(kind(&lite, &col("a", "datetime")), ValueKind::Time);
        assert_eq!(kind(&lite, &col("a", "timestamp")), ValueKind::Time);
        assert_eq!(kind(&lite, &col("a", "date")), ValueKind::Time);
        assert_eq!(kind(&lite, &col("a", "")), ValueKind::Text);
        assert_eq!(kind(&pg, &col("a", "")), ValueKind::Other);
        assert!(looks_like_time(&pg, &col("a", "bigint")));
        assert!(!looks_like_time(&pg, &col("a", "text")));
        assert!(looks_like_time(&lite, &col("a", "text")));
        assert!(!looks_like_time(&lite, &col("a", "real")));
    }

    #[test]
    fn names_of_people_and_references() {
        assert_eq!(split_camel("createdById"), ["created", "by", "id"]);
        assert_eq!(split_camel("created_by_id"), ["created", "by", "id"]);
        assert_eq!(split_camel("HTTPStatus"), ["http", "status"]);
        assert_eq!(split_camel("userID"), ["user", "id"]);
        assert_eq!(split_camel("created2FA"), ["created2", "fa"]);
        assert!(says_who_did("added_by"));
        assert!(!says_who_did("paid_by") && !says_who_did("created_at"));
        assert!(names_a_person("user_id") && names_a_person("createdById") && names_a_person("created_by"));
        assert!(!names_a_person("user_name"), "not a reference");
        assert!(!names_a_person("project_id"));
        assert!(refers_to_a_row("project_id", false) && refers_to_a_row("approved_by", false));
        assert!(refers_to_a_row("parent", true) && !refers_to_a_row("parent", false));
        let mut quantity = col("quantity", "numeric");
        assert!(can_grow(&quantity));
        quantity.foreign = true;
        assert!(!can_grow(&quantity));
        assert!(
            !can_grow(&col("fk_user", "int")) && !can_grow(&col("owner", "int")) && !can_grow(&col("title", "text"))
        );
        assert!(stamped_at_insert(&Column { default: Some("CURRENT_TIMESTAMP(6)".into()), ..col("a", "datetime") }));
        assert!(stamped_at_insert(&Column { default: Some("(datetime('now'))".into()), ..col("a", "text") }));
        assert!(!stamped_at_insert(&Column { default: Some("'now'".into()), ..col("a", "text") }));
        assert!(!stamped_at_insert(&col("a", "text")));
    }
}
