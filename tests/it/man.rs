//! The man pages in `man/` are generated from the clap definitions; this test
//! fails when a committed page is stale. `UPDATE_MAN=1 cargo test --test it man::`
//! writes them anew.

use std::io::Write;
use std::path::PathBuf;

use clap::CommandFactory;

const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "clean: nothing found"),
    (
        "1",
        "findings: damage, stuck keys, keys needing review or left by an error, rows that refused deletion, a failed check",
    ),
    ("2", "error or bad input, said in one line on stderr; nothing changed"),
    ("3", "another run holds the table's lock"),
    (
        "130",
        "interrupted (Ctrl-C, SIGTERM): the statement under way canceled on the server, a writer's batch rolled back",
    ),
];

const ENVIRONMENT: &[(&str, &str)] = &[
    ("DATABASE_URL", "the database URL, when --database-url is not given"),
    ("IDEMCTL_CONFIG", "the config file, when --config is not given"),
    ("XDG_CONFIG_HOME", "where $XDG_CONFIG_HOME/idemctl/config.toml is looked for (default ~/.config)"),
    ("NO_COLOR", "set and not empty: no colour with --color auto"),
    ("COLUMNS", "the width the table format fits, in place of the terminal's"),
];

const FILES: &[(&str, &str)] = &[
    ("./idemctl.toml", "the config file, when neither --config nor IDEMCTL_CONFIG names one"),
    ("$XDG_CONFIG_HOME/idemctl/config.toml", "the config file, when ./idemctl.toml is not there"),
    ("DB.idemctl-SCHEMA-TABLE.lock", "SQLite: the lock file beside the database that keeps two writing runs apart"),
];

/// Text for roff: backslashes escaped, no line starting with a control character.
fn roff_text(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.replace('\\', "\\e");
            if l.starts_with('.') || l.starts_with('\'') { format!("\\&{l}") } else { l }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The month of this version's release, for the pages' footer; set with the version.
const RELEASED: &str = "December 2026";

fn section(out: &mut Vec<u8>, title: &str, items: &[(&str, &str)]) {
    writeln!(out, ".SH \"{title}\"").unwrap();
    for (term, text) in items {
        writeln!(out, ".TP\n\\fB{}\\fR\n{}", roff_text(term), roff_text(text)).unwrap();
    }
}

fn render(cmd: clap::Command) -> Vec<u8> {
    // A page is the long help: the options `-h` leaves out are described
    // there too (hidden from the short help, clap_mangen gives them none).
    let cmd = cmd.mut_args(|a| a.hide_short_help(false));
    // The footer: the release's month and the program with its version, not
    // the long version text (which would fill the date's place).
    let man = clap_mangen::Man::new(cmd.clone())
        .date(RELEASED)
        .source(format!("idemctl {}", env!("CARGO_PKG_VERSION")))
        .manual("idemctl manual");
    let mut out = Vec::new();
    man.render_title(&mut out).unwrap();
    man.render_name_section(&mut out).unwrap();
    man.render_synopsis_section(&mut out).unwrap();
    man.render_description_section(&mut out).unwrap();
    man.render_options_section(&mut out).unwrap();
    if cmd.get_subcommands().next().is_some() {
        man.render_subcommands_section(&mut out).unwrap();
    }
    if let Some(examples) = cmd.get_after_long_help() {
        let text = examples.to_string();
        let text = text.trim_start_matches("Examples:").trim_start_matches('\n');
        writeln!(out, ".SH EXAMPLES\n.nf\n{}\n.fi", roff_text(text)).unwrap();
    }
    section(&mut out, "EXIT STATUS", EXIT_STATUS);
    section(&mut out, "ENVIRONMENT", ENVIRONMENT);
    section(&mut out, "FILES", FILES);
    man.render_version_section(&mut out).unwrap();
    out
}

#[test]
fn man_pages_are_current() {
    // `idemctl help` is clap's: its page would only say what --help says.
    let mut root = idemctl::Cli::command().disable_help_subcommand(true);
    root.build();
    let mut pages = vec![("idemctl.1".to_string(), render(root.clone()))];
    for sub in root.get_subcommands() {
        let name = format!("idemctl-{}", sub.get_name());
        let page = sub.clone().name(name.clone()).display_name(name.clone()).bin_name(name.replace('-', " "));
        pages.push((format!("{name}.1"), render(page)));
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("man");
    let update = std::env::var_os("UPDATE_MAN").is_some();
    let mut stale = Vec::new();
    for (file, text) in &pages {
        let path = dir.join(file);
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, text).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(text.as_slice()) {
            stale.push(file.clone());
        }
    }
    let expected: Vec<&String> = pages.iter().map(|(f, _)| f).collect();
    let mut present: Vec<String> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
        .unwrap_or_default();
    present.sort();
    let extra: Vec<&String> = present.iter().filter(|f| !expected.contains(f)).collect();
    assert!(stale.is_empty(), "stale man pages {stale:?}: run UPDATE_MAN=1 cargo test --test it man::");
    assert!(extra.is_empty(), "man pages for no command: {extra:?}");
    // Every option is described, those `-h` leaves out too.
    for (file, text) in &pages {
        let text = String::from_utf8_lossy(text);
        let lines: Vec<&str> = text.lines().collect();
        let bare: Vec<&str> =
            lines.windows(2).filter(|w| w[0].starts_with("\\fB\\-") && w[1].is_empty()).map(|w| w[0]).collect();
        assert!(bare.is_empty(), "{file}: options without a description: {bare:?}");
    }
    let root_page = String::from_utf8(pages[0].1.clone()).unwrap();
    assert!(!root_page.contains("idemctl\\-help"), "no page for clap's help subcommand");
    for title in ["EXIT STATUS", "ENVIRONMENT", "FILES"] {
        assert!(pages.iter().all(|(_, p)| String::from_utf8_lossy(p).contains(title)), "{title}");
    }
    // Every page's EXIT STATUS lists exactly the codes src/exit.rs defines.
    let exit_rs = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/exit.rs")).unwrap();
    let mut defined: Vec<String> = exit_rs
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub const ")?.split_once(": u8 = "))
        .map(|(_, n)| n.trim_end_matches(';').to_string())
        .collect();
    defined.sort();
    assert_eq!(defined.len(), 5, "{defined:?}");
    for (file, page) in &pages {
        let page = String::from_utf8_lossy(page);
        let section = page.split(".SH \"EXIT STATUS\"").nth(1).unwrap().split(".SH ").next().unwrap();
        let mut listed: Vec<String> =
            section.lines().filter_map(|l| l.strip_prefix("\\fB")?.strip_suffix("\\fR").map(str::to_string)).collect();
        listed.sort();
        assert_eq!(listed, defined, "{file}: EXIT STATUS and src/exit.rs");
    }
    // .TH title section date source manual: a date, and a footer without the long version.
    for (file, page) in &pages {
        let page = String::from_utf8_lossy(page);
        let th = page.lines().find(|l| l.starts_with(".TH ")).unwrap();
        let expected = format!(" 1 \"{RELEASED}\" \"idemctl {}\" \"idemctl manual\"", env!("CARGO_PKG_VERSION"));
        assert!(th.ends_with(&expected), "{file}: {th}");
    }
    // scan's DESCRIPTION says what it compares and what it leaves out.
    let scan = String::from_utf8_lossy(&pages.iter().find(|(f, _)| f == "idemctl-scan.1").unwrap().1).into_owned();
    let description = &scan[scan.find(".SH DESCRIPTION").unwrap()..scan.find(".SH OPTIONS").unwrap()];
    for said in ["Compared:", "Left out", "updated_at", "near", "\\-\\-columns"] {
        assert!(description.contains(said), "{said}: {description}");
    }
}

/// Each shell's completion script is generated and names the subcommands.
#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = assert_cmd::Command::cargo_bin("idemctl").unwrap().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("expire") && text.contains("lock-timeout"), "{shell}: {}", &text[..text.len().min(300)]);
    }
}

/// `-h` groups the options under headings, the command's own first and the
/// global ones last, with `--dry-run` at the top; the rarely used options
/// wait for `--help`.
#[test]
fn help_groups_options_by_heading() {
    let help = |args: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("idemctl").unwrap().args(args).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let short = help(&["reap", "-h"]);
    let headings: Vec<&str> =
        short.lines().filter(|l| !l.starts_with(' ') && l.ends_with(':') && !l.starts_with("Usage")).collect();
    assert_eq!(
        headings,
        ["Options:", "Which keys:", "What to change:", "Pacing:", "Key table:", "Connection:", "Global:", "Output:"],
        "{short}"
    );
    let options = &short[short.find("Options:").unwrap()..short.find("Which keys:").unwrap()];
    assert!(options.contains("--dry-run"), "{options}");
    let key_table = &short[short.find("Key table:").unwrap()..short.find("Connection:").unwrap()];
    assert!(key_table.contains("--scope-column") && !key_table.contains("--color"), "{key_table}");
    assert!(!short.contains("--retryable-value") && !short.contains("--max-throttle-wait"), "{short}");
    assert!(short.lines().count() < 90, "{} lines", short.lines().count());
    let long = help(&["reap", "--help"]);
    assert!(long.contains("--retryable-value") && long.contains("--max-throttle-wait") && long.contains("Fleet:"));
    assert!(long.contains("Examples:\n  idemctl reap --dry-run"), "{long}");
    // One default for --time-unit.
    let scan = help(&["scan", "-h"]);
    let unit = scan.lines().skip_while(|l| !l.contains("--time-unit")).take(3).collect::<String>();
    assert_eq!(unit.matches("[default:").count(), 1, "{unit}");
}
