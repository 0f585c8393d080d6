//! Catalog introspection: a table's columns, types, primary key, unique
//! indexes and column defaults, read from the engine's own catalog.

use anyhow::{Result, bail};

use super::{Bind, Db, Engine};

#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: String,
    /// The type as the catalog spells it: lower case (`timestamp with time zone`,
    /// `int(11)`), but for PostgreSQL's user types, quoted as SQL needs them.
    pub data_type: String,
    /// The type a domain stands for (PostgreSQL), spelled as `data_type`;
    /// the type itself for every other column.
    pub base_type: String,
    pub default: Option<String>,
    /// `identity` (PostgreSQL) or `auto_increment` (MySQL) when the engine
    /// mints the value; `on update current_timestamp` (MySQL) or `on update
    /// trigger` when the server stamps it on every update of the row.
    pub generated: String,
    /// Declared NOT NULL (a primary key's columns on PostgreSQL and MySQL too).
    pub not_null: bool,
    /// Part of a foreign key: a reference to another row, never a time or a key.
    pub foreign: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct UniqueIndex {
    pub name: String,
    pub primary: bool,
    /// Indexed columns in order; `None` for an expression.
    pub columns: Vec<Option<String>>,
}

/// Any index of a table, by its leading column: enough to tell whether a
/// condition on that column can be answered without reading the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    pub name: String,
    /// `None` for an expression.
    pub first_column: Option<String>,
    pub unique: bool,
    /// Indexes only the rows matching a condition.
    pub partial: bool,
}

#[derive(Debug, Clone)]
pub struct Table {
    pub engine: Engine,
    pub schema: String,
    pub name: String,
    pub columns: Vec<Column>,
    pub primary_key: Vec<String>,
    pub unique: Vec<UniqueIndex>,
}

pub(crate) use super::dialect::query_file;

/// Reads a table's description; `name` may be `schema.table`.
pub async fn table(db: &mut Db, name: &str) -> Result<Table> {
    let engine = db.engine();
    let dialect = db.dialect();
    let current = db.query_value(query_file!(engine, "current_schema.sql"), &[]).await?;
    let Some(current) = current else {
        bail!("no database selected: name one in the URL");
    };
    let mut schema = current.clone();
    let mut table_name = name.to_string();
    let mut tables = table_names(db, &schema).await?;
    if !tables.contains(&table_name) {
        // Quoted as the engine quotes names (`"Orders"`, `trial."keys"`,
        // `` `shop`.`orders` ``): each part as it is spelled; else
        // `schema.table` at the first dot.
        let parts = match name.contains(['"', '`']) {
            true => quoted_parts(name).ok(),
            false => name.split_once('.').map(|(s, t)| vec![s.to_string(), t.to_string()]),
        };
        match parts.as_deref() {
            Some([t]) => table_name = t.clone(),
            Some([s, t]) if dialect.has_schemas() => {
                schema = s.clone();
                table_name = t.clone();
                tables = table_names(db, &schema).await?;
            }
            _ => {}
        }
    }
    if !tables.contains(&table_name) {
        let hidden = dialect.unlisted_table_hint();
        bail!("no table {name:?} in {}{hidden}{}", dialect.schema_word(&schema), suggest(&table_name, &tables));
    }
    // From here on, a lock wait names this table (reading a column's default
    // waits on a lock of the table on PostgreSQL).
    db.set_subject(&schema, &table_name);
    let binds = [Bind::Text(schema.clone()), Bind::Text(table_name.clone())];
    let mut columns = Vec::new();
    // Where the catalog places columns in the primary key (SQLite's pragma),
    // the key is theirs; elsewhere it comes from the unique indexes.
    let mut pk_positions: Vec<(i64, String)> = Vec::new();
    for row in db.query_text(query_file!(engine, "columns.sql"), &binds).await? {
        let [name, data_type, default, generated, pk_position, base_type, not_null, foreign] =
            <[Option<String>; 8]>::try_from(row).map_err(|_| anyhow::anyhow!("unexpected catalog row shape"))?;
        let name = name.unwrap_or_default();
        let position: i64 = pk_position.and_then(|p| p.parse().ok()).unwrap_or(0);
        if position > 0 {
            pk_positions.push((position, name.clone()));
        }
        columns.push(Column {
            name,
            data_type: dialect.type_spelling(data_type.unwrap_or_default()),
            base_type: dialect.type_spelling(base_type.unwrap_or_default()),
            default,
            generated: generated.unwrap_or_default().to_lowercase(),
            not_null: not_null.as_deref() == Some("1"),
            foreign: foreign.as_deref() == Some("1"),
        });
    }
    let mut unique: Vec<UniqueIndex> = Vec::new();
    for row in db.query_text(query_file!(engine, "unique_indexes.sql"), &binds).await? {
        let [index, kind, column] =
            <[Option<String>; 3]>::try_from(row).map_err(|_| anyhow::anyhow!("unexpected catalog row shape"))?;
        let index = index.unwrap_or_default();
        match unique.last_mut() {
            Some(last) if last.name == index => last.columns.push(column),
            _ => unique.push(UniqueIndex {
                name: index,
                primary: kind.as_deref() == Some("primary"),
                columns: vec![column],
            }),
        }
    }
    let primary_key = if pk_positions.is_empty() {
        unique.iter().find(|u| u.primary).map(|u| u.columns.iter().flatten().cloned().collect()).unwrap_or_default()
    } else {
        pk_positions.sort();
        pk_positions.into_iter().map(|(_, name)| name).collect()
    };
    Ok(Table { engine, schema, name: table_name, columns, primary_key, unique })
}

/// The distinct values of a column, as text, among the first `sample` rows.
pub async fn values_in_use(db: &mut Db, table: &Table, column: &str, sample: u64) -> Result<Vec<String>> {
    let dialect = db.dialect();
    let sql = super::fill(
        crate::db::dialect::query_file!(shared, "values_in_use.sql"),
        &[
            ("value", &dialect.text(&dialect.ident(column))),
            ("table", &table.sql_name(&dialect)),
            ("sample", &sample.to_string()),
        ],
    );
    Ok(db.query_text(&sql, &[]).await?.into_iter().filter_map(|r| r.into_iter().next().flatten()).collect())
}

/// The shortest difference `a - b` (microsecond expressions) among the
/// first `sample` rows where both are set.
pub async fn shortest_difference(db: &mut Db, table: &Table, a: &str, b: &str, sample: u64) -> Result<Option<i64>> {
    let dialect = db.dialect();
    let sql = super::fill(
        crate::db::dialect::query_file!(shared, "shortest_difference.sql"),
        &[("a", a), ("b", b), ("table", &table.sql_name(&dialect)), ("sample", &sample.to_string())],
    );
    Ok(db.query_value(&sql, &[]).await?.and_then(|v| v.parse::<f64>().ok()).map(|v| v as i64))
}

/// The distinct combinations of some columns' values, as text, among the first `sample` rows.
pub async fn combinations_in_use(
    db: &mut Db,
    table: &Table,
    columns: &[String],
    sample: u64,
) -> Result<Vec<Vec<Option<String>>>> {
    let dialect = db.dialect();
    let inner: Vec<String> =
        columns.iter().enumerate().map(|(i, c)| format!("{} AS v{i}", dialect.text(&dialect.ident(c)))).collect();
    let outer: Vec<String> = (0..columns.len()).map(|i| format!("v{i}")).collect();
    let sql = super::fill(
        crate::db::dialect::query_file!(shared, "combinations_in_use.sql"),
        &[
            ("values", &outer.join(", ")),
            ("inner", &inner.join(", ")),
            ("table", &table.sql_name(&dialect)),
            ("sample", &sample.to_string()),
        ],
    );
    db.query_text(&sql, &[]).await
}

/// What limits a column, as the catalog tells (`allowed_values.sql`): its
/// enum type's labels or type, and CHECK definitions; `None` where the
/// catalog cannot be read.
async fn limits_on(db: &mut Db, table: &Table, column: &str) -> Option<Vec<Vec<Option<String>>>> {
    let binds = [
        Bind::Text(table.schema.clone()),
        Bind::Text(table.name.clone()),
        Bind::Text(column.to_string()),
        Bind::Text(table.schema.clone()),
        Bind::Text(table.name.clone()),
    ];
    db.query_text(query_file!(db.engine(), "allowed_values.sql"), &binds).await.ok()
}

/// How a key table's keys repeat among its first rows read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyRepeats {
    pub rows: u64,
    /// Keys held by two rows or more under one scope and operation: a
    /// request stored twice.
    pub twice: u64,
    /// Keys held under two scopes or operations or more: kept apart by them.
    pub apart: u64,
}

/// How the keys of `table` repeat among its first `sample` rows; `columns`
/// are the scope and operation columns, then the key.
pub async fn key_repeats(db: &mut Db, table: &Table, columns: &[String], sample: u64) -> Result<KeyRepeats> {
    let dialect = db.dialect();
    let inner: Vec<String> = columns.iter().enumerate().map(|(i, c)| format!("{} AS v{i}", dialect.ident(c))).collect();
    let all: Vec<String> = (0..columns.len()).map(|i| format!("v{i}")).collect();
    let key = all.last().cloned().unwrap_or_default();
    let sql = super::fill(
        crate::db::dialect::query_file!(shared, "key_collisions.sql"),
        &[
            ("inner", &inner.join(", ")),
            ("all", &all.join(", ")),
            ("key", &key),
            ("table", &table.sql_name(&dialect)),
            ("sample", &sample.to_string()),
        ],
    );
    let row = db.query_text(&sql, &[]).await?.into_iter().next().unwrap_or_default();
    let n = |i: usize| row.get(i).cloned().flatten().and_then(|v| v.parse().ok()).unwrap_or(0);
    Ok(KeyRepeats { rows: n(0), twice: n(1), apart: n(2) })
}

/// The values a column's type or CHECK constraint allows, where they say
/// (an enum type, `CHECK (status IN ('a', 'b'))`); `None` where nothing
/// limits the column to a list of values, or the catalog does not tell.
pub async fn allowed_values(db: &mut Db, table: &Table, column: &str) -> Result<Option<Vec<String>>> {
    let Some(rows) = limits_on(db, table, column).await else { return Ok(None) };
    let mut values = Vec::new();
    let mut limited = false;
    for row in rows {
        let kind = row.first().cloned().flatten().unwrap_or_default();
        let Some(text) = row.get(1).cloned().flatten() else { continue };
        match kind.as_str() {
            "label" => {
                limited = true;
                values.push(text);
            }
            "type" => {
                limited = true;
                values.extend(quoted_literals(&text));
            }
            _ => {
                for clause in check_clauses(&text) {
                    let lower = clause.to_lowercase();
                    let mentions = lower.contains(&column.to_lowercase());
                    let a_list = lower.contains(" in ")
                        || lower.contains(" in(")
                        || lower.contains("any")
                        || lower.contains(" or ");
                    let negated = lower.contains("<>") || lower.contains("!=") || lower.contains("not ");
                    if mentions && a_list && !negated {
                        limited = true;
                        values.extend(quoted_literals(&clause));
                    }
                }
            }
        }
    }
    values.sort();
    values.dedup();
    Ok(limited.then_some(values))
}

/// The CHECK clauses that name a column, as the catalog writes them; none
/// where the catalog does not tell.
pub async fn checks_on(db: &mut Db, table: &Table, column: &str) -> Vec<String> {
    let Some(rows) = limits_on(db, table, column).await else { return Vec::new() };
    let mut found: Vec<String> = rows
        .into_iter()
        .filter(|row| row.first().cloned().flatten().as_deref() == Some("check"))
        .filter_map(|row| row.get(1).cloned().flatten())
        .flat_map(|text| check_clauses(&text))
        // A table's definition without a CHECK (SQLite's) holds none.
        .filter(|clause| !clause.trim_start().to_uppercase().starts_with("CREATE"))
        .filter(|clause| clause.to_lowercase().contains(&column.to_lowercase()))
        .map(|clause| clause.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    found.sort();
    found.dedup();
    found
}

/// The `CHECK (...)` clauses of a definition; a bare clause is itself.
fn check_clauses(text: &str) -> Vec<String> {
    let upper = text.to_uppercase();
    if !upper.contains("CHECK") {
        return vec![text.to_string()];
    }
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = upper[from..].find("CHECK") {
        let start = from + at + 5;
        let Some(open) = text[start..].find('(').map(|o| start + o) else { break };
        let mut depth = 0;
        let mut quoted = false;
        let mut end = text.len();
        for (i, c) in text[open..].char_indices() {
            match c {
                '\'' => quoted = !quoted,
                '(' if !quoted => depth += 1,
                ')' if !quoted => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        // The clause with its parentheses: an expression as it stands.
        out.push(text[open..(end + 1).min(text.len())].to_string());
        from = end.min(text.len());
    }
    out
}

/// The single-quoted literals in SQL text (`''` is a quote inside one).
fn quoted_literals(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\'' {
            continue;
        }
        let mut literal = String::new();
        while let Some(c) = chars.next() {
            if c == '\'' {
                if chars.peek() == Some(&'\'') {
                    chars.next();
                    literal.push('\'');
                    continue;
                }
                break;
            }
            literal.push(c);
        }
        out.push(literal);
    }
    out
}

/// Every index of a table (an SQLite rowid is not one).
pub async fn indexes(db: &mut Db, table: &Table) -> Result<Vec<Index>> {
    let binds = [Bind::Text(table.schema.clone()), Bind::Text(table.name.clone())];
    let rows = db.query_text(query_file!(db.engine(), "indexes.sql"), &binds).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let cell = |i: usize| row.get(i).cloned().flatten();
            Index {
                name: cell(0).unwrap_or_default(),
                first_column: cell(1),
                unique: cell(2).as_deref() == Some("unique"),
                partial: cell(3).as_deref() == Some("partial"),
            }
        })
        .collect())
}

async fn table_names(db: &mut Db, schema: &str) -> Result<Vec<String>> {
    let rows = db.query_text(query_file!(db.engine(), "tables.sql"), &[Bind::Text(schema.to_string())]).await?;
    Ok(rows.into_iter().filter_map(|r| r.into_iter().next().flatten()).collect())
}

/// ` (did you mean "orders"?)`: the closest names, or nothing when none is close.
/// The parts of a dotted name, each quoted (`"..."` or `` `...` ``, the
/// quote doubled inside) or plain: `trial."Idempotency Keys"` is `trial`
/// and `Idempotency Keys`.
fn quoted_parts(name: &str) -> Result<Vec<String>> {
    let mut parts = Vec::new();
    let mut chars = name.trim().chars().peekable();
    loop {
        let mut part = String::new();
        match chars.peek().copied() {
            Some(q @ ('"' | '`')) => {
                chars.next();
                loop {
                    match chars.next() {
                        Some(c) if c == q && chars.peek() == Some(&q) => {
                            chars.next();
                            part.push(q);
                        }
                        Some(c) if c == q => break,
                        Some(c) => part.push(c),
                        None => bail!("{name:?}: a quote is not closed"),
                    }
                }
            }
            _ => {
                while let Some(&c) = chars.peek() {
                    if c == '.' {
                        break;
                    }
                    if c == '"' || c == '`' {
                        bail!("{name:?}: a quote inside a name part: quote the whole part");
                    }
                    part.push(c);
                    chars.next();
                }
            }
        }
        if part.is_empty() {
            bail!("{name:?}: an empty name part");
        }
        parts.push(part);
        match chars.next() {
            None => return Ok(parts),
            Some('.') => {}
            Some(c) => bail!("{name:?}: {c:?} after a quoted part (parts are joined by a dot)"),
        }
    }
}

pub fn suggest(name: &str, candidates: &[String]) -> String {
    let lower = name.to_lowercase();
    let mut scored: Vec<(f64, &String)> = candidates
        .iter()
        .map(|c| (strsim::normalized_damerau_levenshtein(&lower, &c.to_lowercase()), c))
        .filter(|(score, _)| *score >= 0.5)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let best = scored.first().map_or(0.0, |s| s.0);
    let names: Vec<String> =
        scored.iter().take_while(|(score, _)| *score >= best - 0.15).take(3).map(|(_, c)| format!("{c:?}")).collect();
    match names.len() {
        0 => String::new(),
        _ => format!(" (did you mean {}?)", names.join(" or ")),
    }
}

impl Table {
    /// The quoted, schema-qualified name for SQL.
    pub fn sql_name(&self, dialect: &super::Dialect) -> String {
        match dialect.has_schemas() {
            true => dialect.table(Some(&self.schema), &self.name),
            false => dialect.ident(&self.name),
        }
    }

    /// Whether the column is SQLite's rowid (an INTEGER PRIMARY KEY): its
    /// order is the table's, with no index of its own.
    pub fn is_rowid(&self, column: &str) -> bool {
        super::Dialect::new(self.engine).has_rowid()
            && self.primary_key == [column]
            && self.columns.iter().any(|c| c.name == column && c.data_type == "integer")
    }

    /// Whether the database fills the column itself on every insert (a
    /// sequence, an identity, a generated uuid or time, SQLite's rowid).
    pub fn mints(&self, column: &str) -> bool {
        self.columns.iter().find(|c| c.name == column).is_some_and(|c| c.mints().is_some()) || self.is_rowid(column)
    }

    /// The column named exactly so, or an error naming it and the closest names.
    pub fn column(&self, name: &str) -> Result<&Column> {
        if let Some(c) = self.columns.iter().find(|c| c.name == name) {
            return Ok(c);
        }
        let names: Vec<String> = self.columns.iter().map(|c| c.name.clone()).collect();
        bail!("no column {name:?} in table {:?}{}", self.name, suggest(name, &names))
    }

    /// The first column whose name, compared without case, is one of `names`.
    pub fn find_column(&self, names: &[&str]) -> Option<&Column> {
        names.iter().find_map(|n| self.columns.iter().find(|c| c.name.eq_ignore_ascii_case(n)))
    }

    /// The unique index that makes this column unique on its own, if any.
    pub fn unique_alone(&self, column: &str) -> Option<&UniqueIndex> {
        self.unique.iter().find(|u| u.columns.len() == 1 && u.columns[0].as_deref() == Some(column))
    }
}

impl Column {
    /// Why the engine fills this column with a fresh value on every insert, if it does.
    pub fn mints(&self) -> Option<String> {
        if self.generated.contains("identity") {
            return Some("identity column".into());
        }
        if self.generated.contains("auto_increment") {
            return Some("auto_increment".into());
        }
        let default = self.default.as_deref()?;
        let lower = default.to_lowercase();
        const MINTING: &[&str] = &[
            "nextval(",
            "uuid",
            "newid(",
            "ulid",
            "random",
            "now()",
            "current_timestamp",
            "current_date",
            "current_time",
            "localtimestamp",
            "localtime",
            "clock_timestamp",
            "statement_timestamp",
            "transaction_timestamp",
            "sysdate",
            "unixepoch",
            "strftime",
            "julianday",
            "datetime(",
        ];
        MINTING.iter().any(|m| lower.contains(m)).then(|| format!("default mints a value: {default}"))
    }

    pub fn is_integer(&self) -> bool {
        let t = self.base_type.as_str();
        t.contains("int") && !t.contains("interval") && !t.contains("point") && !self.is_array()
    }

    /// Whether the type is a native date or time type (a domain over one too).
    pub fn is_temporal(&self) -> bool {
        let t = self.base_type.as_str();
        (t.starts_with("timestamp") || t.starts_with("datetime") || t == "date") && !self.is_array()
    }

    /// How the server stamps the column on every update of its row, if it
    /// does: MySQL's `ON UPDATE CURRENT_TIMESTAMP`, or a trigger that sets it.
    pub fn stamped_on_update(&self) -> Option<&'static str> {
        if self.generated.contains("on update current_timestamp") {
            Some("ON UPDATE CURRENT_TIMESTAMP")
        } else if self.generated.contains("on update trigger") {
            Some("an UPDATE trigger sets it")
        } else {
            None
        }
    }

    /// Whether the column is a PostgreSQL array.
    pub fn is_array(&self) -> bool {
        self.base_type.ends_with(']')
    }

    /// Whether the column's type is a domain over another (PostgreSQL).
    pub fn is_domain(&self) -> bool {
        self.base_type != self.data_type
    }

    /// A nullable column of type `ty`, no default, for the unit tests.
    #[cfg(test)]
    pub fn of(name: &str, ty: &str) -> Column {
        Column {
            name: name.into(),
            data_type: ty.into(),
            base_type: ty.into(),
            default: None,
            generated: String::new(),
            not_null: false,
            foreign: false,
        }
    }
}

impl Table {
    /// A table of schema `public` on `engine` with these columns and
    /// primary key, no other unique index, for the unit tests.
    #[cfg(test)]
    pub fn of(engine: Engine, name: &str, columns: Vec<Column>, primary_key: &[&str]) -> Table {
        Table {
            engine,
            schema: "public".into(),
            name: name.into(),
            columns,
            primary_key: primary_key.iter().map(|c| c.to_string()).collect(),
            unique: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(default: Option<&str>, generated: &str) -> Column {
        Column {
            name: "c".into(),
            data_type: "text".into(),
            base_type: "text".into(),
            default: default.map(Into::into),
            generated: generated.into(),
            not_null: false,
            foreign: false,
        }
    }

    #[test]
    fn minting_defaults() {
        assert!(col(Some("nextval('orders_id_seq'::regclass)"), "").mints().is_some());
        assert!(col(Some("gen_random_uuid()"), "").mints().is_some());
        assert!(col(Some("uuid()"), "").mints().is_some());
        assert!(col(Some("current_timestamp(6)"), "").mints().is_some());
        assert!(col(Some("(lower(hex(randomblob(16))))"), "").mints().is_some());
        assert!(col(None, "identity").mints().is_some());
        assert!(col(None, "auto_increment").mints().is_some());
        assert!(col(Some("'EUR'::text"), "").mints().is_none());
        assert!(col(Some("0"), "").mints().is_none());
        assert!(col(None, "").mints().is_none());
    }

    #[test]
    fn allowed_values_from_definitions() {
        assert_eq!(quoted_literals("enum('in_progress','it''s')"), ["in_progress", "it's"]);
        let pg = "CHECK ((status = ANY (ARRAY['INPROGRESS'::text, 'COMPLETED'::text])))";
        assert_eq!(quoted_literals(&check_clauses(pg)[0]), ["INPROGRESS", "COMPLETED"]);
        let sqlite = "CREATE TABLE t (status TEXT CHECK (status IN ('a', 'b')), n INT CHECK (n > 0))";
        assert_eq!(check_clauses(sqlite).len(), 2);
        assert_eq!(quoted_literals(&check_clauses(sqlite)[0]), ["a", "b"]);
    }

    #[test]
    fn quoted_names() {
        let parts = |n: &str| quoted_parts(n).map_err(|e| e.to_string());
        assert_eq!(parts("orders").unwrap(), ["orders"]);
        assert_eq!(parts("trial.\"idempotency_keys\"").unwrap(), ["trial", "idempotency_keys"]);
        assert_eq!(parts("\"My Schema\".\"Keys \"\"v2\"\"\"").unwrap(), ["My Schema", "Keys \"v2\""]);
        assert_eq!(parts("`shop`.`orders`").unwrap(), ["shop", "orders"]);
        assert_eq!(parts("\"a.b\"").unwrap(), ["a.b"]);
        assert!(parts("\"orders").unwrap_err().contains("a quote is not closed"));
        assert!(parts("a.").unwrap_err().contains("an empty name part"));
        assert!(parts("\"a\"b").unwrap_err().contains("after a quoted part"));
    }

    #[test]
    fn suggestions() {
        let names = vec!["orders".to_string(), "order_items".to_string(), "customers".to_string()];
        assert_eq!(suggest("ordres", &names), " (did you mean \"orders\"?)");
        assert_eq!(suggest("Orders", &names), " (did you mean \"orders\"?)");
        assert_eq!(suggest("zzzzzz", &names), "");
    }
}
