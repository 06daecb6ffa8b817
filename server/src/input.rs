//! Reading files given on the command line with a size bound, so that `/dev/zero` or a
//! mistaken path ends in a clear error instead of eating memory.

use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context};

/// The file's bytes, refusing more than `max`.
pub fn read_bytes(path: &Path, max: u64) -> anyhow::Result<Vec<u8>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > max {
        bail!(
            "{} is larger than {} KB: not a file this command reads",
            path.display(),
            max / 1024
        );
    }
    Ok(bytes)
}

/// The file as UTF-8 text, refusing more than `max` bytes.
pub fn read_text(path: &Path, max: u64) -> anyhow::Result<String> {
    String::from_utf8(read_bytes(path, max)?)
        .with_context(|| format!("{} is not UTF-8 text", path.display()))
}
