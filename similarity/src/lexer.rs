//! The fallback tokeniser: one linear pass over the text, for a source that the tree-sitter
//! parser does not finish within its budget ([`crate::tokens`]). tree-sitter's error recovery
//! is superlinear on some garbage (199,000 `}` parse in 0.2 s, but `}}}}}}}}}}}}+` repeated
//! 4,000 times takes 9 s and twice that four times as long), so a student must not be able to
//! hand in such a file and hold the report.
//!
//! The tokens are the parser's leaves as nearly as a lexer can give them: identifiers are one
//! class and literals another (adjacent string literals are one literal, as tree-sitter's
//! `concatenated_string`); keywords, primitive types and operators are their own text, with
//! the keywords and operators read from the grammar itself; comments and layout are dropped;
//! a C preprocessor line gives the parser's tokens (`#define`, the name, its parameters and
//! the rest of the line as one token). A copy with a pathological tail therefore still
//! matches its original (tests/lexer.rs measures the agreement on the labelled set).

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::language::Language;
use crate::tokens::{symbol, Token, TokenError, IDENTIFIER, LITERAL};

/// What the lexer knows of one language.
struct Vocabulary {
    /// Words that are their own symbol: the grammar's keywords and its named word leaves.
    words: HashSet<&'static str>,
    /// The grammar's operators and punctuation, longest first.
    operators: Vec<&'static str>,
}

/// Words that tree-sitter gives as named leaves carrying their text (`primitive_type`, `true`,
/// `null`, ...): not keywords of the grammar, but their own symbol all the same.
const C_NAMED_WORDS: &[&str] = &[
    "bool",
    "char",
    "char16_t",
    "char32_t",
    "char64_t",
    "char8_t",
    "charptr_t",
    "double",
    "float",
    "int",
    "int16_t",
    "int32_t",
    "int64_t",
    "int8_t",
    "intptr_t",
    "max_align_t",
    "nullptr_t",
    "ptrdiff_t",
    "size_t",
    "ssize_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "uint8_t",
    "uintptr_t",
    "void",
    "TRUE",
    "true",
    "FALSE",
    "false",
    "NULL",
    "nullptr",
];
const CPP_NAMED_WORDS: &[&str] = &["this", "auto"];
const PYTHON_NAMED_WORDS: &[&str] = &["True", "False", "None"];

/// Keywords of the grammar that are identifiers wherever a bot uses them (`print(x)`,
/// `type(x)`, a variable called `match`): tree-sitter gives them as identifiers.
const PYTHON_SOFT_KEYWORDS: &[&str] = &["print", "exec", "match", "case", "type", "_"];

/// Punctuation kinds of the grammars that are not operators a lexer can take on their own:
/// string quotes, `()`/`[]` after `operator`, attribute brackets (which tree-sitter reads as
/// two tokens in `a[b[1]]`), a Python line continuation (handled apart).
const NOT_OPERATORS: &[&str] = &["\"", "'", "\"\"", "()", "[]", "[[", "]]", "\\", "_"];

fn vocabulary(language: Language) -> &'static Vocabulary {
    static C: OnceLock<Vocabulary> = OnceLock::new();
    static CPP: OnceLock<Vocabulary> = OnceLock::new();
    static PYTHON: OnceLock<Vocabulary> = OnceLock::new();
    let cell = match language {
        Language::C => &C,
        Language::Cpp => &CPP,
        Language::Python => &PYTHON,
    };
    cell.get_or_init(|| build_vocabulary(language))
}

fn build_vocabulary(language: Language) -> Vocabulary {
    crate::parser_memory::install();
    let grammar = language.grammar();
    let mut words = HashSet::new();
    let mut operators = Vec::new();
    for id in 0..grammar.node_kind_count() {
        let Ok(id) = u16::try_from(id) else { break };
        if grammar.node_kind_is_named(id) || !grammar.node_kind_is_visible(id) {
            continue;
        }
        let Some(kind) = grammar.node_kind_for_id(id) else {
            continue;
        };
        if kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            words.insert(kind);
        } else if kind.chars().all(|c| c.is_ascii_punctuation()) && !NOT_OPERATORS.contains(&kind) {
            operators.push(kind);
        }
    }
    let named: &[&'static str] = match language {
        Language::C => C_NAMED_WORDS,
        Language::Cpp => CPP_NAMED_WORDS,
        Language::Python => PYTHON_NAMED_WORDS,
    };
    words.extend(named.iter().copied());
    if language == Language::Cpp {
        words.extend(C_NAMED_WORDS.iter().copied());
    }
    if language == Language::Python {
        for w in PYTHON_SOFT_KEYWORDS {
            words.remove(w);
        }
        // `...` is a named leaf (`ellipsis`) in Python's grammar.
        operators.push("...");
    }
    operators.sort_by(|x, y| y.len().cmp(&x.len()).then(x.cmp(y)));
    operators.dedup();
    Vocabulary { words, operators }
}

/// Tokenises `source` in one pass; at most `max_tokens` tokens.
pub fn lex(language: Language, source: &str, max_tokens: usize) -> Result<Vec<Token>, TokenError> {
    let mut lexer = Lexer {
        language,
        vocabulary: vocabulary(language),
        text: source.as_bytes(),
        source,
        at: 0,
        line: 1,
        line_start: true,
        depth: 0,
        out: Vec::new(),
        max_tokens,
    };
    lexer.run()?;
    Ok(lexer.out)
}

struct Lexer<'s> {
    language: Language,
    vocabulary: &'static Vocabulary,
    text: &'s [u8],
    source: &'s str,
    at: usize,
    line: u32,
    /// Only layout since the last newline: a `#` here starts a preprocessor line.
    line_start: bool,
    /// Python's bracket depth: a literal after a newline inside brackets still concatenates.
    depth: usize,
    out: Vec<Token>,
    max_tokens: usize,
}

impl<'s> Lexer<'s> {
    fn run(&mut self) -> Result<(), TokenError> {
        while self.skip_layout() {
            let start = (self.at, self.line);
            if self.c_like() && self.line_start && self.peek(0) == Some(b'#') {
                self.line_start = false;
                self.preprocessor_line()?;
                continue;
            }
            self.line_start = false;
            self.token(start)?;
        }
        Ok(())
    }

    fn c_like(&self) -> bool {
        self.language != Language::Python
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.text.get(self.at + ahead).copied()
    }

    /// Moves past `n` bytes, counting newlines.
    fn advance(&mut self, n: usize) {
        let end = (self.at + n).min(self.text.len());
        for &b in &self.text[self.at..end] {
            if b == b'\n' {
                self.line += 1;
            }
        }
        self.at = end;
    }

    /// Skips whitespace and comments; false at the end of the text.
    fn skip_layout(&mut self) -> bool {
        loop {
            let Some(b) = self.peek(0) else { return false };
            match b {
                b'\n' => {
                    self.line_start = true;
                    self.advance(1);
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.advance(1),
                b'/' if self.c_like() && self.peek(1) == Some(b'/') => self.skip_to_line_end(),
                b'/' if self.c_like() && self.peek(1) == Some(b'*') => self.skip_block_comment(),
                b'#' if !self.c_like() => self.skip_to_line_end(),
                _ => return true,
            }
        }
    }

    fn skip_to_line_end(&mut self) {
        let rest = &self.text[self.at..];
        let n = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        self.advance(n);
    }

    fn skip_block_comment(&mut self) {
        let rest = &self.text[self.at + 2..];
        let n = rest
            .windows(2)
            .position(|w| w == b"*/")
            .map_or(rest.len(), |p| p + 2);
        self.advance(2 + n);
    }

    fn push(&mut self, symbol_text: &str, line: u32) -> Result<(), TokenError> {
        if self.out.len() >= self.max_tokens {
            return Err(TokenError::TooManyTokens {
                limit: self.max_tokens,
            });
        }
        self.out.push(Token {
            symbol: symbol(symbol_text),
            line,
            end_line: self.line.max(line),
        });
        Ok(())
    }

    /// One token starting at the current position (not layout).
    fn token(&mut self, (start, line): (usize, u32)) -> Result<(), TokenError> {
        if self.string_start().is_some() {
            self.strings();
            return self.push(LITERAL, line);
        }
        let b = self.text[start];
        if b.is_ascii_digit()
            || (b == b'.' && self.peek(1).is_some_and(|d| d.is_ascii_digit()))
            || self.signed_number()
        {
            self.advance(usize::from(!b.is_ascii_digit() && b != b'.'));
            self.number();
            return self.push(LITERAL, line);
        }
        if is_word_start(b) {
            let word = self.word();
            let text = if self.vocabulary.words.contains(word) {
                word
            } else {
                IDENTIFIER
            };
            return self.push(text, line);
        }
        if b == b'\\' && !self.c_like() && matches!(self.peek(1), Some(b'\n' | b'\r')) {
            let n = if self.peek(1) == Some(b'\r') && self.peek(2) == Some(b'\n') {
                3
            } else {
                2
            };
            self.advance(n);
            return self.push("\\\n", line);
        }
        if let Some(op) = self.operator() {
            self.track_depth(op);
            self.advance(op.len());
            return self.push(op, line);
        }
        // Anything else is one character, its own symbol.
        let n = utf8_len(b);
        let text = self.source.get(start..start + n).unwrap_or("?");
        self.advance(n);
        self.push(text, line)
    }

    /// tree-sitter-c reads `-1` as one number where an operand is expected (`{-1, 1}`,
    /// `return -1`), and `x -1` as an operator and a number.
    fn signed_number(&self) -> bool {
        if !self.c_like()
            || !matches!(self.peek(0), Some(b'-' | b'+'))
            || !self.peek(1).is_some_and(|d| d.is_ascii_digit())
        {
            return false;
        }
        let operand = [IDENTIFIER, LITERAL, ")", "]"].map(symbol);
        let named = |s: u32| {
            C_NAMED_WORDS
                .iter()
                .chain(CPP_NAMED_WORDS)
                .any(|w| symbol(w) == s)
        };
        self.out
            .last()
            .is_none_or(|t| !operand.contains(&t.symbol) && !named(t.symbol))
    }

    fn track_depth(&mut self, op: &str) {
        match op {
            "(" | "[" | "{" => self.depth += 1,
            ")" | "]" | "}" => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
    }

    fn operator(&self) -> Option<&'static str> {
        let rest = &self.text[self.at..];
        self.vocabulary
            .operators
            .iter()
            .copied()
            .find(|op| rest.starts_with(op.as_bytes()))
    }

    fn word(&mut self) -> &'s str {
        let rest = &self.text[self.at..];
        let dollar = self.c_like();
        let n = rest
            .iter()
            .position(|&b| !(is_word_byte(b) || (dollar && b == b'$')))
            .unwrap_or(rest.len());
        let source = self.source;
        let word = source.get(self.at..self.at + n).unwrap_or("");
        self.advance(n);
        word
    }

    /// A number: digits, letters (suffixes, hex), points, digit separators, exponent signs.
    fn number(&mut self) {
        let mut n = 0;
        while let Some(&b) = self.text.get(self.at + n) {
            let prev = n.checked_sub(1).and_then(|p| self.text.get(self.at + p));
            let sign = matches!(b, b'+' | b'-') && matches!(prev, Some(b'e' | b'E' | b'p' | b'P'));
            let separator = b == b'\''
                && self.c_like()
                && self
                    .text
                    .get(self.at + n + 1)
                    .is_some_and(|d| d.is_ascii_alphanumeric());
            if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || sign || separator {
                n += 1;
            } else {
                break;
            }
        }
        self.advance(n);
    }

    /// The length of a string or character literal's prefix if one starts here (`L"`,
    /// `u8'`, `R"`, `rb'`, `f"""`...): the quote is at `at + prefix`.
    fn string_start(&self) -> Option<usize> {
        let rest = &self.text[self.at..];
        let prefix = rest.iter().take(4).position(|&b| b == b'"' || b == b'\'')?;
        let letters = &rest[..prefix];
        let ok = match self.language {
            Language::Python => {
                letters.len() <= 2 && letters.iter().all(|b| b"rRbBuUfFtT".contains(b))
            }
            Language::C => matches!(letters, b"" | b"L" | b"u" | b"U" | b"u8"),
            Language::Cpp => matches!(
                letters,
                b"" | b"L" | b"u" | b"U" | b"u8" | b"R" | b"LR" | b"uR" | b"UR" | b"u8R"
            ),
        };
        ok.then_some(prefix)
    }

    /// One literal, then any literals that follow it (with only layout between): adjacent
    /// string literals are one token, as in the grammars.
    fn strings(&mut self) {
        loop {
            let quote = self.one_string();
            self.suffix();
            if self.c_like() && quote != b'"' {
                return;
            }
            let (at, line) = (self.at, self.line);
            if !self.skip_layout_for_concatenation() {
                return;
            }
            let c_like = self.c_like();
            let continues = self
                .string_start()
                .is_some_and(|p| !c_like || self.text.get(self.at + p) == Some(&b'"'));
            if !continues {
                // Not a literal: give the layout back, so that a line's start is seen.
                self.at = at;
                self.line = line;
                return;
            }
        }
    }

    /// Skips the layout between two literals that may concatenate: any in C; in Python only
    /// within a line, or across lines inside brackets.
    fn skip_layout_for_concatenation(&mut self) -> bool {
        if self.c_like() {
            loop {
                match (self.peek(0), self.peek(1)) {
                    (Some(b' ' | b'\t' | b'\r' | b'\n'), _) => self.advance(1),
                    (Some(b'/'), Some(b'*')) => self.skip_block_comment(),
                    (Some(b'/'), Some(b'/')) => self.skip_to_line_end(),
                    (Some(_), _) => return true,
                    (None, _) => return false,
                }
            }
        }
        loop {
            match self.peek(0) {
                Some(b' ' | b'\t' | b'\r') => self.advance(1),
                Some(b'\n') if self.depth > 0 => self.advance(1),
                Some(b'#') if self.depth > 0 => self.skip_to_line_end(),
                Some(_) => return true,
                None => return false,
            }
        }
    }

    /// A C++ user-defined literal's suffix (`"x"s`, `10ms` is read by `number`).
    fn suffix(&mut self) {
        if self.language == Language::Cpp && self.peek(0).is_some_and(is_word_start) {
            self.word();
        }
    }

    /// One literal; its quote.
    fn one_string(&mut self) -> u8 {
        let Some(prefix) = self.string_start() else {
            return 0;
        };
        let raw =
            self.language == Language::Cpp && self.text[self.at..self.at + prefix].contains(&b'R');
        self.advance(prefix);
        let quote = self.text[self.at];
        if raw {
            self.cpp_raw_string();
        } else if !self.c_like() && self.text[self.at..].starts_with(&[quote; 3]) {
            self.advance(3);
            self.until_closing(&[quote; 3], true);
        } else {
            self.advance(1);
            self.until_closing(&[quote], false);
        }
        quote
    }

    /// To the closing delimiter (or the end of the line for an unterminated short literal, or
    /// of the text). A backslash escapes the next byte, even in a Python raw string (where it
    /// stays in the text but still keeps a quote from closing it).
    fn until_closing(&mut self, close: &[u8], multiline: bool) {
        let mut n = 0;
        let rest = &self.text[self.at..];
        while n < rest.len() {
            if rest[n] == b'\\' {
                n += 2;
                continue;
            }
            if rest[n..].starts_with(close) {
                n += close.len();
                break;
            }
            if rest[n] == b'\n' && !multiline {
                break;
            }
            n += 1;
        }
        self.advance(n.min(rest.len()));
    }

    /// `R"delim( ... )delim"`.
    fn cpp_raw_string(&mut self) {
        let rest = &self.text[self.at + 1..];
        let Some(open) = rest.iter().take(17).position(|&b| b == b'(') else {
            self.advance(1);
            self.until_closing(b"\"", false);
            return;
        };
        let mut close = vec![b')'];
        close.extend_from_slice(&rest[..open]);
        close.push(b'"');
        let body = &rest[open + 1..];
        let n = body
            .windows(close.len())
            .position(|w| w == close.as_slice())
            .map_or(body.len(), |p| p + close.len());
        self.advance(1 + open + 1 + n);
    }

    /// A preprocessor line, as tree-sitter-c gives it: the directive; for `#define` the name,
    /// the parameters and the rest of the line as one token; for `#include` the path as a
    /// literal; `#if` and `#elif` lex their condition and end with a newline token; another
    /// directive is its text and the rest of its line.
    fn preprocessor_line(&mut self) -> Result<(), TokenError> {
        let (start, line) = (self.at, self.line);
        self.advance(1);
        while matches!(self.peek(0), Some(b' ' | b'\t')) {
            self.advance(1);
        }
        let word = self.word().to_string();
        let known = [
            "define", "include", "if", "elif", "ifdef", "ifndef", "else", "endif", "elifdef",
            "elifndef",
        ];
        if !known.contains(&word.as_str()) {
            let text = self.source.get(start..self.at).unwrap_or("#").to_string();
            self.push(&text, line)?;
            return self.rest_of_line();
        }
        self.push(&format!("#{word}"), line)?;
        match word.as_str() {
            "define" => self.define(),
            "include" => self.include(),
            "if" | "elif" => {
                self.lex_to_line_end()?;
                let line = self.line;
                self.push("\n", line)
            }
            _ => self.lex_to_line_end(),
        }
    }

    fn define(&mut self) -> Result<(), TokenError> {
        self.skip_spaces();
        if !self.peek(0).is_some_and(is_word_start) {
            return self.rest_of_line();
        }
        let line = self.line;
        self.word();
        self.push(IDENTIFIER, line)?;
        // A function-like macro's parameters follow its name at once.
        if self.peek(0) == Some(b'(') {
            while let Some(b) = self.peek(0) {
                if b == b'\n' {
                    break;
                }
                let start = (self.at, self.line);
                if b == b' ' || b == b'\t' {
                    self.advance(1);
                    continue;
                }
                self.token(start)?;
                if b == b')' {
                    break;
                }
            }
        }
        self.rest_of_line()
    }

    fn include(&mut self) -> Result<(), TokenError> {
        self.skip_spaces();
        if self.peek(0) == Some(b'<') {
            let line = self.line;
            let rest = &self.text[self.at..];
            let n = rest
                .iter()
                .position(|&b| b == b'>' || b == b'\n')
                .map_or(rest.len(), |p| p + usize::from(rest[p] == b'>'));
            self.advance(n);
            self.push(LITERAL, line)?;
        }
        self.lex_to_line_end()
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(0), Some(b' ' | b'\t')) {
            self.advance(1);
        }
    }

    /// The rest of a logical line (backslash-newline continues it) as one token of its text.
    fn rest_of_line(&mut self) -> Result<(), TokenError> {
        self.skip_spaces();
        let (start, line) = (self.at, self.line);
        let rest = &self.text[self.at..];
        let mut n = 0;
        while n < rest.len() && rest[n] != b'\n' {
            n += if rest[n] == b'\\' { 2 } else { 1 };
        }
        let n = n.min(rest.len());
        let end = if n > 0 && rest[n - 1] == b'\r' {
            n - 1
        } else {
            n
        };
        self.advance(n);
        match self.source.get(start..start + end) {
            Some(text) if !text.trim().is_empty() => {
                let text = text.to_string();
                self.push(&text, line)
            }
            _ => Ok(()),
        }
    }

    /// Ordinary tokens to the end of the logical line.
    fn lex_to_line_end(&mut self) -> Result<(), TokenError> {
        loop {
            match (self.peek(0), self.peek(1)) {
                (None | Some(b'\n'), _) => return Ok(()),
                (Some(b' ' | b'\t' | b'\r'), _) => self.advance(1),
                (Some(b'\\'), Some(b'\n')) => self.advance(2),
                (Some(b'/'), Some(b'/')) => self.skip_to_line_end(),
                (Some(b'/'), Some(b'*')) => self.skip_block_comment(),
                _ => {
                    let start = (self.at, self.line);
                    self.token(start)?;
                }
            }
        }
    }
}

fn is_word_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Bytes of the UTF-8 character starting with `b` (1 for a stray continuation byte).
fn utf8_len(b: u8) -> usize {
    match b {
        0xf0..=0xf7 => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(language: Language, source: &str) -> Vec<u32> {
        lex(language, source, 1 << 20)
            .map(|t| t.iter().map(|t| t.symbol).collect())
            .unwrap_or_default()
    }

    fn syms(texts: &[&str]) -> Vec<u32> {
        texts.iter().map(|t| symbol(t)).collect()
    }

    #[test]
    fn c_tokens_are_the_parsers_leaves() {
        let got = kinds(
            Language::C,
            "#include <stdio.h>\n#define F(a) ((a) + 1) // x\nint main(void) { x->y[2] >>= 0x1fULL; return \"a\" \"b\"; } /* c */",
        );
        let want = syms(&[
            "#include",
            LITERAL,
            "#define",
            IDENTIFIER,
            "(",
            IDENTIFIER,
            ")",
            "((a) + 1) // x",
            "int",
            IDENTIFIER,
            "(",
            "void",
            ")",
            "{",
            IDENTIFIER,
            "->",
            IDENTIFIER,
            "[",
            LITERAL,
            "]",
            ">>=",
            LITERAL,
            ";",
            "return",
            LITERAL,
            ";",
            "}",
        ]);
        assert_eq!(got, want);
    }

    #[test]
    fn python_tokens_are_the_parsers_leaves() {
        let got = kinds(
            Language::Python,
            "def f(a, *k):  # c\n    print(f\"{a}\" 'b', None)\n    return a ** 2 // 3\n",
        );
        let want = syms(&[
            "def", IDENTIFIER, "(", IDENTIFIER, ",", "*", IDENTIFIER, ")", ":", IDENTIFIER, "(",
            LITERAL, ",", "None", ")", "return", IDENTIFIER, "**", LITERAL, "//", LITERAL,
        ]);
        assert_eq!(got, want);
    }

    #[test]
    fn lines_and_unterminated_literals() {
        let t = lex(Language::C, "int\n/* a\nb */ x = \"open\n;", 100).unwrap_or_default();
        let lines: Vec<u32> = t.iter().map(|t| t.line).collect();
        assert_eq!(lines, vec![1, 3, 3, 3, 4]);
        let t = lex(Language::Python, "s = '''a\nb\nc'''\nx", 100).unwrap_or_default();
        assert_eq!((t[2].line, t[2].end_line), (1, 3));
        assert_eq!(t[3].line, 4);
        assert!(lex(Language::Cpp, "R\"x(never closed", 100).is_ok());
        assert!(lex(Language::Python, "\"\"\"", 100).is_ok());
    }

    #[test]
    fn limits_and_garbage() {
        assert_eq!(
            lex(Language::C, "}}}}}", 3),
            Err(TokenError::TooManyTokens { limit: 3 })
        );
        let junk: String = (0..5000u32)
            .map(|i| char::from_u32((i * 7919) % 0x3000).unwrap_or('?'))
            .collect();
        for language in [Language::C, Language::Cpp, Language::Python] {
            assert!(lex(language, &junk, 1 << 20).is_ok());
            assert!(lex(language, "#", 10).is_ok());
            assert!(lex(language, "\\", 10).is_ok());
        }
    }
}
