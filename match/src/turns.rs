//! The move loop: turns of one seat, or of several at once (a simultaneous turn: every mover
//! asked at the same time, each on its own clock, none told anything of the others' choices
//! until all have answered); what each seat is told of every ply; a seat that fails, taken
//! out while the others play on (a game of three or more seats whose rules allow it) or
//! ending the game.

use std::time::{Duration, Instant};

use arbiter_engine::any::{AnyGame, AnyMove, MoveError};
use arbiter_engine::replay::{GameResult, MoveRecord, Reason, Replay, Retirement};
use arbiter_engine::{Seat, SeatSet, Turn};

use crate::game::{
    both_failed, charged, shake_hands, spawn_all, unwritable_scratch, Ending, GameLimits, Request,
    Side, Table, Timing, Voided,
};
use crate::live::{Endpoint, Live};
use crate::protocol::{Ask, News, Reply};
use crate::verdict::{failure_record, illegal_move, millis, verdict, Phase};

/// Plays the game from the bots' start to its end.
pub(crate) fn run(
    table: &Table<'_>,
    game: &mut AnyGame,
    sides: &mut [Side],
    replay: &mut Replay,
    warnings: &mut Vec<String>,
    timing: &mut Timing,
    live: &mut Live<'_>,
) -> Ending {
    let setup_start = Instant::now();
    let limits = &table.spec.limits;
    if let Some(void) = unwritable_scratch(sides) {
        return Ending::Void(void);
    }
    // Start every bot, then shake hands with each: a bot that cannot start has failed, and if
    // none can, nobody wins.
    let mut failed = spawn_all(table, sides, warnings, live);
    let opening = crate::game::opening_with(table.spec, replay);
    shake_hands(limits, game, &opening, sides, &mut failed);
    let mut play = Play {
        game,
        sides,
        replay,
        limits,
        live,
    };
    if let Err(ending) = play.start_failures(failed) {
        return ending;
    }
    timing.setup = setup_start.elapsed();
    let max_plies = table.spec.max_plies;
    loop {
        if let Some(ending) = module_failed(play.game) {
            return ending;
        }
        if let Some(places) = play.game.places() {
            return Ending::Over(GameResult::ranked(places, Reason::Normal));
        }
        if play.replay.moves.len() >= max_plies {
            return Ending::Over(GameResult::aborted(format!(
                "the game's rules failed: the game did not end within {max_plies} plies"
            )));
        }
        let played = match play.game.turn() {
            Turn::Over => Err(aborted("the game has no side to move")),
            Turn::Seat(seat) => play.one(seat),
            Turn::Together(movers) => play.together(movers),
        };
        if let Err(ending) = played {
            return ending;
        }
    }
}

fn aborted(why: &str) -> Ending {
    Ending::Over(GameResult::aborted(why.to_string()))
}

/// A game module that failed (trapped, ran out of fuel, answered nonsense) ends the game with
/// no result: the module is at fault, never a bot.
fn module_failed(game: &AnyGame) -> Option<Ending> {
    game.fault().map(|why| {
        Ending::Over(GameResult::aborted(format!(
            "the game's rules failed: {why}"
        )))
    })
}

/// A bot's answer in time: what it said, the line as it wrote it, and what it cost.
struct Answer {
    reply: Reply,
    sent: Option<String>,
    charged: Duration,
    cpu: Duration,
}

/// Why a bot gave no answer to use.
enum Missed {
    /// The bot failed (a time loss, a crash, a protocol fault): its verdict.
    Failed(Reason),
    /// Only a stall of the judge made it late: the game is no result, to play again.
    Void(Voided),
    /// Nobody's fault (a side without a process).
    Aborted(String),
}

/// The game in play: its position, its seats, its replay.
struct Play<'a, 'l> {
    game: &'a mut AnyGame,
    sides: &'a mut [Side],
    replay: &'a mut Replay,
    limits: &'a GameLimits,
    live: &'a mut Live<'l>,
}

impl Play<'_, '_> {
    /// Bots that could not start or shake hands: in a two-seat game the other wins (nobody
    /// when both failed); with more seats each is taken out if the rules let the game go on
    /// without it.
    fn start_failures(&mut self, failed: Vec<Option<Reason>>) -> Result<(), Ending> {
        let reasons: Vec<&Reason> = failed.iter().flatten().collect();
        match (failed.len(), reasons.as_slice()) {
            (_, []) => return Ok(()),
            (2, [a, b]) => return Err(Ending::Over(both_failed(a, b))),
            (2, [r]) => return Err(Ending::Over(GameResult::lost_by((*r).clone()))),
            (n, all) if all.len() == n => {
                let words: Vec<String> = all
                    .iter()
                    .filter_map(|r| Some(format!("{}: {r}", r.culprit()?)))
                    .collect();
                return Err(aborted(&format!("every bot failed: {}", words.join("; "))));
            }
            _ => {}
        }
        for reason in failed.into_iter().flatten() {
            self.fail(reason)?;
        }
        Ok(())
    }

    /// A seat failed: taken out when the rules let a game of three or more go on without it,
    /// else the game ends there (the seat last, or in a two-seat game, the other's win).
    fn fail(&mut self, reason: Reason) -> Result<(), Ending> {
        let Some(seat) = reason.culprit() else {
            return Err(Ending::Over(GameResult::lost_by(reason)));
        };
        let goes_on =
            self.game.seats() > 2 && !self.game.turn().is_over() && self.game.retire(seat);
        if let Some(ending) = module_failed(self.game) {
            return Err(ending);
        }
        if !goes_on {
            return Err(Ending::Over(GameResult::failed(
                reason,
                &self.game.scores(),
            )));
        }
        let side = &mut self.sides[seat.index()];
        let failure = failure_record(seat, side, &reason);
        side.out = true;
        if let (Some(wire), None) = (side.wire.as_mut(), &side.exit) {
            // Out of the game: it hears nothing more, and its tree ends now.
            side.exit = Some(wire.process.finish(Duration::from_millis(50)));
        }
        self.replay.retired.push(Retirement {
            ply: self.replay.moves.len(),
            reason,
            failure,
        });
        if let Some(o) = self.live.observer.as_mut() {
            o.retired(self.replay);
        }
        Ok(())
    }

    /// A turn of one seat: its forced move, or its bot's answer.
    fn one(&mut self, seat: Seat) -> Result<(), Ending> {
        let before = self.game.clone();
        if let Some(forced) = self.game.forced_move() {
            if let Err(e) = self.game.play(forced) {
                return Err(aborted(&format!(
                    "the engine refused its own forced move: {e}"
                )));
            }
            let record = MoveRecord::new(seat, before.format_move(forced));
            return self.played(&before, vec![record], &[(seat, forced)], &[true]);
        }
        if self.sides[seat.index()].out {
            return Err(aborted(&format!(
                "the game's rules failed: they ask the retired {seat} seat for a move"
            )));
        }
        let opponent_left = self.opponent_left(seat);
        let ply = self.replay.moves.len() + 1;
        let side = &mut self.sides[seat.index()];
        let asked = ask(side, seat, self.game, self.limits, ply, opponent_left);
        // The question itself runs a module game's rules (what the seat is told, its legal
        // moves): a module that failed there is at fault, not the bot that got no question.
        if let Some(ending) = module_failed(self.game) {
            return Err(ending);
        }
        let answer = match asked {
            Ok(a) => a,
            Err(missed) => return self.missed(missed),
        };
        let mv = match answer.reply {
            Reply::Malformed(line) => return self.fail(Reason::MalformedOutput { seat, line }),
            Reply::Move(mv) => mv,
        };
        if let Err(e) = self.game.play(mv) {
            if let Some(ending) = module_failed(self.game) {
                return Err(ending);
            }
            return self.fail(illegal_move(seat, &before, mv, answer.sent, e));
        }
        let record = self.record(seat, &before, mv, &answer);
        self.played(&before, vec![record], &[(seat, mv)], &[false])
    }

    /// A simultaneous turn: forced moves played, every other mover asked at once; failed
    /// seats taken out (or the game ended); then every move played together as one ply.
    fn together(&mut self, movers: SeatSet) -> Result<(), Ending> {
        let mut forced = Vec::new();
        let mut to_ask = Vec::new();
        for seat in movers.iter() {
            match self.game.forced_move_of(seat) {
                Some(f) => forced.push((seat, f)),
                None if self.sides[seat.index()].out => {
                    return Err(aborted(&format!(
                        "the game's rules failed: they ask the retired {seat} seat for a move"
                    )))
                }
                None => to_ask.push(seat),
            }
        }
        let ply = self.replay.moves.len() + 1;
        let answers = ask_together(self.sides, &to_ask, self.game, self.limits, ply);
        if let Some(ending) = module_failed(self.game) {
            return Err(ending);
        }
        let (chosen, failures) = self.sort_answers(answers)?;
        self.fail_together(failures)?;
        let mut joint: Vec<(Seat, AnyMove, Option<Answer>)> =
            forced.into_iter().map(|(s, m)| (s, m, None)).collect();
        joint.extend(chosen.into_iter().map(|(s, m, a)| (s, m, Some(a))));
        joint.retain(|(s, _, _)| !self.sides[s.index()].out);
        joint.sort_by_key(|(s, _, _)| *s);
        self.play_together(joint)
    }

    /// The answers of a simultaneous turn: legal moves, and the failures (a void first).
    #[allow(clippy::type_complexity)]
    fn sort_answers(
        &mut self,
        answers: Vec<(Seat, Result<Answer, Missed>)>,
    ) -> Result<(Vec<(Seat, AnyMove, Answer)>, Vec<Reason>), Ending> {
        let mut chosen = Vec::new();
        let mut failures = Vec::new();
        for (seat, answer) in answers {
            let answer = match answer {
                Ok(a) => a,
                Err(Missed::Void(v)) => return Err(Ending::Void(v)),
                Err(Missed::Aborted(why)) => return Err(aborted(&why)),
                Err(Missed::Failed(reason)) => {
                    failures.push(reason);
                    continue;
                }
            };
            match answer.reply {
                Reply::Malformed(ref line) => failures.push(Reason::MalformedOutput {
                    seat,
                    line: line.clone(),
                }),
                Reply::Move(mv) if self.game.legal_moves_of(seat).contains(&mv) => {
                    chosen.push((seat, mv, answer))
                }
                Reply::Move(mv) => {
                    let why = MoveError::Refused("it is not one of the seat's legal moves".into());
                    failures.push(illegal_move(seat, self.game, mv, answer.sent, why));
                }
            }
        }
        Ok((chosen, failures))
    }

    /// The failures of one simultaneous turn: in a two-seat game both failing is nobody's
    /// win; otherwise each seat in turn is taken out or ends the game.
    fn fail_together(&mut self, failures: Vec<Reason>) -> Result<(), Ending> {
        if let [a, b] = failures.as_slice() {
            if self.game.seats() == 2 {
                return Err(Ending::Over(both_failed(a, b)));
            }
        }
        let live = self.sides.iter().filter(|s| !s.out).count();
        if !failures.is_empty() && failures.len() >= live {
            return Err(aborted(
                "every seat still in the game failed in the same turn",
            ));
        }
        for reason in failures {
            self.fail(reason)?;
        }
        Ok(())
    }

    /// Plays a simultaneous turn's moves (those of the seats still in it) as one ply.
    fn play_together(&mut self, joint: Vec<(Seat, AnyMove, Option<Answer>)>) -> Result<(), Ending> {
        let movers: SeatSet = joint.iter().map(|(s, _, _)| *s).collect();
        match self.game.turn() {
            // Taking a seat out ended the game: no ply.
            Turn::Over => return Ok(()),
            turn if turn.movers() == movers => {}
            turn => {
                return Err(aborted(&format!(
                    "the game's rules failed: after a seat was taken out the turn's movers \
                     are {:?}, not the {movers:?} that answered",
                    turn.movers()
                )))
            }
        }
        let before = self.game.clone();
        let moves: Vec<(Seat, AnyMove)> = joint.iter().map(|(s, m, _)| (*s, *m)).collect();
        if let Err((seat, e)) = self.game.play_together(&moves) {
            if let Some(ending) = module_failed(self.game) {
                return Err(ending);
            }
            let (_, mv, answer) = joint.iter().find(|(s, _, _)| *s == seat).ok_or_else(|| {
                aborted("the game's rules refused a move of a seat that did not move")
            })?;
            let sent = answer.as_ref().and_then(|a| a.sent.clone());
            return self.fail(illegal_move(seat, &before, *mv, sent, e));
        }
        let forced: Vec<bool> = joint.iter().map(|(_, _, a)| a.is_none()).collect();
        let records = joint
            .iter()
            .map(|(s, m, a)| match a {
                Some(a) => self.record(*s, &before, *m, a),
                None => MoveRecord::new(*s, before.format_move(*m)),
            })
            .collect();
        self.played(&before, records, &moves, &forced)
    }

    /// The record of `seat`'s answered move, with its time and its DEBUG output.
    fn record(&mut self, seat: Seat, before: &AnyGame, mv: AnyMove, a: &Answer) -> MoveRecord {
        let side = &mut self.sides[seat.index()];
        let mut record = MoveRecord::new(seat, before.format_move(mv));
        record.time_ms = Some(a.charged.as_secs_f64() * 1000.0);
        record.cpu_ms = Some(a.cpu.as_secs_f64() * 1000.0);
        record.log = side.request.log.take();
        side.request = Request::default();
        record
    }

    /// A ply was played: it goes into the replay, spectators see it, and every seat still in
    /// the game is told what it learns of it.
    fn played(
        &mut self,
        before: &AnyGame,
        mut records: Vec<MoveRecord>,
        moves: &[(Seat, AnyMove)],
        forced: &[bool],
    ) -> Result<(), Ending> {
        let mut ply = records.remove(0);
        ply.with = records;
        self.replay.moves.push(ply);
        if let Some(o) = self.live.observer.as_mut() {
            o.moved(self.replay);
        }
        for reason in self.tell(before, moves, forced) {
            self.fail(reason)?;
        }
        Ok(())
    }

    /// Tells each seat still in the game what it learns of a ply; the verdicts of those that
    /// failed to listen.
    fn tell(
        &mut self,
        before: &AnyGame,
        moves: &[(Seat, AnyMove)],
        forced: &[bool],
    ) -> Vec<Reason> {
        let mut failed = Vec::new();
        for (i, seat) in Seat::all(self.sides.len()).enumerate() {
            let told = before.told_to(moves, seat);
            let side = &mut self.sides[i];
            if side.out {
                continue;
            }
            let Some(wire) = side.wire.as_mut() else {
                continue;
            };
            let news = News {
                before,
                moves,
                told: &told,
                forced,
            };
            if let Err(fault) = side.protocol.moved(wire, seat, &news) {
                failed.push(verdict(seat, fault, side, self.limits, Phase::Between));
            }
        }
        failed
    }

    /// How a missed answer ends the turn: a void, an abort, or the seat's failure.
    fn missed(&mut self, missed: Missed) -> Result<(), Ending> {
        match missed {
            Missed::Failed(reason) => self.fail(reason),
            Missed::Void(v) => Err(Ending::Void(v)),
            Missed::Aborted(why) => Err(aborted(&why)),
        }
    }

    /// The opponent's game clock left, for the protocols that carry it (two seats only).
    fn opponent_left(&self, seat: Seat) -> Option<Duration> {
        let other = self
            .sides
            .get(seat.other().index())
            .filter(|_| self.sides.len() == 2)?;
        self.limits
            .time
            .per_game
            .map(|g| g.saturating_sub(other.used))
    }
}

/// Asks every seat of `seats` at once, each on its own clock, each in a thread of its own with
/// its own copy of the position: their answers, in seat order.
fn ask_together(
    sides: &mut [Side],
    seats: &[Seat],
    game: &AnyGame,
    limits: &GameLimits,
    ply: usize,
) -> Vec<(Seat, Result<Answer, Missed>)> {
    if let [seat] = seats {
        let side = &mut sides[seat.index()];
        return vec![(*seat, ask(side, *seat, game, limits, ply, None))];
    }
    let asked: Vec<(Seat, &mut Side, AnyGame)> = sides
        .iter_mut()
        .enumerate()
        .filter_map(|(i, side)| {
            let seat = Seat::from_index(i)?;
            seats.contains(&seat).then(|| (seat, side, game.clone()))
        })
        .collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = asked
            .into_iter()
            .map(|(seat, side, copy)| {
                scope.spawn(move || {
                    // Deadlines as precise as the referee's own thread's; best effort.
                    let _ = arbiter_sandbox::precise_timers_for_this_thread();
                    (seat, ask(side, seat, &copy, limits, ply, None))
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    })
}

/// Asks `seat` for its move (the `ply`-th of the game), on its clocks: its answer, or why
/// there is none (its failure, or a void when only a stall made it late).
fn ask(
    side: &mut Side,
    seat: Seat,
    game: &AnyGame,
    limits: &GameLimits,
    ply: usize,
    opponent_left: Option<Duration>,
) -> Result<Answer, Missed> {
    let person;
    let limits = match (&side.wire, limits.person_time) {
        (Some(w), Some(time)) if matches!(w.process, Endpoint::Remote(_)) => {
            person = GameLimits {
                time,
                ..limits.clone()
            };
            &person
        }
        _ => limits,
    };
    let Some(wire) = side.wire.as_mut() else {
        return Err(Missed::Aborted("a bot has no process".into()));
    };
    if !limits.ponder {
        wire.process.thaw();
    }
    let game_left = limits.time.per_game.map(|g| g.saturating_sub(side.used));
    let budget = match (limits.time.per_move, game_left) {
        (Some(m), Some(g)) => m.min(g),
        (Some(m), None) => m,
        (None, Some(g)) => g,
        (None, None) => Duration::from_secs(365 * 24 * 3600),
    };
    let t0 = Instant::now();
    let request = Ask {
        game,
        seat,
        time_left: game_left,
        opponent_time_left: opponent_left,
        deadline: t0 + budget + limits.time.tolerance,
    };
    wire.start_request();
    let reply = side.protocol.ask(wire, &request);
    let elapsed = t0.elapsed();
    let (charged, stall) = charged(wire, elapsed);
    let sent = wire.take_last_line();
    side.used += charged;
    let cpu_now = wire.process.cpu_time();
    let cpu = cpu_now.saturating_sub(side.cpu_seen);
    side.cpu_seen = cpu_now;
    if !limits.ponder {
        wire.process.freeze();
    }
    side.request = Request {
        log: wire.take_log(),
        time: Some(charged),
        clock: game_left,
    };
    let lose = |reason| Err(Missed::Failed(reason));
    if wire.process.stderr_total_bytes() > limits.max_output_bytes {
        return lose(Reason::ProtocolError {
            seat,
            message: format!(
                "wrote more than {} MB to standard error",
                limits.max_output_bytes >> 20
            ),
        });
    }
    let reply = match reply {
        Ok(r) => r,
        Err(fault) => {
            // Which clock ran out: the game clock when less of it was left than a move.
            let game_clock_bound = match (game_left, limits.time.per_move) {
                (Some(left), Some(per_move)) => left < per_move,
                (Some(_), None) => true,
                (None, _) => false,
            };
            let phase = Phase::Move { game_clock_bound };
            return lose(verdict(seat, fault, side, limits, phase));
        }
    };
    // An answer that came in time only because the wait was extended by a stall of the
    // judge: the bot did nothing wrong, but the game went where no sound machine takes one
    // (its opponent pondered through the stall). It is no result: void, play again.
    let late = elapsed > budget + limits.time.tolerance;
    if late && charged <= budget + limits.time.tolerance {
        return Err(Missed::Void(Voided {
            why: stall.describe(ply),
            storage: false,
        }));
    }
    // Late answers lose even when they arrive within the read deadline's tolerance.
    if let Some(m) = limits.time.per_move {
        if charged > m + limits.time.tolerance {
            return lose(Reason::MoveTime {
                seat,
                limit_ms: millis(m),
            });
        }
    }
    if let Some(g) = limits.time.per_game {
        if side.used > g + limits.time.tolerance {
            return lose(Reason::GameTime {
                seat,
                limit_ms: millis(g),
            });
        }
    }
    Ok(Answer {
        reply,
        sent,
        charged,
        cpu,
    })
}
