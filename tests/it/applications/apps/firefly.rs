//! Firefly III (PHP, Laravel Eloquent, MySQL/MariaDB and SQLite): `transaction_journals`, as
//! `TransactionGroupFactory::create` / `TransactionJournalFactory::createJournal` writes it for
//! `POST /api/v1/transactions` (the web form, the mobile apps, the data importer) and for the
//! recurring-transactions cron.
//! Read: firefly-iii/firefly-iii database/migrations/ 2016_06_16_000000_create_support_tables.php,
//! 2016_06_16_000002_create_main_tables.php, 2016_10_09_150037, 2016_12_28_203205, 2017_04_13_163623,
//! 2017_06_02_105232, 2017_11_04_170844, 2018_11_06_172532, 2019_02_05_055516, 2019_03_22_183214,
//! 2021_05_13_053836, 2021_08_28_073733_user_groups, 2024_03_03_174645_add_indices,
//! 2024_07_28_145631_add_running_balance, 2024_11_05_062108_add_date_tz_columns,
//! 2024_12_19_061003_add_native_amount_column, 2026_01_28_201901; app/Factory/TransactionGroupFactory.php,
//! app/Factory/TransactionJournalFactory.php, app/Factory/TransactionFactory.php, app/Models/TransactionJournal.php,
//! app/Models/Transaction.php, app/Api/V1/Requests/Models/Transaction/StoreRequest.php,
//! app/Api/V1/Controllers/Models/Transaction/StoreController.php, app/Jobs/CreateRecurringTransactions.php,
//! app/Enums/TransactionTypeEnum.php, app/Repositories/Journal/JournalRepository.php,
//! database/seeders/TransactionTypeSeeder.php, database/seeders/TransactionCurrencySeeder.php.
//!
//! A create writes one journal per split (`tag_count` 0, never updated; `completed` true unless a
//! batch submission, which `/batch/finish` sets true; `date` the request's date in the app's zone,
//! whole seconds, `date_tz` its zone name), then two `transactions` (negative on the source, positive
//! on the destination), then a `transaction_groups` row whose id is written back to the journal.
//! `created_at`/`updated_at` are Laravel's, in the app zone (TZ=Europe/Amsterdam), whole seconds.
//! A retried POST runs all of it again: new journal, group and transaction ids, new times; the hash
//! of the row is only checked when the client sends `error_if_duplicate_hash`, and the web form and
//! the mobile apps do not. Later: users edit descriptions (updated_at moves), delete groups (soft),
//! and the running balance job fills `balance_before`/`balance_after` and clears `balance_dirty`.
//! Retries: an iOS Shortcut automation (on an Apple Pay payment) firing twice, 5-100 ms apart; mobile
//! apps (30 s HTTP timeouts on slow self-hosted servers) re-posting 10-60 s later, some a second time
//! 20-120 s after; the web form (its button disabled while posting, enabled again on an error) clicked
//! again after a reverse proxy's 60 s 504, while PHP went on to store the first. Legitimate repeats: two equal
//! bank lines in one data-importer run (the importer posts one group per line, 150-450 ms apart), a
//! web entry saved again with the form's kept values ("return here to create another one") 10 s to
//! 10 min later, a split whose two splits are equal (one group, same second); recurring
//! transactions (rent, salary, savings) come back with another `date`.

use std::collections::BTreeMap;

use super::{Child, DAY, Fixture, HOUR, MINUTE, Rng, SECOND, T0, V};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Sqlite];

#[rustfmt::skip]
const CURRENCIES: &[(&str, &str, &str, u8)] = &[
    ("EUR", "Euro", "€", 1), ("HUF", "Hungarian forint", "Ft", 0), ("GBP", "British Pound", "£", 1), ("UAH", "Ukrainian hryvnia", "₴", 0),
    ("PLN", "Polish złoty", "zł", 1), ("TRY", "Turkish lira", "₺", 0), ("DKK", "Dansk krone", "kr.", 0), ("ISK", "Íslensk króna", "kr.", 0),
    ("NOK", "Norsk krone", "kr.", 0), ("SEK", "Svensk krona", "kr.", 0), ("RON", "Romanian leu", "lei", 0), ("USD", "US Dollar", "$", 1),
];

const MYSQL: &str = "CREATE TABLE `transaction_currencies` (
  `id` int unsigned NOT NULL AUTO_INCREMENT, `created_at` timestamp NULL DEFAULT NULL, `updated_at` timestamp NULL DEFAULT NULL,
  `deleted_at` timestamp NULL DEFAULT NULL, `enabled` tinyint(1) NOT NULL DEFAULT '0', `code` varchar(51) NOT NULL,
  `name` varchar(255) NOT NULL, `symbol` varchar(51) NOT NULL, `decimal_places` smallint unsigned NOT NULL DEFAULT '2',
  PRIMARY KEY (`id`), UNIQUE KEY `transaction_currencies_code_unique` (`code`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE `transaction_journals` (
  `id` int unsigned NOT NULL AUTO_INCREMENT, `created_at` timestamp NULL DEFAULT NULL,
  `updated_at` timestamp NULL DEFAULT NULL, `deleted_at` timestamp NULL DEFAULT NULL, `user_id` int unsigned NOT NULL,
  `user_group_id` bigint unsigned DEFAULT NULL, `transaction_type_id` int unsigned NOT NULL,
  `transaction_group_id` int unsigned DEFAULT NULL, `bill_id` int unsigned DEFAULT NULL,
  `transaction_currency_id` int unsigned DEFAULT NULL, `description` varchar(1024) NOT NULL, `date` datetime NOT NULL,
  `date_tz` varchar(50) DEFAULT NULL, `interest_date` date DEFAULT NULL, `book_date` date DEFAULT NULL,
  `process_date` date DEFAULT NULL, `order` int unsigned NOT NULL DEFAULT '0', `tag_count` int unsigned NOT NULL,
  `encrypted` tinyint(1) NOT NULL DEFAULT '1', `completed` tinyint(1) NOT NULL DEFAULT '1', PRIMARY KEY (`id`),
  KEY `transaction_journals_user_id_foreign` (`user_id`), KEY `transaction_journals_transaction_type_id_foreign` (`transaction_type_id`),
  KEY `transaction_journals_bill_id_foreign` (`bill_id`), KEY `transaction_journals_transaction_currency_id_foreign` (`transaction_currency_id`),
  KEY `transaction_journals_transaction_group_id_foreign` (`transaction_group_id`), KEY `transaction_journals_to_ugi` (`user_group_id`),
  KEY `transaction_journals_user_id_index` (`user_id`), KEY `transaction_journals_user_group_id_index` (`user_group_id`),
  KEY `transaction_journals_date_index` (`date`), KEY `transaction_journals_transaction_group_id_index` (`transaction_group_id`),
  KEY `transaction_journals_transaction_type_id_index` (`transaction_type_id`), KEY `transaction_journals_transaction_currency_id_index` (`transaction_currency_id`),
  KEY `transaction_journals_bill_id_index` (`bill_id`), KEY `idx_tj_deleted` (`deleted_at`),
  CONSTRAINT `transaction_journals_transaction_currency_id_foreign` FOREIGN KEY (`transaction_currency_id`) REFERENCES `transaction_currencies` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE `transactions` (
  `id` int unsigned NOT NULL AUTO_INCREMENT, `created_at` timestamp NULL DEFAULT NULL,
  `updated_at` timestamp NULL DEFAULT NULL, `deleted_at` timestamp NULL DEFAULT NULL,
  `reconciled` tinyint(1) NOT NULL DEFAULT '0', `account_id` int unsigned NOT NULL,
  `transaction_journal_id` int unsigned NOT NULL, `description` varchar(1024) DEFAULT NULL,
  `transaction_currency_id` int unsigned DEFAULT NULL, `amount` decimal(32,12) NOT NULL,
  `balance_before` decimal(32,12) DEFAULT NULL, `balance_after` decimal(32,12) DEFAULT NULL,
  `balance_dirty` tinyint(1) NOT NULL DEFAULT '1', `foreign_amount` decimal(32,12) DEFAULT NULL,
  `foreign_currency_id` int unsigned DEFAULT NULL, `identifier` smallint unsigned NOT NULL DEFAULT '0',
  `native_amount` decimal(32,12) DEFAULT NULL, `native_foreign_amount` decimal(32,12) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `transactions_account_id_foreign` (`account_id`), KEY `transactions_transaction_journal_id_foreign` (`transaction_journal_id`),
  KEY `transactions_transaction_currency_id_foreign` (`transaction_currency_id`), KEY `transactions_foreign_currency_id_foreign` (`foreign_currency_id`),
  KEY `transactions_account_id_index` (`account_id`), KEY `transactions_transaction_journal_id_index` (`transaction_journal_id`),
  KEY `transactions_transaction_currency_id_index` (`transaction_currency_id`), KEY `transactions_foreign_currency_id_index` (`foreign_currency_id`),
  KEY `idx_tx_journal_amount` (`transaction_journal_id`,`amount`),
  CONSTRAINT `transactions_transaction_journal_id_foreign` FOREIGN KEY (`transaction_journal_id`) REFERENCES `transaction_journals` (`id`) ON DELETE CASCADE,
  CONSTRAINT `transactions_transaction_currency_id_foreign` FOREIGN KEY (`transaction_currency_id`) REFERENCES `transaction_currencies` (`id`) ON DELETE SET NULL,
  CONSTRAINT `transactions_foreign_currency_id_foreign` FOREIGN KEY (`foreign_currency_id`) REFERENCES `transaction_currencies` (`id`) ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;";

const SQLITE: &str = r#"CREATE TABLE "transaction_currencies" ("id" integer primary key autoincrement not null, "created_at" datetime, "updated_at" datetime, "deleted_at" datetime, "enabled" tinyint(1) not null default '0', "code" varchar not null, "name" varchar not null, "symbol" varchar not null, "decimal_places" integer not null default '2');
CREATE UNIQUE INDEX "transaction_currencies_code_unique" on "transaction_currencies" ("code");
CREATE TABLE "transaction_journals" ("id" integer primary key autoincrement not null, "created_at" datetime, "updated_at" datetime, "deleted_at" datetime, "user_id" integer not null, "user_group_id" integer, "transaction_type_id" integer not null, "transaction_group_id" integer, "bill_id" integer, "transaction_currency_id" integer, "description" varchar not null, "date" datetime not null, "date_tz" varchar, "interest_date" date, "book_date" date, "process_date" date, "order" integer not null default '0', "tag_count" integer not null, "encrypted" tinyint(1) not null default '1', "completed" tinyint(1) not null default '1', foreign key("transaction_currency_id") references "transaction_currencies"("id") on delete cascade);
CREATE INDEX "transaction_journals_user_id_index" on "transaction_journals" ("user_id");
CREATE INDEX "transaction_journals_user_group_id_index" on "transaction_journals" ("user_group_id");
CREATE INDEX "transaction_journals_date_index" on "transaction_journals" ("date");
CREATE INDEX "transaction_journals_transaction_group_id_index" on "transaction_journals" ("transaction_group_id");
CREATE INDEX "transaction_journals_transaction_type_id_index" on "transaction_journals" ("transaction_type_id");
CREATE INDEX "transaction_journals_transaction_currency_id_index" on "transaction_journals" ("transaction_currency_id");
CREATE INDEX "transaction_journals_bill_id_index" on "transaction_journals" ("bill_id");
CREATE INDEX "idx_tj_deleted" on "transaction_journals" ("deleted_at");
CREATE TABLE "transactions" ("id" integer primary key autoincrement not null, "created_at" datetime, "updated_at" datetime, "deleted_at" datetime, "reconciled" tinyint(1) not null default '0', "account_id" integer not null, "transaction_journal_id" integer not null, "description" varchar, "transaction_currency_id" integer, "amount" numeric not null, "balance_before" numeric, "balance_after" numeric, "balance_dirty" tinyint(1) not null default '1', "foreign_amount" numeric, "foreign_currency_id" integer, "identifier" integer not null default '0', "native_amount" numeric, "native_foreign_amount" numeric, foreign key("transaction_journal_id") references "transaction_journals"("id") on delete cascade, foreign key("transaction_currency_id") references "transaction_currencies"("id") on delete set null, foreign key("foreign_currency_id") references "transaction_currencies"("id") on delete set null);
CREATE INDEX "transactions_account_id_index" on "transactions" ("account_id");
CREATE INDEX "transactions_transaction_journal_id_index" on "transactions" ("transaction_journal_id");
CREATE INDEX "transactions_transaction_currency_id_index" on "transactions" ("transaction_currency_id");
CREATE INDEX "transactions_foreign_currency_id_index" on "transactions" ("foreign_currency_id");
CREATE INDEX "idx_tx_journal_amount" on "transactions" ("transaction_journal_id", "amount");"#;

/// The schema, and the currencies the seeder wrote (EUR enabled; GBP, PLN, USD enabled by users).
pub fn ddl(engine: Engine) -> String {
    let rows: Vec<String> = CURRENCIES
        .iter()
        .enumerate()
        .map(|(i, (code, name, symbol, on))| {
            format!(
                "({}, '2025-03-02 11:14:07', '2025-03-02 11:14:07', {on}, '{code}', '{name}', '{symbol}', 2)",
                i + 1
            )
        })
        .collect();
    let insert = format!(
        "INSERT INTO transaction_currencies (id, created_at, updated_at, enabled, code, name, symbol, decimal_places) VALUES {};",
        rows.join(", ")
    );
    match engine {
        Engine::MySql => format!("{MYSQL}\n{insert}"),
        Engine::Sqlite => format!("{SQLITE}\n{insert}"),
        Engine::Postgres => unreachable!("this fixture covers Firefly III on MySQL and SQLite"),
    }
}

const DEPOSIT: i64 = 1;
const TRANSFER: i64 = 6;
const WITHDRAWAL: i64 = 7;
/// 2026-10-25 01:00 UTC: Europe/Amsterdam goes from CEST to CET.
const DST_END: i64 = T0 + 24 * DAY + HOUR;
const DAYS: i64 = 42;

/// Wall time in Europe/Amsterdam of a UTC instant.
fn wall(utc: i64) -> i64 {
    utc + if utc < DST_END { 2 * HOUR } else { HOUR }
}

/// The UTC instant of a wall time.
fn utc(wall: i64) -> i64 {
    if wall - 2 * HOUR < DST_END { wall - 2 * HOUR } else { wall - HOUR }
}

/// (account name, what people type, lowest and highest amount in cents).
#[rustfmt::skip]
const SHOPS: &[(&str, &str, i64, i64)] = &[
    ("Albert Heijn", "Groceries", 800, 9_500), ("Jumbo", "Groceries", 600, 7_000), ("Starbucks", "Coffee", 280, 650),
    ("NS", "Train ticket", 350, 2_800), ("Lidl", "Groceries", 500, 6_000), ("Shell", "Fuel", 3_500, 9_000),
    ("Bakkerij Bart", "Bread", 250, 900), ("Bol.com", "Online order", 999, 12_000), ("Thuisbezorgd", "Takeaway", 1_500, 4_500),
    ("Q-Park", "Parking", 250, 1_800), ("Etos", "Drugstore", 199, 3_500), ("HEMA", "HEMA", 150, 4_000),
    ("Cafe de Jaren", "Drinks", 450, 4_800), ("Amazon", "Amazon order", 799, 15_000), ("Kruidvat", "Drugstore", 199, 2_500),
    ("Pathé", "Cinema", 1_250, 3_200), ("IKEA", "IKEA", 500, 25_000), ("Gamma", "DIY", 300, 8_000),
    ("Apotheek", "Pharmacy", 500, 4_000), ("Coolblue", "Electronics", 1_999, 49_900),
];
const CITIES: &[&str] = &["AMSTERDAM", "UTRECHT", "HAARLEM", "LEIDEN", "DEN HAAG"];

#[derive(Clone)]
struct Journal {
    ty: i64,
    desc: String,
    date: i64,
    src: i64,
    dst: i64,
    cents: i64,
    foreign: Option<(i64, i64)>,
    bill: Option<i64>,
    order: i64,
    legit: bool,
}

#[derive(Clone)]
struct Group {
    at: i64,
    user: i64,
    journals: Vec<Journal>,
    retry: bool,
}

fn currency_of(u: i64) -> i64 {
    match u {
        3 => 3,
        7 => 12,
        12 => 5,
        _ => 1,
    }
}

fn shop(r: &mut Rng, u: i64, date: i64, imported: bool) -> Journal {
    let k = r.skewed(SHOPS.len() as u64) as usize;
    let (name, what, lo, hi) = SHOPS[k];
    let desc = if imported {
        format!("{} {} {}", name.to_uppercase(), 1000 + (u * 37 + k as i64 * 101) % 9000, CITIES[(u as usize + k) % 5])
    } else if r.chance(0.5) {
        what.to_string()
    } else {
        name.to_string()
    };
    let cents = r.range(lo, hi);
    let foreign = (u <= 2 && r.chance(0.03)).then(|| (3, cents * 86 / 100));
    let src = u * 100 + if r.chance(0.15) { 3 } else { 1 };
    Journal {
        ty: WITHDRAWAL,
        desc,
        date,
        src,
        dst: u * 100 + 10 + k as i64,
        cents,
        foreign,
        bill: None,
        order: 0,
        legit: false,
    }
}

fn plain(ty: i64, desc: &str, date: i64, src: i64, dst: i64, cents: i64) -> Journal {
    Journal { ty, desc: desc.to_string(), date, src, dst, cents, foreign: None, bill: None, order: 0, legit: false }
}

fn dec(cents: i64) -> String {
    format!("{}{}.{:02}", if cents < 0 { "-" } else { "" }, cents.abs() / 100, cents.abs() % 100)
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(4_711);
    // How many hand entries a user makes (a few busy users, many quiet ones).
    let weight = |u: i64| -> usize { [0, 10, 8, 7, 6, 5, 4, 4, 3, 3, 3, 2, 2, 2, 2][(u as usize).min(15) % 15].max(1) };
    let mut groups: Vec<Group> = Vec::new();
    let mut retries = 0;
    for d in 0..DAYS {
        let midnight = T0 + d * DAY; // wall time of the day's start
        let dom = if d < 31 { d + 1 } else { d - 30 };
        // The recurring cron at 03:00: one group per due recurrence, dated 00:00.
        let mut at = utc(midnight + 3 * HOUR) + r.range(0, 900) * 1_000;
        for u in [1, 2, 3, 4, 5, 6, 8, 10, 11, 15] {
            let mut due = Vec::new();
            if dom == 1 {
                due.push(Journal {
                    bill: Some(u * 10 + 1),
                    ..plain(WITHDRAWAL, "Rent", midnight, u * 100 + 1, u * 100 + 50, 85_000 + u * 1_700)
                });
            }
            if dom == 25 {
                due.push(plain(DEPOSIT, "Salary", midnight, u * 100 + 60, u * 100 + 1, 280_000 + u * 13_100));
            }
            if dom == 15 && u % 2 == 0 {
                due.push(Journal {
                    bill: Some(u * 10 + 2),
                    ..plain(WITHDRAWAL, "Netflix", midnight, u * 100 + 3, u * 100 + 51, 1_399)
                });
            }
            if dom == 3 && u % 3 == 0 {
                due.push(Journal {
                    bill: Some(u * 10 + 3),
                    ..plain(WITHDRAWAL, "Gym membership", midnight, u * 100 + 1, u * 100 + 52, 2_999)
                });
            }
            if d % 7 == 4 && [1, 2, 4, 10].contains(&u) {
                due.push(plain(TRANSFER, "Savings", midnight, u * 100 + 1, u * 100 + 2, 5_000 * (1 + u % 3)));
            }
            for j in due {
                at += r.range(120, 400) * 1_000;
                groups.push(Group { at, user: u, journals: vec![j], retry: false });
            }
        }
        // The data importer (GoCardless, nightly): one POST per bank line of the last days.
        for (u, lo, hi) in [(1, 4, 16), (2, 3, 11), (5, 1, 7)] {
            let mut at = utc(midnight + 6 * HOUR + u * 7 * MINUTE) + r.range(0, 59_000) * 1_000;
            for _ in 0..r.range(lo, hi) {
                let date = midnight - r.range(1, 2) * DAY;
                let j = if r.chance(0.08) {
                    plain(
                        DEPOSIT,
                        &format!("TIKKIE {}", r.pick(&["ANNA", "JOOST", "MEHMET", "SARA"])),
                        date,
                        u * 100 + 61,
                        u * 100 + 1,
                        r.range(500, 4_000),
                    )
                } else {
                    shop(&mut r, u, date, true)
                };
                at += r.range(150, 450) * 1_000;
                groups.push(Group { at, user: u, journals: vec![j.clone()], retry: false });
                // Two equal bank lines (two rides, two coffees): two groups, both new.
                if r.chance(0.025) {
                    at += r.range(150, 450) * 1_000;
                    groups.push(Group { at, user: u, journals: vec![Journal { legit: true, ..j }], retry: false });
                }
            }
        }
        // People entering transactions by hand.
        for u in 1..=24 {
            let n = (0..weight(u)).filter(|_| r.chance(0.35)).count();
            for _ in 0..n {
                let at = utc(midnight + r.range(7 * 3_600, 23 * 3_600 + 1_800) * SECOND) + r.range(0, 999_999);
                // Channel: a mobile app, an iOS Shortcut fired by an Apple Pay payment, or the web form
                // (its date field is a datetime-local filled with the minute the form opened).
                let mobile = [2, 3, 4, 6, 9, 13, 17].contains(&u) && r.chance(0.8);
                let shortcut = !mobile && [1, 4, 8, 14].contains(&u) && r.chance(0.5);
                let opened = wall(at) - r.range(15, 300) * SECOND;
                let date = if mobile {
                    opened - opened.rem_euclid(SECOND)
                } else if shortcut {
                    let paid = wall(at) - r.range(1, 3) * SECOND;
                    paid - paid.rem_euclid(SECOND)
                } else {
                    opened - opened.rem_euclid(MINUTE) - if r.chance(0.3) { r.range(1, 4) * DAY } else { 0 }
                };
                let roll = r.below(100);
                let journals = if shortcut {
                    let j = shop(&mut r, u, date, false);
                    vec![Journal { desc: SHOPS[(j.dst - u * 100 - 10) as usize].0.to_string(), ..j }]
                } else if roll < 78 {
                    vec![shop(&mut r, u, date, false)]
                } else if roll < 88 {
                    let (desc, src, dst) = *r.pick(&[
                        ("Savings", u * 100 + 1, u * 100 + 2),
                        ("From savings", u * 100 + 2, u * 100 + 1),
                        ("Credit card payment", u * 100 + 1, u * 100 + 3),
                    ]);
                    vec![plain(TRANSFER, desc, date, src, dst, r.range(20, 500) * 500)]
                } else if roll < 95 {
                    let desc = *r.pick(&["Refund", "Tikkie", "Sold on Marktplaats", "Birthday money", "Deposit back"]);
                    vec![plain(DEPOSIT, desc, date, u * 100 + 60 + r.range(1, 5), u * 100 + 1, r.range(500, 20_000))]
                } else {
                    // A split: one group, a journal per split, shared source and date.
                    let first = shop(&mut r, u, date, false);
                    let mut js = vec![first.clone()];
                    for _ in 0..r.range(1, 2) {
                        let j = if r.chance(0.2) {
                            Journal { legit: true, ..first.clone() }
                        } else {
                            Journal { src: first.src, date, foreign: None, ..shop(&mut r, u, date, false) }
                        };
                        js.push(j);
                    }
                    js
                };
                let g = Group { at, user: u, journals, retry: false };
                groups.push(g.clone());
                // Saved again with the values the web form kept ("create another"): a new intent.
                let web = !mobile && !shortcut;
                if web && g.journals.len() == 1 && r.chance(0.025) {
                    let again = g.at + r.range(10, 600) * SECOND + r.range(0, 999_999);
                    let journals = g.journals.iter().map(|j| Journal { legit: true, ..j.clone() }).collect();
                    groups.push(Group { at: again, journals, ..g.clone() });
                }
                // Retries: a Shortcut automation firing twice; a mobile app re-posting after its
                // timeout; the web form's button, enabled again after a proxy's 504, clicked again.
                let late = d >= DAYS - 4 && r.chance(0.05);
                if shortcut && (r.chance(0.08) || late) {
                    groups.push(Group { at: g.at + r.range(5, 100) * 1_000, retry: true, ..g.clone() });
                    retries += 1;
                } else if mobile && (r.chance(0.06) || late) {
                    let first = g.at + r.range(10, 60) * SECOND + r.range(0, 999_999);
                    groups.push(Group { at: first, retry: true, ..g.clone() });
                    retries += 1;
                    if r.chance(0.3) {
                        groups.push(Group { at: first + r.range(20, 120) * SECOND, retry: true, ..g.clone() });
                        retries += 1;
                    }
                } else if web && (r.chance(0.006) || late) {
                    groups.push(Group {
                        at: g.at + r.range(60, 90) * SECOND + r.range(0, 999_999),
                        retry: true,
                        ..g.clone()
                    });
                    retries += 1;
                }
            }
        }
    }
    assert!(retries > 10);
    groups.sort_by_key(|g| g.at);

    let columns: Vec<&'static str> = "id created_at updated_at deleted_at user_id user_group_id transaction_type_id \
        transaction_group_id bill_id transaction_currency_id description date date_tz order tag_count \
        completed"
        .split_whitespace()
        .collect();
    let mut f = Fixture::new("transaction_journals", &columns);
    let tx_columns: Vec<&'static str> =
        "id created_at updated_at deleted_at reconciled account_id transaction_journal_id \
        transaction_currency_id amount balance_before balance_after balance_dirty foreign_amount \
        foreign_currency_id identifier"
            .split_whitespace()
            .collect();
    let mut tx = Child::new("transactions", &tx_columns);
    // Per account: (date, journal id, row in `tx`, cents), for the running balance.
    let mut ledger: BTreeMap<i64, Vec<(i64, i64, usize, i64)>> = BTreeMap::new();
    let (mut jid, mut gid, mut tid) = (5_120, 4_211, 10_301);
    for g in &groups {
        gid += 1;
        let created = V::AtSecs(wall(g.at));
        // Deleted by its owner, or edited later (the description; updated_at moves).
        let deleted = (!g.retry && r.chance(0.008)).then(|| wall(g.at) + r.range(60, 3 * 86_400) * SECOND);
        for j in &g.journals {
            jid += 1;
            let edited = (!g.retry && deleted.is_none() && r.chance(0.04)).then(|| r.range(60, 6 * 86_400) * SECOND);
            let desc = match edited {
                Some(_) => {
                    format!("{} {}", j.desc, r.pick(&["(shared)", "- return", "for Anna", "(cash back)", "birthday"]))
                }
                None => j.desc.clone(),
            };
            let updated = deleted.or(edited.map(|e| wall(g.at) + e)).map_or(created.clone(), V::AtSecs);
            let currency = currency_of(g.user);
            f.push(&[
                ("id", V::I(jid)),
                ("created_at", created.clone()),
                ("updated_at", updated.clone()),
                ("deleted_at", deleted.map_or(V::Null, V::AtSecs)),
                ("user_id", V::I(g.user)),
                ("user_group_id", V::I(g.user)),
                ("transaction_type_id", V::I(j.ty)),
                ("transaction_group_id", V::I(gid)),
                ("bill_id", V::opt_i(j.bill)),
                ("transaction_currency_id", V::I(currency)),
                ("description", V::t(desc)),
                ("date", V::AtSecs(j.date)),
                ("date_tz", V::t("Europe/Amsterdam")),
                ("order", V::I(j.order)),
                ("tag_count", V::I(0)),
                ("completed", V::B(true)),
            ]);
            if g.retry {
                f.extras.insert(jid.to_string());
            } else if j.legit {
                f.legit.insert(jid.to_string());
            }
            for (account, sign) in [(j.src, -1), (j.dst, 1)] {
                tid += 1;
                ledger.entry(account).or_default().push((j.date, jid, tx.rows.len(), sign * j.cents));
                tx.push(&[
                    ("id", V::I(tid)),
                    ("created_at", created.clone()),
                    ("updated_at", created.clone()),
                    ("deleted_at", deleted.map_or(V::Null, V::AtSecs)),
                    ("reconciled", V::B(false)),
                    ("account_id", V::I(account)),
                    ("transaction_journal_id", V::I(jid)),
                    ("transaction_currency_id", V::I(currency)),
                    ("amount", V::t(dec(sign * j.cents))),
                    ("balance_dirty", V::B(false)),
                    ("foreign_amount", j.foreign.map_or(V::Null, |(_, c)| V::t(dec(sign * c)))),
                    ("foreign_currency_id", j.foreign.map_or(V::Null, |(c, _)| V::I(c))),
                    ("identifier", V::I(0)),
                ]);
            }
        }
    }
    // The running balance, per account in date order, as the balance job leaves it.
    let before_col = tx.columns.iter().position(|c| *c == "balance_before").unwrap();
    for (account, mut moves) in ledger {
        moves.sort();
        let mut balance = if account % 100 == 1 { 150_000 + (account * 7_919) % 400_000 } else { 0 };
        for (_, _, row, cents) in moves {
            tx.rows[row][before_col] = V::t(dec(balance));
            balance += cents;
            tx.rows[row][before_col + 1] = V::t(dec(balance));
        }
    }
    f.children.push(tx);
    f
}
