//! The standings as a plain-text table.

use super::Report;

pub fn render(r: &Report) -> String {
    let width = r
        .standings
        .rows
        .iter()
        .map(|x| x.bot.len())
        .max()
        .unwrap_or(3)
        .max(3);
    let mut out = format!(
        "{} ({}): {} of {} games played\n",
        r.name.as_deref().unwrap_or("tournament"),
        r.game.title(),
        r.done,
        r.scheduled
    );
    if let Some(t) = &r.tables {
        out.push_str(&super::tables::terminal(t));
        return out;
    }
    out.push_str(&format!(
        "{:>4}  {:<width$}  {:>4}  {:>8}  {:>12}  {:>7}  {:>13}  failures\n",
        "rank", "bot", "MP", "matches", "games W-D-L", "points", "Elo (95%)"
    ));
    for row in &r.standings.rows {
        let (elo, ci) = r
            .rating_of(&row.bot)
            .map_or((0.0, 0.0), |x| (x.elo, x.ci95));
        let failures = r
            .stats
            .iter()
            .find(|s| s.bot == row.bot)
            .map(|s| {
                s.failure_counts
                    .iter()
                    .map(|(k, v)| format!("{k} x{v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>4}  {:>8}  {:>12}  {:>7}  {:>13}  {}\n",
            row.rank,
            row.bot,
            row.match_points,
            format!(
                "{}-{}-{}",
                row.matches_won, row.matches_drawn, row.matches_lost
            ),
            format!("{}-{}-{}", row.wins, row.draws, row.losses),
            row.game_points,
            format!("{:+.0} ± {ci:.0}", tidy(elo)),
            failures
        ));
    }
    for note in &r.judging {
        out.push_str(&format!("judging: {note}\n"));
    }
    for s in &r.stages {
        let what = serde_json::to_value(s.format)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        let state = match &s.order {
            Some(order) => format!("final order: {}", order.join(", ")),
            None => format!("{} round(s) stored, being played", s.rounds),
        };
        out.push_str(&format!(
            "stage {} ({what}, {} entrants): {state}\n",
            s.stage + 1,
            s.entrants.len()
        ));
    }
    out
}

/// Keeps "-0" out of tables: differences far below a rating point are noise of the fit.
pub fn tidy(x: f64) -> f64 {
    if x.abs() < 1e-6 {
        0.0
    } else {
        x
    }
}
