//! The dialect layer: every SQL fragment that differs by engine.

use super::{Bind, Engine};

/// How a time column stores its instants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeRepr {
    /// A native timestamp (timestamptz, timestamp, datetime, date).
    Native { with_zone: bool },
    /// Integer seconds since the epoch.
    EpochSeconds,
    /// Integer milliseconds since the epoch.
    EpochMillis,
    /// SQLite: ISO-8601 text, or numbers in the given unit, decided per value.
    SqliteDynamic { millis: bool },
}

/// The quoted columns a scan reads.
#[derive(Debug)]
pub struct ScanColumns<'a> {
    pub id: &'a str,
    pub created_at: &'a str,
    pub repr: TimeRepr,
    pub key: Option<&'a str>,
    pub by: Option<&'a str>,
    pub sum: Option<&'a str>,
    pub compared: &'a [String],
}

#[derive(Debug, Clone, Copy)]
pub struct Dialect {
    engine: Engine,
}

impl Dialect {
    pub fn new(engine: Engine) -> Self {
        Dialect { engine }
    }

    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// A quoted identifier: the name as the catalog spells it, whatever it holds.
    pub fn ident(&self, name: &str) -> String {
        match self.engine {
            Engine::MySql => format!("`{}`", name.replace('`', "``")),
            Engine::Postgres | Engine::Sqlite => format!("\"{}\"", name.replace('"', "\"\"")),
        }
    }

    /// A quoted, possibly schema-qualified table name.
    pub fn table(&self, schema: Option<&str>, name: &str) -> String {
        match schema {
            Some(schema) => format!("{}.{}", self.ident(schema), self.ident(name)),
            None => self.ident(name),
        }
    }

    /// The placeholder for the `n`th (1-based) bound value.
    pub fn placeholder(&self, n: usize) -> String {
        match self.engine {
            Engine::Postgres => format!("${n}"),
            Engine::MySql | Engine::Sqlite => "?".to_string(),
        }
    }

    /// An expression giving the column as text, NULL staying NULL.
    pub fn text(&self, expr: &str) -> String {
        match self.engine {
            Engine::Postgres => format!("({expr})::text"),
            Engine::MySql => format!("CAST({expr} AS CHAR)"),
            Engine::Sqlite => format!("CAST({expr} AS TEXT)"),
        }
    }

    /// One value that is equal for two rows exactly when every column is equal,
    /// NULL counting as equal to NULL: each value as an SQL literal, NULL as the
    /// bare word. Folding the columns into one value in SQL costs the server
    /// little and spares the client a decode per column.
    pub fn fold(&self, columns: &[String]) -> String {
        let quoted: Vec<String> = columns
            .iter()
            .map(|c| match self.engine {
                Engine::Postgres => format!("quote_nullable({c})"),
                Engine::MySql => format!("QUOTE({c})"),
                Engine::Sqlite => format!("quote({c})"),
            })
            .collect();
        match self.engine {
            Engine::Postgres | Engine::MySql => format!("concat_ws(',', {})", quoted.join(", ")),
            Engine::Sqlite => quoted.join(" || ',' || "),
        }
    }

    /// The scan's select list, in this order: id, created-at, key, by, sum,
    /// then the compared values (`RowView::fold_into` reads them from there).
    /// PostgreSQL sends columns as they are: its binary values fold without
    /// decoding, cheaper than any conversion on the server. MySQL and SQLite
    /// convert in SQL, where it costs less than a decode per column here.
    pub fn scan_select(&self, cols: &ScanColumns<'_>) -> String {
        let optional = |c: Option<&str>| match (self.engine, c) {
            (_, None) => "NULL".to_string(),
            (Engine::Postgres, Some(c)) => c.to_string(),
            (_, Some(c)) => self.text(c),
        };
        let mut list = vec![
            cols.id.to_string(),
            match self.engine {
                Engine::Postgres => cols.created_at.to_string(),
                _ => self.epoch_micros(cols.created_at, cols.repr),
            },
            optional(cols.key),
            optional(cols.by),
            optional(cols.sum),
        ];
        match self.engine {
            Engine::Postgres => list.extend(cols.compared.iter().cloned()),
            _ => list.push(self.fold(cols.compared)),
        }
        // Aliases keep ORDER BY names pointing at the table's columns.
        list.iter().enumerate().map(|(i, e)| format!("{e} AS idemctl_{i}")).collect::<Vec<_>>().join(", ")
    }

    /// Splits a value made by `fold` back into its column values, for reports.
    pub fn unfold(&self, folded: &[u8]) -> Vec<Option<String>> {
        unfold_literals(&String::from_utf8_lossy(folded), self.engine == Engine::MySql)
    }

    /// An expression giving a time column as integer microseconds since the epoch.
    pub fn epoch_micros(&self, col: &str, repr: TimeRepr) -> String {
        match (self.engine, repr) {
            (_, TimeRepr::EpochSeconds) => format!("({col}) * 1000000"),
            (_, TimeRepr::EpochMillis) => format!("({col}) * 1000"),
            (Engine::Postgres, TimeRepr::Native { .. }) => {
                // date_part gives double precision: exact to the microsecond for
                // any instant of this era, and much cheaper than numeric extract.
                format!("round(date_part('epoch', {col}) * 1000000)::int8")
            }
            (Engine::MySql, TimeRepr::Native { .. }) => {
                format!("TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', {col})")
            }
            (Engine::Sqlite, TimeRepr::SqliteDynamic { millis }) => {
                let mult = if millis { 1000 } else { 1_000_000 };
                // julianday keeps milliseconds internally; round back to them.
                format!(
                    "CASE WHEN typeof({col}) IN ('integer', 'real') THEN CAST({col} * {mult} AS INTEGER) \
                     ELSE CAST(round((julianday({col}) - 2440587.5) * 86400000.0) AS INTEGER) * 1000 END"
                )
            }
            (Engine::Sqlite, TimeRepr::Native { .. }) | (_, TimeRepr::SqliteDynamic { .. }) => {
                unreachable!("time representation {repr:?} does not occur on {}", self.engine.name())
            }
        }
    }

    /// A condition `col >= t` (or `col < t` when `!at_least`) that the engine can
    /// answer from an index on the column, and the value to bind to it. On
    /// PostgreSQL the value is written into the SQL (scans stream through COPY,
    /// which takes no bound values); it is a number or a time formatted here.
    pub fn time_bound(&self, col: &str, repr: TimeRepr, at_least: bool, t_us: i64, n: usize) -> (String, Option<Bind>) {
        let (cond, bind) = self.time_bound_bound(col, repr, at_least, t_us, n);
        if self.engine != Engine::Postgres {
            return (cond, Some(bind));
        }
        let value = match bind {
            Bind::Int(v) => v.to_string(),
            Bind::Text(t) => super::pg::literal(&t),
        };
        (cond.replace(&self.placeholder(n), &value), None)
    }

    fn time_bound_bound(&self, col: &str, repr: TimeRepr, at_least: bool, t_us: i64, n: usize) -> (String, Bind) {
        let op = if at_least { ">=" } else { "<" };
        let p = self.placeholder(n);
        let t = crate::timeparse::from_micros(t_us);
        match (self.engine, repr) {
            (_, TimeRepr::EpochSeconds) => (format!("{col} {op} {p}"), Bind::Int(ceil_div(t_us, 1_000_000))),
            (_, TimeRepr::EpochMillis) => (format!("{col} {op} {p}"), Bind::Int(ceil_div(t_us, 1_000))),
            (Engine::Postgres, TimeRepr::Native { with_zone: true }) => {
                (format!("{col} {op} CAST({p} AS timestamptz)"), Bind::Text(crate::timeparse::rfc3339(t)))
            }
            (Engine::Postgres, TimeRepr::Native { with_zone: false }) => (
                format!("{col} {op} (CAST({p} AS timestamptz) AT TIME ZONE 'UTC')"),
                Bind::Text(crate::timeparse::rfc3339(t)),
            ),
            (Engine::MySql, _) => {
                (format!("{col} {op} {p}"), Bind::Text(t.format("%Y-%m-%d %H:%M:%S%.6f").to_string()))
            }
            (Engine::Sqlite, _) => (format!("({}) {op} {p}", self.epoch_micros(col, repr)), Bind::Int(t_us)),
            (Engine::Postgres, TimeRepr::SqliteDynamic { .. }) => {
                unreachable!("SQLite representation on postgres")
            }
        }
    }
}

/// `a / b` rounded up, for instants between two whole units.
fn ceil_div(a: i64, b: i64) -> i64 {
    let q = a.div_euclid(b);
    if a.rem_euclid(b) == 0 { q } else { q + 1 }
}

/// Splits `'a',NULL,42,'it''s'` into its values. With `backslash`, `\x`
/// escapes are read inside quotes (MySQL's QUOTE); PostgreSQL marks such
/// strings with a leading E.
fn unfold_literals(text: &str, backslash: bool) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        let mut value = String::new();
        let mut quoted = false;
        let mut escapes = backslash;
        // An optional E (PostgreSQL) or X (blob) prefix before a quote.
        while let Some(&c) = chars.peek() {
            if c == ',' {
                break;
            }
            if c == '\'' {
                quoted = true;
                chars.next();
                if value.eq_ignore_ascii_case("E") {
                    escapes = true;
                    value.clear();
                } else if value.eq_ignore_ascii_case("X") {
                    value.push('\'');
                    quoted = false;
                    for c in chars.by_ref() {
                        value.push(c);
                        if c == '\'' {
                            break;
                        }
                    }
                    continue;
                }
                while let Some(c) = chars.next() {
                    match c {
                        '\\' if escapes => match chars.next() {
                            Some('0') => value.push('\0'),
                            Some('Z') => value.push('\u{1a}'),
                            Some('n') if backslash => value.push('\n'),
                            Some('r') if backslash => value.push('\r'),
                            Some(other) => value.push(other),
                            None => {}
                        },
                        '\'' if chars.peek() == Some(&'\'') => {
                            chars.next();
                            value.push('\'');
                        }
                        '\'' => break,
                        other => value.push(other),
                    }
                }
                continue;
            }
            value.push(c);
            chars.next();
        }
        out.push(if !quoted && value == "NULL" { None } else { Some(value) });
        if chars.next().is_none() {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_quoted_per_engine() {
        assert_eq!(Dialect::new(Engine::Postgres).ident(r#"Ord "x""#), r#""Ord ""x""""#);
        assert_eq!(Dialect::new(Engine::MySql).ident("a`b c"), "`a``b c`");
        assert_eq!(Dialect::new(Engine::Sqlite).table(Some("main"), "t"), r#""main"."t""#);
    }

    #[test]
    fn unfold_reads_each_engines_literals() {
        assert_eq!(
            unfold_literals("'a',NULL,42,'it''s','NULL'", false),
            vec![Some("a".into()), None, Some("42".into()), Some("it's".into()), Some("NULL".into())]
        );
        assert_eq!(
            unfold_literals(r"E'back\\slash','x,y'", false),
            vec![Some(r"back\slash".into()), Some("x,y".into())]
        );
        assert_eq!(unfold_literals(r"'it\'s','a\\b',NULL", true), vec![Some("it's".into()), Some(r"a\b".into()), None]);
        assert_eq!(unfold_literals("X'00ff',1.5", false), vec![Some("X'00ff'".into()), Some("1.5".into())]);
    }
}
