//! Zammad (Ruby on Rails, ActiveRecord, PostgreSQL and MySQL/MariaDB):
//! `tickets`, as `Ticket.create` writes it from `TicketsController#create`
//! (agents, the customer interface, API clients), `FormController` (the web
//! form) and the email channel (the articles are not written here).
//! Read: zammad/zammad db/migrate/20120101000010_create_ticket.rb (tickets,
//! ticket_articles, the later `checklist_id`), app/models/ticket.rb
//! (`before_create :check_generate, :check_defaults, ...`, `merge_to`),
//! app/models/ticket/number.rb and app/models/ticket/number/increment.rb (the
//! number), app/controllers/tickets_controller.rb (create: ticket, tags,
//! article, links in one transaction; nothing dedups it),
//! app/models/ticket/article/has_ticket_contact_attributes_impact.rb (what an
//! article writes on its ticket), db/seeds/ticket_states.rb,
//! db/seeds/ticket_article_types.rb, config/database/database.yml
//! (`encoding: utf8`).
//! On a create: `number` is `system_id` (here 47) then the `ticket_counters`
//! row locked and incremented, fresh per attempt; `owner_id` 1 (nobody) unless
//! an agent takes it; `state_id` 1 new, `priority_id` 2 normal;
//! `organization_id` the customer's; `created_by_id` the sender (email, web
//! form, customer interface), the agent (phone) or the API user; times in UTC
//! to the millisecond. The first article then sets `article_count` (articles
//! not sent by System), `create_article_type_id`/`_sender_id` and, when it
//! communicates, `last_contact_customer_at`/`last_contact_at`, and saves the
//! ticket again (`updated_at`). `preferences` is a YAML `store` (the channel
//! of an email, the web form's IP and fingerprint). No SLA here: the
//! escalation columns stay NULL.
//! Later: an agent takes the ticket (`owner_id`, `last_owner_update_at`),
//! replies (`first_response_at`, `last_contact_agent_at`), the customer
//! answers, the ticket is closed (`close_at`, `last_close_at`), set pending
//! (`pending_time`; a pending close whose time came is closed by the
//! scheduler, user 1, and its pending time cleared) or merged into another
//! (state 5 merged, owner back to 1, a note article); `article_count`,
//! `updated_at`, `updated_by_id` follow.
//! Retries (6 rows): an API client whose 30 s timeout fired while Zammad
//! committed, retrying 31-45 s later (once also after a 60-100 s backoff),
//! and web form / customer interface double submits 8-60 ms apart; the
//! copies are merged into the original by the agent who took it, or, in the
//! last days, still new. Legitimate repeats (every later row of a customer
//! with the same title, channel and creator, none of them retries): a shop's contact form mailing every request
//! from one sender with one subject (two in one mail fetch, 0.3-3 s apart, or
//! minutes apart); a monitoring system's PROBLEM mail for the same service
//! again 10-30 min after its RECOVERY closed the last ticket; an agent logging
//! a second call of the same customer minutes later under the same title; a
//! customer writing again about the same thing days later.

use super::{DAY, Fixture, HOUR, MINUTE, Rng, SECOND, T0, V, WORDS};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres, Engine::MySql];

/// Columns as the migration declares them (`!` NOT NULL, `=` a default).
const TICKETS: &str = "
    group_id:int! priority_id:int! state_id:int! organization_id:int number:s60! title:s250! owner_id:int!
    customer_id:int! note:s250 first_response_at:ts first_response_escalation_at:ts first_response_in_min:int
    first_response_diff_in_min:int close_at:ts close_escalation_at:ts close_in_min:int close_diff_in_min:int
    update_escalation_at:ts update_in_min:int update_diff_in_min:int last_close_at:ts last_contact_at:ts
    last_contact_agent_at:ts last_contact_customer_at:ts last_owner_update_at:ts create_article_type_id:int
    create_article_sender_id:int article_count:int escalation_at:ts pending_time:ts type:s100 approver:int
    approval_state:s100 time_unit:dec preferences:mtext ai_agent_running:bool!=false updated_by_id:int!
    created_by_id:int! created_at:ts! updated_at:ts! checklist_id:int";
const TICKET_INDEXES: &str = "state_id priority_id group_id owner_id customer_id customer_id,state_id,created_at
    number! title created_at updated_at first_response_at first_response_escalation_at first_response_in_min
    first_response_diff_in_min close_at close_escalation_at close_in_min close_diff_in_min escalation_at
    update_in_min update_diff_in_min last_contact_at last_contact_agent_at last_contact_customer_at
    last_owner_update_at create_article_type_id create_article_sender_id created_by_id pending_time type time_unit
    group_id,state_id group_id,state_id,owner_id group_id,state_id,updated_at group_id,state_id,owner_id,updated_at
    group_id,state_id,created_at group_id,state_id,owner_id,created_at group_id,state_id,close_at
    group_id,state_id,owner_id,close_at ai_agent_running checklist_id!";

fn table(engine: Engine, name: &str, columns: &str, indexes: &str) -> String {
    let my = engine == Engine::MySql;
    let q = |s: &str| if my { format!("`{s}`") } else { format!("\"{s}\"") };
    let mut cols = vec![if my {
        "`id` int NOT NULL AUTO_INCREMENT PRIMARY KEY".into()
    } else {
        "\"id\" serial primary key".into()
    }];
    for spec in columns.split_whitespace() {
        let (name, rest) = spec.split_once(':').unwrap();
        let (rest, default) = rest.split_once('=').map_or((rest, None), |(a, b)| (a, Some(b)));
        let (kind, required) = rest.strip_suffix('!').map_or((rest, false), |k| (k, true));
        let sql = match (kind, my) {
            ("int", false) => "integer".to_string(),
            ("int", true) => "int".into(),
            ("ts", false) => "timestamp(3) without time zone".into(),
            ("ts", true) => "datetime(3)".into(),
            ("dec", _) => "decimal(6,2)".into(),
            ("bool", false) => "boolean".into(),
            ("bool", true) => "tinyint(1)".into(),
            ("mtext", true) => "mediumtext".into(),
            ("ltext", true) => "longtext".into(),
            (_, false) if kind.ends_with("text") => "text".into(),
            (s, _) => format!("{}({})", if my { "varchar" } else { "character varying" }, &s[1..]),
        };
        let default = match default {
            Some("false") => format!(" DEFAULT {}", if my { "0" } else { "FALSE" }),
            Some(text) => format!(" DEFAULT '{text}'"),
            None => String::new(),
        };
        cols.push(format!("{} {sql}{default}{}", q(name), if required { " NOT NULL" } else { "" }));
    }
    let mut sql = format!(
        "CREATE TABLE {} (\n  {}\n){};\n",
        q(name),
        cols.join(",\n  "),
        if my { " ENGINE=InnoDB DEFAULT CHARSET=utf8mb3" } else { "" }
    );
    for spec in indexes.split_whitespace() {
        let (spec, unique) = spec.strip_suffix('!').map_or((spec, ""), |s| (s, "UNIQUE "));
        let columns: Vec<&str> = spec.split(',').collect();
        // Rails names an index after its columns; the four-column ones are named by hand.
        let index = match (name, columns.len()) {
            (_, 4) => format!("index_{name}_on_{}", columns.join("_")),
            _ => format!("index_{name}_on_{}", columns.join("_and_")),
        };
        let list: Vec<String> = columns.iter().map(|c| q(c)).collect();
        sql += &format!("CREATE {unique}INDEX {} ON {} ({});\n", q(&index), q(name), list.join(", "));
    }
    sql
}

pub fn ddl(engine: Engine) -> String {
    table(engine, "tickets", TICKETS, TICKET_INDEXES)
}

const COLUMNS: &str = "
    id group_id priority_id state_id organization_id number title owner_id customer_id first_response_at close_at
    last_close_at last_contact_at last_contact_agent_at last_contact_customer_at last_owner_update_at
    create_article_type_id create_article_sender_id article_count pending_time time_unit preferences
    ai_agent_running updated_by_id created_by_id created_at updated_at";

const NOW: i64 = T0 + 28 * DAY + 10 * HOUR;
const HWIA: &str = "--- !ruby/hash:ActiveSupport::HashWithIndifferentAccess";

/// How the ticket came in: (article type, who created it).
#[derive(Clone, Copy, PartialEq)]
enum Via {
    Email,
    Portal,
    Form,
    Phone,
    Api,
}

/// The ticket's life after its create, as far as NOW.
#[derive(Clone, Copy)]
enum Fate {
    New,
    /// Taken by an agent, answered, perhaps answered back, then left open,
    /// closed, or pending (state, pending time).
    Worked {
        agent: i64,
        taken: i64,
        replied: Option<i64>,
        answer: Option<(i64, i64)>,
        end: (i64, i64, i64),
    },
    /// A monitoring PROBLEM closed by its RECOVERY mail (by the system).
    Recovered(i64),
    Merged {
        agent: i64,
        at: i64,
    },
}

#[derive(Clone)]
struct Ticket {
    at: i64,
    via: Via,
    group: i64,
    priority: i64,
    customer: i64,
    creator: i64,
    title: String,
    prefs: String,
    fate: Fate,
    retry: bool,
}

fn agent_of(r: &mut Rng, group: i64) -> i64 {
    let agents: &[i64] = match group {
        2 => &[3, 4, 5, 6],
        3 => &[7, 8],
        4 => &[9, 10],
        5 => &[11, 12],
        _ => &[3, 13],
    };
    r.one(agents)
}

fn life(r: &mut Rng, t: &Ticket) -> Fate {
    let taken = t.at + r.range(3, 300) * MINUTE + r.below(60_000) as i64 * 1_000;
    if taken > NOW || r.chance(0.03) {
        return Fate::New;
    }
    let agent = if t.via == Via::Phone { t.creator } else { agent_of(r, t.group) };
    let replied = Some(taken + r.range(1, 40) * MINUTE + r.below(60_000) as i64 * 1_000).filter(|&x| x < NOW);
    let answer = replied.and_then(|x| {
        let a = x + r.range(20, 1_800) * MINUTE + r.below(60_000) as i64 * 1_000;
        let b = a + r.range(10, 300) * MINUTE + r.below(60_000) as i64 * 1_000;
        (r.chance(0.45) && b < NOW).then_some((a, b))
    });
    let last = answer.map_or(replied.unwrap_or(taken), |a| a.1);
    let done = last + r.range(1, 2_000) * MINUTE + r.below(60_000) as i64 * 1_000;
    // A pending close whose time has come is closed by the scheduler (user 1).
    let end = match r.below(10) {
        _ if done > NOW => (2, last, 0),
        0 => (3, done, done + r.range(1, 14) * DAY),
        1 if done + 7 * DAY > NOW => (7, done, done + 7 * DAY),
        1 => (4, done + 7 * DAY, -1),
        2 => (2, last, 0),
        _ => (4, done, 0),
    };
    Fate::Worked { agent, taken, replied, answer, end }
}

fn subject(r: &mut Rng) -> String {
    let (w, n) = (r.pick(WORDS).to_string(), r.range(10_000, 99_999));
    match r.below(10) {
        0 => format!("Problem with the {w}"),
        1 => format!("Question about invoice RE-{n}"),
        2 => format!("{}{} not working since the update", w[..1].to_uppercase(), &w[1..]),
        3 => "Cannot log in".into(),
        4 => "Change of billing address".into(),
        5 => format!("Order {n} not delivered"),
        6 => format!("Request: new {w} account"),
        7 => format!("Fwd: {w} error"),
        8 => "Password reset".into(),
        _ => format!("Offer request: {w}"),
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(6_571);
    let mut tickets: Vec<Ticket> = Vec::new();
    // (via, from day, ms after the original of each retried attempt)
    let mut plan: Vec<(Via, i64, &[i64])> = vec![
        (Via::Api, 5, &[31_200]),
        (Via::Api, 12, &[45_300, 128_900]),
        (Via::Form, 18, &[40]),
        (Via::Form, 27, &[8]),
        (Via::Portal, 27, &[60]),
    ];
    let mut t = T0 + 5 * HOUR;
    while t < T0 + 28 * DAY {
        t += r.range(60, 1_150) * SECOND + r.below(1_000) as i64 * 1_000;
        let office = (6..17).contains(&(t / HOUR % 24)) && (t / DAY + 3) % 7 < 5;
        if !office && r.chance(0.8) {
            continue;
        }
        let customer = 200 + r.skewed(2_000) as i64;
        let mut k = Ticket {
            at: t,
            via: Via::Email,
            group: 2,
            priority: 2,
            customer,
            creator: customer,
            title: subject(&mut r),
            prefs: format!("{HWIA}\nchannel_id: 3\n"),
            fate: Fate::New,
            retry: false,
        };
        let mut repeats: Vec<i64> = Vec::new();
        match r.below(100) {
            0..3 => {
                // The shop's contact form: one sender, one subject, a mail each.
                (k.customer, k.creator, k.group) = (180, 180, 3);
                k.title = "Contact request via www.shop.example".into();
                k.prefs = format!("{HWIA}\nchannel_id: 4\n");
                if r.chance(0.35) {
                    repeats.push(r.range(300, 3_000) * 1_000); // the same mail fetch
                }
                if r.chance(0.3) {
                    repeats.push(r.range(60, 600) * SECOND + r.below(1_000) as i64 * 1_000);
                }
            }
            3..4 => {
                // Monitoring: PROBLEM, RECOVERY closes it, PROBLEM again.
                (k.customer, k.creator, k.group, k.priority) = (181, 181, 5, 3);
                k.title = r
                    .one(&[
                        "PROBLEM: backup01/Backup nightly is CRITICAL",
                        "PROBLEM: db01/Disk /var is WARNING",
                        "PROBLEM: web02/HTTP is CRITICAL",
                    ])
                    .into();
                k.prefs = format!("{HWIA}\nchannel_id: 6\n");
                let mut gap = 0;
                for _ in 0..r.range(0, 3) {
                    gap += r.range(600, 1_800) * SECOND + r.below(1_000) as i64 * 1_000;
                    repeats.push(gap);
                }
            }
            4..56 => {
                k.group = r.one(&[2, 2, 2, 3, 4]);
                k.prefs = format!("{HWIA}\nchannel_id: {}\n", k.group + 1);
            }
            56..66 => k.via = Via::Portal,
            66..73 => {
                (k.via, k.group) = (Via::Form, 1);
                k.prefs = format!(
                    "{HWIA}\nform: !ruby/hash:ActiveSupport::HashWithIndifferentAccess\n  remote_ip: 198.51.100.{}\n  fingerprint_md5: {}\n",
                    r.range(2, 250),
                    r.hex(32)
                );
            }
            73..88 => {
                (k.via, k.creator) = (Via::Phone, agent_of(&mut r, 2));
                if r.chance(0.15) {
                    k.title = "Callback request".into();
                    if r.chance(0.4) {
                        repeats.push(r.range(60, 360) * SECOND + r.below(1_000) as i64 * 1_000);
                    }
                }
            }
            _ => {
                (k.via, k.creator) = (Via::Api, 15);
                k.title = format!("Order {}: return request", r.range(100_000, 999_999));
            }
        }
        if k.via != Via::Email {
            k.prefs = if k.via == Via::Form { k.prefs } else { format!("{HWIA} {{}}\n") };
        }
        k.fate = life(&mut r, &k);
        if let Some(i) = plan.iter().position(|p| p.0 == k.via && t >= T0 + p.1 * DAY) {
            let (_, day, offsets) = plan.remove(i);
            let late = day >= 27;
            if late {
                k.fate = Fate::New;
            }
            // The agent who works the original merges the copy into it.
            let (agent, seen) = match k.fate {
                Fate::Worked { agent, taken, .. } => (agent, taken),
                _ => (agent_of(&mut r, k.group), k.at + HOUR),
            };
            for &ms in offsets {
                let at = seen + r.range(60, 1_800) * SECOND + r.below(1_000) as i64 * 1_000;
                let fate = if late { Fate::New } else { Fate::Merged { agent, at } };
                tickets.push(Ticket { at: k.at + ms * 1_000, fate, retry: true, ..k.clone() });
            }
        }
        for gap in repeats {
            let mut again = Ticket { at: t + gap, ..k.clone() };
            again.fate = if again.group == 5 {
                Fate::Recovered(again.at + r.range(180, 480) * SECOND)
            } else {
                life(&mut r, &again)
            };
            tickets.push(again);
        }
        if k.group == 5 {
            k.fate = Fate::Recovered(k.at + r.range(180, 480) * SECOND);
        }
        tickets.push(k);
    }
    tickets.sort_by_key(|k| k.at);
    write(&mut r, &tickets)
}

fn write(r: &mut Rng, tickets: &[Ticket]) -> Fixture {
    let mut f = Fixture::new("tickets", &COLUMNS.split_whitespace().collect::<Vec<_>>());
    let mut seen = std::collections::BTreeSet::new();
    let (mut id, mut counter) = (21_480_i64, 22_613_i64);
    let ms = |x: i64| V::At(x - x.rem_euclid(1_000));
    let opt = |x: Option<i64>| x.map_or(V::Null, |x| V::At(x - x.rem_euclid(1_000)));
    for k in tickets {
        // A create that failed after its insert took an id; its counter rolled back.
        id += if r.chance(0.004) { 2 } else { 1 };
        counter += 1;
        let (type_id, sender_id) = match k.via {
            Via::Email => (1, 2),
            Via::Portal | Via::Form => (11, 2),
            Via::Phone => (5, 2),
            Via::Api => (10, 2),
        };
        let posted = k.at + r.range(3, 15) * 1_000;
        let touched = posted + r.range(2, 8) * 1_000;
        let first_owner = if k.via == Via::Phone { k.creator } else { 1 };
        let (mut state, mut owner, mut owner_at) = (1, first_owner, (first_owner != 1).then_some(k.at));
        let (mut response, mut close, mut agent_at) = (None, None, None);
        let mut customer_at = (type_id != 10).then_some(posted);
        let (mut count, mut pending, mut updated, mut updated_by, mut time_unit) = (1, None, touched, k.creator, None);
        match k.fate {
            Fate::New => {}
            Fate::Worked { agent, taken, replied, answer, end: (st, at, pending_time) } => {
                (state, owner, response, agent_at) = (st, agent, replied, replied);
                if agent != first_owner {
                    owner_at = Some(taken);
                }
                count += replied.is_some() as i64;
                if let Some((a, b)) = answer {
                    (customer_at, agent_at, count) = (Some(a), Some(b), count + 2);
                }
                if st == 4 {
                    close = Some(at);
                    time_unit = r.chance(0.3).then(|| V::Raw(format!("{}.00", r.one(&[5, 10, 15, 30, 45, 60]))));
                }
                pending = (st == 3 || st == 7).then_some(pending_time);
                (updated, updated_by) = (at.max(touched), if pending_time < 0 { 1 } else { agent });
            }
            Fate::Recovered(at) => (state, close, count, updated, updated_by) = (4, Some(at), 2, at, 1),
            Fate::Merged { agent, at } => {
                (state, owner, owner_at, count, updated, updated_by) = (5, 1, None, 2, at, agent)
            }
        }
        let contact = customer_at.max(agent_at);
        let org = (k.customer > 181 && k.customer % 3 != 0).then(|| 1 + k.customer % 140);
        let key = (k.title.clone(), k.customer, k.group, k.priority, type_id, k.creator);
        if k.retry {
            f.extras.insert(id.to_string());
        } else if seen.contains(&key) {
            f.legit.insert(id.to_string());
        }
        seen.insert(key);
        f.push(&[
            ("id", V::I(id)),
            ("group_id", V::I(k.group)),
            ("priority_id", V::I(k.priority)),
            ("state_id", V::I(state)),
            ("organization_id", V::opt_i(org)),
            ("number", V::t(format!("47{counter}"))),
            ("title", V::t(&k.title)),
            ("owner_id", V::I(owner)),
            ("customer_id", V::I(k.customer)),
            ("first_response_at", opt(response)),
            ("close_at", opt(close)),
            ("last_close_at", opt(close)),
            ("last_contact_at", opt(contact)),
            ("last_contact_agent_at", opt(agent_at)),
            ("last_contact_customer_at", opt(customer_at)),
            ("last_owner_update_at", opt(owner_at)),
            ("create_article_type_id", V::I(type_id)),
            ("create_article_sender_id", V::I(sender_id)),
            ("article_count", V::I(count)),
            ("pending_time", opt(pending)),
            ("time_unit", time_unit.unwrap_or(V::Null)),
            ("preferences", V::t(&k.prefs)),
            ("ai_agent_running", V::B(false)),
            ("updated_by_id", V::I(updated_by)),
            ("created_by_id", V::I(k.creator)),
            ("created_at", ms(k.at)),
            ("updated_at", ms(updated)),
        ]);
    }
    f
}
