//! Spree 5 (Rails, PostgreSQL and MySQL/MariaDB): `spree_payments`, as its
//! checkout writes them. Card payments come from a gateway session (one row
//! per PaymentIntent, never duplicated); a check or cash-on-delivery payment
//! is `POST /carts/:id/payments`, with no dedup: a retried request inserts a
//! second row, and its `after_create :invalidate_old_payments` turns the
//! first into `invalid` (updated at the retry's creation). At `/complete`
//! only the second is processed. Payments carry no currency (the order's).

use super::{DAY, Fixture, MINUTE, Rng, SECOND, T0, V};
use crate::common::Engine;

pub fn ddl(engine: Engine) -> &'static str {
    match engine {
        Engine::Postgres => {
            "CREATE TABLE spree_payments (
  id bigserial PRIMARY KEY,
  amount numeric(10,2) DEFAULT 0.0 NOT NULL,
  order_id bigint,
  source_type character varying,
  source_id bigint,
  payment_method_id bigint,
  state character varying,
  response_code character varying,
  avs_response character varying,
  created_at timestamp(6) without time zone NOT NULL,
  updated_at timestamp(6) without time zone NOT NULL,
  number character varying,
  cvv_response_code character varying,
  cvv_response_message character varying,
  public_metadata jsonb,
  private_metadata jsonb
);
CREATE UNIQUE INDEX index_spree_payments_on_number ON spree_payments (number);
CREATE INDEX index_spree_payments_on_order_id ON spree_payments (order_id);
CREATE INDEX index_spree_payments_on_payment_method_id ON spree_payments (payment_method_id);
CREATE UNIQUE INDEX idx_payments_order_method_response_code ON spree_payments
  (order_id, payment_method_id, response_code) WHERE (response_code IS NOT NULL);"
        }
        Engine::MySql => {
            "CREATE TABLE `spree_payments` (
  `id` bigint NOT NULL AUTO_INCREMENT,
  `amount` decimal(10,2) NOT NULL DEFAULT '0.00',
  `order_id` bigint DEFAULT NULL,
  `source_type` varchar(255) DEFAULT NULL,
  `source_id` bigint DEFAULT NULL,
  `payment_method_id` bigint DEFAULT NULL,
  `state` varchar(255) DEFAULT NULL,
  `response_code` varchar(255) DEFAULT NULL,
  `avs_response` varchar(255) DEFAULT NULL,
  `created_at` datetime(6) NOT NULL,
  `updated_at` datetime(6) NOT NULL,
  `number` varchar(255) DEFAULT NULL,
  `cvv_response_code` varchar(255) DEFAULT NULL,
  `cvv_response_message` varchar(255) DEFAULT NULL,
  `public_metadata` json DEFAULT NULL,
  `private_metadata` json DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `index_spree_payments_on_number` (`number`),
  UNIQUE KEY `idx_payments_order_method_response_code` (`order_id`,`payment_method_id`,`response_code`),
  KEY `index_spree_payments_on_order_id` (`order_id`),
  KEY `index_spree_payments_on_payment_method_id` (`payment_method_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"
        }
        Engine::Sqlite => unreachable!("Spree runs on PostgreSQL and MySQL"),
    }
}

const COLUMNS: &[&str] = &[
    "id",
    "amount",
    "order_id",
    "source_type",
    "source_id",
    "payment_method_id",
    "state",
    "response_code",
    "avs_response",
    "created_at",
    "updated_at",
    "number",
    "cvv_response_code",
    "public_metadata",
    "private_metadata",
];

struct Payment {
    at: i64,
    updated: i64,
    amount: String,
    order: i64,
    source: Option<(&'static str, i64)>,
    method: i64,
    state: &'static str,
    response: Option<String>,
    card_checks: bool,
    private: String,
    /// Left `invalid` by the retry that repeated it.
    invalidated: bool,
    retry_of: Option<usize>,
}

pub struct Spree {
    pub fixture: Fixture,
    /// The rows each retry left behind (`invalid`), and the rows kept.
    pub invalid: Vec<String>,
    pub kept: Vec<String>,
}

fn number(r: &mut Rng) -> String {
    const CHARS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    format!("P{}", (0..7).map(|_| CHARS[r.below(36) as usize] as char).collect::<String>())
}

pub fn fixture() -> Spree {
    let mut r = Rng::new(37);
    let mut payments: Vec<Payment> = Vec::new();
    let mut t = T0;
    let mut card = 7_000;
    for order in 1..=1_900i64 {
        t += r.range(20, 1_300) * SECOND;
        let amount = format!("{}.{:02}", r.range(9, 480), r.below(100));
        let kind = r.below(100);
        if kind < 82 {
            // A card through the gateway's session: one row for its PaymentIntent.
            if r.chance(0.03) {
                // A declined card first (the test gateway leaves a failed row), then another.
                card += 1;
                payments.push(Payment {
                    at: t - r.range(10, 120) * SECOND,
                    updated: t,
                    amount: amount.clone(),
                    order,
                    source: Some(("Spree::CreditCard", card)),
                    method: 4,
                    state: "failed",
                    response: None,
                    card_checks: false,
                    private: "{}".into(),
                    invalidated: false,
                    retry_of: None,
                });
            }
            card += 1;
            let state = if r.chance(0.03) { "pending" } else { "completed" };
            payments.push(Payment {
                at: t,
                updated: t + r.range(1, 5) * SECOND,
                amount: amount.clone(),
                order,
                source: Some(("Spree::CreditCard", card)),
                method: 1,
                state,
                response: Some(format!("pi_{}", r.alnum(24))),
                card_checks: true,
                private: format!(r#"{{"stripe_charge_id": "ch_{}", "stripe_tax_transaction_id": null}}"#, r.alnum(24)),
                invalidated: false,
                retry_of: None,
            });
        } else if kind < 97 {
            // Check or cash on delivery: POST /carts/:id/payments, processed at /complete.
            let completed = t + r.range(2, 40) * MINUTE;
            let state = if r.chance(0.2) { "pending" } else { "completed" };
            let retried = r.chance(0.06);
            let first = Payment {
                at: t,
                updated: completed,
                amount: amount.clone(),
                order,
                source: None,
                method: 2,
                state,
                response: None,
                card_checks: false,
                private: "{}".into(),
                invalidated: false,
                retry_of: None,
            };
            if retried {
                // The retry's create invalidates the first; only the retry is processed.
                let retry_at = t + super::client_retry_delay(&mut r);
                let i = payments.len();
                payments.push(Payment { state: "invalid", updated: retry_at, invalidated: true, ..first });
                payments.push(Payment {
                    at: retry_at,
                    updated: completed,
                    amount,
                    order,
                    source: None,
                    method: 2,
                    state,
                    response: None,
                    card_checks: false,
                    private: "{}".into(),
                    invalidated: false,
                    retry_of: Some(i),
                });
            } else {
                payments.push(first);
            }
        } else {
            // Store credit covering part of the order, and a card for the rest.
            card += 1;
            payments.push(Payment {
                at: t,
                updated: t + SECOND,
                amount: "10.00".into(),
                order,
                source: Some(("Spree::StoreCredit", 300 + order % 50)),
                method: 3,
                state: "completed",
                response: None,
                card_checks: false,
                private: "{}".into(),
                invalidated: false,
                retry_of: None,
            });
            payments.push(Payment {
                at: t + 2 * SECOND,
                updated: t + 4 * SECOND,
                amount,
                order,
                source: Some(("Spree::CreditCard", card)),
                method: 1,
                state: "completed",
                response: Some(format!("pi_{}", r.alnum(24))),
                card_checks: true,
                private: format!(r#"{{"stripe_charge_id": "ch_{}", "stripe_tax_transaction_id": null}}"#, r.alnum(24)),
                invalidated: false,
                retry_of: None,
            });
        }
        if r.chance(0.02) {
            t += DAY / 4;
        }
    }
    let mut order: Vec<usize> = (0..payments.len()).collect();
    order.sort_by_key(|&i| payments[i].at);
    let mut id_of = vec![0i64; payments.len()];
    for (n, &i) in order.iter().enumerate() {
        id_of[i] = 1 + n as i64;
    }
    let mut fixture = Fixture::new("spree_payments", COLUMNS);
    let (mut invalid, mut kept) = (Vec::new(), Vec::new());
    for &i in &order {
        let p = &payments[i];
        let id = id_of[i];
        fixture.push(&[
            ("id", V::I(id)),
            ("amount", V::t(&p.amount)),
            ("order_id", V::I(p.order)),
            ("source_type", V::opt_t(p.source.map(|(t, _)| t))),
            ("source_id", V::opt_i(p.source.map(|(_, s)| s))),
            ("payment_method_id", V::I(p.method)),
            ("state", V::t(p.state)),
            ("response_code", V::opt_t(p.response.as_deref())),
            ("avs_response", if p.card_checks { V::t("Y") } else { V::Null }),
            ("created_at", V::At(p.at)),
            ("updated_at", V::At(p.updated)),
            ("number", V::t(number(&mut r))),
            ("cvv_response_code", if p.card_checks { V::t("M") } else { V::Null }),
            ("public_metadata", V::t("{}")),
            ("private_metadata", V::t(&p.private)),
        ]);
        if p.invalidated {
            invalid.push(id.to_string());
        }
        if let Some(first) = p.retry_of {
            kept.push(id.to_string());
            let _ = id_of[first];
        }
    }
    fixture.extras = invalid.iter().cloned().collect();
    Spree { fixture, invalid, kept }
}
