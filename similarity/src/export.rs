//! The report as JSON (everything, regions included) and CSV (one row per pair).

use crate::report::Report;

pub fn json(report: &Report) -> serde_json::Result<String> {
    serde_json::to_string_pretty(report)
}

/// One row per pair: who, how much, the longest fragment, whether its measure is complete (a
/// pair cut at its work budget shares at least this much).
pub fn csv(report: &Report) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "rank",
        "language",
        "a",
        "a_version",
        "b",
        "b_version",
        "b_earlier_year",
        "similarity",
        "a_share",
        "b_share",
        "matched_tokens",
        "longest_lines",
        "longest_tokens",
        "complete",
    ])?;
    for (n, p) in report.pairs.iter().enumerate() {
        w.write_record([
            (n + 1).to_string(),
            p.language.to_string(),
            p.a.owner.clone(),
            p.a.version.clone(),
            p.b.owner.clone(),
            p.b.version.clone(),
            p.earlier.to_string(),
            format!("{:.4}", p.similarity),
            format!("{:.4}", p.a.share),
            format!("{:.4}", p.b.share),
            p.matched_tokens.to_string(),
            p.longest_lines.to_string(),
            p.longest_tokens.to_string(),
            p.complete.to_string(),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
