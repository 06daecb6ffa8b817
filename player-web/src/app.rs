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
use crate::session::{seat_label, Info, Session};
use crate::view::FrameView;
use arbiter_engine::replay::MoveRecord;

/// Height of a row of the move list, and of the list's inside (216 px less the border).
const ROW: f64 = 18.0;
const LIST_H: f64 = 216.0 - 2.0;
/// Rows that exist: those in view and two more (the list is virtual).
const POOL: usize = 14;
/// The move list's tallest scrolled height: browsers cap an element's (Firefox near 17.9
/// million pixels), so a longer list scrolls at scale.
const MAX_LIST: f64 = 8.0e6;
/// A replay's text read at most (as `arbiter replay show` reads at most 64 MB).
pub const MAX_TEXT: usize = 64 << 20;
/// A slice of the work of reading a long replay, in milliseconds: the page answers between
/// two (clicks, keys, messages, drawing).
const SLICE_MS: f64 = 12.0;
/// Bytes of a replay's text scanned in a slice (`split::Split`): about 5 ms.
const SCAN_SLICE: usize = 1 << 20;
/// The moves checked before a replay is shown and `init_successfully` answered: every move
/// of a built-in game's replay (the longest, a 10,000-round duel, has 40,000; they check in
/// about 2 µs each), so that its illegal move is an error instead of a frame; but no longer
/// than [`FIRST_MS`] (a module game's moves take 10 to 30 µs). A longer replay is shown from
/// its first frames while the rest is checked, a slice at a time; an illegal move there is an
/// error then.
const FIRST_CHECKED: usize = 50_000;
const FIRST_MS: f64 = 300.0;

/// A loaded replay.
pub struct Loaded {
    pub session: Session,
    pub info: Info,
    pub frames: usize,
    /// Thinking time per seat up to each frame checked.
    pub cum_time: Vec<Vec<f64>>,
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

/// A move list row's texts, made into JavaScript strings when the row shows that move.
struct RowText {
    k: JsValue,
    num: JsValue,
    rest: JsValue,
    title: JsValue,
    seat: Option<u8>,
}

impl RowText {
    fn new(session: &Session, info: &Info, k: usize) -> RowText {
        let js = |s: &str| JsValue::from_str(s);
        let (num, rest, title, seat) = match k.checked_sub(1).and_then(|i| session.record(i)) {
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
            Some(m) if m.is_together() => {
                // A simultaneous turn: one row, every mover's move after its seat.
                let all = ply_text(info, m);
                (
                    js(&format!("{k}. ")),
                    js(&format!(" {all}")),
                    js(&all),
                    None,
                )
            }
            Some(m) => {
                let seat = m.seat.index();
                let time = m
                    .time_ms
                    .map(|t| format!(" {}", fmt_ms(t)))
                    .unwrap_or_default();
                let alt = session
                    .alt(&m.mv)
                    .map(|a| format!(" ({a})"))
                    .unwrap_or_default();
                (
                    js(&format!("{k}. ")),
                    js(&format!(" {}{time}", m.mv)),
                    js(&format!(
                        "{} {}{alt}",
                        seat_label(&info.seats, m.seat),
                        m.mv
                    )),
                    Some(seat as u8),
                )
            }
        };
        RowText {
            k: js(&format!("{k}")),
            num,
            rest,
            title,
            seat,
        }
    }
}

/// `#1 up · #2 left · #3 down`: every move of a ply after its seat.
fn ply_text(info: &Info, m: &MoveRecord) -> String {
    let parts: Vec<String> = m
        .records()
        .map(|r| format!("{} {}", seat_label(&info.seats, r.seat), r.mv))
        .collect();
    parts.join(" · ")
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
    /// Counts the replays loaded: a reading in slices stops when a newer one began.
    generation: u32,
    /// A frame asked for whose moves are not checked yet: shown once they are.
    want: Option<usize>,
    last_height: f64,
    pub playing: Option<gloo_timers::callback::Interval>,
    pub speed: f64,
    pub numbers: bool,
    pub palette: Option<Palette>,
    rows: Vec<Row>,
    bar_k: Option<usize>,
    pub list_top: f64,
    /// The rows the list's inside is sized for, and how far its rows are drawn up (a list
    /// scrolled at scale).
    list_rows: usize,
    list_shift: f64,
    scroll_pending: bool,
    player_boxes: Option<Vec<PlayerBox>>,
    /// The seat colours last written on the move list (a module's own).
    list_colors: Last,
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

/// A `message` event: from the embedding page (the parent window, or the page itself at the
/// top) and an allowed origin, and shaped like a message, it is queued. A page that opened the
/// site's page in a window of its own reaches this frame too: it is not listened to.
pub fn on_message(e: &MessageEvent) {
    let received = with_app(|app| {
        let parent = app.dom.window.parent().ok().flatten();
        let from_parent = e
            .source()
            .zip(parent)
            .is_some_and(|(s, p)| Object::is(&s, &p));
        if !from_parent || !app.origins.allows(&e.origin()) {
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
                    Ok(text) => load(text, 0, true).await,
                    Err((e, kind)) => {
                        with_app(|app| {
                            app.show_error(&format!("cannot read replay_data: {e}"), kind)
                        });
                    }
                }
            } else {
                with_app(|app| app.handle(request, received));
            }
        }
        Task::Fetch(url) => match fetch_text(&url).await {
            Ok(text) => {
                let k = with_app(|app| app.hash_frame()).unwrap_or(0);
                load(text, k, false).await;
            }
            Err(e) => {
                with_app(|app| app.fetch_failed(&url, &e));
            }
        },
        Task::OpenFile(file) => {
            if let Err(why) = protocol::bounded(file.size()) {
                with_app(|app| app.show_error(&why, "too_large"));
                return;
            }
            match JsFuture::from(file.array_buffer()).await {
                Ok(b) => load(protocol::utf8(&b), 0, false).await,
                Err(e) => {
                    with_app(|app| app.show_error(&protocol::error_message(&e), "internal"));
                }
            }
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

/// Resolves after the page had its turn: the next slice of a long replay's reading runs in a
/// later task (a timer of 0 ms), after the clicks, keys, messages and drawing waiting.
async fn yield_now() {
    let _ = JsFuture::from(crate::kit::browser::later()).await;
}

/// Reads a replay's text and shows frame `frame` (clamped), a slice at a time: the text is
/// split ([`crate::split`]), the game module loaded, the first [`FIRST_CHECKED`] moves checked;
/// then the replay is shown (and, when `answer`, `init_successfully` sent) while its other
/// moves are checked in the background ([`App::check_slice`]). A newer replay stops it.
async fn load(text: String, frame: usize, answer: bool) {
    if let Err(why) = protocol::bounded(text.len() as f64) {
        with_app(|app| app.show_error(&why, "too_large"));
        return;
    }
    let Some(generation) = with_app(App::begin_loading) else {
        return;
    };
    let identity = identity(&text);
    let current = || with_app(|app| app.generation == generation).unwrap_or(false);
    let mut split = crate::split::Split::default();
    while !split.scan(text.as_bytes(), SCAN_SLICE) {
        with_app(|app| app.progress(0, split.found(), "player-checking"));
        yield_now().await;
        if !current() {
            return;
        }
    }
    let parts = split.finish(&text);
    let envelope = parts
        .as_ref()
        .map_or(text.as_str(), |p| p.envelope.as_str());
    if !module_ready(envelope).await || !current() {
        return;
    }
    let mut session = match Session::open(text, parts) {
        Ok(s) => s,
        Err(e) => return show_load_error(&e),
    };
    let t0 = crate::dom::now();
    loop {
        match slice(&mut session) {
            Err(e) => return show_load_error(&e),
            Ok(false)
                if session.checked() <= FIRST_CHECKED && crate::dom::now() - t0 < FIRST_MS =>
            {
                let (n, total) = (session.checked() - 1, session.frame_count() - 1);
                with_app(|app| app.progress(n, total, "player-checking"));
                yield_now().await;
                if !current() {
                    return;
                }
            }
            Ok(_) => break,
        }
    }
    let more = with_app(|app| {
        app.adopt_names(identity);
        app.open_session(session, frame, false, true);
        if answer {
            let frames = app.loaded.as_ref().map_or(0, |l| l.frames);
            let msg = protocol::message(
                "init_successfully",
                &[("number_of_frames", JsValue::from(frames as f64))],
            );
            app.reply(&msg);
        }
        app.check_slice()
    });
    if more == Some(true) {
        // The rest in the background: the task queue goes on with the site's messages.
        wasm_bindgen_futures::spawn_local(async move {
            loop {
                yield_now().await;
                let go_on = with_app(|app| app.generation == generation && app.check_slice());
                if go_on != Some(true) {
                    break;
                }
            }
        });
    }
}

/// Checks moves for about [`SLICE_MS`]; true once every move is checked. A live game's
/// session stops at its newest move (its next ones come from the hub).
fn slice(session: &mut Session) -> Result<bool, crate::session::LoadError> {
    let now = crate::dom::now;
    let t0 = now();
    loop {
        let before = session.checked();
        if session.advance(64)? {
            return Ok(true);
        }
        if session.checked() == before || now() - t0 > SLICE_MS {
            return Ok(false);
        }
    }
}

fn show_load_error(e: &crate::session::LoadError) {
    with_app(|app| app.show_load_error(e));
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

    let bytes = response
        .array_buffer()
        .map_err(|e| protocol::error_message(&e))?;
    let bytes = JsFuture::from(bytes)
        .await
        .map_err(|e| protocol::error_message(&e))?;
    Ok(protocol::utf8(&bytes))
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

/// The thinking times up to each frame checked since the last call.
fn extend_times(l: &mut Loaded) {
    let mut acc = l.cum_time.last().cloned().unwrap_or_default();
    for i in l.cum_time.len() - 1..l.session.checked() - 1 {
        for m in l
            .session
            .record(i)
            .into_iter()
            .flat_map(MoveRecord::records)
        {
            if let Some(t) = acc.get_mut(m.seat.index()) {
                *t += m.time_ms.unwrap_or(0.0);
            }
        }
        l.cum_time.push(acc.clone());
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
        let who = crate::view::label_of(&info.seats, seat);
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
fn move_info(l: &Loaded, k: usize) -> String {
    let (info, frames) = (&l.info, l.frames);
    let Some(m) = k.checked_sub(1).and_then(|i| l.session.record(i)) else {
        return ta("player-start-moves", &[("n", (frames - 1).into())]);
    };
    if m.is_together() {
        return format!("{k} / {}: {}", frames - 1, ply_text(info, m));
    }
    let alt = l
        .session
        .alt(&m.mv)
        .map(|a| format!(" ({a})"))
        .unwrap_or_default();
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
            ("who", seat_label(&info.seats, m.seat).into()),
            ("move", (&m.mv).into()),
            ("alt", alt.into()),
            ("time", time.into()),
            ("cpu", cpu.into()),
        ],
    )
}

/// Tells a different replay from the same one sent again: FNV-1a of its length and of its
/// text's first and last 64 KB (the players, the game and the first moves are at the start;
/// all of a long replay would take a while).
fn identity(text: &str) -> u64 {
    let b = text.as_bytes();
    let ends = [
        &b[..b.len().min(1 << 16)],
        &b[b.len().saturating_sub(1 << 16)..],
    ];
    let len = (b.len() as u64).to_le_bytes();
    ends.iter()
        .flat_map(|p| p.iter())
        .chain(&len)
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| {
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
            generation: 0,
            want: None,
            last_height: -1.0,
            playing: None,
            speed: 1.0,
            numbers: true,
            palette: None,
            rows: Vec::new(),
            bar_k: None,
            list_top: 0.0,
            list_rows: 0,
            list_shift: 0.0,
            scroll_pending: false,
            player_boxes: None,
            list_colors: Last::default(),
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
                match started {
                    // A replay still being read is not shown over the live game.
                    Ok(()) => {
                        self.begin_loading();
                    }
                    Err(why) => self.show_error(&format!("{name}: {why}"), "bad_token"),
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
        // A long replay's reading is over (its progress line goes with it).
        self.dom.progress.set_hidden(true);
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

    /// A replay that cannot be shown: its error, an illegal move's number in words.
    fn show_load_error(&mut self, e: &crate::session::LoadError) {
        let reason = match (e.kind, e.move_number) {
            ("illegal_move", Some(n)) => ta(
                "player-illegal-at",
                &[("n", n.into()), ("message", (&e.message).into())],
            ),
            _ => e.message.clone(),
        };
        self.show_error(&reason, e.kind);
    }

    /// A replay begins to load: any reading of another stops; the page says it is reading.
    fn begin_loading(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        self.want = None;
        self.generation
    }

    /// Says how far a long replay's reading is (`key`: reading its text or checking its
    /// moves, `n` of `total` done), on the progress line under the board's status.
    pub fn progress(&mut self, n: usize, total: usize, key: &str) {
        let d = &self.dom;
        let text = match self.want {
            Some(k) => ta(
                "player-checking-for",
                &[("n", n.into()), ("total", total.into()), ("k", k.into())],
            ),
            None => ta(key, &[("n", n.into()), ("total", total.into())]),
        };
        set_text(&d.progress, &text);
        d.progress.set_hidden(false);
    }

    /// One slice of checking the shown replay's moves in the background: the frames checked
    /// join the move list, a frame asked for meanwhile is shown once checked, and at the end
    /// the result is known. False once there is nothing more to check.
    pub fn check_slice(&mut self) -> bool {
        let Some(l) = self.loaded.as_mut() else {
            return false;
        };
        // A live game shown since (live::refresh) checks its moves as they come.
        if l.session.is_live() {
            return false;
        }
        let done = match slice(&mut l.session) {
            Ok(done) => done,
            Err(e) => {
                // Here inside with_app: the app itself (with_app again would find it taken).
                self.show_load_error(&e);
                return false;
            }
        };
        extend_times(l);
        let (n, total) = (l.session.checked(), l.frames);
        if done {
            l.info = l.session.info();
            self.written.result_shown = None;
            self.dom.progress.set_hidden(true);
        } else {
            self.progress(n - 1, total - 1, "player-checking");
        }
        self.size_move_list();
        match self.want.filter(|&k| k < n) {
            Some(k) => self.show(k),
            None if done => self.show(self.loaded.as_ref().map_or(0, |l| l.k)),
            None => {}
        }
        !done
    }

    /// A live game's frames so far: the frame shown before (`back`: it and the frames then)
    /// stays shown when the viewer stepped back, else the newest. Until the end there is no
    /// result to say (the live bar says who plays). `positions`: the frames are the hub's
    /// positions, not the module's rules (they show one view only).
    pub fn show_live(
        &mut self,
        session: Session,
        back: Option<(usize, usize)>,
        ended: bool,
        positions: bool,
    ) {
        let k = match back {
            Some((k, frames)) if k + 1 < frames => k,
            _ => usize::MAX,
        };
        self.open_session(session, k, !ended, !positions);
    }

    /// Shows a replay read (clamping `frame`); `in_progress`: a live game not over yet, whose
    /// replay's result is only a placeholder; `own_rules`: the frames are the game's rules'
    /// (which can show them as any seat sees them).
    fn open_session(&mut self, session: Session, frame: usize, in_progress: bool, own_rules: bool) {
        self.stop();
        self.seen_end = false;
        let info = session.info();
        let seats = info.seats.len();
        let frames = session.frame_count();
        let d = &self.dom;
        d.error.set_hidden(true);
        d.welcome.set_hidden(true);
        d.progress.set_hidden(session.done() || session.is_live());
        d.view.set_hidden(false);
        d.numbers_opt.set_hidden(info.game != "gomoku");
        // A finished module game: its full view, or a seat's (from the hub's positions, a
        // live game shows what its hub sent, and no more).
        let viewas = info.game != arbiter_engine::any::MODULE || in_progress || !own_rules;
        d.viewas_opt.set_hidden(viewas);
        if !viewas {
            self.fill_view_as(&info);
        }
        d.slider.set_max(&format!("{}", frames - 1));
        self.written.result_shown = None;
        d.document.set_title(&format!("{} — arbiter", info.title));
        set(&self.hook_state, "player", &JsValue::TRUE);
        set(&self.hook_state, "frames", &JsValue::from(frames as f64));
        let mut l = Loaded {
            session,
            info,
            frames,
            cum_time: alloc::vec![alloc::vec![0.0; seats]],
            k: 0,
            view: None,
            in_progress,
        };
        extend_times(&mut l);
        self.loaded = Some(l);
        self.build_move_list();
        self.show(frame.min(frames - 1));
        self.report_height();
    }

    /// The "View as" choices: everyone, then each seat with its player's name.
    fn fill_view_as(&self, info: &Info) {
        let d = &self.dom;
        set_text(&d.viewas, "");
        let add = |value: &str, text: &str| {
            if let Some(o) = d.create("option", "") {
                let _ = o.set_attribute("value", value);
                set_text(&o, text);
                let _ = d.viewas.append_child(&o);
            }
        };
        add("all", &t("ui-view-all"));
        for (s, label) in info.seats.iter().enumerate() {
            let name = info.players.get(s).map_or("", String::as_str);
            add(&format!("{s}"), &format!("{label} {name}"));
        }
    }

    /// Shows the frames as `viewer` sees them, from the frame shown.
    pub fn view_as(&mut self, viewer: arbiter_engine::Viewer) {
        let Some(l) = self.loaded.as_mut() else {
            return;
        };
        l.session.set_viewer(viewer);
        let k = l.k;
        self.show(k);
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
        if k >= l.session.checked() && k < l.frames {
            let (n, total) = (l.session.checked() - 1, l.frames - 1);
            self.want = Some(k);
            return self.progress(n, total, "player-checking");
        }
        self.want = None;
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
            let top = self.list_top / self.list_scale();
            self.dom.moves.set_scroll_top(top as i32);
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
            seats: &l.info.seats,
            numbers: self.numbers,
            clicking: self
                .clicking
                .as_ref()
                .map(|(next, chosen)| draw::Clicking { next, chosen }),
        };
        self.geom = draw::draw(&self.dom.board, palette, &board, view);
    }

    fn build_move_list(&mut self) {
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
        self.list_rows = usize::MAX;
        self.size_move_list();
        self.dom.moves.set_scroll_top(0);
        self.list_top = 0.0;
        self.render_rows();
    }

    /// The list's inside: as tall as the rows of the frames checked, at most [`MAX_LIST`].
    fn size_move_list(&mut self) {
        let rows = self.loaded.as_ref().map_or(0, |l| l.session.checked());
        if rows != self.list_rows {
            self.list_rows = rows;
            let h = (rows as f64 * ROW).min(MAX_LIST);
            set_style(&self.dom.spacer, "height", &format!("{h}px"));
        }
    }

    /// The rows a pixel of the list's scrolling passes (1 until the list is [`MAX_LIST`] tall).
    pub fn list_scale(&self) -> f64 {
        let h = self.list_rows as f64 * ROW;
        if h <= MAX_LIST {
            1.0
        } else {
            (h - LIST_H) / (MAX_LIST - LIST_H)
        }
    }

    /// Fills the rows in view (after a scroll or a new frame). `list_top` is where the view
    /// begins in rows' pixels; a scaled list draws its rows that far less `shift` down.
    pub fn render_rows(&mut self) {
        let shift = self.list_top - self.list_top / self.list_scale();
        let Some(l) = &self.loaded else { return };
        let moved = shift != self.list_shift;
        self.list_shift = shift;
        let first = crate::units::floor(self.list_top / ROW).max(0.0) as usize;
        let checked = l.session.checked();
        // The duel and module games mark seats in the seat colours, the others as stones.
        let duel = !matches!(l.info.game, "reversi" | "gomoku");
        // Frame k always has row k % POOL: a row in view keeps its frame while the list
        // scrolls (a click aimed at it during a scroll still lands on that move).
        for k in first..first + POOL {
            let Some(r) = self.rows.get_mut(k % POOL) else {
                break;
            };
            if k >= checked {
                r.row.set_hidden(true);
                r.k = None;
                continue;
            }
            r.row.set_hidden(false);
            if r.k == Some(k) && !moved {
                continue;
            }
            let top = format!("{}px", k as f64 * ROW - shift);
            props(&r.style).set_top(&JsValue::from_str(&top));
            if r.k == Some(k) {
                continue;
            }
            r.k = Some(k);
            let t = RowText::new(&l.session, &l.info, k);
            props(&r.row).set_attr(&js("data-k"), &t.k);
            props(&r.num).set_data(&t.num);
            props(&r.rest).set_data(&t.rest);
            props(&r.row).set_title(&t.title);
            if r.seat != Some(t.seat) {
                r.seat = Some(t.seat);
                // A drawn disc, not a glyph: Black's keeps its ring in dark mode.
                const SEAT_MARKS: [&str; 8] = [
                    "mk s0", "mk s1", "mk s2", "mk s3", "mk s4", "mk s5", "mk s6", "mk s7",
                ];
                let class = match (t.seat, duel) {
                    (None, _) => "",
                    (Some(s), true) => SEAT_MARKS.get(usize::from(s)).copied().unwrap_or(""),
                    (Some(0), false) => "mk b0",
                    (Some(_), false) => "mk b1",
                };
                props(&r.who).set_class(&js(class));
            }
        }
        // The current move: one highlight bar moved under the rows (cheaper than restyling rows).
        if self.bar_k != Some(l.k) || moved {
            self.bar_k = Some(l.k);
            let top = l.k as f64 * ROW - shift;
            set_style(&self.dom.bar, "top", &format!("{top}px"));
        }
    }

    /// One colour per seat: Black's and White's, the module's own names for them, or the
    /// page's palette of eight.
    fn player_colors(&mut self) -> Vec<String> {
        let palette = self.palette.get_or_insert_with(Palette::read);
        let Some(l) = &self.loaded else {
            return Vec::new();
        };
        if matches!(l.info.game, "reversi" | "gomoku") {
            // CSS variables: Black's border is grey in dark mode, where black would vanish.
            return alloc::vec![
                String::from("var(--black-box)"),
                String::from("var(--white)"),
            ];
        }
        let named = l.view.as_ref().and_then(|v| v.module.as_ref());
        (0..l.info.seats.len())
            .map(|s| match named.and_then(|m| m.colors.get(s)) {
                Some(c) => c.clone(),
                None => String::from(palette.seat(s)),
            })
            .collect()
    }

    fn render_players(&mut self) {
        let seats = self.loaded.as_ref().map_or(0, |l| l.info.seats.len());
        if self.player_boxes.as_ref().is_some_and(|b| b.len() != seats) {
            for b in self.player_boxes.take().into_iter().flatten() {
                b.d.remove();
            }
        }
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
            let Some(boxes) = (0..seats).map(|_| make()).collect::<Option<Vec<_>>>() else {
                return;
            };
            let _ = self
                .dom
                .players
                .class_list()
                .toggle_with_force("many", seats > 2);
            self.player_boxes = Some(boxes);
        }
        let colors = self.player_colors();
        let named = self
            .loaded
            .as_ref()
            .and_then(|l| l.view.as_ref()?.module.as_ref())
            .is_some_and(|m| !m.colors.is_empty());
        // The move list's marks in the module's colours too (its CSS reads `--pN`).
        if named && self.list_colors.changed(&colors.join(",")) {
            for (s, c) in colors.iter().enumerate() {
                set_style(&self.dom.moves, &format!("--p{s}"), c);
            }
        }
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
            // Failed on this frame, or taken out of the game before it (it went on without).
            let retired = info
                .retired
                .iter()
                .find(|(at, seat)| seat.index() == s && *at <= l.k);
            let lost = v.failure.as_ref().is_some_and(|f| f.seat == s as u8) || retired.is_some();
            let tomove = v.movers.contains(&(s as u8)) && !lost;
            if el.last_tomove != Some(tomove) {
                el.last_tomove = Some(tomove);
                let _ = el.d.class_list().toggle_with_force("tomove", tomove);
            }
            if el.last_lost != Some(lost) {
                el.last_lost = Some(lost);
                let _ = el.d.class_list().toggle_with_force("lost", lost);
            }
            let n = v.scores.get(s).copied().unwrap_or(0);
            let mut score = match info.game {
                "reversi" => ta("player-discs", &[("n", n.into())]),
                "gomoku" => {
                    let stones = (0..v.order.len()).filter(|i| i % 2 == s).count();
                    ta("player-stones", &[("n", stones.into())])
                }
                "duel2048" => ta("player-tiles", &[("n", n.into())]),
                _ => ta("player-score", &[("n", n.into())]),
            };
            if let Some(p) = v
                .places
                .as_ref()
                .and_then(|p| p.get(s))
                .filter(|_| seats > 2)
            {
                score = format!("{score} · {}", ta("player-place", &[("n", (*p).into())]));
            }
            if let Some((at, _)) = retired {
                score = format!("{score} · {}", ta("player-retired", &[("n", (*at).into())]));
            }
            let cum = l
                .cum_time
                .get(l.k)
                .and_then(|c| c.get(s))
                .copied()
                .unwrap_or(0.0);
            el.last_meta.text(
                &el.meta,
                &ta(
                    "player-meta",
                    &[
                        ("who", info.seats[s].as_str().into()),
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
        let last_move = k.checked_sub(1).and_then(|i| l.session.record(i));
        w.moveinfo.text(&d.moveinfo, &move_info(l, k));
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
                .min(self.list_rows as f64 * ROW - LIST_H)
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
