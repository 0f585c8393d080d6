//! Kill Bill (Java, jDBI; MySQL first, PostgreSQL through its DDL shim):
//! `payment_transactions`, as `PaymentAutomatonDAOHelper` writes them. On
//! PostgreSQL every time column is the `datetime` domain over `timestamp`
//! (`ddl-postgresql.sql`); `created_date` and `updated_date` are the call
//! context's time. A client that sends no keys gets a new payment and a new
//! transaction each retry, `transaction_external_key` minted as the
//! transaction's id: a double charge nothing links. A keyed retry after a
//! failure adds a row under the same payment and key, by design.

use super::{DAY, Fixture, HOUR, MINUTE, Rng, SECOND, T0, V};
use crate::common::Engine;

pub fn ddl(engine: Engine) -> &'static str {
    match engine {
        Engine::MySql => {
            "CREATE TABLE payment_transactions (
    record_id serial unique,
    id varchar(36) NOT NULL,
    attempt_id varchar(36) DEFAULT NULL,
    transaction_external_key varchar(255) NOT NULL,
    transaction_type varchar(32) NOT NULL,
    effective_date datetime NOT NULL,
    transaction_status varchar(50) NOT NULL,
    amount numeric(15,9),
    currency varchar(3),
    processed_amount numeric(15,9),
    processed_currency varchar(3),
    payment_id varchar(36) NOT NULL,
    gateway_error_code varchar(32),
    gateway_error_msg text,
    created_by varchar(50) NOT NULL,
    created_date datetime NOT NULL,
    updated_by varchar(50) NOT NULL,
    updated_date datetime NOT NULL,
    account_record_id bigint /*! unsigned */ not null,
    tenant_record_id bigint /*! unsigned */ not null default 0,
    PRIMARY KEY (record_id)
) /*! CHARACTER SET utf8 COLLATE utf8_bin */;
CREATE UNIQUE INDEX transactions_id ON payment_transactions(id);
CREATE INDEX transactions_payment_id ON payment_transactions(payment_id);
CREATE INDEX transactions_key ON payment_transactions(transaction_external_key);
CREATE INDEX transactions_status ON payment_transactions(transaction_status);
CREATE INDEX transactions_tenant_account_record_id ON payment_transactions(tenant_record_id, account_record_id);"
        }
        Engine::Postgres => {
            "CREATE DOMAIN datetime AS timestamp without time zone;
CREATE TABLE payment_transactions (
    record_id bigserial unique,
    id varchar(36) NOT NULL,
    attempt_id varchar(36) DEFAULT NULL,
    transaction_external_key varchar(255) NOT NULL,
    transaction_type varchar(32) NOT NULL,
    effective_date datetime NOT NULL,
    transaction_status varchar(50) NOT NULL,
    amount numeric(15,9),
    currency varchar(3),
    processed_amount numeric(15,9),
    processed_currency varchar(3),
    payment_id varchar(36) NOT NULL,
    gateway_error_code varchar(32),
    gateway_error_msg text,
    created_by varchar(50) NOT NULL,
    created_date datetime NOT NULL,
    updated_by varchar(50) NOT NULL,
    updated_date datetime NOT NULL,
    account_record_id bigint /*! unsigned */ not null,
    tenant_record_id bigint /*! unsigned */ not null default 0,
    PRIMARY KEY (record_id)
) /*! CHARACTER SET utf8 COLLATE utf8_bin */;
CREATE UNIQUE INDEX transactions_id ON payment_transactions(id);
CREATE INDEX transactions_payment_id ON payment_transactions(payment_id);
CREATE INDEX transactions_key ON payment_transactions(transaction_external_key);
CREATE INDEX transactions_status ON payment_transactions(transaction_status);"
        }
        Engine::Sqlite => unreachable!("Kill Bill runs on MySQL and PostgreSQL"),
    }
}

const COLUMNS: &[&str] = &[
    "record_id",
    "id",
    "attempt_id",
    "transaction_external_key",
    "transaction_type",
    "effective_date",
    "transaction_status",
    "amount",
    "currency",
    "processed_amount",
    "processed_currency",
    "payment_id",
    "gateway_error_code",
    "gateway_error_msg",
    "created_by",
    "created_date",
    "updated_by",
    "updated_date",
    "account_record_id",
    "tenant_record_id",
];

#[derive(Clone)]
struct Transaction {
    at: i64,
    updated: i64,
    effective: Option<i64>,
    key: Option<String>,
    kind: &'static str,
    status: &'static str,
    amount: Option<(String, &'static str)>,
    payment: String,
    error: Option<(&'static str, &'static str)>,
    by: &'static str,
    account: i64,
    tenant: i64,
    retry: bool,
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(61);
    let mut txs: Vec<Transaction> = Vec::new();
    let mut t = T0;
    let mut order = 1_000;
    while txs.len() < 1_950 {
        t += r.range(30, 2_500) * SECOND;
        let account = 1 + r.skewed(300) as i64;
        let currency = *r.pick(&["USD", "USD", "USD", "USD", "USD", "USD", "USD", "USD", "EUR", "EUR", "GBP"]);
        let amount = format!("{}.{:02}0000000", r.range(5, 900), r.below(100));
        let by = *r.pick(&["admin", "checkout-service", "PaymentRequestProcessor", "PaymentRequestProcessor"]);
        let keyed = r.chance(0.45);
        order += 1;
        let failed = r.chance(0.07);
        let base = Transaction {
            at: t,
            updated: t,
            effective: r.chance(0.02).then(|| t - r.range(1, 30) * DAY),
            key: keyed.then(|| format!("ord-2026-{order:06}")),
            kind: if r.chance(0.12) { "AUTHORIZE" } else { "PURCHASE" },
            status: if failed { "PAYMENT_FAILURE" } else { "SUCCESS" },
            amount: Some((amount.clone(), currency)),
            payment: r.uuid(),
            error: failed.then(|| {
                *r.pick(&[("card_declined", "Your card was declined."), ("insufficient_funds", "Insufficient funds.")])
            }),
            by,
            account,
            tenant: if r.chance(0.05) { 2 } else { 1 },
            retry: false,
        };
        txs.push(base.clone());
        if base.kind == "AUTHORIZE" && !failed {
            // The capture, at fulfilment.
            let at = t + r.range(20, 600) * MINUTE;
            txs.push(Transaction {
                at,
                updated: at,
                kind: "CAPTURE",
                key: base.key.as_ref().map(|k| format!("{k}-capture")),
                ..base.clone()
            });
        }
        if !failed && r.chance(0.08) {
            let at = t + r.range(1, 20) * DAY;
            let refund = Transaction {
                at,
                updated: at,
                kind: "REFUND",
                key: base.key.as_ref().map(|k| format!("{k}-refund-1")),
                ..base.clone()
            };
            txs.push(refund);
        }
        if failed && keyed && r.chance(0.5) {
            // A keyed retry after a failure: the same payment and key, by design.
            let at = t + r.range(5, 600) * SECOND;
            txs.push(Transaction { at, updated: at, status: "SUCCESS", error: None, ..base.clone() });
        } else if !failed && !keyed && base.kind == "PURCHASE" && r.chance(0.014) {
            // No keys: the retry is a new payment and a new transaction.
            let at = t + super::client_retry_delay(&mut r);
            let payment = r.uuid();
            txs.push(Transaction { at, updated: at, payment, retry: true, ..base.clone() });
        }
        if r.chance(0.01) {
            t += 6 * HOUR;
        }
    }
    txs.sort_by_key(|x| x.at);
    let mut f = Fixture::new("payment_transactions", COLUMNS);
    for (i, x) in txs.iter().enumerate() {
        let id = r.uuid();
        let second = |us: i64| us - us.rem_euclid(SECOND);
        let processed = match (x.status, &x.amount) {
            ("SUCCESS", Some((a, c))) => (V::t(a), V::t(*c)),
            (_, Some((_, c))) => (V::t("0.000000000"), V::t(*c)),
            _ => (V::Null, V::Null),
        };
        f.push(&[
            ("record_id", V::I(1 + i as i64)),
            ("id", V::t(&id)),
            ("attempt_id", V::t(r.uuid())),
            ("transaction_external_key", V::t(x.key.clone().unwrap_or_else(|| id.clone()))),
            ("transaction_type", V::t(x.kind)),
            ("effective_date", V::At(second(x.effective.unwrap_or(x.at)))),
            ("transaction_status", V::t(x.status)),
            ("amount", x.amount.as_ref().map_or(V::Null, |(a, _)| V::t(a))),
            ("currency", x.amount.as_ref().map_or(V::Null, |(_, c)| V::t(*c))),
            ("processed_amount", processed.0),
            ("processed_currency", processed.1),
            ("payment_id", V::t(&x.payment)),
            ("gateway_error_code", V::opt_t(x.error.map(|e| e.0))),
            ("gateway_error_msg", V::opt_t(x.error.map(|e| e.1))),
            ("created_by", V::t(x.by)),
            ("created_date", V::At(second(x.at))),
            ("updated_by", V::t(x.by)),
            ("updated_date", V::At(second(x.updated))),
            ("account_record_id", V::I(x.account)),
            ("tenant_record_id", V::I(x.tenant)),
        ]);
        if x.retry {
            f.extras.insert((1 + i as i64).to_string());
        }
    }
    f
}
