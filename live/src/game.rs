//! One game in progress: the contents seed 002's players receive (history, then each new one),
//! the position (to check a person's moves before they reach the referee), and the seats that
//! people play.

use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use arbiter_engine::any::AnyGame;
use arbiter_engine::replay::{GameResult, MoveRecord, Replay};
use arbiter_engine::Seat;
use arbiter_match::game::GameLimits;
use arbiter_match::live::{Observer, RemoteSeat};
use serde_json::{json, Value};
use tokio::sync::broadcast;

/// What connections of a game are told.
#[derive(Clone, Debug)]
pub enum Event {
    /// A new content (`move`, `end`): for spectators and seats alike.
    Content(Arc<str>),
    /// The game was set up: connections send its `start` content (with their seat).
    Start,
    /// It is `seat`'s turn (a person's): the time left for this move, until `deadline`.
    Turn {
        seat: Seat,
        deadline: Option<Instant>,
    },
    /// The seat's turn is over.
    TurnOver { seat: Seat },
}

/// What a new connection starts from: the history, the news from now on, and whose turn it is
/// (a person's, until when).
pub type Joined = (
    Vec<String>,
    broadcast::Receiver<Event>,
    Option<(Seat, Option<Instant>)>,
);

/// A seat played by a person.
pub struct HumanSeat {
    /// The unguessable part of the seat's token.
    pub secret: String,
    /// Where the person's moves go (the referee's side of the remote seat).
    pub to_referee: Sender<String>,
}

/// One game on the hub.
pub struct LiveGame {
    pub id: u64,
    pub title: String,
    pub(crate) state: Mutex<State>,
    pub(crate) events: broadcast::Sender<Event>,
    pub(crate) seats: [Mutex<Option<HumanSeat>>; 2],
    /// Which people's seats have been opened (a valid seat token connected), and a signal for
    /// whoever waits for them.
    joined: (Mutex<[bool; 2]>, std::sync::Condvar),
}

#[derive(Default)]
pub(crate) struct State {
    /// The `start` content without a seat, as JSON (seats get it with theirs).
    pub start: Option<Value>,
    /// Every content after `start`.
    pub rest: Vec<Arc<str>>,
    /// The position now, for checking people's moves.
    pub game: Option<AnyGame>,
    pub players: Vec<String>,
    /// The person whose move the referee waits for, and until when.
    pub turn: Option<(Seat, Option<Instant>)>,
    /// The ply at which a person last sent a move (one move per position).
    pub acted_at: Option<usize>,
    pub finished: bool,
    /// When the game ended, for pruning the list.
    pub finished_at: Option<Instant>,
    pub result: Option<String>,
    /// The result's reason as data, for pages that say it in their reader's language.
    pub reason: Option<arbiter_engine::replay::Reason>,
    /// The winner's name, when the game has one (with `reason`: the result said in words).
    pub winner: Option<String>,
    pub moves: usize,
    pub started_at: Option<Instant>,
}

impl LiveGame {
    pub(crate) fn new(id: u64, title: String) -> LiveGame {
        LiveGame {
            id,
            title,
            state: Mutex::new(State::default()),
            // Spectators that fall this far behind get the history again.
            events: broadcast::channel(4096).0,
            seats: [Mutex::new(None), Mutex::new(None)],
            joined: (Mutex::new([false; 2]), std::sync::Condvar::new()),
        }
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

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The `start` content as `seat` sees it, once the game is set up.
    pub fn start_content(&self, seat: Option<Seat>) -> Option<String> {
        let st = self.lock();
        let mut start = st.start.clone()?;
        if let Some(s) = seat {
            start["seat"] = json!(s.index());
        }
        Some(start.to_string())
    }

    /// Everything so far (`seat` for a person's view).
    pub fn history(&self, seat: Option<Seat>) -> Vec<String> {
        self.join(seat).0
    }

    pub fn finished(&self) -> bool {
        self.lock().finished
    }

    /// An observer that feeds this game.
    pub fn observer(self: &Arc<Self>) -> GameObserver {
        GameObserver {
            game: Arc::clone(self),
        }
    }

    /// Makes `seat` a person's: the referee's side of it, and the secret of its token.
    pub fn human_seat(self: &Arc<Self>, seat: Seat) -> (RemoteSeat, String) {
        let (to_referee, receive) = std::sync::mpsc::channel();
        let secret = crate::token::secret();
        *self.seats[seat.index()]
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(HumanSeat {
            secret: secret.clone(),
            to_referee,
        });
        let me = Arc::clone(self);
        let send = Box::new(move |line: String| {
            me.referee_says(seat, &line);
            true
        });
        (RemoteSeat { send, receive }, secret)
    }

    /// A content from elsewhere (a Saiblo logic's watch messages under `arbiter judge --live`):
    /// kept and passed on as it is; a `start`, `move` or `end` of docs/live.md also updates the
    /// game's state.
    pub fn feed(&self, content: &str) {
        let parsed: Option<Value> = serde_json::from_str(content).ok();
        let kind = parsed
            .as_ref()
            .and_then(|v| v["type"].as_str().map(str::to_string));
        let mut st = self.lock();
        match (kind.as_deref(), parsed) {
            (Some("start"), Some(v)) => {
                if let Ok(replay) = serde_json::from_value::<Replay>(v["replay"].clone()) {
                    st.game = replay.start_position().ok();
                    st.players = replay.players.iter().map(|p| p.name.clone()).collect();
                }
                st.started_at = Some(Instant::now());
                st.start = Some(v);
                let _ = self.events.send(Event::Start);
                return;
            }
            (Some("move"), Some(v)) => {
                if let (Some(g), Some(mv)) = (st.game.as_mut(), v["move"]["move"].as_str()) {
                    let _ = g.play_text(mv);
                }
                st.moves += 1;
            }
            (Some("end"), Some(v)) => {
                st.finished = true;
                st.finished_at = Some(Instant::now());
                let result = serde_json::from_value::<GameResult>(v["result"].clone()).ok();
                st.result = result
                    .as_ref()
                    .map(|r| result_in_words(r, &st.players))
                    .or_else(|| v["result"]["reason"]["kind"].as_str().map(str::to_string));
                st.reason = result.as_ref().map(|r| r.reason.clone());
                st.winner = result
                    .and_then(|r| r.winner)
                    .map(|seat| winner_name(seat, &st.players));
            }
            _ => {}
        }
        let text: Arc<str> = Arc::from(content);
        st.rest.push(Arc::clone(&text));
        let _ = self.events.send(Event::Content(text));
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
                st.turn = Some((seat, deadline));
                let _ = self.events.send(Event::Turn { seat, deadline });
            }
            (Some("END"), _) => {
                let mut st = self.lock();
                st.turn = None;
                let _ = self.events.send(Event::TurnOver { seat });
            }
            _ => {}
        }
    }

    /// A person's move: checked against the seat, the turn and the rules, then passed to the
    /// referee. `Err` says why not, for the player.
    pub fn act(&self, seat: Seat, content: &str) -> Result<(), String> {
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
            if game.to_move() != Some(seat) {
                return Err("it is not your turn".into());
            }
            if game.forced_move().is_some() {
                return Err("you have no choice here: the referee plays it for you".into());
            }
            let mut probe = game.clone();
            let canonical = match probe.play_text(text) {
                Ok(mv) => game.format_move(mv),
                // The game's rules failed (a module that trapped or looped), not the move: the
                // referee meets the same failure and ends the game with no result. Refused
                // here, the person would only lose on time.
                Err(_) if probe.fault().is_some() => text.to_string(),
                Err(e) => return Err(format!("{text}: {e}")),
            };
            if st.acted_at == Some(st.moves) {
                return Err("your move is already on its way".into());
            }
            // The referee asks for exactly this position (the observer runs on its thread
            // before it asks), so a move sent before its request is simply waiting for it.
            st.acted_at = Some(st.moves);
            st.turn = None;
            canonical
        };
        let seats = self.seats[seat.index()]
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        match seats.as_ref() {
            Some(h) if h.to_referee.send(canonical).is_ok() => {
                let _ = self.events.send(Event::TurnOver { seat });
                Ok(())
            }
            _ => Err("this seat is not played from here".into()),
        }
    }

    /// Adds a content and tells every connection, under the state's lock, so that a
    /// connection joining at the same time gets it exactly once (in its history or as news).
    fn push(&self, content: Value) {
        let text: Arc<str> = Arc::from(content.to_string());
        let mut st = self.lock();
        st.rest.push(Arc::clone(&text));
        let _ = self.events.send(Event::Content(text));
    }

    /// A new connection: everything so far and the news from now on, taken together.
    pub fn join(&self, seat: Option<Seat>) -> Joined {
        let st = self.lock();
        let rx = self.events.subscribe();
        let mut out = Vec::with_capacity(st.rest.len() + 1);
        if let Some(start) = &st.start {
            let mut start = start.clone();
            if let Some(s) = seat {
                start["seat"] = json!(s.index());
            }
            out.push(start.to_string());
        }
        out.extend(st.rest.iter().map(|c| c.to_string()));
        (out, rx, st.turn)
    }
}

/// Feeds a [`LiveGame`] from the referee (see `arbiter_match::live::Observer`).
pub struct GameObserver {
    game: Arc<LiveGame>,
}

impl Observer for GameObserver {
    fn started(&mut self, replay: &Replay, limits: &GameLimits) {
        let ms = |d: Option<std::time::Duration>| d.map(|d| d.as_millis() as u64);
        let mut skeleton = replay.clone();
        for p in &mut skeleton.players {
            p.command = None;
        }
        // A module game's start carries the module, so that the player can run its rules.
        if skeleton.module_wasm.is_none() {
            arbiter_kit_host::host::embed_module(&mut skeleton);
        }
        let start = json!({
            "type": "start",
            "replay": serde_json::to_value(&skeleton).unwrap_or(Value::Null),
            "limits": { "move_ms": ms(limits.time.per_move), "game_ms": ms(limits.time.per_game) },
        });
        let mut st = self.game.lock();
        st.game = replay.start_position().ok();
        st.players = replay.players.iter().map(|p| p.name.clone()).collect();
        st.start = Some(start);
        st.started_at = Some(Instant::now());
        let _ = self.game.events.send(Event::Start);
    }

    fn moved(&mut self, replay: &Replay) {
        let Some(last) = replay.moves.last() else {
            return;
        };
        let record = MoveRecord {
            log: None,
            ..last.clone()
        };
        {
            let mut st = self.game.lock();
            if let Some(g) = st.game.as_mut() {
                let _ = g.play_text(&record.mv);
            }
            st.moves += 1;
        }
        self.game.push(json!({ "type": "move", "move": record }));
    }

    fn ended(&mut self, replay: &Replay) {
        let failure = replay.failure.clone().map(|mut f| {
            f.log = None;
            f.stderr = None;
            f
        });
        {
            let mut st = self.game.lock();
            st.finished = true;
            st.finished_at = Some(Instant::now());
            st.turn = None;
            st.result = Some(result_in_words(&replay.result, &st.players));
            st.reason = Some(replay.result.reason.clone());
            st.winner = replay
                .result
                .winner
                .map(|seat| winner_name(seat, &st.players));
        }
        self.game.push(json!({
            "type": "end",
            "result": replay.result,
            "scores": replay.scores,
            "failure": failure,
        }));
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
            winner: Some(Seat::Second),
            reason: Reason::Normal,
        };
        assert_eq!(result_in_words(&won, &players), "alan wins: normal end");
        let drawn = GameResult {
            winner: None,
            reason: Reason::Normal,
        };
        assert_eq!(result_in_words(&drawn, &players), "draw: normal end");
    }
}
