//! PostgreSQL bulk reads: `COPY (query) TO STDOUT (FORMAT binary)` parsed
//! here. One message per row and no per-row decoding make it several times
//! cheaper for the client than the row protocol; values stay in their binary
//! wire form, folded as they are and decoded by type only where a person
//! will read them.

use anyhow::{Context, Result, bail};
use chrono::{DateTime, NaiveDate, Utc};
use futures_util::TryStreamExt;
use sqlx::postgres::PgConnection;
use sqlx::{AssertSqlSafe, Column, Executor, SqlSafeStr, Statement, TypeInfo};

use crate::db::TimeRepr;

/// How to read a column's binary form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Int2,
    Int4,
    Int8,
    Float4,
    Float8,
    Numeric,
    Text,
    /// timestamp and timestamptz: microseconds since 2000-01-01 UTC.
    Timestamp,
    /// Days since 2000-01-01.
    Date,
    Uuid,
    Jsonb,
    Bytea,
    /// Anything else: shown as text when it is UTF-8 (enums, citext), else as hex.
    Other,
}

impl Kind {
    fn of(type_name: &str) -> Kind {
        match type_name {
            "BOOL" => Kind::Bool,
            "INT2" => Kind::Int2,
            "INT4" => Kind::Int4,
            "INT8" => Kind::Int8,
            "FLOAT4" => Kind::Float4,
            "FLOAT8" => Kind::Float8,
            "NUMERIC" => Kind::Numeric,
            "TEXT" | "VARCHAR" | "BPCHAR" | "NAME" | "CHAR" | "JSON" | "XML" => Kind::Text,
            "TIMESTAMP" | "TIMESTAMPTZ" => Kind::Timestamp,
            "DATE" => Kind::Date,
            "UUID" => Kind::Uuid,
            "JSONB" => Kind::Jsonb,
            "BYTEA" => Kind::Bytea,
            _ => Kind::Other,
        }
    }
}

/// Microseconds from the Unix epoch to PostgreSQL's, 2000-01-01.
const PG_EPOCH_US: i64 = 946_684_800_000_000;

const SIGNATURE: &[u8] = b"PGCOPY\n\xff\r\n\0";

/// A query's rows through binary COPY, read one at a time.
pub struct CopyReader<'c> {
    stream: futures_util::stream::BoxStream<'c, sqlx::Result<bytes::Bytes>>,
    kinds: Vec<Kind>,
    buf: Vec<u8>,
    /// Where the unread bytes of `buf` start.
    start: usize,
    /// The current row's fields as (offset, length) into `buf`; `None` for NULL.
    fields: Vec<Option<(usize, usize)>>,
    header_done: bool,
    finished: bool,
}

impl<'c> CopyReader<'c> {
    pub async fn open(conn: &'c mut PgConnection, sql: &str) -> Result<CopyReader<'c>> {
        // Preparing (not running) the query gives the column types, which the
        // binary COPY stream does not carry.
        let statement = conn.prepare(AssertSqlSafe(sql.to_string()).into_sql_str()).await?;
        let kinds: Vec<Kind> = statement.columns().iter().map(|c| Kind::of(c.type_info().name())).collect();
        let copy = format!("COPY ({sql}) TO STDOUT (FORMAT binary)");
        let stream = conn.copy_out_raw(&copy).await?;
        Ok(CopyReader {
            stream,
            fields: Vec::with_capacity(kinds.len()),
            kinds,
            buf: Vec::with_capacity(1 << 16),
            start: 0,
            header_done: false,
            finished: false,
        })
    }

    /// The next row, or `None` at the end.
    pub async fn next(&mut self) -> Result<Option<crate::db::RowView<'_>>> {
        loop {
            if self.header_done && !self.finished {
                match parse_row(&self.buf[self.start..], &mut self.fields)? {
                    Some((used, false)) => {
                        // Field offsets are relative to the row start.
                        let base = self.start;
                        for (at, _) in self.fields.iter_mut().flatten() {
                            *at += base;
                        }
                        self.start += used;
                        return Ok(Some(crate::db::RowView::PgCopy(&self.buf, &self.fields, &self.kinds)));
                    }
                    Some((_, true)) => self.finished = true,
                    None => {}
                }
            }
            // Need more bytes: drop what was read, then append the next message.
            if self.start > 0 {
                self.buf.drain(..self.start);
                self.start = 0;
            }
            let Some(chunk) = self.stream.try_next().await? else {
                if self.header_done && !self.finished && !self.buf.is_empty() {
                    bail!("COPY stream ended inside a row");
                }
                return Ok(None);
            };
            if self.finished {
                continue;
            }
            self.buf.extend_from_slice(&chunk);
            if !self.header_done && self.buf.len() >= SIGNATURE.len() + 8 {
                if &self.buf[..SIGNATURE.len()] != SIGNATURE {
                    bail!("unexpected COPY stream from the server");
                }
                let ext = u32::from_be_bytes(self.buf[SIGNATURE.len() + 4..SIGNATURE.len() + 8].try_into()?) as usize;
                self.start = SIGNATURE.len() + 8 + ext;
                self.header_done = true;
            }
        }
    }
}

/// Parses one tuple from the front of `data` into `fields` as (offset,
/// length) pairs. Returns the bytes used and whether it was the trailer, or
/// `None` when `data` holds less than a whole tuple.
fn parse_row(data: &[u8], fields: &mut Vec<Option<(usize, usize)>>) -> Result<Option<(usize, bool)>> {
    fields.clear();
    if data.len() < 2 {
        return Ok(None);
    }
    let count = i16::from_be_bytes([data[0], data[1]]);
    if count == -1 {
        return Ok(Some((2, true)));
    }
    let mut at = 2;
    for _ in 0..count {
        if data.len() < at + 4 {
            return Ok(None);
        }
        let len = i32::from_be_bytes(data[at..at + 4].try_into()?);
        at += 4;
        if len < 0 {
            fields.push(None);
            continue;
        }
        let len = len as usize;
        if data.len() < at + len {
            return Ok(None);
        }
        fields.push(Some((at, len)));
        at += len;
    }
    Ok(Some((at, false)))
}

fn be<const N: usize>(bytes: &[u8]) -> Result<[u8; N]> {
    bytes.try_into().with_context(|| format!("expected {N} bytes, got {}", bytes.len()))
}

/// An integer column's value.
pub fn integer(bytes: &[u8], kind: Kind) -> Result<i64> {
    Ok(match kind {
        Kind::Int2 => i16::from_be_bytes(be(bytes)?).into(),
        Kind::Int4 => i32::from_be_bytes(be(bytes)?).into(),
        Kind::Int8 => i64::from_be_bytes(be(bytes)?),
        Kind::Numeric => numeric(bytes)?.split('.').next().unwrap_or("0").parse()?,
        other => bail!("expected an integer column, got {other:?}"),
    })
}

/// A time column as microseconds since the Unix epoch.
/// A time field as microseconds since the Unix epoch; `None` for an epoch
/// value that is not a plausible time in its column's unit.
pub fn micros(bytes: &[u8], kind: Kind, repr: TimeRepr) -> Result<Option<i64>> {
    let epoch = |millis: bool| -> Result<Option<i64>> {
        let v = integer(bytes, kind)?;
        let unit = if millis { crate::db::times::Class::Millis } else { crate::db::times::Class::Seconds };
        Ok((crate::db::times::classify_epoch(v) == unit).then(|| v * if millis { 1_000 } else { 1_000_000 }))
    };
    Ok(match (kind, repr) {
        // 'infinity' and '-infinity' (the extremes) are no instant.
        (Kind::Timestamp, _) => i64::from_be_bytes(be(bytes)?).checked_add(PG_EPOCH_US).filter(|_| !infinite(bytes)),
        (Kind::Date, _) => {
            let days = i32::from_be_bytes(be(bytes)?);
            (days != i32::MAX && days != i32::MIN).then(|| i64::from(days) * 86_400_000_000 + PG_EPOCH_US)
        }
        (_, TimeRepr::EpochSeconds) => epoch(false)?,
        (_, TimeRepr::EpochMillis) => epoch(true)?,
        (other, _) => bail!("created-at column of kind {other:?} is not a time"),
    })
}

/// A timestamp's `infinity` or `-infinity`.
fn infinite(bytes: &[u8]) -> bool {
    matches!(be::<8>(bytes).map(i64::from_be_bytes), Ok(i64::MAX | i64::MIN))
}

/// A value as text for reports.
pub fn display(bytes: &[u8], kind: Kind) -> Result<String> {
    Ok(match kind {
        Kind::Bool => (bytes.first() == Some(&1)).to_string(),
        Kind::Int2 | Kind::Int4 | Kind::Int8 => integer(bytes, kind)?.to_string(),
        Kind::Float4 => f32::from_be_bytes(be(bytes)?).to_string(),
        Kind::Float8 => f64::from_be_bytes(be(bytes)?).to_string(),
        Kind::Numeric => numeric(bytes)?,
        Kind::Timestamp if infinite(bytes) => {
            if i64::from_be_bytes(be(bytes)?) > 0 {
                "infinity".to_string()
            } else {
                "-infinity".to_string()
            }
        }
        Kind::Timestamp => {
            let us = i64::from_be_bytes(be(bytes)?).saturating_add(PG_EPOCH_US);
            crate::timeparse::rfc3339(DateTime::<Utc>::from_timestamp_micros(us).unwrap_or_default())
        }
        Kind::Date => {
            let days = i32::from_be_bytes(be(bytes)?);
            let epoch = NaiveDate::from_ymd_opt(2000, 1, 1).expect("valid date");
            // 'infinity' and '-infinity' are the extremes of the range.
            match chrono::Duration::try_days(days.into()).and_then(|d| epoch.checked_add_signed(d)) {
                Some(date) => date.to_string(),
                None if days > 0 => "infinity".to_string(),
                None => "-infinity".to_string(),
            }
        }
        Kind::Uuid => {
            let b: [u8; 16] = be(bytes)?;
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
        }
        // jsonb's binary form is a version byte, then the JSON text.
        Kind::Jsonb => String::from_utf8_lossy(bytes.get(1..).unwrap_or_default()).into_owned(),
        Kind::Bytea => hex(bytes),
        Kind::Text | Kind::Other => match std::str::from_utf8(bytes) {
            Ok(text) => text.to_string(),
            Err(_) => hex(bytes),
        },
    })
}

/// numeric's binary form: digit count, weight, sign, display scale, then
/// base-10000 digits.
fn numeric(bytes: &[u8]) -> Result<String> {
    if bytes.len() < 8 {
        bail!("short numeric value");
    }
    let word = |i: usize| i16::from_be_bytes([bytes[2 * i], bytes[2 * i + 1]]);
    let (ndigits, weight, sign, dscale) = (word(0) as usize, word(1) as i32, word(2) as u16, word(3) as usize);
    match sign {
        0xC000 => return Ok("NaN".into()),
        0xD000 => return Ok("Infinity".into()),
        0xF000 => return Ok("-Infinity".into()),
        _ => {}
    }
    if bytes.len() < 8 + 2 * ndigits {
        bail!("short numeric value");
    }
    let digits: Vec<i16> = (0..ndigits).map(|i| word(4 + i)).collect();
    let mut int_part = String::new();
    for w in 0..=weight.max(-1) {
        let d = digits.get(w as usize).copied().unwrap_or(0);
        if int_part.is_empty() {
            if d != 0 {
                int_part = d.to_string();
            }
        } else {
            int_part.push_str(&format!("{d:04}"));
        }
    }
    if int_part.is_empty() {
        int_part.push('0');
    }
    let mut frac = String::new();
    let mut i = weight + 1;
    while frac.len() < dscale {
        let d = if i < 0 { 0 } else { digits.get(i as usize).copied().unwrap_or(0) };
        frac.push_str(&format!("{d:04}"));
        i += 1;
    }
    frac.truncate(dscale);
    let sign = if sign == 0x4000 { "-" } else { "" };
    Ok(if frac.is_empty() { format!("{sign}{int_part}") } else { format!("{sign}{int_part}.{frac}") })
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 + bytes.len() * 2);
    out.push_str("\\x");
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(ndigits: i16, weight: i16, sign: u16, dscale: i16, digits: &[i16]) -> Vec<u8> {
        let mut b = Vec::new();
        for w in [ndigits, weight, sign as i16, dscale].into_iter().chain(digits.iter().copied()) {
            b.extend_from_slice(&w.to_be_bytes());
        }
        b
    }

    #[test]
    fn numerics() {
        assert_eq!(numeric(&num(2, 0, 0, 2, &[10, 5000])).unwrap(), "10.50");
        assert_eq!(numeric(&num(1, 1, 0, 0, &[1])).unwrap(), "10000");
        assert_eq!(numeric(&num(1, -1, 0x4000, 4, &[25])).unwrap(), "-0.0025");
        assert_eq!(numeric(&num(0, 0, 0, 2, &[])).unwrap(), "0.00");
        assert_eq!(numeric(&num(3, 1, 0, 3, &[12, 3456, 7800])).unwrap(), "123456.780");
    }

    #[test]
    fn rows_split_across_messages() {
        let mut row = Vec::new();
        row.extend_from_slice(&2i16.to_be_bytes());
        row.extend_from_slice(&3i32.to_be_bytes());
        row.extend_from_slice(b"abc");
        row.extend_from_slice(&(-1i32).to_be_bytes());
        let mut fields = Vec::new();
        assert_eq!(parse_row(&row[..7], &mut fields).unwrap(), None);
        assert_eq!(parse_row(&row, &mut fields).unwrap(), Some((row.len(), false)));
        assert_eq!(fields, vec![Some((6, 3)), None]);
        assert_eq!(parse_row(&(-1i16).to_be_bytes(), &mut fields).unwrap(), Some((2, true)));
    }

    #[test]
    fn times_and_values() {
        assert_eq!(
            micros(&0i64.to_be_bytes(), Kind::Timestamp, TimeRepr::Native { with_zone: true }).unwrap(),
            Some(PG_EPOCH_US)
        );
        let seconds = 1_767_261_600i64.to_be_bytes();
        assert_eq!(micros(&seconds, Kind::Int8, TimeRepr::EpochSeconds).unwrap(), Some(1_767_261_600_000_000));
        assert_eq!(micros(&seconds, Kind::Int8, TimeRepr::EpochMillis).unwrap(), None, "not a time in milliseconds");
        assert_eq!(display(&1i32.to_be_bytes(), Kind::Date).unwrap(), "2000-01-02");
        assert_eq!(display(&[1, b'{', b'}'], Kind::Jsonb).unwrap(), "{}");
        assert_eq!(display(&[0xff, 0x00], Kind::Text).unwrap(), "\\xff00");
        assert_eq!(integer(&1767261600i64.to_be_bytes(), Kind::Int8).unwrap(), 1767261600);
    }
}
