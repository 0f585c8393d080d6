//! `failed-then-done`: an earlier row whose state says the attempt failed
//! (declined, rejected, an error), then one that did not: the retry did its
//! job. A failed attempt is not a double effect.

use super::{Context, Evidence, Side, Strength, Weight};
use crate::window::Cluster;

pub struct FailedThenDone;

/// Words of a state that says the attempt had no effect.
const FAILED: &[&str] = &["fail", "declin", "error", "reject", "denied", "refus", "abort"];

pub fn failed(value: &str) -> bool {
    let value = value.to_lowercase();
    FAILED.iter().any(|w| value.contains(w))
}

impl Evidence for FailedThenDone {
    fn name(&self) -> &'static str {
        "failed-then-done"
    }

    fn weigh(&self, cluster: &Cluster, context: &Context) -> Vec<Weight> {
        for &i in &context.states {
            let value = |m: &crate::window::Member| m.watched.get(i).and_then(|v| v.as_deref()).map(str::to_string);
            let Some(first_failed) = cluster.members.iter().position(|m| value(m).is_some_and(|v| failed(&v))) else {
                continue;
            };
            if let Some(done) =
                cluster.members[first_failed + 1..].iter().find(|m| !value(m).is_some_and(|v| failed(&v)))
            {
                let column = &context.watched[i];
                return vec![Weight::new(
                    self.name(),
                    Side::Against,
                    Strength::Strong,
                    format!(
                        "{column} {} then {}: a failed attempt retried, not a double effect",
                        value(&cluster.members[first_failed]).unwrap_or_default(),
                        value(done).unwrap_or_else(|| "NULL".into())
                    ),
                )];
            }
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cluster, context};
    use super::*;

    #[test]
    fn a_declined_payment_retried() {
        let mut c = cluster(&[0, 8_000]);
        c.members[0].watched = vec![Some("declined".into())];
        c.members[1].watched = vec![Some("succeeded".into())];
        let ctx = Context { watched: vec!["status".into()], states: vec![0], ..context() };
        assert_eq!(FailedThenDone.weigh(&c, &ctx)[0].side, Side::Against);
        // Succeeded twice: a double effect.
        c.members[0].watched = vec![Some("succeeded".into())];
        assert!(FailedThenDone.weigh(&c, &ctx).is_empty());
        // Not a state column: not asked.
        c.members[0].watched = vec![Some("declined".into())];
        assert!(FailedThenDone.weigh(&c, &Context { states: vec![], ..ctx }).is_empty());
    }
}
