//! The engine's module game (`DynRules`) and module host over a [`Runner`]: requests of the
//! ABI written as JSON text, every answer checked (a module that answers nonsense fails, and
//! is not called again), the status kept so that the engine's questions cost no call.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use arbiter_engine::error::ConfigError;
use arbiter_engine::module::{DynRules, ModuleConfig, ModuleHost, ModuleOutcome, MoveText};
use arbiter_engine::Seat;
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
    to_move: Option<Seat>,
    forced: Option<MoveText>,
    scores: [i64; 2],
    outcome: Option<ModuleOutcome>,
}

/// A position: a state inside a module instance, with its status.
pub struct ModuleGame {
    runner: &'static dyn Runner,
    id: u32,
    /// `None` once the module failed while making this position.
    state: Option<u32>,
    config: ModuleConfig,
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
        match status(&v) {
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

/// A seat of a two-seat game.
fn seat_of(v: &Value) -> Result<Option<Seat>, String> {
    match v {
        Value::Null => Ok(None),
        v => match v.as_u64().and_then(|n| Seat::from_index(n as usize)) {
            Some(s) => Ok(Some(s)),
            None => Err(format!("seat {v}")),
        },
    }
}

fn scores(v: &Value) -> Result<[i64; 2], String> {
    match v.as_array().map(Vec::as_slice) {
        Some([a, b]) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => Ok([a, b]),
            _ => Err("scores".into()),
        },
        _ => Err("scores".into()),
    }
}

/// A `status` answer, checked: seats of the game, two scores, a side to move exactly when
/// the game is not over, a forced move that is one word.
fn status(v: &Value) -> Result<Status, String> {
    let to_move = seat_of(&v["to_move"])?;
    let forced = match &v["forced"] {
        Value::Null => None,
        f => Some(f.as_str().and_then(MoveText::new).ok_or("forced")?),
    };
    let outcome = match &v["outcome"] {
        Value::Null => None,
        o => Some(ModuleOutcome {
            winner: seat_of(&o["winner"])?,
            reason: o["reason"].as_str().ok_or("reason")?.to_string(),
        }),
    };
    if outcome.is_some() == to_move.is_some() {
        return Err("a side to move exactly when the game is over".into());
    }
    Ok(Status {
        to_move,
        forced,
        scores: scores(&v["scores"])?,
        outcome,
    })
}

impl DynRules for ModuleGame {
    fn clone_box(&self) -> Box<dyn DynRules> {
        self.copy(self.duplicate(None))
    }

    fn reseeded(&self, seed: u64) -> Box<dyn DynRules> {
        self.copy(self.duplicate(Some(seed)))
    }

    fn config(&self) -> &ModuleConfig {
        &self.config
    }

    fn to_move(&self) -> Option<Seat> {
        self.fault()
            .is_none()
            .then_some(self.status.to_move)
            .flatten()
    }

    fn forced_move(&self) -> Option<MoveText> {
        self.status.forced
    }

    fn legal_moves(&self) -> Vec<MoveText> {
        let Some(v) = self.request("legal").and_then(|r| self.ok(&r)) else {
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
        let played = match request.and_then(|r| self.reply(&r)) {
            Some(Reply::Ok(_)) => self.read_status(),
            Some(Reply::Illegal(why)) => return Err(why),
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
                Err(self
                    .fault()
                    .unwrap_or_else(|| "the game module failed".into()))
            }
        }
    }

    fn outcome(&self) -> Option<ModuleOutcome> {
        self.fault()
            .is_none()
            .then(|| self.status.outcome.clone())?
    }

    fn ply(&self) -> usize {
        self.ply
    }

    fn scores(&self) -> [i64; 2] {
        self.status.scores
    }

    fn tell(&self, _seat: Seat) -> String {
        // The player tells no bot anything.
        String::new()
    }

    /// The view, checked to be drawable (one that is not is the module's failure).
    fn view(&self) -> String {
        let Some(v) = self.request("view").and_then(|r| self.ok(&r)) else {
            return String::new();
        };
        match ModuleView::read(&v) {
            Ok(_) => v.to_string(),
            Err(why) => self
                .fail(format!("answered a view that cannot be drawn: {why}"))
                .unwrap_or_default(),
        }
    }

    fn fault(&self) -> Option<String> {
        self.runner.fault(self.id)
    }

    /// The `clicks` answer; `None` when the module has none (it answers an error).
    fn clicks(&self) -> Option<String> {
        match self.reply(&self.request("clicks")?)? {
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
            status: Status::default(),
            ply: 0,
        };
        let request = format!(
            r#"{{"op":"new","config":{},"seed":{}}}"#,
            config.config, config.seed
        );
        game.state = match game.reply(&request) {
            Some(Reply::Ok(v)) => handle(&v),
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
        game.status = game.read_status().ok_or_else(failed)?;
        Ok(Box::new(game))
    }
}

/// Checks that module `id` is a two-seat game of this ABI (its `info`).
pub fn check_info(runner: &dyn Runner, id: u32) -> Result<(), String> {
    let text = runner.call(id, r#"{"op":"info"}"#)?;
    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let seats = v["ok"]["seats"].as_u64();
    if seats == Some(2) && v["ok"]["name"].is_string() {
        return Ok(());
    }
    let what = match seats {
        Some(n) => format!("has {n} seats; arbiter plays 2"),
        None => format!(
            "answered info with {}",
            v.to_string().get(..60).unwrap_or("")
        ),
    };
    runner.fail(id, what);
    Err(runner.fault(id).unwrap_or_default())
}
