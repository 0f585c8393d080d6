//! Near misses: rows within the window of a row before them that are equal on
//! every compared column but one or a few. A retry that copies its request
//! but mints a value of its own (a new id in another table, the next number,
//! a token, a time) leaves exactly such pairs, and the column that differs
//! in nearly all of them is the one keeping the retries from being found.
//! Counted in the scan's own pass from the per-column hashes it carries
//! (`fingerprint`), so finding them reads nothing twice. Pure: no I/O.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::fingerprint::is_null;
use crate::window::RowId;

/// Rows each row is compared with, at most: the most recent in its window
/// that could be a near miss of it (`Detector::index`).
const MAX_PARTNERS: usize = 256;
/// Rows that may hold one value of an identity column in a stretch of the
/// window and still tell one thing sent again (an original and two
/// retries): a row finding more before it holds a value many rows share.
const IDENTITY_HELD: u32 = 3;
/// Near-miss pairs kept as samples, per set of differing columns and in all.
const SAMPLES_PER_SET: usize = 12;
const SAMPLES: usize = 192;
/// Of the pairs kept, at most one in this many differ in written text.
const PROSE_SHARE: usize = 10;

/// How many compared columns may differ for a pair to be a near miss, of
/// the `informative` ones (columns whose values vary: a column NULL on every
/// row tells no rows apart): one of two to five, then one in four, from two
/// to six.
pub fn max_differing(informative: usize) -> usize {
    match informative {
        0 | 1 => 0,
        2..=5 => 1,
        n => (n / 4).clamp(2, 6),
    }
}

/// The estimated number of distinct values of each of `width` columns, over
/// rows given as `width` hashes each.
pub fn distinct(width: usize, hashes: &[u64]) -> Vec<f64> {
    let mut sketches = vec![Distinct::default(); width];
    for row in hashes.chunks(width) {
        for (d, &h) in sketches.iter_mut().zip(row) {
            d.add(h);
        }
    }
    sketches.iter().map(Distinct::estimate).collect()
}

/// A near-miss pair kept so that its values can be read: the earlier and
/// the later row, and the carried columns in which they differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub earlier: RowId,
    pub later: RowId,
    pub differing: Vec<usize>,
}

/// What one pass over rows found.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub rows: u64,
    /// Rows equal on every compared column to a row before them in the window.
    pub exact_rows: u64,
    /// Of those, the rows created at the very same time as that row.
    pub exact_same_time: u64,
    /// Per carried column: exact rows equal to their partner on it (counted
    /// for the columns left out of the comparison).
    pub equal_in_exact: Vec<u64>,
    /// Per carried column: rows equal on it to the row just before them,
    /// whatever else they hold: how often two rows share a value by chance.
    pub equal_in_neighbours: Vec<u64>,
    /// Rows with no exact partner but a near miss before them in the window.
    pub near_rows: u64,
    /// Per carried column: near-miss rows in which it is one of the columns that differ.
    pub differs: Vec<u64>,
    /// Near-miss rows by the set of carried columns that differ.
    pub by_set: FxHashMap<Vec<usize>, u64>,
    /// Rows that would be near misses but for a difference in written text
    /// (`Detector::prose`): other messages, not retries.
    pub prose_rows: u64,
    /// Of the near-miss rows, those equal to the row before them only on
    /// nearly unique columns (`Detector::identity`), however many others
    /// differ; and per carried column, how many of those share its value.
    pub identity_rows: u64,
    pub identity_shared: Vec<u64>,
    pub samples: Vec<Sample>,
    /// Near-miss pairs past the number `Detector::keep_pairs` keeps.
    pub pairs_beyond: u64,
}

/// A sliding window of recent rows' column hashes, each new row compared
/// with the rows before it in the window.
pub struct Detector {
    window_us: i64,
    width: usize,
    compared: Vec<usize>,
    others: Vec<usize>,
    max_differing: usize,
    /// Whether to gather what the decisions need besides the near misses
    /// (pairs equal on the others, neighbours, samples): the held rows only.
    evidence: bool,
    recent: VecDeque<(i64, RowId)>,
    /// The rows in `recent` from row `start` on, each its compared hashes
    /// (in `compared` order) and, gathering evidence, all of them after:
    /// one slice, compared with no index arithmetic per hash.
    hashes: Vec<u64>,
    stride: usize,
    start: usize,
    /// The last row seen, for the chance of equal values side by side.
    previous: Vec<u64>,
    scratch: Vec<u64>,
    /// Per compared column (in `compared` order): whether it holds written
    /// text, where a difference makes two rows other messages, not retries.
    prose: Vec<bool>,
    /// The rows in the window by their values on each group of compared
    /// columns: split into `max_differing + 1` groups, two rows that differ
    /// in at most `max_differing` columns are equal on at least one group,
    /// so only rows sharing a group's values are compared (however many
    /// rows a long window holds). Per group, the newest row's sequence
    /// number by its values; `links` chains each row to the one before it
    /// with the same values.
    index: Vec<FxHashMap<u64, u64>>,
    /// Per row in `recent`, per group: the sequence number of the row
    /// before it with the same values on that group, or `NONE`.
    links: VecDeque<u64>,
    /// Rows that have left the window: the sequence number of `recent[0]`.
    popped: u64,
    partners: Vec<u64>,
    /// The nearly unique compared columns (positions in `compared` order):
    /// two rows of the window that share a value of one are one thing twice
    /// (the same URL, the same outside reference), however much else differs.
    identity: Vec<usize>,
    /// Per identity column, the rows in the window by its value: the
    /// newest's sequence number, and how many rows held it since the value
    /// was last absent from the window (a value many rows share, an empty
    /// text or NULL, is no identity).
    by_identity: Vec<FxHashMap<u64, (u64, u32)>>,
    /// Every near-miss pair (not by identity alone), earlier row first, up
    /// to a number of pairs, where asked (`Detector::keep_pairs`).
    pairs: Option<(Vec<NearPair>, usize)>,
    /// Pairs kept that differ in written text.
    prose_pairs: usize,
    pub stats: Stats,
}

/// A near-miss pair: the earlier row and its creation time, then the later.
pub type NearPair = ((RowId, i64), (RowId, i64));

impl Detector {
    /// `width` hashes a row; `compared` says which of them are compared, and
    /// at most `max_differing` of those may differ in a near miss.
    pub fn new(window_us: i64, width: usize, compared: &[bool], max_differing: usize) -> Detector {
        let compared_ix: Vec<usize> = (0..width).filter(|&i| compared[i]).collect();
        let others = (0..width).filter(|&i| !compared[i]).collect();
        Detector {
            window_us: window_us.max(0),
            width,
            max_differing,
            evidence: true,
            stride: compared_ix.len() + width,
            compared: compared_ix,
            others,
            recent: VecDeque::new(),
            hashes: Vec::new(),
            start: 0,
            previous: Vec::new(),
            scratch: Vec::new(),
            prose: Vec::new(),
            index: Vec::new(),
            links: VecDeque::new(),
            popped: 0,
            partners: Vec::new(),
            identity: Vec::new(),
            by_identity: Vec::new(),
            pairs: None,
            prose_pairs: 0,
            stats: Stats {
                equal_in_exact: vec![0; width],
                equal_in_neighbours: vec![0; width],
                differs: vec![0; width],
                identity_shared: vec![0; width],
                ..Stats::default()
            },
        }
    }

    /// Counts the near misses alone, and what the report needs of them.
    pub fn near_misses_only(mut self) -> Detector {
        self.evidence = false;
        self.stride = self.compared.len();
        self
    }

    /// Keeps every near-miss pair (up to `cap` pairs; the rest are counted
    /// in `Stats::pairs_beyond`), for `take_pairs`; none at 0.
    pub fn keep_pairs(mut self, cap: usize) -> Detector {
        self.pairs = (cap > 0).then(|| (Vec::new(), cap));
        self
    }

    /// The near-miss pairs kept, in the order the later rows came.
    pub fn take_pairs(&mut self) -> Vec<NearPair> {
        self.pairs.as_mut().map(|(pairs, _)| std::mem::take(pairs)).unwrap_or_default()
    }

    /// Columns of written text (per carried column): two rows that differ in
    /// one are no near miss. Given after `most_distinct_first`.
    pub fn prose(mut self, prose: &[bool]) -> Detector {
        self.prose = self.compared.iter().map(|&j| prose.get(j).copied().unwrap_or(false)).collect();
        self
    }

    /// The nearly unique columns (per carried column), where a pair sharing
    /// a value of one counts as a near miss whatever else differs. Given
    /// after `most_distinct_first`.
    pub fn identity(mut self, identity: &[bool]) -> Detector {
        self.identity = (0..self.compared.len()).filter(|&p| identity.get(self.compared[p]) == Some(&true)).collect();
        self.by_identity = vec![FxHashMap::default(); self.identity.len()];
        self
    }

    /// Compares the columns most likely to differ first (most distinct
    /// values first), so that two unrelated rows part after a few.
    pub fn most_distinct_first(mut self, distinct: &[f64]) -> Detector {
        self.compared.sort_by(|&a, &b| {
            let d = |i: usize| distinct.get(i).copied().unwrap_or(0.0);
            d(b).total_cmp(&d(a)).then(a.cmp(&b))
        });
        self
    }

    /// Adds the next row; rows come in created-at order.
    pub fn push(&mut self, id: &RowId, t_us: i64, hashes: &[u64]) {
        debug_assert_eq!(hashes.len(), self.width);
        let (n, stride) = (self.compared.len(), self.stride);
        self.stats.rows += 1;
        if self.evidence {
            if !self.previous.is_empty() {
                for (j, (&h, &p)) in hashes.iter().zip(&self.previous).enumerate() {
                    if h == p {
                        self.stats.equal_in_neighbours[j] += 1;
                    }
                }
            }
            self.previous.clear();
            self.previous.extend_from_slice(hashes);
        }
        let groups = (self.max_differing + 1).min(n).max(1);
        if self.index.len() != groups {
            self.index = vec![FxHashMap::default(); groups];
            self.links = std::iter::repeat_n(NONE, groups * self.recent.len()).collect();
        }
        let horizon = t_us.saturating_sub(self.window_us);
        while self.recent.front().is_some_and(|(t, _)| *t < horizon) {
            let oldest = &self.hashes[self.start * stride..self.start * stride + n];
            for (g, newest) in self.index.iter_mut().enumerate() {
                let key = group_key(oldest, g, groups);
                // Rows before it are gone already; rows after it chain past it.
                if newest.get(&key) == Some(&self.popped) {
                    newest.remove(&key);
                }
            }
            for (map, &p) in self.by_identity.iter_mut().zip(&self.identity) {
                if map.get(&oldest[p]).is_some_and(|(seq, _)| *seq == self.popped) {
                    map.remove(&oldest[p]);
                }
            }
            self.links.drain(..groups);
            self.recent.pop_front();
            self.start += 1;
            self.popped += 1;
        }
        if self.start > 1024 && self.start * 2 > self.hashes.len() / stride.max(1) {
            self.hashes.drain(..self.start * stride);
            self.start = 0;
        }
        self.scratch.clear();
        self.scratch.extend(self.compared.iter().map(|&j| hashes[j]));
        let mine = &self.scratch[..];
        let live = &self.hashes[self.start * stride..];
        let mut best: Option<(usize, usize)> = None;
        let mut in_prose = false;
        let mut prose_partner: Option<usize> = None;
        self.partners.clear();
        for (g, newest) in self.index.iter().enumerate() {
            let mut seq = newest.get(&group_key(mine, g, groups)).copied().unwrap_or(NONE);
            let mut taken = 0;
            while seq != NONE && seq >= self.popped && taken < MAX_PARTNERS {
                self.partners.push(seq);
                taken += 1;
                seq = self.links[(seq - self.popped) as usize * groups + g];
            }
        }
        self.partners.sort_unstable_by(|a, b| b.cmp(a));
        self.partners.dedup();
        self.partners.truncate(MAX_PARTNERS);
        for k in self.partners.iter().map(|seq| (seq - self.popped) as usize) {
            let theirs = &live[k * stride..k * stride + n];
            let mut differing = 0;
            for (a, b) in mine.iter().zip(theirs) {
                if a != b {
                    differing += 1;
                    if differing > self.max_differing {
                        break;
                    }
                }
            }
            if differing > 0
                && differing <= self.max_differing
                && !self.prose.is_empty()
                && self.compared.iter().zip(mine.iter().zip(theirs)).zip(&self.prose).any(|((&j, (a, b)), prose)| {
                    // Text on both sides: other messages. Text beside NULL is
                    // a copy filled in later, or not: no written difference.
                    *prose && a != b && !is_null(*a, j) && !is_null(*b, j)
                })
            {
                in_prose = true;
                prose_partner.get_or_insert(k);
                continue;
            }
            if differing <= self.max_differing && best.is_none_or(|(d, _)| differing < d) {
                best = Some((differing, k));
                if differing == 0 {
                    break;
                }
            }
        }
        // No near miss: the newest row of the window sharing a nearly unique
        // value with this one, sharing the most of them.
        let mut by_identity = false;
        if best.is_none() {
            let mut shared: Option<(usize, u64)> = None;
            for (map, &p) in self.by_identity.iter().zip(&self.identity) {
                let Some(&(seq, _)) = map.get(&mine[p]).filter(|(s, held)| *s >= self.popped && *held < IDENTITY_HELD)
                else {
                    continue;
                };
                let k = (seq - self.popped) as usize;
                let theirs = &live[k * stride..k * stride + n];
                let count = self.identity.iter().filter(|&&q| mine[q] == theirs[q]).count();
                if shared.is_none_or(|(c, s)| (count, seq) > (c, s)) {
                    shared = Some((count, seq));
                }
            }
            if let Some((_, seq)) = shared {
                let k = (seq - self.popped) as usize;
                let theirs = &live[k * stride..k * stride + n];
                best = Some((mine.iter().zip(theirs).filter(|(a, b)| a != b).count(), k));
                by_identity = true;
            }
        }
        if best.is_none() && in_prose {
            self.stats.prose_rows += 1;
            // Kept too, fewer: where the text is one document each attempt
            // stamped with its own ids and time, `confirm` tells so.
            if let (Some(k), Some((pairs, cap))) = (prose_partner, &mut self.pairs)
                && self.prose_pairs < *cap / PROSE_SHARE
                && pairs.len() < *cap
            {
                let (t, earlier) = self.recent[k].clone();
                pairs.push(((earlier, t), (id.clone(), t_us)));
                self.prose_pairs += 1;
            }
        }
        if let Some((differing, k)) = best {
            let theirs = &live[k * stride..k * stride + n];
            if differing == 0 {
                self.stats.exact_rows += 1;
                if self.evidence {
                    let all = &live[k * stride + n..(k + 1) * stride];
                    if self.recent[k].0 == t_us {
                        self.stats.exact_same_time += 1;
                    }
                    for &o in &self.others {
                        if hashes[o] == all[o] {
                            self.stats.equal_in_exact[o] += 1;
                        }
                    }
                }
            } else {
                let mut set: Vec<usize> = self
                    .compared
                    .iter()
                    .zip(mine.iter().zip(theirs))
                    .filter(|(_, (a, b))| a != b)
                    .map(|(j, _)| *j)
                    .collect();
                set.sort_unstable();
                self.stats.near_rows += 1;
                if by_identity {
                    self.stats.identity_rows += 1;
                    for &p in &self.identity {
                        if mine[p] == theirs[p] {
                            self.stats.identity_shared[self.compared[p]] += 1;
                        }
                    }
                }
                for &j in &set {
                    self.stats.differs[j] += 1;
                }
                if let Some((pairs, cap)) = &mut self.pairs
                    && !by_identity
                {
                    if pairs.len() < *cap {
                        let (t, earlier) = self.recent[k].clone();
                        pairs.push(((earlier, t), (id.clone(), t_us)));
                    } else {
                        self.stats.pairs_beyond += 1;
                    }
                }
                if self.evidence {
                    let seen = self.stats.by_set.entry(set.clone()).or_default();
                    *seen += 1;
                    if *seen as usize <= SAMPLES_PER_SET && self.stats.samples.len() < SAMPLES {
                        let earlier = self.recent[k].1.clone();
                        self.stats.samples.push(Sample { earlier, later: id.clone(), differing: set });
                    }
                }
            }
        }
        let seq = self.popped + self.recent.len() as u64;
        for (g, newest) in self.index.iter_mut().enumerate() {
            let before = newest.insert(group_key(&self.scratch, g, groups), seq);
            self.links.push_back(before.unwrap_or(NONE));
        }
        for (map, &p) in self.by_identity.iter_mut().zip(&self.identity) {
            let entry = map.entry(self.scratch[p]).or_insert((seq, 0));
            *entry = (seq, entry.1.saturating_add(1));
        }
        self.recent.push_back((t_us, id.clone()));
        self.hashes.extend_from_slice(&self.scratch);
        if self.evidence {
            self.hashes.extend_from_slice(hashes);
        }
    }
}

/// No row: the end of a chain in `Detector::links`.
const NONE: u64 = u64::MAX;

/// A row's values on group `g` of `groups` of its compared columns (in
/// compared order), folded into one key.
fn group_key(compared: &[u64], g: usize, groups: usize) -> u64 {
    let n = compared.len();
    compared[g * n / groups..(g + 1) * n / groups].iter().fold(0, |acc, h| acc ^ h)
}

/// A HyperLogLog sketch of 1,024 registers: distinct values to about 3%.
#[derive(Clone)]
struct Distinct {
    registers: Box<[u8; 1024]>,
}

impl Default for Distinct {
    fn default() -> Self {
        Distinct { registers: Box::new([0; 1024]) }
    }
}

impl Distinct {
    fn add(&mut self, hash: u64) {
        let index = (hash >> 54) as usize;
        let rank = ((hash << 10) | (1 << 9)).leading_zeros() as u8 + 1;
        let register = &mut self.registers[index];
        *register = (*register).max(rank);
    }

    fn estimate(&self) -> f64 {
        let m = self.registers.len() as f64;
        let sum: f64 = self.registers.iter().map(|&r| 2f64.powi(-i32::from(r))).sum();
        let raw = 0.7213 / (1.0 + 1.079 / m) * m * m / sum;
        let zeros = self.registers.iter().filter(|&&r| r == 0).count();
        // Small counts: linear counting is exact enough and HyperLogLog is not.
        if raw <= 2.5 * m && zeros > 0 { m * (m / zeros as f64).ln() } else { raw }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(d: &mut Detector, rows: &[(i64, i64, [u64; 4])]) {
        for (id, t, h) in rows {
            d.push(&RowId::Int(*id), t * 1_000_000, h);
        }
    }

    #[test]
    fn a_minted_column_shows_in_every_near_miss() {
        // Columns: payload, payload, minted, soft (left out).
        let mut d = Detector::new(5_000_000, 4, &[true, true, true, false], 1);
        rows(
            &mut d,
            &[
                (1, 0, [1, 2, 100, 7]),
                (2, 2, [1, 2, 101, 8]),  // retry of 1: the minted column differs
                (3, 10, [5, 6, 102, 9]), // another intent
                (4, 11, [5, 6, 102, 9]), // an exact duplicate of 3, soft column equal
                (5, 30, [1, 2, 103, 1]), // 1's payload again, far apart: nothing
            ],
        );
        assert_eq!(d.stats.rows, 5);
        assert_eq!(d.stats.near_rows, 1);
        assert_eq!(d.stats.differs, [0, 0, 1, 0]);
        assert_eq!(d.stats.exact_rows, 1);
        assert_eq!(d.stats.exact_same_time, 0);
        // Rows side by side: 1 and 2 share the payload, 3 and 4 everything.
        assert_eq!(d.stats.equal_in_neighbours, [2, 2, 1, 1]);
        assert_eq!(d.stats.equal_in_exact, [0, 0, 0, 1]);
        assert_eq!(d.stats.samples, [Sample { earlier: RowId::Int(1), later: RowId::Int(2), differing: vec![2] }]);
    }

    /// Memory follows the window, not the table: the rows held, and the
    /// nearly unique values indexed, are those of the last few seconds
    /// however many rows went by.
    #[test]
    fn memory_follows_the_window() {
        let mut d = Detector::new(5_000_000, 4, &[true; 4], 1).identity(&[true, false, false, false]);
        for i in 0..10_000i64 {
            let h = i as u64;
            d.push(&RowId::Int(i), i * 1_000_000, &[h, h + 1, h + 2, h + 3]);
        }
        assert!(d.recent.len() <= 6, "{}", d.recent.len());
        assert!(d.hashes.len() / d.stride <= 2 * 1025 + 6, "{} rows held", d.hashes.len() / d.stride);
        assert!(d.by_identity[0].len() <= 6, "{} values indexed", d.by_identity[0].len());
        assert!(d.index.iter().all(|m| m.len() <= 6), "{:?}", d.index.iter().map(|m| m.len()).collect::<Vec<_>>());
        assert_eq!(d.stats.rows, 10_000);
        assert_eq!(d.stats.near_rows, 0);
    }

    /// Kept near-miss pairs, earlier row first, up to the cap; the rest
    /// counted; none kept or counted at a cap of 0, nor an identity pair.
    #[test]
    fn near_miss_pairs_are_kept_up_to_the_cap() {
        let pairs = |cap: usize, identity: bool| {
            let mut d = Detector::new(5_000_000, 4, &[true; 4], 1)
                .near_misses_only()
                .identity(&[identity, false, false, false])
                .keep_pairs(cap);
            rows(
                &mut d,
                &[
                    (1, 0, [1, 2, 3, 4]),
                    (2, 1, [1, 2, 3, 5]),   // a near miss of 1
                    (3, 10, [6, 7, 8, 9]),  // another intent
                    (4, 12, [6, 7, 8, 10]), // a near miss of 3
                    (5, 30, [6, 11, 12, 13]),
                    (6, 31, [6, 14, 15, 16]), // shares only column 0 with 5
                ],
            );
            (d.take_pairs(), d.stats.pairs_beyond, d.stats.identity_rows)
        };
        let pair =
            |a: i64, ta: i64, b: i64, tb: i64| ((RowId::Int(a), ta * 1_000_000), (RowId::Int(b), tb * 1_000_000));
        assert_eq!(pairs(10, false), (vec![pair(1, 0, 2, 1), pair(3, 10, 4, 12)], 0, 0));
        assert_eq!(pairs(1, false), (vec![pair(1, 0, 2, 1)], 1, 0));
        assert_eq!(pairs(0, false), (vec![], 0, 0));
        // The identity pair (5, 6) is a near miss but not kept.
        assert_eq!(pairs(10, true), (vec![pair(1, 0, 2, 1), pair(3, 10, 4, 12)], 0, 1));
    }

    /// The sketch counts distinct values to a few percent, small counts
    /// (linear counting) and large (HyperLogLog) alike; repeats add nothing.
    #[test]
    fn distinct_values_are_counted_closely() {
        let mix = |mut z: u64| {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        // Within 7% at 100 values (a few registers more or less), 4% beyond.
        for (n, within) in [(100u64, 0.07), (1_500, 0.04), (20_000, 0.04), (200_000, 0.04)] {
            let hashes: Vec<u64> = (0..n).chain(0..n / 2).map(mix).collect();
            let got = distinct(1, &hashes)[0];
            assert!((got - n as f64).abs() <= within * n as f64, "{n} distinct values counted as {got:.0}");
        }
        assert_eq!(distinct(2, &[]), [0.0, 0.0]);
    }

    /// One differing column of two to five informative ones, then one in
    /// four, from two to six.
    #[test]
    fn near_misses_allow_one_differing_column_in_four() {
        let allowed: Vec<usize> = [0, 1, 2, 5, 6, 8, 12, 20, 24, 40].map(max_differing).to_vec();
        assert_eq!(allowed, [0, 0, 1, 1, 2, 2, 3, 5, 6, 6]);
    }

    /// The compared columns split into consecutive groups, each folded by
    /// XOR: two rows that differ in fewer columns than there are groups
    /// share at least one group's key.
    #[test]
    fn group_keys_split_the_columns_in_order() {
        let row = [1, 2, 4, 8];
        assert_eq!(group_key(&row, 0, 1), 15);
        assert_eq!((group_key(&row, 0, 2), group_key(&row, 1, 2)), (3, 12));
        assert_eq!((group_key(&row, 0, 3), group_key(&row, 1, 3), group_key(&row, 2, 3)), (1, 2, 12));
        assert_eq!(group_key(&[7, 7], 0, 1), 0, "XOR, not OR");
        let other = [1, 2, 4, 9];
        assert_eq!(group_key(&row, 0, 2), group_key(&other, 0, 2));
        assert_ne!(group_key(&row, 1, 2), group_key(&other, 1, 2));
    }

    #[test]
    fn rows_differing_in_more_than_allowed_are_no_near_miss() {
        assert_eq!(max_differing(4), 1);
        let mut d = Detector::new(5_000_000, 4, &[true; 4], max_differing(4));
        rows(&mut d, &[(1, 0, [1, 2, 3, 4]), (2, 1, [1, 2, 8, 9])]);
        assert_eq!(d.stats.near_rows, 0);
    }

    /// A row that shares a nearly unique value (column 0) with a row of the
    /// window is a near miss however much else differs; a value many rows
    /// of the window hold (an empty text) is no identity; outside the window
    /// nothing.
    #[test]
    fn a_shared_nearly_unique_value_makes_a_near_miss() {
        let mut d = Detector::new(5_000_000, 4, &[true; 4], max_differing(4)).identity(&[true, false, false, false]);
        rows(
            &mut d,
            &[
                (1, 0, [10, 2, 3, 4]),
                (2, 1, [10, 7, 8, 9]),  // shares 10 with row 1, differs in three others
                (3, 20, [0, 1, 1, 1]),  // 0: the empty text, held by rows 3 to 7
                (4, 21, [0, 2, 2, 2]),  // shares it with 3 (held twice so far): a near miss
                (5, 22, [0, 3, 3, 3]),  // held by two before it: still
                (6, 23, [0, 4, 4, 4]),  // by three: a common value, no identity
                (7, 24, [0, 5, 5, 5]),  // nor after
                (8, 40, [10, 6, 6, 6]), // 10 again, far from 2: nothing
            ],
        );
        assert_eq!((d.stats.near_rows, d.stats.identity_rows), (3, 3));
        assert_eq!(d.stats.identity_shared, [3, 0, 0, 0]);
        assert_eq!(d.stats.differs, [0, 3, 3, 3]);
    }

    /// An exact partner deep in the window: what the rows left out of the
    /// comparison hold is read from that partner, not another, and a pair
    /// at the very same instant is counted as such.
    #[test]
    fn an_exact_partner_deep_in_the_window() {
        // Columns: payload, payload, soft, soft (the last two left out).
        let mut d = Detector::new(60_000_000, 4, &[true, true, false, false], 1);
        rows(
            &mut d,
            &[
                (1, 0, [1, 1, 50, 60]),
                (2, 1, [2, 2, 51, 61]),
                (3, 2, [3, 3, 52, 62]),
                (4, 3, [4, 4, 53, 63]),
                (5, 4, [5, 5, 54, 64]),
                (6, 5, [3, 3, 52, 99]), // 3 again: equal on the first soft column
                (7, 5, [5, 5, 70, 64]), // 5 again: equal on the second
                (8, 5, [7, 7, 80, 80]),
                (9, 5, [7, 7, 80, 81]), // 8 again, at the same instant
            ],
        );
        assert_eq!(d.stats.exact_rows, 3);
        assert_eq!(d.stats.exact_same_time, 1);
        assert_eq!(d.stats.equal_in_exact, [0, 0, 2, 1]);
    }

    /// Of the rows sharing a nearly unique value, the partner is the one
    /// sharing the most such values, the newest of equals; the differing
    /// columns are counted against that partner.
    #[test]
    fn the_identity_partner_shares_the_most() {
        let mut d = Detector::new(60_000_000, 4, &[true; 4], 1).identity(&[true, true, false, false]);
        rows(
            &mut d,
            &[
                (0, 0, [90, 91, 92, 93]), // another intent, first in the window
                (1, 0, [10, 20, 1, 1]),   // shares 10 and 20 with row 3
                (2, 1, [10, 21, 2, 2]),   // shares 10 only
                (3, 2, [10, 20, 3, 4]),
            ],
        );
        assert_eq!((d.stats.near_rows, d.stats.identity_rows), (2, 2));
        // Row 2's partner is 1; row 3's is 1 too (two shared), not 2 (the
        // newest holding 10, one shared): it differs from 1 in two columns.
        assert_eq!(d.stats.differs, [0, 1, 2, 2]);
        assert_eq!(d.stats.identity_shared, [2, 1, 0, 0]);
    }

    /// Each set of differing columns gives a few samples, however many near
    /// misses it makes; every near miss is still counted by its set.
    #[test]
    fn samples_per_set_are_capped() {
        let mut d = Detector::new(5_000_000, 4, &[true; 4], 1);
        for i in 0..40i64 {
            let h = i as u64 * 10;
            d.push(&RowId::Int(2 * i), i * 100_000_000, &[h, h + 1, h + 2, 1]);
            d.push(&RowId::Int(2 * i + 1), i * 100_000_000 + 1_000_000, &[h, h + 1, h + 2, 2]);
        }
        assert_eq!(d.stats.near_rows, 40);
        assert_eq!(d.stats.by_set.get(&vec![3]), Some(&40));
        assert_eq!(d.stats.samples.len(), SAMPLES_PER_SET);
        assert_eq!(d.stats.samples[0], Sample { earlier: RowId::Int(0), later: RowId::Int(1), differing: vec![3] });
    }

    #[test]
    fn text_beside_null_is_no_written_difference() {
        use crate::fingerprint::{mix, null, server_null_mark};
        // Column 3 holds written text: two texts make other messages, a text
        // beside a NULL (hashed as SQLite's or as a server's) a near miss.
        let mut d = Detector::new(5_000_000, 4, &[true; 4], 1).prose(&[false, false, false, true]);
        rows(&mut d, &[(1, 0, [1, 2, 3, 40]), (2, 1, [1, 2, 3, 41])]);
        assert_eq!((d.stats.near_rows, d.stats.prose_rows), (0, 1));
        for blank in [null(3), mix(server_null_mark(3), 3)] {
            let mut d = Detector::new(5_000_000, 4, &[true; 4], 1).prose(&[false, false, false, true]);
            rows(&mut d, &[(1, 0, [1, 2, 3, 40]), (2, 1, [1, 2, 3, blank])]);
            assert_eq!((d.stats.near_rows, d.stats.prose_rows), (1, 0));
        }
    }

    #[test]
    fn the_closest_partner_counts() {
        let mut d = Detector::new(5_000_000, 4, &[true; 4], 1);
        // Row 3 differs from 2 in one column and equals 1: it is an exact row.
        rows(&mut d, &[(1, 0, [1, 2, 3, 4]), (2, 1, [1, 2, 3, 5]), (3, 2, [1, 2, 3, 4])]);
        assert_eq!(d.stats.exact_rows, 1);
        assert_eq!(d.stats.near_rows, 1);
    }

    /// The index finds what comparing every row in the window with every
    /// other finds: the same exact rows, near misses and differing columns.
    #[test]
    fn the_index_finds_what_comparing_all_pairs_finds() {
        let mut r = 7u64;
        let mut next = |m: u64| {
            r = crate::fingerprint::mix(r, 3);
            r % m
        };
        let width = 8;
        let max = max_differing(width);
        let mut d = Detector::new(20_000_000, width, &[true; 8], max);
        let mut seen: Vec<(i64, Vec<u64>)> = Vec::new();
        let (mut near, mut exact, mut differs) = (0u64, 0u64, vec![0u64; width]);
        for i in 0..3_000i64 {
            let t = i * 100_000;
            // Few values a column, so that rows often nearly match.
            let row: Vec<u64> = (0..width).map(|j| crate::fingerprint::mix(next(3), j)).collect();
            d.push(&RowId::Int(i), t, &row);
            let best = seen
                .iter()
                .rev()
                .filter(|(u, _)| *u >= t - 20_000_000)
                .map(|(_, h)| (h.iter().zip(&row).filter(|(a, b)| a != b).count(), h))
                .filter(|(n, _)| *n <= max)
                .fold(None::<(usize, &Vec<u64>)>, |b, c| if b.is_none_or(|b| c.0 < b.0) { Some(c) } else { b });
            match best {
                Some((0, _)) => exact += 1,
                Some((_, h)) => {
                    near += 1;
                    for (j, (a, b)) in h.iter().zip(&row).enumerate() {
                        if a != b {
                            differs[j] += 1;
                        }
                    }
                }
                None => {}
            }
            seen.push((t, row));
        }
        assert!(near > 1_000 && exact > 50, "{near} {exact}");
        assert_eq!((d.stats.near_rows, d.stats.exact_rows, &d.stats.differs), (near, exact, &differs));
    }

    #[test]
    fn distinct_values_are_estimated() {
        let rows: Vec<u64> = (0..20_000u64)
            .flat_map(|i| [crate::fingerprint::mix(i, 0), crate::fingerprint::mix(i % 3, 1), 0, 0])
            .collect();
        let est = distinct(4, &rows);
        assert!((est[0] - 20_000.0).abs() < 1_500.0, "{}", est[0]);
        assert!((est[1] - 3.0).abs() < 0.5, "{}", est[1]);
    }
}
