//! `one-instant`: rows written at the very same instant, where the column
//! keeps fractions of a second, or a burst of many rows within milliseconds,
//! were written by one transaction or one process (an import, a bulk create):
//! no client waits that little between two requests.

use super::{Context, Evidence, Side, Strength, Weight, gaps};
use crate::window::Cluster;

pub struct OneInstant;

/// Rows of a burst this close together, each after the one before.
const BURST_GAP_US: i64 = 2_000;
/// Rows this close were written by one request.
const ONE_REQUEST_US: i64 = 1_000;
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
        // A second request, even an immediate retry, comes a network round
        // trip and the server's work later: rows closer than that were
        // written by one request.
        if context.subsecond && gaps.iter().any(|&g| g < ONE_REQUEST_US) {
            let least = gaps.iter().copied().min().unwrap_or(0);
            return vec![Weight::new(
                self.name(),
                Side::Against,
                Strength::Strong,
                format!("rows {least}µs apart: written by one request (an import or a bulk create), not two"),
            )];
        }
        // Kept in whole seconds, a burst's gaps read 0 or 1 s: four rows or
        // more, each within a second of the one before, are one, as likely
        // as a client that tried four times within one round trip each.
        if n >= BURST_ROWS && !context.subsecond && gaps.iter().all(|&g| g <= 1_000_000) {
            return vec![Weight::new(
                self.name(),
                Side::Against,
                Strength::Strong,
                format!(
                    "{n} rows within {}s, each within a second of the one before (times kept in whole seconds): as \
                     likely a bulk write as a client's requests",
                    cluster.span_us() / 1_000_000
                ),
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
        let three = OneInstant.weigh(&cluster(&[0, 0, 0]), &c);
        assert_eq!(three[0].reason, "3 rows written at the same instant: one transaction (an import or a bulk create)");
        assert!(OneInstant.weigh(&cluster(&[0, 5]), &c).is_empty());
        assert_eq!(OneInstant.weigh(&cluster(&[0, 1, 2, 3]), &c)[0].side, Side::Against);
        // 18 µs apart: one request wrote both.
        let mut close = cluster(&[0, 0]);
        close.members[1].t_us += 18;
        assert!(OneInstant.weigh(&close, &c)[0].reason.contains("18µs apart"));
        close.members[1].t_us += 1_000;
        assert!(OneInstant.weigh(&close, &c).is_empty());
        let seconds = Context { subsecond: false, ..context() };
        assert!(OneInstant.weigh(&cluster(&[0, 0]), &seconds).is_empty());
        // At whole seconds: four rows a second apart each are a burst; three are not.
        assert_eq!(OneInstant.weigh(&cluster(&[0, 0, 1_000, 2_000]), &seconds)[0].side, Side::Against);
        assert!(OneInstant.weigh(&cluster(&[0, 1_000, 2_000]), &seconds).is_empty());
        assert!(OneInstant.weigh(&cluster(&[0, 1_000, 2_000, 4_000]), &seconds).is_empty());
    }
}
