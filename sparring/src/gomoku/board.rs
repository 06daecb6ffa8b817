//! The search's board: stones, and for every empty point and colour what a stone there would
//! make ([`Info`]), kept up to date move by move. A stone changes the lines of at most 40
//! points (five each way in four directions), so playing and taking back a move costs a few
//! hundred table look-ups, not a scan of the board.
//!
//! The engine stays the rules oracle for the moves the bot plays (see `super::allowed`); this
//! board only guides the search. Renju's forbidden points are read the simple way here (an
//! overline, two fours or two threes, every three counted as real).

use std::sync::OnceLock;

use arbiter_engine::gomoku::{Gomoku, Point, Rule};
use arbiter_engine::Seat;

use super::shape::{digit, table, Shape, BLOCKED, OWN, REACH};

/// The four line directions (dx, dy).
pub const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// What a stone of one colour on an empty point would make, all lines together; strongest
/// last. `Forbidden`: black may not play it under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Class {
    #[default]
    Quiet,
    /// An open three: next, an open four.
    Three,
    /// Two open threes (black's are forbidden under renju).
    DoubleThree,
    /// A four: the opponent must answer at once.
    Four,
    /// A four and an open three.
    FourThree,
    /// An open four, or two fours: a five next that one stone cannot stop.
    OpenFour,
    Five,
    Forbidden,
}

/// Number of classes.
const CLASSES: usize = 8;

/// A point's value for one colour: its class and a score for ordering and evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub class: Class,
    pub score: i32,
}

/// A rectangle of points, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

impl Bounds {
    const EMPTY: Bounds = Bounds {
        x0: i32::MAX / 2,
        y0: i32::MAX / 2,
        x1: i32::MIN / 2,
        y1: i32::MIN / 2,
    };

    fn with(self, x: i32, y: i32) -> Bounds {
        Bounds {
            x0: self.x0.min(x),
            y0: self.y0.min(y),
            x1: self.x1.max(x),
            y1: self.y1.max(y),
        }
    }
}

/// Score of each shape along one line (index: `Shape as usize`).
const SHAPE_SCORE: [i32; 10] = [0, 1, 4, 12, 14, 60, 70, 600, 6000, 0];

#[derive(Clone)]
pub struct Board {
    pub n: i32,
    /// 0 empty, 1 black, 2 white.
    cells: Vec<u8>,
    /// Per point, per direction, per colour: the key of its line (see `shape`).
    keys: Vec<[[u16; 2]; 4]>,
    /// Per point, per colour: the shape on each line (read from `keys`).
    shapes: Vec<[[Shape; 4]; 2]>,
    info: Vec<[Info; 2]>,
    /// Stones within two lines of the point (a candidate when above 0).
    near: Vec<u8>,
    /// Sum of `info.score` over the empty points, per colour.
    sums: [i64; 2],
    /// Points of each class, per colour.
    counts: [[u32; CLASSES]; 2],
    pub hash: u64,
    zobrist: Vec<[u64; 2]>,
    /// Each placed stone with the stones' bounding box before it.
    history: Vec<(usize, Bounds)>,
    /// The stones' bounding box (empty: min above max).
    bounds: Bounds,
    tables: [&'static [Shape]; 2],
    /// Black's forbidden points apply (renju).
    renju: bool,
}

impl Board {
    pub fn of(game: &Gomoku) -> Board {
        let n = i32::from(game.size());
        let points = (n * n) as usize;
        let (long, renju) = match game.rule() {
            Rule::Freestyle => ([true, true], false),
            Rule::Standard => ([false, false], false),
            Rule::Renju | Rule::RenjuGomocup => ([false, true], true),
        };
        let mut zobrist = Vec::with_capacity(points);
        let mut rng = crate::Rng::new(0x5EED_0F60_0000 ^ n as u64);
        for _ in 0..points {
            zobrist.push([rng.next_u64(), rng.next_u64()]);
        }
        let mut board = Board {
            n,
            cells: vec![0; points],
            keys: vec![[[0; 2]; 4]; points],
            shapes: vec![[[Shape::Dead; 4]; 2]; points],
            info: vec![[Info::default(); 2]; points],
            near: vec![0; points],
            sums: [0; 2],
            counts: [[0; CLASSES]; 2],
            hash: 0,
            zobrist,
            history: Vec::new(),
            bounds: Bounds::EMPTY,
            tables: [table(long[0]), table(long[1])],
            renju,
        };
        board.counts = [[0; CLASSES]; 2];
        for c in 0..2 {
            board.counts[c][Class::Quiet as usize] = points as u32;
        }
        board.init_edges();
        for y in 0..n {
            for x in 0..n {
                if let Some(seat) = game.stone(Point::new(x as u8, y as u8)) {
                    board.place(board.index(x, y), seat);
                }
            }
        }
        board.history.clear();
        board
    }

    pub fn index(&self, x: i32, y: i32) -> usize {
        (y * self.n + x) as usize
    }

    pub fn point(&self, i: usize) -> Point {
        let n = self.n as usize;
        Point::new((i % n) as u8, (i / n) as u8)
    }

    pub fn points(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self, i: usize) -> bool {
        self.cells[i] == 0
    }

    pub fn stones(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }

    /// The points that may be candidates: the stones' bounding box and two lines around it.
    pub fn near_points(&self) -> impl Iterator<Item = usize> + '_ {
        let b = self.bounds;
        let (x0, x1) = ((b.x0 - 2).max(0), (b.x1 + 2).min(self.n - 1));
        let (y0, y1) = ((b.y0 - 2).max(0), (b.y1 + 2).min(self.n - 1));
        (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| self.index(x, y)))
    }

    /// An empty point near the stones: worth a look.
    pub fn is_candidate(&self, i: usize) -> bool {
        self.cells[i] == 0 && self.near[i] > 0
    }

    pub fn info(&self, i: usize, seat: Seat) -> Info {
        self.info[i][seat.index()]
    }

    /// Sum of the point scores of `seat` over the empty points.
    pub fn sum(&self, seat: Seat) -> i64 {
        self.sums[seat.index()]
    }

    fn on_board(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.n && y < self.n
    }

    /// Cells off the board are blocked for both colours; then every point's information.
    fn init_edges(&mut self) {
        for y in 0..self.n {
            for x in 0..self.n {
                let i = self.index(x, y);
                for (d, (dx, dy)) in DIRS.into_iter().enumerate() {
                    let mut key = 0;
                    for k in 1..=REACH as i32 {
                        for s in [-1, 1] {
                            if !self.on_board(x + s * k * dx, y + s * k * dy) {
                                key += BLOCKED * digit(s * k);
                            }
                        }
                    }
                    self.keys[i][d] = [key; 2];
                    for seat in Seat::BOTH {
                        self.reread(i, d, seat);
                    }
                }
                for seat in Seat::BOTH {
                    self.set_info(i, seat, self.compute(i, seat));
                }
            }
        }
    }

    /// Replaces a point's information, keeping the sums and class counts.
    fn set_info(&mut self, i: usize, seat: Seat, info: Info) {
        let c = seat.index();
        let old = self.info[i][c];
        self.sums[c] += i64::from(info.score - old.score);
        self.counts[c][old.class as usize] -= 1;
        self.counts[c][info.class as usize] += 1;
        self.info[i][c] = info;
    }

    /// How many points have `class` for `seat` (occupied points count as quiet).
    pub fn count(&self, seat: Seat, class: Class) -> u32 {
        self.counts[seat.index()][class as usize]
    }

    /// Puts a stone of `seat` on the empty point `i`.
    pub fn place(&mut self, i: usize, seat: Seat) {
        // An occupied point has nothing to offer (and is not refreshed until it is empty).
        for s in Seat::BOTH {
            self.set_info(i, s, Info::default());
        }
        self.cells[i] = 1 + seat.index() as u8;
        self.hash ^= self.zobrist[i][seat.index()];
        self.history.push((i, self.bounds));
        let (x, y) = ((i as i32) % self.n, (i as i32) / self.n);
        self.bounds = self.bounds.with(x, y);
        self.update_lines(i, seat, 1);
        self.update_near(i, 1);
    }

    /// Takes back the last stone.
    pub fn undo(&mut self) {
        let Some((i, bounds)) = self.history.pop() else {
            return;
        };
        self.bounds = bounds;
        let seat = if self.cells[i] == 1 {
            Seat::FIRST
        } else {
            Seat::SECOND
        };
        self.cells[i] = 0;
        self.hash ^= self.zobrist[i][seat.index()];
        self.update_lines(i, seat, -1);
        self.update_near(i, -1);
        for d in 0..DIRS.len() {
            for s in Seat::BOTH {
                self.reread(i, d, s);
            }
        }
        for s in Seat::BOTH {
            self.set_info(i, s, self.compute(i, s));
        }
    }

    /// The stone on `i` (of `seat`) appears (`sign` 1) or goes (-1) in the keys of the points
    /// whose lines reach it; their information is worked out again.
    fn update_lines(&mut self, i: usize, seat: Seat, sign: i32) {
        let (x, y) = ((i as i32) % self.n, (i as i32) / self.n);
        for (d, (dx, dy)) in DIRS.into_iter().enumerate() {
            for k in 1..=REACH as i32 {
                for s in [-1, 1] {
                    // The point q sees the stone `s * k` steps along its line.
                    let (qx, qy) = (x - s * k * dx, y - s * k * dy);
                    if !self.on_board(qx, qy) {
                        continue;
                    }
                    let q = self.index(qx, qy);
                    let weight = i32::from(digit(s * k));
                    for c in Seat::BOTH {
                        let cell = if c == seat { OWN } else { BLOCKED };
                        let key = &mut self.keys[q][d][c.index()];
                        *key = (i32::from(*key) + sign * i32::from(cell) * weight) as u16;
                    }
                    // An occupied point's shapes are read again when it is emptied.
                    if self.cells[q] == 0 {
                        for c in Seat::BOTH {
                            self.reshape(q, d, c);
                        }
                    }
                }
            }
        }
    }

    /// Reads the shape of `seat` on line `d` through the empty point `q` again; if it changed,
    /// so does the point's information.
    fn reshape(&mut self, q: usize, d: usize, seat: Seat) {
        let c = seat.index();
        let old = self.shapes[q][c][d];
        let new = self.tables[c][usize::from(self.keys[q][d][c])];
        if new != old {
            self.shapes[q][c][d] = new;
            self.set_info(q, seat, self.compute(q, seat));
        }
    }

    fn update_near(&mut self, i: usize, sign: i32) {
        let (x, y) = ((i as i32) % self.n, (i as i32) / self.n);
        for qy in (y - 2).max(0)..=(y + 2).min(self.n - 1) {
            for qx in (x - 2).max(0)..=(x + 2).min(self.n - 1) {
                let q = self.index(qx, qy);
                self.near[q] = (i32::from(self.near[q]) + sign) as u8;
            }
        }
    }

    /// Reads the shape of `seat` on line `d` through `i` from its key.
    fn reread(&mut self, i: usize, d: usize, seat: Seat) {
        let key = usize::from(self.keys[i][d][seat.index()]);
        self.shapes[i][seat.index()][d] = self.tables[seat.index()][key];
    }

    /// What a stone of `seat` on the empty point `i` would make.
    fn compute(&self, i: usize, seat: Seat) -> Info {
        let renju_black = self.renju && seat == Seat::FIRST;
        let s = self.shapes[i][seat.index()];
        let index = s[0] as usize + 10 * s[1] as usize + 100 * s[2] as usize + 1000 * s[3] as usize;
        combined(renju_black)[index]
    }
}

/// Builds the line and combination tables now rather than on the first move.
pub fn warm_up() {
    let _ = (table(false), table(true), combined(false), combined(true));
}

/// [`classify`] of every four shapes (index: the shapes as digits of a base-10 number).
fn combined(renju_black: bool) -> &'static [Info] {
    static TABLES: OnceLock<[Vec<Info>; 2]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| [build_combined(false), build_combined(true)]);
    &tables[usize::from(renju_black)]
}

fn build_combined(renju_black: bool) -> Vec<Info> {
    const ALL: [Shape; 10] = [
        Shape::Dead,
        Shape::One,
        Shape::ClosedTwo,
        Shape::OpenTwo,
        Shape::ClosedThree,
        Shape::OpenThree,
        Shape::Four,
        Shape::OpenFour,
        Shape::Five,
        Shape::Overline,
    ];
    (0..10_000)
        .map(|i| {
            let shapes = [
                ALL[i % 10],
                ALL[i / 10 % 10],
                ALL[i / 100 % 10],
                ALL[i / 1000],
            ];
            classify(shapes, renju_black)
        })
        .collect()
}

/// A point's class and score from its four lines.
fn classify(shapes: [Shape; 4], renju_black: bool) -> Info {
    let count = |f: fn(Shape) -> bool| shapes.iter().filter(|&&s| f(s)).count();
    let fives = count(|s| s == Shape::Five);
    let fours = count(|s| matches!(s, Shape::Four | Shape::OpenFour));
    let open_fours = count(|s| s == Shape::OpenFour);
    let threes = count(|s| s == Shape::OpenThree);
    let overline = count(|s| s == Shape::Overline) > 0;
    let score: i32 = shapes.iter().map(|&s| SHAPE_SCORE[s as usize]).sum();
    let class = if fives > 0 {
        Class::Five
    } else if renju_black && (overline || fours >= 2 || threes >= 2) {
        return Info {
            class: Class::Forbidden,
            score: 0,
        };
    } else if open_fours > 0 || fours >= 2 {
        Class::OpenFour
    } else if fours == 1 && threes > 0 {
        Class::FourThree
    } else if fours == 1 {
        Class::Four
    } else if threes >= 2 {
        Class::DoubleThree
    } else if threes == 1 {
        Class::Three
    } else {
        Class::Quiet
    };
    let bonus = match class {
        Class::OpenFour => 600,
        Class::FourThree => 400,
        Class::DoubleThree => 200,
        _ => 0,
    };
    Info {
        class,
        score: score + bonus,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::gomoku::Config;
    use arbiter_engine::Game;

    fn game(rule: Rule, moves: &[(u8, u8)]) -> Gomoku {
        let mut g = Gomoku::new(&Config { size: 15, rule }).expect("config");
        for &(x, y) in moves {
            g.play(Point::new(x, y)).expect("legal");
        }
        g
    }

    /// Playing and taking back moves leaves exactly the board built from scratch.
    #[test]
    fn incremental_updates_match_a_fresh_board() {
        let mut rng = crate::Rng::new(3);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let mut g = game(rule, &[]);
            let mut board = Board::of(&g);
            for _ in 0..40 {
                let mut legal = Vec::new();
                g.legal_moves(&mut legal);
                let near: Vec<Point> = legal
                    .into_iter()
                    .filter(|p| p.x.abs_diff(7) <= 4 && p.y.abs_diff(7) <= 4)
                    .collect();
                let Some(p) = rng.pick(&near) else { break };
                let seat = g.to_move().expect("running");
                if g.play(p).is_err() {
                    continue;
                }
                if g.outcome().is_some() {
                    break;
                }
                board.place(board.index(i32::from(p.x), i32::from(p.y)), seat);
                // A move tried and taken back changes nothing.
                let spare = (0..board.points()).find(|&i| board.is_candidate(i));
                if let Some(q) = spare {
                    board.place(q, seat.other());
                    board.undo();
                }
                let fresh = Board::of(&g);
                assert!(board.keys == fresh.keys, "keys differ");
                for i in (0..board.points()).filter(|&i| board.is_empty(i)) {
                    assert_eq!(board.shapes[i], fresh.shapes[i], "{:?}", board.point(i));
                }
                if let Some(i) = (0..board.points()).find(|&i| board.info[i] != fresh.info[i]) {
                    panic!(
                        "{:?}: {:?} != {:?}",
                        board.point(i),
                        board.info[i],
                        fresh.info[i]
                    );
                }
                assert!(board.near == fresh.near, "near differs");
                assert_eq!(board.sums, fresh.sums);
                assert_eq!(board.counts, fresh.counts);
                assert_eq!(board.hash, fresh.hash);
            }
        }
    }

    #[test]
    fn classes_of_known_points() {
        // Black: H8 I8 J8 (7..9, 7) open three; white far away.
        let g = game(
            Rule::Freestyle,
            &[(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4)],
        );
        let b = Board::of(&g);
        let at = |x, y| b.info(b.index(x, y), Seat::FIRST).class;
        assert_eq!(at(10, 7), Class::OpenFour);
        assert_eq!(at(6, 7), Class::OpenFour);
        assert_eq!(at(11, 7), Class::Four);
        // White's column 0 (0, 0, 2, 4): 0,3 makes X.XXX against the edge, a four.
        let w = |x, y| b.info(b.index(x, y), Seat::SECOND).class;
        assert_eq!(w(0, 3), Class::Four);
        assert_eq!(w(0, 6), Class::Quiet);
    }
}
