//! The websockets of seed 002's online and spectator modes: `connect` first, then the history,
//! then each new content (`watch` for spectators, `action` for a seat), `time` heartbeats while a
//! person's move is awaited, and a person's `action` requests checked before they reach the
//! referee. Anything malformed is refused with an `error`; a bad token closes the socket.
//!
//! A connection costs the hub little whatever its client does: a message goes out in fragments
//! of at most [`FRAGMENT`] bytes, each written from the game's shared contents (a history is
//! never built whole per connection), and a client that takes none of a fragment for
//! [`crate::HubOptions::stall`] is dropped. What waits for a client is then one fragment and
//! the kernel's socket buffer; the game never waits for anyone.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_engine::Seat;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use crate::game::{Event, Joined, LiveGame};
use crate::token::{self, Target};
use crate::Hub;

/// The largest frame a client may send: a request is a few hundred bytes.
pub const MAX_FRAME: usize = 64 * 1024;
/// The size of the fragments the hub writes (each at most 6 KB more): what a connection holds
/// while its client reads.
pub const FRAGMENT: usize = 16 * 1024;
/// Malformed requests tolerated before the socket is closed.
const MAX_ERRORS: u32 = 20;

type Socket = WebSocketStream<TokioIo<hyper::upgrade::Upgraded>>;

pub async fn spectator(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Path(matching): Path<String>,
    request: Request,
) -> Response {
    upgrade(request, hub, addr, token::parse_path(&matching, None))
}

pub async fn seat(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Path((matching, seat)): Path<(String, String)>,
    request: Request,
) -> Response {
    upgrade(
        request,
        hub,
        addr,
        token::parse_path(&matching, Some(&seat)),
    )
}

/// The websocket handshake's key, when `headers` ask for a websocket (RFC 6455, version 13).
fn websocket_key(headers: &HeaderMap) -> Option<&HeaderValue> {
    let has = |name: header::HeaderName, word: &str| {
        headers.get_all(name).iter().any(|v| {
            v.to_str()
                .is_ok_and(|v| v.split(',').any(|w| w.trim().eq_ignore_ascii_case(word)))
        })
    };
    let version = headers
        .get(header::SEC_WEBSOCKET_VERSION)
        .is_some_and(|v| v == "13");
    (has(header::CONNECTION, "upgrade") && has(header::UPGRADE, "websocket") && version)
        .then(|| headers.get(header::SEC_WEBSOCKET_KEY))
        .flatten()
}

fn upgrade(
    mut request: Request,
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
    let Some(key) = websocket_key(request.headers()) else {
        return (
            StatusCode::UPGRADE_REQUIRED,
            "this address is a websocket (RFC 6455, version 13)",
        )
            .into_response();
    };
    let accept = tokio_tungstenite::tungstenite::handshake::derive_accept_key(key.as_bytes());
    let Some(on_upgrade) = request
        .extensions_mut()
        .remove::<hyper::upgrade::OnUpgrade>()
    else {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            "this connection cannot be upgraded",
        )
            .into_response();
    };
    let Some(guard) = hub.admit(addr) else {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            "too many connections from this address",
        )
            .into_response();
    };
    let lang = request
        .headers()
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(arbiter_i18n::Lang::from_accept_language)
        .unwrap_or_default();
    tokio::spawn(async move {
        let _guard = guard;
        let Ok(upgraded) = on_upgrade.await else {
            return;
        };
        let config = WebSocketConfig::default()
            .read_buffer_size(4 * 1024)
            .write_buffer_size(FRAGMENT)
            .max_write_buffer_size(4 * FRAGMENT)
            .max_message_size(Some(MAX_FRAME))
            .max_frame_size(Some(MAX_FRAME));
        let socket =
            WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, Some(config))
                .await;
        let mut conn = Connection {
            socket,
            stall: hub.options.stall,
        };
        conn.serve(&hub, game, target, lang).await;
    });
    Response::builder()
        .status(StatusCode::SWITCHING_PROTOCOLS)
        .header(header::CONNECTION, "upgrade")
        .header(header::UPGRADE, "websocket")
        .header(header::SEC_WEBSOCKET_ACCEPT, accept)
        .body(axum::body::Body::empty())
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// One client's socket, and how long it may take no data before it is dropped.
struct Connection {
    socket: Socket,
    stall: Duration,
}

/// A message written in fragments: small parts gathered, large ones cut, each fragment sent
/// only once the client took the one before.
struct Fragments<'a> {
    conn: &'a mut Connection,
    buf: Vec<u8>,
    first: bool,
}

impl Fragments<'_> {
    /// Sends what is gathered as one fragment (`last`: the message's end).
    async fn emit(&mut self, last: bool) -> bool {
        let opcode = if self.first {
            OpCode::Data(Data::Text)
        } else {
            OpCode::Data(Data::Continue)
        };
        self.first = false;
        let payload = std::mem::replace(&mut self.buf, Vec::with_capacity(FRAGMENT));
        let frame = Frame::message(payload, opcode, last);
        let sent = tokio::time::timeout(
            self.conn.stall,
            self.conn.socket.send(Message::Frame(frame)),
        );
        matches!(sent.await, Ok(Ok(())))
    }

    /// Sends a fragment once a whole one is gathered.
    async fn spill(&mut self) -> bool {
        self.buf.len() < FRAGMENT || self.emit(false).await
    }

    /// Text written as it is (JSON of the hub's own).
    async fn raw(&mut self, text: &str) -> bool {
        for piece in text.as_bytes().chunks(4096) {
            self.buf.extend_from_slice(piece);
            if !self.spill().await {
                return false;
            }
        }
        true
    }

    /// `text` as a JSON string (a content inside a message), escaped piece by piece.
    async fn quoted(&mut self, text: &str) -> bool {
        self.buf.push(b'"');
        for piece in text.as_bytes().chunks(1024) {
            escape_into(&mut self.buf, piece);
            if !self.spill().await {
                return false;
            }
        }
        self.buf.push(b'"');
        true
    }

    async fn finish(mut self) -> bool {
        self.emit(true).await
    }
}

/// JSON string escaping of `bytes` (a piece of UTF-8 text: only ASCII bytes are escaped, so
/// a piece may end inside a character).
fn escape_into(out: &mut Vec<u8>, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for &b in bytes {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0..=0x1f => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 15)]);
            }
            b => out.push(b),
        }
    }
}

impl Connection {
    fn fragments(&mut self) -> Fragments<'_> {
        Fragments {
            conn: self,
            buf: Vec::with_capacity(FRAGMENT),
            first: true,
        }
    }

    /// A small message of the hub's own.
    async fn send(&mut self, v: Value) -> bool {
        let mut f = self.fragments();
        f.raw(&v.to_string()).await && f.finish().await
    }

    /// `{"request": KIND, "content": C}`, `C` a content written as a JSON string.
    async fn send_content(&mut self, kind: &str, content: &str) -> bool {
        let mut f = self.fragments();
        f.raw(&format!("{{\"request\":\"{kind}\",\"content\":"))
            .await
            && f.quoted(content).await
            && f.raw("}").await
            && f.finish().await
    }

    /// `{"request": "history", "content": [C0, C1, ...]}`.
    async fn send_history(&mut self, history: &[Arc<str>]) -> bool {
        let mut f = self.fragments();
        if !f.raw("{\"request\":\"history\",\"content\":[").await {
            return false;
        }
        for (i, c) in history.iter().enumerate() {
            if (i > 0 && !f.raw(",").await) || !f.quoted(c).await {
                return false;
            }
        }
        f.raw("]}").await && f.finish().await
    }

    async fn refuse(&mut self, why: &str) {
        let _ = self.send(json!({"request": "error", "content": why})).await;
        let _ = tokio::time::timeout(self.stall, self.socket.send(Message::Close(None))).await;
    }

    /// Waits for `connect` with a token naming this socket's own URL.
    async fn handshake(&mut self, target: &Target) -> Result<(), &'static str> {
        let first = tokio::time::timeout(Duration::from_secs(10), self.socket.next()).await;
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

    /// The whole history, then the notice if the game has one; the news from then on.
    async fn join(
        &mut self,
        game: &Arc<LiveGame>,
        seat: Option<Seat>,
        lang: arbiter_i18n::Lang,
    ) -> Option<Joined> {
        let joined = game.join(seat);
        if !self.send_history(&joined.history).await {
            return None;
        }
        let notice = game.lock().notice;
        if let Some(n) = notice {
            let words = n.words(lang);
            if !self
                .send(json!({"request": "notice", "content": words}))
                .await
            {
                return None;
            }
        }
        Some(joined)
    }

    async fn serve(
        &mut self,
        hub: &Hub,
        game: Arc<LiveGame>,
        target: Target,
        lang: arbiter_i18n::Lang,
    ) {
        if let Err(why) = self.handshake(&target).await {
            self.refuse(why).await;
            return;
        }
        let seat = match &target {
            Target::Spectator { .. } => None,
            Target::Seat { secret, seat, .. } => {
                let Some(seat) = Seat::from_index(*seat) else {
                    self.refuse("this seat's token is not valid").await;
                    return;
                };
                let known = game.seats[seat.index()]
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .as_ref()
                    .is_some_and(|h| constant_time_eq(h.secret.as_bytes(), secret.as_bytes()));
                if !known {
                    self.refuse("this seat's token is not valid").await;
                    return;
                }
                game.seat_joined(seat);
                Some(seat)
            }
        };
        let Some(mut joined) = self.join(&game, seat, lang).await else {
            return;
        };
        let mut my_turn = joined
            .turns
            .iter()
            .find(|(s, _)| Some(*s) == seat)
            .map(|(_, d)| *d);
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
                event = joined.news.recv() => match event {
                    Ok(Event::Content(c, to)) if to.reaches(seat) => {
                        if !self.send_content(news, &c).await {
                            return;
                        }
                        if !delay.is_zero() && c.contains("\"type\":\"move\"") {
                            tokio::time::sleep(delay).await;
                        }
                    }
                    Ok(Event::Start) => {
                        if let Some(c) = game.start_content(seat) {
                            if !self.send_content(news, &c).await {
                                return;
                            }
                        }
                    }
                    Ok(Event::Turn { seat: s, deadline }) if Some(s) == seat => {
                        my_turn = Some(deadline);
                        if !self.send_time(deadline).await {
                            return;
                        }
                    }
                    Ok(Event::TurnOver { seat: s }) if Some(s) == seat => my_turn = None,
                    Ok(Event::Closed) | Err(RecvError::Closed) => {
                        let _ = tokio::time::timeout(self.stall, self.socket.send(Message::Close(None))).await;
                        return;
                    }
                    // Too far behind, or the contents were made again: the whole history.
                    Ok(Event::Reset) | Err(RecvError::Lagged(_)) => {
                        let Some(fresh) = self.join(&game, seat, lang).await else { return };
                        joined = fresh;
                    }
                    Ok(_) => {}
                },
                _ = heartbeat.tick() => {
                    if let Some(deadline) = my_turn {
                        if !self.send_time(deadline).await {
                            return;
                        }
                    }
                }
                incoming = self.socket.next() => {
                    let Some(Ok(message)) = incoming else { return };
                    let reply = match message {
                        Message::Text(text) => request(&game, seat, &target, &text),
                        Message::Binary(_) => Some("binary frames are not understood: send JSON text".to_string()),
                        Message::Close(_) => return,
                        Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => None,
                    };
                    if let Some(why) = reply {
                        errors += 1;
                        if errors > MAX_ERRORS {
                            self.refuse("too many refused requests").await;
                            return;
                        }
                        if !self.send(json!({"request": "error", "content": why})).await {
                            return;
                        }
                    }
                }
            }
        }
    }

    async fn send_time(&mut self, deadline: Option<Instant>) -> bool {
        let ms = deadline.map_or(-1, |d| {
            d.saturating_duration_since(Instant::now()).as_millis() as i64
        });
        self.send(json!({"request": "time", "content": ms})).await
    }
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
            game.act(seat, content, v["ply"].as_u64()).err()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_matches_serde_json_on_every_byte() {
        let text: String = (0u32..0x300)
            .filter_map(char::from_u32)
            .chain("\"\\é中😀".chars())
            .collect();
        // Pieces cut anywhere, even inside a character, escape to the same text.
        for cut in [1, 2, 3, 7, 64] {
            let mut out = Vec::new();
            for piece in text.as_bytes().chunks(cut) {
                escape_into(&mut out, piece);
            }
            let quoted = format!("\"{}\"", String::from_utf8(out).unwrap());
            let back: String = serde_json::from_str(&quoted).unwrap();
            assert_eq!(back, text, "cut {cut}");
        }
    }
}
