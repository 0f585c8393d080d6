//! `many-rows`: more equal rows than a client tries, at waits that do not
//! back off, are several items entered in a row (packs scanned one after the
//! other, a list typed in), not one request sent again: clients give up
//! after a few tries, and wait longer before each.

use super::{Context, Evidence, Side, Strength, Weight, backs_off, gaps, shown};
use crate::window::Cluster;

pub struct Many;

/// The most rows a client's tries make: the first and three retries (curl's
/// `--retry 3`, n8n's three tries, most SDKs' defaults).
const CLIENT_ROWS: usize = 4;

impl Evidence for Many {
    fn name(&self) -> &'static str {
        "many-rows"
    }

    fn weigh(&self, cluster: &Cluster, _: &Context) -> Vec<Weight> {
        let rows = cluster.members.len();
        if rows <= CLIENT_ROWS {
            return Vec::new();
        }
        // A client that tries this often backs off: its waits grow, the last
        // at least twice the first. Even waits are packs scanned at a pace.
        let gaps = gaps(cluster);
        let grows = gaps.first().zip(gaps.last()).is_some_and(|(first, last)| *last >= 2 * *first);
        if backs_off(&gaps) && grows {
            return Vec::new();
        }
        let (lo, hi) = (gaps.iter().copied().min().unwrap_or(0), gaps.iter().copied().max().unwrap_or(0));
        vec![Weight::new(
            self.name(),
            Side::Against,
            Strength::Strong,
            format!(
                "{rows} rows {} to {} apart: more than a client tries, and not backing off: several items entered in \
                 a row",
                shown(lo),
                shown(hi)
            ),
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cluster, context};
    use super::*;

    #[test]
    fn more_than_a_client_tries() {
        let c = context();
        // Six packs scanned, 3-6 s apart.
        let w = Many.weigh(&cluster(&[0, 4_000, 8_000, 11_000, 15_000, 21_000]), &c);
        assert_eq!(w[0].side, Side::Against);
        assert_eq!(
            w[0].reason,
            "6 rows 3.0s to 6.0s apart: more than a client tries, and not backing off: several items entered in a row"
        );
        // Four rows are a client's tries, however spaced.
        assert!(Many.weigh(&cluster(&[0, 4_000, 3_000, 5_000]), &c).is_empty());
        // Five rows backing off are a client that tried hard.
        assert!(Many.weigh(&cluster(&[0, 1_000, 3_000, 7_000, 15_000]), &c).is_empty());
        // Six packs scanned every 4 s (the last a little slower) do not back off.
        let even = Many.weigh(&cluster(&[0, 4_000, 8_000, 12_000, 16_000, 22_000]), &c);
        assert_eq!(even[0].side, Side::Against, "{even:?}");
    }
}
