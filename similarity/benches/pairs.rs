//! The benchmark of issue 27: 300 students' C sources of about 1,000 lines each, all pairs.
//! Prints the figures; `cargo bench -p arbiter-similarity`.

use std::time::Instant;

use arbiter_similarity::{analyse, Cache, Corpus, Params};

#[path = "../tests/support/synthetic.rs"]
mod synthetic;

fn corpus(students: usize) -> Corpus {
    let documents = synthetic::documents(students, 1000, 10);
    Corpus {
        documents,
        templates: vec![],
    }
}

fn main() {
    let students = 300;
    let corpus = corpus(students);
    let lines: usize = corpus
        .documents
        .iter()
        .map(|d| d.source.lines().count())
        .sum();
    let params = Params::default();
    println!(
        "{students} students, {} lines on average, {} pairs, {} threads",
        lines / students,
        students * (students - 1) / 2,
        params.threads
    );
    let mut cache = Cache::default();
    let started = Instant::now();
    let report = analyse(&corpus, &params, &mut cache);
    let cold = started.elapsed();
    let planted = report
        .pairs
        .iter()
        .take(10)
        .filter(|p| p.similarity > 0.9)
        .count();
    println!(
        "cold: {:.2} s ({} candidate pairs tiled, {} pairs reported, top 10 planted copies found: {planted}/10)",
        cold.as_secs_f64(),
        report.counts.compared,
        report.pairs.len()
    );
    let started = Instant::now();
    let again = analyse(&corpus, &params, &mut cache);
    println!(
        "again, from the cache: {:.2} s ({} tiled, {} from the cache)",
        started.elapsed().as_secs_f64(),
        again.counts.compared,
        again.counts.from_cache
    );
    // Every pair that shares a fingerprint tiled, no candidate threshold: the worst case.
    let exhaustive = Params {
        min_candidate: 0.0,
        max_tiled: usize::MAX,
        ..params.clone()
    };
    let started = Instant::now();
    let every = analyse(&corpus, &exhaustive, &mut Cache::default());
    println!(
        "exhaustive (every pair sharing a fingerprint tiled): {:.2} s ({} pairs tiled)",
        started.elapsed().as_secs_f64(),
        every.counts.compared
    );
    assert_eq!(planted, 10, "the planted copies must lead the report");
}
