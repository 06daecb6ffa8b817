//! A live game as the hub sends it (docs/live.md): the `start`, `move` and `end` contents,
//! kept until the session shown takes them ([`Feed::drain_into`]): the start's replay opens
//! a live [`Session`], each move is checked through the engine as it joins it, and the end's
//! result is checked as a saved replay's. Also the seat's side: a person's move checked
//! through the engine before it is sent.
//!
//! A module game whose chance the hub keeps back comes with its positions (`position` in each
//! content): the engine then plays it through [`Positions`], rules that answer from those.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use std::sync::{Mutex, MutexGuard, PoisonError};

use arbiter_engine::any::AnyGame;
use arbiter_engine::module::{
    DynRules, GameKind, ModuleConfig, ModuleOutcome, ModuleRef, MoveText,
};
use arbiter_engine::replay::{Failure, GameResult, MoveRecord, Replay};
use arbiter_engine::{Seat, SeatSet, Turn, Viewer};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::session::{LoadError, Session};

/// Contents the player keeps at most (a 2048 duel of 500 rounds has about 2,000 moves).
pub const MAX_EVENTS: usize = 100_000;

/// A game's end: its result, scores and failure record.
type End = (GameResult, Option<Vec<i64>>, Option<Failure>);

/// The game followed so far: what came and was not taken yet.
#[derive(Default)]
pub struct Feed {
    /// The start's replay (no moves), until a session is opened from it.
    start: Option<Replay>,
    moves: Vec<MoveRecord>,
    end: Option<End>,
    /// Moves that came since the start.
    count: usize,
    /// The game has started (a start came).
    started: bool,
    /// The seat this player holds (a seat's stream only).
    pub seat: Option<u8>,
    /// The clocks: `[move_ms, game_ms]`, `None` = unlimited.
    pub limits: [Option<f64>; 2],
    pub ended: bool,
    /// The positions the hub sent, when it sends them.
    pub positions: Option<Arc<Positions>>,
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
        match kind.as_deref() {
            Some("start") => {
                let replay: Replay = field(&mut v, "replay")?;
                self.reset();
                if !v["position"].is_null() {
                    let config = replay
                        .game
                        .as_module()
                        .cloned()
                        .ok_or("positions of no module")?;
                    let start = Position::read(&v["position"])?;
                    self.positions = Some(Arc::new(Positions::new(config, start)));
                }
                (self.start, self.started) = (Some(replay), true);
                self.seat = v["seat"]
                    .as_u64()
                    .filter(|s| *s < Seat::MAX as u64)
                    .map(|s| s as u8);
                let limits = &v["limits"];
                self.limits = [limits["move_ms"].as_f64(), limits["game_ms"].as_f64()];
            }
            _ if !self.started => return Err("an event came before the game's start".to_string()),
            _ if self.ended => return Err("an event came after the end".to_string()),
            Some("move") if self.count < MAX_EVENTS => {
                let record = field::<MoveRecord>(&mut v, "move")?;
                if let Some(p) = &self.positions {
                    let ply = record.records().map(|r| (r.seat, r.mv.clone())).collect();
                    p.push(ply, Position::read(&v["position"])?);
                }
                self.moves.push(record);
                self.count += 1;
            }
            Some("end") => {
                let result = field(&mut v, "result")?;
                let scores = field(&mut v, "scores").unwrap_or(None);
                self.end = Some((result, scores, field(&mut v, "failure").unwrap_or(None)));
                self.ended = true;
            }
            _ => return Err("a content of an unknown type, or too many".to_string()),
        }
        Ok(())
    }

    /// A module game's module, as its game names it, and the copy the hub sent with the start
    /// (taken: the session need not keep the module's bytes).
    pub fn take_module(&mut self) -> Option<(ModuleRef, Option<String>)> {
        if self.positions.is_some() {
            return None;
        }
        let doc = self.start.as_mut()?;
        let module = doc.game.as_module()?.module.clone();
        Some((module, doc.module_wasm.take()))
    }

    /// The moves that came since the start.
    pub fn moves(&self) -> usize {
        self.count
    }

    /// Brings `session` up to date with what came: a new one from a start (the one given is
    /// then dropped), then the moves, each checked, then the end. A move the engine refuses
    /// is the error, and the session stays as it was before it.
    pub fn drain_into(&mut self, session: &mut Option<Session>) -> Result<(), LoadError> {
        if let Some(replay) = self.start.take() {
            *session = None;
            *session = Some(Session::live(replay)?);
        }
        let Some(s) = session.as_mut() else {
            return Ok(());
        };
        for m in core::mem::take(&mut self.moves) {
            s.push(m)?;
        }
        match self.end.take() {
            Some((result, scores, failure)) => s.end(result, scores, failure),
            None => Ok(()),
        }
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
    let Some(seat) = seat.and_then(|s| Seat::from_index(usize::from(s))) else {
        return Err("you are watching: only a seat may move".to_string());
    };
    let Some(g) = session.position(session.frame_count() - 1) else {
        return Err("no position yet".to_string());
    };
    let movers = g.turn().movers();
    if movers.is_empty() {
        return Err("the game is over".to_string());
    }
    if !movers.contains(seat) {
        return Err("it is not your turn".to_string());
    }
    if g.forced_move_of(seat).is_some() {
        return Err("you have no choice here: the referee plays it for you".to_string());
    }
    let mv = g.parse_move(text).map_err(|e| e.to_string())?;
    let name = g.format_move(mv);
    if movers.len() > 1 {
        // A simultaneous turn is played once every mover chose: only the choice is checked.
        return match g.legal_moves_of(seat).contains(&mv) {
            true => Ok(name),
            false => Err(format!("{name}: not one of your legal moves")),
        };
    }
    let mut probe: AnyGame = g.clone();
    probe.play(mv).map_err(|e| format!("{name}: {e}"))?;
    Ok(name)
}

/// The seats that move in the newest position and have a choice, as the player numbers them.
pub fn choosers(session: &Session) -> Vec<u8> {
    let Some(g) = session.position(session.frame_count() - 1) else {
        return Vec::new();
    };
    g.turn()
        .movers()
        .iter()
        .filter(|s| g.forced_move_of(*s).is_none())
        .map(u8::from)
        .collect()
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

/// A module game's positions as the hub sent them (it keeps the game's chance back): the
/// engine plays the game through them ([`Positions::open`]), the moves played and no other.
///
/// Shared by the feed, which adds each ply's as it comes, and the rules opened from it: a live
/// session keeps its positions and plays each new move from them (`Feed::drain_into`), so
/// they must see the positions that came after they were opened.
#[derive(Debug)]
pub struct Positions {
    pub config: ModuleConfig,
    sent: Mutex<Sent>,
}

#[derive(Debug, Default)]
struct Sent {
    /// Each ply's moves (one, or a simultaneous turn's), by seat, in the notation: each from
    /// the position before it.
    moves: Vec<Vec<(Seat, String)>>,
    /// The position after each ply (`at[0]`: the start).
    at: Vec<Arc<Position>>,
}

/// One position the hub sent: its status, its view and, for a person to move, the choices.
#[derive(Debug, Default)]
pub struct Position {
    to_move: Option<Seat>,
    /// The movers of a simultaneous turn.
    movers: Option<SeatSet>,
    /// Whose `legal` and `clicks` these are in a simultaneous turn (the person's seat), and
    /// that seat's forced move.
    chooser: Option<Seat>,
    own_forced: Option<MoveText>,
    forced: Option<MoveText>,
    scores: Vec<i64>,
    outcome: Option<ModuleOutcome>,
    view: String,
    legal: Option<Vec<MoveText>>,
    clicks: Option<String>,
}

impl Position {
    fn read(v: &Value) -> Result<Position, String> {
        let bad = |what: &str| format!("the hub sent a position with a bad {what}");
        let seat = |v: &Value| match v {
            Value::Null => Ok(None),
            v => v
                .as_u64()
                .and_then(|n| Seat::from_index(n as usize))
                .map(Some)
                .ok_or_else(|| bad("seat")),
        };
        let word = |v: &Value| v.as_str().and_then(MoveText::new);
        let scores: Vec<i64> = match v["scores"].as_array() {
            Some(list) if (1..=Seat::MAX).contains(&list.len()) => {
                list.iter().map(|s| s.as_i64().unwrap_or(0)).collect()
            }
            _ => return Err(bad("scores")),
        };
        let seats = scores.len();
        let outcome = match &v["outcome"] {
            Value::Null => None,
            o => {
                let places = match o["places"].as_array() {
                    Some(p) if p.len() == seats => p
                        .iter()
                        .map(|x| x.as_u64().map(|n| n as u32).ok_or_else(|| bad("place")))
                        .collect::<Result<Vec<u32>, String>>()?,
                    _ => arbiter_engine::any::places_of_winner(seat(&o["winner"])?, seats),
                };
                Some(ModuleOutcome {
                    places,
                    reason: o["reason"].as_str().unwrap_or_default().to_string(),
                })
            }
        };
        let legal = v["legal"]
            .as_array()
            .map(|l| l.iter().filter_map(word).collect());
        let movers = match v["movers"].as_array() {
            None => None,
            Some(list) if list.len() <= seats => Some(
                list.iter()
                    .map(seat)
                    .collect::<Result<Vec<Option<Seat>>, String>>()?
                    .into_iter()
                    .flatten()
                    .collect::<SeatSet>(),
            ),
            Some(_) => return Err(bad("movers")),
        };
        Ok(Position {
            to_move: seat(&v["to_move"])?,
            movers,
            chooser: seat(&v["chooser"])?,
            own_forced: word(&v["own_forced"]),
            forced: word(&v["forced"]),
            scores,
            outcome,
            view: if v["view"].is_object() {
                v["view"].to_string()
            } else {
                return Err(bad("view"));
            },
            legal,
            clicks: (!v["clicks"].is_null()).then(|| v["clicks"].to_string()),
        })
    }
}

impl Positions {
    /// The positions of a game from its start.
    pub fn new(config: ModuleConfig, start: Position) -> Positions {
        let at = vec![Arc::new(start)];
        let sent = Mutex::new(Sent {
            moves: Vec::new(),
            at,
        });
        Positions { config, sent }
    }

    fn sent(&self) -> MutexGuard<'_, Sent> {
        // A panic while it was held cannot leave it half-written: each push is one step.
        self.sent.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Ply `mv` came, and the position after it.
    pub fn push(&self, ply: Vec<(Seat, String)>, after: Position) {
        let mut sent = self.sent();
        sent.moves.push(ply);
        sent.at.push(Arc::new(after));
    }

    /// The plies sent so far.
    pub fn plies(&self) -> usize {
        self.sent().moves.len()
    }

    /// The start position, as rules the engine plays.
    pub fn open(self: &Arc<Self>) -> Box<dyn DynRules> {
        Box::new(Shown {
            positions: Arc::clone(self),
            ply: 0,
        })
    }
}

/// A position among those the hub sent. Past the newest (a person's move tried before it is
/// sent) nothing is known of it: no side to move, no view.
#[derive(Debug, Clone)]
struct Shown {
    positions: Arc<Positions>,
    ply: usize,
}

impl Shown {
    fn here(&self) -> Option<Arc<Position>> {
        self.positions.sent().at.get(self.ply).cloned()
    }
}

impl DynRules for Shown {
    fn clone_box(&self) -> Box<dyn DynRules> {
        Box::new(self.clone())
    }

    fn reseeded(&self, _seed: u64) -> Box<dyn DynRules> {
        self.clone_box()
    }

    fn config(&self) -> &ModuleConfig {
        &self.positions.config
    }

    /// The hub's positions are what the page may see already: nothing more to hide.
    fn sampled(&self, _seat: Seat, _seed: u64) -> Box<dyn DynRules> {
        self.clone_box()
    }

    fn seats(&self) -> usize {
        self.positions
            .sent()
            .at
            .first()
            .map_or(2, |p| p.scores.len().max(1))
    }

    fn kind(&self) -> GameKind {
        GameKind::default()
    }

    fn turn(&self) -> Turn {
        let here = self.here();
        match here.as_ref().and_then(|p| p.movers) {
            Some(set) if !set.is_empty() => Turn::Together(set),
            _ => Turn::of(here.and_then(|p| p.to_move)),
        }
    }

    fn forced_move(&self, seat: Seat) -> Option<MoveText> {
        let here = self.here()?;
        if here.chooser == Some(seat) {
            return here.own_forced;
        }
        (here.to_move == Some(seat))
            .then_some(here.forced)
            .flatten()
    }

    fn legal_moves(&self, seat: Seat) -> Vec<MoveText> {
        self.here()
            .filter(|p| p.to_move == Some(seat) || p.chooser == Some(seat))
            .and_then(|p| p.legal.clone())
            .unwrap_or_default()
    }

    /// A simultaneous turn: the ply the hub sent (its moves as the page may know them).
    fn play_together(&mut self, moves: &[(Seat, MoveText)]) -> Result<(), (Seat, String)> {
        let first = moves.first().map_or(Seat::FIRST, |(s, _)| *s);
        let fits = self
            .positions
            .sent()
            .moves
            .get(self.ply)
            .is_some_and(|played| {
                played.len() == moves.len()
                    && moves
                        .iter()
                        .all(|(s, m)| played.iter().any(|(p, t)| p == s && t == m.as_str()))
            });
        if !fits {
            return Err((first, "not the turn the hub sent".into()));
        }
        self.ply += 1;
        Ok(())
    }

    fn reveal(&self, moves: &[(Seat, MoveText)], _to: Viewer) -> Vec<Option<String>> {
        moves.iter().map(|(_, m)| Some(m.to_string())).collect()
    }

    fn retire(&mut self, _seat: Seat) -> bool {
        false
    }

    fn play(&mut self, mv: &str) -> Result<(), String> {
        let here = self.here().ok_or("no position is known here")?;
        let fits = match self.positions.sent().moves.get(self.ply) {
            Some(played) => played.len() == 1 && played[0].1 == mv,
            None => here
                .legal
                .as_ref()
                .is_none_or(|l| l.iter().any(|m| m.as_str() == mv)),
        };
        if !fits || here.to_move.is_none() {
            return Err(format!("{mv} is not a legal move here"));
        }
        self.ply += 1;
        Ok(())
    }

    fn outcome(&self) -> Option<ModuleOutcome> {
        self.here()?.outcome.clone()
    }

    fn ply(&self) -> usize {
        self.ply
    }

    fn scores(&self) -> Vec<i64> {
        self.here()
            .map_or_else(|| vec![0; self.seats()], |p| p.scores.clone())
    }

    fn tell(&self, _seat: Seat) -> String {
        String::new()
    }

    fn view(&self, _viewer: Viewer) -> String {
        self.here().map_or_else(String::new, |p| p.view.clone())
    }

    fn fault(&self) -> Option<String> {
        None
    }

    fn clicks(&self, _seat: Seat) -> Option<String> {
        self.here()?.clicks.clone()
    }
}
