//! The JavaScript face: `boot()`, called by the page's bootstrap script once the wasm is
//! instantiated. From then on the player is Rust: it takes over the page's message queue.

use wasm_bindgen::prelude::*;
use web_sys::MessageEvent;

use crate::app::{enqueue, install, on_message, with_app, App, Task};
use crate::dom::Dom;
use crate::lang::Lang;

/// Starts the player: finds the page's elements, wires the controls, handles the messages the
/// bootstrap script queued (`window.__arbiterQueue`) and routes later ones
/// (`window.__arbiterOnMessage`) to Rust, then opens `?replay=URL` if given.
#[wasm_bindgen]
pub fn boot() -> Result<(), JsValue> {
    // Module games open through the page's own WebAssembly engine (a live game's through the
    // positions the hub sends, when it sends them).
    arbiter_engine::module::install_host(&crate::live::HOST);
    if let Some(window) = web_sys::window() {
        let lang = choose_language(&window);
        crate::lang::set(lang);
        if let Some(document) = window.document() {
            translate_page(&document, lang);
        }
    }
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

/// The language the host asks for: `?lang=` (a player loaded by address), else the
/// document's `lang` when the player is a host page's `srcdoc` (the host wrote it), else the
/// browser's first language; English when none is spoken here.
fn choose_language(window: &web_sys::Window) -> Lang {
    let asked = crate::protocol::query_param(window, "lang").and_then(|t| Lang::parse(&t));
    let srcdoc = window.location().href().ok().as_deref() == Some("about:srcdoc");
    let host = window
        .document()
        .and_then(|d| d.document_element())
        .filter(|_| srcdoc)
        .and_then(|root| root.get_attribute("lang"))
        .and_then(|t| Lang::parse(&t));
    let browser = window.navigator().language().and_then(|t| Lang::parse(&t));
    asked.or(host).or(browser).unwrap_or_default()
}

/// The page's fixed texts in `lang`: each element names its message in `data-i18n` (its
/// text) or `data-i18n-label`, `-title`, `-placeholder`, `-empty` (those attributes).
fn translate_page(document: &web_sys::Document, lang: Lang) {
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute("lang", lang.tag());
    }
    let targets = [
        ("data-i18n", None),
        ("data-i18n-label", Some("aria-label")),
        ("data-i18n-title", Some("title")),
        ("data-i18n-placeholder", Some("placeholder")),
        ("data-i18n-empty", Some("data-empty")),
    ];
    for (attr, target) in targets {
        let Ok(list) = document.query_selector_all(&alloc::format!("[{attr}]")) else {
            continue;
        };
        for i in 0..list.length() {
            let Some(el) = list
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            else {
                continue;
            };
            let Some(key) = el.get_attribute(attr) else {
                continue;
            };
            let text = lang.t(&key);
            match target {
                None => el.set_text_content(Some(&text)),
                Some(a) => {
                    let _ = el.set_attribute(a, &text);
                }
            }
        }
    }
}
