//! The frame view as JSON text, written by hand: the page's tests read it (`__arbiter.state.view`)
//! through `JSON.parse`. serde_json's serializer for the two types cost 2 KB of the gzipped
//! page; this writes the same document (a test compares the two).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::failure::FailureMark;
use crate::view::FrameView;

/// An object being written: `{"key":value,...}`.
struct Obj<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Obj<'a> {
    fn new(out: &'a mut String) -> Obj<'a> {
        out.push('{');
        Obj { out, first: true }
    }

    fn key(&mut self, k: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        string(self.out, k);
        self.out.push(':');
        self.out
    }

    fn num(&mut self, k: &str, n: i64) {
        let _ = write!(self.key(k), "{n}");
    }

    fn opt_num(&mut self, k: &str, n: Option<u8>) {
        match n {
            Some(n) => self.num(k, i64::from(n)),
            None => self.key(k).push_str("null"),
        }
    }

    fn str(&mut self, k: &str, s: &str) {
        string(self.key(k), s);
    }

    fn opt_str(&mut self, k: &str, s: Option<&str>) {
        match s {
            Some(s) => self.str(k, s),
            None => self.key(k).push_str("null"),
        }
    }

    fn opt_cell(&mut self, k: &str, c: Option<[u8; 2]>) {
        match c {
            Some(c) => cells(self.key(k), core::slice::from_ref(&c), false),
            None => self.key(k).push_str("null"),
        }
    }

    fn cells(&mut self, k: &str, list: &[[u8; 2]]) {
        cells(self.key(k), list, true);
    }

    fn end(self) {
        self.out.push('}');
    }
}

/// `[r,c]`, or a list of them.
fn cells(out: &mut String, list: &[[u8; 2]], as_list: bool) {
    if as_list {
        out.push('[');
    }
    for (i, [r, c]) in list.iter().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        let _ = write!(out, "{sep}[{r},{c}]");
    }
    if as_list {
        out.push(']');
    }
}

/// A JSON string: quotes, backslashes and control characters escaped as serde_json does.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn failure(out: &mut String, m: &FailureMark) {
    let mut o = Obj::new(out);
    o.num("seat", i64::from(m.seat));
    o.str("kind", m.kind);
    o.opt_cell("cell", m.cell);
    o.opt_str("direction", m.direction);
    o.opt_str("attempt", m.attempt.as_deref());
    o.str("caption", &m.caption);
    o.opt_str("clock", m.clock);
    o.end();
}

/// `v` as a JSON object, field by field as its serde derive names them.
pub fn frame_view(v: &FrameView) -> String {
    let mut out = String::with_capacity(256 + 8 * v.board.len() * v.board.len());
    let mut o = Obj::new(&mut out);
    o.num("index", v.index as i64);
    let board = o.key("board");
    board.push('[');
    for (i, row) in v.board.iter().enumerate() {
        if i > 0 {
            board.push(',');
        }
        string(board, row);
    }
    board.push(']');
    o.opt_num("to_move", v.to_move);
    let scores: Vec<String> = v.scores.iter().map(|s| alloc::format!("{s}")).collect();
    let _ = write!(o.key("scores"), "[{}]", scores.join(","));
    o.str("status", &v.status);
    o.opt_num("last_seat", v.last_seat);
    o.opt_str("last_text", v.last_text.as_deref());
    o.opt_cell("last_cell", v.last_cell);
    o.cells("flipped", &v.flipped);
    o.cells("legal", &v.legal);
    o.key("passed")
        .push_str(if v.passed { "true" } else { "false" });
    o.cells("order", &v.order);
    o.cells("winning", &v.winning);
    let forbidden = o.key("forbidden");
    forbidden.push('[');
    for (i, (y, x, k)) in v.forbidden.iter().enumerate() {
        let sep = if i > 0 { "," } else { "" };
        let _ = write!(forbidden, "{sep}[{y},{x},");
        string(forbidden, k.encode_utf8(&mut [0; 4]));
        forbidden.push(']');
    }
    forbidden.push(']');
    o.cells("cells", &v.cells);
    o.num("round", i64::from(v.round));
    o.opt_str("slide", v.slide);
    o.opt_cell("next_cell", v.next_cell);
    o.opt_num("next_placer", v.next_placer);
    match &v.failure {
        Some(m) => failure(o.key("failure"), m),
        None => o.key("failure").push_str("null"),
    }
    o.str("description", &v.description);
    o.end();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    /// The hand-written document equals serde_json's for the same view.
    fn same(v: &FrameView) {
        let mine: serde_json::Value = serde_json::from_str(&frame_view(v)).expect("valid JSON");
        assert_eq!(mine, serde_json::to_value(v).expect("serialize"));
    }

    #[test]
    fn writes_what_serde_writes() {
        same(&FrameView::default());
        same(&FrameView {
            index: 12,
            board: vec!["X.O".to_string(), "\"\\\n\u{1}é黑".to_string()],
            to_move: Some(1),
            scores: vec![-3, 40],
            status: "Black to move".to_string(),
            last_seat: Some(0),
            last_text: Some("d3".to_string()),
            last_cell: Some([2, 3]),
            flipped: vec![[3, 3], [4, 4]],
            legal: vec![[0, 1]],
            passed: true,
            order: vec![[7, 7]],
            winning: vec![[1, 1], [2, 2]],
            forbidden: vec![(7, 7, '3'), (8, 8, '6')],
            cells: vec![[0, 2], [1, 11]],
            round: 7,
            slide: Some("up"),
            next_cell: Some([1, 2]),
            next_placer: Some(1),
            failure: Some(FailureMark {
                seat: 1,
                kind: "illegal_move",
                cell: Some([5, 6]),
                direction: None,
                attempt: Some("h8".to_string()),
                caption: "White sent \"7 7\"\t(h8)".to_string(),
                clock: Some("move"),
            }),
            description: "描述\r".to_string(),
            movers: vec![1],
            places: None,
            module: None,
        });
    }
}
