//! Akaunting 3.1 (PHP, Laravel 10, Eloquent; MySQL/MariaDB, SQLite for development): `documents` (invoices, bills
//! and the recurring templates of both), as `CreateDocument` writes it for the web form and the REST API, as the
//! invoice import, the "duplicate" action and `recurring:check` write it, with the `document_items` saved with each.
//! Read: akaunting/akaunting database/migrations/2019_11_16_000000_core_v2.php (`documents`, `document_items`),
//! 2022_08_29_000000_core_v3015 (contact_id index), 2023_08_14_000000_core_v3017 (title, subheading),
//! 2024_09_26_000000_core_v3112 (template, color), 2024_12_29_000000_core_v3115 (discount_type, discount_rate),
//! 2022_08_29_000000_core_v307 and 2026_02_17_000000_core_v3122 (`document_items`); app/Providers/App.php
//! (`defaultStringLength(191)`); config/database.php, app/Utilities/Installer.php (table prefix); app/Jobs/Document/
//! CreateDocument, CreateDocumentItem, CreateDocumentItemsAndTotals, DuplicateDocument; app/Abstracts/Job.php
//! (`setOwner`, `setSource`), app/Traits/Sources.php; app/Http/Requests/Document/Document.php (rules: a unique
//! `document_number` per company and type among rows not deleted); app/Http/Middleware/DateFormat.php;
//! app/Http/Controllers/Sales/Invoices.php, Api/Document/Documents.php; app/Models/Document/Document.php (`fillable`,
//! `onCloning`); app/Utilities/DocumentNumber.php, app/Listeners/Document/IncreaseNextDocumentNumber.php,
//! MarkDocumentSent.php, SendDocumentRecurringNotification.php; app/Traits/Recurring.php;
//! app/Console/Commands/RecurringCheck.php, app/Console/Kernel.php; app/Imports/Sales/Invoices/Sheets/Invoices.php,
//! app/Abstracts/Import.php; app/Jobs/Banking/CreateBankingDocumentTransaction.php (paid/partial); config/setting.php
//! (INV-/BILL-/RCI-/RCB- prefixes, 5 digits, payment terms, 09:00), config/type.php; app/Abstracts/View/Components/
//! Documents/Form.php and resources/views/components/documents/form/*.blade.php, sales/invoices/create,
//! purchases/bills/create (what the form posts: number prefilled, status "draft", title/subheading/notes/footer/
//! template/color from the company's settings; bills hide title, subheading and footer); app/Traits/Tailwind.php.
//! On a create: a fresh auto-increment `id`; `document_number` is what the form (or API client) posts, the form
//! prefilled from the company's `invoice.number_prefix`/`number_next`/`number_digit` at page load; validation only
//! checks it is not taken yet, and every `DocumentCreated` bumps `number_next` (even for a typed vendor number, even
//! for a second request that raced the first); `issued_at`/`due_at` a date the client sent, to which the `DateFormat`
//! middleware appends the server's time of day of that request (a date at midnight only); `amount` recomputed from the
//! lines, taxes and discount; `created_from` core::ui / core::api / core::import / core::recurring, `created_by` the
//! user; `updated_at` the same second or the next (the job updates the row again after the items). `contact_*` copied
//! from the contact; `currency_rate` is the contact's currency against the company's; `parent_id` 0.
//! Later: invoices are sent (emailed or marked), viewed, paid or partly paid (a transaction), cancelled, or soft
//! deleted (`deleted_at`); bills received and paid; a web edit re-posts issued_at/due_at, so both take the edit's time
//! of day; each change bumps `updated_at`. The shop integrations post a payment seconds after each invoice they create.
//! Retries (about 2% of creates): the Save POST sent twice 60-300 ms apart, both validated before either committed, so
//! both carry the prefilled number; an integration re-posting after its client timeout, 10-60 s later, some once more
//! 20-120 s after, each attempt with the next number it reads first; a shop webhook delivered twice (the same number);
//! two forced in the last day. Someone deletes or cancels the extra invoice, or it is left; the integration pays the
//! attempt whose response it got, the others stay "sent".
//! Legitimate repeats: `recurring:check` at 09:00 clones each template once per period (type without "-recurring",
//! `parent_id` the template, `issued_at` the schedule date at midnight, `due_at` as many days on, a new number, status
//! "draft" then "sent"/"received" at once when it sends itself; `created_by` and everything else copied), catching up
//! on missed periods in one run (the cron host was down three days; templates started in the past); the invoice import
//! (rows ms apart in one queued job, numbers, statuses and dates from the file, midnight times, `title` "invoice" when
//! the file has none) with identical invoices under two numbers; the "duplicate" action (a clone: new number, status
//! "draft", dates and `created_from`/`created_by` copied), used right away or days later, often edited at once (new
//! dates; another customer or vendor makes it a plain near-repeat). Plain near-repeats: a second invoice for the same
//! customer minutes later with other lines, the same monthly bill entered for another vendor.
//! Guessed (not in the repository): the table prefix left out (installs use a random one); Laravel 10's SQLite types
//! (`float` for double) and the `document_items` table as Doctrine rebuilt it on SQLite for v307's `change()`; the
//! server clock in UTC; companies, contacts, prices, rates; the integrations reading the next number before each POST;
//! the clients' timeouts; how often people send, pay, delete. `document_item_taxes`, `document_totals`,
//! `document_histories` and `recurring` rows are not written.
use super::{Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, day, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Sqlite];

/// The tables as the migrations leave them, no foreign keys (Akaunting declares none on these).
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL.to_string(),
        Engine::Sqlite => SQLITE.to_string(),
        Engine::Postgres => unreachable!("this fixture covers Akaunting on MySQL/MariaDB and SQLite"),
    }
}

const MYSQL: &str = r#"CREATE TABLE `documents` (
  `id` int(10) unsigned NOT NULL AUTO_INCREMENT, `company_id` int(10) unsigned NOT NULL, `type` varchar(191) NOT NULL,
  `document_number` varchar(191) NOT NULL, `order_number` varchar(191) DEFAULT NULL, `status` varchar(191) NOT NULL,
  `issued_at` datetime NOT NULL, `due_at` datetime NOT NULL, `amount` double(15,4) NOT NULL,
  `currency_code` varchar(191) NOT NULL, `currency_rate` double(15,8) NOT NULL, `discount_type` varchar(191) DEFAULT NULL,
  `discount_rate` double(15,4) DEFAULT NULL, `category_id` int(10) unsigned NOT NULL DEFAULT 1,
  `contact_id` int(10) unsigned NOT NULL, `contact_name` varchar(191) NOT NULL, `contact_email` varchar(191) DEFAULT NULL,
  `contact_tax_number` varchar(191) DEFAULT NULL, `contact_phone` varchar(191) DEFAULT NULL, `contact_address` text DEFAULT NULL,
  `contact_city` varchar(191) DEFAULT NULL, `contact_zip_code` varchar(191) DEFAULT NULL, `contact_state` varchar(191) DEFAULT NULL,
  `contact_country` varchar(191) DEFAULT NULL, `title` varchar(191) DEFAULT NULL, `subheading` varchar(191) DEFAULT NULL,
  `notes` text DEFAULT NULL, `footer` text DEFAULT NULL, `template` varchar(191) DEFAULT NULL, `color` varchar(191) DEFAULT NULL,
  `parent_id` int(10) unsigned NOT NULL DEFAULT 0, `created_from` varchar(100) DEFAULT NULL,
  `created_by` int(10) unsigned DEFAULT NULL, `created_at` timestamp NULL DEFAULT NULL,
  `updated_at` timestamp NULL DEFAULT NULL, `deleted_at` timestamp NULL DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `documents_document_number_deleted_at_company_id_type_unique` (`document_number`,`deleted_at`,`company_id`,`type`),
  KEY `documents_company_id_index` (`company_id`), KEY `documents_type_index` (`type`),
  KEY `documents_contact_id_index` (`contact_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE `document_items` (
  `id` int(10) unsigned NOT NULL AUTO_INCREMENT, `company_id` int(10) unsigned NOT NULL, `type` varchar(191) NOT NULL,
  `document_id` int(10) unsigned NOT NULL, `item_id` int(10) unsigned DEFAULT NULL, `category_id` int(10) unsigned DEFAULT NULL,
  `name` varchar(191) NOT NULL, `description` text DEFAULT NULL, `sku` varchar(191) DEFAULT NULL, `quantity` double NOT NULL,
  `price` double(15,4) NOT NULL, `tax` double(15,4) NOT NULL DEFAULT 0.0000,
  `discount_type` varchar(191) NOT NULL DEFAULT 'normal', `discount_rate` double(15,4) NOT NULL DEFAULT 0.0000,
  `total` double(15,4) NOT NULL, `created_from` varchar(100) DEFAULT NULL, `created_by` int(10) unsigned DEFAULT NULL,
  `created_at` timestamp NULL DEFAULT NULL, `updated_at` timestamp NULL DEFAULT NULL, `deleted_at` timestamp NULL DEFAULT NULL,
  PRIMARY KEY (`id`), KEY `document_items_company_id_index` (`company_id`), KEY `document_items_type_index` (`type`),
  KEY `document_items_document_id_index` (`document_id`), KEY `document_items_category_id_index` (`category_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci"#;

const SQLITE: &str = r#"CREATE TABLE "documents" ("id" integer not null primary key autoincrement, "company_id" integer not null,
  "type" varchar not null, "document_number" varchar not null, "order_number" varchar, "status" varchar not null,
  "issued_at" datetime not null, "due_at" datetime not null, "amount" float not null, "currency_code" varchar not null,
  "currency_rate" float not null, "category_id" integer not null default '1', "contact_id" integer not null,
  "contact_name" varchar not null, "contact_email" varchar, "contact_tax_number" varchar, "contact_phone" varchar,
  "contact_address" text, "contact_city" varchar, "contact_zip_code" varchar, "contact_state" varchar,
  "contact_country" varchar, "notes" text, "footer" text, "parent_id" integer not null default '0', "created_from" varchar,
  "created_by" integer, "created_at" datetime, "updated_at" datetime, "deleted_at" datetime, "title" varchar,
  "subheading" varchar, "template" varchar, "color" varchar, "discount_type" varchar, "discount_rate" float);
create index "documents_company_id_index" on "documents" ("company_id");
create index "documents_type_index" on "documents" ("type");
create unique index "documents_document_number_deleted_at_company_id_type_unique" on "documents" ("document_number", "deleted_at", "company_id", "type");
create index "documents_contact_id_index" on "documents" ("contact_id");
CREATE TABLE "document_items" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "company_id" INTEGER NOT NULL,
  "type" VARCHAR(255) NOT NULL, "document_id" INTEGER NOT NULL, "item_id" INTEGER DEFAULT NULL, "name" VARCHAR(255) NOT NULL,
  "description" CLOB DEFAULT NULL, "sku" VARCHAR(255) DEFAULT NULL, "quantity" DOUBLE PRECISION NOT NULL,
  "price" DOUBLE PRECISION NOT NULL, "tax" DOUBLE PRECISION DEFAULT '0.0000' NOT NULL,
  "discount_type" VARCHAR(255) DEFAULT 'normal' NOT NULL, "discount_rate" DOUBLE PRECISION DEFAULT '0.0000' NOT NULL,
  "total" DOUBLE PRECISION NOT NULL, "created_from" VARCHAR(100) DEFAULT NULL, "created_by" INTEGER DEFAULT NULL,
  "created_at" DATETIME DEFAULT NULL, "updated_at" DATETIME DEFAULT NULL, "deleted_at" DATETIME DEFAULT NULL,
  "category_id" integer);
CREATE INDEX "document_items_company_id_index" ON "document_items" ("company_id");
CREATE INDEX "document_items_type_index" ON "document_items" ("type");
CREATE INDEX "document_items_document_id_index" ON "document_items" ("document_id");
create index "document_items_category_id_index" on "document_items" ("category_id")"#;

const COLUMNS: &str = "id company_id type document_number order_number status issued_at due_at amount currency_code \
    currency_rate discount_type discount_rate category_id contact_id contact_name contact_email contact_tax_number \
    contact_phone contact_address contact_city contact_zip_code contact_state contact_country title subheading notes \
    footer template color parent_id created_from created_by created_at updated_at deleted_at";
#[rustfmt::skip]
const ITEM_COLUMNS: &[&str] = &[
    "id", "company_id", "type", "document_id", "item_id", "category_id", "name", "description", "sku", "quantity",
    "price", "tax", "discount_type", "discount_rate", "total", "created_from", "created_by", "created_at",
    "updated_at", "deleted_at",
];

const NOW: i64 = T0;
const START: i64 = T0 - 45 * DAY;
const ID0: i64 = 40_118;
const ITEM0: i64 = 97_532;
const COMPANIES: usize = 32;
/// Creates per hour of the day (UTC), relative: companies in Europe and North America.
const RHYTHM: [i64; 24] = [2, 1, 1, 1, 1, 2, 4, 7, 10, 11, 11, 10, 9, 10, 11, 11, 10, 9, 8, 7, 6, 5, 4, 3];
const TYPES: [&str; 4] = ["invoice", "bill", "invoice-recurring", "bill-recurring"];
/// The first of July, August and September 2026.
const MONTHS: [i64; 3] = [T0 - 92 * DAY, T0 - 61 * DAY, T0 - 30 * DAY];
/// The cron host was down these days: no `recurring:check` ran until the day after.
const CRON_DOWN: (i64, i64) = (T0 - 19 * DAY, T0 - 17 * DAY);
/// Invoice imports of companies moving in: (company, day in the window, rows, the old numbers' prefix, title).
const IMPORTS: [(usize, i64, i64, &str, &str); 3] =
    [(23, 6, 48, "#", "invoice"), (19, 21, 31, "2025-", "Invoice"), (28, 37, 66, "A-", "invoice")];

const CURRENCIES: [&str; 5] = ["USD", "EUR", "GBP", "CAD", "AUD"];
const USD_RATE: [f64; 5] = [1.0, 0.9254, 0.7862, 1.3841, 1.5327];
const COUNTRIES: [&str; 5] = ["US", "DE", "GB", "CA", "AU"];
const SUFFIXES: [&str; 5] = ["LLC", "GmbH", "Ltd", "Inc.", "Pty Ltd"];
const TLDS: [&str; 5] = ["com", "de", "co.uk", "ca", "com.au"];
const DIAL: [&str; 5] = ["1", "49", "44", "1", "61"];
#[rustfmt::skip]
const CITIES: [&[(&str, Option<&str>)]; 5] = [
    &[("Austin", Some("TX")), ("Denver", Some("CO")), ("Portland", Some("OR")), ("Columbus", Some("OH")),
        ("Raleigh", Some("NC"))],
    &[("Berlin", None), ("München", Some("Bayern")), ("Hamburg", None), ("Köln", Some("Nordrhein-Westfalen")),
        ("Leipzig", Some("Sachsen"))],
    &[("London", None), ("Manchester", None), ("Leeds", Some("West Yorkshire")), ("Bristol", None)],
    &[("Toronto", Some("ON")), ("Vancouver", Some("BC")), ("Calgary", Some("AB")), ("Ottawa", Some("ON"))],
    &[("Sydney", Some("NSW")), ("Melbourne", Some("VIC")), ("Brisbane", Some("QLD")), ("Perth", Some("WA"))],
];
#[rustfmt::skip]
const STREETS: &[&str] =
    &["Market Street", "Hauptstraße", "High Street", "King Street West", "George Street", "Oak Avenue"];
#[rustfmt::skip]
const SURNAMES: &[&str] = &[
    "Keller", "Novak", "Brennan", "Okafor", "Lindqvist", "Moreau", "Castillo", "Whitfield", "Yamada", "Petrov",
    "Haddad", "Fischer", "O'Neill", "Rossi", "Andersen", "Kowalski", "Delgado", "Bauer", "Nakamura", "Sullivan",
    "Janssen", "Duval",
];
const FIRST: &[&str] = &["Anna", "James", "Maria", "Tom", "Sofia", "Lukas", "Emma", "Noah", "Olivia", "Ben"];
#[rustfmt::skip]
const TRADES: &[&str] = &[
    "Logistics", "Dental", "Studio", "Bakery", "Architects", "Consulting", "Motors", "Print", "Landscaping", "Media",
    "Legal", "Coffee", "Events", "Software", "Physio", "Joinery",
];
#[rustfmt::skip]
const PRODUCTS: &[(&str, f64)] = &[
    ("Website maintenance (monthly)", 240.0), ("Hosting plan - Business", 49.0), ("Logo design", 650.0),
    ("Annual support contract", 1_200.0), ("Photography session", 380.0), ("SEO audit", 900.0),
    ("Printed flyers (500)", 145.0), ("Catering platter", 85.0), ("Repair labour (hour)", 72.5),
    ("Spare parts kit", 36.9),
    ("Training workshop (day)", 1_450.0), ("Software licence (seat)", 29.0), ("Delivery charge", 15.0),
    ("Consulting retainer", 2_000.0), ("Cleaning service", 160.0), ("Equipment rental (week)", 310.0),
];
const SERVICES: &[&str] = &["Consulting", "Development", "Design work", "Project management", "On-site support"];
#[rustfmt::skip]
const BILL_LINES: &[(&str, f64)] = &[
    ("Office rent", 1_800.0), ("Internet & phone", 89.9), ("Cloud hosting", 214.37), ("Software subscription", 59.0),
    ("Electricity", 173.2), ("Accounting services", 450.0), ("Courier", 38.5), ("Office supplies", 112.4),
    ("Insurance premium", 265.0), ("Fuel", 96.3),
];
const NOTES: &[&str] = &[
    "Thank you for your business!",
    "Please include the invoice number with your payment.",
    "Payment is due within the terms above. Late payments may incur a fee.",
];
const FOOTERS: &[&str] = &[
    "Bank transfer: IBAN DE89 3704 0044 0532 0130 00 - BIC COBADEFFXXX",
    "Payable by ACH: routing 021000021, account 483920174.",
    "Registered in England and Wales No. 09238841. VAT GB 293 1847 55.",
    "ABN 51 824 753 556",
];

#[rustfmt::skip]
struct Contact {
    id: i64, name: String, email: Option<String>, tax: Option<String>, phone: Option<String>, address: String,
    city: &'static str, zip: String, state: Option<&'static str>, cur: usize,
}

/// A company and its settings; `api`: a shop integration's API user, and whether it sends the order's time.
#[rustfmt::skip]
struct Co {
    id: i64, cur: usize, prefix: [String; 4], digits: usize, next: [i64; 4], title: Option<&'static str>,
    sub: Option<String>, notes: Option<&'static str>, footer: Option<&'static str>, terms: i64, template: &'static str,
    color: &'static str, tax: f64, rate: f64, users: Vec<i64>, api: Option<(i64, bool)>, customers: Vec<Contact>,
    vendors: Vec<Contact>, products: Vec<(i64, &'static str, f64)>,
}

#[derive(Clone)]
struct Line {
    item: i64,
    name: String,
    desc: String,
    qty: f64,
    price: f64,
}

#[derive(Clone, Copy, PartialEq)]
#[rustfmt::skip]
enum Src { Web, Api, Import, Recur, Dup }

/// `Next`: the company's next number for the type when the row is written; `Same`: the number another row got.
#[derive(Clone)]
#[rustfmt::skip]
enum Num { Next, Fixed(String), Same(usize) }

#[derive(Clone, Copy)]
#[rustfmt::skip]
enum Parent { No, Id(i64), Uid(usize) }

/// What becomes of a row: its own life, or, for a retry's pair, left as created, deleted or cancelled.
#[derive(Clone, Copy, PartialEq)]
#[rustfmt::skip]
enum Fate { Normal, Left, Deleted, Cancelled }

/// A create: `day` the date the client sent, `clock` the time of day the row keeps (None: the request's own), `due`
/// days on; `lean`: the integration sends the contact's name, email and address only; `edit`: a clone edited at once.
#[derive(Clone)]
#[rustfmt::skip]
struct Doc {
    at: i64, co: usize, kind: usize, src: Src, num: Num, order: Option<String>, status: &'static str, day: i64,
    clock: Option<i64>, due: i64, contact: usize, lean: bool, lines: Vec<Line>, disc: Option<f64>, cat: i64,
    title: Option<String>, sub: Option<String>, notes: Option<String>, footer: Option<String>,
    template: Option<&'static str>, color: Option<&'static str>, parent: Parent, from: &'static str, by: i64,
    auto_send: bool, mark: Mark, fate: Fate, edit: Option<i64>,
}

/// A recurring template: monthly on `dom` from `first`, or weekly from `first`; `done` its last schedule created.
#[rustfmt::skip]
struct Tpl { doc: Doc, parent: Parent, created: i64, weekly: bool, first: i64, dom: i64, done: i64 }

fn tod(us: i64) -> i64 {
    us.rem_euclid(DAY) / SECOND
}

/// An invoice or an invoice template (else a bill or a bill template).
fn is_sale(kind: usize) -> bool {
    matches!(kind, 0 | 2)
}

fn r2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn add(docs: &mut Vec<Doc>, d: Doc) -> usize {
    docs.push(d);
    docs.len() - 1
}

fn contact(r: &mut Rng, id: i64, cur: usize) -> Contact {
    let (city, state) = r.one(CITIES[cur]);
    let sur = r.one(SURNAMES);
    let name = if r.chance(0.2) {
        format!("{} {sur}", r.one(FIRST))
    } else {
        format!("{sur} {} {}", r.one(TRADES), SUFFIXES[cur])
    };
    let host: String = sur.to_lowercase().chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    let zip = match cur {
        2 => format!("{}{} {}AB", r.one(&["SW", "EC", "M", "LS", "BS"]), r.range(1, 20), r.range(1, 9)),
        3 => format!("M{}V {}T{}", r.range(1, 9), r.range(1, 9), r.range(1, 9)),
        4 => r.range(2_000, 6_999).to_string(),
        _ => format!("{:05}", r.range(10_000, 99_999)),
    };
    Contact {
        id,
        name,
        email: r
            .chance(0.85)
            .then(|| format!("{}@{host}{}.{}", r.one(&["billing", "accounts", "info"]), id % 97, TLDS[cur])),
        tax: (cur != 0 && r.chance(0.5)).then(|| format!("{}{}", COUNTRIES[cur], r.range(100_000_000, 999_999_999))),
        phone: r.chance(0.6).then(|| format!("+{} {} {}", DIAL[cur], r.range(100, 999), r.range(1_000, 9_999))),
        address: format!("{} {}", r.range(1, 400), r.one(STREETS)),
        city,
        zip,
        state,
        cur,
    }
}

fn company(r: &mut Rng, k: usize) -> Co {
    let id = 1 + k as i64;
    let cur: usize = r.one(&[0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4]);
    let inv = match r.below(7) {
        0 => "2026-".to_string(),
        1 => format!("{}-INV-", ["AC", "NB", "KS", "MR"][k % 4]),
        _ => "INV-".to_string(),
    };
    let tax = match cur {
        0 => r.one(&[0.0, 0.0, 0.0825, 0.06]),
        1 => r.one(&[0.19, 0.19, 0.07]),
        2 => 0.2,
        3 => r.one(&[0.13, 0.05]),
        _ => 0.1,
    };
    let scale = r.range(80, 130) as f64 / 100.0;
    let mut products = Vec::new();
    for (j, &(name, price)) in PRODUCTS.iter().enumerate() {
        if j % 4 == k % 4 || r.chance(0.35) {
            products.push((id * 1_000 + j as i64, name, r2(price * scale)));
        }
    }
    let customers: Vec<Contact> = (0..r.range(8, 45))
        .map(|j| {
            let c = if r.chance(0.85) { cur } else { r.below(5) as usize };
            contact(r, 1_000 + id * 100 + j, c)
        })
        .collect();
    let vendors: Vec<Contact> = (0..r.range(4, 15)).map(|j| contact(r, 20_000 + id * 100 + j, cur)).collect();
    Co {
        id,
        cur,
        prefix: [inv, "BILL-".into(), "RCI-".into(), "RCB-".into()],
        digits: r.one(&[5, 5, 5, 5, 4, 6]),
        next: [r.range(12, 1_400), r.range(3, 700), r.range(2, 40), r.range(1, 18)],
        title: r.one(&[None, None, Some("Invoice"), Some("Tax Invoice")]),
        sub: r.chance(0.15).then(|| format!("VAT Reg. No. {}", r.range(100_000_000, 999_999_999))),
        notes: r.chance(0.4).then(|| r.one(NOTES)),
        footer: r.chance(0.35).then(|| r.one(FOOTERS)),
        terms: r.one(&[0, 7, 14, 15, 30, 30, 30]),
        template: r.one(&["default", "default", "classic", "modern"]),
        color: if r.chance(0.75) { "#55588b" } else { r.one(&["#1e40af", "#0f766e", "#b91c1c", "#374151"]) },
        tax,
        rate: r.range(60, 180) as f64,
        users: (0..r.range(1, 4)).map(|j| 100 + id * 5 + j).collect(),
        api: [0, 3, 7, 12, 18, 25].contains(&k).then(|| (600 + id, r.chance(0.5))),
        customers,
        vendors,
        products,
    }
}

fn lines(r: &mut Rng, co: &Co, sale: bool) -> Vec<Line> {
    let n = if sale { 1 + r.skewed(4) } else { 1 + r.skewed(2) };
    (0..n)
        .map(|_| {
            if !sale {
                let (name, price) = r.one(BILL_LINES);
                let price = if r.chance(0.5) { price } else { r2(price * r.range(70, 130) as f64 / 100.0) };
                Line { item: 0, name: name.to_string(), desc: String::new(), qty: 1.0, price }
            } else if r.chance(0.7) {
                let (item, name, price) = r.one(&co.products);
                let qty = r.one(&[1.0, 1.0, 1.0, 2.0, 3.0, 5.0, 10.0, 12.0]);
                Line { item, name: name.to_string(), desc: String::new(), qty, price }
            } else {
                let desc = format!("{} and {} work", r.one(WORDS), r.one(WORDS));
                let qty = r.one(&[1.5, 2.0, 4.0, 6.5, 8.0, 16.0]);
                Line { item: 0, name: r.one(SERVICES).to_string(), desc, qty, price: co.rate }
            }
        })
        .collect()
}

/// A new document as the form posts it, the company's settings filled in.
fn fresh(r: &mut Rng, cos: &[Co], ci: usize, kind: usize, at: i64) -> Doc {
    let co = &cos[ci];
    let sale = is_sale(kind);
    let n = if sale { co.customers.len() } else { co.vendors.len() };
    let cat = if !sale {
        co.id * 100 + 10 + r.range(0, 5)
    } else if r.chance(0.85) {
        co.id * 100 + 1
    } else {
        co.id * 100 + r.range(2, 4)
    };
    let notes = if sale && r.chance(0.12) {
        Some(sentence(r, 6))
    } else if sale {
        co.notes.map(str::to_string)
    } else {
        r.chance(0.05).then(|| sentence(r, 5))
    };
    Doc {
        at,
        co: ci,
        kind,
        src: Src::Web,
        num: Num::Next,
        order: (sale && r.chance(0.1)).then(|| format!("PO-{}", r.range(1_000, 99_999))),
        status: "draft",
        day: day(at),
        clock: None,
        due: if r.chance(0.85) { co.terms } else { r.one(&[0, 7, 14, 30, 45]) },
        contact: r.skewed(n as u64) as usize,
        lean: false,
        lines: lines(r, co, sale),
        disc: (sale && r.chance(0.07)).then(|| r.one(&[5.0, 10.0, 15.0])),
        cat,
        title: if sale { co.title.map(str::to_string) } else { None },
        sub: if sale { co.sub.clone() } else { None },
        notes,
        footer: if sale { co.footer.map(str::to_string) } else { None },
        template: Some(if sale { co.template } else { "default" }),
        color: Some(if sale { co.color } else { "#55588b" }),
        parent: Parent::No,
        from: "core::ui",
        by: co.users[r.skewed(co.users.len() as u64) as usize],
        auto_send: false,
        mark: Mark::Plain,
        fate: Fate::Normal,
        edit: None,
    }
}

/// The "duplicate" action: a clone with the next number, status draft, everything else copied; often edited at once.
fn dup(r: &mut Rng, cos: &[Co], src: &Doc, at: i64) -> Doc {
    let clock = Some(src.clock.unwrap_or(tod(src.at)));
    let mut d = Doc { at, src: Src::Dup, num: Num::Next, status: "draft", clock, mark: Mark::Legit, ..src.clone() };
    (d.fate, d.edit, d.auto_send) = (Fate::Normal, None, false);
    let e = at + r.range(20, 300) * SECOND;
    if r.chance(0.55) && e < NOW {
        (d.edit, d.day, d.clock) = (Some(e), day(e), Some(tod(e)));
        let n = if is_sale(d.kind) { cos[d.co].customers.len() } else { cos[d.co].vendors.len() };
        let c = r.below(n as u64) as usize;
        if r.chance(0.35) && c != d.contact {
            // Copied for another customer or vendor: a plain near-repeat.
            (d.contact, d.mark) = (c, Mark::Plain);
        }
    }
    d
}

fn schedules(t: &Tpl) -> Vec<i64> {
    if t.weekly {
        (0..120).map(|k| t.first + 7 * k * DAY).filter(|&s| s < NOW).collect()
    } else {
        MONTHS.iter().map(|m| m + (t.dom - 1) * DAY).filter(|&s| s >= t.first && s < NOW).collect()
    }
}

/// What a row holds now; `edited`: a web edit, when, and how many days the due date moved.
struct Life {
    status: &'static str,
    updated: i64,
    deleted: Option<i64>,
    edited: Option<(i64, i64)>,
}

fn life(r: &mut Rng, d: &Doc) -> Life {
    let updated = match (d.src, d.edit) {
        (_, Some(e)) => e,
        (Src::Import | Src::Recur, _) => d.at,
        _ => d.at + r.range(30, 400) * 1_000,
    };
    let mut l = Life { status: d.status, updated, deleted: None, edited: None };
    let end = d.at + r.range(15 * 60, 2 * 86_400) * SECOND;
    match d.fate {
        Fate::Normal => {}
        Fate::Left => return l,
        Fate::Deleted | Fate::Cancelled if end < NOW => {
            l.updated = end;
            if d.fate == Fate::Deleted {
                l.deleted = Some(end)
            } else {
                l.status = "cancelled"
            }
            return l;
        }
        _ => return l,
    }
    if d.kind >= 2 || d.src == Src::Import {
        return l;
    }
    let sale = d.kind == 0;
    let (mut s, mut u) = (d.status, l.updated);
    if d.src == Src::Api && r.chance(0.9) {
        let a = u + r.range(3, 25) * SECOND;
        if a < NOW {
            (s, u) = ("paid", a);
        }
    } else if d.src == Src::Recur && d.auto_send {
        (s, u) = (if sale { "sent" } else { "received" }, d.at + r.range(1, 4) * SECOND);
    }
    if s == "draft" {
        let wait = if r.chance(0.3) { r.range(20, 600) } else { r.range(600, 3 * 86_400) };
        if r.chance(if sale { 0.82 } else { 0.75 }) {
            if u + wait * SECOND < NOW {
                (s, u) = (if sale { "sent" } else { "received" }, u + wait * SECOND);
            }
        } else if r.chance(0.06) && u + wait * 4 * SECOND < NOW {
            u += wait * 4 * SECOND;
            l.deleted = Some(u);
        }
    }
    if s == "sent" && sale && d.src != Src::Api && r.chance(0.4) {
        let a = u + r.range(600, 2 * 86_400) * SECOND;
        if a < NOW {
            (s, u) = ("viewed", a);
        }
    }
    if ["sent", "viewed", "received"].contains(&s) {
        let a = u + r.range(86_400, 25 * 86_400) * SECOND;
        if r.chance(0.6) && a < NOW {
            (s, u) = (if r.chance(0.08) { "partial" } else { "paid" }, a);
        } else if s == "sent" && r.chance(0.03) && a < NOW {
            (s, u) = ("cancelled", a);
        }
    }
    if matches!(d.src, Src::Web | Src::Dup) && r.chance(0.04) {
        let e = d.at + r.range(30 * 60, 4 * 86_400) * SECOND;
        if e < NOW {
            l.edited = Some((e, r.one(&[7, 14])));
            u = u.max(e);
        }
    }
    (l.status, l.updated) = (s, u);
    l
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(3_301);
    let cos: Vec<Co> = (0..COMPANIES).map(|k| company(&mut r, k)).collect();
    let mut docs: Vec<Doc> = Vec::new();
    let mut by_co: Vec<Vec<usize>> = vec![Vec::new(); COMPANIES];
    // Recurring templates from before the window: monthly on a day of the month, or weekly.
    let mut tpls: Vec<Tpl> = Vec::new();
    for ci in 0..COMPANIES {
        let n = if ci < 12 { r.range(1, 6) } else { r.range(0, 2) };
        for _ in 0..n {
            let born = START - r.range(20, 400) * DAY + r.range(8 * 3_600, 18 * 3_600) * SECOND;
            let kind = if r.chance(0.75) { 2 } else { 3 };
            let mut doc = fresh(&mut r, &cos, ci, kind, born);
            doc.auto_send = r.chance(if kind == 2 { 0.6 } else { 0.3 });
            let weekly = r.chance(0.15);
            let parent = Parent::Id(ID0 - 5_000 + 41 * tpls.len() as i64);
            let first = if weekly { day(born) } else { MONTHS[0] };
            tpls.push(Tpl { doc, parent, created: born, weekly, first, dom: r.range(1, 28), done: START - DAY });
        }
    }
    let mut shop: Vec<i64> = (0..COMPANIES as i64).map(|k| 10_000 + 1_000 * k).collect();
    let mut refs = 0_i64;
    let mut late = [false; 2];
    let mut t = START + 7 * HOUR;
    loop {
        let before = (T0 - day(t)) / DAY;
        let mut gap = r.range(30, 2_400) * SECOND * 10 / RHYTHM[(t / HOUR % 24) as usize];
        if (t / DAY + 3) % 7 >= 5 {
            gap *= 4;
        }
        if [1, 2, 3, 30, 31, 32].contains(&before) {
            gap = gap * 2 / 3;
        }
        t += gap + r.below(1_000_000) as i64;
        if t >= NOW - 3 * MINUTE {
            break;
        }
        let ci = r.skewed(COMPANIES as u64) as usize;
        if let Some((user, timed)) = cos[ci].api.filter(|_| r.chance(0.45)) {
            // The shop integration: an invoice per order, marked sent, then paid.
            let mut d = fresh(&mut r, &cos, ci, 0, t);
            shop[ci] += 1 + r.below(3) as i64;
            let placed = t - r.range(5, 900) * SECOND;
            (d.src, d.from, d.by, d.lean, d.status, d.due) = (Src::Api, "core::api", user, true, "sent", 0);
            (d.order, d.cat, d.disc, d.notes) = (Some(format!("#{}", shop[ci])), cos[ci].id * 100 + 1, None, None);
            (d.title, d.sub, d.footer, d.template, d.color) = (None, None, None, None, None);
            if timed {
                (d.day, d.clock) = (day(placed), Some(tod(placed)));
            }
            let u = add(&mut docs, d.clone());
            by_co[ci].push(u);
            let forced = !late[1] && t > NOW - 22 * HOUR;
            let x = r.below(1_000);
            if forced || x < 70 {
                // Timed out: posted again with the next number it read; paid the attempt it heard back from.
                late[1] |= forced;
                docs[u].fate = r.one(&[Fate::Left, Fate::Left, Fate::Deleted, Fate::Cancelled]);
                let a1 = t + r.range(10_000, 60_000) * 1_000;
                let c = add(&mut docs, Doc { at: a1, mark: Mark::Retry, ..d.clone() });
                if r.chance(0.35) {
                    docs[c].fate = r.one(&[Fate::Left, Fate::Deleted]);
                    add(&mut docs, Doc { at: a1 + r.range(20_000, 120_000) * 1_000, mark: Mark::Retry, ..d.clone() });
                }
            } else if x < 85 {
                // The order webhook delivered twice: both runs read the same next number.
                add(&mut docs, Doc { at: t + r.range(50, 400) * 1_000, num: Num::Same(u), mark: Mark::Retry, ..d });
            }
            continue;
        }
        let y = r.below(100);
        if y < 3 {
            // A recurring template: starting today, backdated (the first run catches up), or next month.
            let kind = if r.chance(0.7) { 2 } else { 3 };
            let mut doc = fresh(&mut r, &cos, ci, kind, t);
            doc.auto_send = r.chance(0.5);
            let u = add(&mut docs, doc.clone());
            let first = match r.below(10) {
                0..=6 => day(t),
                7 | 8 => (day(t) - r.range(20, 60) * DAY).max(MONTHS[0]),
                _ => NOW,
            };
            let month = MONTHS.iter().rev().find(|&&m| m <= first).copied().unwrap_or(MONTHS[0]);
            let dom = ((first - month) / DAY + 1).min(28);
            let parent = Parent::Uid(u);
            tpls.push(Tpl { doc, parent, created: t, weekly: r.chance(0.15), first, dom, done: i64::MIN });
            continue;
        }
        if y < 7 && !by_co[ci].is_empty() {
            // Duplicated days later for the next period.
            let list = &by_co[ci];
            let s = list[list.len() - 1 - r.skewed(list.len().min(40) as u64) as usize];
            let d = dup(&mut r, &cos, &docs[s], t);
            add(&mut docs, d);
            continue;
        }
        let kind = if y < 66 { 0 } else { 1 };
        let mut d = fresh(&mut r, &cos, ci, kind, t);
        if kind == 1 && r.chance(0.4) {
            // The vendor's own number typed over the prefilled one.
            refs += 1;
            d.num = Num::Fixed(format!("{}{}", r.one(&["INV", "", "#", "F-", "R"]), 40_000 + 13 * refs));
        } else if kind == 0 && r.chance(0.12) {
            d.day -= r.range(1, 10) * DAY;
        }
        let u = add(&mut docs, d.clone());
        by_co[ci].push(u);
        let forced = !late[0] && t > NOW - 20 * HOUR;
        if forced || r.below(1_000) < 11 {
            // Save sent twice; both passed validation before either committed.
            late[0] |= forced;
            let c = add(&mut docs, Doc { at: t + r.range(60, 300) * 1_000, num: Num::Same(u), mark: Mark::Retry, ..d });
            let victim = if r.chance(0.7) { c } else { u };
            docs[victim].fate = r.one(&[Fate::Deleted, Fate::Deleted, Fate::Deleted, Fate::Cancelled, Fate::Left]);
        } else if r.chance(0.025) {
            // Duplicated straight away, to make the next one like it.
            let at = t + r.range(25, 110) * SECOND;
            let c = dup(&mut r, &cos, &d, at);
            add(&mut docs, c);
        } else if r.chance(0.03) {
            // Another one minutes later: the same customer with other lines, the same bill for another vendor.
            let mut e = Doc { at: t + r.range(3 * 60, 25 * 60) * SECOND, ..d };
            if kind == 0 {
                (e.lines, e.order) = (lines(&mut r, &cos[ci], true), None);
            } else {
                e.contact = (e.contact + 1 + r.below(3) as usize) % cos[ci].vendors.len();
                if matches!(e.num, Num::Fixed(_)) {
                    refs += 1;
                    e.num = Num::Fixed(format!("R{}", 40_000 + 13 * refs));
                }
            }
            if e.at < NOW - MINUTE {
                let v = add(&mut docs, e);
                by_co[ci].push(v);
            }
        }
    }
    // Imports: one queued job, row after row; a row equal to the one before but for its number is an invoice billed
    // twice on purpose.
    for &(ci, off, n, pre, title) in &IMPORTS {
        let mut at = START + off * DAY + r.range(9 * 3_600, 16 * 3_600) * SECOND;
        let mut prev: Option<Doc> = None;
        for k in 0..n {
            let num = Num::Fixed(format!("{pre}{}", 1_000 + k));
            let d = match &prev {
                Some(p) if r.chance(0.08) => Doc { at, num, mark: Mark::Legit, ..p.clone() },
                _ => {
                    let mut d = fresh(&mut r, &cos, ci, 0, at);
                    (d.src, d.from, d.by, d.num, d.clock) =
                        (Src::Import, "core::import", cos[ci].users[0], num, Some(0));
                    d.day = START + off * DAY - r.range(3, 200) * DAY;
                    let old = (START + off * DAY - d.day) / DAY > 45;
                    d.status = if old {
                        r.one(&["paid", "paid", "paid", "cancelled"])
                    } else {
                        r.one(&["paid", "sent", "partial", "draft"])
                    };
                    (d.due, d.cat, d.title, d.sub) =
                        (r.one(&[14, 30]), cos[ci].id * 100 + 1, Some(title.to_string()), None);
                    (d.notes, d.footer, d.disc, d.order) = (None, None, None, None);
                    d.contact = r.below(cos[ci].customers.len() as u64) as usize;
                    d
                }
            };
            prev = Some(d.clone());
            add(&mut docs, d);
            at += r.range(20_000, 90_000);
        }
    }
    // recurring:check at 09:00, template after template, each due schedule up to today once.
    let mut today = START;
    while today + 9 * HOUR < NOW {
        let run = today + 9 * HOUR;
        if !(CRON_DOWN.0..=CRON_DOWN.1).contains(&today) {
            let mut at = run + r.range(1_000, 4_000) * 1_000;
            for tp in tpls.iter_mut().filter(|tp| tp.created < run) {
                for s in schedules(tp) {
                    if s > today {
                        break;
                    }
                    if s <= tp.done {
                        continue;
                    }
                    tp.done = s;
                    let (kind, parent) = (tp.doc.kind - 2, tp.parent);
                    let c = Doc {
                        at,
                        src: Src::Recur,
                        kind,
                        num: Num::Next,
                        status: "draft",
                        day: s,
                        clock: Some(0),
                        ..tp.doc.clone()
                    };
                    add(&mut docs, Doc { parent, from: "core::recurring", mark: Mark::Legit, edit: None, ..c });
                    at += r.range(300, 2_500) * 1_000;
                }
            }
        }
        today += DAY;
    }

    let mut order: Vec<usize> = (0..docs.len()).filter(|&u| docs[u].at < NOW).collect();
    order.sort_by_key(|&u| (docs[u].at, u));
    let mut id_of = vec![0_i64; docs.len()];
    for (k, &u) in order.iter().enumerate() {
        id_of[u] = ID0 + k as i64;
    }
    // Numbers in insert order: every create but an import's bumps the company's next number for the type.
    let mut next: Vec<[i64; 4]> = cos.iter().map(|c| c.next).collect();
    let mut number = vec![String::new(); docs.len()];
    for &u in &order {
        let d = &docs[u];
        let n = next[d.co][d.kind];
        let s = match &d.num {
            Num::Next => format!("{}{n:0w$}", cos[d.co].prefix[d.kind], w = cos[d.co].digits),
            Num::Fixed(s) => s.clone(),
            Num::Same(o) => number[*o].clone(),
        };
        number[u] = s;
        if d.src != Src::Import {
            next[d.co][d.kind] = n + 1;
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("documents", &columns);
    let mut items = Child::new("document_items", ITEM_COLUMNS);
    for &u in &order {
        let (d, id) = (&docs[u], id_of[u]);
        let co = &cos[d.co];
        let c = if is_sale(d.kind) { &co.customers[d.contact] } else { &co.vendors[d.contact] };
        let l = life(&mut r, d);
        let mut issued = d.day + d.clock.unwrap_or(tod(d.at)) * SECOND;
        let mut due = issued + d.due * DAY;
        if let Some((e, more)) = l.edited {
            issued = d.day + tod(e) * SECOND;
            due = issued + (d.due + more) * DAY;
        }
        let cur = if d.lean { co.cur } else { c.cur };
        let rate = (USD_RATE[cur] / USD_RATE[co.cur] * 10_000.0).round() / 10_000.0;
        let pct = d.disc.unwrap_or(0.0) / 100.0;
        let parts: Vec<(f64, f64)> =
            d.lines.iter().map(|x| (r2(x.qty * x.price * (1.0 - pct) * co.tax), r2(x.qty * x.price))).collect();
        let sub: f64 = parts.iter().map(|p| p.1).sum();
        let amount = r2(sub - r2(sub * pct) + parts.iter().map(|p| p.0).sum::<f64>());
        let full = |v: V| if d.lean { V::Null } else { v };
        let parent = match d.parent {
            Parent::No => 0,
            Parent::Id(p) => p,
            Parent::Uid(p) => id_of[p],
        };
        let disc_type = if d.disc.is_some() { V::t("percentage") } else { V::Null };
        #[rustfmt::skip]
        let row = [
            ("id", V::I(id)), ("company_id", V::I(co.id)), ("type", V::t(TYPES[d.kind])),
            ("document_number", V::t(&number[u])), ("order_number", V::opt_t(d.order.as_deref())),
            ("status", V::t(l.status)), ("issued_at", V::AtSecs(issued)), ("due_at", V::AtSecs(due)),
            ("amount", V::F(amount)), ("currency_code", V::t(CURRENCIES[cur])), ("currency_rate", V::F(rate)),
            ("discount_type", disc_type), ("discount_rate", d.disc.map_or(V::Null, V::F)),
            ("category_id", V::I(d.cat)), ("contact_id", V::I(c.id)), ("contact_name", V::t(&c.name)),
            ("contact_email", V::opt_t(c.email.as_deref())), ("contact_tax_number", full(V::opt_t(c.tax.as_deref()))),
            ("contact_phone", full(V::opt_t(c.phone.as_deref()))),
            ("contact_address", V::t(&c.address)), ("contact_city", V::t(c.city)), ("contact_zip_code", V::t(&c.zip)),
            ("contact_state", full(V::opt_t(c.state))), ("contact_country", V::t(COUNTRIES[c.cur])),
            ("title", V::opt_t(d.title.as_deref())), ("subheading", V::opt_t(d.sub.as_deref())),
            ("notes", V::opt_t(d.notes.as_deref())), ("footer", V::opt_t(d.footer.as_deref())),
            ("template", V::opt_t(d.template)), ("color", V::opt_t(d.color)), ("parent_id", V::I(parent)),
            ("created_from", V::t(d.from)), ("created_by", V::I(d.by)), ("created_at", V::AtSecs(d.at)),
            ("updated_at", V::AtSecs(l.updated)), ("deleted_at", l.deleted.map_or(V::Null, V::AtSecs)),
        ];
        f.push(&row);
        f.mark(id, d.mark);
        // The lines: a clone's keep the source's created_from (a recurring copy's say core::ui).
        let from = if d.from == "core::recurring" { "core::ui" } else { d.from };
        for (x, &(tax, total)) in d.lines.iter().zip(&parts) {
            let iid = ITEM0 + items.rows.len() as i64;
            let how = if d.lean { "percent" } else { "percentage" };
            #[rustfmt::skip]
            let row = [
                ("id", V::I(iid)), ("company_id", V::I(co.id)), ("type", V::t(TYPES[d.kind])),
                ("document_id", V::I(id)), ("item_id", V::I(x.item)), ("name", V::t(&x.name)),
                ("description", V::t(&x.desc)),
                ("quantity", V::F(x.qty)), ("price", V::F(x.price)), ("tax", V::F(tax)), ("discount_type", V::t(how)),
                ("discount_rate", V::F(0.0)), ("total", V::F(total)), ("created_from", V::t(from)),
                ("created_by", V::I(d.by)), ("created_at", V::AtSecs(d.at)), ("updated_at", V::AtSecs(d.at)),
                ("deleted_at", l.deleted.map_or(V::Null, V::AtSecs)),
            ];
            items.push(&row);
        }
    }
    f.children.push(items);
    f
}
