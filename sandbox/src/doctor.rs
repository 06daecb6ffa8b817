//! Text for `arbiter doctor`: which containment layers work here.

use super::containment::Containment;

/// A human-readable table of [`Containment::report`].
pub fn render(containment: &Containment) -> String {
    let report = containment.report();
    let width = report.iter().map(|l| l.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for line in report {
        let mark = if line.ok { "ok " } else { "-- " };
        out.push_str(&format!("{mark} {:<width$}  {}\n", line.name, line.detail));
    }
    out
}
