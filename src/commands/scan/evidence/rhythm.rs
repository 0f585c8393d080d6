//! `rhythm`: three or more rows at even intervals are a schedule (a cron, a
//! meter, a bot), not a client retrying: retries back off, schedules repeat.

use super::{Context, Evidence, Side, Strength, Weight, gaps, shown};
use crate::window::Cluster;

pub struct Rhythm;

/// Gaps within this share of each other are even.
const EVEN: f64 = 0.05;
/// A schedule's period is at least this long (a burst is another kind).
const PERIOD_US: i64 = 1_000_000;
/// Clients retry a few times at a fixed interval too: a short rhythm is a
/// schedule only over more rows than a client tries, a long one from three.
const CLIENT_TRIES: usize = 4;
const LONG_PERIOD_US: i64 = 60_000_000;

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
        let rows = cluster.members.len();
        let long = lo >= LONG_PERIOD_US || rows > CLIENT_TRIES;
        if lo >= PERIOD_US && long && (hi - lo) as f64 <= EVEN * hi as f64 {
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
        // A client retrying every 3 s, three times: not a schedule; five rows are.
        assert!(Rhythm.weigh(&cluster(&[0, 3_000, 6_000]), &c).is_empty());
        assert_eq!(Rhythm.weigh(&cluster(&[0, 3_000, 6_000, 9_000, 12_000]), &c)[0].side, Side::Against);
        // Four rows every 3 s: as many as a client tries.
        assert!(Rhythm.weigh(&cluster(&[0, 3_000, 6_000, 9_000]), &c).is_empty());
        // Within 5% of each other is even (60 s, 62 s); 10% is not (60 s, 66 s).
        assert_eq!(Rhythm.weigh(&cluster(&[0, 60_000, 122_000]), &c)[0].side, Side::Against);
        assert!(Rhythm.weigh(&cluster(&[0, 60_000, 126_000]), &c).is_empty());
    }
}
