//! `arbiter contest similarity DIR`: the copied-code report over a contest's submissions, as a
//! ranked list per language, JSON (`--json`) or CSV (`--csv FILE`).

use std::path::PathBuf;

use arbiter_server::routes::similarity::Options;
use arbiter_similarity::{export, Pair, Report};
use clap::Args;

#[derive(Args, Debug)]
pub struct SimilarityArgs {
    pub dir: PathBuf,
    /// Every version of each student, not only the latest submission
    #[arg(long)]
    pub all_versions: bool,
    /// Template code that never counts as shared (file or folder; repeatable), besides
    /// DIR/similarity/template
    #[arg(long, value_name = "PATH")]
    pub template: Vec<PathBuf>,
    /// An earlier year's sources, one file per student (folder; repeatable), besides
    /// DIR/similarity/earlier
    #[arg(long, value_name = "DIR")]
    pub earlier: Vec<PathBuf>,
    /// Print the whole report (pairs with their matched regions) as JSON
    #[arg(long)]
    pub json: bool,
    /// Write one row per pair to this CSV file
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Pairs printed per language (the exports have all)
    #[arg(long, default_value_t = 30)]
    pub top: usize,
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,
}

pub async fn run(a: &SimilarityArgs) -> anyhow::Result<()> {
    let opts = Options {
        all_versions: a.all_versions,
        templates: a.template.clone(),
        earlier: a.earlier.clone(),
    };
    let report = arbiter_server::similarity(&a.dir, a.db.as_deref(), &opts).await?;
    if let Some(path) = &a.csv {
        std::fs::write(path, export::csv(&report)?)?;
        eprintln!("{} pairs written to {}", report.pairs.len(), path.display());
    }
    if a.json {
        println!("{}", export::json(&report)?);
    } else {
        print_text(&report, a.top);
    }
    Ok(())
}

fn print_text(report: &Report, top: usize) {
    let c = &report.counts;
    println!(
        "{} sources, {} candidate pairs ({} compared now, {} from the cache)",
        c.documents, c.candidate_pairs, c.compared, c.from_cache
    );
    let mut languages: Vec<_> = report.pairs.iter().map(|p| p.language).collect();
    languages.sort();
    languages.dedup();
    for lang in languages {
        println!("\n{lang}:");
        println!("   #   sim   longest  student (share)  ~  student (share)");
        let pairs = report.pairs.iter().filter(|p| p.language == lang);
        for (n, p) in pairs.take(top).enumerate() {
            println!("{}", line(n + 1, p));
        }
    }
    if report.pairs.is_empty() {
        println!("no shared code beyond the template");
    }
    for s in &report.skipped {
        eprintln!("left out: {} {}: {}", s.owner, s.version, s.reason);
    }
    for s in &report.notes {
        eprintln!("note: {} {}: {}", s.owner, s.version, s.reason);
    }
}

fn line(rank: usize, p: &Pair) -> String {
    let side = |s: &arbiter_similarity::Side| {
        format!("{} {} ({:.0}%)", s.owner, s.version, s.share * 100.0)
    };
    let b = if p.earlier {
        format!("earlier year: {} ({:.0}%)", p.b.version, p.b.share * 100.0)
    } else {
        side(&p.b)
    };
    // A pair cut at its work budget shares at least this much.
    let cut = if p.complete {
        ""
    } else {
        "  (cut at its budget)"
    };
    format!(
        "{rank:>4}  {:>3.0}%  {:>4} lines  {}  ~  {b}{cut}",
        p.similarity * 100.0,
        p.longest_lines,
        side(&p.a),
    )
}
