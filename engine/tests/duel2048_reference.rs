//! Cross-check against a naive reference written straight from the rules note
//! (/work/shared/notes/rules-duel2048.md), in the style of the original Python platform:
//! a grid of optional tiles, lists of positions, per-cell loops, a list of merged ("eaten")
//! cells, board copies to test whether a direction changes anything. Full random games on both,
//! compared after every ply: legal move sets, forced skips, boards, `next` cells, outcome.

use arbiter_engine::duel2048::{
    slide_rows, Cell, Config, Direction, Duel, Move, RandomSource, Step,
};
use arbiter_engine::{EndReason, Game, Outcome, Seat};

// ---------------------------------------------------------------- the reference

type Pos = (i32, i32);

/// `true` = first player, as in the original (`belong`).
#[derive(Clone)]
struct RefBoard {
    /// `tiles[row][col]` = Some((belong, level)).
    tiles: Vec<Vec<Option<(bool, u32)>>>,
    array: Vec<u32>,
}

impl RefBoard {
    fn new(array: Vec<u32>) -> RefBoard {
        RefBoard {
            tiles: vec![vec![None; 8]; 4],
            array,
        }
    }

    fn in_board(p: Pos) -> bool {
        (0..4).contains(&p.0) && (0..8).contains(&p.1)
    }

    /// The owner of the half a cell lies in.
    fn half(p: Pos) -> bool {
        p.1 < 4
    }

    fn get(&self, p: Pos) -> Option<(bool, u32)> {
        self.tiles[p.0 as usize][p.1 as usize]
    }

    fn set(&mut self, p: Pos, t: Option<(bool, u32)>) {
        self.tiles[p.0 as usize][p.1 as usize] = t;
    }

    /// getBelong: the tile's owner, or the half's owner when empty.
    fn get_belong(&self, p: Pos) -> bool {
        match self.get(p) {
            Some((b, _)) => b,
            None => Self::half(p),
        }
    }

    fn get_value(&self, p: Pos) -> u32 {
        self.get(p).map_or(0, |t| t.1)
    }

    /// "A placed tile has level 1 and belongs to the owner of the half it lands in."
    fn add(&mut self, p: Pos) {
        self.set(p, Some((Self::half(p), 1)));
    }

    /// getNone: the empty cells of p's half, row-major.
    fn get_none(&self, belong: bool) -> Vec<Pos> {
        let mut out = Vec::new();
        for row in 0..4 {
            for col in 0..8 {
                if Self::half((row, col)) == belong && self.get((row, col)).is_none() {
                    out.push((row, col));
                }
            }
        }
        out
    }

    /// getNext: none(p)[array[r] % len], the second's list reversed.
    fn get_next(&self, belong: bool, round: usize) -> Option<Pos> {
        let mut available = self.get_none(belong);
        if !belong {
            available.reverse();
        }
        if available.is_empty() {
            None
        } else {
            Some(available[self.array[round] as usize % available.len()])
        }
    }

    /// move: slide `belong`'s tiles in `direction`, return whether the board changed.
    fn slide(&mut self, belong: bool, direction: usize) -> bool {
        let delta = [(-1, 0), (1, 0), (0, -1), (0, 1)][direction];
        let next = |p: Pos| (p.0 + delta.0, p.1 + delta.1);
        let mut mine: Vec<Pos> = Vec::new();
        for row in 0..4 {
            for col in 0..8 {
                if let Some((b, _)) = self.get((row, col)) {
                    if b == belong {
                        mine.push((row, col));
                    }
                }
            }
        }
        // Front first.
        match direction {
            0 => mine.sort_by_key(|p| p.0),
            1 => mine.sort_by_key(|p| -p.0),
            2 => mine.sort_by_key(|p| p.1),
            _ => mine.sort_by_key(|p| -p.1),
        }
        let mut eaten: Vec<Pos> = Vec::new();
        let mut change = false;
        for start in mine {
            let (_, value) = self.get(start).expect("a listed tile is still there");
            let mut now = start;
            let mut nxt = next(start);
            while Self::in_board(nxt) && Self::half(nxt) == belong && self.get(nxt).is_none() {
                now = nxt;
                nxt = next(nxt);
            }
            if Self::in_board(nxt)
                && self.get(nxt).is_some()
                && !eaten.contains(&nxt)
                && self.get_value(nxt) == value
            {
                self.set(nxt, Some((belong, value + 1)));
                self.set(start, None);
                eaten.push(nxt);
                change = true;
            } else if now != start {
                self.set(now, Some((belong, value)));
                self.set(start, None);
                change = true;
            }
        }
        change
    }

    /// getScore: the sorted levels of `belong`'s tiles.
    fn get_score(&self, belong: bool) -> Vec<u32> {
        let mut out = Vec::new();
        for row in &self.tiles {
            for t in row.iter().flatten() {
                if t.0 == belong {
                    out.push(t.1);
                }
            }
        }
        out.sort();
        out
    }
}

/// The platform's loop, one decision at a time.
struct RefGame {
    board: RefBoard,
    rounds: usize,
    round: usize,
    /// 0 first places, 1 second places, 2 first moves, 3 second moves.
    step: usize,
}

impl RefGame {
    fn belong(&self) -> bool {
        matches!(self.step, 0 | 2)
    }

    fn over(&self) -> bool {
        self.round >= self.rounds
    }

    /// The legal decisions, `Skip` alone when the step is skipped.
    fn legal(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.over() {
            return out;
        }
        let belong = self.belong();
        if self.step < 2 {
            // Skipped only when the WHOLE board is full.
            if self.board.get_none(true).is_empty() && self.board.get_none(false).is_empty() {
                return vec![Move::Skip];
            }
            let next = self.board.get_next(belong, self.round);
            for row in 0..4 {
                for col in 0..8 {
                    let p = (row, col);
                    if self.board.get_value(p) == 0
                        && (self.board.get_belong(p) != belong || Some(p) == next)
                    {
                        out.push(Move::Place {
                            row: row as u8,
                            col: col as u8,
                        });
                    }
                }
            }
        } else {
            for d in 0..4 {
                if self.board.clone().slide(belong, d) {
                    out.push(Move::Slide(Direction::from_index(d).unwrap()));
                }
            }
            if out.is_empty() {
                out.push(Move::Skip);
            }
        }
        out
    }

    fn play(&mut self, mv: Move) {
        match mv {
            Move::Place { row, col } => self.board.add((row as i32, col as i32)),
            Move::Slide(d) => {
                let belong = self.belong();
                assert!(self.board.slide(belong, d.index()));
            }
            Move::Skip => {}
        }
        self.step += 1;
        if self.step == 4 {
            self.step = 0;
            self.round += 1;
        }
    }

    /// The platform's save(): levels 13 down to 1 (a reference game never goes above 13).
    fn outcome(&self) -> Outcome {
        let first = self.board.get_score(true);
        let second = self.board.get_score(false);
        assert!(first.iter().chain(&second).all(|&l| l <= 13));
        for level in (1..14).rev() {
            let a = first.iter().filter(|&&l| l == level).count() as u8;
            let b = second.iter().filter(|&&l| l == level).count() as u8;
            if a != b {
                return Outcome {
                    winner: Some(if a > b { Seat::FIRST } else { Seat::SECOND }),
                    reason: EndReason::Levels {
                        level: Some(level as u8),
                        counts: [a, b],
                    },
                };
            }
        }
        Outcome {
            winner: None,
            reason: EndReason::Levels {
                level: None,
                counts: [0, 0],
            },
        }
    }
}

// ---------------------------------------------------------------- the comparison

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Default, Debug)]
struct Stats {
    plies: usize,
    place_skips: usize,
    slide_skips: usize,
    own_half_full_placements: usize,
    cross_half_merges: usize,
    wins: [usize; 2],
    draws: usize,
}

fn assert_same(d: &Duel, r: &RefGame, ctx: &str) {
    for row in 0..4u8 {
        for col in 0..8u8 {
            let p = (row as i32, col as i32);
            let want = Cell {
                owner: if r.board.get_belong(p) {
                    Seat::FIRST
                } else {
                    Seat::SECOND
                },
                level: r.board.get_value(p) as u8,
            };
            assert_eq!(d.cell(row, col), want, "{ctx}: cell ({row}, {col})");
        }
    }
    assert_eq!(d.round() as usize, r.round, "{ctx}");
    assert_eq!(d.ply(), r.round * 4 + r.step, "{ctx}");
    if r.over() {
        assert_eq!(d.to_move(), None, "{ctx}");
        return;
    }
    let seat = if r.belong() {
        Seat::FIRST
    } else {
        Seat::SECOND
    };
    assert_eq!(d.to_move(), Some(seat), "{ctx}");
    for (s, b) in [(Seat::FIRST, true), (Seat::SECOND, false)] {
        let want = r.board.get_next(b, r.round).map(|p| (p.0 as u8, p.1 as u8));
        assert_eq!(d.next_cell(s), want, "{ctx}: next cell of {s}");
        // Both seats' slides, as snapshots, at every slide step.
        for dir in Direction::ALL.into_iter().filter(|_| r.step >= 2) {
            let mut after = r.board.clone();
            let want = after.slide(b, dir.index());
            assert_eq!(d.slide_changes(s, dir), want, "{ctx}: {s} {dir:?} changes");
            let mut rows = d.board_rows();
            assert_eq!(slide_rows(&mut rows, s, dir), want, "{ctx}: {s} {dir:?}");
            for (row, cells) in rows.iter().enumerate() {
                for (col, cell) in cells.iter().enumerate() {
                    let p = (row as i32, col as i32);
                    assert_eq!(cell.level, after.get_value(p) as u8, "{ctx}: {s} {dir:?}");
                    assert_eq!(cell.owner == Seat::FIRST, after.get_belong(p), "{ctx}");
                }
            }
        }
    }
}

/// Plays one game on both implementations with random decisions; `policy` 0 = uniform,
/// 1 = prefer one's own next cell and the lowest direction (fills boards, many skips).
fn play_both(mut d: Duel, mut r: RefGame, rng: &mut Rng, policy: u8, stats: &mut Stats) {
    let mut legal = Vec::new();
    let ctx0 = format!("seq {:?}..", &d.sequence()[..3.min(d.sequence().len())]);
    assert_same(&d, &r, &ctx0);
    while !r.over() {
        legal.clear();
        d.legal_moves(&mut legal);
        let want = r.legal();
        let ctx = format!("{ctx0} round {} step {}", r.round, r.step);
        let mut got_sorted = legal.clone();
        got_sorted.sort_by_key(|m| format!("{m:?}"));
        let mut want_sorted = want.clone();
        want_sorted.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(got_sorted, want_sorted, "{ctx}: legal moves");
        assert_eq!(
            d.forced_move(),
            if want == [Move::Skip] {
                Some(Move::Skip)
            } else {
                None
            },
            "{ctx}"
        );
        let mv = match policy {
            1 => {
                let own = d.to_move().and_then(|s| d.next_cell(s));
                legal
                    .iter()
                    .copied()
                    .find(|m| matches!(m, Move::Place { row, col } if Some((*row, *col)) == own))
                    .unwrap_or(legal[0])
            }
            _ => legal[rng.below(legal.len())],
        };
        if mv == Move::Skip {
            if r.step < 2 {
                stats.place_skips += 1;
            } else {
                stats.slide_skips += 1;
            }
        }
        if let Move::Place { .. } = mv {
            if r.board.get_next(r.belong(), r.round).is_none() {
                stats.own_half_full_placements += 1;
            }
        }
        let before = r.board.clone();
        d.play(mv)
            .unwrap_or_else(|e| panic!("{ctx}: {mv:?} refused: {e}"));
        r.play(mv);
        if let Move::Slide(_) = mv {
            // A cell that held the opponent's tile and now holds the mover's, merged.
            for row in 0..4 {
                for col in 0..8 {
                    let p = (row, col);
                    if let (Some(a), Some(b)) = (before.get(p), r.board.get(p)) {
                        if a.0 != b.0 {
                            stats.cross_half_merges += 1;
                        }
                    }
                }
            }
        }
        stats.plies += 1;
        assert_same(&d, &r, &ctx);
    }
    let o = d.outcome().expect("over");
    assert_eq!(o, r.outcome());
    match o.winner {
        Some(s) => stats.wins[s.index()] += 1,
        None => stats.draws += 1,
    }
}

#[test]
fn full_random_games_match_the_reference() {
    let mut stats = Stats::default();
    let mut rng = Rng(0x2048_2048_2048_2048);
    for seed in 0..40u64 {
        let config = Config {
            rounds: 500,
            random: RandomSource::Seed(seed),
        };
        let d = Duel::new(&config).unwrap();
        let r = RefGame {
            board: RefBoard::new(d.sequence().to_vec()),
            rounds: 500,
            round: 0,
            step: 0,
        };
        play_both(d, r, &mut rng, (seed % 4 == 3) as u8, &mut stats);
    }
    println!("{stats:?}");
    assert_eq!(stats.plies, 40 * 2000);
    assert!(stats.slide_skips > 0, "{stats:?}");
    assert!(stats.cross_half_merges > 0, "{stats:?}");
    assert!(stats.own_half_full_placements > 0, "{stats:?}");
    assert!(stats.wins[0] > 0 && stats.wins[1] > 0, "{stats:?}");
}

#[test]
fn random_boards_match_the_reference() {
    // Short games from random, often full, boards with explicit sequences: whole-board-full
    // skips, stuck sliders, and tiles of both owners in both halves.
    let mut stats = Stats::default();
    let mut rng = Rng(0x5eed_0f0f_2048);
    for game in 0..400 {
        let rounds = 1 + rng.below(12) as u16;
        let seq: Vec<u32> = (0..rounds).map(|_| (rng.next() % 720_720) as u32).collect();
        let config = Config {
            rounds,
            random: RandomSource::Sequence(seq.clone()),
        };
        let density = rng.below(101);
        let max_level = 1 + rng.below(6) as u32;
        let mut rb = RefBoard::new(seq);
        let mut rows = [[Cell {
            owner: Seat::FIRST,
            level: 0,
        }; 8]; 4];
        for (row, cells) in rows.iter_mut().enumerate() {
            for (col, cell) in cells.iter_mut().enumerate() {
                let p = (row as i32, col as i32);
                if rng.below(100) < density {
                    let belong = if rng.below(4) == 0 {
                        !RefBoard::half(p)
                    } else {
                        RefBoard::half(p)
                    };
                    let level = 1 + rng.below(max_level as usize) as u32;
                    rb.set(p, Some((belong, level)));
                }
                *cell = Cell {
                    owner: if rb.get_belong(p) {
                        Seat::FIRST
                    } else {
                        Seat::SECOND
                    },
                    level: rb.get_value(p) as u8,
                };
            }
        }
        let step = rng.below(4);
        let d = Duel::from_board(&config, rows, 0, Step::ALL[step]).unwrap();
        let r = RefGame {
            board: rb,
            rounds: rounds as usize,
            round: 0,
            step,
        };
        play_both(d, r, &mut rng, (game % 3 == 2) as u8, &mut stats);
    }
    println!("{stats:?}");
    assert!(stats.place_skips > 0, "{stats:?}");
    assert!(stats.slide_skips > 0, "{stats:?}");
    assert!(stats.own_half_full_placements > 0, "{stats:?}");
    assert!(stats.draws > 0, "{stats:?}");
}
