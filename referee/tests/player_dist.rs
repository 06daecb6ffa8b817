//! The web player every binary carries (www/dist/player.html, checked in) is in step with its
//! sources: www/dist/player.sources records the sha256 of each file it was built from, and
//! this fails when one of them changed, appeared or went since. The fix is to rebuild it:
//! `bash scripts/player-dist.sh`, and commit both files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn root() -> PathBuf {
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

#[test]
fn the_carried_player_is_built_from_the_current_sources() {
    let record = std::fs::read_to_string(root().join("www/dist/player.sources"))
        .expect("www/dist/player.sources (scripts/player-dist.sh writes it)");
    let mut lines = record.lines();
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
    assert!(
        stale.is_empty(),
        "www/dist/player.html is older than its sources: run `bash scripts/player-dist.sh` \
         and commit www/dist. Since it was built:\n  {}",
        stale.join("\n  ")
    );
    assert!(root().join("www/dist/player.html").is_file());
}
