//! Reversi: green board, the move list's coordinates (column letters a.., rows 1.. from the
//! top; the protocol's `ROW COL` is shown on hover), discs, the discs the last move turned
//! over, the side to move's legal places, the last move, a pass, a refused move.

use alloc::format;
use core::f64::consts::PI;

use web_sys::CanvasRenderingContext2d;

use super::{
    attempt_mark, banner, circle, disc, fill, font, round, stroke, text, Board, Geom, Palette,
};
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
    let m = round(w * 0.05).max(14.0);
    let cell = (w - m - 4.0) / nf;
    let (ox, oy) = (m, m);
    let at = |rc: usize| (rc as f64 + 0.5) * cell;
    fill(ctx, &p.rv_board);
    ctx.fill_rect(ox, oy, cell * nf, cell * nf);
    stroke(ctx, &p.rv_grid);
    ctx.set_line_width(1.0);
    ctx.begin_path();
    for i in 0..=n {
        let d = i as f64 * cell;
        ctx.move_to(ox + d, oy);
        ctx.line_to(ox + d, oy + nf * cell);
        ctx.move_to(ox, oy + d);
        ctx.line_to(ox + nf * cell, oy + d);
    }
    ctx.stroke();
    // labels as the move list writes squares: column letters (top), rows from 1 (left)
    fill(ctx, &p.fg);
    font(ctx, "", (m * 0.6).min(cell * 0.45));
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    for i in 0..n {
        let letter = format!("{}", char::from(b'a' + i as u8));
        text(ctx, &letter, ox + at(i), oy / 2.0);
        text(ctx, &format!("{}", i + 1), ox / 2.0, oy + at(i));
    }
    let r = cell * 0.42;
    for (row, line) in v.board.iter().enumerate().take(n) {
        for (col, ch) in line.bytes().enumerate().take(n) {
            if ch == b'X' || ch == b'O' {
                disc(ctx, ox + at(col), oy + at(row), r, u8::from(ch == b'O'));
            }
        }
    }
    // flipped discs
    ctx.set_line_width((cell * 0.07).max(2.0));
    stroke(ctx, &p.hl);
    for &[row, col] in &v.flipped {
        circle(ctx, ox + at(col.into()), oy + at(row.into()), r * 0.8);
        ctx.stroke();
    }
    // legal moves of the side to move, faintly
    if let Some(seat) = v.to_move {
        ctx.set_global_alpha(0.3);
        fill(ctx, if seat == 0 { "#000000" } else { "#ffffff" });
        for &[row, col] in &v.legal {
            circle(ctx, ox + at(col.into()), oy + at(row.into()), r * 0.3);
            ctx.fill();
        }
        ctx.set_global_alpha(1.0);
    }
    if let Some([row, col]) = v.last_cell {
        fill(ctx, &p.accent);
        ctx.begin_path();
        let _ = ctx.arc(
            ox + at(col.into()),
            oy + at(row.into()),
            (r * 0.22).max(2.5),
            0.0,
            PI * 2.0,
        );
        ctx.fill();
    }
    if v.passed {
        let who = v
            .last_seat
            .map_or("", |s| crate::view::label_of(b.seats, s));
        let half = nf * cell / 2.0;
        banner(ctx, p, ox + half, oy + half, &format!("{who} passes"), cell);
    }
    if let Some([row, col]) = v.failure.as_ref().and_then(|f| f.cell) {
        let seat = v.failure.as_ref().map_or(0, |f| f.seat);
        attempt_mark(ctx, p, ox + at(col.into()), oy + at(row.into()), r, seat);
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
