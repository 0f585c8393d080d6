//! ERPNext on the Frappe framework (Python; MariaDB, and PostgreSQL which Frappe also supports): Frappe's `tabToDo`,
//! as the "Assign To" dialog and the sidebar's assignment list (`frappe.desk.form.assign_to.add`), the list view's bulk
//! "Assign To" (`add_multiple`), Assignment Rules (`assignment_rule.apply` on every save of an Issue or a Lead), the
//! ToDo quick entry, the REST API (`POST /api/resource/ToDo`: a telephony integration and an n8n workflow), a Server
//! Script on a cron and an Email Account appending mail to ToDo write it, and as people work on it later: a 22-person
//! pump maker's ERPNext v15 site (system time zone Asia/Kolkata), six weeks from 1 October 2026.
//! Read: frappe/frappe desk/doctype/todo/todo.json (6d0d871, 0144bdb: the old field list), todo.py (d591909, 0307dd4:
//! `validate`, `on_update`, `update_in_reference`, `on_doctype_update`), database/schema.py (030cb71: `DBTable`,
//! `DbColumn.get_definition`, `get_definition`), database/mariadb/schema.py (071e269: `MariaDBTable.create`),
//! database/mariadb/database.py (006ebcb: `type_map`, `add_index`), database/postgres/schema.py (71405dd and a newer
//! copy found by code search), database/postgres/database.py (00a18a9: `type_map`, `add_index`, `modify_query`),
//! model/naming.py (00e5576); intelli-verse-x/frappe, a 2026 mirror of Frappe's develop branch: desk/doctype/todo/
//! todo.json (440f7af; jemmia-diamond/frappe cc05c71 compared, whose extra `search_index`es are that fork's),
//! database/postgres/schema.py (514a828), model/naming.py (18645c7: `make_autoname("hash")`,
//! `_get_timestamp_prefix`, `_generate_random_string`), desk/form/assign_to.py (403bcb8: `add`, `add_multiple`,
//! `set_status`, `close`, `remove`, `close_all_assignments`, `clear`), public/js/frappe/form/sidebar/assign_to.js
//! (6d9de76: the dialog, `dialog.clear()` before each show, the sidebar's `AssignmentDialog`),
//! automation/doctype/assignment_rule/assignment_rule.py (105e17c: `apply`, `do_assignment`, round robin,
//! `reopen_closed_assignment`, the close condition) and assignment_rule.json (370bca5: description "Automatic
//! Assignment"); Document's `reset_seen` (a v15 document.py found by code search); frappe/erpnext
//! projects/doctype/task/task.py (`unassign_todo`); frappe/frappe issues #41824, #41823 and #41831 (two open ToDos of
//! one user on one document, `_assign` listing the user twice) and pull #32077.
//! The DDL is what `DBTable.create` runs on a fresh `bench migrate`: the standard columns, the fields in `field_order`
//! (Select, Link, Dynamic Link, Read Only, Data and Color as varchar(140), Text Editor longtext/text, Date date; only
//! the Select defaults become column defaults, "Today" does not), the optional `_user_tags`, `_comments`, `_assign`,
//! `_liked_by` and, as the doctype tracks views, `_seen`; on MariaDB the `creation` index, then
//! `on_doctype_update`'s `reference_type_reference_name_index` (inline here, as `ALTER TABLE ... ADD INDEX` leaves it).
//! On a create: `name` the hash name, ten characters: the trace id's last hex digit (one for every ToDo of a request
//! or job), the time in tenths of a second as its last three base32hex digits, then random base32hex (7 drawn, 6 kept);
//! `creation` = `modified` = `now()` in the system time zone (IST, naive, microseconds); `owner` = `modified_by` = the
//! session user (Administrator for scheduler jobs and the mail pull, the API key's user for the API); `docstatus` and
//! `idx` 0; `status` 'Open'; `priority` what was sent else 'Medium'; `date` what was sent else today (the field's
//! "Today" default fills a missing or None date, so an Assignment Rule's `date=None` becomes today too);
//! `assign_to.add` sets `allocated_to`, `reference_type`/`reference_name`, `assigned_by` (the session user) and
//! `assignment_rule`, and `description` = the dialog's comment (Text Editor HTML) or, if it has no text, "Assignment
//! for {doctype} {name}"; bulk assignment writes that default into the shared args on the first document, so every
//! ToDo of the batch carries the first document's name; the rule's description is its template rendered with the
//! document; `assigned_by_full_name` is fetched from the user; quick entry from the ToDo list gets `allocated_to` =
//! the user from the list filter; mail appended to ToDo sets `description` = the subject, `sender` = the address.
//! `_user_tags`, `_comments`, `_assign`, `_liked_by`, `_seen`, `color`, `role` stay NULL unless said.
//! Later: every save (`set_status` from the sidebar's Done or remove, the list's close, the form, a rule's close
//! condition closing every ToDo of the document, `reopen_closed_assignment` when a closed Issue gets a reply, Task's
//! `close_all_assignments` on completion and `clear` on cancel, `remove_multiple`) sets `modified`, `modified_by` and
//! `_seen` = [the user] (`reset_seen`); opening the form adds the user to `_seen` without touching `modified`; tags
//! go to `_user_tags` (",tag") the same way; a delete removes the row. `set_status` without a ToDo name picks the
//! newest matching one (creation desc), so of two open ToDos "Done" or "remove" hits the later first.
//! Retries (about 2% of creates): the Add button of the assign dialog sent twice 20-100 ms apart (Ctrl+Enter and a
//! click, both requests past `add`'s duplicate check before either commits), or sent again 10-60 s later from a
//! reopened dialog while the first request still hung; the telephony middleware re-posting a missed call after its
//! own timeout (`client_retry_delay`, some once more), and two webhook redeliveries 20-45 min later, hidden (a caller
//! who tries again half an hour later makes the same row); n8n's Retry On Fail on the 10:00 collections run (10 s
//! timeout + 1 s wait, some a third try); a quick entry saved twice; three in the last day. Copies: one removed from
//! the sidebar, closed with the original (a rule's close condition or a Task's completion closes all), deleted from
//! the list, or left open.
//! Legitimate repeats: a call ringing two legs (desk phone and app), each missed, 0.3-3 s apart; a caller redialling
//! and missing again 8 s-6 min later, or on other days (equal callback ToDos); an assignment removed by mistake and
//! added again 10 s-3 min later, or a Task reassigned to the same engineer days
//! later; the Server Script's reminders recreated every working day; personal ToDos people type again. Plain
//! near-repeats: round robin Issue and Lead assignments (the same "Automatic Assignment" text, other documents and
//! users), bulk assignments (one text, many documents, one user), a Data Import of trade-show leads, one dialog to
//! two or three users, n8n's follow-ups of one invoice at 30, 45 and 60 days.
//! Guessed: the company, users, rates and rhythms; the rules' users, templates and conditions; the dialog's priority
//! (its default is a boolean expression in the code read; taken as Medium unless picked) and how often people type a
//! comment or a date; the integrations and their timeouts; the Server Script; the mail traffic; naive IST datetimes;
//! the trace-id letter as a random hex digit; `_seen` lists from views; Frappe v15's DDL (not a dump of a live site).
use std::collections::HashSet;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, client_retry_delay, day, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql, Engine::Postgres];

/// `MariaDBTable.create`, then `on_doctype_update`'s index.
const MYSQL: &str = "CREATE TABLE `tabToDo` (
name varchar(140) primary key,
creation datetime(6),
modified datetime(6),
modified_by varchar(140),
owner varchar(140),
docstatus int(1) not null default '0',
idx int(8) not null default '0',
`status` varchar(140) DEFAULT 'Open',
`priority` varchar(140) DEFAULT 'Medium',
`color` varchar(140),
`date` date,
`allocated_to` varchar(140),
`description` longtext,
`reference_type` varchar(140),
`reference_name` varchar(140),
`role` varchar(140),
`assigned_by` varchar(140),
`assigned_by_full_name` varchar(140),
`sender` varchar(140),
`assignment_rule` varchar(140),
`_user_tags` text,
`_comments` text,
`_assign` text,
`_liked_by` text,
`_seen` text,
index creation(creation),
INDEX `reference_type_reference_name_index`(reference_type, reference_name))
ENGINE=InnoDB
ROW_FORMAT=DYNAMIC
CHARACTER SET=utf8mb4
COLLATE=utf8mb4_unicode_ci";

/// `PostgresTable.create` (backticks become double quotes), then `add_index`.
const POSTGRES: &str = "CREATE TABLE \"tabToDo\" (
name varchar(140) primary key,
creation timestamp(6),
modified timestamp(6),
modified_by varchar(140),
owner varchar(140),
docstatus smallint not null default '0',
idx bigint not null default '0',
\"status\" varchar(140) DEFAULT 'Open',
\"priority\" varchar(140) DEFAULT 'Medium',
\"color\" varchar(140),
\"date\" date,
\"allocated_to\" varchar(140),
\"description\" text,
\"reference_type\" varchar(140),
\"reference_name\" varchar(140),
\"role\" varchar(140),
\"assigned_by\" varchar(140),
\"assigned_by_full_name\" varchar(140),
\"sender\" varchar(140),
\"assignment_rule\" varchar(140),
\"_user_tags\" text,
\"_comments\" text,
\"_assign\" text,
\"_liked_by\" text,
\"_seen\" text
);
CREATE INDEX IF NOT EXISTS \"reference_type_reference_name_index\" ON \"tabToDo\" (\"reference_type\", \"reference_name\")";

/// The table as Frappe v15's schema sync leaves it.
pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => MYSQL.to_string(),
        Engine::Postgres => POSTGRES.to_string(),
        Engine::Sqlite => unreachable!("this site runs on MariaDB or PostgreSQL"),
    }
}

const COLUMNS: &str = "name creation modified modified_by owner docstatus idx status priority color date allocated_to \
    description reference_type reference_name role assigned_by assigned_by_full_name sender assignment_rule \
    _user_tags _comments _assign _liked_by _seen";

/// India Standard Time: Frappe stores `now()` in the system time zone.
const IST: i64 = 5 * HOUR + 30 * MINUTE;
const START: i64 = T0;
const DAYS: i64 = 42;
const NOW: i64 = START + DAYS * DAY;
/// The first create after each of these (a dialog, a call, a dialog) is retried.
const LATE: [i64; 3] = [NOW - 19 * HOUR, NOW - 15 * HOUR, NOW - 13 * HOUR];
/// Gandhi Jayanti, Dussehra, Diwali (days from 1 October).
const HOLIDAYS: [i64; 3] = [1, 19, 39];

/// Desk work by IST hour: 09:30-19:00, lunch at one.
const OFFICE: [i64; 24] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 9, 10, 10, 5, 7, 9, 9, 8, 5, 1, 0, 0, 0, 0];
/// Calls to the sales and service lines by IST hour.
const CALLS: [i64; 24] = [0, 0, 0, 0, 0, 0, 0, 0, 2, 5, 9, 10, 9, 6, 7, 9, 8, 7, 5, 3, 1, 0, 0, 0];
/// Support mail by IST hour.
const MAIL: [i64; 24] = [1, 1, 1, 1, 1, 1, 2, 3, 5, 8, 10, 10, 9, 7, 8, 9, 8, 7, 5, 4, 3, 2, 2, 1];

#[rustfmt::skip]
const USERS: [(&str, &str); 26] = [
    ("Administrator", "Administrator"),
    ("anita.desai@kaveripumps.example", "Anita Desai"),
    ("rahul.mehta@kaveripumps.example", "Rahul Mehta"),
    ("priya.nair@kaveripumps.example", "Priya Nair"),
    ("arjun.reddy@kaveripumps.example", "Arjun Reddy"),
    ("sneha.kulkarni@kaveripumps.example", "Sneha Kulkarni"),
    ("vikram.singh@kaveripumps.example", "Vikram Singh"),
    ("suresh.menon@kaveripumps.example", "Suresh Menon"),
    ("deepak.joshi@kaveripumps.example", "Deepak Joshi"),
    ("kavya.iyer@kaveripumps.example", "Kavya Iyer"),
    ("manoj.pillai@kaveripumps.example", "Manoj Pillai"),
    ("ritu.sharma@kaveripumps.example", "Ritu Sharma"),
    ("meera.krishnan@kaveripumps.example", "Meera Krishnan"),
    ("ajay.patil@kaveripumps.example", "Ajay Patil"),
    ("pooja.shah@kaveripumps.example", "Pooja Shah"),
    ("ramesh.gupta@kaveripumps.example", "Ramesh Gupta"),
    ("lakshmi.rao@kaveripumps.example", "Lakshmi Rao"),
    ("imran.khan@kaveripumps.example", "Imran Khan"),
    ("sanjay.verma@kaveripumps.example", "Sanjay Verma"),
    ("neha.bansal@kaveripumps.example", "Neha Bansal"),
    ("karthik.subramanian@kaveripumps.example", "Karthik Subramanian"),
    ("farhan.ali@kaveripumps.example", "Farhan Ali"),
    ("ashok.kaveri@kaveripumps.example", "Ashok Kaveri"),
    ("exotel@kaveripumps.example", "Exotel Integration"),
    ("indiamart@kaveripumps.example", "IndiaMART Sync"),
    ("n8n@kaveripumps.example", "n8n Automation"),
];
const ADMIN: usize = 0;
const ANITA: usize = 1;
const REPS: [usize; 5] = [2, 3, 4, 5, 6];
const SURESH: usize = 7;
const AGENTS: [usize; 4] = [8, 9, 10, 11];
const MEERA: usize = 12;
const AJAY: usize = 13;
const POOJA: usize = 14;
const RAMESH: usize = 15;
const LAKSHMI: usize = 16;
const IMRAN: usize = 17;
const SANJAY: usize = 18;
const ASHOK: usize = 22;
const EXOTEL: usize = 23;
const INDIAMART: usize = 24;
const N8N: usize = 25;

const SUPPORT_RULE: &str = "Support Round Robin";
const LEAD_RULE: &str = "Lead Round Robin";

/// A doctype people assign from the form: its series, the number it stood at on 1 October and documents a day, who
/// assigns, to whom, and the comments they type.
struct Kind {
    dt: &'static str,
    prefix: &'static str,
    base: i64,
    rate: i64,
    by: &'static [usize],
    to: &'static [usize],
    notes: &'static [&'static str],
    weight: i64,
}

#[rustfmt::skip]
const KINDS: [Kind; 10] = [
    Kind { dt: "Task", prefix: "TASK-2026-", base: 512, rate: 9, by: &[SANJAY, SANJAY, SANJAY, ASHOK, 19, 20],
        to: &[19, 20, 21, 19, 20, 21, IMRAN, LAKSHMI],
        notes: &["Please finish before the site visit", "Need this by Friday", "Check with Sanjay before starting",
            "Customer is waiting, please prioritise", "Update the test report after this"], weight: 24 },
    Kind { dt: "Sales Order", prefix: "SAL-ORD-2026-", base: 318, rate: 6, by: &[ANITA, ANITA, ASHOK, 2, 3, 4],
        to: &[IMRAN, IMRAN, SANJAY, MEERA, AJAY],
        notes: &["Check stock and confirm dispatch date", "Arrange transport for dispatch",
            "Collect advance before production", "Customer wants delivery before Diwali"], weight: 14 },
    Kind { dt: "Quotation", prefix: "SAL-QTN-2026-", base: 604, rate: 11, by: &[ANITA, ANITA, ASHOK],
        to: &[2, 3, 4, 5, 6],
        notes: &["Revise the price as discussed", "Send to the customer today", "Add installation charges"],
        weight: 10 },
    Kind { dt: "Opportunity", prefix: "CRM-OPP-2026-", base: 221, rate: 5, by: &[ANITA, ANITA, 2, 3],
        to: &[2, 3, 4, 5, 6],
        notes: &["Prepare the techno-commercial offer", "Visit the site with an engineer"], weight: 9 },
    Kind { dt: "Lead", prefix: "CRM-LEAD-2026-", base: 231, rate: 12, by: &[ANITA], to: &[2, 3, 4, 5, 6],
        notes: &["Call and qualify", "Send the product catalogue"], weight: 6 },
    Kind { dt: "Purchase Order", prefix: "PUR-ORD-2026-", base: 144, rate: 4, by: &[RAMESH, RAMESH, ASHOK],
        to: &[LAKSHMI, LAKSHMI, IMRAN, MEERA],
        notes: &["Follow up with the supplier for delivery", "Get the revised quotation", "Release payment"],
        weight: 8 },
    Kind { dt: "Material Request", prefix: "MAT-MR-2026-", base: 98, rate: 3, by: &[SANJAY, IMRAN, 19, 20],
        to: &[RAMESH, LAKSHMI], notes: &["Raise a PO against this", "Urgent for production"], weight: 7 },
    Kind { dt: "Issue", prefix: "ISS-2026-", base: 412, rate: 13, by: &[SURESH, SURESH, 8, 9],
        to: &[19, 20, 21, 8, 9, 10, 11],
        notes: &["Please take this up, the customer is upset", "Site visit needed"], weight: 8 },
    Kind { dt: "Sales Invoice", prefix: "ACC-SINV-2026-", base: 655, rate: 8, by: &[MEERA, MEERA, ANITA],
        to: &[AJAY, POOJA, 2, 3, 4], notes: &["Follow up for payment", "Send the e-way bill copy"], weight: 7 },
    Kind { dt: "Payment Entry", prefix: "ACC-PAY-2026-", base: 201, rate: 5, by: &[MEERA], to: &[AJAY, POOJA],
        notes: &["Reconcile with the bank statement"], weight: 4 },
];

const TASK: usize = 0;
const LEAD: usize = 4;
const ISSUE: usize = 7;
const SINV: usize = 8;

#[rustfmt::skip]
const CUSTOMERS: &[&str] = &[
    "Shree Balaji Agro Industries", "Jain Irrigation Dealers", "Sai Krupa Borewells", "Annapurna Farms",
    "Vasudha Infra Projects", "Green Valley Apartments", "Hotel Sagar Residency", "Mahalaxmi Textiles",
    "Coimbatore Motor Works", "Sri Venkateswara Hospitals", "Patel Agri Traders", "Deccan Builders",
    "Ganesh Water Solutions", "Kisan Seva Kendra", "Royal Palms Resort", "Nandi Dairy Cooperative",
    "Om Sai Engineering", "Sunrise Poultry Farm", "Bharat Fire Systems", "Gokul Constructions",
    "Krishna Sugar Mills", "Metro Housing Society", "Aqua Pure Systems", "Vijaya Cold Storage",
];
#[rustfmt::skip]
const SUPPLIERS: &[&str] =
    &["Sri Sai Castings", "Precision Motors", "Kirloskar Cables", "Ashirwad Bearings", "Unique Packaging", "Tata Steel"];
const SUPPLIER_MAIL: &[&str] = &[
    "billing@srisaicastings.example",
    "accounts@precisionmotors.example",
    "ar@kirloskarcables.example",
    "sales@ashirwadbearings.example",
    "accounts@uniquepack.example",
    "einvoice@tatasteel.example",
];
const CITIES: &[&str] = &["Pune", "Nashik", "Hubli", "Madurai", "Indore", "Rajkot", "Nagpur", "Salem"];
const ITEMS: &[&str] = &["3 HP monoblock pumps", "V4 submersible sets", "control panels", "impellers", "pump shafts"];
#[rustfmt::skip]
const FIRST: &[&str] = &[
    "Sunil", "Ravi", "Mahesh", "Lata", "Ganesh", "Kiran", "Anil", "Suresh", "Geeta", "Prakash", "Naveen", "Rekha",
    "Vinod", "Ashwin", "Manjunath", "Deepa",
];
const LAST: &[&str] = &["Patel", "Reddy", "Naik", "Sharma", "Gowda", "Yadav", "Shinde", "Iyer", "Chauhan", "Rao"];
const SOURCES: &[&str] = &["Walk In", "Reference", "Cold Calling", "Website", "Campaign"];
#[rustfmt::skip]
const PERSONAL: &[&str] = &[
    "Call {s} about the pending GST credit note", "Submit expense claim for the {c} visit",
    "Send the revised price list to {u}", "Check the pump test report for the {u} order",
    "Book train tickets to {c}", "Prepare the MIS for October", "Follow up with {u} on the C-form",
    "Update the stock count for {i}", "Collect the cheque from {u}", "Review pending purchase requisitions",
    "Reply to {u} on the warranty claim", "Get a quotation for {i} from {s}", "Plan the service visit to {c}",
    "Share dispatch details with {u}", "Submit timesheet", "Renew the ISO 9001 documents",
];
const COLORS: &[&str] = &["#ECAD4B", "#4463F0", "#29CD42", "#CB2929", "#743EE2"];
/// The Server Script's reminders (cron `30 9 * * 1-6`): text, user, priority, role.
#[rustfmt::skip]
const REMINDERS: [(&str, usize, &str, Option<&str>); 3] = [
    ("Check the bank reconciliation for the HDFC current account and clear unreconciled entries", POOJA, "High",
        Some("Accounts User")),
    ("Review yesterday's delivery notes that are not billed yet", AJAY, "Medium", None),
    ("Update the production plan and share the dispatch schedule", SANJAY, "Medium", None),
];

#[derive(Clone)]
enum Ev {
    /// A save: from the sidebar (Done, remove), the list, the form or a hook. `when` is the status it acts on.
    Save {
        by: usize,
        status: Option<&'static str>,
        when: Option<&'static str>,
        priority: Option<&'static str>,
        date: Option<i64>,
        to: Option<usize>,
        color: Option<&'static str>,
    },
    /// The form opened: the user joins `_seen`.
    View(usize),
    Tag(&'static str),
    Delete,
}

fn set(by: usize, status: &'static str, when: Option<&'static str>) -> Ev {
    Ev::Save { by, status: Some(status), when, priority: None, date: None, to: None, color: None }
}

fn done(by: usize) -> Ev {
    set(by, "Closed", Some("Open"))
}

fn cancel(by: usize) -> Ev {
    set(by, "Cancelled", None)
}

fn edit(by: usize, priority: Option<&'static str>, date: Option<i64>, to: Option<usize>) -> Ev {
    Ev::Save { by, status: None, when: None, priority, date, to, color: None }
}

#[derive(Clone, Default)]
struct Todo {
    /// An original and its retries share it.
    grp: usize,
    at: i64,
    /// The last hex digit of the request's trace id.
    req: u64,
    priority: &'static str,
    color: Option<&'static str>,
    /// The IST date, as the UTC midnight of that date.
    date: i64,
    to: Option<usize>,
    desc: String,
    refer: Option<(&'static str, String)>,
    role: Option<&'static str>,
    by: Option<usize>,
    sender: Option<&'static str>,
    rule: Option<&'static str>,
    owner: usize,
    hidden: bool,
    evs: Vec<(i64, Ev)>,
    status: &'static str,
    modified: i64,
    modified_by: usize,
    seen: Vec<usize>,
    tags: Option<String>,
    gone: bool,
}

fn todo(at: i64, req: u64, owner: usize, desc: String) -> Todo {
    Todo { at, req, owner, desc, priority: "Medium", date: today(at), status: "Open", ..Todo::default() }
}

/// Every row written, and the next intent's number.
struct Book {
    v: Vec<Todo>,
    grp: usize,
}

impl Book {
    fn add(&mut self, mut x: Todo) -> usize {
        self.grp += 1;
        x.grp = self.grp;
        self.v.push(x);
        self.v.len() - 1
    }

    /// A retry of row `k`: the same request again, every column the client sent the same.
    fn copy(&mut self, k: usize, at: i64, req: u64) -> usize {
        let mut x = self.v[k].clone();
        x.evs.clear();
        if x.date == today(x.at) {
            // The default date is the day of the write.
            x.date = today(at);
        }
        (x.at, x.req) = (at, req);
        self.v.push(x);
        self.v.len() - 1
    }

    fn ev(&mut self, k: usize, t: i64, ev: Ev) {
        self.v[k].evs.push((t, ev));
    }
}

/// Whether row `x` is an open ToDo at `t` (what `add`'s duplicate check finds).
fn open_at(x: &Todo, t: i64) -> bool {
    if x.at >= t {
        return false;
    }
    let mut evs: Vec<&(i64, Ev)> = x.evs.iter().filter(|e| e.0 < t).collect();
    evs.sort_by_key(|e| e.0);
    let mut status = "Open";
    for (_, ev) in evs {
        match ev {
            Ev::Save { status: Some(s), when, .. } if when.is_none_or(|w| w == status) => status = s,
            Ev::Delete => return false,
            _ => {}
        }
    }
    status == "Open"
}

/// `add`'s check: an open ToDo of that document for that user.
fn assigned(b: &Book, dt: &str, name: &str, u: usize, t: i64) -> bool {
    b.v.iter().any(|x| x.to == Some(u) && x.refer.as_ref().is_some_and(|(d, n)| *d == dt && n == name) && open_at(x, t))
}

/// The IST date `t` falls on.
fn today(t: i64) -> i64 {
    day(t + IST)
}

/// IST midnight of day `k` from 1 October.
fn midnight(k: i64) -> i64 {
    START - IST + k * DAY
}

fn micros(r: &mut Rng) -> i64 {
    r.below(1_000_000) as i64
}

/// A moment of the IST day starting at `l0`, the hour drawn from `rhythm`.
fn when(r: &mut Rng, l0: i64, rhythm: &[i64; 24]) -> i64 {
    l0 + r.weighted(rhythm) as i64 * HOUR + r.below(HOUR as u64) as i64
}

/// How busy day `k` is.
fn factor(k: i64) -> f64 {
    if HOLIDAYS.contains(&k) {
        return 0.12;
    }
    match weekday(midnight(k) + IST) {
        5 => 0.45,
        6 => 0.06,
        _ => 1.0,
    }
}

/// The first moment at or after `t` when someone at the office would act on it.
fn work(r: &mut Rng, t: i64) -> i64 {
    let mut t = t;
    for _ in 0..6 {
        let local = t + IST;
        let h = local.rem_euclid(DAY) / HOUR;
        if weekday(local) == 6 || h >= 19 {
            t = day(local) + DAY - IST + 9 * HOUR + 40 * MINUTE + r.range(0, 150 * 60) * SECOND + micros(r);
        } else if h < 9 {
            t = day(local) - IST + 9 * HOUR + 40 * MINUTE + r.range(0, 120 * 60) * SECOND + micros(r);
        } else {
            return t;
        }
    }
    t
}

/// `t` plus between `lo` and `hi` minutes, at work.
fn after(r: &mut Rng, t: i64, lo: i64, hi: i64) -> i64 {
    let t = t + r.range(lo * 60, hi * 60) * SECOND + micros(r);
    work(r, t)
}

fn html(text: &str) -> String {
    format!("<div class=\"ql-editor read-mode\"><p>{text}</p></div>")
}

/// A document of a kind that exists at `t`: recent ones far more often.
fn docname(r: &mut Rng, kind: &Kind, t: i64) -> String {
    let top = kind.base + kind.rate * (t - START) / DAY;
    let n = (top - 1 - r.skewed(70) as i64).max(1);
    format!("{}{:05}", kind.prefix, n)
}

fn priority(r: &mut Rng) -> &'static str {
    ["Medium", "High", "Low"][r.weighted(&[80, 13, 7])]
}

fn personal_text(r: &mut Rng) -> String {
    let (s, c, u, i) = (r.one(SUPPLIERS), r.one(CITIES), r.one(CUSTOMERS), r.one(ITEMS));
    r.one(PERSONAL).replace("{s}", s).replace("{c}", c).replace("{u}", u).replace("{i}", i)
}

/// The rows of one assignment request's ToDos: what happens to each assignee's ToDo and its copies.
fn settle(r: &mut Rng, b: &mut Book, families: &[Vec<usize>], kind: usize, by: usize, t: i64) {
    let task_done = (kind == TASK && r.chance(0.7)).then(|| after(r, t, 180, 6 * 24 * 60));
    let task_cancelled = kind == TASK && task_done.is_none() && r.chance(0.12);
    for fam in families {
        let to = b.v[fam[0]].to.unwrap_or(by);
        let mut live: Vec<usize> = fam.clone();
        if fam.len() > 1 && r.chance(0.45) {
            // Two avatars in the sidebar: one removed (the newest open one).
            let who = if r.chance(0.5) { by } else { to };
            let k = live.pop().unwrap_or(fam[0]);
            let at = after(r, b.v[k].at, 1, 360);
            b.ev(k, at, cancel(who));
        }
        if r.chance(0.15) {
            let at = after(r, t, 10, 24 * 60);
            b.ev(live[0], at, Ev::View(to));
        }
        if r.chance(0.08) {
            let at = after(r, t, 60, 48 * 60);
            let moved = today(at) + r.range(1, 6) * DAY;
            b.ev(live[0], at - r.range(5, 120) * SECOND, Ev::View(to));
            b.ev(live[0], at, edit(to, None, Some(moved), None));
        }
        if let Some(tc) = task_done {
            // `close_all_assignments`: every open ToDo of the Task, one request.
            for (i, &k) in live.iter().enumerate() {
                b.ev(k, tc + i as i64 * r.range(15_000, 60_000), done(to));
            }
            continue;
        }
        if task_cancelled {
            let tc = after(r, t, 600, 10 * 24 * 60);
            for (i, &k) in live.iter().enumerate() {
                b.ev(k, tc + i as i64 * r.range(15_000, 60_000), cancel(SANJAY));
            }
            continue;
        }
        let x = r.below(100);
        if x < 58 {
            // Done from the sidebar, newest first; with two, often clicked again.
            let mut at = after(r, t, 60, 5 * 24 * 60);
            for (i, &k) in live.iter().rev().enumerate() {
                if i > 0 && r.chance(0.35) {
                    break;
                }
                b.ev(k, at, done(to));
                at += r.range(5, 60) * SECOND + micros(r);
            }
        } else if x < 66 {
            let at = after(r, t, 30, 4 * 24 * 60);
            for &k in live.iter().rev() {
                b.ev(k, at, cancel(by));
            }
        }
    }
}

/// One click of the assign dialog on a document's form.
fn dialog(r: &mut Rng, b: &mut Book, t: i64, forced: bool) {
    let weights: Vec<i64> = KINDS.iter().map(|k| k.weight).collect();
    let ki = r.weighted(&weights);
    let kind = &KINDS[ki];
    let by = r.one(kind.by);
    let name = docname(r, kind, t);
    let mut to: Vec<usize> = Vec::new();
    if kind.to.contains(&by) && r.chance(0.2) {
        to.push(by);
    } else {
        let n = 1 + r.weighted(&[85, 12, 3]);
        for _ in 0..n * 3 {
            let u = r.one(kind.to);
            if to.len() < n && u != by && !to.contains(&u) {
                to.push(u);
            }
        }
        if to.is_empty() {
            to.push(kind.to[0]);
        }
    }
    // "Already in the following Users ToDo list": no row for them.
    to.retain(|&u| !assigned(b, kind.dt, &name, u, t));
    if to.is_empty() {
        return;
    }
    let desc = if r.chance(0.3) { html(r.one(kind.notes)) } else { format!("Assignment for {} {}", kind.dt, name) };
    let prio = priority(r);
    let date = r.chance(0.3).then(|| today(t) + r.range(1, 10) * DAY);
    let req = r.below(16);
    let mut families: Vec<Vec<usize>> = Vec::new();
    let mut at = t + r.range(40_000, 120_000);
    for &u in &to {
        let mut x = todo(at, req, by, desc.clone());
        (x.priority, x.to, x.by, x.refer) = (prio, Some(u), Some(by), Some((kind.dt, name.clone())));
        x.date = date.unwrap_or(x.date);
        families.push(vec![b.add(x)]);
        at += r.range(25_000, 70_000) + r.below(1_000) as i64;
    }
    if forced || r.chance(0.025) {
        // Sent again: 20-100 ms (a double submit), or 10-60 s later from a reopened dialog.
        let delay = if r.chance(0.75) { r.range(20_000, 100_000) } else { r.range(10, 60) * SECOND + micros(r) };
        let req2 = r.below(16);
        for fam in families.iter_mut() {
            let k = fam[0];
            let at = b.v[k].at + delay + r.range(0, 30_000);
            fam.push(b.copy(k, at, req2));
        }
    } else if r.chance(0.03) && to.len() == 1 {
        // Removed by mistake from the sidebar, and added again.
        let k = families[0][0];
        let gone = b.v[k].at + r.range(4, 60) * SECOND + micros(r);
        b.ev(k, gone, cancel(by));
        let again = gone + r.range(6, 120) * SECOND + micros(r);
        let mut x = b.v[k].clone();
        x.evs.clear();
        (x.at, x.req) = (again, r.below(16));
        let k2 = b.add(x);
        settle(r, b, &[vec![k2]], ki, by, again);
        return;
    }
    settle(r, b, &families, ki, by, t);
    if ki == TASK && r.chance(0.02) {
        // Reopened days later and given to the same engineer again.
        let k = families[0][0];
        let again = after(r, t, 3 * 24 * 60, 9 * 24 * 60);
        let mut x = b.v[k].clone();
        x.evs.clear();
        (x.at, x.req, x.date) = (again, r.below(16), date.map_or(today(again), |_| today(again) + 2 * DAY));
        let k2 = b.add(x);
        b.ev(k, again - r.range(60, 3_600) * SECOND, done(b.v[k].to.unwrap_or(by)));
        settle(r, b, &[vec![k2]], ki, by, again);
    }
}

/// The list view's bulk Assign To: `add_multiple` in one request.
fn bulk(r: &mut Rng, b: &mut Book, t: i64, (ki, by, to, count, first): (usize, usize, usize, usize, i64)) {
    let kind = &KINDS[ki];
    let names: Vec<String> = (0..count as i64).map(|i| format!("{}{:05}", kind.prefix, first + i)).collect();
    let names: Vec<String> = names.into_iter().filter(|n| !assigned(b, kind.dt, n, to, t)).collect();
    if names.is_empty() {
        return;
    }
    let desc = if r.chance(0.5) {
        html(r.one(kind.notes))
    } else {
        // `add` sets the default description in the shared args on the first document.
        format!("Assignment for {} {}", kind.dt, names[0])
    };
    let prio = if r.chance(0.3) { "High" } else { "Medium" };
    let date = r.chance(0.4).then(|| today(t) + r.range(2, 7) * DAY);
    let req = r.below(16);
    let mut at = t + r.range(60_000, 150_000);
    let mut rows = Vec::new();
    for name in names {
        let mut x = todo(at, req, by, desc.clone());
        (x.priority, x.to, x.by, x.refer) = (prio, Some(to), Some(by), Some((kind.dt, name)));
        x.date = date.unwrap_or(x.date);
        rows.push(b.add(x));
        at += r.range(30_000, 95_000) + r.below(1_000) as i64;
    }
    let sweep = r.chance(0.35).then(|| after(r, t, 2 * 24 * 60, 6 * 24 * 60));
    for &k in &rows {
        if r.chance(0.42) {
            let at = after(r, t, 120, 8 * 24 * 60);
            b.ev(k, at, done(to));
        } else if r.chance(0.1) {
            let at = after(r, t, 60, 24 * 60);
            b.ev(k, at, Ev::View(to));
        }
    }
    if let Some(ts) = sweep {
        // `remove_multiple`: what is still open, one request.
        for (i, &k) in rows.iter().enumerate() {
            b.ev(k, ts + i as i64 * r.range(40_000, 120_000), set(by, "Cancelled", Some("Open")));
        }
    }
}

/// A new Issue or Lead, assigned by its rule in the same request.
struct Made {
    at: i64,
    owner: usize,
    text: String,
    /// One job (a mail pull, a sync run, an import) is one trace id.
    req: u64,
}

/// A job's trace-id letter, the same for everything the job writes.
fn job_letter(slot: i64) -> u64 {
    (slot as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60
}

fn issues(r: &mut Rng, b: &mut Book) {
    let mut made: Vec<Made> = Vec::new();
    for k in 0..=DAYS {
        let l0 = midnight(k);
        let f = factor(k).max(0.2);
        for _ in 0..r.poisson(13.0 * f) {
            let t = when(r, l0, &MAIL);
            // The mail pull runs every five minutes.
            let pulled = t - t.rem_euclid(5 * MINUTE) + 5 * MINUTE + r.range(3, 40) * SECOND + micros(r);
            let req = job_letter(pulled / (5 * MINUTE));
            made.push(Made { at: pulled, owner: ADMIN, text: String::new(), req });
        }
        for _ in 0..r.poisson(3.0 * factor(k)) {
            let t = when(r, l0, &OFFICE);
            let owner = if r.chance(0.8) { r.one(&AGENTS) } else { SURESH };
            made.push(Made { at: t, owner, text: String::new(), req: r.below(16) });
        }
    }
    made.sort_by_key(|m| m.at);
    let mut rr = 0;
    for (i, m) in made.iter().enumerate() {
        let name = format!("ISS-2026-{:05}", KINDS[ISSUE].base + i as i64);
        let agent = AGENTS[rr % AGENTS.len()];
        rr += 1;
        let at = m.at + r.range(150_000, 900_000);
        let mut x = todo(at, m.req, m.owner, "Automatic Assignment".to_string());
        (x.to, x.by, x.rule, x.refer) = (Some(agent), Some(m.owner), Some(SUPPORT_RULE), Some(("Issue", name.clone())));
        let k = b.add(x);
        let mut rows = vec![k];
        if r.chance(0.05) {
            // The lead moves it: removes the agent and adds another from the sidebar.
            let ts = after(r, at, 10, 240);
            b.ev(k, ts, cancel(SURESH));
            let other = AGENTS[(rr + 1) % AGENTS.len()];
            let t2 = ts + r.range(5, 90) * SECOND + micros(r);
            let mut y = todo(t2, r.below(16), SURESH, format!("Assignment for Issue {name}"));
            (y.to, y.by, y.refer) = (Some(other), Some(SURESH), Some(("Issue", name.clone())));
            rows.push(b.add(y));
        }
        if r.chance(0.78) {
            // The close condition closes every ToDo of the Issue when it is closed.
            let tc = after(r, at, 40, 4 * 24 * 60);
            let closer = if r.chance(0.85) { b.v[*rows.last().unwrap_or(&k)].to.unwrap_or(agent) } else { SURESH };
            for (i, &j) in rows.iter().enumerate() {
                b.ev(j, tc + i as i64 * r.range(20_000, 80_000), set(closer, "Closed", None));
            }
            if r.chance(0.08) {
                // The customer replies: the pull reopens it, and it is closed again.
                let to = tc + r.range(6, 72) * HOUR + micros(r);
                for &j in &rows {
                    b.ev(j, to, set(ADMIN, "Open", Some("Closed")));
                }
                if r.chance(0.7) {
                    let tc2 = after(r, to, 60, 2 * 24 * 60);
                    for &j in &rows {
                        b.ev(j, tc2, set(closer, "Closed", None));
                    }
                }
            }
        } else if r.chance(0.2) {
            let at2 = after(r, at, 30, 24 * 60);
            b.ev(k, at2, Ev::View(agent));
        }
    }
}

fn leads(r: &mut Rng, b: &mut Book) {
    let mut made: Vec<Made> = Vec::new();
    for k in 0..=DAYS {
        let l0 = midnight(k);
        // IndiaMART's pull every 15 minutes, 08:00-21:00.
        for slot in 32..84 {
            let p = 0.18 * factor(k).max(0.5);
            if r.chance(p) {
                let at = l0 + slot * 15 * MINUTE + r.range(5, 50) * SECOND + micros(r);
                let req = r.below(16);
                for j in 0..1 + r.weighted(&[80, 15, 5]) {
                    let name = format!("{} {}", r.pick(FIRST), r.pick(LAST));
                    let text = format!("Call new lead {name} (IndiaMART) within 2 hours");
                    let at = at + j as i64 * r.range(300_000, 900_000);
                    made.push(Made { at, owner: INDIAMART, text, req });
                }
            }
        }
        for _ in 0..r.poisson(3.0 * factor(k)) {
            let at = when(r, l0, &OFFICE);
            let owner = if r.chance(0.7) { r.one(&REPS) } else { ANITA };
            let name = format!("{} {}", r.pick(FIRST), r.pick(LAST));
            let text = format!("Call new lead {name} ({}) within 2 hours", r.pick(SOURCES));
            made.push(Made { at, owner, text, req: r.below(16) });
        }
    }
    // A Data Import of the trade show's visitors, one lead after another.
    let mut at = midnight(26) + 11 * HOUR + 20 * MINUTE + micros(r);
    let req = r.below(16);
    for _ in 0..45 {
        let name = format!("{} {}", r.pick(FIRST), r.pick(LAST));
        let text = format!("Call new lead {name} (Exhibition) within 2 hours");
        made.push(Made { at, owner: ANITA, text, req });
        at += r.range(250_000, 800_000);
    }
    made.sort_by_key(|m| m.at);
    for (i, m) in made.iter().enumerate() {
        let name = format!("CRM-LEAD-2026-{:05}", KINDS[LEAD].base + i as i64);
        let rep = REPS[i % REPS.len()];
        let at = m.at + r.range(120_000, 700_000);
        let mut x = todo(at, m.req, m.owner, m.text.clone());
        (x.to, x.by, x.rule, x.refer) = (Some(rep), Some(m.owner), Some(LEAD_RULE), Some(("Lead", name)));
        let k = b.add(x);
        let y = r.below(100);
        if y < 55 {
            let tc = after(r, at, 20, 3 * 24 * 60);
            b.ev(k, tc, done(rep));
        } else if y < 63 {
            // Do Not Contact: the unassign condition.
            let tc = after(r, at, 60, 5 * 24 * 60);
            b.ev(k, tc, set(rep, "Cancelled", None));
        }
    }
}

/// A caller of the sales or service line: number, who, the document the integration finds, the user it goes to.
struct Caller {
    phone: String,
    who: String,
    refer: Option<(&'static str, String)>,
    rep: usize,
    line: &'static str,
}

fn caller(r: &mut Rng) -> Caller {
    let phone = format!("+91 9{}{:03} {:05}", r.range(0, 9), r.range(100, 999), r.range(10_000, 99_999));
    let service = r.chance(0.3);
    let (who, refer) = match r.below(10) {
        0..=4 => {
            let c = r.one(CUSTOMERS).to_string();
            (c.clone(), Some(("Customer", c)))
        }
        5..=7 => {
            let n = format!("{} {}", r.pick(FIRST), r.pick(LAST));
            (n, Some(("Lead", format!("CRM-LEAD-2026-{:05}", r.range(120, 240)))))
        }
        _ => ("unknown number".to_string(), None),
    };
    let rep = if service { SURESH } else { r.one(&REPS) };
    Caller { phone, who, refer, rep, line: if service { "service" } else { "sales" } }
}

/// The telephony integration posts a callback ToDo for each missed call.
fn calls(r: &mut Rng, b: &mut Book) {
    let mut pool: Vec<Caller> = Vec::new();
    let mut due = Some(LATE[1]);
    let slow: [i64; 2] = [12, 29];
    for k in 0..=DAYS {
        let l0 = midnight(k);
        let mut times: Vec<i64> = (0..r.poisson(9.0 * factor(k))).map(|_| when(r, l0, &CALLS)).collect();
        times.sort();
        for (n, t) in times.into_iter().enumerate() {
            // Mostly new numbers; some who called in the last days.
            if pool.is_empty() || r.chance(0.92) {
                pool.push(caller(r));
            } else {
                let back = pool.len() - 1 - r.below(pool.len().min(30) as u64) as usize;
                let again = pool.remove(back);
                pool.push(again);
            }
            let c = &pool[pool.len() - 1];
            let desc = format!("Missed call from {} ({}) on the {} line. Please call back.", c.phone, c.who, c.line);
            let at = t + r.range(300_000, 2_500_000);
            let mut x = todo(at, r.below(16), EXOTEL, desc);
            (x.priority, x.to, x.refer) = ("High", Some(c.rep), c.refer.clone());
            let k0 = b.add(x);
            let mut episode = vec![k0];
            let mut redelivered = false;
            let forced = due.is_some_and(|d| at > d);
            if forced {
                due = None;
            }
            if slow.contains(&k) && n == 0 {
                // No answer to the webhook: redelivered half an hour later.
                let at2 = at + r.range(20 * 60, 45 * 60) * SECOND + micros(r);
                let j = b.copy(k0, at2, r.below(16));
                b.v[j].hidden = true;
                episode.push(j);
                redelivered = true;
            } else if forced || r.chance(0.08) {
                let d = client_retry_delay(r);
                episode.push(b.copy(k0, at + d, r.below(16)));
                if r.chance(0.3) {
                    let d2 = d + 2 * client_retry_delay(r).max(SECOND);
                    episode.push(b.copy(k0, at + d2, r.below(16)));
                }
            } else if r.chance(0.08) {
                // The call rang the rep's desk phone and the mobile app: a missed-call event for each leg.
                let at2 = at + r.range(300_000, 3_000_000);
                let mut y = b.v[k0].clone();
                y.evs.clear();
                (y.at, y.req) = (at2, r.below(16));
                episode.push(b.add(y));
            } else if r.chance(0.18) {
                // The caller redials at once and misses again.
                let at2 = at + r.range(8, 360) * SECOND + micros(r);
                let mut y = b.v[k0].clone();
                y.evs.clear();
                (y.at, y.req) = (at2, r.below(16));
                episode.push(b.add(y));
            }
            let y = if redelivered || forced { 0 } else { r.below(100) };
            if y < 80 {
                let mut tc = after(r, at, 3, 300);
                // Taken for a second missed call: each is called back and closed.
                let o = if redelivered || forced { 0 } else { r.below(100) };
                for (i, &j) in episode.iter().enumerate() {
                    tc = tc.max(b.v[j].at + r.range(60, 900) * SECOND);
                    if i == 0 || o < 50 {
                        b.ev(j, tc, done(c.rep));
                    } else if o < 75 {
                        b.ev(j, tc, Ev::Delete);
                    }
                    tc += r.range(5, 40) * SECOND + micros(r);
                }
            } else if y < 85 {
                let tc = after(r, at, 3, 600);
                for &j in &episode {
                    b.ev(j, tc, Ev::Delete);
                }
            }
        }
    }
}

/// n8n's collections run, weekdays 10:00: a ToDo per invoice crossing 30, 45 or 60 days overdue.
fn collections(r: &mut Rng, b: &mut Book) {
    let mut done_before: HashSet<(i64, i64)> = HashSet::new();
    for k in 0..=DAYS {
        let l0 = midnight(k);
        if factor(k) < 1.0 {
            continue;
        }
        let slow = r.chance(0.25);
        let mut at = l0 + 10 * HOUR + r.range(2, 40) * SECOND + micros(r);
        let items = r.range(2, 7);
        let retried = r.range(0, items - 1);
        for n in 0..items {
            let inv = r.range(380, 640);
            let days = r.one(&[30, 45, 60]);
            if !done_before.insert((inv, days)) {
                continue;
            }
            let cust = CUSTOMERS[(inv as usize * 7) % CUSTOMERS.len()];
            let amount = r.range(18, 480) * 1_000 + r.range(0, 9) * 100;
            let name = format!("ACC-SINV-2026-{inv:05}");
            let desc = format!("Payment follow-up: {name} ({cust}), INR {amount} overdue {days} days");
            let to = if inv % 2 == 0 { AJAY } else { POOJA };
            let mut x = todo(at + r.range(150_000, 900_000), r.below(16), N8N, desc);
            (x.priority, x.to, x.by, x.refer) = ("High", Some(to), Some(MEERA), Some(("Sales Invoice", name)));
            x.date = today(at) + 2 * DAY;
            let k0 = b.add(x);
            let mut fam = vec![k0];
            if slow && n == retried {
                // Retry On Fail: the request timed out after 10 s, tried again a second later.
                let a1 = at + 11 * SECOND + r.range(0, 1_500_000);
                fam.push(b.copy(k0, a1, r.below(16)));
                if r.chance(0.25) {
                    fam.push(b.copy(k0, a1 + 11 * SECOND + r.range(0, 1_500_000), r.below(16)));
                }
                let last = fam.last().map_or(at, |&j| b.v[j].at);
                at = last + r.range(300_000, 900_000);
            } else {
                at += r.range(400_000, 1_200_000);
            }
            let y = r.below(100);
            if y < 55 {
                let mut tc = after(r, at, 24 * 60, 4 * 24 * 60);
                if fam.len() > 1 && r.chance(0.5) {
                    for &j in &fam[1..] {
                        let td = after(r, at, 10, 24 * 60);
                        b.ev(j, td, Ev::Delete);
                    }
                }
                for &j in &fam {
                    b.ev(j, tc, done(to));
                    tc += r.range(5, 30) * SECOND;
                }
            } else if y < 65 {
                let td = after(r, at, 60, 3 * 24 * 60);
                for &j in &fam {
                    b.ev(j, td, Ev::Delete);
                }
            }
        }
    }
}

/// The Server Script on `30 9 * * 1-6`, run by the scheduler as Administrator.
fn reminders(r: &mut Rng, b: &mut Book) {
    for k in 0..=DAYS {
        let l0 = midnight(k);
        if weekday(l0 + IST) == 6 {
            continue;
        }
        let req = r.below(16);
        let mut at = l0 + 9 * HOUR + 30 * MINUTE + r.range(1, 20) * SECOND + micros(r);
        for &(text, to, prio, role) in &REMINDERS {
            let mut x = todo(at, req, ADMIN, text.to_string());
            (x.priority, x.to, x.role) = (prio, Some(to), role);
            let j = b.add(x);
            if HOLIDAYS.contains(&k) {
                // A holiday: nobody looks at it.
            } else if r.chance(0.8) {
                let tc = after(r, at, 60, 8 * 60);
                b.ev(j, tc, done(to));
            }
            at += r.range(15_000, 60_000);
        }
    }
}

/// Mail to accounts@, appended to ToDo by the Email Account: the subject and the sender.
fn mail(r: &mut Rng, b: &mut Book) {
    let mut subjects: HashSet<String> = HashSet::new();
    for k in 0..=DAYS {
        let l0 = midnight(k);
        for _ in 0..r.poisson(2.2 * factor(k)) {
            let s = r.below(SUPPLIERS.len() as u64) as usize;
            let subject = match r.below(3) {
                0 => format!("Invoice {}/2026-27/{:04} from {}", r.range(10, 99), r.range(100, 2_000), SUPPLIERS[s]),
                1 => format!("Payment advice - UTR HDFCR5202610{:07}", r.range(0, 9_999_999)),
                _ => format!(
                    "Statement of account - {} - {}",
                    SUPPLIERS[s],
                    ["September", "October"][r.below(2) as usize]
                ),
            };
            if !subjects.insert(subject.clone()) {
                // The same subject from the same sender is appended to the ToDo already there.
                continue;
            }
            let t = when(r, l0, &MAIL);
            let at = t - t.rem_euclid(5 * MINUTE) + 5 * MINUTE + r.range(3, 40) * SECOND + micros(r);
            let mut x = todo(at, r.below(16), ADMIN, subject);
            x.sender = Some(SUPPLIER_MAIL[s]);
            let j = b.add(x);
            let y = r.below(100);
            if y < 60 {
                let to = if r.chance(0.5) { AJAY } else { POOJA };
                let ta = after(r, at, 30, 6 * 60);
                b.ev(j, ta - r.range(10, 90) * SECOND, Ev::View(MEERA));
                b.ev(j, ta, edit(MEERA, None, None, Some(to)));
                if r.chance(0.7) {
                    let tc = after(r, ta, 240, 3 * 24 * 60);
                    b.ev(j, tc, done(to));
                }
            } else if y < 75 {
                let tc = after(r, at, 30, 2 * 24 * 60);
                b.ev(j, tc, done(MEERA));
            }
        }
    }
}

/// New ToDo from the ToDo list's quick entry: allocated to the user by the list filter.
fn personal(r: &mut Rng, b: &mut Book) {
    for k in 0..=DAYS {
        let l0 = midnight(k);
        for _ in 0..r.poisson(6.0 * factor(k)) {
            let at = when(r, l0, &OFFICE);
            let owner = r.range(1, 22) as usize;
            let mut x = todo(at, r.below(16), owner, html(&personal_text(r)));
            x.to = Some(owner);
            if r.chance(0.25) {
                x.date = today(at) + r.range(1, 7) * DAY;
            }
            let j = b.add(x);
            let mut fam = vec![j];
            if r.chance(0.02) {
                fam.push(b.copy(j, at + r.range(20_000, 100_000), r.below(16)));
                if r.chance(0.6) {
                    let td = at + r.range(10, 600) * SECOND;
                    b.ev(fam[1], td, Ev::Delete);
                }
            }
            if r.chance(0.1) {
                let te = after(r, at, 30, 2 * 24 * 60);
                b.ev(j, te - r.range(5, 60) * SECOND, Ev::View(owner));
                b.ev(j, te, edit(owner, Some("High"), None, None));
            }
            if r.chance(0.07) {
                let te = after(r, at, 5, 24 * 60);
                let c = r.one(COLORS);
                b.ev(j, te - r.range(5, 60) * SECOND, Ev::View(owner));
                b.ev(
                    j,
                    te,
                    Ev::Save {
                        by: owner,
                        status: None,
                        when: None,
                        priority: None,
                        date: None,
                        to: None,
                        color: Some(c),
                    },
                );
            }
            if r.chance(0.05) {
                let te = after(r, at, 5, 24 * 60);
                b.ev(j, te, Ev::Tag(if r.chance(0.5) { "follow-up" } else { "urgent" }));
            }
            let y = r.below(100);
            if y < 60 {
                let tc = after(r, at, 60, 5 * 24 * 60);
                for &i in &fam {
                    b.ev(i, tc, done(owner));
                }
            } else if y < 66 {
                let td = after(r, at, 30, 3 * 24 * 60);
                b.ev(j, td, Ev::Delete);
            }
        }
    }
}

/// Applies a row's events in time order, up to now.
fn replay(x: &mut Todo) {
    (x.status, x.modified, x.modified_by) = ("Open", x.at, x.owner);
    let mut evs = std::mem::take(&mut x.evs);
    evs.sort_by_key(|e| e.0);
    for (t, ev) in evs {
        if t >= NOW || x.gone {
            break;
        }
        let t = t.max(x.modified + 1_000);
        match ev {
            Ev::Save { by, status, when, priority, date, to, color } => {
                if when.is_some_and(|w| w != x.status) {
                    continue;
                }
                let changes = priority.is_some() || date.is_some() || to.is_some() || color.is_some();
                if status.is_some_and(|s| s == x.status) && !changes {
                    continue;
                }
                if let Some(s) = status {
                    x.status = s;
                }
                x.priority = priority.unwrap_or(x.priority);
                x.date = date.unwrap_or(x.date);
                x.to = to.or(x.to);
                x.color = color.or(x.color);
                (x.modified, x.modified_by, x.seen) = (t, by, vec![by]);
            }
            Ev::View(u) => {
                if !x.seen.contains(&u) {
                    x.seen.push(u);
                }
            }
            Ev::Tag(tag) => x.tags = Some(format!("{},{tag}", x.tags.take().unwrap_or_default())),
            Ev::Delete => x.gone = true,
        }
    }
}

const B32HEX: &[u8] = b"0123456789abcdefghijklmnopqrstuv";

/// `make_autoname("hash")`: the request's letter, the time in tenths of a second (three base32hex digits of it mod
/// 32^4), random base32hex digits, ten in all.
fn hash_name(r: &mut Rng, at: i64, req: u64) -> String {
    let ts = (at / 100_000).rem_euclid(32_i64.pow(4)) as usize;
    let mut s = String::with_capacity(10);
    s.push(B32HEX[req as usize % 16] as char);
    for shift in [10, 5, 0] {
        s.push(B32HEX[(ts >> shift) & 31] as char);
    }
    // `(prefix + _generate_random_string(7))[:10]`: six of the seven survive.
    for _ in 0..6 {
        s.push(B32HEX[r.below(32) as usize] as char);
    }
    s
}

fn user(u: usize) -> V {
    V::t(USERS[u].0)
}

fn date(d: i64) -> V {
    V::t(chrono::DateTime::from_timestamp_micros(d).unwrap().format("%Y-%m-%d").to_string())
}

/// A datetime as Frappe writes it: the system time zone's wall clock.
fn stamp(t: i64) -> V {
    V::At(t + IST)
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0xE2_7D0);
    let mut b = Book { v: Vec::new(), grp: 0 };
    issues(&mut r, &mut b);
    leads(&mut r, &mut b);
    let mut due = vec![LATE[0], LATE[2]];
    for k in 0..=DAYS {
        let l0 = midnight(k);
        let mut times: Vec<i64> = (0..r.poisson(24.0 * factor(k))).map(|_| when(&mut r, l0, &OFFICE)).collect();
        times.sort();
        for t in times {
            let forced = due.first().is_some_and(|&d| t > d);
            if forced {
                due.remove(0);
            }
            dialog(&mut r, &mut b, t, forced);
        }
    }
    // Bulk assignments from list views: (day, IST hour, kind, by, to, count, first number).
    #[rustfmt::skip]
    let bulks: [(i64, i64, usize, usize, usize, usize, i64); 12] = [
        (2, 11, SINV, MEERA, AJAY, 14, 402), (6, 15, TASK, SANJAY, 20, 9, 528), (8, 12, ISSUE, SURESH, 19, 7, 455),
        (13, 10, SINV, MEERA, POOJA, 18, 431), (15, 16, 6, RAMESH, LAKSHMI, 6, 121), (21, 11, TASK, SANJAY, 21, 12, 655),
        (27, 10, LEAD, ANITA, 3, 18, 0), (27, 15, LEAD, ANITA, 5, 16, 0), (29, 12, SINV, MEERA, AJAY, 11, 512),
        (34, 11, ISSUE, SURESH, 21, 8, 790), (35, 15, TASK, SANJAY, 19, 10, 810), (40, 10, 6, RAMESH, LAKSHMI, 7, 199),
    ];
    // The trade show's leads: numbered where the Data Import put them.
    let first_fair =
        b.v.iter()
            .filter(|x| x.rule == Some(LEAD_RULE) && x.desc.contains("(Exhibition)"))
            .filter_map(|x| x.refer.as_ref().and_then(|(_, n)| n.rsplit('-').next()?.parse::<i64>().ok()))
            .min()
            .unwrap_or(700);
    let mut fair = first_fair;
    for &(k, hour, ki, by, to, count, first) in &bulks {
        let t = midnight(k) + hour * HOUR + r.range(0, 59) * MINUTE + micros(&mut r);
        let first = if ki == LEAD {
            fair += count as i64;
            fair - count as i64
        } else {
            first
        };
        bulk(&mut r, &mut b, t, (ki, by, to, count, first));
    }
    calls(&mut r, &mut b);
    collections(&mut r, &mut b);
    reminders(&mut r, &mut b);
    mail(&mut r, &mut b);
    personal(&mut r, &mut b);

    let mut v: Vec<Todo> = std::mem::take(&mut b.v);
    v.retain(|x| x.at >= START && x.at < NOW - SECOND);
    v.sort_by_key(|x| x.at);
    for x in v.iter_mut() {
        replay(x);
    }

    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("tabToDo", &columns);
    let mut names: HashSet<String> = HashSet::new();
    let mut present: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    for x in v.iter().filter(|x| !x.gone) {
        let mut name = hash_name(&mut r, x.at, x.req);
        while !names.insert(name.clone()) {
            name = hash_name(&mut r, x.at, x.req);
        }
        // What the row says of the intent, but for what each write mints (name, times, today's date).
        let key = format!(
            "{}|{:?}|{:?}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{}",
            x.priority, x.color, x.to, x.desc, x.refer, x.role, x.by, x.sender, x.rule, x.owner
        );
        let first = present.insert(x.grp);
        let fresh = seen.insert(key);
        let mark = if !first {
            Mark::Retry
        } else if !fresh {
            Mark::Legit
        } else {
            Mark::Plain
        };
        let seen_by = (!x.seen.is_empty()).then(|| {
            let list: Vec<String> = x.seen.iter().map(|&u| format!("\"{}\"", USERS[u].0)).collect();
            format!("[{}]", list.join(", "))
        });
        f.push(&[
            ("name", V::t(&name)),
            ("creation", stamp(x.at)),
            ("modified", stamp(x.modified)),
            ("modified_by", user(x.modified_by)),
            ("owner", user(x.owner)),
            ("docstatus", V::I(0)),
            ("idx", V::I(0)),
            ("status", V::t(x.status)),
            ("priority", V::t(x.priority)),
            ("color", V::opt_t(x.color)),
            ("date", date(x.date)),
            ("allocated_to", x.to.map_or(V::Null, user)),
            ("description", V::t(&x.desc)),
            ("reference_type", V::opt_t(x.refer.as_ref().map(|(t, _)| *t))),
            ("reference_name", V::opt_t(x.refer.as_ref().map(|(_, n)| n.as_str()))),
            ("role", V::opt_t(x.role)),
            ("assigned_by", x.by.map_or(V::Null, user)),
            ("assigned_by_full_name", V::opt_t(x.by.map(|u| USERS[u].1))),
            ("sender", V::opt_t(x.sender)),
            ("assignment_rule", V::opt_t(x.rule)),
            ("_user_tags", V::opt_t(x.tags.as_deref())),
            ("_comments", V::Null),
            ("_assign", V::Null),
            ("_liked_by", V::Null),
            ("_seen", V::opt_t(seen_by.as_deref())),
        ]);
        f.mark(&name, mark);
        if mark == Mark::Retry && x.hidden {
            f.hidden.insert(name.clone());
        }
    }
    f
}
