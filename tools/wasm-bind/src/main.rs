//! `wasm-bind IN.wasm OUT_DIR`: the web player's wasm-bindgen step, the same as
//! `wasm-bindgen --target no-modules --no-typescript --out-dir OUT_DIR IN.wasm`.
//!
//! Built from the `wasm-bindgen-cli-support` library that wasm-bindgen-cli itself runs, pinned
//! to the `wasm-bindgen` version in Cargo.lock, inside the workspace: `cargo install
//! wasm-bindgen-cli` also builds the CLI's test runner (a web server, an HTTP client, TLS),
//! which made a fresh machine's first build of the player take minutes more.
//! (The page inlines the wasm packed by LZMA: scripts/build-web.sh; Zopfli's gzip, which this
//! tool wrote before, is 15% larger.)

use std::path::PathBuf;
use std::process::ExitCode;

use wasm_bindgen_cli_support::Bindgen;

const USAGE: &str = "usage: wasm-bind IN.wasm OUT_DIR";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let done = match args.as_slice() {
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
