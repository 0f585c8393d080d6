//! WooCommerce 9 (PHP, WordPress `$wpdb`, MySQL/MariaDB): `wp_wc_orders`, the HPOS orders table, as
//! `WC_Checkout::create_order` -> `$order->save()` -> `OrdersTableDataStore::persist_order_to_db` writes it.
//! Read: woocommerce/woocommerce plugins/woocommerce/src/Internal/DataStores/Orders/OrdersTableDataStore.php
//! (get_database_schema, $order_column_mapping, persist_order_to_db, maybe_create_backup_post,
//! get_db_rows_for_order), plugins/woocommerce/includes/class-wc-checkout.php (create_order),
//! plugins/woocommerce/includes/wc-order-functions.php (wc_create_refund),
//! and WC_REST_Orders_V2_Controller::save_object (REST orders: `created_via` rest-api, no ip or agent, set_paid).
//! `id` is not AUTO_INCREMENT: each create first inserts a `shop_order_placehold` post and takes its
//! `wp_posts.ID` (shared with products, pages, refunds: gaps). The create writes every mapped prop:
//! `transaction_id`, `customer_note`, `payment_method` are '' until set, `parent_order_id` 0,
//! `customer_id` 0 for guests, times are whole seconds (GMT); `date_updated_gmt` is the last save.
//! Later life: gateways move `wc-pending` to `wc-processing` and set `transaction_id` seconds later;
//! bank transfers sit `wc-on-hold`; the shop completes orders days later; unpaid pending orders are
//! cancelled by the held-stock cron after 60 min; refunds are rows of this table (`shop_order_refund`,
//! `parent_order_id`, negative totals, `wc-completed`, no customer, email, ip or agent) and touch the
//! order's `date_updated_gmt`. Addresses live in `wp_wc_order_addresses` (the child here).
//! Retries: the classic checkout resumes an `order_awaiting_payment` from the session, but the
//! session is written at shutdown, so a second submit while the first request runs inserts a new
//! order: double clicks / two tabs (5-100 ms), and a re-submit after a gateway hang made the
//! proxy answer 504 (25-75 s; the hung original fails or is cancelled, or is charged too and the
//! shop refunds the copy), sometimes twice. A marketplace connector posting to /wc/v3/orders with
//! a 30 s timeout retries with the same `transaction_id`; the shop cancels the copy.
//! Legitimate repeats: a customer ordering the same cart again for another recipient (1-10 min,
//! other shipping address), a declined card re-entered on another device (new session, other
//! user agent), two equal partial refunds of one order (15-180 s), and a buyer's two equal
//! marketplace orders synced in one batch (under a second apart, each its own transaction id).

use super::{Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => DDL.to_string(),
        _ => unreachable!("WooCommerce runs on MySQL and MariaDB only"),
    }
}

// dbDelta's SQL as get_database_schema() renders it for utf8mb4 (max index length 191).
const DDL: &str = "CREATE TABLE wp_wc_orders (
  id bigint(20) unsigned,
  status varchar(20) null,
  currency varchar(10) null,
  type varchar(20) null,
  tax_amount decimal(26,8) null,
  total_amount decimal(26,8) null,
  customer_id bigint(20) unsigned null,
  billing_email varchar(320) null,
  date_created_gmt datetime null,
  date_updated_gmt datetime null,
  parent_order_id bigint(20) unsigned null,
  payment_method varchar(100) null,
  payment_method_title text null,
  transaction_id varchar(100) null,
  ip_address varchar(100) null,
  user_agent text null,
  customer_note text null,
  PRIMARY KEY (id),
  KEY status (status),
  KEY date_created (date_created_gmt),
  KEY customer_id_billing_email (customer_id, billing_email(171)),
  KEY billing_email (billing_email(191)),
  KEY type_status_date (type, status, date_created_gmt),
  KEY parent_order_id (parent_order_id),
  KEY date_updated (date_updated_gmt)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci;
CREATE TABLE wp_wc_order_addresses (
  id bigint(20) unsigned auto_increment primary key,
  order_id bigint(20) unsigned NOT NULL,
  address_type varchar(20) null,
  first_name text null,
  last_name text null,
  company text null,
  address_1 text null,
  address_2 text null,
  city text null,
  state text null,
  postcode text null,
  country text null,
  email varchar(320) null,
  phone varchar(100) null,
  KEY order_id (order_id),
  UNIQUE KEY address_type_order_id (address_type, order_id),
  KEY email (email(191)),
  KEY phone (phone)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci;";

const COLUMNS: &str = "id status currency type tax_amount total_amount customer_id billing_email date_created_gmt \
    date_updated_gmt parent_order_id payment_method payment_method_title transaction_id ip_address user_agent \
    customer_note";

const ADDRESS_COLUMNS: &str =
    "id order_id address_type first_name last_name company address_1 address_2 city state postcode country email phone";

const NOW: i64 = T0 + 28 * DAY;
const METHODS: &[(&str, &str)] = &[
    ("stripe", "Credit / Debit Card"),
    ("ppcp-gateway", "PayPal"),
    ("bacs", "Direct bank transfer"),
    ("cod", "Cash on delivery"),
    ("ebay", "eBay Managed Payments"),
];
const EBAY: usize = 4;
const PRICES: &[i64] = &[890, 1290, 1490, 1990, 2450, 2990, 3490, 4900, 5990, 7900];
const FIRST: &[&str] =
    &["Anna", "Lukas", "Mia", "Jonas", "Lea", "Felix", "Sophie", "Paul", "Emma", "Noah", "Laura", "Ben"];
const LAST: &[&str] =
    &["Müller", "Schmidt", "Weber", "Fischer", "Wagner", "Becker", "Hoffmann", "Koch", "Richter", "Wolf"];
const CITIES: &[(&str, &str)] =
    &[("Berlin", "10"), ("Hamburg", "20"), ("München", "80"), ("Köln", "50"), ("Leipzig", "04")];
const DESKTOP: &[&str] = &[
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
];
const MOBILE: &[&str] = &[
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36",
];
const NOTES: &[&str] = &[
    "Please leave the parcel with a neighbour.",
    "Gift, please no invoice in the box.",
    "Ring twice, bell is broken.",
];

struct Person {
    first: &'static str,
    last: &'static str,
    email: String,
    street: String,
    city: (&'static str, &'static str),
    zip: String,
    phone: String,
    ip: String,
    ua: &'static str,
}

fn ip(r: &mut Rng) -> String {
    if r.chance(0.3) {
        format!("2a02:810d:{:x}:{:x}:{:x}::{:x}", r.below(65_536), r.below(65_536), r.below(65_536), r.below(65_536))
    } else {
        let first = r.one(&[84, 87, 91, 93, 176, 178, 188, 217, 46, 79]);
        format!("{first}.{}.{}.{}", r.below(256), r.below(256), r.range(1, 254))
    }
}

fn person(r: &mut Rng, ebay: bool) -> Person {
    let (first, last) = (r.one(FIRST), r.one(LAST));
    let email = if ebay {
        format!("{}@members.ebay.com", r.hex(12))
    } else {
        let host = r.one(&["gmail.com", "web.de", "gmx.de", "t-online.de", "outlook.com"]);
        format!("{}.{}{}@{host}", first.to_lowercase(), last.to_lowercase().replace('ü', "ue"), r.range(1, 99))
    };
    let city = r.one(CITIES);
    let street =
        format!("{} {}", r.one(&["Hauptstraße", "Gartenweg", "Bahnhofstraße", "Lindenallee"]), r.range(1, 120));
    let zip = format!("{}{:03}", city.1, r.below(1_000));
    let phone = format!("+49 1{} {}", r.range(50, 79), r.range(1_000_000, 9_999_999));
    let ua = if r.chance(0.45) { r.one(MOBILE) } else { r.one(DESKTOP) };
    Person { first, last, email, street, city, zip, phone, ip: ip(r), ua }
}

#[derive(Clone, Copy, PartialEq)]
enum Fate {
    Paid,
    Failed,
    Hung,
    Abandoned,
    Unpaid,
}

#[derive(Clone)]
struct Order {
    at: i64,
    who: usize,
    ship: usize,
    customer: i64,
    items: Vec<i64>,
    method: usize,
    note: &'static str,
    ip: String,
    ua: &'static str,
    fate: Fate,
    txn: String,
    after: Option<(i64, &'static str)>,
    touched: i64,
    mark: Mark,
}

struct Refund {
    at: i64,
    order: usize,
    amount: i64,
    mark: Mark,
}

impl Order {
    fn total(&self) -> i64 {
        let goods: i64 = self.items.iter().sum();
        goods + if goods >= 5_000 { 0 } else { 490 }
    }
}

/// The VAT in a gross amount (19 %, prices include tax).
fn vat(gross: i64) -> i64 {
    gross - (gross * 100 + 59) / 119
}

fn money(cents: i64) -> V {
    V::t(format!("{}{}.{:02}", if cents < 0 { "-" } else { "" }, cents.abs() / 100, cents.abs() % 100))
}

/// The statuses an order goes through, with their times.
fn stages(r: &mut Rng, o: &Order) -> Vec<(i64, &'static str)> {
    let at = o.at;
    match (o.fate, METHODS[o.method].0) {
        (Fate::Paid, "stripe" | "ppcp-gateway") => {
            let paid = at + r.range(2, 9) * SECOND;
            vec![(at, "wc-pending"), (paid, "wc-processing"), (paid + r.range(20, 110) * HOUR, "wc-completed")]
        }
        (Fate::Paid, "bacs") => {
            let paid = at + r.range(20, 70) * HOUR;
            vec![(at, "wc-on-hold"), (paid, "wc-processing"), (paid + r.range(18, 48) * HOUR, "wc-completed")]
        }
        (Fate::Paid, _) => vec![(at, "wc-processing"), (at + r.range(18, 96) * HOUR, "wc-completed")],
        (Fate::Failed, _) => vec![(at, "wc-pending"), (at + r.range(3, 20) * SECOND, "wc-failed")],
        (Fate::Hung, _) => vec![(at, "wc-pending"), (at + r.range(60, 130) * SECOND, "wc-failed")],
        (Fate::Abandoned, _) => vec![(at, "wc-pending"), (at + r.range(60, 75) * MINUTE, "wc-cancelled")],
        (Fate::Unpaid, _) => vec![(at, "wc-on-hold"), (at + r.range(8, 14) * DAY, "wc-cancelled")],
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(9_417);
    let mut people: Vec<Person> = (0..700).map(|_| person(&mut r, false)).collect();
    let user_ids: Vec<i64> = (0..700).map(|i| 3 + i * 4 + r.below(4) as i64).collect();
    let mut orders: Vec<Order> = Vec::new();
    let mut refunds: Vec<Refund> = Vec::new();
    let mut t = T0;
    while t < NOW - 30 * MINUTE {
        t += r.range(20, 1_700) * SECOND + r.below(1_000_000) as i64;
        let ebay = r.chance(0.04);
        let registered = !ebay && r.chance(0.55);
        let who = if registered {
            r.skewed(700) as usize
        } else {
            people.push(person(&mut r, ebay));
            people.len() - 1
        };
        let method = if ebay { EBAY } else { r.one(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 3, 3, 3]) };
        let fate = match method {
            0 | 1 if r.chance(0.04) => Fate::Failed,
            0 | 1 if r.chance(0.03) => Fate::Abandoned,
            2 if r.chance(0.15) => Fate::Unpaid,
            _ => Fate::Paid,
        };
        let (ip_now, ua_now) = if ebay {
            (String::new(), "")
        } else if registered && r.chance(0.2) {
            (ip(&mut r), r.one(MOBILE))
        } else {
            (people[who].ip.clone(), people[who].ua)
        };
        let base = Order {
            at: t,
            who,
            ship: who,
            customer: if registered { user_ids[who] } else { 0 },
            items: (0..1 + r.skewed(3)).map(|_| r.one(PRICES)).collect(),
            method,
            note: if !ebay && r.chance(0.08) { r.one(NOTES) } else { "" },
            ip: ip_now,
            ua: ua_now,
            fate,
            txn: if ebay {
                format!("{:02}-{:05}-{:05}", r.range(10, 27), r.below(100_000), r.below(100_000))
            } else {
                String::new()
            },
            after: None,
            touched: 0,
            mark: Mark::Plain,
        };
        let b = orders.len();
        orders.push(base.clone());
        let p = if ebay {
            0.05
        } else if t > NOW - 3 * DAY {
            0.045
        } else {
            0.02
        };
        if fate == Fate::Paid && r.chance(p) {
            let mut copy = Order { mark: Mark::Retry, after: None, touched: 0, ..base.clone() };
            if ebay {
                // The connector's HTTP client gave up after 30 s and posted the same order again.
                copy.at = t + 30 * SECOND + r.below(2_000_000) as i64;
                copy.after = Some((copy.at + r.range(20, 60) * HOUR, "wc-cancelled"));
                if r.chance(0.3) {
                    let second = Order { at: copy.at + r.range(60, 65) * SECOND, ..copy.clone() };
                    orders.push(second);
                }
                orders.push(copy);
            } else if method >= 2 || r.chance(0.45) {
                // Two submits of one session, both through the gateway.
                copy.at = t + r.range(5_000, 100_000);
                let noticed = t + r.range(4, 40) * HOUR;
                if method < 2 && noticed < NOW && r.chance(0.75) {
                    copy.after = Some((noticed, "wc-refunded"));
                    refunds.push(Refund { at: noticed, order: orders.len(), amount: base.total(), mark: Mark::Plain });
                } else if method >= 2 && noticed < NOW {
                    copy.after = Some((noticed, "wc-cancelled"));
                }
                orders.push(copy);
            } else {
                // The gateway hung; the customer got a 504 and placed the order again.
                copy.at = t + r.range(25, 75) * SECOND + r.below(1_000_000) as i64;
                let roll = r.below(10);
                if roll < 6 {
                    orders[b].fate = Fate::Hung;
                } else if roll < 8 {
                    orders[b].fate = Fate::Abandoned;
                } else if t + 30 * HOUR < NOW {
                    copy.after = Some((t + r.range(10, 30) * HOUR, "wc-refunded"));
                    refunds.push(Refund {
                        at: copy.after.unwrap().0,
                        order: orders.len(),
                        amount: base.total(),
                        mark: Mark::Plain,
                    });
                }
                if roll < 6 && r.chance(0.25) {
                    let second = Order { at: copy.at + r.range(20, 120) * SECOND, ..copy.clone() };
                    copy.fate = Fate::Hung;
                    orders.push(copy);
                    orders.push(second);
                } else {
                    orders.push(copy);
                }
            }
        } else if fate == Fate::Paid && registered && r.chance(0.006) {
            // The same cart again, for another recipient.
            people.push(person(&mut r, false));
            let at = t + r.range(40, 600) * SECOND + r.below(1_000_000) as i64;
            orders.push(Order { at, ship: people.len() - 1, mark: Mark::Legit, ..base.clone() });
        } else if fate == Fate::Failed && method == 0 && r.chance(0.3) {
            // Declined on one device, paid on another: a new session, so a new order.
            let at = t + r.range(40, 480) * SECOND + r.below(1_000_000) as i64;
            let ua = if MOBILE.contains(&base.ua) { r.one(DESKTOP) } else { r.one(MOBILE) };
            let ip_other = if r.chance(0.5) { ip(&mut r) } else { base.ip.clone() };
            orders.push(Order { at, ua, ip: ip_other, fate: Fate::Paid, mark: Mark::Legit, ..base.clone() });
        } else if ebay && r.chance(0.1) {
            // The buyer bought the same listing twice; both arrive in one batch.
            let at = t + r.range(200_000, 900_000);
            let txn = format!("{:02}-{:05}-{:05}", r.range(10, 27), r.below(100_000), r.below(100_000));
            orders.push(Order { at, txn, mark: Mark::Legit, ..base.clone() });
        }
        // The shop's later refunds: full (status refunded) or of one item, now and then twice alike.
        if orders[b].fate == Fate::Paid && r.chance(0.05) {
            let at = t + r.range(80, 260) * HOUR;
            if at < NOW && r.chance(0.4) {
                orders[b].after = Some((at, "wc-refunded"));
                refunds.push(Refund { at, order: b, amount: base.total(), mark: Mark::Plain });
            } else if at < NOW {
                let amount = base.items[0];
                refunds.push(Refund { at, order: b, amount, mark: Mark::Plain });
                orders[b].touched = at;
                if base.items.len() > 1 && r.chance(0.5) {
                    let again = at + r.range(15, 180) * SECOND;
                    refunds.push(Refund { at: again, order: b, amount, mark: Mark::Legit });
                    orders[b].touched = again;
                }
            }
        }
    }

    // Placeholder posts take ids in time order, among the site's other posts.
    let mut events: Vec<(i64, usize, bool)> = orders.iter().enumerate().map(|(i, o)| (o.at, i, false)).collect();
    events.extend(refunds.iter().enumerate().map(|(i, x)| (x.at, i, true)));
    events.sort_by_key(|e| (e.0, e.2, e.1));
    let mut f = Fixture::new("wp_wc_orders", &COLUMNS.split_whitespace().collect::<Vec<_>>());
    let mut addresses = Child::new("wp_wc_order_addresses", &ADDRESS_COLUMNS.split_whitespace().collect::<Vec<_>>());
    let mut ids = vec![0i64; orders.len()];
    let mut id = 18_240i64;
    for (at, i, is_refund) in events {
        id += 1 + if r.chance(0.15) { r.range(1, 4) } else { 0 };
        let created = V::AtSecs(at);
        if is_refund {
            let x = &refunds[i];
            f.push(&[
                ("id", V::I(id)),
                ("status", V::t("wc-completed")),
                ("currency", V::t("EUR")),
                ("type", V::t("shop_order_refund")),
                ("tax_amount", money(-vat(x.amount))),
                ("total_amount", money(-x.amount)),
                ("date_created_gmt", created.clone()),
                ("date_updated_gmt", created),
                ("parent_order_id", V::I(ids[x.order])),
            ]);
            if x.mark == Mark::Legit {
                f.legit.insert(id.to_string());
            }
            continue;
        }
        ids[i] = id;
        let o = &orders[i];
        let mut st = stages(&mut r, o);
        if let Some((when, status)) = o.after {
            st.retain(|s| s.0 < when);
            st.push((when, status));
        }
        let (mut updated, status) = *st.iter().rev().find(|s| s.0 <= NOW).unwrap();
        if o.touched > updated {
            updated = o.touched;
        }
        let txn = match (o.fate, o.method) {
            (Fate::Paid, 0) => format!("pi_3{}", r.alnum(23)),
            (Fate::Paid, 1) => r.alnum(17).to_uppercase(),
            (_, EBAY) => o.txn.clone(),
            _ => String::new(),
        };
        let goods: i64 = o.items.iter().sum();
        let (method, title) = METHODS[o.method];
        f.push(&[
            ("id", V::I(id)),
            ("status", V::t(status)),
            ("currency", V::t("EUR")),
            ("type", V::t("shop_order")),
            ("tax_amount", money(vat(goods))),
            ("total_amount", money(o.total())),
            ("customer_id", V::I(o.customer)),
            ("billing_email", V::t(&people[o.who].email)),
            ("date_created_gmt", created),
            ("date_updated_gmt", V::AtSecs(updated)),
            ("parent_order_id", V::I(0)),
            ("payment_method", V::t(method)),
            ("payment_method_title", V::t(title)),
            ("transaction_id", V::t(txn)),
            ("ip_address", V::t(&o.ip)),
            ("user_agent", V::t(o.ua)),
            ("customer_note", V::t(o.note)),
        ]);
        for (kind, p) in [("billing", &people[o.who]), ("shipping", &people[o.ship])] {
            let n = addresses.rows.len() as i64 + 1;
            addresses.push(&[
                ("id", V::I(n)),
                ("order_id", V::I(id)),
                ("address_type", V::t(kind)),
                ("first_name", V::t(p.first)),
                ("last_name", V::t(p.last)),
                ("company", V::t("")),
                ("address_1", V::t(&p.street)),
                ("address_2", V::t("")),
                ("city", V::t(p.city.0)),
                ("state", V::t("")),
                ("postcode", V::t(&p.zip)),
                ("country", V::t("DE")),
                ("email", if kind == "billing" { V::t(&p.email) } else { V::Null }),
                ("phone", V::t(&p.phone)),
            ]);
        }
        f.mark(id, o.mark);
    }
    f.children.push(addresses);
    f
}
