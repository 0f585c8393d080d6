//! Reading the table: each slice on a session and a task of its own, handed
//! over in batches of (id, created-at, one hash per carried column), merged
//! here in created-at order.

use anyhow::{Context, Result};

use super::ScanArgs;
use super::plan::Plan;
use crate::db::dialect::TimeRepr;
use crate::db::scan::{self as db_scan, Bounds, Slice};
use crate::db::{self, Access, Bind, Db, Dialect};
use crate::window::RowId;

/// Rows read from one slice, handed over together.
#[derive(Default)]
struct Batch {
    ids: Vec<RowId>,
    times: Vec<i64>,
    /// `width` hashes a row, one per carried column.
    hashes: Vec<u64>,
    /// Rows left out: their created-at value is not a readable time.
    unreadable: u64,
}

/// Rows a batch holds: large enough that handing one over costs nothing per row.
const BATCH_ROWS: usize = 4096;

/// Rows seen, and the time range they cover.
#[derive(Debug, Default, Clone)]
pub struct Scanned {
    pub rows: u64,
    /// Rows left out: their created-at value is not a readable time.
    pub unreadable: u64,
    pub first_us: Option<i64>,
    pub last_us: Option<i64>,
}

impl Scanned {
    fn add(&mut self, t_us: i64) {
        self.rows += 1;
        self.first_us.get_or_insert(t_us);
        self.last_us = Some(t_us);
    }
}

/// The table's rows in created-at order, from every slice.
pub struct Rows {
    readers: Vec<Reader>,
    /// The reader the last row came from, refilled before the next.
    last: Option<usize>,
    started: bool,
    pub scanned: Scanned,
}

impl Rows {
    /// Starts a reader per slice, each on a session of its own.
    pub async fn open(args: &ScanArgs, plan: &Plan, dialect: &Dialect, slices: &[Slice]) -> Result<Rows> {
        let width = plan.carried.len();
        let mut readers = Vec::new();
        for slice in slices {
            let bounds = Bounds { filter: args.filter.as_deref(), since: args.since, until: args.until };
            let (sql, binds) = db_scan::statement(&plan.source(), bounds, dialect, *slice);
            let mut session = db::connect(&args.connect.target("scan"), Access::ReadOnly).await?;
            session.set_subject(&plan.table.schema, &plan.table.name);
            let (tx, rx) = tokio::sync::mpsc::channel(4);
            tokio::spawn(read_slice(session, sql, binds, plan.repr, width, tx));
            readers.push(Reader { rx, batch: Batch::default(), at: 0, width });
        }
        Ok(Rows { readers, last: None, started: false, scanned: Scanned::default() })
    }

    /// The next row: its id, created-at time and column hashes.
    pub async fn next(&mut self) -> Result<Option<(RowId, i64, &[u64])>> {
        if !self.started {
            self.started = true;
            // The first batches come together, so that every slice's query runs at once.
            for reader in &mut self.readers {
                reader.fill(&mut self.scanned).await?;
            }
        }
        if let Some(i) = self.last.take()
            && self.readers[i].exhausted()
        {
            self.readers[i].fill(&mut self.scanned).await?;
        }
        // Slices are each in created-at order: always take the earliest head.
        let Some(i) =
            self.readers.iter().enumerate().filter_map(|(i, r)| r.head_t().map(|t| (t, i))).min().map(|(_, i)| i)
        else {
            return Ok(None);
        };
        self.last = Some(i);
        let (id, t_us, hashes) = self.readers[i].take();
        self.scanned.add(t_us);
        Ok(Some((id, t_us, hashes)))
    }
}

/// Reads one slice on its own session and sends its rows in batches; an
/// error is sent as the last message.
async fn read_slice(
    mut db: Db,
    sql: String,
    binds: Vec<Bind>,
    repr: TimeRepr,
    width: usize,
    tx: tokio::sync::mpsc::Sender<Result<Batch>>,
) {
    let result = async {
        let mut stream = db.stream_rows(&sql, &binds).await?;
        let mut batch = Batch::default();
        loop {
            {
                let Some(row) = stream.next().await? else { break };
                // A created-at value that is not a readable time is left out and counted.
                let Some(t_us) = row.micros(1, repr)? else {
                    batch.unreadable += 1;
                    continue;
                };
                batch.ids.push(row.id(0)?.context("row with a NULL id")?);
                batch.times.push(t_us);
                row.column_hashes(2, width, &mut batch.hashes)?;
            }
            if batch.ids.len() == BATCH_ROWS && tx.send(Ok(std::mem::take(&mut batch))).await.is_err() {
                // The scan stopped reading (an error, or a closed pipe).
                return Ok(());
            }
        }
        if !batch.ids.is_empty() || batch.unreadable > 0 {
            let _ = tx.send(Ok(batch)).await;
        }
        drop(stream);
        db.close().await
    }
    .await;
    if let Err(err) = result {
        let _ = tx.send(Err(err)).await;
    }
}

/// The receiving end of one slice, and the row it is at.
struct Reader {
    rx: tokio::sync::mpsc::Receiver<Result<Batch>>,
    batch: Batch,
    at: usize,
    width: usize,
}

impl Reader {
    /// The next batch, or an empty one at the end of the slice.
    async fn fill(&mut self, scanned: &mut Scanned) -> Result<()> {
        loop {
            self.batch = self.rx.recv().await.transpose()?.unwrap_or_default();
            self.at = 0;
            scanned.unreadable += self.batch.unreadable;
            // A batch of rows that were all left out: take the next.
            if !self.batch.ids.is_empty() || self.batch.unreadable == 0 {
                return Ok(());
            }
        }
    }

    fn exhausted(&self) -> bool {
        self.at == self.batch.ids.len() && !self.batch.ids.is_empty()
    }

    /// The created-at time of the next row, if any.
    fn head_t(&self) -> Option<i64> {
        self.batch.times.get(self.at).copied()
    }

    fn take(&mut self) -> (RowId, i64, &[u64]) {
        let i = self.at;
        self.at += 1;
        let id = std::mem::replace(&mut self.batch.ids[i], RowId::Int(0));
        (id, self.batch.times[i], &self.batch.hashes[i * self.width..(i + 1) * self.width])
    }
}
