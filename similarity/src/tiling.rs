//! Greedy string tiling (Wise, "Running Karp-Rabin Matching and Greedy String Tiling", 1993;
//! the comparison of JPlag) of two token streams: the longest common runs are taken first,
//! each token in at most one tile, down to a minimum match length. Reordered functions are
//! separate tiles, so reordering does not hide them.

use std::collections::HashMap;

/// A run of `len` equal tokens at `a` in the first stream and `b` in the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tile {
    pub a: usize,
    pub b: usize,
    pub len: usize,
}

/// Seeds of one hash are looked at this many times at most in each stream and round: a file
/// of one line repeated ten thousand times must not cost ten thousand squared steps. Later
/// rounds look again at what is left, so only very repetitive code loses matches.
const MAX_SEEDS_PER_HASH: usize = 32;

/// Tiles `a` and `b`, never using a token whose mask entry is true (template code), with tiles
/// of at least `min_len` tokens (at least 1). Tiles come longest first.
pub fn tile(a: &[u32], b: &[u32], a_mask: &[bool], b_mask: &[bool], min_len: usize) -> Vec<Tile> {
    let min_len = min_len.max(1);
    let mut used_a: Vec<bool> = (0..a.len())
        .map(|i| a_mask.get(i).copied().unwrap_or(false))
        .collect();
    let mut used_b: Vec<bool> = (0..b.len())
        .map(|i| b_mask.get(i).copied().unwrap_or(false))
        .collect();
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

fn free(used: &[bool], at: usize, len: usize) -> bool {
    used[at..at + len].iter().all(|u| !u)
}

fn mark(used: &mut [bool], at: usize, len: usize) {
    for u in &mut used[at..at + len] {
        *u = true;
    }
}

/// Hashes of every `min_len` window of unused tokens, by start position.
fn seeds(s: &[u32], used: &[bool], min_len: usize) -> Vec<Option<u64>> {
    let mut out = vec![None; s.len()];
    let mut run = 0usize;
    for i in 0..s.len() {
        run = if used[i] { 0 } else { run + 1 };
        if run >= min_len {
            let start = i + 1 - min_len;
            out[start] = Some(crate::fingerprint::kgram_hashes(&s[start..=i], min_len)[0]);
        }
    }
    out
}

/// Every maximal run of at least `min_len` equal unused tokens (maximal: it cannot be
/// extended to the left, so each run is reported once, from its start).
fn maximal_matches(
    a: &[u32],
    b: &[u32],
    used_a: &[bool],
    used_b: &[bool],
    min_len: usize,
) -> Vec<Tile> {
    let mut index: HashMap<u64, Vec<usize>> = HashMap::new();
    for (j, h) in seeds(b, used_b, min_len).into_iter().enumerate() {
        if let Some(h) = h {
            let list = index.entry(h).or_default();
            if list.len() < MAX_SEEDS_PER_HASH {
                list.push(j);
            }
        }
    }
    let mut out = Vec::new();
    let mut seen_in_a: HashMap<u64, usize> = HashMap::new();
    for (i, h) in seeds(a, used_a, min_len).into_iter().enumerate() {
        let Some((h, list)) = h.and_then(|h| index.get(&h).map(|l| (h, l))) else {
            continue;
        };
        let seen = seen_in_a.entry(h).or_default();
        *seen += 1;
        if *seen > MAX_SEEDS_PER_HASH {
            continue;
        }
        for &j in list {
            let extends_left =
                i > 0 && j > 0 && !used_a[i - 1] && !used_b[j - 1] && a[i - 1] == b[j - 1];
            if extends_left {
                continue;
            }
            let len = run_length(a, b, used_a, used_b, i, j);
            if len >= min_len {
                out.push(Tile { a: i, b: j, len });
            }
        }
    }
    out
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

    #[test]
    fn reordered_blocks_are_two_tiles() {
        let f: Vec<u32> = (0..20).collect();
        let g: Vec<u32> = (100..130).collect();
        let a: Vec<u32> = f.iter().chain(&g).copied().collect();
        let b: Vec<u32> = g.iter().chain(&[7, 7, 7]).chain(&f).copied().collect();
        let t = tile(&a, &b, &no_mask(a.len()), &no_mask(b.len()), 5);
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
        assert!(tile(&a[..4], &b[..4], &no_mask(4), &no_mask(4), 5).is_empty());
        let mut mask = no_mask(30);
        for m in &mut mask[10..20] {
            *m = true;
        }
        let t = tile(&a, &b, &mask, &no_mask(30), 5);
        assert_eq!(covered(&t), 20);
    }

    #[test]
    fn repetitive_input_is_bounded() {
        let a = vec![1u32; 20_000];
        let b = vec![1u32; 20_000];
        let started = std::time::Instant::now();
        let t = tile(&a, &b, &no_mask(a.len()), &no_mask(b.len()), 12);
        assert_eq!(covered(&t), 20_000);
        assert!(started.elapsed().as_secs() < 20);
    }

    #[test]
    fn overlapping_candidates_are_shortened_not_lost() {
        // "xyzxyz..." against a shifted copy: greedy tiling must still cover most tokens.
        let a: Vec<u32> = (0..300).map(|i| i % 3).collect();
        let b: Vec<u32> = (1..301).map(|i| i % 3).collect();
        let t = tile(&a, &b, &no_mask(300), &no_mask(300), 6);
        assert!(covered(&t) >= 290, "{}", covered(&t));
    }
}
