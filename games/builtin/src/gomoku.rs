//! Gomoku through the kit: the engine's `gomoku::Gomoku`, renju's forbidden points included.

use arbiter_engine::any::GameConfig;
use arbiter_engine::gomoku::{self, Point};
use arbiter_engine::{ForbiddenKind, Game as _, Seat as EngineSeat};
use arbiter_game::view::{Grid, Mark, Shape, View};
use arbiter_game::{Game, Json, Outcome, Seat, Turn, Viewer};

use crate::{config, words};

/// Gomoku on 5 x 5 to 26 x 26 (`{"size": 15, "rule": "freestyle"}` by default; rules
/// `freestyle`, `standard`, `renju`, `renju-gomocup`). Moves as the engine writes them: `H8`
/// (column letter, row counted from the bottom). No forced plies. Under renju, black's
/// forbidden points are not legal moves, and playing one is refused with its kind.
///
/// Told to each seat (the same to both): `GAME gomoku N RULE`, `TURN black`, `TURN white` or
/// `OVER`, the N rows from the top (`X` black, `O` white, `.` empty), and `LAST H8` once a
/// stone is down.
///
/// The view: a points board with the notation's labels (`A`.., rows N..1 from the top),
/// stones labelled with their move numbers, the last stone marked `last`, a winning line
/// marked `win`, and under renju, while the game is on, black's forbidden points marked
/// `forbidden` with seat 0 (whoever is to move, as the built-in player shows them); text
/// lines: the status, the stones, the forbidden points with their kinds.
#[derive(Clone, Debug)]
pub struct Gomoku {
    game: gomoku::Gomoku,
}

impl Gomoku {
    /// The engine's position.
    pub fn engine(&self) -> &gomoku::Gomoku {
        &self.game
    }

    fn name(&self, p: Point) -> String {
        self.game.format_move(p)
    }

    fn rows(&self) -> String {
        let n = self.game.size();
        let row = |y: u8| -> String {
            (0..n)
                .map(|x| match self.game.stone(Point { x, y }) {
                    Some(EngineSeat::FIRST) => 'X',
                    Some(_) => 'O',
                    None => '.',
                })
                .collect()
        };
        let rows: Vec<String> = (0..n).map(row).collect();
        rows.join("\n")
    }

    /// Black's forbidden points while the game is on (renju only), with their kinds.
    fn forbidden(&self) -> Vec<(Point, ForbiddenKind)> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        self.game.forbidden_points()
    }
}

impl Game for Gomoku {
    type Move = Point;
    const NAME: &'static str = "gomoku";
    /// The engine's rules: bump with any change to them.
    const VERSION: &'static str = "1.0.0";
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["name", "size", "rule"]);

    fn new(config: &Json, _seed: u64) -> Result<Self, String> {
        let defaults = GameConfig::Gomoku(gomoku::Config::default());
        let GameConfig::Gomoku(c) = config::read(defaults, config)? else {
            return Err("not a gomoku config".into());
        };
        let game = gomoku::Gomoku::new(&c).map_err(|e| e.to_string())?;
        Ok(Gomoku { game })
    }

    fn turn(&self) -> Turn {
        Turn::of(self.game.to_move().map(EngineSeat::index))
    }

    fn forced_move(&self, _seat: Seat) -> Option<Point> {
        self.game.forced_move()
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<Point>) {
        self.game.legal_moves(out);
    }

    fn play(&mut self, mv: &Point) -> Result<(), String> {
        self.game.play(*mv).map_err(|e| e.to_string())
    }

    fn outcome(&self) -> Option<Outcome> {
        let o = self.game.outcome()?;
        Some(words::outcome(&o, self.game.scores()))
    }

    fn scores(&self) -> Vec<i64> {
        self.game.scores().to_vec()
    }

    fn parse_move(&self, text: &str) -> Result<Point, String> {
        self.game.parse_move(text).map_err(|e| e.to_string())
    }

    fn format_move(&self, mv: &Point) -> String {
        self.game.format_move(*mv)
    }

    fn tell(&self, _seat: Seat) -> String {
        let turn = match self.game.to_move() {
            Some(s) => format!("TURN {}", words::COLOURS[s.index()]),
            None => "OVER".into(),
        };
        let mut s = format!(
            "GAME gomoku {} {}\n{turn}\n{}",
            self.game.size(),
            self.game.rule().name(),
            self.rows()
        );
        if let Some(&p) = self.game.history().last() {
            s.push_str(&format!("\nLAST {}", self.name(p)));
        }
        s
    }

    fn view(&self, _viewer: Viewer) -> View {
        let n = u16::from(self.game.size());
        let mut v = View::board(Grid::Points, n, n);
        v.board.col_labels = (0..n)
            .map(|x| char::from(b'A' + x as u8).to_string())
            .collect();
        v.board.row_labels = (0..n).map(|y| (n - y).to_string()).collect();
        for (i, &p) in self.game.history().iter().enumerate() {
            let seat = self.game.stone(p).map(|s| s.index() as u8);
            v.piece(p.x.into(), p.y.into(), Shape::Disc, seat);
            if let Some(piece) = v.pieces.last_mut() {
                piece.label = Some((i + 1).to_string());
            }
        }
        if let Some(&p) = self.game.history().last() {
            let seat = self.game.stone(p).map(|s| s.index() as u8);
            v.mark(p.x.into(), p.y.into(), Mark::Last, seat);
        }
        let winner = self.game.outcome().and_then(|o| o.winner);
        for p in self.game.winning_line().unwrap_or_default() {
            v.mark(
                p.x.into(),
                p.y.into(),
                Mark::Win,
                winner.map(|s| s.index() as u8),
            );
        }
        let forbidden = self.forbidden();
        for (p, _) in &forbidden {
            v.mark(p.x.into(), p.y.into(), Mark::Forbidden, Some(0));
        }
        self.view_text(&mut v, &forbidden);
        v
    }
}

impl Gomoku {
    fn view_text(&self, v: &mut View, forbidden: &[(Point, ForbiddenKind)]) {
        let end = self.game.outcome();
        v.text.push(words::status(
            words::COLOURS,
            self.game.to_move(),
            None,
            end.as_ref(),
        ));
        let [b, w] = self.game.scores();
        v.text.push(format!(
            "{}, stones: black {b}, white {w}",
            self.game.rule().name()
        ));
        if !forbidden.is_empty() {
            let list: Vec<String> = forbidden
                .iter()
                .map(|(p, k)| format!("{} ({k})", self.name(*p)))
                .collect();
            v.text
                .push(format!("forbidden for black: {}", list.join(", ")));
        }
    }
}
