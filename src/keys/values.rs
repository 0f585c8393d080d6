//! What reap writes beside the status (`--set COLUMN=VALUE`): the value
//! grammar, and each value as SQL for the column it goes to. A value is a
//! constant, the time of the change, a column plus a number, an element
//! added at the end of an array (`append(VALUE)`) or a JSON object of named
//! values (`{error: 'rescued', at: now(), attempt: attempt}`), so that a
//! resolution records what a design's own rescuer records, with no raw SQL.

use anyhow::{Context, Result, bail};

use super::KeyTable;
use crate::db::catalog::Column;
use crate::db::{Appendable, Bind, Placeholders};

/// A column written beside the status: `COLUMN=VALUE`.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    pub column: String,
    pub value: SetValue,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SetValue {
    /// The time of the change, in the column's own representation (in JSON,
    /// RFC 3339 text in UTC).
    Now,
    Null,
    Int(i64),
    /// A decimal number, as written.
    Number(String),
    Text(String),
    /// A column plus (or minus) a whole number: `attempts + 1`.
    Add(String, i64),
    /// A column's value, inside `append()` and `{}`.
    Column(String),
    /// A value added at the end of the column's array or JSON array.
    Append(Box<SetValue>),
    /// A JSON object of named values.
    Object(Vec<(String, SetValue)>),
}

impl std::fmt::Display for SetValue {
    /// The value as `--set` takes it (`now()`, `'text'`, `attempts + 1`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetValue::Now => write!(f, "now()"),
            SetValue::Null => write!(f, "NULL"),
            SetValue::Int(n) => write!(f, "{n}"),
            SetValue::Number(n) => write!(f, "{n}"),
            SetValue::Text(t) => write!(f, "'{}'", t.replace('\'', "''")),
            SetValue::Add(c, n) if *n < 0 => write!(f, "{c} - {}", n.unsigned_abs()),
            SetValue::Add(c, n) => write!(f, "{c} + {n}"),
            SetValue::Column(c) => write!(f, "{c}"),
            SetValue::Append(v) => write!(f, "append({v})"),
            SetValue::Object(members) => {
                let inner: Vec<String> = members.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                write!(f, "{{{}}}", inner.join(", "))
            }
        }
    }
}

impl SetValue {
    /// The columns the value reads.
    pub fn reads(&self) -> Vec<&str> {
        match self {
            SetValue::Add(c, _) | SetValue::Column(c) => vec![c.as_str()],
            SetValue::Append(inner) => inner.reads(),
            SetValue::Object(members) => members.iter().flat_map(|(_, v)| v.reads()).collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the value adds to what the column holds.
    fn appends(&self) -> bool {
        matches!(self, SetValue::Append(_))
    }
}

const GRAMMAR: &str = "VALUE is now(), NULL, a number, 'text', COLUMN + N, append(VALUE) or {NAME: VALUE, ...}";

/// Reads `COLUMN=VALUE`.
pub fn parse_assignment(text: &str) -> Result<Assignment, String> {
    let (column, value) = text.split_once('=').ok_or_else(|| format!("{text:?}: expected COLUMN=VALUE"))?;
    let column = column.trim();
    if column.is_empty() {
        return Err(format!("{text:?}: the column is missing before ="));
    }
    let mut reader = Reader { text: value, at: 0 };
    let value = reader.value(false).map_err(|why| format!("{text:?}: {why}"))?;
    reader.blank();
    if reader.at < value_len(reader.text) {
        let rest = &reader.text[reader.at..];
        let why = match reader.text.trim_start().starts_with('\'') {
            true => "a quote inside 'text' is written twice ('')".to_string(),
            false => format!("{rest:?} is left over: {GRAMMAR}"),
        };
        return Err(format!("{text:?}: {why}"));
    }
    Ok(Assignment { column: column.to_string(), value })
}

fn value_len(text: &str) -> usize {
    text.trim_end().len()
}

/// A cursor over a value's text.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn blank(&mut self) {
        self.at += self.rest().len() - self.rest().trim_start().len();
    }

    fn eat(&mut self, c: char) -> bool {
        self.blank();
        let found = self.rest().starts_with(c);
        if found {
            self.at += c.len_utf8();
        }
        found
    }

    /// A name or a number: letters, digits, `_`, `$` and `.` (a sign first for a number).
    fn word(&mut self) -> &str {
        self.blank();
        let start = self.at;
        let signed = self.rest().starts_with(['+', '-']) as usize;
        let len = self.rest()[signed..]
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.')))
            .unwrap_or(self.rest().len() - signed);
        self.at += signed + len;
        &self.text[start..self.at]
    }

    /// Text between quotes (`'` or `"`), a quote inside written twice.
    fn quoted(&mut self, quote: char) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        let mut chars = self.rest().char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c != quote {
                out.push(c);
            } else if chars.peek().is_some_and(|(_, n)| *n == quote) {
                out.push(quote);
                chars.next();
            } else {
                self.at += i + 1;
                return Ok(out);
            }
        }
        Err(format!("the text after {quote} has no closing {quote}"))
    }

    /// One value; `nested` inside `append()` or `{}`, where a column's name
    /// stands for its value.
    fn value(&mut self, nested: bool) -> Result<SetValue, String> {
        self.blank();
        if self.rest().starts_with('\'') {
            return self.quoted('\'').map(SetValue::Text);
        }
        if self.eat('{') {
            return self.object();
        }
        let word = self.word().to_string();
        let lower = word.to_ascii_lowercase();
        if word.is_empty() {
            return Err(GRAMMAR.to_string());
        }
        if lower == "current_timestamp" || (lower == "now" && self.eat('(') && self.eat(')')) {
            return Ok(SetValue::Now);
        }
        if lower == "append" && self.eat('(') {
            if nested {
                return Err("append() adds to the column it is set to: it does not go inside a value".to_string());
            }
            let inner = self.value(true)?;
            if !self.eat(')') {
                return Err("append( has no closing )".to_string());
            }
            return Ok(SetValue::Append(Box::new(inner)));
        }
        if lower == "null" {
            return Ok(SetValue::Null);
        }
        if let Ok(n) = word.parse::<i64>() {
            return Ok(SetValue::Int(n));
        }
        if word.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.')) {
            return match word.parse::<f64>().is_ok_and(f64::is_finite) && !word.contains(['e', 'E']) {
                true => Ok(SetValue::Number(word)),
                false => Err(format!("{word:?} is not a number written out in digits: {GRAMMAR}")),
            };
        }
        self.blank();
        if let Some(sign) = self.rest().chars().next().filter(|c| matches!(c, '+' | '-')) {
            self.at += 1;
            let n = self.word();
            return match n.parse::<i64>() {
                Ok(v) if n.chars().all(|c| c.is_ascii_digit()) => {
                    Ok(SetValue::Add(word, if sign == '-' { -v } else { v }))
                }
                _ => Err(format!("COLUMN {sign} N takes a whole number, not {n:?}")),
            };
        }
        match nested {
            true => Ok(SetValue::Column(word)),
            false => Err(format!("{word:?} alone is not a value (text is written in quotes: '{word}'): {GRAMMAR}")),
        }
    }

    /// `{NAME: VALUE, ...}`, after its `{`.
    fn object(&mut self) -> Result<SetValue, String> {
        let mut members: Vec<(String, SetValue)> = Vec::new();
        if self.eat('}') {
            return Ok(SetValue::Object(members));
        }
        loop {
            self.blank();
            let name = match self.rest().chars().next() {
                Some(q @ ('"' | '\'')) => self.quoted(q)?,
                _ => self.word().to_string(),
            };
            if name.is_empty() {
                return Err("a member of {} is NAME: VALUE".to_string());
            }
            if !self.eat(':') {
                return Err(format!("{name:?} in {{}} needs a value: {name}: VALUE"));
            }
            if members.iter().any(|(n, _)| *n == name) {
                return Err(format!("{name:?} is named twice in {{}}"));
            }
            let value = self.value(true)?;
            members.push((name, value));
            if self.eat('}') {
                return Ok(SetValue::Object(members));
            }
            if !self.eat(',') {
                return Err("members of {} are separated by commas and closed by }".to_string());
            }
        }
    }
}

/// Where a value goes: a column (a time in its own representation), an
/// element of a native array, or inside JSON.
enum Target<'a> {
    Column(&'a Column),
    Element(&'a str),
    Json,
}

/// The value an assignment writes, as SQL.
pub fn sql(keys: &KeyTable, a: &Assignment, params: &mut Placeholders) -> Result<String> {
    let column = keys.table.column(&a.column)?;
    match &a.value {
        SetValue::Append(inner) => {
            let dialect = params.dialect;
            let Some(to) = dialect.appendable(&column.base_type) else {
                bail!(
                    "--set {}=append(...): {} is {}, not an array or JSON column",
                    column.name,
                    column.name,
                    column.data_type
                );
            };
            let element = match &to {
                Appendable::Array { element } => value(keys, inner, Target::Element(element), params)?,
                Appendable::Json => value(keys, inner, Target::Json, params)?,
            };
            Ok(dialect.append(&dialect.ident(&column.name), &column.data_type, &to, &element))
        }
        SetValue::Object(_) => {
            if params.dialect.appendable(&column.base_type) != Some(Appendable::Json) {
                bail!("--set {}={{...}}: {} is {}, not a JSON column", column.name, column.name, column.data_type);
            }
            value(keys, &a.value, Target::Json, params)
        }
        other => value(keys, other, Target::Column(column), params),
    }
}

fn value(keys: &KeyTable, v: &SetValue, into: Target<'_>, params: &mut Placeholders) -> Result<String> {
    let dialect = params.dialect;
    let typed = match &into {
        Target::Column(c) => c.data_type.as_str(),
        Target::Element(t) => t,
        Target::Json => "text",
    };
    // A bare name inside append() or {} is a column: one that is not there
    // was most likely meant as text.
    let column_of = |name: &str| match keys.table.column(name) {
        Ok(c) => Ok(dialect.ident(&c.name)),
        Err(e) => Err(anyhow::anyhow!("{e} (text is written in quotes: '{name}')")),
    };
    Ok(match v {
        SetValue::Null => "NULL".to_string(),
        // Numbers in JSON are written out, and stay numbers.
        SetValue::Int(n) if matches!(into, Target::Json) => n.to_string(),
        SetValue::Number(n) if matches!(into, Target::Json) => n.clone(),
        SetValue::Int(n) => params.push(Bind::Int(*n), typed),
        SetValue::Number(n) => params.push(Bind::Text(n.clone()), typed),
        SetValue::Text(t) => params.push(Bind::Text(t.clone()), typed),
        SetValue::Add(other, n) => format!("{} + {}", column_of(other)?, params.push(Bind::Int(*n), "")),
        SetValue::Column(other) => column_of(other)?,
        SetValue::Now => match into {
            Target::Column(column) => now_in(keys, column, params)?,
            Target::Element(_) => params.push(dialect.time_value(crate::timeparse::now().timestamp_micros()), typed),
            Target::Json => {
                let now = crate::timeparse::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
                params.push(Bind::Text(now), typed)
            }
        },
        SetValue::Object(members) => {
            let mut list = Vec::new();
            for (name, member) in members {
                list.push((name.clone(), value(keys, member, Target::Json, params)?));
            }
            let object = dialect.json_object(&list);
            match into {
                Target::Json => object,
                _ => format!("CAST({object} AS {typed})"),
            }
        }
        SetValue::Append(_) => bail!("append() adds to the column it is set to: it does not go inside a value"),
    })
}

/// The time of the change, as `column` keeps times.
fn now_in(keys: &KeyTable, column: &Column, params: &mut Placeholders) -> Result<String> {
    let dialect = params.dialect;
    let now = crate::timeparse::now().timestamp_micros();
    let repr = keys.time(&column.name).map(|t| t.repr);
    let bind = match repr {
        Some(crate::db::TimeRepr::EpochSeconds) => Bind::Int(now.div_euclid(1_000_000)),
        Some(crate::db::TimeRepr::EpochMillis) => Bind::Int(now.div_euclid(1_000)),
        Some(_) => dialect.time_value(now),
        None => bail!("--set {}=now(): {} was not read as a time column", column.name, column.name),
    };
    let value = params.push(bind, &column.data_type);
    Ok(match repr {
        // A zoneless column written in another zone gets that zone's wall-clock time.
        Some(crate::db::TimeRepr::Native { with_zone: false } | crate::db::TimeRepr::SqliteDynamic { .. })
            if *keys.zone_of(&column.name) != crate::timeparse::Zone::Utc =>
        {
            let zone = keys.zone_of(&column.name);
            dialect
                .utc_to_zoneless(&value, zone)
                .with_context(|| format!("--time-zone {zone}: {} cannot convert zoneless times", dialect.name()))?
        }
        _ => value,
    })
}

/// For each assignment that appends where a row may hold other than NULL
/// or an array, its column and the condition true where it can take the
/// element.
pub fn append_conditions<'a>(
    keys: &KeyTable,
    assignments: impl Iterator<Item = &'a Assignment>,
    dialect: crate::db::Dialect,
) -> Result<Vec<(String, String)>> {
    let mut conditions = Vec::new();
    for a in assignments.filter(|a| a.value.appends()) {
        let column = keys.table.column(&a.column)?;
        if let Some(to) = dialect.appendable(&column.base_type)
            && let Some(holds) = dialect.append_holds(&dialect.ident(&column.name), &column.data_type, &to)
        {
            conditions.push((column.name.clone(), holds));
        }
    }
    Ok(conditions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_read_every_kind_of_value() {
        let value = |text: &str| parse_assignment(text).map(|a| (a.column, a.value));
        let text = |t: &str| SetValue::Text(t.into());
        assert_eq!(value("finalized_at=now()"), Ok(("finalized_at".into(), SetValue::Now)));
        assert_eq!(value("finalized_at = NOW( )"), Ok(("finalized_at".into(), SetValue::Now)));
        assert_eq!(value("locked_by = NULL"), Ok(("locked_by".into(), SetValue::Null)));
        assert_eq!(value("Retries=50"), Ok(("Retries".into(), SetValue::Int(50))));
        assert_eq!(value("Retries=-5"), Ok(("Retries".into(), SetValue::Int(-5))));
        assert_eq!(value("weight=0.5"), Ok(("weight".into(), SetValue::Number("0.5".into()))));
        assert_eq!(value("note='it''s gone'"), Ok(("note".into(), text("it's gone"))));
        assert_eq!(value("note='a=b, {c}'"), Ok(("note".into(), text("a=b, {c}"))));
        assert_eq!(value("attempts=attempts + 1"), Ok(("attempts".into(), SetValue::Add("attempts".into(), 1))));
        assert_eq!(value("left=left - 2"), Ok(("left".into(), SetValue::Add("left".into(), -2))));
        assert_eq!(value("left=left-2"), Ok(("left".into(), SetValue::Add("left".into(), -2))));
        assert_eq!(
            value("errors=append({at: now(), \"attempt\": attempt, 'error': 'Stuck, rescued', n: 1.5, x: null})"),
            Ok((
                "errors".into(),
                SetValue::Append(Box::new(SetValue::Object(vec![
                    ("at".into(), SetValue::Now),
                    ("attempt".into(), SetValue::Column("attempt".into())),
                    ("error".into(), text("Stuck, rescued")),
                    ("n".into(), SetValue::Number("1.5".into())),
                    ("x".into(), SetValue::Null),
                ])))
            ))
        );
        assert_eq!(value("tags = append('rescued')"), Ok(("tags".into(), SetValue::Append(Box::new(text("rescued"))))));
        assert_eq!(
            value("output={message: 'gone', seen: {n: n + 1}}"),
            Ok((
                "output".into(),
                SetValue::Object(vec![
                    ("message".into(), text("gone")),
                    ("seen".into(), SetValue::Object(vec![("n".into(), SetValue::Add("n".into(), 1))])),
                ])
            ))
        );
        assert_eq!(value("o={}"), Ok(("o".into(), SetValue::Object(Vec::new()))));
        for bad in [
            "nothing",
            "=1",
            "a=b",
            "a='x'y'",
            "a='open",
            "a=attempts + x",
            "a=attempts + -1",
            "a=1e9",
            "a=1 2",
            "a=append(1",
            "a=append(append(1))",
            "a={b: append(1)}",
            "a={b 1}",
            "a={b: 1, b: 2}",
            "a={b: 1",
            "a={: 1}",
        ] {
            assert!(parse_assignment(bad).is_err(), "{bad}");
        }
        assert!(parse_assignment("a='x'y'").unwrap_err().contains("written twice"));
        assert!(parse_assignment("a=done").unwrap_err().contains("'done'"));
    }

    #[test]
    fn a_value_says_what_it_reads() {
        let reads = |text: &str| parse_assignment(text).unwrap().value.reads().join(",");
        assert_eq!(reads("a=append({n: attempt, m: tries + 1, t: 'x'})"), "attempt,tries");
        assert_eq!(reads("a=now()"), "");
    }
}
