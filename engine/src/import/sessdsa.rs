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
/// The original platform's number of rounds (its `ROUNDS` default).
const ROUNDS: u16 = 500;

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
            if is_section(line, "complete record") {
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
            "no \"complete record\" line (stars, \"complete record\", stars): not a sessdsa record",
        ));
    }

    let (violation, result_events) = classify_events(&events)?;
    let last = decisions
        .iter()
        .map(|d| d.round.saturating_add(1))
        .max()
        .unwrap_or(0);
    let parsed = Parsed {
        names,
        date,
        decisions,
        violation,
        result_events,
    };
    let replay = build(&parsed, ROUNDS.max(last))?;
    // The original scores a game only after its last round, so a scored record that ends
    // before round 500 was played with fewer rounds (its ROUNDS parameter): the last one
    // it shows.
    let scored = parsed.violation.is_none() && parsed.result_events.known;
    if scored && last > 0 && last < ROUNDS && matches!(replay.result.reason, Reason::Aborted { .. })
    {
        return build(&parsed, last);
    }
    Ok(replay)
}

/// What a record file says, before it is checked against the rules.
struct Parsed {
    names: [String; 2],
    date: Option<String>,
    decisions: Vec<Decision>,
    violation: Option<Violation>,
    result_events: ResultEvents,
}

/// The replay of a parsed record played with `rounds` rounds.
fn build(parsed: &Parsed, rounds: u16) -> Result<Replay, ImportError> {
    let Parsed {
        names,
        date,
        decisions,
        violation,
        result_events,
    } = parsed;
    let sequence = rebuild_sequence(rounds, decisions, violation.as_ref())?;
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

    let (winner, reason) = match (illegal, violation.clone(), result_events) {
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
                seat: Seat::FIRST,
                command: None,
            },
            Player {
                name: names[1].clone(),
                seat: Seat::SECOND,
                command: None,
            },
        ],
    );
    replay.moves = moves;
    replay.result = GameResult {
        winner,
        places: None,
        reason,
    };
    if replay.result.reason == Reason::Normal {
        replay.scores = Some(game.scores().to_vec());
    }
    replay.meta = Meta {
        date: date.clone(),
        source: Some("sessdsa record".into()),
        ..Meta::default()
    };
    Ok(replay)
}

/// A section line: `complete record` centred in stars, as the original writes it
/// (`'{:*^45s}'.format(...)`), in the seed text's five-star form, or with any other padding.
fn is_section(line: &str, name: &str) -> bool {
    let line = line.trim();
    line.starts_with('*') && line.ends_with('*') && line.trim_matches('*').trim() == name
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
        "0" => Seat::FIRST,
        "1" => Seat::SECOND,
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
#[derive(Clone, Copy)]
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
            "0" => Some(Seat::FIRST),
            "1" => Some(Seat::SECOND),
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
        Seat::FIRST
    } else {
        Seat::SECOND
    }
}

/// `none(p)`: p's empty own-half cells in row-major order, reversed for the second player.
fn free_cells(game: &Duel, seat: Seat) -> Vec<(u8, u8)> {
    let cols = match seat {
        Seat::FIRST => 0..duel2048::COLS / 2,
        _ => duel2048::COLS / 2..duel2048::COLS,
    };
    let mut out = Vec::new();
    for r in 0..duel2048::ROWS {
        for c in cols.clone() {
            if game.cell(r, c).level == 0 {
                out.push((r, c));
            }
        }
    }
    if seat == Seat::SECOND {
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

/// Writes a 2048-duel replay as the original platform's `save()` writes a record file, line
/// for line (its 45- and 60-character tables, its star-centred section lines, its scoring
/// commentary), so that the original `analyser.py` and people used to the original read
/// arbiter's games. Skipped steps write no decision, as on the original.
pub fn write_record(replay: &Replay) -> Result<String, crate::replay::ReplayError> {
    use core::fmt::Write as _;
    let rebuilt = replay.rebuild()?;
    let crate::any::AnyGame::Duel2048(end) = &rebuilt.end else {
        return Err(crate::replay::ReplayError::Config(
            "not a 2048-duel replay".into(),
        ));
    };
    let mut out = String::new();
    for p in &replay.players {
        // The analyser splits the whole file at '&': a name must not hold one.
        let name = p.name.replace('&', "+");
        let _ = writeln!(out, "player{0}: {0} from path {name}", p.seat.index());
    }
    let _ = writeln!(out, "time: {}", record_time(replay.meta.date.as_deref()));
    write_tables(&mut out, &replay.result, end);
    let _ = writeln!(out, "{:*^45}", "complete record");
    let mut game = rebuilt.start.clone();
    for ply in &rebuilt.moves {
        let [(_, mv)] = ply.as_slice() else { break };
        let mv = *mv;
        let crate::any::AnyGame::Duel2048(g) = &game else {
            break;
        };
        let (round, seat) = (g.round(), g.to_move());
        let text = match mv {
            crate::any::AnyMove::Duel2048(m) => decision_text(m),
            _ => None,
        };
        if game.play(mv).is_err() {
            break;
        }
        let (Some(text), Some(seat), crate::any::AnyGame::Duel2048(g)) = (text, seat, &game) else {
            continue;
        };
        let _ = writeln!(out, "&d{round}:player {} set {text}", seat.index());
        let _ = writeln!(out, "&p{round}:");
        g.write_board(&mut out);
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    write_ending(&mut out, &replay.result, end);
    Ok(out)
}

/// The original's `time:` line: `2020-05-05 14:42:10`.
fn record_time(date: Option<&str>) -> String {
    let Some(date) = date else {
        return String::from("unknown");
    };
    // `2020-05-05T14:42:10Z` or with fractions -> `2020-05-05 14:42:10`.
    let mut t: String = date.chars().take(19).collect();
    if t.len() == 19 && t.as_bytes()[10] == b'T' {
        t.replace_range(10..11, " ");
        return t;
    }
    date.to_string()
}

/// How the original's basic record classes a result: which seat timed out, violated the
/// rules, or raised an error.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    Timeout,
    Violation,
    Error,
}

fn fault_of(reason: &Reason) -> Option<(Seat, Fault)> {
    let fault = match reason {
        Reason::Normal | Reason::Aborted { .. } => return None,
        // The original counts start-up in the thinking time: a silent start is a time out.
        Reason::MoveTime { .. } | Reason::GameTime { .. } | Reason::NoHandshake { .. } => {
            Fault::Timeout
        }
        Reason::IllegalMove { .. } | Reason::MalformedOutput { .. } => Fault::Violation,
        Reason::OutOfTurn { .. }
        | Reason::ProtocolError { .. }
        | Reason::Crash { .. }
        | Reason::Memory { .. }
        | Reason::ExitedEarly { .. }
        | Reason::FailedToStart { .. } => Fault::Error,
    };
    reason.culprit().map(|seat| (seat, fault))
}

/// `save()`'s two tables: timeout / violator / error / winner, and tiles per level.
fn write_tables(out: &mut String, result: &GameResult, end: &Duel) {
    use core::fmt::Write as _;
    let who = |s: Option<Seat>| match s {
        Some(s) => format!("player {}", s.index()),
        None => String::from("None"),
    };
    let fault = fault_of(&result.reason);
    let culprit = |f: Fault| who(fault.filter(|x| x.1 == f).map(|x| x.0));
    let _ = writeln!(out, "{:*^45}", "basic record");
    let _ = writeln!(out, "{}", "=".repeat(45));
    let _ = writeln!(
        out,
        "|{:^10}|{:^10}|{:^10}|{:^10}|",
        "timeout", "violator", "error", "winner"
    );
    let _ = writeln!(out, "{}", "-".repeat(45));
    let _ = writeln!(
        out,
        "|{:^10}|{:^10}|{:^10}|{:^10}|",
        culprit(Fault::Timeout),
        culprit(Fault::Violation),
        culprit(Fault::Error),
        who(result.winner)
    );
    let _ = writeln!(out, "{}", "=".repeat(45));
    let _ = writeln!(out, "{}", "=".repeat(60));
    let _ = write!(out, "|{:>6}|", "player");
    for level in 1..14 {
        let _ = write!(out, "{level:>3}|");
    }
    out.push('\n');
    for seat in Seat::BOTH {
        let _ = writeln!(out, "{}", "-".repeat(60));
        let _ = write!(out, "|{:>6}|", seat.index());
        for count in &end.level_counts(seat)[1..14] {
            let _ = write!(out, "{count:>3}|");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{}", "=".repeat(60));
}

/// A decision as the original logs it: `position (r, c)` or `direction left`.
fn decision_text(mv: Move) -> Option<String> {
    match mv {
        Move::Place { row, col } => Some(format!("position ({row}, {col})")),
        Move::Slide(d) => Some(format!("direction {}", direction_name(d))),
        Move::Skip => None,
    }
}

/// The log's last lines: the scoring commentary of a finished game, or the failed decision,
/// the fault and the winner.
fn write_ending(out: &mut String, result: &GameResult, end: &Duel) {
    use core::fmt::Write as _;
    let Some((seat, fault)) = fault_of(&result.reason) else {
        if result.reason == Reason::Normal {
            write_scoring(out, end);
        }
        return;
    };
    let place = end.step_kind() == crate::error::StepKind::Place;
    let what = if place { "position" } else { "direction" };
    let round = end.round();
    let off_board = |row: u8, col: u8| row >= duel2048::ROWS || col >= duel2048::COLS;
    let event = match &result.reason {
        Reason::IllegalMove { mv, .. } => match end.parse_move(mv) {
            // The original calls an off-board cell an illegal output, written `unknown`.
            Ok(Move::Place { row, col }) if off_board(row, col) => {
                let _ = writeln!(
                    out,
                    "&d{round}:player {} set position unknown",
                    seat.index()
                );
                String::from("violate by illegal output of position")
            }
            Ok(m) => {
                let text = decision_text(m).unwrap_or_else(|| format!("{what} unknown"));
                let _ = writeln!(out, "&d{round}:player {} set {text}", seat.index());
                format!("violate by not achievable {what}")
            }
            Err(_) => {
                let _ = writeln!(out, "&d{round}:player {} set {what} unknown", seat.index());
                format!("violate by illegal output of {what}")
            }
        },
        Reason::MalformedOutput { .. } => {
            let _ = writeln!(out, "&d{round}:player {} set {what} unknown", seat.index());
            format!("violate by illegal output of {what}")
        }
        _ if fault == Fault::Timeout => String::from("time out"),
        _ => String::from("run time error"),
    };
    let _ = writeln!(out, "&e:player {} {event}", seat.index());
    if let Some(w) = result.winner {
        let _ = writeln!(out, "&e:player {} win", w.index());
    }
}

/// `save()`'s scoring: levels 13 down to 1, first seat's count before the second's.
fn write_scoring(out: &mut String, end: &Duel) {
    use core::fmt::Write as _;
    let counts = [
        end.level_counts(Seat::FIRST),
        end.level_counts(Seat::SECOND),
    ];
    for level in (1..14).rev() {
        let (a, b) = (counts[0][level], counts[1][level]);
        let _ = writeln!(out, "&e:check level {level}");
        if a == b {
            let _ = writeln!(out, "&e:level {level} tied by {a}");
        } else {
            let w = if a > b { 0 } else { 1 };
            let _ = writeln!(out, "&e:player {w} win by level {level} ({a} to {b})");
            return;
        }
    }
    let _ = writeln!(out, "&e:tied");
}

fn direction_name(d: duel2048::Direction) -> &'static str {
    match d {
        duel2048::Direction::Up => "up",
        duel2048::Direction::Down => "down",
        duel2048::Direction::Left => "left",
        duel2048::Direction::Right => "right",
    }
}
