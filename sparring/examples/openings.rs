//! Writes the shipped opening suites: `cargo run --release -p arbiter-sparring --example
//! openings -- openings/` (the same files every time; docs/openings.md).

use std::path::PathBuf;

use arbiter_sparring::openings::{file_text, generate, suites};

fn main() -> anyhow::Result<()> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "openings".into()));
    std::fs::create_dir_all(&dir)?;
    for suite in suites() {
        let lines = generate(&suite)?;
        let path = dir.join(suite.file);
        std::fs::write(&path, file_text(&suite, &lines))?;
        println!("{}: {} openings", path.display(), lines.len());
    }
    Ok(())
}
