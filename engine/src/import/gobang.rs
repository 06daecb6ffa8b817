//! Seed 003's Gobang bridge logs: a JSON array of games (or one game object), each
//! `{"ForbiddenRule", "WinPlayer", "Wincode", "Black", "White", "MoveLog": [[isBlack, row, col]]}`.
//! Keys are matched in any case (the bridge's first logging version wrote `forbidden`,
//! `wincode`, `moveLog` ...); `ForbiddenRule` is "On"/"Off" or 1/0; `Wincode` may be spelt as
//! seed 003's text does (`Still-Playing`, `Non-empt position`). Anything else is an error
//! naming it: the importer never guesses a rule or a result.
//!
//! Coordinates: the bridge writes `MOVE A3` with the letter as the column and row 1 at the
//! bottom; `MoveLog` holds (row, col) in that numbering. Whether they count from 1 or 0 the
//! logs do not say, so [`Base::Detect`] decides per file: any 0 means 0-based, else 1-based.
//! The original approximated renju; a move it judged forbidden that full RIF renju allows is
//! reported as a warning, and the engine's verdict stands.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use super::ImportError;
use crate::any::GameConfig;
use crate::game::{Game, Seat};
use crate::gomoku::{Config, Gomoku, Point, Rule};
use crate::replay::{GameResult, Meta, MoveRecord, Player, Reason, Replay};

const SIZE: u8 = 15;

/// How `MoveLog` counts rows and columns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Base {
    Zero,
    One,
    Detect,
}

/// The replays of a log file, and what did not agree with the rules.
#[derive(Clone, Debug)]
pub struct Imported {
    pub replays: Vec<Replay>,
    pub warnings: Vec<String>,
}

pub fn import(text: &str, base: Base) -> Result<Imported, ImportError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ImportError::at(0, format!("not valid JSON: {e}")))?;
    let games = match value {
        Value::Array(a) => a,
        obj @ Value::Object(_) => alloc::vec![obj],
        _ => {
            return Err(ImportError::at(
                0,
                "expected a JSON array of games or one game object",
            ))
        }
    };
    let mut out = Imported {
        replays: Vec::new(),
        warnings: Vec::new(),
    };
    let base = match base {
        Base::Detect => {
            let b = detect_base(&games);
            if b == Base::Zero {
                out.warnings.push(
                    "a coordinate is 0, so rows and columns are read as counting from 0 \
                     (the bridge itself counts from 1)"
                        .to_string(),
                );
            }
            b
        }
        b => b,
    };
    for (i, g) in games.iter().enumerate() {
        let replay = import_game(g, base, &mut out.warnings)
            .map_err(|message| ImportError::Game { game: i, message })?;
        out.replays.push(replay);
    }
    Ok(out)
}

fn detect_base(games: &[Value]) -> Base {
    let zero = games.iter().any(|g| {
        g.as_object()
            .and_then(|o| o.iter().find(|(k, _)| k.eq_ignore_ascii_case("movelog")))
            .and_then(|(_, v)| v.as_array())
            .is_some_and(|log| {
                log.iter().any(|m| {
                    m.as_array()
                        .is_some_and(|m| m.iter().skip(1).any(|v| v.as_i64() == Some(0)))
                })
            })
    });
    if zero {
        Base::Zero
    } else {
        Base::One
    }
}

fn player(v: Option<&Value>, seat: Seat) -> Player {
    let (name, command) = match v {
        Some(Value::Object(o)) => {
            let cmd = o.get("CmdLine").and_then(Value::as_str).map(str::to_string);
            let name = cmd
                .as_deref()
                .and_then(|c| c.rsplit(['/', '\\']).next())
                .unwrap_or("bot")
                .to_string();
            (name, cmd)
        }
        Some(Value::String(s)) => (s.clone(), None),
        _ => (String::from("unknown"), None),
    };
    Player {
        name,
        seat,
        command,
    }
}

/// A game object's fields, found whatever their case: the bridge has written `ForbiddenRule`,
/// `WinPlayer`, `Wincode`, `Black`, `White`, `MoveLog` (v1.1) and `forbidden`, `wincode`,
/// `black`, `white`, `moveLog` (its first logging version); seed 003's text also spells
/// `movelog`, `Movelog` and `While`.
struct Fields<'a> {
    rule: Option<&'a Value>,
    win_player: Option<&'a Value>,
    wincode: Option<&'a Value>,
    black: Option<&'a Value>,
    white: Option<&'a Value>,
    moves: Option<&'a Value>,
}

const KEYS: &str = "ForbiddenRule, WinPlayer, Wincode, Black, White and MoveLog";

fn fields(obj: &serde_json::Map<String, Value>) -> Result<Fields<'_>, String> {
    let mut f = Fields {
        rule: None,
        win_player: None,
        wincode: None,
        black: None,
        white: None,
        moves: None,
    };
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (key, value) in obj {
        let (name, slot) = match key.to_ascii_lowercase().as_str() {
            "forbiddenrule" | "forbidden" => ("ForbiddenRule", &mut f.rule),
            "winplayer" => ("WinPlayer", &mut f.win_player),
            "wincode" => ("Wincode", &mut f.wincode),
            "black" => ("Black", &mut f.black),
            "white" | "while" => ("White", &mut f.white),
            "movelog" => ("MoveLog", &mut f.moves),
            _ => return Err(format!("unknown key {key:?}: a game has {KEYS}")),
        };
        if let Some((_, other)) = seen.iter().find(|(n, _)| *n == name) {
            return Err(format!(
                "both {other:?} and {key:?} given: which one is {name}?"
            ));
        }
        seen.push((name, key));
        *slot = Some(value);
    }
    Ok(f)
}

/// `ForbiddenRule`: "On"/"Off" as the bridge writes it, or 1/0 as seed 003's text gives it.
fn rule_of(v: Option<&Value>) -> Result<Rule, String> {
    match v {
        Some(Value::String(s)) if s.eq_ignore_ascii_case("on") => Ok(Rule::Renju),
        Some(Value::String(s)) if s.eq_ignore_ascii_case("off") => Ok(Rule::Freestyle),
        Some(Value::Number(n)) if n.as_u64() == Some(1) => Ok(Rule::Renju),
        Some(Value::Number(n)) if n.as_u64() == Some(0) => Ok(Rule::Freestyle),
        Some(other) => Err(format!(
            "ForbiddenRule {other} is none of \"On\", \"Off\", 1 (forbidden moves) or 0 (none)"
        )),
        None => Err("no ForbiddenRule: cannot tell freestyle from renju".to_string()),
    }
}

/// How a game ended, as `Wincode` says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Wincode {
    StillPlaying,
    Five,
    Forbidden,
    Occupied,
    Draw,
    Timeout,
}

/// `Wincode`: the bridge's words, and seed 003's spellings (`Still-Playing`,
/// `Non-empt position`), in any case.
fn wincode_of(v: Option<&Value>) -> Result<Wincode, String> {
    let Some(v) = v else {
        return Err("no Wincode: cannot tell how the game ended".to_string());
    };
    let text = v
        .as_str()
        .ok_or_else(|| format!("Wincode {v} is not text"))?;
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    Ok(match words.as_slice() {
        ["still", "playing"] => Wincode::StillPlaying,
        ["five", "in", "a", "row"] => Wincode::Five,
        ["forbidden"] => Wincode::Forbidden,
        ["non", "empty" | "empt", "position"] => Wincode::Occupied,
        ["draw"] => Wincode::Draw,
        ["timeout"] => Wincode::Timeout,
        _ => {
            return Err(format!(
                "Wincode {text:?} is none of \"Still Playing\", \"Five in a row\", \"Forbidden\", \
                 \"Non-empty position\", \"Draw\", \"Timeout\""
            ))
        }
    })
}

fn import_game(g: &Value, base: Base, warnings: &mut Vec<String>) -> Result<Replay, String> {
    let obj = g.as_object().ok_or("a game is not a JSON object")?;
    let f = fields(obj)?;
    let rule = rule_of(f.rule)?;
    let wincode = wincode_of(f.wincode)?;
    let win_player = match f.win_player {
        Some(Value::Bool(true)) => Some(Seat::FIRST),
        Some(Value::Bool(false)) => Some(Seat::SECOND),
        Some(Value::Null) | None => None,
        Some(other) => return Err(format!("WinPlayer {other} is not true, false or null")),
    };
    let log = f
        .moves
        .and_then(Value::as_array)
        .ok_or("no MoveLog array")?;
    let config = Config { size: SIZE, rule };
    let mut game = Gomoku::new(&config).map_err(|e| e.message)?;
    let mut moves = Vec::new();
    let mut illegal = None;
    for (k, m) in log.iter().enumerate() {
        let number = k + 1;
        let entry = m
            .as_array()
            .ok_or_else(|| format!("move {number} is not an array"))?;
        let (is_black, row, col) = match entry.as_slice() {
            [Value::Bool(b), r, c] => (*b, r.as_i64(), c.as_i64()),
            _ => return Err(format!("move {number} is not [isBlack, row, col]")),
        };
        let (Some(row), Some(col)) = (row, col) else {
            return Err(format!("move {number} has a non-integer coordinate"));
        };
        let seat = if is_black { Seat::FIRST } else { Seat::SECOND };
        let off = if base == Base::One { 1 } else { 0 };
        let (x, y) = (col - off, i64::from(SIZE) - 1 - (row - off));
        if !(0..i64::from(SIZE)).contains(&x) || !(0..i64::from(SIZE)).contains(&y) {
            return Err(format!(
                "move {number} ({row}, {col}) is off the 15 x 15 board"
            ));
        }
        let p = Point {
            x: x as u8,
            y: y as u8,
        };
        if game.to_move() != Some(seat) {
            return Err(format!("move {number} is by the wrong colour"));
        }
        let text = game.format_move(p);
        match game.play(p) {
            Ok(()) => moves.push(MoveRecord::new(seat, text)),
            Err(e) if number == log.len() => {
                illegal = Some(Reason::IllegalMove {
                    seat,
                    mv: text,
                    why: e.to_string(),
                    line: None,
                });
            }
            Err(e) => return Err(format!("move {number} ({text}) cannot be played: {e}")),
        }
    }
    let (winner, reason) = match (wincode, illegal) {
        (_, Some(reason)) => (reason.culprit().map(Seat::other), reason),
        (Wincode::Five | Wincode::Draw, None) => match game.outcome() {
            Some(o) => {
                if o.winner != win_player && f.win_player.is_some() {
                    warnings.push(format!(
                        "the log's winner ({:?}) differs from the rules' ({:?}); the rules' stands",
                        win_player, o.winner
                    ));
                }
                (o.winner, Reason::Normal)
            }
            None => {
                return Err(format!(
                    "Wincode {wincode:?} but the moves do not end the game"
                ))
            }
        },
        (Wincode::Forbidden, None) => {
            warnings.push(
                "the log says black's last move was forbidden, but the rules allow it; \
                 the game is imported as unfinished"
                    .to_string(),
            );
            (
                None,
                Reason::Aborted {
                    message: "forbidden by the original, allowed by the rules".into(),
                },
            )
        }
        (Wincode::Timeout, None) => {
            let seat = game.to_move().ok_or("Timeout after the game ended")?;
            (Some(seat.other()), Reason::MoveTime { seat, limit_ms: 0 })
        }
        (Wincode::Occupied, None) => {
            let seat = win_player
                .map(Seat::other)
                .ok_or("Non-empty position without a winner")?;
            (
                Some(seat.other()),
                Reason::ProtocolError {
                    seat,
                    message: "played on an occupied point".into(),
                },
            )
        }
        (Wincode::StillPlaying, None) => (
            None,
            Reason::Aborted {
                message: "unfinished (Still Playing)".into(),
            },
        ),
    };
    let mut replay = Replay::new(
        GameConfig::Gomoku(config),
        [player(f.black, Seat::FIRST), player(f.white, Seat::SECOND)],
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
        source: Some("gobang bridge log".into()),
        ..Meta::default()
    };
    Ok(replay)
}

/// One game as a Gobang bridge log entry (seed 003), so its viewer and scripts keep working.
/// `exit_codes` are the bots' exit codes when known. Rows and columns are 1-based, row 1 at
/// the bottom, as the bridge writes them.
pub fn log_entry(replay: &Replay, exit_codes: [Option<i32>; 2]) -> Result<Value, String> {
    use crate::replay::Reason;
    let rebuilt = replay.rebuild().map_err(|e| e.to_string())?;
    let crate::any::AnyGame::Gomoku(end) = &rebuilt.end else {
        return Err("not a gomoku replay".into());
    };
    let size = i64::from(end.size());
    let mut log = Vec::new();
    for (rec, ply) in replay.moves.iter().zip(&rebuilt.moves) {
        if let [(_, crate::any::AnyMove::Gomoku(p))] = ply.as_slice() {
            let row = size - i64::from(p.y);
            let col = i64::from(p.x) + 1;
            log.push(serde_json::json!([rec.seat == Seat::FIRST, row, col]));
        }
    }
    let code = match &replay.result.reason {
        Reason::Normal => match end.outcome().map(|o| o.reason) {
            Some(crate::game::EndReason::BoardFull) => "Draw".to_string(),
            _ => "Five in a row".to_string(),
        },
        Reason::IllegalMove { why, .. } if why.contains("forbidden") => "Forbidden".to_string(),
        Reason::IllegalMove { why, .. } if why.contains("occupied") => {
            "Non-empty position".to_string()
        }
        Reason::MoveTime { .. } | Reason::GameTime { .. } => "Timeout".to_string(),
        Reason::Aborted { .. } => "Still Playing".to_string(),
        // Verdicts the bridge did not have keep arbiter's words.
        other => other.to_string(),
    };
    let player = |i: usize| {
        let p = replay.players.get(i);
        serde_json::json!({
            "PID": Value::Null,
            "CmdLine": p.and_then(|p| p.command.clone()).unwrap_or_default(),
            "ExitCode": exit_codes[i],
        })
    };
    let rule = if end.rule().is_renju() { "On" } else { "Off" };
    Ok(serde_json::json!({
        "ForbiddenRule": rule,
        "WinPlayer": replay.result.winner.map(|w| w == Seat::FIRST),
        "Wincode": code,
        "Black": player(0),
        "White": player(1),
        "MoveLog": log,
    }))
}
