//! Sylius (PHP, Symfony + Doctrine ORM; MySQL/MariaDB and PostgreSQL): `sylius_order`, one row per cart and order, as
//! the shop (Twig, the add-to-cart live component) and the Shop API (a headless storefront) create carts, the checkout
//! turns a cart into an order in place, and the back office, the payment gateways and the two cron commands move it on:
//! a coffee roaster's shops (web shop DE/AT, a Swiss shop, a headless app, a B2B channel), 30 days.
//! Read: Sylius/Sylius (3466cbab1098367b7107e756714f9390bf5e4bf6, 2.0) src/Sylius/Bundle/CoreBundle/Migrations/
//! Version20160101092155.php (MySQL) and Version20160101084139.php (PostgreSQL, with `sylius_order_id_seq`), the later
//! 2.0 migrations (none touches `sylius_order`; the list as a 2.0 shop ran them in 2025 seen in
//! Julieed-971/MangAddict-Sylius `php`); OrderBundle and CoreBundle Resources/config/doctrine/model/Order.orm.xml;
//! Component/Order/Model/Order.php, Component/Core/Model/Order.php; Component/Order/Context/CartContext.php,
//! Component/Core/Cart/Context/ShopBasedCartContext.php, CoreBundle/Context/SessionAndChannelBasedCartContext.php and
//! CustomerAndChannelBasedCartContext.php, CoreBundle/Resources/config/services/context.xml,
//! CoreBundle/Storage/CartSessionStorage.php, ShopBundle/EventListener/SessionCartSubscriber.php and
//! ShopCartBlamerListener.php, Core/Cart/Resolver/CreatedByGuestFlagResolver.php,
//! ShopBundle/Twig/Component/Product/AddToCartFormComponent.php; ApiBundle/CommandHandler/Cart/PickupCartHandler.php,
//! AddItemToCartHandler.php, Checkout/UpdateCartHandler.php and CompleteOrderHandler.php, CoreBundle/Factory/
//! OrderFactory.php; CoreBundle/Resources/config/app/workflow/sylius_order*.yaml and services/listeners/workflow/
//! order.xml (AssignOrderNumberListener, AssignOrderTokenListener, RequestOrderPayment/Shipping, the cancel listeners),
//! SaveCheckoutCompletionDateListener.php, ShopBundle OrderCustomerIpListener.php and listeners.xml,
//! CoreBundle/Assigner/CustomerIpAssigner.php; CoreBundle/Order/NumberGenerator/SequentialOrderNumberGenerator.php,
//! OrderBundle/NumberAssigner/OrderNumberAssigner.php, Core/TokenAssigner/UniqueIdBasedOrderTokenAssigner.php and
//! CoreBundle/DependencyInjection/Configuration.php (`order_token_length` 64); the resource bundle's
//! RandomnessGenerator (the URI-safe alphabet, by code search); Core/OrderProcessing/ShippingChargesProcessor.php;
//! Core/StateResolver/OrderStateResolver.php; OrderBundle/Remover/ExpiredCartsRemover.php, Doctrine/ORM/
//! OrderRepository.php (`findCartsNotModifiedSince`, `findCartForSummary`), DependencyInjection/Configuration.php
//! (`expiration.cart` 2 days, `expiration.order` 5 days); Core/Updater/UnpaidOrdersStateUpdater.php and CoreBundle
//! OrderRepository `findOrdersUnpaidSince`; ShopBundle/Resources/config/routing/checkout.yml.
//! On a create: the shop makes no row until the first add to cart: then `CartContext` builds a new `Order` (its
//! constructor sets `created_at`), `ShopBasedCartContext` sets `channel_id`, `currency_code` (the channel's base
//! currency), `locale_code` (the shopper's) and, for a logged-in customer, `customer_id` with `created_by_guest` 0 and
//! a clone of the default address as a new `billing_address_id`; the add flushes the cart with its item (`state`,
//! `checkout_state`, `payment_state`, `shipping_state` all 'cart'; `items_total`, the estimated shipping in
//! `adjustments_total`, `total`), `updated_at` set by Gedmo on insert; `number`, `token_value`, `customer_ip`, `notes`,
//! `checkout_completed_at`, `shipping_address_id` NULL; the id from AUTO_INCREMENT or `sylius_order_id_seq`. The Shop
//! API's `POST /api/v2/shop/orders` (`PickupCart`) inserts an empty cart with a fresh 64-character `token_value` (and
//! the customer, if the JWT has one), then `POST .../items` adds to it. Times are DATETIME / TIMESTAMP(0) in UTC.
//! Later: the address step sets the customer (a guest's e-mail resolves to a customer row, made if new), new address
//! rows and the shipping for the zone; shipping and payment steps move `checkout_state`; completing applies `create`:
//! `state` new, `checkout_state` completed, `payment_state` awaiting_payment, `shipping_state` ready, the next
//! zero-padded `number` (000041207 on), a token if none, `customer_ip`, `notes`, `checkout_completed_at`. Gateways mark
//! it paid (or authorized, captured at shipping), the back office marks transfers and debits paid and ships; paid and
//! shipped makes it fulfilled; refunds and cancellations; every change bumps `updated_at`.
//! `sylius:remove-expired-carts` (02:30 daily) deletes carts not updated for 2 days; `sylius:cancel-unpaid-orders`
//! (03:00) cancels orders awaiting payment 5 days after checkout.
//! Retries: "Place order" sent twice, or the API's complete-checkout retried, makes no row (the second finds no cart in
//! state 'cart': 404 or 422); a client's retried `PickupCart` carrying its own `tokenValue` is refused by the unique
//! index. Rows come from: an add to cart sent twice by a shopper with no cart yet (2%: a double click, or a resend
//! while the first request still hung, which then may flush after the second, so ids and `created_at` disagree): two
//! carts with the same item, the session keeps one and the other expires after 2 days; the app's pickup (4%) retried
//! after its 10 s timeout (the lost cart stays empty; 15% a third try) or sent twice by a double tap (both carts get
//! the item); three in the last day. Only those of the last two days are still in the table; the later id of a pair is
//! the extra, and a cart whose twin expired is plain. Hidden: a retry with an equal cart of another visitor within 5
//! minutes (the landing pages); a customer whose confirmation never came (the pay redirect failed, 0.7% of orders)
//! ordering the same again minutes later, a row like a B2B customer's second order (the first is cancelled by an admin
//! or by the unpaid-orders job).
//! Legitimate repeats: newsletter and Instagram landing pages putting the same bundle into many guests' carts; guests
//! with the same best-seller in the cart; app carts left empty when the add failed; regulars ordering the same coffee
//! every week (and again the next day); B2B customers ordering the same twice minutes apart for their two sites.
//! Guessed: the shop, its channels, prices, shipping fees, rates, rhythms and conversion; the cron times; that sessions
//! live in Redis (no session lock, so two adds can race); the app calls the API from its servers, so its orders' IP is
//! the NAT's; the payment mix and back-office hours; the retry, campaign, regular and B2B patterns.
use std::collections::{HashMap, HashSet};

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, day, secs, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Postgres];

/// The table as the regenerated 2.0 migrations leave it (the 1.x history ends in the same schema), without its foreign
/// keys to addresses, channels, coupons and customers.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => "\
CREATE TABLE sylius_order (id INT AUTO_INCREMENT NOT NULL, shipping_address_id INT DEFAULT NULL, \
billing_address_id INT DEFAULT NULL, channel_id INT DEFAULT NULL, promotion_coupon_id INT DEFAULT NULL, \
customer_id INT DEFAULT NULL, number VARCHAR(255) DEFAULT NULL, notes LONGTEXT DEFAULT NULL, state VARCHAR(255) \
NOT NULL, checkout_completed_at DATETIME DEFAULT NULL, items_total INT NOT NULL, adjustments_total INT NOT NULL, \
total INT NOT NULL, created_at DATETIME NOT NULL, updated_at DATETIME DEFAULT NULL, currency_code VARCHAR(3) NOT \
NULL, locale_code VARCHAR(255) NOT NULL, checkout_state VARCHAR(255) NOT NULL, payment_state VARCHAR(255) NOT \
NULL, shipping_state VARCHAR(255) NOT NULL, created_by_guest TINYINT(1) DEFAULT 1 NOT NULL, token_value \
VARCHAR(255) DEFAULT NULL, customer_ip VARCHAR(255) DEFAULT NULL, UNIQUE INDEX UNIQ_6196A1F996901F54 (number), \
UNIQUE INDEX UNIQ_6196A1F9BEA95C75 (token_value), UNIQUE INDEX UNIQ_6196A1F94D4CFF2B (shipping_address_id), \
UNIQUE INDEX UNIQ_6196A1F979D0C0E4 (billing_address_id), INDEX IDX_6196A1F972F5A1AA (channel_id), INDEX \
IDX_6196A1F917B24436 (promotion_coupon_id), INDEX IDX_6196A1F99395C3F3 (customer_id), INDEX \
IDX_6196A1F9A393D2FB43625D9F (state, updated_at), PRIMARY KEY(id)) DEFAULT CHARACTER SET utf8mb4 COLLATE \
`utf8mb4_unicode_ci` ENGINE = InnoDB"
            .to_string(),
        Engine::Postgres => "CREATE SEQUENCE sylius_order_id_seq INCREMENT BY 1 MINVALUE 1 START 1;
CREATE TABLE sylius_order (id INT NOT NULL, shipping_address_id INT DEFAULT NULL, billing_address_id INT DEFAULT \
NULL, channel_id INT DEFAULT NULL, promotion_coupon_id INT DEFAULT NULL, customer_id INT DEFAULT NULL, number \
VARCHAR(255) DEFAULT NULL, notes TEXT DEFAULT NULL, state VARCHAR(255) NOT NULL, checkout_completed_at \
TIMESTAMP(0) WITHOUT TIME ZONE DEFAULT NULL, items_total INT NOT NULL, adjustments_total INT NOT NULL, total INT \
NOT NULL, created_at TIMESTAMP(0) WITHOUT TIME ZONE NOT NULL, updated_at TIMESTAMP(0) WITHOUT TIME ZONE DEFAULT \
NULL, currency_code VARCHAR(3) NOT NULL, locale_code VARCHAR(255) NOT NULL, checkout_state VARCHAR(255) NOT \
NULL, payment_state VARCHAR(255) NOT NULL, shipping_state VARCHAR(255) NOT NULL, created_by_guest BOOLEAN \
DEFAULT true NOT NULL, token_value VARCHAR(255) DEFAULT NULL, customer_ip VARCHAR(255) DEFAULT NULL, PRIMARY \
KEY(id));
CREATE UNIQUE INDEX UNIQ_6196A1F996901F54 ON sylius_order (number);
CREATE UNIQUE INDEX UNIQ_6196A1F9BEA95C75 ON sylius_order (token_value);
CREATE UNIQUE INDEX UNIQ_6196A1F94D4CFF2B ON sylius_order (shipping_address_id);
CREATE UNIQUE INDEX UNIQ_6196A1F979D0C0E4 ON sylius_order (billing_address_id);
CREATE INDEX IDX_6196A1F972F5A1AA ON sylius_order (channel_id);
CREATE INDEX IDX_6196A1F917B24436 ON sylius_order (promotion_coupon_id);
CREATE INDEX IDX_6196A1F99395C3F3 ON sylius_order (customer_id);
CREATE INDEX IDX_6196A1F9A393D2FB43625D9F ON sylius_order (state, updated_at)"
            .to_string(),
        Engine::Sqlite => unreachable!("Sylius runs on MySQL/MariaDB and PostgreSQL"),
    }
}

const COLUMNS: &str = "id shipping_address_id billing_address_id channel_id promotion_coupon_id customer_id number \
    notes state checkout_completed_at items_total adjustments_total total created_at updated_at currency_code \
    locale_code checkout_state payment_state shipping_state created_by_guest token_value customer_ip";

const START: i64 = T0;
const DAYS: i64 = 30;
/// A Saturday afternoon: today's cron runs are done.
const NOW: i64 = T0 + DAYS * DAY + 14 * HOUR + 20 * MINUTE;
/// The last id, order number (the sequence's index), customer and address before the window.
const ID0: i64 = 212_480;
const NUMBER0: i64 = 41_206;
const CUSTOMER0: i64 = 18_733;
const ADDRESS0: i64 = 96_318;
/// The WILLKOMMEN10 coupon (10% off the items).
const COUPON: i64 = 37;
/// The autumn tasting set the landing pages put into the cart.
const CAMPAIGN: i64 = 1_790;

const WEB: usize = 0;
const CH: usize = 1;
const APP: usize = 2;
const B2B: usize = 3;

struct Chan {
    id: i64,
    currency: &'static str,
    locales: &'static [(&'static str, i64)],
    /// Carts started on an ordinary day (a first add, or the app's pickup).
    rate: f64,
    /// The share started by a logged-in customer.
    member: f64,
    /// The share that ends as an order.
    convert: f64,
}

const CHANNELS: [Chan; 4] = [
    Chan { id: 1, currency: "EUR", locales: &[("de_DE", 86), ("en_US", 14)], rate: 112.0, member: 0.3, convert: 0.27 },
    Chan { id: 2, currency: "CHF", locales: &[("de_CH", 68), ("fr_CH", 32)], rate: 18.0, member: 0.25, convert: 0.27 },
    Chan { id: 3, currency: "EUR", locales: &[("de_DE", 78), ("en_US", 22)], rate: 42.0, member: 0.4, convert: 0.31 },
    Chan { id: 4, currency: "EUR", locales: &[("de_DE", 100)], rate: 7.0, member: 1.0, convert: 0.85 },
];

/// Consumer prices in euro cents (the Swiss channel's in rappen, about 12% higher), and how often each is bought.
const PRICES: [i64; 12] = [2_490, 1_390, 790, 1_190, 1_090, 1_490, 1_990, 2_490, 1_890, 25_900, 990, 3_490];
const POPULAR: [i64; 12] = [20, 16, 12, 9, 8, 6, 8, 3, 3, 1, 4, 2];
/// B2B net prices: the 1 kg bags and the filter blend.
const B2B_PRICES: [i64; 4] = [2_090, 1_890, 2_290, 790];
const B2B_POPULAR: [i64; 4] = [10, 8, 5, 3];
/// Carts started per hour of the day (UTC), relative: German and Swiss evenings.
const RHYTHM: [i64; 24] = [2, 1, 1, 1, 1, 2, 4, 6, 7, 8, 8, 9, 9, 8, 8, 8, 9, 11, 13, 14, 13, 10, 6, 3];
/// B2B buyers order in office hours.
const OFFICE: [i64; 24] = [0, 0, 0, 0, 0, 1, 4, 8, 9, 9, 8, 7, 8, 8, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0];
/// The app's servers call the API through the cloud NAT: its orders' `customer_ip`.
const APP_NAT: [&str; 2] = ["35.198.74.102", "35.198.74.117"];
/// What customers write into the checkout's notes, by language.
const NOTES: [&[&str]; 3] = [
    &[
        "Bitte beim Nachbarn abgeben, falls niemand da ist.",
        "Bitte vor der Wohnungstür abstellen.",
        "Bitte für Siebträger mahlen.",
        "Bitte für French Press mahlen.",
        "Geschenk, bitte keine Rechnung beilegen.",
        "Hinterhaus, 3. OG",
        "Lieferung an Packstation 112",
        "Bitte nicht vor 17 Uhr zustellen.",
    ],
    &["Please leave the parcel with the concierge.", "Please grind for pour-over.", "It's a gift, no invoice please."],
    &["Merci de moudre pour cafetière italienne.", "Merci de laisser le colis chez le voisin."],
];
/// The B2B customers with two sites, and what they write when they name the site.
const SITES: [(&str, &str); 5] = [
    ("Lieferung Standort Altona", "Lieferung Standort HafenCity"),
    ("Standort Nord, Empfang EG", "Standort Süd, Empfang 2. OG"),
    ("Filiale Schwabing", "Filiale Haidhausen"),
    ("Werk 1, Tor 3", "Werk 2, Kantine"),
    ("Praxis Mitte", "Praxis Ost"),
];
const TOKEN_ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_~";

/// A customer row: one that exists, or a new guest's e-mail (its row made at the address step).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cust {
    Old(i64),
    New(usize),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pay {
    /// Card or PayPal: paid seconds after the checkout.
    Card,
    /// The card failed, paid again on the order page later.
    CardLate,
    /// Never paid (cancelled by the back office or the unpaid-orders job).
    Unpaid,
    /// Bank transfer, marked paid by the back office.
    Prepay,
    /// Klarna: authorized now, captured at shipping.
    Klarna,
    /// B2B direct debit, marked paid by the back office.
    Debit,
}

#[derive(Clone)]
enum Ev {
    /// The items' gross total after an add.
    Add(i64),
    Coupon,
    Address {
        zone: usize,
        login: bool,
    },
    Ship(bool),
    Pay,
    Complete,
    Authorize,
    Paid,
    Shipped,
    Refund,
    Cancel,
}

/// What the row holds now.
#[derive(Clone, Default)]
struct St {
    id: i64,
    deleted: bool,
    gross: i64,
    coupon: bool,
    zone: usize,
    express: bool,
    customer: Option<i64>,
    by_guest: bool,
    ship_addr: Option<i64>,
    bill_addr: Option<i64>,
    number: Option<i64>,
    token: Option<String>,
    state: &'static str,
    checkout: &'static str,
    payment: &'static str,
    shipping: &'static str,
    notes: Option<String>,
    ip: Option<String>,
    completed: Option<i64>,
    updated: i64,
}

impl St {
    fn items(&self) -> i64 {
        if self.coupon { self.gross - (self.gross + 5) / 10 } else { self.gross }
    }
}

#[derive(Clone)]
struct Cart {
    grp: usize,
    chan: usize,
    /// The constructor's `new \DateTime()`: `created_at`.
    at: i64,
    /// The flush that inserted it: the id's order, the first `updated_at`.
    ins: i64,
    login: Option<i64>,
    cust: Cust,
    billing: bool,
    locale: &'static str,
    /// The items' gross total as inserted (0 for an API pickup).
    gross: i64,
    api: bool,
    notes: Option<String>,
    ip: String,
    evs: Vec<(i64, Ev)>,
    intent: Mark,
    hidden: bool,
    st: St,
}

/// A shopper's visit as planned: the cart, the adds, how far the checkout gets, and the payment.
#[derive(Clone)]
struct Visit {
    chan: usize,
    t: i64,
    login: Option<i64>,
    cust: Cust,
    billing: bool,
    locale: &'static str,
    /// Line totals in the order added.
    lines: Vec<i64>,
    notes: Option<String>,
    ip: String,
    /// 0 the cart only, 1 addressed, 2 shipping chosen, 3 payment chosen, 4 completed.
    reach: usize,
    /// Hours away between the cart and the checkout.
    pause: i64,
    zone: usize,
    express: bool,
    coupon: bool,
    /// A guest who logs in at the address step (the cart is blamed on the customer).
    blame: bool,
    pay: Pay,
    /// Steps seconds apart: a re-order, a B2B customer's second order.
    quick: bool,
    intent: Mark,
    hidden: bool,
}

struct Member {
    id: i64,
    addr: bool,
    ip: String,
}

struct World {
    members: Vec<Member>,
    b2b: Vec<Member>,
    /// Customer rows of earlier guest checkouts (an e-mail used again).
    guests: Vec<i64>,
    next_key: usize,
}

fn wait(r: &mut Rng, lo: i64, hi: i64) -> i64 {
    r.range(lo, hi) * SECOND + r.below(1_000_000) as i64
}

fn when(r: &mut Rng, d0: i64, rhythm: &[i64; 24]) -> i64 {
    d0 + r.weighted(rhythm) as i64 * HOUR + r.below(HOUR as u64) as i64
}

/// The next moment someone works in the back office (weekdays 06:00-15:00 UTC) at or after `t`.
fn office(r: &mut Rng, t: i64) -> i64 {
    let mut d = day(t);
    loop {
        let (open, close) = (d + 6 * HOUR, d + 15 * HOUR);
        if weekday(d) < 5 && t < close {
            let from = t.max(open);
            return from + r.range(0, ((close - from) / SECOND).min(3 * 3_600)) * SECOND + r.below(1_000_000) as i64;
        }
        d += DAY;
    }
}

/// The back office's next moment after `lo`-`hi` units from `t`.
fn office_in(r: &mut Rng, t: i64, lo: i64, hi: i64, unit: i64) -> i64 {
    let d = r.range(lo, hi) * unit;
    office(r, t + d)
}

fn token(r: &mut Rng) -> String {
    (0..64).map(|_| TOKEN_ALPHABET[r.below(TOKEN_ALPHABET.len() as u64) as usize] as char).collect()
}

fn ip(r: &mut Rng) -> String {
    if r.chance(0.22) {
        let g: Vec<String> = (0..6).map(|_| format!("{:x}", r.below(0x10000))).collect();
        format!("2a02:{:x}:{}", 0x8100 + r.below(0x800), g.join(":"))
    } else {
        const FIRST: [u64; 10] = [79, 84, 87, 91, 93, 178, 188, 217, 46, 95];
        format!("{}.{}.{}.{}", FIRST[r.below(10) as usize], r.below(256), r.below(256), 1 + r.below(254))
    }
}

fn note(r: &mut Rng, locale: &str) -> String {
    let i = match locale {
        "en_US" => 1,
        "fr_CH" => 2,
        _ => 0,
    };
    r.pick(NOTES[i]).to_string()
}

fn locale(r: &mut Rng, chan: usize) -> &'static str {
    let ls = CHANNELS[chan].locales;
    let w: Vec<i64> = ls.iter().map(|l| l.1).collect();
    ls[r.weighted(&w)].0
}

/// One line: a product times its quantity, at the channel's price.
fn line(r: &mut Rng, chan: usize) -> i64 {
    if chan == B2B {
        return B2B_PRICES[r.weighted(&B2B_POPULAR)] * r.range(2, 8);
    }
    let eur = PRICES[r.weighted(&POPULAR)];
    let price = if chan == CH { (eur * 112 / 100 + 5) / 10 * 10 } else { eur };
    price * r.one(&[1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3])
}

/// The shipping adjustment: the default method's estimate in the cart, then the zone's and the method chosen.
fn fee(chan: usize, zone: usize, express: bool, items: i64) -> i64 {
    if items == 0 {
        return 0;
    }
    match chan {
        CH if express => 1_590,
        CH if items >= 6_900 => 0,
        CH => 790,
        B2B if items >= 15_000 => 0,
        B2B => 990,
        _ => match (zone, express) {
            (0, false) if items >= 4_900 => 0,
            (0, false) => 490,
            (_, false) if items >= 6_900 => 0,
            (_, false) => 690,
            (0, true) => 1_290,
            (_, true) => 1_590,
        },
    }
}

fn world(r: &mut Rng) -> World {
    let mut used: HashSet<i64> = HashSet::new();
    let mut draw = |r: &mut Rng| loop {
        let id = r.range(1, CUSTOMER0 - 1);
        if used.insert(id) {
            break id;
        }
    };
    let members = (0..1_400).map(|_| Member { id: draw(r), addr: r.chance(0.75), ip: ip(r) }).collect();
    let b2b = (0..22)
        .map(|_| {
            let ip = format!("{}.{}.{}.{}", r.one(&[62, 80, 194, 212]), r.below(256), r.below(256), 2 + r.below(250));
            Member { id: draw(r), addr: true, ip }
        })
        .collect();
    let guests = (0..2_500).map(|_| draw(r)).collect();
    World { members, b2b, guests, next_key: 0 }
}

/// A visit to the web shop, the Swiss shop or the app.
fn visit(r: &mut Rng, w: &mut World, chan: usize, t: i64) -> Visit {
    let spec = &CHANNELS[chan];
    let member = r.chance(spec.member);
    let (login, cust, billing, mut addr_ip) = if member {
        let m = &w.members[r.skewed(w.members.len() as u64) as usize];
        let home = r.chance(0.75);
        (Some(m.id), Cust::Old(m.id), m.addr, if home { m.ip.clone() } else { ip(r) })
    } else if r.chance(0.22) {
        (None, Cust::Old(w.guests[r.below(w.guests.len() as u64) as usize]), false, ip(r))
    } else {
        w.next_key += 1;
        (None, Cust::New(w.next_key), false, ip(r))
    };
    if chan == APP {
        addr_ip = APP_NAT[r.below(2) as usize].to_string();
    }
    let n = match r.below(100) {
        0..=61 => 1,
        62..=86 => 2,
        87..=95 => 3,
        _ => 4,
    };
    // The app's add failed (out of stock) after the pickup: the cart stays empty.
    let lines: Vec<i64> =
        if chan == APP && r.chance(0.02) { Vec::new() } else { (0..n).map(|_| line(r, chan)).collect() };
    let reach = if lines.is_empty() {
        0
    } else if r.chance(spec.convert) {
        4
    } else {
        r.one(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3])
    };
    let pause = if reach == 4 && r.chance(0.08) { r.range(3, 28) } else { 0 };
    let zone = usize::from(chan != CH && r.chance(0.18));
    let express = r.chance(0.1);
    let coupon = !member && chan != APP && !lines.is_empty() && r.chance(0.05);
    let (mut cust, mut blame) = (cust, false);
    if !member && chan == WEB && reach >= 1 && r.chance(0.07) {
        let m = &w.members[r.skewed(w.members.len() as u64) as usize];
        (cust, blame) = (Cust::Old(m.id), true);
    }
    let pay = match chan {
        APP => [Pay::Card, Pay::CardLate, Pay::Unpaid, Pay::Prepay][r.weighted(&[86, 4, 3, 7])],
        _ => [Pay::Card, Pay::CardLate, Pay::Unpaid, Pay::Prepay, Pay::Klarna][r.weighted(&[64, 3, 4, 20, 9])],
    };
    let lang = locale(r, chan);
    let notes = (reach == 4 && r.chance(0.13)).then(|| note(r, lang));
    Visit {
        chan,
        t,
        login,
        cust,
        billing,
        locale: lang,
        lines,
        notes,
        ip: addr_ip,
        reach,
        pause,
        zone,
        express,
        coupon,
        blame,
        pay,
        quick: false,
        intent: Mark::Plain,
        hidden: false,
    }
}

fn b2b_visit(r: &mut Rng, w: &World, t: i64) -> (Visit, usize) {
    let k = r.skewed(w.b2b.len() as u64) as usize;
    let m = &w.b2b[k];
    let lines: Vec<i64> = (0..r.range(2, 5)).map(|_| line(r, B2B)).collect();
    let reach = if r.chance(CHANNELS[B2B].convert) { 4 } else { r.one(&[0, 0, 1]) };
    let notes = (reach == 4 && r.chance(0.2)).then(|| format!("Bestellung PO-{}", r.range(10_000, 99_999)));
    let x = Visit {
        chan: B2B,
        t,
        login: Some(m.id),
        cust: Cust::Old(m.id),
        billing: true,
        locale: "de_DE",
        lines,
        notes,
        ip: m.ip.clone(),
        reach,
        pause: 0,
        zone: 0,
        express: false,
        coupon: false,
        blame: false,
        pay: Pay::Debit,
        quick: false,
        intent: Mark::Plain,
        hidden: false,
    };
    (x, k)
}

/// What follows a checkout: the payment, the shipping, a refund, a cancellation.
fn after(r: &mut Rng, evs: &mut Vec<(i64, Ev)>, tc: i64, pay: Pay) {
    let ready = match pay {
        Pay::Card => Some((tc + wait(r, 8, 150), true)),
        Pay::CardLate => Some((tc + wait(r, 240, 2_400), true)),
        Pay::Unpaid => None,
        Pay::Prepay => Some((office_in(r, tc, 18, 90, HOUR), true)),
        Pay::Debit => Some((office_in(r, tc, 3, 40, HOUR), true)),
        Pay::Klarna => {
            let a = tc + wait(r, 5, 60);
            evs.push((a, Ev::Authorize));
            Some((a, false))
        }
    };
    if let Some((p, paid)) = ready {
        if paid {
            evs.push((p, Ev::Paid));
        }
        if r.chance(0.985) {
            let s = office_in(r, p, 1, 20, HOUR);
            evs.push((s, Ev::Shipped));
            if r.chance(0.02) {
                evs.push((office_in(r, s, 3, 10, DAY), Ev::Refund));
            }
        }
    }
    if r.chance(0.012) {
        evs.push((office_in(r, tc, 1, 20, HOUR), Ev::Cancel));
    }
}

/// The requests of the cart that goes on: its adds, the checkout steps, and what follows; when its checkout completed.
fn steps(r: &mut Rng, c: &mut Cart, x: &Visit) -> Option<i64> {
    let mut t = c.ins;
    let mut gross = 0;
    for (i, &l) in x.lines.iter().enumerate() {
        gross += l;
        if i == 0 && !c.api {
            continue;
        }
        t += if i == 0 {
            r.range(250_000, 1_200_000)
        } else if x.quick {
            wait(r, 4, 25)
        } else {
            wait(r, 30, 420)
        };
        c.evs.push((t, Ev::Add(gross)));
    }
    if x.coupon {
        t += wait(r, 20, 180);
        c.evs.push((t, Ev::Coupon));
    }
    if x.reach == 0 {
        return None;
    }
    if x.pause > 0 {
        t += x.pause * HOUR + wait(r, 0, 3_599);
    }
    t += if x.quick { wait(r, 25, 110) } else { wait(r, 70, 540) };
    c.evs.push((t, Ev::Address { zone: x.zone, login: x.blame }));
    if x.reach == 1 {
        return None;
    }
    t += if x.quick { wait(r, 8, 30) } else { wait(r, 15, 90) };
    c.evs.push((t, Ev::Ship(x.express)));
    if x.reach == 2 {
        return None;
    }
    t += if x.quick { wait(r, 6, 25) } else { wait(r, 10, 60) };
    c.evs.push((t, Ev::Pay));
    if x.reach == 3 {
        return None;
    }
    t += if x.quick { wait(r, 8, 40) } else { wait(r, 15, 150) };
    c.evs.push((t, Ev::Complete));
    after(r, &mut c.evs, t, x.pay);
    Some(t)
}

/// Writes the visit's cart, and the carts its lost responses made: an add to cart sent twice by a shopper with no cart
/// yet (the session keeps one of the two), or the app's pickup sent twice or retried after its timeout. Returns the
/// cart that went on and when its checkout completed.
fn play(r: &mut Rng, v: &mut Vec<Cart>, x: &Visit, grp: Option<usize>, retry: f64) -> (usize, Option<i64>) {
    let api = x.chan == APP;
    let uid0 = v.len();
    let lag = |r: &mut Rng| if api { r.range(15_000, 80_000) } else { r.range(40_000, 450_000) };
    // (created_at, the flush, whether its item went in)
    let mut tries: Vec<(i64, i64, bool)> = vec![(x.t, x.t + lag(r), false)];
    let mut go = 0;
    if retry > 0.0 && !x.lines.is_empty() && r.chance(retry) {
        let d = client_retry_delay(r);
        let double = d < SECOND;
        let t2 = x.t + d;
        if !double && r.chance(0.5) {
            // The first request hung before its flush (why the client gave up): it lands after the second.
            tries[0].1 = t2 + r.range(500_000, 25_000_000);
        }
        tries.push((t2, t2 + lag(r), false));
        if api && !double && r.chance(0.15) {
            let t3 = t2 + wait(r, 20, 120);
            tries.push((t3, t3 + lag(r), false));
        }
        go = if api && !double { tries.len() - 1 } else { r.below(2) as usize };
        if api && double {
            // Each tap picked up a cart and added the item to it; the app kept the token it heard last.
            for t in tries.iter_mut() {
                t.2 = true;
            }
        }
    }
    let mut done = None;
    for (i, &(at, ins, added)) in tries.iter().enumerate() {
        let mut c = Cart {
            grp: grp.unwrap_or(uid0),
            chan: x.chan,
            at,
            ins,
            login: x.login,
            cust: x.cust,
            billing: x.billing,
            locale: x.locale,
            gross: if api { 0 } else { x.lines.first().copied().unwrap_or(0) },
            api,
            notes: x.notes.clone(),
            ip: x.ip.clone(),
            evs: Vec::new(),
            intent: if i == 0 { x.intent } else { Mark::Retry },
            hidden: x.hidden,
            st: St::default(),
        };
        if i == go {
            done = steps(r, &mut c, x);
        } else if added {
            c.evs.push((ins + r.range(250_000, 1_200_000), Ev::Add(x.lines[0])));
        }
        v.push(c);
    }
    (uid0 + go, done)
}

/// The confirmation never came (the pay redirect failed): the customer fills the cart again and orders the same.
fn reorder(r: &mut Rng, v: &mut Vec<Cart>, x: &Visit, k: usize, tc: i64, unpaid: bool) {
    let mut y = x.clone();
    y.t = tc + wait(r, 60, 480);
    (y.quick, y.reach, y.pause, y.pay, y.intent, y.hidden) = (true, 4, 0, Pay::Card, Mark::Retry, true);
    // The coupon was used up by the first order.
    y.coupon = false;
    if x.blame
        && let Cust::Old(id) = x.cust
    {
        (y.login, y.blame) = (Some(id), false);
    }
    y.notes = if r.chance(0.7) { x.notes.clone() } else { None };
    if y.chan != APP && r.chance(0.15) {
        y.ip = ip(r);
    }
    let grp = v[k].grp;
    let (k2, done) = play(r, v, &y, Some(grp), 0.0);
    if unpaid {
        if r.chance(0.6) {
            let t = office_in(r, tc, 1, 20, HOUR);
            v[k].evs.push((t, Ev::Cancel));
        }
    } else if let Some(t2) = done {
        let t = office_in(r, t2, 1, 20, HOUR);
        v[k2].evs.push((t, Ev::Cancel));
    }
}

/// A landing page that puts the bundle into the cart: visitors over a few hours, most in the first.
fn campaign(r: &mut Rng, w: &mut World, v: &mut Vec<Cart>, start: i64, n: usize, hours: i64) {
    let mut ts: Vec<i64> = (0..n).map(|_| start + (r.unit().powf(2.2) * (hours * HOUR) as f64) as i64).collect();
    ts.sort_unstable();
    for t in ts {
        if t >= NOW - MINUTE {
            continue;
        }
        let mut x = visit(r, w, WEB, t);
        let extra = r.chance(0.12).then(|| line(r, WEB));
        x.lines = vec![CAMPAIGN];
        x.lines.extend(extra);
        x.reach = if r.chance(0.24) {
            4
        } else if r.chance(0.1) {
            1
        } else {
            0
        };
        if x.reach < 4 {
            x.notes = None;
        }
        x.blame &= x.reach >= 1;
        x.coupon = false;
        x.locale = if r.chance(0.92) { "de_DE" } else { "en_US" };
        if x.notes.is_some() {
            x.notes = Some(note(r, x.locale));
        }
        play(r, v, &x, None, 0.02);
    }
}

/// Regulars: the same coffee, logged in, from home, every week or so (a few again the next day).
fn regulars(r: &mut Rng, w: &World, v: &mut Vec<Cart>) {
    for (k, m) in w.members.iter().take(14).enumerate() {
        let basket: Vec<i64> = (0..r.range(1, 3)).map(|_| line(r, WEB)).collect();
        let notes = r.chance(0.4).then(|| note(r, "de_DE"));
        let zone = usize::from(r.chance(0.2));
        let pay = if r.chance(0.7) { Pay::Card } else { Pay::Prepay };
        let every = r.range(6, 9);
        let mut t = START + r.range(0, every) * DAY;
        let mut again = k >= 4;
        let mut first = true;
        while t < NOW {
            let at = day(t) + r.range(16, 20) * HOUR + wait(r, 0, 3_599);
            if at >= NOW - MINUTE {
                break;
            }
            let x = Visit {
                chan: WEB,
                t: at,
                login: Some(m.id),
                cust: Cust::Old(m.id),
                billing: m.addr,
                locale: "de_DE",
                lines: basket.clone(),
                notes: notes.clone(),
                ip: if r.chance(0.9) { m.ip.clone() } else { ip(r) },
                reach: 4,
                pause: 0,
                zone,
                express: false,
                coupon: false,
                blame: false,
                pay,
                quick: false,
                intent: if first { Mark::Plain } else { Mark::Legit },
                hidden: false,
            };
            play(r, v, &x, None, 0.0);
            first = false;
            if !again && r.chance(0.3) {
                again = true;
                t += DAY;
            } else {
                t += (every + r.range(-1, 1)) * DAY;
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Op {
    Insert(usize),
    Ev(usize, usize),
    Expire,
    Unpaid,
}

/// The last step of a cancel: the order's payment and shipping cancelled (a paid one refunded by hand).
fn cancel(st: &mut St) {
    st.state = "cancelled";
    st.payment = match st.payment {
        "awaiting_payment" | "authorized" => "cancelled",
        "paid" => "refunded",
        p => p,
    };
    if st.shipping == "ready" {
        st.shipping = "cancelled";
    }
}

struct Counters {
    id: i64,
    addr: i64,
    customer: i64,
    number: i64,
    keys: HashMap<usize, i64>,
}

/// One event on a cart; false when the state machine does not allow it (nothing is saved).
fn apply(r: &mut Rng, n: &mut Counters, c: &mut Cart, e: usize, t: i64) -> bool {
    let ev = c.evs[e].1.clone();
    let st = &mut c.st;
    match ev {
        Ev::Add(g) if st.state == "cart" => st.gross = g,
        Ev::Coupon if st.state == "cart" => st.coupon = true,
        Ev::Address { zone, login } if st.state == "cart" => {
            let id = match c.cust {
                Cust::Old(id) => id,
                Cust::New(k) => match n.keys.get(&k) {
                    Some(&id) => id,
                    None => {
                        n.customer += 1 + r.below(3) as i64;
                        n.keys.insert(k, n.customer);
                        n.customer
                    }
                },
            };
            st.customer = Some(st.customer.unwrap_or(id));
            if login {
                (st.customer, st.by_guest) = (Some(id), false);
            }
            st.zone = zone;
            n.addr += 1 + r.below(2) as i64;
            st.ship_addr = Some(n.addr);
            if st.bill_addr.is_none() {
                n.addr += 1;
                st.bill_addr = Some(n.addr);
            }
            st.checkout = "addressed";
        }
        Ev::Ship(express) if st.state == "cart" => (st.express, st.checkout) = (express, "shipping_selected"),
        Ev::Pay if st.state == "cart" => st.checkout = "payment_selected",
        Ev::Complete if st.state == "cart" => {
            (st.state, st.checkout, st.payment, st.shipping) = ("new", "completed", "awaiting_payment", "ready");
            n.number += 1;
            st.number = Some(n.number);
            if st.token.is_none() {
                st.token = Some(token(r));
            }
            (st.ip, st.notes, st.completed) = (Some(c.ip.clone()), c.notes.clone(), Some(t));
            if !st.by_guest {
                // The addresses saved into the customer's book.
                n.addr += r.below(3) as i64;
            }
        }
        Ev::Authorize if st.state == "new" && st.payment == "awaiting_payment" => st.payment = "authorized",
        Ev::Paid if st.state != "cancelled" && matches!(st.payment, "awaiting_payment" | "authorized") => {
            st.payment = "paid";
            if st.shipping == "shipped" {
                st.state = "fulfilled";
            }
        }
        Ev::Shipped if st.state == "new" && st.shipping == "ready" && matches!(st.payment, "paid" | "authorized") => {
            // Shipping captures an authorized payment.
            (st.shipping, st.payment, st.state) = ("shipped", "paid", "fulfilled");
        }
        Ev::Refund if st.payment == "paid" => st.payment = "refunded",
        Ev::Cancel if st.state == "new" && st.shipping != "shipped" => cancel(st),
        _ => return false,
    }
    st.updated = t;
    true
}

/// Everything in time order: the inserts, the requests and back-office actions, the two cron commands.
fn replay(r: &mut Rng, v: &mut [Cart]) {
    let mut ops: Vec<(i64, u8, Op)> = Vec::new();
    for (k, c) in v.iter().enumerate() {
        if c.ins >= NOW {
            continue;
        }
        ops.push((c.ins, 0, Op::Insert(k)));
        for (e, ev) in c.evs.iter().enumerate() {
            if ev.0 < NOW {
                ops.push((ev.0, 1, Op::Ev(k, e)));
            }
        }
    }
    for d in 1..=DAYS {
        let run = START + d * DAY + 2 * HOUR + 30 * MINUTE + r.range(1, 20) * SECOND;
        ops.push((run, 2, Op::Expire));
        ops.push((run + 30 * MINUTE, 2, Op::Unpaid));
    }
    ops.retain(|o| o.0 < NOW);
    ops.sort_by_key(|o| (o.0, o.1));
    let mut n = Counters { id: ID0, addr: ADDRESS0, customer: CUSTOMER0, number: NUMBER0, keys: HashMap::new() };
    for (t, _, op) in ops {
        match op {
            Op::Insert(k) => {
                n.id += 1 + i64::from(r.chance(0.002));
                let c = &mut v[k];
                let bill = c.billing.then(|| {
                    n.addr += 1;
                    n.addr
                });
                c.st = St {
                    id: n.id,
                    gross: c.gross,
                    customer: c.login,
                    by_guest: c.login.is_none(),
                    bill_addr: bill,
                    token: c.api.then(|| token(r)),
                    state: "cart",
                    checkout: "cart",
                    payment: "cart",
                    shipping: "cart",
                    updated: c.ins,
                    ..St::default()
                };
            }
            Op::Ev(k, e) => {
                if v[k].st.id != 0 && !v[k].st.deleted {
                    apply(r, &mut n, &mut v[k], e, t);
                }
            }
            Op::Expire => {
                for c in v.iter_mut() {
                    if c.st.id != 0 && !c.st.deleted && c.st.state == "cart" && secs(c.st.updated) < t - 2 * DAY {
                        c.st.deleted = true;
                    }
                }
            }
            Op::Unpaid => {
                let mut at = t + r.range(1, 5) * SECOND;
                for c in v.iter_mut() {
                    let st = &mut c.st;
                    let due = st.completed.is_some_and(|d| d < t - 5 * DAY);
                    if st.id != 0 && st.state == "new" && st.payment == "awaiting_payment" && due {
                        cancel(st);
                        at += r.range(30_000, 200_000);
                        st.updated = at;
                    }
                }
            }
        }
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(5_171_005);
    let mut w = world(&mut r);
    let mut v: Vec<Cart> = Vec::new();
    // The first visit of the channel after each of these sends its first add (or pickup) twice.
    let late: [(i64, usize); 3] = [(NOW - 21 * HOUR, WEB), (NOW - 11 * HOUR, APP), (NOW - 3 * HOUR, WEB)];
    let mut forced = [false; 3];
    for d in 0..=DAYS {
        let d0 = START + d * DAY;
        let wd = weekday(d0);
        let factor = match wd {
            5 => 0.85,
            6 => 1.15,
            _ => 1.0,
        };
        let mut starts: Vec<(i64, usize)> = Vec::new();
        for chan in [WEB, CH, APP] {
            for _ in 0..r.poisson(CHANNELS[chan].rate * factor) {
                starts.push((when(&mut r, d0, &RHYTHM), chan));
            }
        }
        starts.sort_unstable();
        for (t, chan) in starts {
            if t >= NOW - MINUTE {
                continue;
            }
            let mut x = visit(&mut r, &mut w, chan, t);
            let mut retry = if chan == APP { 0.04 } else { 0.02 };
            for (i, &(from, c)) in late.iter().enumerate() {
                if !forced[i] && c == chan && t > from && !x.lines.is_empty() {
                    (forced[i], retry) = (true, 1.0);
                }
            }
            let again = x.reach == 4 && r.chance(0.007);
            let unpaid = again && r.chance(0.8);
            if unpaid {
                x.pay = Pay::Unpaid;
            }
            let (k, done) = play(&mut r, &mut v, &x, None, retry);
            if again && let Some(tc) = done {
                reorder(&mut r, &mut v, &x, k, tc, unpaid);
            }
        }
        if wd < 5 {
            for _ in 0..r.poisson(CHANNELS[B2B].rate) {
                let t = when(&mut r, d0, &OFFICE);
                if t >= NOW - MINUTE {
                    continue;
                }
                let (mut x, k) = b2b_visit(&mut r, &w, t);
                // A customer with two sites orders the same again for the other one, naming the sites or not.
                let two = k < SITES.len() && x.reach == 4 && r.chance(0.45);
                let named = two && r.chance(0.35);
                if two {
                    x.notes = named.then(|| SITES[k].0.to_string());
                }
                let (_, done) = play(&mut r, &mut v, &x, None, 0.0);
                if two && let Some(tc) = done {
                    let mut y = x.clone();
                    (y.t, y.quick, y.intent) = (tc + wait(&mut r, 30, 240), true, Mark::Legit);
                    y.notes = named.then(|| SITES[k].1.to_string());
                    play(&mut r, &mut v, &y, None, 0.0);
                }
            }
        }
        match d {
            12 | 28 => {
                campaign(&mut r, &mut w, &mut v, d0 + 7 * HOUR + 30 * MINUTE, if d == 12 { 140 } else { 150 }, 5)
            }
            30 => campaign(&mut r, &mut w, &mut v, d0 + 9 * HOUR, 60, 4),
            _ => {}
        }
    }
    regulars(&mut r, &w, &mut v);

    v.sort_by_key(|c| c.ins);
    replay(&mut r, &mut v);

    let mut rows: Vec<usize> = (0..v.len()).filter(|&k| v[k].st.id != 0 && !v[k].st.deleted).collect();
    rows.sort_by_key(|&k| v[k].st.id);
    // What a scan compares: everything but the ids, numbers, tokens, address rows, times and states.
    let key = |c: &Cart| {
        let st = &c.st;
        let items = st.items();
        format!(
            "{}|{:?}|{}|{}|{}|{:?}|{}|{:?}|{}",
            c.chan,
            st.customer,
            c.locale,
            items,
            fee(c.chan, st.zone, st.express, items),
            st.notes,
            st.by_guest,
            st.ip,
            st.coupon
        )
    };
    // Equal rows of other visits close by hide a retry: a scan cannot tell it from them.
    let mut equal: HashMap<String, Vec<(i64, usize)>> = HashMap::new();
    for &k in &rows {
        equal.entry(key(&v[k])).or_default().push((v[k].at, v[k].grp));
    }
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("sylius_order", &columns);
    let mut present: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    for &k in &rows {
        let c = &v[k];
        let st = &c.st;
        let kk = key(c);
        let first = present.insert(c.grp);
        let fresh = seen.insert(kk.clone());
        let mark = if !first {
            Mark::Retry
        } else if c.intent == Mark::Legit || !fresh {
            Mark::Legit
        } else {
            Mark::Plain
        };
        let items = st.items();
        let adj = fee(c.chan, st.zone, st.express, items);
        f.push(&[
            ("id", V::I(st.id)),
            ("shipping_address_id", V::opt_i(st.ship_addr)),
            ("billing_address_id", V::opt_i(st.bill_addr)),
            ("channel_id", V::I(CHANNELS[c.chan].id)),
            ("promotion_coupon_id", if st.coupon { V::I(COUPON) } else { V::Null }),
            ("customer_id", V::opt_i(st.customer)),
            ("number", st.number.map_or(V::Null, |n| V::t(format!("{n:09}")))),
            ("notes", V::opt_t(st.notes.as_deref())),
            ("state", V::t(st.state)),
            ("checkout_completed_at", st.completed.map_or(V::Null, V::AtSecs)),
            ("items_total", V::I(items)),
            ("adjustments_total", V::I(adj)),
            ("total", V::I(items + adj)),
            ("created_at", V::AtSecs(c.at)),
            ("updated_at", V::AtSecs(st.updated)),
            ("currency_code", V::t(CHANNELS[c.chan].currency)),
            ("locale_code", V::t(c.locale)),
            ("checkout_state", V::t(st.checkout)),
            ("payment_state", V::t(st.payment)),
            ("shipping_state", V::t(st.shipping)),
            ("created_by_guest", V::B(st.by_guest)),
            ("token_value", V::opt_t(st.token.as_deref())),
            ("customer_ip", V::opt_t(st.ip.as_deref())),
        ]);
        f.mark(st.id, mark);
        let near = equal[&kk].iter().any(|&(at, g)| g != c.grp && (at - c.at).abs() <= 5 * MINUTE);
        if mark == Mark::Retry && (c.hidden || near) {
            f.hidden.insert(st.id.to_string());
        }
    }
    f
}
