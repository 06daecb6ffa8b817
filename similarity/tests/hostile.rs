//! Issue 32: two students' garbage held the report for good (199,000 `}` against
//! `}}}}}}}}}}}}+` 15,000 times: tree-sitter's error recovery and the tiling's rounds were
//! both superlinear on it). Every source is read in linear time, every pair is tiled within a
//! budget of steps linear in its tokens, and what a student hands in cuts only their own
//! sources. The figures (time, memory) are in benches/pathological.rs; here, what can be
//! counted.

use arbiter_similarity::{analyse, Cache, Corpus, Document, Language, Origin, Params, Report};

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

fn report(documents: Vec<Document>) -> Report {
    analyse(
        &Corpus {
            documents,
            templates: vec![],
        },
        &Params::default(),
        &mut Cache::default(),
    )
}

fn labelled(path: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(path);
    std::fs::read_to_string(p).expect("a labelled source")
}

#[test]
fn the_attack_of_issue_32_is_read_and_tiled_in_linear_work() {
    let r = report(vec![
        doc("a", Language::C, "}".repeat(199_000)),
        doc("b", Language::C, "}}}}}}}}}}}}+".repeat(15_000)),
    ]);
    assert!(r.skipped.is_empty(), "{:?}", r.skipped);
    assert_eq!(r.counts.tokens, 394_000);
    let p = &r.pairs[0];
    assert!(p.complete);
    // Every `}` of b is in a tile (15,000 of 12); the `+` never match.
    assert_eq!(p.matched_tokens, 180_000);
    assert_eq!((p.region_count, p.regions.len()), (15_000, 500));
    assert!(
        r.counts.tiling_steps < 8 * r.counts.tokens as u64,
        "{} steps",
        r.counts.tiling_steps
    );
}

#[test]
fn sources_the_parser_cannot_finish_are_read_by_the_lexer() {
    for (language, garbage) in [
        (Language::C, "}}}}}}}}}}}}+".repeat(15_000)),
        (Language::Cpp, "a<".repeat(100_000)),
        (Language::Python, "{}".repeat(100_000)),
    ] {
        let r = report(vec![
            doc("a", language, garbage.clone()),
            doc("b", language, garbage),
        ]);
        assert_eq!(r.counts.lexed, 2, "{language}: {:?}", r.notes);
        assert!(r.notes[0].reason.contains("read by the lexer"));
        assert!(r.pairs[0].complete && r.pairs[0].similarity > 0.99);
    }
}

#[test]
fn a_copy_with_a_pathological_tail_is_still_found() {
    let original = labelled("c/greedy.orig.c");
    let copy = format!(
        "{}\n{}",
        labelled("c/greedy.renamed.c"),
        "}}}}}}}}}}}}+".repeat(5_000)
    );
    let r = report(vec![
        doc("original", Language::C, original),
        doc("copier", Language::C, copy),
        doc("other", Language::C, labelled("c/mobility.c")),
    ]);
    assert_eq!(r.counts.lexed, 1, "{:?}", r.notes);
    let p = r
        .pairs
        .iter()
        .find(|p| p.a.owner == "copier" && p.b.owner == "original")
        .expect("the copy is a pair");
    assert!(p.b.share > 0.95, "{} of the original", p.b.share);
}

#[test]
fn one_students_many_or_huge_sources_cut_only_their_own() {
    let original = labelled("c/greedy.orig.c");
    let mut documents = vec![
        doc("alice", Language::C, original.clone()),
        doc("bob", Language::C, labelled("c/greedy.all.c")),
    ];
    for v in 0..200 {
        let mut d = doc(
            "mallory",
            Language::C,
            format!("{}\nint v{v};\n", "x[i] = y;\n".repeat(5_000)),
        );
        d.version = format!("#{v}");
        documents.push(d);
    }
    let params = Params {
        max_total_bytes: 1 << 20,
        ..Params::default()
    };
    let r = analyse(
        &Corpus {
            documents,
            templates: vec![],
        },
        &params,
        &mut Cache::default(),
    );
    let left_out: Vec<&str> = r.skipped.iter().map(|s| s.owner.as_str()).collect();
    assert!(
        left_out
            .iter()
            .all(|o| *o == "mallory" || o.contains("pairs")),
        "{left_out:?}"
    );
    let copy = r
        .pairs
        .iter()
        .find(|p| p.a.owner == "alice" && p.b.owner == "bob")
        .expect("alice and bob still compared");
    assert!(copy.similarity > 0.85);
    // Mallory keeps her latest 50 versions at most, and of them what fits in 1 MiB.
    assert!(
        r.counts.documents <= 2 + (1 << 20) / 50_000,
        "{}",
        r.counts.documents
    );
    assert!(r
        .skipped
        .iter()
        .any(|s| s.reason.contains("150 of 200 versions")));
    assert!(r.skipped.iter().any(|s| s.reason.contains("fair share")));
}

#[test]
fn a_source_the_parser_gave_up_on_is_lexed_at_once_in_later_runs() {
    let documents = vec![
        doc("a", Language::C, "}".repeat(5_000)),
        doc("b", Language::C, "}}}}}}}}}}}}+".repeat(400)),
    ];
    let corpus = Corpus {
        documents,
        templates: vec![],
    };
    let never = arbiter_similarity::ParseBudget {
        base_ms: 0,
        ns_per_byte: 0,
        memory_base: 0,
        memory_per_byte: 0,
    };
    let mut cache = Cache::default();
    let first = Params {
        parse: never,
        ..Params::default()
    };
    assert_eq!(analyse(&corpus, &first, &mut cache).counts.lexed, 2);
    // With all the time it needs the parser would finish these small files, but it is not
    // asked again: the cache remembers them, and their tiles (on the lexer's tokens) stay
    // valid.
    let generous = Params {
        parse: arbiter_similarity::ParseBudget {
            base_ms: 600_000,
            ns_per_byte: 0,
            memory_base: 1 << 30,
            memory_per_byte: 0,
        },
        ..Params::default()
    };
    let again = analyse(&corpus, &generous, &mut cache);
    assert_eq!(again.counts.lexed, 2);
    assert_eq!((again.counts.compared, again.counts.from_cache), (0, 1));
    let fresh = analyse(&corpus, &generous, &mut Cache::default());
    assert_eq!(fresh.counts.lexed, 0);
}
