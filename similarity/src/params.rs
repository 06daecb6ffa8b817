//! The report's parameters; docs/similarity.md says why each default is what it is.

use serde::Serialize;

use crate::tiling::Budget;
use crate::tokens::ParseBudget;

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
    /// Pairs of versions tiled for one pair of owners, at most (those sharing most).
    pub max_version_pairs: usize,
    /// Larger sources are skipped with a note.
    pub max_bytes: usize,
    pub max_tokens: usize,
    /// Sources beyond this many are left out of one report, with a note.
    pub max_documents: usize,
    /// Versions of one owner in one report, at most (the latest).
    pub max_versions: usize,
    /// Bytes and tokens of all sources of one report, at most: past them each owner keeps a
    /// fair share (their latest versions), so that no one's sources crowd out the others'.
    pub max_total_bytes: usize,
    pub max_total_tokens: usize,
    /// Steps the fingerprint index may spend counting shared fingerprints per pair; past
    /// them the fingerprints found in most sources are not counted.
    pub max_index_steps: u64,
    /// The parser's CPU time per source, past which the lexer reads it.
    pub parse: ParseBudget,
    /// The tiling's steps per pair, past which the pair is reported as cut.
    pub tiling: Budget,
    /// Matched regions listed per pair, at most (the longest; matched tokens count them all).
    pub max_regions: usize,
    pub threads: usize,
    /// The worker threads' nice value (0: as the caller's): a report on a contest's server
    /// runs below its games and its pages.
    pub nice: i32,
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
            max_version_pairs: 10,
            max_bytes: 1 << 20,
            max_tokens: 200_000,
            max_documents: 10_000,
            max_versions: 50,
            max_total_bytes: 64 << 20,
            max_total_tokens: 16_000_000,
            max_index_steps: 50_000_000,
            parse: ParseBudget::default(),
            tiling: Budget::default(),
            max_regions: 500,
            threads: crate::parallel::cores(),
            nice: 0,
        }
    }
}
