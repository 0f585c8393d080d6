//! pretix 2026.8 (Python, Django; PostgreSQL in production, SQLite supported): `pretixbase_order`, as the shop's
//! checkout (`ConfirmStep.post` → celery `perform_order` → `_perform_order` / `_create_order`), the REST API
//! (`OrderCreateSerializer.create`: resellers, a box office app, organizers' scripts) and the CSV order import write
//! it. Its `pretixbase_orderposition` rows (ticket secrets minted per position) are not written here.
//! Read: pretix/pretix src/pretix/base/models/orders.py (`Order`, `generate_secret`, `save`, `assign_code`, `touch`,
//! `set_expires`, `OrderPosition.save`, `transform_cart_positions`, `assign_pseudonymization_id`);
//! base/services/orders.py (`_perform_order`, `_check_positions`, `_create_order`, `perform_order`, `approve_order`,
//! `mark_order_expired`, `expire_orders`, `send_expiry_warnings`, `_cancel_order`, `reactivate_order`);
//! base/services/payment.py (`compute_payment_deadline`); base/services/cart.py (`confirm_messages`);
//! base/services/modelimport.py and base/modelimport_orders.py (order import); base/secrets.py (random ticket
//! secrets); base/settings.py (defaults: payment_term_days 14, payment_term_weekdays, mail_days_order_expire_warning
//! 3, tax_rounding "line", order_phone_asked); base/channels.py; settings.py (`ENTROPY`); presale/checkoutflow.py
//! (`QuestionsStep` storing `contact_form_data`, `ConfirmStep.post` building `meta_info`); presale/forms/checkout.py
//! (`ContactForm`); presale/views/order.py (`OrderOpen`); api/serializers/order.py (`OrderCreateSerializer`);
//! api/middleware.py (`IdempotencyMiddleware`). The DDL is what `python -m pretix migrate` of the 2026.8.0 wheel
//! left on PostgreSQL 15 (pg_dump) and SQLite (.schema), without the foreign keys to tables not created here.
//! On a create: a fresh `id`; `code` 5 random characters of ABCDEFGHJKLMNPQRSTUVWXYZ3789, unique per organizer;
//! `secret` and `internal_secret` 16 random [a-z0-9]; `datetime` now (the checkout's start of the transaction; the
//! API's and the import's `save()`); `last_modified` (auto_now) a few ms on, bumped by every later save; `expires`
//! from the payment term: the local day + N days at 23:59:59 Europe/Berlin, moved off a weekend, never after the
//! event's day; `status` 'n', or 'p' for a free order, an API order sent as paid, a box office sale, an import
//! marked paid; `meta_info` the checkout's JSON of the contact form and the accepted confirmation texts (escaped by
//! `json.dumps`), "{}" from the API and the import; `api_meta` what an API client sent; `locale` without region;
//! `require_approval` for an item that needs it; `email_known_to_work` a verified customer account's; `comment` "",
//! `tax_rounding_mode` "line", the other flags false.
//! Later: online payments confirm in minutes ('p'), bank transfers in hours or days, else the expiry warning
//! (`expiry_reminder_sent`, 3 days before) and `expire_orders` ('e') once `expires` passes; approvals (clearing
//! `require_approval`, a new `expires`, 'p' for a free order) or denials ('c'); cancellations ('c' and
//! `cancellation_date`; the conference keeps a 50.00 fee: stays 'p', `total` 50.00); `email_known_to_work` once the
//! buyer opens the link in the order email; each of these bumps `last_modified`.
//! Retries (about 1% of creates): resellers' API integrations that send no X-Idempotency-Key re-POST after their
//! client timeout, 10-60 s later, some once more 20-120 s on (the reseller later cancels most of the extra orders);
//! the shop's "place binding order" double-submitted so that two `perform_order` tasks run before either commits
//! (the cart positions are still valid, so `_check_positions` takes no lock), 50-400 ms apart: the buyer pays the
//! one the browser shows, the other stays pending, expires or is canceled (a re-send after the first commit finds the
//! cart empty and writes nothing); three late in the table. Legitimate repeats: box office walk-in sales with no
//! email (the same ticket type, 25-240 s apart); the organizer's script creating sponsor passes, one order each, for
//! one contact, ms apart; subscribers with two lines in the CSV import (ms apart, one transaction); the organizer
//! testing the shop in test mode; a buyer's second identical order for a friend 3-40 minutes later; an expired order
//! bought again after its expiry.
//! Guessed (not in pretix): the organizers, events, prices, channels and rates; the reseller's `api_meta` reference;
//! the box office posting through the API as paid; confirmation texts' HTML; timings of payments and clicks. Times
//! are written as V::AtZ (Django writes `YYYY-MM-DD HH:MM:SS.ffffff` on SQLite).
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, Mark, Rng, SECOND, T0, V};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres, Engine::Sqlite];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => "CREATE TABLE pretixbase_order (
    id bigint NOT NULL GENERATED BY DEFAULT AS IDENTITY, code character varying(16) NOT NULL,
    status character varying(3) NOT NULL, email character varying(254), locale character varying(32),
    secret character varying(32) NOT NULL, datetime timestamp with time zone NOT NULL,
    expires timestamp with time zone NOT NULL, total numeric(13,2) NOT NULL, event_id bigint NOT NULL,
    comment text NOT NULL, expiry_reminder_sent boolean NOT NULL, meta_info text, download_reminder_sent boolean NOT NULL,
    checkin_attention boolean NOT NULL, last_modified timestamp with time zone NOT NULL, require_approval boolean NOT NULL,
    testmode boolean NOT NULL, email_known_to_work boolean NOT NULL, cancellation_date timestamp with time zone,
    phone character varying(128), customer_id bigint, custom_followup_at date, valid_if_pending boolean NOT NULL,
    invoice_dirty boolean NOT NULL, checkin_text text, organizer_id bigint NOT NULL, internal_secret character varying(32),
    sales_channel_id bigint NOT NULL, api_meta jsonb NOT NULL, tax_rounding_mode character varying(100) NOT NULL,
    CONSTRAINT pretixbase_order_pkey PRIMARY KEY (id),
    CONSTRAINT order_organizer_code_uniq UNIQUE (organizer_id, code)
);
CREATE INDEX pretixbase__datetim_66aff0_idx ON pretixbase_order USING btree (datetime, id);
CREATE INDEX pretixbase__last_mo_4ebf8b_idx ON pretixbase_order USING btree (last_modified, id);
CREATE INDEX pretixbase_order_code_1a5b4b96 ON pretixbase_order USING btree (code);
CREATE INDEX pretixbase_order_code_1a5b4b96_like ON pretixbase_order USING btree (code varchar_pattern_ops);
CREATE INDEX pretixbase_order_customer_id_5b72f50b ON pretixbase_order USING btree (customer_id);
CREATE INDEX pretixbase_order_event_id_fcc6f9c6 ON pretixbase_order USING btree (event_id);
CREATE INDEX pretixbase_order_organizer_id_015a3ef0 ON pretixbase_order USING btree (organizer_id);
CREATE INDEX pretixbase_order_sales_channel_id_f03dc6c1 ON pretixbase_order USING btree (sales_channel_id);
CREATE INDEX pretixbase_order_status_48db4c28 ON pretixbase_order USING btree (status);
CREATE INDEX pretixbase_order_status_48db4c28_like ON pretixbase_order USING btree (status varchar_pattern_ops)"
            .to_string(),
        Engine::Sqlite => "CREATE TABLE \"pretixbase_order\" (\"id\" integer NOT NULL PRIMARY KEY AUTOINCREMENT,
  \"code\" varchar(16) NOT NULL, \"status\" varchar(3) NOT NULL, \"email\" varchar(254) NULL, \"locale\" varchar(32) NULL,
  \"secret\" varchar(32) NOT NULL, \"datetime\" datetime NOT NULL, \"expires\" datetime NOT NULL, \"total\" decimal NOT NULL,
  \"event_id\" bigint NOT NULL, \"comment\" text NOT NULL, \"expiry_reminder_sent\" bool NOT NULL, \"meta_info\" text NULL,
  \"download_reminder_sent\" bool NOT NULL, \"checkin_attention\" bool NOT NULL, \"last_modified\" datetime NOT NULL,
  \"require_approval\" bool NOT NULL, \"testmode\" bool NOT NULL, \"email_known_to_work\" bool NOT NULL,
  \"cancellation_date\" datetime NULL, \"phone\" varchar(128) NULL, \"customer_id\" bigint NULL,
  \"custom_followup_at\" date NULL, \"valid_if_pending\" bool NOT NULL, \"invoice_dirty\" bool NOT NULL,
  \"checkin_text\" text NULL, \"internal_secret\" varchar(32) NULL, \"sales_channel_id\" bigint NOT NULL,
  \"api_meta\" text NOT NULL CHECK ((JSON_VALID(\"api_meta\") OR \"api_meta\" IS NULL)),
  \"tax_rounding_mode\" varchar(100) NOT NULL, \"organizer_id\" bigint NOT NULL,
  CONSTRAINT \"order_organizer_code_uniq\" UNIQUE (\"organizer_id\", \"code\"));
CREATE INDEX \"pretixbase_order_code_1a5b4b96\" ON \"pretixbase_order\" (\"code\");
CREATE INDEX \"pretixbase_order_status_48db4c28\" ON \"pretixbase_order\" (\"status\");
CREATE INDEX \"pretixbase_order_event_id_fcc6f9c6\" ON \"pretixbase_order\" (\"event_id\");
CREATE INDEX \"pretixbase_order_customer_id_5b72f50b\" ON \"pretixbase_order\" (\"customer_id\");
CREATE INDEX \"pretixbase_order_sales_channel_id_f03dc6c1\" ON \"pretixbase_order\" (\"sales_channel_id\");
CREATE INDEX \"pretixbase_order_organizer_id_015a3ef0\" ON \"pretixbase_order\" (\"organizer_id\");
CREATE INDEX \"pretixbase__datetim_66aff0_idx\" ON \"pretixbase_order\" (\"datetime\", \"id\");
CREATE INDEX \"pretixbase__last_mo_4ebf8b_idx\" ON \"pretixbase_order\" (\"last_modified\", \"id\")"
            .to_string(),
        Engine::MySql => unreachable!("this fixture covers pretix on PostgreSQL and SQLite"),
    }
}

const COLUMNS: &str = "id code status email locale secret datetime expires total event_id comment expiry_reminder_sent \
    meta_info download_reminder_sent checkin_attention last_modified require_approval testmode email_known_to_work \
    cancellation_date phone customer_id custom_followup_at valid_if_pending invoice_dirty checkin_text organizer_id \
    internal_secret sales_channel_id api_meta tax_rounding_mode";
const NOW: i64 = T0;
/// 2026-08-20, a Thursday; Europe/Berlin is UTC+2 all through.
const START: i64 = T0 - 42 * DAY;
const ID0: i64 = 48_215;
const CUST0: i64 = 3_100;
/// Orders per hour of the local day, relative.
const RHYTHM: [i64; 24] = [2, 1, 1, 1, 1, 1, 2, 4, 6, 8, 9, 9, 10, 9, 9, 9, 9, 10, 11, 12, 12, 11, 8, 4];
/// The first create after each of these is retried.
const LATE: [i64; 3] = [NOW - 17 * HOUR, NOW - 12 * HOUR, NOW - 7 * HOUR];
const CODE: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ3789";
const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
const FIRST: &str = "anna lukas marie jonas sophie felix lea paul laura max julia tim hannah leon sarah david lisa \
    jan emma tom nina ben clara finn mia noah elena";
const LAST: &str = "mueller schmidt schneider fischer weber meyer wagner becker schulz hoffmann koch richter klein \
    wolf neumann schwarz braun zimmermann krueger hartmann lange werner";
const DOMAINS: &str = "gmail.com web.de gmx.de t-online.de posteo.de outlook.com icloud.com gmx.net yahoo.de";

// The organizers (indexes 0-3): a municipal theatre (shop, box office); a music festival (its shop asks for a phone
// number; a reseller on the API); a tech conference (customer accounts, approval for speakers, a partner integration
// on the API); free community meetups (RSVPs).
const ORG_ID: [i64; 4] = [2, 5, 9, 14];
/// Their sales channels: the shop, the box office app, the API integration (0: none).
const WEB: [i64; 4] = [3, 11, 21, 30];
const POS: [i64; 4] = [4, 12, 0, 0];
const API: [i64; 4] = [0, 13, 22, 0];
/// The payment term in days.
const TERM: [i64; 4] = [7, 14, 14, 14];
/// The default locale, the other one, and how often buyers use it.
const LOCALE: [(&str, &str, f64); 4] = [("de", "en", 0.12), ("de", "en", 0.2), ("en", "de", 0.3), ("de", "en", 0.4)];
/// Confirmation texts as `rich_text` renders them, escaped as `json.dumps` writes them.
const AGB_DE: &str = r#"<p>Ich habe die <a href=\"https://www.stadttheater-beispiel.de/agb\" rel=\"noopener\" target=\"_blank\">Allgemeinen Gesch\u00e4ftsbedingungen</a> gelesen und akzeptiere sie.</p>"#;
const AGB_EN: &str = r#"<p>I have read and accept the <a href=\"https://www.stadttheater-beispiel.de/agb\" rel=\"noopener\" target=\"_blank\">terms and conditions</a>.</p>"#;
const PHOTO_DE: &str = "<p>Mir ist bekannt, dass auf dem Festival Foto- und Videoaufnahmen gemacht werden.</p>";
const PHOTO_EN: &str = "<p>I understand that photos and videos will be taken at the festival.</p>";
const COC_DE: &str = r#"<p>Ich akzeptiere den <a href=\"https://summit-example.org/coc\" rel=\"noopener\" target=\"_blank\">Verhaltenskodex</a>.</p>"#;
const COC_EN: &str = r#"<p>I agree to the <a href=\"https://summit-example.org/coc\" rel=\"noopener\" target=\"_blank\">Code of Conduct</a>.</p>"#;
const CONFIRM_DE: [&[&str]; 4] = [&[AGB_DE], &[AGB_DE, PHOTO_DE], &[COC_DE], &[]];
const CONFIRM_EN: [&[&str]; 4] = [&[AGB_EN], &[AGB_EN, PHOTO_EN], &[COC_EN], &[]];

struct Ev {
    id: i64,
    org: usize,
    /// The event's day, counted from START (local).
    day: i64,
    /// On sale from this day.
    from: i64,
    w: u64,
    prices: &'static [i64],
    mix: &'static [usize],
    same: bool,
}

fn events() -> Vec<Ev> {
    let mut e = Vec::new();
    for (k, day) in [3, 8, 12, 17, 22, 26, 31, 36, 40, 47, 55].into_iter().enumerate() {
        let th: &[i64] = &[3_900, 2_900, 1_900];
        e.push(Ev { id: 211 + k as i64, org: 0, day, from: -30, w: 5, prices: th, mix: &[0, 0, 1, 1, 2], same: true });
    }
    let (fe, co): (&[i64], &[i64]) = (&[8_900, 4_900, 1_500, 1_000], &[49_900, 14_900, 9_900, 0]);
    e.push(Ev { id: 233, org: 1, day: 60, from: -90, w: 14, prices: fe, mix: &[0, 0, 0, 1, 1, 2, 3], same: false });
    e.push(Ev { id: 241, org: 2, day: 50, from: -60, w: 10, prices: co, mix: &[0, 0, 0, 1, 2], same: false });
    e.push(Ev { id: 242, org: 2, day: 20, from: -20, w: 3, prices: &[24_900], mix: &[0], same: true });
    e.push(Ev { id: 243, org: 2, day: 85, from: 29, w: 6, prices: co, mix: &[0, 0, 0, 1, 2], same: false });
    for (k, day) in [5, 12, 19, 26, 33, 40].into_iter().enumerate() {
        e.push(Ev { id: 251 + k as i64, org: 3, day, from: day - 14, w: 4, prices: &[0], mix: &[0], same: true });
    }
    e
}

#[derive(Clone, Copy, Default, PartialEq)]
enum Via {
    #[default]
    Web,
    Api,
    Pos,
    Import,
}

#[derive(Clone, Copy, Default, PartialEq)]
enum Pay {
    #[default]
    Online,
    Abandon,
    Bank,
    Unpaid,
    Free,
    Paid,
    Approval,
}

#[derive(Clone, Default)]
struct Ord {
    at: i64,
    ev: usize,
    org: usize,
    via: Via,
    pay: Pay,
    email: Option<String>,
    phone: Option<String>,
    locale: &'static str,
    customer: Option<i64>,
    testmode: bool,
    api_meta: String,
    total: i64,
    mark: Mark,
}

fn order(at: i64, ev: usize, e: &Ev, via: Via, pay: Pay, items: Vec<usize>) -> Ord {
    let total = items.iter().map(|&i| e.prices[i]).sum();
    let (org, locale, api_meta) = (e.org, LOCALE[e.org].0, "{}".to_string());
    Ord { at, ev, org, via, pay, locale, total, api_meta, ..Ord::default() }
}

fn chars(r: &mut Rng, set: &[u8], n: usize) -> String {
    (0..n).map(|_| set[r.below(set.len() as u64) as usize] as char).collect()
}

fn cap(s: &str) -> String {
    format!("{}{}", s[..1].to_uppercase(), &s[1..])
}

fn word<'a>(r: &mut Rng, list: &'a str) -> &'a str {
    let words: Vec<&str> = list.split_whitespace().collect();
    words[r.below(words.len() as u64) as usize]
}

/// The email address a buyer types.
fn person(r: &mut Rng) -> String {
    let (f, l, d) = (word(r, FIRST), word(r, LAST), word(r, DOMAINS));
    let local = match r.below(5) {
        0 => format!("{}.{l}", &f[..1]),
        1 => format!("{f}{l}{}", r.range(60, 99)),
        2 => format!("{f}_{l}"),
        _ => format!("{f}.{l}"),
    };
    let local = if r.chance(0.08) { cap(&local) } else { local };
    format!("{local}@{d}")
}

fn basket(r: &mut Rng, e: &Ev) -> Vec<usize> {
    let n: usize = r.one(&[1, 1, 1, 2, 2, 2, 3, 4]);
    let first = r.one(e.mix);
    let mut b: Vec<usize> = (0..n).map(|i| if e.same || i == 0 { first } else { r.one(e.mix) }).collect();
    b.sort_unstable();
    b
}

fn weighted(r: &mut Rng, open: &[(usize, u64)]) -> usize {
    let mut x = r.below(open.iter().map(|o| o.1).sum());
    for &(i, w) in open {
        if x < w {
            return i;
        }
        x -= w;
    }
    open[0].0
}

fn local_day(t: i64) -> i64 {
    (t + 2 * HOUR - START).div_euclid(DAY)
}

/// `compute_payment_deadline`: the local day + term at 23:59:59, off a weekend, not after the event's day.
fn expires(t: i64, term: i64, event_day: i64) -> i64 {
    let mut d = local_day(t) + term;
    match (3 + d).rem_euclid(7) {
        5 => d += 2,
        6 => d += 1,
        _ => {}
    }
    START + d.min(event_day) * DAY + 22 * HOUR - SECOND
}

fn money(cents: i64) -> V {
    V::Raw(format!("{}.{:02}", cents / 100, cents % 100))
}

fn meta(o: &Ord) -> String {
    if o.via != Via::Web {
        return "{}".to_string();
    }
    let mut c = format!(r#"{{"email": "{}""#, o.email.as_deref().unwrap_or_default());
    if o.org == 1 {
        c += &o.phone.as_ref().map_or_else(|| ", \"phone\": null".to_string(), |p| format!(r#", "phone": "{p}""#));
    }
    let msgs = if o.locale == "de" { CONFIRM_DE[o.org] } else { CONFIRM_EN[o.org] };
    let msgs: Vec<String> = msgs.iter().map(|m| format!("\"{m}\"")).collect();
    format!(r#"{{"contact_form_data": {c}}}, "confirm_messages": [{}]}}"#, msgs.join(", "))
}

fn channel(o: &Ord) -> i64 {
    match o.via {
        Via::Web | Via::Import => WEB[o.org],
        Via::Api => API[o.org],
        Via::Pos => POS[o.org],
    }
}

/// What the row holds now.
struct Life {
    status: &'static str,
    exp: i64,
    last: i64,
    cancel: Option<i64>,
    remind: bool,
    known: bool,
    approval: bool,
    total: i64,
}

fn life(r: &mut Rng, o: &Ord, e: &Ev) -> Life {
    let term = TERM[e.org];
    let made = match o.via {
        Via::Web => r.range(40, 260),
        Via::Import => r.range(4, 18),
        _ => r.range(12, 90),
    } * 1_000;
    let (exp, last, known, approval) =
        (expires(o.at, term, e.day), o.at + made, o.customer.is_some(), o.pay == Pay::Approval);
    let mut l = Life { status: "n", exp, last, cancel: None, remind: false, known, approval, total: o.total };
    let paid = match o.pay {
        Pay::Free | Pay::Paid => Some(l.last),
        Pay::Online => Some(o.at + r.range(40, 480) * SECOND + r.below(1_000_000) as i64),
        Pay::Bank => Some(o.at + r.range(4 * 3_600, 6 * 86_400) * SECOND).filter(|&p| p < l.exp),
        Pay::Approval => {
            let d = o.at + r.range(2 * 3_600, 3 * 86_400) * SECOND;
            if d < NOW {
                if r.chance(0.8) {
                    (l.approval, l.exp, l.status) = (false, expires(d, term, e.day), "p");
                } else {
                    (l.status, l.cancel) = ("c", Some(d));
                }
                l.last = d;
            }
            None
        }
        Pay::Abandon | Pay::Unpaid => None,
    };
    if let Some(p) = paid.filter(|&p| p < NOW) {
        l.status = "p";
        l.last = l.last.max(p);
    }
    let cancel_at = if o.mark == Mark::Retry && o.via == Via::Api && r.chance(0.55) {
        Some(o.at + r.range(3_600, 3 * 86_400) * SECOND)
    } else if o.pay == Pay::Abandon && r.chance(0.3) {
        Some(o.at + r.range(2 * 3_600, 2 * 86_400) * SECOND)
    } else if o.via == Via::Web && matches!(o.pay, Pay::Online | Pay::Bank) && r.chance(0.02) {
        Some(o.at + r.range(86_400, 12 * 86_400) * SECOND)
    } else {
        None
    };
    let stop = cancel_at.unwrap_or(NOW).min(NOW);
    if l.status == "n" && !l.approval {
        let rem = (o.at + 2 * HOUR).max(l.exp - 3 * DAY) + r.range(0, 3_599) * SECOND;
        if o.email.is_some() && rem < l.exp && rem < stop {
            l.remind = true;
            l.last = l.last.max(rem);
        }
        let ex = l.exp + r.range(60, 900) * SECOND;
        if ex < stop {
            l.status = "e";
            l.last = l.last.max(ex);
        }
    }
    if let Some(c) = cancel_at.filter(|&c| c < NOW && l.status != "e" && l.status != "c") {
        if e.org == 2 && l.status == "p" && l.total > 5_000 {
            l.total = 5_000;
        } else {
            l.status = "c";
        }
        l.cancel = Some(c);
        l.last = l.last.max(c);
    }
    if o.via == Via::Web && o.email.is_some() && !l.known && r.chance(0.35) {
        let k = o.at + r.range(120, 3 * 86_400) * SECOND;
        if k < NOW {
            l.known = true;
            l.last = l.last.max(k);
        }
    }
    l
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(4_711);
    let evs = events();
    let cust: Vec<String> = (0..300).map(|_| person(&mut r)).collect();
    let mut v: Vec<Ord> = Vec::new();
    let mut t = START;
    let mut late = 0;
    loop {
        let hour = ((t + 2 * HOUR).rem_euclid(DAY) / HOUR) as usize;
        t += r.range(20, 3_000) * SECOND * 8 / RHYTHM[hour] + r.below(1_000_000) as i64;
        if t >= NOW - 10 * SECOND {
            break;
        }
        let day = local_day(t);
        let resold = r.chance(0.115);
        let open: Vec<(usize, u64)> = (0..evs.len())
            .filter(|&i| evs[i].day >= day && day >= evs[i].from && (!resold || API[evs[i].org] > 0))
            .map(|i| (i, evs[i].w * if evs[i].day - day <= 4 { 3 } else { 1 }))
            .collect();
        let ei = weighted(&mut r, &open);
        let e = &evs[ei];
        let forced = late < LATE.len() && t > LATE[late];
        late += usize::from(forced);
        if resold {
            // A reseller's integration; its client gives up after a timeout and posts again.
            let mut o = order(t, ei, e, Via::Api, Pay::Paid, basket(&mut r, e));
            o.email = r.chance(0.7).then(|| person(&mut r));
            o.locale = if r.chance(0.25) { "en" } else { "de" };
            if e.org == 1 {
                o.api_meta = format!(r#"{{"reseller_order": "EVX-{}"}}"#, r.range(100_000, 999_999));
            }
            v.push(o.clone());
            if forced || r.chance(0.13) {
                let a1 = t + r.range(10_000, 60_000) * 1_000 + r.below(1_000) as i64;
                v.push(Ord { at: a1, mark: Mark::Retry, ..o.clone() });
                if r.chance(0.35) {
                    v.push(Ord { at: a1 + r.range(20_000, 120_000) * 1_000, mark: Mark::Retry, ..o });
                }
            }
            continue;
        }
        let mut items = basket(&mut r, e);
        if e.org == 2 && e.prices.len() > 3 && r.chance(0.04) {
            items = vec![3];
        }
        let total: i64 = items.iter().map(|&i| e.prices[i]).sum();
        let pay = if e.org == 2 && items == [3] {
            Pay::Approval
        } else if total == 0 {
            Pay::Free
        } else if r.chance(0.64) {
            if r.chance(0.12) { Pay::Abandon } else { Pay::Online }
        } else if r.chance(0.78) {
            Pay::Bank
        } else {
            Pay::Unpaid
        };
        let mut o = order(t, ei, e, Via::Web, pay, items);
        let (main, alt, share) = LOCALE[e.org];
        o.locale = if r.chance(share) { alt } else { main };
        if e.org == 2 && r.chance(0.3) {
            let c = r.skewed(cust.len() as u64) as usize;
            (o.customer, o.email) = (Some(CUST0 + c as i64), Some(cust[c].clone()));
        } else {
            o.email = Some(person(&mut r));
        }
        if e.org == 1 && r.chance(0.4) {
            o.phone = Some(format!("+49{}{:07}", r.one(&[151, 160, 170, 176, 179]), r.range(0, 9_999_999)));
        }
        v.push(o.clone());
        if forced || r.chance(0.006) {
            // Two perform_order tasks for one cart: the buyer pays the order the browser ends up on.
            let (p1, p2) = match o.pay {
                Pay::Free | Pay::Approval => (o.pay, o.pay),
                _ if r.chance(0.5) => (Pay::Online, Pay::Abandon),
                _ => (Pay::Abandon, Pay::Online),
            };
            if let Some(first) = v.last_mut() {
                first.pay = p1;
            }
            v.push(Ord { at: t + r.range(50, 400) * 1_000 + r.below(1_000) as i64, pay: p2, mark: Mark::Retry, ..o });
        } else if r.chance(0.015) {
            // The same tickets once more, for a friend.
            v.push(Ord { at: t + r.range(180, 2_400) * SECOND + r.below(1_000_000) as i64, ..o });
        } else if pay == Pay::Unpaid && r.chance(0.25) {
            // Bought again after the unpaid order expired.
            let at = expires(t, TERM[e.org], e.day) + r.range(3_600, 3 * 86_400) * SECOND;
            if local_day(at) <= e.day {
                v.push(Ord { at, pay: Pay::Online, ..o });
            }
        }
    }
    // The box office on each performance's evening: walk-ins, paid on the spot, no email.
    for (ei, e) in evs.iter().enumerate().filter(|(_, e)| e.org == 0 && e.day < 42) {
        let mut at = START + e.day * DAY + 16 * HOUR + r.range(0, 900) * SECOND;
        for _ in 0..12 + r.below(36) {
            let (cat, n): (usize, usize) = (r.one(e.mix), r.one(&[1, 1, 1, 2, 2, 3]));
            v.push(order(at, ei, e, Via::Pos, Pay::Paid, vec![cat; n]));
            at += r.range(25, 240) * SECOND + r.below(1_000_000) as i64;
        }
    }
    // The theatre's subscribers imported from CSV as paid orders; a subscriber with two lines gets two orders.
    for (day, ei) in [(2, 2), (21, 6)] {
        let e = &evs[ei];
        let mut at = START + day * DAY + r.range(7 * 3_600, 10 * 3_600) * SECOND;
        let mut batch: Vec<Ord> = Vec::new();
        for _ in 0..45 + r.below(30) {
            let o = if batch.len() > 2 && r.chance(0.08) {
                let j = r.below(batch.len() as u64) as usize;
                Ord { at, ..batch[j].clone() }
            } else {
                let n: usize = r.one(&[1, 2, 2, 2]);
                let mut o = order(at, ei, e, Via::Import, Pay::Paid, vec![0; n]);
                o.email = Some(person(&mut r));
                o
            };
            batch.push(o);
            at += r.range(8_000, 30_000);
        }
        v.extend(batch);
    }
    // The conference's script: one free sponsor pass per order, each sponsor's contact on all of theirs.
    for day in [9, 27] {
        let mut at = START + day * DAY + r.range(8 * 3_600, 15 * 3_600) * SECOND;
        for _ in 0..2 + r.below(2) {
            let contact = person(&mut r);
            for _ in 0..4 + r.below(5) {
                let mut o = order(at, 12, &evs[12], Via::Api, Pay::Paid, vec![3]);
                (o.email, o.locale) = (Some(contact.clone()), "en");
                v.push(o);
                at += r.range(60_000, 250_000);
            }
            at += r.range(2, 20) * SECOND;
        }
    }
    // The organizer tries the new event's shop in test mode the day before it opens.
    let mut at = START + 28 * DAY + 12 * HOUR + r.range(0, 1_800) * SECOND;
    let tries =
        [(0, Pay::Online), (0, Pay::Online), (0, Pay::Bank), (1, Pay::Online), (0, Pay::Bank), (3, Pay::Approval)];
    for (item, pay) in tries {
        let mut o = order(at, 14, &evs[14], Via::Web, pay, vec![item]);
        (o.email, o.testmode) = (Some("j.hartmann@summit-example.org".to_string()), true);
        v.push(o);
        at += r.range(40, 420) * SECOND + r.below(1_000_000) as i64;
    }
    v.retain(|o| o.at < NOW - SECOND);
    v.sort_by_key(|o| o.at);
    // A create equal to an earlier one on all the order row holds, not a retry, is a repeat the app meant.
    let mut seen = HashSet::new();
    for o in v.iter_mut() {
        let (id, approval, m) = (evs[o.ev].id, o.pay == Pay::Approval, meta(o));
        let key =
            (id, channel(o), o.email.clone(), o.phone.clone(), o.locale, o.total, o.customer, o.testmode, approval);
        if !seen.insert((key, m, o.api_meta.clone())) && o.mark == Mark::Plain {
            o.mark = Mark::Legit;
        }
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("pretixbase_order", &columns);
    let mut codes: HashSet<(i64, String)> = HashSet::new();
    for (k, o) in v.iter().enumerate() {
        let (id, e) = (ID0 + k as i64, &evs[o.ev]);
        let org = ORG_ID[e.org];
        let l = life(&mut r, o, e);
        let code = loop {
            let c = chars(&mut r, CODE, 5);
            if codes.insert((org, c.clone())) {
                break c;
            }
        };
        f.push(&[
            ("id", V::I(id)),
            ("code", V::t(code)),
            ("status", V::t(l.status)),
            ("email", V::opt_t(o.email.as_deref())),
            ("locale", V::t(o.locale)),
            ("secret", V::t(chars(&mut r, LOWER, 16))),
            ("datetime", V::AtZ(o.at)),
            ("expires", V::AtZ(l.exp)),
            ("total", money(l.total)),
            ("event_id", V::I(e.id)),
            ("comment", V::t("")),
            ("expiry_reminder_sent", V::B(l.remind)),
            ("meta_info", V::t(meta(o))),
            ("download_reminder_sent", V::B(false)),
            ("checkin_attention", V::B(false)),
            ("last_modified", V::AtZ(l.last)),
            ("require_approval", V::B(l.approval)),
            ("testmode", V::B(o.testmode)),
            ("email_known_to_work", V::B(l.known)),
            ("cancellation_date", l.cancel.map_or(V::Null, V::AtZ)),
            ("phone", V::opt_t(o.phone.as_deref())),
            ("customer_id", V::opt_i(o.customer)),
            ("valid_if_pending", V::B(false)),
            ("invoice_dirty", V::B(false)),
            ("organizer_id", V::I(org)),
            ("internal_secret", V::t(chars(&mut r, LOWER, 16))),
            ("sales_channel_id", V::I(channel(o))),
            ("api_meta", V::t(&o.api_meta)),
            ("tax_rounding_mode", V::t("line")),
        ]);
        f.mark(id, o.mark);
    }
    f
}
