//! The page's elements, looked up once by id, and the small DOM helpers the player uses.
//! Text always goes in as text (`textContent`), never as HTML: names come from strangers.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlCanvasElement, HtmlElement, HtmlInputElement, Window};

/// The ids of the elements [`Dom::find`] looks up, in the order it takes them.
const IDS: [&str; 34] = [
    "error",
    "welcome",
    "view",
    "players",
    "board",
    "board-text",
    "board-desc",
    "announce",
    "status",
    "moveinfo",
    "progress",
    "log",
    "result",
    "result-head",
    "result-text",
    "numbers-opt",
    "numbers",
    "viewas-opt",
    "viewas",
    "moves",
    "moves-spacer",
    "moves-bar",
    "controls",
    "b-first",
    "b-prev",
    "b-play",
    "b-next",
    "b-last",
    "b-end",
    "slider",
    "frameno",
    "speed",
    "b-open",
    "file",
];

/// Every element of `player.html` the player touches.
pub struct Dom {
    pub window: Window,
    pub document: Document,
    pub root: HtmlElement,
    pub body: HtmlElement,
    pub error: HtmlElement,
    pub welcome: HtmlElement,
    pub view: HtmlElement,
    pub players: HtmlElement,
    pub board: HtmlCanvasElement,
    pub board_text: HtmlElement,
    /// The board in words (the canvas's description).
    pub board_desc: HtmlElement,
    /// A polite live region: each frame shown, announced.
    pub announce: HtmlElement,
    pub status: HtmlElement,
    pub moveinfo: HtmlElement,
    /// How far a long replay's reading is.
    pub progress: HtmlElement,
    pub log: HtmlElement,
    pub result: HtmlElement,
    pub result_head: HtmlElement,
    pub result_text: HtmlElement,
    pub numbers_opt: HtmlElement,
    pub numbers: HtmlInputElement,
    /// A replay of a module game: "View as" everything, or as one seat saw it.
    pub viewas_opt: HtmlElement,
    pub viewas: web_sys::HtmlSelectElement,
    pub moves: HtmlElement,
    /// The tall box inside `#moves` that holds the rows; its first child is the highlight bar.
    pub spacer: HtmlElement,
    pub bar: HtmlElement,
    pub controls: HtmlElement,
    pub b_first: HtmlElement,
    pub b_prev: HtmlElement,
    pub b_play: HtmlElement,
    pub b_next: HtmlElement,
    pub b_last: HtmlElement,
    /// Jump to the end (to the failure).
    pub b_end: HtmlElement,
    pub slider: HtmlInputElement,
    pub frameno: HtmlElement,
    pub speed: web_sys::HtmlSelectElement,
    pub b_open: HtmlElement,
    pub file: HtmlInputElement,
}

impl Dom {
    /// Finds the elements; `None` if the page is not `player.html`.
    pub fn find() -> Option<Dom> {
        let window = web_sys::window()?;
        let document = window.document()?;
        let root = document.document_element()?.unchecked_into();
        let body = document.body()?;
        // One fallible step for all of them: each `?` after values are held would need its own
        // path dropping them, which costs the wasm kilobytes for this one function.
        let found: Vec<HtmlElement> = IDS
            .iter()
            .map(|name| by_id(&document, name))
            .collect::<Option<_>>()?;
        let [error, welcome, view, players, board, board_text, board_desc, announce, status, moveinfo, progress, log, result, result_head, result_text, numbers_opt, numbers, viewas_opt, viewas, moves, spacer, bar, controls, b_first, b_prev, b_play, b_next, b_last, b_end, slider, frameno, speed, b_open, file] =
            <[HtmlElement; IDS.len()]>::try_from(found).ok()?;
        Some(Dom {
            root,
            body,
            error,
            welcome,
            view,
            players,
            board: board.unchecked_into(),
            board_text,
            board_desc,
            announce,
            status,
            moveinfo,
            progress,
            log,
            result,
            result_head,
            result_text,
            numbers_opt,
            numbers: numbers.unchecked_into(),
            viewas_opt,
            viewas: viewas.unchecked_into(),
            moves,
            spacer,
            bar,
            controls,
            b_first,
            b_prev,
            b_play,
            b_next,
            b_last,
            b_end,
            slider: slider.unchecked_into(),
            frameno,
            speed: speed.unchecked_into(),
            b_open,
            file: file.unchecked_into(),
            window,
            document,
        })
    }

    /// A new element with a class.
    pub fn create(&self, tag: &str, class: &str) -> Option<HtmlElement> {
        let e: HtmlElement = self.document.create_element(tag).ok()?.unchecked_into();
        if !class.is_empty() {
            e.set_class_name(class);
        }
        Some(e)
    }

    /// `performance.now()`, milliseconds.
    pub fn now(&self) -> f64 {
        self.window.performance().map(|p| p.now()).unwrap_or(0.0)
    }

    /// The page's height in CSS pixels, rounded up.
    pub fn page_height(&self) -> f64 {
        js_sys::Math::ceil(self.root.get_bounding_client_rect().height())
    }
}

/// `performance.now()`, milliseconds.
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The element with id `name` (not inlined: called for every element of the page, and each
/// inlined copy costs the wasm a few hundred bytes).
#[inline(never)]
fn by_id(document: &Document, name: &str) -> Option<HtmlElement> {
    document
        .get_element_by_id(name)
        .map(JsCast::unchecked_into::<HtmlElement>)
}

/// Sets the text of an element (as text).
pub fn set_text(e: &Element, text: &str) {
    e.set_text_content(Some(text));
}

/// The last value written to one place of the page: writing the same again is skipped (a
/// DOM write, even of the same text, costs a crossing into JavaScript and a relayout).
#[derive(Default)]
pub struct Last(Option<String>);

impl Last {
    /// True (and remembered) if `value` differs from the last one.
    pub fn changed(&mut self, value: &str) -> bool {
        if self.0.as_deref() == Some(value) {
            return false;
        }
        self.0 = Some(String::from(value));
        true
    }

    pub fn text(&mut self, e: &Element, text: &str) {
        if self.changed(text) {
            set_text(e, text);
        }
    }

    pub fn attr(&mut self, e: &Element, name: &str, value: &str) {
        if self.changed(value) {
            let _ = e.set_attribute(name, value);
        }
    }
}

/// A style property; failures (a read-only declaration) change nothing worth reporting.
pub fn set_style(e: &HtmlElement, name: &str, value: &str) {
    let _ = e.style().set_property(name, value);
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// `String(x)` of JavaScript: how the site's values become text.
    #[wasm_bindgen(js_name = String)]
    pub fn js_string(v: &wasm_bindgen::JsValue) -> String;
}

std::thread_local! {
    /// Strings written again and again (colours, fonts, labels, class names) made into
    /// JavaScript strings once: a frame writes a few hundred, and making each anew (UTF-8
    /// decoding) would cost more than the drawing. A bounded set. A `BTreeMap`, the map
    /// serde_json's objects already bring into the wasm: a `HashMap` added its own (4 KB).
    static STRINGS: RefCell<BTreeMap<String, JsValue>> = const { RefCell::new(BTreeMap::new()) };
}

/// The JavaScript string for `s`, made once.
pub fn js(s: &str) -> JsValue {
    STRINGS.with(|m| {
        let Ok(mut m) = m.try_borrow_mut() else {
            return JsValue::from_str(s);
        };
        if let Some(v) = m.get(s) {
            return v.clone();
        }
        if m.len() > 4096 {
            m.clear();
        }
        let v = JsValue::from_str(s);
        m.insert(String::from(s), v.clone());
        v
    })
}

#[wasm_bindgen]
extern "C" {
    /// Any DOM object, its properties set from values already in JavaScript.
    pub type Props;
    #[wasm_bindgen(method, setter = data)]
    pub fn set_data(this: &Props, v: &JsValue);
    #[wasm_bindgen(method, setter = title)]
    pub fn set_title(this: &Props, v: &JsValue);
    #[wasm_bindgen(method, setter = top)]
    pub fn set_top(this: &Props, v: &JsValue);
    #[wasm_bindgen(method, setter = textContent)]
    pub fn set_text(this: &Props, v: &JsValue);
    #[wasm_bindgen(method, setter = className)]
    pub fn set_class(this: &Props, v: &JsValue);
    #[wasm_bindgen(method, js_name = setAttribute)]
    pub fn set_attr(this: &Props, name: &JsValue, v: &JsValue);
}

/// `x` seen as [`Props`].
pub fn props<T: JsCast>(x: &T) -> &Props {
    x.unchecked_ref()
}
