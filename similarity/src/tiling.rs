//! Greedy string tiling (Wise, "Running Karp-Rabin Matching and Greedy String Tiling", 1993;
//! the comparison of JPlag) of two token streams: the longest common runs are taken first,
//! each token in at most one tile, down to a minimum match length. Reordered functions are
//! separate tiles, so reordering does not hide them.

/// A run of `len` equal tokens at `a` in the first stream and `b` in the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tile {
    pub a: usize,
    pub b: usize,
    pub len: usize,
}

/// Seeds of one hash are looked at this many times at most on each side and round: a file of
/// one line repeated ten thousand times must not cost ten thousand squared steps. Later rounds
/// look again at what is left, so only very repetitive code loses matches.
const MAX_SEEDS_PER_HASH: usize = 32;

/// Every window of `min_len` tokens of a stream, as (hash, start) sorted: computed once per
/// source, then merged against the other source's for each pair (no hashing per pair).
#[derive(Clone, Debug, Default)]
pub struct Seeds {
    sorted: Vec<(u64, u32)>,
    min_len: usize,
}

impl Seeds {
    pub fn new(symbols: &[u32], min_len: usize) -> Seeds {
        let min_len = min_len.max(1);
        let hashes = crate::fingerprint::kgram_hashes(symbols, min_len);
        let mut sorted: Vec<(u64, u32)> = hashes
            .into_iter()
            .enumerate()
            .map(|(i, h)| (h, u32::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        sorted.sort_unstable();
        Seeds { sorted, min_len }
    }
}

/// One side of a comparison: its tokens, the template mask, its seeds.
#[derive(Clone, Copy)]
pub struct Stream<'a> {
    pub symbols: &'a [u32],
    pub mask: &'a [bool],
    pub seeds: &'a Seeds,
}

/// Tiles `a` and `b`, never using a masked token (template code), with tiles of at least the
/// seeds' `min_len` tokens. Tiles come longest first.
pub fn tile(a: Stream<'_>, b: Stream<'_>) -> Vec<Tile> {
    let min_len = a.seeds.min_len.max(b.seeds.min_len);
    let mut used_a = used(a);
    let mut used_b = used(b);
    let mut tiles = Vec::new();
    loop {
        let mut found = maximal_matches(a, b, &used_a, &used_b, min_len);
        if found.is_empty() {
            break;
        }
        // Longest first; a match that overlaps one taken in this round is found again, shorter,
        // in the next round.
        found.sort_by(|x, y| y.len.cmp(&x.len).then(x.a.cmp(&y.a)).then(x.b.cmp(&y.b)));
        let before = tiles.len();
        for m in found {
            if free(&used_a, m.a, m.len) && free(&used_b, m.b, m.len) {
                mark(&mut used_a, m.a, m.len);
                mark(&mut used_b, m.b, m.len);
                tiles.push(m);
            }
        }
        if tiles.len() == before {
            break;
        }
    }
    tiles.sort_by(|x, y| y.len.cmp(&x.len).then(x.a.cmp(&y.a)));
    tiles
}

fn used(s: Stream<'_>) -> Vec<bool> {
    (0..s.symbols.len())
        .map(|i| s.mask.get(i).copied().unwrap_or(false))
        .collect()
}

fn free(used: &[bool], at: usize, len: usize) -> bool {
    used[at..at + len].iter().all(|u| !u)
}

fn mark(used: &mut [bool], at: usize, len: usize) {
    for u in &mut used[at..at + len] {
        *u = true;
    }
}

/// For each position, how many unused tokens follow from it (itself included).
fn free_runs(used: &[bool]) -> Vec<usize> {
    let mut out = vec![0; used.len() + 1];
    for i in (0..used.len()).rev() {
        out[i] = if used[i] { 0 } else { out[i + 1] + 1 };
    }
    out
}

/// Every maximal run of at least `min_len` equal unused tokens (maximal: it cannot be
/// extended to the left, so each run is reported once, from its start), by merging the two
/// sides' sorted seeds.
fn maximal_matches(
    a: Stream<'_>,
    b: Stream<'_>,
    used_a: &[bool],
    used_b: &[bool],
    min_len: usize,
) -> Vec<Tile> {
    let (run_a, run_b) = (free_runs(used_a), free_runs(used_b));
    let (sa, sb) = (&a.seeds.sorted, &b.seeds.sorted);
    let (mut x, mut y) = (0, 0);
    let mut out = Vec::new();
    while x < sa.len() && y < sb.len() {
        let (ha, hb) = (sa[x].0, sb[y].0);
        if ha != hb {
            if ha < hb {
                x += 1
            } else {
                y += 1
            }
            continue;
        }
        let xe = x + sa[x..].iter().take_while(|s| s.0 == ha).count();
        let ye = y + sb[y..].iter().take_while(|s| s.0 == hb).count();
        let free_a = sa[x..xe]
            .iter()
            .map(|s| s.1 as usize)
            .filter(|&i| run_a[i] >= min_len);
        let free_b: Vec<usize> = sb[y..ye]
            .iter()
            .map(|s| s.1 as usize)
            .filter(|&j| run_b[j] >= min_len)
            .take(MAX_SEEDS_PER_HASH)
            .collect();
        for i in free_a.take(MAX_SEEDS_PER_HASH) {
            for &j in &free_b {
                if let Some(t) = maximal_at(a.symbols, b.symbols, used_a, used_b, i, j, min_len) {
                    out.push(t);
                }
            }
        }
        (x, y) = (xe, ye);
    }
    out
}

/// The run starting at (i, j), if it is maximal and long enough.
fn maximal_at(
    a: &[u32],
    b: &[u32],
    used_a: &[bool],
    used_b: &[bool],
    i: usize,
    j: usize,
    min_len: usize,
) -> Option<Tile> {
    let extends_left = i > 0 && j > 0 && !used_a[i - 1] && !used_b[j - 1] && a[i - 1] == b[j - 1];
    if extends_left {
        return None;
    }
    let len = run_length(a, b, used_a, used_b, i, j);
    (len >= min_len).then_some(Tile { a: i, b: j, len })
}

fn run_length(a: &[u32], b: &[u32], used_a: &[bool], used_b: &[bool], i: usize, j: usize) -> usize {
    let mut n = 0;
    while i + n < a.len()
        && j + n < b.len()
        && !used_a[i + n]
        && !used_b[j + n]
        && a[i + n] == b[j + n]
    {
        n += 1;
    }
    n
}

/// The same tiles seen from the other stream.
pub fn flip(tiles: &[Tile]) -> Vec<Tile> {
    tiles
        .iter()
        .map(|t| Tile {
            a: t.b,
            b: t.a,
            len: t.len,
        })
        .collect()
}

/// How many tokens the tiles cover (in each stream: tiles are the same length on both sides).
pub fn covered(tiles: &[Tile]) -> usize {
    tiles.iter().map(|t| t.len).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_mask(n: usize) -> Vec<bool> {
        vec![false; n]
    }

    fn tile_of(
        a: &[u32],
        b: &[u32],
        a_mask: &[bool],
        b_mask: &[bool],
        min_len: usize,
    ) -> Vec<Tile> {
        let (sa, sb) = (Seeds::new(a, min_len), Seeds::new(b, min_len));
        tile(
            Stream {
                symbols: a,
                mask: a_mask,
                seeds: &sa,
            },
            Stream {
                symbols: b,
                mask: b_mask,
                seeds: &sb,
            },
        )
    }

    #[test]
    fn reordered_blocks_are_two_tiles() {
        let f: Vec<u32> = (0..20).collect();
        let g: Vec<u32> = (100..130).collect();
        let a: Vec<u32> = f.iter().chain(&g).copied().collect();
        let b: Vec<u32> = g.iter().chain(&[7, 7, 7]).chain(&f).copied().collect();
        let t = tile_of(&a, &b, &no_mask(a.len()), &no_mask(b.len()), 5);
        assert_eq!(
            t,
            vec![
                Tile {
                    a: 20,
                    b: 0,
                    len: 30
                },
                Tile {
                    a: 0,
                    b: 33,
                    len: 20
                }
            ]
        );
        assert_eq!(covered(&t), 50);
    }

    #[test]
    fn short_matches_and_masked_tokens_do_not_count() {
        let a: Vec<u32> = (0..30).collect();
        let b = a.clone();
        assert!(tile_of(&a[..4], &b[..4], &no_mask(4), &no_mask(4), 5).is_empty());
        let mut mask = no_mask(30);
        for m in &mut mask[10..20] {
            *m = true;
        }
        let t = tile_of(&a, &b, &mask, &no_mask(30), 5);
        assert_eq!(covered(&t), 20);
    }

    #[test]
    fn repetitive_input_is_bounded() {
        let a = vec![1u32; 20_000];
        let b = vec![1u32; 20_000];
        let started = std::time::Instant::now();
        let t = tile_of(&a, &b, &no_mask(a.len()), &no_mask(b.len()), 12);
        assert_eq!(covered(&t), 20_000);
        assert!(started.elapsed().as_secs() < 20);
    }

    #[test]
    fn overlapping_candidates_are_shortened_not_lost() {
        // "xyzxyz..." against a shifted copy: greedy tiling must still cover most tokens.
        let a: Vec<u32> = (0..300).map(|i| i % 3).collect();
        let b: Vec<u32> = (1..301).map(|i| i % 3).collect();
        let t = tile_of(&a, &b, &no_mask(300), &no_mask(300), 6);
        assert!(covered(&t) >= 290, "{}", covered(&t));
    }
}
