//! The 2048 duel through the kit: the engine's `duel2048::Duel` and the ply that led to it.

use arbiter_engine::any::GameConfig;
use arbiter_engine::duel2048::{self, Duel, Move, RandomSource, COLS, ROWS};
use arbiter_engine::error::StepKind;
use arbiter_engine::{Game as _, Seat as EngineSeat};
use arbiter_game::view::{Grid, Line, Mark, Shape, View};
use arbiter_game::{Game, Json, Outcome, Seat, Turn, Viewer};

use crate::{config, words};

/// The 2048 duel of seed 000 (`{"rounds": 500}` by default). Its chance is the random sequence,
/// drawn from the kit's seed (`"random": {"seed": SEED}`) unless the config gives `random`
/// itself (`{"seed": 7}` or `{"sequence": [...]}`, as replays write it). Moves as the engine
/// writes them: `1,3` (row, column), `up`, `down`, `left`, `right`, and `skip`, the forced
/// ply.
///
/// Told to each seat (the same to both): `GAME duel2048 ROUNDS`, `TURN first place R` (the
/// seat to move, `place` or `slide`, the round from 0) or `OVER`, the four rows of the
/// original printout (`+01 +00 ... -00`: sign the owner, two digits the level), `NEXT r,c`
/// when the side to move places and its own half has room (the one cell it may take there),
/// and `RANDOM v...`, the sequence's values from this round on. The `duel` protocol gives
/// every bot the whole sequence at the start, so the future is no secret here either; that is
/// also why [`Game::reseed`] keeps the default (a search's copy may know it too).
///
/// The view: a cells board of 8 x 4 (columns and rows numbered from 0, as the notation), the
/// tiles as `square` pieces in their owner's colour labelled with their value, a line between
/// the halves, the last placement marked `last`, the cell the next placement may take in the
/// placer's own half marked `target`; text lines: the status, the tile sums, the last ply.
#[derive(Clone, Debug)]
pub struct Duel2048 {
    game: Duel,
    /// Who played the last ply, and what.
    last: Option<(EngineSeat, Move)>,
}

impl Duel2048 {
    /// The engine's position.
    pub fn engine(&self) -> &Duel {
        &self.game
    }

    /// The mover's own-half cell for a placement, while one is to be made.
    fn next_place(&self) -> Option<(EngineSeat, (u8, u8))> {
        let seat = self.game.to_move()?;
        if self.game.step_kind() != StepKind::Place {
            return None;
        }
        self.game.next_cell(seat).map(|cell| (seat, cell))
    }

    fn step_word(&self) -> &'static str {
        match self.game.step_kind() {
            StepKind::Place => "place",
            StepKind::Slide => "slide",
        }
    }

    fn turn_line(&self) -> String {
        match self.game.to_move() {
            Some(s) => {
                let who = words::PLAYERS[s.index()];
                format!("TURN {who} {} {}", self.step_word(), self.game.round())
            }
            None => "OVER".into(),
        }
    }

    fn random_line(&self) -> Option<String> {
        let rest = self.game.sequence().get(usize::from(self.game.round())..)?;
        let rounds = usize::from(self.game.config().rounds);
        let left = rounds.saturating_sub(usize::from(self.game.round()));
        let values: Vec<String> = rest.iter().take(left).map(u32::to_string).collect();
        (!values.is_empty()).then(|| format!("RANDOM {}", values.join(" ")))
    }

    /// `second slid left`, `first placed at 1,2`, `first skipped`.
    fn last_words(&self) -> Option<String> {
        let (seat, mv) = self.last?;
        let who = words::PLAYERS[seat.index()];
        Some(match mv {
            Move::Place { row, col } => format!("{who} placed at {row},{col}"),
            Move::Slide(d) => format!("{who} slid {}", d.as_str()),
            Move::Skip => format!("{who} skipped"),
        })
    }
}

impl Game for Duel2048 {
    type Move = Move;
    const NAME: &'static str = "duel2048";
    /// The engine's rules: bump with any change to them.
    const VERSION: &'static str = "1.0.0";
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["name", "rounds", "random"]);
    const KIND: arbiter_game::Kind = arbiter_game::Kind {
        chance: true,
        ..arbiter_game::Kind::PLAIN
    };

    fn new(config: &Json, seed: u64) -> Result<Self, String> {
        let defaults = GameConfig::Duel2048(duel2048::Config {
            rounds: duel2048::Config::default().rounds,
            random: RandomSource::Seed(seed),
        });
        let GameConfig::Duel2048(c) = config::read(defaults, config)? else {
            return Err("not a duel2048 config".into());
        };
        let game = Duel::new(&c).map_err(|e| e.to_string())?;
        Ok(Duel2048 { game, last: None })
    }

    fn turn(&self) -> Turn {
        Turn::of(self.game.to_move().map(EngineSeat::index))
    }

    fn forced_move(&self, _seat: Seat) -> Option<Move> {
        self.game.forced_move()
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<Move>) {
        self.game.legal_moves(out);
    }

    fn play(&mut self, mv: &Move) -> Result<(), String> {
        let seat = self.game.to_move();
        self.game.play(*mv).map_err(|e| e.to_string())?;
        self.last = seat.map(|s| (s, *mv));
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
        let mut lines = vec![
            format!("GAME duel2048 {}", self.game.config().rounds),
            self.turn_line(),
            self.game.board_text(),
        ];
        if let Some((_, (r, c))) = self.next_place() {
            lines.push(format!("NEXT {r},{c}"));
        }
        lines.extend(self.random_line());
        lines.join("\n")
    }

    fn view(&self, _viewer: Viewer) -> View {
        let mut v = View::board(Grid::Cells, COLS.into(), ROWS.into());
        v.board.col_labels = (0..COLS).map(|c| c.to_string()).collect();
        v.board.row_labels = (0..ROWS).map(|r| r.to_string()).collect();
        for (r, row) in self.game.board_rows().iter().enumerate() {
            for (c, cell) in row.iter().enumerate().filter(|(_, cell)| cell.level > 0) {
                let seat = Some(cell.owner.index() as u8);
                v.piece(c as u16, r as u16, Shape::Square, seat);
                if let Some(p) = v.pieces.last_mut() {
                    p.label = Some(words::tile_value(cell.level));
                }
            }
        }
        let half = u16::from(COLS / 2);
        v.lines.push(Line {
            from: [half, 0],
            to: [half, ROWS.into()],
            seat: None,
        });
        if let Some((seat, Move::Place { row, col })) = self.last {
            v.mark(col.into(), row.into(), Mark::Last, Some(seat.index() as u8));
        }
        if let Some((seat, (r, c))) = self.next_place() {
            v.mark(c.into(), r.into(), Mark::Target, Some(seat.index() as u8));
        }
        self.view_text(&mut v);
        v
    }
}

impl Duel2048 {
    fn view_text(&self, v: &mut View) {
        let forced = self.game.forced_move().map(|m| self.game.format_move(m));
        let end = self.game.outcome();
        let rounds = self.game.config().rounds;
        let round = self.game.round() + 1;
        v.text.push(match (self.game.to_move(), &forced, &end) {
            // A choice: say which kind of step it is.
            (Some(s), None, None) => format!(
                "{} to {}, round {round} of {rounds}",
                words::capital(words::PLAYERS[s.index()]),
                self.step_word()
            ),
            (_, _, None) => format!(
                "{}, round {round} of {rounds}",
                words::status(words::PLAYERS, self.game.to_move(), forced, None)
            ),
            _ => words::status(words::PLAYERS, None, None, end.as_ref()),
        });
        let [a, b] = self.game.scores();
        v.text.push(format!("tiles: first {a}, second {b}"));
        v.text.extend(self.last_words());
    }
}
