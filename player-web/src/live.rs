//! Seed 002's online and spectator modes (docs/live.md): a websocket to the address the
//! token names, `connect` first, then `history`, `watch` / `action` contents gathered by
//! [`Feed`] and shown as a replay; a seat's clicks and typed moves, checked through the engine,
//! go out as `action`; `time` heartbeats drive the seat's clock; a closed socket is opened
//! again with the same token, further and further apart, for as long as a server's restart
//! may take, saying so meanwhile; then the game is said to be gone. A module game whose
//! positions the hub sends is played through them ([`HOST`]); a `notice` stays on the bar.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use gloo_events::EventListener;
use gloo_timers::callback::{Interval, Timeout};
use serde_json::Value;
use wasm_bindgen::JsCast;
use web_sys::{
    HtmlElement, HtmlInputElement, HtmlSelectElement, KeyboardEvent, MessageEvent, MouseEvent,
    WebSocket,
};

use alloc::boxed::Box;
use alloc::sync::Arc;
use arbiter_engine::error::ConfigError;
use arbiter_engine::module::{DynRules, ModuleConfig, ModuleHost};

use crate::app::with_app;
use crate::dom::{now, set_text};
use crate::feed::{self, Feed, Positions};
use crate::kit::clicks::{self, Click, Clicker};

/// A token longer than this is not an address.
const MAX_TOKEN: usize = 2048;
/// The largest message read (a long game's history).
const MAX_MESSAGE: usize = 32 << 20;
/// Reconnections after a close: 0.5 s apart, then 1 s, 2 s ... at most this far apart,
const RETRY_MAX_MS: u32 = 10_000;
/// for at most this long since the connection was lost (a server restarting, its games
/// coming back, answers 404 meanwhile); then the game is gone.
const RETRY_FOR_MINUTES: u32 = 5;

/// The live bar's elements: the line of news and refusals, the clock, the move box, and the
/// list of moves (a module game that gives no clicks).
struct Ui {
    bar: HtmlElement,
    msg: HtmlElement,
    clock: HtmlElement,
    input: HtmlInputElement,
    pick: HtmlSelectElement,
}

struct Live {
    token: String,
    url: String,
    feed: Feed,
    ws: Option<WebSocket>,
    /// The socket's listeners (dropped with it).
    listeners: Vec<EventListener>,
    tries: u32,
    /// When (`performance.now()`) the connection was lost, until a history comes again.
    lost_at: Option<f64>,
    /// This socket's history came; the hub refused it (an `error` before any history: the
    /// hub closes such a socket, and opening it again would be refused again).
    greeted: bool,
    refused: bool,
    retry: Option<Timeout>,
    /// Milliseconds left on the seat's move clock and when (`performance.now()`) that was said.
    clock: Option<(f64, f64)>,
    ticker: Option<Interval>,
    /// A move was sent for the newest position; the next move event clears it.
    pending: bool,
    /// A module game's module is being loaded: frames wait for it.
    preparing: bool,
    /// A module game's move being built by clicks, in the newest position.
    clicker: Option<Clicker>,
    ui: Ui,
    /// `window.__arbiter.liveSent`: every message sent, for tests.
    sent: js_sys::Array,
    /// What the hub said besides the game (it took the game up after a restart).
    notice: Option<String>,
}

std::thread_local! {
    static LIVE: RefCell<Option<Live>> = const { RefCell::new(None) };
    /// The positions the hub sent for the game shown (apart from `LIVE`: the engine opens the
    /// game while `LIVE` is borrowed).
    static SHOWN: RefCell<Option<Arc<Positions>>> = const { RefCell::new(None) };
}

/// The engine's module host in the page: the live game whose positions the hub sends is
/// played through them, any other module game by the page's WebAssembly.
pub struct Host;

pub static HOST: Host = Host;

impl ModuleHost for Host {
    fn open(&self, c: &ModuleConfig) -> Result<Box<dyn DynRules>, ConfigError> {
        let shown = SHOWN
            .with(|s| s.borrow().clone())
            .filter(|p| p.config == *c);
        match shown {
            Some(p) => Ok(p.open()),
            None => crate::kit::browser::HOST.open(c),
        }
    }
}

fn with_live<R>(f: impl FnOnce(&mut Live) -> R) -> Option<R> {
    LIVE.with(|l| l.try_borrow_mut().ok().and_then(|mut l| l.as_mut().map(f)))
}

fn element<T: JsCast>(id: &str) -> Option<T> {
    web_sys::window()?
        .document()?
        .get_element_by_id(id)?
        .dyn_into()
        .ok()
}

/// Starts a live mode with the site's token (`seat`: `init_player_player`). The error is the
/// sentence refused.
pub fn start(token: &str, seat: bool) -> Result<(), String> {
    let window = web_sys::window().ok_or_else(|| String::from("no window"))?;
    // Seed 002 connects to `wss://` + the token (a host and path); ours name their scheme.
    let url = (token.len() <= MAX_TOKEN)
        .then(|| window.atob(token).ok())
        .flatten()
        .map(|u| match u.contains("://") {
            true => u,
            false => format!("wss://{u}"),
        })
        .filter(|u| (u.starts_with("ws://") || u.starts_with("wss://")) && u.len() > 6)
        .ok_or_else(|| String::from("the token is not the Base64 of a websocket address"))?;
    // Only the hub the page allows: a token naming another would stream another's game here.
    if !crate::protocol::hub_allowed(&window, &url) {
        return Err(crate::lang::ta("live-not-hub", &[("url", url.into())]));
    }
    let ui = Ui {
        bar: element("live").ok_or_else(|| String::from("player.html has no live bar"))?,
        msg: element("live-msg").ok_or_else(|| String::from("no #live-msg"))?,
        clock: element("live-clock").ok_or_else(|| String::from("no #live-clock"))?,
        input: element("live-move").ok_or_else(|| String::from("no #live-move"))?,
        pick: element("live-pick").ok_or_else(|| String::from("no #live-pick"))?,
    };
    ui.bar.set_hidden(false);
    ui.input.set_hidden(!seat);
    let first = LIVE.with(|l| l.borrow().is_none());
    let sent = js_sys::Array::new();
    if let Ok(hooks) = js_sys::Reflect::get(&window, &"__arbiter".into()) {
        let _ = js_sys::Reflect::set(&hooks, &"liveSent".into(), &sent);
    }
    let live = Live {
        token: String::from(token),
        url,
        feed: Feed::default(),
        ws: None,
        listeners: Vec::new(),
        tries: 0,
        lost_at: None,
        greeted: false,
        refused: false,
        retry: None,
        clock: None,
        ticker: None,
        pending: false,
        preparing: false,
        clicker: None,
        ui,
        sent,
        notice: None,
    };
    LIVE.with(|l| {
        if let Ok(mut slot) = l.try_borrow_mut() {
            if let Some(old) = slot.as_ref().and_then(|o| o.ws.as_ref()) {
                let _ = old.close();
            }
            *slot = Some(live);
        }
    });
    if first {
        bind_input();
    }
    connect();
    Ok(())
}

/// Opens the socket (again) and listens to it.
fn connect() {
    with_live(|l| {
        l.retry = None;
        (l.greeted, l.refused) = (false, false);
        if l.lost_at.is_none() {
            note(&l.ui, "Connecting…", false);
        }
        let ws = match WebSocket::new(&l.url) {
            Ok(ws) => ws,
            Err(e) => {
                let why = crate::protocol::error_message(&e);
                let text = crate::lang::ta("live-cannot-connect", &[("why", why.into())]);
                return note(&l.ui, &text, true);
            }
        };
        let open = EventListener::new(&ws, "open", |_| {
            with_live(|l| {
                let hello = format!(r#"{{"request":"connect","token":{}}}"#, quote(&l.token));
                l.send(hello);
            });
        });
        let message = EventListener::new(&ws, "message", |e| {
            let text = e
                .dyn_ref::<MessageEvent>()
                .and_then(|e| e.data().as_string());
            if let Some(text) = text {
                receive(&text);
            }
        });
        let close = EventListener::new(&ws, "close", |_| closed());
        l.listeners = alloc::vec![open, message, close];
        l.ws = Some(ws);
    });
}

/// The socket closed: open it again unless the game is over or the hub refused it, for at
/// most [`RETRY_FOR_MINUTES`], saying so on the live line.
fn closed() {
    with_live(|l| {
        l.ws = None;
        l.clock = None;
        l.ticker = None;
        // A refusal stays on the line: the hub said why.
        if l.feed.ended || l.refused {
            return;
        }
        let minutes = RETRY_FOR_MINUTES;
        let lost = *l.lost_at.get_or_insert_with(now);
        if now() - lost > f64::from(minutes) * 60_000.0 {
            let text = crate::lang::ta("live-gone", &[("minutes", minutes.into())]);
            return note(&l.ui, &text, true);
        }
        let delay = (500u32 << l.tries.min(5)).min(RETRY_MAX_MS);
        l.tries += 1;
        let text = crate::lang::ta(
            "live-lost",
            &[
                ("delay", crate::units::ms(f64::from(delay)).into()),
                ("n", l.tries.into()),
                ("minutes", minutes.into()),
            ],
        );
        note(&l.ui, &text, true);
        l.retry = Some(Timeout::new(delay, connect));
    });
}

/// One message from the hub.
fn receive(text: &str) {
    if text.len() > MAX_MESSAGE {
        return with_live(|l| note(&l.ui, "The hub sent a message too large to read.", true))
            .unwrap_or_default();
    }
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return with_live(|l| note(&l.ui, "The hub sent text that is not JSON.", true))
            .unwrap_or_default();
    };
    let content = &v["content"];
    let changed = with_live(|l| match v["request"].as_str() {
        Some("history") => {
            l.feed.reset();
            (l.tries, l.lost_at, l.greeted) = (0, None, true);
            l.notice = None;
            l.pending = false;
            let all = content.as_array().map_or(&[][..], Vec::as_slice);
            for c in all.iter().take(feed::MAX_EVENTS + 2) {
                l.take(c);
            }
            true
        }
        Some("watch" | "action") => {
            l.take(content);
            true
        }
        Some("time") => {
            if let Some(ms) = content.as_f64() {
                l.clock = Some((ms, now()));
                l.tick();
                if l.ticker.is_none() {
                    l.ticker = Some(Interval::new(100, || {
                        with_live(Live::tick);
                    }));
                }
            }
            false
        }
        Some("notice") => {
            l.notice = content.as_str().map(String::from);
            true
        }
        Some("error") => {
            let why = content.as_str().unwrap_or("(no reason given)");
            l.pending = false;
            l.refused |= !l.greeted;
            note(
                &l.ui,
                &crate::lang::ta("live-hub-refused", &[("why", why.into())]),
                true,
            );
            false
        }
        _ => false,
    });
    if changed == Some(true) {
        load_module_then_refresh();
    }
}

/// A module game's frames need its module: loaded (asynchronously) from the copy the hub
/// sent with the start, before the first frames are shown.
fn load_module_then_refresh() {
    let wanted = with_live(|l| {
        if l.preparing {
            return Err(());
        }
        let module = l.feed.take_module();
        let module = module.filter(|(m, _)| !crate::kit::browser::loaded(&m.sha256));
        l.preparing = module.is_some();
        Ok(module)
    });
    let Some(Ok(wanted)) = wanted else {
        return;
    };
    let Some((module, carried)) = wanted else {
        return refresh();
    };
    wasm_bindgen_futures::spawn_local(async move {
        let loaded = crate::kit::browser::prepare(&module, carried.as_deref()).await;
        with_live(|l| l.preparing = false);
        match loaded {
            Ok(()) => refresh(),
            Err(e) => {
                with_app(|app| app.show_error(&e, "module"));
            }
        }
    });
}

/// Brings the game shown up to date with the feed (a new session from a start, each move
/// checked as it joins it, then the end) and shows it, following the newest frame unless the
/// viewer stepped back.
fn refresh() {
    let drained = with_live(|l| {
        // The engine opens a new game's module through `HOST`, which plays it from these.
        SHOWN.with(|s| s.replace(l.feed.positions.clone()));
        with_app(|app| {
            let shown = app.loaded.take().filter(|s| s.session.is_live());
            let back = shown.as_ref().map(|s| (s.k, s.frames));
            let mut session = shown.map(|s| s.session);
            let drained = l.feed.drain_into(&mut session);
            let session = session?;
            // The seats with a choice now: one, or a simultaneous turn's movers.
            let choosers = feed::choosers(&session);
            let n = session.position(0).map_or(2, |g| g.seats());
            let seats = crate::view::seat_labels(session.replay().game.name(), n);
            app.show_live(session, back, l.feed.ended, l.feed.positions.is_some());
            Some((drained, choosers, seats, l.feed.seat, l.feed.ended))
        })
        .flatten()
    })
    .flatten();
    let Some((drained, choosers, seats, seat, ended)) = drained else {
        return;
    };
    if let Err(e) = drained {
        return with_live(|l| {
            let text = crate::lang::ta("live-cannot-show", &[("message", (&e.message).into())]);
            note(&l.ui, &text, true)
        })
        .unwrap_or_default();
    }
    // A forced ply (a Reversi pass) is played by the referee, not asked of the person.
    let mine = !ended && seat.is_some_and(|s| choosers.contains(&s));
    let list = offer_moves(seat.filter(|_| mine));
    with_live(|l| {
        let news = match (ended, seat) {
            // The last frame's status line says the result: the bar has nothing left to say.
            (true, _) => String::new(),
            (_, Some(s)) if mine => crate::lang::ta(
                if list { "live-pick" } else { "live-your-turn" },
                &[("seat", crate::view::label_of(&seats, s).into())],
            ),
            (_, Some(s)) => crate::lang::ta(
                "live-waiting",
                &[("seat", crate::view::label_of(&seats, s).into())],
            ),
            (_, None) => crate::lang::t("live-watching-now"),
        };
        let news = match &l.notice {
            Some(n) => format!("{n} {news}"),
            None => news,
        };
        if ended || !mine {
            l.clock = None;
            l.ticker = None;
            set_text(&l.ui.clock, "");
        }
        note(&l.ui, &news, false);
        if ended {
            l.ui.bar.set_hidden(true);
        }
    });
}

impl Live {
    fn take(&mut self, content: &Value) {
        let Some(c) = content.as_str() else {
            return note(
                &self.ui,
                "The hub sent a content that is not a string.",
                true,
            );
        };
        let before = self.feed.moves();
        if let Err(e) = self.feed.apply(c) {
            return note(&self.ui, &e, true);
        }
        // A move was played: a person's move may be sent again, for the new position.
        if self.feed.moves() != before {
            self.pending = false;
        }
    }

    fn send(&mut self, text: String) -> bool {
        let Some(ws) = self
            .ws
            .as_ref()
            .filter(|ws| ws.ready_state() == WebSocket::OPEN)
        else {
            note(
                &self.ui,
                "Not connected to the game right now: try again in a moment.",
                true,
            );
            return false;
        };
        if ws.send_with_str(&text).is_err() {
            return false;
        }
        self.sent.push(&text.into());
        true
    }

    /// The seat's clock, counting down between heartbeats.
    fn tick(&mut self) {
        let Some((ms, at)) = self.clock else { return };
        let left = (ms - (now() - at)).max(0.0);
        // Tenths in integers: core's float formatting would add its code to the wasm.
        let tenths = (left / 100.0) as u64;
        let s = format!("{}.{}", tenths / 10, tenths % 10);
        let text = crate::lang::ta("live-your-clock", &[("s", s.into())]);
        set_text(&self.ui.clock, &text);
        let _ = self
            .ui
            .clock
            .class_list()
            .toggle_with_force("low", left < 10_000.0);
    }
}

/// `s` as a JSON string (the browser's `JSON.stringify`: no serializer in the wasm).
fn quote(s: &str) -> String {
    js_sys::JSON::stringify(&s.into())
        .ok()
        .and_then(|q| q.as_string())
        .unwrap_or_default()
}

/// Says `text` on the live bar's line (`bad`: a refusal or a failure, in red).
fn note(ui: &Ui, text: &str, bad: bool) {
    set_text(&ui.msg, text);
    let _ = ui.msg.class_list().toggle_with_force("bad", bad);
}

/// A person's move, by click or typed: checked through the engine, then sent; `false` when
/// refused (the reason shown).
fn submit(text: &str) -> bool {
    let Some((seat, pending)) = with_live(|l| (l.feed.seat, l.pending)) else {
        return false;
    };
    let checked = with_app(|app| {
        let l = app.loaded.as_ref()?;
        let frames = l.frames;
        let out = feed::check_move(&l.session, seat, text).map(|mv| (mv, frames - 1));
        if out.is_ok() {
            app.go(frames as i64 - 1);
        }
        Some(out)
    })
    .flatten()
    .unwrap_or_else(|| Err(String::from("the game has not started yet")));
    with_live(|l| match checked {
        Ok(_) if pending => {
            note(&l.ui, &crate::lang::t("live-on-its-way"), true);
            false
        }
        Ok((mv, ply)) => {
            // The ply names the position the move was chosen in: the hub refuses it if the
            // game has moved on since.
            let msg = format!(
                r#"{{"request":"action","token":{},"content":{},"ply":{ply}}}"#,
                quote(&l.token),
                quote(&mv)
            );
            if l.send(msg) {
                l.pending = true;
                note(
                    &l.ui,
                    &crate::lang::ta("live-sent", &[("move", (&mv).into())]),
                    false,
                );
            }
            true
        }
        Err(why) => {
            note(
                &l.ui,
                &crate::lang::ta("live-refused", &[("why", why.into())]),
                true,
            );
            false
        }
    })
    .unwrap_or(false)
}

/// A module game, the seat's turn (`mine`: the seat, alone to move or one of a simultaneous
/// turn's movers) in the newest position: the moves offered by clicks (the places that begin
/// one highlighted), or, when the module gives no clicks, as a list (true). Not the seat's
/// turn: nothing offered.
fn offer_moves(mine: Option<u8>) -> bool {
    let entries = with_app(|app| {
        let l = app.loaded.as_ref()?;
        let g = l.session.position(l.frames - 1)?;
        let seat = mine.and_then(|s| arbiter_engine::Seat::from_index(usize::from(s)))?;
        let rules = g.as_module()?;
        let text = rules.clicks(seat);
        // The module's answer as it is, for tests (`window.__arbiter.liveClicks`).
        if let Some(hooks) =
            web_sys::window().map(|w| js_sys::Reflect::get(&w, &"__arbiter".into()))
        {
            let _ = hooks
                .map(|h| js_sys::Reflect::set(&h, &"liveClicks".into(), &text.as_deref().into()));
        }
        let clicks = text.and_then(|t| serde_json::from_str(&t).ok());
        let legal = g.legal_moves_of(seat).into_iter().map(|m| g.format_move(m));
        Some(
            clicks
                .as_ref()
                .and_then(clicks::read)
                .ok_or_else(|| legal.collect::<Vec<_>>()),
        )
    })
    .flatten();
    let (clicker, list) = match entries {
        Some(Ok(entries)) => (Some(Clicker::new(entries)), Vec::new()),
        Some(Err(list)) => (None, list),
        None => (None, Vec::new()),
    };
    let listed = !list.is_empty();
    with_live(|l| {
        fill_pick(&l.ui.pick, &list);
        l.clicker = clicker;
        l.show_clicks();
    });
    listed
}

/// The list of moves to pick from (its first entry says what it is for); hidden when empty.
fn fill_pick(pick: &HtmlSelectElement, moves: &[String]) {
    pick.set_length(1);
    pick.set_hidden(moves.is_empty());
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    for mv in moves {
        if let Ok(option) = document.create_element("option") {
            let _ = option.set_attribute("value", mv);
            option.set_text_content(Some(mv));
            let _ = pick.append_child(&option);
        }
    }
}

impl Live {
    /// Highlights the places that continue the move being built (none: no move is built).
    fn show_clicks(&self) {
        let shown = self.clicker.as_ref().map(|c| (c.next(), c.chosen.clone()));
        with_app(|app| {
            app.clicking = shown;
            app.draw();
        });
    }
}

/// A click on a module game's board: one more step of the move being built.
fn module_click(x: f64, y: f64) {
    let spot = with_app(|app| {
        let module = app.loaded.as_ref()?.view.as_ref()?.module.as_ref()?;
        let g = app.geom?;
        let grid = clicks::Grid {
            ox: g.ox,
            oy: g.oy,
            cell: g.cell,
            cols: module.cols,
            rows: module.rows,
            kind: module.kind,
        };
        clicks::pick(&grid, &app.clicking.as_ref()?.0, x, y)
    })
    .flatten();
    let Some(spot) = spot else { return };
    let Some(Some(click)) = with_live(|l| l.clicker.as_mut().map(|c| c.click(spot))) else {
        return;
    };
    match click {
        Click::Move(mv) => {
            submit(&mv);
        }
        Click::More => {
            with_live(|l| note(&l.ui, &crate::lang::t("live-clicking"), false));
        }
        Click::Nothing => {}
    }
    with_live(|l| l.show_clicks());
}

/// The board's clicks and the move box's Enter, for as long as the page lives.
fn bind_input() {
    if let Some(board) = element::<HtmlElement>("board") {
        EventListener::new(&board, "click", |e| {
            let Some(e) = e.dyn_ref::<MouseEvent>() else {
                return;
            };
            let (x, y) = (f64::from(e.offset_x()), f64::from(e.offset_y()));
            if with_live(|l| l.clicker.is_some()).unwrap_or(false) {
                return module_click(x, y);
            }
            let cell = with_app(|app| {
                let l = app.loaded.as_ref()?;
                let cell = app.geom?.cell_at(x, y)?;
                Some(feed::cell_move(l.info.game, cell))
            })
            .flatten();
            let seat = with_live(|l| l.feed.seat.is_some()).unwrap_or(false);
            if let (Some(text), true) = (cell, seat) {
                submit(&text);
            }
        })
        .forget();
    }
    if let Some(pick) = element::<HtmlSelectElement>("live-pick") {
        let target = pick.clone();
        EventListener::new(&pick, "change", move |_| {
            let mv = target.value();
            target.set_selected_index(0);
            if !mv.is_empty() {
                submit(&mv);
            }
        })
        .forget();
    }
    if let Some(input) = element::<HtmlInputElement>("live-move") {
        let target = input.clone();
        EventListener::new(&input, "keydown", move |e| {
            let enter = e
                .dyn_ref::<KeyboardEvent>()
                .is_some_and(|k| k.key() == "Enter");
            let text = target.value();
            if enter && !text.trim().is_empty() && submit(text.trim()) {
                target.set_value("");
            }
        })
        .forget();
    }
}
