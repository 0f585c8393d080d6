//! Magento Open Source 2.4.6 (PHP, Magento's own resource models, MySQL/MariaDB): `sales_order`, as
//! `QuoteManagement::placeOrder` -> `submitQuote` -> `OrderManagement::place` writes it.
//! Read: magento/magento2 app/code/Magento/Sales/etc/db_schema.xml (sales_order, sales_order_address),
//! app/code/Magento/Quote/Model/QuoteManagement.php (placeOrder sets remote_ip / x_forwarded_for on the
//! quote, submitQuote: reserveOrderId, setIncrementId(reserved), setQuoteId, addresses),
//! app/code/Magento/Sales/Model/ResourceModel/Order.php (_beforeSave: store_name, total_item_count,
//! protect_code = substr(sha256(uniqid . microtime), 5, 32) on every save),
//! app/code/Magento/SalesSequence/Model/{Sequence,Config,Observer}.php (increment_id: a row inserted in
//! sequence_order_1, '%s%09d%s' with empty prefix and suffix), Magento_Multishipping's _prepareOrder
//! (one order per address, unsReservedOrderId + reserveOrderId each, same quote).
//! Per write: entity_id, increment_id (sequence values are burnt by declined payments: gaps),
//! protect_code, billing/shipping_address_id. From the quote, equal on a retry: quote_id, customer,
//! email and names, totals, coupon, remote_ip, x_forwarded_for, the addresses' quote_address_id.
//! Later life: card and PayPal orders are captured in the request (processing, invoiced, paid) and
//! shipped days later (complete); check/money order waits `new`/pending for the transfer or is
//! cancelled after two weeks; redirect payments start pending_payment and are paid by webhook a few
//! minutes later or cancelled (the customer came back with a failure, or the 8 h cron); a credit
//! memo closes an order (total_refunded); updated_at moves with every change.
//! Retries (7 rows in all): before 2.4.7 (ACSD-51819) nothing locks the quote, so a second Place
//! Order while the first runs makes a second order from the same active quote: double clicks
//! (8-90 ms apart), and a re-submit after a hung card authorization (the retry lands first, the
//! hung original is saved when the gateway answers, with the earlier increment_id but the later
//! entity_id), once three times. The shop closes the copies with credit memos, or cancels them; the
//! two double clicks of the last days are not noticed yet, and are `hidden`: quote, second, totals
//! and state are those of a multishipping pair.
//! Legitimate repeats: multishipping (one order per address from one quote, same second, equal
//! when the same gift goes to several friends), a restored quote after a failed redirect payment
//! (same quote_id, the first order cancelled, 1-5 min later), an admin's Edit Order (a new order
//! `<increment>-1` linked by relation_* columns, the original cancelled), and a customer buying
//! the same gift card again a few minutes later (a new quote).

use std::collections::BTreeSet;

use super::{Child, DAY, Fixture, HOUR, MINUTE, Rng, SECOND, T0, V};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => DDL.to_string(),
        _ => unreachable!("Magento runs on MySQL and MariaDB only"),
    }
}

const DDL: &str = "CREATE TABLE `sales_order` (
  `entity_id` int(10) unsigned NOT NULL AUTO_INCREMENT, `state` varchar(32), `status` varchar(32),
  `coupon_code` varchar(255), `protect_code` varchar(255), `shipping_description` varchar(255),
  `is_virtual` smallint(5) unsigned, `store_id` smallint(5) unsigned, `customer_id` int(10) unsigned,
  `base_discount_amount` decimal(20,4), `base_discount_canceled` decimal(20,4), `base_discount_invoiced` decimal(20,4),
  `base_discount_refunded` decimal(20,4), `base_grand_total` decimal(20,4), `base_shipping_amount` decimal(20,4),
  `base_shipping_canceled` decimal(20,4), `base_shipping_invoiced` decimal(20,4),
  `base_shipping_refunded` decimal(20,4), `base_shipping_tax_amount` decimal(20,4),
  `base_shipping_tax_refunded` decimal(20,4), `base_subtotal` decimal(20,4), `base_subtotal_canceled` decimal(20,4),
  `base_subtotal_invoiced` decimal(20,4), `base_subtotal_refunded` decimal(20,4), `base_tax_amount` decimal(20,4),
  `base_tax_canceled` decimal(20,4), `base_tax_invoiced` decimal(20,4), `base_tax_refunded` decimal(20,4),
  `base_to_global_rate` decimal(20,4), `base_to_order_rate` decimal(20,4), `base_total_canceled` decimal(20,4),
  `base_total_invoiced` decimal(20,4), `base_total_invoiced_cost` decimal(20,4),
  `base_total_offline_refunded` decimal(20,4), `base_total_online_refunded` decimal(20,4),
  `base_total_paid` decimal(20,4), `base_total_qty_ordered` decimal(12,4), `base_total_refunded` decimal(20,4),
  `discount_amount` decimal(20,4), `discount_canceled` decimal(20,4), `discount_invoiced` decimal(20,4),
  `discount_refunded` decimal(20,4), `grand_total` decimal(20,4), `shipping_amount` decimal(20,4),
  `shipping_canceled` decimal(20,4), `shipping_invoiced` decimal(20,4), `shipping_refunded` decimal(20,4),
  `shipping_tax_amount` decimal(20,4), `shipping_tax_refunded` decimal(20,4), `store_to_base_rate` decimal(12,4),
  `store_to_order_rate` decimal(12,4), `subtotal` decimal(20,4), `subtotal_canceled` decimal(20,4),
  `subtotal_invoiced` decimal(20,4), `subtotal_refunded` decimal(20,4), `tax_amount` decimal(20,4),
  `tax_canceled` decimal(20,4), `tax_invoiced` decimal(20,4), `tax_refunded` decimal(20,4),
  `total_canceled` decimal(20,4), `total_invoiced` decimal(20,4), `total_offline_refunded` decimal(20,4),
  `total_online_refunded` decimal(20,4), `total_paid` decimal(20,4), `total_qty_ordered` decimal(12,4),
  `total_refunded` decimal(20,4), `can_ship_partially` smallint(5) unsigned,
  `can_ship_partially_item` smallint(5) unsigned, `customer_is_guest` smallint(5) unsigned,
  `customer_note_notify` smallint(5) unsigned, `billing_address_id` int(11), `customer_group_id` int(11),
  `edit_increment` int(11), `email_sent` smallint(6), `send_email` smallint(5) unsigned,
  `forced_shipment_with_invoice` smallint(5) unsigned, `payment_auth_expiration` int(11), `quote_address_id` int(11),
  `quote_id` int(11), `shipping_address_id` int(11), `adjustment_negative` decimal(20,4),
  `adjustment_positive` decimal(20,4), `base_adjustment_negative` decimal(20,4),
  `base_adjustment_positive` decimal(20,4), `base_shipping_discount_amount` decimal(20,4),
  `base_subtotal_incl_tax` decimal(20,4), `base_total_due` decimal(20,4), `payment_authorization_amount` decimal(20,4),
  `shipping_discount_amount` decimal(20,4), `subtotal_incl_tax` decimal(20,4), `total_due` decimal(20,4),
  `weight` decimal(12,4), `customer_dob` datetime, `increment_id` varchar(50), `applied_rule_ids` varchar(128),
  `base_currency_code` varchar(3), `customer_email` varchar(128), `customer_firstname` varchar(128),
  `customer_lastname` varchar(128), `customer_middlename` varchar(128), `customer_prefix` varchar(32),
  `customer_suffix` varchar(32), `customer_taxvat` varchar(32), `discount_description` varchar(255),
  `ext_customer_id` varchar(32), `ext_order_id` varchar(32), `global_currency_code` varchar(3),
  `hold_before_state` varchar(32), `hold_before_status` varchar(32), `order_currency_code` varchar(3),
  `original_increment_id` varchar(50), `relation_child_id` varchar(32), `relation_child_real_id` varchar(32),
  `relation_parent_id` varchar(32), `relation_parent_real_id` varchar(32), `remote_ip` varchar(45),
  `shipping_method` varchar(120), `store_currency_code` varchar(3), `store_name` varchar(255),
  `x_forwarded_for` varchar(255), `customer_note` text, `created_at` timestamp NOT NULL DEFAULT current_timestamp(),
  `updated_at` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),
  `total_item_count` smallint(5) unsigned NOT NULL DEFAULT 0, `customer_gender` int(11),
  `discount_tax_compensation_amount` decimal(20,4), `base_discount_tax_compensation_amount` decimal(20,4),
  `shipping_discount_tax_compensation_amount` decimal(20,4),
  `base_shipping_discount_tax_compensation_amnt` decimal(20,4), `discount_tax_compensation_invoiced` decimal(20,4),
  `base_discount_tax_compensation_invoiced` decimal(20,4), `discount_tax_compensation_refunded` decimal(20,4),
  `base_discount_tax_compensation_refunded` decimal(20,4), `shipping_incl_tax` decimal(20,4),
  `base_shipping_incl_tax` decimal(20,4), `coupon_rule_name` varchar(255),
  PRIMARY KEY (`entity_id`),
  UNIQUE KEY `SALES_ORDER_INCREMENT_ID_STORE_ID` (`increment_id`,`store_id`),
  KEY `SALES_ORDER_STATUS` (`status`), KEY `SALES_ORDER_STATE` (`state`), KEY `SALES_ORDER_STORE_ID` (`store_id`),
  KEY `SALES_ORDER_CREATED_AT` (`created_at`), KEY `SALES_ORDER_CUSTOMER_ID` (`customer_id`),
  KEY `SALES_ORDER_EXT_ORDER_ID` (`ext_order_id`), KEY `SALES_ORDER_QUOTE_ID` (`quote_id`),
  KEY `SALES_ORDER_UPDATED_AT` (`updated_at`),
  KEY `SALES_ORDER_SEND_EMAIL` (`send_email`), KEY `SALES_ORDER_EMAIL_SENT` (`email_sent`),
  KEY `SALES_ORDER_STORE_STATE_CREATED` (`store_id`,`state`,`created_at`),
  KEY `SALES_ORDER_CUSTOMER_EMAIL_CUSTOMER_IS_GUEST_STORE_ID` (`customer_email`,`customer_is_guest`,`store_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='Sales Flat Order';
CREATE TABLE `sales_order_address` (
  `entity_id` int(10) unsigned NOT NULL AUTO_INCREMENT, `parent_id` int(10) unsigned, `customer_address_id` int(11),
  `quote_address_id` int(11), `region_id` int(11), `customer_id` int(11), `fax` varchar(255), `region` varchar(255),
  `postcode` varchar(255), `lastname` varchar(255), `street` varchar(255), `city` varchar(255), `email` varchar(255),
  `telephone` varchar(255), `country_id` varchar(2), `firstname` varchar(255), `address_type` varchar(255),
  `prefix` varchar(255), `middlename` varchar(255), `suffix` varchar(255), `company` varchar(255), `vat_id` text,
  `vat_is_valid` smallint(6), `vat_request_id` text, `vat_request_date` text, `vat_request_success` smallint(6),
  PRIMARY KEY (`entity_id`),
  KEY `SALES_ORDER_ADDRESS_PARENT_ID` (`parent_id`),
  CONSTRAINT `SALES_ORDER_ADDRESS_PARENT_ID_SALES_ORDER_ENTITY_ID` FOREIGN KEY (`parent_id`)
    REFERENCES `sales_order` (`entity_id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='Sales Flat Order Address';";

const ADDRESS_COLUMNS: &str = "entity_id parent_id customer_address_id quote_address_id region_id customer_id region \
    postcode lastname street city email telephone country_id firstname address_type";

const NOW: i64 = T0 + 28 * DAY;
const STORE_NAME: &str = "Main Website\nMain Website Store\nDefault Store View";
/// (price incl. 19 % VAT in cents, weight in kg, virtual)
const PRODUCTS: &[(i64, i64, bool)] = &[
    (1_990, 1, false),
    (2_490, 1, false),
    (3_990, 2, false),
    (5_900, 3, false),
    (8_900, 4, false),
    (1_290, 1, false),
    (2_500, 0, true),
    (5_000, 0, true),
];
const FIRST: &[&str] =
    &["Anna", "Lukas", "Mia", "Jonas", "Lea", "Felix", "Sophie", "Paul", "Emma", "Noah", "Laura", "Ben"];
const LAST: &[&str] =
    &["Müller", "Schmidt", "Weber", "Fischer", "Wagner", "Becker", "Hoffmann", "Koch", "Richter", "Wolf"];
const CITIES: &[(&str, &str, i64, &str)] = &[
    ("Berlin", "Berlin", 82, "10"),
    ("Hamburg", "Hamburg", 84, "20"),
    ("München", "Bayern", 81, "80"),
    ("Köln", "Nordrhein-Westfalen", 88, "50"),
];

struct Person {
    first: &'static str,
    last: &'static str,
    email: String,
    street: String,
    city: (&'static str, &'static str, i64, &'static str),
    zip: String,
    phone: String,
    ip: String,
}

fn person(r: &mut Rng) -> Person {
    let (first, last) = (r.one(FIRST), r.one(LAST));
    let host = r.one(&["gmail.com", "web.de", "gmx.de", "t-online.de", "icloud.com"]);
    let email = format!("{}.{}{}@{host}", first.to_lowercase(), last.to_lowercase().replace('ü', "ue"), r.range(1, 99));
    let city = r.one(CITIES);
    let street =
        format!("{} {}", r.one(&["Hauptstraße", "Gartenweg", "Bahnhofstraße", "Lindenallee"]), r.range(1, 120));
    let net = r.one(&[84, 87, 91, 93, 176, 178, 188, 217]);
    let ip = format!("{net}.{}.{}.{}", r.below(256), r.below(256), r.range(1, 254));
    let zip = format!("{}{:03}", city.3, r.below(1_000));
    let phone = format!("01{} {}", r.range(50, 79), r.range(1_000_000, 9_999_999));
    Person { first, last, email, street, city, zip, phone, ip }
}

#[derive(Clone, Copy, PartialEq)]
enum Pay {
    Card,
    Check,
    Redirect,
}

#[derive(Clone, Copy, PartialEq)]
enum Fate {
    Paid,
    Unpaid,
    Failed,
}

#[derive(Clone, Copy, PartialEq)]
enum Mark {
    Plain,
    Retry,
    /// A retry the row cannot tell from a multishipping order: same quote, second and totals.
    Hidden,
    Legit,
}

#[derive(Clone)]
struct Order {
    reserved: i64,
    at: i64,
    who: usize,
    ship: usize,
    customer: Option<i64>,
    items: Vec<(usize, i64)>,
    coupon: bool,
    pay: Pay,
    fate: Fate,
    quote: i64,
    /// Multishipping: which of the quote's extra shipping addresses.
    extra_address: i64,
    admin: bool,
    edit_of: Option<usize>,
    after: Option<(i64, &'static str)>,
    mark: Mark,
}

/// (state, status, invoiced, order email sent)
type State = (&'static str, &'static str, bool, bool);
const NEW: State = ("new", "pending", false, true);
const PENDING_PAYMENT: State = ("pending_payment", "pending_payment", false, false);
const PROCESSING: State = ("processing", "processing", true, true);
const COMPLETE: State = ("complete", "complete", true, true);
const CANCELED: State = ("canceled", "canceled", false, true);
const UNPAID_CANCELED: State = ("canceled", "canceled", false, false);

fn stages(r: &mut Rng, o: &Order) -> Vec<(i64, State)> {
    let at = o.at;
    match (o.pay, o.fate) {
        (Pay::Card, _) => vec![(at, PROCESSING), (at + r.range(20, 100) * HOUR, COMPLETE)],
        (Pay::Check, Fate::Paid) => {
            let paid = at + r.range(24, 96) * HOUR;
            vec![(at, NEW), (paid, PROCESSING), (paid + r.range(20, 50) * HOUR, COMPLETE)]
        }
        (Pay::Check, _) => vec![(at, NEW), (at + r.range(240, 336) * HOUR, CANCELED)],
        (Pay::Redirect, Fate::Paid) => {
            let paid = at + r.range(40, 240) * SECOND;
            vec![(at, PENDING_PAYMENT), (paid, PROCESSING), (paid + r.range(20, 100) * HOUR, COMPLETE)]
        }
        (Pay::Redirect, Fate::Unpaid) => {
            vec![(at, PENDING_PAYMENT), (at + r.range(480, 500) * MINUTE, UNPAID_CANCELED)]
        }
        (Pay::Redirect, Fate::Failed) => vec![(at, PENDING_PAYMENT), (at + r.range(30, 60) * SECOND, UNPAID_CANCELED)],
    }
}

/// The next free quote id from `q` (carts are created all the time; most never become orders).
fn fresh(quotes: &mut BTreeSet<i64>, mut q: i64) -> i64 {
    while !quotes.insert(q) {
        q += 1;
    }
    q
}

fn m(cents: i64) -> V {
    V::t(format!("{}{}.{:02}00", if cents < 0 { "-" } else { "" }, cents.abs() / 100, cents.abs() % 100))
}

fn vat(gross: i64) -> i64 {
    gross - (gross * 100 + 59) / 119
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(6_203);
    let mut people: Vec<Person> = (0..900).map(|_| person(&mut r)).collect();
    let customer_ids: Vec<i64> = (0..900).map(|i| 1_200 + i * 5 + r.below(5) as i64).collect();
    let mut orders: Vec<Order> = Vec::new();
    let mut quotes: BTreeSet<i64> = BTreeSet::new();
    // The few retries, by (day, kind): 0 a double click, 1 the same on check/money order, 2 a hung card
    // authorization re-submitted, 3 the same twice.
    let mut planned: Vec<(i64, u8)> = vec![(2, 0), (8, 1), (13, 2), (19, 3), (26, 0), (27, 0)];
    let mut t = T0;
    while t < NOW - 30 * MINUTE {
        t += r.range(30, 1_900) * SECOND + r.below(1_000_000) as i64;
        let registered = r.chance(0.55);
        let who = if registered {
            r.skewed(900) as usize
        } else {
            people.push(person(&mut r));
            people.len() - 1
        };
        let items: Vec<(usize, i64)> = if r.chance(0.06) {
            vec![(r.range(6, 7) as usize, 1)]
        } else {
            (0..1 + r.skewed(3)).map(|_| (r.below(6) as usize, 1 + r.skewed(2) as i64)).collect()
        };
        let pay = [Pay::Card, Pay::Check, Pay::Redirect][r.one(&[0, 0, 0, 0, 0, 0, 1, 2, 2])];
        let fate = match pay {
            Pay::Check if r.chance(0.2) => Fate::Unpaid,
            Pay::Redirect if r.chance(0.06) => Fate::Unpaid,
            Pay::Redirect if r.chance(0.1) => Fate::Failed,
            _ => Fate::Paid,
        };
        let quote = fresh(&mut quotes, 612_000 + (t - r.range(3, 2_880) * MINUTE - T0 + 3 * DAY) / (9 * SECOND));
        let base = Order {
            reserved: t - r.range(300, 900) * 1_000,
            at: t,
            who,
            ship: who,
            customer: registered.then(|| customer_ids[who]),
            items,
            coupon: r.chance(0.1),
            pay,
            fate,
            quote,
            extra_address: 0,
            admin: false,
            edit_of: None,
            after: None,
            mark: Mark::Plain,
        };
        let b = orders.len();
        orders.push(base.clone());
        let virt = base.items.iter().all(|i| PRODUCTS[i.0].2);
        let due = planned.first().is_some_and(|p| t > T0 + p.0 * DAY + 7 * HOUR);
        let kind = planned.first().map_or(9, |p| p.1);
        if due && !virt && fate == Fate::Paid && ((kind == 1) == (pay == Pay::Check)) && (kind == 1 || pay == Pay::Card)
        {
            planned.remove(0);
            let mut copy = Order { mark: Mark::Retry, ..base.clone() };
            if kind <= 1 {
                copy.reserved = base.reserved + r.range(8, 90) * 1_000;
                copy.at = base.at + r.range(8, 90) * 1_000;
                let noticed = t + if kind == 1 { r.range(2, 12) } else { r.range(14, 30) } * HOUR;
                if t < NOW - 3 * DAY {
                    copy.after = Some((noticed, if kind == 1 { "canceled" } else { "closed" }));
                } else {
                    copy.mark = Mark::Hidden;
                }
                orders.push(copy);
            } else {
                // The retry (30-45 s later) is saved first; the hung original when the gateway answers.
                copy.reserved = base.reserved + r.range(30, 45) * SECOND;
                let mut first = copy.reserved + r.range(2, 4) * SECOND;
                if kind == 3 {
                    // The retry hung too; a second one after a back-off went through.
                    let second = copy.reserved + r.range(25, 60) * SECOND;
                    first = second + r.range(2, 4) * SECOND;
                    orders.push(Order { reserved: second, at: first, mark: Mark::Plain, ..base.clone() });
                    copy.at = first + r.range(15, 60) * SECOND;
                    copy.after = Some((copy.at + r.range(18, 30) * HOUR, "closed"));
                } else {
                    copy.at = first;
                    copy.mark = Mark::Plain;
                }
                let hung = first + r.range(5, 40) * SECOND;
                orders[b].mark = Mark::Retry;
                orders[b].at = hung;
                orders[b].after = Some((hung + r.range(18, 30) * HOUR, "closed"));
                orders.push(copy);
            }
        } else if registered && !virt && pay != Pay::Redirect && fate == Fate::Paid && r.chance(0.006) {
            // Multishipping: the same gift to two or three friends, one order per address.
            for k in 1..=r.range(1, 2) {
                people.push(person(&mut r));
                let at = t + k * r.range(150, 400) * 1_000;
                let ship = people.len() - 1;
                orders.push(Order {
                    reserved: at - 100_000,
                    at,
                    ship,
                    extra_address: k,
                    mark: Mark::Legit,
                    ..base.clone()
                });
            }
        } else if fate == Fate::Failed && r.chance(0.45) {
            // Back from the bank with a failure: the quote is restored (same id) and placed again.
            let at = t + r.range(70, 300) * SECOND + r.below(1_000_000) as i64;
            let pay = r.one(&[Pay::Card, Pay::Card, Pay::Redirect]);
            orders.push(Order { reserved: at - 400_000, at, pay, fate: Fate::Paid, mark: Mark::Legit, ..base.clone() });
        } else if pay == Pay::Check && fate == Fate::Paid && registered && r.chance(0.07) {
            // The customer calls; an admin edits the order: a new order, the original cancelled.
            let at = t + r.range(5, 180) * MINUTE;
            let quote = fresh(&mut quotes, quote + 40_000);
            orders[b].after = Some((at, "canceled"));
            orders.push(Order {
                reserved: at,
                at,
                quote,
                admin: true,
                edit_of: Some(b),
                mark: Mark::Legit,
                ..base.clone()
            });
        } else if registered && virt && r.chance(0.12) {
            // The same gift card bought again, a new cart.
            let at = t + r.range(60, 600) * SECOND + r.below(1_000_000) as i64;
            let quote = fresh(&mut quotes, quote + r.range(5, 40));
            orders.push(Order { reserved: at - 500_000, at, quote, mark: Mark::Legit, ..base.clone() });
        }
    }

    // increment_id from the sequence, in reservation order; declined cards burn values.
    let mut increments = vec![String::new(); orders.len()];
    let mut by_reservation: Vec<usize> = (0..orders.len()).filter(|&i| orders[i].edit_of.is_none()).collect();
    by_reservation.sort_by_key(|&i| orders[i].reserved);
    let mut seq = 48_311i64;
    for i in by_reservation {
        seq += 1 + if r.chance(0.05) { r.range(1, 2) } else { 0 };
        increments[i] = format!("{seq:09}");
    }
    let mut by_insert: Vec<usize> = (0..orders.len()).collect();
    by_insert.sort_by_key(|&i| orders[i].at);
    let mut entity = vec![0i64; orders.len()];
    let mut next = 47_902i64;
    for &i in &by_insert {
        next += 1 + i64::from(r.chance(0.01));
        entity[i] = next;
        if let Some(o) = orders[i].edit_of {
            increments[i] = format!("{}-1", increments[o]);
        }
    }
    let edited: Vec<Option<usize>> =
        (0..orders.len()).map(|i| orders.iter().position(|o| o.edit_of == Some(i))).collect();

    let mut rows: Vec<Vec<(&'static str, V)>> = Vec::new();
    let (mut extras, mut hidden, mut legit) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let mut addresses = Child::new("sales_order_address", &ADDRESS_COLUMNS.split_whitespace().collect::<Vec<_>>());
    for &i in &by_insert {
        let o = &orders[i];
        let p = &people[o.who];
        let virt = o.items.iter().all(|x| PRODUCTS[x.0].2);
        let goods: i64 = o.items.iter().map(|x| PRODUCTS[x.0].0 * x.1).sum();
        let disc = if o.coupon { (goods + 5) / 10 } else { 0 };
        let ship_incl = if virt || goods >= 5_000 { 0 } else { 490 };
        let (net, ship) = (goods - vat(goods), ship_incl - vat(ship_incl));
        let tax = vat(goods - disc) + vat(ship_incl);
        let grand = goods - disc + ship_incl;
        let mut st = stages(&mut r, o);
        if let Some((when, to)) = o.after {
            let invoiced = st.iter().any(|s| s.0 < when && s.1.2);
            st.retain(|s| s.0 < when);
            st.push((when, (to, to, invoiced, true)));
        }
        let (updated, (state, status, invoiced, mailed)) = *st.iter().rev().find(|s| s.0 <= NOW).unwrap();
        let (canceled, refunded) = (state == "canceled", state == "closed");
        let due = if invoiced || canceled { 0 } else { grand };
        let when = |on: bool, c: i64| if on { m(c) } else { V::Null };
        let coupon = |v: &str| if o.coupon { V::t(v) } else { V::Null };
        let first_address = addresses.rows.len() as i64 + 95_701;
        let (method, description) = match (virt, ship_incl) {
            (true, _) => (None, None),
            (false, 0) => (Some("freeshipping_freeshipping"), Some("Free Shipping - Free")),
            _ => (Some("flatrate_flatrate"), Some("Flat Rate - Fixed")),
        };
        let parent = o.edit_of.map_or((V::Null, V::Null), |k| (V::t(entity[k].to_string()), V::t(&increments[k])));
        let child = edited[i].map_or((V::Null, V::Null), |k| (V::t(entity[k].to_string()), V::t(&increments[k])));
        let qty: i64 = o.items.iter().map(|x| x.1).sum();
        let weight: i64 = o.items.iter().map(|x| PRODUCTS[x.0].1 * x.1).sum();
        // One value for each group of columns; base and order currency are both EUR.
        let values = [
            ("entity_id", V::I(entity[i])),
            ("state", V::t(state)),
            ("status", V::t(status)),
            ("protect_code", V::t(r.hex(32))),
            ("increment_id", V::t(&increments[i])),
            ("quote_id", V::I(o.quote)),
            ("store_id send_email customer_note_notify", V::I(1)),
            ("store_name", V::t(STORE_NAME)),
            ("is_virtual", V::I(i64::from(virt))),
            ("customer_id", V::opt_i(o.customer)),
            ("customer_is_guest", V::I(i64::from(o.customer.is_none()))),
            ("customer_group_id", V::I(i64::from(o.customer.is_some()))),
            ("customer_email", V::t(&p.email)),
            ("customer_firstname", V::t(p.first)),
            ("customer_lastname", V::t(p.last)),
            ("remote_ip x_forwarded_for", if o.admin { V::Null } else { V::t(&p.ip) }),
            ("coupon_code discount_description", coupon("WELCOME10")),
            ("coupon_rule_name", coupon("Welcome 10%")),
            ("applied_rule_ids", coupon("2")),
            ("shipping_method", V::opt_t(method)),
            ("shipping_description", V::opt_t(description)),
            ("shipping_address_id", if virt { V::Null } else { V::I(first_address) }),
            ("billing_address_id", V::I(first_address + i64::from(!virt))),
            ("base_currency_code global_currency_code order_currency_code store_currency_code", V::t("EUR")),
            ("base_to_global_rate base_to_order_rate", m(100)),
            ("store_to_base_rate store_to_order_rate shipping_discount_amount base_shipping_discount_amount", m(0)),
            ("shipping_discount_tax_compensation_amount base_shipping_discount_tax_compensation_amnt", m(0)),
            ("grand_total base_grand_total", m(grand)),
            ("subtotal base_subtotal", m(net)),
            ("subtotal_incl_tax base_subtotal_incl_tax", m(goods)),
            ("tax_amount base_tax_amount", m(tax)),
            ("shipping_amount base_shipping_amount", m(ship)),
            ("shipping_tax_amount base_shipping_tax_amount", m(vat(ship_incl))),
            ("shipping_incl_tax base_shipping_incl_tax", m(ship_incl)),
            ("discount_amount base_discount_amount", m(-disc)),
            (
                "discount_tax_compensation_amount base_discount_tax_compensation_amount",
                m(vat(goods) - vat(goods - disc)),
            ),
            ("total_qty_ordered base_total_qty_ordered", m(qty * 100)),
            ("weight", m(weight * 100)),
            ("total_item_count", V::I(o.items.len() as i64)),
            ("total_due base_total_due", m(due)),
            ("total_invoiced base_total_invoiced total_paid base_total_paid", when(invoiced, grand)),
            ("subtotal_invoiced base_subtotal_invoiced", when(invoiced, net)),
            ("tax_invoiced base_tax_invoiced", when(invoiced, tax)),
            ("shipping_invoiced base_shipping_invoiced", when(invoiced, ship)),
            ("discount_invoiced base_discount_invoiced", when(invoiced, -disc)),
            ("total_canceled base_total_canceled", when(canceled, grand)),
            ("subtotal_canceled base_subtotal_canceled", when(canceled, net)),
            ("tax_canceled base_tax_canceled", when(canceled, tax)),
            ("shipping_canceled base_shipping_canceled", when(canceled, ship)),
            ("discount_canceled base_discount_canceled", when(canceled, -disc)),
            (
                "total_refunded base_total_refunded total_online_refunded base_total_online_refunded",
                when(refunded, grand),
            ),
            ("subtotal_refunded base_subtotal_refunded", when(refunded, net)),
            ("tax_refunded base_tax_refunded", when(refunded, tax)),
            ("shipping_refunded base_shipping_refunded", when(refunded, ship)),
            ("email_sent", if mailed { V::I(1) } else { V::Null }),
            ("edit_increment", if o.edit_of.is_some() { V::I(1) } else { V::Null }),
            ("relation_parent_id", parent.0),
            ("original_increment_id relation_parent_real_id", parent.1),
            ("relation_child_id", child.0),
            ("relation_child_real_id", child.1),
            ("created_at", V::AtSecs(o.at)),
            ("updated_at", V::AtSecs(updated)),
        ];
        rows.push(values.into_iter().flat_map(|(names, v)| names.split(' ').map(move |n| (n, v.clone()))).collect());
        let quote_address = o.quote * 2 + 8_311;
        let kinds =
            [("shipping", &people[o.ship], quote_address + 2 * o.extra_address), ("billing", p, quote_address + 1)];
        for (kind, a, quote_address) in kinds.into_iter().skip(usize::from(virt)) {
            let n = addresses.rows.len() as i64 + 95_701;
            let saved = o.customer.map(|_| 30_000 + (o.who * 2 + usize::from(kind == "shipping")) as i64);
            addresses.push(&[
                ("entity_id", V::I(n)),
                ("parent_id", V::I(entity[i])),
                ("customer_address_id", V::opt_i(saved)),
                ("quote_address_id", V::I(quote_address)),
                ("region_id", V::I(a.city.2)),
                ("customer_id", V::opt_i(o.customer)),
                ("region", V::t(a.city.1)),
                ("postcode", V::t(&a.zip)),
                ("lastname", V::t(a.last)),
                ("street", V::t(&a.street)),
                ("city", V::t(a.city.0)),
                ("email", V::t(&p.email)),
                ("telephone", V::t(&a.phone)),
                ("country_id", V::t("DE")),
                ("firstname", V::t(a.first)),
                ("address_type", V::t(kind)),
            ]);
        }
        let id = entity[i].to_string();
        match o.mark {
            Mark::Retry => extras.insert(id),
            Mark::Hidden => extras.insert(id.clone()) && hidden.insert(id),
            Mark::Legit => legit.insert(id),
            Mark::Plain => false,
        };
    }
    let columns: Vec<&'static str> = rows[0].iter().map(|c| c.0).collect();
    let mut f = Fixture::new("sales_order", &columns);
    for row in &rows {
        f.push(row);
    }
    (f.extras, f.hidden, f.legit) = (extras, hidden, legit);
    f.children.push(addresses);
    f
}
