//! size's write rate: what the table really took a day, from the rows it
//! holds over a rolling window that ends now, and where the engine counts
//! them, from its insert counters; never less than the rows created within
//! the retention per day of it, all of which are still kept.

use std::time::Duration;

use serde::Serialize;

use crate::db::storage::round_to;
use crate::timeparse;

const HOUR_US: i64 = 3_600_000_000;
const DAY: f64 = 86_400.0;

/// The rows created in each UTC hour from a point to now.
#[derive(Debug)]
pub struct History {
    /// The first hour's start, microseconds since the epoch.
    pub since_us: i64,
    pub now_us: i64,
    /// Rows created in each hour from `since_us`; the last is the hour now
    /// is in, times ahead of now counted in it.
    pub hours: Vec<u64>,
    /// Rows created before `since_us`, or without a creation time.
    pub before: u64,
}

impl History {
    /// The hours from counts per hour since the epoch (`since_us` on an hour).
    pub fn new(since_us: i64, now_us: i64, counts: &[(i64, u64)], before: u64) -> History {
        let (first, last) =
            (since_us.div_euclid(HOUR_US), now_us.div_euclid(HOUR_US).max(since_us.div_euclid(HOUR_US)));
        let mut hours = vec![0; (last - first + 1) as usize];
        for &(hour, n) in counts {
            hours[(hour - first).clamp(0, last - first) as usize] += n;
        }
        History { since_us, now_us, hours, before }
    }

    /// Every row of the table, counted.
    pub fn rows(&self) -> u64 {
        self.hours.iter().sum::<u64>() + self.before
    }

    /// The start of hour `i`, microseconds.
    fn start(&self, i: usize) -> i64 {
        self.since_us + i as i64 * HOUR_US
    }

    /// The rows and seconds from the start of hour `from` to that of `to`
    /// (`None`: to now).
    fn between(&self, from: usize, to: Option<usize>) -> (u64, f64) {
        let end = to.map_or(self.now_us, |to| self.start(to));
        let rows = self.hours[from..to.unwrap_or(self.hours.len())].iter().sum();
        (rows, ((end - self.start(from)) as f64 / 1e6).max(60.0))
    }

    /// The time the rows span: from the oldest hour with rows to now.
    pub fn span(&self) -> Option<Duration> {
        if self.before > 0 {
            return None;
        }
        let first = self.hours.iter().position(|&n| n > 0)?;
        Some(Duration::from_micros((self.now_us - self.start(first)).max(0) as u64))
    }
}

/// One measure of the rows written a day, and where it comes from.
#[derive(Debug, Clone, Serialize)]
pub struct Measure {
    /// `window`, `retention`, `inserts` or `ids`.
    pub source: &'static str,
    pub rows_per_day: f64,
    /// The rows the measure counted, and over how long.
    pub rows: u64,
    pub seconds: u64,
    /// Where the measure starts (RFC 3339).
    pub since: String,
    /// What was counted, in words.
    pub what: String,
}

impl Measure {
    fn new(source: &'static str, rows: u64, seconds: f64, since_us: i64, what: String) -> Measure {
        Measure {
            source,
            rows_per_day: round_to(rows as f64 / seconds * DAY, 2),
            rows,
            seconds: seconds.round() as u64,
            since: timeparse::rfc3339(timeparse::from_micros(since_us)),
            what,
        }
    }
}

/// The rows written a day over a rolling window that ends now. It starts
/// after the oldest hour with rows (that hour part-purged or part-written);
/// where the retention (`kept`) is known, rows older than it count only if
/// they are about as dense as the newer ones (else the rest was purged, or
/// the few are stragglers kept back); where it is not, an older stretch
/// under a quarter as dense as the newer half is left out, halving until
/// four hours are left.
pub fn window(history: &History, kept: Option<Duration>) -> Option<Measure> {
    let last = history.hours.len() - 1;
    let first = history.hours.iter().position(|&n| n > 0)?;
    let mut start = match first {
        0 if history.before > 0 => 0,
        first if first < last => first + 1,
        first => first,
    };
    match kept.and_then(|kept| complete_from(history, kept)) {
        Some(complete) if complete > start => {
            let (old, old_seconds) = history.between(start, Some(complete));
            let (new, new_seconds) = history.between(complete, None);
            if (old as f64 / old_seconds) < 0.9 * (new as f64 / new_seconds) {
                start = complete;
            }
        }
        Some(_) => {}
        None => {
            while last - start >= 4 {
                let mid = start + (last - start) / 2;
                let (old, old_seconds) = history.between(start, Some(mid));
                let (new, new_seconds) = history.between(mid, None);
                if (old as f64 / old_seconds) >= 0.25 * (new as f64 / new_seconds) {
                    break;
                }
                start = mid;
            }
        }
    }
    let (rows, seconds) = history.between(start, None);
    let what = format!("rows created in the last {} that the table holds", timeparse::span(secs(seconds)));
    Some(Measure::new("window", rows, seconds, history.start(start), what))
}

/// The first hour whose rows are all within the retention `kept`: none is
/// purged yet.
fn complete_from(history: &History, kept: Duration) -> Option<usize> {
    let last = history.hours.len() - 1;
    let whole = (kept.as_secs() / 3600) as usize;
    (whole >= 1).then(|| (last + 1).saturating_sub(whole))
}

/// The rows created within the retention `kept`, per day of it: all of them
/// are still in the table, so no rate is lower.
pub fn retention(history: &History, kept: Duration) -> Option<Measure> {
    let from = complete_from(history, kept)?;
    let (rows, seconds) = history.between(from, None);
    let kept_words = match kept.as_secs() % 3600 {
        0 => timeparse::short(kept),
        _ => timeparse::span(kept),
    };
    let what = format!("rows created within the {kept_words} retention, all still kept");
    Some(Measure::new("retention", rows, seconds, history.start(from), what))
}

/// PostgreSQL's insert counter (`n_tup_ins`) against an earlier reading.
pub fn inserts(now: (u64, i64), earlier: (u64, i64)) -> Option<Measure> {
    let ((count, at_us), (before, before_us)) = (now, earlier);
    let seconds = (at_us - before_us) as f64 / 1e6;
    if count < before || seconds < 3600.0 {
        return None;
    }
    let what = format!(
        "rows inserted (n_tup_ins) since the reading of {}, {} ago",
        timeparse::rfc3339(timeparse::from_micros(before_us)),
        timeparse::span(secs(seconds))
    );
    Some(Measure::new("inserts", count - before, seconds, before_us, what))
}

/// The growth of a table's minted ids over the window: ids used by rows
/// since deleted, or burnt by inserts that lost a conflict, count too.
pub fn ids(window: &Measure, first: i64, last: i64, column: &str) -> Option<Measure> {
    (last >= first).then(|| {
        let since = chrono::DateTime::parse_from_rfc3339(&window.since).map_or(0, |t| t.timestamp_micros());
        let what = format!("ids minted over the same window ({column} {first} to {last})");
        Measure::new("ids", (last - first + 1) as u64, window.seconds.max(60) as f64, since, what)
    })
}

/// The rate the projections use: the insert counter over a day or more,
/// else the window; never under the retention's.
pub fn chosen(measures: &[Measure]) -> Option<&Measure> {
    let by = |source: &str| measures.iter().find(|m| m.source == source);
    let counted = by("inserts").filter(|m| m.seconds >= 86_400).or_else(|| by("window"));
    match (counted, by("retention")) {
        (Some(c), Some(r)) if r.rows_per_day > c.rows_per_day => Some(r),
        (Some(c), _) => Some(c),
        (None, r) => r,
    }
}

fn secs(seconds: f64) -> Duration {
    Duration::from_secs(seconds.max(0.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_000 * HOUR_US + 30 * 60 * 1_000_000;

    /// Hours ending at NOW (half an hour into the last), with `before`.
    fn history(hours: &[u64], before: u64) -> History {
        let since = (1_000 - hours.len() as i64 + 1) * HOUR_US;
        let counts: Vec<(i64, u64)> = hours.iter().enumerate().map(|(i, &n)| (since / HOUR_US + i as i64, n)).collect();
        History::new(since, NOW, &counts, before)
    }

    /// 48 hours of 200 rows an hour, expired at 24 h an hour ago: 25 hours
    /// left, the oldest part-purged.
    #[test]
    fn a_table_kept_by_expire_gives_its_rate() {
        let mut hours = vec![0; 23];
        hours.push(60);
        hours.extend(vec![200; 24]);
        hours.push(100);
        let h = history(&hours, 0);
        let w = window(&h, None).unwrap();
        assert_eq!((w.rows, w.seconds), (200 * 24 + 100, 24 * 3600 + 1800));
        assert_eq!(w.rows_per_day, 4800.0);
        let kept = window(&h, Some(Duration::from_secs(86_400))).unwrap();
        assert_eq!(kept.rows_per_day, 4800.0);
        let r = retention(&h, Duration::from_secs(86_400)).unwrap();
        assert_eq!((r.rows, r.seconds), (200 * 23 + 100, 23 * 3600 + 1800));
        assert_eq!(chosen(&[w.clone(), r.clone()]).unwrap().source, "window");
        let thinner = Measure { rows_per_day: 4000.0, ..w };
        assert_eq!(chosen(&[thinner, r]).unwrap().source, "retention");
    }

    /// A few keys kept back for days (in progress, refused) do not stretch
    /// the window over the days purged around them.
    #[test]
    fn stragglers_do_not_dilute_the_rate() {
        let mut hours = vec![0; 72];
        hours[3] = 2;
        hours[40] = 1;
        hours.extend(vec![100; 24]);
        let h = history(&hours, 0);
        let kept = window(&h, Some(Duration::from_secs(86_400))).unwrap();
        assert!((kept.rows_per_day - 2400.0).abs() < 120.0, "{kept:?}");
        let unknown = window(&h, None).unwrap();
        assert!((unknown.rows_per_day - 2400.0).abs() < 240.0, "{unknown:?}");
    }

    /// A backlog expire has not reached yet is as dense as the rest: it
    /// lengthens the window.
    #[test]
    fn an_intact_backlog_lengthens_the_window() {
        let h = history(&[100; 72], 0);
        let w = window(&h, Some(Duration::from_secs(86_400))).unwrap();
        assert_eq!(w.seconds, 70 * 3600 + 1800);
        assert_eq!(w.since, timeparse::rfc3339(timeparse::from_micros(h.since_us + HOUR_US)));
    }

    #[test]
    fn rows_before_the_history_keep_its_first_hour() {
        let h = history(&[100; 10], 5);
        assert_eq!(window(&h, None).unwrap().seconds, 9 * 3600 + 1800);
        assert_eq!(h.rows(), 1005);
        assert_eq!(h.span(), None);
        assert_eq!(history(&[0, 0, 1, 0], 0).span(), Some(Duration::from_secs(3600 + 1800)));
    }

    #[test]
    fn the_insert_counter_needs_an_hour_and_no_reset() {
        let at = 10 * HOUR_US;
        assert!(inserts((100, at), (50, at - HOUR_US / 2)).is_none());
        assert!(inserts((10, at), (50, at - 2 * HOUR_US)).is_none());
        let m = inserts((5050, at), (50, at - 24 * HOUR_US)).unwrap();
        assert_eq!((m.rows, m.rows_per_day), (5000, 5000.0));
        let w = window(&history(&[100; 30], 0), None).unwrap();
        assert_eq!(chosen(&[w.clone(), m]).unwrap().source, "inserts");
        let short = inserts((5050, at), (50, at - 2 * HOUR_US)).unwrap();
        assert_eq!(chosen(&[w, short]).unwrap().source, "window");
    }
}
