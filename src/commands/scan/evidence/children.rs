//! `child-rows`: the rows of other tables that hang off each member (an
//! order's lines, an issue's custom values). A retry repeats the request
//! whole, so its children repeat the original's; children that differ, where
//! neither row's are a part of the other's (work done later adds children to
//! one row, it does not change the ones both were created with), are two
//! requests with their own details.

use std::collections::BTreeMap;

use super::{Context, Evidence, Side, Strength, Weight};
use crate::window::{ChildRows, Cluster};

pub struct ChildRowsDiffer;

/// Whether every row of `a` is in `b`, as many times.
fn within(a: &ChildRows, b: &ChildRows) -> bool {
    let mut left: BTreeMap<&[Option<Box<str>>], i64> = BTreeMap::new();
    for row in b {
        *left.entry(row).or_default() += 1;
    }
    a.iter().all(|row| {
        let n = left.entry(row).or_default();
        *n -= 1;
        *n >= 0
    })
}

fn column_values(rows: &ChildRows, i: usize) -> Vec<Option<&str>> {
    let mut v: Vec<Option<&str>> = rows.iter().map(|r| r.get(i).and_then(|c| c.as_deref())).collect();
    v.sort();
    v
}

/// The first compared column where the two rows' children differ, and a value of each.
fn difference(a: &ChildRows, b: &ChildRows, columns: &[String]) -> String {
    for (i, column) in columns.iter().enumerate() {
        let (va, vb) = (column_values(a, i), column_values(b, i));
        if va != vb {
            let first = |v: &[Option<&str>], other: &[Option<&str>]| {
                v.iter().find(|x| !other.contains(x)).or(v.first()).copied().flatten().unwrap_or("NULL").to_string()
            };
            return format!("{column} {:?} vs {:?}", first(&va, &vb), first(&vb, &va));
        }
    }
    format!("{} rows vs {}", a.len(), b.len())
}

impl Evidence for ChildRowsDiffer {
    fn name(&self) -> &'static str {
        "child-rows"
    }

    fn weigh(&self, cluster: &Cluster, context: &Context) -> Vec<Weight> {
        let mut weights = Vec::new();
        for (i, (table, columns)) in context.children.iter().enumerate() {
            let Some(first) = cluster.members[0].children.get(i) else { continue };
            if first.is_empty() {
                continue;
            }
            let others: Vec<&ChildRows> =
                cluster.members[1..].iter().filter_map(|m| m.children.get(i)).filter(|c| !c.is_empty()).collect();
            if others.is_empty() {
                continue;
            }
            if let Some(other) = others.iter().find(|o| !within(first, o) && !within(o, first)) {
                weights.push(Weight::new(
                    self.name(),
                    Side::Against,
                    Strength::Strong,
                    format!("their {table} rows differ ({}): separate requests", difference(first, other, columns)),
                ));
                return weights;
            }
            if others.iter().all(|o| *o == first) {
                weights.push(Weight::new(
                    self.name(),
                    Side::For,
                    Strength::Weak,
                    format!("the same {} {table} rows", first.len()),
                ));
            }
        }
        weights
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cluster, context};
    use super::*;

    fn rows(values: &[&str]) -> ChildRows {
        let mut r: ChildRows = values.iter().map(|v| vec![Some((*v).into())].into_boxed_slice()).collect();
        r.sort();
        r
    }

    #[test]
    fn children_tell_two_requests_apart() {
        let ctx = Context { children: vec![("custom_values".into(), vec!["value".into()])], ..context() };
        let mut c = cluster(&[0, 40]);
        // One test filed per platform: two requests.
        c.members[0].children = vec![rows(&["Windows"])];
        c.members[1].children = vec![rows(&["Linux"])];
        let w = ChildRowsDiffer.weigh(&c, &ctx);
        assert_eq!(w[0].side, Side::Against, "{w:?}");
        assert!(w[0].reason.contains("value \"Windows\" vs \"Linux\""), "{}", w[0].reason);
        // Two children each, one shared: the reason names the two that differ.
        c.members[0].children = vec![rows(&["Linux", "Windows"])];
        c.members[1].children = vec![rows(&["Linux", "macOS"])];
        let w = ChildRowsDiffer.weigh(&c, &ctx);
        assert!(w[0].reason.contains("value \"Windows\" vs \"macOS\""), "{}", w[0].reason);
        // The same children: one request twice.
        c.members[0].children = vec![rows(&["Windows"])];
        c.members[1].children = vec![rows(&["Windows"])];
        assert_eq!(ChildRowsDiffer.weigh(&c, &ctx)[0].side, Side::For);
        // A child added later to the original only: nothing against.
        c.members[0].children = vec![rows(&["Windows", "note"])];
        assert!(ChildRowsDiffer.weigh(&c, &ctx).is_empty());
        // No children on the copy: nothing either way.
        c.members[1].children = vec![Vec::new()];
        assert!(ChildRowsDiffer.weigh(&c, &ctx).is_empty());
    }
}
