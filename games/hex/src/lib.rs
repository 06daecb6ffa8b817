//! Hex on an N x N rhombus: config `{"size": 11, "swap": false}` (size 2..=19). Each turn a
//! seat puts a stone on an empty hexagon; first joins the top and bottom rows, second the
//! left and right columns. A full board always holds exactly one such chain: no draws.
//! With `swap`, second's first move may be `swap` (the pie rule): first's stone becomes
//! second's, mirrored across the long diagonal so that it faces second's sides, and first
//! moves again.
//!
//! Notation: the column letter and the row number, `a1` the top-left hexagon (as HexGui
//! writes it). `[c, r]` touches `[c±1, r]`, `[c, r±1]`, `[c+1, r-1]` and `[c-1, r+1]`, which
//! the view's `hex` grid draws as neighbours. Each seat is told `SIZE n`, then the rows top to
//! bottom (`.` empty, `1` first's stone, `2` second's).

use arbiter_game::notation::{parse_square, square};
use arbiter_game::view::{column_letter, Grid, Mark, Shape, View};
use arbiter_game::{
    config_number, export_game, win_scores, Clicks, Game, Json, Outcome, Seat, Turn, Viewer,
};

/// A move: a hexagon (`r * n + c`), or the swap.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Move {
    Stone(usize),
    Swap,
}

#[derive(Clone, Debug)]
pub struct Hex {
    n: usize,
    swap: bool,
    /// Row-major, row 0 at the top: 0 empty, 1 + seat.
    cells: Vec<u8>,
    plies: Vec<Move>,
    seat: Seat,
    /// The winner and the chain that won.
    winner: Option<(Seat, Vec<usize>)>,
}

const NEIGHBOURS: [(isize, isize); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

impl Hex {
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.n as isize;
        let (c, r) = ((i % self.n) as isize, (i / self.n) as isize);
        NEIGHBOURS.iter().filter_map(move |&(dc, dr)| {
            let (c, r) = (c + dc, r + dr);
            ((0..n).contains(&c) && (0..n).contains(&r)).then_some((r * n + c) as usize)
        })
    }

    /// The chain of `seat`'s stones through `from`, if it joins the seat's two sides.
    fn winning_chain(&self, seat: Seat, from: usize) -> Option<Vec<usize>> {
        let stone = seat as u8 + 1;
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![from];
        let mut chain = Vec::new();
        seen[from] = true;
        while let Some(i) = stack.pop() {
            chain.push(i);
            for j in self.neighbours(i) {
                if !seen[j] && self.cells[j] == stone {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        // First's sides are the top and bottom rows, second's the left and right columns.
        let side = |i: &usize| if seat == 0 { i / self.n } else { i % self.n };
        let touches = |edge: usize| chain.iter().any(|i| side(i) == edge);
        (touches(0) && touches(self.n - 1)).then_some(chain)
    }

    /// Where first's only stone is, while second may swap.
    fn swappable(&self) -> Option<usize> {
        match self.plies.as_slice() {
            [Move::Stone(i)] if self.swap => Some(*i),
            _ => None,
        }
    }

    fn place(&self, i: usize) -> [u16; 2] {
        [(i % self.n) as u16, (i / self.n) as u16]
    }
}

impl Game for Hex {
    type Move = Move;
    const NAME: &'static str = "hex";
    const VERSION: &'static str = "1.0.0";
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["size", "swap"]);

    fn new(config: &Json, _seed: u64) -> Result<Self, String> {
        let n = config_number(config, "size", 11, 2..=19)?;
        let swap = match config.get("swap") {
            None | Some(Json::Null) => false,
            Some(Json::Bool(b)) => *b,
            Some(_) => return Err("swap must be true or false".into()),
        };
        Ok(Hex {
            n,
            swap,
            cells: vec![0; n * n],
            plies: Vec::new(),
            seat: 0,
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
        out.extend(
            (0..self.cells.len())
                .filter(|&i| self.cells[i] == 0)
                .map(Move::Stone),
        );
        if self.swappable().is_some() {
            out.push(Move::Swap);
        }
    }

    fn play(&mut self, mv: &Move) -> Result<(), String> {
        if self.winner.is_some() {
            return Err("the game is over".into());
        }
        let i = match *mv {
            Move::Swap => {
                let first = self.swappable().ok_or("swap is only second's first move")?;
                let (c, r) = (first % self.n, first / self.n);
                self.cells[first] = 0;
                r + c * self.n
            }
            Move::Stone(i) if self.cells.get(i) == Some(&0) => i,
            Move::Stone(i) if i < self.cells.len() => {
                return Err(format!("{} is taken", self.format_move(mv)))
            }
            Move::Stone(_) => return Err("no such hexagon".into()),
        };
        self.cells[i] = self.seat as u8 + 1;
        self.plies.push(*mv);
        match self.winning_chain(self.seat, i) {
            Some(chain) => self.winner = Some((self.seat, chain)),
            None => self.seat = 1 - self.seat,
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        let (w, _) = self.winner.as_ref()?;
        let reason = if *w == 0 {
            "first joined top and bottom"
        } else {
            "second joined left and right"
        };
        Some(Outcome::win(Some(*w), 2, reason))
    }

    fn scores(&self) -> Vec<i64> {
        win_scores(self.winner.as_ref().map(|(w, _)| *w), 2)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        if text == "swap" {
            return Ok(Move::Swap);
        }
        let (c, r) = parse_square(text, self.n, self.n).ok_or_else(|| {
            format!(
                "{text:?} is not a hexagon of the {0} x {0} board (a1 to {1})",
                self.n,
                square(self.n - 1, self.n - 1)
            )
        })?;
        Ok(Move::Stone(r * self.n + c))
    }

    fn format_move(&self, mv: &Move) -> String {
        match *mv {
            Move::Stone(i) => square(i % self.n, i / self.n),
            Move::Swap => "swap".into(),
        }
    }

    fn tell(&self, _seat: Seat) -> String {
        let mut s = format!("SIZE {}", self.n);
        for row in self.cells.chunks(self.n) {
            s.push('\n');
            s.extend(row.iter().map(|&x| char::from(b".12"[usize::from(x)])));
        }
        s
    }

    fn view(&self, _viewer: Viewer) -> View {
        let n = self.n as u16;
        let mut v = View::board(Grid::Hex, n, n);
        v.board.col_labels = (0..n).map(column_letter).collect();
        v.board.row_labels = (1..=n).map(|r| r.to_string()).collect();
        // Each seat's sides tinted in its colour: first's rows, then second's columns
        // between them (a corner hexagon lies on both; it shows first's).
        for k in 0..n {
            v.mark(k, 0, Mark::Owned, Some(0));
            v.mark(k, n - 1, Mark::Owned, Some(0));
        }
        for k in 1..n.saturating_sub(1) {
            v.mark(0, k, Mark::Owned, Some(1));
            v.mark(n - 1, k, Mark::Owned, Some(1));
        }
        for (i, &x) in self.cells.iter().enumerate() {
            if x > 0 {
                let [c, r] = self.place(i);
                v.piece(c, r, Shape::Disc, Some(x - 1));
            }
        }
        let last = self.plies.last().map(|m| match *m {
            Move::Stone(i) => i,
            // The swapped stone: the only one on the board.
            Move::Swap => self.cells.iter().position(|&x| x > 0).unwrap_or(0),
        });
        if let Some(i) = last {
            let [c, r] = self.place(i);
            v.mark(c, r, Mark::Last, None);
        }
        if let Some((w, chain)) = &self.winner {
            for &i in chain {
                let [c, r] = self.place(i);
                v.mark(c, r, Mark::Win, Some(*w as u8));
            }
        }
        v.text
            .push("first joins top and bottom, second left and right".into());
        if self.swappable().is_some() {
            v.text
                .push("second may swap: click first's stone to take it".into());
        }
        v
    }

    /// A stone: its hexagon. The swap: first's stone, the one second takes.
    fn clicks(&self, _seat: Seat, mv: &Move) -> Option<Clicks> {
        let i = match *mv {
            Move::Stone(i) => i,
            Move::Swap => self.swappable()?,
        };
        Some(Clicks::Cells(vec![self.place(i)]))
    }
}

export_game!(Hex);

#[cfg(test)]
mod tests;
