//! The 2048 duel: two 4x4 halves in the players' colours, tiles deeper with their level, the
//! cell the next placement gets, the last placement, the last slide as an arrow, a skip (said
//! under the skipper's half, never over the tiles), a refused placement or direction.

use alloc::format;
use alloc::string::String;
use core::f64::consts::PI;

use wasm_bindgen::JsValue;
use web_sys::CanvasRenderingContext2d;

use super::{cross, fill, font, num, round, stroke, text, Board, Geom, Palette};
use crate::view::FrameView;

/// From this level up, tiles have the deepest colour.
pub(super) const DEEPEST: usize = 11;

/// The owner's hue, deeper with the level.
pub(super) fn tile_color(owner: u8, level: u8, dark: bool) -> String {
    let t = (f64::from(level) / DEEPEST as f64).min(1.0);
    let hue = if owner == 0 { 220 } else { 28 };
    let light = if dark {
        30.0 + 20.0 * t
    } else {
        82.0 - 40.0 * t
    };
    format!("hsl({hue}, {}%, {}%)", num(60.0 + 25.0 * t), num(light))
}

pub(super) fn draw(
    ctx: &CanvasRenderingContext2d,
    w: f64,
    p: &Palette,
    b: &Board,
    v: &FrameView,
) -> Geom {
    let m = round(w * 0.05).max(16.0);
    let cell = (w - 2.0 * m) / 8.0;
    let (ox, oy) = (m, m);
    fill(ctx, &p.half0);
    ctx.fill_rect(ox, oy, cell * 4.0, cell * 4.0);
    fill(ctx, &p.half1);
    ctx.fill_rect(ox + cell * 4.0, oy, cell * 4.0, cell * 4.0);
    fill(ctx, &p.fg);
    font(ctx, "", m * 0.55);
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    for c in 0..8 {
        text(
            ctx,
            &format!("{c}"),
            ox + (f64::from(c) + 0.5) * cell,
            oy / 2.0,
        );
    }
    for r in 0..4 {
        text(
            ctx,
            &format!("{r}"),
            ox / 2.0,
            oy + (f64::from(r) + 0.5) * cell,
        );
    }
    fill(ctx, &p.p0);
    text(
        ctx,
        &format!("+ {}", b.seats[0]),
        ox + cell * 2.0,
        oy + cell * 4.0 + m * 0.6,
    );
    fill(ctx, &p.p1);
    text(
        ctx,
        &format!("− {}", b.seats[1]),
        ox + cell * 6.0,
        oy + cell * 4.0 + m * 0.6,
    );
    let pad = cell * 0.06;
    for (i, &[owner, level]) in v.cells.iter().enumerate().take(32) {
        let (r, c) = ((i >> 3) as f64, (i & 7) as f64);
        let (x, y, s) = (ox + c * cell + pad, oy + r * cell + pad, cell - 2.0 * pad);
        if level == 0 {
            stroke(ctx, &p.line);
            ctx.set_line_width(1.0);
            ctx.stroke_rect(x, y, s, s);
            continue;
        }
        let color = &p.tiles[usize::from(owner & 1)][usize::from(level).min(DEEPEST)];
        fill(ctx, color);
        ctx.fill_rect(x, y, s, s);
        stroke(ctx, if owner == 0 { &p.p0 } else { &p.p1 });
        ctx.set_line_width(2.0);
        ctx.stroke_rect(x + 1.0, y + 1.0, s - 2.0, s - 2.0);
        let label = if level < 40 {
            format!("{}", 1u64 << level)
        } else {
            format!("2^{level}")
        };
        fill(ctx, &p.fg);
        let k = match label.len() {
            0..=2 => 0.42,
            3..=4 => 0.3,
            _ => 0.22,
        };
        font(ctx, "700 ", s * k);
        text(ctx, &label, x + s / 2.0, y + s / 2.0);
    }
    if let Some([r, c]) = v.next_cell {
        let (r, c) = (f64::from(r), f64::from(c));
        let (x, y, s) = (
            ox + c * cell + pad * 2.0,
            oy + r * cell + pad * 2.0,
            cell - 4.0 * pad,
        );
        let dash = js_sys::Array::of2(&JsValue::from(5), &JsValue::from(4));
        let _ = ctx.set_line_dash(&dash);
        stroke(
            ctx,
            if v.next_placer == Some(0) {
                &p.p0
            } else {
                &p.p1
            },
        );
        ctx.set_line_width(2.5);
        ctx.stroke_rect(x, y, s, s);
        let _ = ctx.set_line_dash(&js_sys::Array::new());
        font(ctx, "", cell * 0.16);
        fill(ctx, &p.muted);
        text(ctx, "next", x + s / 2.0, y + s * 0.85);
    }
    if let Some([r, c]) = v.last_cell {
        let (r, c) = (f64::from(r), f64::from(c));
        stroke(ctx, &p.accent);
        ctx.set_line_width(3.0);
        ctx.stroke_rect(
            ox + c * cell + 1.5,
            oy + r * cell + 1.5,
            cell - 3.0,
            cell - 3.0,
        );
    }
    if let Some(dir) = v.slide {
        let first = v.last_seat == Some(0);
        let half = if first { 0.0 } else { 4.0 };
        let color = if first { &p.p0 } else { &p.p1 };
        arrow(
            ctx,
            p,
            ox + (half + 2.0) * cell,
            oy + 2.0 * cell,
            dir,
            cell * 1.3,
            color,
        );
    }
    if v.passed {
        // Under the skipper's half, in the label row: the tiles stay visible.
        let seat = v.last_seat.unwrap_or(0);
        font(ctx, "600 ", m * 0.55);
        fill(ctx, &p.fg);
        let half = if seat == 0 { 2.0 } else { 6.0 };
        text(
            ctx,
            "skipped a step",
            ox + cell * half,
            oy + cell * 4.0 + m * 1.45,
        );
    }
    if let Some(f) = &v.failure {
        refused(ctx, p, f, ox, oy, cell);
    }
    Geom {
        ox,
        oy,
        cell,
        rows: 4,
        cols: 8,
        hex: false,
    }
}

/// The refused move: a red cross on the cell, or the direction as a red arrow crossed out in
/// the mover's half.
fn refused(
    ctx: &CanvasRenderingContext2d,
    p: &Palette,
    f: &crate::failure::FailureMark,
    ox: f64,
    oy: f64,
    cell: f64,
) {
    stroke(ctx, &p.accent);
    if let Some([r, c]) = f.cell {
        let (x, y) = (
            ox + (f64::from(c) + 0.5) * cell,
            oy + (f64::from(r) + 0.5) * cell,
        );
        ctx.set_line_width(3.0);
        ctx.stroke_rect(
            x - cell / 2.0 + 2.0,
            y - cell / 2.0 + 2.0,
            cell - 4.0,
            cell - 4.0,
        );
        cross(ctx, x, y, cell * 0.3, (cell * 0.08).max(2.5));
    }
    if let Some(dir) = f.direction {
        let half = if f.seat == 0 { 0.0 } else { 4.0 };
        let (x, y) = (ox + (half + 2.0) * cell, oy + 2.0 * cell);
        // An outline, so that the tiles under it stay readable.
        outline_arrow(ctx, x, y, dir, cell * 1.6);
        stroke(ctx, &p.accent);
        cross(ctx, x, y, cell * 0.3, (cell * 0.08).max(3.0));
    }
}

fn arrow(
    ctx: &CanvasRenderingContext2d,
    p: &Palette,
    x: f64,
    y: f64,
    dir: &str,
    len: f64,
    color: &str,
) {
    ctx.save();
    arrow_path(ctx, x, y, dir, len);
    ctx.set_global_alpha(0.55);
    fill(ctx, color);
    stroke(ctx, &p.bg);
    ctx.set_line_width(2.0);
    ctx.fill();
    ctx.stroke();
    ctx.restore();
}

/// The refused direction: an arrow's outline in the current stroke colour.
fn outline_arrow(ctx: &CanvasRenderingContext2d, x: f64, y: f64, dir: &str, len: f64) {
    ctx.save();
    arrow_path(ctx, x, y, dir, len);
    ctx.set_line_width(3.0);
    ctx.set_line_join("round");
    ctx.stroke();
    ctx.restore();
}

/// An arrow of length `len` centred on `(x, y)`, pointing `dir`, as the current path (the
/// context is left translated and rotated: callers save and restore it).
fn arrow_path(ctx: &CanvasRenderingContext2d, x: f64, y: f64, dir: &str, len: f64) {
    let a = match dir {
        "up" => -PI / 2.0,
        "down" => PI / 2.0,
        "left" => PI,
        _ => 0.0,
    };
    let _ = ctx.translate(x, y);
    let _ = ctx.rotate(a);
    let t = len * 0.22;
    ctx.begin_path();
    ctx.move_to(-len / 2.0, -t / 2.0);
    ctx.line_to(len / 6.0, -t / 2.0);
    ctx.line_to(len / 6.0, -t * 1.3);
    ctx.line_to(len / 2.0, 0.0);
    ctx.line_to(len / 6.0, t * 1.3);
    ctx.line_to(len / 6.0, t / 2.0);
    ctx.line_to(-len / 2.0, t / 2.0);
    ctx.close_path();
}
