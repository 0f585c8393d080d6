//! The only raw SQL idemctl takes from its user: `--where` and
//! `--in-progress-when` conditions, and `--verify-sql` queries. Each is
//! parsed with the engine's SQL grammar before it runs: a condition must be
//! exactly one boolean expression, a query exactly one SELECT with the
//! documented parameters. Text that closes the parentheses it is put in, adds
//! a statement, or hides part of itself in a comment is refused.

use anyhow::{Result, bail};
use sqlparser::ast::{BinaryOperator, Expr, SetExpr, Statement, Value};
use sqlparser::dialect::Dialect as Grammar;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, Tokenizer, Whitespace};

use super::{Bind, Dialect, Engine};

fn grammar(engine: Engine) -> Box<dyn Grammar> {
    Dialect::new(engine).grammar()
}

/// The tokens of `text`, refusing comments and statement separators.
fn tokens(grammar: &dyn Grammar, flag: &str, what: &str, text: &str) -> Result<Vec<Token>> {
    let tokens =
        Tokenizer::new(grammar, text).tokenize().map_err(|e| anyhow::anyhow!("cannot read {flag}: {}", e.message))?;
    for token in &tokens {
        match token {
            Token::SemiColon => bail!("{flag} must be a single {what}: it may not contain ';'"),
            Token::Whitespace(Whitespace::SingleLineComment { .. } | Whitespace::MultiLineComment(_)) => {
                bail!("{flag} may not contain comments")
            }
            _ => {}
        }
    }
    Ok(tokens)
}

/// A statement idemctl built, for people (the engine's own spelling,
/// `Dialect::for_people`) and laid out (`UPDATE t`, `SET ...`, `WHERE ...`,
/// each clause on lines of its own), every line indented two spaces; not
/// laid out where the engine's grammar cannot read it.
pub fn laid_out(dialect: &Dialect, sql: &str) -> String {
    let sql = dialect.for_people(sql);
    let text = match Parser::parse_sql(dialect.grammar().as_ref(), &sql) {
        Ok(statements) if statements.len() == 1 => format!("{:#}", statements[0]),
        _ => sql,
    };
    text.lines().map(|line| format!("  {line}")).collect::<Vec<_>>().join("\n")
}

/// A condition the user wrote (`--where`, `--in-progress-when`), checked to be
/// exactly one boolean expression; returned wrapped in parentheses.
pub fn condition(engine: Engine, flag: &str, text: &str) -> Result<String> {
    let expr = one_expression(engine, flag, "condition", text)?;
    if !is_boolean(&expr) {
        bail!("{flag} must be a condition (true or false for each row), not {:?}", expr.to_string());
    }
    Ok(format!("({text})"))
}

/// Asks the server to take `text` (a condition, or with `value` an
/// expression, the user wrote for `flag`) over `table` without reading a
/// row: a refusal (a column not there, types that do not compare) is said
/// with the flag and the text, before anything runs.
pub async fn probe(
    db: &mut super::Db,
    table: &super::catalog::Table,
    flag: &str,
    text: &str,
    value: bool,
) -> Result<()> {
    let name = table.sql_name(&db.dialect());
    let sql = match value {
        true => format!("SELECT {text} FROM {name} WHERE 1 = 0"),
        false => format!("SELECT 1 FROM {name} WHERE ({text}) AND 1 = 0"),
    };
    db.query_text(&sql, &[]).await.map(|_| ()).map_err(|err| with_flag(err, flag, text))
}

/// A statement's failure, said as the fault of what the user wrote for
/// `flag` (`--where "nosuchcol > 1": no such column: nosuchcol`); an
/// interruption, and a fault of the session (a timeout, a lock wait, a
/// lost connection), stay what they are.
pub fn with_flag(err: anyhow::Error, flag: &str, text: &str) -> anyhow::Error {
    if crate::interrupt::is_set() || super::errors::fault(&err).is_some() {
        return err;
    }
    anyhow::anyhow!("{flag} {text:?}: {}", super::errors::message(&err))
}

/// A value the user wrote as an expression of a row's columns (`--sum
/// "quantity * unit_price"`), checked to be exactly one expression, with no
/// subquery; returned wrapped in parentheses.
pub fn value(engine: Engine, flag: &str, text: &str) -> Result<String> {
    let expr = one_expression(engine, flag, "expression", text)?;
    if matches!(expr, Expr::Subquery(_) | Expr::Exists { .. }) || expr.to_string().to_lowercase().contains("select") {
        bail!("{flag} must be an expression of the row's columns, not a query: {:?}", expr.to_string());
    }
    Ok(format!("({text})"))
}

fn one_expression(engine: Engine, flag: &str, what: &str, text: &str) -> Result<Expr> {
    let grammar = grammar(engine);
    tokens(grammar.as_ref(), flag, what, text)?;
    let mut parser =
        Parser::new(grammar.as_ref()).try_with_sql(text).map_err(|e| anyhow::anyhow!("cannot read {flag}: {e}"))?;
    let expr = parser.parse_expr().map_err(|e| anyhow::anyhow!("{flag} is not one SQL {what}: {e}"))?;
    let rest = parser.peek_token();
    if rest.token != Token::EOF {
        bail!(
            "{flag} must be exactly one {what}: {:?} is left over after {:?}",
            rest.token.to_string(),
            expr.to_string()
        );
    }
    Ok(expr)
}

/// Whether an expression can be a row's condition: anything but literals,
/// arithmetic, tuples and the like, whose truth would be an accident.
fn is_boolean(expr: &Expr) -> bool {
    match expr {
        Expr::Nested(inner) => is_boolean(inner),
        Expr::Value(v) => matches!(v.value, Value::Boolean(_)),
        Expr::BinaryOp { op, .. } => !matches!(
            op,
            BinaryOperator::Plus
                | BinaryOperator::Minus
                | BinaryOperator::Multiply
                | BinaryOperator::Divide
                | BinaryOperator::Modulo
                | BinaryOperator::StringConcat
                | BinaryOperator::BitwiseOr
                | BinaryOperator::BitwiseAnd
                | BinaryOperator::BitwiseXor
                | BinaryOperator::MyIntegerDivide
                | BinaryOperator::DuckIntegerDivide
                | BinaryOperator::PGBitwiseXor
                | BinaryOperator::PGBitwiseShiftLeft
                | BinaryOperator::PGBitwiseShiftRight
                | BinaryOperator::PGExp
                | BinaryOperator::Arrow
                | BinaryOperator::LongArrow
                | BinaryOperator::HashArrow
                | BinaryOperator::HashLongArrow
        ),
        Expr::Tuple(_)
        | Expr::Array(_)
        | Expr::Interval(_)
        | Expr::Subquery(_)
        | Expr::TypedString(_)
        | Expr::Wildcard(_)
        | Expr::QualifiedWildcard(..) => false,
        _ => true,
    }
}

/// `--verify-sql`: one SELECT, with `:scope`, `:operation` and `:key` as its
/// only parameters, kept as tokens to number them as the engine wants.
#[derive(Debug, Clone)]
pub struct VerifySql {
    parts: Vec<VerifyPart>,
}

#[derive(Debug, Clone)]
enum VerifyPart {
    Sql(String),
    Scope,
    Operation,
    Key,
}

impl VerifySql {
    pub fn parse(engine: Engine, text: &str) -> Result<VerifySql> {
        const FLAG: &str = "--verify-sql";
        let grammar = grammar(engine);
        let tokens = tokens(grammar.as_ref(), FLAG, "statement", text)?;
        let mut parts = Vec::new();
        let mut sql = String::new();
        let mut iter = tokens.into_iter().peekable();
        while let Some(token) = iter.next() {
            let parameter = match (&token, iter.peek()) {
                (Token::Colon, Some(Token::Word(word))) => Some(word.value.clone()),
                _ => None,
            };
            let Some(name) = parameter else {
                sql.push_str(&token.to_string());
                continue;
            };
            iter.next();
            let part = match name.as_str() {
                "scope" => VerifyPart::Scope,
                "operation" => VerifyPart::Operation,
                "key" => VerifyPart::Key,
                other => {
                    bail!("{FLAG} names an unknown parameter :{other}: the parameters are :scope, :operation and :key")
                }
            };
            parts.push(VerifyPart::Sql(std::mem::take(&mut sql)));
            parts.push(part);
        }
        parts.push(VerifyPart::Sql(sql));
        let verify = VerifySql { parts };
        // Parsed as the engine will run it, parameters in place.
        let (checked, _) = verify.statement(Dialect::new(engine), &[], None, "");
        let statements =
            Parser::parse_sql(grammar.as_ref(), &checked).map_err(|e| anyhow::anyhow!("cannot read {FLAG}: {e}"))?;
        match statements.as_slice() {
            [Statement::Query(query)] if matches!(*query.body, SetExpr::Select(_) | SetExpr::SetOperation { .. }) => {}
            [Statement::Query(_)] => bail!("{FLAG} must be a SELECT"),
            [other] => bail!("{FLAG} must be a SELECT, not {:?}", first_words(&other.to_string())),
            _ => bail!("{FLAG} must be exactly one SELECT"),
        }
        Ok(verify)
    }

    /// The statement for one key, with its bound values.
    pub fn statement(
        &self,
        dialect: Dialect,
        scope: &[Option<String>],
        operation: Option<&str>,
        key: &str,
    ) -> (String, Vec<Bind>) {
        let mut sql = String::new();
        let mut binds = Vec::new();
        for part in &self.parts {
            let bind = match part {
                VerifyPart::Sql(s) => {
                    sql.push_str(s);
                    continue;
                }
                VerifyPart::Scope => scope.first().cloned().flatten().map_or(Bind::Null, Bind::Text),
                VerifyPart::Operation => operation.map_or(Bind::Null, |o| Bind::Text(o.to_string())),
                VerifyPart::Key => Bind::Text(key.to_string()),
            };
            binds.push(bind);
            sql.push_str(&dialect.placeholder(binds.len()));
        }
        (sql, binds)
    }
}

fn first_words(text: &str) -> String {
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pg() -> Engine {
        crate::db::engine_of("postgres://h/db").unwrap()
    }

    fn my() -> Engine {
        crate::db::engine_of("mysql://h/db").unwrap()
    }

    #[test]
    fn one_condition_exactly() {
        let ok = |t: &str| condition(pg(), "--where", t);
        assert_eq!(ok("scope_id = 's3'").unwrap(), "(scope_id = 's3')");
        assert!(ok("recovery_point <> 'finished' AND locked_at IS NULL").is_ok());
        assert!(ok("status IN ('a', 'b') OR (x > 3)").is_ok());
        assert!(ok("payload->>'kind' = 'charge'").is_ok());
        let err = ok("scope_id = 's3') OR (1=1").unwrap_err().to_string();
        assert!(err.contains("exactly one condition") && err.contains("\")\""), "{err}");
        assert!(ok("1=1; DELETE FROM t").unwrap_err().to_string().contains("';'"));
        assert!(ok("1=1 -- ").unwrap_err().to_string().contains("comments"));
        assert!(ok("1=1 /* ) OR (1=1 */").unwrap_err().to_string().contains("comments"));
        assert!(ok("42").unwrap_err().to_string().contains("must be a condition"));
        assert!(ok("a + 1").is_err());
        assert!(ok("").is_err());
        // A backslash escapes a quote in MySQL strings, not in PostgreSQL's.
        assert!(condition(my(), "--where", r"note = 'a\') OR (1=1'").is_ok());
        assert!(condition(pg(), "--where", r"note = 'a\') OR (1=1'").is_err());
    }

    #[test]
    fn verify_sql_is_one_select_with_known_parameters() {
        let v = VerifySql::parse(pg(), "SELECT 1 FROM payments WHERE k = :key AND s = :scope::text AND note <> ':key'")
            .unwrap();
        let scope = [Some("s1".to_string())];
        let (sql, binds) = v.statement(Dialect::new(pg()), &scope, Some("op"), "k1");
        assert_eq!(sql, "SELECT 1 FROM payments WHERE k = $1 AND s = $2::text AND note <> ':key'");
        assert_eq!(binds, vec![Bind::Text("k1".into()), Bind::Text("s1".into())]);
        let v = VerifySql::parse(my(), "SELECT 1 FROM payments WHERE k = :key").unwrap();
        let (sql, _) = v.statement(Dialect::new(my()), &scope, None, "k1");
        assert_eq!(sql, "SELECT 1 FROM payments WHERE k = ?");
        for bad in [
            "SELECT 1; DELETE FROM x",
            "DELETE FROM payments WHERE k = :key",
            "SELECT 1 FROM payments WHERE k = :kee",
            "SELECT 1 FROM payments WHERE k = :key -- and more",
            "UPDATE payments SET x = 1",
        ] {
            assert!(VerifySql::parse(pg(), bad).is_err(), "{bad}");
        }
    }
}
