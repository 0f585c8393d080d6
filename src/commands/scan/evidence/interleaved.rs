//! `interleaved`: the same actor (a user, a customer, an author) wrote other
//! rows between two equal ones (A, B, A): a person who went on working, then
//! did the same thing again, not a client waiting on a lost response.
//!
//! The stream marks each row as it passes ([`Interleave`], from the hashes
//! it already carries: no read of its own); the evidence reads the mark.

use rustc_hash::FxHashMap;

use super::{Context, Evidence, Side, Strength, Weight};
use crate::window::Cluster;

pub struct Interleaved;

impl Evidence for Interleaved {
    fn name(&self) -> &'static str {
        "interleaved"
    }

    fn weigh(&self, cluster: &Cluster, context: &Context) -> Vec<Weight> {
        let Some(actor) = &context.actor else { return Vec::new() };
        let between = cluster.members.iter().skip(1).filter(|m| m.interleaved).count();
        if between == 0 {
            return Vec::new();
        }
        vec![Weight::new(
            self.name(),
            Side::Against,
            Strength::Strong,
            format!("the same {actor} wrote other rows between them: separate intents"),
        )]
    }
}

/// Marks, in the stream, each row that follows another row of its actor
/// written after the previous row equal to it. Memory: the actors and
/// values seen within one window.
pub struct Interleave {
    actor: Option<usize>,
    window_us: i64,
    seq: u64,
    last_of_actor: FxHashMap<u64, (u64, i64)>,
    last_of_value: FxHashMap<u64, (u64, i64)>,
    swept_at: i64,
}

impl Interleave {
    /// `actor`: the actor column's place among the carried hashes.
    pub fn new(actor: Option<usize>, window_us: i64) -> Interleave {
        Interleave {
            actor,
            window_us,
            seq: 0,
            last_of_actor: FxHashMap::default(),
            last_of_value: FxHashMap::default(),
            swept_at: i64::MIN,
        }
    }

    /// Whether this row (its grouping key and hashes) comes after another
    /// row of its actor that is not equal to it, since the last equal row.
    pub fn push(&mut self, key: u64, hashes: &[u64], t_us: i64) -> bool {
        let Some(a) = self.actor else { return false };
        let actor = hashes[a];
        if crate::fingerprint::is_null(actor, a) {
            return false;
        }
        self.seq += 1;
        let equal = self.last_of_value.insert(key, (self.seq, t_us));
        let mine = self.last_of_actor.insert(actor, (self.seq, t_us));
        if t_us.saturating_sub(self.swept_at) > self.window_us.saturating_mul(4).max(1) {
            let since = t_us.saturating_sub(self.window_us);
            self.last_of_actor.retain(|_, (_, t)| *t >= since);
            self.last_of_value.retain(|_, (_, t)| *t >= since);
            self.swept_at = t_us;
        }
        matches!((equal, mine), (Some((e, _)), Some((m, _))) if m > e)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cluster, context};
    use super::*;

    #[test]
    fn a_b_a() {
        let mut t = Interleave::new(Some(0), 120_000_000);
        // Actor 7 writes A, B, A: the second A comes after B.
        assert!(!t.push(1, &[7], 0));
        assert!(!t.push(2, &[7], 1_000_000));
        assert!(t.push(1, &[7], 2_000_000));
        // Actor 8 writes A, A with actor 9's row between: not interleaved.
        assert!(!t.push(3, &[8], 3_000_000));
        assert!(!t.push(4, &[9], 3_500_000));
        assert!(!t.push(3, &[8], 4_000_000));
        // What lies a window back is forgotten: actor 9 writes C, D, and C
        // again five windows later, no longer "between" anything.
        let mut t = Interleave::new(Some(0), 1_000_000);
        assert!(!t.push(11, &[9], 0));
        assert!(!t.push(12, &[9], 500_000));
        assert!(!t.push(13, &[10], 5_000_000));
        assert!(!t.push(11, &[9], 5_500_000));
        assert!((t.last_of_actor.len(), t.last_of_value.len()) <= (2, 2), "swept");
        // NULL is nobody, however the engine hashed it: no actor.
        for nobody in [crate::fingerprint::null(0), crate::fingerprint::mix(crate::fingerprint::server_null_mark(0), 0)]
        {
            assert!(!t.push(5, &[nobody], 5_000_000));
            assert!(!t.push(6, &[nobody], 5_500_000));
            assert!(!t.push(5, &[nobody], 6_000_000));
        }
        let mut c = cluster(&[0, 2_000]);
        c.members[1].interleaved = true;
        let ctx = Context { actor: Some("user_id".into()), ..context() };
        assert_eq!(Interleaved.weigh(&c, &ctx)[0].side, Side::Against);
    }
}
