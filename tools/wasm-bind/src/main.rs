//! `wasm-bind IN.wasm OUT_DIR`: the web player's wasm-bindgen step, the same as
//! `wasm-bindgen --target no-modules --no-typescript --out-dir OUT_DIR IN.wasm`.
//! `wasm-bind --gzip IN OUT`: IN compressed as gzip by Zopfli, for the player page to inline.
//!
//! Built from the `wasm-bindgen-cli-support` library that wasm-bindgen-cli itself runs, pinned
//! to the `wasm-bindgen` version in Cargo.lock, inside the workspace: `cargo install
//! wasm-bindgen-cli` also builds the CLI's test runner (a web server, an HTTP client, TLS),
//! which made a fresh machine's first build of the player take minutes more.
//!
//! Zopfli writes an ordinary gzip stream (the page inflates it with the browser's
//! `DecompressionStream`), about 5% smaller than `gzip -9`: 7 KB of the player's wasm, which is
//! most of the page (scripts/build-web.sh).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use wasm_bindgen_cli_support::Bindgen;

const USAGE: &str = "usage: wasm-bind IN.wasm OUT_DIR | wasm-bind --gzip IN OUT";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let done = match args.as_slice() {
        [flag, input, output] if flag == "--gzip" => gzip(Path::new(input), Path::new(output)),
        [input, out_dir] if !input.starts_with("--") => {
            bind(PathBuf::from(input), PathBuf::from(out_dir))
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wasm-bind: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Writes `<stem>.js` and `<stem>_bg.wasm` into `out_dir`, as the CLI does.
fn bind(input: PathBuf, out_dir: PathBuf) -> Result<(), anyhow::Error> {
    let mut b = Bindgen::new();
    b.input_path(input).typescript(false).no_modules(true)?;
    b.generate(out_dir)
}

/// `input` as gzip, compressed by Zopfli with its default effort (15 iterations; more gain
/// under 0.01% here). The header carries no name and no time, so the output depends on the
/// input only.
fn gzip(input: &Path, output: &Path) -> Result<(), anyhow::Error> {
    use anyhow::Context;
    let data = std::fs::read(input).with_context(|| format!("reading {}", input.display()))?;
    let mut out = Vec::with_capacity(data.len() / 2);
    zopfli::compress(
        zopfli::Options::default(),
        zopfli::Format::Gzip,
        data.as_slice(),
        &mut out,
    )
    .context("zopfli")?;
    std::fs::write(output, out).with_context(|| format!("writing {}", output.display()))
}
