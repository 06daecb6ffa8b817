//! Copied code between students: a report of pairs of sources ranked by shared code.
//!
//! Sources are tokenised with tree-sitter (C, C++, Python) into normalised tokens
//! ([`tokens`]); winnowed k-gram fingerprints find candidate pairs ([`fingerprint`]); greedy
//! string tiling measures each candidate and finds its matched regions ([`tiling`]). Template
//! code never counts as shared; earlier years' sources are matched as such ([`corpus`]).
//! Results are kept per pair of source digests ([`cache`]).

pub mod budget;
pub mod cache;
pub mod corpus;
pub mod export;
pub mod fair;
pub mod fingerprint;
pub mod language;
pub mod lexer;
mod parallel;
pub mod params;
pub mod parser_memory;
pub mod report;
pub mod tiling;
pub mod tokens;
pub mod view;

pub use cache::{Cache, Entry};
pub use corpus::{Corpus, Document, Origin, Template};
pub use language::Language;
pub use params::Params;
pub use report::{analyse, Counts, Pair, Region, Report, Side, Skipped};
pub use tiling::{Budget, Tiling};
pub use tokens::{ParseBudget, Reader};
