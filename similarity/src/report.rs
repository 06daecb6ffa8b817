//! The report: every pair of owners ranked by how much of their code is shared, per language.
//!
//! Winnowed fingerprints find the candidate pairs (an inverted index, MOSS); greedy string
//! tiling then measures each candidate pair exactly (JPlag) and gives its matched regions.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::cache::Cache;
use crate::corpus::{hex, Corpus, Document, Origin, Template};
use crate::fingerprint::{kgram_hashes, template_mask, winnow};
use crate::language::Language;
use crate::params::Params;
use crate::tiling::{covered, tile, Seeds, Stream, Tile};
use crate::tokens::{tokenise, Token};

/// One side of a pair.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    pub owner: String,
    pub version: String,
    pub id: Option<i64>,
    pub origin: Origin,
    pub tokens: usize,
    /// The share of this file's tokens in the matched regions.
    pub share: f64,
}

/// A matched region: the same tokens at these lines of each side (1-based, inclusive).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Region {
    pub a_lines: (u32, u32),
    pub b_lines: (u32, u32),
    pub tokens: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct Pair {
    pub language: Language,
    pub a: Side,
    pub b: Side,
    /// `b` is an earlier year's source, not a student of this contest.
    pub earlier: bool,
    /// 2 * matched / (tokens of a + tokens of b): 1 for identical token streams.
    pub similarity: f64,
    pub matched_tokens: usize,
    /// The longest matched region, in lines of `a`, and in tokens.
    pub longest_lines: u32,
    pub longest_tokens: usize,
    /// Longest first.
    pub regions: Vec<Region>,
}

/// A source left out, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    pub owner: String,
    pub version: String,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize, Default)]
pub struct Counts {
    pub documents: usize,
    pub candidate_pairs: usize,
    /// Pairs tiled in this run; the others came from the cache.
    pub compared: usize,
    pub from_cache: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub params: Params,
    pub counts: Counts,
    /// Best pair of versions per pair of owners, highest similarity first.
    pub pairs: Vec<Pair>,
    pub skipped: Vec<Skipped>,
}

/// A document ready to compare.
struct Prepared<'c> {
    doc: &'c Document,
    digest: String,
    tokens: Vec<Token>,
    symbols: Vec<u32>,
    mask: Vec<bool>,
    seeds: Seeds,
    fingerprints: Vec<u64>,
}

impl Prepared<'_> {
    fn stream(&self) -> Stream<'_> {
        Stream {
            symbols: &self.symbols,
            mask: &self.mask,
            seeds: &self.seeds,
        }
    }
}

/// Runs the report over `corpus`, reusing and filling `cache`.
pub fn analyse(corpus: &Corpus, params: &Params, cache: &mut Cache) -> Report {
    let mut skipped = Vec::new();
    let templates = template_hashes(&corpus.templates, params, &mut skipped);
    let settings = settings(params, &corpus.templates);
    if cache.settings() != settings {
        *cache = Cache::new(&settings);
    }
    let documents = bounded(&corpus.documents, params.max_documents, &mut skipped);
    let prepared = prepare(documents, params, &templates, &mut skipped);
    let candidates = candidates(&prepared, params, &mut skipped);
    let mut counts = Counts {
        documents: prepared.len(),
        candidate_pairs: candidates.len(),
        ..Counts::default()
    };
    let tiled = tile_pairs(&prepared, &candidates, params, cache, &mut counts);
    let pairs = best_per_owner_pair(&prepared, tiled);
    Report {
        params: params.clone(),
        counts,
        pairs,
        skipped,
    }
}

/// What the cache's results depend on: the parameters, the tokeniser, the template code.
fn settings(params: &Params, templates: &[Template]) -> String {
    let mut h = Sha256::new();
    let mut sorted: Vec<&Template> = templates.iter().collect();
    sorted.sort_by(|x, y| (x.language, &x.source).cmp(&(y.language, &y.source)));
    for t in sorted {
        h.update(t.language.name().as_bytes());
        h.update([0]);
        h.update(t.source.as_bytes());
        h.update([0]);
    }
    format!(
        "tokens-v{} k={} mml={} templates={}",
        crate::tokens::VERSION,
        params.k,
        params.min_match,
        hex(&h.finalize()[..16])
    )
}

fn bounded<'c>(docs: &'c [Document], max: usize, skipped: &mut Vec<Skipped>) -> &'c [Document] {
    if docs.len() <= max {
        return docs;
    }
    skipped.push(Skipped {
        owner: format!("{} sources", docs.len() - max),
        version: String::new(),
        reason: format!("over the limit of {max} sources in one report"),
    });
    &docs[..max]
}

/// Every k-gram hash of the template code, per language.
fn template_hashes(
    templates: &[Template],
    params: &Params,
    skipped: &mut Vec<Skipped>,
) -> HashMap<Language, HashSet<u64>> {
    let mut out: HashMap<Language, HashSet<u64>> = HashMap::new();
    for t in templates {
        match tokenise(t.language, &t.source, params.max_bytes, params.max_tokens) {
            Ok(tokens) => {
                let symbols: Vec<u32> = tokens.iter().map(|t| t.symbol).collect();
                out.entry(t.language)
                    .or_default()
                    .extend(kgram_hashes(&symbols, params.k));
            }
            Err(e) => skipped.push(Skipped {
                owner: "template".into(),
                version: t.name.clone(),
                reason: e.to_string(),
            }),
        }
    }
    out
}

fn prepare<'c>(
    docs: &'c [Document],
    params: &Params,
    templates: &HashMap<Language, HashSet<u64>>,
    skipped: &mut Vec<Skipped>,
) -> Vec<Prepared<'c>> {
    let empty = HashSet::new();
    let results = crate::parallel::map(docs, params.threads, |doc| {
        prepare_one(doc, params, templates.get(&doc.language).unwrap_or(&empty))
    });
    let mut out = Vec::with_capacity(docs.len());
    for (doc, r) in docs.iter().zip(results) {
        match r {
            Ok(p) => out.push(p),
            Err(reason) => skipped.push(Skipped {
                owner: doc.owner.clone(),
                version: doc.version.clone(),
                reason,
            }),
        }
    }
    out
}

fn prepare_one<'c>(
    doc: &'c Document,
    params: &Params,
    template: &HashSet<u64>,
) -> Result<Prepared<'c>, String> {
    let tokens = tokenise(
        doc.language,
        &doc.source,
        params.max_bytes,
        params.max_tokens,
    )
    .map_err(|e| e.to_string())?;
    let symbols: Vec<u32> = tokens.iter().map(|t| t.symbol).collect();
    let hashes = kgram_hashes(&symbols, params.k);
    let mask = template_mask(&hashes, params.k, template, symbols.len());
    let mut fingerprints: Vec<u64> = winnow(&hashes, params.window)
        .into_iter()
        .filter(|f| !template.contains(&f.hash))
        .map(|f| f.hash)
        .collect();
    fingerprints.sort_unstable();
    fingerprints.dedup();
    Ok(Prepared {
        doc,
        digest: doc.digest(),
        seeds: Seeds::new(&symbols, params.min_match),
        tokens,
        symbols,
        mask,
        fingerprints,
    })
}

/// Pairs of documents (indices, first < second) worth tiling, best first.
///
/// A fingerprint found in more than `max_common` owners' code is an idiom or a widely shared
/// snippet, as in MOSS's `-m`: it finds no candidates (but is still tiled when the pair is a
/// candidate for other reasons). A pair is a candidate when the fingerprints it shares are at
/// least `min_candidate` of the smaller file's (winnowing keeps a density of fingerprints, so
/// this estimates how much of that file is shared); at most `max_tiled` pairs, those sharing
/// most, are tiled.
fn candidates(
    prepared: &[Prepared<'_>],
    params: &Params,
    skipped: &mut Vec<Skipped>,
) -> Vec<(usize, usize)> {
    let shared = shared_fingerprints(prepared, params.max_common);
    let mut scored: Vec<(f64, (usize, usize))> = shared
        .into_iter()
        .filter_map(|((i, j), n)| {
            let smaller = prepared[i]
                .fingerprints
                .len()
                .min(prepared[j].fingerprints.len());
            let share = ratio(n as usize, smaller);
            (share >= params.min_candidate).then_some((share, (i, j)))
        })
        .collect();
    scored.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    if scored.len() > params.max_tiled {
        skipped.push(Skipped {
            owner: format!("{} pairs", scored.len() - params.max_tiled),
            version: String::new(),
            reason: format!(
                "not measured: only the {} pairs sharing most fingerprints are",
                params.max_tiled
            ),
        });
        scored.truncate(params.max_tiled);
    }
    scored.into_iter().map(|(_, p)| p).collect()
}

/// How many fingerprints (not too common) each comparable pair shares.
fn shared_fingerprints(
    prepared: &[Prepared<'_>],
    max_common: usize,
) -> HashMap<(usize, usize), u32> {
    let mut index: HashMap<(Language, u64), Vec<usize>> = HashMap::new();
    for (i, p) in prepared.iter().enumerate() {
        for &h in &p.fingerprints {
            index.entry((p.doc.language, h)).or_default().push(i);
        }
    }
    let mut pairs: HashMap<(usize, usize), u32> = HashMap::new();
    for docs in index.values() {
        let owners: HashSet<&str> = docs
            .iter()
            .map(|&i| prepared[i].doc.owner.as_str())
            .collect();
        if owners.len() < 2 || owners.len() > max_common {
            continue;
        }
        for (n, &i) in docs.iter().enumerate() {
            for &j in &docs[n + 1..] {
                if comparable(prepared[i].doc, prepared[j].doc) {
                    *pairs.entry((i.min(j), i.max(j))).or_default() += 1;
                }
            }
        }
    }
    pairs
}

/// Two versions of one owner, or two earlier years' sources, are not a finding.
fn comparable(a: &Document, b: &Document) -> bool {
    a.owner != b.owner && !(a.origin == Origin::Earlier && b.origin == Origin::Earlier)
}

/// Tiles of each candidate pair, from the cache or computed (in parallel).
fn tile_pairs(
    prepared: &[Prepared<'_>],
    candidates: &[(usize, usize)],
    params: &Params,
    cache: &mut Cache,
    counts: &mut Counts,
) -> Vec<((usize, usize), Vec<Tile>)> {
    let mut out = Vec::with_capacity(candidates.len());
    let mut todo = Vec::new();
    for &(i, j) in candidates {
        match cache.get(&prepared[i].digest, &prepared[j].digest) {
            Some(tiles) => out.push(((i, j), tiles)),
            None => todo.push((i, j)),
        }
    }
    counts.from_cache = out.len();
    counts.compared = todo.len();
    let computed = crate::parallel::map(&todo, params.threads, |&(i, j)| {
        tile(prepared[i].stream(), prepared[j].stream())
    });
    for (&(i, j), tiles) in todo.iter().zip(computed) {
        cache.put(&prepared[i].digest, &prepared[j].digest, &tiles);
        out.push(((i, j), tiles));
    }
    out
}

/// Per pair of owners and language, the pair of versions that shares most.
fn best_per_owner_pair(
    prepared: &[Prepared<'_>],
    tiled: Vec<((usize, usize), Vec<Tile>)>,
) -> Vec<Pair> {
    let mut best: HashMap<(Language, String, String), Pair> = HashMap::new();
    for ((i, j), tiles) in tiled {
        if tiles.is_empty() {
            continue;
        }
        let pair = make_pair(&prepared[i], &prepared[j], &tiles);
        let key = (pair.language, pair.a.owner.clone(), pair.b.owner.clone());
        let better = best.get(&key).is_none_or(|p| rank(&pair, p).is_lt());
        if better {
            best.insert(key, pair);
        }
    }
    let mut pairs: Vec<Pair> = best.into_values().collect();
    pairs.sort_by(rank);
    pairs
}

/// Highest similarity first, then most tokens shared, then by names (a stable order).
pub fn rank(x: &Pair, y: &Pair) -> std::cmp::Ordering {
    y.similarity
        .total_cmp(&x.similarity)
        .then(y.matched_tokens.cmp(&x.matched_tokens))
        .then_with(|| (&x.a.owner, &x.b.owner).cmp(&(&y.a.owner, &y.b.owner)))
}

/// The pair, oriented: an earlier year's source is always `b`; otherwise owners in order.
fn make_pair(p: &Prepared<'_>, q: &Prepared<'_>, tiles: &[Tile]) -> Pair {
    let swap = p.doc.origin == Origin::Earlier
        || (q.doc.origin == Origin::Student && q.doc.owner < p.doc.owner);
    let (a, b, tiles) = if swap {
        (q, p, crate::tiling::flip(tiles))
    } else {
        (p, q, tiles.to_vec())
    };
    let matched = covered(&tiles);
    let regions: Vec<Region> = tiles.iter().map(|t| region(a, b, t)).collect();
    let longest = regions.first();
    Pair {
        language: a.doc.language,
        earlier: b.doc.origin == Origin::Earlier,
        similarity: ratio(2 * matched, a.symbols.len() + b.symbols.len()),
        matched_tokens: matched,
        longest_lines: longest.map_or(0, |r| r.a_lines.1 - r.a_lines.0 + 1),
        longest_tokens: longest.map_or(0, |r| r.tokens),
        a: side(a, matched),
        b: side(b, matched),
        regions,
    }
}

fn side(p: &Prepared<'_>, matched: usize) -> Side {
    Side {
        owner: p.doc.owner.clone(),
        version: p.doc.version.clone(),
        id: p.doc.id,
        origin: p.doc.origin,
        tokens: p.symbols.len(),
        share: ratio(matched, p.symbols.len()),
    }
}

fn region(a: &Prepared<'_>, b: &Prepared<'_>, t: &Tile) -> Region {
    let lines = |p: &Prepared<'_>, at: usize| {
        let first = p.tokens.get(at).map_or(0, |t| t.line);
        let last = p.tokens.get(at + t.len - 1).map_or(first, |t| t.end_line);
        (first, last.max(first))
    };
    Region {
        a_lines: lines(a, t.a),
        b_lines: lines(b, t.b),
        tokens: t.len,
    }
}

fn ratio(n: usize, d: usize) -> f64 {
    if d == 0 {
        0.0
    } else {
        n as f64 / d as f64
    }
}
