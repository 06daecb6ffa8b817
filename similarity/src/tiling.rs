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

/// A group of seeds (one hash) is tiled all pairs against all when it has at most this many
/// pairs (or four times its seeds): ordinary code's groups are a few seeds a side. A larger
/// group is repetitive text (one line repeated, `}` ten thousand times), and is aligned in
/// one sweep instead (see [`sweep`]), so that its cost stays linear.
const ALL_PAIRS: usize = 1024;

/// Every window of `min_len` tokens of a stream, as (hash, start) sorted: computed once per
/// source, then merged against the other source's for each pair (no hashing per pair). The
/// hash is cut to 32 bits (a collision only makes a seed that no match follows).
#[derive(Clone, Debug, Default)]
pub struct Seeds {
    sorted: Vec<(u32, u32)>,
    min_len: usize,
}

impl Seeds {
    pub fn new(symbols: &[u32], min_len: usize) -> Seeds {
        let min_len = min_len.max(1);
        let hashes = crate::fingerprint::kgram_hashes(symbols, min_len);
        let mut sorted: Vec<(u32, u32)> = hashes
            .into_iter()
            .enumerate()
            .map(|(i, h)| ((h >> 32) as u32, u32::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        sorted.sort_unstable();
        Seeds { sorted, min_len }
    }

    /// Bytes held, for the report's memory figures.
    pub fn bytes(&self) -> usize {
        self.sorted.capacity() * std::mem::size_of::<(u32, u32)>()
    }
}

/// One side of a comparison: its tokens, the template mask, its seeds.
#[derive(Clone, Copy)]
pub struct Stream<'a> {
    pub symbols: &'a [u32],
    pub mask: &'a [bool],
    pub seeds: &'a Seeds,
}

/// The tiles of a pair, and whether the tiling finished within its budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// Longest first.
    pub tiles: Vec<Tile>,
    /// False when the work budget ran out: the tiles are then a part of the shared code (the
    /// longest found first), and the pair shares at least this much.
    pub complete: bool,
    /// Steps spent (seeds looked at, tokens compared, candidates sorted).
    pub work: u64,
}

/// The work a pair may cost: `per_token` steps for each token of the two streams, plus `base`.
/// Ordinary pairs use well under a tenth of it (the benchmark prints the figures).
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Budget {
    pub per_token: u64,
    pub base: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            per_token: 64,
            base: 1 << 20,
        }
    }
}

impl Budget {
    pub fn for_tokens(self, tokens: usize) -> u64 {
        self.per_token
            .saturating_mul(tokens as u64)
            .saturating_add(self.base)
    }
}

/// Tiles `a` and `b`, never using a masked token (template code), with tiles of at least the
/// seeds' `min_len` tokens, within `budget` steps. Tiles come longest first.
pub fn tile(a: Stream<'_>, b: Stream<'_>, budget: Budget) -> Tiling {
    let min_len = a.seeds.min_len.max(b.seeds.min_len).max(1);
    let mut t = Tiler {
        a: Side::new(a, min_len),
        b: Side::new(b, min_len),
        min_len,
        work: 0,
        limit: budget.for_tokens(a.symbols.len() + b.symbols.len()),
        tiles: Vec::new(),
    };
    let mut groups = shared_groups(a.seeds, b.seeds);
    t.charge((a.seeds.sorted.len() + b.seeds.sorted.len()) as u64);
    while !groups.is_empty() && !t.over() {
        let before = t.tiles.len();
        t.round(&mut groups);
        if t.tiles.len() == before {
            break;
        }
    }
    let complete = !t.over();
    let mut tiles = t.tiles;
    tiles.sort_by(|x, y| y.len.cmp(&x.len).then(x.a.cmp(&y.a)));
    Tiling {
        tiles,
        complete,
        work: t.work,
    }
}

/// The seeds of one hash on both sides (start positions, ascending).
struct Group {
    a: Vec<u32>,
    b: Vec<u32>,
}

/// Every hash that both sides have, with its seeds: seeds of one side only never match.
fn shared_groups(a: &Seeds, b: &Seeds) -> Vec<Group> {
    let (sa, sb) = (&a.sorted, &b.sorted);
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
        out.push(Group {
            a: sa[x..xe].iter().map(|s| s.1).collect(),
            b: sb[y..ye].iter().map(|s| s.1).collect(),
        });
        (x, y) = (xe, ye);
    }
    out
}

/// One stream during tiling: which tokens are taken, and how many free tokens follow each
/// position (capped at `min_len`: all a seed needs to know, and cheap to keep up to date).
struct Side<'a> {
    symbols: &'a [u32],
    used: Vec<bool>,
    run: Vec<u32>,
    cap: u32,
}

impl<'a> Side<'a> {
    fn new(s: Stream<'a>, min_len: usize) -> Side<'a> {
        let n = s.symbols.len();
        let used: Vec<bool> = (0..n)
            .map(|i| s.mask.get(i).copied().unwrap_or(false))
            .collect();
        let cap = u32::try_from(min_len).unwrap_or(u32::MAX);
        let mut run = vec![0u32; n];
        for i in (0..n).rev() {
            let next = run.get(i + 1).copied().unwrap_or(0);
            run[i] = if used[i] { 0 } else { (next + 1).min(cap) };
        }
        Side {
            symbols: s.symbols,
            used,
            run,
            cap,
        }
    }

    /// A seed here still has `min_len` free tokens.
    fn seed_free(&self, at: u32) -> bool {
        self.run.get(at as usize).is_some_and(|&r| r >= self.cap)
    }

    fn range_free(&self, at: usize, len: usize) -> bool {
        self.used[at..at + len].iter().all(|u| !u)
    }

    /// Takes `len` tokens at `at`; the free runs before them shrink.
    fn mark(&mut self, at: usize, len: usize) {
        for i in at..at + len {
            self.used[i] = true;
            self.run[i] = 0;
        }
        let mut p = at;
        while p > 0 && !self.used[p - 1] && at - (p - 1) <= self.cap as usize {
            p -= 1;
            self.run[p] = u32::try_from(at - p).unwrap_or(u32::MAX);
        }
    }
}

struct Tiler<'a> {
    a: Side<'a>,
    b: Side<'a>,
    min_len: usize,
    work: u64,
    limit: u64,
    tiles: Vec<Tile>,
}

impl Tiler<'_> {
    fn charge(&mut self, steps: u64) {
        self.work = self.work.saturating_add(steps);
    }

    fn over(&self) -> bool {
        self.work > self.limit
    }

    /// One round: every group's seeds still free; the small groups' maximal matches taken
    /// longest first, then the large groups swept.
    fn round(&mut self, groups: &mut Vec<Group>) {
        let mut candidates = Vec::new();
        let mut large = Vec::new();
        let mut n = 0;
        while n < groups.len() {
            let g = &mut groups[n];
            let seeds = (g.a.len() + g.b.len()) as u64;
            g.a.retain(|&i| self.a.seed_free(i));
            g.b.retain(|&j| self.b.seed_free(j));
            self.work = self.work.saturating_add(seeds);
            if g.a.is_empty() || g.b.is_empty() {
                groups.swap_remove(n);
                continue;
            }
            let pairs = g.a.len().saturating_mul(g.b.len());
            if pairs <= ALL_PAIRS.max(4 * (g.a.len() + g.b.len())) {
                for &i in &g.a {
                    for &j in &g.b {
                        if let Some(t) = self.maximal_at(i as usize, j as usize) {
                            candidates.push(t);
                        }
                    }
                    if self.over() {
                        break;
                    }
                }
            } else {
                large.push(n);
            }
            n += 1;
            if self.over() {
                break;
            }
        }
        self.take_longest_first(candidates);
        for n in large {
            if self.over() {
                break;
            }
            self.sweep(&groups[n]);
        }
    }

    /// The run starting at (i, j), if nothing free and equal precedes it on both sides (so
    /// each run is found once, from its start) and it is long enough.
    fn maximal_at(&mut self, i: usize, j: usize) -> Option<Tile> {
        self.charge(1);
        let (a, b) = (&self.a, &self.b);
        let extends_left = i > 0
            && j > 0
            && !a.used[i - 1]
            && !b.used[j - 1]
            && a.symbols[i - 1] == b.symbols[j - 1];
        if extends_left {
            return None;
        }
        let len = self.run_length(i, j);
        (len >= self.min_len).then_some(Tile { a: i, b: j, len })
    }

    /// Free equal tokens from (i, j) on, at most what the budget has left.
    fn run_length(&mut self, i: usize, j: usize) -> usize {
        let left = usize::try_from(self.limit.saturating_sub(self.work)).unwrap_or(usize::MAX);
        let (a, b) = (&self.a, &self.b);
        let most = (a.symbols.len() - i)
            .min(b.symbols.len() - j)
            .min(left.max(1));
        let n = (0..most)
            .take_while(|&n| {
                !a.used[i + n] && !b.used[j + n] && a.symbols[i + n] == b.symbols[j + n]
            })
            .count();
        self.charge(n as u64);
        n
    }

    /// Greedy string tiling's step: longest first, each token in at most one tile. A
    /// candidate that overlaps one taken is found again, shorter, in the next round.
    fn take_longest_first(&mut self, mut found: Vec<Tile>) {
        let c = found.len() as u64;
        self.charge(c * u64::from(64 - c.leading_zeros()));
        found.sort_by(|x, y| y.len.cmp(&x.len).then(x.a.cmp(&y.a)).then(x.b.cmp(&y.b)));
        for m in found {
            self.charge(m.len as u64);
            if self.a.range_free(m.a, m.len) && self.b.range_free(m.b, m.len) {
                self.take(m);
            }
        }
    }

    fn take(&mut self, t: Tile) {
        self.a.mark(t.a, t.len);
        self.b.mark(t.b, t.len);
        self.tiles.push(t);
    }

    /// A large group of one hash (repetitive text): its free seeds on both sides aligned in
    /// order, each pair extended over free equal tokens both ways and taken at once. All pairs
    /// would cost the product of the two sides; this costs their sum and the tokens taken,
    /// and tiles a run repeated on both sides as fully as all pairs would.
    fn sweep(&mut self, g: &Group) {
        let (mut p, mut q) = (0, 0);
        while p < g.a.len() && q < g.b.len() && !self.over() {
            let (i, j) = (g.a[p] as usize, g.b[q] as usize);
            self.charge(1);
            if !self.a.seed_free(g.a[p]) {
                p += 1;
                continue;
            }
            if !self.b.seed_free(g.b[q]) {
                q += 1;
                continue;
            }
            let back = self.left_extent(i, j);
            let len = back + self.run_length(i, j);
            if len >= self.min_len {
                self.take(Tile {
                    a: i - back,
                    b: j - back,
                    len,
                });
            } else {
                // A hash collision: the next seed of the larger side.
                p += 1;
            }
        }
    }

    /// How many free equal tokens precede (i, j) on both sides.
    fn left_extent(&mut self, i: usize, j: usize) -> usize {
        let (a, b) = (&self.a, &self.b);
        let n = (1..=i.min(j))
            .take_while(|&d| {
                !a.used[i - d] && !b.used[j - d] && a.symbols[i - d] == b.symbols[j - d]
            })
            .count();
        self.charge(n as u64 + 1);
        n
    }
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
        let t = tile(
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
            Budget::default(),
        );
        assert!(t.complete, "{} steps", t.work);
        t.tiles
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

    fn tiling(a: &[u32], b: &[u32], budget: Budget) -> Tiling {
        let (sa, sb) = (Seeds::new(a, 12), Seeds::new(b, 12));
        let (ma, mb) = (no_mask(a.len()), no_mask(b.len()));
        let stream = |symbols, mask, seeds| Stream {
            symbols,
            mask,
            seeds,
        };
        tile(stream(a, &ma, &sa), stream(b, &mb, &sb), budget)
    }

    /// Every tile is a run of equal tokens, at least `min_len` long, and no token is in two.
    fn assert_valid(a: &[u32], b: &[u32], tiles: &[Tile], min_len: usize) {
        let (mut ua, mut ub) = (no_mask(a.len()), no_mask(b.len()));
        for t in tiles {
            assert!(t.len >= min_len, "{t:?}");
            assert_eq!(a[t.a..t.a + t.len], b[t.b..t.b + t.len], "{t:?}");
            for k in 0..t.len {
                assert!(!ua[t.a + k] && !ub[t.b + k], "{t:?} overlaps");
                (ua[t.a + k], ub[t.b + k]) = (true, true);
            }
        }
    }

    #[test]
    fn repetitive_input_costs_a_few_steps_a_token() {
        // Issue 32's pair, as symbols: 199,000 `}` against `}}}}}}}}}}}}+` 15,000 times (the
        // old tiling took 13.5 s, ten thousand rounds of 32 seeds a side).
        let a = vec![1u32; 199_000];
        let b: Vec<u32> = (0..15_000)
            .flat_map(|_| std::iter::repeat_n(1, 12).chain([2]))
            .collect();
        let t = tiling(&a, &b, Budget::default());
        assert!(t.complete);
        assert_eq!(covered(&t.tiles), 180_000, "every `}}` of b is matched");
        assert_valid(&a, &b, &t.tiles, 12);
        let tokens = (a.len() + b.len()) as u64;
        assert!(t.work < 8 * tokens, "{} steps for {tokens} tokens", t.work);

        for (a, b) in [
            (vec![1u32; 50_000], vec![1u32; 40_000]),
            (
                (0..50_000).map(|i| i % 2).collect(),
                (1..40_001).map(|i| i % 2).collect(),
            ),
            (
                (0..50_000).map(|i| i % 7).collect(),
                (0..40_000)
                    .map(|i| if i % 100 == 0 { 9 } else { i % 7 })
                    .collect(),
            ),
        ] {
            let t = tiling(&a, &b, Budget::default());
            assert!(t.complete);
            assert_valid(&a, &b, &t.tiles, 12);
            assert!(covered(&t.tiles) >= 36_000, "{}", covered(&t.tiles));
            assert!(t.work < 16 * 90_000, "{} steps", t.work);
        }
    }

    #[test]
    fn past_its_budget_a_pair_is_cut_with_valid_tiles() {
        let a: Vec<u32> = (0..30_000).map(|i| (i * 7919 % 13) as u32).collect();
        let mut b = a.clone();
        for i in (0..b.len()).step_by(40) {
            b[i] = 99;
        }
        let full = tiling(&a, &b, Budget::default());
        assert!(full.complete);
        let budget = Budget {
            per_token: 0,
            base: full.work / 3,
        };
        let cut = tiling(&a, &b, budget);
        assert!(!cut.complete);
        assert!(cut.work <= budget.base + 30_000, "{} steps", cut.work);
        assert_valid(&a, &b, &cut.tiles, 12);
        assert!(covered(&cut.tiles) < covered(&full.tiles));
    }

    #[test]
    fn random_streams_give_valid_tiles() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n) as u32
        };
        for round in 0..200u32 {
            let alphabet = 1 + u64::from(round % 5);
            let a: Vec<u32> = (0..300 + round as usize).map(|_| next(alphabet)).collect();
            let mut b: Vec<u32> = a.iter().rev().copied().collect();
            b.extend(a.iter().take(100));
            for _ in 0..10 {
                let at = next(b.len() as u64) as usize;
                b[at] = next(alphabet + 1);
            }
            let t = tiling(&a, &b, Budget::default());
            assert!(t.complete);
            assert_valid(&a, &b, &t.tiles, 12);
        }
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
