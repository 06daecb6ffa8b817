//! A live game as the hub sends it (docs/live.md): the `start`, `move` and `end` contents are
//! gathered into an ordinary replay document, which the player then reads through the engine
//! exactly as it reads a saved replay. Also the seat's side: a person's move checked through
//! the engine before it is sent.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use arbiter_engine::any::AnyGame;
use arbiter_engine::module::ModuleRef;
use arbiter_engine::replay::{GameResult, MoveRecord, Reason, Replay};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::session::{LoadError, Session};

/// Contents the player keeps at most (a 2048 duel of 500 rounds has about 2,000 moves).
pub const MAX_EVENTS: usize = 100_000;

/// The game followed so far.
#[derive(Default)]
pub struct Feed {
    /// The replay: the start's, with the moves appended and, at the end, the result.
    doc: Option<Replay>,
    /// The seat this player holds (a seat's stream only).
    pub seat: Option<u8>,
    /// The clocks: `[move_ms, game_ms]`, `None` = unlimited.
    pub limits: [Option<f64>; 2],
    pub ended: bool,
}

/// A field of a content, read as `T`.
fn field<T: DeserializeOwned>(v: &mut Value, key: &str) -> Result<T, String> {
    serde_json::from_value(v[key].take()).map_err(|e| format!("bad {key} in a content: {e}"))
}

impl Feed {
    /// Forgets everything (a `history` starts again from the start).
    pub fn reset(&mut self) {
        *self = Feed::default();
    }

    /// Takes one content (a JSON document as a string); the error is the sentence shown.
    pub fn apply(&mut self, content: &str) -> Result<(), String> {
        let mut v: Value =
            serde_json::from_str(content).map_err(|e| format!("a content is not JSON: {e}"))?;
        let kind = v["type"].as_str().map(String::from);
        match (kind.as_deref(), self.doc.as_mut()) {
            (Some("start"), _) => {
                let replay: Replay = field(&mut v, "replay")?;
                self.reset();
                self.doc = Some(replay);
                self.seat = v["seat"].as_u64().filter(|s| *s <= 1).map(|s| s as u8);
                let limits = &v["limits"];
                self.limits = [limits["move_ms"].as_f64(), limits["game_ms"].as_f64()];
            }
            (_, None) => return Err("an event came before the game's start".to_string()),
            (_, Some(_)) if self.ended => return Err("an event came after the end".to_string()),
            (Some("move"), Some(doc)) if doc.moves.len() < MAX_EVENTS => {
                doc.moves.push(field::<MoveRecord>(&mut v, "move")?);
            }
            (Some("end"), Some(doc)) => {
                doc.result = field(&mut v, "result")?;
                doc.scores = field(&mut v, "scores").unwrap_or(None);
                doc.failure = field(&mut v, "failure").unwrap_or(None);
                self.ended = true;
            }
            _ => return Err("a content of an unknown type, or too many".to_string()),
        }
        Ok(())
    }

    /// A module game's module, as its game names it, and the copy the hub sent with the start
    /// (taken: the replay is copied at every move, the module's bytes need not be).
    pub fn take_module(&mut self) -> Option<(ModuleRef, Option<String>)> {
        let doc = self.doc.as_mut()?;
        let module = doc.game.as_module()?.module.clone();
        Some((module, doc.module_wasm.take()))
    }

    /// The moves so far.
    pub fn moves(&self) -> usize {
        self.doc.as_ref().map_or(0, |d| d.moves.len())
    }

    /// The replay so far, read through the engine. Before the end, a position the rules end
    /// already (the `end` is on its way) gets the engine's result, so that it reads as a replay.
    pub fn session(&self) -> Option<Result<Session, LoadError>> {
        let doc = self.doc.as_ref()?;
        let first = Session::from_replay(doc.clone());
        if self.ended || first.is_ok() {
            return Some(first);
        }
        let Some(outcome) = end_position(doc).and_then(|g| g.outcome()) else {
            return Some(first);
        };
        let mut doc = doc.clone();
        doc.result = GameResult {
            winner: outcome.winner,
            reason: Reason::Normal,
        };
        Some(Session::from_replay(doc))
    }
}

/// The position after every move of `doc`, if they are legal.
fn end_position(doc: &Replay) -> Option<AnyGame> {
    let mut g = doc.start_position().ok()?;
    for m in &doc.moves {
        g.play_text(&m.mv).ok()?;
    }
    Some(g)
}

/// A square or point as a move's text: `d3` (Reversi), `x,y` (Gomoku, from the top), `r,c`.
pub fn cell_move(game: &str, [r, c]: [u8; 2]) -> String {
    match game {
        "reversi" => crate::failure::reversi_square(r, c),
        "gomoku" => format!("{c},{r}"),
        _ => format!("{r},{c}"),
    }
}

/// Checks `text` as `seat`'s move in the newest position: the move in the game's canonical
/// notation, or why it is refused.
pub fn check_move(session: &Session, seat: Option<u8>, text: &str) -> Result<String, String> {
    let Some(seat) = seat else {
        return Err("you are watching: only a seat may move".to_string());
    };
    let Some(g) = session.position(session.frame_count() - 1) else {
        return Err("no position yet".to_string());
    };
    match g.to_move() {
        None => return Err("the game is over".to_string()),
        Some(s) if s as u8 != seat => return Err("it is not your turn".to_string()),
        Some(_) if g.forced_move().is_some() => {
            return Err("you have no choice here: the referee plays it for you".to_string())
        }
        Some(_) => {}
    }
    let mv = g.parse_move(text).map_err(|e| e.to_string())?;
    let name = g.format_move(mv);
    let mut probe: AnyGame = g.clone();
    probe.play(mv).map_err(|e| format!("{name}: {e}"))?;
    Ok(name)
}

/// The notation of every move `seat` may play now (for tests and hints).
pub fn legal_names(session: &Session) -> Vec<String> {
    session
        .position(session.frame_count() - 1)
        .map(|g| {
            g.legal_moves()
                .into_iter()
                .map(|m| g.format_move(m))
                .collect()
        })
        .unwrap_or_default()
}
