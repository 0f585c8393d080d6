//! Sizes and rates for `size`: parsed in decimal (KB, MB, GB) or binary (KiB,
//! MiB, GiB) units, and always printed in decimal units, as disks and cloud
//! bills count them.

/// Bytes from `512`, `512B`, `1KB`, `1.5kB`, `4KiB`, `2 MB`, `1GiB`.
pub fn bytes(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let number: f64 = number.parse().map_err(|_| format!("{text:?} is not a size such as 512B, 1KB or 4KiB"))?;
    let unit = unit.trim();
    let factor = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "m" | "mb" => 1e6,
        "g" | "gb" => 1e9,
        "t" | "tb" => 1e12,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        "tib" => 1024.0_f64.powi(4),
        _ => return Err(format!("{text:?}: unknown size unit {unit:?} (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)")),
    };
    if number <= 0.0 {
        return Err(format!("{text:?}: a size must be more than zero"));
    }
    if !(number * factor).is_finite() || number * factor > 1e15 {
        return Err(format!("{text:?}: a row of more than 1 PB is not a row"));
    }
    Ok(number * factor)
}

/// Rows per second from `10M/day`, `120/s`, `5k/min`, `1.2k/h`, `3000000/d`.
pub fn rate(text: &str) -> Result<f64, String> {
    let bad = || format!("{text:?} is not a rate such as 10M/day, 5k/min or 120/s");
    let (count, per) = text.trim().split_once('/').ok_or_else(bad)?;
    let count = count.trim();
    let split = count.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(count.len());
    let (number, suffix) = count.split_at(split);
    let number: f64 = number.parse().map_err(|_| bad())?;
    let factor = match suffix.trim() {
        "" => 1.0,
        "k" | "K" => 1e3,
        "M" | "m" => 1e6,
        "G" | "B" | "b" => 1e9,
        _ => return Err(format!("{text:?}: unknown count suffix {suffix:?} (k, M, G)")),
    };
    let seconds = match per.trim().to_ascii_lowercase().as_str() {
        "s" | "sec" | "second" => 1.0,
        "m" | "min" | "minute" => 60.0,
        "h" | "hr" | "hour" => 3600.0,
        "d" | "day" => 86_400.0,
        _ => return Err(format!("{text:?}: unknown period {per:?} (s, min, h, day)")),
    };
    if number <= 0.0 {
        return Err(format!("{text:?}: a rate must be more than zero"));
    }
    if !(number * factor).is_finite() || number * factor / seconds > 1e12 {
        return Err(format!("{text:?}: more than a trillion rows a second is not a rate"));
    }
    Ok(number * factor / seconds)
}

/// Bytes in decimal units, three significant digits: `512 B`, `1.5 KB`, `10 GB`.
pub fn human_bytes(bytes: f64) -> String {
    scaled(bytes, &[" B", " KB", " MB", " GB", " TB", " PB"])
}

/// A count in short decimal units: `950`, `12.3k`, `10M`, `1.2G`.
pub fn human_count(n: f64) -> String {
    scaled(n, &["", "k", "M", "G"])
}

/// `value` divided by 1,000 until under 1,000, with the suffix of its step.
fn scaled(value: f64, suffixes: &[&str]) -> String {
    let mut value = value.max(0.0);
    let mut step = 0;
    while value >= 999.5 && step < suffixes.len() - 1 {
        value /= 1000.0;
        step += 1;
    }
    format!("{}{}", significant(value), suffixes[step])
}

/// Three significant digits, without trailing zeros: 10, 1.5, 123, 0.25.
fn significant(value: f64) -> String {
    let decimals = if value >= 99.95 {
        0
    } else if value >= 9.995 {
        1
    } else {
        2
    };
    let text = format!("{value:.decimals$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

/// A count and its noun, grouped: `1 row`, `0 rows`, `12,345 rows`
/// (`noun` is the singular; its plural adds an s).
pub fn counted(n: u64, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{} {noun}s", grouped(n)) }
}

/// An integer with thousands separators: 1,234,567.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A decimal for people: its whole part grouped by thousands (`-1,234.5`).
pub fn grouped_decimal(d: &rust_decimal::Decimal) -> String {
    let text = d.normalize().to_string();
    let (sign, unsigned) = text.strip_prefix('-').map_or(("", text.as_str()), |rest| ("-", rest));
    let (whole, fraction) = unsigned.split_once('.').map_or((unsigned, None), |(w, f)| (w, Some(f)));
    let whole = whole.parse::<u64>().map(grouped).unwrap_or_else(|_| whole.to_string());
    match fraction {
        Some(f) => format!("{sign}{whole}.{f}"),
        None => format!("{sign}{whole}"),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn decimals_grouped_for_people() {
        let d = |s: &str| s.parse::<rust_decimal::Decimal>().unwrap();
        assert_eq!(super::grouped_decimal(&d("696800")), "696,800");
        assert_eq!(super::grouped_decimal(&d("-1234.50")), "-1,234.5");
        assert_eq!(super::grouped_decimal(&d("999.99")), "999.99");
        assert_eq!(super::grouped_decimal(&d("0")), "0");
    }
    use super::*;

    #[test]
    fn sizes_decimal_and_binary() {
        assert_eq!(bytes("1KB").unwrap(), 1000.0);
        assert_eq!(bytes("1kb").unwrap(), 1000.0);
        assert_eq!(bytes("1KiB").unwrap(), 1024.0);
        assert_eq!(bytes("2 MiB").unwrap(), 2.0 * 1024.0 * 1024.0);
        assert_eq!(bytes("1.5GB").unwrap(), 1.5e9);
        assert_eq!(bytes("512").unwrap(), 512.0);
        assert_eq!(bytes("512B").unwrap(), 512.0);
        assert!(bytes("1XB").unwrap_err().contains("unknown size unit"));
        assert!(bytes("KB").is_err());
        assert!(bytes("0KB").is_err());
    }

    #[test]
    fn rates() {
        assert_eq!(rate("10M/day").unwrap(), 1e7 / 86_400.0);
        assert_eq!(rate("120/s").unwrap(), 120.0);
        assert_eq!(rate("6k/min").unwrap(), 100.0);
        assert_eq!(rate("3.6k/h").unwrap(), 1.0);
        assert_eq!(rate("86400/d").unwrap(), 1.0);
        assert!(rate("10M").unwrap_err().contains("not a rate"));
        assert!(rate("10M/week").unwrap_err().contains("unknown period"));
        assert!(rate("10X/day").unwrap_err().contains("unknown count suffix"));
    }

    #[test]
    fn counts_and_their_nouns() {
        assert_eq!(counted(1, "row"), "1 row");
        assert_eq!(counted(0, "row"), "0 rows");
        assert_eq!(counted(12_345, "day"), "12,345 days");
    }

    #[test]
    fn printed_in_decimal_units() {
        assert_eq!(human_bytes(1e10), "10 GB");
        assert_eq!(human_bytes(3e10), "30 GB");
        assert_eq!(human_bytes(512.0), "512 B");
        assert_eq!(human_bytes(1500.0), "1.5 KB");
        assert_eq!(human_bytes(999_999.0), "1 MB");
        assert_eq!(human_bytes(123_456_789.0), "123 MB");
        assert_eq!(human_bytes(12_345_678.0), "12.3 MB");
        assert_eq!(human_count(1e7), "10M");
        assert_eq!(human_count(950.0), "950");
        assert_eq!(human_count(12_345.0), "12.3k");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
    }
}
