//! The module's side of the ABI (specified in `docs/game-kit.md`): one JSON request in, one
//! JSON answer out, positions kept inside the module under integer handles.
//!
//! [`Session`] is the whole protocol and is plain safe Rust, so it is tested natively and a
//! host can also link a game natively through it. [`Table`] and [`export_game!`] only add the
//! four wasm exports around it.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cell::UnsafeCell;

use serde_json::{json, Value};

use crate::Game;

/// Bumped on any change a module built for the previous version would not survive.
pub const ABI_VERSION: u32 = 1;

/// A request as the host writes it.
#[derive(serde::Deserialize)]
struct Request {
    op: String,
    #[serde(default)]
    state: Option<u32>,
    #[serde(default)]
    config: Option<Value>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default, rename = "move")]
    mv: Option<String>,
    #[serde(default)]
    seat: Option<usize>,
}

/// The positions a module holds, and the requests that read and change them.
pub struct Session<G> {
    /// Handle `h` is `states[h - 1]`; freed slots are reused.
    states: Vec<Option<G>>,
}

impl<G> Default for Session<G> {
    fn default() -> Self {
        Session { states: Vec::new() }
    }
}

type Answer = Result<Value, Value>;

fn error(msg: impl ToString) -> Value {
    json!({ "error": msg.to_string() })
}

impl<G: Game> Session<G> {
    pub const fn new() -> Self {
        Session { states: Vec::new() }
    }

    /// Answers one request (JSON bytes) with JSON bytes; never panics on bad input.
    pub fn call(&mut self, request: &[u8]) -> Vec<u8> {
        let answer = match serde_json::from_slice::<Request>(request) {
            Ok(req) => self.answer(&req).unwrap_or_else(|e| e),
            Err(e) => error(alloc::format!("request is not valid JSON: {e}")),
        };
        serde_json::to_vec(&answer).unwrap_or_default()
    }

    fn answer(&mut self, req: &Request) -> Answer {
        let ok = |v: Value| Ok(json!({ "ok": v }));
        match req.op.as_str() {
            "info" => ok(json!({
                "name": G::NAME, "version": G::VERSION, "seats": G::SEATS, "abi": ABI_VERSION
            })),
            "new" => {
                let config = req.config.clone().unwrap_or_else(|| json!({}));
                let game = G::new(&config, req.seed.unwrap_or(0)).map_err(error)?;
                ok(json!({ "state": self.insert(game) }))
            }
            "clone" => {
                let mut copy = self.get(req)?.clone();
                if let Some(seed) = req.seed {
                    copy.reseed(seed);
                }
                ok(json!({ "state": self.insert(copy) }))
            }
            "drop" => {
                self.get(req)?;
                let h = req.state.unwrap_or(0) as usize;
                self.states[h - 1] = None;
                ok(Value::Null)
            }
            "status" => ok(status(self.get(req)?)),
            "legal" => {
                let g = self.get(req)?;
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                let texts: Vec<String> = moves.iter().map(|m| g.format_move(m)).collect();
                ok(json!(texts))
            }
            "play" => {
                let text = req
                    .mv
                    .as_deref()
                    .ok_or_else(|| error("play needs a move"))?;
                let g = self.get_mut(req)?;
                let played = g.parse_move(text).and_then(|m| g.play(&m));
                match played {
                    Ok(()) => ok(Value::Null),
                    Err(reason) => Ok(json!({ "illegal": reason })),
                }
            }
            "playout" => {
                let g = self.get_mut(req)?;
                let plies = crate::playout::random_playout(g, req.seed.unwrap_or(0));
                ok(json!({ "plies": plies, "status": status(g) }))
            }
            "tell" => {
                let seat = req.seat.filter(|s| *s < G::SEATS);
                let seat = seat.ok_or_else(|| error("tell needs a seat of the game"))?;
                ok(json!(self.get(req)?.tell(seat)))
            }
            "view" => ok(serde_json::to_value(self.get(req)?.view()).map_err(error)?),
            "clicks" => clicks(self.get(req)?).map(|c| json!({ "ok": c })),
            other => Err(error(alloc::format!("unknown op {other:?}"))),
        }
    }

    fn insert(&mut self, game: G) -> u32 {
        let free = self.states.iter().position(Option::is_none);
        let i = match free {
            Some(i) => {
                self.states[i] = Some(game);
                i
            }
            None => {
                self.states.push(Some(game));
                self.states.len() - 1
            }
        };
        i as u32 + 1
    }

    fn slot(&self, req: &Request) -> Result<usize, Value> {
        let h = req.state.ok_or_else(|| error("this op needs a state"))? as usize;
        match self.states.get(h.wrapping_sub(1)) {
            Some(Some(_)) => Ok(h - 1),
            _ => Err(error(alloc::format!("no state {h}"))),
        }
    }

    fn get(&self, req: &Request) -> Result<&G, Value> {
        let i = self.slot(req)?;
        self.states[i].as_ref().ok_or_else(|| error("no state"))
    }

    fn get_mut(&mut self, req: &Request) -> Result<&mut G, Value> {
        let i = self.slot(req)?;
        self.states[i].as_mut().ok_or_else(|| error("no state"))
    }
}

fn status<G: Game>(g: &G) -> Value {
    let forced = g.forced_move().map(|m| g.format_move(&m));
    json!({
        "to_move": g.to_move(),
        "forced": forced,
        "scores": g.scores(),
        "outcome": g.outcome(),
    })
}

/// `[{"move": "d1-d7/g7", "cells": [[3, 9], [3, 3], [6, 3]]}, {"move": "a1-b1", "line":
/// [[0, 5], [1, 5]]}, ...]` for every legal move; an error when the game does not say how its
/// moves are clicked (the player then lists the moves).
fn clicks<G: Game>(g: &G) -> Answer {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for m in &moves {
        let name = g.format_move(m);
        out.push(match g.clicks(m) {
            Some(crate::Clicks::Cells(cells)) => json!({ "move": name, "cells": cells }),
            Some(crate::Clicks::Line(a, b)) => json!({ "move": name, "line": [a, b] }),
            None => return Err(error("this game does not say how its moves are clicked")),
        });
    }
    Ok(Value::Array(out))
}

/// A module's session and its last answer, in a `static`.
pub struct Table<G> {
    inner: UnsafeCell<(Session<G>, Vec<u8>)>,
}

// SAFETY: core wasm modules without the threads proposal run on one thread; the host calls
// one export at a time.
unsafe impl<G> Sync for Table<G> {}

impl<G: Game> Table<G> {
    pub const fn new() -> Self {
        Table {
            inner: UnsafeCell::new((Session::new(), Vec::new())),
        }
    }

    /// `arbiter_call`: reads the request at `ptr`, keeps the answer until the next call and
    /// returns its address in the high 32 bits and its length in the low 32 bits.
    ///
    /// # Safety
    /// `ptr..ptr+len` must be readable memory (the host wrote the request there), and no other
    /// call may run at the same time.
    pub unsafe fn call(&self, ptr: *const u8, len: usize) -> u64 {
        let (session, out) = &mut *self.inner.get();
        let request = core::slice::from_raw_parts(ptr, len);
        *out = session.call(request);
        ((out.as_ptr() as usize as u64) << 32) | out.len() as u64
    }
}

impl<G: Game> Default for Table<G> {
    fn default() -> Self {
        Self::new()
    }
}

fn layout(len: usize) -> core::alloc::Layout {
    // Never zero-sized: the global allocator's contract forbids it.
    core::alloc::Layout::from_size_align(len.max(1), 1).unwrap_or(core::alloc::Layout::new::<u8>())
}

/// `arbiter_alloc`: `len` bytes for the host to write a request into; 0 when out of memory.
pub fn alloc(len: usize) -> *mut u8 {
    // SAFETY: the layout is never zero-sized.
    unsafe { alloc::alloc::alloc(layout(len)) }
}

/// `arbiter_free`: gives back what `arbiter_alloc(len)` returned.
///
/// # Safety
/// `ptr` must come from [`alloc`] with the same `len`, and be freed once.
pub unsafe fn free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        alloc::alloc::dealloc(ptr, layout(len));
    }
}

/// Exports a [`Game`] implementation as the module ABI's four functions (on wasm32 only, so
/// that several games can also be linked into one native program).
#[macro_export]
macro_rules! export_game {
    ($game:ty) => {
        #[cfg(target_arch = "wasm32")]
        mod arbiter_game_exports {
            use super::*;
            static TABLE: $crate::abi::Table<$game> = $crate::abi::Table::new();

            #[no_mangle]
            pub extern "C" fn arbiter_abi_version() -> u32 {
                $crate::abi::ABI_VERSION
            }

            #[no_mangle]
            pub extern "C" fn arbiter_alloc(len: usize) -> *mut u8 {
                $crate::abi::alloc(len)
            }

            /// # Safety
            /// See `arbiter_game::abi::free`.
            #[no_mangle]
            pub unsafe extern "C" fn arbiter_free(ptr: *mut u8, len: usize) {
                $crate::abi::free(ptr, len)
            }

            /// # Safety
            /// See `arbiter_game::abi::Table::call`.
            #[no_mangle]
            pub unsafe extern "C" fn arbiter_call(ptr: *const u8, len: usize) -> u64 {
                TABLE.call(ptr, len)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{Grid, View};
    use crate::{Json, Outcome, Seat};

    /// Take one or two from a heap of three; who takes the last wins. `clicky` says whether
    /// it tells how its moves are clicked (a cell per count taken).
    #[derive(Clone)]
    struct Take {
        left: u8,
        turn: Seat,
        clicky: bool,
    }

    impl Game for Take {
        type Move = u8;
        const NAME: &'static str = "take";
        const VERSION: &'static str = "1";
        fn new(config: &Json, _seed: u64) -> Result<Self, String> {
            let clicky = config.get("clicky").is_some();
            Ok(Take {
                left: 3,
                turn: 0,
                clicky,
            })
        }
        fn to_move(&self) -> Option<Seat> {
            (self.left > 0).then_some(self.turn)
        }
        fn legal_moves(&self, out: &mut Vec<u8>) {
            out.extend((1..=self.left.min(2)).filter(|_| self.left > 0));
        }
        fn play(&mut self, mv: &u8) -> Result<(), String> {
            self.left -= mv;
            self.turn = 1 - self.turn;
            Ok(())
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.left == 0).then(|| Outcome {
                winner: Some(1 - self.turn),
                scores: crate::win_scores(Some(1 - self.turn)),
                reason: "took the last".into(),
            })
        }
        fn scores(&self) -> Vec<i64> {
            alloc::vec![0, 0]
        }
        fn parse_move(&self, text: &str) -> Result<u8, String> {
            text.parse().map_err(|_| "a number".into())
        }
        fn format_move(&self, mv: &u8) -> String {
            alloc::format!("{mv}")
        }
        fn tell(&self, _seat: Seat) -> String {
            "x".into()
        }
        fn view(&self) -> View {
            View::board(Grid::Cells, 3, 1)
        }
        fn clicks(&self, mv: &u8) -> Option<crate::Clicks> {
            self.clicky
                .then(|| crate::Clicks::Cells(alloc::vec![[u16::from(*mv) - 1, 0]]))
        }
    }

    fn ask(s: &mut Session<Take>, request: Value) -> Value {
        let bytes = serde_json::to_vec(&request).unwrap();
        serde_json::from_slice(&s.call(&bytes)).unwrap()
    }

    #[test]
    fn clicks_answer_each_legal_move_or_an_error() {
        let mut s = Session::<Take>::new();
        let plain = ask(&mut s, json!({"op": "new"}))["ok"]["state"].clone();
        let clicky =
            ask(&mut s, json!({"op": "new", "config": {"clicky": true}}))["ok"]["state"].clone();
        let answer = ask(&mut s, json!({"op": "clicks", "state": clicky}));
        assert_eq!(
            answer,
            json!({"ok": [{"move": "1", "cells": [[0, 0]]}, {"move": "2", "cells": [[1, 0]]}]})
        );
        let answer = ask(&mut s, json!({"op": "clicks", "state": plain}));
        assert!(
            answer["error"].as_str().unwrap().contains("clicked"),
            "{answer}"
        );
        ask(&mut s, json!({"op": "play", "state": plain, "move": "2"}));
        ask(&mut s, json!({"op": "play", "state": plain, "move": "1"}));
        // Over: no legal move, nothing to click.
        assert_eq!(
            ask(&mut s, json!({"op": "clicks", "state": plain})),
            json!({"ok": []})
        );
        assert!(crate::check_clicks(&Take::new(&json!({"clicky": 1}), 0).unwrap()).is_ok());
    }

    #[test]
    fn a_playout_plays_the_state_to_its_end_and_answers_its_status() {
        let mut s = Session::<Take>::new();
        let mut ends = Vec::new();
        for seed in 0..40 {
            let st = ask(&mut s, json!({"op": "new"}))["ok"]["state"].clone();
            let answer = ask(&mut s, json!({"op": "playout", "state": st, "seed": seed}));
            let ok = &answer["ok"];
            let plies = ok["plies"].as_u64().unwrap();
            // Three taken as 1+1+1, 1+2 or 2+1.
            assert!((2..=3).contains(&plies), "{answer}");
            assert_eq!(ok["status"]["to_move"], Value::Null, "{answer}");
            assert_eq!(
                ok["status"],
                ask(&mut s, json!({"op": "status", "state": st}))["ok"]
            );
            ends.push(ok["status"]["outcome"]["winner"].as_u64().unwrap());
        }
        // Both seats win some random playouts (1+1+1 gives first the last, 1+2 and 2+1 second).
        assert!(ends.contains(&0) && ends.contains(&1), "{ends:?}");
        let over = ask(&mut s, json!({"op": "playout", "state": 1, "seed": 1}));
        assert_eq!(over["ok"]["plies"], 0, "a game over plays no ply");
        assert!(ask(&mut s, json!({"op": "playout", "state": 99}))["error"].is_string());
    }
}
