//! The benchmark's generated class, small: planted copies lead the report, and no
//! independent pair comes near them.

use arbiter_similarity::{analyse, Cache, Corpus, Params};

mod support;

#[test]
fn planted_copies_lead_a_generated_class() {
    let documents = support::synthetic::documents(24, 300, 4);
    let report = analyse(
        &Corpus {
            documents,
            templates: vec![],
        },
        &Params::default(),
        &mut Cache::default(),
    );
    let planted = |a: &str, b: &str| {
        let n = |s: &str| {
            s.trim_start_matches("student")
                .parse::<usize>()
                .unwrap_or(usize::MAX)
        };
        let (x, y) = (n(a).min(n(b)), n(a).max(n(b)));
        x % 2 == 0 && y == x + 1 && y < 8
    };
    let top: Vec<bool> = report
        .pairs
        .iter()
        .take(4)
        .map(|p| planted(&p.a.owner, &p.b.owner))
        .collect();
    assert_eq!(
        top,
        vec![true; 4],
        "{:?}",
        &report
            .pairs
            .iter()
            .take(6)
            .map(|p| (&p.a.owner, &p.b.owner, p.similarity))
            .collect::<Vec<_>>()
    );
    let rest = report.pairs.get(4).map_or(0.0, |p| p.similarity);
    assert!(report.pairs[3].similarity > 0.9 && rest < 0.5, "{rest}");
}
