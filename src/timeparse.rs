//! Durations and points in time as the command line spells them.

use std::time::Duration;

use chrono::{DateTime, SubsecRound, Utc};

/// The unit of an integer time column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeUnit {
    /// The unit most of the column's values are plausible times in (1990 to ten years ahead)
    Auto,
    /// Seconds since the Unix epoch
    S,
    /// Milliseconds since the Unix epoch
    Ms,
}

/// `--time-unit`: a unit for every integer time column, or `COLUMN=UNIT` for one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeUnitArg {
    pub column: Option<String>,
    pub unit: TimeUnit,
}

/// Parses `s`, `ms`, `auto`, or `COLUMN=s`.
pub fn time_unit_arg(text: &str) -> Result<TimeUnitArg, String> {
    let (column, unit) = match text.rsplit_once('=') {
        Some((column, unit)) if !column.trim().is_empty() => (Some(column.trim().to_string()), unit),
        Some(_) => return Err(format!("{text:?} names no column: give COLUMN=s or COLUMN=ms")),
        None => (None, text),
    };
    let unit = match unit.trim() {
        "s" => TimeUnit::S,
        "ms" => TimeUnit::Ms,
        "auto" => TimeUnit::Auto,
        other => return Err(format!("bad time unit {other:?}: give s, ms or auto (or COLUMN=s)")),
    };
    Ok(TimeUnitArg { column, unit })
}

/// The unit of each integer time column: a flag for the column, then the
/// config file's for the column, then a bare flag, then the file's default.
#[derive(Debug, Clone, Default)]
pub struct TimeUnits {
    by_column: std::collections::BTreeMap<String, TimeUnit>,
    default: Option<TimeUnit>,
}

impl TimeUnits {
    pub fn new(
        flags: &[TimeUnitArg],
        file_default: Option<TimeUnit>,
        file_columns: Option<&std::collections::BTreeMap<String, TimeUnit>>,
    ) -> TimeUnits {
        let mut by_column = file_columns.cloned().unwrap_or_default();
        let mut default = file_default;
        for flag in flags {
            match &flag.column {
                Some(column) => {
                    by_column.insert(column.clone(), flag.unit);
                }
                None => default = Some(flag.unit),
            }
        }
        TimeUnits { by_column, default }
    }

    pub fn of(&self, column: &str) -> TimeUnit {
        self.by_column.get(column).copied().or(self.default).unwrap_or(TimeUnit::Auto)
    }

    /// Columns given a unit that the table must have.
    pub fn columns(&self) -> impl Iterator<Item = &str> {
        self.by_column.keys().map(String::as_str)
    }
}

/// The zone a zoneless time column's values were written in: UTC (the
/// default), an IANA name the server resolves, or a fixed offset.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Zone {
    #[default]
    Utc,
    /// An IANA name (`Asia/Shanghai`), resolved by the server's zone data.
    Named(String),
    /// An offset from UTC in minutes (`+08:00` is 480).
    Offset(i32),
}

impl Zone {
    /// The offset as ISO 8601 writes it: `+08:00`.
    pub fn offset_text(minutes: i32) -> String {
        let sign = if minutes < 0 { '-' } else { '+' };
        format!("{sign}{:02}:{:02}", minutes.abs() / 60, minutes.abs() % 60)
    }
}

impl std::fmt::Display for Zone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Zone::Utc => f.write_str("UTC"),
            Zone::Named(name) => f.write_str(name),
            Zone::Offset(minutes) => f.write_str(&Zone::offset_text(*minutes)),
        }
    }
}

/// Reads `--time-zone`: `UTC`, an offset (`+08:00`, `-0530`, `+8`), or an
/// IANA name (`Area/City`).
pub fn zone(text: &str) -> Result<Zone, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("utc") || t.eq_ignore_ascii_case("z") || t == "+00:00" || t == "Etc/UTC" {
        return Ok(Zone::Utc);
    }
    if let Some(rest) = t.strip_prefix(['+', '-']) {
        let sign = if t.starts_with('-') { -1 } else { 1 };
        let digits: String = rest.chars().filter(|c| *c != ':').collect();
        let (h, m) = match digits.len() {
            1 | 2 => (digits.parse::<i32>().ok(), Some(0)),
            4 => (digits[..2].parse::<i32>().ok(), digits[2..].parse::<i32>().ok()),
            _ => (None, None),
        };
        return match (h, m) {
            (Some(h), Some(m)) if h <= 14 && m < 60 => Ok(Zone::Offset(sign * (h * 60 + m))),
            _ => Err(format!("{t:?}: an offset is +HH:MM, from -14:00 to +14:00")),
        };
    }
    let name_like = t.contains('/')
        && t.split('/').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || "_-+".contains(c)));
    match name_like {
        true => Ok(Zone::Named(t.to_string())),
        false => Err(format!("{t:?}: a time zone is UTC, an offset such as +08:00, or a name such as Asia/Shanghai")),
    }
}

/// A duration such as `5s`, `250ms`, `2h 30m` or `7d`; never negative.
pub fn duration(text: &str) -> Result<Duration, String> {
    if text.trim().starts_with('-') {
        return Err(format!("a length of time is never negative: {text:?} (try 5s, 10m, 24h)"));
    }
    humantime::parse_duration(text.trim()).map_err(|e| format!("bad duration {text:?}: {e} (try 5s, 10m, 24h)"))
}

/// A clustering window: a duration above zero (a window of zero joins no
/// two rows, so a scan with it could only ever come back clean).
pub fn window(text: &str) -> Result<Duration, String> {
    let d = duration(text)?;
    if d.is_zero() {
        return Err(format!("a window of {text:?} joins no two rows: give one above zero (the default is 2m)"));
    }
    Ok(d)
}

/// An RFC 3339 time (`2026-11-30T08:00:00Z`), or a duration back from now (`24h`).
pub fn instant(text: &str) -> Result<DateTime<Utc>, String> {
    let text = text.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Ok(t.with_timezone(&Utc));
    }
    match humantime::parse_duration(text) {
        // Nothing a database keeps is older than 1970: a duration reaching
        // further back is a mistake, not "every row".
        Ok(ago) => chrono::Duration::from_std(ago)
            .ok()
            .and_then(|ago| Utc::now().checked_sub_signed(ago))
            .filter(|t| t.timestamp() >= 0)
            .ok_or_else(|| format!("duration {text:?} reaches back before 1970: nothing can be that old")),
        Err(_) => Err(format!(
            "bad time {text:?}: give an RFC 3339 time (2026-11-30T08:00:00Z) or a duration back from now (24h)"
        )),
    }
}

/// The instant `ago` before `now`, for a horizon or a grace period named
/// `what`: refused (never a panic) when it reaches back before 1970, where
/// nothing a database keeps can be.
pub fn before(now: DateTime<Utc>, ago: Duration, what: &str) -> anyhow::Result<DateTime<Utc>> {
    chrono::TimeDelta::from_std(ago)
        .ok()
        .and_then(|ago| now.checked_sub_signed(ago))
        .filter(|t| t.timestamp() >= 0)
        .ok_or_else(|| anyhow::anyhow!("{what} of {} reaches back before 1970: nothing can be that old", short(ago)))
}

/// A duration as people write a retention: `90s`, `15m`, `24h`, `72h`, `7d`, `30d`.
pub fn short(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0 => format!("{}ms", d.as_millis()),
        _ if s.is_multiple_of(86_400) && s >= 7 * 86_400 => format!("{}d", s / 86_400),
        _ if s.is_multiple_of(3600) => format!("{}h", s / 3600),
        _ if s.is_multiple_of(60) => format!("{}m", s / 60),
        _ => format!("{s}s"),
    }
}

/// A duration for people, in its two largest units: `45s`, `12m 5s`,
/// `3h 12m`, `1d 2h`, `14d`; under a second, `350ms`. The one style of every
/// duration a report says in words.
pub fn span(d: Duration) -> String {
    let s = d.as_secs();
    let (big, small) = match s {
        0 => return format!("{}ms", d.as_millis()),
        1..60 => return format!("{s}s"),
        60..3600 => ((s / 60, "m"), (s % 60, "s")),
        3600..86_400 => ((s / 3600, "h"), (s % 3600 / 60, "m")),
        _ => ((s / 86_400, "d"), (s % 86_400 / 3600, "h")),
    };
    match small {
        (0, _) => format!("{}{}", big.0, big.1),
        _ => format!("{}{} {}{}", big.0, big.1, small.0, small.1),
    }
}

/// The current time; the tests may fix it with `IDEMCTL_TEST_NOW` (RFC 3339)
/// to put a row exactly at a horizon.
pub fn now() -> DateTime<Utc> {
    // Databases keep microseconds: a cutoff finer than that is only noise in reports.
    let now = || Utc::now().trunc_subsecs(6);
    std::env::var("IDEMCTL_TEST_NOW")
        .ok()
        .and_then(|t| DateTime::parse_from_rfc3339(&t).ok())
        .map_or_else(now, |t| t.with_timezone(&Utc))
}

/// Microseconds since the Unix epoch as a UTC time, for reports.
pub fn from_micros(us: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_micros(us).unwrap_or_default()
}

/// A UTC time as RFC 3339 with only the fraction digits it needs.
pub fn rfc3339(t: DateTime<Utc>) -> String {
    // To the millisecond at most, so that every time reads alike.
    use chrono::Timelike;
    let t = t.with_nanosecond(t.nanosecond() / 1_000_000 * 1_000_000).unwrap_or(t);
    t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
}

/// Microseconds as seconds, for gaps and spans.
pub fn seconds(us: i64) -> f64 {
    us as f64 / 1_000_000.0
}

#[cfg(test)]
mod tests {

    #[test]
    fn zones_by_name_and_offset() {
        assert_eq!(zone("UTC"), Ok(Zone::Utc));
        assert_eq!(zone("+08:00"), Ok(Zone::Offset(480)));
        assert_eq!(zone("-0530"), Ok(Zone::Offset(-330)));
        assert_eq!(zone("+8"), Ok(Zone::Offset(480)));
        assert_eq!(zone("Asia/Shanghai"), Ok(Zone::Named("Asia/Shanghai".into())));
        assert_eq!(zone("America/Argentina/Buenos_Aires"), Ok(Zone::Named("America/Argentina/Buenos_Aires".into())));
        for bad in ["+15:00", "+08:61", "Shanghai", "Asia/Sh'ai", ""] {
            assert!(zone(bad).is_err(), "{bad}");
        }
        assert_eq!(Zone::Offset(-330).to_string(), "-05:30");
    }

    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration("5s").unwrap(), Duration::from_secs(5));
        assert_eq!(duration("1m 30s").unwrap(), Duration::from_secs(90));
        assert!(duration("5 parsecs").unwrap_err().contains("bad duration"));
    }

    #[test]
    fn spans_for_people() {
        let span = |s: u64| super::span(Duration::from_secs(s));
        assert_eq!(super::span(Duration::from_millis(350)), "350ms");
        assert_eq!(span(45), "45s");
        assert_eq!(span(60), "1m");
        assert_eq!(span(725), "12m 5s");
        assert_eq!(span(3 * 3600 + 12 * 60 + 7), "3h 12m");
        assert_eq!(span(86_400 + 2 * 3600 + 6 * 60 + 35), "1d 2h");
        assert_eq!(span(14 * 86_400), "14d");
    }

    #[test]
    fn instants() {
        let t = instant("2026-11-30T08:00:00+01:00").unwrap();
        assert_eq!(rfc3339(t), "2026-11-30T07:00:00Z");
        let ago = Utc::now() - instant("1h").unwrap();
        assert!((ago.num_seconds() - 3600).abs() <= 5);
        assert!(instant("yesterday-ish").is_err());
        assert!(instant("100y").unwrap_err().contains("before 1970"));
        assert!(instant("50y").is_ok());
    }

    #[test]
    fn time_units_by_column() {
        assert_eq!(time_unit_arg("ms"), Ok(TimeUnitArg { column: None, unit: TimeUnit::Ms }));
        let one = time_unit_arg(" seen_at = s").unwrap();
        assert_eq!(one, TimeUnitArg { column: Some("seen_at".into()), unit: TimeUnit::S });
        assert!(time_unit_arg("=ms").unwrap_err().contains("names no column"));
        assert!(time_unit_arg(" =ms").unwrap_err().contains("names no column"));
        assert!(time_unit_arg("hours").unwrap_err().contains("bad time unit"));
        let units = TimeUnits::new(&[one, TimeUnitArg { column: None, unit: TimeUnit::Ms }], None, None);
        assert_eq!(units.columns().collect::<Vec<_>>(), ["seen_at"]);
        assert_eq!((units.of("seen_at"), units.of("other")), (TimeUnit::S, TimeUnit::Ms));
    }

    #[test]
    fn zone_edges() {
        // Each spelling of UTC alone, and the offsets at their bounds.
        for utc in ["utc", "Z", "+00:00", "Etc/UTC"] {
            assert_eq!(zone(utc), Ok(Zone::Utc), "{utc}");
        }
        assert_eq!(zone("+14:00"), Ok(Zone::Offset(840)));
        assert_eq!(zone("+05:59"), Ok(Zone::Offset(359)));
        assert!(zone("+05:60").is_err());
        assert!(zone("utc+1").is_err());
        assert_eq!(Zone::offset_text(0), "+00:00");
        assert_eq!(Zone::offset_text(-1), "-00:01");
    }

    #[test]
    fn retentions_as_people_write_them() {
        let short = |s: u64| super::short(Duration::from_secs(s));
        assert_eq!(super::short(Duration::from_millis(250)), "250ms");
        assert_eq!(short(90), "90s");
        assert_eq!(short(15 * 60), "15m");
        assert_eq!(short(72 * 3600), "72h");
        assert_eq!(short(6 * 86_400), "144h");
        assert_eq!(short(30 * 86_400), "30d");
    }

    #[test]
    fn before_1970_is_refused() {
        let now = from_micros(3_600_000_000);
        assert_eq!(before(now, Duration::from_secs(3600), "a horizon").unwrap(), from_micros(0));
        let err = before(now, Duration::from_secs(3601), "a horizon").unwrap_err().to_string();
        assert!(err.starts_with("a horizon of 3601s reaches back before 1970"), "{err}");
    }

    #[test]
    fn windows_above_zero() {
        assert_eq!(window("90s"), Ok(Duration::from_secs(90)));
        assert!(window("0s").unwrap_err().contains("joins no two rows"));
        assert!(window("-5s").unwrap_err().contains("never negative"));
    }

    #[test]
    fn units_flag_over_file_column_over_default() {
        let file: std::collections::BTreeMap<String, TimeUnit> =
            [("a".to_string(), TimeUnit::Ms), ("b".to_string(), TimeUnit::Ms)].into();
        let flags = [TimeUnitArg { column: Some("a".into()), unit: TimeUnit::S }];
        let units = TimeUnits::new(&flags, Some(TimeUnit::S), Some(&file));
        // A flag for the column, then the file's for the column, then the file's default.
        assert_eq!((units.of("a"), units.of("b"), units.of("c")), (TimeUnit::S, TimeUnit::Ms, TimeUnit::S));
        assert_eq!(TimeUnits::new(&[], None, None).of("c"), TimeUnit::Auto);
    }

    #[test]
    fn zones_and_retentions_said() {
        assert_eq!(Zone::Utc.to_string(), "UTC");
        assert_eq!(Zone::Named("Asia/Shanghai".into()).to_string(), "Asia/Shanghai");
        assert_eq!(Zone::Offset(480).to_string(), "+08:00");
        // Whole weeks and more in days; less in hours.
        assert_eq!(short(Duration::from_secs(7 * 86_400)), "7d");
        assert_eq!(short(Duration::from_secs(86_400)), "24h");
        assert_eq!(short(Duration::from_secs(7 * 86_400 + 3600)), "169h");
        // Exactly 1970 is not before it.
        let epoch = from_micros(0);
        assert_eq!(before(epoch, Duration::ZERO, "x").unwrap(), epoch);
        // Times to the millisecond, whatever finer the value holds.
        assert_eq!(rfc3339(from_micros(1_700_000_000_123_456)), "2023-11-14T22:13:20.123Z");
        assert_eq!(rfc3339(from_micros(1_700_000_000_000_000)), "2023-11-14T22:13:20Z");
    }

    #[test]
    fn micros_round_trip() {
        let t = from_micros(1_700_000_000_123_000);
        assert_eq!(rfc3339(t), "2023-11-14T22:13:20.123Z");
        assert_eq!(seconds(4_500_000), 4.5);
    }
}
