//! `filled-later`: a pair of rows equal on every compared column but those
//! one of them still holds as a new row starts them (NULL, empty, zero, the
//! default) and the other, updated since its creation, has filled in: the
//! same request twice, one copy of which people went on to work on. Says
//! which columns, and which row was filled in (the row kept). Weak: it only
//! explains why the two rows are not equal. Within milliseconds of each
//! other (or the same second, where times are kept in whole seconds), two
//! rows that are not equal are as likely one bulk write (a form that adds
//! several items, an import) as a double submit: doubtful.

use super::{Context, Evidence, Side, Strength, Weight};
use crate::window::Cluster;

pub struct FilledLater;

const ONE_SECOND_US: i64 = 1_000_000;
/// Rows of one bulk write (one request, one transaction) follow each other
/// within milliseconds; a second request, clicked or sent again, comes
/// tens of milliseconds later at least.
const ONE_WRITE_US: i64 = 50_000;

impl Evidence for FilledLater {
    fn name(&self) -> &'static str {
        "filled-later"
    }

    fn weigh(&self, cluster: &Cluster, context: &Context) -> Vec<Weight> {
        let Some(later) = cluster.filled_later.as_ref().filter(|c| !c.is_empty()) else { return Vec::new() };
        let keeper = &cluster.keeper().id;
        let mut moved = Vec::new();
        if !later.filled.is_empty() {
            moved.push(format!("{} empty in one row, filled in {keeper}", later.filled.join(", ")));
        }
        if !later.grown.is_empty() {
            moved.push(format!("{} grown in {keeper}", later.grown.join(", ")));
        }
        if !later.edited.is_empty() {
            moved.push(format!("{} edited in {keeper}", later.edited.join(", ")));
        }
        let stamped = (!later.restamped.is_empty()).then(|| {
            format!(
                "{} differing only by what each attempt stamped into it (its own ids, its creation time)",
                later.restamped.join(", ")
            )
        });
        let why = match (moved.is_empty(), stamped) {
            (false, None) => format!("equal as created: {} after its creation", moved.join(", and ")),
            (false, Some(stamped)) => {
                format!("equal as created: {} after its creation; {stamped}", moved.join(", and "))
            }
            (true, stamped) => format!("equal but for {}", stamped.unwrap_or_default()),
        };
        // At whole seconds, one second apart may be a moment apart.
        let span = cluster.span_us();
        if (context.subsecond && span < ONE_WRITE_US) || (!context.subsecond && span <= ONE_SECOND_US) {
            let within = if context.subsecond { "milliseconds" } else { "a second" };
            let why = format!("{why}, but within {within} of each other: as likely one bulk write");
            return vec![Weight::new(self.name(), Side::Against, Strength::Weak, why)];
        }
        // The copy left as created is what a retry leaves behind; where both
        // were worked on, two items are as likely.
        let kept = cluster.kept;
        if !moved.is_empty()
            && let Some((_, other)) =
                cluster.members.iter().enumerate().find(|(i, m)| *i != kept && m.touched != Some(false))
        {
            let why = format!("{why}, but {} was updated since its creation too: as likely two items", other.id);
            return vec![Weight::new(self.name(), Side::Against, Strength::Weak, why)];
        }
        vec![Weight::new(self.name(), Side::For, Strength::Weak, why)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cluster, context};
    use super::*;

    #[test]
    fn names_the_columns_and_the_row_filled_in() {
        let mut c = cluster(&[0, 30_000]);
        assert!(FilledLater.weigh(&c, &context()).is_empty());
        c.filled_later = Some(crate::window::Later { filled: vec!["description".into()], ..Default::default() });
        c.kept = 1;
        c.members[0].touched = Some(false);
        let w = FilledLater.weigh(&c, &context());
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].side, Side::For);
        assert_eq!(w[0].reason, "equal as created: description empty in one row, filled in 2 after its creation");
        // Both worked on: as likely two items.
        c.members[0].touched = Some(true);
        assert_eq!(FilledLater.weigh(&c, &context())[0].side, Side::Against);
        // Within milliseconds: as likely a bulk write; a tenth of a second
        // apart, a second request.
        let mut c = Cluster { filled_later: c.filled_later.clone(), ..cluster(&[0, 40]) };
        c.kept = 1;
        c.members[0].touched = Some(false);
        let w = FilledLater.weigh(&c, &context());
        assert!(w[0].side == Side::Against && w[0].reason.contains("within milliseconds"), "{w:?}");
        c.members[1].t_us += 60_000;
        assert_eq!(FilledLater.weigh(&c, &context())[0].side, Side::For);
        // At whole seconds, a second apart is as likely one write.
        let seconds = Context { subsecond: false, ..context() };
        c.members[1].t_us = c.members[0].t_us + 1_000_000;
        assert_eq!(FilledLater.weigh(&c, &seconds)[0].side, Side::Against);
    }
}
