//! `arbiter`: referee for AI-bot contests on board games.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let cli = arbiter::cli::Cli::parse();
    match arbiter::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// `arbiter ... | head` closes our stdout early. Rust ignores SIGPIPE (which the referee needs:
/// a bot that dies must not kill it through its stdin pipe), so `println!` panics instead. Such
/// a panic ends the program quietly, as SIGPIPE would; every other panic is reported as usual.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            // 128 + SIGPIPE, what a shell shows for a program SIGPIPE ended.
            std::process::exit(141);
        }
        default(info);
    }));
}
