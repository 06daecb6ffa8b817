//! The report's parameters; docs/similarity.md says why each default is what it is.

use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct Params {
    /// Tokens per k-gram for fingerprints.
    pub k: usize,
    /// Winnowing window (k-grams): any shared run of `window + k - 1` tokens is found.
    pub window: usize,
    /// Greedy string tiling's minimum match length (tokens).
    pub min_match: usize,
    /// A fingerprint in more owners' code than this finds no candidates (MOSS's `-m`).
    pub max_common: usize,
    /// A pair is tiled when it shares at least this share of the smaller file's fingerprints.
    pub min_candidate: f64,
    /// Pairs tiled in one report, at most (those sharing most fingerprints).
    pub max_tiled: usize,
    /// Larger sources are skipped with a note.
    pub max_bytes: usize,
    pub max_tokens: usize,
    /// Sources beyond this many are left out of one report, with a note.
    pub max_documents: usize,
    pub threads: usize,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            k: 12,
            window: 8,
            min_match: 12,
            max_common: 10,
            min_candidate: 0.1,
            max_tiled: 20_000,
            max_bytes: 1 << 20,
            max_tokens: 200_000,
            max_documents: 10_000,
            threads: crate::parallel::cores(),
        }
    }
}
