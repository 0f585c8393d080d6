//! `one-instant`: rows written at the very same instant, where the column
//! keeps fractions of a second, or a burst of many rows within milliseconds,
//! were written by one transaction or one process (an import, a bulk create):
//! no client waits that little between two requests.

use super::{Context, Evidence, Side, Strength, Weight, gaps};
use crate::window::Cluster;

pub struct OneInstant;

/// Rows of a burst this close together, each after the one before.
const BURST_GAP_US: i64 = 2_000;
/// Rows a burst has, at least.
const BURST_ROWS: usize = 4;

impl Evidence for OneInstant {
    fn name(&self) -> &'static str {
        "one-instant"
    }

    fn weigh(&self, cluster: &Cluster, context: &Context) -> Vec<Weight> {
        let gaps = gaps(cluster);
        let n = cluster.members.len();
        if context.subsecond && gaps.contains(&0) {
            let equal = gaps.iter().filter(|&&g| g == 0).count() + 1;
            return vec![Weight::new(
                self.name(),
                Side::Against,
                Strength::Strong,
                format!("{equal} rows written at the same instant: one transaction (an import or a bulk create)"),
            )];
        }
        if n >= BURST_ROWS && gaps.iter().all(|&g| g <= BURST_GAP_US) {
            return vec![Weight::new(
                self.name(),
                Side::Against,
                Strength::Strong,
                format!("{n} rows within {}ms: a bulk write, not a client's requests", cluster.span_us() / 1_000),
            )];
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cluster, context};
    use super::*;

    #[test]
    fn one_transaction() {
        let c = context();
        assert_eq!(OneInstant.weigh(&cluster(&[0, 0]), &c)[0].side, Side::Against);
        assert!(OneInstant.weigh(&cluster(&[0, 5]), &c).is_empty());
        assert_eq!(OneInstant.weigh(&cluster(&[0, 1, 2, 3]), &c)[0].side, Side::Against);
        let seconds = Context { subsecond: false, ..context() };
        assert!(OneInstant.weigh(&cluster(&[0, 0]), &seconds).is_empty());
    }
}
