//! Cross-check of the bitboard Reversi against a naive array implementation written here from
//! the rules: random playouts on every size 4..=16 (legal moves, boards, passes, game end and
//! flipped discs agree after every ply), and perft counts of both on every size.

use arbiter_engine::reversi::{perft, Config, Move, Reversi};
use arbiter_engine::{EndReason, Game, Seat};

/// Reversi on a plain array, one cell at a time: slow and obvious.
#[derive(Clone, Debug)]
struct Naive {
    n: usize,
    cells: Vec<Option<Seat>>,
    side: Seat,
}

const DIRS: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Naive {
    fn new(n: usize) -> Naive {
        let mut cells = vec![None; n * n];
        let h = n / 2;
        cells[(h - 1) * n + (h - 1)] = Some(Seat::SECOND);
        cells[h * n + h] = Some(Seat::SECOND);
        cells[(h - 1) * n + h] = Some(Seat::FIRST);
        cells[h * n + (h - 1)] = Some(Seat::FIRST);
        Naive {
            n,
            cells,
            side: Seat::FIRST,
        }
    }

    fn at(&self, r: isize, c: isize) -> Option<Option<Seat>> {
        let n = self.n as isize;
        if r < 0 || c < 0 || r >= n || c >= n {
            None
        } else {
            Some(self.cells[(r * n + c) as usize])
        }
    }

    /// Discs flipped by `seat` playing (r, c); empty if the square is taken or nothing flips.
    fn flips(&self, seat: Seat, r: usize, c: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if self.cells[r * self.n + c].is_some() {
            return out;
        }
        for (dr, dc) in DIRS {
            let mut line = Vec::new();
            let (mut rr, mut cc) = (r as isize + dr, c as isize + dc);
            loop {
                match self.at(rr, cc) {
                    Some(Some(s)) if s == seat.other() => line.push((rr as usize, cc as usize)),
                    Some(Some(_)) => {
                        out.extend(line);
                        break;
                    }
                    _ => break,
                }
                rr += dr;
                cc += dc;
            }
        }
        out.sort();
        out
    }

    fn legal(&self, seat: Seat) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                if !self.flips(seat, r, c).is_empty() {
                    v.push((r, c));
                }
            }
        }
        v
    }

    fn over(&self) -> bool {
        self.legal(Seat::FIRST).is_empty() && self.legal(Seat::SECOND).is_empty()
    }

    /// Legal plies of the side to move: placements, or a lone pass, or nothing when over.
    fn moves(&self) -> Vec<Move> {
        if self.over() {
            return Vec::new();
        }
        let places = self.legal(self.side);
        if places.is_empty() {
            return vec![Move::Pass];
        }
        places
            .into_iter()
            .map(|(r, c)| Move::Place {
                row: r as u8,
                col: c as u8,
            })
            .collect()
    }

    fn play(&mut self, mv: Move) {
        if let Move::Place { row, col } = mv {
            let (r, c) = (row as usize, col as usize);
            let f = self.flips(self.side, r, c);
            assert!(!f.is_empty(), "naive: illegal move {mv:?}");
            for (fr, fc) in f {
                self.cells[fr * self.n + fc] = Some(self.side);
            }
            self.cells[r * self.n + c] = Some(self.side);
        }
        self.side = self.side.other();
    }

    fn count(&self, seat: Seat) -> u16 {
        self.cells.iter().filter(|c| **c == Some(seat)).count() as u16
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut next = self.clone();
                next.play(mv);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// xorshift64*: deterministic random playouts.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn new_game(size: u8) -> Reversi {
    Reversi::new(&Config { size }).expect("valid size")
}

/// Everything observable must agree between the two implementations.
fn assert_same(g: &Reversi, naive: &Naive, context: &str) {
    let n = naive.n;
    for r in 0..n {
        for c in 0..n {
            assert_eq!(
                g.disc(r as u8, c as u8),
                naive.cells[r * n + c],
                "{context}: disc at ({r},{c})\n{g}"
            );
        }
    }
    // Off the board there is never a disc.
    assert_eq!(g.disc(n as u8, 0), None);
    assert_eq!(g.disc(0, n as u8), None);
    let counts = [naive.count(Seat::FIRST), naive.count(Seat::SECOND)];
    assert_eq!(g.counts(), counts, "{context}: counts");
    assert_eq!(
        g.scores(),
        [i64::from(counts[0]), i64::from(counts[1])],
        "{context}: scores"
    );

    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let want = naive.moves();
    assert_eq!(moves, want, "{context}: legal moves\n{g}");

    let places: Vec<(u8, u8)> = g.legal_places().collect();
    let want_places: Vec<(u8, u8)> = want
        .iter()
        .filter_map(|m| match m {
            Move::Place { row, col } => Some((*row, *col)),
            Move::Pass => None,
        })
        .collect();
    assert_eq!(places, want_places, "{context}: legal_places");
    assert_eq!(g.legal_places().len(), want_places.len());
    for seat in Seat::BOTH {
        assert_eq!(
            g.mobility(seat) as usize,
            naive.legal(seat).len(),
            "{context}: mobility of {seat}"
        );
    }

    if want.is_empty() {
        assert_eq!(g.to_move(), None, "{context}: game should be over");
        assert_eq!(g.forced_move(), None);
        let outcome = g.outcome().expect("over");
        assert_eq!(outcome.reason, EndReason::NoMoves { discs: counts });
        let winner = match counts[0].cmp(&counts[1]) {
            std::cmp::Ordering::Greater => Some(Seat::FIRST),
            std::cmp::Ordering::Less => Some(Seat::SECOND),
            std::cmp::Ordering::Equal => None,
        };
        assert_eq!(outcome.winner, winner, "{context}: winner");
    } else {
        assert_eq!(g.to_move(), Some(naive.side), "{context}: side to move");
        assert_eq!(g.outcome(), None, "{context}: not over yet");
        let forced = (want == [Move::Pass]).then_some(Move::Pass);
        assert_eq!(g.forced_move(), forced, "{context}: forced move");
    }
}

fn playouts(size: u8, games: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let (mut passes, mut ends_early) = (0, 0);
    for game in 0..games {
        let mut g = new_game(size);
        let mut naive = Naive::new(size as usize);
        let mut ply = 0;
        loop {
            let context = format!("size {size} game {game} ply {ply}");
            assert_same(&g, &naive, &context);
            assert_eq!(g.ply(), ply, "{context}: ply count");
            let moves = naive.moves();
            if moves.is_empty() {
                if naive.cells.iter().any(|c| c.is_none()) {
                    ends_early += 1;
                }
                break;
            }
            let mv = moves[rng.below(moves.len())];
            // flipped_by agrees with the naive flips.
            let want_flips: Vec<(u8, u8)> = match mv {
                Move::Place { row, col } => naive
                    .flips(naive.side, row as usize, col as usize)
                    .into_iter()
                    .map(|(r, c)| (r as u8, c as u8))
                    .collect(),
                Move::Pass => {
                    passes += 1;
                    Vec::new()
                }
            };
            assert_eq!(g.flipped_by(mv), want_flips, "{context}: flipped_by {mv:?}");
            g.play(mv)
                .unwrap_or_else(|e| panic!("{context}: {mv:?} rejected: {e}"));
            naive.play(mv);
            ply += 1;
        }
    }
    (passes, ends_early)
}

#[test]
fn random_playouts_agree_with_naive_reference_on_every_size() {
    let mut total_passes = 0;
    let mut total_early = 0;
    for size in (4u8..=16).step_by(2) {
        // Small boards are cheap and rich in passes and early ends: play more of them.
        let games = match size {
            4 | 6 => 300,
            8 => 100,
            _ => 12,
        };
        let (passes, early) = playouts(size, games, 0x1234_5678 + u64::from(size));
        total_passes += passes;
        total_early += early;
    }
    // The playouts must have exercised passes and games that end before the board is full.
    assert!(total_passes > 10, "only {total_passes} passes seen");
    assert!(total_early > 10, "only {total_early} early ends seen");
}

#[test]
fn perft_agrees_with_naive_reference_on_every_size() {
    for size in (4u8..=16).step_by(2) {
        let g = new_game(size);
        let naive = Naive::new(size as usize);
        let max_depth = match size {
            4 => 14, // the whole 4 x 4 game tree: passes and finished games included
            6 => 7,
            8 => 6,
            _ => 5,
        };
        for depth in 0..=max_depth {
            assert_eq!(
                perft(&g, depth),
                naive.perft(depth),
                "perft size {size} depth {depth}"
            );
        }
    }
}

#[test]
fn perft_agrees_with_naive_reference_from_random_midgame_positions() {
    // Positions deep into a game (many passes near the end) on every size.
    let mut rng = Rng(0xDEAD_BEEF);
    for size in (4u8..=16).step_by(2) {
        for _ in 0..6 {
            let mut g = new_game(size);
            let mut naive = Naive::new(size as usize);
            let cells = usize::from(size) * usize::from(size);
            let plies = rng.below(cells.saturating_sub(6).max(1));
            for _ in 0..plies {
                let moves = naive.moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                g.play(mv).expect("legal");
                naive.play(mv);
            }
            let depth = if size <= 8 { 4 } else { 3 };
            for d in 0..=depth {
                assert_eq!(
                    perft(&g, d),
                    naive.perft(d),
                    "size {size} after {plies} plies, depth {d}\n{g}"
                );
            }
        }
    }
}
