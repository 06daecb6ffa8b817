//! Every size and count that comes from outside is bounded: over a limit, a source or a pair is
//! left out with a note, never a panic.

use arbiter_similarity::{analyse, Cache, Corpus, Document, Language, Origin, Params};

fn doc(owner: &str, source: String) -> Document {
    Document {
        owner: owner.into(),
        version: "1".into(),
        id: None,
        language: Language::C,
        origin: Origin::Student,
        source,
    }
}

fn program(seed: usize) -> String {
    (0..40)
        .map(|i| format!("int f{i}(int a) {{ return a * {seed} + {i} - (a >> 2); }}\n"))
        .collect()
}

#[test]
fn oversized_sources_are_left_out_with_a_note() {
    let huge = "int x;\n".repeat(300_000);
    let corpus = Corpus {
        documents: vec![doc("big", huge), doc("a", program(1)), doc("b", program(2))],
        templates: vec![],
    };
    let report = analyse(&corpus, &Params::default(), &mut Cache::default());
    assert_eq!(report.skipped.len(), 1, "{:?}", report.skipped);
    assert_eq!(report.skipped[0].owner, "big");
    assert!(report.skipped[0].reason.contains("over the limit"));
    assert_eq!(report.counts.documents, 2);
    assert!(!report.pairs.is_empty());
}

#[test]
fn too_many_tokens_documents_and_pairs_are_notes() {
    let docs: Vec<Document> = (0..8).map(|i| doc(&format!("s{i}"), program(1))).collect();
    let params = Params {
        max_tokens: 100,
        ..Params::default()
    };
    let report = analyse(
        &Corpus {
            documents: docs.clone(),
            templates: vec![],
        },
        &params,
        &mut Cache::default(),
    );
    assert_eq!(report.skipped.len(), 8);
    assert!(report.skipped.iter().all(|s| s.reason.contains("tokens")));

    let params = Params {
        max_documents: 5,
        max_tiled: 3,
        ..Params::default()
    };
    let report = analyse(
        &Corpus {
            documents: docs,
            templates: vec![],
        },
        &params,
        &mut Cache::default(),
    );
    assert_eq!(report.counts.documents, 5);
    assert_eq!(report.counts.compared, 3);
    let reasons: Vec<&str> = report.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert!(
        reasons.iter().any(|r| r.contains("at most 5 sources")),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains("not measured")),
        "{reasons:?}"
    );
}

#[test]
fn binary_and_hostile_text_does_not_panic() {
    let junk: String = (0..20_000u32)
        .map(|i| char::from_u32((i * 7919) % 0x3000).unwrap_or('?'))
        .collect();
    let nested = format!(
        "int main() {{ return {}0{}; }}",
        "(".repeat(50_000),
        ")".repeat(50_000)
    );
    let mut docs = vec![
        doc("junk", junk.clone()),
        doc("junk2", junk),
        doc("deep", nested),
    ];
    docs.push(Document {
        language: Language::Python,
        ..doc("py", "def f(:\n\t\x00".repeat(1000))
    });
    docs.push(Document {
        language: Language::Cpp,
        ..doc("cpp", "template<".repeat(5000))
    });
    let report = analyse(
        &Corpus {
            documents: docs,
            templates: vec![],
        },
        &Params::default(),
        &mut Cache::default(),
    );
    assert!(report.counts.documents + report.skipped.len() == 5);
}
