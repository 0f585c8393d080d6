//! Lago (Rails, PostgreSQL): `events`, as `Events::CreateService` writes a
//! usage event posted to `POST /api/v1/events`. `transaction_id` is the
//! client's key, unique per (organization, external subscription); the
//! `timestamp` is the client's event time when it sends one, else the
//! request's. A client that mints a new `transaction_id` per attempt gets a
//! second row the index cannot stop; a metering client posts many equal
//! events a second apart, each with its own id and time.

use super::{Fixture, Rng, SECOND, T0, V};

pub const DDL: &str = r#"
CREATE TABLE events (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    organization_id uuid NOT NULL,
    customer_id uuid,
    transaction_id character varying NOT NULL,
    code character varying NOT NULL,
    properties jsonb DEFAULT '{}'::jsonb NOT NULL,
    "timestamp" timestamp without time zone,
    created_at timestamp(6) without time zone NOT NULL,
    updated_at timestamp(6) without time zone NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    subscription_id uuid,
    deleted_at timestamp(6) without time zone,
    external_customer_id character varying,
    external_subscription_id character varying,
    precise_total_amount_cents numeric(40,15)
)
WITH (autovacuum_vacuum_scale_factor='0.005');
ALTER TABLE ONLY events ADD CONSTRAINT events_pkey PRIMARY KEY (id);
CREATE INDEX index_events_on_created_at ON events USING btree (created_at) WHERE (deleted_at IS NULL);
CREATE INDEX index_events_on_organization_id_and_code ON events USING btree (organization_id, code);
CREATE INDEX index_events_on_organization_id_and_transaction_id ON events USING btree (organization_id, transaction_id) WHERE (deleted_at IS NULL);
CREATE UNIQUE INDEX index_unique_transaction_id ON events USING btree (organization_id, external_subscription_id, transaction_id);"#;

const COLUMNS: &[&str] = &[
    "id",
    "organization_id",
    "transaction_id",
    "code",
    "properties",
    "timestamp",
    "created_at",
    "updated_at",
    "metadata",
    "external_subscription_id",
    "precise_total_amount_cents",
];

#[derive(Clone)]
struct Event {
    at: i64,
    org: usize,
    subscription: String,
    code: &'static str,
    properties: String,
    client_time: bool,
    event_time: i64,
    client: usize,
    amount: Option<String>,
    retry: bool,
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(53);
    let orgs = [r.uuid(), r.uuid()];
    let subscriptions: Vec<String> = (0..50).map(|_| format!("sub_{}", r.hex(8))).collect();
    let clients = [
        r#"{"user_agent": "lago-python-client/1.8.0", "ip_address": "203.0.113.7"}"#,
        r#"{"user_agent": "lago-ruby-client/1.2.1", "ip_address": "203.0.113.22"}"#,
        r#"{"user_agent": "lago-go-client/1.3.0", "ip_address": "198.51.100.4"}"#,
    ];
    let mut events: Vec<Event> = Vec::new();
    let mut t = T0;
    while events.len() < 1_980 {
        t += r.range(5, 3_000) * SECOND;
        let subscription = subscriptions[r.skewed(50) as usize].clone();
        let code = *r.pick(&["api_calls", "api_calls", "api_calls", "storage_gb", "seats", "compute_minutes"]);
        let properties = match code {
            "api_calls" => {
                r.pick(&[r#"{}"#, r#"{"count": 1}"#, r#"{"method": "GET", "region": "eu-west-1"}"#]).to_string()
            }
            "storage_gb" => format!(r#"{{"gb": "{}.{}"}}"#, r.range(1, 80), r.below(10)),
            "seats" => format!(r#"{{"user_id": "u_{}", "operation_type": "add"}}"#, r.range(100, 999)),
            _ => format!(r#"{{"minutes": {}.{}}}"#, r.range(1, 9), r.below(100)),
        };
        let client = r.below(3) as usize;
        let client_time = client != 2;
        let lag = r.range(50_000, 2_500_000);
        let event = Event {
            at: t + lag,
            org: usize::from(r.chance(0.2)),
            subscription,
            code,
            properties,
            client_time,
            event_time: t,
            client,
            amount: r.chance(0.05).then(|| format!("{}.{:03}000000000000", r.range(1, 9_999), r.below(1000))),
            retry: false,
        };
        events.push(event.clone());
        // Metering: the same call counted again a second or so later, its own event.
        if code == "api_calls" && r.chance(0.15) {
            for k in 1..=r.range(1, 3) {
                let gap = k * r.range(900_000, 1_800_000);
                events.push(Event { at: event.at + gap, event_time: event.event_time + gap, ..event.clone() });
            }
        }
        // A client that mints a new transaction_id in its retry loop; the
        // event time is the one it computed once.
        if client_time && r.chance(0.012) {
            events.push(Event { at: event.at + super::client_retry_delay(&mut r), retry: true, ..event });
        }
    }
    events.sort_by_key(|e| e.at);
    let mut f = Fixture::new("events", COLUMNS);
    for e in &events {
        let id = r.uuid();
        let event_time = if e.client_time { e.event_time } else { e.at - r.range(1_000, 9_000) };
        f.push(&[
            ("id", V::t(&id)),
            ("organization_id", V::t(&orgs[e.org])),
            ("transaction_id", V::t(if r.chance(0.6) { r.uuid() } else { format!("evt_{}", r.alnum(26)) })),
            ("code", V::t(e.code)),
            ("properties", V::t(&e.properties)),
            ("timestamp", V::At(event_time)),
            ("created_at", V::At(e.at)),
            ("updated_at", V::At(e.at)),
            ("metadata", V::t(clients[e.client])),
            ("external_subscription_id", V::t(&e.subscription)),
            ("precise_total_amount_cents", V::opt_t(e.amount.as_deref())),
        ]);
        if e.retry {
            f.extras.insert(id);
        }
    }
    f
}
