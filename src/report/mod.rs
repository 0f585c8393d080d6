//! One emitter for every report: rows are `Serialize` structs, written as a
//! table, CSV, one JSON document or NDJSON to any writer. Notes and summary
//! figures ("meta") go beside the rows: in the JSON document, and on stderr
//! for every other format, so that stdout holds the data alone (and
//! `--quiet` leaves only the data).

use std::io::Write;

use anyhow::Result;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::scope::View;

/// How report rows are written to stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Aligned table for people, with notes and a summary
    #[default]
    Table,
    /// RFC 4180 CSV with a header row
    Csv,
    /// One JSON document
    Json,
    /// One JSON object per line
    Ndjson,
}

mod lines;
mod progress;
pub mod table;

pub use lines::{say, say_target, whole_line};
pub use progress::{draw_target, note_format, progress, wants_progress};

/// How one figure of a summary adds up over a fleet's databases, as the
/// command that writes it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    /// Counts, bytes, sums: added.
    Sum,
    /// Times and the largest of something: databases run side by side, so
    /// the longest, not the sum.
    Max,
    /// The smallest of something.
    Min,
    /// A ratio or a rate of one database, or a time it was at: no total.
    Drop,
    /// How the run was set, not what it found (the same on every
    /// database): kept in the total, left out of the figures for people.
    Setting,
}

/// Where and how report rows are written: the global options, filled in
/// after parsing.
#[derive(Debug, Clone, Default)]
pub struct Output {
    pub format: Format,
    pub quiet: bool,
    /// Whether to colour what people read.
    pub color: bool,
    pub no_header: bool,
    /// The table format with every column.
    pub wide: bool,
}

/// The version of the JSON and NDJSON shapes; raised when a key changes
/// meaning or goes away (new keys do not raise it).
pub const FORMAT_VERSION: u32 = 2;

pub struct Emitter<W: Write> {
    sink: Sink<W>,
    quiet: bool,
    rows_key: &'static str,
    rows: usize,
    /// Meta given before the first row: the JSON document's head, and the
    /// NDJSON summary's first keys.
    head: Map<String, Value>,
    /// The same for people, said on stderr with the first row or at the end,
    /// so that a run that fails before its data says one line only.
    pending: Vec<String>,
    /// The summary: after the rows in JSON, in NDJSON's summary record, and
    /// on stderr after the table or the CSV.
    tail: Vec<(String, Value, String)>,
    /// Closed by `finish`; otherwise closed when dropped, as incomplete.
    done: bool,
    /// The summary's keys, for a run that stops before it has them all:
    /// the missing ones are written as null, so the keys stay the same.
    expected: Vec<&'static str>,
    /// The rows' keys, known before any row: a CSV with no rows still has its header.
    columns: Vec<String>,
    /// The run found nothing to report (`mark_clean`): with `--quiet`, the
    /// table format prints nothing at all, so cron mail holds only findings.
    clean: bool,
    /// How the table shows the rows: its columns by default (`compact`;
    /// every column with `--wide`), durations, figures, wrapping.
    view: View,
    wide: bool,
}

enum Sink<W: Write> {
    Table {
        out: W,
        header: Vec<String>,
        rows: Vec<Vec<String>>,
        layout: table::Layout,
    },
    /// The writer, and whether the header row is still to come.
    Csv {
        csv: Box<csv::Writer<W>>,
        header: bool,
    },
    Json {
        out: W,
    },
    Ndjson {
        out: W,
    },
    /// One database's report in a fleet: its rows to the merged report, its
    /// notes and summary kept for the fleet's summary.
    Forward {
        scope: std::sync::Arc<crate::scope::Scope>,
    },
}

impl<W: Write> Emitter<W> {
    /// `rows_key` names the rows in the JSON document (`clusters`, `keys`,
    /// ...); in NDJSON each row's `type` is its singular (`cluster`, `key`).
    pub fn new(output: &Output, out: W, rows_key: &'static str) -> Self {
        let sink = match (crate::scope::current(), output.format) {
            (Some(scope), _) => Sink::Forward { scope },
            (None, format) => Self::sink(output, out, format),
        };
        Self::with_sink(output, sink, rows_key)
    }

    /// An emitter of the caller's own, never forwarded to a fleet's report:
    /// a command reading another's report (doctor reading a scan's).
    pub fn own(output: &Output, out: W, rows_key: &'static str) -> Self {
        let sink = Self::sink(output, out, output.format);
        Self::with_sink(output, sink, rows_key)
    }

    fn with_sink(output: &Output, sink: Sink<W>, rows_key: &'static str) -> Self {
        Emitter {
            sink,
            quiet: output.quiet,
            rows_key,
            rows: 0,
            head: Map::new(),
            pending: Vec::new(),
            tail: Vec::new(),
            done: false,
            expected: Vec::new(),
            columns: Vec::new(),
            clean: false,
            view: View::default(),
            wide: output.wide,
        }
    }

    /// In a fleet, the view goes to the merged report, which shows every
    /// database's rows.
    fn forward_view(&self) {
        if let Sink::Forward { scope } = &self.sink {
            scope.merged.view(self.view.clone());
        }
    }

    /// The view a database's report asked for (every database of a command
    /// asks the same), as the merged report's, its rows led by `lead` (the
    /// database).
    pub fn take_view(&mut self, mut view: View, lead: &str) {
        if let Some(compact) = &mut view.compact {
            compact.insert(0, lead.to_string());
        }
        self.view = view;
    }

    /// The rows are a run's figures, not a list: the table format shows
    /// each as `heading: value` lines (rows apart by a blank line), and a run
    /// that stops early says what it did in its own line, not that the rows
    /// listed are partial.
    pub fn figures(&mut self) {
        self.view.figures = true;
        self.forward_view();
    }

    /// Keys in seconds the table shows as durations for people, under their
    /// name without `_seconds`.
    pub fn spans(&mut self, keys: &'static [&'static str]) {
        self.view.spans = keys;
        self.forward_view();
    }

    /// The columns the table format shows unless `--wide` (those of them a
    /// row has, in the rows' order): what a person reads at 80-100 columns.
    pub fn compact<S: AsRef<str>>(&mut self, columns: &[S]) {
        self.view.compact = Some(columns.iter().map(|c| c.as_ref().to_string()).collect());
        self.forward_view();
    }

    /// Keys people read under other words (the table's kind: `key` as
    /// `job`); JSON, NDJSON and CSV keep the keys.
    pub fn speak_of(&mut self, words: &'static [(&'static str, &'static str)]) {
        self.view.words = words;
        self.forward_view();
    }

    /// In the table format, free text wraps at words instead of being shortened.
    pub fn wrap_text(&mut self) {
        self.view.wrap = true;
        self.forward_view();
    }

    fn sink(output: &Output, out: W, format: Format) -> Sink<W> {
        match format {
            Format::Table => {
                let layout = table::Layout::for_stdout(output.color);
                Sink::Table { out, header: Vec::new(), rows: Vec::new(), layout }
            }
            Format::Csv => Sink::Csv {
                csv: Box::new(csv::WriterBuilder::new().has_headers(false).from_writer(out)),
                header: !output.no_header,
            },
            Format::Json => Sink::Json { out },
            Format::Ndjson => Sink::Ndjson { out },
        }
    }

    /// Names the summary's keys ahead, for a run that may stop before it has
    /// them all (a scan interrupted mid-table).
    pub fn expect_summary(&mut self, keys: &[&'static str]) {
        self.expected = keys.to_vec();
    }

    /// Whether the run was asked to be quiet (`--quiet`).
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// Says the run found nothing to report (no damage, no stuck key, no
    /// failed check, a writer that did its work): with `--quiet` the table
    /// format then prints nothing, its rows included.
    pub fn mark_clean(&mut self, clean: bool) {
        self.clean = clean;
    }

    /// Names the rows' keys ahead, so that a CSV without rows has its header.
    pub fn columns(&mut self, keys: Vec<String>) {
        self.columns = keys;
    }

    /// A note or description of the run (the table, the compared columns):
    /// `value` for JSON, `text` for people (an empty `text` shows it to JSON
    /// readers only). Given before the rows, it heads the JSON document.
    pub fn meta(&mut self, key: &str, value: impl Serialize, text: impl Into<String>) -> Result<()> {
        let value = serde_json::to_value(value)?;
        if let Sink::Forward { scope } = &self.sink {
            scope.meta(key, value);
            return Ok(());
        }
        let text = text.into();
        if self.rows > 0 {
            self.tail.push((key.to_string(), value, text));
            return Ok(());
        }
        self.head.insert(key.to_string(), value);
        if !text.is_empty() && !self.quiet && !matches!(self.sink, Sink::Json { .. }) {
            self.pending.push(format!("{}: {text}", self.view.label(key)));
        }
        Ok(())
    }

    /// A figure of the summary: after the rows in JSON, in NDJSON's summary
    /// record, on stderr after the data for people.
    pub fn summary(&mut self, key: &str, value: impl Serialize, text: impl Into<String>) -> Result<()> {
        if let Sink::Forward { scope } = &self.sink {
            scope.meta(key, serde_json::to_value(value)?);
            return Ok(());
        }
        self.tail.push((key.to_string(), serde_json::to_value(value)?, text.into()));
        Ok(())
    }

    /// Says the meta given so far, on stderr.
    pub fn say_pending(&mut self) {
        for line in self.pending.drain(..) {
            say(&line);
        }
    }

    pub fn row(&mut self, row: &impl Serialize) -> Result<()> {
        self.row_value(serde_json::to_value(row)?)
    }

    /// A row already made a JSON object.
    pub fn row_value(&mut self, row: Value) -> Result<()> {
        let Value::Object(fields) = row else {
            anyhow::bail!("report rows must be objects");
        };
        let first = self.rows == 0;
        self.rows += 1;
        if first {
            self.say_pending();
        }
        match &mut self.sink {
            Sink::Table { header, rows, .. } => {
                if first {
                    *header = fields.keys().map(|k| self.view.heading(k)).collect();
                }
                let spans = self.view.spans;
                rows.push(
                    fields
                        .iter()
                        .map(|(k, v)| match v.as_f64().filter(|_| spans.contains(&k.as_str())) {
                            Some(s) => crate::timeparse::span(std::time::Duration::from_secs_f64(s.max(0.0))),
                            None => people_cell(v),
                        })
                        .collect(),
                );
            }
            Sink::Csv { csv, header } => {
                if first && *header {
                    csv.write_record(fields.keys())?;
                }
                csv.write_record(fields.values().map(csv_cell))?;
            }
            Sink::Json { out } => {
                if first {
                    open_document(out, &self.head, self.rows_key)?;
                } else {
                    out.write_all(b",")?;
                }
                out.write_all(b"\n  ")?;
                serde_json::to_writer(&mut *out, &fields)?;
            }
            Sink::Forward { scope } => scope.row(fields)?,
            Sink::Ndjson { out } => {
                let mut typed = Map::with_capacity(fields.len() + 1);
                typed.insert("type".into(), Value::from(row_type(self.rows_key)));
                typed.extend(fields);
                serde_json::to_writer(&mut *out, &typed)?;
                out.write_all(b"\n")?;
            }
        }
        Ok(())
    }

    /// Orders the rows a table holds by `rank` of their first cell (a
    /// fleet's table lists each database's rows together, in its order).
    pub fn order_table_rows(&mut self, rank: impl Fn(&str) -> usize) {
        if let Sink::Table { rows, .. } = &mut self.sink {
            rows.sort_by_key(|row| row.first().map_or(usize::MAX, |cell| rank(cell)));
        }
    }

    /// Writes out what is buffered (not the table, which needs every row).
    pub fn flush(&mut self) -> Result<()> {
        match &mut self.sink {
            Sink::Table { .. } | Sink::Forward { .. } => {}
            Sink::Csv { csv, .. } => csv.flush()?,
            Sink::Json { out } | Sink::Ndjson { out } => out.flush()?,
        }
        Ok(())
    }

    /// Ends a run that went to its end.
    pub fn finish(mut self) -> Result<()> {
        self.close(None)
    }

    /// Ends a run stopped before its end (a signal, an error): JSON and
    /// NDJSON say `"complete": false` and why.
    pub fn finish_incomplete(mut self, reason: &str) -> Result<()> {
        self.close(Some(reason))
    }

    fn close(&mut self, incomplete: Option<&str>) -> Result<()> {
        self.done = true;
        if self.rows > 0 || incomplete.is_none() {
            self.say_pending();
        }
        let mut tail = std::mem::take(&mut self.tail);
        for key in &self.expected {
            if !tail.iter().any(|(k, _, _)| k == key) {
                tail.push((key.to_string(), Value::Null, String::new()));
            }
        }
        let complete = |doc: &mut Map<String, Value>| {
            doc.insert("complete".into(), Value::Bool(incomplete.is_none()));
            if let Some(reason) = incomplete {
                doc.insert("reason".into(), Value::from(reason));
            }
        };
        match &mut self.sink {
            // The summary went ahead as it came; the fleet gives every database the same keys.
            Sink::Forward { scope } => scope.end(incomplete),
            Sink::Table { out, header, rows, layout } => {
                let silent = self.quiet && self.clean && incomplete.is_none();
                if !rows.is_empty() && !silent {
                    let compact = self.view.compact.as_deref().filter(|_| !self.wide);
                    let compact: Option<Vec<String>> =
                        compact.map(|c| c.iter().map(|k| self.view.heading(k)).collect());
                    let (header, rows) = table::shown(header, rows, compact.as_deref());
                    let layout = table::Layout { wrap: self.view.wrap, ..*layout };
                    if self.view.figures {
                        out.write_all(table::as_lines(&header, &rows).as_bytes())?;
                    } else {
                        out.write_all(table::render(&header, &rows, layout).as_bytes())?;
                    }
                }
                out.flush()?;
                print_tail_to_stderr(&tail, self.quiet, &self.view);
                partial(self.rows, self.rows_key, incomplete, self.view.figures);
            }
            Sink::Csv { csv, header } => {
                if self.rows == 0 && *header && !self.columns.is_empty() && incomplete.is_none() {
                    csv.write_record(&self.columns)?;
                }
                csv.flush()?;
                print_tail_to_stderr(&tail, self.quiet, &self.view);
                partial(self.rows, self.rows_key, incomplete, self.view.figures);
            }
            Sink::Ndjson { out } => {
                let mut summary = Map::new();
                summary.insert("type".into(), Value::from("summary"));
                summary.insert("format_version".into(), Value::from(FORMAT_VERSION));
                summary.extend(self.head.iter().map(|(k, v)| (k.clone(), v.clone())));
                summary.extend(tail.iter().map(|(k, v, _)| (k.clone(), v.clone())));
                complete(&mut summary);
                serde_json::to_writer(&mut *out, &summary)?;
                out.write_all(b"\n")?;
                out.flush()?;
                print_tail_to_stderr(&tail, self.quiet, &self.view);
            }
            Sink::Json { out } => {
                if self.rows == 0 {
                    open_document(out, &self.head, self.rows_key)?;
                } else {
                    out.write_all(b"\n")?;
                }
                out.write_all(b"]")?;
                let mut end: Map<String, Value> = tail.into_iter().map(|(k, v, _)| (k, v)).collect();
                complete(&mut end);
                for (key, value) in &end {
                    out.write_all(b",\n")?;
                    serde_json::to_writer(&mut *out, key)?;
                    out.write_all(b":")?;
                    serde_json::to_writer(&mut *out, value)?;
                }
                out.write_all(b"}\n")?;
                out.flush()?;
            }
        }
        Ok(())
    }
}

impl<W: Write> Drop for Emitter<W> {
    /// A run that ended early (Ctrl-C, an error) after its rows began: the
    /// JSON document is closed and NDJSON ends with its summary, both saying
    /// `"complete": false`; after a table or CSV a line on stderr says the
    /// list is partial.
    fn drop(&mut self) {
        if self.done || (self.rows == 0 && !crate::interrupt::is_set()) {
            return;
        }
        let reason = if crate::interrupt::is_set() { "interrupted" } else { "stopped by an error" };
        match self.sink {
            // The rows are out already: a line says the list is partial.
            Sink::Csv { .. } if self.rows > 0 => {
                if self.flush().is_ok() {
                    eprintln!("idemctl: the {} listed are partial: {reason}", self.rows_key);
                    if crate::interrupt::is_set() {
                        crate::exit::interruption_said();
                    }
                }
            }
            Sink::Table { .. } | Sink::Csv { .. } => {}
            Sink::Json { .. } | Sink::Ndjson { .. } | Sink::Forward { .. } => {
                self.quiet = true;
                let _ = self.close(Some(reason));
            }
        }
    }
}

/// A row's `type` in NDJSON: the singular of the rows' name.
fn row_type(rows_key: &str) -> &str {
    rows_key.strip_suffix('s').unwrap_or(rows_key)
}

/// A report that is one document rather than a list of rows (`size`): in
/// JSON the document itself; in CSV and NDJSON its figures, one a row; in the
/// table format its blocks of lines and tables. Notes go beside the data as
/// everywhere: in the document, or on stderr, or after the table.
pub trait Document: Serialize {
    type Figure: Serialize;
    fn figures(&self) -> Vec<Self::Figure>;
    fn blocks(&self) -> Vec<Block>;
    fn notes(&self) -> &[String];
    /// A last line for people, after the notes (units, say).
    fn footer(&self) -> Option<String> {
        None
    }
}

/// A piece of a document in the table format.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A line as it is.
    Line(String),
    /// An aligned table; numbers right-aligned when `right`.
    Table { header: Vec<String>, rows: Vec<Vec<String>>, right: bool },
}

impl<W: Write> Emitter<W> {
    /// Writes a whole document and finishes.
    pub fn document(mut self, doc: &impl Document) -> Result<()> {
        self.done = true;
        match &mut self.sink {
            Sink::Json { out } => {
                let Value::Object(fields) = serde_json::to_value(doc)? else {
                    anyhow::bail!("report documents must be objects");
                };
                let mut whole = Map::with_capacity(fields.len() + 2);
                whole.insert("format_version".into(), Value::from(FORMAT_VERSION));
                whole.extend(fields);
                whole.insert("complete".into(), Value::Bool(true));
                serde_json::to_writer_pretty(&mut *out, &whole)?;
                writeln!(out)?;
                out.flush()?;
            }
            // A quiet run of the table format that found nothing prints nothing.
            Sink::Table { .. } if self.quiet && self.clean => {}
            Sink::Table { out, layout, .. } => {
                for block in doc.blocks() {
                    match block {
                        Block::Line(line) => writeln!(out, "{}", table::wrap_line(&line, layout.width))?,
                        Block::Table { header, rows, right } => {
                            out.write_all(
                                table::render(&header, &rows, table::Layout { right, ..*layout }).as_bytes(),
                            )?;
                        }
                    }
                }
                out.flush()?;
                if !self.quiet {
                    for note in doc.notes() {
                        say(&format!("note: {note}"));
                    }
                    if let Some(footer) = doc.footer() {
                        whole_line(&footer);
                    }
                }
            }
            Sink::Forward { scope } => {
                if let Value::Object(fields) = serde_json::to_value(doc)? {
                    for (key, value) in fields {
                        scope.meta(&key, value);
                    }
                }
                for figure in doc.figures() {
                    self.row(&figure)?;
                }
                self.close(None)?;
            }
            Sink::Csv { .. } | Sink::Ndjson { .. } => {
                for figure in doc.figures() {
                    self.row(&figure)?;
                }
                self.summary("notes", doc.notes(), "")?;
                self.close(None)?;
                if !self.quiet {
                    for note in doc.notes() {
                        say(&format!("note: {note}"));
                    }
                }
            }
        }
        Ok(())
    }
}

fn open_document(out: &mut impl Write, head: &Map<String, Value>, rows_key: &str) -> Result<()> {
    writeln!(out, "{{\"format_version\":{FORMAT_VERSION},")?;
    for (key, value) in head {
        serde_json::to_writer(&mut *out, key)?;
        out.write_all(b":")?;
        serde_json::to_writer(&mut *out, value)?;
        out.write_all(b",\n")?;
    }
    serde_json::to_writer(&mut *out, rows_key)?;
    out.write_all(b":[")?;
    Ok(())
}

fn print_tail_to_stderr(tail: &[(String, Value, String)], quiet: bool, view: &View) {
    if !quiet {
        for (key, _, text) in tail.iter().filter(|(_, _, text)| !text.is_empty()) {
            say(&format!("{}: {text}", view.label(key)));
        }
    }
}

/// After a table or CSV that stopped early: a line saying its rows are partial.
fn partial(rows: usize, rows_key: &str, incomplete: Option<&str>, figures: bool) {
    if let Some(reason) = incomplete
        && rows > 0
        && !figures
    {
        whole_line(&format!("idemctl: the {rows_key} listed are partial: {reason}"));
        if reason == "interrupted" {
            crate::exit::interruption_said();
        }
    }
}

impl View {
    /// A key as people read it: in the words of the table's kind, else with spaces.
    fn label(&self, key: &str) -> String {
        match self.words.iter().find(|(k, _)| *k == key) {
            Some((_, words)) => words.to_string(),
            None => key.replace('_', " "),
        }
    }

    /// A row key as the table's heading: a key in seconds shown as a
    /// duration (`spans`) without its `_seconds`.
    fn heading(&self, key: &str) -> String {
        match self.spans.contains(&key) {
            true => self.label(key.trim_end_matches("_seconds")),
            false => self.label(key),
        }
    }
}

/// A JSON value as one CSV field: objects (the compared values) as JSON, so
/// that NULL and the text 'NULL' differ and a value holding `=` or `,` reads
/// back whole; the rest as in the table.
fn csv_cell(value: &Value) -> String {
    match value {
        Value::Object(_) => value.to_string(),
        other => cell(other),
    }
}

/// A cell for people: as `cell`, fractions to three decimals at most.
fn people_cell(value: &Value) -> String {
    match value {
        Value::Number(n) if n.is_f64() => {
            let text = format!("{:.3}", n.as_f64().unwrap_or(0.0));
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        }
        // A control character in a value (a bell, an escape) is written
        // escaped: a terminal would act on it, and it takes no width.
        Value::String(s) if s.chars().any(char::is_control) => s.escape_debug().to_string(),
        other => text_of(other, people_cell),
    }
}

/// A JSON value as one text cell: arrays joined by spaces, objects as k=v.
fn cell(value: &Value) -> String {
    text_of(value, cell)
}

/// A value as text, the items of an array or object each by `each`.
fn text_of(value: &Value, each: fn(&Value) -> String) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(each).collect::<Vec<_>>().join(" "),
        Value::Object(fields) => fields
            .iter()
            .map(|(k, v)| if v.is_null() { format!("{k}=NULL") } else { format!("{k}={}", each(v)) })
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    }
}

/// Names the config file the run read (`null` in JSON when none).
pub fn config_meta<W: Write>(out: &mut Emitter<W>, path: Option<&std::path::Path>) -> Result<()> {
    let shown = path.map(|p| p.display().to_string());
    let text = shown.clone().unwrap_or_default();
    out.meta("config_file", shown, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row {
        id: i64,
        name: &'static str,
        tags: Vec<&'static str>,
        note: Option<&'static str>,
    }

    fn render(format: Format) -> String {
        let mut buf = Vec::new();
        let mut e = Emitter::new(&Output { format, quiet: true, ..Output::default() }, &mut buf, "rows");
        e.meta("compared", ["a", "b"], "a, b").unwrap();
        e.row(&Row { id: 1, name: "x, \"y\"", tags: vec!["p", "q"], note: None }).unwrap();
        e.row(&Row { id: 2, name: "z", tags: vec![], note: Some("n") }).unwrap();
        e.meta("total", 2, "2").unwrap();
        e.finish().unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn csv_is_rfc4180_with_header() {
        assert_eq!(render(Format::Csv), "id,name,tags,note\n1,\"x, \"\"y\"\"\",p q,\n2,z,,n\n");
    }

    #[test]
    fn json_is_one_document_with_meta() {
        let doc: Value = serde_json::from_str(&render(Format::Json)).unwrap();
        assert_eq!(doc["compared"], serde_json::json!(["a", "b"]));
        assert_eq!(doc["rows"][0]["tags"], serde_json::json!(["p", "q"]));
        assert_eq!(doc["rows"][1]["note"], "n");
        assert_eq!(doc["total"], 2);
    }

    #[test]
    fn json_without_rows_is_still_a_document() {
        let mut buf = Vec::new();
        let mut e = Emitter::new(&Output { format: Format::Json, quiet: true, ..Output::default() }, &mut buf, "rows");
        e.meta("total", 0, "0").unwrap();
        e.finish().unwrap();
        let doc: Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(doc["rows"], serde_json::json!([]));
        assert_eq!(doc["total"], 0);
    }

    #[test]
    fn ndjson_is_one_object_per_line() {
        let out = render(Format::Ndjson);
        let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 3);
        assert_eq!((&lines[1]["type"], &lines[1]["id"]), (&Value::from("row"), &Value::from(2)));
        assert_eq!(lines[2]["type"], "summary");
        assert_eq!(lines[2]["format_version"], FORMAT_VERSION);
        assert_eq!(lines[2]["compared"], serde_json::json!(["a", "b"]));
        assert_eq!(lines[2]["total"], 2);
        assert_eq!(lines[2]["complete"], true);
    }

    #[test]
    fn table_holds_the_rows_only() {
        let out = render(Format::Table);
        assert!(out.contains("p q") && !out.contains("compared") && !out.contains("total"), "{out}");
    }
}
