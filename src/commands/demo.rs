//! `idemctl demo`: an SQLite database with realistic retry damage.

use anyhow::Result;
use clap::Args;

use crate::exit::Outcome;

#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Where to create the database
    #[arg(long, value_name = "FILE", default_value = "idemctl-demo.db")]
    pub path: std::path::PathBuf,
}

pub async fn run(_args: DemoArgs) -> Result<Outcome> {
    Ok(Outcome::Clean)
}
