//! `arbiter`: referee for AI-bot contests on board games.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = arbiter::cli::Cli::parse();
    match arbiter::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
