//! A loaded replay and cheap access to any of its frames: positions are kept every
//! [`CHECKPOINT_EVERY`] frames so that seeking replays at most that many moves.

use crate::lang::ta;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use arbiter_i18n::verdict;

use arbiter_engine::any::{AnyGame, AnyMove, GAME_NAMES};
use arbiter_engine::replay::{Reason, Replay, ReplayError};
use arbiter_engine::{EndReason, Game};
use serde::Serialize;

use crate::failure::{self, FailureInfo};
use crate::view::{self, FrameView};

/// A checkpoint every this many frames: seeking costs at most this many engine moves.
pub const CHECKPOINT_EVERY: usize = 16;

/// Why a document cannot be shown, sorted into the kinds a site may want to tell apart.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct LoadError {
    /// `malformed_json`, `not_a_replay`, `unknown_game`, `wrong_version`, `illegal_move`,
    /// `invalid_replay`, `module` (a game module missing, refused or failed).
    pub kind: &'static str,
    /// The whole sentence shown to people.
    pub message: String,
    /// For `illegal_move`: the 1-based move number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_number: Option<usize>,
}

/// One replay, read strictly and rebuilt through the engine.
pub struct Session {
    replay: Replay,
    moves: Vec<AnyMove>,
    /// Position of frame `i * CHECKPOINT_EVERY`.
    checkpoints: Vec<AnyGame>,
    /// A failure verdict, shown on the last frame.
    failure: Option<FailureInfo>,
}

/// Whatever does not change from frame to frame: players, moves, result.
#[derive(Serialize)]
pub struct Info {
    pub game: &'static str,
    /// `reversi 16x16`, `gomoku 15x15 renju`, `duel2048 500 rounds`.
    pub title: String,
    pub size: u8,
    pub rule: Option<&'static str>,
    pub frames: usize,
    /// Seat labels: `Black`/`White`, `First (+)`/`Second (-)`.
    pub seats: [&'static str; 2],
    pub players: [String; 2],
    /// The moves played before the players' first (frame 0 shows their position).
    pub opening: Vec<String>,
    pub moves: Vec<MoveInfo>,
    /// Thinking time per seat, milliseconds (moves without a time count as 0).
    pub total_ms: [f64; 2],
    /// 0, 1 or null.
    pub winner: Option<u8>,
    /// `White wins` or `Draw`.
    pub result_head: String,
    /// `Black ran out of its move clock: 1.06 s used of 1 s (move 57)` or `no moves left,
    /// discs 40 to 24`.
    pub result_text: String,
    /// A failure verdict: the words and the log panel's text of the last frame.
    pub failure: Option<FailureInfo>,
    /// The last frame's status line already states the result (a game over by its rules,
    /// or a failure verdict): the result box then stays hidden there, so that the result is
    /// said once.
    pub result_in_status: bool,
}

#[derive(Serialize)]
pub struct MoveInfo {
    pub seat: u8,
    /// As the replay writes it.
    #[serde(rename = "move")]
    pub mv: String,
    /// Reversi: the protocol's `ROW COL`; otherwise the same as `move`.
    pub alt: String,
    pub time_ms: Option<f64>,
    pub cpu_ms: Option<f64>,
    pub log: Option<String>,
}

impl Session {
    /// Reads a replay strictly (the engine's `Replay::read`) and keeps checkpoints.
    pub fn load(text: &str) -> Result<Session, LoadError> {
        let replay = Replay::from_json(text).map_err(|e| classify(text, e))?;
        Session::from_replay(replay)
    }

    /// Rebuilds a replay already read (a live game's, gathered from its contents).
    pub fn from_replay(replay: Replay) -> Result<Session, LoadError> {
        let rebuilt = replay
            .rebuild()
            .map_err(|e| module_failure(&replay).unwrap_or_else(|| classify("", e)))?;
        let mut checkpoints = Vec::with_capacity(rebuilt.moves.len() / CHECKPOINT_EVERY + 1);
        let mut g = rebuilt.start.clone();
        for (i, &mv) in rebuilt.moves.iter().enumerate() {
            if i % CHECKPOINT_EVERY == 0 {
                checkpoints.push(g.clone());
            }
            // Checked by `Replay::read`; stay total anyway.
            g.play(mv).map_err(|e| LoadError {
                kind: "illegal_move",
                message: format!("move {} cannot be played: {e}", i + 1),
                move_number: Some(i + 1),
            })?;
        }
        if rebuilt.moves.len() % CHECKPOINT_EVERY == 0 {
            checkpoints.push(g.clone());
        }
        let failure = failure::read(&replay, &g, view::seat_labels(replay.game.name()));
        Ok(Session {
            replay,
            moves: rebuilt.moves,
            checkpoints,
            failure,
        })
    }

    pub fn frame_count(&self) -> usize {
        self.moves.len() + 1
    }

    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// The position of frame `k`, from the nearest checkpoint at or before it.
    pub fn position(&self, k: usize) -> Option<AnyGame> {
        if k > self.moves.len() {
            return None;
        }
        let base = k / CHECKPOINT_EVERY;
        let mut g = self.checkpoints.get(base)?.clone();
        for &mv in self.moves.get(base * CHECKPOINT_EVERY..k)? {
            g.play(mv).ok()?;
        }
        Some(g)
    }

    /// Everything drawn for frame `k`; `None` out of range.
    pub fn frame(&self, k: usize) -> Option<FrameView> {
        let (mut v, after) = if k == 0 {
            let g = self.position(0)?;
            (view::frame_view(0, None, &g), g)
        } else {
            let before = self.position(k - 1)?;
            let mv = *self.moves.get(k - 1)?;
            let mut after = before.clone();
            after.play(mv).ok()?;
            (view::frame_view(k, Some((&before, mv)), &after), after)
        };
        if let (Some(f), true) = (&self.failure, k == self.moves.len()) {
            v.status = f.verdict.clone();
            v.failure = Some(f.mark.clone());
            v.description = view::describe(&v, &after);
            if let Some(a) = &f.mark.attempt {
                v.description
                    .push_str(&format!(" Attempted move, not played: {a}."));
            }
        }
        Some(v)
    }

    /// Why the game's module can no longer be trusted, once it failed (after a trap in a
    /// frame's view, say): the player then shows this instead of the board.
    pub fn fault(&self) -> Option<String> {
        self.checkpoints.first().and_then(AnyGame::fault)
    }

    /// The failure verdict, if the game ended by one.
    pub fn failure(&self) -> Option<&FailureInfo> {
        self.failure.as_ref()
    }

    pub fn info(&self) -> Info {
        let r = &self.replay;
        let start = self.position(0);
        let (size, rule) = match &start {
            Some(AnyGame::Reversi(g)) => (g.size(), None),
            Some(AnyGame::Gomoku(g)) => (g.size(), Some(rule_name(g.rule()))),
            _ => (0, None),
        };
        let title = match &start {
            Some(AnyGame::Reversi(g)) => format!("Reversi {0}×{0}", g.size()),
            Some(AnyGame::Gomoku(g)) => {
                format!("Gomoku {0}×{0}, {1}", g.size(), rule_name(g.rule()))
            }
            Some(AnyGame::Duel2048(g)) => format!("2048 duel, {} rounds", g.config().rounds),
            Some(AnyGame::Module(_)) | None => r.game.to_string(),
        };
        let seats = view::seat_labels(r.game.name());
        let players = [0, 1].map(|i| r.players.get(i).map(|p| p.name.clone()).unwrap_or_default());
        let mut total_ms = [0.0f64; 2];
        let moves = r
            .moves
            .iter()
            .map(|m| {
                total_ms[m.seat.index()] += m.time_ms.unwrap_or(0.0);
                MoveInfo {
                    seat: m.seat as u8,
                    mv: m.mv.clone(),
                    alt: alt_notation(&start, &m.mv),
                    time_ms: m.time_ms,
                    cpu_ms: m.cpu_ms,
                    log: m.log.clone(),
                }
            })
            .collect();
        let winner = r.result.winner.map(|s| s as u8);
        let result_head = match r.result.winner {
            Some(s) => ta("player-wins", &[("who", seats[s.index()].into())]),
            None => crate::lang::t("player-draw"),
        };
        let at = (r.moves.len() + 1) as u64;
        let result_text = match (&r.result.reason, r.result.reason.culprit()) {
            (Reason::Normal, _) => {
                let end = self.position(self.moves.len());
                match (end.as_ref().and_then(AnyGame::outcome), &r.meta.ending) {
                    // A module game ends in the module's own words.
                    (Some(o), ending) if o.reason == EndReason::Module => end
                        .and_then(|g| g.end_words())
                        .or_else(|| ending.clone())
                        .unwrap_or_default(),
                    (Some(o), _) => end_reason_text(&o.reason),
                    (None, _) => crate::lang::t("player-normal-end"),
                }
            }
            (_, Some(_)) if self.failure.is_some() => self
                .failure
                .as_ref()
                .map(|f| {
                    let text = f.mark.caption.as_str();
                    ta("player-at-move", &[("text", text.into()), ("n", at.into())])
                })
                .unwrap_or_default(),
            (reason, Some(culprit)) => ta(
                "player-culprit-at",
                &[
                    ("who", seats[culprit.index()].into()),
                    ("reason", verdict::reason(crate::lang::get(), reason).into()),
                    ("n", at.into()),
                ],
            ),
            (reason, None) => verdict::reason(crate::lang::get(), reason),
        };
        Info {
            game: r.game.name(),
            title,
            size,
            rule,
            frames: self.frame_count(),
            seats,
            players,
            opening: r.opening.clone(),
            moves,
            total_ms,
            winner,
            result_head,
            result_text,
            failure: self.failure.clone(),
            result_in_status: self.failure.is_some()
                || self
                    .position(self.moves.len())
                    .is_some_and(|g| g.outcome().is_some()),
        }
    }
}

fn rule_name(rule: arbiter_engine::gomoku::Rule) -> &'static str {
    rule.name()
}

/// Reversi moves also in the protocol's 0-based `ROW COL`.
fn alt_notation(start: &Option<AnyGame>, mv: &str) -> String {
    if let Some(AnyGame::Reversi(g)) = start {
        if let Ok(AnyMove::Reversi(arbiter_engine::reversi::Move::Place { row, col })) =
            AnyGame::Reversi(g.clone()).parse_move(mv)
        {
            return format!("{row} {col}");
        }
    }
    mv.to_string()
}

/// Words for how a game ended by its rules (as `arbiter replay show` says it).
pub fn end_reason_text(r: &EndReason) -> String {
    match r {
        EndReason::NoMoves { discs } => ta(
            "end-no-moves",
            &[("first", discs[0].into()), ("second", discs[1].into())],
        ),
        EndReason::Five => crate::lang::t("end-five"),
        EndReason::BoardFull => crate::lang::t("end-board-full"),
        EndReason::Levels {
            level: Some(l),
            counts,
        } => ta(
            "end-decided",
            &[
                ("tile", tile_value(*l).into()),
                ("first", counts[0].into()),
                ("second", counts[1].into()),
            ],
        ),
        EndReason::Levels { level: None, .. } => crate::lang::t("end-equal"),
        // The module's words come from the position (`AnyGame::end_words`).
        EndReason::Module => String::new(),
    }
}

/// A 2048-duel tile's number: `64` for level 6.
pub fn tile_value(level: u8) -> String {
    if level < 40 {
        format!("{}", 1u64 << level)
    } else {
        format!("2^{level}")
    }
}

/// A module game that cannot be rebuilt because its module is missing or failed: the
/// module's own sentence, rather than a move called illegal.
fn module_failure(replay: &Replay) -> Option<LoadError> {
    replay.game.as_module()?;
    let message = match replay.start_position() {
        Err(ReplayError::Config(m)) => m,
        Err(_) => return None,
        Ok(g) => g.fault()?,
    };
    Some(LoadError {
        kind: "module",
        message,
        move_number: None,
    })
}

/// Sorts the engine's error into the kinds the protocol's `error` message names.
fn classify(text: &str, e: ReplayError) -> LoadError {
    let message = e.to_string();
    let (kind, move_number) = match &e {
        ReplayError::Json(_) => {
            if let Some(name) = unknown_game_name(text) {
                return LoadError {
                    kind: "unknown_game",
                    message: format!(
                        "unknown game {name:?}: this player shows {}",
                        GAME_NAMES.join(", ")
                    ),
                    move_number: None,
                };
            }
            ("malformed_json", None)
        }
        ReplayError::NotAReplay(_) => ("not_a_replay", None),
        ReplayError::UnsupportedVersion { .. } => ("wrong_version", None),
        ReplayError::Move { number, .. } => ("illegal_move", Some(*number)),
        ReplayError::Opening { index, .. } => ("illegal_move", Some(index + 1)),
        _ => ("invalid_replay", None),
    };
    LoadError {
        kind,
        message,
        move_number,
    }
}

/// The `game.name` of a well-formed document naming a game this build does not know.
fn unknown_game_name(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let name = v.get("game")?.get("name")?.as_str()?;
    if GAME_NAMES.contains(&name) {
        None
    } else {
        Some(name.to_string())
    }
}
