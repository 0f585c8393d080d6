//! Property tests: every parser of user input, and the time arithmetic it
//! feeds, answers any input with a value or an error, never a panic.

use std::time::Duration;

use chrono::{DateTime, Utc};
use proptest::prelude::*;

use crate::db::times::{self, Value};
use crate::{exit, timeparse, units};

/// Text shaped like durations, times, units and sizes, and noise.
fn inputs() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[0-9]{1,25}(ns|us|ms|s|m|h|d|w|y|M|years)?",
        "[0-9]{1,20}(\\.[0-9]{1,20})?(k|K|M|G|B)?/(s|min|h|day|d|x)",
        "[0-9]{1,20}(\\.[0-9]{1,10})? ?(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB|PB)",
        "[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,12})?)?)?(Z|[+-][0-9]{2}(:?[0-9]{2})?)?",
        "([a-z_]{1,10}=)?(s|ms|auto|x)",
        "[-+]?[0-9]{1,30}(\\.[0-9]{0,10})?",
    ]
}

fn any_instant() -> impl Strategy<Value = DateTime<Utc>> {
    (-8_000_000_000_000i64..8_000_000_000_000i64).prop_map(|s| DateTime::from_timestamp(s, 0).unwrap_or_default())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsers_never_panic(text in inputs()) {
        let _ = timeparse::duration(&text);
        let _ = timeparse::instant(&text);
        let _ = timeparse::time_unit_arg(&text);
        let _ = units::bytes(&text);
        let _ = units::rate(&text);
        let _ = times::parse_iso(text.as_bytes());
        let _ = times::classify(Value::Text(text.as_bytes()));
        let _ = times::micros(Value::Text(text.as_bytes()), true);
        let _ = times::micros(Value::Text(text.as_bytes()), false);
        let _ = exit::shorten(&text);
    }

    #[test]
    fn cutoffs_are_a_time_or_an_error(now in any_instant(), secs in any::<u64>(), nanos in 0u32..1_000_000_000) {
        let ago = Duration::new(secs, nanos);
        if let Ok(cutoff) = timeparse::before(now, ago, "a horizon") {
            prop_assert!(cutoff <= now && cutoff.timestamp() >= 0);
        }
    }

    #[test]
    fn stored_numbers_are_a_time_or_nothing(v in any::<i64>(), f in any::<f64>(), millis in any::<bool>()) {
        for value in [Value::Int(v), Value::Real(f)] {
            let _ = times::classify(value);
            if let Some(us) = times::micros(value, millis) {
                let (lo, hi) = times::plausible(false);
                // Julian days and epoch values alike land between 1990 and ten years ahead.
                prop_assert!(us >= lo * 1_000_000 && us <= hi * 1_000_000 + 999_999, "{value:?} -> {us}");
            }
        }
    }
}

#[test]
fn extreme_horizons_are_refused() {
    let now = timeparse::now();
    let err = timeparse::before(now, Duration::from_secs(99_999_999 * 86_400), "a horizon").unwrap_err();
    assert!(err.to_string().contains("reaches back before 1970"), "{err}");
    assert!(timeparse::before(now, Duration::MAX, "a horizon").is_err());
    assert!(units::rate("1e400/s").is_err());
    assert!(units::bytes(&"9".repeat(400)).is_err());
}
