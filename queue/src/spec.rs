//! What jobs carry: a competition's game and limits, a game to play (two bots and an opening),
//! a submission to compile, and the summaries a worker commits with its payload.

use std::path::PathBuf;

use arbiter_engine::any::GameConfig;
use arbiter_engine::replay::Replay;
use arbiter_match::game::LimitOverrides;
use arbiter_match::protocol::ProtocolKind;
use serde::{Deserialize, Serialize};

/// What every game of a competition shares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompetitionConfig {
    pub game: GameConfig,
    #[serde(default)]
    pub limits: LimitOverrides,
}

/// One game to play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameJob {
    /// One bot per seat of the game, seat 0 (moves first) first.
    pub bots: Vec<JobBot>,
    /// Moves from the initial position before the bots take over.
    #[serde(default)]
    pub opening: Vec<String>,
    /// This game's configuration when it differs from the competition's (the 2048 duel's
    /// random sequence changes from pair to pair).
    #[serde(default)]
    pub game: Option<GameConfig>,
    /// Shown in the replay (`meta.event`).
    #[serde(default)]
    pub event: Option<String>,
    /// The game's seed (`ARBITER_SEED`, `meta.seed`): a tournament's, so that a game played on
    /// a worker is the game played on one machine. Default: drawn from the job's id.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A bot as a worker on any machine can start it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobBot {
    pub name: String,
    pub protocol: ProtocolKind,
    pub run: Run,
}

/// How to start a bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Run {
    /// A file stored by hash ([`crate::artefacts`]); `command` is a command line in which
    /// `{file}` stands for its path on the worker (`{file}`, `python3 {file}`).
    Artefact { hash: String, command: String },
    /// A command line on the worker's own machine: for single-machine tournaments only.
    Command {
        command: String,
        #[serde(default)]
        dir: Option<PathBuf>,
    },
    /// arbiter's own sparring bot: `builtin`, `builtin:random`, `builtin:N`.
    Builtin { spec: String },
    /// A seat a person plays in the browser, through the live hub of the worker that takes
    /// the game ([`crate::worker::Followed::remote`]); no process is run for it.
    Person,
}

/// A source file to turn into a runnable artefact.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompileJob {
    /// The language's key in the competition's configuration (`c`, `cpp`, `python`).
    pub language: String,
    /// The source, stored as an artefact.
    pub source: String,
    /// The source's file name when compiled (`main.c`): chosen by the server, never the
    /// uploader's name.
    pub file_name: String,
    /// Command line; `{src}` is the source's path, `{out}` where the program must be written.
    /// With `source_is_program` it only checks the source (may be empty).
    pub compile: String,
    /// The program is the source itself (Python): the compile command only checks it.
    #[serde(default)]
    pub source_is_program: bool,
    /// Command line that runs the result; `{file}` is the artefact's path.
    pub run: String,
    pub time_limit_ms: u64,
    pub memory_mb: u64,
}

/// What a compile job commits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompileOutcome {
    pub ok: bool,
    /// The runnable artefact's hash when `ok`.
    #[serde(default)]
    pub artefact: Option<String>,
    /// How to run it (the job's `run`).
    pub run: String,
    /// What the compiler printed (bounded), or why it could not run.
    pub log: String,
    pub millis: u64,
}

/// What a game job commits beside its replay: enough for standings, statistics and worker
/// health without unpacking replays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameOutcome {
    /// The seat alone in first place, `None` for a draw or no result.
    pub winner: Option<u8>,
    /// Each seat's place (1 first), in a game of three or more seats with a result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub places: Option<Vec<u32>>,
    /// The reason's code (`normal`, `move_time` ...).
    pub reason: String,
    /// The verdict as a student reads it.
    pub verdict: String,
    /// The seat at fault, if any.
    pub culprit: Option<u8>,
    pub moves: u32,
    #[serde(default)]
    pub scores: Option<Vec<i64>>,
    /// Thinking time and moves per seat.
    pub think_ms: Vec<f64>,
    pub moves_by: Vec<u32>,
    /// Wall time of the whole game, start-up and clean-up included.
    pub wall_ms: f64,
    /// Containment warnings of this game, if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl GameOutcome {
    pub fn of(replay: &Replay, wall_ms: f64, warnings: Vec<String>) -> GameOutcome {
        let seats = replay.players.len();
        let mut think_ms = vec![0.0; seats];
        let mut moves_by = vec![0u32; seats];
        for m in replay.moves.iter().flat_map(|m| m.records()) {
            let i = m.seat.index();
            if let (Some(t), true) = (m.time_ms, i < seats) {
                think_ms[i] += t;
                moves_by[i] += 1;
            }
        }
        GameOutcome {
            winner: replay.result.winner.map(|s| s.index() as u8),
            places: replay.result.places.clone(),
            reason: replay.result.reason.code().to_string(),
            verdict: replay.result.reason.to_string(),
            culprit: replay.result.reason.culprit().map(|s| s.index() as u8),
            moves: replay.moves.len() as u32,
            scores: replay.scores.clone(),
            think_ms,
            moves_by,
            wall_ms,
            warnings,
        }
    }
}
