//! Gomoku: wooden board, letters A.. left to right and row 1 at the bottom (seed 003), star
//! points on 15x15, renju forbidden points for black, stones with move numbers (optional),
//! the last move, the winning five (under the stones, so their numbers stay readable), a
//! refused move.

use alloc::format;
use alloc::vec;

use web_sys::CanvasRenderingContext2d;

use super::{attempt_mark, circle, disc, fill, font, round, stroke, text, Board, Geom, Palette};
use crate::view::FrameView;

pub(super) fn draw(
    ctx: &CanvasRenderingContext2d,
    w: f64,
    p: &Palette,
    b: &Board,
    v: &FrameView,
) -> Geom {
    let n = usize::from(b.size);
    let nf = n as f64;
    let m = round(w * 0.055).max(16.0);
    let cell = (w - 2.0 * m) / nf;
    let (ox, oy) = (m, m);
    let cx = |x: usize| ox + (x as f64 + 0.5) * cell;
    let cy = |y: usize| oy + (y as f64 + 0.5) * cell;
    fill(ctx, &p.go_board);
    ctx.fill_rect(ox, oy, cell * nf, cell * nf);
    stroke(ctx, &p.go_grid);
    ctx.set_line_width(1.0);
    ctx.begin_path();
    let last = n.saturating_sub(1);
    for i in 0..n {
        ctx.move_to(cx(i), cy(0));
        ctx.line_to(cx(i), cy(last));
        ctx.move_to(cx(0), cy(i));
        ctx.line_to(cx(last), cy(i));
    }
    ctx.stroke();
    if n == 15 {
        fill(ctx, &p.go_grid);
        for (x, y) in [(3, 3), (11, 3), (7, 7), (3, 11), (11, 11)] {
            circle(ctx, cx(x), cy(y), (cell * 0.09).max(2.0));
            ctx.fill();
        }
    }
    fill(ctx, &p.fg);
    font(ctx, "", (m * 0.55).min(cell * 0.5));
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    for i in 0..n {
        let letter = char::from(b'A' + (i as u8));
        let letter = format!("{letter}");
        text(ctx, &letter, cx(i), oy / 2.0);
        text(ctx, &letter, cx(i), oy + nf * cell + m / 2.0);
        let number = format!("{}", n - i);
        text(ctx, &number, ox / 2.0, cy(i));
        text(ctx, &number, ox + nf * cell + m / 2.0, cy(i));
    }
    let r = cell * 0.45;
    // forbidden points for black (renju): 3 = double-three, 4 = double-four, 6 = overline
    stroke(ctx, &p.accent);
    ctx.set_line_width((cell * 0.06).max(1.5));
    for &(y, x, kind) in &v.forbidden {
        let d = r * 0.35;
        let (px, py) = (cx(x.into()), cy(y.into()));
        ctx.begin_path();
        ctx.move_to(px - d, py - d);
        ctx.line_to(px + d, py + d);
        ctx.move_to(px + d, py - d);
        ctx.line_to(px - d, py + d);
        ctx.stroke();
        fill(ctx, &p.accent);
        font(ctx, "600 ", r * 0.6);
        text(ctx, &format!("{kind}"), px + r * 0.55, py - r * 0.5);
    }
    // The winning five: a band under the stones, so their move numbers stay readable.
    if let (Some(&[ay, ax]), Some(&[by, bx])) = (v.winning.first(), v.winning.last()) {
        stroke(ctx, &p.accent);
        ctx.set_line_width(cell * 0.5);
        ctx.set_line_cap("round");
        ctx.set_global_alpha(0.6);
        ctx.begin_path();
        ctx.move_to(cx(ax.into()), cy(ay.into()));
        ctx.line_to(cx(bx.into()), cy(by.into()));
        ctx.stroke();
        ctx.set_global_alpha(1.0);
        ctx.set_line_cap("butt");
    }
    // move number of each point (0 = none)
    let mut number_of = vec![0usize; n * n];
    for (i, &[y, x]) in v.order.iter().enumerate() {
        if let Some(slot) = number_of.get_mut(usize::from(y) * n + usize::from(x)) {
            *slot = i + 1;
        }
    }
    for (y, line) in v.board.iter().enumerate().take(n) {
        for (x, ch) in line.bytes().enumerate().take(n) {
            if ch != b'X' && ch != b'O' {
                continue;
            }
            let seat = u8::from(ch == b'O');
            disc(ctx, cx(x), cy(y), r, seat);
            if !b.numbers {
                continue;
            }
            let num = number_of.get(y * n + x).copied().unwrap_or(0);
            if num == 0 {
                continue;
            }
            let is_last = v.last_cell == Some([y as u8, x as u8]);
            fill(
                ctx,
                if is_last {
                    &p.accent
                } else if seat == 0 {
                    "#ffffff"
                } else {
                    "#111111"
                },
            );
            font(
                ctx,
                if is_last { "700 " } else { "" },
                r * if num >= 100 { 0.8 } else { 1.0 },
            );
            text(ctx, &format!("{num}"), cx(x), cy(y) + 0.5);
        }
    }
    if let Some([y, x]) = v.last_cell {
        if !b.numbers {
            fill(ctx, &p.accent);
            circle(ctx, cx(x.into()), cy(y.into()), (r * 0.25).max(2.5));
            ctx.fill();
        }
        stroke(ctx, &p.accent);
        ctx.set_line_width(2.0);
        circle(ctx, cx(x.into()), cy(y.into()), r + 1.5);
        ctx.stroke();
    }
    for &[y, x] in &v.winning {
        stroke(ctx, &p.accent);
        ctx.set_line_width((cell * 0.08).max(2.0));
        circle(ctx, cx(x.into()), cy(y.into()), r + 1.0);
        ctx.stroke();
    }
    if let Some([y, x]) = v.failure.as_ref().and_then(|f| f.cell) {
        let seat = v.failure.as_ref().map_or(0, |f| f.seat);
        attempt_mark(ctx, p, cx(x.into()), cy(y.into()), r, seat);
    }
    Geom {
        ox,
        oy,
        cell,
        rows: b.size,
        cols: b.size,
        hex: false,
    }
}
