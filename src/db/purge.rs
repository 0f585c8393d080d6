//! `expire`'s batches: how they walk a table and delete its expired rows,
//! by engine. PostgreSQL 14+ walks heap pages by `ctid` range (its rowid);
//! MySQL/MariaDB and SQLite walk the primary key (InnoDB's clustered order;
//! SQLite's rowid). A batch that fails on a row is deleted by halves around
//! the rows that refuse.

use anyhow::{Result, bail};

use super::catalog::{Table, query_file};
use super::dialect::KeyList;
use super::{Bind, Db, Dialect};

/// A `tid[]` literal of `ctid`s written as text, `{"(0,1)","(0,2)"}`.
fn tid_array<'a>(ctids: impl Iterator<Item = &'a String>) -> String {
    format!("{{{}}}", ctids.map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(","))
}

/// The page of a `ctid` written as text, `(page,item)`.
fn page_of(ctid: &str) -> Option<i64> {
    ctid.trim_start_matches('(').split(',').next()?.parse().ok()
}

/// How batches walk the table: the primary key upward (MySQL's clustered
/// order; SQLite's rowid), or on PostgreSQL 14+ the heap pages in order, by
/// `ctid` ranges: its rowid. A key order unrelated to the heap would read the
/// table at random, many times slower than one DELETE.
pub enum Walk {
    Keys {
        key: WalkKey,
        last: Option<Vec<Option<String>>>,
        done: bool,
    },
    /// Pages `next..` of `total`, `span` pages a batch: the span adapts to the
    /// rows each batch finds, and a batch never deletes more than its limit
    /// whatever the span. Rows a batch could not delete are passed over.
    Pages {
        next: i64,
        total: i64,
        span: i64,
        max_span: i64,
        refused: Vec<String>,
        key: Option<WalkKey>,
    },
    /// A partitioned table on PostgreSQL: its parent holds no pages, so each
    /// leaf partition is walked in turn, a table of its own (quoted name, walk).
    Partitions {
        leaves: Vec<(String, Walk)>,
        at: usize,
    },
}

/// One batch: the stretch of the walk it covers, as SQL added to the
/// expired condition, with the values bound to it.
pub struct Batch {
    /// The leaf partition the batch is in, when the walk goes by partitions.
    table: Option<String>,
    range: String,
    params: Vec<Bind>,
    /// Pages walk: the pages covered.
    pages: Option<(i64, i64)>,
    /// Keys walk: the last key the batch covers, `None` when it runs to the
    /// end; the walk moves there only once the batch is done (`advance`), so
    /// that a batch that failed is tried again whole.
    upto: Option<Option<Vec<Option<String>>>>,
}

impl Batch {
    /// The leaf partition the batch is in, when the walk goes by partitions.
    pub fn table(&self) -> Option<&str> {
        self.table.as_deref()
    }
}

/// What a batch did.
#[derive(Debug, Default)]
pub struct Deleted {
    pub rows: u64,
    /// Pages walk: the batch hit its limit, so its range may hold more rows.
    cut_short: bool,
    /// Pages walk: the page to go on from (a batch deleted by halves knows it).
    resume_page: Option<i64>,
    /// Rows that refused to go (a trigger, a constraint).
    pub refused: Vec<Refused>,
}

/// A row that refused to be deleted.
#[derive(Debug)]
pub struct Refused {
    /// Its key in the walk: the primary key, or the `ctid` on the pages walk.
    pub walk_key: Vec<Option<String>>,
    /// Its primary key, for people.
    pub shown: String,
    pub error: String,
}

impl Walk {
    pub async fn new(target: &Table, db: &mut Db, batch_size: u64) -> Result<Walk> {
        let name = target.sql_name(&db.dialect());
        if db.driver().walks_leaves() {
            let leaves = super::partitions::leaves(db, target).await?;
            if !leaves.is_empty() {
                let mut walks = Vec::new();
                for leaf in leaves {
                    let leaf_name = leaf.sql_name(db, target);
                    let walk = Box::pin(Walk::of_table(target, &leaf_name, db, batch_size)).await?;
                    walks.push((leaf_name, walk));
                }
                return Ok(Walk::Partitions { leaves: walks, at: 0 });
            }
        }
        Walk::of_table(target, &name, db, batch_size).await
    }

    /// The walk of one table that holds rows: `name` is the table, or one of
    /// its leaf partitions, with `target`'s columns.
    async fn of_table(target: &Table, name: &str, db: &mut Db, batch_size: u64) -> Result<Walk> {
        let name = name.to_string();
        // The table's pages, where the engine walks them (PostgreSQL 14+).
        let pages = db.query_value(query_file!(db.engine(), "page_walk.sql"), &[Bind::Text(name.clone())]).await?;
        if let Some(pages) = pages {
            let int = |v: Option<String>| v.and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
            {
                let total = int(Some(pages));
                // Rows per page, counted on the first pages (a TID range scan:
                // cheap). Only the first span rests on it: each batch's rows
                // correct it, and its LIMIT bounds the batch whatever it says.
                let sample = total.clamp(1, 32);
                let sql = super::fill(
                    crate::db::dialect::query_file!(postgres, "page_sample.sql"),
                    &[("table", &name), ("pages", &sample.to_string())],
                );
                let counted = db.query_value(&sql, &[]).await?;
                let per_page = (int(counted) / sample).max(1);
                let limit = i64::try_from(batch_size).unwrap_or(i64::MAX);
                let max_span = limit.max(1);
                let span = (limit / per_page).clamp(1, max_span);
                let key = walk_key(target, db).ok();
                return Ok(Walk::Pages { next: 0, total, span, max_span, refused: Vec::new(), key });
            }
        }
        Ok(Walk::Keys { key: walk_key(target, db)?, last: None, done: false })
    }

    /// The walk a batch belongs to: this one, or the current leaf's.
    fn current(&self) -> &Walk {
        match self {
            Walk::Partitions { leaves, at } => leaves.get(*at).map_or(self, |(_, walk)| walk.current()),
            walk => walk,
        }
    }

    /// The next batch, or `None` when the walk is over.
    pub async fn next_batch(
        &mut self,
        db: &mut Db,
        table: &str,
        expired: &str,
        binds: &[Bind],
        batch_size: u64,
    ) -> Result<Option<Batch>> {
        let dialect = db.dialect();
        let mut params = binds.to_vec();
        match self {
            Walk::Partitions { leaves, at } => {
                while let Some((leaf, walk)) = leaves.get_mut(*at) {
                    if let Some(mut batch) = Box::pin(walk.next_batch(db, leaf, expired, binds, batch_size)).await? {
                        batch.table = Some(leaf.clone());
                        return Ok(Some(batch));
                    }
                    *at += 1;
                }
                Ok(None)
            }
            Walk::Pages { next, total, span, refused, .. } => {
                if *next >= *total {
                    return Ok(None);
                }
                let end = next.saturating_add(*span);
                let mut range = format!(" AND ctid >= '({next},0)'::tid AND ctid < '({end},0)'::tid");
                if !refused.is_empty() {
                    params.push(Bind::Text(tid_array(refused.iter())));
                    range.push_str(&format!(" AND ctid <> ALL(CAST({} AS tid[]))", dialect.placeholder(params.len())));
                }
                Ok(Some(Batch { table: None, range, params, pages: Some((*next, end)), upto: None }))
            }
            Walk::Keys { key, last, done } => {
                if *done {
                    return Ok(None);
                }
                let after = last.as_ref().map(|l| key.after(&dialect, l, &mut params)).unwrap_or_default();
                // The last key of this batch, or none when fewer rows remain.
                let next_sql = super::fill(
                    query_file!(db.engine(), "expire_next.sql"),
                    &[
                        ("pk_text", &key.text_list(&dialect)),
                        ("table", table),
                        ("expired", expired),
                        ("after", &after),
                        ("pk", &key.list(&dialect)),
                        ("offset", &(batch_size - 1).to_string()),
                    ],
                );
                let upto = db.query_text(&next_sql, &params).await?.into_iter().next();
                let upto_sql = upto.as_ref().map(|u| key.upto(&dialect, u, &mut params)).unwrap_or_default();
                Ok(Some(Batch {
                    table: None,
                    range: format!("{after}{upto_sql}"),
                    params,
                    pages: None,
                    upto: Some(upto),
                }))
            }
        }
    }

    /// Deletes a batch's rows in one statement.
    pub async fn delete(&self, db: &mut Db, table: &str, expired: &str, batch: &Batch, limit: u64) -> Result<Deleted> {
        let table = batch.table.as_deref().unwrap_or(table);
        match self.current() {
            Walk::Partitions { .. } => Ok(Deleted::default()),
            Walk::Pages { .. } => {
                let sql = super::fill(
                    crate::db::dialect::query_file!(postgres, "expire_delete_pages.sql"),
                    &[("table", table), ("expired", expired), ("range", &batch.range), ("limit", &limit.to_string())],
                );
                let rows = db.execute(&sql, &batch.params).await?;
                Ok(Deleted { rows, cut_short: rows >= limit, ..Deleted::default() })
            }
            Walk::Keys { .. } => {
                let sql = super::fill(
                    query_file!(db.engine(), "expire_delete.sql"),
                    &[("table", table), ("expired", expired), ("range", &batch.range)],
                );
                Ok(Deleted { rows: db.execute(&sql, &batch.params).await?, ..Deleted::default() })
            }
        }
    }

    /// The keys of a batch's rows in walk order, as text: the primary key
    /// (or rowid), or the `ctid` on the pages walk.
    pub async fn batch_keys(
        &self,
        db: &mut Db,
        table: &str,
        expired: &str,
        batch: &Batch,
        limit: u64,
    ) -> Result<Vec<Vec<Option<String>>>> {
        let dialect = db.dialect();
        let table = batch.table.as_deref().unwrap_or(table);
        let (select, order, limit) = match self.current() {
            Walk::Pages { .. } => ("ctid::text".to_string(), "ctid".to_string(), format!(" LIMIT {limit}")),
            Walk::Keys { key, .. } => (key.text_list(&dialect), key.list(&dialect), String::new()),
            Walk::Partitions { .. } => return Ok(Vec::new()),
        };
        let sql = format!("SELECT {select} FROM {table} WHERE {expired}{} ORDER BY {order}{limit}", batch.range);
        db.query_text(&sql, &batch.params).await
    }

    /// Deletes exactly the rows with these keys (still expired), in one statement.
    pub async fn delete_keys(
        &self,
        db: &mut Db,
        table: &str,
        expired: &str,
        binds: &[Bind],
        keys: &[Vec<Option<String>>],
    ) -> Result<u64> {
        let dialect = db.dialect();
        let mut params = binds.to_vec();
        let matching = match self.current() {
            Walk::Pages { .. } => {
                params.push(Bind::Text(tid_array(keys.iter().filter_map(|k| k.first()?.as_ref()))));
                format!("ctid = ANY(CAST({} AS tid[]))", dialect.placeholder(params.len()))
            }
            Walk::Keys { key, .. } => key.any_of(&dialect, keys, &mut params),
            Walk::Partitions { .. } => return Ok(0),
        };
        db.execute(&format!("DELETE FROM {table} WHERE {expired} AND {matching}"), &params).await
    }

    /// A row's primary key for people, from its key in the walk.
    pub async fn shown_key(&self, db: &mut Db, table: &str, walk_key: &[Option<String>]) -> String {
        let join = |values: &[Option<String>]| {
            values.iter().map(|v| v.as_deref().unwrap_or("NULL")).collect::<Vec<_>>().join(", ")
        };
        if let Walk::Pages { key: Some(key), .. } = self.current()
            && let Some(Some(ctid)) = walk_key.first()
        {
            let sql = format!("SELECT {} FROM {table} WHERE ctid = CAST($1 AS tid)", key.text_list(&db.dialect()));
            if let Ok(rows) = db.query_text(&sql, &[Bind::Text(ctid.clone())]).await
                && let Some(row) = rows.first()
            {
                return join(row);
            }
        }
        join(walk_key)
    }

    /// A failed batch's start: on the pages walk, when the batch was cut by
    /// its limit, the page its last row is in, where the next batch goes on.
    pub fn resume_after(&self, keys: &[Vec<Option<String>>], limit: u64) -> Deleted {
        let mut deleted = Deleted::default();
        if let Walk::Pages { .. } = self.current()
            && keys.len() as u64 >= limit
        {
            deleted.resume_page = keys.last().and_then(|k| page_of(k.first()?.as_deref()?));
        }
        deleted
    }

    /// Moves past a batch, and fits the next span to the rows this one found.
    pub fn advance(&mut self, batch: &Batch, deleted: &Deleted, limit: u64) {
        if let Walk::Partitions { leaves, at } = self {
            if let Some((_, walk)) = leaves.get_mut(*at) {
                walk.advance(batch, deleted, limit);
            }
            return;
        }
        if let (Walk::Keys { last, done, .. }, Some(upto)) = (&mut *self, &batch.upto) {
            match upto {
                Some(u) => *last = Some(u.clone()),
                None => *done = true,
            }
            return;
        }
        let Walk::Pages { next, span, max_span, refused, .. } = self else { return };
        let Some((start, end)) = batch.pages else { return };
        refused.extend(deleted.refused.iter().filter_map(|r| r.walk_key.first().cloned().flatten()));
        let found = deleted.rows + deleted.refused.len() as u64;
        match (deleted.cut_short, deleted.resume_page) {
            // Halving the batch found where its rows stopped: go on from there.
            (_, Some(last)) if found >= limit => {
                *next = last.max(start);
                *span = (last - start + 1).clamp(1, *max_span);
            }
            // The limit cut the batch short: its range holds more. Go on from
            // its start (what went is gone), half as many pages at once.
            (true, _) => {
                *next = start;
                *span = (*span / 2).clamp(1, *max_span);
            }
            _ => {
                *next = end;
                let pages = end - start;
                *span = if found == 0 {
                    span.saturating_mul(2)
                } else {
                    (pages.saturating_mul(i64::try_from(limit).unwrap_or(i64::MAX)) / found as i64).min(pages * 2)
                }
                .clamp(1, *max_span);
            }
        }
    }

    /// The shape of a batch's DELETE, for the dry run.
    pub fn describe(&self, dialect: &Dialect, table: &str, expired: &str, limit: u64) -> String {
        if let Walk::Partitions { leaves, .. } = self {
            let Some((leaf, walk)) = leaves.first() else { return String::new() };
            return format!(
                "{} (each of its {} partitions in turn, {leaf} first)",
                walk.describe(dialect, leaf, expired, limit),
                leaves.len()
            );
        }
        let sql = match self {
            Walk::Partitions { .. } => unreachable!("described above"),
            Walk::Pages { span, .. } => super::fill(
                crate::db::dialect::query_file!(postgres, "expire_delete_pages.sql"),
                &[
                    ("table", table),
                    ("expired", expired),
                    ("range", &format!(" AND ctid >= '(P,0)'::tid AND ctid < '(P+{span},0)'::tid")),
                    ("limit", &limit.to_string()),
                ],
            ),
            Walk::Keys { key, .. } => super::fill(
                query_file!(dialect.engine(), "expire_delete.sql"),
                &[
                    ("table", table),
                    ("expired", expired),
                    ("range", &format!("{}{}", key.after_sql(dialect), key.upto_sql(dialect))),
                ],
            ),
        };
        sql.lines().filter(|l| !l.trim_start().starts_with("--")).collect::<Vec<_>>().join(" ")
    }
}

/// The key batches walk: the primary key, or SQLite's rowid.
pub struct WalkKey {
    columns: Vec<(String, String)>,
}

fn walk_key(target: &Table, db: &Db) -> Result<WalkKey> {
    let pk = &target.primary_key;
    if pk.is_empty() {
        if db.dialect().has_rowid() {
            return Ok(WalkKey { columns: vec![("rowid".into(), "integer".into())] });
        }
        bail!("table {:?} has no primary key to walk in batches", target.name);
    }
    let columns =
        pk.iter().map(|c| Ok((c.clone(), target.column(c)?.data_type.clone()))).collect::<Result<Vec<_>>>()?;
    Ok(WalkKey { columns })
}

impl WalkKey {
    fn ident(&self, dialect: &Dialect, name: &str) -> String {
        if name == "rowid" { name.to_string() } else { dialect.ident(name) }
    }

    fn list(&self, dialect: &Dialect) -> String {
        self.columns.iter().map(|(c, _)| self.ident(dialect, c)).collect::<Vec<_>>().join(", ")
    }

    /// The key as text; aliased, so that ORDER BY names the columns themselves.
    fn text_list(&self, dialect: &Dialect) -> String {
        self.columns
            .iter()
            .enumerate()
            .map(|(i, (c, _))| format!("{} AS idemctl_{i}", dialect.text(&self.ident(dialect, c))))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `(a, b) op (v1, v2)`, the values bound (typed on PostgreSQL).
    fn compare(&self, dialect: &Dialect, op: &str, values: &[Option<String>], binds: &mut Vec<Bind>) -> String {
        if dialect.key_list() == KeyList::Expanded && self.columns.len() > 1 {
            return self.compare_expanded(dialect, op, values, binds);
        }
        let mut placeholders = Vec::new();
        for ((_, data_type), value) in self.columns.iter().zip(values) {
            binds.push(value.clone().map_or(Bind::Null, Bind::Text));
            placeholders.push(dialect.typed_placeholder(binds.len(), data_type));
        }
        format!(" AND ({}) {op} ({})", self.list(dialect), placeholders.join(", "))
    }

    /// `(a, b) > (x, y)` spelled `a > x OR (a = x AND b > y)`: MySQL and
    /// MariaDB read a row comparison by scanning the table, this by range.
    fn compare_expanded(
        &self,
        dialect: &Dialect,
        op: &str,
        values: &[Option<String>],
        binds: &mut Vec<Bind>,
    ) -> String {
        let strict = op.trim_end_matches('=');
        let mut terms = Vec::new();
        for last in 0..self.columns.len() {
            let mut conds = Vec::new();
            for (i, ((column, _), value)) in self.columns.iter().zip(values).enumerate().take(last + 1) {
                binds.push(value.clone().map_or(Bind::Null, Bind::Text));
                let p = dialect.placeholder(binds.len());
                let op = if i < last {
                    "="
                } else if last + 1 == self.columns.len() {
                    op
                } else {
                    strict
                };
                conds.push(format!("{} {op} {p}", self.ident(dialect, column)));
            }
            terms.push(format!("({})", conds.join(" AND ")));
        }
        format!(" AND ({})", terms.join(" OR "))
    }

    /// True for exactly the rows with one of these keys: `k IN (...)`, or for
    /// a composite key `(a, b) IN (...)`, spelled out as ORs on MySQL (which
    /// reads a row-value IN by scanning the table).
    fn any_of(&self, dialect: &Dialect, keys: &[Vec<Option<String>>], binds: &mut Vec<Bind>) -> String {
        let bind = |binds: &mut Vec<Bind>, value: &Option<String>, data_type: &str| {
            binds.push(value.clone().map_or(Bind::Null, Bind::Text));
            dialect.typed_placeholder(binds.len(), data_type)
        };
        if dialect.key_list() == KeyList::Expanded && self.columns.len() > 1 {
            let terms: Vec<String> = keys
                .iter()
                .map(|values| {
                    let conds: Vec<String> = self
                        .columns
                        .iter()
                        .zip(values)
                        .map(|((column, data_type), value)| {
                            format!("{} = {}", self.ident(dialect, column), bind(binds, value, data_type))
                        })
                        .collect();
                    format!("({})", conds.join(" AND "))
                })
                .collect();
            return format!("({})", terms.join(" OR "));
        }
        let tuples: Vec<String> = keys
            .iter()
            .map(|values| {
                let items: Vec<String> = self
                    .columns
                    .iter()
                    .zip(values)
                    .map(|((_, data_type), value)| bind(binds, value, data_type))
                    .collect();
                if items.len() == 1 { items.join("") } else { format!("({})", items.join(", ")) }
            })
            .collect();
        let columns = if self.columns.len() == 1 { self.list(dialect) } else { format!("({})", self.list(dialect)) };
        let list = match (dialect.key_list(), self.columns.len()) {
            (KeyList::RowValuesFromValues, n) if n > 1 => format!("VALUES {}", tuples.join(", ")),
            _ => tuples.join(", "),
        };
        format!("{columns} IN ({list})")
    }

    fn after(&self, dialect: &Dialect, last: &[Option<String>], binds: &mut Vec<Bind>) -> String {
        self.compare(dialect, ">", last, binds)
    }

    fn upto(&self, dialect: &Dialect, upto: &[Option<String>], binds: &mut Vec<Bind>) -> String {
        self.compare(dialect, "<=", upto, binds)
    }

    /// The shape of `after` for the dry run's SQL, with placeholders.
    fn after_sql(&self, dialect: &Dialect) -> String {
        let values = vec![None; self.columns.len()];
        self.compare(dialect, ">", &values, &mut Vec::new())
    }

    fn upto_sql(&self, dialect: &Dialect) -> String {
        let values = vec![None; self.columns.len()];
        self.compare(dialect, "<=", &values, &mut Vec::new())
    }
}
