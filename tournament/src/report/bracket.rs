//! The site's pages of a staged format: `stage-K.html` per stage (a Swiss table, groups'
//! tables, or a knockout's bracket with every match and its games), and the index's section
//! listing the stages.

use std::fmt::Write as _;

use arbiter_i18n::Lang;

use super::html::{esc, head, t, ta, title};
use super::Report;
use crate::knockout::Part;
use crate::staged::{MatchReport, StageReport};
use crate::stages::StageFormat;

const STYLE: &str = "<style>.bracket{display:flex;gap:1.2em;align-items:center;overflow-x:auto;margin:1em 0}.col{display:flex;flex-direction:column;justify-content:space-around;gap:.8em;min-width:12em}.col h4{margin:.2em 0;text-align:center}.m{border:1px solid #bbb;border-radius:4px;padding:.2em .4em;background:#fafafa}.m div{display:flex;justify-content:space-between;gap:.6em}.m .w{font-weight:bold}.m .g{font-size:.8em;color:#555}.m.np{opacity:.5}</style>";

/// The stage's page file.
fn file(s: &StageReport) -> String {
    format!("stage-{}.html", s.stage + 1)
}

fn heading(s: &StageReport, lang: Lang) -> String {
    let n = (s.stage + 1).into();
    match s.format {
        StageFormat::Swiss => {
            let rounds = s.planned_rounds.into();
            ta(lang, "report-stage-swiss", &[("n", n), ("rounds", rounds)])
        }
        StageFormat::RoundRobin => ta(lang, "report-stage-round-robin", &[("n", n)]),
        StageFormat::Groups => ta(
            lang,
            "report-stage-groups",
            &[("n", n), ("groups", s.groups.len().into())],
        ),
        StageFormat::Knockout => ta(lang, "report-stage-knockout", &[("n", n)]),
    }
}

/// The index's list of stages, with each one's final order once decided.
pub fn section(r: &Report, lang: Lang) -> String {
    if r.stages.is_empty() {
        return String::new();
    }
    let mut h = format!("<h2>{}</h2><ul>", t(lang, "report-stages"));
    for s in &r.stages {
        let link = if s.format == StageFormat::Knockout {
            t(lang, "report-bracket-link")
        } else {
            t(lang, "report-table-link")
        };
        let _ = write!(
            h,
            "<li><a href=\"{}\">{}</a> ({}, {link}): {}</li>",
            file(s),
            heading(s, lang),
            ta(
                lang,
                "report-stage-entrants",
                &[("n", s.entrants.len().into())]
            ),
            status(s, lang)
        );
    }
    h.push_str("</ul>");
    h
}

fn status(s: &StageReport, lang: Lang) -> String {
    match &s.order {
        Some(order) => ta(
            lang,
            "report-stage-order",
            &[("order", order.join(", ").into())],
        ),
        None => ta(
            lang,
            "report-stage-progress",
            &[("rounds", s.rounds.into())],
        ),
    }
}

/// Every stage's page: (file name, HTML).
pub fn pages(r: &Report, lang: Lang) -> Vec<(String, String)> {
    r.stages
        .iter()
        .map(|s| {
            let mut h = head(&format!("{} - {}", heading(s, lang), title(r, lang)), lang);
            h.push_str(STYLE);
            let _ = write!(
                h,
                "<p><a href=\"index.html\">{}</a></p><h1>{}</h1><p>{}</p>",
                t(lang, "report-back"),
                heading(s, lang),
                status(s, lang)
            );
            match s.format {
                StageFormat::Swiss => h.push_str(&swiss_table(s, lang)),
                StageFormat::RoundRobin | StageFormat::Groups => h.push_str(&groups(s, lang)),
                StageFormat::Knockout => h.push_str(&bracket(s, lang)),
            }
            h.push_str("</body></html>\n");
            (file(s), h)
        })
        .collect()
}

fn swiss_table(s: &StageReport, lang: Lang) -> String {
    let mut h = format!(
        "<table><tr><th>#</th><th class=l>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
        t(lang, "report-col-bot"),
        t(lang, "report-col-score"),
        t(lang, "report-col-buchholz"),
        t(lang, "report-col-sb"),
        t(lang, "report-col-h2h"),
        t(lang, "report-col-rounds"),
        t(lang, "report-col-byes"),
    );
    for row in &s.swiss {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=l><a href=\"bots/{}.html\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            row.rank,
            esc(&row.bot),
            esc(&row.bot),
            row.score,
            row.buchholz,
            row.sonneborn_berger,
            row.head_to_head,
            row.rounds,
            row.byes
        );
    }
    let _ = write!(
        h,
        "</table><p class=small>{}</p>",
        t(lang, "report-swiss-note")
    );
    h
}

fn groups(s: &StageReport, lang: Lang) -> String {
    let mut h = String::new();
    for (g, table) in s.groups.iter().enumerate() {
        if s.groups.len() > 1 {
            let _ = write!(
                h,
                "<h3>{}</h3>",
                ta(lang, "report-group", &[("n", (g + 1).into())])
            );
        }
        let _ = write!(
            h,
            "<table><tr><th>#</th><th class=l>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            t(lang, "report-col-bot"),
            t(lang, "report-col-match-points"),
            t(lang, "report-col-matches"),
            t(lang, "report-col-wdl"),
            t(lang, "report-col-game-points"),
        );
        for row in &table.rows {
            let _ = write!(
                h,
                "<tr><td>{}</td><td class=l>{}</td><td>{}</td><td>{}-{}-{}</td><td>{}-{}-{}</td><td>{}</td></tr>",
                row.rank,
                esc(&row.bot),
                row.match_points,
                row.matches_won,
                row.matches_drawn,
                row.matches_lost,
                row.wins,
                row.draws,
                row.losses,
                row.game_points
            );
        }
        h.push_str("</table>");
    }
    h
}

fn bracket(s: &StageReport, lang: Lang) -> String {
    let mut h = String::new();
    let parts = [
        (Part::Winners, "report-bracket-winners"),
        (Part::Losers, "report-bracket-losers"),
    ];
    let double = s.matches.iter().any(|m| m.part == Part::GrandFinal);
    for (part, key) in parts {
        let matches: Vec<&MatchReport> = s.matches.iter().filter(|m| m.part == part).collect();
        if matches.is_empty() {
            continue;
        }
        if double {
            let _ = write!(h, "<h2>{}</h2>", t(lang, key));
        }
        h.push_str("<div class=bracket>");
        let rounds = matches.iter().map(|m| m.round).max().unwrap_or(0);
        for round in 1..=rounds {
            let _ = write!(
                h,
                "<div class=col><h4>{}</h4>",
                ta(lang, "report-round", &[("n", round.into())])
            );
            for m in matches.iter().filter(|m| m.round == round) {
                h.push_str(&match_box(m, lang));
            }
            h.push_str("</div>");
        }
        h.push_str("</div>");
    }
    for (part, key) in [
        (Part::GrandFinal, "report-bracket-final"),
        (Part::Reset, "report-bracket-reset"),
    ] {
        for m in s.matches.iter().filter(|m| m.part == part) {
            let _ = write!(
                h,
                "<h2>{}</h2><div class=bracket><div class=col>{}</div></div>",
                t(lang, key),
                match_box(m, lang)
            );
        }
    }
    let (per, extra) = (s.games, s.extra_pairs);
    let _ = write!(
        h,
        "<p class=small>{}</p>",
        ta(
            lang,
            "report-knockout-note",
            &[("games", per.into()), ("extra", extra.into())]
        )
    );
    h
}

fn match_box(m: &MatchReport, lang: Lang) -> String {
    let side = |k: usize| {
        let name = match (&m.sides[k], m.pending[k]) {
            (Some(n), _) => format!("<a href=\"bots/{0}.html\">{0}</a>", esc(n)),
            (None, true) => format!("<i>{}</i>", t(lang, "report-pending")),
            (None, false) => format!("<i>{}</i>", t(lang, "report-bye")),
        };
        let played = !m.games.is_empty();
        let points = if played {
            m.points[k].to_string()
        } else {
            String::new()
        };
        let class = if m.winner == Some(k) { " class=w" } else { "" };
        format!("<div{class}><span>{name}</span><span>{points}</span></div>")
    };
    let games = m
        .games
        .iter()
        .map(|g| format!("<a href=\"games/game-{g:06}.html\">{g}</a>"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut note = String::new();
    if m.by_rule {
        note = format!("<div class=g>{}</div>", t(lang, "report-by-rule"));
    }
    if m.not_played {
        note = format!("<div class=g>{}</div>", t(lang, "report-not-played"));
    }
    let class = if m.not_played { "m np" } else { "m" };
    format!(
        "<div class=\"{class}\" id=\"match-{}\">{}{}<div class=g>{games}</div>{note}</div>",
        m.id,
        side(0),
        side(1)
    )
}
