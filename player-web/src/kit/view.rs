//! A module's view (docs/game-kit.md, "The view"), read field by field from its JSON: the
//! module is a stranger, so every number is checked against the board before anything is
//! drawn, and a view that does not fit is an error naming what. Read by hand from a
//! `serde_json::Value` rather than derived: the player's wasm is on a size budget.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

/// The largest board side, as the game kit's own check allows.
pub const MAX_SIDE: u16 = 64;
/// At most this many pieces, highlights or lines: a 64 x 64 board's cells.
const MAX_ITEMS: usize = 4096;
/// Text beside the board: at most this many lines of this many characters.
const MAX_TEXT: (usize, usize) = (16, 200);
/// A label on a piece or a board edge: at most this many characters.
const MAX_LABEL: usize = 12;

/// Where pieces sit: in square cells, on intersections, or in hexagons (a rhombus whose rows
/// step half a cell right each).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Kind {
    #[default]
    Cells,
    Points,
    Hex,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    Disc,
    Square,
    Queen,
    Cross,
    Dot,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mark {
    Last,
    Target,
    Forbidden,
    Owned,
    Win,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Piece {
    /// `[col, row]`, row 0 at the top.
    pub at: [u16; 2],
    pub shape: Shape,
    /// 0 to 7; `None` is neutral (an Amazons arrow).
    pub seat: Option<u8>,
    pub label: Option<String>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Highlight {
    pub at: [u16; 2],
    pub mark: Mark,
    pub seat: Option<u8>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line {
    pub from: [u16; 2],
    pub to: [u16; 2],
    pub seat: Option<u8>,
}

/// One position as the module shows it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ModuleView {
    /// Pieces in cells, on the intersections (Connect6) or in hexagons (Hex).
    pub kind: Kind,
    pub cols: u16,
    pub rows: u16,
    pub col_labels: Vec<String>,
    pub row_labels: Vec<String>,
    pub pieces: Vec<Piece>,
    pub highlights: Vec<Highlight>,
    pub lines: Vec<Line>,
    pub text: Vec<String>,
    /// The seats' colours as the module names them (`black`, `#fff`), checked by [`color`];
    /// none: the player's palette.
    pub colors: Vec<String>,
}

impl ModuleView {
    /// Reads and checks a view; the error says what does not fit.
    pub fn read(v: &Value) -> Result<ModuleView, String> {
        let board = v.get("board").ok_or("no board")?;
        let kind = match board.get("grid").and_then(Value::as_str) {
            Some("cells") => Kind::Cells,
            Some("points") => Kind::Points,
            Some("hex") => Kind::Hex,
            _ => return Err("board.grid is not \"cells\", \"points\" or \"hex\"".into()),
        };
        let side = |k: &str| {
            board
                .get(k)
                .and_then(Value::as_u64)
                .filter(|n| (1..=u64::from(MAX_SIDE)).contains(n))
                .map(|n| n as u16)
                .ok_or_else(|| format!("board.{k} is not a number from 1 to {MAX_SIDE}"))
        };
        let mut view = ModuleView {
            kind,
            cols: side("cols")?,
            rows: side("rows")?,
            ..ModuleView::default()
        };
        view.col_labels = labels(board, "col_labels", view.cols)?;
        view.row_labels = labels(board, "row_labels", view.rows)?;
        // Lines on a cells board join cell corners: one more corner than cells each way.
        let corner = u16::from(kind == Kind::Cells);
        for p in list(v, "pieces")? {
            let label = match p.get("label") {
                None | Some(Value::Null) => None,
                Some(l) => Some(short_text(l, MAX_LABEL).ok_or("a piece's label is too long")?),
            };
            view.pieces.push(Piece {
                at: view.place(p, "at", 0)?,
                shape: shape(p)?,
                seat: seat(p)?,
                label,
            });
        }
        for h in list(v, "highlights")? {
            view.highlights.push(Highlight {
                at: view.place(h, "at", 0)?,
                mark: mark(h)?,
                seat: seat(h)?,
            });
        }
        for l in list(v, "lines")? {
            view.lines.push(Line {
                from: view.place(l, "from", corner)?,
                to: view.place(l, "to", corner)?,
                seat: seat(l)?,
            });
        }
        for c in list(v, "colors")? {
            if view.colors.len() == MAX_SEATS {
                return Err(format!("more than {MAX_SEATS} colors"));
            }
            view.colors.push(color(c)?);
        }
        let text = list(v, "text")?;
        if text.len() > MAX_TEXT.0 {
            return Err(format!("more than {} lines of text", MAX_TEXT.0));
        }
        for t in text {
            view.text
                .push(short_text(t, MAX_TEXT.1).ok_or("a line of text is too long")?);
        }
        Ok(view)
    }

    /// `item[key]` as `[col, row]` on the board (`extra` more for corners).
    fn place(&self, item: &Value, key: &str, extra: u16) -> Result<[u16; 2], String> {
        let pair = item.get(key).and_then(Value::as_array);
        let xy = pair.filter(|p| p.len() == 2).and_then(|p| {
            let n = |i: usize| p[i].as_u64().and_then(|n| u16::try_from(n).ok());
            Some([n(0)?, n(1)?])
        });
        match xy {
            Some([c, r]) if c < self.cols + extra && r < self.rows + extra => Ok([c, r]),
            _ => Err(format!("{key} {} is off the board", show(item.get(key)))),
        }
    }

    /// The place's name: its column and row labels (`d3`), else `col,row`.
    pub fn place_name(&self, [c, r]: [u16; 2]) -> String {
        match (
            self.col_labels.get(usize::from(c)),
            self.row_labels.get(usize::from(r)),
        ) {
            (Some(col), Some(row)) => format!("{col}{row}"),
            _ => format!("{c},{r}"),
        }
    }

    /// The view as text, as `arbiter replay show` prints it (`arbiter_game::View::text_lines`):
    /// `X` and `O` for the seats' pieces (a one-character label instead), `#` neutral, `.`
    /// empty, `*` a legal target; the labels; then the text lines.
    pub fn text_lines(&self) -> Vec<String> {
        let (cols, rows) = (usize::from(self.cols), usize::from(self.rows));
        let mut cells = alloc::vec![alloc::vec!['.'; cols]; rows];
        let mut put = |[c, r]: [u16; 2], ch: char| {
            if let Some(cell) = cells
                .get_mut(usize::from(r))
                .and_then(|row| row.get_mut(usize::from(c)))
            {
                *cell = ch;
            }
        };
        for h in self.highlights.iter().filter(|h| h.mark == Mark::Target) {
            put(h.at, '*');
        }
        for p in &self.pieces {
            let one = p.label.as_deref().filter(|l| l.chars().count() == 1);
            let ch = match (one.and_then(|l| l.chars().next()), p.seat) {
                (Some(l), _) => l,
                (None, Some(0)) => 'X',
                (None, Some(_)) => 'O',
                (None, None) => '#',
            };
            put(p.at, ch);
        }
        let width = self.row_labels.iter().map(|l| l.chars().count()).max();
        let width = width.unwrap_or(0);
        let mut out = Vec::with_capacity(rows + 1 + self.text.len());
        if !self.col_labels.is_empty() {
            let mut head: String = core::iter::repeat_n(' ', width).collect();
            for l in &self.col_labels {
                head.push(' ');
                head.push_str(l);
            }
            out.push(head);
        }
        for (r, row) in cells.iter().enumerate() {
            let label = self.row_labels.get(r).map_or("", String::as_str);
            let pad = width.saturating_sub(label.chars().count());
            let mut line: String = core::iter::repeat_n(' ', pad).collect();
            line.push_str(label);
            // A hex board's rows step right half a cell (one character) each.
            if self.kind == Kind::Hex {
                line.extend(core::iter::repeat_n(' ', r));
            }
            for ch in row {
                line.push(' ');
                line.push(*ch);
            }
            out.push(line);
        }
        out.extend(self.text.iter().cloned());
        out
    }
}

fn list<'a>(v: &'a Value, key: &str) -> Result<&'a [Value], String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) if a.len() <= MAX_ITEMS => Ok(a),
        Some(Value::Array(_)) => Err(format!("more than {MAX_ITEMS} {key}")),
        Some(_) => Err(format!("{key} is not a list")),
    }
}

fn labels(board: &Value, key: &str, count: u16) -> Result<Vec<String>, String> {
    let all = list(board, key)?;
    if !all.is_empty() && all.len() != usize::from(count) {
        return Err(format!("{key} must have one label each"));
    }
    all.iter()
        .map(|l| short_text(l, MAX_LABEL).ok_or_else(|| format!("a label of {key} is too long")))
        .collect()
}

/// A string of at most `max` characters.
fn short_text(v: &Value, max: usize) -> Option<String> {
    v.as_str()
        .filter(|s| s.chars().count() <= max)
        .map(String::from)
}

/// The most seats a game has (the engine's `MAX_SEATS`): a piece's seat is below it.
pub const MAX_SEATS: usize = 8;

fn seat(item: &Value) -> Result<Option<u8>, String> {
    match item.get("seat") {
        None | Some(Value::Null) => Ok(None),
        Some(s) => match s.as_u64() {
            Some(n) if n < MAX_SEATS as u64 => Ok(Some(n as u8)),
            _ => Err(format!("seat {s} is not 0 to {} or null", MAX_SEATS - 1)),
        },
    }
}

/// A seat colour a module names: a CSS colour name (letters only) or `#rgb` / `#rrggbb`,
/// nothing else: the colour is written into the page's styles, and a stranger's `red;
/// background: url(...)` must not be.
pub fn color(v: &Value) -> Result<String, String> {
    let ok = |c: &str| match c.strip_prefix('#') {
        Some(hex) => matches!(hex.len(), 3 | 6) && hex.bytes().all(|b| b.is_ascii_hexdigit()),
        None => (3..=20).contains(&c.len()) && c.bytes().all(|b| b.is_ascii_alphabetic()),
    };
    match v.as_str() {
        Some(c) if ok(c) => Ok(String::from(c)),
        _ => Err(format!(
            "color {} is not a CSS colour name or #rgb",
            show(Some(v))
        )),
    }
}

fn shape(p: &Value) -> Result<Shape, String> {
    Ok(match p.get("shape").and_then(Value::as_str) {
        Some("disc") => Shape::Disc,
        Some("square") => Shape::Square,
        Some("queen") => Shape::Queen,
        Some("cross") => Shape::Cross,
        Some("dot") => Shape::Dot,
        _ => return Err(format!("shape {} is unknown", show(p.get("shape")))),
    })
}

fn mark(h: &Value) -> Result<Mark, String> {
    Ok(match h.get("mark").and_then(Value::as_str) {
        Some("last") => Mark::Last,
        Some("target") => Mark::Target,
        Some("forbidden") => Mark::Forbidden,
        Some("owned") => Mark::Owned,
        Some("win") => Mark::Win,
        _ => return Err(format!("mark {} is unknown", show(h.get("mark")))),
    })
}

/// A value in an error, cut short: it may be anything.
fn show(v: Option<&Value>) -> String {
    let text = v.map_or_else(|| String::from("(missing)"), |v| format!("{v}"));
    text.chars().take(40).collect()
}

/// `lines` wrapped at spaces to at most `width` characters each (a longer word is cut).
pub fn wrap(lines: &[String], width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        let mut cur = String::new();
        for word in line.split(' ') {
            let (have, more) = (cur.chars().count(), word.chars().count());
            if have > 0 && have + 1 + more > width {
                out.push(core::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(word);
            while cur.chars().count() > width {
                let cut = cur.char_indices().nth(width).map_or(cur.len(), |(i, _)| i);
                let rest = cur.split_off(cut);
                out.push(core::mem::replace(&mut cur, rest));
            }
        }
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use serde_json::json;

    fn read(v: Value) -> Result<ModuleView, String> {
        ModuleView::read(&v)
    }

    fn board() -> Value {
        json!({"grid": "cells", "cols": 3, "rows": 2, "col_labels": ["a", "b", "c"]})
    }

    #[test]
    fn a_view_that_does_not_fit_its_board_is_refused_saying_what() {
        let ok = read(json!({"board": board(), "lines": [{"from": [3, 2], "to": [0, 0]}]}));
        assert!(ok.is_ok(), "a cells board's corners go one past the cells");
        let cases = [
            (
                json!({"board": {"grid": "triangles", "cols": 3, "rows": 2}}),
                "grid",
            ),
            (
                json!({"board": {"grid": "cells", "cols": 0, "rows": 2}}),
                "cols",
            ),
            (
                json!({"board": {"grid": "cells", "cols": 65, "rows": 2}}),
                "cols",
            ),
            (
                json!({"board": board(), "pieces": [{"at": [3, 0], "shape": "disc"}]}),
                "off",
            ),
            (
                json!({"board": board(), "pieces": [{"at": [0, 0], "shape": "star"}]}),
                "shape",
            ),
            (
                json!({"board": board(), "pieces": [{"at": [0, 0], "shape": "dot", "seat": 8}]}),
                "seat",
            ),
            (
                json!({"board": board(), "colors": ["red; background: url(x)"]}),
                "color",
            ),
            (json!({"board": board(), "colors": ["#12345"]}), "color"),
            (
                json!({"board": board(), "colors": ["black", "white", "red", "blue", "gold", "pink", "tan", "navy", "teal"]}),
                "colors",
            ),
            (
                json!({"board": board(), "highlights": [{"at": [0, 0], "mark": "glow"}]}),
                "mark",
            ),
            (
                json!({"board": board(), "lines": [{"from": [4, 0], "to": [0, 0]}]}),
                "off",
            ),
            (
                json!({"board": {"grid": "points", "cols": 3, "rows": 2}, "lines": [{"from": [3, 0], "to": [0, 0]}]}),
                "off",
            ),
            (
                json!({"board": {"grid": "cells", "cols": 3, "rows": 2, "row_labels": ["1"]}}),
                "row_labels",
            ),
            (
                json!({"board": board(), "text": ["x".repeat(201)]}),
                "too long",
            ),
            (json!({"board": board(), "pieces": "many"}), "not a list"),
            (
                json!({"board": {"grid": "hex", "cols": 3, "rows": 2}, "lines": [{"from": [3, 0], "to": [0, 0]}]}),
                "off",
            ),
        ];
        for (v, word) in cases {
            let e = read(v.clone()).expect_err(&v.to_string());
            assert!(e.contains(word), "{v}: {e}");
        }
    }

    #[test]
    fn eight_seats_and_the_colours_a_module_names_are_read() {
        let v = read(json!({
            "board": board(),
            "pieces": [{"at": [0, 0], "shape": "disc", "seat": 7}],
            "colors": ["black", "#fff", "#1a2B3c"]
        }))
        .unwrap();
        assert_eq!(v.pieces[0].seat, Some(7));
        assert_eq!(v.colors, ["black", "#fff", "#1a2B3c"]);
    }

    #[test]
    fn text_lines_mark_seats_labels_and_targets() {
        let v = read(json!({
            "board": board(),
            "pieces": [
                {"at": [0, 0], "shape": "disc", "seat": 0},
                {"at": [1, 0], "shape": "queen", "seat": 1},
                {"at": [2, 1], "shape": "cross", "seat": null},
                {"at": [0, 1], "shape": "square", "seat": 1, "label": "6"}
            ],
            "highlights": [{"at": [1, 1], "mark": "target", "seat": 0}],
            "text": ["die: 6"]
        }))
        .unwrap();
        assert_eq!(v.text_lines(), [" a b c", " X O .", " 6 * #", "die: 6"]);
        assert_eq!(v.place_name([1, 0]), "1,0", "no row labels: numbers");
    }

    #[test]
    fn a_hex_board_as_text_steps_each_row_right() {
        let v = read(json!({
            "board": {"grid": "hex", "cols": 3, "rows": 3, "col_labels": ["a", "b", "c"], "row_labels": ["1", "2", "3"]},
            "pieces": [{"at": [0, 0], "shape": "disc", "seat": 0}, {"at": [2, 2], "shape": "disc", "seat": 1}]
        }))
        .unwrap();
        assert_eq!(v.kind, Kind::Hex);
        assert_eq!(
            v.text_lines(),
            ["  a b c", "1 X . .", "2  . . .", "3   . . O"]
        );
    }
}

#[cfg(test)]
mod wrap_tests {
    use super::wrap;
    use alloc::string::String;

    #[test]
    fn lines_wrap_at_spaces_and_long_words_are_cut() {
        let lines = [String::from("to play: click your cards, lowest rank first")];
        let out = wrap(&lines, 16);
        assert!(out.iter().all(|l| l.chars().count() <= 16), "{out:?}");
        assert_eq!(out.join(" "), lines[0]);
        assert_eq!(wrap(&["abcdefghij".into()], 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap(&["".into(), "a b".into()], 8), ["", "a b"]);
    }
}
