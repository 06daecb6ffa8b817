//! Dots and Boxes: the seats draw edges between neighbouring dots in turn; whoever completes a
//! box owns it and draws again (an extra turn, so the same seat is to move); once every edge is
//! drawn the seat with more boxes wins. Config `{"cols": 5, "rows": 5}` boxes (1..=10 each).
//!
//! Notation: the two dots of the edge, `a1-b1`, the left or lower dot first (dots are named
//! like squares: columns a.., row 1 at the bottom). Each seat is told `SIZE cols rows`, `BOXES
//! b0 b1` and `EDGES` followed by the drawn edges, space-separated (the line is just `EDGES`
//! when there are none).

use arbiter_game::notation::{read_square, square};
use arbiter_game::view::{Grid, Line, Mark, View};
use arbiter_game::{config_number, export_game, Clicks, Game, Json, Outcome, Seat, Turn, Viewer};

#[derive(Clone, Debug)]
pub struct DotsAndBoxes {
    cols: usize,
    rows: usize,
    /// Who drew each edge: horizontal edges first (`r * cols + c`, `r` in `0..=rows`), then
    /// vertical ones (`r * (cols + 1) + c`); 0 not drawn, 1 + seat.
    edges: Vec<u8>,
    /// 0 unowned, 1 + seat.
    boxes: Vec<u8>,
    seat: Seat,
    last: Option<usize>,
}

/// An edge as its two dots `(x, y)`, left or lower one first.
type Dots = ((usize, usize), (usize, usize));

impl DotsAndBoxes {
    fn horizontals(&self) -> usize {
        self.cols * (self.rows + 1)
    }

    fn dots(&self, e: usize) -> Dots {
        let h = self.horizontals();
        if e < h {
            let (c, r) = (e % self.cols, e / self.cols);
            ((c, r), (c + 1, r))
        } else {
            let (c, r) = ((e - h) % (self.cols + 1), (e - h) / (self.cols + 1));
            ((c, r), (c, r + 1))
        }
    }

    fn edge(&self, (a, b): Dots) -> Option<usize> {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if a.1 == b.1 && b.0 == a.0 + 1 && b.0 <= self.cols && a.1 <= self.rows {
            Some(a.1 * self.cols + a.0)
        } else if a.0 == b.0 && b.1 == a.1 + 1 && b.1 <= self.rows && a.0 <= self.cols {
            Some(self.horizontals() + a.1 * (self.cols + 1) + a.0)
        } else {
            None
        }
    }

    /// The four edges of box `(c, r)`: bottom, top, left, right.
    fn sides(&self, c: usize, r: usize) -> [usize; 4] {
        let h = self.horizontals();
        let v = |c: usize, r: usize| h + r * (self.cols + 1) + c;
        [
            r * self.cols + c,
            (r + 1) * self.cols + c,
            v(c, r),
            v(c + 1, r),
        ]
    }

    /// The boxes `(c, r)` that edge `e` is a side of (one at the board's edge, else two).
    fn beside(&self, e: usize) -> Vec<(usize, usize)> {
        let ((c, r), (c2, _)) = self.dots(e);
        let mut out = Vec::with_capacity(2);
        if c2 > c {
            // Horizontal: the box below it, the box above it.
            out.extend(r.checked_sub(1).map(|below| (c, below)));
            out.extend((r < self.rows).then_some((c, r)));
        } else {
            // Vertical: the box to its left, the box to its right.
            out.extend(c.checked_sub(1).map(|left| (left, r)));
            out.extend((c < self.cols).then_some((c, r)));
        }
        out
    }

    fn count(&self, seat: Seat) -> i64 {
        self.boxes.iter().filter(|&&b| b == 1 + seat as u8).count() as i64
    }

    fn over(&self) -> bool {
        self.edges.iter().all(|&e| e != 0)
    }
}

impl Game for DotsAndBoxes {
    type Move = usize;
    const NAME: &'static str = "dots-and-boxes";
    const VERSION: &'static str = "1.0.0";
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["cols", "rows"]);

    fn new(config: &Json, _seed: u64) -> Result<Self, String> {
        let cols = config_number(config, "cols", 5, 1..=10)?;
        let rows = config_number(config, "rows", 5, 1..=10)?;
        let edges = cols * (rows + 1) + (cols + 1) * rows;
        Ok(DotsAndBoxes {
            cols,
            rows,
            edges: vec![0; edges],
            boxes: vec![0; cols * rows],
            seat: 0,
            last: None,
        })
    }

    fn turn(&self) -> Turn {
        Turn::of((!self.over()).then_some(self.seat))
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<usize>) {
        out.extend((0..self.edges.len()).filter(|&e| self.edges[e] == 0));
    }

    fn play(&mut self, &e: &usize) -> Result<(), String> {
        let seat = self.turn().seat().ok_or("the game is over")?;
        match self.edges.get(e) {
            Some(0) => {}
            Some(_) => return Err(format!("{} is drawn already", self.format_move(&e))),
            None => return Err("no such edge".into()),
        }
        self.edges[e] = 1 + seat as u8;
        self.last = Some(e);
        let mut closed = false;
        for b in 0..self.boxes.len() {
            let (c, r) = (b % self.cols, b / self.cols);
            let sides = self.sides(c, r);
            if self.boxes[b] == 0 && sides.contains(&e) && sides.iter().all(|&s| self.edges[s] != 0)
            {
                self.boxes[b] = 1 + seat as u8;
                closed = true;
            }
        }
        if !closed {
            self.seat = 1 - seat;
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let (a, b) = (self.count(0), self.count(1));
        Some(Outcome::decided(
            (a != b).then_some(usize::from(b > a)),
            vec![a, b],
            &format!("all edges drawn, boxes {a} to {b}"),
        ))
    }

    fn scores(&self) -> Vec<i64> {
        vec![self.count(0), self.count(1)]
    }

    fn parse_move(&self, text: &str) -> Result<usize, String> {
        let bad = || format!("{text:?} is not an edge like a1-b1");
        let (w, h) = (self.cols + 1, self.rows + 1);
        let (a, rest) = read_square(text.trim(), w, h).ok_or_else(bad)?;
        let (b, rest) =
            read_square(rest.strip_prefix('-').ok_or_else(bad)?, w, h).ok_or_else(bad)?;
        if !rest.is_empty() {
            return Err(bad());
        }
        self.edge((a, b))
            .ok_or_else(|| format!("{text:?}: the dots are not neighbours"))
    }

    fn format_move(&self, &e: &usize) -> String {
        let (a, b) = self.dots(e);
        format!("{}-{}", square(a.0, a.1), square(b.0, b.1))
    }

    fn tell(&self, _seat: Seat) -> String {
        let drawn: Vec<String> = (0..self.edges.len())
            .filter(|&e| self.edges[e] != 0)
            .map(|e| self.format_move(&e))
            .collect();
        let mut s = format!(
            "SIZE {} {}\nBOXES {} {}\nEDGES",
            self.cols,
            self.rows,
            self.count(0),
            self.count(1)
        );
        for d in drawn {
            s.push(' ');
            s.push_str(&d);
        }
        s
    }

    fn view(&self, _viewer: Viewer) -> View {
        let (w, h) = (self.cols as u16, self.rows as u16);
        let mut v = View::board(Grid::Cells, w, h);
        let corner = |(x, y): (usize, usize)| [x as u16, h - y as u16];
        for (e, &who) in self.edges.iter().enumerate().filter(|(_, &w)| w != 0) {
            let (a, b) = self.dots(e);
            let seat = Some(who - 1);
            v.lines.push(Line {
                from: corner(a),
                to: corner(b),
                seat,
            });
        }
        // The dots: a neutral line from each corner to itself, which the player draws as a
        // round dot over the drawn edges' ends.
        for y in 0..=h {
            for x in 0..=w {
                v.lines.push(Line {
                    from: [x, y],
                    to: [x, y],
                    seat: None,
                });
            }
        }
        for (b, &who) in self.boxes.iter().enumerate().filter(|(_, &w)| w != 0) {
            let (c, r) = ((b % self.cols) as u16, (b / self.cols) as u16);
            v.mark(c, h - 1 - r, Mark::Owned, Some(who - 1));
        }
        // The view marks cells, not edges: the last edge is shown by a box it borders, the
        // one it closed when it closed one.
        if let Some(e) = self.last {
            let beside = self.beside(e);
            let closed = beside
                .iter()
                .find(|&&(c, r)| self.boxes[r * self.cols + c] != 0);
            if let Some(&(c, r)) = closed.or(beside.first()) {
                v.mark(c as u16, h - 1 - r as u16, Mark::Last, None);
            }
        }
        v.text
            .push(format!("boxes {} : {}", self.count(0), self.count(1)));
        v
    }

    /// One click on the edge itself, between its two dots (the corners its line joins).
    fn clicks(&self, _seat: Seat, &e: &usize) -> Option<Clicks> {
        let h = self.rows as u16;
        let corner = |(x, y): (usize, usize)| [x as u16, h - y as u16];
        let (a, b) = self.dots(e);
        Some(Clicks::Line(corner(a), corner(b)))
    }
}

export_game!(DotsAndBoxes);

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_game::perft;
    use serde_json::json;

    fn start(cols: u64, rows: u64) -> DotsAndBoxes {
        DotsAndBoxes::new(&json!({"cols": cols, "rows": rows}), 0).unwrap()
    }

    fn play(g: &mut DotsAndBoxes, moves: &[&str]) {
        for m in moves {
            let mv = g.parse_move(m).unwrap();
            g.play(&mv).unwrap();
        }
    }

    #[test]
    fn perft_counts_edges() {
        let g = start(5, 5);
        assert_eq!(perft(&g, 1), 60);
        assert_eq!(perft(&g, 2), 60 * 59);
        assert_eq!(perft(&g, 3), 60 * 59 * 58);
        assert_eq!(perft(&start(1, 1), 4), 24);
        assert_eq!(
            perft(&start(1, 1), 5),
            0,
            "the game is over after four edges"
        );
    }

    #[test]
    fn a_completed_box_gives_an_extra_turn() {
        let mut g = start(2, 1);
        play(&mut g, &["a1-b1", "a2-b2", "a1-a2"]);
        assert_eq!(g.turn().seat(), Some(1));
        play(&mut g, &["b1-b2"]);
        // second closed the left box and moves again.
        assert_eq!((g.turn().seat(), g.scores()), (Some(1), vec![0, 1]));
        play(&mut g, &["c1-b1"]);
        assert_eq!(g.turn().seat(), Some(0));
        play(&mut g, &["b2-c2"]);
        assert_eq!(g.turn().seat(), Some(1));
        play(&mut g, &["c1-c2"]);
        let o = g.outcome().unwrap();
        assert_eq!((o.winner(), o.scores), (Some(1), vec![0, 2]));
        assert_eq!(g.turn().seat(), None);
        assert!(g.view(Viewer::All).check(2).is_ok());
        let lines = g.view(Viewer::All).lines;
        let (dots, edges): (Vec<&Line>, Vec<&Line>) = lines.iter().partition(|l| l.from == l.to);
        assert_eq!(edges.len(), 7, "every edge drawn");
        assert_eq!(dots.len(), 6, "a dot at each of 3 x 2 corners");
        assert!(dots.iter().all(|d| d.seat.is_none()));
    }

    #[test]
    fn an_edge_is_clicked_as_the_line_the_view_draws() {
        let mut g = start(2, 1);
        let e = g.parse_move("a1-b1").unwrap();
        // a1-b1 is the bottom edge of the left box: corners [0, 1] and [1, 1] from the top.
        assert_eq!(
            g.clicks(g.turn().seat().unwrap_or(0), &e),
            Some(Clicks::Line([0, 1], [1, 1]))
        );
        play(&mut g, &["a1-b1"]);
        let drawn = &g.view(Viewer::All).lines[0];
        assert_eq!(
            Some(Clicks::Line(drawn.from, drawn.to)),
            g.clicks(g.turn().seat().unwrap_or(0), &e)
        );
        for m in ["a2-b2", "a1-a2", "b1-b2"] {
            arbiter_game::check_clicks(&g).unwrap();
            play(&mut g, &[m]);
        }
        arbiter_game::check_clicks(&start(5, 5)).unwrap();
    }

    /// Where the view marks the last edge: on a box it is a side of, the one it closed if any.
    fn last_mark(g: &DotsAndBoxes) -> [u16; 2] {
        let marks: Vec<_> = g
            .view(Viewer::All)
            .highlights
            .into_iter()
            .filter(|h| h.mark == Mark::Last)
            .collect();
        assert_eq!(marks.len(), 1);
        marks[0].at
    }

    #[test]
    fn the_last_edge_is_marked_on_a_box_beside_it() {
        // 2 x 2 boxes; view rows count from the top, so box row 0 (the bottom) is view row 1.
        let mut g = start(2, 2);
        for (edge, box_at) in [
            ("a2-a3", [0, 0]), // the left side of the top left box, not the box below a2
            ("c1-c2", [1, 1]), // the right side of the bottom right box
            ("a1-b1", [0, 1]), // the bottom of the bottom left box
            ("b3-c3", [1, 0]), // the top of the top right box
            ("b2-b3", [0, 0]), // between the top boxes: the left one
        ] {
            play(&mut g, &[edge]);
            assert_eq!(last_mark(&g), box_at, "{edge}");
        }
        // b1-b2 is between the bottom boxes and closes the right one: that one is marked, not
        // the left one (the first beside a vertical edge otherwise).
        play(&mut g, &["b2-c2", "b1-c1"]);
        assert_eq!(g.scores(), vec![0, 0]);
        play(&mut g, &["b1-b2"]);
        assert_eq!(g.scores().iter().sum::<i64>(), 1, "b1-b2 closed a box");
        assert_eq!(last_mark(&g), [1, 1], "the box b1-b2 closed");
    }

    #[test]
    fn notation_round_trips_and_refuses_non_edges() {
        let g = start(5, 4);
        for e in 0..g.edges.len() {
            assert_eq!(g.parse_move(&g.format_move(&e)), Ok(e));
        }
        assert_eq!(g.parse_move("b1-a1"), g.parse_move("a1-b1"));
        assert!(g
            .parse_move("a1-b2")
            .unwrap_err()
            .contains("not neighbours"));
        assert!(g.parse_move("a1-a6").is_err());
        assert!(g.parse_move("a1b1").is_err());
    }
}
