//! The player's state and what it shows: loading a replay, showing a frame (canvas, players,
//! status, move list, board text), errors, and the queue of tasks that runs the site's messages
//! one after another (a Blob is read asynchronously, and a `load_frame` sent right after
//! `init_replay_player` must wait for it).

use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{HtmlElement, MessageEvent, Text};

use crate::dom::{js, props, set_style, set_text, Dom, Last};
use crate::draw::{self, Palette};
use crate::lang::{t, ta};
use crate::protocol::{self, Origins, Peer, Request};
use crate::session::{Info, Session};
use crate::view::FrameView;

/// Height of a row of the move list, and of the list's inside (216 px less the border).
const ROW: f64 = 18.0;
const LIST_H: f64 = 216.0 - 2.0;
/// Rows that exist: those in view and two more (the list is virtual).
const POOL: usize = 14;

/// A loaded replay.
pub struct Loaded {
    pub session: Session,
    pub info: Info,
    pub frames: usize,
    /// Thinking time per seat up to each frame.
    pub cum_time: Vec<[f64; 2]>,
    /// Each move's time as the move list shows it (` 12 ms`, or empty), made once.
    pub times: Vec<String>,
    /// The move list's rows' texts, made when first shown.
    row_texts: Vec<Option<RowText>>,
    /// The frame shown.
    pub k: usize,
    pub view: Option<FrameView>,
    /// A live game not over yet: no result to say.
    pub in_progress: bool,
}

/// One row of the move list: its element and parts, and the frame it shows.
struct Row {
    row: HtmlElement,
    style: web_sys::CssStyleDeclaration,
    num: Text,
    who: HtmlElement,
    rest: Text,
    k: Option<usize>,
    /// The seat its mark shows (`None`: the start row).
    seat: Option<Option<u8>>,
}

/// A move list row's texts, made into JavaScript strings the first time the row shows them.
struct RowText {
    k: JsValue,
    top: JsValue,
    num: JsValue,
    rest: JsValue,
    title: JsValue,
    seat: Option<u8>,
}

impl RowText {
    fn new(info: &Info, times: &[String], k: usize) -> RowText {
        let js = |s: &str| JsValue::from_str(s);
        let (num, rest, title, seat) = match k.checked_sub(1).and_then(|i| info.moves.get(i)) {
            None if info.opening.is_empty() => (
                js(&format!("0. {}", t("player-start"))),
                js(""),
                js(&t("player-start-position")),
                None,
            ),
            None => {
                let opening = info.opening.join(" ");
                (
                    js("0. "),
                    js(&ta("player-opening", &[("moves", (&opening).into())])),
                    js(&ta("player-after-opening", &[("moves", opening.into())])),
                    None,
                )
            }
            Some(m) => {
                let seat = usize::from(m.seat & 1);
                let time = times.get(k - 1).map_or("", String::as_str);
                let alt = if m.alt != m.mv {
                    format!(" ({})", m.alt)
                } else {
                    String::new()
                };
                (
                    js(&format!("{k}. ")),
                    js(&format!(" {}{time}", m.mv)),
                    js(&format!("{} {}{alt}", info.seats[seat], m.mv)),
                    Some(seat as u8),
                )
            }
        };
        RowText {
            k: js(&format!("{k}")),
            top: js(&format!("{}px", k * ROW as usize)),
            num,
            rest,
            title,
            seat,
        }
    }
}

/// A player's box above the board.
struct PlayerBox {
    d: HtmlElement,
    swatch: HtmlElement,
    name: HtmlElement,
    meta: HtmlElement,
    last_name: Last,
    last_color: Last,
    last_meta: Last,
    last_tomove: Option<bool>,
    last_lost: Option<bool>,
}

/// What the side panel and controls show now, to write only what changes.
#[derive(Default)]
struct Written {
    status: Last,
    moveinfo: Last,
    log: Last,
    frameno: Last,
    aria: Last,
    frames: Last,
    game: Last,
    desc: Last,
    announce: Last,
    hover: Last,
    end_label: Last,
    long: Option<bool>,
    result_shown: Option<bool>,
    playing: Option<bool>,
}

/// Everything the page shows and the standalone controls' state.
pub struct App {
    pub dom: Dom,
    pub origins: Origins,
    /// Inside a frame (a contest site).
    pub embedded: bool,
    /// Controls shown: top level, or `?controls=1`.
    pub standalone: bool,
    pub loaded: Option<Loaded>,
    /// Names from `load_players`, over the replay's, and the replay they were given for (its
    /// hash; `None`: given before any replay, so for the next one).
    names: Option<(Vec<String>, Option<u64>)>,
    /// The hash of the replay shown.
    replay_hash: Option<u64>,
    /// The result from the first frame (`?result=show`, `data-result="show"`); otherwise it
    /// is said on the last frame only (no box saying it is hidden).
    pub show_result: bool,
    /// The last frame was shown since this replay was loaded (its result is known).
    seen_end: bool,
    /// Where the board's cells were drawn, for the coordinates on hover.
    pub geom: Option<draw::Geom>,
    /// A module game's move being built by clicks (a live seat): the places that continue
    /// it, and those clicked so far.
    pub clicking: Option<(Vec<crate::kit::clicks::Spot>, Vec<crate::kit::clicks::Spot>)>,
    pub peer: Option<Peer>,
    last_height: f64,
    pub playing: Option<gloo_timers::callback::Interval>,
    pub speed: f64,
    pub numbers: bool,
    pub palette: Option<Palette>,
    rows: Vec<Row>,
    bar_k: Option<usize>,
    pub list_top: f64,
    scroll_pending: bool,
    player_boxes: Option<[PlayerBox; 2]>,
    written: Written,
    pub resize_timer: Option<gloo_timers::callback::Timeout>,
    /// `window.__arbiter.state` and `.perf`: for tests and the benchmark.
    hook_state: Object,
    perf_load_frame: Array,
    perf_parts: Array,
    perf_paints: Array,
    perf: Object,
}

std::thread_local! {
    static APP: RefCell<Option<App>> = const { RefCell::new(None) };
    static TASKS: RefCell<VecDeque<Task>> = const { RefCell::new(VecDeque::new()) };
    static BUSY: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` on the player, if it started (and is not already borrowed: event handlers never
/// nest, but a surprise is skipped rather than a panic).
pub fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> Option<R> {
    APP.with(|a| a.try_borrow_mut().ok().and_then(|mut a| a.as_mut().map(f)))
}

pub fn install(app: App) {
    APP.with(|a| {
        if let Ok(mut slot) = a.try_borrow_mut() {
            *slot = Some(app);
        }
    });
}

/// Work done in order, one task at a time.
pub enum Task {
    Message {
        data: JsValue,
        received: f64,
    },
    Fetch(String),
    OpenFile(web_sys::File),
    /// Everything queued at start is done: mark the page ready.
    Ready,
}

pub fn enqueue(task: Task) {
    TASKS.with(|t| t.borrow_mut().push_back(task));
    if !BUSY.with(|b| b.replace(true)) {
        wasm_bindgen_futures::spawn_local(async {
            while let Some(task) = TASKS.with(|t| t.borrow_mut().pop_front()) {
                run(task).await;
            }
            BUSY.with(|b| b.set(false));
        });
    }
}

/// A `message` event: from an allowed origin and shaped like a message, it is queued.
pub fn on_message(e: &MessageEvent) {
    let received = with_app(|app| {
        if !app.origins.allows(&e.origin()) {
            return None;
        }
        let data = e.data();
        let is_message =
            data.is_object() && Reflect::get(&data, &"message".into()).is_ok_and(|m| m.is_string());
        if !is_message {
            return None;
        }
        if let Some(source) = e.source() {
            app.peer = Some(Peer {
                source: source.into(),
                origin: e.origin(),
            });
        }
        Some((data, app.dom.now()))
    })
    .flatten();
    if let Some((data, received)) = received {
        enqueue(Task::Message { data, received });
    }
}

async fn run(task: Task) {
    match task {
        Task::Message { data, received } => {
            let Some(request) = protocol::parse(&data) else {
                return;
            };
            if let Request::Init(blob) = request {
                match protocol::read_data(&blob).await {
                    Ok(text) if !module_ready(&text).await => {}
                    Ok(text) => {
                        with_app(|app| {
                            if app.open_text(&text, 0) {
                                let frames = app.loaded.as_ref().map_or(0, |l| l.frames);
                                let msg = protocol::message(
                                    "init_successfully",
                                    &[("number_of_frames", JsValue::from(frames as f64))],
                                );
                                app.reply(&msg);
                            }
                        });
                    }
                    Err(e) => {
                        with_app(|app| {
                            app.show_error(&format!("cannot read replay_data: {e}"), "not_a_replay")
                        });
                    }
                }
            } else {
                with_app(|app| app.handle(request, received));
            }
        }
        Task::Fetch(url) => {
            let text = fetch_text(&url).await;
            if let Ok(t) = &text {
                if !module_ready(t).await {
                    return;
                }
            }
            with_app(|app| match text {
                Ok(text) => {
                    let k = app.hash_frame();
                    app.open_text(&text, k);
                }
                Err(e) => app.fetch_failed(&url, &e),
            });
        }
        Task::OpenFile(file) => {
            let text = JsFuture::from(file.text())
                .await
                .map(|t| crate::dom::js_string(&t));
            if let Ok(t) = &text {
                if !module_ready(t).await {
                    return;
                }
            }
            with_app(|app| match text {
                Ok(t) => {
                    if app.open_text(&t, 0) {
                        app.dom.welcome.set_hidden(true);
                    }
                }
                Err(e) => app.show_error(&protocol::error_message(&e), "internal"),
            });
        }
        Task::Ready => {
            with_app(|app| {
                let _ = app.dom.root.set_attribute("data-ready", "1");
                app.report_height();
            });
        }
    }
}

/// Loads the game module a replay's game names, if it is a module game's; false (and the
/// error shown instead of a board) when the module cannot be used.
async fn module_ready(text: &str) -> bool {
    match crate::kit::browser::prepare_text(text).await {
        Ok(()) => true,
        Err(e) => {
            with_app(|app| app.show_error(&e, "module"));
            false
        }
    }
}

async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or_else(|| String::from("no window"))?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| protocol::error_message(&e))?;
    let response: web_sys::Response = response.unchecked_into();
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = response.text().map_err(|e| protocol::error_message(&e))?;
    let text = JsFuture::from(text)
        .await
        .map_err(|e| protocol::error_message(&e))?;
    Ok(crate::dom::js_string(&text))
}

fn set(o: &Object, key: &str, v: &JsValue) {
    let _ = Reflect::set(o, &key.into(), v);
}

/// Keeps the last `cap` figures.
fn push_capped(a: &Array, v: &JsValue, cap: u32) {
    a.push(v);
    if a.length() > cap {
        a.shift();
    }
}

/// Milliseconds as people read them: `4.2 ms`, `73 ms`, `1.25 s`.
pub fn fmt_ms(ms: f64) -> String {
    crate::units::ms(ms)
}

/// The status line: the frame's, with a pass or skip said first and the duel's round.
fn status_line(info: &Info, v: &FrameView) -> String {
    let mut status = v.status.clone();
    if let (true, Some(seat), None) = (v.passed, v.last_seat, &v.failure) {
        let what = if info.game == "reversi" {
            "player-passed"
        } else {
            "player-skipped"
        };
        let who = info.seats[usize::from(seat & 1)];
        status = ta(what, &[("who", who.into()), ("status", status.into())]);
    }
    if info.game == "duel2048" {
        let n = u32::from(v.round) + 1;
        status = ta(
            "player-round",
            &[("n", n.into()), ("status", status.into())],
        );
    }
    status
}

/// `Move 12 of 60: White f5 (4 5) · thought 73 ms (cpu 70 ms)`, or the start.
fn move_info(info: &Info, frames: usize, k: usize, m: Option<&crate::session::MoveInfo>) -> String {
    let Some(m) = m else {
        return ta("player-start-moves", &[("n", (frames - 1).into())]);
    };
    let alt = if m.alt != m.mv {
        format!(" ({})", m.alt)
    } else {
        String::new()
    };
    let time = m
        .time_ms
        .map(|ms| ta("player-thought", &[("t", fmt_ms(ms).into())]))
        .unwrap_or_default();
    let cpu = m
        .cpu_ms
        .map(|ms| ta("player-cpu", &[("t", fmt_ms(ms).into())]))
        .unwrap_or_default();
    ta(
        "player-move-of",
        &[
            ("k", k.into()),
            ("last", (frames - 1).into()),
            ("who", info.seats[usize::from(m.seat & 1)].into()),
            ("move", (&m.mv).into()),
            ("alt", alt.into()),
            ("time", time.into()),
            ("cpu", cpu.into()),
        ],
    )
}

/// FNV-1a of a replay's text: tells a different replay from the same one sent again.
fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl App {
    pub fn new(dom: Dom) -> App {
        let origins = Origins::read(&dom.window);
        let embedded = match dom.window.parent() {
            Ok(Some(parent)) => !js_sys::Object::is(&parent, &dom.window),
            _ => false,
        };
        let standalone = !embedded
            || protocol::option(&dom.window, "controls", "data-controls").as_deref() == Some("1");
        let show_result =
            protocol::option(&dom.window, "result", "data-result").as_deref() == Some("show");
        let hook_state = Object::new();
        let perf = Object::new();
        let (perf_load_frame, perf_parts, perf_paints) = (Array::new(), Array::new(), Array::new());
        set(&perf, "lastPaintMs", &JsValue::from(0));
        set(&perf, "paints", &perf_paints);
        set(&perf, "parts", &perf_parts);
        set(&perf, "loadFrame", &perf_load_frame);
        set(&perf, "queuedAtStart", &JsValue::from(0));
        set(&hook_state, "player", &JsValue::NULL);
        // The frame view as JavaScript, made when read (tests), not on every frame shown.
        let view = wasm_bindgen::closure::Closure::<dyn Fn() -> JsValue>::new(|| {
            with_app(|app| {
                let v = app.loaded.as_ref().and_then(|l| l.view.as_ref());
                v.and_then(|v| js_sys::JSON::parse(&crate::json::frame_view(v)).ok())
                    .unwrap_or(JsValue::NULL)
            })
            .unwrap_or(JsValue::NULL)
        });
        let descriptor = Object::new();
        set(&descriptor, "get", view.as_ref());
        set(&descriptor, "enumerable", &JsValue::TRUE);
        Object::define_property(&hook_state, &"view".into(), &descriptor);
        view.forget();
        // Where the cells are drawn (CSS pixels), for tests that read the canvas.
        let geom = wasm_bindgen::closure::Closure::<dyn Fn() -> JsValue>::new(|| {
            with_app(|app| {
                app.geom
                    .map(|g| Array::of3(&g.ox.into(), &g.oy.into(), &g.cell.into()))
            })
            .flatten()
            .map_or(JsValue::NULL, JsValue::from)
        });
        let descriptor = Object::new();
        set(&descriptor, "get", geom.as_ref());
        Object::define_property(&hook_state, &"geom".into(), &descriptor);
        geom.forget();
        set(&hook_state, "frames", &JsValue::from(0));
        set(&hook_state, "k", &JsValue::from(0));
        let hooks = Object::new();
        set(&hooks, "state", &hook_state);
        set(&hooks, "perf", &perf);
        set(&dom.window, "__arbiter", &hooks);
        App {
            dom,
            origins,
            embedded,
            standalone,
            loaded: None,
            names: None,
            replay_hash: None,
            show_result,
            seen_end: false,
            geom: None,
            clicking: None,
            peer: None,
            last_height: -1.0,
            playing: None,
            speed: 1.0,
            numbers: true,
            palette: None,
            rows: Vec::new(),
            bar_k: None,
            list_top: 0.0,
            scroll_pending: false,
            player_boxes: None,
            written: Written::default(),
            resize_timer: None,
            hook_state,
            perf_load_frame,
            perf_parts,
            perf_paints,
            perf,
        }
    }

    pub fn set_queued_at_start(&self, n: u32) {
        set(&self.perf, "queuedAtStart", &JsValue::from(n));
    }

    pub fn reply(&self, msg: &JsValue) {
        protocol::reply(
            self.peer.as_ref(),
            self.embedded,
            &self.origins,
            &self.dom.window,
            msg,
        );
    }

    /// Tells the site the page's height when it changed.
    pub fn report_height(&mut self) {
        let h = self.dom.page_height();
        if h != self.last_height {
            self.last_height = h;
            self.reply(&protocol::message(
                "resized",
                &[("height", JsValue::from(h))],
            ));
        }
    }

    /// Refuses a message: an `error` reply, nothing shown.
    fn fail(&self, reason: &str, kind: &str) {
        self.reply(&protocol::error(reason, kind));
    }

    fn handle(&mut self, request: Request, received: f64) {
        match request {
            Request::Init(_) => {}
            Request::LoadFrame(index) => {
                let Some(frames) = self.loaded.as_ref().map(|l| l.frames) else {
                    return self.fail("load_frame before a replay was loaded", "no_replay");
                };
                match protocol::frame_index(&index, frames) {
                    Ok(i) => {
                        self.show(i);
                        // From the message's arrival to the frame drawn (the benchmark reads these).
                        let spent = self.dom.now() - received;
                        push_capped(&self.perf_load_frame, &JsValue::from(spent), 10000);
                    }
                    Err(reason) => self.fail(&reason, "bad_index"),
                }
            }
            Request::Next(name) => {
                let Some((k, frames)) = self.loaded.as_ref().map(|l| (l.k, l.frames)) else {
                    return self.fail(&format!("{name} before a replay was loaded"), "no_replay");
                };
                if k + 1 < frames {
                    self.show(k + 1);
                }
            }
            Request::Players(None) => {
                self.fail("load_players: players must be an array", "bad_players")
            }
            Request::Players(Some(names)) => {
                self.names = Some((names, self.replay_hash));
                if self.loaded.is_some() {
                    self.render_players();
                }
            }
            Request::Live(token, seat, name) => {
                let started = token
                    .ok_or_else(|| String::from("token must be a string"))
                    .and_then(|t| crate::live::start(&t, seat));
                if let Err(why) = started {
                    self.show_error(&format!("{name}: {why}"), "bad_token");
                }
            }
        }
    }

    /// Shows the error instead of the board and tells the site.
    pub fn show_error(&mut self, reason: &str, kind: &str) {
        self.stop();
        self.loaded = None;
        set(&self.hook_state, "player", &JsValue::NULL);
        set(&self.hook_state, "frames", &JsValue::from(0));
        self.dom.view.set_hidden(true);
        self.dom.welcome.set_hidden(true);
        let text = ta("player-cannot-show", &[("reason", reason.into())]);
        set_text(&self.dom.error, &text);
        let _ = self.dom.error.set_attribute("data-kind", kind);
        self.dom.error.set_hidden(false);
        set_text(&self.dom.board_text, "");
        self.update_controls();
        self.reply(&protocol::error(reason, kind));
        self.report_height();
    }

    /// `?replay=URL` could not be read. From disk (`file://`) the browser forbids it: say what
    /// works there instead of its "Failed to fetch".
    fn fetch_failed(&mut self, url: &str, e: &str) {
        let from_disk = self.dom.window.location().protocol().ok().as_deref() == Some("file:");
        if !from_disk {
            return self.show_error(&format!("cannot fetch {url}: {e}"), "fetch");
        }
        self.show_error(
            &format!(
                "this page was opened from disk, where the browser does not let it read \
                 {url}. Use Open… below, or drag and drop the replay file onto this page."
            ),
            "fetch",
        );
        self.dom.welcome.set_hidden(false);
    }

    /// Reads a replay and shows frame `frame` (clamped); false (and an error shown) if it
    /// cannot be shown.
    pub fn open_text(&mut self, text: &str, frame: usize) -> bool {
        let session = match Session::load(text) {
            Ok(s) => s,
            Err(e) => {
                let reason = match (e.kind, e.move_number) {
                    ("illegal_move", Some(n)) => ta(
                        "player-illegal-at",
                        &[("n", n.into()), ("message", (&e.message).into())],
                    ),
                    _ => e.message.clone(),
                };
                self.show_error(&reason, e.kind);
                return false;
            }
        };
        self.adopt_names(hash(text));
        self.open_session(session, frame, false);
        true
    }

    /// A live game's frames so far: frame `k` stays shown when the viewer stepped back, else
    /// the newest. Until the end there is no result to say (the live bar says who plays).
    pub fn show_live(&mut self, session: Session, ended: bool) {
        let k = match &self.loaded {
            Some(l) if l.k + 1 < l.frames => l.k,
            _ => usize::MAX,
        };
        self.open_session(session, k, !ended);
    }

    /// Shows a replay read (clamping `frame`); `in_progress`: a live game not over yet, whose
    /// replay's result is only a placeholder.
    fn open_session(&mut self, session: Session, frame: usize, in_progress: bool) {
        self.stop();
        self.seen_end = false;
        let info = session.info();
        let frames = session.frame_count();
        let mut cum_time = Vec::with_capacity(frames);
        let mut acc = [0.0f64; 2];
        cum_time.push(acc);
        for m in &info.moves {
            acc[usize::from(m.seat & 1)] += m.time_ms.unwrap_or(0.0);
            cum_time.push(acc);
        }
        let times = info
            .moves
            .iter()
            .map(|m| {
                m.time_ms
                    .map(|t| format!(" {}", fmt_ms(t)))
                    .unwrap_or_default()
            })
            .collect();
        let d = &self.dom;
        d.error.set_hidden(true);
        d.welcome.set_hidden(true);
        d.view.set_hidden(false);
        d.numbers_opt.set_hidden(info.game != "gomoku");
        d.slider.set_max(&format!("{}", frames - 1));
        self.written.result_shown = None;
        d.document.set_title(&format!("{} — arbiter", info.title));
        set(&self.hook_state, "player", &JsValue::TRUE);
        set(&self.hook_state, "frames", &JsValue::from(frames as f64));
        self.loaded = Some(Loaded {
            session,
            info,
            frames,
            cum_time,
            times,
            row_texts: (0..frames).map(|_| None).collect(),
            k: 0,
            view: None,
            in_progress,
        });
        self.build_move_list();
        self.show(frame.min(frames - 1));
        self.report_height();
    }

    /// Names from `load_players` belong to the replay shown when they came (or to the next one,
    /// if none was): a different replay clears them.
    fn adopt_names(&mut self, h: u64) {
        match &mut self.names {
            Some((_, given_for @ None)) => *given_for = Some(h),
            Some((_, Some(prev))) if *prev != h => self.names = None,
            _ => {}
        }
        self.replay_hash = Some(h);
    }

    /// Shows frame `k`: the canvas, the players, the side panel, the move list.
    pub fn show(&mut self, k: usize) {
        let t0 = self.dom.now();
        let Some(l) = self.loaded.as_mut() else {
            return;
        };
        let view = l.session.frame(k);
        // A module that failed while making the frame: its words instead of a board.
        if let Some(fault) = l.session.fault() {
            return self.show_error(&fault, "module");
        }
        let Some(view) = view else {
            return self.fail(&format!("frame {k} is out of range"), "bad_index");
        };
        l.k = k;
        set(&self.hook_state, "k", &JsValue::from(k as f64));
        l.view = Some(view);
        let ta = self.dom.now();
        self.draw();
        let tb = self.dom.now();
        self.render_players();
        self.render_side();
        let tc = self.dom.now();
        // Scroll the move list last, after every other change: the one layout it forces is the
        // layout the next paint needs anyway (so the time measured here includes it).
        if self.scroll_pending {
            self.scroll_pending = false;
            self.dom.moves.set_scroll_top(self.list_top as i32);
        } else {
            let _ = self.dom.root.offset_height();
        }
        let t1 = self.dom.now();
        let parts = Array::of4(
            &(ta - t0).into(),
            &(tb - ta).into(),
            &(tc - tb).into(),
            &(t1 - tc).into(),
        );
        push_capped(&self.perf_parts, &parts, 5000);
        push_capped(&self.perf_paints, &(t1 - t0).into(), 5000);
        set(&self.perf, "lastPaintMs", &(t1 - t0).into());
        if !self.embedded {
            if let Ok(h) = self.dom.window.history() {
                let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&format!("#frame={k}")));
            }
        }
    }

    /// Draws the frame shown (again: after a resize or a change of colours or options).
    pub fn draw(&mut self) {
        let Some(l) = &self.loaded else { return };
        let Some(view) = &l.view else { return };
        let palette = self.palette.get_or_insert_with(Palette::read);
        let board = draw::Board {
            game: l.info.game,
            size: l.info.size,
            seats: l.info.seats,
            numbers: self.numbers,
            clicking: self
                .clicking
                .as_ref()
                .map(|(next, chosen)| draw::Clicking { next, chosen }),
        };
        self.geom = draw::draw(&self.dom.board, palette, &board, view);
    }

    fn build_move_list(&mut self) {
        let frames = self.loaded.as_ref().map_or(0, |l| l.frames);
        set_style(
            &self.dom.spacer,
            "height",
            &format!("{}px", frames * ROW as usize),
        );
        if self.rows.is_empty() {
            for _ in 0..POOL {
                let Some(row) = self.dom.create("div", "row") else {
                    return;
                };
                let _ = row.set_attribute("role", "listitem");
                let num = self.dom.document.create_text_node("");
                let Some(who) = self.dom.create("span", "") else {
                    return;
                };
                let rest = self.dom.document.create_text_node("");
                let _ = row.append_child(&num);
                let _ = row.append_child(&who);
                let _ = row.append_child(&rest);
                let _ = self.dom.spacer.append_child(&row);
                let style = row.style();
                self.rows.push(Row {
                    row,
                    style,
                    num,
                    who,
                    rest,
                    k: None,
                    seat: None,
                });
            }
        }
        for r in &mut self.rows {
            r.k = None;
            r.seat = None;
        }
        self.bar_k = None;
        self.dom.moves.set_scroll_top(0);
        self.list_top = 0.0;
        self.render_rows();
    }

    /// Fills the rows in view (after a scroll or a new frame).
    pub fn render_rows(&mut self) {
        let Some(l) = &mut self.loaded else { return };
        let first = js_sys::Math::floor(self.list_top / ROW).max(0.0) as usize;
        // The duel and module games mark seats in the seat colours, the others as stones.
        let duel = !matches!(l.info.game, "reversi" | "gomoku");
        // Frame k always has row k % POOL: a row in view keeps its frame while the list
        // scrolls (a click aimed at it during a scroll still lands on that move).
        for k in first..first + POOL {
            let Some(r) = self.rows.get_mut(k % POOL) else {
                break;
            };
            let Some(slot) = l.row_texts.get_mut(k) else {
                r.row.set_hidden(true);
                r.k = None;
                continue;
            };
            r.row.set_hidden(false);
            if r.k == Some(k) {
                continue;
            }
            r.k = Some(k);
            let t = slot.get_or_insert_with(|| RowText::new(&l.info, &l.times, k));
            props(&r.row).set_attr(&js("data-k"), &t.k);
            props(&r.style).set_top(&t.top);
            props(&r.num).set_data(&t.num);
            props(&r.rest).set_data(&t.rest);
            props(&r.row).set_title(&t.title);
            if r.seat != Some(t.seat) {
                r.seat = Some(t.seat);
                // A drawn disc, not a glyph: Black's keeps its ring in dark mode.
                let class = match (t.seat, duel) {
                    (None, _) => "",
                    (Some(0), true) => "mk s0",
                    (Some(_), true) => "mk s1",
                    (Some(0), false) => "mk b0",
                    (Some(_), false) => "mk b1",
                };
                props(&r.who).set_class(&js(class));
            }
        }
        // The current move: one highlight bar moved under the rows (cheaper than restyling rows).
        if self.bar_k != Some(l.k) {
            self.bar_k = Some(l.k);
            set_style(&self.dom.bar, "top", &format!("{}px", l.k * ROW as usize));
        }
    }

    fn player_colors(&mut self) -> [String; 2] {
        let palette = self.palette.get_or_insert_with(Palette::read);
        match &self.loaded {
            // CSS variables: Black's border is grey in dark mode, where black would vanish.
            Some(l) if matches!(l.info.game, "reversi" | "gomoku") => [
                String::from("var(--black-box)"),
                String::from("var(--white)"),
            ],
            _ => [palette.p0.clone(), palette.p1.clone()],
        }
    }

    fn render_players(&mut self) {
        if self.player_boxes.is_none() {
            let make = || -> Option<PlayerBox> {
                let d = self.dom.create("div", "player")?;
                let n = self.dom.create("div", "name")?;
                let swatch = self.dom.create("span", "swatch")?;
                let name = self.dom.create("span", "pname")?;
                n.append_child(&swatch).ok()?;
                n.append_child(&name).ok()?;
                let meta = self.dom.create("div", "meta")?;
                d.append_child(&n).ok()?;
                d.append_child(&meta).ok()?;
                self.dom.players.append_child(&d).ok()?;
                Some(PlayerBox {
                    d,
                    swatch,
                    name,
                    meta,
                    last_name: Last::default(),
                    last_color: Last::default(),
                    last_meta: Last::default(),
                    last_tomove: None,
                    last_lost: None,
                })
            };
            let (Some(a), Some(b)) = (make(), make()) else {
                return;
            };
            self.player_boxes = Some([a, b]);
        }
        let colors = self.player_colors();
        let (Some(l), Some(boxes)) = (&self.loaded, &mut self.player_boxes) else {
            return;
        };
        let Some(v) = &l.view else { return };
        let info = &l.info;
        for (s, el) in boxes.iter_mut().enumerate() {
            let name = self
                .names
                .as_ref()
                .and_then(|(n, _)| n.get(s))
                .unwrap_or(&info.players[s]);
            if el.last_name.changed(name) {
                set_text(&el.name, name); // text, never HTML
                el.d.set_title(name);
            }
            if el.last_color.changed(&colors[s]) {
                set_style(&el.d, "border-left-color", &colors[s]);
                // The swatch stays black (its ring shows it in dark mode).
                let swatch = match colors[s].as_str() {
                    "var(--black-box)" => "var(--black)",
                    c => c,
                };
                set_style(&el.swatch, "background", swatch);
            }
            let lost = v.failure.as_ref().is_some_and(|f| f.seat == s as u8);
            let tomove = v.to_move == Some(s as u8) && !lost;
            if el.last_tomove != Some(tomove) {
                el.last_tomove = Some(tomove);
                let _ = el.d.class_list().toggle_with_force("tomove", tomove);
            }
            if el.last_lost != Some(lost) {
                el.last_lost = Some(lost);
                let _ = el.d.class_list().toggle_with_force("lost", lost);
            }
            let score = match info.game {
                "reversi" => ta("player-discs", &[("n", v.scores[s].into())]),
                "gomoku" => {
                    let stones = (0..v.order.len()).filter(|i| i % 2 == s).count();
                    ta("player-stones", &[("n", stones.into())])
                }
                "duel2048" => ta("player-tiles", &[("n", v.scores[s].into())]),
                _ => ta("player-score", &[("n", v.scores[s].into())]),
            };
            let cum = l.cum_time.get(l.k).map_or(0.0, |c| c[s]);
            el.last_meta.text(
                &el.meta,
                &ta(
                    "player-meta",
                    &[
                        ("who", info.seats[s].into()),
                        ("score", score.into()),
                        ("used", fmt_ms(cum).into()),
                        ("total", fmt_ms(info.total_ms[s]).into()),
                    ],
                ),
            );
        }
    }

    fn render_side(&mut self) {
        let (playing, show_result) = (self.playing.is_some(), self.show_result);
        let Some(l) = &self.loaded else { return };
        let Some(v) = &l.view else { return };
        let (info, k) = (&l.info, l.k);
        self.seen_end |= k + 1 == l.frames;
        let (d, w) = (&self.dom, &mut self.written);
        let status = status_line(info, v);
        w.status.text(&d.status, &status);
        let failed = v.failure.is_some();
        if w.long != Some(failed) {
            w.long = Some(failed);
            let _ = d.status.class_list().toggle_with_force("long", failed);
            let _ = d.log.class_list().toggle_with_force("long", failed);
        }
        let last_move = k.checked_sub(1).and_then(|i| info.moves.get(i));
        w.moveinfo
            .text(&d.moveinfo, &move_info(info, l.frames, k, last_move));
        let hidden;
        let log = match (&info.failure, failed) {
            (Some(f), true) => f.panel.as_str(),
            _ => match last_move.and_then(|m| m.log.as_deref()) {
                // Another author's output, hidden by the contest site: said in the reader's
                // language.
                Some(crate::failure::HIDDEN_OUTPUT) => {
                    hidden = crate::lang::t("player-log-hidden");
                    hidden.as_str()
                }
                other => other.unwrap_or(""),
            },
        };
        w.log.text(&d.log, log);
        let bt = &d.board_text;
        set_text(bt, &v.board.join("\n"));
        let _ = bt.set_attribute("data-frame", &format!("{k}"));
        w.frames.attr(bt, "data-frames", &format!("{}", l.frames));
        w.game.attr(bt, "data-game", info.game);
        w.desc.text(&d.board_desc, &v.description);
        w.aria.attr(
            &d.board,
            "aria-label",
            &ta(
                "player-board-label",
                &[
                    ("title", (&info.title).into()),
                    ("k", k.into()),
                    ("status", (&status).into()),
                ],
            ),
        );
        // One sentence a frame for screen readers; not during playback, which would flood them.
        if !playing {
            let last = l.frames - 1;
            let text = ta(
                "player-frame-of",
                &[
                    ("k", k.into()),
                    ("last", last.into()),
                    ("status", (&status).into()),
                ],
            );
            w.announce.text(&d.announce, &text);
        }
        // The result, said once: by the last frame's status line when it states it, else by
        // the box there (and on every frame when the site asks for it from the first).
        let at_end = k + 1 == l.frames;
        let unknown_or_said = l.in_progress || (at_end && info.result_in_status);
        let box_shown = (at_end || show_result) && !unknown_or_said;
        if w.result_shown != Some(box_shown) {
            w.result_shown = Some(box_shown);
            set_text(
                &d.result_head,
                if box_shown { &info.result_head } else { "" },
            );
            set_text(
                &d.result_text,
                if box_shown { &info.result_text } else { "" },
            );
            d.result.set_hidden(!box_shown);
        }
        // move list: keep the current move in view
        let top = k as f64 * ROW;
        if top < self.list_top || top + ROW > self.list_top + LIST_H {
            self.list_top = (top - LIST_H / 2.0)
                .min(l.frames as f64 * ROW - LIST_H)
                .max(0.0);
            self.scroll_pending = true;
        }
        self.render_rows();
        self.update_controls();
    }

    /// The coordinates of the square or point under the pointer, as the canvas's tooltip: the
    /// move list's notation and the protocol's.
    pub fn hover(&mut self, x: f64, y: f64) {
        let (Some(l), Some(g)) = (&self.loaded, &self.geom) else {
            return;
        };
        let module = l.view.as_ref().and_then(|v| v.module.as_ref());
        let text = g
            .cell_at(x, y)
            .map(|[r, c]| match module {
                Some(m) => m.place_name([u16::from(c), u16::from(r)]),
                None => crate::failure::hover_text(l.info.game, l.info.size, [r, c]),
            })
            .unwrap_or_default();
        self.written.hover.attr(&self.dom.board, "title", &text);
    }

    pub fn update_controls(&mut self) {
        let (k, frames) = self.loaded.as_ref().map_or((0, 0), |l| (l.k, l.frames));
        self.dom.slider.set_value(&format!("{k}"));
        let failure = self
            .loaded
            .as_ref()
            .is_some_and(|l| l.info.failure.is_some());
        let w = &mut self.written;
        w.frameno.text(
            &self.dom.frameno,
            &format!("{k} / {}", frames.saturating_sub(1)),
        );
        let playing = self.playing.is_some();
        if w.playing != Some(playing) {
            w.playing = Some(playing);
            let b = &self.dom.b_play;
            let _ = b.class_list().toggle_with_force("playing", playing);
            let label = t(if playing {
                "player-pause"
            } else {
                "player-play"
            });
            let _ = b.set_attribute("aria-label", &label);
        }
        // Named for the failure only once the result is known: the name would give it away.
        let end = if failure && (self.show_result || self.seen_end) {
            t("player-jump-failure")
        } else {
            t("player-jump-end")
        };
        w.end_label.text(&self.dom.b_end, &end);
    }

    /// The frame of `#frame=K` in the address, else 0.
    pub fn hash_frame(&self) -> usize {
        let hash = self.dom.window.location().hash().unwrap_or_default();
        let Some(at) = hash.find("frame=") else {
            return 0;
        };
        // `#frame=fail` (or `end`, `last`): the last frame, where a failure is shown.
        let word = hash.get(at + 6..).unwrap_or("");
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        match word.get(..digits).map(str::parse::<usize>) {
            Some(Ok(k)) => k,
            _ if digits > 0 => usize::MAX,
            _ if word.starts_with("fail")
                || word.starts_with("end")
                || word.starts_with("last") =>
            {
                usize::MAX
            }
            _ => 0,
        }
    }
}
