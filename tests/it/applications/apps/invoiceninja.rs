//! Invoice Ninja v5 (PHP, Laravel Eloquent, MySQL/MariaDB): `payments`, as `BaseDriver::createPayment`
//! (a client paying in the portal, a webhook job, auto-billing), `MarkPaid::run` (an invoice marked
//! paid) and `PaymentRepository::save` (`POST /api/v1/payments`, the React app or an integration) write it.
//! Read: invoiceninja/invoiceninja (v5-stable) database/schema/mysql-schema.sql (`payments`, `paymentables`),
//! database/migrations/2021_06_24_095942_payments_table_currency_nullable.php,
//! database/migrations/2022_09_30_235337_add_idempotency_key_to_payments.php, app/Models/Payment.php,
//! app/Models/PaymentType.php, app/Models/GatewayType.php, app/Models/BaseModel.php ($dateFormat),
//! app/Factory/PaymentFactory.php, app/Repositories/PaymentRepository.php,
//! app/Http/Requests/Payment/StorePaymentRequest.php, app/PaymentDrivers/BaseDriver.php,
//! app/PaymentDrivers/Stripe/CreditCard.php, app/PaymentDrivers/Mollie/CreditCard.php,
//! app/PaymentDrivers/StripePaymentDriver.php, app/PaymentDrivers/Stripe/Jobs/PaymentIntentWebhook.php,
//! app/Services/Payment/UpdateInvoicePayment.php, app/Services/Invoice/MarkPaid.php,
//! app/Utils/Traits/GeneratesCounter.php, app/Console/Kernel.php, app/Providers/AppServiceProvider.php,
//! database/seeders/CurrenciesSeeder.php; issue invoiceninja/invoiceninja#10079 (duplicate Mollie payments).
//!
//! Every path mints the id and `number` (the company's counter, padded to 4, after a pattern's
//! prefix) and writes `created_at`/`updated_at` as `Y-m-d H:i:s.u` in UTC; `date` is the company's
//! local day. Gateway payments carry the gateway's `transaction_reference` (a Stripe charge, a Mollie
//! `tr_`, a GoCardless `PM`), the contact, the gateway and its types, `applied` = what the invoices
//! took; `createPayment` looks the reference up first, but the return from the payment page and the
//! webhook job (queued 5 s after the webhook) can both pass that check: the second row gets the same
//! reference, and `applied` 0 because the invoice has no balance left. Mark-paid rows say "Manual
//! entry"; API rows get `idempotency_key` = substr(time() . date . amount . credits . client hash .
//! company key, 0, 64) and a 1 s cache lock per (ip, amount, client), so only a retry in a later second
//! gets through, with a new key and number. Later: bank debits go from pending (1) to completed (4) or
//! failed (3); refunds set `refunded` and status 5/6; deletes set `is_deleted` and `deleted_at`,
//! archiving only `deleted_at`.
//! Retries (8): four webhook/return races 40 ms-2.5 s apart (one in the last days); an integration
//! posting an unapplied payment again after its 30 s timeout (twice; once more after backoff); a partial
//! payment saved again in the React app after a 504 at 60 s. Legitimate repeats: a bulk mark-paid of
//! one client's equal invoices (same second); a client paying two equal invoices one after the other
//! in the portal (20 s-8 min, each its own charge); two equal cheques entered by hand (15 s-5 min).

use super::{Child, DAY, Fixture, HOUR, MINUTE, Rng, SECOND, T0, V};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql];

pub fn ddl(engine: Engine) -> String {
    assert_eq!(engine, Engine::MySql, "Invoice Ninja runs on MySQL/MariaDB");
    "CREATE TABLE `payments` (
  `id` int(10) unsigned NOT NULL AUTO_INCREMENT, `company_id` int(10) unsigned NOT NULL,
  `client_id` int(10) unsigned NOT NULL, `project_id` int(10) unsigned DEFAULT NULL,
  `vendor_id` int(10) unsigned DEFAULT NULL, `user_id` int(10) unsigned DEFAULT NULL,
  `assigned_user_id` int(10) unsigned DEFAULT NULL, `client_contact_id` int(10) unsigned DEFAULT NULL,
  `invitation_id` int(10) unsigned DEFAULT NULL, `company_gateway_id` int(10) unsigned DEFAULT NULL,
  `gateway_type_id` int(10) unsigned DEFAULT NULL, `type_id` int(10) unsigned DEFAULT NULL,
  `status_id` int(10) unsigned NOT NULL, `amount` decimal(20,6) NOT NULL DEFAULT 0.000000,
  `refunded` decimal(20,6) NOT NULL DEFAULT 0.000000, `applied` decimal(20,6) NOT NULL DEFAULT 0.000000,
  `date` date DEFAULT NULL, `transaction_reference` varchar(191) DEFAULT NULL, `payer_id` varchar(191) DEFAULT NULL,
  `number` varchar(191) DEFAULT NULL, `private_notes` text DEFAULT NULL, `created_at` timestamp(6) NULL DEFAULT NULL,
  `updated_at` timestamp(6) NULL DEFAULT NULL, `deleted_at` timestamp(6) NULL DEFAULT NULL,
  `is_deleted` tinyint(1) NOT NULL DEFAULT 0, `is_manual` tinyint(1) NOT NULL DEFAULT 0,
  `exchange_rate` decimal(20,6) NOT NULL DEFAULT 1.000000, `currency_id` int(10) unsigned NOT NULL,
  `exchange_currency_id` int(10) unsigned DEFAULT NULL, `meta` text DEFAULT NULL, `custom_value1` text DEFAULT NULL,
  `custom_value2` text DEFAULT NULL, `custom_value3` text DEFAULT NULL, `custom_value4` text DEFAULT NULL,
  `transaction_id` bigint(20) unsigned DEFAULT NULL, `idempotency_key` varchar(64) DEFAULT NULL,
  `refund_meta` text DEFAULT NULL, `category_id` int(10) unsigned DEFAULT NULL, PRIMARY KEY (`id`),
  UNIQUE KEY `payments_company_id_number_unique` (`company_id`,`number`),
  UNIQUE KEY `payments_company_id_idempotency_key_unique` (`company_id`,`idempotency_key`),
  KEY `payments_company_id_deleted_at_index` (`company_id`,`deleted_at`),
  KEY `payments_client_contact_id_foreign` (`client_contact_id`),
  KEY `payments_company_gateway_id_foreign` (`company_gateway_id`), KEY `payments_user_id_foreign` (`user_id`),
  KEY `payments_company_id_index` (`company_id`), KEY `payments_client_id_index` (`client_id`),
  KEY `payments_status_id_index` (`status_id`), KEY `payments_transaction_reference_index` (`transaction_reference`),
  KEY `payments_idempotency_key_index` (`idempotency_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE `paymentables` (
  `id` int(10) unsigned NOT NULL AUTO_INCREMENT, `payment_id` int(10) unsigned NOT NULL,
  `paymentable_id` int(10) unsigned NOT NULL, `amount` decimal(16,4) NOT NULL DEFAULT 0.0000,
  `refunded` decimal(16,4) NOT NULL DEFAULT 0.0000, `paymentable_type` varchar(191) NOT NULL,
  `created_at` timestamp NULL DEFAULT NULL, `updated_at` timestamp NULL DEFAULT NULL,
  `deleted_at` timestamp(6) NULL DEFAULT NULL, PRIMARY KEY (`id`),
  KEY `paymentables_payment_id_foreign` (`payment_id`), KEY `paymentables_paymentable_id_index` (`paymentable_id`),
  CONSTRAINT `paymentables_payment_id_foreign` FOREIGN KEY (`payment_id`) REFERENCES `payments` (`id`) ON DELETE CASCADE ON UPDATE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;"
        .to_string()
}

const DAYS: i64 = 35;
const COMPLETED: i64 = 4;
const PENDING: i64 = 1;

#[derive(Clone, Copy, PartialEq)]
enum Gw {
    Stripe,
    Mollie,
    GoCardless,
    None,
}

struct Client {
    id: i64,
    hash: String,
    contact: i64,
    owner: i64,
    currency: i64,
    retainer: i64,
    autobill: Option<i64>,
}

struct Company {
    id: i64,
    currency: i64,
    offset: i64,
    key: String,
    users: Vec<i64>,
    clients: Vec<Client>,
    gw: Gw,
    cg: i64,
    prefix: &'static str,
    counter: i64,
    mark_type: Option<i64>,
}

#[derive(Clone)]
struct Pay {
    at: i64,
    co: usize,
    cl: usize,
    user: i64,
    gateway: bool,
    gtype: Option<i64>,
    ptype: Option<i64>,
    status: i64,
    cents: i64,
    applied: i64,
    date: String,
    reference: Option<String>,
    notes: Option<String>,
    api_key: bool,
    manual: bool,
    invoices: Vec<i64>,
    retry: bool,
    legit: bool,
}

/// A payment as `MarkPaid` writes it; the other paths set what they write differently.
fn marked(at: i64, co: usize, cl: usize, user: i64, cents: i64, date: String, invoice: i64) -> Pay {
    Pay {
        at,
        co,
        cl,
        user,
        gateway: false,
        gtype: None,
        ptype: None,
        status: COMPLETED,
        cents,
        applied: cents,
        date,
        reference: Some("Manual entry".to_string()),
        notes: None,
        api_key: false,
        manual: true,
        invoices: vec![invoice],
        retry: false,
        legit: false,
    }
}

/// The day (as `Y-m-d`) of a time, in a zone `offset` from UTC.
fn ymd(us: i64, offset: i64) -> String {
    match (us + offset - T0).div_euclid(DAY) {
        d if d < 0 => format!("2026-09-{:02}", 31 + d),
        d if d <= 30 => format!("2026-10-{:02}", d + 1),
        d => format!("2026-11-{:02}", d - 30),
    }
}

fn dec(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// The amount as PHP prints the JSON number the React app sends.
fn php_amount(cents: i64) -> String {
    let s = dec(cents);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(5_150);
    let (mut user_id, mut client_id, mut contact_id) = (811, 20_410, 31_202);
    let mut companies: Vec<Company> = Vec::new();
    for i in 0..40i64 {
        let currency = r.one(&[1, 1, 1, 1, 3, 3, 2, 9, 12, 17]);
        let users: Vec<i64> = (0..1 + r.below(3) as i64).map(|k| user_id + k).collect();
        user_id += 3;
        let clients = (0..4 + r.below(60 / (1 + i as u64 / 3)) as i64)
            .map(|_| {
                client_id += 1;
                contact_id += 1 + r.below(2) as i64;
                Client {
                    id: client_id,
                    hash: r.alnum(10),
                    contact: contact_id,
                    owner: users[r.skewed(users.len() as u64) as usize],
                    currency: if r.chance(0.08) { r.one(&[1, 2, 3, 9]) } else { currency },
                    retainer: r.range(5, 300) * 2_500,
                    autobill: r.chance(0.15).then(|| r.range(0, 27)),
                }
            })
            .collect();
        let gw = if currency == 3 {
            r.one(&[Gw::Stripe, Gw::Mollie, Gw::Mollie, Gw::None])
        } else if currency == 2 {
            r.one(&[Gw::Stripe, Gw::GoCardless, Gw::None])
        } else {
            r.one(&[Gw::Stripe, Gw::Stripe, Gw::Stripe, Gw::None])
        };
        companies.push(Company {
            id: 3_104 + i * 41 + r.below(40) as i64,
            currency,
            offset: match currency {
                3 | 17 => HOUR,
                2 => 0,
                12 => 11 * HOUR,
                _ => -5 * HOUR,
            },
            key: r.alnum(32),
            users,
            clients,
            gw,
            cg: 900 + i * 3,
            prefix: r.one(&["", "", "", "PAY-", "P"]),
            counter: r.range(12, 900),
            mark_type: r.chance(0.3).then(|| r.one(&[1, 15])),
        });
    }
    let mut invoice = 150_000;
    let mut next_invoice = |r: &mut Rng| {
        invoice += 1 + r.below(40) as i64;
        invoice
    };
    let stripe_ref = |r: &mut Rng| format!("ch_3{}", r.alnum(23));
    let mut pays: Vec<Pay> = Vec::new();
    let (race_days, mut api_retries) = ([3, 11, 24, DAYS - 2], vec![8, 19]);
    let mut races = 0usize;
    let mut partial_retry = false;
    for d in 0..DAYS {
        let weekend = matches!(d % 7, 2 | 3);
        // Auto-billing at 06:20 UTC: one charge per due recurring invoice, with the stored card.
        let mut at = T0 + d * DAY + 6 * HOUR + 20 * MINUTE + r.range(5, 40) * SECOND;
        for (co, c) in companies.iter().enumerate() {
            for (cl, client) in c.clients.iter().enumerate() {
                let Some(day) = client.autobill else { continue };
                let due = if day % 2 == 0 { (d + T0 / DAY) % 7 == day % 7 } else { (d + 1) % 28 == day };
                if !due || c.gw == Gw::None {
                    continue;
                }
                at += r.range(600, 2_500) * 1_000;
                let gc = c.gw == Gw::GoCardless;
                let reference = if gc { format!("PM{}", r.alnum(12).to_uppercase()) } else { stripe_ref(&mut r) };
                pays.push(Pay {
                    gateway: true,
                    gtype: Some(if gc { 18 } else { 1 }),
                    ptype: Some(if gc { 42 } else { r.one(&[5, 5, 6, 7]) }),
                    status: if gc { PENDING } else { COMPLETED },
                    reference: Some(reference),
                    manual: false,
                    ..marked(at, co, cl, client.owner, client.retainer, ymd(at, c.offset), next_invoice(&mut r))
                });
            }
        }
        let mut raced = false;
        for _ in 0..if weekend { 22 } else { 58 } {
            let co = r.skewed(companies.len() as u64) as usize;
            let c = &companies[co];
            let cl = r.skewed(c.clients.len() as u64) as usize;
            let client = &c.clients[cl];
            let at = T0 + d * DAY - c.offset + r.range(7 * 3_600, 21 * 3_600) * SECOND + r.range(0, 999_999);
            let cents = if r.chance(0.5) { client.retainer } else { r.range(20, 4_000) * 500 + r.below(100) as i64 };
            let roll = r.below(100);
            let user = c.users[r.skewed(c.users.len() as u64) as usize];
            let base =
                Pay { ptype: c.mark_type, ..marked(at, co, cl, user, cents, ymd(at, c.offset), next_invoice(&mut r)) };
            if c.gw != Gw::None && roll < 50 {
                // A contact pays an invoice in the client portal.
                let (gtype, ptype, status, reference) = match c.gw {
                    Gw::Mollie => {
                        let ideal = r.chance(0.6);
                        (
                            if ideal { 13 } else { 1 },
                            if ideal { 37 } else { 12 },
                            COMPLETED,
                            format!("tr_{}", r.alnum(10)),
                        )
                    }
                    Gw::GoCardless => (18, 42, PENDING, format!("PM{}", r.alnum(12).to_uppercase())),
                    _ if r.chance(0.12) => (2, 4, PENDING, format!("py_3{}", r.alnum(23))),
                    _ => (1, r.one(&[5, 5, 5, 6, 6, 7, 12]), COMPLETED, stripe_ref(&mut r)),
                };
                let p = Pay {
                    user: client.owner,
                    gateway: true,
                    gtype: Some(gtype),
                    ptype: Some(ptype),
                    status,
                    reference: Some(reference),
                    manual: false,
                    ..base
                };
                pays.push(p.clone());
                if races < 4 && d >= race_days[races] && !raced && status == COMPLETED {
                    // The return from the payment page and the webhook job both pass the lookup.
                    raced = true;
                    races += 1;
                    let at = p.at + r.range(40, 2_500) * 1_000;
                    let first_won = races != 2;
                    let n = pays.len() - 1;
                    if !first_won {
                        pays[n].applied = 0;
                    }
                    pays.push(Pay { at, applied: if first_won { 0 } else { p.cents }, retry: true, ..p.clone() });
                } else if r.chance(0.02) {
                    // The same contact pays a second invoice of the same amount: a new charge.
                    let at = p.at + r.range(20, 480) * SECOND + r.range(0, 999_999);
                    let reference = Some(match c.gw {
                        Gw::Mollie => format!("tr_{}", r.alnum(10)),
                        Gw::GoCardless => format!("PM{}", r.alnum(12).to_uppercase()),
                        _ => stripe_ref(&mut r),
                    });
                    pays.push(Pay { at, reference, invoices: vec![next_invoice(&mut r)], legit: true, ..p });
                }
            } else if roll < 78 {
                // Marked paid, alone or in a bulk action over several invoices.
                pays.push(base.clone());
                if r.chance(0.12) {
                    // Several invoices of one client (often of the same amount), or of several clients.
                    let same = r.chance(0.3);
                    let mut at = base.at;
                    let mut seen = vec![(cl, cents)];
                    for _ in 0..r.range(1, 4) {
                        at += r.range(60, 250) * 1_000;
                        let cl = if same { cl } else { r.below(c.clients.len() as u64) as usize };
                        let cents = if same { cents } else { c.clients[cl].retainer };
                        let legit = seen.contains(&(cl, cents));
                        seen.push((cl, cents));
                        pays.push(Pay {
                            at,
                            cl,
                            cents,
                            applied: cents,
                            invoices: vec![next_invoice(&mut r)],
                            legit,
                            ..base.clone()
                        });
                    }
                }
            } else {
                // Entered in the React app (or by an integration) through POST /api/v1/payments.
                let unapplied = r.chance(0.2);
                let reference = match r.below(4) {
                    0 => None,
                    1 => Some(format!("Check {}", r.range(1_000, 9_999))),
                    2 => Some(format!("Wire {}", r.alnum(8).to_uppercase())),
                    _ => Some(format!("ACH {}", r.range(100_000, 999_999))),
                };
                let p = Pay {
                    date: ymd(at - r.range(0, 4) * DAY * i64::from(r.chance(0.3)), c.offset),
                    ptype: Some(r.one(&[1, 2, 15, 15])),
                    reference,
                    notes: r.chance(0.15).then(|| "Received at the office".to_string()),
                    applied: if unapplied { 0 } else { cents },
                    invoices: if unapplied { vec![] } else { base.invoices.clone() },
                    api_key: true,
                    ..base
                };
                pays.push(p.clone());
                if unapplied && api_retries.first().is_some_and(|&x| d >= x) {
                    // An integration's 30 s timeout: posted again, and again after a backoff.
                    let backoff = api_retries.len() == 2;
                    api_retries.remove(0);
                    let reference = Some(format!("pi_3{}", r.alnum(23)));
                    let n = pays.len() - 1;
                    pays[n].reference = reference.clone();
                    pays[n].ptype = Some(12);
                    let p = Pay { ptype: Some(12), ..p };
                    let first = p.at + r.range(30, 36) * SECOND + r.range(0, 999_999);
                    pays.push(Pay { at: first, reference: reference.clone(), retry: true, ..p.clone() });
                    if backoff {
                        let at = first + r.range(60, 120) * SECOND;
                        pays.push(Pay { at, reference, retry: true, ..p.clone() });
                    }
                } else if !unapplied && !partial_retry && d >= 28 {
                    // A partial payment saved again after a 504: the invoice still has a balance.
                    partial_retry = true;
                    pays.push(Pay { at: p.at + r.range(60, 75) * SECOND, retry: true, ..p.clone() });
                } else if r.chance(0.04) {
                    // Two equal payments from the same client (cash, a second cheque), entered one after
                    // the other; a cheque or wire has its own reference.
                    let at = p.at + r.range(15, 300) * SECOND + r.range(0, 999_999);
                    let invoices = if unapplied { vec![] } else { vec![next_invoice(&mut r)] };
                    let reference = p.reference.as_ref().map(|_| format!("Check {}", r.range(1_000, 9_999)));
                    pays.push(Pay { at, invoices, reference, legit: true, ..p });
                }
            }
        }
    }
    pays.sort_by_key(|p| p.at);

    let columns: Vec<&'static str> =
        "id company_id client_id user_id client_contact_id company_gateway_id gateway_type_id type_id \
        status_id amount refunded applied date transaction_reference number private_notes created_at \
        updated_at deleted_at is_deleted is_manual exchange_rate currency_id exchange_currency_id \
        idempotency_key"
            .split_whitespace()
            .collect();
    let mut f = Fixture::new("payments", &columns);
    let links_columns: Vec<&'static str> =
        "id payment_id paymentable_id amount refunded paymentable_type created_at updated_at"
            .split_whitespace()
            .collect();
    let mut links = Child::new("paymentables", &links_columns);
    let end = T0 + DAYS * DAY;
    let mut link_id = 88_000;
    for (i, p) in pays.iter().enumerate() {
        let id = 61_300 + i as i64;
        let c = &mut companies[p.co];
        c.counter += 1;
        let client = &c.clients[p.cl];
        // What happened to the payment afterwards.
        let (mut status, mut refunded, mut later) = (p.status, 0, None);
        if p.status == PENDING {
            let settled = p.at + r.range(2, 5) * DAY;
            let failed = r.chance(0.06);
            if settled < end {
                (status, later) = (if failed { 3 } else { COMPLETED }, Some(settled));
            }
        } else if p.gateway && !p.retry && r.chance(0.05) {
            let at = p.at + r.range(1, 12) * DAY;
            let part = if r.chance(0.6) { p.cents } else { p.cents / 2 };
            if at < end {
                (refunded, later) = (part, Some(at));
                status = if part == p.cents { 6 } else { 5 };
            }
        }
        let removed = (!p.retry && r.chance(0.025)).then(|| p.at + r.range(10, 9 * 24 * 60) * MINUTE);
        let is_deleted = removed.is_some() && r.chance(0.4);
        let later = [later, removed.filter(|t| *t < end)].into_iter().flatten().max();
        let saved = p.at + r.range(40, 900) * 1_000;
        let foreign = client.currency != c.currency && !p.gateway;
        let rate = if foreign {
            format!("{:.6}", 0.7 + r.below(700_000) as f64 / 1_000_000.0)
        } else {
            "1.000000".to_string()
        };
        let key = p.api_key.then(|| {
            let raw = format!("{}{}{}0{}{}", p.at / SECOND, p.date, php_amount(p.cents), client.hash, c.key);
            raw[..raw.len().min(64)].to_string()
        });
        let width = 4usize;
        f.push(&[
            ("id", V::I(id)),
            ("company_id", V::I(c.id)),
            ("client_id", V::I(client.id)),
            ("user_id", V::I(p.user)),
            ("client_contact_id", if p.gateway { V::I(client.contact) } else { V::Null }),
            ("company_gateway_id", if p.gateway { V::I(c.cg) } else { V::Null }),
            ("gateway_type_id", V::opt_i(p.gtype)),
            ("type_id", V::opt_i(p.ptype)),
            ("status_id", V::I(status)),
            ("amount", V::t(dec(p.cents))),
            ("refunded", V::t(dec(refunded))),
            ("applied", V::t(dec(p.applied))),
            ("date", V::t(&p.date)),
            ("transaction_reference", V::opt_t(p.reference.as_deref())),
            ("number", V::t(format!("{}{:0width$}", c.prefix, c.counter))),
            ("private_notes", V::opt_t(p.notes.as_deref())),
            ("created_at", V::At(p.at)),
            ("updated_at", V::At(later.unwrap_or(saved))),
            ("deleted_at", removed.filter(|t| *t < end).map_or(V::Null, V::At)),
            ("is_deleted", V::B(is_deleted && removed.is_some_and(|t| t < end))),
            ("is_manual", V::B(p.manual)),
            ("exchange_rate", V::t(rate)),
            ("currency_id", V::I(client.currency)),
            ("exchange_currency_id", if foreign { V::I(c.currency) } else { V::Null }),
            ("idempotency_key", V::opt_t(key.as_deref())),
        ]);
        if p.retry {
            f.extras.insert(id.to_string());
        } else if p.legit {
            f.legit.insert(id.to_string());
        }
        for inv in &p.invoices {
            link_id += 1;
            let share = if p.applied == 0 { 0 } else { p.cents / p.invoices.len() as i64 };
            links.push(&[
                ("id", V::I(link_id)),
                ("payment_id", V::I(id)),
                ("paymentable_id", V::I(*inv)),
                ("amount", V::t(dec(share))),
                ("refunded", V::t(dec(refunded.min(share)))),
                ("paymentable_type", V::t("invoices")),
                ("created_at", V::AtSecs(saved)),
                ("updated_at", V::AtSecs(later.unwrap_or(saved))),
            ]);
        }
    }
    assert_eq!(f.extras.len(), 8);
    f.children.push(links);
    f
}
