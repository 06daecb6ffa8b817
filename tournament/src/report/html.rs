//! The static site: `index.html` (standings, rating chart, crosstable, likelihood of
//! superiority), `bots/NAME.html` (seed 000's statistics with links to the games) and
//! `games/game-ID.html` per game, which embeds the web player.
//!
//! Works opened from disk (file://) as well as served: each game's replay is in
//! `games/game-ID.js` as `window.ARBITER_REPLAY = {...}`, loaded by a plain script tag (no
//! fetch), and posted to the player iframe as a Blob over the Saiblo postMessage protocol.
//! Without `player.html` the game page still lists the moves and the result.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use arbiter_engine::replay::{Failure, Reason, Replay};
use arbiter_i18n::{Arg, Lang};

use super::publish::{Publisher, SiteOptions};
use super::Report;
use crate::runner::write_atomic;
use crate::stats::SeatStats;
use crate::store::GameRow;

/// Larger fields get per-bot opponent tables instead of one n x n table.
const CROSSTABLE_MAX: usize = 60;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .5em;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}a{color:#0645ad}.small{font-size:.85em;color:#555}
.x td{min-width:2.5em;text-align:center}.self{background:#eee}pre{white-space:pre-wrap}
.moves{font-family:monospace;line-height:1.6}.ctl button{font-size:1.1em;margin-right:.3em}";

/// Writes the site into `dir`; `player` is the web player's page to write beside it (if any;
/// see [`crate::player::load`]). Returns the number of game pages written.
pub fn write_site(
    r: &Report,
    out_dir: &Path,
    dir: &Path,
    player: Option<&str>,
) -> anyhow::Result<usize> {
    write_site_with(r, out_dir, dir, player, &SiteOptions::default())
}

/// [`write_site`], with the bots' stderr and DEBUG output left out when `options` says so. No
/// page shows an absolute path of this machine (see [`Publisher`]).
pub fn write_site_with(
    r: &Report,
    out_dir: &Path,
    dir: &Path,
    player: Option<&str>,
    options: &SiteOptions,
) -> anyhow::Result<usize> {
    let (base, others) = match r.dirs.split_first() {
        Some((base, others)) => (base.as_path(), others),
        None => (Path::new("/"), &[][..]),
    };
    let others: Vec<&Path> = others.iter().map(PathBuf::as_path).collect();
    let publisher = Publisher::new(base, &others, options);
    let r = &publisher.report(r);
    let lang = options.lang;
    std::fs::create_dir_all(dir.join("bots"))?;
    std::fs::create_dir_all(dir.join("games"))?;
    let has_player = match player {
        Some(page) => {
            // The player speaks its host page's language, which it reads from its document.
            let html = page.replacen(
                "<html lang=\"en\">",
                &format!("<html lang=\"{}\">", lang.tag()),
                1,
            );
            write(&dir.join("player.html"), &html)?;
            true
        }
        None => false,
    };
    write(&dir.join("index.html"), &index(r, lang))?;
    for (name, page) in super::bracket::pages(r, lang) {
        write(&dir.join(name), &page)?;
    }
    write(&dir.join("standings.csv"), &r.standings_csv())?;
    write(&dir.join("games.csv"), &r.games_csv())?;
    write(&dir.join("report.json"), &serde_json::to_string_pretty(r)?)?;
    for s in &r.stats {
        write(
            &dir.join("bots").join(format!("{}.html", s.bot)),
            &bot_page(r, &s.bot, lang),
        )?;
    }
    let mut pages = 0;
    let mut modules = std::collections::BTreeSet::new();
    for g in &r.games {
        let Some(res) = &g.result else { continue };
        let replay = res.replay.as_ref().map(|p| {
            let text = std::fs::read_to_string(out_dir.join(p))
                .map_err(|e| format!("cannot read {p}: {e}"))?;
            let mut replay = Replay::from_json(&text).map_err(|e| e.to_string())?;
            publisher.replay(&mut replay);
            Ok::<Replay, String>(replay)
        });
        let js_name = format!("game-{:06}.js", g.slot);
        if let Some(Ok(replay)) = &replay {
            modules.extend(replay.game.as_module().map(|m| m.module.sha256.clone()));
            // Pages load the replay by a script tag, which works from file:// too.
            let js = format!("window.ARBITER_REPLAY = {};\n", replay.to_json());
            write(&dir.join("games").join(&js_name), &js)?;
        }
        let page = game_page(
            r,
            g,
            replay.as_ref(),
            has_player,
            &js_name,
            &publisher,
            lang,
        );
        write(
            &dir.join("games").join(format!("game-{:06}.html", g.slot)),
            &page,
        )?;
        pages += 1;
    }
    write_modules(dir, &modules)?;
    Ok(pages)
}

/// The game modules the replays name, once each (a replay carrying its module would repeat
/// it in every game's file), beside the player's page: `modules/<sha256>.wasm`, where the
/// player looks for a module its replay does not carry, and `modules/<sha256>.js`, which the
/// game pages load by a script tag to hand the player a replay that carries it: a site opened
/// from the disk (file://) cannot fetch the first.
fn write_modules(dir: &Path, modules: &std::collections::BTreeSet<String>) -> anyhow::Result<()> {
    use base64::Engine as _;
    for sha in modules {
        let bytes = arbiter_kit_host::host::module_bytes(sha).ok_or_else(|| {
            anyhow::anyhow!("the game module with sha256 {sha} is not loaded: cannot publish it")
        })?;
        std::fs::create_dir_all(dir.join("modules"))?;
        let path = dir.join("modules").join(format!("{sha}.wasm"));
        if !std::fs::read(&path).is_ok_and(|b| b == *bytes) {
            write_atomic(&path, &bytes)?;
        }
        let text = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let js = format!(
            "(window.ARBITER_MODULES = window.ARBITER_MODULES || {{}})[\"{sha}\"] = \"{text}\";\n"
        );
        write_atomic(
            &dir.join("modules").join(format!("{sha}.js")),
            js.as_bytes(),
        )?;
    }
    Ok(())
}

/// The script tag of a module game's module (see [`write_modules`]), for its game page.
fn module_script(replay: &Replay) -> String {
    match replay.game.as_module() {
        Some(m) => format!(
            "<script src=\"../modules/{}.js\"></script>",
            esc(&m.module.sha256)
        ),
        None => String::new(),
    }
}

/// Where the web player is found when none is named: `$CARGO_TARGET_DIR/www/player.html`,
/// then `target/www/player.html` here or next to the executable's target directory.
pub fn find_player() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(t) = std::env::var_os("CARGO_TARGET_DIR") {
        candidates.push(PathBuf::from(t).join("www/player.html"));
    }
    candidates.push(PathBuf::from("target/www/player.html"));
    if let Ok(exe) = std::env::current_exe() {
        // target/<profile>/arbiter -> target/www/player.html
        if let Some(target) = exe.parent().and_then(Path::parent) {
            candidates.push(target.join("www/player.html"));
        }
    }
    candidates.into_iter().find(|p| p.is_file())
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    write_atomic(path, text.as_bytes())
}

pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

pub(crate) fn head(title: &str, lang: Lang) -> String {
    format!(
        "<!doctype html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{STYLE}</style></head><body>\n",
        lang.tag(),
        esc(title)
    )
}

/// A message of the report's language, escaped for HTML.
pub(crate) fn t(lang: Lang, key: &str) -> String {
    esc(&lang.t(key))
}

/// A message with parameters, escaped for HTML.
pub(crate) fn ta(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> String {
    esc(&lang.ta(key, args))
}

pub(crate) fn title(r: &Report, lang: Lang) -> String {
    r.name
        .clone()
        .unwrap_or_else(|| lang.t("report-tournament"))
}

fn index(r: &Report, lang: Lang) -> String {
    let mut h = head(&title(r, lang), lang);
    let format = serde_json::to_value(r.format)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    let summary = ta(
        lang,
        "report-summary",
        &[
            ("game", r.game.to_string().into()),
            ("format", format.into()),
            ("per", r.games_per_pairing.into()),
            ("seed", r.seed.to_string().into()),
            ("done", r.done.into()),
            ("scheduled", r.scheduled.into()),
        ],
    );
    let _ = write!(
        h,
        "<h1>{}</h1><p class=small>{summary} &middot; <a href=standings.csv>standings.csv</a> <a href=games.csv>games.csv</a> <a href=report.json>report.json</a></p>",
        esc(&title(r, lang)),
    );
    if let Some(tables) = &r.tables {
        h.push_str(&super::tables::html(tables, esc));
        h.push_str("</body></html>\n");
        return h;
    }
    let _ = write!(
        h,
        "<h2>{}</h2><table><tr><th>#</th><th class=l>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>Elo</th><th>95%</th><th>Glicko-2</th><th>RD</th></tr>",
        t(lang, "report-standings"),
        t(lang, "report-col-bot"),
        t(lang, "report-col-version"),
        t(lang, "report-col-match-points"),
        t(lang, "report-col-matches"),
        t(lang, "report-col-games"),
        t(lang, "report-col-wdl"),
        t(lang, "report-col-game-points"),
    );
    for row in &r.standings.rows {
        let (elo, ci, g, rd) = r
            .rating_of(&row.bot)
            .map_or((0.0, 0.0, 1500.0, 350.0), |x| {
                (x.elo, x.ci95, x.glicko2, x.glicko2_rd)
            });
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=l><a href=\"bots/{}.html\">{}</a></td><td>{}</td><td>{}</td><td>{}-{}-{}</td><td>{}</td><td>{}-{}-{}</td><td>{}</td><td>{:+.0}</td><td>&plusmn;{:.0}</td><td>{:.0}</td><td>{:.0}</td></tr>",
            row.rank,
            esc(&row.bot),
            esc(&row.bot),
            r.version_of(&row.bot),
            row.match_points,
            row.matches_won,
            row.matches_drawn,
            row.matches_lost,
            row.games,
            row.wins,
            row.draws,
            row.losses,
            row.game_points,
            elo,
            ci,
            g,
            rd
        );
    }
    let _ = write!(
        h,
        "</table><p class=small>{}</p>",
        t(lang, "report-standings-note")
    );
    for note in &r.judging {
        let note = ta(lang, "report-judging", &[("note", note.into())]);
        let _ = write!(h, "<p class=small>{note}</p>");
    }
    h.push_str(&super::bracket::section(r, lang));
    let _ = write!(h, "<h2>{}</h2>", t(lang, "report-ratings"));
    h.push_str(&rating_chart_in(r, lang));
    // Crosstable in standings order.
    let order: Vec<usize> = r
        .standings
        .rows
        .iter()
        .filter_map(|row| r.standings.bots.iter().position(|b| *b == row.bot))
        .collect();
    let crosstable = t(lang, "report-crosstable");
    if order.len() > CROSSTABLE_MAX {
        let many = ta(
            lang,
            "report-crosstable-too-many",
            &[("n", order.len().into())],
        );
        let _ = write!(h, "<h2>{crosstable}</h2><p class=small>{many}</p>");
    } else {
        let note = t(lang, "report-crosstable-note");
        let _ = write!(
            h,
            "<h2>{crosstable}</h2><p class=small>{note}</p><table class=x><tr><th></th>"
        );
        for (k, _) in order.iter().enumerate() {
            let _ = write!(h, "<th>{}</th>", k + 1);
        }
        h.push_str("</tr>");
        for (k, &i) in order.iter().enumerate() {
            let _ = write!(
                h,
                "<tr><th class=l>{} {}</th>",
                k + 1,
                esc(&r.standings.bots[i])
            );
            for &j in &order {
                if i == j {
                    h.push_str("<td class=self></td>");
                    continue;
                }
                let c = &r.standings.cells[i][j];
                if c.games == 0 {
                    h.push_str("<td></td>");
                } else {
                    let _ = write!(
                        h,
                        "<td title=\"{}-{}-{}\">{}<span class=small>/{}</span></td>",
                        c.wins, c.draws, c.losses, c.points, c.games
                    );
                }
            }
            h.push_str("</tr>");
        }
        h.push_str("</table>");
    }
    if order.len() <= 40 {
        let _ = write!(
            h,
            "<h2>{}</h2><p class=small>{}</p><table class=x><tr><th></th>",
            t(lang, "report-los"),
            t(lang, "report-los-note")
        );
        for (k, _) in order.iter().enumerate() {
            let _ = write!(h, "<th>{}</th>", k + 1);
        }
        h.push_str("</tr>");
        for (k, &i) in order.iter().enumerate() {
            let _ = write!(
                h,
                "<tr><th class=l>{} {}</th>",
                k + 1,
                esc(&r.standings.bots[i])
            );
            for &j in &order {
                if i == j {
                    h.push_str("<td class=self></td>");
                } else {
                    let p = r.los.get(i).and_then(|x| x.get(j)).copied().unwrap_or(0.5);
                    let _ = write!(h, "<td>{:.0}</td>", p * 100.0);
                }
            }
            h.push_str("</tr>");
        }
        h.push_str("</table>");
    }
    let _ = write!(
        h,
        "<h2>{}</h2>{}",
        t(lang, "report-games"),
        games_head(lang)
    );
    for g in &r.games {
        h.push_str(&game_line(g, "", lang));
    }
    h.push_str("</table></body></html>\n");
    h
}

/// The head of a table of games.
fn games_head(lang: Lang) -> String {
    format!(
        "<table><tr><th>{}</th><th class=l>{}</th><th class=l>{}</th><th class=l>{}</th><th>{}</th></tr>",
        t(lang, "report-col-game"),
        t(lang, "report-col-first"),
        t(lang, "report-col-second"),
        t(lang, "report-col-result"),
        t(lang, "report-col-moves"),
    )
}

fn game_line(g: &GameRow, prefix: &str, lang: Lang) -> String {
    let (result, moves) = match &g.result {
        Some(res) => (result_text(g, lang), res.moves.to_string()),
        None => (format!("({})", g.state), String::new()),
    };
    let link = if g.result.is_some() {
        format!(
            "<a href=\"{prefix}games/game-{:06}.html\">{}</a>",
            g.slot, g.slot
        )
    } else {
        g.slot.to_string()
    };
    format!(
        "<tr><td>{link}</td><td class=l>{}</td><td class=l>{}</td><td class=l>{}</td><td>{moves}</td></tr>",
        esc(&g.seats[0]),
        esc(&g.seats[1]),
        esc(&result)
    )
}

/// A game's result: who won, the scores, and why (in English the CLI's words; in another
/// language the reason kind's name, the game's page saying it in full from the replay).
fn result_text(g: &GameRow, lang: Lang) -> String {
    let Some(res) = &g.result else {
        return g.state.clone();
    };
    let who = match res.winner {
        Some(w) => lang.ta(
            "report-wins",
            &[("name", (&g.seats[usize::from(w).min(1)]).into())],
        ),
        None if !res.counts() => lang.t("report-no-result"),
        None => lang.t("report-draw"),
    };
    let scores = res
        .scores
        .as_ref()
        .map(|s| {
            let each: Vec<String> = s.iter().map(i64::to_string).collect();
            format!(" {}", each.join("-"))
        })
        .unwrap_or_default();
    let reason = arbiter_i18n::verdict::in_table(lang, &res.reason_code, &res.reason);
    format!("{who}{scores} ({reason})")
}

/// Ratings with their 95 % intervals as an inline SVG (one row per bot, standings order).
pub fn rating_chart(r: &Report) -> String {
    rating_chart_in(r, Lang::En)
}

/// [`rating_chart`] labelled in `lang`.
pub fn rating_chart_in(r: &Report, lang: Lang) -> String {
    let n = r.ratings.len();
    if n == 0 {
        return String::new();
    }
    let lo = r
        .ratings
        .iter()
        .map(|x| x.elo - x.ci95.min(2000.0))
        .fold(f64::INFINITY, f64::min)
        .min(-50.0);
    let hi = r
        .ratings
        .iter()
        .map(|x| x.elo + x.ci95.min(2000.0))
        .fold(f64::NEG_INFINITY, f64::max)
        .max(50.0);
    let (left, width, row_h) = (180.0, 600.0, 18.0);
    let height = row_h * n as f64 + 40.0;
    let x = |v: f64| left + (v - lo) / (hi - lo) * width;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" font-size=\"12\" font-family=\"sans-serif\" role=\"img\" aria-label=\"{}\">",
        left + width + 20.0,
        t(lang, "report-chart-label")
    );
    let _ = write!(
        s,
        "<line x1=\"{0}\" y1=\"5\" x2=\"{0}\" y2=\"{1}\" stroke=\"#bbb\" stroke-dasharray=\"3,3\"/>",
        x(0.0),
        height - 25.0
    );
    // Axis ticks every 100 Elo (or coarser for wide spreads).
    let step = if hi - lo > 2000.0 {
        500.0
    } else if hi - lo > 800.0 {
        200.0
    } else {
        100.0
    };
    let mut t = (lo / step).ceil() * step;
    while t <= hi {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#555\">{t:+.0}</text>",
            x(t),
            height - 8.0
        );
        t += step;
    }
    for (k, row) in r.ratings.iter().enumerate() {
        let y = 15.0 + k as f64 * row_h;
        let ci = row.ci95.min(2000.0);
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#4a78c2\" stroke-width=\"2\"/><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#4a78c2\"/><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#4a78c2\"/><circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"#c24a4a\"><title>{} {:+.0} &#177; {:.0}</title></circle>",
            left - 8.0,
            y + 4.0,
            esc(&row.bot),
            x(row.elo - ci),
            x(row.elo + ci),
            x(row.elo - ci),
            y - 4.0,
            x(row.elo - ci),
            y + 4.0,
            x(row.elo + ci),
            y - 4.0,
            x(row.elo + ci),
            y + 4.0,
            x(row.elo),
            esc(&row.bot),
            row.elo,
            row.ci95
        );
    }
    s.push_str("</svg>");
    s
}

fn seat_block(title: &str, s: &SeatStats, lang: Lang) -> String {
    let list = |ids: &[i64]| {
        ids.iter()
            .map(|id| format!("<a href=\"../games/game-{id:06}.html\">{id}</a>"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let row = |head: String, value: String| {
        format!("<tr><th class=l>{head}</th><td class=l>{value}</td></tr>")
    };
    let count = |key: &str, ids: &[i64]| row(ta(lang, key, &[("n", ids.len().into())]), list(ids));
    let average = format!("{:.3}", s.average_ms);
    [
        format!("<h3>{title}</h3><table>"),
        row(t(lang, "report-stat-games"), s.games.to_string()),
        row(
            t(lang, "report-stat-average"),
            ta(lang, "report-stat-average-value", &[("ms", average.into())]),
        ),
        row(
            t(lang, "report-stat-win-rate"),
            format!("{:.2}%", s.win_rate * 100.0),
        ),
        count("report-stat-win", &s.wins),
        count("report-stat-draw", &s.draws),
        count("report-stat-lose", &s.losses),
        count("report-stat-violate", &s.violations),
        count("report-stat-timeout", &s.timeouts),
        count("report-stat-error", &s.errors),
        "</table>".to_string(),
    ]
    .concat()
}

fn bot_page(r: &Report, bot: &str, lang: Lang) -> String {
    let mut h = head(&format!("{bot} - {}", title(r, lang)), lang);
    let _ = write!(
        h,
        "<p><a href=\"../index.html\">{}</a></p><h1>{}</h1>",
        t(lang, "report-back"),
        esc(bot)
    );
    if let Some(v) = r.bots.iter().find(|v| v.bot == bot) {
        let version = ta(
            lang,
            "report-version",
            &[("version", v.version.to_string().into())],
        );
        let _ = write!(
            h,
            "<p class=small>{version} &middot; <code>{}</code></p>",
            esc(&v.command)
        );
    }
    if let Some(row) = r.standings.rows.iter().find(|x| x.bot == bot) {
        let (elo, ci) = r.rating_of(bot).map_or((0.0, 0.0), |x| (x.elo, x.ci95));
        let line = ta(
            lang,
            "report-bot-line",
            &[
                ("rank", row.rank.to_string().into()),
                ("points", row.match_points.to_string().into()),
                ("w", row.wins.to_string().into()),
                ("d", row.draws.to_string().into()),
                ("l", row.losses.to_string().into()),
                ("gp", row.game_points.to_string().into()),
                ("elo", format!("{elo:+.0}").into()),
                ("ci", format!("{ci:.0}").into()),
            ],
        );
        let _ = write!(h, "<p>{line}</p>");
    }
    if let Some(i) = r.standings.bots.iter().position(|b| b == bot) {
        let _ = write!(
            h,
            "<h3>{}</h3><table><tr><th class=l>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            t(lang, "report-against"),
            t(lang, "report-col-opponent"),
            t(lang, "report-col-games"),
            t(lang, "report-col-wdl"),
            t(lang, "report-col-points"),
            t(lang, "report-col-stronger"),
        );
        for row in &r.standings.rows {
            let Some(j) = r.standings.bots.iter().position(|b| *b == row.bot) else {
                continue;
            };
            let Some(c) = r.standings.cells.get(i).and_then(|x| x.get(j)) else {
                continue;
            };
            if i == j || c.games == 0 {
                continue;
            }
            let los = r.los.get(i).and_then(|x| x.get(j)).copied().unwrap_or(0.5);
            let _ = write!(
                h,
                "<tr><td class=l><a href=\"{0}.html\">{0}</a></td><td>{1}</td><td>{2}-{3}-{4}</td><td>{5}</td><td>{6:.0}%</td></tr>",
                esc(&row.bot),
                c.games,
                c.wins,
                c.draws,
                c.losses,
                c.points,
                los * 100.0
            );
        }
        h.push_str("</table>");
    }
    if let Some(s) = r.stats.iter().find(|s| s.bot == bot) {
        h.push_str(&seat_block(&t(lang, "report-as-first"), &s.seats[0], lang));
        h.push_str(&seat_block(&t(lang, "report-as-second"), &s.seats[1], lang));
        let _ = write!(h, "<h3>{}</h3>", t(lang, "report-failures"));
        if s.failures.is_empty() {
            let _ = write!(h, "<p>{}</p>", t(lang, "report-none"));
        } else {
            let _ = write!(
                h,
                "<table><tr><th>{}</th><th>{}</th><th class=l>{}</th><th class=l>{}</th></tr>",
                t(lang, "report-col-game"),
                t(lang, "report-col-seat"),
                t(lang, "report-col-code"),
                t(lang, "report-col-reason"),
            );
            for f in &s.failures {
                let _ = write!(
                    h,
                    "<tr><td><a href=\"../games/game-{0:06}.html\">{0}</a></td><td>{1}</td><td class=l>{2}</td><td class=l>{3}</td></tr>",
                    f.game,
                    esc(&seat_name(lang, f.seat)),
                    esc(&f.code),
                    esc(&arbiter_i18n::verdict::in_table(lang, &f.code, &f.reason))
                );
            }
            h.push_str("</table>");
        }
    }
    let _ = write!(
        h,
        "<h3>{}</h3>{}",
        t(lang, "report-games"),
        games_head(lang)
    );
    for g in r.games.iter().filter(|g| g.seats.iter().any(|s| s == bot)) {
        h.push_str(&game_line(g, "../", lang));
    }
    h.push_str("</table></body></html>\n");
    h
}

/// "first" or "second" in the report's language.
fn seat_name(lang: Lang, seat: usize) -> String {
    lang.t(if seat == 0 {
        "report-seat-first"
    } else {
        "report-seat-second"
    })
}

const PLAYER_SCRIPT: &str = r#"<script>
(function () {
  var frame = document.getElementById('player');
  var frames = 0, at = 0, timer = null;
  var label = document.getElementById('frame');
  // The page opens at the decisive frame (where the game was lost or ended), or at #frame=K.
  var opening = parseInt(frame.getAttribute('data-frame'), 10) || 0;
  var asked = /frame=(\d+)/.exec(location.hash);
  if (asked) opening = parseInt(asked[1], 10);
  function post(m) { frame.contentWindow.postMessage(m, '*'); }
  function show(k) {
    if (frames === 0) return;
    at = Math.max(0, Math.min(frames - 1, k));
    post({ message: 'load_frame', index: at });
    label.textContent = at + ' / ' + (frames - 1);
  }
  frame.addEventListener('load', function () {
    // A module game's replay goes to the player with its module (modules/SHA.js), as the
    // replays of `arbiter match` do.
    var r = window.ARBITER_REPLAY, m = r.game && r.game.module;
    var wasm = m && window.ARBITER_MODULES && window.ARBITER_MODULES[m.sha256];
    if (wasm && !r.module_wasm) r.module_wasm = wasm;
    var data = JSON.stringify(r);
    post({ message: 'init_replay_player', replay_data: new Blob([data], { type: 'application/json' }) });
  });
  window.addEventListener('message', function (e) {
    var d = e.data || {};
    if (d.message === 'init_successfully') { frames = d.number_of_frames || 0; show(opening); }
    if (d.message === 'resized' && d.height) { frame.style.height = (d.height + 10) + 'px'; }
  });
  document.getElementById('first').onclick = function () { show(0); };
  document.getElementById('prev').onclick = function () { show(at - 1); };
  document.getElementById('next').onclick = function () { show(at + 1); };
  document.getElementById('last').onclick = function () { show(frames - 1); };
  document.getElementById('play').onclick = function () {
    if (timer) { clearInterval(timer); timer = null; return; }
    timer = setInterval(function () { if (at >= frames - 1) { clearInterval(timer); timer = null; } else { show(at + 1); } }, 300);
  };
})();
</script>"#;

fn game_page(
    r: &Report,
    g: &GameRow,
    replay: Option<&Result<Replay, String>>,
    has_player: bool,
    js: &str,
    publisher: &Publisher,
    lang: Lang,
) -> String {
    let game_title = lang.ta("report-game-title", &[("n", g.slot.to_string().into())]);
    let mut h = head(&format!("{game_title} - {}", title(r, lang)), lang);
    let heading = ta(
        lang,
        "report-game-heading",
        &[
            ("n", g.slot.to_string().into()),
            ("first", (&g.seats[0]).into()),
            ("second", (&g.seats[1]).into()),
        ],
    );
    let result = match replay {
        // Another language, or a module's own words for the ending: from the replay.
        Some(Ok(rep)) if lang != Lang::En || rep.meta.ending.is_some() => {
            game_result_in(g, rep, lang)
        }
        _ => result_text(g, lang),
    };
    let _ = write!(
        h,
        "<p><a href=\"../index.html\">{2}</a> &middot; <a href=\"../bots/{0}.html\">{0}</a> &middot; <a href=\"../bots/{1}.html\">{1}</a></p><h1>{heading}</h1><p>{3}</p>",
        esc(&g.seats[0]),
        esc(&g.seats[1]),
        t(lang, "report-back"),
        esc(&result)
    );
    match replay {
        Some(Ok(rep)) => {
            if has_player {
                let _ = write!(
                    h,
                    "<iframe id=player src=\"../player.html?lang={}&amp;origins=self\" data-frame=\"{}\" style=\"width:100%;height:640px;border:1px solid #ccc\" title=\"{}\"></iframe>\
<div class=ctl><button id=first title=\"{}\">|&lt;</button><button id=prev title=\"{}\">&lt;</button><button id=play>{}</button><button id=next title=\"{}\">&gt;</button><button id=last title=\"{}\">&gt;|</button> {} <span id=frame>-</span></div>\
{}<script src=\"{}\"></script>{PLAYER_SCRIPT}",
                    lang.tag(),
                    rep.decisive_frame(),
                    t(lang, "report-player-title"),
                    t(lang, "report-btn-start"),
                    t(lang, "report-btn-back"),
                    t(lang, "report-btn-play"),
                    t(lang, "report-btn-forward"),
                    t(lang, "report-btn-end"),
                    t(lang, "report-frame"),
                    module_script(rep),
                    esc(js)
                );
            } else {
                let _ = write!(h, "<p class=small>{}</p>", t(lang, "report-no-player"));
            }
            if let Some(f) = &rep.failure {
                h.push_str(&failure_block(g, rep, f, publisher, lang));
            }
            moves_block(&mut h, g, rep, lang);
        }
        Some(Err(e)) => {
            let error = publisher.text(e);
            let _ = write!(
                h,
                "<p>{}</p>",
                ta(lang, "report-unreadable", &[("error", error.into())])
            );
        }
        None => {
            let _ = write!(h, "<p>{}</p>", t(lang, "report-no-replay"));
        }
    }
    h.push_str("</body></html>\n");
    h
}

/// Why the seat at fault lost: its line, its time, how its process ended, its DEBUG output
/// and the end of its stderr (unless the site leaves bot output out).
fn failure_block(
    g: &GameRow,
    rep: &Replay,
    f: &Failure,
    publisher: &Publisher,
    lang: Lang,
) -> String {
    let seat = f.seat.index();
    let why = ta(
        lang,
        "report-why-lost",
        &[
            ("name", (&g.seats[seat.min(1)]).into()),
            ("seat", seat_name(lang, seat).into()),
        ],
    );
    let mut h = format!(
        "<h3>{why}</h3><p>{}</p><table>",
        esc(&arbiter_i18n::verdict::reason(lang, &rep.result.reason))
    );
    let sent = match &rep.result.reason {
        Reason::IllegalMove { line, .. } => line.as_deref(),
        Reason::MalformedOutput { line, .. } | Reason::OutOfTurn { line, .. } => {
            Some(line.as_str())
        }
        _ => None,
    };
    if let Some(line) = sent {
        let _ = write!(
            h,
            "<tr><th class=l>{}</th><td class=l><code>{}</code></td></tr>",
            t(lang, "report-it-sent"),
            esc(&format!("{line:?}"))
        );
    }
    if let Some(t) = f.time_ms {
        let clock = f
            .clock_ms
            .map(|c| {
                let s = format!("{:.1}", c / 1000.0);
                ta(lang, "report-clock-left", &[("s", s.into())])
            })
            .unwrap_or_default();
        let _ = write!(
            h,
            "<tr><th class=l>{}</th><td class=l>{t:.0} ms{clock}</td></tr>",
            self::t(lang, "report-time")
        );
    }
    if let Some(exit) = &f.exit {
        let _ = write!(
            h,
            "<tr><th class=l>{}</th><td class=l>{}</td></tr>",
            t(lang, "report-process"),
            esc(&arbiter_i18n::verdict::exit(lang, exit))
        );
    }
    h.push_str("</table>");
    if let Some(log) = &f.log {
        let _ = write!(
            h,
            "<h4>{}</h4><pre>{}</pre>",
            t(lang, "report-debug"),
            esc(log)
        );
    }
    if let Some(stderr) = &f.stderr {
        let _ = write!(
            h,
            "<h4>{}</h4><pre>{}</pre>",
            t(lang, "report-stderr-end"),
            esc(stderr)
        );
    }
    if publisher.hides_bot_output() {
        let _ = write!(h, "<p class=small>{}</p>", t(lang, "report-hidden"));
    }
    h
}

fn moves_block(h: &mut String, g: &GameRow, rep: &Replay, lang: Lang) {
    if !rep.opening.is_empty() {
        let _ = write!(
            h,
            "<p>{} <span class=moves>{}</span></p>",
            t(lang, "report-opening"),
            esc(&rep.opening.join(" "))
        );
    }
    let _ = write!(h, "<h3>{}</h3><p class=moves>", t(lang, "report-moves"));
    for (k, m) in rep.moves.iter().enumerate() {
        let t = m
            .time_ms
            .map(|t| format!(" title=\"{t:.1} ms\""))
            .unwrap_or_default();
        let _ = write!(h, "<span{t}>{}.&nbsp;{}</span> ", k + 1, esc(&m.mv));
    }
    h.push_str("</p>");
    // Replays of older versions kept both seats' stderr here.
    if let Some(tails) = &rep.meta.stderr {
        for (seat, tail) in tails.iter().enumerate() {
            if !tail.is_empty() {
                let _ = write!(
                    h,
                    "<h3>{}</h3><pre>{}</pre>",
                    ta(
                        lang,
                        "report-stderr-of",
                        &[("name", (&g.seats[seat.min(1)]).into())]
                    ),
                    esc(tail)
                );
            }
        }
    }
}

/// A game's result said in `lang` from its replay's reason.
fn game_result_in(g: &GameRow, rep: &Replay, lang: Lang) -> String {
    let who = match (rep.result.winner, &rep.result.reason) {
        (Some(w), _) => lang.ta(
            "report-wins",
            &[("name", (&g.seats[w.index().min(1)]).into())],
        ),
        (None, Reason::Aborted { .. }) => lang.t("report-no-result"),
        (None, _) => lang.t("report-draw"),
    };
    let scores = rep
        .scores
        .as_ref()
        .map(|s| {
            let each: Vec<String> = s.iter().map(i64::to_string).collect();
            format!(" {}", each.join("-"))
        })
        .unwrap_or_default();
    // A module's own words for how its game ended ("four in a row"), where it gives them.
    let reason = match (&rep.result.reason, &rep.meta.ending) {
        (Reason::Normal, Some(words)) => words.clone(),
        (r, _) => arbiter_i18n::verdict::reason(lang, r),
    };
    format!("{who}{scores} ({reason})")
}
