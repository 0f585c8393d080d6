//! Bagisto (PHP, Laravel/Eloquent; MySQL/MariaDB): `orders`, as checkout writes it from the cart through
//! `OrderRepository::create`: a small Brooklyn coffee roaster's shop (one channel, USD), 35 days of orders from the
//! web storefront, with the order addresses the same transaction writes (`addresses`, `order_shipping` and
//! `order_billing`) as children.
//! Read: bagisto/bagisto (889a7c6) packages/Webkul/Sales/src/Database/Migrations/2018_09_27_113154_create_orders_table
//! and 2024_04_19_102939_add_incl_tax_columns_in_orders_table (the only migrations that shape `orders`),
//! packages/Webkul/Core/src/Database/Migrations/2020_04_16_185147_add_table_addresses, 2024_02_26_153000 and
//! 2024_03_07_193421 (the shared `addresses` table); Sales/src/Repositories/OrderRepository.php
//! (`createOrderIfNotThenRetry`, `cancel`, `updateOrderStatus`, `collectTotals`), Sales/src/Generators/Sequencer.php
//! and OrderSequencer.php, Sales/src/Models/Order.php and OrderAddress.php, Sales/src/Transformers/OrderResource.php
//! and OrderAddressResource.php, Sales/src/Repositories/InvoiceRepository.php (`create` ends in
//! `collectTotals` + `updateOrderStatus`), Shop/src/Http/Controllers/API/OnepageController.php (`storeOrder`),
//! Shop/src/Resources/views/checkout/onepage/index.blade.php (`placeOrder`, `isPlacingOrder`),
//! Paypal/src/Http/Controllers/StandardController.php (`success`) and SmartButtonController.php (`captureOrder`,
//! `saveOrder`), Paypal/src/Helpers/Ipn.php (the order found by `cart_id`), PayU/src/Http/Controllers/PayUController.php,
//! Checkout/src/Cart.php (`initCart`, `getErrors`: no active cart is CART_NOT_FOUND, `collectTotals`,
//! `deActivateCart`, `setCustomerPersonnelDetails`), CartRule/src/Helpers/CartRule.php (`applied_cart_rule_ids`,
//! `processFreeShippingDiscount`), Shipping/src/Config/carriers.php and Carriers/FlatRate.php, Admin/src/Listeners/
//! Base.php and Order.php, Admin and Shop EventServiceProvider (`checkout.order.save.after`), Payment/src/Listeners/
//! GenerateInvoice.php, .env.example (QUEUE_CONNECTION=sync, DB_CONNECTION=mysql), config/database.php,
//! Admin/src/DataGrids/Sales/OrderDataGrid.php (MySQL's GROUP_CONCAT with "..." strings: MySQL/MariaDB only).
//! On a create (one transaction): `status` 'pending'; `increment_id` from `OrderSequencer`: prefix, lastId + 1
//! zero-padded to the configured length, suffix, where lastId is `max(id)` of the committed orders read when the
//! attempt starts (no prefix, no length, no suffix set here: the plain number); the unique index on `increment_id`
//! is the only guard. Everything else is `OrderResource` of the active cart: is_guest, customer_id / customer_type
//! (the Customer model's class, NULL for a guest), customer_email / first / last name (the account's, a guest's
//! from the billing address), channel_id / channel_name / channel_type, total_item_count (cart lines),
//! total_qty_ordered, the three currency codes, the totals as `Cart::collectTotals` left them (sub_total,
//! tax_amount, discount, shipping from the selected rate, the _incl_tax forms, base_ = the same in a one-currency
//! shop), coupon_code, applied_cart_rule_ids ('' when no rule applied, ids joined by ','), and `cart_id`. Columns
//! it leaves out keep their defaults (is_gift 0, discount_percent 0, the _invoiced and _refunded totals 0; a
//! virtual-only cart sends no shipping fields: NULL method, title and description, 0 amounts). `id` from
//! AUTO_INCREMENT; created_at / updated_at are Laravel's `now()` in whole seconds. Then the addresses (shipping
//! first, billing) and the items, and `checkout.order.save.after` runs inside the transaction: the admin's and the
//! customer's new-order mails go through `Mail::queue`, which with the default sync queue is an SMTP send, before
//! the commit. Only then does the controller deactivate the cart.
//! Later life: PayPal Smart Button captures first and then creates, sets 'processing' and invoices in the same
//! request (the _invoiced totals); PayPal Standard creates the order on the return to `success` ('pending') and
//! the IPN, which finds the order by `cart_id`, sets 'processing' and invoices it seconds to a minute later; money
//! transfer waits 'pending' for the transfer (invoiced by hand, or cancelled after a week); cash on delivery is
//! shipped first ('processing') and invoiced on delivery; a shipment after the invoice makes 'completed'; a refund
//! of everything makes 'closed' (the _refunded totals); a customer may cancel a pending order from the account.
//! updated_at moves with each of these saves.
//! Retries (the extra rows): the storefront's Place Order button is disabled while its request runs, so a double
//! click does not reach the server, and a request that comes after the first one finished finds no active cart
//! (CART_NOT_FOUND). What gets through is a second request for the same cart while the first is still open: (1) the
//! shop's SMTP relay is slow or failing on five afternoons: each new-order mail waits up to its timeout inside the
//! transaction, so Place Order hangs 12-95 s; customers reload the checkout (the cart is still active) and place
//! again, or get nginx's 504 after 60 s (the button comes back) and click again; PayPal Standard customers reload
//! the return page. The second request's sequencer reads the same lastId, its insert waits on the first one's
//! uncommitted `increment_id`, fails with a duplicate key when the first commits (burning an AUTO_INCREMENT value),
//! and the repository's own retry takes the next number: the copy lands just after the original commits, with the
//! same cart_id and everything else the cart had. Some reloads come with a coupon the customer went to find, or a
//! second bag: those copies differ from their original (`hidden`). (2) PayPal Standard's auto-return and the
//! customer's click on "Return to merchant" reach `success` 0.15-0.9 s apart while the first is still running: a
//! second order from the same cart. The IPN pays the first (lowest id with that cart_id); the shop cancels the copy
//! when it sees it (2-72 h later), or has not yet. Every other order that arrives while one is still
//! open waits for it the same way (and burns a value).
//! Legitimate repeats: regulars buying the same bags again every two to four weeks (a new cart each time), gifts
//! (the same bag sent to two or three friends, one checkout each a few minutes apart: only the shipping address
//! differs), a customer who cancels a pending order from the account (wrong address) and places it again a few
//! minutes later, and others who happen to buy the same thing again.
//! Guessed: the shop (products, prices, tax only for New York addresses at 8.875 % on the discounted item total,
//! flat rate 7.50 per order, a free-shipping rule from 60.00, a WELCOME10 coupon, the free carrier switched off, the
//! payment mix), the rates, the SMTP incidents and how customers react to them, how fast the shop ships and cancels
//! duplicates, the cart and address id streams (carts and cart/customer addresses are written all the time). Not
//! modelled: `order_items` and `order_payment` (written in the same transaction; equal between a retry and its
//! original, and between a gift order and its sibling), admin-created orders, multi-currency.

use std::collections::{BTreeSet, HashMap};

use super::{Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => DDL.to_string(),
        _ => unreachable!("Bagisto runs on MySQL and MariaDB only"),
    }
}

const DDL: &str = "CREATE TABLE `orders` (
  `id` int unsigned NOT NULL AUTO_INCREMENT,
  `increment_id` varchar(255) COLLATE utf8mb4_unicode_ci NOT NULL,
  `status` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `channel_name` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `is_guest` tinyint(1) DEFAULT NULL,
  `customer_email` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `customer_first_name` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `customer_last_name` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `shipping_method` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `shipping_title` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `shipping_description` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `coupon_code` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `is_gift` tinyint(1) NOT NULL DEFAULT '0',
  `total_item_count` int DEFAULT NULL,
  `total_qty_ordered` int DEFAULT NULL,
  `base_currency_code` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `channel_currency_code` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `order_currency_code` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `grand_total` decimal(12,4) DEFAULT '0.0000',
  `base_grand_total` decimal(12,4) DEFAULT '0.0000',
  `grand_total_invoiced` decimal(12,4) DEFAULT '0.0000',
  `base_grand_total_invoiced` decimal(12,4) DEFAULT '0.0000',
  `grand_total_refunded` decimal(12,4) DEFAULT '0.0000',
  `base_grand_total_refunded` decimal(12,4) DEFAULT '0.0000',
  `sub_total` decimal(12,4) DEFAULT '0.0000',
  `base_sub_total` decimal(12,4) DEFAULT '0.0000',
  `sub_total_invoiced` decimal(12,4) DEFAULT '0.0000',
  `base_sub_total_invoiced` decimal(12,4) DEFAULT '0.0000',
  `sub_total_refunded` decimal(12,4) DEFAULT '0.0000',
  `base_sub_total_refunded` decimal(12,4) DEFAULT '0.0000',
  `discount_percent` decimal(12,4) DEFAULT '0.0000',
  `discount_amount` decimal(12,4) DEFAULT '0.0000',
  `base_discount_amount` decimal(12,4) DEFAULT '0.0000',
  `discount_invoiced` decimal(12,4) DEFAULT '0.0000',
  `base_discount_invoiced` decimal(12,4) DEFAULT '0.0000',
  `discount_refunded` decimal(12,4) DEFAULT '0.0000',
  `base_discount_refunded` decimal(12,4) DEFAULT '0.0000',
  `tax_amount` decimal(12,4) DEFAULT '0.0000',
  `base_tax_amount` decimal(12,4) DEFAULT '0.0000',
  `tax_amount_invoiced` decimal(12,4) DEFAULT '0.0000',
  `base_tax_amount_invoiced` decimal(12,4) DEFAULT '0.0000',
  `tax_amount_refunded` decimal(12,4) DEFAULT '0.0000',
  `base_tax_amount_refunded` decimal(12,4) DEFAULT '0.0000',
  `shipping_amount` decimal(12,4) DEFAULT '0.0000',
  `base_shipping_amount` decimal(12,4) DEFAULT '0.0000',
  `shipping_invoiced` decimal(12,4) DEFAULT '0.0000',
  `base_shipping_invoiced` decimal(12,4) DEFAULT '0.0000',
  `shipping_refunded` decimal(12,4) DEFAULT '0.0000',
  `base_shipping_refunded` decimal(12,4) DEFAULT '0.0000',
  `shipping_discount_amount` decimal(12,4) DEFAULT '0.0000',
  `base_shipping_discount_amount` decimal(12,4) DEFAULT '0.0000',
  `shipping_tax_amount` decimal(12,4) NOT NULL DEFAULT '0.0000',
  `base_shipping_tax_amount` decimal(12,4) NOT NULL DEFAULT '0.0000',
  `shipping_tax_refunded` decimal(12,4) NOT NULL DEFAULT '0.0000',
  `base_shipping_tax_refunded` decimal(12,4) NOT NULL DEFAULT '0.0000',
  `sub_total_incl_tax` decimal(12,4) NOT NULL DEFAULT '0.0000',
  `base_sub_total_incl_tax` decimal(12,4) NOT NULL DEFAULT '0.0000',
  `shipping_amount_incl_tax` decimal(12,4) NOT NULL DEFAULT '0.0000',
  `base_shipping_amount_incl_tax` decimal(12,4) NOT NULL DEFAULT '0.0000',
  `customer_id` int unsigned DEFAULT NULL,
  `customer_type` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `channel_id` int unsigned DEFAULT NULL,
  `channel_type` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `cart_id` int DEFAULT NULL,
  `applied_cart_rule_ids` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `created_at` timestamp NULL DEFAULT NULL,
  `updated_at` timestamp NULL DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `orders_increment_id_unique` (`increment_id`),
  KEY `orders_customer_id_foreign` (`customer_id`),
  KEY `orders_channel_id_foreign` (`channel_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE `addresses` (
  `id` int unsigned NOT NULL AUTO_INCREMENT,
  `address_type` varchar(255) COLLATE utf8mb4_unicode_ci NOT NULL,
  `parent_address_id` int unsigned DEFAULT NULL,
  `customer_id` int unsigned DEFAULT NULL COMMENT 'null if guest checkout',
  `cart_id` int unsigned DEFAULT NULL COMMENT 'only for cart_addresses',
  `order_id` int unsigned DEFAULT NULL COMMENT 'only for order_addresses',
  `first_name` varchar(255) COLLATE utf8mb4_unicode_ci NOT NULL,
  `last_name` varchar(255) COLLATE utf8mb4_unicode_ci NOT NULL,
  `gender` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `company_name` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `address` varchar(255) COLLATE utf8mb4_unicode_ci NOT NULL,
  `city` varchar(255) COLLATE utf8mb4_unicode_ci NOT NULL,
  `state` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `country` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `postcode` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `email` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `phone` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `vat_id` varchar(255) COLLATE utf8mb4_unicode_ci DEFAULT NULL,
  `default_address` tinyint(1) NOT NULL DEFAULT '0' COMMENT 'only for customer_addresses',
  `use_for_shipping` tinyint(1) NOT NULL DEFAULT '0',
  `additional` json DEFAULT NULL,
  `created_at` timestamp NULL DEFAULT NULL,
  `updated_at` timestamp NULL DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `addresses_customer_id_foreign` (`customer_id`),
  KEY `addresses_cart_id_foreign` (`cart_id`),
  KEY `addresses_order_id_foreign` (`order_id`),
  KEY `addresses_parent_address_id_foreign` (`parent_address_id`),
  CONSTRAINT `addresses_order_id_foreign` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`) ON DELETE CASCADE,
  CONSTRAINT `addresses_parent_address_id_foreign` FOREIGN KEY (`parent_address_id`) REFERENCES `addresses` (`id`)
    ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;";

const COLUMNS: &str = "id increment_id status channel_name is_guest customer_email customer_first_name \
    customer_last_name shipping_method shipping_title shipping_description coupon_code is_gift total_item_count \
    total_qty_ordered base_currency_code channel_currency_code order_currency_code grand_total base_grand_total \
    grand_total_invoiced base_grand_total_invoiced grand_total_refunded base_grand_total_refunded sub_total \
    base_sub_total sub_total_invoiced base_sub_total_invoiced sub_total_refunded base_sub_total_refunded \
    discount_percent discount_amount base_discount_amount discount_invoiced base_discount_invoiced discount_refunded \
    base_discount_refunded tax_amount base_tax_amount tax_amount_invoiced base_tax_amount_invoiced \
    tax_amount_refunded base_tax_amount_refunded shipping_amount base_shipping_amount shipping_invoiced \
    base_shipping_invoiced shipping_refunded base_shipping_refunded shipping_discount_amount \
    base_shipping_discount_amount shipping_tax_amount base_shipping_tax_amount shipping_tax_refunded \
    base_shipping_tax_refunded sub_total_incl_tax base_sub_total_incl_tax shipping_amount_incl_tax \
    base_shipping_amount_incl_tax customer_id customer_type channel_id channel_type cart_id applied_cart_rule_ids \
    created_at updated_at";

const ADDRESS_COLUMNS: &str = "id address_type customer_id cart_id order_id first_name last_name company_name \
    address city state country postcode email phone default_address use_for_shipping created_at updated_at";

const NOW: i64 = T0 + 35 * DAY;
const CUSTOMER: &str = "Webkul\\Customer\\Models\\Customer";
const CHANNEL: &str = "Webkul\\Core\\Models\\Channel";
const FLAT_RATE: i64 = 750;
const FREE_FROM: i64 = 6_000;

/// (price in cents, stockable): twelve-ounce bags, a five-pound bag, filters, a mug, a cupping class seat
/// (virtual), a brewing guide (downloadable).
const PRODUCTS: &[(i64, bool)] = &[
    (1_650, true),
    (1_950, true),
    (1_800, true),
    (1_700, true),
    (1_750, true),
    (2_200, true),
    (7_200, true),
    (800, true),
    (1_400, true),
    (3_500, false),
    (1_200, false),
];

const FIRST: &[&str] = &[
    "Emily", "Michael", "Sarah", "David", "Jessica", "Daniel", "Ashley", "James", "Olivia", "Ryan", "Hannah", "Kevin",
    "Lauren", "Chris", "Megan", "Jason", "Rachel", "Brian", "Nicole", "Tyler", "Priya", "Wei", "Carlos", "Aisha",
];
const LAST: &[&str] = &[
    "Smith",
    "Johnson",
    "Williams",
    "Brown",
    "Garcia",
    "Miller",
    "Davis",
    "Rodriguez",
    "Martinez",
    "Lee",
    "Walker",
    "Hall",
    "Allen",
    "Young",
    "King",
    "Wright",
    "Nguyen",
    "Patel",
    "Kim",
    "Cohen",
    "Rossi",
    "Murphy",
];
/// (city, state, zip prefix, weight)
const CITIES: &[(&str, &str, &str, i64)] = &[
    ("Brooklyn", "NY", "112", 14),
    ("New York", "NY", "100", 12),
    ("Astoria", "NY", "111", 4),
    ("Jersey City", "NJ", "073", 5),
    ("Hoboken", "NJ", "070", 3),
    ("Philadelphia", "PA", "191", 5),
    ("Boston", "MA", "021", 5),
    ("Chicago", "IL", "606", 6),
    ("Austin", "TX", "787", 4),
    ("Seattle", "WA", "981", 4),
    ("Portland", "OR", "972", 3),
    ("Los Angeles", "CA", "900", 6),
    ("San Francisco", "CA", "941", 4),
    ("Denver", "CO", "802", 3),
    ("Atlanta", "GA", "303", 3),
    ("Minneapolis", "MN", "554", 2),
    ("Washington", "DC", "200", 3),
];
const STREETS: &[&str] = &[
    "Atlantic Ave",
    "Bedford Ave",
    "Court St",
    "Main St",
    "Oak St",
    "Maple Ave",
    "Park Pl",
    "Elm St",
    "Washington Ave",
    "2nd St",
    "Franklin Ave",
    "Union St",
    "Lake St",
    "Pine St",
    "Broadway",
    "Highland Ave",
];

#[derive(Clone)]
struct Person {
    first: &'static str,
    last: &'static str,
    email: String,
    address: String,
    city: (&'static str, &'static str, &'static str, i64),
    zip: String,
    phone: String,
    company: Option<String>,
    customer: Option<i64>,
}

fn person(r: &mut Rng, customer: Option<i64>) -> Person {
    let (first, last) = (r.one(FIRST), r.one(LAST));
    let host = r.one(&["gmail.com", "gmail.com", "gmail.com", "yahoo.com", "icloud.com", "outlook.com", "hey.com"]);
    let email = match r.below(4) {
        0 => format!("{}{}@{host}", first.to_lowercase(), last.to_lowercase()),
        1 => format!("{}.{}{}@{host}", first.to_lowercase(), last.to_lowercase(), r.range(1, 99)),
        2 => format!("{}{}{}@{host}", &first[..1].to_lowercase(), last.to_lowercase(), r.range(70, 99)),
        _ => format!("{}_{}@{host}", first.to_lowercase(), last.to_lowercase()),
    };
    let weights: Vec<i64> = CITIES.iter().map(|c| c.3).collect();
    let city = CITIES[r.weighted(&weights)];
    let mut address = format!("{} {}", r.range(1, 980), r.one(STREETS));
    if r.chance(0.35) {
        address.push_str(&format!(" Apt {}{}", r.range(1, 6), r.one(&["A", "B", "C", "D", "F", "R"])));
    }
    let zip = format!("{}{:02}", city.2, r.below(40));
    let phone = format!("({}) {}-{:04}", r.range(201, 989), r.range(200, 989), r.below(10_000));
    let company = r.chance(0.06).then(|| format!("{} {}", last, r.one(&["LLC", "Studio", "& Co", "Design"])));
    Person { first, last, email, address, city, zip, phone, company, customer }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pay {
    /// PayPal Smart Button: captured, then created, 'processing' and invoiced in the same request.
    Smart,
    /// PayPal Standard: created on the return to `success`, invoiced by the IPN.
    Standard,
    MoneyTransfer,
    Cod,
}

#[derive(Clone)]
struct Req {
    /// When the request reached the server.
    at: i64,
    who: usize,
    ship_to: usize,
    items: Vec<(usize, i64)>,
    coupon: bool,
    pay: Pay,
    /// When the cart was created (its id comes from that).
    cart_at: i64,
    /// The request this one repeats (same cart), for a retry.
    of: Option<usize>,
    /// How long the request keeps its transaction open after the insert (the mails).
    hold: i64,
    /// A cancel by the customer at this time (a pending order placed again).
    cancel_at: Option<i64>,
    /// A copy that no longer equals its original.
    changed: bool,
}

#[derive(Clone, Default)]
struct Totals {
    sub: i64,
    tax: i64,
    discount: i64,
    shipping: i64,
    rules: String,
    count: i64,
    qty: i64,
    stockable: bool,
}

fn totals(x: &Req, state: &str) -> Totals {
    let mut t = Totals { stockable: x.items.iter().any(|i| PRODUCTS[i.0].1), ..Totals::default() };
    for &(p, q) in &x.items {
        let line = PRODUCTS[p].0 * q;
        let off = if x.coupon { (line + 5) / 10 } else { 0 };
        t.sub += line;
        t.discount += off;
        if state == "NY" {
            t.tax += ((line - off) * 8_875 + 50_000) / 100_000;
        }
        t.count += 1;
        t.qty += q;
    }
    let mut rules: Vec<&str> = Vec::new();
    if x.coupon {
        rules.push("3");
    }
    if t.stockable {
        if t.sub >= FREE_FROM {
            rules.push("1");
        } else {
            t.shipping = FLAT_RATE;
        }
    }
    t.rules = rules.join(",");
    t
}

fn m(cents: i64) -> V {
    V::t(format!("{}{}.{:02}00", if cents < 0 { "-" } else { "" }, cents.abs() / 100, cents.abs() % 100))
}

/// Orders per hour by UTC hour (the customers are mostly on US time).
const RATE: [f64; 24] = [
    4.2, 3.8, 3.0, 2.0, 1.2, 0.6, 0.4, 0.3, 0.3, 0.5, 0.9, 1.6, 2.3, 2.9, 3.3, 3.5, 3.6, 3.5, 3.4, 3.6, 3.9, 4.2, 4.4,
    4.4,
];

/// The afternoons the SMTP relay hung: (day, start hour UTC, hours).
const INCIDENTS: &[(i64, i64, i64)] = &[(4, 18, 4), (11, 20, 5), (17, 14, 6), (26, 19, 5), (33, 17, 6)];

fn incident(t: i64) -> bool {
    INCIDENTS.iter().any(|&(d, h, n)| {
        let s = T0 + d * DAY + h * HOUR;
        t >= s && t < s + n * HOUR
    })
}

fn basket(r: &mut Rng) -> Vec<(usize, i64)> {
    if r.chance(0.04) {
        return vec![(r.range(9, 10) as usize, 1 + i64::from(r.chance(0.2)))];
    }
    let mut items: Vec<(usize, i64)> = Vec::new();
    for _ in 0..1 + r.skewed(4) {
        let p = if r.chance(0.8) { r.skewed(6) as usize } else { r.range(6, 10) as usize };
        match items.iter_mut().find(|i| i.0 == p) {
            Some(i) => i.1 += 1,
            None => items.push((p, 1 + i64::from(r.chance(0.18)))),
        }
    }
    items
}

fn pay_for(r: &mut Rng, items: &[(usize, i64)], p: &Person) -> Pay {
    let stockable = items.iter().any(|i| PRODUCTS[i.0].1);
    loop {
        let pay = [Pay::Smart, Pay::Standard, Pay::MoneyTransfer, Pay::Cod][r.weighted(&[55, 21, 8, 16])];
        // Cash on delivery: the shop's own courier, New York City only, and not for a virtual cart.
        if pay != Pay::Cod || (stockable && p.city.1 == "NY") {
            return pay;
        }
    }
}

fn hold(r: &mut Rng, at: i64) -> i64 {
    if incident(at) { r.range(12, 95) * SECOND + r.below(1_000_000) as i64 } else { r.range(400_000, 1_600_000) }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0xBA_6157);
    let mut people: Vec<Person> = Vec::new();
    let mut cid = 1_840i64;
    for _ in 0..1_100 {
        cid += 1 + i64::from(r.chance(0.08));
        let p = person(&mut r, Some(cid));
        people.push(p);
    }
    let regulars = 1_100;
    let mut reqs: Vec<Req> = Vec::new();
    let new_req = |r: &mut Rng, at: i64, who: usize, items: Vec<(usize, i64)>, people: &[Person]| {
        let pay = pay_for(r, &items, &people[who]);
        let back = if r.chance(0.7) { r.range(2, 90) * MINUTE } else { r.range(2, 96) * HOUR };
        Req {
            at,
            who,
            ship_to: who,
            items,
            coupon: false,
            pay,
            cart_at: at - back - r.below(60_000_000) as i64,
            of: None,
            hold: 0,
            cancel_at: None,
            changed: false,
        }
    };

    // The stream of orders, hour by hour.
    let mut hour = T0;
    while hour < NOW - HOUR {
        let h = ((hour - T0) / HOUR % 24) as usize;
        let weekend = matches!(((hour - T0) / DAY + 3) % 7, 5 | 6);
        let n = r.poisson(RATE[h] * if weekend { 1.25 } else { 1.0 });
        let mut ats: Vec<i64> = (0..n).map(|_| hour + r.below(HOUR as u64) as i64).collect();
        ats.sort_unstable();
        for at in ats {
            let registered = r.chance(0.62);
            let who = if registered {
                r.skewed(regulars as u64) as usize
            } else {
                people.push(person(&mut r, None));
                people.len() - 1
            };
            let items = basket(&mut r);
            let mut x = new_req(&mut r, at, who, items, &people);
            x.coupon = r.chance(if registered { 0.04 } else { 0.12 });
            let i = reqs.len();
            reqs.push(x.clone());
            let pending = matches!(x.pay, Pay::MoneyTransfer | Pay::Cod);
            if registered && x.items.iter().all(|i| PRODUCTS[i.0].1) && x.items.len() <= 2 && r.chance(0.012) {
                // Gifts: the same bag to two or three friends, one checkout each.
                let mut t = at;
                for _ in 0..r.range(1, 2) {
                    t += r.range(90, 420) * SECOND + r.below(1_000_000) as i64;
                    let mut friend = person(&mut r, None);
                    friend.city = people[who].city;
                    friend.zip = format!("{}{:02}", friend.city.2, r.below(40));
                    people.push(friend);
                    let cart_at = t - r.range(40, 100) * SECOND;
                    let pay = if x.pay == Pay::Cod { Pay::Smart } else { x.pay };
                    reqs.push(Req { at: t, ship_to: people.len() - 1, cart_at, pay, ..x.clone() });
                }
            } else if pending && registered && r.chance(0.025) {
                // Wrong address: cancelled from the account, placed again.
                let again = at + r.range(3, 14) * MINUTE + r.below(60_000_000) as i64;
                reqs[i].cancel_at = Some(again - r.range(40, 200) * SECOND);
                let cart_at = again - r.range(60, 150) * SECOND;
                let mut fixed = people[who].clone();
                fixed.address = format!("{} {}", r.range(1, 980), r.one(STREETS));
                fixed.customer = None;
                people.push(fixed);
                reqs.push(Req { at: again, ship_to: people.len() - 1, cart_at, ..x.clone() });
            }
        }
        hour += HOUR;
    }

    // The regulars' standing order: the same bags every two to four weeks.
    for k in 0..70 {
        let who = 1 + k * 13 % (regulars - 1);
        let mut items: Vec<(usize, i64)> = vec![(r.below(6) as usize, 1 + i64::from(r.chance(0.3)))];
        if r.chance(0.3) {
            let p = r.range(6, 8) as usize;
            if p != items[0].0 {
                items.push((p, 1));
            }
        }
        let every = r.range(14, 28) * DAY;
        let mut t = T0 + r.below((every - DAY) as u64) as i64 + r.range(12, 23) * HOUR;
        let pay = pay_for(&mut r, &items, &people[who]);
        while t < NOW - HOUR {
            let mut x = new_req(&mut r, t, who, items.clone(), &people);
            x.pay = pay;
            reqs.push(x);
            t += every + r.range(-2, 2) * DAY + r.range(-5, 4) * HOUR + r.below(HOUR as u64) as i64;
        }
    }

    reqs.sort_by_key(|x| x.at);
    for x in reqs.iter_mut() {
        x.hold = hold(&mut r, x.at);
    }

    // The second requests for the same cart while the first is open.
    let n = reqs.len();
    for i in 0..n {
        let x = reqs[i].clone();
        let mut copies: Vec<Req> = Vec::new();
        if incident(x.at) && x.pay != Pay::Smart && r.chance(0.6) {
            // A reload after 10-40 s, or nginx's 504 at 60 s and another click.
            let delay = if x.hold > 62 * SECOND && r.chance(0.5) {
                60 * SECOND + r.range(2, 20) * SECOND
            } else {
                r.range(10, 40) * SECOND
            };
            let mut c = Req { at: x.at + delay + r.below(1_000_000) as i64, of: Some(i), cancel_at: None, ..x.clone() };
            if x.pay != Pay::Standard && r.chance(0.25) {
                c.changed = true;
                if !c.coupon && r.chance(0.6) {
                    c.coupon = true;
                } else {
                    c.items[0].1 += 1;
                }
            }
            c.hold = hold(&mut r, c.at);
            if r.chance(0.15) {
                let at = c.at + r.range(8, 30) * SECOND;
                let h = hold(&mut r, at);
                copies.push(Req { at, hold: h, changed: false, ..c.clone() });
            }
            copies.insert(0, c);
        } else if !incident(x.at) && x.pay == Pay::Standard && r.chance(0.045) {
            // PayPal's auto-return and the customer's click on "Return to merchant".
            let at = x.at + r.range(150_000, 900_000);
            copies.push(Req { at, of: Some(i), cancel_at: None, hold: hold(&mut r, at), ..x.clone() });
        }
        reqs.extend(copies);
    }
    let mut order: Vec<usize> = (0..reqs.len()).collect();
    order.sort_by_key(|&i| (reqs[i].at, i));

    // The server: each request inserts when no earlier one holds the next increment_id uncommitted; otherwise its
    // insert waits for that commit, fails on the unique index (a burnt AUTO_INCREMENT value) and goes again.
    struct Row {
        req: usize,
        created: i64,
        commit: i64,
        burnt: i64,
    }
    let mut rows: Vec<Row> = Vec::new();
    let mut open_until = 0i64;
    let mut committed_cart: HashMap<usize, i64> = HashMap::new();
    for &i in &order {
        let x = &reqs[i];
        let root = x.of.unwrap_or(i);
        if let Some(&done) = committed_cart.get(&root) {
            // The cart was deactivated before this request read it: CART_NOT_FOUND, no row.
            if x.of.is_some() && x.at > done + 30_000 {
                continue;
            }
        }
        let start = x.at + r.range(60_000, 250_000);
        let (created, burnt) = if start < open_until { (open_until + r.range(5_000, 60_000), 1) } else { (start, 0) };
        let commit = created + x.hold;
        open_until = open_until.max(commit);
        committed_cart.entry(root).or_insert(commit);
        rows.push(Row { req: i, created, commit, burnt });
    }
    rows.sort_by_key(|w| w.created);

    // Cart ids: carts are created all the time, most never ordered.
    let mut carts: Vec<(i64, usize)> =
        (0..reqs.len()).filter(|&i| reqs[i].of.is_none()).map(|i| (reqs[i].cart_at, i)).collect();
    carts.sort_unstable();
    let mut cart_id = vec![0i64; reqs.len()];
    let mut c = 5_210i64;
    for &(_, i) in &carts {
        c += 1 + r.poisson(3.2) as i64;
        cart_id[i] = c;
    }
    for i in 0..reqs.len() {
        if let Some(o) = reqs[i].of {
            cart_id[i] = cart_id[o];
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("orders", &columns);
    let mut addresses = Child::new("addresses", &ADDRESS_COLUMNS.split_whitespace().collect::<Vec<_>>());
    let mut id = 4_117i64;
    let mut address_id = 31_400i64;
    let mut paid_cart: BTreeSet<i64> = BTreeSet::new();
    let mut seen: HashMap<String, i64> = HashMap::new();
    for w in &rows {
        let x = &reqs[w.req];
        let increment = id + 1;
        id += 1 + w.burnt + i64::from(r.chance(0.004));
        let p = &people[x.who];
        let s = &people[x.ship_to];
        let t = totals(x, s.city.1);
        let grand = t.sub + t.tax - t.discount + t.shipping;
        let created = w.created;

        // The order's life until now.
        let mut status = "pending";
        let mut updated = created;
        let mut invoiced = false;
        let mut refunded = false;
        let mut events: Vec<(i64, &str)> = Vec::new();
        let ship_after = |r: &mut Rng, t: i64| t + r.range(16, 60) * HOUR + r.below(HOUR as u64) as i64;
        if x.of.is_some() {
            // A duplicate the shop (or the customer) cancels when seen; the IPN pays only the first of the cart.
            let seen_at = created + r.range(2, 72) * HOUR;
            if x.pay == Pay::Smart {
                events.push((w.commit, "invoice"));
            }
            events.push((seen_at, "cancel"));
        } else {
            match x.pay {
                Pay::Smart => {
                    events.push((w.commit + r.range(200_000, 900_000), "invoice"));
                    events.push((ship_after(&mut r, created), "ship"));
                }
                Pay::Standard => {
                    if paid_cart.insert(cart_id[w.req]) {
                        events.push((w.commit + r.range(5, 90) * SECOND, "invoice"));
                        events.push((ship_after(&mut r, created), "ship"));
                    }
                }
                Pay::MoneyTransfer => {
                    if r.chance(0.8) {
                        let paid = created + r.range(18, 96) * HOUR;
                        events.push((paid, "invoice"));
                        events.push((ship_after(&mut r, paid), "ship"));
                    } else {
                        events.push((created + r.range(7, 10) * DAY, "cancel"));
                    }
                }
                Pay::Cod => {
                    let shipped = ship_after(&mut r, created);
                    events.push((shipped, "ship"));
                    events.push((shipped + r.range(20, 60) * HOUR, "invoice"));
                }
            }
            if let Some(c) = x.cancel_at {
                events.retain(|e| e.0 < c);
                events.push((c, "cancel"));
            } else if r.chance(0.025) {
                events.push((created + r.range(8, 20) * DAY, "refund"));
            }
        }
        events.sort_by_key(|e| e.0);
        let mut shipped = false;
        for (at, what) in events {
            if at >= NOW {
                break;
            }
            match what {
                "invoice" if status != "canceled" => {
                    invoiced = true;
                    status = if shipped || !t.stockable { "completed" } else { "processing" };
                }
                "ship" if status != "canceled" && t.stockable => {
                    shipped = true;
                    status = if invoiced { "completed" } else { "processing" };
                }
                "cancel" if !invoiced && !shipped => status = "canceled",
                "refund" if invoiced && status == "completed" => {
                    refunded = true;
                    status = "closed";
                }
                _ => continue,
            }
            updated = at;
        }

        let key =
            format!("{}|{}|{}|{:?}|{}|{}", p.email, p.customer.unwrap_or(0), s.city.1, x.items, x.coupon, t.shipping);
        let mark = if x.of.is_some() {
            Mark::Retry
        } else if seen.contains_key(&key) {
            Mark::Legit
        } else {
            Mark::Plain
        };
        if mark != Mark::Retry {
            seen.insert(key, id);
        }
        let inv = |v: i64| if invoiced { m(v) } else { m(0) };
        let rf = |v: i64| if refunded { m(v) } else { m(0) };
        let ship = |v: &'static str| if t.stockable { V::t(v) } else { V::Null };
        let guest = p.customer.is_none();
        f.push(&[
            ("id", V::I(id)),
            ("increment_id", V::t(increment.to_string())),
            ("status", V::t(status)),
            ("channel_name", V::t("Default")),
            ("is_guest", V::I(i64::from(guest))),
            ("customer_email", V::t(&p.email)),
            ("customer_first_name", V::t(p.first)),
            ("customer_last_name", V::t(p.last)),
            ("shipping_method", ship("flatrate_flatrate")),
            ("shipping_title", ship("Flat Rate - Flat Rate")),
            ("shipping_description", ship("Flat Rate Shipping")),
            ("coupon_code", if x.coupon { V::t("WELCOME10") } else { V::Null }),
            ("is_gift", V::I(0)),
            ("total_item_count", V::I(t.count)),
            ("total_qty_ordered", V::I(t.qty)),
            ("base_currency_code", V::t("USD")),
            ("channel_currency_code", V::t("USD")),
            ("order_currency_code", V::t("USD")),
            ("grand_total", m(grand)),
            ("base_grand_total", m(grand)),
            ("grand_total_invoiced", inv(grand)),
            ("base_grand_total_invoiced", inv(grand)),
            ("grand_total_refunded", rf(grand)),
            ("base_grand_total_refunded", rf(grand)),
            ("sub_total", m(t.sub)),
            ("base_sub_total", m(t.sub)),
            ("sub_total_invoiced", inv(t.sub)),
            ("base_sub_total_invoiced", inv(t.sub)),
            ("sub_total_refunded", rf(t.sub)),
            ("base_sub_total_refunded", rf(t.sub)),
            ("discount_percent", m(0)),
            ("discount_amount", m(t.discount)),
            ("base_discount_amount", m(t.discount)),
            ("discount_invoiced", inv(t.discount)),
            ("base_discount_invoiced", inv(t.discount)),
            ("discount_refunded", rf(t.discount)),
            ("base_discount_refunded", rf(t.discount)),
            ("tax_amount", m(t.tax)),
            ("base_tax_amount", m(t.tax)),
            ("tax_amount_invoiced", inv(t.tax)),
            ("base_tax_amount_invoiced", inv(t.tax)),
            ("tax_amount_refunded", rf(t.tax)),
            ("base_tax_amount_refunded", rf(t.tax)),
            ("shipping_amount", m(t.shipping)),
            ("base_shipping_amount", m(t.shipping)),
            ("shipping_invoiced", inv(t.shipping)),
            ("base_shipping_invoiced", inv(t.shipping)),
            ("shipping_refunded", rf(t.shipping)),
            ("base_shipping_refunded", rf(t.shipping)),
            ("shipping_discount_amount", m(0)),
            ("base_shipping_discount_amount", m(0)),
            ("shipping_tax_amount", m(0)),
            ("base_shipping_tax_amount", m(0)),
            ("shipping_tax_refunded", m(0)),
            ("base_shipping_tax_refunded", m(0)),
            ("sub_total_incl_tax", m(t.sub + t.tax)),
            ("base_sub_total_incl_tax", m(t.sub + t.tax)),
            ("shipping_amount_incl_tax", m(t.shipping)),
            ("base_shipping_amount_incl_tax", m(t.shipping)),
            ("customer_id", V::opt_i(p.customer)),
            ("customer_type", if guest { V::Null } else { V::t(CUSTOMER) }),
            ("channel_id", V::I(1)),
            ("channel_type", V::t(CHANNEL)),
            ("cart_id", V::I(cart_id[w.req])),
            ("applied_cart_rule_ids", V::t(&t.rules)),
            ("created_at", V::AtSecs(created)),
            ("updated_at", V::AtSecs(updated)),
        ]);
        f.mark(id, mark);
        if x.changed {
            f.hidden.insert(id.to_string());
        }

        // The addresses, shipping first, in the same transaction (the shared table's ids move all the time).
        let mut kinds: Vec<(&str, &Person)> = Vec::new();
        if t.stockable {
            kinds.push(("order_shipping", s));
        }
        kinds.push(("order_billing", p));
        for (kind, a) in kinds {
            address_id += 1 + r.poisson(2.5) as i64;
            let at = created + r.range(3_000, 40_000);
            addresses.push(&[
                ("id", V::I(address_id)),
                ("address_type", V::t(kind)),
                ("order_id", V::I(id)),
                ("first_name", V::t(a.first)),
                ("last_name", V::t(a.last)),
                ("company_name", V::opt_t(a.company.as_deref())),
                ("address", V::t(&a.address)),
                ("city", V::t(a.city.0)),
                ("state", V::t(a.city.1)),
                ("country", V::t("US")),
                ("postcode", V::t(&a.zip)),
                ("email", V::t(&p.email)),
                ("phone", V::t(&a.phone)),
                ("default_address", V::I(0)),
                ("use_for_shipping", V::I(0)),
                ("created_at", V::AtSecs(at)),
                ("updated_at", V::AtSecs(at)),
            ]);
        }
    }
    f.children.push(addresses);
    f
}
