//! Crater 6.0.6 (PHP, Laravel 8.83 with Eloquent, doctrine/dbal 2.13; MySQL/MariaDB, PostgreSQL and SQLite, the three
//! its installer offers): `invoices`, as `InvoicesController@store` (`Invoice::createInvoice` on
//! `InvoicesRequest::getInvoicePayload`) writes it from the web form, the mobile app and an API client, as
//! `CloneInvoiceController`, `ConvertEstimateController` and the scheduler's `RecurringInvoice::generateInvoice` write
//! it, and as sends, the customer's link, payments, edits, deletes and the nightly overdue check change it: one install
//! with three companies (a Berlin hosting firm with ~440 recurring plans, a Chicago appliance repair service whose
//! booking system posts through the API, a Stockholm design studio working by hand), 52 days to the end of September.
//! Read: crater-invoice/crater (05d5ce2) database/migrations/2017_04_12_090759_create_invoices_table.php,
//! 2020_11_23_050206 (creator_id), 2020_12_14_044717, 2020_12_14_051450, 2021_06_28_120208 (customer_id),
//! 2021_06_30_062411 (user_id dropped), 2021_07_09_063502 and _063712 (recurring), 2021_07_15_054753 (due_date made
//! nullable with `change()`), 2021_07_16_072458 (exchange_rate, base_*), 2021_07_16_080253 (currency_id),
//! 2021_09_28_130822 (the sequence columns `after('id')`), 2022_01_05_101841, 2022_03_02_120210 (overdue),
//! 2022_03_03_063237; app/Models/Invoice.php (`createInvoice`, `updateInvoice`, `send`, `changeInvoiceStatus`,
//! `subtractInvoicePayment`, `getPreviousStatus`, `deleteInvoices`), RecurringInvoice.php (`generateInvoice`,
//! `createInvoice`), Payment.php (`createPayment`, `deletePayments`), Estimate.php, Company.php (default settings),
//! app/Services/SerialNumberFormatter.php, app/Http/Requests/InvoicesRequest.php, DeleteInvoiceRequest.php,
//! app/Http/Controllers/V1/Admin/Invoice/InvoicesController.php, CloneInvoiceController.php,
//! ChangeInvoiceStatusController.php, SendInvoiceController.php, General/NextNumberController.php,
//! Estimate/ConvertEstimateController.php, V1/Customer/InvoicePdfController.php, app/Console/Kernel.php,
//! Commands/CheckInvoiceStatus.php, app/Jobs/GenerateInvoicePdfJob.php, app/Http/Kernel.php, config/database.php,
//! config/hashids.php, config/app.php, .env.example, composer.lock, database/seeders/CurrenciesTableSeeder.php;
//! resources/scripts/admin/stores/invoice.js, stub/invoice.js, views/invoices/create/InvoiceCreate.vue,
//! components/dropdowns/InvoiceIndexDropdown.vue, views/installation/database/*.vue. crater-invoice/crater-mobile
//! src/features/invoices/saga/index.js (`takeEvery` on CREATE_INVOICE) and components/Invoice/index.js.
//! doctrine/dbal 2.13.9 (c480849) Platforms/SqlitePlatform.php (`getAlterTableSQL`, `_getCreateTableSQL`),
//! AbstractPlatform.php, Schema/SqliteSchemaManager.php. Issues crater-invoice-inc/crater #1032 (two invoices with
//! one number from simultaneous API calls) and #1002.
//! On a create: `invoice_number` what the client sent, the next number it fetched (the web form when it opened, the API
//! client just before posting), guarded only by the `unique` validation rule (no index); after the INSERT a second
//! save in the same request sets `sequence_number` (the company's largest + 1) and `customer_sequence_number` (the
//! customer's largest + 1), both looked up among the rows still there (a deleted last number comes again), and
//! `unique_hash` (Hashids of the id, 20 characters); `status` DRAFT, `paid_status` UNPAID, `due_amount` the total,
//! `tax_per_item`/`discount_per_item` 'NO' from the settings, `exchange_rate` 1 in the home currency else the form's,
//! `base_*` amount × rate, `currency_id` the customer's, `creator_id` the user, `notes` and `reference_number` NULL
//! when empty (ConvertEmptyStringsToNull), the dates the client computed (its local day; due after the company's
//! days), `sent`/`viewed`/`overdue` their defaults, `created_at` = `updated_at` in whole UTC seconds. A clone takes
//! its numbers before the INSERT, UTC today as `invoice_date`, the source's amounts, notes, reference and (stale)
//! rate, and no `creator_id`. A converted estimate gets its own number again as `reference_number` and no
//! `base_due_amount`. The scheduler runs one closure per profile in turn (`->cron()->timezone()`): `Carbon::today()`
//! in UTC as `invoice_date` (Berlin's midnight run writes the month's last day), no reference, the profile's creator,
//! rate and amounts, and `send()` at once when the profile says so.
//! Later: `send()` turns DRAFT into SENT (`sent`); the customer's link SENT or DRAFT into VIEWED (`viewed`); a payment
//! lowers `due_amount` and `base_due_amount` and sets PARTIALLY_PAID with the previous status, or COMPLETED/PAID and
//! clears `overdue`; `updateInvoice` rewrites the amounts, moves `due_amount` by the difference, sets `creator_id` to
//! the editor and writes the payload's DRAFT/UNPAID back (a new `customer_sequence_number` for another customer);
//! `check:invoices:status` (00:00 UTC) sets `overdue` on sent and viewed invoices past due; deletes are hard. Every
//! save bumps `updated_at`.
//! Retries (about 2% of creates): the booking system's flow sent again after its 10 s timeout (the PDF is rendered in
//! the request, the queue being sync), each attempt with a freshly fetched number, some a third time after backoff;
//! its job-closed webhook delivered twice at once, both flows passing the `unique` rule with one number (#1032), both
//! paid or sent; the mobile app's double tap (one number); a double click on the clone or convert dialog's OK (one
//! number and the same sequence numbers when the second request read them before the first was written); a web form
//! filled in again after the proxy's 60 s gateway timeout (a new number). Three in the last day. Hidden: two of the
//! booking system's retries by its job queue 15-40 minutes later, and a studio invoice re-entered 21 minutes later,
//! as far apart as a property manager's units or a second invoice made on purpose. Fates: orphan drafts deleted by
//! the office or left; one twin deleted; the copy the client knew of sent, paid, edited.
//! Legitimate repeats: a property manager's units under one purchase or work order, closed one after another (25-55
//! min) or together on the tablet (0.4-90 s); two workshop days billed back to back; two advice sessions the same day;
//! an invoice cloned twice for two projects before either is edited. Plain near-repeats: the scheduler's runs
//! (hundreds of equal plans for different customers within minutes), the retainers cloned on 1 September, flat-price
//! jobs for different customers, last month's work again.
//! Guessed: the companies, customers, users, plans, prices, taxes, exchange rates and rhythms; the booking system
//! (timeout, retries, a fresh number per attempt, its due dates and note); the proxy's timeout; who deletes what and
//! when; the mobile app's due date; base amounts rounded to whole cents (a fractional product fails on PostgreSQL's
//! bigint and stays REAL on SQLite); the foreign keys to other tables left out.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, day, secs, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Postgres, Engine::Sqlite];

/// Laravel 8's `create table` and the later `alter table`s on MySQL/MariaDB (`utf8`/`utf8_unicode_ci`, InnoDB), as
/// `SHOW CREATE TABLE` gives it: `sequence_number` and `customer_sequence_number` placed `after('id')`, `due_date` made
/// nullable by DBAL's `CHANGE`, `user_id` gone; each foreign key left its index (`invoices_*_foreign`) behind, the
/// constraints themselves (to companies, users, customers, recurring_invoices, currencies) are not written here.
const MYSQL: &str = "CREATE TABLE `invoices` (`id` int unsigned NOT NULL AUTO_INCREMENT, \
`sequence_number` mediumint unsigned NULL, `customer_sequence_number` mediumint unsigned NULL, \
`invoice_date` date NOT NULL, `due_date` date NULL DEFAULT NULL, `invoice_number` varchar(255) NOT NULL, \
`reference_number` varchar(255) NULL, `status` varchar(255) NOT NULL, `paid_status` varchar(255) NOT NULL, \
`tax_per_item` varchar(255) NOT NULL, `discount_per_item` varchar(255) NOT NULL, `notes` text NULL, \
`discount_type` varchar(255) NULL, `discount` decimal(15, 2) NULL, `discount_val` bigint unsigned NULL, \
`sub_total` bigint unsigned NOT NULL, `total` bigint unsigned NOT NULL, `tax` bigint unsigned NOT NULL, \
`due_amount` bigint unsigned NOT NULL, `sent` tinyint(1) NOT NULL DEFAULT '0', \
`viewed` tinyint(1) NOT NULL DEFAULT '0', \
`unique_hash` varchar(255) NULL, `company_id` int unsigned NULL, `created_at` timestamp NULL, \
`updated_at` timestamp NULL, `creator_id` int unsigned NULL, `template_name` varchar(255) NULL, \
`customer_id` bigint unsigned NULL, `recurring_invoice_id` bigint unsigned NULL, `exchange_rate` decimal(19, 6) NULL, \
`base_discount_val` bigint unsigned NULL, `base_sub_total` bigint unsigned NULL, `base_total` bigint unsigned NULL, \
`base_tax` bigint unsigned NULL, `base_due_amount` bigint unsigned NULL, `currency_id` int unsigned NULL, \
`sales_tax_type` varchar(255) NULL, `sales_tax_address_type` varchar(255) NULL, \
`overdue` tinyint(1) NOT NULL DEFAULT '0', PRIMARY KEY (`id`), \
KEY `invoices_company_id_foreign` (`company_id`), KEY `invoices_creator_id_foreign` (`creator_id`), \
KEY `invoices_customer_id_foreign` (`customer_id`), \
KEY `invoices_recurring_invoice_id_foreign` (`recurring_invoice_id`), \
KEY `invoices_currency_id_foreign` (`currency_id`)) ENGINE = InnoDB DEFAULT CHARACTER SET utf8 \
COLLATE 'utf8_unicode_ci'";

/// Laravel 8 on PostgreSQL: `serial`, the unsigned integers plain, `->after()` ignored (the sequence columns come
/// last but for the sales tax columns and `overdue`), `due_date` loosened by DBAL's `ALTER ... DROP NOT NULL`; the
/// foreign keys (no index of their own on PostgreSQL) are not written here.
const POSTGRES: &str = r#"CREATE TABLE "invoices" ("id" serial primary key not null, "invoice_date" date not null,
"due_date" date null, "invoice_number" varchar(255) not null, "reference_number" varchar(255) null,
"status" varchar(255) not null, "paid_status" varchar(255) not null, "tax_per_item" varchar(255) not null,
"discount_per_item" varchar(255) not null, "notes" text null, "discount_type" varchar(255) null,
"discount" decimal(15, 2) null, "discount_val" bigint null, "sub_total" bigint not null, "total" bigint not null,
"tax" bigint not null, "due_amount" bigint not null, "sent" boolean not null default '0',
"viewed" boolean not null default '0', "unique_hash" varchar(255) null, "company_id" integer null,
"created_at" timestamp(0) without time zone null, "updated_at" timestamp(0) without time zone null,
"creator_id" integer null, "template_name" varchar(255) null, "customer_id" bigint null,
"recurring_invoice_id" bigint null, "exchange_rate" decimal(19, 6) null, "base_discount_val" bigint null,
"base_sub_total" bigint null, "base_total" bigint null, "base_tax" bigint null, "base_due_amount" bigint null,
"currency_id" integer null, "sequence_number" integer null, "customer_sequence_number" integer null,
"sales_tax_type" varchar(255) null, "sales_tax_address_type" varchar(255) null,
"overdue" boolean not null default '0')"#;

/// SQLite: Laravel 8 drops `user_id` (2021_06_30) and loosens `due_date` (2021_07_15) through DBAL 2.13, which copies
/// the table into a new one each time in its own dialect (`VARCHAR(255) ... COLLATE BINARY`, `CLOB`, `NUMERIC(10, 0)`
/// for Laravel's bare `numeric`, `BOOLEAN DEFAULT '0'`) and puts the changed `due_date` last; the columns added after
/// that keep Laravel's words, as `ALTER TABLE ... ADD COLUMN` appends them. DBAL's copy keeps the one foreign key
/// SQLite had (`company_id` to companies), not written here.
const SQLITE: &str = "CREATE TABLE invoices (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, \
invoice_date DATE NOT NULL, invoice_number VARCHAR(255) NOT NULL COLLATE BINARY, \
reference_number VARCHAR(255) DEFAULT NULL COLLATE BINARY, status VARCHAR(255) NOT NULL COLLATE BINARY, \
paid_status VARCHAR(255) NOT NULL COLLATE BINARY, tax_per_item VARCHAR(255) NOT NULL COLLATE BINARY, \
discount_per_item VARCHAR(255) NOT NULL COLLATE BINARY, notes CLOB DEFAULT NULL COLLATE BINARY, \
discount_type VARCHAR(255) DEFAULT NULL COLLATE BINARY, discount NUMERIC(10, 0) DEFAULT NULL, \
discount_val INTEGER DEFAULT NULL, sub_total INTEGER NOT NULL, total INTEGER NOT NULL, tax INTEGER NOT NULL, \
due_amount INTEGER NOT NULL, sent BOOLEAN DEFAULT '0' NOT NULL, viewed BOOLEAN DEFAULT '0' NOT NULL, \
unique_hash VARCHAR(255) DEFAULT NULL COLLATE BINARY, company_id INTEGER DEFAULT NULL, \
created_at DATETIME DEFAULT NULL, updated_at DATETIME DEFAULT NULL, creator_id INTEGER DEFAULT NULL, \
template_name VARCHAR(255) DEFAULT NULL COLLATE BINARY, customer_id INTEGER DEFAULT NULL, \
recurring_invoice_id INTEGER DEFAULT NULL, due_date DATE DEFAULT NULL, \"exchange_rate\" numeric, \
\"base_discount_val\" integer, \"base_sub_total\" integer, \"base_total\" integer, \"base_tax\" integer, \
\"base_due_amount\" integer, \"currency_id\" integer, \"sequence_number\" integer, \
\"customer_sequence_number\" integer, \"sales_tax_type\" varchar, \"sales_tax_address_type\" varchar, \
\"overdue\" tinyint(1) not null default '0')";

/// The table as a fresh install of Crater 6.0.6 (Laravel 8.83, doctrine/dbal 2.13) leaves it.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL,
        Engine::Postgres => POSTGRES,
        Engine::Sqlite => SQLITE,
    }
    .to_string()
}

const COLUMNS: &str = "id sequence_number customer_sequence_number invoice_date due_date invoice_number \
    reference_number status paid_status tax_per_item discount_per_item notes discount_type discount discount_val \
    sub_total total tax due_amount sent viewed unique_hash company_id created_at updated_at creator_id template_name \
    customer_id recurring_invoice_id exchange_rate base_discount_val base_sub_total base_total base_tax \
    base_due_amount currency_id sales_tax_type sales_tax_address_type overdue";

const NOW: i64 = T0;
const DAYS: i64 = 52;
/// Monday 2026-08-10.
const START: i64 = T0 - DAYS * DAY;
/// Invoices of the three companies written before the window.
const ID0: i64 = 41_872;
/// The companies: a hosting firm in Berlin (recurring plans), an appliance repair service in Chicago (its booking
/// system posts through the API), a design studio in Stockholm (by hand, on the phone, clones, estimates).
const HB: usize = 0;
const FX: usize = 1;
const LS: usize = 2;
const COMPANY: [i64; 3] = [1, 2, 3];
/// Europe/Berlin and Europe/Stockholm in summer time, America/Chicago in daylight time.
const OFFSET: [i64; 3] = [2 * HOUR, -5 * HOUR, 2 * HOUR];
/// The largest `sequence_number` of each company before the window.
const SEQ0: [i64; 3] = [8_436, 23_107, 611];
/// `invoice_due_date_days` of each company (`invoice_set_due_date_automatically` YES everywhere).
const DUE_DAYS: [i64; 3] = [14, 14, 30];
/// Crater's seeded currencies.
const USD: i64 = 1;
const EUR: i64 = 3;
const SEK: i64 = 7;
const NOK: i64 = 16;
const CHF: i64 = 19;
/// Users: the Berlin owner and staff, the Chicago API user and office, the Stockholm owner and designer.
const HB_USERS: [i64; 5] = [1, 4, 4, 7, 7];
const HB_OWNER: i64 = 1;
const FX_API: i64 = 9;
const LS_KARIN: i64 = 12;
const LS_ERIK: i64 = 13;
/// Labor Day: the Chicago shop is closed.
const LABOR_DAY: i64 = START + 28 * DAY;
/// Tuesday 1 September: the studio clones its retainer invoices.
const SEP1: i64 = START + 22 * DAY;
/// The first API create after each of these loses its response and is sent again.
const LATE: [i64; 3] = [NOW - 11 * HOUR, NOW - 7 * HOUR, NOW - 3 * HOUR];
/// Hashids' alphabet for `Invoice::class` (config/hashids.php).
const HASH_ALPHABET: &[u8] = b"XKyIAR7mgt8jD2vbqPrOSVenNGpiYLx4M61T";

const HB_NOTE_DEBIT: &str = "Der Rechnungsbetrag wird in den nächsten Tagen per SEPA-Lastschrift von Ihrem Konto \
eingezogen.";
const HB_NOTE_TRANSFER: &str = "Bitte überweisen Sie den Rechnungsbetrag bis zum {INVOICE_DUE_DATE} unter Angabe der \
Rechnungsnummer {INVOICE_NUMBER} auf unser Konto DE12 1001 0010 0123 4567 89.";
const FX_NOTE: &str = "Thank you for choosing FixIt Appliance Repair! All repairs carry a 90-day parts and labor \
warranty. Questions? Call (312) 555-0148.";
const LS_NOTE_SV: &str = "Betalningsvillkor 30 dagar. Bankgiro 5050-1055. Vid försenad betalning debiteras \
dröjsmålsränta enligt räntelagen.";
const LS_NOTE_EN: &str = "Payment terms: 30 days net. IBAN SE45 5000 0000 0583 9825 7466, BIC ESSESESS. Please quote \
{INVOICE_NUMBER} with your payment.";
const LS_CONTACTS: &[&str] =
    &["Anna Berg", "Johan Ek", "Maria Lind", "Sara Holm", "Peter Nyström", "Lena Sjöberg", "Tom Becker"];

/// Monthly plans of the hosting firm, net cents.
const PLANS: &[i64] = &[499, 999, 1_999, 1_490, 2_990, 2_900, 1_250, 590, 3_900];
const QUARTERLY: &[i64] = &[1_500, 2_700, 4_200];
const WEEKLY: &[i64] = &[37_500, 12_000, 24_000];
/// What the hosting staff bill by hand: setup fees, hardware, transfers, certificates; support hours apart.
const HB_ONE_OFF: &[i64] = &[4_900, 12_900, 1_200, 8_900, 2_500, 19_900];
const HB_HOUR: i64 = 9_500;
/// The repair service's jobs: labor (low, high) and parts (low, high), cents.
const FX_JOBS: &[(i64, i64, i64, i64)] = &[
    (8_900, 8_900, 0, 0),
    (12_900, 12_900, 0, 0),
    (14_500, 32_000, 2_500, 21_000),
    (12_500, 26_000, 1_800, 16_000),
    (12_500, 24_000, 1_500, 14_000),
    (14_900, 14_900, 4_600, 4_600),
    (9_500, 9_500, 12_900, 12_900),
    (13_500, 13_500, 11_900, 11_900),
];
/// Flat services property managers order for their units.
const FX_PM_FLAT: &[i64] = &[12_900, 9_900, 8_900];

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Path {
    /// `InvoicesController@store` from the web form.
    #[default]
    Web,
    /// The same from the Crater mobile app.
    Mobile,
    /// The same from the repair service's booking system.
    Api,
    /// `CloneInvoiceController`.
    Clone,
    /// `ConvertEstimateController`.
    Convert,
    /// `RecurringInvoice::generateInvoice` from the scheduler.
    Recurring,
}

#[derive(Clone)]
struct Edit {
    by: i64,
    sub: i64,
    tax: i64,
    total: i64,
    dv: i64,
    cust: Option<usize>,
}

#[derive(Clone)]
enum Act {
    /// `Invoice::send` (the send modal, the API's send, a recurring invoice sent automatically).
    Send,
    /// The customer opens the mailed link (`Customer\InvoicePdfController::getPdf`).
    View,
    /// A payment recorded against it: all that is due, or a part.
    Pay(Option<i64>),
    /// `Invoice::updateInvoice`.
    Edit(Edit),
    /// The same with the amounts unchanged (a typo, the month in an item's text), by this user.
    Retouch(i64),
    /// `Invoice::deleteInvoices` (a hard delete).
    Delete,
}

#[derive(Clone)]
struct Ev {
    t: i64,
    act: Act,
}

/// What a create writes from the request, the profile, the clone's source or the estimate.
#[derive(Clone, Default)]
struct Body {
    cust: usize,
    creator: Option<i64>,
    /// `invoice_date` and `due_date`: the start of a calendar day.
    date: i64,
    due: Option<i64>,
    reference: Option<String>,
    notes: Option<String>,
    template: &'static str,
    discount: f64,
    discount_type: &'static str,
    dv: i64,
    sub: i64,
    tax: i64,
    total: i64,
    rate: f64,
    recurring: Option<i64>,
}

/// The row as the replay leaves it.
#[derive(Clone, Default)]
struct St {
    made: bool,
    alive: bool,
    id: i64,
    seq: i64,
    cseq: i64,
    number: String,
    hash: String,
    cust: usize,
    creator: Option<i64>,
    status: &'static str,
    paid: &'static str,
    sub: i64,
    tax: i64,
    total: i64,
    dv: i64,
    due: i64,
    base_due: Option<i64>,
    sent: bool,
    viewed: bool,
    overdue: bool,
    updated: i64,
}

#[derive(Clone, Default)]
struct Inv {
    uid: usize,
    /// One intent: a create and its client's repeats of it.
    grp: usize,
    /// The INSERT.
    at: i64,
    co: usize,
    path: Path,
    b: Body,
    /// A request raced with the one before it in its group and passed the `unique` rule with the same number.
    partner: Option<usize>,
    /// ... and computed its sequence numbers before that one was written (clone, convert).
    same_seq: bool,
    hidden: bool,
    evs: Vec<Ev>,
    st: St,
}

struct Cust {
    id: i64,
    cur: i64,
    /// The customer's largest `customer_sequence_number` before the window.
    prior: i64,
}

struct World {
    custs: Vec<Cust>,
    hb: Vec<usize>,
    fx_pm: Vec<usize>,
    fx_old: Vec<usize>,
    ls: Vec<usize>,
    ls_retainer: Vec<usize>,
    next_cust: i64,
    grp: usize,
}

impl World {
    fn grp(&mut self) -> usize {
        self.grp += 1;
        self.grp
    }
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

fn ms(r: &mut Rng, lo: i64, hi: i64) -> i64 {
    r.range(lo, hi) * 1_000 + r.below(1_000) as i64
}

/// (year, month, day) of a time.
fn civil(us: i64) -> (i64, i64, i64) {
    let z = us.div_euclid(DAY) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn date(d: i64) -> V {
    let (y, m, dd) = civil(d);
    V::t(format!("{y:04}-{m:02}-{dd:02}"))
}

/// The calendar day a company's people live in at `t`.
fn local_day(t: i64, co: usize) -> i64 {
    day(t + OFFSET[co])
}

/// A time of a local day: `d` its start, `s` seconds after local midnight.
fn at_local(d: i64, co: usize, s: i64) -> i64 {
    d - OFFSET[co] + s * SECOND
}

/// An amount in the company's currency, as `amount * exchange_rate` lands in a bigint column.
fn base(x: i64, rate: f64) -> i64 {
    (x as f64 * rate).round() as i64
}

/// The day's rate (units of the home currency per unit of `cur`) that the studio's provider returns.
fn rate_of(cur: i64, d: i64) -> f64 {
    let mid = match cur {
        EUR => 11.183,
        USD => 9.614,
        NOK => 0.9982,
        _ => 1.0,
    };
    let k = d.div_euclid(DAY);
    let wiggle = ((k * 37).rem_euclid(101) as f64 / 101.0 - 0.5) * 0.02 + (k - 20_700) as f64 * 0.0004;
    ((mid * (1.0 + wiggle)) * 10_000.0).round() / 10_000.0
}

/// A time within office hours (local `from`..`to`) on the first weekday at or after `t` that has one left.
fn office(r: &mut Rng, t: i64, co: usize, from: i64, to: i64) -> i64 {
    let mut d = local_day(t, co);
    loop {
        if weekday(d) < 5 {
            let lo = at_local(d, co, from * 3_600).max(t + MINUTE);
            let hi = at_local(d, co, to * 3_600);
            if lo < hi {
                return lo + r.range(0, (hi - lo) / SECOND - 1) * SECOND + micros(r);
            }
        }
        d += DAY;
    }
}

/// The first Friday session after `t` (the studio records payments on Fridays).
fn friday(r: &mut Rng, t: i64) -> i64 {
    let mut d = local_day(t, LS) + DAY;
    while weekday(d) != 4 {
        d += DAY;
    }
    at_local(d, LS, r.range(9 * 3_600, 15 * 3_600)) + micros(r)
}

/// `t`, or the next morning if people are asleep then.
fn awake(r: &mut Rng, t: i64, co: usize) -> i64 {
    let h = (t + OFFSET[co]).rem_euclid(DAY) / HOUR;
    if h < 7 { t + (7 - h) * HOUR + r.range(0, 3 * 3_600) * SECOND } else { t }
}

/// Office hours a company's people create invoices in, local.
fn work_time(r: &mut Rng, from: i64, to: i64) -> i64 {
    let (a, b) = (r.range(from, to), r.range(from, to));
    (a + b) / 2
}

fn push(v: &mut Vec<Inv>, grp: usize, at: i64, co: usize, path: Path, b: Body) -> usize {
    let uid = v.len();
    v.push(Inv { uid, grp, at, co, path, b, ..Inv::default() });
    uid
}

fn ev(x: &mut Inv, t: i64, act: Act) {
    x.evs.push(Ev { t, act });
}

fn world(r: &mut Rng) -> World {
    let mut custs = Vec::new();
    let (mut hb, mut fx_pm, mut fx_old, mut ls) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut id = 0;
    // Customers of the three companies, made over the years, ids interleaved.
    while hb.len() < 560 || fx_old.len() < 400 || ls.len() < 70 {
        id += 1 + r.below(3) as i64;
        let which = r.weighted(&[560, 412, 70]);
        let k = custs.len();
        match which {
            0 if hb.len() < 560 => {
                let cur = if r.chance(0.06) { CHF } else { EUR };
                custs.push(Cust { id, cur, prior: r.range(1, 60) });
                hb.push(k);
            }
            1 if fx_pm.len() < 12 && r.chance(0.1) => {
                custs.push(Cust { id, cur: USD, prior: r.range(40, 220) });
                fx_pm.push(k);
            }
            1 if fx_old.len() < 400 => {
                custs.push(Cust { id, cur: USD, prior: r.range(1, 5) });
                fx_old.push(k);
            }
            2 if ls.len() < 70 => {
                let cur = match r.below(70) {
                    0..50 => SEK,
                    50..62 => EUR,
                    62..67 => USD,
                    _ => NOK,
                };
                custs.push(Cust { id, cur, prior: r.range(1, 35) });
                ls.push(k);
            }
            _ => {}
        }
    }
    while fx_pm.len() < 12 {
        id += 1;
        fx_pm.push(custs.len());
        custs.push(Cust { id, cur: USD, prior: r.range(40, 220) });
    }
    let mut ls_retainer: Vec<usize> = ls.iter().copied().filter(|&k| custs[k].cur == SEK).take(9).collect();
    ls_retainer.extend(ls.iter().copied().filter(|&k| custs[k].cur == EUR).take(2));
    World { custs, hb, fx_pm, fx_old, ls, ls_retainer, next_cust: id + 40, grp: 0 }
}

// ---------------------------------------------------------------------------------------------------------------
// Berlin: recurring plans from the scheduler, and invoices the staff write by hand.

struct Profile {
    /// 0 monthly (`0 0 1 * *`), 1 quarterly (`0 0 1 */3 *`), 2 weekly (`0 6 * * 1`), in Europe/Berlin.
    freq: u8,
    creator: i64,
    auto: bool,
    debit: bool,
    b: Body,
}

fn profiles(r: &mut Rng, w: &World) -> Vec<Profile> {
    let mut out = Vec::new();
    let mut id = 0;
    let n = 380 + 45 + 18;
    for _ in 0..n {
        id += 1 + r.below(3) as i64;
        let freq = match r.below(n as u64) {
            0..380 => 0,
            380..425 => 1,
            _ => 2,
        };
        let cust = w.hb[r.below(w.hb.len() as u64) as usize];
        let cur = w.custs[cust].cur;
        let sub: i64 = match freq {
            0 => (0..1 + r.skewed(3)).map(|_| *r.pick(PLANS)).sum(),
            1 => *r.pick(QUARTERLY),
            _ => *r.pick(WEEKLY),
        };
        let (discount, dtype, dv) =
            if r.chance(0.06) { (10.0, "percentage", (sub as f64 * 0.1).round() as i64) } else { (0.0, "fixed", 0) };
        let reverse = cur == CHF || r.chance(0.05);
        let tax = if reverse { 0 } else { ((sub - dv) as f64 * 0.19).round() as i64 };
        let rate = if cur == CHF { *r.pick(&[1.0387, 1.0452, 1.0519, 1.0634]) } else { 1.0 };
        let debit = cur == EUR && r.chance(0.45);
        let b = Body {
            cust,
            notes: Some(if debit { HB_NOTE_DEBIT } else { HB_NOTE_TRANSFER }.to_string()),
            template: "invoice3",
            discount,
            discount_type: dtype,
            dv,
            sub,
            tax,
            total: sub - dv + tax,
            rate,
            recurring: Some(id),
            ..Body::default()
        };
        let creator = if r.chance(0.7) { HB_OWNER } else { 4 };
        out.push(Profile { freq, creator, auto: r.chance(0.75), debit, b });
    }
    out
}

/// One scheduler run: the due profiles one after another, in id order, each sent at once if it says so.
fn batch(r: &mut Rng, w: &mut World, v: &mut Vec<Inv>, ps: &[Profile], due: &[usize], at: i64) {
    let mut t = at + ms(r, 300, 900);
    for &i in due {
        let p = &ps[i];
        let d = day(t);
        let b = Body { creator: Some(p.creator), date: d, due: Some(d + DUE_DAYS[HB] * DAY), ..p.b.clone() };
        let k = push(v, w.grp(), t, HB, Path::Recurring, b);
        let mut done = t + ms(r, 90, 260);
        let sent = if p.auto {
            done += ms(r, 600, 2_300);
            ev(&mut v[k], done, Act::Send);
            done
        } else {
            let s = office(r, t, HB, 8, 11);
            ev(&mut v[k], s, Act::Send);
            s
        };
        hb_paid(r, &mut v[k], sent, p.debit);
        if r.chance(0.004) {
            // The contract was cancelled: the staff delete the month's invoice.
            let at0 = sent + r.range(1, 9) * DAY;
            ev(&mut v[k], office(r, at0, HB, 8, 17), Act::Delete);
        }
        t = done + ms(r, 2, 15);
    }
}

fn hb_paid(r: &mut Rng, x: &mut Inv, sent: i64, debit: bool) {
    if r.chance(0.5) {
        let at0 = sent + r.range(600, 5 * 86_400) * SECOND;
        let t = awake(r, at0, HB);
        ev(x, t, Act::View);
    }
    if debit {
        if r.chance(0.97) {
            let at0 = sent + r.range(4, 7) * DAY;
            let t = office(r, at0, HB, 8, 12);
            ev(x, t, Act::Pay(None));
        }
    } else if r.chance(0.85) {
        let at0 = sent + r.range(2 * 86_400, 25 * 86_400) * SECOND;
        let t = office(r, at0, HB, 8, 17);
        ev(x, t, Act::Pay(None));
    }
}

fn hb_body(r: &mut Rng, w: &World, by: i64, t: i64) -> Body {
    let cust = loop {
        let c = w.hb[r.skewed(w.hb.len() as u64) as usize];
        if w.custs[c].cur == EUR {
            break c;
        }
    };
    let sub = if r.chance(0.45) {
        HB_HOUR * r.range(1, 6)
    } else {
        (0..1 + r.below(2)).map(|_| *r.pick(HB_ONE_OFF)).sum::<i64>()
    };
    let tax = (sub as f64 * 0.19).round() as i64;
    let d = local_day(t, HB);
    Body {
        cust,
        creator: Some(by),
        date: d,
        due: Some(d + DUE_DAYS[HB] * DAY),
        reference: r.chance(0.2).then(|| format!("Ticket #{}", r.range(20_400, 21_900))),
        notes: r.chance(0.7).then(|| HB_NOTE_TRANSFER.to_string()),
        template: "invoice3",
        discount: 0.0,
        discount_type: "fixed",
        dv: 0,
        sub,
        tax,
        total: sub + tax,
        rate: 1.0,
        recurring: None,
    }
}

/// Sent from the invoice page a little later, then viewed and paid (or not yet).
fn hb_fate(r: &mut Rng, x: &mut Inv, from: i64) {
    if r.chance(0.85) {
        let s = from + r.range(60, 1_800) * SECOND + micros(r);
        ev(x, s, Act::Send);
        hb_paid(r, x, s, false);
    }
}

fn hostwerk(r: &mut Rng, w: &mut World, v: &mut Vec<Inv>) {
    let ps = profiles(r, w);
    let ids: Vec<usize> = (0..ps.len()).collect();
    // Midnight in Berlin is 22:00 UTC: the scheduler's `Carbon::today()` is still the last day of the month.
    let month_ends = [START + 21 * DAY + 22 * HOUR, NOW - 2 * HOUR];
    let mut runs: Vec<(i64, Vec<usize>)> = Vec::new();
    for (j, &t) in month_ends.iter().enumerate() {
        let due: Vec<usize> = ids.iter().copied().filter(|&i| ps[i].freq == 0 || (j == 1 && ps[i].freq == 1)).collect();
        runs.push((t, due));
    }
    let mut d = START;
    while d < NOW {
        if weekday(d) == 0 {
            // Monday 06:00 in Berlin.
            runs.push((d + 4 * HOUR, ids.iter().copied().filter(|&i| ps[i].freq == 2).collect()));
        }
        d += DAY;
    }
    runs.sort_by_key(|x| x.0);
    for (t, due) in &runs {
        batch(r, w, v, &ps, due, *t);
    }

    // By hand: one-off work, support hours, and now and then last month's invoice cloned and edited.
    let mut reentry_days = vec![17, 38];
    for di in 0..DAYS {
        let d = START + di * DAY;
        if weekday(d) >= 5 {
            continue;
        }
        let mut times: Vec<i64> =
            (0..r.poisson(2.6)).map(|_| at_local(d, HB, work_time(r, 9 * 3_600, 17 * 3_600)) + micros(r)).collect();
        times.sort();
        for t in times {
            if t >= NOW - MINUTE {
                continue;
            }
            let by = r.one(&HB_USERS);
            if r.chance(0.12) {
                let at0 = t - r.range(25, 40) * DAY;
                let src = hb_body(r, w, by, at0);
                let double = r.chance(0.09);
                clone_invoice(r, w, v, HB, src, by, t, double, false);
                continue;
            }
            let b = hb_body(r, w, by, t);
            let g = w.grp();
            let k = push(v, g, t, HB, Path::Web, b.clone());
            if reentry_days.first() == Some(&di) {
                // The request outlived the proxy's 60 s (the PDF is made in the request, the queue being sync); the
                // form, reloaded, gets the next number and is filled in again.
                reentry_days.remove(0);
                let again = t + 60 * SECOND + r.range(45, 200) * SECOND + micros(r);
                let k2 = push(v, g, again, HB, Path::Web, b);
                reentered(r, v, k, k2, again, HB);
                continue;
            }
            hb_fate(r, &mut v[k], t);
        }
    }
}

/// The first of two re-entered invoices: noticed and deleted, left as a draft, or sent too; the second goes on.
fn reentered(r: &mut Rng, v: &mut [Inv], k: usize, k2: usize, again: i64, co: usize) {
    // Re-entered half an hour later, the two pass for two invoices: none is deleted.
    let x = if v[k2].hidden { r.range(5, 9) } else { r.range(0, 9) };
    if x < 5 {
        let at0 = again + r.range(1_800, 4 * 86_400) * SECOND;
        let t = office(r, at0, co, 8, 17);
        ev(&mut v[k], t, Act::Delete);
    } else if x < 7 {
        ev(&mut v[k], again + r.range(300, 3_600) * SECOND, Act::Send);
    }
    match co {
        HB => hb_fate(r, &mut v[k2], again),
        _ => {
            let may_delete = !v[k2].hidden;
            ls_fate(r, &mut v[k2], again, may_delete);
        }
    }
}

/// `CloneInvoiceController`: the source's amounts, notes, reference and rate, today's date (UTC), no creator; then
/// edited on the page it opens (new hours, now and then another customer) and sent. A double click on the dialog's OK
/// clones twice: the first clone stays as it came, or is deleted.
#[allow(clippy::too_many_arguments)]
fn clone_invoice(
    r: &mut Rng,
    w: &mut World,
    v: &mut Vec<Inv>,
    co: usize,
    src: Body,
    by: i64,
    t: i64,
    double: bool,
    pair: bool,
) {
    let d = day(t);
    let b = Body { creator: None, date: d, due: Some(d + DUE_DAYS[co] * DAY), ..src.clone() };
    let g = w.grp();
    let k = push(v, g, t, co, Path::Clone, b.clone());
    let mut last = k;
    let mut edit_from = t;
    if double {
        let delay = r.range(20_000, 100_000);
        let k2 = push(v, g, t + delay, co, Path::Clone, b.clone());
        // Both computed their numbers before either was written.
        v[k2].partner = (delay < 45_000).then_some(k);
        v[k2].same_seq = delay < 45_000;
        if r.chance(0.5) {
            let at0 = t + r.range(1_800, 5 * 86_400) * SECOND;
            let gone = office(r, at0, co, 8, 17);
            ev(&mut v[k], gone, Act::Delete);
        }
        last = k2;
        edit_from = t + delay;
    }
    let mut targets = vec![last];
    if pair {
        // Cloned again for a second project before either is edited.
        let t2 = t + r.range(15, 120) * SECOND + micros(r);
        targets.push(push(v, w.grp(), t2, co, Path::Clone, b.clone()));
        edit_from = t2;
    }
    for k in targets {
        let at = edit_from + r.range(60, 720) * SECOND + micros(r);
        edit_from = at;
        let factor = r.range(6, 14) as f64 / 10.0;
        let sub = (src.sub as f64 * factor / 100.0).round() as i64 * 100;
        let vat = src.tax > 0;
        let tax = if vat { ((sub - src.dv) as f64 * if co == HB { 0.19 } else { 0.25 }).round() as i64 } else { 0 };
        let cust = if r.chance(0.2) { Some(same_currency(r, w, co, src.cust)) } else { None };
        let e = Edit { by, sub, tax, total: sub - src.dv + tax, dv: src.dv, cust };
        ev(&mut v[k], at, Act::Edit(e));
        match co {
            HB => hb_fate(r, &mut v[k], at),
            _ => ls_fate(r, &mut v[k], at, false),
        }
    }
}

fn same_currency(r: &mut Rng, w: &World, co: usize, cust: usize) -> usize {
    let pool = if co == HB { &w.hb } else { &w.ls };
    loop {
        let c = pool[r.below(pool.len() as u64) as usize];
        if c != cust && w.custs[c].cur == w.custs[cust].cur {
            return c;
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Chicago: the booking system posts an invoice when a job is closed (GET next-number, POST invoices), then a
// payment (card on site) or a send.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Onsite,
    Email,
    Pm,
}

enum Plan {
    One,
    /// The job-closed webhook delivered twice at once: both flows fetch the same next number and both pass.
    Double(i64),
    /// The response lost (the client's 10 s timeout): the whole flow again, a new number each time.
    Timeout(Vec<i64>),
    /// Failed with a 504 and retried by the system's job queue half an hour later.
    Queue(i64),
}

fn fx_body(r: &mut Rng, w: &mut World, pm: Option<usize>, flat: Option<i64>, po: Option<String>) -> Body {
    let cust = match pm {
        Some(c) => c,
        None if r.chance(0.12) => w.fx_old[r.below(w.fx_old.len() as u64) as usize],
        None => {
            w.next_cust += 1 + r.below(2) as i64;
            w.custs.push(Cust { id: w.next_cust, cur: USD, prior: 0 });
            w.custs.len() - 1
        }
    };
    let (labor, parts) = match flat {
        Some(x) => (x, 0),
        None => {
            let &(llo, lhi, plo, phi) = r.pick(FX_JOBS);
            let labor = llo + 500 * r.range(0, (lhi - llo) / 500);
            let parts = if phi == plo { plo } else { plo + r.range(0, phi - plo) };
            (labor, parts)
        }
    };
    let sub = labor + parts;
    let tax = (parts as f64 * 0.1025).round() as i64;
    let (discount, dv) = if pm.is_none() && r.chance(0.07) { (20.0, 2_000) } else { (0.0, 0) };
    Body {
        cust,
        creator: Some(FX_API),
        reference: po,
        notes: Some(FX_NOTE.to_string()),
        template: "invoice2",
        discount,
        discount_type: "fixed",
        dv,
        sub,
        tax,
        total: sub - dv + tax,
        rate: 1.0,
        ..Body::default()
    }
}

fn fx_fate(r: &mut Rng, x: &mut Inv, kind: Kind) {
    let done = x.at + ms(r, 1_500, 4_000);
    match kind {
        Kind::Onsite => ev(x, done + ms(r, 500, 2_000), Act::Pay(None)),
        Kind::Email | Kind::Pm => {
            let s = done + ms(r, 300, 1_000);
            ev(x, s, Act::Send);
            let pm = kind == Kind::Pm;
            if r.chance(if pm { 0.8 } else { 0.7 }) {
                let t = if pm {
                    let at0 = s + r.range(43_200, 4 * 86_400) * SECOND;
                    office(r, at0, FX, 8, 17)
                } else {
                    let at0 = s + r.range(300, 3 * 86_400) * SECOND;
                    awake(r, at0, FX)
                };
                ev(x, t, Act::View);
            }
            if pm {
                if r.chance(0.88) {
                    let at0 = s + r.range(20, 45) * DAY;
                    let t = office(r, at0, FX, 9, 17);
                    ev(x, t, Act::Pay(None));
                }
            } else if r.chance(0.85) {
                let at0 = s + r.range(86_400, 20 * 86_400) * SECOND;
                let t = office(r, at0, FX, 9, 17);
                if r.chance(0.05) {
                    ev(x, t, Act::Pay(Some(x.b.total / 2)));
                    let at0 = t + r.range(7, 20) * DAY;
                    ev(x, office(r, at0, FX, 9, 17), Act::Pay(None));
                } else {
                    ev(x, t, Act::Pay(None));
                }
            }
        }
    }
}

fn flow(r: &mut Rng, w: &mut World, v: &mut Vec<Inv>, close: i64, b: Body, kind: Kind, plan: Plan) {
    let g = w.grp();
    let a1 = close + ms(r, 400, 1_500);
    let mut ats = vec![a1];
    match &plan {
        Plan::One => {}
        Plan::Double(dl) | Plan::Queue(dl) => ats.push(a1 + dl),
        Plan::Timeout(ds) => {
            let mut t = a1;
            for d in ds {
                t += d;
                ats.push(t);
            }
        }
    }
    let due_days = match kind {
        Kind::Onsite => 0,
        Kind::Email => DUE_DAYS[FX],
        Kind::Pm => 30,
    };
    let mut ks = Vec::new();
    for (i, &at) in ats.iter().enumerate() {
        let d = local_day(at, FX);
        let k = push(v, g, at, FX, Path::Api, Body { date: d, due: Some(d + due_days * DAY), ..b.clone() });
        if i > 0 && matches!(plan, Plan::Double(_)) {
            v[k].partner = Some(ks[0]);
        }
        v[k].hidden = matches!(plan, Plan::Queue(_));
        ks.push(k);
    }
    let last = ks.len() - 1;
    for (i, &k) in ks.iter().enumerate() {
        if i == last || matches!(plan, Plan::Double(_)) {
            fx_fate(r, &mut v[k], kind);
        } else if !matches!(plan, Plan::Queue(_)) && r.chance(0.45) {
            // An orphan draft the office finds and deletes (a queued retry's first looks like a job of its own).
            let at0 = v[k].at + r.range(1, 8) * DAY;
            let t = office(r, at0, FX, 9, 17);
            ev(&mut v[k], t, Act::Delete);
        }
    }
    if matches!(plan, Plan::Double(_)) && r.chance(0.5) {
        // The office deletes the second payment and one of the twins.
        let k = ks[usize::from(r.chance(0.6))];
        let at0 = v[k].at + r.range(1, 6) * DAY;
        let t = office(r, at0, FX, 9, 17);
        ev(&mut v[k], t, Act::Delete);
    }
}

fn plan(r: &mut Rng, forced: bool, queue: bool) -> Plan {
    if queue {
        return Plan::Queue(r.range(15 * 60, 40 * 60) * SECOND + micros(r));
    }
    if !forced && r.below(1_000) >= 30 {
        return Plan::One;
    }
    let d = client_retry_delay(r);
    if d < SECOND && !forced {
        return Plan::Double(d);
    }
    let d = d.max(10 * SECOND);
    let mut ds = vec![d];
    if r.chance(0.3) {
        ds.push(2 * client_retry_delay(r).max(10 * SECOND));
    }
    Plan::Timeout(ds)
}

fn fixit(r: &mut Rng, w: &mut World, v: &mut Vec<Inv>) {
    let mut late = 0;
    // Two days on which a property manager's job is retried by the queue half an hour later.
    let mut queue_days = vec![19, 41];
    for di in 0..DAYS {
        let d = START + di * DAY;
        let wd = weekday(d);
        if wd == 6 || d == LABOR_DAY {
            continue;
        }
        let n = r.poisson(if wd == 5 { 9.0 } else { 26.0 });
        let mut closes: Vec<i64> =
            (0..n).map(|_| at_local(d, FX, work_time(r, 8 * 3_600 + 900, 19 * 3_600 + 1_800)) + micros(r)).collect();
        closes.sort();
        for close in closes {
            if close >= NOW - 2 * MINUTE {
                continue;
            }
            let forced = late < LATE.len() && close > LATE[late];
            late += usize::from(forced);
            if r.chance(0.14) && !forced {
                let n = w.fx_pm.len() as u64;
                let i = if r.chance(0.5) { r.skewed(n) } else { r.below(n) } as usize;
                let pm = w.fx_pm[i];
                // A blanket purchase order for the month, a work order per visit, or no reference at all.
                let (_, m, _) = civil(d);
                let po = match i % 3 {
                    0 => Some(format!("PO-{}", 4_500_000 + w.custs[pm].id * 37 + m * 7)),
                    1 => Some(format!("WO-{}", r.range(31_000, 99_999))),
                    _ => None,
                };
                let queue = queue_days.first().is_some_and(|&q| di >= q);
                if queue {
                    queue_days.remove(0);
                }
                let units = if r.chance(0.25) && !queue { r.range(2, 4) } else { 1 };
                let flat = (units > 1 || r.chance(0.6)).then(|| r.one(FX_PM_FLAT));
                let together = r.chance(0.45);
                let mut t = close;
                for _ in 0..units {
                    let b = fx_body(r, w, Some(pm), flat, po.clone());
                    let p = plan(r, false, queue);
                    flow(r, w, v, t, b, Kind::Pm, p);
                    // Units done one after another, or closed together on the tablet at the end.
                    t += if together { ms(r, 400, 90_000) } else { r.range(25 * 60, 55 * 60) * SECOND + micros(r) };
                }
            } else {
                let b = fx_body(r, w, None, None, None);
                let kind = if r.chance(0.78) { Kind::Onsite } else { Kind::Email };
                let p = plan(r, forced, false);
                flow(r, w, v, close, b, kind, p);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Stockholm: invoices by hand on the web and the phone, estimates converted, clones (the retainers on the 1st).

fn ls_body(r: &mut Rng, w: &World, cust: usize, t: i64, by: Option<i64>) -> Body {
    let cur = w.custs[cust].cur;
    let hour = match cur {
        SEK => *r.pick(&[95_000, 110_000]),
        EUR => 9_500,
        USD => 11_000,
        _ => 105_000,
    };
    let mut sub = hour * r.range(2, 40);
    if cur == SEK && r.chance(0.2) {
        sub += *r.pick(&[450_000, 280_000, 120_000]);
    }
    let (discount, dv) =
        if r.chance(0.08) { if cur == SEK { (500.0, 50_000) } else { (50.0, 5_000) } } else { (0.0, 0) };
    let tax = if cur == SEK { ((sub - dv) as f64 * 0.25).round() as i64 } else { 0 };
    let d = local_day(t, LS);
    let notes = r.chance(0.8).then(|| if cur == SEK { LS_NOTE_SV } else { LS_NOTE_EN }.to_string());
    Body {
        cust,
        creator: by,
        date: d,
        due: Some(d + DUE_DAYS[LS] * DAY),
        reference: r.chance(0.3).then(|| format!("Ert ref: {}", r.pick(LS_CONTACTS))),
        notes,
        template: "invoice1",
        discount,
        discount_type: "fixed",
        dv,
        sub,
        tax,
        total: sub - dv + tax,
        rate: if cur == SEK { 1.0 } else { rate_of(cur, d) },
        recurring: None,
    }
}

/// Sent from the send modal, viewed, paid on a Friday; a few deleted at once as mistakes; a few edited after sending
/// (`updateInvoice` writes the payload's DRAFT and UNPAID back) and sent again.
fn ls_fate(r: &mut Rng, x: &mut Inv, from: i64, may_delete: bool) {
    if may_delete && r.chance(0.03) {
        ev(x, from + r.range(60, 600) * SECOND, Act::Delete);
        return;
    }
    if !r.chance(0.86) {
        return;
    }
    let at0 = from + r.range(300, 5_400) * SECOND;
    let mut s = office(r, at0, LS, 8, 18);
    ev(x, s, Act::Send);
    if r.chance(0.03) {
        let e = s + r.range(3_600, 2 * 86_400) * SECOND;
        ev(x, e, Act::Retouch(x.b.creator.unwrap_or(LS_KARIN)));
        if r.chance(0.6) {
            s = e + r.range(60, 600) * SECOND;
            ev(x, s, Act::Send);
        }
    }
    if r.chance(0.75) {
        let at0 = s + r.range(1_800, 3 * 86_400) * SECOND;
        let t = awake(r, at0, LS);
        ev(x, t, Act::View);
    }
    if r.chance(0.75) {
        let at0 = s + r.range(8, 35) * DAY;
        let p = friday(r, at0);
        if r.chance(0.06) {
            ev(x, p, Act::Pay(Some(x.b.total / 2)));
            let at0 = p + r.range(7, 21) * DAY;
            ev(x, friday(r, at0), Act::Pay(None));
        } else {
            ev(x, p, Act::Pay(None));
        }
    }
}

fn studio(r: &mut Rng, w: &mut World, v: &mut Vec<Inv>) {
    let mut hidden_left = 1;
    for di in 0..DAYS {
        let d = START + di * DAY;
        if weekday(d) >= 5 {
            continue;
        }
        if d == SEP1 {
            retainers(r, w, v, d);
        }
        let mut times: Vec<i64> = (0..r.poisson(3.8))
            .map(|_| at_local(d, LS, work_time(r, 8 * 3_600 + 1_800, 17 * 3_600)) + micros(r))
            .collect();
        times.sort();
        for t in times {
            if t >= NOW - MINUTE {
                continue;
            }
            let by = if r.chance(0.4) { LS_KARIN } else { LS_ERIK };
            let cust = w.ls[r.skewed(w.ls.len() as u64) as usize];
            match r.weighted(&[62, 12, 12, 14]) {
                0 => {
                    let mut b = ls_body(r, w, cust, t, Some(by));
                    let g = w.grp();
                    if r.chance(0.03) && w.custs[cust].cur == SEK {
                        // Two workshop days billed separately, one after the other.
                        (b.sub, b.dv, b.discount) = (1_200_000, 0, 0.0);
                        (b.tax, b.total) = (300_000, 1_500_000);
                        let k = push(v, g, t, LS, Path::Web, b.clone());
                        ls_fate(r, &mut v[k], t, false);
                        let t2 = t + r.range(30, 150) * SECOND + micros(r);
                        let k2 = push(v, w.grp(), t2, LS, Path::Web, b);
                        ls_fate(r, &mut v[k2], t2, false);
                        continue;
                    }
                    let k = push(v, g, t, LS, Path::Web, b.clone());
                    let hide = hidden_left > 0 && di >= 33;
                    if hide || r.chance(0.04) {
                        let again = if hide {
                            hidden_left -= 1;
                            // Back from lunch, not sure the first save went through.
                            t + r.range(20 * 60, 35 * 60) * SECOND + micros(r)
                        } else {
                            t + 60 * SECOND + r.range(45, 200) * SECOND + micros(r)
                        };
                        let k2 = push(v, g, again, LS, Path::Web, b);
                        v[k2].hidden = hide;
                        reentered(r, v, k, k2, again, LS);
                    } else {
                        ls_fate(r, &mut v[k], t, true);
                    }
                }
                1 => {
                    let mut b = ls_body(r, w, cust, t, Some(LS_KARIN));
                    (b.notes, b.reference) = (None, None);
                    let g = w.grp();
                    let k = push(v, g, t, LS, Path::Mobile, b.clone());
                    if r.chance(0.15) {
                        // A double tap: the saga takes every action, both requests pass the `unique` rule.
                        let t2 = t + r.range(20_000, 100_000);
                        let k2 = push(v, g, t2, LS, Path::Mobile, b);
                        v[k2].partner = Some(k);
                        if r.chance(0.55) {
                            let gone = t2 + r.range(120, 2 * 86_400) * SECOND;
                            let (dead, live) = if r.chance(0.5) { (k, k2) } else { (k2, k) };
                            ev(&mut v[dead], gone, Act::Delete);
                            ls_fate(r, &mut v[live], t2, false);
                        } else {
                            ls_fate(r, &mut v[k], t2, false);
                            if r.chance(0.3) {
                                ls_fate(r, &mut v[k2], t2, false);
                            }
                        }
                    } else if r.chance(0.1) && w.custs[cust].cur == SEK {
                        // Advice billed by the hour, a second session the same afternoon.
                        (b.sub, b.dv, b.discount, b.tax, b.total) = (125_000, 0, 0.0, 31_250, 156_250);
                        v[k].b = b.clone();
                        ls_fate(r, &mut v[k], t, false);
                        let t2 = t + r.range(2 * 3_600, 5 * 3_600) * SECOND + micros(r);
                        let k2 = push(v, w.grp(), t2, LS, Path::Mobile, b);
                        ls_fate(r, &mut v[k2], t2, false);
                    } else {
                        ls_fate(r, &mut v[k], t, true);
                    }
                }
                2 => {
                    // An accepted estimate converted: the invoice's own number as reference, today (UTC) as date.
                    let at0 = t - r.range(3, 20) * DAY;
                    let src = ls_body(r, w, cust, at0, Some(by));
                    let dd = day(t);
                    let b = Body { date: dd, due: Some(dd + DUE_DAYS[LS] * DAY), ..src };
                    let g = w.grp();
                    let k = push(v, g, t, LS, Path::Convert, b.clone());
                    let mut last = (k, t);
                    if r.chance(0.08) {
                        let delay = r.range(20_000, 100_000);
                        let k2 = push(v, g, t + delay, LS, Path::Convert, b);
                        v[k2].partner = (delay < 45_000).then_some(k);
                        v[k2].same_seq = delay < 45_000;
                        if r.chance(0.6) {
                            ev(&mut v[k], t + r.range(600, 3 * 86_400) * SECOND, Act::Delete);
                        }
                        last = (k2, t + delay);
                    }
                    ls_fate(r, &mut v[last.0], last.1, false);
                }
                _ => {
                    let at0 = t - r.range(20, 60) * DAY;
                    let src = ls_body(r, w, cust, at0, Some(by));
                    let double = r.chance(0.08);
                    let pair = !double && r.chance(0.1);
                    clone_invoice(r, w, v, LS, src, by, t, double, pair);
                }
            }
        }
    }
}

/// Karin clones each retainer client's August invoice (the month's text edited, the fee the same), then sends them.
fn retainers(r: &mut Rng, w: &mut World, v: &mut Vec<Inv>, d: i64) {
    let mut t = at_local(d, LS, 8 * 3_600 + r.range(300, 1_500)) + micros(r);
    let mut made = Vec::new();
    for i in 0..w.ls_retainer.len() {
        let cust = w.ls_retainer[i];
        let aug = START - 9 * DAY;
        let mut src = ls_body(r, w, cust, aug, Some(LS_KARIN));
        let fee = if w.custs[cust].cur == SEK { r.range(25, 60) * 100_000 } else { r.range(25, 50) * 10_000 };
        let tax = if w.custs[cust].cur == SEK { fee / 4 } else { 0 };
        (src.sub, src.dv, src.discount, src.tax, src.total) = (fee, 0, 0.0, tax, fee + tax);
        src.reference = Some(format!("Avtal {}", 2_300 + cust));
        let dd = day(t);
        let b = Body { creator: None, date: dd, due: Some(dd + DUE_DAYS[LS] * DAY), ..src.clone() };
        let k = push(v, w.grp(), t, LS, Path::Clone, b);
        let e = t + r.range(40, 100) * SECOND + micros(r);
        ev(&mut v[k], e, Act::Retouch(LS_KARIN));
        made.push(k);
        t = e + r.range(30, 90) * SECOND + micros(r);
    }
    let mut s = at_local(d, LS, 10 * 3_600 + r.range(0, 1_200)) + micros(r);
    for k in made {
        ev(&mut v[k], s, Act::Send);
        if r.chance(0.8) {
            let at0 = s + r.range(1_800, 3 * 86_400) * SECOND;
            let t = awake(r, at0, LS);
            ev(&mut v[k], t, Act::View);
        }
        if r.chance(0.9) {
            let at0 = s + r.range(8, 28) * DAY;
            let p = friday(r, at0);
            ev(&mut v[k], p, Act::Pay(None));
        }
        s += r.range(20, 70) * SECOND + micros(r);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The replay: numbers as `SerialNumberFormatter` hands them out, and every later save.

fn number(co: usize, seq: i64, at: i64) -> String {
    match co {
        HB => format!("INV-{seq:06}"),
        FX => format!("FX-{}-{seq:05}", civil(at).0),
        _ => format!("LS-{seq:04}"),
    }
}

struct Seqs {
    /// (sequence_number, id) of the company's live invoices of the window.
    co: Vec<BTreeSet<(i64, i64)>>,
    /// (customer_sequence_number, id) per customer.
    cust: HashMap<usize, BTreeSet<(i64, i64)>>,
}

impl Seqs {
    fn next(&self, co: usize) -> i64 {
        self.co[co].last().map_or(SEQ0[co], |x| x.0.max(SEQ0[co])) + 1
    }

    fn next_cust(&self, w: &World, cust: usize) -> i64 {
        let top = self.cust.get(&cust).and_then(|s| s.last()).map_or(0, |x| x.0);
        top.max(w.custs[cust].prior) + 1
    }
}

#[derive(Clone, Copy)]
enum Op {
    Make(usize),
    Act(usize, usize),
    Overdue,
}

fn hash(r: &mut Rng) -> String {
    (0..20).map(|_| HASH_ALPHABET[r.below(HASH_ALPHABET.len() as u64) as usize] as char).collect()
}

fn make(r: &mut Rng, w: &World, v: &mut [Inv], k: usize, pos: &[usize], seqs: &mut Seqs, id: &mut i64) {
    let (co, at, cust) = (v[k].co, v[k].at, v[k].b.cust);
    let partner = v[k].partner.map(|u| pos[u]).filter(|&p| p != usize::MAX && v[p].st.made);
    let (seq, cseq, num) = match partner {
        Some(p) if v[k].same_seq => (v[p].st.seq, v[p].st.cseq, v[p].st.number.clone()),
        Some(p) => (seqs.next(co), seqs.next_cust(w, cust), v[p].st.number.clone()),
        None => {
            let s = seqs.next(co);
            (s, seqs.next_cust(w, cust), number(co, s, at))
        }
    };
    *id += 1;
    seqs.co[co].insert((seq, *id));
    seqs.cust.entry(cust).or_default().insert((cseq, *id));
    let x = &mut v[k];
    let b = &x.b;
    // The second save (sequence numbers and `unique_hash`) lands in the same request.
    let updated = at + ms(r, 20, 300);
    x.st = St {
        made: true,
        alive: true,
        id: *id,
        seq,
        cseq,
        number: num,
        hash: hash(r),
        cust,
        creator: b.creator,
        status: "DRAFT",
        paid: "UNPAID",
        sub: b.sub,
        tax: b.tax,
        total: b.total,
        dv: b.dv,
        due: b.total,
        base_due: (x.path != Path::Convert).then(|| base(b.total, b.rate)),
        sent: false,
        viewed: false,
        overdue: false,
        updated,
    };
}

fn apply(w: &World, v: &mut [Inv], k: usize, e: usize, t: i64, seqs: &mut Seqs) {
    let act = v[k].evs[e].act.clone();
    let rate = v[k].b.rate;
    let x = &mut v[k];
    let st = &mut x.st;
    match act {
        Act::Send => {
            if st.status != "DRAFT" {
                return;
            }
            (st.status, st.sent) = ("SENT", true);
        }
        Act::View => {
            if st.status != "SENT" && st.status != "DRAFT" {
                return;
            }
            (st.status, st.viewed) = ("VIEWED", true);
        }
        Act::Pay(part) => {
            if st.due == 0 {
                return;
            }
            st.due -= part.unwrap_or(st.due).min(st.due);
            st.base_due = Some(base(st.due, rate));
            if st.due == 0 {
                (st.status, st.paid, st.overdue) = ("COMPLETED", "PAID", false);
            } else {
                st.status = if st.viewed {
                    "VIEWED"
                } else if st.sent {
                    "SENT"
                } else {
                    "DRAFT"
                };
                st.paid = "PARTIALLY_PAID";
            }
        }
        Act::Edit(ed) => {
            st.due += ed.total - st.total;
            st.base_due = Some(base(st.due, rate));
            (st.sub, st.tax, st.total, st.dv) = (ed.sub, ed.tax, ed.total, ed.dv);
            (st.status, st.paid, st.creator) = ("DRAFT", "UNPAID", Some(ed.by));
            if let Some(c) = ed.cust
                && c != st.cust
            {
                if let Some(s) = seqs.cust.get_mut(&st.cust) {
                    s.remove(&(st.cseq, st.id));
                }
                st.cseq = seqs.next_cust(w, c);
                st.cust = c;
                seqs.cust.entry(c).or_default().insert((st.cseq, st.id));
            }
        }
        Act::Retouch(by) => {
            st.base_due = Some(base(st.due, rate));
            (st.status, st.paid, st.creator) = ("DRAFT", "UNPAID", Some(by));
        }
        Act::Delete => {
            st.alive = false;
            seqs.co[x.co].remove(&(st.seq, st.id));
            if let Some(s) = seqs.cust.get_mut(&st.cust) {
                s.remove(&(st.cseq, st.id));
            }
        }
    }
    st.updated = t;
}

/// `check:invoices:status`, daily at midnight UTC: sent and viewed invoices past their due date become overdue.
fn overdue(r: &mut Rng, v: &mut [Inv], t: i64) {
    let today = day(t);
    let mut at = t;
    for x in v.iter_mut() {
        let st = &mut x.st;
        if st.made
            && st.alive
            && (st.status == "SENT" || st.status == "VIEWED")
            && !st.overdue
            && x.b.due.is_some_and(|d| d < today)
        {
            at += ms(r, 8, 40);
            (st.overdue, st.updated) = (true, at);
        }
    }
}

fn replay(r: &mut Rng, w: &World, v: &mut [Inv]) {
    let mut pos = vec![usize::MAX; v.iter().map(|x| x.uid + 1).max().unwrap_or(0)];
    for (k, x) in v.iter().enumerate() {
        pos[x.uid] = k;
    }
    let mut ops: Vec<(i64, Op)> = Vec::new();
    for (k, x) in v.iter().enumerate() {
        ops.push((x.at, Op::Make(k)));
        for (e, y) in x.evs.iter().enumerate() {
            ops.push((y.t.max(x.at + SECOND), Op::Act(k, e)));
        }
    }
    let mut d = START + DAY;
    while d < NOW {
        ops.push((d + ms(r, 300, 1_200), Op::Overdue));
        d += DAY;
    }
    ops.retain(|o| o.0 < NOW);
    ops.sort_by_key(|o| o.0);
    let mut seqs = Seqs { co: vec![BTreeSet::new(); 3], cust: HashMap::new() };
    let mut id = ID0;
    for (t, op) in ops {
        match op {
            Op::Make(k) => make(r, w, v, k, &pos, &mut seqs, &mut id),
            Op::Act(k, e) => {
                if v[k].st.made && v[k].st.alive {
                    apply(w, v, k, e, t, &mut seqs);
                }
            }
            Op::Overdue => overdue(r, v, t),
        }
    }
}

/// What a create wrote that is not minted per attempt: equal keys are the same invoice written twice.
fn key(w: &World, x: &Inv) -> String {
    let b = &x.b;
    let reference = if x.path == Path::Convert { "(its number)".to_string() } else { format!("{:?}", b.reference) };
    format!(
        "{}|{}|{}|{:?}|{}|{:?}|{}|{}|{}|{}|{}|{}|{}|{}|{:?}|{:?}|{}",
        x.co,
        w.custs[b.cust].id,
        b.date,
        b.due,
        reference,
        b.notes,
        b.template,
        b.discount,
        b.discount_type,
        b.dv,
        b.sub,
        b.tax,
        b.total,
        b.rate,
        b.recurring,
        b.creator,
        x.path == Path::Convert,
    )
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0xC2A7E2);
    let mut w = world(&mut r);
    let mut v: Vec<Inv> = Vec::new();
    hostwerk(&mut r, &mut w, &mut v);
    fixit(&mut r, &mut w, &mut v);
    studio(&mut r, &mut w, &mut v);
    v.retain(|x| x.at < NOW - SECOND);
    v.sort_by_key(|x| x.at);
    replay(&mut r, &w, &mut v);

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("invoices", &columns);
    let mut groups: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    for x in v.iter().filter(|x| x.st.made && x.st.alive) {
        let st = &x.st;
        let b = &x.b;
        let cust = &w.custs[st.cust];
        let first = groups.insert(x.grp);
        let fresh = seen.insert(key(&w, x));
        let mark = if !first {
            Mark::Retry
        } else if !fresh {
            Mark::Legit
        } else {
            Mark::Plain
        };
        let reference = if x.path == Path::Convert { Some(st.number.clone()) } else { b.reference.clone() };
        f.push(&[
            ("id", V::I(st.id)),
            ("sequence_number", V::I(st.seq)),
            ("customer_sequence_number", V::I(st.cseq)),
            ("invoice_date", date(b.date)),
            ("due_date", b.due.map_or(V::Null, date)),
            ("invoice_number", V::t(&st.number)),
            ("reference_number", V::opt_t(reference.as_deref())),
            ("status", V::t(st.status)),
            ("paid_status", V::t(st.paid)),
            ("tax_per_item", V::t("NO")),
            ("discount_per_item", V::t("NO")),
            ("notes", V::opt_t(b.notes.as_deref())),
            ("discount_type", V::t(b.discount_type)),
            ("discount", V::F(b.discount)),
            ("discount_val", V::I(st.dv)),
            ("sub_total", V::I(st.sub)),
            ("total", V::I(st.total)),
            ("tax", V::I(st.tax)),
            ("due_amount", V::I(st.due)),
            ("sent", V::B(st.sent)),
            ("viewed", V::B(st.viewed)),
            ("unique_hash", V::t(&st.hash)),
            ("company_id", V::I(COMPANY[x.co])),
            ("created_at", V::AtSecs(secs(x.at))),
            ("updated_at", V::AtSecs(secs(st.updated))),
            ("creator_id", V::opt_i(st.creator)),
            ("template_name", V::t(b.template)),
            ("customer_id", V::I(cust.id)),
            ("recurring_invoice_id", V::opt_i(b.recurring)),
            ("exchange_rate", V::F(b.rate)),
            ("base_discount_val", V::I(base(st.dv, b.rate))),
            ("base_sub_total", V::I(base(st.sub, b.rate))),
            ("base_total", V::I(base(st.total, b.rate))),
            ("base_tax", V::I(base(st.tax, b.rate))),
            ("base_due_amount", V::opt_i(st.base_due)),
            ("currency_id", V::I(cust.cur)),
            ("overdue", V::B(st.overdue)),
        ]);
        f.mark(st.id, mark);
        if mark == Mark::Retry && x.hidden {
            f.hidden.insert(st.id.to_string());
        }
    }
    f
}
