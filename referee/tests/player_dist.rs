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

/// The web player's size budget (issue 26): 150 KB gzipped, in decimal kilobytes.
const GZIPPED_BUDGET: usize = 150_000;

fn gzipped(bytes: &[u8], level: u32) -> usize {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    gz.write_all(bytes).expect("gzip in memory");
    gz.finish().expect("gzip in memory").len()
}

/// The carried player, gzipped as a server sends it (flate2 with its default level, 6, as
/// `contest serve`'s compression layer does; level 9 beside it), stays within its budget. The
/// figures are printed: `cargo test -p arbiter --test player_dist -- --nocapture`.
#[test]
fn the_carried_player_is_within_its_size_budget() {
    let html = std::fs::read(root().join("www/dist/player.html")).expect("www/dist/player.html");
    let (served, best) = (gzipped(&html, 6), gzipped(&html, 9));
    println!(
        "www/dist/player.html: {} bytes, gzipped {served} bytes (level 6), {best} bytes (level 9); \
         budget {GZIPPED_BUDGET} bytes",
        html.len()
    );
    assert!(
        served.max(best) <= GZIPPED_BUDGET,
        "the player is {} bytes gzipped, over its budget of {GZIPPED_BUDGET} bytes \
         (player-web/README.md says where its bytes go)",
        served.max(best)
    );
}
