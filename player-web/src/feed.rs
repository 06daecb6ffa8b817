//! A live game as the hub sends it (docs/live.md): the `start`, `move` and `end` contents are
//! gathered into an ordinary replay document, which the player then reads through the engine
//! exactly as it reads a saved replay. Also the seat's side: a person's move checked through
//! the engine before it is sent.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use arbiter_engine::any::AnyGame;
use serde_json::{json, Value};

use crate::session::{LoadError, Session};

/// Contents the player keeps at most (a 2048 duel of 500 rounds has about 2,000 moves).
pub const MAX_EVENTS: usize = 100_000;

/// The game followed so far.
#[derive(Default)]
pub struct Feed {
    /// The replay: the start's, with the moves appended and, at the end, the result.
    doc: Option<Value>,
    /// The seat this player holds (a seat's stream only).
    pub seat: Option<u8>,
    /// The clocks: `[move_ms, game_ms]`, `None` = unlimited.
    pub limits: [Option<f64>; 2],
    pub moves: usize,
    pub ended: bool,
}

impl Feed {
    /// Forgets everything (a `history` starts again from the start).
    pub fn reset(&mut self) {
        *self = Feed::default();
    }

    /// Takes one content (a JSON document as a string); the error is the sentence shown.
    pub fn apply(&mut self, content: &str) -> Result<(), String> {
        let v: Value =
            serde_json::from_str(content).map_err(|e| format!("a content is not JSON: {e}"))?;
        match (v["type"].as_str(), self.doc.as_mut()) {
            (Some("start"), _) => {
                let replay = v["replay"].clone();
                if !replay.is_object() || !replay["moves"].is_array() {
                    return Err("the start content holds no replay".to_string());
                }
                self.reset();
                self.doc = Some(replay);
                self.seat = v["seat"].as_u64().filter(|s| *s <= 1).map(|s| s as u8);
                self.limits = [
                    v["limits"]["move_ms"].as_f64(),
                    v["limits"]["game_ms"].as_f64(),
                ];
            }
            (_, None) => return Err("an event came before the game's start".to_string()),
            (_, Some(_)) if self.ended => return Err("an event came after the end".to_string()),
            (_, Some(_)) if self.moves >= MAX_EVENTS => {
                return Err("too many moves for this player".to_string())
            }
            (Some("move"), Some(doc)) => {
                if let Some(m) = doc["moves"].as_array_mut() {
                    m.push(v["move"].clone());
                }
                self.moves += 1;
            }
            (Some("end"), Some(doc)) => {
                doc["result"] = v["result"].clone();
                for key in ["scores", "failure"] {
                    if !v[key].is_null() {
                        doc[key] = v[key].clone();
                    }
                }
                self.ended = true;
            }
            _ => return Err("a content of an unknown type".to_string()),
        }
        Ok(())
    }

    pub fn started(&self) -> bool {
        self.doc.is_some()
    }

    /// The replay so far, read through the engine. Before the end, a position the rules end
    /// already (the `end` is on its way) gets the engine's result, so that it reads as a replay.
    pub fn session(&self) -> Option<Result<Session, LoadError>> {
        let doc = self.doc.as_ref()?;
        let first = Session::load(&doc.to_string());
        if self.ended || first.is_ok() {
            return Some(first);
        }
        let mut doc = doc.clone();
        for winner in [Value::Null, json!(0), json!(1)] {
            doc["result"] = json!({"winner": winner, "reason": {"kind": "normal"}});
            if let Ok(s) = Session::load(&doc.to_string()) {
                return Some(Ok(s));
            }
        }
        Some(first)
    }
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
