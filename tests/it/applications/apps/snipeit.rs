//! Snipe-IT (PHP, Laravel 11 Eloquent; MySQL/MariaDB, and SQLite as its test suite runs it): `assets`, as the web form
//! (`Assets\AssetsController@store`: one request, one row per asset tag typed or added with "+", each with its serial),
//! the "Clone" action (the same form, prefilled), the API (`Api\AssetsController@store`: jamf2snipe, an Intune runbook,
//! a receiving clerk's phone shortcut) and the CSV importer (`AssetImporter`) write it, and as checkouts, checkins,
//! audits, edits, requests and soft deletes change it later: one company (two legal entities, four offices), eight
//! weeks.
//! Read: snipe/snipe-it (5aa5c48, Laravel v11.44.1 in composer.lock) database/migrations/ (the 46 that touch `assets`:
//! 2013_11_15_190327 create, 2013_11_16..2013_11_26, 2014_06_24, 2014_07_09, 2014_10_16, 2015_02_12 (`mac_address`),
//! 2015_07_31, 2015_09_22_003413 (renamed `_snipeit_mac_address`), 2015_10_23, 2015_11_05, 2015_11_08, 2016_08_30,
//! 2016_11_16, 2016_12_27, 2017_01_25 (`_snipeit_mac_address_1`), 2017_08_03, 2017_08_25, 2017_10_20, 2017_10_27,
//! 2017_12_12, 2018_05_14 (both), 2019_02_20, 2021_06_07 (both), 2023_01_18, 2023_01_21, 2023_07_13, 2023_08_17,
//! 2024_09_17 (`user_id` renamed `created_by`), 2016_07_27 and 2017_06_14 (settings: zerofill, next_auto_tag_base),
//! 2018_07_05 (`unique_serial`, default off)); app/Providers/AppServiceProvider.php (`defaultStringLength(191)`);
//! config/database.php (utf8mb4_unicode_ci, strict off); app/Models/Asset.php (`$rules`: `asset_tag`
//! `unique_undeleted`, `serial` too but only when `unique_serial` is on; `$fillable`; casts; the `Attribute` mutators
//! that turn '' into NULL and a date into `Y-m-d H:i:s`; `checkOut`, `autoincrement_asset`); app/Models/SnipeModel.php
//! (`setPurchaseCostAttribute`, `setPurchaseDateAttribute`); app/Models/CustomField.php (a new field adds a `text`
//! column `_snipeit_{slug}_{id}`); app/Models/Loggable.php (`logCheckin` increments `checkin_counter`);
//! app/Observers/AssetObserver.php (`created` moves `next_auto_tag_base` past the tag, or adds one to it for a tag
//! without the prefix; `saving` fills `asset_eol_date` from the model's EOL);
//! app/Providers/ValidationServiceProvider.php (`unique_undeleted`: a count before the insert, no lock, no index);
//! app/Http/Controllers/Assets/AssetsController.php (`store`, `getClone`, `destroy`, `auditStore`),
//! AssetCheckoutController.php, AssetCheckinController.php, BulkAssetsController.php (`destroy` refuses checked-out
//! assets); app/Http/Controllers/Api/AssetsController.php (`store`, `checkout`, `checkin`, `audit`);
//! app/Http/Requests/StoreAssetRequest.php (a missing tag is the next auto-increment one); app/Importer/Importer.php
//! (`import` in one transaction), ItemImporter.php, AssetImporter.php; resources/views/hardware/edit.blade.php (the tag
//! prefilled, "+" adds tag+1 and a serial box; no double-submit guard), layouts/default.blade.php (only the checkout
//! form disables its button); tests/Feature/Importing/Api/ImportAssetsTest.php; grokability/jamf2snipe (jamf2snipe:
//! `create_snipe_asset`, `jamfid-{id}` tags, hourly sync); issues grokability/snipe-it #3669, #638 (the tag "already
//! taken" after a resubmit, the first asset saved), #7583 and #8925 (assets twice), #11755; laravel/framework
//! SQLiteGrammar/BlueprintState (a `->change()` rebuilds the table).
//! On a create: `id` from AUTO_INCREMENT; `asset_tag` the next `IT-00000` number (the form prefills it, "+" adds one
//! per box, the API and the importer take it when none is sent), or the client's own (jamf2snipe's `jamfid-1187`, which
//! adds one to `next_auto_tag_base`: gaps); `created_at` = `updated_at`, whole seconds, in the app's zone
//! (America/New_York); `created_by` the user (NULL from the importer: not fillable); `next_audit_date` today + 12
//! months from the form only; `location_id` = `rtd_location_id` from the form and the importer, NULL from the API;
//! `asset_eol_date` purchase date + the model's EOL months; `notes` and `image` '', `warranty_months` 0 without the
//! column, from the importer; `requestable`, `byod` 0; the fieldset's custom fields NULL when not sent. A checkout on
//! creation (the form, the importer) sets `assigned_to`/`assigned_type`, `last_checkout`, the user's location and
//! `checkout_counter` 1 in the same request, and mails the user.
//! Later: checkouts (`last_checkout`, now or a back-dated day at 00:00:00, `expected_checkin` for loaners, the target's
//! location, `checkout_counter`), checkins (`last_checkin`, the default location back, `checkin_counter`, often a new
//! status), Quick Scan audits floor by floor (`last_audit_date`, `next_audit_date` + 12 months), a pending asset made
//! ready, notes, a corrected cost, jamf2snipe's next run (MAC or IMEI, the computer's new name, the checkout to the
//! Jamf user), requests of loaners (`requests_counter`), soft deletes (`deleted_at` = `updated_at`; a checked-out asset
//! deleted from its page is checked in first by a raw update that keeps `assigned_type`).
//! Retries (about 2% of creates): the web form resubmitted 15-100 s after the "tag already taken" page a double click
//! or a slow mail behind a checkout on creation left (the next tag, the same serial, checked out again); one double
//! submit that beat the uniqueness check (the same tag); the Intune runbook's 30 s timeout and 10 s pause (one or two
//! extra rows, the checkout only on the last); the receiving shortcut's double taps and resends (`client_retry_delay`;
//! a fast one refused, or the next tag, or the same); one CSV import processed again after a 504, every row anew,
//! deleted the next morning; two late in the table. People delete the extra row, or the original, or neither.
//! Legitimate repeats: "+" rows with no serial (headsets, docks, monitors), clones with no serial, an import of
//! identical headsets and docks, an asset deleted by mistake and entered again with its tag.
//! Guessed: the company, its people, offices, models, prices, suppliers, rates and rhythms; the settings (prefix `IT-`,
//! five digits, audits every 12 months, `unique_serial` off, no full company support); the custom fields (RAM, CPU,
//! IMEI); the runbook, the shortcut and the clients' timeouts; who deletes what.
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Sqlite];

/// The table as a fresh install's migrations leave it (strings 191 long on MySQL), with the custom fields made since.
const MYSQL: &str = "CREATE TABLE `assets` (
  `id` int unsigned NOT NULL AUTO_INCREMENT, `name` varchar(191) DEFAULT NULL, `asset_tag` varchar(191) DEFAULT NULL,
  `model_id` int DEFAULT NULL, `serial` varchar(191) DEFAULT NULL, `purchase_date` date DEFAULT NULL,
  `asset_eol_date` date DEFAULT NULL, `eol_explicit` tinyint(1) NOT NULL DEFAULT '0',
  `purchase_cost` decimal(20,2) DEFAULT NULL, `order_number` varchar(191) DEFAULT NULL, `assigned_to` int DEFAULT NULL,
  `notes` text, `image` text, `created_by` int DEFAULT NULL, `created_at` timestamp NULL DEFAULT NULL,
  `updated_at` timestamp NULL DEFAULT NULL, `physical` tinyint(1) NOT NULL DEFAULT '1',
  `deleted_at` timestamp NULL DEFAULT NULL, `status_id` int DEFAULT NULL, `archived` tinyint(1) DEFAULT '0',
  `warranty_months` int DEFAULT NULL, `depreciate` tinyint(1) DEFAULT NULL, `supplier_id` int DEFAULT NULL,
  `requestable` tinyint NOT NULL DEFAULT '0', `rtd_location_id` int DEFAULT NULL,
  `_snipeit_mac_address_1` varchar(191) DEFAULT NULL, `accepted` varchar(191) DEFAULT NULL,
  `last_checkout` datetime DEFAULT NULL, `last_checkin` datetime DEFAULT NULL, `expected_checkin` date DEFAULT NULL,
  `company_id` int unsigned DEFAULT NULL, `assigned_type` varchar(191) DEFAULT NULL,
  `last_audit_date` datetime DEFAULT NULL, `next_audit_date` date DEFAULT NULL, `location_id` int DEFAULT NULL,
  `checkin_counter` int NOT NULL DEFAULT '0', `checkout_counter` int NOT NULL DEFAULT '0',
  `requests_counter` int NOT NULL DEFAULT '0', `byod` tinyint(1) DEFAULT '0', `_snipeit_ram_2` text,
  `_snipeit_cpu_3` text, `_snipeit_imei_4` text,
  PRIMARY KEY (`id`),
  KEY `assets_rtd_location_id_index` (`rtd_location_id`),
  KEY `assets_assigned_type_assigned_to_index` (`assigned_type`,`assigned_to`),
  KEY `assets_created_at_index` (`created_at`),
  KEY `assets_deleted_at_status_id_index` (`deleted_at`,`status_id`),
  KEY `assets_deleted_at_model_id_index` (`deleted_at`,`model_id`),
  KEY `assets_deleted_at_assigned_type_assigned_to_index` (`deleted_at`,`assigned_type`,`assigned_to`),
  KEY `assets_deleted_at_supplier_id_index` (`deleted_at`,`supplier_id`),
  KEY `assets_deleted_at_location_id_index` (`deleted_at`,`location_id`),
  KEY `assets_deleted_at_rtd_location_id_index` (`deleted_at`,`rtd_location_id`),
  KEY `assets_deleted_at_asset_tag_index` (`deleted_at`,`asset_tag`),
  KEY `assets_deleted_at_name_index` (`deleted_at`,`name`),
  KEY `assets_serial_index` (`serial`),
  KEY `assets_company_id_index` (`company_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci";

/// On SQLite the last `->change()` (2019_02_20) rebuilt the table from `pragma table_info`; `after()` is ignored, the
/// renames are in place, later columns are appended.
const SQLITE: &str = r#"CREATE TABLE "assets" ("id" integer primary key autoincrement not null, "name" varchar,
  "asset_tag" varchar, "model_id" integer, "serial" varchar, "purchase_date" date, "purchase_cost" numeric,
  "order_number" varchar, "assigned_to" integer, "notes" text, "created_by" integer, "created_at" datetime,
  "updated_at" datetime, "physical" tinyint(1) not null default ('1'), "deleted_at" datetime, "status_id" integer,
  "archived" tinyint(1) default ('0'), "warranty_months" integer, "depreciate" tinyint(1), "supplier_id" integer,
  "requestable" integer not null default ('0'), "rtd_location_id" integer, "_snipeit_mac_address_1" varchar,
  "accepted" varchar, "last_checkout" datetime, "expected_checkin" date, "image" text, "company_id" integer,
  "assigned_type" varchar, "next_audit_date" date, "location_id" integer, "last_audit_date" datetime,
  "checkin_counter" integer not null default ('0'), "checkout_counter" integer not null default ('0'),
  "requests_counter" integer not null default ('0'), "byod" tinyint(1) default '0', "asset_eol_date" date,
  "eol_explicit" tinyint(1) not null default '0', "last_checkin" datetime, "_snipeit_ram_2" text,
  "_snipeit_cpu_3" text, "_snipeit_imei_4" text);
create index "assets_rtd_location_id_index" on "assets" ("rtd_location_id");
create index "assets_assigned_type_assigned_to_index" on "assets" ("assigned_type", "assigned_to");
create index "assets_created_at_index" on "assets" ("created_at");
create index "assets_deleted_at_status_id_index" on "assets" ("deleted_at", "status_id");
create index "assets_deleted_at_model_id_index" on "assets" ("deleted_at", "model_id");
create index "assets_deleted_at_assigned_type_assigned_to_index" on "assets"
  ("deleted_at", "assigned_type", "assigned_to");
create index "assets_deleted_at_supplier_id_index" on "assets" ("deleted_at", "supplier_id");
create index "assets_deleted_at_location_id_index" on "assets" ("deleted_at", "location_id");
create index "assets_deleted_at_rtd_location_id_index" on "assets" ("deleted_at", "rtd_location_id");
create index "assets_deleted_at_asset_tag_index" on "assets" ("deleted_at", "asset_tag");
create index "assets_deleted_at_name_index" on "assets" ("deleted_at", "name");
create index "assets_serial_index" on "assets" ("serial");
create index "assets_company_id_index" on "assets" ("company_id")"#;

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL.to_string(),
        Engine::Sqlite => SQLITE.to_string(),
        Engine::Postgres => unreachable!("Snipe-IT runs on MySQL/MariaDB (and SQLite in its tests)"),
    }
}

const COLUMNS: &str = "id name asset_tag model_id serial purchase_date asset_eol_date eol_explicit purchase_cost \
    order_number assigned_to notes image created_by created_at updated_at physical deleted_at status_id archived \
    warranty_months depreciate supplier_id requestable rtd_location_id _snipeit_mac_address_1 accepted last_checkout \
    last_checkin expected_checkin company_id assigned_type last_audit_date next_audit_date location_id checkin_counter \
    checkout_counter requests_counter byod _snipeit_ram_2 _snipeit_cpu_3 _snipeit_imei_4";

const NOW: i64 = T0;
const DAYS: i64 = 56;
/// A Thursday, eight weeks before the end.
const START: i64 = T0 - DAYS * DAY;
/// America/New_York in August and September (APP_TIMEZONE): Laravel writes wall times.
const EDT: i64 = 4 * HOUR;
const ID0: i64 = 6_218;
/// `next_auto_tag_base` when the window opens; `auto_increment_prefix` and `zerofill_count` 5.
const TAG0: i64 = 5_431;
const PREFIX: &str = "IT-";
const USER: &str = "App\\Models\\User";
const PLACE: &str = "App\\Models\\Location";
/// Status labels: 1 Pending, 2 Ready to Deploy (the two the 2015 migration made first), 4 Out for Repair.
const PENDING: i64 = 1;
const READY: i64 = 2;
const REPAIR: i64 = 4;
/// The service accounts behind the API tokens, and the receiving clerk.
const JAMF: i64 = 41;
const INTUNE: i64 = 42;
const CLERK: i64 = 15;
/// The IT staff on the web UI: (user, where their new stock goes, the company they pick, in London).
const STAFF: [(i64, i64, Option<i64>, bool); 6] = [
    (1, 2, Some(1), false),
    (3, 2, Some(1), false),
    (4, 2, None, false),
    (5, 7, Some(1), false),
    (7, 8, Some(1), false),
    (11, 9, Some(2), true),
];
const STAFF_PICK: [usize; 12] = [0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5];
/// Web creates per UTC hour (relative), for New York and for London.
const RHYTHM_NY: [i64; 24] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 7, 9, 8, 6, 5, 8, 8, 6, 3, 1, 0];
const RHYTHM_LON: [i64; 24] = [0, 0, 0, 0, 0, 0, 0, 2, 6, 8, 8, 6, 5, 7, 7, 5, 2, 0, 0, 0, 0, 0, 0, 0];
/// A double submit that beat the tag check, and the first web and runbook creates after these are retried.
const RACE_DAY: i64 = 25;
const LATE: [i64; 2] = [NOW - 9 * HOUR, NOW - 5 * HOUR];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Mac,
    Win,
    Desk,
    Monitor,
    Dock,
    Phone,
    Tablet,
    Headset,
    Av,
    Net,
    Printer,
}

/// Models: (model id, kind, end of life in months (0: none), price in cents, supplier, warranty months).
#[rustfmt::skip]
const MODELS: [(i64, Kind, i64, i64, i64, i64); 17] = [
    (12, Kind::Mac, 36, 199_900, 3, 12), (13, Kind::Mac, 36, 119_900, 3, 12), (21, Kind::Win, 48, 112_900, 2, 36),
    (22, Kind::Win, 48, 148_900, 2, 36), (23, Kind::Win, 48, 125_900, 1, 36), (31, Kind::Desk, 60, 89_900, 2, 36),
    (41, Kind::Monitor, 60, 27_999, 1, 36), (42, Kind::Monitor, 60, 57_999, 1, 36),
    (43, Kind::Monitor, 60, 44_999, 5, 12), (51, Kind::Dock, 48, 21_900, 2, 36), (61, Kind::Phone, 24, 79_900, 7, 12),
    (62, Kind::Phone, 24, 44_900, 4, 12), (71, Kind::Tablet, 36, 44_900, 3, 12), (81, Kind::Headset, 0, 21_900, 5, 0),
    (85, Kind::Av, 60, 349_900, 4, 24), (91, Kind::Net, 84, 109_500, 4, 0), (92, Kind::Printer, 60, 38_900, 5, 12),
];
/// What the web form is used for, by model (repeats weigh).
const WEB_MODELS: [usize; 30] =
    [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 13, 13, 14, 15, 16, 16];
/// Rooms and floors a thing is checked out to, per site (Boston, Chicago, Austin, London).
const PLACES: [[i64; 3]; 4] = [[21, 22, 31], [24, 33, 33], [25, 34, 34], [26, 35, 35]];
const SITES: [&str; 4] = ["BOS", "CHI", "AUS", "LON"];
#[rustfmt::skip]
const FIRST: [&str; 24] = ["Anna", "Ben", "Carla", "Deepak", "Elena", "Farid", "Grace", "Hiro", "Isabel", "Jamal",
    "Kate", "Luis", "Maya", "Noah", "Olivia", "Priya", "Quinn", "Rosa", "Sam", "Tomas", "Uma", "Victor", "Wen",
    "Yusuf"];
#[rustfmt::skip]
const LAST: [&str; 24] = ["Adams", "Brooks", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Hughes", "Ito", "Jensen",
    "Khan", "Lopez", "Murphy", "Nguyen", "Okafor", "Patel", "Quinn", "Reyes", "Silva", "Turner", "Usman", "Vargas",
    "Walsh", "Young"];
#[rustfmt::skip]
const NOTES: [&str; 9] = ["New hire", "Replacement for broken unit", "Loaner pool", "Spare", "Quote 7781-2",
    "For the new Chicago office", "Warranty via Dell ProSupport", "Ordered by Finance", "Shared desk"];
#[rustfmt::skip]
const LATER_NOTES: [&str; 6] = ["Screen flickers, sent to Dell", "Battery swollen", "Reimaged",
    "Keyboard replaced under warranty", "User reports it runs hot", "Sticker replaced"];
const RAM: [&str; 4] = ["8GB", "16GB", "16GB", "32GB"];
const CPU: [&str; 4] = ["Apple M3 Pro", "Apple M2", "Intel Core i5-1345U", "Intel Core i7-1365U"];

#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Via {
    #[default]
    Web,
    Api,
    Jamf,
    Scan,
    Import,
}

#[derive(Clone, Default)]
enum Tag {
    /// The next `IT-` number when the row is inserted.
    #[default]
    Auto,
    Typed(String),
    /// The tag of another row (by its index before sorting).
    Same(usize),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Target {
    User(i64),
    Place(i64),
}

/// A create as the server got it; `kill` and `quiet` say what people did with the row afterwards.
#[derive(Clone, Default)]
struct Row {
    at: i64,
    via: Via,
    tag: Tag,
    name: Option<String>,
    model: usize,
    serial: Option<String>,
    bought: Option<i64>,
    cost: Option<i64>,
    order: Option<String>,
    notes: Option<String>,
    by: Option<i64>,
    status: i64,
    warranty: Option<i64>,
    supplier: Option<i64>,
    requestable: bool,
    rtd: Option<i64>,
    loc: Option<i64>,
    company: Option<i64>,
    /// `next_audit_date` set from the settings' interval (the form only).
    audit: bool,
    /// '' for `image` (the importer).
    blank: bool,
    mac: Option<String>,
    ram: Option<&'static str>,
    cpu: Option<&'static str>,
    imei: Option<String>,
    byod: bool,
    /// Checked out in (or right after) the create request: to whom, when.
    out: Option<(Target, i64)>,
    /// jamf2snipe: the Jamf user, and what its next run writes (MAC or IMEI, the renamed computer).
    jamf_user: Option<i64>,
    sync: Option<(String, bool, Option<String>)>,
    /// A row nobody finds on a shelf or works on (a duplicate made by a lost response, a spare deleted by mistake).
    quiet: bool,
    /// Deleted from its page then.
    kill: Option<i64>,
    mark: Mark,
    hidden: bool,
}

#[derive(Clone, Copy)]
enum Ev {
    Out(Target, bool, Option<i64>),
    In(Option<i64>),
    Audit,
    Status(i64),
    Notes(&'static str),
    Cost(i64),
    Sync,
    Request,
    Delete,
    /// A Quick Scan audit walk through a location (every row there).
    Walk(i64),
}

/// A row as it stands now (times as wall-clock µs).
#[derive(Clone, Default)]
struct Now {
    name: Option<String>,
    status: i64,
    assigned: Option<Target>,
    kept_type: Option<&'static str>,
    last_out: Option<i64>,
    last_in: Option<i64>,
    expected: Option<i64>,
    loc: Option<i64>,
    rtd: Option<i64>,
    ins: i64,
    outs: i64,
    reqs: i64,
    audited: Option<i64>,
    next_audit: Option<i64>,
    notes: Option<String>,
    cost: Option<i64>,
    mac: Option<String>,
    imei: Option<String>,
    deleted: Option<i64>,
    updated: i64,
}

fn wall(utc: i64) -> i64 {
    utc - EDT
}

fn local_day(utc: i64) -> i64 {
    wall(utc).div_euclid(DAY)
}

/// (year, month, day) of a day number (days since 1970-01-01).
fn civil(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let (d, m) = (doy - (153 * mp + 2) / 5 + 1, if mp < 10 { mp + 3 } else { mp - 9 });
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn day_number(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

/// Carbon's `addMonths`: a day the month lacks runs over into the next.
fn add_months(day: i64, n: i64) -> i64 {
    let (y, m, d) = civil(day);
    let k = y * 12 + m - 1 + n;
    day_number(k.div_euclid(12), k.rem_euclid(12) + 1, 1) + d - 1
}

fn date(day: i64) -> V {
    let (y, m, d) = civil(day);
    V::t(format!("{y:04}-{m:02}-{d:02}"))
}

/// A time of the working day (UTC) on the day starting at `day0`.
fn business(r: &mut Rng, day0: i64, london: bool) -> i64 {
    let rhythm = if london { &RHYTHM_LON } else { &RHYTHM_NY };
    let mut x = r.below(rhythm.iter().sum::<i64>() as u64) as i64;
    let mut h = 0;
    while x >= rhythm[h] {
        x -= rhythm[h];
        h += 1;
    }
    day0 + h as i64 * HOUR + r.below(HOUR as u64) as i64
}

/// Some working day `lo`..=`hi` days after `t` (a weekend moves to the Monday), after `t`.
fn later(r: &mut Rng, t: i64, lo: i64, hi: i64) -> i64 {
    let mut day0 = (t.div_euclid(DAY) + r.range(lo, hi)) * DAY;
    if weekday(day0) >= 5 {
        day0 += (7 - weekday(day0)) * DAY;
    }
    let at = business(r, day0, false);
    if at > t { at } else { t + r.range(5, 240) * MINUTE + r.below(1_000_000) as i64 }
}

fn person(u: i64) -> (&'static str, &'static str) {
    (FIRST[(u % 24) as usize], LAST[(u / 24 % 24) as usize])
}

fn username(u: i64) -> String {
    let (first, last) = person(u);
    format!("{}{}", &first[..1], last).to_lowercase()
}

fn employee(r: &mut Rng) -> i64 {
    60 + r.below(700) as i64
}

/// An employee's location: Boston HQ 1, Chicago 3, Austin 4, remote 5, London 6.
fn loc_of(u: i64) -> i64 {
    [1, 1, 1, 1, 3, 3, 4, 4, 5, 6][(u * 7 % 10) as usize]
}

fn site_of(store: Option<i64>) -> usize {
    match store {
        Some(7) => 1,
        Some(8) => 2,
        Some(9) => 3,
        _ => 0,
    }
}

fn chars(r: &mut Rng, set: &[u8], n: usize) -> String {
    (0..n).map(|_| set[r.below(set.len() as u64) as usize] as char).collect()
}

const UPPER: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
const DIGITS: &[u8] = b"0123456789";

/// A serial as the maker prints it.
fn serial(r: &mut Rng, m: usize) -> String {
    match MODELS[m].0 {
        12 | 13 | 61 | 71 => chars(r, UPPER, 10),
        23 => format!("PF{}", chars(r, UPPER, 6)),
        41 | 42 => {
            let (a, b, c, d) = (chars(r, UPPER, 5), chars(r, DIGITS, 5), chars(r, UPPER, 3), chars(r, UPPER, 4));
            format!("CN-0{a}-{b}-{c}-{d}")
        }
        43 => format!("{}NT{}", chars(r, DIGITS, 3), chars(r, UPPER, 7)),
        62 => format!("R5C{}", chars(r, UPPER, 8)),
        81 => format!("OS{}", chars(r, DIGITS, 10)),
        85 => format!("2231LZ{}", chars(r, UPPER, 6)),
        91 => format!("Q3AB-{}-{}", chars(r, UPPER, 4), chars(r, UPPER, 4)),
        92 => format!("PHB{}", chars(r, UPPER, 7)),
        _ => chars(r, UPPER, 7),
    }
}

/// How often people type (or scan) the serial on the form.
fn records(kind: Kind) -> f64 {
    match kind {
        Kind::Monitor => 0.7,
        Kind::Dock => 0.35,
        Kind::Headset => 0.05,
        _ => 0.97,
    }
}

fn mac(r: &mut Rng, m: usize) -> String {
    let oui = match MODELS[m].1 {
        Kind::Mac => "A4:83:E7",
        _ if MODELS[m].0 == 23 => "8C:16:45",
        _ => "D0:46:0C",
    };
    let tail: Vec<String> = (0..3).map(|_| format!("{:02X}", r.below(256))).collect();
    format!("{oui}:{}", tail.join(":"))
}

fn imei(r: &mut Rng) -> String {
    format!("35{}", chars(r, DIGITS, 13))
}

fn computer(m: usize) -> bool {
    matches!(MODELS[m].1, Kind::Mac | Kind::Win | Kind::Desk)
}

/// What the form holds for a new asset of model `m` (no checkout yet).
fn web_row(r: &mut Rng, at: i64, staff: usize, m: usize) -> Row {
    let (by, store, company, _) = STAFF[staff];
    let (id, kind, _, price, supplier, warranty) = MODELS[m];
    let serial = r.chance(records(kind)).then(|| serial(r, m));
    let site = SITES[site_of(Some(store))];
    let name = match kind {
        Kind::Win if r.chance(0.6) => serial.as_ref().map(|s| format!("LT-{s}")),
        Kind::Desk if r.chance(0.6) => serial.as_ref().map(|s| format!("DT-{s}")),
        Kind::Av => Some(format!("{site} {} Rally Bar", r.one(&["3A", "3B", "Board Room", "Huddle 1"]))),
        Kind::Net => Some(format!("AP-{site}-{}F-{:02}", r.range(1, 4), r.range(1, 12))),
        Kind::Printer => Some(format!("PRN-{site}-{}F", r.range(1, 4))),
        _ => None,
    };
    let bought = r.chance(0.75).then(|| local_day(at) - r.range(0, 25));
    let cost = (bought.is_some() && r.chance(0.85)).then(|| if r.chance(0.8) { price } else { price * 9 / 10 });
    let order = r.chance(0.6).then(|| format!("PO{}", 41_000 + (at - START) / DAY * 3 + r.range(0, 2)));
    let phone = kind == Kind::Phone;
    let cpus = if kind == Kind::Mac { &CPU[..2] } else { &CPU[2..] };
    let rtd = r.chance(0.9).then_some(store);
    Row {
        at,
        name,
        model: m,
        serial,
        bought,
        cost,
        order,
        notes: r.chance(0.15).then(|| r.pick(&NOTES).to_string()),
        by: Some(by),
        status: if r.chance(0.85) { READY } else { PENDING },
        warranty: (warranty > 0 && r.chance(0.6)).then_some(warranty),
        supplier: r.chance(0.7).then_some(supplier),
        requestable: matches!(kind, Kind::Mac | Kind::Win) && r.chance(0.05),
        rtd,
        loc: rtd,
        company: if r.chance(0.8) { company } else { None },
        audit: true,
        mac: (computer(m) && r.chance(0.2)).then(|| mac(r, m)),
        ram: (computer(m) && r.chance(0.6)).then(|| r.one(&RAM)),
        cpu: (computer(m) && r.chance(0.4)).then(|| r.one(cpus)),
        imei: (phone && r.chance(0.7)).then(|| imei(r)),
        byod: phone && id == 62 && r.chance(0.1),
        ..Row::default()
    }
}

/// A checkout chosen on the create form: a person, or a room for the things that live in one.
fn web_target(r: &mut Rng, row: &Row) -> Option<Target> {
    let kind = MODELS[row.model].1;
    let p = match kind {
        Kind::Mac | Kind::Win | Kind::Phone | Kind::Tablet => 0.3,
        Kind::Desk => 0.2,
        Kind::Av | Kind::Net | Kind::Printer => 0.25,
        _ => 0.12,
    };
    if !r.chance(p) || row.status != READY {
        return None;
    }
    Some(match kind {
        Kind::Av | Kind::Net | Kind::Printer => Target::Place(r.one(&PLACES[site_of(row.rtd)])),
        _ => Target::User(employee(r)),
    })
}

/// The form resubmitted after the "tag already taken" page: the next tag, everything else as it was, checked out
/// again; sometimes someone notices and deletes one of the two.
fn resubmit(v: &mut Vec<Row>, r: &mut Rng, orig: usize) {
    let o = v[orig].clone();
    let at = o.at + r.range(15, 100) * SECOND + r.below(1_000_000) as i64;
    let out = o.out.map(|(tg, _)| (tg, at + r.range(200_000, 900_000)));
    let mut x = Row { at, out, kill: None, mark: Mark::Retry, hidden: o.serial.is_none(), ..o };
    settle(v, r, orig, &mut x);
    v.push(x);
}

/// Two rows for one thing: someone deletes the extra one (or the first), or no one notices and the label on the
/// device carries the tag the screen showed last, so the first row is never touched again.
fn settle(v: &mut [Row], r: &mut Rng, orig: usize, x: &mut Row) {
    if r.chance(0.5) {
        let when = later(r, x.at, 0, 6);
        if r.chance(0.75) {
            x.kill = Some(when);
        } else {
            v[orig].kill = Some(when);
            v[orig].quiet = true;
        }
    } else if r.chance(0.7) {
        v[orig].quiet = true;
    }
}

fn single(v: &mut Vec<Row>, r: &mut Rng, at: i64, staff: usize, forced: bool, recreated: &mut usize) {
    let m = r.one(&WEB_MODELS);
    let mut row = web_row(r, at, staff, m);
    row.out = web_target(r, &row).map(|tg| (tg, at + r.range(200_000, 900_000)));
    if let Some((Target::User(u), _)) = row.out
        && MODELS[m].1 == Kind::Mac
    {
        row.name = Some(format!("MBP-{}", username(u)));
    }
    let kind = MODELS[m].1;
    let orig = v.len();
    // A spare deleted by mistake a few days on, and entered again with its label's tag instead of restored.
    if *recreated < 3 && row.out.is_none() && matches!(kind, Kind::Monitor | Kind::Dock | Kind::Desk) && r.chance(0.05)
    {
        *recreated += 1;
        let gone = later(r, at, 1, 6);
        v.push(Row { quiet: true, kill: Some(gone), ..row.clone() });
        let again = gone + r.range(3, 40) * MINUTE + r.below(1_000_000) as i64;
        v.push(Row { at: again, tag: Tag::Same(orig), ..row });
        return;
    }
    let slow = row.out.is_some();
    v.push(row);
    if forced || r.chance(if slow { 0.06 } else { 0.012 }) {
        resubmit(v, r, orig);
    }
}

/// "+" on the form: one tag (the next numbers) and one serial box per asset, one request.
fn multi(v: &mut Vec<Row>, r: &mut Rng, at: i64, staff: usize) {
    let m = r.one(&[5, 6, 6, 6, 7, 8, 9, 9, 9, 10, 11, 13, 13, 13, 12]);
    let n = 2 + r.below(7) as usize;
    let mut base = web_row(r, at, staff, m);
    let typed = r.chance(records(MODELS[m].1));
    base.name = None;
    let target = if n <= 3 { web_target(r, &base) } else { None };
    let first = v.len();
    let mut t = at;
    for _ in 0..n {
        let serial = typed.then(|| serial(r, m));
        let out = target.map(|tg| (tg, t + r.range(150_000, 600_000)));
        v.push(Row { at: t, serial, out, ..base.clone() });
        t += r.range(60_000, 250_000) + if target.is_some() { 700_000 } else { 0 };
    }
    if typed && r.chance(if target.is_some() { 0.15 } else { 0.015 }) {
        // The whole batch again (a slow mail per checkout, a 504, the form sent again); if anyone notices, the extra
        // rows go in one bulk delete.
        let again = t + r.range(20, 90) * SECOND;
        let gone = r.chance(0.6).then(|| later(r, again, 0, 3));
        for k in first..first + n {
            let o = v[k].clone();
            let at = again + (o.at - at);
            let out = o.out.map(|(tg, _)| (tg, at + r.range(150_000, 600_000)));
            v.push(Row { at, out, kill: gone, mark: Mark::Retry, ..o });
        }
    }
}

/// "Clone" on one of the user's recent assets: the form prefilled but for the tag (the next one) and the serial.
fn clone_of(v: &mut Vec<Row>, r: &mut Rng, at: i64, staff: usize) -> bool {
    let by = Some(STAFF[staff].0);
    let src = (0..v.len()).rev().take(400).filter(|&k| {
        let o = &v[k];
        o.via == Via::Web && o.by == by && o.at < at && at - o.at < 14 * DAY && o.mark != Mark::Retry
    });
    let Some(k) = src.max_by_key(|&k| v[k].at) else { return false };
    let o = v[k].clone();
    let kind = MODELS[o.model].1;
    let serial = if o.serial.is_some() || r.chance(records(kind) / 2.0) { Some(serial(r, o.model)) } else { None };
    let name = match (&o.name, &serial) {
        (Some(n), Some(s)) if n.starts_with("LT-") => Some(format!("LT-{s}")),
        (Some(n), Some(s)) if n.starts_with("DT-") => Some(format!("DT-{s}")),
        (Some(n), _) if n.starts_with("MBP-") => None,
        _ => o.name.clone(),
    };
    let mut c = Row {
        at,
        serial,
        name,
        out: None,
        kill: None,
        quiet: false,
        mark: Mark::Plain,
        hidden: false,
        tag: Tag::Auto,
        ..o
    };
    if c.mac.is_some() && r.chance(0.7) {
        c.mac = None;
    }
    if c.imei.is_some() {
        c.imei = Some(imei(r));
    }
    if r.chance(0.2) {
        c.notes = None;
    }
    c.out = web_target(r, &c).filter(|_| r.chance(0.3)).map(|tg| (tg, at + r.range(200_000, 900_000)));
    v.push(c);
    true
}

fn web(v: &mut Vec<Row>, r: &mut Rng, day0: i64, recreated: &mut usize) {
    let staff = r.one(&STAFF_PICK);
    let at = business(r, day0, STAFF[staff].3);
    let x = r.below(100);
    if x < 9 {
        multi(v, r, at, staff);
    } else if x >= 21 || !clone_of(v, r, at, staff) {
        single(v, r, at, staff, false, recreated);
    }
}

/// The Intune runbook (hourly): new Windows devices posted without a tag, then checked out to their primary user.
/// `Invoke-RestMethod -TimeoutSec 30`, 10 s pause, three tries: a slow server commits the lost attempts too.
fn intune(v: &mut Vec<Row>, r: &mut Rng, run: i64, n: usize, forced: bool) {
    let mut t = run + r.range(20, 60) * SECOND + r.below(1_000_000) as i64;
    for i in 0..n {
        let m = r.one(&[2, 2, 3, 3, 4, 4, 5]);
        let s = serial(r, m);
        let user = employee(r);
        let london = loc_of(user) == 6;
        let prefix = if MODELS[m].1 == Kind::Desk { "DT" } else { "LT" };
        let row = Row {
            at: t,
            via: Via::Api,
            name: Some(format!("{prefix}-{s}")),
            model: m,
            serial: Some(s),
            by: Some(INTUNE),
            status: READY,
            company: Some(if london { 2 } else { 1 }),
            mac: Some(mac(r, m)),
            ram: Some(r.one(&["8 GB", "16 GB", "16 GB", "32 GB"])),
            ..Row::default()
        };
        let found = r.chance(0.85);
        let tries = if (forced && i == 0) || r.chance(0.02) { if r.chance(0.3) { 3 } else { 2 } } else { 1 };
        let first = v.len();
        let mut at = t;
        for a in 0..tries {
            let last = a + 1 == tries;
            let out = (last && found).then(|| (Target::User(user), at + r.range(1_000_000, 3_000_000)));
            let mark = if a == 0 { Mark::Plain } else { Mark::Retry };
            v.push(Row { at, out, quiet: !last, mark, ..row.clone() });
            if !last {
                // The next try starts 40 s after this one; the slow server inserts it somewhere in its 30 s.
                at = t + (a as i64 + 1) * 40 * SECOND + r.range(1_000, 20_000) * 1_000;
            }
        }
        if tries > 1 && r.chance(0.55) {
            // Seen in the duplicate-serial report: the unassigned rows go (bulk delete), or the checked-out one does.
            let when = later(r, at, 1, 14);
            if r.chance(0.8) {
                for x in &mut v[first..first + tries - 1] {
                    x.kill = Some(when);
                }
            } else {
                v[first + tries - 1].kill = Some(when);
            }
        }
        t = at + r.range(3, 9) * SECOND + r.below(1_000_000) as i64;
    }
}

/// jamf2snipe (cron, hourly): new Macs and iPhones/iPads posted with `jamfid-` tags; a resend would be refused.
fn jamf(v: &mut Vec<Row>, r: &mut Rng, run: i64, n: usize, ids: &mut (i64, i64)) {
    for _ in 0..n {
        let at = run + r.range(10, 900) * SECOND + r.below(1_000_000) as i64;
        let mobile = r.chance(0.25);
        let m = if mobile { r.one(&[10, 10, 12]) } else { r.one(&[0, 0, 1]) };
        let user = employee(r);
        let (first, _) = person(user);
        let name = match m {
            0 => format!("{first}'s MacBook Pro"),
            1 => format!("{first}'s MacBook Air"),
            10 => format!("{first}'s iPhone"),
            _ => format!("{first}'s iPad"),
        };
        let tag = if mobile {
            ids.1 += 1;
            format!("jamfid-m-{}", ids.1)
        } else {
            ids.0 += 1;
            format!("jamfid-{}", ids.0)
        };
        let has_user = r.chance(0.85);
        let renamed = (!mobile && r.chance(0.5)).then(|| format!("MBP-{}", username(user)));
        let sync = if mobile { (imei(r), true, None) } else { (mac(r, m), false, renamed) };
        let out = (has_user && r.chance(0.5)).then(|| (Target::User(user), at + r.range(1_000_000, 4_000_000)));
        v.push(Row {
            at,
            via: Via::Jamf,
            tag: Tag::Typed(tag),
            name: Some(name),
            model: m,
            serial: Some(serial(r, m)),
            by: Some(JAMF),
            status: READY,
            out,
            jamf_user: has_user.then_some(user),
            sync: Some(sync),
            ..Row::default()
        });
    }
}

/// A delivery scanned in by the receiving clerk's phone shortcut (`POST /api/v1/hardware`, no tag).
fn receiving(v: &mut Vec<Row>, r: &mut Rng, day0: i64) {
    let m = r.one(&[5, 6, 6, 7, 8, 9, 9, 11, 13, 16]);
    let po = format!("PO{}", 41_000 + (day0 - START) / DAY * 3 + r.range(0, 2));
    let mut t = business(r, day0, false);
    for _ in 0..4 + r.below(17) {
        let row = Row {
            at: t,
            via: Via::Scan,
            model: m,
            serial: Some(serial(r, m)),
            by: Some(CLERK),
            status: READY,
            rtd: Some(2),
            order: Some(po.clone()),
            ..Row::default()
        };
        let orig = v.len();
        v.push(row.clone());
        if r.chance(0.02) {
            let d = client_retry_delay(r);
            let y = r.below(100);
            // A double tap: refused when the first row was in by the tag check, else the next tag, or the same one
            // when both read the settings before either insert.
            if d >= SECOND || y >= 40 {
                let tag = if d < SECOND && y >= 85 { Tag::Same(orig) } else { Tag::Auto };
                let mut x = Row { at: t + d, tag, mark: Mark::Retry, ..row };
                settle(v, r, orig, &mut x);
                v.push(x);
            }
        }
        t += r.range(6, 25) * SECOND + r.below(1_000_000) as i64;
    }
}

/// A CSV import: when, what, where, which columns the file has, and whether it was processed twice.
struct Import {
    day: i64,
    hour: i64,
    model: usize,
    rows: usize,
    loc: i64,
    company: Option<i64>,
    serials: bool,
    /// Hostnames in the item name column.
    names: bool,
    /// A username column: each row checked out as it is imported.
    users: bool,
    warranty: Option<i64>,
    twice: bool,
}

#[rustfmt::skip]
const IMPORTS: [Import; 8] = [
    Import { day: 4, hour: 14, model: 6, rows: 36, loc: 2, company: Some(1),
            serials: true, names: false, users: false, warranty: Some(36), twice: false },
    Import { day: 12, hour: 15, model: 13, rows: 30, loc: 2, company: Some(1),
            serials: false, names: false, users: false, warranty: None, twice: false },
    Import { day: 18, hour: 13, model: 3, rows: 60, loc: 2, company: Some(1),
            serials: true, names: true, users: false, warranty: Some(36), twice: false },
    Import { day: 33, hour: 16, model: 4, rows: 16, loc: 7, company: Some(1),
            serials: true, names: true, users: true, warranty: Some(36), twice: true },
    Import { day: 39, hour: 14, model: 9, rows: 25, loc: 2, company: None,
            serials: false, names: false, users: false, warranty: None, twice: false },
    Import { day: 47, hour: 15, model: 10, rows: 40, loc: 2, company: Some(1),
            serials: true, names: false, users: false, warranty: None, twice: false },
    Import { day: 50, hour: 16, model: 8, rows: 18, loc: 8, company: Some(1),
            serials: true, names: false, users: false, warranty: Some(12), twice: false },
    Import { day: 54, hour: 13, model: 2, rows: 12, loc: 9, company: Some(2),
            serials: true, names: true, users: true, warranty: Some(36), twice: false },
];

fn imports(v: &mut Vec<Row>, r: &mut Rng) {
    for Import { day, hour, model: m, rows: n, loc, company, serials, names, users, warranty, twice } in IMPORTS {
        let start = START + day * DAY + hour * HOUR + r.range(0, 3_000) * SECOND;
        let (_, kind, _, price, supplier, _) = MODELS[m];
        let bought = local_day(start) - r.range(4, 12);
        let cost = if r.chance(0.5) { price } else { price * 93 / 100 };
        let order = format!("PO{}", 41_000 + day * 3 + r.range(0, 2));
        let first = v.len();
        let mut t = start;
        for _ in 0..n {
            let serial = serials.then(|| serial(r, m));
            let out = users.then(|| (Target::User(employee(r)), t + r.range(50_000, 300_000)));
            v.push(Row {
                at: t,
                via: Via::Import,
                name: if names { serial.as_ref().map(|s| format!("LT-{s}")) } else { None },
                model: m,
                serial,
                bought: Some(bought),
                cost: Some(cost),
                order: Some(order.clone()),
                notes: Some(String::new()),
                status: READY,
                warranty: Some(warranty.unwrap_or(0)),
                supplier: Some(supplier),
                rtd: Some(loc),
                loc: Some(loc),
                company,
                blank: true,
                imei: (kind == Kind::Phone).then(|| imei(r)),
                out,
                ..Row::default()
            });
            // Each checkout mails the user before the next row: seconds, not milliseconds.
            t += if users { r.range(2_000, 4_500) } else { r.range(40, 120) } * 1_000;
        }
        if twice {
            // The browser got a 504 at 60 s while PHP finished; "Import" clicked again a few minutes on: every row
            // anew with the next tags. The extra rows are deleted one by one from their pages the next morning.
            let again = start + r.range(150, 300) * SECOND;
            let mut gone = (local_day(t) + 1) * DAY + EDT + 9 * HOUR + r.range(600, 4_000) * SECOND;
            for k in first..first + n {
                let o = v[k].clone();
                let at = again + (o.at - start);
                let out = o.out.map(|(tg, _)| (tg, at + r.range(50_000, 300_000)));
                v.push(Row { at, out, kill: Some(gone), quiet: true, mark: Mark::Retry, ..o });
                gone += r.range(20, 50) * SECOND;
            }
        }
    }
}

/// A row's own later life, as people and jobs work on it.
fn life(r: &mut Rng, x: &Row, k: usize, evs: &mut Vec<(i64, usize, Ev)>) {
    if let Some(t) = x.kill {
        evs.push((t, k, Ev::Delete));
    }
    if let Some((tg, t)) = x.out {
        evs.push((t, k, Ev::Out(tg, false, None)));
    }
    if x.quiet {
        return;
    }
    let kind = MODELS[x.model].1;
    let mut t = x.out.map_or(x.at, |o| o.1);
    let mut out = x.out.is_some();
    if x.via == Via::Jamf {
        // The next hourly run: what Jamf knows that the create did not send, and the checkout to the Jamf user.
        let next = x.at - x.at.rem_euclid(HOUR) + HOUR + r.range(10, 900) * SECOND;
        evs.push((next, k, Ev::Sync));
        t = next;
        if !out && let Some(u) = x.jamf_user {
            t = next + r.range(1, 4) * SECOND;
            evs.push((t, k, Ev::Out(Target::User(u), false, None)));
            out = true;
        }
    }
    if x.status == PENDING {
        if !r.chance(0.75) {
            return;
        }
        t = later(r, t, 1, 6);
        evs.push((t, k, Ev::Status(READY)));
    }
    if !out {
        let p = match kind {
            _ if x.requestable => 0.3,
            Kind::Mac | Kind::Win | Kind::Phone | Kind::Tablet => 0.75,
            Kind::Desk => 0.6,
            Kind::Av | Kind::Net | Kind::Printer => 0.55,
            _ => 0.45,
        };
        if r.chance(p) {
            t = later(r, t, 0, if matches!(kind, Kind::Monitor | Kind::Dock | Kind::Headset) { 20 } else { 10 });
            let target = match kind {
                Kind::Av | Kind::Net | Kind::Printer => Target::Place(r.one(&PLACES[site_of(x.rtd)])),
                _ => Target::User(employee(r)),
            };
            let back = r.chance(0.08);
            let expected = x.requestable.then(|| local_day(t) + r.range(7, 14));
            evs.push((t, k, Ev::Out(target, back, expected)));
            out = true;
        }
    }
    if x.requestable {
        for _ in 0..r.below(3) {
            evs.push((later(r, x.at, 1, 30), k, Ev::Request));
        }
    }
    if r.chance(0.05) {
        evs.push((later(r, x.at, 2, 40), k, Ev::Audit));
    }
    if r.chance(0.05) {
        evs.push((later(r, t, 1, 30), k, Ev::Notes(r.one(&LATER_NOTES))));
    }
    if x.cost.is_some() && r.chance(0.02) {
        evs.push((later(r, x.at, 0, 10), k, Ev::Cost(MODELS[x.model].3 * r.range(85, 99) / 100)));
    }
    if out && r.chance(0.1) {
        t = later(r, t, 3, 30);
        let status = match r.below(10) {
            0..=3 => Some(PENDING),
            4 => Some(REPAIR),
            _ => None,
        };
        evs.push((t, k, Ev::In(status)));
        if status.is_none() && r.chance(0.5) {
            t = later(r, t, 0, 7);
            evs.push((t, k, Ev::Out(Target::User(employee(r)), false, None)));
        }
    }
    if x.kill.is_none() && r.chance(0.008) {
        evs.push((later(r, t, 1, 20), k, Ev::Delete));
    }
}

/// Quick Scan audit walks: (day, UTC hour, location).
const WALKS: [(i64, i64, i64); 8] =
    [(6, 14, 2), (13, 15, 1), (20, 15, 7), (22, 16, 3), (34, 14, 4), (41, 13, 2), (48, 9, 6), (54, 15, 1)];

fn apply(r: &mut Rng, x: &Row, s: &mut Now, t: i64, ev: &Ev) {
    let w = wall(t);
    match *ev {
        Ev::Out(target, back, expected) => {
            if s.assigned.is_some() || s.status != READY {
                return;
            }
            s.assigned = Some(target);
            s.kept_type = None;
            s.last_out = Some(if back { (local_day(t) - r.range(1, 3)) * DAY } else { w });
            s.expected = expected;
            s.loc = Some(match target {
                Target::User(u) => loc_of(u),
                Target::Place(p) => p,
            });
            s.outs += 1;
        }
        Ev::In(status) => {
            if s.assigned.is_none() {
                return;
            }
            (s.assigned, s.last_in, s.expected, s.loc) = (None, Some(w), None, s.rtd);
            s.ins += 1;
            if let Some(st) = status {
                s.status = st;
            }
        }
        Ev::Audit => (s.audited, s.next_audit) = (Some(w), Some(add_months(local_day(t), 12))),
        Ev::Status(st) => {
            if s.assigned.is_some() {
                return;
            }
            s.status = st;
        }
        Ev::Notes(n) => {
            let old = s.notes.as_ref().filter(|o| !o.is_empty());
            s.notes = Some(old.map_or(n.to_string(), |o| format!("{o}\n{n}")));
        }
        Ev::Cost(c) => s.cost = Some(c),
        Ev::Sync => {
            if let Some((value, phone, name)) = &x.sync {
                if *phone {
                    s.imei = Some(value.clone());
                } else {
                    s.mac = Some(value.clone());
                }
                if name.is_some() {
                    s.name = name.clone();
                }
            }
        }
        Ev::Request => {
            if s.assigned.is_some() {
                return;
            }
            s.reqs += 1;
        }
        Ev::Delete => {
            if let Some(target) = s.assigned {
                // Checked in by the delete: the counter, then a raw update of `assigned_to` alone.
                s.ins += 1;
                s.kept_type = Some(match target {
                    Target::User(_) => USER,
                    Target::Place(_) => PLACE,
                });
                s.assigned = None;
            }
            s.deleted = Some(w);
        }
        Ev::Walk(_) => return,
    }
    s.updated = s.updated.max(w);
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x05A1_BE17);
    let mut v: Vec<Row> = Vec::new();
    let mut recreated = 0;
    let mut ids = (1_186_i64, 436_i64);
    for d in 0..DAYS {
        let day0 = START + d * DAY;
        let weekend = weekday(day0) >= 5;
        let n = if weekend { r.below(2) } else { 6 + r.below(8) };
        for _ in 0..n {
            web(&mut v, &mut r, day0, &mut recreated);
        }
        if d == RACE_DAY {
            // Two requests within milliseconds: both counted no such tag before either inserted.
            let at = business(&mut r, day0, false);
            let row = web_row(&mut r, at, 1, 3);
            let orig = v.len();
            let kill = later(&mut r, at, 1, 2);
            v.push(row.clone());
            let at = at + r.range(3_000, 15_000);
            v.push(Row { at, tag: Tag::Same(orig), kill: Some(kill), mark: Mark::Retry, ..row });
        }
        // The runbook, at :05 past every hour; a refresh project in weeks four and five.
        let refresh = (20..34).contains(&d);
        for h in 0..24 {
            let busy = !weekend && (12..=22).contains(&h);
            let n = match r.below(100) {
                _ if !busy => usize::from(r.chance(0.04)),
                0..=44 => 0,
                45..=74 => 1,
                75..=89 => 2,
                _ => 3,
            } + if refresh && busy { r.below(4) as usize } else { 0 };
            if n > 0 {
                intune(&mut v, &mut r, day0 + h * HOUR + 5 * MINUTE, n, false);
            }
            let n = if busy { usize::from(r.chance(0.3)) + usize::from(r.chance(0.08)) } else { 0 };
            jamf(&mut v, &mut r, day0 + h * HOUR, n, &mut ids);
        }
        if !weekend && r.chance(0.45) {
            receiving(&mut v, &mut r, day0);
        }
    }
    imports(&mut v, &mut r);
    // Late in the table: a resubmitted form, a runbook that timed out.
    let at = LATE[0] + r.range(0, 1_800) * SECOND;
    single(&mut v, &mut r, at, 1, true, &mut recreated);
    intune(&mut v, &mut r, LATE[1] + 5 * MINUTE, 1, true);

    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by_key(|&i| v[i].at);
    let mut pos = vec![0; v.len()];
    for (k, &i) in order.iter().enumerate() {
        pos[i] = k;
    }
    let rows: Vec<Row> = order
        .iter()
        .map(|&i| {
            let mut x = v[i].clone();
            if let Tag::Same(o) = x.tag {
                x.tag = Tag::Same(pos[o]);
            }
            x
        })
        .collect();

    // The tags, as the observer moves `next_auto_tag_base` on.
    let mut next = TAG0;
    let mut tags: Vec<String> = Vec::with_capacity(rows.len());
    for x in &rows {
        let tag = match &x.tag {
            Tag::Auto => {
                next += 1;
                format!("{PREFIX}{:05}", next - 1)
            }
            Tag::Typed(t) => {
                next += i64::from(!t.starts_with(PREFIX));
                t.clone()
            }
            Tag::Same(o) => tags[*o].clone(),
        };
        tags.push(tag);
    }

    // The rows' lives, replayed in time order.
    let mut evs: Vec<(i64, usize, Ev)> = Vec::new();
    for (k, x) in rows.iter().enumerate() {
        life(&mut r, x, k, &mut evs);
    }
    for (day, hour, loc) in WALKS {
        evs.push((START + day * DAY + hour * HOUR + r.range(0, 1_800) * SECOND, usize::MAX, Ev::Walk(loc)));
    }
    evs.sort_by_key(|e| (e.0, e.1));
    let mut now: Vec<Now> = rows
        .iter()
        .map(|x| Now {
            name: x.name.clone(),
            status: x.status,
            loc: x.loc,
            rtd: x.rtd,
            next_audit: x.audit.then(|| add_months(local_day(x.at), 12)),
            notes: x.notes.clone(),
            cost: x.cost,
            mac: x.mac.clone(),
            imei: x.imei.clone(),
            updated: wall(x.at),
            ..Now::default()
        })
        .collect();
    for (t, k, ev) in evs.iter().filter(|e| e.0 < NOW) {
        if let Ev::Walk(loc) = ev {
            let mut at = *t;
            for (x, s) in rows.iter().zip(now.iter_mut()) {
                if x.at < *t && s.deleted.is_none() && s.loc == Some(*loc) && r.chance(0.85) {
                    at += r.range(4, 20) * SECOND;
                    apply(&mut r, x, s, at, &Ev::Audit);
                }
            }
            continue;
        }
        if now[*k].deleted.is_none() {
            apply(&mut r, &rows[*k], &mut now[*k], *t, ev);
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("assets", &columns);
    let mut seen: HashSet<String> = HashSet::new();
    for (k, (x, s)) in rows.iter().zip(&now).enumerate() {
        let id = ID0 + k as i64;
        let (model, _, eol, _, _, _) = MODELS[x.model];
        let (assigned_to, assigned_type) = match s.assigned {
            Some(Target::User(u)) => (Some(u), Some(USER)),
            Some(Target::Place(p)) => (Some(p), Some(PLACE)),
            None => (None, s.kept_type),
        };
        f.push(&[
            ("id", V::I(id)),
            ("name", V::opt_t(s.name.as_deref())),
            ("asset_tag", V::t(&tags[k])),
            ("model_id", V::I(model)),
            ("serial", V::opt_t(x.serial.as_deref())),
            ("purchase_date", x.bought.map_or(V::Null, date)),
            ("asset_eol_date", x.bought.filter(|_| eol > 0).map_or(V::Null, |b| date(add_months(b, eol)))),
            ("eol_explicit", V::B(false)),
            ("purchase_cost", s.cost.map_or(V::Null, |c| V::F(c as f64 / 100.0))),
            ("order_number", V::opt_t(x.order.as_deref())),
            ("assigned_to", V::opt_i(assigned_to)),
            ("notes", V::opt_t(s.notes.as_deref())),
            ("image", if x.blank { V::t("") } else { V::Null }),
            ("created_by", V::opt_i(x.by)),
            ("created_at", V::AtSecs(wall(x.at))),
            ("updated_at", V::AtSecs(s.updated)),
            ("physical", V::B(true)),
            ("deleted_at", s.deleted.map_or(V::Null, V::AtSecs)),
            ("status_id", V::I(s.status)),
            ("archived", V::B(false)),
            ("warranty_months", V::opt_i(x.warranty)),
            ("supplier_id", V::opt_i(x.supplier)),
            ("requestable", V::I(i64::from(x.requestable))),
            ("rtd_location_id", V::opt_i(s.rtd)),
            ("_snipeit_mac_address_1", V::opt_t(s.mac.as_deref())),
            ("last_checkout", s.last_out.map_or(V::Null, V::AtSecs)),
            ("last_checkin", s.last_in.map_or(V::Null, V::AtSecs)),
            ("expected_checkin", s.expected.map_or(V::Null, date)),
            ("company_id", V::opt_i(x.company)),
            ("assigned_type", V::opt_t(assigned_type)),
            ("last_audit_date", s.audited.map_or(V::Null, V::AtSecs)),
            ("next_audit_date", s.next_audit.map_or(V::Null, date)),
            ("location_id", V::opt_i(s.loc)),
            ("checkin_counter", V::I(s.ins)),
            ("checkout_counter", V::I(s.outs)),
            ("requests_counter", V::I(s.reqs)),
            ("byod", V::B(x.byod)),
            ("_snipeit_ram_2", V::opt_t(x.ram)),
            ("_snipeit_cpu_3", V::opt_t(x.cpu)),
            ("_snipeit_imei_4", V::opt_t(s.imei.as_deref())),
        ]);
        // Everything a create request carries, less what each write mints (id, tag, times and what follows them).
        let key = format!(
            "{:?}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{:?}|{:?}|{}|{:?}|{:?}|{:?}|{}|{}|{:?}|{:?}|{:?}|{}|{:?}",
            x.name,
            model,
            x.serial,
            x.bought,
            x.cost,
            x.order,
            x.notes,
            x.by,
            x.warranty,
            x.status,
            x.supplier,
            x.rtd,
            x.requestable,
            x.loc,
            x.company,
            x.mac,
            x.audit,
            x.blank,
            x.ram,
            x.cpu,
            x.imei,
            x.byod,
            x.out.map(|o| o.0),
        );
        match x.mark {
            Mark::Retry => {
                f.mark(id, Mark::Retry);
                if x.hidden {
                    f.hidden.insert(id.to_string());
                }
            }
            _ if !seen.insert(key) => f.mark(id, Mark::Legit),
            _ => {}
        }
    }
    f
}
