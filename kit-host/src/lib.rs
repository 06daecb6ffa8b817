//! arbiter-kit-host: runs game-kit games for the referee and the tools.
//!
//! A game is reached through [`Kit`]: one JSON request in, one JSON answer out (the ABI of
//! `docs/game-kit.md`). [`WasmKit`] runs a module in wasmi, bounded; [`NativeKit`] links a
//! Rust [`arbiter_game::Game`] directly through the same requests. [`Rules`] wraps either in
//! typed calls and checks every answer, so a module that answers nonsense is an error naming
//! it, never a panic.

pub mod build;
pub mod check;
pub mod host;
pub mod template;
mod wasm;

use std::fmt;
use std::path::Path;

use arbiter_game::abi::Session;
use arbiter_game::{Outcome, View};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

pub use wasm::{sha256_hex, Bounds, Compiled, WasmKit};

/// Why a game module could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KitError {
    /// The module failed: trapped, ran out of fuel or memory, answered nonsense.
    Module { module: String, what: String },
    /// The module refused a request as malformed (`{"error": ...}`): a bug on one side.
    Refused { module: String, why: String },
    /// The host's own failure (file not found).
    Host(String),
}

impl fmt::Display for KitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KitError::Module { module, what } => write!(f, "game module {module} {what}"),
            KitError::Refused { module, why } => {
                write!(f, "game module {module} refused a request: {why}")
            }
            KitError::Host(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for KitError {}

/// Something that answers the ABI's requests.
pub trait Kit: Send {
    /// The module's name in errors (file name, or the game's name).
    fn label(&self) -> &str;
    fn call(&mut self, request: &Value) -> Result<Value, KitError>;
}

/// A Rust game linked into this program, reached through the same requests as a module.
pub struct NativeKit<G> {
    session: Session<G>,
}

impl<G: arbiter_game::Game> Default for NativeKit<G> {
    fn default() -> Self {
        NativeKit {
            session: Session::new(),
        }
    }
}

impl<G: arbiter_game::Game + Send> Kit for NativeKit<G> {
    fn label(&self) -> &str {
        G::NAME
    }

    fn call(&mut self, request: &Value) -> Result<Value, KitError> {
        let bytes = serde_json::to_vec(request).map_err(|e| KitError::Host(e.to_string()))?;
        serde_json::from_slice(&self.session.call(&bytes))
            .map_err(|e| KitError::Host(e.to_string()))
    }
}

/// A module's `info`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct Info {
    pub name: String,
    pub version: String,
    pub seats: usize,
    pub abi: u32,
}

/// A position's `status`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub struct Status {
    pub to_move: Option<usize>,
    pub forced: Option<String>,
    pub scores: Vec<i64>,
    pub outcome: Option<Outcome>,
}

/// A position held by the module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State(pub u32);

/// A game module with typed, checked calls.
pub struct Rules {
    kit: Box<dyn Kit>,
    info: Info,
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rules({} {})", self.info.name, self.info.version)
    }
}

impl Rules {
    /// Asks the module who it is and checks the answer.
    pub fn new(mut kit: Box<dyn Kit>) -> Result<Rules, KitError> {
        let info: Info = ask(kit.as_mut(), json!({"op": "info"}))?;
        if info.seats != 2 {
            return Err(module_error(
                kit.as_ref(),
                format!("has {} seats; arbiter plays 2", info.seats),
            ));
        }
        Ok(Rules { kit, info })
    }

    /// Loads a module file under the default bounds.
    pub fn load(path: &Path) -> Result<Rules, KitError> {
        let bytes = std::fs::read(path).map_err(|e| {
            KitError::Host(format!("cannot read game module {}: {e}", path.display()))
        })?;
        let label = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Rules::new(Box::new(WasmKit::load(&bytes, &label, Bounds::default())?))
    }

    /// A natively linked Rust game.
    pub fn native<G: arbiter_game::Game + Send + 'static>() -> Rules {
        // The native session answers `info` from constants; it cannot fail.
        let kit: Box<dyn Kit> = Box::new(NativeKit::<G>::default());
        let info = Info {
            name: G::NAME.into(),
            version: G::VERSION.into(),
            seats: G::SEATS,
            abi: arbiter_game::abi::ABI_VERSION,
        };
        Rules { kit, info }
    }

    pub fn info(&self) -> &Info {
        &self.info
    }

    pub fn label(&self) -> &str {
        self.kit.label()
    }

    fn ask<T: DeserializeOwned>(&mut self, request: Value) -> Result<T, KitError> {
        ask(self.kit.as_mut(), request)
    }

    /// The start position; `Ok(Err(why))` when the module refuses the configuration.
    pub fn start(&mut self, config: &Value, seed: u64) -> Result<State, KitError> {
        #[derive(serde::Deserialize)]
        struct New {
            state: u32,
        }
        let n: New = self.ask(json!({"op": "new", "config": config, "seed": seed}))?;
        Ok(State(n.state))
    }

    pub fn duplicate(&mut self, s: State) -> Result<State, KitError> {
        #[derive(serde::Deserialize)]
        struct New {
            state: u32,
        }
        let n: New = self.ask(json!({"op": "clone", "state": s.0}))?;
        Ok(State(n.state))
    }

    /// A copy of `s` whose chance after the current ply comes from `seed` (a search's copy:
    /// it must not know the game's own future dice). A game without chance ignores the seed.
    pub fn duplicate_reseeded(&mut self, s: State, seed: u64) -> Result<State, KitError> {
        #[derive(serde::Deserialize)]
        struct New {
            state: u32,
        }
        let n: New = self.ask(json!({"op": "clone", "state": s.0, "seed": seed}))?;
        Ok(State(n.state))
    }

    pub fn release(&mut self, s: State) -> Result<(), KitError> {
        self.ask::<Value>(json!({"op": "drop", "state": s.0}))
            .map(drop)
    }

    pub fn status(&mut self, s: State) -> Result<Status, KitError> {
        let st: Status = self.ask(json!({"op": "status", "state": s.0}))?;
        self.possible(st)
    }

    /// Plays uniformly random moves from `s` to the end inside the module (the optional
    /// `playout` op; it may stop short on its own bounds): how many plies, and the status
    /// there. `None` when the module does not offer it.
    pub fn playout(&mut self, s: State, seed: u64) -> Result<Option<(usize, Status)>, KitError> {
        #[derive(serde::Deserialize)]
        struct Played {
            plies: usize,
            status: Status,
        }
        match self.ask::<Played>(json!({"op": "playout", "state": s.0, "seed": seed})) {
            Ok(p) => Ok(Some((p.plies, self.possible(p.status)?))),
            Err(KitError::Refused { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `st`, unless no game could be in it.
    fn possible(&self, st: Status) -> Result<Status, KitError> {
        let seats = self.info.seats;
        let bad_seat = |x: Option<usize>| x.is_some_and(|x| x >= seats);
        let over_but_turn = st.outcome.is_some() == st.to_move.is_some();
        if bad_seat(st.to_move)
            || over_but_turn
            || st.scores.len() != seats
            || st
                .outcome
                .as_ref()
                .is_some_and(|o| bad_seat(o.winner) || o.scores.len() != seats)
        {
            return Err(self.garbage(format!("answered an impossible status {st:?}")));
        }
        Ok(st)
    }

    pub fn legal(&mut self, s: State) -> Result<Vec<String>, KitError> {
        self.ask(json!({"op": "legal", "state": s.0}))
    }

    /// Plays a move in the game's notation: `Ok(Err(reason))` when it is not legal.
    pub fn play(&mut self, s: State, mv: &str) -> Result<Result<(), String>, KitError> {
        let answer = call(
            self.kit.as_mut(),
            json!({"op": "play", "state": s.0, "move": mv}),
        )?;
        match answer {
            Value::Object(o) if o.contains_key("ok") => Ok(Ok(())),
            Value::Object(o) => match o.get("illegal") {
                Some(Value::String(why)) => Ok(Err(why.clone())),
                _ => Err(self.garbage(format!("answered play with {}", Value::Object(o)))),
            },
            other => Err(self.garbage(format!("answered play with {other}"))),
        }
    }

    pub fn tell(&mut self, s: State, seat: usize) -> Result<String, KitError> {
        self.ask(json!({"op": "tell", "state": s.0, "seat": seat}))
    }

    /// How a person clicks each legal move (the optional `clicks` op): `None` when the module
    /// does not say (the player then lists the moves).
    pub fn clicks(&mut self, s: State) -> Result<Option<Vec<MoveClicks>>, KitError> {
        match self.ask(json!({"op": "clicks", "state": s.0})) {
            Ok(c) => Ok(Some(c)),
            Err(KitError::Refused { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The view, checked to be drawable.
    pub fn view(&mut self, s: State) -> Result<View, KitError> {
        let v: View = self.ask(json!({"op": "view", "state": s.0}))?;
        v.check(self.info.seats)
            .map_err(|e| self.garbage(format!("answered a view that cannot be drawn: {e}")))?;
        Ok(v)
    }

    fn garbage(&self, what: String) -> KitError {
        module_error(self.kit.as_ref(), what)
    }
}

/// One legal move and the clicks that make it: `cells` in order, or one `line` between two
/// corners or points.
#[derive(Clone, PartialEq, Eq, Debug, serde::Deserialize)]
pub struct MoveClicks {
    #[serde(rename = "move")]
    pub mv: String,
    #[serde(default)]
    pub cells: Option<Vec<[u16; 2]>>,
    #[serde(default)]
    pub line: Option<[[u16; 2]; 2]>,
}

fn module_error(kit: &dyn Kit, what: String) -> KitError {
    KitError::Module {
        module: kit.label().to_string(),
        what,
    }
}

/// One request; an `{"error"}` answer is [`KitError::Refused`], anything but `{"ok"}` garbage.
fn call(kit: &mut dyn Kit, request: Value) -> Result<Value, KitError> {
    let answer = kit.call(&request)?;
    if let Some(why) = answer.get("error") {
        return Err(KitError::Refused {
            module: kit.label().to_string(),
            why: why.as_str().map_or_else(|| why.to_string(), str::to_string),
        });
    }
    Ok(answer)
}

fn ask<T: DeserializeOwned>(kit: &mut dyn Kit, request: Value) -> Result<T, KitError> {
    let op = request.get("op").cloned().unwrap_or(Value::Null);
    let mut answer = call(kit, request)?;
    let ok = answer.get_mut("ok").map(Value::take);
    let shaped = ok.map(serde_json::from_value::<T>);
    match shaped {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(module_error(
            kit,
            format!("answered {op} with the wrong shape: {e}"),
        )),
        None => Err(module_error(
            kit,
            format!("answered {op} with neither ok nor error: {answer}"),
        )),
    }
}

/// Counts the leaves of the move tree to `depth`, through the module (forced plies count).
pub fn perft(rules: &mut Rules, s: State, depth: u32) -> Result<u64, KitError> {
    if depth == 0 {
        return Ok(1);
    }
    let moves = rules.legal(s)?;
    if depth == 1 {
        return Ok(moves.len() as u64);
    }
    let mut total = 0;
    for mv in &moves {
        let child = rules.duplicate(s)?;
        let played = rules.play(child, mv)?;
        if let Err(why) = played {
            return Err(rules.garbage(format!("refused its own legal move {mv:?}: {why}")));
        }
        total += perft(rules, child, depth - 1)?;
        rules.release(child)?;
    }
    Ok(total)
}
