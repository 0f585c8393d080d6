//! Grocy (PHP, Slim and LessQL on PDO; SQLite only): `stock_log`, the stock journal, as one household's Grocy (Docker
//! on a Raspberry Pi, TZ Europe/Berlin) writes it over 13 weeks of summer: purchases from Barcode Buddy (fed by a USB
//! scanner in the kitchen, it calls `POST /api/stock/products/{id}/add` once per pack scanned), the web UI's purchase
//! page and its shopping list's "add all items to stock" flow (the purchase form once per list item), Grocy Android
//! (quick mode, a request per scan, or the form), recipes consumed with the batch sauce one of them makes, and all
//! that follows: consuming, opening, moving to the freezer and back, editing an entry, throwing overdue food away,
//! inventory corrections and undo.
//! Why `stock_log` and not `stock`: `StockService::AddProduct` writes a row to each, but the `stock` row does not
//! outlive the purchase as a record of it. `CompactStockEntries`, run at the end of every AddProduct and
//! EditStockEntry, folds the stock rows alike in all `stock_splits` groups by (product, due date, purchase date, price,
//! open, opened date, location, store, note) into the newest one with the summed amount and the oldest stock id, so a
//! retried purchase never leaves a second `stock` row; consuming lowers and then deletes the row, opening part of it
//! splits it, undo deletes it. `stock_log` keeps one row per purchase for good (only removing the product deletes
//! journal rows); what happens later writes rows of its own, and changes a purchase's row only by undo and compaction.
//! Read: grocy/grocy (acd061e, 4.6.0) services/StockService.php (`AddProduct`, `ConsumeProduct`, `OpenProduct`,
//! `TransferProduct`, `EditStockEntry`, `InventoryProduct`, `UndoBooking`, `UndoTransaction`, `CompactStockEntries`,
//! `GetProductStockEntries`), services/RecipesService.php (`ConsumeRecipe`), controllers/Api/StockApiController.php,
//! controllers/Api/BaseApiController.php (every value through HTMLPurifier: numbers arrive as strings),
//! services/ApplicationService.php, helpers/WebhookRunner.php; migrations/0004, 0005, 0029, 0044, 0046, 0049, 0051,
//! 0055, 0095, 0099, 0114, 0157 (the table as it is now), 0178 (`note`, `stock_splits`), 0183, 0222 (the indexes),
//! 0226 (the price caches' triggers) and the last `stock_next_use`; public/viewjs/purchase.js, shoppinglist.js,
//! consume.js, inventory.js, stockentryform.js, recipes.js, public/js/grocy.js (`BeginUiBusy` disables the form while
//! it posts: no double click). morris/lessql (4a55f1b) src/LessQL/Database.php (one INSERT per row, values quoted:
//! floats as '%F', false as '0'). Forceu/barcodebuddy incl/api.inc.php (`purchaseProduct` sends amount,
//! transaction_type and best_before_date = today plus the product's default days, no location, store, price or note;
//! `consumeProduct`, `openProduct`) and incl/curl.inc.php. patzly/grocy-android web/CustomJsonObjectRequest.java
//! (Volley's `DefaultRetryPolicy` with one retry after the timeout), Constants.java (the timeout defaults to 30 s),
//! viewmodel/PurchaseViewModel.java and the purchase form's `getFilledJSONObject` (amount, price, best_before_date,
//! shopping_location_id, location_id; no note).
//! On a purchase: `id` the next AUTOINCREMENT; `transaction_id` and `stock_id` PHP's `uniqid()` (8 hex digits of the
//! second, 5 of the microsecond) taken one right after the other; `row_created_timestamp` SQLite's datetime('now',
//! 'localtime'); `purchased_date` today (no client here sends one); `best_before_date` as sent, else today plus the
//! product's default days (2999-12-31 for never; today where the product has none, which Barcode Buddy sends for ham,
//! meat and juice, put right by an edit minutes later); `amount` in stock units (a box of eggs is 10); `price` the unit
//! price as sent (NULL from Barcode Buddy, often from the app); `location_id` as sent, else the product's default
//! location (the AFTER INSERT trigger); `shopping_location_id` as sent; `note` '' from the web forms, NULL from the
//! apps; `user_id` the API key's or the session's user. Then compaction: a purchase alike to an untouched entry (the
//! next pack scanned, a retry, a second shop the same day) takes that entry's older stock id, in `stock` and in the
//! journal. A recipe consumed writes its ingredients' rows under one transaction id with `recipe_id`, then the batch
//! sauce as `self-production` with the recipe's name as note and its cost per serving as price.
//! Later: consume rows (negative `amount`, `used_date`, `spoiled`, the entry's dates, price, location, store and
//! note), `product-opened` rows (the rest of a pack split off under a new stock id, the due date shortened),
//! `transfer_from`/`transfer_to` pairs sharing a `correlation_id` (the due date reset on freezing and thawing),
//! `stock-edit-old`/`stock-edit-new` pairs with `stock_row_id`, `inventory-correction` rows both ways. Undo sets
//! `undone` and `undone_timestamp` (PHP's local time) and takes the stock back; undoing a purchase deletes every stock
//! row with its stock id, so undoing one of two merged purchases empties the entry, and an inventory correction then
//! puts the real amount back.
//! Retries (about 2% of the rows): Barcode Buddy's scanner client posting a scan again (`client_retry_delay`,
//! sometimes twice); Grocy Android's Volley sending a purchase, consume or open again 30 s after a request that hung
//! on the Pi (the first insert came late in those 30 s); the web UI's 504 after nginx's 60 s (PHP went on and stored
//! the row) and Save clicked again on the still-filled form, or the page reloaded and the item entered again minutes
//! later. A consume sent again is kept only where it took from the same entry as the first; an open sent again opens
//! the rest of the same pack. Three in the last day. The extra row is undone from the journal (the extra or the
//! original one, the entry then refilled by an inventory correction), booked out days later by an inventory
//! correction, or left alone. Two rescans 4-8 s after a lone scan that did go through, of products bought by the half
//! dozen, are hidden: they are what the next pack scanned looks like.
//! Legitimate repeats: several packs of one product scanned one after the other (seconds apart, alike, merged into one
//! stock id), a product twice on the shopping list, milk from the kiosk in the morning and at the weekly shop, a
//! second cup or bottle from one entry scanned at the bin right after the first or taken later that day. Plain
//! near-repeats: the weekly shop of the same products (a new purchase and due date each week), consuming from one
//! entry on different days, a wrong amount undone from the snackbar and entered again.
//! The stock the window opens with was bought before it: its purchases are not in the table, its later rows are.
//! Guessed: the household, its products and their settings (default due days, 90 days after freezing, 2 after
//! thawing), prices, stores and recipes; how much it eats and how much of that it logs, with what; the clients' retry
//! rates and delays; Barcode Buddy's scanner client; the server and PHP in Europe/Berlin (summer time all window).
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite];

/// The table as migration 0157 rebuilt it, 0178's `note` (added by ALTER TABLE, so last) and 0222's indexes. Left out
/// with the tables they reach into: 0157's AFTER INSERT trigger (a NULL `location_id` becomes the product's default
/// location: the rows here hold what it sets) and 0226's triggers that refresh the price caches.
const SQLITE: &str = "CREATE TABLE stock_log (
\tid INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT UNIQUE,
\tproduct_id INTEGER NOT NULL,
\tamount DECIMAL(15, 2) NOT NULL,
\tbest_before_date DATE,
\tpurchased_date DATE,
\tused_date DATE,
\tspoiled INTEGER NOT NULL DEFAULT 0,
\tstock_id TEXT NOT NULL,
\ttransaction_type TEXT NOT NULL,
\tprice DECIMAL(15, 2),
\tundone TINYINT NOT NULL DEFAULT 0 CHECK(undone IN (0, 1)),
\tundone_timestamp DATETIME,
\topened_date DATETIME,
\tlocation_id INTEGER,
\trecipe_id INTEGER,
\tcorrelation_id TEXT,
\ttransaction_id TEXT,
\tstock_row_id INTEGER,
\tshopping_location_id INTEGER,
\tuser_id INTEGER NOT NULL,
\trow_created_timestamp DATETIME DEFAULT (datetime('now', 'localtime'))
);
ALTER TABLE stock_log
ADD note TEXT;
CREATE INDEX ix_stock_log_performance1 ON stock_log (
\tstock_id,
\ttransaction_type,
\tamount
);
CREATE INDEX ix_stock_log_performance2 ON stock_log (
\tproduct_id,
\tbest_before_date,
\tpurchased_date,
\ttransaction_type,
\tstock_id,
\tundone
)";

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Sqlite => SQLITE.to_string(),
        Engine::Postgres | Engine::MySql => unreachable!("Grocy runs on SQLite only"),
    }
}

const COLUMNS: &str = "id product_id amount best_before_date purchased_date used_date spoiled stock_id \
    transaction_type price undone undone_timestamp opened_date location_id recipe_id correlation_id transaction_id \
    stock_row_id shopping_location_id user_id row_created_timestamp note";

const NOW: i64 = T0;
const DAYS: i64 = 91;
const START: i64 = T0 - DAYS * DAY;
/// Europe/Berlin on summer time, the zone of SQLite's 'localtime' and PHP's date() on the server.
const LOCAL: i64 = 2 * HOUR;
/// Journal rows and stock rows written before the window.
const ID0: i64 = 11_482;
const ROW0: i64 = 5_903;
/// 2999-12-31, Grocy's "never overdue", in days since 1970.
const NEVER: i64 = days_from_civil(2999, 12, 31);
/// Days a product keeps after thawing.
const THAW: i64 = 2;

const PANTRY: u8 = 1;
const FRIDGE: u8 = 2;
const FREEZER: u8 = 3;
const CELLAR: u8 = 4;
const BATHROOM: u8 = 5;
const REWE: u8 = 1;
const ALDI: u8 = 2;
const DM: u8 = 3;
const BAKERY: u8 = 4;
/// Jana (the web UI, and the API key Barcode Buddy uses) and Tobias (Grocy Android, now and then the web UI).
const JANA: i64 = 1;
const TOBIAS: i64 = 2;

const PURCHASE: &str = "purchase";
const CONSUME: &str = "consume";
const OPENED: &str = "product-opened";
const FROM: &str = "transfer_from";
const TO: &str = "transfer_to";
const EDIT_OLD: &str = "stock-edit-old";
const EDIT_NEW: &str = "stock-edit-new";
const INVENTORY: &str = "inventory-correction";
const MADE: &str = "self-production";

/// The first retryable request after each of these is sent again.
const LATE: [i64; 3] = [NOW - 21 * HOUR, NOW - 13 * HOUR, NOW - 5 * HOUR];
/// Days (from the first) of the monthly inventory, Sundays.
const INVENTORY_DAYS: [i64; 3] = [10, 38, 66];
/// When, by local hour, something is taken from stock and logged.
const MEALS: [i64; 24] = [0, 0, 0, 0, 0, 0, 2, 8, 6, 2, 1, 2, 5, 3, 2, 3, 2, 2, 6, 7, 5, 4, 3, 1];
/// What the small shops after work are for.
const FRESH: [i64; 12] = [3, 5, 12, 14, 15, 17, 21, 37, 41, 42, 43, 44];

/// A product: id, default location, default due days (-1 never, 0 none: the date is taken from the pack), the days
/// printed on the pack (when 0), price per stock unit in cents, stock units in a pack, packs bought at most, units
/// used at once, uses a day (opening a pack and finishing it are both uses where opening is tracked), due days after
/// opening (0: opening not tracked), due days after freezing (0: never frozen), the usual store.
type Spec = (i64, u8, i64, i64, i64, f64, i64, f64, f64, i64, i64, u8);
/// A recipe: id, name, positions (product id, amount in stock units), what it makes (product id, servings).
type Recipe = (i64, &'static str, &'static [(i64, f64)], Option<(i64, f64)>);
/// What a retry must find again to take the same: the product, the stock id its first attempt took from, the amount.
type Head = (usize, String, f64);

#[rustfmt::skip]
const PRODUCTS: &[Spec] = &[
    (3, FRIDGE, 8, 0, 109, 1.0, 4, 1.0, 0.8, 4, 0, ALDI),        // milk, 1 l
    (5, FRIDGE, 14, 0, 49, 1.0, 6, 1.0, 0.7, 0, 0, REWE),        // yoghurt, a cup
    (6, FRIDGE, 30, 0, 239, 1.0, 2, 1.0, 0.16, 21, 0, ALDI),     // butter
    (8, FRIDGE, 21, 0, 199, 1.0, 2, 1.0, 0.25, 5, 0, REWE),      // sliced cheese
    (9, FRIDGE, 21, 0, 33, 10.0, 1, 2.0, 0.45, 0, 0, ALDI),      // eggs, 10 a box
    (11, FRIDGE, 10, 0, 89, 1.0, 2, 1.0, 0.04, 3, 0, REWE),      // cream
    (12, FRIDGE, 0, 6, 179, 1.0, 2, 1.0, 0.3, 4, 0, REWE),       // sliced ham
    (14, FRIDGE, 0, 4, 549, 1.0, 2, 1.0, 0.0, 0, 90, REWE),      // chicken breast
    (15, FRIDGE, 0, 2, 449, 1.0, 2, 1.0, 0.0, 0, 90, REWE),      // minced beef
    (17, FRIDGE, 0, 21, 229, 1.0, 2, 1.0, 0.5, 5, 0, REWE),      // orange juice
    (19, FRIDGE, 14, 0, 89, 1.0, 3, 1.0, 0.0, 0, 0, ALDI),       // mozzarella
    (42, FRIDGE, 14, 0, 249, 1.0, 1, 1.0, 0.15, 0, 0, ALDI),     // apples, 1 kg
    (43, FRIDGE, 6, 0, 199, 1.0, 1, 1.0, 0.0, 0, 0, REWE),       // tomatoes, 500 g
    (44, FRIDGE, 7, 0, 69, 1.0, 2, 1.0, 0.2, 0, 0, ALDI),        // cucumber
    (21, PANTRY, 6, 0, 149, 1.0, 2, 1.0, 0.2, 0, 0, ALDI),       // toast
    (23, PANTRY, 365, 0, 99, 1.0, 4, 1.0, 0.06, 0, 0, ALDI),     // spaghetti, 500 g
    (24, PANTRY, 365, 0, 189, 1.0, 2, 0.25, 0.0, 0, 0, ALDI),    // rice, 1 kg
    (25, PANTRY, 730, 0, 79, 1.0, 4, 1.0, 0.05, 0, 0, ALDI),     // chopped tomatoes, a tin
    (26, PANTRY, 180, 0, 1099, 1.0, 2, 1.0, 0.14, 30, 0, REWE),  // coffee beans, 1 kg
    (27, PANTRY, 180, 0, 299, 1.0, 2, 1.0, 0.2, 60, 0, REWE),    // muesli
    (28, PANTRY, 365, 0, 229, 1.0, 1, 1.0, 0.08, 30, 0, REWE),   // jam
    (29, PANTRY, 365, 0, 199, 1.0, 1, 1.0, 0.06, 60, 0, REWE),   // ketchup
    (31, PANTRY, 540, 0, 699, 1.0, 1, 1.0, 0.04, 180, 0, REWE),  // olive oil
    (32, PANTRY, 365, 0, 79, 1.0, 2, 0.25, 0.0, 0, 0, ALDI),     // flour, 1 kg
    (33, PANTRY, -1, 0, 99, 1.0, 1, 0.25, 0.0, 0, 0, ALDI),      // sugar, 1 kg
    (34, PANTRY, 365, 0, 199, 1.0, 2, 1.0, 0.05, 0, 0, REWE),    // tea
    (35, PANTRY, 180, 0, 129, 1.0, 4, 1.0, 0.2, 0, 0, ALDI),     // chocolate
    (36, PANTRY, 120, 0, 169, 1.0, 3, 1.0, 0.12, 0, 0, ALDI),    // crisps
    (37, PANTRY, 180, 0, 239, 1.0, 4, 1.0, 0.4, 5, 0, REWE),     // oat drink
    (38, PANTRY, 365, 0, 99, 1.0, 3, 1.0, 0.0, 0, 0, ALDI),      // passata
    (41, PANTRY, 5, 0, 179, 1.0, 1, 1.0, 0.2, 0, 0, ALDI),       // bananas
    (47, PANTRY, 4, 0, 389, 1.0, 1, 1.0, 0.25, 0, 0, BAKERY),    // rye bread
    (45, CELLAR, 30, 0, 129, 1.0, 1, 0.5, 0.0, 0, 0, ALDI),      // onions, 1 kg
    (46, CELLAR, 21, 0, 299, 1.0, 1, 0.5, 0.07, 0, 0, ALDI),     // potatoes, 2.5 kg
    (61, CELLAR, 365, 0, 39, 6.0, 2, 1.0, 0.9, 0, 0, ALDI),      // sparkling water, 6 bottles
    (62, CELLAR, 180, 0, 85, 20.0, 1, 1.0, 0.4, 0, 0, REWE),     // beer, a crate of 20
    (63, CELLAR, 365, 0, 129, 6.0, 1, 1.0, 0.25, 0, 0, ALDI),    // apple juice, 6 bottles
    (51, FREEZER, 180, 0, 299, 1.0, 3, 1.0, 0.0, 0, 0, REWE),    // frozen pizza
    (52, FREEZER, 365, 0, 149, 1.0, 2, 0.5, 0.0, 0, 0, ALDI),    // peas
    (53, FREEZER, 180, 0, 349, 1.0, 2, 1.0, 0.12, 30, 0, REWE),  // ice cream
    (54, FREEZER, 270, 0, 279, 1.0, 2, 1.0, 0.0, 0, 0, ALDI),    // fish fingers
    (55, FREEZER, 90, 0, 0, 1.0, 0, 1.0, 0.0, 0, 0, 0),          // bolognese, a portion (made by recipe 11)
    (71, BATHROOM, -1, 0, 49, 8.0, 1, 1.0, 0.25, 0, 0, DM),      // toilet paper, 8 rolls
    (72, BATHROOM, -1, 0, 195, 1.0, 2, 1.0, 0.02, 0, 0, DM),     // toothpaste
    (73, BATHROOM, -1, 0, 145, 1.0, 2, 1.0, 0.03, 0, 0, DM),     // shower gel
    (74, PANTRY, -1, 0, 125, 1.0, 1, 1.0, 0.02, 0, 0, DM),       // washing-up liquid
    (75, PANTRY, -1, 0, 15, 40.0, 1, 1.0, 0.3, 0, 0, DM),        // dishwasher tablets, 40
];

#[rustfmt::skip]
const RECIPES: &[Recipe] = &[
    (2, "Spaghetti bolognese", &[(23, 1.0), (15, 1.0), (38, 1.0), (45, 0.5)], None),
    (4, "Chicken curry", &[(14, 1.0), (24, 0.25), (11, 1.0), (45, 0.5)], None),
    (5, "Pancakes", &[(9, 3.0), (3, 0.5), (32, 0.25), (33, 0.25)], None),
    (6, "Pizza night", &[(51, 2.0)], None),
    (9, "Caprese", &[(43, 1.0), (19, 2.0)], None),
    (11, "Bolognese sauce (batch)", &[(15, 2.0), (38, 2.0), (45, 1.0), (25, 1.0)], Some((55, 4.0))),
    (12, "Pasta with sauce from the freezer", &[(55, 2.0), (23, 1.0)], None),
    (13, "Fish fingers with potatoes", &[(54, 1.0), (46, 0.5), (52, 0.5)], None),
];

#[derive(Clone, Copy)]
struct P {
    id: i64,
    loc: u8,
    days: i64,
    printed: i64,
    cents: i64,
    pack: f64,
    most: i64,
    bite: f64,
    rate: f64,
    open: i64,
    freeze: i64,
    store: u8,
}

fn product(k: usize) -> P {
    let (id, loc, days, printed, cents, pack, most, bite, rate, open, freeze, store) = PRODUCTS[k];
    P { id, loc, days, printed, cents, pack, most, bite, rate, open, freeze, store }
}

fn index(id: i64) -> usize {
    PRODUCTS.iter().position(|s| s.0 == id).unwrap_or_else(|| panic!("no product {id}"))
}

/// A row of `stock` (days since 1970 for the dates).
#[derive(Clone)]
struct Entry {
    row: i64,
    k: usize,
    amount: f64,
    due: i64,
    bought: i64,
    price: Option<f64>,
    loc: u8,
    store: Option<u8>,
    note: Option<String>,
    opened: Option<i64>,
    sid: String,
}

/// A row of `stock_log` (`at` the insert, UTC).
#[derive(Clone)]
struct Log {
    at: i64,
    k: usize,
    amount: f64,
    due: i64,
    bought: i64,
    used: Option<i64>,
    spoiled: bool,
    sid: String,
    ty: &'static str,
    price: Option<f64>,
    undone: Option<i64>,
    opened: Option<i64>,
    loc: u8,
    recipe: Option<i64>,
    corr: Option<String>,
    tx: String,
    row: Option<i64>,
    store: Option<u8>,
    user: i64,
    note: Option<String>,
    mark: Mark,
    hidden: bool,
}

impl Log {
    /// A row about stock entry `e`, as the services copy the entry into it.
    fn of(e: &Entry, at: i64, ty: &'static str, amount: f64, tx: &str, user: i64) -> Log {
        Log {
            at,
            k: e.k,
            amount,
            due: e.due,
            bought: e.bought,
            used: None,
            spoiled: false,
            sid: e.sid.clone(),
            ty,
            price: e.price,
            undone: None,
            opened: e.opened,
            loc: e.loc,
            recipe: None,
            corr: None,
            tx: tx.to_string(),
            row: None,
            store: e.store,
            user,
            note: e.note.clone(),
            mark: Mark::Plain,
            hidden: false,
        }
    }
}

/// Barcode Buddy (with its scanner), the web UI, Grocy Android.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Client {
    Scanner,
    Web,
    Phone,
}

/// What AddProduct is given (None: the server's default).
#[derive(Clone)]
struct Add {
    k: usize,
    amount: f64,
    due: Option<i64>,
    price: Option<f64>,
    loc: Option<u8>,
    store: Option<u8>,
    note: Option<String>,
    ty: &'static str,
}

/// What ConsumeProduct is given: from the next entries, or from one (`only`).
#[derive(Clone)]
struct Take {
    k: usize,
    amount: f64,
    spoiled: bool,
    only: Option<String>,
    ty: &'static str,
}

/// A request to the API; transfers and edits name the journal row whose stock entry they act on.
#[derive(Clone)]
enum Req {
    Add(Add),
    Consume(Take),
    Open(usize),
    Recipe(usize),
    Transfer { log: usize, to: u8 },
    Edit { log: usize, due: i64 },
    Undo(usize),
    UndoTx(String),
}

/// A request from a client; `lone`: a pack scanned with no other of its kind right after it.
#[derive(Clone)]
struct Sent {
    req: Req,
    client: Client,
    user: i64,
    lone: bool,
}

/// A request sent again: what the first attempt took from, its first row.
struct Again {
    sent: Sent,
    hidden: bool,
    want: Vec<Head>,
    orig: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Trip {
    Weekly,
    Small,
    Drugstore,
    Bakery,
}

enum Job {
    Shop(Trip),
    Use(usize),
    Cook,
    Check,
    Inventory,
    Request(Box<Sent>),
    Retry(Box<Again>),
    Cleanup { rows: Vec<usize>, orig: usize },
    Fix { undone: usize, log: usize },
}

#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Reverse<(i64, usize)>>,
    jobs: Vec<Option<Job>>,
}

impl Queue {
    fn push(&mut self, t: i64, job: Job) {
        self.heap.push(Reverse((t, self.jobs.len())));
        self.jobs.push(Some(job));
    }

    fn pop(&mut self) -> Option<(i64, Job)> {
        let Reverse((t, i)) = self.heap.pop()?;
        Some((t, self.jobs[i].take()?))
    }
}

/// Days since 1970 of a date.
const fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

/// A date as SQLite and PHP write it.
fn date(z: i64) -> V {
    let z = z + 719_468;
    let (era, doe) = (z.div_euclid(146_097), z.rem_euclid(146_097));
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    V::t(format!("{y:04}-{m:02}-{d:02}"))
}

/// The local day of a time.
fn day_of(t: i64) -> i64 {
    (t + LOCAL).div_euclid(DAY)
}

/// A local day and time, as UTC.
fn clock(day: i64, hour: i64, minute: i64) -> i64 {
    day * DAY + hour * HOUR + minute * MINUTE - LOCAL
}

/// A moment on a local day, between minutes `lo` and `hi` after the hour.
fn moment(r: &mut Rng, day: i64, hour: i64, lo: i64, hi: i64) -> i64 {
    clock(day, hour, r.range(lo, hi)) + r.range(0, 59) * SECOND + micros(r)
}

/// The time, or the next morning's if it falls in the night.
fn awake(r: &mut Rng, t: i64) -> i64 {
    let (day, hour) = (day_of(t), (t + LOCAL).rem_euclid(DAY) / HOUR);
    match hour {
        7..=22 => t,
        23 => moment(r, day + 1, 7, 0, 120),
        _ => moment(r, day, 7, 0, 120),
    }
}

/// PHP's uniqid(): the second and the microsecond in hex.
fn uniqid(us: i64) -> String {
    format!("{:08x}{:05x}", us.div_euclid(SECOND), us.rem_euclid(SECOND))
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

fn count(r: &mut Rng, rate: f64) -> usize {
    let (mut n, mut left) = (0, rate);
    while left > 0.0 {
        n += usize::from(r.chance(left.min(1.0)));
        left -= 1.0;
    }
    n
}

/// An amount as SQLite's NUMERIC affinity keeps it: whole numbers as integers.
fn num(x: f64) -> V {
    if x.fract().abs() < 1e-9 { V::I(x as i64) } else { V::F(x) }
}

fn alike(a: &Entry, b: &Entry) -> bool {
    a.due == b.due
        && a.bought == b.bought
        && a.price.map(f64::to_bits) == b.price.map(f64::to_bits)
        && a.opened == b.opened
        && a.loc == b.loc
        && a.store == b.store
        && a.note.as_deref().unwrap_or("") == b.note.as_deref().unwrap_or("")
}

struct World {
    r: Rng,
    stock: Vec<Entry>,
    logs: Vec<Log>,
    row: i64,
    q: Queue,
    late: usize,
    hidden: usize,
}

impl World {
    fn stock_of(&self, k: usize) -> f64 {
        self.stock.iter().filter(|e| e.k == k).map(|e| e.amount).sum()
    }

    /// The product's entries in `stock_next_use` order: opened first, then the first due, then the first bought.
    fn order(&self, k: usize, unopened: bool) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .stock
            .iter()
            .enumerate()
            .filter(|(_, e)| e.k == k && !(unopened && e.opened.is_some()))
            .map(|(i, _)| i)
            .collect();
        v.sort_by_key(|&i| {
            let e = &self.stock[i];
            (e.opened.is_none(), e.due, e.bought, e.row)
        });
        v
    }

    fn drop_entries(&mut self, mut gone: Vec<usize>) {
        gone.sort_unstable();
        for i in gone.into_iter().rev() {
            self.stock.remove(i);
        }
    }

    /// A later moment for someone to notice something: minutes, hours or days.
    fn later(&mut self) -> i64 {
        let r = &mut self.r;
        match r.weighted(&[50, 35, 15]) {
            0 => r.range(2, 30) * MINUTE + micros(r),
            1 => r.range(1, 8) * HOUR + r.range(0, 3_599) * SECOND,
            _ => r.range(24, 72) * HOUR + r.range(0, 3_599) * SECOND,
        }
    }

    /// The due date a form proposes (or the one typed from the pack).
    fn due(&mut self, p: P, day: i64) -> i64 {
        match p.days {
            -1 => NEVER,
            0 => day + p.printed + self.r.range(0, 2),
            d => day + d,
        }
    }

    /// What the stock of the household looks like when the window opens.
    fn pantry(&mut self) {
        let day0 = day_of(START);
        let mut found: Vec<(i64, Entry)> = Vec::new();
        for k in 0..PRODUCTS.len() {
            let p = product(k);
            let n = if p.rate > 0.0 { self.r.range(1, 2) } else { self.r.range(0, 1) };
            for j in 0..n {
                let span = match p.days {
                    -1 => 60,
                    0 => p.printed.max(1),
                    d => d.min(30),
                };
                let bought = day0 - self.r.range(1, span);
                let (mut due, mut loc) = match p.days {
                    -1 => (NEVER, p.loc),
                    0 => (bought + p.printed, p.loc),
                    d => (bought + d, p.loc),
                };
                if p.freeze > 0 && self.r.chance(0.6) {
                    (due, loc) = (bought + p.freeze, FREEZER);
                }
                if due < day0 {
                    continue;
                }
                let amount = if p.pack > 1.0 { self.r.range(1, p.pack as i64) } else { self.r.range(1, p.most.max(1)) };
                let hour = self.r.range(9, 19);
                let at = moment(&mut self.r, bought, hour, 0, 59);
                let price = (p.cents > 0 && self.r.chance(0.6)).then(|| p.cents as f64 / 100.0);
                let store = (p.store > 0 && self.r.chance(0.6)).then_some(p.store);
                let mut e = Entry {
                    row: 0,
                    k,
                    amount: amount as f64,
                    due,
                    bought,
                    price,
                    loc,
                    store,
                    note: None,
                    opened: None,
                    sid: uniqid(at),
                };
                if j == 0 && p.open > 0 && self.r.chance(0.6) {
                    let opened = (day0 - self.r.range(0, 3.min(p.open - 1))).max(bought);
                    if e.amount > 1.0 {
                        let rest = Entry {
                            amount: e.amount - 1.0,
                            sid: uniqid(moment(&mut self.r, opened, 8, 0, 30)),
                            ..e.clone()
                        };
                        found.push((at + SECOND, rest));
                    }
                    (e.amount, e.opened, e.due) = (1.0, Some(opened), e.due.min(opened + p.open));
                }
                found.push((at, e));
            }
        }
        found.sort_by_key(|x| x.0);
        for (n, (_, mut e)) in found.into_iter().enumerate() {
            e.row = ROW0 - 400 + 3 * n as i64;
            self.stock.push(e);
        }
    }

    /// CompactStockEntries: entries alike in all `stock_splits` groups by become the newest of them, with the sum and
    /// the oldest stock id; the journal's rows follow the stock id.
    fn compact(&mut self, k: usize) {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, e) in self.stock.iter().enumerate() {
            if e.k != k || e.sid.starts_with('x') {
                continue;
            }
            match groups.iter_mut().find(|g| alike(&self.stock[g[0]], e)) {
                Some(g) => g.push(i),
                None => groups.push(vec![i]),
            }
        }
        let mut gone = Vec::new();
        for g in groups.into_iter().filter(|g| g.len() > 1) {
            let Some(sid) = g.iter().map(|&i| self.stock[i].sid.clone()).min() else { continue };
            let Some(keep) = g.iter().copied().max_by_key(|&i| self.stock[i].row) else { continue };
            let total: f64 = g.iter().map(|&i| self.stock[i].amount).sum();
            for &i in &g {
                let old = self.stock[i].sid.clone();
                if old != sid {
                    for l in self.logs.iter_mut().filter(|l| l.sid == old) {
                        l.sid = sid.clone();
                    }
                }
                if i != keep {
                    gone.push(i);
                }
            }
            (self.stock[keep].amount, self.stock[keep].sid) = (total, sid);
        }
        self.drop_entries(gone);
    }

    /// AddProduct: the journal's row, the stock row, compaction.
    fn add(&mut self, t: i64, a: &Add, user: i64) -> usize {
        let p = product(a.k);
        let day = day_of(t);
        let due = a.due.unwrap_or(match p.days {
            -1 => NEVER,
            0 => day,
            d => day + d,
        });
        let tx_at = t + self.r.range(20_000, 150_000);
        let sid_at = tx_at + self.r.range(50, 120);
        let at = sid_at + self.r.range(300, 3_000);
        let e = Entry {
            row: self.row,
            k: a.k,
            amount: a.amount,
            due,
            bought: day,
            price: a.price,
            loc: a.loc.unwrap_or(p.loc),
            store: a.store,
            note: a.note.clone(),
            opened: None,
            sid: uniqid(sid_at),
        };
        self.row += 1;
        self.logs.push(Log::of(&e, at, a.ty, a.amount, &uniqid(tx_at), user));
        self.stock.push(e);
        self.compact(a.k);
        self.logs.len() - 1
    }

    /// ConsumeProduct: a row per entry it takes from.
    fn consume(&mut self, at: &mut i64, tx: &str, c: &Take, recipe: Option<i64>, user: i64) -> Vec<usize> {
        let day = day_of(*at);
        if c.amount > self.stock_of(c.k) + 1e-9 {
            return Vec::new();
        }
        let mut list = self.order(c.k, false);
        if let Some(sid) = &c.only {
            list.retain(|&i| self.stock[i].sid == *sid);
        }
        let (mut left, mut rows, mut gone) = (c.amount, Vec::new(), Vec::new());
        for i in list {
            if left <= 0.0 {
                break;
            }
            let e = &self.stock[i];
            let (take, whole) = if left >= e.amount { (e.amount, true) } else { (left, false) };
            let mut l = Log::of(e, *at, c.ty, -take, tx, user);
            (l.used, l.spoiled, l.recipe) = (Some(day), c.spoiled, recipe);
            self.logs.push(l);
            rows.push(self.logs.len() - 1);
            if whole {
                gone.push(i);
            } else {
                self.stock[i].amount -= take;
            }
            left -= take;
            *at += self.r.range(400, 2_000);
        }
        self.drop_entries(gone);
        rows
    }

    /// OpenProduct, one unit: the rest of a pack stays unopened under a new stock id.
    fn open(&mut self, t: i64, k: usize, user: i64) -> Vec<usize> {
        let p = product(k);
        let day = day_of(t);
        let list = self.order(k, true);
        if list.iter().map(|&i| self.stock[i].amount).sum::<f64>() < 1.0 {
            return Vec::new();
        }
        let tx_at = t + self.r.range(20_000, 120_000);
        let tx = uniqid(tx_at);
        let mut at = tx_at + self.r.range(300, 1_500);
        let (mut left, mut rows) = (1.0, Vec::new());
        for i in list {
            if left <= 0.0 {
                break;
            }
            let e = self.stock[i].clone();
            let due = if p.open > 0 { e.due.min(day + p.open) } else { e.due };
            let part = if left >= e.amount { e.amount } else { left };
            if part < e.amount {
                let sid = uniqid(at - self.r.range(200, 900));
                self.stock.push(Entry { row: self.row, amount: e.amount - part, sid, ..e.clone() });
                self.row += 1;
            }
            let mut l = Log::of(&e, at, OPENED, part, &tx, user);
            l.opened = Some(day);
            self.logs.push(l);
            rows.push(self.logs.len() - 1);
            let s = &mut self.stock[i];
            (s.amount, s.opened, s.due) = (part, Some(day), due);
            left -= part;
            at += self.r.range(400, 2_000);
        }
        rows
    }

    /// TransferProduct of a whole entry: a pair of rows, the due date reset on freezing and on thawing.
    fn transfer(&mut self, t: i64, log: usize, to: u8, user: i64) -> Vec<usize> {
        let sid = self.logs[log].sid.clone();
        let Some(i) = self.stock.iter().position(|e| e.sid == sid && e.loc != to) else { return Vec::new() };
        let e = self.stock[i].clone();
        let p = product(e.k);
        let day = day_of(t);
        let due = match (e.loc == FREEZER, to == FREEZER) {
            (false, true) if p.freeze > 0 => day + p.freeze,
            (true, false) => day + THAW,
            _ => e.due,
        };
        let tx_at = t + self.r.range(20_000, 120_000);
        let corr_at = tx_at + self.r.range(3_000, 20_000);
        let (tx, corr) = (uniqid(tx_at), uniqid(corr_at));
        let at = corr_at + self.r.range(300, 1_500);
        let mut from = Log::of(&e, at, FROM, -e.amount, &tx, user);
        from.corr = Some(corr.clone());
        let mut into = Log::of(&e, at + self.r.range(400, 2_000), TO, e.amount, &tx, user);
        (into.due, into.loc, into.corr) = (due, to, Some(corr));
        self.logs.push(from);
        self.logs.push(into);
        (self.stock[i].loc, self.stock[i].due) = (to, due);
        let n = self.logs.len();
        vec![n - 2, n - 1]
    }

    /// EditStockEntry from the web form (which sends its note, '' when empty): the old and the new state, compaction.
    fn edit(&mut self, t: i64, log: usize, due: i64, user: i64) -> Vec<usize> {
        let sid = self.logs[log].sid.clone();
        let Some(i) = self.stock.iter().position(|e| e.sid == sid) else { return Vec::new() };
        let old = self.stock[i].clone();
        if old.due == due {
            return Vec::new();
        }
        let corr_at = t + self.r.range(20_000, 120_000);
        let tx_at = corr_at + self.r.range(50, 120);
        let (corr, tx) = (uniqid(corr_at), uniqid(tx_at));
        let at = tx_at + self.r.range(300, 1_500);
        let mut a = Log::of(&old, at, EDIT_OLD, old.amount, &tx, user);
        (a.corr, a.row) = (Some(corr.clone()), Some(old.row));
        let new = Entry { due, note: Some(old.note.clone().unwrap_or_default()), ..old.clone() };
        let mut b = Log::of(&new, at + self.r.range(1_000, 4_000), EDIT_NEW, new.amount, &tx, user);
        (b.corr, b.row) = (Some(corr), Some(old.row));
        self.logs.push(a);
        self.logs.push(b);
        self.stock[i] = new;
        self.compact(old.k);
        let n = self.logs.len();
        vec![n - 2, n - 1]
    }

    /// UndoBooking: refused when a later transfer or edit of the entry exists.
    fn undo(&mut self, t: i64, i: usize) {
        let l = self.logs[i].clone();
        let later = |m: &Log| m.sid == l.sid && m.at > l.at && m.corr.is_some() && m.undone.is_none();
        if l.undone.is_some() || self.logs.iter().any(later) {
            return;
        }
        match l.ty {
            PURCHASE | INVENTORY if l.amount > 0.0 => self.stock.retain(|e| e.sid != l.sid),
            CONSUME | INVENTORY => {
                let back = Entry {
                    row: self.row,
                    k: l.k,
                    amount: -l.amount,
                    due: l.due,
                    bought: l.bought,
                    price: l.price,
                    loc: l.loc,
                    store: l.store,
                    note: l.note.clone(),
                    opened: l.opened,
                    sid: l.sid.clone(),
                };
                self.row += 1;
                self.stock.push(back);
            }
            OPENED => {
                if let Some(e) = self.stock.iter_mut().find(|e| e.sid == l.sid && e.amount == l.amount) {
                    (e.opened, e.due) = (None, l.due);
                }
            }
            _ => return,
        }
        self.logs[i].undone = Some(t + self.r.range(20_000, 200_000));
    }

    /// ConsumeRecipe: each ingredient in stock (as much as there is), one transaction; then what the recipe makes.
    fn cook(&mut self, t: i64, ri: usize, user: i64) -> Vec<usize> {
        let (rid, name, pos, makes) = RECIPES[ri];
        let tx_at = t + self.r.range(30_000, 200_000);
        let tx = uniqid(tx_at);
        let mut at = tx_at + self.r.range(2_000, 20_000);
        let mut rows = Vec::new();
        for &(id, amount) in pos {
            let k = index(id);
            let have = self.stock_of(k);
            if have > 0.0 {
                let take = Take { k, amount: amount.min(have), spoiled: false, only: None, ty: CONSUME };
                rows.extend(self.consume(&mut at, &tx, &take, Some(rid), user));
            }
        }
        if let Some((id, servings)) = makes {
            let cost: f64 =
                pos.iter().map(|&(id, a)| a * product(index(id)).cents as f64).sum::<f64>() / 100.0 / servings;
            let price = Some((cost * 1e6).round() / 1e6);
            let note = Some(name.to_string());
            let add = Add { k: index(id), amount: servings, due: None, price, loc: None, store: None, note, ty: MADE };
            let when = at + self.r.range(5_000, 30_000);
            rows.push(self.add(when, &add, user));
        }
        rows
    }

    fn exec(&mut self, t: i64, req: &Req, user: i64) -> Vec<usize> {
        match req {
            Req::Add(a) => vec![self.add(t, a, user)],
            Req::Consume(c) => {
                let tx_at = t + self.r.range(15_000, 120_000);
                let mut at = tx_at + self.r.range(300, 1_500);
                self.consume(&mut at, &uniqid(tx_at), c, None, user)
            }
            Req::Open(k) => self.open(t, *k, user),
            Req::Recipe(ri) => self.cook(t, *ri, user),
            Req::Transfer { log, to } => self.transfer(t, *log, *to, user),
            Req::Edit { log, due } => self.edit(t, *log, *due, user),
            Req::Undo(i) => {
                self.undo(t, *i);
                Vec::new()
            }
            Req::UndoTx(tx) => {
                let mut rows: Vec<usize> = (0..self.logs.len()).rev().filter(|&j| self.logs[j].tx == *tx).collect();
                rows.sort_by_key(|&j| Reverse(self.logs[j].at));
                for j in rows {
                    self.undo(t, j);
                }
                Vec::new()
            }
        }
    }

    fn push(&mut self, t: i64, req: Req, client: Client, user: i64) {
        self.q.push(t, Job::Request(Box::new(Sent { req, client, user, lone: false })));
    }

    /// A request as the client sends it: a wrong amount now and then (undone from the snackbar, entered again).
    fn send(&mut self, t: i64, s: Sent) {
        if let Req::Add(a) = &s.req
            && a.ty == PURCHASE
            && s.client != Client::Scanner
            && self.r.chance(0.012)
        {
            let wrong = Add { amount: a.amount * 10.0, ..a.clone() };
            let i = self.add(t, &wrong, s.user);
            let undo = t + self.r.range(4, 40) * SECOND + micros(&mut self.r);
            let tx = self.logs[i].tx.clone();
            self.push(undo, Req::UndoTx(tx), s.client, s.user);
            let again = undo + self.r.range(8, 30) * SECOND + micros(&mut self.r);
            self.q.push(again, Job::Request(Box::new(s)));
            return;
        }
        self.request(t, s);
    }

    /// A request the server gets, and the attempts a client makes again when it gets no answer.
    fn request(&mut self, t: i64, s: Sent) {
        let retryable = match &s.req {
            Req::Add(a) => a.ty == PURCHASE,
            Req::Consume(c) => c.ty == CONSUME && !c.spoiled && c.only.is_none(),
            Req::Open(_) | Req::Recipe(_) => true,
            _ => false,
        };
        // The last day's retries: where the second attempt is sure to find the same again.
        let sure = match &s.req {
            Req::Add(_) => true,
            Req::Consume(c) => self.order(c.k, false).first().is_some_and(|&i| self.stock[i].amount >= 2.0 * c.amount),
            _ => false,
        };
        let forced = retryable && sure && self.late < LATE.len() && t > LATE[self.late];
        self.late += usize::from(forced);
        let packs = matches!(&s.req, Req::Add(a) if product(a.k).most >= 3);
        let hide = retryable
            && !forced
            && s.client == Client::Scanner
            && s.lone
            && packs
            && self.hidden < 2
            && t > START + (30 + 25 * self.hidden as i64) * DAY;
        self.hidden += usize::from(hide);
        let rate = match s.client {
            Client::Scanner => 0.045,
            Client::Phone => 0.05,
            Client::Web => 0.025,
        };
        if !(retryable && (forced || hide || self.r.chance(rate))) {
            let rows = self.exec(t, &s.req, s.user);
            self.after(t, &s, &rows);
            return;
        }
        let r = &mut self.r;
        let (first, gaps) = if hide {
            // The beep did not come: scanned again.
            (t, vec![r.range(4_000, 8_000) * 1_000 + r.below(1_000) as i64])
        } else {
            match s.client {
                Client::Scanner => {
                    let g = client_retry_delay(r);
                    let mut gaps = vec![g];
                    if r.chance(0.2) {
                        gaps.push(g + r.range(20, 60) * SECOND + micros(r));
                    }
                    (t, gaps)
                }
                // Volley's one retry after the 30 s timeout; the first attempt was stuck and stored late.
                Client::Phone => (t + r.range(300, 26_000) * 1_000, vec![30 * SECOND + r.range(150, 1_500) * 1_000]),
                // nginx's 504 after 60 s, then Save again; or the page reloaded and the item entered again.
                Client::Web if r.chance(0.65) => {
                    (t + r.range(1_000, 55_000) * 1_000, vec![60 * SECOND + r.range(3, 25) * SECOND + micros(r)])
                }
                Client::Web => (t, vec![r.range(120, 360) * SECOND + micros(r)]),
            }
        };
        let rows = self.exec(first, &s.req, s.user);
        let Some(&orig) = rows.first() else { return };
        self.after(first, &s, &rows);
        let want: Vec<Head> = rows
            .iter()
            .map(|&i| &self.logs[i])
            .filter(|l| l.amount < 0.0)
            .map(|l| (l.k, l.sid.clone(), -l.amount))
            .collect();
        for g in gaps {
            let again = Again { sent: s.clone(), hidden: hide, want: want.clone(), orig };
            self.q.push(t + g, Job::Retry(Box::new(again)));
        }
    }

    /// The attempt sent again, written after the first one's row: it takes from the same entry (or opens the rest of
    /// the same pack), or it is not modelled.
    fn again(&mut self, t: i64, a: Again) {
        let o = &self.logs[a.orig];
        let same = match &a.sent.req {
            Req::Open(k) => self.order(*k, true).first().is_some_and(|&i| {
                let e = &self.stock[i];
                let price = e.price.map(f64::to_bits) == o.price.map(f64::to_bits);
                e.due == o.due
                    && e.bought == o.bought
                    && price
                    && e.loc == o.loc
                    && e.store == o.store
                    && e.amount >= 1.0
            }),
            _ => a.want.iter().all(|(k, sid, amount)| {
                self.order(*k, false)
                    .first()
                    .is_some_and(|&i| self.stock[i].sid == *sid && self.stock[i].amount >= *amount)
            }),
        };
        if !same {
            return;
        }
        let t = t.max(o.at + self.r.range(1_000, 5_000));
        let rows = self.exec(t, &a.sent.req, a.sent.user);
        for &i in &rows {
            (self.logs[i].mark, self.logs[i].hidden) = (Mark::Retry, a.hidden);
        }
        if let Some(&x) = rows.first() {
            let when = self.logs[x].at + self.later();
            let when = awake(&mut self.r, when);
            self.q.push(when, Job::Cleanup { rows, orig: a.orig });
        }
    }

    /// What someone does on finding the stock one too high or too low.
    fn cleanup(&mut self, t: i64, rows: &[usize], orig: usize) {
        let x = rows[0];
        let (ty, k, amount, tx) = (self.logs[x].ty, self.logs[x].k, self.logs[x].amount, self.logs[x].tx.clone());
        let y = self.r.below(100);
        if rows.len() > 1 {
            if y < 50 {
                self.push(t, Req::UndoTx(tx), Client::Web, JANA);
            }
        } else if ty == PURCHASE {
            if y < 40 {
                let which = if self.r.chance(0.7) { x } else { orig };
                self.push(t, Req::Undo(which), Client::Web, JANA);
                if self.r.chance(0.6) {
                    let fix = t + self.r.range(1, 10) * MINUTE + micros(&mut self.r);
                    self.q.push(fix, Job::Fix { undone: which, log: orig });
                }
            } else if y < 65 {
                let take = Take { k, amount, spoiled: false, only: None, ty: INVENTORY };
                let when = t + self.r.range(1, 9) * DAY + self.r.range(0, 3_599) * SECOND;
                let when = awake(&mut self.r, when);
                self.push(when, Req::Consume(take), Client::Web, JANA);
            }
        } else if y < 40 {
            self.push(t, Req::Undo(x), Client::Web, JANA);
        }
    }

    /// After an undo emptied the entry: the inventory page, the real amount back.
    fn fix(&mut self, t: i64, undone: usize, log: usize) {
        if self.logs[undone].undone.is_none() {
            return;
        }
        let o = self.logs[log].clone();
        let p = product(o.k);
        let price = Some(p.cents as f64 / 100.0);
        let (loc, store, note) = (Some(o.loc), Some(p.store), Some(String::new()));
        let add = Add { k: o.k, amount: o.amount, due: Some(o.due), price, loc, store, note, ty: INVENTORY };
        self.request(t, Sent { req: Req::Add(add), client: Client::Web, user: JANA, lone: false });
    }

    /// What follows a purchase: meat into the freezer (and out again to thaw), a due date put right.
    fn after(&mut self, t: i64, s: &Sent, rows: &[usize]) {
        let Req::Add(a) = &s.req else { return };
        let Some(&i) = rows.first() else { return };
        if a.ty != PURCHASE {
            return;
        }
        let p = product(a.k);
        let day = day_of(t);
        let (client, user) = if self.r.chance(0.5) { (Client::Phone, TOBIAS) } else { (Client::Web, JANA) };
        // The next packs of a series scanned join this entry: one edit and one move for them all.
        let l = &self.logs[i];
        let first =
            !self.logs.iter().any(|m| m.ty == PURCHASE && m.sid == l.sid && m.at < l.at && m.at > l.at - 5 * MINUTE);
        if first && p.days == 0 && s.client == Client::Scanner && self.r.chance(0.7) {
            let due = day + p.printed + self.r.range(0, 2);
            let at = t + self.r.range(1, 8) * MINUTE + micros(&mut self.r);
            self.push(at, Req::Edit { log: i, due }, Client::Web, JANA);
        } else if s.client != Client::Scanner && self.logs[i].due != NEVER && self.r.chance(0.015) {
            let due = self.logs[i].due + self.r.one(&[-3, -2, -1, 1, 2, 4]);
            let (next, hour) = (day + self.r.range(1, 2), self.r.range(8, 21));
            let at = moment(&mut self.r, next, hour, 0, 59);
            self.push(at, Req::Edit { log: i, due }, client, user);
        }
        if first && p.freeze > 0 && self.r.chance(0.5) {
            let at = t + self.r.range(10, 40) * MINUTE + micros(&mut self.r);
            self.push(at, Req::Transfer { log: i, to: FREEZER }, client, user);
            if self.r.chance(0.45) {
                let next = day + self.r.range(3, 25);
                let thaw = moment(&mut self.r, next, 7, 0, 90);
                self.push(thaw, Req::Transfer { log: i, to: FRIDGE }, client, user);
            }
        }
    }

    /// What a client sends for a purchase of `amount` units.
    fn purchase(&mut self, k: usize, amount: f64, client: Client, day: i64, store: u8) -> Add {
        let p = product(k);
        let price = Some(p.cents as f64 / 100.0);
        match client {
            Client::Scanner => {
                Add { k, amount, due: None, price: None, loc: None, store: None, note: None, ty: PURCHASE }
            }
            Client::Web => {
                let due = Some(self.due(p, day));
                Add {
                    k,
                    amount,
                    due,
                    price,
                    loc: Some(p.loc),
                    store: Some(store),
                    note: Some(String::new()),
                    ty: PURCHASE,
                }
            }
            Client::Phone => {
                let due = Some(self.due(p, day));
                let price = if self.r.chance(0.7) { price } else { None };
                let store = self.r.chance(0.6).then_some(store);
                Add { k, amount, due, price, loc: Some(p.loc), store, note: None, ty: PURCHASE }
            }
        }
    }

    /// Packs to buy for the next days.
    fn need(&mut self, k: usize, horizon: i64) -> i64 {
        let p = product(k);
        if p.most == 0 {
            return 0;
        }
        let have = self.stock_of(k);
        if p.rate <= 0.0 {
            return if have < p.bite * 2.0 && self.r.chance(0.6) { self.r.range(1, p.most) } else { 0 };
        }
        let daily = if p.open > 0 { p.rate * p.bite / 2.0 } else { p.rate * p.bite };
        let want = daily * horizon as f64 * 1.2 - have;
        if want <= 0.0 { 0 } else { ((want / p.pack).ceil() as i64).clamp(1, p.most) }
    }

    /// A shop and the unpacking after it: each pack scanned, each list item confirmed, or each product on the form.
    fn shop(&mut self, t: i64, trip: Trip) {
        let day = day_of(t);
        let r = &mut self.r;
        let (client, user) = match trip {
            Trip::Weekly => match r.weighted(&[55, 25, 20]) {
                0 => (Client::Scanner, JANA),
                1 => (Client::Web, JANA),
                _ => (Client::Phone, TOBIAS),
            },
            Trip::Small if r.chance(0.8) => (Client::Phone, TOBIAS),
            Trip::Small => (Client::Web, TOBIAS),
            Trip::Drugstore if r.chance(0.7) => (Client::Web, JANA),
            Trip::Drugstore => (Client::Scanner, JANA),
            Trip::Bakery if r.chance(0.5) => (Client::Scanner, JANA),
            Trip::Bakery => (Client::Phone, TOBIAS),
        };
        let all = 0..PRODUCTS.len();
        let (ks, horizon): (Vec<usize>, i64) = match trip {
            Trip::Weekly => (all.filter(|&k| matches!(product(k).store, REWE | ALDI)).collect(), 8),
            Trip::Small => (FRESH.iter().map(|&id| index(id)).collect(), 3),
            Trip::Drugstore => (all.filter(|&k| product(k).store == DM).collect(), 21),
            Trip::Bakery => (vec![index(47)], 3),
        };
        let mut items: Vec<(usize, i64)> = Vec::new();
        if trip == Trip::Bakery && self.r.chance(0.4) {
            // Milk from the kiosk next to the bakery, whatever is at home.
            items.push((index(3), 1));
        }
        for k in ks {
            let n = self.need(k, horizon);
            if n > 0 {
                items.push((k, n));
            }
        }
        for i in (1..items.len()).rev() {
            let j = self.r.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
        let quick = client == Client::Phone && self.r.chance(0.5);
        let list = client == Client::Web && trip == Trip::Weekly;
        let mut at = t;
        for (k, n) in items {
            let p = product(k);
            let store = match trip {
                Trip::Weekly => p.store,
                Trip::Small => REWE,
                Trip::Drugstore => DM,
                Trip::Bakery => BAKERY,
            };
            if client == Client::Scanner || quick {
                // One request per pack scanned.
                let add = self.purchase(k, p.pack, client, day, store);
                for c in 0..n {
                    let sent = Sent { req: Req::Add(add.clone()), client, user, lone: n == 1 };
                    self.q.push(at, Job::Request(Box::new(sent)));
                    at += if c + 1 < n {
                        self.r.range(1_800, 6_000) * 1_000
                    } else {
                        self.r.range(4_000, 20_000) * 1_000 + micros(&mut self.r)
                    };
                }
            } else if list && n >= 2 && self.r.chance(0.12) {
                // On the list twice, a pack each: both put on it during the week.
                let add = self.purchase(k, p.pack, client, day, store);
                self.push(at, Req::Add(add.clone()), client, user);
                at += self.r.range(4, 15) * SECOND + micros(&mut self.r);
                self.push(at, Req::Add(add), client, user);
                at += self.r.range(6, 25) * SECOND + micros(&mut self.r);
            } else {
                let add = self.purchase(k, p.pack * n as f64, client, day, store);
                self.push(at, Req::Add(add), client, user);
                let (lo, hi) = if list { (6, 25) } else { (20, 90) };
                at += self.r.range(lo, hi) * SECOND + micros(&mut self.r);
            }
        }
    }

    /// Something taken from stock and logged: a pack opened or finished, a unit used.
    fn eat(&mut self, t: i64, k: usize) {
        let p = product(k);
        // Jana scans at the bin (Barcode Buddy in consume mode) or uses the web UI, Tobias his phone.
        let (client, user) = match (self.r.chance(0.5), self.r.below(100)) {
            (true, 0..70) => (Client::Scanner, JANA),
            (true, _) => (Client::Web, JANA),
            (false, 0..85) => (Client::Phone, TOBIAS),
            (false, _) => (Client::Web, TOBIAS),
        };
        let take = |amount| Req::Consume(Take { k, amount, spoiled: false, only: None, ty: CONSUME });
        let req = if p.open > 0 {
            match self.order(k, false).first().map(|&i| (self.stock[i].opened, self.stock[i].amount)) {
                Some((Some(_), left)) => take(if client == Client::Scanner { p.bite } else { left }),
                Some((None, _)) => Req::Open(k),
                None => return,
            }
        } else {
            let have = self.stock_of(k);
            if have <= 0.0 || (client == Client::Scanner && have < p.bite) {
                return;
            }
            take(p.bite.min(have))
        };
        let single = matches!(&req, Req::Consume(c) if c.amount == p.bite && p.bite == 1.0);
        if single && self.r.chance(0.2) {
            // Another one: the second cup scanned at the bin right after the first, or one more later that day.
            let gap = if client == Client::Scanner && self.r.chance(0.6) {
                self.r.range(2_000, 7_000) * 1_000
            } else {
                self.r.range(40, 240) * MINUTE + micros(&mut self.r)
            };
            let next = Sent { req: req.clone(), client, user, lone: false };
            self.q.push(t + gap, Job::Request(Box::new(next)));
        }
        self.request(t, Sent { req, client, user, lone: false });
    }

    /// Dinner: a recipe whose main ingredient is there, the batch sauce on Sundays.
    fn dinner(&mut self, t: i64) {
        let sunday = (day_of(t) + 3).rem_euclid(7) == 6;
        let ok: Vec<usize> = RECIPES
            .iter()
            .enumerate()
            .filter(|(_, r)| self.stock_of(index(r.2[0].0)) >= r.2[0].1)
            .map(|(i, _)| i)
            .collect();
        if ok.is_empty() {
            return;
        }
        let batch = RECIPES.iter().position(|r| r.3.is_some());
        let ri = match batch {
            Some(b) if sunday && ok.contains(&b) && self.r.chance(0.7) => b,
            _ => self.r.one(&ok),
        };
        let (client, user) = if self.r.chance(0.6) { (Client::Web, JANA) } else { (Client::Phone, TOBIAS) };
        self.request(t, Sent { req: Req::Recipe(ri), client, user, lone: false });
    }

    /// The evening look at what is overdue: some of it thrown away, entry by entry.
    fn check(&mut self, t: i64) {
        let day = day_of(t);
        let (client, user) = if self.r.chance(0.6) { (Client::Web, JANA) } else { (Client::Phone, TOBIAS) };
        let overdue: Vec<(String, usize, f64)> =
            self.stock.iter().filter(|e| e.due < day).map(|e| (e.sid.clone(), e.k, e.amount)).collect();
        let mut at = t;
        for (sid, k, amount) in overdue {
            if self.r.chance(0.45) {
                let take = Take { k, amount, spoiled: true, only: Some(sid), ty: CONSUME };
                self.push(at, Req::Consume(take), client, user);
                at += self.r.range(15, 60) * SECOND + micros(&mut self.r);
            }
        }
    }

    /// The monthly count of the pantry, the cellar and the bathroom: corrections both ways.
    fn inventory(&mut self, t: i64) {
        let day = day_of(t);
        let ks: Vec<usize> = (0..PRODUCTS.len())
            .filter(|&k| matches!(product(k).loc, PANTRY | CELLAR | BATHROOM) && self.stock_of(k) > 0.0)
            .collect();
        if ks.is_empty() {
            return;
        }
        let mut at = t;
        for _ in 0..self.r.range(4, 7) {
            let k = self.r.one(&ks);
            let p = product(k);
            let delta = self.r.one(&[-2.0, -1.0, 1.0, 2.0]) * p.bite;
            let req = if delta > 0.0 {
                let (due, price) = (Some(self.due(p, day)), Some(p.cents as f64 / 100.0));
                let (loc, store, note) = (Some(p.loc), Some(p.store), Some(String::new()));
                Req::Add(Add { k, amount: delta, due, price, loc, store, note, ty: INVENTORY })
            } else if self.stock_of(k) + delta >= 0.0 {
                Req::Consume(Take { k, amount: -delta, spoiled: false, only: None, ty: INVENTORY })
            } else {
                continue;
            };
            self.push(at, req, Client::Web, JANA);
            at += self.r.range(30, 120) * SECOND + micros(&mut self.r);
        }
    }
}

pub fn fixture() -> Fixture {
    let mut w = World {
        r: Rng::new(0x6_20C7),
        stock: Vec::new(),
        logs: Vec::new(),
        row: ROW0,
        q: Queue::default(),
        late: 0,
        hidden: 0,
    };
    w.pantry();
    let day0 = day_of(START);
    for d in 0..=DAYS {
        let day = day0 + d;
        let weekday = (day + 3).rem_euclid(7);
        let weekend = weekday >= 5;
        let r = &mut w.r;
        let mut jobs: Vec<(i64, Job)> = Vec::new();
        let at = |r: &mut Rng, hour: i64, lo: i64, hi: i64| moment(r, day, hour, lo, hi);
        if weekday == 5 {
            jobs.push((at(r, 12, 0, 90), Job::Shop(Trip::Weekly)));
            jobs.push((at(r, 9, 0, 40), Job::Shop(Trip::Bakery)));
        }
        if (weekday == 1 || weekday == 3) && r.chance(0.6) {
            jobs.push((at(r, 18, 0, 80), Job::Shop(Trip::Small)));
        }
        if weekday == 2 {
            if (d / 7) % 2 == 0 {
                jobs.push((at(r, 17, 30, 90), Job::Shop(Trip::Drugstore)));
            }
            if r.chance(0.4) {
                jobs.push((at(r, 8, 0, 30), Job::Shop(Trip::Bakery)));
            }
        }
        if r.chance(if weekend { 0.7 } else { 0.5 }) {
            jobs.push((at(r, 18, 0, 75), Job::Cook));
        }
        if r.chance(0.6) {
            jobs.push((at(r, 21, 0, 45), Job::Check));
        }
        if INVENTORY_DAYS.contains(&d) {
            jobs.push((at(r, 16, 0, 30), Job::Inventory));
        }
        for k in 0..PRODUCTS.len() {
            let p = product(k);
            if p.rate <= 0.0 {
                continue;
            }
            for _ in 0..count(r, p.rate * if weekend { 1.15 } else { 1.0 }) {
                let hour = r.weighted(&MEALS) as i64;
                jobs.push((at(r, hour, 0, 59), Job::Use(k)));
            }
        }
        for (t, job) in jobs {
            if (START..NOW - MINUTE).contains(&t) {
                w.q.push(t, job);
            }
        }
    }
    while let Some((t, job)) = w.q.pop() {
        if t >= NOW {
            break;
        }
        match job {
            Job::Shop(trip) => w.shop(t, trip),
            Job::Use(k) => w.eat(t, k),
            Job::Cook => w.dinner(t),
            Job::Check => w.check(t),
            Job::Inventory => w.inventory(t),
            Job::Request(s) => w.send(t, *s),
            Job::Retry(a) => w.again(t, *a),
            Job::Cleanup { rows, orig } => w.cleanup(t, &rows, orig),
            Job::Fix { undone, log } => w.fix(t, undone, log),
        }
    }

    let mut order: Vec<usize> = (0..w.logs.len()).filter(|&i| w.logs[i].at < NOW - SECOND).collect();
    order.sort_by_key(|&i| (w.logs[i].at, i));
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("stock_log", &columns);
    let mut seen: HashSet<String> = HashSet::new();
    for (n, &i) in order.iter().enumerate() {
        let l = &w.logs[i];
        let id = ID0 + 1 + n as i64;
        let pid = product(l.k).id;
        let undone = l.undone.filter(|&u| u < NOW);
        let key = format!(
            "{pid}|{}|{}|{}|{:?}|{}|{}|{:?}|{:?}|{}|{:?}|{:?}|{:?}|{}|{:?}",
            l.amount,
            l.due,
            l.bought,
            l.used,
            l.spoiled,
            l.ty,
            l.price,
            l.opened,
            l.loc,
            l.recipe,
            l.row,
            l.store,
            l.user,
            l.note
        );
        let fresh = seen.insert(key);
        let mark = match l.mark {
            Mark::Retry => Mark::Retry,
            _ if fresh => Mark::Plain,
            _ => Mark::Legit,
        };
        f.push(&[
            ("id", V::I(id)),
            ("product_id", V::I(pid)),
            ("amount", num(l.amount)),
            ("best_before_date", date(l.due)),
            ("purchased_date", date(l.bought)),
            ("used_date", l.used.map_or(V::Null, date)),
            ("spoiled", V::I(i64::from(l.spoiled))),
            ("stock_id", V::t(&l.sid)),
            ("transaction_type", V::t(l.ty)),
            ("price", l.price.map_or(V::Null, V::F)),
            ("undone", V::I(i64::from(undone.is_some()))),
            ("undone_timestamp", undone.map_or(V::Null, |u| V::AtSecs(u + LOCAL))),
            ("opened_date", l.opened.map_or(V::Null, date)),
            ("location_id", V::I(i64::from(l.loc))),
            ("recipe_id", V::opt_i(l.recipe)),
            ("correlation_id", V::opt_t(l.corr.as_deref())),
            ("transaction_id", V::t(&l.tx)),
            ("stock_row_id", V::opt_i(l.row)),
            ("shopping_location_id", V::opt_i(l.store.map(i64::from))),
            ("user_id", V::I(l.user)),
            ("row_created_timestamp", V::AtSecs(l.at + LOCAL)),
            ("note", V::opt_t(l.note.as_deref())),
        ]);
        f.mark(id, mark);
        if mark == Mark::Retry && l.hidden {
            f.hidden.insert(id.to_string());
        }
    }
    f
}
