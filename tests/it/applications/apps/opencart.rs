//! OpenCart 4.1.0.3 (PHP; MySQL/MariaDB only): `oc_order`, as the one-page checkout's confirm block
//! (`checkout/confirm`, rendered by the checkout page and re-loaded after the payment method is saved or the terms box
//! ticked) writes it through `model/checkout/order.php` `addOrder`/`editOrder`, as the payment extensions move
//! `order_status_id` on with `addHistory`, as the admin's order page creates and edits orders through the in-process
//! catalog API, and as the shop owner works orders afterwards: a small UK coffee roaster's shop (one store, GBP, EUR
//! for EU customers), 45 days to the end of September.
//! Read: opencart/opencart 4.1.0.3 (2c4efa4) upload/system/helper/db_schema.php (the `order` table; 4.0.2.3 had NOT
//! NULLs, 4.1.0.4 adds an `order_status_id` index), upload/install/model/install/install.php (how the installer turns
//! the schema into CREATE TABLE: no NOT NULL unless asked, foreign keys commented out),
//! upload/install/opencart-en-gb.sql (settings: invoice prefix `INV-<year>-00`, statuses, void 16, session expiry
//! 86400, currencies, countries, zones, address format), upload/catalog/model/checkout/order.php (`addOrder`,
//! `editOrder` voiding first, `addHistory`, `editOrderStatusId` not touching `date_modified`),
//! catalog/controller/checkout/confirm.php (add when the session has no order id, edit while its status is 0),
//! checkout/checkout.php, checkout/success.php (unsets the order id), checkout/register.php,
//! checkout/shipping_method.php, checkout/payment_method.php, account/login.php,
//! catalog/view/template/checkout/payment_method.twig and shipping_method.twig (the confirm block re-loaded outside the
//! `chain`), catalog/view/javascript/common.js (`Chain`), system/library/session/db.php (no locking, REPLACE at the end
//! of the request), catalog/controller/startup/session.php, system/helper/general.php (`oc_get_ip`),
//! system/library/db/mysqli.php (session time zone), extension/opencart/catalog/{controller,model}/payment/cod.php and
//! bank_transfer.php, model/shipping/{flat,free,pickup,weight}.php and their en-gb language files;
//! catalog/controller/api/order.php (`confirm`: `order_status_id` defaults to 0), admin/controller/sale/order.php
//! (`call`, `createInvoiceNo`), admin/model/sale/order.php (`createInvoiceNo`, `deleteOrder`),
//! admin/view/template/sale/order_info.twig; the PayPal extension as it sat in the tree (d50cb0a,
//! extension/opencart/catalog/{controller,model}/payment/paypal.php: the option names, its webhook only adding
//! history); issues #2920, #341, #9246, #12800, #14510, #14842, #15118, #15277.
//! On a create (`addOrder`; `date_added` = `date_modified` = NOW() in the connection's zone, UTC here): the session's
//! customer (`customer_id` 0 for a guest, the group, names, email, telephone, `custom_field` "[]"); the payment address
//! block empty (the install leaves `config_checkout_payment_address` off: '' and 0, "[]"); the shipping address from
//! the session (`shipping_address_id` the address book id, 0 for a guest; the country's address format with CRLF), or
//! all empty and `shipping_method` '' for a cart with nothing to ship; `payment_method`/`shipping_method` the chosen
//! option arrays as PHP's `json_encode` writes them (`\u00a3`, the flat rate's cost and tax class as strings, 0.0 for
//! free); `total` in the default currency; affiliate, commission (5% of the subtotal) and tracking from an affiliate's
//! link, `marketing_id` and tracking from a campaign link; language 1/en-gb; the session currency with the day's rate
//! (the currency cron); `ip` from `oc_get_ip()`, `forwarded_ip` '' (no proxy in front), the browser's user agent and
//! Accept-Language; `invoice_no` 0 with the configured prefix, `subscription_id` 0, `transaction_id` NULL (not
//! written), `order_status_id` 0.
//! Later: the payment step's `addHistory` sets the status (PayPal Processing, bank transfer and cash on collection
//! Pending), then the owner's history entries (paid, Shipped, Complete, Cancelled after a week unpaid, a refund); none
//! of them touches `date_modified`. A second render of the confirm block in the same session (a reload, a change of
//! payment method) runs `editOrder`, which voids the order first (16) and sets `date_modified`; an order abandoned
//! after that stays Voided, one abandoned before stays 0 ("Missing Orders"). The owner re-saves an order now and then
//! (`editOrder`), generates invoice numbers (MAX + 1 for the prefix) when shipping some orders and all trade orders,
//! and once deleted the first four pages (newest first) of missing orders more than an hour old: a hard delete.
//! Retries (about 2.5% of the rows): the confirm block loaded twice at once (the payment method saved, then the terms
//! box ticked while the first render, slowed by PayPal's client token call, was still running): both requests read a
//! session without an order id and both add one, 0.1-2.5 s apart; the checkout page reloaded while that render hung
//! (10-60 s later, or a double F5 20-100 ms later; some reloaded again). The session keeps one id, that order is paid
//! or left, the other stays 0. The admin's Confirm on a new phone order hit the proxy's 60 s timeout and was pressed
//! again: two orders, only the second given a status; twice the owner re-entered the whole order 3-10 minutes later
//! instead (hidden: as far apart as an owner entering two orders on purpose). Five in the last day. A payment callback
//! or webhook arriving twice, and a double-clicked Confirm button, only add history to the same order: no rows.
//! Legitimate repeats: a card-testing bot's guest checkouts from one address, a new session and card every 0.3-20 s
//! (nearly all declined and left at 0, the few that passed refunded); the owner's test orders (four, then three, a
//! minute or two apart, cancelled); two gift cards bought one after the other; two weeks' café deliveries entered back
//! to back; the cafés' weekly standing orders; customers buying the same cart again (the reorder button, days or weeks
//! apart, the same browser and IP); a checkout abandoned at PayPal finished in a new session days later on the same
//! device (the session had expired). Plain near-repeats: the same coffee bought by different people, EUR orders whose
//! rate moved, returns on another device or a phone whose address changed, browsers updating mid-window.
//! Guessed: the shop, its catalogue, prices, shipping and payment settings, customers, traffic and rhythms, abandonment
//! and retry rates, the owner's habits, the PayPal status mapping, exchange rates, browsers and addresses.
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, day, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql];

/// The installer's CREATE TABLE for `order` from 4.1.0.3's `db_schema.php` (prefix `oc_`).
const DDL: &str = "CREATE TABLE `oc_order` (
  `order_id` int(11) AUTO_INCREMENT,
  `subscription_id` int(11) DEFAULT '0',
  `invoice_no` int(11) DEFAULT '0',
  `invoice_prefix` varchar(26),
  `transaction_id` varchar(100),
  `store_id` int(11) DEFAULT '0',
  `store_name` varchar(64),
  `store_url` varchar(255),
  `customer_id` int(11) DEFAULT '0',
  `customer_group_id` int(11) DEFAULT '0',
  `firstname` varchar(32),
  `lastname` varchar(32),
  `email` varchar(96),
  `telephone` varchar(32),
  `custom_field` text,
  `payment_address_id` int(11) DEFAULT '0',
  `payment_firstname` varchar(32),
  `payment_lastname` varchar(32),
  `payment_company` varchar(60),
  `payment_address_1` varchar(128),
  `payment_address_2` varchar(128),
  `payment_city` varchar(128),
  `payment_postcode` varchar(10),
  `payment_country` varchar(128),
  `payment_country_id` int(11) DEFAULT '0',
  `payment_zone` varchar(128),
  `payment_zone_id` int(11) DEFAULT '0',
  `payment_address_format` text,
  `payment_custom_field` text,
  `payment_method` text,
  `shipping_address_id` int(11),
  `shipping_firstname` varchar(32),
  `shipping_lastname` varchar(32),
  `shipping_company` varchar(60),
  `shipping_address_1` varchar(128),
  `shipping_address_2` varchar(128),
  `shipping_city` varchar(128),
  `shipping_postcode` varchar(10),
  `shipping_country` varchar(128),
  `shipping_country_id` int(11) DEFAULT '0',
  `shipping_zone` varchar(128),
  `shipping_zone_id` int(11) DEFAULT '0',
  `shipping_address_format` text,
  `shipping_custom_field` text,
  `shipping_method` text,
  `comment` text,
  `total` decimal(15,4) DEFAULT '0.0000',
  `order_status_id` int(11) DEFAULT '0',
  `affiliate_id` int(11) DEFAULT '0',
  `commission` decimal(15,4),
  `marketing_id` int(11) DEFAULT '0',
  `tracking` varchar(64),
  `language_id` int(11),
  `language_code` varchar(5),
  `currency_id` int(11),
  `currency_code` varchar(3),
  `currency_value` decimal(15,8) DEFAULT '1.00000000',
  `ip` varchar(40),
  `forwarded_ip` varchar(40),
  `user_agent` varchar(255),
  `accept_language` varchar(255),
  `date_added` datetime,
  `date_modified` datetime,
  PRIMARY KEY (`order_id`),
  KEY `email` (`email`)
) ENGINE=InnoDB CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC COLLATE=utf8mb4_unicode_ci";

/// The table as a fresh 4.1.0.3 install leaves it.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => DDL.to_string(),
        Engine::Postgres | Engine::Sqlite => unreachable!("OpenCart runs on MySQL/MariaDB only"),
    }
}

const COLUMNS: &str = "order_id subscription_id invoice_no invoice_prefix transaction_id store_id store_name \
    store_url customer_id customer_group_id firstname lastname email telephone custom_field payment_address_id \
    payment_firstname payment_lastname payment_company payment_address_1 payment_address_2 payment_city \
    payment_postcode payment_country payment_country_id payment_zone payment_zone_id payment_address_format \
    payment_custom_field payment_method shipping_address_id shipping_firstname shipping_lastname shipping_company \
    shipping_address_1 shipping_address_2 shipping_city shipping_postcode shipping_country shipping_country_id \
    shipping_zone shipping_zone_id shipping_address_format shipping_custom_field shipping_method comment total \
    order_status_id affiliate_id commission marketing_id tracking language_id language_code currency_id \
    currency_code currency_value ip forwarded_ip user_agent accept_language date_added date_modified";

/// Columns a create mints or later steps change: left out when telling repeats apart.
const MINTED: [&str; 6] =
    ["order_id", "invoice_no", "transaction_id", "order_status_id", "date_added", "date_modified"];

const NOW: i64 = T0;
const DAYS: i64 = 45;
const START: i64 = T0 - DAYS * DAY;
/// Orders numbered before the window; the invoice numbers given before it.
const ID0: i64 = 18_406;
const INV0: i64 = 2_412;
/// The owner deleted "Missing Orders" once (a Monday morning): the first four pages of ten, newest first.
const CLEAN: i64 = START + 14 * DAY + 9 * HOUR + 40 * MINUTE;
const CLEANED: usize = 40;
/// The newsletter's day: a campaign link with tracking.
const PROMO: i64 = 19;
/// The first checkout after each of these rendered its confirm block twice.
const LATE: [i64; 3] = [NOW - 21 * HOUR, NOW - 10 * HOUR, NOW - 3 * HOUR];
/// Checkouts reaching the confirm block per UTC hour (people in the UK on BST), relative.
const RHYTHM: [i64; 24] = [3, 1, 1, 1, 1, 2, 4, 7, 8, 8, 8, 9, 10, 9, 8, 7, 7, 8, 10, 12, 11, 9, 6, 4];

const STORE: &str = "Hilltop Coffee Roasters";
const URL: &str = "https://www.hilltopcoffee.co.uk/";
const PREFIX: &str = "INV-2024-00";
const FORMAT: &str =
    "{firstname} {lastname}\r\n{company}\r\n{address_1}\r\n{address_2}\r\n{city}, {zone} {postcode}\r\n{country}";
/// The coffee blogger's affiliate account and tracking code; the newsletter's marketing campaign.
const AFF_ID: i64 = 1_187;
const AFF_CODE: &str = "q7dK2m9xTv";
const MKT_ID: i64 = 4;
const MKT_CODE: &str = "newsletter-sep";
/// (id, code) in the install's currency order: GBP 1, USD 2, EUR 3.
const CURS: [(i64, &str); 3] = [(1, "GBP"), (3, "EUR"), (2, "USD")];

/// Products: price without tax (in 1/10000 GBP), standard-rated (20% VAT in the UK), grams.
#[rustfmt::skip]
const PRODUCTS: [(i64, bool, i64); 15] = [
    (85_000, false, 250), (270_000, false, 1_000), (105_000, false, 250), (97_500, false, 250),
    (250_000, false, 1_000), (92_500, false, 250), (102_500, false, 250),
    (75_000, true, 300), (41_250, true, 150), (316_250, true, 450), (575_000, true, 600), (100_000, true, 400),
    (275_000, false, 900), (250_000, false, 0), (1_100_000, false, 5_000),
];
const BEAN_W: [i64; 7] = [30, 14, 14, 12, 8, 10, 9];
const GIFT_CARD: usize = 13;
const TRADE_BAG: usize = 14;

#[rustfmt::skip]
const FIRST: &[&str] = &[
    "Oliver", "Amelia", "Harry", "Isla", "Jack", "Ava", "George", "Emily", "Noah", "Sophie", "Charlie", "Grace",
    "Jacob", "Lily", "Thomas", "Chloe", "James", "Ella", "William", "Lucy", "Daniel", "Hannah", "Samuel", "Megan",
    "Joshua", "Holly", "Matthew", "Rachel", "Ben", "Laura", "Tom", "Sarah", "David", "Claire", "Mark", "Helen", "Paul",
    "Emma", "Chris", "Kate", "Priya", "Aisha", "Omar", "Ravi",
];
#[rustfmt::skip]
const LAST: &[&str] = &[
    "Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Robinson", "Wright", "Thompson",
    "Evans", "Walker", "White", "Roberts", "Green", "Hall", "Wood", "Jackson", "Clarke", "Patel", "Khan", "Lewis",
    "Harris", "Martin", "Cooper", "Hughes", "Edwards", "Turner", "Ward", "Morris", "Baker", "Hill", "Moore", "King",
    "Price", "Bennett", "Murphy", "O'Brien", "Kelly", "Shah", "Ali",
];
const STREETS: &[&str] = &[
    "High Street",
    "Station Road",
    "Church Lane",
    "Victoria Road",
    "Mill Lane",
    "Park Avenue",
    "Queens Road",
    "Kingsway",
    "Albert Street",
    "The Crescent",
    "Manor Road",
    "Grove Road",
    "Elm Close",
    "Chapel Street",
    "West Street",
    "Gloucester Road",
    "North View",
    "Cromwell Road",
];
/// UK towns: city, zone, zone id, postcode area.
#[rustfmt::skip]
const UK: [(&str, &str, i64, &str); 19] = [
    ("London", "Greater London", 3_553, "SE"), ("London", "Greater London", 3_553, "N"),
    ("London", "Greater London", 3_553, "E"), ("Manchester", "Greater Manchester", 3_554, "M"),
    ("Birmingham", "West Midlands", 3_606, "B"), ("Leeds", "West Yorkshire", 3_608, "LS"),
    ("Bristol", "Bristol", 3_522, "BS"), ("Bristol", "Bristol", 3_522, "BS"), ("Canterbury", "Kent", 3_562, "CT"),
    ("Chelmsford", "Essex", 3_547, "CM"), ("Winchester", "Hampshire", 3_556, "SO"),
    ("Guildford", "Surrey", 3_598, "GU"), ("Preston", "Lancashire", 3_563, "PR"),
    ("Liverpool", "Merseyside", 3_566, "L"), ("Exeter", "Devon", 3_535, "EX"), ("Norwich", "Norfolk", 3_573, "NR"),
    ("Oxford", "Oxfordshire", 3_581, "OX"), ("Sheffield", "South Yorkshire", 3_594, "S"),
    ("Cardiff", "Cardiff", 3_526, "CF"),
];
/// EU towns: city, country, country id, zone, zone id.
#[rustfmt::skip]
const EU: [(&str, &str, i64, &str, i64); 7] = [
    ("Dublin", "Ireland", 103, "Dublin", 1_591), ("Cork", "Ireland", 103, "Cork", 1_589),
    ("Berlin", "Germany", 81, "Berlin", 1_256), ("München", "Germany", 81, "Bayern", 1_255),
    ("Hamburg", "Germany", 81, "Hamburg", 1_259), ("Amsterdam", "Netherlands", 150, "Noord-Holland", 2_336),
    ("Utrecht", "Netherlands", 150, "Utrecht", 2_338),
];
const IE_NAMES: (&[&str], &[&str]) = (
    &["Aoife", "Cian", "Niamh", "Ciara", "Conor", "Siobhan", "Darragh", "Orla"],
    &["Murphy", "Kelly", "O'Sullivan", "Byrne", "Ryan", "Walsh", "Doyle", "Quinn"],
);
const DE_NAMES: (&[&str], &[&str]) = (
    &["Lukas", "Anna", "Jonas", "Lea", "Felix", "Marie", "Paul", "Sophie"],
    &["Müller", "Schmidt", "Fischer", "Weber", "Wagner", "Becker", "Schäfer", "Koch"],
);
const NL_NAMES: (&[&str], &[&str]) = (
    &["Daan", "Sanne", "Bram", "Lotte", "Sem", "Fleur", "Jesse", "Noor"],
    &["de Vries", "Jansen", "van Dijk", "Bakker", "Visser", "Smit", "de Boer", "Mulder"],
);
const IE_STREETS: &[&str] = &["Ranelagh Road", "Main Street", "Griffith Avenue", "Patrick Street", "Douglas Road"];
const DE_STREETS: &[&str] = &["Schönhauser Allee", "Hauptstraße", "Bergmannstraße", "Leopoldstraße", "Osterstraße"];
const NL_STREETS: &[&str] = &["Prinsengracht", "Oudegracht", "Javastraat", "Vondelstraat", "Twijnstraat"];
const UK_MAIL: &[&str] = &[
    "gmail.com",
    "gmail.com",
    "gmail.com",
    "hotmail.co.uk",
    "outlook.com",
    "yahoo.co.uk",
    "icloud.com",
    "btinternet.com",
    "sky.com",
    "live.co.uk",
    "googlemail.com",
];
const EU_MAIL: &[&str] = &["gmail.com", "gmail.com", "web.de", "gmx.de", "eircom.net", "ziggo.nl", "outlook.com"];
const COMMENTS: &[&str] = &[
    "Please leave in the porch if no answer.",
    "Ground for cafetière please",
    "Could you grind it for espresso?",
    "Safe place: behind the green bin",
    "It's a gift - please don't include the receipt",
    "Whole beans please",
    "Deliver to the side door",
    "Ground for V60 please",
    "Please leave with neighbour at number 12",
];
/// Home broadband and mobile (CGNAT) address blocks.
const UK_HOME: &[&str] = &["86.", "81.", "92.", "109.", "90.", "2.", "31.", "151.", "88.", "94."];
const UK_MOBILE: &[&str] = &["31.94.", "85.255.", "92.40.", "82.132.", "148.252."];
const EU_HOME: &[&str] = &["89.101.", "86.40.", "87.123.", "91.64.", "93.206.", "84.26.", "77.160."];
const EU_MOBILE: &[&str] = &["37.228.", "80.187.", "176.2.", "62.140."];
const V6: &[&str] = &["2a00:23c7", "2a00:23c5", "2a02:c7c", "2a01:4b00"];
/// Accept-Language headers by browser family: desktop UK, Safari UK, Ireland, Germany, Netherlands.
const LANGS: [&str; 5] = [
    "en-GB,en-US;q=0.9,en;q=0.8",
    "en-GB,en;q=0.9",
    "en-IE,en-GB;q=0.9,en;q=0.8",
    "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7",
    "nl-NL,nl;q=0.9,en-US;q=0.8,en;q=0.7",
];
/// The trade accounts: café, contact, town (an index of `UK`), email.
const CAFES: [(&str, &str, &str, usize, &str); 3] = [
    ("Bean & Leaf Café", "Maya", "Osei", 6, "hello@beanandleaf.co.uk"),
    ("The Daily Grind", "Rob", "Fletcher", 5, "orders@thedailygrindleeds.co.uk"),
    ("Harbourside Coffee Co.", "Jess", "Tremayne", 14, "jess@harbourside-coffee.co.uk"),
];

#[derive(Clone, Copy, PartialEq)]
enum Method {
    PayPal,
    Bank,
    Cod,
}

#[derive(Clone, Copy, PartialEq)]
enum Ship {
    Flat,
    Free,
    Pickup,
    Weight,
    None,
}

#[derive(Clone, Copy, PartialEq)]
enum Track {
    None,
    Aff,
    Mkt,
}

#[derive(Clone)]
struct Addr {
    id: i64,
    first: String,
    last: String,
    company: String,
    a1: String,
    a2: String,
    city: &'static str,
    post: String,
    country: &'static str,
    country_id: i64,
    zone: &'static str,
    zone_id: i64,
    eu: bool,
}

#[derive(Clone)]
enum Net {
    Home(String),
    Six(String),
    Mobile(&'static [&'static str]),
}

/// A browser: user agent family, Accept-Language, network, how many days it lags behind a browser release.
#[derive(Clone)]
struct Dev {
    ua: usize,
    lang: &'static str,
    net: Net,
    lag: i64,
    seed: u64,
}

fn mix(a: u64, b: i64) -> u64 {
    Rng::new(a.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ (b as u64)).next()
}

impl Dev {
    /// The address a request comes from: the home line's, the home IPv6 prefix with the day's privacy address, or the
    /// mobile carrier's NAT address of the hour.
    fn ip(&self, t: i64) -> String {
        match &self.net {
            Net::Home(ip) => ip.clone(),
            Net::Six(prefix) => {
                let h = mix(self.seed, t.div_euclid(DAY));
                format!("{prefix}:{:x}:{:x}:{:x}:{:x}", h & 0xffff, (h >> 16) & 0xffff, (h >> 32) & 0xffff, h >> 48)
            }
            Net::Mobile(blocks) => {
                let h = mix(self.seed, t.div_euclid(3 * HOUR));
                let block = blocks[(h % blocks.len() as u64) as usize];
                format!("{block}{}.{}", (h >> 8) % 256, (h >> 16) % 254 + 1)
            }
        }
    }

    fn agent(&self, t: i64) -> String {
        let chrome = if t > START + 24 * DAY + self.lag * DAY { 149 } else { 148 };
        let firefox = if t > START + 12 * DAY + self.lag * DAY { 155 } else { 154 };
        let safari = if t > START + 31 * DAY + self.lag * DAY { "27.0" } else { "26.6" };
        match self.ua {
            0 => format!(
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{chrome}.0.0.0 Safari/537.36"
            ),
            1 => format!(
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/{safari} Safari/605.1.15"
            ),
            2 => format!(
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/{safari} Mobile/15E148 Safari/604.1"
            ),
            3 => format!(
                "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{chrome}.0.0.0 Mobile Safari/537.36"
            ),
            4 => {
                format!("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:{firefox}.0) Gecko/20100101 Firefox/{firefox}.0")
            }
            5 => format!(
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{chrome}.0.0.0 Safari/537.36 Edg/{chrome}.0.0.0"
            ),
            6 => format!(
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{chrome}.0.0.0 Safari/537.36"
            ),
            _ => format!(
                "Mozilla/5.0 (iPad; CPU OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/{safari} Mobile/15E148 Safari/604.1"
            ),
        }
    }
}

/// What a checkout buys and how: the cart, the shipping and payment options, the session currency, the comment.
#[derive(Clone)]
struct Choice {
    cart: Vec<(usize, i64)>,
    ship: Ship,
    pay: Method,
    cur: usize,
    comment: String,
}

#[derive(Clone)]
struct Person {
    cid: i64,
    group: i64,
    first: String,
    last: String,
    email: String,
    tel: String,
    addr: Addr,
    devs: Vec<Dev>,
    cur: usize,
    last_buy: Option<Choice>,
    last_at: i64,
}

/// One row: what the create wrote, and what happened to it.
#[derive(Clone, Default)]
struct Order {
    at: i64,
    grp: usize,
    hidden: bool,
    cid: i64,
    cgroup: i64,
    first: String,
    last: String,
    email: String,
    tel: String,
    ship: Option<Addr>,
    ship_json: String,
    pay_json: String,
    comment: String,
    total: i64,
    aff: i64,
    commission: f64,
    mkt: i64,
    tracking: String,
    cur: usize,
    rate: String,
    ip: String,
    ua: String,
    lang: String,
    /// Status changes (time, status), in order.
    evs: Vec<(i64, i64)>,
    /// Saves through `editOrder`.
    mods: Vec<i64>,
    invoice: Option<i64>,
}

impl Order {
    fn status(&self, at: i64) -> i64 {
        self.evs.iter().filter(|e| e.0 <= at).max_by_key(|e| e.0).map_or(0, |e| e.1)
    }
}

struct World {
    /// Per day: (rate, as stored) for GBP, EUR, USD.
    rates: Vec<[(f64, String); 3]>,
    people: Vec<Person>,
    guests: Vec<Person>,
    owner: Person,
    cafes: Vec<(Person, Choice)>,
    next_cid: i64,
    next_aid: i64,
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

fn dec4(v: i64) -> String {
    format!("{}.{:04}", v / 10_000, v % 10_000)
}

fn money(v: i64, cur: usize, rate: f64) -> String {
    let s = format!("{:.2}", v as f64 / 10_000.0 * rate);
    match cur {
        0 => format!("\\u00a3{s}"),
        1 => format!("{s}\\u20ac"),
        _ => format!("${s}"),
    }
}

fn pay_json(p: Method) -> String {
    let (code, name) = match p {
        Method::PayPal => ("paypal.paypal", "PayPal (Pay with PayPal, Card)"),
        Method::Bank => ("bank_transfer.bank_transfer", "Bank Transfer"),
        Method::Cod => ("cod.cod", "Cash On Delivery"),
    };
    format!(r#"{{"code":"{code}","name":"{name}"}}"#)
}

fn letters(r: &mut Rng, n: usize) -> String {
    (0..n).map(|_| (b'A' + r.below(26) as u8) as char).collect()
}

fn ascii(s: &str) -> String {
    s.to_lowercase()
        .replace('ü', "ue")
        .replace('ä', "ae")
        .replace('ö', "oe")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect()
}

/// A time of day for a checkout, by the hourly rhythm.
fn when(r: &mut Rng, d0: i64) -> i64 {
    d0 + r.weighted(&RHYTHM) as i64 * HOUR + r.below(HOUR as u64) as i64
}

/// The next moment the owner is at the desk (weekdays 08:00-17:00 UTC).
fn office(t: i64, r: &mut Rng) -> i64 {
    let h = (t - day(t)) / HOUR;
    if weekday(t) < 5 && (8..17).contains(&h) {
        return t;
    }
    let mut d = if h >= 17 { day(t) + DAY } else { day(t) };
    while weekday(d) >= 5 {
        d += DAY;
    }
    d + 8 * HOUR + r.range(0, 8 * 3_600) * SECOND + micros(r)
}

fn device(r: &mut Rng, eu: Option<usize>, mobile: bool) -> Dev {
    let ua = if mobile { r.one(&[2, 2, 2, 3, 3, 7]) } else { r.one(&[0, 0, 0, 1, 1, 4, 5, 6]) };
    let lang = match eu {
        Some(k) if k < 2 => LANGS[2],
        Some(k) if k < 5 => LANGS[3],
        Some(_) => LANGS[4],
        None if matches!(ua, 1 | 2 | 7) => LANGS[1],
        None => LANGS[0],
    };
    let net = if mobile {
        Net::Mobile(if eu.is_some() { EU_MOBILE } else { UK_MOBILE })
    } else if eu.is_none() && r.chance(0.3) {
        Net::Six(format!("{}:{:x}:{:x}", r.pick(V6), r.range(0x1000, 0xffff), r.range(0x100, 0xfff) * 16))
    } else {
        let block = r.pick(if eu.is_some() { EU_HOME } else { UK_HOME });
        let n = block.matches('.').count();
        let rest: Vec<String> = (0..4 - n).map(|_| r.range(1, 254).to_string()).collect();
        Net::Home(format!("{block}{}", rest.join(".")))
    };
    Dev { ua, lang, net, lag: r.range(0, 12), seed: r.next() }
}

fn new_person(r: &mut Rng, w: &mut World, registered: bool) -> Person {
    let eu = r.chance(0.07).then(|| r.below(EU.len() as u64) as usize);
    let (first, last) = match eu {
        Some(k) if k < 2 => (r.pick(IE_NAMES.0).to_string(), r.pick(IE_NAMES.1).to_string()),
        Some(k) if k < 5 => (r.pick(DE_NAMES.0).to_string(), r.pick(DE_NAMES.1).to_string()),
        Some(_) => (r.pick(NL_NAMES.0).to_string(), r.pick(NL_NAMES.1).to_string()),
        None => (r.pick(FIRST).to_string(), r.pick(LAST).to_string()),
    };
    let (f, l) = (ascii(&first), ascii(&last));
    let user = match r.below(4) {
        0 => format!("{f}.{l}"),
        1 => format!("{f}{l}{}", r.range(1, 99)),
        2 => format!("{}{l}", &f[..1]),
        _ => format!("{f}.{l}{}", r.range(70, 99)),
    };
    let email = format!("{user}@{}", r.pick(if eu.is_some() { EU_MAIL } else { UK_MAIL }));
    let tel = if r.chance(0.12) {
        String::new()
    } else {
        match eu {
            Some(k) if k < 2 => format!("+353 8{} {} {}", r.range(3, 9), r.range(100, 999), r.range(1_000, 9_999)),
            Some(k) if k < 5 => format!("+49 15{} {}", r.range(1, 9), r.range(1_000_000, 9_999_999)),
            Some(_) => format!("+31 6 {}", r.range(10_000_000, 99_999_999)),
            None => format!("07{} {}", r.range(100, 999), r.range(100_000, 999_999)),
        }
    };
    let addr = match eu {
        Some(k) => {
            let (city, country, country_id, zone, zone_id) = EU[k];
            let (a1, post) = match k {
                0 => (
                    format!("{} {}", r.range(1, 90), r.pick(IE_STREETS)),
                    format!("D0{} {}", r.range(2, 8), r.alnum(4).to_uppercase()),
                ),
                1 => {
                    (format!("{} {}", r.range(1, 90), r.pick(IE_STREETS)), format!("T12 {}", r.alnum(4).to_uppercase()))
                }
                2 => (format!("{} {}", r.pick(DE_STREETS), r.range(1, 140)), format!("10{}", r.range(115, 999))),
                3 => (format!("{} {}", r.pick(DE_STREETS), r.range(1, 140)), format!("80{}", r.range(331, 999))),
                4 => (format!("{} {}", r.pick(DE_STREETS), r.range(1, 140)), format!("20{}", r.range(95, 999))),
                5 => (
                    format!("{} {}", r.pick(NL_STREETS), r.range(1, 300)),
                    format!("10{} {}", r.range(11, 99), letters(r, 2)),
                ),
                _ => (
                    format!("{} {}", r.pick(NL_STREETS), r.range(1, 300)),
                    format!("35{} {}", r.range(11, 85), letters(r, 2)),
                ),
            };
            let a2 = String::new();
            Addr {
                id: 0,
                first: first.clone(),
                last: last.clone(),
                company: String::new(),
                a1,
                a2,
                city,
                post,
                country,
                country_id,
                zone,
                zone_id,
                eu: true,
            }
        }
        None => {
            let (city, zone, zone_id, area) = UK[r.below(UK.len() as u64) as usize];
            const L: &[u8] = b"ABDEFGHJLNPQRSTUWXYZ";
            let post = format!(
                "{area}{} {}{}{}",
                r.range(1, 20),
                r.range(1, 9),
                L[r.below(L.len() as u64) as usize] as char,
                L[r.below(L.len() as u64) as usize] as char
            );
            let a1 = format!("{} {}", r.range(1, 180), r.pick(STREETS));
            let a2 = if r.chance(0.15) { format!("Flat {}", r.range(1, 24)) } else { String::new() };
            Addr {
                id: 0,
                first: first.clone(),
                last: last.clone(),
                company: String::new(),
                a1,
                a2,
                city,
                post,
                country: "United Kingdom",
                country_id: 222,
                zone,
                zone_id,
                eu: false,
            }
        }
    };
    let mobile = r.chance(0.55);
    let mut devs = vec![device(r, eu, mobile)];
    if r.chance(0.45) {
        let mobile = !matches!(devs[0].net, Net::Mobile(_));
        devs.push(device(r, eu, mobile));
    }
    let cur = if eu.is_some() && r.chance(0.7) { 1 } else { 0 };
    let mut p = Person { cid: 0, group: 1, first, last, email, tel, addr, devs, cur, last_buy: None, last_at: 0 };
    if registered {
        p.cid = w.next_cid;
        p.addr.id = w.next_aid;
        w.next_cid += 1 + i64::from(r.chance(0.08));
        w.next_aid += 1 + i64::from(r.chance(0.2));
        // Some ship to someone else from the address book.
        if r.chance(0.06) {
            p.addr.first = r.pick(FIRST).to_string();
        }
    }
    p
}

fn world(r: &mut Rng) -> World {
    let (mut eur, mut usd) = (1.1572, 1.3418);
    let rates = (0..=DAYS)
        .map(|_| {
            eur += (r.unit() - 0.5) * 0.006;
            usd += (r.unit() - 0.5) * 0.009;
            let (e, u) = (eur + r.unit() * 1e-6, usd + r.unit() * 1e-6);
            [(1.0, "1.00000000".to_string()), (e, format!("{e:.8}")), (u, format!("{u:.8}"))]
        })
        .collect();
    let owner_dev = Dev { ua: 6, lang: LANGS[0], net: Net::Home("81.149.77.204".to_string()), lag: 1, seed: r.next() };
    let owner = Person {
        cid: 0,
        group: 1,
        first: "Emma".to_string(),
        last: "Clarke".to_string(),
        email: "emma@hilltopcoffee.co.uk".to_string(),
        tel: "0117 496 0831".to_string(),
        addr: Addr {
            id: 0,
            first: "Emma".to_string(),
            last: "Clarke".to_string(),
            company: "Hilltop Coffee Roasters".to_string(),
            a1: "Unit 4, Marsh Lane Trading Estate".to_string(),
            a2: String::new(),
            city: "Bristol",
            post: "BS2 0QD".to_string(),
            country: "United Kingdom",
            country_id: 222,
            zone: "Bristol",
            zone_id: 3_522,
            eu: false,
        },
        devs: vec![owner_dev],
        cur: 0,
        last_buy: None,
        last_at: 0,
    };
    let mut w =
        World { rates, people: Vec::new(), guests: Vec::new(), owner, cafes: Vec::new(), next_cid: 1, next_aid: 1 };
    // Customers with accounts from before the window, numbered among those who have left.
    for _ in 0..650 {
        w.next_cid += r.range(0, 10);
        w.next_aid += r.range(0, 12);
        let p = new_person(r, &mut w, true);
        w.people.push(p);
    }
    for (i, &(company, first, last, k, email)) in CAFES.iter().enumerate() {
        let mut p = new_person(r, &mut w, true);
        let (city, zone, zone_id, area) = UK[k];
        p.group = 2;
        (p.first, p.last) = (first.to_string(), last.to_string());
        p.email = email.to_string();
        p.tel = format!("0{} {} {}", r.range(113, 199), r.range(100, 999), r.range(1_000, 9_999));
        p.addr = Addr {
            first: first.to_string(),
            last: last.to_string(),
            company: company.to_string(),
            a1: format!("{} {}", r.range(2, 90), r.pick(STREETS)),
            a2: String::new(),
            city,
            post: format!("{area}{} {}{}{}", r.range(1, 12), r.range(1, 9), ['A', 'D', 'H'][i], ['B', 'N', 'W'][i]),
            country: "United Kingdom",
            country_id: 222,
            zone,
            zone_id,
            eu: false,
            ..p.addr
        };
        (p.cur, p.devs) = (0, vec![device(r, None, false)]);
        let cart = vec![(TRADE_BAG, r.range(2, 4)), (1, r.range(1, 3))];
        let c = Choice { cart, ship: Ship::Free, pay: Method::Bank, cur: 0, comment: String::new() };
        w.cafes.push((p, c));
    }
    w
}

fn cart(r: &mut Rng) -> Vec<(usize, i64)> {
    if r.chance(0.025) {
        return vec![(GIFT_CARD, 1)];
    }
    let mut c: Vec<(usize, i64)> = Vec::new();
    for _ in 0..1 + r.weighted(&[55, 30, 15]) {
        let k = r.weighted(&BEAN_W);
        if !c.iter().any(|&(j, _)| j == k) {
            c.push((k, if r.chance(0.2) { 2 } else { 1 }));
        }
    }
    if r.chance(0.15) {
        c.push((7 + r.below(5) as usize, 1));
    }
    if r.chance(0.04) {
        c.push((12, 1));
    }
    c
}

fn choose(r: &mut Rng, p: &Person) -> Choice {
    let cart = cart(r);
    let ships = cart.iter().any(|&(k, _)| k != GIFT_CARD);
    let sub: i64 = cart.iter().map(|&(k, q)| PRODUCTS[k].0 * q).sum();
    let ship = if !ships {
        Ship::None
    } else if p.addr.eu {
        Ship::Weight
    } else if p.addr.city == "Bristol" && r.chance(0.3) {
        Ship::Pickup
    } else if sub >= 400_000 && r.chance(0.95) {
        Ship::Free
    } else {
        Ship::Flat
    };
    let pay = if ship == Ship::Pickup && r.chance(0.6) {
        Method::Cod
    } else if p.addr.eu || r.chance(0.78) {
        Method::PayPal
    } else {
        Method::Bank
    };
    let comment = if ship != Ship::None && r.chance(0.1) { r.pick(COMMENTS).to_string() } else { String::new() };
    Choice { cart, ship, pay, cur: p.cur, comment }
}

/// What `addOrder` writes for this session.
fn content(w: &World, p: &Person, c: &Choice, t: i64, dev: &Dev, track: Track) -> Order {
    let di = (t - START).div_euclid(DAY).clamp(0, DAYS) as usize;
    let (rate, rate_s) = &w.rates[di][c.cur];
    let a = &p.addr;
    let (mut sub, mut tax, mut grams) = (0, 0, 0);
    for &(k, q) in &c.cart {
        let (price, vat, g) = PRODUCTS[k];
        sub += price * q;
        if vat && !a.eu {
            tax += price * q / 5;
        }
        grams += g * q;
    }
    let free = |code: &str, name: &str| {
        format!(
            r#"{{"code":"{code}","name":"{name}","cost":0.0,"tax_class_id":0,"text":"{}"}}"#,
            money(0, c.cur, *rate)
        )
    };
    let (cost, ship_json) = match c.ship {
        Ship::Flat => (
            47_400,
            format!(
                r#"{{"code":"flat.flat","name":"Flat Shipping Rate","cost":"3.95","tax_class_id":"9","text":"{}"}}"#,
                money(47_400, c.cur, *rate)
            ),
        ),
        Ship::Free => (0, free("free.free", "Free Shipping")),
        Ship::Pickup => (0, free("pickup.pickup", "Pickup From Store")),
        Ship::Weight => {
            let (cost, s) = if grams <= 1_000 {
                (95_000, "9.50")
            } else if grams <= 2_000 {
                (125_000, "12.50")
            } else if grams <= 5_000 {
                (180_000, "18.00")
            } else {
                (260_000, "26.00")
            };
            let kg = grams as f64 / 1_000.0;
            let text = money(cost, c.cur, *rate);
            let json = format!(
                r#"{{"code":"weight.weight_5","name":"EU Zone (Weight: {kg:.2}kg)","cost":"{s}","tax_class_id":"0","text":"{text}"}}"#
            );
            (cost, json)
        }
        Ship::None => (0, String::new()),
    };
    let (aff, commission, mkt, tracking) = match track {
        Track::None => (0, 0.0, 0, String::new()),
        Track::Aff => (AFF_ID, sub as f64 / 10_000.0 / 100.0 * 5.0, 0, AFF_CODE.to_string()),
        Track::Mkt => (0, 0.0, MKT_ID, MKT_CODE.to_string()),
    };
    Order {
        at: t,
        cid: p.cid,
        cgroup: p.group,
        first: p.first.clone(),
        last: p.last.clone(),
        email: p.email.clone(),
        tel: p.tel.clone(),
        ship: (c.ship != Ship::None).then(|| a.clone()),
        ship_json,
        pay_json: pay_json(c.pay),
        comment: c.comment.clone(),
        total: sub + tax + cost,
        aff,
        commission,
        mkt,
        tracking,
        cur: c.cur,
        rate: rate_s.clone(),
        ip: dev.ip(t),
        ua: dev.agent(t),
        lang: dev.lang.to_string(),
        ..Order::default()
    }
}

/// After the payment step: the owner's history entries, invoice numbers and re-saves.
fn lifecycle(r: &mut Rng, x: &mut Order, pay: Method, ship: Ship, tc: i64, first: i64, invoice: f64) {
    x.evs.push((tc, first));
    let mut t = tc;
    if first == 1 && pay == Method::Bank {
        if r.chance(0.12) {
            x.evs.push((tc + r.range(7 * 86_400, 9 * 86_400) * SECOND, 7));
            return;
        }
        t = office(tc + r.range(8 * 3_600, 60 * 3_600) * SECOND, r);
        x.evs.push((t, 2));
    }
    if matches!(ship, Ship::Pickup | Ship::None) {
        t = office(t + r.range(3_600, 4 * 86_400) * SECOND, r);
        x.evs.push((t, 5));
        return;
    }
    if r.chance(0.03) {
        // Re-saved from the admin's order page (a coffee swapped for one at the same price).
        x.mods.push(office(t + r.range(1_800, 20 * 3_600) * SECOND, r));
    }
    t = office(t + r.range(2 * 3_600, 30 * 3_600) * SECOND, r);
    x.evs.push((t, 3));
    if r.chance(invoice) {
        x.invoice = Some(t - r.range(60, 900) * SECOND);
    }
    if r.chance(0.01) {
        x.evs.push((t + r.range(3, 12) * DAY, 11));
        return;
    }
    if r.chance(0.4) {
        let done = office(t + r.range(5, 12) * DAY, r);
        x.evs.push((done, 5));
    }
}

/// A checkout reaching the confirm block: kind 0 once, 1 two renders at once, 2 a reload while the render hung.
/// Returns whether the customer left at the payment step.
#[allow(clippy::too_many_arguments)]
fn place(
    r: &mut Rng,
    w: &World,
    v: &mut Vec<Order>,
    g: &mut usize,
    p: &Person,
    dev: usize,
    c: &Choice,
    t: i64,
    kind: u8,
    may_abandon: bool,
    track: Track,
) -> bool {
    let base = content(w, p, c, t, &p.devs[dev], track);
    *g += 1;
    let grp = *g;
    let p_abandon = match c.pay {
        Method::PayPal => 0.24,
        Method::Bank => 0.1,
        Method::Cod => 0.06,
    };
    let abandon = may_abandon && r.chance(p_abandon);
    let mut times = vec![t];
    match kind {
        1 => times.push(t + r.range(80_000, 2_500_000)),
        2 => {
            let t2 = t + client_retry_delay(r);
            times.push(t2);
            if r.chance(0.25) {
                times.push(t2 + r.range(20, 120) * SECOND + micros(r));
            }
        }
        _ => {}
    }
    let n = times.len();
    // The session keeps the id of the request that wrote it last.
    let keep = match kind {
        1 => r.below(2) as usize,
        2 if r.chance(0.7) => n - 1,
        _ => 0,
    };
    let tl = times[n - 1];
    let edit = r.chance(0.13).then(|| tl + r.range(8, 240) * SECOND + micros(r));
    let mut pay = c.pay;
    let switch = edit.is_some() && kind == 0 && pay != Method::Cod && r.chance(0.35);
    if switch {
        pay = if pay == Method::PayPal { Method::Bank } else { Method::PayPal };
    }
    for (i, &at) in times.iter().enumerate() {
        let mut x = base.clone();
        (x.at, x.grp) = (at, grp);
        if i == keep {
            if let Some(te) = edit {
                x.evs.push((te, 16));
                x.mods.push(te);
                if switch {
                    x.pay_json = pay_json(pay);
                }
            }
            if !abandon {
                let tc = edit.unwrap_or(tl) + r.range(15, 300) * SECOND + micros(r);
                let first = if pay == Method::PayPal { 2 } else { 1 };
                lifecycle(r, &mut x, pay, c.ship, tc, first, 0.3);
            }
        }
        v.push(x);
    }
    abandon
}

/// A visitor's checkout: a customer with an account, a new registration, a returning guest or a new guest.
fn session(r: &mut Rng, w: &mut World, v: &mut Vec<Order>, g: &mut usize, t: i64, kind: u8, track: Track) {
    let x = r.below(100);
    let (p, idx, guest) = if x < 40 {
        let i = r.skewed(w.people.len() as u64) as usize;
        (w.people[i].clone(), Some(i), None)
    } else if x < 60 {
        let p = new_person(r, w, true);
        w.people.push(p.clone());
        (p, Some(w.people.len() - 1), None)
    } else if x < 67 && !w.guests.is_empty() {
        let i = r.skewed(w.guests.len() as u64) as usize;
        (w.guests[i].clone(), None, Some(i))
    } else {
        let p = new_person(r, w, false);
        w.guests.push(p.clone());
        (p, None, Some(w.guests.len() - 1))
    };
    let dev = r.below(p.devs.len() as u64) as usize;
    // The reorder button on an earlier order (or the same coffee picked again).
    let c = match &p.last_buy {
        Some(c) if t - p.last_at > 3 * DAY && r.chance(0.4) => c.clone(),
        _ => choose(r, &p),
    };
    let abandoned = place(r, w, v, g, &p, dev, &c, t, kind, true, track);
    if let Some(i) = idx {
        (w.people[i].last_buy, w.people[i].last_at) = (Some(c.clone()), t);
    }
    if let Some(i) = guest {
        (w.guests[i].last_buy, w.guests[i].last_at) = (Some(c.clone()), t);
    }
    if abandoned && kind == 0 && c.pay == Method::PayPal && r.chance(0.35) {
        // Back in a new session: on another device minutes later, or on the same one once the session has expired.
        let (dev2, t2) = if p.devs.len() > 1 && r.chance(0.45) {
            (1 - dev, t + r.range(180, 2_400) * SECOND + micros(r))
        } else {
            (dev, t + r.range(26 * 3_600, 96 * 3_600) * SECOND + micros(r))
        };
        place(r, w, v, g, &p, dev2, &c, t2, 0, false, track);
    }
}

/// An order entered on the admin's order page (the owner's browser and IP): Confirm leaves it at 0 (the API's
/// `order_status_id` default), then the owner adds a history entry. Kind 3: Confirm timed out and was pressed again;
/// 4: the whole order entered again minutes later; 5: two deliveries entered back to back on purpose.
#[allow(clippy::too_many_arguments)]
fn admin(r: &mut Rng, w: &World, v: &mut Vec<Order>, g: &mut usize, p: &Person, c: &Choice, t: i64, kind: u8) {
    let owner = &w.owner.devs[0];
    let base = content(w, p, c, t, owner, Track::None);
    let invoice = if p.group == 2 { 1.0 } else { 0.3 };
    *g += 1;
    let mut first = base.clone();
    (first.at, first.grp) = (t, *g);
    match kind {
        3 | 4 => {
            let d = if kind == 3 { r.range(61, 75) } else { r.range(180, 600) };
            let mut second = base.clone();
            (second.at, second.grp, second.hidden) = (t + d * SECOND + micros(r), *g, kind == 4);
            let th = second.at + r.range(20, 120) * SECOND;
            lifecycle(r, &mut second, c.pay, c.ship, th, 2, invoice);
            v.push(first);
            v.push(second);
        }
        5 => {
            let th = t + r.range(20, 40) * SECOND;
            lifecycle(r, &mut first, c.pay, c.ship, th, 2, invoice);
            *g += 1;
            let mut second = base.clone();
            (second.at, second.grp) = (th + r.range(30, 110) * SECOND + micros(r), *g);
            let th2 = second.at + r.range(20, 90) * SECOND;
            lifecycle(r, &mut second, c.pay, c.ship, th2, 2, invoice);
            v.push(first);
            v.push(second);
        }
        _ => {
            // Now and then the history entry is forgotten and the order sits among the missing ones.
            if !r.chance(0.04) {
                let th = t + r.range(20, 120) * SECOND;
                lifecycle(r, &mut first, c.pay, c.ship, th, 2, invoice);
            }
            v.push(first);
        }
    }
}

/// The owner's test orders through the shop's own checkout, as a guest, then cancelled.
fn tests(r: &mut Rng, w: &World, v: &mut Vec<Order>, g: &mut usize, t0: i64, n: usize, pay: Method) {
    let p = &w.owner;
    let c = Choice { cart: vec![(0, 1)], ship: Ship::Flat, pay, cur: 0, comment: String::new() };
    let cancel = t0 + r.range(35, 90) * MINUTE;
    let mut t = t0;
    for _ in 0..n {
        let mut x = content(w, p, &c, t, &p.devs[0], Track::None);
        *g += 1;
        x.grp = *g;
        x.evs.push((t + r.range(15, 60) * SECOND, if pay == Method::PayPal { 2 } else { 1 }));
        x.evs.push((cancel + r.range(5, 60) * SECOND, 7));
        v.push(x);
        t += r.range(40, 200) * SECOND + micros(r);
    }
}

/// A card-testing bot: guest checkouts from one address, a new session (and a new card) each time, the cheapest
/// product; PayPal's card fields decline nearly all, the order stays at 0; the few that pass are refunded.
#[allow(clippy::too_many_arguments)]
fn bots(r: &mut Rng, w: &World, v: &mut Vec<Order>, g: &mut usize, p: &Person, t0: i64, n: usize, gap: (i64, i64)) {
    let c = Choice { cart: vec![(8, 1)], ship: Ship::Flat, pay: Method::PayPal, cur: 0, comment: String::new() };
    let mut t = t0;
    for _ in 0..n {
        let mut x = content(w, p, &c, t, &p.devs[0], Track::None);
        *g += 1;
        x.grp = *g;
        if r.chance(0.15) {
            let tc = t + r.range(4, 12) * SECOND + micros(r);
            x.evs.push((tc, 2));
            x.evs.push((office(tc + 5 * HOUR, r), 11));
        }
        v.push(x);
        t += r.range(gap.0, gap.1);
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x0C_4103);
    let mut w = world(&mut r);
    let mut v: Vec<Order> = Vec::new();
    let mut g = 0_usize;
    let mut late = 0;
    let mut flip = 0;
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let wk = weekday(d0);
        let base = (if wk >= 5 { 34 } else { 44 }) + r.range(-7, 7);
        let n = if d == PROMO { base * 17 / 10 } else { base };
        let mut ts: Vec<i64> = (0..n).map(|_| when(&mut r, d0)).collect();
        ts.sort_unstable();
        for t in ts {
            if t >= NOW - MINUTE {
                continue;
            }
            let forced = late < LATE.len() && t > LATE[late];
            let kind = if forced {
                late += 1;
                if late == 2 { 2 } else { 1 }
            } else {
                match r.below(1_000) {
                    0..16 => 1,
                    16..24 => 2,
                    _ => 0,
                }
            };
            let track = if d == PROMO && t > d0 + 9 * HOUR && r.chance(0.4) {
                Track::Mkt
            } else if r.chance(0.035) {
                Track::Aff
            } else {
                Track::None
            };
            session(&mut r, &mut w, &mut v, &mut g, t, kind, track);
        }
        if wk < 5 {
            // Monday's standing orders from the cafés, typed in from their emails; twice two weeks' at once.
            if wk == 0 {
                let mut t = d0 + 8 * HOUR + r.range(20, 100) * MINUTE;
                for (k, (p, c)) in w.cafes.clone().into_iter().enumerate() {
                    let kind = if (d == 14 && k == 1) || (d == 35 && k == 0) { 5 } else { 0 };
                    admin(&mut r, &w, &mut v, &mut g, &p, &c, t, kind);
                    t += r.range(4, 25) * MINUTE + micros(&mut r);
                }
            }
            // Phone orders from customers with accounts.
            if r.chance(0.3) || [18, 22, 27, 36, 39].contains(&d) {
                let t = office(d0 + 9 * HOUR + r.range(0, 7 * 3_600) * SECOND, &mut r);
                let i = r.skewed(w.people.len() as u64) as usize;
                let p = w.people[i].clone();
                let mut c = choose(&mut r, &p);
                c.pay = Method::Bank;
                let kind = match d {
                    18 | 27 | 39 => 3,
                    22 | 36 => 4,
                    _ => 0,
                };
                admin(&mut r, &w, &mut v, &mut g, &p, &c, t, kind);
            }
        }
        // Two gift cards, one after the other, for two people.
        if [9, 24, 41].contains(&d) {
            let t = when(&mut r, d0);
            let i = r.skewed(w.people.len() as u64) as usize;
            let p = w.people[i].clone();
            let c = Choice {
                cart: vec![(GIFT_CARD, 1)],
                ship: Ship::None,
                pay: Method::PayPal,
                cur: p.cur,
                comment: String::new(),
            };
            let dev = flip % p.devs.len();
            flip += 1;
            place(&mut r, &w, &mut v, &mut g, &p, dev, &c, t, 0, false, Track::None);
            let t2 = t + r.range(50, 300) * SECOND + micros(&mut r);
            place(&mut r, &w, &mut v, &mut g, &p, dev, &c, t2, 0, false, Track::None);
        }
        if d == 11 {
            tests(&mut r, &w, &mut v, &mut g, d0 + 13 * HOUR + 12 * MINUTE, 4, Method::Bank);
        }
        if d == 34 {
            tests(&mut r, &w, &mut v, &mut g, d0 + 15 * HOUR + 41 * MINUTE, 3, Method::PayPal);
        }
        if d == 27 || d == 40 {
            let mut bot = loop {
                let b = new_person(&mut r, &mut w, false);
                if !b.addr.eu {
                    break b;
                }
            };
            let ip = if d == 27 { "45.134.26.77" } else { "185.220.101.43" };
            bot.devs = vec![Dev { ua: 0, lang: "en-US,en;q=0.9", net: Net::Home(ip.to_string()), lag: 0, seed: 1 }];
            let (t, n, gap) = if d == 27 {
                (d0 + 2 * HOUR + 13 * MINUTE, 14, (2 * SECOND, 20 * SECOND))
            } else {
                // Two workers at once.
                (d0 + 3 * HOUR + 47 * MINUTE, 9, (300_000, 8 * SECOND))
            };
            bots(&mut r, &w, &mut v, &mut g, &bot, t, n, gap);
        }
    }

    v.retain(|x| x.at < NOW - SECOND);
    v.sort_by_key(|x| x.at);
    let mut inv: Vec<(i64, usize)> =
        v.iter().enumerate().filter_map(|(k, x)| x.invoice.filter(|&t| t < NOW).map(|t| (t, k))).collect();
    inv.sort_unstable();
    let mut invno = vec![0; v.len()];
    for (n, &(_, k)) in inv.iter().enumerate() {
        invno[k] = INV0 + n as i64;
    }

    // The owner's clean-up of the missing orders more than an hour old, newest first: a hard delete.
    let mut missing: Vec<usize> = (0..v.len()).filter(|&k| v[k].at < CLEAN - HOUR && v[k].status(CLEAN) == 0).collect();
    missing.sort_by_key(|&k| std::cmp::Reverse(v[k].at));
    let gone: HashSet<usize> = missing.into_iter().take(CLEANED).collect();

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("oc_order", &columns);
    let mut present: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (k, x) in v.iter().enumerate() {
        let id = ID0 + 1 + k as i64;
        if gone.contains(&k) {
            continue;
        }
        let modified = x.mods.iter().copied().filter(|&m| m < NOW).fold(x.at, i64::max);
        let (cur_id, cur_code) = CURS[x.cur];
        let mut row: Vec<(&str, V)> = vec![
            ("order_id", V::I(id)),
            ("subscription_id", V::I(0)),
            ("invoice_no", V::I(invno[k])),
            ("invoice_prefix", V::t(PREFIX)),
            ("transaction_id", V::Null),
            ("store_id", V::I(0)),
            ("store_name", V::t(STORE)),
            ("store_url", V::t(URL)),
            ("customer_id", V::I(x.cid)),
            ("customer_group_id", V::I(x.cgroup)),
            ("firstname", V::t(&x.first)),
            ("lastname", V::t(&x.last)),
            ("email", V::t(&x.email)),
            ("telephone", V::t(&x.tel)),
            ("custom_field", V::t("[]")),
            ("payment_address_id", V::I(0)),
            ("payment_firstname", V::t("")),
            ("payment_lastname", V::t("")),
            ("payment_company", V::t("")),
            ("payment_address_1", V::t("")),
            ("payment_address_2", V::t("")),
            ("payment_city", V::t("")),
            ("payment_postcode", V::t("")),
            ("payment_country", V::t("")),
            ("payment_country_id", V::I(0)),
            ("payment_zone", V::t("")),
            ("payment_zone_id", V::I(0)),
            ("payment_address_format", V::t("")),
            ("payment_custom_field", V::t("[]")),
            ("payment_method", V::t(&x.pay_json)),
        ];
        match &x.ship {
            Some(a) => row.extend([
                ("shipping_address_id", V::I(a.id)),
                ("shipping_firstname", V::t(&a.first)),
                ("shipping_lastname", V::t(&a.last)),
                ("shipping_company", V::t(&a.company)),
                ("shipping_address_1", V::t(&a.a1)),
                ("shipping_address_2", V::t(&a.a2)),
                ("shipping_city", V::t(a.city)),
                ("shipping_postcode", V::t(&a.post)),
                ("shipping_country", V::t(a.country)),
                ("shipping_country_id", V::I(a.country_id)),
                ("shipping_zone", V::t(a.zone)),
                ("shipping_zone_id", V::I(a.zone_id)),
                ("shipping_address_format", V::t(FORMAT)),
            ]),
            None => row.extend([
                ("shipping_address_id", V::I(0)),
                ("shipping_firstname", V::t("")),
                ("shipping_lastname", V::t("")),
                ("shipping_company", V::t("")),
                ("shipping_address_1", V::t("")),
                ("shipping_address_2", V::t("")),
                ("shipping_city", V::t("")),
                ("shipping_postcode", V::t("")),
                ("shipping_country", V::t("")),
                ("shipping_country_id", V::I(0)),
                ("shipping_zone", V::t("")),
                ("shipping_zone_id", V::I(0)),
                ("shipping_address_format", V::t("")),
            ]),
        }
        row.extend([
            ("shipping_custom_field", V::t("[]")),
            ("shipping_method", V::t(&x.ship_json)),
            ("comment", V::t(&x.comment)),
            ("total", V::Raw(dec4(x.total))),
            ("order_status_id", V::I(x.status(NOW))),
            ("affiliate_id", V::I(x.aff)),
            ("commission", V::Raw(format!("{:.4}", x.commission))),
            ("marketing_id", V::I(x.mkt)),
            ("tracking", V::t(&x.tracking)),
            ("language_id", V::I(1)),
            ("language_code", V::t("en-gb")),
            ("currency_id", V::I(cur_id)),
            ("currency_code", V::t(cur_code)),
            ("currency_value", V::Raw(x.rate.clone())),
            ("ip", V::t(&x.ip)),
            ("forwarded_ip", V::t("")),
            ("user_agent", V::t(&x.ua)),
            ("accept_language", V::t(&x.lang)),
            ("date_added", V::AtSecs(x.at)),
            ("date_modified", V::AtSecs(modified)),
        ]);
        let key: String = row
            .iter()
            .filter(|(c, _)| !MINTED.contains(c))
            .map(|(_, v)| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join("|");
        let fresh = seen.insert(key);
        let mark = if !present.insert(x.grp) {
            Mark::Retry
        } else if !fresh {
            Mark::Legit
        } else {
            Mark::Plain
        };
        f.push(&row);
        f.mark(id, mark);
        if mark == Mark::Retry && x.hidden {
            f.hidden.insert(id.to_string());
        }
    }
    f
}
