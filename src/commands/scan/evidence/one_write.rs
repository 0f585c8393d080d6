//! `one-write`: the rows share a value that each write of this table mints
//! anew (a parent created with each request: a group, a batch, an import),
//! and no other row of the table holds it. A retry mints its own; rows that
//! share the only use of one were written by one request (a split in two
//! equal parts, two equal lines of one import).
//!
//! The columns are those the near misses showed minted per write (every
//! pair differing in them); the confirming step counts, for a cluster whose
//! rows share such a value, the table's rows that hold it, and marks the
//! member ([`crate::window::Member::one_write`]). A reply to an older topic
//! shares its topic with the topic's first post too: no mark.

use super::{Context, Evidence, Side, Strength, Weight};
use crate::window::Cluster;

pub struct OneWrite;

impl Evidence for OneWrite {
    fn name(&self) -> &'static str {
        "one-write"
    }

    fn weigh(&self, cluster: &Cluster, _context: &Context) -> Vec<Weight> {
        let Some(reason) = cluster.members.iter().find_map(|m| m.one_write.as_deref()) else { return Vec::new() };
        vec![Weight::new(self.name(), Side::Against, Strength::Strong, reason.to_string())]
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cluster, context};
    use super::*;

    #[test]
    fn a_mark_is_evidence_against() {
        let mut c = cluster(&[0, 40]);
        assert!(OneWrite.weigh(&c, &context()).is_empty());
        c.members[1].one_write = Some("1 and 2 alone hold transaction_group_id 4224".into());
        let w = OneWrite.weigh(&c, &context());
        assert_eq!(w.len(), 1);
        assert_eq!((w[0].side, w[0].strength), (Side::Against, Strength::Strong));
        assert_eq!(w[0].reason, "1 and 2 alone hold transaction_group_id 4224");
    }
}
