//! The report on hostile inputs (issue 32): two students' garbage that tree-sitter and greedy
//! string tiling both took superlinear time on (199,000 `}` against `}}}}}}}}}}}}+` 15,000
//! times: 19 minutes and 980 MB, unfinished), and the other degenerate streams a student
//! controls. Each case runs in a child process, so that its peak memory is its own; prints
//! wall time, peak memory, which tokeniser read each source, the tiling's steps per token and
//! whether it finished within its budget. `cargo bench -p arbiter-similarity --bench pathological`.

use std::time::Instant;

use arbiter_similarity::{analyse, Cache, Corpus, Document, Language, Origin, Params};

#[path = "../tests/support/synthetic.rs"]
mod synthetic;

fn doc(owner: &str, language: Language, source: String) -> Document {
    Document {
        owner: owner.into(),
        version: "1".into(),
        id: None,
        language,
        origin: Origin::Student,
        source,
    }
}

/// A line of ordinary code repeated, one token changed every `every` lines (a different
/// change on each side).
fn mutated(lines: usize, every: usize, seed: usize) -> String {
    (0..lines)
        .map(|i| {
            if i % every == (seed * 7) % every {
                format!("x[{i}] = y - {seed};\n")
            } else {
                "x[i] = y[i] + z * 2;\n".to_string()
            }
        })
        .collect()
}

struct Case {
    name: &'static str,
    docs: fn() -> Vec<Document>,
    all_versions: bool,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "issue 32: 199,000 `}` v `}}}}}}}}}}}}+` x 15,000 (C)",
            docs: || {
                vec![
                    doc("a", Language::C, "}".repeat(199_000)),
                    doc("b", Language::C, "}}}}}}}}}}}}+".repeat(15_000)),
                ]
            },
            all_versions: false,
        },
        Case {
            name: "one token repeated, both sides: 199,000 `}` (C)",
            docs: || {
                vec![
                    doc("a", Language::C, "}".repeat(199_000)),
                    doc("b", Language::C, "}".repeat(199_000)),
                ]
            },
            all_versions: false,
        },
        Case {
            name: "two alternating: `}+` x 99,000 v `+}` x 99,000 (C)",
            docs: || {
                vec![
                    doc("a", Language::C, "}+".repeat(99_000)),
                    doc("b", Language::C, "+}".repeat(99_000)),
                ]
            },
            all_versions: false,
        },
        Case {
            name: "a line repeated 12,000 times, mutated every 50 lines (C)",
            docs: || {
                vec![
                    doc("a", Language::C, mutated(12_000, 50, 1)),
                    doc("b", Language::C, mutated(12_000, 50, 2)),
                ]
            },
            all_versions: false,
        },
        Case {
            name: "`{}` x 100,000 (Python: slow to parse)",
            docs: || {
                vec![
                    doc("a", Language::Python, "{}".repeat(100_000)),
                    doc("b", Language::Python, "{}".repeat(99_000)),
                ]
            },
            all_versions: false,
        },
        Case {
            name: "`f\"` x 100,000 v `a<` x 100,000 (C++: slow to parse)",
            docs: || {
                vec![
                    doc("a", Language::Cpp, "f\"".repeat(100_000)),
                    doc("b", Language::Cpp, "a<".repeat(100_000)),
                ]
            },
            all_versions: false,
        },
        Case {
            name: "100 students (1,000 lines each) and 10 attackers (200 KB of garbage each)",
            docs: || {
                let mut docs = synthetic::documents(100, 1000, 10);
                for n in 0..10 {
                    let unit = ["}}}}}}}}}}}}+", "}+", "}", "x[i] = y;\n", "{}"][n % 5];
                    let reps = 200_000 / unit.len() - n;
                    docs.push(doc(&format!("attacker{n}"), Language::C, unit.repeat(reps)));
                }
                docs
            },
            all_versions: false,
        },
        Case {
            name: "all versions: 100 students, one of whom handed in 2,000 versions",
            docs: || {
                let mut docs = synthetic::documents(100, 300, 10);
                let base = docs[0].source.clone();
                for v in 0..2000 {
                    let mut d = doc("prolific", Language::C, format!("{base}\nint v{v};\n"));
                    d.version = format!("#{v}");
                    docs.push(d);
                }
                docs
            },
            all_versions: true,
        },
    ]
}

fn run(case: &Case) {
    let mut documents = (case.docs)();
    if !case.all_versions {
        documents = Corpus {
            documents,
            templates: vec![],
        }
        .latest_only()
        .documents;
    }
    let bytes: usize = documents.iter().map(|d| d.source.len()).sum();
    let corpus = Corpus {
        documents,
        templates: vec![],
    };
    let params = Params::default();
    let mut cache = Cache::default();
    let started = Instant::now();
    let report = analyse(&corpus, &params, &mut cache);
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds();
    let c = &report.counts;
    let top = report.pairs.first().map_or("none".to_string(), |p| {
        format!(
            "{} ~ {} {:.0}%{}",
            p.a.owner,
            p.b.owner,
            p.similarity * 100.0,
            if p.complete {
                ""
            } else {
                " (cut at its budget)"
            }
        )
    });
    println!(
        "  {:.2} s ({:.2} s of CPU), peak {} MB; {} sources ({} KB), {} tokens, {} read by the lexer; {} pairs tiled, {} cut; {:.1} tiling steps a token; top pair {top}; {} left out",
        wall,
        cpu,
        peak_mb(),
        c.documents,
        bytes / 1024,
        c.tokens,
        c.lexed,
        c.compared,
        c.cut,
        c.tiling_steps as f64 / c.tokens.max(1) as f64,
        report.skipped.len()
    );
    for s in &report.skipped {
        println!("    left out: {} {}: {}", s.owner, s.version, s.reason);
    }
    // Again with the cache: tiles kept, and sources the parser gave up on lexed at once.
    let started = Instant::now();
    analyse(&corpus, &params, &mut cache);
    println!(
        "  again, from the cache: {:.2} s ({:.2} s of CPU)",
        started.elapsed().as_secs_f64(),
        cpu_seconds() - cpu
    );
}

/// CPU time of this process so far (the machine may be shared: wall time is not all ours).
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// The process's peak resident memory (VmHWM), in MB.
fn peak_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

fn main() {
    let cases = cases();
    // A child runs one case: `pathological --case N`.
    let args: Vec<String> = std::env::args().collect();
    if let Some(n) = args
        .iter()
        .position(|a| a == "--case")
        .and_then(|p| args.get(p + 1))
        .and_then(|n| n.parse::<usize>().ok())
    {
        if let Some(case) = cases.get(n) {
            run(case);
        }
        return;
    }
    let exe = std::env::current_exe().expect("the bench's own path");
    println!("{} threads", Params::default().threads);
    for (n, case) in cases.iter().enumerate() {
        println!("{}", case.name);
        let status = std::process::Command::new(&exe)
            .args(["--case", &n.to_string()])
            .status()
            .expect("a child process");
        assert!(status.success(), "case {n} failed");
    }
}
