//! One module per subcommand, each with its arguments and its `run`.

pub mod demo;
pub mod scan;
pub mod stuck;

use anyhow::Result;

use crate::cli::Command;
use crate::exit::{Interrupted, Outcome};

/// Runs a subcommand; Ctrl-C or SIGTERM ends it with exit 130.
pub async fn run(command: Command) -> Result<Outcome> {
    let work = async {
        match command {
            Command::Scan(args) => scan::run(*args).await,
            Command::Demo(args) => demo::run(args).await,
            Command::Stuck(args) => stuck::run(*args).await,
        }
    };
    tokio::select! {
        result = work => result,
        () = interrupted() => Err(Interrupted.into()),
    }
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn interrupted() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
