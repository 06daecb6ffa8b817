//! The board on the canvas, in device pixels, drawn from a [`FrameView`]: one module per game,
//! sharing the palette (the page's CSS custom properties, light or dark) and a few shapes.

mod duel;
mod gomoku;
mod kit;
mod reversi;

pub use kit::Clicking;

use alloc::format;
use alloc::string::String;
use core::f64::consts::PI;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement};

use crate::view::FrameView;

/// The colours of the page, read from its CSS custom properties (`--bg` ...): they follow the
/// colour scheme, so they are read again when it changes.
#[derive(Default, Clone)]
pub struct Palette {
    pub bg: String,
    pub fg: String,
    pub muted: String,
    pub line: String,
    pub accent: String,
    pub hl: String,
    pub rv_board: String,
    pub rv_grid: String,
    pub go_board: String,
    pub go_grid: String,
    pub p0: String,
    pub p1: String,
    /// The colours of seats 3 to 8 (`--p2` .. `--p7`): a module game of more seats.
    pub more: [String; 6],
    pub half0: String,
    pub half1: String,
    /// A game module's cells board and its grid.
    pub kit_board: String,
    pub kit_grid: String,
    /// A module's winning cells: green, apart from both seats' colours and the amber turn mark.
    pub win: String,
    /// The dark scheme is on (the duel's tiles are darker then).
    pub dark: bool,
    /// The duel's tile colours by owner and level (levels from 11 up share the deepest),
    /// made once: a colour costs a few crossings into JavaScript to write.
    pub tiles: [[String; duel::DEEPEST + 1]; 2],
}

impl Palette {
    /// Reads the custom properties of the document element.
    pub fn read() -> Palette {
        let mut p = Palette::default();
        let Some(window) = web_sys::window() else {
            return p;
        };
        let root = window.document().and_then(|d| d.document_element());
        let style = root.and_then(|r| window.get_computed_style(&r).ok().flatten());
        let css = |name: &str| -> String {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(name).ok())
                .map(|v| String::from(v.trim()))
                .unwrap_or_default()
        };
        // In a loop: one call site instead of fourteen inlined copies.
        let fields: [(&str, &mut String); 17] = [
            ("--bg", &mut p.bg),
            ("--fg", &mut p.fg),
            ("--muted", &mut p.muted),
            ("--line", &mut p.line),
            ("--accent", &mut p.accent),
            ("--hl", &mut p.hl),
            ("--rv-board", &mut p.rv_board),
            ("--rv-grid", &mut p.rv_grid),
            ("--go-board", &mut p.go_board),
            ("--go-grid", &mut p.go_grid),
            ("--p0", &mut p.p0),
            ("--p1", &mut p.p1),
            ("--half0", &mut p.half0),
            ("--half1", &mut p.half1),
            ("--kit-board", &mut p.kit_board),
            ("--kit-grid", &mut p.kit_grid),
            ("--win", &mut p.win),
        ];
        for (name, field) in fields {
            *field = css(name);
        }
        for (i, field) in p.more.iter_mut().enumerate() {
            *field = css(&alloc::format!("--p{}", i + 2));
        }
        p.dark = window
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten()
            .is_some_and(|m| m.matches());
        for (owner, row) in p.tiles.iter_mut().enumerate() {
            for (level, c) in row.iter_mut().enumerate() {
                *c = duel::tile_color(owner as u8, level as u8, p.dark);
            }
        }
        p
    }
}

/// What the drawing needs besides the frame: the game, its size, the seat labels.
pub struct Board<'a> {
    pub game: &'a str,
    pub size: u8,
    pub seats: &'a [String],
    /// Gomoku: move numbers on the stones.
    pub numbers: bool,
    /// A module game's move being built by clicks.
    pub clicking: Option<Clicking<'a>>,
}

/// Where the board's cells are, in CSS pixels: for the coordinates shown on hover.
#[derive(Clone, Copy, Default)]
pub struct Geom {
    pub ox: f64,
    pub oy: f64,
    pub cell: f64,
    pub rows: u8,
    pub cols: u8,
    /// A module's hex board: rows of hexagons, each a half cell right of the one above.
    pub hex: bool,
}

impl Geom {
    /// The `[row, col]` under the point `(x, y)`.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<[u8; 2]> {
        if self.hex {
            let grid = crate::kit::clicks::Grid {
                ox: self.ox,
                oy: self.oy,
                cell: self.cell,
                cols: self.cols.into(),
                rows: self.rows.into(),
                kind: crate::kit::view::Kind::Hex,
            };
            return grid.cell_at(x, y).map(|[c, r]| [r as u8, c as u8]);
        }
        if self.cell <= 0.0 || x < self.ox || y < self.oy {
            return None;
        }
        let (c, r) = ((x - self.ox) / self.cell, (y - self.oy) / self.cell);
        let (r, c) = (r as u32, c as u32);
        (r < u32::from(self.rows) && c < u32::from(self.cols)).then_some([r as u8, c as u8])
    }
}

/// Draws `view` on `canvas` (its width follows its parent, at most 720 CSS pixels).
pub fn draw(
    canvas: &HtmlCanvasElement,
    palette: &Palette,
    board: &Board,
    view: &FrameView,
) -> Option<Geom> {
    let aspect = if board.game == "duel2048" { 0.6 } else { 1.0 };
    let height = |w: f64| match &view.module {
        Some(m) => kit::height(w, m),
        None => round(w * aspect),
    };
    let (ctx, w, _) = setup_canvas(canvas, height)?;
    let geom = match (board.game, &view.module) {
        (_, Some(m)) => kit::draw(&ctx, w, palette, m, board.clicking.as_ref()),
        ("reversi", _) => reversi::draw(&ctx, w, palette, board, view),
        ("gomoku", _) => gomoku::draw(&ctx, w, palette, board, view),
        _ => duel::draw(&ctx, w, palette, board, view),
    };
    Some(geom)
}

/// An X of half-size `d` centred on `(x, y)`, in the current stroke colour.
fn cross(ctx: &CanvasRenderingContext2d, x: f64, y: f64, d: f64, width: f64) {
    ctx.set_line_width(width);
    ctx.set_line_cap("round");
    ctx.begin_path();
    ctx.move_to(x - d, y - d);
    ctx.line_to(x + d, y + d);
    ctx.move_to(x + d, y - d);
    ctx.line_to(x - d, y + d);
    ctx.stroke();
    ctx.set_line_cap("butt");
}

/// The attempted move on a square or point: the mover's piece, faint, under a red cross with
/// a ring (a cross alone is lost on a busy board).
fn attempt_mark(ctx: &CanvasRenderingContext2d, p: &Palette, x: f64, y: f64, r: f64, seat: u8) {
    ctx.set_global_alpha(0.45);
    disc(ctx, x, y, r, seat);
    ctx.set_global_alpha(1.0);
    stroke(ctx, &p.accent);
    circle(ctx, x, y, r + 2.0);
    ctx.set_line_width((r * 0.16).max(2.0));
    ctx.stroke();
    cross(ctx, x, y, r * 0.62, (r * 0.24).max(2.5));
}

/// Sizes the canvas in device pixels for its CSS width (the board's height for a width:
/// `height`) and clears it; the context is scaled so that drawing is in CSS pixels. Returns
/// the context, the width and the height.
fn setup_canvas(
    c: &HtmlCanvasElement,
    height: impl Fn(f64) -> f64,
) -> Option<(CanvasRenderingContext2d, f64, f64)> {
    let parent_w = c.parent_element().map(|p| p.client_width()).unwrap_or(0);
    let parent_w = if parent_w > 0 { parent_w } else { 320 };
    let w = f64::from(parent_w.max(120));
    let css_w = w.min(720.0);
    let css_h = height(css_w);
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .unwrap_or(1.0);
    let dpr = if dpr > 0.0 { dpr } else { 1.0 };
    let (pw, ph) = (round(css_w * dpr) as u32, round(css_h * dpr) as u32);
    if c.width() != pw || c.height() != ph {
        c.set_width(pw);
        c.set_height(ph);
        let style = c.unchecked_ref::<HtmlElement>().style();
        let _ = style.set_property("width", &format!("{}px", css_w as i64));
        let _ = style.set_property("height", &format!("{}px", css_h as i64));
    }
    let ctx = c
        .get_context("2d")
        .ok()
        .flatten()?
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()?;
    let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    ctx.clear_rect(0.0, 0.0, css_w, css_h);
    Some((ctx, css_w, css_h))
}

/// A number as JavaScript writes it (`String(x)`), without Rust's float formatting code.
pub(crate) fn num(x: f64) -> String {
    crate::dom::js_string(&wasm_bindgen::JsValue::from(x))
}

/// JavaScript's `Math.round` for the sizes drawn (half up).
pub(crate) fn round(x: f64) -> f64 {
    crate::units::floor(x + 0.5)
}

#[wasm_bindgen]
extern "C" {
    /// The canvas's 2D context again, with its string properties set from strings already in
    /// JavaScript.
    type Ctx2d;
    #[wasm_bindgen(method, setter = fillStyle)]
    fn set_fill_value(this: &Ctx2d, v: &JsValue);
    #[wasm_bindgen(method, setter = strokeStyle)]
    fn set_stroke_value(this: &Ctx2d, v: &JsValue);
    #[wasm_bindgen(method, setter = font)]
    fn set_font_value(this: &Ctx2d, v: &JsValue);
    #[wasm_bindgen(method, js_name = fillText)]
    fn fill_text_value(this: &Ctx2d, text: &JsValue, x: f64, y: f64);
}

fn fill(ctx: &CanvasRenderingContext2d, color: &str) {
    ctx.unchecked_ref::<Ctx2d>()
        .set_fill_value(&crate::dom::js(color));
}

fn stroke(ctx: &CanvasRenderingContext2d, color: &str) {
    ctx.unchecked_ref::<Ctx2d>()
        .set_stroke_value(&crate::dom::js(color));
}

fn text(ctx: &CanvasRenderingContext2d, s: &str, x: f64, y: f64) {
    ctx.unchecked_ref::<Ctx2d>()
        .fill_text_value(&crate::dom::js(s), x, y);
}

/// `N px system-ui` with an optional weight.
fn font(ctx: &CanvasRenderingContext2d, weight: &str, px: f64) {
    let f = format!("{weight}{}px system-ui, sans-serif", round(px) as i64);
    ctx.unchecked_ref::<Ctx2d>()
        .set_font_value(&crate::dom::js(&f));
}

fn circle(ctx: &CanvasRenderingContext2d, x: f64, y: f64, r: f64) {
    ctx.begin_path();
    let _ = ctx.arc(x, y, r, 0.0, PI * 2.0);
}

/// A stone or disc: black for seat 0, white for seat 1.
fn disc(ctx: &CanvasRenderingContext2d, x: f64, y: f64, r: f64, seat: u8) {
    circle(ctx, x, y, r);
    fill(ctx, if seat == 0 { "#111111" } else { "#f7f7f7" });
    ctx.fill();
    ctx.set_line_width((r * 0.08).max(1.0));
    stroke(ctx, if seat == 0 { "#000000" } else { "#9a9a9a" });
    ctx.stroke();
}

/// A boxed line of text in the middle of the board (a pass, a skipped step).
fn banner(ctx: &CanvasRenderingContext2d, p: &Palette, x: f64, y: f64, label: &str, unit: f64) {
    font(ctx, "600 ", (unit * 0.6).max(14.0));
    let tw = ctx.measure_text(label).map(|m| m.width()).unwrap_or(0.0) + 24.0;
    let th = unit.max(24.0);
    ctx.set_global_alpha(0.85);
    fill(ctx, &p.bg);
    ctx.fill_rect(x - tw / 2.0, y - th / 2.0, tw, th);
    ctx.set_global_alpha(1.0);
    stroke(ctx, &p.hl);
    ctx.set_line_width(2.0);
    ctx.stroke_rect(x - tw / 2.0, y - th / 2.0, tw, th);
    fill(ctx, &p.fg);
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    text(ctx, label, x, y);
}

impl Palette {
    /// The colour of seat `s` (0 to 7), as the page's custom properties say it.
    pub fn seat(&self, s: usize) -> &str {
        match s {
            0 => &self.p0,
            1 => &self.p1,
            _ => self.more.get(s - 2).map_or(&self.muted, |c| c),
        }
    }
}
