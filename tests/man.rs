//! The man pages in `man/` are generated from the clap definitions; this test
//! fails when a committed page is stale. `UPDATE_MAN=1 cargo test --test man`
//! writes them anew.

use std::path::PathBuf;

use clap::CommandFactory;

fn render(cmd: clap::Command) -> Vec<u8> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out).unwrap();
    out
}

#[test]
fn man_pages_are_current() {
    let mut root = idemctl::Cli::command();
    root.build();
    let mut pages = vec![("idemctl.1".to_string(), render(root.clone()))];
    for sub in root.get_subcommands().filter(|s| s.get_name() != "help") {
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
    assert!(stale.is_empty(), "stale man pages {stale:?}: run UPDATE_MAN=1 cargo test --test man");
    assert!(extra.is_empty(), "man pages for no command: {extra:?}");
}
