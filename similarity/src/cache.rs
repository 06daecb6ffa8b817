//! Results kept between runs: the tiles of every compared pair of sources, keyed by the two
//! sources' digests. A run compares only pairs it has not seen (new submissions); the cache is
//! thrown away whole when the parameters or the template code change.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::tiling::Tile;

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Cache {
    /// The parameters and template code the tiles were computed with.
    settings: String,
    /// "digest-a digest-b" (a < b) -> tiles, `a` of each tile in the first source.
    pairs: HashMap<String, Vec<Tile>>,
}

/// A cache file over this size is not read (it is rebuilt): its content is ours, but a
/// damaged or planted file must not exhaust memory.
const MAX_CACHE_BYTES: u64 = 512 << 20;

impl Cache {
    /// An empty cache for these settings.
    pub fn new(settings: &str) -> Cache {
        Cache {
            settings: settings.to_string(),
            pairs: HashMap::new(),
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
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
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

    /// The tiles of the pair (`a`, `b`), oriented so that each tile's `a` is in `a`.
    pub(crate) fn get(&self, a: &str, b: &str) -> Option<Vec<Tile>> {
        if a <= b {
            self.pairs.get(&key(a, b)).cloned()
        } else {
            self.pairs.get(&key(b, a)).map(|t| crate::tiling::flip(t))
        }
    }

    pub(crate) fn put(&mut self, a: &str, b: &str, tiles: &[Tile]) {
        if a <= b {
            self.pairs.insert(key(a, b), tiles.to_vec());
        } else {
            self.pairs.insert(key(b, a), crate::tiling::flip(tiles));
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
        c.put("b", "a", &[Tile { a: 1, b: 2, len: 3 }]);
        assert!(c.save(&path).is_ok());
        let back = Cache::load(&path);
        assert_eq!(back.settings(), "s1");
        assert_eq!(back.get("b", "a"), Some(vec![Tile { a: 1, b: 2, len: 3 }]));
        assert_eq!(back.get("a", "b"), Some(vec![Tile { a: 2, b: 1, len: 3 }]));
        assert!(std::fs::write(&path, "{not json").is_ok());
        assert!(Cache::load(&path).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
