//! Connect Four: drop discs into columns; four in a row (any direction) wins; a full board is
//! a draw. Config `{"cols": 7, "rows": 6}` (4..=16 each). Notation: the column letter, `a` on
//! the left. Each seat is told `SIZE cols rows` and the rows top to bottom (`.` empty, `1`
//! first, `2` second).

use arbiter_game::view::{column_letter, Grid, Mark, Shape, View};
use arbiter_game::{config_number, export_game, Clicks, Game, Json, Outcome, Seat, Turn, Viewer};

#[derive(Clone, Debug)]
pub struct ConnectFour {
    cols: usize,
    rows: usize,
    /// Row-major, row 0 at the bottom: 0 empty, 1 + seat.
    cells: Vec<u8>,
    plies: Vec<usize>,
    winner: Option<(Seat, [usize; 4])>,
}

const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl ConnectFour {
    fn at(&self, col: isize, row: isize) -> Option<u8> {
        let inside =
            (0..self.cols as isize).contains(&col) && (0..self.rows as isize).contains(&row);
        inside.then(|| self.cells[row as usize * self.cols + col as usize])
    }

    fn height(&self, col: usize) -> usize {
        (0..self.rows)
            .find(|&r| self.cells[r * self.cols + col] == 0)
            .unwrap_or(self.rows)
    }

    /// The four cells of a line through the new disc, if it made one.
    fn four_through(&self, col: usize, row: usize) -> Option<[usize; 4]> {
        let me = self.cells[row * self.cols + col];
        for (dc, dr) in DIRECTIONS {
            let run = |sign: isize| {
                (1..4)
                    .take_while(|k| {
                        self.at(col as isize + sign * k * dc, row as isize + sign * k * dr)
                            == Some(me)
                    })
                    .count() as isize
            };
            let (back, fwd) = (run(-1), run(1));
            if back + fwd >= 3 {
                let start = (col as isize - back * dc, row as isize - back * dr);
                return Some(core::array::from_fn(|k| {
                    let (c, r) = (start.0 + k as isize * dc, start.1 + k as isize * dr);
                    r as usize * self.cols + c as usize
                }));
            }
        }
        None
    }

    fn full(&self) -> bool {
        self.plies.len() == self.cols * self.rows
    }
}

impl Game for ConnectFour {
    type Move = usize;
    const NAME: &'static str = "connect-four";
    const VERSION: &'static str = "1.0.0";
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["cols", "rows"]);

    fn new(config: &Json, _seed: u64) -> Result<Self, String> {
        let cols = config_number(config, "cols", 7, 4..=16)?;
        let rows = config_number(config, "rows", 6, 4..=16)?;
        Ok(ConnectFour {
            cols,
            rows,
            cells: vec![0; cols * rows],
            plies: Vec::new(),
            winner: None,
        })
    }

    fn turn(&self) -> Turn {
        Turn::of((self.winner.is_none() && !self.full()).then_some(self.plies.len() % 2))
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<usize>) {
        if self.turn().seat().is_some() {
            out.extend((0..self.cols).filter(|&c| self.height(c) < self.rows));
        }
    }

    fn play(&mut self, &col: &usize) -> Result<(), String> {
        let seat = self.turn().seat().ok_or("the game is over")?;
        if col >= self.cols {
            return Err(format!("there is no column {}", col + 1));
        }
        let row = self.height(col);
        if row == self.rows {
            return Err(format!("column {} is full", column_letter(col as u16)));
        }
        self.cells[row * self.cols + col] = 1 + seat as u8;
        self.plies.push(col);
        self.winner = self.four_through(col, row).map(|line| (seat, line));
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        let winner = self.winner.as_ref().map(|(seat, _)| *seat);
        Outcome::line_or_full(winner, self.full(), "four in a row")
    }

    fn scores(&self) -> Vec<i64> {
        arbiter_game::win_scores(self.winner.as_ref().map(|(seat, _)| *seat), 2)
    }

    fn parse_move(&self, text: &str) -> Result<usize, String> {
        let t = text.trim();
        (0..self.cols)
            .find(|&c| column_letter(c as u16) == t)
            .ok_or_else(|| {
                format!(
                    "{t:?} is not a column (a..{})",
                    column_letter(self.cols as u16 - 1)
                )
            })
    }

    fn format_move(&self, &col: &usize) -> String {
        column_letter(col as u16)
    }

    fn tell(&self, _seat: Seat) -> String {
        let mut s = format!("SIZE {} {}", self.cols, self.rows);
        for row in (0..self.rows).rev() {
            s.push('\n');
            s.extend(
                self.cells[row * self.cols..(row + 1) * self.cols]
                    .iter()
                    .map(|&c| match c {
                        0 => '.',
                        1 => '1',
                        _ => '2',
                    }),
            );
        }
        s
    }

    fn view(&self, _viewer: Viewer) -> View {
        let mut v = View::board(Grid::Cells, self.cols as u16, self.rows as u16).chess_labels();
        let top = |row: usize| (self.rows - 1 - row) as u16;
        for (i, &c) in self.cells.iter().enumerate() {
            if c > 0 {
                v.piece(
                    (i % self.cols) as u16,
                    top(i / self.cols),
                    Shape::Disc,
                    Some(c - 1),
                );
            }
        }
        if let Some(&col) = self.plies.last() {
            v.mark(col as u16, top(self.height(col) - 1), Mark::Last, None);
        }
        if let Some((seat, line)) = self.winner {
            for i in line {
                v.mark(
                    (i % self.cols) as u16,
                    top(i / self.cols),
                    Mark::Win,
                    Some(seat as u8),
                );
            }
        }
        v
    }

    /// The cell the disc lands in: the one place of the column a person sees it go.
    fn clicks(&self, _seat: Seat, &col: &usize) -> Option<Clicks> {
        let row = self.rows.checked_sub(1 + self.height(col))?;
        Some(Clicks::Cells(vec![[col as u16, row as u16]]))
    }
}

export_game!(ConnectFour);

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_game::perft;

    fn start() -> ConnectFour {
        ConnectFour::new(&Json::Null, 0).unwrap()
    }

    #[test]
    fn perft_matches_published_counts() {
        // OEIS A212693: 7, 49, 343, 2401, 16807, 117649, 823536.
        let counts: Vec<u64> = (1..=7).map(|d| perft(&start(), d)).collect();
        assert_eq!(counts, [7, 49, 343, 2401, 16807, 117649, 823536]);
    }

    #[test]
    fn vertical_four_wins_and_full_columns_refuse() {
        let mut g = start();
        for m in ["a", "b", "a", "b", "a", "b", "a"] {
            let mv = g.parse_move(m).unwrap();
            g.play(&mv).unwrap();
        }
        let o = g.outcome().unwrap();
        assert_eq!((o.winner(), o.reason.as_str()), (Some(0), "four in a row"));
        assert_eq!(g.play(&2), Err("the game is over".into()));
        let mut g = start();
        for _ in 0..6 {
            g.play(&0).unwrap();
        }
        assert_eq!(g.play(&0), Err("column a is full".into()));
        assert!(g.parse_move("h").is_err());
        assert!(g.view(Viewer::All).check(2).is_ok());
    }

    #[test]
    fn a_move_is_a_click_where_the_disc_lands() {
        let mut g = start();
        assert_eq!(
            g.clicks(g.turn().seat().unwrap_or(0), &3),
            Some(Clicks::Cells(vec![[3, 5]]))
        );
        g.play(&3).unwrap();
        assert_eq!(
            g.clicks(g.turn().seat().unwrap_or(0), &3),
            Some(Clicks::Cells(vec![[3, 4]]))
        );
        for c in [0, 0, 0, 0, 0, 0] {
            arbiter_game::check_clicks(&g).unwrap();
            g.play(&c).unwrap();
        }
        let mut moves = Vec::new();
        g.legal_moves(g.turn().seat().unwrap_or(0), &mut moves);
        assert!(!moves.contains(&0), "column a is full");
        arbiter_game::check_clicks(&g).unwrap();
    }

    #[test]
    fn diagonal_four_wins() {
        let mut g = start();
        for c in [0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3] {
            g.play(&c).unwrap();
        }
        assert_eq!(g.outcome().map(|o| o.winner()), Some(Some(0)));
        assert_eq!(g.tell(1).lines().count(), 7);
    }
}
