//! The JSON messages of seed 002 between judger and game logic, typed.
//!
//! Logic -> judger ([`LogicMessage`]): round config, round, watch, `request_end_state`, end.
//! Judger -> logic ([`JudgerMessage`]): init, AI message, AI error, end-state reply.
//! Several fields are JSON *strings holding JSON* (`content` of an AI error, `end_info`,
//! `end_state`); the types here hold them decoded and encode them back as strings.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Number, Value};

/// Defaults of a judger that got no round config (seed 002).
pub const DEFAULT_TIME_SECONDS: f64 = 3.0;
pub const DEFAULT_LENGTH_BYTES: u64 = 2048;
/// The shortest AI message a logic may ask for: a move and its line end.
pub const MIN_LENGTH_BYTES: u64 = 16;
/// The longest: a line protocol's frame (1 MB). An AI's message travels inside one frame of
/// at most 16 MB, escaped as JSON (up to six bytes a byte); a message that long is a runaway
/// log, never a move.
pub const MAX_LENGTH_BYTES: u64 = 1 << 20;

/// Why a body is not a message of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageError {
    /// Not JSON at all (with the start of the text).
    NotJson { error: String, text: String },
    /// JSON, but not a message of this direction, or a field of the wrong type.
    Shape(String),
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::NotJson { error, text } => {
                write!(f, "message is not JSON ({error}): {text:?}")
            }
            MessageError::Shape(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for MessageError {}

fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut s: String = text.chars().take(120).collect();
    if text.chars().count() > 120 {
        s.push_str("...");
    }
    s
}

fn parse_object(body: &[u8]) -> Result<Map<String, Value>, MessageError> {
    let value: Value = serde_json::from_slice(body).map_err(|e| MessageError::NotJson {
        error: e.to_string(),
        text: excerpt(body),
    })?;
    match value {
        Value::Object(m) => Ok(m),
        _ => Err(MessageError::Shape(format!(
            "message is not a JSON object: {}",
            excerpt(body)
        ))),
    }
}

fn typed<T: serde::de::DeserializeOwned>(
    what: &str,
    m: Map<String, Value>,
) -> Result<T, MessageError> {
    serde_json::from_value(Value::Object(m))
        .map_err(|e| MessageError::Shape(format!("bad {what}: {e}")))
}

/// A player's type in the init message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerType {
    /// 0: the AI did not start.
    Failed,
    /// 1: a local AI.
    LocalAi,
    /// 2: a human at a web player.
    WebPlayer,
}

impl PlayerType {
    pub fn code(self) -> i64 {
        match self {
            PlayerType::Failed => 0,
            PlayerType::LocalAi => 1,
            PlayerType::WebPlayer => 2,
        }
    }

    pub fn from_code(c: i64) -> Option<PlayerType> {
        match c {
            0 => Some(PlayerType::Failed),
            1 => Some(PlayerType::LocalAi),
            2 => Some(PlayerType::WebPlayer),
            _ => None,
        }
    }
}

/// The first message to the logic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Init {
    /// One type code per player (see [`PlayerType`]).
    pub player_list: Vec<i64>,
    pub player_num: usize,
    /// Free parameters from the platform (e.g. `{"random_seed": 1674552577091}`).
    #[serde(default)]
    pub config: Value,
    /// Where the logic writes its replay file.
    #[serde(default)]
    pub replay: String,
}

impl Init {
    /// The player types, refusing unknown codes and a `player_num` that disagrees.
    pub fn player_types(&self) -> Result<Vec<PlayerType>, MessageError> {
        if self.player_list.len() != self.player_num {
            return Err(MessageError::Shape(format!(
                "init: player_num is {} but player_list has {} entries",
                self.player_num,
                self.player_list.len()
            )));
        }
        self.player_list
            .iter()
            .map(|&c| {
                PlayerType::from_code(c).ok_or_else(|| {
                    MessageError::Shape(format!("init: unknown player type {c} (0, 1 or 2)"))
                })
            })
            .collect()
    }
}

/// Limits for the AIs from now on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundConfig {
    pub state: i64,
    /// Seconds an AI may run in a round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
    /// Largest AI message body in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u64>,
}

/// A round: send `content[k]` to AI `player[k]`, then listen to the AIs in `listen`.
/// A larger `state` than the last one restarts the listened AIs' clocks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub state: i64,
    #[serde(default)]
    pub listen: Vec<usize>,
    #[serde(default)]
    pub player: Vec<usize>,
    #[serde(default)]
    pub content: Vec<String>,
}

/// A game-ending message with the scores (and optionally the end states, which override the
/// judger's: `IA` for an illegal action).
#[derive(Clone, Debug, PartialEq)]
pub struct End {
    /// Scores in ascending player order.
    pub scores: Vec<(usize, Number)>,
    pub end_state: Option<Vec<String>>,
}

/// What the logic sends the judger (target -1).
#[derive(Clone, Debug, PartialEq)]
pub enum LogicMessage {
    RoundConfig(RoundConfig),
    Round(Round),
    Watch(String),
    RequestEndState,
    End(End),
}

impl LogicMessage {
    /// Reads a body the logic sent with target -1.
    pub fn parse(body: &[u8]) -> Result<LogicMessage, MessageError> {
        let m = parse_object(body)?;
        if let Some(action) = m.get("action") {
            return match action.as_str() {
                Some("request_end_state") => Ok(LogicMessage::RequestEndState),
                _ => Err(MessageError::Shape(format!(
                    "unknown action {action}: only \"request_end_state\" exists"
                ))),
            };
        }
        if let Some(w) = m.get("watch") {
            return match w {
                Value::String(s) => Ok(LogicMessage::Watch(s.clone())),
                other => Err(MessageError::Shape(format!(
                    "watch must be a string, got {other}"
                ))),
            };
        }
        let state = match m.get("state") {
            Some(s) => s
                .as_i64()
                .ok_or_else(|| MessageError::Shape(format!("state must be an integer, got {s}")))?,
            None => {
                return Err(MessageError::Shape(format!(
                    "unknown message (no state, watch or action): {}",
                    excerpt(body)
                )))
            }
        };
        if state == -1 {
            return parse_end(&m).map(LogicMessage::End);
        }
        if state < 0 {
            return Err(MessageError::Shape(format!(
                "state {state}: only -1 (end) may be negative"
            )));
        }
        if ["listen", "player", "content"]
            .iter()
            .any(|k| m.contains_key(*k))
        {
            let r: Round = typed("round", m)?;
            if r.player.len() != r.content.len() {
                return Err(MessageError::Shape(format!(
                    "round {}: {} players but {} contents",
                    r.state,
                    r.player.len(),
                    r.content.len()
                )));
            }
            return Ok(LogicMessage::Round(r));
        }
        if m.contains_key("time") || m.contains_key("length") {
            let c: RoundConfig = typed("round config", m)?;
            if c.time.is_some_and(|t| !(t.is_finite() && t > 0.0)) {
                return Err(MessageError::Shape("round config: time must be > 0".into()));
            }
            return Ok(LogicMessage::RoundConfig(c));
        }
        Err(MessageError::Shape(format!(
            "unknown message with state {state} (no listen/player/content, time or length)"
        )))
    }

    /// The JSON body, as the logic sends it.
    pub fn to_json(&self) -> String {
        let v = match self {
            LogicMessage::RoundConfig(c) => serde_json::to_value(c).unwrap_or(Value::Null),
            LogicMessage::Round(r) => serde_json::to_value(r).unwrap_or(Value::Null),
            LogicMessage::Watch(w) => json!({ "watch": w }),
            LogicMessage::RequestEndState => json!({ "action": "request_end_state" }),
            LogicMessage::End(e) => {
                let mut m = Map::new();
                m.insert("state".into(), json!(-1));
                m.insert("end_info".into(), Value::String(end_info_string(&e.scores)));
                if let Some(s) = &e.end_state {
                    m.insert("end_state".into(), Value::String(string_list(s)));
                }
                Value::Object(m)
            }
        };
        v.to_string()
    }
}

/// `{"0": s0, "1": s1, ...}` with keys in ascending *numeric* order (seed 002 insists; a JSON
/// map would sort "10" before "2").
pub fn end_info_string(scores: &[(usize, Number)]) -> String {
    let mut sorted: Vec<&(usize, Number)> = scores.iter().collect();
    sorted.sort_by_key(|(p, _)| *p);
    let parts: Vec<String> = sorted
        .iter()
        .map(|(p, s)| format!("\"{p}\": {s}"))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

fn string_list(items: &[String]) -> String {
    Value::Array(items.iter().cloned().map(Value::String).collect()).to_string()
}

fn parse_string_list(what: &str, text: &str) -> Result<Vec<String>, MessageError> {
    serde_json::from_str::<Vec<String>>(text).map_err(|e| {
        MessageError::Shape(format!(
            "{what} must be a JSON string holding a list of strings ({e}): {text:?}"
        ))
    })
}

fn parse_end(m: &Map<String, Value>) -> Result<End, MessageError> {
    let info = match m.get("end_info") {
        Some(Value::String(s)) => s,
        Some(other) => {
            return Err(MessageError::Shape(format!(
                "end_info must be a JSON *string*, got {other}"
            )))
        }
        None => return Err(MessageError::Shape("end message without end_info".into())),
    };
    let map: Map<String, Value> = serde_json::from_str(info).map_err(|e| {
        MessageError::Shape(format!(
            "end_info must hold a JSON object of scores ({e}): {info:?}"
        ))
    })?;
    let mut scores = Vec::with_capacity(map.len());
    for (k, v) in map {
        let p: usize = k.parse().map_err(|_| {
            MessageError::Shape(format!("end_info key {k:?} is not a player number"))
        })?;
        let Value::Number(n) = v else {
            return Err(MessageError::Shape(format!(
                "end_info score of player {p} is not a number: {v}"
            )));
        };
        scores.push((p, n));
    }
    scores.sort_by_key(|(p, _)| *p);
    let end_state = match m.get("end_state") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(parse_string_list("end_state", s)?),
        Some(other) => {
            return Err(MessageError::Shape(format!(
                "end_state must be a JSON *string*, got {other}"
            )))
        }
    };
    Ok(End { scores, end_state })
}

/// AI failure kinds of the AI-error message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// 0: the AI crashed or exited.
    RunError,
    /// 1: no message within the round's time.
    TimeOut,
    /// 2: a message longer than the round's length.
    OutputLimit,
}

impl ErrorKind {
    pub fn code(self) -> i64 {
        match self {
            ErrorKind::RunError => 0,
            ErrorKind::TimeOut => 1,
            ErrorKind::OutputLimit => 2,
        }
    }

    pub fn from_code(c: i64) -> Option<ErrorKind> {
        match c {
            0 => Some(ErrorKind::RunError),
            1 => Some(ErrorKind::TimeOut),
            2 => Some(ErrorKind::OutputLimit),
            _ => None,
        }
    }

    /// The `error_log` text of seed 002's table.
    pub fn log_name(self) -> &'static str {
        match self {
            ErrorKind::RunError => "runError",
            ErrorKind::TimeOut => "timeOutError",
            ErrorKind::OutputLimit => "outputLimitError",
        }
    }
}

/// The decoded `content` of an AI error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiError {
    pub player: usize,
    pub state: i64,
    pub error: ErrorKind,
    pub error_log: String,
}

#[derive(Serialize, Deserialize)]
struct AiErrorWire {
    player: usize,
    state: i64,
    error: i64,
    #[serde(default)]
    error_log: String,
}

/// What the judger sends the logic.
#[derive(Clone, Debug, PartialEq)]
pub enum JudgerMessage {
    Init(Init),
    /// A listened AI's message; `time` = milliseconds since its clock started.
    Ai {
        player: usize,
        content: String,
        time: u64,
    },
    AiError(AiError),
    /// The reply to `request_end_state`: one state per player (`OK`, `RE`, `TLE`, `MLE` ...).
    EndState(Vec<String>),
}

impl JudgerMessage {
    /// Reads a judger body. `expect_init` selects the first message's shape.
    pub fn parse(body: &[u8], expect_init: bool) -> Result<JudgerMessage, MessageError> {
        let m = parse_object(body)?;
        if expect_init {
            if !m.contains_key("player_list") {
                return Err(MessageError::Shape(format!(
                    "the first message must be init (player_list, player_num, config, replay): {}",
                    excerpt(body)
                )));
            }
            let init: Init = typed("init", m)?;
            init.player_types()?;
            return Ok(JudgerMessage::Init(init));
        }
        if let Some(s) = m.get("end_state") {
            let Value::String(s) = s else {
                return Err(MessageError::Shape(format!(
                    "end_state must be a JSON *string*, got {s}"
                )));
            };
            return Ok(JudgerMessage::EndState(parse_string_list("end_state", s)?));
        }
        let player = m.get("player").and_then(Value::as_i64).ok_or_else(|| {
            MessageError::Shape(format!("unknown judger message: {}", excerpt(body)))
        })?;
        let content = match m.get("content") {
            Some(Value::String(s)) => s.clone(),
            _ => {
                return Err(MessageError::Shape(format!(
                    "judger message without a string content: {}",
                    excerpt(body)
                )))
            }
        };
        if player == -1 {
            let w: AiErrorWire = serde_json::from_str(&content).map_err(|e| {
                MessageError::Shape(format!(
                    "AI error content is not an error report ({e}): {content:?}"
                ))
            })?;
            let error = ErrorKind::from_code(w.error).ok_or_else(|| {
                MessageError::Shape(format!("unknown AI error code {} (0, 1 or 2)", w.error))
            })?;
            return Ok(JudgerMessage::AiError(AiError {
                player: w.player,
                state: w.state,
                error,
                error_log: w.error_log,
            }));
        }
        let player = usize::try_from(player)
            .map_err(|_| MessageError::Shape(format!("bad player number {player}")))?;
        let time = m.get("time").and_then(Value::as_f64).unwrap_or(0.0);
        Ok(JudgerMessage::Ai {
            player,
            content,
            time: time.max(0.0) as u64,
        })
    }

    pub fn to_json(&self) -> String {
        match self {
            JudgerMessage::Init(i) => serde_json::to_value(i).unwrap_or(Value::Null).to_string(),
            JudgerMessage::Ai {
                player,
                content,
                time,
            } => json!({"player": player, "content": content, "time": time}).to_string(),
            JudgerMessage::AiError(e) => {
                let inner = serde_json::to_string(&AiErrorWire {
                    player: e.player,
                    state: e.state,
                    error: e.error.code(),
                    error_log: e.error_log.clone(),
                })
                .unwrap_or_default();
                json!({"player": -1, "content": inner}).to_string()
            }
            JudgerMessage::EndState(s) => json!({ "end_state": string_list(s) }).to_string(),
        }
    }
}
