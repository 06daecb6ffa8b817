//! Reversi through the kit: the engine's `reversi::Reversi` and the ply that led to it.

use arbiter_engine::any::GameConfig;
use arbiter_engine::reversi::{self, Move};
use arbiter_engine::Game as _;
use arbiter_game::view::{column_letter, Grid, Mark, Shape, View};
use arbiter_game::{Game, Json, Outcome, Seat, Turn, Viewer};

use crate::{config, words};

/// Reversi on an even board of 4 to 16 (`{"size": 16}` by default). Moves as the engine writes
/// them: `d3` (column letter, row counted from the top) and `pass`, the forced ply.
///
/// Told to each seat (the same to both): `GAME reversi N`, then `TURN black`, `TURN white` or
/// `OVER`, then the N rows from the top, `X` black, `O` white, `.` empty (as `arbiter replay
/// show` prints them).
///
/// The view: a cells board with the notation's labels (rows 1.. from the top), the discs, the
/// last placement marked `last`, the side to move's places marked `target`, and text lines:
/// the status, the discs, the last ply and the discs it turned.
#[derive(Clone, Debug)]
pub struct Reversi {
    game: reversi::Reversi,
    /// The position before the last ply, and that ply: the view names the discs it turned.
    before: Option<(reversi::Reversi, Move)>,
}

impl Reversi {
    /// The engine's position.
    pub fn engine(&self) -> &reversi::Reversi {
        &self.game
    }

    fn seat_of(seat: arbiter_engine::Seat) -> u8 {
        seat.index() as u8
    }

    fn squares(&self, cells: &[(u8, u8)]) -> String {
        let names: Vec<String> = cells
            .iter()
            .map(|&(row, col)| self.game.format_move(Move::Place { row, col }))
            .collect();
        names.join(" ")
    }

    /// `black played d3, turning d4` or `white passed`.
    fn last_words(&self) -> Option<String> {
        let (before, mv) = self.before.as_ref()?;
        let who = words::COLOURS[before.to_move()?.index()];
        Some(match mv {
            Move::Pass => format!("{who} passed"),
            Move::Place { .. } => format!(
                "{who} played {}, turning {}",
                before.format_move(*mv),
                self.squares(&before.flipped_by(*mv))
            ),
        })
    }
}

impl Game for Reversi {
    type Move = Move;
    const NAME: &'static str = "reversi";
    /// The engine's rules: bump with any change to them.
    const VERSION: &'static str = "1.0.0";
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["name", "size"]);

    fn new(config: &Json, _seed: u64) -> Result<Self, String> {
        let defaults = GameConfig::Reversi(reversi::Config::default());
        let GameConfig::Reversi(c) = config::read(defaults, config)? else {
            return Err("not a reversi config".into());
        };
        let game = reversi::Reversi::new(&c).map_err(|e| e.to_string())?;
        Ok(Reversi { game, before: None })
    }

    fn turn(&self) -> Turn {
        Turn::of(self.game.to_move().map(arbiter_engine::Seat::index))
    }

    fn forced_move(&self, _seat: Seat) -> Option<Move> {
        self.game.forced_move()
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<Move>) {
        self.game.legal_moves(out);
    }

    fn play(&mut self, mv: &Move) -> Result<(), String> {
        let before = self.game.clone();
        self.game.play(*mv).map_err(|e| e.to_string())?;
        self.before = Some((before, *mv));
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        let o = self.game.outcome()?;
        Some(words::outcome(&o, self.game.scores()))
    }

    fn scores(&self) -> Vec<i64> {
        self.game.scores().to_vec()
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        self.game.parse_move(text).map_err(|e| e.to_string())
    }

    fn format_move(&self, mv: &Move) -> String {
        self.game.format_move(*mv)
    }

    fn tell(&self, _seat: Seat) -> String {
        let turn = match self.game.to_move() {
            Some(s) => format!("TURN {}", words::COLOURS[s.index()]),
            None => "OVER".into(),
        };
        // The engine's Display: one row a line from the top, each ending in a newline.
        let rows = self.game.to_string();
        format!(
            "GAME reversi {}\n{turn}\n{}",
            self.game.size(),
            rows.trim_end()
        )
    }

    fn view(&self, _viewer: Viewer) -> View {
        let n = u16::from(self.game.size());
        let mut v = View::board(Grid::Cells, n, n);
        v.board.col_labels = (0..n).map(column_letter).collect();
        v.board.row_labels = (1..=n).map(|r| r.to_string()).collect();
        for row in 0..self.game.size() {
            for col in 0..self.game.size() {
                if let Some(s) = self.game.disc(row, col) {
                    v.piece(col.into(), row.into(), Shape::Disc, Some(Self::seat_of(s)));
                }
            }
        }
        if let Some((before, Move::Place { row, col })) = &self.before {
            let seat = before.to_move().map(Self::seat_of);
            v.mark((*col).into(), (*row).into(), Mark::Last, seat);
        }
        if let Some(s) = self.game.to_move() {
            for (row, col) in self.game.legal_places() {
                v.mark(col.into(), row.into(), Mark::Target, Some(Self::seat_of(s)));
            }
        }
        self.view_text(&mut v);
        v
    }
}

impl Reversi {
    fn view_text(&self, v: &mut View) {
        let forced = self.game.forced_move().map(|m| self.game.format_move(m));
        let end = self.game.outcome();
        v.text.push(words::status(
            words::COLOURS,
            self.game.to_move(),
            forced,
            end.as_ref(),
        ));
        let [b, w] = self.game.counts();
        v.text.push(format!("discs: black {b}, white {w}"));
        v.text.extend(self.last_words());
    }
}
