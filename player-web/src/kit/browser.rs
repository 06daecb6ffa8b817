//! The page's runner: game modules run by the browser's own WebAssembly engine through
//! `www/kit.js` (inlined in player.html as `window.__arbiterKit`), which loads a module,
//! checks its sha256, bounds it (fuel counted by the module itself, memory capped: see the
//! file's opening comment for why it counts rather than timing a Worker), compiles it
//! asynchronously and answers one request at a time. JavaScript rather than Rust for this:
//! it is nothing but calls into the browser, which cost the player's wasm several times
//! their size in bindings.

use alloc::format;
use alloc::string::String;

use arbiter_engine::module::ModuleRef;
use js_sys::Reflect;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use super::game::{Host, Runner};
use crate::lang::ta;
use crate::protocol::error_message;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = __arbiterKit, js_name = find)]
    fn kit_find(sha256: &str) -> i32;
    #[wasm_bindgen(js_namespace = __arbiterKit, js_name = call, catch)]
    fn kit_call(id: u32, request: &str) -> Result<String, JsValue>;
    #[wasm_bindgen(js_namespace = __arbiterKit, js_name = fail)]
    fn kit_fail(id: u32, what: &str);
    #[wasm_bindgen(js_namespace = __arbiterKit, js_name = fault)]
    fn kit_fault(id: u32) -> Option<String>;
    /// A promise resolved a task later (`setTimeout`): the page has its turn meanwhile.
    #[wasm_bindgen(js_namespace = __arbiterKit)]
    pub fn later() -> js_sys::Promise;
    #[wasm_bindgen(js_namespace = __arbiterKit, js_name = prepare)]
    fn kit_prepare(
        name: &str,
        sha256: &str,
        carried: Option<String>,
        prefix: &str,
    ) -> js_sys::Promise;
}

/// The page's runner.
pub struct Browser;

pub static BROWSER: Browser = Browser;
/// The engine's module host in the page.
pub static HOST: Host = Host(&BROWSER);

impl Runner for Browser {
    fn find(&self, sha256: &str) -> Option<u32> {
        u32::try_from(kit_find(sha256)).ok()
    }

    fn call(&self, id: u32, request: &str) -> Result<String, String> {
        kit_call(id, request).map_err(|e| error_message(&e))
    }

    fn fail(&self, id: u32, what: String) {
        kit_fail(id, &what);
    }

    fn fault(&self, id: u32) -> Option<String> {
        kit_fault(id)
    }
}

/// Whether the module with this sha256 is loaded and sound.
pub fn loaded(sha256: &str) -> bool {
    BROWSER
        .find(sha256)
        .is_some_and(|id| BROWSER.fault(id).is_none())
}

/// Loads the module `module` names, unless it is loaded and sound: the copy the replay
/// carries (`carried`, base64), else `modules/<sha256>.wasm` from the page's address (or
/// under the prefix of the `modules` option). The error is the sentence shown instead of
/// the board.
pub async fn prepare(module: &ModuleRef, carried: Option<&str>) -> Result<(), String> {
    if loaded(&module.sha256) {
        return Ok(());
    }
    let prefix = web_sys::window()
        .and_then(|w| crate::protocol::option(&w, "modules", "data-modules"))
        .unwrap_or_else(|| String::from("modules/"));
    let promise = kit_prepare(
        &module.name,
        &module.sha256,
        carried.map(String::from),
        &prefix,
    );
    JsFuture::from(promise)
        .await
        .map(drop)
        .map_err(|e| refusal(module, &e))
}

/// Why a module was not loaded, in the reader's language where it is the replay's fault.
fn refusal(module: &ModuleRef, e: &JsValue) -> String {
    let field = |k: &str| {
        Reflect::get(e, &k.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    let name = format!("{}.wasm", module.name);
    match field("kind").as_str() {
        "hash" => ta(
            "kit-wrong-hash",
            &[
                ("name", name.into()),
                ("sha", super::short(&module.sha256).into()),
            ],
        ),
        "fetch" => ta(
            "kit-not-carried",
            &[
                ("name", name.into()),
                ("url", field("url").into()),
                ("why", field("why").into()),
            ],
        ),
        _ => error_message(e),
    }
}

/// Before a replay is read: loads the module of a module game's replay (the text is read
/// again, strictly, by the session; here only the game's module and the carried copy count,
/// and anything else wrong is left for that reading to say).
pub async fn prepare_text(text: &str) -> Result<(), String> {
    if !text.contains("\"module\"") {
        return Ok(());
    }
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return Ok(());
    };
    let (game, m) = (&v["game"], &v["game"]["module"]);
    let (Some(name), Some(sha)) = (m["name"].as_str(), m["sha256"].as_str()) else {
        return Ok(());
    };
    if game["name"] != "module" {
        return Ok(());
    }
    let module = ModuleRef {
        name: String::from(name),
        version: String::new(),
        sha256: String::from(sha),
    };
    prepare(&module, v["module_wasm"].as_str()).await
}
