//! The JavaScript face: `load(text)` -> `Player`, then `player.info()` and `player.frame(k)`.

use alloc::string::ToString;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::session::Session;

fn to_js<T: Serialize>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// Makes Rust panics readable in the console.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// A loaded replay.
#[wasm_bindgen]
pub struct Player {
    session: Session,
}

/// Reads a replay; throws `{kind, message, move_number?}` when it cannot be shown.
#[wasm_bindgen]
pub fn load(text: &str) -> Result<Player, JsValue> {
    Session::load(text)
        .map(|session| Player { session })
        .map_err(|e| to_js(&e))
}

#[wasm_bindgen]
impl Player {
    #[wasm_bindgen(js_name = frameCount)]
    pub fn frame_count(&self) -> usize {
        self.session.frame_count()
    }

    /// Players, moves, result: what does not change between frames.
    pub fn info(&self) -> JsValue {
        to_js(&self.session.info())
    }

    /// The view of frame `k`, or `null` out of range.
    pub fn frame(&self, k: usize) -> JsValue {
        match self.session.frame(k) {
            Some(v) => to_js(&v),
            None => JsValue::NULL,
        }
    }
}

/// The engine's version, shown in the page's footer.
#[wasm_bindgen]
pub fn version() -> alloc::string::String {
    env!("CARGO_PKG_VERSION").to_string()
}
