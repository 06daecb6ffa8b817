//! arbiter-kit-host: runs game-kit games for the referee and the tools.
//!
//! A game is reached through [`Kit`]: one JSON request in, one JSON answer out (the ABI of
//! `docs/game-kit.md`). [`WasmKit`] runs a module in wasmi, bounded; [`NativeKit`] links a
//! Rust [`arbiter_game::Game`] directly through the same requests. [`Rules`] wraps either in
//! typed calls and checks every answer, so a module that answers nonsense is an error naming
//! it, never a panic.

pub mod accept;
pub mod build;
pub mod check;
pub mod host;
pub mod module_file;
pub mod template;
mod wasm;

use std::fmt;
use std::path::Path;

use arbiter_game::abi::Session;
use arbiter_game::{Kind, Outcome, View, Viewer, MAX_SEATS};
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

/// A module's `info`: version 1 modules answer `"seats": 2` and nothing of their kind;
/// version 2 modules a range of seats, their kind and their config keys.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Info {
    pub name: String,
    pub version: String,
    pub abi: u32,
    /// The seat counts the game can be played with, smallest first.
    pub seats: Vec<usize>,
    pub kind: Kind,
    /// The config keys the module reads besides `players`, when it says (version 2).
    pub config_keys: Option<Vec<String>>,
}

impl<'de> serde::Deserialize<'de> for Info {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Info, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Seats {
            One(usize),
            Each(Vec<usize>),
        }
        #[derive(serde::Deserialize)]
        struct Written {
            name: String,
            version: String,
            abi: u32,
            seats: Seats,
            #[serde(default)]
            kind: Option<Kind>,
            #[serde(default)]
            config_keys: Option<Vec<String>>,
        }
        let w = Written::deserialize(d)?;
        Ok(Info {
            name: w.name,
            version: w.version,
            abi: w.abi,
            seats: match w.seats {
                Seats::One(n) => vec![n],
                Seats::Each(each) => each,
            },
            kind: w.kind.unwrap_or(Kind::PLAIN),
            config_keys: w.config_keys,
        })
    }
}

/// A position's `status`, as version 2 answers it (version 1's `to_move` and single `forced`
/// are read into the same shape).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Status {
    /// The seats that move now, lowest first (several in a simultaneous turn; none once over).
    pub movers: Vec<usize>,
    /// Each mover's forced move, if it has no choice.
    pub forced: Vec<Option<String>>,
    pub scores: Vec<i64>,
    pub outcome: Option<Outcome>,
}

impl Status {
    /// The one seat to move in a turn of one seat.
    pub fn to_move(&self) -> Option<usize> {
        match self.movers.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// The forced move of the one seat to move.
    pub fn forced_move(&self) -> Option<&str> {
        match self.forced.as_slice() {
            [Some(f)] => Some(f),
            _ => None,
        }
    }
}

impl<'de> serde::Deserialize<'de> for Status {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Status, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Forced {
            One(Option<String>),
            Each(Vec<Option<String>>),
        }
        #[derive(serde::Deserialize)]
        struct Written {
            #[serde(default)]
            movers: Option<Vec<usize>>,
            #[serde(default)]
            to_move: Option<usize>,
            #[serde(default)]
            forced: Option<Forced>,
            scores: Vec<i64>,
            #[serde(default)]
            outcome: Option<Outcome>,
        }
        let w = Written::deserialize(d)?;
        let movers = w.movers.unwrap_or_else(|| w.to_move.into_iter().collect());
        let forced = match w.forced {
            Some(Forced::Each(each)) => each,
            Some(Forced::One(one)) if !movers.is_empty() => vec![one],
            _ => vec![None; movers.len()],
        };
        Ok(Status {
            movers,
            forced,
            scores: w.scores,
            outcome: w.outcome,
        })
    }
}

/// A position held by the module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State(pub u32);

/// A game module with typed, checked calls.
pub struct Rules {
    kit: Box<dyn Kit>,
    info: Info,
    /// The seat count and kind of each position this host made (checks every answer about
    /// it).
    games: std::collections::HashMap<u32, (usize, Kind)>,
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rules({} {})", self.info.name, self.info.version)
    }
}

#[derive(serde::Deserialize)]
struct NewState {
    state: u32,
    #[serde(default)]
    seats: Option<usize>,
    #[serde(default)]
    kind: Option<Kind>,
}

impl Rules {
    /// Asks the module who it is and checks the answer.
    pub fn new(mut kit: Box<dyn Kit>) -> Result<Rules, KitError> {
        let info: Info = ask(kit.as_mut(), json!({"op": "info"}))?;
        let counts = &info.seats;
        let fits = !counts.is_empty()
            && counts.iter().all(|n| (1..=MAX_SEATS).contains(n))
            && counts.windows(2).all(|w| w[0] < w[1]);
        if !fits || (info.abi < 2 && counts != &[2]) {
            return Err(module_error(
                kit.as_ref(),
                format!(
                    "says it has {counts:?} seats: a game has 1 to {MAX_SEATS}, listed smallest \
                     first (a version 1 module two)"
                ),
            ));
        }
        if !(1..=arbiter_game::abi::ABI_VERSION).contains(&info.abi) {
            return Err(module_error(
                kit.as_ref(),
                format!(
                    "speaks version {} of the ABI; this arbiter speaks 1 to {}",
                    info.abi,
                    arbiter_game::abi::ABI_VERSION
                ),
            ));
        }
        Ok(Rules {
            kit,
            info,
            games: Default::default(),
        })
    }

    /// Loads a module file under the default bounds.
    pub fn load(path: &Path) -> Result<Rules, KitError> {
        let bytes = module_file::read(path)?;
        let label = module_file::label(path);
        Rules::new(Box::new(WasmKit::load(&bytes, &label, Bounds::default())?))
    }

    /// A natively linked Rust game.
    pub fn native<G: arbiter_game::Game + Send + 'static>() -> Rules {
        // The native session answers `info` from constants; it cannot fail.
        let kit: Box<dyn Kit> = Box::new(NativeKit::<G>::default());
        let info = Info {
            name: G::NAME.into(),
            version: G::VERSION.into(),
            abi: arbiter_game::abi::ABI_VERSION,
            seats: G::SEATS.to_vec(),
            kind: G::KIND,
            config_keys: G::CONFIG_KEYS.map(|k| k.iter().map(|s| s.to_string()).collect()),
        };
        Rules {
            kit,
            info,
            games: Default::default(),
        }
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

    /// The seat count of a position this host made (two for a version 1 module).
    pub fn seats(&self, s: State) -> usize {
        self.games
            .get(&s.0)
            .map_or_else(|| self.default_seats(), |g| g.0)
    }

    /// What a position's game has under its config (at most what `info` says).
    pub fn kind(&self, s: State) -> Kind {
        self.games.get(&s.0).map_or(self.info.kind, |g| g.1)
    }

    /// The seat count of a game whose config does not pick one: the first the module allows.
    pub fn default_seats(&self) -> usize {
        self.info.seats.first().copied().unwrap_or(2)
    }

    /// A new position from the answer to `new`, `clone` or `sample`, with its seat count (the
    /// copied position's for a copy).
    fn made(&mut self, n: NewState, seats: usize) -> Result<State, KitError> {
        let seats = n.seats.unwrap_or(seats);
        if !self.info.seats.contains(&seats) {
            return Err(self.garbage(format!(
                "made a game of {seats} seats, not one of its own {:?}",
                self.info.seats
            )));
        }
        let whole = self.info.kind;
        let kind = n.kind.unwrap_or(whole);
        let more = |own: bool, may: bool| own && !may;
        if more(kind.chance, whole.chance)
            || more(kind.hidden, whole.hidden)
            || more(kind.simultaneous, whole.simultaneous)
        {
            return Err(self.garbage(format!(
                "made a game of kind {kind:?}, more than its info's {whole:?}"
            )));
        }
        self.games.insert(n.state, (seats, kind));
        Ok(State(n.state))
    }

    /// Checks `config` against the keys the module declares, before the module reads it: a
    /// version 1 module, or one that declares none, checks its own.
    pub fn check_config(&self, config: &Value) -> Result<(), String> {
        let Some(object) = config.as_object() else {
            return Err(
                "a game's config must be a JSON object, such as {} or {\"size\": 8}".into(),
            );
        };
        if let Some(keys) = &self.info.config_keys {
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            arbiter_game::config::check_keys(config, &keys)?;
        }
        if self.info.abi < 2 {
            if let Some(p) = object.get(arbiter_game::config::PLAYERS) {
                if p.as_u64() != Some(2) {
                    return Err("players must be 2: this game has two seats".into());
                }
            }
        }
        Ok(())
    }

    /// The start position; a module's refusal of the configuration is `KitError::Refused`.
    pub fn start(&mut self, config: &Value, seed: u64) -> Result<State, KitError> {
        if let Err(why) = self.check_config(config) {
            return Err(KitError::Refused {
                module: self.label().to_string(),
                why,
            });
        }
        // A version 1 module knows no `players` key: it is the host's, checked above.
        let mut given = config.clone();
        if self.info.abi < 2 {
            if let Some(o) = given.as_object_mut() {
                o.remove(arbiter_game::config::PLAYERS);
            }
        }
        let n: NewState = self.ask(json!({"op": "new", "config": given, "seed": seed}))?;
        let default = self.default_seats();
        self.made(n, default)
    }

    pub fn duplicate(&mut self, s: State) -> Result<State, KitError> {
        let n: NewState = self.ask(json!({"op": "clone", "state": s.0}))?;
        self.copied(n, s)
    }

    /// A copy of `s`: its seats and kind.
    fn copied(&mut self, n: NewState, s: State) -> Result<State, KitError> {
        let (seats, kind) = (self.seats(s), self.kind(s));
        let made = self.made(n, seats)?;
        if let Some(g) = self.games.get_mut(&made.0) {
            g.1 = kind;
        }
        Ok(made)
    }

    /// A copy of `s` whose chance after the current ply comes from `seed` (a search's copy:
    /// it must not know the game's own future dice). A game without chance ignores the seed.
    pub fn duplicate_reseeded(&mut self, s: State, seed: u64) -> Result<State, KitError> {
        let n: NewState = self.ask(json!({"op": "clone", "state": s.0, "seed": seed}))?;
        self.copied(n, s)
    }

    /// A position `seat` cannot tell from `s`, its hidden part drawn from `seed` (version 2);
    /// a version 1 module hides nothing: a reseeded copy.
    pub fn sample(&mut self, s: State, seat: usize, seed: u64) -> Result<State, KitError> {
        if self.info.abi < 2 {
            return self.duplicate_reseeded(s, seed);
        }
        let req = json!({"op": "sample", "state": s.0, "seat": seat, "seed": seed});
        let n: NewState = self.ask(req)?;
        self.copied(n, s)
    }

    pub fn release(&mut self, s: State) -> Result<(), KitError> {
        self.ask::<Value>(json!({"op": "drop", "state": s.0}))?;
        self.games.remove(&s.0);
        Ok(())
    }

    pub fn status(&mut self, s: State) -> Result<Status, KitError> {
        let st: Status = self.ask(json!({"op": "status", "state": s.0}))?;
        self.possible(s, st)
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
            Ok(p) => Ok(Some((p.plies, self.possible(s, p.status)?))),
            Err(KitError::Refused { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `st`, unless no game of `s`'s seats could be in it.
    fn possible(&self, s: State, st: Status) -> Result<Status, KitError> {
        let seats = self.seats(s);
        if let Err(why) = status_fits(&st, seats) {
            return Err(self.garbage(format!("answered an impossible status: {why}")));
        }
        Ok(st)
    }

    /// The legal moves of `seat` (of the one seat to move when `None`).
    pub fn legal(&mut self, s: State) -> Result<Vec<String>, KitError> {
        self.ask(json!({"op": "legal", "state": s.0}))
    }

    /// The legal moves of `seat` in a turn it moves in.
    pub fn legal_of(&mut self, s: State, seat: usize) -> Result<Vec<String>, KitError> {
        if self.info.abi < 2 {
            return self.legal(s);
        }
        self.ask(json!({"op": "legal", "state": s.0, "seat": seat}))
    }

    /// Plays a move in the game's notation: `Ok(Err(reason))` when it is not legal.
    pub fn play(&mut self, s: State, mv: &str) -> Result<Result<(), String>, KitError> {
        let answer = call(
            self.kit.as_mut(),
            json!({"op": "play", "state": s.0, "move": mv}),
        )?;
        self.played(answer).map(|r| r.map_err(|(_, why)| why))
    }

    /// Plays a simultaneous turn, one move per mover: `Ok(Err((seat, reason)))` names a
    /// refused move's seat.
    pub fn play_together(
        &mut self,
        s: State,
        moves: &[(usize, String)],
    ) -> Result<Result<(), (usize, String)>, KitError> {
        let answer = call(
            self.kit.as_mut(),
            json!({"op": "play", "state": s.0, "moves": moves}),
        )?;
        let seats = self.seats(s);
        match self.played(answer)? {
            Err((Some(seat), why)) if seat < seats => Ok(Err((seat, why))),
            Err((_, why)) => Err(self.garbage(format!(
                "refused a simultaneous turn without naming a seat of the game: {why}"
            ))),
            Ok(()) => Ok(Ok(())),
        }
    }

    fn played(&self, answer: Value) -> Result<Result<(), (Option<usize>, String)>, KitError> {
        match answer {
            Value::Object(o) if o.contains_key("ok") => Ok(Ok(())),
            Value::Object(o) => match o.get("illegal") {
                Some(Value::String(why)) => {
                    let seat = o.get("seat").and_then(Value::as_u64).map(|s| s as usize);
                    Ok(Err((seat, why.clone())))
                }
                _ => Err(self.garbage(format!(
                    "answered play with {}",
                    cut(&Value::Object(o).to_string())
                ))),
            },
            other => Err(self.garbage(format!("answered play with {}", cut(&other.to_string())))),
        }
    }

    pub fn tell(&mut self, s: State, seat: usize) -> Result<String, KitError> {
        self.ask(json!({"op": "tell", "state": s.0, "seat": seat}))
    }

    /// What `to` (a seat, or `None` for the public) learns of each move of a ply about to be
    /// played in `s`: a version 1 module reveals every move.
    pub fn reveal(
        &mut self,
        s: State,
        moves: &[(usize, String)],
        to: Option<usize>,
    ) -> Result<Vec<Option<String>>, KitError> {
        if self.info.abi < 2 {
            return Ok(moves.iter().map(|(_, m)| Some(m.clone())).collect());
        }
        let to = to.map_or_else(|| json!("public"), |seat| json!(seat));
        let told: Vec<Option<String>> =
            self.ask(json!({"op": "reveal", "state": s.0, "moves": moves, "to": to}))?;
        if told.len() != moves.len() {
            return Err(self.garbage(format!(
                "revealed {} moves of a ply of {}",
                told.len(),
                moves.len()
            )));
        }
        Ok(told)
    }

    /// Takes a failed seat out (version 2): whether the game goes on without it.
    pub fn retire(&mut self, s: State, seat: usize) -> Result<bool, KitError> {
        if self.info.abi < 2 {
            return Ok(false);
        }
        self.ask(json!({"op": "retire", "state": s.0, "seat": seat}))
    }

    /// How a person clicks each legal move of `seat` (the optional `clicks` op): `None` when
    /// the module does not say (the player then lists the moves).
    pub fn clicks(&mut self, s: State) -> Result<Option<Vec<MoveClicks>>, KitError> {
        self.clicks_of(s, None)
    }

    /// [`Rules::clicks`] of `seat` in a simultaneous turn.
    pub fn clicks_of(
        &mut self,
        s: State,
        seat: Option<usize>,
    ) -> Result<Option<Vec<MoveClicks>>, KitError> {
        let mut req = json!({"op": "clicks", "state": s.0});
        if let (Some(seat), true) = (seat, self.info.abi >= 2) {
            req["seat"] = json!(seat);
        }
        match self.ask(req) {
            Ok(c) => Ok(Some(c)),
            Err(KitError::Refused { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The whole view, checked to be drawable.
    pub fn view(&mut self, s: State) -> Result<View, KitError> {
        self.view_as(s, Viewer::All)
    }

    /// The view as `viewer` sees it (a version 1 module draws one view for all).
    pub fn view_as(&mut self, s: State, viewer: Viewer) -> Result<View, KitError> {
        let mut req = json!({"op": "view", "state": s.0});
        if self.info.abi >= 2 {
            req["viewer"] = match viewer {
                Viewer::All => json!("all"),
                Viewer::Public => json!("public"),
                Viewer::Seat(seat) => json!(seat),
            };
        }
        let v: View = self.ask(req)?;
        let seats = self.seats(s);
        v.check(seats)
            .map_err(|e| self.garbage(format!("answered a view that cannot be drawn: {e}")))?;
        Ok(v)
    }

    fn garbage(&self, what: String) -> KitError {
        module_error(self.kit.as_ref(), what)
    }
}

/// Why a status cannot be a position of a game of `seats` seats, if it cannot.
pub fn status_fits(st: &Status, seats: usize) -> Result<(), String> {
    if st.scores.len() != seats {
        return Err(format!("{} scores for {seats} seats", st.scores.len()));
    }
    if st.movers.iter().any(|&m| m >= seats) {
        return Err(format!("movers {:?} in a game of {seats} seats", st.movers));
    }
    if st.movers.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!("movers {:?} out of order or twice", st.movers));
    }
    if st.forced.len() != st.movers.len() {
        return Err(format!(
            "{} forced moves for {} movers",
            st.forced.len(),
            st.movers.len()
        ));
    }
    match (&st.outcome, st.movers.is_empty()) {
        (Some(_), false) => return Err("a game over with seats still to move".into()),
        (None, true) => return Err("no seat to move, yet the game is not over".into()),
        _ => {}
    }
    if let Some(o) = &st.outcome {
        o.check(seats)?;
    }
    Ok(())
}

/// At most 200 characters of an answer, for messages.
fn cut(text: &str) -> String {
    arbiter_game::config::cut(text, 200)
}

/// One legal move and the clicks that make it: `cells` in order, or one `line` between two
/// corners or points.
#[derive(Clone, PartialEq, Eq, Debug, serde::Deserialize, serde::Serialize)]
pub struct MoveClicks {
    #[serde(rename = "move")]
    pub mv: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<[u16; 2]>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
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

/// Counts the leaves of the move tree to `depth`, through the module (forced plies count; a
/// simultaneous turn is one ply with a child per joint move; a finished game no leaf).
pub fn perft(rules: &mut Rules, s: State, depth: u32) -> Result<u64, KitError> {
    if depth == 0 {
        return Ok(1);
    }
    let st = rules.status(s)?;
    let joint = joint_moves(rules, s, &st)?;
    if depth == 1 {
        return Ok(joint.len() as u64);
    }
    let mut total = 0;
    for ply in &joint {
        let child = rules.duplicate(s)?;
        let refused = match ply.as_slice() {
            [(_, mv)] => rules.play(child, mv)?.err(),
            _ => rules.play_together(child, ply)?.err().map(|(_, w)| w),
        };
        if let Some(why) = refused {
            return Err(rules.garbage(format!("refused its own legal move {ply:?}: {why}")));
        }
        total += perft(rules, child, depth - 1)?;
        rules.release(child)?;
    }
    Ok(total)
}

/// Every joint move of the turn (one per legal move in a turn of one seat), in seat order.
pub fn joint_moves(
    rules: &mut Rules,
    s: State,
    st: &Status,
) -> Result<Vec<Vec<(usize, String)>>, KitError> {
    let mut joint: Vec<Vec<(usize, String)>> = vec![Vec::new()];
    if st.movers.is_empty() {
        return Ok(Vec::new());
    }
    for &seat in &st.movers {
        let moves = rules.legal_of(s, seat)?;
        joint = joint
            .iter()
            .flat_map(|partial| {
                moves.iter().map(move |m| {
                    let mut j = partial.clone();
                    j.push((seat, m.clone()));
                    j
                })
            })
            .collect();
    }
    Ok(joint)
}
