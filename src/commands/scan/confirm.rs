//! Confirms candidate clusters: reads their rows' compared values, key,
//! `--by`, `--sum` and the watched columns by id, regroups them on the values
//! themselves and chains them by the window again. The stream only groups
//! (by hashes), so this is where a cluster becomes a finding; it touches
//! only the candidates. Then picks the row each cluster keeps.

use std::io::Write;
use std::str::FromStr;

use anyhow::{Context, Result};
use rust_decimal::Decimal;
use rustc_hash::FxHashMap;

use super::findings::Findings;
use super::plan::Plan;
use super::{Keep, ScanArgs};
use crate::db::Db;
use crate::db::scan::Lookup;
use crate::window::{self, Cluster, Member, RowId};

/// A row whose update time is more than this after its creation was
/// updated since: an ORM stamps both at the insert, a moment apart.
pub const TOUCHED_AFTER_US: i64 = 2_000_000;

/// How far around a cluster's rows the other rows of one write may have been
/// written (one request's inserts, at whole seconds).
const ONE_WRITE_US: i64 = 2_000_000;

/// Candidate rows read per lookup statement.
const CONFIRM_BATCH: usize = 500;

/// Candidate rows handed to the confirming task at once.
pub const CONFIRM_ROWS: usize = 4 * CONFIRM_BATCH;

pub struct Confirm {
    db: Db,
    lookup: Lookup,
    layout: Layout,
    keep: Keep,
    children: Vec<super::children::Link>,
    /// The compared columns and their defaults, for near-miss pairs.
    /// The compared columns: name, default, and whether it is a number
    /// that can grow after creation (`can_grow`).
    compared: Vec<(String, Option<String>, bool)>,
    /// The columns each write mints anew, among the watched ones (their
    /// place there, name and type), and the table as SQL names it: rows of
    /// a cluster alone holding one of their values were written together.
    minted_anew: Vec<(usize, String, String)>,
    table_sql: String,
    /// The created-at column in microseconds since the epoch, as SQL.
    created_us: String,
}

/// Where each thing sits in a looked-up row, after the id.
struct Layout {
    key: Option<usize>,
    by: Option<usize>,
    /// Each `--sum` column's amount and currency.
    money: Vec<(usize, Option<usize>)>,
    keep: Option<usize>,
    compared: std::ops::Range<usize>,
    watched: std::ops::Range<usize>,
    /// The update time, in microseconds since the epoch.
    updated: Option<usize>,
}

impl Confirm {
    pub fn new(args: &ScanArgs, plan: &Plan, db: Db) -> Self {
        let dialect = db.dialect();
        let ident = |c: &str| dialect.ident(c);
        let shown = |c: &str| {
            let ty = plan.table.column(c).map(|c| c.data_type.clone()).unwrap_or_default();
            dialect.shown(&ident(c), &ty)
        };
        let mut exprs: Vec<String> = Vec::new();
        let slot = |exprs: &mut Vec<String>, e: String| {
            exprs.push(e);
            exprs.len() - 1
        };
        let key = plan.key.as_deref().map(|k| slot(&mut exprs, ident(k)));
        let by = args.by.as_deref().map(|b| slot(&mut exprs, ident(b)));
        let money = args
            .sum
            .iter()
            .map(|s| {
                let amount = match super::plan::is_expression(s) {
                    true => format!("({s})"),
                    false => ident(s),
                };
                (slot(&mut exprs, amount), plan.currency_of(s).map(|c| slot(&mut exprs, ident(&c))))
            })
            .collect();
        let keep = match &plan.keep {
            Keep::Condition(condition) => Some(slot(&mut exprs, format!("CASE WHEN ({condition}) THEN 1 ELSE 0 END"))),
            Keep::First | Keep::Last | Keep::NotRewritten { .. } => None,
        };
        let start = exprs.len();
        exprs.extend(plan.compared_names().iter().map(|c| shown(c)));
        let compared = start..exprs.len();
        let start = exprs.len();
        exprs.extend(plan.watched().iter().map(|c| shown(c)));
        let watched = start..exprs.len();
        let updated = plan.update_time.as_deref().and_then(|u| {
            let repr = super::plan::time_repr(plan.table.column(u).ok()?, &dialect)?;
            Some(slot(&mut exprs, dialect.epoch_micros(&ident(u), repr)))
        });
        let lookup = Lookup::new(dialect, &plan.table, &plan.id, &exprs);
        let minted_anew = plan
            .watched()
            .into_iter()
            .enumerate()
            .filter(|(_, c)| plan.minted_anew.contains(c))
            .map(|(i, c)| {
                let ty = plan.table.column(&c).map(|c| c.data_type.clone()).unwrap_or_default();
                (i, c, ty)
            })
            .collect();
        let table_sql = dialect.table(Some(&plan.table.schema), &plan.table.name);
        let created_us = dialect.epoch_micros(&ident(&plan.time.name), plan.repr);
        Confirm {
            db,
            lookup,
            layout: Layout { key, by, money, keep, compared, watched, updated },
            keep: plan.keep.clone(),
            children: plan.children.clone(),
            compared: plan
                .compared_names()
                .into_iter()
                .map(|c| {
                    let column = plan.table.column(&c).ok();
                    let default = column.and_then(|c| c.default.clone());
                    let grows = column.is_some_and(super::plan::can_grow);
                    (c, default, grows)
                })
                .collect(),
            minted_anew,
            table_sql,
            created_us,
        }
    }

    /// Confirms each batch of candidates as it comes, and reports the findings.
    pub async fn run<W: Write>(
        mut self,
        mut findings: Findings<W>,
        mut batches: tokio::sync::mpsc::Receiver<Vec<Cluster>>,
        window_us: i64,
    ) -> Result<Findings<W>> {
        while let Some(batch) = batches.recv().await {
            // After Ctrl-C the candidates already closed are still confirmed
            // (within the one grace every statement then shares), and the
            // clusters confirmed are the report: a lookup the signal
            // canceled ends the confirming, not the report.
            if let Err(err) = self.confirm_batch(batch, window_us, &mut findings).await {
                if crate::interrupt::is_set() {
                    return Ok(findings);
                }
                return Err(err);
            }
        }
        self.db.close().await?;
        Ok(findings)
    }

    async fn confirm_batch<W: Write>(
        &mut self,
        batch: Vec<Cluster>,
        window_us: i64,
        findings: &mut Findings<W>,
    ) -> Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let ids: Vec<&RowId> = batch.iter().flat_map(|c| c.members.iter().map(|m| &m.id)).collect();
        let mut looked: FxHashMap<String, Vec<Option<String>>> = FxHashMap::default();
        for chunk in ids.chunks(CONFIRM_BATCH) {
            let (sql, binds) = self.lookup.statement(chunk);
            for row in self.db.query_text(&sql, &binds).await.context("confirming candidate rows")? {
                let mut cells = row.into_iter();
                let Some(Some(id)) = cells.next() else { continue };
                looked.insert(id, cells.collect());
            }
        }
        let l = &self.layout;
        let mut confirmed = Vec::new();
        for candidate in batch {
            let mut rows = Vec::with_capacity(candidate.members.len());
            for mut member in candidate.members {
                // A row deleted since the stream read it is no longer damage.
                let Some(row) = looked.get(&member.id.to_string()) else { continue };
                let cell = |i: Option<usize>| i.and_then(|i| row[i].clone());
                // An empty key is none: no client's word (a gateway's
                // reference not yet set, '' where NULL was meant).
                member.key = cell(l.key).filter(|k| !k.trim().is_empty()).map(Into::into);
                member.by = cell(l.by).map(Into::into);
                member.money = l
                    .money
                    .iter()
                    .map(|(amount, currency)| {
                        let amount = cell(Some(*amount)).as_deref().map(parse_number).transpose()?;
                        Ok((amount, cell(*currency).map(Into::into)))
                    })
                    .collect::<Result<_>>()?;
                member.keep = cell(l.keep).is_some_and(|v| v == "1");
                member.watched = row[l.watched.clone()].iter().map(|v| v.as_deref().map(Into::into)).collect();
                // An update time still NULL: never updated since its creation.
                member.touched = l.updated.and_then(|i| match row[i].as_deref() {
                    None => Some(false),
                    Some(v) => v.parse::<f64>().ok().map(|updated| updated as i64 - member.t_us > TOUCHED_AFTER_US),
                });
                rows.push((member, row[l.compared.clone()].to_vec()));
            }
            match candidate.filled_later {
                Some(_) => confirmed.extend(self.filled_later(rows)),
                None => confirmed.extend(window::confirm(rows, window_us)),
            }
        }
        merge_filled(&mut confirmed);
        confirmed.sort_by(|a, b| (a.original().t_us, &a.original().id).cmp(&(b.original().t_us, &b.original().id)));
        super::children::attach(&mut self.db, &mut self.children, &mut confirmed)
            .await
            .context("reading child rows")?;
        for cluster in &mut confirmed {
            self.one_write(cluster).await.context("counting the rows of a value each write mints")?;
        }
        for mut cluster in confirmed {
            let (kept, matched) = match &self.keep {
                // Of a pair one row of which was filled in later, the one
                // people worked on.
                Keep::First => (if cluster.filled_later.is_some() { cluster.kept } else { 0 }, true),
                Keep::Last => (cluster.members.len() - 1, true),
                Keep::Condition(_) => match cluster.members.iter().position(|m| m.keep) {
                    Some(i) => (i, true),
                    None => (0, false),
                },
                Keep::NotRewritten { watched, value, .. } => {
                    let rewritten = |m: &crate::window::Member| {
                        m.watched.get(*watched).map(|v| v.as_deref()) == Some(value.as_deref())
                    };
                    match cluster.members.iter().position(|m| !rewritten(m)) {
                        Some(i) => (i, true),
                        None => (0, false),
                    }
                }
            };
            cluster.kept = kept;
            findings.add(cluster, matched)?;
        }
        Ok(())
    }

    /// Marks a member that shares with an earlier one of its cluster a value
    /// of a column each write mints anew (a parent row's id) where every row
    /// of the table that holds it was written within the cluster's moments:
    /// one request made the parent and these rows together. A reply to an
    /// older topic shares it with the topic's first post, written before. A
    /// query per such cluster only (by the column's value).
    async fn one_write(&mut self, cluster: &mut Cluster) -> Result<()> {
        let dialect = self.db.dialect();
        for (i, column, ty) in &self.minted_anew {
            let value_of = |m: &Member| m.watched.get(*i).cloned().flatten();
            let Some((first, value)) = cluster.members.iter().enumerate().find_map(|(j, m)| {
                let v = value_of(m)?;
                cluster.members[j + 1..].iter().any(|o| value_of(o).as_ref() == Some(&v)).then_some((j, v))
            }) else {
                continue;
            };
            let sharing: Vec<usize> = (first..cluster.members.len())
                .filter(|&j| value_of(&cluster.members[j]) == Some(value.clone()))
                .collect();
            let sql = format!(
                "SELECT MIN({t}), MAX({t}), COUNT(*) FROM {} WHERE {} = {}",
                self.table_sql,
                dialect.ident(column),
                dialect.typed_placeholder(1, ty),
                t = self.created_us,
            );
            let rows = self.db.query_text(&sql, &[crate::db::Bind::Text(value.to_string())]).await?;
            let number = |k: usize| -> Option<f64> { rows.first()?.get(k)?.as_deref()?.parse().ok() };
            let (Some(first_us), Some(last_us), Some(held)) = (number(0), number(1), number(2)) else { continue };
            let times = cluster.members.iter().map(|m| m.t_us);
            let (from, to) = (times.clone().min().unwrap_or(0), times.max().unwrap_or(0));
            if first_us as i64 >= from - ONE_WRITE_US && last_us as i64 <= to + ONE_WRITE_US {
                let ids: Vec<String> = sharing.iter().map(|&j| cluster.members[j].id.to_string()).collect();
                let others = match (held as usize).saturating_sub(sharing.len()) {
                    0 => String::new(),
                    n => format!(" (with {n} other row{} written with them)", if n == 1 { "" } else { "s" }),
                };
                let reason = format!(
                    "{} share {column} {value:?}{others}, which each write mints anew and no row written before \
                     them holds: one request wrote them",
                    ids.join(" and ")
                );
                cluster.members[sharing[1]].one_write = Some(reason.into());
                return Ok(());
            }
        }
        Ok(())
    }

    /// A near-miss pair as a finding, where every compared column in which
    /// the two rows differ still holds what a new row starts with (NULL,
    /// empty, zero, its default) in one of them, and the other row, updated
    /// since its creation, holds something else there: one request, one
    /// copy of which people went on to fill in. Kept: the row filled in.
    fn filled_later(&self, rows: Vec<(Member, Vec<Option<String>>)>) -> Option<Cluster> {
        let [(a, va), (b, vb)] = <[_; 2]>::try_from(rows).ok()?;
        let mut filler = None;
        let mut later = window::Later::default();
        for (j, (name, default, grows)) in self.compared.iter().enumerate() {
            if va[j] == vb[j] {
                continue;
            }
            if let (Some(x), Some(y)) = (&va[j], &vb[j])
                && super::columns::restamped(x, y, (a.t_us, b.t_us))
            {
                later.restamped.push(name.clone());
                continue;
            }
            let initial = |v: &Option<String>| super::columns::holds_initial(v.as_deref(), default.as_deref());
            // The text one row was created with, edited since in the other:
            // the row edited was updated since its creation, the other never.
            let edited_in = |who: usize| {
                let (rows, values) = ([&a, &b], [&va[j], &vb[j]]);
                rows[who].touched == Some(true)
                    && rows[1 - who].touched == Some(false)
                    && matches!((values[1 - who], values[who]), (Some(x), Some(y)) if super::columns::edited(x, y))
            };
            let (who, list) = match (initial(&va[j]), initial(&vb[j])) {
                (true, false) => (1, &mut later.filled),
                (false, true) => (0, &mut later.filled),
                (false, false) if edited_in(0) => (0, &mut later.edited),
                (false, false) if edited_in(1) => (1, &mut later.edited),
                // A quantity, a count or a progress figure the earlier row
                // grew to since (an item added again and merged into it).
                _ if *grows && super::columns::grew(&va[j], &vb[j]) => (0, &mut later.grown),
                _ => return None,
            };
            if filler.is_some_and(|f| f != who) || [&a, &b][who].touched != Some(true) {
                return None;
            }
            filler = Some(who);
            list.push(name.clone());
        }
        // Where nothing was filled in, the two are one document stamped twice: the first is kept.
        let kept = match filler {
            Some(kept) => kept,
            None if !later.restamped.is_empty() => 0,
            None => return None,
        };
        let shown = if kept == 0 { vb } else { va };
        Some(Cluster { values: Box::default(), shown, members: vec![a, b], kept, filled_later: Some(later) })
    }
}

/// A row filled in later whose copy left as created is one of an exact
/// cluster (a client that tried three times, the last attempt the one people
/// worked on) joins that cluster, as the row it keeps, instead of making a
/// pair of its own that would list the copy twice.
fn merge_filled(clusters: &mut Vec<Cluster>) {
    let mut exact: FxHashMap<String, usize> = FxHashMap::default();
    for (i, c) in clusters.iter().enumerate().filter(|(_, c)| c.filled_later.is_none()) {
        for m in &c.members {
            exact.insert(m.id.to_string(), i);
        }
    }
    let mut merged = vec![false; clusters.len()];
    for i in 0..clusters.len() {
        let Some(later) = clusters[i].filled_later.clone() else { continue };
        let pair = &clusters[i];
        let copy = &pair.members[1 - pair.kept.min(1)];
        let filled = pair.keeper().clone();
        let Some(&j) = exact.get(&copy.id.to_string()) else { continue };
        if clusters[j].filled_later.is_some() || exact.contains_key(&filled.id.to_string()) {
            continue;
        }
        let target = &mut clusters[j];
        let at = target.members.partition_point(|m| (m.t_us, &m.id) < (filled.t_us, &filled.id));
        target.members.insert(at, filled);
        target.kept = at;
        target.filled_later = Some(later);
        merged[i] = true;
    }
    let mut merged = merged.into_iter();
    clusters.retain(|_| !merged.next().unwrap_or(false));
}

fn parse_number(text: &str) -> Result<Decimal> {
    Decimal::from_str(text)
        .or_else(|_| Decimal::from_scientific(text))
        .with_context(|| format!("--sum column value {text:?} is not a number"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::catalog::Column;

    fn cluster(ids: &[i64], kept: usize, filled: bool) -> Cluster {
        let members = ids.iter().map(|&i| Member::new(RowId::Int(i), i * 1_000_000)).collect();
        let filled_later =
            filled.then(|| window::Later { filled: vec!["model_pdf".to_string()], ..Default::default() });
        Cluster { values: Box::default(), shown: Vec::new(), members, kept, filled_later }
    }

    #[test]
    fn a_filled_row_joins_the_cluster_of_its_copy() {
        // Rows 1 and 2 equal as created; 3 is 2 filled in later; 5 is 4
        // filled in later, 4 in no cluster.
        let mut clusters = vec![cluster(&[1, 2], 0, false), cluster(&[2, 3], 1, true), cluster(&[4, 5], 1, true)];
        merge_filled(&mut clusters);
        let ids = |c: &Cluster| c.members.iter().map(|m| m.id.to_string()).collect::<Vec<_>>();
        assert_eq!(clusters.len(), 2);
        assert_eq!(ids(&clusters[0]), ["1", "2", "3"]);
        assert_eq!((clusters[0].kept, clusters[0].filled_later.is_some()), (2, true));
        assert_eq!(ids(&clusters[1]), ["4", "5"]);
        assert_eq!(clusters[1].kept, 1);
        // A filled row that stands in an exact cluster of its own (3 with 6)
        // joins no other: it would be listed twice.
        let mut clusters = vec![cluster(&[1, 2], 0, false), cluster(&[3, 6], 0, false), cluster(&[2, 3], 1, true)];
        merge_filled(&mut clusters);
        let all: Vec<Vec<String>> = clusters.iter().map(ids).collect();
        assert_eq!(all, [vec!["1", "2"], vec!["3", "6"], vec!["2", "3"]]);
    }

    fn column(name: &str, ty: &str, foreign: bool) -> Column {
        Column { foreign, ..Column::of(name, ty) }
    }

    #[test]
    fn a_number_grows_a_reference_does_not() {
        use super::super::plan::can_grow;
        assert!(can_grow(&column("quantity", "float", false)));
        assert!(can_grow(&column("done_ratio", "integer", false)));
        for (name, ty, foreign) in [
            ("user", "int(11)", false),
            ("fk_soc", "int(11)", false),
            ("label_id", "integer", false),
            ("parent", "bigint", true),
            ("note", "text", false),
        ] {
            assert!(!can_grow(&column(name, ty, foreign)), "{name}");
        }
        let v = |s: &str| Some(s.to_string());
        let grew = super::super::columns::grew;
        assert!(grew(&v("3.0"), &v("2.0")));
        assert!(!grew(&v("2.0"), &v("3.0")));
        assert!(!grew(&None, &v("3.0")));
        assert!(!grew(&v("abc"), &v("3.0")));
    }
}
