//! What the data decides about the comparison, from the first rows of the
//! pass (the warm-up, held in memory): a column that differs in nearly every
//! near-miss pair and looks minted per attempt is left out, with its
//! evidence; a time left out for moving with the creation goes back in when
//! retries are seen to copy it. Rounds repeat on the held rows until nothing
//! changes, since leaving one column out can bring the next to light.

use anyhow::{Context, Result};
use rustc_hash::FxHashMap;

use super::plan::{Plan, Rule, ValueKind};
use super::read::Rows;
use crate::db::Db;
use crate::db::scan::Lookup;
use crate::nearmiss::{Detector, Stats};
use crate::window::RowId;

/// Rows held for the decisions, at most: by count, and by memory.
const WARM_ROWS: usize = 100_000;
const WARM_BYTES: usize = 8 << 20;
/// Near-miss rows below which the data decides nothing.
pub const MIN_EVIDENCE: u64 = 5;
/// Rounds of decisions, at most.
const ROUNDS: usize = 6;

/// The first rows of the pass, held until the comparison is decided.
#[derive(Default)]
pub struct WarmUp {
    pub rows: Vec<(RowId, i64)>,
    pub hashes: Vec<u64>,
}

/// Reads the first rows into memory.
pub async fn warm_up(rows: &mut Rows, width: usize, bar: &indicatif::ProgressBar) -> Result<WarmUp> {
    let per_row = 8 * width + 48;
    let limit = WARM_ROWS.min(WARM_BYTES / per_row).max(1_000);
    let mut warm = WarmUp::default();
    while warm.rows.len() < limit {
        let Some((id, t_us, hashes)) = rows.next().await? else { break };
        warm.rows.push((id, t_us));
        warm.hashes.extend_from_slice(hashes);
        if warm.rows.len().is_multiple_of(4096) {
            bar.set_position(rows.scanned.rows);
        }
    }
    Ok(warm)
}

impl WarmUp {
    fn detector(&self, plan: &Plan, window_us: i64) -> Detector {
        let width = plan.carried.len();
        let mut detector = Detector::new(window_us, width, &plan.compared, plan.max_differing()).prose(&plan.prose);
        for (i, (id, t_us)) in self.rows.iter().enumerate() {
            detector.push(id, *t_us, &self.hashes[i * width..(i + 1) * width]);
        }
        detector
    }
}

/// Decides the comparison from the held rows, reading the values of a few
/// near-miss pairs on `db` for the evidence.
pub async fn decide(plan: &mut Plan, warm: &WarmUp, window_us: i64, db: &mut Db) -> Result<()> {
    if warm.rows.is_empty() {
        return Ok(());
    }
    let distinct = crate::nearmiss::distinct(plan.carried.len(), &warm.hashes);
    plan.informative = distinct.iter().map(|d| *d >= 1.5).collect();
    plan.distinct = distinct.clone();
    // A column unique on its own (compared because --columns names it)
    // differs between any two rows: its difference makes no near miss.
    plan.prose = plan.carried.iter().map(|c| plan.table.unique_alone(&c.name).is_some()).collect();
    // Nearly unique text (a URL, an outside object's reference or uuid),
    // never a number (an amount is equal by chance) nor a column unique on
    // its own. They make near misses of the pass's report, not of the
    // decisions: a pair equal on them and unequal on much else is a thing to
    // look at, not evidence of what one column is.
    let rows = warm.rows.len() as f64;
    plan.identity = plan
        .carried
        .iter()
        .zip(&distinct)
        .zip(&plan.prose)
        .map(|((c, d), unique)| {
            rows >= 200.0 && *d >= 0.9 * rows && matches!(c.kind, ValueKind::Text | ValueKind::Uuid) && !unique
        })
        .collect();
    if plan.fixed {
        return Ok(());
    }
    let mut decided = vec![false; plan.carried.len()];
    for _ in 0..ROUNDS {
        let detector = warm.detector(plan, window_us);
        let stats = &detector.stats;
        let pairs = if stats.near_rows >= MIN_EVIDENCE { sample_values(plan, stats, db).await? } else { Vec::new() };
        // The same long text with small edits is fetched or rendered again
        // for each attempt, not written anew: it is left out, before the
        // written text below would make its pairs no near misses.
        let mut refetched = false;
        for (j, reason) in refetched_columns(plan.carried.len(), &pairs).into_iter().enumerate() {
            if let Some(reason) = reason
                && plan.compared[j]
                && !decided[j]
            {
                decided[j] = true;
                refetched = true;
                plan.exclude(j, Rule::MintedPerAttempt, reason);
            }
        }
        if refetched {
            continue;
        }
        // Written text tells rows apart as other messages: once seen in the
        // pairs, its differences make no near miss, and the round counts again.
        let prose = prose_columns(plan.carried.len(), &pairs);
        for (j, written) in written_columns(plan, &distinct, warm.rows.len(), &pairs).into_iter().enumerate() {
            if plan.written.len() <= j {
                plan.written.resize(j + 1, false);
            }
            plan.written[j] |= written;
        }
        let known = |j: usize| plan.prose.get(j).copied().unwrap_or(false);
        if prose.iter().enumerate().any(|(j, p)| *p && !known(j)) {
            plan.prose = prose.iter().enumerate().map(|(j, p)| *p || known(j)).collect();
            continue;
        }
        let facts = Facts { rows: warm.rows.len() as u64, distinct: &distinct, pairs: &pairs };
        let changes: Vec<Change> = verdicts(plan, stats, &facts).into_iter().filter(|c| !decided[c.column()]).collect();
        if changes.is_empty() {
            break;
        }
        for change in changes {
            decided[change.column()] = true;
            match change {
                Change::Exclude { column, rule: Rule::RewrittenOriginal, reason, value } => {
                    plan.rewritten = Some((plan.carried[column].name.clone(), value));
                    plan.exclude(column, Rule::RewrittenOriginal, reason);
                }
                Change::Exclude { column, rule, reason, .. } => {
                    // A reference to a parent row (a foreign key, or a number
                    // named for an id) that kept every near miss apart (19 in
                    // 20): each write makes its own parent. (A value, an
                    // address, may be minted by some requests and carried by
                    // others; a parent row is made by the write.)
                    let carried = &plan.carried[column];
                    let by_name = carried.kind == ValueKind::Integer && carried.name.to_lowercase().ends_with("id");
                    let parent = by_name || plan.table.column(&carried.name).is_ok_and(|c| c.foreign);
                    if rule == Rule::MintedPerAttempt && parent && stats.differs[column] * 20 >= stats.near_rows * 19 {
                        plan.minted_anew.push(plan.carried[column].name.clone());
                    }
                    plan.exclude(column, rule, reason)
                }
                Change::PutBack { column, why } => plan.put_back(column, why),
            }
        }
        if plan.compared.iter().all(|c| !c) {
            anyhow::bail!(
                "every column of table {:?} differs between rows that nearly match: name the columns to compare with --columns",
                plan.table.name
            );
        }
    }
    // The parents' rows are counted for candidate clusters by the column's
    // value: only where an index leads with it, never a read of the table
    // per cluster.
    if !plan.minted_anew.is_empty() {
        let indexes = crate::db::catalog::indexes(db, &plan.table).await?;
        let leads = |c: &String| indexes.iter().any(|i| !i.partial && i.first_column.as_ref() == Some(c));
        for column in plan.minted_anew.iter().filter(|c| !leads(c)) {
            plan.decided.push(format!(
                "{column} is a parent each write makes, but no index leads with it: rows sharing one are not looked \
                 up as one write (CREATE INDEX ON {} ({column}) lets the scan tell a request's equal rows)",
                plan.table.name
            ));
        }
        plan.minted_anew.retain(|c| leads(c));
    }
    Ok(())
}

/// One sampled near-miss pair's values: every carried column of both rows,
/// the later row's created-at and the earlier row's update time (µs).
#[derive(Debug, Clone, Default)]
pub struct PairValues {
    pub differing: Vec<usize>,
    /// The two rows' ids, as text.
    pub earlier_id: String,
    pub later_id: String,
    pub earlier: Vec<Option<String>>,
    pub later: Vec<Option<String>>,
    pub earlier_updated_us: Option<i64>,
    pub later_updated_us: Option<i64>,
    pub earlier_created_us: Option<i64>,
    pub later_created_us: Option<i64>,
}

impl PairValues {
    /// Whether the two rows' values of column `j` are one document each
    /// attempt stamped with its own ids and creation time (`restamped`).
    fn restamped(&self, j: usize) -> bool {
        match (&self.earlier[j], &self.later[j], self.earlier_created_us, self.later_created_us) {
            (Some(a), Some(b), Some(ta), Some(tb)) => restamped(a, b, (ta, tb)),
            _ => false,
        }
    }

    /// Each row of the pair whose creation and update times were read: its
    /// id, its values, its created-at and its update time (µs).
    fn timed_rows(&self) -> impl Iterator<Item = (&str, &Vec<Option<String>>, i64, i64)> {
        [
            (&self.earlier_id, &self.earlier, self.earlier_created_us, self.earlier_updated_us),
            (&self.later_id, &self.later, self.later_created_us, self.later_updated_us),
        ]
        .into_iter()
        .filter_map(|(id, values, created, updated)| Some((id.as_str(), values, created?, updated?)))
    }
}

/// Reads the sampled pairs' rows by id.
async fn sample_values(plan: &Plan, stats: &Stats, db: &mut Db) -> Result<Vec<PairValues>> {
    let dialect = db.dialect();
    // Times are read as microseconds, to set beside the creation's.
    let mut exprs: Vec<String> = plan
        .carried
        .iter()
        .map(|c| {
            let column = plan.table.column(&c.name).expect("a carried column");
            match super::plan::time_repr(column, &dialect) {
                Some(repr) if c.kind == ValueKind::Time => dialect.epoch_micros(&dialect.ident(&c.name), repr),
                _ => dialect.shown(&dialect.ident(&c.name), &column.data_type),
            }
        })
        .collect();
    exprs.push(dialect.epoch_micros(&dialect.ident(&plan.time.name), plan.repr));
    let update_repr = plan
        .update_time
        .as_deref()
        .and_then(|u| plan.table.column(u).ok())
        .and_then(|c| super::plan::time_repr(c, &dialect));
    if let (Some(update), Some(repr)) = (&plan.update_time, update_repr) {
        exprs.push(dialect.epoch_micros(&dialect.ident(update), repr));
    }
    let lookup = Lookup::new(dialect, &plan.table, &plan.id, &exprs);
    let mut ids: Vec<&RowId> = stats.samples.iter().flat_map(|s| [&s.earlier, &s.later]).collect();
    ids.sort();
    ids.dedup();
    let mut read: FxHashMap<String, Vec<Option<String>>> = FxHashMap::default();
    for chunk in ids.chunks(500) {
        let (sql, binds) = lookup.statement(chunk);
        for row in db.query_text(&sql, &binds).await.context("reading near-miss pairs")? {
            let mut cells = row.into_iter();
            let Some(Some(id)) = cells.next() else { continue };
            read.insert(id, cells.collect());
        }
    }
    let width = plan.carried.len();
    let micros = |row: &[Option<String>], i: usize| {
        row.get(i).cloned().flatten().and_then(|v| v.parse::<f64>().ok()).map(|v| v as i64)
    };
    Ok(stats
        .samples
        .iter()
        .filter_map(|s| {
            let earlier = read.get(&s.earlier.to_string())?;
            let later = read.get(&s.later.to_string())?;
            Some(PairValues {
                differing: s.differing.clone(),
                earlier_id: s.earlier.to_string(),
                later_id: s.later.to_string(),
                earlier: earlier[..width].to_vec(),
                later: later[..width].to_vec(),
                earlier_updated_us: micros(earlier, width + 1),
                later_updated_us: micros(later, width + 1),
                earlier_created_us: micros(earlier, width),
                later_created_us: micros(later, width),
            })
        })
        .collect())
}

/// Whether a column's values are built from the row's own id (a file path,
/// a link): in the sampled pairs, the two values are equal once each one's
/// id is taken out. A pair with a NULL side says nothing (not there yet);
/// one that differs in another column the value is built from too (another
/// folder) does not show it: three in four will do, since values that
/// differ by exactly the two rows' ids are no accident. The evidence.
fn holds_own_id(j: usize, pairs: &[&PairValues]) -> Option<String> {
    let own_id = |p: &&&PairValues| match (&p.earlier[j], &p.later[j]) {
        (Some(a), Some(b)) => {
            a.contains(&p.earlier_id)
                && b.contains(&p.later_id)
                && a.replace(&p.earlier_id, "\u{0}") == b.replace(&p.later_id, "\u{0}")
        }
        _ => false,
    };
    let built = pairs.iter().filter(own_id).count();
    let present = pairs.iter().filter(|p| p.earlier[j].is_some() && p.later[j].is_some()).count();
    (built >= 3 && built * 4 >= present * 3).then(|| {
        let example = pairs
            .iter()
            .find(own_id)
            .map(|p| format!(" ({} for row {})", shown(&p.later[j]), p.later_id))
            .unwrap_or_default();
        format!("in {built} of {present} sampled pairs each row's value holds its own id{example}")
    })
}

/// Columns whose sampled differences are one long text fetched or rendered
/// twice: in most pairs where they differ (three at least), both values hold
/// 40 words or more and share 85% of their distinct words (a page saved
/// twice differs by a "minutes ago" line, a counter, an advertisement; two
/// messages people wrote share few words). The reason for each, if any.
fn refetched_columns(width: usize, pairs: &[PairValues]) -> Vec<Option<String>> {
    (0..width)
        .map(|j| {
            let differing: Vec<&PairValues> = pairs.iter().filter(|p| p.differing.contains(&j)).collect();
            let alike: Vec<f64> = differing
                .iter()
                .filter_map(|p| match (&p.earlier[j], &p.later[j]) {
                    (Some(a), Some(b)) => same_text_again(a, b),
                    _ => None,
                })
                .collect();
            (differing.len() >= 3 && alike.len() * 3 >= differing.len() * 2).then(|| {
                let least = alike.iter().copied().fold(1.0, f64::min);
                format!(
                    "differs in {} of {} sampled near-miss pairs as one long text with small edits (at least {:.0}% of \
                     its words shared): fetched or rendered again for each attempt",
                    alike.len(),
                    differing.len(),
                    least * 100.0
                )
            })
        })
        .collect()
}

/// The share of distinct words two long texts have in common, when they
/// are one text with small edits.
fn same_text_again(a: &str, b: &str) -> Option<f64> {
    use std::collections::HashSet;
    let words = |s: &'_ str| -> Vec<String> { s.split_whitespace().map(str::to_lowercase).collect() };
    let (wa, wb) = (words(a), words(b));
    if wa.len() < 40 || wb.len() < 40 || a == b {
        return None;
    }
    let (sa, sb): (HashSet<&String>, HashSet<&String>) = (wa.iter().collect(), wb.iter().collect());
    let shared = sa.intersection(&sb).count() as f64 / sa.union(&sb).count().max(1) as f64;
    (shared >= 0.85).then_some(shared)
}

/// Columns whose sampled differences are written text (two words or more
/// on both sides, in most pairs where they differ).
fn prose_columns(width: usize, pairs: &[PairValues]) -> Vec<bool> {
    // Words, not a time written as text (`2026-01-01 10:00:45`) or numbers.
    let words = |v: &Option<String>| {
        v.as_deref().is_some_and(|v| {
            v.split_whitespace().count() >= 2 && !v.starts_with(['{', '[']) && v.chars().any(char::is_alphabetic)
        })
    };
    (0..width)
        .map(|j| {
            let differing: Vec<&PairValues> = pairs.iter().filter(|p| p.differing.contains(&j)).collect();
            let prose =
                differing.iter().filter(|p| words(&p.earlier[j]) && words(&p.later[j]) && !p.restamped(j)).count();
            differing.len() >= 3 && prose * 2 >= differing.len()
        })
        .collect()
}

/// Columns of what people write: text, most values their own, and where
/// sampled pairs differ, not by a generated token.
fn written_columns(plan: &Plan, distinct: &[f64], rows: usize, pairs: &[PairValues]) -> Vec<bool> {
    (0..plan.carried.len())
        .map(|j| {
            let differing: Vec<&PairValues> = pairs.iter().filter(|p| p.differing.contains(&j)).collect();
            let human = differing
                .iter()
                .filter(|p| match (&p.earlier[j], &p.later[j]) {
                    (Some(a), Some(b)) => {
                        minted_difference(a, b).is_none()
                            && !p.restamped(j)
                            && !a.starts_with(['{', '['])
                            && a.chars().any(char::is_alphabetic)
                    }
                    _ => false,
                })
                .count();
            plan.carried[j].kind == ValueKind::Text
                && distinct.get(j).copied().unwrap_or(0.0) >= 50f64.max(0.05 * rows as f64)
                && !differing.is_empty()
                && human * 2 >= differing.len()
        })
        .collect()
}

/// What a round decides about one carried column.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// `value`: what a rewrite wrote into the earlier rows (`RewrittenOriginal`).
    Exclude {
        column: usize,
        rule: Rule,
        reason: String,
        value: Option<String>,
    },
    PutBack {
        column: usize,
        why: String,
    },
}

impl Change {
    fn column(&self) -> usize {
        match self {
            Change::Exclude { column, .. } | Change::PutBack { column, .. } => *column,
        }
    }
}

/// What the held rows tell besides the counts.
pub struct Facts<'a> {
    pub rows: u64,
    /// Distinct values per carried column, estimated.
    pub distinct: &'a [f64],
    pub pairs: &'a [PairValues],
}

/// The decisions one round's counts support.
pub fn verdicts(plan: &Plan, stats: &Stats, facts: &Facts<'_>) -> Vec<Change> {
    let mut changes = Vec::new();
    let near = stats.near_rows;
    for (j, carried) in plan.carried.iter().enumerate() {
        // Most near misses: seven in ten, or half where a unique index
        // forces the column to differ between rows equal on the rest.
        // A value built from the row's own id is minted whatever share of
        // near misses it keeps apart (where it is set at all): half will do.
        let pairs: Vec<&PairValues> = facts.pairs.iter().filter(|p| p.differing.contains(&j)).collect();
        let own = matches!(carried.kind, ValueKind::Text | ValueKind::Other) && holds_own_id(j, &pairs).is_some();
        let needed = if carried.unique_with.is_some() || own { 5 } else { 7 };
        if !plan.compared[j] || near < MIN_EVIDENCE || stats.differs[j] * 10 < near * needed {
            continue;
        }
        // Whether it keeps (nearly) every near miss apart: 19 in 20.
        let every = stats.differs[j] * 20 >= near * 19;
        let Some((rule, evidence, value)) =
            minted(carried.kind, carried.unique_with.as_deref(), (j, every), &pairs, facts, plan)
        else {
            continue;
        };
        let reason = format!("differs in {} of {near} near-miss pairs; {evidence}", stats.differs[j]);
        changes.push(Change::Exclude { column: j, rule, reason, value });
    }
    // A column that keeps a fair share of near misses apart where one row of
    // the pair still holds what a new row starts with (NULL, zero, false,
    // its default) and the other has moved on: the application changed it
    // after creation (a state, a version, who edited it), and a retry copies
    // the request, not what happened to the original afterwards.
    for (j, carried) in plan.carried.iter().enumerate() {
        let text = matches!(carried.kind, ValueKind::Text) || plan.written.get(j).copied().unwrap_or(false);
        if !plan.compared[j] || text || near < MIN_EVIDENCE || stats.differs[j] * 5 < near {
            continue;
        }
        if changes.iter().any(|c| c.column() == j) {
            continue;
        }
        let default = plan.table.column(&carried.name).ok().and_then(|c| c.default.clone());
        let initial = |v: &Option<String>| holds_initial(v.as_deref(), default.as_deref());
        let pairs: Vec<&PairValues> = facts.pairs.iter().filter(|p| p.differing.contains(&j)).collect();
        // Or a number that only grows after creation (a lock version, a
        // count of edits): the older row of the pair holds the larger one, or
        // the row updated since its creation does and the other was never
        // touched (the copy closed as a duplicate got its version bumped).
        // Never a reference to another row: a story moved to a project of a
        // greater id did not grow.
        let integer =
            carried.kind == ValueKind::Integer && plan.table.column(&carried.name).is_ok_and(super::plan::can_grow);
        let grown = |p: &&&PairValues| integer && (grew(&p.earlier[j], &p.later[j]) || grown_by_update(p, j));
        let moved = pairs.iter().filter(|p| initial(&p.earlier[j]) != initial(&p.later[j]) || grown(p)).count();
        if pairs.len() >= 5 && moved * 10 >= pairs.len() * 8 {
            let reason = format!(
                "changed after creation: differs in {} of {near} near-miss pairs, and in {moved} of {} sampled \
                 pairs one row still holds what a new row starts with (NULL, zero, its default) while the other \
                 has moved on",
                stats.differs[j],
                pairs.len()
            );
            changes.push(Change::Exclude { column: j, rule: Rule::ChangedAfterCreation, reason, value: None });
        } else if carried.kind == ValueKind::Time
            && pairs.len() >= 3
            && let Some(evidence) = stamped_later(facts.pairs, j)
        {
            let reason = format!(
                "changed after creation: differs in {} of {near} near-miss pairs, and {evidence}: the time of \
                 something that happened to the row later (a retry copies the request, not what happened to the \
                 original afterwards)",
                stats.differs[j]
            );
            changes.push(Change::Exclude { column: j, rule: Rule::ChangedAfterCreation, reason, value: None });
        } else if pairs.len() >= 3
            && moved * 3 >= pairs.len()
            && let Some(evidence) = set_after_creation(facts.pairs, j, &initial)
        {
            // Where both rows have moved on (each set it at its own time),
            // the rows never updated since their creation tell: they hold
            // what a new row starts with, the updated ones do not.
            let reason = format!(
                "changed after creation: differs in {} of {near} near-miss pairs, in {moved} of {} sampled pairs \
                 one row still holds what a new row starts with while the other has moved on, and {evidence}",
                stats.differs[j],
                pairs.len()
            );
            changes.push(Change::Exclude { column: j, rule: Rule::ChangedAfterCreation, reason, value: None });
        }
    }
    // A column left out for its nature goes back in when rows equal on
    // everything else share its value more often than its nature explains:
    // retries copy it. A time that moves with the creation is equal in such
    // a pair about as often as the creation times are; a counter about as
    // often as two rows side by side.
    let exact = stats.exact_rows;
    let neighbours = stats.rows.saturating_sub(1).max(1);
    for (o, carried) in plan.carried.iter().enumerate() {
        let soft = plan
            .excluded
            .iter()
            .find(|e| e.column == carried.name && matches!(e.rule, Rule::MovesWithCreation | Rule::Counter));
        let Some(soft) = soft.filter(|_| !plan.compared[o]) else { continue };
        let equal = stats.equal_in_exact[o];
        let (copied, nature) = if soft.rule == Rule::Counter {
            let chance = stats.equal_in_neighbours[o] as f64 / neighbours as f64;
            (
                exact >= 3 && equal >= 3 && equal as f64 / exact as f64 >= chance + 0.5,
                format!(
                    "looks like a counter but is equal in {equal} of {exact} pairs of rows equal on every compared column ({:.0}% of rows side by side)",
                    chance * 100.0
                ),
            )
        } else {
            let beyond = equal.saturating_sub(stats.exact_same_time);
            (
                equal >= 3 && beyond >= 3.max(exact / 100),
                format!(
                    "moves with {} but is equal in {equal} of {exact} pairs of rows equal on every compared column \
                     (their creation times in {})",
                    plan.time.name, stats.exact_same_time
                ),
            )
        };
        if copied {
            let why = format!("{} {nature}: retries copy it, so it is compared", carried.name);
            changes.push(Change::PutBack { column: o, why });
        }
    }
    changes
}

/// Whether a value is what a new row starts with where nothing is sent:
/// NULL, zero, false, empty text (or an editor's empty paragraph, an empty
/// JSON document), or the column's default. A flag whose default is true
/// (or 1) starts true: its false is a change, however the engine spells it
/// (`true`, `t`, `1`).
pub fn holds_initial(value: Option<&str>, default: Option<&str>) -> bool {
    let truth = |s: &str| match s.to_ascii_lowercase().as_str() {
        "true" | "t" | "1" | "b'1'" => Some(true),
        "false" | "f" | "0" | "b'0'" => Some(false),
        _ => None,
    };
    match value {
        None => true,
        Some(v) => {
            // Quoted as a catalog quotes it ('0', 'draft'::text); MariaDB's
            // b'0' keeps its quotes.
            let unquote = |s: &'_ str| -> String {
                s.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')).unwrap_or(s).to_string()
            };
            let v = unquote(v);
            let v = v.as_str();
            let default = default.and_then(|d| d.split("::").next()).map(unquote);
            let default = default.as_deref();
            let starts_true = default.and_then(truth) == Some(true);
            (!starts_true && ["0", "", "false", "f", "0.0", "{}", "[]", "<p></p>"].contains(&v))
                || default.is_some_and(|d| d == v || (truth(d).is_some() && truth(d) == truth(v)))
        }
    }
}

/// Whether one row's number is greater than the other's: what it grew to
/// since its creation (a lock version, a quantity merged into).
pub fn grew(grown: &Option<String>, other: &Option<String>) -> bool {
    let number = |v: &Option<String>| v.as_deref().and_then(|v| v.parse::<f64>().ok());
    matches!((number(grown), number(other)), (Some(a), Some(b)) if a > b)
}

/// Whether the row of a pair updated since its creation holds the larger
/// value of column `j` and the other row was never touched since its own.
fn grown_by_update(p: &PairValues, j: usize) -> bool {
    let touched = |created: Option<i64>, updated: Option<i64>| match (created, updated) {
        (Some(c), Some(u)) => Some(u - c > super::confirm::TOUCHED_AFTER_US),
        _ => None,
    };
    match (touched(p.earlier_created_us, p.earlier_updated_us), touched(p.later_created_us, p.later_updated_us)) {
        (Some(true), Some(false)) => grew(&p.earlier[j], &p.later[j]),
        (Some(false), Some(true)) => grew(&p.later[j], &p.earlier[j]),
        _ => false,
    }
}

/// Whether column `j` is set only once a row is updated after its creation:
/// over the sampled pairs' rows, those whose update time is within 2 s of
/// their creation (never touched since) nearly all hold what a new row
/// starts with, and a fair share of the others hold something else. The
/// evidence, if so.
fn set_after_creation(pairs: &[PairValues], j: usize, initial: &dyn Fn(&Option<String>) -> bool) -> Option<String> {
    let mut seen: FxHashMap<&str, (bool, bool)> = FxHashMap::default();
    for p in pairs {
        for (id, values, created, updated) in p.timed_rows() {
            let touched = updated - created > super::confirm::TOUCHED_AFTER_US;
            seen.insert(id, (touched, !initial(&values[j])));
        }
    }
    let count = |touched: bool| {
        let rows: Vec<bool> = seen.values().filter(|(t, _)| *t == touched).map(|(_, set)| *set).collect();
        (rows.iter().filter(|s| **s).count(), rows.len())
    };
    let ((set_new, untouched), (set_later, touched)) = (count(false), count(true));
    (untouched >= 10 && touched >= 10 && set_new * 10 <= untouched && set_later * 10 >= touched * 3).then(|| {
        format!(
            "of the sampled rows never updated since their creation {set_new} of {untouched} hold anything else, of \
             those updated since {set_later} of {touched}"
        )
    })
}

/// Whether time column `j` is stamped by a write after the row's creation
/// (validated, closed, paid, shipped at): over the sampled pairs' rows, its
/// values, where set, fall after the row's creation (by more than the 2 s a
/// create takes) and no later than the row's last update (within a second),
/// in four of five rows at least and ten at least; and they are times of
/// day, not dates (a due date passed before a late update is no event).
/// A time the request asks for (a booking's start, a due date) lies ahead
/// of the row's last update. The evidence, if so.
fn stamped_later(pairs: &[PairValues], j: usize) -> Option<String> {
    const DAY_US: i64 = 86_400_000_000;
    let mut seen: FxHashMap<&str, bool> = FxHashMap::default();
    let mut midnight = 0;
    for p in pairs {
        for (id, values, created, updated) in p.timed_rows() {
            let Some(at) = values[j].as_deref().and_then(|v| v.parse::<f64>().ok()).map(|v| v as i64) else {
                continue;
            };
            if seen.insert(id, at > created + super::confirm::TOUCHED_AFTER_US && at <= updated + 1_000_000).is_none()
                && at.rem_euclid(DAY_US) == 0
            {
                midnight += 1;
            }
        }
    }
    let set = seen.len();
    let later = seen.values().filter(|l| **l).count();
    (later >= 10 && later * 5 >= set * 4 && midnight * 2 < set).then(|| {
        format!("of the sampled rows where it is set, {later} of {set} hold a time after their creation and by their last update")
    })
}

/// Why the values of a column that keeps near misses apart look minted per
/// attempt, if they do: the rule and the evidence.
fn minted(
    kind: ValueKind,
    unique_with: Option<&str>,
    (j, every): (usize, bool),
    pairs: &[&PairValues],
    facts: &Facts<'_>,
    plan: &Plan,
) -> Option<(Rule, String, Option<String>)> {
    let rows = facts.rows.max(1) as f64;
    let distinct = facts.distinct.get(j).copied().unwrap_or(0.0);
    let share = |n: usize| n as f64 >= 0.9 * pairs.len() as f64 && pairs.len() >= 3;
    // Where the column keeps every near miss apart, four in five will do:
    // some originals were moved since (a card dragged on a board).
    let most = |n: usize| share(n) || (every && pairs.len() >= 10 && n * 5 >= pairs.len() * 4);
    if let Some(unique) = unique_with {
        return Some((Rule::MintedPerAttempt, format!("{unique}: two rows equal on the rest never share it"), None));
    }
    if kind == ValueKind::Uuid {
        return Some((Rule::MintedPerAttempt, "a uuid each row mints".into(), None));
    }
    if kind == ValueKind::Integer {
        // Epoch times the create stamps (seconds or milliseconds), near each row's creation.
        for (unit, name) in [(1_000, "milliseconds"), (1_000_000, "seconds")] {
            let stamped = by_own_creation(pairs, j, unit, |offset| offset.abs() <= 5_000_000);
            if share(stamped) {
                return Some((
                    Rule::MintedPerAttempt,
                    format!(
                        "in {stamped} of {} sampled pairs each row's value, in epoch {name}, is within 5s of its own {}: \
                         a time the create stamps",
                        pairs.len(),
                        plan.time.name
                    ),
                    None,
                ));
            }
        }
    }
    // A number (an integer, or a position kept as a decimal or a float:
    // the largest so far plus a step) greater in the later row of nearly
    // every pair: a sequence, a counter or a position minted per write.
    let numeric = kind == ValueKind::Integer
        || (kind == ValueKind::Other
            && !pairs.is_empty()
            && pairs.iter().all(|p| decimal(&p.earlier[j]).is_some() && decimal(&p.later[j]).is_some()));
    if numeric {
        let greater = pairs
            .iter()
            .filter(|p| match (decimal(&p.earlier[j]), decimal(&p.later[j])) {
                (Some(a), Some(b)) => b > a,
                _ => false,
            })
            .count();
        // A sequence minted per write has about a value per row; a reference
        // to who wrote the row, shared by many rows, that happens to be
        // greater in the pairs seen is no sequence.
        let person = super::plan::names_a_person(&plan.carried[j].name);
        if most(greater) && (unique_with.is_some() || distinct >= 0.5 * rows || !person) {
            let example = pairs.first().map(|p| format!(" ({} then {})", shown(&p.earlier[j]), shown(&p.later[j])));
            return Some((
                Rule::MintedPerAttempt,
                format!(
                    "the later row's value is greater in {greater} of {} sampled pairs{}: a sequence or a counter",
                    pairs.len(),
                    example.unwrap_or_default()
                ),
                None,
            ));
        }
    }
    if kind == ValueKind::Integer && distinct >= 0.9 * rows {
        return Some((
            Rule::MintedPerAttempt,
            format!("values unique per row (about {distinct:.0} distinct in {rows:.0} rows)"),
            None,
        ));
    }
    if kind == ValueKind::Time {
        // A time the create stamps: within seconds of each row's own creation.
        let stamped = by_own_creation(pairs, j, 1, |offset| offset.abs() <= 5_000_000);
        if share(stamped) {
            return Some((
                Rule::MintedPerAttempt,
                format!(
                    "in {stamped} of {} sampled pairs each row's value is within 5s of its own {}: a time the create stamps",
                    pairs.len(),
                    plan.time.name
                ),
                None,
            ));
        }
        // A time a job fills for each row a moment after its creation (a
        // page archived, a file processed): each row's own, up to an hour on.
        let filled = by_own_creation(pairs, j, 1, |offset| (0..=3_600_000_000).contains(&offset));
        if share(filled) {
            return Some((
                Rule::MintedPerAttempt,
                format!(
                    "in {filled} of {} sampled pairs each row's value follows its own {} by up to an hour: a time \
                     filled for each row after its creation",
                    pairs.len(),
                    plan.time.name
                ),
                None,
            ));
        }
    }
    if matches!(kind, ValueKind::Text | ValueKind::Other)
        && let Some(evidence) = holds_own_id(j, pairs)
    {
        return Some((Rule::MintedPerAttempt, evidence, None));
    }
    if matches!(kind, ValueKind::Text | ValueKind::Other) {
        let minted_parts: Vec<(&str, &str)> = pairs
            .iter()
            .filter_map(|p| match (&p.earlier[j], &p.later[j]) {
                (Some(a), Some(b)) => minted_difference(a, b),
                _ => None,
            })
            .collect();
        // A reference to another row (a contact's uuid) differs by a token
        // between rows about two things; many rows share each value, where
        // a value minted per attempt is a row's own.
        let name = &plan.carried[j].name;
        let reference = plan.table.column(name).is_ok_and(|c| c.foreign) || name.to_lowercase().ends_with("id");
        if share(minted_parts.len()) && !(reference && distinct < 0.5 * rows) {
            let example = minted_parts.first().map(|(a, b)| format!(" ({a:?} then {b:?})")).unwrap_or_default();
            return Some((
                Rule::MintedPerAttempt,
                format!(
                    "in {} of {} sampled pairs the values differ by a generated token{example}",
                    minted_parts.len(),
                    pairs.len()
                ),
                None,
            ));
        }
    }
    // A code of random letters each write generates (an order's reference,
    // a booking code): every sampled value of one length, letters of one
    // case only, about a value per row, and vowels no more often than chance
    // gives them (5 in 26), where words hold about two in five.
    if matches!(kind, ValueKind::Text) && pairs.len() >= 3 && distinct >= 0.5 * rows {
        let values: Vec<&str> =
            pairs.iter().flat_map(|p| [&p.earlier[j], &p.later[j]]).flatten().map(String::as_str).collect();
        if let Some(example) = random_letters(&values) {
            return Some((
                Rule::MintedPerAttempt,
                format!(
                    "in {} sampled pairs every value is {} random letters ({example}): a code each write generates",
                    pairs.len(),
                    example.len()
                ),
                None,
            ));
        }
    }
    // A value made unique from another column by each write (a slug from
    // its title): where the first is free it is taken as it is, and the
    // next write of the same title appends a separator and a short suffix
    // (`-2`, `-0Eu`). It carries nothing the request did not carry elsewhere.
    if matches!(kind, ValueKind::Text) {
        let suffixed: Vec<(&str, &str)> = pairs
            .iter()
            .filter_map(|p| match (&p.earlier[j], &p.later[j]) {
                (Some(a), Some(b)) => uniquified(a, b).then_some((a.as_str(), b.as_str())),
                _ => None,
            })
            .collect();
        if most(suffixed.len()) {
            let example = suffixed.first().map(|(a, b)| format!(" ({a:?} then {b:?})")).unwrap_or_default();
            return Some((
                Rule::MintedPerAttempt,
                format!(
                    "in {} of {} sampled pairs one value is the other's with a suffix, or both one stem's{example}: \
                     made unique for each write (a slug from its title)",
                    suffixed.len(),
                    pairs.len()
                ),
                None,
            ));
        }
    }
    // A numbered text (an order's `S00042`, an asset tag, the next free
    // address, a thread's or a position's code) whose number is greater in
    // the later row of nearly every pair, one value per row or nearly (or a
    // number per parent, a thread's next reply, where it keeps every near
    // miss apart): the next of a sequence, or the next free one, taken by
    // each attempt.
    if matches!(kind, ValueKind::Text | ValueKind::Other) && (distinct >= 0.5 * rows || every) {
        let numbered: Vec<(&str, &str)> = pairs
            .iter()
            .filter_map(|p| match (&p.earlier[j], &p.later[j]) {
                (Some(a), Some(b)) => (next_number(a, b) == Some(true)).then_some((a.as_str(), b.as_str())),
                _ => None,
            })
            .collect();
        if most(numbered.len()) {
            let example = numbered.first().map(|(a, b)| format!(" ({a:?} then {b:?})")).unwrap_or_default();
            return Some((
                Rule::MintedPerAttempt,
                format!(
                    "in {} of {} sampled pairs the later row holds a greater number or a later code in the same \
                     text{example}: the next of a sequence, or the next free one",
                    numbered.len(),
                    pairs.len()
                ),
                None,
            ));
        }
    }
    // The later row's create path changed the earlier one: it was updated
    // when the later row was created, and holds one value in nearly all pairs.
    let touched = pairs
        .iter()
        .filter(|p| match (p.earlier_updated_us, p.later_created_us) {
            (Some(updated), Some(created)) => updated >= created - 1_000_000,
            _ => false,
        })
        .count();
    let mut earlier_values: FxHashMap<Option<String>, usize> = FxHashMap::default();
    for p in pairs {
        *earlier_values.entry(p.earlier[j].clone()).or_default() += 1;
    }
    let (value, same) = earlier_values.into_iter().max_by_key(|(_, n)| *n).unwrap_or_default();
    if share(touched) && share(same) {
        let update = plan.update_time.as_deref().unwrap_or("its update time");
        return Some((
            Rule::RewrittenOriginal,
            format!(
                "the later row's create rewrote the earlier one: in {touched} of {} sampled pairs the earlier row's \
                 {update} is the later row's creation, and it holds {}",
                pairs.len(),
                shown(&value)
            ),
            value,
        ));
    }
    None
}

/// The sampled pairs in which both rows' values, read as times (`unit`
/// microseconds to a step), stand to each row's own creation as `fits`
/// says of their offset in microseconds.
fn by_own_creation(pairs: &[&PairValues], j: usize, unit: i128, fits: impl Fn(i128) -> bool) -> usize {
    let fits = |value: &Option<String>, created: Option<i64>| match (number(value), created) {
        (Some(v), Some(c)) => fits(v.saturating_mul(unit) - i128::from(c)),
        _ => false,
    };
    pairs.iter().filter(|p| fits(&p.later[j], p.later_created_us) && fits(&p.earlier[j], p.earlier_created_us)).count()
}

fn decimal(value: &Option<String>) -> Option<f64> {
    value.as_deref().and_then(|v| v.trim().parse::<f64>().ok()).filter(|v| v.is_finite())
}

fn number(value: &Option<String>) -> Option<i128> {
    value.as_deref()?.trim().parse().ok()
}

fn shown(value: &Option<String>) -> String {
    match value {
        Some(v) if v.chars().count() > 40 => format!("{:?}", v.chars().take(40).collect::<String>() + "…"),
        Some(v) => format!("{v:?}"),
        None => "NULL".into(),
    }
}

/// Whether `b` is `a` with a greater number: the same text around the
/// digits, and the first run of digits that differs holds a greater number
/// in `b`; or, where the two differ in a short code of letters and digits,
/// whether `b`'s sorts after. `None` where the two are not one text
/// numbered twice.
pub fn next_number(a: &str, b: &str) -> Option<bool> {
    fn runs(s: &str) -> (Vec<&str>, Vec<&str>) {
        let (mut text, mut digits) = (Vec::new(), Vec::new());
        let mut rest = s;
        while !rest.is_empty() {
            let digit = rest.starts_with(|c: char| c.is_ascii_digit());
            let end = rest.find(|c: char| c.is_ascii_digit() != digit).unwrap_or(rest.len());
            if digit {
                digits.push(&rest[..end])
            } else {
                text.push(&rest[..end])
            }
            rest = &rest[end..];
        }
        (text, digits)
    }
    // A date or a time kept as text is no number taken next.
    let dated = |s: &str| {
        let b = s.as_bytes();
        b.len() >= 10 && b[4] == b'-' && b[7] == b'-' && [0, 1, 2, 3, 5, 6, 8, 9].iter().all(|&i| b[i].is_ascii_digit())
    };
    if dated(a) || dated(b) {
        return None;
    }
    if a == b {
        return None;
    }
    let ((text_a, digits_a), (text_b, digits_b)) = (runs(a), runs(b));
    if text_a != text_b || digits_a.len() != digits_b.len() {
        return next_in_order(a, b);
    }
    let value = |d: &str| d.trim_start_matches('0').to_owned();
    let (x, y) = digits_a.iter().zip(&digits_b).map(|(x, y)| (value(x), value(y))).find(|(x, y)| x != y)?;
    Some((y.len(), y.as_str()) > (x.len(), x.as_str()))
}

/// Where two texts differ in a short run of letters and digits only, the
/// same text around it: whether `b`'s run sorts after `a`'s. A position or a
/// thread code minted as the next in order (Drupal's vancode `0b/` then
/// `0c/`, fractional indexing's `a0` then `a1`, a rank's `hzzzzz`).
fn next_in_order(a: &str, b: &str) -> Option<bool> {
    let (x, y) = differing(a, b);
    let code = |s: &str| (1..=8).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric());
    (code(x) && code(y)).then(|| y > x)
}

/// What is left of two texts once their common start and end are taken away.
fn differing<'a>(a: &'a str, b: &'a str) -> (&'a str, &'a str) {
    let prefix = a
        .char_indices()
        .zip(b.chars())
        .take_while(|((_, x), y)| x == y)
        .last()
        .map_or(0, |((i, c), _)| i + c.len_utf8());
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    let suffix =
        ra.chars().rev().zip(rb.chars().rev()).take_while(|(x, y)| x == y).map(|(c, _)| c.len_utf8()).sum::<usize>();
    (&ra[..ra.len() - suffix], &rb[..rb.len() - suffix])
}

/// A value that reads as a generated token: no spaces, at least six
/// characters, and letters mixed with digits, or (ten characters and more)
/// lower and upper case mixed as no word is (`hPXkfQzfxRBr`, not
/// `HelloWorld`): a uuid, a hex, base-58 or base-62 id, a provider's
/// `pi_3N...` reference.
pub fn token_like(value: &str) -> bool {
    let has = |f: fn(&char) -> bool| value.chars().any(|c| f(&c));
    let letters: Vec<bool> = value.chars().filter(char::is_ascii_alphabetic).map(|c| c.is_ascii_uppercase()).collect();
    let flips = letters.windows(2).filter(|w| w[0] != w[1]).count();
    let len = value.chars().count();
    len >= 6
        && !has(|c| c.is_whitespace())
        && ((has(char::is_ascii_digit) && has(char::is_ascii_alphabetic)) || (len >= 10 && flips * 3 > len))
}

/// Where two values differ only by a generated token (a uuid, an id, a
/// provider's reference, inside a URL or a JSON document as well), the two
/// tokens: what is left once their common start and end are taken away.
pub fn minted_difference<'a>(a: &'a str, b: &'a str) -> Option<(&'a str, &'a str)> {
    let (ca, cb) = differing(a, b);
    // A token cut at a shared first character still reads whole enough.
    (token_like(ca) && token_like(cb)).then_some((ca, cb))
}

/// Whether the values are codes of random letters: all of one length (six
/// or more), letters of one case only, different, and vowels at most a
/// quarter of their letters (chance gives 5 in 26; words about two in five).
/// The first value, if so.
pub fn random_letters<'a>(values: &[&'a str]) -> Option<&'a str> {
    let first = *values.first()?;
    let len = first.len();
    let one_case = |v: &str| v.chars().all(|c| c.is_ascii_uppercase()) || v.chars().all(|c| c.is_ascii_lowercase());
    if len < 6 || values.len() < 6 || !values.iter().all(|v| v.len() == len && one_case(v)) {
        return None;
    }
    let mut distinct = values.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let vowels = values.iter().flat_map(|v| v.chars()).filter(|c| "aeiouAEIOU".contains(*c)).count();
    (distinct.len() * 4 >= values.len() * 3 && vowels * 4 <= len * values.len()).then_some(first)
}

/// Whether two values are one stem made unique by a suffix: one is the
/// other with `-` or `_` and a suffix after it (up to eight letters or
/// digits, not a lower-case word: a digit or a capital in it), or both are
/// the same stem (three characters or more) with two suffixes of up to eight
/// letters or digits, one of them such. No spaces: a slug, a handle, a file
/// name.
pub fn uniquified(a: &str, b: &str) -> bool {
    let short = |s: &str| (1..=8).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric());
    // Not a lower-case word: a number, or capitals (`0Eu`, `GvV`, `COP`).
    let token = |s: &str| short(s) && s.chars().any(|c| c.is_ascii_digit() || c.is_ascii_uppercase());
    let suffix_of =
        |long: &str, stem: &str| long.strip_prefix(stem).and_then(|r| r.strip_prefix(['-', '_'])).is_some_and(token);
    fn split(v: &str) -> Option<(&str, &str)> {
        v.rfind(['-', '_']).map(|i| (&v[..i], &v[i + 1..]))
    }
    if a == b || a.len() < 3 || b.len() < 3 || a.contains(char::is_whitespace) || b.contains(char::is_whitespace) {
        return false;
    }
    suffix_of(b, a)
        || suffix_of(a, b)
        || matches!((split(a), split(b)), (Some((sa, xa)), Some((sb, xb)))
            if sa == sb && sa.len() >= 3 && short(xa) && short(xb) && (token(xa) || token(xb)))
}

/// Whether `edited` is the text `created` with an edit: four words or more
/// as created, and nine in ten of them (as many times) still there, among at
/// most as many words again (a line added, a typo fixed: "Edit: typo").
/// Two messages someone wrote share far fewer.
pub fn edited(created: &str, edited: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let (before, after) = (words(created), words(edited));
    if created == edited || before.len() < 4 || after.len() > 2 * before.len() {
        return false;
    }
    let mut left: FxHashMap<&str, usize> = FxHashMap::default();
    for w in &after {
        *left.entry(w).or_default() += 1;
    }
    let kept = before
        .iter()
        .filter(|w| match left.get_mut(w.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .count();
    kept * 10 >= before.len() * 9
}

/// How near its own row's creation a time stamped into a document is: up
/// to 5 s after it, and before it by up to what the create may take when it
/// fetches something first (a page, a remote answer: a client's timeout).
const STAMPED_WITHIN_US: i64 = 5_000_000;
const STAMPED_BEFORE_US: i64 = 60_000_000;

/// Parts holding letters or digits a document has besides its times.
const DOCUMENT_PARTS: usize = 3;

/// Whether two documents (an iCalendar or vCard entry, a JSON or XML body)
/// differ only where each holds what its own attempt stamped into it: a
/// generated token (its uuid, an id), and times near its own row's creation
/// (`created`: each row's, in µs; see `STAMPED_BEFORE_US`). Everything else
/// is the same, and something differs.
pub fn restamped(a: &str, b: &str, created: (i64, i64)) -> bool {
    if a == b {
        return false;
    }
    let ((ma, ta), (mb, tb)) = (mask_times(a), mask_times(b));
    if ta.len() != tb.len() {
        return false;
    }
    let own = |t: i64, c: i64| (-STAMPED_BEFORE_US..=STAMPED_WITHIN_US).contains(&(t - c));
    let mut stamps = 0;
    for (x, y) in ta.iter().zip(&tb) {
        let stamped = own(*x, created.0) && own(*y, created.1);
        if x != y && !stamped {
            return false;
        }
        stamps += usize::from(stamped);
    }
    // Tokens alone may be references to two other things (two contacts):
    // a time each attempt stamped is what tells a document saved twice
    // (equal where the two were created within the same second).
    if stamps == 0 {
        return false;
    }
    let separator = |c: char| c.is_whitespace() || (c.is_ascii_punctuation() && c != '-' && c != '_');
    if !ma.chars().filter(|c| separator(*c)).eq(mb.chars().filter(|c| separator(*c))) {
        return false;
    }
    let (pa, pb): (Vec<&str>, Vec<&str>) = (ma.split(separator).collect(), mb.split(separator).collect());
    // A document: words besides its stamps. A time alone, or a time and a
    // word, may be when the thing happened, which a retry copies.
    if pa.iter().filter(|p| p.chars().any(char::is_alphanumeric)).count() < DOCUMENT_PARTS {
        return false;
    }
    pa.iter().zip(&pb).all(|(x, y)| x == y || minted_difference(x, y).is_some())
}

/// A text with each time written in it (`2026-06-20T18:37:21Z`,
/// `2026-06-20 18:37:21.5`, iCalendar's `20260620T183721Z`, HTTP's and
/// mail's `Sat, 20 Jun 2026 18:37:21 GMT`, an epoch in seconds or
/// milliseconds of this century) replaced by a mark, and the times in µs,
/// in order.
fn mask_times(text: &str) -> (String, Vec<i64>) {
    const FORMATS: [&str; 3] = ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y%m%dT%H%M%S"];
    let (mut masked, mut times) = (String::with_capacity(text.len()), Vec::new());
    let mut rest = text;
    let mut after_digit = false;
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_digit() && !after_digit {
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            let parsed = FORMATS
                .iter()
                .find_map(|f| chrono::NaiveDateTime::parse_and_remainder(rest, f).ok())
                .map(|(t, left)| (t.and_utc().timestamp_micros(), left))
                .or_else(|| {
                    let n: i64 = rest[..digits].parse().ok()?;
                    let us = match digits {
                        10 => n.checked_mul(1_000_000)?,
                        13 => n.checked_mul(1_000)?,
                        _ => return None,
                    };
                    // 2001 to 2100.
                    (978_307_200_000_000..4_133_980_800_000_000).contains(&us).then_some((us, &rest[digits..]))
                });
            if let Some((us, left)) = parsed {
                times.push(us);
                masked.push('\u{1}');
                rest = left;
                after_digit = false;
                continue;
            }
        }
        if c.is_ascii_uppercase()
            && !after_digit
            && let Some((us, left)) = http_date(rest)
        {
            times.push(us);
            masked.push('\u{1}');
            rest = left;
            continue;
        }
        masked.push(c);
        after_digit = c.is_ascii_alphanumeric();
        rest = &rest[c.len_utf8()..];
    }
    (masked, times)
}

/// A time as HTTP and mail headers write it (RFC 9110's IMF-fixdate, RFC
/// 5322's date with a numeric zone), in µs, and the text after it.
fn http_date(text: &str) -> Option<(i64, &str)> {
    if let Ok((t, left)) = chrono::DateTime::parse_and_remainder(text, "%a, %d %b %Y %H:%M:%S %z") {
        return Some((t.timestamp_micros(), left));
    }
    let (t, left) = chrono::NaiveDateTime::parse_and_remainder(text, "%a, %d %b %Y %H:%M:%S").ok()?;
    let left = left.strip_prefix(" GMT").or_else(|| left.strip_prefix(" UTC"))?;
    Some((t.and_utc().timestamp_micros(), left))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Engine;
    use crate::db::catalog::{Column, Table};

    /// One carried column `name` of `kind` (`ty` in the catalog), the
    /// created-at column beside it.
    fn one_column(name: &str, ty: &str, kind: ValueKind) -> Plan {
        let columns = vec![Column::of("id", "bigint"), Column::of(name, ty), Column::of("created_at", "timestamp")];
        let table = Table::of(Engine::Postgres, "t", columns, &["id"]);
        let carried = vec![super::super::plan::Carried { name: name.into(), kind, unique_with: None }];
        Plan::of(table, "created_at", carried)
    }

    /// Near-miss pairs of column 0, one per (earlier, later) value, created
    /// a second apart.
    fn pairs_of(values: &[(&str, &str)]) -> Vec<PairValues> {
        values
            .iter()
            .enumerate()
            .map(|(i, (a, b))| PairValues {
                differing: vec![0],
                earlier_id: format!("{}", 2 * i + 1),
                later_id: format!("{}", 2 * i + 2),
                earlier: vec![Some(a.to_string())],
                later: vec![Some(b.to_string())],
                earlier_created_us: Some(i as i64 * 600_000_000),
                later_created_us: Some(i as i64 * 600_000_000 + 1_000_000),
                ..Default::default()
            })
            .collect()
    }

    /// What `minted` decides of column 0 over `pairs`, the column holding
    /// `distinct` values in 1,000 rows; `every`: it keeps every near miss apart.
    fn decide(plan: &Plan, pairs: &[PairValues], distinct: f64, every: bool) -> Option<String> {
        let facts = Facts { rows: 1_000, distinct: &[distinct], pairs };
        let refs: Vec<&PairValues> = pairs.iter().collect();
        let kind = plan.carried[0].kind;
        minted(kind, None, (0, every), &refs, &facts, plan).map(|(_, evidence, _)| evidence)
    }

    /// A number greater in the later row: nine pairs in ten are a sequence,
    /// eight are not, unless the column keeps every near miss apart and ten
    /// pairs or more were sampled (then four in five); three pairs at least.
    #[test]
    fn a_sequence_by_its_share_of_pairs() {
        let plan = one_column("position", "integer", ValueKind::Integer);
        let greater = |n: usize, of: usize| -> Vec<PairValues> {
            let values: Vec<(String, String)> = (0..of)
                .map(|i| {
                    let a = (100 + 10 * i) as i64;
                    (a.to_string(), if i < n { a + 1 } else { a - 1 }.to_string())
                })
                .collect();
            let refs: Vec<(&str, &str)> = values.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
            pairs_of(&refs)
        };
        let sequence = |p: &[PairValues], every| decide(&plan, p, 300.0, every);
        assert!(sequence(&greater(9, 10), false).is_some_and(|e| e.contains("greater in 9 of 10")));
        assert_eq!(sequence(&greater(8, 10), false), None);
        assert!(sequence(&greater(8, 10), true).is_some(), "four in five where it keeps every near miss apart");
        assert_eq!(sequence(&greater(7, 9), true), None, "fewer than ten pairs: nine in ten still");
        assert_eq!(sequence(&greater(7, 10), true), None, "fewer than four in five");
        assert_eq!(sequence(&greater(2, 2), false), None, "two pairs are no evidence");
        assert!(sequence(&greater(3, 3), false).is_some());
        // Equal values are not greater.
        assert_eq!(sequence(&pairs_of(&[("5", "5"), ("6", "6"), ("7", "7")]), false), None);
        // A position kept as a decimal, every value a number.
        let decimal = one_column("sort", "numeric", ValueKind::Other);
        let steps = pairs_of(&[("1.5", "2.5"), ("4", "5.25"), ("7.5", "8")]);
        assert!(decide(&decimal, &steps, 300.0, false).is_some());
        let mixed = pairs_of(&[("1.5", "2.5"), ("4", "5.25"), ("7.5", "x8")]);
        assert_eq!(decide(&decimal, &mixed, 300.0, false), None, "not every value a number");
        // Nine greater in ten, the tenth not a number on one side: no
        // position kept as a decimal.
        let mut values: Vec<(String, String)> = (0..9).map(|i| (format!("{i}.5"), format!("{i}.75"))).collect();
        values.push(("n/a".into(), "9".into()));
        let refs: Vec<(&str, &str)> = values.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        assert_eq!(decide(&decimal, &pairs_of(&refs), 300.0, false), None);
        values[9] = ("9".into(), "n/a".into());
        let refs: Vec<(&str, &str)> = values.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        assert_eq!(decide(&decimal, &pairs_of(&refs), 300.0, false), None);
        // Text holding numbers is not read as one.
        let text = one_column("code", "text", ValueKind::Text);
        assert_eq!(decide(&text, &pairs_of(&[("3", "7"), ("2", "9"), ("4", "5")]), 10.0, false), None);
    }

    /// Who wrote the row, greater in the later one by chance, is no
    /// sequence where many rows share each value; about a value per row
    /// (half the rows at least), it is one whatever its name.
    #[test]
    fn a_person_is_no_sequence_unless_about_a_value_per_row() {
        let plan = one_column("created_by", "integer", ValueKind::Integer);
        let pairs = pairs_of(&[("3", "7"), ("2", "9"), ("4", "5")]);
        assert_eq!(decide(&plan, &pairs, 40.0, false), None);
        assert_eq!(decide(&plan, &pairs, 499.0, false), None);
        assert!(decide(&plan, &pairs, 500.0, false).is_some_and(|e| e.contains("sequence")));
        // Values unique per row: nine rows in ten hold their own.
        let down = pairs_of(&[("9", "3"), ("8", "2"), ("7", "1")]);
        assert_eq!(decide(&plan, &down, 899.0, false), None);
        assert!(decide(&plan, &down, 900.0, false).is_some_and(|e| e.contains("unique per row")));
    }

    /// Values that differ by a generated token are minted, unless the column
    /// is a reference (named as one) shared by many rows: two contacts.
    #[test]
    fn a_token_unless_a_shared_reference() {
        let token = [("ord_9f8e7d6c5b4a", "ord_1a2b3c4d5e6f"), ("ord_0a9b8c7d6e5f", "ord_5f4e3d2c1b0a")];
        let three = pairs_of(&[token[0], token[1], ("ord_a1b2c3d4e5f6", "ord_f6e5d4c3b2a1")]);
        let plain = one_column("reference", "text", ValueKind::Text);
        assert!(decide(&plain, &three, 10.0, false).is_some_and(|e| e.contains("generated token")));
        assert_eq!(decide(&plain, &pairs_of(&token), 10.0, false), None, "two pairs");
        let reference = one_column("contact_id", "text", ValueKind::Text);
        assert_eq!(decide(&reference, &three, 499.0, false), None);
        assert!(decide(&reference, &three, 500.0, false).is_some());
        // Nine in ten.
        let mut ten: Vec<(&str, &str)> = vec![token[0]; 9];
        ten.push(("ord_same", "ord_other_thing"));
        assert!(decide(&plain, &pairs_of(&ten), 10.0, false).is_some());
        ten[8] = ("ord_same", "ord_other_thing");
        assert_eq!(decide(&plain, &pairs_of(&ten), 10.0, false), None);
    }

    /// Times the create stamps: an epoch (seconds or milliseconds) or a
    /// time column within 5 s of each row's own creation, before or after;
    /// a time filled up to an hour after it; anything further is no stamp.
    #[test]
    fn times_each_create_stamps() {
        // Pairs created a second apart (at 0 and 1 s, 600 s on per pair);
        // each value is its own row's creation plus `offset` (µs), the
        // later row's lower than the earlier's so no sequence explains it.
        let stamped = |scale: i64, early: i64, late: i64| -> Vec<PairValues> {
            let mut pairs = pairs_of(&[("", ""); 3]);
            for p in &mut pairs {
                let (a, b) = (p.earlier_created_us.unwrap() + early, p.later_created_us.unwrap() + late);
                p.earlier[0] = Some((1_767_225_600_000_000 / scale + a / scale).to_string());
                p.later[0] = Some((1_767_225_600_000_000 / scale + b / scale).to_string());
                p.earlier_created_us = Some(1_767_225_600_000_000 + p.earlier_created_us.unwrap());
                p.later_created_us = Some(1_767_225_600_000_000 + p.later_created_us.unwrap());
            }
            pairs
        };
        let epoch = one_column("sent_ts", "bigint", ValueKind::Integer);
        let seconds = decide(&epoch, &stamped(1_000_000, 4_000_000, -3_000_000), 10.0, false);
        assert!(seconds.is_some_and(|e| e.contains("in epoch seconds")), "seconds");
        let millis = decide(&epoch, &stamped(1_000, 4_000_000, -3_000_000), 10.0, false);
        assert!(millis.is_some_and(|e| e.contains("in epoch milliseconds")), "milliseconds");
        assert_eq!(decide(&epoch, &stamped(1_000_000, 9_000_000, -3_000_000), 10.0, false), None, "9 s off");
        let time = one_column("sent_at", "timestamp", ValueKind::Time);
        let at = |early, late| decide(&time, &stamped(1, early, late), 10.0, false);
        assert!(at(5_000_000, -5_000_000).is_some_and(|e| e.contains("within 5s of its own created_at")));
        assert!(at(5_000_001, 3_000_000).is_some_and(|e| e.contains("follows its own created_at by up to an hour")));
        assert_eq!(at(-5_000_001, 3_000_000), None, "before its creation by more than 5 s");
        assert_eq!(at(3_600_000_001, 3_000_000), None, "more than an hour on");
    }

    /// A slug made unique by each write: the same stem, one with a suffix.
    #[test]
    fn a_slug_made_unique_by_each_write() {
        let plan = one_column("slug", "varchar(191)", ValueKind::Text);
        let slugs = pairs_of(&[("release-notes", "release-notes-2"), ("team-wiki", "team-wiki-3"), ("faq", "faq-2")]);
        assert!(decide(&plan, &slugs, 10.0, false).is_some_and(|e| e.contains("with a suffix")));
        let words = pairs_of(&[("release-notes", "release-draft"), ("team-wiki", "team-docs"), ("faq", "faq-old")]);
        assert_eq!(decide(&plan, &words, 10.0, false), None);
    }

    /// The later row's create rewrote the earlier one: its update time is
    /// the later row's creation (a second before at most) in nine pairs in
    /// ten, and it holds one value there; an earlier row untouched since,
    /// or holding values of its own, is no rewrite.
    #[test]
    fn an_original_the_retry_rewrote() {
        let plan = one_column("state", "text", ValueKind::Text);
        let rewritten = |updated_before_us: i64, values: [&str; 3]| -> Option<(Rule, Option<String>)> {
            let mut pairs = pairs_of(&[(values[0], "open"), (values[1], "open"), (values[2], "open")]);
            for p in &mut pairs {
                p.earlier_updated_us = Some(p.later_created_us.unwrap() - updated_before_us);
            }
            let facts = Facts { rows: 1_000, distinct: &[3.0], pairs: &pairs };
            let refs: Vec<&PairValues> = pairs.iter().collect();
            minted(ValueKind::Text, None, (0, false), &refs, &facts, &plan).map(|(rule, _, value)| (rule, value))
        };
        let merged = ["merged"; 3];
        assert_eq!(rewritten(1_000_000, merged), Some((Rule::RewrittenOriginal, Some("merged".into()))));
        assert_eq!(rewritten(1_000_001, merged), None, "updated before the later row was created");
        assert_eq!(rewritten(3_600_000_000, merged), None, "untouched since long before");
        assert_eq!(rewritten(0, ["merged", "closed", "spam"]), None, "no one value");
    }

    /// The counts a round holds: `near` near-miss rows, and per carried
    /// column the rows it keeps apart.
    fn counts(near: u64, differs: &[u64]) -> Stats {
        Stats { rows: 1_000, near_rows: near, differs: differs.to_vec(), ..Default::default() }
    }

    fn excluded(changes: &[Change]) -> Vec<(usize, Rule)> {
        changes
            .iter()
            .filter_map(|c| match c {
                Change::Exclude { column, rule, .. } => Some((*column, *rule)),
                Change::PutBack { .. } => None,
            })
            .collect()
    }

    /// A column is looked at where it keeps seven near misses in ten apart
    /// (five where a unique index forces it to differ), five near misses at
    /// least; and minted where its values say so.
    #[test]
    fn verdicts_weigh_the_share_of_near_misses() {
        let plan = one_column("token", "uuid", ValueKind::Uuid);
        let pairs = pairs_of(&[("a", "b"); 3]);
        let facts = Facts { rows: 1_000, distinct: &[900.0], pairs: &pairs };
        let verdict = |plan: &Plan, near, differs| excluded(&verdicts(plan, &counts(near, &[differs]), &facts));
        assert_eq!(verdict(&plan, 10, 7), vec![(0, Rule::MintedPerAttempt)]);
        assert_eq!(verdict(&plan, 10, 6), vec![]);
        assert_eq!(verdict(&plan, 4, 4), vec![], "four near misses are too few");
        assert_eq!(verdict(&plan, 5, 5), vec![(0, Rule::MintedPerAttempt)]);
        let mut unique = one_column("token", "uuid", ValueKind::Uuid);
        unique.carried[0].unique_with = Some("index t_token".into());
        assert_eq!(verdict(&unique, 10, 5), vec![(0, Rule::MintedPerAttempt)]);
        assert_eq!(verdict(&unique, 10, 4), vec![]);
        // Text differing by a token, not built from the row's own id: seven
        // in ten still.
        let tokens = pairs_of(&[
            ("ord_9f8e7d6c5b4a", "ord_1a2b3c4d5e6f"),
            ("ord_0a9b8c7d6e5f", "ord_5f4e3d2c1b0a"),
            ("ord_a1b2c3d4e5f6", "ord_f6e5d4c3b2a1"),
        ]);
        let text = one_column("reference", "text", ValueKind::Text);
        let facts_text = Facts { rows: 1_000, distinct: &[900.0], pairs: &tokens };
        let by_text = |differs| excluded(&verdicts(&text, &counts(10, &[differs]), &facts_text));
        assert_eq!(by_text(7), vec![(0, Rule::MintedPerAttempt)]);
        assert_eq!(by_text(6), vec![]);
        let mut off = one_column("token", "uuid", ValueKind::Uuid);
        off.compared[0] = false;
        assert_eq!(verdict(&off, 10, 10), vec![], "a column left out already");
        // Keeping every near miss apart (19 in 20) lets four pairs in five
        // of ten or more show a sequence; 18 in 20 does not.
        let position = one_column("position", "integer", ValueKind::Integer);
        let values: Vec<(String, String)> = (0..10)
            .map(|i| (format!("{}", 10 * i), format!("{}", if i < 8 { 10 * i + 1 } else { 10 * i - 1 })))
            .collect();
        let refs: Vec<(&str, &str)> = values.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let pairs = pairs_of(&refs);
        let facts = Facts { rows: 1_000, distinct: &[300.0], pairs: &pairs };
        let verdict = |near, differs| excluded(&verdicts(&position, &counts(near, &[differs]), &facts));
        assert_eq!(verdict(20, 19), vec![(0, Rule::MintedPerAttempt)]);
        assert_eq!(verdict(20, 18), vec![]);
    }

    /// A flag or a number one row of the pair still holds as a new row
    /// starts it while the other has moved on: changed after creation, where
    /// it keeps a fifth of the near misses apart and in four sampled pairs in
    /// five (of five at least) one row holds the initial value.
    #[test]
    fn verdicts_tell_a_value_changed_after_creation() {
        let plan = one_column("archived", "integer", ValueKind::Integer);
        let verdict = |values: &[(&str, &str)], near, differs| {
            let pairs = pairs_of(values);
            let facts = Facts { rows: 1_000, distinct: &[2.0], pairs: &pairs };
            excluded(&verdicts(&plan, &counts(near, &[differs]), &facts))
        };
        let moved = [("1", "0"), ("0", "1"), ("1", "0"), ("1", "0"), ("2", "0")];
        assert_eq!(verdict(&moved, 10, 2), vec![(0, Rule::ChangedAfterCreation)]);
        assert_eq!(verdict(&moved, 10, 1), vec![], "a tenth of the near misses");
        assert_eq!(verdict(&moved[..4], 10, 2), vec![], "four sampled pairs");
        let mut five = moved.to_vec();
        five[4] = ("2", "3");
        assert_eq!(verdict(&five, 10, 2), vec![(0, Rule::ChangedAfterCreation)], "the greater in the earlier row");
        let mut four = five.clone();
        four[3] = ("3", "4");
        let mut five_more = four.clone();
        five_more.extend([("1", "0"); 5]);
        assert_eq!(verdict(&five_more, 10, 2), vec![(0, Rule::ChangedAfterCreation)], "eight in ten");
        assert_eq!(verdict(&four, 10, 2), vec![], "three in five");
        // Text is never taken for a state.
        let text = one_column("archived", "text", ValueKind::Text);
        let pairs = pairs_of(&moved);
        let facts = Facts { rows: 1_000, distinct: &[2.0], pairs: &pairs };
        assert_eq!(excluded(&verdicts(&text, &counts(10, &[2]), &facts)), vec![]);
    }

    /// The rest of what tells a change after creation: five near misses at
    /// least; a column already left out is decided once; a number that
    /// only grew (never a reference); a time stamped after the row's creation
    /// by its last update; a value only rows updated since hold.
    #[test]
    fn verdicts_tell_growth_and_later_stamps() {
        let verdict = |plan: &Plan, pairs: &[PairValues], near, differs, distinct: f64| {
            let facts = Facts { rows: 1_000, distinct: &[distinct], pairs };
            excluded(&verdicts(plan, &counts(near, &[differs]), &facts))
        };
        let archived = one_column("archived", "integer", ValueKind::Integer);
        let moved = pairs_of(&[("1", "0"), ("0", "1"), ("1", "0"), ("1", "0"), ("1", "0")]);
        assert_eq!(verdict(&archived, &moved, 4, 4, 2.0), vec![], "four near misses");
        assert_eq!(verdict(&archived, &moved, 5, 1, 2.0), vec![(0, Rule::ChangedAfterCreation)]);
        assert_eq!(verdict(&archived, &moved, 10, 10, 900.0), vec![(0, Rule::MintedPerAttempt)], "decided once");
        // Grown in the earlier row: a version, not a reference to a row.
        let grown = pairs_of(&[("3", "2"); 5]);
        let version = one_column("lock_version", "integer", ValueKind::Integer);
        assert_eq!(verdict(&version, &grown, 10, 2, 20.0), vec![(0, Rule::ChangedAfterCreation)]);
        let reference = one_column("project_id", "integer", ValueKind::Integer);
        assert_eq!(verdict(&reference, &grown, 10, 2, 20.0), vec![]);
        let decimal = one_column("lock_version", "numeric", ValueKind::Other);
        assert_eq!(verdict(&decimal, &grown, 10, 2, 20.0), vec![], "only an integer grows");
        // A time each row got an hour after its creation, by its last update.
        let hour = 3_600_000_000_i64;
        let timed = |pairs: &mut Vec<PairValues>| {
            for p in pairs.iter_mut() {
                p.earlier_updated_us = p.earlier_created_us.map(|c| c + hour);
                p.later_updated_us = p.later_created_us.map(|c| c + hour);
            }
        };
        let mut closed = pairs_of(&[("", ""); 5]);
        timed(&mut closed);
        for p in &mut closed {
            p.earlier[0] = p.earlier_created_us.map(|c| (c + hour / 2).to_string());
            p.later[0] = p.later_created_us.map(|c| (c + hour / 3).to_string());
        }
        let closed_at = one_column("closed_at", "timestamp", ValueKind::Time);
        assert_eq!(verdict(&closed_at, &closed, 10, 2, 900.0), vec![(0, Rule::ChangedAfterCreation)]);
        assert_eq!(verdict(&closed_at, &closed[..2], 10, 2, 900.0), vec![], "two pairs");
        let closed_on = one_column("closer_id", "integer", ValueKind::Integer);
        assert_eq!(verdict(&closed_on, &closed, 10, 2, 900.0), vec![], "no time");
        // Set only in rows updated since: ten pairs whose later row is as
        // created (0) and the earlier worked on (7), five both worked on.
        let mut assigned = pairs_of(&[("7", "0"); 15]);
        timed(&mut assigned);
        for p in &mut assigned[..10] {
            p.later_updated_us = p.later_created_us;
        }
        for p in &mut assigned[10..] {
            p.later[0] = Some("9".into());
        }
        let assignee = one_column("assignee_id", "integer", ValueKind::Integer);
        assert_eq!(verdict(&assignee, &assigned, 30, 15, 20.0), vec![(0, Rule::ChangedAfterCreation)]);
        assert_eq!(verdict(&assignee, &assigned[..2], 30, 15, 20.0), vec![], "two pairs");
        let mut fewer = assigned.clone();
        for p in &mut fewer[5..10] {
            p.later[0] = Some("9".into());
        }
        assert_eq!(verdict(&assignee, &fewer, 30, 15, 20.0), vec![], "a third moved at most");
    }

    /// Two columns decided in one round: each change names its own column.
    #[test]
    fn verdicts_name_each_column() {
        use super::super::plan::Carried;
        let columns = ["id", "archived", "token", "created_at"].map(|c| Column::of(c, "integer"));
        let table = Table::of(Engine::Postgres, "t", columns.to_vec(), &["id"]);
        let carried = vec![
            Carried { name: "archived".into(), kind: ValueKind::Integer, unique_with: None },
            Carried { name: "token".into(), kind: ValueKind::Uuid, unique_with: None },
        ];
        let plan = Plan::of(table, "created_at", carried);
        let mut pairs = pairs_of(&[("1", "0"), ("0", "1"), ("1", "0"), ("1", "0"), ("1", "0")]);
        for p in &mut pairs {
            p.differing = vec![0, 1];
            p.earlier.push(Some("a".into()));
            p.later.push(Some("b".into()));
        }
        let facts = Facts { rows: 1_000, distinct: &[2.0, 900.0], pairs: &pairs };
        let changes = excluded(&verdicts(&plan, &counts(10, &[2, 10]), &facts));
        assert_eq!(changes, vec![(1, Rule::MintedPerAttempt), (0, Rule::ChangedAfterCreation)]);
    }

    /// A column left out as a counter, or as moving with the creation, goes
    /// back in where rows equal on the rest share it more than chance.
    #[test]
    fn verdicts_put_back_what_retries_copy() {
        let put_back = |rule: Rule, stats: &Stats| {
            let mut plan = one_column("seq", "integer", ValueKind::Integer);
            plan.exclude(0, rule, "by its nature".into());
            let facts = Facts { rows: 1_000, distinct: &[900.0], pairs: &[] };
            verdicts(&plan, stats, &facts).iter().filter(|c| matches!(c, Change::PutBack { .. })).count()
        };
        // A counter: equal in 3 of 4 exact pairs, where rows side by side
        // share it one time in ten (0.75 >= 0.1 + 0.5), not in 2 of 4.
        let counter = |equal: u64, exact: u64| Stats {
            rows: 1_001,
            exact_rows: exact,
            equal_in_exact: vec![equal],
            equal_in_neighbours: vec![100],
            ..counts(0, &[0])
        };
        assert_eq!(put_back(Rule::Counter, &counter(3, 4)), 1);
        assert_eq!(put_back(Rule::Counter, &counter(2, 4)), 0);
        assert_eq!(put_back(Rule::Counter, &counter(2, 2)), 0, "three pairs at least");
        assert_eq!(put_back(Rule::Counter, &counter(3, 6)), 0, "half is less than chance and a half");
        // Moving with the creation: equal in three exact pairs beyond those
        // created at the same time (and a hundredth of them).
        let moving = |equal: u64, same_time: u64, exact: u64| Stats {
            exact_rows: exact,
            exact_same_time: same_time,
            equal_in_exact: vec![equal],
            ..counts(0, &[0])
        };
        assert_eq!(put_back(Rule::MovesWithCreation, &moving(5, 2, 10)), 1);
        assert_eq!(put_back(Rule::MovesWithCreation, &moving(5, 3, 10)), 0);
        assert_eq!(put_back(Rule::MovesWithCreation, &moving(6, 2, 400)), 1);
        assert_eq!(put_back(Rule::MovesWithCreation, &moving(6, 2, 500)), 0, "a hundredth of 500 is five");
        assert_eq!(put_back(Rule::MintedPerAttempt, &moving(5, 2, 10)), 0, "minted stays out");
    }

    /// A text edited since its creation: most of its words still there,
    /// among at most as many again; two messages sharing a few words, a
    /// rewrite, or a text of three words are not.
    #[test]
    fn a_text_edited_since() {
        let created = "Can confirm, Jellyfin is way better than it used to be. Just my two cents.";
        assert!(edited(created, &format!("{created}\n\nEdit: typo")));
        assert!(edited(created, &created.replace("way better", "much better")), "one word of 15 changed");
        assert!(!edited(created, &created.replace("way better than", "worse than")), "two of 15 gone");
        assert!(!edited(created, created));
        assert!(!edited("Thanks for posting this, very helpful.", "Thanks for the link, I will read it tonight."));
        assert!(!edited(created, &format!("{created} {created} more")), "more than twice as long");
        assert!(edited("a b c d", "a b c d e"));
        assert!(!edited("a b c", "a b c d"), "three words");
        assert!(edited("the the the cat", "the the the cat sat"));
        assert!(!edited("the the the cat", "the cat sat on it"), "each word as many times");
    }

    /// A code of random letters: about a value per row (half the rows), three
    /// pairs at least; a numbered text: the later greater in nearly every
    /// pair, about a value per row or keeping every near miss apart.
    #[test]
    fn codes_and_numbers_about_a_value_per_row() {
        let plan = one_column("reference", "varchar(9)", ValueKind::Text);
        let codes = pairs_of(&[("QWXKZTRBH", "PLMNBVCXZ"), ("HJKGFDSQW", "ZXCVBNMLK"), ("TRWQPLKJH", "MNBVCXZLK")]);
        assert!(decide(&plan, &codes, 500.0, false).is_some_and(|e| e.contains("random letters")));
        assert_eq!(decide(&plan, &codes, 499.0, false), None);
        assert_eq!(decide(&plan, &codes[..2], 500.0, false), None, "two pairs");
        let numbered = pairs_of(&[("S00041", "S00042"), ("S00107", "S00108"), ("S00230", "S00231")]);
        assert!(decide(&plan, &numbered, 500.0, false).is_some_and(|e| e.contains("greater number")));
        assert_eq!(decide(&plan, &numbered, 499.0, false), None);
        assert!(decide(&plan, &numbered, 20.0, true).is_some(), "a number per parent keeping every near miss apart");
    }

    /// One vCalendar entry saved by two attempts: its UID and its stamps
    /// differ, each its own; a task about another thing, or stamped at
    /// another time, is not the same document.
    #[test]
    fn a_document_stamped_by_each_attempt() {
        let todo = |uid: &str, at: &str, summary: &str| {
            format!(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:{uid}\r\nDTSTAMP:{at}\r\nCREATED:{at}\r\n\
                 SUMMARY:{summary}\r\nEND:VTODO\r\nEND:VCALENDAR"
            )
        };
        let us = |s: &str| chrono::DateTime::parse_from_rfc3339(s).unwrap().timestamp_micros();
        let (t1, t2) = (us("2026-06-20T18:36:20Z"), us("2026-06-20T18:37:21Z"));
        let first = todo("019f13bc-f0e9-7ec3-8dfc-70fbad29385f", "20260620T183620Z", "Call back about the invoice");
        let again = todo("019f13bc-f123-7395-8ce2-2170b13c5527", "20260620T183721Z", "Call back about the invoice");
        assert!(restamped(&first, &again, (t1, t2)));
        // The same uid and times: equal, not restamped.
        assert!(!restamped(&first, &first, (t1, t1)));
        // Another summary.
        let other = todo("019f13bc-f123-7395-8ce2-2170b13c5527", "20260620T183721Z", "Call back about the order");
        assert!(!restamped(&first, &other, (t1, t2)));
        // A stamp far from its row's own creation: a time written, not stamped.
        assert!(!restamped(&first, &again, (t1, t2 + 600_000_000)));
        assert!(!restamped(&first, &again, (t1, t2 - 60_000_000)));
        // Stamped by a fetch the create made before it wrote the row.
        assert!(restamped(&first, &again, (t1, t2 + 30_000_000)));
        // Created within the same second: the stamps equal, each still its
        // own row's; the same times far from both rows' creation are
        // written, not stamped, and the uids alone may be two things.
        let twin = todo("019f13bc-f123-7395-8ce2-2170b13c5527", "20260620T183620Z", "Call back about the invoice");
        assert!(restamped(&first, &twin, (t1, t1 + 400_000)));
        assert!(!restamped(&first, &twin, (t1 + 600_000_000, t1 + 600_400_000)));
        // JSON with ISO times and an epoch in milliseconds.
        let body = |id: &str, at: &str, ms: i64| format!(r#"{{"id":"{id}","at":"{at}","ms":{ms},"amount":1250}}"#);
        let a = body("evt_1Nq8zLh2eZvKYlo2", "2026-06-20T18:36:20.125Z", t1 / 1000);
        let b = body("evt_9Xw3aQp7tRmNcV4b", "2026-06-20T18:37:21Z", t2 / 1000);
        assert!(restamped(&a, &b, (t1, t2)));
        assert!(!restamped(&a, &b.replace("1250", "1300"), (t1, t2)), "an amount differs");
        assert!(!restamped("ORD-000123", "ORD-000124", (t1, t1)));
        // Two references to other things, no stamp: not a document saved twice.
        let (c1, c2) = ("0195917c-f935-7691-888c-d216ede6bcb5", "0191e339-7a45-7cda-bbcc-5428873b15cf");
        assert!(!restamped(c1, c2, (t1, t2)));
        assert_eq!(
            mask_times("at 2026-06-20 18:37:21.5 and 1781980641"),
            ("at \u{1} and \u{1}".into(), vec![us("2026-06-20T18:37:21.5Z"), 1_781_980_641_000_000])
        );
        assert_eq!(mask_times("v2.0 id 12345").1, Vec::<i64>::new());
        // Response headers kept with the row (serialize()d), each with the
        // server's date of its own fetch, made before the row was written.
        let headers = |date: &str| {
            format!(
                r#"a:3:{{s:4:"date";s:29:"{date}";s:12:"content-type";s:24:"text/html; charset=utf-8";s:6:"server";s:5:"nginx";}}"#
            )
        };
        let (h1, h2) = (headers("Sat, 20 Jun 2026 18:36:02 GMT"), headers("Sat, 20 Jun 2026 18:37:09 GMT"));
        assert!(restamped(&h1, &h2, (t1, t2)));
        assert!(!restamped(&h1, &h2.replace("nginx", "caddy"), (t1, t2)), "another server");
        assert_eq!(mask_times("Date: Sat, 20 Jun 2026 20:37:21 +0200\r\nTo: x").1, vec![us("2026-06-20T18:37:21Z")]);
        assert_eq!(mask_times("Sat, 20 Jun 2026 at noon").1, Vec::<i64>::new());
        // A time alone (an event's own time, which a retry copies) is no document.
        assert!(!restamped("2026-06-20T18:36:20Z", "2026-06-20T18:37:21Z", (t1, t2)));
        assert!(!restamped(r#"{"at":"2026-06-20T18:36:20Z"}"#, r#"{"at":"2026-06-20T18:37:21Z"}"#, (t1, t2)));
    }

    #[test]
    fn the_same_text_fetched_twice() {
        let page: Vec<String> = (0..120).map(|i| format!("word{i}")).collect();
        let page = page.join(" ");
        let again = format!("{page} updated 3 minutes ago");
        assert!(same_text_again(&format!("{page} updated 1 minute ago"), &again).is_some());
        // Two messages people wrote: few words in common.
        let other: Vec<String> = (0..120).map(|i| format!("other{i}")).collect();
        assert!(same_text_again(&page, &other.join(" ")).is_none());
        // Short texts are never judged so.
        assert!(same_text_again("see you at noon", "see you at one").is_none());
    }

    /// A value built from the row's own id in three pairs of four (three
    /// at least), where both rows hold one.
    #[test]
    fn values_holding_their_own_id() {
        let built = |n: usize, of: usize| -> Vec<PairValues> {
            let mut pairs = pairs_of(&vec![("", ""); of]);
            for (i, p) in pairs.iter_mut().enumerate() {
                let path = |id: &str| format!("/files/{id}/report.pdf");
                p.earlier[0] = Some(path(&p.earlier_id));
                p.later[0] = Some(if i < n { path(&p.later_id) } else { format!("/files/{}/other.pdf", p.later_id) });
            }
            pairs
        };
        let own = |pairs: &[PairValues]| holds_own_id(0, &pairs.iter().collect::<Vec<_>>());
        assert!(own(&built(3, 3)).is_some_and(|e| e.contains("in 3 of 3 sampled pairs")), "{:?}", own(&built(3, 3)));
        assert!(own(&built(3, 4)).is_some());
        assert_eq!(own(&built(3, 5)), None, "three in five");
        assert_eq!(own(&built(2, 2)), None, "two pairs");
        // A NULL side is not there yet: not counted.
        let mut with_null = built(3, 4);
        with_null[3].later[0] = None;
        assert!(own(&with_null).is_some_and(|e| e.contains("in 3 of 3")));
        // Each value must hold its own row's id, and be the other's but for it.
        let mut swapped = built(3, 3);
        for p in &mut swapped {
            p.later[0] = Some(format!("/files/{}/report.pdf", p.earlier_id));
        }
        assert_eq!(own(&swapped), None);
    }

    /// A time set after each row's creation (more than 2 s on) and by its
    /// last update (a second's slack), in four rows in five, ten at least;
    /// dates at midnight in half the rows or more are no such event.
    #[test]
    fn times_stamped_by_a_later_write() {
        let hour = 3_600_000_000_i64;
        let rows = |pairs: usize, offsets: &dyn Fn(usize) -> Option<i64>| -> Vec<PairValues> {
            let mut all = pairs_of(&vec![("", ""); pairs]);
            for (i, p) in all.iter_mut().enumerate() {
                p.earlier_updated_us = p.earlier_created_us.map(|c| c + hour);
                p.later_updated_us = p.later_created_us.map(|c| c + hour);
                p.earlier[0] = offsets(2 * i).map(|o| (p.earlier_created_us.unwrap() + o).to_string());
                p.later[0] = offsets(2 * i + 1).map(|o| (p.later_created_us.unwrap() + o).to_string());
            }
            all
        };
        let later = |pairs: &[PairValues]| stamped_later(pairs, 0);
        assert!(later(&rows(5, &|_| Some(hour / 2))).is_some_and(|e| e.contains("10 of 10")));
        assert_eq!(later(&rows(4, &|_| Some(hour / 2))), None, "eight rows");
        assert!(later(&rows(6, &|r| Some(if r < 10 { hour / 2 } else { -hour }))).is_some(), "ten in twelve");
        assert_eq!(later(&rows(6, &|r| Some(if r < 9 { hour / 2 } else { -hour }))), None, "nine");
        assert_eq!(later(&rows(7, &|r| Some(if r < 11 { hour / 2 } else { -hour }))), None, "eleven in fourteen");
        // NULL is not set; set rows count.
        assert!(later(&rows(6, &|r| if r < 10 { Some(hour / 2) } else { None })).is_some());
        // By its last update, a second's slack; after its creation, more than 2 s.
        assert!(later(&rows(5, &|_| Some(hour + 1_000_000))).is_some());
        assert_eq!(later(&rows(5, &|_| Some(hour + 1_000_001))), None);
        assert_eq!(later(&rows(5, &|_| Some(2_000_000))), None);
        assert!(later(&rows(5, &|_| Some(2_000_001))).is_some());
        // Midnight: each row's value a day's start.
        let mut dates = rows(5, &|_| Some(hour / 2));
        for p in &mut dates {
            p.earlier_created_us = Some(86_400_000_000 * 20_000 - hour);
            p.later_created_us = Some(86_400_000_000 * 20_000 - hour + 1_000_000);
            p.earlier_updated_us = Some(86_400_000_000 * 20_000 + hour);
            p.later_updated_us = p.earlier_updated_us;
            p.earlier[0] = Some((86_400_000_000_i64 * 20_000).to_string());
            p.later[0] = p.earlier[0].clone();
        }
        assert_eq!(later(&dates), None, "dates at midnight");
    }

    /// Written text: in half the pairs where it differs (three at least),
    /// two words or more on both sides, not a document (JSON) and not one
    /// stamped by each attempt; what people write besides: text of many
    /// values (fifty at least, a twentieth of the rows), differing not by a
    /// generated token.
    #[test]
    fn written_text_and_prose() {
        let messages = [
            ("See you at the standup", "Thanks for the review"),
            ("Can you check the invoice", "I will be late today"),
            ("Great work on the release", "Lunch at noon?"),
            ("ok", "fine"),
        ];
        let prose = |values: &[(&str, &str)]| prose_columns(1, &pairs_of(values))[0];
        assert!(prose(&messages[..3]));
        assert!(prose(&[messages[0], messages[1], messages[3], messages[3]]), "two of four");
        assert!(!prose(&[messages[0], messages[3], messages[3]]), "one of three");
        assert!(!prose(&messages[..2]), "two pairs");
        assert!(!prose(&[(r#"{"a": "b c"}"#, r#"{"a": "d e"}"#); 3]), "a JSON document");
        assert!(!prose(&[("12 34", "56 78"); 3]), "numbers");
        let plan = one_column("body", "text", ValueKind::Text);
        let written = |values: &[(&str, &str)], distinct: f64, rows: usize| {
            written_columns(&plan, &[distinct], rows, &pairs_of(values))[0]
        };
        assert!(written(&messages[..3], 50.0, 1_000));
        assert!(!written(&messages[..3], 49.0, 1_000), "fewer than fifty values");
        assert!(!written(&messages[..3], 60.0, 2_000), "fewer than a twentieth of the rows");
        assert!(written(&messages[..3], 100.0, 2_000));
        assert!(!written(&[("ord_9f8e7d6c5b4a", "ord_1a2b3c4d5e6f"); 3], 100.0, 1_000), "tokens");
        assert!(!written(&[("{\"a\": 1}", "{\"a\": 2}"); 3], 100.0, 1_000), "documents");
        assert!(!written(&[("12", "34"); 3], 100.0, 1_000), "no letters");
        assert!(!written(&[], 100.0, 1_000), "nothing differs");
        let number = one_column("body", "integer", ValueKind::Integer);
        assert!(!written_columns(&number, &[100.0], 1_000, &pairs_of(&messages[..3]))[0], "not text");
    }

    /// One long text fetched again, in two pairs of three where it differs
    /// (three at least).
    #[test]
    fn a_text_fetched_for_each_attempt() {
        let page: Vec<String> = (0..60).map(|i| format!("word{i}")).collect();
        let page = page.join(" ");
        let (a, b) = (format!("{page} updated 1 minute ago"), format!("{page} updated 3 minutes ago"));
        let other: Vec<String> = (0..60).map(|i| format!("other{i}")).collect();
        let other = other.join(" ");
        let fetched = |n: usize, of: usize| {
            let values: Vec<(&str, &str)> = (0..of)
                .map(|i| if i < n { (a.as_str(), b.as_str()) } else { (page.as_str(), other.as_str()) })
                .collect();
            refetched_columns(1, &pairs_of(&values))[0].clone()
        };
        assert!(fetched(3, 3).is_some_and(|e| e.contains("differs in 3 of 3")));
        assert!(fetched(2, 3).is_some());
        assert_eq!(fetched(2, 4), None, "two in four");
        assert_eq!(fetched(2, 2), None, "two pairs");
        // 85% of the distinct words shared, no fewer; forty words each.
        let words = |n: usize, prefix: &str| (0..n).map(|i| format!("{prefix}{i}")).collect::<Vec<_>>().join(" ");
        assert_eq!(same_text_again(&words(39, "w"), &format!("{} x", words(39, "w"))), None, "39 words");
        // 34 shared of 40 distinct (forty words each, some twice): 0.85.
        let shared = words(34, "w");
        let (x, y) = (format!("{shared} a1 a2 a3 w0 w0 w0"), format!("{shared} b1 b2 b3 w0 w0 w0"));
        assert!(same_text_again(&x, &y).is_some_and(|s| (s - 0.85).abs() < 1e-9), "{:?}", same_text_again(&x, &y));
        let shared = words(33, "w");
        let (x, y) = (format!("{shared} a1 a2 a3 a4 w0 w0 w0"), format!("{shared} b1 b2 b3 w0 w0 w0 w0"));
        assert_eq!(same_text_again(&x, &y), None, "33 of 40");
    }

    /// The edges the tests above leave: each threshold at its value.
    #[test]
    fn thresholds_at_their_edges() {
        // Codes of six letters, three in four distinct, vowels a quarter.
        let six = ["QWXKZT", "PLMNBV", "HJKGFD", "TRWQPL", "MNBVCX", "ZXCVBN"];
        assert_eq!(random_letters(&six), Some("QWXKZT"));
        let repeated = ["QWXKZTRB", "PLMNBVCX", "HJKGFDSQ", "TRWQPLKJ", "MNBVCXZL", "ZXCVBNMK", "QWXKZTRB", "PLMNBVCX"];
        assert!(random_letters(&repeated).is_some(), "six distinct in eight");
        let mut fewer = repeated;
        fewer[5] = "QWXKZTRB";
        assert_eq!(random_letters(&fewer), None, "five distinct in eight");
        // 16 vowels in 8 codes of 8 letters: a quarter; 17 is more.
        let vowels = ["AEXKZTRB", "PLAEBVCX", "HJKAEDSQ", "TRWQAEKJ", "MNBVCAEL", "ZXAEBNMK", "QWXKZAEB", "PLMNBVAE"];
        assert!(random_letters(&vowels).is_some());
        let mut more = vowels;
        more[0] = "AEIKZTRB";
        assert_eq!(random_letters(&more), None);
        // A slug's stem of three characters will do; two will not, either way.
        assert!(uniquified("abc", "abc-2") && uniquified("abc-2", "abc"));
        assert!(!uniquified("ab", "ab-2") && !uniquified("ab-2", "ab"));
        assert!(!uniquified("release-v2", "release-v2"), "equal");
        // Case flips: more than a third of the length.
        assert!(!token_like("aBcDeeeeeeee"));
        assert!(token_like("aBcDeFgggggg"));
        assert_eq!(minted_difference("id-9f8e7d6c5b4a-x", "id-hello-x"), None, "one side a word");
        assert!(holds_initial(Some("b'0'"), Some("false")), "MariaDB's bit for false");
        assert!(same_text_again(&"word ".repeat(60), &"word ".repeat(60)).is_none(), "equal");
        // Updated exactly 2 s after its creation: not touched since.
        let mut pair = pairs_of(&[("5", "3")]).remove(0);
        pair.earlier_updated_us = pair.earlier_created_us.map(|c| c + 3_600_000_000);
        pair.later_updated_us = pair.later_created_us.map(|c| c + 2_000_000);
        assert!(grown_by_update(&pair, 0));
        pair.later_updated_us = pair.later_created_us.map(|c| c + 2_000_001);
        assert!(!grown_by_update(&pair, 0));
    }

    /// Set only in rows updated since: of the rows never updated (ten at
    /// least) one in ten may hold something, of those updated (ten at least)
    /// three in ten must.
    #[test]
    fn set_only_once_updated() {
        let hour = 3_600_000_000_i64;
        // Ten pairs: the earlier row updated since, holding `touched_set` set
        // values among ten; the later never (2 s on exactly), `new_set` set.
        let rows = |new_set: usize, touched_set: usize| {
            let mut pairs = pairs_of(&[("0", "0"); 10]);
            for (i, p) in pairs.iter_mut().enumerate() {
                p.earlier_updated_us = p.earlier_created_us.map(|c| c + hour);
                p.later_updated_us = p.later_created_us.map(|c| c + 2_000_000);
                if i < touched_set {
                    p.earlier[0] = Some("7".into());
                }
                if i < new_set {
                    p.later[0] = Some("7".into());
                }
            }
            pairs
        };
        let initial = |v: &Option<String>| holds_initial(v.as_deref(), None);
        assert!(set_after_creation(&rows(1, 3), 0, &initial).is_some_and(|e| e.contains("1 of 10")));
        assert_eq!(set_after_creation(&rows(2, 3), 0, &initial), None, "two in ten never updated");
        assert_eq!(set_after_creation(&rows(1, 2), 0, &initial), None, "two in ten updated");
    }

    /// Dates at midnight in half the rows where it is set are no event.
    #[test]
    fn half_at_midnight_is_a_date() {
        let day = 86_400_000_000_i64;
        let mut pairs = pairs_of(&[("", ""); 6]);
        for (i, p) in pairs.iter_mut().enumerate() {
            let created = day * 20_000 + i as i64 * 3 * day - 3_600_000_000;
            p.earlier_created_us = Some(created);
            p.later_created_us = Some(created + 1_000_000);
            p.earlier_updated_us = Some(created + 2 * 3_600_000_000);
            p.later_updated_us = p.earlier_updated_us;
            // Half the rows at the day's start (an hour after creation), half at ten past.
            p.earlier[0] = Some((created + 3_600_000_000).to_string());
            p.later[0] = Some((created + 3_600_000_000 + if i < 3 { 0 } else { 600_000_000 }).to_string());
        }
        // 6 + 3 = 9 rows at midnight of 12: a date.
        assert_eq!(stamped_later(&pairs, 0), None);
        for p in &mut pairs[..3] {
            p.later[0] = Some((p.later_created_us.unwrap() + 600_000_000).to_string());
        }
        // 6 of 12, exactly half: a date still.
        assert_eq!(stamped_later(&pairs, 0), None);
        pairs[0].earlier[0] = Some((pairs[0].earlier_created_us.unwrap() + 600_000_000).to_string());
        assert!(stamped_later(&pairs, 0).is_some(), "5 of 12");
    }

    /// Text that is one document stamped by each attempt is not what people
    /// write, nor prose; a pair with words on one side only is not prose;
    /// written where what people write is half the differences or more.
    #[test]
    fn documents_and_halves_of_text() {
        let todo = |uid: &str, at: &str| {
            format!("BEGIN:VTODO\r\nUID:{uid}\r\nDTSTAMP:{at}\r\nSUMMARY:Call back about the invoice\r\nEND:VTODO")
        };
        let us = |s: &str| chrono::DateTime::parse_from_rfc3339(s).unwrap().timestamp_micros();
        let (a, b) = (
            todo("019f13bc-f0e9-7ec3-8dfc-70fbad29385f", "20260620T183620Z"),
            todo("019f13bc-f123-7395-8ce2-2170b13c5527", "20260620T183721Z"),
        );
        let mut stamped = pairs_of(&[(a.as_str(), b.as_str()); 3]);
        for p in &mut stamped {
            p.earlier_created_us = Some(us("2026-06-20T18:36:20Z"));
            p.later_created_us = Some(us("2026-06-20T18:37:21Z"));
        }
        assert!(!prose_columns(1, &stamped)[0], "a document stamped twice");
        let plan = one_column("vtodo", "text", ValueKind::Text);
        assert!(!written_columns(&plan, &[100.0], 1_000, &stamped)[0]);
        assert!(!prose_columns(1, &pairs_of(&[("See you at the standup", "ok"); 3]))[0], "words on one side");
        let one_of_three = [
            ("See you at the standup", "Thanks for the review"),
            ("ord_9f8e7d6c5b4a", "ord_1a2b3c4d5e6f"),
            ("12", "34"),
        ];
        assert!(!written_columns(&plan, &[100.0], 1_000, &pairs_of(&one_of_three))[0], "one in three");
    }

    #[test]
    fn minted_differences() {
        assert!(
            minted_difference("4f1c9b3e-2d7a-4a7e-9b1f-0c2d3e4f5a6b", "9a0e1f2d-3c4b-4a5a-8b9c-1d2e3f4a5b6c").is_some()
        );
        let url = |id: &str| format!(r#"{{"videoCallUrl":"https://app.cal.com/video/{id}"}}"#);
        assert_eq!(
            minted_difference(&url("n5Wv3eHgconAED2j4gcVhP"), &url("Q8xT2mKpLr7sVbN4cZ1yWe")),
            Some(("n5Wv3eHgconAED2j4gcVhP", "Q8xT2mKpLr7sVbN4cZ1yWe"))
        );
        assert_eq!(minted_difference("hello-world", "hello-world-2"), None);
        assert_eq!(minted_difference("ORD-000123", "ORD-000124"), None);
        assert_eq!(minted_difference("Thanks, that fixed it", "Thanks, the cache fixed it"), None);
    }

    #[test]
    fn codes_of_random_letters() {
        let codes = ["XKBKNABJK", "QWMZTRPLE", "HJDUYVXCN", "PLMQSDFRT", "ZCXWVNBTY", "GHTRWQPLA"];
        assert_eq!(random_letters(&codes), Some("XKBKNABJK"));
        let words = ["DELIVERED", "CANCELLED", "PREPARING", "DELIVERED", "REFUNDING", "CANCELLED"];
        assert_eq!(random_letters(&words), None, "words");
        assert_eq!(random_letters(&codes[..4]), None, "too few to tell");
        let mixed = ["XKBKNABJK", "QWMZTRPLE", "HJDUYVXCN", "PLMQSDFRT", "ZCXWVNBTY", "GHTRWQPL"];
        assert_eq!(random_letters(&mixed), None, "two lengths");
        assert_eq!(random_letters(&["XKBKN"; 6]), None, "short and one value");
    }

    #[test]
    fn a_slug_made_unique() {
        assert!(uniquified("platform-standup-2026-08-11", "platform-standup-2026-08-11-0Eu"));
        assert!(uniquified("hello-world-2", "hello-world"));
        assert!(uniquified("hello-world-2", "hello-world-3"));
        assert!(uniquified("report_ab12", "report_x9"));
        assert!(uniquified("wrong-totals-COP", "wrong-totals-6Yw"));
        assert!(uniquified("with-browser-inc", "with-browser-Os5"));
        assert!(!uniquified("hello-world", "hello-world"));
        assert!(!uniquified("hello-world", "hello-there"));
        assert!(!uniquified("standup", "standup-notes"), "another word");
        assert!(!uniquified("hello-world", "hello-world-and-more-words"), "a suffix of nine characters");
        assert!(!uniquified("Call Bob", "Call Bob-2"), "written text");
        assert!(!uniquified("ab-1", "ab-2"), "a stem too short");
    }

    #[test]
    fn what_a_new_row_starts_with() {
        assert!(holds_initial(None, Some("1")));
        assert!(holds_initial(Some("0"), None));
        assert!(holds_initial(Some("false"), Some("false")));
        assert!(holds_initial(Some("draft"), Some("'draft'::character varying")));
        assert!(!holds_initial(Some("sent"), Some("'draft'::character varying")));
        // A flag that starts true, spelled as each engine shows it.
        assert!(holds_initial(Some("true"), Some("1")));
        assert!(holds_initial(Some("1"), Some("true")));
        assert!(holds_initial(Some("t"), Some("true")));
        assert!(!holds_initial(Some("false"), Some("true")));
        assert!(!holds_initial(Some("0"), Some("1")));
        assert!(!holds_initial(Some("f"), Some("'1'")));
    }

    #[test]
    fn a_version_grown_by_an_update() {
        // Story 1931 as created (version 1, never updated), its copy 1932
        // closed a day later (version 2).
        let pair = |earlier: &str, later: &str, earlier_updated: i64, later_updated: i64| PairValues {
            differing: vec![0],
            earlier_id: "1931".into(),
            later_id: "1932".into(),
            earlier: vec![Some(earlier.into())],
            later: vec![Some(later.into())],
            earlier_created_us: Some(0),
            earlier_updated_us: Some(earlier_updated),
            later_created_us: Some(74_000_000),
            later_updated_us: Some(later_updated),
        };
        let day = 86_400_000_000;
        assert!(grown_by_update(&pair("1", "2", 15_000, day), 0));
        assert!(grown_by_update(&pair("2", "1", day, 74_010_000), 0));
        // The row updated holds the smaller number: no growth.
        assert!(!grown_by_update(&pair("2", "1", 15_000, day), 0));
        // Both updated since, or neither: the data does not say.
        assert!(!grown_by_update(&pair("1", "2", day, day), 0));
        assert!(!grown_by_update(&pair("1", "2", 15_000, 74_010_000), 0));
    }

    #[test]
    fn numbers_taken_next() {
        assert_eq!(next_number("S00042", "S00043"), Some(true));
        assert_eq!(next_number("10.0.3.9/24", "10.0.3.10/24"), Some(true));
        assert_eq!(next_number("IT-00109", "IT-00099"), Some(false));
        assert_eq!(next_number("INV-2026-0007", "INV-2026-0007"), None);
        assert_eq!(next_number("Room 4", "Suite 5"), None);
        assert_eq!(next_number("0b/", "0c/"), Some(true));
        assert_eq!(next_number("01.0z/", "01.10/"), Some(true));
        assert_eq!(next_number("a0V", "a0G"), Some(false));
        assert_eq!(next_number("Anna", "Bob Smith"), None);
        assert_eq!(next_number("v1.2", "v1.2.3"), None);
        assert_eq!(next_number("order", "order"), None);
        assert_eq!(next_number("2026-01-01 10:00:45", "2026-01-01 10:01:35"), None);
        // A date on one side is enough; a dash at the date's places is not.
        assert_eq!(next_number("2026-01-01", "20261-01-01"), None);
        assert_eq!(next_number("ABCD-EF-GH 1", "ABCD-EF-GH 2"), Some(true));
    }

    #[test]
    fn tokens() {
        assert!(token_like("pi_3NqF7k2eZvKYlo2C1abcdefg"));
        assert!(token_like("4f1c9b3e-2d7a-4a7e-9b1f-0c2d3e4f5a6b"));
        assert!(!token_like("hello world 12345"));
        assert!(!token_like("completed"));
        assert!(!token_like("12345678"));
        assert!(token_like("hPXkfQzfxRBrRDpDcbcfaS"));
        assert!(!token_like("HelloWorld"));
    }
}
