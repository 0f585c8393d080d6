//! Time columns: how each one stores its instants, read from the bulk of
//! its values, never guessed from one extreme.
//!
//! Native timestamps say what they are. Integer epoch columns do not: a
//! value is read as seconds or milliseconds by where it falls, and a value
//! that is plausible in neither (before 1990, or more than ten years ahead)
//! is left alone: never deleted, never scanned by guess. Far-future markers
//! (9999-12-31, 2^31 - 1) mean "never". SQLite keeps any value in any
//! column: ISO-8601 text (with or without an offset), Julian days (REAL),
//! epoch numbers (also as text); anything else is counted as unreadable.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use anyhow::{Result, bail};

use super::catalog::{Column, Table};
use super::{Db, TimeRepr};
use crate::timeparse::TimeUnit;

/// 1990-01-01T00:00:00Z: no epoch time column of a live system holds earlier instants.
pub const FLOOR_SECS: i64 = 631_152_000;
/// 9999-01-01T00:00:00Z and 10000-01-01T00:00:00Z in seconds: the "never" markers' year.
const YEAR_9999_SECS: i64 = 253_370_764_800;
const YEAR_10000_SECS: i64 = 253_402_300_800;
/// Julian day of the Unix epoch.
const JULIAN_EPOCH: f64 = 2_440_587.5;

/// Ten years from now, in seconds: later epoch values are not plausible times.
pub fn ceiling_secs() -> i64 {
    static CEILING: OnceLock<i64> = OnceLock::new();
    *CEILING.get_or_init(|| crate::timeparse::now().timestamp().saturating_add(3_653 * 86_400))
}

/// The epoch values plausible in a unit: 1990 to ten years from now.
pub fn plausible(millis: bool) -> (i64, i64) {
    let scale = if millis { 1_000 } else { 1 };
    (FLOOR_SECS * scale, ceiling_secs() * scale)
}

/// Where one stored time value falls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Null,
    /// An epoch number plausible in seconds.
    Seconds,
    /// An epoch number plausible in milliseconds.
    Millis,
    /// A far-future marker: the row never expires.
    Never,
    /// An epoch number plausible in neither unit.
    Outside,
    /// A REAL Julian day (SQLite's own numeric time).
    Julian,
    /// ISO-8601 text without a zone, date and time apart by a space (or a date alone).
    IsoSpace,
    /// ISO-8601 text without a zone, date and time apart by `T`.
    IsoT,
    /// ISO-8601 text in UTC marked `Z`, date and time apart by a space.
    IsoSpaceZ,
    /// ISO-8601 text in UTC marked `Z`, date and time apart by `T`.
    IsoTZ,
    /// ISO-8601 text with an offset from UTC.
    IsoOffset,
    /// Anything else: left alone.
    Unreadable,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Null => "null",
            Class::Seconds => "s",
            Class::Millis => "ms",
            Class::Never => "never",
            Class::Outside => "outside",
            Class::Julian => "julian",
            Class::IsoSpace => "iso",
            Class::IsoT => "iso-t",
            Class::IsoSpaceZ => "iso-z",
            Class::IsoTZ => "iso-t-z",
            Class::IsoOffset => "iso-offset",
            Class::Unreadable => "unreadable",
        }
    }

    fn from_name(name: &str) -> Class {
        [
            Class::Null,
            Class::Seconds,
            Class::Millis,
            Class::Never,
            Class::Outside,
            Class::Julian,
            Class::IsoSpace,
            Class::IsoT,
            Class::IsoSpaceZ,
            Class::IsoTZ,
            Class::IsoOffset,
        ]
        .into_iter()
        .find(|c| c.name() == name)
        .unwrap_or(Class::Unreadable)
    }
}

/// One stored value, as SQLite hands it over.
#[derive(Debug, Clone, Copy)]
pub enum Value<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a [u8]),
    Blob,
}

/// Where an epoch number falls.
pub fn classify_epoch(v: i64) -> Class {
    let (s_lo, s_hi) = plausible(false);
    let (ms_lo, ms_hi) = plausible(true);
    if v == i64::from(i32::MAX)
        || v == i64::from(u32::MAX)
        || (YEAR_9999_SECS..YEAR_10000_SECS).contains(&v)
        || v >= YEAR_9999_SECS.saturating_mul(1_000)
    {
        Class::Never
    } else if (s_lo..=s_hi).contains(&v) {
        Class::Seconds
    } else if (ms_lo..=ms_hi).contains(&v) {
        Class::Millis
    } else {
        Class::Outside
    }
}

fn julian_range() -> (f64, f64) {
    let day = |secs: i64| secs as f64 / 86_400.0 + JULIAN_EPOCH;
    (day(FLOOR_SECS), day(ceiling_secs()))
}

fn classify_real(v: f64) -> Class {
    let (lo, hi) = julian_range();
    if !v.is_finite() {
        Class::Unreadable
    } else if (lo..=hi).contains(&v) {
        Class::Julian
    } else if v.fract() == 0.0 && v.abs() < 9.2e18 {
        classify_epoch(v as i64)
    } else {
        match classify_epoch(v.trunc() as i64) {
            Class::Never => Class::Never,
            c @ (Class::Seconds | Class::Millis) => c,
            _ => Class::Outside,
        }
    }
}

/// A number written as text: digits, optionally one `.` among them.
fn text_number(text: &[u8]) -> Option<Value<'static>> {
    let s = std::str::from_utf8(text).ok()?.trim();
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    match digits.bytes().filter(|b| *b == b'.').count() {
        0 => s.parse().ok().map(Value::Int),
        1 => s.parse().ok().map(Value::Real),
        _ => None,
    }
}

/// Where one stored value falls.
pub fn classify(value: Value<'_>) -> Class {
    match value {
        Value::Null => Class::Null,
        Value::Int(v) => classify_epoch(v),
        Value::Real(v) => classify_real(v),
        Value::Blob => Class::Unreadable,
        Value::Text(text) => {
            if let Some(number) = text_number(text) {
                return classify(number);
            }
            match parse_iso(text) {
                Some((_, shape)) => shape,
                None => Class::Unreadable,
            }
        }
    }
}

/// The instant a stored value names, in microseconds since the epoch; epoch
/// numbers are read in the column's unit and only where plausible in it.
/// `None` for NULL, far-future markers and anything not readable as a time.
pub fn micros(value: Value<'_>, millis: bool) -> Option<i64> {
    let unit = if millis { Class::Millis } else { Class::Seconds };
    let scale = if millis { 1_000 } else { 1_000_000 };
    match value {
        Value::Null | Value::Blob => None,
        Value::Int(v) => (classify_epoch(v) == unit).then(|| v * scale),
        Value::Real(v) => match classify_real(v) {
            Class::Julian => Some(((v - JULIAN_EPOCH) * 86_400_000.0).round() as i64 * 1_000),
            c if c == unit => Some((v * scale as f64).round() as i64),
            _ => None,
        },
        Value::Text(text) => match text_number(text) {
            Some(number) => micros(number, millis),
            None => parse_iso(text).map(|(us, _)| us),
        },
    }
}

/// ISO-8601 as SQLite and applications write it: `YYYY-MM-DD`, then
/// optionally `T` or a space, `HH:MM`, `:SS`, `.fff`, and `Z`, `±HH:MM`,
/// `±HHMM` or `±HH`. Microseconds since the Unix epoch, and the text's shape.
pub fn parse_iso(text: &[u8]) -> Option<(i64, Class)> {
    let num = |s: &[u8]| -> Option<i64> {
        if s.is_empty() || s.len() > 9 || !s.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(s.iter().fold(0i64, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let text = text.trim_ascii();
    if text.len() < 10 || text[4] != b'-' || text[7] != b'-' {
        return None;
    }
    let date = chrono::NaiveDate::from_ymd_opt(
        i32::try_from(num(&text[..4])?).ok()?,
        u32::try_from(num(&text[5..7])?).ok()?,
        u32::try_from(num(&text[8..10])?).ok()?,
    )?;
    let mut us = date.and_time(chrono::NaiveTime::MIN).and_utc().timestamp().checked_mul(1_000_000)?;
    let mut rest = &text[10..];
    if rest.is_empty() {
        return Some((us, Class::IsoSpace));
    }
    let shape = if rest[0] == b'T' || rest[0] == b't' { Class::IsoT } else { Class::IsoSpace };
    if !matches!(rest[0], b'T' | b't' | b' ') || rest.len() < 6 || rest[3] != b':' {
        return None;
    }
    let (hour, minute) = (num(&rest[1..3])?, num(&rest[4..6])?);
    if hour > 23 || minute > 59 {
        return None;
    }
    us += (hour * 3600 + minute * 60) * 1_000_000;
    rest = &rest[6..];
    if rest.len() >= 3 && rest[0] == b':' {
        let second = num(&rest[1..3])?;
        if second > 60 {
            return None;
        }
        us += second * 1_000_000;
        rest = &rest[3..];
        if rest.first() == Some(&b'.') {
            let digits = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return None;
            }
            let frac = &rest[1..1 + digits.min(6)];
            us += num(frac)? * 10i64.pow(6 - frac.len() as u32);
            rest = &rest[1 + digits..];
        }
    }
    let offset_minutes = match rest {
        [] => return Some((us, shape)),
        [b'Z' | b'z'] => return Some((us, if shape == Class::IsoT { Class::IsoTZ } else { Class::IsoSpaceZ })),
        [sign @ (b'+' | b'-'), h1, h2, rest @ ..] => {
            let hours = num(&[*h1, *h2])?;
            let minutes = match rest {
                [] => 0,
                [b':', m1, m2] | [m1, m2] => num(&[*m1, *m2])?,
                _ => return None,
            };
            if hours > 14 || minutes > 59 {
                return None;
            }
            let total = hours * 60 + minutes;
            if *sign == b'+' { total } else { -total }
        }
        _ => return None,
    };
    Some((us - offset_minutes * 60_000_000, Class::IsoOffset))
}

/// How a column's values are spread over the classes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Census {
    pub counts: BTreeMap<Class, u64>,
    /// SQLite: whether every non-NULL value is stored as an integer.
    pub all_integer: bool,
    /// SQLite: the lengths of the values stored as text.
    pub text_lengths: std::collections::BTreeSet<u64>,
}

impl Census {
    pub fn count(&self, class: Class) -> u64 {
        self.counts.get(&class).copied().unwrap_or(0)
    }
}

/// A time column as it is read: its name, how it stores instants, and how
/// its values are spread.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeColumn {
    pub name: String,
    pub repr: TimeRepr,
    /// `None` for native timestamps, whose values need no reading.
    pub census: Option<Census>,
}

impl TimeColumn {
    /// Epoch values that are plausible in the other unit, or in neither,
    /// and the unit read: what a writing command must not act on.
    fn doubtful(&self) -> Option<(u64, u64, bool)> {
        let census = self.census.as_ref()?;
        let millis = match self.repr {
            TimeRepr::EpochMillis | TimeRepr::SqliteDynamic { millis: true } => true,
            TimeRepr::EpochSeconds | TimeRepr::SqliteDynamic { millis: false } => false,
            TimeRepr::Native { .. } => return None,
        };
        let other = census.count(if millis { Class::Seconds } else { Class::Millis });
        let outside = census.count(Class::Outside);
        (other + outside > 0).then_some((other, outside, millis))
    }

    /// Why a writing command must stop here, if it must: epoch values in two
    /// units, or outside 1990 to ten years ahead. Nothing is changed before.
    pub fn check_for_writing(&self) -> Result<()> {
        if let Some(problem) = self.problem() {
            bail!("{problem}; nothing was changed");
        }
        Ok(())
    }

    fn problem(&self) -> Option<String> {
        let (other, outside, millis) = self.doubtful()?;
        let census = self.census.as_ref()?;
        let unit = |m: bool| if m { "milliseconds" } else { "seconds" };
        let mut parts = vec![format!("{} in {}", census.count(unit_class(millis)), unit(millis))];
        if other > 0 {
            parts.push(format!("{other} in {}", unit(!millis)));
        }
        if outside > 0 {
            parts.push(format!("{outside} before 1990 or more than 10 years ahead in either unit"));
        }
        Some(format!(
            "column {:?} holds epoch values that do not agree on a unit ({}): set its unit with --time-unit {}=s or =ms \
             and correct the rows that do not fit",
            self.name,
            parts.join(", "),
            self.name
        ))
    }

    /// Notes for a reading command: values it leaves out, and why.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some((other, outside, millis)) = self.doubtful() {
            let unit = if millis { "milliseconds" } else { "seconds" };
            notes.push(format!(
                "column {:?} is read in {unit}; {} of its values are not plausible times in {unit} and are left out \
                 (--time-unit {}=s or =ms sets the unit)",
                self.name,
                other + outside,
                self.name
            ));
        }
        if let Some(census) = &self.census
            && census.count(Class::Unreadable) > 0
        {
            notes.push(format!(
                "{} with unreadable {} were left alone",
                crate::units::counted(census.count(Class::Unreadable), "row"),
                self.name
            ));
        }
        notes
    }

    /// Rows whose value cannot be read as a time in this column's unit
    /// (never markers and NULLs aside).
    pub fn unreadable(&self) -> u64 {
        let Some(census) = &self.census else { return 0 };
        let doubtful = self.doubtful().map_or(0, |(other, outside, _)| other + outside);
        doubtful + census.count(Class::Unreadable)
    }

    /// The values that cannot be read as a time in this column's unit, and
    /// the values there are (NULLs and never-markers aside); `None` for a
    /// native timestamp, whose values are all times.
    pub fn unreadable_share(&self) -> Option<(u64, u64)> {
        let census = self.census.as_ref()?;
        let present: u64 =
            census.counts.iter().filter(|(c, _)| !matches!(c, Class::Null | Class::Never)).map(|(_, n)| n).sum();
        Some((self.unreadable(), present))
    }

    /// SQLite: whether ordering by the stored values orders by time: integers
    /// alone, or ISO text of one shape in one zone (UTC text ending in `Z`
    /// also of one length: `10:00:00Z` sorts after `10:00:00.5Z`).
    pub fn stored_order_is_time_order(&self) -> bool {
        let Some(census) = &self.census else { return true };
        if census.all_integer {
            return true;
        }
        let present: Vec<Class> = census.counts.keys().copied().filter(|c| *c != Class::Null).collect();
        match present.as_slice() {
            [Class::IsoSpace] | [Class::IsoT] => true,
            [Class::IsoSpaceZ] | [Class::IsoTZ] => census.text_lengths.len() == 1,
            _ => false,
        }
    }
}

fn unit_class(millis: bool) -> Class {
    if millis { Class::Millis } else { Class::Seconds }
}

/// Reads how `column` stores instants. An integer column's unit is `unit`
/// when given (it must fit the values: stored values that are only plausible
/// in the other unit stop the command), else the unit most of its values are
/// plausible in. On SQLite every column is read this way, value by value.
pub async fn read(db: &mut Db, table: &Table, column: &Column, unit: TimeUnit) -> Result<TimeColumn> {
    let dialect = db.dialect();
    let name = column.name.clone();
    if !dialect.dynamic_types() && column.is_temporal() {
        let with_zone = dialect.time_has_zone(&column.base_type);
        return Ok(TimeColumn { name, repr: TimeRepr::Native { with_zone }, census: None });
    }
    if !dialect.dynamic_types() && !column.is_integer() {
        bail!(
            "column {:?} has type {}: a time column needs a timestamp or integer epoch seconds or milliseconds",
            column.name,
            column.data_type
        );
    }
    let census = census(db, table, column).await?;
    let millis = match unit {
        TimeUnit::S | TimeUnit::Ms => {
            let millis = unit == TimeUnit::Ms;
            let wrong = census.count(unit_class(!millis));
            let right = census.count(unit_class(millis));
            if wrong > 0 {
                bail!(
                    "--time-unit {} does not fit column {:?}: {wrong} of its values are plausible only in {} \
                     ({right} in {}); nothing was read or changed",
                    if millis { "ms" } else { "s" },
                    column.name,
                    if millis { "seconds" } else { "milliseconds" },
                    if millis { "milliseconds" } else { "seconds" },
                );
            }
            millis
        }
        TimeUnit::Auto => census.count(Class::Millis) > census.count(Class::Seconds),
    };
    let repr = match dialect.dynamic_types() {
        true => TimeRepr::SqliteDynamic { millis },
        false if millis => TimeRepr::EpochMillis,
        false => TimeRepr::EpochSeconds,
    };
    Ok(TimeColumn { name, repr, census: Some(census) })
}

async fn census(db: &mut Db, table: &Table, column: &Column) -> Result<Census> {
    let dialect = db.dialect();
    if dialect.dynamic_types() {
        // Every value read in place through the C API and classified here: a
        // GROUP BY on the server costs several times more (a sort of every row).
        let sql = format!("SELECT {} FROM {}", dialect.ident(&column.name), table.sql_name(&dialect));
        let mut census = Census { all_integer: true, ..Census::default() };
        let mut rows = db.stream_rows(&sql, &[]).await?;
        while let Some(row) = rows.next().await? {
            let value = row.stored(0)?;
            let class = classify(value);
            match value {
                Value::Int(_) | Value::Null => {}
                Value::Text(text) => {
                    census.all_integer = false;
                    census.text_lengths.insert(text.len() as u64);
                }
                Value::Real(_) | Value::Blob => census.all_integer = false,
            }
            *census.counts.entry(class).or_default() += 1;
        }
        return Ok(census);
    }
    let (s_lo, s_hi) = plausible(false);
    let (ms_lo, ms_hi) = plausible(true);
    let sql = super::fill(
        crate::db::dialect::query_file!(shared, "time_census.sql"),
        &[
            ("column", &dialect.ident(&column.name)),
            ("table", &table.sql_name(&dialect)),
            ("s_lo", &s_lo.to_string()),
            ("s_hi", &s_hi.to_string()),
            ("ms_lo", &ms_lo.to_string()),
            ("ms_hi", &ms_hi.to_string()),
            ("never_s_lo", &YEAR_9999_SECS.to_string()),
            ("never_s_hi", &YEAR_10000_SECS.to_string()),
            ("never_ms_lo", &(YEAR_9999_SECS * 1_000).to_string()),
        ],
    );
    let mut census = Census { all_integer: true, ..Census::default() };
    for row in db.query_text(&sql, &[]).await? {
        let cell = |i: usize| row.get(i).cloned().flatten().unwrap_or_default();
        let class = Class::from_name(&cell(0));
        let n: u64 = cell(1).parse().unwrap_or(0);
        *census.counts.entry(class).or_default() += n;
    }
    Ok(census)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: i64 = 1_767_261_600_000_000; // 2026-01-01T10:00:00Z

    #[test]
    fn iso_texts() {
        let us = |t: &str| parse_iso(t.as_bytes()).map(|(us, _)| us);
        assert_eq!(us("2026-01-01 10:00:00"), Some(BASE));
        assert_eq!(us("2026-01-01T10:00:00Z"), Some(BASE));
        assert_eq!(us("2026-01-01T10:00:01.5"), Some(BASE + 1_500_000));
        assert_eq!(us("2026-01-01T10:00:00.123456789Z"), Some(BASE + 123_456));
        assert_eq!(us("2026-01-01T11:00:00+01:00"), Some(BASE));
        assert_eq!(us("2026-01-01 12:00:00+0200"), Some(BASE));
        assert_eq!(us("2026-01-01 08:00:00-02"), Some(BASE));
        assert_eq!(us("2026-01-01 10:00"), Some(BASE));
        assert_eq!(us("2026-01-01"), Some(BASE - 36_000_000_000));
        assert_eq!(us("yesterday"), None);
        assert_eq!(us("2026-13-01"), None);
        assert_eq!(us("03:53"), None);
        assert_eq!(us("12/01/2026"), None);
        assert_eq!(us("Tue, 01 Dec 2026 10:00:00 +0000"), None);
        assert_eq!(us("2026-01-01 25:00:00"), None);
    }

    #[test]
    fn epoch_numbers_are_read_only_in_their_unit() {
        let s = 1_767_261_600;
        assert_eq!(classify_epoch(s), Class::Seconds);
        assert_eq!(classify_epoch(s * 1000), Class::Millis);
        assert_eq!(classify_epoch(253_402_300_799), Class::Never, "9999-12-31T23:59:59 in seconds");
        assert_eq!(classify_epoch(253_402_300_799_000), Class::Never, "in milliseconds");
        assert_eq!(classify_epoch(i64::from(i32::MAX)), Class::Never);
        assert_eq!(classify_epoch(0), Class::Outside);
        assert_eq!(classify_epoch(2_461_000), Class::Outside);
        assert_eq!(micros(Value::Int(s), false), Some(BASE));
        assert_eq!(micros(Value::Int(s), true), None, "seconds are not read as milliseconds");
        assert_eq!(micros(Value::Int(s * 1000), true), Some(BASE));
        assert_eq!(micros(Value::Int(253_402_300_799), true), None, "a never marker is not 1978");
        assert_eq!(micros(Value::Text(b"1767261600"), false), Some(BASE), "epoch as text");
        assert_eq!(micros(Value::Text(b"03:53"), false), None);
    }

    #[test]
    fn julian_days() {
        // 2026-01-01T10:00:00Z as a Julian day.
        let jd = BASE as f64 / 86_400_000_000.0 + JULIAN_EPOCH;
        assert_eq!(classify(Value::Real(jd)), Class::Julian);
        assert_eq!(micros(Value::Real(jd), false), Some(BASE));
        assert_eq!(classify(Value::Text(b"2461000.5")), Class::Julian);
    }
}
