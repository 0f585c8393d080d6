//! Rows as the drivers give them: a large result read a row at a time
//! (`RowStream`), and one row's cells read without a decode error
//! (`RowView`), whichever engine they come from.

use std::borrow::Cow;

use anyhow::{Result, bail};
use futures_util::stream::BoxStream;
use sqlx::Row;
use sqlx::mysql::MySqlRow;
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;

use super::*;

/// A large result, read a row at a time.
pub struct RowStream<'c> {
    pub(super) rows: Rows<'c>,
    pub(super) ctx: Ctx,
    pub(super) _busy: session::Busy<'c>,
}

pub(super) enum Rows<'c> {
    Postgres(pg::CopyReader<'c>),
    /// The rows, the current row, and its columns' kinds (read off the first row).
    MySql(BoxStream<'c, sqlx::Result<MySqlRow>>, Option<MySqlRow>, Vec<MyKind>),
    Sqlite(lite::Scan, u64, std::marker::PhantomData<&'c ()>),
}

impl RowStream<'_> {
    /// The next row, or `None` at the end.
    pub async fn next(&mut self) -> Result<Option<RowView<'_>>> {
        let started = Instant::now();
        if let Rows::Sqlite(..) = self.rows {
            let Rows::Sqlite(scan, rows, _) = &mut self.rows else { unreachable!() };
            // The C API never awaits: give Ctrl-C a look now and then (its
            // progress handler stops a long step on its own).
            *rows += 1;
            if rows.is_multiple_of(4096) {
                tokio::task::yield_now().await;
            }
            return match scan.step() {
                Ok(true) => Ok(Some(RowView::Lite(scan))),
                Ok(false) => Ok(None),
                Err(err) => Err(self.ctx.explain(err, started).await),
            };
        }
        let (rows, ctx) = (&mut self.rows, &self.ctx);
        let read = async {
            Ok(match rows {
                Rows::Postgres(reader) => reader.next().await?,
                Rows::MySql(rows, current, kinds) => {
                    *current = rows.try_next().await?;
                    if let Some(row) = current
                        && kinds.is_empty()
                    {
                        *kinds = (0..row.len()).map(|i| MyKind::of(row, i)).collect();
                    }
                    current.as_ref().map(|row| RowView::MySql(row, kinds))
                }
                Rows::Sqlite(..) => None,
            })
        };
        let err = match watched(read).await {
            Some(Ok(row)) => return Ok(row),
            Some(Err(err)) => err,
            None => return Err(crate::exit::Interrupted.into()),
        };
        Err(ctx.explain(err, started).await)
    }
}

/// What a MySQL column holds, as far as reading it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MyKind {
    Signed,
    Unsigned,
    Date,
    /// TIMESTAMP: an instant, sent in the session's zone (UTC here).
    Timestamp,
    Other,
}

impl MyKind {
    fn of(row: &MySqlRow, i: usize) -> MyKind {
        use sqlx::{TypeInfo, ValueRef};
        let Ok(value) = row.try_get_raw(i) else { return MyKind::Other };
        let info = value.type_info();
        let name = info.name();
        match name {
            "DATE" => MyKind::Date,
            "TIMESTAMP" => MyKind::Timestamp,
            _ if name.contains("INT") && name.contains("UNSIGNED") => MyKind::Unsigned,
            _ if name.contains("INT") => MyKind::Signed,
            _ => MyKind::Other,
        }
    }
}

/// One row of a result, read by position.
pub enum RowView<'r> {
    Postgres(&'r PgRow),
    /// A row of a PostgreSQL binary COPY: the buffer, each field's place in
    /// it (`None` for NULL), and how to read each field.
    PgCopy(&'r [u8], &'r [Option<(usize, usize)>], &'r [pg::Kind]),
    /// A MySQL row, and its columns' kinds when known (bulk reads).
    MySql(&'r MySqlRow, &'r [MyKind]),
    Sqlite(&'r SqliteRow),
    /// A row of an SQLite statement stepped through the C API.
    Lite(&'r lite::Scan),
}

impl<'r> RowView<'r> {
    fn pg_field(buf: &'r [u8], fields: &[Option<(usize, usize)>], i: usize) -> Option<&'r [u8]> {
        fields[i].map(|(at, len)| &buf[at..at + len])
    }

    pub fn len(&self) -> usize {
        match self {
            RowView::Postgres(r) => r.len(),
            RowView::PgCopy(_, fields, _) => fields.len(),
            RowView::MySql(r, _) => r.len(),
            RowView::Sqlite(r) => r.len(),
            RowView::Lite(scan) => scan.columns(),
        }
    }

    /// Whether the column holds an integer (checked without a decode error,
    /// which costs far more than the check).
    fn is_integer(&self, i: usize) -> bool {
        use sqlx::{TypeInfo, ValueRef};
        match self {
            RowView::PgCopy(_, _, kinds) => matches!(kinds[i], pg::Kind::Int2 | pg::Kind::Int4 | pg::Kind::Int8),
            RowView::Postgres(r) => r.try_get_raw(i).is_ok_and(|v| v.type_info().name().starts_with("INT")),
            RowView::MySql(r, kinds) => {
                matches!(kinds.get(i).copied().unwrap_or_else(|| MyKind::of(r, i)), MyKind::Signed | MyKind::Unsigned)
            }
            RowView::Sqlite(r) => r.try_get_raw(i).is_ok_and(|v| v.type_info().name() == "INTEGER"),
            RowView::Lite(scan) => scan.class(i) == lite::Class::Integer,
        }
    }

    /// An integer column found by the first of `names` the row has (MySQL's
    /// SHOW statements, whose columns differ by version); `None` when it has
    /// none of them.
    pub fn named_int(&self, names: &[&str]) -> Option<Option<i64>> {
        let RowView::MySql(row, _) = self else { return None };
        names.iter().find_map(|name| {
            row.try_get::<Option<i64>, _>(*name)
                .or_else(|_| row.try_get::<Option<u64>, _>(*name).map(|v| v.map(|n| n as i64)))
                .ok()
        })
    }

    /// An integer column.
    pub fn int(&self, i: usize) -> Result<Option<i64>> {
        if let RowView::MySql(r, kinds) = self
            && kinds.get(i).copied().unwrap_or_else(|| MyKind::of(r, i)) == MyKind::Unsigned
        {
            return r.try_get::<Option<u64>, _>(i)?.map(|n| i64::try_from(n).map_err(Into::into)).transpose();
        }
        if let RowView::Postgres(r) = self {
            use sqlx::{TypeInfo, ValueRef};
            let raw = r.try_get_raw(i)?;
            return Ok(match raw.type_info().name() {
                "INT2" => r.try_get::<Option<i16>, _>(i)?.map(i64::from),
                "INT4" => r.try_get::<Option<i32>, _>(i)?.map(i64::from),
                _ => r.try_get(i)?,
            });
        }
        Ok(match self {
            RowView::Postgres(r) => r.try_get(i)?,
            RowView::PgCopy(buf, fields, kinds) => {
                Self::pg_field(buf, fields, i).map(|b| pg::integer(b, kinds[i])).transpose()?
            }
            RowView::MySql(r, _) => r.try_get(i)?,
            RowView::Sqlite(r) => r.try_get(i)?,
            RowView::Lite(scan) => match scan.class(i) {
                lite::Class::Null => None,
                lite::Class::Integer => Some(scan.int(i)),
                other => bail!("expected an integer, got SQLite {other:?}"),
            },
        })
    }

    /// A text or binary column's bytes, without a copy.
    pub fn bytes(&self, i: usize) -> Result<Option<&'r [u8]>> {
        Ok(match self {
            RowView::Postgres(r) => r.try_get::<Option<&str>, _>(i)?.map(str::as_bytes),
            RowView::PgCopy(buf, fields, _) => Self::pg_field(buf, fields, i),
            RowView::MySql(r, _) => r.try_get(i)?,
            RowView::Sqlite(r) => r.try_get(i)?,
            RowView::Lite(scan) => (scan.class(i) != lite::Class::Null).then(|| scan.bytes(i)),
        })
    }

    /// Any column as text for people and reports. MySQL and SQLite columns
    /// arrive as text already (the dialect casts them); PostgreSQL columns
    /// arrive in their binary form and are decoded by type.
    pub fn display(&self, i: usize) -> Result<Option<String>> {
        match self {
            RowView::PgCopy(buf, fields, kinds) => {
                Self::pg_field(buf, fields, i).map(|b| pg::display(b, kinds[i])).transpose()
            }
            _ => Ok(self.text(i)?.map(Cow::into_owned)),
        }
    }

    /// A row id: an integer when the column holds one, else its text.
    pub fn id(&self, i: usize) -> Result<Option<crate::window::RowId>> {
        use crate::window::RowId;
        if self.is_integer(i) {
            return Ok(self.int(i)?.map(RowId::Int));
        }
        Ok(self.display(i)?.map(|t| RowId::Text(t.into())))
    }

    /// A time column as microseconds since the epoch. PostgreSQL and MySQL
    /// send native times in their binary form, read here; SQLite's arrive
    /// converted (`Dialect::epoch_micros`), as do epoch numbers.
    pub fn micros(&self, i: usize, repr: TimeRepr) -> Result<Option<i64>> {
        match self {
            RowView::PgCopy(buf, fields, kinds) => {
                Ok(Self::pg_field(buf, fields, i).map(|b| pg::micros(b, kinds[i], repr)).transpose()?.flatten())
            }
            RowView::MySql(r, kinds) if matches!(repr, TimeRepr::Native { .. }) => {
                let micros = |t: chrono::NaiveDateTime| t.and_utc().timestamp_micros();
                match kinds.get(i).copied().unwrap_or_else(|| MyKind::of(r, i)) {
                    MyKind::Date => {
                        let date: Option<chrono::NaiveDate> = r.try_get(i)?;
                        Ok(date.map(|d| micros(d.and_time(chrono::NaiveTime::MIN))))
                    }
                    MyKind::Timestamp => {
                        let t: Option<chrono::DateTime<chrono::Utc>> = r.try_get(i)?;
                        Ok(t.map(|t| t.timestamp_micros()))
                    }
                    _ => Ok(r.try_get::<Option<chrono::NaiveDateTime>, _>(i)?.map(micros)),
                }
            }
            RowView::Lite(_) => {
                let TimeRepr::SqliteDynamic { millis } = repr else { return self.int(i) };
                Ok(times::micros(self.stored(i)?, millis))
            }
            _ => self.int(i),
        }
    }

    /// A value as it is stored, for reading times (SQLite bulk reads).
    pub fn stored(&self, i: usize) -> Result<times::Value<'_>> {
        Ok(match self {
            RowView::Lite(scan) => match scan.class(i) {
                lite::Class::Null => times::Value::Null,
                lite::Class::Integer => times::Value::Int(scan.int(i)),
                lite::Class::Float => times::Value::Real(scan.float(i)),
                lite::Class::Text => times::Value::Text(scan.bytes(i)),
                lite::Class::Blob => times::Value::Blob,
            },
            _ => match self.int(i)? {
                Some(v) => times::Value::Int(v),
                None => times::Value::Null,
            },
        })
    }

    /// Appends the `width` column hashes from column `from` on, each bound
    /// to its place (`fingerprint::mix`): equal for two rows exactly when the
    /// column is equal, NULL equal to NULL (short of a hash collision, which
    /// the confirming lookup catches). PostgreSQL and MySQL send them 32 bits
    /// each, two to a number (`Dialect::scan_select`); SQLite's values are
    /// hashed here.
    pub fn column_hashes(&self, from: usize, width: usize, out: &mut Vec<u64>) -> Result<()> {
        use crate::fingerprint::{self, mix};
        match self {
            RowView::Lite(scan) => {
                // Each value tagged with its storage class: 1 and 1.0 differ, as SQLite keeps them.
                for i in from..scan.columns() {
                    let hash = match scan.class(i) {
                        lite::Class::Null => {
                            out.push(fingerprint::null(i - from));
                            continue;
                        }
                        lite::Class::Integer => fingerprint::bytes(1, &scan.int(i).to_le_bytes()),
                        lite::Class::Float => fingerprint::bytes(2, &scan.float(i).to_bits().to_le_bytes()),
                        lite::Class::Text => fingerprint::bytes(3, scan.bytes(i)),
                        lite::Class::Blob => fingerprint::bytes(4, scan.bytes(i)),
                    };
                    out.push(mix(hash, i - from));
                }
            }
            _ => {
                for field in 0..width.div_ceil(2) {
                    let packed = self.packed(from + field)?;
                    out.push(mix(packed & 0xFFFF_FFFF, 2 * field));
                    if 2 * field + 1 < width {
                        out.push(mix(packed >> 32, 2 * field + 1));
                    }
                }
            }
        }
        Ok(())
    }

    /// A 64-bit number of packed hashes. MySQL's binary protocol sends a
    /// BIGINT as eight little-endian bytes: read in place, without the
    /// driver's type checks, which cost more than the rest of a row.
    fn packed(&self, i: usize) -> Result<u64> {
        if let RowView::MySql(r, _) = self {
            let bytes: Option<&[u8]> = r.try_get_unchecked(i)?;
            if let Some(bytes) = bytes
                && let Ok(eight) = <[u8; 8]>::try_from(bytes)
            {
                return Ok(u64::from_le_bytes(eight));
            }
        }
        Ok(self.int(i)?.unwrap_or_default() as u64)
    }

    /// A text column; numbers are accepted too, as their decimal text.
    pub fn text(&self, i: usize) -> Result<Option<Cow<'r, str>>> {
        if self.is_integer(i) {
            return Ok(self.int(i)?.map(|n| Cow::Owned(n.to_string())));
        }
        self.bytes(i).map(|b| b.map(String::from_utf8_lossy))
    }
}
