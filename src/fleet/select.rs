//! Which databases a run goes across: the config file's `[[databases]]`
//! and the URLs of `--databases FILE`, picked by `--database NAME`, `--tag T`
//! or `--all-databases`.

use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::cli::Global;
use crate::config::Config;
use crate::db::Target;

/// One database of the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub name: String,
    /// The URL, or why there is none (its `url_env` is unset): that
    /// database fails alone, as one that cannot be reached.
    pub url: Result<String, String>,
    pub tags: Vec<String>,
}

impl Member {
    /// Where it is, for people (`postgres db:5432/app`), or its variable.
    pub fn place(&self) -> String {
        match &self.url {
            Ok(url) => Target::new(url.as_str()).place(),
            Err(_) => "(URL not set)".to_string(),
        }
    }
}

/// A database as listed, its URL still to be read from the environment.
struct Listed {
    name: String,
    url: Source,
    tags: Vec<String>,
}

enum Source {
    Url(String),
    Env(String),
}

/// Whether the command line names a fleet rather than one database.
pub fn wanted(global: &Global) -> bool {
    !global.databases.is_empty() || !global.tags.is_empty() || global.all_databases || global.databases_file.is_some()
}

/// The databases the command line picks, in the order they are listed
/// (config file first, then `--databases FILE`); `None` for a run on one
/// `--database-url`.
pub fn select(global: &Global, config: Option<&Path>) -> Result<Option<Vec<Member>>> {
    if !wanted(global) {
        return Ok(None);
    }
    if let Some(url) = &global.database_url
        && std::env::var("DATABASE_URL").ok().as_ref() != Some(url)
    {
        bail!(
            "--database-url names one database, and --database, --tag, --all-databases and --databases a fleet: \
             give one or the other"
        );
    }
    let mut listed = Vec::new();
    let file = Config::load(config)?;
    let config_name = config.map_or_else(|| "the config file".to_string(), |p| p.display().to_string());
    for db in file.databases {
        let url = match (db.url, db.url_env) {
            (Some(url), None) => Source::Url(url),
            (None, Some(var)) => Source::Env(var),
            _ => bail!("database {} in {config_name}: give url or url_env, one of them", db.name),
        };
        if db.name.trim().is_empty() {
            bail!("a database in {config_name} has an empty name");
        }
        listed.push(Listed { name: db.name, url, tags: db.tags });
    }
    let from_config = listed.len();
    if let Some(path) = &global.databases_file {
        listed.extend(read_list(path)?);
    }
    for (i, a) in listed.iter().enumerate() {
        if listed[..i].iter().any(|b| b.name == a.name) {
            bail!("two databases are named {}: names must differ", a.name);
        }
    }
    let picks_by_name = !global.databases.is_empty() || !global.tags.is_empty();
    let mut picked = vec![global.all_databases || !picks_by_name; listed.len()];
    if !global.all_databases && !picks_by_name {
        // `--databases FILE` alone: every database it lists.
        picked[..from_config].iter_mut().for_each(|p| *p = false);
    }
    for name in &global.databases {
        match listed.iter().position(|l| &l.name == name) {
            Some(i) => picked[i] = true,
            None => {
                let known: Vec<&str> = listed.iter().map(|l| l.name.as_str()).collect();
                let near = known.iter().find(|k| strsim::jaro_winkler(k, name) > 0.85);
                let hint = near.map(|k| format!(" (did you mean {k}?)")).unwrap_or_default();
                bail!(
                    "--database {name}: no database of that name{hint}; known: {}",
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                );
            }
        }
    }
    for tag in &global.tags {
        let wanted: Vec<&str> = tag.split(',').map(str::trim).filter(|t| !t.is_empty()).collect();
        let mut any = false;
        for (i, l) in listed.iter().enumerate() {
            if !wanted.is_empty() && wanted.iter().all(|w| l.tags.iter().any(|t| t == w)) {
                picked[i] = true;
                any = true;
            }
        }
        if !any {
            let mut known: Vec<&str> = listed.iter().flat_map(|l| l.tags.iter().map(String::as_str)).collect();
            known.sort_unstable();
            known.dedup();
            let which = match wanted.as_slice() {
                [one] => format!("no database carries {one}"),
                many => format!("no database carries all of {}", many.join(", ")),
            };
            let known = match (known.is_empty(), listed.is_empty()) {
                (false, _) => known.join(", "),
                (true, false) => "none".to_string(),
                (true, true) => format!("none ({config_name} lists no [[databases]])"),
            };
            bail!("--tag {tag}: {which}; the tags in use: {known}");
        }
    }
    let mut members = Vec::new();
    for (l, _) in listed.into_iter().zip(picked).filter(|(_, p)| *p) {
        let url = match l.url {
            Source::Url(url) => Ok(url),
            Source::Env(var) => match std::env::var(&var) {
                Ok(url) if !url.trim().is_empty() => Ok(url),
                Ok(_) => Err(format!("the environment variable {var} (its url_env) is empty")),
                Err(_) => Err(format!("the environment variable {var} (its url_env) is not set")),
            },
        };
        members.push(Member { name: l.name, url, tags: l.tags });
    }
    // The same database twice would be read twice and counted twice.
    let ids: Vec<Option<String>> = members.iter().map(|m| m.url.as_deref().ok().map(identity)).collect();
    for (i, a) in members.iter().enumerate() {
        if let Some(j) = (0..i).find(|&j| ids[i].is_some() && ids[j] == ids[i]) {
            bail!("{} and {} are the same database ({}): list it once", members[j].name, a.name, a.place());
        }
    }
    if members.is_empty() {
        bail!("no database picked: {config_name} lists no [[databases]], and --databases gave none");
    }
    Ok(Some(members))
}

/// The URLs of a `--databases` file, one a line, `#` starting a comment;
/// each named host/database (host:port/database where two would share a name).
fn read_list(path: &Path) -> Result<Vec<Listed>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read --databases {}", path.display()))?;
    let urls: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(n, line)| (n + 1, line.split(" #").next().unwrap_or_default().trim().to_string()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .collect();
    let mut listed = Vec::new();
    for (n, url) in &urls {
        if let Err(err) = Target::new(url.as_str()).engine() {
            bail!("--databases {} line {n}: {err}", path.display());
        }
        listed.push(Listed { name: name_of(url, false), url: Source::Url(url.clone()), tags: Vec::new() });
    }
    let names: Vec<String> = listed.iter().map(|l| l.name.clone()).collect();
    for (i, l) in listed.iter_mut().enumerate() {
        if names.iter().filter(|n| **n == names[i]).count() > 1
            && let Source::Url(url) = &l.url
        {
            l.name = name_of(url, true);
        }
    }
    Ok(listed)
}

/// What makes two URLs the same database: the engine, the host in lower
/// case, the port (the engine's default when none is given) and the
/// database; for SQLite the file's canonical path.
fn identity(url: &str) -> String {
    let target = Target::new(url);
    let engine = target.engine().ok();
    let (name, default_port) = (engine.map_or("?", |e| e.name()), engine.and_then(|e| e.default_port()));
    match target.server() {
        Some((host, port, path)) => {
            let port = port.or(default_port).unwrap_or_default();
            format!("{name} {}:{port}{path}", host.to_lowercase())
        }
        None => {
            let path = target.host();
            let path = path.split('?').next().unwrap_or_default();
            let path = path.strip_prefix("//").unwrap_or(path);
            let real = std::fs::canonicalize(path).map_or_else(|_| path.to_string(), |p| p.display().to_string());
            format!("{name} {real}")
        }
    }
}

/// A database's name from its URL: host/database (with the port when asked),
/// or the SQLite file's path.
pub fn name_of(url: &str, with_port: bool) -> String {
    let target = Target::new(url);
    match target.server() {
        Some((host, port, path)) => {
            let port = port.filter(|_| with_port).map(|p| format!(":{p}")).unwrap_or_default();
            format!("{host}{port}{path}")
        }
        None => target.host(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_database_by_other_urls() {
        assert_eq!(
            identity("postgres://a@DB.example.com/shop"),
            identity("postgresql://b:pw@db.example.com:5432/shop?sslmode=require")
        );
        assert_ne!(identity("postgres://db/shop"), identity("postgres://db:6432/shop"));
        assert_eq!(identity("mysql://root@h/eu"), identity("mariadb://root@h:3306/eu"));
        let dir = std::env::temp_dir();
        let file = dir.join(format!("idemctl-identity-{}.db", std::process::id()));
        std::fs::write(&file, b"").unwrap();
        let dotted = format!("sqlite:{}/./{}", dir.display(), file.file_name().unwrap().to_string_lossy());
        assert_eq!(identity(&format!("sqlite:{}", file.display())), identity(&dotted));
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn names_from_urls() {
        assert_eq!(name_of("postgres://u:pw@db1.example.com:5432/shop?sslmode=require", false), "db1.example.com/shop");
        assert_eq!(name_of("mysql://root@10.0.0.2:3306/eu", true), "10.0.0.2:3306/eu");
        assert_eq!(name_of("sqlite:/var/lib/a.db", false), "/var/lib/a.db");
    }
}
