//! Test helpers: each test gets its own database on a real engine, dropped
//! when the test ends, so tests run in parallel.
//!
//! A server that cannot be reached fails the test when `CI` is set; outside CI
//! the test is skipped, with a loud line on stderr.

use std::sync::atomic::{AtomicU32, Ordering};

use assert_cmd::Command;
use sqlx::{AssertSqlSafe, Connection, Row};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Postgres,
    MySql,
    Sqlite,
}

pub fn pg_base() -> String {
    std::env::var("IDEMCTL_TEST_PG").unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".into())
}

pub fn mysql_base() -> String {
    std::env::var("IDEMCTL_TEST_MYSQL").unwrap_or_else(|_| "mysql://root@127.0.0.1:3306/test".into())
}

/// A server URL's host and port as the URL gives them (`127.0.0.1:5432`,
/// `localhost`): what idemctl says in its messages.
pub fn host_port(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    rest.split(['/', '?']).next().unwrap_or_default().to_string()
}

/// A server URL's host alone.
pub fn host(url: &str) -> String {
    let at = host_port(url);
    at.rsplit_once(':').map_or(at.clone(), |(host, _)| host.to_string())
}

/// A server URL's address to connect to: its host and port, the engine's
/// default port when the URL has none.
pub fn server_addr(url: &str) -> String {
    let at = host_port(url);
    if at.contains(':') {
        return at;
    }
    let port = if url.starts_with("postgres") { 5432 } else { 3306 };
    format!("{at}:{port}")
}

/// `url` with `user` (no password) instead of its own user.
pub fn as_user(url: &str, user: &str) -> String {
    let (scheme, rest) = url.split_once("://").expect("a server URL");
    let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    format!("{scheme}://{user}@{rest}")
}

/// `url` pointed at `addr` (host:port) instead of its own server.
pub fn at_server(url: &str, addr: &str) -> String {
    url.replacen(&format!("@{}", host_port(url)), &format!("@{addr}"), 1)
}

/// The PostgreSQL binaries (initdb, pg_ctl, pg_basebackup) of the server
/// under test's major version, for private servers: `IDEMCTL_TEST_PG_BIN`,
/// else Debian's directory for the version the server reports.
pub fn pg_bin() -> String {
    if let Ok(dir) = std::env::var("IDEMCTL_TEST_PG_BIN") {
        return dir;
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let version: Option<i32> = rt.block_on(async {
        let mut c = sqlx::PgConnection::connect(&pg_base()).await.ok()?;
        let v: String = sqlx::query_scalar("SHOW server_version_num").fetch_one(&mut c).await.ok()?;
        c.close().await.ok()?;
        v.parse().ok()
    });
    let major = version.map_or(15, |v| v / 10000);
    format!("/usr/lib/postgresql/{major}/bin")
}

/// Runs SQL statements (several, separated by semicolons) on a fresh connection.
async fn run_sql(engine: Engine, url: &str, sql: String) -> Result<(), sqlx::Error> {
    let sql = AssertSqlSafe(sql);
    match engine {
        Engine::Postgres => {
            let mut c = sqlx::PgConnection::connect(url).await?;
            sqlx::raw_sql(sql).execute(&mut c).await?;
            c.close().await
        }
        Engine::MySql => {
            let mut c = sqlx::MySqlConnection::connect(url).await?;
            sqlx::raw_sql(sql).execute(&mut c).await?;
            c.close().await
        }
        Engine::Sqlite => {
            let mut c = sqlx::SqliteConnection::connect(url).await?;
            sqlx::raw_sql(sql).execute(&mut c).await?;
            c.close().await
        }
    }
}

/// Runs SQL on the PostgreSQL server's base database (roles live there).
pub fn pg_admin(sql: &str) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(run_sql(Engine::Postgres, &pg_base(), sql.to_string())).unwrap();
}

pub struct TestDb {
    pub engine: Engine,
    pub url: String,
    pub name: String,
    /// The server's base database, where this one is created and dropped.
    base: String,
    rt: tokio::runtime::Runtime,
    _dir: Option<tempfile::TempDir>,
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

fn unique_name() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    format!("idemctl_t_{}_{}_{}", std::process::id(), COUNTER.fetch_add(1, Ordering::SeqCst), nanos % 100_000)
}

fn unreachable_server(what: &str, err: impl std::fmt::Display) -> Option<TestDb> {
    if std::env::var_os("CI").is_some() {
        panic!("{what} is unreachable and CI is set: {err}");
    }
    eprintln!("\n*** SKIPPED: {what} is unreachable ({err}); set CI=1 to make this a failure ***\n");
    None
}

fn with_database(base: &str, name: &str) -> String {
    let (prefix, _) = base.rsplit_once('/').expect("URL with a database path");
    format!("{prefix}/{name}")
}

impl TestDb {
    /// A fresh database, or `None` (outside CI) when the server is unreachable.
    pub fn new(engine: Engine) -> Option<TestDb> {
        match engine {
            Engine::Postgres => TestDb::on_server(engine, &pg_base()),
            Engine::MySql => TestDb::on_server(engine, &mysql_base()),
            Engine::Sqlite => TestDb::on_server(engine, ""),
        }
    }

    /// A fresh database on the server `base` (a URL naming its base
    /// database) names, or `None` (outside CI) when it is unreachable.
    pub fn on_server(engine: Engine, base: &str) -> Option<TestDb> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let name = unique_name();
        match engine {
            Engine::Postgres | Engine::MySql => {
                let what = if engine == Engine::Postgres { "PostgreSQL" } else { "MariaDB/MySQL" };
                if let Err(e) = rt.block_on(run_sql(engine, base, format!("CREATE DATABASE {name}"))) {
                    return unreachable_server(what, e);
                }
                let url = with_database(base, &name);
                Some(TestDb { engine, url, name, base: base.to_string(), rt, _dir: None })
            }
            Engine::Sqlite => {
                let dir = tempfile::tempdir().unwrap();
                let path = dir.path().join(format!("{name}.db"));
                let url = format!("sqlite:{}", path.display());
                rt.block_on(async {
                    use std::str::FromStr;
                    let opts = sqlx::sqlite::SqliteConnectOptions::from_str(&url).unwrap().create_if_missing(true);
                    let c = sqlx::ConnectOptions::connect(&opts).await.unwrap();
                    c.close().await.unwrap();
                });
                Some(TestDb { engine, url, name, base: String::new(), rt, _dir: Some(dir) })
            }
        }
    }

    /// The server's base database (`test`), left in place when the test
    /// ends: for looking at every session (pg_stat_activity, the processlist).
    pub fn admin(engine: Engine) -> TestDb {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let url = match engine {
            Engine::Postgres => pg_base(),
            Engine::MySql => mysql_base(),
            Engine::Sqlite => panic!("SQLite has no server"),
        };
        TestDb { engine, base: url.clone(), url, name: String::new(), rt, _dir: None }
    }

    /// An existing SQLite file, left in place when the test ends.
    pub fn open_sqlite(path: &std::path::Path) -> TestDb {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        TestDb {
            engine: Engine::Sqlite,
            url: format!("sqlite:{}", path.display()),
            name: String::new(),
            base: String::new(),
            rt,
            _dir: None,
        }
    }

    /// Runs SQL statements (several, separated by semicolons).
    pub fn exec(&self, sql: &str) {
        self.rt
            .block_on(run_sql(self.engine, &self.url, sql.to_string()))
            .unwrap_or_else(|e| panic!("SQL failed on {:?}: {e}", self.engine));
    }

    /// Runs SQL statements, giving the server's refusal instead of failing.
    pub fn try_exec(&self, sql: &str) -> Result<(), String> {
        self.rt.block_on(run_sql(self.engine, &self.url, sql.to_string())).map_err(|e| e.to_string())
    }

    /// The first column of every row, as text (integers too).
    pub fn column(&self, sql: &str) -> Vec<Option<String>> {
        fn cell<R: Row>(r: &R) -> Option<String>
        where
            usize: sqlx::ColumnIndex<R>,
            for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
            for<'a> Option<i64>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
        {
            r.try_get::<Option<String>, _>(0)
                .or_else(|_| r.try_get::<Option<i64>, _>(0).map(|n| n.map(|n| n.to_string())))
                .unwrap()
        }
        let url = self.url.clone();
        let sql = sql.to_string();
        self.rt
            .block_on(async move {
                let rows = match self.engine {
                    Engine::Postgres => {
                        let mut c = sqlx::PgConnection::connect(&url).await?;
                        sqlx::query(AssertSqlSafe(sql)).fetch_all(&mut c).await?.iter().map(cell).collect()
                    }
                    Engine::MySql => {
                        let mut c = sqlx::MySqlConnection::connect(&url).await?;
                        sqlx::query(AssertSqlSafe(sql)).fetch_all(&mut c).await?.iter().map(cell).collect()
                    }
                    Engine::Sqlite => {
                        let mut c = sqlx::SqliteConnection::connect(&url).await?;
                        sqlx::query(AssertSqlSafe(sql)).fetch_all(&mut c).await?.iter().map(cell).collect()
                    }
                };
                Ok::<_, sqlx::Error>(rows)
            })
            .unwrap()
    }

    /// The engine's spelling of a column type, by role.
    pub fn ty(&self, role: &str) -> &'static str {
        use Engine::*;
        match (self.engine, role) {
            (Postgres, "pk") => "bigserial PRIMARY KEY",
            (MySql, "pk") => "BIGINT AUTO_INCREMENT PRIMARY KEY",
            (Sqlite, "pk") => "INTEGER PRIMARY KEY",
            (Postgres, "uuid") => "uuid NOT NULL DEFAULT gen_random_uuid()",
            (MySql, "uuid") => "CHAR(36) NOT NULL DEFAULT (uuid())",
            (Sqlite, "uuid") => "TEXT NOT NULL DEFAULT (lower(hex(randomblob(16))))",
            (Postgres, "ts") => "timestamptz NOT NULL DEFAULT now()",
            (MySql, "ts") => "DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)",
            (Sqlite, "ts") => "TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP",
            (Postgres, "time") => "timestamptz",
            (MySql, "time") => "DATETIME(6)",
            (Sqlite, "time") => "TEXT",
            (Postgres, "json") => "jsonb",
            (MySql, "json") => "JSON",
            (Sqlite, "json") => "TEXT",
            (Postgres, "text") => "text",
            (MySql, "text") => "VARCHAR(100)",
            (Sqlite, "text") => "TEXT",
            (Postgres, "money") => "numeric(10,2)",
            (MySql, "money") => "DECIMAL(10,2)",
            (Sqlite, "money") => "NUMERIC",
            (Postgres, "text_cast") => "text",
            (MySql, "text_cast") => "CHAR",
            (Sqlite, "text_cast") => "TEXT",
            (_, "int") => "INTEGER",
            (_, "bigint") => "BIGINT",
            (e, r) => panic!("no type for role {r} on {e:?}"),
        }
    }

    /// A time literal, UTC.
    /// A time literal for `epoch` seconds (UTC), whole seconds.
    pub fn ts_at(&self, epoch: i64) -> String {
        self.ts(&chrono::DateTime::from_timestamp(epoch, 0).unwrap().format("%Y-%m-%d %H:%M:%S").to_string())
    }

    pub fn ts(&self, text: &str) -> String {
        match self.engine {
            Engine::Postgres => format!("'{text}+00'"),
            Engine::MySql | Engine::Sqlite => format!("'{text}'"),
        }
    }

    /// An identifier quoted for this engine.
    pub fn ident(&self, name: &str) -> String {
        match self.engine {
            Engine::MySql => format!("`{}`", name.replace('`', "``")),
            _ => format!("\"{}\"", name.replace('"', "\"\"")),
        }
    }

    /// A FROM item giving the numbers 1 to `n` in a column `n`, for bulk inserts.
    pub fn series(&self, n: u64) -> String {
        match self.engine {
            Engine::Postgres => format!("generate_series(1, {n}) AS s(n)"),
            Engine::MySql => format!("(SELECT seq AS n FROM seq_1_to_{n}) AS s"),
            Engine::Sqlite => {
                format!(
                    "(WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < {n}) SELECT n FROM c) AS s"
                )
            }
        }
    }

    /// The first column of every row, as integers.
    pub fn ids(&self, sql: &str) -> Vec<i64> {
        self.column(sql).into_iter().flatten().map(|v| v.parse().unwrap()).collect()
    }

    /// Runs `f` while a live transaction holds the rows `lock` (a SELECT ...
    /// FOR UPDATE) locks; SQLite has no row locks, and runs `f` as it is.
    pub fn while_holding<T>(&self, lock: &str, f: impl FnOnce() -> T) -> T {
        use sqlx::Connection;
        let lock = AssertSqlSafe(lock.to_string());
        match self.engine {
            Engine::Postgres => self.rt.block_on(async {
                let mut c = sqlx::PgConnection::connect(&self.url).await.unwrap();
                let mut tx = c.begin().await.unwrap();
                sqlx::query(lock).execute(&mut *tx).await.unwrap();
                let out = f();
                tx.rollback().await.unwrap();
                out
            }),
            Engine::MySql => self.rt.block_on(async {
                let mut c = sqlx::MySqlConnection::connect(&self.url).await.unwrap();
                let mut tx = c.begin().await.unwrap();
                sqlx::query(lock).execute(&mut *tx).await.unwrap();
                let out = f();
                tx.rollback().await.unwrap();
                out
            }),
            Engine::Sqlite => f(),
        }
    }

    /// Runs `f` while another session, opened with `setup` (SQL, several
    /// statements allowed), holds what it took; `teardown` then lets go.
    pub fn while_session<T>(&self, setup: &str, teardown: &str, f: impl FnOnce() -> T) -> T {
        self.while_session_at(&self.url, setup, teardown, f)
    }

    /// `while_session`, in a session connected to `url` (another role's).
    pub fn while_session_at<T>(&self, url: &str, setup: &str, teardown: &str, f: impl FnOnce() -> T) -> T {
        use sqlx::Connection;
        let (setup, teardown) = (AssertSqlSafe(setup.to_string()), AssertSqlSafe(teardown.to_string()));
        // The session is idle while `f` runs (outside the runtime, which `f` may use itself).
        macro_rules! hold {
            ($conn:ty) => {{
                let mut c = self.rt.block_on(async {
                    let mut c = <$conn>::connect(url).await.unwrap();
                    sqlx::raw_sql(setup).execute(&mut c).await.unwrap();
                    c
                });
                let out = f();
                self.rt.block_on(async {
                    sqlx::raw_sql(teardown).execute(&mut c).await.unwrap();
                    c.close().await.unwrap();
                });
                out
            }};
        }
        match self.engine {
            Engine::Postgres => hold!(sqlx::PgConnection),
            Engine::MySql => hold!(sqlx::MySqlConnection),
            Engine::Sqlite => hold!(sqlx::SqliteConnection),
        }
    }

    /// `idemctl` with this database's URL.
    pub fn idemctl(&self, args: &[&str]) -> Command {
        let mut cmd = Command::cargo_bin("idemctl").unwrap();
        cmd.env_remove("DATABASE_URL").args(args).arg("--database-url").arg(&self.url);
        cmd
    }

    /// A copy of this database, for the real run that follows a dry run:
    /// PostgreSQL makes it from this one as a template (types, schemas,
    /// triggers and all), MariaDB runs each table's own CREATE statement
    /// (partitions, foreign keys) and copies its rows, SQLite vacuums into
    /// a new file.
    pub fn copy(&self) -> TestDb {
        let name = unique_name();
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        match self.engine {
            Engine::Postgres => {
                let create = format!("CREATE DATABASE {name} TEMPLATE {}", self.name);
                // A session that just closed may linger on the source a moment.
                for attempt in 0.. {
                    match rt.block_on(run_sql(self.engine, &self.base, create.clone())) {
                        Ok(()) => break,
                        Err(e) if attempt < 50 && e.to_string().contains("being accessed") => {
                            std::thread::sleep(std::time::Duration::from_millis(100))
                        }
                        Err(e) => panic!("copying {}: {e}", self.name),
                    }
                }
                let url = with_database(&self.base, &name);
                TestDb { engine: self.engine, url, name, base: self.base.clone(), rt, _dir: None }
            }
            Engine::MySql => {
                rt.block_on(run_sql(self.engine, &self.base, format!("CREATE DATABASE {name}"))).unwrap();
                let copy = TestDb {
                    engine: self.engine,
                    url: with_database(&self.base, &name),
                    name,
                    base: self.base.clone(),
                    rt,
                    _dir: None,
                };
                let tables = self.column(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'",
                );
                let mut sql = vec!["SET FOREIGN_KEY_CHECKS = 0".to_string()];
                for table in tables.into_iter().flatten() {
                    let create = self.second_column(&format!("SHOW CREATE TABLE `{table}`"));
                    sql.push(create);
                    sql.push(format!("INSERT INTO `{table}` SELECT * FROM `{}`.`{table}`", self.name));
                }
                copy.exec(&sql.join(";\n"));
                copy
            }
            Engine::Sqlite => {
                let copy = TestDb::new(Engine::Sqlite).unwrap();
                let path = copy.url.trim_start_matches("sqlite:").replace('\'', "''");
                std::fs::remove_file(&path).ok();
                self.exec(&format!("VACUUM INTO '{path}'"));
                copy
            }
        }
    }

    /// The second column of a one-row answer (MySQL's SHOW CREATE TABLE).
    fn second_column(&self, sql: &str) -> String {
        let (url, sql) = (self.url.clone(), sql.to_string());
        self.rt
            .block_on(async move {
                let mut c = sqlx::MySqlConnection::connect(&url).await?;
                let row = sqlx::query(AssertSqlSafe(sql)).fetch_one(&mut c).await?;
                row.try_get::<String, _>(1)
            })
            .unwrap()
    }

    /// Every table's rows, as text, for telling whether a run changed any:
    /// PostgreSQL's row text, MariaDB's CHECKSUM TABLE, SQLite's quoted
    /// values.
    pub fn contents(&self) -> Vec<Option<String>> {
        match self.engine {
            Engine::Postgres => {
                let tables = self.column(
                    "SELECT format('%I.%I', table_schema, table_name) FROM information_schema.tables
                     WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'
                     ORDER BY 1",
                );
                tables
                    .into_iter()
                    .flatten()
                    .flat_map(|t| {
                        let mut rows = vec![Some(t.clone())];
                        rows.extend(self.column(&format!("SELECT CAST(r AS text) FROM {t} r ORDER BY 1")));
                        rows
                    })
                    .collect()
            }
            Engine::MySql => {
                let tables = self.column(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY 1",
                );
                tables
                    .into_iter()
                    .flatten()
                    .map(|t| {
                        let sum = self.rt.block_on(async {
                            let mut c = sqlx::MySqlConnection::connect(&self.url).await.unwrap();
                            let row = sqlx::query(AssertSqlSafe(format!("CHECKSUM TABLE `{t}`")))
                                .fetch_one(&mut c)
                                .await
                                .unwrap();
                            row.try_get::<Option<i64>, _>(1).unwrap_or(None)
                        });
                        Some(format!("{t}: {sum:?}"))
                    })
                    .collect()
            }
            Engine::Sqlite => {
                let tables = self.column(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY 1",
                );
                tables
                    .into_iter()
                    .flatten()
                    .flat_map(|t| {
                        let columns = self.column(&format!("SELECT name FROM pragma_table_info('{t}')"));
                        let row: Vec<String> =
                            columns.into_iter().flatten().map(|c| format!("quote(\"{c}\")")).collect();
                        let mut rows = vec![Some(t.clone())];
                        rows.extend(
                            self.column(&format!("SELECT {} FROM \"{t}\" ORDER BY 1", row.join(" || ',' || "))),
                        );
                        rows
                    })
                    .collect()
            }
        }
    }
}

/// An expire dry run's promise, kept: runs expire with `args` as a dry run
/// on `db` (which it must leave as it was) and for real on a copy, and
/// checks that the real run exits alike and deletes as many rows as the
/// dry run said match. `env` is set for both (a fixed now). Returns the dry
/// run and the real run, and the copy.
pub fn expire_dry_then_real(db: &TestDb, args: &[&str], env: &[(&str, &str)]) -> (Run, Run, TestDb) {
    let (dry, real, real_db) = dry_then_real_on_a_copy(db, "expire", args, env);
    if dry.code != 2 {
        let (promised, done) = (&dry.json()["runs"][0], &real.json()["runs"][0]);
        assert_eq!(promised["rows_matching"], done["rows_deleted"], "the dry run promised otherwise: {}", real.stdout);
        if !done["rows_without_time"].is_null() {
            assert_eq!(promised["rows_without_time"], done["rows_without_time"], "{}", real.stdout);
        }
    }
    (dry, real, real_db)
}

/// `command --dry-run ARGS` on `db`, then the real run on a copy, both in
/// JSON with `env` set: the dry run leaves every table as it was, nothing
/// would stop the real run, and the real run exits alike. Returns both runs
/// and the copy, for the command's own comparison of what each did.
fn dry_then_real_on_a_copy(db: &TestDb, command: &str, args: &[&str], env: &[(&str, &str)]) -> (Run, Run, TestDb) {
    let real_db = db.copy();
    let before = db.contents();
    let with_env = |mut cmd: Command| {
        cmd.envs(env.iter().copied());
        run(cmd)
    };
    let dry = with_env(db.idemctl(&[&[command, "--format", "json", "--dry-run"][..], args].concat()));
    assert_eq!(db.contents(), before, "the dry run changed the database: {}", dry.stderr);
    let real = with_env(real_db.idemctl(&[&[command, "--format", "json"][..], args].concat()));
    assert_eq!(real.code, dry.code, "the dry run exited {}, the real run {}: {}", dry.code, real.code, real.stderr);
    if dry.code != 2 {
        assert_eq!(dry.json()["real_run_refused"], serde_json::Value::Null, "{}", dry.stdout);
    }
    (dry, real, real_db)
}

/// A reap dry run's outcome as the real run's: `would-release` is `released`.
pub fn as_done(outcome: &str) -> String {
    match outcome {
        "would-release" => "released".to_string(),
        "would-fail" => "failed".to_string(),
        "would-delete" => "deleted".to_string(),
        other => other.to_string(),
    }
}

/// Each key's outcome in a reap run's JSON, a dry run's as the real run's.
fn reap_outcomes(run: &Run) -> std::collections::BTreeMap<String, String> {
    let keys = run.json()["keys"].as_array().cloned().unwrap_or_default();
    keys.iter().map(|k| (k["key"].as_str().unwrap().to_string(), as_done(k["outcome"].as_str().unwrap()))).collect()
}

/// A reap dry run on `db`, then the real run on a copy: the dry run leaves
/// every table as it was, nothing would stop the real run, and the real run
/// exits alike and does to each key what the dry run said it would.
/// Returns both runs and the copy.
pub fn reap_dry_then_real(db: &TestDb, args: &[&str]) -> (Run, Run, TestDb) {
    let (dry, real, real_db) = dry_then_real_on_a_copy(db, "reap", args, &[]);
    if dry.code != 2 {
        assert_eq!(reap_outcomes(&dry), reap_outcomes(&real), "the dry run promised otherwise: {}", real.stdout);
    }
    (dry, real, real_db)
}

/// A dry run (`reap --dry-run ...` or `expire --dry-run ...`) held to its
/// promise: followed by the real run on a copy, their outcomes compared.
/// Other commands have no dry run: nothing is done.
pub fn dry_run_kept(db: &TestDb, args: &[&str]) {
    if !args.contains(&"--dry-run") {
        return;
    }
    let rest: Vec<&str> = args[1..].iter().copied().filter(|a| *a != "--dry-run").collect();
    match args[0] {
        "reap" => drop(reap_dry_then_real(db, &rest)),
        "expire" => drop(expire_dry_then_real(db, &rest, &[])),
        other => panic!("{other} has no dry run"),
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let drop = match self.engine {
            Engine::Postgres => format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
            Engine::MySql => format!("DROP DATABASE IF EXISTS {}", self.name),
            Engine::Sqlite => return,
        };
        if !self.name.is_empty() {
            let _ = self.rt.block_on(run_sql(self.engine, &self.base, drop));
        }
    }
}

/// `idemctl` with the database URL `url` (another role's, say).
pub fn idemctl_at(url: &str, args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("idemctl").unwrap();
    cmd.env_remove("DATABASE_URL").args(args).arg("--database-url").arg(url);
    cmd
}

/// Output of a finished command.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The JSON document on stdout; a test that gets none fails, showing both streams.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{}", self.stdout, self.stderr))
    }
}

pub fn run(mut cmd: Command) -> Run {
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// CSV text as records, header included.
pub fn csv_records(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

/// Declares one test per engine from a function taking the test database.
#[macro_export]
macro_rules! on_every_engine {
    ($($name:ident),* $(,)?) => {
        mod postgres {
            $( #[test] fn $name() { if let Some(db) = $crate::common::TestDb::new($crate::common::Engine::Postgres) { super::$name(&db) } } )*
        }
        mod mysql {
            $( #[test] fn $name() { if let Some(db) = $crate::common::TestDb::new($crate::common::Engine::MySql) { super::$name(&db) } } )*
        }
        mod sqlite {
            $( #[test] fn $name() { if let Some(db) = $crate::common::TestDb::new($crate::common::Engine::Sqlite) { super::$name(&db) } } )*
        }
    };
}

/// A time `ago` before now, as a literal of the engine.
pub fn ago(db: &TestDb, ago: chrono::Duration) -> String {
    db.ts(&(chrono::Utc::now() - ago).format("%Y-%m-%d %H:%M:%S%.6f").to_string())
}

/// The reference key table, with keys stuck and not:
/// k-pay-old (payments, locked 40 s ago), k-pay-new (10 s), k-ord-4m, k-ord-6m
/// (orders), k-done (succeeded, an hour ago), k-nolock (refunds, no lock
/// time, created 10 min ago).
pub fn key_table(db: &TestDb) {
    let (text, blob, json, ts) = match db.engine {
        Engine::Postgres => ("text", "bytea", "jsonb", "timestamptz"),
        Engine::MySql => ("VARCHAR(100)", "VARBINARY(64)", "TEXT", "DATETIME(6)"),
        Engine::Sqlite => ("TEXT", "BLOB", "TEXT", "TEXT"),
    };
    db.exec(&format!(
        "CREATE TABLE idempotency_keys (
            scope_id {text} NOT NULL, operation {text} NOT NULL, {key} {text} NOT NULL, request_hash {blob},
            status {text} NOT NULL, response_code INTEGER, response_body {json},
            locked_at {ts} NULL, created_at {ts} NOT NULL, expires_at {ts} NOT NULL,
            PRIMARY KEY (scope_id, operation, {key}))",
        key = db.ident("key"),
    ));
    let rows = [
        ("s1", "POST /v1/payments", "k-pay-old", "in_progress", Some(40), 40),
        ("s1", "POST /v1/payments", "k-pay-new", "in_progress", Some(10), 10),
        ("s2", "POST /v1/orders", "k-ord-4m", "in_progress", Some(240), 300),
        ("s2", "POST /v1/orders", "k-ord-6m", "in_progress", Some(360), 400),
        ("s3", "POST /v1/orders", "k-done", "succeeded", Some(3600), 3600),
        ("s3", "POST /v1/refunds", "k-nolock", "in_progress", None, 600),
    ];
    let values: Vec<String> = rows
        .iter()
        .map(|(scope, op, key, status, locked, created)| {
            format!(
                "('{scope}', '{op}', '{key}', '{status}', {}, {}, {})",
                locked.map_or("NULL".to_string(), |s| ago(db, chrono::Duration::seconds(s))),
                ago(db, chrono::Duration::seconds(*created)),
                ago(db, chrono::Duration::seconds(*created - 86_400)),
            )
        })
        .collect();
    db.exec(&format!(
        "INSERT INTO idempotency_keys (scope_id, operation, {}, status, locked_at, created_at, expires_at) VALUES {}",
        db.ident("key"),
        values.join(", ")
    ));
}

/// A key table without a status column, keyed by (user_id, idempotency_key),
/// times in epoch seconds: `a` started and locked 10 min ago (its lease
/// expired), `b` finished, `c` locked 10 s ago, `d` started 11 min ago but
/// holds no lock (abandoned). Returns now.
pub fn api_keys(db: &TestDb) -> i64 {
    let now = chrono::Utc::now().timestamp();
    db.exec(&format!(
        "CREATE TABLE api_keys (user_id INTEGER NOT NULL, idempotency_key {text} NOT NULL, recovery_point {text} NOT NULL,
            locked_at BIGINT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (user_id, idempotency_key));
         INSERT INTO api_keys VALUES (1, 'a', 'started', {old}, {old}), (1, 'b', 'finished', {old}, {old}),
                                     (2, 'c', 'started', {new}, {new}), (3, 'd', 'started', NULL, {older})",
        text = db.ty("text"),
        old = now - 600,
        older = now - 660,
        new = now - 10,
    ));
    now
}

/// The mapping of `api_keys` for stuck and reap.
pub const API_KEYS_MAPPING: [&str; 8] = [
    "--table",
    "api_keys",
    "--scope-column",
    "user_id",
    "--key-column",
    "idempotency_key",
    "--in-progress-when",
    "recovery_point <> 'finished'",
];

/// Waits, `step` at a time, until `done` holds; after `limit`, fails the
/// test saying `what` never happened.
pub fn poll(what: &str, limit: std::time::Duration, step: std::time::Duration, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + limit;
    while !done() {
        assert!(std::time::Instant::now() < deadline, "{what}");
        std::thread::sleep(step);
    }
}

/// Whether `path` appears within 30 seconds.
pub fn wait_until(path: &str) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !std::path::Path::new(path).exists() {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    true
}

/// Waits for `path` to appear, failing the test after 30 seconds.
pub fn wait_for(path: &str) {
    assert!(wait_until(path), "{path} never appeared");
}

/// Waits for a spawned command and collects its output.
pub fn finish(child: std::process::Child) -> Run {
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// doctor's verdict and reason for each check.
pub fn doctor(db: &TestDb, args: &[&str]) -> (std::collections::BTreeMap<String, (String, String)>, Run) {
    let out = run(db.idemctl(&[&["doctor", "--format", "json"][..], args].concat()));
    assert_ne!(out.code, 2, "{}", out.stderr);
    let doc = out.json();
    let checks = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["check"].as_str().unwrap().to_string(),
                (c["result"].as_str().unwrap().to_string(), c["reason"].as_str().unwrap().to_string()),
            )
        })
        .collect();
    (checks, out)
}

/// Whether this database's statement is still in the trigger that holds
/// it: PostgreSQL's `pg_sleep` and MariaDB's `SLEEP` show on the server.
/// SQLite runs the trigger (a count that takes minutes) inside the process
/// itself, so there it is the process, `pid`, burning CPU: `None` once the
/// process is gone.
pub fn in_trigger(db: &TestDb, pid: u32) -> Option<bool> {
    match asleep_in_trigger(db) {
        Some(sql) => Some(TestDb::admin(db.engine).column(&sql)[0].as_deref() == Some("1")),
        None => cpu_seconds(pid).map(|s| s >= 1.0),
    }
}

/// The SQL counting this database's statements asleep in a trigger
/// (PostgreSQL's `pg_sleep`, MariaDB's `SLEEP`); SQLite shows nothing of a
/// statement under way (`in_trigger` watches the process instead).
pub fn asleep_in_trigger(db: &TestDb) -> Option<String> {
    match db.engine {
        Engine::Postgres => Some(format!(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND datname = '{}'",
            db.name
        )),
        Engine::MySql => Some(format!(
            "SELECT count(*) FROM information_schema.PROCESSLIST WHERE DB = '{}' AND STATE = 'User sleep'",
            db.name
        )),
        Engine::Sqlite => None,
    }
}

/// The CPU time (user and system) process `pid` has used, from
/// `/proc/PID/stat`; `None` once it has exited.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    if fields.first() == Some(&"Z") {
        return None;
    }
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // The kernel counts in USER_HZ ticks, 100 a second on Linux.
    Some(ticks / 100.0)
}

/// Waits (20 s at most) until the statement of process `pid` is in the
/// trigger that holds it (`in_trigger`): on the server's own view on
/// PostgreSQL and MariaDB, by the process's CPU on SQLite.
pub fn wait_until_in_trigger(db: &TestDb, pid: u32) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while in_trigger(db, pid) != Some(true) {
        assert!(std::time::Instant::now() < deadline, "no statement ever reached the trigger");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Waits (5 s at most) until no statement of process `pid` is in the
/// trigger any more: its cancel reached the server, or the process is gone.
pub fn wait_until_out_of_trigger(db: &TestDb, pid: u32, what: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while in_trigger(db, pid) == Some(true) {
        assert!(std::time::Instant::now() < deadline, "{what}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The README and every page of the guide (`docs/src/`), one after another.
pub fn guide() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("docs/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    let mut text = std::fs::read_to_string(root.join("README.md")).unwrap();
    for page in pages {
        text.push_str("\n\n");
        text.push_str(&std::fs::read_to_string(page).unwrap());
    }
    text
}
