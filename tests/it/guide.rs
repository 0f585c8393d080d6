//! The guide (`docs/src/`, an mdBook) and the README that is its front
//! door: every page is in the book's summary, and every link between them
//! resolves, to a file and, where it names one, to a heading of that file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages
}

/// The text outside code blocks and inline code.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            let mut inline = false;
            for part in line.split('`') {
                if !inline {
                    out.push_str(part);
                }
                inline = !inline;
            }
            out.push('\n');
        }
    }
    out
}

/// The links of a page: each `[text](target)` outside code.
fn links(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut found = Vec::new();
    let mut rest = prose.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            found.push(rest[..end].to_string());
        }
    }
    found
}

/// A heading's anchor as mdBook (and GitHub) make it: lower case, spaces
/// to dashes, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    prose(text).lines().filter_map(|l| l.strip_prefix('#')).map(|h| anchor(h.trim_start_matches('#'))).collect()
}

#[test]
fn every_page_is_in_the_summary() {
    let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary).into_iter().collect();
    for page in pages() {
        let name = page.file_name().unwrap().to_string_lossy().to_string();
        if name != "SUMMARY.md" {
            assert!(listed.contains(&name), "docs/src/{name} is not in SUMMARY.md, so the book leaves it out");
        }
    }
    for name in &listed {
        assert!(root().join("docs/src").join(name).is_file(), "SUMMARY.md lists {name}, which is not there");
    }
}

#[test]
fn every_link_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages().into_iter().chain([root().join("README.md")]) {
        let text = std::fs::read_to_string(&page).unwrap();
        for link in links(&text) {
            if link.starts_with("http://") || link.starts_with("https://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
            let shown = format!("{}: ({link})", page.strip_prefix(root()).unwrap().display());
            if !target.exists() {
                broken.push(format!("{shown}: no such file"));
                continue;
            }
            if !fragment.is_empty() && target.extension().is_some_and(|e| e == "md") {
                let headings = anchors(&std::fs::read_to_string(&target).unwrap());
                if !headings.contains(fragment) {
                    broken.push(format!("{shown}: no heading #{fragment}"));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} links read: the reader is broken");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_is_a_front_door() {
    let lines = std::fs::read_to_string(root().join("README.md")).unwrap().lines().count();
    assert!(lines <= 300, "the README has {lines} lines: the detail belongs in the guide (docs/src/)");
}
