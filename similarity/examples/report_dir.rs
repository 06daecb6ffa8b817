//! Prints the report over the source files of one directory (one file per student), with an
//! optional template file: `cargo run -p arbiter-similarity --example report_dir -- DIR [TEMPLATE]`.
//! Used by scripts/similarity-peers.sh to compare our ranking with a peer tool's.

use std::path::PathBuf;

use arbiter_similarity::{
    analyse, export, Cache, Corpus, Document, Language, Origin, Params, Template,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: report_dir DIR [TEMPLATE]")?);
    let mut corpus = Corpus::default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    for path in files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let Some(language) = Language::from_file_name(&name) else {
            continue;
        };
        corpus.documents.push(Document {
            owner: name.clone(),
            version: name,
            id: None,
            language,
            origin: Origin::Student,
            source: std::fs::read_to_string(&path)?,
        });
    }
    if let Some(t) = args.next() {
        let path = PathBuf::from(t);
        let name = path.display().to_string();
        corpus.templates.push(Template {
            language: Language::from_file_name(&name).ok_or("template: unknown language")?,
            name,
            source: std::fs::read_to_string(&path)?,
        });
    }
    // Every pair measured (no candidate threshold), so that every pair has a score to rank.
    let params = Params {
        min_candidate: 0.0,
        ..Params::default()
    };
    let report = analyse(&corpus, &params, &mut Cache::default());
    println!("{}", export::json(&report)?);
    Ok(())
}
