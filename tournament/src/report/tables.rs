//! What a report shows of a tournament of tables (a game of N > 2 seats): per bot its games,
//! places (1st, 2nd, ...), seats, points and Weng-Lin rating with its 95 % interval.

use std::fmt::Write as _;

use serde::Serialize;

use crate::store::TableGameRow;
use crate::weng_lin::{self, Placed};

/// One bot's line.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TableRow {
    pub rank: usize,
    pub bot: String,
    /// Games with a result.
    pub games: u32,
    /// `places[k]`: games the bot finished in place k + 1.
    pub places: Vec<u32>,
    /// `seats[k]`: games the bot played in seat k (those with no result too).
    pub seats: Vec<u32>,
    pub points: f64,
    pub mu: f64,
    pub sigma: f64,
    /// The 95 % interval of mu.
    pub low: f64,
    pub high: f64,
    /// Games the bot lost by its own fault (a crash, a timeout, an illegal move).
    pub failures: u32,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TablesReport {
    pub seats: usize,
    pub games_per_table: usize,
    pub tables: usize,
    pub points_per_place: Vec<f64>,
    /// In rank order: points, then mu.
    pub rows: Vec<TableRow>,
    pub games: Vec<TableGameRow>,
}

impl TablesReport {
    pub fn build(
        names: &[String],
        seats: usize,
        games_per_table: usize,
        per_place: &[f64],
        games: Vec<TableGameRow>,
    ) -> TablesReport {
        let idx = |name: &str| names.iter().position(|n| n == name);
        let mut rows: Vec<TableRow> = names
            .iter()
            .map(|n| TableRow {
                rank: 0,
                bot: n.clone(),
                games: 0,
                places: vec![0; seats],
                seats: vec![0; seats],
                points: 0.0,
                mu: 0.0,
                sigma: 0.0,
                low: 0.0,
                high: 0.0,
                failures: 0,
            })
            .collect();
        // Ratings in the order the games were recorded (their ids follow the play order).
        let mut done: Vec<&TableGameRow> = games.iter().filter(|g| g.result.is_some()).collect();
        done.sort_by(|a, b| {
            let at = |g: &TableGameRow| g.result.as_ref().map(|r| r.finished_at.clone());
            at(a).cmp(&at(b)).then(a.order.cmp(&b.order))
        });
        let mut placed: Vec<Placed> = Vec::new();
        for g in &done {
            let Some(res) = &g.result else { continue };
            let bots: Option<Vec<usize>> = g.seats.iter().map(|s| idx(s)).collect();
            let Some(bots) = bots else { continue };
            for (s, &b) in bots.iter().enumerate() {
                if let Some(x) = rows[b].seats.get_mut(s) {
                    *x += 1;
                }
                if res.culprit == Some(s) {
                    rows[b].failures += 1;
                }
            }
            if !res.counts() || res.places.len() != bots.len() {
                continue;
            }
            let pts = crate::tables::points(&res.places, per_place);
            for ((&b, &p), q) in bots.iter().zip(&res.places).zip(pts) {
                rows[b].games += 1;
                rows[b].points += q;
                if let Some(x) = rows[b].places.get_mut((p as usize).saturating_sub(1)) {
                    *x += 1;
                }
            }
            placed.push((bots, res.places.clone()));
        }
        for (row, skill) in rows.iter_mut().zip(weng_lin::rate(names.len(), &placed)) {
            let (low, high) = skill.interval();
            (row.mu, row.sigma, row.low, row.high) = (skill.mu, skill.sigma, low, high);
        }
        rows.sort_by(|a, b| {
            b.points
                .total_cmp(&a.points)
                .then(b.mu.total_cmp(&a.mu))
                .then(a.bot.cmp(&b.bot))
        });
        for (k, row) in rows.iter_mut().enumerate() {
            row.rank = k + 1;
        }
        let tables = games
            .iter()
            .map(|g| g.table)
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        TablesReport {
            seats,
            games_per_table,
            tables,
            points_per_place: per_place.to_vec(),
            rows,
            games,
        }
    }

    pub fn done(&self) -> usize {
        self.games.iter().filter(|g| g.result.is_some()).count()
    }
}

/// "1st", "2nd", "3rd", "4th", ...
pub fn ordinal(k: usize) -> String {
    let suffix = match (k % 10, k % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
}

/// The per-bot table as plain text.
pub fn terminal(t: &TablesReport) -> String {
    let width = t.rows.iter().map(|r| r.bot.len()).max().unwrap_or(3).max(3);
    let mut out = format!(
        "tables of {} seats: {} tables x {} games; points per place {:?}\n",
        t.seats, t.tables, t.games_per_table, t.points_per_place
    );
    let places: Vec<String> = (1..=t.seats)
        .map(|k| format!("{:>4}", ordinal(k)))
        .collect();
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>5}  {}  {:>7}  {:>22}  failures",
        "rank",
        "bot",
        "games",
        places.join(" "),
        "points",
        "Weng-Lin mu (95%)"
    );
    for r in &t.rows {
        let counts: Vec<String> = r.places.iter().map(|c| format!("{c:>4}")).collect();
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>5}  {}  {:>7}  {:>22}  {}",
            r.rank,
            r.bot,
            r.games,
            counts.join(" "),
            r.points,
            format!("{:.2} ({:.2}..{:.2})", r.mu, r.low, r.high),
            r.failures
        );
    }
    out
}

/// The per-bot table and the games as an HTML fragment (`esc` escapes text).
pub fn html(t: &TablesReport, esc: impl Fn(&str) -> String) -> String {
    let mut h = format!(
        "<h2>Tables</h2><p class=small>tables of {} seats: {} tables &times; {} games; points \
         per place {}; rating: Weng-Lin (OpenSkill's model), mu with its 95&nbsp;% interval \
         (mu &plusmn; 1.96 sigma)</p><table><tr><th>#</th><th class=l>bot</th><th>games</th>",
        t.seats,
        t.tables,
        t.games_per_table,
        esc(&format!("{:?}", t.points_per_place))
    );
    for k in 1..=t.seats {
        let _ = write!(h, "<th>{}</th>", ordinal(k));
    }
    h.push_str("<th>points</th><th>mu</th><th>95%</th><th>sigma</th><th>failures</th></tr>");
    for r in &t.rows {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=l>{}</td><td>{}</td>",
            r.rank,
            esc(&r.bot),
            r.games
        );
        for c in &r.places {
            let _ = write!(h, "<td>{c}</td>");
        }
        let _ = write!(
            h,
            "<td>{}</td><td>{:.2}</td><td>{:.2}..{:.2}</td><td>{:.2}</td><td>{}</td></tr>",
            r.points, r.mu, r.low, r.high, r.sigma, r.failures
        );
    }
    h.push_str("</table><h2>Games of the tables</h2><table><tr><th>game</th><th>table</th>");
    for s in 0..t.seats {
        let _ = write!(h, "<th class=l>seat {}</th>", s + 1);
    }
    h.push_str("<th class=l>result</th></tr>");
    for g in &t.games {
        let _ = write!(h, "<tr><td>{}</td><td>{}</td>", g.id, g.table + 1);
        let places = g
            .result
            .as_ref()
            .map(|r| r.places.clone())
            .unwrap_or_default();
        for (s, name) in g.seats.iter().enumerate() {
            let place = places
                .get(s)
                .map(|&p| format!(" ({})", ordinal(p as usize)));
            let _ = write!(
                h,
                "<td class=l>{}{}</td>",
                esc(name),
                place.unwrap_or_default()
            );
        }
        let result = match &g.result {
            Some(r) => esc(&r.reason),
            None => "to play".into(),
        };
        let _ = write!(h, "<td class=l>{result}</td></tr>");
    }
    h.push_str("</table>");
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::TableResult;

    fn game(id: i64, seats: &[&str], places: &[u32]) -> TableGameRow {
        TableGameRow {
            id,
            key: format!("k{id}"),
            order: id,
            table: 0,
            number: id,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            config: String::new(),
            state: "done".into(),
            result: Some(TableResult {
                places: places.to_vec(),
                culprit: None,
                reason_code: "normal".into(),
                reason: "normal".into(),
                moves: 1,
                wall_ms: 1.0,
                replay: None,
                finished_at: format!("2026-01-01T00:00:{id:02}Z"),
            }),
        }
    }

    #[test]
    fn places_seats_points_and_rating_per_bot() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let games = vec![
            game(1, &["a", "b", "c"], &[1, 2, 3]),
            game(2, &["c", "a", "b"], &[3, 1, 2]),
            game(3, &["b", "c", "a"], &[2, 3, 1]),
        ];
        let t = TablesReport::build(&names, 3, 3, &[2.0, 1.0, 0.0], games);
        let a = &t.rows[0];
        assert_eq!((a.bot.as_str(), a.rank), ("a", 1));
        assert_eq!(a.places, vec![3, 0, 0]);
        assert_eq!(a.seats, vec![1, 1, 1]);
        assert_eq!(a.points, 6.0);
        assert!(a.low < a.mu && a.mu < a.high && a.mu > 25.0);
        assert_eq!(t.rows[2].bot, "c");
        assert!(terminal(&t).contains("3rd"));
        assert!(html(&t, |s| s.to_string()).contains("<th>2nd</th>"));
    }
}
