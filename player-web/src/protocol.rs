//! The Saiblo player protocol (seed 002): the site's messages, read from `postMessage` data,
//! the origin allow-list, replies to `event.source`, and reading `replay_data`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::Window;

use crate::dom::js_string;

/// One message from the site, as the player understands it.
pub enum Request {
    /// `init_replay_player`: the replay's `replay_data` (a Blob, or text, or bytes).
    Init(JsValue),
    /// `load_frame`: the raw `index` (checked against the frame count when handled).
    LoadFrame(JsValue),
    /// `load_next_frame` or `next_frame` (the name, for errors).
    Next(String),
    /// `load_players`: the names, or `None` when `players` is not an array.
    Players(Option<Vec<String>>),
    /// `init_player_player` (`true`: a seat) or `init_spectator_player`: the token, if a
    /// string, and the message's name (for errors).
    Live(Option<String>, bool, String),
}

/// Reads a message's data; `None` for anything that is not a protocol message of this
/// player (other tools may share the window's messages).
pub fn parse(data: &JsValue) -> Option<Request> {
    if !data.is_object() {
        return None;
    }
    let name = Reflect::get(data, &"message".into()).ok()?.as_string()?;
    let field = |f: &str| Reflect::get(data, &f.into()).unwrap_or(JsValue::UNDEFINED);
    Some(match name.as_str() {
        "init_replay_player" => Request::Init(field("replay_data")),
        "load_frame" => Request::LoadFrame(field("index")),
        "load_next_frame" | "next_frame" => Request::Next(name),
        "load_players" => {
            let players = field("players");
            Request::Players(Array::is_array(&players).then(|| {
                Array::from(&players)
                    .iter()
                    .map(|p| js_string(&p))
                    .collect()
            }))
        }
        "init_player_player" | "init_spectator_player" => Request::Live(
            field("token").as_string(),
            name == "init_player_player",
            name,
        ),
        _ => return None,
    })
}

/// `load_frame`'s index as a frame number, or the sentence refusing it.
pub fn frame_index(index: &JsValue, frames: usize) -> Result<usize, String> {
    if let Some(i) = index.as_f64() {
        if i.is_finite() && js_sys::Number::is_integer(index) && i >= 0.0 && i < frames as f64 {
            return Ok(i as usize);
        }
    }
    let shown = js_sys::JSON::stringify(index)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| String::from("undefined"));
    Err(format!(
        "load_frame: index {shown} is out of range 0..{}",
        frames as i64 - 1
    ))
}

/// Parent origins allowed to drive the player: `?origins=` plus `<meta name="arbiter-origins">`,
/// `self` standing for the player's own origin (a `srcdoc` frame's is its page's). Empty: any
/// origin. Whatever the list, only the embedding page (the parent window) is listened to.
pub struct Origins(pub Vec<String>);

impl Origins {
    pub fn read(window: &Window) -> Origins {
        let own = window.origin();
        let mut list = Vec::new();
        for item in listed(window, "origins", "content") {
            if item != "self" {
                list.push(item);
                continue;
            }
            // A page from disk: its messages come from the opaque origin, which browsers name
            // `null` (Chromium `file://`).
            if own == "null" || own.starts_with("file:") {
                list.extend(["null", "file://"].map(String::from));
            }
            list.push(own.clone());
        }
        Origins(list)
    }

    pub fn allows(&self, origin: &str) -> bool {
        self.0.is_empty() || self.0.iter().any(|o| o == origin)
    }
}

/// The comma-separated values of option `param` (the query) and of the meta tag's `attr`.
fn listed(window: &Window, param: &str, attr: &str) -> Vec<String> {
    let mut list = Vec::new();
    let query = query_param(window, param);
    let meta = meta_attr(window, attr);
    for s in [query, meta].iter().flatten() {
        list.extend(
            s.split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(String::from),
        );
    }
    list
}

/// Whether a live mode may open a websocket to `url`: the `hubs` option lists the address
/// prefixes allowed (`?hubs=`, `data-hubs`), `self` standing for the player's own host
/// (`ws://` or `wss://`, as a page's `connect-src 'self'` allows). Without the option, any.
pub fn hub_allowed(window: &Window, url: &str) -> bool {
    let hubs = listed(window, "hubs", "data-hubs");
    let own = window.origin();
    let host = own.split_once("://").map_or("", |(_, h)| h);
    hubs.is_empty()
        || hubs.iter().any(|h| match h.as_str() {
            "self" => ["ws://", "wss://"].iter().any(|s| {
                url.strip_prefix(s)
                    .and_then(|u| u.strip_prefix(host))
                    .is_some_and(|u| u.starts_with('/'))
            }),
            prefix => url.starts_with(prefix),
        })
}

/// An attribute of the player's `<meta name="arbiter-origins">` (a `srcdoc` has no query).
fn meta_attr(window: &Window, attr: &str) -> Option<String> {
    window
        .document()?
        .query_selector("meta[name=\"arbiter-origins\"]")
        .ok()??
        .get_attribute(attr)
}

/// A page option: the query parameter `param`, else the attribute `attr` of the
/// `arbiter-origins` meta tag (a site embedding by srcdoc has no query string).
pub fn option(window: &Window, param: &str, attr: &str) -> Option<String> {
    query_param(window, param).or_else(|| meta_attr(window, attr))
}

/// A query parameter of the page's address.
pub fn query_param(window: &Window, name: &str) -> Option<String> {
    let search = window.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}

/// Where replies go: the window of the last message and its origin (`null` origins, as from
/// `file://` or srcdoc, get `*`).
pub struct Peer {
    pub source: JsValue,
    pub origin: String,
}

/// Sends `msg` to the peer, or with no peer yet to the parent (each allowed origin, or `*`).
pub fn reply(
    peer: Option<&Peer>,
    embedded: bool,
    origins: &Origins,
    window: &Window,
    msg: &JsValue,
) {
    if let Some(p) = peer {
        let target = if p.origin.is_empty() || p.origin == "null" {
            "*"
        } else {
            &p.origin
        };
        // `source` may be a cross-origin window: call its postMessage, never test its type.
        let _ = p.source.unchecked_ref::<Window>().post_message(msg, target);
    } else if embedded {
        let Ok(Some(parent)) = window.parent() else {
            return;
        };
        if origins.0.is_empty() {
            let _ = parent.post_message(msg, "*");
        } else {
            for o in &origins.0 {
                let _ = parent.post_message(msg, o);
            }
        }
    }
}

/// A message object: `{message, ...fields}`.
pub fn message(name: &str, fields: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    let _ = Reflect::set(&o, &"message".into(), &name.into());
    for (k, v) in fields {
        let _ = Reflect::set(&o, &(*k).into(), v);
    }
    o.into()
}

/// `{message:"error", reason, kind}`.
pub fn error(reason: &str, kind: &str) -> JsValue {
    message("error", &[("reason", reason.into()), ("kind", kind.into())])
}

/// A replay of `bytes` bytes is within the player's bound ([`crate::app::MAX_TEXT`]), or the
/// sentence refusing it.
pub fn bounded(bytes: f64) -> Result<(), String> {
    let max = crate::app::MAX_TEXT;
    if bytes <= max as f64 {
        return Ok(());
    }
    let mb = |b: f64| (b / 1_048_576.0) as u64;
    Err(crate::lang::ta(
        "player-too-large",
        &[("mb", mb(bytes).into()), ("max", mb(max as f64).into())],
    ))
}

/// The text of `replay_data`: a Blob (or File), a string, an ArrayBuffer, or anything with
/// `arrayBuffer()` / `text()`. The error is the sentence shown and its kind; a Blob over the
/// player's bound is refused before it is read. Bytes rather than text where there is a
/// choice: a long replay's text would be decoded to JavaScript's UTF-16 and encoded back for
/// the wasm (70 ms for 3.5 MB).
pub async fn read_data(data: &JsValue) -> Result<String, (String, &'static str)> {
    if let Some(s) = data.as_string() {
        return Ok(s);
    }
    let size = ["size", "byteLength"]
        .iter()
        .find_map(|k| Reflect::get(data, &(*k).into()).ok()?.as_f64());
    bounded(size.unwrap_or(0.0)).map_err(|e| (e, "too_large"))?;
    let failed = |e: JsValue| (error_message(&e), "not_a_replay");
    if data.is_instance_of::<js_sys::ArrayBuffer>() {
        return Ok(utf8(data));
    }
    if data.is_object() {
        for (method, bytes) in [("arrayBuffer", true), ("text", false)] {
            let f = Reflect::get(data, &method.into()).unwrap_or(JsValue::UNDEFINED);
            if let Some(f) = f.dyn_ref::<js_sys::Function>() {
                let promise = f.call0(data).map_err(failed)?;
                let v = JsFuture::from(js_sys::Promise::resolve(&promise))
                    .await
                    .map_err(failed)?;
                return Ok(if bytes { utf8(&v) } else { js_string(&v) });
            }
        }
    }
    Err((String::from("replay_data is not a Blob"), "not_a_replay"))
}

pub fn utf8(buffer: &JsValue) -> String {
    let bytes = js_sys::Uint8Array::new(buffer).to_vec();
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `err.message`, or the value as text.
pub fn error_message(e: &JsValue) -> String {
    Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| js_string(e))
}
