//! Bot protocols: how the referee tells a bot about the game and reads its moves.
//!
//! Each protocol is a small state machine over a [`Wire`] (one bot's process, with its log
//! capture). The game runner (`crate::game`) owns the rules and the clocks; a protocol only
//! encodes and decodes. Specified for bot authors in `docs/protocols.md`.
//!
//! - [`reversi`]: seed 001's brain protocol (START/PLACE/TURN/END, DEBUG), and `reversi-board`,
//!   the same plus a `BOARD` line with the start position (for openings).
//! - [`gobang`]: seed 003's bridge protocol (READY, BLACK/WHITE, MOVE H8).
//! - [`gomocup`]: the Gomocup protocol (START/INFO/BEGIN/TURN/BOARD/END).
//! - [`duel`]: arbiter's line protocol for the 2048 duel.
//! - [`kit`]: the game kit's line protocol, for any module game.

pub mod duel;
pub mod gobang;
pub mod gomocup;
pub mod kit;
pub mod remote;
pub mod reversi;
mod wire;

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use arbiter_engine::any::{AnyGame, AnyMove, GameConfig};
use arbiter_engine::Seat;

pub use wire::{debug_lines, Fault, Line, LogCaps, Wire};

/// The protocols arbiter speaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProtocolKind {
    Reversi,
    #[serde(rename = "reversi-board")]
    ReversiBoard,
    Gobang,
    Gomocup,
    Duel,
    Kit,
}

impl ProtocolKind {
    pub const ALL: [ProtocolKind; 6] = [
        ProtocolKind::Reversi,
        ProtocolKind::ReversiBoard,
        ProtocolKind::Gobang,
        ProtocolKind::Gomocup,
        ProtocolKind::Duel,
        ProtocolKind::Kit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ProtocolKind::Reversi => "reversi",
            ProtocolKind::ReversiBoard => "reversi-board",
            ProtocolKind::Gobang => "gobang",
            ProtocolKind::Gomocup => "gomocup",
            ProtocolKind::Duel => "duel",
            ProtocolKind::Kit => "kit",
        }
    }

    /// The protocol a game uses unless told otherwise.
    pub fn default_for(game: &GameConfig) -> ProtocolKind {
        match game {
            GameConfig::Reversi(_) => ProtocolKind::Reversi,
            GameConfig::Gomoku(_) => ProtocolKind::Gomocup,
            GameConfig::Duel2048(_) => ProtocolKind::Duel,
            GameConfig::Module(_) => ProtocolKind::Kit,
        }
    }

    /// Whether this protocol can carry `game` (and its opening).
    pub fn check(self, game: &GameConfig, has_opening: bool) -> Result<(), String> {
        let fits = matches!(
            (self, game),
            (
                ProtocolKind::Reversi | ProtocolKind::ReversiBoard,
                GameConfig::Reversi(_)
            ) | (
                ProtocolKind::Gobang | ProtocolKind::Gomocup,
                GameConfig::Gomoku(_)
            ) | (ProtocolKind::Duel, GameConfig::Duel2048(_))
                | (ProtocolKind::Kit, GameConfig::Module(_))
        );
        if !fits {
            return Err(format!(
                "protocol {} cannot play {}",
                self.name(),
                game.title()
            ));
        }
        if self == ProtocolKind::Reversi && has_opening {
            return Err(
                "seed 001's reversi protocol cannot tell bots an opening (they all start \
                 from the standard position): use the reversi-board protocol (--protocol \
                 reversi-board, or protocol = \"reversi-board\" in a tournament's [game]), which \
                 adds a BOARD line with the start position and which the sample bots speak, or \
                 play without openings"
                    .into(),
            );
        }
        if self == ProtocolKind::Gobang {
            if let GameConfig::Gomoku(c) = game {
                if c.size != 15 {
                    return Err("the gobang protocol is for 15 x 15 boards only".into());
                }
            }
            if has_opening {
                return Err("the gobang protocol cannot express openings: use gomocup".into());
            }
        }
        Ok(())
    }

    /// A fresh protocol state machine for one bot.
    pub fn start(self) -> Box<dyn Protocol> {
        match self {
            ProtocolKind::Reversi => Box::new(reversi::Reversi::default()),
            ProtocolKind::ReversiBoard => Box::new(reversi::Reversi::with_board()),
            ProtocolKind::Gobang => Box::new(gobang::Gobang::default()),
            ProtocolKind::Gomocup => Box::new(gomocup::Gomocup::default()),
            ProtocolKind::Duel => Box::new(duel::Duel),
            ProtocolKind::Kit => Box::new(kit::Kit),
        }
    }
}

impl fmt::Display for ProtocolKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ProtocolKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ProtocolKind::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown protocol {s:?}: expected reversi, reversi-board, gobang, gomocup, \
                     duel or kit"
                )
            })
    }
}

/// What a protocol may tell a bot about the limits it plays under.
#[derive(Clone, Copy, Debug)]
pub struct LimitsInfo {
    pub move_time: Option<Duration>,
    pub game_time: Option<Duration>,
    pub memory_bytes: Option<u64>,
}

/// The game as a bot is told about it at the start.
#[derive(Clone, Debug)]
pub struct Start<'a> {
    pub seat: Seat,
    /// The position the players start from (after the opening).
    pub game: &'a AnyGame,
    /// The opening's moves, from the game's initial position to `game`.
    pub opening: &'a [String],
    pub limits: LimitsInfo,
    /// The bot's scratch directory, where protocols have a place to say it.
    pub folder: Option<&'a str>,
    /// When the handshake must be done.
    pub deadline: Instant,
}

/// A request for a move.
#[derive(Clone, Copy, Debug)]
pub struct Ask<'a> {
    pub game: &'a AnyGame,
    /// The seat asked (one of the turn's movers: several are asked at once in a simultaneous
    /// turn).
    pub seat: Seat,
    /// The bot's remaining game time, if limited.
    pub time_left: Option<Duration>,
    /// The opponent's remaining game time, if limited (the 2048 duel's original board carries
    /// both players' clocks).
    pub opponent_time_left: Option<Duration>,
    /// When the answer must be in (limits plus tolerance).
    pub deadline: Instant,
}

/// A bot's answer to [`Protocol::ask`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move in the protocol's notation, converted (legality is the engine's call).
    Move(AnyMove),
    /// A line that is not a move in this protocol.
    Malformed(String),
}

/// What one seat learns of a ply just played.
#[derive(Clone, Copy, Debug)]
pub struct News<'a> {
    /// The position the ply was played in.
    pub before: &'a AnyGame,
    /// The ply's moves, in seat order (one, or a simultaneous turn's).
    pub moves: &'a [(Seat, AnyMove)],
    /// What this seat is told of each move (the module's reveal; `None`: nothing).
    pub told: &'a [Option<String>],
    /// Which moves the referee played without asking (forced).
    pub forced: &'a [bool],
}

/// How the game ended for one bot, as the end command tells it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Standing {
    /// The seat's place (1 first), `None` for a game with no result.
    pub place: Option<u32>,
    /// Whether another seat shares the place.
    pub shared: bool,
    /// The game's seat count.
    pub seats: usize,
}

impl Standing {
    /// The number the `END` commands carry: in a two-seat game seed 001's (0 draw or no
    /// result, 1 won, 2 lost); with more seats the place (0 for no result).
    pub fn code(self) -> u32 {
        match (self.seats, self.place) {
            (_, None) => 0,
            (2, Some(1)) if self.shared => 0,
            (2, Some(1)) => 1,
            (2, Some(_)) => 2,
            (_, Some(p)) => p,
        }
    }

    pub fn won(self) -> bool {
        self.place == Some(1) && !self.shared
    }

    pub fn lost(self) -> bool {
        self.place.is_some_and(|p| p > 1)
    }
}

/// One bot's side of a protocol. Every method that talks may fail with the bot's [`Fault`].
pub trait Protocol: Send {
    /// The handshake, right after the process started.
    fn start(&mut self, wire: &mut Wire, start: &Start<'_>) -> Result<(), Fault>;
    /// A ply was played: tells the bot at `me` what it learns of it. The default, for the
    /// two-seat protocols: the opponent's move, or the bot's own forced one.
    fn moved(&mut self, wire: &mut Wire, me: Seat, news: &News<'_>) -> Result<(), Fault> {
        for (i, (by, mv)) in news.moves.iter().enumerate() {
            if *by != me {
                self.opponent_moved(wire, news.before, *mv)?;
            } else if news.forced.get(i).copied().unwrap_or(false) {
                self.own_forced(wire, news.before, *mv)?;
            }
        }
        Ok(())
    }
    /// The opponent played `mv` (forced plies included) from `before`.
    fn opponent_moved(
        &mut self,
        wire: &mut Wire,
        before: &AnyGame,
        mv: AnyMove,
    ) -> Result<(), Fault>;
    /// How this protocol sorts a bot's lines into log, blank and content.
    fn lines(&self) -> fn(&str) -> Line<'_>;
    /// The bot's own forced ply (a pass, a skipped step) was played for it from `before`.
    /// Most protocols say nothing about it; the bot must only have stayed quiet.
    fn own_forced(&mut self, wire: &mut Wire, before: &AnyGame, mv: AnyMove) -> Result<(), Fault> {
        let _ = (before, mv);
        wire.expect_quiet(self.lines())
    }
    /// Asks for a move and reads the answer.
    fn ask(&mut self, wire: &mut Wire, ask: &Ask<'_>) -> Result<Reply, Fault>;
    /// Tells the bot the game is over (best effort: the bot may be gone).
    fn end(&mut self, wire: &mut Wire, standing: Standing);
}
