//! Dolibarr ERP/CRM (PHP; MySQL/MariaDB and PostgreSQL): `llx_facture` (customer invoices), as the invoice card's
//! "Create draft" (`compta/facture/card.php` action=add, blank or from an order), "Clone", credit notes made from an
//! invoice, the REST API (`POST /invoices`: a WooCommerce connector and a helpdesk script) and the recurring-invoice
//! cron (`FactureRec::createRecurringInvoices`) write it, and as people validate, mail, pay, close and delete invoices
//! afterwards: one company, 16 weeks, a summer with the August break.
//! Read: Dolibarr/dolibarr htdocs/install/mysql/tables/llx_facture.sql (7409b69, 00627a8) and llx_facture.key.sql
//! (00c8bcb: `uk_facture_ref (ref, entity)`, the indexes, the foreign keys), htdocs/install/mysql/migration/
//! 20.0.0-21.0.0.sql (`fk_input_reason`), 22.0.0-23.0.0.sql (`dispute_status`, `ip`, `pos_print_counter`,
//! `email_sent_counter`), 23.0.0-24.0.0.sql (b085ea2: `fk_thirdparty_rib_id`, crabe switched to sponge); a mysqldump of
//! a v23 install's `llx_facture` found by code search (column order and types as a fresh install leaves them);
//! htdocs/core/db/pgsql.class.php (`convertSQLFromMysql`: SERIAL, datetime to timestamp, double to numeric, tinyint
//! to smallint, `tms` to `timestamp without time zone DEFAULT now() NOT NULL`, ADD INDEX to CREATE INDEX, foreign keys
//! DEFERRABLE INITIALLY IMMEDIATE), htdocs/install/pgsql/functions/functions.sql (4e34b6e: the
//! `update_modified_column_tms` trigger on `llx_facture`); htdocs/compta/facture/class/facture.class.php (a 2024
//! version: `create`, `createFromCurrent`, `createFromClone`, `update`, `delete`, `setPaid`, `setUnpaid`,
//! `setCanceled`, `validate`), htdocs/compta/facture/card.php (action add), htdocs/compta/facture/class/
//! api_invoices.class.php (a57c861 and later: `post`, `validate`, `settopaid`), htdocs/compta/facture/class/
//! facture-rec.class.php (`createRecurringInvoices`: one transaction per template for create, validate and PDF).
//! On a create: `rowid` from the sequence (AUTO_INCREMENT / SERIAL; a rolled back create leaves a gap); the row is
//! inserted with ref '(PROV)' and updated to '(PROV<rowid>)' in the same transaction; `datec` is PHP's `dol_now()`
//! (seconds), `tms` the database's time (MySQL CURRENT_TIMESTAMP in seconds; PostgreSQL `now()`, the transaction's
//! start, in microseconds, set again by the trigger on every update); `datef` the date asked for (the card's default
//! is today, the API's is the date sent, else now; the cron's is the template's `date_when`); `date_lim_reglement`
//! from the payment term; `ref_client` as sent (the customer's PO, the shop's order number); `fk_user_author` the
//! caller (the cron's user for templates); `fk_incoterms` 0, `location_incoterms` '', `situation_final` 0,
//! `retained_warranty` 0 and `fk_multicurrency` 0 with the company currency (`EUR`, rate 1) are always written; the
//! card also fills `retained_warranty_date_limit` with the due date (`calculate_date_lim_reglement(0)` falls back on
//! the invoice's term). The lines (`llx_facturedet`, not written here) come in the same request from an order, a
//! clone, the API and the cron, so `total_*` and `multicurrency_total_*` are set by `update_price` before commit; a
//! blank draft from the card has 0 totals until lines are added on the card.
//! Later: validation gives the number (mod_facture_terre: FA/AV + yymm of `datef` + a counter that never resets,
//! MAX()+1 under `uk_facture_ref`), `fk_statut` 1, `date_valid`, `fk_user_valid`; the card then rebuilds the PDF
//! (`model_pdf`, `last_main_doc` with the new ref); mailing bumps `email_sent_counter` (reminders again); a payment
//! for the remainder sets `fk_statut` 2, `paye` 1, `date_closing`, `fk_user_closing`; "paid partially" keeps `paye` 0
//! with `close_code` discount_vat; abandoning sets `fk_statut` 3 with a `close_code` and note; a credit note (type 2,
//! `fk_facture_source`, cond 0) converted into a discount pays off the invoice it credits. Drafts can be deleted (a
//! real DELETE: the row is gone); validated invoices cannot.
//! Retries (about 1.5% of creates): a double submit of the card's form 50-400 ms apart (the person goes on with the
//! second draft; the first stays a blank draft or is deleted when someone notices); the shop connector posting again
//! after WordPress's HTTP timeout (`client_retry_delay`; its queue goes on with the last id it got, the first stays a
//! draft with its lines, half of them deleted in later draft clean-ups; some retried twice) or two WooCommerce hooks
//! firing for one order (both flows run to the end: the order booked and paid twice, later credited); the helpdesk
//! script's urllib3 posting again after its 30 s read timeout, both drafts validated by its sweep. Three shop retries
//! in the last day. The unique key cannot stop any of them: each attempt mints its own rowid, so its own
//! '(PROV<rowid>)', and later its own number.
//! Legitimate repeats: the helpdesk script billing two or more identical tickets for one customer in one run
//! (hundreds of ms apart, an outage); an invoice cloned the same day for a second identical job. Plain near-repeats:
//! two templates with the same lines for one customer (different template and note), next month's clone, the
//! shop's identical baskets (different order numbers), the card's invoices to one customer on one day.
//! Guessed: the company, customers, users, rates and rhythms; the connector's and the script's behaviour (the
//! connector's note, its hooks, its queue; the script's note, sweep and timeout); server and database in UTC; the
//! English of the template note (`GeneratedFromRecurringInvoice`); where v24's `fk_thirdparty_rib_id` sits in a fresh
//! install (appended); `prorata_discount` as real; the payment mode ids; `fk_user_modif` left NULL (no path here
//! writes it).
use std::collections::HashSet;

use chrono::Datelike;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, day, secs, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Postgres];

/// The indexes of llx_facture.key.sql but the unique one.
const KEYS: &[(&str, &str)] = &[
    ("idx_facture_fk_soc", "fk_soc"),
    ("idx_facture_fk_user_author", "fk_user_author"),
    ("idx_facture_fk_user_valid", "fk_user_valid"),
    ("idx_facture_fk_facture_source", "fk_facture_source"),
    ("idx_facture_fk_projet", "fk_projet"),
    ("idx_facture_fk_account", "fk_account"),
    ("idx_facture_fk_currency", "fk_currency"),
    ("idx_facture_fk_statut", "fk_statut"),
    ("idx_facture_datef", "datef"),
    ("idx_facture_tms", "tms"),
    ("idx_facture_fk_input_reason", "fk_input_reason"),
    ("idx_situation_cycle_ref", "situation_cycle_ref"),
];

/// The table as a fresh v24 install leaves it: llx_facture.sql and llx_facture.key.sql as written for MySQL, and as
/// the installer converts them for PostgreSQL (with functions.sql's `tms` trigger). Of the foreign keys only the one
/// to itself (credit notes to the invoice they credit); those to societe, user, projet and c_input_reason are left
/// out with their tables.
pub fn ddl(engine: Engine) -> String {
    let (rowid, datetime, tms, double, tiny, tail) = match engine {
        Engine::MySql => (
            "integer AUTO_INCREMENT PRIMARY KEY",
            "datetime",
            "timestamp DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP",
            "double(24,8)",
            "tinyint",
            ") ENGINE=innodb DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci",
        ),
        Engine::Postgres => (
            "SERIAL PRIMARY KEY",
            "timestamp",
            "timestamp without time zone DEFAULT now() NOT NULL",
            "numeric(24,8)",
            "smallint",
            ")",
        ),
        Engine::Sqlite => unreachable!("Dolibarr runs on MySQL/MariaDB and PostgreSQL"),
    };
    let pg = engine == Engine::Postgres;
    let mut sql = vec![format!(
        "create table llx_facture
(
  rowid {rowid},
  ref varchar(30) NOT NULL,
  entity integer DEFAULT 1 NOT NULL,
  ref_ext varchar(255),
  ref_client varchar(255),
  type smallint DEFAULT 0 NOT NULL,
  subtype smallint DEFAULT NULL,
  fk_soc integer NOT NULL,
  datec {datetime},
  datef date,
  date_pointoftax date DEFAULT NULL,
  date_valid date,
  tms {tms},
  date_closing {datetime},
  paye smallint DEFAULT 0 NOT NULL,
  remise_percent real DEFAULT 0,
  remise_absolue real DEFAULT 0,
  remise real DEFAULT 0,
  close_code varchar(16),
  close_missing_amount {double},
  close_note varchar(128),
  total_tva {double} DEFAULT 0,
  localtax1 {double} DEFAULT 0,
  localtax2 {double} DEFAULT 0,
  revenuestamp {double} DEFAULT 0,
  total_ht {double} DEFAULT 0,
  total_ttc {double} DEFAULT 0,
  fk_statut smallint DEFAULT 0 NOT NULL,
  fk_user_author integer,
  fk_user_modif integer,
  fk_user_valid integer,
  fk_user_closing integer,
  module_source varchar(32),
  pos_source varchar(32),
  pos_print_counter integer DEFAULT 0,
  email_sent_counter integer DEFAULT 0,
  fk_fac_rec_source integer,
  fk_facture_source integer,
  fk_projet integer DEFAULT NULL,
  increment varchar(10),
  fk_account integer,
  fk_currency varchar(3),
  fk_cond_reglement integer DEFAULT 1 NOT NULL,
  fk_mode_reglement integer,
  date_lim_reglement date,
  payment_reference varchar(25),
  dispute_status integer DEFAULT 0,
  note_private text,
  note_public text,
  model_pdf varchar(255),
  last_main_doc varchar(255),
  fk_input_reason integer DEFAULT NULL,
  fk_incoterms integer,
  location_incoterms varchar(255),
  fk_transport_mode integer,
  prorata_discount real DEFAULT NULL,
  situation_cycle_ref integer,
  situation_counter smallint,
  situation_final smallint,
  retained_warranty real DEFAULT NULL,
  retained_warranty_date_limit date DEFAULT NULL,
  retained_warranty_fk_cond_reglement integer DEFAULT NULL,
  import_key varchar(14),
  extraparams varchar(255),
  is_also_delivery_note {tiny} DEFAULT 0 NOT NULL,
  fk_multicurrency integer,
  multicurrency_code varchar(3),
  multicurrency_tx {double} DEFAULT 1,
  multicurrency_total_ht {double} DEFAULT 0,
  multicurrency_total_tva {double} DEFAULT 0,
  multicurrency_total_ttc {double} DEFAULT 0,
  ip varchar(250),
  fk_thirdparty_rib_id integer NULL
{tail}"
    )];
    let index = |name: &str, cols: &str, unique: bool| {
        let u = if unique { "UNIQUE " } else { "" };
        if pg {
            format!("CREATE {u}INDEX {name} ON llx_facture ({cols})")
        } else {
            format!("ALTER TABLE llx_facture ADD {u}INDEX {name} ({cols})")
        }
    };
    sql.push(index("uk_facture_ref", "ref, entity", true));
    for &(name, col) in KEYS {
        sql.push(index(name, col, false));
    }
    let fk = "ALTER TABLE llx_facture ADD CONSTRAINT fk_facture_fk_facture_source FOREIGN KEY (fk_facture_source) \
              REFERENCES llx_facture (rowid)";
    if pg {
        sql.push(format!("{fk} DEFERRABLE INITIALLY IMMEDIATE"));
        sql.push(
            "CREATE OR REPLACE FUNCTION update_modified_column_tms() RETURNS TRIGGER AS $$ BEGIN NEW.tms = now(); \
             RETURN NEW; END; $$ LANGUAGE plpgsql"
                .to_string(),
        );
        sql.push(
            "CREATE TRIGGER update_customer_modtime BEFORE UPDATE ON llx_facture FOR EACH ROW EXECUTE PROCEDURE \
             update_modified_column_tms()"
                .to_string(),
        );
    } else {
        sql.push(fk.to_string());
    }
    sql.join(";\n")
}

const COLUMNS: &str = "rowid ref entity ref_client type fk_soc datec datef date_valid tms date_closing paye \
    remise_percent remise_absolue remise close_code close_note total_tva localtax1 localtax2 revenuestamp total_ht \
    total_ttc fk_statut fk_user_author fk_user_valid fk_user_closing pos_print_counter email_sent_counter \
    fk_fac_rec_source fk_facture_source fk_projet fk_account fk_cond_reglement fk_mode_reglement date_lim_reglement \
    dispute_status note_private note_public model_pdf last_main_doc fk_incoterms location_incoterms situation_final \
    retained_warranty retained_warranty_date_limit retained_warranty_fk_cond_reglement is_also_delivery_note \
    fk_multicurrency multicurrency_code multicurrency_tx multicurrency_total_ht multicurrency_total_tva \
    multicurrency_total_ttc";

const NOW: i64 = T0;
/// A Thursday, 16 weeks before the end.
const START: i64 = T0 - 112 * DAY;
const ID0: i64 = 14_208;
/// The last invoice and credit note numbers before the window (the counters never reset).
const FA0: i64 = 4_127;
const AV0: i64 = 233;
/// The first WooCommerce order number and the first thirdparty id the connector makes in the window.
const ORDER0: i64 = 18_440;
const SHOP_SOC0: i64 = 2_400;
/// Users: the cron's (admin), the two accountants, sales and project people, the connector's and the script's.
const ADMIN: i64 = 1;
const BOOK: [i64; 2] = [2, 3];
const STAFF: [i64; 5] = [4, 5, 6, 7, 8];
const SHOP: i64 = 9;
const DESK: i64 = 10;
/// The first shop order after each of these is posted again after a timeout.
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 9 * HOUR, NOW - 3 * HOUR];
/// Office creates per hour, 07:00-16:59 UTC (09:00-18:59 in Paris).
const OFFICE: [i64; 10] = [3, 8, 10, 10, 8, 4, 7, 9, 8, 5];
/// Shop orders per hour of the day (UTC).
const SHOP_RHYTHM: [i64; 24] = [2, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 6, 6, 6, 5, 5, 6, 7, 9, 10, 10, 8, 5, 3];
/// Shop prices, tax included, in cents.
const PRICES: [i64; 12] = [1_490, 1_990, 2_490, 2_990, 3_490, 3_990, 4_990, 5_990, 7_990, 9_990, 12_990, 14_990];
/// The helpdesk's billable services (HT cents) and how often each is billed.
const SERVICES: [i64; 4] = [3_750, 7_500, 15_000, 29_000];
const SERVICE_WEIGHTS: [i64; 4] = [5, 10, 4, 2];
const DESK_NOTE: &str = "Support services, ticket references on the lines.";
/// Template amounts (HT cents).
const PLANS: [i64; 11] = [4_900, 9_900, 14_900, 19_900, 29_000, 35_000, 45_000, 59_000, 79_000, 120_000, 250_000];
const PLAN_NAMES: [&str; 6] =
    ["Hosting", "Maintenance contract", "Backup service", "Support plan", "Software licence", "Office rental"];
const TOWNS: [&str; 8] = ["Lyon", "Nantes", "Lille", "Rennes", "Bordeaux", "Grenoble", "Dijon", "Tours"];

/// A customer of the card, the cron and the helpdesk: its payment term (1 on receipt, 2 30 days, 3 30 days end of
/// month, 4 60 days, 11 14 days), mode (2 transfer, 3 direct debit, 7 cheque), bank account, PO style and projects.
struct Cust {
    id: i64,
    cond: i64,
    mode: i64,
    account: Option<i64>,
    po: u8,
    projects: Vec<i64>,
}

/// A recurring invoice template.
#[derive(Clone)]
struct Tpl {
    id: i64,
    cust: usize,
    title: String,
    dom: u32,
    quarterly: bool,
    ht: i64,
    project: Option<i64>,
    from: i64,
    until: i64,
    auto: bool,
    pdf: bool,
    period: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Kind {
    #[default]
    Card,
    Order,
    Clone,
    Credit,
    Shop,
    Desk,
    Cron,
}

/// An invoice as its create request wrote it, then what happened to it (times in µs; an event's time is its
/// transaction's start).
#[derive(Clone, Default)]
struct Inv {
    uid: usize,
    /// The uid of the first attempt of the create this row came from (its own uid but for a retry's extra row).
    grp: usize,
    at: i64,
    tx: i64,
    kind: Kind,
    soc: i64,
    author: i64,
    typ: i64,
    ref_client: Option<String>,
    datef: i64,
    cond: i64,
    mode: i64,
    account: Option<i64>,
    project: Option<i64>,
    note_pub: Option<String>,
    note_priv: Option<String>,
    model: Option<&'static str>,
    rw: Option<i64>,
    fac_rec: Option<i64>,
    src: Option<usize>,
    ht: i64,
    vat: i64,
    /// Lines added on the card (a blank draft until then), or a clone's lines edited.
    filled: Option<i64>,
    /// A PDF built while still a draft.
    preview: Option<i64>,
    valid: Option<(i64, i64)>,
    pdf: Option<i64>,
    emails: Vec<i64>,
    paid: Option<(i64, i64)>,
    cancel: Option<(i64, i64)>,
    close: Option<(&'static str, Option<&'static str>)>,
    deleted: Option<i64>,
    /// Booked twice by a retry (a credit note may follow).
    double: bool,
    mark: Mark,
    hidden: bool,
}

fn ymd(us: i64) -> chrono::NaiveDate {
    chrono::DateTime::from_timestamp_micros(us).unwrap().date_naive()
}

fn date(us: i64) -> V {
    V::t(ymd(us).format("%Y-%m-%d").to_string())
}

fn money(cents: i64) -> V {
    V::F(cents as f64 / 100.0)
}

fn vat(ht: i64, per_mille: i64) -> i64 {
    (ht * per_mille + if ht >= 0 { 500 } else { -500 }) / 1_000
}

fn month_end(us: i64) -> i64 {
    let d = ymd(us);
    let (y, m) = if d.month() == 12 { (d.year() + 1, 1) } else { (d.year(), d.month() + 1) };
    let next = chrono::NaiveDate::from_ymd_opt(y, m, 1).unwrap();
    next.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_micros() - DAY
}

/// `calculate_date_lim_reglement` for the terms used here.
fn due(datef: i64, cond: i64) -> i64 {
    match cond {
        2 => datef + 30 * DAY,
        3 => month_end(datef + 30 * DAY),
        4 => datef + 60 * DAY,
        11 => datef + 14 * DAY,
        _ => datef,
    }
}

fn count(r: &mut Rng, mean: f64) -> i64 {
    r.range((mean * 0.4).floor() as i64, (mean * 1.6).ceil() as i64)
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

/// A time in office hours on day `d0`.
fn office(r: &mut Rng, d0: i64) -> i64 {
    let h = 7 + r.weighted(&OFFICE) as i64;
    d0 + h * HOUR + r.below(3_600_000_000) as i64
}

/// `t`, or the start of the next office morning when `t` falls outside office hours.
fn office_after(r: &mut Rng, t: i64) -> i64 {
    let (mut d, mut tod) = (day(t), t - day(t));
    loop {
        if weekday(d) < 5 && (7 * HOUR..17 * HOUR).contains(&tod) {
            return d + tod;
        }
        if weekday(d) < 5 && tod < 7 * HOUR {
            return d + 7 * HOUR + r.range(0, 3 * 3_600) * SECOND + micros(r);
        }
        (d, tod) = (d + DAY, 0);
    }
}

/// The Friday afternoon batch (after `t`) in which an accountant builds and mails the script's invoices.
fn friday(r: &mut Rng, t: i64) -> i64 {
    let mut d = day(t);
    while weekday(d) != 4 || d + 13 * HOUR < t {
        d += DAY;
    }
    d + 13 * HOUR + r.range(0, 5_400) * SECOND + micros(r)
}

fn po(r: &mut Rng, style: u8) -> String {
    match style {
        1 => format!("PO-{}", r.range(10_000, 99_999)),
        2 => format!("BC{}", r.range(100_000, 999_999)),
        _ => format!("Cde {}", r.range(1_000, 9_999)),
    }
}

fn b2b_amount(r: &mut Rng) -> (i64, i64) {
    let units = match r.below(10) {
        0..=3 => r.range(120, 900),
        4..=7 => r.range(900, 4_800),
        _ => r.range(4_800, 15_000),
    };
    let ht = units * 100 + r.one(&[0, 0, 0, 0, 50, 20, 80, 75]);
    (ht, vat(ht, 200))
}

fn push(v: &mut Vec<Inv>, mut x: Inv) -> usize {
    x.uid = v.len();
    if x.mark != Mark::Retry {
        x.grp = x.uid;
    }
    v.push(x);
    v.len() - 1
}

/// Paid when the term says (or late, or partly, or never), with a reminder for an overdue one.
fn settle(r: &mut Rng, x: &mut Inv, after: i64) {
    let due = due(x.datef, x.cond);
    let y = r.below(1_000);
    let by = r.one(&BOOK);
    if y < 12 {
        let close = r.one(&[
            ("abandon", Some("Order cancelled by the customer")),
            ("badcustomer", Some("Customer in liquidation")),
        ]);
        let wait = r.range(10, 50) * DAY;
        x.cancel = Some((office_after(r, after.max(due) + wait), by));
        x.close = Some(close);
        return;
    }
    let base = if x.cond == 1 { after + r.range(2, 25) * DAY } else { due + r.range(-10, 20) * DAY };
    let late = if y < 100 { r.range(25, 70) * DAY } else { 0 };
    let pay = office_after(r, base.max(after + DAY) + late);
    x.paid = Some((pay, by));
    if y < 32 {
        x.close = Some(("discount_vat", None));
    }
    if pay >= NOW && due < NOW - 10 * DAY && r.chance(0.6) {
        let wait = r.range(8, 15) * DAY;
        let at = office_after(r, due + wait);
        if at < NOW && at > after {
            x.emails.push(at);
        }
    }
}

/// Validated on the card (which rebuilds the PDF), mostly mailed, then settled.
fn validated(r: &mut Rng, x: &mut Inv, vt: i64, by: i64) {
    x.valid = Some((vt, by));
    let mut t = vt + r.range(800_000, 4_000_000);
    x.pdf = Some(t);
    if r.chance(0.8) {
        t += r.range(20, 3 * 3_600) * SECOND + micros(r);
        x.emails.push(t);
    }
    settle(r, x, t);
}

/// What people do with a draft from the card: lines, validation (soon, later, or never: then often deleted).
fn card_life(r: &mut Rng, x: &mut Inv, lines: bool) {
    x.tx = x.at + r.range(3_000, 15_000);
    let mut t = x.tx;
    if !lines {
        if r.chance(0.04) {
            (x.ht, x.vat) = (0, 0);
            if r.chance(0.7) {
                let wait = r.range(1_800, 10 * 86_400) * SECOND;
                x.deleted = Some(office_after(r, t + wait));
            }
            return;
        }
        t += r.range(40, 20 * 60) * SECOND + micros(r);
        x.filled = Some(t);
    }
    let y = r.below(100);
    if y >= 90 {
        if r.chance(0.3) {
            x.preview = Some(t + r.range(5, 300) * SECOND + micros(r));
        }
        if r.chance(0.5) {
            let wait = r.range(2, 25) * DAY;
            x.deleted = Some(office_after(r, t + wait));
        }
        return;
    }
    let vt = if y < 65 {
        t + r.range(30, 30 * 60) * SECOND + micros(r)
    } else {
        let wait = r.range(3_600, 5 * 86_400) * SECOND;
        office_after(r, t + wait)
    };
    let by = if r.chance(0.7) { x.author } else { r.one(&BOOK) };
    validated(r, x, vt, by);
}

/// The card's "Create draft", blank or from an order (then with the order's lines and PO); pressed twice now and
/// then.
fn card(r: &mut Rng, v: &mut Vec<Inv>, c: &Cust, user: i64, t: i64, order: bool) {
    let today = day(t);
    let dom = i64::from(ymd(t).day());
    let datef = if dom <= 4 && r.chance(0.3) {
        today - dom * DAY
    } else if r.chance(0.05) {
        today - r.range(1, 6) * DAY
    } else {
        today
    };
    let ref_client = (c.po > 0 && r.chance(if order { 0.85 } else { 0.6 })).then(|| po(r, c.po));
    let project = (!c.projects.is_empty() && r.chance(0.5)).then(|| r.one(&c.projects));
    let note_pub = r.chance(0.08).then(|| format!("Delivery note BL{}", r.range(20_000, 29_999)));
    let note_priv = r.chance(0.04).then(|| "Check the discount with sales before sending.".to_string());
    let (ht, vat) = b2b_amount(r);
    let kind = if order { Kind::Order } else { Kind::Card };
    let x = Inv {
        at: t,
        kind,
        soc: c.id,
        author: user,
        ref_client,
        datef,
        cond: c.cond,
        mode: c.mode,
        account: c.account,
        project,
        note_pub,
        note_priv,
        model: Some("sponge"),
        rw: Some(due(datef, c.cond)),
        ht,
        vat,
        ..Inv::default()
    };
    if r.chance(0.012) {
        // The form posted twice: the person lands on (and works on) the second draft; the first stays as it was
        // created, until someone deletes it.
        let mut first = x.clone();
        first.tx = t + r.range(3_000, 15_000);
        if !order {
            (first.ht, first.vat) = (0, 0);
        }
        if r.chance(0.45) {
            let wait = r.range(3_600, 15 * 86_400) * SECOND;
            first.deleted = Some(office_after(r, t + wait));
        }
        let o = push(v, first);
        let mut extra = Inv { at: t + r.range(50_000, 400_000), mark: Mark::Retry, grp: o, ..x };
        card_life(r, &mut extra, order);
        push(v, extra);
    } else {
        let mut x = x;
        card_life(r, &mut x, order);
        push(v, x);
    }
}

/// The connector's flow after `POST /invoices`: validate, build the document, book the payment (or wait for a
/// transfer the accountant books, or cancel).
fn shop_life(r: &mut Rng, x: &mut Inv) {
    x.tx = x.at + r.range(2_000, 12_000);
    let vt = x.at + r.range(900_000, 3_000_000);
    x.valid = Some((vt, SHOP));
    let pdf = vt + r.range(600_000, 2_400_000);
    x.pdf = Some(pdf);
    if x.mode != 2 {
        x.paid = Some((pdf + r.range(300_000, 1_200_000), SHOP));
    } else if r.chance(0.85) {
        let wait = r.range(1, 6) * DAY;
        let by = r.one(&BOOK);
        x.paid = Some((office_after(r, x.at + wait), by));
    } else {
        let wait = r.range(14, 25) * DAY;
        let by = r.one(&BOOK);
        x.cancel = Some((office_after(r, x.at + wait), by));
        x.close = Some(("abandon", Some("Order cancelled, no transfer received")));
    }
}

/// One WooCommerce order synced by the connector.
fn shop(r: &mut Rng, v: &mut Vec<Inv>, t: i64, order: i64, soc: i64, forced: bool) {
    let (mode, label) = match r.below(100) {
        0..=62 => (6, "credit card (Stripe)"),
        63..=87 => (50, "PayPal"),
        _ => (2, "direct bank transfer"),
    };
    let placed = t - r.range(20, 150) * SECOND;
    let rate = if r.chance(0.15) { 55 } else { 200 };
    let mut ttc = 0;
    for _ in 0..1 + r.skewed(4) {
        ttc += r.one(&PRICES) * (1 + i64::from(r.chance(0.15)));
    }
    if ttc < 6_000 {
        ttc += 590;
    }
    let ht = (ttc * 1_000 + (1_000 + rate) / 2) / (1_000 + rate);
    let x = Inv {
        at: t,
        kind: Kind::Shop,
        soc,
        author: SHOP,
        ref_client: Some(format!("WC-{order}")),
        datef: day(placed),
        cond: 1,
        mode,
        note_priv: Some(format!("WooCommerce order #{order}, {label}")),
        ht,
        vat: vat(ht, rate),
        ..Inv::default()
    };
    if !forced && !r.chance(0.02) {
        let mut x = x;
        shop_life(r, &mut x);
        push(v, x);
        return;
    }
    let delay = if forced { r.range(10, 60) * SECOND + micros(r) } else { client_retry_delay(r) };
    if delay < SECOND {
        // Two hooks fired for one order: both flows ran to the end, the order booked and paid twice.
        let mut a = x.clone();
        shop_life(r, &mut a);
        let o = push(v, a);
        let mut b = Inv { at: t + delay, mark: Mark::Retry, grp: o, double: true, ..x };
        shop_life(r, &mut b);
        push(v, b);
        return;
    }
    // The connector gave up waiting and posted again; it goes on with the last id it got, the first stays a draft
    // with its lines until a clean-up.
    let mut a = x.clone();
    a.tx = t + r.range(2_000, 12_000);
    if r.chance(0.5) {
        let wait = r.range(1, 14) * DAY;
        a.deleted = Some(office_after(r, t + wait));
    }
    let o = push(v, a);
    let mut at = t + delay;
    if r.chance(0.3) {
        let mut b = Inv { at, mark: Mark::Retry, grp: o, ..x.clone() };
        b.tx = at + r.range(2_000, 12_000);
        if r.chance(0.5) {
            let wait = r.range(1, 14) * DAY;
            b.deleted = Some(office_after(r, at + wait));
        }
        push(v, b);
        at += r.range(20, 120) * SECOND + micros(r);
    }
    let mut c = Inv { at, mark: Mark::Retry, grp: o, ..x };
    shop_life(r, &mut c);
    push(v, c);
}

/// One hourly run of the helpdesk script: `POST /invoices` (with the lines) per billable ticket closed in the last
/// hour, then a sweep validating the drafts it made, in id order.
fn desk_run(r: &mut Rng, v: &mut Vec<Inv>, custs: &[Cust], support: &[usize], start: i64, hidden: bool) {
    let n = match r.below(100) {
        0..=69 => 0,
        70..=89 => 1,
        90..=95 => 2,
        _ => r.range(3, 4),
    };
    let n = if hidden { n.max(1) } else { n };
    let outage = n >= 2 && r.chance(0.35);
    let first = (support[r.skewed(support.len() as u64) as usize], r.weighted(&SERVICE_WEIGHTS));
    let mut at = start;
    let mut made: Vec<usize> = Vec::new();
    for k in 0..n {
        let (ci, s) = if outage || k == 0 {
            first
        } else {
            (support[r.below(support.len() as u64) as usize], r.weighted(&SERVICE_WEIGHTS))
        };
        let c = &custs[ci];
        let ht = SERVICES[s];
        let x = Inv {
            at,
            kind: Kind::Desk,
            soc: c.id,
            author: DESK,
            datef: day(at),
            cond: c.cond,
            mode: c.mode,
            note_pub: Some(DESK_NOTE.to_string()),
            ht,
            vat: vat(ht, 200),
            ..Inv::default()
        };
        let mut a = x.clone();
        a.tx = at + r.range(2_000, 9_000);
        let o = push(v, a);
        made.push(o);
        let quick = hidden && k == 0;
        if quick || r.chance(0.025) {
            // The response was lost: urllib3 posted again, at once after a reset (this one looks like a second
            // ticket billed in the same run: a hidden retry), else after its 30 s read timeout.
            let delay = if quick { r.range(250_000, 600_000) } else { 30 * SECOND + r.range(1_000_000, 4_000_000) };
            let mut b = Inv { at: at + delay, mark: Mark::Retry, grp: o, hidden: quick, double: !quick, ..x };
            b.tx = b.at + r.range(2_000, 9_000);
            at = b.at;
            made.push(push(v, b));
        }
        at += r.range(300_000, 1_200_000);
    }
    for u in made {
        at += r.range(250_000, 900_000);
        let x = &mut v[u];
        x.valid = Some((at, DESK));
        let fr = friday(r, at);
        x.pdf = Some(fr);
        x.emails.push(fr + r.range(2_000_000, 6_000_000));
        settle(r, x, fr);
    }
}

/// The nightly cron: an invoice per template due today, each in one transaction with its validation and PDF.
fn cron_run(r: &mut Rng, v: &mut Vec<Inv>, custs: &[Cust], tpls: &[Tpl], d0: i64) {
    let d = ymd(d0);
    let mut at = d0 + 2 * HOUR + r.range(3_000, 25_000) * 1_000;
    for tp in tpls {
        let today = d.day() == tp.dom && (!tp.quarterly || matches!(d.month(), 1 | 4 | 7 | 10));
        if !today || d0 < tp.from || d0 >= tp.until {
            continue;
        }
        let c = &custs[tp.cust];
        let note_pub = tp.period.then(|| format!("Period: {}", d.format("%B %Y")));
        let mut x = Inv {
            at,
            kind: Kind::Cron,
            soc: c.id,
            author: ADMIN,
            datef: d0,
            cond: c.cond,
            mode: c.mode,
            account: c.account,
            project: tp.project,
            note_pub,
            note_priv: Some(format!("Generated from template invoice {}", tp.title)),
            model: Some("sponge"),
            fac_rec: Some(tp.id),
            ht: tp.ht,
            vat: vat(tp.ht, 200),
            ..Inv::default()
        };
        x.tx = at + r.range(2_000, 9_000);
        at = x.tx + r.range(250_000, 700_000) + if tp.pdf { r.range(600_000, 1_800_000) } else { 0 };
        if tp.auto {
            x.valid = Some((x.tx, ADMIN));
            if tp.pdf {
                x.pdf = Some(x.tx);
            }
            // Mailed from the list in the morning.
            let wait = r.range(0, 2 * 3_600) * SECOND;
            let morning = office_after(r, d0 + 7 * HOUR + wait);
            if r.chance(0.8) {
                x.emails.push(morning);
            }
            settle(r, &mut x, morning);
        } else {
            let wait = r.range(6 * 3_600, 3 * 86_400) * SECOND;
            let vt = office_after(r, d0 + wait);
            let by = r.one(&BOOK);
            validated(r, &mut x, vt, by);
        }
        push(v, x);
    }
}

/// "Clone" of a validated invoice on day `day(at)`: same customer, terms, notes, lines; no customer ref.
fn clone_of(r: &mut Rng, v: &mut Vec<Inv>, s: &Inv, at: i64, edit: bool) {
    let mut x = Inv {
        at,
        kind: Kind::Clone,
        soc: s.soc,
        author: s.author,
        datef: day(at),
        cond: s.cond,
        mode: s.mode,
        account: s.account,
        project: s.project,
        note_pub: s.note_pub.clone(),
        note_priv: s.note_priv.clone(),
        model: s.model,
        rw: s.rw,
        ht: s.ht,
        vat: s.vat,
        ..Inv::default()
    };
    x.tx = at + r.range(3_000, 15_000);
    let mut t = x.tx;
    if edit {
        t += r.range(30, 600) * SECOND + micros(r);
        x.filled = Some(t);
        x.ht = x.ht * r.range(70, 140) / 100;
        x.vat = vat(x.ht, 200);
    }
    let vt = t + r.range(20, 15 * 60) * SECOND + micros(r);
    validated(r, &mut x, vt, s.author);
    push(v, x);
}

/// A credit note for `pct` % of invoice `k`, validated and converted into a discount (or refunded); a full one on
/// an invoice still unpaid pays it off.
fn credit(r: &mut Rng, v: &mut Vec<Inv>, k: usize, at: i64, pct: i64) {
    let by = r.one(&BOOK);
    let datef = day(at);
    let (soc, ht, vt0, uid) = (v[k].soc, v[k].ht, v[k].vat, v[k].uid);
    let mut x = Inv {
        at,
        kind: Kind::Credit,
        soc,
        author: by,
        typ: 2,
        datef,
        model: Some("sponge"),
        rw: Some(datef),
        src: Some(uid),
        ht: -(ht * pct / 100),
        vat: -(vt0 * pct / 100),
        ..Inv::default()
    };
    x.tx = at + r.range(3_000, 15_000);
    let vt = x.tx + r.range(60, 20 * 60) * SECOND + micros(r);
    x.valid = Some((vt, by));
    x.pdf = Some(vt + r.range(800_000, 3_000_000));
    let wait = r.range(600, 5 * 86_400) * SECOND;
    let pt = office_after(r, vt + wait);
    x.paid = Some((pt, by));
    let s = &mut v[k];
    if pct == 100 && s.cancel.is_none() && s.paid.is_none_or(|(p, _)| p > pt) {
        s.paid = Some((pt + r.range(20, 300) * SECOND, by));
        s.close = None;
    }
    push(v, x);
}

/// Drops what had not happened yet at the end of history.
fn clip(x: &mut Inv) {
    if x.filled.is_some_and(|t| t >= NOW) {
        // Lines not added yet: still a blank draft.
        (x.filled, x.valid, x.preview) = (None, None, None);
        if x.kind == Kind::Card {
            (x.ht, x.vat) = (0, 0);
        }
    }
    if x.preview.is_some_and(|t| t >= NOW) {
        x.preview = None;
    }
    if x.valid.is_some_and(|(t, _)| t >= NOW) {
        x.valid = None;
    }
    if x.valid.is_none() {
        (x.pdf, x.paid, x.cancel, x.close) = (None, None, None, None);
        x.emails.clear();
    }
    if x.pdf.is_some_and(|t| t >= NOW) {
        x.pdf = None;
    }
    x.emails.retain(|&t| t < NOW);
    if x.paid.is_some_and(|(t, _)| t >= NOW) {
        x.paid = None;
        if x.cancel.is_none() {
            x.close = None;
        }
    }
    if x.cancel.is_some_and(|(t, _)| t >= NOW) {
        (x.cancel, x.close) = (None, None);
    }
    if x.deleted.is_some_and(|t| t >= NOW) {
        x.deleted = None;
    }
}

/// `tms`: the start of the last transaction that changed the row.
fn tms(x: &Inv) -> i64 {
    let events = [x.filled, x.preview, x.valid.map(|e| e.0), x.pdf, x.paid.map(|e| e.0), x.cancel.map(|e| e.0)];
    events.into_iter().flatten().chain(x.emails.iter().copied()).fold(x.tx, i64::max)
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0xD011_BA22);
    let mut custs: Vec<Cust> = Vec::new();
    let mut id = 31;
    for _ in 0..160 {
        id += r.range(1, 9);
        let cond = r.one(&[1, 2, 2, 2, 2, 3, 3, 4, 11]);
        let mode = r.one(&[2, 2, 2, 2, 2, 2, 2, 7, 7, 3, 3]);
        let account = match r.below(10) {
            0..=6 => Some(1),
            7 => Some(2),
            _ => None,
        };
        let po = r.one(&[0, 0, 0, 1, 1, 2, 3]);
        let n = if r.chance(0.25) { r.range(1, 2) } else { 0 };
        let projects = (0..n).map(|_| r.range(3, 140)).collect();
        custs.push(Cust { id, cond, mode, account, po, projects });
    }
    let support: Vec<usize> = (0..28).map(|_| r.below(custs.len() as u64) as usize).collect();
    let mut tpls: Vec<Tpl> = Vec::new();
    let mut tid = 3;
    while tpls.len() < 80 {
        tid += r.range(1, 3);
        if let Some(last) = tpls.last().filter(|_| r.chance(0.08)) {
            // The same contract for a second site: the same lines under another template.
            let title = format!("{} (site 2)", last.title);
            let copy = Tpl { id: tid, title, ..last.clone() };
            tpls.push(copy);
            continue;
        }
        let cust = r.skewed(custs.len() as u64) as usize;
        let (dom, quarterly) = match r.below(10) {
            0..=5 => (1, false),
            6..=8 => (15, false),
            _ => (1, true),
        };
        let title = format!("{} {}", r.pick(&PLAN_NAMES), r.pick(&TOWNS));
        let project = (!custs[cust].projects.is_empty() && r.chance(0.3)).then(|| r.one(&custs[cust].projects));
        let from = if r.chance(0.1) { START + r.range(5, 90) * DAY } else { START - 400 * DAY };
        let until = if r.chance(0.05) { START + r.range(20, 100) * DAY } else { NOW + 365 * DAY };
        let auto = r.chance(0.85);
        let (ht, pdf, period) = (r.one(&PLANS), auto && r.chance(0.9), r.chance(0.6));
        tpls.push(Tpl { id: tid, cust, title, dom, quarterly, ht, project, from, until, auto, pdf, period });
    }

    let mut v: Vec<Inv> = Vec::new();
    let (mut order, mut next_soc, mut late) = (ORDER0, SHOP_SOC0, 0);
    let mut shoppers: Vec<i64> = Vec::new();
    let mut hidden_done = false;
    for k in 0..112 {
        let d0 = START + k * DAY;
        let d = ymd(d0);
        let weekend = weekday(d0) >= 5;
        let slow = if d.month() == 8 && (3..=21).contains(&d.day()) { 0.45 } else { 1.0 };
        cron_run(&mut r, &mut v, &custs, &tpls, d0);
        if !weekend {
            for (mean, from_order) in [(5.0, false), (2.0, true)] {
                for _ in 0..count(&mut r, mean * slow) {
                    let t = office(&mut r, d0);
                    let user = if r.chance(0.6) { r.one(&STAFF) } else { r.one(&BOOK) };
                    let c = &custs[r.skewed(custs.len() as u64) as usize];
                    card(&mut r, &mut v, c, user, t, from_order);
                }
            }
            for h in 8..=16 {
                let start = d0 + h * HOUR + 5 * MINUTE + r.range(1_500, 7_000) * 1_000;
                let hidden = !hidden_done && k >= 40 && h == 10;
                hidden_done |= hidden;
                desk_run(&mut r, &mut v, &custs, &support, start, hidden);
            }
        }
        let mut times: Vec<i64> = (0..count(&mut r, if weekend { 11.0 } else { 9.0 }))
            .map(|_| d0 + r.weighted(&SHOP_RHYTHM) as i64 * HOUR + r.below(3_600_000_000) as i64)
            .collect();
        times.sort_unstable();
        for t in times {
            if t >= NOW - MINUTE {
                continue;
            }
            order += r.range(1, 3);
            let soc = if shoppers.is_empty() || r.chance(0.75) {
                next_soc += r.range(1, 4);
                shoppers.push(next_soc);
                next_soc
            } else {
                shoppers[r.below(shoppers.len() as u64) as usize]
            };
            let forced = late < LATE.len() && t > LATE[late];
            late += usize::from(forced);
            shop(&mut r, &mut v, t, order, soc, forced);
        }
    }

    // Clones: a second identical job the same day, next month's invoice made from this one.
    for k in 0..v.len() {
        let s = v[k].clone();
        let Some((vt, _)) = s.valid else { continue };
        if !matches!(s.kind, Kind::Card | Kind::Order) || s.mark == Mark::Retry || vt >= NOW - HOUR {
            continue;
        }
        let y = r.below(1_000);
        if y < 40 && s.ref_client.is_none() {
            let at = vt + r.range(120, 25 * 60) * SECOND + micros(&mut r);
            if day(at) == s.datef && at < NOW - HOUR {
                clone_of(&mut r, &mut v, &s, at, false);
            }
        } else if y < 75 {
            let wait = r.range(27, 34) * DAY;
            let at = office_after(&mut r, s.at + wait);
            if at < NOW - HOUR {
                let edit = r.chance(0.5);
                clone_of(&mut r, &mut v, &s, at, edit);
            }
        }
    }
    // Credit notes: refunds, corrections, and the double bookings someone noticed.
    for k in 0..v.len() {
        let s = &v[k];
        let Some((vt, _)) = s.valid else { continue };
        if s.typ != 0 || s.deleted.is_some() || s.cancel.is_some() {
            continue;
        }
        let settled = s.paid.map_or(vt, |p| p.0);
        let plan = match s.kind {
            Kind::Shop | Kind::Desk if s.double => r.chance(0.55).then_some((settled, 100)),
            Kind::Shop if s.mark != Mark::Retry && s.paid.is_some() => r.chance(0.02).then_some((settled, 0)),
            Kind::Card | Kind::Order | Kind::Clone | Kind::Cron => r.chance(0.015).then_some((vt, 0)),
            _ => None,
        };
        let Some((after, pct)) = plan else { continue };
        let pct = match pct {
            0 if r.chance(0.6) => 100,
            0 => r.range(10, 60),
            p => p,
        };
        let wait = r.range(1, 12) * DAY;
        let at = office_after(&mut r, after + wait);
        if at < NOW - HOUR {
            credit(&mut r, &mut v, k, at, pct);
        }
    }

    for x in v.iter_mut() {
        clip(x);
    }
    let mut by_time: Vec<usize> = (0..v.len()).collect();
    by_time.sort_by_key(|&i| (v[i].at, i));
    let mut pos = vec![0; v.len()];
    for (p, &i) in by_time.iter().enumerate() {
        pos[v[i].uid] = p;
    }
    let v: Vec<Inv> = by_time.into_iter().map(|i| v[i].clone()).collect();
    let mut ids = vec![0_i64; v.len()];
    let mut id = ID0;
    for slot in ids.iter_mut() {
        id += 1 + i64::from(r.chance(0.004));
        *slot = id;
    }
    // Numbers in validation order: FA/AV, the yymm of the invoice date, the counter.
    let mut valid: Vec<usize> = (0..v.len()).filter(|&i| v[i].deleted.is_none() && v[i].valid.is_some()).collect();
    valid.sort_by_key(|&i| (v[i].valid.map_or(0, |e| e.0), i));
    let (mut fa, mut av) = (FA0, AV0);
    let mut refs: Vec<Option<String>> = vec![None; v.len()];
    for i in valid {
        let (prefix, n) = if v[i].typ == 2 {
            av += 1;
            ("AV", av)
        } else {
            fa += 1;
            ("FA", fa)
        };
        refs[i] = Some(format!("{prefix}{}-{n:04}", ymd(v[i].datef).format("%y%m")));
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("llx_facture", &columns);
    let mut present: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (i, x) in v.iter().enumerate() {
        if x.deleted.is_some() {
            continue;
        }
        let id = ids[i];
        let reference = refs[i].clone().unwrap_or_else(|| format!("(PROV{id})"));
        let closing = x.paid.or(x.cancel);
        let statut = match (x.valid, x.cancel, x.paid) {
            (None, _, _) => 0,
            (_, Some(_), _) => 3,
            (_, _, Some(_)) => 2,
            _ => 1,
        };
        let paye = i64::from(x.paid.is_some() && x.close.is_none());
        let model = if x.pdf.is_some() || x.preview.is_some() { Some("sponge") } else { x.model };
        let doc = match (&refs[i], x.pdf, x.preview) {
            (Some(n), Some(_), _) => Some(format!("facture/{n}/{n}.pdf")),
            (None, _, Some(_)) => Some(format!("facture/{reference}/{reference}.pdf")),
            _ => None,
        };
        let first = present.insert(x.grp);
        let key = format!(
            "{}|{}|{}|{:?}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{}|{}",
            x.soc,
            x.typ,
            x.datef,
            x.ref_client,
            x.cond,
            x.mode,
            x.account,
            x.project,
            x.note_pub,
            x.note_priv,
            model,
            x.rw,
            x.fac_rec,
            x.src,
            x.author,
            x.ht,
            x.vat
        );
        let fresh = seen.insert(key);
        let mark = if !first {
            Mark::Retry
        } else if !fresh {
            Mark::Legit
        } else {
            Mark::Plain
        };
        f.push(&[
            ("rowid", V::I(id)),
            ("ref", V::t(&reference)),
            ("entity", V::I(1)),
            ("ref_client", V::opt_t(x.ref_client.as_deref())),
            ("type", V::I(x.typ)),
            ("fk_soc", V::I(x.soc)),
            ("datec", V::At(secs(x.at))),
            ("datef", date(x.datef)),
            ("date_valid", x.valid.map_or(V::Null, |e| date(e.0))),
            ("tms", V::At(tms(x))),
            ("date_closing", closing.map_or(V::Null, |e| V::At(secs(e.0)))),
            ("paye", V::I(paye)),
            ("remise_percent", V::F(0.0)),
            ("remise_absolue", V::F(0.0)),
            ("remise", V::F(0.0)),
            ("close_code", V::opt_t(x.close.map(|c| c.0))),
            ("close_note", V::opt_t(x.close.and_then(|c| c.1))),
            ("total_tva", money(x.vat)),
            ("localtax1", V::F(0.0)),
            ("localtax2", V::F(0.0)),
            ("revenuestamp", V::F(0.0)),
            ("total_ht", money(x.ht)),
            ("total_ttc", money(x.ht + x.vat)),
            ("fk_statut", V::I(statut)),
            ("fk_user_author", V::I(x.author)),
            ("fk_user_valid", V::opt_i(x.valid.map(|e| e.1))),
            ("fk_user_closing", V::opt_i(closing.map(|e| e.1))),
            ("pos_print_counter", V::I(0)),
            ("email_sent_counter", V::I(x.emails.len() as i64)),
            ("fk_fac_rec_source", V::opt_i(x.fac_rec)),
            ("fk_facture_source", V::opt_i(x.src.map(|u| ids[pos[u]]))),
            ("fk_projet", V::opt_i(x.project)),
            ("fk_account", V::opt_i(x.account)),
            ("fk_cond_reglement", V::I(x.cond)),
            ("fk_mode_reglement", V::I(x.mode)),
            ("date_lim_reglement", date(due(x.datef, x.cond))),
            ("dispute_status", V::I(0)),
            ("note_private", V::opt_t(x.note_priv.as_deref())),
            ("note_public", V::opt_t(x.note_pub.as_deref())),
            ("model_pdf", V::opt_t(model)),
            ("last_main_doc", V::opt_t(doc.as_deref())),
            ("fk_incoterms", V::I(0)),
            ("location_incoterms", V::t("")),
            ("situation_final", V::I(0)),
            ("retained_warranty", V::F(0.0)),
            ("retained_warranty_date_limit", x.rw.map_or(V::Null, date)),
            ("retained_warranty_fk_cond_reglement", V::I(0)),
            ("is_also_delivery_note", V::I(0)),
            ("fk_multicurrency", V::I(0)),
            ("multicurrency_code", V::t("EUR")),
            ("multicurrency_tx", V::F(1.0)),
            ("multicurrency_total_ht", money(x.ht)),
            ("multicurrency_total_tva", money(x.vat)),
            ("multicurrency_total_ttc", money(x.ht + x.vat)),
        ]);
        f.mark(id, mark);
        if mark == Mark::Retry && x.hidden {
            f.hidden.insert(id.to_string());
        }
    }
    f
}
