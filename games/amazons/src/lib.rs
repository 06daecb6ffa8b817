//! The Game of the Amazons on 10 x 10. Each seat has four queens (first, white: a4 d1 g1 j4;
//! second, black: a7 d10 g10 j7). A move slides one's queen like a chess queen, then shoots an
//! arrow from where it landed, also like a queen; the arrow's square is blocked for good. A
//! seat with no move on its turn loses. Notation: `d1-d7/g7` (from, to, arrow). Each seat is
//! told the ten rows top to bottom: `.` empty, `1` first's queen, `2` second's, `x` arrow.

use arbiter_game::notation::{push_square, read_square, square};
use arbiter_game::view::{Grid, Mark, Shape, View};
use arbiter_game::{export_game, Clicks, Game, Json, Outcome, Seat, Turn, Viewer};

const N: usize = 10;
const EMPTY: u8 = 0;
const ARROW: u8 = 3;
const STEPS: [(isize, isize); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// A queen's move and its arrow, as square indices (`row * 10 + col`, row 0 at the bottom).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub arrow: u8,
}

#[derive(Clone, Debug)]
pub struct Amazons {
    /// 0 empty, 1 + seat for a queen, 3 an arrow.
    cells: [u8; N * N],
    seat: Seat,
    last: Option<Move>,
    plies: usize,
}

fn at(col: usize, row: usize) -> usize {
    row * N + col
}

impl Amazons {
    /// The empty squares a queen on `from` reaches, calling `f` on each.
    fn rays(&self, from: usize, mut f: impl FnMut(usize)) {
        let (c, r) = ((from % N) as isize, (from / N) as isize);
        for (dc, dr) in STEPS {
            let (mut x, mut y) = (c + dc, r + dr);
            while (0..N as isize).contains(&x) && (0..N as isize).contains(&y) {
                let i = y as usize * N + x as usize;
                if self.cells[i] != EMPTY {
                    break;
                }
                f(i);
                x += dc;
                y += dr;
            }
        }
    }

    fn queens(&self, seat: Seat) -> impl Iterator<Item = usize> + '_ {
        (0..N * N).filter(move |&i| self.cells[i] == 1 + seat as u8)
    }

    /// A queen with an empty neighbour can always move there and shoot back: that is a move.
    fn can_move(&self) -> bool {
        self.queens(self.seat).any(|q| {
            let mut any = false;
            self.rays(q, |_| any = true);
            any
        })
    }
}

impl Game for Amazons {
    type Move = Move;
    const NAME: &'static str = "amazons";
    const VERSION: &'static str = "1.0.0";
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["size"]);

    fn new(config: &Json, _seed: u64) -> Result<Self, String> {
        if config
            .get("size")
            .is_some_and(|s| s.as_u64() != Some(N as u64))
        {
            return Err("amazons is played on 10 x 10 only (size 10)".into());
        }
        let mut cells = [EMPTY; N * N];
        for (c, r) in [(0, 3), (3, 0), (6, 0), (9, 3)] {
            cells[at(c, r)] = 1;
            cells[at(c, N - 1 - r)] = 2;
        }
        Ok(Amazons {
            cells,
            seat: 0,
            last: None,
            plies: 0,
        })
    }

    fn turn(&self) -> Turn {
        Turn::of(self.can_move().then_some(self.seat))
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<Move>) {
        let mut board = self.clone();
        for from in self.queens(self.seat) {
            board.cells[from] = EMPTY;
            self.rays(from, |to| {
                board.rays(to, |arrow| {
                    out.push(Move {
                        from: from as u8,
                        to: to as u8,
                        arrow: arrow as u8,
                    })
                });
            });
            board.cells[from] = self.cells[from];
        }
    }

    fn play(&mut self, mv: &Move) -> Result<(), String> {
        if self.turn().seat().is_none() {
            return Err("the game is over".into());
        }
        let (from, to, arrow) = (mv.from as usize, mv.to as usize, mv.arrow as usize);
        if from >= N * N || self.cells[from] != 1 + self.seat as u8 {
            return Err(format!("no queen of the side to move on {}", name(from)));
        }
        let mut reach = false;
        self.rays(from, |i| reach |= i == to);
        if !reach {
            return Err(format!(
                "the queen on {} cannot reach {}",
                name(from),
                name(to)
            ));
        }
        let mut board = self.clone();
        board.cells[from] = EMPTY;
        board.cells[to] = self.cells[from];
        let mut hits = false;
        board.rays(to, |i| hits |= i == arrow);
        if !hits {
            return Err(format!(
                "an arrow from {} cannot reach {}",
                name(to),
                name(arrow)
            ));
        }
        board.cells[arrow] = ARROW;
        board.seat = 1 - self.seat;
        board.last = Some(*mv);
        board.plies += 1;
        *self = board;
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        (!self.can_move()).then(|| {
            Outcome::decided(
                Some(1 - self.seat),
                self.scores(),
                &format!("{} cannot move", ["first", "second"][self.seat]),
            )
        })
    }

    fn scores(&self) -> Vec<i64> {
        let over = !self.can_move();
        (0..2).map(|s| i64::from(over && s != self.seat)).collect()
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let bad = || format!("{text:?} is not a move like d1-d7/g7");
        let (from, rest) = read_square(text.trim(), N, N).ok_or_else(bad)?;
        let rest = rest.strip_prefix('-').ok_or_else(bad)?;
        let (to, rest) = read_square(rest, N, N).ok_or_else(bad)?;
        let rest = rest.strip_prefix('/').ok_or_else(bad)?;
        let (arrow, rest) = read_square(rest, N, N).ok_or_else(bad)?;
        if !rest.is_empty() {
            return Err(bad());
        }
        let index = |(c, r): (usize, usize)| at(c, r) as u8;
        Ok(Move {
            from: index(from),
            to: index(to),
            arrow: index(arrow),
        })
    }

    fn format_move(&self, mv: &Move) -> String {
        let mut s = String::with_capacity(11);
        for (i, sep) in [(mv.from, ""), (mv.to, "-"), (mv.arrow, "/")] {
            s.push_str(sep);
            push_square(&mut s, i as usize % N, i as usize / N);
        }
        s
    }

    fn tell(&self, _seat: Seat) -> String {
        let row = |r: usize| -> String {
            self.cells[r * N..(r + 1) * N]
                .iter()
                .map(|&c| ['.', '1', '2', 'x'][c as usize])
                .collect()
        };
        (0..N).rev().map(row).collect::<Vec<_>>().join("\n")
    }

    fn view(&self, _viewer: Viewer) -> View {
        let mut v = View::board(Grid::Cells, N as u16, N as u16).chess_labels();
        let top = |i: usize| ((i % N) as u16, (N - 1 - i / N) as u16);
        for (i, &c) in self.cells.iter().enumerate() {
            let (x, y) = top(i);
            match c {
                1 | 2 => v.piece(x, y, Shape::Queen, Some(c - 1)),
                ARROW => v.piece(x, y, Shape::Cross, None),
                _ => {}
            }
        }
        if let Some(m) = self.last {
            for i in [m.from, m.to, m.arrow] {
                let (x, y) = top(i as usize);
                v.mark(x, y, Mark::Last, None);
            }
        }
        v.text.push(format!("ply {}", self.plies));
        v
    }

    /// The queen, where it goes, where its arrow lands: three clicks.
    fn clicks(&self, _seat: Seat, mv: &Move) -> Option<Clicks> {
        let cell = |i: u8| {
            let i = usize::from(i);
            [(i % N) as u16, (N - 1 - i / N) as u16]
        };
        Some(Clicks::Cells(vec![
            cell(mv.from),
            cell(mv.to),
            cell(mv.arrow),
        ]))
    }
}

fn name(i: usize) -> String {
    square(i % N, i / N)
}

export_game!(Amazons);

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_game::perft;

    fn start() -> Amazons {
        Amazons::new(&Json::Null, 0).unwrap()
    }

    #[test]
    fn perft_matches_published_counts() {
        assert_eq!(perft(&start(), 1), 2_176);
        assert_eq!(perft(&start(), 2), 4_307_152);
    }

    #[test]
    fn moves_round_trip_and_illegal_ones_are_explained() {
        let mut g = start();
        let mut moves = Vec::new();
        g.legal_moves(g.turn().seat().unwrap_or(0), &mut moves);
        for m in &moves {
            assert_eq!(g.parse_move(&g.format_move(m)).as_ref(), Ok(m));
        }
        let m = g.parse_move("d1-d7/g7").unwrap();
        g.play(&m).unwrap();
        assert_eq!(g.turn().seat(), Some(1));
        let e = g
            .parse_move("d10-d7/d8")
            .and_then(|m| g.play(&m))
            .unwrap_err();
        assert!(e.contains("cannot reach d7"), "{e}");
        assert!(g.parse_move("a7-a8").is_err());
        assert!(g.parse_move("a7-a8/a9x").is_err());
        assert!(g.view(Viewer::All).check(2).is_ok());
    }

    #[test]
    fn every_move_is_three_clicks_told_apart() {
        let mut g = start();
        let m = g.parse_move("d1-d7/g7").unwrap();
        // d1 is column 3 of the bottom row (row 9 from the top).
        assert_eq!(
            g.clicks(g.turn().seat().unwrap_or(0), &m),
            Some(Clicks::Cells(vec![[3, 9], [3, 3], [6, 3]]))
        );
        for _ in 0..12 {
            arbiter_game::check_clicks(&g).unwrap();
            let mut moves = Vec::new();
            g.legal_moves(g.turn().seat().unwrap_or(0), &mut moves);
            let pick = moves[moves.len() / 3];
            g.play(&pick).unwrap();
        }
    }

    #[test]
    fn a_walled_in_side_loses() {
        let mut g = start();
        g.cells = [ARROW; N * N];
        g.cells[0] = 1;
        g.cells[99] = 2;
        g.cells[98] = EMPTY;
        assert_eq!(g.turn().seat(), None);
        let o = g.outcome().unwrap();
        assert_eq!(
            (o.winner(), o.reason.as_str()),
            (Some(1), "first cannot move")
        );
        g.seat = 1;
        assert_eq!(g.turn().seat(), Some(1));
    }
}
