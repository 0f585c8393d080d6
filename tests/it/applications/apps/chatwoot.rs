//! Chatwoot (Ruby on Rails, ActiveRecord, PostgreSQL): `messages`, as `Messages::MessageBuilder`
//! (dashboard and API-channel posts), `Whatsapp::IncomingMessageBaseService`,
//! `Twilio::IncomingMessageService` (run by a Sidekiq job), `MailboxHelper#create_message`,
//! the template hooks and the conversation activity messages write them.
//! Read: chatwoot/chatwoot db/schema.rb (`messages`), app/models/message.rb,
//! app/builders/messages/message_builder.rb, app/services/whatsapp/incoming_message_base_service.rb,
//! app/services/twilio/incoming_message_service.rb, app/mailboxes/mailbox_helper.rb,
//! config/locales/en.yml (conversations.activity strings, seen in excerpts of copies).
//! A create writes a serial id, created_at = updated_at (Rails, µs), content and
//! processed_message_content (before_save copy), account/inbox/conversation, message_type
//! (0 incoming, 1 outgoing, 2 activity, 3 template), sender (Contact, User, AgentBot; none for
//! activity and template), source_id = the channel's id of the message (WhatsApp wamid, Twilio
//! SmsSid, e-mail Message-ID, the bridge's `WAID:` id on an API inbox), content_attributes through
//! `store coder: JSON` on a json column (so the column holds a JSON string). Later: outgoing
//! WhatsApp/SMS rows get their source_id from the send, then status delivered/read/failed from
//! the channel's callbacks (updated_at moves); incoming rows are not touched.
//! Retries: WhatsApp dedups by source_id plus a Redis key, but two deliveries of one webhook
//! processed together both pass (5-100 ms apart); the Twilio webhook job has no dedup and
//! Sidekiq re-runs it after a failure past the commit (15-25 s, then 31-50 s); the API channel
//! dedups nothing, so a bridge that times out (10-60 s, again after 20-120 s) or fires its event
//! twice (5-100 ms) posts the message again with the same source_id.
//! Legit: a contact sending the same text again (1-4 s on the widget, or 30 s-8 min), label
//! toggles (removed by misclick and added back within seconds, or minutes later), a conversation
//! resolved, reopened and resolved again, an agent asking the same canned question again.
use std::collections::BTreeSet;

use super::{DAY, Fixture, HOUR, MINUTE, Rng, SECOND, T0, V, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

const DDL: &str = r#"
CREATE TABLE messages (
    id serial NOT NULL,
    content text,
    account_id integer NOT NULL,
    inbox_id integer NOT NULL,
    conversation_id integer NOT NULL,
    message_type integer NOT NULL,
    created_at timestamp without time zone NOT NULL,
    updated_at timestamp without time zone NOT NULL,
    private boolean DEFAULT false NOT NULL,
    status integer DEFAULT 0,
    source_id character varying,
    content_type integer DEFAULT 0 NOT NULL,
    content_attributes json DEFAULT '{}'::json,
    sender_type character varying,
    sender_id bigint,
    external_source_ids jsonb DEFAULT '{}'::jsonb,
    additional_attributes jsonb DEFAULT '{}'::jsonb,
    processed_message_content text,
    sentiment jsonb DEFAULT '{}'::jsonb,
    CONSTRAINT messages_pkey PRIMARY KEY (id)
);
CREATE INDEX index_messages_on_additional_attributes_campaign_id ON messages USING gin (((additional_attributes -> 'campaign_id'::text)));
CREATE INDEX idx_messages_account_content_created ON messages (account_id, content_type, created_at);
CREATE INDEX index_messages_on_account_created_type ON messages (account_id, created_at, message_type);
CREATE INDEX index_messages_on_account_id_and_inbox_id ON messages (account_id, inbox_id);
CREATE INDEX index_messages_on_account_id ON messages (account_id);
CREATE INDEX index_messages_on_conversation_account_type_created ON messages (conversation_id, account_id, message_type, created_at);
CREATE INDEX index_messages_on_conversation_id ON messages (conversation_id);
CREATE INDEX index_messages_on_created_at ON messages (created_at);
CREATE INDEX index_messages_on_inbox_id ON messages (inbox_id);
CREATE INDEX index_messages_on_sender_type_and_sender_id ON messages (sender_type, sender_id);
CREATE INDEX index_messages_on_source_id ON messages (source_id);"#;

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => DDL.to_string(),
        _ => unreachable!("Chatwoot runs on PostgreSQL only"),
    }
}

const COLUMNS: &[&str] = &[
    "id",
    "content",
    "account_id",
    "inbox_id",
    "conversation_id",
    "message_type",
    "created_at",
    "updated_at",
    "private",
    "status",
    "source_id",
    "content_type",
    "content_attributes",
    "sender_type",
    "sender_id",
    "external_source_ids",
    "additional_attributes",
    "processed_message_content",
    "sentiment",
];

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Widget,
    WhatsApp,
    Email,
    Api,
    Sms,
}

// (inbox id, account id, channel); SHARE: which one a new conversation comes in on.
const INBOXES: &[(i64, i64, Kind)] = &[
    (1, 1, Kind::Widget),
    (2, 1, Kind::WhatsApp),
    (3, 1, Kind::Email),
    (4, 1, Kind::Api),
    (7, 2, Kind::Sms),
    (8, 2, Kind::Widget),
];
const AGENTS_1: &[&str] = &["Ana Souza", "Ben Carter", "Chloé Martin", "Dev Patel", "Emma Rossi", "Felix Wagner"];
const AGENTS_2: &[&str] = &["Jonas Berg", "Kemal Aydin", "Lena Vogt", "Mia Chen"];
const SHARE: [usize; 12] = [0, 0, 0, 1, 1, 1, 1, 2, 3, 3, 4, 5];
const AWAY: &str = "We are away right now. Our team is online Mon-Fri, 8:00-18:00 UTC, and will get back to you then.";
const LABELS: &[&str] = &["billing", "bug", "feature-request", "refund", "shipping", "vip", "onboarding"];
const SHORT: &[&str] = &["hi", "Hello?", "?", "ok", "Anyone there?", "hello", "thanks", "Hi, are you there?"];
const SUBJECTS: &[&str] = &[
    "Question about my account",
    "Invoice for September",
    "Cannot log in",
    "Re: Your order has shipped",
    "Refund request",
    "Change of billing address",
];
const CANNED: &[&str] = &[
    "Could you share your order number, please?",
    "Can you send us a screenshot of the error?",
    "Thanks for your patience, I'm checking this with the team.",
];

#[derive(Clone)]
struct Msg {
    at: i64,
    conv: i64,
    inbox: i64,
    account: i64,
    mtype: i64,
    content: String,
    private: bool,
    status: i64,
    source: Option<String>,
    ctype: i64,
    attrs: String,
    sender: Option<(&'static str, i64)>,
    updated: i64,
    retry: bool,
}

/// The JSON text of a JSON string holding `json` (what `store coder: JSON` leaves in a json column).
fn enc(json: &str) -> String {
    format!("\"{}\"", json.replace('\\', "\\\\").replace('"', "\\\""))
}

fn wamid(r: &mut Rng) -> String {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let tail: String = (0..44).map(|_| B64[r.below(62) as usize] as char).collect();
    format!("wamid.HBgM{tail}=")
}

fn source(r: &mut Rng, kind: Kind) -> Option<String> {
    match kind {
        Kind::WhatsApp => Some(wamid(r)),
        Kind::Sms => Some(format!("SM{}", r.hex(32))),
        Kind::Api => Some(format!("WAID:3EB0{}", r.hex(16).to_uppercase())),
        Kind::Email => Some(format!("CA{}@mail.gmail.com", r.alnum(40))),
        Kind::Widget => None,
    }
}

struct Conv {
    id: i64,
    inbox: i64,
    account: i64,
    kind: Kind,
    contact: i64,
}

impl Conv {
    fn msg(&self, at: i64, mtype: i64, content: String, sender: Option<(&'static str, i64)>) -> Msg {
        Msg {
            at,
            conv: self.id,
            inbox: self.inbox,
            account: self.account,
            mtype,
            content,
            private: false,
            status: 0,
            source: None,
            ctype: 0,
            attrs: enc("{}"),
            sender,
            updated: at,
            retry: false,
        }
    }

    /// A contact's message as the channel's create path writes it, and the retries it gets.
    fn incoming(&self, r: &mut Rng, out: &mut Vec<Msg>, at: i64, content: String) {
        let mut m = self.msg(at, 0, content, Some(("Contact", self.contact)));
        m.source = source(r, self.kind);
        if self.kind == Kind::Email {
            m.ctype = 8;
            let date = chrono::DateTime::from_timestamp_micros(at - r.range(2, 30) * SECOND).unwrap().to_rfc3339();
            let email = format!(
                r#"{{"email":{{"bcc":null,"cc":null,"content_type":"multipart/alternative","date":"{date}","from":["contact{c}@example.com"],"html_content":{{"full":"<div>{t}</div>","reply":"{t}","quoted":"{t}"}},"in_reply_to":null,"message_id":"{id}","multipart":true,"number_of_attachments":0,"subject":"{subject}","text_content":{{"full":"{t}","reply":"{t}","quoted":"{t}"}},"to":["support@acme.example"]}},"cc_email":null,"bcc_email":null}}"#,
                c = self.contact,
                t = m.content,
                id = m.source.as_deref().unwrap_or_default(),
                subject = r.pick(SUBJECTS),
            );
            m.attrs = enc(&email);
        }
        out.push(m.clone());
        let copy = |at: i64| Msg { at, updated: at, retry: true, ..m.clone() };
        match self.kind {
            // Two deliveries of one webhook, processed side by side past the source_id check.
            Kind::WhatsApp if r.chance(0.025) => out.push(copy(at + r.range(5, 100) * 1_000)),
            // The Sidekiq job failed after the commit: retried with Sidekiq's backoff.
            Kind::Sms if r.chance(0.08) => {
                let first = at + r.range(15_000, 25_000) * 1_000;
                out.push(copy(first));
                if r.chance(0.4) {
                    out.push(copy(first + r.range(31_000, 50_000) * 1_000));
                }
            }
            // The bridge's HTTP client timed out (and maybe again) or sent its event twice.
            Kind::Api if r.chance(0.08) => {
                let first = at + r.range(10_000, 60_000) * 1_000;
                out.push(copy(first));
                if r.chance(0.3) {
                    out.push(copy(first + r.range(20_000, 120_000) * 1_000));
                }
            }
            Kind::Api if r.chance(0.03) => out.push(copy(at + r.range(5, 100) * 1_000)),
            _ => {}
        }
    }

    /// An agent's reply (or private note) through `MessageBuilder`, with its later life.
    fn outgoing(&self, r: &mut Rng, at: i64, content: String, agent: i64, note: bool) -> Msg {
        let mut m = self.msg(at, 1, content, Some(("User", agent)));
        m.private = note;
        if note {
            return m;
        }
        let x = r.below(100);
        match self.kind {
            Kind::WhatsApp => {
                m.source = Some(wamid(r));
                (m.status, m.updated) = match x {
                    0..=2 => (3, at + r.range(1_000, 3_000) * 1_000),
                    3..=9 => (0, at + r.range(400, 2_000) * 1_000),
                    10..=39 => (1, at + r.range(1, 15) * SECOND),
                    _ => (2, at + r.range(20, 3 * 3_600) * SECOND),
                };
                if m.status == 3 {
                    m.attrs = enc(r#"{"external_error":"131047: Re-engagement message"}"#);
                }
            }
            Kind::Sms => {
                m.source = Some(format!("SM{}", r.hex(32)));
                (m.status, m.updated) = match x {
                    0..=4 => (3, at + r.range(2, 20) * SECOND),
                    5..=14 => (0, at + r.range(300, 1_500) * 1_000),
                    _ => (1, at + r.range(2, 20) * SECOND),
                };
                if m.status == 3 {
                    m.attrs = enc(r#"{"external_error":"30003: Unreachable destination handset"}"#);
                }
            }
            Kind::Email => m.attrs = enc(r#"{"cc_emails":null,"bcc_emails":null}"#),
            _ => {}
        }
        m
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(9_277);
    let end = T0 + 21 * DAY;
    let mut out: Vec<Msg> = Vec::new();
    let mut t = T0 + 6 * HOUR;
    let mut conv_id = 30_410;
    while t < end - 2 * HOUR {
        let hour = (t / HOUR) % 24;
        let slow = if (7..22).contains(&hour) { 1 } else { 3 };
        t += r.range(100, 8_800) * SECOND * slow + r.range(0, 999_999);
        conv_id += 1;
        let (inbox, account, kind) = INBOXES[*r.pick(&SHARE)];
        let contact = if account == 1 { 1 + r.skewed(4_000) as i64 } else { 5_001 + r.skewed(800) as i64 };
        let agents: &[&str] = if account == 1 { AGENTS_1 } else { AGENTS_2 };
        let agent_of = |i: usize| if account == 1 { 1 + i as i64 } else { 10 + i as i64 };
        let c = Conv { id: conv_id, inbox, account, kind, contact };
        let mut at = t;
        let n = if kind == Kind::Email { 14 } else { 3 + r.below(7) as usize };
        let first = sentence(&mut r, n);
        c.incoming(&mut r, &mut out, at, first);
        // Template hooks, after the first message's commit.
        let weekday = (at / DAY + 3) % 7;
        let closed = weekday >= 5 || !(8..18).contains(&((at / HOUR) % 24));
        if matches!(kind, Kind::WhatsApp | Kind::Sms) && r.chance(0.9) {
            let greeting = if account == 1 {
                "Hi! Thanks for messaging Acme. We usually reply within a few minutes."
            } else {
                "Hello from Nordlicht Dental. How can we help?"
            };
            out.push(c.msg(at + r.range(600, 2_500) * 1_000, 3, greeting.to_string(), None));
        }
        if account == 1 && closed && kind != Kind::Email {
            out.push(c.msg(at + r.range(700, 2_500) * 1_000, 3, AWAY.to_string(), None));
        }
        if kind == Kind::Widget && r.chance(0.5) {
            let mut m = c.msg(at + r.range(500, 2_000) * 1_000, 3, "Get notified by email".to_string(), None);
            m.ctype = 3;
            out.push(m);
        }
        if inbox == 1 {
            let bot = "Thanks for reaching out! An agent will be with you shortly.".to_string();
            out.push(c.msg(at + r.range(1_500, 4_000) * 1_000, 1, bot, Some(("AgentBot", 1))));
        }
        let a = r.skewed(agents.len() as u64) as usize;
        let agent = agent_of(a);
        let wait = if closed { r.range(2, 14) * HOUR } else { r.range(1, 45) * MINUTE };
        at += wait + r.range(0, 999_999);
        let assign = if r.chance(0.6) {
            format!("{} self-assigned this conversation", agents[a])
        } else {
            format!("Assigned to {} by {}", agents[a], agents[r.below(agents.len() as u64) as usize])
        };
        out.push(c.msg(at + r.range(200, 2_000) * 1_000, 2, assign, None));
        let rounds = 1 + r.skewed(6);
        for _ in 0..rounds {
            at += r.range(30, 40 * 60) * SECOND + r.range(0, 999_999);
            let canned = r.chance(0.12).then(|| r.pick(CANNED).to_string());
            let n = 4 + r.below(10) as usize;
            let text = canned.clone().unwrap_or_else(|| sentence(&mut r, n));
            out.push(c.outgoing(&mut r, at, text, agent, false));
            if let Some(text) = canned.filter(|_| r.chance(0.35)) {
                // No answer: the agent asks the same again.
                at += r.range(3 * 60, 10 * 60) * SECOND + r.range(0, 999_999);
                out.push(c.outgoing(&mut r, at, text, agent, false));
            }
            if r.chance(0.08) {
                at += r.range(5, 120) * SECOND + r.range(0, 999_999);
                let (note, by) = (sentence(&mut r, 6), agent_of(r.below(agents.len() as u64) as usize));
                out.push(c.outgoing(&mut r, at, note, by, true));
            }
            if r.chance(0.15) {
                let label = *r.pick(LABELS);
                at += r.range(2, 300) * SECOND + r.range(0, 999_999);
                out.push(c.msg(at + r.range(200, 1_500) * 1_000, 2, format!("{} added {label}", agents[a]), None));
                if r.chance(0.25) {
                    // Removed by a misclick and added back, or taken off and put back later.
                    let quick = r.chance(0.6);
                    at += if quick { r.range(1_500, 4_000) * 1_000 } else { r.range(60_000, 900_000) * 1_000 };
                    out.push(c.msg(at + r.range(200, 800) * 1_000, 2, format!("{} removed {label}", agents[a]), None));
                    at += if quick { r.range(1_000, 3_000) * 1_000 } else { r.range(60_000, 900_000) * 1_000 };
                    out.push(c.msg(at + r.range(200, 800) * 1_000, 2, format!("{} added {label}", agents[a]), None));
                }
            }
            at += r.range(20, 2 * 3_600) * SECOND + r.range(0, 999_999);
            let n = 2 + r.below(8) as usize;
            let mut last = sentence(&mut r, n);
            for i in 0..1 + r.skewed(3) {
                if i > 0 {
                    at += r.range(3, 40) * SECOND + r.range(0, 999_999);
                    let n = 2 + r.below(6) as usize;
                    last = sentence(&mut r, n);
                }
                c.incoming(&mut r, &mut out, at, last.clone());
            }
            if kind != Kind::Email && r.chance(0.07) {
                // The contact sends the same again: a quick double send, or a nudge minutes later.
                let text = if r.chance(0.5) { r.pick(SHORT).to_string() } else { last.clone() };
                if text != last {
                    at += r.range(5, 60) * SECOND + r.range(0, 999_999);
                    c.incoming(&mut r, &mut out, at, text.clone());
                }
                let wait = if kind == Kind::Widget && r.chance(0.5) {
                    r.range(1_000, 4_000)
                } else {
                    r.range(30_000, 480_000)
                };
                at += wait * 1_000 + r.range(0, 999);
                c.incoming(&mut r, &mut out, at, text);
            }
        }
        at += r.range(60, 3 * 3_600) * SECOND + r.range(0, 999_999);
        let resolved = format!("Conversation was marked resolved by {}", agents[a]);
        out.push(c.msg(at + r.range(200, 1_500) * 1_000, 2, resolved.clone(), None));
        if r.chance(0.1) {
            at += r.range(10, 900) * SECOND + r.range(0, 999_999);
            out.push(c.msg(
                at + r.range(200, 1_500) * 1_000,
                2,
                format!("Conversation was reopened by {}", agents[a]),
                None,
            ));
            at += r.range(30, 1_200) * SECOND + r.range(0, 999_999);
            out.push(c.msg(at + r.range(200, 1_500) * 1_000, 2, resolved, None));
        }
    }
    out.retain(|m| m.at < end);
    out.sort_by_key(|m| m.at);

    let mut f = Fixture::new("messages", COLUMNS);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for (i, m) in out.iter().enumerate() {
        let id = 1_204_377 + i as i64;
        let key = format!("{}|{}|{:?}|{}|{}|{}", m.conv, m.mtype, m.sender, m.private, m.ctype, m.content);
        let repeat = !seen.insert(key);
        f.push(&[
            ("id", V::I(id)),
            ("content", V::t(&m.content)),
            ("account_id", V::I(m.account)),
            ("inbox_id", V::I(m.inbox)),
            ("conversation_id", V::I(m.conv)),
            ("message_type", V::I(m.mtype)),
            ("created_at", V::At(m.at)),
            ("updated_at", V::At(m.updated.min(end + 6 * HOUR))),
            ("private", V::B(m.private)),
            ("status", V::I(m.status)),
            ("source_id", V::opt_t(m.source.as_deref())),
            ("content_type", V::I(m.ctype)),
            ("content_attributes", V::t(&m.attrs)),
            ("sender_type", V::opt_t(m.sender.map(|s| s.0))),
            ("sender_id", V::opt_i(m.sender.map(|s| s.1))),
            ("external_source_ids", V::t(enc("{}"))),
            ("additional_attributes", V::t("{}")),
            ("processed_message_content", V::t(&m.content)),
            ("sentiment", V::t("{}")),
        ]);
        if m.retry {
            f.extras.insert(id.to_string());
        } else if repeat {
            f.legit.insert(id.to_string());
        }
    }
    f
}
