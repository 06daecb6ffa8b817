//! The replay document: one versioned JSON object holding everything needed to rebuild every
//! frame of a game through the engine. Specified in `docs/replay-format.md` (with a JSON Schema
//! in `docs/replay.schema.json`).
//!
//! Reading is strict: [`Replay::from_json`] rejects unknown fields, wrong versions, and (through
//! [`Replay::rebuild`]) any move the rules refuse or a result the moves contradict, each with an
//! error naming the problem.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use crate::any::{places_after_failure, places_of_winner, AnyGame, AnyMove, GameConfig};
use crate::game::{Seat, Turn};

/// The value of the `format` field.
pub const FORMAT: &str = "arbiter-replay";
/// The format version this engine reads and writes.
pub const VERSION: u32 = 1;

/// A whole game.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// Always `"arbiter-replay"`.
    pub format: String,
    /// Always [`VERSION`] for documents this engine writes.
    pub version: u32,
    /// The game and its configuration (size, rule, random sequence or seed).
    pub game: GameConfig,
    /// Moves played from the initial position before the players took over (an opening from a
    /// tournament's book). Not attributed to the players.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening: Vec<String>,
    /// One player per seat of the game, in seat order (seat 0 moves first).
    pub players: Vec<Player>,
    /// Every ply after the opening, forced ones (pass, skip) included; a simultaneous turn is
    /// one ply (its other movers' moves in [`MoveRecord::with`]).
    pub moves: Vec<MoveRecord>,
    /// Seats taken out of a game of three or more seats after they failed, while the others
    /// played on, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retired: Vec<Retirement>,
    /// How the game ended.
    pub result: GameResult,
    /// Per-seat scores at the end (discs, stones, tile sums), as the engine counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i64>>,
    /// Free text about the game (tournament, round, date, importer), not checked.
    #[serde(default, skip_serializing_if = "Meta::is_empty")]
    pub meta: Meta,
    /// What the seat at fault did and printed, when a bot lost by a failure: so that a student
    /// sees why without reading logs by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// A module game's module, base64 (standard alphabet, padded), so that the file alone
    /// plays in the player. Its sha256 must be the one `game.module` names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module_wasm: Option<String>,
}

/// Everything arbiter saw of the seat at fault around its failure. Every field is optional:
/// what was not observed (an imported game, a bot that never started) is absent.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failure {
    /// The seat at fault (the same as `result.reason.seat`).
    pub seat: Seat,
    /// The DEBUG / MESSAGE lines it wrote since its last recorded move, up to the log caps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<String>,
    /// The tail of its standard error (a Python traceback whole, within a cap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// How its process ended, when it had ended by the verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<Exit>,
    /// Wall-clock time it spent on the failing request, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
    /// What was left of its game clock when the failing request was made, in milliseconds
    /// (absent when the game time is unlimited).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<f64>,
}

/// How a bot's process ended.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exit {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// For a signal: who sent it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub killed_by: Option<Killer>,
    /// For a signal arbiter sent: why ("memory limit", "CPU time limit", "move time").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// Who ended a process by a signal.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Killer {
    /// arbiter or the kernel on arbiter's behalf (a limit it set).
    Arbiter,
    /// The process itself (abort, a fault such as SIGSEGV).
    Itself,
    /// Another process.
    Outside,
}

impl fmt::Display for Exit {
    /// "exit code 1", "signal 9 (SIGKILL), killed by arbiter: memory limit", "signal 11
    /// (SIGSEGV), from the program itself", "signal 9 (SIGKILL), sent from outside".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.code, self.signal) {
            (_, Some(s)) => {
                write!(f, "signal {s}")?;
                if let Some(name) = signal_name(s) {
                    write!(f, " ({name})")?;
                }
                match (self.killed_by, &self.why) {
                    (Some(Killer::Arbiter), Some(why)) => write!(f, ", killed by arbiter: {why}"),
                    (Some(Killer::Arbiter), None) => f.write_str(", killed by arbiter"),
                    (Some(Killer::Outside), _) => f.write_str(", sent from outside"),
                    (Some(Killer::Itself), _) => f.write_str(", from the program itself"),
                    (None, _) => Ok(()),
                }
            }
            (Some(c), None) => write!(f, "exit code {c}"),
            (None, None) => f.write_str("unknown exit"),
        }
    }
}

/// The conventional name of a Linux signal number.
pub fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        31 => "SIGSYS",
        _ => return None,
    })
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: String,
    pub seat: Seat,
    /// The command line that ran the bot, or where the player came from (`builtin:greedy`,
    /// a record file's path ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRecord {
    pub seat: Seat,
    /// The move in the game's canonical notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Wall-clock thinking time in milliseconds, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
    /// CPU time of the bot's process tree in milliseconds, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<f64>,
    /// The bot's DEBUG / MESSAGE output while it thought about this move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<String>,
    /// A simultaneous turn: the moves of the other movers, by seat (this record is the lowest
    /// mover's). Empty for a turn of one seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<MoveRecord>,
}

impl MoveRecord {
    pub fn new(seat: Seat, mv: String) -> MoveRecord {
        MoveRecord {
            seat,
            mv,
            time_ms: None,
            cpu_ms: None,
            log: None,
            with: Vec::new(),
        }
    }

    /// Every move of this ply: this one, then those played with it.
    pub fn records(&self) -> impl Iterator<Item = &MoveRecord> {
        core::iter::once(self).chain(self.with.iter())
    }

    /// Whether the ply is a simultaneous turn's.
    pub fn is_together(&self) -> bool {
        !self.with.is_empty()
    }
}

/// A seat taken out of the game after it failed, the game going on for the others.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Retirement {
    /// The plies played before it: it failed in the position of frame `ply`, and was taken out
    /// there (frame `ply` shows it gone).
    pub ply: usize,
    /// The failure, naming its seat (any reason but `normal` and `aborted`).
    pub reason: Reason,
    /// What the seat did around its failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
}

impl Retirement {
    /// The seat taken out (a retirement's reason always names one).
    pub fn seat(&self) -> Seat {
        self.reason.culprit().unwrap_or(Seat::FIRST)
    }
}

#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Where the game came from when it was not played by arbiter (an importer's name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The last lines of each seat's stderr, kept with a failure verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<Vec<String>>,
    /// The game's seed: the bots saw a number drawn one-way from it as `ARBITER_SEED`, and
    /// arbiter's built-in bots drew their random choices from that, so the game can be played
    /// again move for move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Earlier plays of this game that the judging machine spoiled (a stall, a full disk), in
    /// order: "voided: judging machine stalled 8.0 s at move 31". This replay is the game
    /// played again; the voided plays were never results.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub voided: Vec<String>,
    /// How a module game ended by its rules, in the module's words ("four in a row"), kept
    /// so that lists and summaries can say it without running the module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<String>,
}

impl Meta {
    pub fn is_empty(&self) -> bool {
        *self == Meta::default()
    }
}

/// How the game ended: a winner or a draw (`winner: null`), each seat's place in a game of
/// more than two seats, and why.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The seat alone in first place, if there is one.
    pub winner: Option<Seat>,
    /// Each seat's place, from 1 (ties share the best place of their group): written for
    /// games of three or more seats; a two-seat game's follow from `winner`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub places: Option<Vec<u32>>,
    pub reason: Reason,
}

impl GameResult {
    /// The seat at fault in a two-seat game loses (a reason with no culprit gives no winner).
    pub fn lost_by(reason: Reason) -> GameResult {
        GameResult {
            winner: reason.culprit().map(Seat::other),
            places: None,
            reason,
        }
    }

    /// The game ended because the seat at fault in `reason` failed: it takes the last place,
    /// the others their places by the running `scores` (in a two-seat game, the other wins).
    pub fn failed(reason: Reason, scores: &[i64]) -> GameResult {
        let Some(culprit) = reason.culprit().filter(|_| scores.len() > 2) else {
            return GameResult::lost_by(reason);
        };
        GameResult::ranked(places_after_failure(culprit, scores), reason)
    }

    /// A result of these places (the winner is the seat alone in first place).
    pub fn ranked(places: Vec<u32>, reason: Reason) -> GameResult {
        GameResult {
            winner: crate::module::winner_of(&places),
            places: (places.len() > 2).then_some(places),
            reason,
        }
    }

    /// Stopped for a reason that is no seat's fault: nobody wins.
    pub fn aborted(message: String) -> GameResult {
        GameResult {
            winner: None,
            places: None,
            reason: Reason::Aborted { message },
        }
    }

    /// Whether the game has a result (it was not aborted).
    pub fn counts(&self) -> bool {
        !matches!(self.reason, Reason::Aborted { .. })
    }

    /// Each seat's place in a game of `seats` seats; `None` for a game with no result.
    pub fn places(&self, seats: usize) -> Option<Vec<u32>> {
        if !self.counts() {
            return None;
        }
        Some(
            self.places
                .clone()
                .unwrap_or_else(|| places_of_winner(self.winner, seats)),
        )
    }
}

/// Why the game ended. Every reason but `normal` and `aborted` names the seat at fault, which
/// lost. Read by hand (see `ReasonFields`), written by serde.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// The game ended by its rules; the engine's outcome must agree.
    Normal,
    /// The seat sent a move the rules refuse.
    IllegalMove {
        seat: Seat,
        #[serde(rename = "move")]
        mv: String,
        why: String,
        /// The bot's own line, exactly as sent, when it came from a bot.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<String>,
    },
    /// The seat sent a line that is not a move.
    MalformedOutput { seat: Seat, line: String },
    /// The seat wrote when no answer was expected.
    OutOfTurn { seat: Seat, line: String },
    /// The seat exceeded the time for one move.
    MoveTime { seat: Seat, limit_ms: u64 },
    /// The seat exceeded its total time for the game.
    GameTime { seat: Seat, limit_ms: u64 },
    /// The seat's program crashed (exit code or signal).
    Crash {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_code: Option<i32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signal: Option<i32>,
    },
    /// The seat used more memory than allowed.
    Memory { seat: Seat, limit_bytes: u64 },
    /// The seat's program exited before the game was over.
    ExitedEarly {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_code: Option<i32>,
    },
    /// The seat's program could not be started.
    FailedToStart { seat: Seat, error: String },
    /// The seat did not answer the handshake in time.
    NoHandshake { seat: Seat },
    /// Any other protocol violation by the seat.
    ProtocolError { seat: Seat, message: String },
    /// Stopped by the referee for a reason that is no seat's fault (both bots failed to start,
    /// the tournament was cancelled ...).
    Aborted { message: String },
}

/// A reason's `kind`.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ReasonKind {
    Normal,
    IllegalMove,
    MalformedOutput,
    OutOfTurn,
    MoveTime,
    GameTime,
    Crash,
    Memory,
    ExitedEarly,
    FailedToStart,
    NoHandshake,
    ProtocolError,
    Aborted,
}

/// A reason as written: the fields of every kind, checked against its kind once read. Serde's
/// derive for an internally tagged enum buffers the document and reads each variant apart,
/// about 20 KB of the web player's wasm; this reads one flat struct, with the same errors.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReasonFields {
    kind: ReasonKind,
    #[serde(default)]
    seat: Option<Seat>,
    #[serde(default, rename = "move")]
    mv: Option<String>,
    #[serde(default)]
    why: Option<String>,
    #[serde(default)]
    line: Option<String>,
    #[serde(default)]
    limit_ms: Option<u64>,
    #[serde(default)]
    exit_code: Option<i32>,
    #[serde(default)]
    signal: Option<i32>,
    #[serde(default)]
    limit_bytes: Option<u64>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// A field a kind requires.
fn need<T, E: serde::de::Error>(v: Option<T>, name: &'static str) -> Result<T, E> {
    v.ok_or_else(|| E::missing_field(name))
}

impl ReasonFields {
    /// The fields a kind takes, as its variant names them.
    fn allowed(&self) -> &'static [&'static str] {
        match self.kind {
            ReasonKind::Normal => &[],
            ReasonKind::IllegalMove => &["seat", "move", "why", "line"],
            ReasonKind::MalformedOutput | ReasonKind::OutOfTurn => &["seat", "line"],
            ReasonKind::MoveTime | ReasonKind::GameTime => &["seat", "limit_ms"],
            ReasonKind::Crash => &["seat", "exit_code", "signal"],
            ReasonKind::Memory => &["seat", "limit_bytes"],
            ReasonKind::ExitedEarly => &["seat", "exit_code"],
            ReasonKind::FailedToStart => &["seat", "error"],
            ReasonKind::NoHandshake => &["seat"],
            ReasonKind::ProtocolError => &["seat", "message"],
            ReasonKind::Aborted => &["message"],
        }
    }

    /// The first field given that the kind does not take.
    fn stray(&self) -> Option<&'static str> {
        let given = [
            ("seat", self.seat.is_some()),
            ("move", self.mv.is_some()),
            ("why", self.why.is_some()),
            ("line", self.line.is_some()),
            ("limit_ms", self.limit_ms.is_some()),
            ("exit_code", self.exit_code.is_some()),
            ("signal", self.signal.is_some()),
            ("limit_bytes", self.limit_bytes.is_some()),
            ("error", self.error.is_some()),
            ("message", self.message.is_some()),
        ];
        let allowed = self.allowed();
        given
            .into_iter()
            .find(|(name, here)| *here && !allowed.contains(name))
            .map(|(name, _)| name)
    }

    fn reason<E: serde::de::Error>(self) -> Result<Reason, E> {
        if let Some(name) = self.stray() {
            return Err(E::unknown_field(name, self.allowed()));
        }
        let seat = || need(self.seat, "seat");
        Ok(match self.kind {
            ReasonKind::Normal => Reason::Normal,
            ReasonKind::IllegalMove => Reason::IllegalMove {
                seat: seat()?,
                mv: need(self.mv, "move")?,
                why: need(self.why, "why")?,
                line: self.line,
            },
            ReasonKind::MalformedOutput => Reason::MalformedOutput {
                seat: seat()?,
                line: need(self.line, "line")?,
            },
            ReasonKind::OutOfTurn => Reason::OutOfTurn {
                seat: seat()?,
                line: need(self.line, "line")?,
            },
            ReasonKind::MoveTime => Reason::MoveTime {
                seat: seat()?,
                limit_ms: need(self.limit_ms, "limit_ms")?,
            },
            ReasonKind::GameTime => Reason::GameTime {
                seat: seat()?,
                limit_ms: need(self.limit_ms, "limit_ms")?,
            },
            ReasonKind::Crash => Reason::Crash {
                seat: seat()?,
                exit_code: self.exit_code,
                signal: self.signal,
            },
            ReasonKind::Memory => Reason::Memory {
                seat: seat()?,
                limit_bytes: need(self.limit_bytes, "limit_bytes")?,
            },
            ReasonKind::ExitedEarly => Reason::ExitedEarly {
                seat: seat()?,
                exit_code: self.exit_code,
            },
            ReasonKind::FailedToStart => Reason::FailedToStart {
                seat: seat()?,
                error: need(self.error, "error")?,
            },
            ReasonKind::NoHandshake => Reason::NoHandshake { seat: seat()? },
            ReasonKind::ProtocolError => Reason::ProtocolError {
                seat: seat()?,
                message: need(self.message, "message")?,
            },
            ReasonKind::Aborted => Reason::Aborted {
                message: need(self.message, "message")?,
            },
        })
    }
}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        ReasonFields::deserialize(d)?.reason()
    }
}

impl Reason {
    /// The seat at fault, if any.
    pub fn culprit(&self) -> Option<Seat> {
        match self {
            Reason::Normal | Reason::Aborted { .. } => None,
            Reason::IllegalMove { seat, .. }
            | Reason::MalformedOutput { seat, .. }
            | Reason::OutOfTurn { seat, .. }
            | Reason::MoveTime { seat, .. }
            | Reason::GameTime { seat, .. }
            | Reason::Crash { seat, .. }
            | Reason::Memory { seat, .. }
            | Reason::ExitedEarly { seat, .. }
            | Reason::FailedToStart { seat, .. }
            | Reason::NoHandshake { seat }
            | Reason::ProtocolError { seat, .. } => Some(*seat),
        }
    }

    /// A short code for tables and statistics (`illegal_move`, `move_time` ...).
    pub fn code(&self) -> &'static str {
        match self {
            Reason::Normal => "normal",
            Reason::IllegalMove { .. } => "illegal_move",
            Reason::MalformedOutput { .. } => "malformed_output",
            Reason::OutOfTurn { .. } => "out_of_turn",
            Reason::MoveTime { .. } => "move_time",
            Reason::GameTime { .. } => "game_time",
            Reason::Crash { .. } => "crash",
            Reason::Memory { .. } => "memory",
            Reason::ExitedEarly { .. } => "exited_early",
            Reason::FailedToStart { .. } => "failed_to_start",
            Reason::NoHandshake { .. } => "no_handshake",
            Reason::ProtocolError { .. } => "protocol_error",
            Reason::Aborted { .. } => "aborted",
        }
    }
}

impl fmt::Display for Reason {
    /// What a student reads: "illegal move d3 (the move flips no disc)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Normal => f.write_str("normal end"),
            Reason::IllegalMove {
                mv,
                why,
                line: Some(line),
                ..
            } => {
                write!(f, "illegal move: you sent {line:?}")?;
                // A move the engine cannot name (off the board) is the bot's own text.
                if mv.as_str() != line.trim() {
                    write!(f, " ({mv})")?;
                }
                match which(why) {
                    Some(clause) => write!(f, ", which {clause}"),
                    None => write!(f, ": {why}"),
                }
            }
            Reason::IllegalMove { mv, why, .. } => write!(f, "illegal move {mv} ({why})"),
            Reason::MalformedOutput { line, .. } => write!(f, "malformed output {line:?}"),
            Reason::OutOfTurn { line, .. } => write!(f, "output out of turn {line:?}"),
            Reason::MoveTime { limit_ms, .. } => write!(f, "move time exceeded ({limit_ms} ms)"),
            Reason::GameTime { limit_ms, .. } => write!(f, "game time exceeded ({limit_ms} ms)"),
            Reason::Crash {
                exit_code: Some(c), ..
            } => write!(f, "crashed (exit code {c})"),
            Reason::Crash {
                signal: Some(s), ..
            } => match signal_name(*s) {
                Some(name) => write!(f, "crashed (signal {s}, {name})"),
                None => write!(f, "crashed (signal {s})"),
            },
            Reason::Crash { .. } => f.write_str("crashed"),
            Reason::Memory { limit_bytes, .. } => {
                write!(
                    f,
                    "memory limit exceeded ({} MB)",
                    limit_bytes / (1024 * 1024)
                )
            }
            Reason::ExitedEarly {
                exit_code: Some(c), ..
            } => {
                write!(f, "exited before the end (exit code {c})")
            }
            Reason::ExitedEarly { .. } => f.write_str("exited before the end"),
            Reason::FailedToStart { error, .. } => write!(f, "failed to start: {error}"),
            Reason::NoHandshake { .. } => f.write_str("no answer to the handshake"),
            Reason::ProtocolError { message, .. } => write!(f, "protocol error: {message}"),
            Reason::Aborted { message } => write!(f, "aborted: {message}"),
        }
    }
}

/// The engine's reason as a clause about the move ("the point is already occupied" -> "is
/// already occupied"), for the reasons that read well that way.
fn which(why: &str) -> Option<String> {
    if let Some(rest) = why.strip_prefix("the point ") {
        return Some(rest.to_string());
    }
    if let Some(rest) = why.strip_prefix("the move ") {
        return Some(rest.to_string());
    }
    why.starts_with("forbidden point")
        .then(|| format!("is a {why}"))
}

/// Why a replay cannot be read or does not hold together.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayError {
    /// Not JSON, or JSON of the wrong shape (serde's message with line and column).
    Json(String),
    /// JSON, but not an arbiter replay (no or another `format`).
    NotAReplay(String),
    UnsupportedVersion {
        found: u32,
    },
    /// The game configuration is unusable.
    Config(String),
    /// The players list is not exactly seat 0 and seat 1.
    Players(String),
    /// An opening move cannot be played.
    Opening {
        index: usize,
        mv: String,
        why: String,
    },
    /// Move `number` (1-based) cannot be played.
    Move {
        number: usize,
        seat: Seat,
        mv: String,
        why: String,
    },
    /// The result contradicts the moves.
    Result(String),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Json(e) => write!(f, "malformed replay JSON: {e}"),
            ReplayError::NotAReplay(e) => write!(f, "not an arbiter replay: {e}"),
            ReplayError::UnsupportedVersion { found } => write!(
                f,
                "unsupported replay version {found} (this build reads version {VERSION})"
            ),
            ReplayError::Config(e) => write!(f, "replay has an invalid game: {e}"),
            ReplayError::Players(e) => write!(f, "replay players: {e}"),
            ReplayError::Opening { index, mv, why } => {
                write!(
                    f,
                    "opening move {} ({mv}) cannot be played: {why}",
                    index + 1
                )
            }
            ReplayError::Move {
                number,
                seat,
                mv,
                why,
            } => {
                write!(
                    f,
                    "move {number} ({seat} player, {mv}) cannot be played: {why}"
                )
            }
            ReplayError::Result(e) => write!(f, "replay result contradicts the moves: {e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ReplayError {}

/// One ply, parsed: the move of each of its movers, in seat order (one for most plies).
pub type Ply = Vec<(Seat, AnyMove)>;

/// A replay whose moves were all played through the engine: the start position and every ply.
#[derive(Clone, Debug)]
pub struct Rebuilt {
    /// The position after the opening (frame 0), before any retirement.
    pub start: AnyGame,
    /// Each ply, parsed.
    pub moves: Vec<Ply>,
    /// Seats taken out after they failed: `(ply, seat)`, in the position of frame `ply`.
    pub retired: Vec<(usize, Seat)>,
    /// The final position (the last frame).
    pub end: AnyGame,
}

impl Rebuilt {
    /// Frames are the start position and the position after each move.
    pub fn frame_count(&self) -> usize {
        self.moves.len() + 1
    }

    /// The position of frame `k` (0 = start), replayed from the start; `None` past the end.
    pub fn frame(&self, k: usize) -> Option<AnyGame> {
        if k > self.moves.len() {
            return None;
        }
        let mut g = self.start.clone();
        for i in 0..=k {
            self.step(&mut g, i)?;
        }
        Some(g)
    }

    /// Frame `i` from frame `i - 1` (frame 0 from the start): ply `i`, then the retirements
    /// in its position. Checked once in `Replay::rebuild`, so this cannot fail; stays total.
    pub fn step(&self, g: &mut AnyGame, i: usize) -> Option<()> {
        if i > 0 {
            let ply = self.moves.get(i - 1)?;
            g.play_together(ply).ok()?;
        }
        for (_, seat) in self.retired.iter().filter(|(at, _)| *at == i) {
            g.retire(*seat).then_some(())?;
        }
        Some(())
    }
}

impl Replay {
    /// A fresh replay for a game about to be played.
    pub fn new(game: GameConfig, players: impl Into<Vec<Player>>) -> Replay {
        Replay {
            format: FORMAT.to_string(),
            version: VERSION,
            game,
            opening: Vec::new(),
            players: players.into(),
            moves: Vec::new(),
            retired: Vec::new(),
            result: GameResult::aborted("unfinished".to_string()),
            scores: None,
            meta: Meta::default(),
            failure: None,
            module_wasm: None,
        }
    }

    /// Parses and checks the envelope (format, version, fields). Use [`Replay::rebuild`] to
    /// check the moves and result too, or [`Replay::read`] for both.
    pub fn from_json(text: &str) -> Result<Replay, ReplayError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ReplayError::Json(e.to_string()))?;
        let obj = value
            .as_object()
            .ok_or_else(|| ReplayError::NotAReplay("the document is not a JSON object".into()))?;
        match obj.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(ReplayError::NotAReplay(format!(
                    "format is {other:?}, expected {FORMAT:?}"
                )))
            }
            None => return Err(ReplayError::NotAReplay("no \"format\" field".into())),
        }
        match obj.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == u64::from(VERSION) => {}
            Some(v) => {
                return Err(ReplayError::UnsupportedVersion {
                    found: u32::try_from(v).unwrap_or(u32::MAX),
                })
            }
            None => {
                return Err(ReplayError::Json(
                    "\"version\" must be a whole number".into(),
                ))
            }
        }
        serde_json::from_value(value).map_err(|e| ReplayError::Json(e.to_string()))
    }

    /// Parses, then rebuilds every move through the engine.
    pub fn read(text: &str) -> Result<(Replay, Rebuilt), ReplayError> {
        let replay = Replay::from_json(text)?;
        let rebuilt = replay.rebuild()?;
        Ok((replay, rebuilt))
    }

    pub fn to_json(&self) -> String {
        // Serializing plain data structures to a String cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The frame a viewer should open first: the position in which the failure happened, or
    /// the final position. (A failure adds no frame, so both are the last frame.)
    pub fn decisive_frame(&self) -> usize {
        self.moves.len()
    }

    /// The position after the opening.
    pub fn start_position(&self) -> Result<AnyGame, ReplayError> {
        self.start_position_with(None)
    }

    /// The position after the opening, a module game run by `host` (else the installed one).
    pub fn start_position_with(
        &self,
        host: Option<&dyn crate::module::ModuleHost>,
    ) -> Result<AnyGame, ReplayError> {
        let mut g = AnyGame::open(&self.game, host).map_err(|e| ReplayError::Config(e.message))?;
        for (index, mv) in self.opening.iter().enumerate() {
            g.play_text(mv).map_err(|e| ReplayError::Opening {
                index,
                mv: mv.clone(),
                why: e.to_string(),
            })?;
        }
        Ok(g)
    }

    /// Plays every move through the engine and checks the result against the final position.
    pub fn rebuild(&self) -> Result<Rebuilt, ReplayError> {
        self.rebuild_with(None)
    }

    /// [`Replay::rebuild`], a module game run by `host` (else the installed one).
    pub fn rebuild_with(
        &self,
        host: Option<&dyn crate::module::ModuleHost>,
    ) -> Result<Rebuilt, ReplayError> {
        let start = self.start_position_with(host)?;
        self.check_players(start.seats())?;
        let mut g = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut retired = Vec::new();
        self.retire_at(&mut g, 0, &mut retired)?;
        for (i, rec) in self.moves.iter().enumerate() {
            moves.push(Replay::play_record(&mut g, i, rec)?);
            self.retire_at(&mut g, i + 1, &mut retired)?;
        }
        self.check_retired_end()?;
        self.check_result(&g)?;
        Ok(Rebuilt {
            start,
            moves,
            retired,
            end: g,
        })
    }

    /// Plays move record `index` (0-based) in `g` as [`Replay::rebuild`] checks each one: its
    /// movers must be the turn's and each move legal; a simultaneous ply is played whole. A
    /// reader that checks a long replay a slice at a time (the web player) plays its records
    /// through this, calling [`Replay::retire_at`] with 0 before the first and with `index + 1`
    /// after each, then [`Replay::check_retired_end`], [`Replay::check_players`] and
    /// [`Replay::check_result`] as `rebuild` does.
    pub fn play_record(
        g: &mut AnyGame,
        index: usize,
        rec: &MoveRecord,
    ) -> Result<Ply, ReplayError> {
        play_ply(g, index + 1, rec)
    }

    /// No seat is written as retiring after a ply past the last one.
    pub fn check_retired_end(&self) -> Result<(), ReplayError> {
        match self.retired.iter().find(|r| r.ply > self.moves.len()) {
            Some(late) => Err(ReplayError::Result(format!(
                "a seat retired after ply {}, past the last ply",
                late.ply
            ))),
            None => Ok(()),
        }
    }

    /// Takes out the seats retired in the position of frame `ply`, as the rules do, adding
    /// `(ply, seat)` to `out` (the seats retired so far, checked against twice).
    pub fn retire_at(
        &self,
        g: &mut AnyGame,
        ply: usize,
        out: &mut Vec<(usize, Seat)>,
    ) -> Result<(), ReplayError> {
        for r in self.retired.iter().filter(|r| r.ply == ply) {
            let bad = |m: String| ReplayError::Result(m);
            let Some(seat) = r.reason.culprit() else {
                return Err(bad(format!("a retirement after ply {ply} names no seat")));
            };
            if out.iter().any(|(_, s)| *s == seat) {
                return Err(bad(format!("the {seat} seat retired twice")));
            }
            if g.turn().is_over() || !g.retire(seat) {
                return Err(bad(format!(
                    "the {seat} seat retired after ply {ply}, but the rules do not let the \
                     game go on without it"
                )));
            }
            out.push((ply, seat));
        }
        Ok(())
    }

    /// The players list has one player per seat, in seat order.
    pub fn check_players(&self, seats: usize) -> Result<(), ReplayError> {
        if self.players.len() != seats {
            return Err(ReplayError::Players(format!(
                "expected {seats} players, one per seat, found {}",
                self.players.len()
            )));
        }
        if let Some((i, _)) = self
            .players
            .iter()
            .enumerate()
            .find(|(i, p)| p.seat.index() != *i)
        {
            return Err(ReplayError::Players(format!(
                "list the seats in order: player {} is not seat {i}",
                i + 1
            )));
        }
        Ok(())
    }

    /// The result agrees with `end`, the position after every move.
    pub fn check_result(&self, end: &AnyGame) -> Result<(), ReplayError> {
        let bad = |m: String| Err(ReplayError::Result(m));
        let r = &self.result;
        let seats = end.seats();
        if let Some(p) = &r.places {
            if seats <= 2 {
                return bad("places are written only for games of three or more seats".into());
            }
            if p.len() != seats {
                return bad(format!("{} places for {seats} seats", p.len()));
            }
            if r.winner != crate::module::winner_of(p) {
                return bad(format!(
                    "the result names winner {}, but its places give {}",
                    seat_name(r.winner),
                    seat_name(crate::module::winner_of(p))
                ));
            }
        }
        let end_places = end.places();
        match (&r.reason, &end_places) {
            (Reason::Normal, None) => {
                return bad("the result says the game ended normally, but it is not over".into())
            }
            (Reason::Normal, Some(places)) => {
                let given = r.places(seats).unwrap_or_default();
                if &given != places {
                    return bad(format!(
                        "the result gives places {given:?} (winner {}), but the final position \
                         gives {places:?}",
                        seat_name(r.winner)
                    ));
                }
            }
            (Reason::Aborted { .. }, _) => {}
            (reason, Some(_)) => {
                return bad(format!(
                    "the moves end the game by its rules, but the result says {}",
                    reason.code()
                ))
            }
            (reason, None) => self.check_failure(end, reason)?,
        }
        if let (Reason::Normal, Some(scores)) = (&r.reason, &self.scores) {
            if *scores != end.scores() {
                return bad(format!(
                    "scores {:?} differ from the final position's {:?}",
                    scores,
                    end.scores()
                ));
            }
        }
        Ok(())
    }

    /// A failure that ended the game: the culprit could fail here (its move was illegal, it
    /// was a mover), and lost as the rules of failures say.
    fn check_failure(&self, end: &AnyGame, reason: &Reason) -> Result<(), ReplayError> {
        let bad = |m: String| Err(ReplayError::Result(m));
        if let Reason::IllegalMove { seat, mv, .. } = reason {
            if !end.turn().movers().contains(*seat) {
                return bad(format!(
                    "an illegal move by the {seat} player, but it was not their turn"
                ));
            }
            let mut probe = end.clone();
            let legal = match probe.turn() {
                Turn::Seat(_) => probe.play_text(mv).is_ok(),
                _ => probe
                    .parse_move(mv)
                    .is_ok_and(|m| probe.legal_moves_of(*seat).contains(&m)),
            };
            if legal {
                return bad(format!(
                    "the result calls {mv} illegal, but the rules allow it"
                ));
            }
        }
        let Some(culprit) = reason.culprit() else {
            return Ok(());
        };
        let want = GameResult::failed(reason.clone(), &end.scores());
        if self.result.places(end.seats()) != want.places(end.seats()) {
            return bad(format!(
                "the {culprit} player is at fault ({}), so {}",
                reason.code(),
                match end.seats() {
                    2 => format!("the {} player must win", culprit.other()),
                    _ => format!(
                        "it must be last and the others placed by their scores: {:?}",
                        want.places(end.seats()).unwrap_or_default()
                    ),
                }
            ));
        }
        Ok(())
    }
}

/// Plays ply `number` (1-based) of a replay: its movers must be the turn's, each move legal.
fn play_ply(g: &mut AnyGame, number: usize, rec: &MoveRecord) -> Result<Ply, ReplayError> {
    let err = |r: &MoveRecord, why: String| ReplayError::Move {
        number,
        seat: r.seat,
        mv: r.mv.clone(),
        why,
    };
    let movers = g.turn().movers();
    if movers.is_empty() {
        return Err(err(rec, "the game was already over".into()));
    }
    let seats: crate::game::SeatSet = rec.records().map(|r| r.seat).collect();
    if seats != movers || seats.len() != rec.records().count() {
        let who = match g.turn() {
            Turn::Seat(s) => format!("it was the {s} player's turn"),
            _ => format!("the movers of this turn are {movers:?}"),
        };
        return Err(err(rec, who));
    }
    let mut ply = Vec::with_capacity(seats.len());
    for r in rec.records() {
        let mv = g.parse_move(&r.mv).map_err(|e| err(r, e.to_string()))?;
        ply.push((r.seat, mv));
    }
    ply.sort_by_key(|(s, _)| *s);
    g.play_together(&ply).map_err(|(s, e)| {
        let r = rec.records().find(|r| r.seat == s).unwrap_or(rec);
        err(r, e.to_string())
    })?;
    Ok(ply)
}

fn seat_name(s: Option<Seat>) -> Box<str> {
    match s {
        Some(s) => format!("the {s} player").into_boxed_str(),
        None => "a draw".into(),
    }
}
