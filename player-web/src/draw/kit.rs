//! A game module's board, drawn from its view (docs/game-kit.md, "The view"): cells or
//! points with their labels, the owned cells filled, the lines, the pieces in the seats'
//! colours (the duel's: the seats are First and Second), the highlights, the text lines
//! under the board; and, while a person builds a move, the places a click may go next.

use alloc::string::String;
use alloc::vec::Vec;
use core::f64::consts::PI;

use wasm_bindgen::JsValue;
use web_sys::CanvasRenderingContext2d;

use super::{circle, cross, fill, font, round, stroke, text, Geom, Palette};
use crate::kit::clicks::{Grid, Spot, HEX_R, HEX_ROW};
use crate::kit::view::{wrap, Kind, Mark, ModuleView, Shape};

/// Where the board goes in a canvas `w` wide.
struct Layout {
    grid: Grid,
    /// The margin that holds the labels.
    m: f64,
    text_px: f64,
    /// The text lines under the board, wrapped to the canvas's width.
    text: Vec<String>,
    total: f64,
}

/// A character's width in the text under the board, in font sizes: a little over the mean
/// of system-ui's letters, so that a wrapped line never runs off the canvas.
const CHAR_EM: f64 = 0.58;

impl Layout {
    fn new(w: f64, v: &ModuleView) -> Layout {
        let labelled = !v.col_labels.is_empty() || !v.row_labels.is_empty();
        // Room for the labels; without them, for a line's width along the board's edge.
        let m = if labelled {
            round(w * 0.05).max(16.0)
        } else {
            round(w * 0.025).max(10.0)
        };
        // Row labels are words too ("landlord"): the left margin holds the longest, at the
        // largest size they are drawn in (board() draws them at most m * 0.55 high).
        let longest = v.row_labels.iter().map(|l| l.chars().count()).max();
        let left = m.max(round(
            longest.unwrap_or(0) as f64 * m * 0.55 * CHAR_EM + m * 0.5,
        ));
        let (cols, rows) = Grid::extent(v.kind, v.cols, v.rows);
        // A tall board is kept about as tall as the canvas is wide.
        let cell = ((w - left - m) / cols).min((w * 1.1 - 2.0 * m) / rows);
        let text_px = round((w * 0.032).clamp(12.0, 16.0));
        let per_line = ((w - m) / (text_px * CHAR_EM)).max(8.0) as usize;
        let text = wrap(&v.text, per_line);
        let lines = text.len() as f64;
        let text_h = if lines > 0.0 {
            (lines + 0.5) * text_px * 1.4
        } else {
            0.0
        };
        let grid = Grid {
            ox: round(left + (w - left - m - cell * cols) / 2.0),
            oy: m,
            cell,
            cols: v.cols,
            rows: v.rows,
            kind: v.kind,
        };
        Layout {
            grid,
            m,
            text_px,
            text,
            total: round(m * 2.0 + cell * rows + text_h),
        }
    }
}

/// The canvas height the view needs at width `w`.
pub(super) fn height(w: f64, v: &ModuleView) -> f64 {
    Layout::new(w, v).total
}

/// The places a person may click next, and those clicked so far (a move being built).
pub struct Clicking<'a> {
    pub next: &'a [Spot],
    pub chosen: &'a [Spot],
}

/// A seat's colour: the module's own name for it (`black`), else the page's.
fn seat_color<'a>(p: &'a Palette, v: &'a ModuleView, seat: Option<u8>) -> &'a str {
    match seat.map(usize::from) {
        Some(s) => v
            .colors
            .get(s)
            .map_or_else(|| p.seat(s), alloc::string::String::as_str),
        None => &p.muted,
    }
}

pub(super) fn draw(
    ctx: &CanvasRenderingContext2d,
    w: f64,
    p: &Palette,
    v: &ModuleView,
    clicking: Option<&Clicking>,
) -> Geom {
    let l = Layout::new(w, v);
    let g = l.grid;
    board(ctx, p, v, &l);
    lines(ctx, p, v, &g);
    highlights(ctx, p, v, &g, false);
    for piece in &v.pieces {
        let (x, y) = g.centre(piece.at);
        draw_piece(ctx, p, v, piece.shape, piece.seat, x, y, g.cell * 0.4);
        if let Some(label) = &piece.label {
            fill(
                ctx,
                if piece.seat.is_some() {
                    "#ffffff"
                } else {
                    &p.fg
                },
            );
            font(
                ctx,
                "700 ",
                g.cell * if label.len() > 2 { 0.3 } else { 0.42 },
            );
            text(ctx, label, x, y + 0.5);
        }
    }
    highlights(ctx, p, v, &g, true);
    if let Some(c) = clicking {
        spots(ctx, p, &g, c);
    }
    fill(ctx, &p.fg);
    font(ctx, "", l.text_px);
    ctx.set_text_align("left");
    ctx.set_text_baseline("middle");
    let top = g.oy + g.cell * Grid::extent(g.kind, g.cols, g.rows).1 + l.m;
    for (i, line) in l.text.iter().enumerate() {
        text(
            ctx,
            line,
            l.m / 2.0,
            top + (i as f64 + 0.5) * l.text_px * 1.4,
        );
    }
    Geom {
        ox: g.ox,
        oy: g.oy,
        cell: g.cell,
        rows: v.rows as u8,
        cols: v.cols as u8,
        hex: g.kind == Kind::Hex,
    }
}

/// The board's ground, owned cells, grid and labels.
fn board(ctx: &CanvasRenderingContext2d, p: &Palette, v: &ModuleView, l: &Layout) {
    let g = &l.grid;
    if g.kind == Kind::Hex {
        hexagons(ctx, p, v, g);
    } else {
        squares(ctx, p, v, g);
    }
    fill(ctx, &p.fg);
    font(ctx, "", (l.m * 0.55).min(g.cell * 0.5));
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    for (c, label) in v.col_labels.iter().enumerate() {
        text(ctx, label, g.centre([c as u16, 0]).0, g.oy / 2.0);
    }
    // Each row's label just left of its first place (a hex board's rows step right).
    let left = if g.kind == Kind::Hex {
        g.cell / 2.0
    } else {
        g.centre([0, 0]).0 - g.ox
    };
    // Right-aligned against the board: a word label runs into the margin, not the board.
    ctx.set_text_align("right");
    for (r, label) in v.row_labels.iter().enumerate() {
        let (x, y) = g.centre([0, r as u16]);
        text(ctx, label, x - left - l.m * 0.25, y);
    }
    // What is drawn next (the pieces' labels) is centred on its place.
    ctx.set_text_align("center");
}

/// A hex board: each hexagon filled (in its owner's colour too) and outlined.
fn hexagons(ctx: &CanvasRenderingContext2d, p: &Palette, v: &ModuleView, g: &Grid) {
    let outline = |at: [u16; 2]| {
        let (x, y) = g.centre(at);
        let r = HEX_R * g.cell;
        // Pointed at the top; the corners' offsets in r, without trigonometry (libm would
        // cost the page's size budget more than this).
        const CORNERS: [(f64, f64); 6] = [
            (0.0, -1.0),
            (HEX_ROW, -0.5),
            (HEX_ROW, 0.5),
            (0.0, 1.0),
            (-HEX_ROW, 0.5),
            (-HEX_ROW, -0.5),
        ];
        ctx.begin_path();
        for (dx, dy) in CORNERS {
            ctx.line_to(x + r * dx, y + r * dy);
        }
        ctx.close_path();
    };
    stroke(ctx, &p.kit_grid);
    ctx.set_line_width(1.0);
    for r in 0..g.rows {
        for c in 0..g.cols {
            outline([c, r]);
            fill(ctx, &p.kit_board);
            ctx.fill();
            ctx.stroke();
        }
    }
    ctx.set_global_alpha(0.35);
    for h in v.highlights.iter().filter(|h| h.mark == Mark::Owned) {
        outline(h.at);
        fill(ctx, seat_color(p, v, h.seat));
        ctx.fill();
    }
    ctx.set_global_alpha(1.0);
}

/// A board of square cells or of points: the ground, owned cells, and the grid.
fn squares(ctx: &CanvasRenderingContext2d, p: &Palette, v: &ModuleView, g: &Grid) {
    let points = g.kind == Kind::Points;
    let (bw, bh) = (g.cell * f64::from(g.cols), g.cell * f64::from(g.rows));
    let (ground, ink) = if points {
        (&p.go_board, &p.go_grid)
    } else {
        (&p.kit_board, &p.kit_grid)
    };
    fill(ctx, ground);
    ctx.fill_rect(g.ox, g.oy, bw, bh);
    ctx.set_global_alpha(0.35);
    for h in v.highlights.iter().filter(|h| h.mark == Mark::Owned) {
        fill(ctx, seat_color(p, v, h.seat));
        let (x, y) = g.centre(h.at);
        ctx.fill_rect(x - g.cell / 2.0, y - g.cell / 2.0, g.cell, g.cell);
    }
    ctx.set_global_alpha(1.0);
    stroke(ctx, ink);
    ctx.set_line_width(1.0);
    ctx.begin_path();
    // Cells: lines between the cells; points: lines through the points.
    let (first, n_c, n_r) = if points {
        (0.5, g.cols - 1, g.rows - 1)
    } else {
        (0.0, g.cols, g.rows)
    };
    let (x0, y0) = (g.ox + first * g.cell, g.oy + first * g.cell);
    let (x1, y1) = (x0 + f64::from(n_c) * g.cell, y0 + f64::from(n_r) * g.cell);
    for i in 0..=n_c {
        let x = x0 + f64::from(i) * g.cell;
        ctx.move_to(x, y0);
        ctx.line_to(x, y1);
    }
    for i in 0..=n_r {
        let y = y0 + f64::from(i) * g.cell;
        ctx.move_to(x0, y);
        ctx.line_to(x1, y);
    }
    ctx.stroke();
}

/// The view's lines: Dots and Boxes' edges on a cells board, a winning line on points (a
/// band under the stones).
fn lines(ctx: &CanvasRenderingContext2d, p: &Palette, v: &ModuleView, g: &Grid) {
    ctx.set_line_cap("round");
    let width = if g.kind != Kind::Cells {
        g.cell * 0.35
    } else {
        (g.cell * 0.08).clamp(3.0, 9.0)
    };
    ctx.set_line_width(width);
    for line in &v.lines {
        stroke(ctx, seat_color(p, v, line.seat));
        let ((ax, ay), (bx, by)) = (g.corner(line.from), g.corner(line.to));
        ctx.begin_path();
        ctx.move_to(ax, ay);
        ctx.line_to(bx, by);
        ctx.stroke();
    }
    ctx.set_line_cap("butt");
}

/// Marks under the pieces (`over`: false) or over them: the last move and a win are rings or
/// frames, a target a faint dot, a forbidden point a red cross.
fn highlights(ctx: &CanvasRenderingContext2d, p: &Palette, v: &ModuleView, g: &Grid, over: bool) {
    let r = g.cell * 0.4;
    for h in &v.highlights {
        let (x, y) = g.centre(h.at);
        match (h.mark, over) {
            (Mark::Last, true) => frame(ctx, g, x, y, &p.accent, 2.5),
            (Mark::Win, false) => frame(ctx, g, x, y, &p.win, 5.0),
            (Mark::Target, true) => {
                ctx.set_global_alpha(0.45);
                fill(ctx, seat_color(p, v, h.seat));
                circle(ctx, x, y, r * 0.3);
                ctx.fill();
                ctx.set_global_alpha(1.0);
            }
            (Mark::Forbidden, true) => {
                stroke(ctx, &p.accent);
                cross(ctx, x, y, r * 0.35, (g.cell * 0.06).max(1.5));
            }
            _ => {}
        }
    }
}

/// A frame around a cell, or a ring around a point or in a hexagon.
fn frame(ctx: &CanvasRenderingContext2d, g: &Grid, x: f64, y: f64, color: &str, width: f64) {
    stroke(ctx, color);
    ctx.set_line_width(width);
    if g.kind != Kind::Cells {
        circle(ctx, x, y, g.cell * 0.45 + 1.0);
        ctx.stroke();
    } else {
        let s = g.cell - width - 2.0;
        ctx.stroke_rect(x - s / 2.0, y - s / 2.0, s, s);
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_piece(
    ctx: &CanvasRenderingContext2d,
    p: &Palette,
    v: &ModuleView,
    shape: Shape,
    seat: Option<u8>,
    x: f64,
    y: f64,
    r: f64,
) {
    let color = seat_color(p, v, seat);
    fill(ctx, color);
    stroke(ctx, &p.fg);
    ctx.set_line_width((r * 0.08).max(1.0));
    ctx.begin_path();
    match shape {
        Shape::Disc => {
            let _ = ctx.arc(x, y, r, 0.0, PI * 2.0);
        }
        Shape::Dot => {
            let _ = ctx.arc(x, y, r * 0.3, 0.0, PI * 2.0);
        }
        Shape::Square => ctx.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7),
        Shape::Queen => {
            // A crown: a band and five points.
            let pts = [
                (-0.8, 0.65),
                (0.8, 0.65),
                (0.95, -0.45),
                (0.45, 0.0),
                (0.0, -0.8),
                (-0.45, 0.0),
                (-0.95, -0.45),
            ];
            for (i, (dx, dy)) in pts.iter().enumerate() {
                let (px, py) = (x + dx * r, y + dy * r);
                if i == 0 {
                    ctx.move_to(px, py);
                } else {
                    ctx.line_to(px, py);
                }
            }
            ctx.close_path();
        }
        Shape::Cross => {
            // An X in the seat's colour (a neutral one, an Amazons arrow, muted).
            stroke(ctx, color);
            return cross(ctx, x, y, r * 0.6, (r * 0.3).max(2.0));
        }
    }
    ctx.fill();
    ctx.stroke();
}

/// While a move is built: the places that continue it, and those already clicked, in the
/// text colour (neither seat's: the person may be either).
fn spots(ctx: &CanvasRenderingContext2d, p: &Palette, g: &Grid, c: &Clicking) {
    stroke(ctx, &p.fg);
    for (spot, chosen) in c
        .next
        .iter()
        .map(|s| (s, false))
        .chain(c.chosen.iter().map(|s| (s, true)))
    {
        match *spot {
            Spot::Cell(at) => {
                let (x, y) = g.centre(at);
                ctx.set_line_width(if chosen { 4.0 } else { 2.5 });
                circle(ctx, x, y, g.cell * if chosen { 0.46 } else { 0.22 });
                ctx.stroke();
            }
            Spot::Line(a, b) => {
                let dash = js_sys::Array::of2(&JsValue::from(6), &JsValue::from(5));
                let _ = ctx.set_line_dash(&dash);
                ctx.set_line_width(3.0);
                let ((ax, ay), (bx, by)) = (g.corner(a), g.corner(b));
                ctx.begin_path();
                ctx.move_to(ax, ay);
                ctx.line_to(bx, by);
                ctx.stroke();
                let _ = ctx.set_line_dash(&js_sys::Array::new());
            }
        }
    }
}
