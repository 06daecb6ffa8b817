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

use crate::{Game, Seat, Turn, Viewer};

/// Bumped on any change a module built for the previous version would not survive. Version 2
/// adds seat counts, simultaneous turns, viewers, reveals, samples, retirement and rankings;
/// hosts still load version 1 modules (two seats, one mover, `winner`).
pub const ABI_VERSION: u32 = 2;

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
    moves: Option<Vec<(usize, String)>>,
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    viewer: Option<Value>,
    #[serde(default)]
    to: Option<Value>,
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

fn ok(v: Value) -> Answer {
    Ok(json!({ "ok": v }))
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
        match req.op.as_str() {
            "info" => ok(info::<G>()),
            "new" => self.start(req),
            "clone" => {
                let mut copy = self.get(req)?.clone();
                if let Some(seed) = req.seed {
                    copy.reseed(seed);
                }
                ok(json!({ "state": self.insert(copy) }))
            }
            "sample" => {
                let g = self.get(req)?;
                let seat = seat_of(g, req.seat)?;
                let copy = g.sample(seat, req.seed.unwrap_or(0));
                ok(json!({ "state": self.insert(copy) }))
            }
            "drop" => {
                let i = self.slot(req)?;
                self.states[i] = None;
                ok(Value::Null)
            }
            "status" => ok(status(self.get(req)?)),
            "legal" => {
                let g = self.get(req)?;
                let seat = mover_of(g, req.seat)?;
                let texts: Vec<String> = crate::legal(g, seat)
                    .iter()
                    .map(|m| g.format_move(m))
                    .collect();
                ok(json!(texts))
            }
            "play" => {
                let moves = turn_moves(self.get(req)?, req)?;
                let g = self.get_mut(req)?;
                match crate::play_joint(g, &moves) {
                    Ok(()) => ok(Value::Null),
                    Err((seat, reason)) => Ok(json!({ "illegal": reason, "seat": seat })),
                }
            }
            "reveal" => {
                let g = self.get(req)?;
                let to = viewer(g, req.to.as_ref())?;
                let moves = parsed_moves(g, req.moves.as_deref().unwrap_or_default())?;
                let told: Vec<Option<String>> = moves
                    .iter()
                    .map(|(by, mv)| match to {
                        Viewer::Seat(s) if s == *by => Some(g.format_move(mv)),
                        _ => g.reveal(*by, mv, to),
                    })
                    .collect();
                ok(json!(told))
            }
            "retire" => {
                let g = self.get_mut(req)?;
                let seat = seat_of(g, req.seat)?;
                ok(json!(g.retire(seat)))
            }
            "playout" => {
                let g = self.get_mut(req)?;
                let plies = crate::playout::random_playout(g, req.seed.unwrap_or(0));
                ok(json!({ "plies": plies, "status": status(g) }))
            }
            "tell" => {
                let g = self.get(req)?;
                let seat = seat_of(g, req.seat)?;
                ok(json!(g.tell(seat)))
            }
            "view" => {
                let g = self.get(req)?;
                let v = g.view(viewer(g, req.viewer.as_ref())?);
                ok(serde_json::to_value(v).map_err(error)?)
            }
            "clicks" => {
                let g = self.get(req)?;
                clicks(g, mover_of(g, req.seat)?).map(|c| json!({ "ok": c }))
            }
            other => Err(error(alloc::format!(
                "unknown op {:?}",
                crate::config::cut(other, 40)
            ))),
        }
    }

    fn start(&mut self, req: &Request) -> Answer {
        let config = req.config.clone().unwrap_or_else(|| json!({}));
        crate::config::check_keys(&config, G::CONFIG_KEYS.unwrap_or_default())
            .or_else(|e| match G::CONFIG_KEYS {
                // Undeclared keys are the game's to read; only the shape is checked.
                None if config.is_object() => Ok(()),
                _ => Err(e),
            })
            .map_err(error)?;
        let game = G::new(&config, req.seed.unwrap_or(0)).map_err(error)?;
        let seats = game.seats();
        if !G::SEATS.contains(&seats) || game.scores().len() != seats {
            return Err(error(alloc::format!(
                "the game was built with {seats} seats and {} scores, outside its seats {:?}",
                game.scores().len(),
                G::SEATS
            )));
        }
        let kind = game.kind();
        ok(json!({ "state": self.insert(game), "seats": seats, "kind": kind }))
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

/// The `info` answer: who the module is and what shape its game has.
fn info<G: Game>() -> Value {
    json!({
        "name": G::NAME,
        "version": G::VERSION,
        "abi": ABI_VERSION,
        "seats": G::SEATS,
        "kind": G::KIND,
        "config_keys": G::CONFIG_KEYS,
    })
}

/// A seat of the game.
fn seat_of<G: Game>(g: &G, seat: Option<usize>) -> Result<Seat, Value> {
    seat.filter(|s| *s < g.seats())
        .ok_or_else(|| error("this op needs a seat of the game"))
}

/// The seat a request is about among the movers: the one given, or the only mover.
fn mover_of<G: Game>(g: &G, seat: Option<usize>) -> Result<Seat, Value> {
    match (g.turn(), seat) {
        (_, Some(s)) if s < g.seats() => Ok(s),
        (_, Some(_)) => Err(error("this op needs a seat of the game")),
        (Turn::Seat(s), None) => Ok(s),
        (Turn::Together(_), None) => Err(error("a simultaneous turn: say which seat")),
        // Over: nobody moves; any seat answers "no moves".
        (Turn::Over, None) => Ok(0),
    }
}

/// `"all"` (or nothing), `"public"`, or a seat.
fn viewer<G: Game>(g: &G, v: Option<&Value>) -> Result<Viewer, Value> {
    match v {
        None => Ok(Viewer::All),
        Some(Value::String(s)) if s == "all" => Ok(Viewer::All),
        Some(Value::String(s)) if s == "public" => Ok(Viewer::Public),
        Some(n) => n
            .as_u64()
            .map(|s| s as usize)
            .filter(|s| *s < g.seats())
            .map(Viewer::Seat)
            .ok_or_else(|| error("a viewer is \"all\", \"public\" or a seat of the game")),
    }
}

/// The moves of a `play` request, parsed, in seat order: `move` for a turn of one seat,
/// `moves` (`[[seat, move], ...]`) for any turn.
fn turn_moves<G: Game>(g: &G, req: &Request) -> Result<Vec<(Seat, G::Move)>, Value> {
    let given: Vec<(usize, String)> = match (&req.moves, &req.mv, g.turn()) {
        (Some(moves), None, _) => moves.clone(),
        (None, Some(mv), Turn::Seat(s)) => alloc::vec![(req.seat.unwrap_or(s), mv.clone())],
        (None, Some(_), Turn::Together(_)) => {
            return Err(error(
                "a simultaneous turn: send every mover's move as moves",
            ))
        }
        // A move after the end is an illegal move, not a malformed request, refused in the
        // game's own words.
        (None, Some(mv), Turn::Over) => alloc::vec![(req.seat.unwrap_or(0), mv.clone())],
        _ => return Err(error("play needs a move, or moves")),
    };
    let mut moves = parsed_moves(g, &given)?;
    moves.sort_by_key(|(s, _)| *s);
    Ok(moves)
}

fn parsed_moves<G: Game>(g: &G, given: &[(usize, String)]) -> Result<Vec<(Seat, G::Move)>, Value> {
    given
        .iter()
        .map(|(seat, text)| {
            if *seat >= g.seats() {
                return Err(error(alloc::format!(
                    "seat {seat} is not a seat of the game"
                )));
            }
            g.parse_move(text)
                .map(|m| (*seat, m))
                .map_err(|why| json!({ "illegal": why, "seat": seat }))
        })
        .collect()
}

fn status<G: Game>(g: &G) -> Value {
    let movers: Vec<Seat> = g.turn().movers().iter().collect();
    let forced: Vec<Option<String>> = movers
        .iter()
        .map(|s| g.forced_move(*s).map(|m| g.format_move(&m)))
        .collect();
    json!({
        "movers": movers,
        "forced": forced,
        "scores": g.scores(),
        "outcome": g.outcome(),
    })
}

/// `[{"move": "d1-d7/g7", "cells": [[3, 9], [3, 3], [6, 3]]}, {"move": "a1-b1", "line":
/// [[0, 5], [1, 5]]}, ...]` for every legal move of `seat`; an error when the game does not
/// say how its moves are clicked (the player then lists the moves).
fn clicks<G: Game>(g: &G, seat: Seat) -> Answer {
    let moves = crate::legal(g, seat);
    let mut out = Vec::with_capacity(moves.len());
    for m in &moves {
        let name = g.format_move(m);
        out.push(match g.clicks(seat, m) {
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
    use crate::{Json, Kind, Outcome, Seat, SeatSet};

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
        fn turn(&self) -> Turn {
            Turn::of((self.left > 0).then_some(self.turn))
        }
        fn legal_moves(&self, _seat: Seat, out: &mut Vec<u8>) {
            out.extend((1..=self.left.min(2)).filter(|_| self.left > 0));
        }
        fn play(&mut self, mv: &u8) -> Result<(), String> {
            if !(1..=self.left.min(2)).contains(mv) {
                return Err("take one or two".into());
            }
            self.left -= mv;
            self.turn = 1 - self.turn;
            Ok(())
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.left == 0).then(|| Outcome::win(Some(1 - self.turn), 2, "took the last"))
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
        fn view(&self, _viewer: Viewer) -> View {
            View::board(Grid::Cells, 3, 1)
        }
        fn clicks(&self, _seat: Seat, mv: &u8) -> Option<crate::Clicks> {
            self.clicky
                .then(|| crate::Clicks::Cells(alloc::vec![[u16::from(*mv) - 1, 0]]))
        }
    }

    /// Two to four seats each bid 1..3 at once, three rounds; bids stay sealed (only the
    /// round's highest bid is revealed); the highest total wins.
    #[derive(Clone)]
    struct Bids {
        seats: usize,
        round: u8,
        totals: Vec<i64>,
    }

    impl Game for Bids {
        type Move = u8;
        const NAME: &'static str = "bids";
        const VERSION: &'static str = "1";
        const SEATS: &'static [usize] = &[2, 3, 4];
        const KIND: Kind = Kind {
            chance: false,
            hidden: true,
            simultaneous: true,
        };
        const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&[]);
        fn new(config: &Json, _seed: u64) -> Result<Self, String> {
            let seats = crate::players(config, Self::SEATS)?;
            Ok(Bids {
                seats,
                round: 0,
                totals: alloc::vec![0; seats],
            })
        }
        fn seats(&self) -> usize {
            self.seats
        }
        fn turn(&self) -> Turn {
            if self.round == 3 {
                Turn::Over
            } else {
                Turn::Together(SeatSet::first(self.seats))
            }
        }
        fn legal_moves(&self, _seat: Seat, out: &mut Vec<u8>) {
            if self.round < 3 {
                out.extend(1..=3);
            }
        }
        fn play_together(&mut self, moves: &[(Seat, u8)]) -> Result<(), (Seat, String)> {
            if moves.len() != self.seats {
                return Err((0, "one bid per seat".into()));
            }
            if let Some((s, _)) = moves.iter().find(|(_, b)| !(1..=3).contains(b)) {
                return Err((*s, "bid 1, 2 or 3".into()));
            }
            for (s, b) in moves {
                self.totals[*s] += i64::from(*b);
            }
            self.round += 1;
            Ok(())
        }
        fn outcome(&self) -> Option<Outcome> {
            (self.round == 3).then(|| Outcome::by_scores(self.totals.clone(), "most bid"))
        }
        fn scores(&self) -> Vec<i64> {
            self.totals.clone()
        }
        fn parse_move(&self, text: &str) -> Result<u8, String> {
            text.parse().map_err(|_| "a number".into())
        }
        fn format_move(&self, mv: &u8) -> String {
            alloc::format!("{mv}")
        }
        fn tell(&self, seat: Seat) -> String {
            alloc::format!("ROUND {}\nMINE {}", self.round, self.totals[seat])
        }
        fn view(&self, viewer: Viewer) -> View {
            let mut v = View::board(Grid::Cells, 4, 1);
            for s in 0..self.seats {
                if viewer.sees_seat(s) {
                    v.text.push(alloc::format!("{s}: {}", self.totals[s]));
                }
            }
            v
        }
        fn reveal(&self, _by: Seat, _mv: &u8, _to: Viewer) -> Option<String> {
            Some("bid".into())
        }
    }

    fn ask<G: Game>(s: &mut Session<G>, request: Value) -> Value {
        let bytes = serde_json::to_vec(&request).unwrap();
        serde_json::from_slice(&s.call(&bytes)).unwrap()
    }

    #[test]
    fn info_says_the_shape_and_new_picks_the_seats() {
        let mut s = Session::<Bids>::new();
        let info = ask(&mut s, json!({"op": "info"}))["ok"].clone();
        assert_eq!(info["abi"], 2);
        assert_eq!(info["seats"], json!([2, 3, 4]));
        assert_eq!(info["kind"]["simultaneous"], true);
        assert_eq!(info["config_keys"], json!([]));
        let three = ask(&mut s, json!({"op": "new", "config": {"players": 3}}));
        assert_eq!(three["ok"]["seats"], 3, "{three}");
        let five = ask(&mut s, json!({"op": "new", "config": {"players": 5}}));
        assert!(
            five["error"].as_str().unwrap().contains("players"),
            "{five}"
        );
        let typo = ask(&mut s, json!({"op": "new", "config": {"player": 3}}));
        assert!(
            typo["error"].as_str().unwrap().contains("\"player\""),
            "{typo}"
        );
        let not_object = ask(&mut s, json!({"op": "new", "config": 5}));
        assert!(not_object["error"].is_string(), "{not_object}");
        // Take declares no keys: any object goes to the game.
        let mut t = Session::<Take>::new();
        let any = ask(&mut t, json!({"op": "new", "config": {"clicky": 1}}));
        assert!(any["ok"]["state"].is_number(), "{any}");
        assert!(ask(&mut t, json!({"op": "new", "config": [7]}))["error"].is_string());
    }

    #[test]
    fn a_simultaneous_turn_is_played_in_one_request_in_any_order() {
        let mut s = Session::<Bids>::new();
        let a = ask(&mut s, json!({"op": "new", "config": {"players": 3}}))["ok"]["state"].clone();
        let b = ask(&mut s, json!({"op": "new", "config": {"players": 3}}))["ok"]["state"].clone();
        let st = ask(&mut s, json!({"op": "status", "state": a}))["ok"].clone();
        assert_eq!(st["movers"], json!([0, 1, 2]), "{st}");
        let one = ask(&mut s, json!({"op": "play", "state": a, "move": "2"}));
        assert!(
            one["error"].as_str().unwrap().contains("simultaneous"),
            "{one}"
        );
        let legal = ask(&mut s, json!({"op": "legal", "state": a, "seat": 1}));
        assert_eq!(legal["ok"], json!(["1", "2", "3"]));
        assert!(ask(&mut s, json!({"op": "legal", "state": a}))["error"].is_string());
        let fwd = json!({"op": "play", "state": a, "moves": [[0, "1"], [1, "3"], [2, "2"]]});
        let back = json!({"op": "play", "state": b, "moves": [[2, "2"], [1, "3"], [0, "1"]]});
        assert_eq!(ask(&mut s, fwd)["ok"], Value::Null);
        assert_eq!(ask(&mut s, back)["ok"], Value::Null);
        let sa = ask(&mut s, json!({"op": "status", "state": a}));
        assert_eq!(sa, ask(&mut s, json!({"op": "status", "state": b})));
        assert_eq!(sa["ok"]["scores"], json!([1, 3, 2]));
        let bad = ask(
            &mut s,
            json!({"op": "play", "state": a, "moves": [[0, "1"], [1, "9"], [2, "2"]]}),
        );
        assert_eq!(bad["seat"], 1, "{bad}");
        assert!(bad["illegal"].is_string(), "{bad}");
        assert_eq!(
            ask(&mut s, json!({"op": "status", "state": a})),
            sa,
            "refused: unchanged"
        );
    }

    #[test]
    fn viewers_and_reveals_keep_what_a_seat_may_not_see() {
        let mut s = Session::<Bids>::new();
        let a = ask(&mut s, json!({"op": "new"}))["ok"]["state"].clone();
        ask(
            &mut s,
            json!({"op": "play", "state": a, "moves": [[0, "3"], [1, "1"]]}),
        );
        let all = ask(&mut s, json!({"op": "view", "state": a}))["ok"]["text"].clone();
        assert_eq!(all, json!(["0: 3", "1: 1"]));
        let mine =
            ask(&mut s, json!({"op": "view", "state": a, "viewer": 1}))["ok"]["text"].clone();
        assert_eq!(mine, json!(["1: 1"]));
        let public = ask(
            &mut s,
            json!({"op": "view", "state": a, "viewer": "public"}),
        );
        assert_eq!(public["ok"]["text"], json!([]));
        assert!(ask(&mut s, json!({"op": "view", "state": a, "viewer": 7}))["error"].is_string());
        let told = ask(
            &mut s,
            json!({"op": "reveal", "state": a, "moves": [[0, "2"], [1, "3"]], "to": 1}),
        );
        // A seat is told its own move, and only "bid" of the other's.
        assert_eq!(told["ok"], json!(["bid", "3"]));
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
        // Over: no legal move, nothing to click, and a move is illegal.
        assert_eq!(
            ask(&mut s, json!({"op": "clicks", "state": plain})),
            json!({"ok": []})
        );
        let late = ask(&mut s, json!({"op": "play", "state": plain, "move": "1"}));
        assert!(late["illegal"].is_string(), "{late}");
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
            assert_eq!(ok["status"]["movers"], json!([]), "{answer}");
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
        // Simultaneous turns play out too.
        let mut b = Session::<Bids>::new();
        let st = ask(&mut b, json!({"op": "new", "config": {"players": 4}}))["ok"]["state"].clone();
        let out = ask(&mut b, json!({"op": "playout", "state": st, "seed": 3}));
        assert_eq!(out["ok"]["plies"], 3, "{out}");
        assert_eq!(
            out["ok"]["status"]["outcome"]["places"]
                .as_array()
                .unwrap()
                .len(),
            4
        );
    }

    #[test]
    fn perft_counts_joint_moves_of_simultaneous_turns() {
        let g = Bids::new(&json!({"players": 3}), 0).unwrap();
        assert_eq!(crate::perft(&g, 1), 27);
        assert_eq!(crate::perft(&g, 2), 27 * 27);
        assert_eq!(crate::perft(&g, 3), 27 * 27 * 27);
        assert_eq!(
            crate::perft(&g, 4),
            0,
            "over after three rounds: no leaf below"
        );
        let t = Take::new(&json!({}), 0).unwrap();
        assert_eq!(crate::perft(&t, 1), 2);
        assert_eq!(crate::perft(&t, 3), 1, "1+1+1 only");
    }
}
