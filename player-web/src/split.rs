//! A replay's text cut where its moves are, so that a long replay is read a slice at a time:
//! the document with its `moves` array emptied (the envelope, which the engine reads strictly
//! as it is) and where each move's JSON lies (read and checked later, `Session::advance`).
//! The scan itself goes a slice at a time ([`Split::scan`]). Only the document's structure is
//! followed here (strings, nesting, the top object's keys); the JSON of each part is read
//! strictly by serde. Anything unusual (no top object, `moves` not an array or named twice,
//! an empty element, text after the end) gives up: the document is then read whole, whose
//! error says what is wrong.

use alloc::string::String;
use alloc::vec::Vec;

/// A scan in progress.
#[derive(Default)]
pub struct Split {
    at: usize,
    depth: u32,
    in_string: bool,
    /// At depth 1, the next string is a key; where the one being read began.
    want_key: bool,
    key_from: Option<usize>,
    /// The key just read is `moves`; its `:` was read, so its value comes next.
    moves_key: bool,
    moves_value: bool,
    moves_keys: u32,
    /// The `moves` array's `[` and `]`, once seen.
    open: Option<usize>,
    close: Option<usize>,
    /// Inside the `moves` array: where the element being read began, and whether a comma
    /// came before it.
    from: Option<usize>,
    after_comma: bool,
    /// The last byte that was not white space.
    last: usize,
    ended: bool,
    failed: bool,
    /// Each move's JSON: its first byte and the one past its last.
    spans: Vec<(u32, u32)>,
}

/// The result: the envelope and where each move lies in the text.
pub struct Parts {
    pub envelope: String,
    pub spans: Vec<(u32, u32)>,
}

impl Split {
    /// Scans at most `budget` more bytes of `text`; true once the whole text is scanned.
    pub fn scan(&mut self, text: &[u8], budget: usize) -> bool {
        let stop = text.len().min(self.at.saturating_add(budget));
        let mut at = self.at;
        while at < stop && !self.failed {
            let b = text[at];
            if self.in_string {
                // The string's plain bytes at once: most of a replay is strings.
                let plain = text[at..stop].iter().position(|&b| b == b'"' || b == b'\\');
                match plain.map(|p| at + p) {
                    None => at = stop,
                    // The escaped byte is never a quote that ends the string.
                    Some(p) if text[p] == b'\\' => at = p + 2,
                    Some(p) => {
                        self.in_string = false;
                        self.last = p;
                        if let Some(from) = self.key_from.take() {
                            let key = &text[from..=p];
                            self.moves_key = key == b"\"moves\"";
                            self.want_key = false;
                            // A key spelled with escapes may be `moves` too: read whole.
                            self.failed |= key.contains(&b'\\');
                        }
                        at = p + 1;
                    }
                }
                continue;
            }
            let structure = matches!(b, b'"' | b'{' | b'}' | b'[' | b']' | b',' | b':');
            // Inside a number or `true`, `false`, `null`, only a first byte counts.
            let first = self.moves_value || self.ended || (self.depth == 2 && self.from.is_none());
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                if structure || first {
                    self.at = at;
                    self.byte(b);
                }
                self.last = at;
            }
            at += 1;
        }
        self.at = at;
        self.at >= text.len() || self.failed
    }

    /// One byte outside strings, not white space.
    fn byte(&mut self, b: u8) {
        let value = core::mem::take(&mut self.moves_value);
        if self.ended || (value && b != b'[') {
            self.failed = true;
            return;
        }
        let in_moves = self.open.is_some() && self.close.is_none() && self.depth == 2;
        if in_moves && self.from.is_none() && !matches!(b, b',' | b']') {
            self.from = Some(self.at);
        }
        match b {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.want_key {
                    self.key_from = Some(self.at);
                }
            }
            b':' if self.depth == 1 => {
                self.moves_value = core::mem::take(&mut self.moves_key);
                self.moves_keys += u32::from(self.moves_value);
            }
            b',' if self.depth == 1 => self.want_key = true,
            b',' if in_moves => self.element(true),
            b'{' | b'[' => {
                self.failed |= self.depth == 0 && b != b'{';
                if value {
                    self.failed |= self.open.is_some();
                    self.open = Some(self.at);
                }
                self.depth += 1;
                self.want_key = self.depth == 1;
            }
            b'}' | b']' => {
                if in_moves && b == b']' {
                    if self.from.is_some() || self.after_comma {
                        self.element(false);
                    }
                    self.close = Some(self.at);
                }
                match self.depth.checked_sub(1) {
                    Some(d) => self.depth = d,
                    None => self.failed = true,
                }
                self.ended = self.depth == 0;
            }
            _ => {}
        }
    }

    /// The element being read ends here (at a comma when `comma`, else at the `]`).
    fn element(&mut self, comma: bool) {
        match self.from.take() {
            Some(from) => self.spans.push((from as u32, self.last as u32 + 1)),
            None => self.failed = true,
        }
        self.after_comma = comma;
    }

    /// The moves found so far.
    pub fn found(&self) -> usize {
        self.spans.len()
    }

    /// The envelope and the moves, or `None` when the text is to be read whole.
    pub fn finish(self, text: &str) -> Option<Parts> {
        let (Some(open), Some(close)) = (self.open, self.close) else {
            return None;
        };
        let whole = self.ended && !self.failed && self.moves_keys == 1;
        if !whole || u32::try_from(text.len()).is_err() {
            return None;
        }
        let mut envelope = String::with_capacity(text.len() - (close - open));
        envelope.push_str(text.get(..open + 1)?);
        envelope.push_str(text.get(close..)?);
        Some(Parts {
            envelope,
            spans: self.spans,
        })
    }
}

/// Splits `text` at once (native callers and tests; the page scans a slice at a time).
pub fn split(text: &str) -> Option<Parts> {
    let mut s = Split::default();
    s.scan(text.as_bytes(), usize::MAX);
    s.finish(text)
}

#[cfg(test)]
mod tests {
    use super::split;
    use alloc::string::String;
    use alloc::vec::Vec;

    fn moves(text: &str) -> Option<(String, Vec<&str>)> {
        let p = split(text)?;
        let m = p
            .spans
            .iter()
            .map(|&(a, b)| &text[a as usize..b as usize])
            .collect();
        Some((p.envelope, m))
    }

    #[test]
    fn the_moves_are_cut_out_of_the_envelope() {
        let text = r#" {"format":"x","moves": [ {"seat":0,"move":"a]"} ,{"seat":1,"move":"\"}"}],"z":[1,{"moves":2}]} "#;
        let (env, m) = moves(text).unwrap();
        assert_eq!(env, r#" {"format":"x","moves": [],"z":[1,{"moves":2}]} "#);
        assert_eq!(
            m,
            [r#"{"seat":0,"move":"a]"}"#, r#"{"seat":1,"move":"\"}"}"#]
        );
        let (env, m) = moves(r#"{"moves":[],"a":"moves"}"#).unwrap();
        assert_eq!((env.as_str(), m.len()), (r#"{"moves":[],"a":"moves"}"#, 0));
    }

    #[test]
    fn a_scan_in_slices_finds_what_a_scan_at_once_does() {
        let docs = [
            r#"{"moves":[ 1, 22 ,{"a":[3,"]"]}, "x\\" ,null ],"b":"\"moves\"","c":"\\"}"#,
            r#"{"a":{"moves":[9]},"moves":[{"seat":0,"move":"a\\\"b"}]}"#,
            "{\"moves\":[]}",
        ];
        for text in docs {
            let whole = moves(text).unwrap();
            for budget in [1, 2, 3, 5, 64] {
                let mut s = super::Split::default();
                while !s.scan(text.as_bytes(), budget) {}
                let p = s.finish(text).unwrap();
                let m: Vec<&str> = p
                    .spans
                    .iter()
                    .map(|&(a, b)| &text[a as usize..b as usize])
                    .collect();
                assert_eq!((p.envelope, m), whole.clone(), "{text} by {budget}");
            }
        }
        let (_, m) = moves(docs[0]).unwrap();
        assert_eq!(m, ["1", "22", r#"{"a":[3,"]"]}"#, r#""x\\""#, "null"]);
        let (env, m) = moves(docs[1]).unwrap();
        assert_eq!(
            (env.as_str(), m.len()),
            (r#"{"a":{"moves":[9]},"moves":[]}"#, 1)
        );
    }

    #[test]
    fn anything_unusual_is_read_whole() {
        for text in [
            "",
            "[1]",
            r#"{"moves":[1,,2]}"#,
            r#"{"moves":[1,]}"#,
            r#"{"moves":[1],"moves":[]}"#,
            r#"{"moves":{"a":1}}"#,
            r#"{"moves":[1]} x"#,
            r#"{"moves":[1]"#,
            r#"{"moves":"[1]"}"#,
            r#"{"a":1}"#,
            r#"{"moves":[1]}}"#,
            r#"{"moves":[1],"mo\u0076es":[]}"#,
        ] {
            assert!(split(text).is_none(), "{text}");
        }
    }
}
