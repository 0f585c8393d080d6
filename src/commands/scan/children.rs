//! Child rows: the rows of other tables that hang off a cluster's rows (an
//! order's lines, a payment's allocations, an issue's custom values). A
//! retry repeats the whole request, children and all; a legitimate repeat
//! that is equal on the parent row often differs in its children (two
//! purchases of other items, the same test filed once per platform).
//!
//! A child table is one whose column holds the scanned table's row id: by a
//! declared foreign key, by the naming convention of most ORMs
//! (`order_id` in `order_lines` for `orders`), or as a polymorphic pair
//! (`customized_type` = `Issue`, `customized_id`). Children are read by id,
//! for the confirmed clusters' rows only, never for the whole table.

use anyhow::Result;
use rustc_hash::FxHashMap;

use crate::db::catalog::{self, Table};
use crate::db::scan::Lookup;
use crate::db::{Db, Dialect};
use crate::window::{ChildRows, Cluster, RowId};

/// Parent ids read per lookup statement.
const BATCH: usize = 500;

/// Child tables read at most: declared foreign keys first.
const MAX_LINKS: usize = 6;

/// How a child table was found to hang off the scanned one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    ForeignKey,
    ByName,
    Polymorphic,
}

impl How {
    pub fn as_str(self) -> &'static str {
        match self {
            How::ForeignKey => "foreign-key",
            How::ByName => "by-name",
            How::Polymorphic => "polymorphic",
        }
    }
}

/// One child table and the column holding the parent's id.
#[derive(Debug, Clone)]
pub struct Link {
    pub table: String,
    pub column: String,
    pub how: How,
    /// A polymorphic pair's type column and the type names that mean the
    /// scanned table (compared folded, see [`fold`]).
    kind: Option<String>,
    names: Vec<String>,
    /// The child's columns compared between two parents' children.
    pub content: Vec<String>,
    lookup: Lookup,
    /// A read of it failed (a type the engine will not compare): not read again.
    broken: bool,
}

impl Link {
    /// `order_lines.order_id`, with how it was found.
    pub fn describe(&self) -> String {
        let how = match (&self.how, &self.kind) {
            (How::ForeignKey, _) => "foreign key".to_string(),
            (How::ByName, _) => "by its name".to_string(),
            (How::Polymorphic, Some(kind)) => format!("with {kind}"),
            (How::Polymorphic, None) => "polymorphic".to_string(),
        };
        format!("{}.{} ({how}; compares {})", self.table, self.column, self.content.join(", "))
    }
}

/// Type family, so that a link is only read where the two columns can be compared.
fn family(column: &catalog::Column) -> u8 {
    let t = column.base_type.as_str();
    if column.is_integer() {
        0
    } else if t.contains("uuid") {
        1
    } else if t.contains("char") || t.contains("text") || t.contains("string") || t.is_empty() {
        2
    } else {
        3
    }
}

/// `order` and `order_line` from `order_lines`; `wc_order` and `order` from
/// `wp_wc_orders`: the table's name made singular, whole and without its
/// leading words, longest first.
pub fn singulars(table: &str) -> Vec<String> {
    let lower = table.to_lowercase();
    let parts: Vec<&str> = lower.split('_').filter(|p| !p.is_empty()).collect();
    (0..parts.len())
        .map(|from| {
            let mut words: Vec<String> = parts[from..].iter().map(|p| p.to_string()).collect();
            if let Some(last) = words.last_mut() {
                *last = singular(last);
            }
            words.join("_")
        })
        .collect()
}

fn singular(word: &str) -> String {
    for (plural, one) in [("ies", "y"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"), ("shes", "sh"), ("uses", "us")] {
        if let Some(stem) = word.strip_suffix(plural) {
            return format!("{stem}{one}");
        }
    }
    match word.strip_suffix('s') {
        Some(stem) if !["ss", "us", "is"].iter().any(|e| word.ends_with(e)) && !stem.is_empty() => stem.to_string(),
        _ => word.to_string(),
    }
}

/// A type name as a polymorphic column stores it, folded: `Issue`,
/// `Spree::Order` and `App\Models\Order` become `issue`, `order`, `order`.
fn fold(name: &str) -> String {
    let last = name.rsplit(['\\', ':', '.', '/']).next().unwrap_or(name);
    last.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// A column of another table: its name, and the table and column a foreign
/// key on it references.
type Candidate = (String, Option<String>, Option<String>);

/// The child tables of `table` whose rows can be read by the parent's `id`.
pub async fn discover(db: &mut Db, table: &Table, id: &str) -> Result<Vec<Link>> {
    let Ok(id_column) = table.column(id) else { return Ok(Vec::new()) };
    let id_family = family(id_column);
    let rows = db
        .query_text(
            crate::db::dialect::query_file!(db.engine(), "child_links.sql"),
            &[crate::db::Bind::Text(table.schema.clone())],
        )
        .await?;
    let mut by_child: Vec<(String, Vec<Candidate>)> = Vec::new();
    for row in rows {
        let [child, column, referenced, to] = <[Option<String>; 4]>::try_from(row).unwrap_or_default();
        let (Some(child), Some(column)) = (child, column) else { continue };
        match by_child.last_mut() {
            Some((c, cols)) if *c == child => cols.push((column, referenced, to)),
            _ => by_child.push((child, vec![(column, referenced, to)])),
        }
    }
    let names = singulars(&table.name);
    let folded: Vec<String> = names.iter().map(|n| n.replace('_', "")).collect();
    let mut found: Vec<(How, String, String, Option<String>)> = Vec::new();
    for (child, cols) in &by_child {
        let declared = cols.iter().find(|(_, r, to)| {
            r.as_deref() == Some(table.name.as_str()) && to.as_deref().is_none_or(|t| t == id) && *child != table.name
        });
        if let Some((column, _, _)) = declared {
            found.push((How::ForeignKey, child.clone(), column.clone(), None));
            continue;
        }
        if *child == table.name {
            continue;
        }
        let free = |column: &str| cols.iter().any(|(c, r, _)| c == column && r.is_none());
        if let Some(column) = names.iter().map(|n| format!("{n}_id")).find(|c| free(c)) {
            found.push((How::ByName, child.clone(), column, None));
            continue;
        }
        let pair = cols.iter().find_map(|(c, _, _)| {
            let stem = c.strip_suffix("_type")?;
            let column = format!("{stem}_id");
            free(&column).then(|| (column, c.clone()))
        });
        if let Some((column, kind)) = pair {
            found.push((How::Polymorphic, child.clone(), column, Some(kind)));
        }
    }
    found.sort_by_key(|(how, ..)| *how as u8);
    let mut links = Vec::new();
    for (how, child, column, kind) in found {
        if links.len() == MAX_LINKS {
            break;
        }
        let name = match db.dialect().has_schemas() {
            true => format!("{}.{child}", table.schema),
            false => child.clone(),
        };
        let Ok(child_table) = catalog::table(db, &name).await else { continue };
        let Ok(link_column) = child_table.column(&column) else { continue };
        let f = family(link_column);
        if f != id_family && f != 2 {
            continue;
        }
        let unique: Vec<&str> = child_table
            .unique
            .iter()
            .filter(|u| u.columns.len() == 1)
            .filter_map(|u| u.columns[0].as_deref())
            .collect();
        let content: Vec<String> = child_table
            .columns
            .iter()
            .filter(|c| c.name != column && Some(&c.name) != kind.as_ref())
            .filter(|c| !child_table.primary_key.contains(&c.name) && !unique.contains(&c.name.as_str()))
            .filter(|c| !c.is_temporal() && c.mints().is_none() && !c.base_type.contains("uuid"))
            .map(|c| c.name.clone())
            .collect();
        if content.is_empty() {
            continue;
        }
        let dialect: Dialect = db.dialect();
        let mut exprs: Vec<String> = kind.iter().map(|k| dialect.ident(k)).collect();
        exprs.extend(content.iter().map(|c| {
            let ty = child_table.column(c).map(|c| c.data_type.clone()).unwrap_or_default();
            dialect.shown(&dialect.ident(c), &ty)
        }));
        let lookup = Lookup::new(dialect, &child_table, &column, &exprs);
        links.push(Link { table: child, column, how, kind, names: folded.clone(), content, lookup, broken: false });
    }
    db.set_subject(&table.schema, &table.name);
    Ok(links)
}

/// Reads the children of every member of `clusters` and hangs them on the
/// members, one [`ChildRows`] per link, sorted. A link whose read fails (a
/// type the engine will not compare) reads as no children from then on.
pub async fn attach(db: &mut Db, links: &mut [Link], clusters: &mut [Cluster]) -> Result<()> {
    if links.is_empty() || clusters.is_empty() {
        return Ok(());
    }
    let ids: Vec<&RowId> = clusters.iter().flat_map(|c| c.members.iter().map(|m| &m.id)).collect();
    let mut read: Vec<FxHashMap<String, ChildRows>> = Vec::with_capacity(links.len());
    for link in links.iter_mut() {
        let mut by_parent: FxHashMap<String, ChildRows> = FxHashMap::default();
        for chunk in ids.chunks(BATCH) {
            if link.broken {
                break;
            }
            let (sql, binds) = link.lookup.statement(chunk);
            let rows = match db.query_text(&sql, &binds).await {
                Ok(rows) => rows,
                Err(err) if crate::interrupt::is_set() => return Err(err),
                Err(_) => {
                    link.broken = true;
                    by_parent.clear();
                    break;
                }
            };
            for row in rows {
                let mut cells = row.into_iter();
                let Some(Some(parent)) = cells.next() else { continue };
                if link.kind.is_some() {
                    let kind = cells.next().flatten().unwrap_or_default();
                    if !link.names.contains(&fold(&kind)) {
                        continue;
                    }
                }
                by_parent.entry(parent).or_default().push(cells.map(|c| c.map(Into::into)).collect());
            }
        }
        drop_minted(&mut by_parent, clusters, link.content.len());
        read.push(by_parent);
    }
    for cluster in clusters.iter_mut() {
        for member in &mut cluster.members {
            let id = member.id.to_string();
            member.children = read
                .iter_mut()
                .map(|by_parent| {
                    let mut rows = by_parent.remove(&id).unwrap_or_default();
                    rows.sort();
                    rows
                })
                .collect();
        }
    }
    Ok(())
}

/// Blanks the child columns that each write mints or a later job fills (a
/// running balance, a token): their values are nearly all distinct, and
/// they differ between the original's and the copy's children in every
/// cluster. They would make every retry look like two requests.
fn drop_minted(by_parent: &mut FxHashMap<String, ChildRows>, clusters: &[Cluster], width: usize) {
    const MIN_CLUSTERS: usize = 3;
    let values = |id: &RowId, col: usize, by_parent: &FxHashMap<String, ChildRows>| -> Vec<Option<Box<str>>> {
        let mut v: Vec<Option<Box<str>>> = by_parent
            .get(&id.to_string())
            .map(|rows| rows.iter().map(|r| r[col].clone()).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    let mut minted = Vec::new();
    for col in 0..width {
        let mut all: Vec<&str> = by_parent.values().flatten().filter_map(|r| r[col].as_deref()).collect();
        let present = all.len();
        all.sort_unstable();
        all.dedup();
        if present < 4 || (all.len() as f64) < 0.9 * present as f64 {
            continue;
        }
        let mut compared = 0;
        let mut alike = 0;
        for cluster in clusters {
            let first = values(&cluster.members[0].id, col, by_parent);
            if first.is_empty() {
                continue;
            }
            let others: Vec<_> =
                cluster.members[1..].iter().map(|m| values(&m.id, col, by_parent)).filter(|v| !v.is_empty()).collect();
            if others.is_empty() {
                continue;
            }
            compared += 1;
            if others.contains(&first) {
                alike += 1;
            }
        }
        if compared >= MIN_CLUSTERS && alike == 0 {
            minted.push(col);
        }
    }
    if minted.is_empty() {
        return;
    }
    for rows in by_parent.values_mut() {
        for row in rows.iter_mut() {
            for &col in &minted {
                row[col] = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn singular_names() {
        assert_eq!(singulars("issues"), ["issue"]);
        assert_eq!(singulars("wp_wc_orders"), ["wp_wc_order", "wc_order", "order"]);
        assert_eq!(singulars("sale_order"), ["sale_order", "order"]);
        assert_eq!(singulars("addresses"), ["address"]);
        assert_eq!(singulars("categories"), ["category"]);
        assert_eq!(singulars("status"), ["status"]);
        assert_eq!(fold("Spree::Order"), "order");
        assert_eq!(fold("App\\Models\\TransactionJournal"), "transactionjournal");
        assert_eq!(fold("Issue"), "issue");
    }
}
