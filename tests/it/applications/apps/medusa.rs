//! Medusa 2 (TypeScript, MikroORM, PostgreSQL): `payment`, as the Payment Module's
//! `authorizePaymentSession` writes it (from `completeCartWorkflow`, from the admin's
//! `markPaymentCollectionAsPaid`, from a subscription renewal job).
//! Read: medusajs/medusa packages/modules/payment/src/models/payment.ts,
//! packages/modules/payment/src/migrations/Migration20240225134525.ts,
//! packages/modules/payment/src/migrations/.snapshot-medusa-payment.json,
//! packages/modules/payment/src/migrations/Migration20250120110552.ts,
//! packages/modules/payment/src/migrations/Migration20260615075225.ts,
//! packages/modules/payment/src/migrations/Migration20260813144048.ts,
//! packages/modules/payment/src/migrations/Migration20260924125937.ts,
//! packages/modules/payment/src/services/payment-module.ts (authorizePaymentSession_, capturePayment_,
//! cancelPayment), packages/core/core-flows/src/cart/workflows/complete-cart.ts,
//! packages/core/core-flows/src/order/workflows/mark-payment-collection-as-paid.ts,
//! packages/modules/providers/payment-stripe/src/core/stripe-base.ts; issues #13301, #4798, #14770.
//! A create writes `pay_` + a ULID minted per write (`generateEntityId`), the session's amount
//! (numeric, major units) and `raw_amount` ({value, precision 20}), currency, provider, the
//! session id (unique among live rows) and its collection, and `data` = what the provider's
//! authorize returned (Stripe: the PaymentIntent; the system provider: {}); created_at and
//! updated_at are `new Date()` (ms). Later: a capture replaces `data` with the captured intent
//! and sets `captured_at` (at once for iDEAL/BLIK and mark-as-paid, on fulfilment for manual
//! card capture, when the invoice is paid for bank transfer); a cancel sets `canceled_at`.
//! Retries: the unique session index and the cart's idempotent completion stop every
//! storefront retry; what gets through is the admin's "Mark as paid" double-clicked (or two
//! tabs): both requests pass the `not_paid` check before either authorizes, each makes its own
//! session and payment on the same collection, 5-250 ms apart (6 in all, 2 in the last days).
//! Legit: a checkout whose completion failed after authorizing (the payment is cancelled by
//! compensation) and is placed again on the same collection with a new session, 2.5 s-2 min
//! later; the same customer buying the same cart again 20 s-10 min later; the nightly
//! subscription renewals of one plan, tens of ms apart.
use super::{Child, DAY, Fixture, HOUR, MINUTE, Rng, SECOND, T0, V};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

const DDL: &str = r#"
CREATE TABLE IF NOT EXISTS "payment" (
  "id" text NOT NULL,
  "amount" numeric NOT NULL,
  "currency_code" text NOT NULL,
  "provider_id" text NOT NULL,
  "data" jsonb NULL,
  "metadata" jsonb NULL,
  "captured_at" timestamptz NULL,
  "canceled_at" timestamptz NULL,
  "payment_collection_id" text NOT NULL,
  "payment_session_id" text NOT NULL,
  "raw_amount" jsonb NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "deleted_at" timestamptz NULL,
  "pending_captures" jsonb NULL,
  CONSTRAINT "payment_pkey" PRIMARY KEY ("id")
);
CREATE INDEX IF NOT EXISTS "IDX_payment_payment_collection_id" ON "payment" (payment_collection_id) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS "IDX_payment_payment_session_id_unique" ON "payment" (payment_session_id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS "IDX_payment_deleted_at" ON "payment" (deleted_at) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS "IDX_payment_provider_id" ON "payment" (provider_id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS "IDX_payment_payment_session_id" ON "payment" (payment_session_id) WHERE deleted_at IS NULL;
CREATE TABLE IF NOT EXISTS "capture" (
  "id" text NOT NULL,
  "amount" numeric NOT NULL,
  "payment_id" text NOT NULL,
  "metadata" jsonb NULL,
  "created_by" text NULL,
  "raw_amount" jsonb NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "deleted_at" timestamptz NULL,
  CONSTRAINT "capture_pkey" PRIMARY KEY ("id")
);
CREATE INDEX IF NOT EXISTS "IDX_capture_payment_id" ON "capture" (payment_id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS "IDX_capture_deleted_at" ON "capture" (deleted_at) WHERE deleted_at IS NULL;
ALTER TABLE "capture" ADD CONSTRAINT "capture_payment_id_foreign" FOREIGN KEY ("payment_id") REFERENCES "payment" ("id") ON UPDATE CASCADE ON DELETE CASCADE;"#;

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => DDL.to_string(),
        _ => unreachable!("Medusa 2 runs on PostgreSQL only"),
    }
}

const COLUMNS: &[&str] = &[
    "id",
    "amount",
    "currency_code",
    "provider_id",
    "data",
    "metadata",
    "captured_at",
    "canceled_at",
    "payment_collection_id",
    "payment_session_id",
    "raw_amount",
    "created_at",
    "updated_at",
    "deleted_at",
    "pending_captures",
];

const STRIPE: &str = "pp_stripe_stripe";
const IDEAL: &str = "pp_stripe-ideal_stripe";
const BLIK: &str = "pp_stripe-blik_stripe";
const SYSTEM: &str = "pp_system_default";

/// What happens to the payment after its create, in ms after it.
#[derive(Clone, Copy)]
enum Later {
    /// Captured by the same request (automatic-capture methods, mark as paid).
    Now(i64),
    /// Captured later by an admin (fulfilment, invoice paid).
    Capture(i64),
    /// Cancelled (order cancelled, or the completion's compensation).
    Cancel(i64),
    Open,
}

#[derive(Clone)]
struct Pay {
    at: i64,
    cents: i64,
    currency: &'static str,
    provider: &'static str,
    customer: Option<usize>,
    collection: String,
    later: Later,
    by: Option<usize>,
    /// The session was made by the same request (mark as paid, renewal), not at checkout.
    inline: bool,
    retry: bool,
    legit: bool,
}

/// `prefix_` + a ULID of `at` (ms) and 80 random bits, as `generateEntityId` mints it.
fn ulid(at: i64, r: &mut Rng) -> String {
    const B32: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let ms = (at / 1_000) as u64;
    let mut s: String = (0..10).rev().map(|i| B32[((ms >> (5 * i)) & 31) as usize] as char).collect();
    s.extend((0..16).map(|_| B32[r.below(32) as usize] as char));
    s
}

/// A BigNumber's text: 49.9, 129, 12.95.
fn dec(cents: i64) -> String {
    match (cents % 100, cents % 10) {
        (0, _) => format!("{}", cents / 100),
        (c, 0) => format!("{}.{}", cents / 100, c / 10),
        (c, _) => format!("{}.{c:02}", cents / 100),
    }
}

fn ms(t: i64) -> i64 {
    t - t.rem_euclid(1_000)
}

fn cart_total(r: &mut Rng, currency: &str) -> i64 {
    let base = r.range(129, 3_800) * 10 + r.one(&[0, 0, 5, 9]);
    match currency {
        "pln" => base * 4 - (base * 4) % 100 + 99,
        "dkk" => base * 7 - (base * 7) % 100 + 95,
        _ => base,
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(6_113);
    let admins: Vec<String> = (0..3).map(|i| format!("user_{}", ulid(T0 - (400 - i) * DAY, &mut r))).collect();
    let customers: Vec<String> = (0..520).map(|_| format!("cus_{}", r.alnum(14))).collect();
    let end = T0 + 28 * DAY;
    let mut pays: Vec<Pay> = Vec::new();
    let later_or_open = |at: i64, later: Later| match later {
        Later::Capture(d) | Later::Cancel(d) if at + d * 1_000 > end + 6 * HOUR => Later::Open,
        l => l,
    };
    let mut t = T0 + 7 * HOUR;
    while t < end {
        let hour = (t / HOUR) % 24;
        let slow = if hour < 6 { 3 } else { 1 };
        t = ms(t + r.range(60, 2_300) * SECOND * slow + r.range(0, 999) * 1_000);
        let collection = format!("pay_col_{}", ulid(t - r.range(2, 40) * MINUTE, &mut r));
        let k = r.below(100);
        let customer = r.chance(0.55).then(|| r.skewed(customers.len() as u64) as usize);
        let (provider, currency, later, by) = if k < 52 {
            let currency = r.one(&["eur", "eur", "eur", "usd", "usd", "dkk"]);
            let later = match r.below(20) {
                0 => Later::Cancel(r.range(1, 48) * HOUR / 1_000),
                1 | 2 => Later::Open,
                _ => Later::Capture(r.range(2 * 60, 3 * 24 * 60) * MINUTE / 1_000),
            };
            (STRIPE, currency, later, Some(r.below(3) as usize))
        } else if k < 60 {
            (IDEAL, "eur", Later::Now(r.range(250, 900)), None)
        } else if k < 65 {
            (BLIK, "pln", Later::Now(r.range(250, 900)), None)
        } else if k < 90 {
            let later = match r.below(20) {
                0 => Later::Cancel(r.range(1, 96) * HOUR / 1_000),
                1..=7 => Later::Open,
                _ => Later::Capture(r.range(12 * 60, 5 * 24 * 60) * MINUTE / 1_000),
            };
            (SYSTEM, r.one(&["eur", "eur", "dkk"]), later, Some(r.below(3) as usize))
        } else {
            // "Mark as paid" on an order edit's or exchange's collection: captured at once.
            let by = r.below(3) as usize;
            let cents = r.range(5, 60) * 100 + r.one(&[0, 0, 50, 95]);
            pays.push(Pay {
                at: t,
                cents,
                currency: "eur",
                provider: SYSTEM,
                customer: None,
                collection,
                later: Later::Now(r.range(30, 140)),
                by: Some(by),
                inline: true,
                retry: false,
                legit: false,
            });
            continue;
        };
        let cents = cart_total(&mut r, currency);
        let later = later_or_open(t, later);
        let pay = Pay {
            at: t,
            cents,
            currency,
            provider,
            customer,
            collection,
            later,
            by,
            inline: false,
            retry: false,
            legit: false,
        };
        if !matches!(later, Later::Now(_)) && r.chance(0.02) {
            // The completion failed after authorizing: compensation cancels this payment; the
            // customer places the order again, which initiates a new session on the same collection.
            let delay = if r.chance(0.4) { r.range(2_500, 5_000) } else { r.range(10_000, 120_000) };
            let again = ms(t + delay * 1_000);
            pays.push(Pay { later: Later::Cancel(r.range(900, 3_000)), ..pay.clone() });
            pays.push(Pay { at: again, legit: true, ..pay });
        } else if customer.is_some() && r.chance(0.012) {
            // The same customer buys the same cart again: a new cart, a new collection.
            let again = ms(t + r.range(20, 600) * SECOND + r.range(0, 999) * 1_000);
            let collection = format!("pay_col_{}", ulid(again - r.range(1, 5) * MINUTE, &mut r));
            let later = later_or_open(again, pay.later);
            pays.push(pay.clone());
            pays.push(Pay { at: again, collection, later, legit: true, ..pay });
        } else {
            pays.push(pay);
        }
    }
    // Nightly subscription renewals (invoice-paid B2B plans): one workflow run per due
    // subscription, one after the other, each with its own collection and session.
    let plans: [(&str, i64); 5] = [("eur", 1_900), ("eur", 1_900), ("eur", 2_900), ("eur", 4_900), ("dkk", 14_900)];
    for day in 0..28 {
        let mut at = ms(T0 + day * DAY + 2 * HOUR + r.range(0, 4_000) * 1_000);
        let mut seen: Vec<usize> = Vec::new();
        for _ in 0..r.range(6, 14) {
            at += r.range(40, 260) * 1_000;
            let plan = r.below(plans.len() as u64) as usize;
            let (currency, cents) = plans[plan];
            let paid = if r.chance(0.7) { Later::Capture(r.range(24, 6 * 24) * HOUR / 1_000) } else { Later::Open };
            pays.push(Pay {
                at,
                cents,
                currency,
                provider: SYSTEM,
                customer: None,
                collection: format!("pay_col_{}", ulid(at - r.range(5, 30) * 1_000, &mut r)),
                later: later_or_open(at, paid),
                by: Some(r.below(3) as usize),
                inline: true,
                retry: false,
                legit: seen.iter().any(|&p| plans[p] == plans[plan]),
            });
            seen.push(plan);
        }
    }
    // Double-clicked "Mark as paid": both requests pass the not_paid check.
    let marks: Vec<usize> = (0..pays.len())
        .filter(|&i| matches!(pays[i].later, Later::Now(d) if d < 200) && pays[i].by.is_some())
        .collect();
    let n = marks.len();
    for (j, &i) in [marks[n / 6], marks[2 * n / 6], marks[3 * n / 6], marks[4 * n / 6], marks[n - 3], marks[n - 1]]
        .iter()
        .enumerate()
    {
        let gap = if j == 2 { r.range(150, 250) } else { r.range(5, 100) };
        let first = pays[i].clone();
        pays.push(Pay { at: first.at + gap * 1_000, later: Later::Now(r.range(30, 140)), retry: true, ..first });
    }
    pays.sort_by_key(|p| p.at);

    let mut f = Fixture::new("payment", COLUMNS);
    let mut captures = Child::new(
        "capture",
        &[
            "id",
            "amount",
            "payment_id",
            "metadata",
            "created_by",
            "raw_amount",
            "created_at",
            "updated_at",
            "deleted_at",
        ],
    );
    for p in &pays {
        let id = format!("pay_{}", ulid(p.at, &mut r));
        let session_at = if p.inline { p.at - r.range(40, 300) * 1_000 } else { p.at - r.range(3, 600) * SECOND };
        let session = format!("payses_{}", ulid(session_at, &mut r));
        let raw = format!(r#"{{"value": "{}", "precision": 20}}"#, dec(p.cents));
        // An admin's action minutes or days later lands on any millisecond.
        let jitter = |d: i64, r: &mut Rng| if d >= 60_000 { d * 1_000 + r.range(0, 59_999) * 1_000 } else { d * 1_000 };
        let (capture_at, cancel_at) = match p.later {
            Later::Now(d) => (Some(p.at + d * 1_000), None),
            Later::Capture(d) => (Some(p.at + jitter(d, &mut r)), None),
            Later::Cancel(d) => (None, Some(p.at + jitter(d, &mut r))),
            Later::Open => (None, None),
        };
        let data = if p.provider == SYSTEM {
            "{}".to_string()
        } else {
            let (method, manual) = match p.provider {
                IDEAL => ("ideal", false),
                BLIK => ("blik", false),
                _ => ("card", true),
            };
            let captured = !manual || capture_at.is_some();
            let pi = format!("pi_3{}", r.alnum(23));
            format!(
                r#"{{"id": "{pi}", "object": "payment_intent", "amount": {c}, "amount_capturable": {cap}, "amount_received": {rec}, "capture_method": "{cm}", "client_secret": "{pi}_secret_{s}", "created": {created}, "currency": "{cur}", "customer": {cus}, "description": null, "latest_charge": "ch_3{ch}", "livemode": true, "metadata": {{"session_id": "{session}"}}, "payment_method": "pm_1{pm}", "payment_method_types": ["{method}"], "status": "{st}"}}"#,
                c = p.cents,
                cap = if captured { 0 } else { p.cents },
                rec = if captured { p.cents } else { 0 },
                cm = if manual { "manual" } else { "automatic" },
                s = r.alnum(24),
                created = session_at / SECOND,
                cur = p.currency,
                cus = p.customer.map_or("null".to_string(), |c| format!("\"{}\"", customers[c])),
                ch = r.alnum(23),
                pm = r.alnum(23),
                st = if captured { "succeeded" } else { "requires_capture" },
            )
        };
        let updated = capture_at.or(cancel_at).unwrap_or(p.at + r.range(0, 1) * 1_000);
        f.push(&[
            ("id", V::t(&id)),
            ("amount", V::Raw(dec(p.cents))),
            ("currency_code", V::t(p.currency)),
            ("provider_id", V::t(p.provider)),
            ("data", V::t(data)),
            ("captured_at", capture_at.map_or(V::Null, V::AtZ)),
            ("canceled_at", cancel_at.map_or(V::Null, V::AtZ)),
            ("payment_collection_id", V::t(&p.collection)),
            ("payment_session_id", V::t(session)),
            ("raw_amount", V::t(&raw)),
            ("created_at", V::AtZ(p.at)),
            ("updated_at", V::AtZ(updated)),
        ]);
        if let Some(at) = capture_at {
            let created = at - r.range(2, 40) * 1_000;
            let by = match p.later {
                Later::Now(_) if p.provider != SYSTEM => V::Null,
                _ => p.by.map_or(V::Null, |a| V::t(&admins[a])),
            };
            captures.push(&[
                ("id", V::t(format!("capt_{}", ulid(created, &mut r)))),
                ("amount", V::Raw(dec(p.cents))),
                ("payment_id", V::t(&id)),
                ("created_by", by),
                ("raw_amount", V::t(&raw)),
                ("created_at", V::AtZ(created)),
                ("updated_at", V::AtZ(created)),
            ]);
        }
        if p.retry {
            f.extras.insert(id);
        } else if p.legit {
            f.legit.insert(id);
        }
    }
    f.children.push(captures);
    f
}
