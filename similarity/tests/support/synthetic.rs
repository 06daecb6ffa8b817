//! Generated students' C sources for the benchmark and its test: each student's program is
//! drawn from a small random grammar (functions of declarations, assignments, conditionals,
//! loops, calls), so independent students share only idioms. A planted copy reuses another
//! student's structure with its own identifiers, constants and layout.

/// xorshift64*: deterministic, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const OPS: &[&str] = &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"];
const CMPS: &[&str] = &["<", ">", "<=", ">=", "==", "!="];
const TYPES: &[&str] = &["int", "long", "unsigned", "short", "char"];

/// One student's program: `structure` decides the code, `names` the identifiers, constants
/// and indentation; two students with the same `structure` are copies of each other.
pub fn program(structure: u64, names: u64, lines: usize) -> String {
    let mut s = Rng::new(structure);
    let mut n = Rng::new(names ^ 0x5555);
    let indent = ["  ", "    ", "\t"][n.below(3)];
    let mut out = String::from("#include <stdio.h>\n#include <stdlib.h>\n\n");
    let mut f = 0;
    while out.lines().count() < lines {
        out.push_str(&function(&mut s, &mut n, f, indent));
        f += 1;
    }
    out.push_str("int main(void) {\n");
    out.push_str(&format!(
        "{indent}printf(\"%d\\n\", f{}(3, 4));\n{indent}return 0;\n}}\n",
        names % 7
    ));
    out
}

fn ident(n: &mut Rng, kind: usize) -> String {
    const STEMS: &[&str] = &[
        "val", "tmp", "acc", "cnt", "idx", "buf", "res", "sum", "key", "pos",
    ];
    format!("{}{}_{}", STEMS[n.below(STEMS.len())], kind, n.below(100))
}

fn function(s: &mut Rng, n: &mut Rng, index: usize, indent: &str) -> String {
    let ty = TYPES[s.below(TYPES.len())];
    let vars: Vec<String> = (0..4).map(|k| ident(n, k)).collect();
    let mut out = format!(
        "{ty} f{index}_{}(int {}, int {}) {{\n{indent}int {} = {}, {} = {};\n",
        n.below(1000),
        vars[0],
        vars[1],
        vars[2],
        n.below(50),
        vars[3],
        n.below(50)
    );
    for _ in 0..(6 + s.below(8)) {
        statement(s, n, &vars, indent, 1, &mut out);
    }
    out.push_str(&format!("{indent}return {};\n}}\n\n", vars[s.below(4)]));
    out
}

fn expr(s: &mut Rng, n: &mut Rng, vars: &[String], depth: usize) -> String {
    if depth == 0 || s.below(3) == 0 {
        return if s.below(3) == 0 {
            n.below(1000).to_string()
        } else {
            vars[s.below(vars.len())].clone()
        };
    }
    let op = OPS[s.below(OPS.len())];
    format!(
        "({} {op} {})",
        expr(s, n, vars, depth - 1),
        expr(s, n, vars, depth - 1)
    )
}

fn statement(
    s: &mut Rng,
    n: &mut Rng,
    vars: &[String],
    indent: &str,
    level: usize,
    out: &mut String,
) {
    let pad = indent.repeat(level);
    let v = |s: &mut Rng| vars[s.below(vars.len())].clone();
    match s.below(if level > 2 { 5 } else { 8 }) {
        0 => out.push_str(&format!("{pad}{} = {};\n", v(s), expr(s, n, vars, 3))),
        1 => out.push_str(&format!("{pad}{} += {};\n", v(s), expr(s, n, vars, 2))),
        2 => out.push_str(&format!(
            "{pad}{} = {} ? {} : {};\n",
            v(s),
            expr(s, n, vars, 1),
            expr(s, n, vars, 1),
            expr(s, n, vars, 2)
        )),
        3 => out.push_str(&format!(
            "{pad}printf(\"{}\\n\", {});\n",
            "%d ".repeat(1 + s.below(3)).trim_end(),
            (0..3).map(|_| v(s)).collect::<Vec<_>>().join(", ")
        )),
        4 => out.push_str(&format!(
            "{pad}{}[{} % 64] {}= {};\n",
            v(s),
            v(s),
            OPS[s.below(4)],
            expr(s, n, vars, 1)
        )),
        5 => {
            let c = format!(
                "{} {} {}",
                v(s),
                CMPS[s.below(CMPS.len())],
                expr(s, n, vars, 1)
            );
            out.push_str(&format!("{pad}if ({c}) {{\n"));
            for _ in 0..(1 + s.below(3)) {
                statement(s, n, vars, indent, level + 1, out);
            }
            out.push_str(&format!("{pad}}}\n"));
        }
        6 => {
            let i = v(s);
            out.push_str(&format!(
                "{pad}for ({i} = 0; {i} < {}; {i}++) {{\n",
                n.below(100)
            ));
            for _ in 0..(1 + s.below(3)) {
                statement(s, n, vars, indent, level + 1, out);
            }
            out.push_str(&format!("{pad}}}\n"));
        }
        _ => {
            let c = format!("{} {} {}", v(s), CMPS[s.below(CMPS.len())], n.below(100));
            out.push_str(&format!("{pad}while ({c}) {{\n"));
            statement(s, n, vars, indent, level + 1, out);
            out.push_str(&format!("{pad}{}--;\n{pad}}}\n", v(s)));
        }
    }
}

/// The class as the report's documents, one submission each.
pub fn documents(
    students: usize,
    lines: usize,
    copies: usize,
) -> Vec<arbiter_similarity::Document> {
    class(students, lines, copies)
        .into_iter()
        .map(|(owner, source)| arbiter_similarity::Document {
            version: "1".into(),
            owner,
            id: None,
            language: arbiter_similarity::Language::C,
            origin: arbiter_similarity::Origin::Student,
            source,
        })
        .collect()
}

/// `students` programs of about `lines` lines; students 1, 3, 5, ... up to `2 * copies`
/// copy the student before them (renamed, renumbered, re-indented).
pub fn class(students: usize, lines: usize, copies: usize) -> Vec<(String, String)> {
    (0..students)
        .map(|i| {
            let structure = if i % 2 == 1 && i < 2 * copies {
                i - 1
            } else {
                i
            };
            (
                format!("student{i:03}"),
                program(structure as u64 + 1, i as u64 + 1, lines),
            )
        })
        .collect()
}
