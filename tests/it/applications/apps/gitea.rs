//! Gitea (Go, xorm; SQLite, MySQL/MariaDB, PostgreSQL): `issue`, as `issues.NewIssue` /
//! `NewIssueWithIndex` writes it (web form `repo.NewIssuePost`, API `POST /repos/{owner}/{repo}/issues`,
//! pull requests through the same `NewIssueWithIndex`), and as the repository migration's
//! `GiteaLocalUploader.CreateIssues` / `InsertIssues` writes imported issues in one transaction.
//! Read: go-gitea/gitea models/issues/issue.go (the `Issue` struct, whose xorm tags make the table),
//! models/migrations/v1_23/v299.go (`content_version`), models/issues/issue_pin.go (pins moved to
//! `issue_pin`), models/issues/issue_update.go (`NewIssue`, `NewIssueWithIndex`, `ChangeIssueContent`),
//! services/migrations/gitea_uploader.go (`CreateIssues`).
//!
//! A create takes the repository's next number from `issue_index` (`db.GetNextResourceIndex`) in its
//! transaction, so a retried create gets the next `index` and a new autoincrement `id`; xorm's
//! `created`/`updated` tags set `created_unix` = `updated_unix` = the attempt's second; nothing dedups
//! a create. Later life: `is_closed`/`closed_unix` (closed or merged), `num_comments`, `updated_unix`
//! (the last comment, label or state change), `content_version` (each edit of the body). A retried
//! issue is closed as a duplicate by a maintainer or its author, with one comment. Imported issues keep
//! the source's number, times and state; `poster_id` is the user who migrated, `original_author(_id)`
//! the source's author. Legitimate repeats: a CI workflow's matrix opening one identical issue per
//! failed job within 1-3 s; a scheduled uptime check opening the same issue every 5 minutes while a
//! site is down; a person closing an issue and filing it again a few minutes later; an upstream
//! duplicate carried over by a migration. Retries (few): a double submit of the web form 40-90 ms
//! apart, and `tea`/CI clients re-sending after a 30 s timeout, once with a second retry.
use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V, WORDS, sentence};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::MySql];

pub fn ddl(engine: Engine) -> String {
    const INDEXES: &str = "
CREATE INDEX `IDX_issue_repo_id` ON `issue` (`repo_id`);
CREATE UNIQUE INDEX `UQE_issue_repo_index` ON `issue` (`repo_id`,`index`);
CREATE INDEX `IDX_issue_poster_id` ON `issue` (`poster_id`);
CREATE INDEX `IDX_issue_original_author_id` ON `issue` (`original_author_id`);
CREATE INDEX `IDX_issue_milestone_id` ON `issue` (`milestone_id`);
CREATE INDEX `IDX_issue_is_closed` ON `issue` (`is_closed`);
CREATE INDEX `IDX_issue_is_pull` ON `issue` (`is_pull`);
CREATE INDEX `IDX_issue_deadline_unix` ON `issue` (`deadline_unix`);
CREATE INDEX `IDX_issue_created_unix` ON `issue` (`created_unix`);
CREATE INDEX `IDX_issue_updated_unix` ON `issue` (`updated_unix`);
CREATE INDEX `IDX_issue_closed_unix` ON `issue` (`closed_unix`);";
    let table = match engine {
        Engine::Sqlite => "CREATE TABLE `issue` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `repo_id` INTEGER NULL,
  `index` INTEGER NULL, `poster_id` INTEGER NULL, `original_author` TEXT NULL, `original_author_id` INTEGER NULL,
  `name` TEXT NULL, `content` TEXT NULL, `content_version` INTEGER DEFAULT 0 NOT NULL, `milestone_id` INTEGER NULL,
  `priority` INTEGER NULL, `is_closed` INTEGER NULL, `is_pull` INTEGER NULL, `num_comments` INTEGER NULL,
  `time_estimate` INTEGER DEFAULT 0 NOT NULL, `ref` TEXT NULL, `deadline_unix` INTEGER NULL, `created_unix` INTEGER NULL,
  `updated_unix` INTEGER NULL, `closed_unix` INTEGER NULL, `is_locked` INTEGER DEFAULT false NOT NULL);",
        Engine::MySql => "CREATE TABLE `issue` (`id` BIGINT(20) PRIMARY KEY AUTO_INCREMENT NOT NULL, `repo_id` BIGINT(20) NULL,
  `index` BIGINT(20) NULL, `poster_id` BIGINT(20) NULL, `original_author` VARCHAR(255) NULL, `original_author_id` BIGINT(20) NULL,
  `name` VARCHAR(255) NULL, `content` LONGTEXT NULL, `content_version` INT DEFAULT 0 NOT NULL, `milestone_id` BIGINT(20) NULL,
  `priority` INT NULL, `is_closed` TINYINT(1) NULL, `is_pull` TINYINT(1) NULL, `num_comments` INT NULL,
  `time_estimate` BIGINT(20) DEFAULT 0 NOT NULL, `ref` VARCHAR(255) NULL, `deadline_unix` BIGINT(20) NULL,
  `created_unix` BIGINT(20) NULL, `updated_unix` BIGINT(20) NULL, `closed_unix` BIGINT(20) NULL,
  `is_locked` TINYINT(1) DEFAULT false NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC;",
        Engine::Postgres => unreachable!("this fixture covers Gitea on SQLite and MySQL"),
    };
    format!("{table}{INDEXES}")
}

const COLUMNS: &str = "id repo_id index poster_id original_author original_author_id name content content_version \
    milestone_id priority is_closed is_pull num_comments time_estimate ref deadline_unix created_unix updated_unix \
    closed_unix is_locked";

#[derive(Clone, Default)]
struct Issue {
    /// When the row was inserted, µs: what orders the autoincrement ids.
    at: i64,
    repo: i64,
    /// Taken from `issue_index` at insert time; set for imported rows.
    index: i64,
    poster: i64,
    author: Option<(&'static str, i64)>,
    title: String,
    content: String,
    version: i64,
    milestone: i64,
    pull: bool,
    comments: i64,
    git_ref: &'static str,
    deadline: i64,
    created: i64,
    updated: i64,
    closed: i64,
    locked: bool,
    mark: Mark,
}

fn title(r: &mut Rng, pull: bool) -> String {
    let n = 3 + r.below(5) as usize;
    let words: Vec<&str> = (0..n).map(|_| *r.pick(WORDS)).collect();
    let lead = if pull {
        r.one(&["Fix", "Add", "Refactor", "Update", "Remove"])
    } else {
        r.one(&["", "", "Bug:", "[Feature]", "Question:"])
    };
    format!("{lead} {}", words.join(" ")).trim().to_string()
}

fn issue(at: i64, repo: i64, poster: i64, title: String, content: String, pull: bool) -> Issue {
    let (created, updated) = (at / SECOND, at / SECOND);
    Issue { at, repo, poster, title, content, pull, created, updated, ..Issue::default() }
}

/// The same request handled again `gap` µs later: its own second, number and id.
fn again(base: &Issue, gap: i64, mark: Mark) -> Issue {
    let at = base.at + gap;
    Issue { at, created: at / SECOND, updated: at / SECOND, mark, ..base.clone() }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(9_157);
    let end = T0 + 21 * DAY;
    let mut made: Vec<Issue> = Vec::new();
    let mut t = T0 + 6 * HOUR;
    let migration = T0 + 9 * DAY + 14 * HOUR + 20 * MINUTE;
    // Retries, by day: web double submits (d), API timeouts (a), one retried twice (b).
    let retry_days: &[(i64, char)] = &[(3, 'd'), (6, 'b'), (12, 'd'), (15, 'a'), (20, 'd')];
    let mut retry_at: Vec<(i64, char)> =
        retry_days.iter().map(|&(d, k)| (T0 + d * DAY + r.range(8, 17) * HOUR, k)).collect();
    while t < end {
        let hour = (t / HOUR) % 24;
        t += if (7..19).contains(&hour) { r.range(30, 1_400) } else { r.range(120, 6_000) } * SECOND
            + r.range(0, 999_999);
        let roll = r.below(100);
        let repo = if t > migration && r.chance(0.04) { 46 } else { 1 + r.skewed(45) as i64 };
        let (poster, pull) = match roll {
            0..=61 => (1 + r.skewed(300) as i64, false),
            62..=93 => (1 + r.skewed(120) as i64, true),
            _ => (7, true), // Renovate
        };
        let (name, content) = if poster == 7 {
            let dep =
                r.one(&["golang.org/x/net", "react", "vite", "eslint", "github.com/stretchr/testify", "postgres"]);
            (
                format!(
                    "chore(deps): update dependency {dep} to v{}.{}.{}",
                    r.range(1, 9),
                    r.range(0, 30),
                    r.range(0, 20)
                ),
                format!(
                    "This PR contains the following updates:\n\n| Package | Update |\n|---|---|\n| {dep} | minor |\n\n---\n\n- [ ] <!-- rebase-check -->If you want to rebase/retry this PR, check this box"
                ),
            )
        } else if pull {
            (title(&mut r, true), format!("{}\n\nFixes #{}", sentence(&mut r, 8), r.range(1, 400)))
        } else {
            (
                title(&mut r, false),
                format!(
                    "### Description\n\n{}\n\n### Steps to reproduce\n\n1. {}\n2. {}",
                    sentence(&mut r, 10),
                    sentence(&mut r, 4),
                    sentence(&mut r, 5)
                ),
            )
        };
        let mut it = issue(t, repo, poster, name, content, pull);
        if repo <= 8 && r.chance(0.25) {
            it.milestone = repo * 10 + r.range(1, 3);
        }
        if !pull && r.chance(0.02) {
            it.git_ref = r.one(&["refs/heads/main", "refs/heads/release/v2.14", "refs/tags/v2.13.0"]);
        }
        made.push(it.clone());
        if let Some(k) = retry_at.iter().position(|&(at, _)| at <= t).filter(|_| !pull && poster != 7) {
            let (_, kind) = retry_at.remove(k);
            if kind == 'd' {
                made.push(again(&it, r.range(40, 90) * 1_000, Mark::Retry));
            } else {
                let first = r.range(30, 33) * SECOND + r.range(0, 999_999);
                made.push(again(&it, first, Mark::Retry));
                if kind == 'b' {
                    made.push(again(&it, first + r.range(60, 120) * SECOND, Mark::Retry));
                }
            }
        }
    }
    let ci = 12;
    // A nightly workflow's matrix: each failed job opens the same issue, a second or two apart.
    for d in [2, 5, 8, 11, 16, 19] {
        let at = T0 + d * DAY + 3 * HOUR + r.range(0, 3_600) * SECOND;
        let run = r.range(8_000, 9_999);
        let base = issue(
            at,
            1 + r.below(2) as i64,
            ci,
            "E2E nightly failed on `main`".into(),
            format!(
                "The scheduled workflow `e2e.yml` failed.\n\nRun: https://git.acme.example/acme/app/actions/runs/{run}"
            ),
            false,
        );
        made.push(base.clone());
        let mut gap = 0;
        for _ in 0..1 + r.below(3) {
            gap += r.range(300_000, 1_500_000);
            made.push(again(&base, gap, Mark::Legit));
        }
    }
    // An uptime check scheduled every 5 minutes opens an issue on each failed run.
    for d in [4, 10, 14, 18] {
        let at = T0 + d * DAY + r.range(1, 22) * HOUR + r.range(0, 3_600) * SECOND;
        let base = issue(
            at,
            3,
            ci,
            "Uptime check failed: https://status.acme.example".into(),
            "The uptime check for https://acme.example failed (HTTP 502).\n\nOpened by the `uptime.yml` schedule."
                .into(),
            false,
        );
        made.push(base.clone());
        for k in 1..=1 + r.below(4) as i64 {
            made.push(again(&base, k * 5 * MINUTE + r.range(0, 40) * SECOND, Mark::Legit));
        }
    }
    // A person closes an issue and files it again, minutes later.
    for _ in 0..6 {
        let at = T0 + r.range(1, 20) * DAY + r.range(8, 18) * HOUR;
        let mut first = issue(
            at,
            1 + r.skewed(45) as i64,
            1 + r.skewed(300) as i64,
            title(&mut r, false),
            sentence(&mut r, 12),
            false,
        );
        let gap = r.range(40, 540) * SECOND;
        first.closed = (at + gap) / SECOND - r.range(5, 30);
        first.updated = first.closed;
        made.push(first.clone());
        made.push(Issue { closed: 0, ..again(&first, gap, Mark::Legit) });
    }
    made.sort_by_key(|i| i.at);
    // The repositories' numbers as they stood at T0.
    let mut next: Vec<i64> = (0..=46).map(|k| if k == 0 || k == 46 { 0 } else { 1_800 / k + r.range(0, 40) }).collect();
    let mut rows: Vec<Issue> = Vec::new();
    let mut migrated = false;
    for mut it in made {
        if !migrated && it.at > migration {
            migrated = true;
            next[46] = migrate(&mut r, migration, &mut rows);
        }
        let k = it.repo as usize;
        next[k] += 1;
        it.index = next[k];
        rows.push(it);
    }
    // A second outage's first issue, a second failed night: a new intent equal to an earlier row.
    let mut seen: std::collections::BTreeSet<String> = Default::default();
    for it in rows.iter_mut() {
        let author = it.author.map_or("", |a| a.0);
        if !seen.insert(format!("{}|{}|{}|{}|{}|{author}", it.repo, it.poster, it.pull, it.title, it.content))
            && it.mark == Mark::Plain
        {
            it.mark = Mark::Legit;
        }
    }
    // Later life.
    for it in rows.iter_mut().filter(|i| i.author.is_none()) {
        let created = it.created;
        let mut last = created;
        if it.mark == Mark::Retry {
            it.closed = created + r.range(120, 6 * 3_600);
            it.comments = 1;
            last = it.closed;
        } else if it.closed == 0 {
            it.comments = r.skewed(14) as i64;
            if it.comments > 0 {
                last = created + r.range(60, 5 * 86_400);
            }
            if r.chance(if it.pull { 0.75 } else { 0.45 }) {
                it.closed = created + r.range(600, if it.pull { 5 * 86_400 } else { 10 * 86_400 });
                last = last.max(it.closed);
            }
            if r.chance(0.1) {
                it.version = 1 + r.below(2) as i64;
                it.content = format!(
                    "{}\n\n{}",
                    it.content,
                    r.one(&["**Update:** also happens on mobile.", "Edit: fixed the steps.", "- [x] checked the logs"])
                );
                last = last.max(created + r.range(30, 86_400));
            }
            if !it.pull && r.chance(0.03) {
                it.deadline = (created / 86_400 + r.range(2, 20)) * 86_400 + 86_399;
                last = last.max(created + r.range(30, 3_600));
            }
            it.locked = r.chance(0.01);
        }
        it.updated = it.updated.max(last);
    }
    let mut f = Fixture::new("issue", &COLUMNS.split_whitespace().collect::<Vec<_>>());
    for (n, it) in rows.iter().enumerate() {
        let id = 18_401 + n as i64;
        let (author, author_id) = it.author.unwrap_or(("", 0));
        f.push(&[
            ("id", V::I(id)),
            ("repo_id", V::I(it.repo)),
            ("index", V::I(it.index)),
            ("poster_id", V::I(it.poster)),
            ("original_author", V::t(author)),
            ("original_author_id", V::I(author_id)),
            ("name", V::t(&it.title)),
            ("content", V::t(&it.content)),
            ("content_version", V::I(it.version)),
            ("milestone_id", V::I(it.milestone)),
            ("priority", V::I(0)),
            ("is_closed", V::B(it.closed > 0)),
            ("is_pull", V::B(it.pull)),
            ("num_comments", V::I(it.comments)),
            ("time_estimate", V::I(0)),
            ("ref", V::t(it.git_ref)),
            ("deadline_unix", V::I(it.deadline)),
            ("created_unix", V::I(it.created)),
            ("updated_unix", V::I(it.updated)),
            ("closed_unix", V::I(it.closed)),
            ("is_locked", V::B(it.locked)),
        ]);
        f.mark(id, it.mark);
    }
    f
}

/// An admin migrates a GitHub repository (issues only) into repository 46: one `InsertIssues` per
/// page, with the source's numbers, authors, times and states. Upstream, one reporter's double
/// submit left two equal issues (the second closed as a duplicate); the import carries both.
/// Returns the highest number, where `issue_index` then stands.
fn migrate(r: &mut Rng, at: i64, rows: &mut Vec<Issue>) -> i64 {
    const AUTHORS: &[(&str, i64)] = &[
        ("octocat", 583_231),
        ("mkowalski", 1_204_877),
        ("j-nguyen", 7_345_120),
        ("rossi-dev", 22_918_004),
        ("hiro-ito", 40_112_559),
        ("lund", 3_091_774),
    ];
    let mut number = 0;
    let mut source = T0 - 900 * DAY;
    for k in 0..90 {
        number += 1 + r.below(3) as i64; // pull requests were left out of the migration
        source += r.range(2 * HOUR, 16 * DAY) / SECOND * SECOND;
        let author = *r.pick(AUTHORS);
        let cap = at / SECOND - 3_600;
        let closed = r.chance(0.7).then(|| (source / SECOND + r.range(3_600, 200 * 86_400)).min(cap));
        let mut it = issue(at + k * 20_000, 46, 1, title(r, false), sentence(r, 14), false);
        it.author = Some(author);
        it.index = number;
        it.created = source / SECOND;
        it.closed = closed.unwrap_or(0);
        it.updated = closed.unwrap_or((it.created + r.range(0, 30 * 86_400)).min(cap));
        it.comments = r.skewed(9) as i64;
        rows.push(it.clone());
        if k == 57 {
            number += 1;
            let created = it.created + r.range(2, 6);
            let dup = Issue {
                at: it.at + 10_000,
                index: number,
                created,
                updated: created + 600,
                closed: created + 600,
                comments: 1,
                mark: Mark::Legit,
                ..it
            };
            rows.push(dup);
        }
    }
    number
}
