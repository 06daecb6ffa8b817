//! The report: every pair of owners ranked by how much of their code is shared, per language.
//!
//! Winnowed fingerprints find the candidate pairs (an inverted index, MOSS); greedy string
//! tiling then measures each candidate pair exactly (JPlag) and gives its matched regions.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::cache::{Cache, Entry};
use crate::corpus::{hex, Corpus, Document, Origin, Template};
use crate::fingerprint::{kgram_hashes, template_mask, winnow};
use crate::language::Language;
use crate::params::Params;
use crate::tiling::{covered, tile, Seeds, Stream, Tile};
use crate::tokens::{read, Reader, Token};

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
    /// False when the tiling ran out of its work budget: the pair shares at least this much
    /// (the longest regions are found first), and is listed as cut.
    pub complete: bool,
    /// Matched regions in all (`regions` lists the longest `max_regions` of them).
    pub region_count: usize,
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
    /// Pairs whose tiling ran out of its work budget (listed, marked as cut).
    pub cut: usize,
    /// Sources the parser did not finish within its budget, read by the lexer.
    pub lexed: usize,
    /// Tokens of all compared sources, and the steps their tiling took in this run.
    pub tokens: usize,
    pub tiling_steps: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub params: Params,
    pub counts: Counts,
    /// Best pair of versions per pair of owners, highest similarity first.
    pub pairs: Vec<Pair>,
    pub skipped: Vec<Skipped>,
    /// Sources compared, but read otherwise than usual (by the lexer), with why.
    pub notes: Vec<Skipped>,
}

/// A document ready to compare: about 20 bytes a token.
struct Prepared<'c> {
    doc: &'c Document,
    /// The cache's key: the source's digest, and the tokeniser that read it.
    digest: String,
    symbols: Vec<u32>,
    lines: Lines,
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

/// Each token's first line, and the last line of the few tokens that span lines (block
/// strings): four bytes a token rather than eight.
struct Lines {
    first: Vec<u32>,
    /// (token, last line), by token.
    multiline: Vec<(u32, u32)>,
}

impl Lines {
    fn new(tokens: &[Token]) -> Lines {
        Lines {
            first: tokens.iter().map(|t| t.line).collect(),
            multiline: tokens
                .iter()
                .enumerate()
                .filter(|(_, t)| t.end_line > t.line)
                .map(|(n, t)| (u32::try_from(n).unwrap_or(u32::MAX), t.end_line))
                .collect(),
        }
    }

    fn first(&self, at: usize) -> u32 {
        self.first.get(at).copied().unwrap_or(0)
    }

    fn last(&self, at: usize) -> u32 {
        let n = u32::try_from(at).unwrap_or(u32::MAX);
        match self.multiline.binary_search_by_key(&n, |m| m.0) {
            Ok(k) => self.multiline[k].1,
            Err(_) => self.first(at),
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
    cache.begin_run();
    let documents = crate::budget::admitted(&corpus.documents, params, &mut skipped);
    let mut notes = Vec::new();
    let prepared = prepare(
        &documents,
        params,
        &templates,
        cache,
        &mut skipped,
        &mut notes,
    );
    for p in prepared.iter().filter(|p| p.digest.ends_with(LEXED)) {
        cache.mark_lexed(p.digest.trim_end_matches(LEXED));
    }
    let candidates = candidates(&prepared, params, &mut skipped);
    let mut counts = Counts {
        documents: prepared.len(),
        candidate_pairs: candidates.len(),
        lexed: notes.len(),
        tokens: prepared.iter().map(|p| p.symbols.len()).sum(),
        ..Counts::default()
    };
    let tiled = tile_pairs(&prepared, &candidates, params, cache, &mut counts);
    let pairs = best_per_owner_pair(&prepared, tiled, params.max_regions);
    counts.cut = pairs.iter().filter(|p| !p.complete).count();
    Report {
        params: params.clone(),
        counts,
        pairs,
        skipped,
        notes,
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
        "tokens-v{} k={} mml={} tiling-v2 steps={}/token+{} templates={}",
        crate::tokens::VERSION,
        params.k,
        params.min_match,
        params.tiling.per_token,
        params.tiling.base,
        hex(&h.finalize()[..16])
    )
}

/// Every k-gram hash of the template code, per language.
fn template_hashes(
    templates: &[Template],
    params: &Params,
    skipped: &mut Vec<Skipped>,
) -> HashMap<Language, HashSet<u64>> {
    let mut out: HashMap<Language, HashSet<u64>> = HashMap::new();
    for t in templates {
        let read = read(
            t.language,
            &t.source,
            params.max_bytes,
            params.max_tokens,
            params.parse,
        );
        match read.map(|r| r.tokens) {
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
    docs: &[&'c Document],
    params: &Params,
    templates: &HashMap<Language, HashSet<u64>>,
    cache: &Cache,
    skipped: &mut Vec<Skipped>,
    notes: &mut Vec<Skipped>,
) -> Vec<Prepared<'c>> {
    let empty = HashSet::new();
    let results = crate::parallel::map_nice(docs, params.threads, params.nice, |doc| {
        let template = templates.get(&doc.language).unwrap_or(&empty);
        prepare_one(doc, params, template, cache)
    });
    let mut out = Vec::with_capacity(docs.len());
    for (doc, r) in docs.iter().zip(results) {
        match r {
            Ok(p) => {
                if p.digest.ends_with(LEXED) {
                    notes.push(Skipped {
                        owner: doc.owner.clone(),
                        version: doc.version.clone(),
                        reason: format!(
                            "read by the lexer: the {} parser did not finish within {} ms of CPU",
                            doc.language,
                            params.parse.for_bytes(doc.source.len()).as_millis()
                        ),
                    });
                }
                out.push(p)
            }
            Err(reason) => skipped.push(Skipped {
                owner: doc.owner.clone(),
                version: doc.version.clone(),
                reason,
            }),
        }
    }
    out
}

/// The cache key's suffix for a source read by the lexer: its tiles index other tokens.
const LEXED: &str = "-lexed";

fn prepare_one<'c>(
    doc: &'c Document,
    params: &Params,
    template: &HashSet<u64>,
    cache: &Cache,
) -> Result<Prepared<'c>, String> {
    let mut digest = doc.digest();
    let (bytes, tokens) = (params.max_bytes, params.max_tokens);
    let read = if cache.is_lexed(&digest) {
        crate::tokens::lex_only(doc.language, &doc.source, bytes, tokens)
    } else {
        read(doc.language, &doc.source, bytes, tokens, params.parse)
    }
    .map_err(|e| e.to_string())?;
    let tokens = read.tokens;
    if read.reader == Reader::Lexer {
        digest.push_str(LEXED);
    }
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
    fingerprints.shrink_to_fit();
    Ok(Prepared {
        doc,
        digest,
        seeds: Seeds::new(&symbols, params.min_match),
        lines: Lines::new(&tokens),
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
/// this estimates how much of that file is shared); of one pair of owners at most
/// `max_version_pairs` pairs of versions, and in all at most `max_tiled` pairs, those sharing
/// most, are tiled.
fn candidates(
    prepared: &[Prepared<'_>],
    params: &Params,
    skipped: &mut Vec<Skipped>,
) -> Vec<(usize, usize)> {
    let shared = shared_fingerprints(prepared, params, skipped);
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
    let mut per_owners: HashMap<(&str, &str), usize> = HashMap::new();
    let mut versions_cut = 0;
    scored.retain(|&(_, (i, j))| {
        let (x, y) = (
            prepared[i].doc.owner.as_str(),
            prepared[j].doc.owner.as_str(),
        );
        let n = per_owners.entry((x.min(y), x.max(y))).or_default();
        *n += 1;
        versions_cut += usize::from(*n > params.max_version_pairs);
        *n <= params.max_version_pairs
    });
    if versions_cut > 0 {
        skipped.push(Skipped {
            owner: format!("{versions_cut} pairs of versions"),
            version: String::new(),
            reason: format!(
                "not measured: of two students' versions, only the {} pairs sharing most fingerprints are",
                params.max_version_pairs
            ),
        });
    }
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
///
/// A fingerprint in `d` sources costs `d²/2` steps; the rarest fingerprints (the telling
/// ones) are counted first, and once `max_index_steps` are spent the commoner ones are left
/// out with a note, so that many near-identical versions cannot make the index quadratic.
fn shared_fingerprints(
    prepared: &[Prepared<'_>],
    params: &Params,
    skipped: &mut Vec<Skipped>,
) -> HashMap<(usize, usize), u32> {
    let mut index: HashMap<(Language, u64), Vec<usize>> = HashMap::new();
    for (i, p) in prepared.iter().enumerate() {
        for &h in &p.fingerprints {
            index.entry((p.doc.language, h)).or_default().push(i);
        }
    }
    let mut lists: Vec<Vec<usize>> = index
        .into_values()
        .filter(|docs| {
            let owners: HashSet<&str> = docs
                .iter()
                .map(|&i| prepared[i].doc.owner.as_str())
                .collect();
            owners.len() >= 2 && owners.len() <= params.max_common
        })
        .collect();
    lists.sort_by_key(|docs| docs.len());
    let mut pairs: HashMap<(usize, usize), u32> = HashMap::new();
    let mut steps: u64 = 0;
    for (n, docs) in lists.iter().enumerate() {
        steps += (docs.len() * docs.len() / 2) as u64;
        if steps > params.max_index_steps {
            skipped.push(Skipped {
                owner: format!("{} fingerprints", lists.len() - n),
                version: String::new(),
                reason: format!(
                    "not used to find candidates: each is in {} sources or more (over the index's budget of {} steps)",
                    docs.len(),
                    params.max_index_steps
                ),
            });
            break;
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

/// Tiles of each candidate pair, from the cache or computed (in parallel, the smallest pairs
/// first, each within its work budget).
fn tile_pairs(
    prepared: &[Prepared<'_>],
    candidates: &[(usize, usize)],
    params: &Params,
    cache: &mut Cache,
    counts: &mut Counts,
) -> Vec<((usize, usize), Entry)> {
    let mut out = Vec::with_capacity(candidates.len());
    let mut todo = Vec::new();
    for &(i, j) in candidates {
        match cache.get(&prepared[i].digest, &prepared[j].digest) {
            Some(entry) => out.push(((i, j), entry)),
            None => todo.push((i, j)),
        }
    }
    counts.from_cache = out.len();
    counts.compared = todo.len();
    let size = |&(i, j): &(usize, usize)| prepared[i].symbols.len() + prepared[j].symbols.len();
    todo.sort_by_key(size);
    let computed = crate::parallel::map_nice(&todo, params.threads, params.nice, |&(i, j)| {
        tile(prepared[i].stream(), prepared[j].stream(), params.tiling)
    });
    for (&(i, j), tiling) in todo.iter().zip(computed) {
        counts.tiling_steps += tiling.work;
        let entry = Entry {
            tiles: tiling.tiles,
            complete: tiling.complete,
        };
        cache.put(&prepared[i].digest, &prepared[j].digest, &entry);
        out.push(((i, j), entry));
    }
    out
}

/// Per pair of owners and language, the pair of versions that shares most.
fn best_per_owner_pair(
    prepared: &[Prepared<'_>],
    tiled: Vec<((usize, usize), Entry)>,
    max_regions: usize,
) -> Vec<Pair> {
    let mut best: HashMap<(Language, String, String), Pair> = HashMap::new();
    for ((i, j), entry) in tiled {
        // A pair that shares nothing is not a finding, unless its tiling was cut.
        if entry.tiles.is_empty() && entry.complete {
            continue;
        }
        let pair = make_pair(&prepared[i], &prepared[j], &entry, max_regions);
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
fn make_pair(p: &Prepared<'_>, q: &Prepared<'_>, entry: &Entry, max_regions: usize) -> Pair {
    let swap = p.doc.origin == Origin::Earlier
        || (q.doc.origin == Origin::Student && q.doc.owner < p.doc.owner);
    let (a, b, tiles) = if swap {
        (q, p, crate::tiling::flip(&entry.tiles))
    } else {
        (p, q, entry.tiles.clone())
    };
    let matched = covered(&tiles);
    let regions: Vec<Region> = tiles
        .iter()
        .take(max_regions)
        .map(|t| region(a, b, t))
        .collect();
    let longest = regions.first();
    Pair {
        language: a.doc.language,
        earlier: b.doc.origin == Origin::Earlier,
        similarity: ratio(2 * matched, a.symbols.len() + b.symbols.len()),
        matched_tokens: matched,
        longest_lines: longest.map_or(0, |r| r.a_lines.1 - r.a_lines.0 + 1),
        longest_tokens: longest.map_or(0, |r| r.tokens),
        complete: entry.complete,
        region_count: tiles.len(),
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
        let first = p.lines.first(at);
        let last = p.lines.last(at + t.len - 1);
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
