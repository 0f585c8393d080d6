//! Evidence for and against each cluster being a client's retry rather than
//! a legitimate repeat, and the confidence it adds up to.
//!
//! One comparison for the whole table cannot tell a retry from a new intent
//! that happens to look the same: an import writes identical rows in one
//! transaction, a schedule repeats itself, a declined payment is tried again.
//! Each kind of evidence is one unit (a file here) implementing [`Evidence`];
//! the judge asks every kind in [`KINDS`] about every confirmed cluster and
//! adds up what they say. Adding a kind touches no other.

mod children;
mod filled;
mod instant;
mod interleaved;
mod key;
mod many;
mod one_write;
mod outcome;
mod rhythm;
mod round_trip;

pub use interleaved::Interleave;

use serde::Serialize;

use crate::window::Cluster;

/// Which way a piece of evidence points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The rows look like one request made twice.
    For,
    /// The rows look like separate intents.
    Against,
}

/// How much a piece of evidence for a retry weighs: a strong one alone makes
/// a cluster certain (evidence against always makes it doubtful).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    Strong,
    Weak,
}

/// One thing a kind of evidence saw in a cluster, with its reason in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Weight {
    pub kind: &'static str,
    pub side: Side,
    pub strength: Strength,
    pub reason: String,
}

impl Weight {
    pub fn new(kind: &'static str, side: Side, strength: Strength, reason: String) -> Weight {
        Weight { kind, side, strength, reason }
    }
}

/// How sure the scan is that a cluster is a retry's damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Evidence against it: possibly a legitimate repeat; look before acting.
    Doubtful,
    /// Nothing against it, nothing that proves it.
    Likely,
    /// Strong evidence for it and nothing against.
    Certain,
}

impl Confidence {
    pub const ALL: [Confidence; 3] = [Confidence::Certain, Confidence::Likely, Confidence::Doubtful];

    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Certain => "certain",
            Confidence::Likely => "likely",
            Confidence::Doubtful => "doubtful",
        }
    }
}

/// What the table tells every kind of evidence, beside the cluster itself.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The created-at column keeps parts of a second: two rows at the very
    /// same instant were written together, not by two requests.
    pub subsecond: bool,
    /// Every created-at time is on the minute: a time people enter (when
    /// the work began) or one cut to the minute, whose gaps are no client's.
    pub whole_minutes: bool,
    /// The table has a key column (each member's `key` is read).
    pub has_key: bool,
    /// The watched columns (`Member::watched`), by name.
    pub watched: Vec<String>,
    /// Which watched columns hold an outcome or state (`status`, `state`).
    pub states: Vec<usize>,
    /// The column naming who wrote each row, whose other rows between two
    /// members the stream marks (`Member::interleaved`).
    pub actor: Option<String>,
    /// The child tables read for each member (`Member::children`, in this
    /// order), with the columns compared in each.
    pub children: Vec<(String, Vec<String>)>,
}

/// A kind of evidence: looks at a confirmed cluster and says what it sees.
pub trait Evidence: Sync {
    /// The kind's name, as reports give it (`key-reused`, `round-trip`).
    fn name(&self) -> &'static str;
    /// What this kind sees in the cluster: nothing, or one or more weights.
    fn weigh(&self, cluster: &Cluster, context: &Context) -> Vec<Weight>;
}

/// Every kind of evidence the judge asks, in the order reasons are given.
pub const KINDS: &[&dyn Evidence] = &[
    &outcome::FailedThenDone,
    &children::ChildRowsDiffer,
    &filled::FilledLater,
    &one_write::OneWrite,
    &instant::OneInstant,
    &rhythm::Rhythm,
    &many::Many,
    &interleaved::Interleaved,
    &key::KeyReused,
    &round_trip::RoundTrip,
];

/// The confidence of a cluster and the evidence behind it: anything against
/// makes it doubtful; else a strong piece for it makes it certain; else it
/// is likely.
pub fn judge(cluster: &Cluster, context: &Context) -> (Confidence, Vec<Weight>) {
    let weights: Vec<Weight> = KINDS.iter().flat_map(|k| k.weigh(cluster, context)).collect();
    let confidence = if weights.iter().any(|w| w.side == Side::Against) {
        Confidence::Doubtful
    } else if weights.iter().any(|w| w.strength == Strength::Strong) {
        Confidence::Certain
    } else {
        Confidence::Likely
    };
    (confidence, weights)
}

/// The gaps between consecutive members, microseconds.
pub fn gaps(cluster: &Cluster) -> Vec<i64> {
    cluster.members.windows(2).map(|w| w[1].t_us - w[0].t_us).collect()
}

/// Whether waits back off: each at least as long as the one before (within
/// a tenth), as a client's retries do.
pub fn backs_off(gaps: &[i64]) -> bool {
    gaps.windows(2).all(|w| w[1] * 10 >= w[0] * 9)
}

/// A gap for people: `40ms`, `2.5s`, `31s`, `2m 5s`.
pub fn shown(us: i64) -> String {
    if us < 1_000_000 {
        format!("{}ms", us / 1_000)
    } else if us < 10_000_000 {
        format!("{:.1}s", us as f64 / 1e6)
    } else {
        crate::timeparse::span(std::time::Duration::from_micros(us.max(0) as u64))
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::window::{Member, RowId};

    /// A cluster of rows at these offsets (ms) from an instant, ids 1, 2, ...
    pub fn cluster(offsets_ms: &[i64]) -> Cluster {
        let members = offsets_ms
            .iter()
            .enumerate()
            .map(|(i, ms)| Member::new(RowId::Int(i as i64 + 1), 1_790_812_800_000_000 + ms * 1_000))
            .collect();
        Cluster { values: Box::default(), shown: Vec::new(), members, kept: 0, filled_later: None }
    }

    pub fn context() -> Context {
        Context { subsecond: true, ..Context::default() }
    }

    #[test]
    fn every_kind_has_its_name() {
        let names: Vec<&str> = KINDS.iter().map(|k| k.name()).collect();
        assert_eq!(
            names,
            [
                "failed-then-done",
                "child-rows",
                "filled-later",
                "one-write",
                "one-instant",
                "rhythm",
                "many-rows",
                "interleaved",
                "key-reused",
                "round-trip"
            ]
        );
    }

    /// The levels as reports spell them, and gaps as people read them, at
    /// each unit's edge.
    #[test]
    fn levels_and_gaps_as_shown() {
        let spelt: Vec<&str> = Confidence::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(spelt, ["certain", "likely", "doubtful"]);
        assert_eq!(shown(40_000), "40ms");
        assert_eq!(shown(999_999), "999ms");
        assert_eq!(shown(1_000_000), "1.0s");
        assert_eq!(shown(9_999_999), "10.0s");
        assert_eq!(shown(10_000_000), "10s");
        assert_eq!(shown(125_000_000), "2m 5s");
    }

    #[test]
    fn against_wins_and_strong_makes_certain() {
        let c = context();
        // A double submit 40 ms apart: certain.
        assert_eq!(judge(&cluster(&[0, 40]), &c).0, Confidence::Certain);
        // A retry after a 30 s timeout: likely.
        assert_eq!(judge(&cluster(&[0, 30_000]), &c).0, Confidence::Likely);
        // Two rows at the same microsecond, where the column keeps them: one
        // transaction wrote both.
        let (confidence, weights) = judge(&cluster(&[0, 0]), &c);
        assert_eq!(confidence, Confidence::Doubtful, "{weights:?}");
        // At whole seconds the same instant says nothing.
        let seconds = Context { subsecond: false, ..context() };
        assert_ne!(judge(&cluster(&[0, 0]), &seconds).0, Confidence::Doubtful);
    }
}
