//! Results kept between runs: the tiles of every compared pair of sources, keyed by the two
//! sources' digests. A run compares only pairs it has not seen (new submissions); the cache is
//! thrown away whole when the parameters or the template code change. It keeps the pairs used
//! most recently, at most [`MAX_ENTRIES`], so that it cannot grow without end.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::tiling::Tile;

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Cache {
    /// The parameters and template code the tiles were computed with.
    settings: String,
    /// Runs of the report so far: an entry's `seen` is the last run that used it.
    runs: u64,
    /// "digest-a digest-b" (a < b) -> tiles, `a` of each tile in the first source.
    pairs: HashMap<String, Stored>,
    /// Sources the parser did not finish within its budget -> the last run that read one:
    /// they are read by the lexer at once, rather than cost the parser's budget every run.
    lexed: HashMap<String, u64>,
}

/// The result of one pair's tiling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub tiles: Vec<Tile>,
    /// The tiling finished within its work budget.
    pub complete: bool,
}

#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    tiles: Vec<Tile>,
    complete: bool,
    seen: u64,
}

/// A cache file over this size is not read (it is rebuilt): its content is ours, but a
/// damaged or planted file must not exhaust memory.
const MAX_CACHE_BYTES: u64 = 128 << 20;

/// Pairs kept, at most: those used most recently.
pub const MAX_ENTRIES: usize = 200_000;

impl Cache {
    /// An empty cache for these settings.
    pub fn new(settings: &str) -> Cache {
        Cache {
            settings: settings.to_string(),
            runs: 0,
            pairs: HashMap::new(),
            lexed: HashMap::new(),
        }
    }

    /// Reads `path`; a missing, damaged or oversized file gives an empty cache (and one made
    /// with other settings is emptied by [`crate::analyse`]).
    pub fn load(path: &Path) -> Cache {
        let fresh = Cache::default;
        match std::fs::metadata(path) {
            Ok(m) if m.len() <= MAX_CACHE_BYTES => {}
            _ => return fresh(),
        }
        let Ok(text) = std::fs::read_to_string(path) else {
            return fresh();
        };
        match serde_json::from_str::<Cache>(&text) {
            Ok(c) => c,
            Err(_) => fresh(),
        }
    }

    /// Writes the cache next to `path` and renames it into place, so a reader never sees half
    /// a file.
    pub fn save(&mut self, path: &Path) -> std::io::Result<()> {
        self.prune(MAX_ENTRIES);
        let tmp = path.with_extension("tmp");
        let text = serde_json::to_string(self).map_err(std::io::Error::other)?;
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, path)
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    pub(crate) fn settings(&self) -> &str {
        &self.settings
    }

    /// A new run of the report begins: what it uses is the most recent.
    pub(crate) fn begin_run(&mut self) {
        self.runs += 1;
    }

    /// The tiles of the pair (`a`, `b`), oriented so that each tile's `a` is in `a`.
    pub(crate) fn get(&mut self, a: &str, b: &str) -> Option<Entry> {
        let flipped = a > b;
        let stored = self.pairs.get_mut(&key(a.min(b), a.max(b)))?;
        stored.seen = self.runs;
        let tiles = if flipped {
            crate::tiling::flip(&stored.tiles)
        } else {
            stored.tiles.clone()
        };
        Some(Entry {
            tiles,
            complete: stored.complete,
        })
    }

    pub(crate) fn put(&mut self, a: &str, b: &str, entry: &Entry) {
        let tiles = if a > b {
            crate::tiling::flip(&entry.tiles)
        } else {
            entry.tiles.clone()
        };
        let stored = Stored {
            tiles,
            complete: entry.complete,
            seen: self.runs,
        };
        self.pairs.insert(key(a.min(b), a.max(b)), stored);
    }

    /// The parser is known not to finish this source (by its digest) within its budget.
    pub(crate) fn is_lexed(&self, digest: &str) -> bool {
        self.lexed.contains_key(digest)
    }

    pub(crate) fn mark_lexed(&mut self, digest: &str) {
        self.lexed.insert(digest.to_string(), self.runs);
    }

    /// Keeps the `max` entries used most recently.
    fn prune(&mut self, max: usize) {
        if self.lexed.len() > max {
            let mut seen: Vec<u64> = self.lexed.values().copied().collect();
            seen.sort_unstable_by(|x, y| y.cmp(x));
            let oldest_kept = seen[max - 1];
            self.lexed.retain(|_, s| *s >= oldest_kept);
        }
        if self.pairs.len() <= max {
            return;
        }
        let mut seen: Vec<u64> = self.pairs.values().map(|s| s.seen).collect();
        seen.sort_unstable_by(|x, y| y.cmp(x));
        let oldest_kept = seen[max - 1];
        self.pairs.retain(|_, s| s.seen >= oldest_kept);
        // Ties at the boundary: drop the excess in key order, so that the result is stable.
        if self.pairs.len() > max {
            let mut keys: Vec<String> = self
                .pairs
                .iter()
                .filter(|(_, s)| s.seen == oldest_kept)
                .map(|(k, _)| k.clone())
                .collect();
            keys.sort();
            for k in keys.into_iter().take(self.pairs.len() - max) {
                self.pairs.remove(&k);
            }
        }
    }
}

fn key(a: &str, b: &str) -> String {
    format!("{a} {b}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_orientation_and_settings() {
        let dir = std::env::temp_dir().join(format!("sim-cache-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("cache.json");
        let mut c = Cache::new("s1");
        let entry = |a, b, complete| Entry {
            tiles: vec![Tile { a, b, len: 3 }],
            complete,
        };
        c.put("b", "a", &entry(1, 2, false));
        assert!(c.save(&path).is_ok());
        let mut back = Cache::load(&path);
        assert_eq!(back.settings(), "s1");
        assert_eq!(back.get("b", "a"), Some(entry(1, 2, false)));
        assert_eq!(back.get("a", "b"), Some(entry(2, 1, false)));
        assert!(std::fs::write(&path, "{not json").is_ok());
        assert!(Cache::load(&path).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_most_recently_used_entries_are_kept() {
        let mut c = Cache::new("s");
        let e = Entry {
            tiles: vec![],
            complete: true,
        };
        for run in 0..5 {
            c.begin_run();
            c.put(&format!("x{run}"), "y", &e);
        }
        c.begin_run();
        assert!(c.get("x0", "y").is_some());
        c.prune(2);
        assert_eq!(c.len(), 2);
        assert!(c.get("x0", "y").is_some() && c.get("x4", "y").is_some());
    }
}
