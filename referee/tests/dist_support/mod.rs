//! What the tests of checked-in builds share (the carried player, the carried game modules):
//! a `*.sources` record, written by the build's script, lists the sha256 of each file the
//! build came from under its `# roots: ...`; a build is in step while none of those files
//! changed, appeared or went since.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file under `rel` (a file or a directory), by path relative to the repository.
fn files(rel: &str, out: &mut Vec<String>) {
    let path = root().join(rel);
    if path.is_file() {
        out.push(rel.to_string());
        return;
    }
    let entries = std::fs::read_dir(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    for entry in entries {
        let name = entry.expect("dir entry").file_name();
        files(&format!("{rel}/{}", name.to_string_lossy()), out);
    }
}

fn sha256(rel: &str) -> String {
    let bytes = std::fs::read(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The sources that changed, appeared or went since the record `record` (a path relative to
/// the repository) was written, each with what happened to it.
pub fn stale_sources(record: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(record))
        .unwrap_or_else(|e| panic!("{record} (its build script writes it): {e}"));
    let mut lines = text.lines();
    let roots = lines
        .next()
        .and_then(|l| l.strip_prefix("# roots: "))
        .expect("a first line `# roots: ...`");
    let recorded: BTreeMap<&str, &str> = lines
        .filter_map(|l| l.split_once("  "))
        .map(|(hash, path)| (path, hash))
        .collect();
    let mut now = Vec::new();
    for r in roots.split_whitespace() {
        files(r, &mut now);
    }
    let mut stale = Vec::new();
    for path in &now {
        match recorded.get(path.as_str()) {
            None => stale.push(format!("{path} (new)")),
            Some(h) if *h != sha256(path) => stale.push(format!("{path} (changed)")),
            Some(_) => {}
        }
    }
    for path in recorded.keys() {
        if !now.iter().any(|p| p == path) {
            stale.push(format!("{path} (gone)"));
        }
    }
    stale
}
