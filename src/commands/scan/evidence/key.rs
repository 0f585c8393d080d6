//! `key-reused`: rows that carry the same idempotency key are one intent by
//! the client's own word; the server let the second through.

use super::{Context, Evidence, Side, Strength, Weight};
use crate::window::Cluster;

pub struct KeyReused;

impl Evidence for KeyReused {
    fn name(&self) -> &'static str {
        "key-reused"
    }

    fn weigh(&self, cluster: &Cluster, context: &Context) -> Vec<Weight> {
        if !context.has_key {
            return Vec::new();
        }
        let keys: Vec<&str> = cluster.members.iter().filter_map(|m| m.key.as_deref()).collect();
        let shared = keys.iter().enumerate().find(|(i, k)| keys[..*i].contains(k)).map(|(_, k)| *k);
        match shared {
            Some(key) => vec![Weight::new(
                self.name(),
                Side::For,
                Strength::Strong,
                format!("rows share the key {key:?}: the client sent one request twice"),
            )],
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cluster, context};
    use super::*;

    #[test]
    fn a_shared_key_is_strong() {
        let mut c = cluster(&[0, 30_000]);
        c.members[0].key = Some("k1".into());
        c.members[1].key = Some("k1".into());
        let ctx = Context { has_key: true, ..context() };
        assert_eq!(KeyReused.weigh(&c, &ctx)[0].strength, Strength::Strong);
        c.members[1].key = Some("k2".into());
        assert!(KeyReused.weigh(&c, &ctx).is_empty());
        // No key column: nothing said.
        c.members[1].key = Some("k1".into());
        assert!(KeyReused.weigh(&c, &context()).is_empty());
    }
}
