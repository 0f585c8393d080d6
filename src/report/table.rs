//! The table format for people: an aligned table that fits the terminal
//! without ever breaking a key, an id, a time or a number. Free text (cells
//! of several words: compared values, reasons, fixes) is shortened with an
//! ellipsis to make room; when even that does not fit, each row is shown as
//! a vertical record, as psql's `\x auto` does, whose free text wraps at its
//! words instead. Piped or redirected, the
//! table is as wide as its widest row.

use comfy_table::{Cell, CellAlignment, Color, ContentArrangement, Table};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// How a table is laid out.
#[derive(Debug, Clone, Copy, Default)]
pub struct Layout {
    /// The width to fit, in columns; `None`: as wide as it needs.
    pub width: Option<usize>,
    pub color: bool,
    /// Numbers to the right (the size report's figures).
    pub right: bool,
    /// Free text too wide for its share wraps at words (else it is shortened).
    pub wrap: bool,
}

impl Layout {
    /// The terminal's width (`COLUMNS` when set, else stdout's size when it
    /// is a terminal), and colour as decided.
    pub fn for_stdout(color: bool) -> Layout {
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|w| *w > 0)
            .or_else(|| Table::new().width().map(usize::from));
        Layout { width, color, right: false, wrap: false }
    }
}

/// A rule above and below the table and under its header, no borders or
/// column lines (comfy-table's style string: a space leaves a part out).
const LINES_ABOVE_AND_BELOW: &str = "  ── ══      ──    ";

/// Narrowest a shortened free-text column gets.
const NARROWEST: usize = 12;

/// The table, ending in a newline.
pub fn render(header: &[String], rows: &[Vec<String>], layout: Layout) -> String {
    let cells = |i: usize| rows.iter().map(|r| width(&r[i])).max().unwrap_or(0);
    let whole: Vec<usize> = (0..header.len()).map(|i| cells(i).max(width(&header[i]))).collect();
    // A space each side of every column, and one between columns: " a   b ".
    let overhead = 3 * header.len() - 1;
    if layout.width.is_none_or(|w| whole.iter().sum::<usize>() + overhead <= w) {
        return table(header, rows, &whole, layout);
    }
    // Narrower: a header may wrap at its spaces, so its longest word counts.
    let natural: Vec<usize> =
        (0..header.len()).map(|i| cells(i).max(header[i].split(' ').map(width).max().unwrap_or(0))).collect();
    let total: usize = natural.iter().sum::<usize>() + overhead;
    let Some(limit) = layout.width.filter(|w| total > *w) else {
        return table(header, rows, &natural, layout);
    };
    let free: Vec<bool> = (0..header.len()).map(|i| rows.iter().any(|r| r[i].contains(char::is_whitespace))).collect();
    let fixed: usize = natural.iter().zip(&free).filter(|(_, f)| !**f).map(|(w, _)| w).sum::<usize>() + overhead;
    let shrinkable = free.iter().filter(|f| **f).count();
    // A free-text column narrower than the narrowest share keeps its width.
    let least: usize = natural.iter().zip(&free).filter(|(_, f)| **f).map(|(w, _)| (*w).min(NARROWEST)).sum();
    if shrinkable == 0 || fixed + least > limit {
        return records(header, rows, layout);
    }
    // Share the room left among the free-text columns, narrowest first.
    let mut room = limit - fixed;
    let mut widths = natural.clone();
    let mut order: Vec<usize> = (0..header.len()).filter(|i| free[*i]).collect();
    order.sort_by_key(|i| natural[*i]);
    for (k, i) in order.iter().enumerate() {
        let share = room / (order.len() - k);
        widths[*i] = natural[*i].min(share).max(NARROWEST.min(natural[*i]));
        room = room.saturating_sub(widths[*i]);
    }
    let fit = |cell: &str, w: usize| if layout.wrap { wrap_text(cell, w) } else { shorten(cell, w) };
    let cut: Vec<Vec<String>> =
        rows.iter().map(|r| r.iter().zip(&widths).map(|(cell, w)| fit(cell, *w)).collect()).collect();
    table(header, &cut, &widths, layout)
}

/// Rows as `heading: value` lines, each row's apart by a blank line.
pub fn as_lines(header: &[String], rows: &[Vec<String>]) -> String {
    let mut text = String::new();
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        for (heading, value) in header.iter().zip(row) {
            text.push_str(&format!("{heading}: {value}\n"));
        }
    }
    text
}

/// The columns a table shows: those headed `compact` where given (in the rows' order),
/// and never one that is empty on every row.
pub fn shown(header: &[String], rows: &[Vec<String>], compact: Option<&[String]>) -> (Vec<String>, Vec<Vec<String>>) {
    let keep: Vec<usize> = (0..header.len())
        .filter(|i| compact.is_none_or(|c| c.contains(&header[*i])))
        .filter(|i| rows.iter().any(|r| !r[*i].is_empty()))
        .collect();
    let header = keep.iter().map(|i| header[*i].clone()).collect();
    let rows = rows.iter().map(|r| keep.iter().map(|i| r[*i].clone()).collect()).collect();
    (header, rows)
}

fn table(header: &[String], rows: &[Vec<String>], widths: &[usize], layout: Layout) -> String {
    let mut t = Table::new();
    t.load_preset(LINES_ABOVE_AND_BELOW).set_content_arrangement(ContentArrangement::Disabled);
    t.set_header(header.iter().zip(widths).map(|(h, w)| wrap_words(h, *w)));
    for row in rows {
        t.add_row(row.iter().zip(header).map(|(cell, column)| {
            let c = Cell::new(cell);
            match layout.color.then(|| paint(column, cell)).flatten() {
                Some(color) => c.fg(color),
                None => c,
            }
        }));
    }
    let numeric = |i: usize| !rows.is_empty() && rows.iter().all(|r| r[i].is_empty() || is_number(&r[i]));
    for (i, column) in t.column_iter_mut().enumerate() {
        if (layout.right && i > 0) || numeric(i) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    if !layout.color {
        t.force_no_tty();
    } else {
        // --color always wins over NO_COLOR, which the terminal library honours on its own.
        crossterm::style::force_color_output(true);
        t.enforce_styling();
    }
    format!("{t}\n")
}

/// Each row as a record of `column │ value` lines.
fn records(header: &[String], rows: &[Vec<String>], layout: Layout) -> String {
    let label = header.iter().map(|h| width(h)).max().unwrap_or(0);
    let mut out = String::new();
    for (n, row) in rows.iter().enumerate() {
        let title = format!("─[ {} ]", n + 1);
        let rule = layout.width.unwrap_or(40).saturating_sub(width(&title)).min(label + 20);
        out.push_str(&format!("{title}{}\n", "─".repeat(rule)));
        for (column, cell) in header.iter().zip(row) {
            let pad = " ".repeat(label - width(column));
            let room = layout.width.map(|w| w.saturating_sub(label + 3));
            let fits = room.is_none_or(|r| width(cell) <= r);
            // Free text wraps at its words under the label (a record has the
            // lines to spare: nothing is cut); a token too long for the line
            // goes whole on a line of its own.
            let (shown, own_line) = match (fits, cell.contains(char::is_whitespace), room) {
                (false, true, Some(r)) => (wrap_text(cell, r.max(NARROWEST)), false),
                (false, false, _) => (cell.clone(), true),
                _ => (cell.clone(), false),
            };
            let color = layout.color.then(|| paint(column, cell)).flatten();
            let painted = |line: &str| match color {
                Some(color) => ansi(color, line),
                None => line.to_string(),
            };
            if own_line {
                out.push_str(&format!("{column}{pad} │\n{}\n", painted(&shown)));
            } else {
                for (i, line) in shown.lines().enumerate() {
                    let lead = if i == 0 { format!("{column}{pad}") } else { " ".repeat(label) };
                    out.push_str(&format!("{lead} │ {}\n", painted(line)));
                }
            }
        }
    }
    out
}

/// A header's words in lines of at most `max` columns.
fn wrap_words(text: &str, max: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if width(line) + 1 + width(word) <= max => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.join("\n")
}

/// A line for people wrapped at its words to `limit` (when known), each
/// continuation two columns further in than the line; a word longer than
/// the limit stays whole. Blank lines and leading newlines are kept.
pub fn wrap_line(text: &str, limit: Option<usize>) -> String {
    let Some(limit) = limit else { return text.to_string() };
    text.split('\n')
        .map(|line| {
            let indent = line.len() - line.trim_start_matches(' ').len();
            let lead = " ".repeat(indent + 2);
            let mut out = String::from(&line[..indent]);
            let mut used = indent;
            for (i, word) in line[indent..].split(' ').enumerate() {
                let w = width(word);
                if i > 0 && used + 1 + w > limit {
                    out.push('\n');
                    out.push_str(&lead);
                    used = lead.len();
                } else if i > 0 {
                    out.push(' ');
                    used += 1;
                }
                out.push_str(word);
                used += w;
            }
            out
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A sentence wrapped at its words to `max` columns; a word longer than
/// that (a long identifier) is split across lines rather than widen the table.
fn wrap_text(text: &str, max: usize) -> String {
    let mut pieces: Vec<String> = Vec::new();
    for word in text.split(' ') {
        let mut rest = word;
        while width(rest) > max {
            let cut = rest.char_indices().scan(0, |w, (i, c)| {
                *w += c.width().unwrap_or(0);
                Some((i + c.len_utf8(), *w))
            });
            let at = cut.take_while(|(_, w)| *w <= max).last().map_or(rest.len(), |(i, _)| i);
            pieces.push(rest[..at].to_string());
            rest = &rest[at..];
        }
        pieces.push(rest.to_string());
    }
    wrap_words(&pieces.join(" "), max)
}

/// Whether a cell holds a number (a count, a size, seconds).
fn is_number(text: &str) -> bool {
    text.replace(',', "").parse::<f64>().is_ok()
}

/// Display width on a terminal.
fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// Text cut to `max` columns, an ellipsis marking the cut.
fn shorten(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > max {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// The colour of a result word in a result column: pass, warn, fail;
/// stuck states; reap's outcomes.
fn paint(column: &str, value: &str) -> Option<Color> {
    match (column, value) {
        ("result", "pass") => Some(Color::Green),
        ("result", "warn") => Some(Color::Yellow),
        ("result", "fail") => Some(Color::Red),
        ("state", "lease-expired") => Some(Color::Yellow),
        ("state", "abandoned") => Some(Color::Magenta),
        ("outcome", "released" | "failed" | "deleted") => Some(Color::Green),
        ("outcome", "needs-review" | "skipped-locked" | "unchanged" | "already-done") => Some(Color::Yellow),
        ("outcome", "error") => Some(Color::Red),
        ("outcome", v) if v.starts_with("would-") => Some(Color::Cyan),
        ("cause", _) => Some(Color::Yellow),
        _ => None,
    }
}

fn ansi(color: Color, text: &str) -> String {
    let code = match color {
        Color::Red => 31,
        Color::Green => 32,
        Color::Yellow => 33,
        Color::Magenta => 35,
        Color::Cyan => 36,
        _ => return text.to_string(),
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_long_key_stays_on_one_line_at_100_columns() {
        let key = "idem-2026-12-01-POST-v1-payments-cust_0000001234-attempt-0000000001-9f8e7d6c5b4a39281706";
        let header = strings(&["scope", "operation", "key", "state", "values"]);
        let rows = vec![strings(&[
            "cust_1234",
            "POST /v1/payments",
            key,
            "lease-expired",
            "note=gift wrap please, amount=12.50 EUR, currency=EUR, sku=ABC-123",
        ])];
        let out = render(&header, &rows, Layout { width: Some(100), color: false, right: false, wrap: false });
        assert!(out.lines().any(|l| l.contains(key)), "{out}");
        assert!(out.lines().all(|l| width(l) <= 100), "{out}");
    }

    #[test]
    fn free_text_is_shortened_and_tokens_kept() {
        let header = strings(&["id", "reason"]);
        let rows = vec![strings(&["123456789", "a long explanation of what was found and why it matters to the run"])];
        let out = render(&header, &rows, Layout { width: Some(40), color: false, right: false, wrap: false });
        assert!(out.contains("123456789") && out.contains('…'), "{out}");
        assert!(out.lines().all(|l| width(l) <= 40), "{out}");
    }

    #[test]
    fn short_free_text_keeps_its_width_and_the_table_fits() {
        // Three narrow cells with spaces (ids, an amount and its currency)
        // need only their own width: a table, not records, at 60 columns.
        let header = strings(&["id", "a", "b", "c", "text"]);
        let rows = vec![strings(&["12345", "1 2", "3 4", "5 6", &"word ".repeat(16)])];
        let out = render(&header, &rows, Layout { width: Some(60), color: false, right: false, wrap: false });
        assert!(!out.starts_with("─[ 1 ]"), "{out}");
        assert!(out.contains(" 1 2 ") && out.contains('…'), "{out}");
        assert!(out.lines().all(|l| width(l) <= 60), "{out}");
    }

    #[test]
    fn rows_too_wide_become_records() {
        let header = strings(&["a", "b", "c"]);
        let rows = vec![strings(&["x".repeat(30).as_str(), "y".repeat(30).as_str(), "z".repeat(30).as_str()])];
        let out = render(&header, &rows, Layout { width: Some(60), color: false, right: false, wrap: false });
        assert!(out.starts_with("─[ 1 ]"), "{out}");
        assert!(out.contains(&format!("a │ {}", "x".repeat(30))), "{out}");
    }

    #[test]
    fn records_wrap_free_text_under_its_label() {
        let header = strings(&["cluster", "cause confidence", "values"]);
        let reason = "key-reused, certain: + rows share the key \"000000ed5336cb6d-0\": the client sent one request \
                      twice";
        let rows = vec![strings(&["1", reason, &"v".repeat(50)])];
        let out = render(&header, &rows, Layout { width: Some(60), color: false, right: false, wrap: false });
        assert!(out.starts_with("─[ 1 ]"), "{out}");
        assert!(!out.contains('…'), "{out}");
        assert!(out.lines().all(|l| width(l) <= 60), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[2].starts_with("cause confidence │ key-reused, certain:"), "{out}");
        assert!(lines[3].starts_with("                 │ "), "{out}");
        let joined: Vec<&str> =
            lines[2..].iter().take_while(|l| !l.starts_with("values")).map(|l| l[20..].trim()).collect();
        assert_eq!(joined.join(" "), reason, "{out}");
    }

    #[test]
    fn lines_wrap_at_words_indented() {
        let line =
            "expiry backlog: 17,460 rows with expires_at before 2026-12-01T06:41:33Z (what expire would delete now)";
        let wrapped = wrap_line(line, Some(60));
        assert_eq!(
            wrapped,
            "expiry backlog: 17,460 rows with expires_at before\n  2026-12-01T06:41:33Z (what expire would delete now)"
        );
        assert_eq!(wrap_line("\n  a b", Some(3)), "\n  a\n    b");
        assert_eq!(wrap_line(line, None), line);
    }

    #[test]
    fn sentences_wrap_within_their_width() {
        let text = "expires_at leads index idempotency_keys_expires_at_and_more: expire finds old keys";
        let wrapped = wrap_text(text, 20);
        assert!(wrapped.lines().all(|l| width(l) <= 20), "{wrapped}");
        assert!(wrapped.starts_with("expires_at leads\nindex"), "{wrapped}");
    }

    #[test]
    fn unlimited_width_is_the_natural_table() {
        let header = strings(&["k", "v"]);
        let rows = vec![strings(&["1", &"w ".repeat(200)])];
        let out = render(&header, &rows, Layout { width: None, color: false, right: false, wrap: false });
        assert!(!out.contains('…') && out.lines().count() == 5, "{out}");
    }
}
