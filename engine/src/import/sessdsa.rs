//! Seed 000's 2048-duel record files (`&d` decisions, `&p` boards, `&e` events) as replays.
//!
//! A record does not hold the random sequence. Each own-half placement pins the round's value
//! modulo the number of free cells in that half, so the importer rebuilds a sequence that
//! agrees with every such placement (Chinese remaindering inside 0..720720); rounds without one
//! get 0. The rebuilt sequence replays the record exactly, which every `&p` board then checks.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use super::ImportError;
use crate::any::GameConfig;
use crate::duel2048::{self, Config, Duel, Move, RandomSource, MODULUS};
use crate::game::{Game, Seat};
use crate::replay::{GameResult, Meta, MoveRecord, Player, Reason, Replay};

/// The original platform's total thinking time per player.
const MAXTIME_MS: u64 = 5_000;

/// One decision line of a record, with the board printed after it (if any).
struct Decision {
    line_no: usize,
    round: u16,
    seat: Seat,
    what: DecisionText,
    board: Option<(usize, String)>,
}

enum DecisionText {
    Position(String),
    Direction(String),
}

/// Converts a record file's text into a replay.
pub fn import(text: &str) -> Result<Replay, ImportError> {
    let mut names = [String::from("player0"), String::from("player1")];
    let mut date = None;
    let mut decisions: Vec<Decision> = Vec::new();
    let mut events: Vec<(usize, String)> = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    let mut in_record = false;
    while let Some((i, raw)) = lines.next() {
        let line_no = i + 1;
        let line = raw.trim_end_matches('\r');
        if !in_record {
            if line.starts_with("*****complete record") {
                in_record = true;
            } else if let Some(rest) = line.strip_prefix("player0:") {
                names[0] = player_name(rest);
            } else if let Some(rest) = line.strip_prefix("player1:") {
                names[1] = player_name(rest);
            } else if let Some(rest) = line.strip_prefix("time:") {
                date = Some(rest.trim().to_string());
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("&d") {
            decisions.push(parse_decision(line_no, rest)?);
        } else if let Some(rest) = line.strip_prefix("&p") {
            let mut board = String::new();
            let first_line = line_no + 1;
            for _ in 0..duel2048::ROWS {
                match lines.next() {
                    Some((_, l)) => {
                        board.push_str(l.trim());
                        board.push('\n');
                    }
                    None => return Err(ImportError::at(line_no, "the file ends inside a board")),
                }
            }
            let _ = rest;
            match decisions.last_mut() {
                Some(d) if d.board.is_none() => d.board = Some((first_line, board)),
                _ => {
                    return Err(ImportError::at(
                        line_no,
                        "a board (&p) that follows no decision",
                    ))
                }
            }
        } else if let Some(rest) = line.strip_prefix("&e:") {
            events.push((line_no, rest.trim().to_string()));
        } else {
            return Err(ImportError::at(
                line_no,
                format!(
                    "expected a line starting with &d, &p or &e, found {:?}",
                    clip(line)
                ),
            ));
        }
    }
    if !in_record {
        return Err(ImportError::at(
            0,
            "no \"*****complete record*****\" line: not a sessdsa record",
        ));
    }

    let rounds = 500u16.max(decisions.iter().map(|d| d.round + 1).max().unwrap_or(0));
    let (violation, result_events) = classify_events(&events)?;
    let sequence = rebuild_sequence(rounds, &decisions, violation.as_ref())?;
    let config = Config {
        rounds,
        random: RandomSource::Sequence(sequence),
    };
    let mut game = Duel::new(&config).map_err(|e| ImportError::at(0, e.message))?;

    let mut moves = Vec::new();
    let mut illegal: Option<Reason> = None;
    for (k, d) in decisions.iter().enumerate() {
        skip_forced(&mut game, &mut moves);
        let is_last = k + 1 == decisions.len();
        if game.to_move() != Some(d.seat) {
            return Err(ImportError::at(
                d.line_no,
                format!("a decision by player {} out of turn", d.seat.index()),
            ));
        }
        let text = d.what.text();
        let parsed = game.parse_move(text);
        let played = match parsed {
            Ok(mv) => game.play(mv).map(|_| mv).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match played {
            Ok(mv) => moves.push(MoveRecord::new(d.seat, game_format(&game, mv))),
            Err(why) if is_last && violation.as_ref().map(|v| v.0) == Some(d.seat) => {
                illegal = Some(violation_reason(d, text, why, violation.as_ref()));
                break;
            }
            Err(why) => {
                return Err(ImportError::at(
                    d.line_no,
                    format!("decision {:?} cannot be played: {why}", text),
                ))
            }
        }
        if let Some((board_line, board)) = &d.board {
            let mut actual = String::new();
            game.write_board(&mut actual);
            if normalize(&actual) != normalize(board) {
                return Err(ImportError::BoardMismatch {
                    line: *board_line,
                    move_number: moves.len(),
                    expected: board.clone(),
                    actual,
                });
            }
        }
    }

    let (winner, reason) = match (illegal, violation, result_events) {
        (Some(reason), _, ev) => (ev.winner.or(reason.culprit().map(Seat::other)), reason),
        (None, Some((seat, kind, line)), _) => {
            let reason = match kind.as_str() {
                "time out" => Reason::GameTime {
                    seat,
                    limit_ms: MAXTIME_MS,
                },
                "run time error" => Reason::Crash {
                    seat,
                    exit_code: None,
                    signal: None,
                },
                other if other.starts_with("illegal output") => Reason::MalformedOutput {
                    seat,
                    line: String::new(),
                },
                other => {
                    return Err(ImportError::at(
                        line,
                        format!(
                            "violation {other:?} by player {} but no decision to judge",
                            seat.index()
                        ),
                    ))
                }
            };
            (Some(seat.other()), reason)
        }
        (None, None, ev) => {
            skip_forced(&mut game, &mut moves);
            match game.outcome() {
                Some(o) => {
                    if ev.known && ev.winner != o.winner {
                        return Err(ImportError::at(
                            ev.line,
                            format!(
                                "the record's result ({}) differs from the rules' ({})",
                                who(ev.winner),
                                who(o.winner)
                            ),
                        ));
                    }
                    (o.winner, Reason::Normal)
                }
                None => (
                    ev.winner,
                    Reason::Aborted {
                        message: "the record ends before the last round".into(),
                    },
                ),
            }
        }
    };

    let mut replay = Replay::new(
        GameConfig::Duel2048(config),
        [
            Player {
                name: names[0].clone(),
                seat: Seat::First,
                command: None,
            },
            Player {
                name: names[1].clone(),
                seat: Seat::Second,
                command: None,
            },
        ],
    );
    replay.moves = moves;
    replay.result = GameResult { winner, reason };
    if replay.result.reason == Reason::Normal {
        replay.scores = Some(game.scores());
    }
    replay.meta = Meta {
        date,
        source: Some("sessdsa record".into()),
        ..Meta::default()
    };
    Ok(replay)
}

impl DecisionText {
    fn text(&self) -> &str {
        match self {
            DecisionText::Position(s) | DecisionText::Direction(s) => s,
        }
    }
}

/// `0 from path ai/player.py` -> `ai/player.py`.
fn player_name(header: &str) -> String {
    let header = header.trim();
    header
        .split_once(" from path ")
        .map_or(header, |(_, path)| path.trim())
        .to_string()
}

fn parse_decision(line_no: usize, rest: &str) -> Result<Decision, ImportError> {
    // `<round>:player <0|1> set position (r, c)` or `... set direction right`
    let (round, body) = rest
        .split_once(':')
        .ok_or_else(|| ImportError::at(line_no, "a decision line without ':'"))?;
    let round: u16 = round.trim().parse().map_err(|_| {
        ImportError::at(line_no, format!("round {:?} is not a number", clip(round)))
    })?;
    let body = body.trim();
    let body = body
        .strip_prefix("player ")
        .ok_or_else(|| ImportError::at(line_no, "expected \"player N set ...\""))?;
    let (seat, body) = body
        .split_once(' ')
        .ok_or_else(|| ImportError::at(line_no, "expected \"player N set ...\""))?;
    let seat = match seat {
        "0" => Seat::First,
        "1" => Seat::Second,
        s => {
            return Err(ImportError::at(
                line_no,
                format!("player {s:?} is neither 0 nor 1"),
            ))
        }
    };
    let what = if let Some(p) = body.strip_prefix("set position") {
        DecisionText::Position(p.trim().to_string())
    } else if let Some(d) = body.strip_prefix("set direction") {
        DecisionText::Direction(d.trim().to_string())
    } else {
        return Err(ImportError::at(
            line_no,
            format!("unknown decision {:?}", clip(body)),
        ));
    };
    Ok(Decision {
        line_no,
        round,
        seat,
        what,
        board: None,
    })
}

/// The game's result as the `&e` lines tell it.
struct ResultEvents {
    known: bool,
    winner: Option<Seat>,
    line: usize,
}

type Violation = (Seat, String, usize);

fn classify_events(
    events: &[(usize, String)],
) -> Result<(Option<Violation>, ResultEvents), ImportError> {
    let mut violation = None;
    let mut result = ResultEvents {
        known: false,
        winner: None,
        line: 0,
    };
    for (line, e) in events {
        let seat_of = |s: &str| match s {
            "0" => Some(Seat::First),
            "1" => Some(Seat::Second),
            _ => None,
        };
        if let Some(rest) = e.strip_prefix("player ") {
            let (who, what) = rest.split_once(' ').unwrap_or((rest, ""));
            let Some(seat) = seat_of(who) else {
                return Err(ImportError::at(
                    *line,
                    format!("event names player {who:?}"),
                ));
            };
            if let Some(kind) = what.strip_prefix("violate by ") {
                violation = Some((seat, kind.trim().to_string(), *line));
            } else if what == "time out" || what == "run time error" {
                violation = Some((seat, what.to_string(), *line));
            } else if what.starts_with("win") {
                result = ResultEvents {
                    known: true,
                    winner: Some(seat),
                    line: *line,
                };
            }
        } else if e == "tied" {
            result = ResultEvents {
                known: true,
                winner: None,
                line: *line,
            };
        }
        // `check level 7`, `level 7 tied by 1`: scoring commentary, checked by the outcome.
    }
    Ok((violation, result))
}

fn violation_reason(d: &Decision, text: &str, why: String, v: Option<&Violation>) -> Reason {
    let kind = v.map(|v| v.1.as_str()).unwrap_or("");
    if kind.starts_with("illegal output") {
        let what = match d.what {
            DecisionText::Position(_) => "position",
            DecisionText::Direction(_) => "direction",
        };
        Reason::MalformedOutput {
            seat: d.seat,
            line: format!("{what} {text}"),
        }
    } else {
        Reason::IllegalMove {
            seat: d.seat,
            mv: text.to_string(),
            why,
            line: None,
        }
    }
}

/// Plays the skipped steps the record does not list.
fn skip_forced(game: &mut Duel, moves: &mut Vec<MoveRecord>) {
    while let (Some(seat), Some(mv)) = (game.to_move(), game.forced_move()) {
        if game.play(mv).is_err() {
            break;
        }
        moves.push(MoveRecord::new(seat, game_format(game, mv)));
    }
}

fn game_format(game: &Duel, mv: Move) -> String {
    game.format_move(mv)
}

/// A random sequence under which every own-half placement of the record is the legal one.
fn rebuild_sequence(
    rounds: u16,
    decisions: &[Decision],
    violation: Option<&Violation>,
) -> Result<Vec<u32>, ImportError> {
    // Replay with a provisional sequence, fixing each round's value as placements reveal it:
    // a placement only depends on values of its own round, so a left-to-right pass suffices.
    let mut seq = vec![0u32; usize::from(rounds)];
    // (modulus, residue, whether the value must hit it): a placement the record judged
    // "not achievable" must stay illegal, so its round's value has to miss it.
    let mut constraints: Vec<Vec<(u32, u32, bool)>> = vec![Vec::new(); usize::from(rounds)];
    let mut game = Duel::new(&Config {
        rounds,
        random: RandomSource::Sequence(seq.clone()),
    })
    .map_err(|e| ImportError::at(0, e.message))?;
    for (k, d) in decisions.iter().enumerate() {
        skip_forced(&mut game, &mut Vec::new());
        let is_last = k + 1 == decisions.len();
        if let DecisionText::Position(text) = &d.what {
            if let Ok(Move::Place { row, col }) = game.parse_move(text) {
                let own = half_owner(col) == d.seat;
                if own && game.cell(row, col).level == 0 {
                    let free = free_cells(&game, d.seat);
                    if let Some(idx) = free.iter().position(|&c| c == (row, col)) {
                        let r = usize::from(d.round);
                        if r < seq.len() {
                            let violating = is_last && violation.is_some_and(|v| v.0 == d.seat);
                            constraints[r].push((free.len() as u32, idx as u32, !violating));
                            seq[r] = solve(&constraints[r]).ok_or_else(|| {
                                ImportError::at(
                                    d.line_no,
                                    format!(
                                        "round {}: no random value makes this own-half placement and \
                                         the round's other one both legal (the record may come from \
                                         a platform version with other placement rules)",
                                        d.round
                                    ),
                                )
                            })?;
                            if violating {
                                break;
                            }
                            // Restart with the refined sequence up to here.
                            game = replay_prefix(rounds, &seq, decisions, k)?;
                            continue;
                        }
                    }
                }
            }
        }
        let text = d.what.text();
        let ok = game
            .parse_move(text)
            .ok()
            .map(|mv| game.play(mv).is_ok())
            .unwrap_or(false);
        if !ok {
            if is_last && violation.is_some() {
                break;
            }
            return Err(ImportError::at(
                d.line_no,
                format!("decision {:?} cannot be played", clip(text)),
            ));
        }
    }
    Ok(seq)
}

/// The position after decisions `0..=upto` under `seq`.
fn replay_prefix(
    rounds: u16,
    seq: &[u32],
    decisions: &[Decision],
    upto: usize,
) -> Result<Duel, ImportError> {
    let mut game = Duel::new(&Config {
        rounds,
        random: RandomSource::Sequence(seq.to_vec()),
    })
    .map_err(|e| ImportError::at(0, e.message))?;
    for d in &decisions[..=upto] {
        skip_forced(&mut game, &mut Vec::new());
        let mv = game
            .parse_move(d.what.text())
            .map_err(|e| ImportError::at(d.line_no, e.to_string()))?;
        game.play(mv)
            .map_err(|e| ImportError::at(d.line_no, e.to_string()))?;
    }
    Ok(game)
}

fn half_owner(col: u8) -> Seat {
    if col < duel2048::COLS / 2 {
        Seat::First
    } else {
        Seat::Second
    }
}

/// `none(p)`: p's empty own-half cells in row-major order, reversed for the second player.
fn free_cells(game: &Duel, seat: Seat) -> Vec<(u8, u8)> {
    let cols = match seat {
        Seat::First => 0..duel2048::COLS / 2,
        Seat::Second => duel2048::COLS / 2..duel2048::COLS,
    };
    let mut out = Vec::new();
    for r in 0..duel2048::ROWS {
        for c in cols.clone() {
            if game.cell(r, c).level == 0 {
                out.push((r, c));
            }
        }
    }
    if seat == Seat::Second {
        out.reverse();
    }
    out
}

/// The smallest value in 0..MODULUS with `value % m == r` for every required (m, r, true) and
/// `value % m != r` for every (m, r, false).
fn solve(constraints: &[(u32, u32, bool)]) -> Option<u32> {
    let (step, start) = constraints
        .iter()
        .find(|c| c.2)
        .map(|&(m, r, _)| (m, r))
        .unwrap_or((1, 0));
    let mut v = start;
    while v < MODULUS {
        if constraints.iter().all(|&(m, r, hit)| (v % m == r) == hit) {
            return Some(v);
        }
        v += step;
    }
    None
}

fn normalize(board: &str) -> Vec<&str> {
    board
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

fn who(w: Option<Seat>) -> String {
    match w {
        Some(s) => format!("player {} wins", s.index()),
        None => "a tie".to_string(),
    }
}

fn clip(s: &str) -> &str {
    match s.char_indices().nth(60) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Writes a 2048-duel replay as seed 000's record file, so the original analyser and people
/// used to it can read arbiter's games. Skipped steps write no decision, as on the original.
pub fn write_record(replay: &Replay) -> Result<String, crate::replay::ReplayError> {
    use core::fmt::Write as _;
    let rebuilt = replay.rebuild()?;
    let mut out = String::new();
    for p in &replay.players {
        let _ = writeln!(
            out,
            "player{}: {} from path {}",
            p.seat.index(),
            p.seat.index(),
            p.name
        );
    }
    let _ = writeln!(
        out,
        "time: {}",
        replay.meta.date.as_deref().unwrap_or("unknown")
    );
    let r = &replay.result;
    let culprit = r.reason.culprit().map(|s| format!("player {}", s.index()));
    let none = || String::from("None");
    let (timeout, violator, error) = match &r.reason {
        Reason::GameTime { .. } | Reason::MoveTime { .. } => {
            (culprit.unwrap_or_else(none), none(), none())
        }
        Reason::Crash { .. }
        | Reason::ExitedEarly { .. }
        | Reason::FailedToStart { .. }
        | Reason::Memory { .. } => (none(), none(), culprit.unwrap_or_else(none)),
        Reason::Normal | Reason::Aborted { .. } => (none(), none(), none()),
        _ => (none(), culprit.unwrap_or_else(none), none()),
    };
    let winner = r
        .winner
        .map(|s| format!("player {}", s.index()))
        .unwrap_or_else(none);
    let _ = writeln!(out, "*****basic record*****");
    let _ = writeln!(out, "| timeout | violator | error | winner |");
    let _ = writeln!(out, "| {timeout} | {violator} | {error} | {winner} |");
    let _ = writeln!(out, "*****");
    let _ = writeln!(out, "|player| 1| 2| 3| 4| 5| 6| 7| 8| 9| 10| 11| 12| 13|");
    let crate::any::AnyGame::Duel2048(end) = &rebuilt.end else {
        return Err(crate::replay::ReplayError::Config(
            "not a 2048-duel replay".into(),
        ));
    };
    for seat in Seat::BOTH {
        let counts = end.level_counts(seat);
        let _ = write!(out, "| {}|", seat.index());
        for c in &counts[1..14] {
            let _ = write!(out, " {c}|");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "*****complete record*****");
    let mut game = rebuilt.start.clone();
    for (rec, &mv) in replay.moves.iter().zip(&rebuilt.moves) {
        let crate::any::AnyGame::Duel2048(g) = &game else {
            break;
        };
        let round = g.round();
        let text = match mv {
            crate::any::AnyMove::Duel2048(Move::Place { row, col }) => {
                format!("position ({row}, {col})")
            }
            crate::any::AnyMove::Duel2048(Move::Slide(d)) => {
                format!("direction {}", direction_name(d))
            }
            _ => String::new(),
        };
        if game.play(mv).is_err() {
            break;
        }
        if text.is_empty() {
            continue;
        }
        let _ = writeln!(out, "&d{round}:player {} set {text}", rec.seat.index());
        if let crate::any::AnyGame::Duel2048(g) = &game {
            let _ = writeln!(out, "&p{round}:");
            g.write_board(&mut out);
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    match &r.reason {
        Reason::Normal => {
            if let Some(crate::game::Outcome {
                winner,
                reason: crate::game::EndReason::Levels { level, counts },
            }) = end.outcome()
            {
                match (winner, level) {
                    (Some(w), Some(l)) => {
                        let _ = writeln!(
                            out,
                            "&e:player {} win by level {l} ({} to {})",
                            w.index(),
                            counts[w.index()],
                            counts[w.other().index()]
                        );
                    }
                    _ => {
                        let _ = writeln!(out, "&e:tied");
                    }
                }
            }
        }
        reason => {
            // The failed decision itself, as the original logs it before the violation.
            let failed = match reason {
                Reason::IllegalMove { seat, mv, .. } => Some((
                    *seat,
                    match end.parse_move(mv) {
                        Ok(Move::Place { row, col }) => format!("({row}, {col})"),
                        Ok(Move::Slide(d)) => String::from(direction_name(d)),
                        _ => mv.clone(),
                    },
                )),
                Reason::MalformedOutput { seat, line } => Some((*seat, line.clone())),
                _ => None,
            };
            if let Some((seat, text)) = failed {
                let kind = match end.step_kind() {
                    crate::error::StepKind::Place => "position",
                    crate::error::StepKind::Slide => "direction",
                };
                let _ = writeln!(
                    out,
                    "&d{}:player {} set {kind} {text}",
                    end.round(),
                    seat.index()
                );
            }
            if let Some(seat) = reason.culprit() {
                let what = match reason {
                    Reason::IllegalMove { .. }
                        if end.step_kind() == crate::error::StepKind::Slide =>
                    {
                        "violate by not achievable direction"
                    }
                    Reason::IllegalMove { .. } => "violate by not achievable position",
                    Reason::MalformedOutput { .. } => "violate by illegal output",
                    Reason::GameTime { .. } | Reason::MoveTime { .. } => "time out",
                    _ => "run time error",
                };
                let _ = writeln!(out, "&e:player {} {what}", seat.index());
            }
            if let Some(w) = r.winner {
                let _ = writeln!(out, "&e:player {} win", w.index());
            }
        }
    }
    Ok(out)
}

fn direction_name(d: duel2048::Direction) -> &'static str {
    match d {
        duel2048::Direction::Up => "up",
        duel2048::Direction::Down => "down",
        duel2048::Direction::Left => "left",
        duel2048::Direction::Right => "right",
    }
}
