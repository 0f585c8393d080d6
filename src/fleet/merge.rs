//! One report from many databases: each database's rows, led by its name,
//! go to one emitter as they come; its notes and summary are kept, and said
//! at the end per database and in total.

use std::io::{BufWriter, Stdout};
use std::str::FromStr;

use anyhow::Result;
use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::{Map, Number, Value};

use crate::report::{Emitter, Fold};

/// One database's part of the report.
#[derive(Debug, Default)]
pub struct Record {
    pub name: String,
    pub place: String,
    /// Its notes and description (the table, the compared columns) and its
    /// summary, as its own report would give them.
    pub fields: Map<String, Value>,
    pub complete: Option<bool>,
    pub reason: Option<String>,
    pub exit_code: Option<u8>,
    pub error: Option<String>,
}

/// The merged report, shared by the databases' tasks.
pub struct Merged {
    out: Emitter<BufWriter<Stdout>>,
    pub records: Vec<Record>,
    /// The command reports one row per run (`expire`): the row is the
    /// database's summary too.
    row_is_summary: bool,
}

impl Merged {
    pub fn new(out: Emitter<BufWriter<Stdout>>, records: Vec<Record>, row_is_summary: bool) -> Merged {
        Merged { out, records, row_is_summary }
    }

    /// The report to finish, and each database's part of it.
    pub fn into_parts(self) -> (Emitter<BufWriter<Stdout>>, Vec<Record>) {
        (self.out, self.records)
    }

    pub fn meta(&mut self, index: usize, key: &str, value: Value) {
        self.records[index].fields.insert(key.to_string(), value);
    }

    pub fn row(&mut self, index: usize, fields: Map<String, Value>) -> Result<()> {
        let record = &mut self.records[index];
        if self.row_is_summary {
            for (k, v) in &fields {
                record.fields.insert(k.clone(), v.clone());
            }
        }
        let mut led = Map::with_capacity(fields.len() + 1);
        led.insert("database".into(), Value::from(record.name.clone()));
        led.extend(fields);
        self.out.row_value(Value::Object(led))
    }

    pub fn end(&mut self, index: usize, incomplete: Option<&str>) {
        let record = &mut self.records[index];
        record.complete = Some(incomplete.is_none());
        record.reason = incomplete.map(str::to_string);
    }

    /// Flushes the rows written so far (CSV and NDJSON stream as databases finish).
    pub fn view(&mut self, view: crate::scope::View) {
        self.out.take_view(view, "database");
    }

    pub fn flush(&mut self) {
        let _ = self.out.flush();
    }
}

/// A database's entry in the JSON summary.
#[derive(Serialize)]
pub struct Entry<'a> {
    database: &'a str,
    place: &'a str,
    exit_code: Option<u8>,
    error: Option<&'a str>,
    complete: bool,
    reason: Option<&'a str>,
    #[serde(flatten)]
    fields: &'a Map<String, Value>,
}

impl Record {
    /// Its entry in the summary.
    pub fn entry(&self) -> Entry<'_> {
        Entry {
            database: &self.name,
            place: &self.place,
            exit_code: self.exit_code,
            error: self.error.as_deref(),
            complete: self.complete.unwrap_or(false) && self.error.is_none(),
            reason: self.reason.as_deref(),
            fields: &self.fields,
        }
    }
}

/// How a figure adds up, by its key: the command's word (`Definition::fold`).
pub type Rules<'a> = &'a dyn Fn(&str) -> Fold;

/// The fleet's total of the databases' summaries: counts, bytes and sums
/// added (maps of counts key by key, lists of projections item by item),
/// slowest times and longest waits the largest, text kept where every
/// database says the same, and ratios left out.
pub fn total<'a>(summaries: impl IntoIterator<Item = &'a Map<String, Value>>, rules: Rules) -> Map<String, Value> {
    let mut total: Option<Value> = None;
    for summary in summaries {
        let value = Value::Object(summary.clone());
        total = Some(match total {
            None => prune(&value, Fold::Sum, rules),
            Some(sum) => fold(&sum, &value, Fold::Sum, rules).unwrap_or(Value::Null),
        });
    }
    match total {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// A value as its first database gives it, without what has no total.
fn prune(value: &Value, how: Fold, rules: Rules) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| rules(k) != Fold::Drop)
                .map(|(k, v)| (k.clone(), prune(v, or(rules(k), how), rules)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| prune(v, how, rules)).collect()),
        other => other.clone(),
    }
}

/// A key's own way, or its parent's for keys that say nothing (a state's count).
fn or(own: Fold, parent: Fold) -> Fold {
    if own == Fold::Sum { parent } else { own }
}

fn fold(a: &Value, b: &Value, how: Fold, rules: Rules) -> Option<Value> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => number(x, y, how),
        (Value::Object(x), Value::Object(y)) => {
            let mut out = Map::new();
            for (k, v) in x {
                let how = or(rules(k), how);
                match y.get(k) {
                    Some(w) => {
                        if let Some(f) = fold(v, w, how, rules) {
                            out.insert(k.clone(), f);
                        }
                    }
                    // A count only one database has: its count.
                    None if v.is_number() || v.is_object() => {
                        out.insert(k.clone(), v.clone());
                    }
                    None => {}
                }
            }
            for (k, w) in y.iter().filter(|(k, _)| !x.contains_key(*k) && rules(k) != Fold::Drop) {
                if w.is_number() || w.is_object() {
                    out.insert(k.clone(), prune(w, or(rules(k), how), rules));
                }
            }
            Some(Value::Object(out))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).map(|(v, w)| fold(v, w, how, rules)).collect::<Option<Vec<_>>>().map(Value::Array)
        }
        (Value::Null, other) | (other, Value::Null) if other.is_number() => Some(other.clone()),
        _ if a == b => Some(a.clone()),
        _ => None,
    }
}

fn number(x: &Number, y: &Number, how: Fold) -> Option<Value> {
    let (a, b) = (Decimal::from_str(&x.to_string()).ok()?, Decimal::from_str(&y.to_string()).ok()?);
    let n = match how {
        Fold::Sum => a.checked_add(b)?,
        Fold::Max | Fold::Setting => a.max(b),
        Fold::Min => a.min(b),
        Fold::Drop => return None,
    };
    let text = n.normalize().to_string();
    serde_json::from_str::<Number>(&text).ok().map(Value::Number)
}

/// A total for people: `label: value` pieces, maps as `key value`.
pub fn people(total: &Map<String, Value>, rules: Rules) -> String {
    fn text(v: &Value) -> String {
        match v {
            Value::Object(m) => {
                m.iter().map(|(k, v)| format!("{} {}", k.replace('_', " "), text(v))).collect::<Vec<_>>().join(", ")
            }
            Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join("; "),
            Value::String(s) => s.clone(),
            Value::Number(n) => match n.as_f64() {
                Some(f) if n.is_f64() => format!("{:.2}", f).trim_end_matches('0').trim_end_matches('.').to_string(),
                _ => n.to_string(),
            },
            Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
            Value::Null => String::new(),
        }
    }
    // Counts, and the counts of maps: what people add up. A zero in a map
    // (no clusters of a cause) and a zero time or batch size say nothing.
    let counts = |key: &str, v: &Value| -> Option<Value> {
        let zero = |v: &Value| v.as_f64() == Some(0.0);
        match v {
            Value::Number(_) if zero(v) && rules(key) != Fold::Sum => None,
            Value::Number(_) => Some(v.clone()),
            Value::Object(m) => {
                let kept: Map<String, Value> =
                    m.iter().filter(|(_, v)| v.is_number() && !zero(v)).map(|(k, v)| (k.clone(), v.clone())).collect();
                (!kept.is_empty()).then_some(Value::Object(kept))
            }
            _ => None,
        }
    };
    total
        .iter()
        .filter(|(k, _)| rules(k) != Fold::Setting)
        .filter_map(|(k, v)| Some((k, counts(k, v)?)))
        .map(|(k, v)| format!("{}: {}", k.replace('_', " "), text(&v)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The databases' figures for people: a row each, with how it ended and its
/// counts (the figures every database has, as numbers), and why it failed.
pub fn people_table(records: &[Record], rules: Rules) -> String {
    // Columns: each figure (a number, or a number in a map of them: a
    // cause's clusters, a state's keys), by its path in the summary.
    let mut columns: Vec<(String, Option<String>)> = Vec::new();
    let wanted = |key: &str| !matches!(rules(key), Fold::Drop | Fold::Setting);
    for record in records {
        for (key, value) in record.fields.iter().filter(|(k, _)| wanted(k)) {
            let mut add = |column: (String, Option<String>)| {
                if !columns.contains(&column) {
                    columns.push(column);
                }
            };
            match value {
                Value::Number(_) => add((key.clone(), None)),
                Value::Object(map) => {
                    for (inner, _) in map.iter().filter(|(k, v)| v.is_number() && wanted(k)) {
                        add((key.clone(), Some(inner.clone())));
                    }
                }
                _ => {}
            }
        }
    }
    let get = |r: &Record, (key, inner): &(String, Option<String>)| -> Option<Value> {
        let v = r.fields.get(key)?;
        match inner {
            Some(inner) => v.get(inner).cloned(),
            None => Some(v.clone()),
        }
    };
    // A count no database has: no column.
    columns.retain(|c| records.iter().any(|r| get(r, c).and_then(|v| v.as_f64()).is_some_and(|n| n != 0.0)));
    let labels: Vec<String> = columns
        .iter()
        .map(|(key, inner)| match inner {
            None if key == "elapsed_seconds" => "seconds".to_string(),
            None => key.replace('_', " "),
            // The inner key names it, unless another column has that name.
            Some(inner)
                if columns.iter().filter(|(_, i)| i.as_ref() == Some(inner)).count() == 1
                    && !columns.iter().any(|(k, i)| i.is_none() && k == inner) =>
            {
                inner.replace('_', " ")
            }
            Some(inner) => format!("{} {}", key.replace('_', " "), inner.replace('_', " ")),
        })
        .collect();
    let failed = records.iter().any(|r| r.error.is_some());
    let mut header = vec!["database".to_string(), "result".to_string()];
    header.extend(labels);
    if failed {
        header.push("error".into());
    }
    let rows: Vec<Vec<String>> = records
        .iter()
        .map(|r| {
            let result = match r.exit_code {
                Some(crate::exit::CLEAN) => "clean",
                Some(crate::exit::FINDINGS) => "findings",
                Some(crate::exit::LOCK_HELD) => "lock held",
                Some(crate::exit::INTERRUPTED) => "interrupted",
                Some(_) => "error",
                None => "not run",
            };
            let mut row = vec![r.name.clone(), result.to_string()];
            row.extend(columns.iter().map(|c| get(r, c).as_ref().map(figure).unwrap_or_default()));
            if failed {
                row.push(r.error.clone().unwrap_or_default());
            }
            row
        })
        .collect();
    let term = console::Term::stderr();
    let width = term.is_term().then(|| usize::from(term.size().1));
    crate::report::table::render(
        &header,
        &rows,
        crate::report::table::Layout { width, color: false, right: false, wrap: false },
    )
}

/// Each database's notes for people (JSON has them in `by_database`).
pub fn say_notes(records: &[Record], out: &mut impl std::io::Write) -> std::io::Result<()> {
    for record in records {
        if let Some(Value::Array(notes)) = record.fields.get("notes") {
            for note in notes.iter().filter_map(Value::as_str) {
                writeln!(out, "{}: note: {note}", record.name)?;
            }
        }
    }
    Ok(())
}

/// A number as people read it: fractions to two decimals.
fn figure(v: &Value) -> String {
    match v {
        Value::Number(n) if n.is_f64() => {
            let text = format!("{:.2}", n.as_f64().unwrap_or(0.0));
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        }
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn totals_add_counts_and_keep_the_slowest() {
        let a = json!({"cluster_count": 2, "clusters_by_cause": {"no-key": 2}, "sum_at_stake": 10.25,
            "elapsed_seconds": 1.5, "extra_share": 0.1, "table": "public.orders", "slowest_batch_ms": 3.0,
            "projections": [{"retention": "24h", "bytes": 100}], "smallest_batch_rows": 10});
        let b = json!({"cluster_count": 3, "clusters_by_cause": {"no-key": 1, "key-reused": 4}, "sum_at_stake": 0.75,
            "elapsed_seconds": 0.5, "extra_share": 0.3, "table": "public.orders", "slowest_batch_ms": 9.5,
            "projections": [{"retention": "24h", "bytes": 50}], "smallest_batch_rows": 4});
        let rules = |key: &str| match key {
            "elapsed_seconds" | "slowest_batch_ms" => Fold::Max,
            "smallest_batch_rows" => Fold::Min,
            "extra_share" => Fold::Drop,
            _ => Fold::Sum,
        };
        let t = total([a.as_object().unwrap(), b.as_object().unwrap()], &rules);
        assert_eq!(
            Value::Object(t),
            json!({"cluster_count": 5, "clusters_by_cause": {"no-key": 3, "key-reused": 4}, "sum_at_stake": 11,
                "elapsed_seconds": 1.5, "table": "public.orders", "slowest_batch_ms": 9.5,
                "projections": [{"retention": "24h", "bytes": 150}], "smallest_batch_rows": 4})
        );
    }
}
