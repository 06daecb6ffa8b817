//! The logic's move loop for any number of seats: turns of one seat, or simultaneous turns (one
//! Saiblo round that listens to every mover at once, seed 002's `listen` list), what each seat
//! is told of every ply, and a seat that fails: taken out while the others play on (a module
//! game of three or more seats whose rules allow it) or ending the game.

use std::io::Write;
use std::time::Duration;

use arbiter_engine::any::{AnyGame, AnyMove, MoveError};
use arbiter_engine::replay::{Failure, GameResult, MoveRecord, Reason, Replay, Retirement};
use arbiter_engine::{Seat, SeatSet, Turn};
use arbiter_match::game::{both_failed, illegal_move, MAX_PLIES};

use super::{
    error_reason, millis, split_answer, Judger, LogicError, LogicMessage, LogicOptions, Script,
};
use crate::message::{AiError, ErrorKind, PlayerType, RoundConfig};

/// Why the loop stopped: the game is over, or the judger broke the protocol.
pub(super) enum Stop {
    Over(GameResult),
    Judger(LogicError),
}

impl From<LogicError> for Stop {
    fn from(e: LogicError) -> Stop {
        Stop::Judger(e)
    }
}

type Step = Result<(), Stop>;

fn over(result: GameResult) -> Stop {
    Stop::Over(result)
}

fn aborted(why: impl Into<String>) -> Stop {
    over(GameResult::aborted(why.into()))
}

/// A seat's answer that could not be used: its verdict, and what it did around it.
struct Fault {
    reason: Reason,
    failure: Option<Failure>,
}

impl Fault {
    fn bare(reason: Reason) -> Fault {
        Fault {
            reason,
            failure: None,
        }
    }
}

/// A move a seat chose in time, with its record.
struct Chosen {
    seat: Seat,
    mv: AnyMove,
    /// The AI's answer line, exactly as sent.
    line: String,
    record: MoveRecord,
}

/// A move of a simultaneous turn: forced (no answer), or answered with its line and record.
type Joint = (Seat, AnyMove, Option<(String, MoveRecord)>);

/// The game at the logic's table.
pub(super) struct Table<'a, W: Write> {
    pub options: &'a LogicOptions,
    pub judger: &'a mut Judger<W>,
    pub game: &'a mut AnyGame,
    pub replay: &'a mut Replay,
    pub script: Script,
    /// Each seat's thinking time so far, from the judger's figures.
    pub used: Vec<Duration>,
    /// Seats taken out of the game: asked and told nothing more.
    pub out: Vec<bool>,
    /// The round time last sent to the judger.
    pub round_time: Duration,
}

impl<W: Write> Table<'_, W> {
    /// Plays from the handshakes to the end.
    pub fn play(&mut self, types: &[PlayerType]) -> Result<GameResult, LogicError> {
        match self.run(types) {
            Ok(never) => match never {},
            Err(Stop::Over(result)) => Ok(result),
            Err(Stop::Judger(e)) => Err(e),
        }
    }

    fn run(&mut self, types: &[PlayerType]) -> Result<std::convert::Infallible, Stop> {
        // AIs the judger reports as not started, then handshakes with the others one seat
        // after the other (seed 002 advises one listened AI at a time).
        let mut faults: Vec<Fault> = Seat::all(types.len())
            .filter(|s| types[s.index()] == PlayerType::Failed)
            .map(|seat| {
                Fault::bare(Reason::FailedToStart {
                    seat,
                    error: "the judger reports that the AI did not start".into(),
                })
            })
            .collect();
        if self.seats() == 2 && !faults.is_empty() {
            // The game is decided: no handshake (as seed 002's examples end it).
            self.start_failures(faults)?;
            return Err(aborted("a failed start did not end a two-seat game"));
        }
        for seat in Seat::all(self.seats()) {
            if types[seat.index()] != PlayerType::Failed {
                faults.extend(self.handshake(seat)?);
            }
        }
        self.start_failures(faults)?;
        loop {
            if let Some(why) = self.game.fault() {
                return Err(aborted(format!("the game's rules failed: {why}")));
            }
            if let Some(places) = self.game.places() {
                return Err(over(GameResult::ranked(places, Reason::Normal)));
            }
            if self.replay.moves.len() >= MAX_PLIES {
                return Err(aborted(format!(
                    "the game's rules failed: the game did not end within {MAX_PLIES} plies"
                )));
            }
            match self.game.turn() {
                Turn::Over => return Err(aborted("the game has no side to move")),
                Turn::Seat(seat) => self.one(seat)?,
                Turn::Together(movers) => self.together(movers)?,
            }
        }
    }

    fn seats(&self) -> usize {
        self.out.len()
    }

    /// AIs that did not start or shake hands: in a two-seat game the other wins (nobody when
    /// both failed); with more seats each is taken out where the rules allow, and when every
    /// AI failed nobody wins.
    fn start_failures(&mut self, faults: Vec<Fault>) -> Step {
        match (self.seats(), faults.as_slice()) {
            (_, []) => return Ok(()),
            (2, [a, b]) => return Err(over(both_failed(&a.reason, &b.reason))),
            (n, all) if all.len() == n => {
                let words: Vec<String> = all.iter().map(|f| f.reason.to_string()).collect();
                return Err(aborted(format!(
                    "every AI failed to start: {}",
                    words.join("; ")
                )));
            }
            _ => {}
        }
        for fault in faults {
            self.fail(fault)?;
        }
        Ok(())
    }

    /// The start of `seat`'s AI: `OK`, or its fault.
    fn handshake(&mut self, seat: Seat) -> Result<Option<Fault>, LogicError> {
        let text = self.script.start(seat, self.game);
        self.judger.ask(seat, &text)?;
        let (content, time) = match self.judger.answer(seat)? {
            Ok(a) => a,
            Err(e) => {
                let reason = match e.error {
                    ErrorKind::TimeOut => Reason::NoHandshake { seat },
                    _ => error_reason(seat, &e, self.options.move_time, self.options.length),
                };
                return Ok(Some(Fault::bare(reason)));
            }
        };
        self.used[seat.index()] += Duration::from_millis(time);
        let (_, answer) = split_answer(&content, |l| self.script.is_log(l));
        if let Ok(msg) = answer.as_deref() {
            if let Some(why) = msg.strip_prefix("ERROR") {
                return Ok(Some(Fault::bare(Reason::ProtocolError {
                    seat,
                    message: format!("refused to start: {}", why.trim()),
                })));
            }
        }
        if answer.as_deref() != Ok("OK") {
            let shown = answer.unwrap_or_else(|e| e);
            return Ok(Some(Fault::bare(Reason::ProtocolError {
                seat,
                message: format!("answered {shown:?} to the handshake"),
            })));
        }
        if let Some(text) = self.script.after_start(self.game, self.options) {
            self.judger.tell(seat, &text)?;
        }
        Ok(None)
    }

    /// A seat failed: taken out when the rules let a game of three or more go on without it,
    /// else the game ends there (the seat last, or in a two-seat game, the other's win).
    fn fail(&mut self, fault: Fault) -> Step {
        let Some(seat) = fault.reason.culprit() else {
            return Err(over(GameResult::lost_by(fault.reason)));
        };
        let goes_on = self.seats() > 2 && !self.game.turn().is_over() && self.game.retire(seat);
        if let Some(why) = self.game.fault() {
            return Err(aborted(format!("the game's rules failed: {why}")));
        }
        if !goes_on {
            self.replay.failure = fault.failure;
            return Err(over(GameResult::failed(fault.reason, &self.game.scores())));
        }
        self.out[seat.index()] = true;
        self.replay.retired.push(Retirement {
            ply: self.replay.moves.len(),
            reason: fault.reason,
            failure: fault.failure,
        });
        Ok(())
    }

    /// A turn of one seat: its forced move, or its AI's answer.
    fn one(&mut self, seat: Seat) -> Step {
        let before = self.game.clone();
        if let Some(forced) = self.game.forced_move() {
            if let Err(e) = self.game.play(forced) {
                return Err(aborted(format!(
                    "the engine refused its own forced move: {e}"
                )));
            }
            let record = MoveRecord::new(seat, before.format_move(forced));
            return self.played(&before, vec![record], &[(seat, forced)], &[true]);
        }
        if self.out[seat.index()] {
            return Err(aborted(format!(
                "the game's rules failed: they ask the retired {seat} seat for a move"
            )));
        }
        let game_left = self.game_left(seat);
        self.round_time_for(&[seat])?;
        let request = self.script.ask(seat, self.game, game_left);
        self.judger.ask(seat, &request)?;
        let answer = self.judger.answer(seat)?;
        let chosen = match self.answered(seat, answer, game_left) {
            Ok(c) => c,
            Err(fault) => return self.fail(*fault),
        };
        if let Err(e) = self.game.play(chosen.mv) {
            if let Some(why) = self.game.fault() {
                return Err(aborted(format!("the game's rules failed: {why}")));
            }
            let reason = illegal_move(seat, &before, chosen.mv, Some(chosen.line.clone()), e);
            return self.fail(Fault {
                failure: Some(self.failure(seat, &chosen.record, game_left)),
                reason,
            });
        }
        let mv = chosen.mv;
        self.played(&before, vec![chosen.record], &[(seat, mv)], &[false])
    }

    /// A simultaneous turn: forced moves played, every other mover asked in one round that
    /// listens to all of them (none told anything of the others' choices until all have
    /// answered); failed seats taken out (or the game ended); then every move played
    /// together as one ply.
    fn together(&mut self, movers: SeatSet) -> Step {
        let mut forced = Vec::new();
        let mut to_ask = Vec::new();
        for seat in movers.iter() {
            match self.game.forced_move_of(seat) {
                Some(f) => forced.push((seat, f)),
                None if self.out[seat.index()] => {
                    return Err(aborted(format!(
                        "the game's rules failed: they ask the retired {seat} seat for a move"
                    )))
                }
                None => to_ask.push(seat),
            }
        }
        self.round_time_for(&to_ask)?;
        let requests: Vec<(Seat, String)> = to_ask
            .iter()
            .map(|&s| (s, self.script.ask(s, self.game, self.game_left(s))))
            .collect();
        if let Some(why) = self.game.fault() {
            return Err(aborted(format!("the game's rules failed: {why}")));
        }
        self.judger.ask_many(&requests)?;
        let answers = self.judger.answers(&to_ask)?;
        let mut chosen = Vec::new();
        let mut faults = Vec::new();
        for (seat, answer) in answers {
            let left = self.game_left(seat);
            match self.answered(seat, answer, left) {
                Ok(c) if self.game.legal_moves_of(seat).contains(&c.mv) => chosen.push(c),
                Ok(c) => {
                    let why = MoveError::Refused("it is not one of the seat's legal moves".into());
                    faults.push(Fault {
                        reason: illegal_move(seat, self.game, c.mv, Some(c.line), why),
                        failure: Some(self.failure(seat, &c.record, left)),
                    });
                }
                Err(fault) => faults.push(*fault),
            }
        }
        self.fail_together(faults)?;
        let mut joint: Vec<Joint> = forced.into_iter().map(|(s, m)| (s, m, None)).collect();
        joint.extend(
            chosen
                .into_iter()
                .map(|c| (c.seat, c.mv, Some((c.line, c.record)))),
        );
        joint.retain(|(s, _, _)| !self.out[s.index()]);
        joint.sort_by_key(|(s, _, _)| *s);
        self.play_together(joint)
    }

    /// The failures of one simultaneous turn: in a two-seat game both failing is nobody's
    /// win; otherwise each seat in turn is taken out or ends the game.
    fn fail_together(&mut self, faults: Vec<Fault>) -> Step {
        if let [a, b] = faults.as_slice() {
            if self.seats() == 2 {
                return Err(over(both_failed(&a.reason, &b.reason)));
            }
        }
        let live = self.out.iter().filter(|o| !**o).count();
        if !faults.is_empty() && faults.len() >= live {
            return Err(aborted(
                "every seat still in the game failed in the same turn",
            ));
        }
        for fault in faults {
            self.fail(fault)?;
        }
        Ok(())
    }

    /// Plays a simultaneous turn's moves (those of the seats still in it) as one ply.
    fn play_together(&mut self, joint: Vec<Joint>) -> Step {
        let movers: SeatSet = joint.iter().map(|(s, _, _)| *s).collect();
        match self.game.turn() {
            // Taking a seat out ended the game: no ply.
            Turn::Over => return Ok(()),
            turn if turn.movers() == movers => {}
            turn => {
                return Err(aborted(format!(
                    "the game's rules failed: after a seat was taken out the turn's movers \
                     are {:?}, not the {movers:?} that answered",
                    turn.movers()
                )))
            }
        }
        let before = self.game.clone();
        let moves: Vec<(Seat, AnyMove)> = joint.iter().map(|(s, m, _)| (*s, *m)).collect();
        if let Err((seat, e)) = self.game.play_together(&moves) {
            if let Some(why) = self.game.fault() {
                return Err(aborted(format!("the game's rules failed: {why}")));
            }
            let Some((_, mv, record)) = joint.iter().find(|(s, _, _)| *s == seat) else {
                return Err(aborted(
                    "the game's rules refused a move of a seat that did not move",
                ));
            };
            let line = record.as_ref().map(|(l, _)| l.clone());
            return self.fail(Fault::bare(illegal_move(seat, &before, *mv, line, e)));
        }
        let forced: Vec<bool> = joint.iter().map(|(_, _, r)| r.is_none()).collect();
        let records = joint
            .into_iter()
            .map(|(s, m, r)| match r {
                Some((_, record)) => record,
                None => MoveRecord::new(s, before.format_move(m)),
            })
            .collect();
        self.played(&before, records, &moves, &forced)
    }

    /// What `seat`'s game clock has left, when the game has one.
    fn game_left(&self, seat: Seat) -> Option<Duration> {
        self.options
            .game_time
            .map(|g| g.saturating_sub(self.used[seat.index()]))
    }

    /// Sets the round's time for the seats asked: the move time, shortened by the game clock
    /// of the one with the most left (each seat's own clock is checked on its answer). Seed
    /// 002 times rounds in (fractional) seconds; a round config has state 0 (seed 002, the
    /// templates' logic SDK); Saiblo's public local judger takes any other state for a round.
    fn round_time_for(&mut self, seats: &[Seat]) -> Step {
        let move_time = self.options.move_time;
        let budget = seats
            .iter()
            .map(|&s| self.game_left(s).map_or(move_time, |g| g.min(move_time)))
            .max()
            .unwrap_or(move_time);
        if budget != self.round_time {
            self.round_time = budget;
            self.judger
                .send_message(&LogicMessage::RoundConfig(RoundConfig {
                    state: 0,
                    time: Some(budget.as_secs_f64().max(0.001)),
                    length: Some(self.options.length),
                }))?;
        }
        Ok(())
    }

    /// A seat's answer (or the judger's report of its error) read into a move and its record,
    /// on its clock; or its fault.
    fn answered(
        &mut self,
        seat: Seat,
        answer: Result<(String, u64), AiError>,
        game_left: Option<Duration>,
    ) -> Result<Chosen, Box<Fault>> {
        let options = self.options;
        let (content, time) = match answer {
            Ok(a) => a,
            Err(e) => {
                let game_bound = game_left.is_some_and(|g| g < options.move_time);
                let reason = match (e.error, game_bound) {
                    (ErrorKind::TimeOut, true) => Reason::GameTime {
                        seat,
                        limit_ms: options.game_time.map_or(0, millis),
                    },
                    _ => error_reason(seat, &e, options.move_time, options.length),
                };
                return Err(Box::new(Fault::bare(reason)));
            }
        };
        self.used[seat.index()] += Duration::from_millis(time);
        let (log, answer) = split_answer(&content, |l| self.script.is_log(l));
        let mut record = MoveRecord::new(seat, String::new());
        record.time_ms = Some(time as f64);
        record.log = log;
        if let Some(g) = options.game_time {
            if self.used[seat.index()] > g {
                return Err(Box::new(Fault::bare(Reason::GameTime {
                    seat,
                    limit_ms: millis(g),
                })));
            }
        }
        let malformed = |line: String, record: &MoveRecord| {
            Box::new(Fault {
                failure: Some(self.failure(seat, record, game_left)),
                reason: Reason::MalformedOutput { seat, line },
            })
        };
        let line = match answer {
            Ok(l) => l,
            Err(text) => return Err(malformed(text, &record)),
        };
        let Some(mv) = self.script.parse(self.game, &line) else {
            return Err(malformed(line, &record));
        };
        record.mv = self.game.format_move(mv);
        Ok(Chosen {
            seat,
            mv,
            line,
            record,
        })
    }

    /// What the AI printed and spent with a failing answer, for the replay.
    fn failure(&self, seat: Seat, record: &MoveRecord, game_left: Option<Duration>) -> Failure {
        Failure {
            seat,
            log: record.log.clone(),
            stderr: None,
            exit: None,
            time_ms: record.time_ms,
            clock_ms: game_left.map(|g| g.as_secs_f64() * 1000.0),
        }
    }

    /// A ply was played: it goes into the replay, spectators see it, and every seat still in
    /// the game is told what it learns of it.
    fn played(
        &mut self,
        before: &AnyGame,
        mut records: Vec<MoveRecord>,
        moves: &[(Seat, AnyMove)],
        forced: &[bool],
    ) -> Step {
        let mut ply = records.remove(0);
        ply.with = records;
        super::watch_move(self.judger, self.options, &ply)?;
        self.replay.moves.push(ply);
        self.tell(before, moves, forced)
    }

    /// Tells each seat still in the game what it learns of a ply: the built-in games in
    /// their protocols' words, a module game by `PLAYED` lines of what the module reveals to
    /// the seat (its own moves only when forced).
    fn tell(&mut self, before: &AnyGame, moves: &[(Seat, AnyMove)], forced: &[bool]) -> Step {
        if before.as_module().is_none() {
            let [(seat, mv)] = moves else {
                return Err(aborted("a built-in game played several moves in one ply"));
            };
            if forced.first() == Some(&true) {
                if let Some(text) = self.script.own_forced(before, *mv) {
                    self.judger.tell(*seat, &text)?;
                }
            }
            if let Some(text) = self.script.opponent_moved(seat.other(), *mv) {
                self.judger.tell(seat.other(), &text)?;
            }
            return Ok(());
        }
        for seat in Seat::all(self.seats()) {
            if self.out[seat.index()] {
                continue;
            }
            let told = before.told_to(moves, seat);
            let mut text = String::new();
            for (i, (by, _)) in moves.iter().enumerate() {
                if *by == seat && !forced.get(i).copied().unwrap_or(false) {
                    continue;
                }
                if let Some(Some(t)) = told.get(i) {
                    text.push_str(&format!("PLAYED {} {t}\n", by.index() + 1));
                }
            }
            if !text.is_empty() {
                self.judger.tell(seat, &text)?;
            }
        }
        Ok(())
    }
}
