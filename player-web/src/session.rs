//! A loaded replay and cheap access to any of its frames: positions are kept every
//! [`CHECKPOINT_EVERY`] frames so that seeking replays at most that many moves.

use crate::lang::ta;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use arbiter_i18n::verdict;

use arbiter_engine::any::{AnyGame, AnyMove, GAME_NAMES};
use arbiter_engine::replay::{Failure, GameResult, MoveRecord, Ply, Reason, Replay, ReplayError};
use arbiter_engine::{EndReason, Game, Seat, Viewer};
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

/// The most moves a replay shown may have (a module game's format sets none): a million plies
/// read, checked and kept take about 150 MB of the page's memory, and the player stays
/// responsive while it does (`Session::advance`).
pub const MAX_MOVES: usize = 2_000_000;

/// One replay, read strictly and rebuilt through the engine, its moves a slice at a time
/// ([`Session::advance`]): frames up to the moves checked so far can be shown meanwhile.
pub struct Session {
    replay: Replay,
    /// The moves not read yet: the replay's text and where each of its moves lies (their
    /// records join `replay.moves` as they are read).
    pending: Option<(String, Vec<(u32, u32)>)>,
    /// Moves in the replay.
    total: usize,
    /// The plies checked so far (a simultaneous turn's holds each mover's move).
    moves: Vec<Ply>,
    /// The seats taken out so far: `(ply, seat)`, gone from frame `ply` on.
    retired: Vec<(usize, Seat)>,
    /// Position of frame `i * CHECKPOINT_EVERY`.
    checkpoints: Vec<AnyGame>,
    /// The position of the newest frame checked: after its ply and the retirements there.
    head: AnyGame,
    /// Every move is checked, and the result against the last position.
    done: bool,
    /// A live game in progress: moves may still come ([`Session::push`]), and the result is
    /// checked at its end ([`Session::end`]).
    open: bool,
    /// A failure verdict, shown on the last frame.
    failure: Option<FailureInfo>,
    /// Whose view a module game's frames show: everything, or one seat's.
    viewer: Viewer,
}

/// Whatever does not change from frame to frame: players, times, result (the result and the
/// times once every move is checked).
pub struct Info {
    pub game: &'static str,
    /// `reversi 16x16`, `gomoku 15x15 renju`, `duel2048 500 rounds`.
    pub title: String,
    pub size: u8,
    pub frames: usize,
    /// Seat labels: `Black`/`White`, `First (+)`/`Second (-)`, `#1`.. `#N` (one per seat).
    pub seats: Vec<String>,
    /// One name per seat.
    pub players: Vec<String>,
    /// The moves played before the players' first (frame 0 shows their position).
    pub opening: Vec<String>,
    /// Thinking time per seat, milliseconds (moves without a time count as 0).
    pub total_ms: Vec<f64>,
    /// The seats taken out of the game and the frame from which each is gone.
    pub retired: Vec<(usize, Seat)>,
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

impl Session {
    /// Reads a replay strictly (as the engine's `Replay::read` does) and checks every move.
    pub fn load(text: &str) -> Result<Session, LoadError> {
        let mut s = Session::open(String::from(text), crate::split::split(text))?;
        s.advance(usize::MAX)?;
        Ok(s)
    }

    /// A replay whose moves are read and checked later by [`Session::advance`]: `parts` is
    /// the text split by [`crate::split`]; without them the text is read whole now.
    pub fn open(text: String, parts: Option<crate::split::Parts>) -> Result<Session, LoadError> {
        let whole = |text: &str| Replay::from_json(text).map_err(|e| classify(text, e));
        let Some(parts) = parts else {
            return Session::start(whole(&text)?, None);
        };
        // Its `moves` is `[]` (the split found one `moves` key, and no key with escapes).
        Session::start(whole(&parts.envelope)?, Some((text, parts.spans)))
    }

    /// Rebuilds a replay already read (a live game's, gathered from its contents).
    pub fn from_replay(replay: Replay) -> Result<Session, LoadError> {
        let mut s = Session::start(replay, None)?;
        s.advance(usize::MAX)?;
        Ok(s)
    }

    fn start(
        replay: Replay,
        pending: Option<(String, Vec<(u32, u32)>)>,
    ) -> Result<Session, LoadError> {
        let total = pending.as_ref().map_or(replay.moves.len(), |p| p.1.len());
        if total > MAX_MOVES {
            return Err(LoadError {
                kind: "too_large",
                message: ta(
                    "player-too-many-moves",
                    &[("n", total.into()), ("max", MAX_MOVES.into())],
                ),
                move_number: None,
            });
        }
        let rebuild_error =
            |replay: &Replay, e| module_failure(replay).unwrap_or_else(|| classify("", e));
        let mut replay = replay;
        // Room for every move at once: a long replay's vectors doubled would copy tens of MB.
        replay.moves.reserve_exact(total - replay.moves.len());
        let mut head = replay
            .start_position()
            .map_err(|e| rebuild_error(&replay, e))?;
        replay
            .check_players(head.seats())
            .map_err(|e| rebuild_error(&replay, e))?;
        // Frame 0 shows the seats retired before the first ply gone, as `Rebuilt::step` does.
        let mut retired = Vec::new();
        replay
            .retire_at(&mut head, 0, &mut retired)
            .map_err(|e| classify("", e))?;
        Ok(Session {
            replay,
            pending,
            total,
            moves: Vec::with_capacity(total),
            retired,
            checkpoints: Vec::with_capacity(total / CHECKPOINT_EVERY + 1),
            head,
            done: false,
            open: false,
            failure: None,
            viewer: Viewer::All,
        })
    }

    /// A live game from its start (docs/live.md): its moves come one by one.
    pub fn live(replay: Replay) -> Result<Session, LoadError> {
        let mut s = Session::start(replay, None)?;
        s.open = true;
        s.advance(usize::MAX)?;
        Ok(s)
    }

    /// A live game's next move, checked; refused (the session unchanged) when it cannot be
    /// played.
    pub fn push(&mut self, record: MoveRecord) -> Result<(), LoadError> {
        if !self.open {
            return Ok(());
        }
        self.replay.moves.push(record);
        self.total += 1;
        let checked = self.advance(1);
        if checked.is_err() {
            self.replay.moves.pop();
            self.total -= 1;
        }
        checked.map(drop)
    }

    /// A live game's end: its result, checked against the last position as a saved replay's.
    pub fn end(
        &mut self,
        result: GameResult,
        scores: Option<Vec<i64>>,
        failure: Option<Failure>,
    ) -> Result<(), LoadError> {
        (self.replay.result, self.replay.scores, self.replay.failure) = (result, scores, failure);
        self.open = false;
        self.advance(usize::MAX).map(drop)
    }

    /// A live game whose moves may still come.
    pub fn is_live(&self) -> bool {
        self.open
    }

    /// Reads and checks up to `n` more moves, then, after the last, the result; true once
    /// every move is checked.
    pub fn advance(&mut self, n: usize) -> Result<bool, LoadError> {
        for _ in 0..n {
            if self.done {
                break;
            }
            let i = self.moves.len();
            self.checkpoint();
            if i == self.total {
                return match self.open {
                    true => Ok(false),
                    false => self.finish().map(|()| true),
                };
            }
            if let Some((text, spans)) = &self.pending {
                let record = read_move(text, spans[i], i + 1)?;
                self.replay.moves.push(record);
            }
            // A live game's move is refused whole: played on a copy, kept once it passes.
            let mut next = self.open.then(|| self.head.clone());
            let g = next.as_mut().unwrap_or(&mut self.head);
            let retired = self.retired.len();
            let played = Replay::play_record(g, i, &self.replay.moves[i]).and_then(|ply| {
                let after = self.replay.retire_at(g, i + 1, &mut self.retired);
                after.map(|()| ply)
            });
            let ply = played.map_err(|e| {
                self.retired.truncate(retired);
                module_failure(&self.replay).unwrap_or_else(|| classify("", e))
            })?;
            if let Some(g) = next {
                self.head = g;
            }
            self.moves.push(ply);
            // At once, not at the next move's turn: a live game's newest frame may be one.
            self.checkpoint();
        }
        Ok(self.done)
    }

    /// The head's position kept when its frame is a checkpoint's, once each.
    fn checkpoint(&mut self) {
        let i = self.moves.len();
        if i % CHECKPOINT_EVERY == 0 && self.checkpoints.len() == i / CHECKPOINT_EVERY {
            self.checkpoints.push(self.head.clone());
        }
    }

    fn finish(&mut self) -> Result<(), LoadError> {
        self.replay
            .check_retired_end()
            .and_then(|()| self.replay.check_result(&self.head))
            .map_err(|e| classify("", e))?;
        let seats = view::seat_labels(self.replay.game.name(), self.head.seats());
        self.failure = failure::read(&self.replay, &self.head, &seats);
        self.pending = None;
        self.done = true;
        Ok(())
    }

    /// Shows the frames as `viewer` sees them (a module's view for that viewer).
    pub fn set_viewer(&mut self, viewer: Viewer) {
        self.viewer = viewer;
    }

    /// Every move is checked.
    pub fn done(&self) -> bool {
        self.done
    }

    /// The frames that can be shown so far: the start and each move checked.
    pub fn checked(&self) -> usize {
        self.moves.len() + 1
    }

    pub fn frame_count(&self) -> usize {
        self.total + 1
    }

    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// The record of move `i` (0-based), once read.
    pub fn record(&self, i: usize) -> Option<&MoveRecord> {
        self.replay.moves.get(i)
    }

    /// A Reversi move in the protocol's 0-based `ROW COL` too (`None` in other games).
    pub fn alt(&self, mv: &str) -> Option<String> {
        let start = self
            .checkpoints
            .first()
            .filter(|g| matches!(g, AnyGame::Reversi(_)))?;
        match start.parse_move(mv) {
            Ok(AnyMove::Reversi(arbiter_engine::reversi::Move::Place { row, col })) => {
                Some(format!("{row} {col}"))
            }
            _ => None,
        }
    }

    /// The position of frame `k`, from the nearest checkpoint at or before it; `None` past
    /// the moves checked.
    pub fn position(&self, k: usize) -> Option<AnyGame> {
        if k > self.moves.len() {
            return None;
        }
        let base = k / CHECKPOINT_EVERY;
        let mut g = self.checkpoints.get(base)?.clone();
        for i in base * CHECKPOINT_EVERY + 1..=k {
            self.step(&mut g, i)?;
        }
        Some(g)
    }

    /// Frame `i` from frame `i - 1`: ply `i`, then the retirements in its position (as
    /// `Rebuilt::step`). Checked as the plies were, so this cannot fail; stays total.
    fn step(&self, g: &mut AnyGame, i: usize) -> Option<()> {
        let ply = self.moves.get(i.checked_sub(1)?)?;
        g.play_together(ply).ok()?;
        for (_, seat) in self.retired.iter().filter(|(at, _)| *at == i) {
            g.retire(*seat).then_some(())?;
        }
        Some(())
    }

    /// Everything drawn for frame `k`; `None` out of range or not checked yet.
    pub fn frame(&self, k: usize) -> Option<FrameView> {
        let (mut v, after) = if k == 0 {
            let g = self.position(0)?;
            (view::frame_view_as(0, None, &g, self.viewer), g)
        } else {
            let before = self.position(k - 1)?;
            let ply = self.moves.get(k - 1)?;
            let mut after = before.clone();
            self.step(&mut after, k)?;
            let last = Some((&before, ply.first()?.1));
            let mut v = view::frame_view_as(k, last, &after, self.viewer);
            if ply.len() > 1 {
                // A simultaneous turn: every mover's move, lowest seat first.
                let texts: Vec<String> = ply.iter().map(|(_, m)| before.format_move(*m)).collect();
                v.last_text = Some(texts.join(" "));
            }
            (v, after)
        };
        if let (Some(f), true) = (&self.failure, k == self.total) {
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
        let title = match &start {
            Some(AnyGame::Reversi(g)) => format!("Reversi {0}×{0}", g.size()),
            Some(AnyGame::Gomoku(g)) => {
                format!("Gomoku {0}×{0}, {1}", g.size(), g.rule().name())
            }
            Some(AnyGame::Duel2048(g)) => format!("2048 duel, {} rounds", g.config().rounds),
            Some(AnyGame::Module(_)) | None => r.game.to_string(),
        };
        let size = match &start {
            Some(AnyGame::Reversi(g)) => g.size(),
            Some(AnyGame::Gomoku(g)) => g.size(),
            _ => 0,
        };
        let n = self.head.seats();
        let seats = view::seat_labels(r.game.name(), n);
        let players = (0..n)
            .map(|i| r.players.get(i).map(|p| p.name.clone()).unwrap_or_default())
            .collect();
        let mut total_ms = alloc::vec![0.0f64; n];
        for m in r.moves.iter().flat_map(MoveRecord::records) {
            if let Some(t) = total_ms.get_mut(m.seat.index()) {
                *t += m.time_ms.unwrap_or(0.0);
            }
        }
        let result_head = outcome_words(&seats, r.result.winner, r.result.places.as_deref());
        let at = (r.moves.len() + 1) as u64;
        let result_text = match (&r.result.reason, r.result.reason.culprit()) {
            (Reason::Normal, _) => {
                let end = &self.head;
                match (end.outcome().filter(|_| self.done), &r.meta.ending) {
                    // A module game ends in the module's own words.
                    (Some(o), ending) if o.reason == EndReason::Module => end
                        .end_words()
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
                    ("who", seat_label(&seats, culprit).into()),
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
            frames: self.frame_count(),
            seats,
            players,
            opening: r.opening.clone(),
            total_ms,
            retired: self.retired.clone(),
            result_head,
            result_text,
            failure: self.failure.clone(),
            result_in_status: self.failure.is_some()
                || (self.done && self.head.outcome().is_some()),
        }
    }
}

/// Move record `number` (1-based) read from its JSON.
fn read_move(text: &str, (from, to): (u32, u32), number: usize) -> Result<MoveRecord, LoadError> {
    let json = text.get(from as usize..to as usize).unwrap_or_default();
    serde_json::from_str::<serde_json::Value>(json)
        .and_then(serde_json::from_value)
        .map_err(|e| LoadError {
            kind: "malformed_json",
            message: format!("malformed replay JSON: move {number}: {e}"),
            move_number: None,
        })
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

/// The label of `seat`: the game's own for two seats, its number beyond.
/// Who won, in words: "Black wins", "Draw", or "#1, #3 share first place" where places put
/// several first (Dou Dizhu's peasants winning together is not a draw).
pub fn outcome_words(labels: &[String], winner: Option<Seat>, places: Option<&[u32]>) -> String {
    match (winner, shared_first(places)) {
        (Some(s), _) => ta("player-wins", &[("who", seat_label(labels, s).into())]),
        (None, Some(first)) => {
            let who: Vec<String> = first.iter().map(|&s| seat_label(labels, s)).collect();
            ta("player-share-first", &[("who", who.join(", ").into())])
        }
        (None, None) => crate::lang::t("player-draw"),
    }
}

/// The seats sharing first place when not every seat does (all first is a draw).
fn shared_first(places: Option<&[u32]>) -> Option<Vec<Seat>> {
    let places = places?;
    if places.iter().all(|&p| p == 1) {
        return None;
    }
    let first: Vec<Seat> = (places.iter().enumerate())
        .filter(|&(_, &p)| p == 1)
        .filter_map(|(k, _)| Seat::from_index(k))
        .collect();
    (!first.is_empty()).then_some(first)
}

pub fn seat_label(labels: &[String], seat: Seat) -> String {
    match labels.get(seat.index()) {
        Some(l) => l.clone(),
        None => format!("#{}", seat.index() + 1),
    }
}
