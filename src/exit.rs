//! Exit codes in one place: 0 clean, 1 findings, 2 error, 3 lock held, 130 interrupted.

use std::io;
use std::process::ExitCode;

/// What a command found, when it ran to the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing to report: exit 0.
    Clean,
    /// Damage, stuck keys, failed checks or keys needing review: exit 1.
    Findings,
}

impl Outcome {
    pub fn from_findings(found: bool) -> Self {
        if found { Outcome::Findings } else { Outcome::Clean }
    }
}

/// Another run holds the table's lock (exit 3).
#[derive(Debug, thiserror::Error)]
#[error("another run holds the lock on {0}")]
pub struct LockHeld(pub String);

/// Ctrl-C or SIGTERM ended the run (exit 130).
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;

pub const CLEAN: u8 = 0;
pub const FINDINGS: u8 = 1;
pub const ERROR: u8 = 2;
pub const LOCK_HELD: u8 = 3;
pub const INTERRUPTED: u8 = 130;

/// The exit code a run's result ends in.
pub fn code(result: &anyhow::Result<Outcome>) -> u8 {
    match result {
        Ok(Outcome::Clean) => CLEAN,
        Ok(Outcome::Findings) => FINDINGS,
        Err(err) => code_for(err),
    }
}

/// Whether a line said the run's output is partial because it was
/// interrupted: its last line then does not say it again.
static SAID_INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Notes that a line has said the run was interrupted (the rows listed are partial).
pub fn interruption_said() {
    SAID_INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Maps a run's result to the process exit code, printing an error as one line on stderr.
pub fn report(result: anyhow::Result<Outcome>) -> ExitCode {
    let (code, line) = verdict(&result, SAID_INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst));
    if let Some(line) = line {
        eprintln!("idemctl: {line}");
    }
    ExitCode::from(code)
}

/// A run's exit code, and the line its error is said in: none for a clean
/// end (a reader gone away included), and none for an interruption a line
/// has said already (`the clusters listed are partial: interrupted`).
fn verdict(result: &anyhow::Result<Outcome>, interruption_said: bool) -> (u8, Option<String>) {
    match result {
        Ok(Outcome::Clean) => (CLEAN, None),
        Ok(Outcome::Findings) => (FINDINGS, None),
        Err(err) => {
            let code = code_for(err);
            let said = code == INTERRUPTED && interruption_said;
            (code, (code != CLEAN && !said).then(|| one_line(err)))
        }
    }
}

fn code_for(err: &anyhow::Error) -> u8 {
    if is_broken_pipe(err) {
        // `idemctl scan ... | head`: the reader has all it wanted.
        return CLEAN;
    }
    if err.downcast_ref::<LockHeld>().is_some() {
        return LOCK_HELD;
    }
    if err.downcast_ref::<Interrupted>().is_some() {
        return INTERRUPTED;
    }
    ERROR
}

pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<csv::Error>()
                .is_some_and(|e| matches!(e.kind(), csv::ErrorKind::Io(io) if io.kind() == io::ErrorKind::BrokenPipe))
            || cause
                .downcast_ref::<serde_json::Error>()
                .is_some_and(|e| e.io_error_kind() == Some(io::ErrorKind::BrokenPipe))
    })
}

/// An error and its causes on one line, so cron mail and log lines stay readable.
/// A cause that repeats what the line already says (drivers often put their
/// source's text in their own) is left out.
pub fn one_line(err: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in err.chain() {
        let text = plain(cause);
        let text = text.trim();
        if text.is_empty() || parts.iter().any(|p| p.contains(text)) {
            continue;
        }
        // A driver's message that holds its source's text whole: keep the source's.
        parts.retain(|p| !(text.contains(p.as_str()) && p.len() < text.len() && is_driver_wrapper(p)));
        parts.push(text.to_string());
        // A database error's sources are the driver's own rendering of the same
        // message (PostgreSQL's with the server's source line, MySQL's with its
        // codes): the message is said once.
        if matches!(cause.downcast_ref::<sqlx::Error>(), Some(sqlx::Error::Database(_))) {
            break;
        }
    }
    let mut line = parts.join(": ");
    // "error with configuration: error with configuration: ..." and the like.
    while let Some(at) = repeated_segment(&line) {
        line.replace_range(at.0..at.1, "");
    }
    shorten(&line)
}

/// A cause as people need it: a database error's own message (without the
/// driver's "error returned from database:" and the server's source line),
/// a driver's location suffix cut.
fn plain(cause: &(dyn std::error::Error + 'static)) -> String {
    match cause.downcast_ref::<sqlx::Error>() {
        Some(sqlx::Error::Database(db)) => db.message().to_string(),
        Some(sqlx::Error::Protocol(text)) if text.contains("unexpected response from SSLRequest") => {
            "the server did not answer as PostgreSQL does (is this another server's port?)".to_string()
        }
        Some(sqlx::Error::Configuration(inner)) => inner.to_string(),
        _ => {
            let text = cause.to_string();
            let text = match text.find(" (sqlx_") {
                Some(at) if text.ends_with(')') => text[..at].to_string(),
                _ => text,
            };
            if let Some(sentence) = tls_sentence(&text) {
                return sentence;
            }
            if text.contains("UnknownIssuer") {
                return format!(
                    "{text} (no root this build trusts signed the server's certificate: give its CA with \
                     sslrootcert=PATH, or ssl-ca=PATH on MySQL)"
                );
            }
            if text.contains("NotValidForName") || text.contains("certificate is only valid for") {
                return format!("{text} (connect by a name the certificate holds, or verify the CA only: verify-ca)");
            }
            text
        }
    }
}

/// A refused certificate that rustls names by its Rust spelling
/// (`invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))`), said
/// as a sentence with what to do.
fn tls_sentence(text: &str) -> Option<String> {
    let at = text.find("invalid peer certificate: ")?;
    let what = &text[at + "invalid peer certificate: ".len()..];
    if let Some(sentence) = dated_sentence(what) {
        return Some(format!("{}{sentence}", &text[..at]));
    }
    let name = what.trim_start_matches("Other(OtherError(").trim_end_matches(')');
    let sentence = match name {
        "CaUsedAsEndEntity" => {
            "the server's certificate is itself a certificate authority (basicConstraints CA:TRUE) and not one \
             given as sslrootcert: give that certificate as sslrootcert (as psql takes it), or give the server a \
             certificate signed by a CA, without CA:TRUE"
                .to_string()
        }
        "UnsupportedCertVersion" => "the server's certificate is X.509 version 1, which this build's TLS refuses: \
                                     issue it as version 3"
            .to_string(),
        "BadEncoding" => "the server's certificate cannot be read (bad encoding)".to_string(),
        "BadSignature" | "BadSignatureContext" => {
            "the server's certificate has a signature that does not verify".into()
        }
        "Expired" => "the server's certificate has expired".to_string(),
        "NotValidYet" => "the server's certificate is not valid yet (are the clocks right?)".to_string(),
        "Revoked" => "the server's certificate has been revoked".to_string(),
        "UnhandledCriticalExtension" => {
            "the server's certificate has a critical extension this build's TLS does not know".to_string()
        }
        "UnknownIssuer" | "NotValidForName" => return None,
        _ if name.chars().all(|c| c.is_ascii_alphanumeric()) => {
            format!("the server's certificate was refused ({name})")
        }
        // Already a sentence (an expiry with its times, a name it is not valid for).
        _ => return None,
    };
    Some(format!("{}{sentence}", &text[..at]))
}

/// rustls's certificate out of its dates, with the times in UNIX seconds
/// (`certificate expired: verification time T (UNIX), but certificate is not
/// valid after A (N seconds ago)`), as a sentence with the date.
fn dated_sentence(what: &str) -> Option<String> {
    let (expired, rest) = if let Some(rest) = what.strip_prefix("certificate expired: verification time ") {
        (true, rest)
    } else {
        (false, what.strip_prefix("certificate not valid yet: verification time ")?)
    };
    let bound = if expired { "but certificate is not valid after " } else { "but certificate is not valid before " };
    let (_, after) = rest.split_once(bound)?;
    let seconds: i64 = after.split(' ').next()?.parse().ok()?;
    let date = chrono::DateTime::from_timestamp(seconds, 0)?.format("%Y-%m-%d %H:%M UTC");
    Some(if expired {
        format!("the server's certificate expired on {date}")
    } else {
        format!("the server's certificate is not valid until {date} (are the clocks right?)")
    })
}

fn is_driver_wrapper(text: &str) -> bool {
    text.starts_with("error communicating with database") || text.starts_with("error occurred while attempting")
}

/// Where `x: x: ` repeats a segment: the byte range of the repetition.
fn repeated_segment(line: &str) -> Option<(usize, usize)> {
    let mut start = 0;
    for (i, _) in line.match_indices(": ") {
        let segment = &line[start..i + 2];
        if line[i + 2..].starts_with(segment) {
            return Some((i + 2, i + 2 + segment.len()));
        }
        start = i + 2;
    }
    None
}

/// Text on one line, each word cut to 200 characters: a 100,000-character
/// argument is named, not echoed whole.
pub fn shorten(text: &str) -> String {
    const LONGEST: usize = 200;
    text.split_whitespace()
        .map(|word| match word.char_indices().nth(LONGEST) {
            Some((cut, _)) => format!("{}... ({} characters)", &word[..cut], word.chars().count()),
            None => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_says_each_cause_once() {
        let io = io::Error::new(io::ErrorKind::UnexpectedEof, "expected to read 5 bytes, got 0 bytes at EOF");
        #[derive(Debug, thiserror::Error)]
        #[error("error communicating with database: {0}")]
        struct Driver(#[source] io::Error);
        let err = anyhow::Error::new(Driver(io)).context("scanning orders");
        assert_eq!(
            one_line(&err),
            "scanning orders: error communicating with database: expected to read 5 bytes, got 0 bytes at EOF"
        );
        let doubled = anyhow::anyhow!("error with configuration: error with configuration: unknown value")
            .context("bad database URL x");
        assert_eq!(one_line(&doubled), "bad database URL x: error with configuration: unknown value");
    }

    #[test]
    fn each_result_its_code() {
        assert_eq!(Outcome::from_findings(true), Outcome::Findings);
        assert_eq!(Outcome::from_findings(false), Outcome::Clean);
        assert_eq!(code(&Ok(Outcome::Clean)), 0);
        assert_eq!(code(&Ok(Outcome::Findings)), 1);
        assert_eq!(code(&Err(anyhow::anyhow!("no table \"x\""))), 2);
        assert_eq!(code(&Err(LockHeld("public.keys".into()).into())), 3);
        assert_eq!(code(&Err(anyhow::Error::new(Interrupted).context("expire interrupted"))), 130);
        // A reader that went away (`| head`) had all it wanted: clean.
        let pipe = || io::Error::new(io::ErrorKind::BrokenPipe, "broken pipe");
        assert_eq!(code(&Err(anyhow::Error::new(pipe()).context("writing rows"))), 0);
        assert_eq!(code(&Err(csv::Error::from(pipe()).into())), 0);
        assert_eq!(code(&Err(serde_json::Error::io(pipe()).into())), 0);
        assert_eq!(code(&Err(io::Error::new(io::ErrorKind::NotFound, "gone").into())), 2);
    }

    #[test]
    fn each_result_its_code_and_line() {
        assert_eq!(verdict(&Ok(Outcome::Clean), false), (0, None));
        assert_eq!(verdict(&Ok(Outcome::Findings), true), (1, None));
        let failed = || Err(anyhow::anyhow!("no table \"x\"").context("scan"));
        assert_eq!(verdict(&failed(), false), (2, Some("scan: no table \"x\"".to_string())));
        // An interruption said already is not said again; any other error is.
        assert_eq!(verdict(&failed(), true), (2, Some("scan: no table \"x\"".to_string())));
        let interrupted = || Err(anyhow::Error::new(Interrupted).context("expire interrupted"));
        assert_eq!(verdict(&interrupted(), false).0, 130);
        assert!(verdict(&interrupted(), false).1.is_some_and(|l| l.starts_with("expire interrupted")));
        assert_eq!(verdict(&interrupted(), true), (130, None));
        // A reader gone away: clean, and nothing said.
        let pipe = io::Error::new(io::ErrorKind::BrokenPipe, "broken pipe");
        assert_eq!(verdict(&Err(anyhow::Error::new(pipe).context("writing rows")), false), (0, None));
        assert_eq!(verdict(&Err(LockHeld("public.keys".into()).into()), false).0, 3);
        interruption_said();
        assert!(SAID_INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst));
    }

    /// A server's error as a driver carries it: its message, and a
    /// rendering of its own with the server's source line.
    #[derive(Debug)]
    struct ServerSaid(&'static str);

    impl std::fmt::Display for ServerSaid {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "error returned from database: {} (at parse_relation.c:1392)", self.0)
        }
    }

    impl std::error::Error for ServerSaid {}

    impl sqlx::error::DatabaseError for ServerSaid {
        fn message(&self) -> &str {
            self.0
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    #[test]
    fn a_server_error_is_said_once_in_its_own_words() {
        let said = || sqlx::Error::Database(Box::new(ServerSaid("relation \"orders\" does not exist")));
        assert_eq!(plain(&said()), "relation \"orders\" does not exist");
        let err = anyhow::Error::new(said()).context("scanning orders");
        assert_eq!(one_line(&err), "scanning orders: relation \"orders\" does not exist");
    }

    #[test]
    fn a_driver_wrapper_gives_way_to_its_source() {
        assert!(is_driver_wrapper("error communicating with database: x"));
        assert!(is_driver_wrapper("error occurred while attempting to establish a TLS connection"));
        assert!(!is_driver_wrapper("scanning orders"));
        // The wrapper holding its source's text whole is left out for it.
        let err = anyhow::anyhow!("TLS handshake failed; error occurred while attempting to connect")
            .context("error occurred while attempting to connect")
            .context("stuck");
        assert_eq!(one_line(&err), "stuck: TLS handshake failed; error occurred while attempting to connect");
        // Only a wrapper goes, and only for a cause that holds it.
        let other = anyhow::anyhow!("reset by peer").context("error communicating with database").context("reap");
        assert_eq!(one_line(&other), "reap: error communicating with database: reset by peer");
        let own = anyhow::anyhow!("scan of orders failed").context("scan");
        assert_eq!(one_line(&own), "scan: scan of orders failed");
        assert_eq!(repeated_segment("a: b: b: c"), Some((6, 9)));
        assert_eq!(repeated_segment("a: b: c"), None);
    }

    #[test]
    fn driver_causes_in_plain_words() {
        let said = |e: sqlx::Error| plain(&e);
        assert_eq!(
            said(sqlx::Error::Protocol("unexpected response from SSLRequest: 0x48".into())),
            "the server did not answer as PostgreSQL does (is this another server's port?)"
        );
        assert_eq!(
            said(sqlx::Error::Protocol("something else".into())),
            "encountered unexpected or invalid data: something else"
        );
        let inner: Box<dyn std::error::Error + Send + Sync> = "unknown parameter sslmod".into();
        assert_eq!(said(sqlx::Error::Configuration(inner)), "unknown parameter sslmod");
        // A driver's location suffix is cut; other parentheses stay.
        let located = io::Error::other("pool timed out (sqlx_core::pool:42)");
        assert_eq!(plain(&located), "pool timed out");
        let kept = io::Error::other("timed out (after 5s)");
        assert_eq!(plain(&kept), "timed out (after 5s)");
        let spelled = io::Error::other("pool (sqlx_core::pool:42) timed out");
        assert_eq!(plain(&spelled), "pool (sqlx_core::pool:42) timed out");
        let issuer = plain(&io::Error::other("invalid peer certificate: UnknownIssuer"));
        assert!(issuer.ends_with("give its CA with sslrootcert=PATH, or ssl-ca=PATH on MySQL)"), "{issuer}");
        for name in ["invalid peer certificate: NotValidForName", "certificate is only valid for db.internal"] {
            let text = plain(&io::Error::other(name));
            assert!(
                text.ends_with("(connect by a name the certificate holds, or verify the CA only: verify-ca)"),
                "{text}"
            );
        }
    }

    #[test]
    fn long_words_are_cut_at_200() {
        let at_limit = "x".repeat(200);
        assert_eq!(shorten(&at_limit), at_limit);
        let long = "y".repeat(201);
        assert_eq!(shorten(&format!("--where  {long}")), format!("--where {}... (201 characters)", "y".repeat(200)));
    }

    #[test]
    fn refused_certificates_are_sentences() {
        for (name, said) in [
            ("NotValidYet", "the server's certificate is not valid yet (are the clocks right?)"),
            ("Revoked", "the server's certificate has been revoked"),
            ("BadSignature", "the server's certificate has a signature that does not verify"),
            ("BadEncoding", "the server's certificate cannot be read (bad encoding)"),
            (
                "UnsupportedCertVersion",
                "the server's certificate is X.509 version 1, which this build's TLS refuses: issue it as version 3",
            ),
            (
                "UnhandledCriticalExtension",
                "the server's certificate has a critical extension this build's TLS does not know",
            ),
        ] {
            let text = format!("tls: invalid peer certificate: {name}");
            assert_eq!(tls_sentence(&text), Some(format!("tls: {said}")), "{name}");
        }
        assert_eq!(tls_sentence("invalid peer certificate: NotValidForName"), None);
        assert_eq!(tls_sentence("no certificate here"), None);
        let ca = tls_sentence("invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))").unwrap();
        assert!(ca.starts_with("the server's certificate is itself a certificate authority"), "{ca}");
        assert_eq!(
            tls_sentence("invalid peer certificate: Expired").as_deref(),
            Some("the server's certificate has expired")
        );
        assert_eq!(
            tls_sentence("invalid peer certificate: Other(OtherError(SomethingNew))").as_deref(),
            Some("the server's certificate was refused (SomethingNew)")
        );
        assert_eq!(tls_sentence("invalid peer certificate: certificate expired: verification time 5 (UNIX)"), None);
        assert_eq!(
            tls_sentence(
                "error communicating with database: invalid peer certificate: certificate expired: verification time \
                 1796413985 (UNIX), but certificate is not valid after 1577923200 (218490785 seconds ago)"
            )
            .as_deref(),
            Some("error communicating with database: the server's certificate expired on 2020-01-02 00:00 UTC")
        );
        assert_eq!(
            tls_sentence(
                "invalid peer certificate: certificate not valid yet: verification time 1796413985 (UNIX), but \
                 certificate is not valid before 4070908800 (2274494815 seconds in future)"
            )
            .as_deref(),
            Some("the server's certificate is not valid until 2099-01-01 00:00 UTC (are the clocks right?)")
        );
        assert_eq!(tls_sentence("invalid peer certificate: UnknownIssuer"), None);
    }
}
