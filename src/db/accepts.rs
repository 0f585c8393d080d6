//! Whether a column would take a value: asked of the server with a
//! read-only statement, so that a dry run refuses what the real run's
//! write would fail on (`--set response_code='oops'` on an integer column).
//!
//! PostgreSQL casts the value to the column's type, as the write's
//! `CAST($n AS type)` does, and its error is the one the write would raise.
//! MySQL and MariaDB cast to the nearest type a CAST knows and read the
//! warnings: a strict session's write turns each of those warnings into
//! its error. Lengths and integer ranges, which an explicit cast does not
//! check, are checked here. SQLite stores any value in a column of an
//! ordinary table (a STRICT table's types are checked by the cast too).

use anyhow::Result;

use super::catalog::{Column, Table};
use super::{Bind, Db, Engine};

/// Why the server would refuse `value` for `column`, or `None` when it would take it.
pub async fn refusal(db: &mut Db, table: &Table, column: &Column, value: Option<&str>) -> Result<Option<String>> {
    let Some(value) = value else {
        return Ok(column.not_null.then(|| format!("{} is NOT NULL", column.name)));
    };
    let ty = column.base_type.to_lowercase();
    if let Some(limit) = length_limit(&ty)
        && value.chars().count() > limit
    {
        return Ok(Some(format!(
            "value too long for {} ({}): {} characters",
            column.name,
            column.data_type,
            value.chars().count()
        )));
    }
    match db.engine() {
        Engine::Postgres => {
            let sql = format!("SELECT CAST(CAST(CAST($1 AS text) AS {}) AS text)", column.data_type);
            match db.query_value(&sql, &[Bind::Text(value.to_string())]).await {
                Ok(_) => Ok(None),
                Err(err) => Ok(Some(server_message(&err))),
            }
        }
        Engine::MySql => {
            if let Some(message) = integer_range(&ty, value) {
                return Ok(Some(message));
            }
            let Some(target) = mysql_cast(&ty) else { return Ok(None) };
            let sql = format!("SELECT CAST(CAST(? AS {target}) AS CHAR)");
            if let Err(err) = db.query_value(&sql, &[Bind::Text(value.to_string())]).await {
                return Ok(Some(server_message(&err)));
            }
            let warnings = db.query_text("SHOW WARNINGS", &[]).await.unwrap_or_default();
            Ok(warnings.into_iter().find_map(|w| w.get(2).cloned().flatten()))
        }
        Engine::Sqlite => {
            let strict = db
                .query_value(
                    "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?",
                    &[Bind::Text(table.name.clone())],
                )
                .await?
                .is_some_and(|sql| sql.trim_end().to_lowercase().ends_with("strict"));
            if !strict {
                return Ok(None);
            }
            let affinity = if ty.contains("int") {
                "INTEGER"
            } else if ty.contains("real") || ty.contains("floa") || ty.contains("doub") {
                "REAL"
            } else {
                return Ok(None);
            };
            let sql = format!(
                "SELECT CASE WHEN CAST(CAST(?1 AS {affinity}) AS TEXT) = ?1 OR CAST(?1 AS {affinity}) = ?1 \
                 THEN '1' ELSE '0' END"
            );
            let fits = db.query_value(&sql, &[Bind::Text(value.to_string())]).await?;
            Ok((fits.as_deref() != Some("1"))
                .then(|| format!("cannot store TEXT value in {affinity} column {}.{}", table.name, column.name)))
        }
    }
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
    if !(name.contains("char") || name.contains("character")) {
        return None;
    }
    rest.trim_end_matches(|c: char| !c.is_ascii_digit()).split(')').next()?.trim().parse().ok()
}

/// An integer column's range, which MySQL's `CAST(... AS SIGNED)` does not check.
fn integer_range(ty: &str, value: &str) -> Option<String> {
    let unsigned = ty.contains("unsigned");
    let bits = match ty.split(['(', ' ']).next()? {
        "tinyint" => 8,
        "smallint" => 16,
        "mediumint" => 24,
        "int" | "integer" => 32,
        "bigint" => 64,
        _ => return None,
    };
    let n: i128 = value.trim().parse().ok()?;
    let (lo, hi) = match unsigned {
        true => (0, (1i128 << bits) - 1),
        false => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
    };
    (n < lo || n > hi).then(|| format!("Out of range value for column ({ty}): {n}"))
}

/// The CAST target closest to a MySQL column type; `None` where a cast
/// says nothing (text, blobs, enums: judged elsewhere).
fn mysql_cast(ty: &str) -> Option<String> {
    let name = ty.split(['(', ' ']).next()?;
    let args = ty.split_once('(').and_then(|(_, r)| r.split(')').next()).unwrap_or("");
    Some(match name {
        "tinyint" | "smallint" | "mediumint" | "int" | "integer" | "bigint" | "bit" => {
            if ty.contains("unsigned") {
                "UNSIGNED".into()
            } else {
                "SIGNED".into()
            }
        }
        "decimal" | "numeric" => match args.is_empty() {
            true => "DECIMAL".into(),
            false => format!("DECIMAL({args})"),
        },
        "float" | "double" | "real" => "DOUBLE".into(),
        "date" => "DATE".into(),
        "datetime" | "timestamp" => "DATETIME(6)".into(),
        "time" => "TIME(6)".into(),
        "year" => "SIGNED".into(),
        "json" => "JSON".into(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_from_types() {
        assert_eq!(length_limit("character varying(20)"), Some(20));
        assert_eq!(length_limit("varchar(3)"), Some(3));
        assert_eq!(length_limit("char(2) character set utf8mb4"), Some(2));
        assert_eq!(length_limit("text"), None);
        assert_eq!(length_limit("numeric(10,2)"), None);
        assert!(integer_range("tinyint(4)", "300").is_some());
        assert!(integer_range("tinyint(3) unsigned", "-1").is_some());
        assert!(integer_range("int(11)", "2147483647").is_none());
        assert!(integer_range("int(11)", "2147483648").is_some());
        assert_eq!(mysql_cast("decimal(4,2)").as_deref(), Some("DECIMAL(4,2)"));
        assert_eq!(mysql_cast("varchar(20)"), None);
    }
}
