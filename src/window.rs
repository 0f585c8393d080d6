//! The sliding-window clusterer: rows arrive in created-at order, rows with
//! equal compared values that follow each other by at most the window form a
//! cluster. Pure: no I/O, memory bounded by the rows inside one window plus
//! the clusters not yet handed out.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::hash::BuildHasher;

use rust_decimal::Decimal;
use rustc_hash::{FxBuildHasher, FxHashMap};
use serde::Serialize;

/// A row's id: integers kept as numbers (no allocation, numeric order).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RowId {
    Int(i64),
    Text(Box<str>),
}

impl std::fmt::Display for RowId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RowId::Int(n) => write!(f, "{n}"),
            RowId::Text(t) => f.write_str(t),
        }
    }
}

impl From<&str> for RowId {
    fn from(text: &str) -> Self {
        RowId::Text(text.into())
    }
}

/// One row of the creation table, as the clusterer keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub id: RowId,
    /// Created-at, microseconds since the Unix epoch.
    pub t_us: i64,
    pub key: Option<Box<str>>,
    pub by: Option<Box<str>>,
    /// Each `--sum` column's amount, with its currency where one is known.
    pub money: Vec<(Option<Decimal>, Option<Box<str>>)>,
    /// Values of columns left out of the comparison, to show how the rows differ.
    pub watched: Vec<Option<Box<str>>>,
    /// Whether `--keep`'s condition holds for the row.
    pub keep: bool,
    /// The row's actor wrote another row between the previous equal row and
    /// this one (evidence of a separate intent).
    pub interleaved: bool,
    /// Why this row and an earlier one of its cluster look written by one
    /// request: they alone hold a value each write mints anew (read when
    /// the cluster is confirmed).
    pub one_write: Option<Box<str>>,
    /// The row's children, one list per child table the scan reads, each
    /// sorted (read when the cluster is confirmed).
    pub children: Vec<ChildRows>,
    /// Whether the row was updated since its creation (its update time more
    /// than 2 s after it), where the table has an update time.
    pub touched: Option<bool>,
}

/// One parent row's rows of one child table: the compared columns of each.
pub type ChildRows = Vec<Box<[Option<Box<str>>]>>;

impl Member {
    /// A row as the stream first sees it: the rest is read when it is confirmed.
    pub fn new(id: RowId, t_us: i64) -> Member {
        Member {
            id,
            t_us,
            key: None,
            by: None,
            money: Vec::new(),
            watched: Vec::new(),
            keep: false,
            interleaved: false,
            one_write: None,
            children: Vec::new(),
            touched: None,
        }
    }
}

/// A maximal run of equal rows, each within the window of the one before.
/// The first member is the original; the others are the damage.
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    /// The compared values, folded into one value.
    pub values: Box<[u8]>,
    /// The compared values for people, filled in once the cluster is confirmed.
    pub shown: Vec<Option<String>>,
    pub members: Vec<Member>,
    /// The member the cluster keeps (`--keep`); the others are the damage.
    pub kept: usize,
    /// A near-miss pair rather than a run of equal rows: `Some` and empty
    /// until its rows are read, then how the row kept moved on since its
    /// creation (`scan::confirm`).
    pub filled_later: Option<Later>,
}

/// The compared columns in which one row of a near-miss pair, updated since
/// its creation, moved on from what both were created with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Later {
    /// Columns the other row still holds as a new row starts them (NULL,
    /// empty, zero, the default) and this one has filled in.
    pub filled: Vec<String>,
    /// Numbers this row, the earlier, grew to since (a quantity merged into).
    pub grown: Vec<String>,
    /// Documents that differ only by what each attempt stamped into its own
    /// (its generated ids, its creation time): the same document twice.
    pub restamped: Vec<String>,
    /// Written text this row, updated since its creation, holds as the
    /// other's with an edit (words added or changed: "Edit: typo").
    pub edited: Vec<String>,
}

impl Later {
    pub fn is_empty(&self) -> bool {
        self.filled.is_empty() && self.grown.is_empty() && self.restamped.is_empty() && self.edited.is_empty()
    }
}

impl Cluster {
    /// The first row: where the intent began.
    pub fn original(&self) -> &Member {
        &self.members[0]
    }

    /// The row kept.
    pub fn keeper(&self) -> &Member {
        &self.members[self.kept]
    }

    /// Every row but the one kept.
    pub fn extras(&self) -> Vec<&Member> {
        self.members.iter().enumerate().filter(|(i, _)| *i != self.kept).map(|(_, m)| m).collect()
    }

    pub fn span_us(&self) -> i64 {
        self.members[self.members.len() - 1].t_us - self.members[0].t_us
    }
}

/// Why the retries got through, read off the keys the rows carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// No row carries a key: the endpoint does not require one.
    NoKey,
    /// Every row carries a different key: the client mints the key inside its retry loop.
    KeyPerAttempt,
    /// Rows share a key: the server let a duplicate through.
    KeyReused,
    /// The table has no key column to tell.
    Unknown,
}

impl Cause {
    /// `keys` is `None` when the table has no key column.
    pub fn of<'a>(keys: Option<impl IntoIterator<Item = Option<&'a str>>>) -> Cause {
        let Some(keys) = keys else {
            return Cause::Unknown;
        };
        let mut seen: Vec<&str> = Vec::new();
        for key in keys.into_iter().flatten() {
            if seen.contains(&key) {
                return Cause::KeyReused;
            }
            seen.push(key);
        }
        if seen.is_empty() { Cause::NoKey } else { Cause::KeyPerAttempt }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Cause::NoKey => "no-key",
            Cause::KeyPerAttempt => "key-per-attempt",
            Cause::KeyReused => "key-reused",
            Cause::Unknown => "unknown",
        }
    }
}

/// The clusters among candidate rows, told apart by their values themselves:
/// rows that only shared a hash part, and rows of one value chain by the
/// window again (another value under the same hash may have bridged a gap).
/// Rows come in time order, each with its compared values.
pub fn confirm(rows: Vec<(Member, Vec<Option<String>>)>, window_us: i64) -> Vec<Cluster> {
    let mut groups: Vec<(Vec<Option<String>>, Vec<Member>)> = Vec::new();
    for (member, values) in rows {
        match groups.iter_mut().find(|(v, _)| *v == values) {
            Some((_, members)) => members.push(member),
            None => groups.push((values, vec![member])),
        }
    }
    let mut clusters = Vec::new();
    for (values, members) in groups {
        let mut run: Vec<Member> = Vec::new();
        for member in members {
            if run.last().is_some_and(|last| member.t_us - last.t_us > window_us) {
                let done = std::mem::take(&mut run);
                if done.len() > 1 {
                    clusters.push(Cluster {
                        values: Box::default(),
                        shown: values.clone(),
                        members: done,
                        kept: 0,
                        filled_later: None,
                    });
                }
            }
            run.push(member);
        }
        if run.len() > 1 {
            clusters.push(Cluster { values: Box::default(), shown: values, members: run, kept: 0, filled_later: None });
        }
    }
    clusters
}

struct Group {
    values: Box<[u8]>,
    first_seq: u64,
    last_t: i64,
    /// Most groups stay a single row: it lives here, with no allocation.
    first: Member,
    rest: Vec<Member>,
}

impl Group {
    fn into_cluster(self) -> Cluster {
        let mut members = Vec::with_capacity(1 + self.rest.len());
        members.push(self.first);
        members.extend(self.rest);
        // Rows with equal times may arrive in any order: the original is the lowest id.
        members.sort_by(|a, b| (a.t_us, &a.id).cmp(&(b.t_us, &b.id)));
        Cluster { values: self.values, shown: Vec::new(), members, kept: 0, filled_later: None }
    }
}

/// A closed cluster waiting for every earlier-starting group to close, so
/// clusters come out in the order of their originals.
struct Ready {
    first_seq: u64,
    cluster: Cluster,
}

impl PartialEq for Ready {
    fn eq(&self, other: &Self) -> bool {
        self.first_seq == other.first_seq
    }
}
impl Eq for Ready {}
impl PartialOrd for Ready {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ready {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap is a max-heap: the earliest original comes out first.
        other.first_seq.cmp(&self.first_seq)
    }
}

/// How many rows pass between two looks for the earliest open group.
const READY_CHECK_EVERY: u64 = 1024;

pub struct Clusterer<S = FxBuildHasher> {
    window_us: i64,
    hasher: S,
    /// Open groups by the hash of their values; a hash shared by different
    /// values holds several groups, told apart by the values themselves.
    groups: FxHashMap<u64, Vec<Group>>,
    /// (created-at, hash) of every row still inside the window, oldest first.
    expiry: VecDeque<(i64, u64)>,
    ready: BinaryHeap<Ready>,
    /// No open group starts before this row; clusters starting earlier may go out.
    release_before: u64,
    seq: u64,
}

impl Clusterer {
    pub fn new(window_us: i64) -> Self {
        Clusterer::with_hasher(window_us, FxBuildHasher)
    }
}

impl<S: BuildHasher> Clusterer<S> {
    pub fn with_hasher(window_us: i64, hasher: S) -> Self {
        Clusterer {
            window_us: window_us.max(0),
            hasher,
            groups: FxHashMap::default(),
            expiry: VecDeque::new(),
            ready: BinaryHeap::new(),
            release_before: 0,
            seq: 0,
        }
    }

    /// Adds the next row. Rows must come in created-at order.
    pub fn push(&mut self, values: &[u8], member: Member) {
        let t = member.t_us;
        self.close_before(t.saturating_sub(self.window_us));
        let hash = self.hasher.hash_one(values);
        let bucket = self.groups.entry(hash).or_default();
        match bucket.iter_mut().find(|g| &*g.values == values) {
            Some(group) => {
                group.last_t = t;
                group.rest.push(member);
            }
            None => bucket.push(Group {
                values: values.into(),
                first_seq: self.seq,
                last_t: t,
                first: member,
                rest: Vec::new(),
            }),
        }
        self.expiry.push_back((t, hash));
        self.seq += 1;
        if self.seq.is_multiple_of(READY_CHECK_EVERY) {
            self.release_before = self.earliest_open();
        }
    }

    /// Clusters that are complete and in order, to hand out now.
    pub fn pop_ready(&mut self) -> Option<Cluster> {
        match self.ready.peek() {
            Some(top) if top.first_seq < self.release_before => self.ready.pop().map(|r| r.cluster),
            _ => None,
        }
    }

    /// Closes every group; what remains comes out of `pop_ready` in order.
    pub fn finish(&mut self) {
        self.close_before(i64::MAX);
        self.release_before = u64::MAX;
    }

    /// Closes the groups whose last row is older than `horizon`.
    fn close_before(&mut self, horizon: i64) {
        while let Some(&(t, hash)) = self.expiry.front() {
            if t >= horizon {
                break;
            }
            self.expiry.pop_front();
            let Some(bucket) = self.groups.get_mut(&hash) else {
                continue;
            };
            let mut i = 0;
            while i < bucket.len() {
                if bucket[i].last_t < horizon {
                    let group = bucket.swap_remove(i);
                    if !group.rest.is_empty() {
                        self.ready.push(Ready { first_seq: group.first_seq, cluster: group.into_cluster() });
                    }
                } else {
                    i += 1;
                }
            }
            if bucket.is_empty() {
                self.groups.remove(&hash);
            }
        }
    }

    fn earliest_open(&self) -> u64 {
        self.groups.values().flatten().map(|g| g.first_seq).min().unwrap_or(self.seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(id: &str, t_s: i64, key: Option<&str>) -> Member {
        Member { key: key.map(Into::into), ..Member::new(RowId::from(id), t_s * 1_000_000) }
    }

    fn run(window_s: i64, rows: &[(&str, &str, i64)]) -> Vec<Vec<String>> {
        let mut c = Clusterer::new(window_s * 1_000_000);
        let mut out = Vec::new();
        for (id, values, t) in rows {
            c.push(values.as_bytes(), member(id, *t, None));
            while let Some(cl) = c.pop_ready() {
                out.push(cl.members.iter().map(|m| m.id.to_string()).collect());
            }
        }
        c.finish();
        while let Some(cl) = c.pop_ready() {
            out.push(cl.members.iter().map(|m| m.id.to_string()).collect());
        }
        out
    }

    #[test]
    fn chained_window() {
        let rows = [("1", "a", 0), ("2", "a", 4), ("3", "a", 8)];
        assert_eq!(run(5, &rows), vec![vec!["1", "2", "3"]]);
        assert!(run(3, &rows).is_empty());
    }

    #[test]
    fn gap_exactly_the_window_joins() {
        assert_eq!(run(5, &[("1", "a", 0), ("2", "a", 5)]), vec![vec!["1", "2"]]);
        assert!(run(5, &[("1", "a", 0), ("2", "a", 6)]).is_empty());
    }

    #[test]
    fn far_apart_rows_are_separate_intents() {
        let day = 86_400;
        let rows = [("1", "a", 0), ("2", "a", 2), ("3", "a", 2 * day), ("4", "a", 2 * day + 1)];
        assert_eq!(run(5, &rows), vec![vec!["1", "2"], vec!["3", "4"]]);
    }

    #[test]
    fn different_values_do_not_mix_and_order_follows_originals() {
        let rows = [("1", "a", 0), ("2", "b", 1), ("3", "b", 2), ("4", "a", 3), ("5", "c", 10)];
        assert_eq!(run(5, &rows), vec![vec!["1", "4"], vec!["2", "3"]]);
    }

    #[test]
    fn long_chain_holds_back_later_clusters_until_it_closes() {
        // Group "a" chains across 5000 s while many "b<n>" pairs close behind it.
        let mut rows: Vec<(String, String, i64)> = Vec::new();
        for i in 0..5000 {
            rows.push((format!("a{i}"), "a".into(), i));
            if i % 2 == 0 {
                rows.push((format!("b{i}x"), format!("b{i}"), i));
                rows.push((format!("b{i}y"), format!("b{i}"), i));
            }
        }
        let refs: Vec<(&str, &str, i64)> = rows.iter().map(|(a, b, t)| (a.as_str(), b.as_str(), *t)).collect();
        let out = run(1, &refs);
        assert_eq!(out.len(), 2501);
        assert_eq!(out[0].len(), 5000);
        assert_eq!(out[0][0], "a0");
        assert_eq!(out[1], vec!["b0x", "b0y"]);
    }

    #[test]
    fn hash_collisions_are_told_apart_by_values() {
        // Every value hashes alike, so only the values themselves tell groups apart.
        #[derive(Default)]
        struct Constant;
        impl std::hash::Hasher for Constant {
            fn finish(&self) -> u64 {
                7
            }
            fn write(&mut self, _: &[u8]) {}
        }
        let mut c = Clusterer::with_hasher(5_000_000, std::hash::BuildHasherDefault::<Constant>::default());
        c.push(b"x", member("1", 0, None));
        c.push(b"y", member("2", 1, None));
        c.push(b"x", member("3", 2, None));
        c.finish();
        let cl = c.pop_ready().unwrap();
        assert_eq!(cl.members.iter().map(|m| m.id.to_string()).collect::<Vec<_>>(), ["1", "3"]);
        assert_eq!(&*cl.values, b"x");
        assert!(c.pop_ready().is_none());
    }

    #[test]
    fn equal_times_put_the_lowest_id_first() {
        let mut c = Clusterer::new(5_000_000);
        let at = |id: i64, t: i64| Member::new(RowId::Int(id), t);
        c.push(b"a", at(10, 0));
        c.push(b"a", at(9, 0));
        c.push(b"a", at(2, 1));
        c.finish();
        let ids: Vec<String> = c.pop_ready().unwrap().members.iter().map(|m| m.id.to_string()).collect();
        assert_eq!(ids, ["9", "10", "2"]);
    }

    #[test]
    fn confirm_splits_what_only_a_hash_joined() {
        let v = |s: &str| vec![Some(s.to_string()), None];
        // a@0, b@1 (same hash, other values), a@2, a@9: the a's at 0 and 2 are
        // one cluster; 9 is 7 s after 2; b stands alone.
        let rows = vec![
            (member("1", 0, None), v("a")),
            (member("2", 1, None), v("b")),
            (member("3", 2, None), v("a")),
            (member("4", 9, None), v("a")),
        ];
        let clusters = confirm(rows, 5_000_000);
        assert_eq!(clusters.len(), 1);
        assert_eq!(clusters[0].members.iter().map(|m| m.id.to_string()).collect::<Vec<_>>(), ["1", "3"]);
        assert_eq!(clusters[0].shown, v("a"));
    }

    #[test]
    fn causes() {
        assert_eq!(Cause::of(None::<Vec<Option<&str>>>), Cause::Unknown);
        assert_eq!(Cause::of(Some([None, None])), Cause::NoKey);
        assert_eq!(Cause::of(Some([Some("a"), Some("b")])), Cause::KeyPerAttempt);
        assert_eq!(Cause::of(Some([Some("a"), None, Some("a")])), Cause::KeyReused);
        assert_eq!(Cause::of(Some([None, Some("b")])), Cause::KeyPerAttempt);
    }

    /// Every member but the kept one, and the span from the first to the last.
    #[test]
    fn extras_and_span() {
        let members = vec![member("1", 10, None), member("2", 12, None), member("3", 15, None)];
        let cluster = Cluster { values: Box::default(), shown: Vec::new(), members, kept: 1, filled_later: None };
        assert_eq!(cluster.keeper().id.to_string(), "2");
        let extras: Vec<String> = cluster.extras().iter().map(|m| m.id.to_string()).collect();
        assert_eq!(extras, ["1", "3"]);
        assert_eq!(cluster.span_us(), 5_000_000);
    }

    /// A pair filled in later says which columns moved; none is nothing.
    #[test]
    fn what_moved_later() {
        assert!(Later::default().is_empty());
        for later in [
            Later { filled: vec!["due_date".into()], ..Later::default() },
            Later { grown: vec!["quantity".into()], ..Later::default() },
        ] {
            assert!(!later.is_empty(), "{later:?}");
        }
    }

    #[test]
    fn causes_as_reports_name_them() {
        let names = [Cause::NoKey, Cause::KeyPerAttempt, Cause::KeyReused, Cause::Unknown].map(Cause::as_str);
        assert_eq!(names, ["no-key", "key-per-attempt", "key-reused", "unknown"]);
    }

    /// Confirming by values: a gap of exactly the window chains, one more
    /// microsecond does not; a row left alone is no cluster.
    #[test]
    fn confirm_chains_by_the_window_on_equal_values() {
        let at = |id: &str, us: i64| Member::new(RowId::from(id), us);
        let v = |s: &str| vec![Some(s.to_string())];
        let rows = vec![
            (at("1", 0), v("a")),
            (at("2", 10), v("a")),
            (at("3", 10), v("b")),
            (at("4", 30), v("a")),
            (at("5", 41), v("a")),
        ];
        let ids: Vec<Vec<String>> =
            confirm(rows, 10).iter().map(|c| c.members.iter().map(|m| m.id.to_string()).collect()).collect();
        assert_eq!(ids, [vec!["1", "2"]]);
        let rows = vec![(at("1", 0), v("a")), (at("2", 100), v("a")), (at("3", 101), v("a"))];
        let clusters = confirm(rows, 10);
        assert_eq!(clusters.len(), 1);
        assert_eq!(clusters[0].members.len(), 2);
        assert_eq!(clusters[0].shown, v("a"));
    }

    /// A long pass hands a cluster out once every group that began before it
    /// has closed, before the pass ends: memory stays bounded.
    #[test]
    fn clusters_come_out_during_the_pass() {
        let mut c = Clusterer::new(5_000_000);
        c.push(b"solo", member("0", 0, None));
        c.push(b"dup", member("1", 0, None));
        c.push(b"dup", member("2", 1, None));
        let mut early = Vec::new();
        for i in 3..3 * READY_CHECK_EVERY as i64 {
            c.push(format!("v{i}").as_bytes(), member(&i.to_string(), 10 + i, None));
            while let Some(cl) = c.pop_ready() {
                early.push((i, cl.members.len()));
            }
        }
        assert_eq!(early.len(), 1, "{early:?}");
        assert!(early[0].0 < 2 * READY_CHECK_EVERY as i64, "{early:?}");
        assert_eq!(early[0].1, 2);
    }
}
