//! What `idemctl scan` compares: every column type of each engine, near
//! misses that keep a scan from calling a table clean, which row of a
//! cluster stays, sums per currency, and the names it knows.

use crate::common::{Engine, Run, TestDb, csv_records, run};
use serde_json::json;

fn scan(db: &TestDb, table: &str, extra: &[&str]) -> Run {
    let mut args = vec!["scan", "--table", table];
    args.extend_from_slice(extra);
    run(db.idemctl(&args))
}

/// The duplicate ids of `--output rows --format csv`.
fn duplicates(out: &Run) -> Vec<String> {
    let records = csv_records(&out.stdout);
    let at = records[0].iter().position(|h| h == "duplicate_id").unwrap();
    records[1..].iter().map(|r| r[at].clone()).collect()
}

/// Each column alone keeps two rows apart: rows 1 and 2 of `probe` are
/// equal; row 2 takes row 3's value of one column at a time, and then only
/// the other clusters' copies, `others`, are found (a type read as a
/// constant would still cluster 1 and 2). The value is put back after each.
fn each_column_alone_tells_rows_apart(db: &TestDb, columns: &str, others: &[&str]) {
    let copy = |column: &str, from: i64| match db.engine {
        Engine::MySql => {
            format!("UPDATE probe p2 JOIN probe src ON src.id = {from} SET p2.{column} = src.{column} WHERE p2.id = 2")
        }
        _ => format!("UPDATE probe SET {column} = src.{column} FROM probe src WHERE src.id = {from} AND probe.id = 2"),
    };
    for column in columns.split(", ").filter(|c| *c != "id" && *c != "created_at") {
        db.exec(&copy(column, 3));
        let out = scan(db, "probe", &["--output", "rows", "--format", "csv"]);
        assert_eq!(duplicates(&out), others, "{column} alone did not keep rows 1 and 2 apart: {}", out.stderr);
        db.exec(&copy(column, 1));
    }
}

/// A probe row: an id, its creation second, and the rest as SQL literals.
fn insert(db: &TestDb, table: &str, columns: &str, rows: &[String]) {
    db.exec(&format!("INSERT INTO {table} ({columns}) VALUES {}", rows.join(", ")));
}

/// Every column type of PostgreSQL, arrays of each kind, domains (one the
/// created-at column) and extension types: equal rows cluster.
fn postgres_every_type() {
    let Some(db) = TestDb::new(Engine::Postgres) else { return };
    db.exec(
        "CREATE EXTENSION IF NOT EXISTS citext; CREATE EXTENSION IF NOT EXISTS hstore;
         CREATE DOMAIN moment AS timestamp without time zone;
         CREATE DOMAIN positive AS integer CHECK (VALUE > 0);
         CREATE DOMAIN label AS varchar(20)[];
         CREATE TYPE mood AS ENUM ('ok', 'sad');
         CREATE TYPE pair AS (a integer, b text);
         CREATE TABLE probe (
           id bigserial PRIMARY KEY, created_at moment NOT NULL,
           a_vc varchar(20)[], a_ch char(3)[], a_num numeric(8,2)[], a_ts timestamp[], a_int integer[], a_uuid uuid[],
           d_int positive, d_arr label, c citext, m money, x xml, r int4range, tr tstzrange, comp pair, j json, jb jsonb,
           u uuid, ip inet, b bytea, iv interval, pt point, tv tsvector, bits bit(4), vb varbit, e mood, f4 real,
           f8 double precision, num numeric, ch char(5), nm name, d date, t time, tz timetz, ok boolean, i2 smallint,
           h hstore, mac macaddr, box_c box, o oid)",
    );
    let columns = "id, created_at, a_vc, a_ch, a_num, a_ts, a_int, a_uuid, d_int, d_arr, c, m, x, r, tr, comp, j, jb, u, ip, b, iv, \
                   pt, tv, bits, vb, e, f4, f8, num, ch, nm, d, t, tz, ok, i2, h, mac, box_c, o";
    let row = |id: i64, second: u32, n: i64| {
        format!(
            "({id}, '2026-01-01 10:00:{second:02}', ARRAY['a{n}','b']::varchar(20)[], ARRAY['x{n}']::char(3)[], ARRAY[{n}.50]::numeric(8,2)[], \
             ARRAY['2026-01-0{n} 00:00']::timestamp[], ARRAY[{n},2], ARRAY['00000000-0000-4000-8000-00000000000{n}']::uuid[], {n}, \
             ARRAY['l{n}']::label, 'Mixed{n}', {n}.25, '<a n=\"{n}\"/>', int4range({n}, 10), tstzrange('2026-01-0{n}', '2026-02-01'), \
             ROW({n}, 'p')::pair, '{{\"k\": {n}}}', '{{\"k\": {n}}}', '00000000-0000-4000-8000-00000000000{n}', '10.0.0.{n}', '\\x0{n}', \
             '{n} hours', '({n},1)', 'word{n} other', B'{bits}', B'1{bits}', '{mood}', {n}.5, {n}.25, {n}.125, 'c{n}', 'name{n}', \
             '2026-01-0{n}', '10:0{n}:00', '10:0{n}:00+02', {ok}, {n}, 'k=>{n}', '08:00:2b:01:02:0{n}', '(0,0),({n},{n})', {n})",
            bits = if n % 2 == 0 { "1010" } else { "0101" },
            mood = if n % 2 == 0 { "ok" } else { "sad" },
            ok = n % 2 == 0,
        )
    };
    // 1 and 2 equal, 2 s apart; 3 and 4 equal, 3 s apart; 5 on its own.
    insert(&db, "probe", columns, &[row(1, 0, 1), row(2, 2, 1), row(3, 10, 2), row(4, 13, 2), row(5, 20, 3)]);
    let out = scan(&db, "probe", &["--output", "rows", "--format", "csv"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(duplicates(&out), ["2", "4"]);
    let doc = scan(&db, "probe", &["--format", "json"]).json();
    let compared = doc["compared_columns"].as_array().unwrap().len();
    assert_eq!(compared, 39, "every column but id and created_at: {}", doc["excluded_columns"]);
    each_column_alone_tells_rows_apart(&db, columns, &["4"]);
}

/// Every column type of MySQL and MariaDB: JSON, SET, ENUM, BIT, spatial, binary.
fn mysql_every_type() {
    let Some(db) = TestDb::new(Engine::MySql) else { return };
    db.exec(
        "CREATE TABLE probe (
           id BIGINT AUTO_INCREMENT PRIMARY KEY, created_at DATETIME(6) NOT NULL,
           j JSON, s SET('a','b','c'), e ENUM('ok','sad'), bits BIT(8), pt POINT, g GEOMETRY, bl BLOB, vb VARBINARY(16),
           y YEAR, t TIME, d DATE, ts TIMESTAMP NULL, dec_c DECIMAL(10,3), dbl DOUBLE, fl FLOAT, tiny TINYINT, med MEDIUMINT,
           big BIGINT UNSIGNED, txt TEXT, ch CHAR(4), lt LONGTEXT)",
    );
    let columns =
        "id, created_at, j, s, e, bits, pt, g, bl, vb, y, t, d, ts, dec_c, dbl, fl, tiny, med, big, txt, ch, lt";
    let row = |id: i64, second: u32, n: i64| {
        format!(
            "({id}, '2026-01-01 10:00:{second:02}', '{{\"k\": {n}}}', 'a,{set}', '{mood}', b'0000000{bit}', POINT({n}, 1), \
             ST_GeomFromText('LINESTRING(0 0, {n} {n})'), X'0{n}', X'1{n}', 202{n}, '10:0{n}:00', '2026-01-0{n}', \
             '2026-01-0{n} 10:00:00', {n}.125, {n}.5, {n}.25, {n}, {n}, 1844674407370955161{n}, 'text {n}', 'c{n}', REPEAT('x{n}', 50))",
            set = if n % 2 == 0 { "b" } else { "c" },
            mood = if n % 2 == 0 { "ok" } else { "sad" },
            bit = n % 2,
        )
    };
    insert(&db, "probe", columns, &[row(1, 0, 1), row(2, 2, 1), row(3, 10, 2), row(4, 13, 2), row(5, 20, 3)]);
    let out = scan(&db, "probe", &["--output", "rows", "--format", "csv"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(duplicates(&out), ["2", "4"]);
    let doc = scan(&db, "probe", &["--format", "json"]).json();
    assert_eq!(doc["compared_columns"].as_array().unwrap().len(), 21, "{}", doc["excluded_columns"]);
    // Spatial values and bits are shown readably.
    let clusters = doc["clusters"].as_array().unwrap();
    assert_eq!(clusters[0]["values"]["pt"], "POINT(1 1)");
    assert_eq!(clusters[0]["values"]["bits"], "1");
    each_column_alone_tells_rows_apart(&db, columns, &["4"]);
}

/// Any value in any column on SQLite: each storage class, mixed in one column.
fn sqlite_every_value() {
    let Some(db) = TestDb::new(Engine::Sqlite) else { return };
    db.exec("CREATE TABLE probe (id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, i INTEGER, r REAL, t TEXT, b BLOB, anything, n NUMERIC)");
    let row = |id: i64, second: u32, any: &str, n: i64| {
        format!("({id}, '2026-01-01T10:00:{second:02}Z', {n}, {n}.5, 't{n}', X'0{n}', {any}, {n})")
    };
    insert(
        &db,
        "probe",
        "id, created_at, i, r, t, b, anything, n",
        &[
            row(1, 0, "1", 1),
            row(2, 2, "1", 1),
            // 1 and '1' and 1.0 are different values in SQLite: no cluster.
            row(3, 10, "'1'", 2),
            row(4, 11, "1.0", 2),
            row(5, 20, "X'AA'", 3),
            row(6, 22, "X'AA'", 3),
        ],
    );
    let out = scan(&db, "probe", &["--output", "rows", "--format", "csv"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(duplicates(&out), ["2", "6"]);
    each_column_alone_tells_rows_apart(&db, "id, created_at, i, r, t, b, anything, n", &["6"]);
}

#[test]
fn every_type_compares() {
    postgres_every_type();
    mysql_every_type();
    sqlite_every_value();
}

/// Intents a minute apart; each with `retries` copies a second or two later
/// whose `client_ms` (the client's own measure of the attempt, a float)
/// differs: nothing in the values says it is minted.
fn ambiguous(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE orders (id {pk}, customer_id INTEGER, sku {text}, quantity INTEGER, client_ms REAL, created_at {ts})",
        pk = db.ty("pk"),
        text = db.ty("text"),
        ts = db.ty("ts"),
    ));
    let mut rows = Vec::new();
    for i in 0..300i64 {
        let t = |s: i64| {
            db.ts(&format!(
                "2026-01-01 {:02}:{:02}:{:02}",
                (i * 60 + s) / 3600,
                (i * 60 + s) / 60 % 60,
                (i * 60 + s) % 60
            ))
        };
        rows.push(format!(
            "({}, {}, 'sku-{}', {}, {}.5, {})",
            rows.len() + 1,
            i % 40,
            i % 17,
            1 + i % 3,
            100 + i,
            t(0)
        ));
        if i % 30 == 0 {
            rows.push(format!(
                "({}, {}, 'sku-{}', {}, {}.25, {})",
                rows.len() + 1,
                i % 40,
                i % 17,
                1 + i % 3,
                // Greater in half the pairs, smaller in the others: no sequence.
                if (i / 30) % 2 == 0 { 300 + i } else { i },
                t(2)
            ));
        }
    }
    db.exec(&format!(
        "INSERT INTO orders (id, customer_id, sku, quantity, client_ms, created_at) VALUES {}",
        rows.join(", ")
    ));
}

/// A table whose near misses are ambiguous gets no exit 0: it says how many,
/// the column that kept them apart, and the command that compares without it.
fn near_misses_are_no_clean_table(db: &TestDb) {
    ambiguous(db);
    let out = scan(db, "orders", &["--format", "csv"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(csv_records(&out.stdout).len(), 1, "no cluster, only the header");
    let line = out.stderr.lines().find(|l| l.starts_with("near misses:")).unwrap_or_else(|| panic!("{}", out.stderr));
    assert!(
        line.starts_with(
            "near misses: not clean: 10 rows (3.23% of rows scanned) equal a row before them within the window on every \
             compared column but one or a few: client_ms in 10. If retries mint those values, compare without them: \
             idemctl scan --table orders --format csv --database-url "
        ),
        "{line}"
    );
    assert!(line.ends_with(" --ignore client_ms"), "{line}");
    let doc = scan(db, "orders", &["--format", "json"]).json();
    assert_eq!(doc["cluster_count"], 0);
    let command = doc["near_misses"]["command"].as_str().unwrap().to_string();
    assert_eq!(
        doc["near_misses"],
        json!({"rows": 10, "share": 10.0 / 310.0, "equal_on_identity": 0, "identity_columns": {},
               "by_column": {"client_ms": 10}, "reported": true, "command": command, "pairs_not_read": 0})
    );
    // The suggestion is this command line with --ignore set: it reads the same rows.
    let words: Vec<&str> = command.split(' ').collect();
    assert_eq!(&words[..5], ["idemctl", "scan", "--table", "orders", "--format"]);
    assert_eq!(&words[words.len() - 2..], ["--ignore", "client_ms"]);
    // The column stays compared: a float minted nothing the data can show.
    assert!(doc["compared_columns"].as_array().unwrap().contains(&json!("client_ms")));
    // The command it gives finds the retries.
    let ignored = scan(db, "orders", &["--ignore", "client_ms", "--output", "rows", "--format", "csv"]);
    assert_eq!(ignored.code, 1);
    assert_eq!(duplicates(&ignored), ["2", "33", "64", "95", "126", "157", "188", "219", "250", "281"]);
    // With the retries gone, the table is clean: exit 0, and the line says none.
    db.exec("DELETE FROM orders WHERE id IN (2, 33, 64, 95, 126, 157, 188, 219, 250, 281)");
    let clean = scan(db, "orders", &[]);
    assert_eq!(clean.code, 0, "{}", clean.stderr);
    assert!(clean.stderr.contains("near misses: none"), "{}", clean.stderr);
}

/// Payments in three currencies: a charged and a fee amount, retried.
fn payments(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE payments (id {pk}, account INTEGER, amount_cents INTEGER, amount_currency {text}, fee {money},
           state {text}, created_at {ts})",
        pk = db.ty("pk"),
        text = db.ty("text"),
        money = db.ty("money"),
        ts = db.ty("ts"),
    ));
    let t = |s: &str| db.ts(&format!("2026-01-01 10:{s}"));
    db.exec(&format!(
        "INSERT INTO payments (id, account, amount_cents, amount_currency, fee, state, created_at) VALUES
           (1, 1, 1000, 'EUR', 0.30, 'failed', {}), (2, 1, 1000, 'EUR', 0.30, 'paid', {}),
           (3, 2, 500, 'USD', 0.20, 'paid', {}), (4, 2, 500, 'USD', 0.20, 'paid', {}), (5, 2, 500, 'USD', 0.20, 'failed', {}),
           (6, 3, 700, 'GBP', 0.25, 'paid', {}), (7, 3, 700, 'GBP', 0.25, 'paid', {}),
           (8, 4, 900, 'EUR', 0.10, 'paid', {})",
        t("00:00"),
        t("00:02"),
        t("01:00"),
        t("01:01"),
        t("01:03"),
        t("02:00"),
        t("02:04"),
        t("03:00"),
    ));
}

/// `--keep first|last|CONDITION` picks the row each cluster keeps; the
/// remediation list and the sum at stake follow it.
fn keep_picks_the_row_that_stays(db: &TestDb) {
    payments(db);
    let rows = |extra: &[&str]| {
        let mut args = vec!["--ignore", "state", "--output", "rows", "--format", "csv", "--sum", "amount_cents"];
        args.extend_from_slice(extra);
        let out = scan(db, "payments", &args);
        assert_eq!(out.code, 1, "{}", out.stderr);
        let records = csv_records(&out.stdout);
        let kept = records[0].iter().position(|h| h == "kept_id");
        let dup = records[0].iter().position(|h| h == "duplicate_id").unwrap();
        records[1..].iter().map(|r| (kept.map(|k| r[k].clone()), r[dup].clone())).collect::<Vec<_>>()
    };
    let first = rows(&[]);
    assert_eq!(first, [(None, "2".into()), (None, "4".into()), (None, "5".into()), (None, "7".into())]);
    let last = rows(&["--keep", "last"]);
    let s = |k: &str, d: &str| (Some(k.to_string()), d.to_string());
    assert_eq!(last, [s("2", "1"), s("5", "3"), s("5", "4"), s("7", "6")]);
    let paid = rows(&["--keep", "state = 'paid'"]);
    assert_eq!(paid, [s("2", "1"), s("3", "4"), s("3", "5"), s("6", "7")]);
    // The sum at stake follows the rows that go, per currency.
    let doc = scan(
        db,
        "payments",
        &["--ignore", "state", "--keep", "state = 'paid'", "--sum", "amount_cents", "--format", "json"],
    )
    .json();
    assert_eq!(doc["sum_at_stake"], json!({"amount_cents": {"EUR": 1000, "GBP": 700, "USD": 1000}}));
    let clusters = doc["clusters"].as_array().unwrap();
    assert_eq!(clusters[0]["changed"], json!({"state": ["failed", "paid"]}));
    // A condition that holds for no row of a cluster keeps its first, and says so.
    let none = scan(db, "payments", &["--ignore", "state", "--keep", "state = 'refunded'", "--format", "json"]).json();
    assert_eq!(none["keep_unmatched"], 3);
    // A condition that is not one: exit 2, one line.
    let before = db.ids("SELECT count(*) FROM payments");
    let bad = scan(db, "payments", &["--keep", "state = 'paid'; DROP TABLE payments"]);
    assert_eq!(bad.code, 2);
    assert_eq!(bad.stderr, "idemctl: --keep must be a single condition: it may not contain ';'\n");
    assert_eq!(db.ids("SELECT count(*) FROM payments"), before, "the table is as it was");
}

/// Sums are per currency (the column's own `amount_currency`, or the
/// table's), `--sum` repeats, and amounts in different currencies never add up.
fn sums_per_currency(db: &TestDb) {
    payments(db);
    let doc = scan(db, "payments", &["--ignore", "state", "--sum", "amount_cents", "--sum", "fee", "--format", "json"])
        .json();
    assert_eq!(doc["sum_currencies"], json!({"amount_cents": "amount_currency", "fee": "amount_currency"}));
    let stake = &doc["sum_at_stake"];
    assert_eq!(stake["amount_cents"], json!({"EUR": 1000, "GBP": 700, "USD": 1000}));
    let fee = |c: &str| stake["fee"][c].to_string().parse::<f64>().unwrap();
    assert_eq!((fee("EUR"), fee("USD"), fee("GBP")), (0.3, 0.4, 0.25));
    let clusters = doc["clusters"].as_array().unwrap();
    assert_eq!(clusters[1]["sum"]["amount_cents"], json!({"USD": 1000}));
    // For people, each currency on its own.
    let people = scan(db, "payments", &["--ignore", "state", "--sum", "amount_cents"]);
    assert!(
        people.stderr.contains("sum at stake: amount_cents 1,000 EUR in cents, 700 GBP in cents, 1,000 USD in cents"),
        "{}",
        people.stderr
    );
    // --currency-column names it; a sum with no currency is one figure.
    let named = scan(
        db,
        "payments",
        &["--ignore", "state", "--sum", "amount_cents", "--currency-column", "amount_currency", "--format", "json"],
    )
    .json();
    assert_eq!(named["sum_at_stake"], stake.get("amount_cents").map(|v| json!({"amount_cents": v})).unwrap());
    db.exec("ALTER TABLE payments RENAME COLUMN amount_currency TO code");
    let plain = scan(db, "payments", &["--ignore", "state,code", "--sum", "amount_cents", "--format", "json"]).json();
    assert_eq!(plain["sum_at_stake"]["amount_cents"].to_string(), "2700");
    // An unknown sum or currency column: exit 2.
    for args in [&["--sum", "nope"][..], &["--sum", "fee", "--currency-column", "nope"]] {
        let out = scan(db, "payments", args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.starts_with("idemctl: no column \"nope\" in table \"payments\""),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// The CSV has its header with or without rows, in both outputs.
fn csv_header_without_rows(db: &TestDb) {
    payments(db);
    db.exec("DELETE FROM payments WHERE id IN (2, 4, 5, 7)");
    let clusters = scan(db, "payments", &["--format", "csv"]);
    assert_eq!(clusters.code, 0, "{}", clusters.stderr);
    assert_eq!(
        clusters.stdout,
        "cluster,original_id,extra_ids,count,first_at,span_seconds,cause,confidence,evidence,values,changed\n"
    );
    let rows =
        scan(db, "payments", &["--format", "csv", "--output", "rows", "--sum", "amount_cents", "--by", "account"]);
    assert_eq!(
        rows.stdout,
        "cluster,original_id,duplicate_id,gap_seconds,cause,confidence,evidence,account,amount_cents,amount_cents_currency\n"
    );
    let bare = scan(db, "payments", &["--format", "csv", "--no-header"]);
    assert_eq!(bare.stdout, "");
}

/// Names applications use: `created_date` and the like for the creation,
/// a client reference held by a unique index for the key.
fn names_applications_use(db: &TestDb) {
    // Times the application sets, with no default of the database.
    let ts = match db.engine {
        Engine::Postgres => "timestamp",
        Engine::MySql => "DATETIME(6)",
        Engine::Sqlite => "TEXT",
    };
    db.exec(&format!(
        "CREATE TABLE events (id {pk}, organization_id INTEGER, code {text}, transaction_id {text}, external_id {text},
           value INTEGER, created_date {ts}, modified_date {ts});
         CREATE UNIQUE INDEX events_tx ON events (organization_id, code, transaction_id)",
        pk = db.ty("pk"),
        text = db.ty("text"),
    ));
    let t = |s: &str| db.ts(&format!("2026-01-01 10:00:{s}"));
    db.exec(&format!(
        "INSERT INTO events (id, organization_id, code, transaction_id, external_id, value, created_date, modified_date) VALUES
           (1, 1, 'api', 'tx-1', 'e-1', 5, {}, {}), (2, 1, 'api', 'tx-2', 'e-1', 5, {}, {})",
        t("00"),
        t("00"),
        t("02"),
        t("02")
    ));
    let doc = scan(db, "events", &["--format", "json"]).json();
    assert_eq!(doc["key_column"], "transaction_id");
    assert_eq!(
        doc["key_column_reason"],
        json!({"reason": "a client reference by its name, unique with (organization_id, code) (index events_tx)", "not_chosen": ["external_id"]})
    );
    let excluded: Vec<(&str, &str)> = doc["excluded_columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["column"].as_str().unwrap(), e["rule"].as_str().unwrap()))
        .collect();
    assert!(excluded.contains(&("created_date", "created-at")), "{excluded:?}");
    assert!(excluded.contains(&("modified_date", "update-time")), "{excluded:?}");
    assert_eq!(doc["cluster_count"], 1);
    assert_eq!(doc["clusters"][0]["cause"], "key-per-attempt");
    // The key named: chosen for the flag, nothing else offered. The client
    // reference is then a column like any other, which tells the two rows
    // apart; left out too, the two rows' one external id makes the cluster
    // a key reused.
    let named = scan(db, "events", &["--format", "json", "--key-column", "external_id"]).json();
    assert_eq!(named["key_column"], "external_id");
    assert_eq!(named["key_column_reason"], json!({"reason": "--key-column", "not_chosen": []}));
    assert!(named["compared_columns"].as_array().unwrap().contains(&json!("transaction_id")), "{named}");
    assert_eq!(named["cluster_count"], 0);
    let named =
        scan(db, "events", &["--format", "json", "--key-column", "external_id", "--ignore", "transaction_id"]).json();
    assert_eq!(named["cluster_count"], 1);
    assert_eq!(named["clusters"][0]["cause"], "key-reused");
}

/// Messages a person sends a second or two apart differ in what they say:
/// other messages, no near misses, and a table of them alone is clean. A
/// retry of one is still found.
fn written_text_is_no_near_miss(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE messages (id {pk}, sender INTEGER, stream INTEGER, content {text}, rendered {text}, created_at {ts})",
        pk = db.ty("pk"),
        text = db.ty("text"),
        ts = db.ty("ts"),
    ));
    let words = ["deploy", "is", "done", "now", "looks", "good", "to", "me", "on", "staging", "thanks", "again"];
    let mut rows = Vec::new();
    for i in 0..400i64 {
        let t = |s: i64| {
            db.ts(&format!(
                "2026-01-01 {:02}:{:02}:{:02}",
                (i * 40 + s) / 3600,
                (i * 40 + s) / 60 % 60,
                (i * 40 + s) % 60
            ))
        };
        let say = |k: i64| {
            format!(
                "{} {} {} {}",
                words[(k % 12) as usize],
                words[((k / 3) % 12) as usize],
                words[((k / 7) % 12) as usize],
                k
            )
        };
        rows.push(format!("({}, {}, {}, '{}', '<p>{}</p>', {})", rows.len() + 1, i % 9, i % 3, say(i), say(i), t(0)));
        // A follow-up, two seconds later: same sender and stream, other words.
        if i % 4 == 0 {
            rows.push(format!(
                "({}, {}, {}, '{}', '<p>{}</p>', {})",
                rows.len() + 1,
                i % 9,
                i % 3,
                say(i + 1000),
                say(i + 1000),
                t(2)
            ));
        }
    }
    db.exec(&format!(
        "INSERT INTO messages (id, sender, stream, content, rendered, created_at) VALUES {}",
        rows.join(", ")
    ));
    let clean = scan(db, "messages", &[]);
    assert_eq!(clean.code, 0, "{}", clean.stderr);
    assert!(clean.stderr.contains("near misses: none"), "{}", clean.stderr);
    // A retry: the same message again a second later.
    db.exec(&format!(
        "INSERT INTO messages (id, sender, stream, content, rendered, created_at)
         SELECT 10000, sender, stream, content, rendered, {} FROM messages WHERE id = 1",
        db.ts("2026-01-01 00:00:01")
    ));
    let found = scan(db, "messages", &["--output", "rows", "--format", "csv"]);
    assert_eq!(found.code, 1, "{}", found.stderr);
    assert_eq!(duplicates(&found), ["10000"]);
}

/// Where a `--where` leaves two columns that vary, a retry that differs in
/// one of them (a JSON document with an id minted per attempt) is still a
/// near miss, and its column, minted, is left out: never a false clean.
fn two_informative_columns(db: &TestDb) {
    db.exec(&format!(
        "CREATE TABLE posts (id {pk}, channel INTEGER, props {text}, reactions INTEGER, created_at {ts})",
        pk = db.ty("pk"),
        text = db.ty("text"),
        ts = db.ty("ts"),
    ));
    let mut rows = Vec::new();
    let token = |n: i64| format!("{:x}q{:x}z", n * 7919 + 104_729, n * 31 + 7);
    for i in 0..60i64 {
        let t = |s: i64| {
            db.ts(&format!(
                "2026-01-01 {:02}:{:02}:{:02}",
                (i * 120 + s) / 3600,
                (i * 120 + s) / 60 % 60,
                (i * 120 + s) % 60
            ))
        };
        let props =
            |n: i64| format!(r#"{{"alert": "cpu {}", "actions": [{{"id": "{}", "name": "Ack"}}]}}"#, i % 5, token(n));
        rows.push(format!("({}, 1, '{}', {}, {})", rows.len() + 1, props(i), i % 2, t(0)));
        if i % 6 == 0 {
            rows.push(format!("({}, 1, '{}', {}, {})", rows.len() + 1, props(i + 500), i % 2, t(2)));
        }
    }
    db.exec(&format!("INSERT INTO posts (id, channel, props, reactions, created_at) VALUES {}", rows.join(", ")));
    let out = scan(db, "posts", &["--output", "rows", "--format", "csv"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(duplicates(&out), ["2", "9", "16", "23", "30", "37", "44", "51", "58", "65"]);
}

on_every_engine!(
    near_misses_are_no_clean_table,
    keep_picks_the_row_that_stays,
    sums_per_currency,
    csv_header_without_rows,
    names_applications_use,
    written_text_is_no_near_miss,
    two_informative_columns,
);
