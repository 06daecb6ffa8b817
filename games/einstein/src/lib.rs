//! EinStein würfelt nicht! on 5 x 5, the proof game with chance. Each seat has six cubes
//! numbered 1 to 6 in its corner triangle: first in the top left (a5 b5 c5 a4 b4 a3), second in
//! the bottom right (e1 d1 c1 e2 d2 e3). Each turn a die is rolled (from the seed: the same
//! seed, the same rolls); the roller moves the cube with that number or, when it is gone, the
//! next higher or the next lower cube still on the board (the roller's choice between the two).
//! A cube steps one square toward the far corner: right, down or diagonally down-right for
//! first; left, up or diagonally up-left for second. It captures whatever cube stands there, its
//! own side's too. A seat wins by reaching the far corner (e1 for first, a5 for second) or by
//! capturing every opposing cube. There are no draws and no passes.
//!
//! Notation: `3:c4` (cube 3 to c4). Each seat is told `DIE r` (the roll of the ply to play,
//! left out once the game is over), then `FIRST` and `SECOND` with each side's cubes in the
//! notation (`FIRST 1:a5 2:b5 ...`).
//!
//! Config: `first` and `second`, the cubes' numbers on their start squares in the order above
//! (six distinct numbers 1..6; default `[1,2,3,4,5,6]` for both: a 180-degree turn of each
//! other), and `arrangement`: `"fixed"` (default) or `"seed"`, which draws each side's
//! arrangement not given from the seed.
//!
//! The die of ply `p` (0 the first ply) is `1 + splitmix64(seed + (p + 1) * 0x9E3779B97F4A7C15)
//! % 6`, the `p + 1`-th output of SplitMix64 seeded with the seed, so that other programs can
//! reproduce the rolls; see [`die`].

use arbiter_game::notation::{parse_square, push_square, square};
use arbiter_game::view::{Grid, Mark, Shape, View};
use arbiter_game::{export_game, win_scores, Clicks, Game, Json, Outcome, Seat, Turn, Viewer};

/// The board's side.
pub const N: usize = 5;
/// The start squares (col, row; row 0 at the bottom) of first's cubes, in config order.
pub const FIRST_START: [(usize, usize); 6] = [(0, 4), (1, 4), (2, 4), (0, 3), (1, 3), (0, 2)];
/// SplitMix64's increment (the golden ratio in 64 bits).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
/// Keys the arrangement draw apart from the dice, so that `"arrangement": "seed"` leaves the
/// rolls as they are.
const ARRANGEMENT_KEY: u64 = 0x4549_4E53_5445_494E;
const SEAT_NAMES: [&str; 2] = ["first", "second"];

/// SplitMix64's output function.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The die (1..=6) of ply `ply` (0 the first) of the game with `seed`.
pub fn die(seed: u64, ply: u64) -> u8 {
    let state = seed.wrapping_add(ply.wrapping_add(1).wrapping_mul(GOLDEN));
    (mix(state) % 6) as u8 + 1
}

/// A seat's start squares, in config order: second's mirror first's through the centre.
fn start_square(seat: Seat, k: usize) -> usize {
    let (c, r) = FIRST_START[k];
    let (c, r) = if seat == 0 {
        (c, r)
    } else {
        (N - 1 - c, N - 1 - r)
    };
    r * N + c
}

/// The corner a seat's cubes race to.
fn goal(seat: Seat) -> usize {
    if seat == 0 {
        N - 1
    } else {
        (N - 1) * N
    }
}

/// One step toward the far corner: (dcol, drow), row 0 at the bottom.
fn steps(seat: Seat) -> [(isize, isize); 3] {
    if seat == 0 {
        [(1, 0), (0, -1), (1, -1)]
    } else {
        [(-1, 0), (0, 1), (-1, 1)]
    }
}

/// A cube moved by its number to a square (index `row * 5 + col`, row 0 at the bottom); where
/// it came from follows from the position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    pub cube: u8,
    pub to: u8,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Last {
    seat: Seat,
    roll: u8,
    from: u8,
    mv: Move,
}

#[derive(Clone, Debug)]
pub struct Einstein {
    /// 0 empty, else `seat * 6 + cube` (first's cubes 1..=6, second's 7..=12).
    cells: [u8; N * N],
    seed: u64,
    plies: u64,
    /// A search's copy ([`Game::reseed`]): from this ply on, the dice come from this seed.
    future: Option<(u64, u64)>,
    seat: Seat,
    last: Option<Last>,
    /// The winner and why, once over.
    winner: Option<(Seat, &'static str)>,
}

fn seat_of(v: u8) -> Seat {
    usize::from(v > 6)
}

fn cube_of(v: u8) -> u8 {
    (v - 1) % 6 + 1
}

/// A side's arrangement from the config: `key` given, or drawn, or the default.
fn arrangement(config: &Json, key: &str, draw: Option<&mut u64>) -> Result<[u8; 6], String> {
    let bad = || format!("{key} must be the six numbers 1 to 6, each once, like [1,2,3,4,5,6]");
    if let Some(v) = config.get(key) {
        let list = v.as_array().filter(|l| l.len() == 6).ok_or_else(bad)?;
        let mut out = [0u8; 6];
        for (slot, n) in out.iter_mut().zip(list) {
            *slot = n.as_u64().filter(|n| (1..=6).contains(n)).ok_or_else(bad)? as u8;
        }
        let mut seen = [false; 7];
        for &n in &out {
            if std::mem::replace(&mut seen[usize::from(n)], true) {
                return Err(bad());
            }
        }
        return Ok(out);
    }
    let mut out = [1, 2, 3, 4, 5, 6];
    if let Some(state) = draw {
        // Fisher-Yates with SplitMix64 outputs.
        for i in (1..6).rev() {
            *state = state.wrapping_add(GOLDEN);
            let j = (mix(*state) % (i as u64 + 1)) as usize;
            out.swap(i, j);
        }
    }
    Ok(out)
}

impl Einstein {
    /// The die for the ply to play.
    pub fn roll(&self) -> u8 {
        match self.future {
            Some((from, seed)) if self.plies >= from => die(seed, self.plies),
            _ => die(self.seed, self.plies),
        }
    }

    /// Where `seat`'s cube `cube` stands.
    fn find(&self, seat: Seat, cube: u8) -> Option<usize> {
        let v = seat as u8 * 6 + cube;
        self.cells.iter().position(|&c| c == v)
    }

    /// The cubes the side to move may move for the roll: the rolled one, else the nearest
    /// higher and the nearest lower still on the board.
    pub fn movable(&self) -> Vec<u8> {
        let here = |c: &u8| self.find(self.seat, *c).is_some();
        let r = self.roll();
        if here(&r) {
            return vec![r];
        }
        let lower = (1..r).rev().find(here);
        let higher = (r + 1..=6).find(here);
        lower.into_iter().chain(higher).collect()
    }

    /// The squares a cube on `from` of `seat` can step to.
    fn targets(seat: Seat, from: usize) -> impl Iterator<Item = usize> {
        let (c, r) = ((from % N) as isize, (from / N) as isize);
        steps(seat).into_iter().filter_map(move |(dc, dr)| {
            let (x, y) = (c + dc, r + dr);
            let inside = (0..N as isize).contains(&x) && (0..N as isize).contains(&y);
            inside.then(|| y as usize * N + x as usize)
        })
    }

    /// A side's cubes in the notation (`1:a5 2:b5`), by number.
    fn cubes_text(&self, seat: Seat) -> String {
        let mut s = String::new();
        for cube in 1..=6 {
            if let Some(i) = self.find(seat, cube) {
                s.push(' ');
                s.push_str(&self.format_move(&Move { cube, to: i as u8 }));
            }
        }
        s
    }
}

impl Game for Einstein {
    type Move = Move;
    const NAME: &'static str = "einstein";
    const VERSION: &'static str = "1.0.0";
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["first", "second", "arrangement"]);
    const KIND: arbiter_game::Kind = arbiter_game::Kind {
        chance: true,
        ..arbiter_game::Kind::PLAIN
    };

    fn new(config: &Json, seed: u64) -> Result<Self, String> {
        let mut state = seed ^ ARRANGEMENT_KEY;
        let draw = match config.get("arrangement") {
            None => false,
            Some(v) => match v.as_str() {
                Some("fixed") => false,
                Some("seed") => true,
                _ => return Err("arrangement must be \"fixed\" or \"seed\"".into()),
            },
        };
        let mut cells = [0u8; N * N];
        for (seat, key) in ["first", "second"].into_iter().enumerate() {
            let order = arrangement(config, key, draw.then_some(&mut state))?;
            for (k, cube) in order.into_iter().enumerate() {
                cells[start_square(seat, k)] = seat as u8 * 6 + cube;
            }
        }
        Ok(Einstein {
            cells,
            seed,
            plies: 0,
            future: None,
            seat: 0,
            last: None,
            winner: None,
        })
    }

    fn turn(&self) -> Turn {
        Turn::of(self.winner.is_none().then_some(self.seat))
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<Move>) {
        if self.winner.is_some() {
            return;
        }
        for cube in self.movable() {
            if let Some(from) = self.find(self.seat, cube) {
                for to in Self::targets(self.seat, from) {
                    out.push(Move { cube, to: to as u8 });
                }
            }
        }
    }

    fn play(&mut self, mv: &Move) -> Result<(), String> {
        if self.winner.is_some() {
            return Err("the game is over".into());
        }
        let (seat, roll) = (self.seat, self.roll());
        if !(1..=6).contains(&mv.cube) {
            return Err(format!("there is no cube {}", mv.cube));
        }
        let from = self
            .find(seat, mv.cube)
            .ok_or_else(|| format!("{} has no cube {}", SEAT_NAMES[seat], mv.cube))?;
        let movable = self.movable();
        if !movable.contains(&mv.cube) {
            let list: Vec<String> = movable.iter().map(u8::to_string).collect();
            return Err(format!(
                "the die shows {roll}: move cube {}",
                list.join(" or ")
            ));
        }
        let to = usize::from(mv.to);
        if !Self::targets(seat, from).any(|t| t == to) {
            let to = if to < N * N {
                square(to % N, to / N)
            } else {
                "?".into()
            };
            return Err(format!(
                "cube {} on {} cannot step to {to}",
                mv.cube,
                square(from % N, from / N)
            ));
        }
        self.cells[to] = self.cells[from];
        self.cells[from] = 0;
        self.last = Some(Last {
            seat,
            roll,
            from: from as u8,
            mv: *mv,
        });
        self.plies += 1;
        self.seat = 1 - seat;
        if to == goal(seat) {
            self.winner = Some((seat, "reached the far corner"));
        } else if !self.cells.iter().any(|&c| c != 0 && seat_of(c) != seat) {
            self.winner = Some((seat, "captured every opposing cube"));
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|(seat, why)| {
            Outcome::decided(
                Some(seat),
                win_scores(Some(seat), 2),
                &format!("{} {why}", SEAT_NAMES[seat]),
            )
        })
    }

    fn scores(&self) -> Vec<i64> {
        win_scores(self.winner.map(|(seat, _)| seat), 2)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let t = text.trim();
        let bad = || format!("{t:?} is not a move like 3:c4 (cube 3 to c4)");
        let (cube, to) = t.split_once(':').ok_or_else(bad)?;
        let cube = match cube.as_bytes() {
            [d @ b'1'..=b'6'] => d - b'0',
            _ => return Err(bad()),
        };
        let (c, r) = parse_square(to, N, N).ok_or_else(bad)?;
        Ok(Move {
            cube,
            to: (r * N + c) as u8,
        })
    }

    fn format_move(&self, mv: &Move) -> String {
        let mut s = String::with_capacity(4);
        s.push(char::from(b'0' + mv.cube));
        s.push(':');
        let to = usize::from(mv.to);
        push_square(&mut s, to % N, to / N);
        s
    }

    fn tell(&self, _seat: Seat) -> String {
        let mut s = String::new();
        if self.winner.is_none() {
            s.push_str(&format!("DIE {}\n", self.roll()));
        }
        s.push_str("FIRST");
        s.push_str(&self.cubes_text(0));
        s.push_str("\nSECOND");
        s.push_str(&self.cubes_text(1));
        s
    }

    fn reseed(&mut self, seed: u64) {
        // The roll of the ply to play is known to both sides; the ones after it are not.
        self.future = Some((self.plies + 1, seed));
    }

    /// The cube, then the square it goes to.
    fn clicks(&self, _seat: Seat, mv: &Move) -> Option<Clicks> {
        let top = |i: usize| [(i % N) as u16, (N - 1 - i / N) as u16];
        let from = self.find(self.seat, mv.cube)?;
        Some(Clicks::Cells(vec![top(from), top(usize::from(mv.to))]))
    }

    fn view(&self, _viewer: Viewer) -> View {
        let mut v = View::board(Grid::Cells, N as u16, N as u16).chess_labels();
        let top = |i: usize| ((i % N) as u16, (N - 1 - i / N) as u16);
        for (i, &c) in self.cells.iter().enumerate().filter(|(_, &c)| c != 0) {
            let (x, y) = top(i);
            v.piece(x, y, Shape::Square, Some(seat_of(c) as u8));
            if let Some(p) = v.pieces.last_mut() {
                p.label = Some(cube_of(c).to_string());
            }
        }
        if let Some(last) = self.last {
            for i in [last.from, last.mv.to] {
                let (x, y) = top(usize::from(i));
                v.mark(x, y, Mark::Last, None);
            }
            v.text.push(format!(
                "{} rolled {} and played {}",
                SEAT_NAMES[last.seat],
                last.roll,
                self.format_move(&last.mv)
            ));
        }
        match self.winner {
            Some((seat, why)) => {
                if let Some(last) = self.last {
                    let (x, y) = top(usize::from(last.mv.to));
                    v.mark(x, y, Mark::Win, Some(seat as u8));
                }
                v.text.push(format!("{} won: {why}", SEAT_NAMES[seat]));
            }
            None => {
                let mut moves = Vec::new();
                self.legal_moves(self.seat, &mut moves);
                let mut marked = [false; N * N];
                for m in &moves {
                    // Two cubes may reach one square: mark it once.
                    if !std::mem::replace(&mut marked[usize::from(m.to)], true) {
                        let (x, y) = top(usize::from(m.to));
                        v.mark(x, y, Mark::Target, Some(self.seat as u8));
                    }
                }
                let cubes: Vec<String> = self.movable().iter().map(u8::to_string).collect();
                v.text.push(format!(
                    "die: {} for {} (moves cube {})",
                    self.roll(),
                    SEAT_NAMES[self.seat],
                    cubes.join(" or ")
                ));
            }
        }
        v
    }
}

export_game!(Einstein);

#[cfg(test)]
mod tests;
