//! `round-trip`: the gaps between the rows look like a client's: a second
//! request within a round trip (a double submit, a retry after a dropped
//! response), or after a client's timeout, then backoff.

use super::{Context, Evidence, Side, Strength, Weight, backs_off, gaps, shown};
use crate::window::Cluster;

pub struct RoundTrip;

/// A second request this soon (and not at the very same instant) is a double
/// submit or an immediate retry: people do not mean the same thing twice
/// within a second.
const DOUBLE_SUBMIT_US: i64 = 1_000_000;
/// Clients give up on a response after about this long, then try again.
const TIMEOUT_US: std::ops::RangeInclusive<i64> = 5_000_000..=120_000_000;

impl Evidence for RoundTrip {
    fn name(&self) -> &'static str {
        "round-trip"
    }

    fn weigh(&self, cluster: &Cluster, context: &Context) -> Vec<Weight> {
        let gaps = gaps(cluster);
        // Retries are few; a long run of rows is something else. Times on
        // the minute tell no round trip from an hour's work.
        if gaps.is_empty() || gaps.len() > 3 || context.whole_minutes {
            return Vec::new();
        }
        let same_instant = |g: i64| g == 0 && context.subsecond;
        if gaps.iter().all(|&g| g <= DOUBLE_SUBMIT_US && !same_instant(g)) {
            let list: Vec<String> = gaps.iter().map(|&g| shown(g)).collect();
            return vec![Weight::new(
                self.name(),
                Side::For,
                Strength::Strong,
                format!("{} apart: a double submit or a retry within one round trip", list.join(", ")),
            )];
        }
        let timed_out = gaps.iter().all(|g| TIMEOUT_US.contains(g));
        let backing_off = backs_off(&gaps);
        if gaps.iter().all(|&g| g > 0 && g < *TIMEOUT_US.start()) {
            let list: Vec<String> = gaps.iter().map(|&g| shown(g)).collect();
            return vec![Weight::new(
                self.name(),
                Side::For,
                Strength::Weak,
                format!("{} apart: within a client's retry", list.join(", ")),
            )];
        }
        if timed_out && backing_off {
            let list: Vec<String> = gaps.iter().map(|&g| shown(g)).collect();
            let what =
                if gaps.len() > 1 { "after a client's timeout, then backoff" } else { "after a client's timeout" };
            return vec![Weight::new(
                self.name(),
                Side::For,
                Strength::Weak,
                format!("{} apart: {what}", list.join(", ")),
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
    fn gaps_of_clients() {
        let c = context();
        assert_eq!(RoundTrip.weigh(&cluster(&[0, 60]), &c)[0].strength, Strength::Strong);
        assert_eq!(RoundTrip.weigh(&cluster(&[0, 30_000]), &c)[0].strength, Strength::Weak);
        assert_eq!(RoundTrip.weigh(&cluster(&[0, 3_000]), &c)[0].strength, Strength::Weak);
        assert_eq!(RoundTrip.weigh(&cluster(&[0, 30_000, 90_000]), &c)[0].strength, Strength::Weak);
        // Shrinking waits are no backoff.
        assert!(RoundTrip.weigh(&cluster(&[0, 60_000, 70_000]), &c).is_empty());
        // The same instant is no round trip where the column keeps fractions.
        assert!(RoundTrip.weigh(&cluster(&[0, 0]), &c).is_empty());
        assert!(RoundTrip.weigh(&cluster(&[0, 0, 1, 2, 3]), &c).is_empty());
        // Words: one wait is a timeout, two a timeout then backoff; 5 s is
        // already a timeout.
        assert_eq!(RoundTrip.weigh(&cluster(&[0, 30_000]), &c)[0].reason, "30s apart: after a client's timeout");
        assert_eq!(
            RoundTrip.weigh(&cluster(&[0, 30_000, 90_000]), &c)[0].reason,
            "30s, 1m apart: after a client's timeout, then backoff"
        );
        assert_eq!(RoundTrip.weigh(&cluster(&[0, 5_000]), &c)[0].reason, "5.0s apart: after a client's timeout");
        // Four rows are a client's tries; five are something else.
        assert_eq!(RoundTrip.weigh(&cluster(&[0, 100, 200, 300]), &c)[0].strength, Strength::Strong);
        assert!(RoundTrip.weigh(&cluster(&[0, 100, 200, 300, 400]), &c).is_empty());
        // Times people enter, on the minute: 0 s or a minute apart is no round trip.
        let minutes = Context { subsecond: false, whole_minutes: true, ..context() };
        assert!(RoundTrip.weigh(&cluster(&[0, 0]), &minutes).is_empty());
        assert!(RoundTrip.weigh(&cluster(&[0, 60_000]), &minutes).is_empty());
        let seconds = Context { subsecond: false, ..context() };
        assert_eq!(RoundTrip.weigh(&cluster(&[0, 0]), &seconds)[0].strength, Strength::Strong);
    }
}
