//! One game in progress: the contents seed 002's players receive (history, then each new one),
//! the position (to check a person's moves before they reach the referee), and the seats that
//! people play.
//!
//! The referee's observer only records (a few allocations a ply, on the referee's thread);
//! the contents are made from the records by the hub's feeder thread ([`crate::Hub`]), and only
//! while someone follows the game or a person plays in it: a module game's positions cost
//! module calls, which a game nobody watches should not pay. A connection that joins catches
//! the game up first.

use std::collections::VecDeque;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use arbiter_engine::any::AnyGame;
use arbiter_engine::replay::{GameResult, MoveRecord, Replay};
use arbiter_engine::{Seat, Viewer};
use arbiter_match::game::GameLimits;
use arbiter_match::live::{Observer, RemoteSeat};
use serde_json::{json, Value};
use tokio::sync::broadcast;

use crate::shown::{self, Face};

/// Who a content is for: everyone, or (a game that hides something) the spectators or one
/// person's seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    All,
    Spectators,
    Seat(Seat),
}

impl Audience {
    /// Whether a connection holding `seat` (`None`: a spectator) is sent it.
    pub fn reaches(self, seat: Option<Seat>) -> bool {
        match self {
            Audience::All => true,
            Audience::Spectators => seat.is_none(),
            Audience::Seat(s) => seat == Some(s),
        }
    }
}

/// What the spectators of a game that hides something see while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Spectators {
    /// What a table of people sees (no hand): the module's public view.
    #[default]
    Public,
    /// Everything (the module's full view): only where no person plays, or a person could
    /// watch their own game's spectator page.
    Full,
}

/// What connections of a game are told.
#[derive(Clone, Debug)]
pub enum Event {
    /// A new content (`move`, `end`), for its audience.
    Content(Arc<str>, Audience),
    /// The game was set up: connections send its `start` content (with their seat).
    Start,
    /// The contents so far were made again (the hub now sends positions): connections send
    /// the history again.
    Reset,
    /// The game is played again under the same number: connections close, so that their
    /// players connect again, to the new game.
    Closed,
    /// It is `seat`'s turn (a person's): the time left for this move, until `deadline`.
    Turn {
        seat: Seat,
        deadline: Option<Instant>,
    },
    /// The seat's turn is over.
    TurnOver { seat: Seat },
}

/// What a new connection starts from: the history, the news from now on, the people whose
/// move is awaited (until when), and the count that keeps the game's contents made while it
/// lives.
pub struct Joined {
    pub history: Vec<Arc<str>>,
    pub news: broadcast::Receiver<Event>,
    pub turns: Vec<(Seat, Option<Instant>)>,
    pub following: Following,
}

/// A connection following a game: while one lives, the feeder makes the game's contents.
pub struct Following(Arc<LiveGame>);

impl Drop for Following {
    fn drop(&mut self) {
        let mut st = self.0.lock();
        st.followers = st.followers.saturating_sub(1);
    }
}

/// Something the hub tells the people of a game besides its contents (the `notice` request),
/// in each connection's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The referee's process stopped and a new one took the game up after `moves` plies.
    Resumed { moves: usize },
    /// The referee's process stopped and the game could not be taken up: no result.
    Ended { moves: usize },
}

impl Notice {
    pub fn words(self, lang: arbiter_i18n::Lang) -> String {
        match self {
            Notice::Resumed { moves } => lang.ta("live-resumed", &[("moves", moves.into())]),
            Notice::Ended { moves } => lang.ta("live-ended-restart", &[("moves", moves.into())]),
        }
    }
}

/// A seat played by a person.
pub struct HumanSeat {
    /// The unguessable part of the seat's token.
    pub secret: String,
    /// Where the person's moves go (the referee's side of the remote seat).
    pub to_referee: Sender<String>,
}

/// What the referee recorded, waiting to be shown.
enum Item {
    Start {
        replay: Box<Replay>,
        limits: Value,
    },
    Move(MoveRecord),
    /// A content passed on as it is (an `end`, or a Saiblo logic's own watch message).
    Other(Arc<str>),
}

/// One game on the hub.
pub struct LiveGame {
    pub id: u64,
    pub title: String,
    pub(crate) state: Mutex<State>,
    pub(crate) events: broadcast::Sender<Event>,
    pub(crate) seats: [Mutex<Option<HumanSeat>>; Seat::MAX],
    /// Which people's seats have been opened (a valid seat token connected), and a signal for
    /// whoever waits for them.
    joined: (Mutex<[bool; Seat::MAX]>, Condvar),
    /// What spectators see of a game that hides something.
    spectators: Spectators,
    /// The hub's feeder, told when this game has something to show.
    feeder: Sender<Arc<LiveGame>>,
    /// Left out of the hub's list (a student's test game: theirs to follow, nobody else's).
    pub(crate) unlisted: bool,
}

/// How the followers rebuild the positions.
enum Shown {
    /// From the moves: a built-in game (no stand-in needed), or a module game's stand-in (its
    /// own seed) that has shown exactly what the game shows so far.
    Moves { stand_in: Option<Box<AnyGame>> },
    /// From positions the hub sends (a module game whose chance showed).
    Positions,
}

#[derive(Default)]
pub(crate) struct State {
    // What the referee recorded.
    pending: VecDeque<Item>,
    pub players: Vec<String>,
    /// Plies recorded.
    pub moves: usize,
    pub finished: bool,
    /// When the game ended, for pruning the list.
    pub finished_at: Option<Instant>,
    pub result: Option<String>,
    /// The result's reason as data, for pages that say it in their reader's language.
    pub reason: Option<arbiter_engine::replay::Reason>,
    /// The winner's name, when the game has one (with `reason`: the result said in words).
    pub winner: Option<String>,
    pub started_at: Option<Instant>,
    // What the followers are shown (made by the feeder from the records).
    /// The `start` content without a seat, as JSON (seats get it with theirs).
    pub start: Option<Value>,
    /// The start's text as each seat and the spectators (last) are sent it, made once: a
    /// start carries a module, and hundreds may join.
    start_texts: [Option<Arc<str>>; Seat::MAX + 1],
    /// Every content after `start`: everyone's, or (a private game) the spectators'.
    pub rest: Vec<Arc<str>>,
    /// A game that hides something or has simultaneous turns ([`shown::is_private`]): each
    /// person's seat has its own contents, and the start's position is each audience's.
    private: bool,
    /// A private game's contents after `start` for each person's seat.
    seat_rest: [Vec<Arc<str>>; Seat::MAX],
    /// A private game's start position as each seat and the spectators (last) see it.
    start_positions: [Option<Value>; Seat::MAX + 1],
    /// A private game is over: everyone is shown everything (its full view, every move).
    revealed: bool,
    /// The records shown, in order (to make the contents again with positions).
    shown_items: Vec<Item>,
    /// The game as played (its real seed), from the start.
    real: Option<Box<Replay>>,
    /// The position shown now, for checking people's moves.
    pub game: Option<AnyGame>,
    shown: Option<Shown>,
    /// Plies shown.
    pub shown_moves: usize,
    /// The people whose move the referee waits for (several in a simultaneous turn), and
    /// until when.
    pub turns: Vec<(Seat, Option<Instant>)>,
    /// The ply at which each person last sent a move (one move per position).
    pub acted_at: [Option<usize>; Seat::MAX],
    followers: usize,
    pub notice: Option<Notice>,
    /// Replaced by a new game under the same number.
    superseded: bool,
}

impl LiveGame {
    pub(crate) fn new(
        id: u64,
        title: String,
        feeder: Sender<Arc<LiveGame>>,
        spectators: Spectators,
        unlisted: bool,
    ) -> LiveGame {
        LiveGame {
            id,
            title,
            state: Mutex::new(State::default()),
            // Spectators that fall this far behind get the history again.
            events: broadcast::channel(4096).0,
            seats: std::array::from_fn(|_| Mutex::new(None)),
            joined: (Mutex::new([false; Seat::MAX]), Condvar::new()),
            spectators,
            feeder,
            unlisted,
        }
    }

    /// The seats people play.
    pub fn human_seats(&self) -> Vec<Seat> {
        Seat::all(Seat::MAX)
            .filter(|s| self.is_person(Some(*s)))
            .collect()
    }

    /// A person opened `seat` (its token was checked).
    pub(crate) fn seat_joined(&self, seat: Seat) {
        let (joined, signal) = &self.joined;
        joined.lock().unwrap_or_else(|p| p.into_inner())[seat.index()] = true;
        signal.notify_all();
    }

    /// Waits until a person has opened `seat`, at most `limit`; whether they did. The referee
    /// starts a person's game only then, so that their clock does not run while nobody is
    /// there to play.
    pub fn wait_for_seat(&self, seat: Seat, limit: std::time::Duration) -> bool {
        let (joined, signal) = &self.joined;
        let guard = joined.lock().unwrap_or_else(|p| p.into_inner());
        let (guard, _) = signal
            .wait_timeout_while(guard, limit, |j| !j[seat.index()])
            .unwrap_or_else(|p| p.into_inner());
        guard[seat.index()]
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn has_people(&self) -> bool {
        self.seats
            .iter()
            .any(|s| s.lock().unwrap_or_else(|p| p.into_inner()).is_some())
    }

    fn is_person(&self, seat: Option<Seat>) -> bool {
        seat.is_some_and(|s| {
            self.seats[s.index()]
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .is_some()
        })
    }

    /// The `start` content as `seat` sees it, once the game is set up.
    pub fn start_content(&self, seat: Option<Seat>) -> Option<Arc<str>> {
        Self::start_text(&mut self.lock(), seat)
    }

    /// The start as `seat` (or a spectator) is sent it.
    fn start_text(st: &mut State, seat: Option<Seat>) -> Option<Arc<str>> {
        let at = seat.map_or(Seat::MAX, Seat::index);
        if st.start_texts[at].is_none() {
            let mut start = st.start.clone()?;
            if let Some(s) = seat {
                start["seat"] = json!(s.index());
            }
            if st.private {
                // A seat no person plays has no stream of its own: the spectators'.
                let own = st.start_positions[at].clone();
                start["position"] = own.or_else(|| st.start_positions[Seat::MAX].clone())?;
            }
            st.start_texts[at] = Some(Arc::from(start.to_string()));
        }
        st.start_texts[at].clone()
    }

    /// Everything so far (`seat` for a person's view).
    pub fn history(self: &Arc<Self>, seat: Option<Seat>) -> Vec<String> {
        let mut st = self.lock();
        self.show_pending(&mut st);
        Self::contents(&mut st, seat)
            .iter()
            .map(|c| c.to_string())
            .collect()
    }

    fn contents(st: &mut State, seat: Option<Seat>) -> Vec<Arc<str>> {
        let mut out = Vec::with_capacity(st.rest.len() + 1);
        out.extend(Self::start_text(st, seat));
        let rest = match seat {
            Some(s) if st.private && st.start_positions[s.index()].is_some() => {
                &st.seat_rest[s.index()]
            }
            _ => &st.rest,
        };
        out.extend(rest.iter().cloned());
        out
    }

    pub fn finished(&self) -> bool {
        self.lock().finished
    }

    /// Tells the people of this game something besides its contents (sent on every connect).
    pub fn set_notice(&self, notice: Notice) {
        self.lock().notice = Some(notice);
    }

    /// An observer that feeds this game.
    pub fn observer(self: &Arc<Self>) -> GameObserver {
        GameObserver {
            game: Arc::clone(self),
            started: false,
            ended: false,
        }
    }

    /// Makes `seat` a person's: the referee's side of it, and the secret of its token.
    pub fn human_seat(self: &Arc<Self>, seat: Seat) -> (RemoteSeat, String) {
        let secret = crate::token::secret();
        (self.human_seat_with(seat, secret.clone()), secret)
    }

    /// [`LiveGame::human_seat`] with a secret given (a game taken up again after a restart:
    /// the person's link stays valid).
    pub fn human_seat_with(self: &Arc<Self>, seat: Seat, secret: String) -> RemoteSeat {
        let (to_referee, receive) = std::sync::mpsc::channel();
        *self.seats[seat.index()]
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(HumanSeat { secret, to_referee });
        let me = Arc::clone(self);
        let send = Box::new(move |line: String| {
            me.referee_says(seat, &line);
            true
        });
        RemoteSeat { send, receive }
    }

    /// A content from elsewhere (a Saiblo logic's watch messages under `arbiter judge --live`):
    /// a `start`, `move` or `end` of docs/live.md is shown as the observer's would be (its
    /// seed kept back); anything else is passed on as it is.
    pub fn feed(self: &Arc<Self>, content: &str) {
        let parsed: Option<Value> = serde_json::from_str(content).ok();
        let kind = parsed
            .as_ref()
            .and_then(|v| v["type"].as_str().map(str::to_string));
        let mut st = self.lock();
        match (kind.as_deref(), parsed) {
            (Some("start"), Some(v)) => {
                let Ok(replay) = serde_json::from_value::<Replay>(v["replay"].clone()) else {
                    return;
                };
                st.players = replay.players.iter().map(|p| p.name.clone()).collect();
                st.started_at = Some(Instant::now());
                let limits = v["limits"].clone();
                st.pending.push_back(Item::Start {
                    replay: Box::new(replay),
                    limits,
                });
            }
            (Some("move"), Some(v)) => {
                let Ok(mut record) = serde_json::from_value::<MoveRecord>(v["move"].clone()) else {
                    return;
                };
                drop_logs(&mut record);
                st.moves += 1;
                st.pending.push_back(Item::Move(record));
            }
            (Some("end"), Some(v)) => {
                let result = serde_json::from_value::<GameResult>(v["result"].clone()).ok();
                st.record_end(result.as_ref());
                if result.is_none() {
                    st.result = v["result"]["reason"]["kind"].as_str().map(str::to_string);
                }
                st.pending.push_back(Item::Other(Arc::from(content)));
            }
            _ => st.pending.push_back(Item::Other(Arc::from(content))),
        }
        drop(st);
        self.wake();
    }

    /// Tells the feeder that this game has something to show.
    fn wake(self: &Arc<Self>) {
        let _ = self.feeder.send(Arc::clone(self));
    }

    /// The feeder's work: shows what was recorded, if anyone follows the game.
    pub(crate) fn catch_up(self: &Arc<Self>) {
        let people = self.has_people();
        let mut st = self.lock();
        if st.followers > 0 || people {
            self.show_pending(&mut st);
        }
    }

    /// Makes the contents of everything recorded and not yet shown, and tells the connections.
    fn show_pending(&self, st: &mut State) {
        while let Some(item) = st.pending.pop_front() {
            self.show(st, item);
        }
    }

    fn show(&self, st: &mut State, item: Item) {
        match item {
            Item::Start { replay, limits } => self.show_start(st, replay, limits),
            Item::Move(record) => {
                let shown = self.show_move(st, &record);
                st.shown_items.push(Item::Move(record));
                if !shown {
                    // The stand-in differed at this move: every content is made again.
                    st.shown = Some(Shown::Positions);
                    self.remake(st);
                }
            }
            Item::Other(text) => {
                let end = st.private && is_end(&text);
                self.publish(st, Audience::All, Arc::clone(&text));
                st.shown_items.push(Item::Other(text));
                if end && !st.revealed {
                    // Over: nothing is hidden any more, and everyone is shown everything.
                    st.revealed = true;
                    self.reveal(st);
                }
            }
        }
    }

    /// Adds a content to its audience's streams and tells the connections.
    fn publish(&self, st: &mut State, to: Audience, text: Arc<str>) {
        self.keep(st, to, Arc::clone(&text));
        let _ = self.events.send(Event::Content(text, to));
    }

    /// The audiences of a game's contents: everyone, or (a private game) the spectators and
    /// each person's seat.
    fn audiences(&self, private: bool) -> Vec<Audience> {
        if !private {
            return vec![Audience::All];
        }
        let mut out = vec![Audience::Spectators];
        out.extend(self.human_seats().into_iter().map(Audience::Seat));
        out
    }

    /// Who `to` sees the positions as.
    fn viewer(&self, to: Audience) -> Viewer {
        match to {
            Audience::All => Viewer::Public,
            Audience::Spectators if self.spectators == Spectators::Full => Viewer::All,
            Audience::Spectators => Viewer::Public,
            Audience::Seat(s) => Viewer::Seat(s),
        }
    }

    /// The position `to` is sent: its view, and its choices when a person of it is to move
    /// (not in a ply a game taken up runs through: nobody is asked for those).
    fn position_for(&self, st: &State, g: Option<&AnyGame>, to: Audience) -> Value {
        let Some(g) = g else {
            return Value::Null;
        };
        let replayed =
            matches!(st.notice, Some(Notice::Resumed { moves }) if st.shown_moves < moves);
        let chooser = match to {
            _ if replayed => None,
            Audience::All => g.to_move().filter(|s| self.is_person(Some(*s))),
            Audience::Seat(s) if !g.turn().is_over() => Some(s),
            _ => None,
        };
        shown::position(g, self.viewer(to), chooser)
    }

    /// A private game's start position for each audience (by seat; the spectators' last).
    fn start_positions(&self, st: &mut State, g: Option<&AnyGame>) {
        st.start_positions = Default::default();
        for to in self.audiences(st.private) {
            let at = match to {
                Audience::Seat(s) => s.index(),
                _ => Seat::MAX,
            };
            let p = self.position_for(st, g, to);
            st.start_positions[at] = Some(p);
        }
    }

    fn show_start(&self, st: &mut State, replay: Box<Replay>, limits: Value) {
        st.rest.clear();
        st.seat_rest = Default::default();
        st.shown_items.clear();
        st.shown_moves = 0;
        st.revealed = false;
        st.game = replay.start_position().ok();
        st.private = st.game.as_ref().is_some_and(shown::is_private);
        let stand_in_seed = rand::random::<u64>();
        let mut skeleton = shown::skeleton(&replay, stand_in_seed);
        let shown = match st.game.as_ref().and_then(Face::of) {
            // A game that hides something: each audience is sent its own positions.
            Some(_) if st.private => Shown::Positions,
            // A built-in game: the skeleton rebuilds it.
            None => Shown::Moves { stand_in: None },
            Some(face) => match skeleton.start_position() {
                Ok(stand_in) if Face::of(&stand_in).as_ref() == Some(&face) => Shown::Moves {
                    stand_in: Some(Box::new(stand_in)),
                },
                _ => Shown::Positions,
            },
        };
        let mut start = json!({"type": "start", "limits": limits});
        if st.private {
            let g = st.game.take();
            self.start_positions(st, g.as_ref());
            st.game = g;
        } else if matches!(shown, Shown::Positions) {
            start["position"] = self.position_for(st, st.game.as_ref(), Audience::All);
        } else if skeleton.game.as_module().is_some() {
            // The player runs the stand-in's rules: the start carries the module.
            arbiter_kit_host::host::embed_module(&mut skeleton);
        }
        start["replay"] = serde_json::to_value(&skeleton).unwrap_or(Value::Null);
        st.shown = Some(shown);
        st.start = Some(start);
        st.start_texts = Default::default();
        st.real = Some(replay);
        let _ = self.events.send(Event::Start);
    }

    /// Shows a move, after playing it on the position shown (and the stand-in's); `false`
    /// when the stand-in differs from the game from this move on (nothing shown).
    fn show_move(&self, st: &mut State, record: &MoveRecord) -> bool {
        let before = st.game.clone().filter(|_| st.private);
        if let Some(g) = st.game.as_mut() {
            shown::play_record(g, record);
        }
        st.shown_moves += 1;
        let differs = match &mut st.shown {
            Some(Shown::Moves {
                stand_in: Some(stand_in),
            }) => {
                let played = shown::play_record(stand_in, record);
                !played || Face::of(stand_in) != st.game.as_ref().and_then(Face::of)
            }
            _ => false,
        };
        if differs {
            return false;
        }
        let positions = matches!(st.shown, Some(Shown::Positions));
        for to in self.audiences(st.private) {
            let content = self.move_content(st, before.as_ref(), record, to, positions);
            self.publish(st, to, content);
        }
        true
    }

    /// A move's content for `to`: the move as it may know it, and its position when the hub
    /// sends positions.
    fn move_content(
        &self,
        st: &State,
        before: Option<&AnyGame>,
        record: &MoveRecord,
        to: Audience,
        positions: bool,
    ) -> Arc<str> {
        let viewer = self.viewer(to);
        let record = before.map_or_else(|| record.clone(), |b| shown::masked(b, record, viewer));
        let mut content = json!({"type": "move", "move": record});
        if positions {
            content["position"] = self.position_for(st, st.game.as_ref(), to);
        }
        Arc::from(content.to_string())
    }

    /// Makes every content again from the start, with positions (a public game whose
    /// stand-in differed: a die, a deal): connections get the history again.
    fn remake(&self, st: &mut State) {
        let Some(replay) = st.real.clone() else {
            return;
        };
        let items = std::mem::take(&mut st.shown_items);
        let played = std::mem::replace(&mut st.game, replay.start_position().ok());
        let mut skeleton = shown::skeleton(&replay, 0);
        skeleton.module_wasm = None;
        let p = self.position_for(st, st.game.as_ref(), Audience::All);
        if let Some(start) = st.start.as_mut() {
            start["replay"] = serde_json::to_value(&skeleton).unwrap_or(Value::Null);
            start["position"] = p;
        }
        st.start_texts = Default::default();
        st.rest.clear();
        for item in &items {
            match item {
                Item::Move(record) => {
                    if let Some(g) = st.game.as_mut() {
                        shown::play_record(g, record);
                    }
                    let content = self.move_content(st, None, record, Audience::All, true);
                    self.keep(st, Audience::All, content);
                }
                Item::Other(text) => self.keep(st, Audience::All, Arc::clone(text)),
                Item::Start { .. } => {}
            }
        }
        st.shown_items = items;
        st.game = played;
        let _ = self.events.send(Event::Reset);
    }

    /// A private game is over: every content is made again as the game's replay shows it,
    /// for everyone alike: its real configuration (seed too) and its module, every move as
    /// played, no positions. The player then runs the module itself, which can show the game
    /// as any seat saw it ("View as"), as for a saved replay.
    fn reveal(&self, st: &mut State) {
        let Some(replay) = st.real.clone() else {
            return;
        };
        let seed = replay.game.as_module().map_or(0, |m| m.seed);
        let mut whole = shown::skeleton(&replay, seed);
        arbiter_kit_host::host::embed_module(&mut whole);
        if let Some(start) = st.start.as_mut() {
            start["replay"] = serde_json::to_value(&whole).unwrap_or(Value::Null);
            if let Some(map) = start.as_object_mut() {
                map.remove("position");
            }
        }
        // From now on one stream for all: the start without positions, then every content.
        st.private = false;
        st.shown = Some(Shown::Moves { stand_in: None });
        st.start_texts = Default::default();
        st.start_positions = Default::default();
        st.seat_rest = Default::default();
        st.rest.clear();
        for item in &st.shown_items {
            let text = match item {
                Item::Move(record) => {
                    Arc::from(json!({"type": "move", "move": record}).to_string())
                }
                Item::Other(text) => Arc::clone(text),
                Item::Start { .. } => continue,
            };
            st.rest.push(text);
        }
        let _ = self.events.send(Event::Reset);
    }

    /// [`LiveGame::publish`] without telling the connections (they get the history again).
    fn keep(&self, st: &mut State, to: Audience, text: Arc<str>) {
        if matches!(to, Audience::All | Audience::Spectators) || !st.private {
            st.rest.push(Arc::clone(&text));
        }
        if st.private {
            for s in 0..Seat::MAX {
                let has_stream = st.start_positions[s].is_some();
                let mine = Seat::from_index(s).is_some_and(|s| to == Audience::Seat(s));
                if has_stream && to == Audience::All || mine {
                    st.seat_rest[s].push(Arc::clone(&text));
                }
            }
        }
    }

    /// The secret of a person's seat (for the command that prints its play link).
    pub fn seat_secret(&self, seat: Seat) -> Option<String> {
        self.seats[seat.index()]
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(|h| h.secret.clone())
    }

    /// A line of the remote-seat protocol from the referee: a turn begins or ends.
    fn referee_says(&self, seat: Seat, line: &str) {
        let mut words = line.split_whitespace();
        match (
            words.next(),
            words.next().and_then(|w| w.parse::<i64>().ok()),
        ) {
            (Some("TURN"), Some(ms)) => {
                let deadline =
                    (ms >= 0).then(|| Instant::now() + std::time::Duration::from_millis(ms as u64));
                let mut st = self.lock();
                st.turns.retain(|(s, _)| *s != seat);
                st.turns.push((seat, deadline));
                let _ = self.events.send(Event::Turn { seat, deadline });
            }
            (Some("END"), _) => {
                let mut st = self.lock();
                st.turns.retain(|(s, _)| *s != seat);
                let _ = self.events.send(Event::TurnOver { seat });
            }
            _ => {}
        }
    }

    /// A person's move: checked against the seat, the turn and the rules, then passed to the
    /// referee. `Err` says why not, for the player.
    /// A person's move for `seat`; `ply`, when the page names it, is the position it was
    /// chosen in (the plies it had seen): a move chosen in a position the game has left (a
    /// game taken up after a restart runs through its earlier plies at once) is refused, not
    /// kept for a later turn.
    pub fn act(&self, seat: Seat, content: &str, ply: Option<u64>) -> Result<(), String> {
        let text = content.trim();
        if text.is_empty() || text.len() > 64 {
            // In no game's words: the hub serves module games too (their moves may be `c3`,
            // `3:c4`, `swap` or `d1-d7/g7`).
            return Err("a move is a word of the game's notation, 1 to 64 characters".into());
        }
        let canonical = {
            let mut st = self.lock();
            if st.finished {
                return Err("the game is over".into());
            }
            let Some(game) = st.game.as_ref() else {
                return Err("the game has not started yet".into());
            };
            if let Some(p) = ply.filter(|&p| p != st.shown_moves as u64) {
                return Err(format!(
                    "that move was chosen at ply {p}, and the game has moved on to ply {}",
                    st.shown_moves
                ));
            }
            let canonical = checked_move(game, seat, text)?;
            if st.acted_at[seat.index()] == Some(st.shown_moves) {
                return Err("your move is already on its way".into());
            }
            // The referee asks for exactly this position (a person's game is shown as soon as
            // a ply is recorded), so a move sent before its request is simply waiting for it.
            st.acted_at[seat.index()] = Some(st.shown_moves);
            st.turns.retain(|(s, _)| *s != seat);
            canonical
        };
        let seats = self.seats[seat.index()]
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let Some(h) = seats.as_ref() else {
            return Err("this seat is not played from here".into());
        };
        // The turn is over before the referee has the move: it may play it, hear the other
        // seat and announce this seat's next turn at once, and that turn must not be taken
        // for this one's end (the player would wait for a turn it was never told of).
        let _ = self.events.send(Event::TurnOver { seat });
        h.to_referee
            .send(canonical)
            .map_err(|_| "this seat is not played from here".to_string())
    }

    /// A new connection: everything so far and the news from now on, taken together (the
    /// game caught up first), so that it gets each content exactly once.
    pub fn join(self: &Arc<Self>, seat: Option<Seat>) -> Joined {
        let mut st = self.lock();
        self.show_pending(&mut st);
        st.followers += 1;
        let news = self.events.subscribe();
        let history = Self::contents(&mut st, seat);
        Joined {
            history,
            news,
            turns: st.turns.clone(),
            following: Following(Arc::clone(self)),
        }
    }

    /// Whether a new game took this one's number (its connections must close).
    pub fn superseded(&self) -> bool {
        self.lock().superseded
    }

    /// A new game takes this one's number: its connections close, and connect again to it.
    pub(crate) fn supersede(&self) {
        self.lock().superseded = true;
        let _ = self.events.send(Event::Closed);
    }
}

impl State {
    /// The game's end, for the list.
    fn record_end(&mut self, result: Option<&GameResult>) {
        self.finished = true;
        self.finished_at = Some(Instant::now());
        self.turns.clear();
        if let Some(r) = result {
            self.result = Some(result_in_words(r, &self.players));
            self.reason = Some(r.reason.clone());
            self.winner = r.winner.map(|seat| winner_name(seat, &self.players));
        }
    }
}

/// `text` as `seat`'s move in `game`: the move in the game's canonical notation, or why not.
/// A ply as the hub keeps it: without the bots' logs (their DEBUG lines are theirs and the
/// staff's), of the moves played with it too (a simultaneous turn's).
fn drop_logs(record: &mut MoveRecord) {
    record.log = None;
    for m in &mut record.with {
        drop_logs(m);
    }
}

fn checked_move(game: &AnyGame, seat: Seat, text: &str) -> Result<String, String> {
    let movers = game.turn().movers();
    if !movers.contains(seat) {
        return Err("it is not your turn".into());
    }
    if game.forced_move_of(seat).is_some() {
        return Err("you have no choice here: the referee plays it for you".into());
    }
    if movers.len() > 1 {
        // A simultaneous turn is played once every mover has chosen: only the choice is
        // checked here.
        let mv = game.parse_move(text).map_err(|e| format!("{text}: {e}"))?;
        if !game.legal_moves_of(seat).contains(&mv) {
            return Err(format!("{text}: not one of your legal moves"));
        }
        return Ok(game.format_move(mv));
    }
    let mut probe = game.clone();
    match probe.play_text(text) {
        Ok(mv) => Ok(game.format_move(mv)),
        // The game's rules failed (a module that trapped or looped), not the move: the
        // referee meets the same failure and ends the game with no result. Refused here, the
        // person would only lose on time.
        Err(_) if probe.fault().is_some() => Ok(text.to_string()),
        Err(e) => Err(format!("{text}: {e}")),
    }
}

/// Whether a content is a game's `end`.
fn is_end(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| v["type"] == "end")
}

/// Feeds a [`LiveGame`] from the referee (see `arbiter_match::live::Observer`): records only,
/// at once; the hub's feeder makes the contents.
pub struct GameObserver {
    game: Arc<LiveGame>,
    started: bool,
    ended: bool,
}

impl GameObserver {
    fn record(&self, item: Item) {
        self.game.lock().pending.push_back(item);
        self.game.wake();
    }
}

impl Observer for GameObserver {
    fn started(&mut self, replay: &Replay, limits: &GameLimits) {
        let ms = |d: Option<std::time::Duration>| d.map(|d| d.as_millis() as u64);
        let limits =
            json!({ "move_ms": ms(limits.time.per_move), "game_ms": ms(limits.time.per_game) });
        {
            let mut st = self.game.lock();
            st.players = replay.players.iter().map(|p| p.name.clone()).collect();
            st.started_at = Some(Instant::now());
        }
        let mut replay = replay.clone();
        replay.moves.clear();
        self.started = true;
        self.record(Item::Start {
            replay: Box::new(replay),
            limits,
        });
    }

    fn moved(&mut self, replay: &Replay) {
        let Some(last) = replay.moves.last() else {
            return;
        };
        let mut record = last.clone();
        drop_logs(&mut record);
        self.game.lock().moves += 1;
        self.record(Item::Move(record));
    }

    fn ended(&mut self, replay: &Replay) {
        let failure = replay.failure.clone().map(|mut f| {
            f.log = None;
            f.stderr = None;
            f
        });
        self.game.lock().record_end(Some(&replay.result));
        self.ended = true;
        let content = json!({
            "type": "end",
            "result": replay.result,
            "scores": replay.scores,
            "failure": failure,
        });
        self.record(Item::Other(Arc::from(content.to_string())));
    }
}

impl Drop for GameObserver {
    /// A game whose referee stopped without ending it (its thread failed) ends with no result,
    /// so that its followers are not left waiting.
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        let result = GameResult::aborted("the game's referee stopped before the end".into());
        self.game.lock().record_end(Some(&result));
        if self.started {
            let content = json!({"type": "end", "result": result, "scores": null, "failure": null});
            self.record(Item::Other(Arc::from(content.to_string())));
        }
    }
}

/// A finished game's result for the live list: who won and why ("ada wins: normal end"), or
/// "draw: ...".
pub fn result_in_words(result: &GameResult, players: &[String]) -> String {
    match result.winner {
        Some(seat) => format!("{} wins: {}", winner_name(seat, players), result.reason),
        None => format!("draw: {}", result.reason),
    }
}

/// The name of the player in `seat` ("seat N" when the game has no names).
pub fn winner_name(seat: Seat, players: &[String]) -> String {
    players
        .get(seat.index())
        .map_or_else(|| format!("seat {}", seat.index()), String::clone)
}

#[cfg(test)]
mod words_tests {
    use super::*;
    use arbiter_engine::replay::Reason;

    #[test]
    fn the_live_list_names_the_winner() {
        let players = ["ada".to_string(), "alan".to_string()];
        let won = GameResult {
            winner: Some(Seat::SECOND),
            places: None,
            reason: Reason::Normal,
        };
        assert_eq!(result_in_words(&won, &players), "alan wins: normal end");
        let drawn = GameResult {
            winner: None,
            places: None,
            reason: Reason::Normal,
        };
        assert_eq!(result_in_words(&drawn, &players), "draw: normal end");
    }
}
