//! One type over all games, for code that learns the game at run time (the referee's command
//! line, replays, the web player). Enum dispatch: no allocation, no trait objects.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::duel2048::{self, Duel};
use crate::error::{ConfigError, IllegalMove, ParseMoveError};
use crate::game::{EndReason, Game, Outcome, Seat, Turn, Viewer};
use crate::gomoku::{self, Gomoku};
use crate::module::{self, DynRules, ModuleConfig, ModuleHost, MoveText};
use crate::reversi::{self, Reversi};

/// A game and its configuration, as replays and tournament configs write it:
/// `{"name": "reversi", "size": 16}`, `{"name": "gomoku", "size": 15, "rule": "renju"}`,
/// `{"name": "duel2048", "rounds": 500, "random": {"seed": 7}}`, and a game module's
/// `{"name": "module", "module": {"name": ..., "version": ..., "sha256": ...}, "config": {},
/// "seed": 7}`. Read by hand (see `GameFields`), written by serde.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "name", rename_all = "snake_case"))]
pub enum GameConfig {
    Reversi(reversi::Config),
    Gomoku(gomoku::Config),
    Duel2048(duel2048::Config),
    Module(ModuleConfig),
}

/// A game's `name`.
#[cfg(feature = "serde")]
#[derive(Clone, Copy, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum GameName {
    Reversi,
    Gomoku,
    Duel2048,
    Module,
}

/// A game configuration as written: the fields of every game, the ones the named game takes
/// then required and the others ignored, as serde's derive did. Serde's derive for an
/// internally tagged enum buffers the document and reads each variant apart, about 8 KB of the
/// web player's wasm; this reads one flat struct, with the same errors.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct GameFields {
    name: GameName,
    #[serde(default)]
    size: Option<u8>,
    #[serde(default)]
    rule: Option<gomoku::Rule>,
    #[serde(default)]
    rounds: Option<u16>,
    #[serde(default)]
    random: Option<duel2048::RandomSource>,
    #[serde(default)]
    module: Option<module::ModuleRef>,
    #[serde(default)]
    config: Option<serde_json::Value>,
    #[serde(default)]
    seed: Option<u64>,
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for GameConfig {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameConfig, D::Error> {
        use serde::de::Error;
        fn need<T, E: Error>(v: Option<T>, name: &'static str) -> Result<T, E> {
            v.ok_or_else(|| E::missing_field(name))
        }
        let f = GameFields::deserialize(d)?;
        Ok(match f.name {
            GameName::Reversi => GameConfig::Reversi(reversi::Config {
                size: need(f.size, "size")?,
            }),
            GameName::Gomoku => GameConfig::Gomoku(gomoku::Config {
                size: need(f.size, "size")?,
                rule: need(f.rule, "rule")?,
            }),
            GameName::Duel2048 => GameConfig::Duel2048(duel2048::Config {
                rounds: need(f.rounds, "rounds")?,
                random: need(f.random, "random")?,
            }),
            GameName::Module => {
                let written = module::serde_impl::Written {
                    module: need(f.module, "module")?,
                    config: f.config.unwrap_or_else(|| serde_json::json!({})),
                    seed: f.seed.unwrap_or(0),
                };
                GameConfig::Module(ModuleConfig::from_written(written).map_err(D::Error::custom)?)
            }
        })
    }
}

/// Places of a game won by `winner` (or drawn): the winner first, every other seat second.
pub fn places_of_winner(winner: Option<Seat>, seats: usize) -> Vec<u32> {
    (0..seats)
        .map(|s| match winner {
            Some(w) if w.index() != s => 2,
            _ => 1,
        })
        .collect()
}

/// The places of a game that ended because `culprit` failed: the culprit last, the others
/// placed by their running scores (the highest first, equal scores sharing a place). In a
/// two-seat game: the other seat first.
pub fn places_after_failure(culprit: Seat, scores: &[i64]) -> Vec<u32> {
    let n = scores.len();
    (0..n)
        .map(|s| {
            if s == culprit.index() {
                return n as u32;
            }
            let better = (0..n)
                .filter(|&o| o != culprit.index() && scores[o] > scores[s])
                .count();
            1 + better as u32
        })
        .collect()
}

/// The games arbiter knows, by the names used on the command line and in replays.
pub const GAME_NAMES: [&str; 3] = [Reversi::NAME, Gomoku::NAME, Duel::NAME];

impl GameConfig {
    /// The default configuration of the game called `name` (seed defaults: 16 x 16 Reversi,
    /// 15 x 15 freestyle Gomoku, the 500-round duel with seed 0).
    pub fn default_for(name: &str) -> Result<GameConfig, ConfigError> {
        match name {
            "reversi" => Ok(GameConfig::Reversi(reversi::Config::default())),
            "gomoku" | "gobang" => Ok(GameConfig::Gomoku(gomoku::Config::default())),
            "duel2048" | "2048" => Ok(GameConfig::Duel2048(duel2048::Config::default())),
            other => Err(ConfigError::new(alloc::format!(
                "unknown game {other:?}: expected one of reversi, gomoku, duel2048"
            ))),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            GameConfig::Reversi(_) => Reversi::NAME,
            GameConfig::Gomoku(_) => Gomoku::NAME,
            GameConfig::Duel2048(_) => Duel::NAME,
            GameConfig::Module(_) => MODULE,
        }
    }

    /// The game's own name: a module's (`connect-four`), or the built-in game's.
    pub fn title(&self) -> &str {
        match self {
            GameConfig::Module(m) => &m.module.name,
            other => other.name(),
        }
    }

    pub fn as_module(&self) -> Option<&ModuleConfig> {
        match self {
            GameConfig::Module(m) => Some(m),
            _ => None,
        }
    }
}

/// The `name` of every module game's configuration.
pub const MODULE: &str = "module";

impl fmt::Display for GameConfig {
    /// For people: "Reversi 16 x 16", "Gomoku 15 x 15, renju", "2048 duel, 500 rounds, seed 7".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameConfig::Reversi(c) => write!(f, "Reversi {0} x {0}", c.size),
            GameConfig::Gomoku(c) => {
                write!(f, "Gomoku {0} x {0}, {1}", c.size, c.rule.name())
            }
            GameConfig::Duel2048(c) => match &c.random {
                duel2048::RandomSource::Seed(s) => {
                    write!(f, "2048 duel, {} rounds, seed {s}", c.rounds)
                }
                duel2048::RandomSource::Sequence(_) => {
                    write!(f, "2048 duel, {} rounds, given sequence", c.rounds)
                }
            },
            GameConfig::Module(m) => m.fmt(f),
        }
    }
}

/// A position of any game.
// Positions are values that get cloned per frame; boxing the large one would cost an
// allocation per clone for no gain.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AnyGame {
    Reversi(Reversi),
    Gomoku(Gomoku),
    Duel2048(Duel),
    /// A game module's position, held by a module host.
    Module(Box<dyn DynRules>),
}

/// A ply of any game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AnyMove {
    Reversi(reversi::Move),
    Gomoku(gomoku::Point),
    Duel2048(duel2048::Move),
    Module(MoveText),
}

/// Why a move given as text cannot be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    Parse(ParseMoveError),
    Illegal(IllegalMove),
    /// A move of another game (programming error in the caller, reported rather than panicking).
    WrongGame,
    /// A game module refused the move, in its own words.
    Refused(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Parse(e) => e.fmt(f),
            MoveError::Illegal(e) => write!(f, "illegal move: {e}"),
            MoveError::WrongGame => f.write_str("the move belongs to another game"),
            MoveError::Refused(why) => write!(f, "illegal move: {why}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for MoveError {}

/// Calls the same method on whichever game `$self` holds.
macro_rules! dispatch {
    ($self:expr, $g:ident => $body:expr, module: $method:ident) => {
        match $self {
            AnyGame::Reversi($g) => $body,
            AnyGame::Gomoku($g) => $body,
            AnyGame::Duel2048($g) => $body,
            AnyGame::Module($g) => $g.$method(),
        }
    };
}

impl AnyGame {
    /// The start position; a module game through the process's installed module host.
    pub fn new(config: &GameConfig) -> Result<AnyGame, ConfigError> {
        AnyGame::open(config, None)
    }

    /// The start position; a module game through `host` (else the installed one).
    pub fn open(
        config: &GameConfig,
        host: Option<&dyn ModuleHost>,
    ) -> Result<AnyGame, ConfigError> {
        Ok(match config {
            GameConfig::Reversi(c) => AnyGame::Reversi(Reversi::new(c)?),
            GameConfig::Gomoku(c) => AnyGame::Gomoku(Gomoku::new(c)?),
            GameConfig::Duel2048(c) => AnyGame::Duel2048(Duel::new(c)?),
            GameConfig::Module(c) => AnyGame::Module(module::open(c, host)?),
        })
    }

    pub fn name(&self) -> &'static str {
        match self {
            AnyGame::Reversi(_) => Reversi::NAME,
            AnyGame::Gomoku(_) => Gomoku::NAME,
            AnyGame::Duel2048(_) => Duel::NAME,
            AnyGame::Module(_) => MODULE,
        }
    }

    pub fn config(&self) -> GameConfig {
        match self {
            AnyGame::Reversi(g) => GameConfig::Reversi(*g.config()),
            AnyGame::Gomoku(g) => GameConfig::Gomoku(*g.config()),
            AnyGame::Duel2048(g) => GameConfig::Duel2048(g.config().clone()),
            AnyGame::Module(g) => GameConfig::Module(g.config().clone()),
        }
    }

    /// A module game's rules, for what only modules have (what a seat is told, the view).
    pub fn as_module(&self) -> Option<&dyn DynRules> {
        match self {
            AnyGame::Module(g) => Some(g.as_ref()),
            _ => None,
        }
    }

    /// A copy for a search: a module game's chance after this ply is drawn from `seed`, so
    /// the search cannot see the game's own future. Built-in games are copied as they are
    /// (the 2048 duel's sequence is public to both players).
    pub fn reseeded(&self, seed: u64) -> AnyGame {
        match self {
            AnyGame::Module(g) => AnyGame::Module(g.reseeded(seed)),
            other => other.clone(),
        }
    }

    /// Lets a game module play uniformly random moves (picked by `seed`) towards the end by
    /// itself, where it offers to: a Monte Carlo search's playout at the module's own speed.
    /// Whether or not it did, and however far, the caller goes on ply by ply from where the
    /// game is (built-in games, native already, are left to the caller).
    pub fn random_playout(&mut self, seed: u64) {
        if let AnyGame::Module(g) = self {
            // A module that fails here is faulted: the game reports no side to move.
            let _ = g.random_playout(seed);
        }
    }

    /// Set once a game module failed: the game cannot go on, and is no result.
    pub fn fault(&self) -> Option<String> {
        self.as_module().and_then(|g| g.fault())
    }

    /// How the game ended, in words, for a module game (built-in games say it from
    /// [`Outcome::reason`]).
    pub fn end_words(&self) -> Option<String> {
        self.as_module().and_then(|g| g.outcome()).map(|o| o.reason)
    }

    /// The number of seats: two for the built-in games, the module's for a module game.
    pub fn seats(&self) -> usize {
        match self {
            AnyGame::Module(g) => g.seats(),
            _ => 2,
        }
    }

    /// Whose turn it is: one seat, several at once (a module's simultaneous turn), or over.
    pub fn turn(&self) -> Turn {
        match self {
            AnyGame::Reversi(g) => Turn::of(g.to_move()),
            AnyGame::Gomoku(g) => Turn::of(g.to_move()),
            AnyGame::Duel2048(g) => Turn::of(g.to_move()),
            AnyGame::Module(g) => g.turn(),
        }
    }

    /// The one seat to move; `None` once over, and in a simultaneous turn (see [`Self::turn`]).
    pub fn to_move(&self) -> Option<Seat> {
        self.turn().seat()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            AnyGame::Reversi(g) => g.outcome(),
            AnyGame::Gomoku(g) => g.outcome(),
            AnyGame::Duel2048(g) => g.outcome(),
            AnyGame::Module(g) => g.outcome().map(|o| Outcome {
                winner: o.winner(),
                reason: EndReason::Module,
            }),
        }
    }

    /// Each seat's place once the game is over by its rules (from 1; ties share): the
    /// module's, or a built-in game's winner first.
    pub fn places(&self) -> Option<Vec<u32>> {
        match self {
            AnyGame::Module(g) => g.outcome().map(|o| o.places),
            _ => self
                .outcome()
                .map(|o| places_of_winner(o.winner, self.seats())),
        }
    }

    pub fn ply(&self) -> usize {
        dispatch!(self, g => g.ply(), module: ply)
    }

    /// The running score per seat.
    pub fn scores(&self) -> Vec<i64> {
        match self {
            AnyGame::Reversi(g) => g.scores().to_vec(),
            AnyGame::Gomoku(g) => g.scores().to_vec(),
            AnyGame::Duel2048(g) => g.scores().to_vec(),
            AnyGame::Module(g) => g.scores(),
        }
    }

    /// The forced ply of the one seat to move.
    pub fn forced_move(&self) -> Option<AnyMove> {
        self.to_move().and_then(|s| self.forced_move_of(s))
    }

    /// The ply `seat` must make in this turn when it has no choice.
    pub fn forced_move_of(&self, seat: Seat) -> Option<AnyMove> {
        if !self.turn().movers().contains(seat) {
            return None;
        }
        match self {
            AnyGame::Reversi(g) => g.forced_move().map(AnyMove::Reversi),
            AnyGame::Gomoku(g) => g.forced_move().map(AnyMove::Gomoku),
            AnyGame::Duel2048(g) => g.forced_move().map(AnyMove::Duel2048),
            AnyGame::Module(g) => g.forced_move(seat).map(AnyMove::Module),
        }
    }

    /// The legal plies of the one seat to move (none in a simultaneous turn: see
    /// [`Self::legal_moves_of`]).
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        self.to_move()
            .map_or_else(Vec::new, |s| self.legal_moves_of(s))
    }

    /// The legal plies of `seat` in this turn (none for a seat that does not move now).
    pub fn legal_moves_of(&self, seat: Seat) -> Vec<AnyMove> {
        fn collect<G: Game>(g: &G, wrap: fn(G::Move) -> AnyMove) -> Vec<AnyMove> {
            let mut out = Vec::new();
            g.legal_moves(&mut out);
            out.into_iter().map(wrap).collect()
        }
        if !self.turn().movers().contains(seat) {
            return Vec::new();
        }
        match self {
            AnyGame::Reversi(g) => collect(g, AnyMove::Reversi),
            AnyGame::Gomoku(g) => collect(g, AnyMove::Gomoku),
            AnyGame::Duel2048(g) => collect(g, AnyMove::Duel2048),
            AnyGame::Module(g) => g
                .legal_moves(seat)
                .into_iter()
                .map(AnyMove::Module)
                .collect(),
        }
    }

    /// A position `seat` cannot tell from this one, for a search on its behalf: a module
    /// game's hidden part and future chance drawn from `seed`. The built-in games hide
    /// nothing: a copy (the 2048 duel's sequence is public).
    pub fn sampled(&self, seat: Seat, seed: u64) -> AnyGame {
        match self {
            AnyGame::Module(g) => AnyGame::Module(g.sampled(seat, seed)),
            other => other.clone(),
        }
    }

    /// Plays a turn of several seats at once (a module game's simultaneous turn): one move
    /// per mover. A refusal names the seat whose move was refused.
    pub fn play_together(&mut self, moves: &[(Seat, AnyMove)]) -> Result<(), (Seat, MoveError)> {
        let AnyGame::Module(g) = self else {
            return match moves {
                [(_, mv)] => self.play(*mv).map_err(|e| (moves[0].0, e)),
                _ => Err((Seat::FIRST, MoveError::WrongGame)),
            };
        };
        let texts: Result<Vec<(Seat, MoveText)>, (Seat, MoveError)> = moves
            .iter()
            .map(|(s, m)| match m {
                AnyMove::Module(t) => Ok((*s, *t)),
                _ => Err((*s, MoveError::WrongGame)),
            })
            .collect();
        let texts = texts?;
        if let [(_, only)] = texts.as_slice() {
            if g.turn().seat().is_some() {
                return g
                    .play(only.as_str())
                    .map_err(|why| (moves[0].0, MoveError::Refused(why)));
            }
        }
        g.play_together(&texts)
            .map_err(|(s, why)| (s, MoveError::Refused(why)))
    }

    /// What `seat` learns of each move of a ply played from this position: every move of a
    /// built-in game; a module game's reveal to the seat (`None` for a move hidden from it),
    /// and a seat always learns its own moves.
    pub fn told_to(&self, moves: &[(Seat, AnyMove)], seat: Seat) -> Vec<Option<String>> {
        self.told(moves, Viewer::Seat(seat))
    }

    /// [`AnyGame::told_to`] for any viewer: a seat, the public (spectators) or everyone.
    pub fn told(&self, moves: &[(Seat, AnyMove)], viewer: Viewer) -> Vec<Option<String>> {
        let AnyGame::Module(g) = self else {
            return moves
                .iter()
                .map(|(_, m)| Some(self.format_move(*m)))
                .collect();
        };
        let texts: Vec<(Seat, MoveText)> = moves
            .iter()
            .filter_map(|(s, m)| match m {
                AnyMove::Module(t) => Some((*s, *t)),
                _ => None,
            })
            .collect();
        let mut told = g.reveal(&texts, viewer);
        told.resize(moves.len(), None);
        for (i, (by, m)) in moves.iter().enumerate() {
            if viewer == Viewer::Seat(*by) {
                told[i] = Some(self.format_move(*m));
            }
        }
        told
    }

    /// A seat failed (crashed, timed out, sent an illegal move) in a game of three or more
    /// seats: `true` when the rules took it out and the game goes on for the others; `false`
    /// when the game ends there (a two-seat game always: the other seat wins).
    pub fn retire(&mut self, seat: Seat) -> bool {
        match self {
            AnyGame::Module(g) if g.seats() > 2 => g.retire(seat),
            _ => false,
        }
    }

    pub fn parse_move(&self, text: &str) -> Result<AnyMove, ParseMoveError> {
        Ok(match self {
            AnyGame::Reversi(g) => AnyMove::Reversi(g.parse_move(text)?),
            AnyGame::Gomoku(g) => AnyMove::Gomoku(g.parse_move(text)?),
            AnyGame::Duel2048(g) => AnyMove::Duel2048(g.parse_move(text)?),
            AnyGame::Module(_) => AnyMove::Module(MoveText::new(text).ok_or_else(|| {
                ParseMoveError::new(text, "one word of the game's notation, at most 32 bytes")
            })?),
        })
    }

    pub fn format_move(&self, mv: AnyMove) -> String {
        match (self, mv) {
            (AnyGame::Reversi(g), AnyMove::Reversi(m)) => g.format_move(m),
            (AnyGame::Gomoku(g), AnyMove::Gomoku(m)) => g.format_move(m),
            (AnyGame::Duel2048(g), AnyMove::Duel2048(m)) => g.format_move(m),
            (AnyGame::Module(_), AnyMove::Module(m)) => String::from(m.as_str()),
            _ => String::from("?"),
        }
    }

    pub fn play(&mut self, mv: AnyMove) -> Result<(), MoveError> {
        if let (AnyGame::Module(g), AnyMove::Module(m)) = (&mut *self, mv) {
            return g.play(m.as_str()).map_err(MoveError::Refused);
        }
        match (self, mv) {
            (AnyGame::Reversi(g), AnyMove::Reversi(m)) => g.play(m),
            (AnyGame::Gomoku(g), AnyMove::Gomoku(m)) => g.play(m),
            (AnyGame::Duel2048(g), AnyMove::Duel2048(m)) => g.play(m),
            _ => return Err(MoveError::WrongGame),
        }
        .map_err(MoveError::Illegal)
    }

    /// Reads and plays a move given as text; returns the move read.
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, MoveError> {
        let mv = self.parse_move(text).map_err(MoveError::Parse)?;
        self.play(mv)?;
        Ok(mv)
    }
}
