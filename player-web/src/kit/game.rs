//! The engine's module game (`DynRules`) and module host over a [`Runner`]: requests of the
//! ABI written as JSON text, every answer checked (a module that answers nonsense fails, and
//! is not called again), the status kept so that the engine's questions cost no call.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use arbiter_engine::error::ConfigError;
use arbiter_engine::module::{
    DynRules, GameKind, ModuleConfig, ModuleHost, ModuleOutcome, MoveText,
};
use arbiter_engine::{Seat, Turn, Viewer};
use serde_json::Value;

use super::view::ModuleView;

/// Runs module instances, each known by a number: the browser's WebAssembly, or wasmi in
/// the native tests. A failed module is not called again.
pub trait Runner: Sync {
    /// The number of the loaded module with this sha256.
    fn find(&self, sha256: &str) -> Option<u32>;
    /// One request, one answer (JSON text); an error is the module's failure in words (it is
    /// kept: [`Runner::fault`]).
    fn call(&self, id: u32, request: &str) -> Result<String, String>;
    /// Records that module `id` answered nonsense (`what` follows its name).
    fn fail(&self, id: u32, what: String);
    /// Why module `id` failed, as a sentence naming it, once it did.
    fn fault(&self, id: u32) -> Option<String>;
}

/// What the module answered, once it is JSON of the ABI's shape.
enum Reply {
    Ok(Value),
    Refused(String),
    Illegal(String),
}

#[derive(Clone, Default, Debug)]
struct Status {
    /// The seats that move now, lowest first (none once over).
    movers: Vec<Seat>,
    /// Each mover's forced move, if it has no choice.
    forced: Vec<Option<MoveText>>,
    scores: Vec<i64>,
    outcome: Option<ModuleOutcome>,
}

/// A position: a state inside a module instance, with its status.
pub struct ModuleGame {
    runner: &'static dyn Runner,
    id: u32,
    /// `None` once the module failed while making this position.
    state: Option<u32>,
    config: ModuleConfig,
    seats: usize,
    kind: GameKind,
    status: Status,
    ply: usize,
}

impl fmt::Debug for ModuleGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ModuleGame({}, ply {})",
            self.config.module.name, self.ply
        )
    }
}

/// `s` as a JSON string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' | '\\' => {
                out.push('\\');
                out.push(ch);
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl ModuleGame {
    /// Sends a request; `None` when the module failed (the failure is kept by the runner).
    fn reply(&self, request: &str) -> Option<Reply> {
        let text = self.runner.call(self.id, request).ok()?;
        let mut v: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                let start: String = text.chars().take(60).collect();
                return self.fail(format!(
                    "answered something that is not JSON ({e}): {start:?}"
                ));
            }
        };
        if let Some(ok) = v.get_mut("ok") {
            return Some(Reply::Ok(ok.take()));
        }
        let word = |k: &str| v.get(k).and_then(Value::as_str).map(String::from);
        if let Some(why) = word("error") {
            return Some(Reply::Refused(why));
        }
        if let Some(why) = word("illegal") {
            return Some(Reply::Illegal(why));
        }
        let start: String = text.chars().take(60).collect();
        self.fail(format!("answered with neither ok nor error: {start}"))
    }

    fn fail<T>(&self, what: String) -> Option<T> {
        self.runner.fail(self.id, what);
        None
    }

    /// The `ok` of a request that must succeed.
    fn ok(&self, request: &str) -> Option<Value> {
        match self.reply(request)? {
            Reply::Ok(v) => Some(v),
            Reply::Refused(why) => self.fail(format!("refused a request: {why}")),
            Reply::Illegal(why) => self.fail(format!("answered {request} with illegal: {why}")),
        }
    }

    fn request(&self, op: &str) -> Option<String> {
        Some(format!(r#"{{"op":"{op}","state":{}}}"#, self.state?))
    }

    fn read_status(&self) -> Option<Status> {
        let v = self.ok(&self.request("status")?)?;
        match status(&v, self.seats) {
            Ok(s) => Some(s),
            Err(why) => self.fail(format!("answered an impossible status ({why}): {v}")),
        }
    }

    /// A copy at the module's state `state` (none: the copy failed), with this status.
    fn copy(&self, state: Option<u32>) -> Box<dyn DynRules> {
        Box::new(ModuleGame {
            runner: self.runner,
            id: self.id,
            state,
            config: self.config.clone(),
            seats: self.seats,
            kind: self.kind,
            status: if state.is_some() {
                self.status.clone()
            } else {
                Status::default()
            },
            ply: self.ply,
        })
    }

    fn duplicate(&self, seed: Option<u64>) -> Option<u32> {
        let seed = seed.map(|s| format!(r#","seed":{s}"#)).unwrap_or_default();
        let request = format!(r#"{{"op":"clone","state":{}{seed}}}"#, self.state?);
        handle(&self.ok(&request)?)
    }
}

fn handle(v: &Value) -> Option<u32> {
    v.get("state")?.as_u64().and_then(|s| u32::try_from(s).ok())
}

/// A seat of a game of `seats` seats.
fn seat_in(v: &Value, seats: usize) -> Result<Seat, String> {
    v.as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| *n < seats)
        .and_then(Seat::from_index)
        .ok_or_else(|| format!("seat {v}"))
}

fn scores(v: &Value, seats: usize) -> Result<Vec<i64>, String> {
    let list = v.as_array().ok_or("scores")?;
    let scores: Option<Vec<i64>> = list.iter().map(Value::as_i64).collect();
    match scores {
        Some(s) if s.len() == seats => Ok(s),
        _ => Err(format!("scores {v} for {seats} seats")),
    }
}

fn move_text(v: &Value) -> Result<Option<MoveText>, String> {
    match v {
        Value::Null => Ok(None),
        f => Ok(Some(f.as_str().and_then(MoveText::new).ok_or("forced")?)),
    }
}

/// A `status` answer, checked: version 2's `movers` (or version 1's `to_move`), a forced move
/// per mover, a score per seat, movers exactly when the game is not over, an outcome's
/// places a ranking of the seats.
fn status(v: &Value, seats: usize) -> Result<Status, String> {
    let movers: Vec<Seat> = match (&v["movers"], &v["to_move"]) {
        (Value::Array(m), _) => m
            .iter()
            .map(|s| seat_in(s, seats))
            .collect::<Result<_, _>>()?,
        (Value::Null, Value::Null) => Vec::new(),
        (Value::Null, one) => vec![seat_in(one, seats)?],
        _ => return Err("movers".into()),
    };
    if movers.windows(2).any(|w| w[0] >= w[1]) {
        return Err("movers out of order or twice".into());
    }
    let forced = match &v["forced"] {
        Value::Array(each) => each.iter().map(move_text).collect::<Result<Vec<_>, _>>()?,
        one if !movers.is_empty() => vec![move_text(one)?],
        _ => Vec::new(),
    };
    let forced = if forced.is_empty() {
        vec![None; movers.len()]
    } else {
        forced
    };
    if forced.len() != movers.len() {
        return Err("a forced move per mover".into());
    }
    let scores = scores(&v["scores"], seats)?;
    let outcome = match &v["outcome"] {
        Value::Null => None,
        o => {
            let mut o = o.clone();
            if o.get("scores").is_none() {
                o["scores"] = serde_json::json!(scores);
            }
            let read: arbiter_game::Outcome =
                serde_json::from_value(o).map_err(|e| format!("outcome: {e}"))?;
            read.check(seats)?;
            Some(ModuleOutcome {
                places: read.places,
                reason: read.reason,
            })
        }
    };
    if outcome.is_some() != movers.is_empty() {
        return Err("a side to move exactly when the game is over".into());
    }
    Ok(Status {
        movers,
        forced,
        scores,
        outcome,
    })
}

fn viewer_json(viewer: Viewer) -> String {
    match viewer {
        Viewer::All => "\"all\"".into(),
        Viewer::Public => "\"public\"".into(),
        Viewer::Seat(s) => s.index().to_string(),
    }
}

fn moves_json(moves: &[(Seat, MoveText)]) -> String {
    let each: Vec<String> = moves
        .iter()
        .map(|(s, m)| format!("[{},{}]", s.index(), quote(m.as_str())))
        .collect();
    format!("[{}]", each.join(","))
}

impl ModuleGame {
    /// A ply the module played (`answer` to `play`): the new status, a refusal's reason and
    /// seat, or the module's failure.
    fn played(&mut self, answer: Option<Reply>) -> Result<(), (Option<Seat>, String)> {
        let played = match answer {
            Some(Reply::Ok(_)) => self.read_status(),
            Some(Reply::Illegal(why)) => return Err((None, why)),
            Some(Reply::Refused(why)) => self.fail(format!("refused a move: {why}")),
            None => None,
        };
        match played {
            Some(status) => {
                self.status = status;
                self.ply += 1;
                Ok(())
            }
            None => {
                self.status = Status::default();
                Err((
                    None,
                    self.fault()
                        .unwrap_or_else(|| "the game module failed".into()),
                ))
            }
        }
    }
}

impl DynRules for ModuleGame {
    fn clone_box(&self) -> Box<dyn DynRules> {
        self.copy(self.duplicate(None))
    }

    fn reseeded(&self, seed: u64) -> Box<dyn DynRules> {
        self.copy(self.duplicate(Some(seed)))
    }

    /// The player searches nothing: a reseeded copy.
    fn sampled(&self, _seat: Seat, seed: u64) -> Box<dyn DynRules> {
        self.reseeded(seed)
    }

    fn config(&self) -> &ModuleConfig {
        &self.config
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn kind(&self) -> GameKind {
        self.kind
    }

    fn turn(&self) -> Turn {
        if self.fault().is_some() {
            return Turn::Over;
        }
        match self.status.movers.as_slice() {
            [] => Turn::Over,
            [one] => Turn::Seat(*one),
            many => Turn::Together(many.iter().copied().collect()),
        }
    }

    fn forced_move(&self, seat: Seat) -> Option<MoveText> {
        let i = self.status.movers.iter().position(|&m| m == seat)?;
        self.status.forced.get(i).copied().flatten()
    }

    fn legal_moves(&self, seat: Seat) -> Vec<MoveText> {
        if !self.status.movers.contains(&seat) {
            return Vec::new();
        }
        let Some(state) = self.state else {
            return Vec::new();
        };
        let request = format!(
            r#"{{"op":"legal","state":{state},"seat":{}}}"#,
            seat.index()
        );
        let Some(v) = self.ok(&request) else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        for m in v.as_array().map_or(&[Value::Null][..], Vec::as_slice) {
            match m.as_str().and_then(MoveText::new) {
                Some(m) => moves.push(m),
                None => {
                    self.fail::<()>(format!("answered legal with {m} among its moves"));
                    return Vec::new();
                }
            }
        }
        moves
    }

    fn play(&mut self, mv: &str) -> Result<(), String> {
        let request = self
            .state
            .map(|s| format!(r#"{{"op":"play","state":{s},"move":{}}}"#, quote(mv)));
        let answer = request.and_then(|r| self.reply(&r));
        self.played(answer).map_err(|(_, why)| why)
    }

    fn play_together(&mut self, moves: &[(Seat, MoveText)]) -> Result<(), (Seat, String)> {
        let request = self.state.map(|s| {
            format!(
                r#"{{"op":"play","state":{s},"moves":{}}}"#,
                moves_json(moves)
            )
        });
        let answer = request.and_then(|r| self.reply(&r));
        let first = moves.first().map_or(Seat::FIRST, |m| m.0);
        self.played(answer)
            .map_err(|(seat, why)| (seat.unwrap_or(first), why))
    }

    fn outcome(&self) -> Option<ModuleOutcome> {
        self.fault()
            .is_none()
            .then(|| self.status.outcome.clone())?
    }

    fn ply(&self) -> usize {
        self.ply
    }

    fn scores(&self) -> Vec<i64> {
        if self.status.scores.is_empty() {
            return vec![0; self.seats];
        }
        self.status.scores.clone()
    }

    fn tell(&self, _seat: Seat) -> String {
        // The player tells no bot anything.
        String::new()
    }

    /// The view, checked to be drawable (one that is not is the module's failure).
    fn view(&self, viewer: Viewer) -> String {
        let Some(state) = self.state else {
            return String::new();
        };
        let request = format!(
            r#"{{"op":"view","state":{state},"viewer":{}}}"#,
            viewer_json(viewer)
        );
        let Some(v) = self.ok(&request) else {
            return String::new();
        };
        match ModuleView::read(&v) {
            Ok(_) => v.to_string(),
            Err(why) => self
                .fail(format!("answered a view that cannot be drawn: {why}"))
                .unwrap_or_default(),
        }
    }

    fn reveal(&self, moves: &[(Seat, MoveText)], to: Viewer) -> Vec<Option<String>> {
        let every = || moves.iter().map(|(_, m)| Some(m.to_string())).collect();
        if to == Viewer::All {
            return every();
        }
        let Some(state) = self.state else {
            return every();
        };
        let request = format!(
            r#"{{"op":"reveal","state":{state},"moves":{},"to":{}}}"#,
            moves_json(moves),
            viewer_json(to)
        );
        match self.reply(&request) {
            Some(Reply::Ok(Value::Array(told))) if told.len() == moves.len() => {
                told.iter().map(|t| t.as_str().map(String::from)).collect()
            }
            // A version 1 module does not know the op: it hides nothing.
            _ => every(),
        }
    }

    fn retire(&mut self, seat: Seat) -> bool {
        let Some(state) = self.state else {
            return false;
        };
        let request = format!(
            r#"{{"op":"retire","state":{state},"seat":{}}}"#,
            seat.index()
        );
        match self.reply(&request) {
            Some(Reply::Ok(Value::Bool(true))) => match self.read_status() {
                Some(status) => {
                    self.status = status;
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    fn fault(&self) -> Option<String> {
        self.runner.fault(self.id)
    }

    /// The `clicks` answer; `None` when the module has none (it answers an error).
    fn clicks(&self, seat: Seat) -> Option<String> {
        let state = self.state?;
        let request = format!(
            r#"{{"op":"clicks","state":{state},"seat":{}}}"#,
            seat.index()
        );
        match self.reply(&request)? {
            Reply::Ok(v) => Some(v.to_string()),
            _ => None,
        }
    }
}

impl Drop for ModuleGame {
    fn drop(&mut self) {
        // Frees the module's copy; nobody waits for the answer.
        if let (None, Some(r)) = (self.fault(), self.request("drop")) {
            let _ = self.runner.call(self.id, &r);
        }
    }
}

/// Opens module games through a runner.
pub struct Host(pub &'static dyn Runner);

/// The seats a game of `config` has: its `players`, or the module's first count.
fn seats_of(runner: &dyn Runner, id: u32, config: &str) -> usize {
    let given: Value = serde_json::from_str(config).unwrap_or(Value::Null);
    if let Some(n) = given["players"].as_u64() {
        return n as usize;
    }
    let info = runner
        .call(id, r#"{"op":"info"}"#)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .unwrap_or(Value::Null);
    match &info["ok"]["seats"] {
        Value::Array(counts) => counts.first().and_then(Value::as_u64).unwrap_or(2) as usize,
        v => v.as_u64().unwrap_or(2) as usize,
    }
}

fn kind_of(v: &Value) -> GameKind {
    let flag = |k: &str| v[k].as_bool().unwrap_or(false);
    GameKind {
        chance: flag("chance"),
        hidden: flag("hidden"),
        simultaneous: flag("simultaneous"),
    }
}

impl ModuleHost for Host {
    fn open(&self, config: &ModuleConfig) -> Result<Box<dyn DynRules>, ConfigError> {
        let m = &config.module;
        let id = self.0.find(&m.sha256).ok_or_else(|| {
            ConfigError::new(format!(
                "game module {} (sha256 {}) is not loaded here",
                m.name,
                super::short(&m.sha256)
            ))
        })?;
        let failed = || ConfigError::new(self.0.fault(id).unwrap_or_default());
        if self.0.fault(id).is_some() {
            return Err(failed());
        }
        let mut game = ModuleGame {
            runner: self.0,
            id,
            state: None,
            config: config.clone(),
            seats: seats_of(self.0, id, &config.config),
            kind: GameKind::default(),
            status: Status::default(),
            ply: 0,
        };
        let request = format!(
            r#"{{"op":"new","config":{},"seed":{}}}"#,
            config.config, config.seed
        );
        game.state = match game.reply(&request) {
            Some(Reply::Ok(v)) => {
                if let Some(n) = v["seats"].as_u64() {
                    game.seats = n as usize;
                }
                game.kind = kind_of(&v["kind"]);
                handle(&v)
            }
            Some(Reply::Refused(why)) => {
                return Err(ConfigError::new(format!(
                    "game module {} refuses the configuration {}: {why}",
                    m.name, config.config
                )))
            }
            _ => None,
        };
        if game.state.is_none() && self.0.fault(id).is_none() {
            game.fail::<()>("answered new without a state".into());
        }
        if !(1..=Seat::MAX).contains(&game.seats) {
            game.fail::<()>(format!("made a game of {} seats", game.seats));
        }
        game.status = game.read_status().ok_or_else(failed)?;
        Ok(Box::new(game))
    }
}

/// Checks that module `id` speaks an ABI this player reads (1 or 2) and has seats it can
/// draw (its `info`).
pub fn check_info(runner: &dyn Runner, id: u32) -> Result<(), String> {
    let text = runner.call(id, r#"{"op":"info"}"#)?;
    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let ok = &v["ok"];
    let counts: Vec<u64> = match &ok["seats"] {
        Value::Array(c) => c.iter().filter_map(Value::as_u64).collect(),
        n => n.as_u64().into_iter().collect(),
    };
    let abi = ok["abi"].as_u64().unwrap_or(1);
    let fits = !counts.is_empty() && counts.iter().all(|n| (1..=Seat::MAX as u64).contains(n));
    if fits && (1..=2).contains(&abi) && ok["name"].is_string() {
        return Ok(());
    }
    let what = if !fits && !counts.is_empty() {
        format!("has {counts:?} seats; arbiter plays 1 to {}", Seat::MAX)
    } else if !(1..=2).contains(&abi) {
        format!("speaks version {abi} of the ABI; this player reads 1 and 2")
    } else {
        format!(
            "answered info with {}",
            arbiter_game::config::cut(&v.to_string(), 60)
        )
    };
    runner.fail(id, what);
    Err(runner.fault(id).unwrap_or_default())
}
