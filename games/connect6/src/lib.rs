//! Connect6: first (black) places one stone, then the seats take turns placing two; six or
//! more in a row wins; a full board is a draw. Config `{"size": 19}` (7..=25).
//!
//! Each stone is one ply, so a turn of two stones is the same seat to move twice (a bot is
//! asked twice); perft counts stones. Notation: the point, `j10` (columns a.., no letter
//! skipped; row 1 at the bottom). Each seat is told `SIZE n`, `STONES k` (how many stones the
//! side to move still places this turn) and the rows top to bottom (`.`, `1`, `2`).

use arbiter_game::notation::{parse_square, square};
use arbiter_game::view::{Grid, Mark, Shape, View};
use arbiter_game::{config_number, export_game, Clicks, Game, Json, Outcome, Seat, Turn, Viewer};

#[derive(Clone, Debug)]
pub struct Connect6 {
    size: usize,
    /// Row-major, row 0 at the bottom: 0 empty, 1 + seat.
    cells: Vec<u8>,
    stones: Vec<usize>,
    winner: Option<(Seat, Vec<usize>)>,
}

const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Connect6 {
    /// Who places stone number `k` (0-based): 0, 1 1, 0 0, 1 1, ...
    fn seat_of(k: usize) -> Seat {
        k.div_ceil(2) % 2
    }

    fn stone(&self, col: isize, row: isize) -> Option<u8> {
        let n = self.size as isize;
        ((0..n).contains(&col) && (0..n).contains(&row))
            .then(|| self.cells[(row * n + col) as usize])
    }

    /// The whole line of six or more through `i`, if the stone there made one.
    fn six_through(&self, i: usize) -> Option<Vec<usize>> {
        let me = self.cells[i];
        let (c, r) = ((i % self.size) as isize, (i / self.size) as isize);
        DIRECTIONS.iter().find_map(|&(dc, dr)| {
            let run = |s: isize| {
                (1..)
                    .take_while(|k| self.stone(c + s * k * dc, r + s * k * dr) == Some(me))
                    .count() as isize
            };
            let (back, fwd) = (run(-1), run(1));
            (back + fwd >= 5).then(|| {
                (-back..=fwd)
                    .map(|k| ((r + k * dr) * self.size as isize + c + k * dc) as usize)
                    .collect()
            })
        })
    }

    fn full(&self) -> bool {
        self.stones.len() == self.cells.len()
    }
}

impl Game for Connect6 {
    type Move = usize;
    const NAME: &'static str = "connect6";
    const VERSION: &'static str = "1.0.0";
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["size"]);

    fn new(config: &Json, _seed: u64) -> Result<Self, String> {
        let size = config_number(config, "size", 19, 7..=25)?;
        Ok(Connect6 {
            size,
            cells: vec![0; size * size],
            stones: Vec::new(),
            winner: None,
        })
    }

    fn turn(&self) -> Turn {
        Turn::of((self.winner.is_none() && !self.full()).then(|| Self::seat_of(self.stones.len())))
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<usize>) {
        if self.turn().seat().is_some() {
            out.extend((0..self.cells.len()).filter(|&i| self.cells[i] == 0));
        }
    }

    fn play(&mut self, &i: &usize) -> Result<(), String> {
        let seat = self.turn().seat().ok_or("the game is over")?;
        match self.cells.get(i) {
            Some(0) => {}
            Some(_) => return Err(format!("{} is taken", self.format_move(&i))),
            None => return Err("no such point".into()),
        }
        self.cells[i] = 1 + seat as u8;
        self.stones.push(i);
        self.winner = self.six_through(i).map(|line| (seat, line));
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        let winner = self.winner.as_ref().map(|(seat, _)| *seat);
        Outcome::line_or_full(winner, self.full(), "six in a row")
    }

    fn scores(&self) -> Vec<i64> {
        arbiter_game::win_scores(self.winner.as_ref().map(|(seat, _)| *seat), 2)
    }

    fn parse_move(&self, text: &str) -> Result<usize, String> {
        parse_square(text.trim(), self.size, self.size)
            .map(|(c, r)| r * self.size + c)
            .ok_or_else(|| format!("{text:?} is not a point of the board (like j10)"))
    }

    fn format_move(&self, &i: &usize) -> String {
        square(i % self.size, i / self.size)
    }

    fn tell(&self, _seat: Seat) -> String {
        let k = self.stones.len();
        let left = if k == 0 || Self::seat_of(k + 1) != Self::seat_of(k) {
            1
        } else {
            2
        };
        let mut s = format!("SIZE {}\nSTONES {left}", self.size);
        for r in (0..self.size).rev() {
            s.push('\n');
            let row = &self.cells[r * self.size..(r + 1) * self.size];
            s.extend(row.iter().map(|&c| ['.', '1', '2'][c as usize]));
        }
        s
    }

    fn view(&self, _viewer: Viewer) -> View {
        let n = self.size as u16;
        let mut v = View::board(Grid::Points, n, n).chess_labels();
        let xy = |i: usize| ((i % self.size) as u16, n - 1 - (i / self.size) as u16);
        for (i, &c) in self.cells.iter().enumerate() {
            if c > 0 {
                let (x, y) = xy(i);
                v.piece(x, y, Shape::Disc, Some(c - 1));
            }
        }
        // The stones of the last turn (one or two).
        let last = self.stones.len().checked_sub(1).map(Self::seat_of);
        let turn = self.stones.iter().enumerate().rev();
        for (_, &i) in turn.take_while(|(k, _)| Some(Self::seat_of(*k)) == last) {
            let (x, y) = xy(i);
            v.mark(x, y, Mark::Last, None);
        }
        if let Some((seat, line)) = &self.winner {
            // Each stone of the six framed, over a band in the winner's colour.
            for &i in line {
                let (x, y) = xy(i);
                v.mark(x, y, Mark::Win, Some(*seat as u8));
            }
            let (a, b) = (xy(line[0]), xy(line[line.len() - 1]));
            v.lines.push(arbiter_game::view::Line {
                from: [a.0, a.1],
                to: [b.0, b.1],
                seat: Some(*seat as u8),
            });
        }
        v
    }

    /// The point of the stone.
    fn clicks(&self, _seat: Seat, &i: &usize) -> Option<Clicks> {
        let n = self.size;
        Some(Clicks::Cells(vec![[
            (i % n) as u16,
            (n - 1 - i / n) as u16,
        ]]))
    }
}

export_game!(Connect6);

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_game::perft;

    fn start(size: u64) -> Connect6 {
        Connect6::new(&serde_json::json!({ "size": size }), 0).unwrap()
    }

    #[test]
    fn turns_are_one_then_two_stones() {
        let seats: Vec<Seat> = (0..7).map(Connect6::seat_of).collect();
        assert_eq!(seats, [0, 1, 1, 0, 0, 1, 1]);
    }

    #[test]
    fn perft_counts_stones() {
        let g = start(19);
        assert_eq!(perft(&g, 1), 361);
        assert_eq!(perft(&g, 2), 361 * 360);
        assert_eq!(perft(&g, 3), 361 * 360 * 359);
    }

    #[test]
    fn a_stone_is_a_click_on_its_point() {
        let mut g = start(19);
        let a1 = g.parse_move("a1").unwrap();
        assert_eq!(
            g.clicks(g.turn().seat().unwrap_or(0), &a1),
            Some(Clicks::Cells(vec![[0, 18]]))
        );
        arbiter_game::check_clicks(&g).unwrap();
        g.play(&a1).unwrap();
        arbiter_game::check_clicks(&g).unwrap();
    }

    #[test]
    fn six_wins_five_does_not() {
        let mut g = start(19);
        // first: a1; second: a19 b19; first: b1 c1; second: c19 d19; first: d1 e1 ...
        let seq = [
            "a1", "a19", "b19", "b1", "c1", "c19", "d19", "d1", "e1", "e19", "g19",
        ];
        for m in seq {
            let mv = g.parse_move(m).unwrap();
            g.play(&mv).unwrap();
        }
        assert!(g.outcome().is_none(), "five is not six");
        let mv = g.parse_move("f1").unwrap();
        g.play(&mv).unwrap();
        let o = g.outcome().unwrap();
        assert_eq!((o.winner(), o.reason.as_str()), (Some(0), "six in a row"));
        assert_eq!(g.view(Viewer::All).lines.len(), 1);
        let marks = |m: Mark| {
            g.view(Viewer::All)
                .highlights
                .iter()
                .filter(|h| h.mark == m)
                .count()
        };
        assert_eq!(marks(Mark::Last), 1, "f1 alone: the turn's first stone won");
        assert_eq!(marks(Mark::Win), 6, "each stone of the six framed");
        assert!(g.view(Viewer::All).check(2).is_ok());
        let taken = g.parse_move("a1").unwrap();
        assert!(start(19).play(&taken).is_ok());
        let mut h = start(19);
        h.play(&taken).unwrap();
        assert_eq!(h.play(&taken), Err("a1 is taken".into()));
        assert!(h.tell(1).starts_with("SIZE 19\nSTONES 2\n"));
    }
}
