//! The websockets of seed 002's online and spectator modes: `connect` first, then the history,
//! then each new content (`watch` for spectators, `action` for a seat), `time` heartbeats while a
//! person's move is awaited, and a person's `action` requests checked before they reach the
//! referee. Anything malformed is refused with an `error`; a bad token closes the socket.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_engine::Seat;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use crate::game::{Event, LiveGame};
use crate::token::{self, Target};
use crate::Hub;

/// The largest frame a client may send: a request is a few hundred bytes.
pub const MAX_FRAME: usize = 64 * 1024;
/// Malformed requests tolerated before the socket is closed.
const MAX_ERRORS: u32 = 20;

pub async fn spectator(
    ws: WebSocketUpgrade,
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Path(matching): Path<String>,
) -> Response {
    upgrade(ws, hub, addr, token::parse_path(&matching, None))
}

pub async fn seat(
    ws: WebSocketUpgrade,
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Path((matching, seat)): Path<(String, String)>,
) -> Response {
    upgrade(ws, hub, addr, token::parse_path(&matching, Some(&seat)))
}

fn upgrade(
    ws: WebSocketUpgrade,
    hub: Arc<Hub>,
    addr: SocketAddr,
    target: Option<Target>,
) -> Response {
    let Some(target) = target else {
        return (StatusCode::NOT_FOUND, "no such live game or seat").into_response();
    };
    let id = match &target {
        Target::Spectator { id } | Target::Seat { id, .. } => *id,
    };
    let Some(game) = hub.game(id) else {
        return (StatusCode::NOT_FOUND, "no such live game").into_response();
    };
    let Some(guard) = hub.admit(addr) else {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            "too many connections from this address",
        )
            .into_response();
    };
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            let _guard = guard;
            serve(socket, hub, game, target).await;
        })
}

async fn send(socket: &mut WebSocket, v: Value) -> bool {
    socket
        .send(Message::Text(v.to_string().into()))
        .await
        .is_ok()
}

async fn refuse(socket: &mut WebSocket, why: &str) {
    let _ = send(socket, json!({"request": "error", "content": why})).await;
    let _ = socket.send(Message::Close(None)).await;
}

/// Waits for `connect` with a token naming this socket's own URL.
async fn handshake(socket: &mut WebSocket, target: &Target) -> Result<(), &'static str> {
    let first = tokio::time::timeout(Duration::from_secs(10), socket.recv()).await;
    let Ok(Some(Ok(Message::Text(text)))) = first else {
        return Err("expected {\"request\": \"connect\", \"token\": ...} first");
    };
    let v: Value = serde_json::from_str(&text).map_err(|_| "the first message is not JSON")?;
    if v["request"] != "connect" {
        return Err("the first request must be connect");
    }
    let url = v["token"]
        .as_str()
        .and_then(token::decode)
        .ok_or("the token is not Base64 of a URL")?;
    let named = match target {
        Target::Spectator { id } => url.ends_with(&format!("/_{id}")),
        Target::Seat { id, secret, seat } => url.ends_with(&format!("/{id}.{secret}/{seat}")),
    };
    if !named {
        return Err("the token names another game or seat");
    }
    Ok(())
}

async fn serve(mut socket: WebSocket, hub: Arc<Hub>, game: Arc<LiveGame>, target: Target) {
    if let Err(why) = handshake(&mut socket, &target).await {
        refuse(&mut socket, why).await;
        return;
    }
    let seat = match &target {
        Target::Spectator { .. } => None,
        Target::Seat { secret, seat, .. } => {
            let seat = Seat::from_index(*seat).unwrap_or(Seat::First);
            let known = game.seats[seat.index()]
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .as_ref()
                .is_some_and(|h| constant_time_eq(h.secret.as_bytes(), secret.as_bytes()));
            if !known {
                refuse(&mut socket, "this seat's token is not valid").await;
                return;
            }
            game.seat_joined(seat);
            Some(seat)
        }
    };
    let (history, mut rx, turn) = game.join(seat);
    if !send(
        &mut socket,
        json!({"request": "history", "content": history}),
    )
    .await
    {
        return;
    }
    let mut my_turn = turn.filter(|(s, _)| Some(*s) == seat).map(|(_, d)| d);
    let news = if seat.is_some() { "action" } else { "watch" };
    let delay = if seat.is_none() {
        hub.options.delay
    } else {
        Duration::ZERO
    };
    let mut heartbeat = tokio::time::interval(Duration::from_secs(1));
    let mut errors = 0u32;
    loop {
        tokio::select! {
            event = rx.recv() => match event {
                Ok(Event::Content(c)) => {
                    if !send(&mut socket, json!({"request": news, "content": &*c})).await {
                        return;
                    }
                    if !delay.is_zero() && c.contains("\"type\":\"move\"") {
                        tokio::time::sleep(delay).await;
                    }
                }
                Ok(Event::Start) => {
                    if let Some(c) = game.start_content(seat) {
                        if !send(&mut socket, json!({"request": news, "content": c})).await {
                            return;
                        }
                    }
                }
                Ok(Event::Turn { seat: s, deadline }) if Some(s) == seat => {
                    my_turn = Some(deadline);
                    if !send_time(&mut socket, deadline).await {
                        return;
                    }
                }
                Ok(Event::TurnOver { seat: s }) if Some(s) == seat => my_turn = None,
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => {
                    // Too far behind: start again from the whole history.
                    let (history, fresh, _) = game.join(seat);
                    rx = fresh;
                    if !send(&mut socket, json!({"request": "history", "content": history})).await {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            _ = heartbeat.tick() => {
                if let Some(deadline) = my_turn {
                    if !send_time(&mut socket, deadline).await {
                        return;
                    }
                }
            }
            incoming = socket.recv() => {
                let Some(Ok(message)) = incoming else { return };
                let reply = match message {
                    Message::Text(text) => request(&game, seat, &target, &text),
                    Message::Binary(_) => Some("binary frames are not understood: send JSON text".to_string()),
                    Message::Close(_) => return,
                    Message::Ping(_) | Message::Pong(_) => None,
                };
                if let Some(why) = reply {
                    errors += 1;
                    if errors > MAX_ERRORS {
                        refuse(&mut socket, "too many refused requests").await;
                        return;
                    }
                    if !send(&mut socket, json!({"request": "error", "content": why})).await {
                        return;
                    }
                }
            }
        }
    }
}

async fn send_time(socket: &mut WebSocket, deadline: Option<Instant>) -> bool {
    let ms = deadline.map_or(-1, |d| {
        d.saturating_duration_since(Instant::now()).as_millis() as i64
    });
    send(socket, json!({"request": "time", "content": ms})).await
}

/// One request after `connect`; `Some(reason)` when refused.
fn request(game: &LiveGame, seat: Option<Seat>, target: &Target, text: &str) -> Option<String> {
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return Some("not JSON".into());
    };
    match v["request"].as_str() {
        Some("connect") => None,
        Some("action") => {
            let Some(seat) = seat else {
                return Some("spectators cannot play".into());
            };
            let Target::Seat {
                id,
                secret,
                seat: n,
            } = target
            else {
                return Some("spectators cannot play".into());
            };
            let token_ok = v["token"]
                .as_str()
                .and_then(token::decode)
                .is_some_and(|url| url.ends_with(&format!("/{id}.{secret}/{n}")));
            if !token_ok {
                return Some("the action's token is not this seat's".into());
            }
            let Some(content) = v["content"].as_str() else {
                return Some("an action's content is the move, as a string".into());
            };
            game.act(seat, content).err()
        }
        Some(other) => Some(format!(
            "unknown request {:?}",
            other.chars().take(40).collect::<String>()
        )),
        None => Some("no \"request\" field".into()),
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
