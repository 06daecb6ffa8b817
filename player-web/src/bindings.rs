//! The JavaScript face: `boot()`, called by the page's bootstrap script once the wasm is
//! instantiated. From then on the player is Rust: it takes over the page's message queue.

use wasm_bindgen::prelude::*;
use web_sys::MessageEvent;

use crate::app::{enqueue, install, on_message, with_app, App, Task};
use crate::dom::Dom;

/// Makes Rust panics readable in the console.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Starts the player: finds the page's elements, wires the controls, handles the messages the
/// bootstrap script queued (`window.__arbiterQueue`) and routes later ones
/// (`window.__arbiterOnMessage`) to Rust, then opens `?replay=URL` if given.
#[wasm_bindgen]
pub fn boot() -> Result<(), JsValue> {
    let dom = Dom::find().ok_or_else(|| JsValue::from_str("player.html's elements are missing"))?;
    let window = dom.window.clone();
    let app = App::new(dom);
    crate::controls::bind(&app);
    app.dom.controls.set_hidden(!app.standalone);
    let embedded = app.embedded;
    install(app);
    let handler = Closure::<dyn Fn(MessageEvent)>::new(|e: MessageEvent| on_message(&e));
    js_sys::Reflect::set(&window, &"__arbiterOnMessage".into(), handler.as_ref())?;
    handler.forget();
    let queue = js_sys::Reflect::get(&window, &"__arbiterQueue".into())?;
    let queued: js_sys::Array = if js_sys::Array::is_array(&queue) {
        js_sys::Array::from(&queue).splice(0, u32::MAX, &JsValue::UNDEFINED)
    } else {
        js_sys::Array::new()
    };
    with_app(|app| app.set_queued_at_start(queued.length()));
    for e in queued.iter() {
        if let Ok(e) = e.dyn_into::<MessageEvent>() {
            on_message(&e);
        }
    }
    if let Some(url) = crate::protocol::query_param(&window, "replay") {
        enqueue(Task::Fetch(url));
    } else if !embedded && queued.length() == 0 {
        with_app(|app| app.dom.welcome.set_hidden(false));
    }
    enqueue(Task::Ready);
    Ok(())
}
