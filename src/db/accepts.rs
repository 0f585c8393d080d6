//! Whether a column would take a value: asked of the server with a
//! read-only statement, so that a dry run refuses what the real run's
//! write would fail on (`--set response_code='oops'` on an integer column).
//! Each driver says how to ask (`Driver::value_probe`): PostgreSQL casts
//! the value to the column's type as the write does; MySQL and MariaDB
//! cast it and read the warnings a strict write turns into errors; SQLite
//! checks a STRICT table's types. Lengths are checked here, where the
//! engine keeps them (not SQLite, which stores a value whole).

use anyhow::Result;

use super::catalog::{Column, Table};
use super::engine::ValueProbe;
use super::{Bind, Db};

/// Why the server would refuse `value` for `column`, or `None` when it
/// would take it. (NULL into NOT NULL is `check_assignments`' to refuse.)
pub async fn refusal(db: &mut Db, table: &Table, column: &Column, value: &str) -> Result<Option<String>> {
    if db.dialect().keeps_lengths()
        && let Some(limit) = length_limit(&column.base_type.to_lowercase())
        && value.chars().count() > limit
    {
        return Ok(Some(format!(
            "value too long for {} ({}): {} characters",
            column.name,
            column.data_type,
            value.chars().count()
        )));
    }
    let bound = [Bind::Text(value.to_string())];
    Ok(match db.dialect().value_probe(column, value) {
        ValueProbe::Nothing => None,
        ValueProbe::Refused(why) => Some(why),
        ValueProbe::Cast(sql) => db.query_value(&sql, &bound).await.err().map(|e| server_message(&e)),
        ValueProbe::Warned(sql) => match db.query_value(&sql, &bound).await {
            Err(err) => Some(server_message(&err)),
            Ok(_) => {
                let warnings = db.query_text("SHOW WARNINGS", &[]).await.unwrap_or_default();
                warnings.into_iter().find_map(|w| w.get(2).cloned().flatten())
            }
        },
        ValueProbe::Fits(sql) => {
            let binds = [Bind::Text(value.to_string()), Bind::Text(table.name.clone())];
            let fits = db.query_value(&sql, &binds).await?;
            (fits.as_deref() != Some("1")).then(|| {
                format!(
                    "cannot store TEXT value in {} column {}.{}",
                    column.data_type.to_uppercase(),
                    table.name,
                    column.name
                )
            })
        }
    })
}

/// The server's own words, without the driver's wrapping.
fn server_message(err: &anyhow::Error) -> String {
    let text = err.root_cause().to_string();
    let text = text.rsplit("error returned from database: ").next().unwrap_or(&text);
    let text = text.lines().next().unwrap_or_default().trim();
    // PostgreSQL's source line, which the driver appends.
    match text.rsplit_once(" at line ") {
        Some((message, line)) if line.chars().all(|c| c.is_ascii_digit()) => message.to_string(),
        _ => text.to_string(),
    }
}

/// `varchar(20)`, `character varying(20)`, `char(3)`: the most characters it holds.
fn length_limit(ty: &str) -> Option<usize> {
    let (name, rest) = ty.split_once('(')?;
    if !name.contains("char") {
        return None;
    }
    rest.split(')').next()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_from_types() {
        assert_eq!(length_limit("character varying(20)"), Some(20));
        assert_eq!(length_limit("varchar(3)"), Some(3));
        assert_eq!(length_limit("char(2) character set utf8mb4"), Some(2));
        assert_eq!(length_limit("text"), None);
        assert_eq!(length_limit("numeric(10,2)"), None);
    }
}
