//! Mautic (PHP, Symfony/Doctrine; MySQL/MariaDB only): `form_submissions`, as `SubmissionModel::saveSubmission` writes
//! it for each POST to `/form/submit`, with the form's results row (`form_results_<id>_<alias>`) that
//! `SubmissionRepository::saveEntity` inserts right after it in the same request as children: a B2B analytics SaaS's
//! marketing instance, 42 days of six forms (newsletter and contact forms embedded on the website with Mautic's form
//! JS, an ebook and a demo form on Mautic landing pages, an "office hours" registration the website's backend posts
//! server-side, and a kiosk-mode badge-scan form on two iPads at a trade-show booth).
//! Why this table: `leads` is deduplicated by the unique identifier fields (email) on every create path (API, import,
//! form), so a retried contact create mostly updates the contact it found; a form submission is never deduplicated:
//! every POST that passes validation inserts a `form_submissions` row (and its results row), so every retried submit
//! leaves a row, and people really do submit the same form again on purpose.
//! Read: mautic/mautic (2427149, 5.x, 2024-10-24) app/bundles/FormBundle/Entity/Submission.php (`loadMetadata`: bigint
//! unsigned id, form_id NOT NULL CASCADE, ip_id and lead_id nullable SET NULL, tracking_id string nullable,
//! date_submitted datetime, referer text NOT NULL, page_id SET NULL, indexes form_submission_tracking_search and
//! form_date_submitted), Entity/SubmissionRepository.php (`saveEntity`: the results insert after the flush, `updateLead`),
//! Model/SubmissionModel.php (`saveSubmission`, `createLeadFromSubmit`: kiosk mode, the lookup by unique fields and the
//! merge of the found contact into the tracked one), Model/FormModel.php (`saveEntity`: the form alias is the name
//! cleaned to 10 characters; `createTableSchema`/`generateFieldColumns`: submission_id and form_id integers, one
//! nullable text column per field but the view-only ones, primary key submission_id, unique (submission_id, form_id)),
//! Model/FieldModel.php (`generateAlias`), Controller/PublicController.php (`submitAction`: no guard but the publish
//! state), Controller/Api/SubmissionApiController.php (read only), EventListener/LeadSubscriber.php (`onLeadMerge`
//! moves the loser's submissions to the winner), app/assets/js/mautic-form-src.js (`validateForm`: the submit button is
//! disabled, `_return` set to `document.URL`, the post goes to a hidden iframe), CoreBundle/Doctrine/Mapping/
//! ClassMetadataBuilder.php (`addId` int unsigned, `addBigIntIdField`, `addLead`, `addIpAddress`), CoreBundle/Helper/
//! RandomHelper (tracking ids: 23 of [0-9a-z]), LeadBundle/Tracker/ContactTracker.php (`getContact`,
//! `createNewContact` persists a new anonymous contact for a request without a tracking cookie),
//! Tracker/Service/DeviceTrackingService, Deduplicate/ContactMerger.php (`merge($winner, $loser)`), app/config/
//! config.php (utf8mb4_unicode_ci, DYNAMIC rows).
//! On a create: `date_submitted` is `new \DateTime()` when the request starts (UTC, whole seconds in the DATETIME);
//! `form_id` from the post; `page_id` when the form sits on a Mautic landing page (`mauticpage`); `ip_id` the
//! `ip_addresses` row of the client's IP, looked up or created; `referer` the post's `return` (the JS sets it to
//! `document.URL`, query and all) else HTTP_REFERER else ''; then the contact: the tracked one (mtc cookie) or, for a
//! request with no cookie, a new anonymous contact persisted on the spot; with mapped fields the lookup by email finds
//! the known contact and merges it INTO the new one (the winner), whose id the submission gets and to which
//! `onLeadMerge` moves every earlier submission of the loser; kiosk mode uses the found contact (or a new one) and
//! never merges. `tracking_id` is the device's (cookie), a fresh 23-character id when the request had none. Then the
//! insert (autocommit, no request transaction), the results row (every saved field; an empty field is ''), and only
//! then the form's actions (notification and download emails through SMTP, the CRM push, campaign membership), which
//! is where a submit hangs. Later: nothing edits a submission; a result can be deleted from the UI (spam, duplicates),
//! a deleted contact sets `lead_id` NULL, a merge rewrites it.
//! Retries (marked on the extra rows): the form JS disables the button, but pressing Enter again in a field submits
//! again (a few JS users), and visitors whose blocker drops Mautic's scripts post the plain HTML form, where a double
//! click sends two posts 20-200 ms apart; with no cookie each post mints its own contact and device, and when the
//! second lookup runs before the first one's email is saved they stay two contacts (the copy's lead_id differs). On five
//! afternoons the SMTP relay and the CRM hang the actions: submits hang 25-120 s, and people reload the page and send
//! again (the browser restores the fields; a retyped contact message differs: hidden). The website's backend posts the
//! office-hours registrations with a 10 s timeout and two retries (1 s, 2 s backoff); each attempt mints a contact and a
//! device, and the merges leave all of them on the newest contact. At the booth the venue wifi drops replies: staff
//! rescan the badge 15-60 s later (sometimes picking another interest: hidden). Three retries in the last day. Sales
//! delete some duplicate results later (the copy or, sometimes, the original).
//! Legitimate repeats: office-hours regulars registering every week and people re-registering minutes later because the
//! confirmation mail is slow, the ebook downloaded again minutes later (the download did not start) or days later from
//! the same page, demo and contact requests sent again days later, newsletter signups repeated on the same page, booth
//! visitors who come back (minutes to a day later), and a spam bot posting the same message to the contact form.
//! Guessed: the company, forms, fields, pages, rates and rhythms; the visitors (share without JS, tracked, changing
//! IPs); the incident windows and how people react; the backend's retry policy; the booth; the deletions; the id
//! streams of contacts and IP addresses (written all the time by page tracking).
use std::collections::{HashMap, HashSet};

use super::{Child, DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, secs, weekday};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::MySql];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::MySql => {
            let mut s = DDL.to_string();
            for f in &FORMS {
                let cols: Vec<String> = f.fields.iter().map(|c| format!("`{c}` LONGTEXT DEFAULT NULL")).collect();
                s.push_str(&format!(
                    "\nCREATE TABLE `{t}` (`submission_id` INT NOT NULL, `form_id` INT NOT NULL, {c},
  UNIQUE INDEX `UNIQ_{t}` (`submission_id`, `form_id`), PRIMARY KEY(`submission_id`))
  DEFAULT CHARACTER SET utf8mb4 COLLATE `utf8mb4_unicode_ci` ENGINE = InnoDB ROW_FORMAT = DYNAMIC;",
                    t = f.table,
                    c = cols.join(", ")
                ));
            }
            s
        }
        _ => unreachable!("Mautic runs on MySQL and MariaDB only"),
    }
}

/// The table as Doctrine's schema tool creates it, without the foreign keys to `forms`, `ip_addresses`, `leads` and
/// `pages`.
const DDL: &str = "CREATE TABLE `form_submissions` (
  `id` BIGINT UNSIGNED AUTO_INCREMENT NOT NULL,
  `form_id` INT UNSIGNED NOT NULL,
  `ip_id` INT UNSIGNED DEFAULT NULL,
  `lead_id` BIGINT UNSIGNED DEFAULT NULL,
  `page_id` INT UNSIGNED DEFAULT NULL,
  `tracking_id` VARCHAR(255) DEFAULT NULL,
  `date_submitted` DATETIME NOT NULL COMMENT '(DC2Type:datetime)',
  `referer` LONGTEXT NOT NULL,
  INDEX `IDX_C80AF9E65FF69B7D` (`form_id`),
  INDEX `IDX_C80AF9E6A03F5E9F` (`ip_id`),
  INDEX `IDX_C80AF9E655458D` (`lead_id`),
  INDEX `IDX_C80AF9E6C4663E4` (`page_id`),
  INDEX `form_submission_tracking_search` (`tracking_id`),
  INDEX `form_date_submitted` (`date_submitted`),
  PRIMARY KEY(`id`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE `utf8mb4_unicode_ci` ENGINE = InnoDB ROW_FORMAT = DYNAMIC;";

struct Form {
    id: i64,
    table: &'static str,
    fields: &'static [&'static str],
}

const NEWS: usize = 0;
const CONTACT: usize = 1;
const EBOOK: usize = 2;
const DEMO: usize = 3;
const OFFICE: usize = 4;
const BOOTH: usize = 5;

static FORMS: [Form; 6] = [
    Form { id: 1, table: "form_results_1_newsletter", fields: &["email", "first_name"] },
    Form {
        id: 2,
        table: "form_results_2_contact_us",
        fields: &["first_name", "last_name", "email", "company", "phone", "message"],
    },
    Form {
        id: 3,
        table: "form_results_3_ebook_stat",
        fields: &["first_name", "email", "company", "job_title", "country"],
    },
    Form {
        id: 5,
        table: "form_results_5_request_a_",
        fields: &["first_name", "last_name", "email", "company", "company_size", "country", "phone"],
    },
    Form {
        id: 6,
        table: "form_results_6_office_hou",
        fields: &["first_name", "last_name", "email", "company", "question"],
    },
    Form {
        id: 8,
        table: "form_results_8_booth_scan",
        fields: &["email", "first_name", "last_name", "company", "job_title", "interest"],
    },
];

const START: i64 = T0;
const DAYS: i64 = 42;
const NOW: i64 = START + DAYS * DAY;
const LATE: [i64; 3] = [NOW - 20 * HOUR, NOW - 8 * HOUR, NOW - 2 * HOUR];
/// The afternoons the SMTP relay and the CRM hang the form actions.
const INCIDENTS: [(i64, i64); 5] = [
    (START + 4 * DAY + 13 * HOUR, START + 4 * DAY + 16 * HOUR),
    (START + 11 * DAY + 14 * HOUR, START + 11 * DAY + 17 * HOUR),
    (START + 17 * DAY + 12 * HOUR, START + 17 * DAY + 15 * HOUR),
    (START + 26 * DAY + 15 * HOUR, START + 26 * DAY + 19 * HOUR),
    (START + 33 * DAY + 13 * HOUR, START + 33 * DAY + 15 * HOUR),
];
/// The trade show: two days, the booth's iPads on the venue's wifi.
const SHOW: i64 = START + 22 * DAY;

/// Submits per UTC hour, relative (Europe and the Americas).
const RHYTHM: [i64; 24] = [2, 1, 1, 1, 1, 2, 3, 5, 8, 10, 10, 10, 9, 11, 13, 14, 13, 11, 9, 7, 6, 5, 4, 3];

#[rustfmt::skip]
const FIRST: &[&str] = &[
    "Anna", "Ben", "Carla", "David", "Emma", "Felix", "Grace", "Hugo", "Ines", "Jonas", "Katrin", "Lukas", "Maria",
    "Noah", "Olivia", "Paul", "Quentin", "Rosa", "Sam", "Tina", "Umar", "Vera", "William", "Xenia", "Yusuf", "Zoe",
    "Aisha", "Bruno", "Chloe", "Diego", "Elif", "Finn", "Giulia", "Hannah", "Ivan", "Julia", "Kenji", "Laura", "Marco",
    "Nina", "Oscar", "Priya", "Rahul", "Sofia", "Tom", "Valentina", "Wei", "Yara", "Lena", "Mateo", "Sarah", "James",
    "Michael", "Jennifer", "Robert", "Linda", "Daniel", "Emily", "Chris", "Jessica",
];
#[rustfmt::skip]
const LAST: &[&str] = &[
    "Smith", "Müller", "Rossi", "Garcia", "Johnson", "Schmidt", "Dubois", "Kowalski", "Nielsen", "Jansen", "Brown",
    "Fischer", "Martin", "Lopez", "Wilson", "Weber", "Bernard", "Novak", "Larsen", "Peeters", "Taylor", "Wagner",
    "Moreau", "Silva", "Anderson", "Becker", "Laurent", "Horvat", "Berg", "Visser", "Thomas", "Hoffmann", "Ricci",
    "Santos", "Clark", "Schulz", "Petit", "Nowak", "Eriksson", "de Vries", "Patel", "Kim", "Nguyen", "Chen", "Okafor",
];
#[rustfmt::skip]
const COMPANIES: &[(&str, &str)] = &[
    ("Northwind Logistics", "northwind.com"), ("Brightpath Health", "brightpath.health"), ("Kestrel Retail", "kestrel.shop"),
    ("Bluefin Insurance", "bluefin-ins.com"), ("Orbital Media", "orbitalmedia.io"), ("Harbor Bank", "harborbank.com"),
    ("Greenleaf Foods", "greenleaf.eu"), ("Vantage Telecom", "vantagetel.net"), ("Alder Manufacturing", "alder-mfg.de"),
    ("Copperline Energy", "copperline.energy"), ("Tidewater Travel", "tidewater.travel"), ("Summit SaaS", "summitsaas.com"),
    ("Lumen Education", "lumen.edu"), ("Redwood Pharma", "redwoodpharma.com"), ("Quartz Analytics", "quartz.ai"),
    ("Falcon Freight", "falconfreight.com"), ("Mosaic Fashion", "mosaic.fashion"), ("Pinecrest Realty", "pinecrest.realty"),
    ("Atlas Automotive", "atlas-auto.com"), ("Beacon Nonprofit", "beacon.org"), ("Cobalt Games", "cobaltgames.gg"),
    ("Driftwood Hotels", "driftwoodhotels.com"), ("Evergreen Utilities", "evergreen-util.com"), ("Nimbus Cloud", "nimbus.cloud"),
    ("Sable Security", "sablesec.io"), ("Juniper Labs", "juniperlabs.co"), ("Meridian Consulting", "meridian.consulting"),
    ("Oakridge University", "oakridge.ac.uk"), ("Polar Outdoor", "polaroutdoor.com"), ("Ridgeway Construction", "ridgeway.build"),
];
const FREEMAIL: &[&str] = &["gmail.com", "outlook.com", "yahoo.com", "gmx.de", "icloud.com"];
#[rustfmt::skip]
const TITLES: &[&str] = &[
    "Data Analyst", "Head of Marketing", "CTO", "BI Developer", "Marketing Manager", "VP Sales", "Data Engineer",
    "Product Manager", "CEO", "Operations Lead", "Growth Marketer", "Analytics Engineer", "IT Manager", "CFO",
    "Consultant", "Student",
];
#[rustfmt::skip]
const COUNTRIES: &[&str] = &[
    "United States", "Germany", "United Kingdom", "France", "Netherlands", "Spain", "Italy", "Canada", "Poland",
    "Sweden", "Brazil", "India", "Australia", "Denmark", "Belgium",
];
const SIZES: &[&str] = &["1-10", "11-50", "51-200", "201-1000", "1000+"];
const INTERESTS: &[&str] = &["Dashboards", "Data pipelines", "Embedded analytics", "Pricing", "Partnership"];
#[rustfmt::skip]
const POSTS: &[&str] = &[
    "why-your-dashboards-lie", "cohort-analysis-101", "the-metrics-layer-explained", "dbt-vs-stored-procedures",
    "how-we-cut-query-costs-by-60", "funnel-analysis-done-right", "a-b-testing-pitfalls", "data-contracts-in-practice",
    "self-serve-analytics-myths", "retention-curves", "building-a-kpi-tree", "event-tracking-plan-template",
    "attribution-models-compared", "sql-window-functions-guide", "churn-prediction-without-ml", "north-star-metric",
    "reverse-etl-use-cases", "data-team-org-charts", "semantic-layer-faq", "real-time-dashboards-cost",
    "gdpr-and-product-analytics", "marketing-mix-modeling-intro", "customer-360-in-a-week", "anomaly-detection-basics",
];
const UTMS: &[&str] = &[
    "?utm_source=linkedin&utm_medium=social&utm_campaign=blog",
    "?utm_source=newsletter&utm_medium=email&utm_campaign=weekly",
    "?utm_source=twitter&utm_medium=social",
    "?utm_source=hackernews",
];
#[rustfmt::skip]
const ASKS: &[&str] = &[
    "We are evaluating analytics platforms for our {} team and would like to understand your enterprise pricing.",
    "Can your product connect to our Snowflake warehouse? We have about {} users who would need access.",
    "Our trial expired before we could finish the POC. Could someone from sales extend it for the {} team?",
    "Do you offer a discount for non-profits? We are a small {} organisation.",
    "We need SSO and audit logs for the {} department. Is this part of the business plan?",
    "Is there an on-premise option? Our {} team cannot send data to a US cloud.",
    "I'd like to talk about a partnership, we resell BI tools to {} companies.",
    "Our invoices are going to the wrong address, please update the billing contact for the {} account.",
    "Could you send me the security questionnaire and the DPA? Procurement for {} needs them.",
    "We want to embed your dashboards into our customer portal for {} customers, who can we talk to?",
];
#[rustfmt::skip]
const QUESTIONS: &[&str] = &[
    "How do I share a dashboard with external users?", "Can we schedule exports to S3?",
    "What is the best way to model slowly changing dimensions?", "Is row-level security on the roadmap?",
    "How do alerts handle timezones?",
];
const SPAM: &[&str] = &[
    "Hello, I noticed your website is not ranking on Google for important keywords. We offer SEO packages from $99.",
    "Get 10,000 real visitors to your site today! Reply for our price list.",
    "We build high quality backlinks for your domain. Guaranteed results within 30 days.",
];

/// A person who submits forms.
struct Person {
    first: String,
    last: String,
    email: String,
    company: String,
    title: &'static str,
    country: &'static str,
    phone: String,
    size: &'static str,
    /// The contact the person's submissions point at now (merges move them all to the winner).
    lead: i64,
    ip: i64,
    device: String,
    /// Mautic's scripts run in the browser (mtc cookie, form JS); else a blocker drops them.
    js: bool,
    deleted: bool,
    bot: bool,
}

/// Where a row's lead_id comes from: the person's contact as it ends up, or a contact of its own.
#[derive(Clone, Copy, PartialEq)]
enum Lead {
    Main,
    Own(i64),
}

#[derive(Clone)]
struct Sub {
    /// When the request started (date_submitted) and when its insert ran (id order).
    at: i64,
    ins: i64,
    form: usize,
    who: usize,
    ip: i64,
    page: Option<i64>,
    tracking: String,
    /// The device id was minted by this request (no cookie).
    minted: bool,
    referer: String,
    results: Vec<String>,
    lead: Lead,
    mark: Mark,
    grp: usize,
    gone: bool,
}

struct World {
    r: Rng,
    people: Vec<Person>,
    next_lead: i64,
    next_ip: i64,
    subs: Vec<Sub>,
    late: usize,
    emails: HashSet<String>,
}

impl World {
    fn lead(&mut self) -> i64 {
        self.next_lead += self.r.range(1, 40);
        self.next_lead
    }

    fn ip(&mut self) -> i64 {
        self.next_ip += self.r.range(1, 25);
        self.next_ip
    }

    fn device(&mut self) -> String {
        const CH: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
        (0..23).map(|_| CH[self.r.below(CH.len() as u64) as usize] as char).collect()
    }

    fn person(&mut self) -> usize {
        let r = &mut self.r;
        let first = r.pick(FIRST).to_string();
        let last = r.pick(LAST).to_string();
        let (company, domain) = *r.pick(COMPANIES);
        let local = format!("{}.{}", first.to_lowercase(), last.to_lowercase().replace(' ', "").replace('ü', "ue"));
        let mut email = if r.chance(0.7) {
            format!("{local}@{domain}")
        } else {
            format!("{local}{}@{}", r.range(1, 99), r.pick(FREEMAIL))
        };
        while self.emails.contains(&email) {
            let n = self.r.range(2, 999);
            email = email.replacen('@', &n.to_string(), 1);
        }
        self.emails.insert(email.clone());
        let r = &mut self.r;
        let phone = if r.chance(0.5) {
            format!("+{} {} {}", r.one(&[1, 44, 49, 33, 31]), r.range(100, 999), r.range(100_000, 9_999_999))
        } else {
            String::new()
        };
        let p = Person {
            first,
            last,
            email,
            company: company.to_string(),
            title: r.one(TITLES),
            country: r.one(COUNTRIES),
            phone,
            size: r.one(SIZES),
            lead: 0,
            ip: 0,
            device: String::new(),
            js: r.chance(0.9),
            deleted: false,
            bot: false,
        };
        self.people.push(p);
        let k = self.people.len() - 1;
        self.people[k].lead = self.lead();
        self.people[k].ip = self.ip();
        self.people[k].device = self.device();
        k
    }

    /// Someone already known, or a new visitor.
    fn someone(&mut self, known: f64) -> usize {
        if !self.people.is_empty() && self.r.chance(known) {
            let n = self.people.len() as u64;
            for _ in 0..8 {
                let k = (n - 1 - self.r.skewed(n)) as usize;
                if !self.people[k].bot {
                    return k;
                }
            }
        }
        self.person()
    }

    fn results(&mut self, form: usize, who: usize) -> Vec<String> {
        let p = &self.people[who];
        let r = &mut self.r;
        let v = |s: &str| s.to_string();
        match form {
            NEWS => vec![p.email.clone(), if r.chance(0.7) { p.first.clone() } else { String::new() }],
            CONTACT => {
                let ask = r.pick(ASKS).replace("{}", &r.range(5, 400).to_string());
                vec![p.first.clone(), p.last.clone(), p.email.clone(), p.company.clone(), p.phone.clone(), ask]
            }
            EBOOK => vec![p.first.clone(), p.email.clone(), p.company.clone(), v(p.title), v(p.country)],
            DEMO => vec![
                p.first.clone(),
                p.last.clone(),
                p.email.clone(),
                p.company.clone(),
                v(p.size),
                v(p.country),
                p.phone.clone(),
            ],
            OFFICE => {
                let q = if r.chance(0.2) { v(r.one(QUESTIONS)) } else { String::new() };
                vec![p.first.clone(), p.last.clone(), p.email.clone(), p.company.clone(), q]
            }
            _ => vec![
                p.email.clone(),
                p.first.clone(),
                p.last.clone(),
                p.company.clone(),
                v(p.title),
                v(r.one(INTERESTS)),
            ],
        }
    }

    /// The page (landing page id) and the URL a browser submit comes from.
    fn origin(&mut self, form: usize) -> (Option<i64>, String) {
        let r = &mut self.r;
        match form {
            NEWS => {
                let base = if r.chance(0.3) {
                    "https://acmeanalytics.io/newsletter".to_string()
                } else {
                    format!("https://acmeanalytics.io/blog/{}", r.pick(POSTS))
                };
                let utm = if r.chance(0.4) { *r.pick(UTMS) } else { "" };
                (None, format!("{base}{utm}"))
            }
            CONTACT => {
                let q = r.one(&["", "", "", "?topic=sales", "?topic=support", "?plan=enterprise"]);
                (None, format!("https://acmeanalytics.io/contact{q}"))
            }
            EBOOK | DEMO => {
                let (page, slug, camp) =
                    if form == EBOOK { (7, "state-of-analytics-2026", "soa26") } else { (4, "request-demo", "demo") };
                let q = match r.below(10) {
                    0..=3 => format!("?utm_source=google&utm_medium=cpc&utm_campaign={camp}&gclid={}", r.alnum(40)),
                    4 | 5 => format!("?utm_source=linkedin&utm_medium=paid&utm_campaign={camp}"),
                    6 | 7 => "?utm_source=mautic&utm_medium=email&utm_campaign=nurture".to_string(),
                    _ => String::new(),
                };
                (Some(page), format!("https://go.acmeanalytics.io/{slug}{q}"))
            }
            _ => (Some(9), "https://go.acmeanalytics.io/booth-cdx26".to_string()),
        }
    }

    /// One browser submit (the form JS or a plain post) and the extra posts that follow it.
    fn browse(&mut self, at: i64, form: usize, who: usize, origin: (Option<i64>, String), results: Vec<String>) {
        let js = self.people[who].js;
        let sub = self.post(at, form, who, origin.clone(), results.clone(), js);
        let grp = sub;
        let force = self.late < LATE.len() && at >= LATE[self.late] && form != BOOTH;
        self.late += usize::from(force);
        let slow = INCIDENTS.iter().any(|w| at >= w.0 && at < w.1) && form != NEWS || self.r.chance(0.003);
        if !js && (self.r.chance(0.1) || force && self.r.chance(0.5)) {
            // A plain HTML form clicked twice: two posts, no cookie, each its own contact and device.
            let t = at + self.r.range(20_000, 200_000);
            let before = self.people[who].lead;
            let k = self.post(t, form, who, origin, results, false);
            self.subs[k].grp = grp;
            self.subs[k].mark = Mark::Retry;
            if self.r.chance(0.45) {
                // Both lookups ran before either email was saved: two contacts, no merge.
                self.subs[k].lead = Lead::Own(self.people[who].lead);
                self.people[who].lead = before;
            }
        } else if js && (self.r.chance(0.005) || force && self.r.chance(0.3)) {
            // Enter pressed again in a field: the JS submits the form again.
            let t = at + self.r.range(150_000, 700_000);
            let k = self.post(t, form, who, origin, results, true);
            self.subs[k].grp = grp;
            self.subs[k].mark = Mark::Retry;
        } else if (slow && self.r.chance(0.35)) || force {
            // The actions hang; the visitor reloads and sends again (once more, sometimes).
            let mut t = at;
            for n in 0..2 {
                if n == 1 && !self.r.chance(0.2) {
                    break;
                }
                t += self.r.range(20, 90) * SECOND + self.r.range(0, 999_999);
                let mut res = results.clone();
                if form == CONTACT && self.r.chance(0.4) {
                    res[5] = self.results(CONTACT, who)[5].clone();
                }
                if form == DEMO && res[6].is_empty() && self.r.chance(0.15) {
                    res[6] = format!("+1 {} {}", self.r.range(200, 999), self.r.range(1_000_000, 9_999_999));
                }
                let k = self.post(t, form, who, origin.clone(), res, js);
                self.subs[k].grp = grp;
                self.subs[k].mark = Mark::Retry;
            }
        }
    }

    /// One POST that passes validation: the row as `saveSubmission` inserts it.
    fn post(
        &mut self,
        at: i64,
        form: usize,
        who: usize,
        origin: (Option<i64>, String),
        results: Vec<String>,
        cookie: bool,
    ) -> usize {
        let (tracking, minted) = if cookie {
            (self.people[who].device.clone(), false)
        } else {
            // A new anonymous contact wins the merge with the known one.
            let l = self.lead();
            self.people[who].lead = l;
            (self.device(), true)
        };
        let ins = at + self.r.range(40_000, 400_000);
        self.subs.push(Sub {
            at,
            ins,
            form,
            who,
            ip: self.people[who].ip,
            page: origin.0,
            tracking,
            minted,
            referer: origin.1,
            results,
            lead: Lead::Main,
            mark: Mark::Plain,
            grp: self.subs.len(),
            gone: false,
        });
        self.subs.len() - 1
    }

    fn when(&mut self, day: i64) -> i64 {
        let h = self.r.weighted(&RHYTHM) as i64;
        START + day * DAY + h * HOUR + self.r.range(0, 3_599) * SECOND + self.r.range(0, 999_999)
    }

    /// Sometimes a person's IP has changed since last time.
    fn wander(&mut self, who: usize, p: f64) {
        if self.r.chance(p) {
            self.people[who].ip = self.ip();
        }
    }
}

pub fn fixture() -> Fixture {
    let mut w = World {
        r: Rng::new(0x4D_A7_1C),
        people: Vec::new(),
        next_lead: 58_214,
        next_ip: 31_870,
        subs: Vec::new(),
        late: 0,
        emails: HashSet::new(),
    };
    // People who were contacts before the period.
    for _ in 0..250 {
        w.person();
    }
    // Office-hours regulars.
    let regulars: Vec<usize> = (0..22).map(|_| w.someone(0.5)).collect();
    let backend_ip = w.ip();
    let venue_ip = w.ip();
    let ipads = [w.device(), w.device()];
    let spam_ip = w.ip();
    let spammer = w.person();
    w.people[spammer].ip = spam_ip;
    w.people[spammer].js = false;
    w.people[spammer].bot = true;

    for day in 0..DAYS {
        let wd = weekday(START + day * DAY);
        let week = if wd >= 5 { 0.4 } else { 1.0 };
        let rates = [20.0, 5.0, 11.0, 3.5];
        for (form, &rate) in rates.iter().enumerate() {
            for _ in 0..w.r.poisson(rate * week) {
                let at = w.when(day);
                let known = [0.1, 0.3, 0.25, 0.35][form];
                let who = w.someone(known);
                w.wander(who, 0.15);
                let origin = w.origin(form);
                let res = w.results(form, who);
                w.browse(at, form, who, origin.clone(), res.clone());
                // The same intent sent again on purpose.
                let again = match form {
                    NEWS => w.r.chance(0.025).then(|| w.r.range(1, 20) * DAY),
                    CONTACT => w.r.chance(0.04).then(|| w.r.range(2, 6) * DAY),
                    EBOOK => {
                        if w.r.chance(0.06) {
                            Some(w.r.range(60, 600) * SECOND)
                        } else {
                            w.r.chance(0.04).then(|| w.r.range(1, 15) * DAY)
                        }
                    }
                    _ => w.r.chance(0.06).then(|| w.r.range(1, 4) * DAY + w.r.range(0, 8) * HOUR),
                };
                if let Some(d) = again
                    && at + d < NOW - MINUTE
                {
                    if d > HOUR {
                        w.wander(who, 0.25);
                    }
                    let t = at + d + w.r.range(0, 999_999);
                    w.browse(t, form, who, origin, res);
                }
            }
        }
        // Contact-form spam: unique junk, and one bot repeating itself from the same address.
        for _ in 0..w.r.poisson(1.5) {
            let at = w.when(day);
            let who = w.person();
            w.people[who].js = false;
            w.people[who].bot = true;
            w.people[who].ip = w.ip();
            let mut res = w.results(CONTACT, who);
            res[5] = format!("{} {}", w.r.pick(SPAM), w.r.alnum(6));
            let k = w.post(at, CONTACT, who, (None, String::new()), res, false);
            w.subs[k].gone = w.r.chance(0.5);
        }
        if day % 2 == 1 {
            let at = w.when(day);
            let p = &w.people[spammer];
            let res = vec![
                p.first.clone(),
                p.last.clone(),
                p.email.clone(),
                "Rank Boost Agency".to_string(),
                String::new(),
                SPAM[0].to_string(),
            ];
            w.post(at, CONTACT, spammer, (None, "https://acmeanalytics.io/contact".to_string()), res, false);
        }
    }

    // Office hours (Thursdays 16:00 UTC): the website's backend posts each registration, 10 s timeout, two retries.
    for week in 0..6 {
        let session = START + (3 + 7 * week) * DAY + 16 * HOUR;
        let mut regs: Vec<(i64, usize)> = Vec::new();
        for &p in &regulars {
            if w.r.chance(0.55) {
                regs.push((session - w.r.range(2 * HOUR, 6 * DAY) / SECOND * SECOND, p));
            }
        }
        for _ in 0..w.r.poisson(12.0) {
            let p = w.someone(0.3);
            regs.push((session - w.r.range(HOUR, 7 * DAY) / SECOND * SECOND, p));
        }
        regs.sort();
        for (at, who) in regs {
            let at = at + w.r.range(0, 999_999);
            if !(START..NOW - MINUTE).contains(&at) {
                continue;
            }
            let res = w.results(OFFICE, who);
            let ip = std::mem::replace(&mut w.people[who].ip, backend_ip);
            let slow = INCIDENTS.iter().any(|x| at >= x.0 && at < x.1) || w.r.chance(0.03);
            let grp = w.post(at, OFFICE, who, (None, String::new()), res.clone(), false);
            if slow {
                let mut t = at;
                for (n, back) in [1, 2].into_iter().enumerate() {
                    if n == 1 && !w.r.chance(0.5) {
                        break;
                    }
                    t += 10 * SECOND + back * SECOND + w.r.range(0, 300_000);
                    let k = w.post(t, OFFICE, who, (None, String::new()), res.clone(), false);
                    w.subs[k].grp = grp;
                    w.subs[k].mark = Mark::Retry;
                }
            }
            if w.r.chance(0.05) {
                // The confirmation mail is slow: registered again a few minutes later.
                let t = at + w.r.range(3, 40) * MINUTE;
                if t < NOW - MINUTE {
                    w.post(t, OFFICE, who, (None, String::new()), res, false);
                }
            }
            w.people[who].ip = ip;
        }
    }

    // The booth: two iPads in kiosk mode; badges scanned into the form.
    for d in 0..2 {
        for _ in 0..w.r.poisson(110.0) {
            let at = SHOW + d * DAY + 8 * HOUR + w.r.range(0, 8 * 3600 - 1) * SECOND + w.r.range(0, 999_999);
            let who = w.someone(0.15);
            let pad = w.r.below(2) as usize;
            let res = w.results(BOOTH, who);
            let kiosk = |w: &mut World, t: i64, res: Vec<String>| {
                let k = w.post(t, BOOTH, who, (Some(9), "https://go.acmeanalytics.io/booth-cdx26".into()), res, true);
                (w.subs[k].ip, w.subs[k].tracking) = (venue_ip, ipads[pad].clone());
                k
            };
            let grp = kiosk(&mut w, at, res.clone());
            let flaky = d == 0 && at > SHOW + 12 * HOUR;
            if w.r.chance(if flaky { 0.08 } else { 0.01 }) {
                let mut again = res.clone();
                if w.r.chance(0.25) {
                    again[5] = w.r.pick(INTERESTS).to_string();
                }
                let t = at + w.r.range(15, 60) * SECOND + w.r.range(0, 999_999);
                let k = kiosk(&mut w, t, again);
                w.subs[k].grp = grp;
                w.subs[k].mark = Mark::Retry;
            }
            if w.r.chance(0.08) {
                // The visitor comes back to the booth.
                let t = at + w.r.range(5 * 60, 20 * 3600) * SECOND;
                kiosk(&mut w, t, res);
            }
        }
    }

    // Later: sales delete some duplicates, admins the spam, a few contacts are deleted.
    let n = w.subs.len();
    for k in 0..n {
        if w.subs[k].mark == Mark::Retry && w.subs[k].ins + 3 * DAY < NOW {
            if w.r.chance(0.12) {
                w.subs[k].gone = true;
            } else if w.r.chance(0.04) {
                let g = w.subs[k].grp;
                w.subs[g].gone = true;
            }
        }
    }
    for p in 0..w.people.len() {
        if p != spammer && w.r.chance(0.015) {
            w.people[p].deleted = true;
        }
    }

    // Ids in insert order (a few burned by actions that rejected the submit and deleted it).
    let mut order: Vec<usize> = (0..n).filter(|&k| w.subs[k].ins < NOW).collect();
    order.sort_by_key(|&k| (w.subs[k].ins, k));
    let mut ids = vec![0i64; n];
    let mut id = 0;
    for &k in &order {
        id += 1 + i64::from(w.r.chance(0.01));
        ids[k] = id;
    }

    let mut f = Fixture::new(
        "form_submissions",
        &["id", "form_id", "ip_id", "lead_id", "page_id", "tracking_id", "date_submitted", "referer"],
    );
    let mut kids: Vec<Child> = FORMS
        .iter()
        .map(|form| {
            let mut cols = vec!["submission_id", "form_id"];
            cols.extend_from_slice(form.fields);
            Child::new(form.table, &cols)
        })
        .collect();
    let mut first_of: HashMap<usize, usize> = HashMap::new();
    type Key = (usize, Option<i64>, i64, Option<i64>, String, String, Vec<String>);
    let mut seen: HashSet<Key> = HashSet::new();
    for &k in &order {
        let s = &w.subs[k];
        if s.gone {
            continue;
        }
        let p = &w.people[s.who];
        let lead = match s.lead {
            Lead::Main if p.deleted => None,
            Lead::Main => Some(p.lead),
            Lead::Own(l) => Some(l),
        };
        let key: Key = (
            s.form,
            lead,
            s.ip,
            s.page,
            if s.minted { String::new() } else { s.tracking.clone() },
            s.referer.clone(),
            s.results.clone(),
        );
        let mut hidden = false;
        let mark = match first_of.get(&s.grp) {
            Some(&o) if s.mark == Mark::Retry => {
                hidden = w.subs[o].results != s.results;
                Mark::Retry
            }
            _ => {
                if seen.contains(&key) {
                    Mark::Legit
                } else {
                    Mark::Plain
                }
            }
        };
        first_of.entry(s.grp).or_insert(k);
        seen.insert(key);
        let sid = ids[k];
        f.push(&[
            ("id", V::I(sid)),
            ("form_id", V::I(FORMS[s.form].id)),
            ("ip_id", V::I(s.ip)),
            ("lead_id", V::opt_i(lead)),
            ("page_id", V::opt_i(s.page)),
            ("tracking_id", V::t(&s.tracking)),
            ("date_submitted", V::AtSecs(secs(s.at))),
            ("referer", V::t(&s.referer)),
        ]);
        f.mark(sid, mark);
        if hidden {
            f.hidden.insert(sid.to_string());
        }
        let mut vals: Vec<(&str, V)> = vec![("submission_id", V::I(sid)), ("form_id", V::I(FORMS[s.form].id))];
        for (c, v) in FORMS[s.form].fields.iter().zip(&s.results) {
            vals.push((c, V::t(v)));
        }
        kids[s.form].push(&vals);
    }
    f.children = kids;
    f
}
