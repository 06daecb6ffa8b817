//! The labelled set (tests/corpus): sample bots, their disguised copies, and bots written
//! independently for the same game. Every disguised copy must rank above every unrelated pair,
//! and template code alone must score near zero.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use arbiter_similarity::{analyse, Cache, Corpus, Document, Language, Origin, Params, Template};

fn corpus_dir(lang: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(lang)
}

/// Each file is one student; its group is the name before the first dot (`greedy.renamed.c`
/// is a copy of `greedy.orig.c`; `mobility.c` stands alone).
fn students(lang: &str) -> Vec<Document> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir(lang))
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files.iter().map(|p| student(p)).collect()
}

fn student(path: &Path) -> Document {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .expect("file name");
    let owner = name
        .rsplit_once('.')
        .map_or(name, |(stem, _)| stem)
        .to_string();
    Document {
        owner,
        version: name.to_string(),
        id: None,
        language: Language::from_file_name(name).expect("a known extension"),
        origin: Origin::Student,
        source: std::fs::read_to_string(path).expect("source"),
    }
}

fn group(owner: &str) -> &str {
    owner.split('.').next().unwrap_or(owner)
}

/// Every pair measured, however few fingerprints it shares: unrelated pairs get their real
/// (small) score rather than none.
fn exhaustive() -> Params {
    Params {
        min_candidate: 0.0,
        ..Params::default()
    }
}

/// The similarity of every pair of owners (0 for a pair the report does not list).
fn scores(corpus: &Corpus) -> HashMap<(String, String), f64> {
    scores_with(corpus, &exhaustive())
}

fn scores_with(corpus: &Corpus, params: &Params) -> HashMap<(String, String), f64> {
    let report = analyse(corpus, params, &mut Cache::default());
    assert!(report.skipped.is_empty(), "{:?}", report.skipped);
    let mut out = HashMap::new();
    for p in &report.pairs {
        out.insert((p.a.owner.clone(), p.b.owner.clone()), p.similarity);
        out.insert((p.b.owner.clone(), p.a.owner.clone()), p.similarity);
    }
    out
}

fn check_set(lang: &str) {
    let docs = students(lang);
    let owners: Vec<String> = docs.iter().map(|d| d.owner.clone()).collect();
    let corpus = Corpus {
        documents: docs,
        templates: vec![],
    };
    let scores = scores(&corpus);
    let found = scores_with(&corpus, &Params::default());
    let (mut copies, mut unrelated) = (Vec::new(), Vec::new());
    for (i, a) in owners.iter().enumerate() {
        for b in &owners[i + 1..] {
            let s = scores.get(&(a.clone(), b.clone())).copied().unwrap_or(0.0);
            if group(a) == group(b) {
                // The default candidate filter must not lose a copy.
                let by_default = found.get(&(a.clone(), b.clone())).copied().unwrap_or(0.0);
                assert!(
                    (by_default - s).abs() < 1e-9,
                    "{a} {b}: {by_default} vs {s}"
                );
                copies.push((s, a, b));
            } else {
                unrelated.push((s, a, b));
            }
        }
    }
    copies.sort_by(|x, y| x.0.total_cmp(&y.0));
    unrelated.sort_by(|x, y| y.0.total_cmp(&x.0));
    let weakest = copies.first().expect("copies in the set");
    let strongest = unrelated.first().expect("unrelated pairs in the set");
    eprintln!("{lang}: weakest copy {weakest:?}, strongest unrelated {strongest:?}");
    assert!(copies.len() >= 28 && unrelated.len() >= 20);
    assert!(
        weakest.0 > strongest.0,
        "{lang}: copy {weakest:?} does not rank above unrelated {strongest:?}"
    );
}

#[test]
fn every_disguised_c_copy_ranks_above_every_unrelated_pair() {
    check_set("c");
}

#[test]
fn every_disguised_python_copy_ranks_above_every_unrelated_pair() {
    check_set("python");
}

/// Two students who hand in the template with their own, different code added.
fn template_pair(lang: &str, ext: &str) -> (Corpus, Template) {
    let template = std::fs::read_to_string(corpus_dir(lang).join(format!("greedy.orig.{ext}")))
        .expect("template");
    let own = |name: &str| {
        let extra = std::fs::read_to_string(corpus_dir(lang).join(format!("{name}.{ext}")))
            .expect("own code");
        format!("{template}\n{extra}")
    };
    let doc = |owner: &str, source: String| Document {
        owner: owner.into(),
        version: "1".into(),
        id: None,
        language: Language::from_file_name(&format!("x.{ext}")).expect("language"),
        origin: Origin::Student,
        source,
    };
    let t = Template {
        name: "starter".into(),
        language: Language::from_file_name(&format!("x.{ext}")).expect("language"),
        source: template.clone(),
    };
    let documents = vec![
        doc("just-template", template.clone()),
        doc("template-and-mobility", own("mobility")),
        doc("template-and-minimax", own("minimax")),
    ];
    (
        Corpus {
            documents,
            templates: vec![],
        },
        t,
    )
}

fn score(scores: &HashMap<(String, String), f64>, a: &str, b: &str) -> f64 {
    scores
        .get(&(a.to_string(), b.to_string()))
        .copied()
        .unwrap_or(0.0)
}

#[test]
fn template_code_alone_scores_near_zero() {
    for (lang, ext) in [("c", "c"), ("python", "py")] {
        let (mut corpus, template) = template_pair(lang, ext);
        let own_code = scores(&Corpus {
            documents: students(lang),
            templates: vec![],
        });
        let own_code = score(&own_code, "minimax", "mobility");
        // Without the template named, the shared starter code is (rightly) a match.
        let unnamed = scores(&corpus);
        let both = score(&unnamed, "template-and-minimax", "template-and-mobility");
        assert!(both > own_code + 0.3, "{lang}: {both} vs {own_code}");
        corpus.templates.push(template);
        let named = scores(&corpus);
        for other in ["template-and-minimax", "template-and-mobility"] {
            let alone = score(&named, "just-template", other);
            assert!(
                alone < 0.01,
                "{lang}: template alone scored {alone} against {other}"
            );
        }
        // What remains between the two is what their own code shares, and no more.
        let both = score(&named, "template-and-minimax", "template-and-mobility");
        assert!(
            both <= own_code + 0.01,
            "{lang}: {both} vs their own code's {own_code}"
        );
    }
}

#[test]
fn a_match_with_an_earlier_year_is_shown_as_such() {
    let mut docs = students("c");
    docs.retain(|d| {
        d.owner == "greedy.orig" || d.owner == "greedy.renamed" || d.owner == "weights"
    });
    for d in &mut docs {
        if d.owner == "greedy.orig" {
            d.origin = Origin::Earlier;
            d.owner = "2025/alice".into();
        }
    }
    let report = analyse(
        &Corpus {
            documents: docs,
            templates: vec![],
        },
        &Params::default(),
        &mut Cache::default(),
    );
    let top = report.pairs.first().expect("a pair");
    assert!(top.earlier);
    assert_eq!(
        (top.a.owner.as_str(), top.b.owner.as_str()),
        ("greedy.renamed", "2025/alice")
    );
    assert!(top.similarity > 0.5);
    assert!(top.longest_lines >= 5, "{}", top.longest_lines);
}

#[test]
fn all_versions_finds_a_copy_that_was_edited_away() {
    let docs = students("c");
    let take = |owner: &str| {
        docs.iter()
            .find(|d| d.owner == owner)
            .cloned()
            .expect("doc")
    };
    let mut copied = take("greedy.renamed");
    copied.owner = "bob".into();
    copied.version = "1".into();
    let mut rewritten = take("minimax");
    rewritten.owner = "bob".into();
    rewritten.version = "2".into();
    let corpus = Corpus {
        documents: vec![take("greedy.orig"), copied, rewritten],
        templates: vec![],
    };
    let all = analyse(&corpus, &Params::default(), &mut Cache::default());
    let latest = analyse(
        &corpus.clone().latest_only(),
        &Params::default(),
        &mut Cache::default(),
    );
    let bob = |r: &arbiter_similarity::Report| {
        r.pairs
            .iter()
            .find(|p| p.a.owner == "bob" || p.b.owner == "bob")
            .map(|p| (p.similarity, p.a.version.clone()))
    };
    let found = bob(&all).expect("found with all versions");
    assert!(found.0 > 0.5 && found.1 == "1", "{found:?}");
    assert!(bob(&latest).is_none_or(|(s, _)| s < 0.2));
}

#[test]
fn the_cache_skips_pairs_already_compared() {
    let corpus = Corpus {
        documents: students("python"),
        templates: vec![],
    };
    let mut cache = Cache::default();
    let first = analyse(&corpus, &Params::default(), &mut cache);
    assert!(first.counts.compared > 0);
    assert_eq!(first.counts.from_cache, 0);
    let second = analyse(&corpus, &Params::default(), &mut cache);
    assert_eq!(second.counts.compared, 0);
    assert_eq!(second.counts.from_cache, first.counts.compared);
    assert_eq!(first.pairs.len(), second.pairs.len());
    for (x, y) in first.pairs.iter().zip(&second.pairs) {
        assert_eq!((x.similarity, &x.regions), (y.similarity, &y.regions));
    }
}

/// The fallback lexer (for sources the parser does not finish within its budget) gives the
/// parser's tokens on the whole labelled set, so that a copy with a pathological tail is
/// still compared token for token with its original.
#[test]
fn the_lexer_reads_the_labelled_set_as_the_parser_does() {
    use arbiter_similarity::{lexer, tokens, ParseBudget};
    for lang in ["c", "python"] {
        let docs = students(lang);
        for d in &docs {
            let parsed = tokens::tokenise(d.language, &d.source, 1 << 20, 1 << 20);
            let lexed = lexer::lex(d.language, &d.source, 1 << 20);
            assert!(parsed.is_ok() && parsed == lexed, "{}", d.version);
        }
        let corpus = Corpus {
            documents: docs,
            templates: vec![],
        };
        let never_parse = Params {
            parse: ParseBudget {
                base_ms: 0,
                ns_per_byte: 0,
                memory_base: 0,
                memory_per_byte: 0,
            },
            ..exhaustive()
        };
        let report = analyse(&corpus, &never_parse, &mut Cache::default());
        assert_eq!(report.counts.lexed, corpus.documents.len());
        assert_eq!(report.notes.len(), corpus.documents.len());
        assert!(report.notes[0].reason.contains("read by the lexer"));
        assert_eq!(
            scores_with(&corpus, &never_parse),
            scores(&corpus),
            "{lang}"
        );
    }
}
