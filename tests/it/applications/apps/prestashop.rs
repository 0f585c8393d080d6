//! PrestaShop 8 (PHP, its own ObjectModel over PDO; MySQL/MariaDB only): `ps_orders`, as
//! `PaymentModule::validateOrder` writes it from PrestaShop Checkout's return controller (`validate`) and its PayPal
//! webhook (both run `CreateOrderCommandHandler`), from the transfer and cheque modules' validation controllers, from
//! the back office's new-order page (`AddOrderFromBackOfficeHandler`; reorders through `DuplicateOrderCartHandler`),
//! from a subscription module's daily cron (Webkul's `wkproductsubscription`: a new cart per renewal, then
//! `validateOrder`) and from Lengow's marketplace import (`LengowPaymentModule::makeOrder`, its copy of
//! `validateOrder`); and as the shop works the orders afterwards: a French shop of food supplements and natural
//! cosmetics on PrestaShop 8.2, 61 days to the end of September, 3,864 orders.
//! Read: PrestaShop 8.2.0 as vendored in Naturamedicatrix/Naturamedicatrix_prestashop_8 (f837084; `AppKernel` 8.2.0):
//! classes/PaymentModule.php (`validateOrder`, `createOrderFromCart`), classes/order/Order.php (`$definition`, `add`,
//! `generateReference`, `addOrderPayment`, `setInvoice`, `setLastInvoiceNumber`, `setDeliverySlip`, `setDelivery`,
//! `setDeliveryNumber`), classes/order/OrderHistory.php (`changeIdOrderState`), classes/Cart.php (`orderExists`: a
//! bare count, no cache, no lock; `$recyclable`, `$gift`), classes/ObjectModel.php (`add`, `update`, `formatValue`),
//! classes/db/Db.php (`insert` writes '' and NULL as NULL when `$null_values`), classes/checkout/CheckoutSession.php
//! and CheckoutDeliveryStep.php (the gift message is '' unless a gift), src/Core/Security/PasswordGenerator.php
//! (`NO_NUMERIC` is A-Z), src/Adapter/Order/CommandHandler/AddOrderFromBackOfficeHandler.php,
//! src/PrestaShopBundle/Install/Install.php (`COLLATION`), translations/fr-FR/ModulesWirepaymentAdmin.fr-FR.xlf and
//! ModulesCheckpaymentAdmin.fr-FR.xlf; modules/ps_checkout 8.4.2.2 (src/Order/CommandHandler/
//! CreateOrderCommandHandler.php, src/Order/State/Service/OrderStateMapper.php, src/FundingSource/
//! FundingSourceTranslationProvider.php, translations/fr.php), ps_wirepayment and ps_checkpayment
//! (controllers/front/validation.php), wkproductsubscription (controllers/front/cron.php: `createSubscriberCart`,
//! `createSubscriptionOrder`). PrestaShop/PrestaShop install-dev/data/db_structure.sql (a 9.0 development copy, for
//! the statement's form) and install-dev/data/xml/order_state.xml (0e45caa); PrestaShop/autoupgrade (fda0950)
//! upgrade/sql/1.7.7.0.sql, 8.0.0.sql (`shipping_number` dropped), 8.1.7.sql (`gift_message`, `note` to MEDIUMTEXT),
//! 9.0.0.sql (the `invoice_date` index and `reference` VARCHAR(255) come with 9 only);
//! stephane-klein/ecommerce-database-examples (d52aaa1) prestashop/schema-8.0.2.sql, a fresh 8.0.2 install's dump;
//! lengow/plugin-prestashop (de7ea2b) classes/models/LengowPaymentModule.php, LengowImportOrder.php. Issues:
//! PrestaShop/PrestaShop #16490, #17266, #17312, #12073, #17991, #11115, #20248, PR #9373; PrestaShopCorp/ps_checkout
//! #1546; mollie/PrestaShop #493, #1251; Adyen/adyen-prestashop #106; TrogloGeek/prestashop-tggatos-module #46.
//! The DDL is what 8.2's installer runs (`PREFIX_` ps_, `ENGINE_TYPE` InnoDB, `COLLATION` the database's
//! utf8mb4_general_ci); orders have no foreign keys.
//! On a create: `orderExists()`, the package list, a fresh `reference` (9 letters A-Z, drawn again while taken), and
//! per package (one per carrier the cart needs) `createOrderFromCart`: the cart's customer, addresses, language,
//! currency and carrier; `secure_key` the cart's (the customer's md5, the same on all their orders); `payment` the
//! name the module passes ("Carte", "PayPal", "Transfert bancaire", "PrestaShop Checkout", a marketplace code);
//! `module`; the cart's totals in cents; `round_mode` 2, `round_type` 1 (Lengow leaves it 0); `recyclable`,
//! `mobile_theme` 0; `invoice_date`/`delivery_date` '0000-00-00 00:00:00'; `date_add` = `date_upd` = `date()` (shop
//! time, Europe/Paris). Then, for a logable state, the payment on the last order of the set (`total_paid_real`), and
//! `changeIdOrderState`: `current_state`, `valid`, an invoice number and date for Payment accepted, `date_upd` a moment
//! later; that update writes '' where the insert left `gift_message` and `note` NULL.
//! Later: prepared (Preparation in progress: a delivery number and date) and shipped (Shipped: the date again) by the
//! staff on weekdays, Delivered by the carrier module's hourly tracking cron; transfers and cheques matched in the
//! morning move to Payment accepted (invoice, `total_paid_real`), unpaid ones are cancelled after two weeks;
//! cancellations before shipping, refunds after; private notes; every change bumps `date_upd`; nothing is deleted.
//! Retries (67, 1.7 %): `orderExists()` only sees what is inserted, so a second attempt for the same cart makes a row
//! only while the first is between its check and its insert: PrestaShop Checkout's return and its webhook in the same
//! second or two, or a reload of a hanging validation (#17266, #16490: "created within 1 second"), a double submit of
//! a transfer or cheque order (#17312, #12073) or of the back office's "Create the order": same cart, same
//! everything, a fresh reference, 0-5 s later (48; three in the last day). A later attempt on that cart is refused, so
//! a retry after a timeout gets through only with a new cart: a customer shown an error while the payment went
//! through pays again 2-25 minutes later (ps_checkout #1546), or the next morning (3, hidden: a repeat purchase looks
//! the same); the subscription cron called again by the web cron after its timeout (`client_retry_delay`, or two
//! schedulers at once) makes new carts for the renewals the first run had not made yet (9, on two days). Extra rows
//! are cancelled (some with a note naming the first), refunded, shipped twice, or not noticed yet.
//! Legitimate repeats (310): split orders of one cart (a heavy product only Colissimo carries: same cart and
//! reference, the second within the second); "Reorder" from the order history and in the back office; a transfer
//! order redone by card minutes later (the transfer one cancelled); subscription renewals every 14, 30 or 60 days
//! in the 06:00 batch, and customers with two identical subscriptions; marketplace buyers who ordered the same thing
//! twice (one import run); returning customers buying the same again.
//! Guessed: the shop, catalogue, carriers, prices, customers, rates and rhythms; the payment mix; the race and
//! double-submit shares and gaps; how the staff treats duplicates; the subscription set-up (renewals through
//! PrestaShop Checkout in Payment accepted, the cron at 06:00, seconds per renewal, the two double runs); Lengow's
//! import every 30 minutes; the tracking cron; id gaps (abandoned carts, accounts without orders).
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, day, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql];

/// `PREFIX_orders` of install-dev/data/db_structure.sql as 8.2 ships it.
const MYSQL: &str = r#"CREATE TABLE `ps_orders` (
  `id_order` int(10) unsigned NOT NULL auto_increment,
  `reference` VARCHAR(9),
  `id_shop_group` INT(11) UNSIGNED NOT NULL DEFAULT '1',
  `id_shop` INT(11) UNSIGNED NOT NULL DEFAULT '1',
  `id_carrier` int(10) unsigned NOT NULL,
  `id_lang` int(10) unsigned NOT NULL,
  `id_customer` int(10) unsigned NOT NULL,
  `id_cart` int(10) unsigned NOT NULL,
  `id_currency` int(10) unsigned NOT NULL,
  `id_address_delivery` int(10) unsigned NOT NULL,
  `id_address_invoice` int(10) unsigned NOT NULL,
  `current_state` int(10) unsigned NOT NULL,
  `secure_key` varchar(32) NOT NULL DEFAULT '-1',
  `payment` varchar(255) NOT NULL,
  `conversion_rate` decimal(13, 6) NOT NULL DEFAULT 1,
  `module` varchar(255) DEFAULT NULL,
  `recyclable` tinyint(1) unsigned NOT NULL DEFAULT '0',
  `gift` tinyint(1) unsigned NOT NULL DEFAULT '0',
  `gift_message` MEDIUMTEXT,
  `mobile_theme` tinyint(1) NOT NULL DEFAULT '0',
  `total_discounts` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_discounts_tax_incl` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_discounts_tax_excl` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_paid` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_paid_tax_incl` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_paid_tax_excl` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_paid_real` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_products` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_products_wt` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_shipping` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_shipping_tax_incl` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_shipping_tax_excl` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `carrier_tax_rate` DECIMAL(10, 3) NOT NULL DEFAULT '0.00',
  `total_wrapping` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_wrapping_tax_incl` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `total_wrapping_tax_excl` decimal(20, 6) NOT NULL DEFAULT '0.00',
  `round_mode` tinyint(1) NOT NULL DEFAULT '2',
  `round_type` tinyint(1) NOT NULL DEFAULT '1',
  `invoice_number` int(10) unsigned NOT NULL DEFAULT '0',
  `delivery_number` int(10) unsigned NOT NULL DEFAULT '0',
  `invoice_date` datetime NOT NULL,
  `delivery_date` datetime NOT NULL,
  `valid` int(1) unsigned NOT NULL DEFAULT '0',
  `date_add` datetime NOT NULL,
  `date_upd` datetime NOT NULL,
  `note` MEDIUMTEXT,
  PRIMARY KEY (`id_order`),
  KEY `reference` (`reference`),
  KEY `id_customer` (`id_customer`),
  KEY `id_cart` (`id_cart`),
  KEY `invoice_number` (`invoice_number`),
  KEY `id_carrier` (`id_carrier`),
  KEY `id_lang` (`id_lang`),
  KEY `id_currency` (`id_currency`),
  KEY `id_address_delivery` (`id_address_delivery`),
  KEY `id_address_invoice` (`id_address_invoice`),
  KEY `id_shop_group` (`id_shop_group`),
  KEY (`current_state`),
  KEY `id_shop` (`id_shop`),
  INDEX `date_add`(`date_add`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE utf8mb4_general_ci"#;

/// The table as a fresh PrestaShop 8.2 install leaves it.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL.to_string(),
        Engine::Postgres | Engine::Sqlite => unreachable!("PrestaShop runs on MySQL/MariaDB only"),
    }
}

const COLUMNS: &str = "id_order reference id_shop_group id_shop id_carrier id_lang id_customer id_cart id_currency \
    id_address_delivery id_address_invoice current_state secure_key payment conversion_rate module recyclable gift \
    gift_message mobile_theme total_discounts total_discounts_tax_incl total_discounts_tax_excl total_paid \
    total_paid_tax_incl total_paid_tax_excl total_paid_real total_products total_products_wt total_shipping \
    total_shipping_tax_incl total_shipping_tax_excl carrier_tax_rate total_wrapping total_wrapping_tax_incl \
    total_wrapping_tax_excl round_mode round_type invoice_number delivery_number invoice_date delivery_date valid \
    date_add date_upd note";

const NOW: i64 = T0;
const DAYS: i64 = 61;
/// Saturday 1 August 2026. Times are the shop's (Europe/Paris), as `date()` writes them.
const START: i64 = T0 - DAYS * DAY;
/// Orders, carts, customers, addresses, invoices and delivery slips made before the window.
const ID0: i64 = 18_406;
const CART0: i64 = 61_207;
const CUST0: i64 = 14_288;
const ADDR0: i64 = 19_874;
const INV0: i64 = 16_233;
const DLV0: i64 = 15_102;
/// The first card order after each of these lands twice (the webhook in the return's second).
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 9 * HOUR, NOW - 2 * HOUR];
/// Orders per hour of the day, relative: lunch and the evening.
const SHOP: [i64; 24] = [3, 2, 1, 1, 1, 1, 2, 4, 6, 8, 9, 10, 11, 10, 9, 9, 9, 10, 11, 13, 14, 12, 8, 5];
/// The back office's phone orders.
const OFFICE: [i64; 24] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 10, 8, 3, 2, 8, 9, 8, 5, 0, 0, 0, 0, 0, 0];
/// Days (from the start) when the subscription cron ran twice.
const DOUBLE_RUNS: [i64; 2] = [23, 47];

/// The catalogue: price with tax in cents, VAT per mille (supplements and teas 5.5 %, cosmetics 20 %). The last three
/// are heavy (5 kg) and go by Colissimo to the door only.
#[rustfmt::skip]
const PRODUCTS: [(i64, i64); 36] = [
    (1490, 55), (1990, 55), (2490, 55), (890, 55), (3290, 55), (2790, 55), (1590, 55), (2190, 55), (3990, 55),
    (990, 55), (1290, 55), (4490, 55), (1890, 55), (2290, 55), (690, 55), (1190, 55), (2990, 55), (1690, 55),
    (3490, 55), (790, 55), (1450, 200), (2250, 200), (1850, 200), (2950, 200), (990, 200), (3450, 200), (1290, 200),
    (2690, 200), (1590, 200), (4200, 200), (2390, 55), (1790, 55), (3190, 55), (5990, 55), (4990, 55), (6490, 55),
];
/// Products ordinary carts take.
const CATALOGUE: u64 = 33;
const BULKY: [usize; 3] = [33, 34, 35];
/// What people subscribe to.
const SUBSCRIBABLE: [usize; 8] = [0, 1, 2, 3, 5, 8, 11, 16];
/// Carriers: id (PrestaShop gives a carrier a new id on every edit), price with tax in France and Belgium. Free from
/// 49 EUR, except Chronopost; Switzerland pays 14.90 by Colissimo.
const CARRIERS: [(i64, i64); 4] = [(31, 690), (32, 490), (35, 395), (28, 1390)];
const HOME: usize = 0;
const CHRONO: usize = 3;
/// Lengow's marketplaces: code (what `payment` gets), weight, shipping charged with tax, carrier.
const MARKETS: [(&str, i64, i64, usize); 4] =
    [("amazon_fr", 55, 0, HOME), ("cdiscount", 20, 499, HOME), ("manomano_fr", 15, 590, 2), ("fnac", 10, 399, HOME)];

const NOTES: &[&str] = &[
    "Client a appelé : laisser le colis chez la voisine si absent",
    "Glisser des échantillons (cliente fidèle)",
    "Adresse corrigée par téléphone",
    "Colis à regrouper avec la commande précédente",
    "Relance virement envoyée",
    "Client pro : facture au nom de la société",
];
const GIFT_MESSAGES: &[&str] =
    &["Joyeux anniversaire !", "Bon rétablissement, je t'embrasse", "Avec toute mon affection", "Prends soin de toi"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Land {
    Fr,
    Be,
    Ch,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    Card,
    PayPal,
    Apple,
    Google,
    Bancontact,
    Wire,
    Check,
}

impl Method {
    fn checkout(self) -> bool {
        !matches!(self, Method::Wire | Method::Check)
    }

    /// `payment`, `module` and the state the module passes to `validateOrder`, in the customer's language.
    fn label(self, lang: i64) -> (&'static str, &'static str, i64) {
        let en = lang == 2;
        match self {
            Method::Card => (if en { "Card" } else { "Carte" }, "ps_checkout", 2),
            Method::PayPal => ("PayPal", "ps_checkout", 2),
            Method::Apple => ("Apple Pay", "ps_checkout", 2),
            Method::Google => ("Google Pay", "ps_checkout", 2),
            Method::Bancontact => ("Bancontact", "ps_checkout", 2),
            Method::Wire => (if en { "Wire payment" } else { "Transfert bancaire" }, "ps_wirepayment", 10),
            Method::Check => (if en { "Payments by check" } else { "Chèque" }, "ps_checkpayment", 1),
        }
    }
}

/// Amounts in cents of the order's currency, without and with tax.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Money {
    prod: i64,
    prod_wt: i64,
    disc: i64,
    disc_wt: i64,
    ship: i64,
    ship_wt: i64,
    wrap: i64,
    wrap_wt: i64,
}

impl Money {
    fn paid(&self) -> i64 {
        self.prod - self.disc + self.ship + self.wrap
    }

    fn paid_wt(&self) -> i64 {
        self.prod_wt - self.disc_wt + self.ship_wt + self.wrap_wt
    }
}

#[derive(Clone, PartialEq)]
struct Basket {
    lines: Vec<(usize, i64)>,
    /// Percent off the products, or (negative) a fixed amount in cents.
    voucher: i64,
    carrier: usize,
    gift: bool,
    msg: &'static str,
}

#[derive(Clone)]
struct Cust {
    reg: i64,
    old: bool,
    id: i64,
    addr: (i64, i64),
    two: bool,
    key: String,
    lang: i64,
    land: Land,
    carrier: usize,
    pay: Method,
    /// The last order's basket (without voucher or gift), for "Reorder".
    last: Option<(i64, Basket)>,
}

#[derive(Clone)]
enum Ev {
    State(i64),
    Note(String),
}

/// An order as `validateOrder` inserted it, and what happens to it later.
#[derive(Clone)]
struct Row {
    at: i64,
    cust: usize,
    cart: usize,
    carrier: i64,
    money: Money,
    payment: &'static str,
    module: &'static str,
    state: i64,
    /// The payment was recorded on this order (the last of its set) at creation.
    real: bool,
    gift: bool,
    msg: &'static str,
    round_type: i64,
    reference: String,
    mark: Mark,
    hidden: bool,
    evs: Vec<(i64, Ev)>,
}

struct World {
    custs: Vec<Cust>,
    /// Registered customers who order again, the most active first.
    pool: Vec<usize>,
    /// When each cart was made.
    carts: Vec<i64>,
    refs: HashSet<String>,
}

impl World {
    fn cart(&mut self, at: i64) -> usize {
        self.carts.push(at);
        self.carts.len() - 1
    }

    /// `Order::generateReference()`: nine letters, drawn again while taken.
    fn reference(&mut self, r: &mut Rng) -> String {
        loop {
            let s: String = (0..9).map(|_| char::from(b'A' + r.below(26) as u8)).collect();
            if self.refs.insert(s.clone()) {
                return s;
            }
        }
    }

    fn join(&mut self, r: &mut Rng, reg: i64, old: bool) -> usize {
        let c = person(r, reg, old);
        self.custs.push(c);
        self.custs.len() - 1
    }
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

fn when(r: &mut Rng, d0: i64, rhythm: &[i64; 24]) -> i64 {
    let h = r.weighted(rhythm) as i64;
    d0 + h * HOUR + r.below(HOUR as u64) as i64
}

/// The first moment from `t` inside hours [lo, hi) of a weekday, a little way in (the staff works through a queue).
fn work(r: &mut Rng, t: i64, lo: i64, hi: i64) -> i64 {
    let mut d = day(t);
    loop {
        let (a, b) = (d + lo * HOUR, d + hi * HOUR);
        if weekday(d) < 5 && t < b {
            let from = t.max(a);
            return from + r.below(((b - from) / 3).max(1) as u64) as i64;
        }
        d += DAY;
    }
}

/// x * num / den, rounded half up.
fn share(x: i64, num: i64, den: i64) -> i64 {
    (2 * x * num + den) / (2 * den)
}

fn excl(ttc: i64, vat: i64) -> i64 {
    share(ttc, 1000, 1000 + vat)
}

fn chf(x: i64) -> i64 {
    share(x, 9371, 10000)
}

/// The cart's totals as `createOrderFromCart` takes them; `whole` is the whole cart's amount for the free shipping
/// threshold when the cart is split.
fn money(b: &Basket, land: Land, whole: Option<i64>) -> Money {
    let (mut prod, mut prod_wt) = (0, 0);
    for &(p, q) in &b.lines {
        let (ttc, vat) = PRODUCTS[p];
        prod_wt += q * ttc;
        prod += q * excl(ttc, vat);
    }
    let (disc, disc_wt) = if b.voucher > 0 {
        (share(prod, b.voucher, 100), share(prod_wt, b.voucher, 100))
    } else if b.voucher < 0 {
        (share(-b.voucher, prod, prod_wt), -b.voucher)
    } else {
        (0, 0)
    };
    let total = whole.unwrap_or(prod_wt - disc_wt);
    let ship_wt = match land {
        Land::Ch => 1490,
        _ if total >= 4900 && b.carrier != CHRONO => 0,
        _ => CARRIERS[b.carrier].1,
    };
    let (wrap, wrap_wt) = if b.gift { (excl(250, 200), 250) } else { (0, 0) };
    let m = Money { prod, prod_wt, disc, disc_wt, ship: excl(ship_wt, 200), ship_wt, wrap, wrap_wt };
    if land != Land::Ch {
        return m;
    }
    Money {
        prod: chf(m.prod),
        prod_wt: chf(m.prod_wt),
        disc: chf(m.disc),
        disc_wt: chf(m.disc_wt),
        ship: chf(m.ship),
        ship_wt: chf(m.ship_wt),
        wrap: chf(m.wrap),
        wrap_wt: chf(m.wrap_wt),
    }
}

fn any_pay(r: &mut Rng, land: Land) -> Method {
    let bancontact = if land == Land::Be { 12 } else { 0 };
    const PAYS: [Method; 7] =
        [Method::Card, Method::PayPal, Method::Apple, Method::Google, Method::Bancontact, Method::Wire, Method::Check];
    PAYS[r.weighted(&[44, 30, 7, 2, bancontact, 10, 3])]
}

fn person(r: &mut Rng, reg: i64, old: bool) -> Cust {
    let land = match r.below(100) {
        0..=86 => Land::Fr,
        87..=95 => Land::Be,
        _ => Land::Ch,
    };
    let carrier = if land == Land::Ch { HOME } else { r.weighted(&[34, 22, 36, 8]) };
    let lang = if r.chance(0.05) { 2 } else { 1 };
    let (two, key) = (r.chance(0.12), r.hex(32));
    let pay = any_pay(r, land);
    Cust { reg, old, id: 0, addr: (0, 0), two, key, lang, land, carrier, pay, last: None }
}

fn basket(r: &mut Rng, cu: &Cust, first: bool) -> Basket {
    let n = 1 + r.weighted(&[40, 30, 18, 12]);
    let mut lines: Vec<(usize, i64)> = Vec::new();
    while lines.len() < n {
        let p = r.skewed(CATALOGUE) as usize;
        if lines.iter().all(|l| l.0 != p) {
            let q = 1 + r.weighted(&[80, 15, 5]) as i64;
            lines.push((p, q));
        }
    }
    lines.sort_unstable();
    let voucher = if first && r.chance(0.3) {
        10
    } else if r.chance(0.06) {
        15
    } else if r.chance(0.04) {
        -500
    } else {
        0
    };
    let gift = r.chance(0.02);
    let msg = if gift && r.chance(0.6) { r.one(GIFT_MESSAGES) } else { "" };
    Basket { lines, voucher, carrier: cu.carrier, gift, msg }
}

#[allow(clippy::too_many_arguments)]
fn row(
    w: &World,
    c: usize,
    cart: usize,
    at: i64,
    b: &Basket,
    m: Money,
    pay: Method,
    reference: &str,
    mark: Mark,
) -> Row {
    let (payment, module, state) = pay.label(w.custs[c].lang);
    Row {
        at,
        cust: c,
        cart,
        carrier: CARRIERS[b.carrier].0,
        money: m,
        payment,
        module,
        state,
        real: flags(state).1,
        gift: b.gift,
        msg: b.msg,
        round_type: 1,
        reference: reference.to_string(),
        mark,
        hidden: false,
        evs: Vec::new(),
    }
}

/// `invoice`, `logable`, `delivery`, `paid` of the installed order states (1-13).
fn flags(s: i64) -> (bool, bool, bool, bool) {
    match s {
        2 | 11 => (true, true, false, true),
        3..=5 => (true, true, true, true),
        7 => (true, false, false, false),
        9 => (true, false, false, true),
        _ => (false, false, false, false),
    }
}

/// A paid order's way through the shop: prepared, shipped, delivered (the tracking cron, hourly at :05), sometimes
/// cancelled before or refunded after.
fn ship(r: &mut Rng, paid: i64, evs: &mut Vec<(i64, Ev)>) {
    if r.chance(0.012) {
        let x = paid + r.range(20, 600) * MINUTE;
        let at = work(r, x, 9, 18);
        evs.push((at, Ev::State(6)));
        return;
    }
    let x = paid + r.range(10, 40) * MINUTE;
    let prep = work(r, x, 9, 15);
    evs.push((prep, Ev::State(3)));
    let x = prep + r.range(40, 240) * MINUTE;
    let out = work(r, x, 14, 18);
    evs.push((out, Ev::State(4)));
    if r.chance(0.07) {
        return;
    }
    let days = 1 + r.weighted(&[45, 35, 15, 5]) as i64;
    let mut got = day(out) + days * DAY + r.range(8, 19) * HOUR + 5 * MINUTE + r.range(1, 40) * SECOND + micros(r);
    if weekday(got) == 6 {
        got += DAY;
    }
    evs.push((got, Ev::State(5)));
    if r.chance(0.012) {
        let x = got + r.range(2, 12) * DAY;
        let at = work(r, x, 9, 18);
        evs.push((at, Ev::State(7)));
    }
}

/// What the shop does with an order created in `state` at `t`.
fn normal(r: &mut Rng, state: i64, t: i64, evs: &mut Vec<(i64, Ev)>) {
    if state == 10 || state == 1 {
        // A transfer (1-5 days) or a cheque (3-8 days) matched in the morning, else cancelled after two weeks.
        let (lo, hi) = if state == 10 { (1, 5) } else { (3, 8) };
        let x = r.below(100);
        if x < 74 {
            let y = t + r.range(lo, hi) * DAY;
            let paid = work(r, y, 9, 12);
            evs.push((paid, Ev::State(2)));
            ship(r, paid, evs);
        } else if x < 92 {
            let y = t + r.range(12, 18) * DAY;
            let at = work(r, y, 9, 18);
            evs.push((at, Ev::State(6)));
        }
    } else {
        ship(r, t, evs);
    }
    if r.chance(0.03) {
        let y = t + r.range(10, 900) * MINUTE;
        let at = work(r, y, 9, 18);
        evs.push((at, Ev::Note(r.one(NOTES).to_string())));
    }
}

/// What becomes of a race's extra order, `first` being the reference of the one it doubles.
fn duplicate(r: &mut Rng, first: &str, t: i64, paid: bool) -> Vec<(i64, Ev)> {
    let mut evs = Vec::new();
    if !paid {
        // The customer transfers once: the extra is cancelled when the transfer is matched, or stays.
        if r.chance(0.7) {
            let y = t + r.range(1, 6) * DAY;
            let at = work(r, y, 9, 12);
            evs.push((at, Ev::State(6)));
        }
        return evs;
    }
    match r.below(20) {
        0..=9 => {
            let y = t + r.range(20, 900) * MINUTE;
            let at = work(r, y, 9, 18);
            evs.push((at, Ev::State(6)));
            if r.chance(0.5) {
                let note = format!("Doublon de la commande {first}, annulée");
                evs.push((at + r.range(20, 200) * SECOND, Ev::Note(note)));
            }
        }
        10..=13 => {
            let y = t + r.range(1, 3) * DAY;
            let at = work(r, y, 9, 18);
            evs.push((at, Ev::State(7)));
            evs.push((at + r.range(30, 300) * SECOND, Ev::Note(format!("Doublon de {first}, remboursé via PayPal"))));
        }
        14..=17 => ship(r, t, &mut evs),
        _ => {}
    }
    evs
}

/// The gap between a return and a webhook (or a reload) that both passed `orderExists()`.
fn race_gap(r: &mut Rng) -> i64 {
    match r.below(10) {
        0..=5 => r.range(60, 1_000) * 1_000,
        6..=8 => r.range(1_000, 2_500) * 1_000,
        _ => r.range(2_500, 5_000) * 1_000,
    }
}

/// One checkout in the front office.
fn checkout(r: &mut Rng, w: &mut World, v: &mut Vec<Row>, t: i64, forced: bool) {
    let returning = r.chance(0.42);
    let guest = !returning && r.chance(0.45);
    let c = if returning {
        w.pool[r.skewed(w.pool.len() as u64) as usize]
    } else {
        // A new account, or a guest one (a guest checking out again gets another).
        let reg = t - r.range(2, 25) * MINUTE - micros(r);
        let c = w.join(r, reg, false);
        if !guest {
            w.pool.push(c);
        }
        c
    };
    let (land, pref) = (w.custs[c].land, w.custs[c].pay);
    let mut pay = if r.chance(0.8) { pref } else { any_pay(r, land) };
    if forced {
        pay = Method::Card;
    }
    // "Reorder" in the order history: the last basket again.
    let last = w.custs[c].last.clone().filter(|(at, _)| *at < t - HOUR);
    let again = last.is_some() && r.chance(0.14);
    let mut b = match last {
        Some((_, b)) if again => b,
        _ => basket(r, &w.custs[c], !returning),
    };
    let split = pay.checkout() && !again && land != Land::Ch && b.carrier != HOME && r.chance(0.012);
    let lag = if r.chance(0.75) { r.range(3, 40) * MINUTE } else { r.range(1, 30) * HOUR };
    let cart = w.cart(t - lag - micros(r));
    let reference = w.reference(r);
    let mut set: Vec<Row> = Vec::new();
    if split {
        // One package per carrier: the heavy product by Colissimo, the rest by the relay carrier; one reference.
        (b.voucher, b.gift, b.msg) = (0, false, "");
        let heavy = Basket { lines: vec![(r.one(&BULKY), 1)], voucher: 0, carrier: HOME, gift: false, msg: "" };
        let whole = money(&b, land, None).prod_wt + money(&heavy, land, None).prod_wt;
        let mut first = row(w, c, cart, t, &b, money(&b, land, Some(whole)), pay, &reference, Mark::Plain);
        first.real = false;
        let at = t + r.range(150, 700) * 1_000;
        let second = row(w, c, cart, at, &heavy, money(&heavy, land, Some(whole)), pay, &reference, Mark::Legit);
        set.push(first);
        set.push(second);
    } else {
        let mark = if again { Mark::Legit } else { Mark::Plain };
        set.push(row(w, c, cart, t, &b, money(&b, land, None), pay, &reference, mark));
    }
    let mut evs = Vec::new();
    normal(r, set[0].state, t, &mut evs);
    for x in set.iter_mut() {
        x.evs = evs.clone();
    }
    let mut extra: Vec<Row> = Vec::new();
    // A second attempt for the same cart inside the first's check-to-insert window.
    let race = if pay.checkout() { forced || r.chance(0.015) } else { r.chance(0.025) };
    if race {
        let gap = if pay.checkout() { race_gap(r) } else { r.range(20, 100) * 1_000 + r.range(0, 900) * 1_000 };
        let again_ref = w.reference(r);
        let fate = duplicate(r, &reference, t + gap, pay.checkout());
        for x in &set {
            let mut e = x.clone();
            (e.at, e.reference, e.mark, e.evs) = (x.at + gap, again_ref.clone(), Mark::Retry, fate.clone());
            extra.push(e);
        }
    } else if pay.checkout() && !split && r.chance(0.0035) {
        // An error page while the payment went through: paid again with a new cart, minutes later (or the next
        // morning, when it looks like any repeat purchase).
        let long = r.chance(0.2);
        let t2 = if long {
            day(t) + DAY + r.range(7 * 60, 11 * 60) * MINUTE + r.range(0, 59) * SECOND + micros(r)
        } else {
            t + r.range(2, 25) * MINUTE + r.range(0, 59) * SECOND + micros(r)
        };
        let pay2 = match (r.chance(0.4), pay) {
            (true, Method::PayPal) => Method::Card,
            (true, _) => Method::PayPal,
            _ => pay,
        };
        let cart2 = w.cart(t2 - r.range(40, 240) * SECOND);
        let ref2 = w.reference(r);
        let mut e = row(w, c, cart2, t2, &b, set[0].money, pay2, &ref2, Mark::Retry);
        e.hidden = long;
        let x = r.below(100);
        let y = t2 + r.range(1, 3) * DAY;
        if x < 60 {
            let at = work(r, y, 9, 18);
            e.evs.push((at, Ev::State(7)));
            e.evs.push((at + r.range(30, 240) * SECOND, Ev::Note("Payée deux fois, remboursée".to_string())));
        } else if x < 85 {
            let y = t2 + r.range(2, 20) * HOUR;
            let at = work(r, y, 9, 18);
            e.evs.push((at, Ev::State(6)));
        } else {
            ship(r, t2, &mut e.evs);
        }
        extra.push(e);
    } else if pay == Method::Wire && !guest && r.chance(0.04) {
        // Ordered by transfer, then again by card a few minutes later: the transfer order is cancelled later.
        let t2 = t + r.range(45, 540) * SECOND + micros(r);
        let cart2 = w.cart(t2 - r.range(30, 150) * SECOND);
        let ref2 = w.reference(r);
        let mut e = row(w, c, cart2, t2, &b, set[0].money, Method::Card, &ref2, Mark::Legit);
        ship(r, t2, &mut e.evs);
        let y = t + r.range(1, 12) * DAY;
        let at = work(r, y, 9, 18);
        set[0].evs = vec![(at, Ev::State(6))];
        extra.push(e);
    }
    if b.voucher == 0 && !b.gift && !split {
        w.custs[c].last = Some((t, b));
    }
    v.extend(set);
    v.extend(extra);
}

/// An order an employee enters on the back office's new-order page (a phone order), often a reorder.
fn back_office(r: &mut Rng, w: &mut World, v: &mut Vec<Row>, t: i64) {
    let c = w.pool[r.skewed(w.pool.len() as u64) as usize];
    let land = w.custs[c].land;
    let last = w.custs[c].last.clone().filter(|(at, _)| *at < t - HOUR);
    let again = last.is_some() && r.chance(0.45);
    let b = match last {
        Some((_, b)) if again => b,
        _ => {
            let mut b = basket(r, &w.custs[c], false);
            (b.voucher, b.gift, b.msg) = (0, false, "");
            b
        }
    };
    // The employee picks the module and the state; labels in the employee's language.
    let (pay, state) = match r.below(20) {
        0..=10 => (Method::Wire, 10),
        11..=13 => (Method::Check, 1),
        _ => (Method::Wire, 2),
    };
    let cart = w.cart(t - r.range(2, 9) * MINUTE - micros(r));
    let reference = w.reference(r);
    let mark = if again { Mark::Legit } else { Mark::Plain };
    let mut o = row(w, c, cart, t, &b, money(&b, land, None), pay, &reference, mark);
    let (payment, module, _) = pay.label(1);
    (o.payment, o.module) = (payment, module);
    (o.state, o.real) = (state, state == 2);
    normal(r, state, t, &mut o.evs);
    if r.chance(0.03) {
        // "Create the order" clicked twice: the employee cancels the second at once.
        let mut e = o.clone();
        let ref2 = w.reference(r);
        (e.at, e.reference, e.mark) = (t + r.range(100, 900) * 1_000, ref2, Mark::Retry);
        e.evs = vec![(t + r.range(60, 600) * SECOND, Ev::State(6))];
        v.push(o);
        v.push(e);
    } else {
        v.push(o);
    }
    if !again {
        w.custs[c].last = Some((t, b));
    }
}

struct Sub {
    cust: usize,
    b: Basket,
    every: i64,
    phase: i64,
}

/// A renewal: the cron's new cart, then `validateOrder` through the first order's module.
fn renewal(r: &mut Rng, w: &mut World, s: &Sub, at: i64) -> Row {
    let cart = w.cart(at - r.range(300, 900) * 1_000);
    let reference = w.reference(r);
    let m = money(&s.b, w.custs[s.cust].land, None);
    let mut o = row(w, s.cust, cart, at, &s.b, m, Method::Card, &reference, Mark::Plain);
    o.payment = "PrestaShop Checkout";
    ship(r, at, &mut o.evs);
    o
}

fn subscriptions(r: &mut Rng, w: &mut World, v: &mut Vec<Row>) {
    let mut subs: Vec<Sub> = Vec::new();
    for i in 0..150 {
        let cust = w.pool[r.below(1_200) as usize];
        let lines = vec![(r.one(&SUBSCRIBABLE), 1 + r.weighted(&[85, 15]) as i64)];
        let b = Basket { lines, voucher: 10, carrier: w.custs[cust].carrier, gift: false, msg: "" };
        let every = [30, 14, 60][r.weighted(&[70, 15, 15])];
        let phase = r.below(every as u64) as i64;
        // Three customers subscribed twice to the same thing (two people at one address).
        if i % 50 == 7 {
            subs.push(Sub { cust, b: b.clone(), every, phase });
        }
        subs.push(Sub { cust, b, every, phase });
    }
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        let due: Vec<usize> =
            (0..subs.len()).filter(|&i| d >= subs[i].phase && (d - subs[i].phase) % subs[i].every == 0).collect();
        if due.is_empty() {
            continue;
        }
        // Each renewal checks the subscription with the payment provider, makes the order, mails it: seconds.
        let start = d0 + 6 * HOUR + r.range(2, 20) * SECOND + micros(r);
        let mut at = start;
        let mut made: Vec<(usize, i64, usize)> = Vec::new();
        for &i in &due {
            at += r.range(3_000, 9_000) * 1_000;
            made.push((i, at, v.len()));
            let o = renewal(r, w, &subs[i], at);
            v.push(o);
        }
        if !DOUBLE_RUNS.contains(&d) {
            continue;
        }
        // The web cron's second call: it reads the renewals not made yet and makes them again.
        let fetch = start + client_retry_delay(r) + 200_000;
        let mut at2 = fetch;
        for &(i, first, k) in &made {
            if first <= fetch {
                continue;
            }
            at2 += r.range(3_000, 9_000) * 1_000;
            let mut o = renewal(r, w, &subs[i], at2);
            // The later of the two is the extra: cancelled in the morning.
            let later = if at2 > first { &mut o } else { &mut v[k] };
            later.mark = Mark::Retry;
            let y = later.at;
            let at = work(r, y, 9, 12);
            later.evs = vec![
                (at, Ev::State(6)),
                (at + r.range(20, 120) * SECOND, Ev::Note("Doublon abonnement (cron lancé deux fois)".to_string())),
            ];
            v.push(o);
        }
    }
}

/// Lengow's import every 30 minutes: the marketplace orders placed since, one after another.
fn marketplaces(r: &mut Rng, w: &mut World, v: &mut Vec<Row>) {
    struct Placed {
        t: i64,
        market: usize,
        b: Basket,
        /// The order placed just before by the same buyer with the same basket.
        twin_of: Option<usize>,
    }
    let mut placed: Vec<Placed> = Vec::new();
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        for _ in 0..r.poisson(7.0) {
            let t = when(r, d0, &SHOP);
            let market = r.weighted(&MARKETS.map(|m| m.1));
            let n = 1 + r.weighted(&[80, 20]);
            let mut lines: Vec<(usize, i64)> = (0..n).map(|_| (r.skewed(CATALOGUE) as usize, 1)).collect();
            lines.sort_unstable();
            lines.dedup_by_key(|l| l.0);
            let b = Basket { lines, voucher: 0, carrier: MARKETS[market].3, gift: false, msg: "" };
            let twin = r.chance(0.015);
            let first = placed.len();
            placed.push(Placed { t, market, b: b.clone(), twin_of: None });
            if twin {
                let t2 = t + r.range(60, 900) * SECOND;
                placed.push(Placed { t: t2, market, b, twin_of: Some(first) });
            }
        }
    }
    let mut sorted: Vec<usize> = (0..placed.len()).collect();
    sorted.sort_by_key(|&i| placed[i].t);
    let mut buyer_of: Vec<Option<usize>> = vec![None; placed.len()];
    // Buyers per marketplace (Lengow finds a returning buyer by the marketplace's stable e-mail).
    let mut buyers: Vec<Vec<usize>> = vec![Vec::new(); MARKETS.len()];
    let (mut run, mut at) = (0, 0);
    for i in sorted {
        let p = &placed[i];
        // Imported by the first run a few minutes after it was placed (Lengow's API lags).
        let seen = p.t + 3 * MINUTE;
        let slot = seen - seen.rem_euclid(30 * MINUTE) + 30 * MINUTE;
        if slot != run {
            run = slot;
            at = slot + r.range(20, 50) * SECOND + micros(r);
        }
        at += r.range(1_000, 2_500) * 1_000;
        if at >= NOW {
            break;
        }
        let known = match p.twin_of {
            Some(j) => buyer_of[j],
            None if buyers[p.market].len() >= 20 && r.chance(0.08) => {
                let known = &buyers[p.market];
                Some(known[r.below(known.len() as u64) as usize])
            }
            None => None,
        };
        let c = match known {
            Some(c) => c,
            None => {
                let c = w.join(r, at - 1_500_000, false);
                let cu = &mut w.custs[c];
                (cu.land, cu.lang, cu.two) = (Land::Fr, 1, false);
                buyers[p.market].push(c);
                c
            }
        };
        buyer_of[i] = Some(c);
        let (code, _, ship_wt, _) = MARKETS[p.market];
        let mut m = money(&p.b, Land::Fr, Some(0));
        (m.ship_wt, m.ship) = (ship_wt, excl(ship_wt, 200));
        let cart = w.cart(at - r.range(400, 900) * 1_000);
        let reference = w.reference(r);
        let mark = if p.twin_of.is_some() { Mark::Legit } else { Mark::Plain };
        let mut o = row(w, c, cart, at, &p.b, m, Method::Card, &reference, mark);
        (o.payment, o.module, o.round_type) = (code, "lengow_payment", 0);
        ship(r, at, &mut o.evs);
        v.push(o);
    }
}

#[derive(Clone, Default)]
struct St {
    cur: i64,
    valid: bool,
    inv: i64,
    inv_at: Option<i64>,
    dlv: i64,
    dlv_at: Option<i64>,
    upd: i64,
    real: i64,
    note: String,
}

fn dec(cents: i64) -> V {
    V::Raw(format!("{}.{:02}0000", cents / 100, cents % 100))
}

fn date(t: Option<i64>) -> V {
    t.map_or_else(|| V::t("0000-00-00 00:00:00"), V::AtSecs)
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x5820);
    let mut w = World { custs: Vec::new(), pool: Vec::new(), carts: Vec::new(), refs: HashSet::new() };
    for _ in 0..1_400 {
        let reg = START - r.range(30, 1_500) * DAY - micros(&mut r);
        let c = w.join(&mut r, reg, true);
        w.pool.push(c);
    }
    let mut v: Vec<Row> = Vec::new();
    let mut late = 0;
    for d in 0..DAYS {
        let d0 = START + d * DAY;
        // August is slow (holidays); September picks up.
        let season = if d < 20 {
            0.75
        } else if d < 31 {
            0.9
        } else {
            1.1
        };
        let week = match weekday(d0) {
            5 => 0.85,
            6 => 1.1,
            _ => 1.0,
        };
        let mut ts: Vec<i64> = (0..r.poisson(52.0 * season * week)).map(|_| when(&mut r, d0, &SHOP)).collect();
        ts.sort_unstable();
        for t in ts {
            if t >= NOW - MINUTE {
                continue;
            }
            let forced = late < LATE.len() && t > LATE[late];
            late += usize::from(forced);
            checkout(&mut r, &mut w, &mut v, t, forced);
        }
        if weekday(d0) < 5 {
            for _ in 0..r.poisson(1.3) {
                let t = when(&mut r, d0, &OFFICE);
                back_office(&mut r, &mut w, &mut v, t);
            }
        }
    }
    subscriptions(&mut r, &mut w, &mut v);
    marketplaces(&mut r, &mut w, &mut v);
    v.retain(|x| x.at < NOW - SECOND);
    v.sort_by_key(|x| x.at);

    // Ids as the sequences gave them: accounts (some never order) and their addresses, carts (most abandoned).
    let mut taken: HashSet<i64> = HashSet::new();
    let mut addrs: HashSet<i64> = HashSet::new();
    let mut order: Vec<usize> = (0..w.custs.len()).collect();
    order.sort_by_key(|&c| w.custs[c].reg);
    let (mut next, mut next_addr) = (CUST0, ADDR0);
    for c in order {
        let cu = &mut w.custs[c];
        if cu.old {
            cu.id = loop {
                let id = r.range(2_000, CUST0 - 1);
                if taken.insert(id) {
                    break id;
                }
            };
            let mut pick = || loop {
                let a = r.range(3_000, ADDR0 - 1);
                if addrs.insert(a) {
                    break a;
                }
            };
            let d = pick();
            cu.addr = (d, if cu.two { pick() } else { d });
        } else {
            next += 1 + r.below(3) as i64;
            next_addr += 1 + r.below(2) as i64;
            cu.id = next;
            cu.addr = (next_addr, next_addr);
            if cu.two {
                next_addr += 1;
                cu.addr.1 = next_addr;
            }
        }
    }
    let mut carts: Vec<usize> = (0..w.carts.len()).collect();
    carts.sort_by_key(|&k| w.carts[k]);
    let mut cart_ids = vec![0_i64; w.carts.len()];
    let mut id = CART0;
    for k in carts {
        id += 1 + r.below(9) as i64;
        cart_ids[k] = id;
    }

    // The replay: states, invoice and delivery numbers, payments and notes, in time order.
    let mut evs: Vec<(i64, usize, usize)> = Vec::new();
    for (k, x) in v.iter().enumerate() {
        evs.push((x.at, k, usize::MAX));
        for (e, ev) in x.evs.iter().enumerate() {
            if ev.0 < NOW && ev.0 > x.at {
                evs.push((ev.0, k, e));
            }
        }
    }
    evs.sort_unstable();
    let (mut inv, mut dlv) = (INV0, DLV0);
    let mut st = vec![St::default(); v.len()];
    for (t, k, e) in evs {
        let (x, s) = (&v[k], &mut st[k]);
        if e == usize::MAX {
            let (invoice, logable, _, _) = flags(x.state);
            let lag = r.range(90, 1_400) * 1_000;
            (s.cur, s.valid, s.upd) = (x.state, logable, t + lag);
            if x.real && logable {
                s.real = x.money.paid_wt();
            }
            if invoice {
                inv += 1;
                (s.inv, s.inv_at) = (inv, Some(t + lag / 2));
            }
            continue;
        }
        match &x.evs[e].1 {
            Ev::Note(text) => (s.note, s.upd) = (text.clone(), t),
            &Ev::State(n) => {
                if s.cur == n || (matches!(s.cur, 6 | 7) && n != 7) {
                    continue;
                }
                let (invoice, logable, delivery, paid) = flags(n);
                (s.cur, s.valid, s.upd) = (n, logable, t);
                if invoice && s.inv == 0 {
                    inv += 1;
                    (s.inv, s.inv_at) = (inv, Some(t));
                }
                if paid && !flags(x.state).1 && s.real == 0 {
                    s.real = x.money.paid_wt();
                }
                if delivery {
                    if s.dlv == 0 {
                        dlv += 1;
                        s.dlv = dlv;
                    }
                    s.dlv_at = Some(t);
                }
            }
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("ps_orders", &columns);
    let mut seen: HashSet<String> = HashSet::new();
    for (k, (x, s)) in v.iter().zip(&st).enumerate() {
        let cu = &w.custs[x.cust];
        let m = x.money;
        let id = ID0 + 1 + k as i64;
        // Equal to an earlier order on all a new cart and a new reference leave alone: a repeat.
        let (c, g) = (x.cust, x.gift);
        let key = format!("{c}|{}|{}|{}|{m:?}|{g}|{}|{}", x.carrier, x.payment, x.module, x.msg, x.round_type);
        let fresh = seen.insert(key);
        let mark = match x.mark {
            Mark::Plain if !fresh => Mark::Legit,
            mark => mark,
        };
        let (currency, rate) = if cu.land == Land::Ch { (2, "0.937100") } else { (1, "1.000000") };
        f.push(&[
            ("id_order", V::I(id)),
            ("reference", V::t(&x.reference)),
            ("id_shop_group", V::I(1)),
            ("id_shop", V::I(1)),
            ("id_carrier", V::I(x.carrier)),
            ("id_lang", V::I(cu.lang)),
            ("id_customer", V::I(cu.id)),
            ("id_cart", V::I(cart_ids[x.cart])),
            ("id_currency", V::I(currency)),
            ("id_address_delivery", V::I(cu.addr.0)),
            ("id_address_invoice", V::I(cu.addr.1)),
            ("current_state", V::I(s.cur)),
            ("secure_key", V::t(&cu.key)),
            ("payment", V::t(x.payment)),
            ("conversion_rate", V::Raw(rate.to_string())),
            ("module", V::t(x.module)),
            ("recyclable", V::I(0)),
            ("gift", V::I(i64::from(x.gift))),
            ("gift_message", V::t(x.msg)),
            ("mobile_theme", V::I(0)),
            ("total_discounts", dec(m.disc_wt)),
            ("total_discounts_tax_incl", dec(m.disc_wt)),
            ("total_discounts_tax_excl", dec(m.disc)),
            ("total_paid", dec(m.paid_wt())),
            ("total_paid_tax_incl", dec(m.paid_wt())),
            ("total_paid_tax_excl", dec(m.paid())),
            ("total_paid_real", dec(s.real)),
            ("total_products", dec(m.prod)),
            ("total_products_wt", dec(m.prod_wt)),
            ("total_shipping", dec(m.ship_wt)),
            ("total_shipping_tax_incl", dec(m.ship_wt)),
            ("total_shipping_tax_excl", dec(m.ship)),
            ("carrier_tax_rate", V::Raw("20.000".to_string())),
            ("total_wrapping", dec(m.wrap_wt)),
            ("total_wrapping_tax_incl", dec(m.wrap_wt)),
            ("total_wrapping_tax_excl", dec(m.wrap)),
            ("round_mode", V::I(2)),
            ("round_type", V::I(x.round_type)),
            ("invoice_number", V::I(s.inv)),
            ("delivery_number", V::I(s.dlv)),
            ("invoice_date", date(s.inv_at)),
            ("delivery_date", date(s.dlv_at)),
            ("valid", V::I(i64::from(s.valid))),
            ("date_add", V::AtSecs(x.at)),
            ("date_upd", V::AtSecs(s.upd)),
            ("note", V::t(&s.note)),
        ]);
        f.mark(id, mark);
        if mark == Mark::Retry && x.hidden {
            f.hidden.insert(id.to_string());
        }
    }
    f
}
