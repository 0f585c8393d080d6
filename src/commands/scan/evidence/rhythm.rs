//! `rhythm`: three or more rows at even intervals are a schedule (a cron, a
//! meter, a bot), not a client retrying: retries back off, schedules repeat.

use super::{Context, Evidence, Side, Strength, Weight, gaps, shown};
use crate::window::Cluster;

pub struct Rhythm;

/// Gaps within this share of each other are even.
const EVEN: f64 = 0.05;
/// A schedule's period is at least this long (a burst is another kind).
const PERIOD_US: i64 = 1_000_000;

impl Evidence for Rhythm {
    fn name(&self) -> &'static str {
        "rhythm"
    }

    fn weigh(&self, cluster: &Cluster, _: &Context) -> Vec<Weight> {
        let gaps = gaps(cluster);
        if gaps.len() < 2 {
            return Vec::new();
        }
        let (lo, hi) = (*gaps.iter().min().unwrap(), *gaps.iter().max().unwrap());
        if lo >= PERIOD_US && (hi - lo) as f64 <= EVEN * hi as f64 {
            return vec![Weight::new(
                self.name(),
                Side::Against,
                Strength::Strong,
                format!("{} rows every {}: a schedule, not a retry", cluster.members.len(), shown(hi)),
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
    fn schedules_repeat_retries_back_off() {
        let c = context();
        assert_eq!(Rhythm.weigh(&cluster(&[0, 60_000, 120_000]), &c)[0].side, Side::Against);
        assert!(Rhythm.weigh(&cluster(&[0, 20_000, 60_000]), &c).is_empty());
        assert!(Rhythm.weigh(&cluster(&[0, 60_000]), &c).is_empty());
    }
}
