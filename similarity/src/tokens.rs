//! Source text to a normalised token stream: tree-sitter parses the file, and its leaves become
//! tokens. Identifiers collapse to one class and literals to another (renaming a variable or
//! changing a constant must not hide a copy); comments and whitespace are dropped (they are not
//! in the stream at all), so reformatting changes nothing. Keywords, operators and punctuation
//! keep their own symbols: they carry the program's structure.
//!
//! tree-sitter's error recovery is superlinear on some garbage, so the parse has a budget of
//! CPU time proportional to the source's size; past it the source is read by the linear
//! [`crate::lexer`], which gives nearly the same tokens.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::language::Language;

/// One normalised token: its symbol and the 1-based lines it spans in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub symbol: u32,
    pub line: u32,
    pub end_line: u32,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TokenError {
    #[error("{bytes} bytes: over the limit of {limit}")]
    TooLarge { bytes: usize, limit: usize },
    #[error("over {limit} tokens")]
    TooManyTokens { limit: usize },
    #[error("the parser gave no tree")]
    NoTree,
}

/// Node kinds that are one token however tree-sitter splits them (a string's quotes and
/// content are children).
const LITERALS: &[&str] = &[
    "string_literal",
    "char_literal",
    "raw_string_literal",
    "concatenated_string",
    "system_lib_string",
    "number_literal",
    "user_defined_literal",
    "string",
    "integer",
    "float",
];

const IDENTIFIERS: &[&str] = &[
    "identifier",
    "field_identifier",
    "type_identifier",
    "namespace_identifier",
    "statement_identifier",
];

const COMMENTS: &[&str] = &["comment"];

/// Bumped whenever the token stream of a source changes, so that cached results are redone.
pub const VERSION: u32 = 1;

pub(crate) const IDENTIFIER: &str = "<id>";
pub(crate) const LITERAL: &str = "<lit>";

/// Which tokeniser read a source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Reader {
    /// tree-sitter's parser, within its budget.
    Parser,
    /// The fallback lexer: the parser did not finish within its budget.
    Lexer,
}

/// The parser's budget for one source: CPU time of the parsing thread, `base_ms` plus
/// `ns_per_byte` for each byte, and memory held by the parser, `memory_base` plus
/// `memory_per_byte` for each byte. Ordinary code parses at 0.2 to 0.4 µs a byte and holds
/// about 20 bytes for each byte of source (tests/lexer.rs and the benchmark measure it).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ParseBudget {
    pub base_ms: u64,
    pub ns_per_byte: u64,
    pub memory_base: usize,
    pub memory_per_byte: usize,
}

impl Default for ParseBudget {
    fn default() -> ParseBudget {
        ParseBudget {
            base_ms: 20,
            ns_per_byte: 1_500,
            memory_base: 8 << 20,
            memory_per_byte: 64,
        }
    }
}

impl ParseBudget {
    pub fn memory_for_bytes(self, bytes: usize) -> usize {
        self.memory_per_byte
            .saturating_mul(bytes)
            .saturating_add(self.memory_base)
    }

    pub fn for_bytes(self, bytes: usize) -> Duration {
        let per_byte = Duration::from_nanos(self.ns_per_byte);
        Duration::from_millis(self.base_ms)
            .saturating_add(per_byte.saturating_mul(u32::try_from(bytes).unwrap_or(u32::MAX)))
    }
}

/// A source's tokens and which tokeniser read them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub tokens: Vec<Token>,
    pub reader: Reader,
}

/// Tokenises `source` with the default parse budget, refusing inputs over `max_bytes` bytes
/// or `max_tokens` tokens.
pub fn tokenise(
    language: Language,
    source: &str,
    max_bytes: usize,
    max_tokens: usize,
) -> Result<Vec<Token>, TokenError> {
    read(
        language,
        source,
        max_bytes,
        max_tokens,
        ParseBudget::default(),
    )
    .map(|r| r.tokens)
}

/// Tokenises `source`: with the parser if it finishes within `budget`, else with the lexer.
pub fn read(
    language: Language,
    source: &str,
    max_bytes: usize,
    max_tokens: usize,
    budget: ParseBudget,
) -> Result<Read, TokenError> {
    if source.len() > max_bytes {
        return Err(TokenError::TooLarge {
            bytes: source.len(),
            limit: max_bytes,
        });
    }
    crate::parser_memory::install();
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&language.grammar())
        .map_err(|_| TokenError::NoTree)?;
    let limit = budget.for_bytes(source.len());
    let memory = isize::try_from(budget.memory_for_bytes(source.len())).unwrap_or(isize::MAX);
    let (started, cpu_started) = (Instant::now(), thread_cpu());
    let held_before = crate::parser_memory::held();
    // Called every hundred parser operations: the memory the parser holds; the wall clock
    // (cheap, and never behind the thread's CPU time), then the CPU time, so that a loaded
    // machine does not make an ordinary file look slow.
    let mut over = |_: &tree_sitter::ParseState| {
        crate::parser_memory::held().wrapping_sub(held_before) > memory
            || (started.elapsed() > limit
                && match (cpu_started, thread_cpu()) {
                    (Some(from), Some(now)) => now.saturating_sub(from) > limit,
                    _ => true,
                })
    };
    let bytes = source.as_bytes();
    let tree = parser.parse_with_options(
        &mut |at, _| bytes.get(at..).unwrap_or_default(),
        None,
        Some(tree_sitter::ParseOptions::new().progress_callback(&mut over)),
    );
    match tree {
        Some(tree) => Ok(Read {
            tokens: collect(tree.root_node(), source, max_tokens)?,
            reader: Reader::Parser,
        }),
        None => Ok(Read {
            tokens: crate::lexer::lex(language, source, max_tokens)?,
            reader: Reader::Lexer,
        }),
    }
}

/// Tokenises `source` with the lexer alone: a source the parser is known not to finish
/// within its budget (the cache remembers them) is not parsed again.
pub fn lex_only(
    language: Language,
    source: &str,
    max_bytes: usize,
    max_tokens: usize,
) -> Result<Read, TokenError> {
    if source.len() > max_bytes {
        return Err(TokenError::TooLarge {
            bytes: source.len(),
            limit: max_bytes,
        });
    }
    Ok(Read {
        tokens: crate::lexer::lex(language, source, max_tokens)?,
        reader: Reader::Lexer,
    })
}

/// The CPU time this thread has used.
fn thread_cpu() -> Option<Duration> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the clock id is a constant of libc.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then(|| {
        Duration::new(
            u64::try_from(t.tv_sec).unwrap_or(0),
            u32::try_from(t.tv_nsec).unwrap_or(0),
        )
    })
}

/// Walks the tree with a cursor (no recursion: a hostile file may nest ten thousand levels).
fn collect(
    root: tree_sitter::Node<'_>,
    source: &str,
    max_tokens: usize,
) -> Result<Vec<Token>, TokenError> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        let kind = node.kind();
        let whole = LITERALS.contains(&kind) || node.child_count() == 0;
        if whole && !COMMENTS.contains(&kind) && !node.is_missing() {
            if let Some(text) = symbol_text(node, kind, source) {
                if out.len() >= max_tokens {
                    return Err(TokenError::TooManyTokens { limit: max_tokens });
                }
                out.push(Token {
                    symbol: symbol(text),
                    line: line_of(node.start_position().row),
                    end_line: line_of(node.end_position().row),
                });
            }
        }
        if !whole && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    Ok(out)
}

/// The class a leaf stands for; `None` for leaves that are layout only (empty tokens such as
/// Python's zero-width newline markers).
fn symbol_text<'s>(node: tree_sitter::Node<'_>, kind: &'s str, source: &'s str) -> Option<&'s str> {
    if IDENTIFIERS.contains(&kind) {
        return Some(IDENTIFIER);
    }
    if LITERALS.contains(&kind) {
        return Some(LITERAL);
    }
    if node.start_byte() == node.end_byte() {
        return None;
    }
    if node.is_named() {
        // Named leaves without a class of their own (`primitive_type`, `true`, an ERROR's
        // fragment): their text is the symbol, so `int` and `char` stay apart.
        return source.get(node.start_byte()..node.end_byte());
    }
    Some(kind)
}

fn line_of(row: usize) -> u32 {
    u32::try_from(row).map_or(u32::MAX, |r| r.saturating_add(1))
}

/// A stable 32-bit symbol for a token's class (FNV-1a): the same in every run and on every
/// machine, so cached results stay valid.
pub(crate) fn symbol(text: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbols(language: Language, source: &str) -> Vec<u32> {
        tokenise(language, source, 1 << 20, 1 << 20)
            .map(|t| t.iter().map(|t| t.symbol).collect())
            .unwrap_or_default()
    }

    #[test]
    fn renaming_comments_and_layout_change_nothing() {
        let a = "int add(int a, int b) { return a + b; } // sum";
        let b = "/* other */\nint plus(int x,\n         int y)\n{\n  return x+y;\n}\n";
        assert_eq!(symbols(Language::C, a), symbols(Language::C, b));
        assert!(!symbols(Language::C, a).is_empty());
    }

    #[test]
    fn literals_are_one_class_but_structure_is_kept() {
        let a = "x = \"hello\" + 3\n";
        let b = "y = 'bye' + 42\n";
        let c = "y = 'bye' - 42\n";
        assert_eq!(symbols(Language::Python, a), symbols(Language::Python, b));
        assert_ne!(symbols(Language::Python, b), symbols(Language::Python, c));
    }

    #[test]
    fn types_stay_apart() {
        assert_ne!(
            symbols(Language::Cpp, "int x;"),
            symbols(Language::Cpp, "char x;")
        );
    }

    #[test]
    fn lines_are_recorded() {
        let t = tokenise(Language::C, "int\nx\n;", 100, 100).unwrap_or_default();
        let lines: Vec<u32> = t.iter().map(|t| t.line).collect();
        assert_eq!(lines, vec![1, 2, 3]);
    }

    #[test]
    fn limits_are_errors() {
        assert_eq!(
            tokenise(Language::C, "int x;", 3, 100),
            Err(TokenError::TooLarge { bytes: 6, limit: 3 })
        );
        assert_eq!(
            tokenise(Language::C, "int x; int y;", 100, 4),
            Err(TokenError::TooManyTokens { limit: 4 })
        );
    }

    #[test]
    fn deep_nesting_and_garbage_do_not_panic() {
        let deep = "(".repeat(20_000);
        let src = format!("int x = {deep};");
        assert!(tokenise(Language::C, &src, 1 << 20, 1 << 20).is_ok());
        assert!(tokenise(Language::Python, "\u{0}\u{ffff}def (((:", 100, 100).is_ok());
    }
}
