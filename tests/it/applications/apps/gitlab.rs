//! GitLab (Ruby on Rails, ActiveRecord, PostgreSQL): `issues`, as `Issues::CreateService` writes it (web form,
//! REST `POST /projects/:id/issues`, Service Desk emails, CSV import, checklist items turned into tasks).
//! Read: gitlabhq/gitlabhq db/structure.sql (the `issues` table and its indexes), gitlabhq/gitlabhq
//! app/services/issues/create_service.rb (the create path, `Issues::PlacementWorker` after commit,
//! `assign_description_from_template`), gitlabhq/gitlabhq app/models/issue.rb (`has_internal_id :iid`,
//! `closed_at`/`closed_by` on the state machine, `RelativePositioning`).
//! On a create the row gets a fresh `id` (sequence), the project's next `iid` (InternalId, unique per namespace and
//! per project), `created_at` = `updated_at` (microseconds), `title_html`/`description_html` rendered by Banzai with
//! the instance's `cached_markdown_version`, `namespace_id` = the project's namespace, `state_id` 1, `lock_version`
//! 0; `relative_position` is NULL at insert and set a moment later by `Issues::PlacementWorker` (the end of the
//! project's list, 513 apart). A blank description takes the project's default template. A retried create runs all
//! of that again. Later the app closes issues (`state_id` 2, `closed_at` timestamptz, `closed_by_id`), `/duplicate`
//! closes one and sets `duplicated_to_id`, edits set `last_edited_*`, every save bumps `lock_version` and
//! `updated_at`, award emoji count into `upvotes_count`, board moves change `relative_position`.
//! Retries (~2 %): web double submits 5-100 ms apart; API scripts whose 60 s gateway timeout they see as a failure
//! and retry 10-60 s later, some again after 20-120 s; Sidekiq re-running a Service Desk email 15-40 s later; a few
//! in the last days. Maintainers close about half of them as duplicates of the original hours later.
//! Legitimate repeats: CSV imports of onboarding checklists with one identical row per new hire (80-350 ms apart,
//! one author); checklist items with the same text turned into tasks one after another (10-90 s apart); a
//! monitoring job opening the same "Health check failed" issue every 5 minutes while staging is down, closed in
//! bulk afterwards. Also independent reports of the same title by other people, later closed as duplicates.
use std::collections::BTreeMap;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Postgres];

pub fn ddl(engine: Engine) -> String {
    match engine {
        Engine::Postgres => DDL.to_string(),
        _ => unreachable!("GitLab runs on PostgreSQL only"),
    }
}

const DDL: &str = "
CREATE TABLE issues (
    id bigint NOT NULL, title character varying, author_id bigint, project_id bigint,
    created_at timestamp without time zone, updated_at timestamp without time zone, description text,
    milestone_id bigint, iid integer, updated_by_id bigint, weight integer, confidential boolean DEFAULT false NOT NULL,
    due_date date, moved_to_id bigint, lock_version integer DEFAULT 0, title_html text, description_html text,
    time_estimate integer DEFAULT 0, relative_position integer, service_desk_reply_to character varying,
    cached_markdown_version integer, last_edited_at timestamp without time zone, last_edited_by_id bigint,
    discussion_locked boolean, closed_at timestamp with time zone, closed_by_id bigint,
    state_id smallint DEFAULT 1 NOT NULL, duplicated_to_id bigint, promoted_to_epic_id bigint, health_status smallint,
    external_key character varying(255), sprint_id bigint, blocking_issues_count integer DEFAULT 0 NOT NULL,
    upvotes_count integer DEFAULT 0 NOT NULL, work_item_type_id bigint, namespace_id bigint, start_date date,
    imported_from smallint DEFAULT 0 NOT NULL, correct_work_item_type_id bigint NOT NULL,
    author_id_convert_to_bigint bigint, closed_by_id_convert_to_bigint bigint,
    duplicated_to_id_convert_to_bigint bigint, id_convert_to_bigint bigint DEFAULT 0 NOT NULL,
    last_edited_by_id_convert_to_bigint bigint, milestone_id_convert_to_bigint bigint,
    moved_to_id_convert_to_bigint bigint, project_id_convert_to_bigint bigint,
    promoted_to_epic_id_convert_to_bigint bigint, updated_by_id_convert_to_bigint bigint,
    CONSTRAINT check_2addf801cd CHECK ((work_item_type_id IS NOT NULL)),
    CONSTRAINT check_c33362cd43 CHECK ((namespace_id IS NOT NULL)),
    CONSTRAINT check_fba63f706d CHECK ((lock_version IS NOT NULL))
);
CREATE SEQUENCE issues_id_seq START WITH 1 INCREMENT BY 1 NO MINVALUE NO MAXVALUE CACHE 1;
ALTER SEQUENCE issues_id_seq OWNED BY issues.id;
ALTER TABLE ONLY issues ALTER COLUMN id SET DEFAULT nextval('issues_id_seq'::regclass);
ALTER TABLE ONLY issues ADD CONSTRAINT issues_pkey PRIMARY KEY (id);
CREATE INDEX index_issue_on_project_id_state_id_and_blocking_issues_count ON issues USING btree (project_id, state_id, blocking_issues_count);
CREATE INDEX index_issues_on_author_id ON issues USING btree (author_id);
CREATE INDEX index_issues_on_author_id_and_id_and_created_at ON issues USING btree (author_id, id, created_at);
CREATE INDEX index_issues_on_closed_by_id ON issues USING btree (closed_by_id);
CREATE INDEX index_issues_on_confidential ON issues USING btree (confidential);
CREATE INDEX index_issues_on_duplicated_to_id ON issues USING btree (duplicated_to_id) WHERE (duplicated_to_id IS NOT NULL);
CREATE INDEX index_issues_on_last_edited_by_id ON issues USING btree (last_edited_by_id);
CREATE INDEX index_issues_on_milestone_id_and_id ON issues USING btree (milestone_id, id);
CREATE INDEX index_issues_on_moved_to_id ON issues USING btree (moved_to_id) WHERE (moved_to_id IS NOT NULL);
CREATE UNIQUE INDEX index_issues_on_namespace_id_iid_unique ON issues USING btree (namespace_id, iid);
CREATE UNIQUE INDEX index_issues_on_project_id_and_external_key ON issues USING btree (project_id, external_key) WHERE (external_key IS NOT NULL);
CREATE UNIQUE INDEX index_issues_on_project_id_and_iid ON issues USING btree (project_id, iid);
CREATE INDEX index_issues_on_project_id_and_state_id_and_created_at_and_id ON issues USING btree (project_id, state_id, created_at, id);
CREATE INDEX index_issues_on_project_id_and_upvotes_count ON issues USING btree (project_id, upvotes_count);
CREATE INDEX index_issues_on_project_id_closed_at_desc_state_id_and_id ON issues USING btree (project_id, closed_at DESC NULLS LAST, state_id, id);
CREATE INDEX index_issues_on_updated_at ON issues USING btree (updated_at);
CREATE INDEX index_issues_on_updated_by_id ON issues USING btree (updated_by_id) WHERE (updated_by_id IS NOT NULL);
CREATE INDEX index_issues_on_work_item_type_id_project_id_created_at_state ON issues USING btree (work_item_type_id, project_id, created_at, state_id);
ALTER TABLE ONLY issues ADD CONSTRAINT fk_issues_duplicated_to_id FOREIGN KEY (duplicated_to_id) REFERENCES issues(id) ON DELETE SET NULL;
ALTER TABLE ONLY issues ADD CONSTRAINT fk_issues_moved_to_id FOREIGN KEY (moved_to_id) REFERENCES issues(id) ON DELETE SET NULL;";

/// The columns the fixture writes (the `*_convert_to_bigint` ones keep their defaults).
const COLUMNS: &str = "id title author_id project_id created_at updated_at description milestone_id iid updated_by_id weight \
    confidential due_date lock_version title_html description_html time_estimate relative_position \
    service_desk_reply_to cached_markdown_version last_edited_at last_edited_by_id closed_at closed_by_id \
    state_id duplicated_to_id health_status blocking_issues_count upvotes_count work_item_type_id \
    namespace_id imported_from correct_work_item_type_id";

/// Where the history ends: the table as it is now.
const NOW: i64 = T0 + 28 * DAY;
const ALERT_BOT: i64 = 3;
const SUPPORT_BOT: i64 = 4;
const MARKDOWN_VERSION: i64 = 34 << 16;
const TEMPLATE: &str = "## Summary\n\n(Summarize the problem concisely)\n\n## Steps to reproduce\n\n(How one can reproduce the issue)\n\n## What is the expected behavior?\n\n(What you should see instead)";
/// Rows of the onboarding CSVs, one per line of the file.
const ONBOARDING: &str = "Set up laptop and SSO|Request VPN access|Read the engineering handbook|\
    Pair with your onboarding buddy|Get access to the staging cluster|Complete security training";
const CHECKLIST: &[&str] =
    &["Add tests", "Update documentation", "Add changelog entry", "Update the API docs", "Add a feature flag"];

#[derive(Clone, Default)]
struct Issue {
    uid: usize,
    at: i64,
    project: i64,
    author: i64,
    title: String,
    desc: Option<String>,
    kind: i64,
    confidential: bool,
    reply_to: Option<String>,
    milestone: Option<i64>,
    weight: Option<i64>,
    due: Option<i64>,
    mark: Mark,
    /// A retry's original (uid).
    of: Option<usize>,
    /// Closed in bulk at a time the generator fixed (closed_at, closed_by); no other activity.
    bulk_closed: Option<(i64, i64)>,
    /// An independent report, later closed as a duplicate of this uid.
    dup_of: Option<usize>,
}

fn base(at: i64, project: i64, author: i64, title: String, desc: Option<String>) -> Issue {
    Issue { at, project, author, title, desc, kind: 1, ..Issue::default() }
}

fn push(v: &mut Vec<Issue>, mut i: Issue) -> usize {
    i.uid = v.len();
    v.push(i);
    v.len() - 1
}

/// The description as saved: a blank one takes the project's default template, where it has one.
fn described(project: i64, given: Option<String>) -> Option<String> {
    given.or_else(|| (project % 4 == 0).then(|| TEMPLATE.to_string()))
}

fn title(r: &mut Rng) -> String {
    const LEAD: &str = "Fix Add Investigate Remove Update Improve Support Refactor Flaky Broken Allow Document";
    let n = 2 + r.below(4) as usize;
    let words: Vec<&str> = (0..n).map(|_| *r.pick(WORDS)).collect();
    format!("{} {}", r.pick(&LEAD.split(' ').collect::<Vec<_>>()), words.join(" "))
}

fn body(r: &mut Rng) -> String {
    let n = 6 + r.below(12) as usize;
    let mut text = sentence(r, n);
    if r.chance(0.4) {
        let m = 4 + r.below(8) as usize;
        text = format!("{text}\n\n{}", sentence(r, m));
    }
    text
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// Banzai's rendering of plain paragraphs and `##` headings, with source positions.
fn render(text: &str) -> String {
    let mut out = Vec::new();
    let mut line = 1;
    for para in text.split("\n\n") {
        let len = para.chars().count();
        if let Some(h) = para.strip_prefix("## ") {
            let anchor = h.to_lowercase().replace(|c: char| !c.is_ascii_alphanumeric(), "-");
            out.push(format!(
                "<h2 data-sourcepos=\"{line}:1-{line}:{len}\" dir=\"auto\">\n<a href=\"#{anchor}\" aria-hidden=\"true\" class=\"anchor\" id=\"user-content-{anchor}\"></a>{}</h2>",
                escape(h)
            ));
        } else {
            out.push(format!("<p data-sourcepos=\"{line}:1-{line}:{len}\" dir=\"auto\">{}</p>", escape(para)));
        }
        line += 2;
    }
    out.join("\n")
}

fn date(us: i64) -> String {
    chrono::DateTime::from_timestamp_micros(us).unwrap().format("%Y-%m-%d").to_string()
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(5_170);
    let mut v: Vec<Issue> = Vec::new();
    let mut late_left = 3;
    let mut t = T0;
    while t < NOW - HOUR {
        let weekday = (3 + (t - T0) / DAY) % 7;
        let gap = r.range(30, 1_500) * SECOND + r.below(1_000_000) as i64;
        t += if weekday >= 5 { gap * 5 / 2 } else { gap };
        let x = r.below(1_000);
        if x < 6 {
            // A CSV import: onboarding checklists for two or three new hires (rows identical across hires, the CSV
            // has no assignee column), or a backlog of distinct rows. One Sidekiq job, row after row.
            let project = 1 + r.skewed(40) as i64;
            let author = 10 + r.skewed(160) as i64;
            let rows: Vec<(String, Option<String>)> = if r.chance(0.5) {
                let first = r.below(3) as usize;
                let all: Vec<&str> = ONBOARDING.split('|').collect();
                let tasks = &all[first..first + 3 + r.below(2) as usize];
                let hires = 2 + r.below(2);
                (0..hires).flat_map(|_| tasks.iter().map(|s| (s.to_string(), None))).collect()
            } else {
                (0..3 + r.below(6)).map(|_| (title(&mut r), r.chance(0.6).then(|| body(&mut r)))).collect()
            };
            let mut at = t;
            let mut seen: Vec<String> = Vec::new();
            for (name, desc) in rows {
                let mut i = base(at, project, author, name.clone(), described(project, desc));
                i.mark = if seen.contains(&name) { Mark::Legit } else { Mark::Plain };
                seen.push(name);
                push(&mut v, i);
                at += r.range(80_000, 350_000);
            }
        } else if x < 10 {
            // The monitoring job of a project: every 5 minutes while staging is down, the same issue; the on-call
            // engineer closes them all with a bulk update afterwards.
            let project = *r.pick(&[5, 9]);
            let bot = 90_000 + project;
            let n = 3 + r.below(6) as i64;
            let closer = 10 + r.below(8) as i64;
            let mut close = t + n * 5 * MINUTE + r.range(20, 360) * MINUTE;
            for k in 0..n {
                let at = t + k * 5 * MINUTE + r.range(1_000_000, 20_000_000);
                let desc = "The scheduled health check against https://staging.example.com/-/readiness returned 503.\n\nThis issue was opened automatically by the monitoring job.";
                let mut i = base(at, project, bot, "Health check failed: staging".into(), Some(desc.into()));
                i.mark = if k > 0 { Mark::Legit } else { Mark::Plain };
                i.bulk_closed = (close < NOW).then_some((close, closer));
                close += r.range(20_000, 60_000);
                push(&mut v, i);
            }
        } else if x < 25 {
            // Checklist items of an issue turned into tasks, one click after another; identical items give
            // identical tasks.
            let project = 1 + r.skewed(40) as i64;
            let author = 10 + r.skewed(160) as i64;
            let n = 2 + r.below(3);
            let mut at = t;
            let mut seen: Vec<&str> = Vec::new();
            for k in 0..n {
                let name = if k == 1 && r.chance(0.45) { seen[0] } else { *r.pick(CHECKLIST) };
                let mut i = base(at, project, author, name.to_string(), None);
                i.kind = 5;
                i.mark = if seen.contains(&name) { Mark::Legit } else { Mark::Plain };
                seen.push(name);
                push(&mut v, i);
                at += r.range(10, 90) * SECOND + r.below(1_000_000) as i64;
            }
        } else if x < 45 {
            // An alert opens an incident; the alert's start time is in the description.
            let project = *r.pick(&[1, 2]);
            let alert = *r.pick(&["HighErrorRate", "DiskWillFillIn4Hours", "PodCrashLooping", "LatencyP99High"]);
            let service = *r.pick(&["api", "web", "sidekiq", "gitaly", "registry"]);
            let start = t - r.range(30, 300) * SECOND;
            let desc = format!(
                "**Start time:** {}\n\n**Severity:** critical\n\n**Monitoring tool:** Prometheus",
                chrono::DateTime::from_timestamp_micros(start).unwrap().format("%Y-%m-%dT%H:%M:%SZ")
            );
            let mut i = base(t, project, ALERT_BOT, format!("Incident: {alert} firing on {service}"), Some(desc));
            i.kind = 2;
            push(&mut v, i);
        } else if x < 95 {
            // A Service Desk email: the support bot is the author, the sender gets replies.
            let project = *r.pick(&[3, 3, 7, 12]);
            let who = *r.pick(&["maria", "j.smith", "li.wei", "ahmed", "sofia.r", "tom"]);
            let mut i = base(t, project, SUPPORT_BOT, format!("Re: {} {}", r.pick(WORDS), r.pick(WORDS)), None);
            i.desc = Some(body(&mut r));
            i.confidential = true;
            i.reply_to = Some(format!("{who}{}@{}", r.range(1, 99), r.pick(&["example.com", "mail.example.org"])));
            let u = push(&mut v, i.clone());
            if r.chance(0.03) {
                // The email worker failed after the issue was saved; Sidekiq re-ran it.
                let at = t + r.range(15_000, 40_000) * 1_000 + r.below(1_000) as i64;
                push(&mut v, Issue { at, mark: Mark::Retry, of: Some(u), ..i });
            }
        } else {
            let project = 1 + r.skewed(40) as i64;
            let author = 10 + r.skewed(160) as i64;
            let api = r.chance(0.35);
            let given = (!r.chance(0.22)).then(|| body(&mut r));
            let mut i = base(t, project, author, title(&mut r), described(project, given));
            i.confidential = r.chance(0.04);
            i.milestone = r.chance(0.3).then(|| project * 10 + r.below(3) as i64);
            i.weight = r.chance(0.2).then(|| r.range(1, 5));
            i.due = r.chance(0.1).then(|| t + r.range(3, 40) * DAY);
            let u = push(&mut v, i.clone());
            let late = t > NOW - 3 * DAY && late_left > 0 && r.chance(0.1);
            if late || r.chance(if api { 0.03 } else { 0.014 }) {
                late_left -= i32::from(late);
                if api {
                    let a1 = t + r.range(10_000, 60_000) * 1_000 + r.below(1_000) as i64;
                    push(&mut v, Issue { at: a1, mark: Mark::Retry, of: Some(u), ..i.clone() });
                    if r.chance(0.3) {
                        let a2 = a1 + r.range(20_000, 120_000) * 1_000 + r.below(1_000) as i64;
                        push(&mut v, Issue { at: a2, mark: Mark::Retry, of: Some(u), ..i.clone() });
                    }
                } else {
                    let a1 = t + r.range(5_000, 100_000);
                    push(&mut v, Issue { at: a1, mark: Mark::Retry, of: Some(u), ..i.clone() });
                }
            }
            if r.chance(0.01) {
                // Someone else reports the same thing in their own words.
                let at = t + r.range(60, 1_800) * SECOND;
                let other = 10 + r.below(160) as i64;
                let mut j = base(at, project, other, i.title.clone(), described(project, Some(body(&mut r))));
                j.dup_of = Some(u);
                push(&mut v, j);
            }
        }
    }
    v.sort_by_key(|i| i.at);

    let id0 = 184_220_i64;
    let mut id_of = vec![0_i64; v.len()];
    for (k, i) in v.iter().enumerate() {
        id_of[i.uid] = id0 + k as i64;
    }
    let mut iids: BTreeMap<i64, i64> = BTreeMap::new();
    let mut ends: BTreeMap<i64, i64> = BTreeMap::new();
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("issues", &columns);
    for (k, i) in v.iter().enumerate() {
        let id = id0 + k as i64;
        let iid = iids.entry(i.project).or_insert_with(|| r.range(40, 2_500));
        *iid += 1;
        let end = ends.entry(i.project).or_insert_with(|| r.range(-50_000, 900_000));
        *end += 513;
        let position = if r.chance(0.07) { r.range(-100_000, *end) } else { *end };
        let maintainer = 10 + (i.project * 7) % 25;

        // The row's later life, up to now.
        let mut closed = i.bulk_closed;
        let mut dup_to = None;
        let mut edited: Option<(i64, i64)> = None;
        let mut saves = 0;
        let mut last = i.at;
        let mut upvotes = 0;
        let mut health = None;
        if i.mark == Mark::Retry {
            let x = r.below(100);
            let c = i.at + r.range(10 * 60, 2 * 86_400) * SECOND + r.below(1_000_000) as i64;
            if x < 45 && c < NOW {
                closed = Some((c, maintainer));
                dup_to = i.of.map(|u| id_of[u]);
            } else if x < 55 && c < NOW {
                closed = Some((c, i.author));
            }
        } else if i.bulk_closed.is_none() {
            let c = i.at + r.range(20 * 60, 14 * 86_400) * SECOND + r.below(1_000_000) as i64;
            if let Some(u) = i.dup_of {
                let c = i.at + r.range(3_600, 2 * 86_400) * SECOND;
                if c < NOW {
                    closed = Some((c, maintainer));
                    dup_to = Some(id_of[u]);
                }
            } else if r.chance(0.42) && c < NOW {
                closed = Some((c, if r.chance(0.5) { i.author } else { maintainer }));
            }
            let e = i.at + r.range(60, 3 * 86_400) * SECOND + r.below(1_000_000) as i64;
            if r.chance(0.15) && e < NOW {
                edited = Some((e, if r.chance(0.7) { i.author } else { maintainer }));
                saves += 1 + r.below(2) as i64;
            }
            let a = i.at + r.range(300, 6 * 86_400) * SECOND + r.below(1_000_000) as i64;
            if r.chance(0.5) && a < NOW {
                saves += 1 + r.below(4) as i64;
                last = last.max(a);
            }
            if r.chance(0.08) {
                upvotes = r.range(1, 15);
            }
            if r.chance(0.05) {
                health = Some(r.range(1, 3));
                saves += 1;
            }
        }
        if let Some((e, _)) = edited {
            last = last.max(e);
        }
        if let Some((c, _)) = closed {
            saves += 1;
            last = last.max(c + r.range(40, 900));
        }
        let updater = match (closed, edited) {
            (Some((c, by)), Some((e, eb))) => Some(if c > e { by } else { eb }),
            (Some((_, by)), None) | (None, Some((_, by))) => Some(by),
            (None, None) => None,
        };
        f.push(&[
            ("id", V::I(id)),
            ("title", V::t(&i.title)),
            ("author_id", V::I(i.author)),
            ("project_id", V::I(i.project)),
            ("created_at", V::At(i.at)),
            ("updated_at", V::At(last)),
            ("description", V::opt_t(i.desc.as_deref())),
            ("milestone_id", V::opt_i(i.milestone)),
            ("iid", V::I(*iid)),
            ("updated_by_id", V::opt_i(updater)),
            ("weight", V::opt_i(i.weight)),
            ("confidential", V::B(i.confidential)),
            ("due_date", i.due.map_or(V::Null, |d| V::t(date(d)))),
            ("lock_version", V::I(saves)),
            ("title_html", V::t(escape(&i.title))),
            ("description_html", V::t(i.desc.as_deref().map_or(String::new(), render))),
            ("time_estimate", V::I(0)),
            ("relative_position", V::I(position)),
            ("service_desk_reply_to", V::opt_t(i.reply_to.as_deref())),
            ("cached_markdown_version", V::I(MARKDOWN_VERSION)),
            ("last_edited_at", edited.map_or(V::Null, |(e, _)| V::At(e))),
            ("last_edited_by_id", V::opt_i(edited.map(|(_, by)| by))),
            ("closed_at", closed.map_or(V::Null, |(c, _)| V::AtZ(c))),
            ("closed_by_id", V::opt_i(closed.map(|(_, by)| by))),
            ("state_id", V::I(if closed.is_some() { 2 } else { 1 })),
            ("duplicated_to_id", V::opt_i(dup_to)),
            ("health_status", V::opt_i(health)),
            ("blocking_issues_count", V::I(0)),
            ("upvotes_count", V::I(upvotes)),
            ("work_item_type_id", V::I(i.kind)),
            ("namespace_id", V::I(2_400_000 + i.project * 17)),
            ("imported_from", V::I(0)),
            ("correct_work_item_type_id", V::I(i.kind)),
        ]);
        f.mark(id, i.mark);
    }
    f
}
