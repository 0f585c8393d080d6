//! Odoo 18 (Python, the Odoo ORM, PostgreSQL): `sale_order`, as `sale.order`'s
//! `create()` writes it (the backend form's save, `execute_kw('sale.order',
//! 'create')` over XML-RPC from a shop connector, `base_import`), with its
//! `sale_order_line` rows.
//! Read: odoo/odoo addons/sale/models/sale_order.py (fields, `create`,
//! `action_confirm`, `_prepare_confirmation_values`, `_action_cancel`,
//! `_fetch_duplicate_orders`), odoo/odoo addons/sale/models/sale_order_line.py
//! (line fields; the stored copy is a later release, the columns here are
//! 18's: `product_uom`, `price_tax` a float8; the line table here keeps the
//! columns that carry the order's content and amounts, not all of them).
//! The ORM makes the table: `id SERIAL`, a column per stored field (Char and
//! Selection `varchar`, Monetary and digit Floats `numeric`, plain Floats
//! `float8`, Many2one `int4`, Datetime `timestamp` in UTC), `create_uid`,
//! `create_date`, `write_uid`, `write_date`; indexes `<table>__<column>_index`
//! (the trigram index on `name` is a btree without pg_trgm). No unique index
//! but the primary key.
//! On a create: `name` is the next number of ir.sequence `sale.order` (`S`
//! and five digits, a PostgreSQL sequence: a rolled back create leaves a
//! gap); `create_date` and `write_date` are the transaction's `now()`, to the
//! microsecond, equal for every record of one transaction (an import);
//! `date_order` defaults to `Datetime.now()` in whole seconds, which the web
//! client asks for when the form opens (so a double submit sends the same
//! one) and a connector passes as its shop's order time; the partner computes
//! fill the addresses, pricelist, currency, payment terms, fiscal position,
//! salesperson; `validity_date` is today + 30; the amounts sum the lines.
//! Later: sending the quotation sets `state` 'sent' and mints `access_token`;
//! confirming sets 'sale' and `date_order` to the confirmation time (the
//! connector confirms right after its create), which recomputes
//! `currency_rate`; a portal signature fills `signed_by`/`signed_on`;
//! invoicing moves `invoice_status` and the lines' quantities; a cancel sets
//! 'cancel'. Every write moves `write_date`/`write_uid`.
//! Retries (about 2.6 %): a double click on Save 5-100 ms apart (the same
//! form values, the same `date_order`; the copy left a draft or cancelled);
//! the connector's XML-RPC call timing out while Odoo commits, retried 10-60 s
//! later with the same `client_order_ref` and shop order time, sometimes
//! again 20-120 s after; the connector confirms each, and the copy is
//! cancelled when someone notices (Odoo 18 flags orders of one customer with
//! one reference and date as duplicates), or not (yet). Legitimate repeats:
//! an import file holding the same customer's identical order twice (one
//! transaction: equal `create_date`); the Duplicate button (a copy: new date,
//! no customer reference) pressed once or twice, seconds to minutes later; a
//! shop customer buying the same thing again (another shop order number),
//! synced in the same batch or minutes later.

use super::{Child, DAY, Fixture, HOUR, MINUTE, Rng, SECOND, T0, V, secs};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

pub fn ddl(engine: Engine) -> String {
    assert_eq!(engine, Engine::Postgres, "Odoo runs on PostgreSQL only");
    r#"CREATE TABLE "sale_order" (
  "id" SERIAL NOT NULL,
  "campaign_id" int4, "source_id" int4, "medium_id" int4,
  "company_id" int4 NOT NULL, "partner_id" int4 NOT NULL, "journal_id" int4,
  "partner_invoice_id" int4 NOT NULL, "partner_shipping_id" int4 NOT NULL,
  "fiscal_position_id" int4, "payment_term_id" int4, "pricelist_id" int4, "currency_id" int4,
  "user_id" int4, "team_id" int4, "create_uid" int4, "write_uid" int4,
  "access_token" varchar, "name" varchar NOT NULL, "state" varchar, "client_order_ref" varchar,
  "origin" varchar, "reference" varchar, "signed_by" varchar, "invoice_status" varchar,
  "validity_date" date, "note" text, "currency_rate" numeric,
  "amount_untaxed" numeric, "amount_tax" numeric, "amount_total" numeric,
  "locked" bool, "require_signature" bool, "require_payment" bool,
  "create_date" timestamp, "commitment_date" timestamp, "date_order" timestamp NOT NULL,
  "signed_on" timestamp, "write_date" timestamp, "prepayment_percent" float8,
  PRIMARY KEY ("id"),
  CONSTRAINT "sale_order_date_order_conditional_required"
    CHECK ((state = 'sale' AND date_order IS NOT NULL) OR state != 'sale')
);
CREATE INDEX "sale_order__name_index" ON "sale_order" ("name");
CREATE INDEX "sale_order__company_id_index" ON "sale_order" ("company_id");
CREATE INDEX "sale_order__partner_id_index" ON "sale_order" ("partner_id");
CREATE INDEX "sale_order__state_index" ON "sale_order" ("state");
CREATE INDEX "sale_order__create_date_index" ON "sale_order" ("create_date");
CREATE INDEX "sale_order__user_id_index" ON "sale_order" ("user_id");
CREATE INDEX "sale_order__partner_invoice_id_index" ON "sale_order" ("partner_invoice_id") WHERE "partner_invoice_id" IS NOT NULL;
CREATE INDEX "sale_order__partner_shipping_id_index" ON "sale_order" ("partner_shipping_id") WHERE "partner_shipping_id" IS NOT NULL;
CREATE INDEX "sale_order_date_order_id_idx" ON "sale_order" ("date_order" DESC, "id" DESC);
CREATE TABLE "sale_order_line" (
  "id" SERIAL NOT NULL,
  "order_id" int4 NOT NULL, "sequence" int4, "company_id" int4, "currency_id" int4,
  "order_partner_id" int4, "salesman_id" int4, "product_id" int4, "product_uom" int4,
  "create_uid" int4, "write_uid" int4, "state" varchar, "invoice_status" varchar, "name" text NOT NULL,
  "product_uom_qty" numeric NOT NULL, "price_unit" numeric NOT NULL, "discount" numeric,
  "price_subtotal" numeric, "price_total" numeric, "qty_invoiced" numeric, "qty_to_invoice" numeric,
  "untaxed_amount_to_invoice" numeric, "is_downpayment" bool,
  "create_date" timestamp, "write_date" timestamp, "customer_lead" float8 NOT NULL, "price_tax" float8,
  PRIMARY KEY ("id"),
  CONSTRAINT "sale_order_line_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "sale_order" ("id") ON DELETE cascade
);
CREATE INDEX "sale_order_line__order_id_index" ON "sale_order_line" ("order_id");
CREATE INDEX "sale_order_line__company_id_index" ON "sale_order_line" ("company_id");
CREATE INDEX "sale_order_line__order_partner_id_index" ON "sale_order_line" ("order_partner_id");
CREATE INDEX "sale_order_line__product_id_index" ON "sale_order_line" ("product_id") WHERE "product_id" IS NOT NULL;"#
        .to_string()
}

const COLUMNS: &str = "
    id company_id partner_id partner_invoice_id partner_shipping_id fiscal_position_id payment_term_id
    pricelist_id currency_id user_id team_id create_uid write_uid access_token name state client_order_ref
    signed_by invoice_status validity_date currency_rate amount_untaxed amount_tax amount_total locked
    require_signature require_payment create_date date_order signed_on write_date prepayment_percent
";

const LINE_COLUMNS: &str = "
    id order_id sequence company_id currency_id order_partner_id salesman_id product_id product_uom create_uid
    write_uid state invoice_status name product_uom_qty price_unit discount price_subtotal price_total
    qty_invoiced qty_to_invoice untaxed_amount_to_invoice is_downpayment create_date write_date customer_lead
    price_tax
";

/// (default code, name, unit price in cents).
const PRODUCTS: &[(&str, &str, i64)] = &[
    ("FURN_7800", "Desk Combination", 45000),
    ("FURN_0269", "Office Chair Black", 12050),
    ("FURN_8220", "Four Person Desk", 230000),
    ("E-COM07", "Large Cabinet", 32000),
    ("FURN_0096", "Customizable Desk (Steel, White)", 75000),
    ("FURN_6666", "Acoustic Bloc Screens", 29500),
    ("FURN_8999", "Three-Seat Sofa", 150000),
    ("FURN_1118", "Corner Desk Left Sit", 8500),
    ("E-COM12", "Conference Chair (Steel)", 3300),
    ("FURN_5555", "Cable Management Box", 10000),
    ("FURN_2100", "Drawer Black", 11000),
    ("E-COM10", "Pedal Bin", 4700),
    ("FURN_2333", "Storage Box", 1579),
    ("FURN_9001", "Flipover", 195000),
    ("FURN_7777", "Office Lamp", 4000),
    ("FURN_0001", "Monitor Stand", 2500),
    ("SRV_INST", "Installation (per hour)", 6500),
    ("SRV_DELIV", "Delivery and Setup", 9000),
    ("SRV_MAINT", "Annual Maintenance Contract", 48000),
];

const NOW: i64 = T0 + 29 * DAY;

#[derive(Clone, Copy, PartialEq)]
enum Path {
    Ui,
    Rpc,
    Import,
}

#[derive(Clone, Copy)]
enum Fate {
    Draft,
    Sent(i64),
    Sale {
        at: i64,
        sent: Option<i64>,
        portal: bool,
        invoiced: Option<i64>,
    },
    /// Cancelled at, after a confirmation at (the connector's).
    Cancel(i64, Option<i64>),
}

#[derive(Clone)]
struct Order {
    at: i64,
    path: Path,
    creator: i64,
    partner: i64,
    date_order: i64,
    client_ref: Option<String>,
    lines: Vec<(usize, i64, i64)>,
    fate: Fate,
    retry: bool,
    legit: bool,
}

fn money(cents: i64) -> V {
    V::Raw(format!("{}.{:02}", cents / 100, cents % 100))
}

/// What happens to an order after its create; a time past NOW has not happened.
fn later(r: &mut Rng, at: i64, path: Path) -> Fate {
    // Each later write is a transaction of its own: its own microseconds.
    let jitter = |r: &mut Rng| r.below(3_600_000_000) as i64;
    let f = if path == Path::Rpc {
        let c = at + r.range(300, 2_500) * 1_000;
        if r.chance(0.04) {
            Fate::Cancel(c + r.range(2, 72) * HOUR + jitter(r), Some(c))
        } else {
            let invoiced = r.chance(0.7).then(|| c + r.range(4, 120) * HOUR + jitter(r));
            Fate::Sale { at: c, sent: None, portal: false, invoiced }
        }
    } else {
        let sent = at + r.range(2, 600) * MINUTE + jitter(r) / 60;
        match r.below(100) {
            0..18 => Fate::Draft,
            18..35 => Fate::Sent(sent),
            35..85 => {
                let portal = r.chance(0.4);
                let c = sent + r.range(1, 200) * HOUR + jitter(r);
                let invoiced = r.chance(0.6).then(|| c + r.range(1, 240) * HOUR + jitter(r));
                Fate::Sale { at: c, sent: r.chance(0.85).then_some(sent), portal, invoiced }
            }
            _ => Fate::Cancel(sent + r.range(1, 240) * HOUR + jitter(r), None),
        }
    };
    match f {
        Fate::Sale { at, sent, portal, invoiced } if at < NOW => {
            Fate::Sale { at, sent, portal, invoiced: invoiced.filter(|i| *i < NOW) }
        }
        Fate::Sale { sent: Some(s), .. } | Fate::Sent(s) if s < NOW => Fate::Sent(s),
        Fate::Cancel(c, confirmed) if c < NOW => Fate::Cancel(c, confirmed),
        _ => Fate::Draft,
    }
}

/// A new order of the given path; its later life is drawn by the caller.
fn order(at: i64, path: Path, creator: i64, partner: i64, date_order: i64, client_ref: Option<String>) -> Order {
    let (fate, retry, legit, lines) = (Fate::Draft, false, false, Vec::new());
    Order { at, path, creator, partner, date_order, client_ref, lines, fate, retry, legit }
}

fn lines_of(r: &mut Rng) -> Vec<(usize, i64, i64)> {
    let n = 1 + r.skewed(4);
    let discount = |r: &mut Rng| if r.chance(0.1) { r.one(&[5, 10, 15]) } else { 0 };
    (0..n).map(|_| (r.skewed(PRODUCTS.len() as u64) as usize, 1 + r.skewed(12) as i64, discount(r))).collect()
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(4_242);
    let mut orders: Vec<Order> = Vec::new();
    let mut shop_ref = 104_310;
    let mut t = T0 + 6 * HOUR;
    while orders.len() < 2_000 {
        t += r.range(80, 1_650) * SECOND + r.below(1_000_000) as i64;
        let office = (7..17).contains(&(t / HOUR % 24)) && (t / DAY + 3) % 7 < 5;
        if !office && r.chance(0.55) {
            continue;
        }
        let late = t > NOW - 4 * DAY;
        let partner = 40 + r.skewed(300) as i64;
        if office && r.chance(0.012) {
            // An import: one transaction, one create_date for every record.
            let creator = r.one(&[2, 7]);
            for i in 0..r.range(8, 30) {
                let partner = 40 + r.skewed(300) as i64;
                let po = r.chance(0.4).then(|| format!("PO-{}", r.range(1_000, 9_999)));
                let mut o = order(t, Path::Import, creator, partner, secs(t + i * 40_000), po);
                o.lines = lines_of(&mut r);
                orders.push(Order { fate: later(&mut r, t, Path::Import), ..o.clone() });
                if r.chance(0.05) {
                    // The same customer's identical order, twice in the file.
                    let (date_order, fate) = (secs(t + i * 40_000 + 40_000), later(&mut r, t, Path::Import));
                    orders.push(Order { date_order, fate, legit: true, ..o });
                }
            }
            t += 2 * SECOND;
        } else if !office || r.chance(0.3) {
            shop_ref += 1;
            let shop_time = secs(t - r.range(2, 300) * SECOND);
            let mut o = order(t, Path::Rpc, 14, partner, shop_time, Some(format!("SHOP-{shop_ref}")));
            o.lines = lines_of(&mut r);
            orders.push(Order { fate: later(&mut r, t, Path::Rpc), ..o.clone() });
            if r.chance(if late { 0.06 } else { 0.025 }) {
                // The XML-RPC call timed out while Odoo committed: the same
                // shop order again, then perhaps once more after a backoff.
                let mut at = t + r.range(10_000, 60_000) * 1_000 + r.below(1_000) as i64;
                for _ in 0..r.range(1, 2) {
                    let c = at + r.range(300, 2_500) * 1_000;
                    let fate = if !late && r.chance(0.6) {
                        Fate::Cancel(c + r.range(3, 96) * HOUR + r.below(3_600_000_000) as i64, Some(c))
                    } else {
                        Fate::Sale { at: c, sent: None, portal: false, invoiced: None }
                    };
                    orders.push(Order { at, fate, retry: true, ..o.clone() });
                    at += r.range(20_000, 120_000) * 1_000 + r.below(1_000) as i64;
                }
            } else if r.chance(0.015) {
                // The customer buys the same again: another shop order, in the
                // same sync batch or minutes later.
                shop_ref += 1;
                let at = t + if r.chance(0.5) { r.range(300, 1_500) * 1_000 } else { r.range(60_000, 600_000) * 1_000 };
                let (date_order, fate) = (secs(at - r.range(2, 60) * SECOND), later(&mut r, at, Path::Rpc));
                let client_ref = Some(format!("SHOP-{shop_ref}"));
                orders.push(Order { at, date_order, client_ref, fate, legit: true, ..o });
            }
        } else {
            let creator = r.one(&[2, 6, 7, 8, 9, 10]);
            let po = r.chance(0.3).then(|| format!("PO/2026/{}", r.range(100, 999)));
            let mut o = order(t, Path::Ui, creator, partner, secs(t - r.range(20, 900) * SECOND), po);
            o.lines = lines_of(&mut r);
            orders.push(Order { fate: later(&mut r, t, Path::Ui), ..o.clone() });
            if r.chance(if late { 0.08 } else { 0.03 }) {
                // A double click on Save: the same form, twice.
                let at = t + r.range(5_000, 100_000);
                let cancel = Fate::Cancel(at + r.range(2, 120) * HOUR + r.below(3_600_000_000) as i64, None);
                orders.push(Order {
                    at,
                    fate: if !late && r.chance(0.5) { cancel } else { Fate::Draft },
                    retry: true,
                    ..o
                });
            } else if r.chance(0.012) {
                // Duplicate, once or twice: new date, no customer reference.
                let mut at = t;
                for _ in 0..r.range(1, 2) {
                    at += if r.chance(0.5) { r.range(1_500, 4_500) * 1_000 } else { r.range(20_000, 480_000) * 1_000 };
                    let fate = later(&mut r, at, Path::Ui);
                    orders.push(Order { at, date_order: secs(at), client_ref: None, fate, legit: true, ..o.clone() });
                }
            }
        }
    }
    orders.sort_by_key(|o| o.at);
    write(&mut r, &orders)
}

fn write(r: &mut Rng, orders: &[Order]) -> Fixture {
    let mut f = Fixture::new("sale_order", &COLUMNS.split_whitespace().collect::<Vec<_>>());
    let mut lines = Child::new("sale_order_line", &LINE_COLUMNS.split_whitespace().collect::<Vec<_>>());
    let (mut seq, mut line_id) = (1_873, 5_211);
    for (i, o) in orders.iter().enumerate() {
        let id = 1 + i as i64;
        if r.chance(0.01) {
            seq += 1; // a create rolled back: the sequence moved on anyway
        }
        seq += 1;
        // What the partner computes give: pricelist, currency, fiscal position, salesperson.
        let p = o.partner;
        let pricelist = [1, 1, 1, 1, 1, 1, 3, 3, 2][(p % 9) as usize];
        let currency = if pricelist == 2 { 2 } else { 1 };
        let fpos = (pricelist == 2).then_some(2).or((p % 5 == 0).then_some(1));
        let tax = if fpos.is_some() { 0 } else { 21 };
        let salesman = (p % 4 != 3).then(|| [2_i64, 6, 7, 8, 9, 10][(p % 6) as usize]);
        let user = salesman.or((o.path != Path::Rpc).then_some(o.creator));
        let (state, last, writer) = match o.fate {
            Fate::Draft => ("draft", o.at, o.creator),
            Fate::Sent(s) => ("sent", s, user.unwrap_or(o.creator)),
            Fate::Sale { invoiced: Some(i), .. } => ("sale", i, 11),
            Fate::Sale { at, portal, .. } => ("sale", at, if portal { 4 } else { o.creator }),
            Fate::Cancel(c, _) => ("cancel", c, user.unwrap_or(o.creator)),
        };
        let (confirmed, invoiced) = match o.fate {
            Fate::Sale { at, invoiced, .. } => (Some(at), invoiced.is_some()),
            Fate::Cancel(_, confirmed) => (confirmed, false),
            _ => (None, false),
        };
        let open = state == "sale" && !invoiced;
        let token = match o.fate {
            Fate::Sent(_) | Fate::Sale { sent: Some(_), .. } | Fate::Sale { portal: true, .. } => Some(r.uuid()),
            _ => None,
        };
        let date_order = confirmed.map_or(o.date_order, secs);
        let rate = match currency {
            2 => V::Raw(format!("1.{:06}", 79_000 + (date_order / DAY % 9) * 1_150)),
            _ => V::Raw("1.0".into()),
        };
        let (mut untaxed, mut taxes) = (0, 0);
        for (n, &(product, qty, disc)) in o.lines.iter().enumerate() {
            let (code, name, price) = PRODUCTS[product];
            let price = if pricelist == 3 { price * 9 / 10 } else { price };
            let unit = price * (100 - disc) / 100;
            let sub = unit * qty;
            let tx = (sub * tax + 50) / 100;
            (untaxed, taxes, line_id) = (untaxed + sub, taxes + tx, line_id + 1);
            let done = if invoiced { qty } else { 0 };
            let line_status = if invoiced {
                "invoiced"
            } else if open {
                "to invoice"
            } else {
                "no"
            };
            let qty_v = |q: i64| V::Raw(format!("{q}.00"));
            lines.push(&[
                ("id", V::I(line_id)),
                ("order_id", V::I(id)),
                ("sequence", V::I(10 + n as i64)),
                ("company_id", V::I(1)),
                ("currency_id", V::I(currency)),
                ("order_partner_id", V::I(p)),
                ("salesman_id", V::opt_i(user)),
                ("product_id", V::I(7 + product as i64)),
                ("product_uom", V::I(1)),
                ("create_uid", V::I(o.creator)),
                ("write_uid", V::I(writer)),
                ("state", V::t(state)),
                ("invoice_status", V::t(line_status)),
                ("name", V::t(format!("[{code}] {name}"))),
                ("product_uom_qty", qty_v(qty)),
                ("price_unit", money(price)),
                ("discount", qty_v(disc)),
                ("price_subtotal", money(sub)),
                ("price_total", money(sub + tx)),
                ("qty_invoiced", qty_v(done)),
                ("qty_to_invoice", qty_v(if open { qty } else { 0 })),
                ("untaxed_amount_to_invoice", money(if open { sub } else { 0 })),
                ("is_downpayment", V::B(false)),
                ("create_date", V::At(o.at)),
                ("write_date", V::At(last)),
                ("customer_lead", V::F(0.0)),
                ("price_tax", V::F(tx as f64 / 100.0)),
            ]);
        }
        let (signed_by, signed_on) = match o.fate {
            Fate::Sale { at, portal: true, .. } => (Some(format!("Contact {p}")), V::At(secs(at))),
            _ => (None, V::Null),
        };
        let status = if invoiced {
            "invoiced"
        } else if open {
            "to invoice"
        } else {
            "no"
        };
        f.push(&[
            ("id", V::I(id)),
            ("company_id", V::I(1)),
            ("partner_id", V::I(p)),
            ("partner_invoice_id", V::I(if p % 5 == 1 { p + 1_000 } else { p })),
            ("partner_shipping_id", V::I(if p % 3 == 1 { p + 2_000 } else { p })),
            ("fiscal_position_id", V::opt_i(fpos)),
            ("payment_term_id", V::I([1, 2, 4, 4, 4, 6][(p % 6) as usize])),
            ("pricelist_id", V::I(pricelist)),
            ("currency_id", V::I(currency)),
            ("user_id", V::opt_i(user)),
            ("team_id", V::I(if o.path == Path::Rpc { 2 } else { 1 })),
            ("create_uid", V::I(o.creator)),
            ("write_uid", V::I(writer)),
            ("access_token", V::opt_t(token.as_deref())),
            ("name", V::t(format!("S{seq:05}"))),
            ("state", V::t(state)),
            ("client_order_ref", V::opt_t(o.client_ref.as_deref())),
            ("signed_by", V::opt_t(signed_by.as_deref())),
            ("invoice_status", V::t(status)),
            ("validity_date", V::Raw(format!("DATE '1970-01-01' + {}", (o.at + HOUR) / DAY + 30))),
            ("currency_rate", rate),
            ("amount_untaxed", money(untaxed)),
            ("amount_tax", money(taxes)),
            ("amount_total", money(untaxed + taxes)),
            ("locked", V::B(false)),
            ("require_signature", V::B(true)),
            ("require_payment", V::B(false)),
            ("create_date", V::At(o.at)),
            ("date_order", V::At(date_order)),
            ("signed_on", signed_on),
            ("write_date", V::At(last)),
            ("prepayment_percent", V::F(1.0)),
        ]);
        if o.retry {
            f.extras.insert(id.to_string());
        }
        if o.legit {
            f.legit.insert(id.to_string());
        }
    }
    f.children.push(lines);
    f
}
